//! One verification entry point for every file type Signet signs: PDF (each signature and
//! document time-stamp, PAdES level, DSS, later changes), CMS (DER or PEM) and XML-DSig.
//! The report is serde-serializable; the CLI prints it as text or JSON.

use sha2::{Digest, Sha384, Sha512};
use signet_pdf::SignatureInfo;
use signet_pdf::object::Object;
use signet_pdf::reader::Document;
use signet_sigcrypto::validation::{CertificateStatus, Indication, SubIndication};
use signet_sigcrypto::verify::{
    Content, EmbeddedRevocation, SignerReport, TrustStore, VerifyOptions, signer_digest_algorithm, verify_cms,
};
use signet_sigcrypto::{pki, tsp, xmldsig};

use crate::error::{Error, Result};

/// What kind of file was verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileKind {
    Pdf,
    Cms,
    Xml,
}

/// The verdict on a whole file.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Report {
    pub file_kind: FileKind,
    /// At least one signature, and every signature is valid.
    pub valid: bool,
    pub signatures: Vec<SignatureReport>,
    /// Problems with the file as a whole (e.g. "no signatures").
    pub errors: Vec<String>,
}

/// A signature time-stamp or document time-stamp.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct TimestampInfo {
    pub intact: bool,
    pub trusted: bool,
    pub time: Option<String>,
    pub tsa: Option<String>,
}

/// The verdict on one signature.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct SignatureReport {
    /// 1-based position in the file.
    pub index: usize,
    /// `approval`, `certification`, `document-timestamp`, `cms`, `xml-dsig` or `xades`.
    pub kind: String,
    pub field_name: Option<String>,
    pub sub_filter: Option<String>,
    /// The signed bytes are unchanged and the signature value verifies.
    pub intact: bool,
    /// The signer certificate chains to the trust store.
    pub trusted: bool,
    /// intact && trusted && any time-stamp good && no disallowed later change && nothing added
    /// later lies over signed content && not revoked before a proven signing time.
    pub valid: bool,
    /// EN 319 102-1 main indication of the signature itself (its bytes, value, certificate
    /// and time); later changes to a PDF are judged by `modificationsAllowed` and
    /// `hidesSignedContent`. Absent where not established (document time-stamps, XML
    /// signatures checked against a pinned key).
    pub indication: Option<Indication>,
    /// Why, when not TOTAL-PASSED.
    pub sub_indication: Option<SubIndication>,
    /// For a document time-stamp that is intact and trusted: the time it proves everything it
    /// covers existed at (UNIX seconds).
    #[serde(skip)]
    pub proves_existence_at: Option<u64>,
    pub signer: Option<String>,
    pub signer_common_name: Option<String>,
    /// The signer's name as the PDF signature dictionary records it (`/Name`, inside the signed
    /// bytes): for a seal applied on a person's behalf (Signet's electronic signatures), the
    /// person.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_signer: Option<String>,
    /// The signer's certificate (DER), for reports that carry it (ETSI TS 119 102-2).
    #[serde(skip)]
    pub signer_certificate: Option<Vec<u8>>,
    pub issuer: Option<String>,
    /// Certification path, leaf first.
    pub chain: Vec<String>,
    /// Claimed signing time (`/M` or the signingTime attribute): not proof.
    pub signing_time: Option<String>,
    /// When the signer's certification path was checked (RFC 3339): the validation time, or
    /// the earlier time a trusted time-stamp proves the signature existed at (past signature
    /// validation: a certificate that expired since does not undo it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validated_at: Option<String>,
    pub timestamp: Option<TimestampInfo>,
    /// The ETSI baseline level: `B-B`, `B-T`, `B-LT`, `B-LTA` for PAdES signatures, `B-B`,
    /// `B-T`, `B-LT` for CAdES (a CMS file) and XAdES (an XML signature, EN 319 132-1); the
    /// file's kind tells which. (The name is the report's first, from when only PDFs had one.)
    pub pades_level: Option<String>,
    /// Revocation data (OCSP/CRL) embedded for long-term validation.
    pub revocation_data: bool,
    /// The signature covers the whole file (PDF: no later revision).
    pub covers_whole_document: bool,
    /// Revisions appended after this signature.
    pub later_revisions: usize,
    /// Whether those revisions only made changes that signing, DSS and form filling explain
    /// (and the DocMDP permission allows).
    pub modifications_allowed: bool,
    pub modifications: Vec<String>,
    /// Later changes of allowed kinds that lie over signed content (an annotation or a field
    /// appearance over signed text, a replaced appearance of this signature): each with its
    /// page, rectangle, what it draws and what it covers. The signature itself verifies; the
    /// document no longer shows what was signed.
    pub hides_signed_content: Vec<String>,
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

/// Verify a file against trust anchors (DER certificates).
pub fn verify_file(bytes: &[u8], trust: &[Vec<u8>]) -> Result<Report> {
    verify_file_with(bytes, None, trust, None)
}

/// [`verify_file`] with the content of a detached CMS and an explicit validation time
/// (UNIX seconds; default: time-stamp time, else now).
pub fn verify_file_with(
    bytes: &[u8],
    detached_content: Option<&[u8]>,
    trust: &[Vec<u8>],
    validation_time: Option<u64>,
) -> Result<Report> {
    let trust = TrustStore::from_der_certs(trust)?;
    let opts = VerifyOptions { validation_time, ..Default::default() };
    let report = match detect(bytes)? {
        FileKind::Pdf => verify_pdf(bytes, &trust, &opts)?,
        FileKind::Cms => verify_cms_file(bytes, detached_content, &trust, &opts)?,
        FileKind::Xml => verify_xml(bytes, &trust, &opts)?,
    };
    Ok(finish(report))
}

fn finish(mut report: Report) -> Report {
    if report.signatures.is_empty() && report.errors.is_empty() {
        report.errors.push("the file has no signatures".into());
    }
    report.valid = !report.signatures.is_empty() && report.signatures.iter().all(|s| s.valid);
    report
}

/// Decide the file type from its first bytes.
fn detect(bytes: &[u8]) -> Result<FileKind> {
    if bytes.is_empty() {
        return Err(Error::InvalidInput("the file is empty".into()));
    }
    // Readers accept a PDF header anywhere in the first KB (junk before %PDF- is common).
    let head = &bytes[..bytes.len().min(1024)];
    if head.windows(5).any(|w| w == b"%PDF-") {
        return Ok(FileKind::Pdf);
    }
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = text.iter().position(|b| !b.is_ascii_whitespace()).map_or(&[][..], |i| &text[i..]);
    if start.starts_with(b"-----BEGIN") {
        return Ok(FileKind::Cms);
    }
    if bytes[0] == 0x30 {
        return Ok(FileKind::Cms);
    }
    if start.starts_with(b"<") {
        return Ok(FileKind::Xml);
    }
    Err(Error::InvalidInput("not a PDF, CMS (DER/PEM) or XML file".into()))
}

// ---------------------------------------------------------------------------------------------
// CMS and XML
// ---------------------------------------------------------------------------------------------

fn verify_cms_file(bytes: &[u8], detached: Option<&[u8]>, trust: &TrustStore, opts: &VerifyOptions) -> Result<Report> {
    let der = if bytes[0] == 0x30 { bytes.to_vec() } else { pem_cms(bytes)? };
    let content = match detached {
        Some(d) => Content::Detached(d),
        None => Content::Embedded,
    };
    let cms = verify_cms(&der, content, trust, opts)?;
    let signatures = cms
        .signers
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut r = from_signer_report(s);
            r.index = i + 1;
            r.kind = "cms".into();
            r.covers_whole_document = true;
            r.modifications_allowed = true;
            r.valid = s.valid;
            r.revocation_data =
                matches!(s.certificate_status, Some(CertificateStatus::Good | CertificateStatus::Revoked { .. }));
            r.pades_level = Some(cades_level(&r).into());
            r
        })
        .collect();
    Ok(Report { file_kind: FileKind::Cms, valid: false, signatures, errors: Vec::new() })
}

/// CAdES level of a CMS signature (EN 319 122-1): B-T with a signature time-stamp, B-LT when
/// the CMS also carries an answer on its signer's certificate (checked, not merely present).
fn cades_level(r: &SignatureReport) -> &'static str {
    match (r.timestamp.is_some(), r.revocation_data) {
        (true, true) => "B-LT",
        (true, false) => "B-T",
        _ => "B-B",
    }
}

fn pem_cms(bytes: &[u8]) -> Result<Vec<u8>> {
    pki::pem_blocks(bytes)?
        .into_iter()
        .find(|(label, _)| matches!(label.as_str(), "PKCS7" | "CMS" | "PKCS #7 SIGNED DATA"))
        .map(|(_, der)| der)
        .ok_or_else(|| Error::InvalidInput("the PEM file holds no PKCS7/CMS block".into()))
}

fn from_signer_report(s: &SignerReport) -> SignatureReport {
    SignatureReport {
        intact: s.intact,
        trusted: s.trusted,
        signer: s.signer.as_ref().map(|x| x.subject.clone()),
        signer_common_name: s.signer.as_ref().and_then(|x| x.common_name.clone()),
        signer_certificate: s.signer.as_ref().map(|x| x.cert_der.clone()),
        issuer: s.signer.as_ref().map(|x| x.issuer.clone()),
        chain: s.chain.clone(),
        signing_time: s.claimed_signing_time.clone(),
        validated_at: Some(s.validation_time.clone()),
        timestamp: s.timestamp.as_ref().map(timestamp_info),
        indication: Some(s.indication),
        sub_indication: s.sub_indication,
        errors: s.errors.clone(),
        warnings: s.warnings.clone(),
        ..Default::default()
    }
}

fn timestamp_info(t: &signet_sigcrypto::verify::TimestampReport) -> TimestampInfo {
    TimestampInfo { intact: t.intact, trusted: t.trusted, time: t.gen_time.clone(), tsa: t.tsa_subject.clone() }
}

/// A signature whose structure is broken before its CMS can be checked.
fn format_failure(r: &mut SignatureReport, error: String) {
    r.indication = Some(Indication::TotalFailed);
    r.sub_indication = Some(SubIndication::FormatFailure);
    r.errors.push(error);
}

fn verify_xml(bytes: &[u8], trust: &TrustStore, opts: &VerifyOptions) -> Result<Report> {
    let xml = xmldsig::verify_enveloped(bytes, trust, opts)?;
    let signatures = xml
        .signatures
        .iter()
        .enumerate()
        .map(|(i, s)| SignatureReport {
            index: i + 1,
            kind: if s.xades { "xades" } else { "xml-dsig" }.into(),
            intact: s.intact,
            trusted: s.trusted,
            valid: s.valid,
            signer: s.signer_subject.clone(),
            signer_common_name: s.signer_common_name.clone(),
            signer_certificate: s.signer_certificate.clone(),
            issuer: s.issuer.clone(),
            chain: s.chain.clone(),
            signing_time: s.signing_time.clone(),
            covers_whole_document: s.covers_document,
            modifications_allowed: true,
            pades_level: s.level.clone(),
            timestamp: s.timestamp.as_ref().map(timestamp_info),
            revocation_data: s.revocation_data,
            indication: s.indication,
            sub_indication: s.sub_indication,
            errors: s.errors.clone(),
            ..Default::default()
        })
        .collect();
    Ok(Report { file_kind: FileKind::Xml, valid: false, signatures, errors: Vec::new() })
}

// ---------------------------------------------------------------------------------------------
// PDF
// ---------------------------------------------------------------------------------------------

/// What the document security store holds.
#[derive(Debug, Default)]
struct DssSummary {
    present: bool,
    revocation_items: usize,
    /// Its OCSP responses and CRLs (at most [`MAX_DSS_ITEMS`] of each).
    revocation: EmbeddedRevocation,
}

/// DSS entries read for revocation: far more than any real chain needs.
const MAX_DSS_ITEMS: usize = 256;

fn verify_pdf(bytes: &[u8], trust: &TrustStore, opts: &VerifyOptions) -> Result<Report> {
    let (infos, dss) = match signet_pdf::signatures(bytes) {
        Ok(infos) => (infos, dss_summary(bytes)?),
        // A file whose structure a later change broke: its signatures are still reported,
        // each failing on its own (found by scanning), unless there are none to report.
        Err(damage) if signet_pdf::is_damage(&damage) => {
            let found = signet_pdf::signatures_of_damaged(bytes, &damage.to_string());
            if found.is_empty() {
                return Err(damage.into());
            }
            (found, DssSummary::default())
        }
        Err(other) => return Err(other.into()),
    };
    let opts = &VerifyOptions { revocation: dss.revocation.clone(), ..opts.clone() };
    let mut signatures = Vec::with_capacity(infos.len());
    for (i, (info, mut r)) in infos.iter().zip(verify_newest_first(bytes, &infos, trust, opts)).enumerate() {
        r.index = i + 1;
        r.field_name = Some(info.field_name.clone());
        r.declared_signer = info.name.clone().filter(|name| !name.trim().is_empty());
        r.sub_filter = Some(info.sub_filter.clone());
        r.covers_whole_document = info.covers_whole_file;
        r.later_revisions = info.later_changes.later_revisions;
        r.revocation_data = dss.revocation_items > 0;
        apply_modifications(&mut r, info);
        signatures.push(r);
    }
    assign_levels(&mut signatures, &infos, &dss);
    for s in &mut signatures {
        let ts_ok = s.timestamp.as_ref().is_none_or(|t| t.intact && t.trusted);
        s.valid = s.intact
            && s.trusted
            && ts_ok
            && s.modifications_allowed
            && s.hides_signed_content.is_empty()
            && !matches!(s.sub_indication, Some(SubIndication::Revoked | SubIndication::RevokedNoPoe))
            && s.errors.is_empty();
    }
    Ok(Report { file_kind: FileKind::Pdf, valid: false, signatures, errors: Vec::new() })
}

fn verify_pdf_signature(
    bytes: &[u8],
    info: &SignatureInfo,
    trust: &TrustStore,
    opts: &VerifyOptions,
) -> SignatureReport {
    let mut r = SignatureReport {
        kind: if info.docmdp_p.is_some() { "certification" } else { "approval" }.into(),
        ..Default::default()
    };
    if !info.byte_range_ok {
        format_failure(&mut r, "the ByteRange does not describe exactly the /Contents gap".into());
        return r;
    }
    let digest = match range_digest(bytes, info) {
        Ok(d) => d,
        Err(e) => {
            format_failure(&mut r, e.to_string());
            return r;
        }
    };
    match verify_cms(&info.contents, Content::Digest(&digest), trust, opts) {
        Ok(cms) => match cms.signers.first() {
            Some(s) => {
                let kind = r.kind.clone();
                r = from_signer_report(s);
                r.kind = kind;
            }
            None => format_failure(&mut r, "the CMS has no signer".into()),
        },
        Err(e) => format_failure(&mut r, format!("not a valid CMS: {e}")),
    }
    // PAdES forbids the signingTime attribute: the claimed time is the dictionary's /M.
    if r.signing_time.is_none() {
        r.signing_time = info.signing_time.clone();
    }
    r
}

/// The ByteRange digest with the digest algorithm the signer used.
fn range_digest(bytes: &[u8], info: &SignatureInfo) -> Result<Vec<u8>> {
    let alg = signer_digest_algorithm(&info.contents)?;
    if alg == "sha256" {
        return Ok(info.digest.to_vec());
    }
    let br: Vec<usize> = info.byte_range.iter().map(|v| *v as usize).collect();
    let (first, second) = match (bytes.get(br[0]..br[0] + br[1]), bytes.get(br[2]..br[2] + br[3])) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err(Error::InvalidInput("the ByteRange lies outside the file".into())),
    };
    let parts = [first, second];
    Ok(match alg {
        "sha384" => parts.iter().fold(Sha384::new(), |h, p| h.chain_update(p)).finalize().to_vec(),
        "sha512" => parts.iter().fold(Sha512::new(), |h, p| h.chain_update(p)).finalize().to_vec(),
        other => return Err(Error::InvalidInput(format!("digest algorithm {other} is not accepted"))),
    })
}

fn is_document_timestamp(info: &SignatureInfo) -> bool {
    info.sig_type == "DocTimeStamp" || info.sub_filter == "ETSI.RFC3161"
}

/// Every signature and document time-stamp of the file, in file order, verified from the newest
/// to the oldest (EN 319 102-1 §5.6, long-term validation): each document time-stamp proves
/// that everything before it existed at its time, so an older time-stamp or signature is
/// judged at the earliest time a newer, valid time-stamp proves (its certificates may have
/// expired since). The newest is judged at the validation time: that its TSA certificate
/// still holds then is what a renewal gives.
fn verify_newest_first(
    bytes: &[u8],
    infos: &[SignatureInfo],
    trust: &TrustStore,
    opts: &VerifyOptions,
) -> Vec<SignatureReport> {
    let mut reports = Vec::with_capacity(infos.len());
    let mut proven: Option<u64> = None;
    for info in infos.iter().rev() {
        let opts = VerifyOptions { proven_existence: proven, ..opts.clone() };
        if is_document_timestamp(info) {
            let report = verify_doc_timestamp(info, trust, &opts);
            if let Some(at) = report.proves_existence_at {
                proven = Some(proven.map_or(at, |earlier| earlier.min(at)));
            }
            reports.push(report);
        } else {
            reports.push(verify_pdf_signature(bytes, info, trust, &opts));
        }
    }
    reports.reverse();
    reports
}

/// A document time-stamp (ETSI.RFC3161): its token's imprint must be the digest of the bytes it
/// covers, its CMS must verify and its TSA chain to a trusted anchor; its EN 319 102-1
/// indication says which of these failed.
fn verify_doc_timestamp(info: &SignatureInfo, trust: &TrustStore, opts: &VerifyOptions) -> SignatureReport {
    let mut r = SignatureReport { kind: "document-timestamp".into(), ..Default::default() };
    if !info.byte_range_ok {
        format_failure(&mut r, "the ByteRange does not describe exactly the /Contents gap".into());
        return r;
    }
    let imprint_matches =
        tsp::tst_info(&info.contents).ok().map(|tst| tst.message_imprint.hashed_message.as_bytes() == info.digest);
    let mut gen_time = None;
    let token_ok = match tsp::check_token(&info.contents, &info.digest) {
        Ok(token) => {
            gen_time = Some(token.gen_time_unix);
            r.signing_time = Some(token.gen_time.clone());
            r.timestamp = Some(TimestampInfo {
                intact: true,
                trusted: false,
                time: Some(token.gen_time),
                tsa: Some(token.tsa_subject),
            });
            true
        }
        Err(e) => {
            r.errors.push(e.to_string());
            false
        }
    };
    match verify_cms(&info.contents, Content::Embedded, trust, opts) {
        Ok(cms) => {
            if let Some(s) = cms.signers.first() {
                let base = from_signer_report(s);
                r.intact = token_ok && base.intact;
                r.trusted = base.trusted;
                r.signer = base.signer;
                r.signer_common_name = base.signer_common_name;
                r.issuer = base.issuer;
                r.chain = base.chain;
                r.validated_at = base.validated_at;
                r.errors.extend(base.errors);
                (r.indication, r.sub_indication) = (base.indication, base.sub_indication);
                if let Some(t) = &mut r.timestamp {
                    t.trusted = base.trusted;
                }
            }
        }
        Err(e) => format_failure(&mut r, format!("not a valid time-stamp token: {e}")),
    }
    // What the CMS check does not see: the token's imprint and the TSA's certificate use.
    if r.indication != Some(Indication::TotalFailed) {
        (r.indication, r.sub_indication) = match imprint_matches {
            None => (Some(Indication::TotalFailed), Some(SubIndication::FormatFailure)),
            Some(false) => (Some(Indication::TotalFailed), Some(SubIndication::HashFailure)),
            Some(true) if !token_ok => (Some(Indication::Indeterminate), Some(SubIndication::ChainConstraintsFailure)),
            Some(true) => (r.indication, r.sub_indication),
        };
    }
    // A time-stamp whose TSA certificate the file shows revoked proves nothing about what it
    // covers. One whose status the file does not carry still does: the time-stamps Signet and
    // others add over a B-B signature come without their TSA's status.
    let revoked = matches!(r.sub_indication, Some(SubIndication::Revoked | SubIndication::RevokedNoPoe));
    r.proves_existence_at =
        gen_time.filter(|_| r.intact && r.trusted && r.indication != Some(Indication::TotalFailed) && !revoked);
    r
}

/// Later revisions: allowed when the pdf crate explains every change, and the DocMDP
/// permission of a certification signature allows it (P=1: only DSS and time-stamps).
fn apply_modifications(r: &mut SignatureReport, info: &SignatureInfo) {
    let changes = &info.later_changes;
    r.modifications = changes.allowed.iter().chain(changes.disallowed.iter()).cloned().collect();
    let mut allowed = changes.disallowed.is_empty();
    if info.docmdp_p == Some(1) {
        let form_change = changes.allowed.iter().any(|c| {
            c.starts_with("form") || c.starts_with("page") || c.starts_with("field") || c.contains("AcroForm")
        });
        if form_change {
            r.errors.push("the document is certified with no changes allowed (P=1) but was changed".into());
            allowed = false;
        }
    }
    for d in &changes.disallowed {
        r.errors.push(format!("changed after signing: {d}"));
    }
    r.modifications_allowed = allowed;
    r.hides_signed_content = changes.covering.iter().map(ToString::to_string).collect();
}

fn dss_summary(bytes: &[u8]) -> Result<DssSummary> {
    let doc = Document::open(bytes)?;
    let (_, catalog) = doc.catalog()?;
    let Some(dss) = catalog.get("DSS").map(|d| doc.resolve_dict(d)).transpose()?.flatten() else {
        return Ok(DssSummary::default());
    };
    let items = |key: &str| -> Result<Vec<Object>> {
        Ok(dss.get(key).map(|a| doc.resolve_array(a)).transpose()?.flatten().unwrap_or_default())
    };
    let (ocsps, crls) = (items("OCSPs")?, items("CRLs")?);
    // An entry that cannot be read is no evidence; the rest still is.
    let decoded = |entries: &[Object]| -> Vec<Vec<u8>> {
        entries
            .iter()
            .take(MAX_DSS_ITEMS)
            .filter_map(|entry| match doc.resolve(entry) {
                Ok(Object::Stream(stream)) => doc.stream_decoded(&stream).ok(),
                _ => None,
            })
            .collect()
    };
    let revocation = EmbeddedRevocation { ocsps: decoded(&ocsps), crls: decoded(&crls) };
    Ok(DssSummary { present: true, revocation_items: ocsps.len() + crls.len(), revocation })
}

/// PAdES level of each CAdES signature:
/// B-B = ETSI.CAdES.detached with signingCertificateV2 (checked by the CMS verification);
/// B-T = a signature time-stamp, or a document time-stamp added after it;
/// B-LT = B-T plus a DSS with revocation data;
/// B-LTA = B-LT plus a document time-stamp added after the signature.
/// The DSS is not matched to each certificate: "revocation data present" is document-wide.
fn assign_levels(reports: &mut [SignatureReport], infos: &[SignatureInfo], dss: &DssSummary) {
    let end = |i: &SignatureInfo| i.byte_range.get(2).copied().unwrap_or(0);
    let doc_ts_ends: Vec<i64> = infos.iter().filter(|i| is_document_timestamp(i)).map(end).collect();
    for (r, info) in reports.iter_mut().zip(infos) {
        if info.sub_filter != "ETSI.CAdES.detached" || r.kind == "document-timestamp" {
            continue;
        }
        let later_doc_ts = doc_ts_ends.iter().any(|e| *e > end(info));
        let t = r.timestamp.is_some() || later_doc_ts;
        let lt = t && dss.present && dss.revocation_items > 0;
        let level = match (t, lt, lt && later_doc_ts) {
            (_, _, true) => "B-LTA",
            (_, true, false) => "B-LT",
            (true, false, false) => "B-T",
            _ => "B-B",
        };
        r.pades_level = Some(level.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_file_kinds() {
        assert!(matches!(detect(b"%PDF-1.7\n"), Ok(FileKind::Pdf)));
        assert!(matches!(detect(b"\x30\x82\x01\x00"), Ok(FileKind::Cms)));
        assert!(matches!(detect(b"  -----BEGIN PKCS7-----"), Ok(FileKind::Cms)));
        assert!(matches!(detect(b"\xEF\xBB\xBF<?xml version='1.0'?><a/>"), Ok(FileKind::Xml)));
        assert!(detect(b"").is_err());
        assert!(detect(b"hello world").is_err());
    }

    #[test]
    fn garbage_pdf_is_an_error_not_a_panic() {
        for input in [&b"%PDF-1.7\n"[..], b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer<</Root 1 0 R>>\n%%EOF"] {
            let _ = verify_file(input, &[]);
        }
    }
}
