//! The background job handlers: what each kind of queued job does. The worker loop that
//! claims jobs and records their outcome lives in the server (`signet_server::workers`).

use signet_blob::{BlobKey, BlobStore};
use signet_domain::audit::Actor;
use signet_domain::job::JobKind;
use signet_domain::now_millis;
use signet_store::{ClaimedJob, NewJob, Store};

use crate::Services;
use crate::workflows::events::EventError;

/// Why a job failed. Its text is what the queue stores as the job's error and the worker logs,
/// the same words as before; each handler's own error stays attached as the cause.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// A kind this build does not know (a newer instance queued it).
    #[error("unknown job kind {0}")]
    UnknownKind(String),
    /// The store (or a use case) failed.
    #[error(transparent)]
    Domain(#[from] signet_domain::Error),
    /// The blob store failed.
    #[error(transparent)]
    Blob(#[from] signet_blob::Error),
    #[error(transparent)]
    Event(#[from] EventError),
    #[error(transparent)]
    Mail(#[from] crate::platform::mail::MailJobError),
    #[error(transparent)]
    Sms(#[from] crate::platform::sms::SmsJobError),
    #[error(transparent)]
    CheckAccount(#[from] crate::people::login::CheckAccountError),
    /// A webhook delivery or a CRM push.
    #[error(transparent)]
    Post(#[from] crate::integrations::webhooks::DeliverError),
    #[error(transparent)]
    LowStock(#[from] crate::stamps::LowStockJobError),
    #[error(transparent)]
    BulkSlice(#[from] crate::bulk::run::SliceError),
    #[error(transparent)]
    Export(#[from] crate::exports::ExportJobError),
    #[error(transparent)]
    LongTerm(#[from] crate::workflows::long_term::LongTermError),
    #[error(transparent)]
    LtaRenewal(#[from] crate::workflows::lta_renewal::RenewalError),
}

const PURGE_EVERY_MS: i64 = 3_600_000;
const HOUSEKEEPING_EVERY_MS: i64 = 60_000;
/// The long-term renewal sweep runs hourly: `lta_renewals_per_run` bounds renewals per hour.
const LTA_RENEWAL_EVERY_MS: i64 = 3_600_000;
/// The retention sweep runs daily: periods are counted in days.
const RETENTION_SWEEP_EVERY_MS: i64 = 86_400_000;

/// Enqueues this slot's periodic jobs; a no-op when another instance already did.
pub async fn schedule_periodic(store: &Store) -> signet_store::Result<()> {
    for (kind, every_ms) in [
        (JobKind::PurgeExpiredTokens, PURGE_EVERY_MS),
        (JobKind::GatewayHousekeeping, HOUSEKEEPING_EVERY_MS),
        (JobKind::WorkflowHousekeeping, HOUSEKEEPING_EVERY_MS),
        (JobKind::LtaRenewal, LTA_RENEWAL_EVERY_MS),
        (JobKind::RetentionSweep, RETENTION_SWEEP_EVERY_MS),
    ] {
        let slot = now_millis() / every_ms;
        store
            .enqueue_job(&NewJob {
                tenant: None,
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

/// Runs one claimed job; an error makes the queue retry it later.
pub async fn run_job(state: &Services, job: &ClaimedJob) -> Result<(), JobError> {
    let (store, blob) = (&state.store, &state.blob);
    let Some(kind) = JobKind::parse(&job.kind) else {
        return Err(JobError::UnknownKind(job.kind.clone()));
    };
    match kind {
        JobKind::GatewayHousekeeping => gateway_housekeeping(store, blob).await,
        JobKind::WorkflowHousekeeping => Ok(workflow_housekeeping(store).await?),
        JobKind::WorkflowEvent => Ok(crate::workflows::events::handle(state, &job.payload).await?),
        JobKind::Mail => Ok(crate::platform::mail::run_job(&state.mailer, &state.blob, &job.payload).await?),
        JobKind::Sms => Ok(crate::platform::sms::run_job(state, job).await?),
        JobKind::CheckAccount => Ok(crate::people::login::run_check_account(state, &job.payload).await?),
        JobKind::WebhookDeliver => Ok(crate::integrations::webhooks::deliver(state, job).await?),
        JobKind::CrmPush => Ok(crate::billing::sales::run_push_job(state, job).await?),
        JobKind::StampLowStock => Ok(crate::stamps::run_low_stock_job(state, job).await?),
        JobKind::BulkRun => Ok(crate::bulk::run::run_slice(state, job).await?),
        JobKind::ExportRun => Ok(crate::exports::run_job(state, job).await?),
        JobKind::LongTermData => Ok(crate::workflows::long_term::run_job(state, job).await?),
        JobKind::LtaRenewal => {
            let limits = crate::workflows::lta_renewal::SweepLimits::from_config(&state.config);
            crate::workflows::lta_renewal::sweep(state, limits).await?;
            Ok(())
        }
        JobKind::RetentionSweep => {
            crate::privacy::sweep::sweep(state, now_millis()).await?;
            Ok(())
        }
        JobKind::EraseBlobs => Ok(crate::privacy::sweep::run_erase_blobs(state, &job.payload).await?),
        JobKind::PurgeExpiredTokens => {
            let purged = store.purge_expired_refresh_tokens(now_millis()).await?;
            let sso = store.purge_expired_sso(now_millis()).await?;
            tracing::info!(job = job.id.get(), purged, sso, "purged expired refresh tokens and single sign-on states");
            Ok(())
        }
    }
}

/// Expires gateway transactions whose signer never finished, and deletes stored results
/// (`Storetodb`) whose retention ended.
pub async fn gateway_housekeeping(store: &Store, blob: &BlobStore) -> Result<(), JobError> {
    let now = now_millis();
    for (tenant_id, number) in store.overdue_transactions(now, 500).await? {
        crate::gateway::transaction::expire(store, blob, tenant_id, &number).await?;
    }
    for key in store.take_expired_results(now, 500).await? {
        if let Ok(key) = BlobKey::parse(&key) {
            blob.delete(&key).await?;
        }
    }
    Ok(())
}

/// Expires workflows whose envelope expiry passed and reminds signatories who have waited
/// longer than their workflow's reminder interval (the reminder e-mail follows from the event).
pub async fn workflow_housekeeping(store: &Store) -> Result<(), signet_domain::Error> {
    let now = now_millis();
    let system = Actor::system();
    for (tenant_id, workflow_id) in store.overdue_workflows(now, 500).await? {
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
            return Err(error);
        }
    }
    store.send_due_reminders(now, 500).await?;
    Ok(())
}
