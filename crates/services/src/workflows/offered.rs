//! What this installation offers its signers, checked when a workflow is planned: a signatory
//! may be asked for Aadhaar eSign only where an ESP is configured, and for a code by SMS only
//! where an SMS provider is. Initiation and initiate-and-sign both ask [`check_offered`].

use signet_domain::Error;
use signet_domain::workflow::{PlannedSignatory, SignatureMode};

use crate::Services;

/// Refuses a plan that asks for a way of signing this installation does not offer.
pub(super) fn check_offered(svc: &Services, planned: &[PlannedSignatory]) -> Result<(), Error> {
    check_esign(svc, planned)?;
    check_sms(svc, planned)
}

/// Signatories may sign with Aadhaar eSign only where an ESP is configured.
fn check_esign(svc: &Services, planned: &[PlannedSignatory]) -> Result<(), Error> {
    match planned.iter().position(|p| p.mode == SignatureMode::AadhaarEsign) {
        Some(i) if svc.esign.is_none() => Err(Error::field(
            &format!("signatories[{i}].modeOfSignature"),
            "Aadhaar eSign is not configured on this service (esign_esp_url)",
        )),
        _ => Ok(()),
    }
}

/// A code by SMS can be asked for only where an SMS provider is configured (the domain's
/// plan already made sure each such signatory has a mobile number).
fn check_sms(svc: &Services, planned: &[PlannedSignatory]) -> Result<(), Error> {
    match planned.iter().position(|p| p.otp_sms) {
        Some(i) if svc.sms.is_none() => Err(Error::field(
            &format!("signatories[{i}].otpBySms"),
            "a code by SMS needs an SMS provider on this service (sms_account_sid, sms_auth_token, sms_from)",
        )),
        _ => Ok(()),
    }
}
