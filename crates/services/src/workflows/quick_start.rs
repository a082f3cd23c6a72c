//! One-call initiations (the API's `initiate-and-sign` and `optimized`): the documents come
//! with the request, so they are checked, stored and put in a new workflow at once, and the
//! first signer's signature image, when given, is applied straight away.

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::{Error, TenantId, now_millis};
use signet_store::{AfterSignature, CreatedWorkflow, NewSignatory, NewWorkflow, SignatoryRow, WorkflowRow};

use super::initiate::{Attachment, create_workflow, put_attachment_files, remove_attachment_files};
use crate::Services;
use crate::gateway::seal::Mark;
use crate::platform::heavy::Share;
use crate::workflows::documents::{CheckedPdf, store_document};

/// What the request amounts to once its documents are checked.
pub struct Plan {
    pub pdfs: Vec<CheckedPdf>,
    pub signatories: Vec<NewSignatory>,
    /// The first signer's signature image (PNG or JPEG), applied when the workflow starts.
    pub first_signature: Option<Vec<u8>>,
}

/// The workflow as started, with its signatories after any first signature.
pub struct Started {
    pub workflow: WorkflowRow,
    pub signatories: Vec<SignatoryRow>,
}

/// The rest of a one-call request: the workflow's name and options, its attachments, and the
/// stamp duty its (first) document carries.
pub struct QuickStart {
    pub reference_no: Option<String>,
    pub settings: signet_domain::workflow_settings::WorkflowSettings,
    pub attachments: Vec<Attachment>,
    pub stamp: Option<StampOrder>,
    /// QR codes on the first document that lead to its public verification page.
    pub qr: Vec<crate::verification::QrPlacement>,
}

pub use crate::stamps::StampOrder;

/// Runs `plan` (parsing and checking the documents: heavy work) on the bounded pool, then
/// stores everything and starts the workflow. Nothing is stored when a check fails.
pub async fn start(
    svc: &Services,
    caller: &crate::Caller,
    plan: impl FnOnce() -> Result<Plan, Error> + Send + 'static,
    rest: impl FnOnce(&Plan) -> Result<QuickStart, Error>,
) -> Result<Started, Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let (tenant_id, actor) = (caller.tenant_id, &caller.actor);
    let plan = svc.heavy.run(Share::Tenant(tenant_id), plan).await??;
    let planned: Vec<_> = plan.signatories.iter().map(|s| s.planned.clone()).collect();
    super::offered::check_offered(svc, &planned)?;
    if plan.first_signature.is_some()
        && planned.first().is_some_and(|p| p.mode == signet_domain::workflow::SignatureMode::AadhaarEsign)
    {
        return Err(Error::field(
            "signatories[0].signatureImage",
            "a signer who signs with Aadhaar eSign signs at the ESP, not with an image",
        ));
    }
    let mut rest = rest(&plan)?;
    // Stamp papers first: out of stock refuses the request before anything is stored; once
    // held, every later failure gives them back.
    let held = match rest.stamp.take() {
        Some(order) => Some(crate::stamps::take(svc, tenant_id, actor, order).await?),
        None => None,
    };
    let created = store_and_create(svc, tenant_id, actor, plan.pdfs, plan.signatories, rest, held.as_ref()).await;
    if created.is_err()
        && let Some(held) = &held
    {
        crate::stamps::release(svc, tenant_id, held).await;
    }
    let created = created?;
    let mut signatories = created.signatories.clone();
    if let (Some(image), Some(first)) = (plan.first_signature, created.signatories.first()) {
        let detail = json!({"method": "image", "via": "api", "onBehalfOf": first.email, "consent": true});
        let after =
            super::sealing::sign_documents(svc, first, &created.workflow, Mark::Image(image), actor, detail).await?;
        if after == AfterSignature::Completed {
            super::completion::finish_in_background(svc, tenant_id, created.workflow.id);
        }
        signatories = svc.store.signatories(&created.workflow).await?;
    }
    Ok(Started { workflow: created.workflow, signatories })
}

/// Puts the held stamp papers' pages in front of the first document (moving the signers'
/// boxes on it along), stores the documents and attachments and creates the workflow, which
/// allocates the papers in its own transaction.
async fn store_and_create(
    svc: &Services,
    tenant_id: TenantId,
    actor: &Actor,
    mut pdfs: Vec<CheckedPdf>,
    mut signatories: Vec<NewSignatory>,
    rest: QuickStart,
    held: Option<&crate::stamps::Held>,
) -> Result<CreatedWorkflow, Error> {
    // QR codes go on the agreement's own pages, before any stamp page is put in front.
    let mut verification_token = None;
    if !rest.qr.is_empty() && !pdfs.is_empty() {
        let (first, placements, services) = (pdfs.remove(0), rest.qr.clone(), svc.clone());
        let (drawn, token) = svc
            .heavy
            .run(Share::Tenant(tenant_id), move || crate::verification::with_qr_codes(&services, first, &placements))
            .await??;
        pdfs.insert(0, drawn);
        verification_token = Some(token);
    }
    if let Some(held) = held
        && !pdfs.is_empty()
    {
        let (stamped, added) = crate::stamps::stamp_document(svc, tenant_id, held, pdfs.remove(0)).await?;
        pdfs.insert(0, stamped);
        for signatory in &mut signatories {
            super::placement::shift_first_document(&mut signatory.placement, added, pdfs.len());
        }
    }
    let name = pdfs.first().map(|p| p.name.clone()).unwrap_or_default();
    // Attachment files first: if one cannot be written, nothing else is stored.
    let attachments = put_attachment_files(svc, tenant_id, rest.attachments).await?;
    let reference_no = rest.reference_no.as_deref();
    let mut document_ids = Vec::with_capacity(pdfs.len());
    for pdf in pdfs {
        let first = document_ids.is_empty();
        match store_document(svc, tenant_id, actor, pdf, None, reference_no).await {
            Ok(document) => {
                if let (true, Some(token)) = (first, &verification_token) {
                    crate::verification::record_page(svc, token, &document).await?;
                }
                document_ids.push(document.id);
            }
            Err(error) => {
                remove_attachment_files(svc, &attachments).await;
                return Err(error);
            }
        }
    }
    let new = NewWorkflow {
        tenant_id,
        template_id: None,
        name: &name,
        reference_no,
        workflow_type: 0,
        settings: rest.settings,
        reminder_every_days: None,
        expires_at: None,
        linked_ids: Vec::new(),
        document_ids,
        signatories,
        link_expires_at: now_millis() + svc.config.signer_link_ttl_secs as i64 * 1000,
        attachments,
        stamps: held.map(crate::stamps::Held::claim),
        signer_lang: None,
    };
    create_workflow(svc, &new, actor).await
}
