//! Shared test helpers: temp dirs, running outside validators (openssl, xmlsec1), a local PKI.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use signet_sigcrypto::pki::{IssuedCert, KeyAlgo, LocalCa};

pub type TestResult = Result<(), Box<dyn std::error::Error>>;

pub struct Pki {
    pub dir: tempfile::TempDir,
    pub ca: LocalCa,
    pub signer: IssuedCert,
}

impl Pki {
    pub fn new(algo: KeyAlgo) -> Pki {
        let dir = tempfile::tempdir().expect("tempdir");
        let ca = LocalCa::generate_with("Signet Test CA", KeyAlgo::EcP256).expect("ca");
        let signer = ca.issue_signer("Test Signer", algo).expect("signer");
        std::fs::write(dir.path().join("ca.pem"), ca.cert_pem()).expect("write");
        std::fs::write(dir.path().join("signer.pem"), signer.cert_pem()).expect("write");
        std::fs::write(dir.path().join("signer.key"), signer.key_pem()).expect("write");
        Pki { dir, ca, signer }
    }
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    pub fn write(&self, name: &str, data: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, data).expect("write");
        p
    }
}

/// Run a command in `dir`, returning its output (never panics on non-zero exit).
pub fn run(dir: &Path, prog: &str, args: &[&str]) -> Output {
    Command::new(prog)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {prog}: {e}"))
}

pub fn text(o: &Output) -> String {
    format!(
        "rc={:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `openssl cms -verify` a DER CMS; `content` for detached signatures. Returns (ok, output).
pub fn openssl_cms_verify(
    dir: &Path,
    cms: &str,
    content: Option<&str>,
    ca: &str,
) -> (bool, String) {
    let mut args = vec![
        "cms",
        "-verify",
        "-binary",
        "-inform",
        "DER",
        "-in",
        cms,
        "-CAfile",
        ca,
        "-purpose",
        "any",
        "-out",
        "verified.out",
    ];
    if let Some(c) = content {
        args.push("-content");
        args.push(c);
    }
    let o = run(dir, "openssl", &args);
    let t = text(&o);
    (
        o.status.success() && t.contains("Verification successful"),
        t,
    )
}

/// A child process killed on drop (test servers).
pub struct ChildGuard(pub std::process::Child);
impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn read_port(child: &mut std::process::Child) -> u16 {
    use std::io::BufRead;
    let out = child.stdout.take().expect("stdout");
    let mut line = String::new();
    std::io::BufReader::new(out).read_line(&mut line).expect("port line");
    line.trim().parse().expect("port")
}

/// A local RFC 3161 TSA (`openssl ts -reply` behind a Python HTTP server) on 127.0.0.1:port 0.
pub struct Tsa {
    pub url: String,
    pub tsa: IssuedCert,
    _child: ChildGuard,
}

impl Tsa {
    pub fn start(pki: &Pki) -> Tsa {
        let tsa = pki.ca.issue_tsa("Signet Test TSA").expect("tsa cert");
        pki.write("tsa.pem", tsa.cert_pem());
        pki.write("tsa.key", tsa.key_pem());
        pki.write("tsaserial", "01\n");
        pki.write(
            "tsa.cnf",
            "[ tsa ]\ndefault_tsa = tsa1\n[ tsa1 ]\ndir = .\nserial = ./tsaserial\ncrypto_device = builtin\n\
             signer_cert = ./tsa.pem\ncerts = ./ca.pem\nsigner_key = ./tsa.key\nsigner_digest = sha256\n\
             default_policy = 1.2.3.4.1\ndigests = sha256, sha384, sha512\naccuracy = secs:1\nordering = no\n\
             tsa_name = yes\ness_cert_id_chain = no\ness_cert_id_alg = sha256\n",
        );
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tsa_server.py");
        let mut child = Command::new("python3")
            .arg(script)
            .arg(pki.dir.path())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start tsa server");
        let port = read_port(&mut child);
        Tsa { url: format!("http://127.0.0.1:{port}/"), tsa, _child: ChildGuard(child) }
    }
}
