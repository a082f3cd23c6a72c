//! Signet's HTML side: the gateway's browser-facing intake and signer page, the workflow
//! signer page, their form parsing, page previews, templates (`templates/`) and static
//! assets (`static/`). Handlers call the services (`signet-services`); the error table and
//! client-address extractor come from `signet-http`, which the JSON API shares, so that both
//! faces answer a catalogue code with the same status.

mod account;
pub mod console;
pub mod form;
pub mod gateway;
pub mod preview;
mod sign_in;
mod sso;
mod verify;
pub mod workflow;

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use signet_services::Services;

/// The pages' addresses: the gateway's submission address under its path segment (default
/// `eMsecure`), the signer pages and their assets.
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

pub fn router(segment: &str) -> Router<Services> {
    use gateway::{page, submit};
    use workflow as w;
    Router::new()
        .route(&format!("/{segment}/V3_0/Index"), post(submit))
        .route("/sign/g/{number}/{secret}", get(page::show))
        .route("/sign/g/{number}/{secret}/document", get(page::document))
        .route("/sign/g/{number}/{secret}/pages/{page}", get(page::page_image))
        .route("/sign/g/{number}/{secret}/sign", post(page::sign))
        .route("/sign/g/{number}/{secret}/cancel", post(page::cancel))
        .route("/sign/g/{number}/{secret}/esign", post(page::start_esign))
        .route("/sign/g/{number}/{secret}/token/prepare", post(page::token_prepare))
        .route("/sign/g/{number}/{secret}/token/complete", post(page::token_complete))
        .route("/sign/g/{number}/{secret}/token/give-up", post(page::token_give_up))
        .route("/sign/g/{number}/{secret}/pad/give-up", post(page::pad_give_up))
        .route("/esign/response", post(page::esign_answer))
        .route("/esign/asp.cer", get(page::asp_certificate))
        .route("/sign/w/{id}/{secret}", get(w::show))
        .route("/sign/w/{id}/{secret}/copy", get(w::copy::show))
        .route("/sign/w/{id}/{secret}/copy/{file}", get(w::copy::file))
        .route("/sign/w/{id}/{secret}/documents/{document}", get(w::document))
        .route("/sign/w/{id}/{secret}/documents/{document}/pages/{page}", get(w::page_image))
        .route("/sign/w/{id}/{secret}/viewed", post(w::viewed))
        .route("/sign/w/{id}/{secret}/sign", post(w::sign))
        .route("/sign/w/{id}/{secret}/esign", post(w::start_esign))
        .route("/sign/w/{id}/{secret}/token/prepare", post(w::token_prepare))
        .route("/sign/w/{id}/{secret}/token/complete", post(w::token_complete))
        .route("/sign/w/{id}/{secret}/decline", post(w::decline))
        .route("/sign/w/{id}/{secret}/delegate", post(w::delegate))
        .route("/sign/w/{id}/{secret}/comment", post(w::comment))
        .route("/sign/w/{id}/{secret}/attachment", post(w::attachment))
        .route("/sign/w/{id}/{secret}/otp/send", post(w::otp_send))
        .route("/sign/w/{id}/{secret}/otp/verify", post(w::otp_verify))
        // The front door: people who type the address or a bookmark land in the console,
        // which asks them to sign in first.
        .route("/", get(|| async { console::session::see_other("/app") }))
        .route("/app/", get(|| async { console::session::see_other("/app") }))
        .route("/account/password", get(account::show).post(account::submit))
        .route("/account/verify", get(account::confirm_page).post(account::verify))
        .route("/account/sign-in", get(sign_in::show).post(sign_in::submit))
        .route("/verify", get(verify::show).post(verify::check))
        .route("/verify/d/{token}", get(verify::document))
        .route("/sso/{provider}/start", get(sso::start))
        .route("/sso/signup/{token}", get(sso::start_signup))
        .route(signet_services::sso::CALLBACK_PATH, get(sso::callback))
        .route("/sso/second-factor", post(sso::second_factor))
        .route("/static/sign.js", get(static_js))
        .route("/static/sign.css", get(static_css))
}

async fn static_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../static/sign.js"))
}

async fn static_css() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("../static/sign.css"))
}
