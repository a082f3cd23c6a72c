//! The gateway signer page in a real browser: Debian's headless Chromium, driven by
//! playwright-core (`tests/browser/sign.mjs`) on a phone-sized screen. The browser opens the
//! integrator's page, which posts the envelope (built by the client SDK) to a real server on
//! port 0; the signer draws with the mouse or a finger, types a name (with and without
//! JavaScript), uploads refused and accepted images, or cancels; the result form carries the
//! outcome to the integrator's SUrl/Furl/Curl, a real HTTP server here that records it. The
//! Returnvalue is opened with the session key and the signed PDF checked with pdfsig, pyHanko
//! (the server's CA as trust root) and for its visible appearance (`tests/browser/appearance.py`).
//! Every step leaves a screenshot under `<target dir>/browser-artifacts/<test>/<backend>/`,
//! beside the signed PDF and a rendering of its signed page.
//!
//! Needs node, Debian's chromium (or `CHROMIUM=/path`) and `npm ci` in `tests/browser`;
//! `scripts/install-test-deps.sh` provides all three.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_client::{
    FormScript, PageSelection, PayloadBuilder, Profile, ReturnUrls, SessionKey, SignaturePosition, SignatureType,
    open_result,
};
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::{Page, reportlab_pdf};
use signet_testkit::server::{TestApp, spawn};

use crate::support::{DRIVER_DIR, target_dir};

on_both_backends!(
    drawing_with_the_mouse_delivers_a_signed_pdf_with_the_drawing,
    drawing_with_a_finger_on_a_phone_delivers_the_drawing,
    typing_a_name_in_the_chosen_style_delivers_a_signed_pdf,
    typing_a_name_without_javascript_delivers_a_signed_pdf,
    refused_uploads_are_shown_and_the_signer_tries_again,
    cancelling_posts_106_to_the_cancel_address,
    pressing_sign_twice_sends_one_submission,
    pressing_sign_twice_without_javascript_still_delivers_the_kept_result,
    aadhaar_esign_through_the_test_esp_with_javascript,
    aadhaar_esign_through_the_test_esp_without_javascript,
    aadhaar_esign_of_data_hash_and_xml_in_the_browser,
);

/// What the integrator's receiver got: the path's outcome (success, failure, cancel) and the fields.
type Received = Arc<Mutex<Vec<(String, HashMap<String, String>)>>>;

/// The integrator's web app: serves the auto-submitting page of each envelope at
/// `/start/{reference}` and records what the browser posts to `/result/{outcome}`.
struct Integrator {
    base: String,
    pages: Arc<Mutex<HashMap<String, String>>>,
    received: Received,
}

#[derive(Clone)]
struct IntegratorState {
    pages: Arc<Mutex<HashMap<String, String>>>,
    received: Received,
}

async fn integrator() -> Integrator {
    let state = IntegratorState { pages: Arc::default(), received: Arc::default() };
    let router = axum::Router::new()
        .route(
            "/start/{reference}",
            get(|State(s): State<IntegratorState>, UrlPath(reference): UrlPath<String>| async move {
                match s.pages.lock().expect("lock").get(&reference) {
                    Some(page) => Html(page.clone()).into_response(),
                    None => StatusCode::NOT_FOUND.into_response(),
                }
            }),
        )
        .route(
            "/result/{outcome}",
            post(|State(s): State<IntegratorState>, UrlPath(outcome): UrlPath<String>, body: axum::body::Bytes| async move {
                let fields: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).unwrap_or_default();
                s.received.lock().expect("lock").push((outcome, fields.into_iter().collect()));
                Html("<!doctype html><html lang=\"en\"><title>Received</title><p>Received by the integrator.</p></html>")
            }),
        )
        .with_state(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, router).await });
    Integrator { base, pages: state.pages, received: state.received }
}

impl Integrator {
    /// The one post the browser delivered; panics when there is none, or more than one.
    fn only_post(&self) -> (String, HashMap<String, String>) {
        let all = self.received.lock().expect("lock");
        assert_eq!(all.len(), 1, "exactly one result post: {all:?}");
        all[0].clone()
    }
}

/// Everything a test needs about one submitted envelope.
struct Transaction {
    start: String,
    reference: String,
    session: SessionKey,
    profile: Profile,
    original: Vec<u8>,
}

/// An account with an Authtoken, and an envelope for `reference` the integrator's page will post.
async fn envelope(
    app: &TestApp,
    integrator: &Integrator,
    reference: &str,
    profile: Profile,
    setup: impl FnOnce(PayloadBuilder) -> PayloadBuilder,
) -> Transaction {
    let original = reportlab_pdf(&[Page::text("Loan agreement"), Page::text("Page two")]);
    let base = PayloadBuilder::pdf(&original, "Asha Verma")
        .signature_types(&[SignatureType::ESignature])
        .pages(&PageSelection::Last)
        .position(SignaturePosition::BottomRight)
        .preview(true);
    envelope_of(app, integrator, reference, profile, setup(base), original).await
}

/// An envelope of any file type: `base` gets the reference, the Authtoken and the
/// integrator's return addresses.
async fn envelope_of(
    app: &TestApp,
    integrator: &Integrator,
    reference: &str,
    profile: Profile,
    base: PayloadBuilder,
    original: Vec<u8>,
) -> Transaction {
    let (who, _) = app.integrator("Browser Bank").await;
    let urls = ReturnUrls {
        success: format!("{}/result/success", integrator.base),
        failure: format!("{}/result/failure", integrator.base),
        cancel: format!("{}/result/cancel", integrator.base),
    };
    let payload = base.reference_number(reference).authtoken(&who.authtoken).urls(&urls).build().expect("payload");
    let sealed = who.seal(profile, &payload);
    let page = sealed.render_form(&app.url("/eMsecure/V3_0/Index"), &FormScript::Inline);
    integrator.pages.lock().expect("lock").insert(reference.to_string(), page);
    Transaction {
        start: format!("{}/start/{reference}", integrator.base),
        reference: reference.to_string(),
        session: sealed.session,
        profile,
        original,
    }
}

/// A fresh folder for this test's screenshots and files.
fn artifacts(test: &str, backend: Backend) -> PathBuf {
    let dir = target_dir().join("browser-artifacts").join(test).join(format!("{backend:?}").to_lowercase());
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("artifacts folder");
    dir
}

/// Fails with instructions when the browser or its driver is missing (CI installs both).
fn require_browser() {
    let chromium = std::env::var_os("CHROMIUM").map(PathBuf::from).unwrap_or_else(|| "/usr/bin/chromium".into());
    assert!(
        chromium.exists(),
        "the browser tests need Chromium at {} (Debian's `chromium` package; scripts/install-test-deps.sh installs \
         it, or set CHROMIUM=/path/to/chromium)",
        chromium.display()
    );
    assert!(
        Path::new(DRIVER_DIR).join("node_modules/playwright-core").is_dir(),
        "the browser tests need playwright-core: run `npm ci --prefix crates/server/tests/browser` \
         (scripts/install-test-deps.sh does)"
    );
}

/// Runs the browser driver; panics with its output when it fails or saw a problem on the pages.
fn drive(args: Value) -> Value {
    require_browser();
    let output = Command::new("node")
        .arg(Path::new(DRIVER_DIR).join("sign.mjs"))
        .arg(args.to_string())
        .output()
        .expect("node (Node.js 20+) must be installed; scripts/install-test-deps.sh installs it");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "browser driver failed:\n{stdout}\n{stderr}");
    let outcome: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("driver output is not JSON ({e}):\n{stdout}\n{stderr}"));
    let problems = outcome["problems"].as_array().expect("problems");
    assert!(problems.is_empty(), "the browser saw problems on the pages: {problems:#?}");
    outcome
}

fn final_url_is(outcome: &Value, integrator: &Integrator, path: &str) {
    let expected = format!("{}{path}", integrator.base);
    assert_eq!(outcome["finalUrl"].as_str(), Some(expected.as_str()), "{outcome}");
}

/// The signed PDF delivered to SUrl, opened with the session key.
fn delivered_pdf(integrator: &Integrator, tx: &Transaction) -> Vec<u8> {
    let (outcome, fields) = integrator.only_post();
    assert_eq!(outcome, "success", "{fields:?}");
    assert_eq!(fields.get("ReturnStatus").map(String::as_str), Some("Success"), "{fields:?}");
    assert_eq!(fields.get("Referencenumber"), Some(&tx.reference), "{fields:?}");
    assert!(fields.get("Transactionnumber").is_some_and(|t| t.starts_with("SGN")), "{fields:?}");
    let pdf = open_result(&tx.session, tx.profile, &fields["Returnvalue"]).expect("Returnvalue opens with the key");
    assert!(pdf.starts_with(&tx.original), "an incremental update: the original bytes come first");
    pdf
}

/// pdfsig and pyHanko (trusting the server's CA) accept the signature; returns the description
/// of its visible appearance from `appearance.py`, checked to be on the last page's bottom right.
fn validate(pdf: &[u8], app: &TestApp, dir: &Path) -> Value {
    let path = dir.join("signed.pdf");
    std::fs::write(&path, pdf).expect("write");

    let report = Command::new("pdfsig").arg(&path).output().expect("pdfsig (poppler-utils)");
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(report.contains("Signature is Valid."), "pdfsig:\n{report}");
    assert!(report.contains("Total document signed"), "pdfsig:\n{report}");

    let ca = dir.join("ca.pem");
    let pem = format!(
        "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
        STANDARD.encode(&app.state.services.keys.ca.cert_der)
    );
    std::fs::write(&ca, pem).expect("ca");
    let output = Command::new("pyhanko")
        .args(["sign", "validate", "--trust"])
        .arg(&ca)
        .args(["--trust-replace", "--no-revocation-check"])
        .arg(&path)
        .output()
        .expect("pyhanko");
    let out = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success() && out.contains(":INTACT:TRUSTED,UNTOUCHED"), "pyhanko:\n{out}");

    let output = Command::new("python3")
        .arg(Path::new(DRIVER_DIR).join("appearance.py"))
        .arg(&path)
        .arg(dir)
        .output()
        .expect("python3 with pypdf and Pillow");
    assert!(output.status.success(), "appearance.py:\n{}", String::from_utf8_lossy(&output.stderr));
    let described: Value = serde_json::from_slice(&output.stdout).expect("appearance JSON");
    let widgets = described["widgets"].as_array().expect("widgets");
    assert_eq!(widgets.len(), 1, "one signature: {described}");
    let widget = widgets[0].clone();
    assert_eq!(widget["page"], 1, "on the last page (PageSelection::Last): {widget}");
    assert_eq!(widget["appearance"], true, "{widget}");
    let number = |v: &Value| v.as_f64().expect("number");
    let (rect, page) = (widget["rect"].as_array().expect("rect"), widget["pageBox"].as_array().expect("box"));
    let (width, height) = (number(&rect[2]) - number(&rect[0]), number(&rect[3]) - number(&rect[1]));
    assert!(width > 60.0 && height > 25.0, "a visible box, not a hidden field: {widget}");
    assert!(number(&rect[0]) > number(&page[2]) / 2.0, "bottom right: {widget}");
    assert!(number(&rect[3]) < number(&page[3]) / 2.0, "bottom right: {widget}");
    assert!(widget["renderedInk"].as_u64().expect("ink") > 200, "poppler paints the appearance: {widget}");
    widget
}

fn fonts(widget: &Value) -> Vec<String> {
    widget["fonts"].as_array().expect("fonts").iter().filter_map(Value::as_str).map(str::to_string).collect()
}

async fn drawing_with_the_mouse_delivers_a_signed_pdf_with_the_drawing(backend: Backend) {
    drawing(backend, "mouse").await;
}

async fn drawing_with_a_finger_on_a_phone_delivers_the_drawing(backend: Backend) {
    drawing(backend, "touch").await;
}

async fn drawing(backend: Backend, pointer: &str) {
    let app = spawn(backend).await;
    let integrator = integrator().await;
    let tx = envelope(&app, &integrator, &format!("DRAW-{pointer}"), Profile::Modern, |p| p.draw_signature(true)).await;
    let dir = artifacts(&format!("draw-{pointer}"), backend);
    let outcome = drive(json!({"start": tx.start, "action": "draw", "pointer": pointer, "shots": dir,
        "doneUrlPrefix": integrator.base}));
    // Sign on an empty pad is answered on the page (no dialog, nothing sent).
    assert_eq!(outcome["messages"], json!(["Please draw your signature in the box first."]), "{outcome}");
    assert_eq!(outcome["signPosts"], 1, "{outcome}");
    final_url_is(&outcome, &integrator, "/result/success");
    let widget = validate(&delivered_pdf(&integrator, &tx), &app, &dir);
    // The drawing itself is the appearance: the canvas (600 x 200) with the stroke in it.
    let images = widget["images"].as_array().expect("images");
    assert_eq!(images.len(), 1, "{widget}");
    assert_eq!((images[0]["width"].as_u64(), images[0]["height"].as_u64()), (Some(600), Some(200)), "{widget}");
    assert!(images[0]["ink"].as_u64().expect("ink") > 500, "the drawn stroke is in the image: {widget}");
}

async fn typing_a_name_in_the_chosen_style_delivers_a_signed_pdf(backend: Backend) {
    let app = spawn(backend).await;
    let integrator = integrator().await;
    let tx =
        envelope(&app, &integrator, "TYPED-PLAIN", Profile::Modern, |p| p.font_signature(true).draw_signature(true))
            .await;
    let dir = artifacts("typed-plain", backend);
    let outcome = drive(json!({"start": tx.start, "action": "typed", "name": "Asha R. Verma", "font": "plain",
        "shots": dir, "doneUrlPrefix": integrator.base}));
    final_url_is(&outcome, &integrator, "/result/success");
    let widget = validate(&delivered_pdf(&integrator, &tx), &app, &dir);
    // The chosen style: the plain font, not the handwriting one (the default); no image.
    let fonts = fonts(&widget);
    assert!(fonts.iter().any(|f| f.ends_with("NotoSans-Regular")), "{widget}");
    assert!(!fonts.iter().any(|f| f.contains("DancingScript")), "{widget}");
    assert_eq!(widget["images"].as_array().map(Vec::len), Some(0), "{widget}");
}

async fn typing_a_name_without_javascript_delivers_a_signed_pdf(backend: Backend) {
    let app = spawn(backend).await;
    let integrator = integrator().await;
    // An older integration: the legacy profile, and a browser with JavaScript switched off.
    let tx =
        envelope(&app, &integrator, "TYPED-NOJS", Profile::Legacy, |p| p.font_signature(true).draw_signature(true))
            .await;
    let dir = artifacts("typed-nojs", backend);
    let outcome = drive(json!({"start": tx.start, "action": "typed", "javaScript": false, "name": "Asha Verma",
        "font": "handwriting", "shots": dir, "doneUrlPrefix": integrator.base}));
    final_url_is(&outcome, &integrator, "/result/success");
    let widget = validate(&delivered_pdf(&integrator, &tx), &app, &dir);
    assert!(fonts(&widget).iter().any(|f| f.contains("DancingScript")), "the handwriting style: {widget}");
}

/// A random-noise image (noise does not compress, so the size is about that of the pixels).
fn noise_image(dir: &Path, name: &str, side: u32, format: &str) -> PathBuf {
    let path = dir.join(name);
    let script = format!(
        "import os\nfrom PIL import Image\nImage.frombytes('RGB', ({side}, {side}), os.urandom({side} * {side} * 3))\
         {}.save({:?}, {format:?})\n",
        if format == "GIF" { ".quantize(256)" } else { "" },
        path.display().to_string()
    );
    let status = Command::new("python3").args(["-c", &script]).status().expect("python3");
    assert!(status.success(), "Pillow must be installed (scripts/install-test-deps.sh)");
    path
}

async fn refused_uploads_are_shown_and_the_signer_tries_again(backend: Backend) {
    let app = spawn(backend).await;
    let integrator = integrator().await;
    let tx = envelope(&app, &integrator, "UPLOAD", Profile::Modern, |p| p.upload_signature(true)).await;
    let dir = artifacts("upload", backend);
    let files = tempfile::tempdir().expect("tmp");
    let size = |p: &Path| std::fs::metadata(p).expect("image").len();
    // A real GIF of an accepted size: refused for its type (115) alone.
    let gif = noise_image(files.path(), "signature.gif", 330, "GIF");
    assert!(std::fs::read(&gif).expect("gif").starts_with(b"GIF8"), "a GIF");
    assert!((100 * 1024..=200 * 1024).contains(&size(&gif)), "the GIF is {} bytes", size(&gif));
    // A PNG under 100 KB (116), then one of about 150 KB that is accepted.
    let small = noise_image(files.path(), "small.png", 60, "PNG");
    assert!(size(&small) < 100 * 1024);
    let good = noise_image(files.path(), "signature.png", 220, "PNG");
    assert!((100 * 1024..=200 * 1024).contains(&size(&good)), "the PNG is {} bytes", size(&good));

    let outcome = drive(json!({"start": tx.start, "action": "upload", "shots": dir, "doneUrlPrefix": integrator.base,
        "uploads": [gif, small, good]}));
    let messages: Vec<&str> =
        outcome["messages"].as_array().expect("messages").iter().filter_map(Value::as_str).collect();
    assert_eq!(messages.len(), 2, "{outcome}");
    assert!(messages[0].starts_with("115:"), "{messages:?}");
    assert!(messages[1].starts_with("116:"), "{messages:?}");
    final_url_is(&outcome, &integrator, "/result/success");
    let widget = validate(&delivered_pdf(&integrator, &tx), &app, &dir);
    let images = widget["images"].as_array().expect("images");
    assert_eq!(images.len(), 1, "{widget}");
    assert_eq!((images[0]["width"].as_u64(), images[0]["height"].as_u64()), (Some(220), Some(220)), "{widget}");
}

async fn cancelling_posts_106_to_the_cancel_address(backend: Backend) {
    let app = spawn(backend).await;
    let integrator = integrator().await;
    let tx = envelope(&app, &integrator, "CANCEL", Profile::Modern, |p| p.font_signature(true)).await;
    let dir = artifacts("cancel", backend);
    let outcome = drive(json!({"start": tx.start, "action": "cancel", "shots": dir, "doneUrlPrefix": integrator.base}));
    final_url_is(&outcome, &integrator, "/result/cancel");
    let (to, fields) = integrator.only_post();
    assert_eq!(to, "cancel");
    assert_eq!(fields.get("ReturnStatus").map(String::as_str), Some("Failure"), "{fields:?}");
    assert!(fields.get("ErrorMessage").is_some_and(|m| m.starts_with("106: ")), "{fields:?}");
    assert_eq!(fields.get("Referencenumber"), Some(&tx.reference), "{fields:?}");
    // The link is spent.
    let signer_page = outcome["signerPage"].as_str().expect("signer page");
    let again = app.client.get(signer_page).send().await.expect("page");
    assert_eq!(again.status(), 410);
}

/// Sign pressed twice, the second press after the server finished the first but before its
/// answer reached a phone on a slow connection (the answers arrive 1.5 s late).
fn press_twice(javascript: bool) -> Value {
    json!({"action": "typed", "name": "Asha Verma", "javaScript": javascript, "doubleSubmit": true,
        "doubleSubmitGapMs": 700, "latencyMs": 1500})
}

async fn pressing_sign_twice_sends_one_submission(backend: Backend) {
    let app = spawn(backend).await;
    let integrator = integrator().await;
    let tx = envelope(&app, &integrator, "TWICE", Profile::Modern, |p| p.font_signature(true)).await;
    let dir = artifacts("sign-twice", backend);
    let mut args = press_twice(true);
    args["start"] = json!(tx.start);
    args["shots"] = json!(dir);
    args["doneUrlPrefix"] = json!(integrator.base);
    let outcome = drive(args);
    // A second submission would replace the first in the browser, and its answer would be
    // "already signed" instead of the result: the page sends only one.
    assert_eq!(outcome["signPosts"], 1, "{outcome}");
    final_url_is(&outcome, &integrator, "/result/success");
    validate(&delivered_pdf(&integrator, &tx), &app, &dir);
}

async fn pressing_sign_twice_without_javascript_still_delivers_the_kept_result(backend: Backend) {
    let app = spawn(backend).await;
    let integrator = integrator().await;
    let tx =
        envelope(&app, &integrator, "TWICE-NOJS", Profile::Modern, |p| p.font_signature(true).store_to_db(true)).await;
    let dir = artifacts("sign-twice-nojs", backend);
    let mut args = press_twice(false);
    args["start"] = json!(tx.start);
    args["shots"] = json!(dir);
    args["doneUrlPrefix"] = json!(integrator.base);
    let outcome = drive(args);
    // Without JavaScript nothing stops the second submission; the server answers it with the
    // kept result (Storetodb), so the integrator still gets the signed document.
    assert_eq!(outcome["signPosts"], 2, "{outcome}");
    final_url_is(&outcome, &integrator, "/result/success");
    validate(&delivered_pdf(&integrator, &tx), &app, &dir);
}

async fn aadhaar_esign_through_the_test_esp_with_javascript(backend: Backend) {
    aadhaar_esign(backend, true).await;
}

async fn aadhaar_esign_through_the_test_esp_without_javascript(backend: Backend) {
    aadhaar_esign(backend, false).await;
}

/// The signer utility in the browser (one backend: it listens on fixed ports). First with no
/// utility running: the token form reports it as not installed and the signer gives up (110
/// to Furl); a request whose only eSignature option is the pad ends with 117. Then with
/// `signet-bridge serve` (a SoftHSM2 token and the simulated pad): the signer picks the
/// certificate, enters the PIN and the signed PDF reaches SUrl; the pad's signature is taken
/// onto the page and signed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crypto_token_through_the_signer_utility_signs_or_reports_it_missing() {
    use signet_testkit::token::{MODULE, PIN, SoftToken, bridge_bin};
    let backend = Backend::Sqlite;
    let app = spawn(backend).await;
    let integrator = integrator().await;
    let digital = |p: PayloadBuilder| p.signature_types(&[SignatureType::DigitalSignature]);

    let tx = envelope(&app, &integrator, "TOKEN-MISSING", Profile::Modern, digital).await;
    let shots = artifacts("token-missing", backend);
    let outcome =
        drive(json!({"start": tx.start, "action": "token", "shots": shots, "doneUrlPrefix": integrator.base}));
    assert!(outcome["messages"][0].as_str().is_some_and(|m| m.contains("not installed")), "{outcome}");
    final_url_is(&outcome, &integrator, "/result/failure");
    let (_, fields) = integrator.only_post();
    assert!(fields["ErrorMessage"].starts_with("110"), "{fields:?}");

    integrator.received.lock().expect("lock").clear();
    let pad_only = |p: PayloadBuilder| p.signature_pad(true);
    let tx = envelope(&app, &integrator, "PAD-MISSING", Profile::Modern, pad_only).await;
    let outcome = drive(json!({"start": tx.start, "action": "pad", "expectPad": false,
        "shots": artifacts("pad-missing", backend), "doneUrlPrefix": integrator.base}));
    final_url_is(&outcome, &integrator, "/result/failure");
    let (_, fields) = integrator.only_post();
    assert!(fields["ErrorMessage"].starts_with("117"), "{fields:?}");

    // The signer's home: the utility installs its CA there on first start, and the browser
    // (run with that home) trusts the utility without any exception.
    let token = SoftToken::new();
    let home = token.dir.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    let mut bridge = Command::new(bridge_bin())
        .args(["serve", "--pad-simulator", "--module", MODULE, "--allow-origin", &app.base(), "--data-dir"])
        .arg(token.dir.path().join("bridge"))
        .env("SOFTHSM2_CONF", token.conf())
        .env("HOME", &home)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("signet-bridge serve");
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(bridge.stdout.take().expect("stdout")), &mut line)
        .expect("the bridge's address");
    integrator.received.lock().expect("lock").clear();
    let tx = envelope(&app, &integrator, "TOKEN-SIGNED", Profile::Modern, digital).await;
    let shots = artifacts("token-signed", backend);
    let outcome = drive(json!({"start": tx.start, "action": "token", "pin": PIN, "shots": shots,
        "doneUrlPrefix": integrator.base, "home": home}));
    final_url_is(&outcome, &integrator, "/result/success");
    let token_post = integrator.only_post();
    integrator.received.lock().expect("lock").clear();
    let pad_tx = envelope(&app, &integrator, "PAD-SIGNED", Profile::Modern, pad_only).await;
    let pad_shots = artifacts("pad-signed", backend);
    let outcome = drive(json!({"start": pad_tx.start, "action": "pad", "shots": pad_shots,
        "doneUrlPrefix": integrator.base, "home": home}));
    let _ = bridge.kill();
    let _ = bridge.wait();
    final_url_is(&outcome, &integrator, "/result/success");
    let widget = validate(&delivered_pdf(&integrator, &pad_tx), &app, &pad_shots);
    let images = widget["images"].as_array().expect("images");
    assert!(images.len() == 1 && images[0]["ink"].as_u64().expect("ink") > 200, "the pad's strokes: {widget}");
    integrator.received.lock().expect("lock").clear();
    integrator.received.lock().expect("lock").push(token_post);
    let pdf = delivered_pdf(&integrator, &tx);
    let path = shots.join("signed.pdf");
    std::fs::write(&path, &pdf).expect("write");
    let report = Command::new("pdfsig").arg(&path).output().expect("pdfsig (poppler-utils)");
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(report.contains("Signature is Valid."), "pdfsig:\n{report}");
    // The first certificate the page lists signs: one of the token's two signers.
    assert!(report.contains("Asha Verma") || report.contains("Ravi Kumar"), "the token holder signs:\n{report}");
    let ca = shots.join("token-ca.pem");
    std::fs::write(&ca, token.ca.cert_pem()).expect("ca");
    let output = Command::new("pyhanko")
        .args(["sign", "validate", "--trust"])
        .arg(&ca)
        .args(["--trust-replace", "--no-revocation-check"])
        .arg(&path)
        .output()
        .expect("pyhanko");
    let out = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success() && out.contains(":INTACT:TRUSTED,UNTOUCHED"), "pyhanko:\n{out}");
}

/// Signet connected to a running test ESP (the OTP is fixed), with Signet's ASP registered.
async fn esign_app(backend: Backend) -> (tempfile::TempDir, signet_test_esp::RunningEsp, TestApp) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut options = signet_test_esp::EspOptions::new(dir.path().join("esp"));
    options.fixed_otp = Some("424242".into());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let esp = signet_test_esp::spawn(options, listener).await.expect("test ESP");
    let (esp_cert, ca_cert) = (dir.path().join("esp.cer"), dir.path().join("ca.cer"));
    std::fs::write(&esp_cert, &esp.esp_certificate_der).expect("write");
    std::fs::write(&ca_cert, &esp.ca_certificate_der).expect("write");
    let esp_url = format!("{}/2.1/form/signdoc", esp.base_url);
    let app = signet_testkit::server::spawn_with(backend, |config| {
        config.esign_esp_url = Some(esp_url);
        config.esign_esp_certificate = Some(esp_cert);
        config.esign_ca_certificates = Some(ca_cert);
    })
    .await;
    signet_test_esp::register_asp(&dir.path().join("esp"), "SIGNET", &app.state.services.keys.asp.cert_der)
        .expect("register");
    (dir, esp, app)
}

/// Aadhaar eSign in the browser: the signer page, Signet's form to the test ESP, its Aadhaar
/// and OTP pages, the ESP's answer back to Signet and Signet's result to the integrator.
async fn aadhaar_esign(backend: Backend, java_script: bool) {
    let (_dir, _esp, app) = esign_app(backend).await;
    let integrator = integrator().await;
    let reference = if java_script { "ESIGN-JS" } else { "ESIGN-NOJS" };
    let tx =
        envelope(&app, &integrator, reference, Profile::Modern, |p| p.signature_types(&[SignatureType::ESign])).await;
    let shots = artifacts(&reference.to_lowercase(), backend);
    let outcome = drive(json!({"start": tx.start, "action": "esign", "javaScript": java_script,
        "aadhaar": "9999 4105 7058", "otp": "424242", "shots": shots, "doneUrlPrefix": integrator.base}));
    final_url_is(&outcome, &integrator, "/result/success");
    let pdf = delivered_pdf(&integrator, &tx);
    let path = shots.join("signed.pdf");
    std::fs::write(&path, &pdf).expect("write");
    let report = Command::new("pdfsig").arg(&path).output().expect("pdfsig (poppler-utils)");
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(report.contains("Signature is Valid."), "pdfsig:\n{report}");
    assert!(report.contains("Asha Verma"), "signed in the signer's own name:\n{report}");
}

/// DATA, Hash and XML with Aadhaar eSign in Chromium: the signer sees what they sign and the
/// result reaches SUrl (its contents are checked by the HTTP tests in esign.rs).
async fn aadhaar_esign_of_data_hash_and_xml_in_the_browser(backend: Backend) {
    let (_dir, _esp, app) = esign_app(backend).await;
    let integrator = integrator().await;
    let hash = signet_client::DocumentDetail {
        name: "Sanction letter".into(),
        url: "https://erp.example.test/sanction".into(),
        hash_hex: hex::encode(signet_sigcrypto::pki::sha256(b"Sanction letter")),
    };
    let cases = [
        ("ESIGN-DATA", PayloadBuilder::data(b"I accept loan 42.")),
        ("ESIGN-HASH", PayloadBuilder::hash(std::slice::from_ref(&hash))),
        ("ESIGN-XML", PayloadBuilder::xml(b"<Mandate xmlns=\"urn:x\"><Amount>10</Amount></Mandate>")),
    ];
    for (reference, builder) in cases {
        integrator.received.lock().expect("lock").clear();
        let base = builder.signature_types(&[SignatureType::ESign]);
        let tx = envelope_of(&app, &integrator, reference, Profile::Modern, base, Vec::new()).await;
        let shots = artifacts(&reference.to_lowercase(), backend);
        let outcome = drive(json!({"start": tx.start, "action": "esign", "aadhaar": "999941057058", "otp": "424242",
            "shots": shots, "doneUrlPrefix": integrator.base}));
        final_url_is(&outcome, &integrator, "/result/success");
        let (_, fields) = integrator.only_post();
        let result = open_result(&tx.session, tx.profile, &fields["Returnvalue"]).expect("Returnvalue");
        assert!(!result.is_empty(), "{reference}");
    }
}
