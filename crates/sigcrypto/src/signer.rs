//! One signer abstraction for every kind of key.
//!
//! A [`RawSigner`] signs the *to-be-signed bytes* (it hashes them itself with SHA-256 and
//! applies the key). Local keys ([`LocalKeySigner`], aws-lc-rs) implement it directly; a
//! hardware token or remote provider that answers later uses the two-phase API in
//! [`crate::cms`] (`prepare_signed_attrs` → hand `der_to_sign` to the device → `assemble`), or
//! wraps a synchronous callback with [`CallbackSigner`].

use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{self, EcdsaKeyPair, RsaKeyPair, UnparsedPublicKey};
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

// ---------------------------------------------------------------------------------------------
// Public-key verification (used by cms, tsp, verify, xmldsig)
// ---------------------------------------------------------------------------------------------

/// Hash algorithms we accept when *verifying* other producers' signatures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HashAlg {
    Sha1,
    Sha256,
    Sha384,
    Sha512,
}

impl HashAlg {
    pub(crate) fn from_oid(oid: &ObjectIdentifier) -> Option<HashAlg> {
        match *oid {
            rfc5912::ID_SHA_1 => Some(HashAlg::Sha1),
            rfc5912::ID_SHA_256 => Some(HashAlg::Sha256),
            rfc5912::ID_SHA_384 => Some(HashAlg::Sha384),
            rfc5912::ID_SHA_512 => Some(HashAlg::Sha512),
            _ => None,
        }
    }

    /// Bytes in a digest.
    pub(crate) fn output_len(self) -> usize {
        match self {
            HashAlg::Sha1 => 20,
            HashAlg::Sha256 => 32,
            HashAlg::Sha384 => 48,
            HashAlg::Sha512 => 64,
        }
    }

    pub(crate) fn digest(self, data: &[u8]) -> Vec<u8> {
        use aws_lc_rs::digest;
        let alg = match self {
            HashAlg::Sha1 => &digest::SHA1_FOR_LEGACY_USE_ONLY,
            HashAlg::Sha256 => &digest::SHA256,
            HashAlg::Sha384 => &digest::SHA384,
            HashAlg::Sha512 => &digest::SHA512,
        };
        digest::digest(alg, data).as_ref().to_vec()
    }
}

/// Verify `signature` over `data` with the key in `spki`.
///
/// `sig_alg` is the signature algorithm (sha*WithRSAEncryption, RSASSA-PSS with its
/// parameters, ecdsa-with-SHA*, or plain rsaEncryption as CMS allows); `hash` is the digest
/// algorithm to pair with plain rsaEncryption / id-ecPublicKey.
pub(crate) fn verify_signature(
    spki: &SubjectPublicKeyInfoOwned,
    sig_alg: &AlgorithmIdentifierOwned,
    hash: HashAlg,
    data: &[u8],
    signature: &[u8],
) -> Result<()> {
    let alg = pick_verification_alg(spki, sig_alg, hash)?;
    let key_bytes = spki.subject_public_key.raw_bytes();
    UnparsedPublicKey::new(alg, key_bytes)
        .verify(data, signature)
        .map_err(|_| Error::Verify("signature value does not verify".into()))
}

/// RSASSA-PSS-params (RFC 4055 §3.1). Absent fields take the RFC's defaults (SHA-1, MGF1 with
/// SHA-1, salt 20), which no verifier here accepts.
#[derive(der::Sequence)]
struct PssParams {
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT", optional = "true")]
    hash: Option<AlgorithmIdentifierOwned>,
    #[asn1(context_specific = "1", tag_mode = "EXPLICIT", optional = "true")]
    mask_gen: Option<AlgorithmIdentifierOwned>,
    #[asn1(context_specific = "2", tag_mode = "EXPLICIT", optional = "true")]
    salt_length: Option<u32>,
    #[asn1(context_specific = "3", tag_mode = "EXPLICIT", optional = "true")]
    trailer_field: Option<u32>,
}

/// The digest and salt length of an RSASSA-PSS signature, when its parameters are the ones
/// PAdES and CAdES signers use: one SHA-2 hash for the message and MGF1, the standard trailer.
fn pss_params(params: Option<&Any>) -> Result<(HashAlg, usize)> {
    let unsupported = |why: &str| Error::Verify(format!("unsupported RSASSA-PSS parameters: {why}"));
    let params: PssParams =
        params.ok_or_else(|| unsupported("absent"))?.decode_as().map_err(|_| unsupported("not RSASSA-PSS-params"))?;
    let hash = params.hash.as_ref().and_then(|h| HashAlg::from_oid(&h.oid)).ok_or_else(|| unsupported("hash"))?;
    let mgf_hash = params
        .mask_gen
        .as_ref()
        .filter(|m| m.oid == rfc5912::ID_MGF_1)
        .and_then(|m| m.parameters.as_ref()?.decode_as::<AlgorithmIdentifierOwned>().ok())
        .and_then(|h| HashAlg::from_oid(&h.oid));
    if mgf_hash != Some(hash) || hash == HashAlg::Sha1 {
        return Err(unsupported("mask generation"));
    }
    if params.trailer_field.unwrap_or(1) != 1 {
        return Err(unsupported("trailer field"));
    }
    Ok((hash, params.salt_length.unwrap_or(20) as usize))
}

/// The verifier for an RSASSA-PSS signature. Signers use a salt as long as the digest
/// (OpenSSL's and most tokens' default) or the longest the key allows (pyHanko, Java); the
/// verifiers need the length up front, so other lengths are refused as unsupported.
fn pss_verifier(
    spki: &SubjectPublicKeyInfoOwned,
    params: Option<&Any>,
) -> Result<&'static dyn signature::VerificationAlgorithm> {
    use signature::RsaPssSaltLength::Max;
    if spki.algorithm.oid != rfc5912::RSA_ENCRYPTION && spki.algorithm.oid != rfc5912::ID_RSASSA_PSS {
        return Err(Error::Verify("RSASSA-PSS signature with a key that is not RSA".into()));
    }
    let (hash, salt) = pss_params(params)?;
    let bits = signature::RsaParameters::public_modulus_len(spki.subject_public_key.raw_bytes())
        .map_err(|_| Error::Verify("malformed RSA public key".into()))?;
    let longest = ((bits as usize + 6) / 8).saturating_sub(hash.output_len() + 2);
    let as_digest = salt == hash.output_len();
    if !as_digest && salt != longest {
        return Err(Error::Verify(format!(
            "unsupported RSASSA-PSS salt length {salt} (supported: {} or {longest})",
            hash.output_len()
        )));
    }
    Ok(match (hash, as_digest) {
        (HashAlg::Sha256, true) => &signature::RSA_PSS_2048_8192_SHA256,
        (HashAlg::Sha384, true) => &signature::RSA_PSS_2048_8192_SHA384,
        (HashAlg::Sha512, true) => &signature::RSA_PSS_2048_8192_SHA512,
        (HashAlg::Sha256, false) => &const { signature::RSA_PSS_2048_8192_SHA256.with_pss_salt_length(Max) },
        (HashAlg::Sha384, false) => &const { signature::RSA_PSS_2048_8192_SHA384.with_pss_salt_length(Max) },
        (HashAlg::Sha512, false) => &const { signature::RSA_PSS_2048_8192_SHA512.with_pss_salt_length(Max) },
        (HashAlg::Sha1, _) => return Err(Error::Verify("RSASSA-PSS with SHA-1".into())),
    })
}

fn pick_verification_alg(
    spki: &SubjectPublicKeyInfoOwned,
    sig_alg: &AlgorithmIdentifierOwned,
    hash: HashAlg,
) -> Result<&'static dyn signature::VerificationAlgorithm> {
    if sig_alg.oid == rfc5912::ID_RSASSA_PSS {
        return pss_verifier(spki, sig_alg.parameters.as_ref());
    }
    let hash = match sig_alg.oid {
        rfc5912::SHA_256_WITH_RSA_ENCRYPTION | rfc5912::ECDSA_WITH_SHA_256 => HashAlg::Sha256,
        rfc5912::SHA_384_WITH_RSA_ENCRYPTION | rfc5912::ECDSA_WITH_SHA_384 => HashAlg::Sha384,
        rfc5912::SHA_512_WITH_RSA_ENCRYPTION | rfc5912::ECDSA_WITH_SHA_512 => HashAlg::Sha512,
        rfc5912::SHA_1_WITH_RSA_ENCRYPTION => HashAlg::Sha1,
        rfc5912::RSA_ENCRYPTION | rfc5912::ID_EC_PUBLIC_KEY => hash,
        other => {
            return Err(Error::Verify(format!("unsupported signature algorithm {other}")));
        }
    };
    let key_oid = spki.algorithm.oid;
    if key_oid == rfc5912::RSA_ENCRYPTION {
        return Ok(match hash {
            HashAlg::Sha1 => &signature::RSA_PKCS1_2048_8192_SHA1_FOR_LEGACY_USE_ONLY,
            HashAlg::Sha256 => &signature::RSA_PKCS1_2048_8192_SHA256,
            HashAlg::Sha384 => &signature::RSA_PKCS1_2048_8192_SHA384,
            HashAlg::Sha512 => &signature::RSA_PKCS1_2048_8192_SHA512,
        });
    }
    if key_oid == rfc5912::ID_EC_PUBLIC_KEY {
        let curve = spki
            .algorithm
            .parameters
            .as_ref()
            .and_then(|p| p.decode_as::<ObjectIdentifier>().ok())
            .ok_or_else(|| Error::Verify("EC key without named curve".into()))?;
        return match (curve, hash) {
            (rfc5912::SECP_256_R_1, HashAlg::Sha256) => Ok(&signature::ECDSA_P256_SHA256_ASN1),
            (rfc5912::SECP_256_R_1, HashAlg::Sha384) => Ok(&signature::ECDSA_P256_SHA384_ASN1),
            (rfc5912::SECP_384_R_1, HashAlg::Sha256) => Ok(&signature::ECDSA_P384_SHA256_ASN1),
            (rfc5912::SECP_384_R_1, HashAlg::Sha384) => Ok(&signature::ECDSA_P384_SHA384_ASN1),
            (rfc5912::SECP_521_R_1, HashAlg::Sha512) => Ok(&signature::ECDSA_P521_SHA512_ASN1),
            _ => Err(Error::Verify(format!("unsupported EC curve/hash {curve} {hash:?}"))),
        };
    }
    Err(Error::Verify(format!("unsupported public key algorithm {key_oid}")))
}

/// Verify that `cert` was signed by `issuer`'s key.
pub(crate) fn verify_cert_signature(cert: &x509_cert::Certificate, issuer: &x509_cert::Certificate) -> Result<()> {
    let tbs = der::Encode::to_der(&cert.tbs_certificate)?;
    let sig = cert.signature.as_bytes().ok_or_else(|| Error::Verify("certificate signature has unused bits".into()))?;
    verify_signature(
        &issuer.tbs_certificate.subject_public_key_info,
        &cert.signature_algorithm,
        HashAlg::Sha256,
        &tbs,
        sig,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pki::{KeyAlgo, LocalCa};

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
