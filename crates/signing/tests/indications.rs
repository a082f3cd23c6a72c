//! Plugtest-style groups (issue 32, item 3): signatures made with the local CA, its OCSP
//! responder (`openssl ocsp`), CRLs and TSA (`openssl ts`), then revoked, expired, untrusted or
//! broken; each must get its EN 319 102-1 main and sub-indication, judged at the time its
//! time-stamp proves (POE), from the revocation data the document carries.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::{Duration, SystemTime};

use common::*;
use signet_sigcrypto::pki::{IssueOptions, KeyAlgo};
use signet_signing::{Indication, PadesLevel, PdfSignOptions, SignatureReport, SubIndication, ValidationData};

fn opts(pki: &Pki, level: PadesLevel) -> PdfSignOptions {
    PdfSignOptions { level, tsa_url: Some(pki.tsa_url.clone()), http: pki.http(), ..Default::default() }
}

fn verdict(pdf: &[u8], trust: &[Vec<u8>]) -> SignatureReport {
    signet_signing::verify_file(pdf, trust).unwrap().signatures.remove(0)
}

fn indication(report: &SignatureReport) -> (Indication, Option<SubIndication>) {
    (report.indication.expect("an indication"), report.sub_indication)
}

fn serial(cert_der: &[u8]) -> Vec<u8> {
    signet_sigcrypto::pki::parse_cert(cert_der).unwrap().tbs_certificate.serial_number.as_bytes().to_vec()
}

/// The signer's certificate revoked at `at`, as a CRL from its CA added to the document's DSS
/// (with the OCSP answer the extension fetches, which still says good: a revoked answer wins).
fn extended_with_revocation(pki: &Pki, signed: &[u8], at: SystemTime) -> Vec<u8> {
    let crl =
        pki.ca.issue_crl_revoked_at(&[(serial(&pki.signers[0].cert_der), at)], Duration::from_secs(86_400)).unwrap();
    let mut o = opts(pki, PadesLevel::BLT);
    o.validation = ValidationData { crls: vec![crl], ..Default::default() };
    signet_signing::extend_pdf(signed, &o).unwrap()
}

#[test]
fn revocation_before_and_after_a_time_stamped_signing() {
    let pki = pki(1);
    let input = reportlab_pdf(1);
    let passed = (Indication::TotalPassed, None);

    // Time-stamped, long-term, never revoked.
    let lt = signet_signing::sign_pdf(&input, &pki.signer(0), &opts(&pki, PadesLevel::BLT)).unwrap();
    let report = verdict(&lt, &pki.trust());
    assert_eq!(indication(&report), passed, "{report:#?}");
    assert!(report.valid);

    // Time-stamped, then revoked two seconds later: the signature came first.
    let bt = signet_signing::sign_pdf(&input, &pki.signer(0), &opts(&pki, PadesLevel::BT)).unwrap();
    std::thread::sleep(Duration::from_secs(2));
    let revoked_after = extended_with_revocation(&pki, &bt, SystemTime::now());
    let report = verdict(&revoked_after, &pki.trust());
    assert_eq!(indication(&report), passed, "{report:#?}");
    assert!(report.valid, "{report:#?}");

    // Revoked an hour before the time-stamped signing.
    let revoked_before = extended_with_revocation(&pki, &bt, SystemTime::now() - Duration::from_secs(3600));
    let report = verdict(&revoked_before, &pki.trust());
    assert_eq!(indication(&report), (Indication::TotalFailed, Some(SubIndication::Revoked)), "{report:#?}");
    assert!(!report.valid);

    // Revoked, and no time-stamp says when the signature was made.
    let bb = signet_signing::sign_pdf(&input, &pki.signer(0), &opts(&pki, PadesLevel::BB)).unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let no_poe = extended_with_revocation(&pki, &bb, SystemTime::now());
    let report = verdict(&no_poe, &pki.trust());
    assert_eq!(indication(&report), (Indication::Indeterminate, Some(SubIndication::RevokedNoPoe)), "{report:#?}");
    assert!(!report.valid);

    // No signature time-stamp, but a document time-stamp over it (B-LTA) proves it existed
    // before the revocation.
    let lta = signet_signing::extend_pdf(&bb, &opts(&pki, PadesLevel::BLTA)).unwrap();
    std::thread::sleep(Duration::from_secs(2));
    let archived_then_revoked = extended_with_revocation(&pki, &lta, SystemTime::now());
    let report = verdict(&archived_then_revoked, &pki.trust());
    assert_eq!(indication(&report), passed, "{report:#?}");
    assert!(report.valid, "{report:#?}");

    // Time-stamped but no revocation data in the document, though the certificate names an
    // OCSP responder: the status could not be checked (the verdict for people still holds).
    let report = verdict(&bt, &pki.trust());
    assert_eq!(indication(&report), (Indication::Indeterminate, Some(SubIndication::TryLater)), "{report:#?}");
    assert!(report.valid);

    // Not from a trusted authority; and signed bytes changed.
    let report = verdict(&lt, &[]);
    assert_eq!(
        indication(&report),
        (Indication::Indeterminate, Some(SubIndication::NoCertificateChainFound)),
        "{report:#?}"
    );
    let mut tampered = lt.clone();
    // A byte inside the signed range (reportlab's header comment): nothing else changes.
    let at = tampered.windows(9).position(|w| w == b"ReportLab").expect("reportlab's comment");
    tampered[at] = b'r';
    let report = verdict(&tampered, &pki.trust());
    assert_eq!(indication(&report), (Indication::TotalFailed, Some(SubIndication::HashFailure)), "{report:#?}");
}

#[test]
fn expiry_after_a_time_stamped_signing_is_no_failure() {
    let pki = pki(0);
    // A signer certificate that expires four seconds from now (its OCSP and CRL pointers as
    // the other signers'), signed with and without a time-stamp while it is valid.
    let short = IssueOptions { validity: Some(Duration::from_secs(4)), ..Default::default() };
    let issued = pki.ca.issue_signer_with("Short-lived Signer", KeyAlgo::EcP256, &short).unwrap();
    let signer = signet_signing::LocalKeySigner::from_pkcs8(
        &issued.key_pkcs8_der,
        &issued.cert_der,
        vec![pki.ca.cert_der().to_vec()],
    )
    .unwrap();
    let input = reportlab_pdf(1);
    let bt = signet_signing::sign_pdf(&input, &signer, &opts(&pki, PadesLevel::BT)).unwrap();
    let bb = signet_signing::sign_pdf(&input, &signer, &opts(&pki, PadesLevel::BB)).unwrap();
    std::thread::sleep(Duration::from_secs(5));
    // It names no revocation source, so only time decides.
    let report = verdict(&bt, &pki.trust());
    assert_eq!(indication(&report), (Indication::TotalPassed, None), "{report:#?}");
    assert!(report.valid, "{report:#?}");
    let report = verdict(&bb, &pki.trust());
    assert_eq!(indication(&report), (Indication::Indeterminate, Some(SubIndication::OutOfBoundsNoPoe)), "{report:#?}");
    assert!(!report.valid);
}

#[test]
fn document_time_stamps_get_their_own_indication() {
    let pki = pki(1);
    let lta = signet_signing::sign_pdf(&reportlab_pdf(1), &pki.signer(0), &opts(&pki, PadesLevel::BLTA)).unwrap();
    let stamp_of = |pdf: &[u8], trust: &[Vec<u8>]| {
        let report = signet_signing::verify_file(pdf, trust).unwrap();
        report.signatures.into_iter().find(|s| s.kind == "document-timestamp").expect("a document time-stamp")
    };
    let stamp = stamp_of(&lta, &pki.trust());
    assert_eq!(indication(&stamp), (Indication::TotalPassed, None), "{stamp:#?}");
    let untrusted = stamp_of(&lta, &[]);
    assert_eq!(indication(&untrusted), (Indication::Indeterminate, Some(SubIndication::NoCertificateChainFound)));
    // The token's imprint (the digest of the bytes it stamps, inside /Contents) altered: the
    // token's own signed digest no longer matches either.
    let info = signet_pdf::signatures(&lta).unwrap().into_iter().find(|i| i.sub_filter == "ETSI.RFC3161").unwrap();
    let imprint = hex::encode_upper(info.digest);
    let gap = (info.byte_range[0] + info.byte_range[1]) as usize..info.byte_range[2] as usize;
    let contents = String::from_utf8_lossy(&lta[gap.clone()]).to_uppercase();
    let at = gap.start + contents.find(&imprint).expect("the imprint in the token's hex");
    let mut altered = lta.clone();
    altered[at] = if altered[at] == b'0' { b'1' } else { b'0' };
    let broken = stamp_of(&altered, &pki.trust());
    assert_eq!(indication(&broken), (Indication::TotalFailed, Some(SubIndication::HashFailure)), "{broken:#?}");
}
