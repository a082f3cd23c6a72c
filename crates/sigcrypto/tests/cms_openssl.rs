//! CMS output checked with `openssl cms -verify -binary`, plus openssl-made CMS checked by us.
mod common;
use common::*;

use signet_sigcrypto::cms::{self, CmsOptions};
use signet_sigcrypto::pki::{self, KeyAlgo};
use signet_sigcrypto::signer::{CallbackSigner, LocalKeySigner, RawSigner};

const DATA: &[u8] = b"line one\nline two\r\n\x00binary\xff tail without newline";

fn signer(pki: &Pki) -> LocalKeySigner {
    LocalKeySigner::from_pkcs8(&pki.signer.key_pkcs8_der, &pki.signer.cert_der, vec![pki.ca.cert_der().to_vec()])
        .expect("signer")
}

#[test]
fn detached_attached_and_digest_verify_in_openssl() -> TestResult {
    for algo in [KeyAlgo::Rsa2048, KeyAlgo::EcP256, KeyAlgo::Rsa3072] {
        let pki = Pki::new(algo);
        let s = signer(&pki);
        pki.write("data.bin", DATA);
        pki.write("tampered.bin", b"line one\nline two\r\n");

        let det = cms::sign_detached(&s, DATA, &CmsOptions::cades())?;
        pki.write("det.p7s", &det);
        let (ok, out) = openssl_cms_verify(pki.dir.path(), "det.p7s", Some("data.bin"), "ca.pem");
        assert!(ok, "{algo:?} detached: {out}");
        let (ok, out) = openssl_cms_verify(pki.dir.path(), "det.p7s", Some("tampered.bin"), "ca.pem");
        assert!(!ok, "tampered content must fail: {out}");

        let dig = cms::sign_digest_detached(&s, &pki::sha256(DATA), &CmsOptions::pades())?;
        let prepared = cms::prepare_signed_attrs(
            &pki::sha256(DATA),
            &pki.signer.cert_der,
            &[pki.ca.cert_der().to_vec()],
            &CmsOptions::pades(),
        )?;
        let est = cms::estimate_der_len(&prepared)?;
        assert!(est >= dig.len() && est <= dig.len() + 16, "{algo:?}: estimate {est} vs {}", dig.len());
        pki.write("dig.p7s", &dig);
        let (ok, out) = openssl_cms_verify(pki.dir.path(), "dig.p7s", Some("data.bin"), "ca.pem");
        assert!(ok, "{algo:?} digest: {out}");

        let att = cms::sign_attached(&s, DATA, &CmsOptions::cades())?;
        pki.write("att.p7m", &att);
        let (ok, out) = openssl_cms_verify(pki.dir.path(), "att.p7m", None, "ca.pem");
        assert!(ok, "{algo:?} attached: {out}");
        assert_eq!(std::fs::read(pki.path("verified.out"))?, DATA, "attached content must not be double-wrapped");

        // Our own checker agrees.
        cms::check_cms(&det, Some(DATA))?;
        cms::check_cms(&att, None)?;
        assert!(cms::check_cms(&det, Some(b"x")).is_err());
        assert_eq!(cms::encapsulated_content(&att)?.as_deref(), Some(DATA));
    }
    Ok(())
}

#[test]
fn signing_time_only_in_cades() -> TestResult {
    let pki = Pki::new(KeyAlgo::EcP256);
    let s = signer(&pki);
    for (name, opts, expect) in [("p.p7s", CmsOptions::pades(), false), ("c.p7s", CmsOptions::cades(), true)] {
        let der = cms::sign_detached(&s, DATA, &opts)?;
        pki.write(name, &der);
        let o = run(pki.dir.path(), "openssl", &["cms", "-cmsout", "-print", "-inform", "DER", "-in", name]);
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        assert_eq!(t.contains("signingTime"), expect, "{t}");
        assert!(t.contains("id-smime-aa-signingCertificateV2"), "{t}");
        assert!(t.contains("messageDigest"), "{t}");
        let sum = cms::check_cms(&der, Some(DATA))?;
        assert_eq!(sum.signing_time.is_some(), expect);
        assert_eq!(sum.common_name.as_deref(), Some("Test Signer"));
    }
    Ok(())
}

#[test]
fn deferred_signing_with_a_device() -> TestResult {
    let pki = Pki::new(KeyAlgo::Rsa2048);
    let local = signer(&pki);
    let digest = pki::sha256(DATA);
    // Phase 1: prepare, persist, hand der_to_sign to "the device".
    let prepared =
        cms::prepare_signed_attrs(&digest, local.certificate_der(), local.chain_der(), &CmsOptions::pades())?;
    let stored = serde_json::to_vec(&prepared)?;
    let device_sig = local.sign(&prepared.der_to_sign)?;
    // Phase 2: later, from storage.
    let restored: cms::SignedAttrs = serde_json::from_slice(&stored)?;
    let der = cms::assemble(&restored, &device_sig)?;
    pki.write("deferred.p7s", &der);
    pki.write("data.bin", DATA);
    let (ok, out) = openssl_cms_verify(pki.dir.path(), "deferred.p7s", Some("data.bin"), "ca.pem");
    assert!(ok, "{out}");
    cms::check_external_cms(&der, &digest)?;

    // A "raw RSA" device signs the DigestInfo: openssl pkeyutl plays the token.
    pki.write("digestinfo.bin", prepared.digest_info_to_sign());
    let o = run(
        pki.dir.path(),
        "openssl",
        &[
            "pkeyutl",
            "-sign",
            "-inkey",
            "signer.key",
            "-pkeyopt",
            "rsa_padding_mode:pkcs1",
            "-in",
            "digestinfo.bin",
            "-out",
            "raw.sig",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let der = cms::assemble(&prepared, &std::fs::read(pki.path("raw.sig"))?)?;
    pki.write("token.p7s", &der);
    let (ok, out) = openssl_cms_verify(pki.dir.path(), "token.p7s", Some("data.bin"), "ca.pem");
    assert!(ok, "{out}");

    // A callback signer (token behind a closure) is a RawSigner like any other.
    let key = pki.signer.key_pkcs8_der.clone();
    let cert = pki.signer.cert_der.clone();
    let inner = LocalKeySigner::from_pkcs8(&key, &cert, vec![])?;
    let cb = CallbackSigner::new(cert, vec![pki.ca.cert_der().to_vec()], move |tbs: &[u8]| inner.sign(tbs))?;
    let der = cms::sign_digest_detached(&cb, &digest, &CmsOptions::pades())?;
    pki.write("cb.p7s", &der);
    let (ok, out) = openssl_cms_verify(pki.dir.path(), "cb.p7s", Some("data.bin"), "ca.pem");
    assert!(ok, "{out}");
    Ok(())
}

#[test]
fn openssl_made_cms_checks_here() -> TestResult {
    for algo in [KeyAlgo::Rsa2048, KeyAlgo::EcP256] {
        let pki = Pki::new(algo);
        pki.write("data.bin", DATA);
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
                "-outform",
                "DER",
                "-out",
                "os.p7s",
            ],
        );
        assert!(o.status.success(), "{}", text(&o));
        let der = std::fs::read(pki.path("os.p7s"))?;
        let sum = cms::check_cms(&der, Some(DATA))?;
        assert_eq!(sum.common_name.as_deref(), Some("Test Signer"));
        cms::check_external_cms(&der, &pki::sha256(DATA))?;
        assert!(cms::check_external_cms(&der, &pki::sha256(b"nope")).is_err());
    }
    Ok(())
}

#[test]
fn truncated_and_garbage_cms_are_errors() -> TestResult {
    let pki = Pki::new(KeyAlgo::EcP256);
    let der = cms::sign_detached(&signer(&pki), DATA, &CmsOptions::cades())?;
    let d = pki::sha256(DATA);
    for cut in (0..der.len()).step_by(7) {
        assert!(cms::check_external_cms(&der[..cut], &d).is_err(), "cut at {cut}");
    }
    let mut flipped = der.clone();
    let n = flipped.len() - 5;
    flipped[n] ^= 0x01; // inside the signature value
    assert!(cms::check_external_cms(&flipped, &d).is_err());
    Ok(())
}
