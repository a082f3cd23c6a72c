//! A test PKI on the project's own local CA (`signet_sigcrypto::pki::LocalCa`), for tests that
//! need *a* certificate and key rather than one made by a particular tool. Interop with
//! certificates made by openssl is tested where it matters (`crates/sigcrypto/tests`), with
//! openssl.
//!
//! RSA-2048 throughout: the keys are made per test, and larger ones only cost time.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use signet_sigcrypto::pki::{self, IssueOptions, IssuedCert, KeyAlgo, LocalCa};

/// A root CA for one test.
pub struct TestPki {
    pub ca: LocalCa,
}

impl TestPki {
    /// A new root CA called `name`.
    pub fn new(name: &str) -> TestPki {
        TestPki { ca: LocalCa::generate_with(name, KeyAlgo::Rsa2048).expect("test CA") }
    }

    /// A document-signing certificate (digitalSignature, nonRepudiation) with its key; with
    /// `organization`, the subject carries it as O.
    pub fn signer(&self, common_name: &str, organization: Option<&str>) -> IssuedCert {
        let options = IssueOptions { organization: organization.map(str::to_string), ..IssueOptions::default() };
        self.ca.issue_signer_with(common_name, KeyAlgo::Rsa2048, &options).expect("signer certificate")
    }

    /// [`signer`](Self::signer) in a PKCS#12 protected by `password`, with the CA certificate
    /// as its chain (what a user uploads as a signing profile).
    pub fn signer_p12(&self, common_name: &str, organization: Option<&str>, password: &str) -> Vec<u8> {
        let signer = self.signer(common_name, organization);
        pki::write_p12(&signer.key_pkcs8_der, &signer.cert_der, &[self.ca.cert_der().to_vec()], password)
            .expect("PKCS#12")
    }

    /// The CA certificate, PEM (a trust root for pyHanko and openssl).
    pub fn ca_pem(&self) -> String {
        self.ca.cert_pem()
    }
}

/// An RFC 3161 TSA for one test: a TSA certificate from its own [`TestPki`], answering through
/// `openssl ts -reply` (`scripts/tsa_server.py`): an outside implementation of the protocol, so
/// our client is tested against someone else's server. Stopped when dropped.
pub struct TestTsa {
    /// The address to configure as the TSA, `http://127.0.0.1:PORT/`.
    pub url: String,
    /// The TSA's root certificate, PEM (a trust root for validators).
    pub root_pem: String,
    child: Child,
    _dir: tempfile::TempDir,
}

impl Drop for TestTsa {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// openssl's TSA configuration for the files [`TestTsa::start`] writes.
const TSA_CONFIG: &str = "[ tsa ]\ndefault_tsa = tsa1\n[ tsa1 ]\ndir = .\nserial = ./tsaserial\n\
crypto_device = builtin\nsigner_cert = ./tsa.pem\ncerts = ./ca.pem\nsigner_key = ./tsa.key\n\
signer_digest = sha256\ndefault_policy = 1.2.3.4.1\ndigests = sha256, sha384, sha512\naccuracy = secs:1\n\
ordering = no\ntsa_name = yes\ness_cert_id_chain = no\ness_cert_id_alg = sha256\n";

impl TestTsa {
    /// A root "TSA Test Root", a TSA certificate "Test TSA" whose revocation is published as a
    /// CRL by the same server (so signatures time-stamped here can reach B-LT), and the server.
    /// The server reads its files on each request: they are written once its port is known.
    pub fn start() -> TestTsa {
        let root = TestPki::new("TSA Test Root");
        let dir = tempfile::tempdir().expect("tempdir");
        let mut child = Command::new("python3")
            .arg(crate::script("tsa_server.py"))
            .arg(dir.path())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 for the TSA server");
        let port = first_line(&mut child);
        let url = format!("http://127.0.0.1:{port}/");
        let options = IssueOptions { crl_url: Some(format!("{url}ca.crl")), ..IssueOptions::default() };
        let tsa = root.ca.issue_tsa_with("Test TSA", &options).expect("TSA certificate");
        write_tsa_files(dir.path(), &root, &tsa);
        let crl = root.ca.issue_crl(&[], std::time::Duration::from_secs(7 * 86400)).expect("CRL");
        std::fs::write(dir.path().join("ca.crl"), crl).expect("CRL file");
        TestTsa { url, root_pem: root.ca_pem(), child, _dir: dir }
    }
}

fn write_tsa_files(dir: &Path, root: &TestPki, tsa: &IssuedCert) {
    let write = |name: &str, contents: &str| std::fs::write(dir.join(name), contents).expect("TSA file");
    write("ca.pem", &root.ca_pem());
    write("tsa.pem", &tsa.cert_pem());
    write("tsa.key", &tsa.key_pem());
    write("tsaserial", "01\n");
    write("tsa.cnf", TSA_CONFIG);
}

fn first_line(child: &mut Child) -> String {
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("port");
    line.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signer_p12_opens_with_its_password_and_names_its_subject() {
        let pki = TestPki::new("Kit Test CA");
        let p12 = pki.signer_p12("Treasury Signing", Some("Acme Bank"), "s3cret");
        let opened = pki::load_p12(&p12, "s3cret").expect("opens");
        assert_eq!(pki::cert_common_name(&opened.cert_der).as_deref(), Some("Treasury Signing"));
        assert_eq!(opened.chain_der, vec![pki.ca.cert_der().to_vec()]);
        assert!(pki::load_p12(&p12, "wrong").is_err());
    }
}
