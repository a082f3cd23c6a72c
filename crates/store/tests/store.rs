//! The store's behaviour, run identically on SQLite and PostgreSQL.

use serde_json::json;
use signet_domain::audit::{Actor, GENESIS_HASH, verify_chain};
use signet_domain::department::DepartmentName;
use signet_domain::job::JobKind;
use signet_domain::paging::Page;
use signet_domain::{ErrorCode, JobId, now_millis};
use signet_store::{AuthAttempt, AuthThrottle, Backend, NewJob, NewTenant, PoolSettings, Store};
use signet_testkit::db::TestDb;
use signet_testkit::on_both_backends;

async fn tenant(store: &Store, name: &str) -> signet_domain::TenantId {
    let unique = format!("{name}-{}", now_millis());
    store
        .create_tenant(
            &NewTenant {
                name: name.into(),
                admin_email: format!("admin@{unique}.test"),
                admin_password_hash: "x".into(),
                client_id: format!("client-{unique}"),
                client_secret_hash: "x".into(),
                admin_stamp: "s".into(),
                client_stamp: "s".into(),
            },
            &Actor::system(),
        )
        .await
        .expect("tenant")
        .tenant_id
}

on_both_backends!(
    jobs_are_claimed_exactly_once_by_concurrent_workers,
    expired_leases_are_reclaimed_and_failures_retry,
    dedupe_keys_enqueue_once,
    tenants_jobs_take_turns,
    concurrent_migrations_are_safe,
    concurrent_audited_writes_keep_the_chain_intact,
    audit_events_of_two_instances_are_linked_once_in_one_chain,
    departments_are_tenant_scoped,
    refresh_tokens_rotate_once_and_reuse_revokes_the_family,
    gateway_references_are_unique_per_tenant_under_concurrency,
    gateway_tokens_settings_and_transaction_lifecycle,
    login_attempts_are_admitted_atomically_with_growing_delays,
    certificate_numbers_held_by_several_tenants_are_settled_on_upgrade,
);

async fn jobs_are_claimed_exactly_once_by_concurrent_workers(backend: Backend) {
    let db = TestDb::new(backend).await;
    let a = db.open().await;
    let b = Store::connect(&db.url, &PoolSettings::default()).await.expect("second pool");
    for i in 0..60 {
        let job = NewJob {
            tenant: None,
            kind: JobKind::PurgeExpiredTokens,
            payload: json!({"i": i}),
            dedupe_key: None,
            run_at: 0,
            max_attempts: 3,
        };
        a.enqueue_job(&job).await.expect("enqueue");
    }
    let claim_all = |store: Store, worker: &'static str| async move {
        let mut mine = Vec::new();
        loop {
            let batch = store.claim_jobs(worker, 60_000, 3).await.expect("claim");
            if batch.is_empty() {
                break;
            }
            for job in batch {
                assert!(store.complete_job(job.id, worker).await.expect("complete"));
                mine.push(job.id);
            }
        }
        mine
    };
    let (from_a, from_b) = tokio::join!(claim_all(a.clone(), "worker-a"), claim_all(b.clone(), "worker-b"));
    let mut all: Vec<JobId> = from_a.iter().chain(from_b.iter()).copied().collect();
    all.sort_unstable();
    let before = all.len();
    all.dedup();
    assert_eq!(before, all.len(), "a job was claimed twice");
    assert_eq!(all.len(), 60);
    for row in a.jobs_of_kind(JobKind::PurgeExpiredTokens).await.expect("jobs") {
        assert_eq!((row.state.as_str(), row.attempts), ("done", 1));
    }
}

async fn expired_leases_are_reclaimed_and_failures_retry(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let job = NewJob {
        tenant: None,
        kind: JobKind::PurgeExpiredTokens,
        payload: json!({}),
        dedupe_key: None,
        run_at: 0,
        max_attempts: 2,
    };
    let id = store.enqueue_job(&job).await.expect("enqueue").expect("id");
    // A worker that claims with a lease that has already ended is treated as crashed.
    let first = store.claim_jobs("crashed", -1, 1).await.expect("claim");
    assert_eq!(first.len(), 1);
    let second = store.claim_jobs("rescuer", 60_000, 1).await.expect("reclaim");
    assert_eq!(second.iter().map(|j| j.id).collect::<Vec<_>>(), vec![id]);
    assert!(!store.complete_job(id, "crashed").await.expect("stale complete"), "a stale worker must not finish it");
    store.fail_job(id, "rescuer", "boom", 0).await.expect("fail");
    let row = store.job(id).await.expect("job").expect("row");
    assert_eq!((row.state.as_str(), row.attempts), ("failed", 2), "attempts exhausted");
    assert_eq!(row.last_error.as_deref(), Some("boom"));
}

async fn dedupe_keys_enqueue_once(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let job = |key: &str| NewJob {
        tenant: None,
        kind: JobKind::PurgeExpiredTokens,
        payload: json!({}),
        dedupe_key: Some(key.to_string()),
        run_at: now_millis(),
        max_attempts: 1,
    };
    assert!(store.enqueue_job(&job("slot-1")).await.expect("first").is_some());
    assert!(store.enqueue_job(&job("slot-1")).await.expect("second").is_none());
    assert!(store.enqueue_job(&job("slot-2")).await.expect("third").is_some());
}

/// A tenant whose 20 jobs wait in the queue does not hold back another's two, queued after:
/// each claim takes every tenant's oldest due job before anyone's second.
async fn tenants_jobs_take_turns(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let (flooder, quiet) = (signet_domain::TenantId::from(7), signet_domain::TenantId::from(8));
    let enqueue = |tenant: Option<signet_domain::TenantId>, n: usize| {
        let store = store.clone();
        async move {
            let mut ids = Vec::new();
            for i in 0..n {
                let job = NewJob {
                    tenant,
                    kind: JobKind::PurgeExpiredTokens,
                    payload: json!({"i": i}),
                    dedupe_key: None,
                    run_at: 0,
                    max_attempts: 1,
                };
                ids.push(store.enqueue_job(&job).await.expect("enqueue").expect("id"));
            }
            ids
        }
    };
    let flood = enqueue(Some(flooder), 20).await;
    let mine = enqueue(Some(quiet), 2).await;
    let housekeeping = enqueue(None, 1).await;
    let claim = |n| {
        let store = store.clone();
        async move {
            let mut ids: Vec<JobId> =
                store.claim_jobs("worker", 60_000, n).await.expect("claim").iter().map(|j| j.id).collect();
            ids.sort_unstable();
            ids
        }
    };
    assert_eq!(claim(3).await, vec![flood[0], mine[0], housekeeping[0]], "everyone's first turn");
    assert_eq!(claim(3).await, vec![flood[1], flood[2], mine[1]], "then second turns, then the flood alone");
    assert_eq!(claim(100).await, flood[3..].to_vec());
}

async fn concurrent_migrations_are_safe(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut tasks = Vec::new();
    for _ in 0..3 {
        let url = db.url.clone();
        tasks.push(tokio::spawn(async move {
            let store = Store::connect(&url, &PoolSettings::default()).await.expect("connect");
            store.migrate().await.expect("every concurrent migrate succeeds");
            store
        }));
    }
    for task in tasks {
        task.await.expect("task").ping().await.expect("ping");
    }
}

async fn concurrent_audited_writes_keep_the_chain_intact(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let tenant_id = tenant(&store, "chain").await;
    let mut tasks = Vec::new();
    for i in 0..20 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let name = DepartmentName::parse("n", Some(&format!("Dept {i}"))).expect("name");
            store.create_department(tenant_id, &name, &Actor::system()).await.expect("create");
        }));
    }
    for task in tasks {
        task.await.expect("task");
    }
    let entries = store.audit_entries(tenant_id, 0, 1000).await.expect("entries");
    assert_eq!(entries.len(), 21, "tenant.created + 20 departments");
    assert_eq!(entries[0].prev_hash, GENESIS_HASH);
    assert_eq!(verify_chain(tenant_id.get(), &entries), Ok(()));

    store.execute_for_tests("UPDATE audit_log SET actor = 'mallory' WHERE seq = 5").await.expect("tamper");
    let tampered = store.audit_entries(tenant_id, 0, 1000).await.expect("entries");
    assert_eq!(verify_chain(tenant_id.get(), &tampered).map_err(|b| b.seq), Err(5));
}

/// On PostgreSQL writers leave their audit events unlinked and they are linked afterwards
/// (`audit_anchor.rs`): by one instance in the background while both instances write and the
/// other reads the chain (readers link too). Every event ends up in the chain exactly once,
/// the chain verifies, and nothing stays pending. On SQLite nothing is ever pending.
async fn audit_events_of_two_instances_are_linked_once_in_one_chain(backend: Backend) {
    let db = TestDb::new(backend).await;
    let (a, b) = (db.open().await, Store::connect(&db.url, &PoolSettings::default()).await.expect("second pool"));
    let tenant_id = tenant(&a, "linked").await;
    a.link_audit_in_background();
    let mut writers = Vec::new();
    for i in 0..40 {
        let store = if i % 2 == 0 { a.clone() } else { b.clone() };
        writers.push(tokio::spawn(async move {
            let name = DepartmentName::parse("n", Some(&format!("Dept {i}"))).expect("name");
            store.create_department(tenant_id, &name, &Actor::system()).await.expect("create").id
        }));
    }
    let reader = {
        let b = b.clone();
        tokio::spawn(async move {
            for _ in 0..10 {
                let entries = b.audit_entries(tenant_id, 0, 1000).await.expect("entries");
                assert_eq!(verify_chain(tenant_id.get(), &entries), Ok(()), "a reader sees a whole chain");
            }
        })
    };
    let mut departments = Vec::new();
    for writer in writers {
        departments.push(writer.await.expect("writer"));
    }
    reader.await.expect("reader");
    let last = DepartmentName::parse("n", Some("Written after the last read")).expect("name");
    departments.push(b.create_department(tenant_id, &last, &Actor::system()).await.expect("create").id);

    // Nobody reads now: the background linker alone empties what is pending.
    let mut waited = 0;
    while a.unlinked_audit_events(tenant_id).await.expect("pending") > 0 {
        assert!(waited < 300, "the background linker left events pending for 30 s");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        waited += 1;
    }
    let entries = b.audit_entries(tenant_id, 0, 1000).await.expect("entries");
    assert_eq!(verify_chain(tenant_id.get(), &entries), Ok(()));
    let mut targets: Vec<String> =
        entries.iter().filter(|e| e.action == "department.created").map(|e| e.target.clone()).collect();
    targets.sort();
    let mut expected: Vec<String> = departments.iter().map(|id| format!("department:{id}")).collect();
    expected.sort();
    assert_eq!(targets, expected, "each department's event is in the chain once");
    assert_eq!(entries.len(), 42, "tenant.created + 41 departments");
}

async fn departments_are_tenant_scoped(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let (a, b) = (tenant(&store, "a").await, tenant(&store, "b").await);
    let name = |s: &str| DepartmentName::parse("n", Some(s)).expect("name");
    let legal = store.create_department(a, &name("Legal"), &Actor::system()).await.expect("create");
    // The same name is fine in another tenant, not twice in one (ignoring case).
    store.create_department(b, &name("Legal"), &Actor::system()).await.expect("other tenant");
    let duplicate = store.create_department(a, &name("LEGAL"), &Actor::system()).await;
    assert_eq!(duplicate.map_err(|e| e.code()).err(), Some(ErrorCode::DepartmentNameTaken));

    assert_eq!(store.department(b, legal.id).await.map_err(|e| e.code()).err(), Some(ErrorCode::NotFound));
    let renamed = store.rename_department(b, legal.id, &name("Mine"), &Actor::system()).await;
    assert_eq!(renamed.map_err(|e| e.code()).err(), Some(ErrorCode::NotFound));
    let deleted = store.delete_departments(b, &[legal.id], &Actor::system()).await;
    assert_eq!(deleted.map_err(|e| e.code()).err(), Some(ErrorCode::NotFound));
    assert_eq!(store.department(a, legal.id).await.expect("still there").name, "Legal");

    let hr = store.create_department(a, &name("HR 100%"), &Actor::system()).await.expect("hr");
    let (found, total) = store.departments(a, Page { number: 1, size: 10 }, Some("100%")).await.expect("search");
    assert_eq!((found.iter().map(|d| d.id).collect::<Vec<_>>(), total), (vec![hr.id], 1));
    let (_, all) = store.departments(a, Page { number: 1, size: 10 }, Some("%")).await.expect("literal %");
    assert_eq!(all, 1, "a % in the search text is literal");

    // All or nothing: one foreign id leaves both departments in place.
    let mixed = store.delete_departments(a, &[legal.id, hr.id, 999_999.into()], &Actor::system()).await;
    assert!(mixed.is_err());
    let (left, _) = store.departments(a, Page { number: 1, size: 10 }, None).await.expect("list");
    assert_eq!(left.len(), 2);
}

async fn refresh_tokens_rotate_once_and_reuse_revokes_the_family(backend: Backend) {
    use signet_store::{NewRefreshToken, RefreshUse};
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "r").await;
    assert!(store.principal_by_email("nobody@r.test").await.expect("query").is_none());
    let expires_at = now_millis() + 60_000;
    let new = |hash: &'static str| NewRefreshToken {
        token_hash: hash,
        family_id: "fam",
        principal_id: signet_domain::PrincipalId::from(1),
        tenant_id: t,
        expires_at,
    };
    store.insert_refresh_token(&new("h1")).await.expect("insert");
    assert!(matches!(store.use_refresh_token("h1").await.expect("use"), RefreshUse::Fresh { .. }));
    store.insert_refresh_token(&new("h2")).await.expect("successor");
    assert_eq!(store.use_refresh_token("h1").await.expect("reuse"), RefreshUse::Reused);
    assert_eq!(store.use_refresh_token("h2").await.expect("family revoked"), RefreshUse::Reused);
    assert_eq!(store.use_refresh_token("nope").await.expect("unknown"), RefreshUse::Unknown);
}

fn new_transaction<'a>(
    number: &'a str,
    tenant_id: signet_domain::TenantId,
    token: signet_domain::AuthtokenId,
    reference: &'a str,
) -> signet_store::NewTransaction<'a> {
    signet_store::NewTransaction {
        transaction_number: number,
        tenant_id,
        authtoken_id: token,
        reference_number: reference,
        file_type: "PDF",
        profile: 1,
        link_hash: "link",
        session_key: &[7u8; 32],
        request_json: "{}",
        payload_blob: None,
        store_result: true,
        success_url: "https://client.test/ok",
        failure_url: "https://client.test/fail",
        cancel_url: "https://client.test/cancel",
        expires_at: now_millis() + 60_000,
    }
}

async fn gateway_references_are_unique_per_tenant_under_concurrency(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let (a, b) = (tenant(&store, "ga").await, tenant(&store, "gb").await);
    let token_a = store.create_authtoken(a, "t", "hash-a", "…a", &Actor::system()).await.expect("token").id;
    let token_b = store.create_authtoken(b, "t", "hash-b", "…b", &Actor::system()).await.expect("token").id;
    let mut tasks = Vec::new();
    for i in 0..16 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let number = format!("SGN-race-{i}");
            store.insert_transaction(&new_transaction(&number, a, token_a, "REF-1")).await
        }));
    }
    let mut wins = 0;
    for task in tasks {
        match task.await.expect("task") {
            Ok(_) => wins += 1,
            Err(e) => assert_eq!(e.code(), ErrorCode::Conflict),
        }
    }
    assert_eq!(wins, 1, "exactly one request with a reference number wins");
    // The same reference in another tenant is a different reference.
    store.insert_transaction(&new_transaction("SGN-other", b, token_b, "REF-1")).await.expect("other tenant");
}

async fn gateway_tokens_settings_and_transaction_lifecycle(backend: Backend) {
    use signet_store::{GatewaySettings, TransactionOutcome};
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let (a, b) = (tenant(&store, "la").await, tenant(&store, "lb").await);
    let token = store.create_authtoken(a, "ERP", "h1", "…xyz", &Actor::system()).await.expect("token");
    assert_eq!(store.authtoken_by_hash("h1").await.expect("lookup"), Some((token.id, a)));
    let foreign = store.revoke_authtoken(b, token.id, &Actor::system()).await;
    assert_eq!(foreign.map_err(|e| e.code()).err(), Some(ErrorCode::NotFound));
    store.revoke_authtoken(a, token.id, &Actor::system()).await.expect("revoke");
    assert_eq!(store.authtoken_by_hash("h1").await.expect("lookup"), None);
    assert!(store.authtokens(a).await.expect("list")[0].revoked_at.is_some());

    assert_eq!(store.gateway_settings(a).await.expect("settings"), GatewaySettings::default());
    let narrow = GatewaySettings { file_types: vec!["PDF".into()], signature_types: vec![4], legacy_profile: false };
    store.put_gateway_settings(a, &narrow, &Actor::system()).await.expect("put");
    assert_eq!(store.gateway_settings(a).await.expect("settings"), narrow);

    store.insert_transaction(&new_transaction("SGN-1", a, token.id, "R1")).await.expect("insert");
    let row = store.transaction("SGN-1").await.expect("get").expect("row");
    assert_eq!((row.state.as_str(), row.session_key.len()), ("initiated", 32));
    let done = TransactionOutcome {
        state: signet_domain::gateway::TransactionState::Completed,
        error_message: None,
        result_blob: Some("k/1"),
        result_expires_at: Some(1),
        signature_level: None,
        detail: serde_json::Value::Null,
    };
    assert!(store.finish_transaction(a, "SGN-1", &done, &Actor::system()).await.expect("finish"));
    let again = TransactionOutcome {
        state: signet_domain::gateway::TransactionState::Cancelled,
        error_message: Some("106: Cancelled by user"),
        result_blob: None,
        result_expires_at: None,
        signature_level: None,
        detail: serde_json::Value::Null,
    };
    assert!(!store.finish_transaction(a, "SGN-1", &again, &Actor::system()).await.expect("second"), "ends once");
    assert_eq!(store.take_expired_results(now_millis(), 10).await.expect("purge"), vec!["k/1".to_string()]);
    assert!(store.take_expired_results(now_millis(), 10).await.expect("purge").is_empty());

    let mut late = new_transaction("SGN-2", a, token.id, "R2");
    late.expires_at = now_millis() - 1;
    store.insert_transaction(&late).await.expect("insert");
    assert_eq!(store.overdue_transactions(now_millis(), 10).await.expect("overdue"), vec![(a, "SGN-2".to_string())]);
    let entries = store.audit_entries(a, 0, 100).await.expect("audit");
    assert_eq!(verify_chain(a.get(), &entries), Ok(()));
    assert!(entries.iter().any(|e| e.action == "gateway.transaction_completed"));
}

async fn login_attempts_are_admitted_atomically_with_growing_delays(backend: Backend) {
    let db = TestDb::new(backend).await;
    let a = db.open().await;
    let b = Store::connect(&db.url, &PoolSettings::default()).await.expect("second pool");
    let policy = AuthThrottle { window_ms: 600_000, limit: 5, base_delay_ms: 10_000, max_delay_ms: 35_000 };

    // 40 parallel guesses from two instances: the check and the count are one statement, so
    // exactly `limit` of them get through.
    let mut tasks = Vec::new();
    for i in 0..40 {
        let store = if i % 2 == 0 { a.clone() } else { b.clone() };
        tasks.push(tokio::spawn(async move { store.admit_auth_attempt("user:v@x.test|203.0.113.5", &policy).await }));
    }
    let mut admitted = 0;
    for task in tasks {
        if task.await.expect("join").expect("admit") == AuthAttempt::Admitted {
            admitted += 1;
        }
    }
    assert_eq!(admitted, 5);

    // The same account from another address is not affected.
    assert_eq!(
        a.admit_auth_attempt("user:v@x.test|198.51.100.7", &policy).await.expect("admit"),
        AuthAttempt::Admitted
    );

    // Past the limit, each failure blocks the pair for twice as long as the one before, up to
    // the cap. (The blocks are lifted by hand instead of waiting them out.)
    let key = "client:sgc_x|203.0.113.9";
    for _ in 0..5 {
        assert_eq!(a.admit_auth_attempt(key, &policy).await.expect("admit"), AuthAttempt::Admitted);
    }
    let mut delays = Vec::new();
    for round in 0..4 {
        if round > 0 {
            a.execute_for_tests(
                "UPDATE auth_failures SET blocked_until = 0 WHERE account_key = 'client:sgc_x|203.0.113.9'",
            )
            .await
            .expect("lift");
            assert_eq!(a.admit_auth_attempt(key, &policy).await.expect("admit"), AuthAttempt::Admitted);
        }
        match a.admit_auth_attempt(key, &policy).await.expect("admit") {
            AuthAttempt::Blocked { retry_after_ms } => delays.push(retry_after_ms),
            AuthAttempt::Admitted => panic!("round {round}: the pair must be blocked"),
        }
    }
    let expected = [10_000, 20_000, 35_000, 35_000];
    for (got, want) in delays.iter().zip(expected) {
        assert!(*got <= want && *got > want - 2_000, "delays {delays:?}, expected about {expected:?}");
    }

    // A success clears the pair.
    a.clear_auth_failures(key).await.expect("clear");
    assert_eq!(a.admit_auth_attempt(key, &policy).await.expect("admit"), AuthAttempt::Admitted);
}

/// The database itself, beside the store, for what no store call does (migrating only part of
/// the way, writing rows as an older version left them).
enum RawDb {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

impl RawDb {
    async fn connect(url: &str) -> RawDb {
        if url.starts_with("sqlite:") {
            RawDb::Sqlite(sqlx::SqlitePool::connect(url).await.expect("sqlite"))
        } else {
            RawDb::Postgres(sqlx::PgPool::connect(url).await.expect("postgres"))
        }
    }

    async fn migrate(&self, migrator: &sqlx::migrate::Migrator) {
        match self {
            RawDb::Sqlite(pool) => migrator.run(pool).await.expect("migrate"),
            RawDb::Postgres(pool) => migrator.run(pool).await.expect("migrate"),
        }
    }

    async fn execute(&self, sql: String) {
        match self {
            RawDb::Sqlite(pool) => sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(pool).await.map(|_| ()),
            RawDb::Postgres(pool) => sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(pool).await.map(|_| ()),
        }
        .expect("execute");
    }

    /// A tenant as an older version wrote it: its row only (creating one through the store
    /// would write columns later migrations add).
    async fn tenant(&self, name: &str) -> signet_domain::TenantId {
        self.execute(format!(
            "INSERT INTO tenants (name, audit_head, created_at) VALUES ('{name}', '{}', 1)",
            signet_domain::audit::GENESIS_HASH
        ))
        .await;
        let id = match self {
            RawDb::Sqlite(pool) => sqlx::query_scalar::<_, i64>("SELECT MAX(id) FROM tenants").fetch_one(pool).await,
            RawDb::Postgres(pool) => sqlx::query_scalar::<_, i64>("SELECT MAX(id) FROM tenants").fetch_one(pool).await,
        };
        signet_domain::TenantId::from(id.expect("tenant id"))
    }

    async fn count(&self, sql: &'static str) -> i64 {
        match self {
            RawDb::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
            RawDb::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
        }
        .expect("count")
    }
}

/// Migration 0034 makes certificate numbers unique installation-wide and binds the stamp
/// provider's issues to tenants. On an installation that holds one number in several tenants,
/// the row recorded first keeps it; later copies are marked, and retired where they were in
/// stock or held, while one already on a workflow stays allocated. An issue recorded by two
/// tenants is the first one's.
async fn certificate_numbers_held_by_several_tenants_are_settled_on_upgrade(backend: Backend) {
    use signet_store::{NewStamp, StampFilter};
    let db = TestDb::new(backend).await;
    let tree = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    // The migrations before 0034, as an installation of the previous version has them.
    let before = tempfile::tempdir().expect("tempdir");
    let all = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(tree);
    for entry in std::fs::read_dir(&all).expect("migrations") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if name.as_str() < "0034" {
            std::fs::copy(&path, before.path().join(&name)).expect("copy");
        }
    }
    let store = Store::connect(&db.url, &PoolSettings::default()).await.expect("connect");
    let raw = RawDb::connect(&db.url).await;
    raw.migrate(&sqlx::migrate::Migrator::new(before.path()).await.expect("migrator")).await;
    let (a, b, c, d) = (raw.tenant("A").await, raw.tenant("B").await, raw.tenant("C").await, raw.tenant("D").await);
    for (tenant, number, state, provider_ref) in [
        (a, "IN-MH-1", "available", None),
        (b, "in-mh-1", "available", None),
        (c, "IN-MH-1", "reserved", None),
        (a, "IN-MH-4", "available", None),
        (c, "in-mh-4", "allocated", None),
        (b, "IN-MH-7", "retired", Some("ESTMP-7")),
        (c, "IN-MH-8", "retired", Some("estmp-7")),
    ] {
        let (source, provider_ref) = match provider_ref {
            Some(r) => ("provider", format!("'{r}'")),
            None => ("inventory", "NULL".to_string()),
        };
        raw.execute(format!(
            "INSERT INTO stamps (tenant_id, state_code, denomination, reference_no, state, reservation, \
             reserved_until, loaded_by, loaded_at, source, provider_ref) VALUES ({tenant}, 'MH', 100, '{number}', \
             '{state}', 'held', 9000000000000, 'test', 1, '{source}', {provider_ref})"
        ))
        .await;
    }
    store.migrate().await.expect("migration 0034");

    let states = |tenant| {
        let store = &store;
        async move {
            let (rows, _) = store.stamps(tenant, &StampFilter::default(), 0, 100).await.expect("stamps");
            rows.into_iter().map(|r| (r.reference_no, r.state.as_str().to_string())).collect::<Vec<_>>()
        }
    };
    let pairs = |list: &[(&str, &str)]| list.iter().map(|(n, s)| (n.to_string(), s.to_string())).collect::<Vec<_>>();
    assert_eq!(states(a).await, pairs(&[("IN-MH-1", "available"), ("IN-MH-4", "available")]));
    assert_eq!(states(b).await, pairs(&[("in-mh-1", "retired"), ("IN-MH-7", "retired")]));
    assert_eq!(
        states(c).await,
        pairs(&[("IN-MH-1", "retired"), ("in-mh-4", "allocated"), ("IN-MH-8", "retired")]),
        "a copy already on a workflow stays on it"
    );
    assert_eq!(raw.count("SELECT COUNT(*) FROM stamps WHERE duplicate_number").await, 3);

    // The provider's issue is the tenant's that recorded it first.
    let issue = store.provider_issue("estmp-7").await.expect("read").expect("recorded");
    assert_eq!(issue.tenant_id, b);
    assert!(store.provider_issues_named(c, "ESTMP-7").await.expect("read").is_empty());

    // From now on a number is one tenant's, whichever tenant holds it.
    for number in ["in-mh-1", "IN-MH-4", "IN-MH-8"] {
        let stamp = NewStamp { denomination: 100, reference_no: number.into(), certificate_blob: None };
        let refused = store.load_stamps(d, "MH", &[stamp], &Actor::system()).await.expect_err(number);
        assert_eq!(refused.code(), ErrorCode::Conflict, "{number}");
    }
}
