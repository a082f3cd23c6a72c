//! Test harness: a throw-away PKI made with openssl, detached CMS made with `openssl cms`,
//! inputs made by other producers (reportlab, qpdf, gs, pypdf, pyHanko) and the outside
//! validators (pdfsig, pyHanko, qpdf --check, pdftoppm).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use signet_pdf::{Prepared, SignOptions};

pub struct Pki {
    pub dir: PathBuf,
}

impl Pki {
    pub fn ca(&self) -> PathBuf {
        self.dir.join("ca.pem")
    }
    pub fn cert(&self, n: usize) -> PathBuf {
        self.dir.join(format!("signer{n}.pem"))
    }
    pub fn key(&self, n: usize) -> PathBuf {
        self.dir.join(format!("signer{n}.key"))
    }
}

/// Number of distinct signers: pdfsig/NSS misreports a second signature by the same
/// certificate, so co-signing tests use different ones.
const SIGNERS: usize = 4;

pub fn pki() -> &'static Pki {
    static PKI: OnceLock<Pki> = OnceLock::new();
    PKI.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        run(Command::new("openssl").current_dir(&dir).args([
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-subj",
            "/CN=Signet Test CA",
            "-days",
            "30",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ]));
        std::fs::write(
            dir.join("leaf.ext"),
            "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("tsa.ext"),
            "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n",
        )
        .unwrap();
        let mut names: Vec<String> = (1..=SIGNERS).map(|n| format!("signer{n}")).collect();
        names.push("tsa".into());
        for name in names {
            let ext = if name == "tsa" { "tsa.ext" } else { "leaf.ext" };
            run(Command::new("openssl").current_dir(&dir).args([
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                &format!("{name}.key"),
                "-out",
                &format!("{name}.csr"),
                "-subj",
                &format!("/CN=Signet Test {name}"),
            ]));
            run(Command::new("openssl").current_dir(&dir).args([
                "x509",
                "-req",
                "-in",
                &format!("{name}.csr"),
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                &format!("{name}.pem"),
                "-days",
                "30",
                "-extfile",
                ext,
            ]));
        }
        std::fs::write(
            dir.join("tsa.cnf"),
            "[tsa]\ndefault_tsa = tsa_config\n[tsa_config]\nserial = ./tsaserial\n\
             signer_digest = sha256\ndefault_policy = 1.2.3.4.1\ndigests = sha256\n\
             ess_cert_id_alg = sha256\naccuracy = secs:1\nordering = no\ntsa_name = no\n\
             ess_cert_id_chain = no\n",
        )
        .unwrap();
        std::fs::write(dir.join("tsaserial"), "01\n").unwrap();
        Pki { dir }
    })
}

pub fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Output (stdout+stderr) and success, without asserting.
pub fn run_any(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
}

pub fn tmp() -> PathBuf {
    tempfile::tempdir().unwrap().keep()
}

/// The bytes covered by the ByteRange (what the CMS signs).
pub fn to_be_signed(p: &Prepared) -> Vec<u8> {
    let br = p.byte_range;
    let mut tbs = p.bytes[..br[1] as usize].to_vec();
    tbs.extend_from_slice(&p.bytes[br[2] as usize..(br[2] + br[3]) as usize]);
    tbs
}

/// Detached CMS over `data` by signer `n`, with openssl.
pub fn openssl_cms(data: &[u8], n: usize) -> Vec<u8> {
    let pki = pki();
    let dir = tmp();
    std::fs::write(dir.join("tbs.bin"), data).unwrap();
    run(Command::new("openssl").current_dir(&dir).args([
        "cms",
        "-sign",
        "-binary",
        "-outform",
        "DER",
        "-md",
        "sha256",
        "-nosmimecap",
        "-signer",
        pki.cert(n).to_str().unwrap(),
        "-inkey",
        pki.key(n).to_str().unwrap(),
        "-certfile",
        pki.ca().to_str().unwrap(),
        "-in",
        "tbs.bin",
        "-out",
        "sig.der",
    ]));
    std::fs::read(dir.join("sig.der")).unwrap()
}

/// RFC 3161 timestamp token over `data`, from openssl's TSA (no server needed).
pub fn openssl_timestamp_token(data: &[u8]) -> Vec<u8> {
    let pki = pki();
    let dir = tmp();
    std::fs::write(dir.join("tbs.bin"), data).unwrap();
    run(Command::new("openssl")
        .current_dir(&dir)
        .args(["ts", "-query", "-data", "tbs.bin", "-sha256", "-cert", "-out", "q.tsq"]));
    run(Command::new("openssl").current_dir(&pki.dir).args([
        "ts",
        "-reply",
        "-config",
        "tsa.cnf",
        "-queryfile",
        dir.join("q.tsq").to_str().unwrap(),
        "-signer",
        "tsa.pem",
        "-inkey",
        "tsa.key",
        "-chain",
        "ca.pem",
        "-token_out",
        "-out",
        dir.join("token.der").to_str().unwrap(),
    ]));
    std::fs::read(dir.join("token.der")).unwrap()
}

/// prepare + openssl CMS + embed.
pub fn sign(input: &[u8], opts: &SignOptions, signer: usize) -> Vec<u8> {
    let prepared = signet_pdf::prepare(input, opts).expect("prepare");
    let cms = openssl_cms(&to_be_signed(&prepared), signer);
    signet_pdf::embed(&prepared, &cms).expect("embed")
}

pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// pdfsig must report every one of `expected` signatures as valid.
pub fn assert_pdfsig_valid(path: &Path, expected: usize) {
    let (_, out) = run_any(Command::new("pdfsig").arg(path));
    let valid = out.matches("Signature is Valid.").count();
    assert_eq!(valid, expected, "pdfsig output:\n{out}");
    assert!(!out.contains("Digest Mismatch"), "pdfsig output:\n{out}");
}

/// pyHanko (strict syntax) validates every signature: integrity, trust to our CA, and its
/// diff analysis of later revisions.
pub fn assert_pyhanko_valid(path: &Path) {
    pyhanko_validate(path, &[]);
}

/// Same, with `--no-strict-syntax` (needed for hybrid-reference files).
pub fn assert_pyhanko_valid_lax(path: &Path) {
    pyhanko_validate(path, &["--no-strict-syntax"]);
}

fn pyhanko_validate(path: &Path, extra: &[&str]) {
    let ca = pki().ca();
    let (ok, out) = run_any(
        Command::new("pyhanko")
            .args(["sign", "validate"])
            .args(extra)
            .args(["--trust", ca.to_str().unwrap(), "--trust-replace"])
            .args(["--no-revocation-check", "--pretty-print", path.to_str().unwrap()]),
    );
    assert!(ok, "pyhanko validate failed:\n{out}");
    assert!(!out.contains("INVALID"), "pyhanko:\n{out}");
}

pub fn assert_qpdf_clean(path: &Path) {
    let (_, out) = run_any(Command::new("qpdf").arg("--check").arg(path));
    assert!(out.contains("No syntax or stream encoding errors found"), "qpdf --check:\n{out}");
}

/// A reportlab PDF with the given page sizes and rotations, one text line per page.
pub fn reportlab_pdf(pages: &[(f64, f64, i32)]) -> Vec<u8> {
    let dir = tmp();
    let spec: Vec<String> = pages.iter().map(|(w, h, r)| format!("({w},{h},{r})")).collect();
    let script = format!(
        r#"
from reportlab.pdfgen import canvas
c = canvas.Canvas("out.pdf")
for i, (w, h, r) in enumerate([{}]):
    c.setPageSize((w, h))
    c.setPageRotation(r)
    c.setFont("Helvetica", 14)
    c.drawString(72, h / 2, "Page %d of a test document" % (i + 1))
    c.showPage()
c.save()
"#,
        spec.join(",")
    );
    run(Command::new("python3").current_dir(&dir).args(["-c", &script]));
    std::fs::read(dir.join("out.pdf")).unwrap()
}

pub fn simple_pdf() -> Vec<u8> {
    reportlab_pdf(&[(595.0, 842.0, 0)])
}

/// Run qpdf with `args` on `input` and return the output bytes.
pub fn qpdf(input: &[u8], args: &[&str]) -> Vec<u8> {
    let dir = tmp();
    write(&dir, "in.pdf", input);
    let mut cmd = Command::new("qpdf");
    cmd.current_dir(&dir).args(args).args(["in.pdf", "out.pdf"]);
    let out = cmd.output().unwrap();
    // qpdf exits 3 for warnings; the file is still written.
    assert!(out.status.code().is_some_and(|c| c == 0 || c == 3), "{cmd:?}: {out:?}");
    std::fs::read(dir.join("out.pdf")).unwrap()
}

/// Render page `page` (1-based) at 50 dpi and return the RGB image.
pub fn render(path: &Path, page: usize) -> image::RgbImage {
    let dir = tmp();
    // Viewers show the crop box, so render that.
    run(Command::new("pdftoppm").args([
        "-cropbox",
        "-r",
        "50",
        "-png",
        "-f",
        &page.to_string(),
        "-l",
        &page.to_string(),
        path.to_str().unwrap(),
        dir.join("p").to_str().unwrap(),
    ]));
    let png = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| e.path().extension().is_some_and(|x| x == "png"))
        .expect("pdftoppm wrote a PNG")
        .path();
    image::open(png).unwrap().to_rgb8()
}

/// Fraction of non-white pixels inside a box given in PDF points on the displayed page
/// (left, top, width, height measured from the top-left corner).
pub fn ink_in_box(img: &image::RgbImage, left: f64, top: f64, width: f64, height: f64) -> f64 {
    let s = 50.0 / 72.0;
    let (x0, y0) = ((left * s) as u32, (top * s) as u32);
    let (x1, y1) = ((((left + width) * s) as u32).min(img.width()), (((top + height) * s) as u32).min(img.height()));
    let mut ink = 0u32;
    let mut total = 0u32;
    for y in y0..y1 {
        for x in x0..x1 {
            total += 1;
            let p = img.get_pixel(x, y).0;
            if p.iter().any(|c| *c < 200) {
                ink += 1;
            }
        }
    }
    ink as f64 / total.max(1) as f64
}

/// A small PNG with transparency: a blue diagonal stroke on a transparent background.
pub fn signature_png() -> Vec<u8> {
    let mut img = image::RgbaImage::new(200, 80);
    for x in 0..200u32 {
        let y = (x * 80 / 200).min(79);
        for dy in 0..6u32 {
            if y + dy < 80 {
                img.put_pixel(x, y + dy, image::Rgba([10, 30, 160, 255]));
            }
        }
    }
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// DER bytes of a PEM certificate.
pub fn cert_der(pem: &Path) -> Vec<u8> {
    let out = Command::new("openssl").args(["x509", "-outform", "DER", "-in", pem.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success());
    out.stdout
}

/// The reportlab + pypdf program that writes `form.pdf` (see [`form_pdf`]).
pub const FORM_SCRIPT: &str = r#"
from reportlab.pdfgen import canvas
c = canvas.Canvas("rl.pdf")
c.drawString(72, 760, "Application form")
f = c.acroForm
f.textfield(name="fullName", x=72, y=700, width=250, height=24, fontSize=12, borderWidth=1)
f.textfield(name="address", x=72, y=620, width=250, height=60, fontSize=0, borderWidth=1, fieldFlags="multiline")
f.checkbox(name="agree", x=72, y=580, size=18, buttonStyle="check")
f.radio(name="plan", value="basic", x=72, y=540, size=16, selected=False)
f.radio(name="plan", value="premium", x=120, y=540, size=16, selected=False)
f.choice(name="city", options=["Delhi", "Mumbai", "Pune"], value="Delhi", x=72, y=490, width=150, height=22)
f.listbox(name="langs", options=["Hindi", "English", "Marathi"], value="Hindi", x=250, y=430, width=120, height=60)
c.showPage()
c.save()
# reportlab makes no push buttons: the image field is added with pypdf.
from pypdf import PdfWriter
from pypdf.generic import DictionaryObject, NameObject, NumberObject, ArrayObject, FloatObject, TextStringObject
w = PdfWriter(clone_from="rl.pdf")
page = w.pages[0]
button = DictionaryObject({
    NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Widget"),
    NameObject("/FT"): NameObject("/Btn"), NameObject("/Ff"): NumberObject(65536),
    NameObject("/T"): TextStringObject("photo"), NameObject("/F"): NumberObject(4),
    NameObject("/Rect"): ArrayObject([FloatObject(72), FloatObject(300), FloatObject(222), FloatObject(400)]),
    NameObject("/MK"): DictionaryObject({NameObject("/BC"): ArrayObject([FloatObject(0)])}),
})
ref = w._add_object(button)
button[NameObject("/P")] = page.indirect_reference
page[NameObject("/Annots")].append(ref)
w._root_object["/AcroForm"]["/Fields"].append(ref)
w.write("form.pdf")
"#;

/// An A4 form made by reportlab (text `fullName`, multi-line `address`, checkbox `agree`,
/// radio group `plan` with `basic`/`premium`, combo box `city`, list box `langs`) and pypdf
/// (image push button `photo` at 72,300-222,400).
pub fn form_pdf() -> Vec<u8> {
    let dir = tmp();
    run(Command::new("python3").current_dir(&dir).args(["-c", FORM_SCRIPT]));
    std::fs::read(dir.join("form.pdf")).unwrap()
}

/// A reportlab PDF of `pages` pages titled `title`, with a bookmark per page (nested under a
/// top bookmark) and, on the first page, a link to the last page.
pub fn outlined_pdf(title: &str, pages: usize) -> Vec<u8> {
    let dir = tmp();
    let script = format!(
        r#"
from reportlab.pdfgen import canvas
c = canvas.Canvas("out.pdf")
title, n = {title:?}, {pages}
for i in range(n):
    c.bookmarkPage("p%d" % i)
    c.drawString(72, 760, "%s page %d" % (title, i + 1))
    if i == 0:
        c.bookmarkPage("top")
        c.addOutlineEntry(title, "top", level=0)
        c.linkRect("to the end", "p%d" % (n - 1), (72, 700, 200, 720), relative=0)
        c.drawString(72, 705, "to the end")
    c.addOutlineEntry("%s section %d" % (title, i + 1), "p%d" % i, level=1)
    c.showPage()
c.save()
"#
    );
    run(Command::new("python3").current_dir(&dir).args(["-c", &script]));
    std::fs::read(dir.join("out.pdf")).unwrap()
}

/// The text of a PDF as pdftotext reads it.
pub fn pdftotext(path: &Path) -> String {
    run(Command::new("pdftotext").args([path.to_str().unwrap(), "-"]))
}
