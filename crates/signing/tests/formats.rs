//! CMS over data and hashes (openssl cms -verify), XML-DSig / XAdES-BES (xmlsec1), and the
//! verification report for those formats.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::Command;

use common::*;
use signet_signing::{CmsExtendOptions, DataSignOptions, FileKind, Indication, SubIndication, extend_cms};

#[test]
fn attached_and_detached_cms_with_timestamp_verify_in_openssl() {
    let pki = pki(1);
    let d = pki.dir.path();
    let data = b"line one\r\nline two\n\x00binary".to_vec();
    let content = write(d, "data.bin", &data);
    let signer = pki.signer(0);
    let http = pki.http();

    let attached =
        signet_signing::sign_data(&data, &signer, &DataSignOptions { http: http.clone(), ..Default::default() })
            .unwrap();
    let p = write(d, "attached.p7m", &attached);
    let (ok, out) = openssl_cms_verify(d, &p, None, &pki.ca_pem());
    assert!(ok, "{out}");
    assert_eq!(std::fs::read(d.join("verified.out")).unwrap(), data);

    let opts = DataSignOptions { detached: true, tsa_url: Some(pki.tsa_url.clone()), http };
    let detached = signet_signing::sign_data(&data, &signer, &opts).unwrap();
    let p = write(d, "detached.p7s", &detached);
    let (ok, out) = openssl_cms_verify(d, &p, Some(&content), &pki.ca_pem());
    assert!(ok, "{out}");

    let report = signet_signing::verify_file_with(&detached, Some(&data), &pki.trust(), None).unwrap();
    assert!(report.valid && report.file_kind == FileKind::Cms, "{report:#?}");
    assert!(report.signatures[0].timestamp.as_ref().is_some_and(|t| t.intact && t.trusted));
    assert!(report.signatures[0].signing_time.is_some(), "CAdES carries signingTime");
    let report = signet_signing::verify_file_with(&detached, Some(b"other"), &pki.trust(), None).unwrap();
    assert!(!report.valid);
}

#[test]
fn cms_over_a_given_sha256_verifies_against_the_document() {
    let pki = pki(1);
    let d = pki.dir.path();
    let document = b"the document the client hashed itself".to_vec();
    let content = write(d, "doc.bin", &document);
    let (_, sum) = run_any(Command::new("sha256sum").arg(&content));
    let hex = sum.split_whitespace().next().unwrap().to_string();
    let digest = signet_signing::parse_sha256(&hex).unwrap();
    let cms = signet_signing::sign_hash(&digest, &pki.signer(0), &DataSignOptions::default()).unwrap();
    let p = write(d, "hash.p7s", &cms);
    let (ok, out) = openssl_cms_verify(d, &p, Some(&content), &pki.ca_pem());
    assert!(ok, "{out}");
}

#[test]
fn xml_dsig_and_xades_verify_in_xmlsec1() {
    let pki = pki(1);
    let d = pki.dir.path();
    let xml = b"<?xml version=\"1.0\"?>\n<inv:Invoice xmlns:inv=\"urn:example:invoice\" Id=\"i1\">\n  \
<inv:Amount currency=\"INR\">1 &amp; 2</inv:Amount>\n</inv:Invoice>\n";
    for xades in [false, true] {
        let signed = signet_signing::sign_xml(xml, &pki.signer(0), xades).unwrap();
        let p = write(d, if xades { "xades.xml" } else { "dsig.xml" }, &signed);
        let mut cmd = Command::new("xmlsec1");
        cmd.args(["--verify", "--trusted-pem"]).arg(pki.ca_pem());
        if xades {
            cmd.args(["--id-attr:Id", "http://uri.etsi.org/01903/v1.3.2#:SignedProperties"]);
        }
        let (ok, out) = run_any(cmd.arg(&p));
        assert!(ok && out.contains("OK"), "xmlsec1 (xades={xades}):\n{out}");
        let report = signet_signing::verify_file(&signed, &pki.trust()).unwrap();
        assert!(report.valid && report.file_kind == FileKind::Xml, "{report:#?}");
        assert_eq!(report.signatures[0].kind, if xades { "xades" } else { "xml-dsig" });
        // EN 319 102-1: passed, or (the certificate names an OCSP responder whose answer an
        // XAdES-B signature does not carry) indeterminate for want of its status.
        let indicated = (report.signatures[0].indication, report.signatures[0].sub_indication);
        assert!(
            matches!(
                indicated,
                (Some(Indication::TotalPassed), None)
                    | (Some(Indication::Indeterminate), Some(SubIndication::TryLater))
            ),
            "{report:#?}"
        );
        // From a CA nobody trusts: no chain.
        let report = signet_signing::verify_file(&signed, &[]).unwrap();
        let indicated = (report.signatures[0].indication, report.signatures[0].sub_indication);
        assert_eq!(indicated, (Some(Indication::Indeterminate), Some(SubIndication::NoCertificateChainFound)));
        // Tampering with the signed amount breaks it.
        let tampered = String::from_utf8(signed).unwrap().replace("1 &amp; 2", "9 &amp; 2");
        let report = signet_signing::verify_file(tampered.as_bytes(), &pki.trust()).unwrap();
        assert!(!report.valid);
        let indicated = (report.signatures[0].indication, report.signatures[0].sub_indication);
        assert_eq!(indicated, (Some(Indication::TotalFailed), Some(SubIndication::HashFailure)), "{report:#?}");
    }
}

#[test]
fn unknown_and_empty_inputs_are_errors() {
    assert!(signet_signing::verify_file(b"", &[]).is_err());
    assert!(signet_signing::verify_file(b"just some text", &[]).is_err());
    assert!(signet_signing::verify_file(b"%PDF-1.7\ngarbage", &[]).is_err());
    assert!(signet_signing::verify_file(b"\x30\x03\x02\x01\x00", &[]).is_err());
}

/// CAdES B-LT (issue 33): a detached CMS whose CA publishes only a CRL, and one whose CA answers
/// OCSP, are made long-term. With every CA and TSA server stopped, both validate from what they
/// carry: openssl checks the first's chain against the CRLs inside it, Signet's verifier both;
/// extending again asks nothing and adds nothing.
#[test]
fn a_cms_made_long_term_validates_offline_from_what_it_carries() {
    let mut pki = pki(1);
    let mut crl_ca = crl_only_ca("CAdES CRL-only CA");
    let d = &pki.dir.path().to_path_buf();
    let data = b"a loan agreement, signed detached".to_vec();
    let content = write(d, "lt.bin", &data);
    let opts = CmsExtendOptions { tsa_url: Some(pki.tsa_url.clone()), http: pki.http(), ..Default::default() };
    let detached = DataSignOptions { detached: true, ..Default::default() };
    let from_crl = extend_cms(&signet_signing::sign_data(&data, &crl_ca.signer(), &detached).unwrap(), &opts).unwrap();
    let from_ocsp = extend_cms(&signet_signing::sign_data(&data, &pki.signer(0), &detached).unwrap(), &opts).unwrap();
    crl_ca.stop_server();
    pki.stop_servers();

    assert_eq!(extend_cms(&from_crl, &opts).unwrap(), from_crl, "what it needs is carried: nothing is asked");
    let p = write(d, "lt-crl.p7s", &from_crl);
    let ca = write(d, "crl-ca.pem", crl_ca.ca.cert_pem().as_bytes());
    let mut cmd = Command::new("openssl");
    cmd.current_dir(d).args(["cms", "-verify", "-binary", "-inform", "DER", "-crl_check_all", "-purpose", "any"]);
    cmd.arg("-in").arg(&p).arg("-content").arg(&content).arg("-CAfile").arg(&ca).args(["-out", "/dev/null"]);
    let (ok, out) = run_any(&mut cmd);
    assert!(ok && out.contains("Verification successful"), "openssl with the CMS's own CRLs: {out}");

    let crl_trust = vec![crl_ca.ca.cert_der().to_vec(), pki.ca.cert_der().to_vec()];
    for (what, cms, trust) in [("CRL-only", &from_crl, crl_trust), ("OCSP", &from_ocsp, pki.trust())] {
        let report = signet_signing::verify_file_with(cms, Some(&data), &trust, None).unwrap();
        let signature = &report.signatures[0];
        assert!(report.valid && signature.revocation_data, "{what}: {report:#?}");
        assert_eq!(signature.pades_level.as_deref(), Some("B-LT"), "{what}");
    }
    let plain = signet_signing::sign_data(&data, &pki.signer(0), &detached).unwrap();
    let report = signet_signing::verify_file_with(&plain, Some(&data), &pki.trust(), None).unwrap();
    assert_eq!(report.signatures[0].pades_level.as_deref(), Some("B-B"));
    let error = extend_cms(&plain, &opts).unwrap_err();
    assert!(error.to_string().contains(&pki.tsa_url), "the TSA is down: {error}");
}
