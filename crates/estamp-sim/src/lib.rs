//! Signet's e-stamping provider simulator: a local provider that issues digital e-stamp
//! certificates for loan records over the provider protocol Signet's adapter speaks
//! (docs/estamp-provider.md), for development, demos and tests (`signet estamp-sim serve`).
//! Never part of `signet serve`, and its certificates are not stamp duty paid to anyone.
//!
//! It behaves as a real provider does where it matters to the caller:
//! - it wants its API key (`Authorization: Bearer`), and refuses bodies it cannot read;
//! - it checks the record itself and answers `422` with the fields it refuses, among them
//!   rules only a provider knows (an article code must be one of the state's schedule);
//! - it numbers certificates as SHCIL does (`IN-MH12345678901234A`) and answers each with its
//!   certificate PDF;
//! - an `Idempotency-Key` that comes again answers the certificates issued the first time (a
//!   retried request never pays twice), and issued certificates can be fetched again by the
//!   provider's reference, the record's `txnID` or its loan number;
//! - it can be slow (`delay`) and fail (`fail_every`: every n-th issue answers 503).
//!
//! What it issues is kept in memory only: a restart forgets it.

mod issue;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use issue::Issued;

/// Largest request read: a loan record with one document inline (a 10 MiB PDF as base64).
pub const MAX_BODY_BYTES: usize = 16 << 20;
/// Most issues remembered; a full record refuses new issues rather than forget old ones.
const MAX_ISSUED: usize = 100_000;

/// How a simulator runs.
#[derive(Debug, Clone, Default)]
pub struct SimOptions {
    /// The key callers must present as `Authorization: Bearer <key>`; none: any caller.
    pub api_key: Option<String>,
    /// Added to every answer, as a busy provider would take.
    pub delay: Duration,
    /// Every n-th issue answers 503 (0: never).
    pub fail_every: u64,
}

/// Everything the handlers share.
struct Sim {
    options: SimOptions,
    /// Issues by idempotency key.
    issued: Mutex<HashMap<String, Arc<Issued>>>,
    /// Issues by the provider's reference, the record's `txnID` and its loan number.
    by_reference: Mutex<HashMap<String, Arc<Issued>>>,
    /// Issue requests seen (for `fail_every`) and certificate serials.
    requests: AtomicU64,
    serial: AtomicU64,
}

type Shared = Arc<Sim>;

/// A poisoned lock only means another request panicked mid-way; the data stays usable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn router(sim: Shared) -> Router {
    Router::new()
        .route("/v1/estamps", post(issue::issue))
        .route("/v1/estamps/{reference}", get(issue::fetch))
        .route("/healthz", get(|| async { "ok" }))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(sim)
}

/// A running simulator. Dropping it (or [`stop`](Self::stop)) ends the server.
pub struct RunningSim {
    pub base_url: String,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl RunningSim {
    /// Stops the server and returns when it is gone.
    pub async fn stop(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(task) = self.task.take()
            && tokio::time::timeout(Duration::from_secs(5), task).await.is_err()
        {
            tracing::warn!("the e-stamp simulator did not stop in time");
        }
    }
}

impl Drop for RunningSim {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

/// Starts the simulator on `listener` in this process (tests bind 127.0.0.1:0).
pub async fn spawn(options: SimOptions, listener: tokio::net::TcpListener) -> anyhow::Result<RunningSim> {
    if options.api_key.as_ref().is_some_and(|k| k.trim().is_empty()) {
        anyhow::bail!("the API key must not be empty");
    }
    let address = listener.local_addr().context("the listener has no address")?;
    let base_url = format!("http://{address}");
    // Certificate numbers differ between runs, as a real provider's never repeat.
    let start = time::OffsetDateTime::now_utc().unix_timestamp().unsigned_abs() % 1_000_000 * 1_000_000;
    let sim = Arc::new(Sim {
        options,
        issued: Mutex::new(HashMap::new()),
        by_reference: Mutex::new(HashMap::new()),
        requests: AtomicU64::new(0),
        serial: AtomicU64::new(start),
    });
    let app = router(sim);
    let (shutdown, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let served = axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = stopped.await;
            })
            .await;
        if let Err(error) = served {
            tracing::error!("the e-stamp simulator stopped: {error}");
        }
    });
    tracing::info!(%base_url, "e-stamp provider simulator listening");
    Ok(RunningSim { base_url, shutdown: Some(shutdown), task: Some(task) })
}

impl Sim {
    fn next_request(&self) -> u64 {
        self.requests.fetch_add(1, Ordering::SeqCst) + 1
    }

    fn next_serial(&self) -> u64 {
        self.serial.fetch_add(1, Ordering::SeqCst) + 1
    }
}
