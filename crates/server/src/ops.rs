//! Operations endpoints: liveness, readiness and metrics. Not part of the API document.

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

/// Ready when the database and the blob store answer.
pub async fn readyz(State(state): State<Services>) -> ApiResult<Json<serde_json::Value>> {
    state
        .ping_store()
        .await
        .map_err(|_| ApiError::from(Error::rejected(ErrorCode::ServiceUnavailable, "the database is not reachable")))?;
    state.blob.check().await.map_err(|_| {
        ApiError::from(Error::rejected(ErrorCode::ServiceUnavailable, "the blob store is not reachable"))
    })?;
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
