//! The public pages: what a signer, an integrator's browser or anyone checking a file reaches
//! without an account. Nothing here reads a session or an access token.
//!
//! What authorises a request: the secret in the link, per page. The gateway's signer page
//! (`gateway`, `/sign/g/{transaction}/{secret}`) is opened by the link the gateway's submission
//! (`POST /{segment}/V3_0/Index`, the integrator's Authtoken and envelope) hands to the
//! browser; the workflow signer page (`workflow`, `/sign/w/{signatory}/{secret}`) by the HMAC
//! link e-mailed to the signatory; Aadhaar eSign's answer (`/esign/response`) by the ESP's
//! signature on it; the gateway's status query (`gateway::public`) by the integrator's
//! Authtoken, and its certificate by nothing. The verification page (`verify`, `/verify`) needs nothing: anyone may
//! check a file, limited per client address. The console, which a session authorises, is
//! `crate::console`.

pub mod gateway;
mod verify;
pub mod workflow;

use axum::Router;
use axum::routing::{get, post};
use signet_services::Services;

/// The public pages' addresses: the gateway's submission address and certificate under its
/// path segment (default `eMsecure`) and its status query, the signer pages and the
/// verification page.
pub fn router(segment: &str, services: &Services) -> Router<Services> {
    use gateway::{page, submit};
    use workflow::embed;
    let embedded = workflow_pages("/embed/w/{id}/{token}")
        .route("/embed/w/{id}/{token}/theme.css", get(embed::theme))
        .route("/embed/w/{id}/{token}/logo", get(embed::logo))
        .route_layer(axum::middleware::from_fn_with_state(Services::clone(services), embed::frame));
    let mut router = Router::new().merge(workflow_pages("/sign/w/{id}/{secret}")).merge(embedded);
    for (path, route) in gateway::public_routes(segment) {
        router = router.route(&path, route);
    }
    router
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
        .route("/esign/retry", post(page::esign_retry))
        .route("/esign/give-up", post(page::esign_give_up))
        .route("/esign/asp.cer", get(page::asp_certificate))
        .route("/verify", get(verify::show).post(verify::check))
        .route("/verify/d/{token}", get(verify::document))
}

/// The workflow signer page's addresses under `prefix`: the e-mailed link's
/// (`/sign/w/{id}/{secret}`) or an embedded frame's (`/embed/w/{id}/{token}`, see
/// [`workflow::embed`]); the same handlers serve both.
fn workflow_pages(prefix: &str) -> Router<Services> {
    use workflow as w;
    let at = |suffix: &str| format!("{prefix}{suffix}");
    Router::new()
        .route(&at(""), get(w::show))
        .route(&at("/copy"), get(w::copy::show))
        .route(&at("/copy/{file}"), get(w::copy::file))
        .route(&at("/documents/{document}"), get(w::document))
        .route(&at("/documents/{document}/pages/{page}"), get(w::page_image))
        .route(&at("/viewed"), post(w::viewed))
        .route(&at("/sign"), post(w::sign))
        .route(&at("/esign"), post(w::start_esign))
        .route(&at("/token/prepare"), post(w::token_prepare))
        .route(&at("/token/complete"), post(w::token_complete))
        .route(&at("/decline"), post(w::decline))
        .route(&at("/delegate"), post(w::delegate))
        .route(&at("/comment"), post(w::comment))
        .route(&at("/attachment"), post(w::attachment))
        .route(&at("/otp/send"), post(w::otp_send))
        .route(&at("/otp/verify"), post(w::otp_verify))
}
