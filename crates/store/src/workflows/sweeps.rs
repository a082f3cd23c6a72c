//! The worker's periodic passes over all tenants' workflows: reminders that are due, and
//! workflows whose envelope expiry has passed (the worker then expires them one by one).

use serde_json::json;
use signet_domain::audit::{Actor, WorkflowEventKind};
use signet_domain::workflow::{SignatoryState, WorkflowState};
use signet_domain::{Millis, TenantId, WorkflowId};

use super::events::append_event;
use crate::{Result, Store, db_err, on_db};

impl Store {
    /// Signatories due longer than their workflow's reminder interval since the last notice:
    /// each gets a `signatory.reminded` event (which mails them), at most `limit` at a time.
    pub async fn send_due_reminders(&self, now: Millis, limit: i64) -> Result<usize> {
        let due: Vec<(i64, i64, i64)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT s.tenant_id, s.workflow_id, s.id FROM signatories s JOIN workflows w ON w.id = s.workflow_id \
                 WHERE w.state = $3 AND w.reminder_every_days IS NOT NULL AND s.state IN ($4, $5) \
                 AND COALESCE(s.last_reminded_at, s.notified_at, s.created_at) + w.reminder_every_days * 86400000 < $1 \
                 ORDER BY s.id LIMIT $2",
            )
            .bind(now)
            .bind(limit)
            .bind(WorkflowState::InProgress.as_str())
            .bind(SignatoryState::Notified.as_str())
            .bind(SignatoryState::Viewed.as_str())
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        let system = Actor::system();
        for (tenant_id, workflow_id, signatory_id) in &due {
            on_db!(self, pool => {
                let mut tx = pool.begin().await.map_err(db_err)?;
                sqlx::query("UPDATE signatories SET last_reminded_at = $2 WHERE id = $1")
                    .bind(signatory_id)
                    .bind(now)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
                let event = system.workflow_event(WorkflowEventKind::SignatoryReminded, format!("signatory:{signatory_id}"), json!({}));
                append_event!(self, tx, TenantId::from(*tenant_id), WorkflowId::from(*workflow_id), &event);
                tx.commit().await.map_err(db_err)?;
            });
        }
        Ok(due.len())
    }

    /// Workflows in progress whose envelope expiry has passed.
    pub async fn overdue_workflows(&self, now: Millis, limit: i64) -> Result<Vec<(TenantId, WorkflowId)>> {
        let overdue: Vec<(i64, i64)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT tenant_id, id FROM workflows WHERE state = $3 AND expires_at IS NOT NULL \
                 AND expires_at < $1 ORDER BY expires_at LIMIT $2",
            )
            .bind(now)
            .bind(limit)
            .bind(WorkflowState::InProgress.as_str())
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        Ok(overdue.into_iter().map(|(tenant_id, id)| (TenantId::from(tenant_id), WorkflowId::from(id))).collect())
    }
}
