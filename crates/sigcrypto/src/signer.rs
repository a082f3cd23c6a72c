//! One signer abstraction for every kind of key.
//!
//! A [`RawSigner`] signs the *to-be-signed bytes* (it hashes them itself with SHA-256 and
//! applies the key). Local keys ([`LocalKeySigner`], aws-lc-rs) implement it directly; a
//! hardware token or remote provider that answers later uses the two-phase API in
//! [`crate::cms`] (`prepare_signed_attrs` → hand `der_to_sign` to the device → `assemble`), or
//! wraps a synchronous callback with [`CallbackSigner`].

use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{self, EcdsaKeyPair, RsaKeyPair};
use const_oid::ObjectIdentifier;
use const_oid::db::rfc5912;
use der::Any;
use der::asn1::Null;
use spki::{AlgorithmIdentifierOwned, SubjectPublicKeyInfoOwned};

use crate::pki::{self, KeyAndChain};
use crate::{Error, Result};

/// Signature algorithm produced by a signer (hash is always SHA-256 for signing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SigAlg {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    RsaPkcs1Sha256,
    /// ECDSA P-256 with SHA-256, DER-encoded (r, s).
    EcdsaP256Sha256,
}

impl SigAlg {
    /// The algorithm to use for a certificate's public key.
    pub fn for_certificate(cert_der: &[u8]) -> Result<SigAlg> {
        let cert = pki::parsed_cert(cert_der)?;
        Self::for_spki(&cert.tbs_certificate.subject_public_key_info)
    }

    /// The algorithm to use for a SubjectPublicKeyInfo.
    pub fn for_spki(spki: &SubjectPublicKeyInfoOwned) -> Result<SigAlg> {
        let oid = spki.algorithm.oid;
        if oid == rfc5912::RSA_ENCRYPTION {
            return Ok(SigAlg::RsaPkcs1Sha256);
        }
        if oid == rfc5912::ID_EC_PUBLIC_KEY {
            let curve = spki.algorithm.parameters.as_ref().and_then(|p| p.decode_as::<ObjectIdentifier>().ok());
            if curve == Some(rfc5912::SECP_256_R_1) {
                return Ok(SigAlg::EcdsaP256Sha256);
            }
            return Err(Error::Crypto("only the P-256 curve is supported for signing".into()));
        }
        Err(Error::Crypto(format!("unsupported public key algorithm {oid}")))
    }

    /// AlgorithmIdentifier for CMS SignerInfo.signatureAlgorithm / X.509.
    pub fn algorithm_identifier(self) -> AlgorithmIdentifierOwned {
        match self {
            // RFC 4055: the parameters of sha256WithRSAEncryption are NULL.
            SigAlg::RsaPkcs1Sha256 => AlgorithmIdentifierOwned {
                oid: rfc5912::SHA_256_WITH_RSA_ENCRYPTION,
                parameters: Some(Any::from(Null)),
            },
            // RFC 5758: ecdsa-with-SHA256 has absent parameters.
            SigAlg::EcdsaP256Sha256 => AlgorithmIdentifierOwned { oid: rfc5912::ECDSA_WITH_SHA_256, parameters: None },
        }
    }

    /// XML-DSig SignatureMethod URI.
    pub fn xmldsig_uri(self) -> &'static str {
        match self {
            SigAlg::RsaPkcs1Sha256 => "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
            SigAlg::EcdsaP256Sha256 => "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256",
        }
    }
}

/// Anything that can sign: a local key, a hardware token, a remote provider.
pub trait RawSigner: Send + Sync {
    /// The algorithm of the signatures [`sign`](Self::sign) returns.
    fn algorithm(&self) -> SigAlg;
    /// The signer's certificate, DER.
    fn certificate_der(&self) -> &[u8];
    /// Issuer certificates to embed (nearest issuer first), DER. May be empty.
    fn chain_der(&self) -> &[Vec<u8>];
    /// Hash `data` with SHA-256 and sign it. For CMS, `data` is the DER SET OF the signed
    /// attributes.
    fn sign(&self, data: &[u8]) -> Result<Vec<u8>>;
}

enum LocalKey {
    Rsa(RsaKeyPair),
    Ec(EcdsaKeyPair),
}

/// A private key held in this process (PKCS#12 upload, the platform's sealing key).
/// The parsed key is kept so each signature costs one private-key operation only.
pub struct LocalKeySigner {
    key: LocalKey,
    alg: SigAlg,
    cert_der: Vec<u8>,
    chain_der: Vec<Vec<u8>>,
    rng: SystemRandom,
}

impl std::fmt::Debug for LocalKeySigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalKeySigner")
            .field("alg", &self.alg)
            .field("subject", &pki::cert_common_name(&self.cert_der))
            .finish_non_exhaustive()
    }
}

impl LocalKeySigner {
    /// Load from PKCS#12 bytes (modern or legacy encryption).
    pub fn from_p12(bytes: &[u8], password: &str) -> Result<LocalKeySigner> {
        let kc = pki::load_p12(bytes, password)?;
        Self::from_key_and_chain(&kc)
    }

    /// From a PKCS#8 DER key, its certificate and the issuer chain (all DER).
    pub fn from_pkcs8(key_pkcs8_der: &[u8], cert_der: &[u8], chain_der: Vec<Vec<u8>>) -> Result<LocalKeySigner> {
        let alg = SigAlg::for_certificate(cert_der)?;
        let spki = pki::public_key_spki_from_pkcs8(key_pkcs8_der)?;
        let cert = pki::parse_cert(cert_der)?;
        let cert_spki = der::Encode::to_der(&cert.tbs_certificate.subject_public_key_info)?;
        if spki != cert_spki {
            return Err(Error::Pki("private key does not match the certificate".into()));
        }
        let key = match alg {
            SigAlg::RsaPkcs1Sha256 => LocalKey::Rsa(
                RsaKeyPair::from_pkcs8(key_pkcs8_der).map_err(|e| Error::Pki(format!("bad RSA key: {e}")))?,
            ),
            SigAlg::EcdsaP256Sha256 => LocalKey::Ec(
                EcdsaKeyPair::from_pkcs8(&signature::ECDSA_P256_SHA256_ASN1_SIGNING, key_pkcs8_der)
                    .map_err(|e| Error::Pki(format!("bad EC key: {e}")))?,
            ),
        };
        Ok(LocalKeySigner { key, alg, cert_der: cert_der.to_vec(), chain_der, rng: SystemRandom::new() })
    }

    /// From a PEM key (PKCS#8/PKCS#1/SEC1) and a PEM bundle whose first certificate is the
    /// signer's.
    pub fn from_pem(key_pem: &str, certs_pem: &str) -> Result<LocalKeySigner> {
        let key = pki::private_key_from_pem(key_pem)?;
        let mut certs = pki::certs_from_pem_or_der(certs_pem.as_bytes())?;
        let leaf = certs.remove(0);
        Self::from_pkcs8(&key, &leaf, certs)
    }

    /// From what [`pki::load_p12`] returns.
    pub fn from_key_and_chain(kc: &KeyAndChain) -> Result<LocalKeySigner> {
        Self::from_pkcs8(&kc.key_pkcs8_der, &kc.cert_der, kc.chain_der.clone())
    }
}

impl RawSigner for LocalKeySigner {
    fn algorithm(&self) -> SigAlg {
        self.alg
    }
    fn certificate_der(&self) -> &[u8] {
        &self.cert_der
    }
    fn chain_der(&self) -> &[Vec<u8>] {
        &self.chain_der
    }
    fn sign(&self, data: &[u8]) -> Result<Vec<u8>> {
        match &self.key {
            LocalKey::Rsa(k) => {
                let mut sig = vec![0u8; k.public_modulus_len()];
                k.sign(&signature::RSA_PKCS1_SHA256, &self.rng, data, &mut sig)
                    .map_err(|_| Error::Crypto("RSA signing failed".into()))?;
                Ok(sig)
            }
            LocalKey::Ec(k) => k
                .sign(&self.rng, data)
                .map(|s| s.as_ref().to_vec())
                .map_err(|_| Error::Crypto("ECDSA signing failed".into())),
        }
    }
}

/// A signer whose private-key operation is a closure: a PKCS#11 token, a signer utility on
/// the user's PC reached synchronously, an HSM. The closure receives the to-be-signed bytes.
pub struct CallbackSigner<F> {
    alg: SigAlg,
    cert_der: Vec<u8>,
    chain_der: Vec<Vec<u8>>,
    callback: F,
}

impl<F> CallbackSigner<F>
where
    F: Fn(&[u8]) -> Result<Vec<u8>> + Send + Sync,
{
    /// The algorithm is derived from the certificate's key.
    pub fn new(cert_der: Vec<u8>, chain_der: Vec<Vec<u8>>, callback: F) -> Result<Self> {
        Ok(CallbackSigner { alg: SigAlg::for_certificate(&cert_der)?, cert_der, chain_der, callback })
    }
}

impl<F> RawSigner for CallbackSigner<F>
where
    F: Fn(&[u8]) -> Result<Vec<u8>> + Send + Sync,
{
    fn algorithm(&self) -> SigAlg {
        self.alg
    }
    fn certificate_der(&self) -> &[u8] {
        &self.cert_der
    }
    fn chain_der(&self) -> &[Vec<u8>] {
        &self.chain_der
    }
    fn sign(&self, data: &[u8]) -> Result<Vec<u8>> {
        (self.callback)(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pki::{KeyAlgo, LocalCa};
    use crate::public_key::{HashAlg, verify_signature};

    #[test]
    fn local_signers_verify() -> Result<()> {
        let ca = LocalCa::generate_with("CA", KeyAlgo::EcP256)?;
        for algo in [KeyAlgo::Rsa2048, KeyAlgo::EcP256] {
            let ee = ca.issue_signer("S", algo)?;
            let s = LocalKeySigner::from_pkcs8(&ee.key_pkcs8_der, &ee.cert_der, vec![])?;
            let sig = s.sign(b"hello")?;
            let cert = pki::parse_cert(&ee.cert_der)?;
            let spki = &cert.tbs_certificate.subject_public_key_info;
            let alg = s.algorithm().algorithm_identifier();
            verify_signature(spki, &alg, HashAlg::Sha256, b"hello", &sig)?;
            assert!(verify_signature(spki, &alg, HashAlg::Sha256, b"hellO", &sig).is_err());
        }
        Ok(())
    }

    #[test]
    fn mismatched_key_is_refused() -> Result<()> {
        let ca = LocalCa::generate_with("CA", KeyAlgo::EcP256)?;
        let a = ca.issue_signer("A", KeyAlgo::EcP256)?;
        let b = ca.issue_signer("B", KeyAlgo::EcP256)?;
        assert!(LocalKeySigner::from_pkcs8(&a.key_pkcs8_der, &b.cert_der, vec![]).is_err());
        assert!(LocalKeySigner::from_pkcs8(b"junk", &b.cert_der, vec![]).is_err());
        Ok(())
    }
}
