//! Renewal of long-term signatures before they expire (issue 33, item 2). A completed
//! document's newest document time-stamp proves it only while the TSA's certificates last
//! (`lta_expires_at`, recorded at completion and at each renewal); the periodic sweep adds a
//! new document time-stamp with fresh validation data (B-LTA renewal) to each document whose
//! protection runs out within the margin, at most `lta_renewals_per_run` per run, soonest first.
//!
//! Exactly once across instances and crashes: a renewal is stored on top of the version it read
//! (`Store::renew_document`; the loser of a race gets Conflict and removes its own file), and a
//! document whose newest time-stamp is found not due is only recorded, not renewed again.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::audit::Actor;
use signet_domain::{Error, ErrorCode, Millis, now_millis};
use signet_signing::{LtaProtection, PadesLevel, PdfSignOptions};
use signet_store::{DocumentRow, RenewedVersion};

use super::sealing::version_key;
use crate::Services;

const DAY_MS: i64 = 86_400_000;

/// Why a sweep stopped.
#[derive(Debug, thiserror::Error)]
pub enum RenewalError {
    /// Renewing with this TSA would leave the documents due again at once: it is not tried.
    #[error(
        "the configured TSA's certificates run out at {expires_at} (Unix ms), within the renewal margin: \
         renewals with it would not last; configure a TSA with a longer-lived certificate"
    )]
    TsaTooShort { expires_at: Millis },
    #[error(transparent)]
    Domain(#[from] Error),
    #[error(transparent)]
    Blob(#[from] signet_blob::Error),
}

/// How much one sweep does.
#[derive(Debug, Clone, Copy)]
pub struct SweepLimits {
    /// Documents whose protection runs out before now + this are renewed.
    pub margin_ms: i64,
    /// Most documents renewed (and, separately, back-filled) in one run.
    pub per_run: usize,
}

impl SweepLimits {
    pub fn from_config(config: &crate::Config) -> SweepLimits {
        SweepLimits {
            margin_ms: i64::from(config.lta_renewal_margin_days) * DAY_MS,
            per_run: config.lta_renewals_per_run as usize,
        }
    }
}

/// What one sweep did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct SweepOutcome {
    /// Documents whose protection was read for the first time.
    pub back_filled: usize,
    /// New document time-stamps stored.
    pub renewed: usize,
    /// Found not due on reading (renewed by an earlier run that stopped before recording it).
    pub already_renewed: usize,
    /// Renewed meanwhile by another instance (this instance's work was dropped).
    pub lost_races: usize,
    /// Could not be renewed this time (logged; tried again next run).
    pub failed: usize,
}

/// What became of one due document.
enum Renewal {
    Renewed,
    AlreadyRenewed,
    LostRace,
}

/// One run of the periodic job: back-fills what is unknown, then renews what is due.
pub async fn sweep(state: &Services, limits: SweepLimits) -> Result<SweepOutcome, RenewalError> {
    let mut outcome = SweepOutcome { back_filled: back_fill(state, limits.per_run).await?, ..SweepOutcome::default() };
    let margin_end = now_millis() + limits.margin_ms;
    let due = state.store.lta_due_documents(margin_end, limits.per_run as i64).await?;
    if due.is_empty() {
        return Ok(outcome);
    }
    let Some(tsa_url) = state.config.tsa_url.clone() else {
        tracing::warn!(
            due = due.len(),
            "documents' long-term protection runs out, and no TSA is configured to renew it"
        );
        return Ok(outcome);
    };
    check_tsa_lasts(state, &tsa_url, margin_end).await?;
    let queue = Arc::new(Mutex::new(due.into_iter().collect::<VecDeque<_>>()));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..renewal_concurrency() {
        let (state, queue, tsa_url) = (state.clone(), queue.clone(), tsa_url.clone());
        workers.spawn(async move { renew_queued(&state, &queue, &tsa_url, margin_end).await });
    }
    let mut stopped = None;
    while let Some(joined) = workers.join_next().await {
        match joined.map_err(Error::internal)? {
            Ok(done) => outcome = add(outcome, done),
            Err(error) => stopped = Some(error),
        }
    }
    tracing::info!(?outcome, "long-term renewal sweep");
    stopped.map_or(Ok(outcome), Err)
}

/// Renewals at once: the TSA and the PDF work run on blocking threads.
fn renewal_concurrency() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 8)
}

/// Takes documents off the shared queue until it is empty; stops the whole run (empties the
/// queue) when the TSA itself turns out too short-lived.
async fn renew_queued(
    state: &Services,
    queue: &Mutex<VecDeque<DocumentRow>>,
    tsa_url: &str,
    margin_end: Millis,
) -> Result<SweepOutcome, RenewalError> {
    let mut outcome = SweepOutcome::default();
    loop {
        let next = queue.lock().map_err(|_| Error::internal("renewal queue"))?.pop_front();
        let Some(doc) = next else { return Ok(outcome) };
        match renew(state, &doc, tsa_url, margin_end).await {
            Ok(Renewal::Renewed) => outcome.renewed += 1,
            Ok(Renewal::AlreadyRenewed) => outcome.already_renewed += 1,
            Ok(Renewal::LostRace) => outcome.lost_races += 1,
            Err(error @ RenewalError::TsaTooShort { .. }) => {
                queue.lock().map_err(|_| Error::internal("renewal queue"))?.clear();
                return Err(error);
            }
            Err(error) => {
                tracing::warn!(%error, document_id = doc.id.get(), "long-term renewal failed; the next run tries again");
                outcome.failed += 1;
            }
        }
    }
}

fn add(a: SweepOutcome, b: SweepOutcome) -> SweepOutcome {
    SweepOutcome {
        back_filled: a.back_filled + b.back_filled,
        renewed: a.renewed + b.renewed,
        already_renewed: a.already_renewed + b.already_renewed,
        lost_races: a.lost_races + b.lost_races,
        failed: a.failed + b.failed,
    }
}

/// Refuses to renew with a TSA whose own certificates run out within the margin: the renewed
/// documents would be due again at once, and every run would renew them again.
async fn check_tsa_lasts(state: &Services, tsa_url: &str, margin_end: Millis) -> Result<(), RenewalError> {
    let expires_at = tsa_expires_at(state, tsa_url).await?;
    if expires_at <= margin_end {
        tracing::error!(expires_at, tsa_url, "the configured TSA's certificates run out within the renewal margin");
        return Err(RenewalError::TsaTooShort { expires_at });
    }
    Ok(())
}

/// Until when a time-stamp of the configured TSA would protect a document (Unix ms): asks it for one.
pub async fn tsa_expires_at(state: &Services, tsa_url: &str) -> Result<Millis, Error> {
    let (url, http) = (tsa_url.to_string(), state.config.outbound_http());
    let protection = blocking(move || signet_signing::tsa_protection(&url, &http)).await?;
    Ok(unix_ms(protection.expires_at_unix))
}

/// Renews one due document, unless its newest time-stamp is found not due after all.
async fn renew(
    state: &Services,
    doc: &DocumentRow,
    tsa_url: &str,
    margin_end: Millis,
) -> Result<Renewal, RenewalError> {
    let pdf = state.blob.get(&BlobKey::parse(&doc.current_blob)?).await?;
    // A time-stamp that does not check protects nothing: the document is renewed.
    let (pdf, current) =
        blocking(move || Ok(signet_signing::lta_protection(&pdf).ok().flatten()).map(|p| (pdf, p))).await?;
    if let Some(current) = current.filter(|p| unix_ms(p.expires_at_unix) > margin_end) {
        state.store.record_lta_expiry(doc, &doc.current_sha256, Some(unix_ms(current.expires_at_unix))).await?;
        return Ok(Renewal::AlreadyRenewed);
    }
    let opts = PdfSignOptions {
        level: PadesLevel::BLTA,
        validation: state.keys.validation_data()?,
        tsa_url: Some(tsa_url.to_string()),
        http: state.config.outbound_http(),
        ..PdfSignOptions::default()
    };
    let (extended, renewed) = blocking(move || {
        let extended = signet_signing::extend_pdf(&pdf, &opts)?;
        let renewed = signet_signing::lta_protection(&extended)?;
        Ok((extended, renewed))
    })
    .await?;
    let expires_at = renewed.map(|p| unix_ms(p.expires_at_unix)).ok_or_else(|| Error::internal("no time-stamp"))?;
    if expires_at <= margin_end {
        return Err(RenewalError::TsaTooShort { expires_at });
    }
    let sha = hex::encode(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &extended).as_ref());
    let key = version_key(doc, doc.version + 1)?;
    state.blob.put(&key, Bytes::from(extended)).await?;
    let version = RenewedVersion { blob_key: key.as_str(), sha256: &sha, lta_expires_at: expires_at };
    match state.store.renew_document(doc, &version, &Actor::system()).await {
        Ok(()) => Ok(Renewal::Renewed),
        Err(error) => {
            let _ = state.blob.delete(&key).await;
            if error.code() == ErrorCode::Conflict { Ok(Renewal::LostRace) } else { Err(error.into()) }
        }
    }
}

/// Reads the protection of the documents of completed workflows never read for it (those
/// time-stamped before `lta_expires_at` existed), at most `limit`; answers how many.
async fn back_fill(state: &Services, limit: usize) -> Result<usize, RenewalError> {
    let unknown = state.store.lta_unknown_documents(limit as i64).await?;
    for doc in &unknown {
        let pdf = state.blob.get(&BlobKey::parse(&doc.current_blob)?).await?;
        let expires_at = match blocking(move || protection_of_final_version(&pdf)).await {
            Ok(protection) => protection.map(|p| unix_ms(p.expires_at_unix)),
            Err(error) => {
                // A time-stamp that does not check protects nothing: due at once.
                tracing::warn!(%error, document_id = doc.id.get(), "the document's time-stamp does not check");
                Some(0)
            }
        };
        state.store.record_lta_expiry(doc, &doc.current_sha256, expires_at).await?;
    }
    Ok(unknown.len())
}

/// The protection of a completed document: its newest revision must be the document time-stamp.
fn protection_of_final_version(pdf: &[u8]) -> signet_signing::Result<Option<LtaProtection>> {
    if !signet_signing::ends_with_document_timestamp(pdf)? {
        return Ok(None);
    }
    signet_signing::lta_protection(pdf)
}

/// Records the protection of a version completion just time-stamped. Failing here loses
/// nothing: the sweep back-fills a document whose protection is not recorded.
pub async fn record_protection(state: &Services, doc: &DocumentRow, blob_key: &BlobKey, sha256: &str) {
    let recorded = async {
        let pdf = state.blob.get(blob_key).await?;
        let protection = blocking(move || signet_signing::lta_protection(&pdf)).await?;
        let expires_at = protection.map(|p| unix_ms(p.expires_at_unix));
        state.store.record_lta_expiry(doc, sha256, expires_at).await?;
        Ok::<_, RenewalError>(())
    };
    if let Err(error) = recorded.await {
        tracing::warn!(%error, document_id = doc.id.get(), "long-term protection not recorded; the sweep back-fills it");
    }
}

fn unix_ms(unix_secs: u64) -> Millis {
    i64::try_from(unix_secs).unwrap_or(i64::MAX / 1000) * 1000
}

/// Signing work on a blocking thread.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> signet_signing::Result<T> + Send + 'static,
) -> Result<T, Error> {
    tokio::task::spawn_blocking(work).await.map_err(Error::internal)?.map_err(Error::internal)
}
