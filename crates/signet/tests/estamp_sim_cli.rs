//! `signet estamp-sim serve` as a developer runs it: it prints its address, wants its key,
//! issues certificates with their PDFs, answers a repeated idempotency key with the first
//! issue, fetches by reference, refuses a record naming the fields, and a bad flag is one line.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_testkit::blocking::blocking_client;
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;

const SIGNET: SignetBin = signet_bin!();

/// A `signet estamp-sim serve` child, killed when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn record(txn: &str, article: &str) -> Value {
    json!({"loan": {"txnID": txn, "loanno": "LN-1", "state": "KA", "estampdtls": [
        {"firstparty": "Asha", "secondparty": "Acme", "stampDutyAmount": "200", "articleCode": article},
        {"firstparty": "Asha", "secondparty": "Acme", "stampDutyAmount": "100.00"}]}})
}

#[test]
fn serve_issues_fetches_and_refuses_like_a_provider() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = SIGNET
        .command()
        .args(["estamp-sim", "serve", "--listen", "127.0.0.1:0", "--api-key", "k1"])
        .current_dir(dir.path())
        .env("SIGNET_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn");
    let stdout = child.stdout.take().expect("stdout");
    let _served = Served(child);
    let first = BufReader::new(stdout).lines().next().expect("a line").expect("line");
    let base = first.split_whitespace().find(|w| w.starts_with("http://")).expect("address").to_string();
    let http = blocking_client();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !http.get(format!("{base}/healthz")).send().is_ok_and(|r| r.status().is_success()) {
        assert!(Instant::now() < deadline, "{base} did not answer");
        std::thread::sleep(Duration::from_millis(100));
    }
    let issue = |body: &Value, key: Option<&str>, idempotency: &str| {
        let mut request = http.post(format!("{base}/v1/estamps")).header("Idempotency-Key", idempotency).json(body);
        if let Some(key) = key {
            request = request.bearer(key);
        }
        request.send().expect("issue")
    };
    assert_eq!(issue(&record("T1", "5(j)"), None, "a").code(), 401);
    assert_eq!(issue(&record("T1", "5(j)"), Some("wrong"), "a").code(), 401);
    let issued = issue(&record("T1", "5(j)"), Some("k1"), "a");
    assert_eq!(issued.code(), 201);
    let issued: Value = issued.json();
    let certificates = issued["certificates"].as_array().expect("certificates");
    assert_eq!(certificates.len(), 2);
    let number = certificates[0]["certificateNo"].as_str().expect("number");
    assert!(number.starts_with("IN-KA") && number.len() == 20, "{number}");
    assert_eq!(certificates[1]["amount"], 100);
    let pdf = STANDARD.decode(certificates[0]["pdf"].as_str().expect("pdf")).expect("base64");
    assert!(signet_pdf::inspect(&pdf).is_ok_and(|p| p.pages == 1));
    // The same key again: the same certificates, not new ones.
    let again: Value = issue(&record("T1", "5(j)"), Some("k1"), "a").json();
    assert_eq!(again["certificates"][0]["certificateNo"], number);
    // Fetched by the provider's reference and by the record's txnID.
    for reference in [issued["providerRef"].as_str().expect("ref"), "T1"] {
        let fetched: Value =
            http.get(format!("{base}/v1/estamps/{reference}")).bearer("k1").send().expect("fetch").json();
        assert_eq!(fetched["certificates"][0]["certificateNo"], number);
    }
    let unknown = http.get(format!("{base}/v1/estamps/NOPE")).bearer("k1").send().expect("fetch");
    assert_eq!(unknown.code(), 404);
    // Its own rule: an article that is not in Karnataka's schedule.
    let refused = issue(&record("T2", "99"), Some("k1"), "b");
    assert_eq!(refused.code(), 422);
    let refused: Value = refused.json();
    assert_eq!(refused["errors"][0]["field"], "loan.estampdtls[0].articleCode", "{refused}");
    let junk = http.post(format!("{base}/v1/estamps")).bearer("k1").body("{").send().expect("junk");
    assert_eq!(junk.code(), 400);
}

#[test]
fn a_bad_flag_is_one_readable_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = SIGNET.run(&["estamp-sim", "serve", "--listen", "not-an-address"], dir.path());
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("signet: cannot listen on not-an-address"), "{stderr}");
}
