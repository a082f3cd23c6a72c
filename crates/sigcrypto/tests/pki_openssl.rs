//! PKI module checked with openssl: certificates verify, extensions are right, PKCS#12 interop.
mod common;
use common::*;

use signet_sigcrypto::pki::{self, IssueOptions, KeyAlgo, LocalCa};

#[test]
fn issued_certs_verify_with_openssl() -> TestResult {
    let pki = Pki::new(KeyAlgo::Rsa2048);
    let dir = pki.dir.path();
    let o = run(dir, "openssl", &["verify", "-CAfile", "ca.pem", "signer.pem"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(dir, "openssl", &["x509", "-in", "signer.pem", "-noout", "-text"]);
    let t = text(&o);
    assert!(t.contains("Digital Signature, Non Repudiation"), "{t}");
    assert!(t.contains("Public-Key: (2048 bit)"), "{t}");
    // The key we hand out matches the certificate.
    let o = run(dir, "openssl", &["pkey", "-in", "signer.key", "-pubout"]);
    let k = String::from_utf8_lossy(&o.stdout).to_string();
    let o = run(dir, "openssl", &["x509", "-in", "signer.pem", "-noout", "-pubkey"]);
    assert_eq!(k, String::from_utf8_lossy(&o.stdout));
    Ok(())
}

#[test]
fn rsa3072_ca_and_ec_signer() -> TestResult {
    let pki = Pki::new(KeyAlgo::EcP256);
    let ca = LocalCa::generate("RSA Root")?;
    let ee = ca.issue_signer("EC Leaf", KeyAlgo::EcP256)?;
    pki.write("rsaca.pem", ca.cert_pem());
    pki.write("ecleaf.pem", ee.cert_pem());
    let o = run(pki.dir.path(), "openssl", &["verify", "-CAfile", "rsaca.pem", "ecleaf.pem"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(pki.dir.path(), "openssl", &["x509", "-in", "rsaca.pem", "-noout", "-text"]);
    let t = text(&o);
    assert!(t.contains("(3072 bit)") && t.contains("CA:TRUE"), "{t}");
    Ok(())
}

#[test]
fn tsa_and_aia_extensions() -> TestResult {
    let pki = Pki::new(KeyAlgo::EcP256);
    let tsa = pki.ca.issue_tsa("Test TSA")?;
    pki.write("tsa.pem", tsa.cert_pem());
    let o = run(pki.dir.path(), "openssl", &["x509", "-in", "tsa.pem", "-noout", "-ext", "extendedKeyUsage"]);
    let t = text(&o);
    assert!(t.contains("critical") && t.contains("Time Stamping"), "{t}");
    let o = run(pki.dir.path(), "openssl", &["verify", "-purpose", "timestampsign", "-CAfile", "ca.pem", "tsa.pem"]);
    assert!(o.status.success(), "{}", text(&o));

    let opts = IssueOptions {
        ocsp_url: Some("http://127.0.0.1:1/ocsp".into()),
        ca_issuers_url: Some("http://127.0.0.1:1/ca.cer".into()),
        crl_url: Some("http://127.0.0.1:1/ca.crl".into()),
        ..Default::default()
    };
    let ee = pki.ca.issue_signer_with("LT signer", KeyAlgo::Rsa2048, &opts)?;
    pki.write("lt.pem", ee.cert_pem());
    let o = run(
        pki.dir.path(),
        "openssl",
        &["x509", "-in", "lt.pem", "-noout", "-ocsp_uri", "-ext", "crlDistributionPoints,authorityInfoAccess"],
    );
    let t = text(&o);
    assert!(t.contains("OCSP - URI:http://127.0.0.1:1/ocsp"), "{t}");
    assert!(t.contains("CA Issuers - URI:http://127.0.0.1:1/ca.cer"), "{t}");
    assert!(t.contains("URI:http://127.0.0.1:1/ca.crl"), "{t}");
    Ok(())
}

#[test]
fn self_signed_sizes() -> TestResult {
    for bits in [2048usize, 3072] {
        let c = pki::self_signed_rsa("Gateway", bits)?;
        let dir = tempfile::tempdir()?;
        std::fs::write(dir.path().join("g.pem"), c.cert_pem())?;
        let o = run(dir.path(), "openssl", &["x509", "-in", "g.pem", "-noout", "-text"]);
        assert!(text(&o).contains(&format!("({bits} bit)")), "{}", text(&o));
        let o = run(dir.path(), "openssl", &["verify", "-CAfile", "g.pem", "g.pem"]);
        assert!(o.status.success(), "{}", text(&o));
    }
    Ok(())
}

fn openssl_p12(pki: &Pki, legacy: bool) -> Vec<u8> {
    let mut args = vec![
        "pkcs12",
        "-export",
        "-inkey",
        "signer.key",
        "-in",
        "signer.pem",
        "-certfile",
        "ca.pem",
        "-passout",
        "pass:s3cret",
        "-out",
        "o.p12",
    ];
    if legacy {
        args.push("-legacy");
    }
    let o = run(pki.dir.path(), "openssl", &args);
    assert!(o.status.success(), "{}", text(&o));
    std::fs::read(pki.path("o.p12")).expect("p12")
}

#[test]
fn load_openssl_p12_modern_and_legacy() -> TestResult {
    for algo in [KeyAlgo::Rsa2048, KeyAlgo::EcP256] {
        let pki = Pki::new(algo);
        for legacy in [false, true] {
            let bytes = openssl_p12(&pki, legacy);
            let kc = pki::load_p12(&bytes, "s3cret")?;
            assert_eq!(kc.cert_der, pki.signer.cert_der, "legacy={legacy}");
            assert_eq!(kc.chain_der, vec![pki.ca.cert_der().to_vec()]);
            assert_eq!(
                pki::public_key_spki_from_pkcs8(&kc.key_pkcs8_der)?,
                pki::public_key_spki_from_pkcs8(&pki.signer.key_pkcs8_der)?
            );
            let err = pki::load_p12(&bytes, "wrong").expect_err("wrong password must fail");
            assert!(err.to_string().contains("PKCS#12"), "{err}");
            // Truncations never panic.
            for cut in [1, 10, bytes.len() / 2, bytes.len() - 1] {
                assert!(pki::load_p12(&bytes[..cut], "s3cret").is_err());
            }
        }
    }
    Ok(())
}

#[test]
fn write_p12_reads_in_openssl() -> TestResult {
    let pki = Pki::new(KeyAlgo::Rsa2048);
    let bytes = pki::write_p12(&pki.signer.key_pkcs8_der, &pki.signer.cert_der, &[pki.ca.cert_der().to_vec()], "pw")?;
    pki.write("ours.p12", &bytes);
    let o = run(
        pki.dir.path(),
        "openssl",
        &["pkcs12", "-in", "ours.p12", "-passin", "pass:pw", "-nodes", "-out", "dump.pem"],
    );
    assert!(o.status.success(), "{}", text(&o));
    let dump = std::fs::read_to_string(pki.path("dump.pem"))?;
    assert!(dump.contains("PRIVATE KEY"));
    assert_eq!(dump.matches("BEGIN CERTIFICATE").count(), 2);
    // And it round-trips through our own reader.
    let kc = pki::load_p12(&bytes, "pw")?;
    assert_eq!(kc.cert_der, pki.signer.cert_der);
    // A mismatched key is refused.
    let other = pki.ca.issue_signer("Other", KeyAlgo::Rsa2048)?;
    assert!(pki::write_p12(&other.key_pkcs8_der, &pki.signer.cert_der, &[], "pw").is_err());
    Ok(())
}

#[test]
fn pem_helpers() -> TestResult {
    let pki = Pki::new(KeyAlgo::Rsa2048);
    let bundle = format!("junk\n{}{}", pki.signer.cert_pem(), pki.ca.cert_pem());
    let certs = pki::certs_from_pem_or_der(bundle.as_bytes())?;
    assert_eq!(certs.len(), 2);
    assert_eq!(pki::certs_from_pem_or_der(&pki.signer.cert_der)?, vec![pki.signer.cert_der.clone()]);
    // PKCS#1 "RSA PRIVATE KEY" from openssl is normalised to PKCS#8.
    let o = run(pki.dir.path(), "openssl", &["rsa", "-in", "signer.key", "-traditional", "-out", "pkcs1.key"]);
    assert!(o.status.success(), "{}", text(&o));
    let pem = std::fs::read_to_string(pki.path("pkcs1.key"))?;
    assert!(pem.contains("BEGIN RSA PRIVATE KEY"));
    let k = pki::private_key_from_pem(&pem)?;
    assert_eq!(pki::public_key_spki_from_pkcs8(&k)?, pki::public_key_spki_from_pkcs8(&pki.signer.key_pkcs8_der)?);
    // SEC1 "EC PRIVATE KEY"
    let ec = Pki::new(KeyAlgo::EcP256);
    let o = run(ec.dir.path(), "openssl", &["ec", "-in", "signer.key", "-out", "sec1.key"]);
    assert!(o.status.success(), "{}", text(&o));
    let pem = std::fs::read_to_string(ec.path("sec1.key"))?;
    assert!(pem.contains("BEGIN EC PRIVATE KEY"), "{pem}");
    let k = pki::private_key_from_pem(&pem)?;
    assert_eq!(pki::public_key_spki_from_pkcs8(&k)?, pki::public_key_spki_from_pkcs8(&ec.signer.key_pkcs8_der)?);
    Ok(())
}

#[test]
fn p12_edge_cases() -> TestResult {
    let pki = Pki::new(KeyAlgo::Rsa2048);
    // An unrelated certificate in the bundle is not part of the chain.
    let stranger = LocalCa::generate_with("Stranger CA", KeyAlgo::EcP256)?;
    pki.write("bundle.pem", format!("{}{}", stranger.cert_pem(), pki.ca.cert_pem()));
    let o = run(
        pki.dir.path(),
        "openssl",
        &[
            "pkcs12",
            "-export",
            "-inkey",
            "signer.key",
            "-in",
            "signer.pem",
            "-certfile",
            "bundle.pem",
            "-passout",
            "pass:x",
            "-out",
            "b.p12",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let kc = pki::load_p12(&std::fs::read(pki.path("b.p12"))?, "x")?;
    assert_eq!(kc.cert_der, pki.signer.cert_der);
    assert_eq!(kc.chain_der, vec![pki.ca.cert_der().to_vec()]);
    // Certificates only: a clear error.
    let o = run(
        pki.dir.path(),
        "openssl",
        &["pkcs12", "-export", "-nokeys", "-in", "ca.pem", "-passout", "pass:x", "-out", "c.p12"],
    );
    assert!(o.status.success(), "{}", text(&o));
    let err = pki::load_p12(&std::fs::read(pki.path("c.p12"))?, "x").expect_err("no key");
    assert!(err.to_string().contains("no private key"), "{err}");
    // Empty password works both ways.
    let bytes = pki::write_p12(&pki.signer.key_pkcs8_der, &pki.signer.cert_der, &[], "")?;
    assert_eq!(pki::load_p12(&bytes, "")?.cert_der, pki.signer.cert_der);
    Ok(())
}
