//! `lta_protection`: until when a PDF's newest document time-stamp protects it. A B-LTA
//! document stamped by a TSA whose certificate lives 20 days is protected for 20 days; renewed
//! through a TSA with a two-year certificate, for two years; a B-T document has no document
//! time-stamp to renew.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use signet_signing::{HttpConfig, ImprintHash, LocalKeySigner, PadesLevel, PdfSignOptions, ValidationData};
use signet_testkit::pdf::one_page;
use signet_testkit::pki::{TestPki, TestTsa, TsaProfile};

const DAY: u64 = 86_400;

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

fn opts(level: PadesLevel, tsa: &TestTsa, pki: &TestPki) -> PdfSignOptions {
    let crl = pki.ca.issue_crl(&[], Duration::from_secs(7 * DAY)).unwrap();
    PdfSignOptions {
        level,
        tsa_url: Some(tsa.url.clone()),
        http: HttpConfig::allow_private(),
        validation: ValidationData { certs: vec![pki.ca.cert_der().to_vec()], crls: vec![crl], ocsps: Vec::new() },
        ..PdfSignOptions::default()
    }
}

#[test]
fn the_newest_document_timestamp_says_until_when_a_document_is_protected() {
    let pki = TestPki::new("LTA Test CA");
    let issued = pki.signer("Renewal Signer", None);
    let signer = LocalKeySigner::from_pkcs8(&issued.key_pkcs8_der, &issued.cert_der, vec![pki.ca.cert_der().to_vec()])
        .expect("signer");
    let short =
        TestTsa::start_with(&TsaProfile { validity: Some(Duration::from_secs(20 * DAY)), ..TsaProfile::default() });
    let long = TestTsa::start();

    let bt = signet_signing::sign_pdf(&one_page("lta"), &signer, &opts(PadesLevel::BT, &short, &pki)).unwrap();
    assert_eq!(signet_signing::lta_protection(&bt).unwrap(), None, "B-T: no document time-stamp");
    assert!(!signet_signing::ends_with_document_timestamp(&bt).unwrap());

    let lta = signet_signing::extend_pdf(&bt, &opts(PadesLevel::BLTA, &short, &pki)).unwrap();
    assert!(signet_signing::ends_with_document_timestamp(&lta).unwrap());
    let first = signet_signing::lta_protection(&lta).unwrap().expect("a document time-stamp");
    assert_eq!(first.hash, ImprintHash::Sha256);
    let in_20_days = now() + 20 * DAY;
    assert!(first.expires_at_unix.abs_diff(in_20_days) < 2 * 3600, "{first:?}");
    assert!(first.tsa_subject.contains("Test TSA"), "{first:?}");

    let renewed = signet_signing::extend_pdf(&lta, &opts(PadesLevel::BLTA, &long, &pki)).unwrap();
    let second = signet_signing::lta_protection(&renewed).unwrap().expect("a document time-stamp");
    assert!(second.expires_at_unix > now() + 700 * DAY, "the newest time-stamp counts: {second:?}");
    assert!(second.stamped_at_unix >= first.stamped_at_unix);

    // What the configured TSA's own time-stamps would last, asked of it.
    let of_short = signet_signing::tsa_protection(&short.url, &HttpConfig::allow_private()).unwrap();
    assert_eq!(of_short.expires_at_unix, first.expires_at_unix);

    // A changed byte under the time-stamp: it protects nothing, and says so.
    let mut broken = renewed.clone();
    let at = broken.len() / 3;
    broken[at] ^= 0x01;
    assert!(signet_signing::lta_protection(&broken).is_err());
}
