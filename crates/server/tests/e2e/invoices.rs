//! A workflow's invoices end to end (docs/stamps.md, "Invoices"): the tax invoice for the
//! platform's fee and the debit note for the stamp duty of a stamped workflow, read by poppler's
//! pdftotext for their numbers, GST lines and totals; CGST and SGST within the supplier's state,
//! IGST across states; issued once and answered unchanged after; consecutive numbers without
//! gaps or duplicates under concurrent issues from two instances; and refusals that issue
//! nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use reqwest::redirect::Policy;
use serde_json::{Value, json};
use signet_server::Config;
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::{Page, reportlab_pdf};
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn, spawn_with};
use signet_testkit::smtp::SmtpSink;

use crate::support::json_of;

on_both_backends!(
    a_stamped_workflow_gets_its_invoice_and_debit_note_once,
    another_state_pays_igst_and_a_workflow_without_stamps_gets_no_debit_note,
    concurrent_issues_on_two_instances_number_consecutively_without_gaps,
    bad_requests_are_refused_and_issue_nothing,
    issued_documents_are_listed_newest_first_in_pages_of_the_tenant_only,
);

/// The platform operator of these tests: registered in Maharashtra.
const SUPPLIER_GSTIN: &str = "27AACCS1234K1ZF";
/// Tenants: one in Maharashtra (intra-state), one in Karnataka (inter-state).
const MH_GSTIN: &str = "27AAPFU0939F1ZV";
const KA_GSTIN: &str = "29AAACA1234B1ZE";
/// Rs 100.50: 9% of it is 904.5 paise and 18% 1809 paise, so half-up rounding shows.
const FEE_PAISE: u64 = 10_050;

fn with_supplier(config: &mut Config) {
    config.invoice_supplier_name = Some("Signet Platform Services Pvt Ltd".into());
    config.invoice_supplier_address = Some("4 Nariman Point\nMumbai 400021".into());
    config.invoice_supplier_gstin = Some(SUPPLIER_GSTIN.into());
    config.invoice_supplier_state = Some("MH".into());
    config.invoice_fee_paise = FEE_PAISE;
}

async fn spawn_supplier(backend: Backend) -> TestApp {
    spawn_with(backend, with_supplier).await
}

fn agreement() -> Vec<u8> {
    reportlab_pdf(&[Page::text("Loan agreement").line(200, "Borrower signs here:")])
}

/// An initiate-and-sign request for one signer, taking stamp papers of Delhi worth `duty` (none
/// for 0).
fn request(signer: &str, duty: i64) -> Value {
    let mut body = json!({"documentName": "Loan agreement.pdf", "fileData": STANDARD.encode(agreement()),
        "signatories": [{"emailId": signer, "name": "Borrower",
                         "coordinates": [{"left": 60, "top": 600, "width": 160, "height": 60, "pageNumber": "1"}]}]});
    if duty > 0 {
        body["eStampType"] = json!("inventory");
        body["state"] = json!("DL");
        body["denomination"] = json!(duty);
    }
    body
}

async fn start(app: &TestApp, token: &str, signer: &str, duty: i64) -> Value {
    json_of(app.post("/api/v1/workflows/initiate-and-sign", token, request(signer, duty)).await, 201).await
}

fn id_of(started: &Value) -> i64 {
    started["workflowId"].as_i64().expect("workflowId")
}

/// The only signer signs (typed) through the signer page: the workflow completes.
async fn sign(started: &Value) {
    let link = started["signingUrls"][0]["url"].as_str().expect("url");
    let http = reqwest::Client::builder().redirect(Policy::none()).build().expect("client");
    assert_eq!(http.get(link).send().await.expect("page").status(), 200);
    let signed = http
        .post(format!("{link}/sign"))
        .form(&[("mode", "typed"), ("typedName", "Borrower"), ("font", "handwriting"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    assert_eq!(signed.status(), 200);
}

async fn cancel(app: &TestApp, token: &str, workflow_id: i64) {
    let path = format!("/api/v1/workflows/{workflow_id}/inactive");
    let response = app.post(&path, token, json!({"workflowid": workflow_id})).await;
    assert!(response.status().is_success(), "{}", response.status());
}

async fn set_profile(app: &TestApp, token: &str, state: &str, gstin: Option<&str>) {
    let body = json!({"legalName": "Acme Finance Ltd", "address": "7 MG Road\nBengaluru 560001", "gstin": gstin,
                      "stateCode": state});
    json_of(app.put("/api/v1/stamps/billing-profile", token, body).await, 200).await;
}

async fn issue(app: &TestApp, token: &str, workflow_id: i64) -> reqwest::Response {
    app.post("/api/v1/stamps/invoices", token, json!({"workflowId": workflow_id})).await
}

/// The text of a base64 PDF by poppler's pdftotext (not our own reader).
fn text_of(document: &Value) -> String {
    let pdf = STANDARD.decode(document.as_str().expect("base64 document")).expect("base64");
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("document.pdf");
    std::fs::write(&path, pdf).expect("write");
    let output =
        Command::new("pdftotext").arg("-layout").arg(&path).arg("-").output().expect("pdftotext (poppler-utils)");
    assert!(output.status.success(), "pdftotext: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).to_string()
}

fn assert_shows(text: &str, expected: &[&str]) {
    for needle in expected {
        assert!(text.contains(needle), "{needle:?} is not in:\n{text}");
    }
}

/// `INV/26-27/000001`: the series, the financial year of the issue date, the serial.
fn serial(number: &Value, prefix: &str) -> i64 {
    let number = number.as_str().expect("number");
    let parts: Vec<&str> = number.split('/').collect();
    assert_eq!(parts.len(), 3, "{number}");
    assert_eq!(parts[0], prefix, "{number}");
    assert!(number.len() <= 16, "{number}: at most 16 characters (CGST Rules, rule 46(b))");
    parts[2].parse().expect("serial")
}

async fn a_stamped_workflow_gets_its_invoice_and_debit_note_once(backend: Backend) {
    let app = spawn_supplier(backend).await;
    let tenant = app.tenant("Acme Finance").await;
    let token = app.token(&tenant).await;
    let papers = json!([{"denomination": 100, "referenceNo": "IN-DL-INV-0001"},
                        {"denomination": 50, "referenceNo": "IN-DL-INV-0002"}]);
    json_of(app.post("/api/v1/stamps", &token, json!({"state": "DL", "denomination": papers})).await, 201).await;
    let started = start(&app, &token, "borrower@home.test", 150).await;
    let workflow_id = id_of(&started);

    // Nothing is issued without the tenant's billing profile, or while the workflow runs.
    expect_problem(issue(&app, &token, workflow_id).await, 409, "billing_profile_required").await;
    set_profile(&app, &token, "MH", Some(MH_GSTIN)).await;
    expect_problem(issue(&app, &token, workflow_id).await, 409, "state_conflict").await;
    sign(&started).await;

    let first = json_of(issue(&app, &token, workflow_id).await, 201).await;
    assert_eq!(serial(&first["invoiceNo"], "INV"), 1);
    assert_eq!(serial(&first["debitNoteNo"], "DN"), 1);
    // Rs 100.50 + 9.05 + 9.05 = 118.60, and Rs 150 of stamp duty.
    assert_eq!(first["totalAmount"].as_f64(), Some(268.6), "{first}");
    let date = first["invoiceCreatedDate"].as_str().expect("date");
    assert!(date.ends_with("+05:30"), "{date}");
    assert_eq!(first["debitNoteCreatedDate"], first["invoiceCreatedDate"]);

    let invoice_no = first["invoiceNo"].as_str().expect("number");
    let invoice = text_of(&first["invoiceDocument"]);
    assert_shows(
        &invoice,
        &[
            "Tax Invoice",
            invoice_no,
            "Signet Platform Services Pvt Ltd",
            SUPPLIER_GSTIN,
            "Acme Finance Ltd",
            MH_GSTIN,
            "Maharashtra (27)",
            "998314",
            "100.50",
            "CGST @ 9%",
            "SGST @ 9%",
            "Rs 9.05",
            "Rs 18.10",
            "Invoice total",
            "Rs 118.60",
        ],
    );
    assert!(!invoice.contains("IGST"), "{invoice}");
    let note = text_of(&first["debitNoteDocument"]);
    assert_shows(
        &note,
        &[
            "Debit Note",
            first["debitNoteNo"].as_str().expect("number"),
            invoice_no,
            "IN-DL-INV-0001",
            "IN-DL-INV-0002",
            "Delhi (07)",
            "100.00",
            "50.00",
            "Rs 150.00",
            "pure agent",
        ],
    );

    // Issued once: the same answer again, and from the read.
    let again = json_of(issue(&app, &token, workflow_id).await, 200).await;
    assert_eq!(again, first);
    let read = json_of(app.get(&format!("/api/v1/stamps/invoices/{workflow_id}"), &token).await, 200).await;
    assert_eq!(read, first);
    // A changed billing profile does not change what was issued.
    set_profile(&app, &token, "KA", Some(KA_GSTIN)).await;
    assert_eq!(json_of(issue(&app, &token, workflow_id).await, 200).await, first);
    // The audit trail records the issue.
    let audit = json_of(app.get("/api/v1/audit", &token).await, 200).await.to_string();
    assert!(audit.contains("invoices.issued") && audit.contains(invoice_no), "{audit}");
}

async fn another_state_pays_igst_and_a_workflow_without_stamps_gets_no_debit_note(backend: Backend) {
    let app = spawn_supplier(backend).await;
    let tenant = app.tenant("Karnataka Credit").await;
    let token = app.token(&tenant).await;
    set_profile(&app, &token, "KA", Some(KA_GSTIN)).await;
    let started = start(&app, &token, "client@home.test", 0).await;
    cancel(&app, &token, id_of(&started)).await;
    let issued = json_of(issue(&app, &token, id_of(&started)).await, 201).await;
    assert_eq!(serial(&issued["invoiceNo"], "INV"), 1);
    for field in ["debitNoteNo", "debitNoteDocument", "debitNoteCreatedDate"] {
        assert!(issued[field].is_null(), "{field}: {issued}");
    }
    // Rs 100.50 + 18% IGST (18.09) = 118.59.
    assert_eq!(issued["totalAmount"].as_f64(), Some(118.59), "{issued}");
    let invoice = text_of(&issued["invoiceDocument"]);
    assert_shows(&invoice, &["IGST @ 18%", "Rs 18.09", "Rs 118.59", "Karnataka (29)", KA_GSTIN, "Maharashtra (27)"]);
    assert!(!invoice.contains("CGST") && !invoice.contains("SGST"), "{invoice}");

    // An unregistered recipient in the supplier's state: CGST and SGST, shown as unregistered.
    set_profile(&app, &token, "MH", None).await;
    let profile = json_of(app.get("/api/v1/stamps/billing-profile", &token).await, 200).await;
    assert_eq!((profile["stateCode"].as_str(), profile["gstin"].is_null()), (Some("MH"), true));
    let second = start(&app, &token, "client2@home.test", 0).await;
    cancel(&app, &token, id_of(&second)).await;
    let issued = json_of(issue(&app, &token, id_of(&second)).await, 201).await;
    assert_eq!(serial(&issued["invoiceNo"], "INV"), 2);
    assert_shows(&text_of(&issued["invoiceDocument"]), &["Unregistered", "CGST @ 9%", "Rs 118.60"]);
}

async fn concurrent_issues_on_two_instances_number_consecutively_without_gaps(backend: Backend) {
    let first = spawn_supplier(backend).await;
    // One database and one blob folder (the default folder is relative to each instance's data
    // directory, so it is named absolutely): a document one instance issued, the other reads.
    let database = first.state.services.config.database_url();
    let blob = first.state.services.config.data_dir.join(first.state.services.config.blob_url()).display().to_string();
    let key = first.state.services.config.data_dir.join("master.key");
    let vault = first.state.services.config.key_vault_dir();
    let second = spawn_with(backend, |config| {
        with_supplier(config);
        config.database_url = Some(database);
        config.blob_url = Some(blob);
        // Instances of one installation share its master key and key vault (README: Data at rest).
        config.master_key_path = Some(key);
        config.tenant_key_vault = Some(vault);
    })
    .await;
    let tenant = first.tenant("Busy Lender").await;
    let token = first.token(&tenant).await;
    set_profile(&first, &token, "MH", Some(MH_GSTIN)).await;
    let papers: Vec<Value> =
        (0..3).map(|i| json!({"denomination": 100, "referenceNo": format!("IN-DL-RUSH-{i}")})).collect();
    json_of(first.post("/api/v1/stamps", &token, json!({"state": "DL", "denomination": papers})).await, 201).await;
    // Three stamped workflows that complete (their papers stay allocated) and seven cancelled
    // ones without stamp duty.
    let mut workflows = Vec::new();
    for i in 0..10 {
        let stamped = i < 3;
        let started = start(&first, &token, &format!("b{i}@home.test"), if stamped { 100 } else { 0 }).await;
        if stamped {
            sign(&started).await;
        } else {
            cancel(&first, &token, id_of(&started)).await;
        }
        workflows.push(id_of(&started));
    }
    // Every workflow is asked for twice at once, once through each instance.
    let mut tasks = tokio::task::JoinSet::new();
    for (i, workflow_id) in workflows.iter().copied().enumerate() {
        for app in [&first, &second] {
            let (url, client, token) = (app.url("/api/v1/stamps/invoices"), app.client.clone(), token.clone());
            let order = i;
            tasks.spawn(async move {
                let response =
                    client.post(url).bearer_auth(token).json(&json!({"workflowId": workflow_id})).send().await;
                let response = response.expect("post");
                let status = response.status().as_u16();
                (order, workflow_id, status, response.json::<Value>().await.expect("json"))
            });
        }
    }
    let mut answers: BTreeMap<i64, Vec<(u16, Value)>> = BTreeMap::new();
    while let Some(done) = tasks.join_next().await {
        let (_, workflow_id, status, body) = done.expect("task");
        answers.entry(workflow_id).or_default().push((status, body));
    }
    let mut invoices = BTreeSet::new();
    let mut notes = BTreeSet::new();
    for (workflow_id, pair) in &answers {
        let statuses: BTreeSet<u16> = pair.iter().map(|(s, _)| *s).collect();
        assert_eq!(statuses, BTreeSet::from([200, 201]), "workflow {workflow_id}: issued once, answered once");
        assert_eq!(pair[0].1, pair[1].1, "workflow {workflow_id}: both answers are the same documents");
        let body = &pair[0].1;
        assert!(invoices.insert(serial(&body["invoiceNo"], "INV")), "a duplicate number: {body}");
        if !body["debitNoteNo"].is_null() {
            assert!(notes.insert(serial(&body["debitNoteNo"], "DN")), "a duplicate number: {body}");
        }
    }
    assert_eq!(invoices, (1..=10).collect::<BTreeSet<i64>>(), "consecutive from 1, no gaps");
    assert_eq!(notes, (1..=3).collect::<BTreeSet<i64>>(), "debit notes for the stamped workflows only");
    // Each document reads back as issued, through either instance.
    for workflow_id in &workflows {
        let path = format!("/api/v1/stamps/invoices/{workflow_id}");
        let read = json_of(second.get(&path, &token).await, 200).await;
        assert_eq!(read, answers[workflow_id][0].1);
    }
}

async fn bad_requests_are_refused_and_issue_nothing(backend: Backend) {
    let app = spawn_supplier(backend).await;
    let tenant = app.tenant("Strict Lender").await;
    let token = app.token(&tenant).await;
    set_profile(&app, &token, "MH", Some(MH_GSTIN)).await;
    let started = start(&app, &token, "someone@home.test", 0).await;
    let workflow_id = id_of(&started);
    cancel(&app, &token, workflow_id).await;

    for body in [json!({"workflowId": 0}), json!({"workflowId": -7}), json!({})] {
        let problem =
            expect_problem(app.post("/api/v1/stamps/invoices", &token, body).await, 400, "validation_failed").await;
        assert!(problem["errors"]["workflowId"].is_array(), "{problem}");
    }
    for body in [json!({"workflowId": "7"}), json!({"workflowId": 1, "extra": true}), json!({"workflowId": 1.5})] {
        expect_problem(app.post("/api/v1/stamps/invoices", &token, body).await, 400, "validation_failed").await;
    }
    expect_problem(issue(&app, &token, 2_000_000_000).await, 404, "not_found").await;
    expect_problem(app.get(&format!("/api/v1/stamps/invoices/{workflow_id}"), &token).await, 404, "not_found").await;
    expect_problem(app.get("/api/v1/stamps/invoices/0", &token).await, 400, "validation_failed").await;

    // Another tenant's workflow is as missing as one that does not exist, for issue and read.
    let other = app.tenant("Other Lender").await;
    let other_token = app.token(&other).await;
    set_profile(&app, &other_token, "MH", Some(MH_GSTIN)).await;
    expect_problem(issue(&app, &other_token, workflow_id).await, 404, "not_found").await;

    // Billing profiles are checked whole.
    for (body, fields) in [
        (json!({"legalName": "X", "address": "Y", "gstin": "27AAPFU0939F1ZW", "stateCode": "MH"}), vec!["gstin"]),
        (json!({"legalName": "X", "address": "Y", "gstin": MH_GSTIN, "stateCode": "KA"}), vec!["gstin"]),
        (json!({"legalName": " ", "address": "a\u{7}b", "stateCode": "XX"}), vec!["legalName", "address", "stateCode"]),
    ] {
        let response = app.put("/api/v1/stamps/billing-profile", &token, body).await;
        let problem = expect_problem(response, 400, "validation_failed").await;
        for field in fields {
            assert!(problem["errors"][field].is_array(), "{field}: {problem}");
        }
    }

    // An installation without a supplier issues nothing, clearly.
    let bare = spawn(backend).await;
    let bare_tenant = bare.tenant("Bare Lender").await;
    let bare_token = bare.token(&bare_tenant).await;
    set_profile(&bare, &bare_token, "MH", Some(MH_GSTIN)).await;
    let bare_workflow = start(&bare, &bare_token, "x@home.test", 0).await;
    cancel(&bare, &bare_token, id_of(&bare_workflow)).await;
    let problem =
        expect_problem(issue(&bare, &bare_token, id_of(&bare_workflow)).await, 409, "invoicing_not_configured").await;
    assert!(problem["detail"].as_str().expect("detail").contains("invoice_supplier_gstin"), "{problem}");
    let path = format!("/api/v1/stamps/invoices/{}", id_of(&bare_workflow));
    expect_problem(bare.get(&path, &bare_token).await, 404, "not_found").await;

    // None of the refusals took a number: the first invoice is number 1.
    let issued = json_of(issue(&app, &token, workflow_id).await, 201).await;
    assert_eq!(serial(&issued["invoiceNo"], "INV"), 1);
    let theirs = start(&app, &other_token, "y@home.test", 0).await;
    cancel(&app, &other_token, id_of(&theirs)).await;
    let issued = json_of(issue(&app, &other_token, id_of(&theirs)).await, 201).await;
    assert_eq!(serial(&issued["invoiceNo"], "INV"), 1, "numbers run per tenant");
    expect_problem(app.get(&format!("/api/v1/stamps/invoices/{workflow_id}"), &other_token).await, 404, "not_found")
        .await;
}

/// `(workflowId, kind, number)` of each item of a listing, in order.
fn listed(page: &Value) -> Vec<(i64, String, String)> {
    page["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| {
            let text = |key: &str| i[key].as_str().expect(key).to_string();
            (i["workflowId"].as_i64().expect("workflowId"), text("kind"), text("number"))
        })
        .collect()
}

async fn list(app: &TestApp, token: &str, query: &str) -> Value {
    json_of(app.get(&format!("/api/v1/stamps/invoices{query}"), token).await, 200).await
}

async fn issued_documents_are_listed_newest_first_in_pages_of_the_tenant_only(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = spawn_with(backend, |config| {
        with_supplier(config);
        config.smtp_url = Some(smtp.url());
        // The set-password e-mails of the users below are sent by the workers.
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let tenant = app.tenant("Listing Lender").await;
    let token = app.token(&tenant).await;
    set_profile(&app, &token, "MH", Some(MH_GSTIN)).await;
    let empty = list(&app, &token, "").await;
    assert_eq!((empty["totalCount"].as_i64(), listed(&empty).len()), (Some(0), 0), "{empty}");

    // A stamped workflow (invoice and debit note), then two without stamp duty.
    let papers = json!([{"denomination": 100, "referenceNo": "IN-DL-LIST-0001"}]);
    json_of(app.post("/api/v1/stamps", &token, json!({"state": "DL", "denomination": papers})).await, 201).await;
    let stamped = start(&app, &token, "one@home.test", 100).await;
    sign(&stamped).await;
    let first = json_of(issue(&app, &token, id_of(&stamped)).await, 201).await;
    let mut plain = Vec::new();
    for signer in ["two@home.test", "three@home.test"] {
        let started = start(&app, &token, signer, 0).await;
        cancel(&app, &token, id_of(&started)).await;
        json_of(issue(&app, &token, id_of(&started)).await, 201).await;
        plain.push(id_of(&started));
    }
    // Another tenant's document is never listed to this one, nor this one's to it.
    let other = app.tenant("Other Listing Lender").await;
    let other_token = app.token(&other).await;
    set_profile(&app, &other_token, "KA", Some(KA_GSTIN)).await;
    let theirs = start(&app, &other_token, "four@home.test", 0).await;
    cancel(&app, &other_token, id_of(&theirs)).await;
    json_of(issue(&app, &other_token, id_of(&theirs)).await, 201).await;

    let inv = |n: i64| format!("INV/{}/{n:06}", &first["invoiceNo"].as_str().expect("number")[4..9]);
    let dn = first["debitNoteNo"].as_str().expect("debit note").to_string();
    let w1 = id_of(&stamped);
    let expected = vec![
        (plain[1], "invoice".to_string(), inv(3)),
        (plain[0], "invoice".to_string(), inv(2)),
        (w1, "debit_note".to_string(), dn.clone()),
        (w1, "invoice".to_string(), inv(1)),
    ];
    let all = list(&app, &token, "").await;
    assert_eq!(listed(&all), expected, "{all}");
    assert_eq!(
        (all["totalCount"].as_i64(), all["pageNumber"].as_i64(), all["pageSize"].as_i64()),
        (Some(4), Some(1), Some(20))
    );
    let mine = list(&app, &other_token, "").await;
    assert_eq!(listed(&mine), [(id_of(&theirs), "invoice".to_string(), inv(1))], "{mine}");
    let none = list(&app, &other_token, &format!("?workflowId={w1}")).await;
    assert_eq!((none["totalCount"].as_i64(), listed(&none).len()), (Some(0), 0), "{none}");

    // Pages of two, then past the end.
    let one = list(&app, &token, "?pageSize=2").await;
    let two = list(&app, &token, "?pageSize=2&pageNumber=2").await;
    let past = list(&app, &token, "?pageSize=2&pageNumber=3").await;
    assert_eq!(listed(&one), expected[..2]);
    assert_eq!(listed(&two), expected[2..]);
    assert!(listed(&past).is_empty() && past["totalCount"] == 4, "{past}");

    // One workflow's documents: their totals, dates and PDFs are the ones issued.
    let of_w1 = list(&app, &token, &format!("?workflowId={w1}")).await;
    assert_eq!(listed(&of_w1), expected[2..]);
    let items = of_w1["items"].as_array().expect("items");
    assert_eq!(items[0]["issuedAt"], first["debitNoteCreatedDate"]);
    assert_eq!(items[1]["issuedAt"], first["invoiceCreatedDate"]);
    // Rs 100.50 + 9.05 + 9.05, and Rs 100 of stamp duty.
    assert_eq!((items[1]["totalAmount"].as_f64(), items[0]["totalAmount"].as_f64()), (Some(118.6), Some(100.0)));
    for (item, field) in [(&items[0], "debitNoteDocument"), (&items[1], "invoiceDocument")] {
        let url = item["documentUrl"].as_str().expect("documentUrl");
        assert_eq!(url, format!("/api/v1/stamps/invoices/{w1}/{}", item["kind"].as_str().expect("kind")));
        let response = app.get(url, &token).await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "application/pdf");
        let pdf = response.bytes().await.expect("pdf");
        assert_eq!(pdf.to_vec(), STANDARD.decode(first[field].as_str().expect("base64")).expect("base64"), "{url}");
    }
    // Another tenant's document, a kind the workflow lacks and no kind at all are not there.
    expect_problem(app.get(&format!("/api/v1/stamps/invoices/{w1}/invoice"), &other_token).await, 404, "not_found")
        .await;
    let path = format!("/api/v1/stamps/invoices/{}/debit_note", plain[0]);
    expect_problem(app.get(&path, &token).await, 404, "not_found").await;
    let path = format!("/api/v1/stamps/invoices/{w1}/receipt");
    let problem = expect_problem(app.get(&path, &token).await, 400, "validation_failed").await;
    assert!(problem["errors"]["kind"].is_array(), "{problem}");

    // Issue dates are IST days, both ends included.
    let today = &first["invoiceCreatedDate"].as_str().expect("date")[..10];
    let on_the_day = list(&app, &token, &format!("?issuedFrom={today}&issuedTo={today}")).await;
    assert_eq!(listed(&on_the_day), expected);
    let later = list(&app, &token, "?issuedFrom=2199-12-31").await;
    let inverted = list(&app, &token, &format!("?issuedFrom={today}&issuedTo=2000-01-01")).await;
    assert_eq!(inverted["totalCount"].as_i64(), Some(0), "a window that ends before it starts: {inverted}");
    let earlier = list(&app, &token, "?issuedTo=2000-01-01").await;
    assert_eq!((later["totalCount"].as_i64(), earlier["totalCount"].as_i64()), (Some(0), Some(0)));
    let filtered = list(&app, &token, &format!("?issuedFrom={today}&workflowId={}&pageSize=1", plain[0])).await;
    assert_eq!(listed(&filtered), expected[1..2]);

    // Bad parameters: ProblemDetails naming each one, nothing listed.
    for (query, fields) in [
        ("?pageSize=0", vec!["pageSize"]),
        ("?pageSize=101&pageNumber=0", vec!["pageNumber", "pageSize"]),
        ("?issuedFrom=2026-02-30", vec!["issuedFrom"]),
        ("?issuedTo=", vec!["issuedTo"]),
        ("?issuedFrom=01-04-2026&issuedTo=2026-04-01T00:00:00Z", vec!["issuedFrom", "issuedTo"]),
        ("?workflowId=0", vec!["workflowId"]),
        ("?workflowId=-3&pageSize=7", vec!["workflowId"]),
    ] {
        let response = app.get(&format!("/api/v1/stamps/invoices{query}"), &token).await;
        let problem = expect_problem(response, 400, "validation_failed").await;
        let named: Vec<&String> = problem["errors"].as_object().expect("errors").keys().collect();
        assert_eq!(named, fields, "{query}: {problem}");
    }
    for query in ["?workflowId=abc", "?pageNumber=1.5"] {
        expect_problem(app.get(&format!("/api/v1/stamps/invoices{query}"), &token).await, 400, "validation_failed")
            .await;
    }

    // Who reads the tenant's workflows reads its invoices; a signer-role user does not.
    let (_, sender) = signet_testkit::people::signed_in_user(&app, &smtp, &token, "sender@home.test", 2).await;
    let (_, signer) = signet_testkit::people::signed_in_user(&app, &smtp, &token, "signer@home.test", 3).await;
    assert_eq!(listed(&list(&app, &sender, "").await), expected);
    let pdf = format!("/api/v1/stamps/invoices/{w1}/invoice");
    assert_eq!(app.get(&pdf, &sender).await.status(), 200);
    expect_problem(app.get("/api/v1/stamps/invoices", &signer).await, 403, "forbidden").await;
    expect_problem(app.get(&pdf, &signer).await, 403, "forbidden").await;
}
