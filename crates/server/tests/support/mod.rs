//! A real Signet server on 127.0.0.1:0 for each test, on SQLite or on a fresh PostgreSQL
//! database, with a tenant ready to use.

#![allow(dead_code)]

use std::net::SocketAddr;

use reqwest::{Client, Response};
use serde_json::{Value, json};
use signet_domain::audit::Actor;
use signet_server::config::Config;
use signet_server::provision::{self, ProvisionedTenant};
use signet_server::{App, AppState};
use signet_store::{Backend, testing};
use tokio::sync::oneshot;

pub struct TestApp {
    pub addr: SocketAddr,
    pub state: AppState,
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

pub async fn spawn(backend: Backend) -> TestApp {
    spawn_with(backend, |_| {}).await
}

pub async fn spawn_with(backend: Backend, adjust: impl FnOnce(&mut Config)) -> TestApp {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut config = Config {
        data_dir: dir.path().to_path_buf(),
        listen: "127.0.0.1:0".into(),
        workers: false,
        gateway_key_bits: 2048,
        ..Config::default()
    };
    if backend == Backend::Postgres {
        config.database_url = Some(testing::fresh_postgres_database().await.expect("postgres"));
    }
    adjust(&mut config);
    let app = App::build(config).await.expect("build app");
    let addr = app.local_addr().expect("addr");
    let state = app.state.clone();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(app.run(async move {
        let _ = stopped.await;
    }));
    TestApp { addr, state, client: Client::new(), stop: Some(stop), _dir: dir }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub async fn tenant(&self, name: &str) -> ProvisionedTenant {
        let domain: String = name.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_lowercase();
        let email = format!("admin-{}@{domain}.test", signet_server::secrets::random_token(6).to_lowercase());
        provision::create_tenant(&self.state.store, name, &email, Some("correct horse battery"), &Actor::system())
            .await
            .expect("tenant")
    }

    /// An access token for the tenant's API client.
    pub async fn token(&self, tenant: &ProvisionedTenant) -> String {
        let body = json!({
            "grant_type": "client_credentials",
            "client_id": tenant.client_id,
            "client_secret": tenant.client_secret,
        });
        let response = self.client.post(self.url("/api/v1/auth/token")).json(&body).send().await.expect("token");
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.expect("json");
        body["access_token"].as_str().expect("access_token").to_string()
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

/// Where a gateway post-back page (the auto-submitting result form) posts, and its hidden fields.
pub fn posted_fields(html: &str) -> (String, std::collections::HashMap<String, String>) {
    let action = html.split("action=\"").nth(1).and_then(|r| r.split('"').next()).unwrap_or_default().to_string();
    let mut fields = std::collections::HashMap::new();
    for input in html.split("<input type=\"hidden\" ").skip(1) {
        let name = input.split("name=\"").nth(1).and_then(|r| r.split('"').next()).unwrap_or_default();
        let value = input.split("value=\"").nth(1).and_then(|r| r.split('"').next()).unwrap_or_default();
        fields.insert(name.to_string(), value.replace("&amp;", "&").replace("&quot;", "\"").replace("&#39;", "'"));
    }
    (action, fields)
}

/// Asserts a ProblemDetails answer with `status` and `code`, and returns its body.
pub async fn expect_problem(response: Response, status: u16, code: &str) -> Value {
    assert_eq!(response.status().as_u16(), status, "status");
    let content_type =
        response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    assert_eq!(content_type, "application/problem+json");
    let body: Value = response.json().await.expect("problem json");
    assert_eq!(body["code"], code, "code in {body}");
    assert_eq!(body["status"], status);
    assert!(body["requestId"].as_str().is_some_and(|id| !id.is_empty()), "request id in {body}");
    body
}

#[macro_export]
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

/// A real SMTP server (Python's aiosmtpd) that keeps every message it receives.
pub struct SmtpSink {
    pub port: u16,
    dir: tempfile::TempDir,
    child: std::process::Child,
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl SmtpSink {
    pub fn start() -> SmtpSink {
        let dir = tempfile::tempdir().expect("tempdir");
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/smtp_sink.py");
        let mut child = std::process::Command::new("python3")
            .arg(script)
            .arg(dir.path())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("python3 with aiosmtpd (scripts/install-test-deps.sh installs it)");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).expect("port line");
        let port = line.trim().parse().unwrap_or_else(|_| panic!("the SMTP sink did not start: {line:?}"));
        SmtpSink { port, dir, child }
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Every message received so far, in order.
    pub fn messages(&self) -> Vec<Value> {
        let mut files: Vec<_> = std::fs::read_dir(self.dir.path())
            .expect("dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        files.iter().map(|p| serde_json::from_slice(&std::fs::read(p).expect("read")).expect("json")).collect()
    }

    /// Waits (up to 20 s) for a message to `to` whose subject contains `subject`.
    pub async fn wait_for(&self, to: &str, subject: &str) -> Value {
        for _ in 0..400 {
            let found = self.messages().into_iter().find(|m| {
                m["to"]
                    .as_array()
                    .is_some_and(|r| r.iter().any(|a| a.as_str().is_some_and(|a| a.eq_ignore_ascii_case(to))))
                    && m["subject"].as_str().is_some_and(|s| s.contains(subject))
            });
            if let Some(message) = found {
                return message;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("no e-mail to {to} about {subject:?}; received: {:?}", self.messages());
    }
}
