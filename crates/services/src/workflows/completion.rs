//! What happens when the last signatory has signed: each document gets the validation data of
//! every signature in it and a final document time-stamp (PAdES B-LTA) when a TSA is
//! configured, then the completion certificate is made. Runs right after the last signature
//! and again from the `workflow.completed` event job, so a crash in between is repaired; each
//! step checks whether it was already done.

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::audit::{Actor, WorkflowEventKind};
use signet_domain::workflow::WorkflowState;
use signet_domain::{Error, TenantId, WorkflowId};
use signet_store::WorkflowRow;

use crate::Services;

/// Starts [`finish`] without making the signer wait for it.
pub fn finish_in_background(state: &Services, tenant_id: TenantId, workflow_id: WorkflowId) {
    let state = state.clone();
    tokio::spawn(async move {
        if let Err(error) = finish(&state, tenant_id, workflow_id).await {
            tracing::warn!(%error, workflow_id = workflow_id.get(), "completion steps failed; the event job retries them");
        }
    });
}

/// Brings a completed workflow's documents to their final form (idempotent).
pub async fn finish(state: &Services, tenant_id: TenantId, workflow_id: WorkflowId) -> Result<(), Error> {
    let Some(workflow) = state.store.workflow(tenant_id, workflow_id).await? else { return Ok(()) };
    if workflow.state != WorkflowState::Completed {
        return Ok(());
    }
    if let Err(error) = super::long_term::secure(state, tenant_id, workflow_id).await {
        // A CA or the TSA does not answer: the long-term job keeps trying for a day and a
        // half; the completion certificate and the signers' copies do not wait for it.
        tracing::warn!(%error, workflow_id = workflow_id.get(), "the final time-stamp waits for validation data");
        super::long_term::enqueue(state, tenant_id, workflow_id, super::long_term::Trigger::Completion).await?;
    }
    if workflow.certificate_blob.is_none() {
        issue_certificate(state, &workflow).await?;
    }
    Ok(())
}

/// Makes and keeps the completion certificate (once; a concurrent second run keeps the first).
async fn issue_certificate(state: &Services, workflow: &WorkflowRow) -> Result<(), Error> {
    let pdf = super::certificate::certificate_pdf(state, workflow).await?;
    let file = format!("certificate-{}.pdf", crate::platform::secrets::random_token(6));
    let key = BlobKey::new(["tenant", &workflow.tenant_id.to_string(), "workflows", &workflow.id.to_string(), &file])?;
    let sha = hex::encode(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &pdf).as_ref());
    state.blob.put(&key, Bytes::from(pdf)).await?;
    state.store.set_certificate(workflow, key.as_str()).await?;
    let system = Actor::system();
    state
        .store
        .record_workflow_event(
            workflow,
            WorkflowEventKind::CertificateIssued,
            format!("workflow:{}", workflow.id),
            serde_json::json!({"sha256": sha}),
            &system,
        )
        .await
}
