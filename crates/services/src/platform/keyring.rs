//! Where Signet's private keys live. By default in the database (the embedded default needs
//! nothing else); with `hsm_module` set, in an HSM through PKCS#11: the sealing keys made
//! from then on (the platform's and each tenant's) are generated inside it, and the keys of
//! uploaded automated-signing certificates are imported into it. Such keys are sensitive and
//! non-extractable; the database keeps their certificates, and a row whose private key is
//! empty means "the HSM holds it" (the certificate's public key names the key, see
//! [`signet_sigcrypto::pkcs11::key_id`]).
//!
//! Keys made before the HSM was configured stay where they are and keep working, so an
//! installation can move to an HSM without breaking what it already signs with.

use std::sync::Arc;

use signet_sigcrypto::pkcs11::Hsm;
use signet_sigcrypto::pki::{self, IssueOptions, KeyAlgo, LocalCa};
use signet_signing::{LocalKeySigner, RawSigner};

use crate::platform::config::Config;

/// A certificate and its PKCS#8 private key, both DER. The key is empty when an HSM holds
/// it ([`Keyring`]).
#[derive(Clone)]
pub struct KeyPairDer {
    pub cert_der: Vec<u8>,
    pub key_pkcs8_der: Vec<u8>,
}

impl KeyPairDer {
    /// Whether the private key is in the HSM rather than here.
    pub fn in_hsm(&self) -> bool {
        self.key_pkcs8_der.is_empty()
    }
}

/// Why a key could not be made, opened or kept: its certificate names a key in an HSM that is
/// not configured, or the crypto library (or the HSM) failed, its error kept whole.
#[derive(Debug, thiserror::Error)]
pub enum KeyringError {
    /// The subject of the certificate whose key is in an HSM.
    #[error("the key of {0:?} is in an HSM, and no HSM is configured (hsm_module)")]
    NoHsm(String),
    #[error(transparent)]
    Crypto(#[from] signet_sigcrypto::Error),
}

/// Size of the RSA sealing keys Signet makes.
const SEAL_KEY_BITS: u32 = 3072;
/// What the HSM-derived secret signs (see [`Keyring::derivation_secret`]).
const DERIVATION_CONTEXT: &[u8] = b"signet derived keys v1";

/// The place new keys are made, and the way to any stored key's signer.
#[derive(Clone, Default)]
pub struct Keyring {
    hsm: Option<Arc<Hsm>>,
}

impl Keyring {
    /// Opens the configured HSM (logged in for the life of the process), if any.
    pub fn from_config(config: &Config) -> anyhow::Result<Keyring> {
        let Some(module) = &config.hsm_module else {
            return Ok(Keyring::default());
        };
        let label = config
            .hsm_token_label
            .as_deref()
            .ok_or_else(|| anyhow::anyhow!("hsm_module is set: set hsm_token_label too (the token Signet uses)"))?;
        let pin = config
            .hsm_pin
            .as_deref()
            .ok_or_else(|| anyhow::anyhow!("hsm_module is set: set hsm_pin or SIGNET_HSM_PIN_FILE"))?;
        let hsm = Hsm::open(module, label, pin).map_err(|e| anyhow::anyhow!("the HSM: {e}"))?;
        tracing::info!(module = %module.display(), token = label, "sealing and automated-signing keys are kept in the HSM");
        Ok(Keyring { hsm: Some(Arc::new(hsm)) })
    }

    /// Whether new keys go to an HSM.
    pub fn uses_hsm(&self) -> bool {
        self.hsm.is_some()
    }

    fn hsm_for(&self, cert_der: &[u8]) -> Result<&Arc<Hsm>, KeyringError> {
        self.hsm.as_ref().ok_or_else(|| KeyringError::NoHsm(pki::cert_common_name(cert_der).unwrap_or_default()))
    }

    /// The signer of a stored key pair: local, or the HSM's key for its certificate.
    pub fn signer(&self, pair: &KeyPairDer, chain_der: Vec<Vec<u8>>) -> Result<Arc<dyn RawSigner>, KeyringError> {
        if pair.in_hsm() {
            let signer = self.hsm_for(&pair.cert_der)?.signer(&pair.cert_der, chain_der)?;
            return Ok(Arc::new(signer));
        }
        let signer = LocalKeySigner::from_pkcs8(&pair.key_pkcs8_der, &pair.cert_der, chain_der)?;
        Ok(Arc::new(signer))
    }

    /// A new sealing key and its certificate from `ca`: an RSA-3072 key made in the HSM
    /// (labelled `label`) or, without one, locally. Blocking.
    pub fn new_sealing_key(
        &self,
        ca: &KeyPairDer,
        label: &str,
        common_name: &str,
        options: &IssueOptions,
    ) -> Result<KeyPairDer, KeyringError> {
        let ca = LocalCa::from_der(&ca.cert_der, &ca.key_pkcs8_der)?;
        match &self.hsm {
            Some(hsm) => {
                let spki = hsm.generate_rsa(label, SEAL_KEY_BITS)?;
                let cert_der = ca.issue_signer_for_public_key(common_name, &spki, options)?;
                Ok(KeyPairDer { cert_der, key_pkcs8_der: Vec::new() })
            }
            None => {
                let issued = ca.issue_signer_with(common_name, KeyAlgo::Rsa3072, options)?;
                Ok(KeyPairDer { cert_der: issued.cert_der, key_pkcs8_der: issued.key_pkcs8_der })
            }
        }
    }

    /// Removes the HSM key of a pair that was made but not kept (another instance stored
    /// its own first). Local pairs need nothing: they were never stored.
    pub fn discard(&self, pair: &KeyPairDer) {
        let (true, Some(hsm)) = (pair.in_hsm(), &self.hsm) else { return };
        if let Err(error) = hsm.destroy_key_of(&pair.cert_der) {
            tracing::warn!(%error, "could not remove an unused key from the HSM");
        }
    }

    /// Keeps a PKCS#8 key in the HSM (imported, then forgotten here) when one is configured;
    /// answers whether it did. Blocking.
    pub fn import(&self, key_pkcs8_der: &[u8], label: &str) -> Result<bool, KeyringError> {
        let Some(hsm) = &self.hsm else { return Ok(false) };
        hsm.import_private_key(key_pkcs8_der, label)?;
        Ok(true)
    }

    /// A secret only the HSM can make for `context` (its deterministic signature of it with
    /// the key of `pair`), or `None` when that key is not in an HSM. Blocking.
    pub fn hsm_secret(&self, pair: &KeyPairDer, context: &[u8]) -> Option<Result<Vec<u8>, KeyringError>> {
        if !pair.in_hsm() {
            return None;
        }
        Some(self.hsm_for(&pair.cert_der).and_then(|hsm| Ok(hsm.rsa_secret(&pair.cert_der, context)?)))
    }

    /// The secret that keys derived from the sealing key (signer links, profile sealing)
    /// come from: the PKCS#8 key itself for a local key; for a key in the HSM, its
    /// deterministic PKCS#1 v1.5 signature of a fixed context, which only the HSM can make.
    pub fn derivation_secret(&self, pair: &KeyPairDer) -> Result<Vec<u8>, KeyringError> {
        if !pair.in_hsm() {
            return Ok(pair.key_pkcs8_der.clone());
        }
        Ok(self.hsm_for(&pair.cert_der)?.rsa_secret(&pair.cert_der, DERIVATION_CONTEXT)?)
    }
}
