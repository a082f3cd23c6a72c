//! Crypto-shredding (issue 34, item 2): after `signet tenant delete`, a backup taken before
//! cannot yield the deleted organisation's documents. Two organisations each sign a workflow;
//! `signet backup`; one is deleted; the backup is restored into a new folder with the same
//! master key and the current key vault. There the deleted organisation's data keys and blobs
//! do not open, not even with the other organisation's key put in place of its own, while the
//! other organisation's document downloads byte for byte. A deletion run again is a no-op,
//! and `signet check` passes after one.

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use signet_testkit::gateway::access_token;
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;
use signet_testkit::workflow::sign_one;

const SIGNET: SignetBin = signet_bin!();

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn create_tenant(dir: &Path, name: &str, email: &str) -> Value {
    let output = SIGNET.run(&["tenant", "create", "--name", name, "--admin-email", email], dir);
    assert!(output.status.success(), "{}", text(&output));
    serde_json::from_slice(&output.stdout).expect("json")
}

async fn token(http: &reqwest::Client, base: &str, tenant: &Value) -> String {
    let (id, secret) = (tenant["client_id"].as_str().expect("id"), tenant["client_secret"].as_str().expect("secret"));
    access_token(http, base, id, secret).await
}

/// Signs one workflow for the organisation; answers its id and the signed PDF.
async fn signed(base: &str, tenant: &Value, name: &str) -> (i64, Vec<u8>) {
    let http = reqwest::Client::new();
    let token = token(&http, base, tenant).await;
    let started = sign_one(&http, base, &token, name, "signer@borrower.test").await;
    let workflow_id = started["workflowId"].as_i64().expect("workflowId");
    (workflow_id, download(&http, base, &token, workflow_id).await.expect("download"))
}

async fn download(http: &reqwest::Client, base: &str, token: &str, workflow_id: i64) -> Result<Vec<u8>, u16> {
    let response = http
        .post(format!("{base}/api/v1/documents/download"))
        .bearer_auth(token)
        .json(&serde_json::json!({"workflowid": workflow_id}))
        .send()
        .await
        .expect("download");
    if response.status() != 200 {
        return Err(response.status().as_u16());
    }
    Ok(response.bytes().await.expect("pdf").to_vec())
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir").flatten() {
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
    }
}

/// Runs a command expected to stop by itself (a start that is refused), killed after a minute.
fn serve_that_stops(dir: &Path, args: &[&str]) -> Output {
    let mut child = SIGNET
        .command()
        .args(args)
        .current_dir(dir)
        .env_remove("SIGNET_DATA_DIR")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    for _ in 0..600 {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    child.wait_with_output().expect("output")
}

#[test]
fn a_backup_taken_before_an_organisation_is_deleted_cannot_yield_its_documents() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = SIGNET.serve(&[], dir.path(), &[]);
    let gone = create_tenant(dir.path(), "Gone Bank", "clerk@gone.test");
    let kept = create_tenant(dir.path(), "Kept Bank", "clerk@kept.test");
    let gone_id = gone["tenant_id"].as_i64().expect("id");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let (gone_workflow, _) = runtime.block_on(signed(&server.base, &gone, "Gone deed"));
    let (kept_workflow, kept_pdf) = runtime.block_on(signed(&server.base, &kept, "Kept deed"));
    let vault = dir.path().join("signet-data/key-vault");
    assert!(vault.join(format!("tenant-{gone_id}.key")).exists(), "no vault file for the organisation");

    let backup = SIGNET.run(&["backup", "--to", "backup"], dir.path());
    assert!(backup.status.success(), "{}", text(&backup));
    assert!(!dir.path().join("backup/key-vault").exists(), "the backup copied the key vault");

    // Deleted online, while serve runs; the wrong name is refused.
    let id = gone_id.to_string();
    let delete = |name: &str, data_dir: &str| {
        SIGNET
            .run(&["tenant", "delete", "--tenant-id", &id, "--confirm-name", name, "--data-dir", data_dir], dir.path())
    };
    let wrong = delete("Kept Bank", "signet-data");
    assert!(!wrong.status.success() && text(&wrong).contains("Gone Bank"), "{}", text(&wrong));
    let deleted = delete("Gone Bank", "signet-data");
    assert!(deleted.status.success(), "{}", text(&deleted));
    let report: Value = serde_json::from_slice(&deleted.stdout).expect("json");
    eprintln!("{report}");
    assert_eq!(report["key_destroyed"], true, "{report}");
    assert!(report["blobs_deleted"].as_u64().expect("blobs") >= 2, "{report}");
    assert!(report["rows_deleted"]["workflows"].as_u64() == Some(1), "{report}");
    assert!(!vault.join(format!("tenant-{gone_id}.key")).exists(), "the vault file is still there");
    let again = delete("Gone Bank", "signet-data");
    assert!(again.status.success(), "{}", text(&again));
    let again: Value = serde_json::from_slice(&again.stdout).expect("json");
    assert_eq!(again["marked_now"], false, "{again}");
    assert_eq!(again["key_destroyed"], false, "{again}");
    assert_eq!(again["blobs_deleted"], 0, "{again}");
    assert_eq!(again["rows_deleted"], serde_json::json!({}), "{again}");
    runtime.block_on(async {
        let http = reqwest::Client::new();
        let token = token(&http, &server.base, &kept).await;
        assert_eq!(download(&http, &server.base, &token, kept_workflow).await.expect("kept"), kept_pdf);
        let body = serde_json::json!({"grant_type": "client_credentials", "client_id": gone["client_id"],
            "client_secret": gone["client_secret"]});
        let refused = http.post(format!("{}/api/v1/auth/token", server.base)).json(&body).send().await.expect("token");
        assert!(refused.status().is_client_error(), "the deleted organisation's client got a token");
    });
    drop(server);
    let check = SIGNET.run(&["check"], dir.path());
    assert!(check.status.success() && text(&check).contains(" 0 finding(s)"), "{}", text(&check));

    // The backup from before, restored with the master key and the current vault.
    let restored = SIGNET.run(&["restore", "--from", "backup", "--data-dir", "restored"], dir.path());
    assert!(restored.status.success(), "{}", text(&restored));
    std::fs::copy(dir.path().join("signet-data/master.key"), dir.path().join("restored/master.key")).expect("key");
    copy_folder(&vault, &dir.path().join("restored/key-vault"));
    let check = SIGNET.run(&["check", "--data-dir", "restored"], dir.path());
    let out = text(&check);
    eprintln!("{out}");
    assert!(!check.status.success(), "{out}");
    let vault_file = format!("tenant-{gone_id}.key of organisation {gone_id} is missing");
    assert!(out.lines().any(|l| l.starts_with("FAIL data key") && l.contains(&vault_file)), "{out}");
    let gone_blobs = format!("tenant/{gone_id}/");
    let unreadable: Vec<_> =
        out.lines().filter(|l| l.starts_with("FAIL unreadable blob") && l.contains(&gone_blobs)).collect();
    assert!(unreadable.len() >= 2, "{out}");
    assert!(
        out.lines()
            .filter(|l| l.starts_with("FAIL"))
            .all(|l| l.contains(&format!("tenant {gone_id}")) || l.contains(&gone_blobs) || l.contains(&vault_file)),
        "{out}"
    );
    // Nor does the other organisation's key, put in its place, open anything of it.
    let kept_id = kept["tenant_id"].as_i64().expect("id");
    let restored_vault = dir.path().join("restored/key-vault");
    std::fs::copy(
        restored_vault.join(format!("tenant-{kept_id}.key")),
        restored_vault.join(format!("tenant-{gone_id}.key")),
    )
    .expect("copy");
    let check = SIGNET.run(&["check", "--data-dir", "restored"], dir.path());
    let out = text(&check);
    assert!(!check.status.success(), "{out}");
    assert!(
        out.lines().filter(|l| l.starts_with("FAIL unreadable blob") && l.contains(&gone_blobs)).count() >= 2,
        "{out}"
    );
    std::fs::remove_file(restored_vault.join(format!("tenant-{gone_id}.key"))).expect("remove");

    // serve refuses to start, naming the missing file and the way out; the deletion run again
    // on the restored copy finishes it, and then the other organisation downloads byte for byte.
    let start = serve_that_stops(dir.path(), &["serve", "--data-dir", "restored", "--listen", "127.0.0.1:0"]);
    assert!(!start.status.success() && text(&start).contains("signet tenant delete"), "{}", text(&start));
    let redo = delete("Gone Bank", "restored");
    assert!(redo.status.success(), "{}", text(&redo));
    let check = SIGNET.run(&["check", "--data-dir", "restored"], dir.path());
    assert!(check.status.success() && text(&check).contains(" 0 finding(s)"), "{}", text(&check));
    let server = SIGNET.serve(&["--data-dir", "restored"], dir.path(), &[]);
    runtime.block_on(async {
        let http = reqwest::Client::new();
        let token = token(&http, &server.base, &kept).await;
        assert_eq!(download(&http, &server.base, &token, kept_workflow).await.expect("kept"), kept_pdf);
        let _ = gone_workflow;
    });
}

/// The id of the master key that sealed each vault file (the third word of its line).
fn vault_masters(vault: &Path) -> Vec<String> {
    let mut masters = Vec::new();
    for entry in std::fs::read_dir(vault).expect("vault").flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with("tenant-") && name.ends_with(".key") {
            // A file being replaced is renamed into place whole; one vanishing is not expected here.
            let line = std::fs::read_to_string(entry.path()).unwrap_or_default();
            masters.push(line.split_whitespace().nth(3).unwrap_or_default().to_string());
        }
    }
    masters
}

/// A workflow started (not signed) for a new organisation; answers its token and workflow id.
async fn started_workflow(http: &reqwest::Client, base: &str, tenant: &Value, n: usize) -> (String, i64) {
    use base64::Engine;
    let token = token(http, base, tenant).await;
    let pdf = signet_testkit::pdf::outlined_pdf(&format!("Deed {n}"), 1);
    let body = serde_json::json!({"documentName": "Deed.pdf",
        "fileData": base64::engine::general_purpose::STANDARD.encode(pdf)});
    let post = |path: &str, body: Value| http.post(format!("{base}{path}")).bearer_auth(&token).json(&body).send();
    let document: Value = post("/api/v1/documents", body).await.expect("upload").json().await.expect("json");
    let signer = serde_json::json!([{"subscriberId": 0, "emailId": "s@x.test", "name": "Signer", "signingOrder": 1}]);
    let body = serde_json::json!({"templateId": 0, "workflowName": format!("Deed {n}"),
        "documentIds": [document["documentId"]], "signatories": signer});
    let started: Value = post("/api/v1/workflows", body).await.expect("initiate").json().await.expect("json");
    (token.clone(), started["workflowId"].as_i64().expect("workflowId"))
}

#[test]
fn a_master_key_rotation_killed_midway_resumes_and_every_document_still_downloads() {
    const ORGANISATIONS: usize = 40;
    let dir = tempfile::tempdir().expect("tempdir");
    let server = SIGNET.serve(&[], dir.path(), &[]);
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let http = reqwest::Client::new();
    let mut workflows = Vec::new();
    for n in 0..ORGANISATIONS {
        let tenant = create_tenant(dir.path(), &format!("Lender {n}"), &format!("clerk@lender{n}.test"));
        let (token, workflow) = runtime.block_on(started_workflow(&http, &server.base, &tenant, n));
        let bytes = runtime.block_on(download(&http, &server.base, &token, workflow)).expect("download");
        workflows.push((tenant, workflow, bytes));
    }
    let vault = dir.path().join("signet-data/key-vault");
    let before = vault_masters(&vault);
    assert_eq!(before.len(), ORGANISATIONS, "{before:?}");
    let old = before[0].clone();

    // Killed as soon as the first vault file is sealed under the new key, while serve runs.
    let mut rotation = SIGNET
        .command()
        .args(["keys", "rotate-master", "--generate"])
        .current_dir(dir.path())
        .env_remove("SIGNET_DATA_DIR")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("rotate");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while vault_masters(&vault).iter().all(|m| *m == old) && std::time::Instant::now() < deadline {
        if rotation.try_wait().expect("wait").is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    let _ = rotation.kill();
    let _ = rotation.wait();
    let halfway = vault_masters(&vault);
    let moved = halfway.iter().filter(|m| **m != old).count();
    eprintln!("killed with {moved} of {} vault files sealed under the new master key", halfway.len());
    assert_eq!(halfway.len(), ORGANISATIONS, "a vault file was lost");
    assert!((1..ORGANISATIONS).contains(&moved), "not killed half-way: {moved} of {ORGANISATIONS}");

    // Every document still opens in between (both keys in the file), and after the re-run.
    let status = SIGNET.run(&["keys", "status"], dir.path());
    assert!(status.status.success(), "{}", text(&status));
    let resumed = SIGNET.run(&["keys", "rotate-master", "--retire"], dir.path());
    assert!(resumed.status.success(), "{}", text(&resumed));
    let after = vault_masters(&vault);
    assert!(after.iter().all(|m| *m == after[0]) && after[0] != old, "{after:?}");
    drop(server);
    let server = SIGNET.serve(&[], dir.path(), &[]);
    for (tenant, workflow, bytes) in &workflows {
        let token = runtime.block_on(token(&http, &server.base, tenant));
        assert_eq!(&runtime.block_on(download(&http, &server.base, &token, *workflow)).expect("download"), bytes);
    }
    drop(server);
    let check = SIGNET.run(&["check"], dir.path());
    assert!(check.status.success() && text(&check).contains(" 0 finding(s)"), "{}", text(&check));
}
