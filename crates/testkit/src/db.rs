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
