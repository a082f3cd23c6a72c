//! Workflows, their documents and signatories, and each workflow's own hash-chained event log.
//! Every change that a workflow's participants or integrators can observe appends an event in
//! the same transaction and enqueues a `workflow.event` job, from which e-mails and webhooks
//! are sent (so they survive restarts and run once across instances).

use serde_json::json;
use signet_domain::audit::{AuditEntry, AuditEvent, GENESIS_HASH};
use signet_domain::workflow::{PlannedSignatory, Progress, SignatoryState, WorkflowState, progress};
use signet_domain::{Error, ErrorCode, Millis, now_millis};

use crate::{Result, Store, db_err, on_db};

/// The job kind that carries a workflow event to e-mail and webhook delivery.
pub const WORKFLOW_EVENT_JOB: &str = "workflow.event";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DocumentRow {
    pub id: i64,
    pub tenant_id: i64,
    pub workflow_id: Option<i64>,
    pub position: i64,
    pub name: String,
    pub category_id: Option<i64>,
    pub reference_no: Option<String>,
    pub state: String,
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

const DOCUMENT_COLUMNS: &str = "id, tenant_id, workflow_id, position, name, category_id, reference_no, state, \
    state_reason, original_blob, original_sha256, size_bytes, page_count, current_blob, current_sha256, version, \
    created_by, created_at, updated_at";

pub struct NewDocument<'a> {
    pub tenant_id: i64,
    pub name: &'a str,
    pub category_id: Option<i64>,
    pub reference_no: Option<&'a str>,
    pub blob_key: &'a str,
    pub sha256: &'a str,
    pub size_bytes: i64,
    pub page_count: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TemplateRow {
    pub id: i64,
    pub tenant_id: i64,
    pub name: String,
    pub description: Option<String>,
    pub definition: String,
    pub created_by: String,
    pub created_at: Millis,
    pub updated_at: Millis,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WorkflowRow {
    pub id: i64,
    pub tenant_id: i64,
    pub template_id: Option<i64>,
    pub name: String,
    pub reference_no: Option<String>,
    pub workflow_type: i64,
    pub state: String,
    pub state_reason: Option<String>,
    pub current_order: i64,
    pub settings: String,
    pub reminder_every_days: Option<i64>,
    pub expires_at: Option<Millis>,
    pub linked_ids: String,
    pub category_id: Option<i64>,
    pub created_by: String,
    pub certificate_blob: Option<String>,
    pub created_at: Millis,
    pub updated_at: Millis,
    pub completed_at: Option<Millis>,
}

const WORKFLOW_COLUMNS: &str = "id, tenant_id, template_id, name, reference_no, workflow_type, state, state_reason, \
    current_order, settings, reminder_every_days, expires_at, linked_ids, category_id, created_by, certificate_blob, \
    created_at, updated_at, completed_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SignatoryRow {
    pub id: i64,
    pub tenant_id: i64,
    pub workflow_id: i64,
    pub subscriber_id: i64,
    pub email: String,
    pub name: String,
    pub signing_order: i64,
    pub state: String,
    pub link_version: i64,
    pub link_expires_at: Millis,
    pub placement: String,
    pub delegated_from: Option<i64>,
    pub reason: Option<String>,
    pub method: Option<String>,
    pub notified_at: Option<Millis>,
    pub viewed_at: Option<Millis>,
    pub signed_at: Option<Millis>,
    pub last_reminded_at: Option<Millis>,
    pub created_at: Millis,
    pub updated_at: Millis,
}

impl SignatoryRow {
    pub fn state(&self) -> SignatoryState {
        SignatoryState::parse(&self.state).unwrap_or(SignatoryState::Pending)
    }
}

impl WorkflowRow {
    pub fn state(&self) -> WorkflowState {
        WorkflowState::parse(&self.state).unwrap_or(WorkflowState::Deleted)
    }
}

const SIGNATORY_COLUMNS: &str = "id, tenant_id, workflow_id, subscriber_id, email, name, signing_order, state, \
    link_version, link_expires_at, placement, delegated_from, reason, method, notified_at, viewed_at, signed_at, \
    last_reminded_at, created_at, updated_at";

/// A signatory to create, with where their signature goes.
pub struct NewSignatory {
    pub planned: PlannedSignatory,
    pub placement: serde_json::Value,
}

pub struct NewWorkflow<'a> {
    pub tenant_id: i64,
    pub template_id: Option<i64>,
    pub name: &'a str,
    pub reference_no: Option<&'a str>,
    pub workflow_type: i64,
    pub settings: serde_json::Value,
    pub reminder_every_days: Option<i64>,
    pub expires_at: Option<Millis>,
    pub linked_ids: Vec<i64>,
    pub document_ids: Vec<i64>,
    pub signatories: Vec<NewSignatory>,
    pub link_expires_at: Millis,
    /// The initiator's attachments, whose files are already in the blob store: their rows are
    /// written in the workflow's transaction, so a workflow is created whole or not at all.
    pub attachments: Vec<NewWorkflowAttachment>,
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

/// A created workflow with its signatories (ids settled).
#[derive(Debug, Clone)]
pub struct CreatedWorkflow {
    pub workflow: WorkflowRow,
    pub signatories: Vec<SignatoryRow>,
}

pub struct NewAttachment<'a> {
    pub tenant_id: i64,
    pub workflow_id: i64,
    pub signatory_id: Option<i64>,
    /// `initiator`, `requested` or `signer`.
    pub kind: &'a str,
    pub name: &'a str,
    pub description: Option<&'a str>,
    pub blob_key: Option<&'a str>,
    pub sha256: Option<&'a str>,
    pub size_bytes: Option<i64>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AttachmentRow {
    pub id: i64,
    pub signatory_id: Option<i64>,
    pub kind: String,
    pub name: String,
    pub description: Option<String>,
    pub blob_key: Option<String>,
    pub sha256: Option<String>,
    pub size_bytes: Option<i64>,
    pub created_at: Millis,
}

/// A new version of one of the workflow's documents, produced from `base_version`.
pub struct SignedVersion<'a> {
    pub document_id: i64,
    pub base_version: i64,
    pub blob_key: &'a str,
    pub sha256: &'a str,
}

/// What a signature changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterSignature {
    /// Others still sign; these signatories were notified now (the next group).
    Continuing { notified: Vec<i64> },
    /// That was the last signature.
    Completed,
}

/// Who acts on a workflow and from where, with the request's browser details.
#[derive(Debug, Clone)]
pub struct WorkflowActor {
    pub id: String,
    pub ip: Option<String>,
}

impl WorkflowActor {
    fn event(&self, action: &str, target: String, detail: serde_json::Value) -> AuditEvent {
        AuditEvent { actor: self.id.clone(), action: action.to_string(), target, ip: self.ip.clone(), detail }
    }
}

/// Appends to the workflow's chain inside an open transaction and enqueues the event's job.
/// The first statement takes the workflow row's lock (PostgreSQL) or the write lock (SQLite).
macro_rules! append_event {
    ($tx:expr, $tenant_id:expr, $workflow_id:expr, $event:expr) => {{
        let workflow_id: i64 = $workflow_id;
        let tenant_id: i64 = $tenant_id;
        let event: &AuditEvent = $event;
        let (seq, prev_hash): (i64, String) = sqlx::query_as(
            "UPDATE workflows SET event_seq = event_seq + 1 WHERE id = $1 RETURNING event_seq, event_head",
        )
        .bind(workflow_id)
        .fetch_one(&mut *$tx)
        .await
        .map_err(db_err)?;
        let entry = crate::chain_entry(workflow_id, seq, prev_hash, event);
        sqlx::query(
            "INSERT INTO workflow_events (workflow_id, seq, at, actor, action, target, ip, detail, prev_hash, hash) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(workflow_id)
        .bind(entry.seq)
        .bind(entry.at)
        .bind(&entry.actor)
        .bind(&entry.action)
        .bind(&entry.target)
        .bind(&entry.ip)
        .bind(&entry.detail)
        .bind(&entry.prev_hash)
        .bind(&entry.hash)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
        sqlx::query("UPDATE workflows SET event_head = $2 WHERE id = $1")
            .bind(workflow_id)
            .bind(&entry.hash)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
        let payload = json!({
            "tenantId": tenant_id,
            "workflowId": workflow_id,
            "seq": entry.seq,
            "type": &entry.action,
            "target": &entry.target,
            "at": entry.at,
        });
        sqlx::query(
            "INSERT INTO jobs (kind, payload, dedupe_key, state, run_at, max_attempts, created_at) \
             VALUES ($1, $2, $3, 'ready', $4, 5, $4)",
        )
        .bind(WORKFLOW_EVENT_JOB)
        .bind(payload.to_string())
        .bind(format!("{WORKFLOW_EVENT_JOB}:{workflow_id}:{}", entry.seq))
        .bind(entry.at)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
    }};
}

/// Reads the workflow and takes its row lock (PostgreSQL) or the write lock (SQLite): the
/// no-op update works as `SELECT ... FOR UPDATE` on both.
macro_rules! lock_workflow {
    ($tx:expr, $tenant_id:expr, $id:expr) => {{
        let sql = format!(
            "UPDATE workflows SET updated_at = updated_at WHERE tenant_id = $1 AND id = $2 RETURNING {WORKFLOW_COLUMNS}"
        );
        let row: Option<WorkflowRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind($tenant_id)
            .bind($id)
            .fetch_optional(&mut *$tx)
            .await
            .map_err(db_err)?;
        row.ok_or_else(not_found_workflow)?
    }};
}

/// Sets a workflow's state and records the event `workflow.<state>`.
macro_rules! set_workflow_state {
    ($tx:expr, $workflow:expr, $next:expr, $reason:expr, $actor:expr) => {{
        let workflow: &WorkflowRow = $workflow;
        let next: WorkflowState = $next;
        let reason: Option<&str> = $reason;
        let now = now_millis();
        sqlx::query(
            "UPDATE workflows SET state = $2, state_reason = $3, updated_at = $4, \
             completed_at = CASE WHEN $2 = 'completed' THEN $4 ELSE completed_at END WHERE id = $1",
        )
        .bind(workflow.id)
        .bind(next.as_str())
        .bind(reason)
        .bind(now)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
        let event = $actor.event(
            &format!("workflow.{}", next.as_str()),
            format!("workflow:{}", workflow.id),
            json!({"reason": reason}),
        );
        append_event!($tx, workflow.tenant_id, workflow.id, &event);
    }};
}

/// After a signature: notifies the next group, or completes the workflow.
macro_rules! advance {
    ($tx:expr, $workflow:expr) => {{
        let workflow: &WorkflowRow = $workflow;
        let system = WorkflowActor { id: "system".into(), ip: None };
        let states: Vec<(i64, String)> =
            sqlx::query_as("SELECT signing_order, state FROM signatories WHERE workflow_id = $1")
                .bind(workflow.id)
                .fetch_all(&mut *$tx)
                .await
                .map_err(db_err)?;
        let states: Vec<(i64, SignatoryState)> = states
            .into_iter()
            .map(|(order, state)| (order, SignatoryState::parse(&state).unwrap_or(SignatoryState::Pending)))
            .collect();
        match progress(&states) {
            Progress::Complete => {
                set_workflow_state!($tx, workflow, WorkflowState::Completed, None, system);
                AfterSignature::Completed
            }
            Progress::Declined => AfterSignature::Continuing { notified: Vec::new() },
            Progress::Group(order) => {
                let now = now_millis();
                let woken: Vec<(i64, String, String)> = sqlx::query_as(
                    "UPDATE signatories SET state = 'notified', notified_at = $3, updated_at = $3 \
                     WHERE workflow_id = $1 AND signing_order = $2 AND state = 'pending' RETURNING id, email, name",
                )
                .bind(workflow.id)
                .bind(order)
                .bind(now)
                .fetch_all(&mut *$tx)
                .await
                .map_err(db_err)?;
                sqlx::query("UPDATE workflows SET current_order = $2 WHERE id = $1")
                    .bind(workflow.id)
                    .bind(order)
                    .execute(&mut *$tx)
                    .await
                    .map_err(db_err)?;
                for (id, email, name) in &woken {
                    let event = system.event(
                        "signatory.notified",
                        format!("signatory:{id}"),
                        json!({"email": email, "name": name, "signingOrder": order}),
                    );
                    append_event!($tx, workflow.tenant_id, workflow.id, &event);
                }
                AfterSignature::Continuing { notified: woken.into_iter().map(|(id, _, _)| id).collect() }
            }
        }
    }};
}

fn not_found_workflow() -> Error {
    Error::not_found("workflow")
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
             VALUES ($1, $2, $3, $4, 'active', $5, $6, $7, $8, $5, $6, $9, $10, $10) RETURNING {DOCUMENT_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: DocumentRow = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(new.tenant_id)
                .bind(new.name)
                .bind(new.category_id)
                .bind(new.reference_no)
                .bind(new.blob_key)
                .bind(new.sha256)
                .bind(new.size_bytes)
                .bind(new.page_count)
                .bind(&actor.id)
                .bind(now)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.event(
                "document.uploaded",
                format!("document:{}", row.id),
                json!({"name": new.name, "sha256": new.sha256, "pages": new.page_count}),
            );
            crate::append_audit!(tx, new.tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// A document of the tenant (another tenant's id is simply not found).
    pub async fn document(&self, tenant_id: i64, id: i64) -> Result<Option<DocumentRow>> {
        let sql = format!("SELECT {DOCUMENT_COLUMNS} FROM documents WHERE tenant_id = $1 AND id = $2");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id).bind(id).fetch_optional(pool).await.map_err(db_err)
        })
    }

    /// The workflow's documents in their order.
    pub async fn workflow_documents(&self, workflow_id: i64) -> Result<Vec<DocumentRow>> {
        let sql = format!("SELECT {DOCUMENT_COLUMNS} FROM documents WHERE workflow_id = $1 ORDER BY position, id");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(workflow_id).fetch_all(pool).await.map_err(db_err)
        })
    }

    pub async fn create_template(
        &self,
        tenant_id: i64,
        name: &str,
        description: Option<&str>,
        definition: &serde_json::Value,
        actor: &signet_domain::audit::Actor,
    ) -> Result<TemplateRow> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: TemplateRow = sqlx::query_as(
                "INSERT INTO templates (tenant_id, name, description, definition, created_by, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $6) \
                 RETURNING id, tenant_id, name, description, definition, created_by, created_at, updated_at",
            )
            .bind(tenant_id)
            .bind(name)
            .bind(description)
            .bind(definition.to_string())
            .bind(&actor.id)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event("template.created", format!("template:{}", row.id), json!({"name": name}));
            crate::append_audit!(tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    pub async fn template(&self, tenant_id: i64, id: i64) -> Result<Option<TemplateRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, tenant_id, name, description, definition, created_by, created_at, updated_at \
                 FROM templates WHERE tenant_id = $1 AND id = $2",
            )
            .bind(tenant_id)
            .bind(id)
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Whether `id` is an enabled user of the tenant, and their e-mail address.
    pub async fn tenant_user_email(&self, tenant_id: i64, id: i64) -> Result<Option<String>> {
        on_db!(self, pool => {
            let row: Option<(Option<String>,)> = sqlx::query_as(
                "SELECT email FROM principals WHERE tenant_id = $1 AND id = $2 AND kind = 'user' AND NOT disabled",
            )
            .bind(tenant_id)
            .bind(id)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?;
            Ok(row.and_then(|(email,)| email))
        })
    }

    /// Creates the workflow, binds its documents (each must be the tenant's, active and not yet
    /// in a workflow), creates the signatories and notifies the first group, all at once.
    pub async fn create_workflow(&self, new: &NewWorkflow<'_>, actor: &WorkflowActor) -> Result<CreatedWorkflow> {
        let now = now_millis();
        let first_order = new.signatories.iter().map(|s| s.planned.signing_order).min().unwrap_or(1);
        let insert_workflow = format!(
            "INSERT INTO workflows (tenant_id, template_id, name, reference_no, workflow_type, state, current_order, \
             settings, reminder_every_days, expires_at, linked_ids, created_by, event_head, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, 'in_progress', $6, $7, $8, $9, $10, $11, $12, $13, $13) \
             RETURNING {WORKFLOW_COLUMNS}"
        );
        let insert_signatory = format!(
            "INSERT INTO signatories (tenant_id, workflow_id, subscriber_id, email, name, signing_order, state, \
             link_expires_at, placement, notified_at, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING {SIGNATORY_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow: WorkflowRow = sqlx::query_as(sqlx::AssertSqlSafe(insert_workflow.as_str()))
                .bind(new.tenant_id)
                .bind(new.template_id)
                .bind(new.name)
                .bind(new.reference_no)
                .bind(new.workflow_type)
                .bind(first_order)
                .bind(new.settings.to_string())
                .bind(new.reminder_every_days)
                .bind(new.expires_at)
                .bind(serde_json::to_string(&new.linked_ids).unwrap_or_else(|_| "[]".into()))
                .bind(&actor.id)
                .bind(GENESIS_HASH)
                .bind(now)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            for (position, document_id) in new.document_ids.iter().enumerate() {
                let bound = sqlx::query(
                    "UPDATE documents SET workflow_id = $1, position = $2, updated_at = $3 \
                     WHERE id = $4 AND tenant_id = $5 AND workflow_id IS NULL AND state = 'active'",
                )
                .bind(workflow.id)
                .bind(position as i64)
                .bind(now)
                .bind(document_id)
                .bind(new.tenant_id)
                .execute(&mut *tx)
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
            let created = actor.event(
                "workflow.created",
                format!("workflow:{}", workflow.id),
                json!({"name": new.name, "documents": new.document_ids, "signatories": new.signatories.len()}),
            );
            append_event!(tx, new.tenant_id, workflow.id, &created);
            for a in &new.attachments {
                let (id,): (i64,) = sqlx::query_as(
                    "INSERT INTO workflow_attachments (tenant_id, workflow_id, signatory_id, kind, name, description, \
                     blob_key, sha256, size_bytes, created_at) VALUES ($1, $2, NULL, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
                )
                .bind(new.tenant_id)
                .bind(workflow.id)
                .bind(a.kind)
                .bind(&a.name)
                .bind(&a.description)
                .bind(&a.blob_key)
                .bind(&a.sha256)
                .bind(a.size_bytes)
                .bind(now)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
                let event = actor.event(
                    "attachment.added",
                    format!("attachment:{id}"),
                    json!({"kind": a.kind, "name": &a.name, "sha256": &a.sha256}),
                );
                append_event!(tx, new.tenant_id, workflow.id, &event);
            }
            let mut signatories = Vec::with_capacity(new.signatories.len());
            for s in &new.signatories {
                let first = s.planned.signing_order == first_order;
                let state = if first { SignatoryState::Notified } else { SignatoryState::Pending };
                let row: SignatoryRow = sqlx::query_as(sqlx::AssertSqlSafe(insert_signatory.as_str()))
                    .bind(new.tenant_id)
                    .bind(workflow.id)
                    .bind(s.planned.subscriber_id)
                    .bind(&s.planned.email)
                    .bind(&s.planned.name)
                    .bind(s.planned.signing_order)
                    .bind(state.as_str())
                    .bind(new.link_expires_at)
                    .bind(s.placement.to_string())
                    .bind(first.then_some(now))
                    .bind(now)
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(db_err)?;
                if first {
                    let notified = actor.event(
                        "signatory.notified",
                        format!("signatory:{}", row.id),
                        json!({"email": &row.email, "name": &row.name, "signingOrder": row.signing_order}),
                    );
                    append_event!(tx, new.tenant_id, workflow.id, &notified);
                }
                signatories.push(row);
            }
            let workflow = lock_workflow!(tx, new.tenant_id, workflow.id);
            let audit = actor.event("workflow.created", format!("workflow:{}", workflow.id), json!({"name": new.name}));
            crate::append_audit!(tx, new.tenant_id, &audit);
            tx.commit().await.map_err(db_err)?;
            Ok(CreatedWorkflow { workflow, signatories })
        })
    }

    pub async fn workflow(&self, tenant_id: i64, id: i64) -> Result<Option<WorkflowRow>> {
        let sql = format!("SELECT {WORKFLOW_COLUMNS} FROM workflows WHERE tenant_id = $1 AND id = $2");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id).bind(id).fetch_optional(pool).await.map_err(db_err)
        })
    }

    /// A page of the tenant's workflows, newest first, optionally in one state or matching a
    /// name or reference.
    pub async fn workflows(
        &self,
        tenant_id: i64,
        state: Option<&str>,
        search: Option<&str>,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<WorkflowRow>, i64)> {
        let pattern = search.map(signet_domain::paging::contains_pattern);
        let filter = "tenant_id = $1 AND ($2 IS NULL OR state = $2) AND state <> 'deleted' \
            AND ($3 IS NULL OR lower(name) LIKE $3 ESCAPE '\\' OR lower(coalesce(reference_no, '')) LIKE $3 ESCAPE '\\')";
        let list =
            format!("SELECT {WORKFLOW_COLUMNS} FROM workflows WHERE {filter} ORDER BY id DESC LIMIT $4 OFFSET $5");
        let count = format!("SELECT COUNT(*) FROM workflows WHERE {filter}");
        on_db!(self, pool => {
            let rows: Vec<WorkflowRow> = sqlx::query_as(sqlx::AssertSqlSafe(list.as_str()))
                .bind(tenant_id)
                .bind(state)
                .bind(&pattern)
                .bind(limit)
                .bind(offset)
                .fetch_all(pool)
                .await
                .map_err(db_err)?;
            let (total,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(count.as_str()))
                .bind(tenant_id)
                .bind(state)
                .bind(&pattern)
                .fetch_one(pool)
                .await
                .map_err(db_err)?;
            Ok((rows, total))
        })
    }

    pub async fn signatories(&self, workflow_id: i64) -> Result<Vec<SignatoryRow>> {
        let sql =
            format!("SELECT {SIGNATORY_COLUMNS} FROM signatories WHERE workflow_id = $1 ORDER BY signing_order, id");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(workflow_id).fetch_all(pool).await.map_err(db_err)
        })
    }

    /// A signatory by id, with their workflow (for the signer page, which has no tenant yet).
    pub async fn signatory(&self, id: i64) -> Result<Option<(SignatoryRow, WorkflowRow)>> {
        let sql = format!("SELECT {SIGNATORY_COLUMNS} FROM signatories WHERE id = $1");
        let row: Option<SignatoryRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(id).fetch_optional(pool).await.map_err(db_err)?
        });
        let Some(row) = row else { return Ok(None) };
        let workflow = self.workflow(row.tenant_id, row.workflow_id).await?.ok_or_else(not_found_workflow)?;
        Ok(Some((row, workflow)))
    }

    /// Records that the signatory opened the page (notified -> viewed); a no-op otherwise.
    pub async fn mark_viewed(
        &self,
        signatory: &SignatoryRow,
        actor: &WorkflowActor,
        detail: serde_json::Value,
    ) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let changed = sqlx::query(
                "UPDATE signatories SET state = 'viewed', viewed_at = $2, updated_at = $2 WHERE id = $1 AND state = 'notified'",
            )
            .bind(signatory.id)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed == 1 {
                let event = actor.event("signatory.viewed", format!("signatory:{}", signatory.id), detail);
                append_event!(tx, signatory.tenant_id, signatory.workflow_id, &event);
            }
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Records a signature: the signatory must still be due, each document must still be at the
    /// version the signature was made on (a concurrent signer of the same group makes this
    /// fail with `Conflict`, and the caller signs the newer version). Then the next group is
    /// notified, or the workflow completes.
    pub async fn record_signature(
        &self,
        signatory: &SignatoryRow,
        versions: &[SignedVersion<'_>],
        method: &str,
        actor: &WorkflowActor,
        detail: serde_json::Value,
    ) -> Result<AfterSignature> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            // Lock the workflow first, so that the group's progress is decided by one signer at a time.
            let workflow = lock_workflow!(tx, signatory.tenant_id, signatory.workflow_id);
            if workflow.state() != WorkflowState::InProgress {
                return Err(Error::rejected(ErrorCode::StateConflict, format!("the workflow is {}", workflow.state)));
            }
            let changed = sqlx::query(
                "UPDATE signatories SET state = 'signed', signed_at = $2, method = $3, updated_at = $2 \
                 WHERE id = $1 AND state IN ('notified', 'viewed') AND link_expires_at > $2",
            )
            .bind(signatory.id)
            .bind(now)
            .bind(method)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed != 1 {
                return Err(Error::rejected(ErrorCode::StateConflict, "this signatory cannot sign now"));
            }
            for v in versions {
                let advanced = sqlx::query(
                    "UPDATE documents SET current_blob = $1, current_sha256 = $2, version = version + 1, updated_at = $3 \
                     WHERE id = $4 AND workflow_id = $5 AND version = $6",
                )
                .bind(v.blob_key)
                .bind(v.sha256)
                .bind(now)
                .bind(v.document_id)
                .bind(signatory.workflow_id)
                .bind(v.base_version)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?
                .rows_affected();
                if advanced != 1 {
                    return Err(Error::rejected(ErrorCode::Conflict, "the document changed while it was being signed"));
                }
            }
            let signed = actor.event("signatory.signed", format!("signatory:{}", signatory.id), detail);
            append_event!(tx, signatory.tenant_id, signatory.workflow_id, &signed);
            let after = advance!(tx, &workflow);
            tx.commit().await.map_err(db_err)?;
            Ok(after)
        })
    }

    /// The signatory declines: the workflow ends as declined.
    pub async fn decline(&self, signatory: &SignatoryRow, reason: &str, actor: &WorkflowActor) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, signatory.tenant_id, signatory.workflow_id);
            if !workflow.state().may_become(WorkflowState::Declined) {
                return Err(workflow.state().refuse(WorkflowState::Declined));
            }
            let changed = sqlx::query(
                "UPDATE signatories SET state = 'declined', reason = $3, updated_at = $2 \
                 WHERE id = $1 AND state IN ('notified', 'viewed')",
            )
            .bind(signatory.id)
            .bind(now)
            .bind(reason)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed != 1 {
                return Err(Error::rejected(ErrorCode::StateConflict, "this signatory cannot decline now"));
            }
            let event = actor.event("signatory.declined", format!("signatory:{}", signatory.id), json!({"reason": reason}));
            append_event!(tx, signatory.tenant_id, signatory.workflow_id, &event);
            set_workflow_state!(tx, &workflow, WorkflowState::Declined, Some(reason), actor);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Hands a signatory's place to someone else, who is notified at once with their own link;
    /// `max_delegations` limits how often one place may be handed on.
    #[allow(clippy::too_many_arguments)]
    pub async fn delegate(
        &self,
        signatory: &SignatoryRow,
        to_email: &str,
        to_name: &str,
        reason: &str,
        link_expires_at: Millis,
        actor: &WorkflowActor,
        max_delegations: Option<i64>,
    ) -> Result<SignatoryRow> {
        let now = now_millis();
        let insert = format!(
            "INSERT INTO signatories (tenant_id, workflow_id, subscriber_id, email, name, signing_order, state, \
             link_expires_at, placement, delegated_from, notified_at, created_at, updated_at) \
             VALUES ($1, $2, 0, $3, $4, $5, 'notified', $6, $7, $8, $9, $9, $9) RETURNING {SIGNATORY_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, signatory.tenant_id, signatory.workflow_id);
            if workflow.state() != WorkflowState::InProgress {
                return Err(Error::rejected(ErrorCode::StateConflict, format!("the workflow is {}", workflow.state)));
            }
            let taken: Option<(i64,)> = sqlx::query_as(
                "SELECT id FROM signatories WHERE workflow_id = $1 AND lower(email) = lower($2) \
                 AND state NOT IN ('delegated', 'declined')",
            )
            .bind(signatory.workflow_id)
            .bind(to_email)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            if taken.is_some() {
                return Err(Error::field("delegatedUserEmail", "this person already signs this workflow"));
            }
            if let Some(max) = max_delegations {
                // How often this place was handed on already: the chain of `delegated_from`.
                let mut handed_on = 0;
                let mut from = signatory.delegated_from;
                while let Some(id) = from {
                    handed_on += 1;
                    if handed_on >= max {
                        return Err(Error::rejected(
                            ErrorCode::LimitReached,
                            format!("a signature can be delegated at most {max} times"),
                        ));
                    }
                    let (previous,): (Option<i64>,) =
                        sqlx::query_as("SELECT delegated_from FROM signatories WHERE id = $1")
                            .bind(id)
                            .fetch_one(&mut *tx)
                            .await
                            .map_err(db_err)?;
                    from = previous;
                }
                if max <= 0 {
                    return Err(Error::rejected(ErrorCode::LimitReached, "delegation is not allowed"));
                }
            }
            let changed = sqlx::query(
                "UPDATE signatories SET state = 'delegated', reason = $3, updated_at = $2 \
                 WHERE id = $1 AND state IN ('notified', 'viewed')",
            )
            .bind(signatory.id)
            .bind(now)
            .bind(reason)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed != 1 {
                return Err(Error::rejected(ErrorCode::StateConflict, "this signatory cannot delegate now"));
            }
            let row: SignatoryRow = sqlx::query_as(sqlx::AssertSqlSafe(insert.as_str()))
                .bind(signatory.tenant_id)
                .bind(signatory.workflow_id)
                .bind(to_email)
                .bind(to_name)
                .bind(signatory.signing_order)
                .bind(link_expires_at)
                .bind(&signatory.placement)
                .bind(signatory.id)
                .bind(now)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            let delegated = actor.event(
                "signatory.delegated",
                format!("signatory:{}", signatory.id),
                json!({"to": to_email, "toSignatory": row.id, "reason": reason}),
            );
            append_event!(tx, signatory.tenant_id, signatory.workflow_id, &delegated);
            let notified = actor.event(
                "signatory.notified",
                format!("signatory:{}", row.id),
                json!({"email": &row.email, "name": &row.name, "signingOrder": row.signing_order}),
            );
            append_event!(tx, signatory.tenant_id, signatory.workflow_id, &notified);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// Revokes a signatory's link by bumping its version (every earlier link stops working)
    /// and sets a new expiry; when it is the signatory's turn a `signatory.reminded` event
    /// follows, which e-mails them the new link if the workflow sends e-mail.
    pub async fn rotate_signer_link(
        &self,
        tenant_id: i64,
        workflow_id: i64,
        signatory_id: i64,
        link_expires_at: Millis,
        actor: &WorkflowActor,
    ) -> Result<SignatoryRow> {
        let now = now_millis();
        let sql = format!(
            "UPDATE signatories SET link_version = link_version + 1, link_expires_at = $4, updated_at = $5 \
             WHERE id = $1 AND workflow_id = $2 AND tenant_id = $3 RETURNING {SIGNATORY_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, tenant_id, workflow_id);
            if workflow.state() != WorkflowState::InProgress {
                return Err(Error::rejected(ErrorCode::StateConflict, format!("the workflow is {}", workflow.state)));
            }
            let row: Option<SignatoryRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(signatory_id)
                .bind(workflow_id)
                .bind(tenant_id)
                .bind(link_expires_at)
                .bind(now)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            let row = row.ok_or_else(|| Error::not_found("signatory"))?;
            if row.state().is_final() {
                return Err(Error::rejected(ErrorCode::StateConflict, "this signatory has nothing left to do"));
            }
            let subject = format!("signatory:{}", row.id);
            let revoked = actor.event("signatory.link_revoked", subject.clone(), json!({"linkVersion": row.link_version}));
            append_event!(tx, tenant_id, workflow_id, &revoked);
            if row.state().is_turn() {
                let resent = actor.event("signatory.reminded", subject, json!({"newLink": true}));
                append_event!(tx, tenant_id, workflow_id, &resent);
            }
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// Moves a workflow to `next` (inactive, deleted, expired) if its state allows it.
    pub async fn change_workflow_state(
        &self,
        tenant_id: i64,
        workflow_id: i64,
        next: WorkflowState,
        reason: Option<&str>,
        actor: &WorkflowActor,
    ) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, tenant_id, workflow_id);
            if !workflow.state().may_become(next) {
                return Err(workflow.state().refuse(next));
            }
            set_workflow_state!(tx, &workflow, next, reason, actor);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Records the completion certificate's blob (once).
    pub async fn set_certificate(&self, workflow_id: i64, blob_key: &str) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("UPDATE workflows SET certificate_blob = $2 WHERE id = $1 AND certificate_blob IS NULL")
                .bind(workflow_id)
                .bind(blob_key)
                .execute(pool)
                .await
                .map_err(db_err)?;
            Ok(())
        })
    }

    /// Appends an event that changes no state (a comment, an attachment, a download).
    pub async fn record_workflow_event(
        &self,
        tenant_id: i64,
        workflow_id: i64,
        action: &str,
        target: String,
        detail: serde_json::Value,
        actor: &WorkflowActor,
    ) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let event = actor.event(action, target, detail);
            append_event!(tx, tenant_id, workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The workflow's event chain in order.
    pub async fn workflow_events(&self, workflow_id: i64) -> Result<Vec<AuditEntry>> {
        let rows: Vec<crate::EntryRow> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT seq, at, actor, action, target, ip, detail, prev_hash, hash FROM workflow_events \
                 WHERE workflow_id = $1 ORDER BY seq",
            )
            .bind(workflow_id)
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        Ok(rows.into_iter().map(crate::entry_from_row).collect())
    }

    /// A comment on one of the workflow's documents, recorded in its chain.
    pub async fn add_comment(
        &self,
        tenant_id: i64,
        workflow_id: i64,
        document_id: i64,
        comment: &str,
        actor: &WorkflowActor,
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
                .bind(workflow_id)
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
            .bind(tenant_id)
            .bind(document_id)
            .bind(&actor.id)
            .bind(comment)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event("document.commented", format!("document:{document_id}"), json!({"comment": comment}));
            append_event!(tx, tenant_id, workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(id)
        })
    }

    /// Comments on a document, oldest first: (author, comment, at).
    pub async fn comments(&self, document_id: i64) -> Result<Vec<(String, String, Millis)>> {
        on_db!(self, pool => {
            sqlx::query_as("SELECT author, comment, created_at FROM document_comments WHERE document_id = $1 ORDER BY id")
                .bind(document_id)
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
        actor: &WorkflowActor,
        max_per_signatory: Option<i64>,
    ) -> Result<i64> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            if let (Some(max), Some(signatory_id)) = (max_per_signatory, new.signatory_id) {
                lock_workflow!(tx, new.tenant_id, new.workflow_id);
                let (count,): (i64,) =
                    sqlx::query_as("SELECT COUNT(*) FROM workflow_attachments WHERE workflow_id = $1 AND signatory_id = $2")
                        .bind(new.workflow_id)
                        .bind(signatory_id)
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
            .bind(new.tenant_id)
            .bind(new.workflow_id)
            .bind(new.signatory_id)
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
            let event = actor.event(
                "attachment.added",
                format!("attachment:{id}"),
                json!({"kind": new.kind, "name": new.name, "sha256": new.sha256}),
            );
            append_event!(tx, new.tenant_id, new.workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(id)
        })
    }

    pub async fn attachments(&self, workflow_id: i64) -> Result<Vec<AttachmentRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, signatory_id, kind, name, description, blob_key, sha256, size_bytes, created_at \
                 FROM workflow_attachments WHERE workflow_id = $1 ORDER BY id",
            )
            .bind(workflow_id)
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Replaces a document's current version outside a signature (the final time-stamp),
    /// only on top of the version `doc` was read at.
    pub async fn advance_document(
        &self,
        doc: &DocumentRow,
        blob_key: &str,
        sha256: &str,
        action: &str,
        actor: &WorkflowActor,
    ) -> Result<()> {
        let Some(workflow_id) = doc.workflow_id else { return Err(Error::not_found("workflow")) };
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let advanced = sqlx::query(
                "UPDATE documents SET current_blob = $1, current_sha256 = $2, version = version + 1, updated_at = $3 \
                 WHERE id = $4 AND version = $5",
            )
            .bind(blob_key)
            .bind(sha256)
            .bind(now)
            .bind(doc.id)
            .bind(doc.version)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if advanced != 1 {
                return Err(Error::rejected(ErrorCode::Conflict, "the document changed meanwhile"));
            }
            let event = actor.event(action, format!("document:{}", doc.id), json!({"sha256": sha256}));
            append_event!(tx, doc.tenant_id, workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Replaces the set of workflows linked to this one (all must be the tenant's).
    pub async fn set_linked_workflows(
        &self,
        tenant_id: i64,
        workflow_id: i64,
        linked: &[i64],
        actor: &WorkflowActor,
    ) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let _workflow = lock_workflow!(tx, tenant_id, workflow_id);
            for id in linked {
                let found: Option<(i64,)> =
                    sqlx::query_as("SELECT id FROM workflows WHERE tenant_id = $1 AND id = $2 AND state <> 'deleted'")
                        .bind(tenant_id)
                        .bind(id)
                        .fetch_optional(&mut *tx)
                        .await
                        .map_err(db_err)?;
                if found.is_none() {
                    return Err(Error::not_found("linked workflow"));
                }
            }
            let json = serde_json::to_string(linked).map_err(Error::internal)?;
            sqlx::query("UPDATE workflows SET linked_ids = $2, updated_at = $3 WHERE id = $1")
                .bind(workflow_id)
                .bind(&json)
                .bind(now_millis())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.event("workflow.linked", format!("workflow:{workflow_id}"), json!({"linkedWorkflowIds": linked}));
            append_event!(tx, tenant_id, workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Deletes a workflow: its state and its documents' become `deleted` (the caller removes
    /// the files after this commits). Answers the blob keys to remove.
    pub async fn delete_workflow(
        &self,
        tenant_id: i64,
        workflow_id: i64,
        actor: &WorkflowActor,
    ) -> Result<Vec<String>> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, tenant_id, workflow_id);
            if !workflow.state().may_become(WorkflowState::Deleted) {
                return Err(workflow.state().refuse(WorkflowState::Deleted));
            }
            let blobs: Vec<(String, String)> = sqlx::query_as(
                "UPDATE documents SET state = 'deleted', updated_at = $2 WHERE workflow_id = $1 RETURNING original_blob, current_blob",
            )
            .bind(workflow_id)
            .bind(now_millis())
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err)?;
            set_workflow_state!(tx, &workflow, WorkflowState::Deleted, None, actor);
            tx.commit().await.map_err(db_err)?;
            let mut keys: Vec<String> = blobs.into_iter().flat_map(|(a, b)| [a, b]).collect();
            keys.dedup();
            Ok(keys)
        })
    }

    /// Files a document (or, with `document_id` 0, the workflow) under a category.
    pub async fn set_category(
        &self,
        tenant_id: i64,
        workflow_id: i64,
        document_id: i64,
        category_id: i64,
        actor: &WorkflowActor,
    ) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let _workflow = lock_workflow!(tx, tenant_id, workflow_id);
            let changed = if document_id == 0 {
                sqlx::query("UPDATE workflows SET category_id = $2 WHERE id = $1").bind(workflow_id).bind(category_id).execute(&mut *tx).await
            } else {
                sqlx::query("UPDATE documents SET category_id = $3 WHERE id = $2 AND workflow_id = $1")
                    .bind(workflow_id)
                    .bind(document_id)
                    .bind(category_id)
                    .execute(&mut *tx)
                    .await
            }
            .map_err(db_err)?
            .rows_affected();
            if changed != 1 {
                return Err(Error::not_found("document"));
            }
            let event = actor.event("document.categorised", format!("document:{document_id}"), json!({"categoryId": category_id}));
            append_event!(tx, tenant_id, workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Marks a document inactive. Outside a workflow always; in a workflow in progress only when
    /// forced and another active document remains; never in an ended workflow.
    pub async fn deactivate_document(
        &self,
        tenant_id: i64,
        document_id: i64,
        reason: Option<&str>,
        force: bool,
        actor: &WorkflowActor,
    ) -> Result<()> {
        let Some(doc) = self.document(tenant_id, document_id).await?.filter(|d| d.state != "deleted") else {
            return Err(Error::not_found("document"));
        };
        if doc.state == "inactive" {
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
                    "SELECT COUNT(*) FROM documents WHERE workflow_id = $1 AND state = 'active' AND id <> $2",
                )
                .bind(workflow_id)
                .bind(document_id)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
                if others == 0 {
                    return Err(Error::rejected(ErrorCode::StateConflict, "the workflow's last active document cannot be made inactive"));
                }
                let event = actor.event("document.inactive", format!("document:{document_id}"), json!({"reason": reason}));
                append_event!(tx, tenant_id, workflow_id, &event);
            }
            sqlx::query("UPDATE documents SET state = 'inactive', state_reason = $2, updated_at = $3 WHERE id = $1")
                .bind(document_id)
                .bind(reason)
                .bind(now_millis())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Signatories due longer than their workflow's reminder interval since the last notice:
    /// each gets a `signatory.reminded` event (which mails them), at most `limit` at a time.
    pub async fn send_due_reminders(&self, now: Millis, limit: i64) -> Result<usize> {
        let due: Vec<(i64, i64, i64)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT s.tenant_id, s.workflow_id, s.id FROM signatories s JOIN workflows w ON w.id = s.workflow_id \
                 WHERE w.state = 'in_progress' AND w.reminder_every_days IS NOT NULL AND s.state IN ('notified', 'viewed') \
                 AND COALESCE(s.last_reminded_at, s.notified_at, s.created_at) + w.reminder_every_days * 86400000 < $1 \
                 ORDER BY s.id LIMIT $2",
            )
            .bind(now)
            .bind(limit)
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        let system = WorkflowActor { id: "system".into(), ip: None };
        for (tenant_id, workflow_id, signatory_id) in &due {
            on_db!(self, pool => {
                let mut tx = pool.begin().await.map_err(db_err)?;
                sqlx::query("UPDATE signatories SET last_reminded_at = $2 WHERE id = $1")
                    .bind(signatory_id)
                    .bind(now)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
                let event = system.event("signatory.reminded", format!("signatory:{signatory_id}"), json!({}));
                append_event!(tx, *tenant_id, *workflow_id, &event);
                tx.commit().await.map_err(db_err)?;
            });
        }
        Ok(due.len())
    }

    /// One attachment of a workflow.
    pub async fn attachment(&self, workflow_id: i64, id: i64) -> Result<Option<AttachmentRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, signatory_id, kind, name, description, blob_key, sha256, size_bytes, created_at \
                 FROM workflow_attachments WHERE workflow_id = $1 AND id = $2",
            )
            .bind(workflow_id)
            .bind(id)
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// A cached summary of a document's text (keyed by the text's source hash).
    pub async fn cached_summary(&self, document_id: i64, sha256: &str) -> Result<Option<String>> {
        on_db!(self, pool => {
            let row: Option<(String,)> = sqlx::query_as("SELECT summary FROM document_summaries WHERE document_id = $1 AND sha256 = $2")
                .bind(document_id)
                .bind(sha256)
                .fetch_optional(pool)
                .await
                .map_err(db_err)?;
            Ok(row.map(|(s,)| s))
        })
    }

    pub async fn cache_summary(&self, document_id: i64, sha256: &str, summary: &str) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO document_summaries (document_id, sha256, summary, created_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (document_id, sha256) DO NOTHING",
            )
            .bind(document_id)
            .bind(sha256)
            .bind(summary)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?;
            Ok(())
        })
    }

    /// Workflows in progress whose envelope expiry has passed.
    pub async fn overdue_workflows(&self, now: Millis, limit: i64) -> Result<Vec<(i64, i64)>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT tenant_id, id FROM workflows WHERE state = 'in_progress' AND expires_at IS NOT NULL \
                 AND expires_at < $1 ORDER BY expires_at LIMIT $2",
            )
            .bind(now)
            .bind(limit)
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }
}
