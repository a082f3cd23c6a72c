//! The ESP's keys, made on first start and read from the data folder after: the
//! response-signing key (RSA-2048, self-signed, as ASPs pin an ESP's certificate), the test
//! eSign CA (EC P-256, as C-DAC's test CA) and the CA's delegated OCSP responder.

use std::path::Path;

use anyhow::Context;
use signet_sigcrypto::pki::{self, IssuedCert, KeyAlgo, LocalCa};
use signet_sigcrypto::signer::LocalKeySigner;

use crate::files::write_atomically;

pub struct EspKeys {
    /// Signs every `EsignResp`.
    pub esp: LocalKeySigner,
    pub esp_certificate_der: Vec<u8>,
    /// Issues the signer certificates and the CRL.
    pub ca: LocalCa,
    /// Signs OCSP answers for the CA's certificates.
    pub ocsp: LocalKeySigner,
}

/// Reads the keys from `dir`, making what is missing (a new CA also gets a new OCSP responder,
/// as the old responder's certificate is not the new CA's).
pub fn load_or_create(dir: &Path) -> anyhow::Result<EspKeys> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let esp = match read_pair(dir, "esp")? {
        Some(pair) => pair,
        None => {
            let made = pki::self_signed_rsa("Signet Test ESP (response signing)", 2048)?;
            write_pair(dir, "esp", &made)?;
            made
        }
    };
    let (ca, ca_is_new) = match read_pair(dir, "ca")? {
        Some(pair) => (LocalCa::from_der(&pair.cert_der, &pair.key_pkcs8_der).context("the test eSign CA")?, false),
        None => {
            let ca = LocalCa::generate_with("Signet Test eSign CA", KeyAlgo::EcP256)?;
            let pair = IssuedCert { cert_der: ca.cert_der().to_vec(), key_pkcs8_der: ca.key_der() };
            write_pair(dir, "ca", &pair)?;
            (ca, true)
        }
    };
    let ocsp = match read_pair(dir, "ocsp")? {
        Some(pair) if !ca_is_new => pair,
        _ => {
            let made = ca.issue_ocsp_responder("Signet Test eSign CA OCSP Responder")?;
            write_pair(dir, "ocsp", &made)?;
            made
        }
    };
    Ok(EspKeys {
        esp: LocalKeySigner::from_pkcs8(&esp.key_pkcs8_der, &esp.cert_der, vec![]).context("the ESP key")?,
        esp_certificate_der: esp.cert_der,
        ocsp: LocalKeySigner::from_pkcs8(&ocsp.key_pkcs8_der, &ocsp.cert_der, vec![ca.cert_der().to_vec()])
            .context("the OCSP responder key")?,
        ca,
    })
}

/// `<name>.key` (PKCS#8 PEM) and `<name>.cer` (DER), if both exist.
fn read_pair(dir: &Path, name: &str) -> anyhow::Result<Option<IssuedCert>> {
    let key_path = dir.join(format!("{name}.key"));
    let cert_path = dir.join(format!("{name}.cer"));
    if !key_path.exists() || !cert_path.exists() {
        return Ok(None);
    }
    let key_pem = std::fs::read_to_string(&key_path).with_context(|| format!("cannot read {}", key_path.display()))?;
    let key_pkcs8_der = pki::private_key_from_pem(&key_pem).with_context(|| format!("{}", key_path.display()))?;
    let cert_der = std::fs::read(&cert_path).with_context(|| format!("cannot read {}", cert_path.display()))?;
    Ok(Some(IssuedCert { cert_der, key_pkcs8_der }))
}

/// `<name>.key` (owner-only), `<name>.cer` (DER, what `/ca.cer` and `/esp.cer` serve) and
/// `<name>.pem` (for openssl and ASP configuration).
fn write_pair(dir: &Path, name: &str, pair: &IssuedCert) -> anyhow::Result<()> {
    write_atomically(&dir.join(format!("{name}.key")), pair.key_pem().as_bytes(), true)?;
    write_atomically(&dir.join(format!("{name}.pem")), pair.cert_pem().as_bytes(), false)?;
    write_atomically(&dir.join(format!("{name}.cer")), &pair.cert_der, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::{ca_certificate_path, esp_certificate_path};

    #[test]
    fn keys_are_made_once_and_read_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = load_or_create(dir.path()).expect("made");
        let again = load_or_create(dir.path()).expect("read");
        assert_eq!(first.esp_certificate_der, again.esp_certificate_der);
        assert_eq!(first.ca.cert_der(), again.ca.cert_der());
        assert_eq!(std::fs::read(ca_certificate_path(dir.path())).expect("ca.cer"), first.ca.cert_der());
        assert_eq!(std::fs::read(esp_certificate_path(dir.path())).expect("esp.cer"), first.esp_certificate_der);
    }
}
