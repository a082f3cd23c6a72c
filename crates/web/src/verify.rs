//! The public verification page (`/verify`): anyone uploads a signed PDF, XML or CMS file and
//! reads, per signature, who signed, how, when, whether it is still valid and whether the
//! document changed afterwards, in plain words; technical details fold away. Works without
//! JavaScript, on a phone; nothing uploaded is kept (the file lives in memory for the request).

use askama::Template;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use signet_api::extract::ClientIp;
use signet_domain::Error;
use signet_services::Services;
use signet_services::verification::{self, Verification};

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
    result: Option<ShownResult>,
    file_name: Option<String>,
    error: Option<String>,
    kept: Option<Kept>,
}

fn page(status: StatusCode, view: VerifyPage) -> Response {
    crate::account::html(status, view.render().unwrap_or_else(|_| "Check a signed document".into()))
}

fn refused(status: StatusCode, text: impl Into<String>) -> Response {
    page(status, VerifyPage { result: None, file_name: None, error: Some(text.into()), kept: None })
}

/// The upload form.
pub async fn show() -> Response {
    page(StatusCode::OK, VerifyPage { result: None, file_name: None, error: None, kept: None })
}

fn status_label(status: &str) -> &'static str {
    match status {
        "valid" => "Valid",
        "changed" => "Not valid: changed after signing",
        "covered" => "Signature holds, but signed content is now hidden",
        "revoked" => "Not valid: the certificate was revoked",
        "untrusted" => "Signed, but not by a trusted authority",
        _ => "Not valid",
    }
}

fn shown(verification: Verification) -> ShownResult {
    let Verification { report, verdicts, summary } = verification;
    let signatures = report
        .signatures
        .into_iter()
        .zip(verdicts)
        .map(|(s, v)| {
            let mut details = vec![("Kind", s.kind.clone())];
            details.extend(s.signer.clone().map(|x| ("Certificate", x)));
            details.extend(s.issuer.clone().map(|x| ("Issued by", x)));
            details.extend(s.pades_level.clone().map(|x| ("PAdES level", x)));
            details.extend(v.time_source.map(|x| ("Time from", x.to_string())));
            details.push(("Signed bytes unchanged", if s.intact { "yes" } else { "no" }.into()));
            details.push(("Certificate trusted", if s.trusted { "yes" } else { "no" }.into()));
            details.push(("Later revisions", s.later_revisions.to_string()));
            if let Some(indication) = s.indication {
                let sub = s.sub_indication.and_then(|x| serde_json::to_value(x).ok());
                let named = serde_json::to_value(indication).ok().and_then(|v| v.as_str().map(str::to_string));
                let sub = sub.and_then(|v| v.as_str().map(|s| format!(" / {s}"))).unwrap_or_default();
                details.push(("EN 319 102-1 result", format!("{}{sub}", named.unwrap_or_default())));
            }
            details.extend(s.hides_signed_content.iter().map(|c| ("Hidden after signing", c.clone())));
            details.extend(s.errors.iter().map(|e| ("Problem", e.clone())));
            details.extend(s.warnings.iter().map(|w| ("Note", w.clone())));
            Shown {
                index: s.index,
                status: v.status,
                status_label: status_label(v.status),
                signer: v.signer.clone().unwrap_or_else(|| "(no name in the certificate)".into()),
                method: v.method.label(),
                signed_at: v.signed_at.clone().map(|at| match v.time_source {
                    Some(source) => format!("{at} ({source})"),
                    None => at,
                }),
                long_term: v.long_term,
                explanation: v.explanation,
                details,
            }
        })
        .collect();
    ShownResult { valid: report.valid, summary, signatures, errors: report.errors }
}

/// Reads the upload (the signed file and, for a detached CMS, its content) and shows the verdicts.
pub async fn check(State(services): State<Services>, ClientIp(ip): ClientIp, request: Request) -> Response {
    // Counted like the API's verification: the same allowance per address.
    if let Err(Error::RateLimited { retry_after_secs }) = services.doors.auth.check(ip) {
        let text = format!("Too many checks from your network. Wait {retry_after_secs} seconds and try again.");
        let mut response = refused(StatusCode::TOO_MANY_REQUESTS, text);
        response.headers_mut().insert(axum::http::header::RETRY_AFTER, retry_after_secs.into());
        return response;
    }
    let mut multipart = match Multipart::from_request(request, &services).await {
        Ok(multipart) => multipart,
        Err(_) => return refused(StatusCode::BAD_REQUEST, "Choose a file to check."),
    };
    let (mut file, mut content, mut file_name, mut etsi) = (None, None, None, false);
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(_) => {
                return refused(StatusCode::BAD_REQUEST, "The upload could not be read, or the file is too large.");
            }
        };
        let name = field.name().unwrap_or_default().to_string();
        let uploaded_name = field.file_name().map(str::to_string);
        let Ok(bytes) = field.bytes().await else {
            return refused(StatusCode::BAD_REQUEST, "The upload could not be read, or the file is too large.");
        };
        match name.as_str() {
            "file" if !bytes.is_empty() => (file, file_name) = (Some(bytes.to_vec()), uploaded_name),
            "content" if !bytes.is_empty() => content = Some(bytes.to_vec()),
            "report" => etsi = bytes.as_ref() == b"etsi",
            _ => {}
        }
    }
    let Some(file) = file else { return refused(StatusCode::BAD_REQUEST, "Choose a file to check.") };
    if etsi {
        return etsi_download(&services, file, content).await;
    }
    match verification::verify(&services, file, content).await {
        Ok(verification) => page(
            StatusCode::OK,
            VerifyPage {
                result: Some(shown(verification)),
                file_name: file_name.map(|n| n.chars().filter(|c| !c.is_control()).take(200).collect()),
                error: None,
                kept: None,
            },
        ),
        Err(Error::Validation(errors)) => {
            let text = errors.values().flatten().cloned().collect::<Vec<_>>().join(" ");
            refused(StatusCode::BAD_REQUEST, format!("This file cannot be checked: {text}."))
        }
        Err(Error::Rejected { detail, .. }) => {
            refused(StatusCode::BAD_REQUEST, format!("This file cannot be checked: {detail}."))
        }
        Err(error) => {
            tracing::error!(%error, "verifying an upload failed");
            refused(StatusCode::SERVICE_UNAVAILABLE, "Checking is not possible just now. Try again later.")
        }
    }
}

/// A validation report (XML) to download under `file_name`, kept by no cache (it names a signed
/// file's signers); the console's sealed report too.
pub(crate) fn report_download(xml: impl Into<axum::body::Bytes>, file_name: &str) -> Response {
    let content_type = "application/xml; charset=utf-8";
    let mut response = signet_api::routes::documents::download_response(xml.into(), file_name, content_type);
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The file's ETSI TS 119 102-2 report (XML) as a download, or the page saying why not.
async fn etsi_download(services: &Services, file: Vec<u8>, content: Option<Vec<u8>>) -> Response {
    match verification::etsi_report(services, file, content).await {
        Ok(report) => report_download(report.to_xml(), "validation-report.xml"),
        Err(Error::Validation(errors)) => {
            let text = errors.values().flatten().cloned().collect::<Vec<_>>().join(" ");
            refused(StatusCode::BAD_REQUEST, format!("This file has no report: {text}."))
        }
        Err(Error::Rejected { detail, .. }) => {
            refused(StatusCode::BAD_REQUEST, format!("This file cannot be checked: {detail}."))
        }
        Err(error) => {
            tracing::error!(%error, "reporting on an upload failed");
            refused(StatusCode::SERVICE_UNAVAILABLE, "Checking is not possible just now. Try again later.")
        }
    }
}

/// The page a document's QR code leads to: the verdicts on the document as Signet keeps it
/// (its current, signed version), with its name and fingerprint to compare a copy with.
pub async fn document(
    State(services): State<Services>,
    axum::extract::Path(token): axum::extract::Path<String>,
) -> Response {
    match verification::of_document(&services, &token).await {
        Ok(Some((document, verification))) => page(
            StatusCode::OK,
            VerifyPage {
                result: Some(shown(verification)),
                file_name: None,
                error: None,
                kept: Some(Kept { name: document.name, sha256: document.current_sha256 }),
            },
        ),
        Ok(None) => refused(
            StatusCode::NOT_FOUND,
            "This verification address opens no document. Check the code or the address.",
        ),
        Err(error) => {
            tracing::error!(%error, "verifying a kept document failed");
            refused(StatusCode::SERVICE_UNAVAILABLE, "Checking is not possible just now. Try again later.")
        }
    }
}
