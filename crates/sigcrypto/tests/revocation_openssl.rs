//! OCSP against `openssl ocsp` and CRLs over HTTP; responses re-checked with openssl.
mod common;
use common::*;

use signet_sigcrypto::HttpConfig;
use signet_sigcrypto::chain;
use signet_sigcrypto::pki::{IssueOptions, KeyAlgo};
use signet_sigcrypto::revocation::{self, RevocationStatus};

#[test]
fn ocsp_and_crl_fetching() -> TestResult {
    let pki = Pki::new(KeyAlgo::Rsa2048);
    let (_crl_srv, crl_port) = static_server(pki.dir.path());
    let ocsp_port = free_port();
    let opts = IssueOptions {
        ocsp_url: Some(format!("http://127.0.0.1:{ocsp_port}/")),
        crl_url: Some(format!("http://127.0.0.1:{crl_port}/ca.crl")),
        ca_issuers_url: Some(format!("http://127.0.0.1:{crl_port}/ca.cer")),
        ..Default::default()
    };
    let good = pki.ca.issue_signer_with("Good Signer", KeyAlgo::Rsa2048, &opts)?;
    let bad = pki.ca.issue_signer_with("Revoked Signer", KeyAlgo::EcP256, &opts)?;
    pki.write("good.pem", good.cert_pem());
    pki.write("bad.pem", bad.cert_pem());

    // CRL listing the revoked one, served over HTTP; openssl accepts its signature.
    let bad_serial = hex::decode(openssl_serial(pki.dir.path(), "bad.pem"))?;
    let crl = pki.ca.issue_crl(&[bad_serial], std::time::Duration::from_secs(86400))?;
    pki.write("ca.crl", &crl);
    let o = run(pki.dir.path(), "openssl", &["crl", "-in", "ca.crl", "-inform", "DER", "-CAfile", "ca.pem", "-noout"]);
    assert!(text(&o).contains("verify OK"), "{}", text(&o));

    let cfg = HttpConfig::allow_private();
    let ca = pki.ca.cert_der().to_vec();
    assert_eq!(revocation::crl_urls(&good.cert_der), vec![format!("http://127.0.0.1:{crl_port}/ca.crl")]);
    let (_, info) = revocation::fetch_crl(&revocation::crl_urls(&good.cert_der)[0], &good.cert_der, &ca, &cfg)?;
    assert_eq!(info.status, RevocationStatus::Good);
    let (_, info) = revocation::fetch_crl(&revocation::crl_urls(&bad.cert_der)[0], &bad.cert_der, &ca, &cfg)?;
    assert_eq!(info.status, RevocationStatus::Revoked);

    // The issuer is found through AIA caIssuers when it is not in the pool.
    pki.write("ca.cer", &ca);
    assert_eq!(revocation::complete_chain(&good.cert_der, &[], &cfg)?, vec![good.cert_der.clone(), ca.clone()]);
    assert_eq!(chain::build_chain(&good.cert_der, &[])?, vec![good.cert_der.clone()]);

    // OCSP responder not running yet: collect falls back to the CRL.
    let chain = chain::build_chain(&good.cert_der, &[ca.clone(), bad.cert_der.clone()])?;
    assert_eq!(chain, vec![good.cert_der.clone(), ca.clone()]);
    let data = revocation::collect_revocation_data(&chain, &cfg);
    assert!(data.ocsps_der.is_empty() && data.crls_der.len() == 1 && data.missing.is_empty(), "{data:?}");

    // Now with a real OCSP responder on the advertised port.
    let ocsp = ocsp_responder(&pki, ocsp_port, &[("good.pem", false), ("bad.pem", true)]);
    let (resp, info) = revocation::fetch_ocsp(&good.cert_der, &ca, None, &cfg)?;
    assert_eq!(info.status, RevocationStatus::Good);
    pki.write("good.ocsp", &resp);
    let o = run(
        pki.dir.path(),
        "openssl",
        &["ocsp", "-respin", "good.ocsp", "-issuer", "ca.pem", "-cert", "good.pem", "-CAfile", "ca.pem"],
    );
    let t = text(&o);
    assert!(t.contains("Response verify OK") && t.contains("good.pem: good"), "{t}");
    let (_, info) = revocation::fetch_ocsp(&bad.cert_der, &ca, None, &cfg)?;
    assert_eq!(info.status, RevocationStatus::Revoked);
    let data = revocation::collect_revocation_data(&chain, &cfg);
    assert_eq!(data.ocsps_der.len(), 1, "{data:?}");
    assert_eq!(data.certs_der.len(), 2);
    // The response does not fit another certificate.
    assert!(revocation::check_ocsp_response(&resp, &bad.cert_der, &ca).is_err());
    drop(ocsp);
    Ok(())
}

#[test]
fn crl_over_https_with_private_roots() -> TestResult {
    let pki = Pki::new(KeyAlgo::EcP256);
    let tls = pki.ca.issue_tls_server(&["127.0.0.1", "localhost"])?;
    pki.write("tls.pem", tls.cert_pem());
    pki.write("tls.key", tls.key_pem());
    let crl = pki.ca.issue_crl(&[], std::time::Duration::from_secs(3600))?;
    pki.write("ca.crl", &crl);
    let port = free_port();
    let log = std::fs::File::create(pki.path("s_server.log"))?;
    let child = std::process::Command::new("openssl")
        .args(["s_server", "-accept", &format!("127.0.0.1:{port}"), "-cert", "tls.pem", "-key", "tls.key", "-WWW"])
        .current_dir(pki.dir.path())
        .stdin(std::process::Stdio::null())
        .stdout(log)
        .stderr(std::process::Stdio::null())
        .spawn()?;
    let mut guard = ChildGuard(child);
    await_log(&mut guard.0, &pki.path("s_server.log"), "ACCEPT", "openssl s_server");
    let url = format!("https://127.0.0.1:{port}/ca.crl");
    let ca = pki.ca.cert_der().to_vec();
    let mut cfg = HttpConfig::allow_private();
    // Mozilla roots do not know our CA: refused.
    let err = revocation::fetch_crl(&url, &pki.signer.cert_der, &ca, &cfg).expect_err("untrusted TLS");
    assert!(err.to_string().contains("UnknownIssuer"), "{err}");
    cfg.tls_roots_der = vec![ca.clone()];
    let (der, info) = revocation::fetch_crl(&url, &pki.signer.cert_der, &ca, &cfg)?;
    assert_eq!(der, crl);
    assert_eq!(info.status, RevocationStatus::Good);
    Ok(())
}
