//! Process-wide observability: the Prometheus recorder and the log subscriber. The request
//! middleware (request ids, request logs and metrics) is `signet_http::observe`.

use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

pub use signet_http::observe::{RequestContext, current, middleware};

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
pub fn init_logging(format: signet_services::platform::config::LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("SIGNET_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        signet_services::platform::config::LogFormat::Json => builder.json().try_init(),
        signet_services::platform::config::LogFormat::Text => builder.try_init(),
    };
}
