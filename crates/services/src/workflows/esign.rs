//! Aadhaar eSign for a workflow signatory whose mode of signature asks for it. [`start`]:
//! every active document is prepared with the signer's appearance where their placement puts
//! it, and one request carries all their digests (the CCA API takes up to five), so the signer
//! authenticates once. [`answer`]: each of the ESP's signatures is embedded into its document
//! as a new version on top of the version it was prepared from; the store accepts them only
//! if no one changed those documents meanwhile (a parallel signer), else the signer signs again.
//! The signature is the signer's own (a certificate in their name), not the tenant's seal.

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use signet_domain::audit::Actor;
use signet_domain::fields::FieldValue;
use signet_domain::gateway::EsignState;
use signet_domain::placement::{FieldInputs, Placement};
use signet_domain::workflow::{DocumentState, SignatureMode, WorkflowState};
use signet_domain::{BoxError, DocumentId, Error, ErrorCode};
use signet_esign::asp::{Outcome, Signed};
use signet_signing::{PadesLevel, PdfSignOptions, PreparedRemotePdf};
use signet_store::{
    AfterSignature, DocumentRow, EsignSubject, EsignTransactionRow, SignatoryRow, SignedVersion, WorkflowRow,
};

use super::placement;
use super::sealing::version_key;
use super::session::SignerSession;
use crate::Services;
use crate::esign::{
    EsignGone, EsignRefused, EspRedirect, Outgoing, TxnId, forget_pending, internal, open_pending, send, take,
};
use crate::gateway::seal::Mark;
use crate::platform::heavy::Share;

/// What the answer completes, sealed under the `txn`'s secret.
#[derive(Serialize, Deserialize)]
struct Pending {
    documents: Vec<PendingDocument>,
}

#[derive(Serialize, Deserialize)]
struct PendingDocument {
    document_id: i64,
    base_version: i64,
    prepared: PreparedRemotePdf,
}

/// Whether this signer signs with Aadhaar eSign.
pub fn required(session: &SignerSession) -> bool {
    session.signatory.signature_mode == SignatureMode::AadhaarEsign
}

fn options(svc: &Services) -> PdfSignOptions {
    let http = svc.config.outbound_http();
    PdfSignOptions {
        // Time-stamped at once; the chain and revocation data that validate the 30-minute
        // certificate later (B-LT) come within seconds from the long-term job, which retries
        // while the ESP's CA does not answer: the signer's answer is never lost to a CA that
        // is down, and the workflow says the data is pending.
        level: if svc.config.tsa_url.is_some() { PadesLevel::BT } else { PadesLevel::BB },
        tsa_url: svc.config.tsa_url.clone(),
        http,
        // The label is signed: what the configured ESP's CMS is (adbe.pkcs7.detached unless
        // it is PAdES baseline).
        sub_filter: svc.esign.as_deref().map(|setup| setup.pdf_sub_filter).unwrap_or_default(),
        ..PdfSignOptions::default()
    }
}

/// Here, not beside [`EsignRefused`]: the eSign room does not reach into the workflows.
impl From<super::otp::PhoneNotConfirmed> for EsignRefused {
    fn from(_: super::otp::PhoneNotConfirmed) -> Self {
        EsignRefused::PhoneNotConfirmed
    }
}

/// The signer chose to sign: every active document is prepared and one request goes to the ESP.
pub async fn start(
    svc: &Services,
    session: &SignerSession,
    inputs: &FieldInputs,
    auth_mode: Option<signet_esign::AuthMode>,
) -> Result<EspRedirect, EsignRefused> {
    if svc.esign.is_none() || !required(session) {
        return Err(EsignRefused::Unavailable);
    }
    super::otp::require_verified::<EsignRefused>(svc, session).await?;
    let (signatory, workflow) = (&session.signatory, &session.workflow);
    let documents: Vec<DocumentRow> = svc
        .store
        .workflow_documents(workflow)
        .await?
        .into_iter()
        .filter(|d| d.state == DocumentState::Active)
        .collect();
    if documents.is_empty() || documents.len() > signet_esign::MAX_HASHES {
        return Err(EsignRefused::Gone(EsignGone::DocumentCount));
    }
    let zone = crate::people::organisation::zone_of(svc, workflow.tenant_id).await;
    let values = super::sealing::fields_filled(signatory, &session.placement, inputs, zone)
        .map_err(|(_, refusal)| EsignRefused::Input(refusal))?;
    let boxes = super::sealing::workflow_boxes(svc, workflow).await?;
    let mut pending = Pending { documents: Vec::with_capacity(documents.len()) };
    for (index, doc) in documents.iter().enumerate() {
        pending.documents.push(prepare(svc, doc, index, session, &values, &boxes).await?);
    }
    let digests: Vec<[u8; 32]> = pending.documents.iter().map(|d| d.prepared.digest).collect();
    let doc_info: Vec<String> = documents.iter().map(|d| d.name.clone()).collect();
    let id = signatory.id.to_string();
    let outgoing = Outgoing {
        tenant_id: workflow.tenant_id,
        subject: EsignSubject::Signatory(signatory.id),
        blob_folder: ["signatories", &id],
        digests: &digests,
        doc_info: &doc_info,
        signer_id: None,
        raw: false,
        auth_mode,
    };
    send(svc, &outgoing, &pending).await
}

async fn prepare(
    svc: &Services,
    doc: &DocumentRow,
    index: usize,
    session: &SignerSession,
    values: &[FieldValue],
    boxes: &[(i64, Placement)],
) -> Result<PendingDocument, EsignRefused> {
    let (signatory, workflow) = (&session.signatory, &session.workflow);
    let current = signet_blob::BlobKey::parse(&doc.current_blob).map_err(internal)?;
    let pdf = svc.blob.get(&current).await.map_err(internal)?;
    let (placement, values, boxes) = (session.placement.clone(), values.to_vec(), boxes.to_vec());
    let mark = Mark::Typed { name: signatory.name.clone(), style: signet_signing::NameStyle::Plain };
    let zone = crate::people::organisation::zone_of(svc, workflow.tenant_id).await;
    let owner = signatory.id.get();
    let mut opts = options(svc);
    opts.name = Some(signatory.name.clone());
    opts.reason = Some(format!("Signed with Aadhaar eSign by {} (workflow {})", signatory.name, workflow.id));
    opts.contact_info = Some(signatory.email.clone());
    let prepared = svc
        .heavy
        .run(Share::Tenant(workflow.tenant_id), move || -> Result<_, BoxError> {
            let prepared = placement::prepare_fields(&boxes, index, &pdf)?;
            let pdf = prepared.as_deref().unwrap_or(&pdf);
            opts.visible = Some(placement::visible(&placement, owner, index, pdf, &mark, &values, zone)?);
            Ok(signet_signing::prepare_remote_pdf(pdf, &opts)?)
        })
        .await?
        .map_err(EsignRefused::Internal)?;
    Ok(PendingDocument { document_id: doc.id.get(), base_version: doc.version, prepared })
}

/// What a workflow signatory's eSign came to, for their page to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Esigned {
    /// They cancelled at the ESP; nothing was signed.
    Cancelled,
    /// The ESP did not sign: its code and message (control characters dropped, at most 200
    /// characters), quoted to the signer.
    EspRefused { code: String, message: String, kind: signet_esign::esp_codes::EspRefusal },
    /// Signed; `completed` when theirs was the last signature.
    Signed { completed: bool },
}

/// A checked answer for a workflow signatory: what it came to, and the workflow's signer
/// language (the page that says so has no other way to know it).
pub(crate) async fn answer(
    svc: &Services,
    esign: &EsignTransactionRow,
    txn: &TxnId,
    outcome: Outcome,
    actor: &Actor,
) -> Result<(Esigned, Option<signet_domain::Lang>), EsignRefused> {
    let id = esign.signatory_id.ok_or_else(|| internal("no signatory"))?;
    let (signatory, workflow) = svc.store.signatory(id).await?.ok_or(EsignRefused::Gone(EsignGone::NoSuchRequest))?;
    if workflow.state() != WorkflowState::InProgress || !signatory.state().is_turn() {
        return Err(EsignRefused::Gone(EsignGone::MovedOn));
    }
    let lang = workflow.signer_lang();
    let actor = Actor { id: format!("signatory:{}", signatory.id), ip: actor.ip.clone() };
    let esigned = match outcome {
        Outcome::Refused { code, message } => {
            take(svc, esign, EsignState::Refused, &code).await?;
            forget_pending(svc, esign).await;
            let kind = crate::esign::refusal_kind(svc, esign.esp.as_deref(), &code);
            if kind.is_cancel() {
                return Ok((Esigned::Cancelled, lang));
            }
            let message: String = message.chars().filter(|c| !c.is_control()).take(200).collect();
            Esigned::EspRefused { code, message, kind }
        }
        Outcome::Signed(signed) => {
            take(svc, esign, EsignState::Signed, &signed.res_code).await?;
            let result = embed_all(svc, esign, txn, &signatory, &workflow, &signed, &actor).await;
            forget_pending(svc, esign).await;
            match result {
                Ok(AfterSignature::Completed) => {
                    super::completion::finish_in_background(svc, workflow.tenant_id, workflow.id);
                    Esigned::Signed { completed: true }
                }
                Ok(_) => Esigned::Signed { completed: false },
                Err(error) if error.code() == ErrorCode::Conflict => {
                    return Err(EsignRefused::Gone(EsignGone::DocumentsChanged));
                }
                Err(error) => return Err(internal(error)),
            }
        }
    };
    Ok((esigned, lang))
}

/// Embeds each signature into its document, stores the new versions and records the signature.
async fn embed_all(
    svc: &Services,
    esign: &EsignTransactionRow,
    txn: &TxnId,
    signatory: &SignatoryRow,
    workflow: &WorkflowRow,
    signed: &Signed,
    actor: &Actor,
) -> Result<AfterSignature, Error> {
    let pending: Pending = open_pending(svc, esign, txn).await.map_err(Error::internal)?;
    let mut written: Vec<(signet_blob::BlobKey, DocumentId, i64, String)> = Vec::new();
    for (document, cms) in pending.documents.into_iter().zip(&signed.signatures) {
        match embed_one(svc, workflow, document, cms.clone()).await {
            Ok(version) => written.push(version),
            Err(error) => {
                discard(svc, &written).await;
                return Err(error);
            }
        }
    }
    let versions: Vec<SignedVersion<'_>> = written
        .iter()
        .map(|(key, document_id, base_version, sha)| SignedVersion {
            document_id: *document_id,
            base_version: *base_version,
            blob_key: key.as_str(),
            sha256: sha,
        })
        .collect();
    let detail = serde_json::json!({
        "method": "aadhaar_esign",
        "signer": signed.signer_name,
        "espReference": signed.res_code,
    });
    let recorded = svc.store.record_signature(signatory, &versions, "aadhaar_esign", actor, detail).await;
    if recorded.is_err() {
        discard(svc, &written).await;
    }
    recorded
}

async fn embed_one(
    svc: &Services,
    workflow: &WorkflowRow,
    document: PendingDocument,
    cms: Vec<u8>,
) -> Result<(signet_blob::BlobKey, DocumentId, i64, String), Error> {
    let document_id = DocumentId::from(document.document_id);
    let doc = svc
        .store
        .document(workflow.tenant_id, document_id)
        .await?
        .ok_or_else(|| Error::internal("a signed document disappeared"))?;
    let opts = options(svc);
    let prepared = document.prepared;
    let bytes = svc
        .heavy
        .run(Share::Tenant(workflow.tenant_id), move || {
            signet_signing::complete_remote_pdf(&prepared, &cms, &opts).map_err(|e| e.to_string())
        })
        .await?
        .map_err(|cause| {
            Error::rejected(ErrorCode::ValidationFailed, format!("{} could not be signed: {cause}", doc.name))
        })?;
    let sha = crate::workflows::documents::sha256_hex(&bytes);
    let key = version_key(&doc, document.base_version + 1)?;
    svc.blob.put(&key, Bytes::from(bytes)).await?;
    Ok((key, document_id, document.base_version, sha))
}

async fn discard(svc: &Services, written: &[(signet_blob::BlobKey, DocumentId, i64, String)]) {
    for (key, ..) in written {
        let _ = svc.blob.delete(key).await;
    }
}
