//! Lots and bulk jobs (docs/bulk.md) on both backends: a lot of 200 workflows signed by its
//! signer in one background job, progress followed over server-sent events, the workflows that
//! could not be signed reported while the others went on, every signature judged by pdfsig, the
//! report (CSV), the completion record on the webhook; cancellation; who may do what; and the
//! refusals of bad lots and bad `BulkSignInput`s.

use signet_domain::audit::Actor;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_domain::access::{Access, Role};
use signet_domain::user::UserInput;
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::{Page, reportlab_pdf};
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn_with};
use signet_testkit::validators::pdfsig;

use crate::support::{ADMIN_PASSWORD, json_of, receiver};

on_both_backends!(
    a_lot_is_signed_in_one_job_with_progress_a_report_and_a_completion_record,
    a_cancelled_lot_skips_what_it_had_not_signed,
    lots_and_lot_signing_refuse_what_they_cannot_do,
    a_bulk_send_of_a_thousand_rows_reports_the_bad_ones_and_sends_the_rest,
    a_bulk_send_reads_an_xlsx_workbook_written_by_openpyxl,
    a_bulk_send_from_a_template_gives_each_row_its_signers_and_values,
);

/// A drawn signature, made by Pillow (an outside tool), base64.
fn signature_png() -> String {
    STANDARD.encode(signet_testkit::pdf::signature_png())
}

struct Setup {
    app: TestApp,
    /// The application's token (sends workflows, makes lots).
    client: String,
    /// The administrator's own token: the lot's signer.
    officer: String,
    officer_id: i64,
    officer_email: String,
    tenant_id: signet_domain::TenantId,
}

async fn setup(backend: Backend) -> Setup {
    let app = spawn_with(backend, |config| {
        config.workers = true;
        config.worker_poll_ms = 50;
        config.outbound_allow_private = true;
    })
    .await;
    let tenant = app.tenant("Bulk Lender").await;
    let client = app.token(&tenant).await;
    let tokens: Value = app
        .client
        .post(app.url("/api/v1/auth/token"))
        .json(&json!({"grant_type": "password", "username": tenant.admin_email, "password": ADMIN_PASSWORD}))
        .send()
        .await
        .expect("token")
        .json()
        .await
        .expect("json");
    let officer = tokens["access_token"].as_str().expect("access token").to_string();
    let me: Value = app.get("/api/v1/users/me", &officer).await.json().await.expect("json");
    let officer_id = me["subscriberId"].as_i64().expect("id");
    Setup { app, client, officer, officer_id, officer_email: tenant.admin_email.clone(), tenant_id: tenant.tenant_id }
}

/// The token of an application with the auditor's role (reads everything, changes nothing).
async fn auditor_token(s: &Setup) -> String {
    let made = s.app.post("/api/v1/applications", &s.client, json!({"appName": "Audit desk", "roleId": 4})).await;
    let made = json_of(made, 201).await;
    let key = made["secretKey"].as_str().expect("secretKey");
    let body = json!({"appName": "Audit desk", "secretKey": key});
    let tokens =
        s.app.client.post(s.app.url("/api/v1/auth/authorize-app")).json(&body).send().await.expect("authorize");
    json_of(tokens, 200).await["access_token"].as_str().expect("access token").to_string()
}

/// `count` sanction letters, each a workflow the officer signs (alone).
async fn letters(s: &Setup, count: usize) -> Vec<i64> {
    let mut ids = Vec::with_capacity(count);
    for i in 0..count {
        let pdf = reportlab_pdf(&[Page::text(&format!("Sanction letter {i}")).line(300, "Credit officer:")]);
        let body = json!({"documentName": format!("letter-{i}.pdf"), "fileData": STANDARD.encode(pdf),
                          "signatories": [{"emailId": s.officer_email, "name": "Credit Officer",
                                           "coordinates": [{"left": 60, "top": 320, "width": 150, "height": 50, "pageNumber": "1"}]}]});
        let started = json_of(s.app.post("/api/v1/workflows/initiate-and-sign", &s.client, body).await, 201).await;
        ids.push(started["workflowId"].as_i64().expect("id"));
    }
    ids
}

/// The events of a job's stream until `done`, as (event, data) pairs.
async fn follow(app: &TestApp, token: &str, job_id: &str) -> Vec<(String, Value)> {
    let mut response = app
        .client
        .get(app.url(&format!("/api/v1/bulk-jobs/{job_id}/events")))
        .bearer_auth(token)
        .send()
        .await
        .expect("events");
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"].to_str().unwrap_or_default().starts_with("text/event-stream"));
    let (mut buffer, mut events) = (String::new(), Vec::new());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(600);
    while let Some(chunk) = tokio::time::timeout_at(deadline, response.chunk()).await.expect("in time").expect("chunk")
    {
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let event = block.lines().find_map(|l| l.strip_prefix("event: ")).unwrap_or_default().to_string();
            let data = block.lines().find_map(|l| l.strip_prefix("data: ")).unwrap_or("null");
            if !event.is_empty() {
                events.push((event, serde_json::from_str(data).unwrap_or(Value::Null)));
            }
        }
    }
    events
}

async fn a_lot_is_signed_in_one_job_with_progress_a_report_and_a_completion_record(backend: Backend) {
    let s = setup(backend).await;
    let (url, inbox) = receiver().await;
    json_of(
        s.app.post("/api/v1/webhooks", &s.client, json!({"url": url, "eventTypes": ["bulk.completed"]})).await,
        201,
    )
    .await;
    let ids = letters(&s, 200).await;
    let lot = json_of(
        s.app
            .post(
                "/api/v1/lots",
                &s.client,
                json!({"name": "Sanction letters, 24 November", "signerUserId": s.officer_id, "workflowIds": ids}),
            )
            .await,
        201,
    )
    .await;
    let lot_id = lot["lotId"].as_i64().expect("lot");
    // Two letters are withdrawn after the lot was made: they fail, the others are signed.
    for withdrawn in [ids[10], ids[150]] {
        let response = s
            .app
            .post(&format!("/api/v1/workflows/{withdrawn}/inactive"), &s.client, json!({"workflowid": withdrawn}))
            .await;
        assert!(response.status().is_success());
    }
    let sign = json!({"lotId": lot_id, "signatureImage": signature_png(), "reviewerComments": "Checked against the sanction register"});
    let job = json_of(s.app.post("/api/v1/lots/sign", &s.officer, sign.clone()).await, 202).await;
    let job_id = job["jobId"].as_str().expect("job").to_string();
    assert_eq!(job["total"], 200);
    // Once is enough: the lot is bound to its job.
    expect_problem(s.app.post("/api/v1/lots/sign", &s.officer, sign).await, 409, "state_conflict").await;

    let events = follow(&s.app, &s.officer, &job_id).await;
    let (last, data) = events.last().expect("events");
    assert_eq!(last, "done", "{events:?}");
    assert_eq!(
        (data["succeeded"].as_i64(), data["failed"].as_i64(), data["pending"].as_i64()),
        (Some(198), Some(2), Some(0))
    );
    assert_eq!(data["status"], "completed_with_errors");
    let midway =
        events.iter().any(|(e, d)| e == "progress" && d["succeeded"].as_i64().is_some_and(|n| n > 0 && n < 198));
    assert!(midway, "progress was seen while the job ran: {events:?}");

    // Every letter of the lot is signed, and the signature is valid.
    for id in ids.iter().filter(|id| ![ids[10], ids[150]].contains(id)) {
        let response = s.app.post("/api/v1/documents/download", &s.client, json!({"workflowid": id})).await;
        assert_eq!(response.status(), 200);
        let signed = response.bytes().await.expect("pdf");
        let report = pdfsig(&signed);
        assert_eq!(report.matches("Signature is Valid").count(), 1, "workflow {id}: {report}");
    }
    let workflow = json_of(s.app.get(&format!("/api/v1/workflows/{}", ids[0]), &s.client).await, 200).await;
    assert!(workflow.to_string().contains("completed") || workflow.to_string().contains("Completed"), "{workflow}");

    // The report names each letter's outcome.
    let report = s.app.get(&format!("/api/v1/bulk-jobs/{job_id}/report"), &s.client).await;
    assert_eq!(report.status(), 200);
    let text = report.text().await.expect("csv");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 201, "a header and a line per letter");
    assert_eq!(lines[0], "item,input,state,result,detail");
    assert!(lines[11].starts_with(&format!("11,{},failed,{},", ids[10], ids[10])), "{}", lines[11]);
    assert!(lines[1].starts_with(&format!("1,{},succeeded,{},signed", ids[0], ids[0])), "{}", lines[1]);

    // The completion record, from the API and on the webhook.
    let completion = json_of(s.app.get(&format!("/api/v1/bulk-jobs/{job_id}/completion"), &s.officer).await, 200).await;
    assert_eq!(
        (completion["jobId"].as_str(), completion["totalRows"].as_i64(), completion["succeeded"].as_i64()),
        (Some(job_id.as_str()), Some(200), Some(198))
    );
    assert_eq!(
        (completion["parentId"].as_i64(), completion["subscriberId"].as_i64()),
        (Some(lot_id), Some(s.officer_id))
    );
    assert!(
        completion["reportUrl"].as_str().is_some_and(|u| u.ends_with(&format!("/api/v1/bulk-jobs/{job_id}/report")))
    );
    for _ in 0..200 {
        if !inbox.lock().expect("lock").is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let hooks = inbox.lock().expect("lock").clone();
    assert_eq!(hooks.len(), 1, "{hooks:?}");
    let hook: Value = serde_json::from_str(&hooks[0]).expect("json");
    assert_eq!(hook["type"], "bulk.completed");
    assert_eq!(hook["data"]["failed"], 2);
    assert_eq!(hook["data"]["status"], "completed_with_errors");
}

async fn a_cancelled_lot_skips_what_it_had_not_signed(backend: Backend) {
    let s = setup(backend).await;
    let ids = letters(&s, 30).await;
    let lot = json_of(
        s.app
            .post(
                "/api/v1/lots",
                &s.client,
                json!({"name": "To cancel", "signerUserId": s.officer_id, "workflowIds": ids}),
            )
            .await,
        201,
    )
    .await;
    let job = json_of(
        s.app
            .post("/api/v1/lots/sign", &s.officer, json!({"lotId": lot["lotId"], "signatureImage": signature_png()}))
            .await,
        202,
    )
    .await;
    let job_id = job["jobId"].as_str().expect("job").to_string();
    // An auditor follows the officer's job and cannot stop it (issue 30, item 10).
    let auditor = auditor_token(&s).await;
    json_of(s.app.get(&format!("/api/v1/bulk-jobs/{job_id}"), &auditor).await, 200).await;
    let refused = s.app.post(&format!("/api/v1/bulk-jobs/{job_id}/cancel"), &auditor, json!({})).await;
    expect_problem(refused, 403, "forbidden").await;
    let cancelled =
        json_of(s.app.post(&format!("/api/v1/bulk-jobs/{job_id}/cancel"), &s.officer, json!({})).await, 200).await;
    assert_eq!(cancelled["cancelRequested"], true);
    let events = follow(&s.app, &s.officer, &job_id).await;
    let (_, done) = events.last().expect("done");
    assert_eq!(done["status"], "cancelled", "{done}");
    let (succeeded, skipped) = (done["succeeded"].as_i64().unwrap_or(-1), done["skipped"].as_i64().unwrap_or(-1));
    assert!(skipped > 0 && succeeded + skipped == 30 && done["failed"] == 0, "{done}");
    // Finished: nothing left to cancel.
    expect_problem(
        s.app.post(&format!("/api/v1/bulk-jobs/{job_id}/cancel"), &s.officer, json!({})).await,
        409,
        "state_conflict",
    )
    .await;
    let lot_now = json_of(s.app.get(&format!("/api/v1/lots/{}", lot["lotId"]), &s.client).await, 200).await;
    assert_eq!(lot_now["jobId"], job_id);
}

async fn lots_and_lot_signing_refuse_what_they_cannot_do(backend: Backend) {
    let s = setup(backend).await;
    let ids = letters(&s, 2).await;
    let other = json_of(
        s.app
            .post(
                "/api/v1/workflows/initiate-and-sign",
                &s.client,
                json!({"documentName": "x.pdf", "fileData": STANDARD.encode(reportlab_pdf(&[Page::text("Other")])),
                       "signatories": [{"emailId": "someone@else.test", "name": "Someone"}]}),
            )
            .await,
        201,
    )
    .await["workflowId"]
        .as_i64()
        .expect("id");
    let bad = json!({"name": " ", "signerUserId": s.officer_id, "workflowIds": [ids[0], ids[0], other, 999_999]});
    let problem = expect_problem(s.app.post("/api/v1/lots", &s.client, bad).await, 400, "validation_failed").await;
    for field in ["name", "workflowIds[1]", "workflowIds[2]", "workflowIds[3]"] {
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    let problem = expect_problem(
        s.app
            .post("/api/v1/lots", &s.client, json!({"name": "x", "signerUserId": 424242, "workflowIds": [ids[0]]}))
            .await,
        400,
        "validation_failed",
    )
    .await;
    assert!(problem["errors"]["signerUserId"].is_array(), "{problem}");
    let problem =
        expect_problem(s.app.post("/api/v1/lots", &s.client, json!({"name": "x"})).await, 400, "validation_failed")
            .await;
    assert!(problem["errors"]["signerUserId"].is_array(), "{problem}");

    let lot = json_of(
        s.app
            .post("/api/v1/lots", &s.client, json!({"name": "Two", "signerUserId": s.officer_id, "workflowIds": ids}))
            .await,
        201,
    )
    .await;
    let lot_id = lot["lotId"].as_i64().expect("lot");
    // Not the signer (an application), a bad image, long comments, an unknown lot.
    let good = json!({"lotId": lot_id, "signatureImage": signature_png()});
    expect_problem(s.app.post("/api/v1/lots/sign", &s.client, good.clone()).await, 403, "forbidden").await;
    for (body, field) in [
        (json!({"lotId": lot_id, "signatureImage": STANDARD.encode(b"GIF89a....")}), "signatureImage"),
        (json!({"lotId": lot_id, "signatureImage": "%%%"}), "signatureImage"),
        (
            json!({"lotId": lot_id, "signatureImage": signature_png(), "reviewerComments": "x".repeat(501)}),
            "reviewerComments",
        ),
    ] {
        let problem =
            expect_problem(s.app.post("/api/v1/lots/sign", &s.officer, body).await, 400, "validation_failed").await;
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    expect_problem(
        s.app.post("/api/v1/lots/sign", &s.officer, json!({"lotId": 999_999, "signatureImage": signature_png()})).await,
        404,
        "not_found",
    )
    .await;
    expect_problem(s.app.get("/api/v1/bulk-jobs/job_nothing", &s.officer).await, 404, "not_found").await;
    // Nothing was started by the refusals.
    let lot_now = json_of(s.app.get(&format!("/api/v1/lots/{lot_id}"), &s.client).await, 200).await;
    assert_eq!(lot_now["jobId"], Value::Null);

    // A lot is its signer's (whatever their role) and its readers': anyone else of the tenant
    // meets it as a lot that does not exist (`authority::jobs::may_see_lot`).
    let svc = &s.app.state.services;
    let as_role = |principal_id: signet_domain::PrincipalId, role: Role| signet_server::Caller {
        tenant_id: s.tenant_id,
        principal_id,
        is_user: true,
        access: Access::builtin(role),
        actor: Actor { id: format!("user:{principal_id}"), ip: None },
    };
    let input = UserInput {
        name: Some("Colleague".into()),
        email: Some("colleague@lender.test".into()),
        role_id: Some(3),
        ..UserInput::default()
    };
    let admin = as_role(signet_domain::PrincipalId::from(s.officer_id), Role::Administrator);
    let colleague =
        signet_services::people::users::create_internal(svc, &admin, &input).await.expect("colleague").user.id;
    assert!(
        signet_services::bulk::lots::get(
            svc,
            &as_role(signet_domain::PrincipalId::from(s.officer_id), Role::Signer),
            lot_id.into()
        )
        .await
        .is_ok(),
        "signer"
    );
    assert!(
        signet_services::bulk::lots::get(svc, &as_role(colleague, Role::Auditor), lot_id.into()).await.is_ok(),
        "a reader"
    );
    let hidden = signet_services::bulk::lots::get(svc, &as_role(colleague, Role::Signer), lot_id.into()).await;
    assert_eq!(hidden.err().map(|e| e.code()), Some(signet_domain::ErrorCode::NotFound), "a colleague");
}

/// A CSV file of `rows` customers written by Python's csv module (an outside writer: quoting of
/// names with commas and quotes is its own), with the rows in `bad` broken in three ways.
fn customers_csv(rows: usize) -> Vec<u8> {
    let script = format!(
        "import csv, io, sys\n\
         out = io.StringIO()\n\
         w = csv.writer(out)\n\
         w.writerow(['workflowName', 'referenceNo', 'signer1.email', 'signer1.name', 'signer2.email', 'signer2.name'])\n\
         for i in range(1, {rows} + 1):\n\
         \x20   email = 'customer%d@home.test' % i\n\
         \x20   reference = 'LOAN-%05d' % i\n\
         \x20   if i == 100: email = 'not-an-address'\n\
         \x20   if i == 500: email = ''\n\
         \x20   if i == 900: reference = 'R' * 201\n\
         \x20   w.writerow(['Loan agreement %d' % i, reference, email, 'Verma, Asha \"%d\"' % i, 'officer@lender.test', 'Officer'])\n\
         sys.stdout.write(out.getvalue())\n"
    );
    let output = std::process::Command::new("python3").args(["-c", &script]).output().expect("python3");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    output.stdout
}

async fn a_bulk_send_of_a_thousand_rows_reports_the_bad_ones_and_sends_the_rest(backend: Backend) {
    let s = setup(backend).await;
    let pdf = reportlab_pdf(&[Page::text("Loan agreement").line(300, "Borrower:")]);
    let upload = json!({"documentName": "Loan agreement.pdf", "fileData": STANDARD.encode(&pdf)});
    let document = json_of(s.app.post("/api/v1/documents", &s.client, upload).await, 201).await["documentId"].clone();
    let file = STANDARD.encode(customers_csv(1000));
    let send = |dry_run: bool| json!({"documentIds": [document], "fileData": file, "dryRun": dry_run});

    // A dry run names the three bad rows by their line and sends nothing.
    let preview = json_of(s.app.post("/api/v1/bulk-sends", &s.client, send(true)).await, 200).await;
    assert_eq!(
        (preview["rows"].as_i64(), preview["valid"].as_i64(), preview["invalid"].as_i64()),
        (Some(1000), Some(997), Some(3))
    );
    let lines: Vec<i64> =
        preview["problems"].as_array().expect("problems").iter().filter_map(|p| p["line"].as_i64()).collect();
    assert_eq!(lines, [101, 501, 901], "{preview}");
    assert!(preview["problems"][2]["errors"]["referenceNo"].is_array(), "{preview}");
    assert_eq!(preview["job"], Value::Null);
    assert_eq!(json_of(s.app.get("/api/v1/workflows", &s.client).await, 200).await["totalCount"], 0);

    // The real send: one workflow per good row, the bad ones reported.
    let started = json_of(s.app.post("/api/v1/bulk-sends", &s.client, send(false)).await, 202).await;
    let job_id = started["job"]["jobId"].as_str().expect("job").to_string();
    let events = follow(&s.app, &s.client, &job_id).await;
    let (last, done) = events.last().expect("events");
    assert_eq!(last, "done");
    assert_eq!((done["succeeded"].as_i64(), done["failed"].as_i64()), (Some(997), Some(3)), "{done}");
    let listed = json_of(s.app.get("/api/v1/workflows?searchText=LOAN-00042", &s.client).await, 200).await;
    assert_eq!(listed["totalCount"], 1, "{listed}");
    assert_eq!(json_of(s.app.get("/api/v1/workflows", &s.client).await, 200).await["totalCount"], 997);
    let report = s.app.get(&format!("/api/v1/bulk-jobs/{job_id}/report"), &s.client).await.text().await.expect("csv");
    let failed: Vec<&str> = report.lines().filter(|l| l.contains(",failed,")).collect();
    assert_eq!(failed.len(), 3, "{failed:?}");
    assert!(failed[0].starts_with("100,LOAN-00100,failed,"), "{}", failed[0]);
    // Each workflow has its own copy of the document, with its row's signers in order.
    let workflow_id = report.lines().nth(1).and_then(|l| l.split(',').nth(3)).expect("first workflow");
    let workflow = json_of(s.app.get(&format!("/api/v1/workflows/{workflow_id}"), &s.client).await, 200).await;
    assert!(
        workflow.to_string().contains("customer1@home.test") && workflow.to_string().contains("officer@lender.test")
    );

    // Files that cannot be read are refused whole, nothing sent.
    for (csv, says) in [
        ("signer1.email,favourite colour\na@x.test,blue\n", "favourite colour"),
        ("signer1.email\n\"a@x.test\n", "not closed"),
        ("workflowName\nx\n", "signer1.email"),
        ("signer1.email\n", "no rows"),
    ] {
        let body = json!({"documentIds": [document], "fileData": STANDARD.encode(csv)});
        let problem =
            expect_problem(s.app.post("/api/v1/bulk-sends", &s.client, body).await, 400, "validation_failed").await;
        assert!(problem["errors"]["fileData"].to_string().contains(says), "{says}: {problem}");
    }
    let body = json!({"documentIds": [987_654], "fileData": STANDARD.encode("signer1.email\na@x.test\n")});
    let problem =
        expect_problem(s.app.post("/api/v1/bulk-sends", &s.client, body).await, 400, "validation_failed").await;
    assert!(problem["errors"]["documentIds[0]"].is_array(), "{problem}");
    assert_eq!(json_of(s.app.get("/api/v1/workflows", &s.client).await, 200).await["totalCount"], 997);
}

/// A workbook written by openpyxl (shared strings, a number cell, a blank cell, a second sheet
/// that is not read), base64.
fn customers_xlsx() -> String {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("customers.xlsx");
    let script = format!(
        "import openpyxl\n\
         wb = openpyxl.Workbook()\n\
         ws = wb.active\n\
         ws.append(['workflowName', 'referenceNo', 'signer1.email', 'signer1.name', 'signer1.order', 'message'])\n\
         ws.append(['Lease & deposit', 'LEASE-1', 'tenant1@home.test', 'Tenant <One>', 1, 'Dear tenant,\\nplease sign.'])\n\
         ws.append(['Lease 2', 'LEASE-2', 'tenant2@home.test', None, 1, None])\n\
         ws.append(['Lease 3', 'LEASE-3', 'not an address', 'Three', 1, 'x'])\n\
         wb.create_sheet('Notes').append(['ignored'])\n\
         wb.save({:?})\n",
        path.display().to_string()
    );
    let status = std::process::Command::new("python3").args(["-c", &script]).status().expect("python3");
    assert!(status.success(), "openpyxl (scripts/install-test-deps.sh) must be installed");
    STANDARD.encode(std::fs::read(path).expect("xlsx"))
}

async fn a_bulk_send_reads_an_xlsx_workbook_written_by_openpyxl(backend: Backend) {
    let s = setup(backend).await;
    let pdf = reportlab_pdf(&[Page::text("Lease")]);
    let upload = json!({"documentName": "Lease.pdf", "fileData": STANDARD.encode(&pdf)});
    let document = json_of(s.app.post("/api/v1/documents", &s.client, upload).await, 201).await["documentId"].clone();
    let body = json!({"documentIds": [document], "fileData": customers_xlsx()});
    let started = json_of(s.app.post("/api/v1/bulk-sends", &s.client, body).await, 202).await;
    assert_eq!((started["rows"].as_i64(), started["invalid"].as_i64()), (Some(3), Some(1)), "{started}");
    assert_eq!(started["problems"][0]["line"], 4, "the workbook's row number: {started}");
    let job_id = started["job"]["jobId"].as_str().expect("job").to_string();
    let (_, done) = follow(&s.app, &s.client, &job_id).await.pop().expect("done");
    assert_eq!((done["succeeded"].as_i64(), done["failed"].as_i64()), (Some(2), Some(1)), "{done}");
    let listed = json_of(s.app.get("/api/v1/workflows?searchText=LEASE-1", &s.client).await, 200).await;
    assert_eq!(listed["totalCount"], 1);
    let workflow_id = listed["items"][0]["workflowId"].as_i64().or(listed["items"][0]["id"].as_i64()).expect("id");
    let workflow = json_of(s.app.get(&format!("/api/v1/workflows/{workflow_id}"), &s.client).await, 200).await;
    let text = workflow.to_string();
    assert!(text.contains("Lease & deposit") && text.contains("Tenant <One>"), "entities decoded: {text}");
    // The row's message, lines kept, goes with its workflow.
    let stored = s.app.store.workflow(s.tenant_id, workflow_id.into()).await.expect("read").expect("workflow");
    assert_eq!(
        signet_services::workflows::initiate::message_of(&stored).as_deref(),
        Some("Dear tenant,\nplease sign.")
    );

    // A ZIP that is not a workbook, and a damaged one: refused with fileData named.
    let mut damaged = b"PK\x03\x04\0\0\0\0PK\x05\x06".to_vec();
    damaged.extend([0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0]);
    for bytes in [b"PK\x03\x04 not a zip at all".to_vec(), damaged] {
        let body = json!({"documentIds": [document], "fileData": STANDARD.encode(&bytes)});
        let problem =
            expect_problem(s.app.post("/api/v1/bulk-sends", &s.client, body).await, 400, "validation_failed").await;
        assert!(problem["errors"]["fileData"].is_array(), "{problem}");
    }
}

/// Where a console form's answer leads (a 303).
fn location(response: &reqwest::Response) -> String {
    assert_eq!(response.status(), 303, "{response:?}");
    response.headers()["location"].to_str().expect("location").to_string()
}

/// The rows of a bulk send from the loan template: two signers (borrower, branch officer) and
/// the loan number, different on every row.
const LOAN_ROWS: &str = "workflowName,referenceNo,signer1.name,signer1.email,signer2.name,signer2.email,field.Loan number\n\
    Home loan 1,HL-0001,Asha Verma,asha@borrowers.test,Ravi Rao,ravi@branch.test,LN-1001\n\
    Home loan 2,HL-0002,Meena Iyer,meena@borrowers.test,Sunil Shah,sunil@branch.test,LN-1002\n\
    Home loan 3,HL-0003,Kiran Das,kiran@borrowers.test,Ravi Rao,ravi@branch.test,LN-1003\n";

/// The bulk form with `template` and the rows `csv`, as a browser sends it (no PDF chosen).
fn bulk_form(csrf: &str, template: &str, csv: &str, action: &str) -> reqwest::multipart::Form {
    let sheet = reqwest::multipart::Part::bytes(csv.as_bytes().to_vec()).file_name("loans.csv");
    reqwest::multipart::Form::new()
        .text("csrf", csrf.to_string())
        .text("template", template.to_string())
        .text("action", action.to_string())
        .part("sheet", sheet.mime_str("text/csv").expect("mime"))
}

/// Templates as a library (issue 37, item 9) in the console: a template is made with its
/// document, its places edited, found by search, previewed, duplicated and the copy archived
/// (no longer offered, still listed under the archived); then a bulk send from the template,
/// with no PDF uploaded, starts one workflow per row of a CSV of three, each with its row's
/// signers, the template's document and the row's loan number in the borrower's text field.
async fn a_bulk_send_from_a_template_gives_each_row_its_signers_and_values(backend: Backend) {
    use signet_testkit::console::{console_session, csrf_of};
    let smtp = signet_testkit::smtp::SmtpSink::start();
    let app = spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let tenant = app.tenant("Template Lender").await;
    let client = app.token(&tenant).await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let library = admin.get(app.url("/app/templates")).await;
    assert_eq!(library.status(), 200);
    let csrf = csrf_of(&library.text().await.expect("html"));

    // Made with its document: a two-page loan agreement.
    let pdf = reportlab_pdf(&[Page::text("Home loan agreement").line(300, "Borrower:"), Page::text("Branch officer:")]);
    let document = reqwest::multipart::Part::bytes(pdf).file_name("loan.pdf").mime_str("application/pdf");
    let form = reqwest::multipart::Form::new()
        .text("csrf", csrf.clone())
        .text("name", "Home loan")
        .part("document", document.expect("mime"));
    let made = admin.send(admin.http.post(app.url("/app/templates")).multipart(form)).await;
    let page_of_template = location(&made);
    let template_id = page_of_template.trim_start_matches("/app/templates/").to_string();
    let shown = admin.get(app.url(&page_of_template)).await.text().await.expect("html");
    assert!(shown.contains("loan.pdf") && shown.contains("2 pages"), "{shown}");
    let preview = admin.get(app.url(&format!("{page_of_template}/pages/1"))).await;
    assert_eq!(preview.status(), 200);
    assert_eq!(preview.headers()["content-type"], "image/png");

    // Its places: the borrower signs and gets a loan-number box on page 1, the officer signs page 2.
    let places = [
        ("csrf", csrf.as_str()),
        ("name", "Home loan agreement"),
        ("f1_signatory", "1"),
        ("f1_kind", "signature"),
        ("f1_page", "1"),
        ("f1_left", "72"),
        ("f1_top", "560"),
        ("f1_width", "160"),
        ("f1_height", "50"),
        ("f2_signatory", "1"),
        ("f2_kind", "text"),
        ("f2_label", "Loan number"),
        ("f2_page", "1"),
        ("f2_left", "300"),
        ("f2_top", "100"),
        ("f2_width", "160"),
        ("f2_height", "20"),
        ("f3_signatory", "2"),
        ("f3_kind", "signature"),
        ("f3_page", "2"),
        ("f3_left", "72"),
        ("f3_top", "140"),
        ("f3_width", "160"),
        ("f3_height", "50"),
        ("f4_signatory", ""),
    ];
    assert_eq!(location(&admin.post(app.url(&format!("{page_of_template}/edit")), &places).await), page_of_template);
    let shown = admin.get(app.url(&page_of_template)).await.text().await.expect("html");
    assert!(shown.contains("field.Loan number"), "the bulk columns name the text field: {shown}");
    assert!(shown.contains("name=\"f3_signatory\" value=\"2\""), "{shown}");
    let bad = [("csrf", csrf.as_str()), ("name", "Home loan agreement"), ("f1_signatory", "1"), ("f1_left", "far")];
    let refused = admin.post(app.url(&format!("{page_of_template}/edit")), &bad).await;
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("html").contains("place 1"), "the row is named");

    // Duplicated; the copy archived: listed only under the archived, not offered for bulk.
    let copied = admin.post(app.url(&format!("{page_of_template}/duplicate")), &[("csrf", csrf.as_str())]).await;
    let page_of_copy = location(&copied);
    assert_ne!(page_of_copy, page_of_template);
    let copy_id = page_of_copy.trim_start_matches("/app/templates/").to_string();
    let copy = admin.get(app.url(&page_of_copy)).await.text().await.expect("html");
    assert!(copy.contains("Copy of Home loan agreement") && copy.contains("loan.pdf"), "{copy}");
    let archive = [("csrf", csrf.as_str()), ("archived", "true")];
    assert_eq!(location(&admin.post(app.url(&format!("{page_of_copy}/archive")), &archive).await), page_of_copy);
    let listed = |query: &'static str| {
        let admin = &admin;
        let url = app.url(&format!("/app/templates{query}"));
        async move { admin.get(url).await.text().await.expect("html") }
    };
    let active = listed("?q=HOME+loan").await;
    assert!(active.contains("Home loan agreement") && !active.contains("Copy of"), "{active}");
    assert!(!listed("?q=car").await.contains("Home loan agreement"), "the search filters");
    assert!(listed("?shelf=archived").await.contains("Copy of Home loan agreement"));
    let bulk_page = admin.get(app.url(&format!("/app/bulk?template={template_id}"))).await.text().await.expect("html");
    assert!(bulk_page.contains(&format!("value=\"{template_id}\" selected")), "chosen from the template's page");
    assert!(!bulk_page.contains(&format!("value=\"{copy_id}\"")), "the archived copy is not offered");
    let csrf = csrf_of(&bulk_page);
    let from_archived = bulk_form(&csrf, &copy_id, LOAN_ROWS, "check");
    let refused = admin.send(admin.http.post(app.url("/app/bulk")).multipart(from_archived)).await;
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("html").contains("archived"));

    // Checked, then sent: no PDF uploaded, three rows.
    let checked =
        admin.send(admin.http.post(app.url("/app/bulk")).multipart(bulk_form(&csrf, &template_id, LOAN_ROWS, "check")));
    let checked = checked.await.text().await.expect("html");
    assert!(checked.contains("3 of 3"), "{checked}");
    let wrong_column = LOAN_ROWS.replace("field.Loan number", "field.Branch");
    let checked = admin.send(admin.http.post(app.url("/app/bulk")).multipart(bulk_form(
        &csrf,
        &template_id,
        &wrong_column,
        "check",
    )));
    assert!(checked.await.text().await.expect("html").contains("field.Branch"), "a value no field takes is named");
    let sent =
        admin.send(admin.http.post(app.url("/app/bulk")).multipart(bulk_form(&csrf, &template_id, LOAN_ROWS, "send")));
    let job = location(&sent.await);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    let progress = loop {
        let progress: Value = admin.get(app.url(&format!("{job}/progress"))).await.json().await.expect("json");
        if progress["finished"] == true {
            break progress;
        }
        assert!(tokio::time::Instant::now() < deadline, "the job did not finish: {progress}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!((progress["succeeded"].as_i64(), progress["failed"].as_i64()), (Some(3), Some(0)), "{progress}");

    // Each workflow: its row's signers in order, the template's document, the row's loan number.
    let report = admin.get(app.url(&format!("{job}/report"))).await.text().await.expect("csv");
    let rows = [
        ("HL-0001", "Asha Verma", "asha@borrowers.test", "Ravi Rao", "LN-1001"),
        ("HL-0002", "Meena Iyer", "meena@borrowers.test", "Sunil Shah", "LN-1002"),
        ("HL-0003", "Kiran Das", "kiran@borrowers.test", "Ravi Rao", "LN-1003"),
    ];
    for (reference, borrower, borrower_email, officer, loan_number) in rows {
        let line = report.lines().find(|l| l.contains(&format!(",{reference},"))).expect("the row's line");
        let workflow_id: i64 = line.split(',').nth(3).and_then(|id| id.parse().ok()).expect("its workflow");
        let workflow = app
            .store
            .workflow(tenant.tenant_id, signet_domain::WorkflowId::from(workflow_id))
            .await
            .expect("read")
            .expect("the workflow");
        assert_eq!(workflow.reference_no.as_deref(), Some(reference));
        assert_eq!(workflow.template_id.map(|t| t.get().to_string()), Some(template_id.clone()));
        let signatories = app.store.signatories(&workflow).await.expect("signatories");
        let names: Vec<&str> = signatories.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, vec![borrower, officer], "{reference}");
        assert_eq!(signatories[0].email, borrower_email);
        let placement: Value = serde_json::to_value(&signatories[0].placement).expect("placement");
        let field = &placement["fields"][0];
        assert_eq!((field["label"].as_str(), field["value"].as_str()), (Some("Loan number"), Some(loan_number)));
        let officer_placement: Value = serde_json::to_value(&signatories[1].placement).expect("placement");
        assert!(officer_placement["fields"].is_null(), "the officer has no text field: {officer_placement}");
        let details = json_of(app.get(&format!("/api/v1/workflows/{workflow_id}"), &client).await, 200).await;
        assert!(details.to_string().contains("loan.pdf"), "the template's document: {details}");
        smtp.wait_for(borrower_email, &format!("Please sign: Home loan {}", &reference[reference.len() - 1..])).await;
    }
}
