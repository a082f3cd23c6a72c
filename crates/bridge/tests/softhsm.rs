//! The token side of the bridge against a real PKCS#11 module: SoftHSM2 (Debian `softhsm2`)
//! with a token set up by its own tools (`softhsm2-util`, and OpenSC's `pkcs11-tool` for the
//! certificates), driven through the `signet-bridge` command (the module reads its
//! configuration from SOFTHSM2_CONF, set for each child process). Signatures are checked by
//! openssl as CMS.

mod common;

use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::{MODULE, PIN, bridge, certificates, json_of, token};
use signet_sigcrypto::cms::{self, CmsOptions};
use signet_sigcrypto::pki;

#[test]
fn tokens_and_their_signing_certificates_are_listed_without_a_pin() {
    let t = token();
    // A certificate that has expired stays on the token but is not offered for signing.
    let options = pki::IssueOptions { validity: Some(std::time::Duration::from_secs(1)), ..Default::default() };
    let expired = t.soft.ca.issue_signer_with("Lapsed Signer", pki::KeyAlgo::Rsa2048, &options).expect("signer");
    t.soft.add_signer("09", "Lapsed Signer", &expired);
    std::thread::sleep(std::time::Duration::from_secs(2));
    let tokens = json_of(&bridge(&t, &["tokens", "--module", MODULE], None));
    assert!(tokens.to_string().contains("SoftHSM"), "{tokens}");
    let mut names: Vec<String> =
        certificates(&t).iter().filter_map(|c| c["subject"].as_str().map(str::to_string)).collect();
    names.sort();
    assert_eq!(names, ["Asha Verma", "Ravi Kumar"], "the CA's certificate is not offered for signing");
    let missing = bridge(&t, &["certificates", "--module", MODULE, "--token", "no-such-serial"], None);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no token with serial number"));
}

#[test]
fn a_batch_of_digests_is_signed_with_one_pin_and_the_signatures_verify_in_openssl() {
    let t = token();
    let d = t.dir();
    let content = b"Loan agreement 42: I agree.";
    std::fs::write(d.join("doc.txt"), content).expect("write");
    std::fs::write(d.join("ca.pem"), t.soft.ca.cert_pem()).expect("write");
    for certificate in certificates(&t) {
        let der = STANDARD.decode(certificate["certificate"].as_str().expect("certificate")).expect("base64");
        let key_id = certificate["keyId"].as_str().expect("keyId");
        // A CMS over the document whose signed attributes the token signs, in a batch of three.
        let attrs = cms::prepare_signed_attrs(
            &pki::sha256(content),
            &der,
            &[t.soft.ca.cert_der().to_vec()],
            &CmsOptions::cades(),
        )
        .expect("attributes");
        let to_sign = hex::encode(pki::sha256(&attrs.der_to_sign));
        let others = [hex::encode(pki::sha256(b"a")), hex::encode(pki::sha256(b"b"))];
        let args = [
            "sign", "--module", MODULE, "--token", &t.serial, "--key-id", key_id, "--digest", &to_sign, "--digest",
            &others[0], "--digest", &others[1],
        ];
        let signed = json_of(&bridge(&t, &args, Some(PIN)));
        let signatures = signed.as_array().expect("signatures");
        assert_eq!(signatures.len(), 3);
        let signature = STANDARD.decode(signatures[0].as_str().expect("signature")).expect("base64");
        let cms = cms::assemble(&attrs, &signature).expect("cms");
        std::fs::write(d.join("doc.p7s"), &cms).expect("write");
        let out = Command::new("openssl")
            .args(["cms", "-verify", "-binary", "-inform", "DER", "-purpose", "any", "-in"])
            .arg(d.join("doc.p7s"))
            .arg("-content")
            .arg(d.join("doc.txt"))
            .arg("-CAfile")
            .arg(d.join("ca.pem"))
            .args(["-out", "/dev/null"])
            .output()
            .expect("openssl");
        let text = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success() && text.contains("Verification successful"), "{certificate}: {text}");
    }
}

#[test]
fn a_wrong_pin_an_unknown_key_bad_digests_and_a_bad_module_are_one_line_refusals() {
    let t = token();
    let certificate = certificates(&t).remove(0);
    let key_id = certificate["keyId"].as_str().expect("keyId").to_string();
    let digest = hex::encode(pki::sha256(b"x"));
    let sign = |key: &str, digest: &str, pin: &str| {
        bridge(&t, &["sign", "--module", MODULE, "--token", &t.serial, "--key-id", key, "--digest", digest], Some(pin))
    };
    let refusals = [
        (sign(&key_id, &digest, "000000"), "the PIN is wrong"),
        (sign("7f", &digest, PIN), "no certificate with this key id"),
        (sign(&key_id, "abcd", PIN), "64 hexadecimal digits"),
        (bridge(&t, &["tokens", "--module", "/no/such/module.so"], None), "could not be loaded"),
    ];
    for (output, expected) in refusals {
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        assert!(!output.status.success(), "{expected}");
        assert!(stderr.contains(expected) && stderr.trim().lines().count() == 1, "{expected}: {stderr}");
    }
    // The right PIN still signs: nothing stayed locked or logged in.
    assert!(sign(&key_id, &digest, PIN).status.success());
}
