//! The platform's own keys, made on the very first start and shared by every instance through
//! the database: the gateway's RSA encryption key with its self-signed certificate, a local
//! CA, the document-sealing key and certificate that CA issued, and the key that signs Aadhaar
//! eSign requests (self-signed: ESPs register the certificate itself). The certificates are
//! also written to `<data_dir>/keys/` so that operators can hand them out.

use std::path::Path;

use signet_domain::Error;
use signet_sigcrypto::pki::{self, IssuedCert, KeyAlgo, LocalCa};
use signet_store::{SigningKeyRow, Store};

pub const GATEWAY_PURPOSE: &str = "gateway-rsa";
pub const CA_PURPOSE: &str = "platform-ca";
pub const SEAL_PURPOSE: &str = "document-seal";
pub const ASP_PURPOSE: &str = "esign-asp";

/// A certificate and its PKCS#8 private key, both DER.
#[derive(Clone)]
pub struct KeyPairDer {
    pub cert_der: Vec<u8>,
    pub key_pkcs8_der: Vec<u8>,
}

#[derive(Clone)]
pub struct PlatformKeys {
    pub gateway: KeyPairDer,
    pub ca: KeyPairDer,
    pub seal: KeyPairDer,
    /// Signs Signet's Aadhaar eSign requests (an ESP registers its certificate).
    pub asp: KeyPairDer,
}

fn to_row(issued: &IssuedCert) -> SigningKeyRow {
    SigningKeyRow {
        kid: hex::encode(pki::sha256(&issued.cert_der)),
        private_der: issued.key_pkcs8_der.clone(),
        public_raw: issued.cert_der.clone(),
    }
}

fn from_row(row: SigningKeyRow) -> KeyPairDer {
    KeyPairDer { cert_der: row.public_raw, key_pkcs8_der: row.private_der }
}

/// Returns the stored key for `purpose`, or makes one with `generate` and stores it; when two
/// instances race on first start, the first insert wins and both use it.
async fn load_or_create(
    store: &Store,
    purpose: &str,
    generate: impl FnOnce() -> Result<IssuedCert, Error> + Send + 'static,
) -> Result<KeyPairDer, Error> {
    if let Some(row) = store.signing_key(purpose).await? {
        return Ok(from_row(row));
    }
    let issued = tokio::task::spawn_blocking(generate).await.map_err(Error::internal)??;
    let row = store.signing_key_get_or_insert(purpose, &to_row(&issued)).await?;
    Ok(from_row(row))
}

impl PlatformKeys {
    pub async fn load_or_create(
        store: &Store,
        data_dir: &Path,
        gateway_key_bits: usize,
    ) -> Result<PlatformKeys, Error> {
        let gateway = load_or_create(store, GATEWAY_PURPOSE, move || {
            pki::self_signed_rsa("Signet signing gateway", gateway_key_bits).map_err(Error::internal)
        })
        .await?;
        let ca = load_or_create(store, CA_PURPOSE, || {
            let ca = LocalCa::generate("Signet platform CA").map_err(Error::internal)?;
            Ok(IssuedCert { cert_der: ca.cert_der().to_vec(), key_pkcs8_der: ca.key_der() })
        })
        .await?;
        let ca_for_seal = ca.clone();
        let seal = load_or_create(store, SEAL_PURPOSE, move || {
            let ca = LocalCa::from_der(&ca_for_seal.cert_der, &ca_for_seal.key_pkcs8_der).map_err(Error::internal)?;
            ca.issue_signer("Signet document seal", KeyAlgo::Rsa3072).map_err(Error::internal)
        })
        .await?;
        let asp = load_or_create(store, ASP_PURPOSE, || {
            pki::self_signed_rsa("Signet eSign ASP", 2048).map_err(Error::internal)
        })
        .await?;
        let keys = PlatformKeys { gateway, ca, seal, asp };
        keys.write_certificates(&data_dir.join("keys")).map_err(Error::internal)?;
        Ok(keys)
    }

    /// Public certificates only; private keys stay in the database.
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
