//! The evidence pack of a completed workflow end to end: signed through the signer page, then
//! `GET /api/v1/workflows/{id}/evidence` unpacked by Python's zipfile (an outside reader that
//! checks every CRC), every file's SHA-256 against the manifest, the signed documents, the
//! completion certificate and the section 63 certificate validated by pyHanko (the last read
//! by pdftotext for its hash values and blank fields), the event chain leading to its anchor,
//! and the pack checked whole as `signet evidence verify` checks it; 409 before completion,
//! 404 for another tenant.

use std::collections::BTreeMap;
use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_services::workflows::evidence::check::check_pack;
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::{Page, reportlab_pdf};
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn};
use signet_testkit::validators::{cert_pem, pyhanko_validates};

use signet_testkit::console::console_session;

use crate::support::{ADMIN_PASSWORD, link_of, sign_typed};

on_both_backends!(a_completed_workflow_has_an_evidence_pack_that_proves_itself);

async fn started(app: &TestApp, token: &str, name: &str, signers: &[&str]) -> Value {
    let pdf = reportlab_pdf(&[Page::text(&format!("{name}: terms")).line(200, "Signatures:")]);
    let body = json!({"documentName": format!("{name}.pdf"), "fileData": STANDARD.encode(pdf)});
    let document: Value = app.post("/api/v1/documents", token, body).await.json().await.expect("document");
    let signatories: Vec<Value> = signers
        .iter()
        .map(|email| json!({"subscriberId": 0, "emailId": email, "name": email, "signingOrder": 1}))
        .collect();
    let body = json!({"templateId": 0, "workflowName": name, "documentIds": [document["documentId"]], "signatories": signatories});
    let response = app.post("/api/v1/workflows", token, body).await;
    assert_eq!(response.status(), 201);
    response.json().await.expect("workflow")
}

/// The pack once the completion job has run (it finishes the workflow after the last signature).
async fn pack_when_completed(app: &TestApp, token: &str, workflow_id: i64) -> reqwest::Response {
    for _ in 0..200 {
        let response = app.get(&format!("/api/v1/workflows/{workflow_id}/evidence"), token).await;
        if response.status() != 409 {
            return response;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the workflow did not complete");
}

/// Every entry of the ZIP as Python's zipfile reads it (`testzip` checks each CRC first).
fn unzip_with_python(zip: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("pack.zip");
    std::fs::write(&path, zip).expect("write");
    let out = dir.path().join("out");
    let script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nz.extractall(sys.argv[2])\n\
                  print('\\n'.join(z.namelist()))";
    let run = Command::new("python3").arg("-c").arg(script).arg(&path).arg(&out).output().expect("python3");
    assert!(run.status.success(), "zipfile: {}", String::from_utf8_lossy(&run.stderr));
    String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|name| (name.to_string(), std::fs::read(out.join(name)).expect("extracted")))
        .collect()
}

fn pdf_text(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("section63.pdf");
    std::fs::write(&path, pdf).expect("write");
    let out = Command::new("pdftotext").args(["-layout"]).arg(&path).arg("-").output().expect("pdftotext");
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, bytes).as_ref())
}

async fn a_completed_workflow_has_an_evidence_pack_that_proves_itself(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Evidence").await;
    let token = app.token(&tenant).await;
    let workflow = started(&app, &token, "Lease deed", &["lessor@x.test", "lessee@x.test"]).await;
    let id = workflow["workflowId"].as_i64().expect("workflowId");
    let path = format!("/api/v1/workflows/{id}/evidence");

    sign_typed(&link_of(&workflow, "lessor@x.test"), "Lessor").await;
    expect_problem(app.get(&path, &token).await, 409, "state_conflict").await;
    sign_typed(&link_of(&workflow, "lessee@x.test"), "Lessee").await;
    let response = pack_when_completed(&app, &token, id).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/zip");
    let disposition = response.headers()["content-disposition"].to_str().expect("header").to_string();
    assert!(disposition.contains(&format!("workflow-{id}-evidence.zip")), "{disposition}");
    let zip = response.bytes().await.expect("zip").to_vec();

    let files = unzip_with_python(&zip);
    let names: Vec<&str> = files.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "audit/anchor.json",
            "audit/events.json",
            "audit/tenant-anchor.json",
            "completion-certificate.pdf",
            "documents/1-Lease_deed.pdf",
            "manifest.json",
            "manifest.json.p7s",
            "section-63-certificate.pdf",
            "validation/1-Lease_deed.xml"
        ]
    );
    let manifest: Value = serde_json::from_slice(&files["manifest.json"]).expect("manifest");
    assert_eq!(manifest["workflowId"], id);
    assert_eq!(manifest["tenantId"], tenant.tenant_id.get());
    let listed = manifest["files"].as_array().expect("files");
    assert_eq!(listed.len(), files.len() - 2, "every file but the manifest and its seal is listed");
    for file in listed {
        let bytes = &files[file["name"].as_str().expect("name")];
        assert_eq!(file["size"], bytes.len(), "{file}");
        assert_eq!(file["sha256"], sha256_hex(bytes), "{file}");
    }

    // The signed document is the one the download gives, and both PDFs validate in pyHanko.
    let download = app.post("/api/v1/documents/download", &token, json!({"workflowid": id})).await;
    let signed = &files["documents/1-Lease_deed.pdf"];
    assert_eq!(download.bytes().await.expect("pdf").as_ref(), signed.as_slice());
    let platform_ca = cert_pem(&app.state.services.keys.ca.cert_der);
    let report = pyhanko_validates(signed, &[&platform_ca]);
    assert_eq!(report.matches("The signature is cryptographically sound").count(), 2, "{report}");
    pyhanko_validates(&files["completion-certificate.pdf"], &[&platform_ca]);
    // The section 63 certificate: sealed, stating every other file's hash, its signatory's
    // fields left blank.
    let section63 = &files["section-63-certificate.pdf"];
    pyhanko_validates(section63, &[&platform_ca]);
    let text = pdf_text(section63);
    assert!(text.contains("Sakshya Adhiniyam, 2023") && text.contains("Part A"), "{text}");
    for file in listed.iter().filter(|f| f["name"] != "section-63-certificate.pdf") {
        assert!(text.contains(file["sha256"].as_str().expect("sha256")), "{file} in {text}");
    }
    assert!(text.contains("Designation") && text.contains("_____"), "{text}");
    // The manifest's seal, checked by OpenSSL: a detached CMS over exactly the manifest's bytes
    // by the organisation's sealing certificate, which chains to the platform's CA.
    openssl_verifies_detached(&files["manifest.json.p7s"], &files["manifest.json"], &platform_ca);
    let xml = String::from_utf8_lossy(&files["validation/1-Lease_deed.xml"]).to_string();
    assert!(xml.contains("urn:etsi:019102:mainindication:total-passed"), "{xml}");
    assert!(xml.contains("ds:Signature"), "sealed: {xml}");

    let events: Value = serde_json::from_slice(&files["audit/events.json"]).expect("events");
    let anchor: Value = serde_json::from_slice(&files["audit/anchor.json"]).expect("anchor");
    let events = events["events"].as_array().expect("events");
    assert!(events.iter().filter(|e| e["action"] == "signatory.signed").count() == 2, "{events:?}");
    let last = events.last().expect("an event");
    assert_eq!((&last["seq"], &last["hash"]), (&anchor["seq"], &anchor["head"]));
    // The head is recorded in the organisation's own audit chain, entry for entry as the
    // installation holds it.
    let tenant_anchor: Value = serde_json::from_slice(&files["audit/tenant-anchor.json"]).expect("tenant anchor");
    let seq = tenant_anchor["entry"]["seq"].as_i64().expect("seq");
    let held = app.store.audit_entries(tenant.tenant_id, seq - 1, 1).await.expect("audit");
    assert_eq!(serde_json::to_value(&held[0]).expect("json"), tenant_anchor["entry"]);
    assert_eq!(held[0].action, "workflow.events_anchored");
    let recorded: Value = serde_json::from_str(&held[0].detail).expect("detail");
    assert_eq!((&recorded["seq"], &recorded["head"]), (&anchor["seq"], &anchor["head"]));

    // The whole pack as `signet evidence verify` checks it, trusting the platform's CA.
    let checks = check_pack(&zip, std::slice::from_ref(&app.state.services.keys.ca.cert_der));
    assert!(checks.iter().all(|c| c.passed), "{checks:#?}");
    assert!(checks.iter().any(|c| c.file == "audit/events.json" && c.what.contains("anchored head")), "{checks:#?}");
    assert!(checks.iter().any(|c| c.file == "audit/tenant-anchor.json" && c.passed), "{checks:#?}");

    // The console's button on the workflow's page gives the same pack (made anew: only its
    // creation time and the seals' times may differ, so it is checked whole, not compared).
    let console = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = console.get(app.url(&format!("/app/workflows/{id}"))).await.text().await.expect("html");
    let button = page.split("<a href=\"").find(|r| r.contains("id=\"evidence\"")).expect("the evidence button");
    let link = button.split('"').next().expect("href").to_string();
    let downloaded = console.get(app.url(&link)).await;
    assert_eq!(downloaded.status(), 200, "{link}");
    assert_eq!(downloaded.headers()["content-type"], "application/zip");
    let again = downloaded.bytes().await.expect("zip").to_vec();
    let checks = check_pack(&again, std::slice::from_ref(&app.state.services.keys.ca.cert_der));
    assert!(checks.iter().all(|c| c.passed), "{checks:#?}");

    // Another tenant's administrator: not found, as for a workflow that does not exist.
    let other = app.tenant("Elsewhere").await;
    let other_token = app.token(&other).await;
    expect_problem(app.get(&path, &other_token).await, 404, "not_found").await;
    expect_problem(app.get("/api/v1/workflows/999999/evidence", &token).await, 404, "not_found").await;
}

/// `openssl cms -verify` of a detached DER signature over `content`, trusting `ca_pem`; and a
/// changed byte of the content fails it.
fn openssl_verifies_detached(signature: &[u8], content: &[u8], ca_pem: &[u8]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = |name: &str| dir.path().join(name).display().to_string();
    std::fs::write(path("seal.p7s"), signature).expect("write");
    std::fs::write(path("ca.pem"), ca_pem).expect("write");
    let verify = |content: &[u8]| {
        std::fs::write(path("content"), content).expect("write");
        Command::new("openssl")
            .args(["cms", "-verify", "-binary", "-inform", "DER", "-purpose", "any"])
            .args(["-in", &path("seal.p7s"), "-content", &path("content"), "-CAfile", &path("ca.pem")])
            .args(["-out", &path("out")])
            .output()
            .expect("openssl")
    };
    let good = verify(content);
    assert!(good.status.success(), "openssl cms -verify: {}", String::from_utf8_lossy(&good.stderr));
    let mut changed = content.to_vec();
    changed[0] ^= 0x01;
    assert!(!verify(&changed).status.success(), "a changed manifest must fail openssl cms -verify");
}
