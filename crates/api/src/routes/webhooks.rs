//! Webhook endpoints of a tenant: register (the signing secret is shown once), list, delete,
//! see deliveries with their attempts, redeliver one, resume one the circuit breaker paused. Deliveries follow Standard Webhooks (docs/api.md).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::{DeliveryId, WebhookId};
use signet_services::integrations::webhooks;
use signet_services::records::{DeliveryAttemptRow, DeliveryRow, WebhookRow};
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateWebhookRequest {
    /// Where events are POSTed: an absolute http(s) URL on a public address, at most 2000
    /// characters.
    #[schema(
        max_length = 2000,
        pattern = "^https?://[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+$"
    )]
    pub url: String,
    /// Event types to receive, or `["*"]` for all.
    #[schema(schema_with = crate::routes::schemas::webhook_event_types)]
    pub event_types: Vec<String>,
    #[schema(max_length = 500)]
    pub description: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Webhook {
    pub webhook_id: i64,
    pub url: String,
    pub event_types: Vec<String>,
    pub description: Option<String>,
    pub created_at: i64,
    /// When the circuit breaker paused the endpoint after repeated failures (its deliveries
    /// wait; see `resumeWebhook`); absent while it is delivering.
    pub paused_at: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedWebhook {
    #[serde(flatten)]
    pub webhook: Webhook,
    /// The signing secret (`whsec_…`) for verifying `webhook-signature`; shown only now.
    pub secret: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDelivery {
    pub delivery_id: i64,
    /// The `webhook-id` header, the same on every attempt.
    pub message_id: String,
    pub event_type: String,
    /// pending, succeeded or failed.
    pub state: String,
    pub attempts: i64,
    pub last_status: Option<i64>,
    pub last_error: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    /// Every attempt at this delivery, oldest first (failed attempts are retried 15 times
    /// over a day and more: docs/api.md).
    pub attempt_log: Vec<WebhookDeliveryAttempt>,
}

/// One attempt at a delivery.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDeliveryAttempt {
    /// When the attempt was made (milliseconds since the epoch).
    pub attempted_at: i64,
    /// The endpoint's HTTP status; absent when it could not be reached.
    pub status: Option<i64>,
    /// Why the attempt failed; absent when it succeeded.
    pub error: Option<String>,
    /// How long the endpoint took to answer, in milliseconds.
    pub duration_ms: i64,
}

fn view(row: WebhookRow) -> Webhook {
    Webhook {
        webhook_id: row.id.get(),
        url: row.url,
        event_types: row.event_types.split(',').map(str::to_string).collect(),
        description: row.description,
        created_at: row.created_at,
        paused_at: row.paused_at,
    }
}

fn attempt_view(row: DeliveryAttemptRow) -> WebhookDeliveryAttempt {
    WebhookDeliveryAttempt {
        attempted_at: row.attempted_at,
        status: row.status,
        error: row.error,
        duration_ms: row.duration_ms,
    }
}

fn delivery_view((row, attempts): (DeliveryRow, Vec<DeliveryAttemptRow>)) -> WebhookDelivery {
    WebhookDelivery {
        delivery_id: row.id.get(),
        message_id: row.message_id,
        event_type: row.event_type,
        state: row.state,
        attempts: row.attempts,
        last_status: row.last_status,
        last_error: row.last_error,
        created_at: row.created_at,
        updated_at: row.updated_at,
        attempt_log: attempts.into_iter().map(attempt_view).collect(),
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/webhooks",
    operation_id = "createWebhook",
    tag = "webhooks",
    security(("bearer" = [])),
    request_body = CreateWebhookRequest,
    responses(
        (status = 201, description = "Registered; the secret is shown once", body = CreatedWebhook),
        (status = 400, description = "Invalid URL (not http(s), or a private address) or event types", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CreateWebhookRequest>,
) -> ApiResult<(StatusCode, Json<CreatedWebhook>)> {
    let (row, secret) = webhooks::create_endpoint(
        &state.services,
        &auth.caller(),
        &body.url,
        body.description.as_deref(),
        &body.event_types,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(CreatedWebhook { webhook: view(row), secret })))
}

#[utoipa::path(
    get,
    path = "/api/v1/webhooks",
    operation_id = "listWebhooks",
    tag = "webhooks",
    security(("bearer" = [])),
    responses((status = 200, description = "The tenant's endpoints", body = Vec<Webhook>))
)]
pub async fn list(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Vec<Webhook>>> {
    Ok(Json(webhooks::endpoints(&state.services, &auth.caller()).await?.into_iter().map(view).collect()))
}

#[utoipa::path(
    delete,
    path = "/api/v1/webhooks/{webhookId}",
    operation_id = "deleteWebhook",
    tag = "webhooks",
    security(("bearer" = [])),
    params(("webhookId" = i64, Path, description = "Webhook id", minimum = 1)),
    responses(
        (status = 204, description = "Deleted; nothing more is sent to it"),
        (status = 404, description = "No such webhook in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn delete(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<StatusCode> {
    webhooks::delete_endpoint(&state.services, &auth.caller(), WebhookId::from(id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/webhooks/{webhookId}/resume",
    operation_id = "resumeWebhook",
    tag = "webhooks",
    security(("bearer" = [])),
    params(("webhookId" = i64, Path, description = "Webhook id", minimum = 1)),
    responses(
        (status = 204, description = "Delivering again; the deliveries that waited are sent (nothing changes for an endpoint that was not paused)"),
        (status = 404, description = "No such webhook in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn resume(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<StatusCode> {
    webhooks::resume_endpoint(&state.services, &auth.caller(), WebhookId::from(id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    get,
    path = "/api/v1/webhooks/{webhookId}/deliveries",
    tag = "webhooks",
    security(("bearer" = [])),
    params(("webhookId" = i64, Path, description = "Webhook id", minimum = 1)),
    responses(
        (status = 200, description = "The latest 100 deliveries, newest first, each with its attempts", body = Vec<WebhookDelivery>),
        (status = 404, description = "No such webhook in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn deliveries(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<Json<Vec<WebhookDelivery>>> {
    let rows = webhooks::deliveries(&state.services, &auth.caller(), WebhookId::from(id)).await?;
    Ok(Json(rows.into_iter().map(delivery_view).collect()))
}

#[utoipa::path(
    post,
    path = "/api/v1/webhooks/deliveries/{deliveryId}/redeliver",
    tag = "webhooks",
    security(("bearer" = [])),
    params(("deliveryId" = i64, Path, description = "Delivery id", minimum = 1)),
    responses(
        (status = 202, description = "Queued again, with the same message id"),
        (status = 404, description = "No such delivery in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The delivery is still being attempted", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn redeliver(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<StatusCode> {
    webhooks::redeliver(&state.services, &auth.caller(), DeliveryId::from(id)).await?;
    Ok(StatusCode::ACCEPTED)
}
