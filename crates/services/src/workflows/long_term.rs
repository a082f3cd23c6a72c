//! Long-term validation soon after each signature: once a signatory has signed, a job adds to
//! each of the workflow's documents the chains and revocation data (OCSP where the CA offers
//! it, its CRL otherwise) of every signature and time-stamp in it that the document does not
//! hold yet: PAdES B-LT within seconds, while the CA still answers for a certificate (an Aadhaar
//! eSign certificate lives 30 minutes; an OCSP answer of the signing day is the one a court
//! wants). A CA or TSA that does not answer is retried by the job queue with growing pauses
//! (about a day and a half in all), and the workflow's audit trail says once that the data is
//! pending and why. Without a TSA there is no B-T to build on: nothing is added, the
//! verifier's report says B-B, and at completion the workflow's audit trail says so for each
//! document ([`say_level_without_tsa`]).
//!
//! Completion ([`super::completion`]) ends with the same data and a document time-stamp
//! (B-LTA); the renewal sweep ([`super::lta_renewal`]) keeps that time-stamp from running out.

use std::collections::HashSet;

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use signet_blob::BlobKey;
use signet_domain::audit::{Actor, WorkflowEventKind};
use signet_domain::job::JobKind;
use signet_domain::workflow::{DocumentState, WorkflowState};
use signet_domain::{Error, ErrorCode, TenantId, WorkflowId, now_millis};
use signet_signing::{PadesLevel, PdfSignOptions};
use signet_store::{ClaimedJob, DocumentRow, NewJob};

use super::sealing::version_key;
use crate::Services;

/// Attempts of one job: with the queue's standard doubling pauses (at most 2048 retry bases,
/// 34 minutes in production), about 17 hours.
const MAX_ATTEMPTS: i64 = 40;

/// The job's payload: whose workflow.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LongTermJob {
    tenant_id: TenantId,
    workflow_id: WorkflowId,
}

/// Why the validation data could not be added this time.
#[derive(Debug, thiserror::Error)]
pub enum LongTermError {
    #[error("bad long-term job: {0}")]
    Payload(#[source] serde_json::Error),
    /// A CA, OCSP responder or TSA did not answer, or answered nothing usable.
    #[error("validation data: {0}")]
    Unavailable(#[source] signet_signing::Error),
    #[error(transparent)]
    Domain(#[from] Error),
    #[error(transparent)]
    Blob(#[from] signet_blob::Error),
}

/// What a job follows: a signature (the event's sequence number; one job per signature, so a
/// second signatory's is not folded into a first one's retries), or a completion whose final
/// time-stamp could not be made at once.
#[derive(Debug, Clone, Copy)]
pub enum Trigger {
    Signature { seq: i64 },
    Completion,
}

/// Queues the job for `trigger` (nothing without a TSA: there is no B-T to build on).
pub async fn enqueue(
    state: &Services,
    tenant_id: TenantId,
    workflow_id: WorkflowId,
    trigger: Trigger,
) -> Result<(), Error> {
    if state.config.tsa_url.is_none() {
        return Ok(());
    }
    let payload = serde_json::to_value(LongTermJob { tenant_id, workflow_id }).map_err(Error::internal)?;
    let slot = match trigger {
        Trigger::Signature { seq } => seq.to_string(),
        Trigger::Completion => "completion".into(),
    };
    state
        .store
        .enqueue_job(&NewJob {
            kind: JobKind::LongTermData,
            tenant: Some(tenant_id),
            payload,
            dedupe_key: Some(format!("{}:{workflow_id}:{slot}", JobKind::LongTermData)),
            run_at: now_millis(),
            max_attempts: MAX_ATTEMPTS,
        })
        .await?;
    Ok(())
}

/// Runs one job; on its first failure for want of validation data the workflow says so.
pub async fn run_job(state: &Services, job: &ClaimedJob) -> Result<(), LongTermError> {
    let payload: LongTermJob = serde_json::from_str(&job.payload).map_err(LongTermError::Payload)?;
    let outcome = secure(state, payload.tenant_id, payload.workflow_id).await;
    if let Err(LongTermError::Unavailable(cause)) = &outcome
        && job.attempts == 1
    {
        say_pending(state, &payload, cause).await?;
    }
    outcome
}

/// Adds what each active document of the workflow lacks for long-term validation: B-LT while
/// signatures are still being made; once the workflow is completed, B-LTA (the final document
/// time-stamp over it all). Idempotent: a document that holds it all is left as it is.
pub async fn secure(state: &Services, tenant_id: TenantId, workflow_id: WorkflowId) -> Result<(), LongTermError> {
    if state.config.tsa_url.is_none() {
        return Ok(());
    }
    let Some(workflow) = state.store.workflow(tenant_id, workflow_id).await? else { return Ok(()) };
    let level = if workflow.state == WorkflowState::Completed { PadesLevel::BLTA } else { PadesLevel::BLT };
    for doc in state.store.workflow_documents(&workflow).await? {
        if doc.state == DocumentState::Active {
            secure_document(state, &doc, level).await?;
        }
    }
    Ok(())
}

async fn secure_document(state: &Services, doc: &DocumentRow, level: PadesLevel) -> Result<(), LongTermError> {
    if doc.version == 0 {
        return Ok(()); // not signed yet
    }
    let pdf = state.blob.get(&BlobKey::parse(&doc.current_blob)?).await?;
    let opts = PdfSignOptions { level, ..options(state)? };
    let extended = tokio::task::spawn_blocking(move || extended(&pdf, &opts))
        .await
        .map_err(Error::internal)?
        .map_err(LongTermError::Unavailable)?;
    let Some(extended) = extended else { return Ok(()) };
    let kind = match level {
        PadesLevel::BLTA => WorkflowEventKind::DocumentTimestamped,
        _ => WorkflowEventKind::DocumentLongTerm,
    };
    store_version(state, doc, extended, kind).await?;
    Ok(())
}

/// The document at `opts.level`, or `None` when it is there already: for B-LTA, its newest
/// revision is a document time-stamp; for B-LT, its DSS holds everything.
fn extended(pdf: &[u8], opts: &PdfSignOptions) -> Result<Option<Vec<u8>>, signet_signing::Error> {
    if opts.level == PadesLevel::BLTA {
        let infos = signet_pdf::signatures(pdf)?;
        if infos.last().is_some_and(|i| i.sig_type == "DocTimeStamp") {
            return Ok(None);
        }
    }
    let extended = signet_signing::extend_pdf(pdf, opts)?;
    Ok((extended.len() != pdf.len()).then_some(extended))
}

/// Keeps `pdf` as the document's next version, recorded as `kind`; a document that changed
/// meanwhile (a signer was quicker) is a conflict the caller's retry reads afresh.
async fn store_version(
    state: &Services,
    doc: &DocumentRow,
    pdf: Vec<u8>,
    kind: WorkflowEventKind,
) -> Result<(), Error> {
    let sha = hex::encode(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &pdf).as_ref());
    let key = version_key(doc, doc.version + 1)?;
    state.blob.put(&key, Bytes::from(pdf)).await?;
    if let Err(error) = state.store.advance_document(doc, key.as_str(), &sha, kind, &Actor::system()).await {
        let _ = state.blob.delete(&key).await;
        return Err(error);
    }
    if kind == WorkflowEventKind::DocumentTimestamped {
        super::lta_renewal::record_protection(state, doc, &key, &sha).await;
    }
    Ok(())
}

/// How a workflow document is extended: the installation's TSA and outbound limits, and the
/// revocation list of Signet's own CA, which publishes nowhere (revocation data of outside
/// certificates, a TSA's or a signer's token's, is fetched).
fn options(state: &Services) -> Result<PdfSignOptions, Error> {
    Ok(PdfSignOptions {
        validation: state.keys.validation_data()?,
        tsa_url: state.config.tsa_url.clone(),
        http: state.config.outbound_http(),
        ..PdfSignOptions::default()
    })
}

/// Why a completed workflow's documents stay at B-B, as its audit trail says it.
const NO_TSA: &str = "no time-stamp authority is configured (tsa_url): the signatures are not time-stamped, \
                      and no validation data is added";

/// Without a TSA, a completed workflow's documents stay as signed (B-B): its audit trail says
/// so once for each document, naming the level and why, instead of saying nothing. A retry
/// (this runs from the completion event's job, one run at a time) skips the documents it
/// already spoke for.
pub async fn say_level_without_tsa(
    state: &Services,
    tenant_id: TenantId,
    workflow_id: WorkflowId,
) -> Result<(), Error> {
    if state.config.tsa_url.is_some() {
        return Ok(());
    }
    let Some(workflow) = state.store.workflow(tenant_id, workflow_id).await? else { return Ok(()) };
    if workflow.state != WorkflowState::Completed {
        return Ok(());
    }
    let kind = WorkflowEventKind::DocumentLevelReached;
    let events = state.store.workflow_events(&workflow).await?;
    let said: HashSet<String> =
        events.into_iter().filter(|e| e.workflow_kind() == Some(kind)).map(|e| e.target).collect();
    for doc in state.store.workflow_documents(&workflow).await? {
        let target = format!("document:{}", doc.id);
        if doc.state != DocumentState::Active || doc.version == 0 || said.contains(&target) {
            continue;
        }
        let detail = serde_json::json!({"level": PadesLevel::BB.as_str(), "reason": NO_TSA});
        state.store.record_workflow_event(&workflow, kind, target, detail, &Actor::system()).await?;
    }
    Ok(())
}

/// The workflow's audit trail says the data is pending, and why (once per job).
async fn say_pending(state: &Services, job: &LongTermJob, cause: &signet_signing::Error) -> Result<(), Error> {
    let Some(workflow) = state.store.workflow(job.tenant_id, job.workflow_id).await? else { return Ok(()) };
    let recorded = state
        .store
        .record_workflow_event(
            &workflow,
            WorkflowEventKind::DocumentLongTermPending,
            format!("workflow:{}", workflow.id),
            serde_json::json!({"reason": cause.to_string()}),
            &Actor::system(),
        )
        .await;
    match recorded {
        Err(error) if error.code() == ErrorCode::StateConflict => Ok(()),
        other => other,
    }
}
