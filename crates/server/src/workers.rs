//! Background work in the job queue: every instance runs a worker, and leases make sure each
//! job runs once across all of them. Periodic maintenance is enqueued with a dedupe key per
//! time slot, so several instances scheduling it still create one job per slot.

use std::time::Duration;

use signet_blob::{BlobKey, BlobStore};
use signet_domain::audit::Actor;
use signet_domain::now_millis;
use signet_store::{ClaimedJob, NewJob, Store};
use tokio::sync::watch;

use crate::AppState;

pub const PURGE_EXPIRED_TOKENS: &str = "maintenance.purge_expired_tokens";
pub const GATEWAY_HOUSEKEEPING: &str = "gateway.housekeeping";
pub const WORKFLOW_HOUSEKEEPING: &str = "workflow.housekeeping";
const PURGE_EVERY_MS: i64 = 3_600_000;
const HOUSEKEEPING_EVERY_MS: i64 = 60_000;

/// A name for this process in job leases: host, process id and a random suffix.
pub fn worker_id() -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "host".into());
    format!("{host}-{}-{}", std::process::id(), crate::secrets::random_token(4))
}

/// Enqueues this slot's periodic jobs; a no-op when another instance already did.
pub async fn schedule_periodic(store: &Store) -> signet_store::Result<()> {
    for (kind, every_ms) in [
        (PURGE_EXPIRED_TOKENS, PURGE_EVERY_MS),
        (GATEWAY_HOUSEKEEPING, HOUSEKEEPING_EVERY_MS),
        (WORKFLOW_HOUSEKEEPING, HOUSEKEEPING_EVERY_MS),
    ] {
        let slot = now_millis() / every_ms;
        store
            .enqueue_job(&NewJob {
                kind,
                payload: serde_json::json!({}),
                dedupe_key: Some(format!("{kind}:{slot}")),
                run_at: now_millis(),
                max_attempts: 3,
            })
            .await?;
    }
    Ok(())
}

async fn run_job(state: &AppState, job: &ClaimedJob) -> Result<(), String> {
    let (store, blob) = (&state.store, &state.blob);
    match job.kind.as_str() {
        GATEWAY_HOUSEKEEPING => gateway_housekeeping(store, blob).await,
        WORKFLOW_HOUSEKEEPING => workflow_housekeeping(store).await,
        signet_store::WORKFLOW_EVENT_JOB => crate::workflows::events::handle(state, &job.payload).await,
        crate::mail::MAIL_JOB => crate::mail::run_job(&state.mailer, &job.payload).await,
        signet_store::WEBHOOK_DELIVER_JOB => crate::webhooks::deliver(state, job).await,
        PURGE_EXPIRED_TOKENS => {
            let purged = store.purge_expired_refresh_tokens(now_millis()).await.map_err(|e| e.to_string())?;
            tracing::info!(job = job.id, purged, "purged expired refresh tokens");
            Ok(())
        }
        other => Err(format!("unknown job kind {other}")),
    }
}

/// Expires gateway transactions whose signer never finished, and deletes stored results
/// (`Storetodb`) whose retention ended.
pub async fn gateway_housekeeping(store: &Store, blob: &BlobStore) -> Result<(), String> {
    let now = now_millis();
    let expired = signet_store::TransactionOutcome {
        state: "expired",
        error_message: Some("Transaction expired"),
        result_blob: None,
        result_expires_at: None,
        detail: serde_json::Value::Null,
    };
    for (tenant_id, number) in store.overdue_transactions(now, 500).await.map_err(|e| e.to_string())? {
        let kept = store.transaction(&number).await.map_err(|e| e.to_string())?.and_then(|row| row.payload_blob);
        if store.finish_transaction(tenant_id, &number, &expired, &Actor::system()).await.map_err(|e| e.to_string())?
            && let Some(key) = kept.as_deref().and_then(|k| BlobKey::parse(k).ok())
        {
            blob.delete(&key).await.map_err(|e| e.to_string())?;
        }
    }
    for key in store.take_expired_results(now, 500).await.map_err(|e| e.to_string())? {
        if let Ok(key) = BlobKey::parse(&key) {
            blob.delete(&key).await.map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Expires workflows whose envelope expiry passed and reminds signatories who have waited
/// longer than their workflow's reminder interval (the reminder e-mail follows from the event).
pub async fn workflow_housekeeping(store: &Store) -> Result<(), String> {
    let now = now_millis();
    let system = signet_store::WorkflowActor { id: "system".into(), ip: None };
    for (tenant_id, workflow_id) in store.overdue_workflows(now, 500).await.map_err(|e| e.to_string())? {
        let expired = store
            .change_workflow_state(
                tenant_id,
                workflow_id,
                signet_domain::workflow::WorkflowState::Expired,
                None,
                &system,
            )
            .await;
        if let Err(error) = expired
            && error.code() != signet_domain::ErrorCode::StateConflict
        {
            return Err(error.to_string());
        }
    }
    store.send_due_reminders(now, 500).await.map_err(|e| e.to_string())?;
    Ok(())
}

/// Retries back off exponentially: 2 s, 4 s, 8 s, ... capped at an hour.
fn retry_delay_ms(attempts: i64, base_ms: u64) -> i64 {
    let exponent = attempts.clamp(1, 11) as u32;
    (i64::try_from(base_ms).unwrap_or(1000) << exponent).min(3_600_000)
}

/// Claims and runs due jobs until `shutdown` turns true.
pub async fn run(state: AppState, poll: Duration, mut shutdown: watch::Receiver<bool>) {
    let store = state.store.clone();
    let worker = worker_id();
    let mut last_schedule = 0_i64;
    loop {
        if now_millis() - last_schedule > 60_000 {
            if let Err(error) = schedule_periodic(&store).await {
                tracing::warn!(%error, "could not schedule periodic jobs");
            }
            last_schedule = now_millis();
        }
        let lease_ms = i64::try_from(state.config.job_lease_ms).unwrap_or(i64::MAX).max(1_000);
        match store.claim_jobs(&worker, lease_ms, 8).await {
            Ok(jobs) => {
                for job in jobs {
                    let outcome = run_job(&state, &job).await;
                    let recorded = match outcome {
                        Ok(()) => store.complete_job(job.id, &worker).await.map(|_| ()),
                        Err(error) => {
                            tracing::warn!(job = job.id, kind = %job.kind, %error, "job failed");
                            let retry_at = now_millis() + retry_delay_ms(job.attempts, state.config.job_retry_base_ms);
                            store.fail_job(job.id, &worker, &error, retry_at).await
                        }
                    };
                    if let Err(error) = recorded {
                        tracing::warn!(job = job.id, %error, "could not record job outcome");
                    }
                }
            }
            Err(error) => tracing::warn!(%error, "could not claim jobs"),
        }
        tokio::select! {
            _ = tokio::time::sleep(poll) => {}
            _ = shutdown.changed() => {}
        }
        if *shutdown.borrow() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_delay_grows_and_is_capped() {
        assert_eq!(retry_delay_ms(1, 1000), 2000);
        assert_eq!(retry_delay_ms(2, 1000), 4000);
        assert_eq!(retry_delay_ms(50, 1000), 2_048_000);
        assert_eq!(retry_delay_ms(3, 10), 80);
    }
}
