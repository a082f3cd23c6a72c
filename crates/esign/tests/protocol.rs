//! The request and response as an ASP and an ESP exchange them, checked from outside: xmlsec1
//! verifies both XML signatures, openssl verifies the CMS the ESP returns; and every kind of
//! forged, replayed, late or mismatched answer is refused.

use std::path::Path;
use std::process::Command;

use signet_esign::asp::{self, EspTrust, Expected, Outcome};
use signet_esign::{AuthMode, DocSignature, EsignRequest, EsignResponse, InputHash, ResponseStatus, esp};
use signet_sigcrypto::pki::{self, IssueOptions, KeyAlgo, LocalCa};
use signet_sigcrypto::signer::LocalKeySigner;
use time::{Duration, OffsetDateTime};

struct Parties {
    asp: LocalKeySigner,
    asp_cert: Vec<u8>,
    esp: LocalKeySigner,
    esp_cert: Vec<u8>,
    esign_ca: LocalCa,
}

fn parties() -> Parties {
    let asp = pki::self_signed_rsa("Example ASP", 2048).expect("asp");
    let esp = pki::self_signed_rsa("Example ESP", 2048).expect("esp");
    Parties {
        asp: LocalKeySigner::from_pkcs8(&asp.key_pkcs8_der, &asp.cert_der, vec![]).expect("asp signer"),
        asp_cert: asp.cert_der,
        esp: LocalKeySigner::from_pkcs8(&esp.key_pkcs8_der, &esp.cert_der, vec![]).expect("esp signer"),
        esp_cert: esp.cert_der,
        esign_ca: LocalCa::generate_with("Test eSign CA", KeyAlgo::EcP256).expect("ca"),
    }
}

fn request(txn: &str, digests: &[[u8; 32]]) -> EsignRequest {
    EsignRequest {
        ver: "2.1".into(),
        ts: OffsetDateTime::now_utc(),
        txn: txn.into(),
        asp_id: "SIGNET-ASP".into(),
        auth_mode: AuthMode::Otp,
        response_sig_type: "pkcs7".into(),
        response_url: "https://signet.example.test/esign/response".into(),
        ekyc_id: String::new(),
        ekyc_id_type: "A".into(),
        hashes: digests
            .iter()
            .enumerate()
            .map(|(i, d)| InputHash { id: i as u32 + 1, sha256: *d, doc_info: format!("Loan agreement <{i}>") })
            .collect(),
    }
}

/// A 30-minute signer certificate in the identity's name, as an ESP issues per transaction.
fn signer(ca: &LocalCa, name: &str) -> LocalKeySigner {
    let options = IssueOptions { validity: Some(std::time::Duration::from_secs(30 * 60)), ..IssueOptions::default() };
    let issued = ca.issue_signer_with(name, KeyAlgo::EcP256, &options).expect("signer");
    LocalKeySigner::from_pkcs8(&issued.key_pkcs8_der, &issued.cert_der, vec![ca.cert_der().to_vec()]).expect("signer")
}

fn answer(p: &Parties, req: &EsignRequest, status: ResponseStatus) -> Vec<u8> {
    let user = signer(&p.esign_ca, "Asha Verma");
    let now = OffsetDateTime::now_utc();
    let signatures = if status == ResponseStatus::Success {
        req.hashes
            .iter()
            .map(|h| DocSignature {
                id: h.id,
                cms_der: esp::sign_hash(&user, &h.sha256, now).expect("cms"),
                error: None,
            })
            .collect()
    } else {
        Vec::new()
    };
    let response = EsignResponse {
        status,
        ts: now,
        txn: req.txn.clone(),
        res_code: "esp-ref-1".into(),
        err_code: (status == ResponseStatus::Failure).then(|| esp::codes::CANCELLED.to_string()),
        err_msg: (status == ResponseStatus::Failure).then(|| "the signer cancelled".to_string()),
        user_certificate: Some(signet_sigcrypto::signer::RawSigner::certificate_der(&user).to_vec()),
        signatures,
    };
    esp::signed_response(&response, &p.esp).expect("signed response")
}

fn trust(p: &Parties) -> EspTrust {
    EspTrust { esp_certificate: p.esp_cert.clone(), esign_cas: vec![p.esign_ca.cert_der().to_vec()], allow_sha1: false }
}

fn expected<'a>(txn: &'a str, digests: &'a [[u8; 32]]) -> Expected<'a> {
    let now = OffsetDateTime::now_utc();
    Expected { txn, digests, sent_at: now - Duration::seconds(30), max_age: Duration::minutes(30), now, raw: false }
}

fn xmlsec1_verifies(dir: &Path, name: &str, xml: &[u8], cert_der: &[u8]) {
    let doc = dir.join(format!("{name}.xml"));
    let cert = dir.join(format!("{name}.pem"));
    std::fs::write(&doc, xml).expect("write");
    std::fs::write(&cert, pki::cert_der_to_pem(cert_der)).expect("write");
    let out = Command::new("xmlsec1")
        .args(["--verify", "--pubkey-cert-pem"])
        .arg(&cert)
        .arg(&doc)
        .output()
        .expect("xmlsec1 runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && text.contains("OK"), "xmlsec1 refused {name}:\n{text}");
}

fn openssl_verifies_over_digest(dir: &Path, cms_der: &[u8], ca_der: &[u8]) {
    // A detached CMS over a hash: openssl checks the signature over the signed attributes and
    // the chain; the messageDigest is checked against the digest by check_response.
    let cms = dir.join("doc.p7s");
    let ca = dir.join("ca.pem");
    std::fs::write(&cms, cms_der).expect("write");
    std::fs::write(&ca, pki::cert_der_to_pem(ca_der)).expect("write");
    let out = Command::new("openssl")
        .args(["cms", "-cmsout", "-print", "-inform", "DER", "-in"])
        .arg(&cms)
        .output()
        .expect("openssl runs");
    let printed = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "openssl cannot read the CMS");
    for attribute in ["contentType", "signingTime", "messageDigest"] {
        assert!(printed.contains(attribute), "{attribute} missing:\n{printed}");
    }
    let out = Command::new("openssl")
        .args(["cms", "-verify", "-inform", "DER", "-binary", "-noverify", "-in"])
        .arg(&cms)
        .args(["-content", "/dev/null", "-CAfile"])
        .arg(&ca)
        .output()
        .expect("openssl runs");
    // Over /dev/null the content digest differs: openssl must fail for that reason only.
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(text.contains("digest failure") || text.contains("content verify error"), "{text}");
}

#[test]
fn a_request_and_its_answer_verify_in_xmlsec1_and_pass_every_check() {
    let p = parties();
    let dir = tempfile::tempdir().expect("tempdir");
    let digests = [pki::sha256(b"document one"), pki::sha256(b"document two")];
    let req = request("TXN-0001", &digests);
    let signed = signet_esign::sign_document(req.to_xml().as_bytes(), &p.asp).expect("sign");
    xmlsec1_verifies(dir.path(), "request", &signed, &p.asp_cert);

    let registered = |asp_id: &str| (asp_id == "SIGNET-ASP").then(|| p.asp_cert.clone());
    let read =
        esp::check_request(&signed, registered, OffsetDateTime::now_utc(), Duration::minutes(10)).expect("valid");
    assert_eq!(read.hashes.len(), 2);
    assert_eq!(read.hashes[0].sha256, digests[0]);
    assert_eq!(read.hashes[0].doc_info, "Loan agreement <0>");

    let response = answer(&p, &read, ResponseStatus::Success);
    xmlsec1_verifies(dir.path(), "response", &response, &p.esp_cert);
    let Outcome::Signed(signed) =
        asp::check_response(&response, &trust(&p), &expected("TXN-0001", &digests)).expect("ok")
    else {
        panic!("signed expected");
    };
    assert_eq!(signed.signatures.len(), 2);
    assert_eq!(signed.signer_name.as_deref(), Some("Asha Verma"));
    openssl_verifies_over_digest(dir.path(), &signed.signatures[0], p.esign_ca.cert_der());
}

#[test]
fn the_esp_refuses_requests_it_must_not_serve() {
    let p = parties();
    let digests = [pki::sha256(b"doc")];
    let registered = |asp_id: &str| (asp_id == "SIGNET-ASP").then(|| p.asp_cert.clone());
    let now = OffsetDateTime::now_utc();
    let window = Duration::minutes(10);
    let sign = |req: &EsignRequest| signet_esign::sign_document(req.to_xml().as_bytes(), &p.asp).expect("sign");
    let code_of = |xml: &[u8]| esp::check_request(xml, registered, now, window).expect_err("refused").code;

    let mut unknown = request("T1", &digests);
    unknown.asp_id = "SOMEONE-ELSE".into();
    assert_eq!(code_of(&sign(&unknown)), esp::codes::UNKNOWN_ASP);

    // Signed by a key that is not the registered one.
    let other = pki::self_signed_rsa("Impostor", 2048).expect("other");
    let impostor = LocalKeySigner::from_pkcs8(&other.key_pkcs8_der, &other.cert_der, vec![]).expect("signer");
    let forged = signet_esign::sign_document(request("T2", &digests).to_xml().as_bytes(), &impostor).expect("sign");
    assert_eq!(code_of(&forged), esp::codes::ASP_SIGNATURE);

    // Altered after signing: another hash.
    let tampered = String::from_utf8(sign(&request("T3", &digests)))
        .expect("utf8")
        .replace(&hex::encode(digests[0]), &hex::encode(pki::sha256(b"other")));
    assert_eq!(code_of(tampered.as_bytes()), esp::codes::ASP_SIGNATURE);

    let mut old = request("T4", &digests);
    old.ts = now - Duration::hours(2);
    assert_eq!(code_of(&sign(&old)), esp::codes::TIMESTAMP);

    let mut version = request("T5", &digests);
    version.ver = "1.6".into();
    assert_eq!(code_of(&sign(&version)), esp::codes::VERSION);

    let six = [[7u8; 32]; 6];
    assert_eq!(code_of(&sign(&request("T6", &six))), esp::codes::HASHES);

    let mut url = request("T7", &digests);
    url.response_url = "javascript:alert(1)".into();
    assert_eq!(code_of(&sign(&url)), esp::codes::RESPONSE_URL);

    let mut bio = request("T8", &digests);
    bio.auth_mode = AuthMode::Fingerprint;
    assert_eq!(code_of(&sign(&bio)), esp::codes::AUTH_MODE);

    for hostile in [&b"<Esign"[..], b"<!DOCTYPE x [<!ENTITY a 'b'>]><Esign/>", b"<Other/>", &[0xff, 0xfe]] {
        assert_eq!(code_of(hostile), esp::codes::MALFORMED);
    }
}

#[test]
fn the_asp_refuses_forged_replayed_late_and_mismatched_answers() {
    let p = parties();
    let digests = [pki::sha256(b"the agreement")];
    let req = request("TXN-9", &digests);
    let good = answer(&p, &req, ResponseStatus::Success);
    let code_of = |xml: &[u8], exp: &Expected<'_>| asp::check_response(xml, &trust(&p), exp).expect_err("refused").code;

    // Altered after the ESP signed it.
    let altered = String::from_utf8(good.clone()).expect("utf8").replace("resCode=\"esp-ref-1\"", "resCode=\"x\"");
    assert_eq!(code_of(altered.as_bytes(), &expected("TXN-9", &digests)), asp::codes::FORGED);

    // Signed by someone else than the configured ESP.
    let mut other = parties();
    other.esign_ca = LocalCa::generate_with("Test eSign CA", KeyAlgo::EcP256).expect("ca");
    let foreign = answer(&other, &req, ResponseStatus::Success);
    assert_eq!(code_of(&foreign, &expected("TXN-9", &digests)), asp::codes::FORGED);

    // A genuine answer replayed for another transaction.
    assert_eq!(code_of(&good, &expected("TXN-10", &digests)), asp::codes::OTHER_TRANSACTION);

    // Late: the transaction's time is up.
    let mut late = expected("TXN-9", &digests);
    late.sent_at = late.now - Duration::hours(1);
    assert_eq!(code_of(&good, &late), asp::codes::LATE);

    // A signature over another digest than the one sent.
    let elsewhere = [pki::sha256(b"a different document")];
    assert_eq!(code_of(&good, &expected("TXN-9", &elsewhere)), asp::codes::DOCUMENT);

    // A signer certificate from a CA that is not trusted.
    let mut untrusting = trust(&p);
    untrusting.esign_cas = vec![LocalCa::generate("Some other CA").expect("ca").cert_der().to_vec()];
    let refused = asp::check_response(&good, &untrusting, &expected("TXN-9", &digests)).expect_err("refused");
    assert_eq!(refused.code, asp::codes::CERTIFICATE);

    // The ESP's own refusal comes through with its code.
    let cancelled = answer(&p, &req, ResponseStatus::Failure);
    match asp::check_response(&cancelled, &trust(&p), &expected("TXN-9", &digests)).expect("read") {
        Outcome::Refused { code, .. } => assert_eq!(code, esp::codes::CANCELLED),
        Outcome::Signed(_) => panic!("a cancelled answer is not a signature"),
    }

    for hostile in [&b""[..], b"<EsignResp", b"<EsignResp status=\"1\"/>", &vec![b'a'; 2 << 20]] {
        assert!(asp::check_response(hostile, &trust(&p), &expected("TXN-9", &digests)).is_err());
    }
}

#[test]
fn raw_rsa_answers_are_checked_against_the_digest_and_the_user_certificate() {
    let p = parties();
    let digests = [pki::sha256(b"<SignedInfo/> of an XML document")];
    let mut req = request("TXN-RAW", &digests);
    req.response_sig_type = "rawrsa".into();
    let signed = signet_esign::sign_document(req.to_xml().as_bytes(), &p.asp).expect("sign");
    let registered = |asp_id: &str| (asp_id == "SIGNET-ASP").then(|| p.asp_cert.clone());
    let read =
        esp::check_request(&signed, registered, OffsetDateTime::now_utc(), Duration::minutes(10)).expect("valid");
    assert_eq!(esp::raw_response(&read), Some(true));

    let options = IssueOptions { validity: Some(std::time::Duration::from_secs(30 * 60)), ..IssueOptions::default() };
    let user = p.esign_ca.issue_signer_with("Asha Verma", KeyAlgo::Rsa2048, &options).expect("signer");
    let answer = |digest: &[u8; 32], with_certificate: bool| {
        let response = EsignResponse {
            status: ResponseStatus::Success,
            ts: OffsetDateTime::now_utc(),
            txn: "TXN-RAW".into(),
            res_code: "r".into(),
            err_code: None,
            err_msg: None,
            user_certificate: with_certificate.then(|| user.cert_der.clone()),
            signatures: vec![DocSignature {
                id: 1,
                cms_der: esp::sign_hash_raw_rsa(&user.key_pkcs8_der, digest).expect("raw"),
                error: None,
            }],
        };
        esp::signed_response(&response, &p.esp).expect("signed")
    };
    let mut expect = expected("TXN-RAW", &digests);
    expect.raw = true;
    match asp::check_response(&answer(&digests[0], true), &trust(&p), &expect).expect("accepted") {
        Outcome::Signed(signed) => assert_eq!(signed.signer_certificate, user.cert_der),
        Outcome::Refused { .. } => panic!("signed expected"),
    }
    let other = pki::sha256(b"something else");
    let refused = asp::check_response(&answer(&other, true), &trust(&p), &expect).expect_err("other digest");
    assert_eq!(refused.code, asp::codes::DOCUMENT);
    let refused = asp::check_response(&answer(&digests[0], false), &trust(&p), &expect).expect_err("no certificate");
    assert_eq!(refused.code, asp::codes::DOCUMENT);
}
