//! signet-sigcrypto: certificates, keys, CMS, RFC 3161, revocation data, verification and XML-DSig.
//!
//! Private-key operations and hashing go through aws-lc-rs; ASN.1 types come from the der 0.7
//! generation of RustCrypto (x509-cert 0.2, cms 0.2, x509-tsp 0.1, x509-ocsp 0.2). The `rsa`
//! crate is deliberately absent (RUSTSEC-2023-0071).

pub mod cms;
mod error;
mod http;
pub mod pki;
pub mod revocation;
pub mod signer;
pub mod tsp;
pub mod verify;
pub mod xml;
pub mod xmldsig;

pub use http::HttpConfig;

pub use error::{Error, Result};
