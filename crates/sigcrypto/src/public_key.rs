//! Checking a signature with a public key, for every module that verifies another producer's
//! signature (CMS, time-stamps, OCSP, XML-DSig) or orders a chain: the hash algorithms accepted,
//! RSA PKCS#1 v1.5 and PSS and ECDSA verification, and a certificate's signature checked with its
//! issuer's key. It sits below the signer and the certificate modules, so that key loading (which
//! orders a PKCS#12 file's chain) does not import back up into revocation or CMS.

use aws_lc_rs::signature::{self, UnparsedPublicKey};
use const_oid::ObjectIdentifier;
use const_oid::db::rfc5912;
use der::Any;
use spki::{AlgorithmIdentifierOwned, SubjectPublicKeyInfoOwned};

use crate::{Error, Result};

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
