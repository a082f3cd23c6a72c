//! Outside validators: poppler's pdfsig and pyHanko judge what we sign, not our own verifier.

use std::path::Path;

use base64::Engine;
use std::process::Command;

/// pdfsig's report on `pdf` (its standard output).
pub fn pdfsig(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("signed.pdf");
    std::fs::write(&path, pdf).expect("write");
    let output = Command::new("pdfsig").arg(&path).output().expect("pdfsig (poppler-utils)");
    String::from_utf8_lossy(&output.stdout).to_string()
}

/// The common name of the certificate behind the first signature pdfsig finds valid; panics
/// when pdfsig finds none valid.
pub fn pdfsig_signer(pdf: &[u8]) -> String {
    let report = pdfsig(pdf);
    assert!(report.contains("Signature is Valid."), "{report}");
    report
        .lines()
        .find_map(|line| line.trim().strip_prefix("- Signer Certificate Common Name: "))
        .unwrap_or_default()
        .to_string()
}

/// `pyhanko sign validate` with `roots_pem` as the only trust roots and no revocation checks:
/// it must succeed and call nothing INVALID. Returns its report (`--pretty-print`).
pub fn pyhanko_validates(pdf: &[u8], roots_pem: &[&[u8]]) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("pyhanko.pdf");
    std::fs::write(&path, pdf).expect("write");
    let mut command = Command::new("pyhanko");
    command.args(["sign", "validate"]);
    for (i, root) in roots_pem.iter().enumerate() {
        command.arg("--trust").arg(write(dir.path(), &format!("root{i}.pem"), root));
    }
    let output = command
        .args(["--trust-replace", "--no-revocation-check", "--pretty-print"])
        .arg(&path)
        .output()
        .expect("pyhanko");
    let out = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "pyhanko validate:\n{out}");
    assert!(!out.contains("INVALID"), "pyhanko:\n{out}");
    out
}

/// `pyhanko sign adesverify` (ETSI EN 319 102-1: revocation data required) with `roots_pem` as
/// the only trust roots, at `validation_time` (RFC 3339; now when `None`), pinned so that
/// pyHanko fetches nothing and judges only what the document carries: (passed, report).
pub fn pyhanko_adesverify(pdf: &[u8], roots_pem: &[&[u8]], validation_time: Option<&str>) -> (bool, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("ades.pdf");
    std::fs::write(&path, pdf).expect("write");
    let now = Command::new("date").args(["-u", "+%Y-%m-%dT%H:%M:%S+00:00"]).output().expect("date");
    let now = String::from_utf8_lossy(&now.stdout).trim().to_string();
    let mut command = Command::new("pyhanko");
    command.args(["sign", "adesverify"]);
    for (i, root) in roots_pem.iter().enumerate() {
        command.arg("--trust").arg(write(dir.path(), &format!("root{i}.pem"), root));
    }
    let output = command
        .args(["--trust-replace", "--pretty-print", "--validation-time", validation_time.unwrap_or(&now)])
        .arg(&path)
        .output()
        .expect("pyhanko");
    let out = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    let passed = output.status.success() && !out.contains("INVALID") && !out.contains("INDETERMINATE");
    (passed, out)
}

/// A certificate, DER, as PEM (what pyHanko and openssl take as trust roots).
pub fn cert_pem(der: &[u8]) -> Vec<u8> {
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    format!("-----BEGIN CERTIFICATE-----\n{b64}\n-----END CERTIFICATE-----\n").into_bytes()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path
}
