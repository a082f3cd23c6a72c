//! Webhook endpoints and deliveries. A delivery is created per (endpoint, message) once, with
//! its `webhook.deliver` job in the same transaction; redelivery adds a new job for it.

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::webhook::subscribed;
use signet_domain::{DeliveryId, Error, ErrorCode, Millis, TenantId, WebhookId, now_millis};

use crate::{Result, Store, append_audit, db_err, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WebhookRow {
    #[sqlx(try_from = "i64")]
    pub id: WebhookId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub url: String,
    pub description: Option<String>,
    pub event_types: String,
    pub secret: String,
    pub disabled: bool,
    pub created_at: Millis,
    /// Who registered it (`user:ID`, `client:ID`).
    pub created_by: Option<String>,
    /// When the circuit breaker paused it; `None` while it is delivering.
    pub paused_at: Option<Millis>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DeliveryRow {
    #[sqlx(try_from = "i64")]
    pub id: DeliveryId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    #[sqlx(try_from = "i64")]
    pub endpoint_id: WebhookId,
    pub message_id: String,
    pub event_type: String,
    pub payload: String,
    pub state: String,
    pub attempts: i64,
    pub last_status: Option<i64>,
    pub last_error: Option<String>,
    pub created_at: Millis,
    pub updated_at: Millis,
}

/// One attempt at a delivery, as recorded.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DeliveryAttemptRow {
    #[sqlx(try_from = "i64")]
    pub delivery_id: DeliveryId,
    pub attempted_at: Millis,
    /// The endpoint's HTTP status, when it answered.
    pub status: Option<i64>,
    /// Why the attempt failed (an answer other than 2xx, or no answer).
    pub error: Option<String>,
    pub duration_ms: i64,
}

/// What one attempt at a delivery came to, to record.
#[derive(Debug, Clone)]
pub struct DeliveryAttempt<'a> {
    /// `pending` (will retry), `succeeded` or `failed`: the delivery's state after it.
    pub state: &'a str,
    pub attempted_at: Millis,
    pub status: Option<i64>,
    pub error: Option<&'a str>,
    pub duration_ms: i64,
}

const WEBHOOK_COLUMNS: &str =
    "id, tenant_id, url, description, event_types, secret, disabled, created_at, created_by, paused_at";
const DELIVERY_COLUMNS: &str = "id, tenant_id, endpoint_id, message_id, event_type, payload, state, attempts, \
    last_status, last_error, created_at, updated_at";

macro_rules! enqueue_delivery {
    ($tx:expr, $tenant_id:expr, $delivery_id:expr, $generation:expr) => {
        enqueue_delivery!($tx, $tenant_id, $delivery_id, $generation, now_millis())
    };
    ($tx:expr, $tenant_id:expr, $delivery_id:expr, $generation:expr, $run_at:expr) => {{
        let now: Millis = $run_at;
        let payload = json!({"deliveryId": $delivery_id});
        sqlx::query(
            "INSERT INTO jobs (kind, payload, dedupe_key, state, run_at, max_attempts, created_at, tenant_id) \
             VALUES ($1, $2, $3, 'ready', $4, $6, $4, $5)",
        )
        .bind(signet_domain::job::JobKind::WebhookDeliver.as_str())
        .bind(payload.to_string())
        .bind(format!("{}:{}:{}", signet_domain::job::JobKind::WebhookDeliver, $delivery_id, $generation))
        .bind(now)
        .bind($tenant_id.get())
        .bind(signet_domain::job::JobKind::WebhookDeliver.retry_policy().attempts)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
    }};
}

/// Closes an endpoint's breaker and queues its parked deliveries again (inside the caller's
/// transaction); evaluates to how many were queued.
macro_rules! release {
    ($tx:expr, $tenant_id:expr, $endpoint_id:expr) => {{
        sqlx::query(
            "UPDATE webhook_endpoints SET paused_at = NULL, probe_at = NULL, failures_in_row = 0 \
             WHERE tenant_id = $1 AND id = $2",
        )
        .bind($tenant_id.get())
        .bind($endpoint_id.get())
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
        let parked: Vec<(i64,)> = sqlx::query_as(
            "UPDATE webhook_deliveries SET parked_at = NULL WHERE tenant_id = $1 AND endpoint_id = $2 \
             AND parked_at IS NOT NULL RETURNING id",
        )
        .bind($tenant_id.get())
        .bind($endpoint_id.get())
        .fetch_all(&mut *$tx)
        .await
        .map_err(db_err)?;
        let generation = format!("u{}", now_millis());
        for (id,) in &parked {
            enqueue_delivery!($tx, $tenant_id, id, &generation);
        }
        parked.len()
    }};
}

impl Store {
    pub async fn create_webhook(
        &self,
        tenant_id: TenantId,
        url: &str,
        description: Option<&str>,
        event_types: &str,
        secret: &str,
        actor: &Actor,
    ) -> Result<WebhookRow> {
        let sql = format!(
            "INSERT INTO webhook_endpoints (tenant_id, url, description, event_types, secret, created_at, created_by) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {WEBHOOK_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: WebhookRow = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(url)
                .bind(description)
                .bind(event_types)
                .bind(secret)
                .bind(now_millis())
                .bind(&actor.id)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.event("webhook.created", format!("webhook:{}", row.id), json!({"url": url, "eventTypes": event_types}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// The tenant's endpoints that are not deleted.
    pub async fn webhooks(&self, tenant_id: TenantId) -> Result<Vec<WebhookRow>> {
        let sql = format!(
            "SELECT {WEBHOOK_COLUMNS} FROM webhook_endpoints WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY id"
        );
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id.get()).fetch_all(pool).await.map_err(db_err)
        })
    }

    pub async fn webhook(&self, tenant_id: TenantId, id: WebhookId) -> Result<Option<WebhookRow>> {
        let sql = format!(
            "SELECT {WEBHOOK_COLUMNS} FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL"
        );
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id.get()).bind(id.get()).fetch_optional(pool).await.map_err(db_err)
        })
    }

    pub async fn delete_webhook(&self, tenant_id: TenantId, id: WebhookId, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let done = sqlx::query(
                "UPDATE webhook_endpoints SET deleted_at = $3 WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .bind(now_millis())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if done != 1 {
                return Err(Error::not_found("webhook"));
            }
            let event = actor.event("webhook.deleted", format!("webhook:{id}"), json!({}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// One delivery per subscribed endpoint for this message (none twice), each with its job;
    /// `workflow` is the workflow the message is about, whose erasure takes the deliveries too.
    pub async fn create_deliveries(
        &self,
        tenant_id: TenantId,
        message_id: &str,
        event_type: &str,
        payload: &str,
        workflow: Option<signet_domain::WorkflowId>,
    ) -> Result<usize> {
        let endpoints = self.webhooks(tenant_id).await?;
        let targets: Vec<&WebhookRow> =
            endpoints.iter().filter(|w| !w.disabled && subscribed(&w.event_types, event_type)).collect();
        if targets.is_empty() {
            return Ok(0);
        }
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let mut created = 0;
            for endpoint in targets {
                let row: Option<(i64,)> = sqlx::query_as(
                    "INSERT INTO webhook_deliveries (tenant_id, endpoint_id, message_id, event_type, payload, state, \
                     created_at, updated_at, workflow_id) VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6, $7) \
                     ON CONFLICT (endpoint_id, message_id) DO NOTHING RETURNING id",
                )
                .bind(tenant_id.get())
                .bind(endpoint.id.get())
                .bind(message_id)
                .bind(event_type)
                .bind(payload)
                .bind(now)
                .bind(workflow.map(signet_domain::WorkflowId::get))
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
                if let Some((id,)) = row {
                    enqueue_delivery!(tx, tenant_id, id, 0);
                    created += 1;
                }
            }
            tx.commit().await.map_err(db_err)?;
            Ok(created)
        })
    }

    /// A delivery with its endpoint (for the delivery job); the endpoint is `None` once it has
    /// been deleted, so nothing is sent to a deleted endpoint.
    pub async fn delivery_with_endpoint(&self, id: DeliveryId) -> Result<Option<(DeliveryRow, Option<WebhookRow>)>> {
        let sql = format!("SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1");
        let delivery: Option<DeliveryRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(id.get()).fetch_optional(pool).await.map_err(db_err)?
        });
        let Some(delivery) = delivery else { return Ok(None) };
        let endpoint_sql =
            format!("SELECT {WEBHOOK_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND deleted_at IS NULL");
        let endpoint: Option<WebhookRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(endpoint_sql.as_str())).bind(delivery.endpoint_id.get()).fetch_optional(pool).await.map_err(db_err)?
        });
        Ok(Some((delivery, endpoint)))
    }

    /// Ends a delivery without an attempt (its endpoint was deleted or disabled meanwhile).
    pub async fn abandon_delivery(&self, id: DeliveryId, reason: &str) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("UPDATE webhook_deliveries SET state = 'failed', last_error = $2, updated_at = $3 WHERE id = $1")
                .bind(id.get())
                .bind(reason)
                .bind(now_millis())
                .execute(pool)
                .await
                .map_err(db_err)?;
            Ok(())
        })
    }

    /// Records one attempt at the delivery: its row in the history, and the delivery's state
    /// and last answer.
    pub async fn record_delivery_attempt(&self, delivery: &DeliveryRow, attempt: &DeliveryAttempt<'_>) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            sqlx::query(
                "UPDATE webhook_deliveries SET state = $2, attempts = attempts + 1, last_status = $3, last_error = $4, \
                 updated_at = $5 WHERE id = $1",
            )
            .bind(delivery.id.get())
            .bind(attempt.state)
            .bind(attempt.status)
            .bind(attempt.error)
            .bind(now_millis())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            sqlx::query(
                "INSERT INTO webhook_delivery_attempts (tenant_id, delivery_id, attempted_at, status, error, duration_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(delivery.tenant_id.get())
            .bind(delivery.id.get())
            .bind(attempt.attempted_at)
            .bind(attempt.status)
            .bind(attempt.error)
            .bind(attempt.duration_ms)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The attempts at the endpoint's latest `limit` deliveries (those [`Self::deliveries`]
    /// answers), oldest first.
    pub async fn delivery_attempts(
        &self,
        tenant_id: TenantId,
        endpoint_id: WebhookId,
        limit: i64,
    ) -> Result<Vec<DeliveryAttemptRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT delivery_id, attempted_at, status, error, duration_ms FROM webhook_delivery_attempts \
                 WHERE tenant_id = $1 AND delivery_id IN (SELECT id FROM webhook_deliveries \
                   WHERE tenant_id = $1 AND endpoint_id = $2 ORDER BY id DESC LIMIT $3) \
                 ORDER BY delivery_id, id",
            )
            .bind(tenant_id.get())
            .bind(endpoint_id.get())
            .bind(limit)
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// The endpoint's deliveries, newest first.
    pub async fn deliveries(
        &self,
        tenant_id: TenantId,
        endpoint_id: WebhookId,
        limit: i64,
    ) -> Result<Vec<DeliveryRow>> {
        let sql = format!(
            "SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries WHERE tenant_id = $1 AND endpoint_id = $2 ORDER BY id DESC LIMIT $3"
        );
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id.get()).bind(endpoint_id.get()).bind(limit).fetch_all(pool).await.map_err(db_err)
        })
    }

    /// Sends a finished delivery again (same message id). One in flight at a time: a pending
    /// delivery answers `StateConflict`.
    pub async fn redeliver(&self, tenant_id: TenantId, delivery_id: DeliveryId, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let state: Option<(String,)> = sqlx::query_as(
                "UPDATE webhook_deliveries SET state = 'pending', updated_at = $3 WHERE id = $1 AND tenant_id = $2 \
                 AND state <> 'pending' RETURNING state",
            )
            .bind(delivery_id.get())
            .bind(tenant_id.get())
            .bind(now_millis())
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            if state.is_none() {
                let exists: Option<(i64,)> = sqlx::query_as("SELECT id FROM webhook_deliveries WHERE id = $1 AND tenant_id = $2")
                    .bind(delivery_id.get())
                    .bind(tenant_id.get())
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db_err)?;
                return Err(match exists {
                    Some(_) => Error::rejected(ErrorCode::StateConflict, "this delivery is still being attempted"),
                    None => Error::not_found("delivery"),
                });
            }
            enqueue_delivery!(tx, tenant_id, delivery_id, format!("r{}", now_millis()));
            let event = actor.event("webhook.redelivered", format!("delivery:{delivery_id}"), json!({}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }
}

/// The circuit breaker of an endpoint (docs/api.md, "Webhooks"): consecutive failed attempts
/// pause it, a paused endpoint's deliveries are parked instead of attempted, one probe after a
/// cool-down (half-open) closes it again, and so does its owner resuming it.
impl Store {
    /// Counts a successful attempt: the endpoint's run of failures ends.
    pub async fn webhook_succeeded(&self, endpoint_id: WebhookId) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("UPDATE webhook_endpoints SET failures_in_row = 0 WHERE id = $1 AND failures_in_row <> 0")
                .bind(endpoint_id.get())
                .execute(pool)
                .await
                .map_err(db_err)?;
            Ok(())
        })
    }

    /// Counts a failed attempt; once `threshold` failures in a row are reached the endpoint is
    /// paused until `probe_at`. Answers whether this failure paused it (one caller does).
    pub async fn webhook_failed(&self, endpoint_id: WebhookId, threshold: i64, probe_at: Millis) -> Result<bool> {
        on_db!(self, pool => {
            // Only a delivering endpoint counts (WHERE), so a pause in what this statement
            // returns is the pause it made.
            let counted: Option<(Option<i64>,)> = sqlx::query_as(
                "UPDATE webhook_endpoints SET failures_in_row = failures_in_row + 1, \
                   paused_at = CASE WHEN failures_in_row + 1 >= $2 THEN $4 ELSE NULL END, \
                   probe_at = CASE WHEN failures_in_row + 1 >= $2 THEN $3 ELSE NULL END \
                 WHERE id = $1 AND paused_at IS NULL RETURNING paused_at",
            )
            .bind(endpoint_id.get())
            .bind(threshold)
            .bind(probe_at)
            .bind(now_millis())
            .fetch_optional(pool)
            .await
            .map_err(db_err)?;
            Ok(matches!(counted, Some((Some(_),))))
        })
    }

    /// Takes the probe of a paused endpoint whose cool-down has run out, moving the next probe
    /// to `next_probe_at`; answers whether this caller may attempt (one does per cool-down).
    pub async fn take_webhook_probe(&self, endpoint_id: WebhookId, next_probe_at: Millis) -> Result<bool> {
        on_db!(self, pool => {
            Ok(sqlx::query(
                "UPDATE webhook_endpoints SET probe_at = $2 \
                 WHERE id = $1 AND paused_at IS NOT NULL AND probe_at <= $3",
            )
            .bind(endpoint_id.get())
            .bind(next_probe_at)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?
            .rows_affected() == 1)
        })
    }

    /// Parks a delivery of a paused endpoint, with a job that runs it at `probe_at` (the next
    /// probe is then not left to chance). Answers false when the endpoint is no longer paused:
    /// the delivery is then attempted as usual.
    pub async fn park_delivery(&self, delivery: &DeliveryRow, probe_at: Option<Millis>) -> Result<bool> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let parked = sqlx::query(
                "UPDATE webhook_deliveries SET parked_at = $2, updated_at = $2 WHERE id = $1 AND EXISTS \
                 (SELECT 1 FROM webhook_endpoints e WHERE e.id = webhook_deliveries.endpoint_id AND e.paused_at IS NOT NULL)",
            )
            .bind(delivery.id.get())
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected() == 1;
            if let (true, Some(probe_at)) = (parked, probe_at) {
                enqueue_delivery!(tx, delivery.tenant_id, delivery.id, format!("probe{probe_at}"), probe_at);
            }
            tx.commit().await.map_err(db_err)?;
            Ok(parked)
        })
    }

    /// Closes an endpoint's breaker after a successful probe: it delivers again, and its parked
    /// deliveries are queued.
    pub async fn close_webhook_breaker(&self, tenant_id: TenantId, endpoint_id: WebhookId) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            release!(tx, tenant_id, endpoint_id);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The owner resumes a paused endpoint (nothing changes for one that is delivering): its
    /// parked deliveries are queued.
    pub async fn resume_webhook(&self, tenant_id: TenantId, id: WebhookId, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let found: Option<(Option<i64>,)> = sqlx::query_as(
                "SELECT paused_at FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            match found {
                None => return Err(Error::not_found("webhook")),
                Some((None,)) => return Ok(()),
                Some((Some(_),)) => {}
            }
            let released = release!(tx, tenant_id, id);
            let event = actor.event("webhook.resumed", format!("webhook:{id}"), json!({"released": released}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Who is told that an endpoint was paused: the user who registered it while they are
    /// active, else the tenant's active administrators.
    pub async fn webhook_owner_emails(&self, endpoint: &WebhookRow) -> Result<Vec<String>> {
        let creator = endpoint
            .created_by
            .as_deref()
            .and_then(|by| by.strip_prefix("user:"))
            .and_then(|id| id.parse::<i64>().ok());
        on_db!(self, pool => {
            let mut emails: Vec<(String,)> = Vec::new();
            if let Some(creator) = creator {
                emails = sqlx::query_as(
                    "SELECT email FROM principals WHERE tenant_id = $1 AND id = $2 AND kind = 'user' \
                     AND status = 'active' AND NOT disabled AND email IS NOT NULL",
                )
                .bind(endpoint.tenant_id.get())
                .bind(creator)
                .fetch_all(pool)
                .await
                .map_err(db_err)?;
            }
            if emails.is_empty() {
                emails = sqlx::query_as(
                    "SELECT email FROM principals WHERE tenant_id = $1 AND kind = 'user' AND role = 'administrator' \
                     AND status = 'active' AND NOT disabled AND email IS NOT NULL ORDER BY id",
                )
                .bind(endpoint.tenant_id.get())
                .fetch_all(pool)
                .await
                .map_err(db_err)?;
            }
            Ok(emails.into_iter().map(|(email,)| email).collect())
        })
    }
}
