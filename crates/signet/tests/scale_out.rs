//! Two `signet serve` processes on one PostgreSQL database behave as one service: tokens,
//! data and the job queue are shared, and each job runs exactly once.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use signet_store::{NewJob, PoolSettings, Store};
use signet_testkit::blocking::blocking_client;
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;

/// The `signet` binary under test.
const SIGNET: SignetBin = signet_bin!();

#[test]
fn two_instances_share_tokens_data_and_jobs() {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let url = rt.block_on(signet_testkit::db::fresh_postgres_database());
    let dirs = [tempfile::tempdir().expect("dir a"), tempfile::tempdir().expect("dir b")];
    // Both start at once against an empty database: migrations and first-start keys race.
    let poll = [("SIGNET_WORKER_POLL_MS", "100")];
    let args = ["--database-url", url.as_str()];
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| SIGNET.serve(&args, dirs[0].path(), &poll));
        let b = s.spawn(|| SIGNET.serve(&args, dirs[1].path(), &poll));
        (a.join().expect("a"), b.join().expect("b"))
    });

    let http = blocking_client();
    let jwks_a = http.get(format!("{}/api/v1/.well-known/jwks.json", a.base)).send().expect("jwks").json();
    let jwks_b = http.get(format!("{}/api/v1/.well-known/jwks.json", b.base)).send().expect("jwks").json();
    assert_eq!(jwks_a, jwks_b, "one signing key for all instances");
    let gateway_a = std::fs::read(dirs[0].path().join("signet-data/keys/gateway.cer")).expect("cert a");
    let gateway_b = std::fs::read(dirs[1].path().join("signet-data/keys/gateway.cer")).expect("cert b");
    assert_eq!(gateway_a, gateway_b, "one gateway key for all instances");

    let output = SIGNET.run(
        &["tenant", "create", "--name", "Acme", "--admin-email", "ops@acme.test", "--database-url", &url],
        dirs[0].path(),
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let tenant: Value = serde_json::from_slice(&output.stdout).expect("json");
    let token = http
        .post(format!("{}/api/v1/auth/token", a.base))
        .json(&json!({"grant_type": "client_credentials", "client_id": tenant["client_id"], "client_secret": tenant["client_secret"]}))
        .send()
        .expect("token")
        .json()["access_token"]
        .as_str()
        .expect("access token")
        .to_string();

    let created = http
        .post(format!("{}/api/v1/departments", a.base))
        .bearer(&token)
        .json(&json!({"departmentName": "Legal"}))
        .send()
        .expect("create on A");
    assert_eq!(created.code(), 201);
    let id = created.json()["departmentID"].as_i64().expect("id");
    let read = http.get(format!("{}/api/v1/departments/{id}", b.base)).bearer(&token).send().expect("read on B");
    assert_eq!(read.code(), 200, "a token from A is accepted by B");
    assert_eq!(read.json()["departmentName"], "Legal");

    let store = rt.block_on(Store::connect(&url, &PoolSettings::default())).expect("store");
    let kind = signet_domain::job::JobKind::PurgeExpiredTokens;
    let ids: Vec<signet_domain::JobId> = (0..40)
        .map(|i| {
            let job =
                NewJob { tenant: None, kind, payload: json!({"n": i}), dedupe_key: None, run_at: 0, max_attempts: 3 };
            rt.block_on(store.enqueue_job(&job)).expect("enqueue").expect("id")
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    let rows = loop {
        let rows = rt.block_on(store.jobs_of_kind(kind)).expect("jobs");
        let ours: Vec<_> = rows.into_iter().filter(|r| ids.contains(&r.id)).collect();
        if ours.iter().all(|r| r.state == "done") || Instant::now() > deadline {
            break ours;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut per_worker: BTreeMap<String, usize> = BTreeMap::new();
    for row in &rows {
        assert_eq!((row.state.as_str(), row.attempts), ("done", 1), "job {} ran exactly once", row.id);
        *per_worker.entry(row.locked_by.clone().unwrap_or_default()).or_default() += 1;
    }
    assert_eq!(rows.len(), 40);
    eprintln!("jobs per instance: {per_worker:?}");
    // Both instances schedule the hourly maintenance job; the slot's dedupe key keeps it to
    // one job per hour (two if the test straddles an hour boundary).
    let periodic = rt.block_on(store.jobs_of_kind(kind)).expect("jobs").len() - 40;
    assert!((1..=2).contains(&periodic), "{periodic} periodic jobs");
}
