//! signet-sigcrypto: certificates, keys, CMS, RFC 3161, revocation data, verification and
//! XML-DSig for Signet.
//!
//! Private-key operations and hashing go through aws-lc-rs; ASN.1 types come from the der 0.7
//! generation of RustCrypto (x509-cert 0.2, cms 0.2, x509-tsp 0.1, x509-ocsp 0.2). The `rsa`
//! crate is deliberately absent (RUSTSEC-2023-0071), and so is the cms `builder` feature.
//!
//! | module | what |
//! |---|---|
//! | [`pki`] | local CA, signer/TSA/OCSP/TLS certificates, CRLs, PKCS#12 in/out, PEM/DER |
//! | [`signer`] | [`signer::RawSigner`]: one signer abstraction; [`signer::LocalKeySigner`] |
//! | [`cms`] | CMS SignedData: detached/attached/over a digest, two-phase (deferred) signing |
//! | [`tsp`] | RFC 3161 client, token checks, signature time-stamps |
//! | [`chain`] | certificates parsed, chains ordered by name and issuer signature |
//! | `public_key` | signature checks with a public key (RSA, PSS, ECDSA), a certificate by its issuer |
//! | [`revocation`] | OCSP/CRL fetching and checks, chains completed through AIA, DSS material |
//! | [`long_term`] | CAdES B-LT: the certificates and revocation answers a CMS carries for itself |
//! | [`verify`] | CMS verification report with basic path validation |
//! | [`xml`] | XML tree + exclusive C14N 1.0 |
//! | [`xmldsig`] | enveloped XML-DSig and XAdES-BES, signing and verification |
//! | `pkcs11` | (feature `pkcs11`) keys in an HSM or token: generation, import, signing |
//!
//! Outbound HTTP (TSA, OCSP, CRL) goes through [`HttpConfig`]: timeouts, size caps, and a
//! refusal of private/loopback addresses unless explicitly allowed.

pub mod chain;
pub mod cms;
mod error;
mod http;
pub mod long_term;
#[cfg(feature = "pkcs11")]
pub mod pkcs11;
pub mod pki;
mod public_key;
pub mod revocation;
pub mod signer;
pub mod tsp;
pub mod validation;
pub mod verify;
pub mod xml;
pub mod xmldsig;

pub use error::{Error, Result};
pub use http::HttpConfig;

/// Checks that a URL may be fetched under `cfg`: http(s) only and, unless private addresses
/// are allowed, a host that resolves to public addresses only.
pub fn check_url(url: &str, cfg: &HttpConfig) -> Result<()> {
    http::check_url(url, cfg)
}

/// A POST through the guarded client (public addresses only unless allowed, no redirects,
/// timeouts, capped response) that answers the status code: webhook deliveries.
pub fn post_for_status(url: &str, headers: &[(&str, &str)], body: &[u8], cfg: &HttpConfig) -> Result<u16> {
    http::post_for_status(url, headers, body, cfg)
}

/// A POST through the guarded client that answers the body (2xx only): a server-to-server
/// call such as the eSign 3.x request.
pub fn post(url: &str, content_type: &str, body: &[u8], cfg: &HttpConfig) -> Result<Vec<u8>> {
    http::post(url, content_type, body, cfg)
}

/// A GET (`body` none) or POST through the guarded client with extra headers, answering the
/// body (2xx only): an OpenID Connect token exchange or userinfo call.
pub fn request(url: &str, headers: &[(&str, &str)], body: Option<&[u8]>, cfg: &HttpConfig) -> Result<Vec<u8>> {
    http::request(url, headers, body, cfg)
}

/// As [`request`], answering the status code and the body whatever the status (capped): a
/// call whose refusals explain themselves in the body, such as a stamp provider's.
pub fn exchange(url: &str, headers: &[(&str, &str)], body: Option<&[u8]>, cfg: &HttpConfig) -> Result<(u16, Vec<u8>)> {
    http::exchange(url, headers, body, cfg)
}

/// A GET through the same guarded client as the TSA, OCSP and CRL fetches: public addresses
/// only unless `cfg` allows private ones, no redirects, a time limit and a size cap.
pub fn fetch(url: &str, cfg: &HttpConfig) -> Result<Vec<u8>> {
    http::get(url, cfg)
}
