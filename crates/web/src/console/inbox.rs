//! The inbox: what the signed-in person has to sign now in their organisation (they are a due
//! signatory by their address), each opened on its signer page without the e-mailed link.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_api::AppState;
use signet_api::extract::ApiPath;
use signet_domain::{Error, SignatoryId};
use signet_services::workflows::links::signer_path;

use super::session::see_other;
use super::{Frame, Session, failure, render, when};

struct DueView {
    signatory: i64,
    workflow: String,
    since: String,
}

struct LotView {
    id: i64,
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

/// The person's address in their tenant (API clients have none: their inbox is empty).
async fn own_email(state: &AppState, session: &Session) -> Result<Option<String>, Error> {
    state.store.tenant_user_email(session.auth.tenant_id, session.auth.principal_id).await
}

pub async fn list(State(state): State<AppState>, session: Session) -> Response {
    let email = match own_email(&state, &session).await {
        Ok(email) => email,
        Err(error) => return failure(error),
    };
    let found = match &email {
        Some(email) => {
            let tenant = session.auth.tenant_id;
            let due = state.store.due_signatories(tenant, email).await;
            let lots = state.store.lots_to_sign(tenant, email).await;
            due.and_then(|due| lots.map(|lots| (due, lots)))
        }
        None => Ok((Vec::new(), Vec::new())),
    };
    let (due, lots) = match found {
        Ok(found) => found,
        Err(error) => return failure(error),
    };
    let lots = lots.into_iter().map(|l| LotView { id: l.id, name: l.name, since: when(l.created_at) }).collect();
    let due = due
        .into_iter()
        .map(|(signatory, workflow)| DueView {
            signatory: signatory.id.get(),
            workflow: workflow.name,
            since: when(signatory.notified_at.unwrap_or(signatory.created_at)),
        })
        .collect();
    render(StatusCode::OK, &InboxPage { frame: session.frame("/app/inbox"), due, lots })
}

/// Opens the person's own signer page for a signature that is theirs and due.
pub async fn open(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<i64>) -> Response {
    let email = match own_email(&state, &session).await {
        Ok(Some(email)) => email,
        Ok(None) => return failure(Error::not_found("signature")),
        Err(error) => return failure(error),
    };
    let found = match state.store.signatory(SignatoryId::from(id)).await {
        Ok(found) => found,
        Err(error) => return failure(error),
    };
    let theirs = found.filter(|(s, w)| {
        w.tenant_id == session.auth.tenant_id
            && s.email.eq_ignore_ascii_case(&email)
            && s.state().is_turn()
            && w.state().as_str() == "in_progress"
    });
    match theirs {
        Some((signatory, _)) => see_other(&signer_path(&state, &signatory)),
        None => failure(Error::not_found("signature")),
    }
}

struct LotWorkflowView {
    id: i64,
    name: String,
}

#[derive(Template)]
#[template(path = "console/lot.html")]
struct LotPage {
    frame: Frame,
    id: i64,
    name: String,
    workflows: Vec<LotWorkflowView>,
    error: Option<String>,
}

async fn lot_page(state: &AppState, session: &Session, id: i64, error: Option<String>) -> Result<LotPage, Error> {
    let lot = signet_services::lots::get(state, &session.auth.caller(), id).await?;
    let mut workflows = Vec::with_capacity(lot.workflow_ids.len());
    for workflow_id in lot.workflow_ids {
        let name =
            state.store.workflow(session.auth.tenant_id, workflow_id.into()).await?.map(|w| w.name).unwrap_or_default();
        workflows.push(LotWorkflowView { id: workflow_id, name });
    }
    Ok(LotPage { frame: session.frame("/app/inbox"), id: lot.row.id, name: lot.row.name, workflows, error })
}

/// A lot waiting for the person: its workflows, and the form that signs them all at once.
pub async fn lot(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<i64>) -> Response {
    match lot_page(&state, &session, id, None).await {
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
    let signed = async {
        if !consent {
            return Err(Error::field("consent", session.text.s("inbox.tick_to_consent")));
        }
        let image = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &image);
        signet_services::lots::sign(&state, &session.auth.caller(), id, &image, comments.as_deref()).await
    }
    .await;
    match signed {
        Ok(job) => see_other(&format!("/app/bulk/jobs/{}", job.job_id)),
        Err(error) => super::shown_again(error, async |text| lot_page(&state, &session, id, Some(text)).await).await,
    }
}
