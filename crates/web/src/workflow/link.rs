//! The one way into a workflow signer page ([`SignerLink`]) and the one way a page answers
//! a failure ([`PageError`]): a refusal the signer can act on is shown, an internal failure
//! is logged and shown as one generic text (never store, blob or I/O text on a page).

use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use signet_domain::Error;
use signet_services::Services;
use signet_services::workflows::signer::{self, LinkClosed, SignerSession};

use super::{capitalised, message, user_text};

/// An open signer link (`/sign/w/{id}/{secret}/...`): the signatory whose turn it is, their
/// workflow, and the page's base address. A link that is wrong, used up, expired or early is
/// refused with its page before the handler runs.
pub struct SignerLink {
    pub session: SignerSession,
    pub base: String,
}

impl FromRequestParts<Services> for SignerLink {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &Services) -> Result<Self, Self::Rejection> {
        let params =
            RawPathParams::from_request_parts(parts, state).await.map_err(|_| PageError::Link(LinkClosed::NotFound))?;
        let param = |name: &str| params.iter().find(|(key, _)| *key == name).map(|(_, value)| value.to_string());
        let id = param("id").and_then(|id| id.parse::<i64>().ok()).ok_or(PageError::Link(LinkClosed::NotFound))?;
        let secret = param("secret").ok_or(PageError::Link(LinkClosed::NotFound))?;
        let session = match signer::open_link(state, id.into(), &secret).await {
            Ok(session) => session,
            // Everyone has signed: the link now gives the signer's copy.
            Err(closed @ LinkClosed::Gone(_)) => {
                let copy = signet_services::workflows::copies::open_copy(state, id.into(), &secret).await;
                return Err(match copy {
                    Ok(_) if parts.method == axum::http::Method::GET => {
                        PageError::Redirect(format!("/sign/w/{id}/{secret}/copy"))
                    }
                    _ => PageError::Link(closed),
                });
            }
            Err(closed) => return Err(PageError::Link(closed)),
        };
        let base = format!("/sign/w/{}/{secret}", session.signatory.id);
        Ok(SignerLink { session, base })
    }
}

/// How a signer page fails.
#[derive(Debug)]
pub enum PageError {
    /// The link leads nowhere (see [`LinkClosed`]).
    Link(LinkClosed),
    /// An action failed; `title` heads the page.
    Failed { title: &'static str, signatory: i64, error: Error },
    /// The page is elsewhere now (a finished link's copy).
    Redirect(String),
}

impl PageError {
    pub fn failed(title: &'static str, session: &SignerSession, error: Error) -> PageError {
        PageError::Failed { title, signatory: session.signatory.id.get(), error }
    }
}

impl From<LinkClosed> for PageError {
    fn from(closed: LinkClosed) -> Self {
        PageError::Link(closed)
    }
}

fn closed_page(closed: LinkClosed) -> Response {
    match closed {
        LinkClosed::NotFound => message(StatusCode::NOT_FOUND, "Link not valid", "This signing link is not valid."),
        LinkClosed::Gone(text) => message(StatusCode::GONE, "Nothing to sign", text),
        LinkClosed::NotYet => message(
            StatusCode::CONFLICT,
            "Not your turn yet",
            "Others sign before you. You will receive a link when it is your turn.",
        ),
        LinkClosed::Broken => message(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong",
            "This request cannot be completed right now. Please try again later.",
        ),
    }
}

/// The message of a refusal the signer can act on (a state that changed, a limit, a field),
/// or one generic text for internal failures, whose cause goes to the log only.
fn failure_page(title: &str, signatory: i64, error: &Error) -> Response {
    match error {
        Error::Rejected { code, detail } => {
            let status = signet_api::error::status_of(*code);
            let status = if status.is_server_error() { StatusCode::CONFLICT } else { status };
            message(status, title, &capitalised(detail))
        }
        Error::Validation(_) => message(StatusCode::BAD_REQUEST, title, &user_text(error)),
        Error::NotFound { .. } => closed_page(LinkClosed::NotFound),
        Error::RateLimited { .. } => {
            message(StatusCode::TOO_MANY_REQUESTS, title, "Too many attempts. Please try again in a minute.")
        }
        Error::Internal(cause) => {
            tracing::error!(%cause, signatory, "signer page action failed");
            closed_page(LinkClosed::Broken)
        }
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        match self {
            PageError::Link(closed) => closed_page(closed),
            PageError::Failed { title, signatory, error } => failure_page(title, signatory, &error),
            PageError::Redirect(to) => axum::response::Redirect::to(&to).into_response(),
        }
    }
}
