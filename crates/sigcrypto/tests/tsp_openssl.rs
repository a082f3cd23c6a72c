//! RFC 3161 client against a real `openssl ts -reply` TSA; tokens checked with `openssl ts -verify`.
mod common;
use common::*;

use signet_sigcrypto::cms::{self, CmsOptions};
use signet_sigcrypto::pki::{self, KeyAlgo};
use signet_sigcrypto::signer::LocalKeySigner;
use signet_sigcrypto::{HttpConfig, tsp};

#[test]
fn document_timestamp_token_verifies_in_openssl() -> TestResult {
    let pki = Pki::new(KeyAlgo::EcP256);
    let tsa = Tsa::start(&pki);
    let digest = pki::sha256(b"document bytes");
    let token = tsp::timestamp_token_with(&digest, &tsa.url, &HttpConfig::allow_private())?;
    pki.write("token.der", &token);
    let o = run(
        pki.dir.path(),
        "openssl",
        &[
            "ts",
            "-verify",
            "-token_in",
            "-in",
            "token.der",
            "-digest",
            &hex::encode(digest),
            "-CAfile",
            "ca.pem",
            "-untrusted",
            "tsa.pem",
        ],
    );
    assert!(text(&o).contains("Verification: OK"), "{}", text(&o));
    let info = tsp::check_token(&token, &digest)?;
    assert!(info.tsa_subject.contains("Signet Test TSA"), "{info:?}");
    assert_eq!(info.policy, "1.2.3.4.1");
    assert!(tsp::check_token(&token, &pki::sha256(b"other")).is_err());
    Ok(())
}

#[test]
fn private_tsa_refused_by_default_policy() -> TestResult {
    let pki = Pki::new(KeyAlgo::EcP256);
    let tsa = Tsa::start(&pki);
    let err = tsp::timestamp_token(&[1u8; 32], &tsa.url).expect_err("private address");
    assert!(err.to_string().contains("not a public address"), "{err}");
    Ok(())
}

#[test]
fn signature_timestamp_keeps_cms_valid() -> TestResult {
    let pki = Pki::new(KeyAlgo::Rsa2048);
    let tsa = Tsa::start(&pki);
    let s =
        LocalKeySigner::from_pkcs8(&pki.signer.key_pkcs8_der, &pki.signer.cert_der, vec![pki.ca.cert_der().to_vec()])?;
    let data = b"CAdES-T content";
    let der = cms::sign_detached(&s, data, &CmsOptions::cades())?;
    let with_ts = tsp::add_signature_timestamp_with(&der, &tsa.url, &HttpConfig::allow_private())?;
    pki.write("t.p7s", &with_ts);
    pki.write("data.bin", data);
    let (ok, out) = openssl_cms_verify(pki.dir.path(), "t.p7s", Some("data.bin"), "ca.pem");
    assert!(ok, "{out}");
    let o = run(pki.dir.path(), "openssl", &["cms", "-cmsout", "-print", "-inform", "DER", "-in", "t.p7s"]);
    assert!(text(&o).contains("id-smime-aa-timeStampToken"), "{}", text(&o));
    // The token's imprint is the hash of the signature value; openssl agrees.
    let tokens = tsp::signature_timestamp_tokens(&with_ts)?;
    assert_eq!(tokens.len(), 1);
    pki.write("sigtoken.der", &tokens[0]);
    let sig_digest = pki::sha256(&cms::signature_values(&with_ts)?[0]);
    let o = run(
        pki.dir.path(),
        "openssl",
        &[
            "ts",
            "-verify",
            "-token_in",
            "-in",
            "sigtoken.der",
            "-digest",
            &hex::encode(sig_digest),
            "-CAfile",
            "ca.pem",
            "-untrusted",
            "tsa.pem",
        ],
    );
    assert!(text(&o).contains("Verification: OK"), "{}", text(&o));
    tsp::check_token(&tokens[0], &sig_digest)?;
    let sum = cms::check_cms(&with_ts, Some(data))?;
    assert!(sum.has_signature_timestamp);
    // Stamping twice replaces, it does not stack.
    let twice = tsp::add_signature_timestamp_with(&with_ts, &tsa.url, &HttpConfig::allow_private())?;
    assert_eq!(tsp::signature_timestamp_tokens(&twice)?.len(), 1);
    Ok(())
}

#[test]
fn tsa_errors_are_reported() -> TestResult {
    // Nothing listens on this port: a connection error, not a panic.
    let err = tsp::timestamp_token_with(&[0u8; 32], "http://127.0.0.1:9/", &HttpConfig::allow_private());
    assert!(err.is_err());
    assert!(tsp::timestamp_token(&[0u8; 32], "ftp://x/").is_err());
    Ok(())
}
