//! Input PDFs made by reportlab: a producer other than our own PDF code, so that the tests sign
//! what real applications send. Needs python3 with reportlab (`scripts/install-test-deps.sh`).

use std::process::Command;

/// One page: lines of text, each drawn at x = 72 pt and its own height `y` (points from the
/// bottom, as reportlab counts).
#[derive(Debug, Clone, Default)]
pub struct Page {
    lines: Vec<(u32, String)>,
}

impl Page {
    /// An empty page.
    pub fn new() -> Page {
        Page::default()
    }

    /// A page with one line at the top (y = 720).
    pub fn text(text: &str) -> Page {
        Page::new().line(720, text)
    }

    /// Adds a line at height `y`.
    pub fn line(mut self, y: u32, text: &str) -> Page {
        self.lines.push((y, text.to_string()));
        self
    }
}

/// A PDF with `pages`, written by reportlab.
pub fn reportlab_pdf(pages: &[Page]) -> Vec<u8> {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("input.pdf");
    let status = Command::new("python3")
        .args(["-c", &script(&path.display().to_string(), pages)])
        .status()
        .expect("python3 with reportlab");
    assert!(status.success(), "reportlab must be installed (scripts/install-test-deps.sh)");
    std::fs::read(path).expect("pdf")
}

/// A drawn signature (a 300 x 100 PNG with a transparent background), made by Pillow.
pub fn signature_png() -> Vec<u8> {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("signature.png");
    let script = format!(
        "from PIL import Image, ImageDraw\nimg = Image.new('RGBA', (300, 100), (255, 255, 255, 0))\nd = ImageDraw.Draw(img)\n\
         d.line([(10, 80), (80, 20), (150, 70), (290, 30)], fill=(20, 30, 90, 255), width=5)\nimg.save({:?})\n",
        path.display().to_string()
    );
    let status = Command::new("python3").args(["-c", &script]).status().expect("python3 with Pillow");
    assert!(status.success(), "Pillow (installed with reportlab) must be available");
    std::fs::read(path).expect("png")
}

/// A one-page PDF saying `text` at the top.
pub fn one_page(text: &str) -> Vec<u8> {
    reportlab_pdf(&[Page::text(text)])
}

/// `count` pages, each saying "`title` page N" at the top.
pub fn numbered_pages(title: &str, count: u32) -> Vec<u8> {
    let pages: Vec<Page> = (1..=count).map(|i| Page::text(&format!("{title} page {i}"))).collect();
    reportlab_pdf(&pages)
}

/// Runs a Python program in a fresh directory and returns the file it wrote there as `out`.
fn python_output(script: &str, out: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().expect("tempdir");
    let status = Command::new("python3").current_dir(dir.path()).args(["-c", script]).status().expect("python3");
    assert!(status.success(), "reportlab, pypdf and pillow must be installed (scripts/install-test-deps.sh)");
    std::fs::read(dir.path().join(out)).expect("output")
}

/// The program behind [`form_pdf`]: reportlab's `acroForm` makes the text, checkbox, radio
/// and choice fields; reportlab makes no push buttons, so pypdf adds the image field.
const FORM_SCRIPT: &str = r#"
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
w.write("out.pdf")
"#;

/// An A4 form (page height 841.89 pt): text `fullName` (72,700-322,724), multi-line text
/// `address`, checkbox `agree`, radio group `plan` (`basic`, `premium`), combo box `city`
/// (Delhi, Mumbai, Pune), list box `langs` (Hindi, English, Marathi) and the image field
/// `photo` (a push button at 72,300-222,400).
pub fn form_pdf() -> Vec<u8> {
    python_output(FORM_SCRIPT, "out.pdf")
}

/// `pages` pages titled `title`, made by reportlab, with bookmarks (`title` at the top, one
/// "`title` section N" per page below it) and on the first page a link to the last page.
pub fn outlined_pdf(title: &str, pages: u32) -> Vec<u8> {
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
    python_output(&script, "out.pdf")
}

/// A 120x80 PNG made by Pillow: a dark blue block on white.
pub fn png_image() -> Vec<u8> {
    let script = r#"
from PIL import Image, ImageDraw
img = Image.new("RGB", (120, 80), "white")
ImageDraw.Draw(img).rectangle([10, 10, 110, 70], fill=(10, 30, 120))
img.save("out.png")
"#;
    python_output(script, "out.png")
}

/// The Python program; Rust's `{:?}` of a string is a valid Python string literal.
fn script(path: &str, pages: &[Page]) -> String {
    let mut script = format!("from reportlab.pdfgen import canvas\nc = canvas.Canvas({path:?})\n");
    for page in pages {
        for (y, text) in &page.lines {
            script.push_str(&format!("c.drawString(72, {y}, {text:?})\n"));
        }
        script.push_str("c.showPage()\n");
    }
    script.push_str("c.save()\n");
    script
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_draws_each_line_and_ends_each_page() {
        let pages = [Page::text("It's page one").line(200, "Signatures:"), Page::new()];
        let script = script("/tmp/x.pdf", &pages);
        assert!(script.contains("c = canvas.Canvas(\"/tmp/x.pdf\")"), "{script}");
        assert!(script.contains("c.drawString(72, 720, \"It's page one\")\nc.drawString(72, 200, \"Signatures:\")"));
        assert_eq!(script.matches("c.showPage()").count(), 2, "{script}");
        assert!(script.ends_with("c.save()\n"));
    }
}
