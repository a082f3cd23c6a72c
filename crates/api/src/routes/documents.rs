//! Documents for workflows: upload (one or many, base64 PDF in JSON), download of the signed
//! result. Documents are checked as PDFs before anything is stored.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use signet_domain::Error;
use signet_services::records::DocumentRow;
use signet_services::workflows::documents::{self, DownloadRequest, Upload};
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiError, ApiResult, ProblemDetails};
use signet_http::extract::ApiJson;
use signet_http::files::pdf_response;

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
    #[schema(max_length = 200)]
    pub reference_no: Option<String>,
    /// All documents in one PDF: the completion certificate with every signed document
    /// attached unchanged (so each signature stays valid).
    #[serde(rename = "isMerged", default)]
    pub is_merged: bool,
    #[serde(rename = "browserInfo")]
    pub browser_info: Option<BrowserInfo>,
}

pub use signet_services::workflows::documents::{MAX_BULK_DOCUMENTS, MAX_PAGES};

fn uploaded(row: DocumentRow) -> UploadedDocument {
    UploadedDocument {
        document_id: row.id.get(),
        document_name: row.name,
        pages: row.page_count,
        size_bytes: row.size_bytes,
        sha256: row.original_sha256,
    }
}

fn upload_of(prefix: String, request: &DocumentUploadRequest) -> Upload {
    Upload {
        prefix,
        name: request.document_name.clone(),
        data: request.file_data.clone(),
        reference_no: request.reference_no.clone(),
        category_id: request.category_id.map(i64::from),
    }
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
    let stored = documents::upload(&state.services, &auth.caller(), vec![upload_of(String::new(), &body)]).await?;
    let row = stored.into_iter().next().ok_or_else(|| Error::internal("an upload stored nothing"))?;
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
        return Err(ApiError::from(Error::field(
            "documents",
            format!("must hold 1 to {MAX_BULK_DOCUMENTS} documents"),
        )));
    }
    let uploads = requests.iter().enumerate().map(|(i, r)| upload_of(format!("documents[{i}]."), r)).collect();
    let stored = documents::upload(&state.services, &auth.caller(), uploads).await?;
    let stored = stored.into_iter().map(uploaded).collect();
    Ok((StatusCode::CREATED, Json(BulkUploadResponse { documents: stored })))
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
    let request = DownloadRequest {
        workflow_id: i64::from(body.workflow_id).into(),
        reference_no: body.reference_no,
        document_id: i64::from(body.document_id).into(),
        merged: body.is_merged,
    };
    let file = documents::download(&state.services, &auth.caller(), &request).await?;
    Ok(pdf_response(file.bytes, &file.file_name))
}
