//! Webhook publishing and delivery. `publish` records one delivery per subscribed endpoint
//! (with its job); the `webhook.deliver` job posts it the Standard Webhooks way and the job
//! queue retries failures with exponential backoff up to its attempt cap. The job lease keeps
//! one attempt in flight per delivery; the message id stays the same on every attempt.

use serde::Deserialize;
use serde_json::json;
use signet_domain::webhook::signature;
use signet_store::ClaimedJob;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::AppState;

/// Largest webhook response body read (and dropped).
const MAX_RESPONSE_BYTES: u64 = 64 * 1024;

/// Records deliveries of an event to the tenant's subscribed endpoints.
pub async fn publish(
    state: &AppState,
    tenant_id: i64,
    message_id: &str,
    event_type: &str,
    data: serde_json::Value,
) -> Result<(), String> {
    let timestamp = OffsetDateTime::now_utc().format(&Rfc3339).unwrap_or_default();
    let body = json!({"type": event_type, "timestamp": timestamp, "data": data}).to_string();
    state.store.create_deliveries(tenant_id, message_id, event_type, &body).await.map_err(|e| e.to_string())?;
    Ok(())
}

/// The outbound policy for webhook URLs (public addresses only unless the operator allows).
pub fn http_policy(state: &AppState) -> signet_sigcrypto::HttpConfig {
    let mut cfg = if state.config.outbound_allow_private {
        signet_sigcrypto::HttpConfig::allow_private()
    } else {
        signet_sigcrypto::HttpConfig::default()
    };
    cfg.timeout = std::time::Duration::from_secs(10);
    cfg.max_response_bytes = MAX_RESPONSE_BYTES;
    cfg
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DeliverJob {
    delivery_id: i64,
}

/// The `webhook.deliver` job: one attempt. An error makes the queue retry it later.
pub async fn deliver(state: &AppState, job: &ClaimedJob) -> Result<(), String> {
    let DeliverJob { delivery_id } = serde_json::from_str(&job.payload).map_err(|e| format!("bad job: {e}"))?;
    let Some((delivery, endpoint)) =
        state.store.delivery_with_endpoint(delivery_id).await.map_err(|e| e.to_string())?
    else {
        return Ok(());
    };
    // Checked at delivery time: an endpoint deleted or disabled after the event was recorded
    // receives nothing.
    let endpoint = match endpoint {
        Some(endpoint) if !endpoint.disabled => endpoint,
        gone => {
            let reason = if gone.is_some() { "the endpoint is disabled" } else { "the endpoint was deleted" };
            state.store.abandon_delivery(delivery_id, reason).await.map_err(|e| e.to_string())?;
            return Ok(());
        }
    };
    let timestamp = OffsetDateTime::now_utc().unix_timestamp();
    let Some(signed) = signature(&endpoint.secret, &delivery.message_id, timestamp, delivery.payload.as_bytes()) else {
        state
            .store
            .record_delivery_attempt(delivery_id, "failed", None, Some("the endpoint secret is unusable"))
            .await
            .map_err(|e| e.to_string())?;
        return Ok(());
    };
    let (url, body, id, cfg) =
        (endpoint.url.clone(), delivery.payload.clone(), delivery.message_id.clone(), http_policy(state));
    let ts = timestamp.to_string();
    let outcome = tokio::task::spawn_blocking(move || {
        let headers = [
            ("Content-Type", "application/json"),
            ("User-Agent", "Signet-Webhooks/1"),
            ("webhook-id", id.as_str()),
            ("webhook-timestamp", ts.as_str()),
            ("webhook-signature", signed.as_str()),
        ];
        signet_sigcrypto::post_for_status(&url, &headers, body.as_bytes(), &cfg)
    })
    .await
    .map_err(|e| e.to_string())?;
    let last_attempt = job.attempts >= job.max_attempts;
    let (state_now, status, error) = match outcome {
        Ok(status) if (200..300).contains(&status) => ("succeeded", Some(i64::from(status)), None),
        Ok(status) => {
            (if last_attempt { "failed" } else { "pending" }, Some(i64::from(status)), Some(format!("HTTP {status}")))
        }
        Err(error) => (if last_attempt { "failed" } else { "pending" }, None, Some(error.to_string())),
    };
    state
        .store
        .record_delivery_attempt(delivery_id, state_now, status, error.as_deref())
        .await
        .map_err(|e| e.to_string())?;
    match error {
        Some(error) if !last_attempt => Err(error),
        Some(error) => {
            tracing::warn!(delivery_id, %error, "webhook delivery failed for good");
            Ok(())
        }
        None => Ok(()),
    }
}
