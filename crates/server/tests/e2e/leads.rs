//! Customer referrals and CRM leads end to end (docs/api.md, "Referrals and CRM leads"):
//! referrals with their field rules, duplicates, the referrer's confirmation through a real
//! SMTP server and the administrators' listing; leads upserted by key or contact, concurrently
//! with one row per key, pushed from the outbox to a real HTTP receiver with the Standard
//! Webhooks signature checked and a retry after a failure, and mark-pushed.

use std::sync::{Arc, Mutex};

use aws_lc_rs::hmac;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn, spawn_with};
use signet_testkit::smtp::SmtpSink;

use crate::support::json_of;

on_both_backends!(
    referrals_are_checked_deduplicated_confirmed_and_listed_for_administrators,
    leads_upsert_by_key_or_contact_and_record_pushes,
    concurrent_upserts_of_one_key_make_one_lead,
    the_outbox_pushes_signed_leads_and_retries_after_a_failure,
);

fn referral(email: &str, mobile: &str) -> Value {
    json!({
        "referrerName": "Asha Verma", "referrerMobile": "+91 98765-43210", "referrerEmail": "asha@customer.test",
        "referralName": "Ravi Kumar", "referralMobile": mobile, "referralEmail": email,
    })
}

/// A token of an application with the built-in sender role (no `manage_settings`).
async fn sender_token(app: &TestApp, admin: &str) -> String {
    let created =
        json_of(app.post("/api/v1/applications", admin, json!({"appName": "Website", "roleId": 2})).await, 201).await;
    let key = created["secretKey"].as_str().expect("secretKey");
    let tokens = app
        .client
        .post(app.url("/api/v1/auth/authorize-app"))
        .json(&json!({"appName": "Website", "secretKey": key}))
        .send()
        .await
        .expect("authorize");
    json_of(tokens, 200).await["access_token"].as_str().expect("access_token").to_string()
}

async fn referrals_are_checked_deduplicated_confirmed_and_listed_for_administrators(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = spawn_with(backend, |config| {
        config.workers = true;
        config.worker_poll_ms = 50;
        config.smtp_url = Some(smtp.url());
    })
    .await;
    let tenant = app.tenant("Referral Co").await;
    let admin = app.token(&tenant).await;
    let sender = sender_token(&app, &admin).await;

    // Any signed-in caller records a referral; the referrer is thanked by e-mail.
    let created =
        json_of(app.post("/api/v1/referrals", &sender, referral("Ravi@Example.test", "98765 00000")).await, 201).await;
    assert_eq!(created["referralMobile"], "9876500000");
    assert_eq!(created["referrerMobile"], "+919876543210");
    let mail = smtp.wait_for("asha@customer.test", "Your referral of Ravi Kumar").await;
    assert!(mail.to_string().contains("ravi@example.test") || mail.to_string().contains("Ravi@Example.test"), "{mail}");

    // Every field rule, each refusal naming its field.
    let long = |n: usize| "x".repeat(n);
    for (field, value) in [
        ("referrerName", json!(long(151))),
        ("referrerName", json!("")),
        ("referrerName", Value::Null),
        ("referrerMobile", json!("12345")),
        ("referrerMobile", json!("+91 98765 43210 12345")),
        ("referrerEmail", json!("not an address")),
        ("referrerEmail", json!(format!("{}@example.test", long(250)))),
        ("referralName", json!(long(151))),
        ("referralMobile", json!("phone")),
        ("referralEmail", json!("ravi@")),
    ] {
        let mut body = referral("other@example.test", "9000000001");
        body[field] = value;
        let problem =
            expect_problem(app.post("/api/v1/referrals", &sender, body).await, 400, "validation_failed").await;
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    let mut missing = referral("other@example.test", "9000000001");
    missing.as_object_mut().expect("object").remove("referralEmail");
    let problem = expect_problem(app.post("/api/v1/referrals", &sender, missing).await, 400, "validation_failed").await;
    assert!(problem["errors"]["referralEmail"].is_array(), "{problem}");
    let mut unknown = referral("other@example.test", "9000000001");
    unknown["note"] = json!("x");
    expect_problem(app.post("/api/v1/referrals", &sender, unknown).await, 400, "validation_failed").await;

    // The same person again, by e-mail (ignoring case) or by mobile (ignoring separators).
    for body in [referral("RAVI@example.TEST", "9000000002"), referral("someone@example.test", "98765-00000")] {
        let problem = expect_problem(app.post("/api/v1/referrals", &sender, body).await, 409, "conflict").await;
        let id = created["referralId"].as_i64().expect("id");
        assert!(problem["detail"].as_str().is_some_and(|d| d.contains(&format!("referral {id}"))), "{problem}");
    }
    json_of(app.post("/api/v1/referrals", &admin, referral("meena@example.test", "+44 7700 900123")).await, 201).await;

    // Administrators list and search; a sender may not.
    let page = json_of(app.get("/api/v1/referrals?pageSize=10", &admin).await, 200).await;
    assert_eq!(page["totalCount"], 2);
    assert_eq!(page["items"][0]["referralEmail"], "meena@example.test", "newest first");
    let found = json_of(app.get("/api/v1/referrals?searchText=MEENA", &admin).await, 200).await;
    assert_eq!(found["totalCount"], 1);
    let found = json_of(app.get("/api/v1/referrals?searchText=ravi", &admin).await, 200).await;
    assert_eq!(found["totalCount"], 2, "both referred someone called Ravi Kumar");
    let id = created["referralId"].as_i64().expect("id");
    let one = json_of(app.get(&format!("/api/v1/referrals/{id}"), &admin).await, 200).await;
    assert_eq!(one["referralName"], "Ravi Kumar");
    expect_problem(app.get("/api/v1/referrals", &sender).await, 403, "forbidden").await;
    expect_problem(app.get(&format!("/api/v1/referrals/{id}"), &sender).await, 403, "forbidden").await;
    expect_problem(app.get("/api/v1/referrals/999999", &admin).await, 404, "not_found").await;
    expect_problem(app.get("/api/v1/referrals?pageSize=101", &admin).await, 400, "validation_failed").await;
}

async fn leads_upsert_by_key_or_contact_and_record_pushes(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Lead Co").await;
    let token = app.token(&tenant).await;
    let upsert = |body: Value| app.post("/api/v1/crm/leads", &token, body);

    // Same key: the same lead, changed; fields left out keep their values.
    let first = json!({"leadKey": "web:1", "name": "Kiran", "email": "Kiran@Lead.test", "planId": 3, "amount": 4999.5,
                       "currency": "INR", "billingCycle": "yearly", "subscriptionMode": "trial", "numUsers": 5,
                       "dialcode": "+91", "mobile": "98450 11111", "clientIp": "203.0.113.9"});
    let created = json_of(upsert(first.clone()).await, 201).await;
    let again =
        json_of(upsert(json!({"leadKey": "web:1", "planId": 4, "amount": 0, "subscriptionMode": "paid"})).await, 200)
            .await;
    assert_eq!(again["leadId"], created["leadId"]);
    assert_eq!((again["version"].as_i64(), again["planId"].as_i64()), (Some(2), Some(4)));
    assert_eq!((again["name"].as_str(), again["subscriptionMode"].as_str()), (Some("Kiran"), Some("paid")));
    assert_eq!((again["mobile"].as_str(), again["pushState"].as_str()), (Some("9845011111"), Some("pending")));
    // The address it came from reads back, and is kept only sealed.
    assert_eq!(again["clientIp"], "203.0.113.9", "{again}");
    let in_clear = app.store.fetch_id_for_tests("SELECT COUNT(*) FROM crm_leads WHERE client_ip LIKE '%203.0.113.9%'");
    assert_eq!(in_clear.await.expect("count"), 0, "a lead's address in clear");
    // A billing cycle and a mode as sites spell them are kept in one form.
    let spelt =
        json_of(upsert(json!({"leadKey": "web:1", "billingCycle": "Annually", "subscriptionMode": "PAID"})).await, 200)
            .await;
    assert_eq!((spelt["billingCycle"].as_str(), spelt["subscriptionMode"].as_str()), (Some("yearly"), Some("paid")));

    // Without a key: by e-mail (ignoring case) or by mobile.
    let by_email = json_of(upsert(json!({"email": "kiran@LEAD.test", "numEnvelopes": 20})).await, 200).await;
    assert_eq!(by_email["leadId"], created["leadId"]);
    let by_mobile = json_of(upsert(json!({"mobile": "98450-11111", "state": "Karnataka"})).await, 200).await;
    assert_eq!((by_mobile["leadId"] == created["leadId"], by_mobile["leadKey"].as_str()), (true, Some("web:1")));

    // A new key with a known contact: a keyless lead with that contact is taken over, a keyed
    // one is not (a lead never changes its key); forceByLeadKey never takes one over.
    let keyless = json_of(upsert(json!({"email": "noor@lead.test"})).await, 201).await;
    let adopted = json_of(upsert(json!({"leadKey": "web:2", "email": "noor@lead.test"})).await, 200).await;
    assert_eq!((adopted["leadId"] == keyless["leadId"], adopted["leadKey"].as_str()), (true, Some("web:2")));
    let separate = json_of(upsert(json!({"leadKey": "web:3", "email": "kiran@lead.test"})).await, 201).await;
    assert_ne!(separate["leadId"], created["leadId"]);
    json_of(upsert(json!({"email": "zara@lead.test"})).await, 201).await;
    let forced =
        json_of(upsert(json!({"leadKey": "web:4", "email": "zara@lead.test", "forceByLeadKey": true})).await, 201)
            .await;
    assert_eq!(forced["leadKey"], "web:4");
    let total = json_of(app.get("/api/v1/crm/leads?pageSize=100", &token).await, 200).await["totalCount"].clone();
    assert_eq!(total, 5);

    // Every field rule, each refusal naming its field.
    for (field, value) in [
        ("leadKey", json!("has space")),
        ("leadKey", json!("k".repeat(101))),
        ("visitorId", json!("")),
        ("name", json!("n".repeat(151))),
        ("email", json!("nope")),
        ("mobile", json!("12")),
        ("dialcode", json!("+12345")),
        ("planName", json!("p".repeat(101))),
        ("billingCycle", json!("weekly")),
        ("subscriptionMode", json!("premium")),
        ("currency", json!("inr")),
        ("state", json!("s".repeat(101))),
        ("partnerReferralCode", json!("a b")),
        ("clientIp", json!("not-an-ip")),
        ("userAgent", json!("u".repeat(501))),
        ("planId", json!(-1)),
        ("amount", json!(-0.01)),
        ("amount", json!(2e12)),
        ("numUsers", json!(-1)),
        ("numEnvelopes", json!(-3)),
    ] {
        let mut body = json!({"leadKey": "web:9"});
        body[field] = value;
        let problem = expect_problem(upsert(body).await, 400, "validation_failed").await;
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    for body in [json!({"name": "nobody to find"}), json!({"email": "x@lead.test", "forceByLeadKey": true})] {
        let problem = expect_problem(upsert(body).await, 400, "validation_failed").await;
        assert!(problem["errors"]["leadKey"].is_array(), "{problem}");
    }
    expect_problem(upsert(json!({"leadKey": "web:9", "extra": 1})).await, 400, "validation_failed").await;

    // An outcome of a push made elsewhere takes the lead out of the outbox.
    let mark = |body: Value| app.post("/api/v1/crm/leads/mark-pushed", &token, body);
    let pushed = json!({"leadKey": "web:1", "stage": "crm", "success": true, "crmLeadId": "ZC-42"});
    let marked = json_of(mark(pushed).await, 200).await;
    assert_eq!((marked["pushState"].as_str(), marked["crmLeadId"].as_str()), (Some("pushed"), Some("ZC-42")));
    assert_eq!((marked["pushStage"].as_str(), marked["pushSuccess"].as_bool()), (Some("crm"), Some(true)));
    let failed = json!({"leadKey": "web:3", "stage": "crm", "success": false, "errorMessage": "duplicate in CRM"});
    let marked = json_of(mark(failed).await, 200).await;
    assert_eq!(
        (marked["pushState"].as_str(), marked["pushError"].as_str()),
        (Some("failed"), Some("duplicate in CRM"))
    );
    let outbox = json_of(app.get("/api/v1/crm/leads?pushState=pending", &token).await, 200).await;
    assert_eq!(outbox["totalCount"], 3);
    expect_problem(mark(json!({"leadKey": "web:404", "success": true})).await, 404, "not_found").await;
    let problem = expect_problem(mark(json!({"stage": "crm"})).await, 400, "validation_failed").await;
    assert!(problem["errors"]["leadKey"].is_array() && problem["errors"]["success"].is_array(), "{problem}");
    expect_problem(app.get("/api/v1/crm/leads?pushState=lost", &token).await, 400, "validation_failed").await;
    let id = created["leadId"].as_i64().expect("id");
    let one = json_of(app.get(&format!("/api/v1/crm/leads/{id}"), &token).await, 200).await;
    assert_eq!(one["crmLeadId"], "ZC-42");

    // Leads are the administrators' (manage_settings).
    let sender = sender_token(&app, &token).await;
    expect_problem(app.post("/api/v1/crm/leads", &sender, json!({"leadKey": "s"})).await, 403, "forbidden").await;
    expect_problem(app.get("/api/v1/crm/leads", &sender).await, 403, "forbidden").await;
}

async fn concurrent_upserts_of_one_key_make_one_lead(backend: Backend) {
    let app = Arc::new(spawn(backend).await);
    let tenant = app.tenant("Busy Co").await;
    let token = app.token(&tenant).await;
    let mut tasks = Vec::new();
    for i in 0..16 {
        let (app, token) = (app.clone(), token.clone());
        tasks.push(tokio::spawn(async move {
            let body = json!({"leadKey": "race:1", "name": format!("try {i}"), "numUsers": i});
            let response = app.post("/api/v1/crm/leads", &token, body).await;
            response.status().as_u16()
        }));
    }
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.expect("task"));
    }
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 15, "{statuses:?}");
    let page = json_of(app.get("/api/v1/crm/leads?searchText=race", &token).await, 200).await;
    assert_eq!(page["totalCount"], 1, "{page}");
    assert_eq!(page["items"][0]["version"], 16);
}

#[derive(Default)]
struct Inbox {
    /// (webhook-id, webhook-timestamp, webhook-signature, body)
    received: Vec<(String, String, String, String)>,
    /// Answer 500 to this many requests first.
    fail_first: usize,
}

type Shared = Arc<Mutex<Inbox>>;

async fn receiver(fail_first: usize) -> (String, Shared) {
    let inbox: Shared = Arc::new(Mutex::new(Inbox { fail_first, ..Inbox::default() }));
    let app = axum::Router::new()
        .route(
            "/crm",
            post(|State(inbox): State<Shared>, headers: HeaderMap, body: String| async move {
                let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
                let mut inbox = inbox.lock().expect("lock");
                inbox.received.push((
                    header("webhook-id"),
                    header("webhook-timestamp"),
                    header("webhook-signature"),
                    body,
                ));
                if inbox.received.len() <= inbox.fail_first {
                    StatusCode::INTERNAL_SERVER_ERROR
                } else {
                    StatusCode::NO_CONTENT
                }
            }),
        )
        .with_state(inbox.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/crm", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, inbox)
}

/// The Standard Webhooks check, written here from the specification (HMAC-SHA256 over
/// `id.timestamp.body` with the secret after `whsec_`), not with Signet's code.
fn verifies(secret: &str, id: &str, timestamp: &str, body: &str, signature: &str) -> bool {
    let Some(key) = secret.strip_prefix("whsec_").and_then(|k| STANDARD.decode(k).ok()) else { return false };
    let tag = hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, &key), format!("{id}.{timestamp}.{body}").as_bytes());
    let expected = STANDARD.encode(tag.as_ref());
    signature.split(' ').any(|s| s.strip_prefix("v1,") == Some(expected.as_str()))
}

async fn lead_state(app: &TestApp, token: &str, id: i64, want: &str) -> Value {
    for _ in 0..200 {
        let lead = json_of(app.get(&format!("/api/v1/crm/leads/{id}"), token).await, 200).await;
        if lead["pushState"] == want {
            return lead;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("lead {id} never became {want}");
}

async fn the_outbox_pushes_signed_leads_and_retries_after_a_failure(backend: Backend) {
    let app = spawn_with(backend, |config| {
        config.workers = true;
        config.worker_poll_ms = 50;
        config.job_retry_base_ms = 100;
        config.outbound_allow_private = true;
    })
    .await;
    let tenant = app.tenant("Pushy Co").await;
    let token = app.token(&tenant).await;

    // Before an endpoint is set, leads wait in the outbox.
    let lead =
        json_of(app.post("/api/v1/crm/leads", &token, json!({"leadKey": "p:1", "name": "Early"})).await, 201).await;
    let id = lead["leadId"].as_i64().expect("id");
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(json_of(app.get(&format!("/api/v1/crm/leads/{id}"), &token).await, 200).await["pushState"], "pending");

    // The endpoint's URL is checked; setting it pushes the outbox, the first answer a 500.
    let problem = expect_problem(
        app.put("/api/v1/crm/settings", &token, json!({"url": "ftp://crm.test/"})).await,
        400,
        "validation_failed",
    )
    .await;
    assert!(problem["errors"]["url"].is_array(), "{problem}");
    let (url, inbox) = receiver(1).await;
    let settings = json_of(app.put("/api/v1/crm/settings", &token, json!({"url": url})).await, 200).await;
    let secret = settings["secret"].as_str().expect("secret").to_string();
    let shown = json_of(app.get("/api/v1/crm/settings", &token).await, 200).await;
    assert_eq!((shown["url"].as_str(), shown.get("secret")), (Some(url.as_str()), None));
    let pushed = lead_state(&app, &token, id, "pushed").await;
    assert_eq!((pushed["pushSuccess"].as_bool(), pushed["pushStage"].as_str()), (Some(true), Some("outbox")));
    let received = inbox.lock().expect("lock").received.clone();
    assert_eq!(received.len(), 2, "a failure, then the retry: {received:?}");
    assert_eq!(received[0].0, received[1].0, "one message id on every attempt");
    for (message_id, timestamp, signature, body) in &received {
        assert!(verifies(&secret, message_id, timestamp, body, signature), "bad signature on {body}");
        let body: Value = serde_json::from_str(body).expect("json");
        assert_eq!((body["type"].as_str(), body["data"]["leadKey"].as_str()), (Some("crm.lead"), Some("p:1")));
    }

    // A change is a new version, pushed once more.
    json_of(app.post("/api/v1/crm/leads", &token, json!({"leadKey": "p:1", "planName": "Business"})).await, 200).await;
    lead_state(&app, &token, id, "pushed").await;
    for _ in 0..100 {
        if inbox.lock().expect("lock").received.len() == 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let received = inbox.lock().expect("lock").received.clone();
    assert_eq!(received.len(), 3, "{received:?}");
    let (message_id, timestamp, signature, body) = &received[2];
    assert!(verifies(&secret, message_id, timestamp, body, signature));
    assert!(body.contains("\"planName\":\"Business\"") && body.contains("\"version\":2"), "{body}");
}

/// The document states exactly the domain's bounds and patterns (the attributes cannot name
/// the constants, so they are compared here).
#[test]
fn the_documents_rules_are_the_domains() {
    use signet_domain::sales::*;
    let document: Value = serde_json::to_value(signet_server::openapi::document()).expect("document");
    let schemas = &document["components"]["schemas"];
    let field = |schema: &str, name: &str| schemas[schema]["properties"][name].clone();
    let referral = "CustomerReferralCreateRequest";
    assert_eq!(field(referral, "referrerName")["maxLength"], MAX_NAME_CHARS);
    assert_eq!(field(referral, "referralEmail")["maxLength"], MAX_EMAIL_CHARS);
    assert_eq!(field(referral, "referralMobile")["maxLength"], MAX_MOBILE_CHARS);
    assert_eq!(field(referral, "referralMobile")["pattern"], MOBILE_PATTERN);
    let lead = "CrmLeadUpsertRequest";
    assert_eq!(field(lead, "leadKey")["pattern"], KEY_PATTERN);
    assert_eq!(field(lead, "leadKey")["maxLength"], MAX_KEY_CHARS);
    assert_eq!(field(lead, "visitorId")["pattern"], KEY_PATTERN);
    assert_eq!(field(lead, "mobile")["pattern"], MOBILE_PATTERN);
    assert_eq!(field(lead, "dialcode")["pattern"], DIALCODE_PATTERN);
    assert_eq!(field(lead, "dialcode")["maxLength"], MAX_DIALCODE_CHARS);
    assert_eq!(field(lead, "currency")["pattern"], CURRENCY_PATTERN);
    assert_eq!(field(lead, "partnerReferralCode")["pattern"], PARTNER_CODE_PATTERN);
    assert_eq!(field(lead, "partnerReferralCode")["maxLength"], MAX_PARTNER_CODE_CHARS);
    assert_eq!(field(lead, "clientIp")["pattern"], CLIENT_IP_PATTERN);
    assert_eq!(field(lead, "clientIp")["maxLength"], MAX_CLIENT_IP_CHARS);
    assert_eq!(field(lead, "planName")["maxLength"], MAX_PLAN_NAME_CHARS);
    assert_eq!(field(lead, "state")["maxLength"], MAX_STATE_CHARS);
    assert_eq!(field(lead, "userAgent")["maxLength"], MAX_USER_AGENT_CHARS);
    assert_eq!(field(lead, "name")["maxLength"], MAX_NAME_CHARS);
    assert_eq!(field(lead, "amount")["maximum"].as_f64(), Some(MAX_AMOUNT));
    assert_eq!(field(lead, "billingCycle")["pattern"], signet_domain::spelling::pattern_of(&BILLING_CYCLES));
    assert_eq!(field(lead, "subscriptionMode")["pattern"], signet_domain::spelling::pattern_of(&SUBSCRIPTION_MODES));
    let pushed = "CrmLeadMarkPushedRequest";
    assert_eq!(field(pushed, "stage")["maxLength"], MAX_STAGE_CHARS);
    assert_eq!(field(pushed, "crmLeadId")["maxLength"], MAX_CRM_ID_CHARS);
    assert_eq!(field(pushed, "errorMessage")["maxLength"], MAX_ERROR_CHARS);
    assert_eq!(field(pushed, "leadKey")["pattern"], KEY_PATTERN);
}
