//! The signing gateway's browser-facing side: `POST /{segment}/V3_0/Index` reads the
//! submission (the checks and the transaction are `signet_services::gateway::submission`) and
//! sends the signer to the signer page (`page`), which seals the document and posts the result
//! back; refusals go back to the integrator's `Furl` or are shown here. The gateway's other
//! public addresses, its certificate and the legacy status query, are `public`: the protocol's
//! whole HTTP surface is this folder (the tenant's administration of it is the API's
//! `gateway_admin` and the console's).

pub mod page;
pub mod public;
pub(crate) mod views;

use std::collections::HashMap;

use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{MethodRouter, get};
use signet_gateway::{ErrorCode, GatewayFailure, RawParams, ResultPost, new_transaction_number};
use signet_http::extract::ClientIp;
use signet_services::Services;
use signet_services::gateway::submission::{self, Refused};

use crate::text::Text;
use time::OffsetDateTime;

/// The gateway's public addresses beside the submission and the signer page: its certificate
/// under the gateway's segment and the legacy status query, which sits under `/api/` but is the
/// gateway's own protocol (docs/gateway.md), outside the API's document.
pub fn public_routes(segment: &str) -> Vec<(String, MethodRouter<Services>)> {
    vec![
        ("/api/TransactionStatusRequest".into(), get(public::transaction_status)),
        (format!("/{segment}/certificate.cer"), get(public::certificate_der)),
        (format!("/{segment}/certificate.pem"), get(public::certificate_pem)),
    ]
}

pub use views::{error_page, result_page};

/// The form (or JSON) fields of a submission, keys lower-cased.
fn read_fields(headers: &HeaderMap, body: &[u8]) -> HashMap<String, String> {
    let content_type = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_ascii_lowercase();
    let pairs: Vec<(String, String)> = if content_type.starts_with("application/json") {
        serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(body)
            .map(|map| {
                map.into_iter()
                    .map(|(k, v)| (k, v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())))
                    .collect()
            })
            .unwrap_or_default()
    } else {
        serde_urlencoded_pairs(body)
    };
    pairs.into_iter().map(|(k, v)| (k.to_ascii_lowercase(), v)).collect()
}

/// The envelope's fields (`Parameter1`..`Parameter3`, `Profile`), whatever their case.
fn raw_params(headers: &HeaderMap, body: &[u8]) -> RawParams {
    let fields = read_fields(headers, body);
    RawParams {
        p1: fields.get("parameter1").cloned().unwrap_or_default(),
        p2: fields.get("parameter2").cloned().unwrap_or_default(),
        p3: fields.get("parameter3").cloned(),
        profile: fields.get("profile").cloned(),
    }
}

fn serde_urlencoded_pairs(body: &[u8]) -> Vec<(String, String)> {
    serde_urlencoded::from_bytes(body).unwrap_or_default()
}

/// A refusal that cannot be sent back to the integrator (no trusted return address yet):
/// an HTML page with the code, HTTP 400.
fn refuse_here(text: Text, failure: &GatewayFailure) -> Response {
    (StatusCode::BAD_REQUEST, error_page(text, &failure.error_message())).into_response()
}

/// Sends the browser on to Furl with the failure.
fn refuse_to(
    text: Text,
    url: &str,
    failure: &GatewayFailure,
    transaction_number: &str,
    reference: Option<&str>,
) -> Response {
    result_page(text, url, &ResultPost::failure(failure, transaction_number, reference))
}

/// `POST /{segment}/V3_0/Index`. The cheapest checks come first, so that unauthenticated
/// senders cost little: the address's share of submissions in progress, the envelope's
/// profile (a legacy envelope when no tenant takes one is refused before any RSA work), the
/// decryption, the `Authtoken` and the tenant's settings; only then is `File` decoded,
/// decompressed and parsed. Heavy steps run on the bounded pool, off the executor.
pub async fn submit(State(state): State<Services>, ClientIp(ip): ClientIp, request: Request) -> Response {
    // The integrator's form names no language: the signer's browser's.
    let text = Text::new(crate::signer::workflow::page_lang(request.uri(), request.headers(), None));
    // Before the body is even read: a refused sender costs no more than its headers. The
    // answer is held back a moment (a tarpit): a flood from one address then waits on its own
    // connections instead of making the server answer refusals as fast as it can send.
    let Some(_slot) = state.intake.admit(ip) else {
        tokio::time::sleep(std::time::Duration::from_millis(state.config.gateway_refusal_delay_ms)).await;
        return too_many_submissions(text);
    };
    let (parts, body) = request.into_parts();
    let Ok(body) = axum::body::to_bytes(body, state.config.max_body_bytes).await else {
        return refuse_here(text, &GatewayFailure::new(ErrorCode::InvalidRequest, "the request is too large"));
    };
    let outcome = submission::submit(&state, ip, raw_params(&parts.headers, &body)).await;
    if let Err(Refused::Here(failure) | Refused::Back(failure)) = &outcome
        && matches!(failure.code, ErrorCode::InvalidAuthtoken | ErrorCode::InvalidRequest)
    {
        state.intake.strike(ip);
    }
    match outcome {
        Ok(link) => Redirect::to(&link).into_response(),
        Err(Refused::Here(failure)) => refuse_here(text, &failure),
        Err(Refused::Back(failure)) => refuse(text, &failure),
    }
}

/// Sends a refusal to Furl when the request named one, else shows it here.
fn refuse(text: Text, failure: &GatewayFailure) -> Response {
    let number = new_transaction_number(OffsetDateTime::now_utc());
    match failure.failure_url.as_deref() {
        Some(url) => refuse_to(text, url, failure, &number, failure.reference_number.as_deref()),
        None => refuse_here(text, failure),
    }
}

/// The refusal of a submission beyond its address's share. `Connection: close`: its body is
/// never read, so the connection ends with the answer instead of the server taking it in.
fn too_many_submissions(text: Text) -> Response {
    let page = error_page(text, text.s("gateway_page.too_many"));
    (StatusCode::TOO_MANY_REQUESTS, [(RETRY_AFTER, "1"), (axum::http::header::CONNECTION, "close")], page)
        .into_response()
}
