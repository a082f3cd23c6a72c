//! The loopback service the signer page calls (`signet-bridge serve`): HTTPS on 127.0.0.1
//! with a certificate from the bridge's own local CA (made on first start; the signer trusts
//! it once), answering only pages from the allowed origins (the Signet installations the
//! signer trusts), and the browser's private-network-access preflight.
//!
//! | route | what |
//! |---|---|
//! | `GET /version` | the handshake: name, version, protocol |
//! | `GET /tokens` | the inserted tokens |
//! | `GET /tokens/{serial}/certificates` | their signing certificates (base64 DER) |
//! | `POST /tokens/{serial}/sign` | `{keyId, pin, digests: [hex]}` → `{signatures: [base64]}`; 401 `wrong_pin` (with `pinTries` `low`/`final` when the token tells), 423 `locked` |
//! | `GET /pad` | whether a signature pad is connected, and which |
//! | `GET /pad/signature` | the strokes of the signature given on the pad (600 x 200 box) |

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::{Path as UrlPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;
use signet_sigcrypto::pki::LocalCa;

use crate::BridgeError;
use crate::token::Tokens;

/// The protocol the signer page speaks with the bridge; the page refuses an older bridge (113).
pub const PROTOCOL: u32 = 1;
/// The first port tried, then the next three (a port taken by another program is skipped; the
/// page tries the same list).
pub const DEFAULT_PORT: u16 = 45763;
pub const PORT_FALLBACKS: u16 = 3;
/// Largest request body (a bulk signature of MAX_BATCH digests fits).
const MAX_BODY: usize = 256 * 1024;

pub struct Bridge {
    /// The token module; `None` when the bridge runs for a signature pad only.
    pub tokens: Option<Mutex<Tokens>>,
    pub allowed_origins: Vec<String>,
    /// A simulated signature pad (`--pad-simulator`), for tests and demos.
    pub pad_simulator: bool,
}

pub type Shared = Arc<Bridge>;

pub fn router(bridge: Shared) -> axum::Router {
    axum::Router::new()
        .route("/version", get(version))
        .route("/tokens", get(tokens))
        .route("/tokens/{serial}/certificates", get(certificates))
        .route("/tokens/{serial}/sign", post(sign))
        .route("/pad", get(pad))
        .route("/pad/signature", get(pad_signature))
        .layer(axum::middleware::from_fn_with_state(bridge.clone(), origin_check))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(bridge)
}

/// Only allowed origins get an answer (a page from any other site could otherwise list the
/// signer's certificates or ask for signatures); preflights, private-network-access included,
/// are answered here.
async fn origin_check(State(bridge): State<Shared>, request: Request, next: Next) -> Response {
    let origin = request.headers().get(header::ORIGIN).and_then(|o| o.to_str().ok()).map(str::to_string);
    let allowed = origin.as_deref().is_some_and(|o| bridge.allowed_origins.iter().any(|a| a == o));
    let Some(origin) = origin.filter(|_| allowed) else {
        return (StatusCode::FORBIDDEN, Json(json!({"error": "origin not allowed"}))).into_response();
    };
    let mut response =
        if request.method() == Method::OPTIONS { preflight(request.headers()) } else { next.run(request).await };
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&origin) {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, value);
    }
    headers.insert(header::VARY, HeaderValue::from_static("Origin"));
    response
}

fn preflight(request: &HeaderMap) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static("GET, POST"));
    headers.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, HeaderValue::from_static("content-type"));
    headers.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
    // Chromium's Private Network Access: a public page may reach this loopback service only
    // when the preflight says so.
    if request.get("access-control-request-private-network").is_some_and(|v| v == "true") {
        headers.insert("access-control-allow-private-network", HeaderValue::from_static("true"));
    }
    response
}

async fn version() -> Json<serde_json::Value> {
    Json(json!({"name": "signet-bridge", "version": env!("CARGO_PKG_VERSION"), "protocol": PROTOCOL}))
}

fn failure(error: BridgeError) -> Response {
    let (status, code) = match &error {
        BridgeError::WrongPin(_) => (StatusCode::UNAUTHORIZED, "wrong_pin"),
        BridgeError::Locked => (StatusCode::LOCKED, "locked"),
        BridgeError::NoToken(_) => (StatusCode::NOT_FOUND, "no_token"),
        BridgeError::NoKey | BridgeError::CertificateNotUsable => (StatusCode::NOT_FOUND, "no_key"),
        BridgeError::Module(_) | BridgeError::Token(_) => (StatusCode::BAD_GATEWAY, "token_failed"),
    };
    let mut body = json!({"error": code, "message": error.to_string()});
    if let BridgeError::WrongPin(tries) = &error
        && let Some(tries) = tries.code()
    {
        body["pinTries"] = json!(tries);
    }
    (status, Json(body)).into_response()
}

/// The token work runs on a blocking thread: PKCS#11 calls block, some for seconds.
async fn with_tokens<T: Send + 'static>(
    bridge: &Shared,
    work: impl FnOnce(&Tokens) -> Result<T, BridgeError> + Send + 'static,
) -> Result<T, Response> {
    let bridge = bridge.clone();
    let done = tokio::task::spawn_blocking(move || {
        let tokens =
            bridge.tokens.as_ref().ok_or_else(|| BridgeError::Module("no token driver is configured".into()))?;
        let tokens = tokens.lock().map_err(|_| BridgeError::Token("busy".into()))?;
        work(&tokens)
    })
    .await;
    match done {
        Ok(result) => result.map_err(failure),
        Err(_) => Err(failure(BridgeError::Token("the token call failed".into()))),
    }
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

async fn tokens(State(bridge): State<Shared>) -> Response {
    match with_tokens(&bridge, |t| t.list()).await {
        Ok(list) => Json(json!({"tokens": list})).into_response(),
        Err(response) => response,
    }
}

async fn certificates(State(bridge): State<Shared>, UrlPath(serial): UrlPath<String>) -> Response {
    match with_tokens(&bridge, move |t| t.certificates(&serial, now())).await {
        Ok(list) => {
            let certificates: Vec<_> = list
                .iter()
                .map(|c| json!({"keyId": c.key_id, "label": c.label, "subject": c.subject, "certificate": STANDARD.encode(&c.der)}))
                .collect();
            Json(json!({"certificates": certificates})).into_response()
        }
        Err(response) => response,
    }
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SignRequest {
    key_id: String,
    pin: String,
    digests: Vec<String>,
}

async fn sign(State(bridge): State<Shared>, UrlPath(serial): UrlPath<String>, body: axum::body::Bytes) -> Response {
    let Ok(request) = serde_json::from_slice::<SignRequest>(&body) else {
        return (StatusCode::BAD_REQUEST, Json(json!({"error": "bad_request", "message": "keyId, pin, digests"})))
            .into_response();
    };
    let digests: Option<Vec<[u8; 32]>> =
        request.digests.iter().map(|d| hex::decode(d).ok().and_then(|b| <[u8; 32]>::try_from(b).ok())).collect();
    let Some(digests) = digests else {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": "bad_request", "message": "digests are 64 hex digits"})),
        )
            .into_response();
    };
    let signed = with_tokens(&bridge, move |t| {
        let certificate = t
            .certificates(&serial, now())?
            .into_iter()
            .find(|c| c.key_id.eq_ignore_ascii_case(&request.key_id))
            .ok_or(BridgeError::NoKey)?;
        t.sign_digests(&serial, &certificate.key_id, &certificate.der, &request.pin, &digests)
    })
    .await;
    match signed {
        Ok(signatures) => {
            Json(json!({"signatures": signatures.iter().map(|s| STANDARD.encode(s)).collect::<Vec<_>>()}))
                .into_response()
        }
        Err(response) => response,
    }
}

/// The bridge's identity: its loopback server certificate and key, and its CA.
pub struct Identity {
    pub cert_der: Vec<u8>,
    pub key_der: Vec<u8>,
    /// `ca.pem`, what the signer's browsers trust ([`crate::trust`]).
    pub ca_path: PathBuf,
    /// Whether the CA was made just now (first start): it is not trusted anywhere yet.
    pub new_ca: bool,
}

/// The bridge's local CA (constrained to loopback names) and its loopback server certificate,
/// the CA made on first start in `dir`.
pub fn server_identity(dir: &Path) -> Result<Identity, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (ca_path, key_path) = (dir.join("ca.pem"), dir.join("ca.key"));
    let new_ca = !(ca_path.exists() && key_path.exists());
    let ca = if new_ca {
        let ca = LocalCa::generate_loopback_only(crate::trust::NICKNAME).map_err(|e| e.to_string())?;
        write_private(&key_path, ca.key_pem().as_bytes())?;
        std::fs::write(&ca_path, ca.cert_pem()).map_err(|e| e.to_string())?;
        ca
    } else {
        let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
        LocalCa::from_pem(&read(&ca_path)?, &read(&key_path)?).map_err(|e| e.to_string())?
    };
    let server = ca.issue_tls_server(&["localhost", "127.0.0.1"]).map_err(|e| e.to_string())?;
    Ok(Identity { cert_der: server.cert_der, key_der: server.key_pkcs8_der, ca_path, new_ca })
}

/// Writes the CA key readable by its owner only (where the platform has such permissions).
fn write_private(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    std::io::Write::write_all(&mut file, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Serves `router` over TLS on `listener` until the process ends.
pub async fn serve_tls(
    listener: tokio::net::TcpListener,
    cert_der: Vec<u8>,
    key_der: Vec<u8>,
    router: axum::Router,
) -> Result<(), String> {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use hyper_util::service::TowerToHyperService;
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(key_der.into());
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(vec![cert_der.into()], key)
        .map_err(|e| e.to_string())?;
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let (acceptor, router) = (acceptor.clone(), router.clone());
        tokio::spawn(async move {
            // A client that does not finish the handshake (a scanner, an untrusted certificate)
            // only ends its own connection.
            let Ok(tls) = acceptor.accept(stream).await else { return };
            let service = TowerToHyperService::new(router);
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(tls), service)
                .await;
        });
    }
}

/// Whether a signature pad is connected. Only the simulated pad is supported so far; a real
/// pad's driver would answer here too.
async fn pad(State(bridge): State<Shared>) -> Json<serde_json::Value> {
    if bridge.pad_simulator {
        Json(json!({"connected": true, "model": "Signet pad simulator"}))
    } else {
        Json(json!({"connected": false}))
    }
}

/// The signature given on the pad, as strokes of points in a 600 x 200 box. The simulator's
/// signer always writes the same flourish.
async fn pad_signature(State(bridge): State<Shared>) -> Response {
    if !bridge.pad_simulator {
        return (StatusCode::NOT_FOUND, Json(json!({"error": "no_pad", "message": "no signature pad is connected"})))
            .into_response();
    }
    let stroke = |from: f64, to: f64, lift: f64| -> Vec<[u32; 2]> {
        (0..=40)
            .map(|i| {
                let t = from + (to - from) * f64::from(i) / 40.0;
                let x = 40.0 + t * 520.0;
                let y = 100.0 + lift + 45.0 * (t * 18.0).sin() * (1.0 - t * 0.5);
                [x.round() as u32, y.clamp(10.0, 190.0).round() as u32]
            })
            .collect()
    };
    Json(json!({"width": 600, "height": 200, "strokes": [stroke(0.0, 0.55, 0.0), stroke(0.6, 1.0, 10.0)]}))
        .into_response()
}
