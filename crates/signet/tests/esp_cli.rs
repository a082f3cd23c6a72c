//! `signet esp` as a developer runs it: registering an ASP (and the one-line refusals) and
//! serving the test ESP.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use signet_sigcrypto::pki;
use signet_testkit::blocking::blocking_client;
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;

const SIGNET: SignetBin = signet_bin!();

fn stderr_lines(output: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr).lines().map(str::to_string).collect()
}

#[test]
fn register_asp_refuses_bad_input_in_one_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = SIGNET.run(&["esp", "register-asp", "--cert", "nowhere.pem", "--asp-id", "ASP-1"], dir.path());
    assert!(!missing.status.success());
    let lines = stderr_lines(&missing);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("signet: cannot read nowhere.pem"), "{lines:?}");

    std::fs::write(dir.path().join("junk.pem"), "not a certificate").expect("write");
    let junk = SIGNET.run(&["esp", "register-asp", "--cert", "junk.pem", "--asp-id", "ASP-1"], dir.path());
    assert!(!junk.status.success());
    assert_eq!(stderr_lines(&junk).len(), 1, "{:?}", stderr_lines(&junk));

    let asp = pki::self_signed_rsa("ASP", 2048).expect("certificate");
    std::fs::write(dir.path().join("asp.pem"), asp.cert_pem()).expect("write");
    let spaced = SIGNET.run(&["esp", "register-asp", "--cert", "asp.pem", "--asp-id", "two words"], dir.path());
    assert!(!spaced.status.success());
    assert_eq!(stderr_lines(&spaced).len(), 1);

    let ok = SIGNET.run(&["esp", "register-asp", "--cert", "asp.pem", "--asp-id", "ASP-1"], dir.path());
    assert!(ok.status.success(), "{:?}", stderr_lines(&ok));
    let registry = std::fs::read_to_string(dir.path().join("signet-esp").join("asps.json")).expect("registry");
    assert!(registry.contains("ASP-1") && registry.contains("BEGIN CERTIFICATE"), "{registry}");
}

/// A `signet esp serve` child, killed when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn serve_prints_its_address_and_certificates() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = SIGNET
        .command()
        .args(["esp", "serve", "--listen", "127.0.0.1:0", "--data-dir", "esp-data", "--fixed-otp", "123456"])
        .current_dir(dir.path())
        .env("SIGNET_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn");
    let stdout = child.stdout.take().expect("stdout");
    let served = Served(child);
    let lines: Vec<String> = BufReader::new(stdout).lines().take(3).map(|l| l.expect("line")).collect();
    let base = lines[0].split_whitespace().find(|w| w.starts_with("http://")).expect("address").to_string();
    let data = dir.path().join("esp-data").canonicalize().expect("data dir");
    assert!(lines[1].ends_with(&data.join("esp.cer").display().to_string()), "{lines:?}");
    assert!(lines[2].ends_with(&data.join("ca.cer").display().to_string()), "{lines:?}");

    let http = blocking_client();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !http.get(format!("{base}/healthz")).send().is_ok_and(|r| r.status().is_success()) {
        assert!(Instant::now() < deadline, "{base} did not answer");
        std::thread::sleep(Duration::from_millis(100));
    }
    let ca = http.get(format!("{base}/ca.cer")).send().expect("ca.cer");
    assert!(ca.status().is_success());
    assert!(std::fs::read(data.join("ca.cer")).expect("ca.cer").len() > 100);
    drop(served);
}
