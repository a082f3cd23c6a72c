//! Verification of CMS SignedData: integrity, signer, signing time, signature time-stamp,
//! and a basic certification path check against a trust store. Produces a serializable report.
//!
//! Path validation here is deliberately basic (RFC 5280 subset): signatures, validity at the
//! validation time, CA basicConstraints/keyUsage on issuers, path length. No policy
//! processing, name constraints, or live revocation checking: the signer certificate's status
//! comes from the revocation data the file carries, and each signer gets its EN 319 102-1
//! indication ([`crate::validation`]).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use const_oid::db::rfc5280;
use der::{Decode, Encode};
use x509_cert::Certificate;
use x509_cert::ext::pkix::{BasicConstraints, KeyUsage, KeyUsages};

use crate::chain::is_self_issued;
use crate::cms::{self as cmsmod, SignerSummary};
use crate::public_key;
use crate::tsp;
use crate::validation::{self, CertificateStatus, Facts, Indication, SubIndication};
use crate::{Error, Result, pki};

const MAX_PATH: usize = 10;

/// Trust anchors (root certificates).
#[derive(Debug, Clone, Default)]
pub struct TrustStore {
    roots: Vec<(Vec<u8>, Certificate)>,
}

impl TrustStore {
    /// From a PEM bundle (or a single DER certificate).
    pub fn from_pem(bytes: &[u8]) -> Result<TrustStore> {
        Self::from_der_certs(&pki::certs_from_pem_or_der(bytes)?)
    }
    /// From DER certificates.
    pub fn from_der_certs(certs: &[Vec<u8>]) -> Result<TrustStore> {
        let mut roots = Vec::new();
        for c in certs {
            roots.push((c.clone(), pki::parse_cert(c)?));
        }
        Ok(TrustStore { roots })
    }
    /// No anchors: every chain is reported untrusted.
    pub fn empty() -> TrustStore {
        TrustStore::default()
    }
    /// Number of anchors.
    pub fn len(&self) -> usize {
        self.roots.len()
    }
    /// True without anchors.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }
}

/// What the signature covers.
#[derive(Debug, Clone, Copy)]
pub enum Content<'a> {
    /// Attached CMS: use eContent.
    Embedded,
    /// Detached CMS over these bytes.
    Detached(&'a [u8]),
    /// Detached CMS whose messageDigest must equal this digest (PDF ByteRange digest computed
    /// with the SignerInfo's digest algorithm, see [`signer_digest_algorithm`]).
    Digest(&'a [u8]),
}

/// Options for verification.
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions {
    /// Validate the chain at this time instead of the time-stamp time / now (UNIX seconds).
    pub validation_time: Option<u64>,
    /// Revocation data the document carries besides the CMS (a PDF's DSS).
    pub revocation: EmbeddedRevocation,
    /// A time something outside the CMS proves the signature existed at (UNIX seconds): a
    /// trusted document time-stamp added over it later (PAdES B-LTA).
    pub proven_existence: Option<u64>,
}

/// OCSP responses and CRLs found in a document, as DER.
#[derive(Debug, Clone, Default)]
pub struct EmbeddedRevocation {
    pub ocsps: Vec<Vec<u8>>,
    pub crls: Vec<Vec<u8>>,
}

/// Report for a verified signature time-stamp.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct TimestampReport {
    /// Token signature and imprint are valid.
    pub intact: bool,
    /// The TSA chain reaches the trust store.
    pub trusted: bool,
    pub gen_time: Option<String>,
    pub tsa_subject: Option<String>,
    pub error: Option<String>,
}

/// Per-signer result.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct SignerReport {
    /// messageDigest matches the content and the signature verifies.
    pub intact: bool,
    /// The signer certificate chains to the trust store at the validation time.
    pub trusted: bool,
    /// intact && trusted && (no time-stamp or a good one).
    pub valid: bool,
    pub signer: Option<SignerSummary>,
    /// Subjects of the certification path, leaf first.
    pub chain: Vec<String>,
    /// Signing time claimed in the signed attributes (not proof).
    pub claimed_signing_time: Option<String>,
    pub timestamp: Option<TimestampReport>,
    /// Time used for path validation, RFC 3339.
    pub validation_time: String,
    /// EN 319 102-1 main indication.
    pub indication: Indication,
    pub sub_indication: Option<SubIndication>,
    /// The signer certificate's status from the revocation data the file carries.
    pub certificate_status: Option<CertificateStatus>,
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

/// Report for a whole CMS.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct CmsReport {
    /// Every signer is valid.
    pub valid: bool,
    pub signers: Vec<SignerReport>,
    /// Attached content present.
    pub attached: bool,
}

/// The digest algorithm of the (first) SignerInfo: "sha256", "sha384", "sha512" or "sha1".
pub fn signer_digest_algorithm(cms_der: &[u8]) -> Result<&'static str> {
    let sd = cmsmod::parse_signed_data(cms_der)?;
    let si = sd.signer_infos.0.iter().next().ok_or_else(|| Error::Cms("no SignerInfo".into()))?;
    let h = public_key::HashAlg::from_oid(&si.digest_alg.oid)
        .ok_or_else(|| Error::Cms(format!("unsupported digest {}", si.digest_alg.oid)))?;
    Ok(match h {
        public_key::HashAlg::Sha1 => "sha1",
        public_key::HashAlg::Sha256 => "sha256",
        public_key::HashAlg::Sha384 => "sha384",
        public_key::HashAlg::Sha512 => "sha512",
    })
}

/// Verify a CMS SignedData. Errors only when the input is not a CMS at all; every other
/// problem is reported in the [`CmsReport`].
pub fn verify_cms(cms_der: &[u8], content: Content<'_>, trust: &TrustStore, opts: &VerifyOptions) -> Result<CmsReport> {
    let sd = cmsmod::parse_signed_data(cms_der)?;
    let attached = sd.encap_content_info.econtent.is_some();
    let pool: Vec<Vec<u8>> = cmsmod::embedded_certs(&sd)?.iter().filter_map(|c| c.to_der().ok()).collect();
    let carried = cmsmod::carried_signed_attrs(cms_der)?;
    let mut signers = Vec::new();
    for (index, si) in sd.signer_infos.0.iter().enumerate() {
        let der_encoded = cmsmod::signed_attrs_are_der(si, carried.get(index).and_then(|c| c.as_deref()));
        signers.push(verify_signer(&sd, si, der_encoded, content, &pool, trust, opts));
    }
    if signers.is_empty() {
        return Err(Error::Cms("SignedData has no SignerInfo".into()));
    }
    Ok(CmsReport { valid: signers.iter().all(|s| s.valid), signers, attached })
}

fn verify_signer(
    sd: &cms::signed_data::SignedData,
    si: &cms::signed_data::SignerInfo,
    attrs_der_encoded: bool,
    content: Content<'_>,
    pool: &[Vec<u8>],
    trust: &TrustStore,
    opts: &VerifyOptions,
) -> SignerReport {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let embedded = sd.encap_content_info.econtent.as_ref().map(|a| a.value());
    let data = match content {
        Content::Embedded => embedded,
        Content::Detached(d) => Some(d),
        Content::Digest(_) => None,
    };
    let mut facts = Facts {
        format_ok: true,
        hash_ok: true,
        signature_value_ok: true,
        certificate: validation::Certificate::Missing,
        poe: None,
        now: now_unix(),
    };
    if matches!(content, Content::Embedded) && embedded.is_none() {
        errors.push("detached signature: the signed content was not supplied".to_string());
        facts.hash_ok = false;
    }
    // EN 319 102-1 §5.2.2: a signature whose signing certificate cannot be identified is
    // INDETERMINATE (NO_SIGNING_CERTIFICATE_FOUND), not a format failure: the CMS may be
    // well built and its certificate merely left out (`openssl cms -sign -nocerts`), or its
    // signingCertificateV2 may name another certificate than the one carried.
    let summary = match cmsmod::signer_cert(sd, si) {
        // EN 319 102-1 FORMAT_FAILURE: what was signed cannot be rebuilt from what is carried.
        _ if !attrs_der_encoded => {
            errors.push("the signed attributes are not DER-encoded (their set is not in sorted order)".into());
            facts.format_ok = false;
            None
        }
        Ok(None) => {
            errors.push("the signer's certificate is not in the signature, so its value cannot be checked".into());
            None
        }
        Ok(Some(cert)) if !cmsmod::signing_certificate_matches(si, &cert) => {
            errors.push("the signingCertificateV2 attribute names another certificate than the signer's".into());
            None
        }
        _ => match cmsmod::check_signer_info(sd, si, data) {
            Ok(s) => Some(s),
            Err(e) => {
                match &e {
                    Error::Verify(message) if message.contains("messageDigest") => facts.hash_ok = false,
                    Error::Verify(_) | Error::Crypto(_) => facts.signature_value_ok = false,
                    _ => facts.format_ok = false,
                }
                errors.push(e.to_string());
                None
            }
        },
    };
    let mut intact = summary.is_some() && errors.is_empty();
    if let (Content::Digest(d), Some(s)) = (content, &summary)
        && hex::encode(d) != s.message_digest_hex
    {
        errors.push("messageDigest does not match the document digest".into());
        facts.hash_ok = false;
        intact = false;
    }
    if let Some(s) = &summary {
        warnings.extend(signer_warnings(s));
    }
    let timestamp = timestamp_report(si, pool, trust, timestamp_checked_at(opts));
    let ts_time = timestamp.as_ref().filter(|t| t.intact).and(first_token_time(si));
    let own_poe = timestamp.as_ref().filter(|t| t.intact && t.trusted).and(ts_time);
    facts.poe = match (own_poe, opts.proven_existence) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let at = path_checked_at(opts.validation_time, facts.poe, ts_time);
    facts.now = opts.validation_time.unwrap_or(facts.now);
    let checked = summary
        .as_ref()
        .map(|s| check_certificate(&s.cert_der, pool, trust, at, &revocation_pool(sd, si, &opts.revocation)));
    let (trusted, chain, certificate_status) = match checked {
        Some(checked) => {
            errors.extend(checked.error);
            facts.certificate = checked.facts;
            (checked.trusted, checked.chain, checked.status)
        }
        None => (false, Vec::new(), None),
    };
    if let Some(t) = &timestamp
        && let Some(e) = &t.error
    {
        errors.push(format!("signature time-stamp: {e}"));
    }
    let ts_ok = timestamp.as_ref().is_none_or(|t| t.intact && t.trusted);
    let (indication, sub_indication) = validation::indicate(&facts);
    let revoked = matches!(sub_indication, Some(SubIndication::Revoked | SubIndication::RevokedNoPoe));
    SignerReport {
        intact,
        trusted,
        valid: intact && trusted && ts_ok && !revoked,
        claimed_signing_time: summary.as_ref().and_then(|s| s.signing_time.clone()),
        signer: summary,
        chain: chain_subjects(&chain),
        timestamp,
        validation_time: cmsmod::format_time(Duration::from_secs(at)),
        indication,
        sub_indication,
        certificate_status,
        errors,
        warnings,
    }
}

/// When the signer's certification path is checked: at the validation time, unless a trusted
/// time-stamp proves the signature existed earlier (EN 319 102-1 §5.6, past signature
/// validation: a certificate that expired since is no reason to refuse a signature proven to
/// predate its expiry; revocation is still judged against that proof by
/// [`validation::indicate`]). Without a validation time: the proven time, else now.
pub(crate) fn path_checked_at(validation_time: Option<u64>, poe: Option<u64>, ts_time: Option<u64>) -> u64 {
    match (validation_time, poe) {
        (Some(at), Some(proven)) => at.min(proven),
        (Some(at), None) => at,
        (None, proven) => proven.or(ts_time).unwrap_or_else(now_unix),
    }
}

/// When a signature time-stamp's TSA path is checked. With a validation time: at that time, or
/// at the earlier time a later document time-stamp proves the token existed (so a TSA
/// certificate that expired since still counts when a renewal covers it). Without one: at the
/// token's own time (`None`), as before validation times could be chosen.
pub(crate) fn timestamp_checked_at(opts: &VerifyOptions) -> Option<u64> {
    opts.validation_time.map(|at| opts.proven_existence.map_or(at, |proven| at.min(proven)))
}

/// What verification knows of a signer's certificate at a time.
pub(crate) struct CertificateCheck {
    /// A path to a trusted anchor exists at that time.
    pub trusted: bool,
    /// That path (leaf first), or one within the leaf's validity when only the time failed.
    pub chain: Vec<Certificate>,
    /// Why there is no path, for the report.
    pub error: Option<String>,
    /// The certificate as EN 319 102-1 judges it.
    pub facts: validation::Certificate,
    /// Its status from the revocation data at hand (when a path exists).
    pub status: Option<CertificateStatus>,
}

/// Checks a signer's certificate at `at` against `trust` (with `pool` for the path) and its
/// status against `revocation`: the same for CMS and XML signatures.
pub(crate) fn check_certificate(
    cert_der: &[u8],
    pool: &[Vec<u8>],
    trust: &TrustStore,
    at: u64,
    revocation: &EmbeddedRevocation,
) -> CertificateCheck {
    let (trusted, chain, error) = match validate_chain(cert_der, pool, trust, at) {
        Ok(chain) => (true, chain, None),
        Err(e) => (
            false,
            chain_within_validity(cert_der, pool, trust).unwrap_or_default(),
            Some(format!("certificate not trusted: {e}")),
        ),
    };
    let status = chain.first().map(|leaf| status_of(cert_der, chain.get(1).unwrap_or(leaf), revocation));
    let facts = match (chain.first(), status) {
        (Some(leaf), Some(status)) => {
            let validity = &leaf.tbs_certificate.validity;
            validation::Certificate::Trusted {
                not_before: validity.not_before.to_unix_duration().as_secs(),
                not_after: validity.not_after.to_unix_duration().as_secs(),
                status,
            }
        }
        _ => validation::Certificate::Untrusted,
    };
    CertificateCheck { trusted, chain, error, facts, status }
}

/// A path to a trusted anchor at some time within the leaf's validity (its last second): when
/// the path fails only for the time it was checked at, the signature's trouble is its time
/// (out of bounds), not its chain.
fn chain_within_validity(leaf_der: &[u8], pool: &[Vec<u8>], trust: &TrustStore) -> Option<Vec<Certificate>> {
    let leaf = pki::parse_cert(leaf_der).ok()?;
    let not_after = leaf.tbs_certificate.validity.not_after.to_unix_duration().as_secs();
    validate_chain(leaf_der, pool, trust, not_after).ok()
}

/// Revocation data items taken from one signature (far more than any real chain needs).
const MAX_CARRIED_ITEMS: usize = 64;

/// The CMS's own CRLs (its `crls` field), those its signer archived in the signed attributes
/// (`adbe-revocationInfoArchival`) and those added since in its unsigned `revocation-values`
/// (CAdES B-LT), with what the document carries elsewhere.
fn revocation_pool(
    sd: &cms::signed_data::SignedData,
    si: &cms::signed_data::SignerInfo,
    document: &EmbeddedRevocation,
) -> EmbeddedRevocation {
    let mut pool = document.clone();
    for choice in sd.crls.iter().flat_map(|c| c.0.iter()).take(MAX_CARRIED_ITEMS) {
        if let cms::revocation::RevocationInfoChoice::Crl(crl) = choice
            && let Ok(der) = crl.to_der()
        {
            pool.crls.push(der);
        }
    }
    let (crls, ocsps) = cmsmod::archived_revocation(si, MAX_CARRIED_ITEMS);
    pool.crls.extend(crls);
    pool.ocsps.extend(ocsps);
    let (crls, ocsps) = crate::long_term::revocation_values(si);
    pool.crls.extend(crls);
    pool.ocsps.extend(ocsps);
    pool
}

/// The signer certificate's status from the OCSP answers and CRLs its issuer signed: revoked
/// when any says so (with the earliest time), good when one says so, else whether it names a
/// place its status is published (then the file should have carried it).
fn status_of(leaf_der: &[u8], issuer: &Certificate, revocation: &EmbeddedRevocation) -> CertificateStatus {
    use crate::revocation::{RevocationStatus, check_crl, check_ocsp_response, crl_urls, ocsp_url};
    let Ok(issuer_der) = issuer.to_der() else { return CertificateStatus::NotCarried };
    let ocsp = revocation.ocsps.iter().filter_map(|r| check_ocsp_response(r, leaf_der, &issuer_der).ok());
    let crl = revocation.crls.iter().filter_map(|c| check_crl(c, leaf_der, &issuer_der).ok());
    let answers: Vec<(RevocationStatus, Option<u64>)> =
        ocsp.map(|o| (o.status, o.revoked_at)).chain(crl.map(|c| (c.status, c.revoked_at))).collect();
    let revoked_at =
        answers.iter().filter(|(s, _)| *s == RevocationStatus::Revoked).map(|(_, at)| at.unwrap_or(0)).min();
    if let Some(at) = revoked_at {
        return CertificateStatus::Revoked { at };
    }
    if answers.iter().any(|(s, _)| *s == RevocationStatus::Good) {
        return CertificateStatus::Good;
    }
    if ocsp_url(leaf_der).is_some() || !crl_urls(leaf_der).is_empty() {
        CertificateStatus::NotCarried
    } else {
        CertificateStatus::NoSource
    }
}

/// Things that do not break the signature but matter for AdES baselines.
fn signer_warnings(s: &SignerSummary) -> Vec<String> {
    let mut w = Vec::new();
    if !s.has_signing_certificate_v2 {
        w.push("no signingCertificateV2 attribute (not a CAdES/PAdES baseline signature)".into());
    }
    let ku = pki::parse_cert(&s.cert_der).ok().and_then(|c| {
        c.tbs_certificate
            .extensions
            .as_ref()?
            .iter()
            .find(|e| e.extn_id == rfc5280::ID_CE_KEY_USAGE)
            .and_then(|e| KeyUsage::from_der(e.extn_value.as_bytes()).ok())
    });
    if let Some(ku) = ku
        && !ku.0.contains(KeyUsages::DigitalSignature)
        && !ku.0.contains(KeyUsages::NonRepudiation)
    {
        w.push("signer certificate key usage allows neither digitalSignature nor nonRepudiation".into());
    }
    w
}

fn first_token(si: &cms::signed_data::SignerInfo) -> Option<Vec<u8>> {
    let attrs = si.unsigned_attrs.as_ref()?;
    let attr = attrs.iter().find(|a| a.oid == cmsmod::oid::ID_AA_SIGNATURE_TIMESTAMP_TOKEN)?;
    attr.values.iter().next()?.to_der().ok()
}

fn first_token_time(si: &cms::signed_data::SignerInfo) -> Option<u64> {
    let tok = first_token(si)?;
    tsp::tst_info(&tok).ok().map(|t| t.gen_time.to_unix_duration().as_secs())
}

/// The signature time-stamp's report, its TSA's path checked at `checked_at` (`None`: at the
/// token's own time).
fn timestamp_report(
    si: &cms::signed_data::SignerInfo,
    pool: &[Vec<u8>],
    trust: &TrustStore,
    checked_at: Option<u64>,
) -> Option<TimestampReport> {
    let token = first_token(si)?;
    Some(token_report(&token, si.signature.as_bytes(), pool, trust, checked_at).0)
}

/// The report of a time-stamp `token` over `covered`, its TSA's path checked at `checked_at`
/// (`None`: at the token's own time), with the token's time (UNIX seconds) when it is intact.
pub(crate) fn token_report(
    token: &[u8],
    covered: &[u8],
    pool: &[Vec<u8>],
    trust: &TrustStore,
    checked_at: Option<u64>,
) -> (TimestampReport, Option<u64>) {
    match tsp::check_token_over(token, covered) {
        Ok(info) => {
            let mut tsa_pool = info.other_certs_der.clone();
            tsa_pool.extend_from_slice(pool);
            let at = checked_at.unwrap_or(info.gen_time_unix);
            let trust_res = validate_chain(&info.tsa_cert_der, &tsa_pool, trust, at);
            let report = TimestampReport {
                intact: true,
                trusted: trust_res.is_ok(),
                gen_time: Some(info.gen_time),
                tsa_subject: Some(info.tsa_subject),
                error: trust_res.err().map(|e| format!("TSA not trusted: {e}")),
            };
            (report, Some(info.gen_time_unix))
        }
        Err(e) => {
            let report = TimestampReport {
                intact: false,
                trusted: false,
                gen_time: None,
                tsa_subject: None,
                error: Some(e.to_string()),
            };
            (report, None)
        }
    }
}

fn now_unix() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

fn chain_subjects(chain: &[Certificate]) -> Vec<String> {
    chain.iter().map(|c| c.tbs_certificate.subject.to_string()).collect()
}

/// Build and validate a path from `leaf_der` to an anchor in `trust`, using `pool` for
/// intermediates, at UNIX time `at`. Returns the path, leaf first, anchor last.
pub fn validate_chain(leaf_der: &[u8], pool: &[Vec<u8>], trust: &TrustStore, at: u64) -> Result<Vec<Certificate>> {
    let leaf = pki::parse_cert(leaf_der)?;
    check_validity(&leaf, at)?;
    let candidates: Vec<Certificate> = pool.iter().filter_map(|d| pki::parse_cert(d).ok()).collect();
    let mut path = vec![leaf];
    loop {
        let current = path.last().ok_or_else(|| Error::Verify("empty path".into()))?.clone();
        // A trust anchor equal to the current certificate, or one that issued it, ends the path.
        if let Some((_, anchor)) = trust.roots.iter().find(|(_, r)| *r == current) {
            let _ = anchor;
            return Ok(path);
        }
        if let Some((_, anchor)) = trust.roots.iter().find(|(_, r)| {
            r.tbs_certificate.subject == current.tbs_certificate.issuer
                && public_key::verify_cert_signature(&current, r).is_ok()
        }) {
            check_issuer(anchor, path.len() - 1, at)?;
            path.push(anchor.clone());
            return Ok(path);
        }
        if is_self_issued(&current) {
            return Err(Error::Verify(format!(
                "chain ends at \"{}\", which is not in the trust store",
                current.tbs_certificate.subject
            )));
        }
        if path.len() >= MAX_PATH {
            return Err(Error::Verify("certification path too long".into()));
        }
        let next = candidates
            .iter()
            .find(|c| {
                c.tbs_certificate.subject == current.tbs_certificate.issuer
                    && !path.contains(c)
                    && public_key::verify_cert_signature(&current, c).is_ok()
            })
            .ok_or_else(|| Error::Verify(format!("issuer \"{}\" not found", current.tbs_certificate.issuer)))?
            .clone();
        check_issuer(&next, path.len() - 1, at)?;
        path.push(next);
    }
}

fn check_validity(cert: &Certificate, at: u64) -> Result<()> {
    let v = &cert.tbs_certificate.validity;
    let nb = v.not_before.to_unix_duration().as_secs();
    let na = v.not_after.to_unix_duration().as_secs();
    if at < nb || at > na {
        return Err(Error::Verify(format!(
            "\"{}\" is not valid at {} (valid {} to {})",
            cert.tbs_certificate.subject,
            cmsmod::format_time(Duration::from_secs(at)),
            cmsmod::format_time(Duration::from_secs(nb)),
            cmsmod::format_time(Duration::from_secs(na)),
        )));
    }
    Ok(())
}

/// An issuer must be a valid CA (basicConstraints cA, pathLen) allowed to sign certificates.
/// `below` is the number of non-self-issued intermediates under it.
fn check_issuer(issuer: &Certificate, below: usize, at: u64) -> Result<()> {
    check_validity(issuer, at)?;
    let exts = issuer.tbs_certificate.extensions.as_deref().unwrap_or(&[]);
    let bc = exts
        .iter()
        .find(|e| e.extn_id == rfc5280::ID_CE_BASIC_CONSTRAINTS)
        .map(|e| BasicConstraints::from_der(e.extn_value.as_bytes()))
        .transpose()?;
    let subject = &issuer.tbs_certificate.subject;
    match bc {
        Some(bc) if bc.ca => {
            if let Some(len) = bc.path_len_constraint
                && below > usize::from(len)
            {
                return Err(Error::Verify(format!("path length constraint of \"{subject}\" exceeded")));
            }
        }
        _ => {
            return Err(Error::Verify(format!("\"{subject}\" is not a CA certificate")));
        }
    }
    if let Some(ku) = exts
        .iter()
        .find(|e| e.extn_id == rfc5280::ID_CE_KEY_USAGE)
        .map(|e| KeyUsage::from_der(e.extn_value.as_bytes()))
        .transpose()?
        && !ku.0.contains(KeyUsages::KeyCertSign)
    {
        return Err(Error::Verify(format!("\"{subject}\" may not sign certificates")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cms::CmsOptions;
    use crate::pki::{KeyAlgo, LocalCa};
    use crate::signer::{LocalKeySigner, RawSigner};

    #[test]
    fn a_proven_past_time_is_when_paths_are_checked() {
        const SIGNED: u64 = 1_000_000;
        const LATER: u64 = SIGNED + 15 * 365 * 86_400;
        // Past signature validation: the earlier, proven time wins over a chosen later one.
        assert_eq!(path_checked_at(Some(LATER), Some(SIGNED), Some(SIGNED)), SIGNED);
        // Nothing proven: the chosen time, even where the token claims an earlier one.
        assert_eq!(path_checked_at(Some(LATER), None, Some(SIGNED)), LATER);
        // A "proof" after the chosen time proves nothing earlier than it.
        assert_eq!(path_checked_at(Some(SIGNED), Some(LATER), None), SIGNED);
        assert_eq!(path_checked_at(None, None, Some(SIGNED)), SIGNED);
        let at = |validation_time, proven_existence| {
            timestamp_checked_at(&VerifyOptions { validation_time, proven_existence, ..Default::default() })
        };
        assert_eq!(at(Some(LATER), Some(SIGNED + 60)), Some(SIGNED + 60), "a later time-stamp covers the token");
        assert_eq!(at(Some(LATER), None), Some(LATER), "nothing covers it: judged at the chosen time");
        assert_eq!(at(None, Some(SIGNED)), None, "no chosen time: at the token's own time, as before");
    }

    #[test]
    fn chain_and_report() -> Result<()> {
        let root = LocalCa::generate_with("Root", KeyAlgo::EcP256)?;
        let inter = root.issue_intermediate("Inter", KeyAlgo::EcP256)?;
        let inter_ca = LocalCa::from_der(&inter.cert_der, &inter.key_pkcs8_der)?;
        let ee = inter_ca.issue_signer("Leaf", KeyAlgo::Rsa2048)?;
        let s = LocalKeySigner::from_pkcs8(&ee.key_pkcs8_der, &ee.cert_der, vec![inter.cert_der.clone()])?;
        let cms = crate::cms::sign_detached(&s, b"x", &CmsOptions::cades())?;
        let trust = TrustStore::from_der_certs(&[root.cert_der().to_vec()])?;
        let r = verify_cms(&cms, Content::Detached(b"x"), &trust, &VerifyOptions::default())?;
        assert!(r.valid, "{r:?}");
        assert_eq!(r.signers[0].chain.len(), 3);
        let r = verify_cms(&cms, Content::Detached(b"y"), &trust, &VerifyOptions::default())?;
        assert!(!r.valid && !r.signers[0].intact);
        let other = LocalCa::generate_with("Other", KeyAlgo::EcP256)?;
        let r = verify_cms(
            &cms,
            Content::Digest(&pki::sha256(b"x")),
            &TrustStore::from_der_certs(&[other.cert_der().to_vec()])?,
            &VerifyOptions::default(),
        )?;
        assert!(r.signers[0].intact && !r.signers[0].trusted && !r.valid);
        // Far future: certificates expired.
        let r = verify_cms(
            &cms,
            Content::Detached(b"x"),
            &trust,
            &VerifyOptions { validation_time: Some(4_000_000_000), ..Default::default() },
        )?;
        assert!(!r.signers[0].trusted);
        // A signingCertificateV2 naming another certificate: the signing certificate is not
        // identified (a certificate substituted for the one signed for).
        let decoy = inter_ca.issue_signer("Decoy", KeyAlgo::Rsa2048)?;
        let mut attrs =
            crate::cms::prepare_signed_attrs(&pki::sha256(b"x"), &decoy.cert_der, &[], &CmsOptions::cades())?;
        attrs.cert_der = ee.cert_der.clone();
        attrs.alg = crate::signer::SigAlg::for_certificate(&ee.cert_der)?;
        let substituted = crate::cms::assemble(&attrs, &s.sign(&attrs.der_to_sign)?)?;
        let r = verify_cms(&substituted, Content::Detached(b"x"), &trust, &VerifyOptions::default())?;
        let signer = &r.signers[0];
        assert!(!r.valid, "{r:?}");
        assert_eq!(
            (signer.indication, signer.sub_indication),
            (Indication::Indeterminate, Some(SubIndication::NoSigningCertificateFound))
        );
        // Signed attributes carried in another order than DER's: a format failure (the
        // signer signed those bytes, which a verifier re-encoding the set cannot rebuild).
        let unsorted = reorder_signed_attrs(&s, b"x")?;
        let r = verify_cms(&unsorted, Content::Detached(b"x"), &trust, &VerifyOptions::default())?;
        let signer = &r.signers[0];
        assert!(!r.valid && !signer.intact, "{r:?}");
        assert_eq!(
            (signer.indication, signer.sub_indication),
            (Indication::TotalFailed, Some(SubIndication::FormatFailure))
        );
        // A CRL the signer archived in its signed attributes (adbe-revocationInfoArchival, as
        // Acrobat and pyHanko embed it) is read: here it says the certificate is revoked.
        let crl = inter_ca.issue_crl_revoked_at(
            &[(serial_of(&ee.cert_der), std::time::SystemTime::now() - Duration::from_secs(60))],
            Duration::from_secs(86_400),
        )?;
        let archived = with_archived_crl(&s, b"x", &crl)?;
        let r = verify_cms(&archived, Content::Detached(b"x"), &trust, &VerifyOptions::default())?;
        let signer = &r.signers[0];
        assert!(!r.valid && signer.intact, "{r:?}");
        assert_eq!(signer.sub_indication, Some(SubIndication::RevokedNoPoe), "{signer:?}");
        // A directly trusted leaf is accepted.
        assert!(
            validate_chain(
                &ee.cert_der,
                &[],
                &TrustStore::from_der_certs(std::slice::from_ref(&ee.cert_der))?,
                now_unix()
            )
            .is_ok()
        );
        Ok(())
    }

    /// A CMS whose signed attributes are carried (and signed) in reverse DER order, as a
    /// signer that does not sort a SET OF writes them.
    fn reorder_signed_attrs(signer: &LocalKeySigner, data: &[u8]) -> Result<Vec<u8>> {
        let attrs = crate::cms::prepare_signed_attrs(
            &pki::sha256(data),
            signer.certificate_der(),
            signer.chain_der(),
            &CmsOptions::cades(),
        )?;
        let set = der::asn1::AnyRef::from_der(&attrs.der_to_sign)?;
        let mut reversed: Vec<Vec<u8>> =
            cmsmod::elements(set.value())?.iter().map(|e| e.to_der()).collect::<der::Result<_>>()?;
        reversed.reverse();
        let contents = reversed.concat();
        let header_len = attrs.der_to_sign.len() - contents.len();
        let mut unsorted_set = attrs.der_to_sign[..header_len].to_vec();
        unsorted_set.extend_from_slice(&contents);
        let cms = crate::cms::assemble_unchecked(&attrs, &signer.sign(&unsorted_set)?)?;
        let at = cms
            .windows(attrs.der_to_sign.len() - 1)
            .position(|w| w == &attrs.der_to_sign[1..])
            .expect("the attributes in the CMS");
        let mut out = cms.clone();
        out[at + header_len - 1..at + attrs.der_to_sign.len() - 1].copy_from_slice(&contents);
        Ok(out)
    }

    fn serial_of(cert_der: &[u8]) -> Vec<u8> {
        pki::parse_cert(cert_der).map(|c| c.tbs_certificate.serial_number.as_bytes().to_vec()).unwrap_or_default()
    }

    /// DER tag, length and content.
    fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
        let mut out = vec![tag];
        match content.len() {
            n if n < 0x80 => out.push(n as u8),
            n if n < 0x100 => out.extend([0x81, n as u8]),
            n => out.extend([0x82, (n >> 8) as u8, n as u8]),
        }
        out.extend_from_slice(content);
        out
    }

    /// A CAdES signature whose signed attributes archive `crl` (adbe-revocationInfoArchival).
    fn with_archived_crl(signer: &LocalKeySigner, data: &[u8], crl: &[u8]) -> Result<Vec<u8>> {
        let mut attrs = crate::cms::prepare_signed_attrs(
            &pki::sha256(data),
            signer.certificate_der(),
            signer.chain_der(),
            &CmsOptions::cades(),
        )?;
        let archival = tlv(0x30, &tlv(0xa0, &tlv(0x30, crl)));
        let mut set = der::asn1::SetOfVec::<x509_cert::attr::Attribute>::from_der(&attrs.der_to_sign)?;
        set.insert(cmsmod::attribute(cmsmod::oid::ADBE_REVOCATION_INFO_ARCHIVAL, der::Any::from_der(&archival)?)?)?;
        attrs.der_to_sign = set.to_der()?;
        crate::cms::assemble(&attrs, &signer.sign(&attrs.der_to_sign)?)
    }
}
