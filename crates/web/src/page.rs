//! Page answers both trees send (the console's sign-in pages and the public signer pages):
//! a page without scripts under strict headers, a message page, and a validation report to
//! download.

use askama::Template;
use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use signet_http::files::download_response;

use crate::text::Text;

const PAGE_CSP: &str =
    "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// A message with, at most, one way on, in the page's language (the signer pages' too).
#[derive(Template)]
#[template(path = "workflow_message.html")]
pub(crate) struct MessagePage<'a> {
    pub title: &'a str,
    pub message: &'a str,
    /// A way on from the message: its address and words.
    pub next: Option<(&'a str, &'a str)>,
    /// The page's language.
    pub text: Text,
}

/// A page without scripts (account, sign-in, verification, a signer's copy): no framing, no
/// referrer, not cached.
pub(crate) fn html(status: StatusCode, body: String) -> Response {
    let mut response = (status, Html(body)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(PAGE_CSP));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A message in English on a page without scripts.
pub(crate) fn message(status: StatusCode, title: &str, text: &str) -> Response {
    html(
        status,
        MessagePage { title, message: text, next: None, text: Text::EN }.render().unwrap_or_else(|_| text.to_string()),
    )
}

/// A validation report (XML) to download under `file_name`, kept by no cache (it names a signed
/// file's signers); the console's sealed report too.
pub(crate) fn report_download(xml: impl Into<Bytes>, file_name: &str) -> Response {
    let content_type = "application/xml; charset=utf-8";
    let mut response = download_response(xml.into(), file_name, content_type);
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
