//! Operations endpoints: liveness, readiness and metrics. Not part of the API document.

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde_json::json;
use signet_domain::{Error, ErrorCode};

use signet_http::error::{ApiError, ApiResult};
use signet_services::Services;

pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({"status": "ok"}))
}

/// How long each readiness check may take: a database or S3 server that accepts connections
/// and then hangs makes the instance not ready within this time instead of hanging the probe
/// (a load balancer's check time-out is typically a few seconds).
const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// Ready when the database and the blob store answer, each within [`CHECK_TIMEOUT`].
pub async fn readyz(State(state): State<Services>) -> ApiResult<Json<serde_json::Value>> {
    let unavailable = |what: &str| ApiError::from(Error::rejected(ErrorCode::ServiceUnavailable, what));
    match tokio::time::timeout(CHECK_TIMEOUT, state.ping_store()).await {
        Ok(Ok(())) => {}
        _ => return Err(unavailable("the database is not reachable")),
    }
    match tokio::time::timeout(CHECK_TIMEOUT, state.blob.check()).await {
        Ok(Ok(())) => {}
        _ => return Err(unavailable("the blob store is not reachable")),
    }
    Ok(Json(json!({"status": "ready"})))
}

pub async fn metrics() -> impl IntoResponse {
    match crate::observe::prometheus() {
        Some(handle) => {
            (StatusCode::OK, [(header::CONTENT_TYPE, "text/plain; version=0.0.4")], handle.render()).into_response()
        }
        None => {
            ApiError::from(Error::rejected(ErrorCode::ServiceUnavailable, "metrics are not available")).into_response()
        }
    }
}
