//! A workflow signatory who signs with their own crypto token (mode `dsc_token`), through the
//! signer utility on their PC, as the gateway's type 2 does: [`prepare`] prepares every active
//! document for the token's certificate (the appearance names the certificate holder, where
//! the signatory's placement puts it) and returns the hashes, which the token signs with one
//! PIN; [`complete`] embeds each signature as a new version on top of the version it was
//! prepared from and records the signature. Documents that changed meanwhile (a parallel
//! signer) are refused; the signer signs again. What the signer can act on is a
//! [`TokenRefusal`], a fact the signer page words in the signer's language (the problems the
//! gateway's token signer has too are its [`TokenProblem`]s, worded alike).

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::audit::Actor;
use signet_domain::placement::FieldInputs;
use signet_domain::workflow::{DocumentState, SignatureMode};
use signet_domain::{DocumentId, Error, ErrorCode};
use signet_sigcrypto::pki;
use signet_signing::{PadesLevel, PdfSignOptions, PreparedPdf, SignatureOrCms};
use signet_store::{AfterSignature, DocumentRow, SignedVersion};

use super::placement;
use super::sealing::version_key;
use super::session::SignerSession;
use crate::gateway::seal::Mark;
use crate::gateway::token::TokenProblem;
use crate::platform::heavy::Share;
use crate::{Services, platform::secrets};

/// Most documents one token signature covers.
const MAX_DOCUMENTS: usize = 50;

#[derive(serde::Serialize, serde::Deserialize)]
struct Pending {
    documents: Vec<PendingDocument>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct PendingDocument {
    document_id: i64,
    base_version: i64,
    prepared: PreparedPdf,
}

/// What the page has the token sign: the hashes, in document order.
pub struct Prepared {
    pub id: String,
    pub hashes_to_sign: Vec<String>,
}

/// Why the token's signature was not taken: a refusal the signer can act on, as a fact the
/// pages word in the signer's language, or a failure ([`Error`]).
#[derive(Debug)]
pub enum TokenFailure {
    Refused(TokenRefusal),
    Failed(Error),
}

/// What the signer can act on; the pages word it in the signer's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenRefusal {
    /// This signer does not sign with a crypto token.
    NotHere,
    /// The signer was asked for a code by SMS and has not confirmed their phone yet.
    PhoneNotConfirmed,
    /// What the gateway's token signer refuses too: a certificate that cannot sign now, a
    /// signature to give again, fewer signatures than documents, a signature not accepted.
    Problem(TokenProblem),
    /// No active document, or more than one token signature covers.
    NothingToSign,
    /// A document cannot be prepared for the certificate: its name and the library's words.
    DocumentNotPrepared { document: String, detail: String },
    /// The documents changed while the token signed (a parallel signer signed): sign again.
    DocumentsChanged,
    /// The request moved on while the token signed (completed, declined, recalled, expired), or
    /// this signer can no longer sign it.
    NotNow,
}

impl From<TokenRefusal> for TokenFailure {
    fn from(refusal: TokenRefusal) -> Self {
        TokenFailure::Refused(refusal)
    }
}

impl From<TokenProblem> for TokenFailure {
    fn from(problem: TokenProblem) -> Self {
        TokenFailure::Refused(TokenRefusal::Problem(problem))
    }
}

impl From<super::otp::PhoneNotConfirmed> for TokenFailure {
    fn from(_: super::otp::PhoneNotConfirmed) -> Self {
        TokenFailure::Refused(TokenRefusal::PhoneNotConfirmed)
    }
}

impl From<Error> for TokenFailure {
    fn from(error: Error) -> Self {
        TokenFailure::Failed(error)
    }
}

impl From<signet_blob::Error> for TokenFailure {
    fn from(error: signet_blob::Error) -> Self {
        TokenFailure::Failed(error.into())
    }
}

impl From<serde_json::Error> for TokenFailure {
    fn from(error: serde_json::Error) -> Self {
        TokenFailure::Failed(error.into())
    }
}

pub fn required(session: &SignerSession) -> bool {
    session.signatory.signature_mode == SignatureMode::DscToken
}

fn options(svc: &Services) -> PdfSignOptions {
    let http = svc.config.outbound_http();
    PdfSignOptions {
        level: if svc.config.tsa_url.is_some() { PadesLevel::BT } else { PadesLevel::BB },
        tsa_url: svc.config.tsa_url.clone(),
        http,
        ..PdfSignOptions::default()
    }
}

fn pending_key(session: &SignerSession, id: &str) -> Result<BlobKey, Error> {
    let (tenant, signatory) = (session.workflow.tenant_id.to_string(), session.signatory.id.to_string());
    Ok(BlobKey::new(["tenant", &tenant, "signatories", &signatory, &format!("token-{id}.json")])?)
}

/// Prepares every active document for the token's certificate.
pub async fn prepare(
    svc: &Services,
    session: &SignerSession,
    certificate: Vec<u8>,
    chain: Vec<Vec<u8>>,
    inputs: &FieldInputs,
) -> Result<Prepared, TokenFailure> {
    if !required(session) {
        return Err(TokenRefusal::NotHere.into());
    }
    super::otp::require_verified::<TokenFailure>(svc, session).await?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    if !pki::is_signing_certificate(&certificate, now) {
        return Err(TokenProblem::CannotSignNow.into());
    }
    let documents: Vec<DocumentRow> = svc
        .store
        .workflow_documents(&session.workflow)
        .await?
        .into_iter()
        .filter(|d| d.state == DocumentState::Active)
        .collect();
    if documents.is_empty() || documents.len() > MAX_DOCUMENTS {
        return Err(TokenRefusal::NothingToSign.into());
    }
    let holder = pki::cert_common_name(&certificate).unwrap_or_else(|| session.signatory.name.clone());
    let placement = &session.placement;
    let zone = crate::people::organisation::zone_of(svc, session.workflow.tenant_id).await;
    let values = super::sealing::field_values(&session.signatory, placement, inputs, zone)?;
    let boxes = super::sealing::workflow_boxes(svc, &session.workflow).await?;
    let owner = session.signatory.id.get();
    let mut pending = Pending { documents: Vec::with_capacity(documents.len()) };
    for (index, doc) in documents.iter().enumerate() {
        let pdf = svc.blob.get(&BlobKey::parse(&doc.current_blob)?).await?;
        let mut opts = options(svc);
        opts.reason = Some(format!("Signed with a crypto token by {holder} (workflow {})", session.workflow.id));
        opts.contact_info = Some(session.signatory.email.clone());
        let (certificate, chain, placement, values, boxes) =
            (certificate.clone(), chain.clone(), placement.clone(), values.clone(), boxes.clone());
        let mark = Mark::Typed { name: holder.clone(), style: signet_signing::NameStyle::Plain };
        let prepared = svc
            .heavy
            .run(Share::Tenant(session.workflow.tenant_id), move || {
                let prepared = placement::prepare_fields(&boxes, index, &pdf).map_err(|e| e.to_string())?;
                let pdf = prepared.as_deref().unwrap_or(&pdf);
                let visible = placement::visible(&placement, owner, index, pdf, &mark, &values, zone);
                opts.visible = Some(visible.map_err(|e| e.to_string())?);
                signet_signing::prepare_pdf(pdf, &certificate, &chain, &opts).map_err(|e| e.to_string())
            })
            .await?
            .map_err(|detail| TokenRefusal::DocumentNotPrepared { document: doc.name.clone(), detail })?;
        pending.documents.push(PendingDocument { document_id: doc.id.get(), base_version: doc.version, prepared });
    }
    let id = secrets::random_token(12);
    svc.blob.put(&pending_key(session, &id)?, Bytes::from(serde_json::to_vec(&pending)?)).await?;
    let hashes_to_sign = pending.documents.iter().map(|d| hex::encode(&d.prepared.hash_to_sign)).collect();
    Ok(Prepared { id, hashes_to_sign })
}

/// Embeds the token's signatures (document order) and records the signature.
pub async fn complete(
    svc: &Services,
    session: &SignerSession,
    id: &str,
    signatures: Vec<Vec<u8>>,
    actor: &Actor,
) -> Result<AfterSignature, TokenFailure> {
    if !required(session) {
        return Err(TokenRefusal::NotHere.into());
    }
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        return Err(TokenProblem::SignAgain.into());
    }
    // Checked again: the verification may have lapsed while the token signed.
    super::otp::require_verified::<TokenFailure>(svc, session).await?;
    let key = pending_key(session, id)?;
    let stored = svc.blob.get(&key).await.map_err(|_| TokenFailure::from(TokenProblem::SignAgain))?;
    let pending: Pending = serde_json::from_slice(&stored)?;
    if signatures.len() != pending.documents.len() {
        return Err(TokenProblem::NotEveryDocument.into());
    }
    let mut written: Vec<(BlobKey, DocumentId, i64, String)> = Vec::new();
    for (document, signature) in pending.documents.into_iter().zip(signatures) {
        match embed_one(svc, session, document, signature).await {
            Ok(version) => written.push(version),
            Err(failure) => {
                discard(svc, &written).await;
                return Err(failure);
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
    let detail = serde_json::json!({"method": "dsc_token"});
    let recorded = svc.store.record_signature(&session.signatory, &versions, "dsc_token", actor, detail).await;
    match &recorded {
        Ok(after) => {
            let _ = svc.blob.delete(&key).await;
            if *after == AfterSignature::Completed {
                super::completion::finish_in_background(svc, session.workflow.tenant_id, session.workflow.id);
            }
        }
        Err(_) => discard(svc, &written).await,
    }
    recorded.map_err(|error| match error.code() {
        ErrorCode::Conflict => TokenRefusal::DocumentsChanged.into(),
        ErrorCode::StateConflict => TokenRefusal::NotNow.into(),
        _ => error.into(),
    })
}

async fn embed_one(
    svc: &Services,
    session: &SignerSession,
    document: PendingDocument,
    signature: Vec<u8>,
) -> Result<(BlobKey, DocumentId, i64, String), TokenFailure> {
    let document_id = DocumentId::from(document.document_id);
    let doc = svc
        .store
        .document(session.workflow.tenant_id, document_id)
        .await?
        .ok_or_else(|| Error::internal("a signed document disappeared"))?;
    let opts = options(svc);
    let prepared = document.prepared;
    let bytes = svc
        .heavy
        .run(Share::Tenant(session.workflow.tenant_id), move || {
            signet_signing::complete_pdf_with(&prepared, SignatureOrCms::Signature(signature), &opts)
                .map_err(|e| e.to_string())
        })
        .await?
        .map_err(TokenProblem::NotAccepted)?;
    let sha = crate::workflows::documents::sha256_hex(&bytes);
    let key = version_key(&doc, document.base_version + 1)?;
    svc.blob.put(&key, Bytes::from(bytes)).await?;
    Ok((key, document_id, document.base_version, sha))
}

async fn discard(svc: &Services, written: &[(BlobKey, DocumentId, i64, String)]) {
    for (key, ..) in written {
        let _ = svc.blob.delete(key).await;
    }
}
