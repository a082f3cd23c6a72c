//! A job queue in a table, with leases: a claimed job belongs to one worker until its lease
//! runs out, so a crashed worker's jobs are picked up again and no job runs twice at once.

use signet_domain::{Millis, now_millis};

use crate::{Db, Result, Store, db_err, on_db};

pub struct NewJob<'a> {
    pub kind: &'a str,
    pub payload: serde_json::Value,
    /// When set, a second job with the same key is not enqueued (periodic jobs use the slot).
    pub dedupe_key: Option<String>,
    pub run_at: Millis,
    pub max_attempts: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ClaimedJob {
    pub id: i64,
    pub kind: String,
    pub payload: String,
    pub attempts: i64,
    pub max_attempts: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JobRow {
    pub id: i64,
    pub kind: String,
    pub state: String,
    pub attempts: i64,
    pub locked_by: Option<String>,
    pub last_error: Option<String>,
}

const CLAIM_POSTGRES: &str = "UPDATE jobs SET state = 'running', locked_by = $1, locked_until = $2, attempts = attempts + 1 \
     WHERE id IN (SELECT id FROM jobs \
        WHERE (state = 'ready' AND run_at <= $3) OR (state = 'running' AND locked_until < $3) \
        ORDER BY run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED) \
     RETURNING id, kind, payload, attempts, max_attempts";

// SQLite has one writer at a time, so the plain sub-select cannot be raced.
const CLAIM_SQLITE: &str = "UPDATE jobs SET state = 'running', locked_by = $1, locked_until = $2, attempts = attempts + 1 \
     WHERE id IN (SELECT id FROM jobs \
        WHERE (state = 'ready' AND run_at <= $3) OR (state = 'running' AND locked_until < $3) \
        ORDER BY run_at, id LIMIT $4) \
     RETURNING id, kind, payload, attempts, max_attempts";

impl Store {
    /// Enqueues a job; returns its id, or `None` when its dedupe key was already used.
    pub async fn enqueue_job(&self, job: &NewJob<'_>) -> Result<Option<i64>> {
        let now = now_millis();
        on_db!(self, pool => {
            let row: Option<(i64,)> = sqlx::query_as(
                "INSERT INTO jobs (kind, payload, dedupe_key, state, run_at, max_attempts, created_at) \
                 VALUES ($1, $2, $3, 'ready', $4, $5, $6) ON CONFLICT (dedupe_key) DO NOTHING RETURNING id",
            )
            .bind(job.kind)
            .bind(job.payload.to_string())
            .bind(&job.dedupe_key)
            .bind(job.run_at)
            .bind(job.max_attempts)
            .bind(now)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?;
            Ok(row.map(|(id,)| id))
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
    pub async fn complete_job(&self, id: i64, worker: &str) -> Result<bool> {
        let now = now_millis();
        on_db!(self, pool => {
            Ok(sqlx::query(
                "UPDATE jobs SET state = 'done', finished_at = $3, locked_until = NULL \
                 WHERE id = $1 AND locked_by = $2 AND state = 'running'",
            )
            .bind(id)
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
    pub async fn fail_job(&self, id: i64, worker: &str, error: &str, retry_at: Millis) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query(
                "UPDATE jobs SET \
                   state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'ready' END, \
                   finished_at = CASE WHEN attempts >= max_attempts THEN $5 ELSE NULL END, \
                   run_at = $4, last_error = $3, locked_until = NULL \
                 WHERE id = $1 AND locked_by = $2 AND state = 'running'",
            )
            .bind(id)
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

    pub async fn job(&self, id: i64) -> Result<Option<JobRow>> {
        on_db!(self, pool => {
            sqlx::query_as("SELECT id, kind, state, attempts, locked_by, last_error FROM jobs WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    pub async fn jobs_of_kind(&self, kind: &str) -> Result<Vec<JobRow>> {
        on_db!(self, pool => {
            sqlx::query_as("SELECT id, kind, state, attempts, locked_by, last_error FROM jobs WHERE kind = $1 ORDER BY id")
                .bind(kind)
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }
}
