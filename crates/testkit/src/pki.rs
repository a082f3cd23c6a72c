//! A test PKI on the project's own local CA (`signet_sigcrypto::pki::LocalCa`), for tests that
//! need *a* certificate and key rather than one made by a particular tool. Interop with
//! certificates made by openssl is tested where it matters (`crates/sigcrypto/tests`), with
//! openssl.
//!
//! RSA-2048 unless a TSA profile asks for an EC key: the keys are made per test, and larger
//! ones only cost time.

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
/// `openssl ts -reply` (`scripts/tsa_server.py`) or pyHanko's test TSA
/// (`scripts/pyhanko_tsa_server.py`): outside implementations of the protocol, so our client is
/// tested against someone else's server. Stopped when dropped.
pub struct TestTsa {
    /// The address to configure as the TSA, `http://127.0.0.1:PORT/`.
    pub url: String,
    /// The TSA's root certificate, PEM (a trust root for validators).
    pub root_pem: String,
    /// The TSA's root CA (tests that issue more certificates under it).
    pub root: TestPki,
    /// The TSA's certificate and key.
    pub tsa: IssuedCert,
    child: Child,
    _dir: tempfile::TempDir,
}

impl Drop for TestTsa {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Which implementation answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TsaServer {
    /// `openssl ts -reply`, configured by the profile's other fields.
    OpensslTs,
    /// pyHanko's `DummyTimeStamper`: RSA only, genTime in microseconds, no accuracy, ESS
    /// signingCertificate version 1; the profile's openssl settings do not apply.
    PyHanko,
}

/// A hash, as openssl's TSA configuration names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TsaHash {
    Sha1,
    Sha256,
    Sha384,
    Sha512,
    /// Another 32-byte hash, for answers whose imprint is as long as SHA-256's but is not one.
    Sha3_256,
}

impl TsaHash {
    fn openssl_name(self) -> &'static str {
        match self {
            TsaHash::Sha1 => "sha1",
            TsaHash::Sha256 => "sha256",
            TsaHash::Sha384 => "sha384",
            TsaHash::Sha512 => "sha512",
            TsaHash::Sha3_256 => "sha3-256",
        }
    }
}

/// `accuracy` of the token (RFC 3161 §2.4.2); a zero part is left out of the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TsaAccuracy {
    pub secs: u32,
    /// 0 to 999.
    pub millis: u16,
    /// 0 to 999.
    pub micros: u16,
}

impl TsaAccuracy {
    /// openssl's `accuracy` setting, e.g. `secs:1, millisecs:500`: openssl refuses a part given as
    /// zero (the ASN.1 type allows 1 to 999), so zero parts are not written.
    fn openssl_value(self) -> String {
        let parts = [("secs", self.secs), ("millisecs", self.millis.into()), ("microsecs", self.micros.into())];
        let given: Vec<String> = parts.iter().filter(|(_, v)| *v != 0).map(|(name, v)| format!("{name}:{v}")).collect();
        given.join(", ")
    }
}

/// What kind of answers the TSA gives. The default is what [`TestTsa::start`] has always
/// served: openssl, RSA-2048, whole seconds, accuracy 1 s, no ordering, the TSA's name,
/// ESSCertIDv2 with SHA-256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TsaProfile {
    pub server: TsaServer,
    /// The TSA certificate's key: `Rsa2048`, `EcP256` or `EcP384`.
    pub key: KeyAlgo,
    /// The hash of the token's signature (openssl `signer_digest`).
    pub signer_digest: TsaHash,
    /// Decimal places of genTime's seconds, 0 to 6 (openssl `clock_precision_digits`).
    pub clock_precision_digits: u8,
    /// `None`: no accuracy field.
    pub accuracy: Option<TsaAccuracy>,
    pub ordering: bool,
    /// The TSA names itself in the token (`tsa` field).
    pub tsa_name: bool,
    /// `Sha1`: ESS signingCertificate (version 1); otherwise signingCertificateV2 with this
    /// hash (openssl `ess_cert_id_alg`).
    pub ess_cert_id: TsaHash,
    /// Imprint hashes the TSA grants; a request hashed otherwise is refused (badAlg).
    pub accepted_digests: Vec<TsaHash>,
    /// How long the TSA certificate is valid from now; `None`: the local CA's default (two
    /// years). A short one makes a TSA whose time-stamps are soon due for renewal.
    pub validity: Option<std::time::Duration>,
}

impl Default for TsaProfile {
    fn default() -> TsaProfile {
        TsaProfile {
            server: TsaServer::OpensslTs,
            key: KeyAlgo::Rsa2048,
            signer_digest: TsaHash::Sha256,
            clock_precision_digits: 0,
            accuracy: Some(TsaAccuracy { secs: 1, millis: 0, micros: 0 }),
            ordering: false,
            tsa_name: true,
            ess_cert_id: TsaHash::Sha256,
            accepted_digests: vec![TsaHash::Sha256, TsaHash::Sha384, TsaHash::Sha512],
            validity: None,
        }
    }
}

impl TsaProfile {
    /// pyHanko's TSA.
    pub fn pyhanko() -> TsaProfile {
        TsaProfile { server: TsaServer::PyHanko, ..TsaProfile::default() }
    }

    /// openssl's TSA configuration for the files [`TestTsa::start_with`] writes.
    fn openssl_config(&self) -> String {
        let yes_no = |on: bool| if on { "yes" } else { "no" };
        let digests: Vec<&str> = self.accepted_digests.iter().map(|d| d.openssl_name()).collect();
        let accuracy = self.accuracy.map(|a| format!("accuracy = {}\n", a.openssl_value())).unwrap_or_default();
        format!(
            "[ tsa ]\ndefault_tsa = tsa1\n[ tsa1 ]\ndir = .\nserial = ./tsaserial\ncrypto_device = builtin\n\
             signer_cert = ./tsa.pem\ncerts = ./ca.pem\nsigner_key = ./tsa.key\nsigner_digest = {}\n\
             default_policy = 1.2.3.4.1\ndigests = {}\n{accuracy}clock_precision_digits = {}\nordering = {}\n\
             tsa_name = {}\ness_cert_id_chain = no\ness_cert_id_alg = {}\n",
            self.signer_digest.openssl_name(),
            digests.join(", "),
            self.clock_precision_digits,
            yes_no(self.ordering),
            yes_no(self.tsa_name),
            self.ess_cert_id.openssl_name(),
        )
    }

    fn script(&self) -> &'static str {
        match self.server {
            TsaServer::OpensslTs => "tsa_server.py",
            TsaServer::PyHanko => "pyhanko_tsa_server.py",
        }
    }
}

impl TestTsa {
    /// A root "TSA Test Root", a TSA certificate "Test TSA" whose revocation is published as a
    /// CRL by the same server (so signatures time-stamped here can reach B-LT), and the server.
    /// Both servers read their files on each request: they are written once the port is known.
    pub fn start() -> TestTsa {
        TestTsa::start_with(&TsaProfile::default())
    }

    /// [`start`](Self::start) answering as `profile` says.
    pub fn start_with(profile: &TsaProfile) -> TestTsa {
        let root = TestPki::new("TSA Test Root");
        let dir = tempfile::tempdir().expect("tempdir");
        let mut child = spawn_server(profile, dir.path());
        let url = format!("http://127.0.0.1:{}/", first_line(&mut child));
        let options = IssueOptions {
            crl_url: Some(format!("{url}ca.crl")),
            validity: profile.validity,
            ..IssueOptions::default()
        };
        let tsa = root.ca.issue_tsa_for("Test TSA", profile.key, &options).expect("TSA certificate");
        write_tsa_files(dir.path(), &root, &tsa, profile);
        let crl = root.ca.issue_crl(&[], std::time::Duration::from_secs(7 * 86400)).expect("CRL");
        std::fs::write(dir.path().join("ca.crl"), crl).expect("CRL file");
        TestTsa { url, root_pem: root.ca_pem(), root, tsa, child, _dir: dir }
    }
}

fn spawn_server(profile: &TsaProfile, dir: &Path) -> Child {
    Command::new("python3")
        .arg(crate::script(profile.script()))
        .arg(dir)
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 for the TSA server")
}

fn write_tsa_files(dir: &Path, root: &TestPki, tsa: &IssuedCert, profile: &TsaProfile) {
    let write = |name: &str, contents: &str| std::fs::write(dir.join(name), contents).expect("TSA file");
    write("ca.pem", &root.ca_pem());
    write("tsa.pem", &tsa.cert_pem());
    write("tsa.key", &tsa.key_pem());
    write("tsaserial", "01\n");
    write("tsa.cnf", &profile.openssl_config());
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
