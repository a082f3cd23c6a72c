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

#[derive(Template)]
#[template(path = "console/inbox.html")]
struct InboxPage {
    frame: Frame,
    due: Vec<DueView>,
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
    let due = match email {
        Some(email) => match state.store.due_signatories(session.auth.tenant_id, &email).await {
            Ok(due) => due,
            Err(error) => return failure(error),
        },
        None => Vec::new(),
    };
    let due = due
        .into_iter()
        .map(|(signatory, workflow)| DueView {
            signatory: signatory.id.get(),
            workflow: workflow.name,
            since: when(signatory.notified_at.unwrap_or(signatory.created_at)),
        })
        .collect();
    render(StatusCode::OK, &InboxPage { frame: session.frame("/app/inbox"), due })
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
