//! The workflow signer page: `/sign/w/{signatoryId}/{secret}`. The link is the signer's
//! credential (an HMAC, see `links`); the page shows the documents and takes a typed, drawn or
//! uploaded signature with consent, a decline, a delegation, a comment or an attachment.

use askama::Template;
use axum::extract::{Request, State};
use axum::http::header::USER_AGENT;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use bytes::Bytes;
use serde_json::json;
use signet_blob::BlobKey;
use signet_domain::workflow::{DocumentState, SignatoryState, WorkflowState, is_valid_email};
use signet_domain::{Error, ErrorCode, now_millis};
use signet_store::{AfterSignature, NewAttachment, SignatoryRow, WorkflowActor, WorkflowRow};

use super::sealing::sign_documents;
use crate::AppState;
use crate::extract::{ApiPath, ClientIp};
use crate::signer_form::{Methods, Submission, mark_from, read_submission};

/// Largest file a signer may attach.
pub const MAX_SIGNER_ATTACHMENT: usize = 10 * 1024 * 1024;

pub struct DocumentLink {
    pub id: i64,
    pub name: String,
    pub pages: i64,
}

#[derive(Template)]
#[template(path = "workflow_sign.html")]
struct SignPage {
    requester: String,
    workflow_name: String,
    reference: Option<String>,
    signer_name: String,
    signer_email: String,
    base: String,
    error: Option<String>,
    documents: Vec<DocumentLink>,
    /// Pages of the first document shown as images (empty: the browser's viewer instead).
    preview_pages: Vec<usize>,
    attachments: Vec<String>,
    requested_attachments: Vec<String>,
    allow_typed: bool,
    allow_draw: bool,
    allow_upload: bool,
}

#[derive(Template)]
#[template(path = "workflow_message.html")]
struct MessagePage<'a> {
    title: &'a str,
    message: &'a str,
}

const PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
    frame-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

fn html(status: StatusCode, body: String) -> Response {
    let mut response = (status, Html(body)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(PAGE_CSP));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A page with a title and one message.
pub fn message(status: StatusCode, title: &str, text: &str) -> Response {
    let body = MessagePage { title, message: text }.render().unwrap_or_else(|_| text.to_string());
    html(status, body)
}

/// Why a link does not lead to a signing page.
enum Closed {
    NotFound,
    Gone(&'static str),
    NotYet,
    Broken,
}

/// The one way a signer page answers a failed action: the message of a refusal the signer can
/// act on (a state that changed, a limit, a field), or one generic text for internal failures,
/// whose cause goes to the log only (never store, blob or I/O text on a page).
fn failure(title: &str, signatory_id: i64, error: &Error) -> Response {
    match error {
        Error::Rejected { code, detail } => {
            let status = crate::error::status_of(*code);
            let status = if status.is_server_error() { StatusCode::CONFLICT } else { status };
            message(status, title, &capitalised(detail))
        }
        Error::Validation(_) => message(StatusCode::BAD_REQUEST, title, &user_text(error)),
        Error::NotFound { .. } => Closed::NotFound.into_response(),
        Error::RateLimited { .. } => {
            message(StatusCode::TOO_MANY_REQUESTS, title, "Too many attempts. Please try again in a minute.")
        }
        Error::Internal(cause) => {
            tracing::error!(%cause, signatory = signatory_id, "signer page action failed");
            Closed::Broken.into_response()
        }
    }
}

/// The text of a refusal the signer can correct (validation), for showing on the form.
fn user_text(error: &Error) -> String {
    match error {
        Error::Validation(fields) => capitalised(&fields.values().flatten().cloned().collect::<Vec<_>>().join("; ")),
        Error::Rejected { detail, .. } => capitalised(detail),
        _ => "The form could not be accepted.".into(),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars.next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    out.push_str(chars.as_str());
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}

impl IntoResponse for Closed {
    fn into_response(self) -> Response {
        match self {
            Closed::NotFound => message(StatusCode::NOT_FOUND, "Link not valid", "This signing link is not valid."),
            Closed::Gone(text) => message(StatusCode::GONE, "Nothing to sign", text),
            Closed::NotYet => message(
                StatusCode::CONFLICT,
                "Not your turn yet",
                "Others sign before you. You will receive a link when it is your turn.",
            ),
            Closed::Broken => message(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong",
                "This request cannot be completed right now. Please try again later.",
            ),
        }
    }
}

struct Open {
    signatory: SignatoryRow,
    workflow: WorkflowRow,
    base: String,
}

fn gone_text(signatory: &SignatoryRow, workflow: &WorkflowRow) -> &'static str {
    match (workflow.state(), signatory.state()) {
        (_, SignatoryState::Signed) => "You have already signed. Thank you.",
        (_, SignatoryState::Declined) => "You declined to sign.",
        (_, SignatoryState::Delegated) => "You handed this signature on to someone else.",
        (WorkflowState::Completed, _) => "Everyone has signed; nothing is left to sign.",
        (WorkflowState::Declined, _) => "This request was declined.",
        (WorkflowState::Expired, _) => "This request has expired.",
        _ => "This request is no longer active.",
    }
}

/// The signatory behind a link, if the link is right and it is their turn.
async fn open(state: &AppState, id: i64, secret: &str) -> Result<Open, Closed> {
    let (signatory, workflow) = state
        .store
        .signatory(id)
        .await
        .map_err(|error| {
            tracing::error!(%error, signatory = id, "signer link lookup failed");
            Closed::Broken
        })?
        .ok_or(Closed::NotFound)?;
    if !state.link_key.matches(signatory.id, signatory.link_version, secret) {
        // A link of an earlier version was revoked (rotated by the sender, or resent).
        let earlier =
            (1..signatory.link_version).rev().take(1000).any(|v| state.link_key.matches(signatory.id, v, secret));
        if earlier {
            return Err(Closed::Gone(
                "This signing link is no longer valid: the sender has replaced it. Please use the newest link you received.",
            ));
        }
        return Err(Closed::NotFound);
    }
    if workflow.state() != WorkflowState::InProgress || signatory.state().is_final() {
        return Err(Closed::Gone(gone_text(&signatory, &workflow)));
    }
    if signatory.link_expires_at < now_millis() || workflow.expires_at.is_some_and(|t| t < now_millis()) {
        return Err(Closed::Gone("This signing link has expired."));
    }
    if signatory.state() == SignatoryState::Pending {
        return Err(Closed::NotYet);
    }
    let base = format!("/sign/w/{}/{secret}", signatory.id);
    Ok(Open { signatory, workflow, base })
}

fn actor(open: &Open, ip: std::net::IpAddr) -> WorkflowActor {
    WorkflowActor { id: format!("signatory:{}", open.signatory.id), ip: Some(ip.to_string()) }
}

fn user_agent(headers: &HeaderMap) -> String {
    headers.get(USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("").chars().take(300).collect()
}

async fn render(state: &AppState, open: &Open, error: Option<String>) -> Response {
    let requester = state.store.tenant_name(open.workflow.tenant_id).await.ok().flatten().unwrap_or_default();
    let documents: Vec<DocumentLink> = state
        .store
        .workflow_documents(open.workflow.id)
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|d| d.state == DocumentState::Active)
        .map(|d| DocumentLink { id: d.id, name: d.name, pages: d.page_count })
        .collect();
    let preview_pages = match documents.first() {
        Some(first) if crate::preview::available() => crate::preview::preview_pages(first.pages as usize),
        _ => Vec::new(),
    };
    let all = state.store.attachments(open.workflow.id).await.unwrap_or_default();
    let attachments = all.iter().filter(|a| a.kind == "initiator").map(|a| a.name.clone()).collect();
    let requested_attachments = all.iter().filter(|a| a.kind == "requested").map(|a| a.name.clone()).collect();
    let page = SignPage {
        requester,
        workflow_name: open.workflow.name.clone(),
        reference: open.workflow.reference_no.clone(),
        signer_name: open.signatory.name.clone(),
        signer_email: open.signatory.email.clone(),
        base: open.base.clone(),
        error: error.clone(),
        documents,
        preview_pages,
        attachments,
        requested_attachments,
        allow_typed: true,
        allow_draw: true,
        allow_upload: true,
    };
    let status = if error.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    match page.render() {
        Ok(body) => html(status, body),
        Err(_) => Closed::Broken.into_response(),
    }
}

/// `GET /sign/w/{signatoryId}/{secret}`. Showing the page records nothing: e-mail security
/// scanners fetch links too, so "viewed" waits for a real interaction ([`viewed`], or any
/// action posted from the page).
pub async fn show(State(state): State<AppState>, ApiPath((id, secret)): ApiPath<(i64, String)>) -> Response {
    let open = match open(&state, id, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    render(&state, &open, None).await
}

/// Records "viewed" (notified -> viewed, once) for a real interaction with the page.
async fn record_view(state: &AppState, open: &Open, ip: std::net::IpAddr, headers: &HeaderMap, how: &str) {
    let detail = json!({"userAgent": user_agent(headers), "via": how});
    if let Err(error) = state.store.mark_viewed(&open.signatory, &actor(open, ip), detail).await {
        tracing::warn!(%error, "could not record the page view");
    }
}

/// `POST /sign/w/{signatoryId}/{secret}/viewed`: sent by the page's script once the page is
/// shown in a browser (a scanner's GET of the link does not run it).
pub async fn viewed(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiPath((id, secret)): ApiPath<(i64, String)>,
) -> Response {
    let open = match open(&state, id, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    record_view(&state, &open, ip, &headers, "page").await;
    StatusCode::NO_CONTENT.into_response()
}

/// The current version of one of the workflow's active documents, with its page count.
async fn current_document(state: &AppState, open: &Open, document_id: i64) -> Result<(Bytes, usize), Closed> {
    let found = state.store.document(open.workflow.tenant_id, document_id).await.ok().flatten();
    let Some(doc) = found.filter(|d| d.workflow_id == Some(open.workflow.id) && d.state == DocumentState::Active)
    else {
        return Err(Closed::NotFound);
    };
    let key = BlobKey::parse(&doc.current_blob).map_err(|_| Closed::Broken)?;
    let bytes = state.blob.get(&key).await.map_err(|error| {
        tracing::error!(%error, document = doc.id, "a workflow document cannot be read");
        Closed::Broken
    })?;
    Ok((bytes, doc.page_count as usize))
}

/// `GET /sign/w/{signatoryId}/{secret}/documents/{documentId}`: the current version.
pub async fn document(
    State(state): State<AppState>,
    ApiPath((id, secret, document_id)): ApiPath<(i64, String, i64)>,
) -> Response {
    let open = match open(&state, id, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    let bytes = match current_document(&state, &open, document_id).await {
        Ok((bytes, _)) => bytes,
        Err(closed) => return closed.into_response(),
    };
    crate::preview::inline_pdf(bytes)
}

/// `GET /sign/w/{signatoryId}/{secret}/documents/{documentId}/pages/{page}`: a rendered page.
pub async fn page_image(
    State(state): State<AppState>,
    ApiPath((id, secret, document_id, page)): ApiPath<(i64, String, i64, usize)>,
) -> Response {
    let open = match open(&state, id, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    match current_document(&state, &open, document_id).await {
        Ok((bytes, pages)) => crate::preview::page_response(&bytes, page, pages).await,
        Err(closed) => closed.into_response(),
    }
}

fn signed_response(open: &Open, after: &AfterSignature) -> Response {
    let settings: serde_json::Value = serde_json::from_str(&open.workflow.settings).unwrap_or_default();
    if let Some(url) = settings.get("redirectURL").and_then(|v| v.as_str()).filter(|u| !u.is_empty()) {
        return Redirect::to(url).into_response();
    }
    let text = match after {
        AfterSignature::Completed => "You signed. Everyone has now signed; the signed documents go to the sender.",
        AfterSignature::Continuing { .. } => "You signed. The others are asked to sign next.",
    };
    message(StatusCode::OK, "Signed", text)
}

/// `POST /sign/w/{signatoryId}/{secret}/sign`.
pub async fn sign(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiPath((id, secret)): ApiPath<(i64, String)>,
    request: Request,
) -> Response {
    let open = match open(&state, id, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    record_view(&state, &open, ip, &headers, "sign").await;
    let submission = match read_submission(request, &state).await {
        Ok(submission) => submission,
        Err(_) => return render(&state, &open, Some("The form could not be read.".into())).await,
    };
    let mark = match mark_from(&submission, Methods::ALL) {
        Ok(mark) => mark,
        Err(text) => return render(&state, &open, Some(text)).await,
    };
    let detail = json!({
        "method": submission.field("mode").unwrap_or(""),
        "consent": true,
        "userAgent": user_agent(&headers),
        "signatureType": "electronic",
    });
    match sign_documents(&state, &open.signatory, &open.workflow, mark, &actor(&open, ip), detail).await {
        Ok(after) => {
            if after == AfterSignature::Completed {
                super::completion::finish_in_background(&state, open.workflow.tenant_id, open.workflow.id);
            }
            signed_response(&open, &after)
        }
        Err(error) if error.code() == ErrorCode::ValidationFailed => {
            render(&state, &open, Some(user_text(&error))).await
        }
        Err(error) => failure("Not signed", open.signatory.id, &error),
    }
}

fn reason_of(submission: &Submission) -> Result<String, String> {
    let reason = submission.field("reason").map(str::trim).unwrap_or("");
    if reason.is_empty() || reason.chars().count() > 500 || reason.chars().any(char::is_control) {
        return Err("Please give a reason (up to 500 characters).".into());
    }
    Ok(reason.to_string())
}

/// `POST /sign/w/{signatoryId}/{secret}/decline`.
pub async fn decline(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiPath((id, secret)): ApiPath<(i64, String)>,
    request: Request,
) -> Response {
    let open = match open(&state, id, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    record_view(&state, &open, ip, &headers, "decline").await;
    let submission = read_submission(request, &state).await.unwrap_or_default();
    let reason = match reason_of(&submission) {
        Ok(reason) => reason,
        Err(text) => return render(&state, &open, Some(text)).await,
    };
    match state.store.decline(&open.signatory, &reason, &actor(&open, ip)).await {
        Ok(()) => message(StatusCode::OK, "Declined", "You declined to sign. The sender has been told."),
        Err(error) => failure("Not declined", open.signatory.id, &error),
    }
}

/// `POST /sign/w/{signatoryId}/{secret}/delegate`.
pub async fn delegate(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiPath((id, secret)): ApiPath<(i64, String)>,
    request: Request,
) -> Response {
    let open = match open(&state, id, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    record_view(&state, &open, ip, &headers, "delegate").await;
    let submission = read_submission(request, &state).await.unwrap_or_default();
    let email = submission.field("email").map(str::trim).unwrap_or("").to_string();
    if !is_valid_email(&email) {
        return render(&state, &open, Some("Please give a valid e-mail address.".into())).await;
    }
    if email.eq_ignore_ascii_case(&open.signatory.email) {
        return render(&state, &open, Some("You cannot delegate to yourself.".into())).await;
    }
    let reason = match reason_of(&submission) {
        Ok(reason) => reason,
        Err(text) => return render(&state, &open, Some(text)).await,
    };
    let name = submission.field("name").map(str::trim).filter(|n| !n.is_empty() && n.chars().count() <= 200);
    let name = name.map(str::to_string).unwrap_or_else(|| email.split('@').next().unwrap_or_default().to_string());
    let expires = super::link_expiry(&state, &open.workflow);
    let limit = Some(i64::from(state.config.signer_max_delegations));
    match state.store.delegate(&open.signatory, &email, &name, &reason, expires, &actor(&open, ip), limit).await {
        Ok(_) => message(StatusCode::OK, "Delegated", &format!("{email} has been asked to sign in your place.")),
        Err(error) if error.code() == ErrorCode::ValidationFailed => {
            render(&state, &open, Some("This person already signs this request.".into())).await
        }
        Err(error) => failure("Not delegated", open.signatory.id, &error),
    }
}

/// `POST /sign/w/{signatoryId}/{secret}/comment`: a comment on the workflow's first document.
pub async fn comment(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiPath((id, secret)): ApiPath<(i64, String)>,
    request: Request,
) -> Response {
    let open = match open(&state, id, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    record_view(&state, &open, ip, &headers, "comment").await;
    let submission = read_submission(request, &state).await.unwrap_or_default();
    let text = submission.field("comment").map(str::trim).unwrap_or("");
    if text.is_empty() || text.chars().count() > 2000 {
        return render(&state, &open, Some("A comment must be 1 to 2000 characters.".into())).await;
    }
    let documents = match state.store.workflow_documents(open.workflow.id).await {
        Ok(documents) => documents,
        Err(error) => return failure("Comment not added", open.signatory.id, &error),
    };
    let Some(first) = documents.first() else { return Closed::Broken.into_response() };
    let limit = Some(i64::from(state.config.signer_max_comments));
    let (tenant, workflow) = (open.workflow.tenant_id, open.workflow.id);
    match state.store.add_comment(tenant, workflow, first.id, text, &actor(&open, ip), limit).await {
        Ok(_) => render(&state, &open, None).await,
        Err(error @ Error::Rejected { .. }) => render(&state, &open, Some(user_text(&error))).await,
        Err(error) => failure("Comment not added", open.signatory.id, &error),
    }
}

/// `POST /sign/w/{signatoryId}/{secret}/attachment`: a document the sender asked for.
pub async fn attachment(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiPath((id, secret)): ApiPath<(i64, String)>,
    request: Request,
) -> Response {
    let open = match open(&state, id, &secret).await {
        Ok(open) => open,
        Err(closed) => return closed.into_response(),
    };
    record_view(&state, &open, ip, &headers, "attachment").await;
    let submission = match read_submission(request, &state).await {
        Ok(submission) => submission,
        Err(_) => return render(&state, &open, Some("The attachment could not be read (too large?).".into())).await,
    };
    let Some((file_name, bytes)) = submission.file.as_ref() else {
        return render(&state, &open, Some("Please choose a file.".into())).await;
    };
    if bytes.len() > MAX_SIGNER_ATTACHMENT {
        return render(&state, &open, Some("An attachment may be at most 10 MB.".into())).await;
    }
    let requested = submission.field("name").unwrap_or(file_name).chars().take(200).collect::<String>();
    let sha = hex::encode(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, bytes).as_ref());
    let file = format!("{}-{}", open.signatory.id, crate::secrets::random_token(8));
    let tenant = open.workflow.tenant_id.to_string();
    let workflow = open.workflow.id.to_string();
    let Ok(key) = BlobKey::new(["tenant", &tenant, "workflows", &workflow, "attachments", &file]) else {
        return Closed::Broken.into_response();
    };
    if let Err(error) = state.blob.put(&key, Bytes::from(bytes.clone())).await {
        tracing::error!(%error, signatory = open.signatory.id, "storing a signer's attachment failed");
        return Closed::Broken.into_response();
    }
    let new = NewAttachment {
        tenant_id: open.workflow.tenant_id,
        workflow_id: open.workflow.id,
        signatory_id: Some(open.signatory.id),
        kind: "signer",
        name: &requested,
        description: Some(file_name),
        blob_key: Some(key.as_str()),
        sha256: Some(&sha),
        size_bytes: Some(bytes.len() as i64),
    };
    let limit = Some(i64::from(state.config.signer_max_attachments));
    match state.store.add_attachment(&new, &actor(&open, ip), limit).await {
        Ok(_) => render(&state, &open, None).await,
        Err(error) => {
            let _ = state.blob.delete(&key).await;
            match error {
                Error::Rejected { .. } => render(&state, &open, Some(user_text(&error))).await,
                error => failure("Attachment not added", open.signatory.id, &error),
            }
        }
    }
}
