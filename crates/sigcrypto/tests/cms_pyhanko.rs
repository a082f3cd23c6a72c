//! Second, independent CMS checker: pyHanko validates our detached CAdES signatures
//! (with and without a signature time-stamp).
mod common;
use common::*;

use signet_sigcrypto::cms::{self, CmsOptions};
use signet_sigcrypto::pki::KeyAlgo;
use signet_sigcrypto::signer::LocalKeySigner;
use signet_sigcrypto::{HttpConfig, tsp};

#[test]
fn pyhanko_validates_detached_cms() -> TestResult {
    for algo in [KeyAlgo::Rsa2048, KeyAlgo::EcP256] {
        let pki = Pki::new(algo);
        let tsa = Tsa::start(&pki);
        let s = LocalKeySigner::from_pkcs8(
            &pki.signer.key_pkcs8_der,
            &pki.signer.cert_der,
            vec![pki.ca.cert_der().to_vec()],
        )?;
        let data = b"pyhanko checks this";
        pki.write("data.bin", data);
        let der = cms::sign_detached(&s, data, &CmsOptions::cades())?;
        let stamped = tsp::add_signature_timestamp_with(&der, &tsa.url, &HttpConfig::allow_private())?;
        for (name, bytes) in [("plain.p7s", &der), ("stamped.p7s", &stamped)] {
            pki.write(name, bytes);
            let o = run(
                pki.dir.path(),
                "pyhanko",
                &[
                    "sign",
                    "validate",
                    "--trust",
                    "ca.pem",
                    "--trust-replace",
                    "--no-revocation-check",
                    "--pretty-print",
                    "--detached",
                    name,
                    "data.bin",
                ],
            );
            let t = text(&o);
            assert!(o.status.success(), "{algo:?} {name}: {t}");
            assert!(
                t.contains("The signature is judged VALID.") && t.contains("The signer's certificate is trusted."),
                "{algo:?} {name}: {t}"
            );
            if name == "stamped.p7s" {
                assert!(
                    t.contains("The timestamp token is cryptographically sound.")
                        && t.contains("The TSA certificate is trusted."),
                    "{t}"
                );
            }
        }
        pki.write("other.bin", b"something else");
        let o = run(
            pki.dir.path(),
            "pyhanko",
            &[
                "sign",
                "validate",
                "--trust",
                "ca.pem",
                "--trust-replace",
                "--no-revocation-check",
                "--detached",
                "plain.p7s",
                "other.bin",
            ],
        );
        assert!(!o.status.success(), "{}", text(&o));
    }
    Ok(())
}
