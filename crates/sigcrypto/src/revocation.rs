//! Revocation data for long-term validation (PAdES B-LT): OCSP responses from a
//! certificate's AIA OCSP URL, CRLs from its CRL distribution points, and chain building.
//! Everything is returned as DER blobs ready for a PDF DSS (`/Certs`, `/OCSPs`, `/CRLs`).

use const_oid::db::rfc5280;
use der::asn1::{Ia5String, OctetString};
use der::{Decode, Encode};
use spki::AlgorithmIdentifierOwned;
use x509_cert::Certificate;
use x509_cert::ext::pkix::name::{DistributionPointName, GeneralName};
use x509_cert::ext::pkix::{AuthorityInfoAccessSyntax, CrlDistributionPoints};
use x509_ocsp::{
    BasicOcspResponse, CertId, CertStatus, OcspGeneralizedTime, OcspRequest, OcspResponse, OcspResponseStatus, Request,
    ResponderId, ResponseBytes, ResponseData, SingleResponse, TbsRequest, Version,
};

use crate::chain::{MAX_CHAIN, build_chain, is_self_issued};
use crate::http::{self, HttpConfig};
use crate::pki;
use crate::public_key::{self, HashAlg};
use crate::signer;
use crate::{Error, Result};

/// id-pkix-ocsp-basic
const ID_PKIX_OCSP_BASIC: const_oid::ObjectIdentifier = const_oid::ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.48.1.1");
const ID_SHA1: const_oid::ObjectIdentifier = const_oid::ObjectIdentifier::new_unwrap("1.3.14.3.2.26");
/// id-pkix-ocsp-nonce
const ID_PKIX_OCSP_NONCE: const_oid::ObjectIdentifier = const_oid::ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.48.1.2");
/// Most certificates asked about in one OCSP request a responder answers (clients ask one).
const MAX_OCSP_REQUEST_ENTRIES: usize = 20;
/// Largest nonce echoed (RFC 8954 caps nonces at 32 bytes; some clients send a little more).
const MAX_OCSP_NONCE_BYTES: usize = 128;
/// Largest OCSP request read (a request for a handful of certificates is a few hundred bytes).
pub const MAX_OCSP_REQUEST_BYTES: usize = 16 * 1024;
/// Revocation material gathered for a chain, as DER blobs for a DSS.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct RevocationData {
    /// Certificates of the chain(s), leaf first, no duplicates.
    pub certs_der: Vec<Vec<u8>>,
    /// OCSPResponse structures (full response, as PDF DSS /OCSPs expects).
    pub ocsps_der: Vec<Vec<u8>>,
    /// CertificateList structures.
    pub crls_der: Vec<Vec<u8>>,
    /// Certificates for which no revocation data could be obtained, with the reason.
    pub missing: Vec<String>,
}

/// Status from an OCSP response or CRL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RevocationStatus {
    Good,
    Revoked,
    Unknown,
}

/// A checked OCSP answer for one certificate.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct OcspInfo {
    pub status: RevocationStatus,
    /// When the certificate was revoked (UNIX seconds), for a `Revoked` answer.
    pub revoked_at: Option<u64>,
    /// UNIX seconds.
    pub produced_at: u64,
    pub this_update: u64,
    pub next_update: Option<u64>,
}

fn extension<'a>(cert: &'a Certificate, oid: &const_oid::ObjectIdentifier) -> Option<&'a [u8]> {
    cert.tbs_certificate.extensions.as_ref()?.iter().find(|e| &e.extn_id == oid).map(|e| e.extn_value.as_bytes())
}

fn aia_urls(cert_der: &[u8], method: const_oid::ObjectIdentifier) -> Vec<String> {
    let Ok(cert) = pki::parse_cert(cert_der) else {
        return Vec::new();
    };
    let Some(v) = extension(&cert, &rfc5280::ID_PE_AUTHORITY_INFO_ACCESS) else {
        return Vec::new();
    };
    let Ok(aia) = AuthorityInfoAccessSyntax::from_der(v) else {
        return Vec::new();
    };
    aia.0.iter().filter(|d| d.access_method == method).filter_map(|d| uri(&d.access_location)).collect()
}

fn uri(name: &GeneralName) -> Option<String> {
    match name {
        GeneralName::UniformResourceIdentifier(u) => Some(Ia5String::to_string(u)),
        _ => None,
    }
}

/// AIA id-ad-ocsp URL of a certificate (first http one).
pub fn ocsp_url(cert_der: &[u8]) -> Option<String> {
    aia_urls(cert_der, rfc5280::ID_AD_OCSP).into_iter().find(|u| u.starts_with("http"))
}

/// AIA id-ad-caIssuers URLs.
pub fn ca_issuers_urls(cert_der: &[u8]) -> Vec<String> {
    aia_urls(cert_der, rfc5280::ID_AD_CA_ISSUERS)
}

/// HTTP CRL distribution point URLs.
pub fn crl_urls(cert_der: &[u8]) -> Vec<String> {
    let Ok(cert) = pki::parse_cert(cert_der) else {
        return Vec::new();
    };
    let Some(v) = extension(&cert, &rfc5280::ID_CE_CRL_DISTRIBUTION_POINTS) else {
        return Vec::new();
    };
    let Ok(dps) = CrlDistributionPoints::from_der(v) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for dp in dps.0.iter() {
        if let Some(DistributionPointName::FullName(names)) = &dp.distribution_point {
            out.extend(names.iter().filter_map(uri).filter(|u| u.starts_with("http")));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// OCSP
// ---------------------------------------------------------------------------------------------

/// CertID with SHA-1, the hash every responder supports (RFC 6960 §4.1.1; SHA-1 here is an
/// identifier, not a security property).
fn cert_id(cert: &Certificate, issuer: &Certificate) -> Result<CertId> {
    let name_der = issuer.tbs_certificate.subject.to_der()?;
    let key = issuer.tbs_certificate.subject_public_key_info.subject_public_key.raw_bytes();
    Ok(CertId {
        hash_algorithm: AlgorithmIdentifierOwned { oid: ID_SHA1, parameters: Some(der::Any::from(der::asn1::Null)) },
        issuer_name_hash: OctetString::new(HashAlg::Sha1.digest(&name_der))?,
        issuer_key_hash: OctetString::new(HashAlg::Sha1.digest(key))?,
        serial_number: cert.tbs_certificate.serial_number.clone(),
    })
}

/// DER OCSPRequest for `cert` issued by `issuer`.
pub fn build_ocsp_request(cert_der: &[u8], issuer_der: &[u8]) -> Result<Vec<u8>> {
    let cert = pki::parse_cert(cert_der)?;
    let issuer = pki::parse_cert(issuer_der)?;
    let req = OcspRequest {
        tbs_request: TbsRequest {
            version: Version::V1,
            requestor_name: None,
            request_list: vec![Request { req_cert: cert_id(&cert, &issuer)?, single_request_extensions: None }],
            request_extensions: None,
        },
        optional_signature: None,
    };
    Ok(req.to_der()?)
}

/// Check an OCSPResponse for `cert`: successful, basic, signed by the issuer or by a responder
/// certificate the issuer delegated (EKU OCSPSigning), with a SingleResponse for this cert.
pub fn check_ocsp_response(resp_der: &[u8], cert_der: &[u8], issuer_der: &[u8]) -> Result<OcspInfo> {
    let cert = pki::parse_cert(cert_der)?;
    let issuer = pki::parse_cert(issuer_der)?;
    let resp =
        OcspResponse::from_der(resp_der).map_err(|e| Error::Revocation(format!("malformed OCSP response: {e}")))?;
    if resp.response_status != OcspResponseStatus::Successful {
        return Err(Error::Revocation(format!("OCSP responder answered {:?}", resp.response_status)));
    }
    let bytes = resp.response_bytes.ok_or_else(|| Error::Revocation("OCSP response without body".into()))?;
    if bytes.response_type != ID_PKIX_OCSP_BASIC {
        return Err(Error::Revocation("OCSP response is not a basic response".into()));
    }
    let basic = BasicOcspResponse::from_der(bytes.response.as_bytes())
        .map_err(|e| Error::Revocation(format!("malformed basic OCSP response: {e}")))?;
    verify_ocsp_signature(&basic, &issuer)?;
    let want = cert_id(&cert, &issuer)?;
    let single = basic
        .tbs_response_data
        .responses
        .iter()
        .find(|r| same_cert_id(&r.cert_id, &want, &cert, &issuer))
        .ok_or_else(|| Error::Revocation("OCSP response does not cover this certificate".into()))?;
    let (status, revoked_at) = match &single.cert_status {
        CertStatus::Good(_) => (RevocationStatus::Good, None),
        CertStatus::Revoked(info) => {
            (RevocationStatus::Revoked, Some(info.revocation_time.0.to_unix_duration().as_secs()))
        }
        CertStatus::Unknown(_) => (RevocationStatus::Unknown, None),
    };
    Ok(OcspInfo {
        status,
        revoked_at,
        produced_at: basic.tbs_response_data.produced_at.0.to_unix_duration().as_secs(),
        this_update: single.this_update.0.to_unix_duration().as_secs(),
        next_update: single.next_update.map(|t| t.0.to_unix_duration().as_secs()),
    })
}

/// The BasicOCSPResponse inside a successful OCSPResponse (what CAdES `revocation-values`
/// carries, RFC 5126 §6.3.4).
pub fn basic_ocsp_response(resp_der: &[u8]) -> Result<Vec<u8>> {
    let resp =
        OcspResponse::from_der(resp_der).map_err(|e| Error::Revocation(format!("malformed OCSP response: {e}")))?;
    match resp.response_bytes {
        Some(bytes)
            if resp.response_status == OcspResponseStatus::Successful && bytes.response_type == ID_PKIX_OCSP_BASIC =>
        {
            Ok(bytes.response.as_bytes().to_vec())
        }
        _ => Err(Error::Revocation("not a successful basic OCSP response".into())),
    }
}

/// A BasicOCSPResponse wrapped as the successful OCSPResponse the checks here read.
pub fn ocsp_response_from_basic(basic_der: &[u8]) -> Result<Vec<u8>> {
    BasicOcspResponse::from_der(basic_der)
        .map_err(|e| Error::Revocation(format!("malformed basic OCSP response: {e}")))?;
    let response = OcspResponse {
        response_status: OcspResponseStatus::Successful,
        response_bytes: Some(ResponseBytes {
            response_type: ID_PKIX_OCSP_BASIC,
            response: OctetString::new(basic_der)?,
        }),
    };
    Ok(response.to_der()?)
}

/// CertIDs may use another hash than ours; recompute with theirs when needed.
fn same_cert_id(got: &CertId, want: &CertId, cert: &Certificate, issuer: &Certificate) -> bool {
    if got.serial_number != want.serial_number {
        return false;
    }
    if got.hash_algorithm.oid == want.hash_algorithm.oid {
        return got.issuer_name_hash == want.issuer_name_hash && got.issuer_key_hash == want.issuer_key_hash;
    }
    let Some(h) = HashAlg::from_oid(&got.hash_algorithm.oid) else {
        return false;
    };
    let Ok(name) = issuer.tbs_certificate.subject.to_der() else {
        return false;
    };
    let key = issuer.tbs_certificate.subject_public_key_info.subject_public_key.raw_bytes();
    let _ = cert;
    got.issuer_name_hash.as_bytes() == h.digest(&name).as_slice()
        && got.issuer_key_hash.as_bytes() == h.digest(key).as_slice()
}

fn verify_ocsp_signature(basic: &BasicOcspResponse, issuer: &Certificate) -> Result<()> {
    let tbs = basic.tbs_response_data.to_der()?;
    let sig = basic.signature.as_bytes().ok_or_else(|| Error::Revocation("OCSP signature has unused bits".into()))?;
    let signer_cert = ocsp_signer(basic, issuer)?;
    public_key::verify_signature(
        &signer_cert.tbs_certificate.subject_public_key_info,
        &basic.signature_algorithm,
        HashAlg::Sha256,
        &tbs,
        sig,
    )
    .map_err(|_| Error::Revocation("OCSP response signature does not verify".into()))
}

/// The certificate that signed an OCSP response: the issuer itself, or a delegated responder
/// included in the response, issued by the issuer and carrying EKU OCSPSigning.
fn ocsp_signer(basic: &BasicOcspResponse, issuer: &Certificate) -> Result<Certificate> {
    let matches = |c: &Certificate| match &basic.tbs_response_data.responder_id {
        ResponderId::ByName(n) => &c.tbs_certificate.subject == n,
        ResponderId::ByKey(k) => {
            HashAlg::Sha1.digest(c.tbs_certificate.subject_public_key_info.subject_public_key.raw_bytes())
                == k.as_bytes()
        }
    };
    if matches(issuer) {
        return Ok(issuer.clone());
    }
    let delegated = basic
        .certs
        .iter()
        .flatten()
        .find(|c| matches(c))
        .ok_or_else(|| Error::Revocation("OCSP responder certificate not found".into()))?;
    public_key::verify_cert_signature(delegated, issuer)
        .map_err(|_| Error::Revocation("OCSP responder certificate not issued by the CA".into()))?;
    let eku = extension(delegated, &rfc5280::ID_CE_EXT_KEY_USAGE)
        .and_then(|v| x509_cert::ext::pkix::ExtendedKeyUsage::from_der(v).ok())
        .ok_or_else(|| Error::Revocation("OCSP responder certificate has no EKU".into()))?;
    if !eku.0.contains(&rfc5280::ID_KP_OCSP_SIGNING) {
        return Err(Error::Revocation("responder certificate lacks EKU OCSPSigning".into()));
    }
    Ok(delegated.clone())
}

/// A delegated OCSP responder (RFC 6960 §4.2.2.2): the CA whose certificates it answers for,
/// and the responder's key with a certificate that CA issued with EKU OCSPSigning
/// ([`pki::LocalCa::issue_ocsp_responder`]).
pub struct OcspResponder<'a> {
    pub issuer_der: &'a [u8],
    pub signer: &'a dyn signer::RawSigner,
    /// How long an answer may be relied on (its nextUpdate).
    pub validity: std::time::Duration,
}

/// Answers a DER `OCSPRequest` as the responder of `responder.issuer_der`: one SingleResponse
/// per certificate asked about, with `status_of(serial)` (big-endian serial bytes) for
/// certificates of that issuer and `unknown` for any other issuer's. A request that cannot be
/// read gets a `malformedRequest` answer (a response, not an error: clients expect one); the
/// request's nonce is echoed. Errors are the responder's own failures (its key, the issuer).
pub fn build_ocsp_response(
    request_der: &[u8],
    responder: &OcspResponder<'_>,
    status_of: &dyn Fn(&[u8]) -> RevocationStatus,
    now: std::time::SystemTime,
) -> Result<Vec<u8>> {
    let issuer = pki::parse_cert(responder.issuer_der)?;
    let Some(request) = readable_ocsp_request(request_der) else {
        return ocsp_error_response(OcspResponseStatus::MalformedRequest);
    };
    let now_secs =
        now.duration_since(std::time::UNIX_EPOCH).map_err(|_| Error::Revocation("clock before 1970".into()))?;
    // Whole seconds: RFC 5280 GeneralizedTime without fractions.
    let now_secs = std::time::Duration::from_secs(now_secs.as_secs());
    let this_update = ocsp_time(now_secs)?;
    let next_update = ocsp_time(now_secs + responder.validity)?;
    let responses = request
        .tbs_request
        .request_list
        .iter()
        .map(|entry| {
            let status = if issued_by(&entry.req_cert, &issuer) {
                status_of(entry.req_cert.serial_number.as_bytes())
            } else {
                RevocationStatus::Unknown
            };
            SingleResponse {
                cert_id: entry.req_cert.clone(),
                cert_status: match status {
                    RevocationStatus::Good => CertStatus::good(),
                    // No revocation records are kept by callers yet: revoked "now".
                    RevocationStatus::Revoked => CertStatus::revoked(x509_ocsp::RevokedInfo {
                        revocation_time: this_update,
                        revocation_reason: None,
                    }),
                    RevocationStatus::Unknown => CertStatus::unknown(),
                },
                this_update,
                next_update: Some(next_update),
                single_extensions: None,
            }
        })
        .collect();
    let responder_cert = pki::parse_cert(responder.signer.certificate_der())?;
    let key_hash =
        HashAlg::Sha1.digest(responder_cert.tbs_certificate.subject_public_key_info.subject_public_key.raw_bytes());
    let tbs_response_data = ResponseData {
        version: Version::V1,
        responder_id: ResponderId::ByKey(OctetString::new(key_hash)?),
        produced_at: this_update,
        responses,
        response_extensions: echoed_nonce(&request).map(|nonce| vec![nonce]),
    };
    let signature = responder.signer.sign(&tbs_response_data.to_der()?)?;
    let basic = BasicOcspResponse {
        tbs_response_data,
        signature_algorithm: responder.signer.algorithm().algorithm_identifier(),
        signature: der::asn1::BitString::from_bytes(&signature)?,
        certs: Some(vec![responder_cert]),
    };
    let response = OcspResponse {
        response_status: OcspResponseStatus::Successful,
        response_bytes: Some(ResponseBytes {
            response_type: ID_PKIX_OCSP_BASIC,
            response: OctetString::new(basic.to_der()?)?,
        }),
    };
    Ok(response.to_der()?)
}

/// A request small enough, DER, asking about 1 to [`MAX_OCSP_REQUEST_ENTRIES`] certificates.
fn readable_ocsp_request(request_der: &[u8]) -> Option<OcspRequest> {
    if request_der.len() > MAX_OCSP_REQUEST_BYTES {
        return None;
    }
    let request = OcspRequest::from_der(request_der).ok()?;
    let count = request.tbs_request.request_list.len();
    (1..=MAX_OCSP_REQUEST_ENTRIES).contains(&count).then_some(request)
}

/// An unsuccessful answer: a status and no body (RFC 6960 §4.2.1).
fn ocsp_error_response(status: OcspResponseStatus) -> Result<Vec<u8>> {
    Ok(OcspResponse { response_status: status, response_bytes: None }.to_der()?)
}

fn ocsp_time(since_epoch: std::time::Duration) -> Result<OcspGeneralizedTime> {
    Ok(OcspGeneralizedTime(der::asn1::GeneralizedTime::from_unix_duration(since_epoch)?))
}

/// Whether a CertID names `issuer`, in whatever hash the client chose.
fn issued_by(id: &CertId, issuer: &Certificate) -> bool {
    let Some(hash) = HashAlg::from_oid(&id.hash_algorithm.oid) else {
        return false;
    };
    let Ok(name) = issuer.tbs_certificate.subject.to_der() else {
        return false;
    };
    let key = issuer.tbs_certificate.subject_public_key_info.subject_public_key.raw_bytes();
    id.issuer_name_hash.as_bytes() == hash.digest(&name).as_slice()
        && id.issuer_key_hash.as_bytes() == hash.digest(key).as_slice()
}

/// The request's nonce extension, to copy into the answer (clients that send one check it).
fn echoed_nonce(request: &OcspRequest) -> Option<x509_cert::ext::Extension> {
    request
        .tbs_request
        .request_extensions
        .iter()
        .flatten()
        .find(|e| e.extn_id == ID_PKIX_OCSP_NONCE && e.extn_value.as_bytes().len() <= MAX_OCSP_NONCE_BYTES)
        .cloned()
}

/// Fetch and check an OCSP response for `cert` from its AIA URL (or `url_override`).
pub fn fetch_ocsp(
    cert_der: &[u8],
    issuer_der: &[u8],
    url_override: Option<&str>,
    cfg: &HttpConfig,
) -> Result<(Vec<u8>, OcspInfo)> {
    let url = match url_override {
        Some(u) => u.to_string(),
        None => ocsp_url(cert_der).ok_or_else(|| Error::Revocation("certificate has no OCSP URL".into()))?,
    };
    let req = build_ocsp_request(cert_der, issuer_der)?;
    let resp = http::post(&url, "application/ocsp-request", &req, cfg)?;
    let info = check_ocsp_response(&resp, cert_der, issuer_der)?;
    Ok((resp, info))
}

// ---------------------------------------------------------------------------------------------
// CRL
// ---------------------------------------------------------------------------------------------

/// What a checked CRL says about one certificate.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct CrlInfo {
    pub status: RevocationStatus,
    /// When the certificate was revoked (UNIX seconds), when the CRL lists it.
    pub revoked_at: Option<u64>,
    pub this_update: u64,
    pub next_update: Option<u64>,
}

/// Check a CRL: signed by `issuer`, issuer names match; report whether `cert` is listed.
pub fn check_crl(crl_der: &[u8], cert_der: &[u8], issuer_der: &[u8]) -> Result<CrlInfo> {
    let crl = x509_cert::crl::CertificateList::from_der(crl_der)
        .map_err(|e| Error::Revocation(format!("malformed CRL: {e}")))?;
    let cert = pki::parse_cert(cert_der)?;
    let issuer = pki::parse_cert(issuer_der)?;
    if crl.tbs_cert_list.issuer != issuer.tbs_certificate.subject {
        return Err(Error::Revocation("CRL issuer is not the certificate's issuer".into()));
    }
    let tbs = crl.tbs_cert_list.to_der()?;
    let sig = crl.signature.as_bytes().ok_or_else(|| Error::Revocation("CRL signature has unused bits".into()))?;
    public_key::verify_signature(
        &issuer.tbs_certificate.subject_public_key_info,
        &crl.signature_algorithm,
        HashAlg::Sha256,
        &tbs,
        sig,
    )
    .map_err(|_| Error::Revocation("CRL signature does not verify".into()))?;
    let revoked_at = crl
        .tbs_cert_list
        .revoked_certificates
        .iter()
        .flatten()
        .find(|r| r.serial_number == cert.tbs_certificate.serial_number)
        .map(|r| r.revocation_date.to_unix_duration().as_secs());
    Ok(CrlInfo {
        status: if revoked_at.is_some() { RevocationStatus::Revoked } else { RevocationStatus::Good },
        revoked_at,
        this_update: crl.tbs_cert_list.this_update.to_unix_duration().as_secs(),
        next_update: crl.tbs_cert_list.next_update.map(|t| t.to_unix_duration().as_secs()),
    })
}

/// Download a CRL (DER, or PEM "X509 CRL") and check it for `cert`.
pub fn fetch_crl(url: &str, cert_der: &[u8], issuer_der: &[u8], cfg: &HttpConfig) -> Result<(Vec<u8>, CrlInfo)> {
    let body = http::get(url, cfg)?;
    let der = if body.starts_with(b"-----BEGIN") {
        pki::pem_blocks(&body)?
            .into_iter()
            .find(|(l, _)| l == "X509 CRL")
            .map(|(_, d)| d)
            .ok_or_else(|| Error::Revocation("no CRL in PEM".into()))?
    } else {
        body
    };
    let info = check_crl(&der, cert_der, issuer_der)?;
    Ok((der, info))
}

// ---------------------------------------------------------------------------------------------
// Chains
// ---------------------------------------------------------------------------------------------

/// Download the issuer certificate(s) named by a certificate's AIA caIssuers URLs
/// (DER, PEM, or a certs-only PKCS#7 `.p7c`).
pub fn fetch_ca_issuers(cert_der: &[u8], cfg: &HttpConfig) -> Result<Vec<Vec<u8>>> {
    let urls: Vec<String> = ca_issuers_urls(cert_der).into_iter().filter(|u| u.starts_with("http")).collect();
    if urls.is_empty() {
        return Err(Error::Revocation("certificate has no caIssuers URL".into()));
    }
    let mut last = Error::Revocation("no issuer certificate found".into());
    for url in urls {
        match http::get(&url, cfg).and_then(|body| certs_from_any(&body)) {
            Ok(certs) if !certs.is_empty() => return Ok(certs),
            Ok(_) => {}
            Err(e) => last = e,
        }
    }
    Err(last)
}

fn certs_from_any(body: &[u8]) -> Result<Vec<Vec<u8>>> {
    if let Ok(certs) = pki::certs_from_pem_or_der(body) {
        return Ok(certs);
    }
    // certs-only SignedData (RFC 5280 §4.2.2.1 allows it for caIssuers).
    let sd = crate::cms::parse_signed_data(body)?;
    crate::cms::embedded_certs(&sd)?.iter().map(|c| c.to_der().map_err(Error::from)).collect()
}

/// Like [`build_chain`], but fetches missing issuers through AIA caIssuers.
pub fn complete_chain(leaf_der: &[u8], pool: &[Vec<u8>], cfg: &HttpConfig) -> Result<Vec<Vec<u8>>> {
    let mut pool = pool.to_vec();
    let mut chain = build_chain(leaf_der, &pool)?;
    while chain.len() < MAX_CHAIN {
        let Some(last) = chain.last() else { break };
        if is_self_issued(&pki::parse_cert(last)?) {
            break;
        }
        let Ok(fetched) = fetch_ca_issuers(last, cfg) else {
            break;
        };
        let before = chain.len();
        pool.extend(fetched);
        chain = build_chain(leaf_der, &pool)?;
        if chain.len() == before {
            break;
        }
    }
    Ok(chain)
}

/// Gather revocation data for every non-root certificate of `chain` (leaf first): OCSP
/// first, CRL as fallback. Failures are recorded in `missing`, not fatal, so a caller can
/// decide whether B-LT is reachable.
pub fn collect_revocation_data(chain_der: &[Vec<u8>], cfg: &HttpConfig) -> RevocationData {
    collect_missing_revocation_data(chain_der, &HeldRevocation::default(), cfg)
}

/// OCSP responses and CRLs a document already keeps (DER).
#[derive(Debug, Clone, Copy, Default)]
pub struct HeldRevocation<'a> {
    pub ocsps: &'a [Vec<u8>],
    pub crls: &'a [Vec<u8>],
}

impl HeldRevocation<'_> {
    /// A kept answer, signed for `issuer`, names `cert` (whatever it says: revoked is evidence too).
    pub fn answers_for(&self, cert: &[u8], issuer: &[u8]) -> bool {
        self.ocsps.iter().any(|o| check_ocsp_response(o, cert, issuer).is_ok())
            || self.crls.iter().any(|c| check_crl(c, cert, issuer).is_ok())
    }
}

/// [`collect_revocation_data`] for what `held` does not answer yet: a certificate with a kept
/// OCSP response or CRL is not fetched again. Extending a document a second time (another
/// signature, a renewal) then asks only about new certificates, never about a signer whose
/// certificate expired meanwhile and whose CA no longer answers for it.
pub fn collect_missing_revocation_data(
    chain_der: &[Vec<u8>],
    held: &HeldRevocation<'_>,
    cfg: &HttpConfig,
) -> RevocationData {
    let mut out = RevocationData::default();
    for c in chain_der {
        if !out.certs_der.contains(c) {
            out.certs_der.push(c.clone());
        }
    }
    for pair in chain_der.windows(2) {
        let (cert, issuer) = (&pair[0], &pair[1]);
        if held.answers_for(cert, issuer) {
            continue;
        }
        let name = pki::cert_common_name(cert).unwrap_or_else(|| "certificate".into());
        match fetch_ocsp(cert, issuer, None, cfg) {
            Ok((der, _)) => {
                out.ocsps_der.push(der);
                continue;
            }
            Err(ocsp_err) => {
                let mut got_crl = false;
                let mut last_err = ocsp_err.to_string();
                for url in crl_urls(cert) {
                    match fetch_crl(&url, cert, issuer, cfg) {
                        Ok((der, _)) => {
                            if !out.crls_der.contains(&der) {
                                out.crls_der.push(der);
                            }
                            got_crl = true;
                            break;
                        }
                        Err(e) => last_err = e.to_string(),
                    }
                }
                if !got_crl {
                    out.missing.push(format!("{name}: {last_err}"));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_an_error() {
        assert!(check_ocsp_response(b"\x30\x03\x0a\x01\x00", b"", b"").is_err());
        assert!(check_crl(b"", b"", b"").is_err());
        assert!(build_chain(b"junk", &[]).is_err());
        assert!(ocsp_url(b"junk").is_none());
        assert!(crl_urls(b"").is_empty());
    }
}
