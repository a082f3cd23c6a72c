//! Bulk jobs and lots (docs/bulk.md). A bulk job is a row of parameters and one row per item;
//! its progress is counted from the items. Items are claimed with a lease (like the job queue)
//! so that each runs once across instances and a crashed worker's item is taken up again; the
//! services make each item's work idempotent by a natural key, so the retry of an item whose
//! worker died after the work but before recording it finds the work done.

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::job::{BulkKind, JobKind};
use signet_domain::{BulkJobId, Error, ErrorCode, LotId, MenuId, Millis, TenantId, WorkflowId, now_millis};

use crate::ids::NullableId;
use crate::{NewJob, Result, Store, append_audit, db_err, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BulkJobRow {
    #[sqlx(try_from = "i64")]
    pub id: BulkJobId,
    pub public_id: String,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    #[sqlx(try_from = "String")]
    pub kind: BulkKind,
    pub status: String,
    pub created_by: String,
    pub subscriber_id: i64,
    pub parent_id: i64,
    /// The spec's `menuId`: Signet ties no job to a menu entry, so it stays 0 (the column's
    /// default), naming no entry.
    #[sqlx(try_from = "i64")]
    pub menu_id: MenuId,
    pub input: String,
    pub cancel_requested: bool,
    pub created_at: Millis,
    pub started_at: Option<Millis>,
    pub finished_at: Option<Millis>,
}

const JOB_COLUMNS: &str = "id, public_id, tenant_id, kind, status, created_by, subscriber_id, parent_id, menu_id, \
    input, cancel_requested, created_at, started_at, finished_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BulkItemRow {
    pub item_no: i64,
    pub input: String,
    pub state: String,
    pub result_ref: Option<String>,
    pub detail: Option<String>,
    pub finished_at: Option<Millis>,
}

/// Items counted by where they stand.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BulkProgress {
    pub pending: i64,
    pub running: i64,
    pub succeeded: i64,
    pub failed: i64,
    pub skipped: i64,
}

impl BulkProgress {
    pub fn total(&self) -> i64 {
        self.pending + self.running + self.succeeded + self.failed + self.skipped
    }

    /// Items not yet done.
    pub fn open(&self) -> i64 {
        self.pending + self.running
    }
}

/// A bulk job to create, with its items (each the JSON of one item's input).
pub struct NewBulkJob {
    /// `job_…`, unguessable: it is the job's address.
    pub public_id: String,
    pub tenant_id: TenantId,
    pub kind: BulkKind,
    pub subscriber_id: i64,
    pub parent_id: i64,
    pub input: serde_json::Value,
    pub items: Vec<String>,
    /// The lot the job signs: bound to it once, so a lot is signed by one job only.
    pub lot_id: Option<LotId>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LotRow {
    #[sqlx(try_from = "i64")]
    pub id: LotId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub name: String,
    pub signer_email: String,
    pub created_by: String,
    pub created_at: Millis,
    #[sqlx(try_from = "NullableId")]
    pub job_id: Option<BulkJobId>,
}

const LOT_COLUMNS: &str = "id, tenant_id, name, signer_email, created_by, created_at, job_id";

impl Store {
    /// Records a lot: `workflow_ids` (already checked by the caller) for `signer_email`.
    pub async fn create_lot(
        &self,
        tenant_id: TenantId,
        name: &str,
        signer_email: &str,
        workflow_ids: &[WorkflowId],
        actor: &Actor,
    ) -> Result<LotRow> {
        let now = now_millis();
        let insert = format!(
            "INSERT INTO lots (tenant_id, name, signer_email, created_by, created_at) VALUES ($1, $2, $3, $4, $5) \
             RETURNING {LOT_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let lot: LotRow = sqlx::query_as(sqlx::AssertSqlSafe(insert.as_str()))
                .bind(tenant_id.get())
                .bind(name)
                .bind(signer_email)
                .bind(&actor.id)
                .bind(now)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            for (position, workflow_id) in workflow_ids.iter().enumerate() {
                sqlx::query("INSERT INTO lot_workflows (lot_id, position, workflow_id) VALUES ($1, $2, $3)")
                    .bind(lot.id.get())
                    .bind(position as i64)
                    .bind(workflow_id.get())
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
            let event = actor.event(
                "lot.created",
                format!("lot:{}", lot.id),
                json!({"name": name, "signerEmail": signer_email, "workflows": workflow_ids.len()}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(lot)
        })
    }

    /// A lot of the tenant (another tenant's is not found).
    pub async fn lot(&self, tenant_id: TenantId, id: LotId) -> Result<Option<LotRow>> {
        let sql = format!("SELECT {LOT_COLUMNS} FROM lots WHERE tenant_id = $1 AND id = $2");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// The lots waiting for `email` to sign them (no signing job yet), oldest first; at most 200.
    pub async fn lots_to_sign(&self, tenant_id: TenantId, email: &str) -> Result<Vec<LotRow>> {
        let sql = format!(
            "SELECT {LOT_COLUMNS} FROM lots WHERE tenant_id = $1 AND lower(signer_email) = lower($2) \
             AND job_id IS NULL ORDER BY id LIMIT 200"
        );
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(email)
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }

    /// The workflows of a lot, in the order they were given.
    pub async fn lot_workflows(&self, lot_id: LotId) -> Result<Vec<WorkflowId>> {
        on_db!(self, pool => {
            let rows: Vec<(i64,)> =
                sqlx::query_as("SELECT workflow_id FROM lot_workflows WHERE lot_id = $1 ORDER BY position")
                    .bind(lot_id.get())
                    .fetch_all(pool)
                    .await
                    .map_err(db_err)?;
            Ok(rows.into_iter().map(|(id,)| WorkflowId::from(id)).collect())
        })
    }

    /// Creates a bulk job with its items and queues its first slice, in one transaction. A lot
    /// already bound to a job refuses a second one (`state_conflict`).
    pub async fn create_bulk_job(&self, job: &NewBulkJob, actor: &Actor) -> Result<BulkJobRow> {
        let now = now_millis();
        let public_id = &job.public_id;
        let insert = format!(
            "INSERT INTO bulk_jobs (public_id, tenant_id, kind, status, created_by, subscriber_id, parent_id, input, \
             created_at) VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8) RETURNING {JOB_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, job.tenant_id);
            let row: BulkJobRow = sqlx::query_as(sqlx::AssertSqlSafe(insert.as_str()))
                .bind(public_id)
                .bind(job.tenant_id.get())
                .bind(job.kind.as_str())
                .bind(&actor.id)
                .bind(job.subscriber_id)
                .bind(job.parent_id)
                .bind(job.input.to_string())
                .bind(now)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            if let Some(lot_id) = job.lot_id {
                let bound = sqlx::query("UPDATE lots SET job_id = $1 WHERE id = $2 AND tenant_id = $3 AND job_id IS NULL")
                    .bind(row.id.get())
                    .bind(lot_id.get())
                    .bind(job.tenant_id.get())
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
                if bound.rows_affected() != 1 {
                    return Err(Error::rejected(ErrorCode::StateConflict, "the lot is already signed or being signed"));
                }
            }
            for (item_no, input) in job.items.iter().enumerate() {
                sqlx::query("INSERT INTO bulk_job_items (job_id, item_no, input, state) VALUES ($1, $2, $3, 'pending')")
                    .bind(row.id.get())
                    .bind(item_no as i64 + 1)
                    .bind(input)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
            sqlx::query(
                "INSERT INTO jobs (kind, payload, dedupe_key, state, run_at, max_attempts, created_at, tenant_id) \
                 VALUES ($1, $2, NULL, 'ready', $3, 5, $3, $4)",
            )
            .bind(JobKind::BulkRun.as_str())
            .bind(json!({"bulkJobId": row.id}).to_string())
            .bind(now)
            .bind(job.tenant_id.get())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event(
                "bulk.created",
                format!("bulk:{public_id}"),
                json!({"kind": job.kind.as_str(), "items": job.items.len(), "parentId": job.parent_id}),
            );
            append_audit!(self, tx, job.tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// A bulk job of the tenant by its public id.
    pub async fn bulk_job(&self, tenant_id: TenantId, public_id: &str) -> Result<Option<BulkJobRow>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM bulk_jobs WHERE tenant_id = $1 AND public_id = $2");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(public_id)
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// A bulk job by its row id (the worker's view).
    pub async fn bulk_job_by_id(&self, id: BulkJobId) -> Result<Option<BulkJobRow>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM bulk_jobs WHERE id = $1");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(id.get()).fetch_optional(pool).await.map_err(db_err)
        })
    }

    pub async fn bulk_progress(&self, job_id: BulkJobId) -> Result<BulkProgress> {
        let rows: Vec<(String, i64)> = on_db!(self, pool => {
            sqlx::query_as("SELECT state, COUNT(*) FROM bulk_job_items WHERE job_id = $1 GROUP BY state")
                .bind(job_id.get())
                .fetch_all(pool)
                .await
                .map_err(db_err)?
        });
        let mut progress = BulkProgress::default();
        for (state, count) in rows {
            match state.as_str() {
                "pending" => progress.pending = count,
                "running" => progress.running = count,
                "succeeded" => progress.succeeded = count,
                "failed" => progress.failed = count,
                _ => progress.skipped += count,
            }
        }
        Ok(progress)
    }

    /// Marks a queued job running (the first slice).
    pub async fn start_bulk_job(&self, id: BulkJobId) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("UPDATE bulk_jobs SET status = 'running', started_at = $2 WHERE id = $1 AND status = 'queued'")
                .bind(id.get())
                .bind(now_millis())
                .execute(pool)
                .await
                .map_err(db_err)?;
        });
        Ok(())
    }

    /// Claims up to `limit` items due to run (pending, or running with a lapsed lease) until
    /// `lease_until`, in item order.
    pub async fn claim_bulk_items(
        &self,
        job_id: BulkJobId,
        lease_until: Millis,
        limit: i64,
    ) -> Result<Vec<BulkItemRow>> {
        let now = now_millis();
        let select = "SELECT item_no FROM bulk_job_items WHERE job_id = $2 \
             AND (state = 'pending' OR (state = 'running' AND locked_until < $3)) ORDER BY item_no LIMIT $4";
        let lock = match &self.db {
            crate::Db::Postgres(_) => " FOR UPDATE SKIP LOCKED",
            crate::Db::Sqlite(_) => "",
        };
        let sql = format!(
            "UPDATE bulk_job_items SET state = 'running', locked_until = $1 WHERE job_id = $2 AND item_no IN \
             ({select}{lock}) RETURNING item_no, input, state, result_ref, detail, finished_at"
        );
        let mut rows: Vec<BulkItemRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(lease_until)
                .bind(job_id.get())
                .bind(now)
                .bind(limit)
                .fetch_all(pool)
                .await
                .map_err(db_err)?
        });
        rows.sort_by_key(|r| r.item_no);
        Ok(rows)
    }

    /// Records an item's outcome (`succeeded`, `failed` or `skipped`).
    pub async fn finish_bulk_item(
        &self,
        job_id: BulkJobId,
        item_no: i64,
        state: &str,
        result_ref: Option<&str>,
        detail: &str,
    ) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query(
                "UPDATE bulk_job_items SET state = $3, result_ref = $4, detail = $5, finished_at = $6, locked_until = NULL \
                 WHERE job_id = $1 AND item_no = $2 AND state = 'running'",
            )
            .bind(job_id.get())
            .bind(item_no)
            .bind(state)
            .bind(result_ref)
            .bind(detail)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?;
        });
        Ok(())
    }

    /// Skips every item not yet started (a cancelled job).
    pub async fn skip_pending_items(&self, job_id: BulkJobId, detail: &str) -> Result<u64> {
        on_db!(self, pool => {
            Ok(sqlx::query(
                "UPDATE bulk_job_items SET state = 'skipped', detail = $2, finished_at = $3 \
                 WHERE job_id = $1 AND state = 'pending'",
            )
            .bind(job_id.get())
            .bind(detail)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?
            .rows_affected())
        })
    }

    /// Asks a job of the tenant to stop; answers the job, or none when it is not the tenant's.
    pub async fn request_bulk_cancel(
        &self,
        tenant_id: TenantId,
        public_id: &str,
        actor: &Actor,
    ) -> Result<Option<BulkJobRow>> {
        let sql = format!(
            "UPDATE bulk_jobs SET cancel_requested = TRUE WHERE tenant_id = $1 AND public_id = $2 \
             AND status IN ('queued', 'running') RETURNING {JOB_COLUMNS}"
        );
        let requested: Option<BulkJobRow> = on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let row: Option<BulkJobRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(public_id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            if row.is_some() {
                let event = actor.event("bulk.cancel_requested", format!("bulk:{public_id}"), json!({}));
                append_audit!(self, tx, tenant_id, &event);
            }
            tx.commit().await.map_err(db_err)?;
            row
        });
        match requested {
            Some(row) => Ok(Some(row)),
            None => self.bulk_job(tenant_id, public_id).await,
        }
    }

    /// Ends a job with `status`; true for the one caller that ended it.
    pub async fn finish_bulk_job(&self, id: BulkJobId, status: &str) -> Result<bool> {
        on_db!(self, pool => {
            Ok(sqlx::query(
                "UPDATE bulk_jobs SET status = $2, finished_at = $3, started_at = COALESCE(started_at, $3) \
                 WHERE id = $1 AND status IN ('queued', 'running')",
            )
            .bind(id.get())
            .bind(status)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?
            .rows_affected()
                == 1)
        })
    }

    /// A page of a job's items in order (the report reads them page by page).
    pub async fn bulk_items(&self, job_id: BulkJobId, after: i64, limit: i64) -> Result<Vec<BulkItemRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT item_no, input, state, result_ref, detail, finished_at FROM bulk_job_items \
                 WHERE job_id = $1 AND item_no > $2 ORDER BY item_no LIMIT $3",
            )
            .bind(job_id.get())
            .bind(after)
            .bind(limit)
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Queues the next slice of a bulk job at `run_at`.
    pub async fn continue_bulk_job(&self, tenant_id: TenantId, id: BulkJobId, run_at: Millis) -> Result<()> {
        self.enqueue_job(&NewJob {
            kind: JobKind::BulkRun,
            tenant: Some(tenant_id),
            payload: json!({"bulkJobId": id}),
            dedupe_key: None,
            run_at,
            max_attempts: 5,
        })
        .await?;
        Ok(())
    }

    /// The workflow a bulk send's item started, found by the marks it left in the workflow's
    /// settings (`bulkJobId`, `bulkItem`): a retried item finds its own work.
    pub async fn workflow_of_bulk_item(
        &self,
        tenant_id: TenantId,
        public_id: &str,
        item_no: i64,
    ) -> Result<Option<WorkflowId>> {
        let escape = |text: &str| text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
        let job = format!("%\"bulkJobId\":\"{}\"%", escape(public_id));
        let (middle, last) = (format!("%\"bulkItem\":{item_no},%"), format!("%\"bulkItem\":{item_no}}}%"));
        let row: Option<(i64,)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id FROM workflows WHERE tenant_id = $1 AND settings LIKE $2 ESCAPE '\\' \
                 AND (settings LIKE $3 OR settings LIKE $4) ORDER BY id LIMIT 1",
            )
            .bind(tenant_id.get())
            .bind(&job)
            .bind(&middle)
            .bind(&last)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        Ok(row.map(|(id,)| WorkflowId::from(id)))
    }
}
