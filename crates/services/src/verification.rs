//! Verification for everyone: anyone hands in a signed PDF, XML or CMS file and gets each
//! signature's signer, time, method (electronic signature sealed by Signet, Aadhaar eSign,
//! digital signature certificate, time-stamp), validity, trust, long-term status and whether the
//! document changed after it, in words a bank's customer understands. Nothing handed in is kept.
//!
//! Trusted are: this Signet's own CA (its tenants' seals), the eSign CAs of the configured ESP,
//! the CAs of users' enrolled certificates (`certificate_trust_list`) and any further anchors the
//! operator lists (`verification_trust_list`: a national root, TSAs).

use std::fmt;

use serde::Serialize;
use signet_domain::{Error, ErrorCode};
use signet_signing::{FileKind, Report, SignatureReport, SubIndication};

use crate::platform::heavy::Share;
use crate::{Caller, Services};
use signet_domain::access::Permission;

/// How a signature was made, as a reader would name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Sealed by this Signet for one of its organisations (electronic signatures and seals).
    Electronic,
    /// With a certificate an Aadhaar eSign service issued for the signing.
    AadhaarEsign,
    /// With a digital signature certificate (a crypto token, an HSM, a file).
    DigitalCertificate,
    /// A document time-stamp (no person signs it).
    Timestamp,
}

impl Method {
    pub fn label(self) -> &'static str {
        match self {
            Method::Electronic => "Electronic signature, sealed by Signet",
            Method::AadhaarEsign => "Aadhaar eSign",
            Method::DigitalCertificate => "Digital signature certificate",
            Method::Timestamp => "Document time-stamp",
        }
    }
}

/// A signature's verdict, the most important first: `broken`, `changed`, `covered`, `revoked`,
/// `untrusted`, `valid`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Intact, trusted, and the document has not changed since in any way it forbids.
    Valid,
    /// The document changed after it in a way it does not allow.
    Changed,
    /// The signature holds, but something added later lies over signed content.
    Covered,
    /// The certificate was revoked before a proven signing time, or revoked with no proof of
    /// when the signature was made.
    Revoked,
    /// Intact, but no trusted certificate.
    Untrusted,
    /// The signature does not match the document (or its time-stamp failed).
    Broken,
}

impl Status {
    /// The code the API gives: `valid`, `changed`, `covered`, `revoked`, `untrusted`, `broken`.
    pub fn code(self) -> &'static str {
        match self {
            Status::Valid => "valid",
            Status::Changed => "changed",
            Status::Covered => "covered",
            Status::Revoked => "revoked",
            Status::Untrusted => "untrusted",
            Status::Broken => "broken",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Where a signature's time comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TimeSource {
    /// A time-stamp authority confirmed it.
    #[serde(rename = "time-stamp")]
    Timestamp,
    /// The signer stated it when signing.
    #[serde(rename = "claimed by the signer")]
    ClaimedBySigner,
}

impl TimeSource {
    /// The API's words: `time-stamp` or `claimed by the signer`.
    pub fn code(self) -> &'static str {
        match self {
            TimeSource::Timestamp => "time-stamp",
            TimeSource::ClaimedBySigner => "claimed by the signer",
        }
    }
}

impl fmt::Display for TimeSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One sentence that explains a verdict, with the values it names; [`Sentence::english`] writes
/// it in English (as the API gives it), the pages in the reader's language. `signer` is the
/// signer's name, `None` when the certificate names nobody.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sentence {
    /// Valid: signed, and unchanged since in any way the signature forbids.
    Valid { signer: Option<String> },
    /// Not valid: the document changed after signing.
    Changed { signer: Option<String> },
    /// Not valid: the certificate is revoked; why, as the sub-indication says (`None`: only
    /// that it is revoked).
    Revoked { signer: Option<String>, reason: Option<SubIndication> },
    /// The signature holds, but something added later hides signed content.
    Covered { signer: Option<String> },
    /// Intact, but the certificate's authority is not trusted here.
    Untrusted { signer: Option<String> },
    /// Not valid: the signature does not match the document.
    Broken { signer: Option<String> },
    /// How it was signed.
    Method { method: Method, signer: Option<String> },
    /// When it was signed, and who says so.
    Time { at: String, source: TimeSource },
    /// Later additions are of kinds the signature allows.
    AllowedAdditions,
    /// Something added after signing lies over signed content (the PDF verifier's description).
    Hidden { covering: String },
    /// A change after signing (the PDF verifier's description).
    Change { change: String },
    /// The certificate's status could not be checked: the document does not carry it.
    RevocationNotChecked,
    /// What is needed to check it for years is inside the document.
    LongTerm,
}

impl Sentence {
    /// The sentence in English, as the API gives it.
    pub fn english(&self) -> String {
        let who = |signer: &Option<String>| signer.clone().unwrap_or_else(|| "an unnamed signer".to_string());
        match self {
            Sentence::Valid { signer } => format!(
                "Valid: signed by {}, and the document has not changed since in any way this signature forbids.",
                who(signer)
            ),
            Sentence::Changed { signer } => {
                format!("Not valid: the document was changed after {} signed it.", who(signer))
            }
            Sentence::Revoked { signer, reason } => format!(
                "Not valid: {}.",
                reason.map_or("the certificate is revoked", SubIndication::explain).replace("the signer", &who(signer))
            ),
            Sentence::Covered { signer } => format!(
                "The signature of {} holds, but the document was changed after signing in a way that hides signed content: what it shows now is not what was signed.",
                who(signer)
            ),
            Sentence::Untrusted { signer } => format!(
                "Signed by {} and unchanged since, but the certificate comes from an authority this service does not trust.",
                who(signer)
            ),
            Sentence::Broken { signer } => format!(
                "Not valid: the signature of {} does not match the document (it was altered or damaged).",
                who(signer)
            ),
            Sentence::Method { method, signer } => match method {
                Method::Electronic => {
                    format!("{}: {} used this Signet, which sealed the document.", method.label(), who(signer))
                }
                Method::AadhaarEsign => {
                    format!("{}: {} confirmed the signing with Aadhaar.", method.label(), who(signer))
                }
                Method::DigitalCertificate => {
                    format!("{}: {} signed with their own certificate.", method.label(), who(signer))
                }
                Method::Timestamp => "A time-stamp authority confirmed when the document existed in this form.".into(),
            },
            Sentence::Time { at, source: TimeSource::Timestamp } => {
                format!("Time: {at}, confirmed by a time-stamp authority.")
            }
            Sentence::Time { at, source: TimeSource::ClaimedBySigner } => {
                format!("Time: {at}, as stated when signing (not confirmed by a time-stamp authority).")
            }
            Sentence::AllowedAdditions => {
                "Later additions (further signatures, form filling) are of kinds this signature allows.".into()
            }
            Sentence::Hidden { covering } => format!("Hidden after signing: {covering}."),
            Sentence::Change { change } => format!("Change after signing: {change}."),
            Sentence::RevocationNotChecked => {
                format!("Revocation not checked: {}.", SubIndication::TryLater.explain())
            }
            Sentence::LongTerm => {
                "It can be checked for years: what is needed to check it is inside the document.".into()
            }
        }
    }
}

impl fmt::Display for Sentence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.english())
    }
}

/// Serialised as its English text.
impl Serialize for Sentence {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.english())
    }
}

/// The sentence about the whole file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Summary {
    /// The file carries no signature.
    Unsigned { kind: FileKind },
    /// `count` signatures, every one valid.
    AllValid { kind: FileKind, count: usize },
    /// `count` signatures, `bad` of them not valid (or the file as a whole is not).
    NotAllValid { kind: FileKind, count: usize, bad: usize },
}

impl Summary {
    /// The sentence in English, as the API gives it.
    pub fn english(&self) -> String {
        let kind = |kind: &FileKind| match kind {
            FileKind::Pdf => "PDF",
            FileKind::Cms => "CMS signature",
            FileKind::Xml => "XML document",
        };
        match self {
            Summary::Unsigned { kind: k } => format!("This {} carries no signature.", kind(k)),
            Summary::AllValid { kind: k, count } => {
                format!("This {} carries {count} signature(s), all valid.", kind(k))
            }
            Summary::NotAllValid { kind: k, count, bad } => {
                format!("This {} carries {count} signature(s); {bad} of them not valid: see below.", kind(k))
            }
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.english())
    }
}

/// Serialised as its English text.
impl Serialize for Summary {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.english())
    }
}

/// One signature, for people.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub method: Method,
    pub status: Status,
    /// Who signed: the certificate's name (for a Signet seal, the organisation).
    pub signer: Option<String>,
    /// When: the time-stamp's time when there is one, else the time the signer claimed.
    pub signed_at: Option<String>,
    pub time_source: Option<TimeSource>,
    /// Revocation data and time-stamps are embedded, so it can be checked for years.
    pub long_term: bool,
    /// Sentences that explain the verdict, first the most important.
    pub explanation: Vec<Sentence>,
}

/// The whole answer.
#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    pub report: Report,
    pub verdicts: Vec<Verdict>,
    /// One sentence about the whole file.
    pub summary: Summary,
}

/// Largest file verified (the request body limit applies first).
pub const MAX_FILE_BYTES: usize = 25 << 20;

/// The anchors that verification trusts, with the subjects that tell the methods apart.
struct Anchors {
    certificates: Vec<Vec<u8>>,
    platform_subjects: Vec<String>,
    esign_subjects: Vec<String>,
}

fn read_certificates(path: &std::path::Path) -> Result<Vec<Vec<u8>>, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::internal(format!("{}: {e}", path.display())))?;
    signet_sigcrypto::pki::certs_from_pem_or_der(&bytes)
        .map_err(|e| Error::internal(format!("{}: {e}", path.display())))
}

fn anchors(svc: &Services) -> Result<Anchors, Error> {
    let subjects = |certs: &[Vec<u8>]| certs.iter().filter_map(|c| signet_sigcrypto::pki::cert_subject(c)).collect();
    let platform = vec![svc.keys.ca.cert_der.clone()];
    let esign = svc.esign.as_ref().map(|e| e.esign_cas()).unwrap_or_default();
    let mut certificates = [platform.clone(), esign.clone()].concat();
    for path in [&svc.config.certificate_trust_list, &svc.config.verification_trust_list].into_iter().flatten() {
        certificates.extend(read_certificates(path)?);
    }
    Ok(Anchors { platform_subjects: subjects(&platform), esign_subjects: subjects(&esign), certificates })
}

/// Verifies a file (with the content of a detached CMS, if any) on the heavy-work pool.
pub async fn verify(svc: &Services, file: Vec<u8>, detached: Option<Vec<u8>>) -> Result<Verification, Error> {
    if file.is_empty() {
        return Err(Error::field("fileData", "is empty"));
    }
    if file.len() > MAX_FILE_BYTES || detached.as_ref().is_some_and(|d| d.len() > MAX_FILE_BYTES) {
        return Err(Error::field("fileData", format!("must be at most {} MiB", MAX_FILE_BYTES >> 20)));
    }
    let anchors = anchors(svc)?;
    let report = svc
        .heavy
        .run(Share::Verification, move || {
            let report = signet_signing::verify_file_with(&file, detached.as_deref(), &anchors.certificates, None);
            report.map(|report| (report, anchors))
        })
        .await?
        .map_err(|e| Error::rejected(ErrorCode::ValidationFailed, format!("the file cannot be verified: {e}")))?;
    let (report, anchors) = report;
    Ok(explain(report, &anchors))
}

/// [`verify`] for base64 fields (`fileData`, `detachedContent`) as the API takes them.
pub async fn verify_base64(svc: &Services, file: Option<&str>, detached: Option<&str>) -> Result<Verification, Error> {
    let (file, detached) = decode_upload(file.unwrap_or_default(), detached)?;
    verify(svc, file, detached).await
}

/// The ETSI TS 119 102-2 validation report on a file, for anyone (as [`verify`]). A file
/// without signatures has none (400 on `fileData`).
pub async fn etsi_report(
    svc: &Services,
    file: Vec<u8>,
    detached: Option<Vec<u8>>,
) -> Result<signet_signing::etsi::ValidationReport, Error> {
    let verification = verify(svc, file, detached).await?;
    signet_signing::etsi::ValidationReport::of_now(&verification.report)
        .map_err(|_| Error::field("fileData", "has no signatures to report on"))
}

/// [`etsi_report`] as XML sealed by the caller's organisation (an enveloped XAdES signature by
/// its sealing certificate, where the schema places `ds:Signature`): a statement, in the
/// organisation's name, of what the file showed when it was checked. Making it is reading the
/// tenant's workflows (senders, auditors, administrators), not signing anything for anyone.
pub async fn sealed_etsi_report(
    svc: &Services,
    caller: &Caller,
    file: Vec<u8>,
    detached: Option<Vec<u8>>,
) -> Result<Vec<u8>, Error> {
    caller.require(Permission::ReadWorkflows)?;
    let report = etsi_report(svc, file, detached).await?;
    let seal = svc.seals.for_tenant(&svc.store, caller.tenant_id).await?;
    let xml = report.to_xml();
    svc.heavy
        .run(Share::Tenant(caller.tenant_id), move || signet_signing::sign_xml(xml.as_bytes(), seal.as_ref(), true))
        .await?
        .map_err(|e| Error::internal(format!("sealing the validation report: {e}")))
}

/// The file and detached content of an API request (base64 fields).
pub fn decode_upload(file: &str, detached: Option<&str>) -> Result<(Vec<u8>, Option<Vec<u8>>), Error> {
    let file = crate::workflows::documents::decode_base64("fileData", Some(file), MAX_FILE_BYTES)?;
    let detached = match detached.filter(|d| !d.trim().is_empty()) {
        Some(d) => Some(crate::workflows::documents::decode_base64("detachedContent", Some(d), MAX_FILE_BYTES)?),
        None => None,
    };
    Ok((file, detached))
}

/// Where a QR code on a document leads: its public verification page.
pub fn page_url(svc: &Services, token: &str) -> String {
    format!("{}/verify/d/{token}", svc.config.public_base())
}

/// Where a QR code goes on a document: pages and box (points from the page's top-left).
#[derive(Debug, Clone, PartialEq)]
pub struct QrPlacement {
    pub pages: signet_pdf::PageSelection,
    pub rect: signet_pdf::BoxSpec,
}

/// Most QR codes asked for on one document.
pub const MAX_QR_PLACEMENTS: usize = 10;
/// The smallest box a QR code is drawn in: below about half an inch phones do not read it.
pub const MIN_QR_SIDE: f64 = 40.0;

/// The QR code for `url` (error correction M) at each placement.
fn qr_marks(url: &str, placements: &[QrPlacement]) -> Result<Vec<signet_pdf::QrMark>, Error> {
    let code = qrcode::QrCode::with_error_correction_level(url.as_bytes(), qrcode::EcLevel::M)
        .map_err(|e| Error::internal(format!("QR code: {e:?}")))?;
    let dark: Vec<bool> = code.to_colors().into_iter().map(|c| c == qrcode::Color::Dark).collect();
    Ok(placements
        .iter()
        .map(|p| signet_pdf::QrMark { pages: p.pages.clone(), rect: p.rect, width: code.width(), dark: dark.clone() })
        .collect())
}

/// A document with QR codes that lead to its public verification page, and the token of that
/// page (to record once the document is stored). Heavy work: run it on the pool.
pub fn with_qr_codes(
    svc: &Services,
    pdf: crate::workflows::documents::CheckedPdf,
    placements: &[QrPlacement],
) -> Result<(crate::workflows::documents::CheckedPdf, String), Error> {
    let token = crate::platform::secrets::random_token(24);
    let marks = qr_marks(&page_url(svc, &token), placements)?;
    let bytes = signet_pdf::draw_qr_codes(&pdf.bytes, &marks).map_err(|e| match e {
        signet_pdf::Error::NoSuchPage(page, count) => {
            Error::field("qrCodeCordinats", format!("page {page} is beyond the document's {count} pages"))
        }
        other => Error::field("qrCodeCordinats", other.to_string()),
    })?;
    let sha256 = crate::workflows::documents::sha256_hex(&bytes);
    Ok((crate::workflows::documents::CheckedPdf { bytes, sha256, ..pdf }, token))
}

/// Records a stored document's verification page token.
pub async fn record_page(svc: &Services, token: &str, document: &signet_store::DocumentRow) -> Result<(), Error> {
    svc.store.add_document_verification(&crate::platform::secrets::hash_token(token), document).await
}

/// The stored document a verification page's token opens, and the verdicts on its current
/// version; `None` for a token that opens nothing.
pub async fn of_document(
    svc: &Services,
    token: &str,
) -> Result<Option<(signet_store::DocumentRow, Verification)>, Error> {
    if token.is_empty() || token.len() > 100 {
        return Ok(None);
    }
    let Some(document) = svc.store.verified_document(&crate::platform::secrets::hash_token(token)).await? else {
        return Ok(None);
    };
    let key = signet_blob::BlobKey::parse(&document.current_blob)?;
    let bytes = svc.blob.get(&key).await?;
    let verification = verify(svc, bytes.to_vec(), None).await?;
    Ok(Some((document, verification)))
}

fn explain(report: Report, anchors: &Anchors) -> Verification {
    let verdicts: Vec<Verdict> = report.signatures.iter().map(|s| verdict(s, anchors)).collect();
    let summary = summary(&report, &verdicts);
    Verification { report, verdicts, summary }
}

fn method_of(signature: &SignatureReport, anchors: &Anchors) -> Method {
    if signature.kind == "document-timestamp" {
        return Method::Timestamp;
    }
    let issued_by = |subjects: &[String]| {
        signature.issuer.as_ref().is_some_and(|i| subjects.contains(i))
            || signature.chain.iter().skip(1).any(|c| subjects.contains(c))
    };
    if issued_by(&anchors.platform_subjects) {
        Method::Electronic
    } else if issued_by(&anchors.esign_subjects) {
        Method::AadhaarEsign
    } else {
        Method::DigitalCertificate
    }
}

fn status_of(signature: &SignatureReport) -> Status {
    if !signature.intact {
        Status::Broken
    } else if signature.later_revisions > 0 && !signature.modifications_allowed {
        Status::Changed
    } else if !signature.hides_signed_content.is_empty() {
        Status::Covered
    } else if matches!(signature.sub_indication, Some(SubIndication::Revoked | SubIndication::RevokedNoPoe)) {
        Status::Revoked
    } else if !signature.trusted {
        Status::Untrusted
    } else if signature.valid {
        Status::Valid
    } else {
        // Intact and trusted, yet not valid: its time-stamp failed.
        Status::Broken
    }
}

fn verdict(signature: &SignatureReport, anchors: &Anchors) -> Verdict {
    let method = method_of(signature, anchors);
    let status = status_of(signature);
    let signer = match method {
        // Signet sealed it for a person: the person the signature names (its /Name, signed),
        // else the organisation whose seal it is.
        Method::Electronic => signature.declared_signer.clone().or_else(|| {
            signature.signer_common_name.as_deref().map(|name| name.trim_end_matches(" (sealed by Signet)").to_string())
        }),
        _ => signature.signer_common_name.clone(),
    };
    let (signed_at, time_source) = match (&signature.timestamp, &signature.signing_time) {
        (Some(ts), _) if ts.intact && ts.time.is_some() => {
            (ts.time.as_deref().map(readable_time), Some(TimeSource::Timestamp))
        }
        (_, Some(claimed)) => (Some(readable_time(claimed)), Some(TimeSource::ClaimedBySigner)),
        _ => (None, None),
    };
    let long_term = matches!(signature.pades_level.as_deref(), Some("B-LT" | "B-LTA")) || signature.revocation_data;
    let explanation = explanation(signature, method, status, signer.as_ref(), signed_at.as_ref(), time_source);
    Verdict { method, status, signer, signed_at, time_source, long_term, explanation }
}

fn explanation(
    signature: &SignatureReport,
    method: Method,
    status: Status,
    signer: Option<&String>,
    signed_at: Option<&String>,
    time_source: Option<TimeSource>,
) -> Vec<Sentence> {
    let signer = signer.cloned();
    let mut lines = vec![match status {
        Status::Valid => Sentence::Valid { signer: signer.clone() },
        Status::Changed => Sentence::Changed { signer: signer.clone() },
        Status::Revoked => Sentence::Revoked { signer: signer.clone(), reason: signature.sub_indication },
        Status::Covered => Sentence::Covered { signer: signer.clone() },
        Status::Untrusted => Sentence::Untrusted { signer: signer.clone() },
        Status::Broken => Sentence::Broken { signer: signer.clone() },
    }];
    lines.push(Sentence::Method { method, signer });
    if let (Some(at), Some(source)) = (signed_at, time_source) {
        lines.push(Sentence::Time { at: at.clone(), source });
    }
    if signature.later_revisions > 0 && signature.modifications_allowed {
        lines.push(Sentence::AllowedAdditions);
    }
    for covering in signature.hides_signed_content.iter().take(5) {
        lines.push(Sentence::Hidden { covering: covering.clone() });
    }
    for change in signature.modifications.iter().filter(|_| !signature.modifications_allowed).take(5) {
        lines.push(Sentence::Change { change: change.clone() });
    }
    if signature.sub_indication == Some(SubIndication::TryLater) {
        lines.push(Sentence::RevocationNotChecked);
    }
    if checkable_for_years(signature) {
        lines.push(Sentence::LongTerm);
    }
    lines
}

/// PAdES B-LT or B-LTA; for a PDF signature outside PAdES (`adbe.pkcs7.detached`, as Aadhaar
/// eSign's are labelled), which has no level, the same facts B-LT asks for: an intact
/// signature time-stamp and revocation data in the document.
fn checkable_for_years(signature: &SignatureReport) -> bool {
    match signature.pades_level.as_deref() {
        Some(level) => matches!(level, "B-LT" | "B-LTA"),
        None => {
            signature.sub_filter.as_deref() == Some("adbe.pkcs7.detached")
                && signature.revocation_data
                && signature.timestamp.as_ref().is_some_and(|t| t.intact)
        }
    }
}

/// A PDF date (`D:20261124143514+05'30'`) or an RFC 3339 time as `2026-11-24 14:35:14 UTC+05:30`;
/// anything else as it came.
fn readable_time(raw: &str) -> String {
    if let Some(pdf) = raw.strip_prefix("D:") {
        let digits: String = pdf.chars().take_while(char::is_ascii_digit).collect();
        if digits.len() >= 14 {
            let d = |a: usize, b: usize| &digits[a..b];
            let zone = match &pdf[digits.len()..] {
                "" | "Z" | "Z00'00'" | "+00'00'" | "-00'00'" => "UTC".to_string(),
                other => format!("UTC{}", other.trim_end_matches('\'').replace('\'', ":")),
            };
            return format!("{}-{}-{} {}:{}:{} {zone}", d(0, 4), d(4, 6), d(6, 8), d(8, 10), d(10, 12), d(12, 14));
        }
        return raw.to_string();
    }
    match raw.split_once('T') {
        Some((date, time)) if date.len() == 10 => {
            let (clock, zone) = match time.strip_suffix('Z') {
                Some(clock) => (clock, "UTC".to_string()),
                None => match time.rfind(['+', '-']) {
                    Some(at) => (&time[..at], format!("UTC{}", &time[at..])),
                    None => (time, String::new()),
                },
            };
            format!("{date} {} {zone}", clock.split('.').next().unwrap_or(clock)).trim_end().to_string()
        }
        _ => raw.to_string(),
    }
}

fn summary(report: &Report, verdicts: &[Verdict]) -> Summary {
    let kind = report.file_kind;
    match verdicts.len() {
        0 => Summary::Unsigned { kind },
        count if report.valid => Summary::AllValid { kind, count },
        count => {
            let bad = verdicts.iter().filter(|v| v.status != Status::Valid).count();
            Summary::NotAllValid { kind, count, bad }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anchors() -> Anchors {
        Anchors {
            certificates: Vec::new(),
            platform_subjects: vec!["CN=Signet Platform CA".into()],
            esign_subjects: vec!["CN=eSign CA 2024".into()],
        }
    }

    fn signature(issuer: &str) -> SignatureReport {
        SignatureReport {
            kind: "approval".into(),
            intact: true,
            trusted: true,
            valid: true,
            issuer: Some(issuer.into()),
            signer_common_name: Some("Acme Bank (sealed by Signet)".into()),
            ..Default::default()
        }
    }

    #[test]
    fn the_issuer_tells_the_method() {
        let a = anchors();
        assert_eq!(method_of(&signature("CN=Signet Platform CA"), &a), Method::Electronic);
        assert_eq!(method_of(&signature("CN=eSign CA 2024"), &a), Method::AadhaarEsign);
        assert_eq!(method_of(&signature("CN=Some DSC CA"), &a), Method::DigitalCertificate);
        let stamp = SignatureReport { kind: "document-timestamp".into(), ..signature("CN=Signet Platform CA") };
        assert_eq!(method_of(&stamp, &a), Method::Timestamp);
    }

    #[test]
    fn the_status_puts_a_broken_or_changed_document_first() {
        let good = signature("CN=x");
        assert_eq!(status_of(&good), Status::Valid);
        assert_eq!(status_of(&SignatureReport { intact: false, valid: false, ..good.clone() }), Status::Broken);
        let changed =
            SignatureReport { later_revisions: 1, modifications_allowed: false, valid: false, ..good.clone() };
        assert_eq!(status_of(&changed), Status::Changed);
        assert_eq!(status_of(&SignatureReport { trusted: false, valid: false, ..good.clone() }), Status::Untrusted);
        let verdict = verdict(&good, &anchors());
        assert_eq!(verdict.signer.as_deref(), Some("Acme Bank (sealed by Signet)"), "not a Signet seal here");
        let sealed = verdict_of_platform();
        assert_eq!(sealed.signer.as_deref(), Some("Acme Bank"));
        // A seal applied for a person names the person.
        let for_person =
            SignatureReport { declared_signer: Some("Meena Iyer".into()), ..signature("CN=Signet Platform CA") };
        assert_eq!(super::verdict(&for_person, &anchors()).signer.as_deref(), Some("Meena Iyer"));
        let own_certificate = SignatureReport { declared_signer: Some("Someone Else".into()), ..signature("CN=x") };
        assert_eq!(
            super::verdict(&own_certificate, &anchors()).signer.as_deref(),
            Some("Acme Bank (sealed by Signet)")
        );
        assert!(sealed.explanation[0].english().starts_with("Valid"), "{:?}", sealed.explanation);
    }

    #[test]
    fn an_esign_pdf_signature_outside_pades_is_long_term_on_the_same_facts() {
        let timestamp = signet_signing::TimestampInfo { intact: true, trusted: true, time: None, tsa: None };
        let esign = SignatureReport {
            sub_filter: Some("adbe.pkcs7.detached".into()),
            revocation_data: true,
            timestamp: Some(timestamp),
            ..signature("CN=eSign CA 2024")
        };
        assert!(checkable_for_years(&esign));
        assert!(!checkable_for_years(&SignatureReport { timestamp: None, ..esign.clone() }));
        assert!(!checkable_for_years(&SignatureReport { revocation_data: false, ..esign.clone() }));
        let pades = SignatureReport { sub_filter: Some("ETSI.CAdES.detached".into()), ..esign.clone() };
        assert!(!checkable_for_years(&SignatureReport { pades_level: Some("B-T".into()), ..pades.clone() }));
        assert!(checkable_for_years(&SignatureReport { pades_level: Some("B-LT".into()), ..pades }));
    }

    #[test]
    fn times_read_as_dates() {
        assert_eq!(readable_time("D:20261124143514+00'00'"), "2026-11-24 14:35:14 UTC");
        assert_eq!(readable_time("D:20261124143514+05'30'"), "2026-11-24 14:35:14 UTC+05:30");
        assert_eq!(readable_time("2026-11-24T14:35:14Z"), "2026-11-24 14:35:14 UTC");
        assert_eq!(readable_time("2026-11-24T14:35:14.25+05:30"), "2026-11-24 14:35:14 UTC+05:30");
        assert_eq!(readable_time("yesterday"), "yesterday");
        assert_eq!(readable_time("D:2026"), "D:2026");
    }

    /// Every sentence in English exactly as the API gave it before the sentences were typed.
    #[test]
    fn the_sentences_read_in_english_as_before() {
        let acme = || Some("Acme Bank".to_string());
        let cases = [
            (
                Sentence::Valid { signer: acme() },
                "Valid: signed by Acme Bank, and the document has not changed since in any way this signature forbids.",
            ),
            (
                Sentence::Changed { signer: None },
                "Not valid: the document was changed after an unnamed signer signed it.",
            ),
            (
                Sentence::Revoked { signer: acme(), reason: Some(SubIndication::Revoked) },
                "Not valid: Acme Bank's certificate was revoked before the signature was made.",
            ),
            (
                Sentence::Revoked { signer: acme(), reason: Some(SubIndication::RevokedNoPoe) },
                "Not valid: Acme Bank's certificate is revoked, and no time-stamp proves the signature was made before.",
            ),
            (Sentence::Revoked { signer: acme(), reason: None }, "Not valid: the certificate is revoked."),
            (
                Sentence::Covered { signer: acme() },
                "The signature of Acme Bank holds, but the document was changed after signing in a way that hides signed content: what it shows now is not what was signed.",
            ),
            (
                Sentence::Untrusted { signer: acme() },
                "Signed by Acme Bank and unchanged since, but the certificate comes from an authority this service does not trust.",
            ),
            (
                Sentence::Broken { signer: acme() },
                "Not valid: the signature of Acme Bank does not match the document (it was altered or damaged).",
            ),
            (
                Sentence::Method { method: Method::Electronic, signer: acme() },
                "Electronic signature, sealed by Signet: Acme Bank used this Signet, which sealed the document.",
            ),
            (
                Sentence::Method { method: Method::AadhaarEsign, signer: acme() },
                "Aadhaar eSign: Acme Bank confirmed the signing with Aadhaar.",
            ),
            (
                Sentence::Method { method: Method::DigitalCertificate, signer: acme() },
                "Digital signature certificate: Acme Bank signed with their own certificate.",
            ),
            (
                Sentence::Method { method: Method::Timestamp, signer: None },
                "A time-stamp authority confirmed when the document existed in this form.",
            ),
            (
                Sentence::Time { at: "2026-11-24 14:35:14 UTC".into(), source: TimeSource::Timestamp },
                "Time: 2026-11-24 14:35:14 UTC, confirmed by a time-stamp authority.",
            ),
            (
                Sentence::Time { at: "2026-11-24 14:35:14 UTC".into(), source: TimeSource::ClaimedBySigner },
                "Time: 2026-11-24 14:35:14 UTC, as stated when signing (not confirmed by a time-stamp authority).",
            ),
            (
                Sentence::AllowedAdditions,
                "Later additions (further signatures, form filling) are of kinds this signature allows.",
            ),
            (Sentence::Hidden { covering: "a square on page 1".into() }, "Hidden after signing: a square on page 1."),
            (Sentence::Change { change: "page 1 content".into() }, "Change after signing: page 1 content."),
            (
                Sentence::RevocationNotChecked,
                "Revocation not checked: the document does not carry the signer's certificate status (revocation data), so it could not be checked.",
            ),
            (Sentence::LongTerm, "It can be checked for years: what is needed to check it is inside the document."),
        ];
        for (sentence, english) in cases {
            assert_eq!(sentence.english(), english);
            assert_eq!(serde_json::to_value(&sentence).expect("json"), serde_json::json!(english));
        }
        let pdf = FileKind::Pdf;
        assert_eq!(Summary::Unsigned { kind: FileKind::Xml }.english(), "This XML document carries no signature.");
        assert_eq!(Summary::AllValid { kind: pdf, count: 1 }.english(), "This PDF carries 1 signature(s), all valid.");
        assert_eq!(
            Summary::NotAllValid { kind: FileKind::Cms, count: 2, bad: 1 }.english(),
            "This CMS signature carries 2 signature(s); 1 of them not valid: see below."
        );
        assert_eq!(serde_json::to_value(Status::Untrusted).expect("json"), serde_json::json!("untrusted"));
        assert_eq!(serde_json::to_value(TimeSource::ClaimedBySigner).expect("json"), "claimed by the signer");
    }

    fn verdict_of_platform() -> Verdict {
        verdict(&signature("CN=Signet Platform CA"), &anchors())
    }
}
