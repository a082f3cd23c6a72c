//! Composing documents through `POST /api/v1/workflows/optimized` (docs/api.md, "Form filling
//! and merging"): a reportlab/pypdf form filled (every kind of field), flattened or not, signed
//! through the signer page and judged by pdfsig and pyHanko, its values read back with
//! pdftotext and seen on a page rendered by pdftoppm; documents merged (base64 and stored
//! ones) with their bookmarks and links, signed, with the signers' fields where asked; and the
//! refusals, each naming its place in the request.

use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::{form_pdf, one_page, outlined_pdf, png_image};
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn};
use signet_testkit::validators::{cert_pem, pdfsig, pyhanko_validates};

use crate::support::{json_of, link_of, sign_typed};

on_both_backends!(
    a_filled_form_is_signed_and_its_values_read_back,
    a_flattened_form_shows_its_values_on_the_rendered_page,
    merged_documents_are_signed_with_their_bookmarks_and_the_fields_asked_for,
    wrong_values_and_documents_are_refused_at_their_place,
);

/// A4 height in points: reportlab's y counts from the bottom, the renderer's from the top.
const PAGE_HEIGHT: f64 = 841.89;

fn every_kind_of_value() -> Value {
    json!([
        {"fieldName": "fullName", "fieldType": "text", "fieldValue": "Ravi Kumar"},
        {"fieldName": "address", "fieldValue": "12 MG Road\nPune 411001"},
        {"fieldName": "agree", "fieldType": "checkbox", "isChecked": "true"},
        {"fieldName": "plan", "fieldType": "radio", "fieldValue": "premium", "isSelected": "true"},
        {"fieldName": "city", "fieldType": "dropdown", "fieldValue": "Mumbai", "isSelected": "true"},
        {"fieldName": "langs", "fieldValue": "Marathi", "isSelected": "true"},
        {"fieldName": "photo", "fieldType": "image", "imageData": STANDARD.encode(png_image())}
    ])
}

/// Starts an `optimized` workflow, has every signer sign in order and returns the signed PDF
/// after checking it with pdfsig and pyHanko.
async fn start_sign_and_validate(app: &TestApp, token: &str, mut request: Value, signers: &[&str]) -> Vec<u8> {
    request["signatoryEmailIds"] = json!(signers);
    let started = json_of(app.post("/api/v1/workflows/optimized", token, request).await, 201).await;
    let workflow_id = started["workflowId"].as_i64().expect("id");
    for email in signers {
        sign_typed(&link_of(&started, email), email).await;
    }
    let response = app.post("/api/v1/documents/download", token, json!({"workflowid": workflow_id})).await;
    assert_eq!(response.status(), 200);
    let signed = response.bytes().await.expect("pdf").to_vec();
    let report = pdfsig(&signed);
    // pdfsig lists a signature once per widget (a field on two pages shows twice): every one
    // is valid, and there is one field per signer.
    let checked = report.matches("Signature Validation:").count();
    assert_eq!(report.matches("Signature is Valid").count(), checked, "{report}");
    let fields: std::collections::BTreeSet<&str> =
        report.lines().filter(|l| l.contains("Signature Field Name:")).map(str::trim).collect();
    assert_eq!(fields.len(), signers.len(), "{report}");
    pyhanko_validates(&signed, &[cert_pem(&app.state.services.keys.ca.cert_der).as_slice()]);
    signed
}

fn in_temp(pdf: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("in.pdf");
    std::fs::write(&path, pdf).expect("write");
    (dir, path)
}

/// The text of the document by poppler's pdftotext (not our own reader).
fn text_of(pdf: &[u8]) -> String {
    let (_dir, path) = in_temp(pdf);
    let output = Command::new("pdftotext").arg(&path).arg("-").output().expect("pdftotext (poppler-utils)");
    String::from_utf8_lossy(&output.stdout).to_string()
}

/// Python over pypdf, given the document's path; its output.
fn pypdf(pdf: &[u8], script: &str) -> String {
    let (_dir, path) = in_temp(pdf);
    let output = Command::new("python3").args(["-c", script]).arg(&path).output().expect("python3 with pypdf");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).to_string()
}

/// The fully qualified names of the form's fields with their values, as pypdf reads them.
fn field_values(pdf: &[u8]) -> String {
    pypdf(
        pdf,
        "import sys\nfrom pypdf import PdfReader\nfor k, v in (PdfReader(sys.argv[1]).get_fields() or {}).items():\n    print('%s=%s' % (k, v.get('/V')))",
    )
}

/// Fraction of dark pixels in a box of page `page` (points, from the top-left corner) of a
/// rendering by pdftoppm at 72 dpi in grey.
fn ink(pdf: &[u8], page: usize, left: f64, top: f64, width: f64, height: f64) -> f64 {
    let (dir, path) = in_temp(pdf);
    let n = page.to_string();
    let out = dir.path().join("page");
    let status = Command::new("pdftoppm")
        .args(["-gray", "-r", "72", "-f", &n, "-l", &n, "-singlefile"])
        .arg(&path)
        .arg(&out)
        .status()
        .expect("pdftoppm (poppler-utils)");
    assert!(status.success());
    let pgm = std::fs::read(dir.path().join("page.pgm")).expect("pgm");
    // Binary PGM: "P5", width, height, maximum, one whitespace byte, then the pixels.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while pgm[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !pgm[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&pgm[start..at]).to_string());
    }
    let pixels = &pgm[at + 1..];
    let (w, h): (usize, usize) = (fields[1].parse().expect("width"), fields[2].parse().expect("height"));
    let (x0, y0) = (left as usize, top as usize);
    let (x1, y1) = (((left + width) as usize).min(w), ((top + height) as usize).min(h));
    let mut dark = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            if pixels[y * w + x] < 128 {
                dark += 1;
            }
        }
    }
    dark as f64 / ((x1 - x0) * (y1 - y0)).max(1) as f64
}

async fn a_filled_form_is_signed_and_its_values_read_back(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Form Desk").await;
    let token = app.token(&tenant).await;
    let request = json!({"lstDocumentDetails": [{
        "documentName": "Application.pdf", "fileData": STANDARD.encode(form_pdf()),
        "controlDetails": every_kind_of_value()
    }]});
    let signed = start_sign_and_validate(&app, &token, request, &["applicant@home.test"]).await;
    let text = text_of(&signed);
    for value in ["Ravi Kumar", "12 MG Road", "Pune 411001", "Mumbai", "Marathi"] {
        assert!(text.contains(value), "{value} is shown:\n{text}");
    }
    let values = field_values(&signed);
    for value in ["fullName=Ravi Kumar", "agree=/Yes", "plan=/premium", "city=Mumbai", "langs=Marathi"] {
        assert!(values.lines().any(|l| l == value), "{value} in:\n{values}");
    }
    // The image field's appearance is the picture.
    assert!(ink(&signed, 1, 80.0, PAGE_HEIGHT - 392.0, 134.0, 84.0) > 0.2, "the image is drawn");
}

async fn a_flattened_form_shows_its_values_on_the_rendered_page(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Flat Desk").await;
    let token = app.token(&tenant).await;
    let request = json!({"templateList": [{
        "templateId": 0, "documentName": "Application.pdf", "fileData": STANDARD.encode(form_pdf()),
        "controlDetails": every_kind_of_value(), "flattenFields": true
    }]});
    let signed = start_sign_and_validate(&app, &token, request, &["applicant@home.test"]).await;
    let values = field_values(&signed);
    assert!(!values.contains("fullName"), "the form's fields are gone: {values}");
    assert!(text_of(&signed).contains("Ravi Kumar"));
    // fullName at 72,700-322,724: its glyphs are on the page now, not in a field.
    assert!(ink(&signed, 1, 74.0, PAGE_HEIGHT - 722.0, 120.0, 20.0) > 0.03, "the text is on the page");
    assert!(ink(&signed, 1, 80.0, PAGE_HEIGHT - 392.0, 134.0, 84.0) > 0.2, "the image is on the page");
}

/// Each bookmark as `title=page` (1-based) and each signature widget as `sig=page`, by pypdf.
fn bookmarks_and_signature_pages(pdf: &[u8]) -> String {
    pypdf(
        pdf,
        r#"
import sys
from pypdf import PdfReader
r = PdfReader(sys.argv[1])
def walk(items):
    for item in items:
        if isinstance(item, list):
            walk(item)
        else:
            print("%s=%d" % (item.title, r.get_destination_page_number(item) + 1))
walk(r.outline)
for i, page in enumerate(r.pages):
    for a in page.get("/Annots") or []:
        a = a.get_object()
        if a.get("/Subtype") == "/Link":
            d = a.get("/Dest")
            if d is None:
                d = a["/A"]["/D"]
            print("link %d->%d" % (i + 1, r.get_page_number(d.get_object()[0].get_object()) + 1))
        ft = a.get("/FT") or (a.get("/Parent") or {}).get("/FT")
        if ft == "/Sig":
            print("sig=%d" % (i + 1))
"#,
    )
}

async fn merged_documents_are_signed_with_their_bookmarks_and_the_fields_asked_for(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Merge Desk").await;
    let token = app.token(&tenant).await;
    let annex = json!({"documentName": "Annex.pdf", "fileData": STANDARD.encode(outlined_pdf("Annex", 3))});
    let annex_id =
        json_of(app.post("/api/v1/documents", &token, annex).await, 201).await["documentId"].as_i64().expect("id");
    let request = json!({"lstDocumentDetails": [{
        "documentName": "Agreement.pdf", "fileData": STANDARD.encode(outlined_pdf("Agreement", 2)),
        "mergeDocumentDetails": [
            {"documentName": "Annex A", "parentDocumentId": annex_id, "addSignaturePlaceholder": true},
            {"documentName": "Schedule", "fileData": STANDARD.encode(one_page("Payment schedule"))}
        ]
    }]});
    let signers = ["borrower@home.test", "lender@bank.test"];
    let signed = start_sign_and_validate(&app, &token, request, &signers).await;
    assert_eq!(signet_pdf::inspect(&signed).expect("opens").pages, 6);
    let text = text_of(&signed);
    let order: Vec<usize> = ["Agreement page 2", "Annex page 1", "Annex page 3", "Payment schedule"]
        .iter()
        .map(|t| text.find(t).unwrap_or_else(|| panic!("{t} missing:\n{text}")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "merged in order: {order:?}");
    let found = bookmarks_and_signature_pages(&signed);
    let lines: Vec<&str> = found.lines().collect();
    for expected in ["Agreement section 2=2", "Annex A=3", "Annex section 3=5", "Schedule=6", "link 1->2", "link 3->5"]
    {
        assert!(lines.contains(&expected), "{expected} in:\n{found}");
    }
    // Each signer's field: on the agreement's last page and on the annex's (it asked for a
    // placeholder), not on the schedule.
    let mut sig_pages: Vec<&str> = lines.iter().filter(|l| l.starts_with("sig=")).copied().collect();
    sig_pages.sort_unstable();
    assert_eq!(sig_pages, ["sig=2", "sig=2", "sig=5", "sig=5"], "{found}");

    // A template's document with mergeDocuments appended.
    let request = json!({"templateList": [{
        "templateId": 0, "documentName": "Offer.pdf", "fileData": STANDARD.encode(one_page("Offer letter")),
        "mergeDocuments": [{"documentName": "Terms", "fileData": STANDARD.encode(outlined_pdf("Terms", 2))}]
    }]});
    let signed = start_sign_and_validate(&app, &token, request, &["candidate@home.test"]).await;
    assert_eq!(signet_pdf::inspect(&signed).expect("opens").pages, 3);
    let found = bookmarks_and_signature_pages(&signed);
    assert!(found.lines().any(|l| l == "Terms=2") && found.lines().any(|l| l == "sig=1"), "{found}");
}

async fn refused_at(app: &TestApp, token: &str, request: Value, field: &str) -> String {
    let mut request = request;
    request["signatoryEmailIds"] = json!(["someone@home.test"]);
    let problem =
        expect_problem(app.post("/api/v1/workflows/optimized", token, request).await, 400, "validation_failed").await;
    assert!(problem["errors"][field].is_array(), "{field} named in {problem}");
    problem["errors"][field].to_string()
}

fn with_controls(controls: Value) -> Value {
    json!({"lstDocumentDetails": [{"documentName": "Form.pdf", "fileData": STANDARD.encode(form_pdf()), "controlDetails": controls}]})
}

async fn wrong_values_and_documents_are_refused_at_their_place(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Strict Desk").await;
    let token = app.token(&tenant).await;
    let field = "lstDocumentDetails[0].controlDetails";
    let unknown = json!([{"fieldName": "fullName", "fieldValue": "x"}, {"fieldName": "nickname", "fieldValue": "y"}]);
    let message = refused_at(&app, &token, with_controls(unknown), &format!("{field}[1].fieldName")).await;
    assert!(message.contains("no field"), "{message}");
    let checked_text = json!([{"fieldName": "fullName", "isChecked": "true"}]);
    refused_at(&app, &token, with_controls(checked_text), &format!("{field}[0].isChecked")).await;
    let no_option = json!([{"fieldName": "city", "fieldValue": "Chennai"}]);
    let message = refused_at(&app, &token, with_controls(no_option), &format!("{field}[0].fieldValue")).await;
    assert!(message.contains("Mumbai"), "the options are listed: {message}");
    let gif = json!([{"fieldName": "photo", "imageData": STANDARD.encode(b"GIF89a....")}]);
    refused_at(&app, &token, with_controls(gif), &format!("{field}[0].imageData")).await;
    let wrong_type = json!([{"fieldName": "agree", "fieldType": "text", "fieldValue": "yes"}]);
    refused_at(&app, &token, with_controls(wrong_type), &format!("{field}[0].fieldType")).await;
    let not_a_flag = json!([{"fieldName": "agree", "isChecked": "perhaps"}]);
    refused_at(&app, &token, with_controls(not_a_flag), &format!("{field}[0].isChecked")).await;

    // Another tenant's stored document is no document of this one; a template must exist.
    let other = app.tenant("Other Desk").await;
    let other_token = app.token(&other).await;
    let theirs = json!({"documentName": "Theirs.pdf", "fileData": STANDARD.encode(one_page("Theirs"))});
    let their_id = json_of(app.post("/api/v1/documents", &other_token, theirs).await, 201).await["documentId"]
        .as_i64()
        .expect("id");
    let request = json!({"lstDocumentDetails": [{"fileData": STANDARD.encode(one_page("Mine")),
        "mergeDocumentDetails": [{"parentDocumentId": their_id}]}]});
    refused_at(&app, &token, request, "lstDocumentDetails[0].mergeDocumentDetails[0].parentDocumentId").await;
    let request = json!({"templateList": [{"templateId": 999_999, "fileData": STANDARD.encode(one_page("Mine"))}]});
    refused_at(&app, &token, request, "templateList[0].templateId").await;
    let request = json!({"lstDocumentDetails": [{"fileData": STANDARD.encode(one_page("Mine")),
        "mergeDocumentDetails": [{"fileData": STANDARD.encode(b"not a pdf")}]}]});
    refused_at(&app, &token, request, "lstDocumentDetails[0].mergeDocumentDetails[0].fileData").await;

    // A signed document is neither filled nor merged: sign one first, then offer it.
    let request =
        json!({"lstDocumentDetails": [{"documentName": "Once.pdf", "fileData": STANDARD.encode(one_page("Once"))}]});
    let signed = start_sign_and_validate(&app, &token, request, &["first@home.test"]).await;
    let request = json!({"lstDocumentDetails": [{"fileData": STANDARD.encode(one_page("Mine")),
        "mergeDocumentDetails": [{"fileData": STANDARD.encode(&signed)}]}]});
    refused_at(&app, &token, request, "lstDocumentDetails[0].mergeDocumentDetails[0].fileData").await;
    let request = json!({"lstDocumentDetails": [{"fileData": STANDARD.encode(&signed),
        "controlDetails": [{"fieldName": "x", "fieldValue": "y"}]}]});
    refused_at(&app, &token, request, "lstDocumentDetails[0].fileData").await;
}
