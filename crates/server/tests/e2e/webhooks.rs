//! Webhooks against a real receiving server: Standard Webhooks headers and signatures checked
//! by an independent implementation (Python's hmac), retries with the same message id,
//! redelivery, SSRF refusal, tenant isolation, and deliveries that survive a restart.

use std::process::Command;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_store::Backend;
use signet_testkit::db::TestDb;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::one_page;
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn_with};

on_both_backends!(
    events_arrive_signed_and_failures_are_retried_with_the_same_id,
    private_addresses_and_other_tenants_are_refused,
    pending_deliveries_survive_a_restart,
    nothing_is_delivered_to_a_deleted_endpoint,
    a_failing_endpoint_is_paused_its_owner_told_and_resuming_delivers,
);

#[derive(Default)]
struct Inbox {
    /// (webhook-id, webhook-timestamp, webhook-signature, body)
    received: Vec<(String, String, String, String)>,
    /// Answer 500 to this many `workflow.created` requests first.
    fail_first: usize,
    failed: usize,
    /// Answer 500 to everything while set.
    down: bool,
}

type Shared = Arc<Mutex<Inbox>>;

async fn receiver(fail_first: usize) -> (String, Shared) {
    let inbox: Shared = Arc::new(Mutex::new(Inbox { fail_first, ..Inbox::default() }));
    let app = axum::Router::new()
        .route(
            "/hooks",
            post(|State(inbox): State<Shared>, headers: HeaderMap, body: String| async move {
                let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
                let mut inbox = inbox.lock().expect("lock");
                let created = body.contains("\"type\":\"workflow.created\"");
                inbox.received.push((
                    header("webhook-id"),
                    header("webhook-timestamp"),
                    header("webhook-signature"),
                    body,
                ));
                if inbox.down {
                    StatusCode::INTERNAL_SERVER_ERROR
                } else if created && inbox.failed < inbox.fail_first {
                    inbox.failed += 1;
                    StatusCode::INTERNAL_SERVER_ERROR
                } else {
                    StatusCode::NO_CONTENT
                }
            }),
        )
        .with_state(inbox.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/hooks", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, inbox)
}

/// Verifies a Standard Webhooks signature with Python's hmac, not our code.
fn python_verifies(secret: &str, id: &str, timestamp: &str, body: &str, signature: &str) -> bool {
    let script = "import base64,hashlib,hmac,sys\n\
        secret,id_,ts,body,sig=sys.argv[1:6]\n\
        key=base64.b64decode(secret.split('_',1)[1])\n\
        mac=base64.b64encode(hmac.new(key,f'{id_}.{ts}.{body}'.encode(),hashlib.sha256).digest()).decode()\n\
        sys.exit(0 if any(s.split(',',1)[1]==mac for s in sig.split(' ')) else 1)\n";
    Command::new("python3")
        .args(["-c", script, secret, id, timestamp, body, signature])
        .status()
        .expect("python3")
        .success()
}

async fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..400 {
        if done() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}

fn fast(config: &mut signet_server::Config) {
    config.workers = true;
    config.worker_poll_ms = 50;
    config.job_retry_base_ms = 20;
    config.outbound_allow_private = true;
}

async fn token(app: &TestApp, name: &str) -> String {
    let tenant = app.tenant(name).await;
    app.token(&tenant).await
}

async fn events_arrive_signed_and_failures_are_retried_with_the_same_id(backend: Backend) {
    let app = spawn_with(backend, fast).await;
    let token = token(&app, "Hooked").await;
    let (url, inbox) = receiver(2).await;
    let created =
        app.post("/api/v1/webhooks", &token, json!({"url": url, "eventTypes": ["*"], "description": "erp"})).await;
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.expect("json");
    let secret = created["secret"].as_str().expect("secret").to_string();
    assert!(secret.starts_with("whsec_"));
    let webhook_id = created["webhookId"].as_i64().expect("id");

    // A one-signer workflow: created, notified, viewed, signed, completed.
    let uploaded: Value = app
        .post(
            "/api/v1/documents",
            &token,
            json!({"documentName": "a.pdf", "fileData": STANDARD.encode(one_page("Hook me"))}),
        )
        .await
        .json()
        .await
        .expect("json");
    let started: Value = app
        .post(
            "/api/v1/workflows",
            &token,
            json!({"templateId": 0, "documentIds": [uploaded["documentId"]], "signatories": [{"subscriberId": 0, "emailId": "s@x.test", "signingOrder": 1}]}),
        )
        .await
        .json()
        .await
        .expect("json");
    let link = started["signingUrls"][0]["url"].as_str().expect("url").to_string();
    let http = reqwest::Client::new();
    http.get(&link).send().await.expect("view");
    let signed = http
        .post(format!("{link}/sign"))
        .form(&[("mode", "typed"), ("typedName", "S"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    assert_eq!(signed.status(), 200);

    let types_of = |inbox: &Shared| -> Vec<String> {
        let inbox = inbox.lock().expect("lock");
        inbox
            .received
            .iter()
            .filter_map(|(_, _, _, body)| serde_json::from_str::<Value>(body).ok())
            .filter_map(|b| b["type"].as_str().map(str::to_string))
            .collect()
    };
    let created_attempts = |inbox: &Shared| {
        inbox.lock().expect("lock").received.iter().filter(|(_, _, _, b)| b.contains("workflow.created")).count()
    };
    // Deliveries of different events are independent jobs: they may arrive in any order.
    let expected_types =
        ["workflow.created", "signatory.notified", "signatory.viewed", "signatory.signed", "workflow.completed"];
    wait_until("every event and the third attempt at workflow.created", || {
        let types = types_of(&inbox);
        expected_types.iter().all(|e| types.iter().any(|t| t == e)) && created_attempts(&inbox) >= 3
    })
    .await;
    let types = types_of(&inbox);
    for expected in expected_types {
        assert!(types.iter().any(|t| t == expected), "{expected} in {types:?}");
    }
    let received = inbox.lock().expect("lock").received.clone();
    for (id, timestamp, signature, body) in &received {
        assert!(id.starts_with("msg_"), "{id}");
        assert!(python_verifies(&secret, id, timestamp, body, signature), "signature of {id} verifies independently");
    }
    // The two refused attempts at workflow.created were retried with the same webhook-id.
    let first_id = &received.iter().find(|(_, _, _, body)| body.contains("workflow.created")).expect("created").0;
    assert!(received.iter().filter(|(id, ..)| id == first_id).count() >= 3, "{received:?}");

    let deliveries: Value =
        app.get(&format!("/api/v1/webhooks/{webhook_id}/deliveries"), &token).await.json().await.expect("json");
    let retried =
        deliveries.as_array().expect("list").iter().find(|d| d["messageId"] == *first_id).expect("delivery").clone();
    assert_eq!(retried["state"], "succeeded", "{retried}");
    assert_eq!(retried["attempts"], 3, "{retried}");
    // Every attempt is listed, oldest first, with what the endpoint answered.
    let log = retried["attemptLog"].as_array().expect("attempt log");
    let statuses: Vec<_> = log.iter().map(|a| a["status"].as_i64()).collect();
    assert_eq!(statuses, [Some(500), Some(500), Some(204)], "{retried}");
    assert_eq!((log[0]["error"].as_str(), log[2].get("error")), (Some("HTTP 500"), Some(&Value::Null)), "{retried}");
    assert!(
        log.iter()
            .all(|a| a["attemptedAt"].as_i64() >= retried["createdAt"].as_i64() && a["durationMs"].as_i64() >= Some(0))
    );

    // Each delivery names the workflow it is about, whose erasure takes it.
    let workflow_id = started["workflowId"].as_i64().expect("workflowId");
    let about_it = format!("UPDATE webhook_deliveries SET state = state WHERE workflow_id = {workflow_id}");
    let about_it = app.store.execute_for_tests(Box::leak(about_it.into_boxed_str())).await.expect("deliveries");
    assert_eq!(about_it, deliveries.as_array().expect("list").len() as u64);

    // Redelivery sends the same message again.
    let before = inbox.lock().expect("lock").received.len();
    let delivery_id = retried["deliveryId"].as_i64().expect("id");
    let again = app.post(&format!("/api/v1/webhooks/deliveries/{delivery_id}/redeliver"), &token, json!({})).await;
    assert_eq!(again.status(), 202);
    wait_until("the redelivery", || inbox.lock().expect("lock").received.len() > before).await;
    assert_eq!(&inbox.lock().expect("lock").received.last().expect("last").0, first_id);

    // Bad event types are refused.
    let bad = app.post("/api/v1/webhooks", &token, json!({"url": url, "eventTypes": ["workflow.exploded"]})).await;
    expect_problem(bad, 400, "validation_failed").await;
}

async fn private_addresses_and_other_tenants_are_refused(backend: Backend) {
    let strict = spawn_with(backend, |config| {
        config.outbound_allow_private = false;
    })
    .await;
    let token = token(&strict, "Strict").await;
    for url in [
        "http://127.0.0.1:9/hooks",
        "http://10.0.0.1/x",
        "http://169.254.169.254/latest/meta-data",
        "ftp://example.com/",
        "javascript:alert(1)",
    ] {
        let refused = strict.post("/api/v1/webhooks", &token, json!({"url": url, "eventTypes": ["*"]})).await;
        let problem = expect_problem(refused, 400, "validation_failed").await;
        assert!(problem["errors"]["url"].is_array(), "{url}: {problem}");
    }

    let app = spawn_with(backend, fast).await;
    let owner = token_for(&app, "Owner").await;
    let stranger = token_for(&app, "Stranger").await;
    let (url, _inbox) = receiver(0).await;
    let created: Value = app
        .post("/api/v1/webhooks", &owner, json!({"url": url, "eventTypes": ["workflow.completed"]}))
        .await
        .json()
        .await
        .expect("json");
    let id = created["webhookId"].as_i64().expect("id");
    expect_problem(app.delete(&format!("/api/v1/webhooks/{id}"), &stranger).await, 404, "not_found").await;
    expect_problem(app.get(&format!("/api/v1/webhooks/{id}/deliveries"), &stranger).await, 404, "not_found").await;
    let listed: Value = app.get("/api/v1/webhooks", &stranger).await.json().await.expect("json");
    assert_eq!(listed.as_array().map(Vec::len), Some(0));
    assert_eq!(app.delete(&format!("/api/v1/webhooks/{id}"), &owner).await.status(), 204);
}

async fn token_for(app: &TestApp, name: &str) -> String {
    token(app, name).await
}

async fn pending_deliveries_survive_a_restart(backend: Backend) {
    // One database for both servers, kept until the end of the test.
    let db = TestDb::new(backend).await;
    let database_url = db.url.clone();
    let (url, inbox) = receiver(0).await;
    let tenant_id;
    {
        let url_for_a = database_url.clone();
        let first = spawn_with(backend, move |config| {
            config.database_url = Some(url_for_a);
            config.workers = false;
            config.outbound_allow_private = true;
        })
        .await;
        let tenant = first.tenant("Restarting").await;
        tenant_id = tenant.tenant_id;
        let token = first.token(&tenant).await;
        let created = first.post("/api/v1/webhooks", &token, json!({"url": url, "eventTypes": ["*"]})).await;
        assert_eq!(created.status(), 201);
        signet_server::webhooks::publish(
            &first.state.services,
            tenant_id,
            "msg_restart_1",
            "workflow.completed",
            json!({"workflowId": 1}),
            None,
        )
        .await
        .expect("publish");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        assert!(inbox.lock().expect("lock").received.is_empty(), "no worker ran yet");
    }
    let second = spawn_with(backend, move |config| {
        config.database_url = Some(database_url);
        fast(config);
    })
    .await;
    wait_until("the delivery after the restart", || !inbox.lock().expect("lock").received.is_empty()).await;
    assert_eq!(inbox.lock().expect("lock").received[0].0, "msg_restart_1");
    // Publishing the same message again sends nothing new.
    signet_server::webhooks::publish(
        &second.state.services,
        tenant_id,
        "msg_restart_1",
        "workflow.completed",
        json!({}),
        None,
    )
    .await
    .expect("publish");
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(inbox.lock().expect("lock").received.len(), 1);
}

async fn nothing_is_delivered_to_a_deleted_endpoint(backend: Backend) {
    let app = spawn_with(backend, |config| {
        config.workers = false;
        config.outbound_allow_private = true;
    })
    .await;
    let tenant = app.tenant("Deleting").await;
    let token = app.token(&tenant).await;
    let (url, inbox) = receiver(0).await;
    let created: Value = app
        .post("/api/v1/webhooks", &token, json!({"url": url, "eventTypes": ["*"]}))
        .await
        .json()
        .await
        .expect("json");
    let id = created["webhookId"].as_i64().expect("id");
    signet_server::webhooks::publish(
        &app.state.services,
        tenant.tenant_id,
        "msg_deleted_1",
        "workflow.completed",
        json!({}),
        None,
    )
    .await
    .expect("publish");
    assert_eq!(app.delete(&format!("/api/v1/webhooks/{id}"), &token).await.status(), 204);

    // Run the queued delivery job by hand, as a worker would.
    let jobs = app.store.claim_jobs("test-worker", 60_000, 10).await.expect("claim");
    let deliveries: Vec<_> =
        jobs.iter().filter(|j| j.kind == signet_domain::job::JobKind::WebhookDeliver.as_str()).collect();
    assert_eq!(deliveries.len(), 1, "one delivery was queued before the deletion");
    for job in deliveries {
        signet_server::webhooks::deliver(&app.state.services, job).await.expect("deliver");
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(inbox.lock().expect("lock").received.is_empty(), "a deleted endpoint receives nothing");
    let rows = app.store.deliveries(tenant.tenant_id, id.into(), 10).await.expect("deliveries");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].state, "failed");
    assert_eq!(rows[0].attempts, 0);
    assert_eq!(rows[0].last_error.as_deref(), Some("the endpoint was deleted"));
}

/// The circuit breaker: an endpoint that keeps failing is paused (its deliveries wait, none
/// given up), the tenant's administrator is told by e-mail (the endpoint was registered by the
/// API client, not a user), and resuming it sends every waiting delivery; paused again, a probe
/// after the cool-down closes it by itself.
async fn a_failing_endpoint_is_paused_its_owner_told_and_resuming_delivers(backend: Backend) {
    let smtp = signet_testkit::smtp::SmtpSink::start();
    let app = spawn_with(backend, |config| {
        fast(config);
        config.smtp_url = Some(smtp.url());
    })
    .await;
    let tenant = app.tenant("Breaking").await;
    let token = app.token(&tenant).await;
    let (url, inbox) = receiver(0).await;
    inbox.lock().expect("lock").down = true;
    let created: Value = app
        .post("/api/v1/webhooks", &token, json!({"url": url, "eventTypes": ["*"]}))
        .await
        .json()
        .await
        .expect("json");
    let id = created["webhookId"].as_i64().expect("id");
    assert_eq!(created["pausedAt"], Value::Null);
    // Six deliveries failing twice each pass the threshold of ten failures in a row.
    publish_many(&app, tenant.tenant_id, "msg_breaker", 6).await;
    let mail = smtp.wait_for(&tenant.admin_email, "Webhook endpoint paused").await;
    assert!(mail["text"].as_str().is_some_and(|t| t.contains(&format!("/api/v1/webhooks/{id}/resume"))), "{mail}");
    let listed: Value = app.get("/api/v1/webhooks", &token).await.json().await.expect("json");
    assert!(listed[0]["pausedAt"].as_i64().is_some(), "{listed}");
    let deliveries: Value =
        app.get(&format!("/api/v1/webhooks/{id}/deliveries"), &token).await.json().await.expect("json");
    let deliveries = deliveries.as_array().expect("list").clone();
    assert_eq!(deliveries.len(), 6);
    assert!(deliveries.iter().all(|d| d["state"] == "pending"), "paused, not given up: {deliveries:?}");

    // The endpoint works again; its owner resumes it and every waiting delivery arrives.
    inbox.lock().expect("lock").down = false;
    assert_eq!(app.post(&format!("/api/v1/webhooks/{id}/resume"), &token, json!({})).await.status(), 204);
    let mut delivered = Vec::new();
    for _ in 0..400 {
        let listed: Value =
            app.get(&format!("/api/v1/webhooks/{id}/deliveries"), &token).await.json().await.expect("json");
        delivered = listed.as_array().expect("list").clone();
        if delivered.iter().all(|d| d["state"] == "succeeded") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(delivered.iter().all(|d| d["state"] == "succeeded"), "{delivered:?}");
    for delivery in &delivered {
        let log: Vec<_> =
            delivery["attemptLog"].as_array().expect("log").iter().map(|a| a["status"].as_i64()).collect();
        assert_eq!(log.last(), Some(&Some(204)), "{delivery}");
        assert!(log[..log.len() - 1].iter().all(|s| *s == Some(500)), "{delivery}");
    }
    let listed: Value = app.get("/api/v1/webhooks", &token).await.json().await.expect("json");
    assert_eq!(listed[0]["pausedAt"], Value::Null, "{listed}");

    // Down again, paused again; back up, the probe after the cool-down (6 s at this retry
    // base) closes the breaker by itself and the waiting deliveries follow.
    inbox.lock().expect("lock").down = true;
    publish_many(&app, tenant.tenant_id, "msg_breaker_again", 6).await;
    wait_for_webhook(&app, &token, "paused again", |w| w["pausedAt"].is_i64()).await;
    inbox.lock().expect("lock").down = false;
    wait_for_webhook(&app, &token, "the probe's success", |w| w["pausedAt"].is_null()).await;
    wait_until("the waiting deliveries", || {
        let inbox = inbox.lock().expect("lock");
        (0..6).all(|n| inbox.received.iter().any(|r| r.0 == format!("msg_breaker_again_{n}")))
    })
    .await;
}

async fn publish_many(app: &TestApp, tenant_id: signet_domain::TenantId, prefix: &str, count: usize) {
    for n in 0..count {
        let message = format!("{prefix}_{n}");
        let published = signet_server::webhooks::publish(
            &app.state.services,
            tenant_id,
            &message,
            "workflow.completed",
            json!({}),
            None,
        );
        published.await.expect("publish");
    }
}

/// Waits (up to 20 s) until the tenant's first endpoint is as `done` says.
async fn wait_for_webhook(app: &TestApp, token: &str, what: &str, done: impl Fn(&Value) -> bool) {
    for _ in 0..400 {
        let listed: Value = app.get("/api/v1/webhooks", token).await.json().await.expect("json");
        if done(&listed[0]) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}
