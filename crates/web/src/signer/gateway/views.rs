//! HTML answers of the gateway: the signer page, the post-back page and the error page, each
//! with a Content-Security-Policy that allows only what that page needs.

use askama::Template;
use axum::http::{HeaderValue, header};
use axum::response::{Html, IntoResponse, Response};
use signet_gateway::{FormPage, FormScript, ResultPost, render_post_form};

use signet_services::esign::AuthMode;
use signet_services::platform::secrets;

use crate::text::{Text, key};

#[derive(Template)]
#[template(path = "gateway_error.html")]
struct ErrorPage<'a> {
    message: &'a str,
    text: Text,
}

pub struct HashLink {
    pub name: String,
    pub url: String,
    pub hash: String,
}

#[derive(Template)]
#[template(path = "gateway_sign.html")]
pub struct SignPage {
    pub requester: String,
    pub document_name: String,
    pub reference: String,
    pub signer_name: String,
    pub base: String,
    pub error: Option<String>,
    pub preview: bool,
    /// Page numbers shown as rendered images (empty: the browser's PDF viewer instead).
    pub preview_pages: Vec<usize>,
    pub view_link: bool,
    pub hashes: Vec<HashLink>,
    pub allow_typed: bool,
    pub allow_draw: bool,
    pub allow_upload: bool,
    /// Aadhaar eSign is offered (requested, and an ESP is configured).
    pub esign: bool,
    /// The ESP's `AuthMode`s to choose from (empty when it offers one).
    pub auth_modes: Vec<AuthModeChoice>,
    /// Signing with the signer's crypto token through the signer utility is offered.
    pub token: bool,
    /// The token form may give up with the utility's error (110-113 to Furl).
    pub token_give_up: bool,
    /// The code of the uploaded image just refused (115 or 116): giving up now delivers it.
    pub refused_image: Option<u16>,
    /// The signature pad is offered (its strokes come onto the drawing canvas), and whether it
    /// is the only eSignature option (then a missing pad is 117).
    pub allow_pad: bool,
    pub pad_only: bool,
    /// DATA and XML requests: the text being signed, shown to the signer (cut at a length a page can
    /// show; the signature covers all of it).
    pub data_text: Option<String>,
    pub data_cut: bool,
    pub only_unavailable: bool,
    /// The page's words, in the signer's language (the switch's, else the browser's).
    pub text: Text,
    /// What the forms' addresses end with: the language the signer chose on the page.
    pub lang_query: String,
    /// The page's own address, for the language switch.
    pub switch_to: String,
}

/// `connect-src` names the signer utility's loopback addresses (its default port and the next
/// three), which the token form calls.
const PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
    frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; \
    connect-src 'self' https://127.0.0.1:45763 https://127.0.0.1:45764 https://127.0.0.1:45765 https://127.0.0.1:45766";

fn with_headers(html: String, csp: &str) -> Response {
    let mut response = Html(html).into_response();
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(csp) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The page of a refusal, in `text`'s language (`message` is already in it, or is a code the
/// gateway's spec words).
/// One way to authenticate at the ESP the signer may choose (`authMode` in the eSign form).
pub struct AuthModeChoice {
    pub value: &'static str,
    pub label: String,
    pub checked: bool,
}

/// The choices of `AuthMode` the eSign forms offer: none when the ESP offers one (it is sent
/// without asking), else each in the page's language, the ESP's default checked.
pub fn auth_mode_choices(modes: &[AuthMode], text: Text) -> Vec<AuthModeChoice> {
    if modes.len() < 2 {
        return Vec::new();
    }
    modes
        .iter()
        .enumerate()
        .map(|(i, mode)| AuthModeChoice {
            value: mode.name(),
            label: text.s(auth_mode_key(*mode)).to_string(),
            checked: i == 0,
        })
        .collect()
}

fn auth_mode_key(mode: AuthMode) -> &'static str {
    match mode {
        AuthMode::Otp => key("esign.auth_mode.otp"),
        AuthMode::Fingerprint => key("esign.auth_mode.fingerprint"),
        AuthMode::Iris => key("esign.auth_mode.iris"),
        AuthMode::Face => key("esign.auth_mode.face"),
    }
}

/// The `authMode` a submitted eSign form chose: `None` when it names none; `Err` for a value
/// that is not a mode (a form that was not ours).
pub fn chosen_auth_mode(value: Option<&str>) -> Result<Option<AuthMode>, ()> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(value) => AuthMode::from_name(value).map(Some).ok_or(()),
    }
}

#[derive(Template)]
#[template(path = "esign_refused.html")]
struct EsignRefusedPage<'a> {
    message: &'a str,
    explanation: &'a str,
    txn: &'a str,
    text: Text,
}

/// A refused ESP answer of a gateway transaction: why, and two forms carrying the answer's
/// `txn` (the transaction's secret, the signer's authority): try again, or give up (the
/// integrator then learns why at FUrl).
pub fn esign_refused_page(text: Text, message: &str, explanation: &str, txn: &str) -> Response {
    let page = EsignRefusedPage { message, explanation, txn, text };
    match page.render() {
        Ok(html) => with_headers(html, PAGE_CSP),
        Err(_) => error_page(text, message),
    }
}

pub fn error_page(text: Text, message: &str) -> Response {
    let html = ErrorPage { message, text }
        .render()
        .unwrap_or_else(|_| format!("<p>{}</p>", signet_gateway::html_escape(message)));
    with_headers(html, PAGE_CSP)
}

pub fn sign_page(page: &SignPage) -> Response {
    match page.render() {
        Ok(html) => with_headers(html, PAGE_CSP),
        Err(_) => error_page(page.text, page.text.s("gateway_page.not_shown")),
    }
}

/// The origin of an http(s) URL, for `form-action`.
fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    (matches!(scheme, "http" | "https") && !host.is_empty() && !host.contains(['\'', ';', ' ', '"']))
        .then(|| format!("{scheme}://{host}"))
}

/// The auto-submitting form that carries the result to SUrl, Furl or Curl.
pub fn result_page(text: Text, action: &str, post: &ResultPost) -> Response {
    let page = FormPage { title: text.s("gateway_page.returning"), message: text.s("gateway_page.returning_text") };
    post_page(action, &post.fields(), &page)
}

/// The auto-submitting form that takes the signer to the eSign Service Provider with Signet's
/// signed request (the CCA eSign 2.1 form flow).
pub fn esp_page(text: Text, redirect: &signet_services::esign::EspRedirect) -> Response {
    let page = FormPage { title: text.s("gateway_page.to_esign"), message: text.s("gateway_page.to_esign_text") };
    let fields: Vec<(&str, &str)> = redirect.fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    post_page(&redirect.action, &fields, &page)
}

fn post_page(action: &str, fields: &[(&str, &str)], page: &FormPage<'_>) -> Response {
    let nonce = secrets::random_token(16);
    let html = render_post_form(action, fields, page, &FormScript::Nonce(nonce.clone()));
    let form_action = origin(action).unwrap_or_else(|| "'none'".to_string());
    let csp = format!(
        "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'self'; form-action {form_action}; \
         base-uri 'none'; frame-ancestors 'none'"
    );
    with_headers(html, &csp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_scheme_and_host_only() {
        assert_eq!(origin("https://erp.example.com:8443/ok?x=1").as_deref(), Some("https://erp.example.com:8443"));
        assert_eq!(origin("javascript:alert(1)"), None);
        assert_eq!(origin("https://a.test'; script-src *"), None);
    }
}
