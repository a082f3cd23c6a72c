//! The gateway signer page in a real browser: Debian's headless Chromium, driven by
//! playwright-core (`tests/browser/sign.mjs`) on a phone-sized viewport. Draw with the mouse,
//! type (with and without JavaScript), upload refused and accepted images, cancel. The result
//! lands on a real receiving server; the signed PDF is checked with pdfsig and pyHanko.
//! Screenshots of every step are kept under `<target dir>/browser-artifacts/<test>/`.

mod support;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::routing::post;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use reqwest::redirect::Policy;
use serde_json::{Value, json};
use signet_client::{
    GatewayCertificate, PageSelection, PayloadBuilder, Profile, ReturnUrls, SignaturePosition, SignatureType,
    open_result, seal_request,
};
use signet_store::Backend;
use support::{TestApp, spawn};

type Received = Arc<Mutex<Vec<(String, HashMap<String, String>)>>>;

/// The integrator's SUrl/Furl/Curl: records what the browser posts.
async fn receiver() -> (String, Received) {
    let received: Received = Arc::new(Mutex::new(Vec::new()));
    let app = axum::Router::new()
        .route(
            "/{outcome}",
            post(|State(store): State<Received>, Path(outcome): Path<String>, body: axum::body::Bytes| async move {
                let fields: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).unwrap_or_default();
                store.lock().expect("lock").push((outcome, fields.into_iter().collect()));
                axum::response::Html("<!doctype html><title>Received</title><p>Received by the integrator.</p>")
            }),
        )
        .with_state(received.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, received)
}

fn artifacts(test: &str) -> PathBuf {
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../target")));
    target.join("browser-artifacts").join(test)
}

/// Runs the browser driver; panics with its output when it fails.
fn drive(args: Value) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/sign.mjs");
    let output = Command::new("node").arg(script).arg(args.to_string()).output().expect(
        "node must be installed; the browser tests also need Debian's chromium and `npm ci` in crates/server/tests/browser \
         (scripts/install-test-deps.sh does both)",
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "browser driver failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("driver JSON")
}

fn reportlab_pdf(dir: &std::path::Path) -> Vec<u8> {
    let path = dir.join("input.pdf");
    let script = format!(
        "from reportlab.pdfgen import canvas\nc = canvas.Canvas({:?})\nc.drawString(72, 720, 'Loan agreement')\nc.showPage()\n\
         c.drawString(72, 720, 'Page two')\nc.save()\n",
        path.display().to_string()
    );
    assert!(Command::new("python3").args(["-c", &script]).status().expect("python3").success(), "reportlab");
    std::fs::read(path).expect("pdf")
}

/// Random-noise PNG of `side` x `side` pixels (noise does not compress: size ~ 3 * side²).
fn noise_png(dir: &std::path::Path, name: &str, side: u32) -> PathBuf {
    let path = dir.join(name);
    let script = format!(
        "import os\nfrom PIL import Image\nImage.frombytes('RGB', ({side}, {side}), os.urandom({side} * {side} * 3)).save({:?})\n",
        path.display().to_string()
    );
    assert!(Command::new("python3").args(["-c", &script]).status().expect("python3").success(), "Pillow");
    path
}

struct Transaction {
    page: String,
    session: signet_client::SessionKey,
    profile: Profile,
}

/// A transaction submitted the way an integrator's page does, up to the signer page's URL.
async fn transaction(
    app: &TestApp,
    receiver: &str,
    reference: &str,
    setup: impl FnOnce(PayloadBuilder) -> PayloadBuilder,
) -> Transaction {
    let tenant = app.tenant("Browser Bank").await;
    let token = app.token(&tenant).await;
    let created: Value =
        app.post("/api/v1/gateway/authtokens", &token, json!({"label": "browser"})).await.json().await.expect("json");
    let der =
        app.client.get(app.url("/eMsecure/certificate.cer")).send().await.expect("cer").bytes().await.expect("der");
    let certificate = GatewayCertificate::from_der(&der).expect("certificate");
    let dir = tempfile::tempdir().expect("tmp");
    let urls = ReturnUrls {
        success: format!("{receiver}/success"),
        failure: format!("{receiver}/failure"),
        cancel: format!("{receiver}/cancel"),
    };
    let payload = setup(
        PayloadBuilder::pdf(&reportlab_pdf(dir.path()), "Asha Verma")
            .reference_number(reference)
            .authtoken(created["authtoken"].as_str().expect("authtoken"))
            .signature_types(&[SignatureType::ESignature])
            .urls(&urls)
            .pages(&PageSelection::Last)
            .position(SignaturePosition::BottomRight)
            .preview(true),
    )
    .build()
    .expect("payload");
    let sealed = seal_request(&certificate, Profile::Modern, &payload, time::OffsetDateTime::now_utc()).expect("seal");
    let http = reqwest::Client::builder().redirect(Policy::none()).build().expect("client");
    let response = http.post(app.url("/eMsecure/V3_0/Index")).form(&sealed.form_fields()).send().await.expect("submit");
    assert_eq!(response.status(), 303);
    let page = app.url(response.headers()["location"].to_str().expect("location"));
    Transaction { page, session: sealed.session, profile: sealed.profile }
}

fn validate(pdf: &[u8], app: &TestApp, test: &str) {
    let dir = artifacts(test);
    std::fs::create_dir_all(&dir).expect("artifacts");
    let path = dir.join("signed.pdf");
    std::fs::write(&path, pdf).expect("write");
    let report = Command::new("pdfsig").arg(&path).output().expect("pdfsig");
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(report.contains("Signature is Valid"), "{report}");
    let ca = dir.join("ca.pem");
    let pem = format!(
        "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
        STANDARD.encode(&app.state.keys.ca.cert_der)
    );
    std::fs::write(&ca, pem).expect("ca");
    let output = Command::new("pyhanko")
        .args(["sign", "validate", "--trust"])
        .arg(&ca)
        .args(["--trust-replace", "--no-revocation-check"])
        .arg(&path)
        .output()
        .expect("pyhanko");
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && !out.contains("INVALID"),
        "pyhanko:\n{out}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn posted(received: &Received, outcome: &str) -> HashMap<String, String> {
    let all = received.lock().expect("lock");
    let found = all.iter().find(|(o, _)| o == outcome);
    found.map(|(_, fields)| fields.clone()).unwrap_or_else(|| panic!("nothing posted to {outcome}: {all:?}"))
}

fn signed_pdf(received: &Received, tx: &Transaction) -> Vec<u8> {
    let fields = posted(received, "success");
    assert_eq!(fields["ReturnStatus"], "Success", "{fields:?}");
    open_result(&tx.session, tx.profile, &fields["Returnvalue"]).expect("open result")
}

async fn drawing_with_the_mouse_signs_with_the_drawn_image(backend: Backend) {
    let app = spawn(backend).await;
    let (receiver, received) = receiver().await;
    let tx = transaction(&app, &receiver, "BROWSER-DRAW", |p| p.draw_signature(true)).await;
    let test = format!("draw-{backend:?}");
    let outcome =
        drive(json!({"url": tx.page, "action": "draw", "shots": artifacts(&test), "doneUrlPrefix": receiver}));
    assert!(outcome["finalUrl"].as_str().is_some_and(|u| u.ends_with("/success")), "{outcome}");
    let pdf = signed_pdf(&received, &tx);
    // The drawing is the appearance: an image XObject in the signature widget.
    assert!(pdf.windows(13).any(|w| w == b"/Subtype /Ima" || w == b"/Subtype/Imag"), "an image appearance");
    validate(&pdf, &app, &test);
}

async fn typing_a_name_signs_with_and_without_javascript(backend: Backend) {
    let app = spawn(backend).await;
    for (action, reference) in [("typed", "BROWSER-TYPED"), ("typed-nojs", "BROWSER-NOJS")] {
        let (receiver, received) = receiver().await;
        let tx = transaction(&app, &receiver, reference, |p| p.font_signature(true).draw_signature(true)).await;
        let test = format!("{action}-{backend:?}");
        let outcome = drive(
            json!({"url": tx.page, "action": action, "name": "Asha Verma", "shots": artifacts(&test), "doneUrlPrefix": receiver}),
        );
        assert!(outcome["finalUrl"].as_str().is_some_and(|u| u.ends_with("/success")), "{outcome}");
        validate(&signed_pdf(&received, &tx), &app, &test);
    }
}

async fn uploads_are_checked_and_the_signer_may_try_again(backend: Backend) {
    let app = spawn(backend).await;
    let (receiver, received) = receiver().await;
    let tx = transaction(&app, &receiver, "BROWSER-UPLOAD", |p| p.upload_signature(true)).await;
    let files = tempfile::tempdir().expect("tmp");
    let gif = files.path().join("signature.gif");
    let mut gif_bytes = b"GIF89a".to_vec();
    gif_bytes.resize(150 * 1024, 0);
    std::fs::write(&gif, gif_bytes).expect("gif");
    let small = noise_png(files.path(), "small.png", 40);
    let good = noise_png(files.path(), "signature.png", 220);
    let good_size = std::fs::metadata(&good).expect("png").len();
    assert!((100 * 1024..=200 * 1024).contains(&good_size), "the test image is {good_size} bytes");
    let test = format!("upload-{backend:?}");
    let outcome = drive(json!({
        "url": tx.page, "action": "upload", "shots": artifacts(&test), "doneUrlPrefix": receiver,
        "uploads": [gif, small, good],
    }));
    let messages: Vec<&str> =
        outcome["messages"].as_array().expect("messages").iter().filter_map(Value::as_str).collect();
    assert!(messages[0].starts_with("115"), "{messages:?}");
    assert!(messages[1].starts_with("116"), "{messages:?}");
    validate(&signed_pdf(&received, &tx), &app, &test);
}

async fn cancelling_posts_106_to_the_cancel_address(backend: Backend) {
    let app = spawn(backend).await;
    let (receiver, received) = receiver().await;
    let tx = transaction(&app, &receiver, "BROWSER-CANCEL", |p| p.font_signature(true)).await;
    let test = format!("cancel-{backend:?}");
    let outcome =
        drive(json!({"url": tx.page, "action": "cancel", "shots": artifacts(&test), "doneUrlPrefix": receiver}));
    assert!(outcome["finalUrl"].as_str().is_some_and(|u| u.ends_with("/cancel")), "{outcome}");
    let fields = posted(&received, "cancel");
    assert_eq!(fields["ReturnStatus"], "Failure");
    assert!(fields["ErrorMessage"].starts_with("106"), "{fields:?}");
}

// The browser flows are the same on both databases; SQLite keeps the suite's browser time
// down, and the server side of each step already runs on both backends in gateway.rs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drawing_with_the_mouse() {
    drawing_with_the_mouse_signs_with_the_drawn_image(Backend::Sqlite).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typing_a_name() {
    typing_a_name_signs_with_and_without_javascript(Backend::Sqlite).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploading_images() {
    uploads_are_checked_and_the_signer_may_try_again(Backend::Sqlite).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling() {
    cancelling_posts_106_to_the_cancel_address(Backend::Sqlite).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drawing_with_the_mouse_on_postgres() {
    drawing_with_the_mouse_signs_with_the_drawn_image(Backend::Postgres).await
}
