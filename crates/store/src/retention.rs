//! Retention periods, legal holds and erasure (`signet_domain::retention` holds the rules).
//!
//! Erasing is one transaction for a batch of workflows: each one's documents, attachments,
//! comments, summaries, verification pages, signer codes, eSign requests and event chain go;
//! its signatories' names, addresses and numbers and its own and its documents' names are
//! blanked; its row stays (`state = 'deleted'`, `erased_at` set), with the ids, hashes and
//! chain head that invoices, stamps and the organisation's audit chain still name. The one
//! tombstone the caller sealed for the batch is appended to the organisation's audit chain, and
//! a `blobs.erase` job is queued with the stored objects to delete, so that a crash after the
//! commit still deletes them.

use serde_json::json;
use signet_domain::audit::{Actor, AuditEvent};
use signet_domain::job::JobKind;
use signet_domain::retention::{Ended, RetentionPeriods, Standing};
use signet_domain::workflow::WorkflowState;
use signet_domain::{Error, Millis, TemplateId, TenantId, WorkflowId, now_millis};

use crate::chain::{append_audit, lock_tenant};
use crate::jobs::NewJob;
use crate::sales::insert_job;
use crate::workflows::row::{WORKFLOW_COLUMNS, WorkflowRow, lock_workflow};
use crate::{Result, Store, db_err, on_db};

/// An organisation's periods and its templates' overrides.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RetentionPolicies {
    pub organisation: RetentionPeriods,
    pub templates: Vec<(TemplateId, RetentionPeriods)>,
}

impl RetentionPolicies {
    /// The periods that apply to a workflow made from `template` (or from none).
    pub fn for_template(&self, template: Option<TemplateId>) -> RetentionPeriods {
        let own = template.and_then(|t| self.templates.iter().find(|(id, _)| *id == t));
        match own {
            Some((_, periods)) => periods.over(&self.organisation),
            None => self.organisation,
        }
    }
}

/// A legal hold on a workflow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoldRow {
    pub workflow_id: WorkflowId,
    pub reason: String,
    pub placed_by: String,
    pub placed_at: Millis,
}

/// What erasing workflows needs: the tombstone was sealed over the chain heads the caller
/// read, so the erasure is refused if one moved on since.
#[derive(Debug)]
pub struct WorkflowErasure<'a> {
    pub tenant_id: TenantId,
    /// Each workflow with the length of its event chain when its facts were read.
    pub workflows: &'a [(WorkflowId, i64)],
    /// Why, as the workflow's `state_reason` says it (`erased: retention`).
    pub reason: &'a str,
    pub tombstone: &'a AuditEvent,
}

/// A workflow's facts a tombstone states, read before erasing it.
#[derive(Debug, Clone)]
pub struct ErasureFacts {
    pub workflow: WorkflowRow,
    pub event_seq: i64,
    pub event_head: String,
    /// `(document id, SHA-256 of its last version)`.
    pub documents: Vec<(i64, String)>,
    pub ended_at: Option<Millis>,
    pub held: bool,
    pub erased: bool,
}

impl ErasureFacts {
    /// What the domain's retention rules decide on.
    pub fn standing(&self) -> Standing {
        Standing { state: self.workflow.state(), ended_at: self.ended_at, held: self.held }
    }
}

/// What an erasure request erased outside workflows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PersonRecords {
    pub bulk_rows: u64,
    pub leads: u64,
    pub referrals: u64,
    /// Lots whose signer address was blanked (every workflow of the lot erased).
    pub lots: u64,
}

/// `text` matched literally by `LIKE … ESCAPE '\'` (an address's `_` is not a wildcard).
fn like_escaped(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

/// A workflow with the marks erasure reads, in one row.
#[derive(sqlx::FromRow)]
struct FactsRow {
    #[sqlx(flatten)]
    workflow: WorkflowRow,
    event_seq: i64,
    event_head: String,
    ended_at: Option<i64>,
    hold_at: Option<i64>,
    erased_at: Option<i64>,
}

/// An erasure's stored objects, and the key of the `blobs.erase` job queued with the erasure
/// that deletes them should the caller not get to it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ObjectsToErase {
    pub blobs: BlobsToErase,
    pub job: String,
}

/// What the `blobs.erase` job deletes: single objects, and every object under each prefix.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BlobsToErase {
    pub keys: Vec<String>,
    pub prefixes: Vec<String>,
}

const ERASED_NAME: &str = "[erased]";
/// A bulk send's row once erased (the report shows the row's number, state and workflow).
const ERASED_ROW: &str = r#"{"erased":true}"#;
/// Workflows read or erased together, at most: one transaction and one tombstone.
pub const MAX_BATCH: usize = 100;
const ERASE_BLOB_ATTEMPTS: i64 = 20;
/// The `blobs.erase` job waits this long: the erasing process deletes the objects itself and
/// settles the job ([`Store::settle_erase_job`]); the job runs only if it did not.
const ERASE_BLOB_GRACE_MS: Millis = 5 * 60 * 1000;

fn days(value: Option<i64>) -> Option<u32> {
    value.and_then(|d| u32::try_from(d).ok())
}

/// A `retention_policies` row: template id (0: the organisation's), then the four periods.
type PolicyRow = (i64, Option<i64>, Option<i64>, Option<i64>, Option<i64>);

fn periods_of(row: PolicyRow) -> (i64, RetentionPeriods) {
    let periods = RetentionPeriods {
        completed_days: days(row.1),
        declined_days: days(row.2),
        expired_days: days(row.3),
        gateway_days: days(row.4),
    };
    (row.0, periods)
}

/// Ids as SQL list text (integers only, so nothing of it can be read as SQL), for `IN (...)`
/// over both backends without array binding.
fn id_list(ids: &[WorkflowId]) -> Result<String> {
    if ids.is_empty() || ids.len() > MAX_BATCH {
        return Err(Error::internal(format!("{} workflows in one batch (1 to {MAX_BATCH})", ids.len())));
    }
    Ok(ids.iter().map(|id| id.get().to_string()).collect::<Vec<_>>().join(", "))
}

fn ended_column(ended: Ended) -> &'static str {
    match ended {
        Ended::Completed => "completed_days",
        Ended::Declined => "declined_days",
        Ended::Expired => "expired_days",
    }
}

impl Store {
    /// The organisation's periods and its templates' (all `None` when never set).
    pub async fn retention_policies(&self, tenant_id: TenantId) -> Result<RetentionPolicies> {
        let rows: Vec<PolicyRow> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT template_id, completed_days, declined_days, expired_days, gateway_days \
                 FROM retention_policies WHERE tenant_id = $1 ORDER BY template_id",
            )
            .bind(tenant_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        let mut policies = RetentionPolicies::default();
        for row in rows {
            match periods_of(row) {
                (0, periods) => policies.organisation = periods,
                (template, periods) => policies.templates.push((TemplateId::from(template), periods)),
            }
        }
        Ok(policies)
    }

    /// Replaces the organisation's periods and its templates' (each template must be its own).
    pub async fn set_retention_policies(
        &self,
        tenant_id: TenantId,
        policies: &RetentionPolicies,
        actor: &Actor,
    ) -> Result<()> {
        let now = now_millis();
        let wide = |d: Option<u32>| d.map(i64::from);
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            lock_tenant!(tx, tenant_id);
            for (template, _) in &policies.templates {
                let found: Option<(i64,)> = sqlx::query_as("SELECT id FROM templates WHERE tenant_id = $1 AND id = $2")
                    .bind(tenant_id.get())
                    .bind(template.get())
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db_err)?;
                if found.is_none() {
                    return Err(Error::not_found("template"));
                }
            }
            sqlx::query("DELETE FROM retention_policies WHERE tenant_id = $1")
                .bind(tenant_id.get())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let rows = std::iter::once((0, &policies.organisation))
                .chain(policies.templates.iter().map(|(t, p)| (t.get(), p)));
            for (template, periods) in rows {
                sqlx::query(
                    "INSERT INTO retention_policies (tenant_id, template_id, completed_days, declined_days, \
                     expired_days, gateway_days, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(tenant_id.get())
                .bind(template)
                .bind(wide(periods.completed_days))
                .bind(wide(periods.declined_days))
                .bind(wide(periods.expired_days))
                .bind(wide(periods.gateway_days))
                .bind(&actor.id)
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            }
            let templates: Vec<_> = policies.templates.iter().map(|(t, p)| json!({"templateId": t, "periods": p})).collect();
            let event = actor.event(
                "retention.changed",
                format!("tenant:{tenant_id}"),
                json!({"periods": policies.organisation, "templates": templates}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Records a person's erasure request in the organisation's audit chain.
    pub async fn record_erasure_request(
        &self,
        tenant_id: TenantId,
        detail: serde_json::Value,
        actor: &Actor,
    ) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let event = actor.event("privacy.erasure_requested", format!("tenant:{tenant_id}"), detail);
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The organisations that set any period, for the sweep.
    pub async fn retention_tenants(&self) -> Result<Vec<TenantId>> {
        let rows: Vec<(i64,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT DISTINCT tenant_id FROM retention_policies ORDER BY tenant_id")
                .fetch_all(pool)
                .await
                .map_err(db_err)?
        });
        Ok(rows.into_iter().map(|(id,)| TenantId::from(id)).collect())
    }

    /// Up to `limit` workflows of the organisation that ended in `ended`, after `after`, not
    /// held nor erased, whose period (their template's, else `organisation_days`) is over at
    /// `now`. The sweep checks each again with the domain's rule before it erases it.
    pub async fn due_workflows(
        &self,
        tenant_id: TenantId,
        ended: Ended,
        organisation_days: Option<u32>,
        now: Millis,
        after: i64,
        limit: i64,
    ) -> Result<Vec<WorkflowId>> {
        let column = ended_column(ended);
        let sql = format!(
            "SELECT w.id FROM workflows w LEFT JOIN retention_policies t \
             ON t.tenant_id = w.tenant_id AND t.template_id = w.template_id AND w.template_id IS NOT NULL \
             WHERE w.tenant_id = $1 AND w.state = $2 AND w.erased_at IS NULL AND w.hold_at IS NULL AND w.id > $3 \
             AND w.ended_at + {day} * COALESCE(t.{column}, $4) <= $5 ORDER BY w.id LIMIT $6",
            day = signet_domain::retention::DAY_MS,
        );
        let rows: Vec<(i64,)> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(ended.state().as_str())
                .bind(after)
                .bind(organisation_days.map(i64::from))
                .bind(now)
                .bind(limit)
                .fetch_all(pool)
                .await
                .map_err(db_err)?
        });
        Ok(rows.into_iter().map(|(id,)| WorkflowId::from(id)).collect())
    }

    /// The workflows of the organisation in which `email` (any case) or `mobile` is a
    /// signatory, newest first, at most `limit`, erased ones left out.
    pub async fn workflows_of_person(
        &self,
        tenant_id: TenantId,
        email: Option<&str>,
        mobile: Option<&str>,
        limit: i64,
    ) -> Result<Vec<WorkflowRow>> {
        let columns = WORKFLOW_COLUMNS.split(", ").map(|c| format!("w.{c}")).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT {columns} FROM workflows w WHERE w.tenant_id = $1 AND w.erased_at IS NULL AND w.id IN \
             (SELECT s.workflow_id FROM signatories s WHERE s.tenant_id = $1 \
              AND ((CAST($2 AS TEXT) IS NOT NULL AND lower(s.email) = lower($2)) \
                OR (CAST($3 AS TEXT) IS NOT NULL AND s.mobile = $3))) \
             ORDER BY w.id DESC LIMIT $4"
        );
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(email)
                .bind(mobile)
                .bind(limit)
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }

    /// What a tombstone of each workflow states, and whether it may still be erased; the
    /// organisation's workflows among `ids` (at most [`MAX_BATCH`]), in the order of `ids`.
    pub async fn erasure_facts(&self, tenant_id: TenantId, ids: &[WorkflowId]) -> Result<Vec<ErasureFacts>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = id_list(ids)?;
        let rows_sql = format!(
            "SELECT {WORKFLOW_COLUMNS}, event_seq, event_head, ended_at, hold_at, erased_at FROM workflows \
             WHERE tenant_id = $1 AND id IN ({list})"
        );
        let documents_sql = format!(
            "SELECT workflow_id, id, current_sha256 FROM documents WHERE tenant_id = $1 AND workflow_id IN ({list}) \
             ORDER BY workflow_id, position, id"
        );
        let (rows, documents) = on_db!(self, pool => {
            let rows: Vec<FactsRow> = sqlx::query_as(sqlx::AssertSqlSafe(rows_sql.as_str()))
                .bind(tenant_id.get())
                .fetch_all(pool)
                .await
                .map_err(db_err)?;
            let documents: Vec<(i64, i64, String)> = sqlx::query_as(sqlx::AssertSqlSafe(documents_sql.as_str()))
                .bind(tenant_id.get())
                .fetch_all(pool)
                .await
                .map_err(db_err)?;
            (rows, documents)
        });
        let mut facts = Vec::with_capacity(ids.len());
        for id in ids {
            let Some(row) = rows.iter().find(|r| r.workflow.id == *id) else {
                continue;
            };
            facts.push(ErasureFacts {
                workflow: row.workflow.clone(),
                event_seq: row.event_seq,
                event_head: row.event_head.clone(),
                documents: documents.iter().filter(|d| d.0 == id.get()).map(|d| (d.1, d.2.clone())).collect(),
                ended_at: row.ended_at,
                held: row.hold_at.is_some(),
                erased: row.erased_at.is_some(),
            });
        }
        Ok(facts)
    }

    /// Erases workflows of the organisation in one transaction (module doc), behind one
    /// tombstone. When any of them may not be erased now (held, still being signed, already
    /// erased, or changed since its facts were read), nothing changes and the answer names
    /// them (`Err`), so that the caller seals a tombstone without them and tries again.
    pub async fn erase_workflows(
        &self,
        erasure: &WorkflowErasure<'_>,
    ) -> Result<std::result::Result<ObjectsToErase, Vec<WorkflowId>>> {
        let tenant_id = erasure.tenant_id;
        let ids: Vec<WorkflowId> = erasure.workflows.iter().map(|(id, _)| *id).collect();
        let list = id_list(&ids)?;
        let now = now_millis();
        let lock_sql = format!(
            "UPDATE workflows SET updated_at = updated_at WHERE tenant_id = $1 AND id IN ({list}) \
             RETURNING id, state, event_seq, hold_at, erased_at, certificate_blob"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            type Locked = (i64, String, i64, Option<i64>, Option<i64>, Option<String>);
            let locked: Vec<Locked> = sqlx::query_as(sqlx::AssertSqlSafe(lock_sql.as_str()))
                .bind(tenant_id.get())
                .fetch_all(&mut *tx)
                .await
                .map_err(db_err)?;
            let refused: Vec<WorkflowId> = erasure
                .workflows
                .iter()
                .filter(|(id, expect_seq)| {
                    !locked.iter().any(|(lid, state, seq, hold, erased, _)| {
                        *lid == id.get()
                            && state.as_str() != WorkflowState::InProgress.as_str()
                            && seq == expect_seq
                            && hold.is_none()
                            && erased.is_none()
                    })
                })
                .map(|(id, _)| *id)
                .collect();
            if !refused.is_empty() {
                return Ok(Err(refused));
            }
            let tenant = tenant_id.get();
            let mut blobs = BlobsToErase::default();
            let documents_sql = format!("SELECT id, original_blob, current_blob FROM documents WHERE workflow_id IN ({list})");
            let documents: Vec<(i64, String, String)> =
                sqlx::query_as(sqlx::AssertSqlSafe(documents_sql.as_str())).fetch_all(&mut *tx).await.map_err(db_err)?;
            for (id, original, current) in documents {
                blobs.keys.extend([original, current]);
                blobs.prefixes.push(format!("tenant/{tenant}/documents/{id}"));
            }
            let signatories_sql = format!("SELECT id FROM signatories WHERE workflow_id IN ({list})");
            let signatories: Vec<(i64,)> =
                sqlx::query_as(sqlx::AssertSqlSafe(signatories_sql.as_str())).fetch_all(&mut *tx).await.map_err(db_err)?;
            blobs.prefixes.extend(signatories.iter().map(|(id,)| format!("tenant/{tenant}/signatories/{id}")));
            blobs.prefixes.extend(ids.iter().map(|id| format!("tenant/{tenant}/workflows/{id}")));
            blobs.keys.extend(locked.into_iter().filter_map(|l| l.5));
            let more_keys = [
                format!("SELECT blob_key FROM workflow_attachments WHERE workflow_id IN ({list}) AND blob_key IS NOT NULL"),
                format!(
                    "SELECT pending_blob FROM esign_transactions WHERE signatory_id IN \
                     (SELECT id FROM signatories WHERE workflow_id IN ({list}))"
                ),
            ];
            for sql in more_keys {
                let keys: Vec<(String,)> =
                    sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).fetch_all(&mut *tx).await.map_err(db_err)?;
                blobs.keys.extend(keys.into_iter().map(|(k,)| k));
            }
            blobs.keys.sort();
            blobs.keys.dedup();

            let documents_of = format!("SELECT id FROM documents WHERE workflow_id IN ({list})");
            let signatories_of = format!("SELECT id FROM signatories WHERE workflow_id IN ({list})");
            let statements = [
                format!("DELETE FROM workflow_events WHERE workflow_id IN ({list})"),
                format!("DELETE FROM workflow_attachments WHERE workflow_id IN ({list})"),
                format!("DELETE FROM document_comments WHERE document_id IN ({documents_of})"),
                format!("DELETE FROM document_summaries WHERE document_id IN ({documents_of})"),
                format!("DELETE FROM document_verifications WHERE document_id IN ({documents_of})"),
                format!("DELETE FROM signer_codes WHERE signatory_id IN ({signatories_of})"),
                format!("DELETE FROM esign_transactions WHERE signatory_id IN ({signatories_of})"),
                format!(
                    "UPDATE signatories SET email = '', name = '', mobile = NULL, reason = NULL, placement = '{{}}' \
                     WHERE workflow_id IN ({list})"
                ),
                format!(
                    "DELETE FROM webhook_delivery_attempts WHERE tenant_id = {tenant} AND delivery_id IN \
                     (SELECT id FROM webhook_deliveries WHERE tenant_id = {tenant} AND workflow_id IN ({list}))"
                ),
                format!("DELETE FROM webhook_deliveries WHERE tenant_id = {tenant} AND workflow_id IN ({list})"),
                format!(
                    "UPDATE bulk_job_items SET input = '{ERASED_ROW}' WHERE result_ref IN ({texts}) AND job_id IN \
                     (SELECT id FROM bulk_jobs WHERE tenant_id = {tenant} AND kind = 'bulk_send')",
                    texts = ids.iter().map(|id| format!("'{id}'")).collect::<Vec<_>>().join(", "),
                ),
            ];
            for sql in statements {
                sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).execute(&mut *tx).await.map_err(db_err)?;
            }
            let documents = format!(
                "UPDATE documents SET name = $1, reference_no = NULL, state = 'deleted', state_reason = 'erased', \
                 updated_at = $2 WHERE workflow_id IN ({list})"
            );
            sqlx::query(sqlx::AssertSqlSafe(documents.as_str()))
                .bind(ERASED_NAME)
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let workflows = format!(
                "UPDATE workflows SET name = $1, reference_no = NULL, settings = '{{}}', linked_ids = '[]', \
                 certificate_blob = NULL, state = $2, state_reason = $3, erased_at = $4, updated_at = $4 \
                 WHERE tenant_id = $5 AND id IN ({list})"
            );
            sqlx::query(sqlx::AssertSqlSafe(workflows.as_str()))
                .bind(ERASED_NAME)
                .bind(WorkflowState::Deleted.as_str())
                .bind(erasure.reason)
                .bind(now)
                .bind(tenant)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            append_audit!(self, tx, tenant_id, erasure.tombstone);
            let first = ids.first().map_or(0, |id| id.get());
            let job = erase_blobs_job(tenant_id, format!("workflows:{first}:{now}"), &blobs)?;
            insert_job!(tx, &job);
            tx.commit().await.map_err(db_err)?;
            Ok(Ok(ObjectsToErase { blobs, job: job.dedupe_key.unwrap_or_default() }))
        })
    }

    /// Erases what names a person outside workflows, in the organisation: bulk-send rows that
    /// made no workflow (failed or skipped) and mention the address or a number, and sales
    /// leads and referrals with the address or a number. `numbers` are the forms a number may
    /// be kept in. Answers how many of each.
    pub async fn erase_person_records(
        &self,
        tenant_id: TenantId,
        email: Option<&str>,
        numbers: &[String],
    ) -> Result<PersonRecords> {
        let tenant = tenant_id.get();
        let email = email.map(str::to_lowercase);
        let mut needles: Vec<String> = email.iter().cloned().collect();
        needles.extend(numbers.iter().cloned());
        let mut erased = PersonRecords::default();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            lock_tenant!(tx, tenant_id);
            for needle in &needles {
                erased.bulk_rows += sqlx::query(
                    "UPDATE bulk_job_items SET input = $3 WHERE state IN ('failed', 'skipped') \
                     AND lower(input) LIKE $2 ESCAPE '\\' \
                     AND job_id IN (SELECT id FROM bulk_jobs WHERE tenant_id = $1 AND kind = 'bulk_send')",
                )
                .bind(tenant)
                .bind(format!("%{}%", like_escaped(needle)))
                .bind(ERASED_ROW)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?
                .rows_affected();
            }
            let mut keys: Vec<(Option<&str>, Option<&str>)> = numbers.iter().map(|n| (None, Some(n.as_str()))).collect();
            keys.extend(email.as_deref().map(|e| (Some(e), None)));
            // Each statement with each key: (address, none) or (none, number).
            let statements = [
                "DELETE FROM crm_leads WHERE tenant_id = $1 AND (email_key = $2 OR mobile = $3)",
                "DELETE FROM referrals WHERE tenant_id = $1 AND (referral_email_key = $2 OR lower(referrer_email) = $2 \
                 OR referral_mobile = $3 OR referrer_mobile = $3)",
            ];
            for (email_key, mobile) in keys {
                for (sql, count) in statements.iter().zip([&mut erased.leads, &mut erased.referrals]) {
                    *count += sqlx::query(*sql)
                        .bind(tenant)
                        .bind(email_key)
                        .bind(mobile)
                        .execute(&mut *tx)
                        .await
                        .map_err(db_err)?
                        .rows_affected();
                }
            }
            if let Some(email) = &email {
                // A lot names its one signer; once every workflow of it is erased, nothing
                // kept needs the address (a lot with a kept workflow keeps it, as that does).
                erased.lots = sqlx::query(
                    "UPDATE lots SET signer_email = '' WHERE tenant_id = $1 AND lower(signer_email) = $2 \
                     AND NOT EXISTS (SELECT 1 FROM lot_workflows lw JOIN workflows w ON w.id = lw.workflow_id \
                     WHERE lw.lot_id = lots.id AND w.erased_at IS NULL)",
                )
                .bind(tenant)
                .bind(email)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?
                .rows_affected();
            }
            tx.commit().await.map_err(db_err)?;
            Ok(erased)
        })
    }

    /// Marks an erasure's `blobs.erase` job done before it ran: the erasing process deleted
    /// the objects itself.
    pub async fn settle_erase_job(&self, job: &str) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query("UPDATE jobs SET state = 'done', finished_at = $2 WHERE dedupe_key = $1 AND state = 'ready'")
                .bind(job)
                .bind(now)
                .execute(pool)
                .await
                .map_err(db_err)?;
            Ok(())
        })
    }

    /// Places (or replaces the reason of) a legal hold on a workflow of the organisation.
    pub async fn place_hold(
        &self,
        tenant_id: TenantId,
        workflow_id: WorkflowId,
        reason: &str,
        actor: &Actor,
    ) -> Result<HoldRow> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, tenant_id, workflow_id);
            // An erased workflow is deleted too (`erase_workflows`).
            if workflow.state() == WorkflowState::Deleted {
                return Err(Error::not_found("workflow"));
            }
            sqlx::query("UPDATE workflows SET hold_reason = $2, hold_by = $3, hold_at = $4 WHERE id = $1")
                .bind(workflow_id.get())
                .bind(reason)
                .bind(&actor.id)
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.event("workflow.hold_placed", format!("workflow:{workflow_id}"), json!({"reason": reason}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(HoldRow { workflow_id, reason: reason.to_string(), placed_by: actor.id.clone(), placed_at: now })
        })
    }

    /// Releases a workflow's legal hold; not found when there is none.
    pub async fn release_hold(&self, tenant_id: TenantId, workflow_id: WorkflowId, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let _workflow = lock_workflow!(tx, tenant_id, workflow_id);
            let released = sqlx::query(
                "UPDATE workflows SET hold_reason = NULL, hold_by = NULL, hold_at = NULL WHERE id = $1 AND hold_at IS NOT NULL",
            )
            .bind(workflow_id.get())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if released == 0 {
                return Err(Error::not_found("legal hold"));
            }
            let event = actor.event("workflow.hold_released", format!("workflow:{workflow_id}"), json!({}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The organisation's legal holds by workflow id, after `after`, at most `limit`.
    pub async fn holds(&self, tenant_id: TenantId, after: i64, limit: i64) -> Result<Vec<HoldRow>> {
        let rows: Vec<(i64, String, String, i64)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, hold_reason, hold_by, hold_at FROM workflows \
                 WHERE tenant_id = $1 AND hold_at IS NOT NULL AND id > $2 ORDER BY id LIMIT $3",
            )
            .bind(tenant_id.get())
            .bind(after)
            .bind(limit)
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        Ok(rows
            .into_iter()
            .map(|(id, reason, placed_by, placed_at)| HoldRow {
                workflow_id: WorkflowId::from(id),
                reason,
                placed_by,
                placed_at,
            })
            .collect())
    }

    /// Up to `limit` finished gateway transactions of the organisation last changed at or
    /// before `before`, not yet erased.
    pub async fn due_transactions(&self, tenant_id: TenantId, before: Millis, limit: i64) -> Result<Vec<String>> {
        let rows: Vec<(String,)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT transaction_number FROM gateway_transactions WHERE tenant_id = $1 \
                 AND state IN ('completed', 'failed', 'cancelled', 'expired') AND updated_at <= $2 \
                 AND erased_at IS NULL ORDER BY id LIMIT $3",
            )
            .bind(tenant_id.get())
            .bind(before)
            .bind(limit)
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        Ok(rows.into_iter().map(|(n,)| n).collect())
    }

    /// Erases finished gateway transactions of the organisation: their request (the signer's
    /// details), session key, document and result go, their number, reference and outcome stay
    /// (a reused reference is still refused); the tombstone is appended. Answers what was erased.
    pub async fn erase_transactions(
        &self,
        tenant_id: TenantId,
        numbers: &[String],
        tombstone: &AuditEvent,
    ) -> Result<ObjectsToErase> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            lock_tenant!(tx, tenant_id);
            let mut blobs = BlobsToErase::default();
            for number in numbers {
                let row: Option<(Option<String>, Option<String>)> = sqlx::query_as(
                    "SELECT payload_blob, result_blob FROM gateway_transactions WHERE tenant_id = $1 \
                     AND transaction_number = $2 AND erased_at IS NULL AND state IN ('completed', 'failed', 'cancelled', 'expired')",
                )
                .bind(tenant_id.get())
                .bind(number)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
                if row.is_some() {
                    sqlx::query(
                        "UPDATE gateway_transactions SET request_json = '{}', session_key = $2, error_message = NULL, \
                         payload_blob = NULL, result_blob = NULL, result_expires_at = NULL, erased_at = $3, updated_at = $3 \
                         WHERE transaction_number = $1",
                    )
                    .bind(number)
                    .bind(Vec::<u8>::new())
                    .bind(now)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
                }
                let Some((payload, result)) = row else { continue };
                blobs.keys.extend(payload.into_iter().chain(result));
                let pending: Vec<(String,)> =
                    sqlx::query_as("DELETE FROM esign_transactions WHERE gateway_transaction = $1 RETURNING pending_blob")
                        .bind(number)
                        .fetch_all(&mut *tx)
                        .await
                        .map_err(db_err)?;
                blobs.keys.extend(pending.into_iter().map(|(k,)| k));
            }
            append_audit!(self, tx, tenant_id, tombstone);
            let dedupe = format!("gateway:{}", numbers.first().map(String::as_str).unwrap_or_default());
            let job = erase_blobs_job(tenant_id, dedupe, &blobs)?;
            insert_job!(tx, &job);
            tx.commit().await.map_err(db_err)?;
            Ok(ObjectsToErase { blobs, job: job.dedupe_key.unwrap_or_default() })
        })
    }
}

/// The job that deletes an erasure's stored objects once it committed.
fn erase_blobs_job(tenant_id: TenantId, of: String, blobs: &BlobsToErase) -> Result<NewJob> {
    Ok(NewJob {
        kind: JobKind::EraseBlobs,
        tenant: Some(tenant_id),
        payload: serde_json::to_value(blobs)?,
        dedupe_key: Some(format!("{}:{of}", JobKind::EraseBlobs)),
        run_at: now_millis() + ERASE_BLOB_GRACE_MS,
        max_attempts: ERASE_BLOB_ATTEMPTS,
    })
}
