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

const WEBHOOK_COLUMNS: &str = "id, tenant_id, url, description, event_types, secret, disabled, created_at";
const DELIVERY_COLUMNS: &str = "id, tenant_id, endpoint_id, message_id, event_type, payload, state, attempts, \
    last_status, last_error, created_at, updated_at";

macro_rules! enqueue_delivery {
    ($tx:expr, $tenant_id:expr, $delivery_id:expr, $generation:expr) => {{
        let now = now_millis();
        let payload = json!({"deliveryId": $delivery_id});
        sqlx::query(
            "INSERT INTO jobs (kind, payload, dedupe_key, state, run_at, max_attempts, created_at, tenant_id) \
             VALUES ($1, $2, $3, 'ready', $4, 8, $4, $5)",
        )
        .bind(signet_domain::job::JobKind::WebhookDeliver.as_str())
        .bind(payload.to_string())
        .bind(format!("{}:{}:{}", signet_domain::job::JobKind::WebhookDeliver, $delivery_id, $generation))
        .bind(now)
        .bind($tenant_id.get())
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
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
            "INSERT INTO webhook_endpoints (tenant_id, url, description, event_types, secret, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING {WEBHOOK_COLUMNS}"
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
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.event("webhook.created", format!("webhook:{}", row.id), json!({"url": url, "eventTypes": event_types}));
            append_audit!(tx, tenant_id, &event);
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
            append_audit!(tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// One delivery per subscribed endpoint for this message (none twice), each with its job.
    pub async fn create_deliveries(
        &self,
        tenant_id: TenantId,
        message_id: &str,
        event_type: &str,
        payload: &str,
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
                     created_at, updated_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6) \
                     ON CONFLICT (endpoint_id, message_id) DO NOTHING RETURNING id",
                )
                .bind(tenant_id.get())
                .bind(endpoint.id.get())
                .bind(message_id)
                .bind(event_type)
                .bind(payload)
                .bind(now)
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

    /// Records one attempt: `state` is `pending` (will retry), `succeeded` or `failed`.
    pub async fn record_delivery_attempt(
        &self,
        id: DeliveryId,
        state: &str,
        status: Option<i64>,
        error: Option<&str>,
    ) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query(
                "UPDATE webhook_deliveries SET state = $2, attempts = attempts + 1, last_status = $3, last_error = $4, \
                 updated_at = $5 WHERE id = $1",
            )
            .bind(id.get())
            .bind(state)
            .bind(status)
            .bind(error)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?;
            Ok(())
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
            append_audit!(tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }
}
