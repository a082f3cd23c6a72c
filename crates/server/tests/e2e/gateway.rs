//! The signing gateway end to end: an integrator's envelope (built by the client SDK) posted
//! to a real server, the signer page, and the result posted back, checked by pdfsig.

use serde_json::Value;
use signet_client::{
    PageSelection, PayloadBuilder, Profile, SealedRequest, SignaturePosition, SignatureType, open_result, seal_request,
};
use signet_store::Backend;
use signet_testkit::gateway::{Integrator, erp_urls};
use signet_testkit::on_both_backends;
use signet_testkit::pdf::numbered_pages;
use signet_testkit::problem::posted_fields;
use signet_testkit::server::{TestApp, spawn, spawn_with};
use signet_testkit::validators::pdfsig;

use crate::support::submit;

on_both_backends!(
    typed_signature_through_the_gateway_validates_in_pdfsig,
    gateway_errors_reach_the_right_address,
    co_signing_keeps_earlier_signatures_valid_and_one_reference_wins_a_race,
    a_sealing_failure_shows_no_internal_detail,
    a_finished_transaction_is_erased_when_its_period_ends,
);

fn pdf_payload(pdf: &[u8], who: &Integrator, reference: &str) -> PayloadBuilder {
    PayloadBuilder::pdf(pdf, "Asha Verma")
        .reference_number(reference)
        .authtoken(&who.authtoken)
        .signature_types(&[SignatureType::ESignature])
        .urls(&erp_urls())
        .pages(&PageSelection::All)
        .position(SignaturePosition::BottomRight)
        .font_signature(true)
        .draw_signature(true)
        .preview(true)
        .store_to_db(true)
}

/// An integrator of a new tenant "Acme Bank".
async fn integrator(app: &TestApp) -> Integrator {
    app.integrator("Acme Bank").await.0
}

async fn typed_signature_through_the_gateway_validates_in_pdfsig(backend: Backend) {
    let app = spawn(backend).await;
    let who = integrator(&app).await;
    let pdf = numbered_pages("Loan agreement", 2);
    for (profile, reference) in [(Profile::Legacy, "LOAN-0001"), (Profile::Modern, "LOAN-0002")] {
        let payload = pdf_payload(&pdf, &who, reference).build().expect("payload");
        let sealed = seal_request(&who.certificate, profile, &payload, time::OffsetDateTime::now_utc()).expect("seal");
        let response = submit(&app, &who, &sealed).await;
        assert_eq!(response.status(), 303, "{:?}", response.text().await);
        let link = response.headers()["location"].to_str().expect("location").to_string();
        assert!(link.starts_with("/sign/g/SGN"));

        let page = app.client.get(app.url(&link)).send().await.expect("page");
        assert!(page.headers()["content-security-policy"].to_str().expect("csp").contains("frame-ancestors 'none'"));
        let html = page.text().await.expect("html");
        assert!(html.contains("Acme Bank") && html.contains("Type your name"), "{html}");
        // A browser that asks for Hindi gets the page in Hindi; the forms keep the language.
        let hindi = app.client.get(app.url(&link)).header("accept-language", "hi-IN,hi;q=0.9").send().await;
        let hindi = hindi.expect("page").text().await.expect("html");
        assert!(hindi.contains(r#"<html lang="hi">"#) && hindi.contains("रद्द करें"), "{hindi}");
        assert!(hindi.contains(&format!(r#"action="{link}/sign?lang=hi""#)), "{hindi}");

        // PreviewRequired: every page is rendered into the page as an image (phones included).
        assert!(html.contains(&format!("{link}/pages/1")) && html.contains(&format!("{link}/pages/2")), "{html}");
        let image = app.client.get(app.url(&format!("{link}/pages/2"))).send().await.expect("page image");
        assert_eq!(image.headers()["content-type"], "image/png");
        assert!(image.bytes().await.expect("png").starts_with(b"\x89PNG"));
        let beyond = app.client.get(app.url(&format!("{link}/pages/3"))).send().await.expect("beyond");
        assert_eq!(beyond.status(), 404);

        // No consent: the page asks again and nothing is signed.
        let refused = app
            .client
            .post(app.url(&format!("{link}/sign")))
            .form(&[("mode", "typed"), ("typedName", "Asha Verma")])
            .send()
            .await
            .expect("sign");
        assert!(refused.text().await.expect("html").contains("agree to sign"));

        // The typed path works without JavaScript: a plain form post.
        let signed = app
            .client
            .post(app.url(&format!("{link}/sign")))
            .header("user-agent", "gateway-test/1.0")
            .form(&[("mode", "typed"), ("typedName", "Asha Verma"), ("consent", "on")])
            .send()
            .await
            .expect("sign");
        let html = signed.text().await.expect("html");
        let (action, fields) = posted_fields(&html);
        assert_eq!(action, "https://erp.example.test/signed");
        assert_eq!(fields["ReturnStatus"], "Success", "{html}");
        assert_eq!(fields["Referencenumber"], reference);
        let signed_pdf = open_result(&sealed.session, profile, &fields["Returnvalue"]).expect("open Returnvalue");
        assert!(signed_pdf.starts_with(b"%PDF"));
        assert!(signed_pdf.starts_with(&pdf[..pdf.len().min(64)]), "incremental: the original bytes come first");
        let report = pdfsig(&signed_pdf);
        assert!(report.contains("Signature is Valid."), "{report}");
        assert!(!report.contains("Digest Mismatch"), "{report}");

        // Stored result and status, and the link is spent.
        let status: Value = app
            .client
            .get(app.url(&format!(
                "/api/TransactionStatusRequest?Authtoken={}&Transactionnumber={}&Referencenumber={reference}",
                who.authtoken, fields["Transactionnumber"]
            )))
            .send()
            .await
            .expect("status")
            .json()
            .await
            .expect("json");
        assert_eq!(status["Value"]["Status"], "Completed");
        // Without a TSA the status says how far the signature got: signed, not time-stamped.
        let row = app.store.transaction(&fields["Transactionnumber"]).await.expect("store").expect("row");
        assert_eq!(row.signature_level.as_deref(), Some("PAdES-B-B"));
        let again = app.client.get(app.url(&link)).send().await.expect("page");
        assert_eq!(again.status(), 410);
    }
}

async fn gateway_errors_reach_the_right_address(backend: Backend) {
    let app = spawn(backend).await;
    let who = integrator(&app).await;
    let pdf = numbered_pages("Loan agreement", 1);
    let now = time::OffsetDateTime::now_utc;

    // 109: an envelope that cannot be opened has no trusted return address: an HTML page.
    let garbage = who
        .http
        .post(app.url("/eMsecure/V3_0/Index"))
        .form(&[("Parameter1", "AAAA"), ("Parameter2", "BBBB"), ("Parameter3", "CCCC")])
        .send()
        .await
        .expect("send");
    assert_eq!(garbage.status(), 400);
    assert!(garbage.text().await.expect("html").contains("109: Invalid Request"));

    let expect_failure = |sealed: SealedRequest, code: &'static str, to: &'static str| {
        let (app, who) = (&app, &who);
        async move {
            let response = submit(app, who, &sealed).await;
            let html = response.text().await.expect("html");
            let (action, fields) = posted_fields(&html);
            assert_eq!(action, to, "{html}");
            assert_eq!(fields["ReturnStatus"], "Failure");
            assert!(fields["ErrorMessage"].starts_with(code), "{code}: {}", fields["ErrorMessage"]);
            fields
        }
    };
    let seal = |payload: Vec<u8>| seal_request(&who.certificate, Profile::Modern, &payload, now()).expect("seal");

    // 104: an unknown Authtoken.
    let mut stranger = Integrator { authtoken: "sga_unknown".into(), ..integrator(&app).await };
    stranger.http = who.http.clone();
    let payload = pdf_payload(&pdf, &stranger, "REF-104").build().expect("payload");
    expect_failure(seal(payload), "104", "https://erp.example.test/failed").await;

    // 107: a page beyond the document.
    let payload = pdf_payload(&pdf, &who, "REF-107").pages(&PageSelection::Specify(vec![3])).to_value();
    let sealed = seal(serde_json::to_vec(&payload).expect("json"));
    expect_failure(sealed, "107", "https://erp.example.test/failed").await;

    // 107: a custom box off the page (A4 reportlab page is 612 x 792 points).
    let off = signet_client::BoxRect { left: 560.0, top: 700.0, width: 200.0, height: 60.0 };
    let payload = pdf_payload(&pdf, &who, "REF-107b").position(SignaturePosition::Customize(off)).to_value();
    let fields =
        expect_failure(seal(serde_json::to_vec(&payload).expect("json")), "107", "https://erp.example.test/failed")
            .await;
    assert!(fields["ErrorMessage"].contains("outside page 1"), "{}", fields["ErrorMessage"]);

    // 108: a reference number used before.
    let first = pdf_payload(&pdf, &who, "REF-108").build().expect("payload");
    assert_eq!(submit(&app, &who, &seal(first.clone())).await.status(), 303);
    expect_failure(seal(first), "108", "https://erp.example.test/failed").await;

    // 114: eSignature for XML.
    let xml = PayloadBuilder::xml(b"<a>1</a>")
        .reference_number("REF-114")
        .authtoken(&who.authtoken)
        .signature_types(&[SignatureType::ESignature])
        .urls(&erp_urls())
        .to_value();
    expect_failure(seal(serde_json::to_vec(&xml).expect("json")), "114", "https://erp.example.test/failed").await;

    // 105: the account switched PDF off; then the legacy envelope off (109 to Furl).
    let admin = app.tenant("Other").await;
    let _ = admin;
    let tenant_id = app.store.authtoken_by_hash(&signet_server::secrets::hash_token(&who.authtoken)).await;
    let tenant_id = tenant_id.expect("lookup").expect("token").1;
    let actor = signet_domain::audit::Actor::system();
    let narrow = signet_store::GatewaySettings {
        file_types: vec!["HASH".into()],
        signature_types: vec![4],
        legacy_profile: false,
    };
    app.store.put_gateway_settings(tenant_id, &narrow, &actor).await.expect("settings");
    let payload = pdf_payload(&pdf, &who, "REF-105").build().expect("payload");
    expect_failure(seal(payload.clone()), "105", "https://erp.example.test/failed").await;
    let legacy = seal_request(&who.certificate, Profile::Legacy, &payload, now()).expect("seal");
    expect_failure(legacy, "109", "https://erp.example.test/failed").await;
    let wide = signet_store::GatewaySettings::default();
    app.store.put_gateway_settings(tenant_id, &wide, &actor).await.expect("settings");

    // 105 too: Aadhaar eSign alone, on a service with no ESP configured (nothing would let the
    // signer sign); with another type beside it, the signer signs that way.
    let esign_only = pdf_payload(&pdf, &who, "REF-105e").signature_types(&[SignatureType::ESign]);
    let fields =
        expect_failure(seal(esign_only.build().expect("payload")), "105", "https://erp.example.test/failed").await;
    assert_eq!(fields["Referencenumber"], "REF-105e");
    let either =
        pdf_payload(&pdf, &who, "REF-105f").signature_types(&[SignatureType::ESign, SignatureType::ESignature]);
    assert_eq!(submit(&app, &who, &seal(either.build().expect("payload"))).await.status(), 303);

    // A refused reference number is echoed as sent, so the integrator can match the refusal.
    let long = "R".repeat(21);
    let payload = serde_json::to_vec(&pdf_payload(&pdf, &who, &long).to_value()).expect("json");
    let fields = expect_failure(seal(payload), "107", "https://erp.example.test/failed").await;
    assert_eq!(fields["Referencenumber"], long);

    // 106: the signer cancels; the result goes to Curl.
    let payload = pdf_payload(&pdf, &who, "REF-106").build().expect("payload");
    let response = submit(&app, &who, &seal(payload)).await;
    let link = response.headers()["location"].to_str().expect("location").to_string();
    let cancelled = app.client.post(app.url(&format!("{link}/cancel"))).send().await.expect("cancel");
    let (action, fields) = posted_fields(&cancelled.text().await.expect("html"));
    assert_eq!(action, "https://erp.example.test/cancelled");
    assert!(fields["ErrorMessage"].starts_with("106"));

    // 115 / 116 are shown to the signer, who may try again.
    let payload = pdf_payload(&pdf, &who, "REF-115").upload_signature(true).build().expect("payload");
    let response = submit(&app, &who, &seal(payload)).await;
    let link = response.headers()["location"].to_str().expect("location").to_string();
    let upload = |name: &'static str, bytes: Vec<u8>| {
        let form = reqwest::multipart::Form::new()
            .text("mode", "upload")
            .text("consent", "on")
            .part("image", reqwest::multipart::Part::bytes(bytes).file_name(name));
        app.client.post(app.url(&format!("{link}/sign"))).multipart(form).send()
    };
    let gif = upload("sig.gif", b"GIF89a....".to_vec()).await.expect("send").text().await.expect("html");
    assert!(gif.contains("115"), "{gif}");
    let mut tiny_png = b"\x89PNG\r\n\x1a\n".to_vec();
    tiny_png.extend_from_slice(&[0u8; 64]);
    let small = upload("sig.png", tiny_png).await.expect("send").text().await.expect("html");
    assert!(small.contains("116"), "{small}");
    let still_open = app.client.get(app.url(&link)).send().await.expect("page");
    assert_eq!(still_open.status(), 200, "the signer can try again");
    // Giving up right after the refusal delivers its code to Furl, not a bare 106 to Curl.
    let (action, form) = cancel_form(&small);
    let gave_up = app.client.post(app.url(&action)).form(&form).send().await.expect("cancel");
    let (action, fields) = posted_fields(&gave_up.text().await.expect("html"));
    assert_eq!(action, "https://erp.example.test/failed");
    assert!(fields["ErrorMessage"].starts_with("116"), "{fields:?}");
    assert_eq!(fields["Referencenumber"], "REF-115");
}

/// The signing page's cancel form: its action and fields.
fn cancel_form(html: &str) -> (String, Vec<(String, String)>) {
    let start = html.find("class=\"cancel\"").map(|i| html[..i].rfind("<form").unwrap_or(0)).expect("a cancel form");
    let form = &html[start..start + html[start..].find("</form>").expect("form end")];
    let attr = |tag: &str, name: &str| {
        tag.split(&format!("{name}=\"")).nth(1).and_then(|r| r.split('"').next()).map(signet_testkit::problem::unescape)
    };
    let action = attr(form, "action").expect("action");
    let fields = form
        .split("<input")
        .skip(1)
        .filter_map(|input| Some((attr(input, "name")?, attr(input, "value").unwrap_or_default())))
        .collect();
    (action, fields)
}

/// A local origin serving one document, standing in for the integrator's DocumentURL host.
async fn document_origin(bytes: &'static [u8]) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let router = axum::Router::new().route("/doc.pdf", axum::routing::get(move || async move { bytes }));
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{addr}/doc.pdf")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hash_checking_fetches_document_urls_only_when_enabled_and_only_where_allowed() {
    const DOCUMENT: &[u8] = b"%PDF-1.7 the integrator's document";
    let url = document_origin(DOCUMENT).await;
    let right = hex_sha256(DOCUMENT);
    let wrong = hex_sha256(b"something else");
    let hash_payload = |who: &Integrator, reference: &str, hash: &str| {
        let details =
            [signet_client::DocumentDetail { name: "Invoice 7".into(), url: url.clone(), hash_hex: hash.into() }];
        PayloadBuilder::hash(&details)
            .reference_number(reference)
            .authtoken(&who.authtoken)
            .signature_types(&[SignatureType::ESignature])
            .urls(&erp_urls())
            .build()
            .expect("payload")
    };
    let now = time::OffsetDateTime::now_utc;

    let checking = spawn_with(Backend::Sqlite, |c| {
        c.gateway_hash_check = true;
        c.outbound_allow_private = true;
    })
    .await;
    let who = integrator(&checking).await;
    let sealed =
        seal_request(&who.certificate, Profile::Modern, &hash_payload(&who, "H-1", &right), now()).expect("seal");
    assert_eq!(submit(&checking, &who, &sealed).await.status(), 303, "a matching hash is accepted");
    let sealed =
        seal_request(&who.certificate, Profile::Modern, &hash_payload(&who, "H-2", &wrong), now()).expect("seal");
    let html = submit(&checking, &who, &sealed).await.text().await.expect("html");
    let (_, fields) = posted_fields(&html);
    assert!(fields["ErrorMessage"].starts_with("107") && fields["ErrorMessage"].contains("does not match"), "{html}");

    // SSRF guard: with private addresses not allowed, a loopback DocumentURL is not fetched.
    let guarded = spawn_with(Backend::Sqlite, |c| c.gateway_hash_check = true).await;
    let who = integrator(&guarded).await;
    let sealed =
        seal_request(&who.certificate, Profile::Modern, &hash_payload(&who, "H-3", &right), now()).expect("seal");
    let html = submit(&guarded, &who, &sealed).await.text().await.expect("html");
    let (_, fields) = posted_fields(&html);
    assert!(
        fields["ErrorMessage"].starts_with("107") && fields["ErrorMessage"].contains("could not be fetched"),
        "{html}"
    );

    // Off by default: nothing is fetched, so even a wrong hash goes on to the signer.
    let default = spawn(Backend::Sqlite).await;
    let who = integrator(&default).await;
    let sealed =
        seal_request(&who.certificate, Profile::Modern, &hash_payload(&who, "H-4", &wrong), now()).expect("seal");
    assert_eq!(submit(&default, &who, &sealed).await.status(), 303);
}

fn hex_sha256(bytes: &[u8]) -> String {
    signet_gateway::sha256(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Signs `pdf` through the gateway with a typed name and returns the signed PDF.
async fn sign_through_gateway(app: &TestApp, who: &Integrator, pdf: &[u8], reference: &str, cosign: bool) -> Vec<u8> {
    let payload = pdf_payload(pdf, who, reference).cosign(cosign).build().expect("payload");
    let sealed =
        seal_request(&who.certificate, Profile::Modern, &payload, time::OffsetDateTime::now_utc()).expect("seal");
    let response = submit(app, who, &sealed).await;
    let link = response.headers()["location"].to_str().expect("location").to_string();
    let signed = app
        .client
        .post(app.url(&format!("{link}/sign")))
        .form(&[("mode", "typed"), ("typedName", reference), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    let (_, fields) = posted_fields(&signed.text().await.expect("html"));
    assert_eq!(fields["ReturnStatus"], "Success", "{fields:?}");
    open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("open")
}

async fn co_signing_keeps_earlier_signatures_valid_and_one_reference_wins_a_race(backend: Backend) {
    let app = spawn(backend).await;
    let who = integrator(&app).await;
    let pdf = numbered_pages("Loan agreement", 1);
    let first = sign_through_gateway(&app, &who, &pdf, "CO-1", true).await;
    let second = sign_through_gateway(&app, &who, &first, "CO-2", false).await;
    assert!(second.starts_with(&first), "the second signature is an incremental update");
    let report = pdfsig(&second);
    assert_eq!(report.matches("Signature is Valid.").count(), 2, "{report}");

    // Eight browsers post the same reference at once: exactly one transaction is accepted.
    let payload = pdf_payload(&pdf, &who, "RACE-1").build().expect("payload");
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let sealed =
            seal_request(&who.certificate, Profile::Modern, &payload, time::OffsetDateTime::now_utc()).expect("seal");
        let (url, http) = (app.url("/eMsecure/V3_0/Index"), who.http.clone());
        tasks.push(tokio::spawn(async move {
            http.post(url).form(&sealed.form_fields()).send().await.expect("submit").status().as_u16()
        }));
    }
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.expect("task"));
    }
    assert_eq!(statuses.iter().filter(|s| **s == 303).count(), 1, "{statuses:?}");
}

async fn a_sealing_failure_shows_no_internal_detail(backend: Backend) {
    // A TSA that does not answer makes sealing fail inside the server.
    let app = spawn_with(backend, |c| {
        c.tsa_url = Some("http://127.0.0.1:9/tsa-internal".into());
        c.outbound_allow_private = true;
    })
    .await;
    let who = integrator(&app).await;
    let payload = pdf_payload(&numbered_pages("Loan agreement", 1), &who, "LOAN-FAIL").build().expect("payload");
    let sealed =
        seal_request(&who.certificate, Profile::Modern, &payload, time::OffsetDateTime::now_utc()).expect("seal");
    let response = submit(&app, &who, &sealed).await;
    assert_eq!(response.status(), 303);
    let link = response.headers()["location"].to_str().expect("location").to_string();
    let answer = app
        .client
        .post(app.url(&format!("{link}/sign")))
        .form(&[("mode", "typed"), ("typedName", "Asha Verma"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    let html = answer.text().await.expect("html");
    let (action, fields) = posted_fields(&html);
    assert_eq!(action, "https://erp.example.test/failed");
    let message = fields.get("ErrorMessage").cloned().unwrap_or_default();
    assert!(message.contains("the document could not be signed"), "{message}");
    for internal in ["127.0.0.1", "tsa-internal", "POST", "refused", "os error"] {
        assert!(!html.contains(internal), "{internal} in {html}");
    }
}

/// Issue 34: an organisation's `gatewayDays` period erases a finished transaction's request,
/// document and result at the sweep, behind a sealed tombstone, and keeps its number and outcome.
async fn a_finished_transaction_is_erased_when_its_period_ends(backend: Backend) {
    let app = spawn(backend).await;
    let (who, token) = app.integrator("Short Memory Bank").await;
    sign_through_gateway(&app, &who, &numbered_pages("Loan agreement", 1), "ERASE-1", false).await;
    let kept = "UPDATE gateway_transactions SET state = state WHERE state = 'completed' AND erased_at IS NULL \
                AND result_blob IS NOT NULL AND request_json <> '{}'";
    assert_eq!(app.store.execute_for_tests(kept).await.expect("count"), 1);
    let sweep = || signet_services::privacy::sweep::sweep(&app.state.services, signet_domain::now_millis());
    assert_eq!(sweep().await.expect("sweep").transactions, 0, "no period: kept");

    let saved = app.put("/api/v1/retention", &token, serde_json::json!({"gatewayDays": 0})).await;
    assert_eq!(saved.status(), 200);
    assert_eq!(sweep().await.expect("sweep").transactions, 1);
    let erased = "UPDATE gateway_transactions SET state = state WHERE state = 'completed' AND erased_at IS NOT NULL \
                  AND result_blob IS NULL AND payload_blob IS NULL AND request_json = '{}'";
    assert_eq!(app.store.execute_for_tests(erased).await.expect("count"), 1);
    let audit: Vec<Value> = app.get("/api/v1/audit?limit=500", &token).await.json().await.expect("audit");
    let tombstone = audit.iter().find(|e| e["action"] == "gateway.erased").expect("tombstone");
    assert!(tombstone["detail"].as_str().is_some_and(|d| d.contains("\\\"transactions\\\"") && d.contains("seal")));
    assert_eq!(sweep().await.expect("sweep").transactions, 0, "erased once");
}
