//! `signet-bridge`: the signer utility that runs on a signer's PC, between Signet's signer page
//! and the signer's USB crypto token (Class 3 DSC). This crate starts with the token side:
//! [`token::Tokens`] loads any PKCS#11 module (ePass2003, ProxKey, SafeNet drivers; SoftHSM2
//! in tests), lists the tokens and their signing certificates without a PIN, and signs
//! digests with one PIN entry (bulk). The PIN is used for one login and never kept.
//!
//! [`service`] is the loopback HTTPS service the signer page calls (version handshake, tokens,
//! certificates, signatures), for allowed origins only, with the private-network-access
//! preflight. Not built yet: installing the bridge's certificate into the browsers' stores,
//! signature pads, the signer page's type 2 flow and server-side HSM keys (issue 12).

mod error;
pub mod service;
pub mod token;

pub use error::BridgeError;
