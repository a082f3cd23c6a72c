//! Users' own certificates and automated signing (issue 13, item 10). A user enrols a
//! PKCS#12 (`EnrollmentCertificateUploadRequest`): it must open with its password, certify a
//! key that may sign documents (key usage, validity) and chain to the configured trust list
//! (`certificate_trust_list`); it becomes a signing profile the user owns (its key sealed, or
//! in the HSM, as every profile). With `AutomatedSigningData` the user turns on automated
//! signing with one of their profiles, after consenting (recorded with time and address):
//! from then on their turn in a workflow is signed server-side with their certificate and
//! their default reason and location. `CertificateResetRequest` removes an enrolled
//! certificate after the user confirms it with their account password; automated signing
//! with it stops.

use signet_domain::{Error, ErrorCode, PrincipalId, SigningProfileId, now_millis};
use signet_sigcrypto::verify::TrustStore;
use signet_store::{AutomatedSigningRow, NewSigningProfile, SigningProfileRow};

use crate::workflows::profiles::profile_aad;
use crate::{Caller, Services};

/// Largest PKCS#12 file accepted for enrolment.
const MAX_P12_BYTES: usize = 256 * 1024;

fn user_only(caller: &Caller) -> Result<PrincipalId, Error> {
    if caller.is_user { Ok(caller.principal_id) } else { Err(Error::not_found("user")) }
}

fn trust_list(svc: &Services) -> Result<TrustStore, Error> {
    let path = svc.config.certificate_trust_list.as_ref().ok_or_else(|| {
        Error::rejected(
            ErrorCode::StateConflict,
            "this installation has no certificate trust list (certificate_trust_list)",
        )
    })?;
    let bytes = std::fs::read(path).map_err(Error::internal)?;
    let certs = signet_sigcrypto::pki::certs_from_pem_or_der(&bytes).map_err(Error::internal)?;
    TrustStore::from_der_certs(&certs).map_err(Error::internal)
}

fn now_secs() -> u64 {
    u64::try_from(now_millis() / 1000).unwrap_or(0)
}

/// What an enrolment carries.
pub struct Enrolment<'a> {
    pub pfx_base64: Option<&'a str>,
    pub password: Option<&'a str>,
    pub certificate_name: Option<&'a str>,
}

/// Checks and keeps a user's own certificate as a profile they own.
pub async fn enrol(svc: &Services, caller: &Caller, enrolment: &Enrolment<'_>) -> Result<SigningProfileRow, Error> {
    let user_id = user_only(caller)?;
    let user = svc.store.user(caller.tenant_id, user_id).await?;
    let email = user.email.clone().ok_or(Error::not_found("user"))?;
    let p12 = crate::workflows::documents::decode_base64("pfxBase64", enrolment.pfx_base64, MAX_P12_BYTES)?;
    let password = enrolment.password.unwrap_or_default().to_string();
    let name = enrolment.certificate_name.map(str::trim).filter(|n| !n.is_empty());
    if let Some(raw) = enrolment.certificate_name
        && (raw.chars().count() > 100 || raw.chars().any(char::is_control))
    {
        return Err(Error::field("certificateName", "must be at most 100 characters without control characters"));
    }
    let trust = trust_list(svc)?;
    let key = svc.profile_key.clone();
    let aad = profile_aad(caller.tenant_id, &email);
    let opened = tokio::task::spawn_blocking(move || {
        let kc = signet_sigcrypto::pki::load_p12(&p12, &password)
            .map_err(|_| Error::field("pfxBase64", "the PKCS#12 does not open with this password"))?;
        if !signet_sigcrypto::pki::is_signing_certificate(&kc.cert_der, now_secs()) {
            return Err(Error::field(
                "pfxBase64",
                "the certificate cannot sign documents now (expired, not yet valid, a CA, or a key usage without digitalSignature or nonRepudiation)",
            ));
        }
        signet_sigcrypto::verify::validate_chain(&kc.cert_der, &kc.chain_der, &trust, now_secs())
            .map_err(|e| Error::field("pfxBase64", format!("the certificate does not chain to a trusted issuer: {e}")))?;
        key.seal_p12(&p12, &password, &aad).map_err(|e| Error::field("pfxBase64", e.to_string()))
    })
    .await
    .map_err(Error::internal)??;
    let subject_name = opened.subject.clone();
    let row = NewSigningProfile {
        tenant_id: caller.tenant_id,
        name: name.unwrap_or(&subject_name),
        email: &email,
        subject: &opened.subject,
        not_after: opened.not_after_millis,
        material: &opened.material,
        owner_id: Some(user_id),
    };
    svc.store.create_signing_profile(&row, &caller.actor).await
}

/// Removes one of the user's enrolled certificates, confirmed with their account password.
pub async fn reset(svc: &Services, caller: &Caller, profile_id: SigningProfileId, password: &str) -> Result<(), Error> {
    let user_id = user_only(caller)?;
    let user = svc.store.user(caller.tenant_id, user_id).await?;
    let credentials = match user.email.as_deref() {
        Some(email) => svc.store.principal_by_email(email).await?,
        None => None,
    };
    let confirmed = match credentials.map(|c| c.secret_hash).filter(|phc| !phc.is_empty()) {
        Some(phc) => svc.doors.passwords.verify(password.to_string(), Some(phc)).await?,
        None => false,
    };
    if !confirmed {
        return Err(Error::field("password", "is not your account password"));
    }
    let owned = svc
        .store
        .signing_profiles(caller.tenant_id)
        .await?
        .into_iter()
        .any(|p| p.id == profile_id && p.owner_id == Some(user_id) && p.revoked_at.is_none());
    if !owned {
        return Err(Error::not_found("enrolled certificate"));
    }
    svc.store.revoke_signing_profile(caller.tenant_id, profile_id, &caller.actor).await
}

/// The user's settings as `AutomatedSigningData` shows them, with the profile's name.
pub async fn automated_signing(
    svc: &Services,
    caller: &Caller,
) -> Result<(AutomatedSigningRow, Option<String>), Error> {
    let user_id = user_only(caller)?;
    let settings = svc.store.automated_signing(caller.tenant_id, user_id).await?;
    let name = match settings.auto_sign_profile_id {
        Some(id) => {
            svc.store.signing_profiles(caller.tenant_id).await?.into_iter().find(|p| p.id == id).map(|p| p.name)
        }
        None => None,
    };
    Ok((settings, name))
}

/// What the user asks for.
pub struct AutomatedSigningChange<'a> {
    pub enabled: bool,
    pub profile_id: Option<SigningProfileId>,
    pub consent_accepted: bool,
    pub reason: Option<&'a str>,
    pub location: Option<&'a str>,
}

/// Turns automated signing on (with consent and one of the user's certificates) or off.
pub async fn set_automated_signing(
    svc: &Services,
    caller: &Caller,
    change: &AutomatedSigningChange<'_>,
) -> Result<(), Error> {
    let user_id = user_only(caller)?;
    for (field, value) in [("defaultSignatoryReason", change.reason), ("defaultSignatoryLocation", change.location)] {
        if value.is_some_and(|v| v.chars().count() > 200 || v.chars().any(char::is_control)) {
            return Err(Error::field(field, "must be at most 200 characters without control characters"));
        }
    }
    if change.enabled && !change.consent_accepted {
        return Err(Error::field("consentAccepted", "automated signing needs your consent"));
    }
    if change.enabled && change.profile_id.is_none() {
        return Err(Error::field("certificateProfileId", "name the certificate to sign with"));
    }
    let text = |v: Option<&str>| v.map(str::trim).filter(|v| !v.is_empty()).map(str::to_string);
    let settings = AutomatedSigningRow {
        auto_sign_enabled: change.enabled,
        auto_sign_profile_id: change.profile_id,
        auto_sign_consent_at: change.enabled.then(now_millis),
        auto_sign_consent_ip: if change.enabled { caller.actor.ip.clone() } else { None },
        auto_sign_reason: text(change.reason),
        auto_sign_location: text(change.location),
    };
    svc.store.set_automated_signing(caller.tenant_id, user_id, &settings, &caller.actor).await
}
