//! Verification for everyone (issue 15, item 8), on both backends: `POST /api/v1/verify` and the
//! public page `/verify` (in headless Chromium, with and without JavaScript) tell a document
//! sealed by Signet, one signed with a digital signature certificate, one altered after signing
//! (a byte of the signed revision, and a later revision that replaces the page's content), one
//! without signatures and a file that is none of PDF, XML or CMS apart, in words; nothing handed
//! in is kept. A QR code drawn on a document at its initiation (`qrCodeCordinats`), read back
//! from the rendered page with `zbarimg`, leads to the document's own verification page.

use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_client::{PageSelection, PayloadBuilder, Profile, SignaturePosition, SignatureType, open_result};
use signet_store::Backend;
use signet_testkit::gateway::erp_urls;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::one_page;
use signet_testkit::pki::TestPki;
use signet_testkit::problem::{expect_problem, posted_fields};
use signet_testkit::server::{TestApp, spawn_with};

use crate::support::{DRIVER_DIR, run_driver, target_dir};

on_both_backends!(
    the_api_explains_each_signature_and_finds_every_change,
    the_public_page_shows_the_verdicts_on_a_phone_with_and_without_javascript,
    a_qr_code_on_the_document_leads_to_its_verification_page,
    etsi_reports_for_anyone_and_sealed_for_an_organisation,
);

/// A loan agreement sealed by Signet for "Acme Bank" through the gateway (a typed signature).
async fn sealed_by_signet(app: &TestApp) -> Vec<u8> {
    let (who, _) = app.integrator("Acme Bank").await;
    let payload = PayloadBuilder::pdf(&one_page("Loan agreement"), "Asha Verma")
        .reference_number("VERIFY-1")
        .authtoken(&who.authtoken)
        .signature_types(&[SignatureType::ESignature])
        .urls(&erp_urls())
        .pages(&PageSelection::First)
        .position(SignaturePosition::BottomRight)
        .font_signature(true)
        .build()
        .expect("payload");
    let sealed = who.seal(Profile::Modern, &payload);
    let response = who.submit(&app.base(), &sealed).await;
    assert_eq!(response.status(), 303);
    let link = response.headers()["location"].to_str().expect("location").to_string();
    let signed = app
        .client
        .post(app.url(&format!("{link}/sign")))
        .form(&[("mode", "typed"), ("typedName", "Asha Verma"), ("consent", "on")])
        .send()
        .await
        .expect("sign")
        .text()
        .await
        .expect("html");
    let (_, fields) = posted_fields(&signed);
    open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue opens")
}

/// A contract signed by "Ravi Kumar" with a certificate of `pki` (a DSC, as from a token).
fn signed_with_certificate(pki: &TestPki) -> Vec<u8> {
    let issued = pki.signer("Ravi Kumar", Some("Kumar Traders"));
    let signer = signet_signing::LocalKeySigner::from_pkcs8(
        &issued.key_pkcs8_der,
        &issued.cert_der,
        vec![pki.ca.cert_der().to_vec()],
    )
    .expect("signer");
    signet_signing::sign_pdf(&one_page("Supply contract"), &signer, &signet_signing::PdfSignOptions::default())
        .expect("sign")
}

/// The signed PDF with a later revision that replaces the first page's content (a shadow
/// attack's "replace"), written by pypdf in incremental mode.
fn content_replaced(signed: &[u8]) -> Vec<u8> {
    pypdf_revision(
        signed,
        r#"
from pypdf.generic import DecodedStreamObject, NameObject
page = w.pages[0]
s = DecodedStreamObject()
s.set_data(b"BT /F1 24 Tf 72 700 Td (Pay 10,00,000 to Mallory) Tj ET")
page[NameObject("/Contents")] = w._add_object(s)
"#,
    )
}

/// The signed PDF with a later revision, written by pypdf in incremental mode, that adds a
/// FreeText comment whose box lies over the signed line at (72, 720).
fn commented_over_the_text(signed: &[u8]) -> Vec<u8> {
    pypdf_revision(
        signed,
        r#"
from pypdf.annotations import FreeText
w.add_annotation(page_number=0, annotation=FreeText(text="Loan cancelled", rect=(60, 710, 260, 740)))
"#,
    )
}

/// `signed` with one incremental revision made by pypdf: `change` edits the writer `w`.
fn pypdf_revision(signed: &[u8], change: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().expect("tempdir");
    let (input, output) = (dir.path().join("in.pdf"), dir.path().join("out.pdf"));
    std::fs::write(&input, signed).expect("write");
    let script = format!(
        "import sys\nfrom pypdf import PdfWriter\nw = PdfWriter(sys.argv[1], incremental=True)\n{change}\nw.write(sys.argv[2])\n"
    );
    let ran =
        Command::new("python3").args(["-c", &script]).arg(&input).arg(&output).output().expect("python3 with pypdf");
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    std::fs::read(&output).expect("read")
}

async fn verify(app: &TestApp, file: &[u8]) -> reqwest::Response {
    reqwest::Client::new()
        .post(app.url("/api/v1/verify"))
        .json(&json!({"fileData": STANDARD.encode(file)}))
        .send()
        .await
        .expect("verify")
}

async fn report(app: &TestApp, file: &[u8]) -> Value {
    let response = verify(app, file).await;
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn spawn_trusting(backend: Backend, pki: &TestPki, dir: &Path) -> TestApp {
    let anchors = dir.join("anchors.pem");
    std::fs::write(&anchors, pki.ca_pem()).expect("anchors");
    spawn_with(backend, |config| config.verification_trust_list = Some(anchors)).await
}

async fn the_api_explains_each_signature_and_finds_every_change(backend: Backend) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pki = TestPki::new("Verification Test DSC CA");
    let app = spawn_trusting(backend, &pki, dir.path()).await;

    // Sealed by Signet for a person: the organisation's seal, the person named.
    let sealed = sealed_by_signet(&app).await;
    let answer = report(&app, &sealed).await;
    assert_eq!((answer["fileKind"].clone(), answer["valid"].clone()), (json!("pdf"), json!(true)), "{answer}");
    let signature = &answer["signatures"][0];
    assert_eq!(signature["method"], "electronic", "{answer}");
    assert_eq!(signature["signer"], "Asha Verma", "{answer}");
    assert!(signature["signerSubject"].as_str().is_some_and(|s| s.contains("Acme Bank")), "{answer}");
    assert_eq!(signature["status"], "valid", "{answer}");
    assert!(signature["explanation"][0].as_str().is_some_and(|e| e.starts_with("Valid")), "{answer}");

    // A digital signature certificate of an authority the operator trusts, and of one it does not.
    let dsc = signed_with_certificate(&pki);
    let answer = report(&app, &dsc).await;
    let signature = &answer["signatures"][0];
    assert_eq!(
        (signature["method"].clone(), signature["signer"].clone(), signature["status"].clone()),
        (json!("digital_certificate"), json!("Ravi Kumar"), json!("valid")),
        "{answer}"
    );
    let stranger = signed_with_certificate(&TestPki::new("Unknown CA"));
    let answer = report(&app, &stranger).await;
    assert_eq!(answer["signatures"][0]["status"], "untrusted", "{answer}");
    assert_eq!(answer["valid"], false);

    // One byte of the signed revision changed; the page's content replaced in a later revision.
    let mut flipped = sealed.clone();
    let at = flipped.windows(14).position(|w| w == b"Loan agreement").unwrap_or(flipped.len() / 3);
    flipped[at] ^= 0x20;
    let answer = report(&app, &flipped).await;
    assert_eq!(answer["signatures"][0]["status"], "broken", "{answer}");
    let replaced = content_replaced(&sealed);
    let answer = report(&app, &replaced).await;
    let signature = &answer["signatures"][0];
    assert_eq!(signature["status"], "changed", "{answer}");
    assert!(signature["explanation"][0].as_str().is_some_and(|e| e.contains("changed after")), "{answer}");
    assert_eq!(answer["valid"], false);
    // A comment laid over the signed words: on Signet's seal (a P=2 certification) no comment
    // may be added at all; after an approval signature it is allowed, and named as hiding what
    // was signed (the signature holds, what the page shows does not).
    let answer = report(&app, &commented_over_the_text(&sealed)).await;
    assert_eq!(answer["signatures"][0]["status"], "changed", "{answer}");
    let answer = report(&app, &commented_over_the_text(&dsc)).await;
    let signature = &answer["signatures"][0];
    assert_eq!(signature["status"], "covered", "{answer}");
    let hidden = signature["hidesSignedContent"][0].as_str().unwrap_or_default();
    assert!(hidden.contains("on page 1") && hidden.contains("\"Supply contract\""), "{answer}");
    assert!(hidden.contains("drawing \"Loan cancelled\""), "{answer}");
    assert_eq!(answer["valid"], false);

    // No signature at all; and what is not a signed file.
    let answer = report(&app, &one_page("Unsigned")).await;
    assert_eq!((answer["valid"].clone(), answer["signatures"].clone()), (json!(false), json!([])), "{answer}");
    assert!(answer["summary"].as_str().is_some_and(|s| s.contains("no signature")), "{answer}");
    let refused = expect_problem(verify(&app, b"just some text").await, 400, "validation_failed").await;
    assert!(refused.to_string().contains("cannot be verified"), "{refused}");
    let refused = expect_problem(
        reqwest::Client::new()
            .post(app.url("/api/v1/verify"))
            .json(&json!({"fileData": "not base64!"}))
            .send()
            .await
            .expect("verify"),
        400,
        "validation_failed",
    )
    .await;
    assert!(refused["errors"]["fileData"].is_array(), "{refused}");

    // Nothing handed in is kept: no blob was written.
    let data = app.state.services.config.data_dir.clone();
    let kept = walk(&data)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pdf") && !p.starts_with(data.join("keys")));
    let pdfs: Vec<PathBuf> = kept.collect();
    assert!(pdfs.iter().all(|p| !std::fs::read(p).is_ok_and(|b| b == dsc)), "an upload was stored: {pdfs:?}");
}

async fn etsi_report(app: &TestApp, file: &[u8], format: &str) -> reqwest::Response {
    reqwest::Client::new()
        .post(app.url("/api/v1/verify/report"))
        .json(&json!({"fileData": STANDARD.encode(file), "format": format}))
        .send()
        .await
        .expect("report")
}

/// The ETSI TS 119 102-2 report (issue 32, item 4): XML that fits pyHanko's bindings of the
/// ETSI schema and JSON with the same content, for anyone; sealed by the caller's organisation
/// for its members, and the sealed report verifies (API and `signet_signing::verify_file`).
async fn etsi_reports_for_anyone_and_sealed_for_an_organisation(backend: Backend) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pki = TestPki::new("Report Test DSC CA");
    let app = spawn_trusting(backend, &pki, dir.path()).await;
    let dsc = signed_with_certificate(&pki);

    let response = etsi_report(&app, &dsc, "xml").await;
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"].to_str().is_ok_and(|t| t.starts_with("application/xml")));
    let xml = response.text().await.expect("xml");
    assert!(xml.contains("urn:etsi:019102:mainindication:total-passed"), "{xml}");
    assert!(xml.contains("<vr:Signer>Ravi Kumar</vr:Signer>"), "{xml}");
    let covered = etsi_report(&app, &commented_over_the_text(&dsc), "xml").await.text().await.expect("xml");
    assert!(covered.contains("urn:etsi:019102:subindication:SIG_CONSTRAINTS_FAILURE"), "{covered}");
    assert!(covered.contains("urn:signet:verification:hides-signed-content"), "{covered}");
    let as_json: Value = etsi_report(&app, &dsc, "json").await.json().await.expect("json");
    let status = &as_json["SignatureValidationReport"][0]["SignatureValidationStatus"];
    assert_eq!(status["MainIndication"], "urn:etsi:019102:mainindication:total-passed", "{as_json}");
    let refused = expect_problem(etsi_report(&app, &one_page("Unsigned"), "xml").await, 400, "validation_failed").await;
    assert!(refused["errors"]["fileData"].is_array(), "{refused}");

    let body = json!({"fileData": STANDARD.encode(&dsc)});
    let anonymous =
        reqwest::Client::new().post(app.url("/api/v1/verify/sealed-report")).json(&body).send().await.expect("sealed");
    assert_eq!(anonymous.status(), 401);
    let tenant = app.tenant("Acme Bank").await;
    let token = app.token(&tenant).await;
    let response = app.post("/api/v1/verify/sealed-report", &token, body).await;
    assert_eq!(response.status(), 200);
    let sealed = response.bytes().await.expect("sealed").to_vec();
    let ca = app.state.services.keys.ca.cert_der.clone();
    let checked = signet_signing::verify_file(&sealed, &[ca]).expect("the sealed report verifies");
    assert!(checked.valid, "{checked:#?}");
    assert_eq!(checked.signatures[0].kind, "xades");
    assert!(
        checked.signatures[0].signer_common_name.as_deref().is_some_and(|n| n.contains("Acme Bank")),
        "{checked:#?}"
    );
    let answer = report(&app, &sealed).await;
    assert_eq!(
        (answer["valid"].clone(), answer["signatures"][0]["method"].clone()),
        (json!(true), json!("electronic"))
    );

    // The page: anyone downloads the report; a member has it sealed in the console.
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(dsc.clone()).file_name("contract.pdf"))
        .text("report", "etsi");
    let page = reqwest::Client::new().post(app.url("/verify")).multipart(form).send().await.expect("page");
    assert_eq!(page.status(), 200);
    assert!(page.headers()["content-disposition"].to_str().is_ok_and(|d| d.starts_with("attachment")));
    let downloaded = page.text().await.expect("xml");
    assert!(downloaded.contains("urn:etsi:019102:mainindication:total-passed"), "{downloaded}");
    let browser = signet_testkit::console::console_session(&app, &tenant.admin_email, "correct horse battery").await;
    let console = browser.get(app.url("/app/verify")).await.text().await.expect("html");
    let csrf = signet_testkit::console::csrf_of(&console);
    let form = reqwest::multipart::Form::new()
        .text("csrf", csrf.clone())
        .part("file", reqwest::multipart::Part::bytes(dsc.clone()).file_name("contract.pdf"));
    let from_console = browser.send(browser.http.post(app.url("/app/verify")).multipart(form)).await;
    assert_eq!(from_console.status(), 200);
    let sealed_in_console = from_console.bytes().await.expect("sealed").to_vec();
    let ca = app.state.services.keys.ca.cert_der.clone();
    let checked = signet_signing::verify_file(&sealed_in_console, &[ca]).expect("the console's sealed report verifies");
    assert!(checked.valid && checked.signatures[0].kind == "xades", "{checked:#?}");
    let form = reqwest::multipart::Form::new()
        .text("csrf", csrf)
        .part("file", reqwest::multipart::Part::bytes(one_page("Unsigned")).file_name("unsigned.pdf"));
    let refused = browser.send(browser.http.post(app.url("/app/verify")).multipart(form)).await;
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("html").contains("no signatures"));

    let reports = dir.path().join("reports");
    std::fs::create_dir_all(&reports).expect("dir");
    std::fs::write(reports.join("plain.xml"), &xml).expect("write");
    std::fs::write(reports.join("covered.xml"), &covered).expect("write");
    std::fs::write(reports.join("sealed.xml"), &sealed).expect("write");
    // The seal, checked by xmlsec1 against Signet's CA.
    let ca_der = dir.path().join("signet-ca.der");
    std::fs::write(&ca_der, &app.state.services.keys.ca.cert_der).expect("ca");
    let xmlsec = Command::new("xmlsec1")
        .args(["--verify", "--trusted-der"])
        .arg(&ca_der)
        .args(["--id-attr:Id", "http://uri.etsi.org/01903/v1.3.2#:SignedProperties"])
        .arg(reports.join("sealed.xml"))
        .output()
        .expect("xmlsec1");
    assert!(xmlsec.status.success(), "xmlsec1: {}", String::from_utf8_lossy(&xmlsec.stderr));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../signing/tests/corpus/check_etsi_reports.py");
    let checked = Command::new("python3").arg(&script).arg(&reports).output().expect("python3 with pyHanko and xsdata");
    assert!(
        checked.status.success(),
        "{}{}",
        String::from_utf8_lossy(&checked.stdout),
        String::from_utf8_lossy(&checked.stderr)
    );
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Uploads `file` on the page in Chromium; the driver's outcome.
fn upload(app: &TestApp, file: &Path, java_script: bool, shots: &str) -> Value {
    assert!(Path::new(DRIVER_DIR).join("node_modules/playwright-core").is_dir(), "run npm ci in {DRIVER_DIR}");
    let dir = target_dir().join("browser-artifacts").join("verify").join(shots);
    let args = json!({"page": app.url("/verify"), "file": file, "javaScript": java_script, "shots": dir});
    run_driver("verify.mjs", &args, shots)
}

async fn the_public_page_shows_the_verdicts_on_a_phone_with_and_without_javascript(backend: Backend) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pki = TestPki::new("Verification Test DSC CA");
    let app = spawn_trusting(backend, &pki, dir.path()).await;
    let tag = format!("{backend:?}").to_lowercase();
    let sealed = sealed_by_signet(&app).await;
    let (good, bad) = (dir.path().join("agreement.pdf"), dir.path().join("agreement-changed.pdf"));
    std::fs::write(&good, &sealed).expect("write");
    std::fs::write(&bad, content_replaced(&sealed)).expect("write");

    for java_script in [true, false] {
        let outcome = upload(&app, &good, java_script, &format!("{tag}-valid-{java_script}"));
        assert_eq!(outcome["status"], 200, "{outcome}");
        let text = outcome["text"].as_str().unwrap_or_default();
        assert!(text.contains("1 signature(s), all valid"), "{outcome}");
        let signature = outcome["signatures"][0]["text"].as_str().unwrap_or_default();
        assert!(outcome["signatures"][0]["heading"].as_str().is_some_and(|h| h.ends_with("Valid")), "{outcome}");
        assert!(
            signature.contains("Asha Verma") && signature.contains("Electronic signature, sealed by Signet"),
            "{outcome}"
        );
    }
    let outcome = upload(&app, &bad, true, &format!("{tag}-changed"));
    assert!(
        outcome["signatures"][0]["heading"].as_str().is_some_and(|h| h.contains("changed after signing")),
        "{outcome}"
    );

    // In Hindi when the browser asks for it (issue 32): the page, its status labels and its
    // sentences, with the names and times as they are; `?lang=` chooses over the header.
    let hindi = post_page(&app, "/verify", "hi-IN,hi;q=0.9,en;q=0.8", &sealed).await;
    assert!(hindi.contains(r#"<html lang="hi">"#), "{hindi}");
    assert!(hindi.contains(r#"<span class="status">मान्य</span>"#), "{hindi}");
    assert!(hindi.contains("इस PDF पर कुल 1 हस्ताक्षर — सभी मान्य।"), "{hindi}");
    assert!(hindi.contains("मान्य: Asha Verma ने हस्ताक्षर किए हैं"), "{hindi}");
    assert!(hindi.contains("इलेक्ट्रॉनिक हस्ताक्षर, Signet द्वारा मुहरबंद"), "{hindi}");
    assert!(hindi.contains(r#"href="?lang=en""#) && hindi.contains(r#"href="/verify?lang=hi""#), "{hindi}");
    let changed = post_page(&app, "/verify", "hi", &content_replaced(&sealed)).await;
    assert!(changed.contains(r#"<span class="status">मान्य नहीं: हस्ताक्षर के बाद बदला गया</span>"#), "{changed}");
    let english = post_page(&app, "/verify?lang=en", "hi", &sealed).await;
    assert!(english.contains(r#"<html lang="en">"#) && english.contains("1 signature(s), all valid"), "{english}");
    assert!(english.contains(r#"<span class="status">Valid</span>"#), "{english}");
    let form =
        reqwest::Client::new().get(app.url("/verify?lang=hi")).send().await.expect("form").text().await.expect("html");
    assert!(form.contains(r#"<html lang="hi">"#) && form.contains(r#"action="/verify?lang=hi""#), "{form}");
    let nothing = reqwest::multipart::Form::new().text("report", "");
    let refused = reqwest::Client::new()
        .post(app.url("/verify"))
        .header("accept-language", "hi")
        .multipart(nothing)
        .send()
        .await
        .expect("page");
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("html").contains("जाँचने के लिए फ़ाइल चुनें।"));
}

/// The public page's answer to `pdf` posted from a browser that asks for `accept_language`.
async fn post_page(app: &TestApp, path: &str, accept_language: &str, pdf: &[u8]) -> String {
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(pdf.to_vec()).file_name("agreement.pdf"));
    let page = reqwest::Client::new()
        .post(app.url(path))
        .header("accept-language", accept_language)
        .multipart(form)
        .send()
        .await
        .expect("page");
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["vary"], "accept-language");
    page.text().await.expect("html")
}

/// The first page of `pdf` rendered (pdftoppm) and its QR codes read (zbarimg).
fn qr_codes_on_first_page(pdf: &[u8]) -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("doc.pdf");
    std::fs::write(&input, pdf).expect("write");
    let rendered = Command::new("pdftoppm")
        .args(["-r", "150", "-f", "1", "-l", "1", "-png"])
        .arg(&input)
        .arg(dir.path().join("page"))
        .status()
        .expect("pdftoppm (poppler-utils)");
    assert!(rendered.success());
    let page =
        walk(dir.path()).into_iter().find(|p| p.extension().is_some_and(|e| e == "png")).expect("a rendered page");
    let read = Command::new("zbarimg").args(["--quiet", "--raw"]).arg(&page).output().expect("zbarimg (zbar-tools)");
    String::from_utf8_lossy(&read.stdout).lines().map(str::to_string).filter(|l| !l.is_empty()).collect()
}

async fn download(app: &TestApp, token: &str, workflow_id: i64) -> Vec<u8> {
    let response = app.post("/api/v1/documents/download", token, json!({"workflowid": workflow_id})).await;
    assert_eq!(response.status(), 200);
    response.bytes().await.expect("bytes").to_vec()
}

async fn a_qr_code_on_the_document_leads_to_its_verification_page(backend: Backend) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pki = TestPki::new("Verification Test DSC CA");
    let app = spawn_trusting(backend, &pki, dir.path()).await;
    let tenant = app.tenant("Officer Bank").await;
    let token = app.token(&tenant).await;
    let png = {
        let path = dir.path().join("signature.png");
        let script = format!(
            "from PIL import Image, ImageDraw\nimg = Image.new('RGB', (300, 100), (255, 255, 255))\n\
             ImageDraw.Draw(img).line([(10, 80), (150, 20), (290, 70)], fill=(20, 30, 90), width=5)\nimg.save({:?})\n",
            path.display().to_string()
        );
        assert!(Command::new("python3").args(["-c", &script]).status().expect("python3 with Pillow").success());
        std::fs::read(path).expect("png")
    };
    let body = json!({
        "documentName": "Sanction letter.pdf",
        "fileData": STANDARD.encode(one_page("Sanction letter")),
        "qrCodeCordinats": [{"left": 420, "top": 36, "width": 130, "height": 130, "selectedPage": "ALL"}],
        "signatories": [
            {"emailId": "officer@bank.test", "name": "Loan Officer", "signatureImage": STANDARD.encode(&png),
             "coordinates": [{"controlType": 1, "left": 60, "top": 600, "width": 160, "height": 60, "pageNumber": "1"}]},
            {"emailId": "customer@home.test", "name": "Customer"}
        ]
    });
    let response = app.post("/api/v1/workflows/initiate-and-sign", &token, body).await;
    let status = response.status();
    let started: Value = response.json().await.expect("json");
    assert_eq!(status, 201, "{started}");
    let workflow_id = started["workflowId"].as_i64().expect("workflowId");

    // The code is drawn before the first signature, which stays valid; it decodes to the page.
    let signed = download(&app, &token, workflow_id).await;
    let report = signet_testkit::validators::pdfsig(&signed);
    assert_eq!(report.matches("Signature is Valid").count(), 1, "{report}");
    let codes = qr_codes_on_first_page(&signed);
    assert_eq!(codes.len(), 1, "one QR code on the page: {codes:?}");
    assert!(codes[0].starts_with(&app.url("/verify/d/")), "{codes:?}");
    let page = app.client.get(&codes[0]).send().await.expect("page");
    assert_eq!(page.status(), 200);
    let text = page.text().await.expect("text");
    assert!(text.contains("Sanction letter.pdf") && text.contains("1 signature(s), all valid"), "{text}");
    assert!(text.contains("Officer Bank") && text.contains("Electronic signature, sealed by Signet"), "{text}");
    assert!(
        text.contains(&signet_services::workflows::documents::sha256_hex(&signed)),
        "the kept version's fingerprint"
    );

    // The customer signs: the same code now shows both signatures.
    let link = started["signingUrls"][0]["url"].as_str().unwrap_or_else(|| panic!("a signing link in {started}"));
    let signed_again = reqwest::Client::new()
        .post(format!("{link}/sign"))
        .form(&[("mode", "typed"), ("typedName", "Customer"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    assert_eq!(signed_again.status(), 200);
    let text = app.client.get(&codes[0]).send().await.expect("page").text().await.expect("text");
    assert!(text.contains("2 signature(s), all valid"), "{text}");

    // In Hindi too.
    let hindi = app.client.get(&codes[0]).header("accept-language", "hi").send().await.expect("page");
    let hindi = hindi.text().await.expect("text");
    assert!(hindi.contains(r#"<html lang="hi">"#) && hindi.contains("कुल 2 हस्ताक्षर — सभी मान्य"), "{hindi}");

    // An address that opens nothing.
    let unknown = app.client.get(app.url("/verify/d/not-a-token")).send().await.expect("page");
    assert_eq!(unknown.status(), 404);
}
