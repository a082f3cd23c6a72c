//! Digital e-stamping through the stamp provider (docs/estamp-provider.md), against the
//! provider simulator (`signet estamp-sim`) on a real port: a loan agreement stamped by the
//! provider and signed by its two participants at their own boxes (pdfsig and pyHanko judge
//! the signatures, pdftotext finds the certificate page first); a retried request that does not
//! pay twice; fetching by reference; every rule of the loan record refused with the field named;
//! the provider's own refusals, failures and an unconfigured server, each storing nothing.

use std::process::Command;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_estamp_sim::{RunningSim, SimOptions};
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::{Page, reportlab_pdf};
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn, spawn_with};
use signet_testkit::validators::{cert_pem, pdfsig, pyhanko_validates};

use crate::support::{json_of, link_of, sign_typed};

on_both_backends!(
    a_loan_agreement_stamped_by_the_provider_is_signed_by_its_participants,
    retries_take_the_same_certificates_and_fetching_by_reference_works,
    the_loan_record_is_refused_field_by_field_and_nothing_is_stored,
    provider_refusals_and_failures_store_nothing,
    a_workflow_of_an_upload_takes_the_certificates_the_provider_issued_under_its_reference,
    another_tenants_e_stamp_references_read_as_unknown_and_certificate_numbers_are_one_tenants,
);

const KEY: &str = "sim-key-1";

async fn simulator(options: SimOptions) -> RunningSim {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    signet_estamp_sim::spawn(options, listener).await.expect("simulator")
}

async fn app_with(backend: Backend, sim: &RunningSim) -> TestApp {
    let url = format!("{}/v1", sim.base_url);
    spawn_with(backend, move |config| {
        config.estamp_provider_url = Some(url);
        config.estamp_provider_key = Some(KEY.into());
        config.estamp_provider_timeout_secs = 5;
        config.outbound_allow_private = true;
    })
    .await
}

fn agreement() -> Vec<u8> {
    reportlab_pdf(&[
        Page::text("Loan agreement page 1").line(200, "Terms of the loan"),
        Page::text("Loan agreement page 2").line(200, "Borrower and lender sign here:"),
    ])
}

/// A loan record for Rs 500 of Maharashtra duty, the borrower (seqno 1) and the lender's
/// officer (seqno 2) signing on the agreement's second page.
fn loan(txn: &str) -> Value {
    json!({
        "txnID": txn, "loanno": format!("LN-{txn}"), "snctnno": "SN-1", "state": "MH", "signFlag": "Y",
        "estampdtls": [{"firstparty": "Asha Verma", "secondparty": "Acme Finance Ltd", "stampDutyAmount": "500",
                        "considerationPrice": "250000.00", "descriptionofDocument": "Loan agreement",
                        "stampdutyPaidby": "Asha Verma", "articleCode": "5(h)(B)", "firstPartyPin": 400001}],
        "prtcptentty": [
            {"prtcptenttyId": "11", "fulnm": "Ravi Kumar", "emlid": "ravi@lender.test", "seqno": 2, "panno": "AACCA1234B",
             "partytyp": "Non-Individual"},
            {"prtcptenttyId": "10", "fulnm": "Asha Verma", "emlid": "asha@home.test", "seqno": 1, "panno": "ABCPV1234F",
             "cntrprtycntmobno": "9876543210", "doi": "15-08-1990"}
        ],
        "loandtls": {"loanno": format!("LN-{txn}"), "snctnno": "SN-1", "dtofsnctn": "2026-11-01", "snctnamt": "250000",
                     "rtofint": "10.75", "tenure": "36", "emiamt": "8066.50", "currofsanc": "INR"},
        "eSignCordinates": [{"prtcptenttyId": 10, "documentID": 1, "coordinates": ["2,60,600,160,60"]},
                            {"prtcptenttyId": 11, "documentID": 1, "coordinates": ["2,320,600,160,60"]}],
        "scrtydtls": [{"loanno": format!("LN-{txn}"), "dtofcrtn": "2026-11-01", "dtofvltn": "2026-11-02", "vlofscrty": "300000"}],
        "entty_dtls": {"entty_pan": "AACCA1234B", "entty_name": "Acme Finance Ltd", "reg_pin": "400001"}
    })
}

fn request(pdf: &[u8], loan: Value) -> Value {
    json!({"documentName": "Loan agreement.pdf", "fileData": STANDARD.encode(pdf), "eStampType": "digital",
           "eStampPayload": {"loan": loan}})
}

/// The text of page `page` by poppler's pdftotext.
fn page_text(pdf: &[u8], page: usize) -> String {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("in.pdf");
    std::fs::write(&path, pdf).expect("write");
    let n = page.to_string();
    let output = Command::new("pdftotext")
        .args(["-f", &n, "-l", &n, "-layout"])
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils)");
    String::from_utf8_lossy(&output.stdout).to_string()
}

async fn stamps_of(app: &TestApp, token: &str) -> Vec<Value> {
    let page = json_of(app.get("/api/v1/stamps?pageSize=100", token).await, 200).await;
    page["items"].as_array().expect("items").clone()
}

async fn workflow_count(app: &TestApp, token: &str) -> i64 {
    json_of(app.get("/api/v1/workflows", token).await, 200).await["totalCount"].as_i64().expect("count")
}

async fn a_loan_agreement_stamped_by_the_provider_is_signed_by_its_participants(backend: Backend) {
    let sim = simulator(SimOptions { api_key: Some(KEY.into()), ..SimOptions::default() }).await;
    let app = app_with(backend, &sim).await;
    let tenant = app.tenant("Digital Lender").await;
    let token = app.token(&tenant).await;
    let pdf = agreement();
    let started =
        json_of(app.post("/api/v1/workflows/initiate-and-sign", &token, request(&pdf, loan("T-100"))).await, 201).await;
    let workflow_id = started["workflowId"].as_i64().expect("id");
    // The participants sign, in seqno order: the borrower first.
    let links = started["signingUrls"].as_array().expect("links");
    assert_eq!(links.len(), 2, "{started}");
    sign_typed(&link_of(&started, "asha@home.test"), "Asha Verma").await;
    sign_typed(&link_of(&started, "ravi@lender.test"), "Ravi Kumar").await;
    let response = app.post("/api/v1/documents/download", &token, json!({"workflowid": workflow_id})).await;
    assert_eq!(response.status(), 200);
    let signed = response.bytes().await.expect("pdf").to_vec();
    let report = pdfsig(&signed);
    assert_eq!(report.matches("Signature is Valid").count(), 2, "{report}");
    assert!(!report.contains("Signature is Invalid"), "{report}");
    pyhanko_validates(&signed, &[cert_pem(&app.state.services.keys.ca.cert_der).as_slice()]);

    // The provider's certificate page comes first, then the agreement.
    let stamps = stamps_of(&app, &token).await;
    assert_eq!(stamps.len(), 1, "{stamps:?}");
    let number = stamps[0]["referenceNo"].as_str().expect("number").to_string();
    assert!(number.starts_with("IN-MH"), "{number}");
    assert_eq!(stamps[0]["source"], "provider");
    assert_eq!(stamps[0]["status"], "allocated");
    assert_eq!(stamps[0]["workflowId"], workflow_id);
    assert_eq!(stamps[0]["denomination"], 500);
    assert_eq!(signet_pdf::inspect(&signed).expect("opens").pages, 3);
    let first = page_text(&signed, 1);
    assert!(first.contains(&number) && first.contains("Asha Verma") && first.contains("500"), "{first}");
    assert!(page_text(&signed, 2).contains("Loan agreement page 1"));
    // Each participant's signature sits at their own box on the agreement's second page
    // (page 3 now): the borrower's left, the officer's right.
    let signatures = signet_pdf::signatures(&signed).expect("signatures");
    assert_eq!(signatures.len(), 2);
    let fields = pyhanko_fields(&signed);
    assert!(fields.contains("page=2 left=60") && fields.contains("page=2 left=320"), "{fields}");
    // The provider's certificates are not stock.
    let stock = json_of(app.get("/api/v1/stamps/stock?state=MH", &token).await, 200).await;
    assert_eq!(stock["items"], json!([]), "{stock}");
    let trail = json_of(app.get(&format!("/api/v1/workflows/{workflow_id}/audit"), &token).await, 200).await;
    assert!(trail.to_string().contains("stamps.allocated") && trail.to_string().contains(&number), "{trail}");
}

/// Each signature widget's page (from 0) and rectangle, as pyHanko's reader finds them.
fn pyhanko_fields(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("signed.pdf");
    std::fs::write(&path, pdf).expect("write");
    let script = r#"
import sys
from pyhanko.pdf_utils.reader import PdfFileReader
r = PdfFileReader(open(sys.argv[1], 'rb'))
def pages(node, depth=0):
    node = node.get_object()
    if node.get('/Type') == '/Pages' and depth < 20:
        for kid in node['/Kids']:
            yield from pages(kid, depth + 1)
    else:
        yield node
def is_signature(a):
    return a.get('/FT') == '/Sig' or ('/Parent' in a and a['/Parent'].get_object().get('/FT') == '/Sig')
for i, page in enumerate(pages(r.root['/Pages'])):
    for a in page.get('/Annots', []):
        a = a.get_object()
        if is_signature(a):
            print('page=%d left=%d' % (i, round(float(a['/Rect'][0]))))
"#;
    let output = Command::new("python3").arg("-c").arg(script).arg(&path).output().expect("python3");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).to_string()
}

async fn retries_take_the_same_certificates_and_fetching_by_reference_works(backend: Backend) {
    let sim = simulator(SimOptions { api_key: Some(KEY.into()), ..SimOptions::default() }).await;
    let app = app_with(backend, &sim).await;
    let tenant = app.tenant("Retrying Lender").await;
    let token = app.token(&tenant).await;
    let pdf = agreement();
    // A first attempt that fails after the provider issued (its QR code names a page the
    // agreement does not have): the certificate is recorded and given up, and the same
    // request again takes the same certificate back rather than paying twice.
    let mut failing = request(&pdf, loan("T-200"));
    failing["qrCodeCordinats"] = json!([{"left": 10, "top": 10, "width": 60, "height": 60, "pageNumber": "9"}]);
    let response = app.post("/api/v1/workflows/initiate-and-sign", &token, failing).await;
    assert!(response.status().is_client_error(), "{}", response.text().await.unwrap_or_default());
    assert_eq!(workflow_count(&app, &token).await, 0);
    let given_up = stamps_of(&app, &token).await;
    assert!(given_up.len() == 1 && given_up[0]["status"] == "retired", "{given_up:?}");
    let started =
        json_of(app.post("/api/v1/workflows/initiate-and-sign", &token, request(&pdf, loan("T-200"))).await, 201).await;
    let stamps = stamps_of(&app, &token).await;
    assert!(stamps.len() == 1 && stamps[0]["status"] == "allocated", "{stamps:?}");
    assert_eq!(stamps[0]["referenceNo"], given_up[0]["referenceNo"]);
    let first_number = stamps_of(&app, &token).await[0]["referenceNo"].as_str().expect("number").to_string();
    // The same request again: the provider answers the same certificate (the idempotency key
    // is the tenant and the record's txnID), which is already on a workflow: refused.
    let again = expect_problem(
        app.post("/api/v1/workflows/initiate-and-sign", &token, request(&pdf, loan("T-200"))).await,
        409,
        "conflict",
    )
    .await;
    assert!(again["detail"].as_str().expect("detail").contains(&first_number), "{again}");
    assert_eq!(workflow_count(&app, &token).await, 1);
    assert_eq!(stamps_of(&app, &token).await.len(), 1, "nothing was paid twice");

    // Cancelled before anyone signed: a provider's certificate is retired, not made stock.
    let workflow_id = started["workflowId"].as_i64().expect("id");
    let cancelled = app
        .post(&format!("/api/v1/workflows/{workflow_id}/inactive"), &token, json!({"workflowid": workflow_id}))
        .await;
    assert!(cancelled.status().is_success(), "{}", cancelled.text().await.unwrap_or_default());
    let stamps = stamps_of(&app, &token).await;
    assert_eq!(stamps[0]["status"], "retired", "{stamps:?}");

    // Certificates issued earlier (ordered through Signet for this tenant, not used) are
    // fetched by reference; the participants of the record still sign at their boxes.
    let (reference, number) = ordered_and_not_used(&app, &token, "T-300").await;
    let mut fetch = request(&pdf, loan("T-300"));
    fetch["fetchEstampDeatilsUsingRefNo"] = json!(true);
    fetch["referenceNo"] = json!(reference);
    let started = json_of(app.post("/api/v1/workflows/initiate-and-sign", &token, fetch.clone()).await, 201).await;
    assert_eq!(started["signingUrls"].as_array().expect("links").len(), 2);
    let numbers: Vec<String> = stamps_of(&app, &token)
        .await
        .iter()
        .map(|s| s["referenceNo"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(numbers.contains(&number), "{numbers:?}");
    // An unknown reference names the field.
    fetch["referenceNo"] = json!("ESTMP-99999999");
    let problem =
        expect_problem(app.post("/api/v1/workflows/initiate-and-sign", &token, fetch).await, 400, "validation_failed")
            .await;
    assert!(problem["errors"]["referenceNo"].is_array(), "{problem}");
    assert_eq!(workflow_count(&app, &token).await, 2);
}

async fn the_loan_record_is_refused_field_by_field_and_nothing_is_stored(backend: Backend) {
    let sim = simulator(SimOptions { api_key: Some(KEY.into()), ..SimOptions::default() }).await;
    let app = app_with(backend, &sim).await;
    let tenant = app.tenant("Careful Lender").await;
    let token = app.token(&tenant).await;
    let pdf = agreement();
    let cases: Vec<(&str, Value, &str)> = vec![
        ("/loanno", json!(null), "eStampPayload.loan.loanno"),
        ("/state", json!("XX"), "eStampPayload.loan.state"),
        ("/prtcptentty/0/panno", json!("AAAAA1234"), "eStampPayload.loan.prtcptentty[0].panno"),
        ("/prtcptentty/1/cntrprtycntmobno", json!("12345"), "eStampPayload.loan.prtcptentty[1].cntrprtycntmobno"),
        ("/prtcptentty/1/doi", json!("1990-02-30"), "eStampPayload.loan.prtcptentty[1].doi"),
        ("/prtcptentty/1/emlid", json!("asha"), "eStampPayload.loan.prtcptentty[1].emlid"),
        ("/prtcptentty/0/seqno", json!(3), "eStampPayload.loan.prtcptentty[0].seqno"),
        ("/loandtls/rtofint", json!("120"), "eStampPayload.loan.loandtls.rtofint"),
        ("/loandtls/snctnamt", json!("2,50,000"), "eStampPayload.loan.loandtls.snctnamt"),
        ("/loandtls/dtofsnctn", json!("2026-13-01"), "eStampPayload.loan.loandtls.dtofsnctn"),
        ("/loandtls/tenure", json!("three years"), "eStampPayload.loan.loandtls.tenure"),
        ("/estampdtls/0/stampDutyAmount", json!("-5"), "eStampPayload.loan.estampdtls[0].stampDutyAmount"),
        ("/estampdtls/0/firstPartyPin", json!(99), "eStampPayload.loan.estampdtls[0].firstPartyPin"),
        ("/estampdtls", json!([]), "eStampPayload.loan.estampdtls"),
        ("/eSignCordinates/0/prtcptenttyId", json!(77), "eStampPayload.loan.eSignCordinates[0].prtcptenttyId"),
        ("/eSignCordinates/0/coordinates", json!(["2,60,600"]), "eStampPayload.loan.eSignCordinates[0].coordinates[0]"),
        ("/scrtydtls/0/vlofscrty", json!("lots"), "eStampPayload.loan.scrtydtls[0].vlofscrty"),
        ("/entty_dtls/reg_pin", json!("0400"), "eStampPayload.loan.entty_dtls.reg_pin"),
        ("/entty_dtls/entty_pan", json!("aaccA1234B"), "eStampPayload.loan.entty_dtls.entty_pan"),
    ];
    for (pointer, value, field) in cases {
        let mut record = loan("T-400");
        *record.pointer_mut(pointer).expect(pointer) = value;
        let problem = expect_problem(
            app.post("/api/v1/workflows/initiate-and-sign", &token, request(&pdf, record)).await,
            400,
            "validation_failed",
        )
        .await;
        assert!(problem["errors"][field].is_array(), "{pointer} -> {field}: {problem}");
    }
    // Request-level rules: the record needs eStampType digital; denomination, when given,
    // is the record's duty; a fetch needs referenceNo; an unknown member is refused.
    let mut body = request(&pdf, loan("T-401"));
    body["eStampType"] = json!("inventory");
    body["state"] = json!("MH");
    body["denomination"] = json!(500);
    let problem =
        expect_problem(app.post("/api/v1/workflows/initiate-and-sign", &token, body).await, 400, "validation_failed")
            .await;
    assert!(problem["errors"]["eStampType"].is_array(), "{problem}");
    let mut body = request(&pdf, loan("T-402"));
    body["denomination"] = json!(100);
    let problem =
        expect_problem(app.post("/api/v1/workflows/initiate-and-sign", &token, body).await, 400, "validation_failed")
            .await;
    assert!(problem["errors"]["denomination"].is_array(), "{problem}");
    let mut body = request(&pdf, loan("T-403"));
    body["fetchEstampDeatilsUsingRefNo"] = json!(true);
    let problem =
        expect_problem(app.post("/api/v1/workflows/initiate-and-sign", &token, body).await, 400, "validation_failed")
            .await;
    assert!(problem["errors"]["referenceNo"].is_array(), "{problem}");
    let mut body = request(&pdf, loan("T-404"));
    body["eStampPayload"]["loan"]["surprise"] = json!(1);
    let response = app.post("/api/v1/workflows/initiate-and-sign", &token, body).await;
    assert_eq!(response.status(), 400);
    // A participant with boxes who is not among the given signatories.
    let mut body = request(&pdf, loan("T-405"));
    body["signatories"] = json!([{"emailId": "asha@home.test", "name": "Asha Verma"}]);
    let problem =
        expect_problem(app.post("/api/v1/workflows/initiate-and-sign", &token, body).await, 400, "validation_failed")
            .await;
    assert!(problem["errors"]["eStampPayload.loan.prtcptentty[0].emlid"].is_array(), "{problem}");
    assert_eq!(workflow_count(&app, &token).await, 0);
    assert!(stamps_of(&app, &token).await.is_empty());
}

async fn provider_refusals_and_failures_store_nothing(backend: Backend) {
    // The provider's own rule: an article that is not in the state's schedule.
    let sim = simulator(SimOptions { api_key: Some(KEY.into()), fail_every: 3, ..SimOptions::default() }).await;
    let app = app_with(backend, &sim).await;
    let tenant = app.tenant("Unlucky Lender").await;
    let token = app.token(&tenant).await;
    let pdf = agreement();
    let mut record = loan("T-500");
    record["estampdtls"][0]["articleCode"] = json!("99(z)");
    let problem = expect_problem(
        app.post("/api/v1/workflows/initiate-and-sign", &token, request(&pdf, record)).await,
        400,
        "validation_failed",
    )
    .await;
    let reasons = &problem["errors"]["eStampPayload.loan.estampdtls[0].articleCode"];
    assert!(reasons.to_string().contains("stamp provider refused"), "{problem}");
    // Request 2 is issued, request 3 fails with 503 at the provider.
    json_of(app.post("/api/v1/workflows/initiate-and-sign", &token, request(&pdf, loan("T-501"))).await, 201).await;
    expect_problem(
        app.post("/api/v1/workflows/initiate-and-sign", &token, request(&pdf, loan("T-502"))).await,
        502,
        "provider_failed",
    )
    .await;
    assert_eq!(workflow_count(&app, &token).await, 1);
    assert_eq!(stamps_of(&app, &token).await.len(), 1);

    // A wrong key and a provider that does not answer in time: provider_failed.
    let slow = simulator(SimOptions { api_key: Some("other".into()), ..SimOptions::default() }).await;
    let wrong_key = app_with(backend, &slow).await;
    let tenant = wrong_key.tenant("Keyless Lender").await;
    let token = wrong_key.token(&tenant).await;
    expect_problem(
        wrong_key.post("/api/v1/workflows/initiate-and-sign", &token, request(&pdf, loan("T-503"))).await,
        502,
        "provider_failed",
    )
    .await;
    let sleepy = simulator(SimOptions { delay: Duration::from_secs(8), ..SimOptions::default() }).await;
    let timing_out = app_with(backend, &sleepy).await;
    let tenant = timing_out.tenant("Waiting Lender").await;
    let token = timing_out.token(&tenant).await;
    expect_problem(
        timing_out.post("/api/v1/workflows/initiate-and-sign", &token, request(&pdf, loan("T-504"))).await,
        502,
        "provider_failed",
    )
    .await;
    assert_eq!(workflow_count(&timing_out, &token).await, 0);

    // No provider configured: digital e-stamping is refused, naming eStampType.
    let plain = spawn(backend).await;
    let tenant = plain.tenant("Plain Lender").await;
    let token = plain.token(&tenant).await;
    let problem = expect_problem(
        plain.post("/api/v1/workflows/initiate-and-sign", &token, request(&pdf, loan("T-505"))).await,
        400,
        "validation_failed",
    )
    .await;
    assert!(problem["errors"]["eStampType"].is_array(), "{problem}");
}

/// Certificates issued at the provider's portal for `txn`: the provider's reference and the
/// first certificate's number.
async fn issued_at_the_portal(sim: &RunningSim, txn: &str) -> (String, String) {
    let issued: Value = reqwest::Client::new()
        .post(format!("{}/v1/estamps", sim.base_url))
        .bearer_auth(KEY)
        .json(&json!({"loan": loan(txn)}))
        .send()
        .await
        .expect("issue")
        .json()
        .await
        .expect("json");
    let reference = issued["providerRef"].as_str().expect("ref").to_string();
    (reference, issued["certificates"][0]["certificateNo"].as_str().expect("number").to_string())
}

/// Certificates Signet ordered at the provider for the tenant of `token` whose workflow was
/// then not made (the request's QR code names a page the agreement does not have): recorded
/// as the tenant's and not used, so the tenant can take them by reference later. The
/// provider's reference and the first certificate's number.
async fn ordered_and_not_used(app: &TestApp, token: &str, txn: &str) -> (String, String) {
    let mut failing = request(&agreement(), loan(txn));
    failing["qrCodeCordinats"] = json!([{"left": 10, "top": 10, "width": 60, "height": 60, "pageNumber": "9"}]);
    let response = app.post("/api/v1/workflows/initiate-and-sign", token, failing).await;
    assert!(response.status().is_client_error(), "{}", response.text().await.unwrap_or_default());
    let stamps = stamps_of(app, token).await;
    let stamp = stamps.last().expect("the certificate ordered");
    assert_eq!((stamp["source"].as_str(), stamp["status"].as_str()), (Some("provider"), Some("retired")), "{stamp}");
    let reference = stamp["providerRef"].as_str().expect("ref").to_string();
    (reference, stamp["referenceNo"].as_str().expect("number").to_string())
}

async fn a_workflow_of_an_upload_takes_the_certificates_the_provider_issued_under_its_reference(backend: Backend) {
    let sim = simulator(SimOptions { api_key: Some(KEY.into()), ..SimOptions::default() }).await;
    let app = app_with(backend, &sim).await;
    let tenant = app.tenant("Portal Lender").await;
    let token = app.token(&tenant).await;
    let (reference, number) = ordered_and_not_used(&app, &token, "T-400").await;
    let body = json!({"documentName": "Loan agreement.pdf", "fileData": STANDARD.encode(agreement())});
    let document = json_of(app.post("/api/v1/documents", &token, body).await, 201).await["documentId"].clone();
    let request = |details: Value| {
        json!({"templateId": 0, "workflowName": "Loan", "documentIds": [document], "stampDetails": details,
               "signatories": [{"subscriberId": 0, "emailId": "asha@home.test", "name": "Asha Verma", "signingOrder": 1}]})
    };

    // Refused field by field before the provider is asked; nothing stored.
    for (details, field) in [
        (json!({"eStampType": "digital"}), "stampDetails.providerRef"),
        (json!({"eStampType": "digital", "providerRef": "x".repeat(101)}), "stampDetails.providerRef"),
        (
            json!({"eStampType": "digital", "providerRef": reference, "articleCode": "5(h)(B)"}),
            "stampDetails.articleCode",
        ),
        (json!({"eStampType": "digital", "providerRef": reference, "denomination": 500}), "stampDetails.denomination"),
        (json!({"eStampType": "digital", "providerRef": reference, "state": "Atlantis"}), "stampDetails.state"),
        (json!({"eStampType": "digital", "providerRef": "ESTMP-99999999"}), "stampDetails.providerRef"),
    ] {
        let problem =
            expect_problem(app.post("/api/v1/workflows", &token, request(details)).await, 400, "validation_failed")
                .await;
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    // Certificates of another state than the one named: the provider's answer is refused.
    let other_state = json!({"eStampType": "digital", "providerRef": reference, "state": "KA"});
    expect_problem(app.post("/api/v1/workflows", &token, request(other_state)).await, 502, "provider_failed").await;
    assert_eq!(workflow_count(&app, &token).await, 0);

    // Fetched by reference: the certificate's page in front of the agreement, the stamp
    // allocated to the workflow with its provider reference, and the signature valid.
    let details = json!({"eStampType": "digital", "providerRef": reference, "state": "MH",
                         "firstParty": "Asha Verma", "secondParty": "Acme Finance Ltd",
                         "descriptionOfDocument": "Loan agreement"});
    let started = json_of(app.post("/api/v1/workflows", &token, request(details.clone())).await, 201).await;
    let workflow_id = started["workflowId"].as_i64().expect("id");
    let stamps = stamps_of(&app, &token).await;
    let stamp = stamps.iter().find(|s| s["referenceNo"] == number.as_str()).expect("the certificate");
    assert_eq!((stamp["status"].as_str(), stamp["source"].as_str()), (Some("allocated"), Some("provider")), "{stamp}");
    assert_eq!(
        (stamp["workflowId"].as_i64(), stamp["providerRef"].as_str()),
        (Some(workflow_id), Some(reference.as_str()))
    );
    sign_typed(&link_of(&started, "asha@home.test"), "Asha Verma").await;
    let signed = app.post("/api/v1/documents/download", &token, json!({"workflowid": workflow_id})).await;
    let signed = signed.bytes().await.expect("pdf").to_vec();
    assert_eq!(signet_pdf::inspect(&signed).expect("opens").pages, 3, "the certificate's page and the agreement");
    assert!(page_text(&signed, 1).contains(&number), "{}", page_text(&signed, 1));
    let report = pdfsig(&signed);
    assert_eq!(report.matches("Signature is Valid").count(), 1, "{report}");
    pyhanko_validates(&signed, &[cert_pem(&app.state.services.keys.ca.cert_der).as_slice()]);

    // The same certificates cannot stamp a second document.
    let again = expect_problem(app.post("/api/v1/workflows", &token, request(details)).await, 409, "conflict").await;
    assert!(again["detail"].as_str().unwrap_or_default().contains(&number), "{again}");
    assert_eq!(workflow_count(&app, &token).await, 1);
}

/// A problem without what differs between any two answers (the request's id).
fn refusal(mut problem: Value) -> Value {
    problem.as_object_mut().expect("problem").remove("requestId");
    problem
}

/// Issue 30 item 5: tenant A's e-stamp certificates, ordered through Signet, are not tenant
/// B's to take: B naming A's provider reference, or the txnID or loan number the provider also
/// resolves, in a workflow of an upload or an initiate-and-sign fetch is refused exactly as a
/// reference nobody issued; so is a certificate issued at the provider's portal that Signet
/// never ordered. B holds nothing of A's afterwards, cannot load A's certificate number into
/// its own inventory, and A still takes its certificates.
async fn another_tenants_e_stamp_references_read_as_unknown_and_certificate_numbers_are_one_tenants(backend: Backend) {
    let sim = simulator(SimOptions { api_key: Some(KEY.into()), ..SimOptions::default() }).await;
    let app = app_with(backend, &sim).await;
    let lender_a = app.tenant("Lender A").await;
    let a = app.token(&lender_a).await;
    let lender_b = app.tenant("Lender B").await;
    let b = app.token(&lender_b).await;
    let (reference, number) = ordered_and_not_used(&app, &a, "T-600").await;
    let (portal_reference, _) = issued_at_the_portal(&sim, "T-601").await;

    let upload = |token: String| {
        let app = &app;
        async move {
            let body = json!({"documentName": "Loan agreement.pdf", "fileData": STANDARD.encode(agreement())});
            json_of(app.post("/api/v1/documents", &token, body).await, 201).await["documentId"].clone()
        }
    };
    let workflow = |document: &Value, reference: &str| {
        json!({"templateId": 0, "workflowName": "Loan", "documentIds": [document],
               "stampDetails": {"eStampType": "digital", "providerRef": reference, "state": "MH"},
               "signatories": [{"subscriberId": 0, "emailId": "asha@home.test", "name": "Asha Verma", "signingOrder": 1}]})
    };
    let fetch = |reference: &str| {
        let mut body = request(&agreement(), loan("T-700"));
        body["fetchEstampDeatilsUsingRefNo"] = json!(true);
        body["referenceNo"] = json!(reference);
        body
    };

    let document = upload(b.clone()).await;
    let refused_workflow = |reference: String| {
        let (app, b, body) = (&app, b.clone(), workflow(&document, &reference));
        async move { refusal(expect_problem(app.post("/api/v1/workflows", &b, body).await, 400, "validation_failed").await) }
    };
    let refused_fetch = |reference: String| {
        let (app, b, body) = (&app, b.clone(), fetch(&reference));
        async move {
            let response = app.post("/api/v1/workflows/initiate-and-sign", &b, body).await;
            refusal(expect_problem(response, 400, "validation_failed").await)
        }
    };
    let unknown_workflow = refused_workflow("ESTMP-99999999".into()).await;
    let unknown_fetch = refused_fetch("ESTMP-99999999".into()).await;
    assert!(unknown_workflow["errors"]["stampDetails.providerRef"].is_array(), "{unknown_workflow}");
    assert!(unknown_fetch["errors"]["referenceNo"].is_array(), "{unknown_fetch}");
    for name in [reference.as_str(), "T-600", "LN-T-600", "ln-t-600", portal_reference.as_str()] {
        assert_eq!(refused_workflow(name.into()).await, unknown_workflow, "{name}");
        assert_eq!(refused_fetch(name.into()).await, unknown_fetch, "{name}");
    }
    assert!(stamps_of(&app, &b).await.is_empty(), "B holds none of A's certificates");
    assert_eq!(workflow_count(&app, &b).await, 0);

    // Certificate numbers are unique installation-wide: not B's to load as its own stock.
    for taken in [number.clone(), number.to_lowercase()] {
        let body = json!({"state": "MH", "denomination": [{"denomination": 500, "referenceNo": taken}]});
        expect_problem(app.post("/api/v1/stamps", &b, body).await, 409, "conflict").await;
    }
    assert!(stamps_of(&app, &b).await.is_empty());

    // A still takes its own certificates by their reference.
    let document = upload(a.clone()).await;
    let started = json_of(app.post("/api/v1/workflows", &a, workflow(&document, &reference)).await, 201).await;
    let workflow_id = started["workflowId"].as_i64().expect("id");
    let stamps = stamps_of(&app, &a).await;
    let stamp = stamps.iter().find(|s| s["referenceNo"] == number.as_str()).expect("the certificate");
    assert_eq!((stamp["status"].as_str(), stamp["workflowId"].as_i64()), (Some("allocated"), Some(workflow_id)));
}
