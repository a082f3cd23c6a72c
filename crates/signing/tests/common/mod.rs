//! Test harness: a local PKI (signer and TSA certificates with AIA OCSP / CRL-DP / caIssuers),
//! a local TSA (`openssl ts -reply` behind Python), an `openssl ocsp` responder, a static HTTP
//! server for the CRL and CA certificate, inputs from other producers, and outside validators.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use signet_sigcrypto::pki::{IssueOptions, IssuedCert, KeyAlgo, LocalCa};
use signet_signing::{HttpConfig, LocalKeySigner};

pub struct ChildGuard(pub Child);
impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The PKI, with the TSA, OCSP and HTTP servers it names, all on 127.0.0.1.
pub struct Pki {
    pub dir: tempfile::TempDir,
    pub ca: LocalCa,
    pub signers: Vec<IssuedCert>,
    pub tsa_url: String,
    servers: Vec<ChildGuard>,
}

impl Pki {
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    pub fn ca_pem(&self) -> PathBuf {
        self.path("ca.pem")
    }
    pub fn signer(&self, n: usize) -> LocalKeySigner {
        let s = &self.signers[n];
        LocalKeySigner::from_pkcs8(&s.key_pkcs8_der, &s.cert_der, vec![self.ca.cert_der().to_vec()]).unwrap()
    }
    pub fn trust(&self) -> Vec<Vec<u8>> {
        vec![self.ca.cert_der().to_vec()]
    }
    pub fn http(&self) -> HttpConfig {
        HttpConfig::allow_private()
    }
    /// Stop the TSA, OCSP and CRL servers: validation must then rely on the embedded DSS.
    pub fn stop_servers(&mut self) {
        self.servers.clear();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// How long a helper server may take to get ready: generous, because a busy CI machine has
/// taken more than the few seconds a quiet one needs.
const READY_WITHIN: Duration = Duration::from_secs(60);

/// Panics with what `child` wrote to `log` (its stderr), after stopping it.
fn not_ready(child: &mut Child, log: &Path, what: &str, why: &str) -> ! {
    let _ = child.kill();
    let status = child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
    let said = std::fs::read_to_string(log).unwrap_or_default();
    panic!("{what} did not get ready: {why} ({status}); it said:\n{said}");
}

/// Waits until `port` accepts connections, failing early (with the child's log) if the child
/// exits first.
fn await_port(child: &mut Child, port: u16, log: &Path, what: &str) {
    let deadline = Instant::now() + READY_WITHIN;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            not_ready(child, log, what, &format!("it exited with {status}"));
        }
        if Instant::now() > deadline {
            not_ready(child, log, what, &format!("nothing accepted on port {port} within {READY_WITHIN:?}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits until the child's `log` contains `needle`, for servers that a probing connect would
/// disturb; fails early (with the log) if the child exits first.
fn await_log(child: &mut Child, log: &Path, needle: &str, what: &str) {
    let deadline = Instant::now() + READY_WITHIN;
    while !std::fs::read_to_string(log).unwrap_or_default().contains(needle) {
        if let Ok(Some(status)) = child.try_wait() {
            not_ready(child, log, what, &format!("it exited with {status}"));
        }
        if Instant::now() > deadline {
            not_ready(child, log, what, &format!("its log did not say {needle:?} within {READY_WITHIN:?}"));
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// Starts a server that prints its port on the first line of its stdout (stderr goes to
/// `log`), and answers it with that port once the port accepts connections.
fn spawn_announcing(command: &mut Command, log: &Path, what: &str) -> (ChildGuard, u16) {
    let stderr = std::fs::File::create(log).unwrap();
    let mut child =
        command.stdout(Stdio::piped()).stderr(stderr).spawn().unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    // The line is read on a thread so that a child that never prints cannot hang the test.
    let out = child.stdout.take().unwrap();
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

fn openssl_serial(dir: &Path, pem: &str) -> String {
    let o = Command::new("openssl").args(["x509", "-in", pem, "-noout", "-serial"]).current_dir(dir).output().unwrap();
    String::from_utf8_lossy(&o.stdout).trim().trim_start_matches("serial=").to_string()
}

/// `signers` RSA-2048 signers (distinct certificates: pdfsig misreports a certificate that
/// signs twice), a TSA, and the servers.
pub fn pki(signers: usize) -> Pki {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ca = LocalCa::generate_with("Signet Signing Test CA", KeyAlgo::EcP256).unwrap();
    let ocsp_port = free_port();
    let http_port = free_port();
    let opts = IssueOptions {
        ocsp_url: Some(format!("http://127.0.0.1:{ocsp_port}/")),
        crl_url: Some(format!("http://127.0.0.1:{http_port}/ca.crl")),
        ca_issuers_url: Some(format!("http://127.0.0.1:{http_port}/ca.cer")),
        ..Default::default()
    };
    let issued: Vec<IssuedCert> = (0..signers)
        .map(|i| ca.issue_signer_with(&format!("Signing Test Signer {i}"), KeyAlgo::Rsa2048, &opts).unwrap())
        .collect();
    let tsa = ca.issue_tsa_with("Signing Test TSA", &opts).unwrap();
    let responder = ca.issue_ocsp_responder("Signing Test OCSP").unwrap();
    let w = |name: &str, data: &[u8]| std::fs::write(d.join(name), data).unwrap();
    w("ca.pem", ca.cert_pem().as_bytes());
    w("ca.cer", ca.cert_der());
    w("ca.crl", &ca.issue_crl(&[], Duration::from_secs(7 * 86400)).unwrap());
    w("tsa.pem", tsa.cert_pem().as_bytes());
    w("tsa.key", tsa.key_pem().as_bytes());
    w("ocsp.pem", responder.cert_pem().as_bytes());
    w("ocsp.key", responder.key_pem().as_bytes());
    w("tsaserial", b"01\n");
    w(
        "tsa.cnf",
        b"[ tsa ]\ndefault_tsa = tsa1\n[ tsa1 ]\ndir = .\nserial = ./tsaserial\ncrypto_device = builtin\n\
signer_cert = ./tsa.pem\ncerts = ./ca.pem\nsigner_key = ./tsa.key\nsigner_digest = sha256\n\
default_policy = 1.2.3.4.1\ndigests = sha256, sha384, sha512\naccuracy = secs:1\nordering = no\n\
tsa_name = yes\ness_cert_id_chain = no\ness_cert_id_alg = sha256\n",
    );
    let mut index = String::new();
    let mut pems = vec!["tsa.pem".to_string()];
    for (i, s) in issued.iter().enumerate() {
        let name = format!("signer{i}.pem");
        w(&name, s.cert_pem().as_bytes());
        w(&format!("signer{i}.key"), s.key_pem().as_bytes());
        pems.push(name);
    }
    for pem in &pems {
        index.push_str(&format!("V\t491231235959Z\t\t{}\tunknown\t/CN={pem}\n", openssl_serial(d, pem)));
    }
    w("index.txt", index.as_bytes());

    let mut servers = Vec::new();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../testkit/scripts/tsa_server.py");
    let (tsa_child, tsa_port) =
        spawn_announcing(Command::new("python3").arg(script).arg(d), &d.join("tsa.log"), "the TSA server");
    servers.push(tsa_child);
    servers.push(static_server(d, http_port));
    servers.push(ocsp_responder(d, ocsp_port));
    Pki { ca, signers: issued, tsa_url: format!("http://127.0.0.1:{tsa_port}/"), dir, servers }
}

/// A CA that publishes its certificates' status as a CRL only, no OCSP responder (as many
/// Indian CAs do), with one signer whose certificate names that CRL.
pub struct CrlOnlyCa {
    pub dir: tempfile::TempDir,
    pub ca: LocalCa,
    pub signer: IssuedCert,
    server: Option<ChildGuard>,
}

impl CrlOnlyCa {
    pub fn signer(&self) -> LocalKeySigner {
        LocalKeySigner::from_pkcs8(&self.signer.key_pkcs8_der, &self.signer.cert_der, vec![self.ca.cert_der().to_vec()])
            .unwrap()
    }
    /// Stop the CRL server: validation must then rely on what the document carries.
    pub fn stop_server(&mut self) {
        self.server = None;
    }
}

/// [`CrlOnlyCa`] with its CRL served over HTTP on 127.0.0.1.
pub fn crl_only_ca(name: &str) -> CrlOnlyCa {
    let dir = tempfile::tempdir().unwrap();
    let ca = LocalCa::generate_with(name, KeyAlgo::EcP256).unwrap();
    let port = free_port();
    let opts = IssueOptions { crl_url: Some(format!("http://127.0.0.1:{port}/ca.crl")), ..Default::default() };
    let signer = ca.issue_signer_with(&format!("{name} Signer"), KeyAlgo::Rsa2048, &opts).unwrap();
    std::fs::write(dir.path().join("ca.crl"), ca.issue_crl(&[], Duration::from_secs(7 * 86400)).unwrap()).unwrap();
    let server = Some(static_server(dir.path(), port));
    CrlOnlyCa { dir, ca, signer, server }
}

fn static_server(dir: &Path, port: u16) -> ChildGuard {
    let code = "import http.server,functools,sys\n\
h=functools.partial(http.server.SimpleHTTPRequestHandler,directory=sys.argv[1])\n\
h.log_message=lambda *a:None\n\
s=http.server.ThreadingHTTPServer(('127.0.0.1',int(sys.argv[2])),h)\nprint(s.server_address[1],flush=True)\ns.serve_forever()\n";
    let (child, announced) = spawn_announcing(
        Command::new("python3").args(["-c", code]).arg(dir).arg(port.to_string()),
        &dir.join("static-server.log"),
        "the static HTTP server",
    );
    assert_eq!(announced, port, "the static HTTP server listens where the certificates point");
    child
}

/// Readiness comes from its log: a probing connect would wedge the single-threaded responder.
fn ocsp_responder(dir: &Path, port: u16) -> ChildGuard {
    let log = std::fs::File::create(dir.join("ocsp.log")).unwrap();
    let child = Command::new("openssl")
        .args(["ocsp", "-port", &port.to_string(), "-index", "index.txt", "-CA", "ca.pem"])
        .args(["-rsigner", "ocsp.pem", "-rkey", "ocsp.key", "-nmin", "10", "-ignore_err"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut guard = ChildGuard(child);
    await_log(&mut guard.0, &dir.join("ocsp.log"), "waiting for OCSP client", "openssl ocsp");
    guard
}

// ---------------------------------------------------------------------------------------------
// Producers and validators
// ---------------------------------------------------------------------------------------------

pub fn run_any(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
}

pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// A reportlab PDF with `pages` A4 pages.
pub fn reportlab_pdf(pages: usize) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "from reportlab.pdfgen import canvas\nc = canvas.Canvas('out.pdf')\nfor i in range({pages}):\n    \
         c.setFont('Helvetica', 14)\n    c.drawString(72, 420, 'Page %d' % (i + 1))\n    c.showPage()\nc.save()\n"
    );
    let (ok, out) = run_any(Command::new("python3").current_dir(dir.path()).args(["-c", &script]));
    assert!(ok, "{out}");
    std::fs::read(dir.path().join("out.pdf")).unwrap()
}

/// pdfsig must report exactly `expected` signatures as valid and no digest mismatch.
pub fn assert_pdfsig_valid(path: &Path, expected: usize) {
    let (_, out) = run_any(Command::new("pdfsig").arg(path));
    assert_eq!(out.matches("Signature is Valid.").count(), expected, "pdfsig output:\n{out}");
    assert!(!out.contains("Digest Mismatch"), "pdfsig output:\n{out}");
}

/// `pyhanko sign validate` with our CA as the only trust root: every signature VALID.
pub fn assert_pyhanko_valid(path: &Path, ca: &Path) {
    let (ok, out) = run_any(
        Command::new("pyhanko")
            .args(["sign", "validate", "--trust"])
            .arg(ca)
            .args(["--trust-replace", "--no-revocation-check", "--pretty-print"])
            .arg(path),
    );
    assert!(ok && !out.contains("INVALID"), "pyhanko validate:\n{out}");
}

/// `pyhanko sign adesverify` (ETSI EN 319 102-1 style, needs revocation data) at the current
/// time, pinned so that pyHanko does not fetch anything: (passed, output).
pub fn pyhanko_ades(path: &Path, ca: &Path) -> (bool, String) {
    let (_, now) = run_any(Command::new("date").args(["-u", "+%Y-%m-%dT%H:%M:%S+00:00"]));
    let (ok, out) = run_any(
        Command::new("pyhanko")
            .args(["sign", "adesverify", "--trust"])
            .arg(ca)
            .args(["--trust-replace", "--pretty-print", "--validation-time", now.trim()])
            .arg(path),
    );
    (ok && !out.contains("INVALID") && !out.contains("INDETERMINATE"), out)
}

pub fn assert_pyhanko_ades_valid(path: &Path, ca: &Path) {
    let (ok, out) = pyhanko_ades(path, ca);
    assert!(ok, "pyhanko adesverify:\n{out}");
}

/// Render page `page` (1-based) at 50 dpi; fraction of non-white pixels in a box given in
/// points from the top-left corner.
pub fn ink_in_box(path: &Path, page: usize, left: f64, top: f64, width: f64, height: f64) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("p");
    let (ok, out) = run_any(
        Command::new("pdftoppm")
            .args(["-r", "50", "-png", "-f", &page.to_string(), "-l", &page.to_string()])
            .arg(path)
            .arg(&prefix),
    );
    assert!(ok, "{out}");
    let png = std::fs::read_dir(dir.path()).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).next().unwrap();
    let img = image::open(png).unwrap().to_rgb8();
    let s = 50.0 / 72.0;
    let (x0, y0) = ((left * s) as u32, (top * s) as u32);
    let (x1, y1) = ((((left + width) * s) as u32).min(img.width()), (((top + height) * s) as u32).min(img.height()));
    let (mut ink, mut total) = (0u32, 0u32);
    for y in y0..y1 {
        for x in x0..x1 {
            total += 1;
            if img.get_pixel(x, y).0.iter().any(|c| *c < 200) {
                ink += 1;
            }
        }
    }
    ink as f64 / total.max(1) as f64
}

/// `openssl cms -verify -binary` against our CA; `content` for detached signatures.
pub fn openssl_cms_verify(dir: &Path, cms: &Path, content: Option<&Path>, ca: &Path) -> (bool, String) {
    let mut cmd = Command::new("openssl");
    cmd.current_dir(dir).args(["cms", "-verify", "-binary", "-inform", "DER", "-in"]).arg(cms);
    cmd.arg("-CAfile").arg(ca).args(["-purpose", "any", "-out", "verified.out"]);
    if let Some(c) = content {
        cmd.arg("-content").arg(c);
    }
    let (ok, out) = run_any(&mut cmd);
    (ok && out.contains("Verification successful"), out)
}
