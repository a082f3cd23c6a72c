//! Retention, legal holds and erasure (issue 34, item 2) on SQLite and PostgreSQL: the sweep
//! erases what a period ended and nothing held, leaving a tombstone sealed by the organisation
//! that `openssl cms` verifies, the audit chain intact and `signet check` whole; a person's
//! erasure request takes what no period or hold covers and says what it kept, why and until
//! when; 10,000 due workflows are swept with the held ones intact.

use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_blob::BlobKey;
use signet_domain::now_millis;
use signet_services::platform::integrity;
use signet_services::privacy::sweep::{SweepReport, sweep};
use signet_store::Backend;
use signet_testkit::db::ended_workflows_sql;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::one_page;
use signet_testkit::server::{TestApp, spawn};

use signet_testkit::console::{console_session, csrf_of};
use signet_testkit::problem::unescape;

use crate::support::{ADMIN_PASSWORD, browser, link_of, sign_typed};

on_both_backends!(
    the_sweep_erases_what_a_period_ended_behind_sealed_tombstones,
    an_erasure_request_takes_what_no_period_or_hold_keeps,
    ten_thousand_due_workflows_are_swept_and_held_ones_stay,
    the_console_sets_periods_holds_and_answers_an_erasure_request,
);

/// A workflow of one signer over a new one-page document: its id, document id and started answer.
async fn started(app: &TestApp, token: &str, name: &str, signer: &str) -> (i64, i64, Value) {
    let body = json!({"documentName": format!("{name}.pdf"), "fileData": STANDARD.encode(one_page(name))});
    let document: Value = app.post("/api/v1/documents", token, body).await.json().await.expect("document");
    let signatories = json!([{"subscriberId": 0, "emailId": signer, "name": "Asha Verma", "signingOrder": 1}]);
    let body = json!({"templateId": 0, "workflowName": name, "documentIds": [document["documentId"]], "signatories": signatories});
    let response = app.post("/api/v1/workflows", token, body).await;
    assert_eq!(response.status(), 201, "{name}");
    let answer: Value = response.json().await.expect("workflow");
    let workflow_id = answer["workflowId"].as_i64().expect("workflowId");
    (workflow_id, document["documentId"].as_i64().expect("documentId"), answer)
}

async fn completed(app: &TestApp, token: &str, name: &str, signer: &str) -> (i64, i64) {
    let (workflow, document, answer) = started(app, token, name, signer).await;
    sign_typed(&link_of(&answer, signer), "Asha Verma").await;
    (workflow, document)
}

/// Rows that `sql` (an UPDATE that changes nothing) matches.
async fn count(app: &TestApp, sql: String) -> u64 {
    app.store.execute_for_tests(Box::leak(sql.into_boxed_str())).await.expect("count")
}

async fn audit(app: &TestApp, token: &str) -> Vec<Value> {
    let mut entries = Vec::new();
    let mut after = 0;
    loop {
        let page: Vec<Value> =
            app.get(&format!("/api/v1/audit?afterSeq={after}&limit=500"), token).await.json().await.expect("audit");
        let Some(last) = page.last() else { break };
        after = last["seq"].as_i64().expect("seq");
        entries.extend(page);
    }
    entries
}

/// `openssl cms` verifies the seal over the tombstone text (the signer's certificate is the
/// organisation's, not a CA's: the signature, not the chain, is checked).
fn openssl_verifies(tombstone: &str, seal: &[u8]) -> bool {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("t.json"), tombstone).expect("write");
    std::fs::write(dir.path().join("s.der"), seal).expect("write");
    let status = Command::new("openssl")
        .current_dir(dir.path())
        .args(["cms", "-verify", "-binary", "-inform", "DER", "-in", "s.der", "-content", "t.json", "-noverify"])
        .args(["-out", "/dev/null"])
        .output()
        .expect("openssl");
    status.status.success()
}

async fn the_sweep_erases_what_a_period_ended_behind_sealed_tombstones(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Kept Bank").await;
    let token = app.token(&tenant).await;
    let (gone, gone_document) = completed(&app, &token, "Loan one", "gone.borrower@x.test").await;
    let (held, held_document) = completed(&app, &token, "Loan two", "held.borrower@x.test").await;
    let (pending, _, _) = started(&app, &token, "Loan three", "waiting@x.test").await;
    let gone_row = app.store.document(tenant.tenant_id, gone_document.into()).await.expect("read").expect("document");

    // No period yet: the sweep takes nothing.
    assert_eq!(sweep(&app.state.services, now_millis()).await.expect("sweep"), SweepReport::default());

    let bad = app.put("/api/v1/retention", &token, json!({"completedDays": 40000})).await;
    assert_eq!(bad.status(), 400);
    let unknown =
        app.put("/api/v1/retention", &token, json!({"templates": [{"templateId": 999999, "completedDays": 1}]})).await;
    assert_eq!(unknown.status(), 404);
    let saved = app.put("/api/v1/retention", &token, json!({"completedDays": 0, "declinedDays": 30})).await;
    assert_eq!(saved.status(), 200);
    let read: Value = app.get("/api/v1/retention", &token).await.json().await.expect("retention");
    assert_eq!((read["completedDays"].clone(), read["declinedDays"].clone()), (json!(0), json!(30)), "{read}");
    assert_eq!(read["expiredDays"], Value::Null);

    let no_reason = app.put(&format!("/api/v1/workflows/{held}/hold"), &token, json!({"reason": " "})).await;
    assert_eq!(no_reason.status(), 400);
    let hold = app.put(&format!("/api/v1/workflows/{held}/hold"), &token, json!({"reason": "Suit 42/2026"})).await;
    assert_eq!(hold.status(), 200);
    let holds: Vec<Value> = app.get("/api/v1/holds", &token).await.json().await.expect("holds");
    assert_eq!(holds.len(), 1);
    assert_eq!((holds[0]["workflowId"].as_i64(), holds[0]["reason"].as_str()), (Some(held), Some("Suit 42/2026")));

    let report = sweep(&app.state.services, now_millis()).await.expect("sweep");
    assert_eq!(report, SweepReport { workflows: 1, transactions: 0, skipped: 0 });

    // The erased workflow: gone from the API, its files and its signer's address gone.
    assert_eq!(app.get(&format!("/api/v1/workflows/{gone}"), &token).await.status(), 404);
    let download = json!({"workflowId": gone, "documentId": gone_document});
    assert_eq!(app.post("/api/v1/documents/download", &token, download).await.status(), 404);
    let blob = &app.state.services.blob;
    for key in [&gone_row.original_blob, &gone_row.current_blob] {
        assert!(!blob.exists(&BlobKey::parse(key).expect("key")).await.expect("exists"), "{key} still stored");
    }
    let signer_rows = "UPDATE signatories SET state = state WHERE lower(email) = 'gone.borrower@x.test'".to_string();
    assert_eq!(count(&app, signer_rows).await, 0, "the signer's address is erased");
    let events = format!("UPDATE workflow_events SET seq = seq WHERE workflow_id = {gone}");
    assert_eq!(count(&app, events).await, 0, "the workflow's events are erased");

    // The held and the unfinished workflows are whole.
    assert_eq!(app.get(&format!("/api/v1/workflows/{held}"), &token).await.status(), 200);
    let download = json!({"workflowId": held, "documentId": held_document});
    let download = app.post("/api/v1/documents/download", &token, download).await;
    assert_eq!(download.status(), 200, "{}", download.text().await.unwrap_or_default());
    assert_eq!(app.get(&format!("/api/v1/workflows/{pending}"), &token).await.status(), 200);

    // The tombstone: in the chain, which verifies; sealed, and the seal is the organisation's.
    let verified: Value = app.get("/api/v1/audit/verify", &token).await.json().await.expect("verify");
    assert_eq!(verified["intact"], true, "{verified}");
    let entries = audit(&app, &token).await;
    let tombstones: Vec<&Value> = entries.iter().filter(|e| e["action"] == "workflows.erased").collect();
    assert_eq!(tombstones.len(), 1, "one tombstone for the sweep's one batch");
    let detail: Value = serde_json::from_str(tombstones[0]["detail"].as_str().expect("detail")).expect("json");
    let text = detail["tombstone"].as_str().expect("text");
    let statement: Value = serde_json::from_str(text).expect("statement");
    assert_eq!(statement["why"], "retention");
    assert_eq!(statement["workflows"].as_array().map(Vec::len), Some(1), "{statement}");
    assert_eq!(statement["workflows"][0]["workflowId"], gone);
    assert_eq!(statement["workflows"][0]["documents"][0]["sha256"], gone_row.current_sha256.as_str());
    assert!(!text.contains("gone.borrower"), "the tombstone keeps no personal data: {text}");
    let seal = STANDARD.decode(detail["seal"].as_str().expect("seal")).expect("base64");
    assert!(openssl_verifies(text, &seal), "openssl verifies the tombstone's seal");
    assert!(!openssl_verifies(&text.replace("retention", "erasure_request"), &seal), "a changed tombstone fails");

    let mut findings = Vec::new();
    integrity::check(&app.state.services, |f| findings.push(f.to_string())).await.expect("check");
    assert_eq!(findings, Vec::<String>::new(), "signet check passes after the sweep");

    // Released, the held workflow goes at the next sweep; a second release finds no hold.
    assert_eq!(app.delete(&format!("/api/v1/workflows/{held}/hold"), &token).await.status(), 204);
    assert_eq!(app.delete(&format!("/api/v1/workflows/{held}/hold"), &token).await.status(), 404);
    let report = sweep(&app.state.services, now_millis()).await.expect("sweep");
    assert_eq!(report.workflows, 1);
    assert_eq!(app.get(&format!("/api/v1/workflows/{held}"), &token).await.status(), 404);
    assert_eq!(sweep(&app.state.services, now_millis()).await.expect("sweep"), SweepReport::default());
}

async fn an_erasure_request_takes_what_no_period_or_hold_keeps(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Asking Bank").await;
    let token = app.token(&tenant).await;
    let person = "asha.verma@x.test";
    let tenant_id = tenant.tenant_id.get();
    let at = now_millis();
    // A webhook endpoint (its deliveries stay on record: workers do not run here), a
    // referral and a bulk-send row that made no workflow, each naming the person.
    count(
        &app,
        format!(
            "INSERT INTO webhook_endpoints (tenant_id, url, event_types, secret, created_at) \
         VALUES ({tenant_id}, 'http://127.0.0.1:9/hook', '*', 'whsec_x', {at})"
        ),
    )
    .await;
    count(&app, format!(
        "INSERT INTO referrals (tenant_id, referrer_name, referrer_mobile, referrer_email, referral_name, referral_mobile, \
         referral_email, referral_email_key, created_by, created_at) VALUES ({tenant_id}, 'Ravi', '9876500001', \
         'ravi@x.test', 'Asha', '9876500002', 'Asha.Verma@x.test', '{person}', 'user:1', {at}), ({tenant_id}, 'Ravi', \
         '9876500001', 'ravi@x.test', 'Meera', '9876500003', 'meera@x.test', 'meera@x.test', 'user:1', {at})"
    ))
    .await;
    count(&app, format!(
        "INSERT INTO bulk_jobs (public_id, tenant_id, kind, status, created_by, subscriber_id, parent_id, input, created_at) \
         VALUES ('bulk-erasure', {tenant_id}, 'bulk_send', 'completed_with_errors', 'user:1', 0, 0, '{{}}', {at})"
    ))
    .await;
    count(
        &app,
        "INSERT INTO bulk_job_items (job_id, item_no, input, state, detail) SELECT id, 1, \
         '{\"ref\":\"r1\",\"row\":{\"emailId\":\"ASHA.verma@x.test\"}}', 'failed', 'bad row' \
         FROM bulk_jobs WHERE public_id = 'bulk-erasure'"
            .to_string(),
    )
    .await;
    let (kept_signed, _) = completed(&app, &token, "Home loan", person).await;
    let (waiting, _, _) = started(&app, &token, "Top-up", person).await;
    let (recalled, _, _) = started(&app, &token, "Car loan", person).await;
    let inactive =
        app.post(&format!("/api/v1/workflows/{recalled}/inactive"), &token, json!({"workflowid": recalled})).await;
    assert!(inactive.status().is_success(), "recalled: {}", inactive.status());
    let (declined, _, answer) = started(&app, &token, "Gold loan", person).await;
    let decline =
        browser().post(format!("{}/decline", link_of(&answer, person))).form(&[("reason", "Not now")]).send().await;
    assert_eq!(decline.expect("decline").status(), 200);
    let (someone_else, _) = completed(&app, &token, "Other loan", "other@x.test").await;
    // Two lots for her: one of workflows that will be erased, one of the workflow kept.
    count(&app, format!(
        "INSERT INTO lots (tenant_id, name, signer_email, created_by, created_at) VALUES \
         ({tenant_id}, 'Erased lot', 'ASHA.verma@x.test', 'user:1', {at}), ({tenant_id}, 'Kept lot', '{person}', 'user:1', {at})"
    ))
    .await;
    for (lot, position, workflow) in
        [("Erased lot", 1, recalled), ("Erased lot", 2, declined), ("Kept lot", 1, kept_signed)]
    {
        count(
            &app,
            format!(
                "INSERT INTO lot_workflows (lot_id, position, workflow_id) \
                 SELECT id, {position}, {workflow} FROM lots WHERE tenant_id = {tenant_id} AND name = '{lot}'"
            ),
        )
        .await;
    }
    let deliveries_of = |id: i64| {
        format!(
            "UPDATE webhook_deliveries SET updated_at = updated_at WHERE tenant_id = {tenant_id} AND workflow_id = {id}"
        )
    };
    for id in [declined, kept_signed] {
        // As the workflow's event job publishes its events (workers do not run here).
        let data = json!({"workflowId": id, "workflowName": "loan", "referenceNo": null});
        let message = format!("msg_{id}_1");
        let workflow = Some(signet_domain::WorkflowId::from(id));
        let services = &app.state.services;
        let published = signet_server::webhooks::publish(
            services,
            tenant.tenant_id,
            &message,
            "workflow.completed",
            data,
            workflow,
        );
        published.await.expect("publish");
        assert_eq!(count(&app, deliveries_of(id)).await, 1);
    }
    let saved = app.put("/api/v1/retention", &token, json!({"completedDays": 1825})).await;
    assert_eq!(saved.status(), 200);

    for body in [json!({}), json!({"email": "not an address"}), json!({"phone": "12"})] {
        let refused = app.post("/api/v1/privacy/erasure", &token, body.clone()).await;
        assert_eq!(refused.status(), 400, "{body}");
    }
    let response = app.post("/api/v1/privacy/erasure", &token, json!({"email": "Asha.Verma@X.test"})).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.expect("answer");
    let mut erased: Vec<i64> =
        answer["erased"].as_array().expect("erased").iter().map(|r| r["workflowId"].as_i64().expect("id")).collect();
    erased.sort_unstable();
    assert_eq!(erased, vec![recalled, declined], "{answer}");
    let kept = answer["kept"].as_array().expect("kept");
    let reason_of =
        |id: i64| kept.iter().find(|k| k["workflowId"] == id).map(|k| (k["reason"].clone(), k["until"].clone()));
    let (reason, until) = reason_of(kept_signed).expect("kept signed");
    assert_eq!(reason, "retention");
    let five_years = 1825 * 86_400_000_i64;
    let until = until.as_i64().expect("until");
    assert!(until > now_millis() + five_years - 600_000 && until <= now_millis() + five_years, "{until}");
    assert_eq!(reason_of(waiting), Some((json!("in_progress"), Value::Null)));
    assert_eq!(answer["more"], false);

    for gone in [recalled, declined] {
        assert_eq!(app.get(&format!("/api/v1/workflows/{gone}"), &token).await.status(), 404);
    }
    for whole in [kept_signed, waiting, someone_else] {
        assert_eq!(app.get(&format!("/api/v1/workflows/{whole}"), &token).await.status(), 200);
    }
    // The erased workflows' webhook deliveries went with them, the kept one's stay; the
    // person's referral and bulk-send row went, another person's referral stayed.
    assert_eq!(count(&app, deliveries_of(declined)).await, 0);
    assert!(count(&app, deliveries_of(kept_signed)).await > 0);
    let referrals = format!("UPDATE referrals SET created_at = created_at WHERE tenant_id = {tenant_id}");
    assert_eq!(count(&app, referrals).await, 1, "only Meera's referral stays");
    let row = "UPDATE bulk_job_items SET state = state WHERE input LIKE '%x.test%'".to_string();
    assert_eq!(count(&app, row).await, 0, "the bulk row no longer names her");
    let lots =
        format!("UPDATE lots SET name = name WHERE tenant_id = {tenant_id} AND lower(signer_email) = '{person}'");
    assert_eq!(count(&app, lots).await, 1, "the lot whose workflows all went no longer names her; the kept one does");
    // The request is in the chain, by a digest: the address is not.
    let entries = audit(&app, &token).await;
    let request = entries.iter().find(|e| e["action"] == "privacy.erasure_requested").expect("recorded");
    assert!(!request["detail"].as_str().expect("detail").to_lowercase().contains("asha.verma"), "{request}");
    let again: Value =
        app.post("/api/v1/privacy/erasure", &token, json!({"email": person})).await.json().await.expect("again");
    assert_eq!(again["erased"], json!([]), "nothing left to erase: {again}");
}

async fn ten_thousand_due_workflows_are_swept_and_held_ones_stay(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Large Bank").await;
    let token = app.token(&tenant).await;
    let tenant_id = tenant.tenant_id.get();
    for sql in ended_workflows_sql(backend, tenant_id, 10_000, now_millis() - 365 * 86_400_000) {
        count(&app, sql).await;
    }
    let held: Vec<i64> = (0..10).map(|i| i * 997).collect();
    let first = count(
        &app,
        format!("UPDATE workflows SET state = state WHERE tenant_id = {tenant_id} AND created_by = 'seed'"),
    )
    .await;
    assert_eq!(first, 10_000);
    let seeded_min =
        app.store.workflows_of_person(tenant.tenant_id, Some("seed@x.test"), None, 1_000_000).await.expect("seeded");
    let lowest = seeded_min.iter().map(|w| w.id.get()).min().expect("seeded");
    for offset in &held {
        let id = lowest + offset;
        let hold = app.put(&format!("/api/v1/workflows/{id}/hold"), &token, json!({"reason": "audit"})).await;
        assert_eq!(hold.status(), 200);
    }
    assert_eq!(app.put("/api/v1/retention", &token, json!({"completedDays": 180})).await.status(), 200);

    let report = sweep(&app.state.services, now_millis()).await.expect("sweep");
    assert_eq!(report.workflows, 10_000 - held.len() as u64);
    let left =
        app.store.workflows_of_person(tenant.tenant_id, Some("seed@x.test"), None, 1_000_000).await.expect("left");
    let mut left: Vec<i64> = left.iter().map(|w| w.id.get() - lowest).collect();
    left.sort_unstable();
    assert_eq!(left, held, "only the held workflows keep their signatories");
    let verified: Value = app.get("/api/v1/audit/verify", &token).await.json().await.expect("verify");
    assert_eq!(verified["intact"], true, "{verified}");
    let mut tombstoned: Vec<i64> = Vec::new();
    for entry in audit(&app, &token).await.iter().filter(|e| e["action"] == "workflows.erased") {
        let detail: Value = serde_json::from_str(entry["detail"].as_str().expect("detail")).expect("json");
        let statement: Value = serde_json::from_str(detail["tombstone"].as_str().expect("text")).expect("statement");
        let erased = statement["workflows"].as_array().expect("workflows");
        tombstoned.extend(erased.iter().map(|w| w["workflowId"].as_i64().expect("id") - lowest));
    }
    tombstoned.sort_unstable();
    let expected: Vec<i64> = (0..10_000).filter(|i| !held.contains(i)).collect();
    assert!(tombstoned == expected, "every erased workflow has its tombstone, once");
    assert_eq!(sweep(&app.state.services, now_millis()).await.expect("again"), SweepReport::default());
}

async fn the_console_sets_periods_holds_and_answers_an_erasure_request(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Console Bank").await;
    let token = app.token(&tenant).await;
    let (held, _) = completed(&app, &token, "Held loan", "priya@x.test").await;
    let (gone, _) = completed(&app, &token, "Old loan", "priya@x.test").await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = unescape(&admin.get(app.url("/app/privacy")).await.text().await.expect("html"));
    assert!(page.contains("id=\"no-holds\""), "{page}");
    let csrf = csrf_of(&page);

    let wrong = [
        ("csrf", csrf.as_str()),
        ("completedDays", "ten"),
        ("declinedDays", ""),
        ("expiredDays", ""),
        ("gatewayDays", ""),
    ];
    assert_eq!(admin.post(app.url("/app/privacy/retention"), &wrong).await.status(), 400);
    let periods = [
        ("csrf", csrf.as_str()),
        ("completedDays", "3650"),
        ("declinedDays", "30"),
        ("expiredDays", ""),
        ("gatewayDays", "7"),
    ];
    let saved = admin.post(app.url("/app/privacy/retention"), &periods).await;
    assert_eq!(saved.status(), 200);
    assert!(unescape(&saved.text().await.expect("html")).contains("value=\"3650\""));
    let read: Value = app.get("/api/v1/retention", &token).await.json().await.expect("retention");
    assert_eq!(
        (read["completedDays"].clone(), read["expiredDays"].clone(), read["gatewayDays"].clone()),
        (json!(3650), Value::Null, json!(7))
    );

    let id = held.to_string();
    let hold = [("csrf", csrf.as_str()), ("workflowId", id.as_str()), ("reason", "Court order 7")];
    let placed = unescape(&admin.post(app.url("/app/privacy/holds"), &hold).await.text().await.expect("html"));
    assert!(
        placed.contains("Court order 7") && placed.contains(&format!("/app/privacy/holds/{held}/release")),
        "{placed}"
    );

    // With no period for completed workflows, the request erases the unheld one and keeps the held one.
    let none = [
        ("csrf", csrf.as_str()),
        ("completedDays", ""),
        ("declinedDays", ""),
        ("expiredDays", ""),
        ("gatewayDays", ""),
    ];
    assert_eq!(admin.post(app.url("/app/privacy/retention"), &none).await.status(), 200);
    let request = [("csrf", csrf.as_str()), ("email", "priya@x.test"), ("phone", "")];
    let answer = unescape(&admin.post(app.url("/app/privacy/erasure"), &request).await.text().await.expect("html"));
    assert!(answer.contains(&format!("{gone} · Old loan")), "{answer}");
    assert!(answer.contains(&format!("{held} · Held loan: under a legal hold")), "{answer}");
    assert_eq!(app.get(&format!("/api/v1/workflows/{gone}"), &token).await.status(), 404);

    let released = admin.post(app.url(&format!("/app/privacy/holds/{held}/release")), &[("csrf", csrf.as_str())]).await;
    assert_eq!(released.status(), 200);
    assert!(unescape(&released.text().await.expect("html")).contains("id=\"no-holds\""));
}
