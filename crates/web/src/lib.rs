//! Signet's HTML side, two applications in two trees: the console (`console/`, the
//! authenticated web application, and the pages that sign people in) and the public pages
//! (`signer/`: the gateway's submission and signer page, the workflow signer page and the
//! verification page, each authorised by its link). What both reach sits beside them: the
//! pages' text (`text.rs`), form parsing (`form.rs`), page previews (`preview.rs`), page answers
//! (`page.rs`), templates (`templates/`) and static assets (`static/`). Handlers call the
//! services (`signet-services`); the error table and client-address extractor come from
//! `signet-http`, which the JSON API shares, so that both faces answer a catalogue code with
//! the same status.

pub mod console;
pub mod form;
mod page;
pub mod preview;
pub mod signer;
pub mod text;

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use signet_services::Services;

/// The value of the cookie `name` in a request's headers.
pub(crate) fn cookie_value(headers: &axum::http::HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_string())
}

/// The public pages ([`signer::router`]) and the static assets both trees use; the console
/// has its own router ([`console::router`]), on the state with the access-token keys.
pub fn router(segment: &str, services: &Services) -> Router<Services> {
    signer::router(segment, services)
        .route("/static/sign.js", get(static_js))
        .route("/static/sign.css", get(static_css))
        .route("/static/embed-frame.js", get(embed_frame_js))
        .route("/static/signet-signing.js", get(signet_signing_js))
}

async fn static_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../static/sign.js"))
}

async fn embed_frame_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../static/embed-frame.js"))
}

/// The `<signet-signing>` element, for integrators' pages on their own origins: a script
/// loaded across origins (`Cross-Origin-Resource-Policy: cross-origin` says that is meant).
async fn signet_signing_js() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::HeaderName::from_static("cross-origin-resource-policy"), "cross-origin"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        include_str!("../static/signet-signing.js"),
    )
}

async fn static_css() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("../static/sign.css"))
}
