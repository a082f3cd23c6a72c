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
