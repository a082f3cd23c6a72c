//! The signer page of a gateway transaction: `/sign/g/{transaction}/{secret}`. The secret in
//! the link (stored hashed) is what authorises the signer; the page shows who asks and the
//! document, takes a typed, drawn or uploaded signature with consent, and hands the result on.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::header::{CONTENT_TYPE, USER_AGENT};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;
use signet_blob::BlobKey;
use signet_domain::audit::Actor;
use signet_domain::now_millis;
use signet_gateway::{
    Document, ErrorCode, GatewayFailure, Payload, Profile, ResultPost, SignatureType, check_signature_image,
    parse_payload, seal_hash_result, seal_result,
};
use signet_signing::NameStyle;
use signet_store::{TransactionOutcome, TransactionRow};

use super::seal::{Mark, SealPolicy, seal_hashes, seal_pdf};
use super::views::{HashLink, SignPage, error_page, result_page, sign_page};
use crate::AppState;
use crate::extract::{ApiPath, ClientIp};
use crate::secrets;

/// Largest drawn signature accepted (a PNG data URL from the canvas).
const MAX_DRAWN_BYTES: usize = 1024 * 1024;

struct Open {
    row: TransactionRow,
    payload: Payload,
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
    let json = state.blob.get(&key).await.map_err(|_| Closed::Broken)?;
    let payload = parse_payload(&json).map_err(|_| Closed::Broken)?;
    Ok(Open { row, payload })
}

fn document_name(payload: &Payload) -> String {
    match &payload.document {
        Document::Hash(items) if items.len() == 1 => items[0].name.clone(),
        Document::Hash(items) => format!("{} documents", items.len()),
        _ => format!("{}.{}", payload.reference_number, payload.file_type.as_str().to_ascii_lowercase()),
    }
}

struct Methods {
    typed: bool,
    draw: bool,
    upload: bool,
}

/// The electronic-signature methods this page can offer for the request. Hash requests need
/// only consent, which the typed form carries.
fn methods(payload: &Payload) -> Methods {
    if !payload.has_type(SignatureType::ESignature) {
        return Methods { typed: false, draw: false, upload: false };
    }
    match &payload.document {
        Document::Pdf { options, .. } => {
            Methods { typed: options.esignature.font, draw: options.esignature.draw, upload: options.esignature.upload }
        }
        Document::Hash(_) => Methods { typed: true, draw: false, upload: false },
        _ => Methods { typed: false, draw: false, upload: false },
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
    sign_page(&SignPage {
        requester,
        document_name: document_name(&open.payload),
        reference: open.payload.reference_number.clone(),
        signer_name,
        base,
        error,
        preview: preview && is_pdf,
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
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/pdf"));
    headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("inline; filename=\"document.pdf\""));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("sandbox"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// What the signer submitted.
#[derive(Default)]
struct Submission {
    fields: HashMap<String, String>,
    file: Option<(String, Vec<u8>)>,
}

async fn read_submission(request: Request, state: &AppState) -> Result<Submission, String> {
    let is_multipart = request
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("multipart/form-data"));
    let mut submission = Submission::default();
    if is_multipart {
        let mut multipart = Multipart::from_request(request, state).await.map_err(|e| e.body_text())?;
        while let Some(field) = multipart.next_field().await.map_err(|e| e.body_text())? {
            let name = field.name().unwrap_or_default().to_string();
            match field.file_name().map(str::to_string) {
                Some(file_name) => {
                    let bytes = field.bytes().await.map_err(|e| e.body_text())?;
                    submission.file = Some((file_name, bytes.to_vec()));
                }
                None => {
                    let text = field.text().await.map_err(|e| e.body_text())?;
                    submission.fields.insert(name, text);
                }
            }
        }
    } else {
        let bytes = Bytes::from_request(request, state).await.map_err(|e| e.body_text())?;
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&bytes).map_err(|e| e.to_string())?;
        submission.fields = pairs.into_iter().collect();
    }
    Ok(submission)
}

fn decode_drawn(data_url: &str) -> Result<Vec<u8>, String> {
    let encoded = data_url.strip_prefix("data:image/png;base64,").ok_or("the drawing is not a PNG image")?;
    if encoded.len() > MAX_DRAWN_BYTES * 4 / 3 + 4 {
        return Err("the drawing is too large".into());
    }
    let bytes = STANDARD.decode(encoded.trim()).map_err(|_| "the drawing could not be read".to_string())?;
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err("the drawing is not a PNG image".into());
    }
    Ok(bytes)
}

/// Checks consent and the method, and turns the submission into the mark to apply.
fn mark_from(submission: &Submission, payload: &Payload) -> Result<Mark, String> {
    if submission.fields.get("consent").map(String::as_str) != Some("on") {
        return Err("Please confirm that you agree to sign electronically.".into());
    }
    let allowed = methods(payload);
    let mode = submission.fields.get("mode").map(String::as_str).unwrap_or("");
    match mode {
        "typed" if allowed.typed => {
            let name = submission.fields.get("typedName").map(|n| n.trim().to_string()).unwrap_or_default();
            if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
                return Err("Please type your name (up to 100 characters).".into());
            }
            let style = match submission.fields.get("font").map(String::as_str) {
                Some("plain") => NameStyle::Plain,
                _ => NameStyle::Handwriting,
            };
            Ok(Mark::Typed { name, style })
        }
        "drawn" if allowed.draw => {
            let data_url = submission.fields.get("image").map(String::as_str).unwrap_or("");
            decode_drawn(data_url).map(Mark::Image)
        }
        "upload" if allowed.upload => {
            let Some((file_name, bytes)) = &submission.file else {
                return Err("Please choose a signature image.".into());
            };
            check_signature_image(bytes, file_name).map_err(|failure| failure.error_message())?;
            Ok(Mark::Image(bytes.clone()))
        }
        _ => Err("This signing method is not enabled for this request.".into()),
    }
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
    let session = signet_gateway::SessionKey::from_slice(&open.row.session_key).ok_or("the session key is damaged")?;
    let signer = state.seal.clone();
    let policy = seal_policy(state);
    match open.payload.document.clone() {
        Document::Pdf { bytes, options } => {
            let signed =
                tokio::task::spawn_blocking(move || seal_pdf(&bytes, &options, mark, signer.as_ref(), &policy))
                    .await
                    .map_err(|e| e.to_string())??;
            seal_result(&session, profile, &signed).map_err(|e| e.to_string())
        }
        Document::Hash(details) => {
            let signatures = tokio::task::spawn_blocking(move || seal_hashes(&details, signer.as_ref(), &policy))
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
        Err(closed) => return closed.into_response(),
    };
    let page_base = base(&number, &secret);
    let submission = match read_submission(request, &state).await {
        Ok(submission) => submission,
        Err(_) => return render(&state, &open, page_base, Some("The form could not be read.".into())).await,
    };
    let mark = match mark_from(&submission, &open.payload) {
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
            match state.store.finish_transaction(open.row.tenant_id, &number, &outcome, &actor).await {
                Ok(true) => {
                    let post = ResultPost::success(returnvalue, &number, &reference);
                    result_page(&open.row.success_url, &post, "Signed")
                }
                Ok(false) => Closed::Ended(ended_message("completed")).into_response(),
                Err(_) => Closed::Broken.into_response(),
            }
        }
        Err(cause) => {
            tracing::warn!(transaction = %number, %cause, "sealing failed");
            let failure = GatewayFailure::new(ErrorCode::InvalidParameters, cause);
            let message = failure.error_message();
            let outcome = TransactionOutcome {
                state: "failed",
                error_message: Some(&message),
                result_blob: None,
                result_expires_at: None,
                detail,
            };
            let _ = state.store.finish_transaction(open.row.tenant_id, &number, &outcome, &actor).await;
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
    match state.store.finish_transaction(open.row.tenant_id, &number, &outcome, &actor).await {
        Ok(true) => {
            let post = ResultPost::cancelled(&number, &open.row.reference_number);
            result_page(&open.row.cancel_url, &post, "Cancelled")
        }
        Ok(false) => Closed::Ended(ended_message("cancelled")).into_response(),
        Err(_) => Closed::Broken.into_response(),
    }
}
