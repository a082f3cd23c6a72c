//! The crate's single error type. Every variant reads as one line for the CLI; wrapped errors
//! are transparent so `{:#}` does not print their message twice.

/// Everything the signing facade can fail with.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading, preparing or embedding the PDF failed (the pdf crate says why).
    #[error(transparent)]
    Pdf(#[from] signet_pdf::Error),
    /// A certificate, key, CMS, time-stamp or revocation operation failed.
    #[error(transparent)]
    Crypto(#[from] signet_sigcrypto::Error),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Options that do not make sense together (e.g. B-T without a TSA URL).
    #[error("invalid options: {0}")]
    InvalidOptions(String),
    /// Input the caller gave us that we cannot use (bad digest text, unknown file type).
    #[error("{0}")]
    InvalidInput(String),
    /// B-LT/B-LTA (PAdES or XAdES) needs revocation data that could not be obtained.
    #[error("cannot reach B-LT: {0}")]
    Ltv(String),
    /// An external signature or CMS does not belong to the prepared document.
    #[error("the returned signature cannot be embedded: {0}")]
    BadSignature(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
