//! `signet-bridge serve` as the signer page meets it: HTTPS on loopback with the bridge's own
//! CA (trusted here as the signer trusts it once), the handshake, tokens, certificates and a
//! batch signature over HTTP; pages from other origins refused; the private-network-access
//! preflight answered.

mod common;

use std::process::Command;

use common::{ORIGIN, PIN, Served, Token, token};
use serde_json::{Value, json};

/// `signet-bridge serve` on SoftHSM2.
fn serve(t: &Token) -> Served {
    serve_and_announce(t).0
}

fn serve_and_announce(t: &Token) -> (Served, Value) {
    common::serve(t, &t.softhsm())
}

#[test]
fn the_ca_is_trusted_on_first_start_and_vouches_for_loopback_names_only() {
    let t = token();
    let (first, started) = serve_and_announce(&t);
    let nssdb = t.dir().join(".pki/nssdb");
    assert_eq!(started["trusted"], json!([nssdb.display().to_string()]), "{started}");
    let listed = Command::new("certutil").arg("-L").arg("-d").arg(format!("sql:{}", nssdb.display())).output();
    let listed = String::from_utf8_lossy(&listed.expect("certutil (libnss3-tools)").stdout).to_string();
    let line = listed.lines().find(|l| l.starts_with(signet_bridge::trust::NICKNAME)).unwrap_or_default();
    assert!(line.trim_end().ends_with("C,,"), "trusted for TLS servers: {listed}");
    drop(first);
    let (_again, restarted) = serve_and_announce(&t);
    assert_eq!(restarted["trusted"], Value::Null, "an existing CA is not installed again");

    // Even with its key, the CA cannot vouch for another site: openssl refuses the chain.
    let dir = t.dir().join("bridge");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect(name);
    let ca = signet_sigcrypto::pki::LocalCa::from_pem(&read("ca.pem"), &read("ca.key")).expect("ca");
    let served: &[&str] = &["localhost", "127.0.0.1"];
    for (names, ok) in [(served, true), (&["bank.example.com"], false)] {
        let leaf = ca.issue_tls_server(names).expect("leaf");
        let path = t.dir().join("leaf.pem");
        std::fs::write(&path, leaf.cert_pem()).expect("leaf");
        let out = Command::new("openssl")
            .args(["verify", "-purpose", "sslserver", "-CAfile"])
            .arg(dir.join("ca.pem"))
            .arg(&path)
            .output()
            .expect("openssl");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.success(), ok, "{names:?}: {text}");
        if !ok {
            assert!(text.contains("permitted subtree violation"), "{text}");
        }
    }
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
