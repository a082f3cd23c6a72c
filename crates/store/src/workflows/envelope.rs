//! The envelope: a workflow's creation with its documents, signatories and initiator's
//! attachments in one transaction; reading and listing; the row lock every transition takes
//! first; state changes (`set_workflow_state!`), links between workflows and the certificate.

use serde_json::json;
use signet_domain::audit::GENESIS_HASH;
use signet_domain::audit::{Actor, WorkflowEventKind};
use signet_domain::workflow::{DocumentState, WorkflowState};
use signet_domain::workflow_settings::WorkflowSettings;
use signet_domain::{DocumentId, Error, Lang, Millis, PrincipalId, TemplateId, TenantId, WorkflowId, now_millis};

use super::events::append_event;
use super::participation::{NewWorkflowAttachment, insert_initiator_attachments};
use super::row::{WORKFLOW_COLUMNS, WorkflowRow, lock_workflow};
use super::signatories::{NewSignatory, SignatoryRow, insert_signatories};
use crate::{Result, Store, db_err, on_db};

pub struct NewWorkflow<'a> {
    pub tenant_id: TenantId,
    pub template_id: Option<TemplateId>,
    pub name: &'a str,
    pub reference_no: Option<&'a str>,
    pub workflow_type: i64,
    pub settings: WorkflowSettings,
    pub reminder_every_days: Option<i64>,
    pub expires_at: Option<Millis>,
    pub linked_ids: Vec<WorkflowId>,
    pub document_ids: Vec<DocumentId>,
    pub signatories: Vec<NewSignatory>,
    pub link_expires_at: Millis,
    /// The initiator's attachments, whose files are already in the blob store: their rows are
    /// written in the workflow's transaction, so a workflow is created whole or not at all.
    pub attachments: Vec<NewWorkflowAttachment>,
    /// Stamp papers reserved for this workflow's document, allocated to it in its creation
    /// transaction (`crate::stamps`).
    pub stamps: Option<crate::stamps::StampClaim>,
    /// The language of the signer pages and e-mails, when the sender chose one.
    pub signer_lang: Option<Lang>,
}

/// A created workflow with its signatories (ids settled).
#[derive(Debug, Clone)]
pub struct CreatedWorkflow {
    pub workflow: WorkflowRow,
    pub signatories: Vec<SignatoryRow>,
}

/// Sets a workflow's state and records the event `workflow.<state>`; the caller checked
/// `may_become` under the row lock. Completion also stamps `completed_at`.
macro_rules! set_workflow_state {
    ($store:expr, $tx:expr, $workflow:expr, $next:expr, $reason:expr, $actor:expr) => {{
        let workflow: &$crate::workflows::WorkflowRow = $workflow;
        let next: signet_domain::workflow::WorkflowState = $next;
        let reason: Option<&str> = $reason;
        let now = signet_domain::now_millis();
        // Stamp papers of a workflow that ends without completing go back to stock or retire.
        if workflow.state() == signet_domain::workflow::WorkflowState::InProgress
            && next != signet_domain::workflow::WorkflowState::Completed
        {
            $crate::stamps::end_workflow_stamps!($store, $tx, workflow, $actor);
        }
        sqlx::query(
            "UPDATE workflows SET state = $2, state_reason = $3, updated_at = $4, \
             completed_at = CASE WHEN $2 = $5 THEN $4 ELSE completed_at END, \
             ended_at = CASE WHEN $6 THEN $4 ELSE ended_at END WHERE id = $1",
        )
        .bind(workflow.id.get())
        .bind(next.as_str())
        .bind(reason)
        .bind(now)
        .bind(signet_domain::workflow::WorkflowState::Completed.as_str())
        // What a retention period counts from (signet_domain::retention).
        .bind(signet_domain::retention::ended(next).is_some())
        .execute(&mut *$tx)
        .await
        .map_err($crate::db_err)?;
        let kind = signet_domain::audit::WorkflowEventKind::became(next).ok_or_else(|| workflow.state().refuse(next))?;
        let event = $actor.workflow_event(
            kind,
            format!("workflow:{}", workflow.id),
            serde_json::json!({"reason": reason}),
        );
        $crate::workflows::events::append_event!($store, $tx, workflow.tenant_id, workflow.id, &event);
    }};
}
pub(super) use set_workflow_state;

/// Binds a new workflow's documents in their order; each must be the tenant's, active and in
/// no workflow yet (the guarded update refuses anything else, so no separate check can race).
macro_rules! bind_documents {
    ($tx:expr, $new:expr, $workflow_id:expr, $now:expr) => {{
        let new: &NewWorkflow<'_> = $new;
        for (position, document_id) in new.document_ids.iter().enumerate() {
            let bound = sqlx::query(
                "UPDATE documents SET workflow_id = $1, position = $2, updated_at = $3 \
                 WHERE id = $4 AND tenant_id = $5 AND workflow_id IS NULL AND state = $6",
            )
            .bind(signet_domain::WorkflowId::get($workflow_id))
            .bind(position as i64)
            .bind($now)
            .bind(document_id.get())
            .bind(new.tenant_id.get())
            .bind(DocumentState::Active.as_str())
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if bound != 1 {
                return Err(Error::field(
                    "documentIds",
                    format!("document {document_id} does not exist, is inactive or already belongs to a workflow"),
                ));
            }
        }
    }};
}

impl Store {
    /// Creates the workflow, binds its documents (each must be the tenant's, active and not yet
    /// in a workflow), records the initiator's attachments, creates the signatories and
    /// notifies the first group, all in one transaction.
    pub async fn create_workflow(&self, new: &NewWorkflow<'_>, actor: &Actor) -> Result<CreatedWorkflow> {
        let now = now_millis();
        let first_order = new.signatories.iter().map(|s| s.planned.signing_order).min().unwrap_or(1);
        let insert_workflow = format!(
            "INSERT INTO workflows (tenant_id, template_id, name, reference_no, workflow_type, state, current_order, \
             settings, reminder_every_days, expires_at, linked_ids, created_by, event_head, created_at, updated_at, signer_lang) \
             VALUES ($1, $2, $3, $4, $5, $14, $6, $7, $8, $9, $10, $11, $12, $13, $13, $15) \
             RETURNING {WORKFLOW_COLUMNS}"
        );
        let settings = serde_json::to_string(&new.settings)?;
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            // On SQLite the insert's trigger reads the search's FTS5 tables (migration 0051)
            // before it writes, so the transaction reads first: it takes the write lock before
            // that, or a writer committing in between fails it at once ("database is locked").
            // PostgreSQL has no such upgrade, and creations in one organisation stay parallel.
            if matches!(self.backend(), crate::Backend::Sqlite) {
                crate::chain::lock_tenant!(tx, new.tenant_id);
            }
            let workflow: WorkflowRow = sqlx::query_as(sqlx::AssertSqlSafe(insert_workflow.as_str()))
                .bind(new.tenant_id.get())
                .bind(new.template_id.map(TemplateId::get))
                .bind(new.name)
                .bind(new.reference_no)
                .bind(new.workflow_type)
                .bind(first_order)
                .bind(&settings)
                .bind(new.reminder_every_days)
                .bind(new.expires_at)
                .bind(serde_json::to_string(&new.linked_ids).unwrap_or_else(|_| "[]".into()))
                .bind(&actor.id)
                .bind(GENESIS_HASH)
                .bind(now)
                .bind(WorkflowState::InProgress.as_str())
                .bind(new.signer_lang.map(Lang::code))
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            bind_documents!(tx, new, workflow.id, now);
            let created = actor.workflow_event(
                WorkflowEventKind::WorkflowCreated,
                format!("workflow:{}", workflow.id),
                json!({"name": new.name, "documents": new.document_ids, "signatories": new.signatories.len()}),
            );
            append_event!(self, tx, new.tenant_id, workflow.id, &created);
            insert_initiator_attachments!(self, tx, new.tenant_id, &new.attachments, workflow.id, actor, now);
            if let Some(claim) = &new.stamps {
                crate::stamps::claim_stamps!(self, tx, new.tenant_id, workflow.id, claim, actor, now);
            }
            let signatories = insert_signatories!(self, tx, new.tenant_id, &new.signatories, new.link_expires_at, workflow.id, first_order, actor, now);
            let workflow = lock_workflow!(tx, new.tenant_id, workflow.id);
            let audit = actor.event("workflow.created", format!("workflow:{}", workflow.id), json!({"name": new.name}));
            crate::append_audit!(self, tx, new.tenant_id, &audit);
            tx.commit().await.map_err(db_err)?;
            Ok(CreatedWorkflow { workflow, signatories })
        })
    }

    /// A workflow of the tenant (another tenant's id is simply not found): the only way to a
    /// `WorkflowRow`, which the finders of the workflow's children take.
    pub async fn workflow(&self, tenant_id: TenantId, id: WorkflowId) -> Result<Option<WorkflowRow>> {
        let sql = format!("SELECT {WORKFLOW_COLUMNS} FROM workflows WHERE tenant_id = $1 AND id = $2");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// A page of the tenant's workflows, newest first, optionally in one state or matching a
    /// name or reference.
    ///
    /// The search text is looked for in the name, the reference and the signatories' names and
    /// addresses (a loan officer searches by the borrower). A substring cannot use a b-tree
    /// (issue 38, migration 0051): on PostgreSQL the matching ids come from the trigram GIN
    /// indexes (the same SQL scans where pg_trgm is missing); on SQLite, for three characters
    /// or more, from the FTS5 trigram tables, narrowed then by the exact condition below.
    pub async fn workflows(
        &self,
        tenant_id: TenantId,
        state: Option<&str>,
        search: Option<&str>,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<WorkflowRow>, i64)> {
        let pattern = search.map(signet_domain::paging::contains_pattern);
        let exact = "(lower(name) LIKE $3 ESCAPE '\\' OR lower(coalesce(reference_no, '')) LIKE $3 ESCAPE '\\' \
                 OR EXISTS (SELECT 1 FROM signatories s WHERE s.workflow_id = workflows.id \
                            AND (lower(s.name) LIKE $3 ESCAPE '\\' OR lower(s.email) LIKE $3 ESCAPE '\\')))";
        // SQLite's trigram phrase: the text in double quotes (doubled inside), any substring.
        let phrase = match self.backend() {
            crate::Backend::Sqlite => search
                .map(str::to_lowercase)
                .filter(|text| text.chars().count() >= 3)
                .map(|text| format!("\"{}\"", text.replace('"', "\"\""))),
            crate::Backend::Postgres => None,
        };
        let matching = match (search.is_some(), self.backend(), phrase.is_some()) {
            // No search: the pattern is NULL (each form names every parameter it is given).
            (false, _, _) => " AND $3 IS NULL".to_string(),
            // `+tenant_id` keeps SQLite from walking the tenant's index in id order: the ids
            // the trigram tables give drive the lookup.
            (true, crate::Backend::Sqlite, true) => format!(
                " AND +tenant_id = $1 AND id IN (SELECT rowid FROM workflow_search WHERE workflow_search MATCH $5 \
                  AND tenant_id = $1 UNION SELECT workflow_id FROM signatory_search WHERE signatory_search MATCH $5 \
                  AND tenant_id = $1) AND {exact}"
            ),
            (true, crate::Backend::Sqlite, false) => format!(" AND {exact}"),
            (true, crate::Backend::Postgres, _) => " AND id IN (SELECT id FROM workflows WHERE tenant_id = $1 \
                 AND (lower(name) LIKE $3 OR lower(coalesce(reference_no, '')) LIKE $3) \
                 UNION SELECT workflow_id FROM signatories WHERE tenant_id = $1 \
                 AND (lower(name) LIKE $3 OR lower(email) LIKE $3))"
                .to_string(),
        };
        let filter = format!("tenant_id = $1 AND ($2 IS NULL OR state = $2) AND state <> $4{matching}");
        let (limit_at, offset_at) = if phrase.is_some() { (6, 7) } else { (5, 6) };
        let list = format!(
            "SELECT {WORKFLOW_COLUMNS} FROM workflows WHERE {filter} ORDER BY id DESC LIMIT ${limit_at} OFFSET ${offset_at}"
        );
        let count = format!("SELECT COUNT(*) FROM workflows WHERE {filter}");
        on_db!(self, pool => {
            let mut rows = sqlx::query_as(sqlx::AssertSqlSafe(list.as_str()))
                .bind(tenant_id.get())
                .bind(state)
                .bind(&pattern)
                .bind(WorkflowState::Deleted.as_str());
            if let Some(phrase) = &phrase {
                rows = rows.bind(phrase);
            }
            let rows: Vec<WorkflowRow> = rows.bind(limit).bind(offset).fetch_all(pool).await.map_err(db_err)?;
            let mut total = sqlx::query_as(sqlx::AssertSqlSafe(count.as_str()))
                .bind(tenant_id.get())
                .bind(state)
                .bind(&pattern)
                .bind(WorkflowState::Deleted.as_str());
            if let Some(phrase) = &phrase {
                total = total.bind(phrase);
            }
            let (total,): (i64,) = total.fetch_one(pool).await.map_err(db_err)?;
            Ok((rows, total))
        })
    }

    /// How many of the tenant's workflows are in each state (deleted ones left out), for the
    /// console's dashboard.
    pub async fn workflow_counts(&self, tenant_id: TenantId) -> Result<Vec<(WorkflowState, i64)>> {
        let sql = "SELECT state, COUNT(*) FROM workflows WHERE tenant_id = $1 AND state <> $2 GROUP BY state";
        let rows: Vec<(String, i64)> = on_db!(self, pool => {
            sqlx::query_as(sql)
                .bind(tenant_id.get())
                .bind(WorkflowState::Deleted.as_str())
                .fetch_all(pool)
                .await
                .map_err(db_err)?
        });
        rows.into_iter()
            .map(|(state, count)| {
                let state =
                    WorkflowState::parse(&state).ok_or_else(|| Error::internal(format!("workflow state {state:?}")))?;
                Ok((state, count))
            })
            .collect()
    }

    /// Whether `id` is an enabled user of the tenant, and their e-mail address.
    pub async fn tenant_user_email(&self, tenant_id: TenantId, id: PrincipalId) -> Result<Option<String>> {
        on_db!(self, pool => {
            let row: Option<(Option<String>,)> = sqlx::query_as(
                "SELECT email FROM principals WHERE tenant_id = $1 AND id = $2 AND kind = 'user' AND status = 'active'",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)?;
            Ok(row.and_then(|(email,)| email))
        })
    }

    /// Moves a workflow to `next` (inactive, deleted, expired) if its state allows it.
    pub async fn change_workflow_state(
        &self,
        tenant_id: TenantId,
        workflow_id: WorkflowId,
        next: WorkflowState,
        reason: Option<&str>,
        actor: &Actor,
    ) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, tenant_id, workflow_id);
            if !workflow.state().may_become(next) {
                return Err(workflow.state().refuse(next));
            }
            set_workflow_state!(self, tx, &workflow, next, reason, actor);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Deletes a workflow: its state and its documents' become `deleted` (the caller removes
    /// the files after this commits). Answers the blob keys to remove.
    pub async fn delete_workflow(
        &self,
        tenant_id: TenantId,
        workflow_id: WorkflowId,
        actor: &Actor,
    ) -> Result<Vec<String>> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, tenant_id, workflow_id);
            if !workflow.state().may_become(WorkflowState::Deleted) {
                return Err(workflow.state().refuse(WorkflowState::Deleted));
            }
            let blobs: Vec<(String, String)> = sqlx::query_as(
                "UPDATE documents SET state = $3, updated_at = $2 WHERE workflow_id = $1 RETURNING original_blob, current_blob",
            )
            .bind(workflow_id.get())
            .bind(now_millis())
            .bind(DocumentState::Deleted.as_str())
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err)?;
            set_workflow_state!(self, tx, &workflow, WorkflowState::Deleted, None, actor);
            tx.commit().await.map_err(db_err)?;
            let mut keys: Vec<String> = blobs.into_iter().flat_map(|(a, b)| [a, b]).collect();
            keys.dedup();
            Ok(keys)
        })
    }

    /// Replaces the set of workflows linked to this one (all must be the tenant's).
    pub async fn set_linked_workflows(
        &self,
        tenant_id: TenantId,
        workflow_id: WorkflowId,
        linked: &[WorkflowId],
        actor: &Actor,
    ) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let _workflow = lock_workflow!(tx, tenant_id, workflow_id);
            for id in linked {
                let found: Option<(i64,)> =
                    sqlx::query_as("SELECT id FROM workflows WHERE tenant_id = $1 AND id = $2 AND state <> $3")
                        .bind(tenant_id.get())
                        .bind(id.get())
                        .bind(WorkflowState::Deleted.as_str())
                        .fetch_optional(&mut *tx)
                        .await
                        .map_err(db_err)?;
                if found.is_none() {
                    return Err(Error::not_found("linked workflow"));
                }
            }
            let json = serde_json::to_string(linked).map_err(Error::internal)?;
            sqlx::query("UPDATE workflows SET linked_ids = $2, updated_at = $3 WHERE id = $1")
                .bind(workflow_id.get())
                .bind(&json)
                .bind(now_millis())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.workflow_event(WorkflowEventKind::WorkflowLinked, format!("workflow:{workflow_id}"), json!({"linkedWorkflowIds": linked}));
            append_event!(self, tx, tenant_id, workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Records the completion certificate's blob (once).
    pub async fn set_certificate(&self, workflow: &WorkflowRow, blob_key: &str) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("UPDATE workflows SET certificate_blob = $2 WHERE id = $1 AND certificate_blob IS NULL")
                .bind(workflow.id.get())
                .bind(blob_key)
                .execute(pool)
                .await
                .map_err(db_err)?;
            Ok(())
        })
    }
}
