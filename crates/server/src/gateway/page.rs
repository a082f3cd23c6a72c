//! The signer page of a gateway transaction: `/sign/g/{transaction}/{secret}`. The secret in
//! the link (stored hashed) is what authorises the signer; the page shows who asks and the
//! document, takes a typed, drawn or uploaded signature with consent, and hands the result on.

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::header::USER_AGENT;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use signet_blob::BlobKey;
use signet_domain::audit::Actor;
use signet_domain::now_millis;
use signet_gateway::{
    Document, ErrorCode, GatewayFailure, Payload, PayloadLimits, Profile, ResultPost, SignatureType,
    parse_kept_payload, seal_hash_result, seal_result,
};
use signet_store::{TransactionOutcome, TransactionRow};

use super::seal::{Mark, SealPolicy, seal_hashes, seal_pdf};
use super::vault::Vault;
use super::views::{HashLink, SignPage, error_page, result_page, sign_page};
use crate::AppState;
use crate::extract::{ApiPath, ClientIp};
use crate::secrets;
use crate::signer_form::{Methods, mark_from, read_submission};

struct Open {
    row: TransactionRow,
    payload: Payload,
    vault: Vault,
}

enum Closed {
    NotFound,
    Ended(&'static str),
    Broken,
}

impl IntoResponse for Closed {
    fn into_response(self) -> Response {
        let (status, message) = match self {
            Closed::NotFound => (StatusCode::NOT_FOUND, "This signing link is not valid."),
            Closed::Ended(state) => (StatusCode::GONE, state),
            Closed::Broken => (StatusCode::INTERNAL_SERVER_ERROR, "This transaction cannot be shown."),
        };
        (status, error_page(message)).into_response()
    }
}

fn ended_message(state: &str) -> &'static str {
    match state {
        "completed" => "This document has already been signed.",
        "cancelled" => "This signing request was cancelled.",
        "failed" => "This signing request failed.",
        _ => "This signing request has expired.",
    }
}

/// The transaction behind a link, if the link is right and the transaction still open.
async fn open(state: &AppState, number: &str, secret: &str) -> Result<Open, Closed> {
    let row = state.store.transaction(number).await.map_err(|_| Closed::Broken)?.ok_or(Closed::NotFound)?;
    if !secrets::token_matches(secret, &row.link_hash) {
        return Err(Closed::NotFound);
    }
    if row.state != "initiated" {
        return Err(Closed::Ended(ended_message(&row.state)));
    }
    if row.expires_at < now_millis() {
        return Err(Closed::Ended(ended_message("expired")));
    }
    let key = row.payload_blob.as_deref().and_then(|k| BlobKey::parse(k).ok()).ok_or(Closed::Broken)?;
    let vault = Vault::for_link(secret, number).ok_or(Closed::Broken)?;
    let stored = state.blob.get(&key).await.map_err(|_| Closed::Broken)?;
    // Transactions submitted before payloads were sealed kept them as plain `payload.json`.
    let json =
        if key.as_str().ends_with(".sealed") { vault.open(&stored).ok_or(Closed::Broken)? } else { stored.to_vec() };
    let payload = state
        .heavy
        .run(move || parse_kept_payload(&json, &PayloadLimits::default()))
        .await
        .map_err(|_| Closed::Broken)?
        .map_err(|_| Closed::Broken)?;
    Ok(Open { row, payload, vault })
}

/// Ends the transaction (first caller wins) and deletes what it kept of the request.
async fn finish(state: &AppState, open: &Open, outcome: &TransactionOutcome<'_>, actor: &Actor) -> Result<bool, ()> {
    let finished =
        state.store.finish_transaction(open.row.tenant_id, &open.row.transaction_number, outcome, actor).await;
    if let Ok(true) = finished
        && let Some(key) = open.row.payload_blob.as_deref().and_then(|k| BlobKey::parse(k).ok())
        && let Err(error) = state.blob.delete(&key).await
    {
        tracing::warn!(%error, "the payload of a finished transaction could not be deleted");
    }
    finished.map_err(|error| tracing::error!(%error, "finishing a gateway transaction failed"))
}

fn document_name(payload: &Payload) -> String {
    match &payload.document {
        Document::Hash(items) if items.len() == 1 => items[0].name.clone(),
        Document::Hash(items) => format!("{} documents", items.len()),
        _ => format!("{}.{}", payload.reference_number, payload.file_type.as_str().to_ascii_lowercase()),
    }
}

/// The electronic-signature methods this page can offer for the request. Hash requests need
/// only consent, which the typed form carries.
fn methods(payload: &Payload) -> Methods {
    if !payload.has_type(SignatureType::ESignature) {
        return Methods::NONE;
    }
    match &payload.document {
        Document::Pdf { options, .. } => {
            Methods { typed: options.esignature.font, draw: options.esignature.draw, upload: options.esignature.upload }
        }
        Document::Hash(_) => Methods { typed: true, draw: false, upload: false },
        _ => Methods::NONE,
    }
}

async fn render(state: &AppState, open: &Open, base: String, error: Option<String>) -> Response {
    let requester = state.store.tenant_name(open.row.tenant_id).await.ok().flatten().unwrap_or_default();
    let allowed = methods(&open.payload);
    let (preview, signer_name) = match &open.payload.document {
        Document::Pdf { options, .. } => (options.preview_required, options.name.clone()),
        _ => (false, String::new()),
    };
    let hashes = match &open.payload.document {
        Document::Hash(items) => items
            .iter()
            .map(|d| HashLink { name: d.name.clone(), url: d.url.clone(), hash: d.hash_hex.clone() })
            .collect(),
        _ => Vec::new(),
    };
    let is_pdf = matches!(open.payload.document, Document::Pdf { .. });
    let preview_pages = match &open.payload.document {
        Document::Pdf { bytes, .. } if preview && crate::preview::available() => {
            signet_pdf::inspect(bytes).map(|s| crate::preview::preview_pages(s.pages)).unwrap_or_default()
        }
        _ => Vec::new(),
    };
    sign_page(&SignPage {
        requester,
        document_name: document_name(&open.payload),
        reference: open.payload.reference_number.clone(),
        signer_name,
        base,
        error,
        preview: preview && is_pdf,
        preview_pages,
        view_link: open.payload.enable_view_document_link && !preview && is_pdf,
        hashes,
        allow_typed: allowed.typed,
        allow_draw: allowed.draw,
        allow_upload: allowed.upload,
        only_unavailable: !(allowed.typed || allowed.draw || allowed.upload),
    })
}

fn base(number: &str, secret: &str) -> String {
    format!("/sign/g/{number}/{secret}")
}

/// `GET /sign/g/{transaction}/{secret}`.
pub async fn show(State(state): State<AppState>, ApiPath((number, secret)): ApiPath<(String, String)>) -> Response {
    match open(&state, &number, &secret).await {
        Ok(open) => render(&state, &open, base(&number, &secret), None).await,
        Err(closed) => closed.into_response(),
    }
}

/// `GET /sign/g/{transaction}/{secret}/document`: the original, for the preview and the link.
pub async fn document(State(state): State<AppState>, ApiPath((number, secret)): ApiPath<(String, String)>) -> Response {
    let open = match open(&state, &number, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    let Document::Pdf { bytes, .. } = open.payload.document else {
        return (StatusCode::NOT_FOUND, error_page("This request has no document to show.")).into_response();
    };
    crate::preview::inline_pdf(bytes.into())
}

/// `GET /sign/g/{transaction}/{secret}/pages/{page}`: one page rendered for the preview.
pub async fn page_image(
    State(state): State<AppState>,
    ApiPath((number, secret, page)): ApiPath<(String, String, usize)>,
) -> Response {
    let open = match open(&state, &number, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    let Document::Pdf { bytes, .. } = open.payload.document else {
        return (StatusCode::NOT_FOUND, error_page("This request has no document to show.")).into_response();
    };
    let pages = signet_pdf::inspect(&bytes).map(|s| s.pages).unwrap_or(0);
    crate::preview::page_response(&bytes, page, pages).await
}

fn seal_policy(state: &AppState) -> SealPolicy {
    let mut http = signet_signing::HttpConfig::default();
    if state.config.outbound_allow_private {
        http = signet_signing::HttpConfig::allow_private();
    }
    SealPolicy { tsa_url: state.config.tsa_url.clone(), http }
}

/// The signed bytes (PDF) or the JSON of hash signatures, sealed as the `Returnvalue`.
async fn produce_returnvalue(state: &AppState, open: &Open, mark: Mark) -> Result<String, String> {
    let profile = if open.row.profile == 2 { Profile::Modern } else { Profile::Legacy };
    let session = open.vault.open_session_key(&open.row.session_key).ok_or("the session key is damaged")?;
    let signer = state.seals.for_tenant(&state.store, open.row.tenant_id).await.map_err(|e| e.to_string())?;
    let policy = seal_policy(state);
    match open.payload.document.clone() {
        Document::Pdf { bytes, options } => {
            let signed = state
                .heavy
                .run(move || seal_pdf(&bytes, &options, mark, signer.as_ref(), &policy))
                .await
                .map_err(|e| e.to_string())??;
            seal_result(&session, profile, &signed).map_err(|e| e.to_string())
        }
        Document::Hash(details) => {
            let signatures = state
                .heavy
                .run(move || seal_hashes(&details, signer.as_ref(), &policy))
                .await
                .map_err(|e| e.to_string())??;
            seal_hash_result(&session, profile, &signatures).map_err(|e| e.to_string())
        }
        _ => Err("this file type is not signed with an electronic signature".into()),
    }
}

async fn keep_result(state: &AppState, row: &TransactionRow, returnvalue: &str) -> Option<(String, i64)> {
    if !row.store_result {
        return None;
    }
    let key =
        BlobKey::new(["tenant", &row.tenant_id.to_string(), "gateway", &row.transaction_number, "result"]).ok()?;
    state.blob.put(&key, Bytes::from(returnvalue.to_string())).await.ok()?;
    Some((key.as_str().to_string(), now_millis() + (state.config.gateway_result_retention_secs * 1000) as i64))
}

/// How long after completion a repeated submission from the signer's link is answered with the
/// kept result again.
const DELIVER_AGAIN_MILLIS: i64 = 10 * 60 * 1000;

/// A second submission from the signer's link shortly after the transaction completed (Sign
/// pressed twice on a slow connection without JavaScript, or the result page reloaded): the
/// browser showed only the later answer, so the kept result (`Storetodb`) goes to SUrl again
/// instead of a page that says the document is already signed, and the integrator still gets it.
async fn deliver_again(state: &AppState, number: &str, secret: &str) -> Option<Response> {
    let row = state.store.transaction(number).await.ok()??;
    if !secrets::token_matches(secret, &row.link_hash) || row.state != "completed" {
        return None;
    }
    let now = now_millis();
    if row.updated_at + DELIVER_AGAIN_MILLIS < now || row.result_expires_at.is_none_or(|until| until < now) {
        return None;
    }
    let key = BlobKey::parse(row.result_blob.as_deref()?).ok()?;
    let returnvalue = String::from_utf8(state.blob.get(&key).await.ok()?.to_vec()).ok()?;
    let post = ResultPost::success(returnvalue, number, &row.reference_number);
    Some(result_page(&row.success_url, &post, "Signed"))
}

/// `POST /sign/g/{transaction}/{secret}/sign`.
pub async fn sign(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiPath((number, secret)): ApiPath<(String, String)>,
    headers: HeaderMap,
    request: Request,
) -> Response {
    let open = match open(&state, &number, &secret).await {
        Ok(open) => open,
        Err(closed @ Closed::Ended(_)) => {
            return match deliver_again(&state, &number, &secret).await {
                Some(again) => again,
                None => closed.into_response(),
            };
        }
        Err(closed) => return closed.into_response(),
    };
    let page_base = base(&number, &secret);
    let submission = match read_submission(request, &state).await {
        Ok(submission) => submission,
        Err(_) => return render(&state, &open, page_base, Some("The form could not be read.".into())).await,
    };
    let mark = match mark_from(&submission, methods(&open.payload)) {
        Ok(mark) => mark,
        // The signer may correct the input and try again (115/116 included).
        Err(message) => return render(&state, &open, page_base, Some(message)).await,
    };
    let method = submission.fields.get("mode").cloned().unwrap_or_default();
    let actor = Actor { id: format!("signer:{number}"), ip: Some(ip.to_string()) };
    let user_agent =
        headers.get(USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("").chars().take(300).collect::<String>();
    let detail = json!({"method": method, "consent": true, "userAgent": user_agent, "signatureTypes": "4"});
    let reference = open.row.reference_number.clone();
    match produce_returnvalue(&state, &open, mark).await {
        Ok(returnvalue) => {
            let kept = keep_result(&state, &open.row, &returnvalue).await;
            let outcome = TransactionOutcome {
                state: "completed",
                error_message: None,
                result_blob: kept.as_ref().map(|(key, _)| key.as_str()),
                result_expires_at: kept.as_ref().map(|(_, until)| *until),
                detail,
            };
            match finish(&state, &open, &outcome, &actor).await {
                Ok(true) => {
                    let post = ResultPost::success(returnvalue, &number, &reference);
                    result_page(&open.row.success_url, &post, "Signed")
                }
                // Another submission from this link finished first.
                Ok(false) => match deliver_again(&state, &number, &secret).await {
                    Some(again) => again,
                    None => Closed::Ended(ended_message("completed")).into_response(),
                },
                Err(_) => Closed::Broken.into_response(),
            }
        }
        Err(cause) => {
            // The cause (file system, TSA, OCSP text…) goes to the log only; the page that
            // carries the result to Furl shows the signer and the integrator a generic text.
            tracing::warn!(transaction = %number, %cause, "sealing failed");
            let failure = GatewayFailure::new(ErrorCode::InvalidParameters, "the document could not be signed");
            let message = failure.error_message();
            let outcome = TransactionOutcome {
                state: "failed",
                error_message: Some(&message),
                result_blob: None,
                result_expires_at: None,
                detail,
            };
            let _ = finish(&state, &open, &outcome, &actor).await;
            let post = ResultPost::failure(&failure, &number, Some(&reference));
            result_page(&open.row.failure_url, &post, "Signing failed")
        }
    }
}

/// `POST /sign/g/{transaction}/{secret}/cancel`: error 106 to Curl.
pub async fn cancel(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiPath((number, secret)): ApiPath<(String, String)>,
) -> Response {
    let open = match open(&state, &number, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    let actor = Actor { id: format!("signer:{number}"), ip: Some(ip.to_string()) };
    let message = ErrorCode::Cancelled.error_message();
    let outcome = TransactionOutcome {
        state: "cancelled",
        error_message: Some(&message),
        result_blob: None,
        result_expires_at: None,
        detail: json!({}),
    };
    match finish(&state, &open, &outcome, &actor).await {
        Ok(true) => {
            let post = ResultPost::cancelled(&number, &open.row.reference_number);
            result_page(&open.row.cancel_url, &post, "Cancelled")
        }
        Ok(false) => Closed::Ended(ended_message("cancelled")).into_response(),
        Err(_) => Closed::Broken.into_response(),
    }
}
