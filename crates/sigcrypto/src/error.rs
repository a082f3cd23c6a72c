//! The crate's single error type.

/// Every fallible operation in this crate returns this error.
///
/// Variants name the *area* that failed; the message says what was wrong with the input.
/// Messages never contain key material.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Malformed ASN.1/DER, PEM or base64 input.
    #[error("malformed encoding: {0}")]
    Encoding(String),
    /// Certificate or key problems (generation, parsing, unsupported algorithm).
    #[error("certificate/key error: {0}")]
    Pki(String),
    /// PKCS#12 decoding or encoding failed (wrong password, corrupt file, no key).
    #[error("PKCS#12 error: {0}")]
    Pkcs12(String),
    /// A cryptographic operation failed (signing, unsupported key type).
    #[error("crypto error: {0}")]
    Crypto(String),
    /// CMS structure could not be built or does not have the expected shape.
    #[error("CMS error: {0}")]
    Cms(String),
    /// RFC 3161 time-stamping failed (TSA refused, wrong imprint or nonce).
    #[error("time-stamp error: {0}")]
    Tsp(String),
    /// OCSP/CRL fetching or parsing failed.
    #[error("revocation error: {0}")]
    Revocation(String),
    /// Network transport failure (connection, status code, size cap).
    #[error("HTTP error: {0}")]
    Http(String),
    /// A signature or certificate did not verify.
    #[error("verification failed: {0}")]
    Verify(String),
    /// XML parsing, canonicalisation or XML-DSig structure problems.
    #[error("XML error: {0}")]
    Xml(String),
}

/// Crate result alias.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl From<der::Error> for Error {
    fn from(e: der::Error) -> Self {
        Error::Encoding(e.to_string())
    }
}

impl From<rcgen::Error> for Error {
    fn from(e: rcgen::Error) -> Self {
        Error::Pki(e.to_string())
    }
}
