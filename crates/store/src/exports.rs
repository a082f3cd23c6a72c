//! Exports (docs/exports.md): a tenant's workflows, signatories, audit events and users read
//! page by page by keyset (`WHERE id > $last ORDER BY id LIMIT n`), so that an export of a
//! million rows never holds more than one page; and the export jobs that write large exports
//! to the blob store.
//!
//! The filters arrive as typed values and are bound as parameters: every statement is fixed
//! text with `($n IS NULL OR column = $n)` for each optional condition.

use serde_json::json;
use signet_domain::audit::{Actor, AuditEntry};
use signet_domain::job::JobKind;
use signet_domain::{ExportJobId, Millis, TenantId, now_millis};

use crate::{Result, Store, append_audit, db_err, on_db};

/// Creation (or occurrence) times an export keeps, both ends included; either may be open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExportWindow {
    pub from: Option<Millis>,
    pub to: Option<Millis>,
}

/// What is exported, with the conditions of its filter (each optional).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportFilter {
    Workflows {
        status: Option<String>,
        created_by: Option<String>,
        template_id: Option<i64>,
        reference_no: Option<String>,
    },
    /// `email` is compared in lower case.
    Signatories {
        status: Option<String>,
        email: Option<String>,
        workflow_id: Option<i64>,
    },
    AuditEvents {
        action: Option<String>,
        actor: Option<String>,
        target: Option<String>,
    },
    Users {
        status: Option<String>,
        role: Option<String>,
        user_type: Option<String>,
        department_id: Option<i64>,
    },
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WorkflowExportRow {
    pub id: i64,
    pub name: String,
    pub reference_no: Option<String>,
    pub workflow_type: i64,
    pub state: String,
    pub state_reason: Option<String>,
    pub template_id: Option<i64>,
    pub created_by: String,
    pub created_at: Millis,
    pub updated_at: Millis,
    pub completed_at: Option<Millis>,
    pub expires_at: Option<Millis>,
    pub signatories: i64,
    pub signed: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SignatoryExportRow {
    pub id: i64,
    pub workflow_id: i64,
    pub workflow_name: String,
    pub signing_order: i64,
    pub name: String,
    pub email: String,
    pub state: String,
    pub signature_mode: String,
    pub method: Option<String>,
    pub reason: Option<String>,
    pub notified_at: Option<Millis>,
    pub viewed_at: Option<Millis>,
    pub signed_at: Option<Millis>,
    pub created_at: Millis,
}

/// A user as exported: no password hash, TOTP secret or national-id digest is ever selected.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserExportRow {
    pub id: i64,
    pub email: Option<String>,
    pub name: Option<String>,
    pub role: String,
    pub custom_role: Option<String>,
    pub status: String,
    pub user_type: String,
    pub department: Option<String>,
    pub designation: Option<String>,
    pub organization: Option<String>,
    pub contact_number: Option<String>,
    pub login_mode: String,
    pub created_at: Millis,
    pub updated_at: Option<Millis>,
}

/// One page of an export, in key order.
#[derive(Debug, Clone)]
pub enum ExportPage {
    Workflows(Vec<WorkflowExportRow>),
    Signatories(Vec<SignatoryExportRow>),
    AuditEvents(Vec<AuditEntry>),
    Users(Vec<UserExportRow>),
}

impl ExportPage {
    pub fn len(&self) -> usize {
        match self {
            ExportPage::Workflows(rows) => rows.len(),
            ExportPage::Signatories(rows) => rows.len(),
            ExportPage::AuditEvents(rows) => rows.len(),
            ExportPage::Users(rows) => rows.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The key of the page's last row: where the next page starts.
    pub fn last_key(&self) -> Option<i64> {
        match self {
            ExportPage::Workflows(rows) => rows.last().map(|r| r.id),
            ExportPage::Signatories(rows) => rows.last().map(|r| r.id),
            ExportPage::AuditEvents(rows) => rows.last().map(|r| r.seq),
            ExportPage::Users(rows) => rows.last().map(|r| r.id),
        }
    }
}

/// A bound parameter of a filter condition.
enum Param {
    Int(Option<i64>),
    Text(Option<String>),
}

/// The parts of a dataset's statements: the selected columns, `FROM ... WHERE ...` with
/// `$1` tenant, `$2` the key after which to read, `$4`... the filter (`$3` is the limit),
/// and the key to order by.
struct Shape {
    columns: &'static str,
    from_where: &'static str,
    key: &'static str,
}

const WORKFLOWS: Shape = Shape {
    columns: "w.id, w.name, w.reference_no, w.workflow_type, w.state, w.state_reason, w.template_id, w.created_by, \
        w.created_at, w.updated_at, w.completed_at, w.expires_at, \
        (SELECT COUNT(*) FROM signatories s WHERE s.workflow_id = w.id) AS signatories, \
        (SELECT COUNT(*) FROM signatories s WHERE s.workflow_id = w.id AND s.state = 'signed') AS signed",
    from_where: "FROM workflows w WHERE w.tenant_id = $1 AND w.id > $2 \
        AND ($4 IS NULL OR w.created_at >= $4) AND ($5 IS NULL OR w.created_at <= $5) \
        AND ($6 IS NULL OR w.state = $6) AND ($7 IS NULL OR w.created_by = $7) \
        AND ($8 IS NULL OR w.template_id = $8) AND ($9 IS NULL OR w.reference_no = $9)",
    key: "w.id",
};

const SIGNATORIES: Shape = Shape {
    columns: "s.id, s.workflow_id, w.name AS workflow_name, s.signing_order, s.name, s.email, s.state, \
        s.signature_mode, s.method, s.reason, s.notified_at, s.viewed_at, s.signed_at, s.created_at",
    from_where: "FROM signatories s JOIN workflows w ON w.id = s.workflow_id WHERE s.tenant_id = $1 AND s.id > $2 \
        AND ($4 IS NULL OR s.created_at >= $4) AND ($5 IS NULL OR s.created_at <= $5) \
        AND ($6 IS NULL OR s.state = $6) AND ($7 IS NULL OR lower(s.email) = $7) \
        AND ($8 IS NULL OR s.workflow_id = $8)",
    key: "s.id",
};

const AUDIT_EVENTS: Shape = Shape {
    columns: crate::chain::ENTRY_COLUMNS,
    from_where: "FROM audit_log WHERE tenant_id = $1 AND seq > $2 \
        AND ($4 IS NULL OR at >= $4) AND ($5 IS NULL OR at <= $5) \
        AND ($6 IS NULL OR action = $6) AND ($7 IS NULL OR actor = $7) AND ($8 IS NULL OR target = $8)",
    key: "seq",
};

const USERS: Shape = Shape {
    columns: "p.id, p.email, p.name, p.role, r.name AS custom_role, p.status, p.user_type, d.name AS department, \
        p.designation, p.organization, p.contact_number, p.login_mode, p.created_at, p.updated_at",
    from_where: "FROM principals p LEFT JOIN roles r ON r.id = p.custom_role_id \
        LEFT JOIN departments d ON d.id = p.department_id \
        WHERE p.tenant_id = $1 AND p.kind = 'user' AND p.id > $2 \
        AND ($4 IS NULL OR p.created_at >= $4) AND ($5 IS NULL OR p.created_at <= $5) \
        AND ($6 IS NULL OR p.status = $6) AND ($7 IS NULL OR p.role = $7) \
        AND ($8 IS NULL OR p.user_type = $8) AND ($9 IS NULL OR p.department_id = $9)",
    key: "p.id",
};

impl ExportFilter {
    fn shape(&self) -> &'static Shape {
        match self {
            ExportFilter::Workflows { .. } => &WORKFLOWS,
            ExportFilter::Signatories { .. } => &SIGNATORIES,
            ExportFilter::AuditEvents { .. } => &AUDIT_EVENTS,
            ExportFilter::Users { .. } => &USERS,
        }
    }

    /// `$4`, `$5` (the window) and the filter's parameters, in the order of the shape's text.
    fn params(&self, window: ExportWindow) -> Vec<Param> {
        let text = |v: &Option<String>| Param::Text(v.clone());
        let mut params = vec![Param::Int(window.from), Param::Int(window.to)];
        match self {
            ExportFilter::Workflows { status, created_by, template_id, reference_no } => {
                params.extend([text(status), text(created_by), Param::Int(*template_id), text(reference_no)])
            }
            ExportFilter::Signatories { status, email, workflow_id } => {
                let email = email.as_ref().map(|e| e.to_lowercase());
                params.extend([text(status), Param::Text(email), Param::Int(*workflow_id)])
            }
            ExportFilter::AuditEvents { action, actor, target } => {
                params.extend([text(action), text(actor), text(target)])
            }
            ExportFilter::Users { status, role, user_type, department_id } => {
                params.extend([text(status), text(role), text(user_type), Param::Int(*department_id)])
            }
        }
        params
    }
}

/// Runs `$sql` with the tenant, the key, the limit and the filter's parameters bound, on either
/// backend, fetching with `$fetch` (`fetch_all`, `fetch_one`).
macro_rules! export_query {
    ($store:expr, $sql:expr, $tenant:expr, $after:expr, $limit:expr, $params:expr, $fetch:ident) => {
        on_db!($store, pool => {
            let mut query = sqlx::query_as(sqlx::AssertSqlSafe($sql)).bind($tenant).bind($after).bind($limit);
            for param in $params {
                query = match param {
                    Param::Int(value) => query.bind(*value),
                    Param::Text(value) => query.bind(value.clone()),
                };
            }
            query.$fetch(pool).await.map_err(db_err)
        })
    };
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportJobRow {
    #[sqlx(try_from = "i64")]
    pub id: ExportJobId,
    pub public_id: String,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub dataset: String,
    pub format: String,
    pub request: String,
    pub status: String,
    pub row_count: i64,
    pub size_bytes: Option<i64>,
    pub blob_key: Option<String>,
    pub error: Option<String>,
    pub attempts: i64,
    pub locked_until: Option<Millis>,
    pub created_by: String,
    pub created_at: Millis,
    pub started_at: Option<Millis>,
    pub finished_at: Option<Millis>,
}

const JOB_COLUMNS: &str = "id, public_id, tenant_id, dataset, format, request, status, row_count, size_bytes, \
    blob_key, error, attempts, locked_until, created_by, created_at, started_at, finished_at";

/// An export job to create.
pub struct NewExportJob<'a> {
    /// `exp_…`, unguessable: it is the export's address.
    pub public_id: String,
    pub tenant_id: TenantId,
    pub dataset: &'a str,
    pub format: &'a str,
    /// The checked request, to run it later as it was asked.
    pub request: serde_json::Value,
    /// The rows the export will have (counted when it was asked for).
    pub expected_rows: i64,
}

impl Store {
    /// Up to `limit` rows of the export after the key `after`, in key order.
    pub async fn export_page(
        &self,
        tenant_id: TenantId,
        window: ExportWindow,
        filter: &ExportFilter,
        after: i64,
        limit: i64,
    ) -> Result<ExportPage> {
        let shape = filter.shape();
        let sql = format!("SELECT {} {} ORDER BY {} LIMIT $3", shape.columns, shape.from_where, shape.key);
        let params = filter.params(window);
        let tenant = tenant_id.get();
        Ok(match filter {
            ExportFilter::Workflows { .. } => {
                ExportPage::Workflows(export_query!(self, sql.as_str(), tenant, after, limit, &params, fetch_all)?)
            }
            ExportFilter::Signatories { .. } => {
                ExportPage::Signatories(export_query!(self, sql.as_str(), tenant, after, limit, &params, fetch_all)?)
            }
            ExportFilter::AuditEvents { .. } => {
                self.link_audit(tenant_id).await?;
                let rows: Vec<crate::chain::EntryRow> =
                    export_query!(self, sql.as_str(), tenant, after, limit, &params, fetch_all)?;
                ExportPage::AuditEvents(self.open_entries(tenant, rows).await?)
            }
            ExportFilter::Users { .. } => {
                ExportPage::Users(export_query!(self, sql.as_str(), tenant, after, limit, &params, fetch_all)?)
            }
        })
    }

    /// How many rows the export has, counting no further than `cap` (so that asking is cheap
    /// however large the tenant is).
    pub async fn export_count(
        &self,
        tenant_id: TenantId,
        window: ExportWindow,
        filter: &ExportFilter,
        cap: i64,
    ) -> Result<i64> {
        if matches!(filter, ExportFilter::AuditEvents { .. }) {
            self.link_audit(tenant_id).await?;
        }
        let shape = filter.shape();
        let sql = format!("SELECT COUNT(*) FROM (SELECT 1 AS one {} LIMIT $3) capped", shape.from_where);
        let params = filter.params(window);
        let (count,): (i64,) = export_query!(self, sql.as_str(), tenant_id.get(), 0_i64, cap, &params, fetch_one)?;
        Ok(count)
    }

    /// Records in the audit log that an export was streamed to the caller.
    pub async fn record_export(&self, tenant_id: TenantId, detail: serde_json::Value, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let event = actor.event("export.streamed", "exports".to_string(), detail);
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Creates an export job and queues it, in one transaction.
    pub async fn create_export_job(&self, job: &NewExportJob<'_>, actor: &Actor) -> Result<ExportJobRow> {
        let now = now_millis();
        let insert = format!(
            "INSERT INTO export_jobs (public_id, tenant_id, dataset, format, request, status, row_count, created_by, \
             created_at) VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7, $8) RETURNING {JOB_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, job.tenant_id);
            let row: ExportJobRow = sqlx::query_as(sqlx::AssertSqlSafe(insert.as_str()))
                .bind(&job.public_id)
                .bind(job.tenant_id.get())
                .bind(job.dataset)
                .bind(job.format)
                .bind(job.request.to_string())
                .bind(job.expected_rows)
                .bind(&actor.id)
                .bind(now)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            sqlx::query(
                "INSERT INTO jobs (kind, payload, dedupe_key, state, run_at, max_attempts, created_at, tenant_id) \
                 VALUES ($1, $2, NULL, 'ready', $3, 5, $3, $4)",
            )
            .bind(JobKind::ExportRun.as_str())
            .bind(json!({"exportJobId": row.id}).to_string())
            .bind(now)
            .bind(job.tenant_id.get())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event(
                "export.created",
                format!("export:{}", job.public_id),
                json!({"dataset": job.dataset, "format": job.format, "rows": job.expected_rows, "request": job.request}),
            );
            append_audit!(self, tx, job.tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// An export job of the tenant by its public id.
    pub async fn export_job(&self, tenant_id: TenantId, public_id: &str) -> Result<Option<ExportJobRow>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM export_jobs WHERE tenant_id = $1 AND public_id = $2");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(public_id)
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// An export job by its row id (the worker's view).
    pub async fn export_job_by_id(&self, id: ExportJobId) -> Result<Option<ExportJobRow>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM export_jobs WHERE id = $1");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(id.get()).fetch_optional(pool).await.map_err(db_err)
        })
    }

    /// Takes the export for one writer until `lease_until`: a queued one, or a running one
    /// whose writer stopped renewing its lease (crashed). None when another writer has it or
    /// it has ended.
    pub async fn claim_export_job(&self, id: ExportJobId, lease_until: Millis) -> Result<Option<ExportJobRow>> {
        let now = now_millis();
        let sql = format!(
            "UPDATE export_jobs SET status = 'running', locked_until = $2, attempts = attempts + 1, \
             started_at = COALESCE(started_at, $3) \
             WHERE id = $1 AND (status = 'queued' OR (status = 'running' AND locked_until < $3)) \
             RETURNING {JOB_COLUMNS}"
        );
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(id.get())
                .bind(lease_until)
                .bind(now)
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Renews the writer's lease and records the rows written so far.
    pub async fn renew_export_job(&self, id: ExportJobId, lease_until: Millis, rows: i64) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("UPDATE export_jobs SET locked_until = $2, row_count = $3 WHERE id = $1 AND status = 'running'")
                .bind(id.get())
                .bind(lease_until)
                .bind(rows)
                .execute(pool)
                .await
                .map_err(db_err)?;
        });
        Ok(())
    }

    /// Ends a running export: `completed` with its file, or `failed` with the reason.
    pub async fn finish_export_job(
        &self,
        id: ExportJobId,
        status: &str,
        rows: i64,
        file: Option<(&str, i64)>,
        error: Option<&str>,
    ) -> Result<bool> {
        let (blob_key, size) = file.map_or((None, None), |(key, size)| (Some(key), Some(size)));
        on_db!(self, pool => {
            Ok(sqlx::query(
                "UPDATE export_jobs SET status = $2, row_count = $3, blob_key = $4, size_bytes = $5, error = $6, \
                 finished_at = $7, locked_until = NULL WHERE id = $1 AND status = 'running'",
            )
            .bind(id.get())
            .bind(status)
            .bind(rows)
            .bind(blob_key)
            .bind(size)
            .bind(error)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?
            .rows_affected()
                == 1)
        })
    }

    /// Appends `count` audit events to the tenant's chain quickly (many rows per statement),
    /// each a valid link; only for tests that need a large audit log.
    #[doc(hidden)]
    pub async fn append_audit_events_for_tests(
        &self,
        tenant_id: TenantId,
        count: usize,
        action: &str,
        detail: &serde_json::Value,
    ) -> Result<()> {
        const BATCH: usize = 500;
        self.link_audit(tenant_id).await?;
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let (mut seq, mut head): (i64, String) =
                sqlx::query_as("SELECT audit_seq, audit_head FROM tenants WHERE id = $1")
                    .bind(tenant_id.get())
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(db_err)?;
            let mut left = count;
            while left > 0 {
                let n = left.min(BATCH);
                let mut entries = Vec::with_capacity(n);
                for i in 0..n {
                    seq += 1;
                    let event = signet_domain::audit::AuditEvent {
                        actor: "system".into(),
                        action: action.into(),
                        target: format!("test:{}", count - left + i),
                        ip: Some("192.0.2.1".into()),
                        detail: detail.clone(),
                    };
                    let ip = self.seal_chain_ip(tenant_id, event.ip.as_deref()).await?;
                    let sealed = ip.sealed.clone();
                    let entry = crate::chain::Unlinked::stamped_now(&event, ip).link(tenant_id.get(), seq, head);
                    head = entry.hash.clone();
                    entries.push((entry, sealed));
                }
                let sql = crate::audit_anchor::insert_entries_sql(n);
                crate::audit_anchor::bind_entries!(sqlx::query(sqlx::AssertSqlSafe(sql.as_str())), tenant_id.get(), &entries)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
                left -= n;
            }
            sqlx::query("UPDATE tenants SET audit_seq = $2, audit_head = $3 WHERE id = $1")
                .bind(tenant_id.get())
                .bind(seq)
                .bind(&head)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }
}
