//! Exports (docs/exports.md): the tenant's workflows, signatories, audit events or users as
//! CSV, XLSX or JSON Lines with the spec's `ExportRequest`. Small exports stream straight back;
//! large ones answer 202 with an export job whose file is fetched when it is done.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use signet_services::exports::{self as service, Dataset, ExportInput, ExportJobStatus, Started};
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};
use signet_http::files::{file_response, stream_response};

/// The spec's `ExportRequest`: which rows, in which format.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ExportRequest {
    /// `csv`, `xlsx` or `jsonl` (any case).
    #[schema(min_length = 1, max_length = 10)]
    pub format: String,
    /// Rows created (events: that occurred) at or after this time.
    #[schema(format = DateTime)]
    pub from_date: Option<String>,
    /// Rows created (events: that occurred) at or before this time; not before `fromDate`.
    #[schema(format = DateTime)]
    pub to_date: Option<String>,
    /// At most this many rows (the first by id); all, up to 1,000,000, when absent.
    #[schema(minimum = 1, maximum = 1_000_000, format = Int32)]
    pub max_records: Option<i64>,
    /// `key=value` conditions separated by `;`, e.g. `status=completed;createdBy=user:3`; the
    /// keys of each dataset are in docs/exports.md.
    #[schema(max_length = 1000)]
    pub filter_criteria: Option<String>,
}

/// An export job: a large export written in the background.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportJob {
    pub export_id: String,
    /// `workflows`, `signatories`, `audit-events` or `users`.
    pub dataset: String,
    /// `csv`, `xlsx` or `jsonl`.
    pub format: String,
    /// `queued`, `running`, `completed` or `failed`.
    pub status: String,
    /// Rows counted when asked for; while running, rows written so far; once completed, the
    /// rows of the file.
    pub rows: i64,
    pub size_bytes: Option<i64>,
    pub error: Option<String>,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub status_url: String,
    /// Where the file is, once completed.
    pub file_url: Option<String>,
}

impl From<ExportJobStatus> for ExportJob {
    fn from(s: ExportJobStatus) -> Self {
        ExportJob {
            export_id: s.export_id,
            dataset: s.dataset,
            format: s.format,
            status: s.status,
            rows: s.rows,
            size_bytes: s.size_bytes,
            error: s.error,
            created_at: s.created_at,
            started_at: s.started_at,
            finished_at: s.finished_at,
            status_url: s.status_url,
            file_url: s.file_url,
        }
    }
}

/// `Prefer: respond-async` (RFC 7240) asks for a job whatever the size.
fn prefers_job(headers: &HeaderMap) -> bool {
    headers
        .get_all("prefer")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|p| p.trim().eq_ignore_ascii_case("respond-async"))
}

async fn export(
    state: AppState,
    auth: Auth,
    headers: HeaderMap,
    dataset: Dataset,
    body: ExportRequest,
) -> ApiResult<Response> {
    let input = ExportInput {
        format: body.format,
        from_date: body.from_date,
        to_date: body.to_date,
        max_records: body.max_records,
        filter_criteria: body.filter_criteria,
    };
    match service::start(&state.services, &auth.caller(), dataset, &input, prefers_job(&headers)).await? {
        Started::Stream { stream, file_name } => Ok(stream_response(stream, &file_name)),
        Started::Job(status) => Ok((StatusCode::ACCEPTED, Json(ExportJob::from(status))).into_response()),
    }
}

/// The answers every export operation shares (utoipa needs them spelled per operation).
macro_rules! export_operation {
    ($name:ident, $path:literal, $id:literal, $dataset:expr, $what:literal) => {
        #[utoipa::path(
            post,
            path = $path,
            operation_id = $id,
            tag = "exports",
            description = $what,
            security(("bearer" = [])),
            request_body = ExportRequest,
            responses(
                (status = 200, description = "Up to 10,000 rows: the file, streamed", content(
                    (String = "text/csv"),
                    (String = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
                    (String = "application/x-ndjson"),
                )),
                (status = 202, description = "More rows, or `Prefer: respond-async`: an export job; fetch its file when it is completed", body = ExportJob),
                (status = 400, description = "A bad format, date, range, maxRecords or filter (the field is named)", body = ProblemDetails, content_type = "application/problem+json"),
            )
        )]
        pub async fn $name(
            State(state): State<AppState>,
            auth: Auth,
            headers: HeaderMap,
            ApiJson(body): ApiJson<ExportRequest>,
        ) -> ApiResult<Response> {
            export(state, auth, headers, $dataset, body).await
        }
    };
}

export_operation!(
    export_workflows,
    "/api/v1/exports/workflows",
    "exportWorkflows",
    Dataset::Workflows,
    "The tenant's workflows created in the range (`read_workflows`)."
);
export_operation!(
    export_signatories,
    "/api/v1/exports/signatories",
    "exportSignatories",
    Dataset::Signatories,
    "The signatories of the tenant's workflows, added in the range (`read_workflows`)."
);
export_operation!(
    export_audit_events,
    "/api/v1/exports/audit-events",
    "exportAuditEvents",
    Dataset::AuditEvents,
    "The tenant's audit events that occurred in the range, with their chain hashes (`read_audit`)."
);
export_operation!(
    export_users,
    "/api/v1/exports/users",
    "exportUsers",
    Dataset::Users,
    "The tenant's users created in the range, without credentials of any kind (`read_directory`)."
);

async fn job_of(state: &AppState, auth: &Auth, id: &str) -> ApiResult<signet_services::records::ExportJobRow> {
    Ok(service::job_for(&state.services, &auth.caller(), id, |permission| auth.access.allows(permission)).await?)
}

#[utoipa::path(
    get,
    path = "/api/v1/exports/jobs/{exportId}",
    operation_id = "getExportJob",
    tag = "exports",
    security(("bearer" = [])),
    params(("exportId" = String, Path, description = "The export's id (`exp_…`)")),
    responses(
        (status = 200, description = "The export job", body = ExportJob),
        (status = 404, description = "No such export for this caller", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_job(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Json<ExportJob>> {
    let job = job_of(&state, &auth, &id).await?;
    Ok(Json(service::status(&state.services, &job).into()))
}

#[utoipa::path(
    get,
    path = "/api/v1/exports/jobs/{exportId}/file",
    operation_id = "getExportFile",
    tag = "exports",
    security(("bearer" = [])),
    params(("exportId" = String, Path, description = "The export's id (`exp_…`)")),
    responses(
        (status = 200, description = "The file, streamed", content(
            (String = "text/csv"),
            (String = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            (String = "application/x-ndjson"),
        )),
        (status = 404, description = "No such export for this caller", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "`state_conflict`: the export is not completed (still running, or failed)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_file(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<String>) -> ApiResult<Response> {
    let job = job_of(&state, &auth, &id).await?;
    Ok(file_response(service::file(&state.services, &job).await?))
}
