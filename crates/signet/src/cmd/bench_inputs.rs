//! What the signing benchmarks share (`signet bench sign`, `signet bench token`): a run's count
//! and time, the visible signature they all make, test documents written streaming, and the
//! outside validator's verdict on a result.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use signet_signing::{BoxSpec, PadesLevel, PageSelection, PdfSignOptions, Position, Visible};

pub(super) struct Run {
    pub(super) count: usize,
    pub(super) seconds: f64,
}

impl Run {
    pub(super) fn rate(&self) -> f64 {
        self.count as f64 / self.seconds.max(1e-9)
    }
}

pub(super) fn visible_options() -> PdfSignOptions {
    PdfSignOptions {
        level: PadesLevel::BB,
        visible: Some(Visible {
            pages: PageSelection::First,
            rect: BoxSpec::Named(Position::BottomRight),
            ..Default::default()
        }),
        reason: Some("Benchmark".into()),
        ..Default::default()
    }
}

pub(super) fn pdfsig_check(path: &Path) -> String {
    match Command::new("pdfsig").arg(path).output() {
        Ok(o) if String::from_utf8_lossy(&o.stdout).contains("Signature is Valid.") => "pdfsig: valid".into(),
        Ok(o) => format!("pdfsig: NOT valid: {}", String::from_utf8_lossy(&o.stdout).replace('\n', " ")),
        Err(_) => "pdfsig not installed".into(),
    }
}

/// A one-page A4 PDF with a line of text and, when `blob_len > 0`, an unreferenced stream of
/// that many incompressible bytes (written streaming, so any size fits in little memory).
pub(super) fn write_pdf(out: &mut impl Write, title: &str, blob_len: u64) -> std::io::Result<()> {
    let mut w = Counting { inner: out, written: 0 };
    let mut offsets = Vec::new();
    w.write_all(b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n")?;
    let content = format!("BT /F1 24 Tf 72 720 Td ({title}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>"
            .to_string(),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
        format!("<< /Length {} >>\nstream\n{content}\nendstream", content.len()),
    ];
    for (i, body) in objects.iter().enumerate() {
        offsets.push(w.written);
        writeln!(w, "{} 0 obj\n{body}\nendobj", i + 1)?;
    }
    if blob_len > 0 {
        offsets.push(w.written);
        write!(w, "6 0 obj\n<< /Length {blob_len} >>\nstream\n")?;
        write_noise(&mut w, blob_len)?;
        w.write_all(b"\nendstream\nendobj\n")?;
    }
    let xref_at = w.written;
    write!(w, "xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1)?;
    for o in &offsets {
        writeln!(w, "{o:010} 00000 n ")?;
    }
    write!(w, "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF\n", offsets.len() + 1)
}

/// xorshift64 noise: incompressible enough, and fast.
fn write_noise(w: &mut impl Write, len: u64) -> std::io::Result<()> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut chunk = vec![0u8; 1 << 20];
    let mut left = len;
    while left > 0 {
        for word in chunk.chunks_exact_mut(8) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            word.copy_from_slice(&state.to_le_bytes());
        }
        let n = left.min(chunk.len() as u64) as usize;
        w.write_all(&chunk[..n])?;
        left -= n as u64;
    }
    Ok(())
}

struct Counting<'a, W: Write> {
    inner: &'a mut W,
    written: u64,
}

impl<W: Write> Write for Counting<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_pdf_has_a_consistent_xref() -> anyhow::Result<()> {
        let mut v = Vec::new();
        write_pdf(&mut v, "t", 1000)?;
        let summary = signet_pdf_summary(&v);
        assert!(summary, "the generated PDF must open without xref recovery");
        Ok(())
    }

    fn signet_pdf_summary(bytes: &[u8]) -> bool {
        // The verify path opens the document; a readable, unsigned PDF reports "no signatures".
        matches!(signet_signing::verify_file(bytes, &[]), Ok(r) if r.signatures.is_empty())
    }
}
