//! The runner of bulk jobs: the queue job `bulk.run` works one slice of a job's items (claimed
//! with a lease, a few at once, for a few seconds), hands each item to its kind ([`send`],
//! [`lots`]), and ends the job once every item is done, announcing its completion record.

use std::time::Duration;

use futures_util::StreamExt;
use signet_domain::job::BulkKind;
use signet_domain::{BulkJobId, Error, Millis, now_millis};
use signet_store::{BulkItemRow, BulkJobRow};

use super::{Outcome, announce, finish, lots, send};
use crate::Services;

/// How long one slice works before it hands over to the next.
const SLICE: Duration = Duration::from_secs(5);
/// Items claimed at a time.
const CLAIM_BATCH: i64 = 8;
/// Items worked on at once.
const ITEM_CONCURRENCY: usize = 4;
/// Longest outcome text kept per item.
const MAX_DETAIL_CHARS: usize = 500;

/// Why a slice failed; its text is the queue job's stored error, as before.
#[derive(Debug, thiserror::Error)]
pub enum SliceError {
    /// The queue job's payload is not JSON (Signet wrote it: a bug, kept with its cause).
    #[error("{0}")]
    Payload(#[source] serde_json::Error),
    #[error("a bulk slice without its job")]
    NoJob,
    /// The bulk job was deleted while its slice ran.
    #[error("the bulk job vanished")]
    Vanished,
    /// The store, or ending and announcing the job.
    #[error(transparent)]
    Domain(#[from] Error),
}

/// The `bulk.run` queue job: a slice of the job's items.
pub async fn run_slice(svc: &Services, job: &signet_store::ClaimedJob) -> Result<(), SliceError> {
    let payload: serde_json::Value = serde_json::from_str(&job.payload).map_err(SliceError::Payload)?;
    let id = BulkJobId::from(payload["bulkJobId"].as_i64().ok_or(SliceError::NoJob)?);
    let Some(bulk) = svc.store.bulk_job_by_id(id).await? else {
        return Ok(());
    };
    if !matches!(bulk.status.as_str(), "queued" | "running") {
        // A slice run again after its worker died between ending the job and announcing it.
        return Ok(announce(svc, id).await?);
    }
    svc.store.start_bulk_job(id).await?;
    let deadline = tokio::time::Instant::now() + SLICE;
    let lease_ms = Millis::try_from(svc.config.bulk_item_lease_ms).unwrap_or(Millis::MAX).max(1_000);
    loop {
        let current = svc.store.bulk_job_by_id(id).await?.ok_or(SliceError::Vanished)?;
        if current.cancel_requested {
            svc.store.skip_pending_items(id, "cancelled").await?;
        }
        let items = svc.store.claim_bulk_items(id, now_millis().saturating_add(lease_ms), CLAIM_BATCH).await?;
        if items.is_empty() {
            break;
        }
        // Items are independent: a few at once keep both the cores and the database busy.
        let finished: Vec<Result<(), Error>> = futures_util::stream::iter(items)
            .map(|item| {
                let current = &current;
                async move {
                    let outcome = run_item(svc, current, &item).await;
                    let detail: String = outcome.detail.chars().take(MAX_DETAIL_CHARS).collect();
                    svc.store
                        .finish_bulk_item(id, item.item_no, outcome.state, outcome.result_ref.as_deref(), &detail)
                        .await
                }
            })
            .buffer_unordered(ITEM_CONCURRENCY)
            .collect()
            .await;
        finished.into_iter().collect::<Result<(), Error>>()?;
        if tokio::time::Instant::now() >= deadline {
            svc.store.continue_bulk_job(bulk.tenant_id, id, now_millis()).await?;
            return Ok(());
        }
    }
    let progress = svc.store.bulk_progress(id).await?;
    if progress.open() > 0 {
        // Items another worker holds: look again once their lease could have run out.
        svc.store.continue_bulk_job(bulk.tenant_id, id, now_millis() + 5_000).await?;
        return Ok(());
    }
    Ok(finish(svc, &bulk).await?)
}

async fn run_item(svc: &Services, job: &BulkJobRow, item: &BulkItemRow) -> Outcome {
    let outcome = match job.kind {
        BulkKind::LotSign => lots::sign_item(svc, job, item).await,
        BulkKind::Send => send::send_item(svc, job, item).await,
    };
    outcome.unwrap_or_else(|error| {
        let detail = match &error {
            Error::Internal(_) => {
                tracing::error!(%error, job = %job.public_id, item = item.item_no, "a bulk item failed");
                "an internal error; see the server log".to_string()
            }
            Error::Validation(fields) => {
                fields.iter().map(|(f, m)| format!("{f}: {}", m.join("; "))).collect::<Vec<_>>().join("; ")
            }
            other => other.to_string(),
        };
        Outcome::failed(None, detail)
    })
}
