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
    Command::new(prog).args(args).current_dir(dir).output().unwrap_or_else(|e| panic!("cannot run {prog}: {e}"))
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
pub fn openssl_cms_verify(dir: &Path, cms: &str, content: Option<&str>, ca: &str) -> (bool, String) {
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
    (o.status.success() && t.contains("Verification successful"), t)
}

/// A child process killed on drop (test servers).
pub struct ChildGuard(pub std::process::Child);
impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// How long a helper server may take to get ready: generous, because a busy CI machine has
/// taken more than the few seconds a quiet one needs.
pub const READY_WITHIN: std::time::Duration = std::time::Duration::from_secs(60);

/// Panics with what `child` wrote to `log` (its stderr), after stopping it.
fn not_ready(child: &mut std::process::Child, log: &Path, what: &str, why: &str) -> ! {
    let _ = child.kill();
    let status = child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
    let said = std::fs::read_to_string(log).unwrap_or_default();
    panic!("{what} did not get ready: {why} ({status}); it said:\n{said}");
}

/// Waits until `port` accepts connections, failing early (with the child's log) if the child
/// exits first.
fn await_port(child: &mut std::process::Child, port: u16, log: &Path, what: &str) {
    let deadline = std::time::Instant::now() + READY_WITHIN;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            not_ready(child, log, what, &format!("it exited with {status}"));
        }
        if std::time::Instant::now() > deadline {
            not_ready(child, log, what, &format!("nothing accepted on port {port} within {READY_WITHIN:?}"));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Waits until the child's `log` contains `needle`, for servers that a probing connect would
/// disturb; fails early (with the log) if the child exits first.
pub fn await_log(child: &mut std::process::Child, log: &Path, needle: &str, what: &str) {
    let deadline = std::time::Instant::now() + READY_WITHIN;
    while !std::fs::read_to_string(log).unwrap_or_default().contains(needle) {
        if let Ok(Some(status)) = child.try_wait() {
            not_ready(child, log, what, &format!("it exited with {status}"));
        }
        if std::time::Instant::now() > deadline {
            not_ready(child, log, what, &format!("its log did not say {needle:?} within {READY_WITHIN:?}"));
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
}

/// Starts a server that prints its port on the first line of its stdout (stderr goes to
/// `log`), and answers that port once it accepts connections.
fn spawn_announcing(mut command: Command, log: &Path, what: &str) -> (ChildGuard, u16) {
    let stderr = std::fs::File::create(log).expect("log");
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    // The line is read on a thread so that a child that never prints cannot hang the test.
    let out = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let mut line = String::new();
        let _ = std::io::BufReader::new(out).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(READY_WITHIN).unwrap_or_default();
    let Ok(port) = line.trim().parse() else {
        not_ready(&mut child, log, what, &format!("its first line was {line:?}, not a port"));
    };
    await_port(&mut child, port, log, what);
    (ChildGuard(child), port)
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
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../testkit/scripts/tsa_server.py");
        let mut command = Command::new("python3");
        command.arg(script).arg(pki.dir.path());
        let (child, port) = spawn_announcing(command, &pki.path("tsa.log"), "the TSA server");
        Tsa { url: format!("http://127.0.0.1:{port}/"), tsa, _child: child }
    }
}

/// A free TCP port on 127.0.0.1 (for servers that cannot bind port 0 and report it).
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

/// Serve a directory over HTTP on 127.0.0.1 (CRLs, caIssuers).
pub fn static_server(dir: &Path) -> (ChildGuard, u16) {
    let code = "import http.server,functools,sys\n\
h=functools.partial(http.server.SimpleHTTPRequestHandler,directory=sys.argv[1])\n\
h.log_message=lambda *a:None\n\
s=http.server.HTTPServer(('127.0.0.1',0),h)\nprint(s.server_address[1],flush=True)\ns.serve_forever()\n";
    let mut command = Command::new("python3");
    command.args(["-c", code]).arg(dir);
    spawn_announcing(command, &dir.join("static-server.log"), "the static HTTP server")
}

/// openssl's serial number representation (uppercase hex) of a PEM cert file in `dir`.
pub fn openssl_serial(dir: &Path, pem: &str) -> String {
    let o = run(dir, "openssl", &["x509", "-in", pem, "-noout", "-serial"]);
    String::from_utf8_lossy(&o.stdout).trim().trim_start_matches("serial=").to_string()
}

/// An `openssl ocsp` responder on `port` over an index.txt; `entries` are (pem file, revoked?).
/// Readiness is read from its log: a probing TCP connect would wedge the single-threaded
/// OpenSSL 3.0 responder.
pub fn ocsp_responder(pki: &Pki, port: u16, entries: &[(&str, bool)]) -> ChildGuard {
    let resp = pki.ca.issue_ocsp_responder("Signet Test OCSP").expect("ocsp cert");
    pki.write("ocsp.pem", resp.cert_pem());
    pki.write("ocsp.key", resp.key_pem());
    let mut index = String::new();
    for (pem, revoked) in entries {
        let serial = openssl_serial(pki.dir.path(), pem);
        let (st, rev) = if *revoked { ("R", "250101000000Z,keyCompromise") } else { ("V", "") };
        index.push_str(&format!("{st}\t491231235959Z\t{rev}\t{serial}\tunknown\t/CN={pem}\n"));
    }
    pki.write("index.txt", index);
    let log = std::fs::File::create(pki.path("ocsp.log")).expect("log");
    let child = Command::new("openssl")
        .args([
            "ocsp",
            "-port",
            &port.to_string(),
            "-index",
            "index.txt",
            "-CA",
            "ca.pem",
            "-rsigner",
            "ocsp.pem",
            "-rkey",
            "ocsp.key",
            "-nmin",
            "10",
            "-ignore_err",
        ])
        .current_dir(pki.dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(log)
        .spawn()
        .expect("openssl ocsp");
    let mut guard = ChildGuard(child);
    await_log(&mut guard.0, &pki.path("ocsp.log"), "waiting for OCSP client connections", "openssl ocsp");
    guard
}
