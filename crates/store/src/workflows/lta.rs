//! The long-term protection of completed workflows' documents: until when each document's
//! newest document time-stamp protects it (`lta_expires_at`), which are due for renewal, and
//! the renewal itself (a new version whose event says so). See migration 0044.

use serde_json::json;
use signet_domain::audit::{Actor, WorkflowEventKind};
use signet_domain::workflow::{DocumentState, WorkflowState};
use signet_domain::{DocumentId, Millis, TenantId, WorkflowId, now_millis};

use super::documents::{DOCUMENT_COLUMNS, DocumentRow, NextVersion};
use crate::{Result, Store, db_err, on_db};

/// A document due for renewal, as `signet lta status` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LtaDue {
    pub tenant_id: TenantId,
    pub workflow_id: WorkflowId,
    pub document_id: DocumentId,
    pub name: String,
    pub expires_at: Millis,
}

/// How many active documents of workflows are in each long-term state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LtaCounts {
    /// Protection runs out before the margin's end.
    pub due: i64,
    /// Protected beyond the margin (time-stamped at completion or renewed).
    pub fine: i64,
    /// Completed, never read for it (time-stamped before the column existed).
    pub unknown: i64,
    /// Read, and no document time-stamp to renew (completed without a TSA).
    pub without_timestamp: i64,
}

/// A renewed version of a document: its blob, its hash and until when its new time-stamp protects it.
pub struct RenewedVersion<'a> {
    pub blob_key: &'a str,
    pub sha256: &'a str,
    pub lta_expires_at: Millis,
}

impl Store {
    /// Records until when the document version whose hash is `sha256` is protected (`None`:
    /// read, with no document time-stamp). A version replaced meanwhile is left alone; answers
    /// whether the record was written.
    pub async fn record_lta_expiry(&self, doc: &DocumentRow, sha256: &str, expires_at: Option<Millis>) -> Result<bool> {
        on_db!(self, pool => {
            let written = sqlx::query(
                "UPDATE documents SET lta_expires_at = $1, lta_checked_at = $2 \
                 WHERE id = $3 AND tenant_id = $4 AND current_sha256 = $5",
            )
            .bind(expires_at)
            .bind(now_millis())
            .bind(doc.id.get())
            .bind(doc.tenant_id.get())
            .bind(sha256)
            .execute(pool)
            .await
            .map_err(db_err)?
            .rows_affected();
            Ok(written == 1)
        })
    }

    /// Active documents whose protection runs out at or before `before`, soonest first.
    pub async fn lta_due_documents(&self, before: Millis, limit: i64) -> Result<Vec<DocumentRow>> {
        let sql = format!(
            "SELECT {DOCUMENT_COLUMNS} FROM documents WHERE lta_expires_at IS NOT NULL AND lta_expires_at <= $1 \
             AND state = $2 ORDER BY lta_expires_at, id LIMIT $3"
        );
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(before)
                .bind(DocumentState::Active.as_str())
                .bind(limit)
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Active documents of completed workflows never read for their protection, oldest first.
    pub async fn lta_unknown_documents(&self, limit: i64) -> Result<Vec<DocumentRow>> {
        let columns = DOCUMENT_COLUMNS.split(", ").map(|c| format!("d.{c}")).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT {columns} FROM documents d JOIN workflows w ON w.id = d.workflow_id \
             WHERE d.lta_checked_at IS NULL AND d.workflow_id IS NOT NULL AND d.state = $1 AND w.state = $2 \
             ORDER BY d.id LIMIT $3"
        );
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(DocumentState::Active.as_str())
                .bind(WorkflowState::Completed.as_str())
                .bind(limit)
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Stores a renewal: the new version on top of the one `doc` was read at (else Conflict,
    /// so two renewals of one version never both land), its protection, and the workflow
    /// event `document.timestamped` marked as a renewal, in one transaction.
    pub async fn renew_document(&self, doc: &DocumentRow, renewed: &RenewedVersion<'_>, actor: &Actor) -> Result<()> {
        let next = NextVersion {
            blob_key: renewed.blob_key,
            sha256: renewed.sha256,
            kind: WorkflowEventKind::DocumentTimestamped,
            detail: json!({"sha256": renewed.sha256, "renewal": true, "ltaExpiresAt": renewed.lta_expires_at}),
            lta_expires_at: Some(renewed.lta_expires_at),
        };
        self.advance_version(doc, &next, actor).await
    }

    /// The documents due before `before` (at most `limit`, soonest first) and the counts.
    pub async fn lta_overview(&self, before: Millis, limit: i64) -> Result<(Vec<LtaDue>, LtaCounts)> {
        let active = DocumentState::Active.as_str();
        on_db!(self, pool => {
            let due: Vec<(i64, Option<i64>, i64, String, i64)> = sqlx::query_as(
                "SELECT tenant_id, workflow_id, id, name, lta_expires_at FROM documents \
                 WHERE lta_expires_at IS NOT NULL AND lta_expires_at <= $1 AND state = $2 \
                 ORDER BY lta_expires_at, id LIMIT $3",
            )
            .bind(before)
            .bind(active)
            .bind(limit)
            .fetch_all(pool)
            .await
            .map_err(db_err)?;
            let (due_count, fine, without_timestamp): (i64, i64, i64) = sqlx::query_as(
                "SELECT \
                 COALESCE(SUM(CASE WHEN lta_expires_at <= $1 THEN 1 ELSE 0 END), 0), \
                 COALESCE(SUM(CASE WHEN lta_expires_at > $1 THEN 1 ELSE 0 END), 0), \
                 COALESCE(SUM(CASE WHEN lta_expires_at IS NULL THEN 1 ELSE 0 END), 0) \
                 FROM documents WHERE lta_checked_at IS NOT NULL AND state = $2",
            )
            .bind(before)
            .bind(active)
            .fetch_one(pool)
            .await
            .map_err(db_err)?;
            let (unknown,): (i64,) = sqlx::query_as(
                "SELECT COUNT(*) FROM documents d JOIN workflows w ON w.id = d.workflow_id \
                 WHERE d.lta_checked_at IS NULL AND d.state = $1 AND w.state = $2",
            )
            .bind(active)
            .bind(WorkflowState::Completed.as_str())
            .fetch_one(pool)
            .await
            .map_err(db_err)?;
            let listed = due
                .into_iter()
                .filter_map(|(tenant, workflow, document, name, expires_at)| {
                    Some(LtaDue {
                        tenant_id: TenantId::from(tenant),
                        workflow_id: WorkflowId::from(workflow?),
                        document_id: DocumentId::from(document),
                        name,
                        expires_at,
                    })
                })
                .collect();
            Ok((listed, LtaCounts { due: due_count, fine, unknown, without_timestamp }))
        })
    }
}
