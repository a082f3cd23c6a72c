//! Signet's test eSign Service Provider: a local ESP speaking the CCA eSign API 2.1 "form"
//! flow, for development, demos and tests (`signet esp serve`). Never part of `signet serve`.
//!
//! The flow, as a browser sees it:
//!
//! 1. The ASP's page auto-posts `eSignRequest` (signed XML), `aspTxnID` and `Content-Type` to
//!    `POST /2.1/form/signdoc`. The request is checked ([`signet_esign::esp::check_request`]
//!    against the ASP registry in `asps.json`, then the replay record); a request that cannot
//!    be authenticated gets an error page, anything later a signed failure `EsignResp` posted
//!    back to the ASP.
//! 2. The Aadhaar page asks for the signer's Aadhaar number or VID (`POST /2.1/form/otp`); an
//!    identity from `identities.json` gets an OTP (a fixed code in tests, else six random
//!    digits shown on `GET /outbox`, standing in for the SMS).
//! 3. The OTP page takes the OTP and the consent (`POST /2.1/form/authenticate`); the ESP then
//!    issues a 30-minute signer certificate from its test eSign CA, signs each hash (detached
//!    CMS) and posts the signed `EsignResp` back to the ASP's `responseUrl`.
//!
//! Also served: the CA (`/ca.cer`), the response-signing certificate (`/esp.cer`), a CRL
//! (`/crl`) and an OCSP responder (`/ocsp`) for the signer certificates (which name both, or
//! the CRL only with [`EspOptions::crl_only`]), `/healthz`.
//!
//! Everything the ESP keeps between runs is a plain file in the data folder; see [`files`].

mod answer;
pub mod files;
mod flow;
mod form;
mod keys;
mod ledger;
mod pages;
mod pending;
mod revocation;
mod server;
mod state;

use std::path::PathBuf;
use std::time::Duration;

pub use files::{Identity, example_identities, register_asp};
pub use server::{RunningEsp, spawn};

/// How a test ESP runs.
#[derive(Debug, Clone)]
pub struct EspOptions {
    pub data_dir: PathBuf,
    /// Every OTP is this code (tests); otherwise random 6 digits, shown on GET /outbox.
    pub fixed_otp: Option<String>,
    /// Base URL the ESP announces in certificates (CRL/OCSP URLs); default http://<listen addr>.
    pub public_url: Option<String>,
    /// Signer certificates name no OCSP responder, only the CRL (as many Indian CAs publish):
    /// what a relying party must then fetch for long-term validation.
    pub crl_only: bool,
    /// How long an OTP is accepted after it was sent.
    pub otp_ttl: Duration,
    /// Wrong OTPs after which the transaction fails (ESP-914).
    pub max_otp_attempts: u32,
    /// How far a request's `ts` may be from the ESP's clock; a transaction also ends when its
    /// request's `ts` leaves this window.
    pub request_window: Duration,
}

impl EspOptions {
    /// The defaults: random OTPs valid 10 minutes, 3 attempts, a 10-minute request window.
    pub fn new(data_dir: PathBuf) -> Self {
        EspOptions {
            data_dir,
            fixed_otp: None,
            public_url: None,
            crl_only: false,
            otp_ttl: Duration::from_secs(10 * 60),
            max_otp_attempts: 3,
            request_window: Duration::from_secs(10 * 60),
        }
    }

    /// Where the test eSign CA's certificate is kept (DER); ASPs trust it for signer
    /// certificates.
    pub fn ca_certificate_path(&self) -> PathBuf {
        files::ca_certificate_path(&self.data_dir)
    }

    /// Where the response-signing certificate is kept (DER); ASPs pin it.
    pub fn esp_certificate_path(&self) -> PathBuf {
        files::esp_certificate_path(&self.data_dir)
    }
}
