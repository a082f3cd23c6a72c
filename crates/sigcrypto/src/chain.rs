//! A certificate read from DER, and a chain ordered from a pool of certificates: leaf first,
//! then each issuer matched by name and checked by its signature. Below the key and revocation
//! modules, which both order chains (a PKCS#12 file's, a signer's before its revocation data is
//! fetched).

use der::Decode;
use x509_cert::Certificate;

use crate::public_key::verify_cert_signature;
use crate::{Error, Result};

/// Chains longer than this are refused (loops, hostile bundles).
pub(crate) const MAX_CHAIN: usize = 10;

/// Parse a DER certificate; rejects trailing data.
pub fn parse_cert(der: &[u8]) -> Result<Certificate> {
    Certificate::from_der(der).map_err(|e| Error::Encoding(format!("bad certificate: {e}")))
}

/// Order a chain for `leaf_der` from a pool of certificates: leaf first, then each issuer
/// (matched by name and verified by signature) until a self-signed root or no issuer is found.
pub fn build_chain(leaf_der: &[u8], pool: &[Vec<u8>]) -> Result<Vec<Vec<u8>>> {
    let leaf = parse_cert(leaf_der)?;
    let parsed: Vec<(Vec<u8>, Certificate)> =
        pool.iter().filter_map(|d| parse_cert(d).ok().map(|c| (d.clone(), c))).collect();
    let mut chain = vec![leaf_der.to_vec()];
    let mut current = leaf;
    while chain.len() < MAX_CHAIN {
        if is_self_issued(&current) {
            break;
        }
        let next = parsed.iter().find(|(d, c)| {
            c.tbs_certificate.subject == current.tbs_certificate.issuer
                && !chain.contains(d)
                && verify_cert_signature(&current, c).is_ok()
        });
        match next {
            Some((d, c)) => {
                chain.push(d.clone());
                current = c.clone();
            }
            None => break,
        }
    }
    Ok(chain)
}

/// Whether a certificate names itself as its issuer (a root, or the end of what can be followed).
pub(crate) fn is_self_issued(c: &Certificate) -> bool {
    c.tbs_certificate.subject == c.tbs_certificate.issuer
}
