//! The platform's own keys, made on the very first start and shared by every instance through
//! the database: the gateway's RSA encryption key with its self-signed certificate, a local
//! CA, the document-sealing key and certificate that CA issued, and the key that signs Aadhaar
//! eSign requests (self-signed: ESPs register the certificate itself). The certificates are
//! also written to `<data_dir>/keys/` so that operators can hand them out. With an HSM
//! configured ([`crate::platform::keyring`]) the document-sealing key is made inside it.

use std::path::Path;

use signet_domain::Error;
use signet_sigcrypto::pki::{self, IssueOptions, IssuedCert, LocalCa};
use signet_store::{SigningKeyRow, Store};

pub use crate::platform::keyring::KeyPairDer;
use crate::platform::keyring::Keyring;

pub const GATEWAY_PURPOSE: &str = "gateway-rsa";
pub const CA_PURPOSE: &str = "platform-ca";
pub const SEAL_PURPOSE: &str = "document-seal";
pub const ASP_PURPOSE: &str = "esign-asp";

#[derive(Clone)]
pub struct PlatformKeys {
    pub gateway: KeyPairDer,
    pub ca: KeyPairDer,
    pub seal: KeyPairDer,
    /// Signs Signet's Aadhaar eSign requests (an ESP registers its certificate).
    pub asp: KeyPairDer,
}

impl PlatformKeys {
    /// The long-term validation data of what the platform CA issued (the sealing
    /// certificates): the CA certificate and a revocation list it issues now. The CA is this
    /// service and publishes nowhere, so a document carries the list instead of an address.
    pub fn validation_data(&self) -> Result<signet_signing::ValidationData, Error> {
        let ca = LocalCa::from_der(&self.ca.cert_der, &self.ca.key_pkcs8_der).map_err(Error::internal)?;
        let crl = ca.issue_crl(&[], std::time::Duration::from_secs(7 * 86_400)).map_err(Error::internal)?;
        Ok(signet_signing::ValidationData { certs: vec![self.ca.cert_der.clone()], ocsps: Vec::new(), crls: vec![crl] })
    }
}

/// The stored form of a key pair: an HSM-held key is stored with an empty private part.
pub fn to_row(pair: &KeyPairDer) -> SigningKeyRow {
    SigningKeyRow {
        kid: hex::encode(pki::sha256(&pair.cert_der)),
        private_der: pair.key_pkcs8_der.clone(),
        public_raw: pair.cert_der.clone(),
    }
}

fn issued(issued: IssuedCert) -> KeyPairDer {
    KeyPairDer { cert_der: issued.cert_der, key_pkcs8_der: issued.key_pkcs8_der }
}

fn from_row(row: SigningKeyRow) -> KeyPairDer {
    KeyPairDer { cert_der: row.public_raw, key_pkcs8_der: row.private_der }
}

/// A key every instance shares that needs no certificate (the API's token key): the stored
/// one for `purpose`, or `candidate`, stored, when there is none yet (when instances race on
/// first start, the first insert wins and every instance uses it).
pub async fn shared_key(
    svc: &crate::Services,
    purpose: &str,
    candidate: &SigningKeyRow,
) -> Result<SigningKeyRow, Error> {
    svc.store.signing_key_get_or_insert(purpose, candidate).await
}

/// Returns the stored key for `purpose`, or makes one with `generate` and stores it; when two
/// instances race on first start, the first insert wins and both use it (the loser's key,
/// if an HSM holds it, is removed).
async fn load_or_create(
    store: &Store,
    keyring: &Keyring,
    purpose: &str,
    generate: impl FnOnce() -> Result<KeyPairDer, Error> + Send + 'static,
) -> Result<KeyPairDer, Error> {
    if let Some(row) = store.signing_key(purpose).await? {
        return Ok(from_row(row));
    }
    let made = tokio::task::spawn_blocking(generate).await.map_err(Error::internal)??;
    let ours = to_row(&made);
    let row = store.signing_key_get_or_insert(purpose, &ours).await?;
    if row.kid != ours.kid {
        keyring.discard(&made);
    }
    Ok(from_row(row))
}

impl PlatformKeys {
    pub async fn load_or_create(
        store: &Store,
        data_dir: &Path,
        gateway_key_bits: usize,
        keyring: &Keyring,
    ) -> Result<PlatformKeys, Error> {
        let gateway = load_or_create(store, keyring, GATEWAY_PURPOSE, move || {
            pki::self_signed_rsa("Signet signing gateway", gateway_key_bits).map(issued).map_err(Error::internal)
        })
        .await?;
        let ca = load_or_create(store, keyring, CA_PURPOSE, || {
            let ca = LocalCa::generate("Signet platform CA").map_err(Error::internal)?;
            Ok(KeyPairDer { cert_der: ca.cert_der().to_vec(), key_pkcs8_der: ca.key_der() })
        })
        .await?;
        let (ca_for_seal, keyring_for_seal) = (ca.clone(), keyring.clone());
        let seal = load_or_create(store, keyring, SEAL_PURPOSE, move || {
            keyring_for_seal
                .new_sealing_key(&ca_for_seal, SEAL_PURPOSE, "Signet document seal", &IssueOptions::default())
                .map_err(Error::internal)
        })
        .await?;
        let asp = load_or_create(store, keyring, ASP_PURPOSE, || {
            pki::self_signed_rsa("Signet eSign ASP", 2048).map(issued).map_err(Error::internal)
        })
        .await?;
        let keys = PlatformKeys { gateway, ca, seal, asp };
        keys.write_certificates(&data_dir.join("keys")).map_err(Error::internal)?;
        Ok(keys)
    }

    /// Public certificates only; private keys stay in the database (or the HSM).
    fn write_certificates(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join("gateway.cer"), &self.gateway.cert_der)?;
        std::fs::write(dir.join("gateway.pem"), pki::cert_der_to_pem(&self.gateway.cert_der))?;
        std::fs::write(dir.join("ca.pem"), pki::cert_der_to_pem(&self.ca.cert_der))?;
        std::fs::write(dir.join("seal.pem"), pki::cert_der_to_pem(&self.seal.cert_der))?;
        std::fs::write(dir.join("esign-asp.cer"), &self.asp.cert_der)?;
        std::fs::write(dir.join("esign-asp.pem"), pki::cert_der_to_pem(&self.asp.cert_der))?;
        Ok(())
    }
}
