//! Assembles the service: configuration -> store, blob store, keys -> router -> listener.
//! `main` and the tests build it the same way.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use signet_blob::BlobStore;
use signet_domain::Error;
use signet_services::Services;
use signet_store::{PoolSettings, Store};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::set_header::SetResponseHeaderLayer;

pub use signet_http::AppState;
use signet_http::auth::jwt::JwtKeys;
use signet_http::error::{ApiError, HttpCode};
use signet_services::platform::config::Config;

use crate::{observe, ops, workers};

pub struct App {
    pub state: AppState,
    /// The composition root's own handle on the database: for the workers' job queue, for
    /// closing it at shutdown, and for tests that set up or inspect rows. The faces reach the
    /// data only through the services.
    pub store: Store,
    router: Router,
    listener: TcpListener,
}

/// Opens the database named by the configuration and brings its schema up to date.
pub async fn open_store(config: &Config) -> anyhow::Result<Store> {
    if config.database_url.is_none() {
        std::fs::create_dir_all(&config.data_dir)?;
    }
    let url = config.database_url();
    // On PostgreSQL one connection stays with the listener for principal changes.
    let listener = u32::from(url.starts_with("postgres"));
    let max_connections = config.db_max_connections.max(1).saturating_add(listener);
    let settings = PoolSettings { max_connections, ..PoolSettings::default() };
    let store = Store::connect(&url, &settings).await?;
    store.migrate().await?;
    Ok(store)
}

async fn route_not_found() -> Response {
    ApiError::new(HttpCode::RouteNotFound, "no operation at this address").into_response()
}

async fn method_not_allowed() -> Response {
    ApiError::new(HttpCode::MethodNotAllowed, "this address does not accept this method").into_response()
}

fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::from(Error::internal("a handler panicked")).into_response()
}

/// Addresses served outside the OpenAPI document: the document itself, its viewer
/// ([`signet_api::undocumented_routes`]), the operations endpoints ([`ops_routes`]) and the
/// gateway's status query, which sits under `/api/` but is the gateway's own protocol
/// (`signet_web::signer::gateway::public_routes`, docs/gateway.md). Every other API route is
/// registered through `signet_api::openapi::api_router`, so it is documented by construction;
/// a test holds this list to that rule. The other gateway and page addresses come from
/// `signet_web::router`.
pub const UNDOCUMENTED_ROUTES: [&str; 7] = [
    "/api/v1/openapi.json",
    "/api/docs",
    signet_api::docs::DOCS_SCRIPT_PATH,
    "/healthz",
    "/readyz",
    "/metrics",
    "/api/TransactionStatusRequest",
];

/// Liveness, readiness and metrics.
fn ops_routes() -> Router<Services> {
    Router::new()
        .route("/healthz", get(ops::healthz))
        .route("/readyz", get(ops::readyz))
        .route("/metrics", get(ops::metrics))
}

/// The full router: the API (documented operations, its document and viewer), the pages,
/// the operations endpoints, with errors as ProblemDetails.
pub fn router(state: AppState) -> Router {
    let segment = state.services.config.gateway_segment.clone();
    let api = signet_api::router(state.clone());
    let pages = signet_web::router(&segment, &state.services).with_state(Services::clone(&state.services));
    let ops = ops_routes().with_state(Services::clone(&state.services));
    let console = signet_web::console::router(state.clone());
    api.merge(pages)
        .merge(console)
        .merge(ops)
        .fallback(route_not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(state.services.config.max_body_bytes))
        .layer(axum::middleware::from_fn(observe::middleware))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(SetResponseHeaderLayer::overriding(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
}

impl App {
    /// Prepares everything and binds the listener; nothing is served until [`App::run`].
    pub async fn build(config: Config) -> anyhow::Result<App> {
        let segment_ok = !config.gateway_segment.is_empty()
            && config.gateway_segment.len() <= 64
            && config.gateway_segment.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            && config.gateway_segment != "api";
        anyhow::ensure!(segment_ok, "gateway_segment must be 1-64 letters, digits, '-' or '_' (and not 'api')");
        let _ = observe::prometheus();
        let store = open_store(&config).await?;
        store.cache_principals(Duration::from_millis(config.auth_cache_ms));
        store.link_audit_in_background();
        let blob = BlobStore::from_url(&config.blob_url(), &config.data_dir)?;
        let listener = TcpListener::bind(&config.listen).await?;
        let mut config = config;
        if config.public_url.is_none() {
            // Port 0 becomes a real port only now; links must carry the real one.
            config.public_url = Some(format!("http://{}", listener.local_addr()?));
        }
        let services = Services::assemble(config, store.clone(), blob).await?;
        // The API's doors and the pages count one address against the same allowance.
        let ip_limiter = services.doors.auth.clone();
        let c = &services.config;
        let jwt = Arc::new(JwtKeys::load(&services, &c.issuer, &c.audience, c.access_token_ttl_secs).await?);
        let state = AppState { services: Arc::new(services), jwt, ip_limiter };
        let router = router(state.clone());
        Ok(App { state, store, router, listener })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` completes, with the background workers in the same process.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let (stop_tx, stop_rx) = watch::channel(false);
        let worker = if self.state.services.config.workers {
            let poll = Duration::from_millis(self.state.services.config.worker_poll_ms.max(50));
            let services = Services::clone(&self.state.services);
            Some(tokio::spawn(workers::run(services, self.store.clone(), poll, stop_rx.clone())))
        } else {
            None
        };
        let services = self.state.services.clone();
        tokio::spawn(async move { services.issue_missing_seals().await });
        let services = self.state.services.clone();
        tokio::spawn(async move { services.seal_objects_in_clear().await });
        if let Some(esign) = self.state.services.esign.clone() {
            tokio::spawn(signet_services::esign::failover::probe_until(esign, stop_rx.clone()));
        }
        let service = self.router.into_make_service_with_connect_info::<SocketAddr>();
        axum::serve(self.listener, service)
            .with_graceful_shutdown(async move {
                shutdown.await;
                let _ = stop_tx.send(true);
            })
            .await?;
        if let Some(worker) = worker {
            let _ = worker.await;
        }
        self.store.close().await;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_undocumented_list_names_every_route_served_outside_the_document() {
        let segment = "eMsecure";
        let api = signet_api::undocumented_routes().into_iter().map(|(path, _)| path);
        let gateway = signet_web::signer::gateway::public_routes(segment).into_iter().map(|(path, _)| path);
        let mut served: Vec<String> =
            api.chain(gateway).filter(|path| !path.starts_with(&format!("/{segment}/"))).collect();
        served.extend(["/healthz", "/readyz", "/metrics"].map(String::from));
        served.sort();
        let mut listed: Vec<String> = UNDOCUMENTED_ROUTES.iter().map(|p| p.to_string()).collect();
        listed.sort();
        assert_eq!(served, listed);
    }
}
