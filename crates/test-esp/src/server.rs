//! The ESP's HTTP server: routes, the body limit, start and stop (the state the handlers share
//! is in `state`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, bail};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::EspOptions;
use crate::keys;
use crate::ledger::Ledger;
use crate::pending::{Outbox, Transactions};
use crate::state::{Esp, MAX_BODY_BYTES, Shared, unix_now};
use crate::{files, flow, pages, revocation};

/// Most `txn` values remembered; a full record refuses new requests rather than forget.
const MAX_SEEN_TXNS: usize = 200_000;
/// Most issued certificates remembered for OCSP.
const MAX_ISSUED: usize = 200_000;
/// How long the OCSP responder remembers an issued certificate (they live 30 minutes; signed
/// documents are validated long after).
const ISSUED_RETENTION: Duration = Duration::from_secs(90 * 24 * 3600);
/// How long a stop waits for open connections before it drops them.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// A `txn` can only come back while its `ts` is within the window of the ESP's clock, that is
/// at most two windows after it was first seen: older records protect nothing. An hour more
/// covers a restart with a somewhat larger window.
fn txn_retention(window: Duration) -> Duration {
    window.saturating_mul(2).saturating_add(Duration::from_secs(3600))
}

fn check_options(options: &EspOptions) -> anyhow::Result<()> {
    if let Some(otp) = &options.fixed_otp
        && !(4..=8).contains(&otp.len())
    {
        bail!("the fixed OTP must have 4 to 8 digits");
    }
    if let Some(otp) = &options.fixed_otp
        && !otp.bytes().all(|b| b.is_ascii_digit())
    {
        bail!("the fixed OTP must be digits only");
    }
    if options.max_otp_attempts == 0 {
        bail!("max_otp_attempts must be at least 1");
    }
    if options.request_window.is_zero() || options.otp_ttl.is_zero() {
        bail!("the request window and the OTP lifetime must not be zero");
    }
    if let Some(url) = &options.public_url
        && !(url.starts_with("http://") || url.starts_with("https://"))
    {
        bail!("the public URL must start with http:// or https://");
    }
    Ok(())
}

impl Esp {
    fn open(options: EspOptions, public_url: String) -> anyhow::Result<Esp> {
        let dir = &options.data_dir;
        let keys = keys::load_or_create(dir)?;
        files::ensure_identities(dir)?;
        let now = unix_now();
        let seen_txns =
            Ledger::open(&dir.join("txns.jsonl"), txn_retention(options.request_window), MAX_SEEN_TXNS, now)?;
        let issued = Ledger::open(&dir.join("issued.jsonl"), ISSUED_RETENTION, MAX_ISSUED, now)?;
        Ok(Esp {
            options,
            public_url,
            keys,
            transactions: Mutex::new(Transactions::default()),
            outbox: Mutex::new(Outbox::default()),
            seen_txns: Mutex::new(seen_txns),
            issued: Mutex::new(issued),
        })
    }
}

fn router(esp: Shared) -> Router {
    Router::new()
        .route("/", get(|| async { pages::index_page() }))
        .route("/2.1/form/signdoc", post(flow::signdoc))
        .route("/2.1/signdoc", post(flow::signdoc_server))
        .route("/2.1/authRequest", post(flow::auth_request))
        .route("/2.1/form/otp", post(flow::send_otp))
        .route("/2.1/form/authenticate", post(flow::authenticate))
        .route("/2.1/form/cancel", post(flow::cancel))
        .route("/ca.cer", get(revocation::ca_certificate))
        .route("/esp.cer", get(revocation::esp_certificate))
        .route("/crl", get(revocation::crl))
        .route("/ocsp", post(revocation::ocsp))
        .route("/outbox", get(flow::outbox))
        .route("/outbox.json", get(flow::outbox_json))
        .route("/healthz", get(|| async { "ok" }))
        .route("/static/esp.css", get(stylesheet))
        .route("/static/autosubmit.js", get(autosubmit))
        .fallback(|| async {
            pages::error_page(StatusCode::NOT_FOUND, "404", "There is no such page on this test ESP.")
        })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(esp)
}

async fn stylesheet() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("../static/esp.css")).into_response()
}

async fn autosubmit() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../static/autosubmit.js"))
        .into_response()
}

/// A running test ESP. Dropping it (or [`stop`](Self::stop)) ends the server.
pub struct RunningEsp {
    pub base_url: String,
    /// The certificate that signs `EsignResp` (pin it in the ASP).
    pub esp_certificate_der: Vec<u8>,
    /// The test eSign CA that issues signer certificates (trust it in the ASP).
    pub ca_certificate_der: Vec<u8>,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl RunningEsp {
    /// Stops accepting requests, lets open ones finish (a few seconds at most), and returns
    /// when the server is gone.
    pub async fn stop(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(mut task) = self.task.take()
            && tokio::time::timeout(STOP_GRACE, &mut task).await.is_err()
        {
            task.abort();
        }
    }
}

impl Drop for RunningEsp {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

/// Starts the ESP on `listener` in this process (tests bind 127.0.0.1:0). The data folder
/// is made on first start (keys, identities); see [`crate::files`].
pub async fn spawn(options: EspOptions, listener: tokio::net::TcpListener) -> anyhow::Result<RunningEsp> {
    check_options(&options)?;
    let address = listener.local_addr().context("the listener has no address")?;
    let base_url = format!("http://{address}");
    let public_url = options.public_url.clone().unwrap_or_else(|| base_url.clone()).trim_end_matches('/').to_string();
    // Key generation (RSA) and file reads block: off the async threads.
    let esp = tokio::task::spawn_blocking(move || Esp::open(options, public_url))
        .await
        .context("the ESP's start was interrupted")??;
    let esp_certificate_der = esp.keys.esp_certificate_der.clone();
    let ca_certificate_der = esp.keys.ca.cert_der().to_vec();
    let app = router(Arc::new(esp));
    let (shutdown, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let served = axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = stopped.await;
            })
            .await;
        if let Err(error) = served {
            tracing::error!("the test ESP stopped: {error}");
        }
    });
    tracing::info!(%base_url, "test ESP listening");
    Ok(RunningEsp { base_url, esp_certificate_der, ca_certificate_der, shutdown: Some(shutdown), task: Some(task) })
}
