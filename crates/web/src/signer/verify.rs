//! The public verification page (`/verify`): anyone uploads a signed PDF, XML or CMS file and
//! reads, per signature, who signed, how, when, whether it is still valid and whether the
//! document changed afterwards, in plain words; technical details fold away. Works without
//! JavaScript, on a phone; nothing uploaded is kept (the file lives in memory for the request).
//!
//! The page speaks English or Hindi: the language `?lang=` names (its language switch), else
//! the one the browser asks for (`Accept-Language`, as the console). Its words come from the
//! console's catalogue (`crates/web/text/`, keys `check.*`); the verdicts' sentences are typed
//! ([`Sentence`], [`Summary`]) and put into the catalogue's frames here, with the values they
//! carry (names, times, the verifier's descriptions) as they are.

use std::convert::Infallible;

use askama::Template;
use axum::extract::{FromRequest, FromRequestParts, Multipart, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use signet_domain::Error;
use signet_http::extract::ClientIp;
use signet_services::Services;
use signet_services::verification::{self, Method, Sentence, Status, Summary, TimeSource, Verification};
use signet_signing::{FileKind, SubIndication};

use crate::page::report_download;
use crate::text::{Html, Lang, Text, key};

/// The page's text, in the language the request chooses.
pub struct PageText(pub Text);

impl<S: Send + Sync> FromRequestParts<S> for PageText {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let accept = parts.headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
        Ok(PageText(Text::new(Lang::chosen(parts.uri.query(), accept))))
    }
}

/// One signature as the page shows it.
struct Shown {
    index: usize,
    status: &'static str,
    status_label: &'static str,
    signer: String,
    method: &'static str,
    signed_at: Option<String>,
    long_term: bool,
    explanation: Vec<String>,
    details: Vec<(&'static str, String)>,
}

struct ShownResult {
    valid: bool,
    summary: String,
    signatures: Vec<Shown>,
    errors: Vec<String>,
}

/// The stored document a QR code's page is about.
struct Kept {
    name: String,
    sha256: String,
}

#[derive(Template)]
#[template(path = "verify.html")]
struct VerifyPage {
    text: Text,
    result: Option<ShownResult>,
    file_name: Option<String>,
    error: Option<String>,
    kept: Option<Kept>,
}

impl VerifyPage {
    fn new(text: Text) -> VerifyPage {
        VerifyPage { text, result: None, file_name: None, error: None, kept: None }
    }

    /// The page's `lang` attribute.
    fn lang(&self) -> &'static str {
        self.text.lang().code()
    }

    /// The language the switch offers.
    fn other_lang(&self) -> &'static str {
        self.text.lang().other().code()
    }

    fn t(&self, key: &str) -> Html {
        self.text.t(key)
    }

    fn tf1(&self, key: &str, a: &str, va: impl std::fmt::Display) -> Html {
        self.text.tf(key, &[(a, &va)])
    }

    fn tf2(&self, key: &str, a: &str, va: impl std::fmt::Display, b: &str, vb: impl std::fmt::Display) -> Html {
        self.text.tf(key, &[(a, &va), (b, &vb)])
    }
}

fn page(status: StatusCode, view: VerifyPage) -> Response {
    let title = view.text.s("check.title");
    let mut response = crate::page::html(status, view.render().unwrap_or_else(|_| title.into()));
    response.headers_mut().insert(header::VARY, HeaderValue::from_static("accept-language"));
    response
}

fn refused(text: Text, status: StatusCode, message: impl Into<String>) -> Response {
    page(status, VerifyPage { error: Some(message.into()), ..VerifyPage::new(text) })
}

/// The upload form.
pub async fn show(PageText(text): PageText) -> Response {
    page(StatusCode::OK, VerifyPage::new(text))
}

/// What a status is called on the page.
fn status_label(text: Text, status: Status) -> &'static str {
    text.s(match status {
        Status::Valid => key("check.status.valid"),
        Status::Changed => key("check.status.changed"),
        Status::Covered => key("check.status.covered"),
        Status::Revoked => key("check.status.revoked"),
        Status::Untrusted => key("check.status.untrusted"),
        Status::Broken => key("check.status.broken"),
    })
}

/// What a method is called on the page.
fn method_label(text: Text, method: Method) -> &'static str {
    text.s(match method {
        Method::Electronic => key("check.method.electronic"),
        Method::AadhaarEsign => key("check.method.aadhaar_esign"),
        Method::DigitalCertificate => key("check.method.digital_certificate"),
        Method::Timestamp => key("check.method.timestamp"),
    })
}

fn time_source(text: Text, source: TimeSource) -> &'static str {
    text.s(match source {
        TimeSource::Timestamp => key("check.time_source.timestamp"),
        TimeSource::ClaimedBySigner => key("check.time_source.claimed"),
    })
}

/// Why a signature fails, as a frame with the signer's name as `{signer}`.
fn why(reason: SubIndication) -> &'static str {
    match reason {
        SubIndication::FormatFailure => key("check.why.format_failure"),
        SubIndication::HashFailure => key("check.why.hash_failure"),
        SubIndication::SigCryptoFailure => key("check.why.sig_crypto_failure"),
        SubIndication::Revoked => key("check.why.revoked"),
        SubIndication::RevokedNoPoe => key("check.why.revoked_no_poe"),
        SubIndication::Expired => key("check.why.expired"),
        SubIndication::NotYetValid => key("check.why.not_yet_valid"),
        SubIndication::OutOfBoundsNoPoe => key("check.why.out_of_bounds_no_poe"),
        SubIndication::NoCertificateChainFound => key("check.why.no_certificate_chain_found"),
        SubIndication::NoSigningCertificateFound => key("check.why.no_signing_certificate_found"),
        SubIndication::ChainConstraintsFailure => key("check.why.chain_constraints_failure"),
        SubIndication::TryLater => key("check.why.try_later"),
    }
}

/// A sentence of a verdict in the page's language.
fn sentence(text: Text, sentence: &Sentence) -> String {
    let who = |signer: &Option<String>| signer.clone().unwrap_or_else(|| text.s("check.unnamed_signer").to_string());
    let with_signer = |key: &str, signer: &Option<String>| text.plain(key, &[("signer", &who(signer))]);
    match sentence {
        Sentence::Valid { signer } => with_signer(key("check.says.valid"), signer),
        Sentence::Changed { signer } => with_signer(key("check.says.changed"), signer),
        Sentence::Revoked { signer, reason: None } => with_signer(key("check.says.revoked"), signer),
        Sentence::Revoked { signer, reason: Some(reason) } => {
            let reason = with_signer(why(*reason), signer);
            text.plain("check.says.not_valid_because", &[("reason", &reason)])
        }
        Sentence::Covered { signer } => with_signer(key("check.says.covered"), signer),
        Sentence::Untrusted { signer } => with_signer(key("check.says.untrusted"), signer),
        Sentence::Broken { signer } => with_signer(key("check.says.broken"), signer),
        Sentence::Method { method, signer } => {
            let frame = match method {
                Method::Electronic => key("check.says.method.electronic"),
                Method::AadhaarEsign => key("check.says.method.aadhaar_esign"),
                Method::DigitalCertificate => key("check.says.method.digital_certificate"),
                Method::Timestamp => key("check.says.method.timestamp"),
            };
            text.plain(frame, &[("method", &method_label(text, *method)), ("signer", &who(signer))])
        }
        Sentence::Time { at, source: TimeSource::Timestamp } => text.plain("check.says.time_stamped", &[("at", at)]),
        Sentence::Time { at, source: TimeSource::ClaimedBySigner } => {
            text.plain("check.says.time_claimed", &[("at", at)])
        }
        Sentence::AllowedAdditions => text.s("check.says.allowed_additions").to_string(),
        Sentence::Hidden { covering } => text.plain("check.says.hidden", &[("covering", covering)]),
        Sentence::Change { change } => text.plain("check.says.change", &[("change", change)]),
        Sentence::RevocationNotChecked => text.s("check.says.revocation_not_checked").to_string(),
        Sentence::LongTerm => text.s("check.says.long_term").to_string(),
    }
}

/// The sentence about the whole file in the page's language.
fn summary(text: Text, summary: &Summary) -> String {
    let kind = |kind: &FileKind| {
        text.s(match kind {
            FileKind::Pdf => key("check.kind.pdf"),
            FileKind::Cms => key("check.kind.cms"),
            FileKind::Xml => key("check.kind.xml"),
        })
    };
    match summary {
        Summary::Unsigned { kind: k } => text.plain("check.summary.unsigned", &[("kind", &kind(k))]),
        Summary::AllValid { kind: k, count } => {
            text.plain("check.summary.all_valid", &[("kind", &kind(k)), ("count", count)])
        }
        Summary::NotAllValid { kind: k, count, bad } => {
            text.plain("check.summary.not_all_valid", &[("kind", &kind(k)), ("count", count), ("bad", bad)])
        }
    }
}

fn yes_no(text: Text, yes: bool) -> String {
    text.s(if yes { key("check.yes") } else { key("check.no") }).to_string()
}

fn shown(text: Text, verification: Verification) -> ShownResult {
    let Verification { report, verdicts, summary: about } = verification;
    let signatures = report
        .signatures
        .into_iter()
        .zip(verdicts)
        .map(|(s, v)| {
            let mut details = vec![(text.s("check.detail.kind"), s.kind.clone())];
            details.extend(s.signer.clone().map(|x| (text.s("check.detail.certificate"), x)));
            details.extend(s.issuer.clone().map(|x| (text.s("check.detail.issued_by"), x)));
            details.extend(s.pades_level.clone().map(|x| (text.s("check.detail.pades_level"), x)));
            details.extend(v.time_source.map(|x| (text.s("check.detail.time_from"), time_source(text, x).to_string())));
            details.push((text.s("check.detail.intact"), yes_no(text, s.intact)));
            details.push((text.s("check.detail.trusted"), yes_no(text, s.trusted)));
            details.push((text.s("check.detail.later_revisions"), s.later_revisions.to_string()));
            if let Some(indication) = s.indication {
                let sub = s.sub_indication.and_then(|x| serde_json::to_value(x).ok());
                let named = serde_json::to_value(indication).ok().and_then(|v| v.as_str().map(str::to_string));
                let sub = sub.and_then(|v| v.as_str().map(|s| format!(" / {s}"))).unwrap_or_default();
                details.push((text.s("check.detail.result"), format!("{}{sub}", named.unwrap_or_default())));
            }
            details.extend(s.hides_signed_content.iter().map(|c| (text.s("check.detail.hidden"), c.clone())));
            details.extend(s.errors.iter().map(|e| (text.s("check.detail.problem"), e.clone())));
            details.extend(s.warnings.iter().map(|w| (text.s("check.detail.note"), w.clone())));
            Shown {
                index: s.index,
                status: v.status.code(),
                status_label: status_label(text, v.status),
                signer: v.signer.clone().unwrap_or_else(|| text.s("check.no_name").to_string()),
                method: method_label(text, v.method),
                signed_at: v.signed_at.clone().map(|at| match v.time_source {
                    Some(source) => format!("{at} ({})", time_source(text, source)),
                    None => at,
                }),
                long_term: v.long_term,
                explanation: v.explanation.iter().map(|line| sentence(text, line)).collect(),
                details,
            }
        })
        .collect();
    ShownResult { valid: report.valid, summary: summary(text, &about), signatures, errors: report.errors }
}

/// The reasons a domain refusal gives, one line.
fn reasons(error: &Error) -> String {
    match error {
        Error::Validation(errors) => errors.values().flatten().cloned().collect::<Vec<_>>().join(" "),
        Error::Rejected { detail, .. } => detail.clone(),
        _ => String::new(),
    }
}

/// Reads the upload (the signed file and, for a detached CMS, its content) and shows the verdicts.
pub async fn check(
    State(services): State<Services>,
    ClientIp(ip): ClientIp,
    PageText(text): PageText,
    request: Request,
) -> Response {
    // Counted like the API's verification: the same allowance per address.
    if let Err(Error::RateLimited { retry_after_secs }) = services.doors.auth.check(ip) {
        let message = text.plain("check.too_many", &[("seconds", &retry_after_secs)]);
        let mut response = refused(text, StatusCode::TOO_MANY_REQUESTS, message);
        response.headers_mut().insert(axum::http::header::RETRY_AFTER, retry_after_secs.into());
        return response;
    }
    let unreadable = || refused(text, StatusCode::BAD_REQUEST, text.s("check.unreadable"));
    let mut multipart = match Multipart::from_request(request, &services).await {
        Ok(multipart) => multipart,
        Err(_) => return refused(text, StatusCode::BAD_REQUEST, text.s("check.choose_a_file")),
    };
    let (mut file, mut content, mut file_name, mut etsi) = (None, None, None, false);
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(_) => return unreadable(),
        };
        let name = field.name().unwrap_or_default().to_string();
        let uploaded_name = field.file_name().map(str::to_string);
        let Ok(bytes) = field.bytes().await else { return unreadable() };
        match name.as_str() {
            "file" if !bytes.is_empty() => (file, file_name) = (Some(bytes.to_vec()), uploaded_name),
            "content" if !bytes.is_empty() => content = Some(bytes.to_vec()),
            "report" => etsi = bytes.as_ref() == b"etsi",
            _ => {}
        }
    }
    let Some(file) = file else { return refused(text, StatusCode::BAD_REQUEST, text.s("check.choose_a_file")) };
    if etsi {
        return etsi_download(&services, text, file, content).await;
    }
    match verification::verify(&services, file, content).await {
        Ok(verification) => page(
            StatusCode::OK,
            VerifyPage {
                result: Some(shown(text, verification)),
                file_name: file_name.map(|n| n.chars().filter(|c| !c.is_control()).take(200).collect()),
                ..VerifyPage::new(text)
            },
        ),
        Err(error @ (Error::Validation(_) | Error::Rejected { .. })) => {
            let message = text.plain("check.cannot_check", &[("reason", &reasons(&error))]);
            refused(text, StatusCode::BAD_REQUEST, message)
        }
        Err(error) => {
            tracing::error!(%error, "verifying an upload failed");
            refused(text, StatusCode::SERVICE_UNAVAILABLE, text.s("check.unavailable"))
        }
    }
}

/// The file's ETSI TS 119 102-2 report (XML) as a download, or the page saying why not.
async fn etsi_download(services: &Services, text: Text, file: Vec<u8>, content: Option<Vec<u8>>) -> Response {
    match verification::etsi_report(services, file, content).await {
        Ok(report) => report_download(report.to_xml(), "validation-report.xml"),
        Err(error @ Error::Validation(_)) => {
            let message = text.plain("check.no_report", &[("reason", &reasons(&error))]);
            refused(text, StatusCode::BAD_REQUEST, message)
        }
        Err(error @ Error::Rejected { .. }) => {
            let message = text.plain("check.cannot_check", &[("reason", &reasons(&error))]);
            refused(text, StatusCode::BAD_REQUEST, message)
        }
        Err(error) => {
            tracing::error!(%error, "reporting on an upload failed");
            refused(text, StatusCode::SERVICE_UNAVAILABLE, text.s("check.unavailable"))
        }
    }
}

/// The page a document's QR code leads to: the verdicts on the document as Signet keeps it
/// (its current, signed version), with its name and fingerprint to compare a copy with.
pub async fn document(
    State(services): State<Services>,
    PageText(text): PageText,
    axum::extract::Path(token): axum::extract::Path<String>,
) -> Response {
    match verification::of_document(&services, &token).await {
        Ok(Some((document, verification))) => page(
            StatusCode::OK,
            VerifyPage {
                result: Some(shown(text, verification)),
                kept: Some(Kept { name: document.name, sha256: document.current_sha256 }),
                ..VerifyPage::new(text)
            },
        ),
        Ok(None) => refused(text, StatusCode::NOT_FOUND, text.s("check.no_document")),
        Err(error) => {
            tracing::error!(%error, "verifying a kept document failed");
            refused(text, StatusCode::SERVICE_UNAVAILABLE, text.s("check.unavailable"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hindi() -> Text {
        Text::new(Lang::Hi)
    }

    /// Every sentence kind, with values to find again.
    fn every_sentence() -> Vec<Sentence> {
        let acme = || Some("Acme Bank".to_string());
        let mut all = vec![
            Sentence::Valid { signer: acme() },
            Sentence::Changed { signer: None },
            Sentence::Revoked { signer: acme(), reason: None },
            Sentence::Covered { signer: acme() },
            Sentence::Untrusted { signer: acme() },
            Sentence::Broken { signer: acme() },
            Sentence::Time { at: "2026-11-24 14:35:14 UTC".into(), source: TimeSource::Timestamp },
            Sentence::Time { at: "2026-11-24 14:35:14 UTC".into(), source: TimeSource::ClaimedBySigner },
            Sentence::AllowedAdditions,
            Sentence::Hidden { covering: "a white box on page 1".into() },
            Sentence::Change { change: "page 1 content <replaced>".into() },
            Sentence::RevocationNotChecked,
            Sentence::LongTerm,
        ];
        for method in [Method::Electronic, Method::AadhaarEsign, Method::DigitalCertificate, Method::Timestamp] {
            all.push(Sentence::Method { method, signer: acme() });
        }
        for reason in [
            SubIndication::FormatFailure,
            SubIndication::HashFailure,
            SubIndication::SigCryptoFailure,
            SubIndication::Revoked,
            SubIndication::RevokedNoPoe,
            SubIndication::Expired,
            SubIndication::NotYetValid,
            SubIndication::OutOfBoundsNoPoe,
            SubIndication::NoCertificateChainFound,
            SubIndication::NoSigningCertificateFound,
            SubIndication::ChainConstraintsFailure,
            SubIndication::TryLater,
        ] {
            all.push(Sentence::Revoked { signer: acme(), reason: Some(reason) });
        }
        all
    }

    fn every_summary() -> Vec<Summary> {
        vec![
            Summary::Unsigned { kind: FileKind::Pdf },
            Summary::AllValid { kind: FileKind::Xml, count: 2 },
            Summary::NotAllValid { kind: FileKind::Cms, count: 3, bad: 1 },
        ]
    }

    #[test]
    fn english_pages_read_exactly_as_the_api() {
        for line in every_sentence() {
            assert_eq!(sentence(Text::EN, &line), line.english(), "{line:?}");
        }
        for about in every_summary() {
            assert_eq!(summary(Text::EN, &about), about.english());
        }
        assert_eq!(status_label(Text::EN, Status::Valid), "Valid");
        assert_eq!(status_label(Text::EN, Status::Changed), "Not valid: changed after signing");
        assert_eq!(method_label(Text::EN, Method::Electronic), Method::Electronic.label());
        assert_eq!(method_label(Text::EN, Method::Timestamp), Method::Timestamp.label());
        assert_eq!(time_source(Text::EN, TimeSource::ClaimedBySigner), TimeSource::ClaimedBySigner.code());
    }

    #[test]
    fn hindi_pages_put_the_values_into_hindi_frames() {
        let devanagari = |s: &str| s.chars().any(|c| ('\u{0900}'..='\u{097F}').contains(&c));
        for line in every_sentence() {
            let said = sentence(hindi(), &line);
            assert!(devanagari(&said), "{said}");
            assert_ne!(said, line.english());
            let value = match &line {
                Sentence::Time { at, .. } => Some(at.as_str()),
                Sentence::Hidden { covering } => Some(covering.as_str()),
                Sentence::Change { change } => Some(change.as_str()),
                Sentence::Valid { signer: Some(name) } | Sentence::Covered { signer: Some(name) } => {
                    Some(name.as_str())
                }
                Sentence::Broken { signer: Some(name) } | Sentence::Untrusted { signer: Some(name) } => {
                    Some(name.as_str())
                }
                _ => None,
            };
            if let Some(value) = value {
                assert!(said.contains(value), "{said} names {value}");
            }
        }
        let valid = sentence(hindi(), &Sentence::Valid { signer: Some("Acme Bank".into()) });
        assert!(valid.starts_with("मान्य") && valid.contains("Acme Bank"), "{valid}");
        let unnamed = sentence(hindi(), &Sentence::Changed { signer: None });
        assert!(unnamed.contains(hindi().s("check.unnamed_signer")), "{unnamed}");
        let method = sentence(hindi(), &Sentence::Method { method: Method::AadhaarEsign, signer: Some("Asha".into()) });
        assert!(method.contains("आधार") && method.contains("Asha"), "{method}");
        let revoked = sentence(
            hindi(),
            &Sentence::Revoked { signer: Some("Acme Bank".into()), reason: Some(SubIndication::Revoked) },
        );
        assert!(revoked.contains("Acme Bank") && revoked.starts_with("मान्य नहीं"), "{revoked}");
        for about in every_summary() {
            let said = summary(hindi(), &about);
            assert!(devanagari(&said), "{said}");
        }
        let all_valid = summary(hindi(), &Summary::AllValid { kind: FileKind::Pdf, count: 2 });
        assert!(all_valid.contains("PDF") && all_valid.contains('2'), "{all_valid}");
        let some_bad = summary(hindi(), &Summary::NotAllValid { kind: FileKind::Pdf, count: 3, bad: 1 });
        assert!(some_bad.contains('3') && some_bad.contains('1'), "{some_bad}");
        for status in
            [Status::Valid, Status::Changed, Status::Covered, Status::Revoked, Status::Untrusted, Status::Broken]
        {
            assert!(devanagari(status_label(hindi(), status)), "{status}");
        }
        assert_eq!(status_label(hindi(), Status::Valid), "मान्य");
    }

    #[test]
    fn the_page_is_in_the_chosen_language_and_offers_the_other() {
        let page = VerifyPage { error: Some("<b>x</b>".into()), ..VerifyPage::new(hindi()) };
        let html = page.render().expect("rendered");
        assert!(html.contains(r#"<html lang="hi">"#), "{html}");
        assert!(html.contains(r#"href="?lang=en""#), "{html}");
        assert!(html.contains(r#"action="/verify?lang=hi""#), "{html}");
        assert!(html.contains("&#60;b&#62;x") || html.contains("&lt;b&gt;x"), "the message is escaped: {html}");
        let english = VerifyPage::new(Text::EN).render().expect("rendered");
        assert!(english.contains(r#"<html lang="en">"#) && english.contains(r#"href="?lang=hi""#), "{english}");
        assert!(english.contains("Check a signed document"), "{english}");
    }
}
