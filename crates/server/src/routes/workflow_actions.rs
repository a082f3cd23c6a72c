//! What a sender (or a signatory using the API) does to a running workflow: delegate, decline,
//! link, make inactive, delete; and to its documents: comments, categories, inactive,
//! attachments. Each change is an event in the workflow's chain.

use axum::Json;
use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use signet_blob::BlobKey;
use signet_domain::workflow::{DocumentState, WorkflowState, is_valid_email};
use signet_domain::{Error, ErrorCode};
use signet_store::{SignatoryRow, WorkflowRow};
use utoipa::ToSchema;

use super::documents::BrowserInfo;
use super::workflows::{ParallelSigningUrl, actor_of, signing_url, visible_workflow};
use crate::AppState;
use crate::auth::Auth;
use crate::error::{ApiError, ApiResult, ProblemDetails};
use crate::extract::{ApiJson, ApiPath};

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

fn reason_field(field: &str, reason: Option<&str>, required: bool) -> Result<Option<String>, Error> {
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    match reason {
        None if required => Err(Error::field(field, "is required")),
        Some(r) if r.chars().count() > 500 || r.chars().any(char::is_control) => {
            Err(Error::field(field, "must be at most 500 characters without control characters"))
        }
        other => Ok(other.map(str::to_string)),
    }
}

/// The signatory the caller acts for: their own place when they are a due signatory (a user of
/// the tenant), else, for the sender, the one signatory due now.
async fn due_signatory(state: &AppState, auth: &Auth, workflow: &WorkflowRow) -> Result<SignatoryRow, Error> {
    if workflow.state() != WorkflowState::InProgress {
        return Err(Error::rejected(ErrorCode::StateConflict, format!("the workflow is {}", workflow.state)));
    }
    let due: Vec<SignatoryRow> =
        state.store.signatories(workflow.id).await?.into_iter().filter(|s| s.state().is_turn()).collect();
    let email = match auth.kind {
        crate::auth::jwt::PrincipalKind::User => {
            state.store.tenant_user_email(auth.tenant_id, auth.principal_id).await?
        }
        _ => None,
    };
    let own = due.iter().find(|s| {
        s.subscriber_id == auth.principal_id || email.as_deref().is_some_and(|e| e.eq_ignore_ascii_case(&s.email))
    });
    match (own, due.as_slice()) {
        (Some(own), _) => Ok(own.clone()),
        (None, [only]) => Ok(only.clone()),
        (None, []) => Err(Error::rejected(ErrorCode::StateConflict, "no signatory is due")),
        (None, many) => Err(Error::rejected(
            ErrorCode::StateConflict,
            format!(
                "several signatories are due ({}); act through their signing links",
                many.iter().map(|s| s.email.as_str()).collect::<Vec<_>>().join(", ")
            ),
        )),
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
    let email = body.delegated_user_email.trim().to_string();
    if !is_valid_email(&email) {
        return Err(ApiError(Error::field("delegatedUserEmail", "must be a valid e-mail address")));
    }
    let reason = reason_field("reason", Some(&body.reason), true)?.unwrap_or_default();
    let workflow = visible_workflow(&state, auth.tenant_id, id).await?;
    let from = due_signatory(&state, &auth, &workflow).await?;
    if from.email.eq_ignore_ascii_case(&email) {
        return Err(ApiError(Error::field("delegatedUserEmail", "is the signatory who delegates")));
    }
    let name = email.split('@').next().unwrap_or_default().to_string();
    let expires = crate::workflows::link_expiry(&state, &workflow);
    let limit = Some(i64::from(state.config.signer_max_delegations));
    let to = state.store.delegate(&from, &email, &name, &reason, expires, &actor_of(&auth), limit).await?;
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
    let workflow = visible_workflow(&state, auth.tenant_id, workflow_id).await?;
    let expires = crate::workflows::link_expiry(&state, &workflow);
    let rotated =
        state.store.rotate_signer_link(auth.tenant_id, workflow.id, signatory_id, expires, &actor_of(&auth)).await?;
    Ok(Json(signing_url(&state, &rotated)))
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
    let reason = reason_field("reason", body.reason.as_deref(), false)?.unwrap_or_else(|| "declined".into());
    let workflow = visible_workflow(&state, auth.tenant_id, id).await?;
    let signatory = due_signatory(&state, &auth, &workflow).await?;
    state.store.decline(&signatory, &reason, &actor_of(&auth)).await?;
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
    let mut linked: Vec<i64> = body.linked_workflow_ids.unwrap_or_default().into_iter().map(i64::from).collect();
    linked.sort_unstable();
    linked.dedup();
    if linked.contains(&id) || linked.len() > 100 {
        return Err(ApiError(Error::field("linkedWorkflowIds", "at most 100 other workflows, not this one")));
    }
    visible_workflow(&state, auth.tenant_id, id).await?;
    state.store.set_linked_workflows(auth.tenant_id, id, &linked, &actor_of(&auth)).await?;
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
    visible_workflow(&state, auth.tenant_id, id).await?;
    state.store.change_workflow_state(auth.tenant_id, id, WorkflowState::Inactive, None, &actor_of(&auth)).await?;
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
    let id = i64::from(body.workflow_id);
    visible_workflow(&state, auth.tenant_id, id).await?;
    let mut actor = actor_of(&auth);
    if let Some(ip) = body.ip_address.as_deref().filter(|ip| ip.parse::<std::net::IpAddr>().is_ok()) {
        actor.ip = Some(ip.to_string());
    }
    let keys = state.store.delete_workflow(auth.tenant_id, id, &actor).await?;
    for key in keys.iter().filter_map(|k| BlobKey::parse(k).ok()) {
        if let Err(error) = state.blob.delete(&key).await {
            tracing::warn!(%error, "a deleted workflow's file could not be removed");
        }
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The tenant's document that belongs to a workflow (not deleted), with that workflow.
async fn workflow_document(state: &AppState, tenant_id: i64, document_id: i64) -> Result<(i64, i64), Error> {
    let doc = state
        .store
        .document(tenant_id, document_id)
        .await?
        .filter(|d| d.state != DocumentState::Deleted)
        .ok_or_else(|| Error::not_found("document"))?;
    let workflow_id =
        doc.workflow_id.ok_or_else(|| Error::field("documentID", "the document is not in a workflow yet"))?;
    Ok((doc.id, workflow_id))
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
    let comment = body.comment.trim();
    if comment.is_empty() || comment.chars().count() > 2000 {
        return Err(ApiError(Error::field("comment", "must be 1 to 2000 characters")));
    }
    let (document_id, workflow_id) = workflow_document(&state, auth.tenant_id, i64::from(body.document_id)).await?;
    state.store.add_comment(auth.tenant_id, workflow_id, document_id, comment, &actor_of(&auth), None).await?;
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
    let doc = state.store.document(auth.tenant_id, id).await?.filter(|d| d.state != DocumentState::Deleted);
    let doc = doc.ok_or_else(|| ApiError(Error::not_found("document")))?;
    let rows = state.store.comments(doc.id).await?;
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
    if body.category_id < 0 {
        return Err(ApiError(Error::field("categoryId", "must be 0 or more")));
    }
    let id = i64::from(body.workflow_id);
    visible_workflow(&state, auth.tenant_id, id).await?;
    state
        .store
        .set_category(auth.tenant_id, id, i64::from(body.document_id), i64::from(body.category_id), &actor_of(&auth))
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
    let reason = reason_field("reason", body.reason.as_deref(), false)?;
    state
        .store
        .deactivate_document(
            auth.tenant_id,
            i64::from(body.document_id),
            reason.as_deref(),
            body.force_inactive,
            &actor_of(&auth),
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
    visible_workflow(&state, auth.tenant_id, id).await?;
    let found =
        state.store.attachment(id, attachment_id).await?.ok_or_else(|| ApiError(Error::not_found("attachment")))?;
    let key = found
        .blob_key
        .as_deref()
        .and_then(|k| BlobKey::parse(k).ok())
        .ok_or_else(|| ApiError(Error::not_found("attachment")))?;
    let bytes = state.blob.get(&key).await.map_err(Error::internal)?;
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/octet-stream"));
    let safe: String =
        found.name.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ' ')).collect();
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
    pub document_id: i64,
    /// `{"sentences": [...], "characters": n}`: the sentences that carry the document's most
    /// frequent content words, in order (extractive; text in two-byte fonts is not read).
    #[schema(value_type = Object)]
    pub summary: serde_json::Value,
}

/// Sentences in a summary.
const SUMMARY_SENTENCES: usize = 5;
/// Text read for a summary.
const SUMMARY_MAX_CHARS: usize = 200_000;

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
    let workflow = visible_workflow(&state, auth.tenant_id, i64::from(body.workflow_id)).await?;
    let doc = state
        .store
        .document(auth.tenant_id, i64::from(body.document_id))
        .await?
        .filter(|d| d.workflow_id == Some(workflow.id) && d.state != DocumentState::Deleted)
        .ok_or_else(|| ApiError(Error::not_found("document")))?;
    // The text is that of the upload; signatures add none.
    if let Some(cached) = state.store.cached_summary(doc.id, &doc.original_sha256).await? {
        let summary = serde_json::from_str(&cached).unwrap_or(serde_json::Value::Null);
        return Ok(Json(DocumentSummaryResponse { success: true, from_cache: true, document_id: doc.id, summary }));
    }
    let key = BlobKey::parse(&doc.original_blob).map_err(Error::internal)?;
    let bytes = state.blob.get(&key).await.map_err(Error::internal)?;
    let text = tokio::task::spawn_blocking(move || signet_pdf::text::document_text(&bytes, SUMMARY_MAX_CHARS))
        .await
        .map_err(Error::internal)?
        .map_err(|e| Error::rejected(ErrorCode::StateConflict, format!("the document's text cannot be read: {e}")))?;
    let sentences = signet_domain::summary::summarise(&text, SUMMARY_SENTENCES);
    let summary = serde_json::json!({"sentences": sentences, "characters": text.chars().count()});
    state.store.cache_summary(doc.id, &doc.original_sha256, &summary.to_string()).await?;
    Ok(Json(DocumentSummaryResponse { success: true, from_cache: false, document_id: doc.id, summary }))
}
