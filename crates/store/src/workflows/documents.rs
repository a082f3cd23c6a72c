//! Documents: uploaded on their own (recorded in the tenant's audit log), then bound to a
//! workflow, whose chain records what happens to them. Each signature or time-stamp makes a new
//! current version on top of the version it was made from (`version` guards against races).

use serde_json::json;
use signet_domain::audit::{Actor, WorkflowEventKind};
use signet_domain::workflow::{DocumentState, WorkflowState};
use signet_domain::{DocumentId, Error, ErrorCode, Millis, TenantId, WorkflowId, now_millis};

use super::events::append_event;
use super::row::{WorkflowRow, lock_workflow};
use crate::{Result, Store, db_err, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DocumentRow {
    #[sqlx(try_from = "i64")]
    pub id: DocumentId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    #[sqlx(try_from = "crate::NullableId")]
    pub workflow_id: Option<WorkflowId>,
    pub position: i64,
    pub name: String,
    pub category_id: Option<i64>,
    pub reference_no: Option<String>,
    #[sqlx(try_from = "String")]
    pub state: DocumentState,
    pub state_reason: Option<String>,
    pub original_blob: String,
    pub original_sha256: String,
    pub size_bytes: i64,
    pub page_count: i64,
    pub current_blob: String,
    pub current_sha256: String,
    pub version: i64,
    pub created_by: String,
    pub created_at: Millis,
    pub updated_at: Millis,
}

pub(crate) const DOCUMENT_COLUMNS: &str = "id, tenant_id, workflow_id, position, name, category_id, reference_no, state, \
    state_reason, original_blob, original_sha256, size_bytes, page_count, current_blob, current_sha256, version, \
    created_by, created_at, updated_at";

/// A document's next version made outside a signature (`Store::advance_version`).
pub(crate) struct NextVersion<'a> {
    pub blob_key: &'a str,
    pub sha256: &'a str,
    pub kind: WorkflowEventKind,
    /// The workflow event's detail.
    pub detail: serde_json::Value,
    /// Until when the new version's newest document time-stamp protects it, when known.
    pub lta_expires_at: Option<Millis>,
}

pub struct NewDocument<'a> {
    pub tenant_id: TenantId,
    pub name: &'a str,
    pub category_id: Option<i64>,
    pub reference_no: Option<&'a str>,
    pub blob_key: &'a str,
    pub sha256: &'a str,
    pub size_bytes: i64,
    pub page_count: i64,
}

impl Store {
    pub async fn insert_document(
        &self,
        new: &NewDocument<'_>,
        actor: &signet_domain::audit::Actor,
    ) -> Result<DocumentRow> {
        let now = now_millis();
        let sql = format!(
            "INSERT INTO documents (tenant_id, name, category_id, reference_no, state, original_blob, original_sha256, \
             size_bytes, page_count, current_blob, current_sha256, created_by, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $11, $5, $6, $7, $8, $5, $6, $9, $10, $10) RETURNING {DOCUMENT_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: DocumentRow = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(new.tenant_id.get())
                .bind(new.name)
                .bind(new.category_id)
                .bind(new.reference_no)
                .bind(new.blob_key)
                .bind(new.sha256)
                .bind(new.size_bytes)
                .bind(new.page_count)
                .bind(&actor.id)
                .bind(now)
                .bind(DocumentState::Active.as_str())
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.event(
                "document.uploaded",
                format!("document:{}", row.id),
                json!({"name": new.name, "sha256": new.sha256, "pages": new.page_count}),
            );
            crate::append_audit!(self, tx, new.tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// A document of the tenant (another tenant's id is simply not found): the only way to a
    /// `DocumentRow`, which the finders of the document's children take.
    pub async fn document(&self, tenant_id: TenantId, id: DocumentId) -> Result<Option<DocumentRow>> {
        let sql = format!("SELECT {DOCUMENT_COLUMNS} FROM documents WHERE tenant_id = $1 AND id = $2");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// The workflow's documents in their order.
    pub async fn workflow_documents(&self, workflow: &WorkflowRow) -> Result<Vec<DocumentRow>> {
        let sql = format!("SELECT {DOCUMENT_COLUMNS} FROM documents WHERE workflow_id = $1 ORDER BY position, id");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(workflow.id.get()).fetch_all(pool).await.map_err(db_err)
        })
    }

    /// Replaces a document's current version outside a signature (the final time-stamp),
    /// only on top of the version `doc` was read at.
    pub async fn advance_document(
        &self,
        doc: &DocumentRow,
        blob_key: &str,
        sha256: &str,
        kind: WorkflowEventKind,
        actor: &Actor,
    ) -> Result<()> {
        let version = NextVersion { blob_key, sha256, kind, detail: json!({"sha256": sha256}), lta_expires_at: None };
        self.advance_version(doc, &version, actor).await
    }

    /// [`Store::advance_document`] with the event's detail, and with the new version's
    /// long-term protection (`lta_expires_at`) written in the same transaction when known.
    pub(crate) async fn advance_version(&self, doc: &DocumentRow, next: &NextVersion<'_>, actor: &Actor) -> Result<()> {
        let Some(workflow_id) = doc.workflow_id else { return Err(Error::not_found("workflow")) };
        let now = now_millis();
        // The protection columns describe a version; they change only when the caller read them.
        let sql = if next.lta_expires_at.is_some() {
            "UPDATE documents SET current_blob = $1, current_sha256 = $2, version = version + 1, updated_at = $3, \
             lta_expires_at = $6, lta_checked_at = $3 WHERE id = $4 AND version = $5"
        } else {
            "UPDATE documents SET current_blob = $1, current_sha256 = $2, version = version + 1, updated_at = $3 \
             WHERE id = $4 AND version = $5"
        };
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let mut update =
                sqlx::query(sql).bind(next.blob_key).bind(next.sha256).bind(now).bind(doc.id.get()).bind(doc.version);
            if let Some(expires_at) = next.lta_expires_at {
                update = update.bind(expires_at);
            }
            let advanced = update.execute(&mut *tx).await.map_err(db_err)?.rows_affected();
            if advanced != 1 {
                return Err(Error::rejected(ErrorCode::Conflict, "the document changed meanwhile"));
            }
            let event = actor.workflow_event(next.kind, format!("document:{}", doc.id), next.detail.clone());
            append_event!(self, tx, doc.tenant_id, workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Files a document (or, with `document_id` 0, the workflow) under a category.
    pub async fn set_category(
        &self,
        tenant_id: TenantId,
        workflow_id: WorkflowId,
        document_id: DocumentId,
        category_id: i64,
        actor: &Actor,
    ) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let _workflow = lock_workflow!(tx, tenant_id, workflow_id);
            let changed = if document_id.get() == 0 {
                sqlx::query("UPDATE workflows SET category_id = $2 WHERE id = $1").bind(workflow_id.get()).bind(category_id).execute(&mut *tx).await
            } else {
                sqlx::query("UPDATE documents SET category_id = $3 WHERE id = $2 AND workflow_id = $1")
                    .bind(workflow_id.get())
                    .bind(document_id.get())
                    .bind(category_id)
                    .execute(&mut *tx)
                    .await
            }
            .map_err(db_err)?
            .rows_affected();
            if changed != 1 {
                return Err(Error::not_found("document"));
            }
            let event = actor.workflow_event(WorkflowEventKind::DocumentCategorised, format!("document:{document_id}"), json!({"categoryId": category_id}));
            append_event!(self, tx, tenant_id, workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Marks a document inactive. Outside a workflow always; in a workflow in progress only when
    /// forced and another active document remains; never in an ended workflow.
    pub async fn deactivate_document(
        &self,
        tenant_id: TenantId,
        document_id: DocumentId,
        reason: Option<&str>,
        force: bool,
        actor: &Actor,
    ) -> Result<()> {
        let Some(doc) = self.document(tenant_id, document_id).await?.filter(|d| d.state != DocumentState::Deleted)
        else {
            return Err(Error::not_found("document"));
        };
        if doc.state == DocumentState::Inactive {
            return Err(Error::rejected(ErrorCode::StateConflict, "the document is already inactive"));
        }
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            if let Some(workflow_id) = doc.workflow_id {
                let workflow = lock_workflow!(tx, tenant_id, workflow_id);
                if workflow.state() != WorkflowState::InProgress {
                    return Err(Error::rejected(ErrorCode::StateConflict, format!("the workflow is {}", workflow.state)));
                }
                if !force {
                    return Err(Error::rejected(ErrorCode::StateConflict, "the document is in a workflow in progress; set forceInactive"));
                }
                let (others,): (i64,) = sqlx::query_as(
                    "SELECT COUNT(*) FROM documents WHERE workflow_id = $1 AND state = $3 AND id <> $2",
                )
                .bind(workflow_id.get())
                .bind(document_id.get())
                .bind(DocumentState::Active.as_str())
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
                if others == 0 {
                    return Err(Error::rejected(ErrorCode::StateConflict, "the workflow's last active document cannot be made inactive"));
                }
                let event = actor.workflow_event(WorkflowEventKind::DocumentInactive, format!("document:{document_id}"), json!({"reason": reason}));
                append_event!(self, tx, tenant_id, workflow_id, &event);
            }
            sqlx::query("UPDATE documents SET state = $4, state_reason = $2, updated_at = $3 WHERE id = $1")
                .bind(document_id.get())
                .bind(reason)
                .bind(now_millis())
                .bind(DocumentState::Inactive.as_str())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// A cached summary of a document's text (keyed by the text's source hash).
    pub async fn cached_summary(&self, document: &DocumentRow, sha256: &str) -> Result<Option<String>> {
        on_db!(self, pool => {
            let row: Option<(String,)> = sqlx::query_as("SELECT summary FROM document_summaries WHERE document_id = $1 AND sha256 = $2")
                .bind(document.id.get())
                .bind(sha256)
                .fetch_optional(pool)
                .await
                .map_err(db_err)?;
            Ok(row.map(|(s,)| s))
        })
    }

    pub async fn cache_summary(&self, document: &DocumentRow, sha256: &str, summary: &str) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO document_summaries (document_id, sha256, summary, created_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (document_id, sha256) DO NOTHING",
            )
            .bind(document.id.get())
            .bind(sha256)
            .bind(summary)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?;
            Ok(())
        })
    }
}

impl Store {
    /// Records the token of a document's public verification page (its hash).
    pub async fn add_document_verification(&self, token_hash: &str, document: &DocumentRow) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO document_verifications (token_hash, tenant_id, document_id, created_at) VALUES ($1, $2, $3, $4)",
            )
            .bind(token_hash)
            .bind(document.tenant_id.get())
            .bind(document.id.get())
            .bind(signet_domain::now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?;
            Ok(())
        })
    }

    /// The document whose public verification page the token's hash opens.
    pub async fn verified_document(&self, token_hash: &str) -> Result<Option<DocumentRow>> {
        let columns = DOCUMENT_COLUMNS.split(", ").map(|c| format!("d.{c}")).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT {columns} FROM documents d JOIN document_verifications v ON v.document_id = d.id \
             AND v.tenant_id = d.tenant_id WHERE v.token_hash = $1"
        );
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(token_hash).fetch_optional(pool).await.map_err(db_err)
        })
    }
}
