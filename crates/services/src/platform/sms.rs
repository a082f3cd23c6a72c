//! SMS to workflow signers (issue 37, item 8): a second channel beside e-mail for the
//! invitation and reminders, to the mobile number the sender gave (`mobileNo`).
//!
//! Why it is built this way:
//! - One interface, [`SmsSender`], so that a provider is an adapter: sending one text to one
//!   number, with a failure that says whether trying again can help ([`SmsFailure`]). The job
//!   queue does the trying again, as it does for e-mail and webhooks.
//! - One real adapter, [`TwilioSender`], for Twilio's public Messages API (`POST
//!   {base}/2010-04-01/Accounts/{AccountSid}/Messages.json`, form fields `To`, `From`, `Body`,
//!   HTTP Basic with the SID and auth token). Many Indian and international gateways offer the
//!   same wire format, so `sms_api_url` can point at one of them too. It goes through the
//!   guarded outbound client (timeouts, size caps, public addresses unless the operator allows
//!   private ones), like every other outbound call.
//! - Each text is its own `sms.send` job, queued by the workflow's event job after its e-mail:
//!   a provider that is down delays the text and never the e-mail, and a text that fails is
//!   tried again with the queue's backoff. Its outcome is an event of the workflow
//!   (`signatory.sms_sent`, or `signatory.sms_failed` once it is refused or out of attempts),
//!   so the sender sees it on the timeline.
//! - A number is personal: logs, job errors and events carry it masked (the last four digits),
//!   only the provider gets it whole.

use signet_domain::audit::{Actor, WorkflowEventKind};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::json;
use signet_domain::job::JobKind;
use signet_domain::phone::PhoneNumber;
use signet_domain::{Error, SignatoryId, TenantId, WorkflowId, now_millis};
use signet_store::{ClaimedJob, NewJob, Store};

use crate::{Config, Services};

/// Attempts of one text before it is given up (with the queue's backoff, about a minute of
/// tries at the default base, then the failure is on the timeline).
const SMS_ATTEMPTS: i64 = 6;
/// Largest answer read from the provider (its JSON about one message).
const MAX_ANSWER_BYTES: u64 = 64 * 1024;
/// Longest provider refusal kept in an event.
const MAX_REASON_CHARS: usize = 300;

/// Why a text was not sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SmsFailure {
    /// The provider refused this text for good (a number it cannot reach, a blocked
    /// recipient, an account it will not send for): trying again would get the same answer.
    Refused(String),
    /// The provider could not be reached, timed out, or failed on its side: worth a retry.
    TryAgain(String),
}

/// A text the provider took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentSms {
    /// The provider's id of the message (Twilio's `sid`), for tracing it with them.
    pub provider_id: String,
}

/// The future an [`SmsSender`] answers with.
pub type SendFuture<'a> = Pin<Box<dyn Future<Output = Result<SentSms, SmsFailure>> + Send + 'a>>;

/// An SMS provider as Signet uses one: one text to one number.
pub trait SmsSender: Send + Sync {
    fn send<'a>(&'a self, to: &'a PhoneNumber, text: &'a str) -> SendFuture<'a>;
}

/// The configured SMS provider, if the installation has one; a partial configuration (some of
/// the SID, token and number) stops the start, as a half-configured channel would send
/// nothing without saying why.
pub fn configured(config: &Config) -> anyhow::Result<Option<Arc<dyn SmsSender>>> {
    Ok(TwilioSender::from_config(config)?.map(|sender| Arc::new(sender) as Arc<dyn SmsSender>))
}

/// Twilio's Messages API over the guarded outbound client.
#[derive(Clone)]
pub struct TwilioSender {
    messages_url: String,
    authorization: String,
    from: PhoneNumber,
    policy: signet_sigcrypto::HttpConfig,
}

impl TwilioSender {
    /// The sender the settings describe (`sms_api_url`, `sms_account_sid`, `sms_auth_token`,
    /// `sms_from`), or none when none of the three is set.
    pub fn from_config(config: &Config) -> anyhow::Result<Option<TwilioSender>> {
        let set =
            |value: &Option<String>| value.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_string);
        let (sid, token, from) = (set(&config.sms_account_sid), set(&config.sms_auth_token), set(&config.sms_from));
        let (sid, token, from) = match (sid, token, from) {
            (None, None, None) => return Ok(None),
            (Some(sid), Some(token), Some(from)) => (sid, token, from),
            _ => anyhow::bail!("SMS needs all of sms_account_sid, sms_auth_token and sms_from (or none of them)"),
        };
        if sid.len() > 64 || !sid.chars().all(|c| c.is_ascii_alphanumeric()) {
            anyhow::bail!("sms_account_sid must be the account's SID (letters and digits, e.g. AC0123…)");
        }
        let from = PhoneNumber::parse(&from).map_err(|why| anyhow::anyhow!("sms_from {why}"))?;
        let base = config.sms_api_url.trim().trim_end_matches('/');
        if !(base.starts_with("https://") || base.starts_with("http://")) {
            anyhow::bail!("sms_api_url must be an http(s) address, e.g. https://api.twilio.com");
        }
        let mut policy = config.outbound_http_within(config.sms_timeout_secs.max(1), MAX_ANSWER_BYTES);
        policy.timeout = Duration::from_secs(config.sms_timeout_secs.max(1));
        let basic = base64::engine::general_purpose::STANDARD.encode(format!("{sid}:{token}"));
        Ok(Some(TwilioSender {
            messages_url: format!("{base}/2010-04-01/Accounts/{sid}/Messages.json"),
            authorization: format!("Basic {basic}"),
            from,
            policy,
        }))
    }

    /// One blocking call: the form posted, the answer read.
    fn post(&self, to: &PhoneNumber, text: &str) -> Result<SentSms, SmsFailure> {
        let form = [("To", to.e164()), ("From", self.from.e164()), ("Body", text)];
        let body = serde_urlencoded::to_string(form).map_err(|e| SmsFailure::Refused(e.to_string()))?;
        let headers = [
            ("Authorization", self.authorization.as_str()),
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Accept", "application/json"),
        ];
        match signet_sigcrypto::exchange(&self.messages_url, &headers, Some(body.as_bytes()), &self.policy) {
            Ok((status, answer)) => read_answer(status, &answer, to),
            Err(error) => Err(SmsFailure::TryAgain(format!("cannot reach the SMS provider: {error}"))),
        }
    }
}

impl SmsSender for TwilioSender {
    fn send<'a>(&'a self, to: &'a PhoneNumber, text: &'a str) -> SendFuture<'a> {
        let (this, to, text) = (self.clone(), to.clone(), text.to_string());
        Box::pin(async move {
            // The outbound client blocks: on a blocking thread, held at most the timeout.
            tokio::task::spawn_blocking(move || this.post(&to, &text))
                .await
                .unwrap_or_else(|e| Err(SmsFailure::TryAgain(format!("the SMS call stopped: {e}"))))
        })
    }
}

#[derive(Deserialize)]
struct Accepted {
    sid: Option<String>,
}

#[derive(Deserialize)]
struct Refusal {
    code: Option<i64>,
    message: Option<String>,
}

/// The provider's answer: 2xx took the text, 429 and 5xx are worth a retry, other 4xx refuse
/// it for good (with Twilio's `code` and `message`, the number masked in them).
fn read_answer(status: u16, answer: &[u8], to: &PhoneNumber) -> Result<SentSms, SmsFailure> {
    match status {
        200..=299 => {
            // Taken: an answer without its id still means sent (retrying would text twice).
            let sid = serde_json::from_slice::<Accepted>(answer).ok().and_then(|a| a.sid).unwrap_or_default();
            Ok(SentSms { provider_id: sid })
        }
        429 => Err(SmsFailure::TryAgain("the SMS provider asks to slow down (HTTP 429)".into())),
        400..=499 => {
            let refusal = serde_json::from_slice::<Refusal>(answer).ok();
            let code = refusal.as_ref().and_then(|r| r.code).map(|c| format!(" {c}")).unwrap_or_default();
            let message = refusal.and_then(|r| r.message).unwrap_or_default().replace(to.e164(), &to.masked());
            let message: String = message.chars().take(MAX_REASON_CHARS).collect();
            Err(SmsFailure::Refused(format!("the SMS provider refused the text (HTTP {status}{code}): {message}")))
        }
        other => Err(SmsFailure::TryAgain(format!("the SMS provider answered HTTP {other}"))),
    }
}

/// Why a signatory is texted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    Invitation,
    Reminder,
}

/// One text to a workflow's signatory, as queued.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignerSms {
    pub tenant_id: TenantId,
    pub workflow_id: WorkflowId,
    pub signatory_id: SignatoryId,
    /// E.164; read back through the same check.
    pub to: String,
    pub text: String,
    pub purpose: Purpose,
}

/// Queues a text; `dedupe_key` keeps a retried event from texting twice.
pub async fn enqueue(store: &Store, sms: &SignerSms, dedupe_key: String) -> Result<(), Error> {
    store
        .enqueue_job(&NewJob {
            tenant: Some(sms.tenant_id),
            kind: JobKind::Sms,
            payload: serde_json::to_value(sms)?,
            dedupe_key: Some(dedupe_key),
            run_at: now_millis(),
            max_attempts: SMS_ATTEMPTS,
        })
        .await?;
    Ok(())
}

/// Why an `sms.send` attempt failed; its text is the queue job's stored error, as before.
#[derive(Debug, thiserror::Error)]
pub enum SmsJobError {
    /// The job's payload is not a text (Signet wrote it: a bug, kept with its cause).
    #[error("bad sms job: {0}")]
    Payload(#[source] serde_json::Error),
    /// The provider failed in a way worth another attempt (the provider's words).
    #[error("{0}")]
    TryAgain(String),
}

/// The `sms.send` job: one attempt. A failure worth a retry is an error (the queue tries again
/// later) until the last attempt; a refusal, or the last failure, is recorded on the workflow.
pub async fn run_job(state: &Services, job: &ClaimedJob) -> Result<(), SmsJobError> {
    let sms: SignerSms = serde_json::from_str(&job.payload).map_err(SmsJobError::Payload)?;
    let Ok(to) = PhoneNumber::parse(&sms.to) else {
        record(state, &sms, WorkflowEventKind::SmsFailed, json!({"reason": "not a mobile number"})).await;
        return Ok(());
    };
    let Some(sender) = &state.sms else {
        tracing::info!(to = %to, "no SMS provider configured; text not sent");
        return Ok(());
    };
    match sender.send(&to, &sms.text).await {
        Ok(sent) => {
            tracing::info!(to = %to, provider_id = %sent.provider_id, "SMS sent");
            let detail = json!({"to": to.masked(), "purpose": sms.purpose, "providerId": sent.provider_id});
            record(state, &sms, WorkflowEventKind::SmsSent, detail).await;
            Ok(())
        }
        Err(SmsFailure::TryAgain(cause)) if job.attempts < job.max_attempts => Err(SmsJobError::TryAgain(cause)),
        Err(SmsFailure::TryAgain(cause) | SmsFailure::Refused(cause)) => {
            tracing::warn!(to = %to, %cause, "SMS not sent; not tried again");
            let detail = json!({"to": to.masked(), "purpose": sms.purpose, "reason": cause});
            record(state, &sms, WorkflowEventKind::SmsFailed, detail).await;
            Ok(())
        }
    }
}

/// Puts the outcome on the workflow's timeline. The text has gone (or gone for good) by now:
/// a failure to record it is logged, never a reason to send again.
async fn record(state: &Services, sms: &SignerSms, kind: WorkflowEventKind, detail: serde_json::Value) {
    let recorded = match state.store.workflow(sms.tenant_id, sms.workflow_id).await {
        Ok(Some(workflow)) => {
            let system = Actor::system();
            let target = format!("signatory:{}", sms.signatory_id);
            state.store.record_workflow_event(&workflow, kind, target, detail, &system).await
        }
        Ok(None) => Ok(()),
        Err(error) => Err(error),
    };
    if let Err(error) = recorded {
        tracing::warn!(workflow = sms.workflow_id.get(), %error, action = %kind, "could not record the SMS outcome");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number() -> PhoneNumber {
        PhoneNumber::parse("+919876543210").expect("number")
    }

    #[test]
    fn answers_are_read_as_sent_refused_or_worth_a_retry() {
        let sent = read_answer(201, br#"{"sid":"SM123","status":"queued"}"#, &number());
        assert_eq!(sent, Ok(SentSms { provider_id: "SM123".into() }));
        let refused =
            read_answer(400, br#"{"code":21211,"message":"The 'To' number +919876543210 is not valid."}"#, &number());
        let Err(SmsFailure::Refused(why)) = refused else { panic!("refused: {refused:?}") };
        assert!(why.contains("21211") && why.contains("+********3210") && !why.contains("9876543210"), "{why}");
        assert!(matches!(read_answer(429, b"", &number()), Err(SmsFailure::TryAgain(_))));
        assert!(matches!(read_answer(503, b"<html>", &number()), Err(SmsFailure::TryAgain(_))));
        assert!(matches!(read_answer(401, b"not json", &number()), Err(SmsFailure::Refused(_))));
    }

    #[test]
    fn the_channel_is_configured_whole_or_not_at_all() {
        let none = Config::default();
        assert!(TwilioSender::from_config(&none).expect("none").is_none());
        let half = Config { sms_account_sid: Some("AC123".into()), ..Config::default() };
        assert!(TwilioSender::from_config(&half).is_err());
        let whole = Config {
            sms_account_sid: Some("AC123".into()),
            sms_auth_token: Some("secret".into()),
            sms_from: Some("+15005550006".into()),
            ..Config::default()
        };
        let sender = TwilioSender::from_config(&whole).expect("valid").expect("configured");
        assert_eq!(sender.messages_url, "https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json");
        assert_eq!(sender.authorization, "Basic QUMxMjM6c2VjcmV0");
        let bad_from = Config { sms_from: Some("twilio".into()), ..whole };
        assert!(TwilioSender::from_config(&bad_from).is_err());
    }
}
