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
use signet_domain::audit::Actor;
use signet_gateway::{
    Document, ErrorCode, GatewayFailure, HashSignature, Profile, SignatureType, seal_hash_result, seal_result,
};
use signet_sigcrypto::cms::{self, CmsOptions, SignedAttrs};
use signet_sigcrypto::{pki, xmldsig};
use signet_signing::{PreparedPdf, SignatureOrCms};

use super::seal::{Mark, token_pdf_options};
use super::transaction::{self, Delivery, OpenTransaction, TransactionClosed};
use crate::platform::heavy::Share;
use crate::{Services, platform::secrets};

/// Why a token step was not taken; the text is for the signer.
#[derive(Debug)]
pub enum TokenRefused {
    /// Not asked for in this request, or not for this file type.
    Unavailable,
    /// The certificate or signature cannot be used; the signer can choose again.
    Invalid(String),
    Closed(TransactionClosed),
    Internal(String),
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
    .map_err(|e| TokenRefused::Internal(e.to_string()))
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
        return Err(TokenRefused::Invalid("This certificate cannot sign now (expired, or not for signing).".into()));
    }
    let document = open.payload.document.clone();
    let policy = transaction::seal_policy(svc, open.row.tenant_id).await;
    let pending = svc
        .heavy
        .run(Share::Tenant(open.row.tenant_id), move || pending_for(document, certificate, chain, &policy))
        .await
        .map_err(|e| TokenRefused::Internal(e.to_string()))?
        .map_err(TokenRefused::Invalid)?;
    let id = secrets::random_token(12);
    let json = serde_json::to_vec(&pending).map_err(|e| TokenRefused::Internal(e.to_string()))?;
    let sealed = open.seal(&json).ok_or_else(|| TokenRefused::Internal("sealing".into()))?;
    svc.blob
        .put(&prepared_key(open, &id)?, Bytes::from(sealed))
        .await
        .map_err(|e| TokenRefused::Internal(e.to_string()))?;
    Ok(Prepared { id, hashes_to_sign: pending.hashes() })
}

/// The document prepared for the certificate (heavy work: on the pool).
fn pending_for(
    document: Document,
    certificate: Vec<u8>,
    chain: Vec<Vec<u8>>,
    policy: &super::seal::SealPolicy,
) -> Result<Pending, String> {
    let cades = CmsOptions::cades();
    match document {
        Document::Pdf { bytes, options } => {
            let holder = pki::cert_common_name(&certificate).unwrap_or_else(|| options.name.clone());
            let mark = Mark::Typed { name: holder, style: signet_signing::NameStyle::Plain };
            let opts = token_pdf_options(&bytes, &options, policy, mark).map_err(|e| e.to_string())?;
            signet_signing::prepare_pdf(&bytes, &certificate, &chain, &opts)
                .map(Pending::Pdf)
                .map_err(|e| e.to_string())
        }
        Document::Data(bytes) => cms::prepare_signed_attrs(&pki::sha256(&bytes), &certificate, &chain, &cades)
            .map(Pending::Data)
            .map_err(|e| e.to_string()),
        Document::Hash(details) => details
            .into_iter()
            .map(|d| {
                let digest = signet_signing::parse_sha256(&d.hash_hex).map_err(|e| e.to_string())?;
                let attrs =
                    cms::prepare_signed_attrs(&digest, &certificate, &chain, &cades).map_err(|e| e.to_string())?;
                Ok((d.name, d.hash_hex, attrs))
            })
            .collect::<Result<Vec<_>, String>>()
            .map(Pending::Hash),
        Document::Xml(xml) => {
            if signet_sigcrypto::signer::SigAlg::for_certificate(&certificate).ok()
                != Some(signet_sigcrypto::signer::SigAlg::RsaPkcs1Sha256)
            {
                return Err("XML is signed with RSA keys; choose a certificate with an RSA key.".into());
            }
            let prepared = xmldsig::prepare_enveloped_rsa(&xml).map_err(|e| e.to_string())?;
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
    let sealed = svc.blob.get(&key).await.map_err(|_| TokenRefused::Invalid("Please sign again.".into()))?;
    let pending: Pending = open
        .unseal(&sealed)
        .and_then(|json| serde_json::from_slice(&json).ok())
        .ok_or_else(|| TokenRefused::Internal("the prepared document cannot be opened".into()))?;
    if signatures.len() != pending.hashes().len() {
        return Err(TokenRefused::Invalid("The token did not sign every document; please sign again.".into()));
    }
    let session = open.session_key().ok_or_else(|| TokenRefused::Internal("session key".into()))?;
    let profile = if open.row.profile == 2 { Profile::Modern } else { Profile::Legacy };
    let policy = transaction::seal_policy(svc, open.row.tenant_id).await;
    let returnvalue = svc
        .heavy
        .run(Share::Tenant(open.row.tenant_id), move || embed(pending, signatures, &policy, &session, profile))
        .await
        .map_err(|e| TokenRefused::Internal(e.to_string()))?
        .map_err(|cause| TokenRefused::Invalid(format!("The token's signature was not accepted: {cause}")))?;
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
) -> Result<String, String> {
    let signature_of = |i: usize| signatures.get(i).cloned().ok_or_else(|| "a signature is missing".to_string());
    let bytes = match pending {
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
            signet_signing::complete_pdf_with(&prepared, SignatureOrCms::Signature(signature_of(0)?), &opts)
                .map_err(|e| e.to_string())?
        }
        Pending::Data(attrs) => checked_cms(&attrs, &signature_of(0)?)?,
        Pending::Hash(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, (name, hash, attrs)) in items.into_iter().enumerate() {
                let cms = checked_cms(&attrs, &signature_of(i)?)?;
                out.push(HashSignature { document_name: name, document_hash: hash, signature: STANDARD.encode(cms) });
            }
            return seal_hash_result(session, profile, &out).map_err(|e| e.to_string());
        }
        Pending::Xml { xml, prepared, certificate, chain } => {
            xmldsig::complete_enveloped_rsa(&xml, &prepared, &signature_of(0)?, &certificate, &chain)
                .map_err(|e| e.to_string())?
        }
    };
    seal_result(session, profile, &bytes).map_err(|e| e.to_string())
}

/// A CMS from the token's raw signature, whose signature must verify with the certificate.
fn checked_cms(attrs: &SignedAttrs, signature: &[u8]) -> Result<Vec<u8>, String> {
    let cms = cms::assemble(attrs, signature).map_err(|e| e.to_string())?;
    let digest: [u8; 32] = attrs.message_digest.clone().try_into().map_err(|_| "bad digest".to_string())?;
    cms::check_external_cms(&cms, &digest).map_err(|e| e.to_string())?;
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
    let code = match code {
        110 => ErrorCode::UtilityNotInstalled,
        111 => ErrorCode::UtilityNotRunning,
        112 => ErrorCode::UtilityPortMismatch,
        113 => ErrorCode::UtilityOutdated,
        _ => return Err(TokenRefused::Unavailable),
    };
    if !offered(open) {
        return Err(TokenRefused::Unavailable);
    }
    let failure = GatewayFailure::new(code, "");
    Ok(transaction::fail(svc, &open.row, &failure, actor, serde_json::json!({"signatureTypes": "2"})).await)
}
