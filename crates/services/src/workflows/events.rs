//! The `workflow.event` job: what follows an event once it is committed. Completion steps
//! after `workflow.completed`; automated signing when a signatory with the workflow's
//! signing profile is notified; e-mails to the people concerned and webhooks to the tenant.

use serde::Deserialize;
use serde_json::json;
use signet_domain::{ErrorCode, SignatoryId, TenantId, WorkflowId};
use signet_store::{AfterSignature, WorkflowActor};

use crate::Services;
use crate::gateway::seal::Mark;

/// The payload the store writes for each workflow event.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowEvent {
    pub tenant_id: TenantId,
    pub workflow_id: WorkflowId,
    pub seq: i64,
    #[serde(rename = "type")]
    pub kind: String,
    pub target: String,
    pub at: i64,
}

impl WorkflowEvent {
    /// The id in `signatory:ID` targets.
    pub fn signatory_id(&self) -> Option<SignatoryId> {
        self.target.strip_prefix("signatory:").and_then(|id| id.parse::<i64>().ok()).map(SignatoryId::from)
    }
}

pub async fn handle(state: &Services, payload: &str) -> Result<(), String> {
    let event: WorkflowEvent = serde_json::from_str(payload).map_err(|e| format!("bad workflow event: {e}"))?;
    let signed_for = event.kind == "signatory.notified" && sign_automatically(state, &event).await?;
    match event.kind.as_str() {
        "workflow.completed" => {
            super::completion::finish(state, event.tenant_id, event.workflow_id).await.map_err(|e| e.to_string())?;
        }
        "signatory.notified" if !signed_for => super::notices::invitation(state, &event, false).await?,
        "signatory.reminded" => super::notices::invitation(state, &event, true).await?,
        _ => {}
    }
    super::notices::outcome(state, &event).await?;
    publish_webhook(state, &event).await
}

/// Sends the event to the tenant's webhooks (those subscribed to its type).
async fn publish_webhook(state: &Services, event: &WorkflowEvent) -> Result<(), String> {
    if !signet_domain::webhook::EVENT_TYPES.contains(&event.kind.as_str()) {
        return Ok(());
    }
    let workflow = state.store.workflow(event.tenant_id, event.workflow_id).await.map_err(|e| e.to_string())?;
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
    crate::webhooks::publish(state, event.tenant_id, &message_id, &event.kind, data).await
}

/// Signs for a notified signatory whose address is the workflow's signing profile's, with the
/// profile's own certificate; `true` when this signatory is signed for (no invitation then).
async fn sign_automatically(state: &Services, event: &WorkflowEvent) -> Result<bool, String> {
    let Some(signatory_id) = event.signatory_id() else { return Ok(false) };
    let Some((signatory, workflow)) = state.store.signatory(signatory_id).await.map_err(|e| e.to_string())? else {
        return Ok(false);
    };
    let settings: serde_json::Value = serde_json::from_str(&workflow.settings).unwrap_or_default();
    let profile_id = settings.get("hsmCertificateId").and_then(|v| v.as_i64()).unwrap_or(0);
    if profile_id == 0 || !signatory.state().is_turn() {
        return Ok(false);
    }
    let Some(profile) =
        state.store.active_signing_profile(workflow.tenant_id, profile_id).await.map_err(|e| e.to_string())?
    else {
        tracing::warn!(
            workflow = workflow.id.get(),
            profile_id,
            "the workflow's signing profile is revoked; the signer signs by hand"
        );
        return Ok(false);
    };
    if !profile.email.eq_ignore_ascii_case(&signatory.email) {
        return Ok(false);
    }
    let key = state.profile_key.signer(&profile)?;
    let actor = WorkflowActor { id: format!("signing_profile:{}", profile.id), ip: None };
    let detail = json!({"method": "automated", "profileId": profile.id, "subject": profile.subject, "onBehalfOf": signatory.email});
    let mark = Mark::Typed { name: signatory.name.clone(), style: signet_signing::NameStyle::Plain };
    match super::sealing::sign_documents_with(state, &key, &signatory, &workflow, mark, &actor, detail).await {
        Ok(AfterSignature::Completed) => {
            super::completion::finish(state, workflow.tenant_id, workflow.id).await.map_err(|e| e.to_string())?;
            Ok(true)
        }
        Ok(AfterSignature::Continuing { .. }) => Ok(true),
        // Someone else moved the workflow on (declined, made inactive): nothing to sign.
        Err(error) if error.code() == ErrorCode::StateConflict => Ok(true),
        Err(error) => Err(error.to_string()),
    }
}
