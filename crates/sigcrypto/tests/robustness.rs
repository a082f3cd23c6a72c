//! Mutation smoke test: thousands of corrupted CMS, PKCS#12, XML and OCSP/TSP inputs must
//! produce errors or reports, never panics. (cargo-fuzz targets in /fuzz go further.)
mod common;
use common::*;

use signet_sigcrypto::cms::{self, CmsOptions};
use signet_sigcrypto::pki::{self, KeyAlgo};
use signet_sigcrypto::signer::LocalKeySigner;
use signet_sigcrypto::verify::{self, Content, TrustStore, VerifyOptions};
use signet_sigcrypto::xmldsig::{self, XmlSignOptions};
use signet_sigcrypto::{revocation, tsp, xml};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..=rng.below(4) {
        match rng.below(4) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] = rng.next() as u8;
            }
            2 => v.truncate(rng.below(v.len() + 1)),
            _ => {
                let i = rng.below(v.len() + 1);
                v.insert(i, rng.next() as u8);
            }
        }
    }
    v
}

#[test]
fn corrupted_inputs_never_panic() -> TestResult {
    let pki = Pki::new(KeyAlgo::EcP256);
    let s =
        LocalKeySigner::from_pkcs8(&pki.signer.key_pkcs8_der, &pki.signer.cert_der, vec![pki.ca.cert_der().to_vec()])?;
    let trust = TrustStore::from_der_certs(&[pki.ca.cert_der().to_vec()])?;
    let data = b"robust";
    let digest = pki::sha256(data);
    let cms_der = cms::sign_attached(&s, data, &CmsOptions::cades())?;
    let p12 = pki::write_p12(&pki.signer.key_pkcs8_der, &pki.signer.cert_der, &[], "pw")?;
    let xml_signed =
        xmldsig::sign_enveloped(b"<a xmlns:p=\"urn:p\"><p:b c=\"&amp;\">t</p:b></a>", &s, &XmlSignOptions::xades())?;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..1500 {
        let m = mutate(&mut rng, &cms_der);
        let _ = cms::check_external_cms(&m, &digest);
        let _ = verify::verify_cms(&m, Content::Embedded, &trust, &VerifyOptions::default());
        let _ = tsp::check_token(&m, &digest);
        let _ = revocation::check_ocsp_response(&m, &pki.signer.cert_der, pki.ca.cert_der());
        let _ = revocation::check_crl(&m, &pki.signer.cert_der, pki.ca.cert_der());
        let _ = pki::certs_from_pem_or_der(&m);
    }
    for _ in 0..300 {
        let m = mutate(&mut rng, &p12);
        let _ = pki::load_p12(&m, "pw");
    }
    for _ in 0..1500 {
        let m = mutate(&mut rng, &xml_signed);
        let _ = xml::canonicalize(&m);
        let _ = xmldsig::verify_enveloped(&m, &trust, &VerifyOptions::default());
    }
    Ok(())
}
