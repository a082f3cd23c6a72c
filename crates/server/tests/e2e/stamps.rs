//! Stamp duty end to end (docs/stamps.md): loading the inventory and its refusals, articles
//! per state and their edits, concurrent allocation from two instances on one database (every
//! certificate taken once, none lost), a stamped agreement signed through the signer page with
//! its certificate pages first (pdfsig and pyHanko judge the signatures), and what declined or
//! cancelled workflows do to their certificates, with the low-stock webhook and e-mail.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::{Page, one_page, reportlab_pdf};
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn, spawn_with};
use signet_testkit::smtp::SmtpSink;
use signet_testkit::validators::{cert_pem, pdfsig, pyhanko_validates};

use crate::support::{json_of, link_of, receiver, sign_typed};

on_both_backends!(
    the_inventory_loads_lists_counts_and_refuses_bad_loads,
    articles_are_shipped_per_state_and_edited_per_tenant,
    concurrent_initiations_on_two_instances_take_every_stamp_once,
    a_stamped_agreement_is_signed_with_its_certificate_pages_first,
    ended_workflows_release_or_retire_their_stamps_and_low_stock_is_announced,
    a_workflow_of_an_upload_takes_its_duty_from_the_article_or_records_it_without_the_page,
);

fn agreement() -> Vec<u8> {
    reportlab_pdf(&[
        Page::text("Loan agreement page 1").line(200, "Borrower signs here:"),
        Page::text("Loan agreement page 2").line(200, "Lender signs here:"),
    ])
}

async fn load(app: &TestApp, token: &str, state: &str, items: Value) -> reqwest::Response {
    app.post("/api/v1/stamps", token, json!({"state": state, "denomination": items})).await
}

fn certificates(prefix: &str, denomination: i64, count: usize) -> Value {
    Value::Array(
        (0..count).map(|i| json!({"denomination": denomination, "referenceNo": format!("{prefix}{i:04}")})).collect(),
    )
}

/// An initiate-and-sign request that takes stamp papers of `state` worth `duty`.
fn stamped_request(pdf: &str, state: &str, duty: i64, signers: &[&str]) -> Value {
    let signatories: Vec<Value> = signers
        .iter()
        .enumerate()
        .map(|(i, email)| {
            json!({"emailId": email, "name": email.split('@').next(),
                   "coordinates": [{"left": 60 + 250 * i as i32, "top": 600, "width": 160, "height": 60, "pageNumber": "2"}]})
        })
        .collect();
    json!({"documentName": "Loan agreement.pdf", "fileData": pdf, "eStampType": "inventory", "state": state,
           "denomination": duty, "signatories": signatories})
}

async fn stock_of(app: &TestApp, token: &str, state: &str) -> BTreeMap<i64, Value> {
    let stock = json_of(app.get(&format!("/api/v1/stamps/stock?state={state}"), token).await, 200).await;
    stock["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|row| (row["denomination"].as_i64().expect("denomination"), row.clone()))
        .collect()
}

async fn all_stamps(app: &TestApp, token: &str, query: &str) -> Vec<Value> {
    let page = json_of(app.get(&format!("/api/v1/stamps?pageSize=100&{query}"), token).await, 200).await;
    page["items"].as_array().expect("items").clone()
}

async fn the_inventory_loads_lists_counts_and_refuses_bad_loads(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Stamp Vault").await;
    let token = app.token(&tenant).await;
    let certificate = STANDARD.encode(one_page("e-Stamp certificate IN-MH0000500A"));
    let mut items = certificates("IN-MH0000100", 100, 3);
    items
        .as_array_mut()
        .expect("array")
        .push(json!({"denomination": 500, "referenceNo": "IN-MH0000500A", "certificateFile": certificate}));
    items.as_array_mut().expect("array").push(json!({"denomination": 500, "referenceNo": "IN-MH0000500B"}));
    let loaded = json_of(load(&app, &token, "MH", items).await, 201).await;
    assert_eq!(loaded["loaded"], 5);
    let with_pdf = loaded["stamps"].as_array().expect("stamps").iter().filter(|s| s["hasCertificate"] == true).count();
    assert_eq!(with_pdf, 1);
    // The certificate's PDF, byte for byte as loaded; a certificate without one has none.
    let stamp_id = |number: &str| {
        loaded["stamps"].as_array().expect("stamps").iter().find(|s| s["referenceNo"] == number).expect("loaded")
            ["stampId"]
            .as_i64()
            .expect("id")
    };
    let (with_file, without) = (stamp_id("IN-MH0000500A"), stamp_id("IN-MH0000500B"));
    let pdf = app.get(&format!("/api/v1/stamps/{with_file}/certificate"), &token).await;
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    assert!(pdf.headers()["content-disposition"].to_str().expect("header").contains("IN-MH0000500A.pdf"));
    assert_eq!(STANDARD.encode(pdf.bytes().await.expect("pdf")), certificate);
    expect_problem(app.get(&format!("/api/v1/stamps/{without}/certificate"), &token).await, 404, "not_found").await;

    // Refusals name the fields and load nothing.
    for (body, field) in [
        (json!({"state": "Atlantis", "denomination": certificates("X", 100, 1)}), "state"),
        (json!({"denomination": certificates("X", 100, 1)}), "state"),
        (json!({"state": "MH", "denomination": []}), "denomination"),
        (
            json!({"state": "MH", "denomination": [{"denomination": 0, "referenceNo": "OK-1"}]}),
            "denomination[0].denomination",
        ),
        (
            json!({"state": "MH", "denomination": [{"denomination": 100, "referenceNo": " bad"}]}),
            "denomination[0].referenceNo",
        ),
        (
            json!({"state": "MH", "denomination": [{"denomination": 100, "referenceNo": "D-1"}, {"denomination": 100, "referenceNo": "d-1"}]}),
            "denomination[1].referenceNo",
        ),
        (
            json!({"state": "MH", "denomination": [{"denomination": 100, "referenceNo": "P-1", "certificateFile": STANDARD.encode(b"not a pdf")}]}),
            "denomination[0].certificateFile",
        ),
    ] {
        let problem = expect_problem(app.post("/api/v1/stamps", &token, body).await, 400, "validation_failed").await;
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    // A number already in stock (ignoring case) refuses the whole load.
    let again = json!([{"denomination": 100, "referenceNo": "NEW-1"}, {"denomination": 100, "referenceNo": "in-mh00001000000"}]);
    expect_problem(load(&app, &token, "MH", again).await, 409, "conflict").await;
    assert_eq!(all_stamps(&app, &token, "").await.len(), 5, "nothing of the refused loads");

    // Listing, filtering, counting.
    assert_eq!(all_stamps(&app, &token, "state=MH&denomination=100").await.len(), 3);
    assert_eq!(all_stamps(&app, &token, "searchText=500a").await.len(), 1);
    assert_eq!(all_stamps(&app, &token, "status=allocated").await.len(), 0);
    expect_problem(app.get("/api/v1/stamps?status=lost", &token).await, 400, "validation_failed").await;
    let stock = stock_of(&app, &token, "MH").await;
    assert_eq!((stock[&100]["available"].as_i64(), stock[&500]["available"].as_i64()), (Some(3), Some(2)));
    let id = loaded["stamps"][0]["stampId"].as_i64().expect("id");
    let one = json_of(app.get(&format!("/api/v1/stamps/{id}"), &token).await, 200).await;
    assert_eq!(one["status"], "available");

    // Another tenant sees none of it.
    let other = app.tenant("Other Vault").await;
    let other_token = app.token(&other).await;
    expect_problem(app.get(&format!("/api/v1/stamps/{id}"), &other_token).await, 404, "not_found").await;
    let foreign = format!("/api/v1/stamps/{with_file}/certificate");
    expect_problem(app.get(&foreign, &other_token).await, 404, "not_found").await;
    assert!(stock_of(&app, &other_token, "MH").await.is_empty());
    expect_problem(app.post(&format!("/api/v1/stamps/{id}/retire"), &other_token, json!({})).await, 404, "not_found")
        .await;

    // Retiring takes a certificate out of stock for good.
    let retired = json_of(app.post(&format!("/api/v1/stamps/{id}/retire"), &token, json!({})).await, 200).await;
    assert_eq!(retired["status"], "retired");
    expect_problem(app.post(&format!("/api/v1/stamps/{id}/retire"), &token, json!({})).await, 409, "state_conflict")
        .await;
    assert_eq!(stock_of(&app, &token, "MH").await[&100]["available"], 2);

    // A state as integrators spell it (code in any case, `IN-`, name) is kept as its code.
    for (said, number) in [("in-mh", "SP-1"), ("maharashtra", "SP-2"), ("Jammu & Kashmir", "SP-3")] {
        let spelt = json_of(load(&app, &other_token, said, certificates(number, 100, 1)).await, 201).await;
        let kept = spelt["stamps"][0]["state"].as_str().unwrap_or_default().to_string();
        assert_eq!(kept, if said.starts_with('J') { "JK" } else { "MH" }, "{said}: {spelt}");
    }
}

async fn articles_are_shipped_per_state_and_edited_per_tenant(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Article Bank").await;
    let token = app.token(&tenant).await;
    let codes = |list: &Value| -> BTreeSet<String> {
        list["items"]
            .as_array()
            .expect("items")
            .iter()
            .map(|a| a["articleCode"].as_str().expect("code").to_string())
            .collect()
    };
    let delhi =
        json_of(app.post("/api/v1/stamps/article-codes", &token, json!({"stateCode": " dl "})).await, 200).await;
    assert_eq!(delhi["stateCode"], "DL");
    let agreement =
        delhi["items"].as_array().expect("items").iter().find(|a| a["articleCode"] == "5(c)").expect("5(c)");
    assert_eq!((agreement["dutyKind"].as_str(), agreement["fixedDuty"].as_i64()), (Some("fixed"), Some(50)));
    assert!(agreement["source"].as_str().expect("source").contains("Indian Stamp Act, 1899"));
    for state in ["MH", "KA"] {
        let list =
            json_of(app.post("/api/v1/stamps/article-codes", &token, json!({"stateCode": state})).await, 200).await;
        assert!(codes(&list).len() >= 5, "{list}");
    }
    let none = json_of(app.post("/api/v1/stamps/article-codes", &token, json!({"stateCode": "ZZ"})).await, 200).await;
    assert!(codes(&none).is_empty());
    expect_problem(
        app.post("/api/v1/stamps/article-codes", &token, json!({"stateCode": ""})).await,
        400,
        "validation_failed",
    )
    .await;

    // The tenant changes a shipped article, adds one and hides one.
    let changed = json_of(
        app.put(
            "/api/v1/stamps/article-codes/DL/5(c)",
            &token,
            json!({"description": "Agreement (our counsel's reading)", "dutyKind": "fixed", "fixedDuty": 100}),
        )
        .await,
        200,
    )
    .await;
    assert_eq!(
        (changed["fixedDuty"].as_i64(), changed["edited"].as_bool(), changed["shipped"].as_bool()),
        (Some(100), Some(true), Some(true))
    );
    json_of(
        app.put(
            "/api/v1/stamps/article-codes/DL/99Z",
            &token,
            json!({"description": "Our own", "dutyKind": "ad_valorem", "dutyRule": "0.1%"}),
        )
        .await,
        200,
    )
    .await;
    assert_eq!(app.delete("/api/v1/stamps/article-codes/DL/4", &token).await.status(), 204);
    expect_problem(app.delete("/api/v1/stamps/article-codes/DL/4", &token).await, 404, "not_found").await;
    let edited = json_of(app.post("/api/v1/stamps/article-codes", &token, json!({"stateCode": "DL"})).await, 200).await;
    let edited_codes = codes(&edited);
    assert!(edited_codes.contains("99Z") && !edited_codes.contains("4"), "{edited}");
    for (body, field) in [
        (json!({"description": "x", "dutyKind": "fixed"}), "fixedDuty"),
        (json!({"description": "x", "dutyKind": "varies", "fixedDuty": 10}), "fixedDuty"),
        (json!({"description": "x", "dutyKind": "percent"}), "dutyKind"),
        (json!({"dutyKind": "varies"}), "description"),
    ] {
        let problem =
            expect_problem(app.put("/api/v1/stamps/article-codes/DL/7", &token, body).await, 400, "validation_failed")
                .await;
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    expect_problem(
        app.put("/api/v1/stamps/article-codes/ZZ/7", &token, json!({"description": "x", "dutyKind": "varies"})).await,
        400,
        "validation_failed",
    )
    .await;
    // Another tenant still sees the shipped table.
    let other = app.tenant("Plain Bank").await;
    let other_token = app.token(&other).await;
    let plain =
        json_of(app.post("/api/v1/stamps/article-codes", &other_token, json!({"stateCode": "DL"})).await, 200).await;
    assert_eq!(codes(&plain), codes(&delhi));
}

async fn concurrent_initiations_on_two_instances_take_every_stamp_once(backend: Backend) {
    let first = spawn(backend).await;
    let (database, blob) = (first.state.services.config.database_url(), first.state.services.config.blob_url());
    let key = first.state.services.config.data_dir.join("master.key");
    let vault = first.state.services.config.key_vault_dir();
    let second = spawn_with(backend, |config| {
        config.database_url = Some(database);
        config.blob_url = Some(blob);
        // Instances of one installation share its master key and key vault (README: Data at rest).
        config.master_key_path = Some(key);
        config.tenant_key_vault = Some(vault);
    })
    .await;
    let tenant = first.tenant("Busy Lender").await;
    let token = first.token(&tenant).await;
    // Ten papers of Rs 100 and four of Rs 50: fourteen requests for Rs 100 can be met twelve
    // times (ten single papers, then two pairs of fifties).
    json_of(load(&first, &token, "DL", certificates("IN-DL-C", 100, 10)).await, 201).await;
    json_of(load(&first, &token, "DL", certificates("IN-DL-F", 50, 4)).await, 201).await;
    let pdf = STANDARD.encode(agreement());
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..14 {
        let app = if i % 2 == 0 { &first } else { &second };
        let (url, client, token) = (app.url("/api/v1/workflows/initiate-and-sign"), app.client.clone(), token.clone());
        let body = stamped_request(&pdf, "DL", 100, &[&format!("borrower{i}@x.test")]);
        tasks.spawn(async move {
            let response = client.post(url).bearer_auth(token).json(&body).send().await.expect("post");
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.expect("json"))
        });
    }
    let mut started = BTreeSet::new();
    let mut refused = 0;
    while let Some(done) = tasks.join_next().await {
        let (status, body) = done.expect("task");
        match status {
            201 => assert!(started.insert(body["workflowId"].as_i64().expect("id"))),
            409 => {
                assert_eq!(body["code"], "out_of_stock", "{body}");
                refused += 1;
            }
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!((started.len(), refused), (12, 2));
    // Every paper is allocated, to one of the started workflows, each of which got Rs 100.
    let allocated = all_stamps(&first, &token, "status=allocated").await;
    assert_eq!(allocated.len(), 14, "none lost, none left");
    let mut per_workflow: BTreeMap<i64, i64> = BTreeMap::new();
    for stamp in &allocated {
        assert_eq!(stamp["pageAttached"], true);
        *per_workflow.entry(stamp["workflowId"].as_i64().expect("workflow")).or_default() +=
            stamp["denomination"].as_i64().expect("denomination");
    }
    assert_eq!(per_workflow.keys().copied().collect::<BTreeSet<_>>(), started);
    assert!(per_workflow.values().all(|sum| *sum == 100), "{per_workflow:?}");
    let stock = stock_of(&second, &token, "DL").await;
    assert_eq!((stock[&100]["available"].as_i64(), stock[&50]["available"].as_i64()), (Some(0), Some(0)));
    // Out of stock stored nothing: only the started workflows exist.
    let listed = json_of(first.get("/api/v1/workflows?pageSize=100", &token).await, 200).await;
    assert_eq!(listed["totalCount"], 12);
}

/// The text of page `page` by poppler's pdftotext (not our own reader).
fn page_text(pdf: &[u8], page: usize) -> String {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("in.pdf");
    std::fs::write(&path, pdf).expect("write");
    let n = page.to_string();
    let output = Command::new("pdftotext")
        .args(["-f", &n, "-l", &n])
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils)");
    String::from_utf8_lossy(&output.stdout).to_string()
}

async fn a_stamped_agreement_is_signed_with_its_certificate_pages_first(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Stamped Lender").await;
    let token = app.token(&tenant).await;
    // Rs 150 of duty: the tenant's own certificate PDF for Rs 100 and a Rs 50 paper without one.
    let certificate = STANDARD.encode(one_page("e-Stamp Certificate No. IN-DL77770001 Rs 100"));
    let items = json!([
        {"denomination": 100, "referenceNo": "IN-DL77770001", "certificateFile": certificate},
        {"denomination": 50, "referenceNo": "IN-DL77770002"}
    ]);
    json_of(load(&app, &token, "DL", items).await, 201).await;
    let pdf = agreement();
    let signers = ["borrower@home.test", "officer@lender.test"];
    let started = json_of(
        app.post(
            "/api/v1/workflows/initiate-and-sign",
            &token,
            stamped_request(&STANDARD.encode(&pdf), "DL", 150, &signers),
        )
        .await,
        201,
    )
    .await;
    let workflow_id = started["workflowId"].as_i64().expect("id");
    for email in signers {
        sign_typed(&link_of(&started, email), email).await;
    }
    let response = app.post("/api/v1/documents/download", &token, json!({"workflowid": workflow_id})).await;
    assert_eq!(response.status(), 200);
    let signed = response.bytes().await.expect("pdf").to_vec();
    let report = pdfsig(&signed);
    assert_eq!(report.matches("Signature is Valid").count(), 2, "{report}");
    assert!(!report.contains("Signature is Invalid"), "{report}");
    pyhanko_validates(&signed, &[cert_pem(&app.state.services.keys.ca.cert_der).as_slice()]);
    // The certificate pages come first (the tenant's own, then Signet's), then the agreement,
    // and the signers' boxes stayed on the agreement's second page.
    assert_eq!(signet_pdf::inspect(&signed).expect("opens").pages, 4);
    assert!(page_text(&signed, 1).contains("IN-DL77770001"), "{}", page_text(&signed, 1));
    let made = page_text(&signed, 2);
    assert!(made.contains("e-Stamp certificate") && made.contains("IN-DL77770002") && made.contains("Delhi"), "{made}");
    assert!(made.contains("borrower"), "the first party is named: {made}");
    assert!(page_text(&signed, 3).contains("Loan agreement page 1"));
    let signatures = signet_pdf::signatures(&signed).expect("signatures");
    assert_eq!(signatures.len(), 2);
    let stamps = all_stamps(&app, &token, "status=allocated").await;
    assert_eq!(stamps.len(), 2);
    assert!(stamps.iter().all(|s| s["workflowId"] == workflow_id));
    // The workflow's trail names the certificates.
    let trail = json_of(app.get(&format!("/api/v1/workflows/{workflow_id}/audit"), &token).await, 200).await;
    assert!(trail.to_string().contains("stamps.allocated") && trail.to_string().contains("IN-DL77770002"), "{trail}");

    // No stock left: refused, nothing taken or stored; a loan record needs eStampType digital.
    expect_problem(
        app.post(
            "/api/v1/workflows/initiate-and-sign",
            &token,
            stamped_request(&STANDARD.encode(&pdf), "DL", 150, &signers),
        )
        .await,
        409,
        "out_of_stock",
    )
    .await;
    let mut digital = stamped_request(&STANDARD.encode(&pdf), "DL", 150, &signers);
    digital["eStampPayload"] = json!({"loan": {}});
    expect_problem(app.post("/api/v1/workflows/initiate-and-sign", &token, digital).await, 400, "validation_failed")
        .await;
    for (field, value) in [("eStampType", json!("paper")), ("state", json!("XX")), ("denomination", json!(0))] {
        let mut body = stamped_request(&STANDARD.encode(&pdf), "DL", 150, &signers);
        body[field] = value;
        let problem = expect_problem(
            app.post("/api/v1/workflows/initiate-and-sign", &token, body).await,
            400,
            "validation_failed",
        )
        .await;
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    let listed = json_of(app.get("/api/v1/workflows", &token).await, 200).await;
    assert_eq!(listed["totalCount"], 1);
}

async fn ended_workflows_release_or_retire_their_stamps_and_low_stock_is_announced(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = spawn_with(backend, |config| {
        config.workers = true;
        config.worker_poll_ms = 50;
        config.outbound_allow_private = true;
        config.smtp_url = Some(smtp.url());
    })
    .await;
    let tenant = app.tenant("Careful Lender").await;
    let token = app.token(&tenant).await;
    let (url, inbox) = receiver().await;
    json_of(app.post("/api/v1/webhooks", &token, json!({"url": url, "eventTypes": ["stamps.low_stock"]})).await, 201)
        .await;
    let settings = json!({"lowStockThreshold": 2, "alertEmails": ["stock@lender.test"]});
    json_of(app.put("/api/v1/stamps/settings", &token, settings.clone()).await, 200).await;
    assert_eq!(json_of(app.get("/api/v1/stamps/settings", &token).await, 200).await, settings);
    expect_problem(
        app.put("/api/v1/stamps/settings", &token, json!({"lowStockThreshold": -1, "alertEmails": ["nope"]})).await,
        400,
        "validation_failed",
    )
    .await;
    json_of(load(&app, &token, "KA", certificates("IN-KA-", 200, 4)).await, 201).await;
    let pdf = STANDARD.encode(agreement());
    let mut workflows = Vec::new();
    for i in 0..3 {
        let signers = [format!("first{i}@x.test"), format!("second{i}@x.test")];
        let body = stamped_request(&pdf, "KA", 200, &[&signers[0], &signers[1]]);
        let started = json_of(app.post("/api/v1/workflows/initiate-and-sign", &token, body).await, 201).await;
        workflows.push((started["workflowId"].as_i64().expect("id"), started));
    }
    // The second allocation brought the stock from 3 to 2: one alert, by webhook and e-mail.
    let mail = smtp.wait_for("stock@lender.test", "Low stamp paper stock").await;
    assert!(mail.to_string().contains("Karnataka"), "{mail}");
    for _ in 0..200 {
        if !inbox.lock().expect("lock").is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    let hooks = inbox.lock().expect("lock").clone();
    assert_eq!(hooks.len(), 1, "one alert per fall: {hooks:?}");
    let hook: Value = serde_json::from_str(&hooks[0]).expect("json");
    assert_eq!((hook["type"].as_str(), hook["data"]["available"].as_i64()), (Some("stamps.low_stock"), Some(2)));
    let alerts = smtp.messages().iter().filter(|m| m.to_string().contains("Low stamp paper stock")).count();
    assert_eq!(alerts, 1);
    let stock = stock_of(&app, &token, "KA").await;
    assert_eq!((stock[&200]["available"].as_i64(), stock[&200]["low"].as_bool()), (Some(1), Some(true)));

    // Cancelled before anyone signed: back to stock.
    let (cancelled, _) = &workflows[0];
    let inactive =
        app.post(&format!("/api/v1/workflows/{cancelled}/inactive"), &token, json!({"workflowid": cancelled})).await;
    assert!(inactive.status().is_success(), "{}", inactive.status());
    // Declined after the first signer signed: retired.
    let (declined, started) = &workflows[1];
    sign_typed(&link_of(started, "first1@x.test"), "First").await;
    let decline = app
        .post(
            &format!("/api/v1/workflows/{declined}/decline"),
            &token,
            json!({"workflowId": declined, "reason": "withdrawn"}),
        )
        .await;
    assert!(decline.status().is_success(), "{}", decline.status());
    let stock = stock_of(&app, &token, "KA").await;
    let counts = ["available", "allocated", "retired"].map(|k| stock[&200][k].as_i64().unwrap_or(-1));
    assert_eq!(counts, [2, 1, 1], "{stock:?}");
    let retired = all_stamps(&app, &token, "status=retired").await;
    assert_eq!(retired[0]["workflowId"].as_i64(), Some(*declined));
    let released = all_stamps(&app, &token, "status=available").await;
    assert!(released.iter().all(|s| s["workflowId"].is_null()));
    // Released papers are taken again.
    let body = stamped_request(&pdf, "KA", 200, &["again@x.test"]);
    json_of(app.post("/api/v1/workflows/initiate-and-sign", &token, body).await, 201).await;
}

async fn upload(app: &TestApp, token: &str, pdf: &[u8]) -> i64 {
    let body = json!({"documentName": "Lease.pdf", "fileData": STANDARD.encode(pdf)});
    json_of(app.post("/api/v1/documents", token, body).await, 201).await["documentId"].as_i64().expect("documentId")
}

fn workflow_request(document_id: i64, stamp_details: Value) -> Value {
    json!({
        "templateId": 0, "workflowName": "Lease", "documentIds": [document_id], "stampDetails": stamp_details,
        "signatories": [
            {"subscriberId": 0, "emailId": "tenant@home.test", "name": "Tenant", "signingOrder": 1},
            {"subscriberId": 0, "emailId": "owner@home.test", "name": "Owner", "signingOrder": 2}
        ]
    })
}

async fn a_workflow_of_an_upload_takes_its_duty_from_the_article_or_records_it_without_the_page(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Lease Desk").await;
    let token = app.token(&tenant).await;
    json_of(load(&app, &token, "MH", certificates("IN-MH-L", 500, 2)).await, 201).await;
    let pdf = agreement();
    // No denomination: Article 5(h)(B) fixes the duty (Rs 500 as shipped).
    let details = json!({"eStampType": "inventory", "state": "MH", "articleCode": "5(h)(B)", "firstParty": "Owner",
                         "secondParty": "Tenant", "stampDutyPaidBy": "Tenant", "descriptionOfDocument": "Leave and licence"});
    let document_id = upload(&app, &token, &pdf).await;
    let started =
        json_of(app.post("/api/v1/workflows", &token, workflow_request(document_id, details.clone())).await, 201).await;
    let workflow_id = started["workflowId"].as_i64().expect("id");
    for email in ["tenant@home.test", "owner@home.test"] {
        sign_typed(&link_of(&started, email), email).await;
    }
    let response = app.post("/api/v1/documents/download", &token, json!({"workflowid": workflow_id})).await;
    let signed = response.bytes().await.expect("pdf").to_vec();
    let report = pdfsig(&signed);
    assert_eq!(report.matches("Signature is Valid").count(), 2, "{report}");
    pyhanko_validates(&signed, &[cert_pem(&app.state.services.keys.ca.cert_der).as_slice()]);
    assert_eq!(signet_pdf::inspect(&signed).expect("opens").pages, 3);
    let front = page_text(&signed, 1);
    assert!(front.contains("5(h)(B)") && front.contains("Leave and licence") && front.contains("500"), "{front}");

    // The upload itself is unchanged and free: the workflow has a stamped copy.
    let again = json_of(
        app.post(
            "/api/v1/workflows",
            &token,
            workflow_request(
                document_id,
                json!({
                    "eStampType": "inventory", "state": "MH", "denomination": 500, "suppressEstampPage": true
                }),
            ),
        )
        .await,
        201,
    )
    .await;
    let unstamped = app.post("/api/v1/documents/download", &token, json!({"workflowid": again["workflowId"]})).await;
    let unstamped = unstamped.bytes().await.expect("pdf").to_vec();
    assert_eq!(signet_pdf::inspect(&unstamped).expect("opens").pages, 2, "recorded without the page");
    let recorded = all_stamps(&app, &token, "status=allocated").await;
    let pages: BTreeMap<i64, bool> = recorded
        .iter()
        .map(|s| (s["workflowId"].as_i64().expect("workflow"), s["pageAttached"].as_bool().expect("bool")))
        .collect();
    assert_eq!(pages, BTreeMap::from([(workflow_id, true), (again["workflowId"].as_i64().expect("id"), false)]));

    // Refusals name the stampDetails field; nothing is taken.
    let other = upload(&app, &token, &pdf).await;
    for (details, field, status) in [
        (json!({"eStampType": "inventory", "state": "MH", "articleCode": "999"}), "stampDetails.articleCode", 400),
        (json!({"eStampType": "inventory", "state": "MH", "articleCode": "36A"}), "stampDetails.denomination", 400),
        (json!({"eStampType": "inventory", "state": "Atlantis", "denomination": 500}), "stampDetails.state", 400),
        (json!({"eStampType": "inventory", "state": "MH", "denomination": 500, "colour": "red"}), "stampDetails", 400),
        (
            json!({"eStampType": "inventory", "state": "MH", "denomination": 500, "providerRef": "EST-1"}),
            "stampDetails.providerRef",
            400,
        ),
        // No stamp provider on this server.
        (json!({"eStampType": "digital", "providerRef": "EST-1"}), "stampDetails.eStampType", 400),
    ] {
        let problem = expect_problem(
            app.post("/api/v1/workflows", &token, workflow_request(other, details)).await,
            status,
            "validation_failed",
        )
        .await;
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    let out = json!({"eStampType": "inventory", "state": "MH", "denomination": 500});
    expect_problem(app.post("/api/v1/workflows", &token, workflow_request(other, out)).await, 409, "out_of_stock")
        .await;
    // Without eStampType, stampDetails is kept as sent and takes nothing.
    json_of(app.post("/api/v1/workflows", &token, workflow_request(other, json!({"note": "paid offline"}))).await, 201)
        .await;
    assert_eq!(all_stamps(&app, &token, "status=allocated").await.len(), 2);
}
