//! Crypto-token signatures (SignatureType 2) for DATA, Hash and XML, as the signer page makes
//! them, over HTTP without a browser: the page's calls to Signet (`token/prepare`,
//! `token/complete`) and to a real `signet-bridge serve` with a SoftHSM2 token in between.
//! Results are checked by openssl and xmlsec1; a signature that is not the token's, and a
//! certificate that cannot sign, are refused. With a TSA configured, the XML signature comes
//! back long-term (XAdES B-LT: time-stamp, chain and revocation values inside).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_client::{DocumentDetail, PayloadBuilder, Profile, SealedRequest, SignatureType, open_result};
use signet_store::Backend;
use signet_testkit::ca::{Revocation, TestCa};
use signet_testkit::gateway::{Integrator, erp_urls};
use signet_testkit::on_both_backends;
use signet_testkit::pki::TestTsa;
use signet_testkit::problem::posted_fields;
use signet_testkit::server::{TestApp, spawn, spawn_with};
use signet_testkit::token::{MODULE, PIN, SoftToken, bridge_bin};
use signet_testkit::validators::pyhanko_adesverify;

use crate::support::{dss_vouches_for, within_a_minute};

on_both_backends!(
    data_hash_and_xml_are_signed_with_the_token_and_verify_outside,
    foreign_signatures_and_unusable_certificates_are_refused,
    a_workflow_signer_signs_with_the_token_beside_an_electronic_signer,
    a_token_signature_in_a_workflow_is_long_term_within_a_minute_from_an_ocsp_or_a_crl_only_ca,
);

struct Bridge {
    child: Child,
    url: String,
    http: reqwest::Client,
    origin: String,
    serial: String,
    /// The signer's keyId and certificate (base64 DER).
    key_id: String,
    certificate: String,
}

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A bridge to `token` that signs with the certificate whose subject is `subject`.
async fn bridge(token: &SoftToken, app: &TestApp, subject: &str) -> Bridge {
    let mut child = Command::new(bridge_bin())
        .args(["serve", "--module", MODULE, "--port", "0", "--allow-origin", &app.base(), "--data-dir"])
        .arg(token.dir.path().join("bridge"))
        .env("SOFTHSM2_CONF", token.conf())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("signet-bridge serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("address");
    let started: Value = serde_json::from_str(&line).expect("json");
    let ca = std::fs::read(started["ca"].as_str().expect("ca")).expect("ca.pem");
    let http = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(&ca).expect("pem"))
        .build()
        .expect("client");
    let url = started["url"].as_str().expect("url").to_string();
    let get = |path: String| http.get(format!("{url}{path}")).header("origin", app.base()).send();
    let tokens: Value = get("/tokens".into()).await.expect("tokens").json().await.expect("json");
    let serial = tokens["tokens"][0]["serial"].as_str().expect("serial").to_string();
    let listed: Value = get(format!("/tokens/{serial}/certificates")).await.expect("certs").json().await.expect("json");
    let mut bridge =
        Bridge { child, url, http, origin: app.base(), serial, key_id: String::new(), certificate: String::new() };
    bridge.choose(subject, &listed);
    bridge
}

impl Bridge {
    /// Signs with the token's certificate whose subject is `subject` (in the bridge's listing).
    fn choose(&mut self, subject: &str, listed: &Value) {
        let chosen = listed["certificates"]
            .as_array()
            .and_then(|list| list.iter().find(|c| c["subject"] == subject).cloned())
            .unwrap_or_else(|| panic!("the token's signer {subject}"));
        self.key_id = chosen["keyId"].as_str().expect("keyId").to_string();
        self.certificate = chosen["certificate"].as_str().expect("certificate").to_string();
    }

    async fn listing(&self) -> Value {
        let url = format!("{}/tokens/{}/certificates", self.url, self.serial);
        let listed = self.http.get(url).header("origin", &self.origin).send().await.expect("certs");
        listed.json().await.expect("json")
    }
}

async fn link_for(app: &TestApp, who: &Integrator, payload: PayloadBuilder) -> (String, SealedRequest) {
    let payload =
        payload.authtoken(&who.authtoken).signature_types(&[SignatureType::DigitalSignature]).urls(&erp_urls());
    let sealed = who.seal(Profile::Modern, &payload.build().expect("payload"));
    let response = who.submit(&app.base(), &sealed).await;
    assert_eq!(response.status(), 303, "{:?}", response.text().await);
    (response.headers()["location"].to_str().expect("location").to_string(), sealed)
}

/// The page's three steps; the Returnvalue opened.
async fn sign_with_token(app: &TestApp, bridge: &Bridge, link: &str, sealed: &SealedRequest) -> Vec<u8> {
    sign_with_token_numbered(app, bridge, link, sealed).await.0
}

/// [`sign_with_token`], with the transaction's number.
async fn sign_with_token_numbered(
    app: &TestApp,
    bridge: &Bridge,
    link: &str,
    sealed: &SealedRequest,
) -> (Vec<u8>, String) {
    let page = token_steps(app, bridge, &app.url(link)).await;
    let (action, fields) = posted_fields(&page);
    assert_eq!(action, "https://erp.example.test/signed", "{page}");
    let result = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");
    (result, fields["Transactionnumber"].clone())
}

/// Prepare at Signet, sign on the token through the bridge, complete at Signet (absolute
/// signer-page address); the page Signet answers.
async fn token_steps(app: &TestApp, bridge: &Bridge, link: &str) -> String {
    let prepared: Value = app
        .client
        .post(format!("{link}/token/prepare"))
        .json(&json!({"certificate": bridge.certificate}))
        .send()
        .await
        .expect("prepare")
        .json()
        .await
        .expect("json");
    let signed: Value = bridge
        .http
        .post(format!("{}/tokens/{}/sign", bridge.url, bridge.serial))
        .header("origin", &bridge.origin)
        .json(&json!({"keyId": bridge.key_id, "pin": PIN, "digests": prepared["hashesToSign"]}))
        .send()
        .await
        .expect("sign")
        .json()
        .await
        .expect("json");
    let signatures: Vec<&str> =
        signed["signatures"].as_array().expect("signatures").iter().filter_map(Value::as_str).collect();
    let id = prepared["id"].as_str().expect("id");
    app.client
        .post(format!("{link}/token/complete"))
        .form(&[("id", id), ("signatures", &signatures.join(","))])
        .send()
        .await
        .expect("complete")
        .text()
        .await
        .expect("html")
}

fn openssl_verifies(cms: &[u8], content: &[u8], ca_pem: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join("sig.p7s"), cms).expect("write");
    std::fs::write(d.join("content"), content).expect("write");
    std::fs::write(d.join("ca.pem"), ca_pem).expect("write");
    let out = Command::new("openssl")
        .args(["cms", "-verify", "-binary", "-inform", "DER", "-purpose", "any", "-in"])
        .arg(d.join("sig.p7s"))
        .arg("-content")
        .arg(d.join("content"))
        .arg("-CAfile")
        .arg(d.join("ca.pem"))
        .args(["-out", "/dev/null"])
        .output()
        .expect("openssl");
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success() && text.contains("Verification successful"), "{text}");
}

async fn data_hash_and_xml_are_signed_with_the_token_and_verify_outside(backend: Backend) {
    let tsa = TestTsa::start();
    // The XML signer's CA publishes a CRL (the token's own test CA publishes nothing).
    let xml_ca = TestCa::start("Token XML Test CA", Revocation::CrlOnly, &["Meera Iyer"]);
    let app = spawn_with(backend, |config| {
        config.tsa_url = Some(tsa.url.clone());
        config.outbound_allow_private = true;
    })
    .await;
    let (who, access) = app.integrator("Token Bank").await;
    let token = SoftToken::new();
    token.add_signer("04", "Meera Iyer", &xml_ca.signers[0]);
    let mut bridge = bridge(&token, &app, "Asha Verma").await;
    let ca = token.ca.cert_pem();

    let text = b"I accept the terms of loan 77.\n";
    let (link, sealed) = link_for(&app, &who, PayloadBuilder::data(text).reference_number("TOKEN-DATA")).await;
    openssl_verifies(&sign_with_token(&app, &bridge, &link, &sealed).await, text, &ca);

    let documents: Vec<DocumentDetail> = ["Sanction letter", "Key fact statement"]
        .iter()
        .map(|name| DocumentDetail {
            name: name.to_string(),
            url: "https://erp.example.test/doc".into(),
            hash_hex: hex::encode(signet_sigcrypto::pki::sha256(name.as_bytes())),
        })
        .collect();
    let (link, sealed) = link_for(&app, &who, PayloadBuilder::hash(&documents).reference_number("TOKEN-HASH")).await;
    let json = sign_with_token(&app, &bridge, &link, &sealed).await;
    let signatures: Vec<Value> = serde_json::from_slice(&json).expect("hash signatures");
    assert_eq!(signatures.len(), 2, "both documents with one PIN");
    for (document, signature) in documents.iter().zip(&signatures) {
        let cms = STANDARD.decode(signature["Signature"].as_str().expect("signature")).expect("base64");
        openssl_verifies(&cms, document.name.as_bytes(), &ca);
    }

    let xml = b"<?xml version=\"1.0\"?>\n<Mandate xmlns=\"urn:example:nach\"><Amount>1500</Amount></Mandate>\n";
    let (link, sealed) = link_for(&app, &who, PayloadBuilder::xml(xml).reference_number("TOKEN-XML")).await;
    let listed = bridge.listing().await;
    bridge.choose("Meera Iyer", &listed);
    let (signed, number) = sign_with_token_numbered(&app, &bridge, &link, &sealed).await;
    let status: Value =
        app.get(&format!("/api/v1/gateway/transactions/{number}"), &access).await.json().await.expect("json");
    assert_eq!(status["signatureLevel"], "XAdES-B-LT", "{status}");
    let text = String::from_utf8_lossy(&signed);
    for property in ["SignatureTimeStamp", "CertificateValues", "RevocationValues", "EncapsulatedCRLValue"] {
        assert!(text.contains(&format!("<xades:{property}")), "{property} in\n{text}");
    }
    let trust = [xml_ca.ca.cert_der().to_vec(), tsa.root.ca.cert_der().to_vec()];
    let report = signet_signing::verify_file(&signed, &trust).expect("report");
    assert_eq!(report.signatures[0].kind, "xades", "signed SigningTime and SigningCertificateV2");
    assert_eq!(report.signatures[0].pades_level.as_deref(), Some("B-LT"), "{report:#?}");
    assert!(report.valid, "{report:#?}");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("signed.xml"), &signed).expect("write");
    std::fs::write(dir.path().join("ca.pem"), xml_ca.ca_pem()).expect("write");
    let out = Command::new("xmlsec1")
        .arg("--verify")
        .arg("--trusted-pem")
        .arg(dir.path().join("ca.pem"))
        .args(["--id-attr:Id", "http://uri.etsi.org/01903/v1.3.2#:SignedProperties"])
        .arg(dir.path().join("signed.xml"))
        .output()
        .expect("xmlsec1");
    let report = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && report.contains("OK"), "xmlsec1:\n{report}");
}

async fn foreign_signatures_and_unusable_certificates_are_refused(backend: Backend) {
    let app = spawn(backend).await;
    let (who, _) = app.integrator("Token Bank").await;
    let token = SoftToken::new();
    let text = b"Terms.";
    let (link, _) = link_for(&app, &who, PayloadBuilder::data(text).reference_number("TOKEN-BAD")).await;

    // The CA's own certificate is not for signing.
    let refused = app
        .client
        .post(app.url(&format!("{link}/token/prepare")))
        .json(&json!({"certificate": STANDARD.encode(token.ca.cert_der())}))
        .send()
        .await
        .expect("prepare");
    assert_eq!(refused.status(), 400);
    let garbage = app.client.post(app.url(&format!("{link}/token/prepare"))).body("{").send().await.expect("prepare");
    assert_eq!(garbage.status(), 400);

    // A signature made by another key over the hash is not accepted; nothing is delivered.
    let signer = token.ca.issue_signer("Asha Verma", signet_sigcrypto::pki::KeyAlgo::Rsa2048).expect("signer");
    let prepared: Value = app
        .client
        .post(app.url(&format!("{link}/token/prepare")))
        .json(&json!({"certificate": STANDARD.encode(&signer.cert_der)}))
        .send()
        .await
        .expect("prepare")
        .json()
        .await
        .expect("json");
    let other = token.ca.issue_signer("Somebody Else", signet_sigcrypto::pki::KeyAlgo::Rsa2048).expect("other");
    let key = signet_sigcrypto::signer::LocalKeySigner::from_pkcs8(&other.key_pkcs8_der, &other.cert_der, vec![])
        .expect("key");
    let foreign = signet_sigcrypto::signer::RawSigner::sign(&key, b"anything").expect("signature");
    let page = app
        .client
        .post(app.url(&format!("{link}/token/complete")))
        .form(&[("id", prepared["id"].as_str().expect("id")), ("signatures", &STANDARD.encode(foreign))])
        .send()
        .await
        .expect("complete")
        .text()
        .await
        .expect("html");
    assert!(page.contains("was not accepted"), "{page}");
    assert!(!page.contains("erp.example.test/signed"), "nothing delivered");
}

async fn a_workflow_signer_signs_with_the_token_beside_an_electronic_signer(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Token Bank").await;
    let access = app.token(&tenant).await;
    let token = SoftToken::new();
    let bridge = bridge(&token, &app, "Asha Verma").await;
    let pdf = signet_testkit::pdf::one_page("Guarantee deed");
    let uploaded: Value = app
        .post("/api/v1/documents", &access, json!({"documentName": "Deed.pdf", "fileData": STANDARD.encode(&pdf)}))
        .await
        .json()
        .await
        .expect("json");
    let body = json!({"templateId": 0, "workflowName": "Deed 9", "documentIds": [uploaded["documentId"]],
        "signatories": [
            {"subscriberId": 0, "emailId": "asha@borrower.test", "name": "Asha", "signingOrder": 1, "modeOfSignature": "dsc_token"},
            {"subscriberId": 0, "emailId": "ravi@bank.test", "name": "Ravi", "signingOrder": 2}]});
    let initiated: Value = app.post("/api/v1/workflows", &access, body).await.json().await.expect("json");
    let url_of = |email: &str| -> String {
        let urls = initiated["signingUrls"].as_array().expect("signingUrls");
        urls.iter().find(|u| u["emailId"] == email).and_then(|u| u["url"].as_str()).expect("url").to_string()
    };

    let asha = url_of("asha@borrower.test");
    let page = app.client.get(&asha).send().await.expect("page").text().await.expect("html");
    assert!(page.contains("Sign with your crypto token") && !page.contains("typedName"), "{page}");
    let signed = token_steps(&app, &bridge, &asha).await;
    assert!(signed.contains("You signed"), "{signed}");

    let typed = app
        .client
        .post(format!("{}/sign", url_of("ravi@bank.test")))
        .form(&[("mode", "typed"), ("typedName", "Ravi"), ("font", "plain"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    assert_eq!(typed.status(), 200);

    let workflow_id = initiated["workflowId"].as_i64().expect("workflowId");
    let download = app.post("/api/v1/documents/download", &access, json!({"workflowid": workflow_id})).await;
    let pdf = download.bytes().await.expect("pdf").to_vec();
    let report = signet_testkit::validators::pdfsig(&pdf);
    assert_eq!(report.matches("Signature is Valid").count(), 2, "{report}");
    assert!(report.contains("Asha Verma") && report.contains("Token Bank (sealed by Signet)"), "{report}");
}

/// Issue 33, item 1: a workflow signature made with the signer's own token has its chain and
/// revocation data in the document within a minute of the signature, from a CA with OCSP and
/// from one that publishes only a CRL (the token's certificate points at them; nothing of it
/// is Signet's), before anyone else signs; pyHanko's AdES validation then passes with the CA
/// and TSA servers stopped.
async fn a_token_signature_in_a_workflow_is_long_term_within_a_minute_from_an_ocsp_or_a_crl_only_ca(backend: Backend) {
    let tsa = TestTsa::start();
    let (with_ocsp, crl_only) = ("Asha Verma OCSP", "Asha Verma CRL");
    let ocsp_ca = TestCa::start("Token OCSP CA", Revocation::Ocsp, &[with_ocsp]);
    let crl_ca = TestCa::start("Token CRL CA", Revocation::CrlOnly, &[crl_only]);
    let app = spawn_with(backend, |config| {
        config.tsa_url = Some(tsa.url.clone());
        config.outbound_allow_private = true;
        config.workers = true;
        config.worker_poll_ms = 50;
        config.job_retry_base_ms = 100;
    })
    .await;
    let access = app.token(&app.tenant("Token Bank").await).await;
    let token = SoftToken::new();
    let mut signed = Vec::new();
    for (id, subject, ca) in [("04", with_ocsp, &ocsp_ca), ("05", crl_only, &crl_ca)] {
        token.add_signer(id, subject, &ca.signers[0]);
        let bridge = bridge(&token, &app, subject).await;
        let (workflow_id, asha) = token_then_electronic(&app, &access).await;
        assert!(token_steps(&app, &bridge, &asha).await.contains("You signed"));
        let seen = within_a_minute(&app, &access, workflow_id, "document.long_term", 1).await;
        let has = |action: &str| seen.iter().any(|a| a == action);
        assert!(has("document.long_term") && !has("document.long_term_pending"), "{subject}: {seen:?}");
        let download = app.post("/api/v1/documents/download", &access, json!({"workflowid": workflow_id})).await;
        let pdf = download.bytes().await.expect("pdf").to_vec();
        assert!(dss_vouches_for(&pdf, &ca.signers[0].cert_der, ca.ca.cert_der()), "{subject}: revocation data");
        signed.push(pdf);
    }

    let roots = [ocsp_ca.ca_pem(), crl_ca.ca_pem(), tsa.root_pem.clone()];
    drop((ocsp_ca, crl_ca, tsa));
    let roots: Vec<&[u8]> = roots.iter().map(|r| r.as_bytes()).collect();
    for pdf in &signed {
        let (passed, report) = pyhanko_adesverify(pdf, &roots, None);
        assert!(passed, "offline AdES validation:\n{report}");
    }
}

/// A workflow whose first signatory signs with a token and whose second, electronically, later
/// (never, here): its id and the first's link.
async fn token_then_electronic(app: &TestApp, access: &str) -> (i64, String) {
    let pdf = signet_testkit::pdf::one_page("Guarantee deed");
    let uploaded: Value = app
        .post("/api/v1/documents", access, json!({"documentName": "Deed.pdf", "fileData": STANDARD.encode(&pdf)}))
        .await
        .json()
        .await
        .expect("json");
    let body = json!({"templateId": 0, "workflowName": "Deed", "documentIds": [uploaded["documentId"]],
        "signatories": [
            {"subscriberId": 0, "emailId": "asha@borrower.test", "name": "Asha", "signingOrder": 1, "modeOfSignature": "dsc_token"},
            {"subscriberId": 0, "emailId": "ravi@bank.test", "name": "Ravi", "signingOrder": 2}]});
    let initiated: Value = app.post("/api/v1/workflows", access, body).await.json().await.expect("json");
    let asha = initiated["signingUrls"][0]["url"].as_str().expect("url").to_string();
    (initiated["workflowId"].as_i64().expect("workflowId"), asha)
}
