//! Helpers that several of the end-to-end modules used word for word, kept once here.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::routing::post;
use reqwest::redirect::Policy;
use serde_json::{Value, json};
use signet_client::SealedRequest;
use signet_testkit::gateway::Integrator;
use signet_testkit::pki::TestPki;
use signet_testkit::problem::unescape;
use signet_testkit::server::TestApp;

/// The browser drivers (Node.js scripts on playwright-core) and their `node_modules`.
pub const DRIVER_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser");

/// The password `TestApp::tenant` gives each tenant's first administrator.
pub const ADMIN_PASSWORD: &str = "correct horse battery";

/// An id that no tenant has.
pub const MISSING: i64 = 2_000_000_000;

/// The build's target directory, under which the browser tests keep their screenshots.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../target")))
}

/// The body of `response` as JSON, after checking its status (the body shows when it differs).
pub async fn json_of(response: reqwest::Response, status: u16) -> Value {
    let got = response.status().as_u16();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    assert_eq!(got, status, "{body}");
    body
}

/// The hidden fields of the form after `marker` on a page, as the browser sends them back.
pub fn hidden_fields(html: &str, marker: &str) -> Vec<(String, String)> {
    let form = html.split(marker).nth(1).and_then(|rest| rest.split("</form>").next()).unwrap_or_default();
    form.split("<input type=\"hidden\" name=\"")
        .skip(1)
        .filter_map(|rest| {
            let (name, rest) = rest.split_once('"')?;
            let value = rest.split_once("value=\"")?.1.split('"').next()?;
            Some((unescape(name), unescape(value)))
        })
        .collect()
}

/// A client that behaves as a browser without JavaScript on the signer pages: redirects are
/// answered, not followed.
pub fn browser() -> reqwest::Client {
    reqwest::Client::builder().redirect(Policy::none()).build().expect("client")
}

/// Opens the signer page at `link` and signs it with a typed `name`.
pub async fn sign_typed(link: &str, name: &str) {
    let http = browser();
    assert_eq!(http.get(link).send().await.expect("page").status(), 200);
    let signed = http
        .post(format!("{link}/sign"))
        .form(&[("mode", "typed"), ("typedName", name), ("font", "handwriting"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    assert_eq!(signed.status(), 200, "signing as {name}");
}

/// The signing link of `email` in a started workflow's answer.
pub fn link_of(started: &Value, email: &str) -> String {
    started["signingUrls"]
        .as_array()
        .expect("signingUrls")
        .iter()
        .find(|u| u["emailId"] == email)
        .and_then(|u| u["url"].as_str())
        .expect("url")
        .to_string()
}

/// The bodies a webhook receiver was posted, in order.
pub type Inbox = Arc<Mutex<Vec<String>>>;

/// A webhook receiver on a free port: its URL and what it received.
pub async fn receiver() -> (String, Inbox) {
    let inbox: Inbox = Arc::default();
    let kept = inbox.clone();
    let app = axum::Router::new().route(
        "/hooks",
        post(move |body: String| {
            let kept = kept.clone();
            async move {
                kept.lock().expect("lock").push(body);
                axum::http::StatusCode::NO_CONTENT
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/hooks", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, inbox)
}

/// Posts a sealed gateway request as the integrator's server does.
pub async fn submit(app: &TestApp, who: &Integrator, sealed: &SealedRequest) -> reqwest::Response {
    who.submit(&app.base(), sealed).await
}

/// A signing certificate in a PKCS#12, as a user uploads it for a signing profile.
pub fn signer_p12(password: &str) -> Vec<u8> {
    TestPki::new("Treasury Test CA").signer_p12("Treasury Signing", Some("Acme Bank"), password)
}

/// An identity provider that publishes only its discovery document: enough to save it.
pub async fn discovery_server() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let issuer = format!("http://{}", listener.local_addr().expect("address"));
    let document = json!({
        "issuer": issuer, "authorization_endpoint": format!("{issuer}/auth"),
        "token_endpoint": format!("{issuer}/token"), "jwks_uri": format!("{issuer}/jwks"),
    });
    let router = axum::Router::new()
        .route("/.well-known/openid-configuration", axum::routing::get(move || async move { axum::Json(document) }));
    tokio::spawn(async move { axum::serve(listener, router).await });
    issuer
}

/// Runs `tests/browser/guided.mjs` on a signer page, on a `screen` ("phone" or "desk"), the
/// `way` it signs ("draw" or "keyboard"), with `extra` arguments merged in (for example
/// `{"otp": {"codeFile": …}}`); its outcome, which must list no problems.
pub async fn guided(link: &str, screen: &str, way: &str, backend: signet_store::Backend, extra: Value) -> Value {
    let driver = std::path::Path::new(DRIVER_DIR);
    assert!(
        driver.join("node_modules/playwright-core").is_dir(),
        "npm ci in tests/browser (scripts/install-test-deps.sh)"
    );
    // One folder a journey, so that journeys on the same screen keep their own screenshots.
    let journey = format!("{screen}-{way}{}", if extra.get("otp").is_some() { "-otp" } else { "" });
    let shots =
        target_dir().join("browser-artifacts").join("guided").join(format!("{backend:?}").to_lowercase()).join(journey);
    let mut args = json!({"link": link, "screen": screen, "way": way, "text": {"pan": "ABCDE1234F", "panField": "field1"}, "shots": shots});
    if let (Some(args), Value::Object(extra)) = (args.as_object_mut(), extra) {
        args.extend(extra);
    }
    let what = format!("{screen} {way}");
    tokio::task::spawn_blocking(move || run_driver("guided.mjs", &args, &what)).await.expect("join")
}

/// Runs the browser driver `script` (a Node.js script in [`DRIVER_DIR`]) with `args` as its one
/// JSON argument; its outcome, the last line it prints, which must list no problems (`what`
/// names the run when it does). Blocks until the browser is done.
pub fn run_driver(script: &str, args: &Value, what: &str) -> Value {
    let output = std::process::Command::new("node")
        .arg(std::path::Path::new(DRIVER_DIR).join(script))
        .arg(args.to_string())
        .output()
        .expect("node (Node.js 20+) must be installed");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{script} failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let outcome: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("driver output is not JSON ({e}):\n{stdout}"));
    assert_eq!(outcome["problems"], json!([]), "{what}: {outcome}");
    outcome
}

/// The actions of a workflow's audit trail, in order.
pub async fn workflow_actions(app: &TestApp, token: &str, workflow_id: i64) -> Vec<String> {
    let audit: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}/audit"), token).await.json().await.expect("json");
    let events = audit["events"].as_array().expect("events");
    events.iter().filter_map(|e| e["action"].as_str().map(str::to_string)).collect()
}

/// Waits up to a minute (issue 33's promise for validation data) until the workflow's audit
/// trail holds `count` events `action`; the actions seen last.
pub async fn within_a_minute(app: &TestApp, token: &str, workflow_id: i64, action: &str, count: usize) -> Vec<String> {
    let started = std::time::Instant::now();
    loop {
        let seen = workflow_actions(app, token, workflow_id).await;
        if seen.iter().filter(|a| *a == action).count() >= count || started.elapsed().as_secs() >= 60 {
            return seen;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// Whether the PDF's DSS holds an OCSP answer or a CRL of `issuer` (DER) that says `cert`
/// (DER) is not revoked: the signer's revocation data, checked as a validator would.
pub fn dss_vouches_for(pdf: &[u8], cert: &[u8], issuer: &[u8]) -> bool {
    use signet_sigcrypto::revocation::{RevocationStatus, check_crl, check_ocsp_response};
    let good = |status: RevocationStatus| status == RevocationStatus::Good;
    let dss = signet_pdf::read_dss(pdf).expect("the DSS");
    dss.ocsps.iter().any(|answer| check_ocsp_response(answer, cert, issuer).is_ok_and(|info| good(info.status)))
        || dss.crls.iter().any(|crl| check_crl(crl, cert, issuer).is_ok_and(|info| good(info.status)))
}

/// The signer certificate (DER) of each approval signature of the PDF, in order.
pub fn pdf_signers(pdf: &[u8]) -> Vec<Vec<u8>> {
    let infos = signet_pdf::signatures(pdf).expect("signatures");
    let approvals = infos.iter().filter(|info| info.sig_type == "Sig");
    approvals
        .map(|info| signet_sigcrypto::cms::signer_certificates(&info.contents).expect("CMS").signers.remove(0))
        .collect()
}
