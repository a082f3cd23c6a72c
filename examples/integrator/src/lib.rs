//! An integrator's web app, the way a bank's loan system would use the Signet gateway:
//!
//! 1. `GET /` — the user picks a PDF and names the signer.
//! 2. `POST /start` — the app builds the payload and seals it with the gateway certificate
//!    (server side, where the Authtoken lives), keeps the session key under the
//!    ReferenceNumber, and answers a page that posts `Parameter1..3` from the browser to
//!    `{gateway}/{segment}/V3_0/Index`.
//! 3. The signer signs on the gateway's page; the gateway posts the result back to
//!    `/return/success`, `/return/failure` or `/return/cancel`.
//! 4. The app opens `Returnvalue` with the kept session key, saves the signed PDF in the output
//!    folder and links it (`GET /files/{reference}.pdf`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use signet_client::{
    FormScript, GatewayCertificate, PageSelection, PayloadBuilder, Profile, ResultPost, ReturnStatus, ReturnUrls,
    SessionKey, SignaturePosition, SignatureType, open_result, seal_request,
};

/// How the app reaches the gateway and where it keeps results.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The gateway's base URL as the user's browser reaches it, e.g. `https://sign.example.com`.
    pub gateway_url: String,
    pub segment: String,
    pub authtoken: String,
    /// This app's own base URL as the browser reaches it (for SUrl/Furl/Curl).
    pub public_url: String,
    pub out_dir: PathBuf,
    pub profile: Profile,
}

struct Pending {
    session: SessionKey,
    profile: Profile,
}

#[derive(Clone)]
pub struct AppState {
    settings: Arc<Settings>,
    certificate: Arc<GatewayCertificate>,
    pending: Arc<Mutex<HashMap<String, Pending>>>,
}

/// Fetches the gateway certificate (`GET {gateway}/{segment}/certificate.cer`).
pub async fn fetch_certificate(gateway_url: &str, segment: &str) -> anyhow::Result<GatewayCertificate> {
    let url = format!("{}/{segment}/certificate.cer", gateway_url.trim_end_matches('/'));
    let der = reqwest::get(&url).await?.error_for_status()?.bytes().await?;
    Ok(GatewayCertificate::from_der_or_pem(&der)?)
}

pub fn router(settings: Settings, certificate: GatewayCertificate) -> Router {
    let state = AppState {
        settings: Arc::new(settings),
        certificate: Arc::new(certificate),
        pending: Arc::new(Mutex::new(HashMap::new())),
    };
    Router::new()
        .route("/", get(index))
        .route("/start", post(start))
        .route("/return/{outcome}", post(receive))
        .route("/files/{name}", get(file))
        .layer(DefaultBodyLimit::max(20 * 1024 * 1024))
        .with_state(state)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

fn page(title: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width, initial-scale=1\"><title>{t}</title></head>\n<body><main>\n<h1>{t}</h1>\n{body}\n</main></body></html>\n",
        t = escape(title)
    ))
}

async fn index() -> Html<String> {
    page(
        "Send a document for signature",
        "<form method=\"post\" action=\"/start\" enctype=\"multipart/form-data\">\n\
         <p><label>PDF <input type=\"file\" name=\"document\" accept=\"application/pdf\" required></label></p>\n\
         <p><label>Signer's name <input name=\"signer\" required maxlength=\"100\"></label></p>\n\
         <p><button type=\"submit\">Sign</button></p>\n</form>",
    )
}

fn problem(status: StatusCode, message: &str) -> Response {
    (status, page("Something went wrong", &format!("<p role=\"alert\">{}</p>", escape(message)))).into_response()
}

/// A ReferenceNumber: at most 20 characters, unique, random.
fn new_reference() -> String {
    let mut bytes = [0u8; 12];
    if aws_lc_rs::rand::fill(&mut bytes).is_err() {
        return format!("INT{}", time::OffsetDateTime::now_utc().unix_timestamp_nanos() % 10_i128.pow(17));
    }
    format!("INT{}", &URL_SAFE_NO_PAD.encode(bytes)[..16]).replace(['-', '_'], "x")
}

async fn start(State(state): State<AppState>, mut form: Multipart) -> Response {
    let (mut pdf, mut signer) = (None, String::new());
    while let Ok(Some(field)) = form.next_field().await {
        match field.name() {
            Some("document") => pdf = field.bytes().await.ok(),
            Some("signer") => signer = field.text().await.unwrap_or_default(),
            _ => {}
        }
    }
    let Some(pdf) = pdf.filter(|p| p.starts_with(b"%PDF-")) else {
        return problem(StatusCode::BAD_REQUEST, "Please choose a PDF file.");
    };
    let signer = signer.trim();
    if signer.is_empty() {
        return problem(StatusCode::BAD_REQUEST, "Please name the signer.");
    }
    let settings = &state.settings;
    let reference = new_reference();
    let base = settings.public_url.trim_end_matches('/');
    let urls = ReturnUrls {
        success: format!("{base}/return/success"),
        failure: format!("{base}/return/failure"),
        cancel: format!("{base}/return/cancel"),
    };
    let payload = PayloadBuilder::pdf(&pdf, signer)
        .reference_number(&reference)
        .authtoken(&settings.authtoken)
        .signature_types(&[SignatureType::ESignature])
        .urls(&urls)
        .pages(&PageSelection::Last)
        .position(SignaturePosition::BottomRight)
        .font_signature(true)
        .draw_signature(true)
        .preview(true)
        .store_to_db(true)
        .build();
    let payload = match payload {
        Ok(payload) => payload,
        Err(error) => return problem(StatusCode::BAD_REQUEST, &error.to_string()),
    };
    let sealed = match seal_request(&state.certificate, settings.profile, &payload, time::OffsetDateTime::now_utc()) {
        Ok(sealed) => sealed,
        Err(error) => return problem(StatusCode::INTERNAL_SERVER_ERROR, &error.to_string()),
    };
    let gateway = format!("{}/{}/V3_0/Index", settings.gateway_url.trim_end_matches('/'), settings.segment);
    let html = sealed.render_form(&gateway, &FormScript::Inline);
    if let Ok(mut pending) = state.pending.lock() {
        pending.insert(reference, Pending { session: sealed.session, profile: sealed.profile });
    }
    Html(html).into_response()
}

async fn receive(State(state): State<AppState>, Path(outcome): Path<String>, body: Bytes) -> Response {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    let Some(post) = ResultPost::from_fields(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))) else {
        return problem(StatusCode::BAD_REQUEST, "This is not a result from the signing gateway.");
    };
    let pending = state.pending.lock().ok().and_then(|mut p| p.remove(&post.reference_number));
    let Some(pending) = pending else {
        return problem(StatusCode::NOT_FOUND, "No signing request of ours has this reference.");
    };
    if post.status != ReturnStatus::Success || outcome != "success" {
        let text = format!("The signature was not made ({outcome}): {}", post.error_message);
        return (StatusCode::OK, page("Not signed", &format!("<p role=\"alert\">{}</p>", escape(&text))))
            .into_response();
    }
    let signed = match open_result(&pending.session, pending.profile, &post.returnvalue) {
        Ok(bytes) => bytes,
        Err(error) => return problem(StatusCode::BAD_GATEWAY, &error.to_string()),
    };
    let name = format!("{}.pdf", post.reference_number);
    if let Err(error) = tokio::fs::write(state.settings.out_dir.join(&name), &signed).await {
        return problem(StatusCode::INTERNAL_SERVER_ERROR, &format!("cannot save the signed file: {error}"));
    }
    let body = format!(
        "<p>Signed. Transaction {}.</p>\n<p><a id=\"signed-file\" href=\"/files/{}\">Download the signed PDF</a></p>",
        escape(&post.transaction_number),
        escape(&name)
    );
    (StatusCode::OK, page("Signed", &body)).into_response()
}

async fn file(State(state): State<AppState>, Path(name): Path<String>) -> Response {
    let safe =
        name.ends_with(".pdf") && name.len() <= 40 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '.');
    if !safe {
        return problem(StatusCode::NOT_FOUND, "No such file.");
    }
    match tokio::fs::read(state.settings.out_dir.join(&name)).await {
        Ok(bytes) => {
            let mut response = (StatusCode::OK, bytes).into_response();
            response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/pdf"));
            response
        }
        Err(_) => problem(StatusCode::NOT_FOUND, "No such file."),
    }
}
