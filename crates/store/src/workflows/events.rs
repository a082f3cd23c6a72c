//! A workflow's own event chain (the `workflow_events` table, chained like the tenant's audit
//! log by `crate::chain`), and the `workflow.event` job that each event enqueues in the same
//! transaction: e-mails and webhooks are sent from that job, so they happen once, after commit.

use signet_domain::audit::Actor;
use signet_domain::audit::{AuditEntry, WorkflowEventJob, WorkflowEventKind};
use signet_domain::{TenantId, WorkflowId};

use super::row::WorkflowRow;
use crate::chain::EntryRow;
use crate::{Result, Store, db_err, on_db};

/// The tenant audit action that anchors a workflow's event chain (evidence packs).
pub const WORKFLOW_EVENTS_ANCHORED: &str = "workflow.events_anchored";

/// The payload of the `workflow.event` job for a chained entry.
pub(super) fn event_job_payload(tenant_id: TenantId, workflow_id: WorkflowId, entry: &AuditEntry) -> String {
    let job = WorkflowEventJob {
        tenant_id,
        workflow_id,
        seq: entry.seq,
        kind: entry.action.clone(),
        target: entry.target.clone(),
        at: entry.at,
    };
    serde_json::to_string(&job).unwrap_or_default()
}

/// Appends to the workflow's chain inside an open transaction and enqueues the event's job
/// (deduplicated per workflow and sequence number). The chain's first statement takes the
/// workflow row's lock (PostgreSQL) or the write lock (SQLite). `$store` seals the event's
/// address (`Store::seal_chain_ip`).
macro_rules! append_event {
    ($store:expr, $tx:expr, $tenant_id:expr, $workflow_id:expr, $event:expr) => {{
        let workflow_id: signet_domain::WorkflowId = $workflow_id;
        let tenant_id: signet_domain::TenantId = $tenant_id;
        let event: &signet_domain::audit::WorkflowEvent = $event;
        let ip = $store.seal_chain_ip(tenant_id, event.as_audit().ip.as_deref()).await?;
        let entry =
            $crate::chain::append_chain!($tx, &$crate::chain::WORKFLOW_CHAIN, workflow_id.get(), event.as_audit(), ip);
        let payload = $crate::workflows::events::event_job_payload(tenant_id, workflow_id, &entry);
        let job = signet_domain::job::JobKind::WorkflowEvent.as_str();
        sqlx::query(
            "INSERT INTO jobs (kind, payload, dedupe_key, state, run_at, max_attempts, created_at, tenant_id) \
             VALUES ($1, $2, $3, 'ready', $4, 5, $4, $5)",
        )
        .bind(job)
        .bind(payload)
        .bind(format!("{job}:{workflow_id}:{}", entry.seq))
        .bind(entry.at)
        .bind(tenant_id.get())
        .execute(&mut *$tx)
        .await
        .map_err($crate::db_err)?;
    }};
}
pub(crate) use append_event;

impl Store {
    /// Appends an event that changes no state (a comment, an attachment, a download) to the
    /// chain of a workflow that the tenant-scoped finder produced.
    pub async fn record_workflow_event(
        &self,
        workflow: &WorkflowRow,
        kind: WorkflowEventKind,
        target: String,
        detail: serde_json::Value,
        actor: &Actor,
    ) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let event = actor.workflow_event(kind, target, detail);
            append_event!(self, tx, workflow.tenant_id, workflow.id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The workflow's event chain in order.
    pub async fn workflow_events(&self, workflow: &WorkflowRow) -> Result<Vec<AuditEntry>> {
        let rows: Vec<EntryRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {columns} FROM workflow_events \
                 WHERE workflow_id = $1 ORDER BY seq",
                columns = crate::chain::ENTRY_COLUMNS,
            )))
            .bind(workflow.id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        self.open_entries(workflow.tenant_id.get(), rows).await
    }

    /// The head of the workflow's event chain as the workflow row holds it (its last sequence
    /// number and hash), apart from the entries: what a copy of the entries must lead to.
    pub async fn workflow_event_head(&self, workflow: &WorkflowRow) -> Result<(i64, String)> {
        let head: (i64, String) = on_db!(self, pool => {
            sqlx::query_as("SELECT event_seq, event_head FROM workflows WHERE id = $1 AND tenant_id = $2")
                .bind(workflow.id.get())
                .bind(workflow.tenant_id.get())
                .fetch_one(pool)
                .await
                .map_err(db_err)?
        });
        Ok(head)
    }

    /// Records in the tenant's audit chain that the workflow's event chain stood at
    /// `(seq, head)` (`workflow.events_anchored`), and answers that tenant entry once linked.
    /// The evidence pack carries it: the workflow's events lead to the head, and the head is in
    /// an entry of the tenant's chain, which `signet audit verify` checks on the installation.
    pub async fn anchor_workflow_events(
        &self,
        workflow: &WorkflowRow,
        (seq, head): (i64, &str),
        actor: &Actor,
    ) -> Result<AuditEntry> {
        let target = format!("workflow:{}", workflow.id);
        let detail = serde_json::json!({"workflowId": workflow.id.get(), "seq": seq, "head": head});
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let event = actor.event(WORKFLOW_EVENTS_ANCHORED, target.clone(), detail.clone());
            crate::chain::append_audit!(self, tx, workflow.tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
        });
        self.link_audit(workflow.tenant_id).await?;
        let rows: Vec<EntryRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {columns} FROM audit_log \
                 WHERE tenant_id = $1 AND action = $2 AND target = $3 ORDER BY seq DESC LIMIT 50",
                columns = crate::chain::ENTRY_COLUMNS,
            )))
            .bind(workflow.tenant_id.get())
            .bind(WORKFLOW_EVENTS_ANCHORED)
            .bind(&target)
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        let row = rows
            .into_iter()
            .find(|row| serde_json::from_str::<serde_json::Value>(&row.detail).is_ok_and(|d| d == detail))
            .ok_or_else(|| signet_domain::Error::internal("the anchoring audit entry was not linked"))?;
        self.open_entry(workflow.tenant_id.get(), row).await
    }
}
