//! The ESP's side, for Signet's test ESP (`signet esp serve`): the checks an ESP makes on a
//! request before it shows the signer anything, and the signature it returns per hash.
//!
//! The error codes are the test ESP's own table, in the `ESP-nnn` form the CCA API uses; an
//! ASP passes whatever `errCode` an ESP sends through to the integrator unchanged.

use signet_sigcrypto::cms::{self, CmsOptions};
use signet_sigcrypto::signer::RawSigner;
use time::{Duration, OffsetDateTime};

use crate::EsignError;
use crate::model::{EsignRequest, EsignResponse, MAX_TXN_CHARS, VERSION};
use crate::xml::{sign_document, verify_document};

/// The test ESP's error codes.
pub mod codes {
    pub const MALFORMED: &str = "ESP-901";
    pub const VERSION: &str = "ESP-902";
    pub const UNKNOWN_ASP: &str = "ESP-903";
    pub const ASP_SIGNATURE: &str = "ESP-904";
    pub const TIMESTAMP: &str = "ESP-905";
    pub const REPLAYED_TXN: &str = "ESP-906";
    pub const HASHES: &str = "ESP-907";
    pub const RESPONSE_URL: &str = "ESP-908";
    pub const AUTH_MODE: &str = "ESP-909";
    pub const UNKNOWN_IDENTITY: &str = "ESP-911";
    pub const WRONG_OTP: &str = "ESP-912";
    pub const OTP_EXPIRED: &str = "ESP-913";
    pub const OTP_ATTEMPTS: &str = "ESP-914";
    pub const TRANSACTION_EXPIRED: &str = "ESP-915";
    pub const CANCELLED: &str = "ESP-920";
    pub const INTERNAL: &str = "ESP-999";

    /// Each code with what it means, for pages and documentation.
    pub const ALL: &[(&str, &str)] = &[
        (MALFORMED, "the request is not a well-formed eSign 2.1 request"),
        (VERSION, "the request's version is not 2.1"),
        (UNKNOWN_ASP, "the aspId is not registered with this ESP"),
        (ASP_SIGNATURE, "the request is not signed with the ASP's registered certificate"),
        (TIMESTAMP, "the request's ts is outside the accepted window"),
        (REPLAYED_TXN, "the ASP already sent a request with this txn"),
        (HASHES, "the request needs 1 to 5 SHA-256 InputHash values with distinct ids"),
        (RESPONSE_URL, "responseUrl is not an http(s) address"),
        (AUTH_MODE, "the authentication mode or eKYC id type is not offered"),
        (UNKNOWN_IDENTITY, "no identity with this Aadhaar number or VID"),
        (WRONG_OTP, "the OTP is wrong"),
        (OTP_EXPIRED, "the OTP has expired"),
        (OTP_ATTEMPTS, "too many wrong OTPs"),
        (TRANSACTION_EXPIRED, "the transaction expired before the signer finished"),
        (CANCELLED, "the signer cancelled"),
        (INTERNAL, "the ESP could not sign"),
    ];
}

/// Checks a request from an ASP: the ASP is registered and signed it, and every field is as the
/// API requires. `asp_certificate` looks up the certificate registered for an `aspId`. Whether
/// the `txn` is new is for the caller's records ([`codes::REPLAYED_TXN`]).
pub fn check_request(
    xml: &[u8],
    asp_certificate: impl Fn(&str) -> Option<Vec<u8>>,
    now: OffsetDateTime,
    window: Duration,
) -> Result<EsignRequest, EsignError> {
    let request = EsignRequest::parse(xml)?;
    let certificate = asp_certificate(&request.asp_id)
        .ok_or_else(|| EsignError::new(codes::UNKNOWN_ASP, format!("aspId {} is not registered", request.asp_id)))?;
    verify_document(xml, &certificate, codes::ASP_SIGNATURE)?;
    if request.ver.trim() != VERSION {
        return Err(EsignError::new(codes::VERSION, format!("version {} (this ESP speaks {VERSION})", request.ver)));
    }
    if request.ts < now - window || request.ts > now + window {
        return Err(EsignError::new(codes::TIMESTAMP, "ts is too far from the ESP's clock"));
    }
    if request.txn.chars().count() > MAX_TXN_CHARS {
        return Err(EsignError::new(codes::MALFORMED, format!("txn is longer than {MAX_TXN_CHARS} characters")));
    }
    if raw_response(&request).is_none() {
        return Err(EsignError::new(codes::MALFORMED, format!("responseSigType {}", request.response_sig_type)));
    }
    let url = request.response_url.to_ascii_lowercase();
    if !(url.starts_with("https://") || url.starts_with("http://")) {
        return Err(EsignError::new(codes::RESPONSE_URL, "responseUrl is not an http(s) address"));
    }
    if request.auth_mode != crate::AuthMode::Otp {
        return Err(EsignError::new(codes::AUTH_MODE, "this ESP offers OTP authentication only (AuthMode 1)"));
    }
    if !matches!(request.ekyc_id_type.trim(), "" | "A" | "V") {
        return Err(EsignError::new(codes::AUTH_MODE, format!("ekycIdType {}", request.ekyc_id_type)));
    }
    Ok(request)
}

/// Whether the request asks for raw RSA signatures (`rawrsa`, for XML) rather than a CMS per
/// hash (`pkcs7`); `None` for anything else.
pub fn raw_response(request: &EsignRequest) -> Option<bool> {
    match request.response_sig_type.to_ascii_lowercase().as_str() {
        "pkcs7" => Some(false),
        "rawrsa" => Some(true),
        _ => None,
    }
}

/// A raw RSA signature over one hash (PKCS#1 v1.5, SHA-256 DigestInfo): what a `rawrsa`
/// request gets, made with the signer's RSA key (PKCS#8 DER).
pub fn sign_hash_raw_rsa(key_pkcs8_der: &[u8], digest: &[u8; 32]) -> Result<Vec<u8>, EsignError> {
    use aws_lc_rs::signature::{RSA_PKCS1_SHA256, RsaKeyPair};
    let internal = |m: &str| EsignError::new(codes::INTERNAL, m);
    let key = RsaKeyPair::from_pkcs8(key_pkcs8_der).map_err(|_| internal("the signer key is not RSA"))?;
    let digest = aws_lc_rs::digest::Digest::import_less_safe(digest, &aws_lc_rs::digest::SHA256)
        .map_err(|_| internal("bad digest"))?;
    let mut signature = vec![0; key.public_modulus_len()];
    key.sign_digest(&RSA_PKCS1_SHA256, &digest, &mut signature).map_err(|_| internal("signing failed"))?;
    Ok(signature)
}

/// The signature over one hash as CCA ESPs return it: a detached CMS with contentType,
/// signingTime and messageDigest (= the hash), and the signer's chain.
pub fn sign_hash(
    signer: &dyn RawSigner,
    digest: &[u8; 32],
    signing_time: OffsetDateTime,
) -> Result<Vec<u8>, EsignError> {
    let options = CmsOptions { signing_time: Some(signing_time), include_chain: true };
    cms::sign_digest_detached(signer, digest, &options).map_err(|e| EsignError::new(codes::INTERNAL, e.to_string()))
}

/// The response, signed with the ESP's key.
pub fn signed_response(response: &EsignResponse, esp_signer: &dyn RawSigner) -> Result<Vec<u8>, EsignError> {
    sign_document(response.to_xml().as_bytes(), esp_signer)
}
