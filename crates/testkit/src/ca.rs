//! An outside certificate authority for one test, as a lender's or a token's CA is: its CRL and
//! certificate published over HTTP by Python's `http.server`, and, when asked, an OCSP responder
//! that is `openssl ocsp` (someone else's implementation of RFC 6960). A test can stop
//! publishing (the CA's host is down) and publish again, to see what waits and what retries.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use signet_sigcrypto::pki::{self, IssueOptions, IssuedCert, KeyAlgo, LocalCa};

/// How the CA says whether a certificate is revoked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revocation {
    /// A CRL only (as many Indian CAs publish).
    CrlOnly,
    /// An OCSP responder, and a CRL beside it.
    Ocsp,
}

/// A CA with its servers, stopped when dropped.
pub struct TestCa {
    pub ca: LocalCa,
    /// The signer certificates issued at the start, in the order asked.
    pub signers: Vec<IssuedCert>,
    dir: tempfile::TempDir,
    children: Vec<Child>,
}

impl TestCa {
    /// A CA named `name` publishing as `revocation` says, with one RSA signer certificate per
    /// name in `signers` (its AIA and CRL distribution point name the servers).
    pub fn start(name: &str, revocation: Revocation, signers: &[&str]) -> TestCa {
        let ca = LocalCa::generate_with(name, KeyAlgo::Rsa2048).expect("test CA");
        let dir = tempfile::tempdir().expect("tempdir");
        let (http_port, ocsp_port) = (free_port(), free_port());
        let options = IssueOptions {
            crl_url: Some(format!("http://127.0.0.1:{http_port}/ca.crl")),
            ca_issuers_url: Some(format!("http://127.0.0.1:{http_port}/ca.cer")),
            ocsp_url: (revocation == Revocation::Ocsp).then(|| format!("http://127.0.0.1:{ocsp_port}/")),
            ..IssueOptions::default()
        };
        let signers: Vec<IssuedCert> = signers
            .iter()
            .map(|cn| ca.issue_signer_with(cn, KeyAlgo::Rsa2048, &options).expect("signer certificate"))
            .collect();
        let mut test_ca = TestCa { ca, signers, dir, children: Vec::new() };
        test_ca.write_files();
        test_ca.publish(true);
        let http = test_ca.static_server(http_port);
        test_ca.children.push(http);
        if revocation == Revocation::Ocsp {
            let ocsp = test_ca.ocsp_responder(ocsp_port);
            test_ca.children.push(ocsp);
        }
        test_ca
    }

    /// The CA certificate, PEM (a trust root).
    pub fn ca_pem(&self) -> String {
        self.ca.cert_pem()
    }

    /// Signer `index` in a PKCS#12 under `password`, the CA certificate as its chain.
    pub fn signer_p12(&self, index: usize, password: &str) -> Vec<u8> {
        let signer = &self.signers[index];
        pki::write_p12(&signer.key_pkcs8_der, &signer.cert_der, &[self.ca.cert_der().to_vec()], password)
            .expect("PKCS#12")
    }

    /// Publishes the CRL (`true`) or takes it down (`false`: its address answers 404). The OCSP
    /// responder, if any, keeps answering: stop both with [`stop_ocsp`](Self::stop_ocsp).
    pub fn publish(&self, published: bool) {
        let path = self.dir.path().join("ca.crl");
        if published {
            let crl = self.ca.issue_crl(&[], Duration::from_secs(7 * 86_400)).expect("CRL");
            std::fs::write(path, crl).expect("CRL file");
        } else {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Stops the OCSP responder (a CA whose responder is down, its CRL still published or not).
    pub fn stop_ocsp(&mut self) {
        if self.children.len() > 1
            && let Some(mut ocsp) = self.children.pop()
        {
            let _ = ocsp.kill();
            let _ = ocsp.wait();
        }
    }

    fn write_files(&self) {
        let write = |name: &str, bytes: &[u8]| std::fs::write(self.dir.path().join(name), bytes).expect("CA file");
        write("ca.pem", self.ca.cert_pem().as_bytes());
        write("ca.cer", self.ca.cert_der());
        let responder = self.ca.issue_ocsp_responder("Test OCSP Responder").expect("responder certificate");
        write("ocsp.pem", responder.cert_pem().as_bytes());
        write("ocsp.key", responder.key_pem().as_bytes());
        let index: String = self
            .signers
            .iter()
            .map(|s| format!("V\t491231235959Z\t\t{}\tunknown\t/CN=signer\n", serial_hex(&s.cert_der)))
            .collect();
        write("index.txt", index.as_bytes());
    }

    fn static_server(&self, port: u16) -> Child {
        let code = "import http.server,functools,sys\n\
h=functools.partial(http.server.SimpleHTTPRequestHandler,directory=sys.argv[1])\n\
h.log_message=lambda *a:None\n\
s=http.server.ThreadingHTTPServer(('127.0.0.1',int(sys.argv[2])),h)\nprint(s.server_address[1],flush=True)\ns.serve_forever()\n";
        let mut child = Command::new("python3")
            .args(["-c", code])
            .arg(self.dir.path())
            .arg(port.to_string())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 for the CA's web server");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("port");
        assert_eq!(line.trim(), port.to_string(), "the CA's web server listens where its certificates point");
        child
    }

    /// Readiness comes from its log: a probing connection would hold up the single-threaded
    /// responder.
    fn ocsp_responder(&self, port: u16) -> Child {
        let log_path = self.dir.path().join("ocsp.log");
        let log = std::fs::File::create(&log_path).expect("log");
        let child = Command::new("openssl")
            .args(["ocsp", "-port", &port.to_string(), "-index", "index.txt", "-CA", "ca.pem"])
            .args(["-rsigner", "ocsp.pem", "-rkey", "ocsp.key", "-nmin", "10", "-ignore_err"])
            .current_dir(self.dir.path())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("openssl ocsp");
        wait_for_log(&log_path, "waiting for OCSP client");
        child
    }
}

impl Drop for TestCa {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// The certificate's serial as `openssl ocsp`'s index writes it: upper-case hex, without the
/// zero byte DER puts before a serial whose top bit is set.
fn serial_hex(cert_der: &[u8]) -> String {
    let cert = pki::parse_cert(cert_der).expect("certificate");
    let bytes = cert.tbs_certificate.serial_number.as_bytes();
    let start = bytes.iter().position(|b| *b != 0).unwrap_or(bytes.len().saturating_sub(1));
    bytes[start..].iter().map(|b| format!("{b:02X}")).collect()
}

fn wait_for_log(path: &Path, needle: &str) {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(20) {
        if std::fs::read_to_string(path).is_ok_and(|log| log.contains(needle)) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("openssl ocsp did not start: {}", std::fs::read_to_string(path).unwrap_or_default());
}
