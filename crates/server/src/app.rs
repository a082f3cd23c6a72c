//! Assembles the service: configuration -> store, blob store, keys -> router -> listener.
//! `main` and the tests build it the same way.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use signet_blob::BlobStore;
use signet_domain::ErrorCode;
use signet_store::{PoolSettings, Store};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::auth::jwt::JwtKeys;
use crate::auth::ratelimit::IpRateLimiter;
use crate::config::Config;
use crate::error::ApiError;
use crate::keys::PlatformKeys;
use crate::routes::{gateway_public, ops};
use crate::{observe, openapi, workers};

#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub blob: BlobStore,
    pub config: Arc<Config>,
    pub jwt: Arc<JwtKeys>,
    pub ip_limiter: Arc<IpRateLimiter>,
    pub keys: Arc<PlatformKeys>,
    pub gateway_key: Arc<signet_gateway::GatewayKey>,
    /// The platform's document-sealing key, loaded once (the keys for signer links and
    /// profiles derive from it; documents are sealed with the tenant's own key, `seals`).
    pub seal: Arc<signet_signing::LocalKeySigner>,
    /// Each tenant's sealing certificate and key.
    pub seals: Arc<crate::seals::TenantSeals>,
    /// Admission to the gateway (submissions per address, legacy envelope in use).
    pub intake: Arc<crate::gateway::intake::Intake>,
    /// Blocking threads for parsing, checking and sealing uploaded files, bounded.
    pub heavy: Arc<crate::heavy::HeavyPool>,
    /// The key behind workflow signers' links.
    pub link_key: Arc<crate::workflows::links::LinkKey>,
    /// The key that seals automated-signing profiles.
    pub profile_key: Arc<crate::workflows::profiles::ProfileKey>,
    pub mailer: Arc<crate::mail::Mailer>,
}

pub struct App {
    pub state: AppState,
    router: Router,
    listener: TcpListener,
}

/// Opens the database named by the configuration and brings its schema up to date.
pub async fn open_store(config: &Config) -> anyhow::Result<Store> {
    if config.database_url.is_none() {
        std::fs::create_dir_all(&config.data_dir)?;
    }
    let settings = PoolSettings { max_connections: config.db_max_connections, ..PoolSettings::default() };
    let store = Store::connect(&config.database_url(), &settings).await?;
    store.migrate().await?;
    Ok(store)
}

fn problem(code: ErrorCode, detail: &str) -> Response {
    ApiError::new(code, detail.to_string()).into_response()
}

async fn route_not_found() -> Response {
    problem(ErrorCode::RouteNotFound, "no operation at this address")
}

async fn method_not_allowed() -> Response {
    problem(ErrorCode::MethodNotAllowed, "this address does not accept this method")
}

fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    tracing::error!("a handler panicked");
    problem(ErrorCode::Internal, "internal error")
}

/// Addresses served outside the OpenAPI document: the document itself, its viewer and the
/// operations endpoints. Every other route is registered through [`openapi::api_router`], so
/// it is documented by construction; a test holds this list to that rule.
/// The gateway's wire-compatible addresses (its own protocol, documented in docs/gateway.md)
/// are added under the configured segment by [`gateway_routes`].
pub const UNDOCUMENTED_ROUTES: [&str; 7] = [
    "/api/v1/openapi.json",
    "/api/docs",
    DOCS_SCRIPT_PATH,
    "/healthz",
    "/readyz",
    "/metrics",
    "/api/TransactionStatusRequest",
];

/// The API reference viewer (Scalar's standalone bundle, `@scalar/api-reference` 1.46.4 from
/// npm, MIT licence beside it), served by Signet itself so `/api/docs` works offline.
const DOCS_SCRIPT_PATH: &str = "/api/docs/assets/scalar.js";
const DOCS_SCRIPT: &str = include_str!("../static/scalar-api-reference-1.46.4.js");

/// The docs page: the viewer reads the document from `/api/v1/openapi.json`; default fonts
/// (fetched from Scalar's servers) and the hosted-client button are off.
const DOCS_HTML: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Signet API</title>
</head>
<body>
<script id="api-reference" data-url="/api/v1/openapi.json" data-configuration='{"withDefaultFonts":false,"hideClientButton":true}'></script>
<script src="/api/docs/assets/scalar.js"></script>
</body>
</html>
"#;

/// Only this origin: the viewer's script, its injected styles, the document it fetches.
const DOCS_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
    img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

fn undocumented_route(path: &str) -> Option<MethodRouter<AppState>> {
    let json = Arc::new(openapi::document_json());
    let route = match path {
        "/api/v1/openapi.json" => get(move || {
            let json = json.clone();
            async move { ([(header::CONTENT_TYPE, "application/json")], json.as_str().to_owned()) }
        }),
        "/api/docs" => get(|| async {
            ([(header::CONTENT_SECURITY_POLICY, DOCS_CSP), (header::REFERRER_POLICY, "no-referrer")], Html(DOCS_HTML))
        }),
        DOCS_SCRIPT_PATH => get(|| async {
            (
                [
                    (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
                    (header::CACHE_CONTROL, "public, max-age=86400"),
                ],
                DOCS_SCRIPT,
            )
        }),
        "/healthz" => get(ops::healthz),
        "/readyz" => get(ops::readyz),
        "/metrics" => get(ops::metrics),
        "/api/TransactionStatusRequest" => get(gateway_public::transaction_status),
        _ => return None,
    };
    Some(route)
}

/// The gateway's addresses under its path segment (default `eMsecure`).
pub fn gateway_routes(segment: &str) -> Vec<(String, MethodRouter<AppState>)> {
    use crate::gateway::{page, submit};
    use crate::workflows::page as workflow_page;
    vec![
        (format!("/{segment}/V3_0/Index"), post(submit)),
        (format!("/{segment}/certificate.cer"), get(gateway_public::certificate_der)),
        (format!("/{segment}/certificate.pem"), get(gateway_public::certificate_pem)),
        ("/sign/g/{number}/{secret}".to_string(), get(page::show)),
        ("/sign/g/{number}/{secret}/document".to_string(), get(page::document)),
        ("/sign/g/{number}/{secret}/pages/{page}".to_string(), get(page::page_image)),
        ("/sign/g/{number}/{secret}/sign".to_string(), post(page::sign)),
        ("/sign/g/{number}/{secret}/cancel".to_string(), post(page::cancel)),
        ("/sign/w/{id}/{secret}".to_string(), get(workflow_page::show)),
        ("/sign/w/{id}/{secret}/documents/{document}".to_string(), get(workflow_page::document)),
        ("/sign/w/{id}/{secret}/documents/{document}/pages/{page}".to_string(), get(workflow_page::page_image)),
        ("/sign/w/{id}/{secret}/viewed".to_string(), post(workflow_page::viewed)),
        ("/sign/w/{id}/{secret}/sign".to_string(), post(workflow_page::sign)),
        ("/sign/w/{id}/{secret}/decline".to_string(), post(workflow_page::decline)),
        ("/sign/w/{id}/{secret}/delegate".to_string(), post(workflow_page::delegate)),
        ("/sign/w/{id}/{secret}/comment".to_string(), post(workflow_page::comment)),
        ("/sign/w/{id}/{secret}/attachment".to_string(), post(workflow_page::attachment)),
        ("/static/sign.js".to_string(), get(static_js)),
        ("/static/sign.css".to_string(), get(static_css)),
    ]
}

async fn static_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../static/sign.js"))
}

async fn static_css() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("../static/sign.css"))
}

/// The full router: documented API, docs, operations, with errors as ProblemDetails.
pub fn router(state: AppState) -> Router {
    let (mut router, _) = openapi::api_router().split_for_parts();
    for (path, route) in gateway_routes(&state.config.gateway_segment) {
        router = router.route(&path, route);
    }
    for path in UNDOCUMENTED_ROUTES {
        if let Some(route) = undocumented_route(path) {
            router = router.route(path, route);
        }
    }
    router
        .fallback(route_not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(axum::middleware::from_fn(observe::middleware))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(SetResponseHeaderLayer::overriding(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .with_state(state)
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
        let blob = BlobStore::from_url(&config.blob_url(), &config.data_dir)?;
        let keys = PlatformKeys::load_or_create(&store, &config.data_dir, config.gateway_key_bits).await?;
        let gateway_key = signet_gateway::GatewayKey::from_pkcs8_der(&keys.gateway.key_pkcs8_der)
            .and_then(|key| key.with_certificate(&keys.gateway.cert_der))
            .map_err(|e| anyhow::anyhow!("gateway key: {e}"))?;
        let seal = signet_signing::LocalKeySigner::from_pkcs8(
            &keys.seal.key_pkcs8_der,
            &keys.seal.cert_der,
            vec![keys.ca.cert_der.clone()],
        )
        .map_err(|e| anyhow::anyhow!("document-sealing key: {e}"))?;
        let jwt = JwtKeys::load(&store, &config.issuer, &config.audience, config.access_token_ttl_secs).await?;
        let listener = TcpListener::bind(&config.listen).await?;
        let mut config = config;
        if config.public_url.is_none() {
            // Port 0 becomes a real port only now; links must carry the real one.
            config.public_url = Some(format!("http://{}", listener.local_addr()?));
        }
        let link_key = crate::workflows::links::LinkKey::derive(&keys.seal.key_pkcs8_der);
        let profile_key =
            crate::workflows::profiles::ProfileKey::derive(&keys.seal.key_pkcs8_der).map_err(|e| anyhow::anyhow!(e))?;
        let mailer = crate::mail::Mailer::from_config(config.smtp_url.as_deref(), &config.mail_from)?;
        let state = AppState {
            store,
            blob,
            ip_limiter: Arc::new(IpRateLimiter::per_minute(config.auth_rate_limit_per_minute)),
            jwt: Arc::new(jwt),
            keys: Arc::new(keys.clone()),
            gateway_key: Arc::new(gateway_key),
            seal: Arc::new(seal),
            seals: Arc::new(crate::seals::TenantSeals::new(keys.ca.clone())),
            heavy: Arc::new(crate::heavy::HeavyPool::new(config.heavy_work_limit)),
            intake: Arc::new(crate::gateway::intake::Intake::new(config.gateway_submissions_per_address)),
            link_key: Arc::new(link_key),
            profile_key: Arc::new(profile_key),
            mailer: Arc::new(mailer),
            config: Arc::new(config),
        };
        let router = router(state.clone());
        Ok(App { state, router, listener })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` completes, with the background workers in the same process.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let (stop_tx, stop_rx) = watch::channel(false);
        let worker = if self.state.config.workers {
            let poll = Duration::from_millis(self.state.config.worker_poll_ms.max(50));
            Some(tokio::spawn(workers::run(self.state.clone(), poll, stop_rx.clone())))
        } else {
            None
        };
        tokio::spawn(issue_missing_seals(self.state.clone()));
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
        self.state.store.close().await;
        Ok(())
    }
}

/// Installations from before per-tenant seals get their tenants' certificates at start-up
/// (a tenant's first seal would issue it anyway; this keeps that first signature fast).
async fn issue_missing_seals(state: AppState) {
    match state.seals.issue_missing(&state.store).await {
        Ok(0) => {}
        Ok(issued) => tracing::info!(issued, "issued sealing certificates for existing tenants"),
        Err(error) => tracing::warn!(%error, "could not issue the sealing certificates of existing tenants"),
    }
}
