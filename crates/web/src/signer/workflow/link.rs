//! The one way into a workflow signer page ([`SignerLink`]) and the one way a page answers
//! a failure ([`PageError`]): a refusal the signer can act on is shown, an internal failure
//! is logged and shown as one generic text (never store, blob or I/O text on a page).
//!
//! The pages' language ([`page_lang`]): the one the signer picked with the page's switch
//! (`?lang=`, which every form of the page carries on), else the one the sender chose for the
//! workflow, else the one the browser asks for (`Accept-Language`).

use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use signet_domain::{Error, ErrorCode, Lang};
use signet_services::Services;
use signet_services::workflows::session::{self, Gone, LinkClosed, SignerSession};

use super::embed::{ErrorReason, PageEvent};
use super::message_in;
use crate::text::{Text, key};
use signet_services::integrations::embedding::Frame;

/// An open signer link (`/sign/w/{id}/{secret}/...`): the signatory whose turn it is, their
/// workflow, the page's base address and language. A link that is wrong, used up, expired or
/// early is refused with its page before the handler runs.
pub struct SignerLink {
    pub session: SignerSession,
    pub base: String,
    /// The page's words, in its language.
    pub text: Text,
    /// Shown in a frame of the organisation's application (`/embed/w/...`, see
    /// [`super::embed`]): the frame's page, not a redirect, follows a signature.
    pub embedded: bool,
}

impl SignerLink {
    /// What the page's forms' addresses end with, so that the answer to a form is in the
    /// page's language.
    pub fn lang_query(&self) -> String {
        format!("?lang={}", self.text.lang().code())
    }
}

/// The language of a signer page: the switch's choice (`?lang=`), else the workflow's (when
/// known and chosen), else the browser's.
pub fn page_lang(uri: &Uri, headers: &HeaderMap, workflow_lang: Option<Lang>) -> Lang {
    let switched = Lang::asked_in_query(uri.query());
    let accept = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
    switched.or(workflow_lang).unwrap_or_else(|| accept.map(Lang::from_accept_language).unwrap_or_default())
}

impl FromRequestParts<Services> for SignerLink {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &Services) -> Result<Self, Self::Rejection> {
        // Until the workflow is known, the switch's or the browser's language.
        let text = Text::new(page_lang(&parts.uri, &parts.headers, None));
        let not_found = || PageError::Link(LinkClosed::NotFound, text);
        let params = RawPathParams::from_request_parts(parts, state).await.map_err(|_| not_found())?;
        let param = |name: &str| params.iter().find(|(key, _)| *key == name).map(|(_, value)| value.to_string());
        let id = param("id").and_then(|id| id.parse::<i64>().ok()).ok_or_else(not_found)?;
        // An embedded frame (opened by its middleware) stands for the signatory's link; its
        // pages' addresses carry the frame's renewed token instead of the secret.
        let frame = parts.extensions.get::<Frame>().filter(|frame| frame.signatory_id.get() == id);
        let (secret, base) = match (frame, param("secret")) {
            (Some(frame), _) => (frame.secret.clone(), format!("/embed/w/{id}/{}", frame.renewed)),
            (None, Some(secret)) => {
                let base = format!("/sign/w/{id}/{secret}");
                (secret, base)
            }
            (None, None) => return Err(not_found()),
        };
        let session = match session::open_link(state, id.into(), &secret).await {
            Ok(session) => session,
            // Everyone has signed: the link now gives the signer's copy.
            Err(closed @ LinkClosed::Gone(_)) => {
                let copy = signet_services::workflows::copies::open_copy(state, id.into(), &secret).await;
                return Err(match copy {
                    Ok(_) if parts.method == axum::http::Method::GET => {
                        let switched = Lang::asked_in_query(parts.uri.query());
                        let query = switched.map(|lang| format!("?lang={lang}")).unwrap_or_default();
                        PageError::Redirect(format!("{base}/copy{query}"))
                    }
                    _ => PageError::Link(closed, text),
                });
            }
            Err(closed) => return Err(PageError::Link(closed, text)),
        };
        let text = Text::new(page_lang(&parts.uri, &parts.headers, session.workflow.signer_lang()));
        Ok(SignerLink { session, base, text, embedded: frame.is_some() })
    }
}

/// How a signer page fails, and in which language it says so.
#[derive(Debug)]
pub enum PageError {
    /// The link leads nowhere (see [`LinkClosed`]).
    Link(LinkClosed, Text),
    /// An action failed; the catalogue's `title` heads the page.
    Failed { title: &'static str, signatory: i64, error: Error, text: Text },
    /// An action met an obstacle (a limit, a request that moved on): the catalogue's `title`
    /// over the obstacle's words, with the status of the error `code` it was.
    Stopped { title: &'static str, code: ErrorCode, said: String, text: Text },
    /// The page is elsewhere now (a finished link's copy).
    Redirect(String),
}

impl PageError {
    /// An action of `link`'s page failed; `title` is a catalogue key.
    pub fn failed(title: &'static str, link: &SignerLink, error: Error) -> PageError {
        PageError::Failed { title, signatory: link.session.signatory.id.get(), error, text: link.text }
    }

    /// An action of `link`'s page met an obstacle, worded in the page's language as `said`.
    pub fn stopped(title: &'static str, link: &SignerLink, code: ErrorCode, said: String) -> PageError {
        PageError::Stopped { title, code, said, text: link.text }
    }

    /// A link that leads nowhere, said in `text`'s language.
    pub fn closed(closed: LinkClosed, text: Text) -> PageError {
        PageError::Link(closed, text)
    }
}

fn closed_page(closed: LinkClosed, text: Text) -> Response {
    match closed {
        LinkClosed::NotFound => {
            message_in(text, StatusCode::NOT_FOUND, key("signer.link_not_valid"), text.s("signer.link_not_valid_text"))
        }
        LinkClosed::Gone(gone) => {
            message_in(text, StatusCode::GONE, key("signer.nothing_to_sign"), text.s(gone_key(gone)))
        }
        LinkClosed::NotYet => {
            message_in(text, StatusCode::CONFLICT, key("signer.not_your_turn"), text.s("signer.not_your_turn_text"))
        }
        LinkClosed::Broken => message_in(
            text,
            StatusCode::INTERNAL_SERVER_ERROR,
            key("signer.went_wrong"),
            text.s("signer.went_wrong_text"),
        ),
        LinkClosed::Unavailable => unavailable_page(text, key("signer.went_wrong")),
    }
}

/// The database or the document store is away for a moment: nothing was taken, and the same
/// request may be sent again after `Retry-After`.
fn unavailable_page(text: Text, title: &str) -> Response {
    let mut page = message_in(text, StatusCode::SERVICE_UNAVAILABLE, title, text.s("signer.unavailable"));
    page.headers_mut().insert(axum::http::header::RETRY_AFTER, signet_http::error::UNAVAILABLE_RETRY_AFTER_SECS.into());
    page
}

/// Why nothing is left to sign through a link, as the catalogue words it.
fn gone_key(gone: Gone) -> &'static str {
    match gone {
        Gone::Signed => key("signer.gone.signed"),
        Gone::Declined => key("signer.gone.declined"),
        Gone::Delegated => key("signer.gone.delegated"),
        Gone::Completed => key("signer.gone.completed"),
        Gone::RequestDeclined => key("signer.gone.request_declined"),
        Gone::RequestExpired => key("signer.gone.request_expired"),
        Gone::RequestInactive => key("signer.gone.request_inactive"),
        Gone::LinkReplaced => key("signer.gone.link_replaced"),
        Gone::LinkExpired => key("signer.gone.link_expired"),
        Gone::CopyExpired => key("signer.gone.copy_expired"),
    }
}

/// The status of a refusal of `code` on a signer page: a refusal is never the server's fault.
fn refusal_status(code: ErrorCode) -> StatusCode {
    let status = signet_http::error::status_of(code);
    if status.is_server_error() { StatusCode::CONFLICT } else { status }
}

/// One generic text, in the page's language, for a failure no fact names (the services'
/// words are English: they go to the log only), or the page's words for a limit or the link.
fn failure_page(title: &str, signatory: i64, error: &Error, text: Text) -> Response {
    let not_accepted = || {
        tracing::warn!(%error, signatory, "a signer page action was refused");
        text.s("signer.form_not_accepted")
    };
    match error {
        // The database or the document store is away for a moment: nothing was taken, and the
        // same form may be sent again.
        Error::Rejected { code: ErrorCode::ServiceUnavailable, .. } => {
            tracing::warn!(%error, signatory, "a signer page action met an outage");
            unavailable_page(text, title)
        }
        Error::Rejected { code, .. } => message_in(text, refusal_status(*code), title, not_accepted()),
        Error::Validation(_) => message_in(text, StatusCode::BAD_REQUEST, title, not_accepted()),
        Error::NotFound { .. } => closed_page(LinkClosed::NotFound, text),
        Error::RateLimited { .. } => message_in(text, StatusCode::TOO_MANY_REQUESTS, title, text.s("signer.too_many")),
        Error::Internal(cause) => {
            tracing::error!(%cause, signatory, "signer page action failed");
            closed_page(LinkClosed::Broken, text)
        }
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        match self {
            PageError::Link(closed, text) => with_event(closed_page(closed, text), ErrorReason::Closed),
            PageError::Failed { title, signatory, error, text } => {
                let page = failure_page(title, signatory, &error, text);
                let reason = if page.status().is_server_error() { ErrorReason::Failed } else { ErrorReason::Closed };
                with_event(page, reason)
            }
            PageError::Stopped { title, code, said, text } => {
                with_event(message_in(text, refusal_status(code), title, &said), ErrorReason::Closed)
            }
            PageError::Redirect(to) => axum::response::Redirect::to(&to).into_response(),
        }
    }
}

/// A failure page marked for an embedding page (see [`super::embed`]).
fn with_event(mut page: Response, reason: ErrorReason) -> Response {
    page.extensions_mut().insert(PageEvent::Error(reason));
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_a_link_is_gone_has_words_in_each_language() {
        use Gone::*;
        let all = [
            Signed,
            Declined,
            Delegated,
            Completed,
            RequestDeclined,
            RequestExpired,
            RequestInactive,
            LinkReplaced,
            LinkExpired,
            CopyExpired,
        ];
        for gone in all {
            let (en, hi) = (Text::new(Lang::En).s(gone_key(gone)), Text::new(Lang::Hi).s(gone_key(gone)));
            assert!(!en.is_empty() && en != hi, "{gone:?}: {en} / {hi}");
        }
    }

    #[test]
    fn an_outage_on_a_signer_page_is_a_503_that_says_when_to_retry() {
        let error = Error::rejected(ErrorCode::ServiceUnavailable, "the database is not reachable");
        let page = failure_page("signer.not_signed", 7, &error, Text::new(Lang::En));
        assert_eq!(page.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(page.headers().contains_key(axum::http::header::RETRY_AFTER));
        let refused = Error::rejected(ErrorCode::StateConflict, "already signed");
        assert_eq!(failure_page("signer.not_signed", 7, &refused, Text::new(Lang::En)).status(), StatusCode::CONFLICT);
    }
}
