//! A SoftHSM2 token for the bridge's tests, set up by its own tools (`softhsm2-util`, and
//! OpenSC's `pkcs11-tool` for the certificates), and the `signet-bridge` command run with
//! SOFTHSM2_CONF set for the child (the module reads it when it is loaded).
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use signet_sigcrypto::pki::{KeyAlgo, LocalCa};

pub const MODULE: &str = "/usr/lib/softhsm/libsofthsm2.so";
pub const PIN: &str = "123456";
pub const LABEL: &str = "Signer Token";

pub struct Token {
    pub dir: tempfile::TempDir,
    pub ca: LocalCa,
    pub serial: String,
}

pub fn conf(dir: &Path) -> PathBuf {
    dir.join("softhsm2.conf")
}

pub fn tool(dir: &Path, program: &str, args: &[&str]) {
    let out = Command::new(program)
        .args(args)
        .env("SOFTHSM2_CONF", conf(dir))
        .output()
        .unwrap_or_else(|e| panic!("{program} (scripts/install-test-deps.sh installs softhsm2 and opensc): {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{program} {args:?}: {text}");
}

/// `signet-bridge` with `args`, the PIN (if any) on standard input.
pub fn bridge(dir: &Path, args: &[&str], pin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_signet-bridge"))
        .args(args)
        .env("SOFTHSM2_CONF", conf(dir))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("signet-bridge");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = writeln!(stdin, "{}", pin.unwrap_or_default());
    }
    child.wait_with_output().expect("signet-bridge output")
}

pub fn json_of(output: &Output) -> Value {
    assert!(output.status.success(), "signet-bridge failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("json")
}

/// A fresh SoftHSM token holding an RSA and an EC signer (ids 01, 02) with their
/// certificates, and the CA's certificate (id 03, not for signing).
pub fn token() -> Token {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::create_dir_all(d.join("tokens")).expect("tokens");
    let settings = format!(
        "directories.tokendir = {}\nobjectstore.backend = file\nlog.level = ERROR\n",
        d.join("tokens").display()
    );
    std::fs::write(conf(d), settings).expect("conf");
    tool(d, "softhsm2-util", &["--init-token", "--free", "--label", LABEL, "--so-pin", "12345678", "--pin", PIN]);
    let ca = LocalCa::generate("Token Test CA").expect("ca");
    for (id, name, algo) in [("01", "Asha Verma", KeyAlgo::Rsa2048), ("02", "Ravi Kumar", KeyAlgo::EcP256)] {
        let issued = ca.issue_signer(name, algo).expect("signer");
        let (key, cert) = (d.join(format!("{id}.key")), d.join(format!("{id}.der")));
        std::fs::write(&key, issued.key_pem()).expect("key");
        std::fs::write(&cert, &issued.cert_der).expect("cert");
        let key = key.display().to_string();
        tool(d, "softhsm2-util", &["--import", &key, "--token", LABEL, "--label", name, "--id", id, "--pin", PIN]);
        write_certificate(d, &cert, id, name);
    }
    std::fs::write(d.join("ca.der"), ca.cert_der()).expect("ca");
    write_certificate(d, &d.join("ca.der"), "03", "CA");
    let tokens = json_of(&bridge(d, &["tokens", "--module", MODULE], None));
    let serial = tokens
        .as_array()
        .and_then(|list| list.iter().find(|t| t["label"] == LABEL))
        .and_then(|t| t["serial"].as_str())
        .expect("the token is listed")
        .to_string();
    Token { dir, ca, serial }
}

pub fn write_certificate(d: &Path, file: &Path, id: &str, label: &str) {
    let file = file.display().to_string();
    let args = [
        "--module",
        MODULE,
        "--token-label",
        LABEL,
        "--login",
        "--pin",
        PIN,
        "--write-object",
        &file,
        "--type",
        "cert",
        "--id",
        id,
        "--label",
        label,
    ];
    tool(d, "pkcs11-tool", &args);
}

pub fn certificates(t: &Token) -> Vec<Value> {
    let listed = json_of(&bridge(t.dir.path(), &["certificates", "--module", MODULE, "--token", &t.serial], None));
    listed.as_array().cloned().unwrap_or_default()
}
