//! CMS (CAdES-BES, with signingTime) over data or over a given SHA-256 digest, and enveloped
//! XML-DSig / XAdES-BES.

use base64::Engine as _;
use signet_sigcrypto::HttpConfig;
use signet_sigcrypto::cms::{self, CmsOptions};
use signet_sigcrypto::long_term;
use signet_sigcrypto::signer::RawSigner;
use signet_sigcrypto::tsp;
use signet_sigcrypto::xmldsig::{self, XmlSignOptions};

use crate::error::{Error, Result};
use crate::pades::ValidationData;

/// How to sign data or a hash.
#[derive(Debug, Clone, Default)]
pub struct DataSignOptions {
    /// Detached signature (eContent absent) instead of an encapsulating one. Hash signing is
    /// always detached.
    pub detached: bool,
    /// Add a signature time-stamp (CAdES-T) from this TSA.
    pub tsa_url: Option<String>,
    pub http: HttpConfig,
}

/// CMS SignedData over `data` (DER), with signingTime and signingCertificateV2.
pub fn sign_data(data: &[u8], signer: &dyn RawSigner, opts: &DataSignOptions) -> Result<Vec<u8>> {
    let cms = if opts.detached {
        cms::sign_detached(signer, data, &CmsOptions::cades())?
    } else {
        cms::sign_attached(signer, data, &CmsOptions::cades())?
    };
    timestamp(cms, opts)
}

/// Detached CMS SignedData whose messageDigest is the given SHA-256 (the spec's `Hash` type:
/// the caller hashed the document itself).
pub fn sign_hash(digest: &[u8; 32], signer: &dyn RawSigner, opts: &DataSignOptions) -> Result<Vec<u8>> {
    let cms = cms::sign_digest_detached(signer, digest, &CmsOptions::cades())?;
    timestamp(cms, opts)
}

fn timestamp(cms: Vec<u8>, opts: &DataSignOptions) -> Result<Vec<u8>> {
    match &opts.tsa_url {
        Some(url) => Ok(tsp::add_signature_timestamp_with(&cms, url, &opts.http)?),
        None => Ok(cms),
    }
}

/// The CMS with a signature time-stamp from `opts.tsa_url` (CAdES B-T), as it is without one.
pub fn timestamp_cms(cms_der: &[u8], opts: &DataSignOptions) -> Result<Vec<u8>> {
    timestamp(cms_der.to_vec(), opts)
}

/// How to make a CMS long-term.
#[derive(Debug, Clone, Default)]
pub struct CmsExtendOptions {
    /// The TSA of the signature time-stamp, when the CMS has none yet.
    pub tsa_url: Option<String>,
    pub http: HttpConfig,
    /// Answers for CAs that publish nowhere (the platform CA's CRL).
    pub validation: ValidationData,
}

/// The CMS at CAdES B-LT (EN 319 122-1): a signature time-stamp (added from the TSA when it
/// has none), and the chain of every signer and time-stamp authority with an answer on each
/// certificate's status (OCSP where offered, CRL otherwise) inside it, so that it validates
/// after the certificates expire and their CAs stop answering. What it already carries is not
/// fetched again; a certificate without an answer is an error (`Error::Ltv`).
pub fn extend_cms(cms_der: &[u8], opts: &CmsExtendOptions) -> Result<Vec<u8>> {
    let stamped = if tsp::signature_timestamp_tokens(cms_der)?.is_empty() {
        let url = opts.tsa_url.as_deref().ok_or_else(|| Error::InvalidOptions("CAdES B-LT needs a TSA URL".into()))?;
        tsp::add_signature_timestamp_with(cms_der, url, &opts.http)?
    } else {
        cms_der.to_vec()
    };
    let mut tokens = vec![stamped.clone()];
    tokens.extend(tsp::signature_timestamp_tokens(&stamped)?);
    let carried = long_term::carried_validation_data(&stamped)?;
    let lacking = crate::validation_data::lacking(&tokens, &carried, &opts.validation, &opts.http)?;
    if lacking.is_empty() {
        return Ok(stamped);
    }
    Ok(long_term::add_validation_data(&stamped, &lacking)?)
}

/// A SHA-256 digest written as 64 hex digits or as base64 (44 characters).
pub fn parse_sha256(text: &str) -> Result<[u8; 32]> {
    let t = text.trim();
    let bytes = if t.len() == 64 && t.chars().all(|c| c.is_ascii_hexdigit()) {
        hex::decode(t).map_err(|e| Error::InvalidInput(format!("bad hex digest: {e}")))?
    } else {
        base64::engine::general_purpose::STANDARD
            .decode(t)
            .map_err(|_| Error::InvalidInput(format!("{t:?} is neither 64 hex digits nor base64 of 32 bytes")))?
    };
    bytes
        .try_into()
        .map_err(|b: Vec<u8>| Error::InvalidInput(format!("a SHA-256 digest has 32 bytes, not {}", b.len())))
}

/// Enveloped XML-DSig (RSA/ECDSA-SHA256, exclusive C14N) appended to the document element;
/// `xades` adds XAdES-BES qualifying properties (SigningTime, SigningCertificateV2).
pub fn sign_xml(xml: &[u8], signer: &dyn RawSigner, xades: bool) -> Result<Vec<u8>> {
    let opts = if xades { XmlSignOptions::xades() } else { XmlSignOptions::default() };
    Ok(xmldsig::sign_enveloped(xml, signer, &opts)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_parse_from_hex_and_base64() {
        let hex = "ab".repeat(32);
        assert_eq!(parse_sha256(&hex).ok(), Some([0xab; 32]));
        let b64 = base64::engine::general_purpose::STANDARD.encode([7u8; 32]);
        assert_eq!(parse_sha256(&b64).ok(), Some([7; 32]));
        assert!(parse_sha256("abcd").is_err());
        assert!(parse_sha256("").is_err());
        assert!(parse_sha256(&base64::engine::general_purpose::STANDARD.encode([1u8; 20])).is_err());
    }
}
