//! `signet-bridge`: the signer utility that runs on a signer's PC, between Signet's signer page
//! and the signer's USB crypto token (Class 3 DSC). This crate starts with the token side:
//! [`token::Tokens`] loads any PKCS#11 module (ePass2003, ProxKey, SafeNet drivers; SoftHSM2
//! in tests), lists the tokens and their signing certificates without a PIN, and signs
//! digests with one PIN entry (bulk). The PIN is used for one login and never kept.
//!
//! [`service`] is the loopback HTTPS service the signer page calls (version handshake, tokens,
//! certificates, signatures), for allowed origins only, with the private-network-access
//! preflight, and a simulated signature pad. [`trust`] puts the bridge's loopback-only CA into
//! the signer's browsers' certificate stores.

mod error;
pub mod service;
pub mod token;
pub mod trust;

pub use error::{BridgeError, PinTries};
