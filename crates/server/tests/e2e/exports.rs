//! Exports (docs/exports.md) on both backends: workflows, signatories, users and audit events as
//! CSV, XLSX and JSON Lines, each file read back by an outside tool (Python's csv module,
//! openpyxl, json per line) with the right rows and columns; the date range and the filter
//! applied; the refusals naming their field; another tenant seeing none of it; and an export of
//! 100,000 audit events written as a job and fetched while the process's peak memory is watched.

use std::io::Write;
use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::one_page;
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn_with};

on_both_backends!(
    every_format_reads_back_with_its_rows_and_columns,
    the_range_and_the_filter_choose_the_rows,
    bad_requests_name_their_field,
    another_tenant_exports_none_of_a_tenants_rows,
    a_hundred_thousand_events_export_in_constant_memory,
);

async fn app(backend: Backend) -> TestApp {
    spawn_with(backend, |config| {
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await
}

/// Three workflows of two signatories each; answers their ids.
async fn workflows(app: &TestApp, token: &str) -> Vec<i64> {
    let pdf = STANDARD.encode(one_page("Loan agreement"));
    let mut ids = Vec::new();
    for i in 0..3 {
        let body = json!({"documentName": format!("agreement-{i}.pdf"), "fileData": pdf, "referenceNo": format!("REF-{i}"),
            "signatories": [{"emailId": format!("Borrower{i}@example.in"), "name": format!("Borrower {i}")},
                            {"emailId": "lender@example.in", "name": "=Lender, \"Bank\""}]});
        let response = app.post("/api/v1/workflows/initiate-and-sign", token, body).await;
        assert_eq!(response.status(), 201);
        let started: Value = response.json().await.expect("json");
        ids.push(started["workflowId"].as_i64().expect("workflowId"));
    }
    ids
}

async fn export(app: &TestApp, token: &str, dataset: &str, body: Value) -> reqwest::Response {
    app.post(&format!("/api/v1/exports/{dataset}"), token, body).await
}

/// A streamed export's bytes, after checking its status and type.
async fn file(response: reqwest::Response, content_type: &str) -> Vec<u8> {
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    assert_eq!(headers.get("content-type").and_then(|v| v.to_str().ok()), Some(content_type));
    let disposition = headers.get("content-disposition").and_then(|v| v.to_str().ok()).unwrap_or_default();
    assert!(disposition.starts_with("attachment; filename=\"signet-"), "{disposition}");
    response.bytes().await.expect("body").to_vec()
}

/// Reads `bytes` with Python: `reader` turns the file at `path` into a list of rows (lists of
/// strings, the header first), printed as JSON.
fn python_rows(bytes: &[u8], suffix: &str, reader: &str) -> Vec<Vec<Value>> {
    let mut file = tempfile::Builder::new().suffix(suffix).tempfile().expect("temp file");
    file.write_all(bytes).expect("write");
    let script = format!("import csv, json, sys\npath = sys.argv[1]\n{reader}\nprint(json.dumps(rows))\n");
    let output = Command::new("python3").args(["-c", &script]).arg(file.path()).output().expect("python3");
    assert!(output.status.success(), "python3: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("rows")
}

fn csv_rows(bytes: &[u8]) -> Vec<Vec<Value>> {
    python_rows(bytes, ".csv", "rows = list(csv.reader(open(path, newline='', encoding='utf-8')))")
}

fn xlsx_rows(bytes: &[u8]) -> Vec<Vec<Value>> {
    let reader = "import openpyxl\nwb = openpyxl.load_workbook(path, read_only=True)\nws = wb.worksheets[0]\n\
                  rows = [[c for c in row] for row in ws.iter_rows(values_only=True)]";
    python_rows(bytes, ".xlsx", reader)
}

fn jsonl_objects(bytes: &[u8]) -> Vec<Value> {
    let rows = python_rows(bytes, ".jsonl", "rows = [[json.loads(line)] for line in open(path, encoding='utf-8')]");
    rows.into_iter().map(|mut r| r.remove(0)).collect()
}

const WORKFLOW_COLUMNS: [&str; 14] = [
    "workflowId",
    "name",
    "referenceNo",
    "workflowType",
    "status",
    "statusReason",
    "templateId",
    "createdBy",
    "createdAt",
    "updatedAt",
    "completedAt",
    "expiresAt",
    "signatories",
    "signed",
];

async fn every_format_reads_back_with_its_rows_and_columns(backend: Backend) {
    let app = app(backend).await;
    let tenant = app.tenant("Export Bank").await;
    let token = app.token(&tenant).await;
    let ids = workflows(&app, &token).await;

    // CSV: the header, one line per workflow in id order; the formula-like name quoted.
    let csv = file(export(&app, &token, "workflows", json!({"format": "CSV"})).await, "text/csv; charset=utf-8").await;
    let rows = csv_rows(&csv);
    assert_eq!(rows[0], WORKFLOW_COLUMNS.map(Value::from).to_vec());
    assert_eq!(rows.len(), 4);
    for (row, id) in rows[1..].iter().zip(&ids) {
        assert_eq!(row[0], id.to_string());
        assert_eq!(row[4], "in_progress");
        assert_eq!(row[12], "2");
        assert!(row[8].as_str().is_some_and(|t| t.ends_with('Z') && t.contains('T')), "RFC 3339: {row:?}");
    }
    assert_eq!(rows[2][2], "REF-1");

    // XLSX: the same rows, numbers as numbers.
    let xlsx_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    let xlsx = file(export(&app, &token, "workflows", json!({"format": "xlsx"})).await, xlsx_type).await;
    let rows = xlsx_rows(&xlsx);
    assert_eq!(rows[0], WORKFLOW_COLUMNS.map(Value::from).to_vec());
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1][0], json!(ids[0]));
    assert_eq!(rows[3][2], "REF-2");
    assert_eq!(rows[1][12], json!(2));

    // Signatories as XLSX: text that looks like a formula stays text.
    let xlsx = file(export(&app, &token, "signatories", json!({"format": "xlsx"})).await, xlsx_type).await;
    let rows = xlsx_rows(&xlsx);
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[0][5], "email");
    assert!(rows.iter().any(|r| r[4] == "=Lender, \"Bank\""), "{rows:?}");

    // JSON Lines: one object per line with every column.
    let jsonl =
        file(export(&app, &token, "signatories", json!({"format": "jsonl"})).await, "application/x-ndjson").await;
    let objects = jsonl_objects(&jsonl);
    assert_eq!(objects.len(), 6);
    assert_eq!(objects[0]["workflowId"], ids[0]);
    assert_eq!(objects[0]["email"], "Borrower0@example.in");
    assert_eq!(objects[1]["name"], "=Lender, \"Bank\"");
    assert_eq!(objects[0].as_object().expect("object").len(), 14);

    // Users: never a credential of any kind.
    let jsonl = file(export(&app, &token, "users", json!({"format": "jsonl"})).await, "application/x-ndjson").await;
    let text = String::from_utf8(jsonl.clone()).expect("utf-8");
    let users = jsonl_objects(&jsonl);
    for key in users.iter().flat_map(|u| u.as_object().expect("object").keys()) {
        for secret in ["secret", "password", "hash", "totp", "national", "stamp"] {
            assert!(!key.to_lowercase().contains(secret), "{key} in {text}");
        }
    }
    assert!(users.iter().any(|u| u["email"] == tenant.admin_email.as_str() && u["role"] == "administrator"), "{text}");

    // Audit events: each with its chain hashes.
    let csv =
        file(export(&app, &token, "audit-events", json!({"format": "csv"})).await, "text/csv; charset=utf-8").await;
    let rows = csv_rows(&csv);
    assert_eq!(
        rows[0],
        ["seq", "at", "actor", "action", "target", "ip", "ipCommitment", "ipNonce", "detail", "prevHash", "hash"]
            .map(Value::from)
    );
    assert!(rows.len() > 2);
    assert!(rows[1..].iter().all(|r| r[10].as_str().is_some_and(|h| h.len() == 64)), "{rows:?}");
}

async fn the_range_and_the_filter_choose_the_rows(backend: Backend) {
    let app = app(backend).await;
    let tenant = app.tenant("Range Bank").await;
    let token = app.token(&tenant).await;
    let ids = workflows(&app, &token).await;
    let csv = |body: Value, dataset: &'static str| {
        let (app, token) = (&app, &token);
        async move { csv_rows(&file(export(app, token, dataset, body).await, "text/csv; charset=utf-8").await) }
    };

    // A range in the future, or one in the past, holds nothing; today's holds everything.
    let future = json!({"format": "csv", "fromDate": "2999-01-01T00:00:00Z"});
    assert_eq!(csv(future, "workflows").await.len(), 1);
    let past = json!({"format": "csv", "toDate": "2001-01-01T00:00:00+05:30"});
    assert_eq!(csv(past, "workflows").await.len(), 1);
    let around = json!({"format": "csv", "fromDate": "2001-01-01T00:00:00Z", "toDate": "2999-01-01T00:00:00Z"});
    assert_eq!(csv(around, "workflows").await.len(), 4);

    // The filter: a workflow's signatories; a reference; an e-mail in any case; a status.
    let of_second = json!({"format": "csv", "filterCriteria": format!("workflowId={}", ids[1])});
    let rows = csv(of_second, "signatories").await;
    assert_eq!(rows.len(), 3);
    let second = ids[1].to_string();
    assert!(rows[1..].iter().all(|r| r[1] == second.as_str()));
    let by_reference = json!({"format": "csv", "filterCriteria": "referenceNo=REF-2"});
    let rows = csv(by_reference, "workflows").await;
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1][0], ids[2].to_string());
    let by_email = json!({"format": "csv", "filterCriteria": "email=BORROWER0@EXAMPLE.IN; status=notified"});
    let rows = csv(by_email, "signatories").await;
    assert_eq!(rows.len(), 2, "{rows:?}");
    let completed = json!({"format": "csv", "filterCriteria": "status=completed"});
    assert_eq!(csv(completed, "workflows").await.len(), 1);
    let by_action = json!({"format": "csv", "filterCriteria": "action=export.streamed"});
    let rows = csv(by_action, "audit-events").await;
    assert!(rows.len() >= 8, "every export so far was recorded: {rows:?}");
    assert!(rows[1..].iter().all(|r| r[3] == "export.streamed"));

    // maxRecords: the first rows by id.
    let first_two = json!({"format": "csv", "maxRecords": 2});
    let rows = csv(first_two, "workflows").await;
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[2][0], ids[1].to_string());
}

async fn bad_requests_name_their_field(backend: Backend) {
    let app = app(backend).await;
    let tenant = app.tenant("Strict Bank").await;
    let token = app.token(&tenant).await;
    let cases = [
        ("workflows", json!({"format": "pdf"}), "format"),
        ("workflows", json!({"format": ""}), "format"),
        (
            "users",
            json!({"format": "csv", "fromDate": "2026-05-01T00:00:00Z", "toDate": "2026-04-01T00:00:00Z"}),
            "toDate",
        ),
        ("users", json!({"format": "csv", "fromDate": "last week"}), "fromDate"),
        ("audit-events", json!({"format": "csv", "maxRecords": 0}), "maxRecords"),
        ("audit-events", json!({"format": "csv", "maxRecords": 1_000_001}), "maxRecords"),
        ("users", json!({"format": "csv", "filterCriteria": "passwordHash=x"}), "filterCriteria"),
        ("signatories", json!({"format": "csv", "filterCriteria": "workflowId=1 OR 1=1"}), "filterCriteria"),
        ("workflows", json!({"format": "csv", "filterCriteria": "status=finished"}), "filterCriteria"),
    ];
    for (dataset, body, field) in cases {
        let problem = expect_problem(export(&app, &token, dataset, body.clone()).await, 400, "validation_failed").await;
        assert!(problem["errors"][field].is_array(), "{dataset} {body}: {problem}");
    }
    let problem = expect_problem(
        export(&app, &token, "users", json!({"format": "csv", "filterCriteria": "secret=1"})).await,
        400,
        "validation_failed",
    )
    .await;
    let message = problem["errors"]["filterCriteria"][0].as_str().unwrap_or_default();
    assert!(message.contains("\"secret\"") && message.contains("status, role, userType, departmentId"), "{problem}");

    // An export job that does not exist, or a file not yet written.
    expect_problem(app.get("/api/v1/exports/jobs/exp_nothing", &token).await, 404, "not_found").await;
    let response = app
        .client
        .post(app.url("/api/v1/exports/users"))
        .bearer_auth(&token)
        .header("prefer", "respond-async")
        .json(&json!({"format": "xlsx"}))
        .send()
        .await
        .expect("export");
    assert_eq!(response.status(), 202);
    let job: Value = response.json().await.expect("json");
    let done = wait_for(&app, &token, job["exportId"].as_str().expect("id")).await;
    assert_eq!(done["rows"], 1, "{done}");
    let file = app.get(&format!("/api/v1/exports/jobs/{}/file", job["exportId"].as_str().expect("id")), &token).await;
    let rows = xlsx_rows(&file.bytes().await.expect("body"));
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1][1], tenant.admin_email.as_str());
}

/// Polls an export job until it is completed; answers its last status.
async fn wait_for(app: &TestApp, token: &str, export_id: &str) -> Value {
    for _ in 0..2400 {
        let status: Value =
            app.get(&format!("/api/v1/exports/jobs/{export_id}"), token).await.json().await.expect("json");
        match status["status"].as_str() {
            Some("completed") => return status,
            Some("failed") => panic!("the export failed: {status}"),
            _ => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
        }
    }
    panic!("the export {export_id} did not finish in time");
}

async fn another_tenant_exports_none_of_a_tenants_rows(backend: Backend) {
    let app = app(backend).await;
    let tenant_a = app.tenant("Alpha Bank").await;
    let tenant_b = app.tenant("Beta Bank").await;
    let (a, b) = (app.token(&tenant_a).await, app.token(&tenant_b).await);
    workflows(&app, &a).await;
    for dataset in ["workflows", "signatories", "audit-events", "users"] {
        let bytes = file(export(&app, &b, dataset, json!({"format": "jsonl"})).await, "application/x-ndjson").await;
        let text = String::from_utf8(bytes).expect("utf-8").to_lowercase();
        for mark in ["alpha", "borrower", "lender"] {
            assert!(!text.contains(mark), "B's {dataset} show A's {mark}: {text}");
        }
    }
    // A's export job is not B's to read or fetch.
    let response = app
        .client
        .post(app.url("/api/v1/exports/workflows"))
        .bearer_auth(&a)
        .header("prefer", "respond-async")
        .json(&json!({"format": "csv"}))
        .send()
        .await
        .expect("export");
    let job: Value = response.json().await.expect("json");
    let id = job["exportId"].as_str().expect("id");
    wait_for(&app, &a, id).await;
    expect_problem(app.get(&format!("/api/v1/exports/jobs/{id}"), &b).await, 404, "not_found").await;
    expect_problem(app.get(&format!("/api/v1/exports/jobs/{id}/file"), &b).await, 404, "not_found").await;
}

/// The process's peak resident memory so far (`VmHWM`), in bytes.
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .expect("VmHWM");
    kib * 1024
}

/// Sets the peak back to the current resident memory (Linux 4.0+), so that what the
/// insertion of the events took does not hide what the export takes.
fn reset_peak() {
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak RSS");
}

/// 100,000 audit events (each with a detail of about 600 bytes, so that the file is far
/// larger than the memory bound) exported as CSV: the request answers 202 with a job, the job
/// writes the file to the blob store in parts, and the file is fetched as a stream. The server
/// runs in this process, so the peak resident memory of the process bounds what the export
/// took: it must grow by far less than the file's size.
async fn a_hundred_thousand_events_export_in_constant_memory(backend: Backend) {
    const EVENTS: usize = 100_000;
    const BOUND: u64 = 64 * 1024 * 1024;
    let app = app(backend).await;
    let tenant = app.tenant("Audit Bank").await;
    let token = app.token(&tenant).await;
    let detail = json!({"note": "x".repeat(600), "kind": "load test"});
    app.store.append_audit_events_for_tests(tenant.tenant_id, EVENTS, "test.bulk", &detail).await.expect("events");
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    reset_peak();
    let before = peak_rss();
    let started = std::time::Instant::now();
    let response =
        export(&app, &token, "audit-events", json!({"format": "csv", "filterCriteria": "action=test.bulk"})).await;
    assert_eq!(response.status(), 202, "more than 10,000 rows run as a job");
    let job: Value = response.json().await.expect("json");
    assert_eq!(job["rows"], EVENTS);
    let id = job["exportId"].as_str().expect("id").to_string();
    let done = wait_for(&app, &token, &id).await;
    let written = started.elapsed();
    assert_eq!(done["rows"], EVENTS, "{done}");

    // The file, fetched chunk by chunk to disk.
    let mut response = app.get(&format!("/api/v1/exports/jobs/{id}/file"), &token).await;
    assert_eq!(response.status(), 200);
    let mut out = tempfile::NamedTempFile::new().expect("temp file");
    let mut size = 0_u64;
    while let Some(chunk) = response.chunk().await.expect("chunk") {
        size += chunk.len() as u64;
        out.write_all(&chunk).expect("write");
    }
    out.flush().expect("flush");
    let growth = peak_rss().saturating_sub(before);
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    println!(
        "{backend:?}: {EVENTS} events, file {:.1} MiB, written in {:.1} s, peak RSS {:.1} MiB -> {:.1} MiB (growth {:.1} MiB)",
        mib(size),
        written.as_secs_f64(),
        mib(before),
        mib(before + growth),
        mib(growth)
    );
    // A control, to show the instrument sees a read of the whole log: every entry held at once.
    reset_peak();
    let before_control = peak_rss();
    let whole = app.store.audit_entries(tenant.tenant_id, 0, EVENTS as i64 + 10).await.expect("entries");
    let control_growth = peak_rss().saturating_sub(before_control);
    println!(
        "{backend:?}: holding the whole log ({} entries) grew the peak RSS by {:.1} MiB",
        whole.len(),
        mib(control_growth)
    );
    drop(whole);
    assert!(control_growth > growth, "the control read of the whole log shows in the peak");
    // The chain check (`GET /audit/verify`) reads the log in pages too: it says the chain
    // stayed whole, without holding it.
    reset_peak();
    let before_check = peak_rss();
    let verified = app.get("/api/v1/audit/verify", &token).await;
    assert_eq!(verified.status(), 200);
    let verified: Value = verified.json().await.expect("json");
    assert_eq!(verified["intact"], true, "{verified}");
    let check_growth = peak_rss().saturating_sub(before_check);
    println!("{backend:?}: the chain check of the same log grew the peak RSS by {:.1} MiB", mib(check_growth));
    assert!(check_growth < BOUND, "the chain check grew the peak RSS by {check_growth} bytes");
    assert_eq!(Some(size as i64), done["sizeBytes"].as_i64());
    assert!(size > BOUND, "the file ({size} bytes) is larger than the bound, so holding it would show");
    assert!(growth < BOUND, "the export grew the peak RSS by {growth} bytes");

    // Python's csv module reads every row back.
    let script = "import csv, sys\nrows = csv.reader(open(sys.argv[1], newline='', encoding='utf-8'))\n\
                  header = next(rows)\nn = 0\nseqs = set()\nfor r in rows:\n    assert r[3] == 'test.bulk', r\n    assert len(r[10]) == 64\n    n += 1\n    seqs.add(r[0])\n\
                  print(header[0], n, len(seqs))\n";
    let output = Command::new("python3").args(["-c", script]).arg(out.path()).output().expect("python3");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), format!("seq {EVENTS} {EVENTS}"));
}
