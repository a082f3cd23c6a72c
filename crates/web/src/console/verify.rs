//! Reports sealed by the organisation (`/app/verify`): a member who may read the organisation's
//! workflows uploads a signed file and downloads its ETSI TS 119 102-2 validation report sealed
//! with the organisation's certificate, a statement in its name of what the file showed when
//! it was checked. The public page `/verify` shows the same verdicts in words, unsealed.

use askama::Template;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::Error;
use signet_domain::access::Permission;
use signet_http::AppState;
use signet_services::verification;

use super::{Frame, Session, failure, render, user_text};

#[derive(Template)]
#[template(path = "console/verify.html")]
struct VerifyPage {
    frame: Frame,
    error: Option<String>,
}

pub async fn form(session: Session) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    render(StatusCode::OK, &VerifyPage { frame: session.frame("/app/verify"), error: None })
}

/// What the form sent: the signed file, a detached signature's content and the form token.
#[derive(Default)]
struct Sent {
    csrf: String,
    file: Option<Vec<u8>>,
    content: Option<Vec<u8>>,
}

async fn read_form(mut multipart: Multipart) -> Option<Sent> {
    let mut sent = Sent::default();
    while let Some(field) = multipart.next_field().await.ok()? {
        match field.name().unwrap_or_default() {
            "csrf" => sent.csrf = field.text().await.ok()?,
            "file" => sent.file = Some(field.bytes().await.ok()?.to_vec()).filter(|b| !b.is_empty()),
            "content" => sent.content = Some(field.bytes().await.ok()?.to_vec()).filter(|b| !b.is_empty()),
            _ => {}
        }
    }
    Some(sent)
}

/// The sealed report of the uploaded file, as a download; the form again with what to correct.
pub async fn seal(State(state): State<AppState>, session: Session, multipart: Multipart) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    let again = |error: String| {
        render(StatusCode::BAD_REQUEST, &VerifyPage { frame: session.frame("/app/verify"), error: Some(error) })
    };
    let Some(sent) = read_form(multipart).await else {
        return again(session.text.s("message.files_unreadable").to_string());
    };
    if let Some(refused) = session.refuses_form(&sent.csrf) {
        return refused;
    }
    let Some(file) = sent.file else { return again(session.text.s("verify.choose_a_file").to_string()) };
    match verification::sealed_etsi_report(&state.services, &session.auth.caller(), file, sent.content).await {
        Ok(xml) => crate::page::report_download(xml, "validation-report-sealed.xml"),
        Err(error @ (Error::Validation(_) | Error::Rejected { .. })) => again(user_text(&error)),
        Err(error) => failure(error),
    }
}
