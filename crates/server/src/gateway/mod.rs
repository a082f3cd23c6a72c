//! The signing gateway's server side: `POST /{segment}/V3_0/Index` opens the envelope, checks
//! the payload and the account, records the transaction and sends the signer to the signer
//! page (`page`), which seals the document (`seal`) and posts the result back.

pub mod intake;
pub mod page;
pub mod seal;
pub mod vault;
mod views;

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use signet_blob::BlobKey;
use signet_domain::{ErrorCode as ApiCode, now_millis};
use signet_gateway::{
    Document, ErrorCode, GatewayFailure, Payload, PayloadHead, Profile, RawParams, ResultPost, new_transaction_number,
    open_request, parse_payload, read_head, without_authtoken,
};
use signet_store::NewTransaction;
use time::OffsetDateTime;

use crate::AppState;
use crate::extract::ClientIp;
use crate::secrets;
use vault::Vault;

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

fn serde_urlencoded_pairs(body: &[u8]) -> Vec<(String, String)> {
    serde_urlencoded::from_bytes(body).unwrap_or_default()
}

/// A refusal that cannot be sent back to the integrator (no trusted return address yet):
/// an HTML page with the code, HTTP 400.
fn refuse_here(failure: &GatewayFailure) -> Response {
    (StatusCode::BAD_REQUEST, error_page(&failure.error_message())).into_response()
}

/// Sends the browser on to Furl with the failure.
fn refuse_to(url: &str, failure: &GatewayFailure, transaction_number: &str, reference: Option<&str>) -> Response {
    result_page(url, &ResultPost::failure(failure, transaction_number, reference), "The request was refused")
}

fn failure_for(payload: &Payload, code: ErrorCode, detail: impl Into<String>) -> GatewayFailure {
    let mut failure = GatewayFailure::new(code, detail);
    failure.failure_url = Some(payload.urls.failure.clone());
    failure.cancel_url = Some(payload.urls.cancel.clone());
    failure.reference_number = Some(payload.reference_number.clone());
    failure
}

/// `POST /{segment}/V3_0/Index`. The cheapest checks come first, so that unauthenticated
/// senders cost little: the address's share of submissions in progress, the envelope's
/// profile (a legacy envelope when no tenant takes one is refused before any RSA work), the
/// decryption, the `Authtoken` and the tenant's settings; only then is `File` decoded,
/// decompressed and parsed. Heavy steps run on the bounded pool, off the executor.
pub async fn submit(State(state): State<AppState>, ClientIp(ip): ClientIp, request: Request) -> Response {
    // Before the body is even read: a refused sender costs no more than its headers.
    let Some(_slot) = state.intake.admit(ip) else {
        return too_many_submissions();
    };
    let (parts, body) = request.into_parts();
    let Ok(body) = axum::body::to_bytes(body, state.config.max_body_bytes).await else {
        return refuse_here(&GatewayFailure::new(ErrorCode::InvalidRequest, "the request is too large"));
    };
    let fields = read_fields(&parts.headers, &body);
    let params = RawParams {
        p1: fields.get("parameter1").cloned().unwrap_or_default(),
        p2: fields.get("parameter2").cloned().unwrap_or_default(),
        p3: fields.get("parameter3").cloned(),
        profile: fields.get("profile").cloned(),
    };
    let invalid = GatewayFailure::new(ErrorCode::InvalidRequest, "");
    let Ok(profile) = params.profile() else {
        return refuse_here(&invalid);
    };
    match state.intake.legacy_accepted(&state.store).await {
        Ok(false) if profile == Profile::Legacy => return refuse_here(&legacy_switched_off(None)),
        Ok(_) => {}
        Err(cause) => {
            tracing::error!(%cause, "gateway submission failed");
            return refuse_here(&invalid);
        }
    }
    let key = state.gateway_key.clone();
    let window = time::Duration::seconds(state.config.gateway_clock_window_secs as i64);
    let opened = state.heavy.run(move || open_request(&params, &key, OffsetDateTime::now_utc(), window)).await;
    let Ok(Ok(opened)) = opened else {
        return refuse_here(&invalid);
    };
    let head = match read_head(&opened.payload_json) {
        Ok(head) => head,
        Err(failure) => return refuse(&failure),
    };
    let account = match authorise(&state, &head, opened.profile).await {
        Ok(account) => account,
        Err(Refusal::Gateway(failure)) => return refuse(&failure),
        Err(Refusal::Internal(cause)) => {
            tracing::error!(%cause, "gateway submission failed");
            return refuse(&head.failure(ErrorCode::InvalidParameters, "the service could not take the request"));
        }
    };
    let json = opened.payload_json.clone();
    let payload = match state.heavy.run(move || parse_payload(&json)).await {
        Ok(Ok(payload)) => payload,
        Ok(Err(failure)) => return refuse(&failure),
        Err(cause) => {
            tracing::error!(%cause, "gateway submission failed");
            return refuse(&head.failure(ErrorCode::InvalidParameters, "the service could not take the request"));
        }
    };
    match accept(&state, &account, &payload, &opened).await {
        Ok(link) => Redirect::to(&link).into_response(),
        Err(Refusal::Gateway(failure)) => refuse(&failure),
        Err(Refusal::Internal(cause)) => {
            tracing::error!(%cause, "gateway submission failed");
            refuse(&failure_for(&payload, ErrorCode::InvalidParameters, "the service could not take the request"))
        }
    }
}

/// Sends a refusal to Furl when the request named one, else shows it here.
fn refuse(failure: &GatewayFailure) -> Response {
    let number = new_transaction_number(OffsetDateTime::now_utc());
    match failure.failure_url.as_deref() {
        Some(url) => refuse_to(url, failure, &number, failure.reference_number.as_deref()),
        None => refuse_here(failure),
    }
}

fn too_many_submissions() -> Response {
    let page = error_page("Too many signing requests from this address are in progress; try again in a moment.");
    (StatusCode::TOO_MANY_REQUESTS, [(RETRY_AFTER, "1")], page).into_response()
}

fn legacy_switched_off(head: Option<&PayloadHead>) -> GatewayFailure {
    let detail = "the legacy envelope is switched off for this account; use Profile=2";
    match head {
        Some(head) => head.failure(ErrorCode::InvalidRequest, detail),
        None => GatewayFailure::new(ErrorCode::InvalidRequest, detail),
    }
}

enum Refusal {
    Gateway(GatewayFailure),
    Internal(String),
}

impl From<signet_domain::Error> for Refusal {
    fn from(error: signet_domain::Error) -> Self {
        Refusal::Internal(error.to_string())
    }
}

/// The account behind a valid `Authtoken`, with its gateway settings.
struct Account {
    authtoken_id: i64,
    tenant_id: i64,
    settings: signet_store::GatewaySettings,
}

/// 104 for an unknown `Authtoken`; 109 for a legacy envelope the account switched off.
async fn authorise(state: &AppState, head: &PayloadHead, profile: Profile) -> Result<Account, Refusal> {
    let Some(authtoken) = head.authtoken.as_deref() else {
        return Err(Refusal::Gateway(head.failure(ErrorCode::InvalidParameters, "Authtoken is required")));
    };
    let Some((authtoken_id, tenant_id)) = state.store.authtoken_by_hash(&secrets::hash_token(authtoken)).await? else {
        return Err(Refusal::Gateway(head.failure(ErrorCode::InvalidAuthtoken, "")));
    };
    let settings = state.store.gateway_settings(tenant_id).await?;
    if profile == Profile::Legacy && !settings.legacy_profile {
        return Err(Refusal::Gateway(legacy_switched_off(Some(head))));
    }
    Ok(Account { authtoken_id, tenant_id, settings })
}

/// The subscription checks (105), the document checks (107) and the reference check (108);
/// then the transaction is recorded and its signer link returned. What the signer page needs
/// is kept sealed under the link's secret (`vault`), without the `Authtoken`.
async fn accept(
    state: &AppState,
    account: &Account,
    payload: &Payload,
    opened: &signet_gateway::OpenedRequest,
) -> Result<String, Refusal> {
    let refuse = |code: ErrorCode, detail: &str| Refusal::Gateway(failure_for(payload, code, detail));
    let Account { authtoken_id, tenant_id, settings } = account;
    let (authtoken_id, tenant_id) = (*authtoken_id, *tenant_id);
    let file_type = payload.file_type.as_str().to_ascii_uppercase();
    if !settings.file_types.contains(&file_type) {
        return Err(refuse(ErrorCode::NotSubscribed, &format!("file type {file_type}")));
    }
    if let Some(t) = payload.signature_types.iter().find(|t| !settings.signature_types.contains(&i64::from(t.code()))) {
        return Err(refuse(ErrorCode::NotSubscribed, &format!("signature type {}", t.code())));
    }
    if let Document::Pdf { bytes, options } = &payload.document {
        let (bytes, options) = (bytes.clone(), options.clone());
        state
            .heavy
            .run(move || check_pdf_pages(&bytes, &options))
            .await?
            .map_err(|detail| refuse(ErrorCode::InvalidParameters, &detail))?;
    }
    if let Document::Hash(details) = &payload.document
        && state.config.gateway_hash_check
    {
        check_document_hashes(state, details).await.map_err(|detail| refuse(ErrorCode::InvalidParameters, &detail))?;
    }

    let number = new_transaction_number(OffsetDateTime::now_utc());
    let link_secret = secrets::random_token(24);
    let vault = Vault::for_link(&link_secret, &number).ok_or_else(|| Refusal::Internal("vault key".into()))?;
    let kept = without_authtoken(&opened.payload_json).map_err(Refusal::Gateway)?;
    let sealed_payload = vault.seal(&kept).ok_or_else(|| Refusal::Internal("sealing the payload".into()))?;
    let sealed_session = vault.seal(opened.session.as_bytes()).ok_or_else(|| Refusal::Internal("sealing".into()))?;
    let payload_key = BlobKey::new(["tenant", &tenant_id.to_string(), "gateway", &number, "payload.sealed"])
        .map_err(|e| Refusal::Internal(e.to_string()))?;
    state.blob.put(&payload_key, Bytes::from(sealed_payload)).await.map_err(|e| Refusal::Internal(e.to_string()))?;
    let summary = serde_json::json!({
        "fileType": file_type,
        "signatureTypes": payload.signature_types.iter().map(|t| t.code()).collect::<Vec<_>>(),
        "storeToDb": payload.store_to_db,
    });
    let expires_at = now_millis() + (state.config.gateway_transaction_ttl_secs * 1000) as i64;
    let inserted = state
        .store
        .insert_transaction(&NewTransaction {
            transaction_number: &number,
            tenant_id,
            authtoken_id,
            reference_number: &payload.reference_number,
            file_type: &file_type,
            profile: if opened.profile == Profile::Modern { 2 } else { 1 },
            link_hash: &secrets::hash_token(&link_secret),
            session_key: &sealed_session,
            request_json: &summary.to_string(),
            payload_blob: Some(payload_key.as_str()),
            store_result: payload.store_to_db,
            success_url: &payload.urls.success,
            failure_url: &payload.urls.failure,
            cancel_url: &payload.urls.cancel,
            expires_at,
        })
        .await;
    match inserted {
        Ok(_) => Ok(format!("/sign/g/{number}/{link_secret}")),
        Err(error) if error.code() == ApiCode::Conflict => {
            let _ = state.blob.delete(&payload_key).await;
            Err(refuse(ErrorCode::ReferenceNumberUsed, ""))
        }
        Err(error) => {
            let _ = state.blob.delete(&payload_key).await;
            Err(error.into())
        }
    }
}

/// Fetches each `DocumentURL` through the guarded client (SSRF rules, size and time caps) and
/// compares its SHA-256 with `DocumentHash`.
async fn check_document_hashes(state: &AppState, details: &[signet_gateway::DocumentDetail]) -> Result<(), String> {
    let cfg = if state.config.outbound_allow_private {
        signet_sigcrypto::HttpConfig::allow_private()
    } else {
        signet_sigcrypto::HttpConfig::default()
    };
    for detail in details.iter().cloned() {
        let cfg = cfg.clone();
        let fetched = tokio::task::spawn_blocking(move || {
            let bytes = signet_sigcrypto::fetch(&detail.url, &cfg)
                .map_err(|e| format!("DocumentURL of {} could not be fetched: {e}", detail.name))?;
            let actual = hex::encode(signet_gateway::sha256(&bytes));
            if actual == detail.hash_hex {
                Ok(())
            } else {
                Err(format!("DocumentHash of {} does not match the document at its DocumentURL", detail.name))
            }
        })
        .await
        .map_err(|e| e.to_string())?;
        fetched?;
    }
    Ok(())
}

/// Pages named by the request must exist in the document, and custom boxes must lie on the
/// pages they are drawn on (as the reader sees the page: crop box, rotation applied).
fn check_pdf_pages(pdf: &[u8], options: &signet_gateway::PdfOptions) -> Result<(), String> {
    use signet_gateway::PageSelection as Select;
    let document = signet_pdf::reader::Document::open(pdf).map_err(|e| format!("File: {e}"))?;
    document.check_displayable().map_err(|e| format!("File: {e}"))?;
    document.decode_page_contents().map_err(|e| format!("File: {e}"))?;
    let pages = document.pages().map_err(|e| format!("File: {e}"))?;
    let count = pages.len() as u32;
    let (selected, boxes): (Vec<u32>, Vec<(u32, signet_gateway::BoxRect)>) = match &options.pages {
        Select::All => ((1..=count).collect(), Vec::new()),
        Select::First => (vec![1], Vec::new()),
        Select::Last => (vec![count], Vec::new()),
        Select::Even => ((1..=count).filter(|p| p % 2 == 0).collect(), Vec::new()),
        Select::Odd => ((1..=count).filter(|p| p % 2 == 1).collect(), Vec::new()),
        Select::Specify(list) => (list.clone(), Vec::new()),
        Select::PageLevel(items) => {
            (items.iter().map(|b| b.page).collect(), items.iter().map(|b| (b.page, b.rect)).collect())
        }
    };
    if let Some(page) = selected.iter().find(|p| **p == 0 || **p > count) {
        return Err(format!("page {page} is beyond the document's {count} pages"));
    }
    let custom: Vec<(u32, signet_gateway::BoxRect)> = match options.position {
        signet_gateway::SignaturePosition::Customize(rect) if boxes.is_empty() => {
            selected.iter().map(|p| (*p, rect)).collect()
        }
        _ => boxes,
    };
    for (page, rect) in custom {
        let Some(info) = pages.get(page as usize - 1) else { continue };
        let [x0, y0, x1, y1] = info.crop_box;
        let (width, height) = ((x1 - x0).abs(), (y1 - y0).abs());
        let (width, height) = if info.rotate % 180 == 0 { (width, height) } else { (height, width) };
        if !rect.fits(width, height) {
            return Err(format!(
                "the box {} is outside page {page} ({width:.0} x {height:.0} points)",
                rect.to_param()
            ));
        }
    }
    Ok(())
}
