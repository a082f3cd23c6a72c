//! Privacy: the organisation's retention periods (and its templates'), legal holds on
//! workflows, and a person's erasure request. The rules: `signet_domain::retention`; the
//! use cases: `signet_services::privacy`; what erasure leaves (a sealed tombstone in the audit
//! chain): docs/privacy.md.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::retention::{KeptBecause, RetentionPeriods};
use signet_domain::{TemplateId, WorkflowId};
use signet_services::privacy::{erasure, retention};
use signet_services::records::{HoldRow, RetentionPolicies};
use utoipa::{IntoParams, ToSchema};

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath, ApiQuery};

/// Periods in days after a workflow ended before the daily sweep erases it (documents,
/// attachments, events, signatories' personal fields), leaving a sealed tombstone in the audit
/// chain. Absent (or null): kept until erased on request; 0: erased at the next sweep. A period
/// is also a floor: an erasure request does not take a record inside it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RetentionSettings {
    #[schema(minimum = 0, maximum = 36500)]
    pub completed_days: Option<u32>,
    #[schema(minimum = 0, maximum = 36500)]
    pub declined_days: Option<u32>,
    #[schema(minimum = 0, maximum = 36500)]
    pub expired_days: Option<u32>,
    /// Finished gateway transactions: their request, document and result are erased.
    #[schema(minimum = 0, maximum = 36500)]
    pub gateway_days: Option<u32>,
    /// Templates whose workflows keep other periods: each field set wins over the
    /// organisation's. At most 1000; a template named twice takes its last entry.
    #[serde(default)]
    #[schema(max_items = 1000)]
    pub templates: Vec<TemplateRetention>,
}

/// A template's own periods.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateRetention {
    pub template_id: i64,
    #[schema(minimum = 0, maximum = 36500)]
    pub completed_days: Option<u32>,
    #[schema(minimum = 0, maximum = 36500)]
    pub declined_days: Option<u32>,
    #[schema(minimum = 0, maximum = 36500)]
    pub expired_days: Option<u32>,
}

impl From<RetentionPolicies> for RetentionSettings {
    fn from(p: RetentionPolicies) -> Self {
        let o = p.organisation;
        RetentionSettings {
            completed_days: o.completed_days,
            declined_days: o.declined_days,
            expired_days: o.expired_days,
            gateway_days: o.gateway_days,
            templates: p
                .templates
                .into_iter()
                .map(|(id, t)| TemplateRetention {
                    template_id: id.get(),
                    completed_days: t.completed_days,
                    declined_days: t.declined_days,
                    expired_days: t.expired_days,
                })
                .collect(),
        }
    }
}

impl From<RetentionSettings> for RetentionPolicies {
    fn from(s: RetentionSettings) -> Self {
        RetentionPolicies {
            organisation: RetentionPeriods {
                completed_days: s.completed_days,
                declined_days: s.declined_days,
                expired_days: s.expired_days,
                gateway_days: s.gateway_days,
            },
            templates: s
                .templates
                .into_iter()
                .map(|t| {
                    let periods = RetentionPeriods {
                        completed_days: t.completed_days,
                        declined_days: t.declined_days,
                        expired_days: t.expired_days,
                        gateway_days: None,
                    };
                    (TemplateId::from(t.template_id), periods)
                })
                .collect(),
        }
    }
}

#[utoipa::path(
    get,
    path = "/api/v1/retention",
    operation_id = "getRetention",
    tag = "privacy",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The organisation's retention periods and its templates'", body = RetentionSettings),
        (status = 403, description = "The role may not manage settings", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_retention(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<RetentionSettings>> {
    Ok(Json(retention::policies(&state.services, &auth.caller()).await?.into()))
}

#[utoipa::path(
    put,
    path = "/api/v1/retention",
    operation_id = "putRetention",
    tag = "privacy",
    security(("bearer" = [])),
    request_body = RetentionSettings,
    responses(
        (status = 200, description = "Saved (the whole settings replace the previous ones)", body = RetentionSettings),
        (status = 400, description = "A period out of range, a template named twice", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 403, description = "The role may not manage settings", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "A template that is not the organisation's", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn put_retention(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<RetentionSettings>,
) -> ApiResult<Json<RetentionSettings>> {
    Ok(Json(retention::set_policies(&state.services, &auth.caller(), body.into()).await?.into()))
}

/// Why a workflow is held.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LegalHoldRequest {
    /// At least one character that is not a space.
    #[schema(min_length = 1, max_length = 500, pattern = r"\S")]
    pub reason: String,
}

/// A legal hold: neither the retention sweep nor an erasure request takes the workflow.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LegalHold {
    pub workflow_id: i64,
    pub reason: String,
    pub placed_by: String,
    /// Milliseconds since the Unix epoch.
    pub placed_at: i64,
}

impl From<HoldRow> for LegalHold {
    fn from(h: HoldRow) -> Self {
        LegalHold { workflow_id: h.workflow_id.get(), reason: h.reason, placed_by: h.placed_by, placed_at: h.placed_at }
    }
}

#[utoipa::path(
    put,
    path = "/api/v1/workflows/{workflowId}/hold",
    operation_id = "placeLegalHold",
    tag = "privacy",
    security(("bearer" = [])),
    params(("workflowId" = i64, Path, description = "The workflow")),
    request_body = LegalHoldRequest,
    responses(
        (status = 200, description = "Held (a second call changes the reason)", body = LegalHold),
        (status = 400, description = "No reason, or one over 500 characters", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 403, description = "The role may not manage settings", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such workflow", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn place_hold(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<LegalHoldRequest>,
) -> ApiResult<Json<LegalHold>> {
    let hold = retention::place_hold(&state.services, &auth.caller(), WorkflowId::from(id), &body.reason).await?;
    Ok(Json(hold.into()))
}

#[utoipa::path(
    delete,
    path = "/api/v1/workflows/{workflowId}/hold",
    operation_id = "releaseLegalHold",
    tag = "privacy",
    security(("bearer" = [])),
    params(("workflowId" = i64, Path, description = "The workflow")),
    responses(
        (status = 204, description = "Released"),
        (status = 403, description = "The role may not manage settings", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such workflow, or it is not held", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn release_hold(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<StatusCode> {
    retention::release_hold(&state.services, &auth.caller(), WorkflowId::from(id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct HoldListQuery {
    /// Holds of workflows after this id (the last one of the previous page).
    pub after_workflow_id: Option<i64>,
    /// 1 to 500; 100 when absent.
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
}

#[utoipa::path(
    get,
    path = "/api/v1/holds",
    operation_id = "listLegalHolds",
    tag = "privacy",
    security(("bearer" = [])),
    params(HoldListQuery),
    responses(
        (status = 200, description = "Legal holds by workflow id", body = Vec<LegalHold>),
        (status = 400, description = "A limit out of range", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 403, description = "The role may not manage settings", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn list_holds(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(query): ApiQuery<HoldListQuery>,
) -> ApiResult<Json<Vec<LegalHold>>> {
    let after = query.after_workflow_id.map(WorkflowId::from);
    let holds = retention::holds(&state.services, &auth.caller(), after, query.limit.unwrap_or(100)).await?;
    Ok(Json(holds.into_iter().map(LegalHold::from).collect()))
}

/// Whose data to erase: an e-mail address, a mobile number, or both (at least one; neither
/// may be null).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(min_properties = 1)]
pub struct ErasureRequest {
    #[serde(default, deserialize_with = "present")]
    #[schema(nullable = false, min_length = 1, max_length = 254, format = Email)]
    pub email: Option<String>,
    /// 7 to 15 digits, an optional leading `+`, single spaces or hyphens between digits; ten
    /// digits without a country code are an Indian mobile number (+91).
    #[serde(default, deserialize_with = "present")]
    #[schema(nullable = false, max_length = 20, pattern = r"^\+?[0-9](?:[ -]?[0-9]){6,14}$")]
    pub phone: Option<String>,
}

/// A field that may be absent but not null.
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    String::deserialize(deserializer).map(Some)
}

/// A workflow the request erased.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErasedRecord {
    pub workflow_id: i64,
    /// Its name before it was erased.
    pub workflow_name: String,
}

/// A workflow the request kept, why, and until when.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeptRecord {
    pub workflow_id: i64,
    pub workflow_name: String,
    /// `in_progress`: still being signed; `legal_hold`: under a hold; `retention`: inside
    /// its retention period.
    #[schema(value_type = String, example = "retention")]
    pub reason: KeptBecause,
    /// Until when (milliseconds since the Unix epoch); absent while the reason lasts.
    pub until: Option<i64>,
}

/// What an erasure request did.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErasureResult {
    pub erased: Vec<ErasedRecord>,
    pub kept: Vec<KeptRecord>,
    /// More than 200 workflows of the person: send the request again for the rest.
    pub more: bool,
}

#[utoipa::path(
    post,
    path = "/api/v1/privacy/erasure",
    operation_id = "requestErasure",
    tag = "privacy",
    security(("bearer" = [])),
    request_body = ErasureRequest,
    responses(
        (status = 200, description = "What was erased and what was kept, with why and until when", body = ErasureResult),
        (status = 400, description = "Neither an e-mail address nor a phone number, or one malformed", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 403, description = "The role may not manage settings", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn request_erasure(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<ErasureRequest>,
) -> ApiResult<Json<ErasureResult>> {
    let subject = erasure::Subject { email: body.email, phone: body.phone };
    let answer = erasure::request(&state.services, &auth.caller(), subject).await?;
    Ok(Json(ErasureResult {
        erased: answer
            .erased
            .into_iter()
            .map(|r| ErasedRecord { workflow_id: r.workflow_id.get(), workflow_name: r.name })
            .collect(),
        kept: answer
            .kept
            .into_iter()
            .map(|k| KeptRecord {
                workflow_id: k.record.workflow_id.get(),
                workflow_name: k.record.name,
                reason: k.because,
                until: k.until,
            })
            .collect(),
        more: answer.more,
    }))
}
