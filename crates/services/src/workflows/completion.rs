//! What happens when the last signatory has signed: each document gets a final document
//! time-stamp (PAdES B-LTA) when a TSA is configured, then the completion certificate is made. Runs right after the last signature and
//! again from the `workflow.completed` event job, so a crash in between is repaired; each step
//! checks whether it was already done.

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::audit::{Actor, WorkflowEventKind};
use signet_domain::workflow::{DocumentState, WorkflowState};
use signet_domain::{Error, TenantId, WorkflowId};
use signet_signing::{PadesLevel, PdfSignOptions};
use signet_store::{DocumentRow, WorkflowRow};

use super::sealing::version_key;
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
    if state.config.tsa_url.is_some() {
        for doc in state.store.workflow_documents(&workflow).await? {
            if doc.state == DocumentState::Active {
                timestamp_document(state, &doc).await?;
            }
        }
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

/// The platform CA's own revocation list and certificate: the sealing certificate has no
/// OCSP or CRL address (the CA is this service), so the long-term data for it is a CRL the
/// CA issues now. Revocation data of outside certificates (a TSA) is fetched as usual.
pub(super) fn platform_validation_data(state: &Services) -> Result<signet_signing::ValidationData, Error> {
    let ca = signet_sigcrypto::pki::LocalCa::from_der(&state.keys.ca.cert_der, &state.keys.ca.key_pkcs8_der)
        .map_err(Error::internal)?;
    let crl = ca.issue_crl(&[], std::time::Duration::from_secs(7 * 86_400)).map_err(Error::internal)?;
    Ok(signet_signing::ValidationData {
        certs: vec![state.keys.ca.cert_der.clone()],
        ocsps: Vec::new(),
        crls: vec![crl],
    })
}

/// Adds validation data and a document time-stamp, unless the newest revision already is one.
async fn timestamp_document(state: &Services, doc: &DocumentRow) -> Result<(), Error> {
    let key = BlobKey::parse(&doc.current_blob)?;
    let pdf = state.blob.get(&key).await?;
    let infos = signet_pdf::signatures(&pdf).map_err(Error::internal)?;
    if infos.last().is_some_and(|i| i.sig_type == "DocTimeStamp") {
        return Ok(());
    }
    let opts = PdfSignOptions {
        level: PadesLevel::BLTA,
        validation: platform_validation_data(state)?,
        tsa_url: state.config.tsa_url.clone(),
        http: state.config.outbound_http(),
        ..PdfSignOptions::default()
    };
    let extended = tokio::task::spawn_blocking(move || signet_signing::extend_pdf(&pdf, &opts))
        .await
        .map_err(Error::internal)?
        .map_err(Error::internal)?;
    let sha = hex::encode(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &extended).as_ref());
    let new_key = version_key(doc, doc.version + 1)?;
    state.blob.put(&new_key, Bytes::from(extended)).await?;
    let system = Actor::system();
    let timestamped = WorkflowEventKind::DocumentTimestamped;
    if let Err(error) = state.store.advance_document(doc, new_key.as_str(), &sha, timestamped, &system).await {
        let _ = state.blob.delete(&new_key).await;
        return Err(error);
    }
    super::lta_renewal::record_protection(state, doc, &new_key, &sha).await;
    Ok(())
}
