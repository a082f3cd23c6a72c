//! Fuzz the CMS / ASN.1 side of signet-sigcrypto: CMS SignedData checking and verification,
//! RFC 3161 tokens and responses, OCSP responses, CRLs, certificates and PKCS#12.
//! Any input must give Ok or a readable Err, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signet_sigcrypto::verify::{Content, TrustStore, VerifyOptions};
use signet_sigcrypto::{chain, cms, pki, revocation, tsp, verify};

fuzz_target!(|data: &[u8]| {
    let digest = [0u8; 32];
    let _ = cms::check_external_cms(data, &digest);
    let _ = cms::check_cms(data, None);
    let _ = cms::signature_values(data);
    let _ = verify::verify_cms(data, Content::Embedded, &TrustStore::empty(), &VerifyOptions::default());
    let _ = verify::signer_digest_algorithm(data);
    let _ = tsp::check_token(data, &digest);
    let _ = tsp::parse_response(data, &digest, &[1]);
    let _ = tsp::signature_timestamp_tokens(data);
    let _ = tsp::add_signature_timestamp_by(data, |_| Err(signet_sigcrypto::Error::Tsp("offline".into())));
    let _ = pki::certs_from_pem_or_der(data);
    let _ = pki::private_key_to_pkcs8(data);
    let _ = revocation::ocsp_url(data);
    let _ = revocation::crl_urls(data);
    let _ = chain::build_chain(data, &[data.to_vec()]);
    if data.len() > 2 {
        // Split the input: first part as a response/CRL, the rest as the certificate.
        let cut = usize::from(data[0]) % data.len();
        let (a, b) = data.split_at(cut);
        let _ = revocation::check_ocsp_response(a, b, b);
        let _ = revocation::check_crl(a, b, b);
        let _ = pki::load_p12(a, "pw");
    }
});
