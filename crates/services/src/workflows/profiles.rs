//! Automated-signing certificate profiles: a tenant's PKCS#12, opened once at upload and kept
//! as its key and chain sealed with AES-256-GCM under a key derived from the platform's
//! sealing key (the database alone does not reveal the key; the p12 password is not kept).
//! With an HSM configured the key is imported into it instead, and the sealed material holds
//! the certificates only ([`crate::platform::keyring`]).

use std::sync::Arc;

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use aws_lc_rs::{digest, rand};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};
use signet_signing::{LocalKeySigner, RawSigner};
use signet_store::SigningProfileRow;

use crate::Services;
use crate::platform::keyring::{Keyring, KeyringError};
use crate::platform::keys::KeyPairDer;

/// Why a profile's PKCS#12 cannot be kept, or its kept material cannot sign. The first four
/// are the uploader's (the `pkcs12` field's message); the rest mean damaged material or a
/// failed key store, each with its cause.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("the PKCS#12 could not be opened with this password: {0}")]
    Password(#[source] signet_sigcrypto::Error),
    #[error("the PKCS#12's key cannot sign: {0}")]
    CannotSign(#[source] signet_sigcrypto::Error),
    /// The certificate itself cannot be read.
    #[error(transparent)]
    Certificate(signet_sigcrypto::Error),
    #[error("the HSM refused the key: {0}")]
    HsmRefused(#[source] KeyringError),
    /// The derived key is not an AES-256 key (it always is: a bug).
    #[error("profile key")]
    Key,
    #[error("random")]
    Random,
    #[error("sealing failed")]
    Sealing,
    #[error("profile material is damaged")]
    Damaged,
    #[error("profile nonce")]
    Nonce,
    #[error("profile material does not open (wrong platform key or tampered)")]
    DoesNotOpen,
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Base64(#[from] base64::DecodeError),
    /// The key's signer (local or in the HSM).
    #[error(transparent)]
    Keyring(#[from] KeyringError),
}

/// The key that seals profile material, and where profile keys live.
pub struct ProfileKey(LessSafeKey, Keyring);

#[derive(Serialize, Deserialize)]
struct Material {
    /// The PKCS#8 key; absent when the HSM holds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    key: Option<String>,
    cert: String,
    chain: Vec<String>,
}

/// What an upload yields: the sealed material and what the API shows about the certificate.
pub struct OpenedProfile {
    pub material: Vec<u8>,
    pub subject: String,
    pub not_after_millis: i64,
}

impl ProfileKey {
    /// `secret` is the platform's derivation secret ([`Keyring::derivation_secret`]).
    pub fn derive(secret: &[u8], keyring: Keyring) -> Result<ProfileKey, ProfileError> {
        let mut ctx = digest::Context::new(&digest::SHA256);
        ctx.update(b"signet signing profiles v1\0");
        ctx.update(secret);
        let key = UnboundKey::new(&AES_256_GCM, ctx.finish().as_ref()).map_err(|_| ProfileError::Key)?;
        Ok(ProfileKey(LessSafeKey::new(key), keyring))
    }

    /// Opens a PKCS#12 (the password is checked here and then forgotten) and seals its key.
    pub fn seal_p12(&self, p12: &[u8], password: &str, profile_aad: &str) -> Result<OpenedProfile, ProfileError> {
        let kc = signet_sigcrypto::pki::load_p12(p12, password).map_err(ProfileError::Password)?;
        // Refuses keys the signer cannot use (unsupported algorithm, mismatched certificate).
        LocalKeySigner::from_pkcs8(&kc.key_pkcs8_der, &kc.cert_der, kc.chain_der.clone())
            .map_err(ProfileError::CannotSign)?;
        let cert = signet_sigcrypto::pki::parse_cert(&kc.cert_der).map_err(ProfileError::Certificate)?;
        let subject = cert.tbs_certificate.subject.to_string();
        let not_after_millis = cert.tbs_certificate.validity.not_after.to_unix_duration().as_millis() as i64;
        let in_hsm = self.1.import(&kc.key_pkcs8_der, profile_aad).map_err(ProfileError::HsmRefused)?;
        let material = Material {
            key: (!in_hsm).then(|| STANDARD.encode(&kc.key_pkcs8_der)),
            cert: STANDARD.encode(&kc.cert_der),
            chain: kc.chain_der.iter().map(|c| STANDARD.encode(c)).collect(),
        };
        let plain = serde_json::to_vec(&material)?;
        Ok(OpenedProfile { material: self.seal(&plain, profile_aad)?, subject, not_after_millis })
    }

    fn seal(&self, plain: &[u8], aad: &str) -> Result<Vec<u8>, ProfileError> {
        let mut nonce = [0u8; 12];
        rand::fill(&mut nonce).map_err(|_| ProfileError::Random)?;
        let mut buffer = plain.to_vec();
        self.0
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(aad.as_bytes()), &mut buffer)
            .map_err(|_| ProfileError::Sealing)?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&buffer);
        Ok(out)
    }

    /// The signer of a stored profile; `aad` must be what it was sealed with.
    pub fn signer(&self, row: &SigningProfileRow) -> Result<Arc<dyn RawSigner>, ProfileError> {
        if row.material.len() < 12 + 16 {
            return Err(ProfileError::Damaged);
        }
        let (nonce, sealed) = row.material.split_at(12);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| ProfileError::Nonce)?;
        let mut buffer = sealed.to_vec();
        let plain = self
            .0
            .open_in_place(nonce, Aad::from(profile_aad(row.tenant_id, &row.email).as_bytes()), &mut buffer)
            .map_err(|_| ProfileError::DoesNotOpen)?;
        let material: Material = serde_json::from_slice(plain)?;
        let decode = |b: &str| STANDARD.decode(b);
        let chain = material.chain.iter().map(|c| decode(c)).collect::<Result<Vec<_>, _>>()?;
        let key_pkcs8_der = material.key.as_deref().map(decode).transpose()?.unwrap_or_default();
        Ok(self.1.signer(&KeyPairDer { cert_der: decode(&material.cert)?, key_pkcs8_der }, chain)?)
    }
}

/// Binds sealed material to its tenant and e-mail address, so rows cannot be swapped.
pub fn profile_aad(tenant_id: signet_domain::TenantId, email: &str) -> String {
    format!("tenant:{tenant_id}:email:{}", email.to_lowercase())
}

/// Largest PKCS#12 file accepted for a profile.
const MAX_P12_BYTES: usize = 256 * 1024;

/// What a new automated-signing profile is made of, as sent.
pub struct NewProfile<'a> {
    pub name: &'a str,
    pub email: &'a str,
    /// The PKCS#12 file, base64.
    pub pkcs12: &'a str,
    pub password: String,
}

/// Opens the PKCS#12 file with its password (off the executor), keeps it sealed under the
/// profile key bound to the tenant and signer, and records the profile.
pub async fn create(
    svc: &Services,
    caller: &crate::Caller,
    new: NewProfile<'_>,
) -> Result<SigningProfileRow, signet_domain::Error> {
    use signet_domain::Error;
    caller.require(signet_domain::access::Permission::ManageSettings)?;
    let tenant_id = caller.tenant_id;
    let name = new.name.trim();
    if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(Error::field("name", "must be 1 to 100 characters without control characters"));
    }
    let email = new.email.trim().to_string();
    if !signet_domain::workflow::is_valid_email(&email) {
        return Err(Error::field("emailId", "must be a valid e-mail address"));
    }
    let p12 = crate::workflows::documents::decode_base64("pkcs12", Some(new.pkcs12), MAX_P12_BYTES)?;
    let key = svc.profile_key.clone();
    let aad = profile_aad(tenant_id, &email);
    let password = new.password;
    let opened = tokio::task::spawn_blocking(move || key.seal_p12(&p12, &password, &aad))
        .await
        .map_err(Error::internal)?
        .map_err(|e| Error::field("pkcs12", e.to_string()))?;
    let row = signet_store::NewSigningProfile {
        tenant_id,
        name,
        email: &email,
        subject: &opened.subject,
        not_after: opened.not_after_millis,
        material: &opened.material,
        owner_id: None,
    };
    svc.store.create_signing_profile(&row, &caller.actor).await
}

/// The signing profiles the caller may see: every profile of the tenant for whoever manages
/// settings, otherwise only the certificates the caller enrolled (revoked ones included).
pub async fn visible(svc: &Services, caller: &crate::Caller) -> Result<Vec<SigningProfileRow>, signet_domain::Error> {
    let rows = svc.store.signing_profiles(caller.tenant_id).await?;
    if caller.access.allows(signet_domain::access::Permission::ManageSettings) {
        return Ok(rows);
    }
    Ok(rows.into_iter().filter(|p| p.owner_id == Some(caller.principal_id)).collect())
}

/// Revokes one of the tenant's profiles (managing settings): workflows naming it no longer
/// sign with it. Another tenant's profile reads as missing.
pub async fn revoke(
    svc: &Services,
    caller: &crate::Caller,
    id: signet_domain::SigningProfileId,
) -> Result<(), signet_domain::Error> {
    caller.require(signet_domain::access::Permission::ManageSettings)?;
    svc.store.revoke_signing_profile(caller.tenant_id, id, &caller.actor).await
}
