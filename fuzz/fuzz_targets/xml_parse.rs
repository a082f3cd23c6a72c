//! Fuzz the XML side of signet-sigcrypto: the quick-xml based parser, exclusive C14N and the
//! XML-DSig / XAdES verifier. Any input must give Ok or a readable Err, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signet_sigcrypto::verify::{TrustStore, VerifyOptions};
use signet_sigcrypto::{xml, xmldsig};

fuzz_target!(|data: &[u8]| {
    if let Ok(c) = xml::canonicalize(data) {
        // Canonicalisation is idempotent: the canonical form is its own canonical form.
        let again = xml::canonicalize(c.as_bytes());
        assert_eq!(again.ok().as_deref(), Some(c.as_str()));
    }
    let _ = xmldsig::verify_enveloped(data, &TrustStore::empty(), &VerifyOptions::default());
});
