//! The gateway certificate (`certificate.cer`, DER or PEM) and its RSA public key.

use aws_lc_rs::rsa::{OAEP_SHA256_MGF1SHA256, OaepPublicEncryptingKey, Pkcs1PublicEncryptingKey, PublicEncryptingKey};
use der::{Decode, DecodePem, Encode};

use crate::ClientError;

/// The gateway's certificate, ready to wrap session keys.
pub struct GatewayCertificate {
    der: Vec<u8>,
    spki: Vec<u8>,
}

impl std::fmt::Debug for GatewayCertificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GatewayCertificate").field("der_len", &self.der.len()).finish()
    }
}

impl GatewayCertificate {
    /// From DER.
    pub fn from_der(der: &[u8]) -> Result<Self, ClientError> {
        let cert = x509_cert::Certificate::from_der(der)
            .map_err(|e| ClientError::Certificate(format!("not DER X.509: {e}")))?;
        Self::from_cert(cert)
    }

    /// From PEM ("-----BEGIN CERTIFICATE-----").
    pub fn from_pem(pem: &str) -> Result<Self, ClientError> {
        let cert = x509_cert::Certificate::from_pem(pem.as_bytes())
            .map_err(|e| ClientError::Certificate(format!("not PEM X.509: {e}")))?;
        Self::from_cert(cert)
    }

    /// From a `.cer` file as distributed: PEM when it starts with "-----BEGIN", else DER.
    pub fn from_der_or_pem(bytes: &[u8]) -> Result<Self, ClientError> {
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(64)]).into_owned();
        if text.trim_start().starts_with("-----BEGIN") {
            let pem = std::str::from_utf8(bytes).map_err(|_| ClientError::Certificate("PEM is not UTF-8".into()))?;
            Self::from_pem(pem)
        } else {
            Self::from_der(bytes)
        }
    }

    fn from_cert(cert: x509_cert::Certificate) -> Result<Self, ClientError> {
        let der = cert.to_der().map_err(|e| ClientError::Certificate(e.to_string()))?;
        let spki = cert
            .tbs_certificate
            .subject_public_key_info
            .to_der()
            .map_err(|e| ClientError::Certificate(e.to_string()))?;
        let me = Self { der, spki };
        // Fail now, not at the first request, if the key is not RSA.
        me.public_key()?;
        Ok(me)
    }

    /// The certificate DER.
    pub fn der(&self) -> &[u8] {
        &self.der
    }

    fn public_key(&self) -> Result<PublicEncryptingKey, ClientError> {
        PublicEncryptingKey::from_der(&self.spki).map_err(|e| ClientError::Certificate(format!("not an RSA key: {e}")))
    }

    /// RSA PKCS#1 v1.5 encryption (legacy profile). Public-key only: no oracle concerns here.
    pub fn wrap_pkcs1(&self, key: &[u8]) -> Result<Vec<u8>, ClientError> {
        let k = Pkcs1PublicEncryptingKey::new(self.public_key()?).map_err(|_| ClientError::Crypto)?;
        let mut out = vec![0u8; k.ciphertext_size()];
        let len = k.encrypt(key, &mut out).map_err(|_| ClientError::Crypto)?.len();
        out.truncate(len);
        Ok(out)
    }

    /// RSA-OAEP with SHA-256 and MGF1-SHA-256, no label (modern profile).
    pub fn wrap_oaep(&self, key: &[u8]) -> Result<Vec<u8>, ClientError> {
        let k = OaepPublicEncryptingKey::new(self.public_key()?).map_err(|_| ClientError::Crypto)?;
        let mut out = vec![0u8; k.ciphertext_size()];
        let len = k.encrypt(&OAEP_SHA256_MGF1SHA256, key, &mut out, None).map_err(|_| ClientError::Crypto)?.len();
        out.truncate(len);
        Ok(out)
    }
}
