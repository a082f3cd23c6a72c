//! CMS SignedData (RFC 5652) assembled by hand from the `cms` 0.2 types.
//!
//! We do not use the cms crate's `builder` feature: it drags in the `rsa` crate and signs
//! through it. Instead the signed attributes are built here, signed by a [`RawSigner`] (or by
//! a device between [`prepare_signed_attrs`] and [`assemble`]), and put together.
//!
//! Profiles:
//! * PAdES (`CmsOptions::pades()`): detached, contentType + messageDigest +
//!   signingCertificateV2, **no signingTime** (ETSI EN 319 142-1 forbids it).
//! * CAdES for data/hash (`CmsOptions::cades()`): the same plus signingTime.

use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::content_info::{CmsVersion, ContentInfo};
use cms::signed_data::{
    CertificateSet, EncapsulatedContentInfo, SignedData, SignerIdentifier, SignerInfo, SignerInfos,
};
use const_oid::ObjectIdentifier;
use der::asn1::{OctetString, SetOfVec};
use der::{Any, Decode, Encode, Sequence, Tag};
use spki::AlgorithmIdentifierOwned;
use time::OffsetDateTime;
use x509_cert::attr::Attribute;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::serial_number::SerialNumber;

use crate::pki;
use crate::public_key::{self, HashAlg};
use crate::signer::{RawSigner, SigAlg};
use crate::{Error, Result};

/// OIDs used in CMS attributes.
pub mod oid {
    use const_oid::ObjectIdentifier;
    pub const ID_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.1");
    pub const ID_SIGNED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2");
    pub const ID_CONTENT_TYPE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.3");
    pub const ID_MESSAGE_DIGEST: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.4");
    pub const ID_SIGNING_TIME: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.5");
    /// ESS signingCertificate (RFC 2634 §5.4, SHA-1 certificate hashes), which many TSAs
    /// still put in their tokens.
    pub const ID_AA_SIGNING_CERTIFICATE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.12");
    pub const ID_AA_SIGNING_CERTIFICATE_V2: ObjectIdentifier =
        ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.47");
    pub const ID_AA_SIGNATURE_TIMESTAMP_TOKEN: ObjectIdentifier =
        ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.14");
    pub const ID_CT_TST_INFO: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.1.4");
    pub const ID_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");
    /// Adobe's `adbe-revocationInfoArchival` signed attribute (ISO 32000-1 §12.8.3.3.2):
    /// the CRLs and OCSP answers Acrobat, pyHanko and iText embed with a PKCS#7 signature.
    pub const ADBE_REVOCATION_INFO_ARCHIVAL: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113583.1.1.8");
    /// CAdES `revocation-values` (RFC 5126 §6.3.4): CRLs and OCSP answers, unsigned.
    pub const ID_AA_ETS_REVOCATION_VALUES: ObjectIdentifier =
        ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.24");
}

/// Upper bound on CMS input we parse (PDF /Contents are at most a few hundred KB).
pub(crate) const MAX_CMS_LEN: usize = 16 << 20;

/// What goes into the signed attributes. `Default` is the PAdES profile.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct CmsOptions {
    /// Include a signingTime attribute with this time (CAdES); `None` for PAdES.
    #[serde(with = "time::serde::rfc3339::option")]
    pub signing_time: Option<OffsetDateTime>,
    /// Embed the issuer chain next to the signer certificate (default true via constructors).
    pub include_chain: bool,
}

impl Default for CmsOptions {
    fn default() -> Self {
        Self::pades()
    }
}

impl CmsOptions {
    /// PAdES baseline: no signingTime, chain included.
    pub fn pades() -> Self {
        CmsOptions { signing_time: None, include_chain: true }
    }
    /// CAdES for data/hash: signingTime = now, chain included.
    pub fn cades() -> Self {
        CmsOptions { signing_time: Some(OffsetDateTime::now_utc()), include_chain: true }
    }
}

/// Phase 1 of deferred signing: the signed attributes and everything needed to assemble the
/// final CMS once a signature comes back. Serializable so it can be persisted between phases.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct SignedAttrs {
    /// The bytes the signer must sign (hash-and-sign): the DER `SET OF Attribute`.
    pub der_to_sign: Vec<u8>,
    /// SHA-256 of `der_to_sign`, for devices that sign a pre-computed hash.
    pub hash_to_sign: Vec<u8>,
    /// Message digest the attributes commit to.
    pub message_digest: Vec<u8>,
    /// Signature algorithm expected back.
    pub alg: SigAlg,
    /// Signer certificate, DER.
    pub cert_der: Vec<u8>,
    /// Issuer certificates to embed, DER.
    pub chain_der: Vec<Vec<u8>>,
    /// Encapsulated content for attached signatures.
    pub econtent: Option<Vec<u8>>,
}

impl SignedAttrs {
    /// DER DigestInfo (SHA-256) of `der_to_sign`: what a device doing raw RSA PKCS#1 v1.5
    /// (e.g. PKCS#11 `CKM_RSA_PKCS`) must be given.
    pub fn digest_info_to_sign(&self) -> Vec<u8> {
        // SEQUENCE { SEQUENCE { OID sha256, NULL }, OCTET STRING (32) }
        const PREFIX: [u8; 19] = [
            0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04,
            0x20,
        ];
        let mut out = PREFIX.to_vec();
        out.extend_from_slice(&self.hash_to_sign);
        out
    }
}

/// ESS `SigningCertificateV2` (RFC 5035). `hashAlgorithm` DEFAULT sha256 is omitted.
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(crate) struct SigningCertificateV2 {
    pub certs: Vec<EssCertIdV2>,
    /// PolicyInformation values; read past, never written.
    #[asn1(optional = "true")]
    pub policies: Option<Any>,
}

/// ESS `SigningCertificate` (RFC 2634 §5.4): the version 1 reference, always SHA-1.
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(crate) struct SigningCertificate {
    pub certs: Vec<EssCertId>,
    #[asn1(optional = "true")]
    pub policies: Option<Any>,
}

#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(crate) struct EssCertId {
    pub cert_hash: OctetString,
    #[asn1(optional = "true")]
    pub issuer_serial: Option<IssuerSerial>,
}

#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(crate) struct EssCertIdV2 {
    #[asn1(optional = "true")]
    pub hash_algorithm: Option<AlgorithmIdentifierOwned>,
    pub cert_hash: OctetString,
    #[asn1(optional = "true")]
    pub issuer_serial: Option<IssuerSerial>,
}

#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(crate) struct IssuerSerial {
    pub issuer: Vec<GeneralName>,
    pub serial_number: SerialNumber,
}

fn sha256_alg() -> AlgorithmIdentifierOwned {
    // Parameters absent, as RFC 5754 recommends for SHA-2.
    AlgorithmIdentifierOwned { oid: oid::ID_SHA256, parameters: None }
}

pub(crate) fn attribute(oid: ObjectIdentifier, value: Any) -> Result<Attribute> {
    let mut values = SetOfVec::new();
    values.insert(value)?;
    Ok(Attribute { oid, values })
}

/// The ESS signingCertificateV2 attribute value for a certificate.
pub(crate) fn signing_certificate_v2(cert_der: &[u8]) -> Result<Any> {
    let cert = pki::parsed_cert(cert_der)?;
    let id = EssCertIdV2 {
        hash_algorithm: None,
        cert_hash: OctetString::new(pki::sha256(cert_der).to_vec())?,
        issuer_serial: Some(IssuerSerial {
            issuer: vec![GeneralName::DirectoryName(cert.tbs_certificate.issuer.clone())],
            serial_number: cert.tbs_certificate.serial_number.clone(),
        }),
    };
    Ok(Any::encode_from(&SigningCertificateV2 { certs: vec![id], policies: None })?)
}

fn signing_time_value(t: OffsetDateTime) -> Result<Any> {
    let unix = u64::try_from(t.unix_timestamp()).map_err(|_| Error::Cms("signing time before 1970".into()))?;
    let dt = der::DateTime::from_unix_duration(std::time::Duration::from_secs(unix))?;
    // RFC 5652 §11.3: UTCTime up to 2049, GeneralizedTime after.
    let time = if dt.year() < 2050 {
        x509_cert::time::Time::UtcTime(der::asn1::UtcTime::from_date_time(dt)?)
    } else {
        x509_cert::time::Time::GeneralTime(der::asn1::GeneralizedTime::from_date_time(dt))
    };
    Ok(Any::encode_from(&time)?)
}

/// Phase 1: build the signed attributes over an external SHA-256 `digest` (PDF ByteRange,
/// the spec's `Hash` type, or the digest of detached data).
pub fn prepare_signed_attrs(
    digest: &[u8; 32],
    cert_der: &[u8],
    chain_der: &[Vec<u8>],
    opts: &CmsOptions,
) -> Result<SignedAttrs> {
    let alg = SigAlg::for_certificate(cert_der)?;
    let attrs = build_attrs(digest, cert_der, opts)?;
    let der_to_sign = attrs.to_der()?;
    Ok(SignedAttrs {
        hash_to_sign: pki::sha256(&der_to_sign).to_vec(),
        der_to_sign,
        message_digest: digest.to_vec(),
        alg,
        cert_der: cert_der.to_vec(),
        chain_der: if opts.include_chain { chain_der.to_vec() } else { Vec::new() },
        econtent: None,
    })
}

fn build_attrs(digest: &[u8; 32], cert_der: &[u8], opts: &CmsOptions) -> Result<SetOfVec<Attribute>> {
    let mut attrs = SetOfVec::new();
    attrs.insert(attribute(oid::ID_CONTENT_TYPE, Any::encode_from(&oid::ID_DATA)?)?)?;
    attrs.insert(attribute(oid::ID_MESSAGE_DIGEST, Any::encode_from(&OctetString::new(digest.to_vec())?)?)?)?;
    attrs.insert(attribute(oid::ID_AA_SIGNING_CERTIFICATE_V2, signing_certificate_v2(cert_der)?)?)?;
    if let Some(t) = opts.signing_time {
        attrs.insert(attribute(oid::ID_SIGNING_TIME, signing_time_value(t)?)?)?;
    }
    Ok(attrs)
}

/// Phase 2: put the signature over `signed.der_to_sign` into a CMS SignedData (DER).
/// The signature is checked against the certificate first, so a device returning garbage
/// is caught here and not by a relying party.
pub fn assemble(signed: &SignedAttrs, signature: &[u8]) -> Result<Vec<u8>> {
    let cert = pki::parsed_cert(&signed.cert_der)?;
    public_key::verify_signature(
        &cert.tbs_certificate.subject_public_key_info,
        &signed.alg.algorithm_identifier(),
        HashAlg::Sha256,
        &signed.der_to_sign,
        signature,
    )
    .map_err(|_| Error::Cms("the returned signature does not match the signed attributes and certificate".into()))?;
    assemble_unchecked(signed, signature)
}

/// Assemble without checking the signature (size estimation uses a dummy value).
pub(crate) fn assemble_unchecked(signed: &SignedAttrs, signature: &[u8]) -> Result<Vec<u8>> {
    let attrs = SetOfVec::<Attribute>::from_der(&signed.der_to_sign)?;
    let cert = pki::parsed_cert(&signed.cert_der)?;

    let signer_info = SignerInfo {
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: cert.tbs_certificate.issuer.clone(),
            serial_number: cert.tbs_certificate.serial_number.clone(),
        }),
        digest_alg: sha256_alg(),
        signed_attrs: Some(attrs),
        signature_algorithm: signed.alg.algorithm_identifier(),
        signature: OctetString::new(signature.to_vec())?,
        unsigned_attrs: None,
    };
    let mut certs = vec![cert.as_ref().clone()];
    for c in &signed.chain_der {
        certs.push(pki::parsed_cert(c)?.as_ref().clone());
    }
    // eContent is an OCTET STRING whose *value* is the raw data: Any::new(OctetString, raw).
    // Wrapping an already-encoded OctetString would double-wrap (notes §2.1).
    let econtent = match &signed.econtent {
        Some(data) => Some(Any::new(Tag::OctetString, data.clone())?),
        None => None,
    };
    signed_data_der(signer_info, certs, econtent)
}

fn signed_data_der(
    signer_info: SignerInfo,
    certs: Vec<x509_cert::Certificate>,
    econtent: Option<Any>,
) -> Result<Vec<u8>> {
    let mut digest_algorithms = SetOfVec::new();
    digest_algorithms.insert(sha256_alg())?;
    let mut cert_set = SetOfVec::new();
    for c in certs {
        // Duplicates (a chain that repeats the leaf) would make SET OF insertion fail.
        let choice = CertificateChoices::Certificate(c);
        if !cert_set.iter().any(|x| x == &choice) {
            cert_set.insert(choice)?;
        }
    }
    let mut signer_infos = SetOfVec::new();
    signer_infos.insert(signer_info)?;
    let sd = SignedData {
        version: CmsVersion::V1,
        digest_algorithms,
        encap_content_info: EncapsulatedContentInfo { econtent_type: oid::ID_DATA, econtent },
        certificates: Some(CertificateSet(cert_set)),
        crls: None,
        signer_infos: SignerInfos(signer_infos),
    };
    let ci = ContentInfo { content_type: oid::ID_SIGNED_DATA, content: Any::encode_from(&sd)? };
    Ok(ci.to_der()?)
}

/// Upper bound of the DER length of the CMS that [`assemble`] will produce for `signed`
/// (signature at its maximum length). Use it to size a PDF `/Contents` placeholder
/// arithmetically instead of making a trial signature; add the size of a time-stamp token
/// (typically 3-6 KB with its chain) and of any revocation data you will embed.
pub fn estimate_der_len(signed: &SignedAttrs) -> Result<usize> {
    let max_sig = match signed.alg {
        SigAlg::RsaPkcs1Sha256 => {
            let cert = pki::parse_cert(&signed.cert_der)?;
            // Modulus length ≈ BIT STRING length of the RSAPublicKey minus framing; the raw
            // key bytes are an upper bound.
            cert.tbs_certificate.subject_public_key_info.subject_public_key.raw_bytes().len()
        }
        // DER ECDSA P-256 signature: at most 72 bytes.
        SigAlg::EcdsaP256Sha256 => 72,
    };
    Ok(assemble_unchecked(signed, &vec![0x7f; max_sig])?.len())
}

/// Detached CMS over an externally computed SHA-256 digest (PDF ByteRange, `Hash` file type).
pub fn sign_digest_detached(signer: &dyn RawSigner, digest: &[u8; 32], opts: &CmsOptions) -> Result<Vec<u8>> {
    let prepared = prepare_signed_attrs(digest, signer.certificate_der(), signer.chain_der(), opts)?;
    let sig = signer.sign(&prepared.der_to_sign)?;
    assemble(&prepared, &sig)
}

/// Detached CMS over `data` (eContent absent).
pub fn sign_detached(signer: &dyn RawSigner, data: &[u8], opts: &CmsOptions) -> Result<Vec<u8>> {
    sign_digest_detached(signer, &pki::sha256(data), opts)
}

/// Attached (encapsulating) CMS over `data`.
pub fn sign_attached(signer: &dyn RawSigner, data: &[u8], opts: &CmsOptions) -> Result<Vec<u8>> {
    let mut prepared = prepare_signed_attrs(&pki::sha256(data), signer.certificate_der(), signer.chain_der(), opts)?;
    prepared.econtent = Some(data.to_vec());
    let sig = signer.sign(&prepared.der_to_sign)?;
    assemble(&prepared, &sig)
}

// ---------------------------------------------------------------------------------------------
// Parsing and checking
// ---------------------------------------------------------------------------------------------

/// Parse DER (tolerating trailing zero padding, as found in PDF /Contents) into SignedData.
pub fn parse_signed_data(cms_der: &[u8]) -> Result<SignedData> {
    if cms_der.is_empty() {
        return Err(Error::Cms("empty CMS".into()));
    }
    if cms_der.len() > MAX_CMS_LEN {
        return Err(Error::Cms("CMS too large".into()));
    }
    let trimmed = trim_der(cms_der)?;
    let ci = ContentInfo::from_der(trimmed).map_err(|e| Error::Cms(format!("not a CMS ContentInfo: {e}")))?;
    if ci.content_type != oid::ID_SIGNED_DATA {
        return Err(Error::Cms(format!("content type {} is not SignedData", ci.content_type)));
    }
    ci.content.decode_as::<SignedData>().map_err(|e| Error::Cms(format!("malformed SignedData: {e}")))
}

/// The outer TLV of a DER value without trailing bytes (PDF placeholders pad with zeros).
pub(crate) fn trim_der(bytes: &[u8]) -> Result<&[u8]> {
    let mut reader = der::SliceReader::new(bytes)?;
    let header = der::Header::decode(&mut reader)?;
    let total = usize::try_from((header.encoded_len()? + header.length)?)
        .map_err(|_| Error::Encoding("length overflow".into()))?;
    bytes.get(..total).ok_or_else(|| Error::Encoding("truncated DER".into()))
}

/// The elements of a constructed DER value's contents, each as a whole TLV.
pub(crate) fn elements(contents: &[u8]) -> Result<Vec<der::asn1::AnyRef<'_>>> {
    use der::Reader;
    let mut reader = der::SliceReader::new(contents)?;
    let mut out = Vec::new();
    while !reader.is_finished() {
        out.push(der::asn1::AnyRef::decode(&mut reader)?);
    }
    Ok(out)
}

/// The contents of each SignerInfo's signed attributes (`[0] IMPLICIT SET OF`) exactly as the
/// CMS carries them, in SignerInfo order; `None` for one without. The decoder of [`SignedData`]
/// sorts a SET OF while reading, so only these bytes show how the signer encoded them.
pub(crate) fn carried_signed_attrs(cms_der: &[u8]) -> Result<Vec<Option<Vec<u8>>>> {
    let content_info = der::asn1::AnyRef::from_der(trim_der(cms_der)?)?;
    let explicit = elements(content_info.value())?;
    let wrapped = explicit.get(1).ok_or_else(|| Error::Cms("ContentInfo without content".into()))?;
    let signed_data = der::asn1::AnyRef::from_der(wrapped.value())?;
    let fields = elements(signed_data.value())?;
    let signer_infos = fields.last().ok_or_else(|| Error::Cms("SignedData without signerInfos".into()))?;
    elements(signer_infos.value())?
        .iter()
        .map(|signer_info| {
            let fields = elements(signer_info.value())?;
            let attributes = fields.get(3).filter(|f| {
                der::Tagged::tag(*f) == Tag::ContextSpecific { constructed: true, number: der::TagNumber::N0 }
            });
            Ok(attributes.map(|a| a.value().to_vec()))
        })
        .collect()
}

/// The CRLs and OCSP answers of a SignerInfo's `adbe-revocationInfoArchival` attribute:
/// `SEQUENCE { crl [0] EXPLICIT SEQUENCE OF CertificateList OPTIONAL, ocsp [1] EXPLICIT
/// SEQUENCE OF OCSPResponse OPTIONAL, otherRevInfo [2] ... OPTIONAL }`, each as DER (at most
/// `max` of each). Being signed, it is the signer's own record of its certificate's status at
/// signing; one that cannot be read adds nothing.
pub(crate) fn archived_revocation(si: &SignerInfo, max: usize) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let (mut crls, mut ocsps) = (Vec::new(), Vec::new());
    let Some(value) =
        si.signed_attrs.as_ref().and_then(|a| attr_value(a, &oid::ADBE_REVOCATION_INFO_ARCHIVAL).ok().flatten())
    else {
        return (crls, ocsps);
    };
    let Ok(fields) = elements(value.value()) else { return (crls, ocsps) };
    for field in fields {
        let der::Tag::ContextSpecific { number, .. } = der::Tagged::tag(&field) else { continue };
        let into = match number.value() {
            0 => &mut crls,
            1 => &mut ocsps,
            _ => continue,
        };
        let Ok(list) = der::asn1::AnyRef::from_der(field.value()) else { continue };
        for item in elements(list.value()).unwrap_or_default().into_iter().take(max) {
            into.extend(item.to_der().ok());
        }
    }
    (crls, ocsps)
}

/// Whether a SignerInfo's signed attributes were carried DER-encoded (RFC 5652 §5.4: the DER
/// encoding is what is signed, so a SET OF in another order signs other bytes than a
/// verifier re-encodes). `carried` is what [`carried_signed_attrs`] read for it.
pub(crate) fn signed_attrs_are_der(si: &SignerInfo, carried: Option<&[u8]>) -> bool {
    let (Some(attrs), Some(carried)) = (si.signed_attrs.as_ref(), carried) else { return true };
    let Ok(encoded) = attrs.to_der() else { return false };
    der::asn1::AnyRef::from_der(&encoded).is_ok_and(|set| set.value() == carried)
}

/// What we know about one signer after checking a CMS.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct SignerSummary {
    /// Subject DN (RFC 4514 string).
    pub subject: String,
    /// Subject common name, if any.
    pub common_name: Option<String>,
    /// Issuer DN.
    pub issuer: String,
    /// Serial number, hex.
    pub serial_hex: String,
    /// Signer certificate, DER.
    #[serde(skip)]
    pub cert_der: Vec<u8>,
    /// Other certificates in the CMS, DER.
    #[serde(skip)]
    pub other_certs_der: Vec<Vec<u8>>,
    /// signingTime attribute, RFC 3339, if present.
    pub signing_time: Option<String>,
    /// messageDigest attribute, hex.
    pub message_digest_hex: String,
    /// Digest algorithm OID.
    pub digest_algorithm: String,
    /// Signature algorithm OID.
    pub signature_algorithm: String,
    /// Whether a signature time-stamp token is attached.
    pub has_signature_timestamp: bool,
    /// Whether signingCertificateV2 is present (PAdES/CAdES baseline requirement).
    pub has_signing_certificate_v2: bool,
}

/// Check a CMS produced elsewhere (hardware token, remote eSign provider) before embedding it:
/// well-formed SignedData with one signer, SHA-256 messageDigest equal to `expected_digest`,
/// and a signature that verifies with the embedded signer certificate.
pub fn check_external_cms(cms_der: &[u8], expected_digest: &[u8; 32]) -> Result<SignerSummary> {
    let sd = parse_signed_data(cms_der)?;
    let si = single_signer(&sd)?;
    let summary = check_signer_info(&sd, si, None)?;
    let digest = hex::decode(&summary.message_digest_hex).map_err(|_| Error::Cms("bad message digest".into()))?;
    if digest.as_slice() != expected_digest.as_slice() {
        return Err(Error::Cms("messageDigest does not match the expected document digest".into()));
    }
    Ok(summary)
}

pub(crate) fn single_signer(sd: &SignedData) -> Result<&SignerInfo> {
    let mut it = sd.signer_infos.0.iter();
    let si = it.next().ok_or_else(|| Error::Cms("SignedData has no SignerInfo".into()))?;
    if it.next().is_some() {
        return Err(Error::Cms("more than one SignerInfo".into()));
    }
    Ok(si)
}

/// All certificates carried in the SignedData, DER.
pub(crate) fn embedded_certs(sd: &SignedData) -> Result<Vec<x509_cert::Certificate>> {
    let mut out = Vec::new();
    if let Some(set) = &sd.certificates {
        for c in set.0.iter() {
            if let CertificateChoices::Certificate(cert) = c {
                out.push(cert.clone());
            }
        }
    }
    Ok(out)
}

/// The certificates of a CMS (or time-stamp token), DER.
#[derive(Debug, Clone, Default)]
pub struct CarriedCertificates {
    /// Each signer's certificate, when the CMS carries it.
    pub signers: Vec<Vec<u8>>,
    /// Every certificate the CMS carries (the signers' among them).
    pub all: Vec<Vec<u8>>,
}

/// The certificate of each signer of a CMS (or time-stamp token) and every certificate it
/// carries, read without checking the signature: for gathering validation data of
/// signatures already in a document, which are verified elsewhere (a token over SHA-512 or
/// a co-signer's CMS is no less in need of its chain's revocation data).
pub fn signer_certificates(cms_der: &[u8]) -> Result<CarriedCertificates> {
    let sd = parse_signed_data(cms_der)?;
    let mut signers = Vec::new();
    for si in sd.signer_infos.0.iter() {
        if let Some(cert) = signer_cert(&sd, si)? {
            signers.push(cert.to_der()?);
        }
    }
    let all = embedded_certs(&sd)?.iter().map(|c| c.to_der().map_err(Error::from)).collect::<Result<_>>()?;
    Ok(CarriedCertificates { signers, all })
}

/// Find the signer certificate by SignerIdentifier.
pub(crate) fn find_signer_cert(sd: &SignedData, si: &SignerInfo) -> Result<x509_cert::Certificate> {
    signer_cert(sd, si)?.ok_or_else(|| Error::Cms("signer certificate is not included in the CMS".into()))
}

/// The certificate the SignerInfo names, when the CMS carries it (`None`: it does not; an
/// error: the certificates cannot be read).
pub(crate) fn signer_cert(sd: &SignedData, si: &SignerInfo) -> Result<Option<x509_cert::Certificate>> {
    let certs = embedded_certs(sd)?;
    Ok(certs.into_iter().find(|c| match &si.sid {
        SignerIdentifier::IssuerAndSerialNumber(ias) => {
            c.tbs_certificate.issuer == ias.issuer && c.tbs_certificate.serial_number == ias.serial_number
        }
        SignerIdentifier::SubjectKeyIdentifier(ski) => subject_key_id(c).as_deref() == Some(ski.0.as_bytes()),
    }))
}

/// CAdES (EN 319 122-1 §5.2.2.3): the signingCertificateV2 attribute binds the signature to
/// its certificate, so a signature cannot be passed off as another certificate's (a substituted
/// certificate of the same key). When present, its first ESSCertIDv2 must be the digest of the
/// certificate that verifies the signature, and name that certificate's issuer and serial
/// when it names them. Absent, there is nothing to compare (PAdES B-B requires it; plain CMS
/// does not).
pub(crate) fn signing_certificate_matches(si: &SignerInfo, cert: &x509_cert::Certificate) -> bool {
    let Some(attrs) = si.signed_attrs.as_ref() else { return true };
    match signing_certificate_v2_ref(attrs) {
        Ok(Some(reference)) => reference.names(cert),
        Ok(None) => true,
        Err(_) => false,
    }
}

/// The first certificate an ESS signingCertificate(V2) attribute names (RFC 2634 §5.4,
/// RFC 5035): the one whose key made the signature, by hash and optionally issuer and serial.
#[derive(Debug)]
pub(crate) struct EssCertRef {
    hash: HashAlg,
    cert_hash: Vec<u8>,
    issuer_serial: Option<IssuerSerial>,
}

impl EssCertRef {
    /// Whether `cert` is the certificate referred to.
    pub(crate) fn names(&self, cert: &x509_cert::Certificate) -> bool {
        let Ok(der) = cert.to_der() else { return false };
        let names_it = self.issuer_serial.as_ref().is_none_or(|named| {
            named.serial_number == cert.tbs_certificate.serial_number
                && named
                    .issuer
                    .iter()
                    .any(|g| matches!(g, GeneralName::DirectoryName(n) if *n == cert.tbs_certificate.issuer))
        });
        self.hash.digest(&der) == self.cert_hash && names_it
    }
}

/// The signingCertificateV2 reference, if the attribute is there; an error if it cannot be
/// read or names no certificate.
pub(crate) fn signing_certificate_v2_ref(attrs: &SetOfVec<Attribute>) -> Result<Option<EssCertRef>> {
    let Some(value) = attr_value(attrs, &oid::ID_AA_SIGNING_CERTIFICATE_V2)? else { return Ok(None) };
    let reference = value.decode_as::<SigningCertificateV2>()?;
    let first = reference
        .certs
        .into_iter()
        .next()
        .ok_or_else(|| Error::Cms("signingCertificateV2 names no certificate".into()))?;
    let hash = match &first.hash_algorithm {
        None => HashAlg::Sha256,
        Some(alg) => HashAlg::from_oid(&alg.oid)
            .ok_or_else(|| Error::Cms(format!("signingCertificateV2 hash algorithm {} is not supported", alg.oid)))?,
    };
    Ok(Some(EssCertRef { hash, cert_hash: first.cert_hash.as_bytes().to_vec(), issuer_serial: first.issuer_serial }))
}

/// The signingCertificate (version 1, SHA-1) reference, if the attribute is there.
pub(crate) fn signing_certificate_v1_ref(attrs: &SetOfVec<Attribute>) -> Result<Option<EssCertRef>> {
    let Some(value) = attr_value(attrs, &oid::ID_AA_SIGNING_CERTIFICATE)? else { return Ok(None) };
    let reference = value.decode_as::<SigningCertificate>()?;
    let first = reference
        .certs
        .into_iter()
        .next()
        .ok_or_else(|| Error::Cms("signingCertificate names no certificate".into()))?;
    Ok(Some(EssCertRef {
        hash: HashAlg::Sha1,
        cert_hash: first.cert_hash.as_bytes().to_vec(),
        issuer_serial: first.issuer_serial,
    }))
}

fn subject_key_id(cert: &x509_cert::Certificate) -> Option<Vec<u8>> {
    let exts = cert.tbs_certificate.extensions.as_ref()?;
    let ext = exts.iter().find(|e| e.extn_id == const_oid::db::rfc5280::ID_CE_SUBJECT_KEY_IDENTIFIER)?;
    let ski = x509_cert::ext::pkix::SubjectKeyIdentifier::from_der(ext.extn_value.as_bytes()).ok()?;
    Some(ski.0.as_bytes().to_vec())
}

/// The single value of a signed attribute, if present. More than one value is malformed.
pub(crate) fn attr_value<'a>(attrs: &'a SetOfVec<Attribute>, oid: &ObjectIdentifier) -> Result<Option<&'a Any>> {
    let Some(attr) = attrs.iter().find(|a| &a.oid == oid) else {
        return Ok(None);
    };
    let mut values = attr.values.iter();
    let v = values.next();
    if values.next().is_some() || v.is_none() {
        return Err(Error::Cms(format!("attribute {oid} must have exactly one value")));
    }
    Ok(v)
}

/// Verify one SignerInfo: signed attributes present and consistent, signature valid.
/// If `content` is given (attached or detached data), messageDigest is checked against it.
pub(crate) fn check_signer_info(sd: &SignedData, si: &SignerInfo, content: Option<&[u8]>) -> Result<SignerSummary> {
    let hash = HashAlg::from_oid(&si.digest_alg.oid)
        .ok_or_else(|| Error::Cms(format!("unsupported digest algorithm {}", si.digest_alg.oid)))?;
    let attrs = si.signed_attrs.as_ref().ok_or_else(|| Error::Cms("signed attributes are missing".into()))?;
    let ct = attr_value(attrs, &oid::ID_CONTENT_TYPE)?
        .ok_or_else(|| Error::Cms("contentType attribute missing".into()))?
        .decode_as::<ObjectIdentifier>()?;
    if ct != sd.encap_content_info.econtent_type {
        return Err(Error::Cms("contentType attribute does not match eContentType".into()));
    }
    let md = attr_value(attrs, &oid::ID_MESSAGE_DIGEST)?
        .ok_or_else(|| Error::Cms("messageDigest attribute missing".into()))?
        .decode_as::<OctetString>()?;
    if let Some(data) = content
        && hash.digest(data) != md.as_bytes()
    {
        return Err(Error::Verify("messageDigest does not match the content".into()));
    }
    let cert = find_signer_cert(sd, si)?;
    let signed_bytes = attrs.to_der()?;
    public_key::verify_signature(
        &cert.tbs_certificate.subject_public_key_info,
        &si.signature_algorithm,
        hash,
        &signed_bytes,
        si.signature.as_bytes(),
    )?;
    summarize(sd, si, &cert, md.as_bytes())
}

fn summarize(sd: &SignedData, si: &SignerInfo, cert: &x509_cert::Certificate, md: &[u8]) -> Result<SignerSummary> {
    let attrs = si.signed_attrs.as_ref();
    let signing_time = match attrs {
        Some(a) => attr_value(a, &oid::ID_SIGNING_TIME)?
            .map(decode_any::<x509_cert::time::Time>)
            .transpose()?
            .map(|t| format_time(t.to_unix_duration())),
        None => None,
    };
    let has_sc2 = match attrs {
        Some(a) => attr_value(a, &oid::ID_AA_SIGNING_CERTIFICATE_V2)?.is_some(),
        None => false,
    };
    let has_ts =
        si.unsigned_attrs.as_ref().is_some_and(|u| u.iter().any(|a| a.oid == oid::ID_AA_SIGNATURE_TIMESTAMP_TOKEN));
    let cert_der = cert.to_der()?;
    let others =
        embedded_certs(sd)?.iter().filter(|c| *c != cert).map(|c| c.to_der()).collect::<der::Result<Vec<_>>>()?;
    Ok(SignerSummary {
        subject: cert.tbs_certificate.subject.to_string(),
        common_name: pki::name_common_name(&cert.tbs_certificate.subject),
        issuer: cert.tbs_certificate.issuer.to_string(),
        serial_hex: hex::encode(cert.tbs_certificate.serial_number.as_bytes()),
        cert_der,
        other_certs_der: others,
        signing_time,
        message_digest_hex: hex::encode(md),
        digest_algorithm: si.digest_alg.oid.to_string(),
        signature_algorithm: si.signature_algorithm.oid.to_string(),
        has_signature_timestamp: has_ts,
        has_signing_certificate_v2: has_sc2,
    })
}

/// Decode a CHOICE (or any type) from an `Any` by re-encoding it: `decode_as` only works
/// for types with a fixed tag.
pub(crate) fn decode_any<T: for<'a> Decode<'a>>(v: &Any) -> Result<T> {
    Ok(T::from_der(&v.to_der()?)?)
}

/// RFC 3339 UTC string for a UNIX duration.
pub(crate) fn format_time(d: std::time::Duration) -> String {
    let secs = i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
    OffsetDateTime::from_unix_timestamp(secs)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_else(|| format!("@{secs}"))
}

/// Signer info summary of an attached or detached CMS, checking the content if given.
/// For attached CMS without `content`, the encapsulated content is used.
pub fn check_cms(cms_der: &[u8], detached_content: Option<&[u8]>) -> Result<SignerSummary> {
    let sd = parse_signed_data(cms_der)?;
    let si = single_signer(&sd)?;
    let attached = sd.encap_content_info.econtent.as_ref().map(|a| a.value().to_vec());
    let content = match (detached_content, attached.as_deref()) {
        (Some(d), _) => Some(d),
        (None, Some(a)) => Some(a),
        (None, None) => None,
    };
    check_signer_info(&sd, si, content)
}

/// The signature values of all SignerInfos (what a signature time-stamp hashes).
pub fn signature_values(cms_der: &[u8]) -> Result<Vec<Vec<u8>>> {
    let sd = parse_signed_data(cms_der)?;
    Ok(sd.signer_infos.0.iter().map(|si| si.signature.as_bytes().to_vec()).collect())
}

/// The encapsulated content of an attached CMS.
pub fn encapsulated_content(cms_der: &[u8]) -> Result<Option<Vec<u8>>> {
    let sd = parse_signed_data(cms_der)?;
    Ok(sd.encap_content_info.econtent.map(|a| a.value().to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pki::{KeyAlgo, LocalCa};
    use crate::signer::LocalKeySigner;

    fn signer() -> Result<LocalKeySigner> {
        let ca = LocalCa::generate_with("CA", KeyAlgo::EcP256)?;
        let ee = ca.issue_signer("S", KeyAlgo::EcP256)?;
        LocalKeySigner::from_pkcs8(&ee.key_pkcs8_der, &ee.cert_der, vec![ca.cert_der().to_vec()])
    }

    #[test]
    fn deferred_roundtrip_and_check() -> Result<()> {
        let s = signer()?;
        let digest = pki::sha256(b"doc");
        let prepared = prepare_signed_attrs(&digest, s.certificate_der(), s.chain_der(), &CmsOptions::pades())?;
        let json = serde_json::to_string(&prepared).map_err(|e| Error::Cms(e.to_string()))?;
        let back: SignedAttrs = serde_json::from_str(&json).map_err(|e| Error::Cms(e.to_string()))?;
        let sig = s.sign(&back.der_to_sign)?;
        let cms = assemble(&back, &sig)?;
        let summary = check_external_cms(&cms, &digest)?;
        assert!(summary.signing_time.is_none());
        assert!(summary.has_signing_certificate_v2);
        assert!(check_external_cms(&cms, &pki::sha256(b"other")).is_err());
        // A wrong signature is refused at assembly time.
        assert!(assemble(&back, &sig[..sig.len() - 1]).is_err());
        assert!(estimate_der_len(&back)? >= cms.len());
        // Zero padding after the DER (PDF placeholder) is tolerated.
        let mut padded = cms.clone();
        padded.extend_from_slice(&[0u8; 100]);
        check_external_cms(&padded, &digest)?;
        Ok(())
    }

    #[test]
    fn garbage_never_panics() {
        let d = [0u8; 32];
        for input in [&b""[..], b"\x30", b"\x30\x80", b"\x30\x03\x06\x01\x00", b"\xff\xff\xff"] {
            assert!(check_external_cms(input, &d).is_err());
            assert!(check_cms(input, None).is_err());
        }
    }
}
