//! `signet backup` under load (issue 34, item 3): workflows are signed on `signet serve`
//! (SQLite + local blob folder) while the backup runs; the backup restores into a fresh data
//! folder that `signet check` passes and `signet serve` opens, every workflow there either
//! complete or in the state its last committed signature left. Then one document's bytes
//! changed and another's file deleted: `signet check` exits non-zero naming both. A backup whose
//! file changed is refused by restore, and PostgreSQL is refused with the README's pointer.
//!
//! Twenty workflows, as issue 34 asks; the backup starts once a quarter of them are signed, so
//! it runs while the rest are.

use std::path::Path;
use std::process::Output;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;
use signet_testkit::gateway::access_token;
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;
use signet_testkit::workflow::sign_one;

const SIGNET: SignetBin = signet_bin!();
const WORKFLOWS: usize = 20;

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// An access token of the tenant's API client.
async fn token(http: &reqwest::Client, base: &str, tenant: &Value) -> String {
    let (id, secret) = (tenant["client_id"].as_str().expect("id"), tenant["client_secret"].as_str().expect("secret"));
    access_token(http, base, id, secret).await
}

/// Signs the workflows concurrently and runs `signet backup --to backup` once a quarter are signed.
async fn sign_while_backing_up(dir: &Path, base: &str, tenant: &Value) -> Output {
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let token = token(&http, base, tenant).await;
    let signed = Arc::new(AtomicUsize::new(0));
    let mut signing = tokio::task::JoinSet::new();
    for n in 0..WORKFLOWS {
        let (http, base, token, signed) = (http.clone(), base.to_string(), token.clone(), signed.clone());
        signing.spawn(async move {
            sign_one(&http, &base, &token, &format!("Deed {n}"), &format!("buyer{n}@x.test")).await;
            signed.fetch_add(1, Ordering::SeqCst);
        });
    }
    while signed.load(Ordering::SeqCst) < WORKFLOWS / 4 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let dir = dir.to_path_buf();
    let backup = tokio::task::spawn_blocking(move || SIGNET.run(&["backup", "--to", "backup"], &dir));
    while let Some(done) = signing.join_next().await {
        done.expect("a workflow signed");
    }
    backup.await.expect("backup")
}

/// The restored installation's workflows, through the API of a server started on it.
async fn workflow_states(base: &str, tenant: &Value) -> Vec<String> {
    let http = reqwest::Client::new();
    let token = token(&http, base, tenant).await;
    let page: Value = http
        .get(format!("{base}/api/v1/workflows?pageSize=100"))
        .bearer_auth(&token)
        .send()
        .await
        .expect("list")
        .json()
        .await
        .expect("json");
    page["items"].as_array().expect("items").iter().map(|w| w["state"].as_str().expect("state").to_string()).collect()
}

#[test]
fn a_backup_taken_under_load_restores_to_an_installation_that_checks_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = SIGNET.serve(&[], dir.path(), &[("SIGNET_WORKER_POLL_MS", "100")]);
    let output =
        SIGNET.run(&["tenant", "create", "--name", "Registry", "--admin-email", "clerk@registry.test"], dir.path());
    assert!(output.status.success(), "{}", text(&output));
    let tenant: Value = serde_json::from_slice(&output.stdout).expect("json");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let backup = runtime.block_on(sign_while_backing_up(dir.path(), &server.base, &tenant));
    assert!(backup.status.success(), "{}", text(&backup));
    eprintln!("{}", text(&backup));
    drop(server);

    let restore = |args: &[&str]| {
        SIGNET.run(&[&["restore", "--from", "backup", "--data-dir", "restored"], args].concat(), dir.path())
    };
    let restored = restore(&[]);
    assert!(restored.status.success(), "{}", text(&restored));
    let again = restore(&[]);
    assert!(!again.status.success() && text(&again).contains("is not empty"), "{}", text(&again));
    // Without its master key (kept apart from backups) the restored installation opens nothing.
    let keyless = SIGNET.run(&["check", "--data-dir", "restored"], dir.path());
    assert!(!keyless.status.success() && text(&keyless).contains("master.key is missing"), "{}", text(&keyless));
    std::fs::copy(dir.path().join("signet-data/master.key"), dir.path().join("restored/master.key")).expect("key");
    // Nor its key vault (kept with the master key): without it the organisation's keys do not open.
    assert!(!dir.path().join("backup/key-vault").exists(), "the backup copied the key vault");
    let vaultless = SIGNET.run(&["check", "--data-dir", "restored"], dir.path());
    assert!(!vaultless.status.success() && text(&vaultless).contains("tenant-1.key"), "{}", text(&vaultless));
    std::fs::create_dir(dir.path().join("restored/key-vault")).expect("vault");
    std::fs::copy(
        dir.path().join("signet-data/key-vault/tenant-1.key"),
        dir.path().join("restored/key-vault/tenant-1.key"),
    )
    .expect("vault file");
    let check = SIGNET.run(&["check", "--data-dir", "restored"], dir.path());
    assert!(check.status.success(), "{}", text(&check));
    assert!(String::from_utf8_lossy(&check.stdout).contains(" 0 finding(s)"), "{}", text(&check));
    eprintln!("{}", text(&check));

    let server = SIGNET.serve(&["--data-dir", "restored"], dir.path(), &[]);
    let states = runtime.block_on(workflow_states(&server.base, &tenant));
    drop(server);
    eprintln!("restored workflows: {states:?}");
    assert!(!states.is_empty() && states.len() <= WORKFLOWS, "{states:?}");
    assert!(states.iter().all(|s| ["completed", "in_progress"].contains(&s.as_str())), "{states:?}");

    // One original changed, one deleted: both named, exit non-zero.
    let uploads = dir.path().join("restored/blobs/tenant/1/uploads");
    let mut originals: Vec<_> =
        std::fs::read_dir(&uploads).expect("uploads").map(|e| e.expect("entry").path()).collect();
    originals.sort();
    let mut changed = std::fs::read(&originals[0]).expect("read");
    changed[100] ^= 0x01;
    std::fs::write(&originals[0], changed).expect("write");
    std::fs::remove_file(&originals[1]).expect("remove");
    let check = SIGNET.run(&["check", "--data-dir", "restored"], dir.path());
    assert!(!check.status.success(), "{}", text(&check));
    let stdout = String::from_utf8_lossy(&check.stdout);
    eprintln!("{}", text(&check));
    let name = |path: &Path| path.file_name().expect("name").to_string_lossy().to_string();
    // Encrypted at rest, a changed byte fails authentication: the blob no longer opens.
    let altered = |l: &str| l.starts_with("FAIL unreadable blob") || l.starts_with("FAIL changed blob");
    assert!(stdout.lines().any(|l| altered(l) && l.contains(&name(&originals[0]))), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("FAIL missing blob") && l.contains(&name(&originals[1]))), "{stdout}");

    // A backup whose file changed is refused, and nothing is written.
    let database = dir.path().join("backup/signet.db");
    let mut bytes = std::fs::read(&database).expect("read");
    bytes[200] ^= 0x01;
    std::fs::write(&database, bytes).expect("write");
    let refused = SIGNET.run(&["restore", "--from", "backup", "--data-dir", "again"], dir.path());
    assert!(!refused.status.success() && text(&refused).contains("signet.db has changed"), "{}", text(&refused));
    assert!(!dir.path().join("again/signet.db").exists());

    let inside = SIGNET.run(&["backup", "--to", "signet-data/blobs/backup"], dir.path());
    assert!(!inside.status.success() && text(&inside).contains("inside the blob folder"), "{}", text(&inside));

    let postgres = SIGNET.run(&["backup", "--to", "pg", "--database-url", "postgres://u:p@127.0.0.1:1/x"], dir.path());
    assert!(!postgres.status.success() && text(&postgres).contains("\"Backup and restore\""), "{}", text(&postgres));
}
