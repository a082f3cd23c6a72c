//! The inbox: what the signed-in person has to sign now in their organisation (they are a due
//! signatory by their address), each opened on its signer page without the e-mailed link.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::{Error, LotId, SignatoryId, WorkflowId};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::workflows::inbox;
use signet_services::workflows::links::signer_path;

use super::session::see_other;
use super::{Frame, Session, failure, render};

struct DueView {
    signatory: i64,
    workflow: String,
    since: String,
}

struct LotView {
    id: LotId,
    name: String,
    since: String,
}

#[derive(Template)]
#[template(path = "console/inbox.html")]
struct InboxPage {
    frame: Frame,
    due: Vec<DueView>,
    lots: Vec<LotView>,
}

pub async fn list(State(state): State<AppState>, session: Session) -> Response {
    let (due, lots) = match inbox::waiting(&state.services, &session.auth.caller()).await {
        Ok(waiting) => (waiting.due, waiting.lots),
        Err(error) => return failure(error),
    };
    let lots =
        lots.into_iter().map(|l| LotView { id: l.id, name: l.name, since: session.when(l.created_at) }).collect();
    let due = due
        .into_iter()
        .map(|(signatory, workflow)| DueView {
            signatory: signatory.id.get(),
            workflow: workflow.name,
            since: session.when(signatory.notified_at.unwrap_or(signatory.created_at)),
        })
        .collect();
    render(StatusCode::OK, &InboxPage { frame: session.frame("/app/inbox"), due, lots })
}

/// Opens the person's own signer page for a signature that is theirs and due.
pub async fn open(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<i64>) -> Response {
    let theirs = inbox::own_turn(&state.services, &session.auth.caller(), SignatoryId::from(id)).await;
    match theirs {
        Ok(signatory) => see_other(&signer_path(&state.services, &signatory)),
        Err(error) => failure(error),
    }
}

struct LotWorkflowView {
    id: WorkflowId,
    name: String,
}

#[derive(Template)]
#[template(path = "console/lot.html")]
struct LotPage {
    frame: Frame,
    id: LotId,
    name: String,
    workflows: Vec<LotWorkflowView>,
    error: Option<String>,
}

async fn lot_page(state: &AppState, session: &Session, id: LotId, error: Option<String>) -> Result<LotPage, Error> {
    let (lot, named) = inbox::lot_with_names(&state.services, &session.auth.caller(), id).await?;
    let workflows = named.into_iter().map(|(id, name)| LotWorkflowView { id, name }).collect();
    Ok(LotPage { frame: session.frame("/app/inbox"), id: lot.row.id, name: lot.row.name, workflows, error })
}

/// A lot waiting for the person: its workflows, and the form that signs them all at once.
pub async fn lot(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<i64>) -> Response {
    match lot_page(&state, &session, LotId::from(id), None).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

/// Signs a lot: one consent and one signature image for every workflow in it, as `POST
/// /api/v1/lots/sign`; the job's page follows the signing.
pub async fn sign_lot(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    mut multipart: axum::extract::Multipart,
) -> Response {
    let (mut csrf, mut consent, mut comments, mut image) = (String::new(), false, None, Vec::new());
    let unreadable = || super::page_error(StatusCode::BAD_REQUEST, session.text.s("lot.form_unreadable"));
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(_) => return unreadable(),
        };
        let name = field.name().unwrap_or_default().to_string();
        let Ok(bytes) = field.bytes().await else { return unreadable() };
        match name.as_str() {
            "csrf" => csrf = String::from_utf8_lossy(&bytes).into_owned(),
            "consent" => consent = true,
            "comments" => comments = Some(String::from_utf8_lossy(&bytes).into_owned()),
            "signature" => image = bytes.to_vec(),
            _ => {}
        }
    }
    if let Some(refused) = session.refuses_form(&csrf) {
        return refused;
    }
    let id = LotId::from(id);
    let signed = async {
        if !consent {
            return Err(Error::field("consent", session.text.s("inbox.tick_to_consent")));
        }
        let image = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &image);
        signet_services::bulk::lots::sign(&state.services, &session.auth.caller(), id, &image, comments.as_deref())
            .await
    }
    .await;
    match signed {
        Ok(job) => see_other(&format!("/app/bulk/jobs/{}", job.job_id)),
        Err(error) => super::shown_again(error, async |text| lot_page(&state, &session, id, Some(text)).await).await,
    }
}
