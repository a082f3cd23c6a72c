//! The e-mails a sender gets about the workflows they send (issue 37, item 1): each person's
//! own choice, made here: "completed" (with the signed documents attached when they fit) and
//! "declined" unless turned off, "each signature" when turned on.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::user::SenderNotices;
use signet_http::AppState;
use signet_services::people::users;

use super::{FormFields, Frame, Session, failure, render, shown_again};

#[derive(Template)]
#[template(path = "console/notices.html")]
struct NoticesPage {
    frame: Frame,
    chosen: SenderNotices,
    notice: Option<&'static str>,
    error: Option<String>,
}

/// `GET /app/notices`.
pub async fn show(State(state): State<AppState>, session: Session) -> Response {
    if let Some(refused) = session.refuses_without(Permission::Authenticated) {
        return refused;
    }
    match users::sender_notices(&state.services, &session.auth.caller()).await {
        Ok(chosen) => render(StatusCode::OK, &page(&session, chosen)),
        Err(error) => failure(error),
    }
}

fn page(session: &Session, chosen: SenderNotices) -> NoticesPage {
    NoticesPage { frame: session.frame("/app/notices"), chosen, notice: None, error: None }
}

/// `POST /app/notices`: the boxes ticked (`completed`, `declined`, `signed`).
pub async fn save(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::Authenticated, fields.get("csrf")) {
        return refused;
    }
    let ticked = |name: &str| fields.get(name) == "on";
    let chosen =
        SenderNotices { completed: ticked("completed"), declined: ticked("declined"), signed: ticked("signed") };
    match users::set_sender_notices(&state.services, &session.auth.caller(), chosen).await {
        Ok(()) => {
            let mut shown = page(&session, chosen);
            shown.notice = Some(session.text.s("notices.saved"));
            render(StatusCode::OK, &shown)
        }
        Err(error) => {
            shown_again(error, async |text| {
                let mut shown = page(&session, chosen);
                shown.error = Some(text);
                Ok::<_, signet_domain::Error>(shown)
            })
            .await
        }
    }
}
