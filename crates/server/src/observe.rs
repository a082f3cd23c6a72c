//! Request ids, structured request logs and Prometheus metrics, in one middleware.

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
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
        .unwrap_or_else(|| crate::secrets::random_token(12))
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

/// The process-wide Prometheus recorder (installed once, shared by every app in the process).
pub fn prometheus() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let buckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0];
            PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Full("http_request_duration_seconds".into()), &buckets)
                .ok()?
                .install_recorder()
                .ok()
        })
        .as_ref()
}

/// Sets up logging once per process: human-readable text or JSON lines.
pub fn init_logging(format: crate::config::LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("SIGNET_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        crate::config::LogFormat::Json => builder.json().try_init(),
        crate::config::LogFormat::Text => builder.try_init(),
    };
}
