//! The OCSP responder side (`build_ocsp_response`): its answers pass sigcrypto's own checks and
//! `openssl ocsp`, for RSA and EC issuers; other issuers' certificates are `unknown`; garbage
//! gets a `malformedRequest` answer, never an error or a panic.
mod common;
use common::*;

use signet_sigcrypto::pki::{IssueOptions, KeyAlgo, LocalCa};
use signet_sigcrypto::revocation::{self, OcspResponder, RevocationStatus};
use signet_sigcrypto::signer::LocalKeySigner;

const DAY: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

struct Responder {
    ca: LocalCa,
    signer: LocalKeySigner,
}

impl Responder {
    fn new(ca_key: KeyAlgo) -> Responder {
        let ca = LocalCa::generate_with("Responder Test CA", ca_key).expect("ca");
        let issued = ca.issue_ocsp_responder("Responder Test OCSP").expect("responder");
        let signer = LocalKeySigner::from_pkcs8(&issued.key_pkcs8_der, &issued.cert_der, vec![]).expect("signer");
        Responder { ca, signer }
    }

    fn answer(&self, request: &[u8], good_serial: &[u8]) -> Vec<u8> {
        let responder = OcspResponder { issuer_der: self.ca.cert_der(), signer: &self.signer, validity: DAY };
        let status_of =
            |serial: &[u8]| if serial == good_serial { RevocationStatus::Good } else { RevocationStatus::Unknown };
        revocation::build_ocsp_response(request, &responder, &status_of, std::time::SystemTime::now()).expect("answer")
    }
}

fn serial_of(cert_der: &[u8]) -> Vec<u8> {
    signet_sigcrypto::pki::parse_cert(cert_der).expect("cert").tbs_certificate.serial_number.as_bytes().to_vec()
}

#[test]
fn answers_pass_our_checks_and_openssl() -> TestResult {
    for ca_key in [KeyAlgo::EcP256, KeyAlgo::Rsa2048] {
        let r = Responder::new(ca_key);
        let options = IssueOptions { country: Some("IN".into()), ..IssueOptions::default() };
        let cert = r.ca.issue_signer_with("Asha Verma", KeyAlgo::EcP256, &options)?;
        let request = revocation::build_ocsp_request(&cert.cert_der, r.ca.cert_der())?;

        let good = r.answer(&request, &serial_of(&cert.cert_der));
        let info = revocation::check_ocsp_response(&good, &cert.cert_der, r.ca.cert_der())?;
        assert_eq!(info.status, RevocationStatus::Good);
        assert!(info.next_update.is_some_and(|next| next > info.this_update));

        let unknown = r.answer(&request, b"\x01");
        let info = revocation::check_ocsp_response(&unknown, &cert.cert_der, r.ca.cert_der())?;
        assert_eq!(info.status, RevocationStatus::Unknown);

        let dir = tempfile::tempdir()?;
        std::fs::write(dir.path().join("ca.pem"), r.ca.cert_pem())?;
        std::fs::write(dir.path().join("cert.pem"), cert.cert_pem())?;
        std::fs::write(dir.path().join("resp.der"), &good)?;
        let o = run(
            dir.path(),
            "openssl",
            &[
                "ocsp",
                "-respin",
                "resp.der",
                "-issuer",
                "ca.pem",
                "-cert",
                "cert.pem",
                "-CAfile",
                "ca.pem",
                "-resp_text",
            ],
        );
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        assert!(t.contains("Response verify OK"), "{t}");
        assert!(t.contains("cert.pem: good"), "{t}");
        assert!(t.contains("Next Update"), "{t}");
        let o = run(dir.path(), "openssl", &["x509", "-in", "cert.pem", "-noout", "-subject"]);
        assert!(text(&o).contains("CN = Asha Verma, C = IN"), "{}", text(&o));
    }
    Ok(())
}

#[test]
fn other_issuers_are_unknown_and_nonces_are_echoed() -> TestResult {
    let r = Responder::new(KeyAlgo::EcP256);
    let other = LocalCa::generate_with("Another CA", KeyAlgo::EcP256)?;
    let foreign = other.issue_signer("Not ours", KeyAlgo::EcP256)?;
    // The same serial under another issuer must not be vouched for.
    let request = revocation::build_ocsp_request(&foreign.cert_der, other.cert_der())?;
    let answer = r.answer(&request, &serial_of(&foreign.cert_der));
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("ca.pem"), r.ca.cert_pem())?;
    std::fs::write(dir.path().join("resp.der"), &answer)?;
    let o = run(dir.path(), "openssl", &["ocsp", "-respin", "resp.der", "-resp_text", "-noverify"]);
    let t = text(&o);
    assert!(t.contains("Cert Status: unknown"), "{t}");

    // openssl's own request carries a nonce; the answer echoes it and openssl checks it.
    let ours = r.ca.issue_signer("Ours", KeyAlgo::EcP256)?;
    std::fs::write(dir.path().join("cert.pem"), ours.cert_pem())?;
    let o = run(dir.path(), "openssl", &["ocsp", "-issuer", "ca.pem", "-cert", "cert.pem", "-reqout", "req.der"]);
    assert!(o.status.success(), "{}", text(&o));
    let request = std::fs::read(dir.path().join("req.der"))?;
    std::fs::write(dir.path().join("resp.der"), r.answer(&request, &serial_of(&ours.cert_der)))?;
    // With -reqin and no -cert, openssl holds the answer against that request's nonce.
    let o = run(
        dir.path(),
        "openssl",
        &["ocsp", "-reqin", "req.der", "-respin", "resp.der", "-CAfile", "ca.pem", "-resp_text"],
    );
    let t = text(&o);
    assert!(o.status.success() && t.contains("Response verify OK"), "{t}");
    assert!(t.contains("Cert Status: good") && !t.contains("Nonce Verify error"), "{t}");
    Ok(())
}

#[test]
fn garbage_gets_a_malformed_request_answer() -> TestResult {
    let r = Responder::new(KeyAlgo::EcP256);
    let malformed = [0x30, 0x03, 0x0a, 0x01, 0x01];
    for garbage in [&b""[..], b"\x30\x80", b"not der at all", &[0x30; 64 * 1024]] {
        assert_eq!(r.answer(garbage, b"\x01"), malformed);
    }
    // A request for no certificate at all is malformed too.
    let empty = {
        let ours = r.ca.issue_signer("Ours", KeyAlgo::EcP256)?;
        let request = revocation::build_ocsp_request(&ours.cert_der, r.ca.cert_der())?;
        let mut parsed = <x509_ocsp::OcspRequest as der::Decode>::from_der(&request)?;
        parsed.tbs_request.request_list.clear();
        der::Encode::to_der(&parsed)?
    };
    assert_eq!(r.answer(&empty, b"\x01"), malformed);
    Ok(())
}
