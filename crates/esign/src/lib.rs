//! The CCA eSign API 2.1 as an Application Service Provider (ASP) and an eSign Service
//! Provider (ESP) speak it (Aadhaar eSign, the gateway's SignatureType 3).
//!
//! * [`EsignRequest`]: `<Esign ver="2.1" …>` with 1-5 `InputHash`, written and read; the ASP
//!   signs it with an enveloped XML-DSig ([`sign_document`]).
//! * [`EsignResponse`]: `<EsignResp …>` with the signer's certificate and one `DocSignature`
//!   (a detached CMS) per hash, written and read; the ESP signs it the same way.
//! * [`asp::check_response`]: everything an ASP must check before it embeds a signature: the
//!   ESP's XML signature against the configured ESP certificate, the transaction, the status,
//!   that each CMS signs exactly our digest with the signer certificate, and that certificate's
//!   chain to the trusted eSign CA at signing time.
//! * [`esp`]: the ESP's side, for Signet's test ESP: the checks of a request (the ASP's
//!   signature, version, timestamp window, hashes, response URL) and the CMS over a hash as
//!   CCA ESPs make it (contentType, signingTime, messageDigest).
//!
//! Nothing here does I/O: transport (the browser form posts), storage of transactions and
//! replay records belong to the callers.

pub mod asp;
mod error;
pub mod esp;
pub mod esp_codes;
pub mod health;
mod model;
pub mod profile;
mod xml;

pub use error::EsignError;
pub use model::{
    AuthMode, DocSignature, EsignRequest, EsignResponse, InputHash, MAX_HASHES, MAX_TXN_CHARS, ResponseStatus, VERSION,
    format_ts, parse_ts,
};
pub use profile::{EspProfile, EspProfileName, FlowKind, ResolvedProfile};
pub use xml::{sign_document, verify_document, verify_document_with};
