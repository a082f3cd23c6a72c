//! `signet ca|sign|verify` end to end: every output is checked by outside validators
//! (pdfsig, pyHanko validate/adesverify, openssl cms, xmlsec1, pdftoppm), inputs come from other
//! producers (reportlab, qpdf, Ghostscript, pyHanko), and bad input fails with one line.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

fn signet() -> Command {
    Command::new(env!("CARGO_BIN_EXE_signet"))
}

fn run(dir: &Path, args: &[&str]) -> Output {
    signet().args(args).current_dir(dir).output().expect("run signet")
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let o = run(dir, args);
    assert!(o.status.success(), "signet {args:?} failed:\n{}{}", text(&o.stdout), text(&o.stderr));
    text(&o.stdout)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn tool(dir: &Path, prog: &str, args: &[&str]) -> (bool, String) {
    let o = Command::new(prog).args(args).current_dir(dir).output().unwrap_or_else(|e| panic!("{prog}: {e}"));
    (o.status.success(), text(&o.stdout) + &text(&o.stderr))
}

/// Exit code 1 and exactly one stderr line starting with `signet: `, and no panic.
fn assert_one_line_failure(dir: &Path, args: &[&str]) -> String {
    let o = run(dir, args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "signet {args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "signet {args:?} printed:\n{err}");
    assert!(err.starts_with("signet: ") && !err.contains("panicked"), "{err}");
    err
}

/// A CA made by `signet ca init` in a fresh directory, plus a second signer (`ca issue`):
/// pdfsig misreports one certificate signing twice, so co-signing uses two.
fn ca(extra: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["ca", "init", "ca", "--password", "pw"];
    args.extend_from_slice(extra);
    ok(dir.path(), &args);
    for f in ["ca.pem", "signer.p12", "signer.pem", "signer.key", "tsa.pem", "tsa.key"] {
        assert!(dir.path().join("ca").join(f).exists(), "ca init did not write {f}");
    }
    let mut args = vec!["ca", "issue", "ca", "--name", "Second Signer", "-o", "ca/second.p12", "--password", "pw"];
    args.extend_from_slice(extra);
    ok(dir.path(), &args);
    dir
}

fn reportlab(dir: &Path, name: &str, pages: usize) -> PathBuf {
    let script = format!(
        "from reportlab.pdfgen import canvas\nc = canvas.Canvas('{name}')\nfor i in range({pages}):\n    \
         c.setFont('Helvetica', 14)\n    c.drawString(72, 420, 'Page %d' % (i + 1))\n    c.showPage()\nc.save()\n"
    );
    let (good, out) = tool(dir, "python3", &["-c", &script]);
    assert!(good, "{out}");
    dir.join(name)
}

fn pdfsig_valid(dir: &Path, file: &str) -> usize {
    let (_, out) = tool(dir, "pdfsig", &[file]);
    assert!(!out.contains("Digest Mismatch"), "pdfsig {file}:\n{out}");
    out.matches("Signature is Valid.").count()
}

fn assert_pyhanko_valid(dir: &Path, file: &str) {
    let (good, out) = tool(
        dir,
        "pyhanko",
        &[
            "sign",
            "validate",
            "--trust",
            "ca/ca.pem",
            "--trust-replace",
            "--no-revocation-check",
            "--pretty-print",
            file,
        ],
    );
    assert!(good && !out.contains("INVALID"), "pyhanko validate {file}:\n{out}");
}

const KEY: [&str; 4] = ["--p12", "ca/signer.p12", "--password", "pw"];

fn sign_pdf(dir: &Path, input: &str, out: &str, extra: &[&str]) {
    let mut args = vec!["sign", "pdf", input, "-o", out];
    args.extend_from_slice(&KEY);
    args.extend_from_slice(extra);
    ok(dir, &args);
}

#[test]
fn visible_signature_validates_renders_and_verifies() {
    let ca = ca(&[]);
    let d = ca.path();
    reportlab(d, "in.pdf", 2);
    write_png(&d.join("sig.png"));
    sign_pdf(
        d,
        "in.pdf",
        "out.pdf",
        &["--visible", "--pages", "LAST", "--rect", "50,60,200,80", "--name", "Asha Verma", "--image", "sig.png"],
    );
    assert_eq!(pdfsig_valid(d, "out.pdf"), 1);
    assert_pyhanko_valid(d, "out.pdf");
    assert!(ink(d, "out.pdf", 2, 50.0, 60.0, 200.0, 80.0) > 0.02, "the box on page 2 is blank");
    assert!(ink(d, "out.pdf", 1, 50.0, 60.0, 200.0, 80.0) < 0.001, "page 1 must have no box");

    // Page-level boxes (the gateway's PagelevelCoordinates): one widget per listed page.
    sign_pdf(d, "in.pdf", "boxes.pdf", &["--page-boxes", "1,300,400,150,60;2,40,700,150,60", "--name", "Asha"]);
    // poppler lists each widget of the field as a signature.
    assert_eq!(pdfsig_valid(d, "boxes.pdf"), 2);
    assert_pyhanko_valid(d, "boxes.pdf");
    assert!(ink(d, "boxes.pdf", 1, 300.0, 400.0, 150.0, 60.0) > 0.02, "page 1 box is blank");
    assert!(ink(d, "boxes.pdf", 2, 40.0, 700.0, 150.0, 60.0) > 0.02, "page 2 box is blank");

    // verify: 0 for good, JSON report, 1 for tampered or untrusted.
    let out = ok(d, &["verify", "out.pdf", "--trust", "ca/ca.pem"]);
    assert!(out.contains("VALID") && out.contains("B-B"), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(d, &["verify", "out.pdf", "--trust", "ca/ca.pem", "--json"])).unwrap();
    assert_eq!(json["valid"], true);
    assert_eq!(json["signatures"][0]["signer_common_name"], "Signet Test Signer");
    assert_one_line_failure(d, &["verify", "out.pdf"]);
    let mut bytes = std::fs::read(d.join("out.pdf")).unwrap();
    let at = bytes.windows(4).position(|w| w == b"Page").unwrap();
    bytes[at] = b'Q';
    std::fs::write(d.join("tampered.pdf"), bytes).unwrap();
    let err = assert_one_line_failure(d, &["verify", "tampered.pdf", "--trust", "ca/ca.pem"]);
    assert!(err.contains("not valid"), "{err}");
    let (_, pdfsig) = tool(d, "pdfsig", &["tampered.pdf"]);
    assert!(!pdfsig.contains("Signature is Valid."), "pdfsig must agree:\n{pdfsig}");
    let other = tempfile::tempdir().unwrap();
    ok(other.path(), &["ca", "init", "x"]);
    let other_ca = other.path().join("x/ca.pem");
    assert_one_line_failure(d, &["verify", "out.pdf", "--trust", other_ca.to_str().unwrap()]);
}

#[test]
fn inputs_from_other_producers_are_signed_in_one_batch() {
    let ca = ca(&[]);
    let d = ca.path();
    reportlab(d, "reportlab.pdf", 2);
    for (out, args) in [
        ("objstm.pdf", vec!["--object-streams=generate", "reportlab.pdf", "objstm.pdf"]),
        ("linear.pdf", vec!["--linearize", "reportlab.pdf", "linear.pdf"]),
    ] {
        let (_, msg) = tool(d, "qpdf", &args);
        assert!(d.join(out).exists(), "qpdf: {msg}");
    }
    let (good, msg) =
        tool(d, "gs", &["-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pdfwrite", "-sOutputFile=gs.pdf", "reportlab.pdf"]);
    assert!(good, "gs: {msg}");
    let inputs = ["reportlab.pdf", "objstm.pdf", "linear.pdf", "gs.pdf"];
    let mut args = vec!["sign", "pdf"];
    args.extend_from_slice(&inputs);
    args.extend_from_slice(&["--out-dir", "signed", "--position", "Bottom-Left", "--reason", "batch"]);
    args.extend_from_slice(&KEY);
    ok(d, &args);
    for name in inputs {
        let file = format!("signed/{name}");
        assert_eq!(pdfsig_valid(d, &file), 1, "{file}");
        assert_pyhanko_valid(d, &file);
    }
    // -o with several inputs is refused.
    let mut args = vec!["sign", "pdf", "reportlab.pdf", "gs.pdf", "-o", "x.pdf"];
    args.extend_from_slice(&KEY);
    assert_one_line_failure(d, &args);
}

#[test]
fn co_signs_a_pdf_signed_by_pyhanko_and_certifies() {
    let ca = ca(&[]);
    let d = ca.path();
    reportlab(d, "in.pdf", 1);
    std::fs::write(d.join("pass.txt"), "pw").unwrap();
    let (good, out) = tool(
        d,
        "pyhanko",
        &[
            "sign",
            "addsig",
            "--field",
            "1/100,600,300,660/PyHanko",
            "--use-pades",
            "pkcs12",
            "--passfile",
            "pass.txt",
            "in.pdf",
            "pyhanko.pdf",
            "ca/second.p12",
        ],
    );
    assert!(good, "pyhanko addsig: {out}");
    sign_pdf(d, "pyhanko.pdf", "cosigned.pdf", &["--visible", "--position", "Top-Right"]);
    assert_eq!(pdfsig_valid(d, "cosigned.pdf"), 2);
    assert_pyhanko_valid(d, "cosigned.pdf");
    ok(d, &["verify", "cosigned.pdf", "--trust", "ca/ca.pem"]);

    // Certification (DocMDP P=2) first, then an approval by another signer: both valid.
    sign_pdf(d, "in.pdf", "certified.pdf", &["--certify"]);
    let mut args = vec!["sign", "pdf", "certified.pdf", "-o", "approved.pdf", "--p12", "ca/second.p12"];
    args.extend_from_slice(&["--password", "pw"]);
    ok(d, &args);
    assert_eq!(pdfsig_valid(d, "approved.pdf"), 2);
    assert_pyhanko_valid(d, "approved.pdf");
    let out = ok(d, &["verify", "approved.pdf", "--trust", "ca/ca.pem"]);
    assert!(out.contains("certification"), "{out}");
}

struct Guard(Child);
impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// How long a helper server may take to get ready: generous, because a busy CI machine has
/// taken more than the few seconds a quiet one needs.
const READY_WITHIN: Duration = Duration::from_secs(60);

/// Waits until `ready` holds, failing early if `child` exits first; panics with the child's
/// `log` (and stops the child) otherwise.
fn await_ready(child: &mut Child, log: &Path, what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + READY_WITHIN;
    while !ready() {
        let exited = child.try_wait().ok().flatten();
        if exited.is_some() || std::time::Instant::now() > deadline {
            let _ = child.kill();
            let status = child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
            let said = std::fs::read_to_string(log).unwrap_or_default();
            panic!("{what} did not get ready within {READY_WITHIN:?} ({status}); it said:\n{said}");
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// The first line the child prints (its port), read on a thread so that a child that never
/// prints cannot hang the test; then waits for that port to accept connections.
fn announced_port(child: &mut Child, log: &Path, what: &str) -> u16 {
    let out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let mut line = String::new();
        let _ = std::io::BufReader::new(out).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(READY_WITHIN).unwrap_or_default();
    let port = line.trim().parse().unwrap_or(0);
    await_ready(child, log, what, || port != 0 && std::net::TcpStream::connect(("127.0.0.1", port)).is_ok());
    port
}

/// The TSA, OCSP responder and CRL/caIssuers server for the CA in `ca_dir`.
fn servers(ca_dir: &Path, ocsp_port: u16, http_port: u16) -> (Vec<Guard>, String) {
    let mut index = String::new();
    for pem in ["signer.pem", "tsa.pem", "second.pem"] {
        let (_, serial) = tool(ca_dir, "openssl", &["x509", "-in", pem, "-noout", "-serial"]);
        index.push_str(&format!(
            "V\t491231235959Z\t\t{}\tunknown\t/CN={pem}\n",
            serial.trim().trim_start_matches("serial=")
        ));
    }
    std::fs::write(ca_dir.join("index.txt"), index).unwrap();
    let tsa_script = signet_testkit::script("tsa_server.py");
    let tsa_log = ca_dir.join("tsa.log");
    // Each child is guarded at once, so that one failing to start stops those already running.
    let mut tsa = Guard(
        Command::new("python3")
            .arg(tsa_script)
            .arg(ca_dir)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&tsa_log).unwrap())
            .spawn()
            .unwrap(),
    );
    let tsa_url = format!("http://127.0.0.1:{}/", announced_port(&mut tsa.0, &tsa_log, "the TSA server"));
    let code = "import http.server,functools,sys\nh=functools.partial(http.server.SimpleHTTPRequestHandler,directory=sys.argv[1])\n\
h.log_message=lambda *a:None\ns=http.server.ThreadingHTTPServer(('127.0.0.1',int(sys.argv[2])),h)\nprint(1,flush=True)\ns.serve_forever()\n";
    let mut web = Guard(
        Command::new("python3")
            .args(["-c", code])
            .arg(ca_dir)
            .arg(http_port.to_string())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(ca_dir.join("web.log")).unwrap())
            .spawn()
            .unwrap(),
    );
    await_ready(&mut web.0, &ca_dir.join("web.log"), "the static HTTP server", || {
        std::net::TcpStream::connect(("127.0.0.1", http_port)).is_ok()
    });
    let log = std::fs::File::create(ca_dir.join("ocsp.log")).unwrap();
    let ocsp = Command::new("openssl")
        .args(["ocsp", "-port", &ocsp_port.to_string(), "-index", "index.txt", "-CA", "ca.pem"])
        .args(["-rsigner", "ocsp.pem", "-rkey", "ocsp.key", "-nmin", "10", "-ignore_err"])
        .current_dir(ca_dir)
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut guards = vec![tsa, web, Guard(ocsp)];
    // Readiness from the log: probing connects wedge the single-threaded OpenSSL responder.
    let log = ca_dir.join("ocsp.log");
    await_ready(&mut guards[2].0, &log, "openssl ocsp", || {
        std::fs::read_to_string(&log).unwrap_or_default().contains("waiting for OCSP")
    });
    (guards, tsa_url)
}

#[test]
fn b_t_and_b_lta_with_local_tsa_ocsp_and_crl() {
    let (ocsp_port, http_port) = (free_port(), free_port());
    let ocsp = format!("http://127.0.0.1:{ocsp_port}/");
    let crl = format!("http://127.0.0.1:{http_port}/ca.crl");
    let issuers = format!("http://127.0.0.1:{http_port}/ca.cer");
    let ca = ca(&["--ocsp-url", &ocsp, "--crl-url", &crl, "--ca-issuers-url", &issuers]);
    let d = ca.path();
    let (guards, tsa) = servers(&d.join("ca"), ocsp_port, http_port);
    reportlab(d, "in.pdf", 1);

    sign_pdf(d, "in.pdf", "bt.pdf", &["--level", "b-t", "--tsa", &tsa]);
    assert_eq!(pdfsig_valid(d, "bt.pdf"), 1);
    assert_pyhanko_valid(d, "bt.pdf");
    assert!(ok(d, &["verify", "bt.pdf", "--trust", "ca/ca.pem"]).contains("B-T"));

    sign_pdf(d, "in.pdf", "blta.pdf", &["--level", "b-lta", "--tsa", &tsa, "--visible"]);
    // B-T without a TSA is refused before anything is written.
    let mut args = vec!["sign", "pdf", "in.pdf", "-o", "x.pdf", "--level", "b-lt"];
    args.extend_from_slice(&KEY);
    assert!(assert_one_line_failure(d, &args).contains("TSA"));
    assert!(!d.join("x.pdf").exists());

    // Validation from the embedded DSS alone: the TSA, OCSP and CRL servers are stopped and
    // pyHanko's validation time is pinned so it fetches nothing.
    drop(guards);
    assert_eq!(pdfsig_valid(d, "blta.pdf"), 1, "pdfsig 22 cannot check the document time-stamp itself");
    assert_pyhanko_valid(d, "blta.pdf");
    let (_, now) = tool(d, "date", &["-u", "+%Y-%m-%dT%H:%M:%S+00:00"]);
    let ades = ["sign", "adesverify", "--trust", "ca/ca.pem", "--trust-replace", "--pretty-print", "--validation-time"];
    let mut ades = ades.to_vec();
    ades.extend_from_slice(&[now.trim(), "blta.pdf"]);
    let (good, out) = tool(d, "pyhanko", &ades);
    assert!(good && !out.contains("INVALID") && !out.contains("INDETERMINATE"), "adesverify:\n{out}");
    let out = ok(d, &["verify", "blta.pdf", "--trust", "ca/ca.pem"]);
    assert!(out.contains("B-LTA") && out.contains("document-timestamp"), "{out}");

    // --at validates as at a chosen time, offline as always. Now it passes; fifteen years on
    // the signer's and the TSA's certificates have long expired and no renewal covers them.
    let out = ok(d, &["verify", "blta.pdf", "--trust", "ca/ca.pem", "--at", now.trim()]);
    assert!(out.contains("EN 319 102-1: TOTAL-PASSED"), "{out}");
    let later = ["verify", "blta.pdf", "--trust", "ca/ca.pem", "--at", "2041-12-06T00:00:00Z"];
    let o = run(d, &later);
    let out = text(&o.stdout);
    assert!(!o.status.success() && out.contains("OUT_OF_BOUNDS_NO_POE"), "{out}{}", text(&o.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&text(&run(d, &[&later[..], &["--json"]].concat()).stdout)).expect("the JSON report");
    assert_eq!(json["valid"], false);
    assert_eq!(json["signatures"][0]["validated_at"], "2041-12-06T00:00:00Z", "{json:#}");
    let o = run(d, &["verify", "blta.pdf", "--at", "next year"]);
    assert!(!o.status.success() && text(&o.stderr).contains("RFC 3339"), "{}", text(&o.stderr));
}

#[test]
fn data_xml_and_hash_signatures_verify_outside() {
    let ca = ca(&[]);
    let d = ca.path();
    std::fs::write(d.join("data.bin"), b"some\r\ndata\x00\xff").unwrap();
    std::fs::write(d.join("doc.xml"), "<?xml version=\"1.0\"?>\n<doc xmlns=\"urn:x\"><a b=\"1\">text</a></doc>\n")
        .unwrap();
    let cms_verify = |args: &[&str]| {
        let mut all = vec![
            "cms",
            "-verify",
            "-binary",
            "-inform",
            "DER",
            "-CAfile",
            "ca/ca.pem",
            "-purpose",
            "any",
            "-out",
            "v.out",
        ];
        all.extend_from_slice(args);
        let (good, out) = tool(d, "openssl", &all);
        assert!(good && out.contains("Verification successful"), "openssl cms {args:?}:\n{out}");
    };
    let sign = |extra: &[&str]| {
        let mut args: Vec<&str> = extra.to_vec();
        args.extend_from_slice(&KEY);
        ok(d, &args);
    };
    sign(&["sign", "data", "data.bin", "-o", "data.p7m"]);
    cms_verify(&["-in", "data.p7m"]);
    sign(&["sign", "data", "data.bin", "-o", "data.p7s", "--detached"]);
    cms_verify(&["-in", "data.p7s", "-content", "data.bin"]);
    ok(d, &["verify", "data.p7s", "--content", "data.bin", "--trust", "ca/ca.pem"]);
    ok(d, &["verify", "data.p7m", "--trust", "ca/ca.pem"]);

    let (_, sum) = tool(d, "sha256sum", &["data.bin"]);
    let hex = sum.split_whitespace().next().unwrap().to_string();
    sign(&["sign", "hash", "--sha256", &hex, "-o", "hash.p7s"]);
    cms_verify(&["-in", "hash.p7s", "-content", "data.bin"]);
    std::fs::write(d.join("hashes.txt"), format!("{hex}\n{}\n", "00".repeat(32))).unwrap();
    sign(&["sign", "hash", "--hashes", "hashes.txt", "--out-dir", "hashes"]);
    cms_verify(&["-in", &format!("hashes/{hex}.p7s"), "-content", "data.bin"]);

    for (xades, out) in [(false, "dsig.xml"), (true, "xades.xml")] {
        let mut args = vec!["sign", "xml", "doc.xml", "-o", out];
        if xades {
            args.push("--xades");
        }
        sign(&args);
        let mut x = vec!["--verify", "--trusted-pem", "ca/ca.pem"];
        if xades {
            x.extend_from_slice(&["--id-attr:Id", "http://uri.etsi.org/01903/v1.3.2#:SignedProperties"]);
        }
        x.push(out);
        let (good, log) = tool(d, "xmlsec1", &x);
        assert!(good && log.contains("OK"), "xmlsec1 {out}:\n{log}");
        ok(d, &["verify", out, "--trust", "ca/ca.pem"]);
    }
    assert_one_line_failure(
        d,
        &["sign", "hash", "--sha256", "abc", "-o", "h.p7s", "--p12", "ca/signer.p12", "--password", "pw"],
    );
}

#[test]
fn bad_input_fails_with_one_line() {
    let ca = ca(&[]);
    let d = ca.path();
    let good = reportlab(d, "in.pdf", 1);
    let bytes = std::fs::read(&good).unwrap();
    std::fs::write(d.join("truncated.pdf"), &bytes[..bytes.len() / 3]).unwrap();
    std::fs::write(d.join("empty.pdf"), b"").unwrap();
    std::fs::write(d.join("text.pdf"), b"this is not a PDF at all\n").unwrap();
    let (_, msg) = tool(d, "qpdf", &["--encrypt", "u", "o", "256", "--", "in.pdf", "encrypted.pdf"]);
    assert!(d.join("encrypted.pdf").exists(), "{msg}");
    for (input, expect) in [
        ("encrypted.pdf", "encrypt"),
        ("truncated.pdf", ""),
        ("empty.pdf", "empty"),
        ("text.pdf", "not a PDF"),
        ("missing.pdf", "missing.pdf"),
    ] {
        let mut args = vec!["sign", "pdf", input, "-o", "out.pdf"];
        args.extend_from_slice(&KEY);
        let err = assert_one_line_failure(d, &args);
        assert!(err.contains(expect), "{input}: {err}");
        let err = assert_one_line_failure(d, &["verify", input, "--trust", "ca/ca.pem"]);
        assert!(err.contains(input), "{input}: {err}");
    }
    let err = assert_one_line_failure(
        d,
        &["sign", "pdf", "in.pdf", "-o", "o.pdf", "--p12", "ca/signer.p12", "--password", "wrong"],
    );
    assert!(err.to_lowercase().contains("password"), "{err}");
    let err =
        assert_one_line_failure(d, &["sign", "pdf", "in.pdf", "-o", "o.pdf", "--p12", "nope.p12", "--password", "pw"]);
    assert!(err.contains("nope.p12"), "{err}");
    assert_one_line_failure(d, &["sign", "pdf", "in.pdf", "-o", "o.pdf", "--p12", "in.pdf", "--password", "pw"]);
    assert_one_line_failure(
        d,
        &[
            "sign",
            "pdf",
            "in.pdf",
            "-o",
            "o.pdf",
            "--position",
            "Nowhere",
            "--p12",
            "ca/signer.p12",
            "--password",
            "pw",
        ],
    );
}

fn write_png(path: &Path) {
    let mut img = image::RgbaImage::new(200, 80);
    for x in 0..200u32 {
        let y = (x * 80 / 200).min(79);
        for dy in 0..6u32 {
            if y + dy < 80 {
                img.put_pixel(x, y + dy, image::Rgba([10, 30, 160, 255]));
            }
        }
    }
    img.save(path).unwrap();
}

/// Fraction of non-white pixels in a box (points from the top-left) of a rendered page.
fn ink(dir: &Path, file: &str, page: usize, left: f64, top: f64, width: f64, height: f64) -> f64 {
    let p = page.to_string();
    let (good, out) = tool(dir, "pdftoppm", &["-r", "50", "-png", "-f", &p, "-l", &p, file, "render"]);
    assert!(good, "{out}");
    let png = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("render")))
        .unwrap();
    let img = image::open(&png).unwrap().to_rgb8();
    std::fs::remove_file(png).unwrap();
    let s = 50.0 / 72.0;
    let (x0, y0) = ((left * s) as u32, (top * s) as u32);
    let (x1, y1) = ((((left + width) * s) as u32).min(img.width()), (((top + height) * s) as u32).min(img.height()));
    let (mut n, mut total) = (0u32, 0u32);
    for y in y0..y1 {
        for x in x0..x1 {
            total += 1;
            if img.get_pixel(x, y).0.iter().any(|c| *c < 200) {
                n += 1;
            }
        }
    }
    n as f64 / total.max(1) as f64
}
