//! Fuzz the XML side of signet-sigcrypto: the quick-xml based parser, exclusive C14N, the
//! XML-DSig / XAdES verifier, and enveloped signing of an uploaded document (parsing,
//! refusing an existing signature, canonicalising) with a fixed test key.
//! Any input must give Ok or a readable Err, never a panic.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use signet_sigcrypto::signer::LocalKeySigner;
use signet_sigcrypto::verify::{TrustStore, VerifyOptions};
use signet_sigcrypto::xmldsig::XmlSignOptions;
use signet_sigcrypto::{xml, xmldsig};

/// A fixed P-256 test key and its self-signed certificate (fuzz/keys; test use only).
fn signer() -> &'static LocalKeySigner {
    static SIGNER: OnceLock<LocalKeySigner> = OnceLock::new();
    SIGNER.get_or_init(|| {
        LocalKeySigner::from_pkcs8(
            include_bytes!("../keys/signer-key.pk8"),
            include_bytes!("../keys/signer-cert.der"),
            Vec::new(),
        )
        .expect("fuzz signer key")
    })
}

fn trust() -> &'static TrustStore {
    static TRUST: OnceLock<TrustStore> = OnceLock::new();
    TRUST.get_or_init(|| {
        TrustStore::from_der_certs(&[include_bytes!("../keys/signer-cert.der").to_vec()]).expect("fuzz trust store")
    })
}

fuzz_target!(|data: &[u8]| {
    if let Ok(c) = xml::canonicalize(data) {
        // Canonicalisation is idempotent: the canonical form is its own canonical form.
        let again = xml::canonicalize(c.as_bytes());
        assert_eq!(again.ok().as_deref(), Some(c.as_str()));
    }
    // A fixed validation time (2027-01-01, inside the test certificate's validity) so that runs do not depend on the clock.
    let opts = VerifyOptions { validation_time: Some(1_798_761_600), ..Default::default() };
    let _ = xmldsig::verify_enveloped(data, &TrustStore::empty(), &opts);
    let _ = xmldsig::verify_enveloped(data, trust(), &opts);
    let sign_opts = XmlSignOptions { xades: data.len() % 2 == 0, signing_time: None, include_chain: true };
    if let Ok(signed) = xmldsig::sign_enveloped(data, signer(), &sign_opts) {
        // What we sign must verify as intact and trusted.
        let report = xmldsig::verify_enveloped(&signed, trust(), &opts).expect("our own signature must parse");
        assert!(report.signatures.iter().all(|s| s.intact && s.trusted), "our own signature: {report:?}");
    }
});
