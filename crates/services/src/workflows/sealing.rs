//! A signatory's signature on every document of the workflow: each one its own incremental
//! PAdES signature sealed with the platform's document-sealing key, so every earlier
//! signature stays valid. Signers of one parallel group may sign at the same moment: the
//! store accepts a new version only on top of the version it was made from, and the loser
//! signs the newer version again.

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::Zone;
use signet_domain::audit::Actor;
use signet_domain::fields::{FieldRefusal, FieldValue, Signer};
use signet_domain::placement::{FieldInputs, Placement, inputs_of};
use signet_domain::workflow::DocumentState;
use signet_domain::{Error, ErrorCode};
use signet_signing::{PadesLevel, PdfSignOptions};
use signet_store::{AfterSignature, DocumentRow, SignatoryRow, SignedVersion, WorkflowRow};

use super::placement;
use crate::Services;
use crate::gateway::seal::Mark;
use crate::platform::heavy::Share;

const ATTEMPTS: usize = 4;

fn seal_http(state: &Services) -> signet_signing::HttpConfig {
    state.config.outbound_http()
}

/// The blob key of a new version of a document.
pub fn version_key(doc: &DocumentRow, version: i64) -> Result<BlobKey, Error> {
    let file = format!("v{version}-{}.pdf", crate::platform::secrets::random_token(6));
    Ok(BlobKey::new(["tenant", &doc.tenant_id.to_string(), "documents", &doc.id.to_string(), &file])?)
}

/// Who applies the signature: the platform's sealing key (electronic signatures) or an
/// automated-signing profile's own key.
pub type SigningKey = std::sync::Arc<dyn signet_signing::RawSigner>;

/// What the signer declares besides their mark (an automated signer's defaults), read from
/// the signature's recorded detail (`signatureReason`, `signatureLocation`).
#[derive(Debug, Clone, Default)]
struct Declared {
    reason: Option<String>,
    location: Option<String>,
}

impl Declared {
    fn from_detail(detail: &serde_json::Value) -> Declared {
        let text = |key: &str| detail.get(key).and_then(|v| v.as_str()).map(str::to_string);
        Declared { reason: text("signatureReason"), location: text("signatureLocation") }
    }
}

/// One signature to apply: who signs, in which workflow, with which mark and declaration.
#[derive(Clone)]
struct Signing {
    signatory: SignatoryRow,
    workflow: WorkflowRow,
    mark: Mark,
    declared: Declared,
    /// What each of the signatory's fields shows.
    values: Vec<FieldValue>,
    /// The organisation's zone: the date box's day, the appearance's date.
    zone: Zone,
    /// Every signatory's id and placement: their boxes become empty fields before the first
    /// signature ([`placement::prepare_fields`]).
    boxes: Vec<(i64, Placement)>,
    /// The signatory's own placement (theirs among `boxes`).
    placement: Placement,
}

/// Why one document could not be signed: its placement does not fit it, or the signature
/// itself failed. Either keeps its cause; the refusal shows its words.
#[derive(Debug, thiserror::Error)]
enum SignOneError {
    #[error(transparent)]
    Placement(#[from] placement::PlacementError),
    #[error(transparent)]
    Signing(#[from] signet_signing::Error),
}

fn sign_one(
    state: &Services,
    key: &SigningKey,
    pdf: &[u8],
    index: usize,
    job: &Signing,
) -> Result<Vec<u8>, SignOneError> {
    let (signatory, workflow) = (&job.signatory, &job.workflow);
    let prepared = placement::prepare_fields(&job.boxes, index, pdf)?;
    let pdf = prepared.as_deref().unwrap_or(pdf);
    let visible = placement::visible(&job.placement, signatory.id.get(), index, pdf, &job.mark, &job.values, job.zone)?;
    let statement = format!("Signed by {} <{}> (workflow {})", signatory.name, signatory.email, workflow.id);
    let reason = match &job.declared.reason {
        Some(declared) => format!("{statement}: {declared}"),
        None => statement,
    };
    let opts = PdfSignOptions {
        level: if state.config.tsa_url.is_some() { PadesLevel::BT } else { PadesLevel::BB },
        tsa_url: state.config.tsa_url.clone(),
        http: seal_http(state),
        visible: Some(visible),
        name: Some(signatory.name.clone()),
        reason: Some(reason),
        location: job.declared.location.clone(),
        contact_info: Some(signatory.email.clone()),
        ..PdfSignOptions::default()
    };
    Ok(signet_signing::sign_pdf(pdf, key.as_ref(), &opts)?)
}

/// Why a signature was not applied: a document that cannot take it (its placement does not
/// fit, the library refused it), named so that a page can say which in the signer's language,
/// or any other failure. Both keep the error the services' clients read, words unchanged.
#[derive(Debug)]
pub enum SealFailure {
    Unsignable { document: String, error: Error },
    Failed(Error),
}

impl From<Error> for SealFailure {
    fn from(error: Error) -> Self {
        SealFailure::Failed(error)
    }
}

impl From<signet_blob::Error> for SealFailure {
    fn from(error: signet_blob::Error) -> Self {
        SealFailure::Failed(error.into())
    }
}

impl From<SealFailure> for Error {
    fn from(failure: SealFailure) -> Self {
        match failure {
            SealFailure::Unsignable { error, .. } | SealFailure::Failed(error) => error,
        }
    }
}

/// Signs every active document for the signatory with the platform's sealing key and
/// records the signature.
pub async fn sign_documents(
    state: &Services,
    signatory: &SignatoryRow,
    workflow: &WorkflowRow,
    mark: Mark,
    actor: &Actor,
    detail: serde_json::Value,
) -> Result<AfterSignature, SealFailure> {
    let key: SigningKey = state.seals.for_tenant(&state.store, workflow.tenant_id).await?;
    sign_documents_typed(state, &key, signatory, workflow, mark, actor, detail).await
}

/// Signs every active document for the signatory with `key` and records the signature.
pub async fn sign_documents_with(
    state: &Services,
    key: &SigningKey,
    signatory: &SignatoryRow,
    workflow: &WorkflowRow,
    mark: Mark,
    actor: &Actor,
    detail: serde_json::Value,
) -> Result<AfterSignature, Error> {
    Ok(sign_documents_typed(state, key, signatory, workflow, mark, actor, detail).await?)
}

async fn sign_documents_typed(
    state: &Services,
    key: &SigningKey,
    signatory: &SignatoryRow,
    workflow: &WorkflowRow,
    mark: Mark,
    actor: &Actor,
    detail: serde_json::Value,
) -> Result<AfterSignature, SealFailure> {
    let method = match &mark {
        Mark::Typed { .. } => "typed",
        Mark::Image(_) => "image",
    };
    let zone = crate::people::organisation::zone_of(state, workflow.tenant_id).await;
    let boxes = workflow_boxes(state, workflow).await?;
    let placement = own_placement(&boxes, signatory);
    let job = Signing {
        signatory: signatory.clone(),
        workflow: workflow.clone(),
        declared: Declared::from_detail(&detail),
        values: field_values(signatory, &placement, &inputs_of(&detail), zone)?,
        mark,
        zone,
        boxes,
        placement,
    };
    let mut last_conflict = None;
    for _ in 0..ATTEMPTS {
        let documents: Vec<DocumentRow> = state
            .store
            .workflow_documents(workflow)
            .await?
            .into_iter()
            .filter(|d| d.state == DocumentState::Active)
            .collect();
        if documents.is_empty() {
            return Err(
                Error::rejected(ErrorCode::StateConflict, "the workflow has no active documents to sign").into()
            );
        }
        let mut written: Vec<(BlobKey, &DocumentRow, String)> = Vec::with_capacity(documents.len());
        let mut failure = None;
        for (index, doc) in documents.iter().enumerate() {
            match sign_and_store(state, key, doc, index, &job).await {
                Ok((key, sha)) => written.push((key, doc, sha)),
                Err(error) => {
                    failure = Some(error);
                    break;
                }
            }
        }
        if let Some(error) = failure {
            discard(state, &written).await;
            return Err(error);
        }
        let versions: Vec<SignedVersion<'_>> = written
            .iter()
            .map(|(key, doc, sha)| SignedVersion {
                document_id: doc.id,
                base_version: doc.version,
                blob_key: key.as_str(),
                sha256: sha,
            })
            .collect();
        match state.store.record_signature(signatory, &versions, method, actor, detail.clone()).await {
            // Superseded versions stay in the blob store: the event chain names their hashes.
            Ok(after) => return Ok(after),
            Err(error) if error.code() == ErrorCode::Conflict => {
                discard(state, &written).await;
                last_conflict = Some(error);
            }
            Err(error) => {
                discard(state, &written).await;
                return Err(error.into());
            }
        }
    }
    Err(last_conflict.unwrap_or_else(|| Error::rejected(ErrorCode::Conflict, "the documents kept changing")).into())
}

/// Every signatory's id and placement in `workflow`, for [`placement::prepare_fields`].
pub(crate) async fn workflow_boxes(state: &Services, workflow: &WorkflowRow) -> Result<Vec<(i64, Placement)>, Error> {
    Ok(state.store.signatories(workflow).await?.into_iter().map(|s| (s.id.get(), s.placement)).collect())
}

/// The signatory's placement among the workflow's (read there already).
fn own_placement(boxes: &[(i64, Placement)], signatory: &SignatoryRow) -> Placement {
    match boxes.iter().find(|(id, _)| *id == signatory.id.get()) {
        Some((_, placement)) => placement.clone(),
        None => signatory.placement.clone(),
    }
}

/// What the signatory's fields show, from the signer's inputs (refused when a required one is
/// missing: the signer corrects it).
/// A date box shows today in the organisation's `zone`.
pub fn field_values(
    signatory: &SignatoryRow,
    placement: &Placement,
    inputs: &FieldInputs,
    zone: Zone,
) -> Result<Vec<FieldValue>, Error> {
    fields_filled(signatory, placement, inputs, zone)
        .map_err(|(i, refusal)| Error::field(&format!("field{i}"), refusal.to_string()))
}

/// What each of the signatory's fields shows now, or the first the signer must correct (its
/// position and why), for a page to say in the signer's language.
pub fn fields_filled(
    signatory: &SignatoryRow,
    placement: &Placement,
    inputs: &FieldInputs,
    zone: Zone,
) -> Result<Vec<FieldValue>, (usize, FieldRefusal)> {
    let signer = Signer { name: &signatory.name, email: &signatory.email };
    placement::filled(placement, inputs, &signer, signet_domain::now_millis(), zone)
}

async fn sign_and_store(
    state: &Services,
    key: &SigningKey,
    doc: &DocumentRow,
    index: usize,
    job: &Signing,
) -> Result<(BlobKey, String), SealFailure> {
    let current = BlobKey::parse(&doc.current_blob)?;
    let pdf = state.blob.get(&current).await?;
    let (state2, key2, job2) = (state.clone(), key.clone(), job.clone());
    let signed = state
        .heavy
        .run(Share::Tenant(doc.tenant_id), move || sign_one(&state2, &key2, &pdf, index, &job2))
        .await?
        .map_err(|cause| SealFailure::Unsignable {
            document: doc.name.clone(),
            error: Error::rejected(ErrorCode::ValidationFailed, format!("{} could not be signed: {cause}", doc.name)),
        })?;
    let sha = hex::encode(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &signed).as_ref());
    let stored = version_key(doc, doc.version + 1)?;
    state.blob.put(&stored, Bytes::from(signed)).await?;
    Ok((stored, sha))
}

async fn discard(state: &Services, written: &[(BlobKey, &DocumentRow, String)]) {
    for (key, _, _) in written {
        let _ = state.blob.delete(key).await;
    }
}
