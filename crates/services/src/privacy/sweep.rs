//! The retention sweep: every organisation that set a period has what that period ended
//! erased, behind a tombstone each; and the `blobs.erase` job that deletes an erasure's stored
//! objects after it committed.
//!
//! Resumable by construction: each batch of workflows (and of gateway transactions) is erased
//! in its own transaction behind its own tombstone, so a sweep stopped at any point (`kill -9` included) leaves every
//! record either whole or erased with its tombstone, and the next sweep finds only what is
//! still due. A workflow that moves on while the sweep reads it (a hold placed) is left for the
//! next sweep.

use signet_domain::audit::Actor;
use signet_domain::retention::{DAY_MS, Ended, sweep_due};
use signet_domain::{Error, Millis, TenantId};
use signet_store::{BlobsToErase, ErasureFacts, MAX_ERASURE_BATCH};

use super::erasure::{delete_blobs, delete_objects, erase_workflows};
use super::tombstone::{self, Tombstone, Why};
use crate::Services;

/// Rows read per query.
const PAGE: i64 = 200;
/// Gateway transactions per tombstone.
const TRANSACTIONS_PER_TOMBSTONE: i64 = 200;

/// What a sweep did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepReport {
    pub workflows: u64,
    pub transactions: u64,
    /// Workflows that changed while being read, left for the next sweep.
    pub skipped: u64,
}

/// Erases everything due at `now` in every organisation that set a period.
pub async fn sweep(svc: &Services, now: Millis) -> Result<SweepReport, Error> {
    let mut report = SweepReport::default();
    for tenant_id in svc.store.retention_tenants().await? {
        sweep_tenant(svc, tenant_id, now, &mut report).await?;
    }
    if report != SweepReport::default() {
        tracing::info!(
            workflows = report.workflows,
            transactions = report.transactions,
            skipped = report.skipped,
            "retention sweep"
        );
    }
    Ok(report)
}

async fn sweep_tenant(svc: &Services, tenant_id: TenantId, now: Millis, report: &mut SweepReport) -> Result<(), Error> {
    let policies = svc.store.retention_policies(tenant_id).await?;
    let system = Actor::system();
    for ended in Ended::ALL {
        let mut after = 0;
        loop {
            let organisation_days = policies.organisation.for_state(ended.state());
            let due = svc.store.due_workflows(tenant_id, ended, organisation_days, now, after, PAGE).await?;
            let Some(last) = due.last() else { break };
            after = last.get();
            for chunk in due.chunks(MAX_ERASURE_BATCH) {
                let (due, not_due): (Vec<ErasureFacts>, Vec<ErasureFacts>) =
                    svc.store.erasure_facts(tenant_id, chunk).await?.into_iter().partition(|facts| {
                        !facts.erased
                            && sweep_due(facts.standing(), &policies.for_template(facts.workflow.template_id), now)
                    });
                report.skipped += not_due.len() as u64;
                if due.is_empty() {
                    continue;
                }
                let outcome = erase_workflows(svc, tenant_id, due, Why::Retention, &system).await?;
                report.workflows += outcome.erased.len() as u64;
                report.skipped += outcome.refused.len() as u64;
            }
        }
    }
    if let Some(days) = policies.organisation.gateway_days {
        let before = now.saturating_sub(DAY_MS.saturating_mul(Millis::from(days)));
        loop {
            let numbers = svc.store.due_transactions(tenant_id, before, TRANSACTIONS_PER_TOMBSTONE).await?;
            if numbers.is_empty() {
                break;
            }
            let statement = Tombstone {
                format: tombstone::FORMAT.into(),
                tenant_id,
                why: Why::Retention,
                erased_at: signet_domain::now_millis(),
                workflows: Vec::new(),
                transactions: numbers.clone(),
            };
            let target = format!("tenant:{tenant_id}");
            let entry =
                tombstone::sealed_entry(svc, &system, tombstone::TRANSACTIONS_ERASED, target, &statement).await?;
            let objects = svc.store.erase_transactions(tenant_id, &numbers, &entry).await?;
            report.transactions += numbers.len() as u64;
            delete_objects(svc, &objects).await;
        }
    }
    Ok(())
}

/// The `blobs.erase` job: deletes what an erasure listed when the erasing process did not
/// (it stopped, or a delete failed).
pub async fn run_erase_blobs(svc: &Services, payload: &str) -> Result<(), signet_blob::Error> {
    let Ok(blobs) = serde_json::from_str::<BlobsToErase>(payload) else {
        tracing::warn!("blobs.erase job with a payload that names nothing; dropped");
        return Ok(());
    };
    delete_blobs(svc, &blobs).await.map(|_| ())
}
