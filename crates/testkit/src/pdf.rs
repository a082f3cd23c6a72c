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
