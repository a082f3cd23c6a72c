//! What a sender (or a signatory using the API) does to a running workflow: delegate, decline,
//! link, make inactive, delete; and to its documents: comments, categories, inactive,
//! attachments. Each change is an event in the workflow's chain.

use axum::Json;
use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use signet_domain::{Error, WorkflowId};
use signet_services::workflows::actions;
use utoipa::ToSchema;

use super::documents::BrowserInfo;
use super::workflows::{ParallelSigningUrl, signing_url};
use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DelegateWorkflowRequest {
    /// The workflow id of the address.
    pub workflow_id: i32,
    #[schema(format = Email, max_length = 254)]
    pub delegated_user_email: String,
    /// 1 to 500 characters (trimmed), no control characters.
    #[schema(
        min_length = 1,
        max_length = 500,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub reason: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeclineWorkflowRequest {
    /// The workflow id of the address.
    #[serde(default)]
    pub workflow_id: i32,
    /// At most 500 characters, no control characters.
    #[schema(max_length = 500, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub reason: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LinkDocumentsRequest {
    #[serde(default)]
    pub workflow_id: i32,
    pub linked_workflow_ids: Option<Vec<i32>>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkWorkflowInactiveRequest {
    #[serde(default)]
    pub workflowid: i32,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeleteDocumentRequest {
    #[serde(default)]
    pub workflow_id: i32,
    #[serde(default)]
    pub is_workflow: bool,
    pub ip_address: Option<String>,
    pub os_browser: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddCommentsRequest {
    /// A document in one of the tenant's workflows.
    #[serde(rename = "documentID")]
    #[schema(minimum = 1)]
    pub document_id: i32,
    /// 1 to 2000 characters (trimmed).
    #[schema(
        min_length = 1,
        max_length = 2000,
        pattern = "[^\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]"
    )]
    pub comment: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MapCategoryRequest {
    #[serde(default)]
    pub workflow_id: i32,
    #[serde(default)]
    #[schema(minimum = 0)]
    pub category_id: i32,
    #[serde(default)]
    pub document_id: i32,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MarkDocumentInactiveRequest {
    #[serde(default)]
    pub document_id: i32,
    /// At most 500 characters, no control characters.
    #[schema(max_length = 500, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub reason: Option<String>,
    #[serde(default)]
    pub force_inactive: bool,
    pub browser_info: Option<BrowserInfo>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocumentComment {
    /// `signatory:ID`, `user:ID` or `client:ID`.
    pub author: String,
    pub comment: String,
    pub created_at: i64,
}

fn same_id(field: &str, body_id: i32, path_id: i64) -> Result<(), Error> {
    if i64::from(body_id) == path_id {
        Ok(())
    } else {
        Err(Error::field(field, "must be the workflow id of the address"))
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/workflows/{workflowId}/delegate",
    tag = "workflows",
    security(("bearer" = [])),
    params(("workflowId" = i32, Path, description = "Workflow id", minimum = 1, maximum = 2147483647)),
    request_body = DelegateWorkflowRequest,
    responses(
        (status = 200, description = "Delegated; the new signatory's link", body = ParallelSigningUrl),
        (status = 400, description = "Invalid address, to the same person, or ids that differ", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such workflow in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Not in progress, no single signatory due, or this signature was delegated `signer_max_delegations` times already (`limit_reached`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn delegate(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<DelegateWorkflowRequest>,
) -> ApiResult<Json<ParallelSigningUrl>> {
    same_id("workflowId", body.workflow_id, id)?;
    // The spec's request has no mobile number for the delegate (see `actions::delegate`).
    let to =
        actions::delegate(&state.services, &auth.caller(), id.into(), &body.delegated_user_email, None, &body.reason)
            .await?;
    Ok(Json(signing_url(&state, &to)))
}

#[utoipa::path(
    post,
    path = "/api/v1/workflows/{workflowId}/signatories/{signatoryId}/link/revoke",
    tag = "workflows",
    security(("bearer" = [])),
    params(
        ("workflowId" = i32, Path, description = "Workflow id"),
        ("signatoryId" = i64, Path, description = "Signatory id (`identificationNumber` of the signing URL)"),
    ),
    responses(
        (status = 200, description = "Revoked: every earlier link of this signatory now answers 410; the new link (also e-mailed when it is their turn and the workflow sends e-mail)", body = ParallelSigningUrl),
        (status = 404, description = "No such workflow or signatory in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The workflow is not in progress, or the signatory has nothing left to do", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn revoke_link(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath((workflow_id, signatory_id)): ApiPath<(i64, i64)>,
) -> ApiResult<Json<ParallelSigningUrl>> {
    let rotated =
        actions::revoke_link(&state.services, &auth.caller(), workflow_id.into(), signatory_id.into()).await?;
    Ok(Json(signing_url(&state, &rotated)))
}

#[utoipa::path(
    post,
    path = "/api/v1/workflows/{workflowId}/signatories/{signatoryId}/remind",
    tag = "workflows",
    security(("bearer" = [])),
    params(
        ("workflowId" = i32, Path, description = "Workflow id"),
        ("signatoryId" = i64, Path, description = "Signatory id (`identificationNumber` of the signing URL)"),
    ),
    responses(
        (status = 204, description = "A reminder with their link (unchanged) is e-mailed; the automatic reminders count from now"),
        (status = 404, description = "No such workflow or signatory in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The workflow is not in progress or does not e-mail its signers, it is not the signatory's turn, or they were sent their link or a reminder less than an hour ago", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn remind(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath((workflow_id, signatory_id)): ApiPath<(i64, i64)>,
) -> ApiResult<StatusCode> {
    actions::remind(&state.services, &auth.caller(), workflow_id.into(), signatory_id.into()).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/workflows/{workflowId}/decline",
    tag = "workflows",
    security(("bearer" = [])),
    params(("workflowId" = i32, Path, description = "Workflow id", minimum = 1, maximum = 2147483647)),
    request_body = DeclineWorkflowRequest,
    responses(
        (status = 204, description = "Declined; the workflow ends"),
        (status = 404, description = "No such workflow in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Not in progress (completed, declined, …)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn decline(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<DeclineWorkflowRequest>,
) -> ApiResult<StatusCode> {
    same_id("workflowId", body.workflow_id, id)?;
    actions::decline(&state.services, &auth.caller(), id.into(), body.reason.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/workflows/{workflowId}/link",
    tag = "workflows",
    security(("bearer" = [])),
    params(("workflowId" = i32, Path, description = "Workflow id", minimum = 1, maximum = 2147483647)),
    request_body = LinkDocumentsRequest,
    responses(
        (status = 204, description = "Linked (the list replaces the earlier one)"),
        (status = 404, description = "This or a linked workflow is not the tenant's", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn link(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<LinkDocumentsRequest>,
) -> ApiResult<StatusCode> {
    same_id("workflowId", body.workflow_id, id)?;
    let linked =
        body.linked_workflow_ids.unwrap_or_default().into_iter().map(|id| WorkflowId::from(i64::from(id))).collect();
    actions::link(&state.services, &auth.caller(), id.into(), linked).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/workflows/{workflowId}/inactive",
    tag = "workflows",
    security(("bearer" = [])),
    params(("workflowId" = i32, Path, description = "Workflow id", minimum = 1, maximum = 2147483647)),
    request_body = MarkWorkflowInactiveRequest,
    responses(
        (status = 204, description = "Inactive; signer links stop working"),
        (status = 404, description = "No such workflow in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Not in progress", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn inactive(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<MarkWorkflowInactiveRequest>,
) -> ApiResult<StatusCode> {
    same_id("workflowid", body.workflowid, id)?;
    actions::make_inactive(&state.services, &auth.caller(), id.into()).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/documents/delete",
    operation_id = "deleteWorkflowDocuments",
    tag = "documents",
    security(("bearer" = [])),
    request_body = DeleteDocumentRequest,
    responses(
        (status = 204, description = "The workflow and its documents are deleted (files removed)"),
        (status = 404, description = "No such workflow in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn delete(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<DeleteDocumentRequest>,
) -> ApiResult<StatusCode> {
    let mut caller = auth.caller();
    if let Some(ip) = body.ip_address.as_deref().filter(|ip| ip.parse::<std::net::IpAddr>().is_ok()) {
        caller.actor.ip = Some(ip.to_string());
    }
    actions::delete(&state.services, &caller, i64::from(body.workflow_id).into()).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/documents/comments",
    tag = "documents",
    security(("bearer" = [])),
    request_body = AddCommentsRequest,
    responses(
        (status = 201, description = "Added"),
        (status = 404, description = "No such document in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn add_comment(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<AddCommentsRequest>,
) -> ApiResult<StatusCode> {
    actions::add_comment(&state.services, &auth.caller(), i64::from(body.document_id).into(), &body.comment).await?;
    Ok(StatusCode::CREATED)
}

#[utoipa::path(
    get,
    path = "/api/v1/documents/{documentId}/comments",
    tag = "documents",
    security(("bearer" = [])),
    params(("documentId" = i32, Path, description = "Document id", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 200, description = "Comments, oldest first", body = Vec<DocumentComment>),
        (status = 404, description = "No such document in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn comments(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<Json<Vec<DocumentComment>>> {
    let rows = actions::comments(&state.services, &auth.caller(), id.into()).await?;
    Ok(Json(
        rows.into_iter().map(|(author, comment, created_at)| DocumentComment { author, comment, created_at }).collect(),
    ))
}

#[utoipa::path(
    post,
    path = "/api/v1/documents/category",
    tag = "documents",
    security(("bearer" = [])),
    request_body = MapCategoryRequest,
    responses(
        (status = 204, description = "Filed"),
        (status = 404, description = "No such workflow or document in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn category(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<MapCategoryRequest>,
) -> ApiResult<StatusCode> {
    let (workflow_id, document_id) = (i64::from(body.workflow_id), i64::from(body.document_id));
    actions::set_category(
        &state.services,
        &auth.caller(),
        workflow_id.into(),
        document_id.into(),
        i64::from(body.category_id),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/documents/inactive",
    tag = "documents",
    security(("bearer" = [])),
    request_body = MarkDocumentInactiveRequest,
    responses(
        (status = 204, description = "Inactive: left out of further signatures"),
        (status = 404, description = "No such document in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "In a workflow in progress without forceInactive, the last active one, or an ended workflow", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn document_inactive(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<MarkDocumentInactiveRequest>,
) -> ApiResult<StatusCode> {
    let document_id = i64::from(body.document_id);
    actions::deactivate_document(
        &state.services,
        &auth.caller(),
        document_id.into(),
        body.reason.as_deref(),
        body.force_inactive,
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    get,
    path = "/api/v1/workflows/{workflowId}/attachments/{attachmentId}",
    tag = "workflows",
    security(("bearer" = [])),
    params(("workflowId" = i32, Path, description = "Workflow id", minimum = 1, maximum = 2147483647), ("attachmentId" = i64, Path, description = "Attachment id", minimum = 1)),
    responses(
        (status = 200, description = "The file", content_type = "application/octet-stream"),
        (status = 404, description = "No such workflow or attachment in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn attachment(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath((id, attachment_id)): ApiPath<(i64, i64)>,
) -> ApiResult<Response> {
    let (name, bytes) = actions::attachment(&state.services, &auth.caller(), id.into(), attachment_id.into()).await?;
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/octet-stream"));
    let safe: String =
        name.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ' ')).collect();
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{safe}\"")) {
        headers.insert(CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DocumentSummaryRequest {
    #[serde(default)]
    pub workflow_id: i32,
    #[serde(default)]
    pub document_id: i32,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DocumentSummaryResponse {
    pub success: bool,
    pub from_cache: bool,
    #[schema(format = Int32)]
    pub document_id: i64,
    /// `{"sentences": [...], "characters": n}`: the sentences that carry the document's most
    /// frequent content words, in order (extractive; text in two-byte fonts is not read).
    #[schema(value_type = Object)]
    pub summary: serde_json::Value,
}

#[utoipa::path(
    post,
    path = "/api/v1/documents/summary",
    tag = "documents",
    security(("bearer" = [])),
    request_body = DocumentSummaryRequest,
    responses(
        (status = 200, description = "The summary (computed once per document text, then cached)", body = DocumentSummaryResponse),
        (status = 404, description = "No such workflow or document in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn summary(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<DocumentSummaryRequest>,
) -> ApiResult<Json<DocumentSummaryResponse>> {
    let found = actions::summary(
        &state.services,
        &auth.caller(),
        i64::from(body.workflow_id).into(),
        i64::from(body.document_id).into(),
    )
    .await?;
    Ok(Json(DocumentSummaryResponse {
        success: true,
        from_cache: found.from_cache,
        document_id: found.document_id.get(),
        summary: found.summary,
    }))
}
