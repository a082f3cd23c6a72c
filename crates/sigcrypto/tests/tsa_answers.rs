//! Every kind of answer a real RFC 3161 TSA sends, from TSAs we did not write: `openssl ts`
//! configured per profile (fractional genTime, accuracy, ordering, ESSCertID v1 and v2 with
//! several hashes, RSA and ECDSA P-256/P-384 keys, with and without the TSA's name) and
//! pyHanko's test TSA. For each profile Signet requests a token and checks it, `openssl ts
//! -verify` verifies the same token, the token goes into a CAdES signature that pyHanko
//! validates, and Signet's own verifier reports it intact and trusted. Then the answers that
//! must be refused: wrong or missing nonce, another imprint, a substituted TSA certificate
//! that the ESS reference does not name, no certificate, and a TSA that does not grant.
mod common;
use common::{TestResult, run, text};

use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::signed_data::{CertificateSet, SignedData, SignerIdentifier};
use der::{Decode, Encode};
use signet_sigcrypto::cms::{self as sigcms, CmsOptions};
use signet_sigcrypto::pki::{self, KeyAlgo};
use signet_sigcrypto::signer::LocalKeySigner;
use signet_sigcrypto::verify::{self, Content, TrustStore, VerifyOptions};
use signet_sigcrypto::{HttpConfig, tsp};
use signet_testkit::pki::{TestTsa, TsaAccuracy, TsaHash, TsaProfile};
use x509_tsp::Accuracy;

const ESS_V1: &str = "1.2.840.113549.1.9.16.2.12";
const ESS_V2: &str = "1.2.840.113549.1.9.16.2.47";

/// What a profile's tokens must show, so that each case proves it met the feature it is for.
struct Expect {
    fraction_of_second: bool,
    accuracy: Option<Accuracy>,
    ordering: bool,
    tsa_named: bool,
    ess_attribute: &'static str,
}

fn accuracy(seconds: Option<u64>, millis: Option<i16>, micros: Option<i16>) -> Option<Accuracy> {
    Some(Accuracy { seconds, millis, micros })
}

#[test]
fn openssl_default_rsa_whole_seconds_ess_v2_sha256() -> TestResult {
    takes_every_answer(
        &TsaProfile::default(),
        Expect {
            fraction_of_second: false,
            accuracy: accuracy(Some(1), None, None),
            ordering: false,
            tsa_named: true,
            ess_attribute: ESS_V2,
        },
    )
}

#[test]
fn openssl_p256_microseconds_full_accuracy_ordering_ess_v1() -> TestResult {
    let profile = TsaProfile {
        key: KeyAlgo::EcP256,
        clock_precision_digits: 6,
        accuracy: Some(TsaAccuracy { secs: 1, millis: 500, micros: 100 }),
        ordering: true,
        tsa_name: false,
        ess_cert_id: TsaHash::Sha1,
        ..TsaProfile::default()
    };
    let expect = Expect {
        fraction_of_second: true,
        accuracy: accuracy(Some(1), Some(500), Some(100)),
        ordering: true,
        tsa_named: false,
        ess_attribute: ESS_V1,
    };
    takes_every_answer(&profile, expect)
}

#[test]
fn openssl_p384_sha384_microseconds_no_accuracy_ess_v2_sha384() -> TestResult {
    let profile = TsaProfile {
        key: KeyAlgo::EcP384,
        signer_digest: TsaHash::Sha384,
        clock_precision_digits: 6,
        accuracy: None,
        ess_cert_id: TsaHash::Sha384,
        ..TsaProfile::default()
    };
    let expect =
        Expect { fraction_of_second: true, accuracy: None, ordering: false, tsa_named: true, ess_attribute: ESS_V2 };
    takes_every_answer(&profile, expect)
}

#[test]
fn openssl_rsa_sha512_millis_only_accuracy_ess_v2_sha512() -> TestResult {
    let profile = TsaProfile {
        signer_digest: TsaHash::Sha512,
        accuracy: Some(TsaAccuracy { secs: 0, millis: 250, micros: 0 }),
        ess_cert_id: TsaHash::Sha512,
        ..TsaProfile::default()
    };
    let expect = Expect {
        fraction_of_second: false,
        accuracy: accuracy(None, Some(250), None),
        ordering: false,
        tsa_named: true,
        ess_attribute: ESS_V2,
    };
    takes_every_answer(&profile, expect)
}

#[test]
fn pyhanko_tsa_microseconds_ess_v1() -> TestResult {
    let expect =
        Expect { fraction_of_second: true, accuracy: None, ordering: false, tsa_named: true, ess_attribute: ESS_V1 };
    takes_every_answer(&TsaProfile::pyhanko(), expect)
}

/// Signet asks the profile's TSA for a token, checks it, and shows it to openssl, pyHanko and
/// its own verifier.
fn takes_every_answer(profile: &TsaProfile, expect: Expect) -> TestResult {
    let tsa = TestTsa::start_with(profile);
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("root.pem"), &tsa.root_pem)?;
    let http = HttpConfig::allow_private();

    let digest = pki::sha256(b"the document");
    let token = tsp::timestamp_token_with(&digest, &tsa.url, &http)?;
    let info = tsp::check_token(&token, &digest)?;
    assert!(info.tsa_subject.contains("Test TSA"), "{info:?}");
    shows_the_profile(&token, &expect)?;
    openssl_verifies(dir.path(), &token, &digest)?;

    let signer = tsa.root.signer("Profile Signer", None);
    let key =
        LocalKeySigner::from_pkcs8(&signer.key_pkcs8_der, &signer.cert_der, vec![tsa.root.ca.cert_der().to_vec()])?;
    let data = b"CAdES-T over a token of this profile";
    let signed = sigcms::sign_detached(&key, data, &CmsOptions::cades())?;
    let stamped = tsp::add_signature_timestamp_by(&signed, |d| tsp::timestamp_token_with(d, &tsa.url, &http))?;
    pyhanko_validates(dir.path(), &stamped, data)?;

    let trust = TrustStore::from_pem(tsa.root_pem.as_bytes())?;
    let report = verify::verify_cms(&stamped, Content::Detached(data), &trust, &VerifyOptions::default())?;
    let stamp = report.signers[0].timestamp.as_ref().ok_or("the verifier found no time-stamp")?;
    assert!(stamp.intact && stamp.trusted && stamp.gen_time.is_some(), "{stamp:?}");
    assert!(report.valid, "{report:#?}");
    Ok(())
}

fn shows_the_profile(token: &[u8], expect: &Expect) -> TestResult {
    let tst = tsp::tst_info(token)?;
    let nanos = tst.gen_time.to_unix_duration().subsec_nanos();
    // Six digits: a fraction of exactly zero comes once in a million answers.
    assert_eq!(nanos != 0, expect.fraction_of_second, "genTime fraction {nanos} ns");
    assert_eq!(tst.accuracy, expect.accuracy);
    assert_eq!(tst.ordering, expect.ordering);
    assert_eq!(tst.tsa.is_some(), expect.tsa_named);
    let sd = sigcms::parse_signed_data(token)?;
    let si = sd.signer_infos.0.iter().next().ok_or("no SignerInfo")?;
    let attrs = si.signed_attrs.as_ref().ok_or("no signed attributes")?;
    let names: Vec<String> = attrs.iter().map(|a| a.oid.to_string()).collect();
    assert!(names.iter().any(|n| n == expect.ess_attribute), "{names:?}");
    Ok(())
}

fn openssl_verifies(dir: &std::path::Path, token: &[u8], digest: &[u8; 32]) -> TestResult {
    std::fs::write(dir.join("token.der"), token)?;
    let args =
        ["ts", "-verify", "-token_in", "-in", "token.der", "-digest", &hex::encode(digest), "-CAfile", "root.pem"];
    let o = run(dir, "openssl", &args);
    assert!(text(&o).contains("Verification: OK"), "{}", text(&o));
    Ok(())
}

fn pyhanko_validates(dir: &std::path::Path, cms_der: &[u8], data: &[u8]) -> TestResult {
    std::fs::write(dir.join("stamped.p7s"), cms_der)?;
    std::fs::write(dir.join("data.bin"), data)?;
    let args = [
        "sign",
        "validate",
        "--trust",
        "root.pem",
        "--trust-replace",
        "--no-revocation-check",
        "--pretty-print",
        "--detached",
        "stamped.p7s",
        "data.bin",
    ];
    let o = run(dir, "pyhanko", &args);
    let t = text(&o);
    assert!(o.status.success() && t.contains("The signature is judged VALID."), "{t}");
    assert!(
        t.contains("The timestamp token is cryptographically sound.") && t.contains("The TSA certificate is trusted."),
        "{t}"
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Answers that must be refused
// ---------------------------------------------------------------------------------------------

/// POSTs a DER TimeStampReq to the TSA as it is (curl: not our HTTP client, whose requests
/// always carry a nonce and certReq).
fn post_query(dir: &std::path::Path, tsa: &TestTsa, query: &[u8]) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    std::fs::write(dir.join("q.tsq"), query)?;
    let args = [
        "-sS",
        "--fail",
        "-H",
        "Content-Type: application/timestamp-query",
        "--data-binary",
        "@q.tsq",
        "-o",
        "r.tsr",
        &tsa.url,
    ];
    let o = run(dir, "curl", &args);
    assert!(o.status.success(), "{}", text(&o));
    Ok(std::fs::read(dir.join("r.tsr"))?)
}

/// A query made by openssl (`openssl ts -query`) over `digest` named as hashed with `hash`
/// (`-sha256`), with `flags` such as `-no_nonce` or `-cert`.
fn openssl_query(
    dir: &std::path::Path,
    hash: &str,
    digest: &[u8; 32],
    flags: &[&str],
) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    openssl_query_hex(dir, hash, &hex::encode(digest), flags)
}

fn openssl_query_hex(
    dir: &std::path::Path,
    hash: &str,
    hex_digest: &str,
    flags: &[&str],
) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let mut args = vec!["ts", "-query", hash, "-digest", hex_digest, "-out", "openssl.tsq"];
    args.extend_from_slice(flags);
    let o = run(dir, "openssl", &args);
    assert!(o.status.success(), "{}", text(&o));
    Ok(std::fs::read(dir.join("openssl.tsq"))?)
}

fn refused(result: signet_sigcrypto::Result<Vec<u8>>, why: &str) {
    match result {
        Ok(_) => panic!("accepted an answer that must be refused ({why})"),
        Err(e) => assert!(e.to_string().contains(why), "refused for another reason than {why:?}: {e}"),
    }
}

#[test]
fn answers_not_to_this_request_are_refused() -> TestResult {
    let tsa = TestTsa::start();
    let dir = tempfile::tempdir()?;
    let digest = pki::sha256(b"asked for");
    let nonce = [0x11, 2, 3, 4, 5, 6, 7, 8];
    let answer = post_query(dir.path(), &tsa, &tsp::build_request(&digest, &nonce)?)?;
    // The same answer is taken for the request it answers: the refusals below are the checks'.
    tsp::parse_response(&answer, &digest, &nonce)?;
    refused(tsp::parse_response(&answer, &digest, &[0x22, 2, 3, 4, 5, 6, 7, 8]), "nonce in the token does not match");
    refused(tsp::parse_response(&answer, &pki::sha256(b"other"), &nonce), "imprint does not match");

    let without_nonce =
        post_query(dir.path(), &tsa, &openssl_query(dir.path(), "-sha256", &digest, &["-cert", "-no_nonce"])?)?;
    refused(tsp::parse_response(&without_nonce, &digest, &nonce), "carries no nonce");

    // certReq absent: openssl honours it and leaves its certificate out, so the token
    // cannot be checked on its own.
    let without_cert = post_query(dir.path(), &tsa, &openssl_query(dir.path(), "-sha256", &digest, &[])?)?;
    let token = tsp::parse_response(&without_cert, &digest, &nonce);
    refused(token, "signer certificate is not included");
    Ok(())
}

#[test]
fn an_imprint_hashed_otherwise_than_asked_is_refused() -> TestResult {
    let tsa = TestTsa::start_with(&TsaProfile {
        accepted_digests: vec![TsaHash::Sha256, TsaHash::Sha3_256],
        ..TsaProfile::default()
    });
    let dir = tempfile::tempdir()?;
    let digest = pki::sha256(b"asked for");
    // The same 32 bytes, named SHA3-256 in the query: the TSA stamps them as SHA3-256.
    let answer = post_query(dir.path(), &tsa, &openssl_query(dir.path(), "-sha3-256", &digest, &["-cert"])?)?;
    refused(tsp::parse_response(&answer, &digest, &[1; 8]), "not the SHA-256 the request named");
    Ok(())
}

#[test]
fn a_tsa_that_does_not_grant_is_refused_with_its_reason() -> TestResult {
    // This TSA only time-stamps SHA-512 imprints; Signet asks with SHA-256.
    let tsa = TestTsa::start_with(&TsaProfile { accepted_digests: vec![TsaHash::Sha512], ..TsaProfile::default() });
    let answer = tsp::timestamp_token_with(&[7; 32], &tsa.url, &HttpConfig::allow_private());
    refused(answer, "TSA refused the request: rejection (badAlg)");
    Ok(())
}

/// openssl's TSA refuses any request extension with failInfo unacceptedExtension, bit 16 of
/// the BIT STRING: past the 16 bits some ASN.1 libraries give PKIFailureInfo.
#[test]
fn a_refusal_names_the_tsa_failure_bits() -> TestResult {
    let tsa = TestTsa::start();
    let dir = tempfile::tempdir()?;
    let digest = pki::sha256(b"with an extension");
    let extension = x509_cert::ext::Extension {
        extn_id: der::oid::ObjectIdentifier::new_unwrap("1.3.6.1.4.1.99999.1"),
        critical: false,
        extn_value: der::asn1::OctetString::new(vec![0x05, 0x00])?,
    };
    let mut req = x509_tsp::TimeStampReq::from_der(&tsp::build_request(&digest, &[1; 8])?)?;
    req.extensions = Some(vec![extension]);
    let answer = post_query(dir.path(), &tsa, &req.to_der()?)?;
    refused(tsp::parse_response(&answer, &digest, &[1; 8]), "TSA refused the request: rejection (unacceptedExtension)");
    Ok(())
}

/// Another certificate for the TSA's key, from the same root and with the same EKU, swapped
/// into the token: the signature still verifies with its key, only the ESS reference (a signed
/// attribute) tells that the token was not made by this certificate.
#[test]
fn a_token_whose_signer_the_ess_reference_does_not_name_is_refused() -> TestResult {
    for profile in [TsaProfile::default(), TsaProfile { ess_cert_id: TsaHash::Sha1, ..TsaProfile::default() }] {
        let tsa = TestTsa::start_with(&profile);
        let dir = tempfile::tempdir()?;
        let digest = pki::sha256(b"stamped");
        let token = tsp::timestamp_token_with(&digest, &tsa.url, &HttpConfig::allow_private())?;
        let twin = twin_certificate(dir.path(), &tsa)?;
        let swapped = with_signer_certificate(&token, &twin)?;
        let err = tsp::check_token(&swapped, &digest).expect_err("a substituted TSA certificate");
        assert!(err.to_string().contains("does not name the certificate that signed it"), "{err}");
        // openssl, reading the same ESS reference, refuses it too.
        std::fs::write(dir.path().join("root.pem"), &tsa.root_pem)?;
        std::fs::write(dir.path().join("token.der"), &swapped)?;
        let hex_digest = hex::encode(digest);
        let args = ["ts", "-verify", "-token_in", "-in", "token.der", "-digest", &hex_digest, "-CAfile", "root.pem"];
        let o = run(dir.path(), "openssl", &args);
        assert!(!text(&o).contains("Verification: OK"), "{}", text(&o));
    }
    Ok(())
}

/// A TSA certificate "Test TSA twin" for the TSA's own key, issued by openssl under its root.
fn twin_certificate(dir: &std::path::Path, tsa: &TestTsa) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    std::fs::write(dir.join("root.pem"), &tsa.root_pem)?;
    std::fs::write(dir.join("root.key"), tsa.root.ca.key_pem())?;
    std::fs::write(dir.join("tsa.key"), tsa.tsa.key_pem())?;
    std::fs::write(
        dir.join("twin.ext"),
        "keyUsage = digitalSignature, nonRepudiation\nextendedKeyUsage = critical, timeStamping\n",
    )?;
    let o = run(dir, "openssl", &["req", "-new", "-key", "tsa.key", "-subj", "/CN=Test TSA twin", "-out", "twin.csr"]);
    assert!(o.status.success(), "{}", text(&o));
    let args = [
        "x509",
        "-req",
        "-in",
        "twin.csr",
        "-CA",
        "root.pem",
        "-CAkey",
        "root.key",
        "-set_serial",
        "4242",
        "-days",
        "30",
        "-extfile",
        "twin.ext",
        "-outform",
        "DER",
        "-out",
        "twin.der",
    ];
    let o = run(dir, "openssl", &args);
    assert!(o.status.success(), "{}", text(&o));
    Ok(std::fs::read(dir.join("twin.der"))?)
}

/// The token with `cert_der` as its only certificate and as the SignerInfo's signer: the
/// unsigned parts a man in the middle can change without breaking the signature.
fn with_signer_certificate(token: &[u8], cert_der: &[u8]) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let cert = x509_cert::Certificate::from_der(cert_der)?;
    let mut sd: SignedData = sigcms::parse_signed_data(token)?;
    let mut infos: Vec<_> = sd.signer_infos.0.iter().cloned().collect();
    for si in &mut infos {
        si.sid = SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: cert.tbs_certificate.issuer.clone(),
            serial_number: cert.tbs_certificate.serial_number.clone(),
        });
    }
    sd.signer_infos = cms::signed_data::SignerInfos(der::asn1::SetOfVec::try_from(infos)?);
    sd.certificates = Some(CertificateSet(der::asn1::SetOfVec::try_from(vec![CertificateChoices::Certificate(cert)])?));
    let ci = cms::content_info::ContentInfo {
        content_type: sigcms::oid::ID_SIGNED_DATA,
        content: der::Any::encode_from(&sd)?,
    };
    Ok(ci.to_der()?)
}

/// A CAdES-T made elsewhere may carry a signature time-stamp over SHA-512 (the requester picks
/// the imprint hash): pyHanko takes it, and so must Signet's verifier.
#[test]
fn a_signature_timestamp_over_sha512_verifies() -> TestResult {
    let tsa = TestTsa::start();
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("root.pem"), &tsa.root_pem)?;
    let signer = tsa.root.signer("Elsewhere Signer", None);
    let key =
        LocalKeySigner::from_pkcs8(&signer.key_pkcs8_der, &signer.cert_der, vec![tsa.root.ca.cert_der().to_vec()])?;
    let data = b"stamped over SHA-512";
    let signed = sigcms::sign_detached(&key, data, &CmsOptions::cades())?;
    let signature = sigcms::signature_values(&signed)?.pop().ok_or("no signature value")?;
    let sha512 = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA512, &signature);
    let query = openssl_query_hex(dir.path(), "-sha512", &hex::encode(sha512.as_ref()), &["-cert"])?;
    let answer_der = post_query(dir.path(), &tsa, &query)?;
    let answer = x509_tsp::TimeStampResp::from_der(&answer_der)?;
    let token = answer.time_stamp_token.ok_or("no token")?.to_der()?;
    let stamped = tsp::add_signature_timestamp_by(&signed, |_sha256| Ok(token.clone()))?;
    pyhanko_validates(dir.path(), &stamped, data)?;

    let trust = TrustStore::from_pem(tsa.root_pem.as_bytes())?;
    let report = verify::verify_cms(&stamped, Content::Detached(data), &trust, &VerifyOptions::default())?;
    let stamp = report.signers[0].timestamp.as_ref().ok_or("the verifier found no time-stamp")?;
    assert!(stamp.intact && stamp.trusted, "{stamp:?}");
    Ok(())
}
