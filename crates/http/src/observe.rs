//! Request ids, structured request logs and request metrics, in one middleware that wraps
//! both the API and the pages (the server installs it); error bodies read the request id here.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

/// What handlers and error bodies need to know about the request being served.
#[derive(Debug, Clone, Default)]
pub struct RequestContext {
    pub request_id: String,
    pub path: String,
}

tokio::task_local! {
    static CONTEXT: RequestContext;
}

/// The context of the request this task serves (empty outside a request).
pub fn current() -> RequestContext {
    CONTEXT.try_with(Clone::clone).unwrap_or_default()
}

pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// A client-supplied id is kept when it is short and printable, so that callers can correlate;
/// otherwise a fresh one is made.
fn request_id(request: &Request) -> String {
    request
        .headers()
        .get(REQUEST_ID_HEADER)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_graphic()))
        .map(str::to_string)
        .unwrap_or_else(|| signet_services::platform::secrets::random_token(12))
}

pub async fn middleware(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = request_id(&request);
    let method = request.method().clone();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "unmatched".to_string());
    let context = RequestContext { request_id: id.clone(), path: request.uri().path().to_string() };
    let span = tracing::info_span!("request", request_id = %id, method = %method, route = %route);
    let mut response = CONTEXT.scope(context, next.run(request)).instrument(span.clone()).await;
    let status = response.status();
    let elapsed = started.elapsed();
    span.in_scope(|| {
        tracing::info!(status = status.as_u16(), latency_ms = elapsed.as_secs_f64() * 1000.0, "served");
    });
    let labels = [("method", method.to_string()), ("route", route), ("status", status.as_u16().to_string())];
    metrics::counter!("http_requests_total", &labels).increment(1);
    metrics::histogram!("http_request_duration_seconds", &labels[..2]).record(elapsed.as_secs_f64());
    if status.is_client_error() || status.is_server_error() {
        metrics::counter!("http_errors_total", &labels).increment(1);
    }
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID_HEADER, value);
    }
    response
}
