//! Signing with the signer's own crypto token (SignatureType 2) through the signer utility
//! (`signet-bridge`) on their PC. Signet never sees the key: [`prepare`] takes the token's
//! certificate (and chain) and prepares what is signed (PDF: the signature field with an
//! appearance naming the certificate holder; DATA: a CMS over the data; Hash: a CMS per
//! document hash; XML: an enveloped XML-DSig) and returns the hashes the token signs; the page has the bridge sign it
//! with the signer's PIN; [`complete`] checks the raw signature against the certificate and
//! the prepared attributes, embeds it and ends the transaction. The prepared document is kept
//! sealed under the link's key between the two steps.
//!
//! When the page cannot use the bridge, the signer may give up: [`give_up`] ends the
//! transaction with the error the page found (110-113) at Furl.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::BoxError;
use signet_domain::audit::Actor;
use signet_gateway::{
    Document, ErrorCode, GatewayFailure, HashSignature, Profile, SignatureType, seal_hash_result, seal_result,
};
use signet_sigcrypto::cms::{self, CmsOptions, SignedAttrs};
use signet_sigcrypto::{pki, xmldsig};
use signet_signing::{PadesLevel, PreparedPdf, SignatureOrCms};

use super::seal::{Mark, Reached, SealError, long_term, long_term_cms, token_pdf_options};
use super::transaction::{self, Delivery, OpenTransaction, TransactionClosed};
use crate::platform::heavy::Share;
use crate::{Services, platform::secrets};

/// Why a token step was not taken; the text is for the signer.
#[derive(Debug)]
pub enum TokenRefused {
    /// Not asked for in this request, or not for this file type.
    Unavailable,
    /// The certificate or signature cannot be used; the signer can choose again.
    Invalid(TokenProblem),
    Closed(TransactionClosed),
    /// Something on our side failed: the cause, with its chain, is for the log only.
    Internal(BoxError),
}

/// What is wrong with the certificate or the token's signatures. The pages say it in the
/// signer's language, quoting the library's words ([`TokenProblem::detail`]) where they say more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenProblem {
    /// Expired, not yet valid, or not a certificate for signing.
    CannotSignNow,
    /// The documents cannot be prepared for this certificate (the library's words).
    NotPrepared(String),
    /// The prepared documents are gone (taken, or expired): sign again.
    SignAgain,
    /// Fewer signatures came back than documents were prepared.
    NotEveryDocument,
    /// A signature does not verify or cannot be embedded (the library's words).
    NotAccepted(String),
}

impl TokenProblem {
    /// The library's words, for the keys that quote them.
    pub fn detail(&self) -> &str {
        match self {
            TokenProblem::NotPrepared(detail) | TokenProblem::NotAccepted(detail) => detail,
            _ => "",
        }
    }
}

/// An internal failure with its cause: any error type, or a message.
fn internal(cause: impl Into<BoxError>) -> TokenRefused {
    TokenRefused::Internal(cause.into())
}

/// What the page has the token sign.
pub struct Prepared {
    /// Names the prepared document in [`complete`].
    pub id: String,
    /// The SHA-256 values the token signs, hex, in order (one per signature; a Hash request
    /// signs all of its documents with one PIN).
    pub hashes_to_sign: Vec<String>,
}

/// What [`complete`] embeds the signatures into, kept sealed between the two steps.
#[derive(serde::Serialize, serde::Deserialize)]
enum Pending {
    Pdf(PreparedPdf),
    /// DATA: one detached CMS over the data.
    Data(SignedAttrs),
    /// Hash: one detached CMS per document hash, with the request's names.
    Hash(Vec<(String, String, SignedAttrs)>),
    /// XML: an enveloped XML-DSig (RSA keys: the SignedInfo is RSA-SHA256).
    Xml {
        xml: Vec<u8>,
        prepared: xmldsig::PreparedXmlSignature,
        certificate: Vec<u8>,
        chain: Vec<Vec<u8>>,
    },
}

impl Pending {
    fn hashes(&self) -> Vec<String> {
        match self {
            Pending::Pdf(p) => vec![hex::encode(&p.hash_to_sign)],
            Pending::Data(a) => vec![hex::encode(&a.hash_to_sign)],
            Pending::Hash(items) => items.iter().map(|(_, _, a)| hex::encode(&a.hash_to_sign)).collect(),
            Pending::Xml { prepared, .. } => vec![hex::encode(prepared.signed_info_sha256)],
        }
    }
}

/// Whether the signer page offers a crypto token for this request.
pub fn offered(open: &OpenTransaction) -> bool {
    open.payload.has_type(SignatureType::DigitalSignature)
}

fn prepared_key(open: &OpenTransaction, id: &str) -> Result<BlobKey, TokenRefused> {
    let row = &open.row;
    BlobKey::new([
        "tenant",
        &row.tenant_id.to_string(),
        "gateway",
        &row.transaction_number,
        &format!("token-{id}.sealed"),
    ])
    .map_err(internal)
}

/// Prepares the document for the token's certificate.
pub async fn prepare(
    svc: &Services,
    open: &OpenTransaction,
    certificate: Vec<u8>,
    chain: Vec<Vec<u8>>,
) -> Result<Prepared, TokenRefused> {
    if !offered(open) {
        return Err(TokenRefused::Unavailable);
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    if !pki::is_signing_certificate(&certificate, now) {
        return Err(TokenRefused::Invalid(TokenProblem::CannotSignNow));
    }
    let document = open.payload.document.clone();
    let policy = transaction::seal_policy(svc, open.row.tenant_id).await;
    let pending = svc
        .heavy
        .run(Share::Tenant(open.row.tenant_id), move || pending_for(document, certificate, chain, &policy))
        .await
        .map_err(internal)?
        .map_err(|refusal| TokenRefused::Invalid(TokenProblem::NotPrepared(refusal.to_string())))?;
    let id = secrets::random_token(12);
    let json = serde_json::to_vec(&pending).map_err(internal)?;
    let sealed = open.seal(&json).ok_or_else(|| internal("sealing"))?;
    svc.blob.put(&prepared_key(open, &id)?, Bytes::from(sealed)).await.map_err(internal)?;
    Ok(Prepared { id, hashes_to_sign: pending.hashes() })
}

/// Why the document cannot be prepared for the token's certificate. The text is shown to the
/// signer (who can choose another certificate), so each reads as the library's own error; that
/// error stays attached.
#[derive(Debug, thiserror::Error)]
enum PrepareError {
    /// The signature's appearance or options cannot be made from the request.
    #[error(transparent)]
    Seal(#[from] SealError),
    /// The PDF cannot be prepared, or a request's hash is not SHA-256 hex.
    #[error(transparent)]
    Signing(#[from] signet_signing::Error),
    /// The CMS attributes or the XML signature cannot be prepared.
    #[error(transparent)]
    Crypto(#[from] signet_sigcrypto::Error),
    #[error("XML is signed with RSA keys; choose a certificate with an RSA key.")]
    NotRsa,
}

/// Why the token's signatures cannot be embedded: the signer is told the signature was not
/// accepted, and why, in the library's words (kept as the cause).
#[derive(Debug, thiserror::Error)]
enum EmbedError {
    #[error("a signature is missing")]
    Missing,
    /// The PDF signature cannot be completed with the token's signature.
    #[error(transparent)]
    Signing(#[from] signet_signing::Error),
    /// The CMS or the XML signature cannot be assembled, or the signature does not verify.
    #[error(transparent)]
    Crypto(#[from] signet_sigcrypto::Error),
    #[error("bad digest")]
    Digest,
    /// The result could not be encrypted under the session key.
    #[error(transparent)]
    Envelope(#[from] signet_gateway::GatewayError),
}

/// The document prepared for the certificate (heavy work: on the pool).
fn pending_for(
    document: Document,
    certificate: Vec<u8>,
    chain: Vec<Vec<u8>>,
    policy: &super::seal::SealPolicy,
) -> Result<Pending, PrepareError> {
    let cades = CmsOptions::cades();
    match document {
        Document::Pdf { bytes, options } => {
            let holder = pki::cert_common_name(&certificate).unwrap_or_else(|| options.name.clone());
            let mark = Mark::Typed { name: holder, style: signet_signing::NameStyle::Plain };
            let opts = token_pdf_options(&bytes, &options, policy, mark)?;
            Ok(Pending::Pdf(signet_signing::prepare_pdf(&bytes, &certificate, &chain, &opts)?))
        }
        Document::Data(bytes) => {
            Ok(Pending::Data(cms::prepare_signed_attrs(&pki::sha256(&bytes), &certificate, &chain, &cades)?))
        }
        Document::Hash(details) => details
            .into_iter()
            .map(|d| {
                let digest = signet_signing::parse_sha256(&d.hash_hex)?;
                let attrs = cms::prepare_signed_attrs(&digest, &certificate, &chain, &cades)?;
                Ok((d.name, d.hash_hex, attrs))
            })
            .collect::<Result<Vec<_>, PrepareError>>()
            .map(Pending::Hash),
        Document::Xml(xml) => {
            if signet_sigcrypto::signer::SigAlg::for_certificate(&certificate).ok()
                != Some(signet_sigcrypto::signer::SigAlg::RsaPkcs1Sha256)
            {
                return Err(PrepareError::NotRsa);
            }
            // The certificate is known before the token signs: XAdES-BES, so that with a TSA
            // the result is a true XAdES B-LT.
            let prepared = xmldsig::prepare_enveloped_rsa_xades(&xml, &certificate)?;
            Ok(Pending::Xml { xml, prepared, certificate, chain })
        }
    }
}

/// Embeds the token's signatures (in the order of the hashes) and ends the transaction.
pub async fn complete(
    svc: &Services,
    open: &OpenTransaction,
    id: &str,
    signatures: Vec<Vec<u8>>,
    actor: &Actor,
) -> Result<Delivery, TokenRefused> {
    if !offered(open) || id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        return Err(TokenRefused::Unavailable);
    }
    let key = prepared_key(open, id)?;
    let sealed = svc.blob.get(&key).await.map_err(|_| TokenRefused::Invalid(TokenProblem::SignAgain))?;
    let pending: Pending = open
        .unseal(&sealed)
        .and_then(|json| serde_json::from_slice(&json).ok())
        .ok_or_else(|| internal("the prepared document cannot be opened"))?;
    if signatures.len() != pending.hashes().len() {
        return Err(TokenRefused::Invalid(TokenProblem::NotEveryDocument));
    }
    let session = open.session_key().ok_or_else(|| internal("session key"))?;
    let profile = if open.row.profile == 2 { Profile::Modern } else { Profile::Legacy };
    let policy = transaction::seal_policy(svc, open.row.tenant_id).await;
    let returnvalue = svc
        .heavy
        .run(Share::Tenant(open.row.tenant_id), move || embed(pending, signatures, &policy, &session, profile))
        .await
        .map_err(internal)?
        .map_err(|cause| TokenRefused::Invalid(TokenProblem::NotAccepted(cause.to_string())))?;
    let _ = svc.blob.delete(&key).await;
    let detail = serde_json::json!({"signatureTypes": "2"});
    transaction::complete(svc, &open.row, returnvalue, actor, detail)
        .await
        .map_err(TokenRefused::Closed)?
        .ok_or(TokenRefused::Closed(TransactionClosed::Ended(transaction::TransactionEnd::Signed)))
}

/// The signed result, sealed as the `Returnvalue`: each raw signature is checked against its
/// certificate and what it signs before it is used.
fn embed(
    pending: Pending,
    signatures: Vec<Vec<u8>>,
    policy: &super::seal::SealPolicy,
    session: &signet_gateway::SessionKey,
    profile: Profile,
) -> Result<(String, Reached), EmbedError> {
    let signature_of = |i: usize| signatures.get(i).cloned().ok_or(EmbedError::Missing);
    let (bytes, reached) = match pending {
        Pending::Pdf(prepared) => {
            let opts = signet_signing::PdfSignOptions {
                level: if policy.tsa_url.is_some() {
                    signet_signing::PadesLevel::BT
                } else {
                    signet_signing::PadesLevel::BB
                },
                tsa_url: policy.tsa_url.clone(),
                http: policy.http.clone(),
                ..signet_signing::PdfSignOptions::default()
            };
            let signed =
                signet_signing::complete_pdf_with(&prepared, SignatureOrCms::Signature(signature_of(0)?), &opts)?;
            long_term(signed, policy)
        }
        Pending::Data(attrs) => long_term_cms(checked_cms(&attrs, &signature_of(0)?)?, policy),
        Pending::Hash(items) => {
            let mut out = Vec::with_capacity(items.len());
            let mut levels = Vec::with_capacity(items.len());
            for (i, (name, hash, attrs)) in items.into_iter().enumerate() {
                let (cms, reached) = long_term_cms(checked_cms(&attrs, &signature_of(i)?)?, policy);
                levels.push(reached);
                out.push(HashSignature { document_name: name, document_hash: hash, signature: STANDARD.encode(cms) });
            }
            return Ok((seal_hash_result(session, profile, &out)?, Reached::weakest_cades(levels)));
        }
        Pending::Xml { xml, prepared, certificate, chain } => {
            let signed = xmldsig::complete_enveloped_rsa(&xml, &prepared, &signature_of(0)?, &certificate, &chain)?;
            super::seal::long_term_xml(signed, policy, Reached::Xades(PadesLevel::BB))
        }
    };
    Ok((seal_result(session, profile, &bytes)?, reached))
}

/// A CMS from the token's raw signature, whose signature must verify with the certificate.
fn checked_cms(attrs: &SignedAttrs, signature: &[u8]) -> Result<Vec<u8>, EmbedError> {
    let cms = cms::assemble(attrs, signature)?;
    let digest: [u8; 32] = attrs.message_digest.clone().try_into().map_err(|_| EmbedError::Digest)?;
    cms::check_external_cms(&cms, &digest)?;
    Ok(cms)
}

/// The page could not use the signer utility and the signer gave up: the error it found goes
/// to Furl. Only the utility's errors are accepted here.
pub async fn give_up(
    svc: &Services,
    open: &OpenTransaction,
    code: u16,
    actor: &Actor,
) -> Result<Delivery, TokenRefused> {
    let code = match ErrorCode::from_code(code) {
        Some(
            code @ (ErrorCode::UtilityNotInstalled
            | ErrorCode::UtilityNotRunning
            | ErrorCode::UtilityPortMismatch
            | ErrorCode::UtilityOutdated),
        ) => code,
        _ => return Err(TokenRefused::Unavailable),
    };
    if !offered(open) {
        return Err(TokenRefused::Unavailable);
    }
    let failure = GatewayFailure::new(code, "");
    Ok(transaction::fail(svc, &open.row, &failure, actor, serde_json::json!({"signatureTypes": "2"})).await)
}
