//! The `Hash` file type end to end: two documents by URL and SHA-256, typed consent on the signer
//! page, then the `Returnvalue` opened as `[{DocumentName, DocumentHash, Signature}]` and each
//! detached CMS verified by `openssl cms -verify` against the original bytes and the server's CA.
//! With a TSA configured each CMS leaves at CAdES B-LT: openssl checks its chain against the CRL
//! it carries, and Signet's verifier finds it long-term once the TSA is gone.

use std::process::Command;

use base64::Engine;
use signet_client::{DocumentDetail, PayloadBuilder, Profile, SignatureType, open_hash_result};
use signet_store::Backend;
use signet_testkit::gateway::erp_urls;
use signet_testkit::on_both_backends;
use signet_testkit::pki::TestTsa;
use signet_testkit::problem::posted_fields;
use signet_testkit::server::spawn_with;

on_both_backends!(hash_documents_are_signed_after_typed_consent_and_verify_in_openssl);

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, bytes).as_ref())
}

async fn hash_documents_are_signed_after_typed_consent_and_verify_in_openssl(backend: Backend) {
    let tsa = TestTsa::start();
    let (tsa_url, tsa_root) = (tsa.url.clone(), tsa.root_pem.clone());
    let app = spawn_with(backend, |config| {
        config.tsa_url = Some(tsa_url);
        config.outbound_allow_private = true;
    })
    .await;
    let (who, token) = app.integrator("Acme Bank").await;
    let mut signed_hashes = Vec::new();
    let dir = tempfile::tempdir().expect("tempdir");
    let ca = app.state.services.config.data_dir.join("keys").join("ca.pem");
    assert!(ca.exists(), "the test server's CA at {}", ca.display());

    // Two real documents: their bytes stay with the integrator, only URL and hash travel.
    let documents: Vec<(String, String, Vec<u8>)> = vec![
        (
            "Invoice 7".to_string(),
            "https://app.example.test/invoices/7.pdf".to_string(),
            b"%PDF-1.7\n% invoice seven, 1 240.00 EUR\n".repeat(40),
        ),
        (
            "Loan terms".to_string(),
            "http://docs.example.test/loans/terms?id=42&v=3".to_string(),
            "Terms and conditions of loan 42, version 3.\n".repeat(100).into_bytes(),
        ),
    ];
    let details: Vec<DocumentDetail> = documents
        .iter()
        .map(|(name, url, bytes)| DocumentDetail { name: name.clone(), url: url.clone(), hash_hex: sha256_hex(bytes) })
        .collect();

    for (profile, reference) in [(Profile::Modern, "HASH-0001"), (Profile::Legacy, "HASH-0002")] {
        let payload = PayloadBuilder::hash(&details)
            .reference_number(reference)
            .authtoken(&who.authtoken)
            .signature_types(&[SignatureType::ESignature])
            .urls(&erp_urls())
            .font_signature(true)
            .build()
            .expect("payload");
        let sealed = who.seal(profile, &payload);
        let response = who.submit(&app.base(), &sealed).await;
        assert_eq!(response.status(), 303, "{:?}", response.text().await);
        let link = response.headers()["location"].to_str().expect("location").to_string();

        // The signer sees each DocumentURL as a link (HTML-escaped in the href).
        let html = app.client.get(app.url(&link)).send().await.expect("page").text().await.expect("html");
        for (name, url, bytes) in &documents {
            let escaped = [url.replace('&', "&amp;"), url.replace('&', "&#38;")];
            assert!(escaped.iter().any(|u| html.contains(&format!("href=\"{u}\""))), "link to {url} in {html}");
            assert!(html.contains(name.as_str()), "{name} in {html}");
            assert!(html.contains(&sha256_hex(bytes)), "hash shown in {html}");
        }

        let signed = app
            .client
            .post(app.url(&format!("{link}/sign")))
            .form(&[("mode", "typed"), ("typedName", "Asha Verma"), ("consent", "on")])
            .send()
            .await
            .expect("sign");
        let html = signed.text().await.expect("html");
        let (action, fields) = posted_fields(&html);
        assert_eq!(action, "https://erp.example.test/signed", "{html}");
        assert_eq!(fields["ReturnStatus"], "Success", "{html}");
        assert_eq!(fields["Referencenumber"], reference);
        let results = open_hash_result(&sealed.session, profile, &fields["Returnvalue"]).expect("open Returnvalue");
        let status = app.get(&format!("/api/v1/gateway/transactions/{}", fields["Transactionnumber"]), &token).await;
        let status: serde_json::Value = status.json().await.expect("json");
        assert_eq!(status["signatureLevel"], "CAdES-B-LT", "{status}");
        assert_eq!(results.len(), documents.len());

        for (index, (result, (name, _, bytes))) in results.iter().zip(&documents).enumerate() {
            assert_eq!(&result.document_name, name, "in request order");
            assert_eq!(result.document_hash, sha256_hex(bytes));
            let cms = base64::engine::general_purpose::STANDARD.decode(&result.signature).expect("base64 CMS");
            let cms_path = dir.path().join(format!("{reference}-{index}.p7s"));
            let content_path = dir.path().join(format!("{reference}-{index}.bin"));
            std::fs::write(&cms_path, &cms).expect("write cms");
            std::fs::write(&content_path, bytes).expect("write content");
            let verify = |content: &std::path::Path| {
                Command::new("openssl")
                    .args(["cms", "-verify", "-binary", "-inform", "DER", "-in"])
                    .arg(&cms_path)
                    .arg("-content")
                    .arg(content)
                    .arg("-CAfile")
                    .arg(&ca)
                    .args(["-purpose", "any", "-crl_check_all", "-out", "/dev/null"])
                    .output()
                    .expect("openssl")
            };
            let output = verify(&content_path);
            assert!(
                output.status.success(),
                "openssl cms -verify of {name}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            // Other bytes do not verify against the same signature.
            let other = dir.path().join(format!("{reference}-{index}.other"));
            std::fs::write(&other, b"not the signed document").expect("write");
            assert!(!verify(&other).status.success(), "a different document must not verify");
            signed_hashes.push((cms, bytes.clone()));
        }
    }
    drop(tsa);
    let mut trust = signet_sigcrypto::pki::pem_blocks(&std::fs::read(&ca).expect("ca.pem")).expect("PEM");
    trust.extend(signet_sigcrypto::pki::pem_blocks(tsa_root.as_bytes()).expect("PEM"));
    let trust: Vec<Vec<u8>> = trust.into_iter().map(|(_, der)| der).collect();
    for (cms, content) in &signed_hashes {
        let report = signet_signing::verify_file_with(cms, Some(content), &trust, None).expect("report");
        assert!(report.valid, "{report:#?}");
        assert_eq!(report.signatures[0].pades_level.as_deref(), Some("B-LT"), "CAdES B-LT: {report:#?}");
    }
}
