//! Workflows end to end against a real server: upload a PDF made by reportlab, initiate with
//! signatories in order, sign through the signer page's plain form (no JavaScript), and check
//! the downloaded PDF with pdfsig and pyHanko; the event chain; the refusals.

use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_domain::TenantId;
use signet_store::Backend;
use signet_testkit::ca::{Revocation, TestCa};
use signet_testkit::on_both_backends;
use signet_testkit::pdf::{Page, reportlab_pdf};
use signet_testkit::pki::TestTsa;
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn, spawn_with};
use signet_testkit::smtp::SmtpSink;
use signet_testkit::validators::{cert_pem, pdfsig, pyhanko_adesverify, pyhanko_validates};

use crate::support::{browser, dss_vouches_for, guided, signer_p12, within_a_minute};

on_both_backends!(
    three_sequential_signers_each_add_a_signature_that_validates,
    a_parallel_group_signs_at_once_and_both_signatures_survive,
    decline_and_delegate_through_the_signer_page,
    bad_initiations_are_refused_and_store_nothing,
    uploads_refuse_what_is_not_a_pdf,
    another_tenants_workflow_is_not_found,
    initiate_and_sign_applies_the_first_signature_at_its_coordinates,
    optimized_initiation_takes_documents_and_emails_in_order,
    a_signing_profile_signs_for_its_signer_when_their_turn_comes,
    with_a_tsa_signatures_are_timestamped_and_the_final_document_gets_a_document_timestamp,
    each_signature_gets_its_validation_data_within_a_minute_from_an_ocsp_or_a_crl_only_ca,
    without_a_tsa_the_audit_trail_says_each_document_stays_at_b_b,
    signers_are_invited_by_email_in_order_and_told_the_outcome,
    mail_waits_in_the_queue_while_the_smtp_server_is_down,
    the_sender_delegates_declines_links_deactivates_and_deletes,
    comments_categories_inactive_documents_and_attachments,
    the_housekeeping_job_reminds_and_expires,
    an_anchor_text_places_the_signature_below_it,
    a_summary_is_extracted_once_and_then_cached,
    redirects_expiring_links_completed_workflows_and_huge_attachments,
    signer_links_have_limits_count_real_views_only_and_can_be_revoked,
    a_failing_file_write_leaves_no_half_built_workflow,
    fields_are_filled_in_with_each_signature,
    a_signer_is_guided_through_the_places_on_the_pages_in_a_browser,
);

/// A service agreement of `pages` pages, each with a "Signatures:" line to anchor to.
fn agreement(pages: u32) -> Vec<u8> {
    let pages: Vec<Page> =
        (1..=pages).map(|i| Page::text(&format!("Service agreement page {i}")).line(200, "Signatures:")).collect();
    reportlab_pdf(&pages)
}

struct Sender {
    token: String,
    tenant_id: TenantId,
}

async fn sender(app: &TestApp, name: &str) -> Sender {
    let tenant = app.tenant(name).await;
    Sender { token: app.token(&tenant).await, tenant_id: tenant.tenant_id }
}

async fn upload(app: &TestApp, who: &Sender, pdf: &[u8], name: &str) -> i64 {
    let body = json!({"documentName": name, "fileData": STANDARD.encode(pdf)});
    let response = app.post("/api/v1/documents", &who.token, body).await;
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.expect("json");
    body["documentId"].as_i64().expect("documentId")
}

async fn initiate(app: &TestApp, who: &Sender, body: Value) -> Value {
    let response = app.post("/api/v1/workflows", &who.token, body).await;
    let status = response.status();
    let body: Value = response.json().await.expect("json");
    assert_eq!(status, 201, "{body}");
    body
}

fn signatories(list: &[(&str, i32)]) -> Value {
    Value::Array(
        list.iter()
            .map(|(email, order)| json!({"subscriberId": 0, "emailId": email, "name": email.split('@').next(), "signingOrder": order}))
            .collect(),
    )
}

fn url_of(initiated: &Value, email: &str) -> String {
    initiated["signingUrls"]
        .as_array()
        .expect("signingUrls")
        .iter()
        .find(|u| u["emailId"] == email)
        .and_then(|u| u["url"].as_str())
        .expect("url for signatory")
        .to_string()
}

/// Signs with the typed-name form exactly as a browser without JavaScript posts it.
async fn sign_typed(link: &str, name: &str) -> reqwest::Response {
    let http = browser();
    let page = http.get(link).send().await.expect("page");
    assert_eq!(page.status(), 200, "signer page");
    let html = page.text().await.expect("html");
    assert!(html.contains("typedName"), "typed form on the page");
    // The first document's pages are rendered into the page (phones cannot show PDFs inline).
    let first_page =
        html.split("src=\"").find(|rest| rest.contains("/pages/1\"")).and_then(|rest| rest.split('"').next());
    let first_page = first_page.expect("a rendered first page in the signer page");
    let origin = link.split("/sign/").next().expect("origin");
    let image = http.get(format!("{origin}{first_page}")).send().await.expect("page image");
    assert_eq!(image.headers()["content-type"], "image/png");
    http.post(format!("{link}/sign"))
        .form(&[("mode", "typed"), ("typedName", name), ("font", "handwriting"), ("consent", "on")])
        .send()
        .await
        .expect("sign")
}

async fn download(app: &TestApp, who: &Sender, workflow_id: i64) -> Vec<u8> {
    let response = app.post("/api/v1/documents/download", &who.token, json!({"workflowid": workflow_id})).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    response.bytes().await.expect("pdf").to_vec()
}

/// pyHanko's validation with the server's platform CA (DER) and `more_roots` (PEM) as trust
/// roots; its report.
fn pyhanko_trusting(pdf: &[u8], platform_ca: &[u8], more_roots: &[&[u8]]) -> String {
    let platform = cert_pem(platform_ca);
    let roots: Vec<&[u8]> = std::iter::once(platform.as_slice()).chain(more_roots.iter().copied()).collect();
    pyhanko_validates(pdf, &roots)
}

async fn three_sequential_signers_each_add_a_signature_that_validates(backend: Backend) {
    let app = spawn(backend).await;
    let dir = tempfile::tempdir().expect("tmp");
    let who = sender(&app, "Northwind Lending").await;
    let document_id = upload(&app, &who, &agreement(2), "Loan agreement.pdf").await;
    let people = [("asha@borrower.test", 1), ("ravi@guarantor.test", 2), ("meera@lender.test", 3)];
    let initiated = initiate(
        &app,
        &who,
        json!({
            "templateId": 0,
            "workflowName": "Loan 2026-0042",
            "referenceNo": "LN-0042",
            "documentIds": [document_id],
            "signatories": signatories(&people),
        }),
    )
    .await;
    let workflow_id = initiated["workflowId"].as_i64().expect("workflowId");
    assert_eq!(initiated["signingUrls"].as_array().map(Vec::len), Some(3));

    // Out of turn: the second signatory's link does not open a signing page yet.
    let early = browser().get(url_of(&initiated, "ravi@guarantor.test")).send().await.expect("early");
    assert_eq!(early.status(), 409);
    let early_sign = browser()
        .post(format!("{}/sign", url_of(&initiated, "ravi@guarantor.test")))
        .form(&[("mode", "typed"), ("typedName", "Ravi"), ("consent", "on")])
        .send()
        .await
        .expect("early sign");
    assert_eq!(early_sign.status(), 409);

    // Without consent nothing is signed and the page says why.
    let no_consent = browser()
        .post(format!("{}/sign", url_of(&initiated, "asha@borrower.test")))
        .form(&[("mode", "typed"), ("typedName", "Asha")])
        .send()
        .await
        .expect("no consent");
    assert_eq!(no_consent.status(), 400);
    assert!(no_consent.text().await.expect("html").contains("agree to sign"));

    for (email, _) in people {
        let name = email.split('@').next().expect("name");
        let signed = sign_typed(&url_of(&initiated, email), name).await;
        assert_eq!(signed.status(), 200, "{email} signs");
        assert!(signed.text().await.expect("html").contains("You signed"));
    }

    // The link signs nothing more: it leads to the signer's copy; signing again is refused.
    let link = url_of(&initiated, "asha@borrower.test");
    let again = browser().get(&link).send().await.expect("again");
    assert_eq!(again.status(), 303);
    let to = again.headers()["location"].to_str().expect("location");
    assert!(to.ends_with("/copy") && link.ends_with(to.trim_end_matches("/copy")), "{to}");
    assert_eq!(sign_typed_status(&link).await, 410);

    let details: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}"), &who.token).await.json().await.expect("json");
    assert_eq!(details["state"], "completed", "{details}");
    let states: Vec<&str> =
        details["signatories"].as_array().expect("signatories").iter().filter_map(|s| s["state"].as_str()).collect();
    assert_eq!(states, ["signed", "signed", "signed"]);
    assert_eq!(details["documents"][0]["version"], 3);

    let pdf = download(&app, &who, workflow_id).await;
    let report = pdfsig(&pdf);
    assert_eq!(report.matches("Signature is Valid").count(), 3, "{report}");
    assert!(!report.contains("Signature is Invalid"), "{report}");
    pyhanko_trusting(&pdf, &app.state.services.keys.ca.cert_der, &[]);
    completion_certificate_holds_everything(&app, &who, workflow_id, &pdf, dir.path()).await;

    // The event chain records every step and verifies; tampering is detected.
    let audit: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}/audit"), &who.token).await.json().await.expect("json");
    assert_eq!(audit["verified"], true, "{audit}");
    let actions: Vec<&str> =
        audit["events"].as_array().expect("events").iter().filter_map(|e| e["action"].as_str()).collect();
    for expected in
        ["workflow.created", "signatory.notified", "signatory.viewed", "signatory.signed", "workflow.completed"]
    {
        assert!(actions.contains(&expected), "{expected} in {actions:?}");
    }
    assert_eq!(actions.iter().filter(|a| **a == "signatory.signed").count(), 3);
    let signed_event =
        audit["events"].as_array().expect("events").iter().find(|e| e["action"] == "signatory.signed").expect("signed");
    assert_eq!(signed_event["detail"]["consent"], true);
    assert!(signed_event["ip"].as_str().is_some_and(|ip| ip.starts_with("127.")));
    app.store.execute_for_tests("UPDATE workflow_events SET detail = '{}' WHERE seq = 2").await.expect("tamper");
    let tampered: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}/audit"), &who.token).await.json().await.expect("json");
    assert_eq!(tampered["verified"], false);
    assert_eq!(tampered["brokenAt"], 2);
}

async fn a_parallel_group_signs_at_once_and_both_signatures_survive(backend: Backend) {
    let app = spawn(backend).await;
    let who = sender(&app, "Parallel Co").await;
    let document_id = upload(&app, &who, &agreement(1), "Board resolution.pdf").await;
    let people = [("director.one@board.test", 1), ("director.two@board.test", 1)];
    let initiated = initiate(
        &app,
        &who,
        json!({"templateId": 0, "workflowName": "Resolution", "documentIds": [document_id], "signatories": signatories(&people)}),
    )
    .await;
    let workflow_id = initiated["workflowId"].as_i64().expect("id");
    let (one, two) = (url_of(&initiated, "director.one@board.test"), url_of(&initiated, "director.two@board.test"));
    let (a, b) = tokio::join!(sign_typed(&one, "Director One"), sign_typed(&two, "Director Two"));
    assert_eq!(a.status(), 200);
    assert_eq!(b.status(), 200);
    let pdf = download(&app, &who, workflow_id).await;
    let report = pdfsig(&pdf);
    assert!(report.matches("Signature is Valid").count() >= 2 && !report.contains("Signature is Invalid"), "{report}");
    pyhanko_trusting(&pdf, &app.state.services.keys.ca.cert_der, &[]);
}

async fn decline_and_delegate_through_the_signer_page(backend: Backend) {
    let app = spawn(backend).await;
    let who = sender(&app, "Delegation Ltd").await;
    let pdf = agreement(1);
    let document_id = upload(&app, &who, &pdf, "Contract.pdf").await;
    let people = [("busy.manager@client.test", 1), ("final.approver@client.test", 2)];
    let initiated = initiate(
        &app,
        &who,
        json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&people)}),
    )
    .await;
    let workflow_id = initiated["workflowId"].as_i64().expect("id");
    let manager = url_of(&initiated, "busy.manager@client.test");

    // Delegating to oneself or to someone already signing is refused on the page.
    let to_self = browser()
        .post(format!("{manager}/delegate"))
        .form(&[("email", "Busy.Manager@client.test"), ("reason", "away")])
        .send()
        .await
        .expect("self");
    assert_eq!(to_self.status(), 400);
    let to_other_signer = browser()
        .post(format!("{manager}/delegate"))
        .form(&[("email", "final.approver@client.test"), ("reason", "away")])
        .send()
        .await
        .expect("other");
    assert_eq!(to_other_signer.status(), 400);

    let delegated = browser()
        .post(format!("{manager}/delegate"))
        .form(&[("email", "deputy@client.test"), ("name", "Deputy"), ("reason", "On leave this week")])
        .send()
        .await
        .expect("delegate");
    assert_eq!(delegated.status(), 200);
    assert_eq!(browser().get(&manager).send().await.expect("old link").status(), 410);

    let details: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}"), &who.token).await.json().await.expect("json");
    let deputy = details["signatories"]
        .as_array()
        .expect("signatories")
        .iter()
        .find(|s| s["emailId"] == "deputy@client.test")
        .expect("deputy")
        .clone();
    assert_eq!(deputy["state"], "notified");
    assert_eq!(deputy["signingOrder"], 1);

    // The deputy's link comes from the store the same way as the others' (and by e-mail).
    let deputy_row =
        app.store.signatory(deputy["signatoryId"].as_i64().expect("id").into()).await.expect("row").expect("some").0;
    let deputy_link = signet_server::workflows::links::signer_url(&app.state.services, &deputy_row);
    assert_eq!(sign_typed(&deputy_link, "Deputy").await.status(), 200);

    let approver = url_of(&initiated, "final.approver@client.test");
    let empty_reason =
        browser().post(format!("{approver}/decline")).form(&[("reason", " ")]).send().await.expect("decline");
    assert_eq!(empty_reason.status(), 400);
    let declined = browser()
        .post(format!("{approver}/decline"))
        .form(&[("reason", "The amount is wrong")])
        .send()
        .await
        .expect("decline");
    assert_eq!(declined.status(), 200);
    let details: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}"), &who.token).await.json().await.expect("json");
    assert_eq!(details["state"], "declined");
    assert_eq!(details["stateReason"], "The amount is wrong");
    // Nothing more can happen through the links.
    assert_eq!(sign_typed_status(&approver).await, 410);
}

async fn sign_typed_status(link: &str) -> u16 {
    browser()
        .post(format!("{link}/sign"))
        .form(&[("mode", "typed"), ("typedName", "X"), ("consent", "on")])
        .send()
        .await
        .expect("sign")
        .status()
        .as_u16()
}

async fn bad_initiations_are_refused_and_store_nothing(backend: Backend) {
    let app = spawn(backend).await;
    let who = sender(&app, "Strict Inc").await;
    let document_id = upload(&app, &who, &agreement(1), "Doc.pdf").await;
    let cases = [
        (
            "invalid email",
            json!([{"subscriberId": 0, "emailId": "not-an-email", "signingOrder": 1}]),
            "signatories[0].emailId",
        ),
        (
            "duplicate",
            json!([{"subscriberId": 0, "emailId": "a@x.test", "signingOrder": 1}, {"subscriberId": 0, "emailId": "A@x.test", "signingOrder": 2}]),
            "signatories[1].emailId",
        ),
        (
            "gap in the order",
            json!([{"subscriberId": 0, "emailId": "a@x.test", "signingOrder": 1}, {"subscriberId": 0, "emailId": "b@x.test", "signingOrder": 3}]),
            "signatories",
        ),
        ("no signatories", json!([]), "signatories"),
        (
            "unknown user",
            json!([{"subscriberId": 999999, "emailId": "a@x.test", "signingOrder": 1}]),
            "signatories[0].subscriberId",
        ),
    ];
    for (what, list, field) in cases {
        let response = app
            .post(
                "/api/v1/workflows",
                &who.token,
                json!({"templateId": 0, "documentIds": [document_id], "signatories": list}),
            )
            .await;
        let problem = expect_problem(response, 400, "validation_failed").await;
        assert!(problem["errors"][field].is_array(), "{what}: {problem}");
    }
    let unknown_field = app
        .post("/api/v1/workflows", &who.token, json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("a@x.test", 1)]), "surprise": 1}))
        .await;
    let problem = expect_problem(unknown_field, 400, "validation_failed").await;
    assert!(problem["errors"]["surprise"].is_array(), "{problem}");
    let missing_doc = app
        .post(
            "/api/v1/workflows",
            &who.token,
            json!({"templateId": 0, "documentIds": [987654], "signatories": signatories(&[("a@x.test", 1)])}),
        )
        .await;
    expect_problem(missing_doc, 400, "validation_failed").await;
    let past = app
        .post(
            "/api/v1/workflows",
            &who.token,
            json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("a@x.test", 1)]), "envelopeExpiry": "2001-01-01T00:00:00Z"}),
        )
        .await;
    expect_problem(past, 400, "validation_failed").await;
    for message in ["a bell\u{7} rings".to_string(), "x".repeat(2001)] {
        let body = json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("a@x.test", 1)]),
                          "message": message});
        let problem =
            expect_problem(app.post("/api/v1/workflows", &who.token, body).await, 400, "validation_failed").await;
        assert!(problem["errors"]["message"].is_array(), "{problem}");
    }

    // Nothing was stored: the document is still free for a valid workflow, and the list is empty.
    let list: Value = app.get("/api/v1/workflows", &who.token).await.json().await.expect("json");
    assert_eq!(list["totalCount"], 0, "{list}");
    let ok = initiate(
        &app,
        &who,
        json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("a@x.test", 0)])}),
    )
    .await;
    assert!(ok["workflowId"].as_i64().is_some());
    // A document belongs to one workflow.
    let reused = app
        .post(
            "/api/v1/workflows",
            &who.token,
            json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("b@x.test", 1)])}),
        )
        .await;
    expect_problem(reused, 400, "validation_failed").await;
    let list: Value = app.get("/api/v1/workflows?state=in_progress", &who.token).await.json().await.expect("json");
    assert_eq!(list["totalCount"], 1);
    let bad_state = app.get("/api/v1/workflows?state=sideways", &who.token).await;
    expect_problem(bad_state, 400, "validation_failed").await;
}

async fn uploads_refuse_what_is_not_a_pdf(backend: Backend) {
    let app = spawn(backend).await;
    let who = sender(&app, "Uploader").await;
    for (what, data) in [
        ("not base64", "%%% not base64 %%%".to_string()),
        ("not a PDF", STANDARD.encode(b"GIF89a this is not a pdf")),
        ("truncated PDF", STANDARD.encode(b"%PDF-1.7\n1 0 obj\n<<")),
        ("empty", String::new()),
    ] {
        let response =
            app.post("/api/v1/documents", &who.token, json!({"documentName": "x.pdf", "fileData": data})).await;
        let problem = expect_problem(response, 400, "validation_failed").await;
        assert!(problem["errors"]["fileData"].is_array(), "{what}: {problem}");
    }
    let bulk = app
        .post(
            "/api/v1/documents/bulk",
            &who.token,
            json!({"documents": [{"documentName": "a.pdf", "fileData": "QUJD"}, {"documentName": "b.pdf", "fileData": "QUJD"}]}),
        )
        .await;
    let problem = expect_problem(bulk, 400, "validation_failed").await;
    assert!(problem["errors"]["documents[1].fileData"].is_array(), "{problem}");
    let too_big = app
        .client
        .post(app.url("/api/v1/documents"))
        .bearer_auth(&who.token)
        .header("content-type", "application/json")
        .body(format!("{{\"fileData\": \"{}\"}}", "A".repeat(app.state.services.config.max_body_bytes + 10)))
        .send()
        .await
        .expect("big");
    expect_problem(too_big, 413, "payload_too_large").await;
}

async fn another_tenants_workflow_is_not_found(backend: Backend) {
    let app = spawn(backend).await;
    let owner = sender(&app, "Owner").await;
    let stranger = sender(&app, "Stranger").await;
    let document_id = upload(&app, &owner, &agreement(1), "Private.pdf").await;
    let initiated = initiate(
        &app,
        &owner,
        json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("a@x.test", 1)])}),
    )
    .await;
    let id = initiated["workflowId"].as_i64().expect("id");
    expect_problem(app.get(&format!("/api/v1/workflows/{id}"), &stranger.token).await, 404, "not_found").await;
    expect_problem(app.get(&format!("/api/v1/workflows/{id}/audit"), &stranger.token).await, 404, "not_found").await;
    let download = app.post("/api/v1/documents/download", &stranger.token, json!({"workflowid": id})).await;
    expect_problem(download, 404, "not_found").await;
    // Their document cannot be pulled into the stranger's workflow either.
    let stolen = app
        .post(
            "/api/v1/workflows",
            &stranger.token,
            json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("b@x.test", 1)])}),
        )
        .await;
    expect_problem(stolen, 400, "validation_failed").await;
    // A forged link leads nowhere.
    let link = url_of(&initiated, "a@x.test");
    let forged = format!("{}AAAA", &link[..link.len() - 4]);
    assert_eq!(browser().get(forged).send().await.expect("forged").status(), 404);
}

async fn initiate_and_sign_applies_the_first_signature_at_its_coordinates(backend: Backend) {
    let app = spawn(backend).await;
    let who = sender(&app, "Officer Bank").await;
    let pdf = agreement(2);
    let body = json!({
        "documentName": "Sanction letter.pdf",
        "fileData": STANDARD.encode(&pdf),
        "referenceNo": "SL-77",
        "signatories": [
            {"emailId": "officer@bank.test", "name": "Loan Officer", "signatureImage": STANDARD.encode(signet_testkit::pdf::signature_png()),
             "coordinates": [{"controlType": 1, "left": 60, "top": 600, "width": 160, "height": 60, "pageNumber": "2"}]},
            {"emailId": "customer@home.test", "name": "Customer",
             "coordinates": [{"controlType": 1, "left": 320, "top": 600, "width": 160, "height": 60, "page": "last"}]}
        ]
    });
    let response = app.post("/api/v1/workflows/initiate-and-sign", &who.token, body).await;
    let status = response.status();
    let started: Value = response.json().await.expect("json");
    assert_eq!(status, 201, "{started}");
    let workflow_id = started["workflowId"].as_i64().expect("id");
    // Only the customer still has to sign.
    let urls = started["signingUrls"].as_array().expect("urls");
    assert_eq!(urls.len(), 1, "{started}");
    assert_eq!(urls[0]["emailId"], "customer@home.test");
    let after_first = download(&app, &who, workflow_id).await;
    assert_eq!(pdfsig(&after_first).matches("Signature is Valid").count(), 1);

    assert_eq!(sign_typed(&url_of(&started, "customer@home.test"), "Customer").await.status(), 200);
    let signed = download(&app, &who, workflow_id).await;
    let report = pdfsig(&signed);
    assert!(report.matches("Signature is Valid").count() >= 2 && !report.contains("Signature is Invalid"), "{report}");
    pyhanko_trusting(&signed, &app.state.services.keys.ca.cert_der, &[]);

    // A loan record without eStampType digital, bad QR codes and images for later signers are
    // refused before anything is stored.
    for (field, extra) in [
        ("eStampType", json!({"eStampPayload": {"loan": {}}})),
        ("qrCodeCordinats[0]", json!({"qrCodeCordinats": [{"selectedPage": "MIDDLE"}]})),
        ("qrCodeCordinats", json!({"qrCodeCordinats": [{"pageNumber": "9"}]})),
        ("fileData", json!({"fileData": STANDARD.encode(b"not a pdf")})),
    ] {
        let mut body = json!({
            "documentName": "x.pdf",
            "fileData": STANDARD.encode(&pdf),
            "signatories": [{"emailId": "a@x.test"}]
        });
        for (k, v) in extra.as_object().expect("object") {
            body[k] = v.clone();
        }
        let problem = expect_problem(
            app.post("/api/v1/workflows/initiate-and-sign", &who.token, body).await,
            400,
            "validation_failed",
        )
        .await;
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    let late_image = json!({
        "fileData": STANDARD.encode(&pdf),
        "signatories": [{"emailId": "a@x.test"}, {"emailId": "b@x.test", "signatureImage": STANDARD.encode(signet_testkit::pdf::signature_png())}]
    });
    expect_problem(
        app.post("/api/v1/workflows/initiate-and-sign", &who.token, late_image).await,
        400,
        "validation_failed",
    )
    .await;
    let list: Value = app.get("/api/v1/workflows", &who.token).await.json().await.expect("json");
    assert_eq!(list["totalCount"], 1, "only the valid request made a workflow");
}

async fn optimized_initiation_takes_documents_and_emails_in_order(backend: Backend) {
    let app = spawn(backend).await;
    let who = sender(&app, "Fast Lane").await;
    let pdf = STANDARD.encode(agreement(1));
    let body = json!({
        "lstDocumentDetails": [{"documentName": "One.pdf", "fileData": pdf}, {"documentName": "Two.pdf", "fileData": pdf}],
        "signatoryEmailIds": ["first@x.test", "second@x.test"],
        "requestFrom": "crm"
    });
    let response = app.post("/api/v1/workflows/optimized", &who.token, body).await;
    let started: Value = response.json().await.expect("json");
    let workflow_id = started["workflowId"].as_i64().expect("id");
    let orders: Vec<i64> =
        started["signingUrls"].as_array().expect("urls").iter().filter_map(|u| u["sequenceNumber"].as_i64()).collect();
    assert_eq!(orders, [1, 2]);
    for email in ["first@x.test", "second@x.test"] {
        assert_eq!(sign_typed(&url_of(&started, email), email).await.status(), 200);
    }
    let details: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}"), &who.token).await.json().await.expect("json");
    assert_eq!(details["state"], "completed");
    let documents = details["documents"].as_array().expect("documents");
    assert_eq!(documents.len(), 2);
    for doc in documents {
        let id = doc["documentId"].as_i64().expect("id");
        let response = app
            .post("/api/v1/documents/download", &who.token, json!({"workflowid": workflow_id, "documentId": id}))
            .await;
        let bytes = response.bytes().await.expect("pdf");
        let report = pdfsig(&bytes);
        assert!(
            report.matches("Signature is Valid").count() >= 2 && !report.contains("Signature is Invalid"),
            "{report}"
        );
    }
    // Several documents: the download must name one.
    let ambiguous = app.post("/api/v1/documents/download", &who.token, json!({"workflowid": workflow_id})).await;
    expect_problem(ambiguous, 409, "state_conflict").await;
    let bad_email =
        json!({"lstDocumentDetails": [{"documentName": "One.pdf", "fileData": pdf}], "signatoryEmailIds": ["nope"]});
    let problem =
        expect_problem(app.post("/api/v1/workflows/optimized", &who.token, bad_email).await, 400, "validation_failed")
            .await;
    assert!(problem["errors"]["signatoryEmailIds[0]"].is_array(), "{problem}");
    let controls = json!({
        "lstDocumentDetails": [{"documentName": "One.pdf", "fileData": pdf, "controlDetails": [{"fieldName": "x", "fieldValue": "y"}]}],
        "signatoryEmailIds": ["a@x.test"]
    });
    // A value for a field the document does not have (it has no form) is named at its place.
    let problem =
        expect_problem(app.post("/api/v1/workflows/optimized", &who.token, controls).await, 400, "validation_failed")
            .await;
    assert!(problem["errors"]["lstDocumentDetails[0].controlDetails[0].fieldName"].is_array(), "{problem}");
}

async fn a_signing_profile_signs_for_its_signer_when_their_turn_comes(backend: Backend) {
    let app = spawn_with(backend, |config| {
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let who = sender(&app, "Acme Bank").await;
    let p12 = STANDARD.encode(signer_p12("s3cret"));

    let wrong = json!({"name": "Treasury", "emailId": "treasury@bank.test", "pkcs12": p12, "password": "nope"});
    let problem =
        expect_problem(app.post("/api/v1/signing-profiles", &who.token, wrong).await, 400, "validation_failed").await;
    assert!(problem["errors"]["pkcs12"].is_array(), "{problem}");
    let garbage = json!({"name": "Treasury", "emailId": "treasury@bank.test", "pkcs12": STANDARD.encode(b"garbage"), "password": "x"});
    expect_problem(app.post("/api/v1/signing-profiles", &who.token, garbage).await, 400, "validation_failed").await;

    let created = app
        .post(
            "/api/v1/signing-profiles",
            &who.token,
            json!({"name": "Treasury", "emailId": "treasury@bank.test", "pkcs12": p12, "password": "s3cret"}),
        )
        .await;
    assert_eq!(created.status(), 201);
    let profile: Value = created.json().await.expect("json");
    assert!(profile["subject"].as_str().is_some_and(|s| s.contains("Treasury Signing")), "{profile}");
    let profile_id = profile["profileId"].as_i64().expect("id");

    let document_id = upload(&app, &who, &agreement(1), "Guarantee.pdf").await;
    let people = [("customer@home.test", 1), ("treasury@bank.test", 2)];
    let not_a_signer = app
        .post(
            "/api/v1/workflows",
            &who.token,
            json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("someone@else.test", 1)]), "hsmCertificateId": profile_id}),
        )
        .await;
    expect_problem(not_a_signer, 400, "validation_failed").await;
    let initiated = initiate(
        &app,
        &who,
        json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&people), "hsmCertificateId": profile_id}),
    )
    .await;
    let workflow_id = initiated["workflowId"].as_i64().expect("id");
    assert_eq!(sign_typed(&url_of(&initiated, "customer@home.test"), "Customer").await.status(), 200);

    let mut state = String::new();
    for _ in 0..200 {
        let details: Value =
            app.get(&format!("/api/v1/workflows/{workflow_id}"), &who.token).await.json().await.expect("json");
        state = details["state"].as_str().unwrap_or_default().to_string();
        if state == "completed" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(state, "completed", "the profile signed for the treasury");
    let pdf = download(&app, &who, workflow_id).await;
    let report = pdfsig(&pdf);
    assert!(report.matches("Signature is Valid").count() >= 2 && !report.contains("Signature is Invalid"), "{report}");
    assert!(report.contains("Treasury Signing"), "the second signature is the profile's certificate: {report}");
    let audit: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}/audit"), &who.token).await.json().await.expect("json");
    let automated = audit["events"]
        .as_array()
        .expect("events")
        .iter()
        .any(|e| e["action"] == "signatory.signed" && e["detail"]["method"] == "automated");
    assert!(automated, "{audit}");

    assert_eq!(app.delete(&format!("/api/v1/signing-profiles/{profile_id}"), &who.token).await.status(), 204);
    let list: Value = app.get("/api/v1/signing-profiles", &who.token).await.json().await.expect("json");
    assert!(list[0]["revokedAt"].as_i64().is_some(), "{list}");
    expect_problem(app.delete(&format!("/api/v1/signing-profiles/{profile_id}"), &who.token).await, 404, "not_found")
        .await;
}

async fn with_a_tsa_signatures_are_timestamped_and_the_final_document_gets_a_document_timestamp(backend: Backend) {
    let tsa = TestTsa::start();
    let app = spawn_with(backend, |config| {
        config.tsa_url = Some(tsa.url.clone());
        config.outbound_allow_private = true;
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let who = sender(&app, "Timestamped").await;
    let document_id = upload(&app, &who, &agreement(1), "Deed.pdf").await;
    let people = [("one@x.test", 1), ("two@x.test", 2)];
    let initiated = initiate(
        &app,
        &who,
        json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&people)}),
    )
    .await;
    let workflow_id = initiated["workflowId"].as_i64().expect("id");
    for (email, _) in people {
        assert_eq!(sign_typed(&url_of(&initiated, email), email).await.status(), 200);
    }
    let mut timestamped = false;
    for _ in 0..200 {
        let audit: Value =
            app.get(&format!("/api/v1/workflows/{workflow_id}/audit"), &who.token).await.json().await.expect("json");
        timestamped = audit["events"].as_array().expect("events").iter().any(|e| e["action"] == "document.timestamped");
        if timestamped {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(timestamped, "the completed document got its document timestamp");
    let pdf = download(&app, &who, workflow_id).await;
    let report = pdfsig(&pdf);
    // poppler validates the two signatures; it does not check document timestamps (it lists a
    // third signature of unknown type), pyHanko checks all three.
    assert!(report.matches("Signature is Valid").count() >= 2 && !report.contains("Signature is Invalid"), "{report}");
    assert!(report.contains("Signature #3"), "the document timestamp: {report}");
    pyhanko_trusting(&pdf, &app.state.services.keys.ca.cert_der, &[tsa.root_pem.as_bytes()]);
    // The finishing step runs once: a second run finds the timestamp and changes nothing.
    let before: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}"), &who.token).await.json().await.expect("json");
    signet_server::workflows::completion::finish(&app.state.services, who.tenant_id, workflow_id.into())
        .await
        .expect("finish again");
    let after: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}"), &who.token).await.json().await.expect("json");
    assert_eq!(before["documents"][0]["version"], after["documents"][0]["version"]);
}

/// A workflow whose first signatory is a signing profile with a certificate of `ca` (it signs
/// at once, automatically) and whose second signs electronically later: (its id, the second's
/// link).
async fn treasury_then_customer(app: &TestApp, who: &Sender, ca: &TestCa, treasury: &str) -> (i64, String) {
    let p12 = STANDARD.encode(ca.signer_p12(0, "s3cret"));
    let profile = json!({"name": "Treasury", "emailId": treasury, "pkcs12": p12, "password": "s3cret"});
    let created: Value = app.post("/api/v1/signing-profiles", &who.token, profile).await.json().await.expect("json");
    let profile_id = created["profileId"].as_i64().expect("profile id");
    let document_id = upload(app, who, &agreement(1), "Facility.pdf").await;
    let people = [(treasury, 1), ("customer@home.test", 2)];
    let initiated = initiate(
        app,
        who,
        json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&people), "hsmCertificateId": profile_id}),
    )
    .await;
    (initiated["workflowId"].as_i64().expect("id"), url_of(&initiated, "customer@home.test"))
}

/// Issue 33, item 1: an automated signature with a lender's certificate (from a CA with OCSP,
/// then from one that publishes only a CRL) has its chain and revocation data in the document
/// within a minute, before anyone else signs; a CA whose CRL host is down leaves the workflow
/// saying so, and the job retries until it is back. The electronic signature after it (Signet's
/// sealing CA) is covered at completion with the final time-stamp. pyHanko's AdES validation
/// then passes with every CA and TSA server stopped: the documents carry what they need.
async fn each_signature_gets_its_validation_data_within_a_minute_from_an_ocsp_or_a_crl_only_ca(backend: Backend) {
    let tsa = TestTsa::start();
    let ocsp_ca = TestCa::start("Lender OCSP CA", Revocation::Ocsp, &["Treasury OCSP Signing"]);
    let crl_ca = TestCa::start("Lender CRL CA", Revocation::CrlOnly, &["Treasury CRL Signing"]);
    let app = spawn_with(backend, |config| {
        config.tsa_url = Some(tsa.url.clone());
        config.outbound_allow_private = true;
        config.workers = true;
        config.worker_poll_ms = 50;
        config.job_retry_base_ms = 100;
    })
    .await;
    let who = sender(&app, "Long Term Bank").await;
    let has = |seen: &[String], action: &str| seen.iter().any(|a| a == action);

    let (with_ocsp, customer) = treasury_then_customer(&app, &who, &ocsp_ca, "treasury-ocsp@bank.test").await;
    let seen = within_a_minute(&app, &who.token, with_ocsp, "document.long_term", 1).await;
    assert!(has(&seen, "document.long_term") && !has(&seen, "document.long_term_pending"), "{seen:?}");
    assert_eq!(sign_typed(&customer, "Customer").await.status(), 200);
    let seen = within_a_minute(&app, &who.token, with_ocsp, "document.timestamped", 1).await;
    assert!(has(&seen, "document.timestamped"), "{seen:?}");
    let signed = download(&app, &who, with_ocsp).await;
    let treasury = &ocsp_ca.signers[0].cert_der;
    assert!(dss_vouches_for(&signed, treasury, ocsp_ca.ca.cert_der()), "the OCSP CA's answer is in the DSS");
    // The renewal sweep knows when that final time-stamp's protection runs out: the TSA
    // certificate's end, two years on (due within three years, not within one).
    let (store, year_ms) = (&app.store, 365 * 86_400_000_i64);
    let due_within = |years: i64| store.lta_due_documents(signet_domain::now_millis() + years * year_ms, 100);
    let mut recorded = false;
    for _ in 0..600 {
        recorded = !due_within(3).await.expect("due").is_empty();
        if recorded {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(recorded, "lta_expires_at recorded at completion");
    assert!(due_within(1).await.expect("due").is_empty(), "protected for more than a year");

    crl_ca.publish(false);
    let (with_crl, customer) = treasury_then_customer(&app, &who, &crl_ca, "treasury-crl@bank.test").await;
    let seen = within_a_minute(&app, &who.token, with_crl, "document.long_term_pending", 1).await;
    assert!(has(&seen, "document.long_term_pending"), "the workflow says the data waits: {seen:?}");
    assert!(!has(&seen, "document.long_term"), "nothing added without the CRL: {seen:?}");
    crl_ca.publish(true);
    let seen = within_a_minute(&app, &who.token, with_crl, "document.long_term", 1).await;
    assert!(has(&seen, "document.long_term"), "retried once the CRL is back: {seen:?}");
    assert_eq!(sign_typed(&customer, "Customer").await.status(), 200);
    let seen = within_a_minute(&app, &who.token, with_crl, "document.timestamped", 1).await;
    assert!(has(&seen, "document.timestamped"), "{seen:?}");
    let signed_crl = download(&app, &who, with_crl).await;
    let treasury = &crl_ca.signers[0].cert_der;
    assert!(dss_vouches_for(&signed_crl, treasury, crl_ca.ca.cert_der()), "the CRL-only CA's list is in the DSS");

    let platform = cert_pem(&app.state.services.keys.ca.cert_der);
    let (ocsp_root, crl_root, tsa_root) = (ocsp_ca.ca_pem(), crl_ca.ca_pem(), tsa.root_pem.clone());
    drop((ocsp_ca, crl_ca, tsa));
    for pdf in [&signed, &signed_crl] {
        let roots: [&[u8]; 4] = [&platform, ocsp_root.as_bytes(), crl_root.as_bytes(), tsa_root.as_bytes()];
        let (passed, report) = pyhanko_adesverify(pdf, &roots, None);
        assert!(passed, "offline AdES validation:\n{report}");
    }
}

/// Issue 33, item 1: without a TSA no document can be made long-term; once the workflow is
/// complete its audit trail says which level each document reached (B-B) and why, once per
/// document however often the completion steps run.
async fn without_a_tsa_the_audit_trail_says_each_document_stays_at_b_b(backend: Backend) {
    let app = spawn_with(backend, |config| {
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let who = sender(&app, "No TSA Bank").await;
    let documents =
        [upload(&app, &who, &agreement(1), "Lease.pdf").await, upload(&app, &who, &agreement(1), "Annex.pdf").await];
    let people = [("tenant@home.test", 1), ("landlord@home.test", 2)];
    let body = json!({"templateId": 0, "documentIds": documents, "signatories": signatories(&people)});
    let initiated = initiate(&app, &who, body).await;
    let workflow_id = initiated["workflowId"].as_i64().expect("id");
    for (email, _) in people {
        assert_eq!(sign_typed(&url_of(&initiated, email), email).await.status(), 200);
    }
    let seen = within_a_minute(&app, &who.token, workflow_id, "document.level_reached", 2).await;
    assert!(!seen.iter().any(|a| a.starts_with("document.long_term")), "{seen:?}");
    signet_server::workflows::long_term::say_level_without_tsa(&app.state.services, who.tenant_id, workflow_id.into())
        .await
        .expect("said again");

    let audit: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}/audit"), &who.token).await.json().await.expect("json");
    let said: Vec<&Value> = audit["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["action"] == "document.level_reached")
        .collect();
    let mut targets: Vec<String> = said.iter().map(|e| e["target"].as_str().expect("target").to_string()).collect();
    targets.sort();
    let view: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}"), &who.token).await.json().await.expect("json");
    let ids = view["documents"].as_array().expect("documents").iter().map(|d| d["documentId"].as_i64().expect("id"));
    let mut expected: Vec<String> = ids.map(|id| format!("document:{id}")).collect();
    expected.sort();
    assert_eq!(targets, expected, "one event per document, not one per signature or per run");
    for event in said {
        let detail = &event["detail"];
        assert_eq!(detail["level"], "B-B", "{detail}");
        assert!(detail["reason"].as_str().is_some_and(|r| r.contains("no time-stamp authority")), "{detail}");
    }
}

/// The link in an e-mail's text.
fn link_in(message: &Value) -> String {
    let text = message["text"].as_str().expect("text part");
    text.split_whitespace().find(|w| w.starts_with("http")).expect("a link in the e-mail").to_string()
}

async fn signers_are_invited_by_email_in_order_and_told_the_outcome(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.mail_from = "Signet <no-reply@signet.test>".into();
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let who = sender(&app, "Mailing Bank").await;
    let document_id = upload(&app, &who, &agreement(1), "Mortgage.pdf").await;
    let body = json!({
        "templateId": 0,
        "workflowName": "Mortgage offer",
        "documentIds": [document_id],
        "sendMail": true,
        "message": "Dear both,\nplease sign by Friday <b>noon</b>.",
        "signatories": [
            {"subscriberId": 0, "emailId": "zoë@buyer.test", "name": "Zoë Buyer", "signingOrder": 1},
            {"subscriberId": 0, "emailId": "bank.officer@lender.test", "name": "Bank Officer", "signingOrder": 2}
        ]
    });
    let workflow_id = initiate(&app, &who, body).await["workflowId"].as_i64().expect("id");

    let first = smtp.wait_for("zoë@buyer.test", "Please sign: Mortgage offer").await;
    let first_invitation = first.clone();
    assert!(first["toHeader"].as_str().is_some_and(|t| t.contains("Zoë Buyer")), "{first}");
    assert!(first["from"].as_str().is_some_and(|f| f.contains("no-reply@signet.test")), "{first}");
    assert!(first["html"].as_str().is_some_and(|h| h.contains("<a href=")), "{first}");
    // The sender's message, in the e-mail (escaped in its HTML) and on the signing page.
    let said = "Dear both,\nplease sign by Friday <b>noon</b>.";
    // (Mail carries its lines ended by CR LF.)
    let text = first["text"].as_str().unwrap_or_default().replace("\r\n", "\n");
    assert!(text.contains(&format!("Their message:\n{said}\n")), "{first}");
    let html = first["html"].as_str().unwrap_or_default().replace("\r\n", "\n");
    assert!(html.contains("please sign by Friday &lt;b&gt;noon&lt;/b&gt;.") && !html.contains("<b>noon"), "{html}");
    let page = reqwest::get(link_in(&first)).await.expect("page").text().await.expect("html");
    let message = page.split("id=\"message\"").nth(1).and_then(|m| m.split("</figure>").next()).unwrap_or_default();
    assert!(message.contains("Dear both,\nplease sign by Friday ") && !message.contains("<b>"), "{page}");
    assert!(
        !smtp.messages().iter().any(|m| m["to"][0] == "bank.officer@lender.test"),
        "the second signer is not invited before their turn"
    );
    assert_eq!(sign_typed(&link_in(&first), "Zoë Buyer").await.status(), 200);

    let second = smtp.wait_for("bank.officer@lender.test", "Please sign: Mortgage offer").await;
    assert_eq!(sign_typed(&link_in(&second), "Bank Officer").await.status(), 200);

    for to in ["zoë@buyer.test", "bank.officer@lender.test"] {
        smtp.wait_for(to, "Signed by everyone: Mortgage offer").await;
    }
    let pdf = download(&app, &who, workflow_id).await;
    assert_eq!(pdfsig(&pdf).matches("Signature is Valid").count(), 2);

    // Everyone gets their copy: the signed document and the completion certificate attached
    // (the attached PDF passes pdfsig), and a link to the copy, which the finished signer
    // link now opens too (instead of "nothing to sign").
    let done = smtp.wait_for("zoë@buyer.test", "Signed by everyone: Mortgage offer").await;
    let attached = done["attachments"].as_array().expect("attachments");
    let names: Vec<&str> = attached.iter().filter_map(|a| a["filename"].as_str()).collect();
    assert_eq!(names, ["Mortgage.pdf", "completion-certificate.pdf"], "{done}");
    let signed = std::fs::read(attached[0]["path"].as_str().expect("path")).expect("attached file");
    assert_eq!(pdfsig(&signed).matches("Signature is Valid").count(), 2);
    let text = done["text"].as_str().unwrap_or_default().to_string();
    let copy = text.split_whitespace().find(|w| w.ends_with("/copy")).expect("a copy link").to_string();
    let page = reqwest::get(&copy).await.expect("copy page");
    assert_eq!(page.status(), 200);
    let page = page.text().await.expect("html");
    assert!(page.contains("Mortgage.pdf") && page.contains("completion-certificate.pdf"), "{page}");
    let first = reqwest::get(format!("{copy}/0")).await.expect("download");
    assert_eq!(first.headers()["content-type"], "application/pdf");
    assert_eq!(first.bytes().await.expect("bytes").as_ref(), signed.as_slice());
    let finished = reqwest::get(link_in(&first_invitation)).await.expect("finished link");
    assert_eq!((finished.status().as_u16(), finished.url().as_str()), (200, copy.as_str()));
    // A link that is not the signer's own gives nothing.
    let forged = copy.replace("/copy", "x/copy");
    assert_eq!(reqwest::get(&forged).await.expect("forged").status(), 404);
    assert_eq!(reqwest::get(format!("{copy}/9")).await.expect("no such file").status(), 404);
    // Each event mailed once, even though jobs may be retried.
    let invitations =
        smtp.messages().iter().filter(|m| m["subject"].as_str().is_some_and(|s| s.starts_with("Please sign"))).count();
    assert_eq!(invitations, 2);

    // A reminder by hand: the due signatory only, an hour after the last e-mail, with the link
    // they have; never for a workflow that does not e-mail its signers.
    let body = json!({"templateId": 0, "workflowName": "Guarantee", "sendMail": true,
        "documentIds": [upload(&app, &who, &agreement(1), "Guarantee.pdf").await],
        "signatories": [{"subscriberId": 0, "emailId": "ravi@guarantor.test", "name": "Ravi", "signingOrder": 1},
                        {"subscriberId": 0, "emailId": "meera@guarantor.test", "name": "Meera", "signingOrder": 2}]});
    let started = initiate(&app, &who, body).await;
    let guarantee = started["workflowId"].as_i64().expect("id");
    let invited = smtp.wait_for("ravi@guarantor.test", "Please sign: Guarantee").await;
    let ids: Vec<i64> = started["signingUrls"]
        .as_array()
        .expect("urls")
        .iter()
        .filter_map(|u| u["identificationNumber"].as_str()?.parse().ok())
        .collect();
    let remind = async |signatory: i64| {
        let path = format!("/api/v1/workflows/{guarantee}/signatories/{signatory}/remind");
        app.post(&path, &who.token, json!({})).await
    };
    expect_problem(remind(ids[0]).await, 409, "state_conflict").await;
    app.store
        .execute_for_tests("UPDATE signatories SET notified_at = notified_at - 3600001")
        .await
        .expect("an hour ago");
    expect_problem(remind(ids[1]).await, 409, "state_conflict").await;
    assert_eq!(remind(ids[0]).await.status(), 204);
    let reminder = smtp.wait_for("ravi@guarantor.test", "Reminder: Please sign: Guarantee").await;
    assert_eq!(link_in(&reminder), link_in(&invited), "the same link");
    expect_problem(remind(ids[0]).await, 409, "state_conflict").await;
    expect_problem(remind(999_999).await, 404, "not_found").await;
    let quiet = json!({"templateId": 0, "documentIds": [upload(&app, &who, &agreement(1), "Quiet.pdf").await],
        "signatories": [{"subscriberId": 0, "emailId": "sam@quiet.test", "name": "Sam", "signingOrder": 1}]});
    let quiet = initiate(&app, &who, quiet).await;
    let (quiet_id, sam) = (
        quiet["workflowId"].as_i64().expect("id"),
        quiet["signingUrls"][0]["identificationNumber"].as_str().expect("id").to_string(),
    );
    let path = format!("/api/v1/workflows/{quiet_id}/signatories/{sam}/remind");
    let problem = expect_problem(app.post(&path, &who.token, json!({})).await, 409, "state_conflict").await;
    assert!(problem["detail"].as_str().unwrap_or_default().contains("sendMail"), "{problem}");
}

async fn mail_waits_in_the_queue_while_the_smtp_server_is_down(backend: Backend) {
    let closed_port = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port();
    let app = spawn_with(backend, |config| {
        config.smtp_url = Some(format!("smtp://127.0.0.1:{closed_port}"));
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let mail = signet_server::mail::Mail {
        to_email: "someone@example.test".into(),
        to_name: "Someone".into(),
        subject: "Hello".into(),
        text: "Body".into(),
        html: None,
        attachments: Vec::new(),
    };
    let bad = signet_server::mail::Mail { to_email: "not an address".into(), ..mail.clone() };
    assert!(signet_server::mail::enqueue(&app.store, &bad, None).await.is_err(), "refused before queueing");
    signet_server::mail::enqueue(&app.store, &mail, Some("test-mail".into())).await.expect("queued");
    let mut retried = None;
    for _ in 0..200 {
        let jobs = app.store.jobs_of_kind(signet_domain::job::JobKind::Mail).await.expect("jobs");
        if let Some(job) = jobs.into_iter().find(|j| j.attempts >= 1 && j.last_error.is_some()) {
            retried = Some(job);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let job = retried.expect("the send failed and was recorded");
    assert_eq!(job.state, "ready", "queued again for a later attempt: {job:?}");
}

async fn workflow_of(app: &TestApp, who: &Sender, people: &[(&str, i32)]) -> Value {
    let document_id = upload(app, who, &agreement(1), "Doc.pdf").await;
    initiate(app, who, json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(people)})).await
}

async fn the_sender_delegates_declines_links_deactivates_and_deletes(backend: Backend) {
    let app = spawn(backend).await;
    let who = sender(&app, "Sender Ops").await;
    let a = workflow_of(&app, &who, &[("first@x.test", 1), ("second@x.test", 2)]).await;
    let a_id = a["workflowId"].as_i64().expect("id");

    let wrong_id = app
        .post(
            &format!("/api/v1/workflows/{a_id}/delegate"),
            &who.token,
            json!({"workflowId": a_id + 1, "delegatedUserEmail": "d@x.test", "reason": "away"}),
        )
        .await;
    expect_problem(wrong_id, 400, "validation_failed").await;
    let to_self = app
        .post(
            &format!("/api/v1/workflows/{a_id}/delegate"),
            &who.token,
            json!({"workflowId": a_id, "delegatedUserEmail": "FIRST@x.test", "reason": "away"}),
        )
        .await;
    expect_problem(to_self, 400, "validation_failed").await;
    let delegated = app
        .post(
            &format!("/api/v1/workflows/{a_id}/delegate"),
            &who.token,
            json!({"workflowId": a_id, "delegatedUserEmail": "deputy@x.test", "reason": "away"}),
        )
        .await;
    assert_eq!(delegated.status(), 200);
    let deputy: Value = delegated.json().await.expect("json");
    assert_eq!(deputy["emailId"], "deputy@x.test");
    assert_eq!(browser().get(url_of(&a, "first@x.test")).send().await.expect("old").status(), 410);
    assert_eq!(sign_typed(deputy["url"].as_str().expect("url"), "Deputy").await.status(), 200);

    let declined = app
        .post(
            &format!("/api/v1/workflows/{a_id}/decline"),
            &who.token,
            json!({"workflowId": a_id, "reason": "Terms changed"}),
        )
        .await;
    assert_eq!(declined.status(), 204);
    let details: Value = app.get(&format!("/api/v1/workflows/{a_id}"), &who.token).await.json().await.expect("json");
    assert_eq!(details["state"], "declined");
    let again = app.post(&format!("/api/v1/workflows/{a_id}/decline"), &who.token, json!({"workflowId": a_id})).await;
    expect_problem(again, 409, "state_conflict").await;

    let b = workflow_of(&app, &who, &[("b@x.test", 1)]).await;
    let b_id = b["workflowId"].as_i64().expect("id");
    assert_eq!(
        app.post(
            &format!("/api/v1/workflows/{b_id}/link"),
            &who.token,
            json!({"workflowId": b_id, "linkedWorkflowIds": [a_id]})
        )
        .await
        .status(),
        204
    );
    let details: Value = app.get(&format!("/api/v1/workflows/{b_id}"), &who.token).await.json().await.expect("json");
    assert_eq!(details["linkedWorkflowIds"], json!([a_id]));
    expect_problem(
        app.post(
            &format!("/api/v1/workflows/{b_id}/link"),
            &who.token,
            json!({"workflowId": b_id, "linkedWorkflowIds": [987654]}),
        )
        .await,
        404,
        "not_found",
    )
    .await;
    expect_problem(
        app.post(
            &format!("/api/v1/workflows/{b_id}/link"),
            &who.token,
            json!({"workflowId": b_id, "linkedWorkflowIds": [b_id]}),
        )
        .await,
        400,
        "validation_failed",
    )
    .await;

    assert_eq!(
        app.post(&format!("/api/v1/workflows/{b_id}/inactive"), &who.token, json!({"workflowid": b_id})).await.status(),
        204
    );
    assert_eq!(browser().get(url_of(&b, "b@x.test")).send().await.expect("link").status(), 410);
    expect_problem(
        app.post(&format!("/api/v1/workflows/{b_id}/inactive"), &who.token, json!({"workflowid": b_id})).await,
        409,
        "state_conflict",
    )
    .await;

    let stranger = sender(&app, "Stranger Ops").await;
    expect_problem(
        app.post("/api/v1/documents/delete", &stranger.token, json!({"workflowId": b_id, "isWorkflow": true})).await,
        404,
        "not_found",
    )
    .await;
    assert_eq!(
        app.post(
            "/api/v1/documents/delete",
            &who.token,
            json!({"workflowId": b_id, "isWorkflow": true, "ipAddress": "203.0.113.9"})
        )
        .await
        .status(),
        204
    );
    expect_problem(app.get(&format!("/api/v1/workflows/{b_id}"), &who.token).await, 404, "not_found").await;
    expect_problem(
        app.post("/api/v1/documents/download", &who.token, json!({"workflowid": b_id})).await,
        404,
        "not_found",
    )
    .await;
}

async fn comments_categories_inactive_documents_and_attachments(backend: Backend) {
    let app = spawn(backend).await;
    let who = sender(&app, "Paperwork").await;
    let one = upload(&app, &who, &agreement(1), "One.pdf").await;
    let two = upload(&app, &who, &agreement(1), "Two.pdf").await;
    let loose = upload(&app, &who, &agreement(1), "Loose.pdf").await;
    let started = initiate(
        &app,
        &who,
        json!({
            "templateId": 0, "documentIds": [one, two], "signatories": signatories(&[("c@x.test", 1)]),
            "listAttachmentDetails": [{"base64fileData": STANDARD.encode(b"terms and conditions"), "documentName": "terms.txt"}]
        }),
    )
    .await;
    let id = started["workflowId"].as_i64().expect("id");

    assert_eq!(
        app.post(
            "/api/v1/documents/comments",
            &who.token,
            json!({"documentID": one, "comment": "Please check clause 4"})
        )
        .await
        .status(),
        201
    );
    let comments: Value =
        app.get(&format!("/api/v1/documents/{one}/comments"), &who.token).await.json().await.expect("json");
    assert_eq!(comments[0]["comment"], "Please check clause 4");
    expect_problem(
        app.post("/api/v1/documents/comments", &who.token, json!({"documentID": loose, "comment": "x"})).await,
        400,
        "validation_failed",
    )
    .await;
    expect_problem(
        app.post("/api/v1/documents/comments", &who.token, json!({"documentID": one, "comment": " "})).await,
        400,
        "validation_failed",
    )
    .await;
    let stranger = sender(&app, "Nosy").await;
    expect_problem(
        app.post("/api/v1/documents/comments", &stranger.token, json!({"documentID": one, "comment": "hi"})).await,
        404,
        "not_found",
    )
    .await;

    assert_eq!(
        app.post("/api/v1/documents/category", &who.token, json!({"workflowId": id, "categoryId": 7, "documentId": 0}))
            .await
            .status(),
        204
    );
    assert_eq!(
        app.post(
            "/api/v1/documents/category",
            &who.token,
            json!({"workflowId": id, "categoryId": 3, "documentId": two})
        )
        .await
        .status(),
        204
    );
    let details: Value = app.get(&format!("/api/v1/workflows/{id}"), &who.token).await.json().await.expect("json");
    assert_eq!(details["categoryId"], 7);

    expect_problem(
        app.post("/api/v1/documents/inactive", &who.token, json!({"documentId": two})).await,
        409,
        "state_conflict",
    )
    .await;
    assert_eq!(
        app.post(
            "/api/v1/documents/inactive",
            &who.token,
            json!({"documentId": two, "forceInactive": true, "reason": "superseded"})
        )
        .await
        .status(),
        204
    );
    expect_problem(
        app.post("/api/v1/documents/inactive", &who.token, json!({"documentId": one, "forceInactive": true})).await,
        409,
        "state_conflict",
    )
    .await;
    assert_eq!(app.post("/api/v1/documents/inactive", &who.token, json!({"documentId": loose})).await.status(), 204);

    // The signer now signs only the active document.
    assert_eq!(sign_typed(&url_of(&started, "c@x.test"), "C").await.status(), 200);
    let details: Value = app.get(&format!("/api/v1/workflows/{id}"), &who.token).await.json().await.expect("json");
    let versions: Vec<i64> =
        details["documents"].as_array().expect("docs").iter().filter_map(|d| d["version"].as_i64()).collect();
    assert_eq!(versions, [1, 0]);

    let file = app.get(&format!("/api/v1/workflows/{id}/attachments/1"), &who.token).await;
    assert_eq!(file.status(), 200);
    assert_eq!(file.bytes().await.expect("bytes").as_ref(), b"terms and conditions");
    expect_problem(app.get(&format!("/api/v1/workflows/{id}/attachments/1"), &stranger.token).await, 404, "not_found")
        .await;
}

async fn the_housekeeping_job_reminds_and_expires(backend: Backend) {
    let app = spawn(backend).await;
    let who = sender(&app, "Reminders").await;
    let document_id = upload(&app, &who, &agreement(1), "Slow.pdf").await;
    let started = initiate(
        &app,
        &who,
        json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("slow@x.test", 1)]), "reminderFrequency": 1, "envelopeExpiry": "2099-01-01T00:00:00Z"}),
    )
    .await;
    let id = started["workflowId"].as_i64().expect("id");
    let store = &app.store;
    signet_server::workers::workflow_housekeeping(store).await.expect("housekeeping");
    let audit: Value = app.get(&format!("/api/v1/workflows/{id}/audit"), &who.token).await.json().await.expect("json");
    assert!(
        !audit["events"].as_array().expect("events").iter().any(|e| e["action"] == "signatory.reminded"),
        "not due yet"
    );

    store.execute_for_tests("UPDATE signatories SET notified_at = notified_at - 172800000").await.expect("age");
    signet_server::workers::workflow_housekeeping(store).await.expect("housekeeping");
    signet_server::workers::workflow_housekeeping(store).await.expect("again: no second reminder");
    let audit: Value = app.get(&format!("/api/v1/workflows/{id}/audit"), &who.token).await.json().await.expect("json");
    assert_eq!(
        audit["events"].as_array().expect("events").iter().filter(|e| e["action"] == "signatory.reminded").count(),
        1
    );

    store.execute_for_tests("UPDATE workflows SET expires_at = 1").await.expect("expire");
    signet_server::workers::workflow_housekeeping(store).await.expect("housekeeping");
    let details: Value = app.get(&format!("/api/v1/workflows/{id}"), &who.token).await.json().await.expect("json");
    assert_eq!(details["state"], "expired");
    assert_eq!(browser().get(url_of(&started, "slow@x.test")).send().await.expect("link").status(), 410);
    assert_eq!(audit["verified"], true);
}

/// The completion certificate: sealed, readable by poppler and qpdf, listing signers and the
/// verified chain, with the final document attached byte for byte (its signatures intact).
async fn completion_certificate_holds_everything(
    app: &TestApp,
    who: &Sender,
    workflow_id: i64,
    final_pdf: &[u8],
    dir: &std::path::Path,
) {
    let mut certificate = Vec::new();
    for _ in 0..100 {
        let response = app.get(&format!("/api/v1/workflows/{workflow_id}/certificate"), &who.token).await;
        if response.status() == 200 {
            certificate = response.bytes().await.expect("pdf").to_vec();
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(certificate.starts_with(b"%PDF-"), "a certificate");
    let merged =
        app.post("/api/v1/documents/download", &who.token, json!({"workflowid": workflow_id, "isMerged": true})).await;
    assert_eq!(
        merged.bytes().await.expect("merged").as_ref(),
        certificate.as_slice(),
        "isMerged answers the certificate"
    );
    let cert_dir = dir.join("certificate");
    std::fs::create_dir_all(&cert_dir).expect("dir");
    let path = cert_dir.join("certificate.pdf");
    std::fs::write(&path, &certificate).expect("write");
    let report = pdfsig(&certificate);
    assert_eq!(report.matches("Signature is Valid").count(), 1, "the certificate is sealed: {report}");
    let qpdf = Command::new("qpdf").arg("--check").arg(&path).output().expect("qpdf");
    assert!(String::from_utf8_lossy(&qpdf.stdout).contains("No syntax or stream encoding errors"), "{qpdf:?}");
    let text = Command::new("pdftotext").arg(&path).arg("-").output().expect("pdftotext");
    let text = String::from_utf8_lossy(&text.stdout);
    for expected in [
        "Completion certificate",
        "asha@borrower.test",
        "meera@lender.test",
        "verified",
        "signatory.signed",
        "in the order: signed",
    ] {
        assert!(text.contains(expected), "{expected} in the certificate text:\n{text}");
    }
    let detach =
        Command::new("pdfdetach").arg("-saveall").arg("-o").arg(&cert_dir).arg(&path).output().expect("pdfdetach");
    assert!(detach.status.success(), "{detach:?}");
    let attached = std::fs::read(cert_dir.join("1-Loan agreement.pdf")).expect("the attached document");
    assert_eq!(attached, final_pdf, "attached unchanged");
    assert_eq!(pdfsig(&attached).matches("Signature is Valid").count(), 3);
}

/// The signature widgets' rectangles of page 1, read with pypdf.
fn widget_rects(pdf: &[u8], dir: &std::path::Path) -> Vec<Vec<f64>> {
    let path = dir.join("rects.pdf");
    std::fs::write(&path, pdf).expect("write");
    let script = "import json,sys\nfrom pypdf import PdfReader\np=PdfReader(sys.argv[1]).pages[0]\n\
        print(json.dumps([[float(v) for v in a.get_object()['/Rect']] for a in p.get('/Annots', []) if a.get_object().get('/FT') == '/Sig']))";
    let out = Command::new("python3").args(["-c", script]).arg(&path).output().expect("pypdf");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("rects")
}

async fn an_anchor_text_places_the_signature_below_it(backend: Backend) {
    let app = spawn(backend).await;
    let dir = tempfile::tempdir().expect("tmp");
    let who = sender(&app, "Anchors").await;
    let pdf = agreement(1);
    let body = json!({
        "documentName": "Anchored.pdf",
        "fileData": STANDARD.encode(&pdf),
        "signatories": [{"emailId": "anchor@x.test", "name": "Anchor", "searchText": "signatures:"}]
    });
    let response = app.post("/api/v1/workflows/initiate-and-sign", &who.token, body).await;
    let started: Value = response.json().await.expect("json");
    let id = started["workflowId"].as_i64().expect("id");
    assert_eq!(sign_typed(&url_of(&started, "anchor@x.test"), "Anchor").await.status(), 200);
    let signed = download(&app, &who, id).await;
    assert_eq!(pdfsig(&signed).matches("Signature is Valid").count(), 1);
    // "Signatures:" is drawn at x=72 on the baseline y=200 (12 pt): the box starts below it.
    let rects = widget_rects(&signed, dir.path());
    let rect = rects.first().expect("a signature widget on page 1");
    let (x0, top) = (rect[0].min(rect[2]), rect[1].max(rect[3]));
    assert!((x0 - 72.0).abs() < 3.0, "{rect:?}");
    assert!(top < 200.0 && top > 185.0, "just below the anchor's baseline: {rect:?}");
}

async fn a_summary_is_extracted_once_and_then_cached(backend: Backend) {
    let app = spawn(backend).await;
    let dir = tempfile::tempdir().expect("tmp");
    let who = sender(&app, "Summaries").await;
    let path = dir.path().join("terms.pdf");
    let lines = [
        "The borrower repays the loan in monthly instalments.",
        "The weather on the signing day is not part of this agreement.",
        "Each loan instalment is due on the first day of the month.",
        "Late loan instalments carry interest at two percent.",
        "Birds may sing outside the bank.",
    ];
    let draws: String =
        lines.iter().enumerate().map(|(i, l)| format!("c.drawString(72, {}, {l:?})\n", 760 - 20 * i)).collect();
    let script = format!(
        "from reportlab.pdfgen import canvas\nc = canvas.Canvas({:?})\n{draws}c.save()\n",
        path.display().to_string()
    );
    assert!(Command::new("python3").args(["-c", &script]).status().expect("python3").success());
    let document_id = upload(&app, &who, &std::fs::read(&path).expect("pdf"), "Terms.pdf").await;
    let started = initiate(
        &app,
        &who,
        json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("s@x.test", 1)])}),
    )
    .await;
    let id = started["workflowId"].as_i64().expect("id");
    let first: Value = app
        .post("/api/v1/documents/summary", &who.token, json!({"workflowId": id, "documentId": document_id}))
        .await
        .json()
        .await
        .expect("json");
    assert_eq!(first["success"], true);
    assert_eq!(first["fromCache"], false);
    let sentences: Vec<&str> =
        first["summary"]["sentences"].as_array().expect("sentences").iter().filter_map(Value::as_str).collect();
    assert!(sentences.iter().any(|s| s.contains("loan instalment")), "{sentences:?}");
    assert!(!sentences.iter().any(|s| s.contains("Birds")) || sentences.len() == lines.len(), "{sentences:?}");
    let second: Value = app
        .post("/api/v1/documents/summary", &who.token, json!({"workflowId": id, "documentId": document_id}))
        .await
        .json()
        .await
        .expect("json");
    assert_eq!(second["fromCache"], true);
    assert_eq!(second["summary"], first["summary"]);
    let stranger = sender(&app, "Other").await;
    expect_problem(
        app.post("/api/v1/documents/summary", &stranger.token, json!({"workflowId": id, "documentId": document_id}))
            .await,
        404,
        "not_found",
    )
    .await;
}

async fn redirects_expiring_links_completed_workflows_and_huge_attachments(backend: Backend) {
    let app = spawn(backend).await;
    let who = sender(&app, "Edges").await;
    let document_id = upload(&app, &who, &agreement(1), "Edge.pdf").await;
    let started = initiate(
        &app,
        &who,
        json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("r@x.test", 1)]), "redirectURL": "https://erp.example.test/done?id=7"}),
    )
    .await;
    let id = started["workflowId"].as_i64().expect("id");
    let signed = sign_typed(&url_of(&started, "r@x.test"), "R").await;
    assert_eq!(signed.status(), 303, "the signer is sent on to redirectURL");
    assert_eq!(signed.headers()["location"], "https://erp.example.test/done?id=7");
    let declined = app
        .post(&format!("/api/v1/workflows/{id}/decline"), &who.token, json!({"workflowId": id, "reason": "late"}))
        .await;
    expect_problem(declined, 409, "state_conflict").await;
    let bad_redirect = app
        .post("/api/v1/workflows", &who.token, json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories(&[("r@x.test", 1)]), "redirectURL": "javascript:alert(1)"}))
        .await;
    expect_problem(bad_redirect, 400, "validation_failed").await;

    // A link past its expiry leads nowhere, even before the housekeeping job runs.
    let other = upload(&app, &who, &agreement(1), "Late.pdf").await;
    let late = initiate(
        &app,
        &who,
        json!({"templateId": 0, "documentIds": [other], "signatories": signatories(&[("late@x.test", 1)])}),
    )
    .await;
    app.store
        .execute_for_tests("UPDATE signatories SET link_expires_at = 1 WHERE email = 'late@x.test'")
        .await
        .expect("expire link");
    assert_eq!(browser().get(url_of(&late, "late@x.test")).send().await.expect("late").status(), 410);
    assert_eq!(sign_typed_status(&url_of(&late, "late@x.test")).await, 410);

    // An attachment over 10 MB is refused and nothing is stored.
    let third = upload(&app, &who, &agreement(1), "Big.pdf").await;
    let huge = STANDARD.encode(vec![7u8; 10 * 1024 * 1024 + 1]);
    let refused = app
        .post(
            "/api/v1/workflows",
            &who.token,
            json!({"templateId": 0, "documentIds": [third], "signatories": signatories(&[("h@x.test", 1)]), "listAttachmentDetails": [{"base64fileData": huge, "documentName": "big.bin"}]}),
        )
        .await;
    let problem = expect_problem(refused, 400, "validation_failed").await;
    assert!(problem["errors"]["listAttachmentDetails[0].base64fileData"].is_array(), "{problem}");
    let ok = initiate(
        &app,
        &who,
        json!({"templateId": 0, "documentIds": [third], "signatories": signatories(&[("h@x.test", 1)])}),
    )
    .await;
    assert!(ok["workflowId"].as_i64().is_some(), "the document was not taken by the refused request");
}

async fn signatory_state(app: &TestApp, who: &Sender, workflow_id: i64, email: &str) -> (i64, String) {
    let details: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}"), &who.token).await.json().await.expect("json");
    let signatory = details["signatories"]
        .as_array()
        .expect("signatories")
        .iter()
        .find(|s| s["emailId"] == email)
        .cloned()
        .expect("signatory");
    (signatory["signatoryId"].as_i64().expect("id"), signatory["state"].as_str().expect("state").to_string())
}

async fn signer_links_have_limits_count_real_views_only_and_can_be_revoked(backend: Backend) {
    let app = spawn_with(backend, |c| {
        c.signer_max_comments = 2;
        c.signer_max_attachments = 1;
        c.signer_max_delegations = 1;
    })
    .await;
    let tenant = app.tenant("Limits").await;
    let who = Sender { token: app.token(&tenant).await, tenant_id: tenant.tenant_id };
    let document = upload(&app, &who, &agreement(1), "Limits.pdf").await;
    let initiated = initiate(
        &app,
        &who,
        json!({"templateId": 0, "documentIds": [document], "signatories": signatories(&[("a@x.test", 1)])}),
    )
    .await;
    let workflow_id = initiated["workflowId"].as_i64().expect("id");
    let link = url_of(&initiated, "a@x.test");
    let http = browser();

    // A mail scanner's GET shows the page but does not make the signer "viewed"; the page's
    // script (or any action) does.
    let page = http.get(&link).send().await.expect("page");
    assert_eq!(page.status(), 200);
    assert!(page.text().await.expect("html").contains("/viewed\""));
    assert_eq!(signatory_state(&app, &who, workflow_id, "a@x.test").await.1, "notified");
    let viewed = http.post(format!("{link}/viewed")).send().await.expect("viewed");
    assert_eq!(viewed.status(), 204);
    assert_eq!(signatory_state(&app, &who, workflow_id, "a@x.test").await.1, "viewed");

    // Comments: two, then refused with a clear message.
    for text in ["first", "second"] {
        let added = http.post(format!("{link}/comment")).form(&[("comment", text)]).send().await.expect("comment");
        assert_eq!(added.status(), 200);
    }
    let third = http.post(format!("{link}/comment")).form(&[("comment", "third")]).send().await.expect("comment");
    assert_eq!(third.status(), 400);
    assert!(third.text().await.expect("html").contains("At most 2 comments per signer"));
    // The same limit met by a signer who reads Hindi: in Hindi, no English service words.
    let in_hindi =
        http.post(format!("{link}/comment?lang=hi")).form(&[("comment", "third")]).send().await.expect("comment");
    assert_eq!(in_hindi.status(), 400);
    let in_hindi = in_hindi.text().await.expect("html");
    assert!(in_hindi.contains("अधिकतम 2 टिप्पणियाँ") && !in_hindi.contains("At most"), "{in_hindi}");

    // Attachments: one, then refused.
    let attach = |name: &'static str| {
        let form = reqwest::multipart::Form::new()
            .text("name", name)
            .part("file", reqwest::multipart::Part::bytes(b"hello".to_vec()).file_name("note.txt"));
        http.post(format!("{link}/attachment")).multipart(form).send()
    };
    assert_eq!(attach("one").await.expect("attach").status(), 200);
    let refused = attach("two").await.expect("attach");
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("html").contains("At most 1 attachments per signer"));

    // Delegation: once, then the place cannot be handed on again.
    let delegated = http
        .post(format!("{link}/delegate"))
        .form(&[("email", "b@x.test"), ("reason", "on leave")])
        .send()
        .await
        .expect("delegate");
    assert_eq!(delegated.status(), 200);
    let (b_id, _) = signatory_state(&app, &who, workflow_id, "b@x.test").await;
    // The sender revokes b's link and gets a new one (b never saw the first).
    let revoke = format!("/api/v1/workflows/{workflow_id}/signatories/{b_id}/link/revoke");
    let rotated = app.post(&revoke, &who.token, json!({})).await;
    assert_eq!(rotated.status(), 200);
    let rotated: Value = rotated.json().await.expect("json");
    let b_link = rotated["url"].as_str().expect("url").to_string();
    let again = http
        .post(format!("{b_link}/delegate"))
        .form(&[("email", "c@x.test"), ("reason", "me too")])
        .send()
        .await
        .expect("delegate");
    assert_eq!(again.status(), 409);
    assert!(again.text().await.expect("html").contains("delegated at most 1 times"));
    let in_hindi = http
        .post(format!("{b_link}/delegate?lang=hi"))
        .form(&[("email", "c@x.test"), ("reason", "me too")])
        .send()
        .await
        .expect("delegate");
    assert_eq!(in_hindi.status(), 409);
    let in_hindi = in_hindi.text().await.expect("html");
    assert!(in_hindi.contains("अधिकतम 1 बार") && !in_hindi.contains("delegated at most"), "{in_hindi}");

    // Revoking again: the old link answers "no longer valid", the new one works.
    let newer: Value = app.post(&revoke, &who.token, json!({})).await.json().await.expect("json");
    let newest = newer["url"].as_str().expect("url").to_string();
    assert_ne!(newest, b_link);
    let old = http.get(&b_link).send().await.expect("old");
    assert_eq!(old.status(), 410);
    assert!(old.text().await.expect("html").contains("no longer valid"));
    // A Hindi signer reads why in Hindi, not the services' English.
    let old = http.get(format!("{b_link}?lang=hi")).send().await.expect("old").text().await.expect("html");
    assert!(old.contains("अब मान्य नहीं है") && !old.contains("no longer valid"), "{old}");
    assert_eq!(http.get(&newest).send().await.expect("new").status(), 200);
    // Not in this tenant: not found.
    let stranger = sender(&app, "Stranger").await;
    expect_problem(app.post(&revoke, &stranger.token, json!({})).await, 404, "not_found").await;

    // An internal failure (the document's file is gone) shows a generic page, no detail.
    let row = app.store.document(tenant.tenant_id, document.into()).await.expect("doc").expect("row");
    let key = signet_blob::BlobKey::parse(&row.current_blob).expect("key");
    app.state.services.blob.delete(&key).await.expect("delete blob");
    let shown = http.get(format!("{newest}/documents/{document}")).send().await.expect("document");
    assert_eq!(shown.status(), 500);
    let signed = http
        .post(format!("{newest}/sign"))
        .form(&[("mode", "typed"), ("typedName", "B"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    assert_eq!(signed.status(), 500);
    for body in [shown.text().await.expect("html"), signed.text().await.expect("html")] {
        assert!(body.contains("Please try again later"), "{body}");
        for internal in
            ["blob", "tenant/", "No such file", "os error", "internal error", "sqlx", row.current_blob.as_str()]
        {
            assert!(!body.contains(internal), "{internal} in {body}");
        }
    }
}

async fn a_failing_file_write_leaves_no_half_built_workflow(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Atomic").await;
    let who = Sender { token: app.token(&tenant).await, tenant_id: tenant.tenant_id };
    let document = upload(&app, &who, &agreement(1), "Atomic.pdf").await;
    // Make the blob store fail for attachments: a plain file where their folder must go (even
    // root cannot create a folder there), while documents still read fine.
    let tenant_dir = app.state.services.config.data_dir.join("blobs").join("tenant").join(tenant.tenant_id.to_string());
    std::fs::create_dir_all(&tenant_dir).expect("tenant dir");
    let obstacle = tenant_dir.join("attachments");
    std::fs::write(&obstacle, b"not a folder").expect("obstacle");
    let attachments = json!([
        {"base64fileData": STANDARD.encode(b"first"), "documentName": "a.txt"},
        {"base64fileData": STANDARD.encode(b"second"), "documentName": "b.txt"}
    ]);
    let body = json!({"templateId": 0, "documentIds": [document], "signatories": signatories(&[("x@x.test", 1)]),
        "listAttachmentDetails": attachments});
    let failed = app.post("/api/v1/workflows", &who.token, body.clone()).await;
    expect_problem(failed, 500, "internal_error").await;
    let list: Value = app.get("/api/v1/workflows", &who.token).await.json().await.expect("json");
    assert_eq!(list["totalCount"], 0, "no workflow row: {list}");
    let row = app.store.document(tenant.tenant_id, document.into()).await.expect("doc").expect("row");
    assert_eq!(row.workflow_id, None, "the document is not bound to anything");
    // initiate-and-sign writes the attachment files before its documents: nothing is stored.
    let pdf = agreement(1);
    let one_step = json!({"documentName": "One step.pdf", "fileData": STANDARD.encode(&pdf),
        "signatories": [{"emailId": "c@x.test", "name": "C"}], "listAttachmentDetails": body["listAttachmentDetails"]});
    let failed = app.post("/api/v1/workflows/initiate-and-sign", &who.token, one_step).await;
    expect_problem(failed, 500, "internal_error").await;
    let documents = app.store.execute_for_tests("UPDATE documents SET updated_at = updated_at").await.expect("count");
    assert_eq!(documents, 1, "only the document uploaded before");
    let list: Value = app.get("/api/v1/workflows", &who.token).await.json().await.expect("json");
    assert_eq!(list["totalCount"], 0, "no workflow row: {list}");

    // With the store working again the same request succeeds, with both attachments.
    std::fs::remove_file(&obstacle).expect("remove obstacle");
    let started = initiate(&app, &who, body).await;
    let id = started["workflowId"].as_i64().expect("id");
    let list: Value = app.get("/api/v1/workflows", &who.token).await.json().await.expect("json");
    assert_eq!(list["totalCount"], 1);
    let workflow = app.store.workflow(who.tenant_id, id.into()).await.expect("workflow").expect("row");
    assert_eq!(app.store.attachments(&workflow).await.expect("attachments").len(), 2);
    let files = std::fs::read_dir(&obstacle).expect("attachments folder").count();
    assert_eq!(files, 2, "only the second request's files exist");
}

/// The text of page `page` (1-based) of `pdf`, by pdftotext.
fn page_text(pdf: &[u8], page: u32, dir: &std::path::Path) -> String {
    let path = dir.join(format!("text-{page}.pdf"));
    std::fs::write(&path, pdf).expect("write");
    let page = page.to_string();
    let out =
        Command::new("pdftotext").args(["-f", &page, "-l", &page]).arg(&path).arg("-").output().expect("pdftotext");
    assert!(out.status.success(), "pdftotext");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The typed-name form with the signer's field inputs, as a browser posts it.
async fn sign_with_fields(link: &str, inputs: &[(&str, &str)]) -> reqwest::Response {
    let mut form = vec![("mode", "typed"), ("typedName", "Signer"), ("consent", "on")];
    form.extend_from_slice(inputs);
    browser().post(format!("{link}/sign")).form(&form).send().await.expect("sign")
}

async fn fields_are_filled_in_with_each_signature(backend: Backend) {
    let app = spawn(backend).await;
    let dir = tempfile::tempdir().expect("tmp");
    let who = sender(&app, "Fields Finance").await;
    let field = |signatory: u32, kind: &str, page: Value, at: [f64; 4], label: Option<&str>, required: bool| {
        let mut f = json!({"signatory": signatory, "kind": kind, "page": page,
            "left": at[0], "top": at[1], "width": at[2], "height": at[3], "required": required});
        if let Some(label) = label {
            f["label"] = json!(label);
        }
        f
    };
    let definition = json!({"fields": [
        {"signatory": 1, "page": 1, "left": 72, "top": 600, "width": 160, "height": 55},
        field(1, "date", json!(1), [72.0, 660.0, 100.0, 20.0], None, false),
        field(1, "initials", json!("all"), [480.0, 780.0, 60.0, 30.0], None, false),
        field(1, "text", json!(1), [72.0, 300.0, 200.0, 20.0], Some("PAN"), true),
        field(1, "name", json!(1), [300.0, 660.0, 160.0, 20.0], None, false),
        field(2, "checkbox", json!(2), [72.0, 300.0, 14.0, 14.0], Some("I accept the terms"), true),
        field(2, "email", json!(2), [100.0, 300.0, 170.0, 20.0], None, false),
        field(2, "text", json!(2), [72.0, 340.0, 200.0, 20.0], Some("Remarks"), false),
    ]});

    // Refused definitions: a field by anchor, an unknown kind, a label on a signature box.
    for bad in [
        json!({"fields": [{"signatory": 1, "kind": "date", "anchor": "Signatures:"}]}),
        json!({"fields": [field(1, "stamp", json!(1), [72.0, 300.0, 100.0, 20.0], None, false)]}),
        json!({"fields": [{"signatory": 1, "page": 1, "left": 72, "top": 600, "width": 160, "height": 55, "label": "Me"}]}),
        json!({"fields": [field(1, "text", json!(1), [72.0, 300.0, 5.0, 20.0], None, false)]}),
    ] {
        let response = app.post("/api/v1/templates", &who.token, json!({"menuName": "Bad", "definition": bad})).await;
        expect_problem(response, 400, "validation_failed").await;
    }
    let created = app.post("/api/v1/templates", &who.token, json!({"menuName": "KYC", "definition": definition})).await;
    assert_eq!(created.status(), 201);
    let template: Value = created.json().await.expect("json");
    let template_id = template["templateId"].as_i64().or_else(|| template["id"].as_i64()).expect("template id");

    let document_id = upload(&app, &who, &agreement(2), "KYC form.pdf").await;
    let people = [("asha@kyc.test", 1), ("ravi@kyc.test", 2)];
    let initiated = initiate(
        &app,
        &who,
        json!({"templateId": template_id, "documentIds": [document_id], "signatories": signatories(&people)}),
    )
    .await;
    let workflow_id = initiated["workflowId"].as_i64().expect("workflowId");

    // The first signer's page asks for the PAN and names what Signet fills in.
    let asha = url_of(&initiated, "asha@kyc.test");
    let html = browser().get(&asha).send().await.expect("page").text().await.expect("html");
    assert!(html.contains("PAN (required)"), "{html}");
    assert!(
        html.contains(r#"name="field2" maxlength="200" value="" placeholder="PAN" form="sign-form" required"#),
        "{html}"
    );
    assert!(html.contains("Filled in for you when you sign: Date signed, Initials, Name."), "{html}");

    // Without the required text nothing is signed, and the page says what is missing.
    let missing = sign_with_fields(&asha, &[("field2", "  ")]).await;
    assert_eq!(missing.status(), 400);
    let missing = missing.text().await.expect("html");
    assert!(missing.contains("Please fill in “PAN”."), "{missing}");
    assert!(missing.contains(r#"value="Signer""#), "the typed name comes back: {missing}");
    // The same refusal in the language the signer chose on the page.
    let form = [("mode", "typed"), ("typedName", "Signer"), ("consent", "on"), ("field2", "")];
    let in_hindi = browser().post(format!("{asha}/sign?lang=hi")).form(&form).send().await.expect("sign");
    assert_eq!(in_hindi.status(), 400);
    let in_hindi = in_hindi.text().await.expect("html");
    assert!(in_hindi.contains("कृपया “PAN” भरें।"), "{in_hindi}");
    let too_long = sign_with_fields(&asha, &[("field2", &"x".repeat(201))]).await;
    assert_eq!(too_long.status(), 400);
    let details: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}"), &who.token).await.json().await.expect("json");
    assert_eq!(details["documents"][0]["version"], 0, "nothing was signed: {details}");
    assert_eq!(details["signatories"][0]["signedAt"], Value::Null, "{details}");
    // The signer cannot fill in what Signet fills in (field0 is the date).
    let signed = sign_with_fields(&asha, &[("field2", "ABCDE1234F"), ("field0", "01 Jan 1999")]).await;
    assert_eq!(signed.status(), 200);

    let ravi = url_of(&initiated, "ravi@kyc.test");
    let unticked = sign_with_fields(&ravi, &[]).await;
    assert_eq!(unticked.status(), 400);
    assert!(unticked.text().await.expect("html").contains("Please tick “I accept the terms”."));
    assert_eq!(sign_with_fields(&ravi, &[("field0", "on")]).await.status(), 200);

    let pdf = download(&app, &who, workflow_id).await;
    if let Some(keep) = std::env::var_os("SIGNET_KEEP_PDF_DIR") {
        let keep = std::path::Path::new(&keep);
        std::fs::write(keep.join(format!("fields-{backend:?}.pdf")), &pdf).expect("keep");
        std::fs::write(keep.join("platform-ca.pem"), cert_pem(&app.state.services.keys.ca.cert_der)).expect("keep");
    }
    // The boxes are form fields of their own, not signatures: exactly one signature per signer
    // (as widgets of the signature field, pdfsig listed each box as a signature).
    let report = pdfsig(&pdf);
    assert_eq!(report.matches("Signature #").count(), 2, "{report}");
    assert_eq!(report.matches("Signature is Valid.").count(), 2, "{report}");
    // pyHanko: both intact, and what the second signer's revision changed after the first
    // signature is signing and form filling (its boxes were created empty before anyone signed).
    let judged = pyhanko_trusting(&pdf, &app.state.services.keys.ca.cert_der, &[]);
    assert_eq!(judged.matches("The signature is cryptographically sound.").count(), 2, "{judged}");
    assert!(judged.contains("All modifications relate to signing and form filling operations"), "{judged}");
    assert!(!judged.contains("Some modifications may be illegitimate"), "{judged}");
    let boxes: Vec<(String, Option<String>)> = {
        let doc = signet_pdf::reader::Document::open(&pdf[..]).expect("open");
        let (_, catalog) = doc.catalog().expect("catalog");
        let form = doc.resolve_dict(catalog.get("AcroForm").expect("form")).expect("form").unwrap_or_default();
        let fields = doc.resolve_array(form.get("Fields").expect("fields")).expect("fields").unwrap_or_default();
        fields
            .iter()
            .filter_map(|f| doc.resolve_dict(f).ok().flatten())
            .filter(|d| d.name("FT") != Some(b"Sig".as_slice()))
            .map(|d| {
                let text = |key: &str| d.get(key).and_then(signet_pdf::object::Object::as_str_bytes);
                let name = text("T").map(signet_pdf::object::decode_text).unwrap_or_default();
                (name, text("V").map(signet_pdf::object::decode_text))
            })
            .collect()
    };
    let signatories: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}"), &who.token).await.json().await.expect("json");
    let asha_id =
        signatories["signatories"][0]["id"].as_i64().or_else(|| signatories["signatories"][0]["signatoryId"].as_i64());
    let asha_id = asha_id.unwrap_or_else(|| panic!("signatory id in {signatories}"));
    let value_of = |name: String| boxes.iter().find(|(n, _)| *n == name).and_then(|(_, v)| v.clone());
    assert_eq!(value_of(format!("SignetBox_s{asha_id}_f3_p1")).as_deref(), Some("asha"), "the name box: {boxes:?}");
    // Our own verifier agrees: every signature valid, the later revisions form filling.
    let verified = reqwest::Client::new()
        .post(app.url("/api/v1/verify"))
        .json(&json!({"fileData": STANDARD.encode(&pdf)}))
        .send()
        .await
        .expect("verify");
    let verified: Value = verified.json().await.expect("json");
    assert_eq!(verified["valid"], true, "{verified}");
    let statuses: Vec<&Value> =
        verified["signatures"].as_array().expect("signatures").iter().map(|s| &s["status"]).collect();
    assert_eq!(statuses, [&json!("valid"), &json!("valid")], "{verified}");
    let first = page_text(&pdf, 1, dir.path());
    let today = signet_domain::invoice::ist_date(signet_domain::now_millis()).long();
    for expected in ["ABCDE1234F", today.as_str()] {
        assert!(first.contains(expected), "{expected} on page 1:\n{first}");
    }
    assert!(!first.contains("1999"), "{first}");
    let second = page_text(&pdf, 2, dir.path());
    assert!(second.contains("ravi@kyc.test"), "{second}");
    assert!(!second.contains("Remarks"), "an optional text left empty shows nothing: {second}");

    // What the signers typed is in the event chain with their signatures.
    let audit: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}/audit"), &who.token).await.json().await.expect("json");
    let inputs: Vec<&Value> = audit["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["action"] == "signatory.signed")
        .map(|e| &e["detail"]["fieldInputs"])
        .collect();
    assert_eq!(inputs[0]["2"], "ABCDE1234F", "{inputs:?}");
    assert_eq!(inputs[1]["0"], "on", "{inputs:?}");
}

async fn a_signer_is_guided_through_the_places_on_the_pages_in_a_browser(backend: Backend) {
    let app = spawn(backend).await;
    let who = sender(&app, "Guided Lending").await;
    let place = |signatory: u32, kind: &str, page: u32, at: [f64; 4], label: &str, required: bool| {
        json!({"signatory": signatory, "kind": kind, "page": page, "left": at[0], "top": at[1],
            "width": at[2], "height": at[3], "label": label, "required": required})
    };
    let definition = json!({"fields": [
        {"signatory": 1, "page": 2, "left": 72, "top": 600, "width": 160, "height": 55},
        place(1, "date", 2, [260.0, 620.0, 100.0, 20.0], "Date", false),
        place(1, "text", 1, [72.0, 120.0, 200.0, 22.0], "PAN", true),
        {"signatory": 2, "page": 2, "left": 330, "top": 600, "width": 160, "height": 55},
        place(2, "checkbox", 2, [72.0, 700.0, 14.0, 14.0], "I accept the terms", true),
    ]});
    let created =
        app.post("/api/v1/templates", &who.token, json!({"menuName": "Loan", "definition": definition})).await;
    assert_eq!(created.status(), 201);
    let template: Value = created.json().await.expect("json");
    let template_id = template["templateId"].as_i64().or_else(|| template["id"].as_i64()).expect("template id");
    let document_id = upload(&app, &who, &agreement(2), "Loan agreement.pdf").await;
    let people = [("meena@borrower.test", 1), ("ravi@branch.test", 2)];
    let initiated = initiate(
        &app,
        &who,
        json!({"templateId": template_id, "documentIds": [document_id], "signatories": signatories(&people)}),
    )
    .await;
    let workflow_id = initiated["workflowId"].as_i64().expect("workflowId");

    // The borrower, on a phone: every place lies on its page; the guide leads to the PAN, a
    // drawing is adopted and shown in the signature's place; a refusal loses nothing.
    let borrower = guided(&url_of(&initiated, "meena@borrower.test"), "phone", "draw", backend, json!({})).await;
    let places = borrower["places"].as_array().expect("places");
    assert_eq!(places.len(), 3, "signature, date and PAN: {borrower}");
    assert!(places.iter().all(|p| p["inside"] == true), "each on its page: {borrower}");
    assert_eq!(borrower["steps"], 2, "the PAN and the signature: {borrower}");
    // The signer's name is already typed in: only the PAN is left.
    assert_eq!(borrower["guideBefore"], "1 of 2 places left", "{borrower}");
    assert!(borrower["guideAfter"].as_str().is_some_and(|g| g.starts_with("Every place is done")), "{borrower}");
    assert!(borrower["refusal"].as_str().is_some_and(|r| r.contains("agree to sign")), "{borrower}");
    assert_eq!(borrower["kept"], json!({"pan": "ABCDE1234F", "mode": "drawn", "drawingShown": 1}), "{borrower}");
    assert!(borrower["finalText"].as_str().is_some_and(|t| t.contains("You signed")), "{borrower}");

    // The branch officer, on a desk, in Hindi, by keyboard alone.
    let officer = format!("{}?lang=hi", url_of(&initiated, "ravi@branch.test"));
    let branch = guided(&officer, "desk", "keyboard", backend, json!({})).await;
    assert_eq!(branch["steps"], 2, "the checkbox and the signature: {branch}");
    assert_eq!(branch["firstFocus"], "field0", "the guide leads to the checkbox: {branch}");
    assert!(branch["guideAfter"].as_str().is_some_and(|g| g.starts_with("सभी स्थान पूरे")), "{branch}");
    assert!(branch["finalText"].as_str().is_some_and(|t| t.contains("आपने हस्ताक्षर")), "{branch}");

    let pdf = download(&app, &who, workflow_id).await;
    let report = pdfsig(&pdf);
    assert!(report.matches("Signature is Valid").count() >= 2 && !report.contains("Signature is Invalid"), "{report}");
    let dir = tempfile::tempdir().expect("tmp");
    assert!(page_text(&pdf, 1, dir.path()).contains("ABCDE1234F"), "the PAN is on page 1");
}
