//! A job queue in a table, with leases: a claimed job belongs to one worker until its lease
//! runs out, so a crashed worker's jobs are picked up again and no job runs twice at once.
//!
//! Organisations take turns: each job records whose work it is (`tenant`), and a claim orders
//! due jobs by their turn within their tenant's line before their age, so every tenant's oldest
//! due job comes before anyone's second. One organisation's flood of jobs (a 10,000-row bulk
//! send, its invitations and webhooks) then delays another's by a turn, not by the flood.

use signet_domain::job::JobKind;
use signet_domain::{JobId, Millis, TenantId, now_millis};

use crate::{Db, Result, Store, db_err, on_db};

pub struct NewJob {
    pub kind: JobKind,
    /// Whose work it is: the tenant's line it waits in; `None` for the installation's own.
    pub tenant: Option<TenantId>,
    pub payload: serde_json::Value,
    /// When set, a second job with the same key is not enqueued (periodic jobs use the slot).
    pub dedupe_key: Option<String>,
    pub run_at: Millis,
    pub max_attempts: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ClaimedJob {
    #[sqlx(try_from = "i64")]
    pub id: JobId,
    pub kind: String,
    pub payload: String,
    pub attempts: i64,
    pub max_attempts: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JobRow {
    #[sqlx(try_from = "i64")]
    pub id: JobId,
    pub kind: String,
    pub state: String,
    pub attempts: i64,
    pub locked_by: Option<String>,
    pub last_error: Option<String>,
}

/// Due jobs (ready and due, or running with a lease that ran out) with their turn in their
/// tenant's line (1 for each tenant's oldest).
macro_rules! due_with_turn {
    () => {
        "SELECT id, run_at, ROW_NUMBER() OVER (PARTITION BY tenant_id ORDER BY run_at, id) AS turn FROM jobs \
         WHERE (state = 'ready' AND run_at <= $3) OR (state = 'running' AND locked_until < $3)"
    };
}

// Workers of several instances claim at once: the locking select skips what another holds and
// looks further down the turns (8 batches deep) for the rest; it repeats the due condition so
// that a row another worker claimed meanwhile, re-read after its commit, no longer matches.
const CLAIM_POSTGRES: &str = concat!(
    "UPDATE jobs SET state = 'running', locked_by = $1, locked_until = $2, attempts = attempts + 1 \
     WHERE id IN (SELECT jobs.id FROM jobs JOIN (",
    due_with_turn!(),
    " ORDER BY turn, run_at, id LIMIT 8 * $4) due ON due.id = jobs.id \
       WHERE (jobs.state = 'ready' AND jobs.run_at <= $3) OR (jobs.state = 'running' AND jobs.locked_until < $3) \
       ORDER BY due.turn, due.run_at, due.id LIMIT $4 FOR UPDATE OF jobs SKIP LOCKED) \
     RETURNING id, kind, payload, attempts, max_attempts"
);

// SQLite has one writer at a time, so the plain sub-select cannot be raced.
const CLAIM_SQLITE: &str = concat!(
    "UPDATE jobs SET state = 'running', locked_by = $1, locked_until = $2, attempts = attempts + 1 \
     WHERE id IN (SELECT id FROM (",
    due_with_turn!(),
    ") ORDER BY turn, run_at, id LIMIT $4) \
     RETURNING id, kind, payload, attempts, max_attempts"
);

impl Store {
    /// Enqueues a job; returns its id, or `None` when its dedupe key was already used.
    pub async fn enqueue_job(&self, job: &NewJob) -> Result<Option<JobId>> {
        let now = now_millis();
        on_db!(self, pool => {
            let row: Option<(i64,)> = sqlx::query_as(
                "INSERT INTO jobs (kind, payload, dedupe_key, state, run_at, max_attempts, created_at, tenant_id) \
                 VALUES ($1, $2, $3, 'ready', $4, $5, $6, $7) ON CONFLICT (dedupe_key) DO NOTHING RETURNING id",
            )
            .bind(job.kind.as_str())
            .bind(job.payload.to_string())
            .bind(&job.dedupe_key)
            .bind(job.run_at)
            .bind(job.max_attempts)
            .bind(now)
            .bind(job.tenant.map(TenantId::get))
            .fetch_optional(pool)
            .await
            .map_err(db_err)?;
            Ok(row.map(|(id,)| JobId::from(id)))
        })
    }

    /// Claims up to `limit` due jobs (or jobs whose lease ran out) for `worker`.
    pub async fn claim_jobs(&self, worker: &str, lease_ms: Millis, limit: i64) -> Result<Vec<ClaimedJob>> {
        let now = now_millis();
        let lease_end = now + lease_ms;
        match &self.db {
            Db::Sqlite(pool) => sqlx::query_as(CLAIM_SQLITE)
                .bind(worker)
                .bind(lease_end)
                .bind(now)
                .bind(limit)
                .fetch_all(pool)
                .await
                .map_err(db_err),
            Db::Postgres(pool) => sqlx::query_as(CLAIM_POSTGRES)
                .bind(worker)
                .bind(lease_end)
                .bind(now)
                .bind(limit)
                .fetch_all(pool)
                .await
                .map_err(db_err),
        }
    }

    /// Marks a job done, if `worker` still holds it.
    pub async fn complete_job(&self, id: JobId, worker: &str) -> Result<bool> {
        let now = now_millis();
        on_db!(self, pool => {
            Ok(sqlx::query(
                "UPDATE jobs SET state = 'done', finished_at = $3, locked_until = NULL \
                 WHERE id = $1 AND locked_by = $2 AND state = 'running'",
            )
            .bind(id.get())
            .bind(worker)
            .bind(now)
            .execute(pool)
            .await
            .map_err(db_err)?
            .rows_affected() == 1)
        })
    }

    /// Records a failure: the job runs again at `retry_at`, or fails for good when it has
    /// used its attempts.
    pub async fn fail_job(&self, id: JobId, worker: &str, error: &str, retry_at: Millis) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query(
                "UPDATE jobs SET \
                   state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'ready' END, \
                   finished_at = CASE WHEN attempts >= max_attempts THEN $5 ELSE NULL END, \
                   run_at = $4, last_error = $3, locked_until = NULL \
                 WHERE id = $1 AND locked_by = $2 AND state = 'running'",
            )
            .bind(id.get())
            .bind(worker)
            .bind(error)
            .bind(retry_at)
            .bind(now)
            .execute(pool)
            .await
            .map_err(db_err)?;
        });
        Ok(())
    }

    pub async fn job(&self, id: JobId) -> Result<Option<JobRow>> {
        on_db!(self, pool => {
            sqlx::query_as("SELECT id, kind, state, attempts, locked_by, last_error FROM jobs WHERE id = $1")
                .bind(id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    pub async fn jobs_of_kind(&self, kind: JobKind) -> Result<Vec<JobRow>> {
        on_db!(self, pool => {
            sqlx::query_as("SELECT id, kind, state, attempts, locked_by, last_error FROM jobs WHERE kind = $1 ORDER BY id")
                .bind(kind.as_str())
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }
}
