//! The ESP's pages (askama templates in `templates/`, which escape every value), each sent with
//! a Content-Security-Policy that allows what that page needs and nothing else: the ESP's own
//! style sheet and script, forms posting to the ESP, and for the answer page, to the ASP.

use askama::Template;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use signet_esign::EsignRequest;

use crate::pending::OutboxEntry;

const PAGE_CSP: &str = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; \
    form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// One document as the pages show it.
pub struct DocLine {
    pub info: String,
    pub hash: String,
}

fn doc_lines(request: &EsignRequest) -> Vec<DocLine> {
    request
        .hashes
        .iter()
        .map(|h| DocLine {
            info: if h.doc_info.trim().is_empty() { format!("Document {}", h.id) } else { h.doc_info.clone() },
            hash: hex::encode(h.sha256),
        })
        .collect()
}

#[derive(Template)]
#[template(path = "aadhaar.html")]
struct AadhaarPage<'a> {
    asp_id: &'a str,
    docs: Vec<DocLine>,
    esp_txn: &'a str,
    aadhaar: &'a str,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "otp.html")]
struct OtpPage<'a> {
    asp_id: &'a str,
    docs: Vec<DocLine>,
    esp_txn: &'a str,
    masked_mobile: &'a str,
    masked_aadhaar: &'a str,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "answer.html")]
struct AnswerPage<'a> {
    action: &'a str,
    esign_response: &'a str,
    esp_txn: &'a str,
    asp_id: &'a str,
    headline: &'a str,
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    code: &'a str,
    message: &'a str,
}

#[derive(Template)]
#[template(path = "outbox.html")]
struct OutboxPage<'a> {
    entries: &'a [OutboxEntry],
}

#[derive(Template)]
#[template(path = "index.html")]
struct IndexPage {
    codes: &'static [(&'static str, &'static str)],
}

fn with_headers(status: StatusCode, html: String, csp: &str) -> Response {
    let mut response = (status, Html(html)).into_response();
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(csp) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// A page, or the error page if the template fails (it cannot with these types, but a
/// rendering error must not become a panic).
fn page(status: StatusCode, rendered: askama::Result<String>, csp: &str) -> Response {
    match rendered {
        Ok(html) => with_headers(status, html, csp),
        Err(error) => {
            tracing::error!("a page could not be rendered: {error}");
            error_page(StatusCode::INTERNAL_SERVER_ERROR, signet_esign::esp::codes::INTERNAL, "the page failed")
        }
    }
}

/// The error page: a request the ESP does not answer to the ASP (it cannot tell who sent it, or
/// the transaction is unknown), with the code.
pub fn error_page(status: StatusCode, code: &str, message: &str) -> Response {
    let html = ErrorPage { code, message }
        .render()
        .unwrap_or_else(|_| "<!doctype html><title>Error</title><p>The request cannot be processed.</p>".into());
    with_headers(status, html, PAGE_CSP)
}

pub fn aadhaar_page(request: &EsignRequest, esp_txn: &str, aadhaar: &str, error: Option<String>) -> Response {
    let rendered = AadhaarPage { asp_id: &request.asp_id, docs: doc_lines(request), esp_txn, aadhaar, error }.render();
    page(StatusCode::OK, rendered, PAGE_CSP)
}

pub struct OtpPrompt<'a> {
    pub masked_mobile: &'a str,
    pub masked_aadhaar: &'a str,
}

pub fn otp_page(request: &EsignRequest, esp_txn: &str, prompt: &OtpPrompt<'_>, error: Option<String>) -> Response {
    let rendered = OtpPage {
        asp_id: &request.asp_id,
        docs: doc_lines(request),
        esp_txn,
        masked_mobile: prompt.masked_mobile,
        masked_aadhaar: prompt.masked_aadhaar,
        error,
    }
    .render();
    page(StatusCode::OK, rendered, PAGE_CSP)
}

/// The origin of an http(s) URL, for `form-action` (None for anything that could break out of
/// the header value).
fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    let scheme = scheme.to_ascii_lowercase();
    let clean = !host.is_empty() && host.chars().all(|c| c.is_ascii_graphic() && !matches!(c, '\'' | ';' | '"' | ','));
    (matches!(scheme.as_str(), "http" | "https") && clean).then(|| format!("{scheme}://{host}"))
}

/// The form that carries a signed `EsignResp` to the ASP's `responseUrl`: a visible button,
/// and `/static/autosubmit.js` that submits it when JavaScript runs.
pub fn answer_page(response_url: &str, signed_xml: &str, esp_txn: &str, asp_id: &str, headline: &str) -> Response {
    let form_action = origin(response_url).unwrap_or_else(|| "'none'".into());
    let csp = format!(
        "default-src 'none'; style-src 'self'; script-src 'self'; form-action {form_action}; base-uri 'none'; \
         frame-ancestors 'none'"
    );
    let rendered = AnswerPage { action: response_url, esign_response: signed_xml, esp_txn, asp_id, headline }.render();
    page(StatusCode::OK, rendered, &csp)
}

pub fn outbox_page(entries: &[OutboxEntry]) -> Response {
    page(StatusCode::OK, OutboxPage { entries }.render(), PAGE_CSP)
}

pub fn index_page() -> Response {
    page(StatusCode::OK, IndexPage { codes: signet_esign::esp::codes::ALL }.render(), PAGE_CSP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_scheme_and_host_only() {
        assert_eq!(origin("https://asp.example.in:8443/esign?x=1").as_deref(), Some("https://asp.example.in:8443"));
        assert_eq!(origin("HTTP://asp.example.in").as_deref(), Some("http://asp.example.in"));
        assert_eq!(origin("javascript:alert(1)"), None);
        assert_eq!(origin("https://a.test'; script-src *"), None);
        assert_eq!(origin("https://a.test;x"), None);
    }
}
