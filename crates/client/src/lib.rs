//! Signet client SDK for integrators of the signing gateway.
//!
//! 1. Load the gateway certificate ([`GatewayCertificate::from_der_or_pem`]).
//! 2. Build a payload ([`PayloadBuilder::pdf`], `xml`, `data`, `hash`); `build` checks it with
//!    the gateway's own rules.
//! 3. Seal it ([`seal_request`]) for the legacy or modern profile; post
//!    [`SealedRequest::form_fields`] to `{gateway}/{segment}/V3_0/Index` from the user's
//!    browser, and keep [`SealedRequest::session`] under your ReferenceNumber.
//! 4. When the browser comes back to SUrl/Furl/Curl, read the post with
//!    [`ResultPost::from_fields`] and open it with [`open_result`] / [`open_hash_result`].

mod builder;
mod certificate;
mod seal;

pub use builder::PayloadBuilder;
pub use certificate::GatewayCertificate;
pub use seal::{SealedRequest, open_hash_result, open_result, seal_request};
pub use signet_gateway::{
    BoxRect, DocumentDetail, ErrorCode, FileType, FormScript, HashSignature, PageBox, PageSelection, Profile,
    ResultPost, ReturnStatus, ReturnUrls, SessionKey, SignaturePosition, SignatureType,
};

/// The client's error type.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The gateway certificate cannot be used.
    #[error("gateway certificate: {0}")]
    Certificate(String),
    /// The payload breaks a gateway rule (the same check the gateway makes).
    #[error("payload refused: {0}")]
    Payload(#[from] signet_gateway::GatewayFailure),
    /// The payload is not a JSON object.
    #[error("payload is not a JSON object")]
    NotAnObject,
    /// Encryption failed (randomness or cipher setup).
    #[error("encryption failed")]
    Crypto,
    /// The `Returnvalue` could not be opened with this session key and profile.
    #[error("the Returnvalue cannot be opened with this session key")]
    Result,
}
