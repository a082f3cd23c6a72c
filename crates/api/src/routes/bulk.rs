//! Lots and bulk jobs (docs/bulk.md): a lot of workflows for one signer, signed at once with
//! the spec's `BulkSignInput`; every bulk job's status, its progress as server-sent events,
//! its report (CSV), cancellation, and its completion record (`BulkCompletionRequest`).

use std::convert::Infallible;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde::{Deserialize, Serialize};
use signet_domain::{LotId, PrincipalId, WorkflowId};
use signet_services::bulk::lots;
use signet_services::bulk::send::{self as bulk_send, BulkSend};
use signet_services::bulk::{self as service, Completion, JobStatus};
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};
use signet_http::files::report_response;

/// A new lot: workflows whose documents one user of the organisation signs at once.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LotCreateRequest {
    #[schema(min_length = 1, max_length = 200)]
    pub name: String,
    /// The user who signs the lot (their address must be a signatory still to sign in each).
    #[schema(minimum = 1)]
    pub signer_user_id: i64,
    #[schema(min_items = 1, max_items = 1000)]
    pub workflow_ids: Vec<i64>,
}

/// A lot.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Lot {
    pub lot_id: i64,
    pub name: String,
    pub signer_email: String,
    pub workflow_ids: Vec<i64>,
    /// The job that signs (or signed) it, once `BulkSignInput` was sent.
    pub job_id: Option<String>,
    pub created_at: i64,
}

/// The spec's `BulkSignInput`: the lot's signer signs every workflow of the lot with one
/// consent (this request) and one signature image.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BulkSignInput {
    #[schema(minimum = 1)]
    pub lot_id: i64,
    /// PNG or JPEG, base64, at most 1 MiB.
    #[schema(min_length = 1)]
    pub signature_image: String,
    #[schema(max_length = 500)]
    pub reviewer_comments: Option<String>,
}

/// A bulk job's status and progress.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkJob {
    pub job_id: String,
    /// `lot_sign` or `bulk_send`.
    pub kind: String,
    /// `queued`, `running`, `completed`, `completed_with_errors` or `cancelled`.
    pub status: String,
    pub total: i64,
    pub succeeded: i64,
    pub failed: i64,
    pub skipped: i64,
    /// Items not yet done.
    pub pending: i64,
    pub cancel_requested: bool,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub report_url: String,
}

impl From<JobStatus> for BulkJob {
    fn from(s: JobStatus) -> Self {
        BulkJob {
            job_id: s.job_id,
            kind: s.kind,
            status: s.status,
            total: s.total,
            succeeded: s.succeeded,
            failed: s.failed,
            skipped: s.skipped,
            pending: s.pending,
            cancel_requested: s.cancel_requested,
            created_at: s.created_at,
            started_at: s.started_at,
            finished_at: s.finished_at,
            report_url: s.report_url,
        }
    }
}

/// The spec's `BulkCompletionRequest`: a finished job's record, as delivered to the tenant's
/// webhooks (`bulk.completed`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkCompletionRequest {
    pub job_id: Option<String>,
    /// The user who started the job.
    pub subscriber_id: i64,
    /// The lot signed (or the template sent).
    pub parent_id: i64,
    pub menu_id: i32,
    /// `completed`, `completed_with_errors` or `cancelled`.
    pub status: Option<String>,
    pub total_rows: i32,
    pub succeeded: i32,
    pub failed: i32,
    pub skipped: i32,
    #[schema(format = DateTime)]
    pub started_at: Option<String>,
    #[schema(format = DateTime)]
    pub finished_at: Option<String>,
    pub report_url: Option<String>,
}

impl From<Completion> for BulkCompletionRequest {
    fn from(c: Completion) -> Self {
        let small = |n: i64| i32::try_from(n).unwrap_or(i32::MAX);
        BulkCompletionRequest {
            job_id: Some(c.job_id),
            subscriber_id: c.subscriber_id,
            parent_id: c.parent_id,
            menu_id: small(c.menu_id.get()),
            status: Some(c.status),
            total_rows: small(c.total_rows),
            succeeded: small(c.succeeded),
            failed: small(c.failed),
            skipped: small(c.skipped),
            started_at: c.started_at,
            finished_at: c.finished_at,
            report_url: Some(c.report_url),
        }
    }
}

fn to_lot(lot: lots::Lot, job_id: Option<String>) -> Lot {
    Lot {
        lot_id: lot.row.id.get(),
        name: lot.row.name,
        signer_email: lot.row.signer_email,
        workflow_ids: lot.workflow_ids.into_iter().map(WorkflowId::get).collect(),
        job_id,
        created_at: lot.row.created_at,
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/lots",
    operation_id = "createLot",
    tag = "bulk",
    security(("bearer" = [])),
    request_body = LotCreateRequest,
    responses(
        (status = 201, description = "The lot", body = Lot),
        (status = 400, description = "A workflow that is not the organisation's, not in progress or not waiting for the signer (named by index); nothing stored", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn create_lot(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<LotCreateRequest>,
) -> ApiResult<(StatusCode, Json<Lot>)> {
    let workflow_ids: Vec<WorkflowId> = body.workflow_ids.iter().copied().map(WorkflowId::from).collect();
    let lot = lots::create(
        &state.services,
        &auth.caller(),
        &body.name,
        PrincipalId::from(body.signer_user_id),
        &workflow_ids,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(to_lot(lot, None))))
}

#[utoipa::path(
    get,
    path = "/api/v1/lots/{lotId}",
    operation_id = "getLot",
    tag = "bulk",
    security(("bearer" = [])),
    params(("lotId" = i64, Path, description = "Lot id", minimum = 1)),
    responses(
        (status = 200, description = "The lot", body = Lot),
        (status = 404, description = "No such lot in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_lot(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<Json<Lot>> {
    let lot = lots::get(&state.services, &auth.caller(), LotId::from(id)).await?;
    let job_id = lot.job_public_id(&state.services).await?;
    Ok(Json(to_lot(lot, job_id)))
}

#[utoipa::path(
    post,
    path = "/api/v1/lots/sign",
    operation_id = "signLot",
    tag = "bulk",
    security(("bearer" = [])),
    request_body = BulkSignInput,
    responses(
        (status = 202, description = "A job signs every workflow of the lot; follow it at /api/v1/bulk-jobs/{jobId}", body = BulkJob),
        (status = 400, description = "A missing or unreadable image, comments too long", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 403, description = "The caller is not the lot's signer", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such lot in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "`state_conflict`: the lot is already signed or being signed", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn sign_lot(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<BulkSignInput>,
) -> ApiResult<(StatusCode, Json<BulkJob>)> {
    let status = lots::sign(
        &state.services,
        &auth.caller(),
        LotId::from(body.lot_id),
        &body.signature_image,
        body.reviewer_comments.as_deref(),
    )
    .await?;
    Ok((StatusCode::ACCEPTED, Json(status.into())))
}

/// A bulk send: one template and its documents to every row of a CSV file.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BulkSendRequest {
    /// The template whose signature fields the workflows take (0: the default places).
    #[serde(default)]
    #[schema(minimum = 0)]
    pub template_id: i64,
    /// Uploaded documents (`POST /api/v1/documents`), copied into every row's workflow.
    #[schema(min_items = 1, max_items = 10)]
    pub document_ids: Vec<i64>,
    /// The CSV file, base64 (UTF-8, at most 5 MiB and 5000 rows): a header row with
    /// `workflowName`, `referenceNo`, `signer1.email`, `signer1.name`, `signer1.order`,
    /// `signer1.mode`, ... up to `signer10.*`; `signer1.email` is required.
    #[schema(min_length = 1)]
    pub file_data: String,
    /// Check the file only: nothing is sent.
    #[serde(default)]
    pub dry_run: bool,
}

/// A row that would not start a workflow, and why (by field).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkSendRowProblem {
    /// The row among the records, from 1.
    pub row: i64,
    /// Its line in the file (the header is line 1).
    pub line: i64,
    #[schema(value_type = Object)]
    pub errors: std::collections::BTreeMap<String, Vec<String>>,
}

/// What the file holds, and the job that sends it (none for a dry run).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkSendResult {
    pub rows: i64,
    pub valid: i64,
    pub invalid: i64,
    pub problems: Vec<BulkSendRowProblem>,
    pub job: Option<BulkJob>,
}

#[utoipa::path(
    post,
    path = "/api/v1/bulk-sends",
    operation_id = "bulkSend",
    tag = "bulk",
    security(("bearer" = [])),
    request_body = BulkSendRequest,
    responses(
        (status = 200, description = "Dry run: the rows checked, nothing sent", body = BulkSendResult),
        (status = 202, description = "A job sends every row; rows that are wrong are reported and nothing is sent for them", body = BulkSendResult),
        (status = 400, description = "A file that cannot be read (its line named), unknown columns, documents that are not the organisation's; nothing sent", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn bulk_send(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<BulkSendRequest>,
) -> ApiResult<(StatusCode, Json<BulkSendResult>)> {
    let send = BulkSend {
        template_id: body.template_id,
        document_ids: body.document_ids,
        file_base64: body.file_data,
        dry_run: body.dry_run,
    };
    let (preview, job) = bulk_send::start(&state.services, &auth.caller(), send).await?;
    let status = if job.is_some() { StatusCode::ACCEPTED } else { StatusCode::OK };
    let problems = preview
        .problems
        .into_iter()
        .map(|p| BulkSendRowProblem { row: p.row as i64, line: p.line as i64, errors: p.errors })
        .collect();
    let result = BulkSendResult {
        rows: preview.rows as i64,
        valid: preview.valid as i64,
        invalid: (preview.rows - preview.valid) as i64,
        problems,
        job: job.map(BulkJob::from),
    };
    Ok((status, Json(result)))
}

async fn job_of(state: &AppState, auth: &Auth, job_id: &str) -> ApiResult<signet_services::records::BulkJobRow> {
    Ok(service::job_for(&state.services, &auth.caller(), job_id).await?)
}

#[utoipa::path(
    get,
    path = "/api/v1/bulk-jobs/{jobId}",
    operation_id = "getBulkJob",
    tag = "bulk",
    security(("bearer" = [])),
    params(("jobId" = String, Path, description = "The job's id (`job_…`)")),
    responses(
        (status = 200, description = "Status and progress", body = BulkJob),
        (status = 404, description = "No such job for this caller", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_job(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Json<BulkJob>> {
    let job = job_of(&state, &auth, &id).await?;
    Ok(Json(service::status(&state.services, &job).await?.into()))
}

#[utoipa::path(
    post,
    path = "/api/v1/bulk-jobs/{jobId}/cancel",
    operation_id = "cancelBulkJob",
    tag = "bulk",
    security(("bearer" = [])),
    params(("jobId" = String, Path, description = "The job's id (`job_…`)")),
    responses(
        (status = 200, description = "Items not yet started are skipped; the one running finishes", body = BulkJob),
        (status = 404, description = "No such job for this caller", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "`state_conflict`: the job has finished", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn cancel_job(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Json<BulkJob>> {
    let job = job_of(&state, &auth, &id).await?;
    Ok(Json(service::cancel(&state.services, &auth.caller(), &job).await?.into()))
}

#[utoipa::path(
    get,
    path = "/api/v1/bulk-jobs/{jobId}/completion",
    operation_id = "getBulkCompletion",
    tag = "bulk",
    security(("bearer" = [])),
    params(("jobId" = String, Path, description = "The job's id (`job_…`)")),
    responses(
        (status = 200, description = "The completion record, as sent to the webhooks", body = BulkCompletionRequest),
        (status = 404, description = "No such job for this caller", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "`state_conflict`: the job has not finished", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_completion(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Json<BulkCompletionRequest>> {
    let job = job_of(&state, &auth, &id).await?;
    Ok(Json(service::completion_of(&state.services, &job).await?.into()))
}

#[utoipa::path(
    get,
    path = "/api/v1/bulk-jobs/{jobId}/report",
    operation_id = "getBulkReport",
    tag = "bulk",
    security(("bearer" = [])),
    params(("jobId" = String, Path, description = "The job's id (`job_…`)")),
    responses(
        (status = 200, description = "Each item's outcome: `item,input,state,result,detail` (CSV, streamed)", content_type = "text/csv", body = String),
        (status = 404, description = "No such job for this caller", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_report(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Response> {
    let job = job_of(&state, &auth, &id).await?;
    Ok(report_response(state, job))
}

/// How often the event stream looks at the job.
const EVENT_POLL: Duration = Duration::from_millis(250);
/// The longest one event stream stays open (a client reconnects for more).
const MAX_STREAM: Duration = Duration::from_secs(3600);

#[utoipa::path(
    get,
    path = "/api/v1/bulk-jobs/{jobId}/events",
    operation_id = "streamBulkJob",
    tag = "bulk",
    security(("bearer" = [])),
    params(("jobId" = String, Path, description = "The job's id (`job_…`)")),
    responses(
        (status = 200, description = "Server-sent events: `progress` (a `BulkJob`) whenever the counts change, then `done` (the final `BulkJob`) and the stream ends", content_type = "text/event-stream", body = String),
        (status = 404, description = "No such job for this caller", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn stream_events(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>>> {
    let job = job_of(&state, &auth, &id).await?;
    let until = tokio::time::Instant::now() + MAX_STREAM;
    let caller = auth.caller();
    let stream =
        futures_util::stream::unfold((state, job.public_id, None::<String>, false), move |(state, id, last, done)| {
            let caller = caller.clone();
            async move {
                if done || tokio::time::Instant::now() > until {
                    return None;
                }
                loop {
                    let status = match service::status_for(&state.services, &caller, &id).await {
                        Ok(status) => status,
                        Err(error) => {
                            let event = Event::default().event("error").data(error.to_string());
                            return Some((Ok(event), (state, id, last, true)));
                        }
                    };
                    let finished = status.is_finished();
                    let body = serde_json::to_string(&BulkJob::from(status)).unwrap_or_default();
                    if finished {
                        return Some((Ok(Event::default().event("done").data(body)), (state, id, None, true)));
                    }
                    if last.as_deref() != Some(body.as_str()) {
                        let event = Event::default().event("progress").data(body.clone());
                        return Some((Ok(event), (state, id, Some(body), false)));
                    }
                    tokio::time::sleep(EVENT_POLL).await;
                }
            }
        });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
