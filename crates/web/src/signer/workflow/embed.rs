//! Embedded signer pages: `/embed/w/{signatoryId}/{token}/...` is the workflow signer page (the
//! same handlers as `/sign/w/{signatoryId}/{secret}/...`), shown in a frame of an origin the
//! organisation allows (`signet_services::integrations::embedding`).
//!
//! One middleware ([`frame`]) stands before every embedded address. It opens the frame from the
//! token (authentic for the signatory's current link, for an origin still allowed, in time) and
//! hands it to the handlers, which then work as on the e-mailed link with the frame's addresses;
//! on the way out it lets exactly that origin frame the answer (`frame-ancestors`) and adds, to
//! a page, the organisation's look and the script that tells the framing page what happened
//! ([`PageEvent`], posted with that origin as the only target). A token that is not authentic
//! answers a page no one may frame; an expired one a page that says so to its own origin.

use axum::Extension;
use axum::body::{Body, to_bytes};
use axum::extract::{RawPathParams, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use signet_services::Services;
use signet_services::integrations::embedding::{self, Frame, FrameClosed};

use super::{message_in, page_lang};
use crate::text::{Text, key};

/// What a page tells the page that frames it, as the `type` of its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageEvent {
    /// A page of the signer's turn is shown (each page: after a refusal too).
    Loaded,
    Signed,
    Declined,
    /// The turn cannot go on here: the link is closed, the frame expired or an action failed.
    Error(ErrorReason),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorReason {
    /// Nothing (more) to sign through this link, or it is not the signer's turn yet.
    Closed,
    /// The frame's time ran out: the application asks for a new embed address.
    Expired,
    /// An action failed on Signet's side.
    Failed,
}

impl PageEvent {
    fn words(self) -> (&'static str, Option<&'static str>) {
        match self {
            PageEvent::Loaded => ("loaded", None),
            PageEvent::Signed => ("signed", None),
            PageEvent::Declined => ("declined", None),
            PageEvent::Error(ErrorReason::Closed) => ("error", Some("closed")),
            PageEvent::Error(ErrorReason::Expired) => ("error", Some("expired")),
            PageEvent::Error(ErrorReason::Failed) => ("error", Some("failed")),
        }
    }
}

/// The largest page body the middleware decorates (pages are tens of kilobytes; the documents
/// and page images it passes through untouched).
const MAX_PAGE_BYTES: usize = 4 << 20;

/// The embedded address's signatory id and token, when they read as such.
fn frame_params(params: &RawPathParams) -> Option<(i64, String)> {
    let param = |name: &str| params.iter().find(|(key, _)| *key == name).map(|(_, value)| value.to_string());
    Some((param("id")?.parse().ok()?, param("token")?))
}

/// Opens the frame of an embedded address, runs the page's handler with it, and lets the
/// frame's origin show the answer (see the module's text).
pub async fn frame(State(state): State<Services>, params: RawPathParams, request: Request, next: Next) -> Response {
    let text = Text::new(page_lang(request.uri(), request.headers(), None));
    let Some((id, token)) = frame_params(&params) else { return not_available(text) };
    match embedding::open_frame(&state, id.into(), &token).await {
        Ok(frame) => {
            let (mut parts, body) = request.into_parts();
            parts.extensions.insert(frame.clone());
            let response = next.run(Request::from_parts(parts, body)).await;
            framed(response, &frame).await
        }
        Err(FrameClosed::Expired(origin)) => {
            let said = text.s("embed.expired_text");
            let mut page = message_in(text, StatusCode::GONE, key("embed.expired"), said);
            page.extensions_mut().insert(PageEvent::Error(ErrorReason::Expired));
            allow_framing(page.headers_mut(), origin.as_str());
            decorate(page, origin.as_str(), None).await
        }
        Err(FrameClosed::Unknown) => not_available(text),
    }
}

/// The answer to an address that is not an embed of a current link for an allowed origin:
/// a page no one may frame.
fn not_available(text: Text) -> Response {
    message_in(text, StatusCode::NOT_FOUND, key("signer.link_not_valid"), text.s("signer.link_not_valid_text"))
}

/// A handler's answer as the frame's origin may show it: framing allowed to it, and a page
/// decorated with the look and the messages.
async fn framed(mut response: Response, frame: &Frame) -> Response {
    allow_framing(response.headers_mut(), frame.origin.as_str());
    let base = format!("/embed/w/{}/{}", frame.signatory_id, frame.renewed);
    decorate(response, frame.origin.as_str(), Some(&base)).await
}

/// Lets `origin` (and no one else) frame the answer, and lets a page run Signet's own scripts
/// and show its own images (the copy page's policy names neither).
fn allow_framing(headers: &mut HeaderMap, origin: &str) {
    let Some(policy) = headers.get(header::CONTENT_SECURITY_POLICY).and_then(|v| v.to_str().ok()) else { return };
    if let Ok(value) = HeaderValue::from_str(&with_frame_ancestors(policy, origin)) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
}

/// `policy` with `frame-ancestors` set to `origin`, and `script-src` / `img-src` of `'self'`
/// where it has none.
fn with_frame_ancestors(policy: &str, origin: &str) -> String {
    let mut directives: Vec<String> = policy
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty() && !d.starts_with("frame-ancestors"))
        .map(str::to_string)
        .collect();
    for needed in ["script-src", "img-src"] {
        if !directives.iter().any(|d| d.split_whitespace().next() == Some(needed)) {
            directives.push(format!("{needed} 'self'"));
        }
    }
    directives.push(format!("frame-ancestors {origin}"));
    directives.join("; ")
}

/// Adds to an HTML page what an embedded page needs in its head: the origin it may talk to,
/// the event it tells (the handler's [`PageEvent`], else `loaded`, or an error for a refused
/// page), the organisation's look (from `base`, the frame's address) and the script.
async fn decorate(response: Response, origin: &str, base: Option<&str>) -> Response {
    let is_html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if !is_html {
        return response;
    }
    let event = response.extensions().get::<PageEvent>().copied().unwrap_or(match response.status() {
        status if status.is_server_error() => PageEvent::Error(ErrorReason::Failed),
        StatusCode::NOT_FOUND | StatusCode::GONE | StatusCode::CONFLICT => PageEvent::Error(ErrorReason::Closed),
        _ => PageEvent::Loaded,
    });
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_PAGE_BYTES).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let page = String::from_utf8_lossy(&bytes);
    let head = embed_head(origin, event, base);
    let page = match page.find("</head>") {
        Some(at) => format!("{}{head}{}", &page[..at], &page[at..]),
        None => page.into_owned(),
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(page))
}

/// The tags an embedded page's head gets (attribute values escaped: the origin is
/// `scheme://host:port` and the base is ours, but a page is no place to trust that).
fn embed_head(origin: &str, event: PageEvent, base: Option<&str>) -> String {
    let (kind, reason) = event.words();
    let mut head = format!(
        "<meta name=\"signet-embed-origin\" content=\"{}\">\n<meta name=\"signet-embed-event\" content=\"{kind}\">\n",
        escape(origin)
    );
    if let Some(reason) = reason {
        head.push_str(&format!("<meta name=\"signet-embed-reason\" content=\"{reason}\">\n"));
    }
    if let Some(base) = base {
        head.push_str(&format!("<link rel=\"stylesheet\" href=\"{}/theme.css\">\n", escape(base)));
    }
    head.push_str("<script src=\"/static/embed-frame.js\" defer></script>\n");
    head
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// `GET /embed/w/{id}/{token}/theme.css`: the organisation's accent colour and logo for its
/// embedded pages (empty when it set neither).
pub async fn theme(Extension(frame): Extension<Frame>, uri: Uri) -> Response {
    let mut css = String::from("/* the organisation's look for its embedded signer pages */\n");
    if let Some(accent) = frame.accent {
        css.push_str(&format!(":root {{ --accent: {}; }}\n", accent.css()));
    }
    if frame.has_logo {
        // The theme's address ends in /theme.css; the logo sits beside it.
        let logo = uri.path().strip_suffix("theme.css").map(|dir| format!("{dir}logo")).unwrap_or_default();
        css.push_str(&format!(
            "main.page::before {{ content: \"\"; display: block; height: 3rem; margin-bottom: 1rem; \
             background: url(\"{logo}\") no-repeat left center / contain; }}\n"
        ));
    }
    let mut response = ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], css).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `GET /embed/w/{id}/{token}/logo`: the organisation's logo.
pub async fn logo(State(state): State<Services>, Extension(frame): Extension<Frame>) -> Response {
    match embedding::logo(&state, &frame).await {
        Ok(Some(logo)) => {
            let mut response = ([(header::CONTENT_TYPE, logo.kind.media_type())], logo.bytes).into_response();
            response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, max-age=300"));
            response
        }
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(error) => {
            tracing::warn!(%error, "embedded page: logo not read");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_frames_origin_may_frame_and_signets_own_scripts_run() {
        let policy =
            "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
        assert_eq!(
            with_frame_ancestors(policy, "https://app.example"),
            "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; script-src 'self'; \
             img-src 'self'; frame-ancestors https://app.example"
        );
        let page = "default-src 'none'; script-src 'self'; img-src 'self' data:; frame-ancestors 'none'";
        assert_eq!(
            with_frame_ancestors(page, "http://localhost:3000"),
            "default-src 'none'; script-src 'self'; img-src 'self' data:; frame-ancestors http://localhost:3000"
        );
    }

    #[test]
    fn the_head_names_the_origin_the_event_and_the_look() {
        let head = embed_head("https://app.example", PageEvent::Error(ErrorReason::Expired), Some("/embed/w/7/t"));
        assert!(head.contains("name=\"signet-embed-origin\" content=\"https://app.example\""), "{head}");
        assert!(head.contains("content=\"error\"") && head.contains("content=\"expired\""), "{head}");
        assert!(head.contains("href=\"/embed/w/7/t/theme.css\""), "{head}");
        assert!(embed_head("x\"><script>", PageEvent::Loaded, None).contains("x&quot;&gt;&lt;script&gt;"));
    }
}
