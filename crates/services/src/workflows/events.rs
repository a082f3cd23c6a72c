//! The `workflow.event` job: what follows an event once it is committed. Completion steps
//! after `workflow.completed`; long-term validation data after `signatory.signed`; automated
//! signing when a signatory with the workflow's signing profile is notified; e-mails to the
//! people concerned and webhooks to the tenant.

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::audit::{WorkflowEventJob, WorkflowEventKind};
use signet_domain::authority::signing::{ProfileOwner, SigningBy, may_sign_with};
use signet_domain::{Error, ErrorCode};
use signet_store::{AfterSignature, AutomatedSigner};

use crate::Services;
use crate::gateway::seal::Mark;

/// Why a `workflow.event` job failed; its text is the job's stored error, as before.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// The job's payload is not a workflow event (Signet's own document: a bug, not the caller's).
    #[error("bad workflow event: {0}")]
    Payload(#[source] serde_json::Error),
    /// A step failed (the store, queueing a notice, finishing or signing the workflow).
    #[error(transparent)]
    Step(#[from] Error),
    /// The automated signer's key could not be opened.
    #[error(transparent)]
    Signer(#[from] super::profiles::ProfileError),
}

pub async fn handle(state: &Services, payload: &str) -> Result<(), EventError> {
    let event: WorkflowEventJob = serde_json::from_str(payload).map_err(EventError::Payload)?;
    let kind = event.event_kind();
    let notified = kind == Some(WorkflowEventKind::SignatoryNotified);
    let signed_for = notified && sign_automatically(state, &event).await?;
    match kind {
        Some(WorkflowEventKind::WorkflowCompleted) => {
            super::completion::finish(state, event.tenant_id, event.workflow_id).await?;
            super::long_term::say_level_without_tsa(state, event.tenant_id, event.workflow_id).await?;
        }
        Some(WorkflowEventKind::SignatoryNotified) if !signed_for => {
            super::notices::invitation(state, &event, false).await?
        }
        Some(WorkflowEventKind::SignatoryReminded) => super::notices::invitation(state, &event, true).await?,
        Some(WorkflowEventKind::SignatorySigned) => {
            let trigger = super::long_term::Trigger::Signature { seq: event.seq };
            super::long_term::enqueue(state, event.tenant_id, event.workflow_id, trigger).await?
        }
        _ => {}
    }
    super::notices::outcome(state, &event).await?;
    Ok(publish_webhook(state, &event).await?)
}

/// Sends the event to the tenant's webhooks (those subscribed to its type).
async fn publish_webhook(state: &Services, event: &WorkflowEventJob) -> Result<(), Error> {
    if !event.event_kind().is_some_and(signet_domain::webhook::published) {
        return Ok(());
    }
    let workflow = state.store.workflow(event.tenant_id, event.workflow_id).await?;
    let data = json!({
        "workflowId": event.workflow_id,
        "workflowName": workflow.as_ref().map(|w| w.name.clone()),
        "workflowState": workflow.as_ref().map(|w| w.state.as_str()),
        "referenceNo": workflow.and_then(|w| w.reference_no),
        "eventSeq": event.seq,
        "target": event.target,
        "signatoryId": event.signatory_id(),
        "at": event.at,
    });
    let message_id = format!("msg_{}_{}", event.workflow_id, event.seq);
    crate::integrations::webhooks::publish(
        state,
        event.tenant_id,
        &message_id,
        &event.kind,
        data,
        Some(event.workflow_id),
    )
    .await
}

/// Signs for a notified signatory when an automated signer stands for them: the workflow's
/// signing profile (`hsmCertificateId`) when it is the signatory's, or else the signatory's
/// own automated signing (a user who enrolled a certificate and consented); `true` when this
/// signatory is signed for (no invitation then).
async fn sign_automatically(state: &Services, event: &WorkflowEventJob) -> Result<bool, EventError> {
    let Some(signatory_id) = event.signatory_id() else { return Ok(false) };
    let Some((signatory, workflow)) = state.store.signatory(signatory_id).await? else {
        return Ok(false);
    };
    if !signatory.state().is_turn() {
        return Ok(false);
    }
    let (profile, mut detail) = match workflow_profile(state, &workflow, &signatory).await? {
        Some(profile) => (profile, json!({})),
        None => {
            match state.store.automated_signer(workflow.tenant_id, signatory.subscriber_id, &signatory.email).await? {
                Some(AutomatedSigner { user_id, settings, profile })
                    if may_sign_with(
                        ProfileOwner::of(profile.owner_id),
                        SigningBy::AutomatedSigning {
                            user_id,
                            consented: settings.auto_sign_enabled && settings.auto_sign_consent_at.is_some(),
                        },
                    ) =>
                {
                    (
                        profile,
                        // The consent's address is in the consent's own audit entry, sealed.
                        json!({"signatureReason": settings.auto_sign_reason, "signatureLocation": settings.auto_sign_location,
                        "consentAt": settings.auto_sign_consent_at}),
                    )
                }
                _ => return Ok(false),
            }
        }
    };
    let key = state.profile_key.signer(&profile)?;
    let actor = Actor { id: format!("signing_profile:{}", profile.id), ip: None };
    detail["method"] = json!("automated");
    detail["profileId"] = json!(profile.id);
    detail["subject"] = json!(profile.subject);
    detail["onBehalfOf"] = json!(signatory.email);
    let mark = Mark::Typed { name: signatory.name.clone(), style: signet_signing::NameStyle::Plain };
    match super::sealing::sign_documents_with(state, &key, &signatory, &workflow, mark, &actor, detail).await {
        Ok(AfterSignature::Completed) => {
            super::completion::finish(state, workflow.tenant_id, workflow.id).await?;
            Ok(true)
        }
        Ok(AfterSignature::Continuing { .. }) => Ok(true),
        // Someone else moved the workflow on (declined, made inactive): nothing to sign.
        Err(error) if error.code() == ErrorCode::StateConflict => Ok(true),
        Err(error) => Err(error.into()),
    }
}

/// The workflow's signing profile (`hsmCertificateId`) when it is active, the organisation's
/// (never a user's own certificate, whatever the workflow was sent with) and the signatory's.
async fn workflow_profile(
    state: &Services,
    workflow: &signet_store::WorkflowRow,
    signatory: &signet_store::SignatoryRow,
) -> Result<Option<signet_store::SigningProfileRow>, Error> {
    let Some(profile_id) = workflow.settings.hsm_certificate_id else { return Ok(None) };
    let Some(profile) = state.store.active_signing_profile(workflow.tenant_id, profile_id).await? else {
        tracing::warn!(
            workflow = workflow.id.get(),
            profile_id = profile_id.get(),
            "the workflow's signing profile is revoked; the signer signs by hand"
        );
        return Ok(None);
    };
    let organisations = may_sign_with(ProfileOwner::of(profile.owner_id), SigningBy::NamedProfile);
    Ok((organisations && profile.email.eq_ignore_ascii_case(&signatory.email)).then_some(profile))
}
