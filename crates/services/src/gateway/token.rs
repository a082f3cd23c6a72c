//! Signing with the signer's own crypto token (SignatureType 2) through the signer utility
//! (`signet-bridge`) on their PC. Signet never sees the key: [`prepare`] takes the token's
//! certificate (and chain), adds the signature field with an appearance naming the
//! certificate holder and returns the hash the token signs; the page has the bridge sign it
//! with the signer's PIN; [`complete`] checks the raw signature against the certificate and
//! the prepared attributes, embeds it and ends the transaction. The prepared document is kept
//! sealed under the link's key between the two steps.
//!
//! When the page cannot use the bridge, the signer may give up: [`give_up`] ends the
//! transaction with the error the page found (110-113) at Furl.

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::audit::Actor;
use signet_gateway::{Document, ErrorCode, GatewayFailure, Profile, SignatureType, seal_result};
use signet_sigcrypto::pki;
use signet_signing::{PreparedPdf, SignatureOrCms};

use super::seal::{Mark, token_pdf_options};
use super::transaction::{self, Delivery, OpenTransaction, TransactionClosed};
use crate::{Services, secrets};

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
    /// SHA-256 of the signed attributes, hex: what the token signs.
    pub hash_to_sign: String,
}

/// Whether the signer page offers a crypto token for this request.
pub fn offered(open: &OpenTransaction) -> bool {
    open.payload.has_type(SignatureType::DigitalSignature) && matches!(open.payload.document, Document::Pdf { .. })
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
    let Document::Pdf { bytes, options } = &open.payload.document else {
        return Err(TokenRefused::Unavailable);
    };
    let (bytes, options) = (bytes.clone(), options.clone());
    let policy = transaction::seal_policy(svc);
    let prepared = svc
        .heavy
        .run(move || {
            let holder = pki::cert_common_name(&certificate).unwrap_or_else(|| options.name.clone());
            let opts = token_pdf_options(
                &bytes,
                &options,
                &policy,
                Mark::Typed { name: holder, style: signet_signing::NameStyle::Plain },
            )?;
            signet_signing::prepare_pdf(&bytes, &certificate, &chain, &opts).map_err(|e| e.to_string())
        })
        .await
        .map_err(|e| TokenRefused::Internal(e.to_string()))?
        .map_err(TokenRefused::Invalid)?;
    let id = secrets::random_token(12);
    let json = serde_json::to_vec(&prepared).map_err(|e| TokenRefused::Internal(e.to_string()))?;
    let sealed = open.seal(&json).ok_or_else(|| TokenRefused::Internal("sealing".into()))?;
    svc.blob
        .put(&prepared_key(open, &id)?, Bytes::from(sealed))
        .await
        .map_err(|e| TokenRefused::Internal(e.to_string()))?;
    Ok(Prepared { id, hash_to_sign: hex::encode(&prepared.hash_to_sign) })
}

/// Embeds the token's signature over the prepared document and ends the transaction.
pub async fn complete(
    svc: &Services,
    open: &OpenTransaction,
    id: &str,
    signature: Vec<u8>,
    actor: &Actor,
) -> Result<Delivery, TokenRefused> {
    if !offered(open) || id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        return Err(TokenRefused::Unavailable);
    }
    let key = prepared_key(open, id)?;
    let sealed = svc.blob.get(&key).await.map_err(|_| TokenRefused::Invalid("Please sign again.".into()))?;
    let prepared: PreparedPdf = open
        .unseal(&sealed)
        .and_then(|json| serde_json::from_slice(&json).ok())
        .ok_or_else(|| TokenRefused::Internal("the prepared document cannot be opened".into()))?;
    let session = open.session_key().ok_or_else(|| TokenRefused::Internal("session key".into()))?;
    let policy = transaction::seal_policy(svc);
    let signed = svc
        .heavy
        .run(move || {
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
            signet_signing::complete_pdf_with(&prepared, SignatureOrCms::Signature(signature), &opts)
                .map_err(|e| e.to_string())
        })
        .await
        .map_err(|e| TokenRefused::Internal(e.to_string()))?
        .map_err(|cause| TokenRefused::Invalid(format!("The token's signature was not accepted: {cause}")))?;
    let _ = svc.blob.delete(&key).await;
    let profile = if open.row.profile == 2 { Profile::Modern } else { Profile::Legacy };
    let returnvalue = seal_result(&session, profile, &signed).map_err(|e| TokenRefused::Internal(e.to_string()))?;
    let detail = serde_json::json!({"signatureTypes": "2"});
    transaction::complete(svc, &open.row, returnvalue, actor, detail)
        .await
        .map_err(TokenRefused::Closed)?
        .ok_or(TokenRefused::Closed(TransactionClosed::Ended(transaction::ended_message("completed"))))
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
