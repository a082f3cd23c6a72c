//! One database per test: a SQLite file in its own temporary directory, or a fresh PostgreSQL
//! database on the server named by `SIGNET_TEST_POSTGRES_URL` (by default
//! `postgres://postgres@127.0.0.1:5432/test`).
//!
//! The PostgreSQL databases are created by the store's own helper (`signet_store::testing`),
//! so that the store stays the only crate that speaks SQL. They are not dropped afterwards, as
//! before: a failed test leaves its database to look at, and CI throws the server away.

use signet_store::{Backend, PoolSettings, Store};

/// The PostgreSQL server the tests use (`SIGNET_TEST_POSTGRES_URL`, by default the local one).
pub fn postgres_admin_url() -> String {
    signet_store::testing::postgres_admin_url()
}

/// Creates an empty PostgreSQL database with a unique name and returns its URL.
pub async fn fresh_postgres_database() -> String {
    signet_store::testing::fresh_postgres_database().await.expect("postgres")
}

/// [`fresh_postgres_database`] for synchronous tests (those that drive child processes).
pub fn fresh_postgres_database_blocking() -> String {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    rt.block_on(fresh_postgres_database())
}

/// A database of its own for one test; a SQLite file is deleted with this value.
pub struct TestDb {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    /// A new empty database on `backend`.
    pub async fn new(backend: Backend) -> TestDb {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("tempdir");
                let url = format!("sqlite://{}", dir.path().join("t.db").display());
                TestDb { url, _dir: Some(dir) }
            }
            Backend::Postgres => TestDb { url: fresh_postgres_database().await, _dir: None },
        }
    }

    /// A store on this database, migrated.
    pub async fn open(&self) -> Store {
        let store = Store::connect(&self.url, &PoolSettings::default()).await.expect("connect");
        store.migrate().await.expect("migrate");
        store
    }
}

/// SQL statements that make `n` completed workflows of `tenant` that ended at `ended_at`, each
/// with one document and one signatory (`seed@x.test`), all `created_by = 'seed'`: the rows as
/// signing leaves them, in bulk, for sweeps and scale tests (no files: the documents' keys
/// name nothing stored).
pub fn ended_workflows_sql(backend: Backend, tenant: i64, n: u32, ended_at: i64) -> Vec<String> {
    let ended = ended_at;
    let numbers = format!("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n})");
    let text = |expr: &str| match backend {
        Backend::Sqlite => format!("'seed-' || {expr}"),
        Backend::Postgres => format!("'seed-' || CAST({expr} AS TEXT)"),
    };
    vec![
        format!(
            "INSERT INTO workflows (tenant_id, name, workflow_type, state, current_order, settings, linked_ids, created_by, \
             event_head, created_at, updated_at, completed_at, ended_at) {numbers} SELECT {tenant}, {}, 1, 'completed', 1, \
             '{{}}', '[]', 'seed', '', {ended}, {ended}, {ended}, {ended} FROM n",
            text("i")
        ),
        format!(
            "INSERT INTO documents (tenant_id, workflow_id, name, state, original_blob, original_sha256, size_bytes, \
             page_count, current_blob, current_sha256, created_by, created_at, updated_at) SELECT tenant_id, id, name, \
             'active', 'tenant/{tenant}/seed/' || {}, '00', 1, 1, 'tenant/{tenant}/seed/' || {}, '00', 'seed', {ended}, \
             {ended} FROM workflows WHERE tenant_id = {tenant} AND created_by = 'seed'",
            text("id"),
            text("id")
        ),
        format!(
            "INSERT INTO signatories (tenant_id, workflow_id, subscriber_id, email, name, signing_order, state, \
             link_expires_at, placement, created_at, updated_at) SELECT tenant_id, id, 0, 'seed@x.test', 'Seed', 1, \
             'signed', {ended}, '{{}}', {ended}, {ended} FROM workflows WHERE tenant_id = {tenant} AND created_by = 'seed'"
        ),
    ]
}
