//! Customer referrals and CRM leads (docs/api.md, "Referrals and CRM leads").
//!
//! A referral is recorded once per referred person in a tenant, and its referrer is thanked
//! by e-mail (a `mail.send` job made in the referral's own transaction). A lead is upserted
//! by key or contact and every change puts it in the outbox: a `crm.push` job posts that
//! version to the tenant's CRM endpoint, signed the Standard Webhooks way with the endpoint's
//! secret, and the job queue retries failures with its backoff. Integrations that push leads
//! themselves record the outcome with mark-pushed.

use crate::integrations::webhooks::DeliverError;
use base64::Engine;
use serde::Deserialize;
use serde_json::json;
use signet_domain::access::Permission;
use signet_domain::job::JobKind;
use signet_domain::sales::{self, LeadInput, PushInput, ReferralInput};
use signet_domain::webhook::signature;
use signet_domain::{Error, LeadId, ReferralId, now_millis};
use signet_store::{ClaimedJob, CrmSettingsRow, LeadFilter, LeadRow, NewJob, ReferralRow};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::platform::mail::Mail;
use crate::{Caller, Services};

/// Records a referral and queues the referrer's confirmation; 409 `conflict` when the person
/// was referred before in the tenant.
pub async fn create_referral(svc: &Services, caller: &Caller, input: &ReferralInput) -> Result<ReferralRow, Error> {
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    let referral = sales::check_referral(input)?;
    let mail = thanks(&referral);
    let payload = serde_json::to_value(&mail)?;
    let notice = move |id: ReferralId| NewJob {
        kind: JobKind::Mail,
        tenant: Some(tenant_id),
        payload,
        dedupe_key: Some(format!("referral.thanks:{tenant_id}:{id}")),
        run_at: now_millis(),
        max_attempts: 8,
    };
    svc.store.create_referral(tenant_id, &referral, notice, actor).await
}

/// The referrer's confirmation: who they referred, as recorded.
fn thanks(referral: &sales::Referral) -> Mail {
    let text = format!(
        "Dear {},\n\nThank you for referring {} ({}, {}). We have recorded your referral and will be in touch with them.\n",
        referral.referrer_name, referral.referral_name, referral.referral_email, referral.referral_mobile
    );
    Mail {
        to_email: referral.referrer_email.clone(),
        to_name: referral.referrer_name.clone(),
        subject: format!("Your referral of {}", referral.referral_name),
        text,
        html: None,
        attachments: Vec::new(),
    }
}

/// Creates or changes a lead (see `signet_domain::sales::LeadMatch`) and puts it in the outbox.
pub async fn upsert_lead(svc: &Services, caller: &Caller, input: &LeadInput) -> Result<(LeadRow, bool), Error> {
    caller.require(Permission::ManageSettings)?;
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    let (lead, how) = sales::check_lead(input)?;
    svc.store.upsert_lead(tenant_id, &lead, &how, actor).await
}

/// Records the outcome of a push made outside Signet.
pub async fn mark_pushed(svc: &Services, caller: &Caller, input: &PushInput) -> Result<LeadRow, Error> {
    caller.require(Permission::ManageSettings)?;
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    let outcome = sales::check_push(input)?;
    svc.store.mark_lead_pushed(tenant_id, &outcome, actor).await
}

/// Sets the tenant's CRM endpoint (its URL checked like a webhook's) with a new signing
/// secret, answered once; `None` stops pushes (leads stay in the outbox).
pub async fn set_crm_endpoint(
    svc: &Services,
    caller: &Caller,
    url: Option<&str>,
) -> Result<Option<(String, String)>, Error> {
    caller.require(Permission::ManageSettings)?;
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    let Some(url) = url else {
        svc.store.set_crm_settings(tenant_id, None, actor).await?;
        return Ok(None);
    };
    let url = crate::integrations::webhooks::check_endpoint_url(svc, url).await?;
    let mut key = [0u8; 24];
    aws_lc_rs::rand::fill(&mut key).map_err(|_| Error::internal("random"))?;
    let secret = format!("whsec_{}", base64::engine::general_purpose::STANDARD.encode(key));
    svc.store.set_crm_settings(tenant_id, Some((&url, &secret)), actor).await?;
    Ok(Some((url, secret)))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PushJob {
    lead_id: LeadId,
    version: i64,
}

/// What the CRM endpoint receives: the lead as the API shows it.
fn push_body(lead: &LeadRow) -> String {
    let timestamp = OffsetDateTime::now_utc().format(&Rfc3339).unwrap_or_default();
    let data = json!({
        "leadId": lead.id, "version": lead.version, "leadKey": lead.lead_key, "visitorId": lead.visitor_id,
        "name": lead.name, "email": lead.email, "mobile": lead.mobile, "dialcode": lead.dialcode,
        "planId": lead.plan_id, "planName": lead.plan_name, "billingCycle": lead.billing_cycle,
        "subscriptionMode": lead.subscription_mode, "amount": lead.amount, "currency": lead.currency,
        "numUsers": lead.num_users, "numEnvelopes": lead.num_envelopes, "state": lead.state,
        "partnerReferralCode": lead.partner_referral_code, "clientIp": lead.client_ip, "userAgent": lead.user_agent,
        "createdAt": lead.created_at, "updatedAt": lead.updated_at,
    });
    json!({"type": "crm.lead", "timestamp": timestamp, "data": data}).to_string()
}

/// The `crm.push` job: one attempt to post one version of a lead. An error makes the queue
/// retry it later; a newer version (with its own job), a deleted endpoint or the last attempt
/// end it.
pub async fn run_push_job(svc: &Services, job: &ClaimedJob) -> Result<(), DeliverError> {
    let PushJob { lead_id, version } = serde_json::from_str(&job.payload).map_err(DeliverError::Payload)?;
    let Some((lead, settings)) = svc.store.lead_for_push(lead_id).await? else {
        return Ok(());
    };
    // Without an endpoint the lead waits in the outbox; setting one queues it again.
    let (Some(settings), true) = (settings, lead.version == version) else { return Ok(()) };
    let body = push_body(&lead);
    let message_id = format!("lead_{lead_id}_v{version}");
    let timestamp = OffsetDateTime::now_utc().unix_timestamp();
    let Some(signed) = signature(&settings.secret, &message_id, timestamp, body.as_bytes()) else {
        let failed = "the endpoint secret is unusable";
        svc.store.record_push(lead_id, version, "failed", Some(failed)).await?;
        return Ok(());
    };
    let (url, cfg, ts) = (settings.url.clone(), crate::integrations::webhooks::http_policy(svc), timestamp.to_string());
    let outcome = tokio::task::spawn_blocking(move || {
        let headers = [
            ("Content-Type", "application/json"),
            ("User-Agent", "Signet-CRM/1"),
            ("webhook-id", message_id.as_str()),
            ("webhook-timestamp", ts.as_str()),
            ("webhook-signature", signed.as_str()),
        ];
        signet_sigcrypto::post_for_status(&url, &headers, body.as_bytes(), &cfg)
    })
    .await?;
    let error = match outcome {
        Ok(status) if (200..300).contains(&status) => None,
        Ok(status) => Some(format!("HTTP {status}")),
        Err(error) => Some(error.to_string()),
    };
    let last_attempt = job.attempts >= job.max_attempts;
    let state = match (&error, last_attempt) {
        (None, _) => "pushed",
        (Some(_), false) => "pending",
        (Some(_), true) => "failed",
    };
    svc.store.record_push(lead_id, version, state, error.as_deref()).await?;
    match error {
        Some(error) if !last_attempt => Err(DeliverError::Refused(error)),
        Some(error) => {
            tracing::warn!(lead_id = lead_id.get(), %error, "CRM push failed for good");
            Ok(())
        }
        None => Ok(()),
    }
}

/// One page of the tenant's referrals, newest first, optionally those matching `search`
/// (managing settings) and how many match.
pub async fn referrals(
    svc: &Services,
    caller: &Caller,
    search: Option<&str>,
    offset: i64,
    size: i64,
) -> Result<(Vec<ReferralRow>, i64), Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.referrals(caller.tenant_id, search, offset, size).await
}

/// One referral of the tenant (managing settings); another tenant's reads as missing.
pub async fn referral(svc: &Services, caller: &Caller, id: ReferralId) -> Result<ReferralRow, Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.referral(caller.tenant_id, id).await?.ok_or_else(|| Error::not_found("referral"))
}

/// One page of the tenant's leads (managing settings) and how many match `filter`.
pub async fn leads(
    svc: &Services,
    caller: &Caller,
    filter: &LeadFilter,
    offset: i64,
    size: i64,
) -> Result<(Vec<LeadRow>, i64), Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.leads(caller.tenant_id, filter, offset, size).await
}

/// One lead of the tenant (managing settings); another tenant's reads as missing.
pub async fn lead(svc: &Services, caller: &Caller, id: LeadId) -> Result<LeadRow, Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.lead(caller.tenant_id, id).await?.ok_or_else(|| Error::not_found("lead"))
}

/// The tenant's CRM endpoint, if one is set (managing settings).
pub async fn crm_endpoint(svc: &Services, caller: &Caller) -> Result<Option<CrmSettingsRow>, Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.crm_settings(caller.tenant_id).await
}
