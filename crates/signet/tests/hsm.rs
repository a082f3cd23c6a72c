//! Keys in an HSM (SoftHSM2 through PKCS#11), on SQLite and PostgreSQL: `signet serve` with
//! `hsm_module` makes the platform's and the tenant's sealing keys inside the token and
//! imports an uploaded automated-signing key into it; what they sign validates in pdfsig and
//! pyHanko; the database keeps certificates only; OpenSC's `pkcs11-tool` sees the keys as
//! sensitive and never extractable; a restarted server signs with the same keys.
//!
//! SoftHSM reads `SOFTHSM2_CONF` when the module loads, so the server runs as a child
//! process with that variable (the test process itself never loads the module).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_store::{PoolSettings, Store};
use signet_testkit::pki::TestPki;
use signet_testkit::process::SignetBin;
use signet_testkit::token::{self, SoftToken};
use signet_testkit::validators::{pdfsig, pyhanko_validates};
use signet_testkit::{pdf, signet_bin};

const SIGNET: SignetBin = signet_bin!();
const PROFILE_EMAIL: &str = "treasury@bank.test";

struct Hsm {
    token: SoftToken,
    pin_file: std::path::PathBuf,
}

impl Hsm {
    fn new() -> Hsm {
        let token = SoftToken::new();
        let pin_file = token.dir.path().join("pin");
        std::fs::write(&pin_file, format!("{}\n", token::PIN)).expect("pin file");
        Hsm { token, pin_file }
    }

    fn envs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("SOFTHSM2_CONF", self.token.conf().display().to_string()),
            ("SIGNET_HSM_MODULE", token::MODULE.to_string()),
            ("SIGNET_HSM_TOKEN_LABEL", token::LABEL.to_string()),
            ("SIGNET_HSM_PIN_FILE", self.pin_file.display().to_string()),
            ("SIGNET_WORKER_POLL_MS", "100".to_string()),
        ]
    }

    /// `pkcs11-tool --list-objects` of the token, logged in.
    fn objects(&self) -> String {
        let output = Command::new("pkcs11-tool")
            .args(["--module", token::MODULE, "--token-label", token::LABEL, "--login", "--pin", token::PIN, "-O"])
            .env("SOFTHSM2_CONF", self.token.conf())
            .output()
            .expect("pkcs11-tool (opensc)");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).to_string()
    }
}

/// The block pkcs11-tool prints for the private key labelled `label` (an object's block is
/// its header line and the indented lines under it).
fn private_key_block(objects: &str, label: &str) -> Option<String> {
    let mut blocks: Vec<String> = Vec::new();
    for line in objects.lines() {
        match blocks.last_mut() {
            Some(block) if line.starts_with(char::is_whitespace) => {
                block.push_str(line);
                block.push('\n');
            }
            _ => blocks.push(format!("{line}\n")),
        }
    }
    let wanted = format!("  label:      {label}\n");
    blocks.into_iter().find(|block| block.starts_with("Private Key Object") && block.contains(&wanted))
}

struct Api {
    base: String,
    token: String,
    http: reqwest::Client,
}

impl Api {
    async fn post(&self, path: &str, body: Value) -> reqwest::Response {
        self.http.post(format!("{}{path}", self.base)).bearer_auth(&self.token).json(&body).send().await.expect("post")
    }

    async fn get(&self, path: &str) -> reqwest::Response {
        self.http.get(format!("{}{path}", self.base)).bearer_auth(&self.token).send().await.expect("get")
    }

    async fn pdf(&self, response: reqwest::Response) -> Vec<u8> {
        assert_eq!(response.status(), 200);
        response.bytes().await.expect("pdf").to_vec()
    }

    /// A one-signatory workflow for the profile's signer: it signs server-side at once.
    async fn automated_workflow(&self, profile_id: i64, title: &str) -> i64 {
        let body = json!({"documentName": format!("{title}.pdf"), "fileData": STANDARD.encode(pdf::one_page(title))});
        let uploaded: Value = self.post("/api/v1/documents", body).await.json().await.expect("json");
        let document_id = uploaded["documentId"].as_i64().expect("documentId");
        let signatories = json!([{"subscriberId": 0, "emailId": PROFILE_EMAIL, "name": "Treasury", "signingOrder": 1}]);
        let body = json!({"templateId": 0, "documentIds": [document_id], "signatories": signatories, "hsmCertificateId": profile_id});
        let response = self.post("/api/v1/workflows", body).await;
        assert_eq!(response.status(), 201);
        let initiated: Value = response.json().await.expect("json");
        let workflow_id = initiated["workflowId"].as_i64().expect("workflowId");
        for _ in 0..300 {
            let details: Value =
                self.get(&format!("/api/v1/workflows/{workflow_id}")).await.json().await.expect("json");
            if details["state"] == "completed" {
                return workflow_id;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("workflow {workflow_id} did not complete");
    }

    /// The signed document and the completion certificate validate, with the profile's
    /// certificate and the tenant's seal respectively.
    async fn check_signed(&self, workflow_id: i64, platform_ca_pem: &[u8], profile_ca_pem: &[u8]) {
        let signed = self.pdf(self.post("/api/v1/documents/download", json!({"workflowid": workflow_id})).await).await;
        let report = pdfsig(&signed);
        assert!(report.contains("Signature is Valid.") && report.contains("Treasury Signing"), "{report}");
        pyhanko_validates(&signed, &[profile_ca_pem]);
        let certificate = self.pdf(self.get(&format!("/api/v1/workflows/{workflow_id}/certificate")).await).await;
        let report = pdfsig(&certificate);
        assert!(report.contains("Signature is Valid.") && report.contains("Acme Bank (sealed by Signet)"), "{report}");
        pyhanko_validates(&certificate, &[platform_ca_pem]);
    }
}

fn access_token(base: &str, tenant: &Value) -> String {
    let http = signet_testkit::blocking::blocking_client();
    let body = json!({"grant_type": "client_credentials", "client_id": tenant["client_id"], "client_secret": tenant["client_secret"]});
    let reply = http.post(format!("{base}/api/v1/auth/token")).json(&body).send().expect("token");
    reply.json()["access_token"].as_str().expect("access token").to_string()
}

fn create_tenant(dir: &Path, database_url: &str) -> Value {
    let output = SIGNET.run(
        &["tenant", "create", "--name", "Acme Bank", "--admin-email", "ops@acme.test", "--database-url", database_url],
        dir,
    );
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("tenant json")
}

fn sealing_keys_stay_in_the_hsm(database_url: String) {
    let hsm = Hsm::new();
    let dir = tempfile::tempdir().expect("dir");
    let envs = hsm.envs();
    let env_refs: Vec<(&str, &str)> = envs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let args = ["--database-url", database_url.as_str()];
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");

    let server = SIGNET.serve(&args, dir.path(), &env_refs);
    let tenant = create_tenant(dir.path(), &database_url);
    let api =
        Api { token: access_token(&server.base, &tenant), base: server.base.clone(), http: reqwest::Client::new() };
    let profile_pki = TestPki::new("Treasury Test CA");
    let p12 = STANDARD.encode(profile_pki.signer_p12("Treasury Signing", Some("Acme Bank"), "s3cret"));
    let profile_id = rt.block_on(async {
        let body = json!({"name": "Treasury", "emailId": PROFILE_EMAIL, "pkcs12": p12, "password": "s3cret"});
        let created = api.post("/api/v1/signing-profiles", body).await;
        assert_eq!(created.status(), 201);
        created.json::<Value>().await.expect("json")["profileId"].as_i64().expect("profileId")
    });
    let platform_ca = std::fs::read(dir.path().join("signet-data/keys/ca.pem")).expect("platform CA");
    let profile_ca = profile_pki.ca_pem().into_bytes();
    let first = rt.block_on(api.automated_workflow(profile_id, "Guarantee"));
    rt.block_on(api.check_signed(first, &platform_ca, &profile_ca));

    // The database holds certificates, not keys.
    let store = rt.block_on(Store::connect(&database_url, &PoolSettings::default())).expect("store");
    let tenant_id = tenant["tenant_id"].as_i64().expect("tenant_id");
    for purpose in ["document-seal".to_string(), format!("tenant-seal:{tenant_id}")] {
        let row = rt.block_on(store.signing_key(&purpose)).expect("read").expect("stored");
        assert!(row.private_der.is_empty(), "{purpose}: the private key is in the database");
        assert!(!row.public_raw.is_empty(), "{purpose}: the certificate is kept");
    }
    // The token holds them (as OpenSC reads them): the sealing keys made inside it, sensitive
    // and never extractable; the imported profile key sensitive and not extractable; each
    // for signing only.
    let objects = hsm.objects();
    for label in ["document-seal".to_string(), format!("tenant-seal:{tenant_id}")] {
        let block = private_key_block(&objects, &label).unwrap_or_else(|| panic!("no key {label} in\n{objects}"));
        assert!(block.contains("always sensitive, never extractable"), "{label}: {block}");
        assert!(block.contains("Usage:      sign\n"), "{label}: {block}");
    }
    let profile_label = format!("tenant:{tenant_id}:email:{PROFILE_EMAIL}");
    let block = private_key_block(&objects, &profile_label).unwrap_or_else(|| panic!("no profile key in\n{objects}"));
    assert!(block.contains("Access:     sensitive\n") && block.contains("Usage:      sign\n"), "{block}");
    drop(server);

    // A restart finds the same keys in the token and signs with them.
    let server = SIGNET.serve(&args, dir.path(), &env_refs);
    let api =
        Api { token: access_token(&server.base, &tenant), base: server.base.clone(), http: reqwest::Client::new() };
    let second = rt.block_on(api.automated_workflow(profile_id, "Renewal"));
    rt.block_on(api.check_signed(second, &platform_ca, &profile_ca));
    let objects = hsm.objects();
    assert_eq!(objects.matches("label:      document-seal\n").count(), 2, "one key pair: {objects}");
    drop(server);

    // A wrong PIN stops the start with one readable line.
    std::fs::write(&hsm.pin_file, "000000").expect("pin");
    let output = SIGNET
        .command()
        .args(["serve", "--listen", "127.0.0.1:0", "--database-url", &database_url])
        .current_dir(dir.path())
        .env_remove("SIGNET_DATA_DIR")
        .envs(envs.iter().map(|(k, v)| (*k, v.as_str())))
        .output()
        .expect("serve");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("HSM") && stderr.contains("login"), "{stderr}");
}

#[test]
fn sealing_keys_stay_in_the_hsm_sqlite() {
    let db = tempfile::tempdir().expect("db dir");
    sealing_keys_stay_in_the_hsm(format!("sqlite://{}", db.path().join("signet.db").display()));
}

#[test]
fn sealing_keys_stay_in_the_hsm_postgres() {
    sealing_keys_stay_in_the_hsm(signet_testkit::db::fresh_postgres_database_blocking());
}
