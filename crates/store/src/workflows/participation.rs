//! What participants add to a workflow along the way: comments on its documents and
//! attachments (sent by the initiator, requested of signers, or uploaded by a signer). Each is
//! recorded in the workflow's chain; per-signer limits are checked under its row lock.

use serde_json::json;
use signet_domain::audit::{Actor, WorkflowEventKind};
use signet_domain::{
    AttachmentId, DocumentId, Error, ErrorCode, Millis, SignatoryId, TenantId, WorkflowId, now_millis,
};

use super::documents::DocumentRow;
use super::events::append_event;
use super::row::{WorkflowRow, lock_workflow};
use crate::{Result, Store, db_err, on_db};

pub struct NewAttachment<'a> {
    pub tenant_id: TenantId,
    pub workflow_id: WorkflowId,
    pub signatory_id: Option<SignatoryId>,
    /// `initiator`, `requested` or `signer`.
    pub kind: &'a str,
    pub name: &'a str,
    pub description: Option<&'a str>,
    pub blob_key: Option<&'a str>,
    pub sha256: Option<&'a str>,
    pub size_bytes: Option<i64>,
}

/// An attachment of a workflow being created (its file already stored under `blob_key`).
#[derive(Debug, Clone)]
pub struct NewWorkflowAttachment {
    pub kind: &'static str,
    pub name: String,
    pub description: Option<String>,
    pub blob_key: String,
    pub sha256: String,
    pub size_bytes: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AttachmentRow {
    #[sqlx(try_from = "i64")]
    pub id: AttachmentId,
    #[sqlx(try_from = "crate::NullableId")]
    pub signatory_id: Option<SignatoryId>,
    pub kind: String,
    pub name: String,
    pub description: Option<String>,
    pub blob_key: Option<String>,
    pub sha256: Option<String>,
    pub size_bytes: Option<i64>,
    pub created_at: Millis,
}

/// Records the initiator's attachments of a workflow being created (their files are stored
/// already), each with an `attachment.added` event.
macro_rules! insert_initiator_attachments {
    ($store:expr, $tx:expr, $tenant_id:expr, $attachments:expr, $workflow_id:expr, $actor:expr, $now:expr) => {{
        let (tenant_id, attachments): (signet_domain::TenantId, &[$crate::workflows::NewWorkflowAttachment]) =
            ($tenant_id, $attachments);
        for a in attachments {
            let (id,): (i64,) = sqlx::query_as(
                "INSERT INTO workflow_attachments (tenant_id, workflow_id, signatory_id, kind, name, description, \
                 blob_key, sha256, size_bytes, created_at) VALUES ($1, $2, NULL, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
            )
            .bind(tenant_id.get())
            .bind(signet_domain::WorkflowId::get($workflow_id))
            .bind(a.kind)
            .bind(&a.name)
            .bind(&a.description)
            .bind(&a.blob_key)
            .bind(&a.sha256)
            .bind(a.size_bytes)
            .bind($now)
            .fetch_one(&mut *$tx)
            .await
            .map_err($crate::db_err)?;
            let event = $actor.workflow_event(
                signet_domain::audit::WorkflowEventKind::AttachmentAdded,
                format!("attachment:{id}"),
                serde_json::json!({"kind": a.kind, "name": &a.name, "sha256": &a.sha256}),
            );
            $crate::workflows::events::append_event!($store, $tx, tenant_id, $workflow_id, &event);
        }
    }};
}
pub(super) use insert_initiator_attachments;

impl Store {
    /// A comment on one of the workflow's documents, recorded in its chain.
    pub async fn add_comment(
        &self,
        tenant_id: TenantId,
        workflow_id: WorkflowId,
        document_id: DocumentId,
        comment: &str,
        actor: &Actor,
        max_per_author: Option<i64>,
    ) -> Result<i64> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            if let Some(max) = max_per_author {
                // The workflow row lock makes the count and the insert one step.
                lock_workflow!(tx, tenant_id, workflow_id);
                let (count,): (i64,) = sqlx::query_as(
                    "SELECT COUNT(*) FROM document_comments c JOIN documents d ON d.id = c.document_id \
                     WHERE d.workflow_id = $1 AND c.author = $2",
                )
                .bind(workflow_id.get())
                .bind(&actor.id)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
                if count >= max {
                    return Err(Error::rejected(ErrorCode::LimitReached, format!("at most {max} comments per signer")));
                }
            }
            let (id,): (i64,) = sqlx::query_as(
                "INSERT INTO document_comments (tenant_id, document_id, author, comment, created_at) \
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
            )
            .bind(tenant_id.get())
            .bind(document_id.get())
            .bind(&actor.id)
            .bind(comment)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.workflow_event(WorkflowEventKind::DocumentCommented, format!("document:{document_id}"), json!({"comment": comment}));
            append_event!(self, tx, tenant_id, workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(id)
        })
    }

    /// Comments on a document, oldest first: (author, comment, at).
    pub async fn comments(&self, document: &DocumentRow) -> Result<Vec<(String, String, Millis)>> {
        on_db!(self, pool => {
            sqlx::query_as("SELECT author, comment, created_at FROM document_comments WHERE document_id = $1 ORDER BY id")
                .bind(document.id.get())
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Records an attachment of the workflow (sent by the initiator, requested of signers, or
    /// uploaded by a signer), with an event in the chain.
    /// `max_per_signatory` limits the attachments one signatory may add (checked under the
    /// workflow's row lock, so concurrent uploads cannot pass it together).
    pub async fn add_attachment(
        &self,
        new: &NewAttachment<'_>,
        actor: &Actor,
        max_per_signatory: Option<i64>,
    ) -> Result<AttachmentId> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            if let (Some(max), Some(signatory_id)) = (max_per_signatory, new.signatory_id) {
                lock_workflow!(tx, new.tenant_id, new.workflow_id);
                let (count,): (i64,) =
                    sqlx::query_as("SELECT COUNT(*) FROM workflow_attachments WHERE workflow_id = $1 AND signatory_id = $2")
                        .bind(new.workflow_id.get())
                        .bind(signatory_id.get())
                        .fetch_one(&mut *tx)
                        .await
                        .map_err(db_err)?;
                if count >= max {
                    return Err(Error::rejected(
                        ErrorCode::LimitReached,
                        format!("at most {max} attachments per signer"),
                    ));
                }
            }
            let (id,): (i64,) = sqlx::query_as(
                "INSERT INTO workflow_attachments (tenant_id, workflow_id, signatory_id, kind, name, description, \
                 blob_key, sha256, size_bytes, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
            )
            .bind(new.tenant_id.get())
            .bind(new.workflow_id.get())
            .bind(new.signatory_id.map(SignatoryId::get))
            .bind(new.kind)
            .bind(new.name)
            .bind(new.description)
            .bind(new.blob_key)
            .bind(new.sha256)
            .bind(new.size_bytes)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.workflow_event(
                WorkflowEventKind::AttachmentAdded,
                format!("attachment:{id}"),
                json!({"kind": new.kind, "name": new.name, "sha256": new.sha256}),
            );
            append_event!(self, tx, new.tenant_id, new.workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(AttachmentId::from(id))
        })
    }

    /// The workflow's attachments, oldest first.
    pub async fn attachments(&self, workflow: &WorkflowRow) -> Result<Vec<AttachmentRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, signatory_id, kind, name, description, blob_key, sha256, size_bytes, created_at \
                 FROM workflow_attachments WHERE workflow_id = $1 ORDER BY id",
            )
            .bind(workflow.id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// One attachment of a workflow.
    pub async fn attachment(&self, workflow: &WorkflowRow, id: AttachmentId) -> Result<Option<AttachmentRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, signatory_id, kind, name, description, blob_key, sha256, size_bytes, created_at \
                 FROM workflow_attachments WHERE workflow_id = $1 AND id = $2",
            )
            .bind(workflow.id.get())
            .bind(id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }
}
