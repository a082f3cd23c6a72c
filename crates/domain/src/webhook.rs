//! Webhooks: the event types a tenant can subscribe to and the Standard Webhooks signature
//! (`webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, the key being the
//! base64 part of the `whsec_` secret).

use aws_lc_rs::hmac;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::audit::WorkflowEventKind;

/// Every event a webhook can receive: most are workflow events (spelled by their kind), the
/// last two are the tenant's own.
pub const EVENT_TYPES: [&str; 13] = [
    WorkflowEventKind::WorkflowCreated.as_str(),
    WorkflowEventKind::SignatoryNotified.as_str(),
    WorkflowEventKind::SignatoryViewed.as_str(),
    WorkflowEventKind::SignatorySigned.as_str(),
    WorkflowEventKind::SignatoryDeclined.as_str(),
    WorkflowEventKind::SignatoryDelegated.as_str(),
    WorkflowEventKind::WorkflowCompleted.as_str(),
    WorkflowEventKind::WorkflowDeclined.as_str(),
    WorkflowEventKind::WorkflowExpired.as_str(),
    WorkflowEventKind::WorkflowInactive.as_str(),
    WorkflowEventKind::WorkflowDeleted.as_str(),
    "stamps.low_stock",
    "bulk.completed",
];

/// The circuit breaker: this many failed attempts at an endpoint in a row (over all its
/// deliveries, no success between) pause it. Ten, so that one late or flaky answer does not,
/// while an endpoint that is down stops being hammered within its first minutes.
pub const BREAKER_FAILURES: i64 = 10;

/// How long a paused endpoint rests before one delivery probes it (half-open), in units of the
/// job retry base: five minutes in production.
pub const BREAKER_COOL_DOWN: i64 = 300;

/// Whether webhooks receive a workflow event of this kind.
pub fn published(kind: WorkflowEventKind) -> bool {
    EVENT_TYPES.contains(&kind.as_str())
}

/// Whether an endpoint subscribed to `types` (`*` = all) receives `event`.
pub fn subscribed(types: &str, event: &str) -> bool {
    types.split(',').map(str::trim).any(|t| t == "*" || t == event)
}

/// The signature header value for one delivery attempt; `None` for a malformed secret.
pub fn signature(secret: &str, message_id: &str, timestamp: i64, body: &[u8]) -> Option<String> {
    let key = STANDARD.decode(secret.strip_prefix("whsec_").unwrap_or(secret)).ok()?;
    let key = hmac::Key::new(hmac::HMAC_SHA256, &key);
    let mut ctx = hmac::Context::with_key(&key);
    ctx.update(message_id.as_bytes());
    ctx.update(b".");
    ctx.update(timestamp.to_string().as_bytes());
    ctx.update(b".");
    ctx.update(body);
    Some(format!("v1,{}", STANDARD.encode(ctx.sign().as_ref())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_webhooks_reference_vector() {
        // From the Standard Webhooks specification's examples (svix's test vector).
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
        let body = br#"{"test": 2432232314}"#;
        assert_eq!(
            signature(secret, id, 1614265330, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
        assert!(signature("whsec_%%%", id, 1, body).is_none());
    }

    #[test]
    fn subscriptions() {
        assert!(subscribed("*", "workflow.completed"));
        assert!(subscribed("signatory.signed, workflow.completed", "workflow.completed"));
        assert!(!subscribed("signatory.signed", "workflow.completed"));
    }
}
