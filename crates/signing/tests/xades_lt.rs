//! Issue 33, item 1 for XML: an XML signature, XAdES-BES or plain XML-DSig (as an eSign
//! signature is, with only the signer's certificate in KeyInfo), is raised to XAdES B-LT with a
//! signature time-stamp and the signer's and TSA's chains and revocation values, one signer from
//! a CA that publishes CRLs only and one from a CA with an OCSP responder. Then, with every
//! server stopped, xmlsec1 still verifies the signature and Signet's verifier reports B-LT with
//! a trusted chain, also years later when the signer's certificate has expired. A changed
//! SignatureValue fails the time-stamp check; a CA that is down makes the extension fail.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use signet_sigcrypto::pki::IssuedCert;
use signet_signing::{HttpConfig, Indication, LocalKeySigner, Report, XmlExtendOptions};
use signet_testkit::ca::{Revocation, TestCa};
use signet_testkit::pki::{TestTsa, TsaProfile};

const YEAR: Duration = Duration::from_secs(365 * 86_400);
const DOCUMENT: &[u8] =
    b"<?xml version=\"1.0\"?>\n<Mandate xmlns=\"urn:example:nach\"><Amount>1500</Amount></Mandate>\n";

/// One signed and extended document, kept for checks after the servers stop.
struct Extended {
    what: &'static str,
    xades: bool,
    xml: Vec<u8>,
    ca_pem: String,
}

fn extend_options(tsa: &TestTsa) -> XmlExtendOptions {
    XmlExtendOptions { tsa_url: Some(tsa.url.clone()), http: HttpConfig::allow_private(), ..Default::default() }
}

fn signer(issued: &IssuedCert, chain: Vec<Vec<u8>>) -> LocalKeySigner {
    LocalKeySigner::from_pkcs8(&issued.key_pkcs8_der, &issued.cert_der, chain).expect("signer")
}

#[test]
fn xml_signatures_reach_b_lt_and_validate_with_every_server_stopped() {
    // The TSA outlives the signers, as a time-stamping service does: its token proves the
    // signature older than the signer certificate's expiry.
    let tsa = TestTsa::start_with(&TsaProfile { validity: Some(30 * YEAR), ..TsaProfile::default() });
    let crl_ca = TestCa::start("CRL-only XML Test CA", Revocation::CrlOnly, &["Asha Verma"]);
    let ocsp_ca = TestCa::start("OCSP XML Test CA", Revocation::Ocsp, &["Ravi Kumar"]);

    let mut kept = Vec::new();
    for (what, ca) in [("CRL-only CA", &crl_ca), ("OCSP CA", &ocsp_ca)] {
        // XAdES-BES with the chain in KeyInfo (the token path), and plain XML-DSig with the
        // signer's certificate only (the eSign path: the CA certificate comes through AIA).
        let with_chain = signer(&ca.signers[0], vec![ca.ca.cert_der().to_vec()]);
        let alone = signer(&ca.signers[0], Vec::new());
        for (xades, signing) in [(true, &with_chain), (false, &alone)] {
            let signed = signet_signing::sign_xml(DOCUMENT, signing, xades).expect("signed");
            let xml = signet_signing::extend_xml(&signed, &extend_options(&tsa)).expect("extended");
            let again = signet_signing::extend_xml(&xml, &extend_options(&tsa)).expect("extended again");
            assert_eq!(again, xml, "{what}: nothing is missing any more, nothing is added");
            kept.push(Extended { what, xades, xml, ca_pem: ca.ca_pem() });
        }
    }
    let tsa_root_der = tsa.root.ca.cert_der().to_vec();

    // A CA whose host is down: no partial result.
    let down = TestCa::start("Down XML Test CA", Revocation::CrlOnly, &["Meera Iyer"]);
    down.publish(false);
    let signed = signet_signing::sign_xml(DOCUMENT, &signer(&down.signers[0], Vec::new()), false).expect("signed");
    let refused = signet_signing::extend_xml(&signed, &extend_options(&tsa));
    assert!(matches!(refused, Err(signet_signing::Error::Ltv(_))), "{refused:?}");

    drop((tsa, crl_ca, ocsp_ca, down));
    let later = SystemTime::now().duration_since(UNIX_EPOCH).unwrap() + 3 * YEAR;
    for doc in &kept {
        let text = String::from_utf8_lossy(&doc.xml);
        for element in ["SignatureTimeStamp", "CertificateValues", "RevocationValues"] {
            assert_eq!(text.matches(&format!("<xades:{element}")).count(), 1, "{}: {element} in\n{text}", doc.what);
        }
        let dir = tempfile::tempdir().unwrap();
        let (ok, out) = xmlsec1_verifies(dir.path(), &doc.xml, &doc.ca_pem, doc.xades);
        assert!(ok, "{} (XAdES {}): xmlsec1 must verify the extended signature:\n{out}\n{text}", doc.what, doc.xades);

        let trust = vec![signet_sigcrypto::pki::cert_pem_to_der(&doc.ca_pem).unwrap(), tsa_root_der.clone()];
        for at in [None, Some(later.as_secs())] {
            let report = signet_signing::verify_file_with(&doc.xml, None, &trust, at).unwrap();
            assert_long_term(&report, doc.what, at);
        }

        // Another SignatureValue: the time-stamp is not over it.
        let tampered = tamper_signature_value(&text);
        let report = signet_signing::verify_file_with(tampered.as_bytes(), None, &trust, None).unwrap();
        let s = &report.signatures[0];
        assert!(!report.valid, "{}: {s:#?}", doc.what);
        assert!(s.timestamp.as_ref().is_some_and(|t| !t.intact), "{}: {s:#?}", doc.what);
        assert!(s.errors.iter().any(|e| e.contains("signature time-stamp")), "{}: {:?}", doc.what, s.errors);
    }
}

fn assert_long_term(report: &Report, what: &str, at: Option<u64>) {
    let s = &report.signatures[0];
    assert!(report.valid, "{what} at {at:?}: {s:#?}");
    assert_eq!(s.pades_level.as_deref(), Some("B-LT"), "{what} at {at:?}: {s:#?}");
    assert!(s.revocation_data && s.trusted && s.chain.len() == 2, "{what} at {at:?}: {s:#?}");
    assert!(s.timestamp.as_ref().is_some_and(|t| t.intact && t.trusted), "{what} at {at:?}: {s:#?}");
    assert_eq!(s.indication, Some(Indication::TotalPassed), "{what} at {at:?}: {s:#?}");
}

/// Flips one base64 character of the SignatureValue.
fn tamper_signature_value(text: &str) -> String {
    let start = text.find("<ds:SignatureValue>").expect("SignatureValue") + "<ds:SignatureValue>".len();
    let mut bytes = text.as_bytes().to_vec();
    bytes[start + 10] = if bytes[start + 10] == b'A' { b'B' } else { b'A' };
    String::from_utf8(bytes).unwrap()
}

fn xmlsec1_verifies(dir: &Path, xml: &[u8], ca_pem: &str, xades: bool) -> (bool, String) {
    std::fs::write(dir.join("signed.xml"), xml).unwrap();
    std::fs::write(dir.join("ca.pem"), ca_pem).unwrap();
    let mut command = Command::new("xmlsec1");
    command.current_dir(dir).args(["--verify", "--trusted-pem", "ca.pem"]);
    if xades {
        command.args(["--id-attr:Id", "http://uri.etsi.org/01903/v1.3.2#:SignedProperties"]);
    }
    let out = command.arg("signed.xml").output().expect("xmlsec1");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success() && text.contains("OK"), text)
}
