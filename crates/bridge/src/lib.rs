//! `signet-bridge`: the signer utility that runs on a signer's PC, between Signet's signer page
//! and the signer's USB crypto token (Class 3 DSC). This crate starts with the token side:
//! [`token::Tokens`] loads any PKCS#11 module (ePass2003, ProxKey, SafeNet drivers; SoftHSM2
//! in tests), lists the tokens and their signing certificates without a PIN, and signs
//! digests with one PIN entry (bulk). The PIN is used for one login and never kept.
//!
//! Not built yet: the loopback HTTPS service the signer page talks to (version handshake,
//! origin allow-list, private-network-access preflight), signature pads, the signer page's
//! type 2 flow and server-side HSM keys (issue 12).

mod error;
pub mod token;

pub use error::BridgeError;
