//! The verifier on CMS made by openssl and by us, with and without time-stamps.
mod common;
use common::*;

use signet_sigcrypto::pki::KeyAlgo;
use signet_sigcrypto::verify::{self, Content, TrustStore, VerifyOptions};
use signet_sigcrypto::{HttpConfig, tsp};

#[test]
fn openssl_cms_with_our_timestamp_verifies() -> TestResult {
    let pki = Pki::new(KeyAlgo::Rsa2048);
    let tsa = Tsa::start(&pki);
    pki.write("data.bin", b"payload");
    let o = run(
        pki.dir.path(),
        "openssl",
        &[
            "cms",
            "-sign",
            "-binary",
            "-md",
            "sha256",
            "-in",
            "data.bin",
            "-signer",
            "signer.pem",
            "-inkey",
            "signer.key",
            "-certfile",
            "ca.pem",
            "-outform",
            "DER",
            "-out",
            "os.p7s",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let der = std::fs::read(pki.path("os.p7s"))?;
    let trust = TrustStore::from_pem(pki.ca.cert_pem().as_bytes())?;

    let r = verify::verify_cms(&der, Content::Detached(b"payload"), &trust, &VerifyOptions::default())?;
    assert!(r.valid, "{r:#?}");
    assert!(r.signers[0].timestamp.is_none());
    assert!(r.signers[0].claimed_signing_time.is_some(), "openssl adds signingTime");

    let stamped = tsp::add_signature_timestamp_with(&der, &tsa.url, &HttpConfig::allow_private())?;
    pki.write("stamped.p7s", &stamped);
    let (ok, out) = openssl_cms_verify(pki.dir.path(), "stamped.p7s", Some("data.bin"), "ca.pem");
    assert!(ok, "{out}");
    let r = verify::verify_cms(&stamped, Content::Detached(b"payload"), &trust, &VerifyOptions::default())?;
    assert!(r.valid, "{r:#?}");
    let ts = r.signers[0].timestamp.as_ref().expect("timestamp");
    assert!(ts.intact && ts.trusted && ts.gen_time.is_some(), "{ts:?}");
    // The report serializes (CLI --json).
    let json = serde_json::to_string(&r)?;
    assert!(json.contains("\"valid\":true"));

    // Untrusted root: intact but not trusted.
    let r =
        verify::verify_cms(&stamped, Content::Detached(b"payload"), &TrustStore::empty(), &VerifyOptions::default())?;
    assert!(r.signers[0].intact && !r.signers[0].trusted && !r.valid);
    // Wrong content.
    let r = verify::verify_cms(&stamped, Content::Detached(b"payload!"), &trust, &VerifyOptions::default())?;
    assert!(!r.valid && !r.signers[0].intact);
    Ok(())
}

#[test]
fn attached_openssl_cms_and_garbage() -> TestResult {
    let pki = Pki::new(KeyAlgo::EcP256);
    pki.write("data.bin", b"attached payload");
    let o = run(
        pki.dir.path(),
        "openssl",
        &[
            "cms",
            "-sign",
            "-binary",
            "-nodetach",
            "-md",
            "sha256",
            "-in",
            "data.bin",
            "-signer",
            "signer.pem",
            "-inkey",
            "signer.key",
            "-outform",
            "DER",
            "-out",
            "att.p7m",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let der = std::fs::read(pki.path("att.p7m"))?;
    let trust = TrustStore::from_pem(pki.ca.cert_pem().as_bytes())?;
    let r = verify::verify_cms(&der, Content::Embedded, &trust, &VerifyOptions::default())?;
    assert!(r.valid && r.attached, "{r:#?}");
    assert_eq!(verify::signer_digest_algorithm(&der)?, "sha256");
    for junk in [&b""[..], b"\x30\x00", &der[..der.len() / 2]] {
        assert!(verify::verify_cms(junk, Content::Embedded, &trust, &VerifyOptions::default()).is_err());
    }
    assert!(TrustStore::from_pem(b"").is_err());
    Ok(())
}

/// A CMS made without its signer's certificate (`openssl cms -sign -nocerts`) is well built but
/// cannot be checked: INDETERMINATE / NO_SIGNING_CERTIFICATE_FOUND (EN 319 102-1 §5.2.2), not a
/// format failure.
#[test]
fn a_signature_without_its_certificate_is_indeterminate() -> TestResult {
    use signet_sigcrypto::validation::{Indication, SubIndication};
    let pki = Pki::new(KeyAlgo::Rsa2048);
    pki.write("data.bin", b"payload");
    let o = run(
        pki.dir.path(),
        "openssl",
        &[
            "cms",
            "-sign",
            "-binary",
            "-nocerts",
            "-md",
            "sha256",
            "-in",
            "data.bin",
            "-signer",
            "signer.pem",
            "-inkey",
            "signer.key",
            "-outform",
            "DER",
            "-out",
            "bare.p7s",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let der = std::fs::read(pki.path("bare.p7s"))?;
    let trust = TrustStore::from_pem(pki.ca.cert_pem().as_bytes())?;
    let r = verify::verify_cms(&der, Content::Detached(b"payload"), &trust, &VerifyOptions::default())?;
    let signer = &r.signers[0];
    assert!(!r.valid && !signer.intact, "{r:#?}");
    assert_eq!(signer.indication, Indication::Indeterminate, "{signer:#?}");
    assert_eq!(signer.sub_indication, Some(SubIndication::NoSigningCertificateFound), "{signer:#?}");
    Ok(())
}
