//! PAdES B-T signatures whose signature time-stamp comes from TSAs we did not write, answering
//! the way real TSAs do (`signet_testkit::pki::TsaProfile`): pyHanko validates each PDF, and
//! Signet's verifier finds the time-stamp intact and trusted. The protocol cases themselves
//! (every answer taken or refused) are in `crates/sigcrypto/tests/tsa_answers.rs`.

use signet_sigcrypto::pki::KeyAlgo;
use signet_signing::{HttpConfig, LocalKeySigner, PadesLevel, PdfSignOptions};
use signet_testkit::pki::{TestTsa, TsaAccuracy, TsaHash, TsaProfile};

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[test]
fn pyhanko_tsa_microseconds_and_ess_v1() -> TestResult {
    b_t_validates_with(&TsaProfile::pyhanko())
}

#[test]
fn openssl_tsa_p384_microseconds_accuracy_ordering_ess_v1() -> TestResult {
    b_t_validates_with(&TsaProfile {
        key: KeyAlgo::EcP384,
        signer_digest: TsaHash::Sha384,
        clock_precision_digits: 6,
        accuracy: Some(TsaAccuracy { secs: 0, millis: 500, micros: 100 }),
        ordering: true,
        ess_cert_id: TsaHash::Sha1,
        ..TsaProfile::default()
    })
}

#[test]
fn openssl_tsa_p256_ess_v2_sha512_without_name_or_accuracy() -> TestResult {
    b_t_validates_with(&TsaProfile {
        key: KeyAlgo::EcP256,
        accuracy: None,
        tsa_name: false,
        ess_cert_id: TsaHash::Sha512,
        ..TsaProfile::default()
    })
}

fn b_t_validates_with(profile: &TsaProfile) -> TestResult {
    let tsa = TestTsa::start_with(profile);
    let signer = tsa.root.signer("PDF Signer", None);
    let key =
        LocalKeySigner::from_pkcs8(&signer.key_pkcs8_der, &signer.cert_der, vec![tsa.root.ca.cert_der().to_vec()])?;
    let options = PdfSignOptions {
        level: PadesLevel::BT,
        tsa_url: Some(tsa.url.clone()),
        http: HttpConfig::allow_private(),
        ..PdfSignOptions::default()
    };
    let signed = signet_signing::sign_pdf(&signet_testkit::pdf::one_page("Time-stamped"), &key, &options)?;

    let report = signet_testkit::validators::pyhanko_validates(&signed, &[tsa.root_pem.as_bytes()]);
    assert!(
        report.contains("The timestamp token is cryptographically sound.")
            && report.contains("The TSA certificate is trusted."),
        "{report}"
    );
    let ours = signet_signing::verify_file(&signed, &[tsa.root.ca.cert_der().to_vec()])?;
    let signature = &ours.signatures[0];
    assert_eq!(signature.pades_level.as_deref(), Some("B-T"), "{ours:#?}");
    assert!(signature.timestamp.as_ref().is_some_and(|t| t.intact && t.trusted), "{ours:#?}");
    assert!(ours.valid, "{ours:#?}");
    Ok(())
}
