//! How long a signed PDF's long-term protection lasts: the newest document time-stamp (PAdES
//! B-LTA) proves everything before it only while its TSA's certificates are valid and its hash
//! is strong, so it must be renewed (a new document time-stamp over it) before then.

use signet_pdf::SignatureInfo;
use signet_sigcrypto::{chain, pki, tsp};

use crate::error::{Error, Result};

/// The hash of a time-stamp's message imprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ImprintHash {
    Sha256,
    Sha384,
    Sha512,
    /// SHA-1 or anything else: no longer proves anything (renew at once).
    Weak,
}

impl ImprintHash {
    fn from_oid(oid: &str) -> ImprintHash {
        match oid {
            "2.16.840.1.101.3.4.2.1" => ImprintHash::Sha256,
            "2.16.840.1.101.3.4.2.2" => ImprintHash::Sha384,
            "2.16.840.1.101.3.4.2.3" => ImprintHash::Sha512,
            _ => ImprintHash::Weak,
        }
    }
}

/// What the newest document time-stamp of a PDF protects, and until when.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LtaProtection {
    /// When the protection runs out (Unix seconds): the earliest notAfter of the TSA's
    /// certificate and of its chain's certificates found in the token or the DSS; for a weak
    /// hash, the time-stamp's own time (it is due already).
    pub expires_at_unix: u64,
    /// The time-stamp's genTime (Unix seconds).
    pub stamped_at_unix: u64,
    /// The hash of the time-stamp's imprint.
    pub hash: ImprintHash,
    /// The TSA's subject.
    pub tsa_subject: String,
}

/// The protection of the newest document time-stamp of `pdf`, or `None` when it has none.
/// A time-stamp that does not check against the bytes it covers is an error: it protects nothing.
pub fn lta_protection(pdf: &[u8]) -> Result<Option<LtaProtection>> {
    let signatures = signet_pdf::signatures(pdf)?;
    let Some(newest) = signatures.iter().filter(|s| is_document_timestamp(s)).max_by_key(|s| range_end(s)) else {
        return Ok(None);
    };
    let covered = covered_bytes(pdf, &newest.byte_range)?;
    let token = tsp::check_token_over(&newest.contents, &covered)?;
    Ok(Some(protection(&newest.contents, token, signet_pdf::read_dss(pdf)?.certs)?))
}

/// [`protection`] of a token over `digest` (SHA-256), checked first.
fn protection_of_token(token: &[u8], digest: &[u8; 32], more_certs: &[Vec<u8>]) -> Result<LtaProtection> {
    let info = tsp::check_token(token, digest)?;
    protection(token, info, more_certs.to_vec())
}

/// The protection of a checked token: its TSA certificate's chain, built from the token's
/// certificates and `more_certs` (the DSS), and its imprint's hash.
fn protection(token_der: &[u8], token: tsp::TokenInfo, more_certs: Vec<Vec<u8>>) -> Result<LtaProtection> {
    let mut pool = token.other_certs_der.clone();
    pool.extend(more_certs);
    let tsa_chain = chain::build_chain(&token.tsa_cert_der, &pool)?;
    let mut expires_at_unix = u64::MAX;
    for cert in &tsa_chain {
        expires_at_unix = expires_at_unix.min(pki::not_after_unix(cert)?);
    }
    let hash = ImprintHash::from_oid(&tsp::tst_info(token_der)?.message_imprint.hash_algorithm.oid.to_string());
    if hash == ImprintHash::Weak {
        expires_at_unix = expires_at_unix.min(token.gen_time_unix);
    }
    Ok(LtaProtection { expires_at_unix, stamped_at_unix: token.gen_time_unix, hash, tsa_subject: token.tsa_subject })
}

/// What a time-stamp of the TSA at `tsa_url` protects now: asks it for a token over a fixed
/// digest and reads the token's certificates (a TSA whose own certificate is about to run out
/// cannot renew anything).
pub fn tsa_protection(tsa_url: &str, http: &signet_sigcrypto::HttpConfig) -> Result<LtaProtection> {
    let digest = pki::sha256(b"signet: how long does this TSA's time-stamp last?");
    let token = tsp::timestamp_token_with(&digest, tsa_url, http)?;
    protection_of_token(&token, &digest, &[])
}

/// Whether the newest revision of `pdf` is a document time-stamp (nothing signed after it).
pub fn ends_with_document_timestamp(pdf: &[u8]) -> Result<bool> {
    let signatures = signet_pdf::signatures(pdf)?;
    Ok(signatures.iter().max_by_key(|s| range_end(s)).is_some_and(is_document_timestamp))
}

fn is_document_timestamp(info: &SignatureInfo) -> bool {
    info.sig_type == "DocTimeStamp" || info.sub_filter == "ETSI.RFC3161"
}

fn range_end(info: &SignatureInfo) -> i64 {
    match info.byte_range.as_slice() {
        [_, _, start, len] => start + len,
        _ => 0,
    }
}

/// The two ranges a signature's ByteRange names, joined: what its token's imprint is over.
fn covered_bytes(pdf: &[u8], byte_range: &[i64]) -> Result<Vec<u8>> {
    let malformed = || Error::InvalidInput("a document time-stamp with a malformed ByteRange".into());
    let [a, a_len, b, b_len] = byte_range else { return Err(malformed()) };
    let slice = |start: i64, len: i64| -> Result<&[u8]> {
        let start = usize::try_from(start).map_err(|_| malformed())?;
        let end = start.checked_add(usize::try_from(len).map_err(|_| malformed())?).ok_or_else(malformed)?;
        pdf.get(start..end).ok_or_else(malformed)
    };
    Ok([slice(*a, *a_len)?, slice(*b, *b_len)?].concat())
}
