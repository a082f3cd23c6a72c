//! `signet-bridge serve` as the signer page meets it: HTTPS on loopback with the bridge's own
//! CA (trusted here as the signer trusts it once), the handshake, tokens, certificates and a
//! batch signature over HTTP; pages from other origins refused; the private-network-access
//! preflight answered.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use common::{MODULE, PIN, token};
use serde_json::{Value, json};

const ORIGIN: &str = "https://sign.example.test";

struct Served {
    child: Child,
    url: String,
    client: reqwest::Client,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(t: &common::Token) -> Served {
    let data = t.dir().join("bridge");
    let mut child = Command::new(env!("CARGO_BIN_EXE_signet-bridge"))
        .args(["serve", "--module", MODULE, "--allow-origin", ORIGIN, "--port", "0", "--data-dir"])
        .arg(&data)
        .env("SOFTHSM2_CONF", t.conf())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("signet-bridge serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("first line");
    let started: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    let ca = std::fs::read(started["ca"].as_str().expect("ca")).expect("ca.pem");
    let client = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(&ca).expect("pem"))
        .build()
        .expect("client");
    Served { child, url: started["url"].as_str().expect("url").to_string(), client }
}

#[tokio::test]
async fn the_signer_page_finds_the_bridge_lists_certificates_and_signs_a_batch() {
    let t = token();
    let s = serve(&t);
    let get = |path: &str| s.client.get(format!("{}{path}", s.url)).header("origin", ORIGIN).send();

    let version = get("/version").await.expect("version");
    assert_eq!(version.status(), 200);
    assert_eq!(version.headers()["access-control-allow-origin"], ORIGIN);
    let version: Value = version.json().await.expect("json");
    assert_eq!(version["protocol"], 1);

    let tokens: Value = get("/tokens").await.expect("tokens").json().await.expect("json");
    assert!(tokens["tokens"].to_string().contains(&t.serial), "{tokens}");
    let certificates: Value =
        get(&format!("/tokens/{}/certificates", t.serial)).await.expect("certificates").json().await.expect("json");
    let certificates = certificates["certificates"].as_array().cloned().unwrap_or_default();
    assert_eq!(certificates.len(), 2);

    let key_id = certificates[0]["keyId"].as_str().expect("keyId");
    let digests: Vec<String> = (0..10u8).map(|i| hex::encode(signet_sigcrypto::pki::sha256(&[i]))).collect();
    let sign = |pin: &str| {
        s.client
            .post(format!("{}/tokens/{}/sign", s.url, t.serial))
            .header("origin", ORIGIN)
            .json(&json!({"keyId": key_id, "pin": pin, "digests": digests}))
            .send()
    };
    let signed = sign(PIN).await.expect("sign");
    assert_eq!(signed.status(), 200);
    let signed: Value = signed.json().await.expect("json");
    assert_eq!(signed["signatures"].as_array().map(Vec::len), Some(10), "ten signatures, one PIN");
    let wrong = sign("000000").await.expect("sign");
    assert_eq!(wrong.status(), 401);
    assert_eq!(wrong.json::<Value>().await.expect("json")["error"], "wrong_pin");
}

#[tokio::test]
async fn other_origins_are_refused_and_the_private_network_preflight_is_answered() {
    let t = token();
    let s = serve(&t);
    for origin in [Some("https://evil.example"), Some("https://sign.example.test.evil.example"), None] {
        let mut request = s.client.get(format!("{}/tokens", s.url));
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        let response = request.send().await.expect("request");
        assert_eq!(response.status(), 403, "{origin:?}");
        assert!(response.headers().get("access-control-allow-origin").is_none());
    }
    let preflight = s
        .client
        .request(reqwest::Method::OPTIONS, format!("{}/tokens/{}/sign", s.url, t.serial))
        .header("origin", ORIGIN)
        .header("access-control-request-method", "POST")
        .header("access-control-request-private-network", "true")
        .send()
        .await
        .expect("preflight");
    assert_eq!(preflight.status(), 204);
    assert_eq!(preflight.headers()["access-control-allow-private-network"], "true");
    assert_eq!(preflight.headers()["access-control-allow-origin"], ORIGIN);
    let bad = s
        .client
        .post(format!("{}/tokens/{}/sign", s.url, t.serial))
        .header("origin", ORIGIN)
        .body("not json")
        .send()
        .await
        .expect("post");
    assert_eq!(bad.status(), 400);
}
