//! Webhook publishing and delivery. `publish` records one delivery per subscribed endpoint
//! (with its job); the `webhook.deliver` job posts it the Standard Webhooks way, records the
//! attempt, and the job queue retries failures by the outbound policy (`RetryPolicy::OUTBOUND`:
//! more than a day). The job lease keeps one attempt in flight per delivery; the message id
//! stays the same on every attempt. Each endpoint has a circuit breaker (store `webhooks.rs`):
//! repeated failures pause it, its deliveries then wait for a probe or for its owner to resume.

use serde::Deserialize;
use serde_json::json;
use signet_domain::access::Permission;
use signet_domain::webhook::{BREAKER_COOL_DOWN, BREAKER_FAILURES, signature};
use signet_domain::{DeliveryId, Error, WebhookId, now_millis};
use signet_store::{ClaimedJob, DeliveryAttempt, DeliveryAttemptRow, DeliveryRow, WebhookRow};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::{Caller, Services};

/// Largest webhook response body read (and dropped).
const MAX_RESPONSE_BYTES: u64 = 64 * 1024;

/// Records deliveries of an event to the tenant's subscribed endpoints; `workflow` is the
/// workflow it is about (its erasure erases the deliveries).
pub async fn publish(
    state: &Services,
    tenant_id: signet_domain::TenantId,
    message_id: &str,
    event_type: &str,
    data: serde_json::Value,
    workflow: Option<signet_domain::WorkflowId>,
) -> Result<(), signet_domain::Error> {
    let timestamp = OffsetDateTime::now_utc().format(&Rfc3339).unwrap_or_default();
    let body = json!({"type": event_type, "timestamp": timestamp, "data": data}).to_string();
    state.store.create_deliveries(tenant_id, message_id, event_type, &body, workflow).await?;
    Ok(())
}

/// The outbound policy for webhook URLs.
pub fn http_policy(state: &Services) -> signet_sigcrypto::HttpConfig {
    state.config.outbound_http_within(10, MAX_RESPONSE_BYTES)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DeliverJob {
    delivery_id: DeliveryId,
}

/// Why an outbound post failed (a webhook delivery, a CRM push); its text is the queue job's
/// stored error, as before.
#[derive(Debug, thiserror::Error)]
pub enum DeliverError {
    /// The job's payload is not a delivery (Signet wrote it: a bug, kept with its cause).
    #[error("bad job: {0}")]
    Payload(#[source] serde_json::Error),
    #[error(transparent)]
    Store(#[from] signet_domain::Error),
    /// The blocking task that posts the request died.
    #[error("{0}")]
    Task(#[from] tokio::task::JoinError),
    /// The endpoint answered other than 2xx, or could not be reached: the same text as the
    /// delivery's recorded error, so that the queue retries the attempt.
    #[error("{0}")]
    Refused(String),
}

/// What follows an attempt.
enum Next {
    /// It succeeded.
    Done,
    /// The queue tries it again later.
    Retry(String),
    /// It failed on its last attempt.
    GiveUp(String),
    /// The endpoint is paused: the delivery waits, with a probe at this time.
    Park(signet_domain::Millis),
}

/// The `webhook.deliver` job: one attempt. An error makes the queue retry it later. A paused
/// endpoint's delivery is parked instead (its job ends without an attempt), unless it is the
/// one probe of the cool-down (docs/api.md, "Webhooks").
pub async fn deliver(state: &Services, job: &ClaimedJob) -> Result<(), DeliverError> {
    let DeliverJob { delivery_id } = serde_json::from_str(&job.payload).map_err(DeliverError::Payload)?;
    let Some((delivery, endpoint)) = state.store.delivery_with_endpoint(delivery_id).await? else {
        return Ok(());
    };
    // Checked at delivery time: an endpoint deleted or disabled after the event was recorded
    // receives nothing.
    let endpoint = match endpoint {
        Some(endpoint) if !endpoint.disabled => endpoint,
        gone => {
            let reason = if gone.is_some() { "the endpoint is disabled" } else { "the endpoint was deleted" };
            state.store.abandon_delivery(delivery_id, reason).await?;
            return Ok(());
        }
    };
    let cool_down = i64::try_from(state.config.job_retry_base_ms).unwrap_or(1000).saturating_mul(BREAKER_COOL_DOWN);
    let next_probe = now_millis().saturating_add(cool_down);
    let probing = match endpoint.paused_at {
        None => false,
        Some(_) if state.store.take_webhook_probe(endpoint.id, next_probe).await? => true,
        Some(_) => {
            if state.store.park_delivery(&delivery, None).await? {
                return Ok(());
            }
            false // resumed meanwhile
        }
    };
    let timestamp = OffsetDateTime::now_utc().unix_timestamp();
    let Some(signed) = signature(&endpoint.secret, &delivery.message_id, timestamp, delivery.payload.as_bytes()) else {
        let attempt = DeliveryAttempt {
            state: "failed",
            attempted_at: now_millis(),
            status: None,
            error: Some("the endpoint secret is unusable"),
            duration_ms: 0,
        };
        state.store.record_delivery_attempt(&delivery, &attempt).await?;
        return Ok(());
    };
    let (url, body, id, cfg) =
        (endpoint.url.clone(), delivery.payload.clone(), delivery.message_id.clone(), http_policy(state));
    let ts = timestamp.to_string();
    let attempted_at = now_millis();
    let started = std::time::Instant::now();
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
    .await?;
    let duration_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
    let (status, error) = match outcome {
        Ok(status) if (200..300).contains(&status) => (Some(i64::from(status)), None),
        Ok(status) => (Some(i64::from(status)), Some(format!("HTTP {status}"))),
        Err(error) => (None, Some(error.to_string())),
    };
    let next = match error.clone() {
        None => Next::Done,
        // A failed probe: the endpoint rests another cool-down (its probe time already moved).
        Some(_) if probing => Next::Park(next_probe),
        Some(error) => {
            if state.store.webhook_failed(endpoint.id, BREAKER_FAILURES, next_probe).await? {
                tell_paused(state, &endpoint).await;
                Next::Park(next_probe)
            } else if job.attempts >= job.max_attempts {
                Next::GiveUp(error)
            } else {
                Next::Retry(error)
            }
        }
    };
    let state_now = match next {
        Next::Done => "succeeded",
        Next::GiveUp(_) => "failed",
        Next::Retry(_) | Next::Park(_) => "pending",
    };
    let attempt = DeliveryAttempt { state: state_now, attempted_at, status, error: error.as_deref(), duration_ms };
    state.store.record_delivery_attempt(&delivery, &attempt).await?;
    match next {
        Next::Done if probing => Ok(state.store.close_webhook_breaker(endpoint.tenant_id, endpoint.id).await?),
        Next::Done => Ok(state.store.webhook_succeeded(endpoint.id).await?),
        Next::Retry(error) => Err(DeliverError::Refused(error)),
        Next::GiveUp(error) => {
            tracing::warn!(delivery_id = delivery_id.get(), %error, "webhook delivery failed for good");
            Ok(())
        }
        Next::Park(probe_at) => {
            if state.store.park_delivery(&delivery, Some(probe_at)).await? {
                Ok(())
            } else {
                Err(DeliverError::Refused("the endpoint was resumed meanwhile; attempted again".into()))
            }
        }
    }
}

/// Tells the endpoint's owner (who registered it, else the tenant's administrators) that the
/// breaker paused it. A message that cannot be queued is logged: the pause stands regardless,
/// and the console shows it.
async fn tell_paused(state: &Services, endpoint: &WebhookRow) {
    let emails = match state.store.webhook_owner_emails(endpoint).await {
        Ok(emails) => emails,
        Err(error) => {
            tracing::warn!(webhook = endpoint.id.get(), %error, "could not find whom to tell of a paused webhook");
            return;
        }
    };
    let cool_down_minutes = i64::try_from(state.config.job_retry_base_ms).unwrap_or(1000) * BREAKER_COOL_DOWN / 60_000;
    for email in emails {
        let mail = crate::platform::mail::Mail {
            to_email: email.clone(),
            to_name: String::new(),
            subject: format!("Webhook endpoint paused: {}", endpoint.url),
            text: format!(
                "Signet paused the webhook endpoint {} after {BREAKER_FAILURES} failed attempts in a row.\n\
                 Its deliveries are kept and wait. Every {cool_down_minutes} minutes one of them is tried \
                 again, and when it succeeds the endpoint resumes with all the others. Once the endpoint \
                 works, you can also resume it yourself: Settings, Webhooks, Resume in the console, or \
                 POST /api/v1/webhooks/{}/resume.\n",
                endpoint.url, endpoint.id
            ),
            html: None,
            attachments: Vec::new(),
        };
        let dedupe = Some(format!("webhook.paused:{}:{}:{email}", endpoint.id, now_millis()));
        if let Err(error) = crate::platform::mail::enqueue(&state.store, &mail, dedupe).await {
            tracing::warn!(webhook = endpoint.id.get(), %error, "could not queue the paused-webhook notice");
        }
    }
}

/// A new endpoint for the tenant: its URL must be absolute http(s) and allowed by the outbound
/// policy (public addresses unless the operator allows private ones), its event types known.
/// Returns the endpoint and its signing secret (shown once).
pub async fn create_endpoint(
    svc: &Services,
    caller: &Caller,
    url: &str,
    description: Option<&str>,
    event_types: &[String],
) -> Result<(signet_store::WebhookRow, String), signet_domain::Error> {
    caller.require(Permission::ManageSettings)?;
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    use base64::Engine;
    use signet_domain::Error;
    let url = check_endpoint_url(svc, url).await?;
    let types = check_types(event_types)?;
    if description.is_some_and(|d| d.chars().count() > 500) {
        return Err(Error::field("description", "must be at most 500 characters"));
    }
    let mut key = [0u8; 24];
    aws_lc_rs::rand::fill(&mut key).map_err(|_| Error::internal("random"))?;
    let secret = format!("whsec_{}", base64::engine::general_purpose::STANDARD.encode(key));
    let row = svc.store.create_webhook(tenant_id, &url, description, &types, &secret, actor).await?;
    Ok((row, secret))
}

/// An outbound endpoint's URL (webhooks, the CRM): absolute http(s) of at most 2000
/// characters, allowed by the outbound policy; answered trimmed. Refusals name `url`.
pub async fn check_endpoint_url(svc: &Services, url: &str) -> Result<String, signet_domain::Error> {
    use signet_domain::Error;
    let url = url.trim().to_string();
    let shaped = (url.starts_with("https://") || url.starts_with("http://"))
        && url.len() <= 2000
        && !url.chars().any(|c| c.is_whitespace() || c.is_control());
    if !shaped {
        return Err(Error::field("url", "must be an absolute http(s) URL of at most 2000 characters"));
    }
    let policy = http_policy(svc);
    let checked = {
        let url = url.clone();
        tokio::task::spawn_blocking(move || signet_sigcrypto::check_url(&url, &policy))
            .await
            .map_err(Error::internal)?
    };
    checked.map_err(|e| Error::field("url", format!("not allowed: {e}")))?;
    Ok(url)
}

/// The event types an endpoint subscribes to, as stored (comma-separated; `*` for all).
fn check_types(types: &[String]) -> Result<String, signet_domain::Error> {
    use signet_domain::Error;
    use signet_domain::webhook::EVENT_TYPES;
    if types.is_empty() || types.len() > EVENT_TYPES.len() {
        return Err(Error::field("eventTypes", "name one or more event types, or \"*\""));
    }
    for t in types {
        if t != "*" && !EVENT_TYPES.contains(&t.as_str()) {
            return Err(Error::field(
                "eventTypes",
                format!("unknown event type {t:?}; known: {}", EVENT_TYPES.join(", ")),
            ));
        }
    }
    Ok(types.join(","))
}

/// The tenant's endpoints (managing settings).
pub async fn endpoints(svc: &Services, caller: &Caller) -> Result<Vec<WebhookRow>, Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.webhooks(caller.tenant_id).await
}

/// Deletes one of the tenant's endpoints (managing settings); nothing more is sent to it.
pub async fn delete_endpoint(svc: &Services, caller: &Caller, id: WebhookId) -> Result<(), Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.delete_webhook(caller.tenant_id, id, &caller.actor).await
}

/// A delivery with its attempts, oldest first.
pub type DeliveryWithAttempts = (DeliveryRow, Vec<DeliveryAttemptRow>);

/// The latest 100 deliveries to one of the tenant's endpoints, newest first, each with every
/// attempt at it (managing settings); another tenant's endpoint reads as missing.
pub async fn deliveries(svc: &Services, caller: &Caller, id: WebhookId) -> Result<Vec<DeliveryWithAttempts>, Error> {
    const LATEST: i64 = 100;
    caller.require(Permission::ManageSettings)?;
    svc.store.webhook(caller.tenant_id, id).await?.ok_or_else(|| Error::not_found("webhook"))?;
    let deliveries = svc.store.deliveries(caller.tenant_id, id, LATEST).await?;
    let mut attempts: std::collections::HashMap<DeliveryId, Vec<DeliveryAttemptRow>> = Default::default();
    for attempt in svc.store.delivery_attempts(caller.tenant_id, id, LATEST).await? {
        attempts.entry(attempt.delivery_id).or_default().push(attempt);
    }
    Ok(deliveries
        .into_iter()
        .map(|delivery| {
            let its = attempts.remove(&delivery.id).unwrap_or_default();
            (delivery, its)
        })
        .collect())
}

/// Resumes an endpoint the circuit breaker paused (managing settings): its waiting deliveries
/// are sent. Resuming an endpoint that is delivering changes nothing.
pub async fn resume_endpoint(svc: &Services, caller: &Caller, id: WebhookId) -> Result<(), Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.resume_webhook(caller.tenant_id, id, &caller.actor).await
}

/// Queues a finished delivery again, with the same message id (managing settings).
pub async fn redeliver(svc: &Services, caller: &Caller, delivery_id: DeliveryId) -> Result<(), Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.redeliver(caller.tenant_id, delivery_id, &caller.actor).await
}
