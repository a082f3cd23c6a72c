//! Documents for workflows: upload (one or many, base64 PDF in JSON), download of the signed
//! result. Documents are checked as PDFs before anything is stored.

use axum::Json;
use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use signet_blob::BlobKey;
use signet_domain::workflow::{DocumentState, WorkflowState};
use signet_domain::{Error, ErrorCode, FieldErrors};
use signet_store::{DocumentRow, NewDocument};
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::Auth;
use crate::error::{ApiError, ApiResult, ProblemDetails};
use crate::extract::ApiJson;

/// The client's browser, as the spec's objects carry it (recorded, not trusted).
#[derive(Debug, Default, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BrowserInfo {
    pub browser_name: Option<String>,
    pub browser_version: Option<String>,
    pub os_name: Option<String>,
    pub os_version: Option<String>,
    pub device: Option<String>,
    pub ip_address: Option<String>,
    pub time_zone: Option<String>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DocumentUploadRequest {
    /// File name shown to signers (default `document.pdf`), at most 200 characters, without
    /// control characters or slashes.
    #[schema(max_length = 200, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f/\\\\]*$")]
    pub document_name: Option<String>,
    /// The PDF (1 to 2000 pages, not encrypted), base64; a `data:` URL prefix is allowed.
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        content_encoding = "base64",
        content_media_type = "application/pdf"
    )]
    pub file_data: Option<String>,
    pub category_id: Option<i32>,
    #[schema(max_length = 200)]
    pub reference_no: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BulkDocumentUploadRequest {
    /// 1 to 20 documents, all stored or none.
    #[schema(required = true, nullable = false, min_items = 1, max_items = 20)]
    pub documents: Option<Vec<DocumentUploadRequest>>,
}

/// An uploaded document.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadedDocument {
    pub document_id: i64,
    pub document_name: String,
    pub pages: i64,
    pub size_bytes: i64,
    /// SHA-256 of the uploaded file, hex.
    pub sha256: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkUploadResponse {
    pub documents: Vec<UploadedDocument>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentDownloadRequest {
    #[serde(rename = "workflowid", alias = "workflowId")]
    pub workflow_id: i32,
    /// One document of the workflow; 0 or absent with `isMerged` or a single document.
    #[serde(rename = "documentId", default)]
    pub document_id: i32,
    #[serde(rename = "referenceNo")]
    pub reference_no: Option<String>,
    /// All documents in one PDF: the completion certificate with every signed document
    /// attached unchanged (so each signature stays valid).
    #[serde(rename = "isMerged", default)]
    pub is_merged: bool,
    #[serde(rename = "browserInfo")]
    pub browser_info: Option<BrowserInfo>,
}

/// Most documents in one bulk upload.
pub const MAX_BULK_DOCUMENTS: usize = 20;
/// Most pages a document may have.
pub const MAX_PAGES: usize = 2000;

/// A document checked and ready to store.
pub struct CheckedPdf {
    pub name: String,
    pub bytes: Vec<u8>,
    pub pages: i64,
    pub sha256: String,
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, bytes).as_ref())
}

/// Decodes base64 file data within `limit` bytes; `field` names the field in errors.
pub fn decode_base64(field: &str, data: Option<&str>, limit: usize) -> Result<Vec<u8>, Error> {
    let data = data.map(str::trim).filter(|d| !d.is_empty()).ok_or_else(|| Error::field(field, "is required"))?;
    let data = data.split_once("base64,").map_or(data, |(_, rest)| rest);
    if data.len() / 4 * 3 > limit + 3 {
        return Err(Error::field(field, format!("the file is larger than {limit} bytes")));
    }
    let compact: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let bytes = STANDARD.decode(compact).map_err(|_| Error::field(field, "is not valid base64"))?;
    if bytes.len() > limit {
        return Err(Error::field(field, format!("the file is larger than {limit} bytes")));
    }
    Ok(bytes)
}

/// Checks a document name: trimmed, 1-200 characters, no control characters or slashes.
pub fn document_name(field: &str, name: Option<&str>, default: &str) -> Result<String, Error> {
    let name = name.map(str::trim).filter(|n| !n.is_empty()).unwrap_or(default);
    if name.chars().count() > 200 || name.chars().any(|c| c.is_control() || c == '/' || c == '\\') {
        return Err(Error::field(field, "must be at most 200 characters without control characters or slashes"));
    }
    Ok(name.to_string())
}

/// A PDF that our signer can sign: it parses, is not encrypted and has at most MAX_PAGES pages.
pub fn check_pdf(field: &str, name: String, bytes: Vec<u8>) -> Result<CheckedPdf, Error> {
    if !bytes.starts_with(b"%PDF-") && !bytes.windows(5).take(1024).any(|w| w == b"%PDF-") {
        return Err(Error::field(field, "is not a PDF document"));
    }
    let summary =
        signet_pdf::inspect_upload(&bytes).map_err(|e| Error::field(field, format!("is not a usable PDF: {e}")))?;
    if summary.pages == 0 || summary.pages > MAX_PAGES {
        return Err(Error::field(field, format!("must have 1 to {MAX_PAGES} pages")));
    }
    let sha256 = sha256_hex(&bytes);
    Ok(CheckedPdf { name, bytes, pages: summary.pages as i64, sha256 })
}

fn check_upload(prefix: &str, request: &DocumentUploadRequest, limit: usize) -> Result<CheckedPdf, Error> {
    let name = document_name(&format!("{prefix}documentName"), request.document_name.as_deref(), "document.pdf")?;
    let field = format!("{prefix}fileData");
    let bytes = decode_base64(&field, request.file_data.as_deref(), limit)?;
    let checked = check_pdf(&field, name, bytes)?;
    if let Some(reference) = &request.reference_no
        && reference.chars().count() > 200
    {
        return Err(Error::field(&format!("{prefix}referenceNo"), "must be at most 200 characters"));
    }
    Ok(checked)
}

/// Stores a checked document: the blob first, then the row (a failed row removes the blob).
pub async fn store_document(
    state: &AppState,
    auth: &Auth,
    checked: CheckedPdf,
    category_id: Option<i64>,
    reference_no: Option<&str>,
) -> Result<DocumentRow, Error> {
    let file = format!("original-{}.pdf", crate::secrets::random_token(12));
    let key = BlobKey::new(["tenant", &auth.tenant_id.to_string(), "uploads", &file]).map_err(Error::internal)?;
    let size = checked.bytes.len() as i64;
    state.blob.put(&key, Bytes::from(checked.bytes)).await.map_err(Error::internal)?;
    let new = NewDocument {
        tenant_id: auth.tenant_id,
        name: &checked.name,
        category_id,
        reference_no,
        blob_key: key.as_str(),
        sha256: &checked.sha256,
        size_bytes: size,
        page_count: checked.pages,
    };
    match state.store.insert_document(&new, &auth.actor()).await {
        Ok(row) => Ok(row),
        Err(error) => {
            let _ = state.blob.delete(&key).await;
            Err(error)
        }
    }
}

fn uploaded(row: DocumentRow) -> UploadedDocument {
    UploadedDocument {
        document_id: row.id,
        document_name: row.name,
        pages: row.page_count,
        size_bytes: row.size_bytes,
        sha256: row.original_sha256,
    }
}

fn upload_limit(state: &AppState) -> usize {
    state.config.max_body_bytes
}

#[utoipa::path(
    post,
    path = "/api/v1/documents",
    tag = "documents",
    security(("bearer" = [])),
    request_body = DocumentUploadRequest,
    responses(
        (status = 201, description = "Stored; use `documentId` in `InitiateWorkFlowData.documentIds`", body = UploadedDocument),
        (status = 400, description = "Not base64, not a PDF, encrypted, or invalid fields", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn upload(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<DocumentUploadRequest>,
) -> ApiResult<(StatusCode, Json<UploadedDocument>)> {
    let (body, limit) = (std::sync::Arc::new(body), upload_limit(&state));
    let checking = body.clone();
    let checked = state.heavy.run(move || check_upload("", &checking, limit)).await??;
    let category = body.category_id.map(i64::from);
    let row = store_document(&state, &auth, checked, category, body.reference_no.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(uploaded(row))))
}

#[utoipa::path(
    post,
    path = "/api/v1/documents/bulk",
    tag = "documents",
    security(("bearer" = [])),
    request_body = BulkDocumentUploadRequest,
    responses(
        (status = 201, description = "All stored (all or nothing)", body = BulkUploadResponse),
        (status = 400, description = "Some document is invalid; nothing was stored", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn upload_bulk(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<BulkDocumentUploadRequest>,
) -> ApiResult<(StatusCode, Json<BulkUploadResponse>)> {
    let requests = body.documents.unwrap_or_default();
    if requests.is_empty() || requests.len() > MAX_BULK_DOCUMENTS {
        return Err(ApiError(Error::field("documents", format!("must hold 1 to {MAX_BULK_DOCUMENTS} documents"))));
    }
    let mut errors = FieldErrors::new();
    let mut checked = Vec::with_capacity(requests.len());
    let requests = std::sync::Arc::new(requests);
    let limit = upload_limit(&state);
    for i in 0..requests.len() {
        let all = requests.clone();
        let outcome = state.heavy.run(move || check_upload(&format!("documents[{i}]."), &all[i], limit)).await?;
        match outcome {
            Ok(doc) => checked.push((doc, &requests[i])),
            Err(Error::Validation(fields)) => errors.extend(fields),
            Err(other) => return Err(ApiError(other)),
        }
    }
    if !errors.is_empty() {
        return Err(ApiError(Error::Validation(errors)));
    }
    let mut stored = Vec::with_capacity(checked.len());
    for (doc, request) in checked {
        let category = request.category_id.map(i64::from);
        stored.push(uploaded(store_document(&state, &auth, doc, category, request.reference_no.as_deref()).await?));
    }
    Ok((StatusCode::CREATED, Json(BulkUploadResponse { documents: stored })))
}

fn pdf_response(bytes: Bytes, file_name: &str) -> Response {
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/pdf"));
    let safe: String =
        file_name.chars().filter(|c| c.is_ascii_graphic() && *c != '"' && *c != '\\' || *c == ' ').collect();
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{safe}\"")) {
        headers.insert(CONTENT_DISPOSITION, value);
    }
    response
}

#[utoipa::path(
    post,
    path = "/api/v1/documents/download",
    tag = "documents",
    security(("bearer" = [])),
    request_body = DocumentDownloadRequest,
    responses(
        (status = 200, description = "The newest version of the document (every signature so far)", content_type = "application/pdf"),
        (status = 404, description = "No such workflow or document in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Several documents: name one or ask for `isMerged`", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn download(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<DocumentDownloadRequest>,
) -> ApiResult<Response> {
    let workflow = state
        .store
        .workflow(auth.tenant_id, i64::from(body.workflow_id))
        .await?
        .filter(|w| w.state != WorkflowState::Deleted)
        .ok_or_else(|| ApiError(Error::not_found("workflow")))?;
    if let Some(reference) = &body.reference_no
        && workflow.reference_no.as_deref() != Some(reference.as_str())
    {
        return Err(ApiError(Error::not_found("workflow")));
    }
    let documents: Vec<DocumentRow> = state
        .store
        .workflow_documents(workflow.id)
        .await?
        .into_iter()
        .filter(|d| d.state != DocumentState::Deleted)
        .collect();
    if body.is_merged {
        let bytes = super::workflows::merged_pdf(&state, &workflow, &documents).await?;
        return Ok(pdf_response(Bytes::from(bytes), &format!("workflow-{}.pdf", workflow.id)));
    }
    let doc = match body.document_id {
        0 if documents.len() == 1 => documents.into_iter().next(),
        0 => {
            return Err(ApiError(Error::rejected(
                ErrorCode::StateConflict,
                "the workflow has several documents: give documentId or isMerged",
            )));
        }
        id => documents.into_iter().find(|d| d.id == i64::from(id)),
    }
    .ok_or_else(|| ApiError(Error::not_found("document")))?;
    let key = BlobKey::parse(&doc.current_blob).map_err(Error::internal)?;
    let bytes = state.blob.get(&key).await.map_err(Error::internal)?;
    Ok(pdf_response(bytes, &doc.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_names_are_checked() {
        assert!(decode_base64("fileData", None, 10).is_err());
        assert!(decode_base64("fileData", Some("%%%"), 10).is_err());
        assert_eq!(decode_base64("fileData", Some("data:application/pdf;base64,QUJD"), 10).ok(), Some(b"ABC".to_vec()));
        assert!(decode_base64("fileData", Some(&"QUJD".repeat(100)), 10).is_err(), "over the limit");
        assert!(document_name("n", Some("../etc/passwd"), "d.pdf").is_err());
        assert_eq!(document_name("n", None, "d.pdf").ok().as_deref(), Some("d.pdf"));
        assert!(check_pdf("f", "x".into(), b"hello".to_vec()).is_err());
    }
}
