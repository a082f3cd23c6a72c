//! Shared by the store's test files that came after `store.rs`: a fresh database per test on
//! either backend, and `on_both_backends!`. (The names follow the shared test kit's, so these
//! files can move to it by changing their imports.)

#![allow(dead_code)] // each test file uses part of it

use signet_domain::audit::Actor;
use signet_domain::now_millis;
use signet_store::{Backend, NewTenant, PoolSettings, Store, testing};

/// A fresh, empty database: a SQLite file in a temporary folder, or a new PostgreSQL database.
pub struct TestDb {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    pub async fn new(backend: Backend) -> TestDb {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("tempdir");
                let url = format!("sqlite://{}", dir.path().join("t.db").display());
                TestDb { url, _dir: Some(dir) }
            }
            Backend::Postgres => {
                let url = testing::fresh_postgres_database().await.expect("postgres");
                TestDb { url, _dir: None }
            }
        }
    }

    /// Connects and migrates.
    pub async fn open(&self) -> Store {
        let store = Store::connect(&self.url, &PoolSettings::default()).await.expect("connect");
        store.migrate().await.expect("migrate");
        store
    }
}

pub async fn tenant(store: &Store, name: &str) -> signet_domain::TenantId {
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

/// One `sqlite` and one `postgres` test per named `async fn(Backend)`.
#[allow(unused_macros)] // not every test file runs on both backends
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name(signet_store::Backend::Sqlite).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                super::$name(signet_store::Backend::Postgres).await
            }
        }
    )*};
}
