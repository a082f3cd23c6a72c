//! Keys and certificates: a local CA (development, tests, `signet ca init`), self-signed
//! RSA certificates, PKCS#12 import/export and PEM/DER helpers.
//!
//! Everything crosses this module's boundary as DER bytes (`Vec<u8>`), so callers never see
//! rcgen, p12-keystore (der 0.8 tree) or x509-cert types unless they want to.

use std::time::Duration;

use aws_lc_rs::encoding::AsDer;
use aws_lc_rs::signature::{ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair, KeyPair as _, RsaKeyPair};
use der::asn1::Ia5String;
use der::{Decode, Encode};
use rcgen::{
    BasicConstraints, CertificateParams, CrlDistributionPoint, CustomExtension, DnType, ExtendedKeyUsagePurpose, IsCa,
    Issuer, KeyPair, KeyUsagePurpose, RsaKeySize, SerialNumber,
};
use time::OffsetDateTime;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::ext::pkix::{AccessDescription, AuthorityInfoAccessSyntax, ExtendedKeyUsage};

pub use crate::chain::parse_cert;
use crate::{Error, Result};

/// When a certificate stops being valid (its notAfter), in seconds since the Unix epoch.
pub fn not_after_unix(cert_der: &[u8]) -> Result<u64> {
    let cert = x509_cert::Certificate::from_der(cert_der).map_err(|e| Error::Encoding(format!("certificate: {e}")))?;
    Ok(cert.tbs_certificate.validity.not_after.to_unix_duration().as_secs())
}

/// Whether a certificate can make document signatures at `now` (Unix seconds): not a CA, valid
/// now, and a key usage (when present) that allows digitalSignature or nonRepudiation. What a
/// signer is offered from a token holding several certificates.
pub fn is_signing_certificate(cert_der: &[u8], now: u64) -> bool {
    use x509_cert::ext::pkix::{BasicConstraints, KeyUsage, KeyUsages};
    let Ok(cert) = x509_cert::Certificate::from_der(cert_der) else { return false };
    let validity = &cert.tbs_certificate.validity;
    let valid_now = validity.not_before.to_unix_duration().as_secs() <= now
        && now <= validity.not_after.to_unix_duration().as_secs();
    let extensions = cert.tbs_certificate.extensions.as_deref().unwrap_or_default();
    let extension = |oid| extensions.iter().find(|e| e.extn_id == oid).map(|e| e.extn_value.as_bytes());
    let is_ca = extension(const_oid::db::rfc5280::ID_CE_BASIC_CONSTRAINTS)
        .and_then(|v| BasicConstraints::from_der(v).ok())
        .is_some_and(|b| b.ca);
    let usage_allows = extension(const_oid::db::rfc5280::ID_CE_KEY_USAGE)
        .and_then(|v| KeyUsage::from_der(v).ok())
        .is_none_or(|ku| ku.0.contains(KeyUsages::DigitalSignature) || ku.0.contains(KeyUsages::NonRepudiation));
    valid_now && !is_ca && usage_allows
}

/// Whether a certificate is a CA certificate (basicConstraints with cA true): a chain
/// certificate rather than a signer's.
pub fn is_ca_certificate(cert_der: &[u8]) -> Result<bool> {
    use x509_cert::ext::pkix::BasicConstraints;
    let cert = x509_cert::Certificate::from_der(cert_der).map_err(|e| Error::Encoding(format!("certificate: {e}")))?;
    let extensions = cert.tbs_certificate.extensions.as_deref().unwrap_or_default();
    Ok(extensions
        .iter()
        .find(|e| e.extn_id == const_oid::db::rfc5280::ID_CE_BASIC_CONSTRAINTS)
        .and_then(|e| BasicConstraints::from_der(e.extn_value.as_bytes()).ok())
        .is_some_and(|b| b.ca))
}

/// Key algorithm of a generated key pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum KeyAlgo {
    Rsa2048,
    Rsa3072,
    Rsa4096,
    EcP256,
    EcP384,
}

/// A certificate with its private key, both DER.
#[derive(Clone)]
pub struct IssuedCert {
    /// X.509 certificate, DER.
    pub cert_der: Vec<u8>,
    /// Private key, PKCS#8 DER.
    pub key_pkcs8_der: Vec<u8>,
}

impl std::fmt::Debug for IssuedCert {
    // Never print key material.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IssuedCert").field("cert_der_len", &self.cert_der.len()).finish_non_exhaustive()
    }
}

impl IssuedCert {
    /// Certificate as PEM ("CERTIFICATE").
    pub fn cert_pem(&self) -> String {
        cert_der_to_pem(&self.cert_der)
    }
    /// Private key as PEM ("PRIVATE KEY", PKCS#8, unencrypted).
    pub fn key_pem(&self) -> String {
        key_der_to_pem(&self.key_pkcs8_der)
    }
}

/// Private key + certificate + the rest of the chain, as read from a PKCS#12 file.
#[derive(Clone)]
pub struct KeyAndChain {
    /// PKCS#8 DER.
    pub key_pkcs8_der: Vec<u8>,
    /// End-entity certificate, DER.
    pub cert_der: Vec<u8>,
    /// Issuer certificates (leaf excluded), nearest issuer first, DER.
    pub chain_der: Vec<Vec<u8>>,
}

impl std::fmt::Debug for KeyAndChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyAndChain")
            .field("cert_der_len", &self.cert_der.len())
            .field("chain_len", &self.chain_der.len())
            .finish_non_exhaustive()
    }
}

/// Optional extensions for issued end-entity certificates (B-LT tests need AIA/CRL-DP).
#[derive(Debug, Clone, Default)]
pub struct IssueOptions {
    /// AIA id-ad-ocsp URL.
    pub ocsp_url: Option<String>,
    /// AIA id-ad-caIssuers URL.
    pub ca_issuers_url: Option<String>,
    /// CRL distribution point URL.
    pub crl_url: Option<String>,
    /// Validity from now; default 2 years.
    pub validity: Option<Duration>,
    /// Extra DN: email address (optional).
    pub email: Option<String>,
    /// Extra DN: organisation (O), e.g. the tenant a sealing certificate belongs to.
    pub organization: Option<String>,
    /// Extra DN: country (C), two letters, e.g. `IN` for eSign signer certificates.
    pub country: Option<String>,
}

const DEFAULT_EE_VALIDITY: Duration = Duration::from_secs(2 * 365 * 24 * 3600);
const CA_VALIDITY: Duration = Duration::from_secs(10 * 365 * 24 * 3600);
/// Backdate notBefore a little so that clock skew between machines does not make fresh
/// certificates "not yet valid".
const BACKDATE: Duration = Duration::from_secs(3600);

/// OIDs used in hand-made extensions.
mod oids {
    pub const EKU: &[u64] = &[2, 5, 29, 37];
    pub const AIA: &[u64] = &[1, 3, 6, 1, 5, 5, 7, 1, 1];
    pub const OCSP_NOCHECK: &[u64] = &[1, 3, 6, 1, 5, 5, 7, 48, 1, 5];
}

/// A local certificate authority (RSA-3072 or ECDSA P-256) that issues signer, TSA and OCSP
/// responder certificates. Meant for development, tests and `signet ca init`.
pub struct LocalCa {
    issuer: Issuer<'static, KeyPair>,
    cert_der: Vec<u8>,
}

impl std::fmt::Debug for LocalCa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalCa").field("cert_der_len", &self.cert_der.len()).finish_non_exhaustive()
    }
}

impl LocalCa {
    /// A new self-signed RSA-3072 root CA valid for 10 years.
    pub fn generate(common_name: &str) -> Result<LocalCa> {
        Self::generate_with(common_name, KeyAlgo::Rsa3072)
    }

    /// A new self-signed root CA with the given key algorithm, valid for 10 years.
    pub fn generate_with(common_name: &str, algo: KeyAlgo) -> Result<LocalCa> {
        Self::generate_valid_for(common_name, algo, CA_VALIDITY)
    }

    /// [`generate_with`](Self::generate_with) valid for `validity` from now: a root that must
    /// outlive the usual ten years (a TSA whose time-stamps are validated decades later).
    pub fn generate_valid_for(common_name: &str, algo: KeyAlgo, validity: Duration) -> Result<LocalCa> {
        let key = generate_key(algo)?;
        let mut params = base_params(common_name, validity)?;
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages =
            vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
        let cert = params.self_signed(&key)?;
        let cert_der = cert.der().to_vec();
        Ok(LocalCa { issuer: Issuer::new(params, key), cert_der })
    }

    /// A root CA (ECDSA P-256) whose name constraints permit loopback names only (`localhost`,
    /// 127.0.0.0/8, ::1): a CA that a user trusts for a program on their own computer, which
    /// cannot vouch for any other site even if its key were stolen.
    pub fn generate_loopback_only(common_name: &str) -> Result<LocalCa> {
        use rcgen::{CidrSubnet, GeneralSubtree, NameConstraints};
        use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
        let key = generate_key(KeyAlgo::EcP256)?;
        let mut params = base_params(common_name, CA_VALIDITY)?;
        params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        params.name_constraints = Some(NameConstraints {
            permitted_subtrees: vec![
                GeneralSubtree::DnsName("localhost".into()),
                GeneralSubtree::IpAddress(CidrSubnet::from_addr_prefix(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 0)), 8)),
                GeneralSubtree::IpAddress(CidrSubnet::from_addr_prefix(IpAddr::V6(Ipv6Addr::LOCALHOST), 128)),
            ],
            excluded_subtrees: Vec::new(),
        });
        let cert = params.self_signed(&key)?;
        let cert_der = cert.der().to_vec();
        Ok(LocalCa { issuer: Issuer::new(params, key), cert_der })
    }

    /// Load an existing CA from its certificate and PKCS#8 (or PKCS#1/SEC1) private key, PEM.
    pub fn from_pem(cert_pem: &str, key_pem: &str) -> Result<LocalCa> {
        let cert_der = cert_pem_to_der(cert_pem)?;
        let key_der = private_key_from_pem(key_pem)?;
        Self::from_der(&cert_der, &key_der)
    }

    /// Load an existing CA from DER certificate and PKCS#8 DER key.
    pub fn from_der(cert_der: &[u8], key_pkcs8_der: &[u8]) -> Result<LocalCa> {
        check_key_matches_cert(cert_der, &public_key_spki_from_pkcs8(key_pkcs8_der)?)?;
        let key = rcgen_key_from_pkcs8(key_pkcs8_der)?;
        let issuer = Issuer::from_ca_cert_der(&cert_der.to_vec().into(), key)?;
        Ok(LocalCa { issuer, cert_der: cert_der.to_vec() })
    }

    /// CA certificate, PEM.
    pub fn cert_pem(&self) -> String {
        cert_der_to_pem(&self.cert_der)
    }

    /// CA private key, PKCS#8 PEM (unencrypted: protect the file).
    pub fn key_pem(&self) -> String {
        self.issuer.key().serialize_pem()
    }

    /// CA private key, PKCS#8 DER.
    pub fn key_der(&self) -> Vec<u8> {
        self.issuer.key().serialize_der()
    }

    /// CA certificate, DER.
    pub fn cert_der(&self) -> &[u8] {
        &self.cert_der
    }

    /// Issue a document-signing certificate: KeyUsage digitalSignature + nonRepudiation.
    pub fn issue_signer(&self, common_name: &str, key: KeyAlgo) -> Result<IssuedCert> {
        self.issue_signer_with(common_name, key, &IssueOptions::default())
    }

    /// Like [`issue_signer`](Self::issue_signer) with AIA/CRL-DP/validity options.
    pub fn issue_signer_with(&self, common_name: &str, key: KeyAlgo, opts: &IssueOptions) -> Result<IssuedCert> {
        let mut params = ee_params(common_name, opts)?;
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::ContentCommitment];
        self.sign_params(params, key)
    }

    /// Issue a TSA certificate (RSA-2048): critical EKU timeStamping only, as RFC 3161 §2.3
    /// requires (openssl ts refuses a TSA certificate without it).
    pub fn issue_tsa(&self, common_name: &str) -> Result<IssuedCert> {
        self.issue_tsa_with(common_name, &IssueOptions::default())
    }

    /// Like [`issue_tsa`](Self::issue_tsa) with AIA/CRL-DP options.
    pub fn issue_tsa_with(&self, common_name: &str, opts: &IssueOptions) -> Result<IssuedCert> {
        self.issue_tsa_for(common_name, KeyAlgo::Rsa2048, opts)
    }

    /// Like [`issue_tsa_with`](Self::issue_tsa_with) with a key of type `key` (TSAs sign with
    /// RSA and ECDSA keys alike).
    pub fn issue_tsa_for(&self, common_name: &str, key: KeyAlgo, opts: &IssueOptions) -> Result<IssuedCert> {
        let mut params = ee_params(common_name, opts)?;
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::ContentCommitment];
        params.custom_extensions.push(critical_eku(const_oid::db::rfc5280::ID_KP_TIME_STAMPING)?);
        self.sign_params(params, key)
    }

    /// Issue an OCSP responder certificate (EKU OCSPSigning + id-pkix-ocsp-nocheck).
    pub fn issue_ocsp_responder(&self, common_name: &str) -> Result<IssuedCert> {
        let mut params = base_params(common_name, DEFAULT_EE_VALIDITY)?;
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::OcspSigning];
        // The extension value is an ASN.1 NULL.
        params.custom_extensions.push(CustomExtension::from_oid_content(oids::OCSP_NOCHECK, vec![0x05, 0x00]));
        params.use_authority_key_identifier_extension = true;
        self.sign_params(params, KeyAlgo::Rsa2048)
    }

    /// Issue a TLS server certificate (tests of https TSA/OCSP/CRL endpoints). `names` are
    /// DNS names or IP addresses.
    pub fn issue_tls_server(&self, names: &[&str]) -> Result<IssuedCert> {
        let first = names.first().ok_or_else(|| Error::Pki("a TLS certificate needs at least one name".into()))?;
        let mut params = base_params(first, DEFAULT_EE_VALIDITY)?;
        let with_sans = CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>())?;
        params.subject_alt_names = with_sans.subject_alt_names;
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.use_authority_key_identifier_extension = true;
        self.sign_params(params, KeyAlgo::EcP256)
    }

    /// Issue a subordinate CA certificate (pathLen 0) — for chain-building tests.
    pub fn issue_intermediate(&self, common_name: &str, key: KeyAlgo) -> Result<IssuedCert> {
        let mut params = base_params(common_name, CA_VALIDITY)?;
        params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        params.use_authority_key_identifier_extension = true;
        self.sign_params(params, key)
    }

    /// Issue a CRL (valid `validity` from now) listing the given certificate serial numbers
    /// (big-endian bytes as in the certificate) as revoked now.
    pub fn issue_crl(&self, revoked_serials: &[Vec<u8>], validity: Duration) -> Result<Vec<u8>> {
        let revoked_a_while_ago = std::time::SystemTime::now() - BACKDATE / 2;
        let revoked: Vec<(Vec<u8>, std::time::SystemTime)> =
            revoked_serials.iter().map(|s| (s.clone(), revoked_a_while_ago)).collect();
        self.issue_crl_revoked_at(&revoked, validity)
    }

    /// A CRL that lists each serial as revoked at its own time (whether a certificate was
    /// revoked before or after a time-stamped signing is what validation must tell apart).
    pub fn issue_crl_revoked_at(
        &self,
        revoked: &[(Vec<u8>, std::time::SystemTime)],
        validity: Duration,
    ) -> Result<Vec<u8>> {
        let now = OffsetDateTime::now_utc();
        let revoked_certs = revoked
            .iter()
            .map(|(s, at)| rcgen::RevokedCertParams {
                serial_number: SerialNumber::from_slice(s),
                revocation_time: OffsetDateTime::from(*at),
                reason_code: Some(rcgen::RevocationReason::KeyCompromise),
                invalidity_date: None,
            })
            .collect();
        let params = rcgen::CertificateRevocationListParams {
            this_update: now - BACKDATE,
            next_update: now + validity,
            crl_number: random_serial()?,
            issuing_distribution_point: None,
            revoked_certs,
            key_identifier_method: rcgen::KeyIdMethod::Sha256,
        };
        Ok(params.signed_by(&self.issuer)?.der().to_vec())
    }

    /// Like [`issue_signer_with`](Self::issue_signer_with) for a key held elsewhere (an HSM):
    /// certifies the public key `spki_der` and answers the certificate, DER.
    pub fn issue_signer_for_public_key(
        &self,
        common_name: &str,
        spki_der: &[u8],
        opts: &IssueOptions,
    ) -> Result<Vec<u8>> {
        let mut params = ee_params(common_name, opts)?;
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::ContentCommitment];
        let public_key = rcgen::SubjectPublicKeyInfo::from_der(spki_der)?;
        Ok(params.signed_by(&public_key, &self.issuer)?.der().to_vec())
    }

    fn sign_params(&self, params: CertificateParams, algo: KeyAlgo) -> Result<IssuedCert> {
        let key = generate_key(algo)?;
        let cert = params.signed_by(&key, &self.issuer)?;
        Ok(IssuedCert { cert_der: cert.der().to_vec(), key_pkcs8_der: key.serialize_der() })
    }
}

/// A self-signed RSA certificate (used for the gateway encryption key pair).
/// `bits` must be 2048, 3072 or 4096.
pub fn self_signed_rsa(common_name: &str, bits: usize) -> Result<IssuedCert> {
    let algo = match bits {
        2048 => KeyAlgo::Rsa2048,
        3072 => KeyAlgo::Rsa3072,
        4096 => KeyAlgo::Rsa4096,
        other => return Err(Error::Pki(format!("unsupported RSA key size {other}"))),
    };
    let key = generate_key(algo)?;
    let mut params = base_params(common_name, CA_VALIDITY)?;
    params.key_usages =
        vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::KeyEncipherment, KeyUsagePurpose::DataEncipherment];
    let cert = params.self_signed(&key)?;
    Ok(IssuedCert { cert_der: cert.der().to_vec(), key_pkcs8_der: key.serialize_der() })
}

fn generate_key(algo: KeyAlgo) -> Result<KeyPair> {
    let key = match algo {
        KeyAlgo::Rsa2048 => KeyPair::generate_rsa_for(&rcgen::PKCS_RSA_SHA256, RsaKeySize::_2048),
        KeyAlgo::Rsa3072 => KeyPair::generate_rsa_for(&rcgen::PKCS_RSA_SHA256, RsaKeySize::_3072),
        KeyAlgo::Rsa4096 => KeyPair::generate_rsa_for(&rcgen::PKCS_RSA_SHA256, RsaKeySize::_4096),
        KeyAlgo::EcP256 => KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256),
        KeyAlgo::EcP384 => KeyPair::generate_for(&rcgen::PKCS_ECDSA_P384_SHA384),
    };
    Ok(key?)
}

/// rcgen picks SHA-256 for RSA keys and P-256/SHA-256 for EC keys from a PKCS#8 blob.
fn rcgen_key_from_pkcs8(key_pkcs8_der: &[u8]) -> Result<KeyPair> {
    KeyPair::try_from(key_pkcs8_der).map_err(|e| Error::Pki(format!("unusable CA key: {e}")))
}

fn base_params(common_name: &str, validity: Duration) -> Result<CertificateParams> {
    if common_name.trim().is_empty() {
        return Err(Error::Pki("common name must not be empty".into()));
    }
    let mut params = CertificateParams::default();
    params.distinguished_name = rcgen::DistinguishedName::new();
    params.distinguished_name.push(DnType::CommonName, common_name);
    let now = OffsetDateTime::now_utc();
    params.not_before = now - BACKDATE;
    params.not_after = now + validity;
    params.serial_number = Some(random_serial()?);
    Ok(params)
}

fn ee_params(common_name: &str, opts: &IssueOptions) -> Result<CertificateParams> {
    let mut params = base_params(common_name, opts.validity.unwrap_or(DEFAULT_EE_VALIDITY))?;
    if let Some(country) = &opts.country {
        if country.len() != 2 || !country.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(Error::Pki(format!("country {country:?} is not a two-letter code")));
        }
        // RFC 5280 Appendix A: countryName is a PrintableString.
        let printable = rcgen::string::PrintableString::try_from(country.to_ascii_uppercase())?;
        params.distinguished_name.push(DnType::CountryName, rcgen::DnValue::PrintableString(printable));
    }
    if let Some(organization) = &opts.organization {
        params.distinguished_name.push(DnType::OrganizationName, organization.as_str());
    }
    if let Some(email) = &opts.email {
        params.distinguished_name.push(DnType::CustomDnType(vec![1, 2, 840, 113549, 1, 9, 1]), email.as_str());
    }
    params.use_authority_key_identifier_extension = true;
    if let Some(url) = &opts.crl_url {
        params.crl_distribution_points = vec![CrlDistributionPoint { uris: vec![url.clone()] }];
    }
    if opts.ocsp_url.is_some() || opts.ca_issuers_url.is_some() {
        params.custom_extensions.push(aia_extension(opts.ocsp_url.as_deref(), opts.ca_issuers_url.as_deref())?);
    }
    Ok(params)
}

/// 16 random bytes, top bit cleared so the INTEGER stays positive, never zero.
fn random_serial() -> Result<SerialNumber> {
    let mut bytes = [0u8; 16];
    aws_lc_rs::rand::fill(&mut bytes).map_err(|_| Error::Crypto("random generator failed".into()))?;
    bytes[0] = (bytes[0] & 0x7f) | 0x01;
    Ok(SerialNumber::from_slice(&bytes))
}

fn critical_eku(oid: const_oid::ObjectIdentifier) -> Result<CustomExtension> {
    let value = ExtendedKeyUsage(vec![oid]).to_der()?;
    let mut ext = CustomExtension::from_oid_content(oids::EKU, value);
    ext.set_criticality(true);
    Ok(ext)
}

fn aia_extension(ocsp: Option<&str>, ca_issuers: Option<&str>) -> Result<CustomExtension> {
    use const_oid::db::rfc5280::{ID_AD_CA_ISSUERS, ID_AD_OCSP};
    let mut descs = Vec::new();
    for (method, url) in [(ID_AD_OCSP, ocsp), (ID_AD_CA_ISSUERS, ca_issuers)] {
        if let Some(url) = url {
            descs.push(AccessDescription {
                access_method: method,
                access_location: GeneralName::UniformResourceIdentifier(Ia5String::new(url)?),
            });
        }
    }
    let value = AuthorityInfoAccessSyntax(descs).to_der()?;
    Ok(CustomExtension::from_oid_content(oids::AIA, value))
}

/// Refuse a CA key that does not belong to the CA certificate: issuing with it would produce
/// certificates that never verify.
fn check_key_matches_cert(cert_der: &[u8], spki_der: &[u8]) -> Result<()> {
    let cert = parse_cert(cert_der)?;
    let cert_spki = cert.tbs_certificate.subject_public_key_info.to_der()?;
    if cert_spki != spki_der {
        return Err(Error::Pki("private key does not match the certificate".into()));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// PKCS#12
// ---------------------------------------------------------------------------------------------

/// Hard cap on PKCS#12 input: real files are a few KB; this bounds work on hostile uploads.
const MAX_P12_LEN: usize = 1 << 20;

/// Read the first private key with its certificate chain from a PKCS#12 file.
/// Handles modern (PBES2/AES-256) and legacy (RC2-40, 3DES) encryption.
pub fn load_p12(bytes: &[u8], password: &str) -> Result<KeyAndChain> {
    if bytes.is_empty() {
        return Err(Error::Pkcs12("file is empty".into()));
    }
    if bytes.len() > MAX_P12_LEN {
        return Err(Error::Pkcs12("file is too large for a PKCS#12 key store".into()));
    }
    // p12-keystore is a third-party parser on hostile input; contain any panic in it.
    let parsed = std::panic::catch_unwind(|| p12_keystore::Pkcs12Archive::from_pkcs12(bytes, password))
        .map_err(|_| Error::Pkcs12("malformed PKCS#12 file".into()))?;
    let archive = parsed.map_err(p12_error)?;
    let certs: Vec<Vec<u8>> = archive.certs.iter().map(|c| c.cert.as_der().to_vec()).collect();
    if archive.keys.is_empty() {
        return Err(Error::Pkcs12("no private key in the file".into()));
    }
    // Pair key and certificate by public key rather than by localKeyId/friendlyName, which
    // some producers omit or get wrong.
    for key in &archive.keys {
        let key_der = key.key.as_der().to_vec();
        let Ok(key_spki) = public_key_spki_from_pkcs8(&key_der) else {
            continue;
        };
        let leaf = certs.iter().find(|c| {
            parse_cert(c)
                .ok()
                .and_then(|x| x.tbs_certificate.subject_public_key_info.to_der().ok())
                .is_some_and(|spki| spki == key_spki)
        });
        if let Some(leaf) = leaf {
            let mut chain = crate::chain::build_chain(leaf, &certs)?;
            chain.remove(0);
            return Ok(KeyAndChain { key_pkcs8_der: key_der, cert_der: leaf.clone(), chain_der: chain });
        }
    }
    Err(Error::Pkcs12("no certificate in the file matches its private key (or the key type is unsupported)".into()))
}

fn p12_error(e: p12_keystore::error::Error) -> Error {
    let msg = e.to_string();
    // Both a bad MAC and a bad decryption mean "wrong password" to a user.
    if msg.to_ascii_lowercase().contains("mac") {
        Error::Pkcs12("wrong password or corrupted file (MAC check failed)".into())
    } else {
        Error::Pkcs12(msg)
    }
}

/// Write a PKCS#12 file (PBES2/AES-256-CBC, HMAC-SHA256 MAC) holding the key, its certificate
/// and the chain (nearest issuer first).
pub fn write_p12(key_pkcs8_der: &[u8], cert_der: &[u8], chain_der: &[Vec<u8>], password: &str) -> Result<Vec<u8>> {
    use p12_keystore::{Certificate, KeyStore, KeyStoreEntry, PrivateKey, PrivateKeyChain};
    let key_spki = public_key_spki_from_pkcs8(key_pkcs8_der)?;
    check_key_matches_cert(cert_der, &key_spki)?;
    let key = PrivateKey::from_der(key_pkcs8_der).map_err(p12_error)?;
    let mut certs = vec![Certificate::from_der(cert_der).map_err(p12_error)?];
    for c in chain_der {
        certs.push(Certificate::from_der(c).map_err(p12_error)?);
    }
    // localKeyId links key and certificate bags; a digest of the certificate is conventional.
    let local_key_id = sha256(cert_der)[..20].to_vec();
    let alias = cert_common_name(cert_der).unwrap_or_else(|| "signer".to_string());
    let mut store = KeyStore::new();
    store.add_entry(&alias, KeyStoreEntry::PrivateKeyChain(PrivateKeyChain::new(local_key_id, key, certs)));
    store.writer(password).write().map_err(p12_error)
}

// ---------------------------------------------------------------------------------------------
// PEM / DER helpers
// ---------------------------------------------------------------------------------------------

/// DER certificate to PEM.
pub fn cert_der_to_pem(der: &[u8]) -> String {
    pem_encode("CERTIFICATE", der)
}

/// PKCS#8 DER key to PEM ("PRIVATE KEY").
pub fn key_der_to_pem(der: &[u8]) -> String {
    pem_encode("PRIVATE KEY", der)
}

fn pem_encode(label: &str, der: &[u8]) -> String {
    // Encoding DER we hold cannot fail except for an invalid label, which are constants here.
    der::pem::encode_string(label, der::pem::LineEnding::LF, der).unwrap_or_default()
}

/// The first certificate of a PEM text, as DER.
pub fn cert_pem_to_der(pem: &str) -> Result<Vec<u8>> {
    certs_from_pem_or_der(pem.as_bytes())?
        .into_iter()
        .next()
        .ok_or_else(|| Error::Encoding("no certificate in PEM".into()))
}

/// All certificates in a PEM bundle, or the single certificate of a DER file. Each is checked
/// to parse as X.509.
pub fn certs_from_pem_or_der(bytes: &[u8]) -> Result<Vec<Vec<u8>>> {
    let text_start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = text_start else {
        return Err(Error::Encoding("empty certificate input".into()));
    };
    let certs = if bytes[start] == 0x30 {
        vec![bytes[start..].to_vec()]
    } else {
        let mut out = Vec::new();
        for block in pem_blocks(bytes)? {
            if block.0 == "CERTIFICATE" {
                out.push(block.1);
            }
        }
        out
    };
    if certs.is_empty() {
        return Err(Error::Encoding("no certificate found".into()));
    }
    for c in &certs {
        parse_cert(c)?;
    }
    Ok(certs)
}

/// Split a text into its PEM blocks (label, DER), ignoring text between blocks.
/// The base64 of a PEM block, read as people paste it: any line length (openssl writes 64,
/// others one long line), CRLF or LF, RFC 1421 header lines (`Name: value`) skipped.
fn pem_body(body: &str) -> std::result::Result<Vec<u8>, String> {
    use base64::Engine as _;
    let text: String = body
        .lines()
        .filter(|line| !line.contains(':'))
        .flat_map(|line| line.chars().filter(|c| !c.is_ascii_whitespace()))
        .collect();
    base64::engine::general_purpose::STANDARD.decode(text).map_err(|e| e.to_string())
}

pub fn pem_blocks(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>> {
    let text = std::str::from_utf8(bytes).map_err(|_| Error::Encoding("PEM is not UTF-8".into()))?;
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(begin) = rest.find("-----BEGIN ") {
        let after = &rest[begin..];
        let label_end = after[11..].find("-----").ok_or_else(|| Error::Encoding("unterminated PEM header".into()))?;
        let label = &after[11..11 + label_end];
        let end_marker = format!("-----END {label}-----");
        let end =
            after.find(&end_marker).ok_or_else(|| Error::Encoding(format!("missing PEM end line for {label}")))?;
        let body = &after[11 + label_end + 5..end];
        out.push((
            label.to_string(),
            pem_body(body).map_err(|e| Error::Encoding(format!("bad PEM block {label}: {e}")))?,
        ));
        rest = &after[end + end_marker.len()..];
    }
    Ok(out)
}

/// A private key from PEM ("PRIVATE KEY", "RSA PRIVATE KEY" or "EC PRIVATE KEY") or DER,
/// normalised to PKCS#8 DER.
pub fn private_key_from_pem(pem: &str) -> Result<Vec<u8>> {
    let blocks = pem_blocks(pem.as_bytes())?;
    let (label, der) = blocks
        .into_iter()
        .find(|(l, _)| l.ends_with("PRIVATE KEY"))
        .ok_or_else(|| Error::Encoding("no private key in PEM".into()))?;
    match label.as_str() {
        "PRIVATE KEY" => private_key_to_pkcs8(&der),
        "RSA PRIVATE KEY" | "EC PRIVATE KEY" => private_key_to_pkcs8(&der),
        "ENCRYPTED PRIVATE KEY" => Err(Error::Pki("encrypted PEM keys are not supported; use PKCS#12".into())),
        other => Err(Error::Pki(format!("unsupported key type {other}"))),
    }
}

/// Normalise a DER private key (PKCS#8, PKCS#1 RSA or SEC1 EC P-256) to PKCS#8.
pub fn private_key_to_pkcs8(der: &[u8]) -> Result<Vec<u8>> {
    if let Ok(k) = RsaKeyPair::from_pkcs8(der) {
        return rsa_to_pkcs8(&k);
    }
    if EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, der).is_ok() {
        return Ok(der.to_vec());
    }
    if let Ok(k) = RsaKeyPair::from_der(der) {
        return rsa_to_pkcs8(&k);
    }
    if let Ok(k) = EcdsaKeyPair::from_private_key_der(&ECDSA_P256_SHA256_ASN1_SIGNING, der) {
        return k.to_pkcs8v1().map(|d| d.as_ref().to_vec()).map_err(|_| Error::Pki("cannot re-encode EC key".into()));
    }
    Err(Error::Pki("unsupported private key (expected RSA or ECDSA P-256, PKCS#8/PKCS#1/SEC1)".into()))
}

fn rsa_to_pkcs8(k: &RsaKeyPair) -> Result<Vec<u8>> {
    let d: aws_lc_rs::encoding::Pkcs8V1Der<'_> =
        k.as_der().map_err(|_| Error::Pki("cannot re-encode RSA key".into()))?;
    Ok(d.as_ref().to_vec())
}

/// The DER SubjectPublicKeyInfo of a PKCS#8 key (RSA or P-256).
pub fn public_key_spki_from_pkcs8(key_pkcs8_der: &[u8]) -> Result<Vec<u8>> {
    let info = pkcs8::PrivateKeyInfo::from_der(key_pkcs8_der)
        .map_err(|e| Error::Pki(format!("not a PKCS#8 private key: {e}")))?;
    let alg = info.algorithm.oid;
    if alg == const_oid::db::rfc5912::RSA_ENCRYPTION {
        let k = RsaKeyPair::from_pkcs8(key_pkcs8_der).map_err(|e| Error::Pki(format!("bad RSA key: {e}")))?;
        let pk: aws_lc_rs::encoding::PublicKeyX509Der<'_> =
            k.public_key().as_der().map_err(|_| Error::Pki("cannot encode RSA public key".into()))?;
        Ok(pk.as_ref().to_vec())
    } else if alg == const_oid::db::rfc5912::ID_EC_PUBLIC_KEY {
        let k = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, key_pkcs8_der)
            .map_err(|e| Error::Pki(format!("bad or unsupported EC key (P-256 only): {e}")))?;
        let pk: aws_lc_rs::encoding::PublicKeyX509Der<'_> =
            k.public_key().as_der().map_err(|_| Error::Pki("cannot encode EC public key".into()))?;
        Ok(pk.as_ref().to_vec())
    } else {
        Err(Error::Pki(format!("unsupported key algorithm {alg}")))
    }
}

/// [`parse_cert`], remembered per thread for the few certificates seen last.
///
/// Assembling one CMS signature reads the signer's certificate five or six times (algorithm,
/// signing-certificate attribute, issuer and serial, the signature check, the certificate set),
/// and a batch signs with the same certificate over and over; parsing it was a tenth of a
/// signature's work besides the RSA operation.
pub fn parsed_cert(der: &[u8]) -> Result<std::sync::Arc<x509_cert::Certificate>> {
    type Recent = Vec<(Vec<u8>, std::sync::Arc<x509_cert::Certificate>)>;
    const KEPT: usize = 8;
    thread_local! {
        static RECENT: std::cell::RefCell<Recent> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if let Some(hit) = RECENT.with_borrow(|recent| recent.iter().find(|(d, _)| d == der).map(|(_, c)| c.clone())) {
        return Ok(hit);
    }
    let cert = std::sync::Arc::new(parse_cert(der)?);
    RECENT.with_borrow_mut(|recent| {
        if recent.len() >= KEPT {
            recent.remove(0);
        }
        recent.push((der.to_vec(), cert.clone()));
    });
    Ok(cert)
}

/// The subject of a certificate as an RFC 4514 string (as verification reports name them).
pub fn cert_subject(cert_der: &[u8]) -> Option<String> {
    parse_cert(cert_der).ok().map(|cert| cert.tbs_certificate.subject.to_string())
}

/// The subject CN of a certificate, if any.
pub fn cert_common_name(cert_der: &[u8]) -> Option<String> {
    let cert = parsed_cert(cert_der).ok()?;
    name_common_name(&cert.tbs_certificate.subject)
}

/// The CN attribute of an X.501 name.
pub fn name_common_name(name: &x509_cert::name::Name) -> Option<String> {
    for rdn in name.0.iter() {
        for atv in rdn.0.iter() {
            if atv.oid == const_oid::db::rfc4519::CN {
                return any_to_string(&atv.value);
            }
        }
    }
    None
}

fn any_to_string(v: &der::Any) -> Option<String> {
    use der::asn1::{PrintableStringRef, Utf8StringRef};
    if let Ok(s) = v.decode_as::<Utf8StringRef<'_>>() {
        return Some(s.as_str().to_string());
    }
    if let Ok(s) = v.decode_as::<PrintableStringRef<'_>>() {
        return Some(s.as_str().to_string());
    }
    std::str::from_utf8(v.value()).ok().map(str::to_string)
}

/// SHA-256 via aws-lc-rs.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    let d = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, data);
    let mut out = [0u8; 32];
    out.copy_from_slice(d.as_ref());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ca_roundtrip_from_pem() -> Result<()> {
        let ca = LocalCa::generate_with("Test CA", KeyAlgo::EcP256)?;
        let again = LocalCa::from_pem(&ca.cert_pem(), &ca.key_pem())?;
        assert_eq!(again.cert_der(), ca.cert_der());
        let ee = again.issue_signer("Alice", KeyAlgo::EcP256)?;
        assert_eq!(cert_common_name(&ee.cert_der).as_deref(), Some("Alice"));
        Ok(())
    }

    #[test]
    fn pem_is_read_whatever_its_line_length() -> Result<()> {
        use base64::Engine as _;
        let ca = LocalCa::generate_with("Test CA", KeyAlgo::EcP256)?;
        let one_line = base64::engine::general_purpose::STANDARD.encode(ca.cert_der());
        let pasted =
            format!("junk before\r\n-----BEGIN CERTIFICATE-----\r\n{one_line}\r\n-----END CERTIFICATE-----\r\n");
        assert_eq!(certs_from_pem_or_der(pasted.as_bytes())?, vec![ca.cert_der().to_vec()]);
        assert_eq!(certs_from_pem_or_der(ca.cert_pem().as_bytes())?, vec![ca.cert_der().to_vec()]);
        let broken = pasted.replace(&one_line[10..20], "!!!!!!!!!!");
        assert!(certs_from_pem_or_der(broken.as_bytes()).is_err());
        Ok(())
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(load_p12(b"", "x").is_err());
        assert!(load_p12(b"\x30\x03\x02\x01", "x").is_err());
        assert!(certs_from_pem_or_der(b"").is_err());
        assert!(certs_from_pem_or_der(b"\x30\x82\xff").is_err());
        assert!(private_key_from_pem("garbage").is_err());
        assert!(self_signed_rsa("x", 1000).is_err());
        assert!(LocalCa::from_pem("", "").is_err());
    }
}
