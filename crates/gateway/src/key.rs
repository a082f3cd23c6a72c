//! The gateway's RSA key: unwraps session keys (PKCS#1 v1.5 with implicit rejection, or OAEP)
//! and carries the certificate that integrators receive as `.cer`.

use aws_lc_rs::encoding::{AsDer, Pkcs8V1Der, PublicKeyX509Der};
use aws_lc_rs::hmac;
use aws_lc_rs::rsa::{
    KeySize, OAEP_SHA256_MGF1SHA256, OaepPrivateDecryptingKey, Pkcs1PrivateDecryptingKey, PrivateDecryptingKey,
};
use der::{Decode, Encode};
use subtle::{Choice, ConditionallySelectable};

use crate::GatewayError;
use crate::cipher::{SESSION_KEY_LEN, SessionKey, sha256};

/// RSA modulus sizes the gateway accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyBits {
    /// 2048 bits: for existing certificates.
    Rsa2048,
    /// 3072 bits: the default.
    Rsa3072,
    /// 4096 bits.
    Rsa4096,
}

impl KeyBits {
    /// The size in bits.
    pub fn bits(self) -> usize {
        match self {
            Self::Rsa2048 => 2048,
            Self::Rsa3072 => 3072,
            Self::Rsa4096 => 4096,
        }
    }

    /// The size for a bit count, if supported.
    pub fn from_bits(bits: usize) -> Option<Self> {
        match bits {
            2048 => Some(Self::Rsa2048),
            3072 => Some(Self::Rsa3072),
            4096 => Some(Self::Rsa4096),
            _ => None,
        }
    }

    fn aws(self) -> KeySize {
        match self {
            Self::Rsa2048 => KeySize::Rsa2048,
            Self::Rsa3072 => KeySize::Rsa3072,
            Self::Rsa4096 => KeySize::Rsa4096,
        }
    }
}

/// The gateway's private key (and, once attached, its certificate).
pub struct GatewayKey {
    pkcs1: Pkcs1PrivateDecryptingKey,
    oaep: OaepPrivateDecryptingKey,
    /// HMAC key for the synthetic session key of implicit rejection. Derived from the private
    /// key so that the same bad ciphertext always yields the same synthetic key (as in the
    /// implicit-rejection draft), and nothing is stored beside the key.
    rejection: hmac::Key,
    pkcs8: Vec<u8>,
    spki: Vec<u8>,
    modulus_len: usize,
    certificate: Option<Vec<u8>>,
}

impl std::fmt::Debug for GatewayKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GatewayKey").field("bits", &(self.modulus_len * 8)).finish_non_exhaustive()
    }
}

impl Drop for GatewayKey {
    fn drop(&mut self) {
        self.pkcs8.iter_mut().for_each(|b| *b = 0);
    }
}

impl GatewayKey {
    /// Loads an RSA private key (PKCS#8 DER) of 2048, 3072 or 4096 bits.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, GatewayError> {
        let load = || {
            PrivateDecryptingKey::from_pkcs8(der).map_err(|e| GatewayError::Key(format!("not an RSA PKCS#8 key: {e}")))
        };
        let first = load()?;
        let bits = first.key_size_bits();
        if KeyBits::from_bits(bits).is_none() {
            return Err(GatewayError::Key(format!("RSA key of {bits} bits; use 2048, 3072 or 4096")));
        }
        let spki = public_key_der(&first)?;
        let modulus_len = first.key_size_bytes();
        let pkcs1 = Pkcs1PrivateDecryptingKey::new(first).map_err(|_| GatewayError::Key("PKCS#1 setup".into()))?;
        let oaep = OaepPrivateDecryptingKey::new(load()?).map_err(|_| GatewayError::Key("OAEP setup".into()))?;
        let mut seed = b"signet-gateway/implicit-rejection/v1".to_vec();
        seed.extend_from_slice(der);
        let secret = sha256(&seed);
        seed.iter_mut().for_each(|b| *b = 0);
        Ok(Self {
            pkcs1,
            oaep,
            rejection: hmac::Key::new(hmac::HMAC_SHA256, &secret),
            pkcs8: der.to_vec(),
            spki,
            modulus_len,
            certificate: None,
        })
    }

    /// Generates a new key with a self-signed certificate (subject CN = `common_name`, valid
    /// for `valid_days`). RSA generation takes a second or more (4096: several).
    pub fn generate(bits: KeyBits, common_name: &str, valid_days: u32) -> Result<Self, GatewayError> {
        let key = PrivateDecryptingKey::generate(bits.aws()).map_err(|_| GatewayError::Key("RSA generation".into()))?;
        let pkcs8: Pkcs8V1Der<'static> = key.as_der().map_err(|_| GatewayError::Key("PKCS#8 export".into()))?;
        let der = pkcs8.as_ref().to_vec();
        let cert = self_signed_certificate(&der, common_name, valid_days)?;
        Self::from_pkcs8_der(&der)?.with_certificate(&cert)
    }

    /// Attaches the certificate to publish; refuses one whose public key is not this key's.
    pub fn with_certificate(mut self, cert_der: &[u8]) -> Result<Self, GatewayError> {
        let cert = x509_cert::Certificate::from_der(cert_der)
            .map_err(|e| GatewayError::Key(format!("certificate is not DER X.509: {e}")))?;
        let spki = cert
            .tbs_certificate
            .subject_public_key_info
            .to_der()
            .map_err(|e| GatewayError::Key(format!("certificate public key: {e}")))?;
        if spki != self.spki {
            return Err(GatewayError::Key("certificate does not belong to this key".into()));
        }
        self.certificate = Some(cert_der.to_vec());
        Ok(self)
    }

    /// The certificate (DER) for `GET /{segment}/certificate.cer`, if attached.
    pub fn certificate_der(&self) -> Option<&[u8]> {
        self.certificate.as_deref()
    }

    /// The certificate as PEM, for `certificate.pem`.
    pub fn certificate_pem(&self) -> Option<String> {
        self.certificate
            .as_deref()
            .and_then(|der| der::pem::encode_string("CERTIFICATE", der::pem::LineEnding::LF, der).ok())
    }

    /// The private key (PKCS#8 DER) for storage by the caller.
    pub fn pkcs8_der(&self) -> &[u8] {
        &self.pkcs8
    }

    /// The public key (SubjectPublicKeyInfo DER).
    pub fn public_key_der(&self) -> &[u8] {
        &self.spki
    }

    /// Modulus size in bits.
    pub fn bits(&self) -> usize {
        self.modulus_len * 8
    }

    /// Modulus size in bytes: the exact length of Parameter1 after base64 decoding.
    pub fn modulus_len(&self) -> usize {
        self.modulus_len
    }

    /// Legacy unwrap with implicit rejection: always returns a 32-byte key. When the PKCS#1
    /// v1.5 padding is wrong or the plaintext is not 32 bytes, the key is
    /// HMAC-SHA256(secret, ciphertext) instead, chosen in constant time, so the request fails
    /// later at the AES/JSON step on the same code path as any other bad request: the sender
    /// cannot tell a padding failure from a bad payload (no Bleichenbacher/Marvin oracle).
    pub(crate) fn unwrap_pkcs1_implicit(&self, ciphertext: &[u8]) -> SessionKey {
        let synthetic = hmac::sign(&self.rejection, ciphertext);
        let mut out = [0u8; SESSION_KEY_LEN];
        out.copy_from_slice(synthetic.as_ref());
        let mut buf = vec![0u8; self.modulus_len];
        // Length and success are combined without branching on them.
        let (ok, len) = match self.pkcs1.decrypt(ciphertext, &mut buf) {
            Ok(pt) => (1u8, pt.len()),
            Err(_) => (0u8, 0),
        };
        let good = Choice::from(ok) & ct_usize_eq(len, SESSION_KEY_LEN);
        for (i, o) in out.iter_mut().enumerate() {
            let real = buf.get(i).copied().unwrap_or(0);
            *o = u8::conditional_select(o, &real, good);
        }
        buf.iter_mut().for_each(|b| *b = 0);
        SessionKey::from_bytes(out)
    }

    /// Modern unwrap: RSA-OAEP with SHA-256 and MGF1-SHA-256 (OAEP decoding in AWS-LC is
    /// constant time and has one error). The key must be 32 bytes.
    pub(crate) fn unwrap_oaep(&self, ciphertext: &[u8]) -> Result<SessionKey, GatewayError> {
        let mut buf = vec![0u8; self.modulus_len];
        let key = self
            .oaep
            .decrypt(&OAEP_SHA256_MGF1SHA256, ciphertext, &mut buf, None)
            .ok()
            .and_then(|pt| SessionKey::from_slice(pt))
            .ok_or(GatewayError::InvalidRequest);
        buf.iter_mut().for_each(|b| *b = 0);
        key
    }
}

/// Constant-time `a == b` for lengths.
fn ct_usize_eq(a: usize, b: usize) -> Choice {
    let x = (a ^ b) as u64;
    // (x | -x) has its top bit set iff x != 0.
    let nonzero = ((x | x.wrapping_neg()) >> 63) as u8;
    Choice::from(1 ^ nonzero)
}

fn public_key_der(key: &PrivateDecryptingKey) -> Result<Vec<u8>, GatewayError> {
    let der: PublicKeyX509Der<'static> =
        key.public_key().as_der().map_err(|_| GatewayError::Key("public key export".into()))?;
    Ok(der.as_ref().to_vec())
}

fn self_signed_certificate(pkcs8: &[u8], common_name: &str, valid_days: u32) -> Result<Vec<u8>, GatewayError> {
    let key_pair = rcgen::KeyPair::try_from(pkcs8).map_err(|e| GatewayError::Key(format!("certificate key: {e}")))?;
    let mut params = rcgen::CertificateParams::default();
    let mut dn = rcgen::DistinguishedName::new();
    dn.push(rcgen::DnType::CommonName, common_name);
    params.distinguished_name = dn;
    let now = time::OffsetDateTime::now_utc();
    params.not_before = now - time::Duration::minutes(5);
    params.not_after = now + time::Duration::days(i64::from(valid_days));
    params.key_usages = vec![rcgen::KeyUsagePurpose::KeyEncipherment];
    let cert = params.self_signed(&key_pair).map_err(|e| GatewayError::Key(format!("certificate: {e}")))?;
    Ok(cert.der().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implicit_rejection_uses_the_synthetic_key() -> Result<(), GatewayError> {
        let key = GatewayKey::generate(KeyBits::Rsa2048, "t", 1)?;
        let bad = vec![0x5au8; key.modulus_len()];
        let a = key.unwrap_pkcs1_implicit(&bad);
        let b = key.unwrap_pkcs1_implicit(&bad);
        assert_eq!(a, b, "deterministic");
        let expected = hmac::sign(&key.rejection, &bad);
        assert_eq!(a.as_bytes().as_slice(), expected.as_ref());
        let mut other = bad.clone();
        other[0] ^= 1;
        assert_ne!(key.unwrap_pkcs1_implicit(&other), a, "depends on the ciphertext");
        Ok(())
    }

    #[test]
    fn ct_len_eq() {
        assert!(bool::from(ct_usize_eq(32, 32)));
        assert!(!bool::from(ct_usize_eq(31, 32)));
        assert!(!bool::from(ct_usize_eq(0, 32)));
        assert!(!bool::from(ct_usize_eq(usize::MAX, 32)));
    }
}
