//! A real Signet server (`signet_server::App`) on 127.0.0.1:0 for each test, in its own
//! temporary data directory, on SQLite or on a fresh PostgreSQL database, with helpers for
//! tenants, tokens and requests.

use std::net::SocketAddr;

use reqwest::{Client, Response};
use serde_json::Value;
use signet_domain::audit::Actor;
use signet_server::provision::{self, ProvisionedTenant};
use signet_server::{App, AppState, Config};
use signet_store::{Backend, Store};
use tokio::sync::oneshot;

use crate::gateway::{self, Integrator};

/// A running server; it stops, and its data directory goes, when this is dropped.
pub struct TestApp {
    pub addr: SocketAddr,
    /// The server's state, for tests that look behind the HTTP surface.
    pub state: AppState,
    /// The database behind it, for tests that set up or inspect rows.
    pub store: Store,
    /// A client that follows redirects.
    pub client: Client,
    stop: Option<oneshot::Sender<()>>,
    _dir: tempfile::TempDir,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// A server with the test defaults: no background workers, 2048-bit gateway key.
pub async fn spawn(backend: Backend) -> TestApp {
    spawn_with(backend, |_| {}).await
}

/// A server whose configuration `adjust` changes after the test defaults are set (a
/// `database_url` it sets wins over the fresh database of `backend`).
pub async fn spawn_with(backend: Backend, adjust: impl FnOnce(&mut Config)) -> TestApp {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut config = test_config(dir.path());
    if backend == Backend::Postgres {
        config.database_url = Some(crate::db::fresh_postgres_database().await);
    }
    adjust(&mut config);
    let app = App::build(config).await.expect("build app");
    let addr = app.local_addr().expect("addr");
    let (state, store) = (app.state.clone(), app.store.clone());
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(app.run(async move {
        let _ = stopped.await;
    }));
    TestApp { addr, state, store, client: Client::new(), stop: Some(stop), _dir: dir }
}

/// Workers off (tests that need them turn them on) and a small gateway key: key generation
/// is the slowest part of a start.
fn test_config(data_dir: &std::path::Path) -> Config {
    Config {
        data_dir: data_dir.to_path_buf(),
        listen: "127.0.0.1:0".into(),
        workers: false,
        gateway_key_bits: 2048,
        // Tests send many refused envelopes from one address on purpose; the bar on such
        // addresses has its own test (hardening.rs).
        gateway_unauthenticated_per_address: 0,
        ..Config::default()
    }
}

impl TestApp {
    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The absolute URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// A new tenant called `name`, with an administrator of a unique address.
    pub async fn tenant(&self, name: &str) -> ProvisionedTenant {
        let domain: String = name.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_lowercase();
        let email = format!("admin-{}@{domain}.test", signet_server::secrets::random_token(6).to_lowercase());
        provision::create_tenant(&self.store, name, &email, Some("correct horse battery"), &Actor::system())
            .await
            .expect("tenant")
    }

    /// An access token for the tenant's API client.
    pub async fn token(&self, tenant: &ProvisionedTenant) -> String {
        gateway::access_token(&self.client, &self.base(), &tenant.client_id, &tenant.client_secret).await
    }

    /// A new tenant called `name`, an integrator of its gateway, and its API access token.
    pub async fn integrator(&self, name: &str) -> (Integrator, String) {
        let tenant = self.tenant(name).await;
        let token = self.token(&tenant).await;
        (Integrator::setup(&self.base(), &token).await, token)
    }

    pub async fn get(&self, path: &str, token: &str) -> Response {
        self.client.get(self.url(path)).bearer_auth(token).send().await.expect("get")
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> Response {
        self.client.post(self.url(path)).bearer_auth(token).json(&body).send().await.expect("post")
    }

    pub async fn put(&self, path: &str, token: &str, body: Value) -> Response {
        self.client.put(self.url(path)).bearer_auth(token).json(&body).send().await.expect("put")
    }

    pub async fn delete(&self, path: &str, token: &str) -> Response {
        self.client.delete(self.url(path)).bearer_auth(token).send().await.expect("delete")
    }
}

/// The tenant's first administrator as the use cases know a caller, for tests that call a
/// service directly (they decide by the caller, as for the API and the console).
pub fn administrator(tenant: &ProvisionedTenant) -> signet_server::Caller {
    use signet_domain::access::{Access, Role};
    let id = tenant.admin_user_id;
    signet_server::Caller {
        tenant_id: tenant.tenant_id,
        principal_id: id,
        is_user: true,
        access: Access::builtin(Role::Administrator),
        actor: signet_domain::audit::Actor { id: format!("user:{id}"), ip: None },
    }
}
