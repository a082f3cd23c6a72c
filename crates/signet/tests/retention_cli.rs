//! `signet retention sweep` killed with SIGKILL midway (issue 34's proof), on SQLite and
//! PostgreSQL: 3,000 completed workflows past their period; the first sweep is killed once it
//! has erased some and not all; a second sweep erases the rest; every workflow is then erased
//! exactly once (one tombstone names it, in an audit chain that verifies) and `signet check`
//! passes.

use std::collections::BTreeSet;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;
use signet_domain::audit::{Actor, verify_chain};
use signet_domain::retention::RetentionPeriods;
use signet_domain::{TenantId, now_millis};
use signet_store::{Backend, PoolSettings, RetentionPolicies, Store};
use signet_testkit::db::ended_workflows_sql;
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;

const SIGNET: SignetBin = signet_bin!();
const WORKFLOWS: u32 = 3_000;

signet_testkit::on_both_backends!(a_killed_retention_sweep_resumes_and_erases_each_workflow_once);

fn signet(dir: &std::path::Path, database_url: &str, args: &[&str]) -> Command {
    let mut command = SIGNET.command();
    command
        .args(args)
        .args(["--database-url", database_url])
        .current_dir(dir)
        .env_remove("SIGNET_DATA_DIR")
        .env("SIGNET_GATEWAY_KEY_BITS", "2048");
    command
}

fn succeeded(output: &Output) -> Value {
    let said = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{said}");
    serde_json::from_slice(&output.stdout).unwrap_or(Value::Null)
}

async fn erased(store: &Store) -> u64 {
    store
        .execute_for_tests("UPDATE workflows SET erased_at = erased_at WHERE erased_at IS NOT NULL")
        .await
        .expect("count")
}

async fn a_killed_retention_sweep_resumes_and_erases_each_workflow_once(backend: Backend) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("signet-data")).expect("data dir");
    let database_url = match backend {
        Backend::Sqlite => format!("sqlite://{}", dir.path().join("signet-data/signet.db").display()),
        Backend::Postgres => signet_testkit::db::fresh_postgres_database().await,
    };
    let create = ["tenant", "create", "--name", "Old Bank", "--admin-email", "ops@old.test"];
    let tenant = succeeded(&signet(dir.path(), &database_url, &create).output().expect("tenant create"));
    let tenant_id = TenantId::from(tenant["tenant_id"].as_i64().expect("tenant_id"));
    let store = Store::connect(&database_url, &PoolSettings::default()).await.expect("connect");
    for sql in ended_workflows_sql(backend, tenant_id.get(), WORKFLOWS, now_millis() - 400 * 86_400_000) {
        store.execute_for_tests(Box::leak(sql.into_boxed_str())).await.expect("seed");
    }
    let seeded = store.workflows_of_person(tenant_id, Some("seed@x.test"), None, 1_000_000).await.expect("seeded");
    let seeded: BTreeSet<i64> = seeded.iter().map(|w| w.id.get()).collect();
    assert_eq!(seeded.len(), WORKFLOWS as usize);
    let policies = RetentionPolicies {
        organisation: RetentionPeriods { completed_days: Some(365), ..RetentionPeriods::default() },
        templates: Vec::new(),
    };
    store.set_retention_policies(tenant_id, &policies, &Actor::system()).await.expect("policies");

    let mut child = signet(dir.path(), &database_url, &["retention", "sweep"]).spawn().expect("sweep");
    let deadline = Instant::now() + Duration::from_secs(120);
    while erased(&store).await == 0 {
        assert!(child.try_wait().expect("wait").is_none(), "the sweep ended before it was killed");
        assert!(Instant::now() < deadline, "nothing erased within two minutes");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let before = erased(&store).await;
    assert!(before < u64::from(WORKFLOWS), "the kill came after the whole sweep");

    let resumed = succeeded(&signet(dir.path(), &database_url, &["retention", "sweep"]).output().expect("sweep"));
    assert_eq!(resumed["workflows"].as_u64(), Some(u64::from(WORKFLOWS) - before), "{resumed}");
    assert_eq!(erased(&store).await, u64::from(WORKFLOWS));
    let again = succeeded(&signet(dir.path(), &database_url, &["retention", "sweep"]).output().expect("sweep"));
    assert_eq!(again["workflows"], 0, "{again}");

    let entries = store.audit_entries(tenant_id, 0, 1_000_000).await.expect("audit");
    assert_eq!(verify_chain(tenant_id.get(), &entries), Ok(()));
    let mut named = Vec::new();
    for entry in entries.iter().filter(|e| e.action == "workflows.erased") {
        let detail: Value = serde_json::from_str(&entry.detail).expect("detail");
        let statement: Value = serde_json::from_str(detail["tombstone"].as_str().expect("text")).expect("tombstone");
        named.extend(statement["workflows"].as_array().expect("workflows").iter().map(|w| w["workflowId"].as_i64()));
    }
    let unique: BTreeSet<i64> = named.iter().flatten().copied().collect();
    assert_eq!(named.len(), WORKFLOWS as usize, "one tombstone entry per erased workflow, none twice");
    assert_eq!(unique, seeded);
    succeeded(&signet(dir.path(), &database_url, &["check"]).output().expect("check"));
    store.close().await;
}
