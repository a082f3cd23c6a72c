//! Issue 33, item 3: a stored document validates without the world, years later. Two signers,
//! one from a CA that publishes CRLs only and one from a CA with an OCSP responder, sign at
//! B-LT, the document reaches B-LTA with a TSA whose certificate lives 3 years, and is renewed
//! with a document time-stamp from a TSA whose certificate lives 30 years. Then every server
//! stops (both TSAs, the OCSP responder, the CRL hosts) and the clock moves 15 years on, past
//! the expiry of every signer, CA and first-TSA certificate: pyHanko (`adesverify`, EN 319
//! 102-1 long-term validation at that time) and Signet's verifier must accept the renewed
//! document and refuse the same document without the renewal, saying why.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use signet_signing::{
    HttpConfig, Indication, PadesLevel, PdfSignOptions, RawSigner, Report, SubIndication, ValidationData,
};
use signet_testkit::pki::{TestTsa, TsaProfile};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const YEAR: Duration = Duration::from_secs(365 * 24 * 3600);
/// How far ahead the stored documents are validated.
const LATER: Duration = Duration::from_secs(15 * 365 * 24 * 3600);

/// One document, before and after its renewal.
struct Kept {
    what: &'static str,
    /// B-LTA with the first TSA only.
    lta: Vec<u8>,
    /// `lta` renewed with the long-lived TSA.
    renewed: Vec<u8>,
    /// The trust anchors, PEM: the signer's root, both TSA roots, and the long-lived TSA's
    /// own certificate, as a trusted list names a time-stamping service. Fifteen years on, the
    /// newest time-stamp is judged at that time, and no status of its TSA's certificate from
    /// then can be in the file (pyHanko refuses the CRL the renewal embedded as not recent
    /// enough); an anchor needs none.
    roots_pem: Vec<String>,
}

#[test]
fn renewed_documents_validate_offline_fifteen_years_on_and_unrenewed_ones_do_not() -> TestResult {
    let short_tsa = TestTsa::start_with(&TsaProfile { validity: Some(3 * YEAR), ..TsaProfile::default() });
    let long_tsa = TestTsa::start_with(&TsaProfile { validity: Some(30 * YEAR), ..TsaProfile::default() });
    let mut crl_ca = common::crl_only_ca("CRL-only Test CA");
    let mut ocsp_ca = common::pki(1);
    let pdf = signet_testkit::pdf::one_page("A loan agreement, kept for fifteen years");

    let mut kept = Vec::new();
    for (what, signer, ca_pem) in [
        ("CRL-only CA", &crl_ca.signer() as &dyn RawSigner, crl_ca.ca.cert_pem()),
        ("OCSP CA", &ocsp_ca.signer(0), std::fs::read_to_string(ocsp_ca.ca_pem())?),
    ] {
        let (lta, renewed) = sign_and_renew(&pdf, signer, &short_tsa, &long_tsa)?;
        let roots_pem = vec![ca_pem, short_tsa.root_pem.clone(), long_tsa.root_pem.clone(), long_tsa.tsa.cert_pem()];
        kept.push(Kept { what, lta, renewed, roots_pem });
    }

    // The world goes away: no TSA, no OCSP responder, no CRL host.
    drop(short_tsa);
    drop(long_tsa);
    crl_ca.stop_server();
    ocsp_ca.stop_servers();

    let later = SystemTime::now().duration_since(UNIX_EPOCH)? + LATER;
    for doc in &kept {
        let dir = tempfile::tempdir()?;
        let roots: Vec<_> = doc
            .roots_pem
            .iter()
            .enumerate()
            .map(|(i, pem)| common::write(dir.path(), &format!("root{i}.pem"), pem.as_bytes()))
            .collect();
        let renewed = common::write(dir.path(), "renewed.pdf", &doc.renewed);
        let lta = common::write(dir.path(), "lta.pdf", &doc.lta);

        let (passed, out) = pyhanko_ades_at(&renewed, &roots, later);
        assert!(passed, "{}: pyHanko must accept the renewed document 15 years on:\n{out}", doc.what);
        let (passed, out) = pyhanko_ades_at(&lta, &roots, later);
        assert!(!passed, "{}: pyHanko must refuse the document without its renewal 15 years on:\n{out}", doc.what);

        let trust = doc
            .roots_pem
            .iter()
            .map(|pem| signet_sigcrypto::pki::cert_pem_to_der(pem))
            .collect::<Result<Vec<_>, _>>()?;
        let ours = signet_signing::verify_file_with(&doc.renewed, None, &trust, Some(later.as_secs()))?;
        assert_signatures_pass(&ours, doc.what);
        let ours = signet_signing::verify_file_with(&doc.lta, None, &trust, Some(later.as_secs()))?;
        assert_signature_out_of_bounds(&ours, doc.what);
    }
    Ok(())
}

/// Sign at B-LT with `short`, raise to B-LTA with `short`, renew at B-LTA with `long`: the
/// document before and after the renewal.
fn sign_and_renew(
    pdf: &[u8],
    signer: &dyn RawSigner,
    short: &TestTsa,
    long: &TestTsa,
) -> Result<(Vec<u8>, Vec<u8>), Box<dyn std::error::Error>> {
    let with_tsa = |tsa: &TestTsa, level| PdfSignOptions {
        level,
        tsa_url: Some(tsa.url.clone()),
        http: HttpConfig::allow_private(),
        ..PdfSignOptions::default()
    };
    let lt = signet_signing::sign_pdf(pdf, signer, &with_tsa(short, PadesLevel::BLT))?;
    let lta = signet_signing::extend_pdf(&lt, &with_tsa(short, PadesLevel::BLTA))?;
    // `extend_pdf` gathers the status of the signer's and its time-stamp's certificates; the
    // new TSA's own certificate status is not among them yet, so it is handed in here (the
    // TSA publishes it as a CRL), as a renewal job must before the TSA's answer goes in.
    let renewal = PdfSignOptions {
        validation: ValidationData {
            certs: vec![long.tsa.cert_der.clone(), long.root.ca.cert_der().to_vec()],
            crls: vec![long.root.ca.issue_crl(&[], Duration::from_secs(7 * 86400))?],
            ..ValidationData::default()
        },
        ..with_tsa(long, PadesLevel::BLTA)
    };
    let renewed = signet_signing::extend_pdf(&lta, &renewal)?;
    Ok((lta, renewed))
}

/// pyHanko's EN 319 102-1 long-term validation (`ades_lta_validation`, what `pyhanko sign
/// adesverify` runs) of every signature at `at`, with `roots` as the only trust anchors:
/// (every signature PASSED, output). A script rather than the CLI, because the CLI prints the
/// status at the validation time, not the indication the long-term validation reached
/// (`crates/testkit/scripts/pyhanko_ades_lta.py` says more).
fn pyhanko_ades_at(pdf: &Path, roots: &[std::path::PathBuf], at: Duration) -> (bool, String) {
    let script = signet_testkit::script("pyhanko_ades_lta.py");
    let (ok, out) =
        common::run_any(Command::new("python3").arg(script).arg(pdf).arg(at.as_secs().to_string()).args(roots));
    (ok && out.contains("AdESPassed.OK"), out)
}

fn signer_signatures(report: &Report) -> impl Iterator<Item = &signet_signing::SignatureReport> {
    report.signatures.iter().filter(|s| s.kind != "document-timestamp")
}

fn assert_signatures_pass(report: &Report, what: &str) {
    assert!(report.valid, "{what}: Signet must accept the renewed document 15 years on: {report:#?}");
    assert!(signer_signatures(report).count() == 1, "{what}: {report:#?}");
    for s in signer_signatures(report) {
        assert_eq!(s.indication, Some(Indication::TotalPassed), "{what}: {s:#?}");
        assert_eq!(s.pades_level.as_deref(), Some("B-LTA"), "{what}: {s:#?}");
    }
}

fn assert_signature_out_of_bounds(report: &Report, what: &str) {
    assert!(!report.valid, "{what}: Signet must refuse the document without its renewal 15 years on: {report:#?}");
    for s in signer_signatures(report) {
        assert_eq!(
            (s.indication, s.sub_indication),
            (Some(Indication::Indeterminate), Some(SubIndication::OutOfBoundsNoPoe)),
            "{what}: {s:#?}"
        );
    }
}
