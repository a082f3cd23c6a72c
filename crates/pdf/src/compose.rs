//! New PDFs from text: reports such as a workflow's completion certificate, A4 pages in the
//! standard Helvetica and Courier fonts, with files attached unchanged (embedded files, so an
//! attached signed PDF keeps every signature valid when it is taken out again).

use std::fmt::Write as _;

/// One block of a report.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Heading(String),
    Paragraph(String),
    /// Label and value pairs, one per line.
    KeyValues(Vec<(String, String)>),
    /// Fixed-width lines (hashes, event listings), wrapped at the page width.
    Mono(Vec<String>),
}

/// A file carried inside the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Attachment {
    pub name: String,
    pub description: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

const PAGE_W: f64 = 595.0;
const PAGE_H: f64 = 842.0;
const MARGIN: f64 = 50.0;
const FOOTER: f64 = 30.0;

#[derive(Clone, Copy, PartialEq)]
enum Face {
    Regular,
    Bold,
    Mono,
}

impl Face {
    fn resource(self) -> &'static str {
        match self {
            Face::Regular => "F1",
            Face::Bold => "F2",
            Face::Mono => "F3",
        }
    }

    /// A conservative average advance (em) for wrapping: Helvetica's widest common glyphs stay
    /// inside it; Courier is exactly 0.6.
    fn advance(self) -> f64 {
        match self {
            Face::Regular => 0.56,
            Face::Bold => 0.6,
            Face::Mono => 0.6,
        }
    }
}

struct Line {
    face: Face,
    size: f64,
    x: f64,
    text: String,
    /// Space before this line.
    gap: f64,
}

/// WinAnsi bytes for text in a standard font: Latin-1 passes, everything else becomes '?'.
fn win_ansi(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c as u32 {
            0x20..=0x7e | 0xa0..=0xff => c as u32 as u8,
            0x2013 | 0x2014 => b'-',
            0x2018 | 0x2019 => b'\'',
            0x201c | 0x201d => b'"',
            _ => b'?',
        })
        .collect()
}

fn literal(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('(');
    for &b in bytes {
        match b {
            b'(' | b')' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push(')');
    out
}

/// UTF-16BE text string (for /UF and /Desc, which may hold any character).
fn text_string(text: &str) -> String {
    let mut out = String::from("<FEFF");
    for unit in text.encode_utf16() {
        let _ = write!(out, "{unit:04X}");
    }
    out.push('>');
    out
}

/// Splits text into lines that fit `width` points, breaking long words.
fn wrap(text: &str, face: Face, size: f64, width: f64) -> Vec<String> {
    let per_line = ((width / (face.advance() * size)).floor() as usize).max(8);
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut current = String::new();
        for word in paragraph.split(' ') {
            let mut word = word.to_string();
            while word.chars().count() > per_line {
                if !current.is_empty() {
                    lines.push(std::mem::take(&mut current));
                }
                let head: String = word.chars().take(per_line).collect();
                word = word.chars().skip(per_line).collect();
                lines.push(head);
            }
            let needed = current.chars().count() + usize::from(!current.is_empty()) + word.chars().count();
            if needed > per_line && !current.is_empty() {
                lines.push(std::mem::take(&mut current));
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(&word);
        }
        lines.push(current);
    }
    lines
}

fn layout(title: &str, blocks: &[Block]) -> Vec<Line> {
    let width = PAGE_W - 2.0 * MARGIN;
    let mut lines = Vec::new();
    let mut push = |face: Face, size: f64, x: f64, text: &str, gap: f64, width: f64| {
        for (i, piece) in wrap(text, face, size, width).into_iter().enumerate() {
            lines.push(Line { face, size, x, text: piece, gap: if i == 0 { gap } else { 0.0 } });
        }
    };
    push(Face::Bold, 16.0, MARGIN, title, 0.0, width);
    for block in blocks {
        match block {
            Block::Heading(text) => push(Face::Bold, 12.0, MARGIN, text, 12.0, width),
            Block::Paragraph(text) => push(Face::Regular, 9.5, MARGIN, text, 4.0, width),
            Block::KeyValues(pairs) => {
                for (key, value) in pairs {
                    push(Face::Bold, 9.5, MARGIN, key, 3.0, width);
                    push(Face::Regular, 9.5, MARGIN + 12.0, value, 0.0, width - 12.0);
                }
            }
            Block::Mono(rows) => {
                for row in rows {
                    push(Face::Mono, 7.5, MARGIN, row, 1.0, width);
                }
            }
        }
    }
    lines
}

/// Splits laid-out lines into pages of content-stream text.
fn paginate(lines: &[Line]) -> Vec<String> {
    let mut pages = Vec::new();
    let mut content = String::new();
    let mut y = PAGE_H - MARGIN;
    for line in lines {
        let step = line.gap + line.size * 1.3;
        if y - step < MARGIN + FOOTER && !content.is_empty() {
            pages.push(std::mem::take(&mut content));
            y = PAGE_H - MARGIN;
        }
        y -= step;
        let _ = writeln!(
            content,
            "BT /{} {} Tf {:.2} {:.2} Td {} Tj ET",
            line.face.resource(),
            line.size,
            line.x,
            y,
            literal(&win_ansi(&line.text))
        );
    }
    pages.push(content);
    let total = pages.len();
    for (i, page) in pages.iter_mut().enumerate() {
        let footer = format!("Page {} of {total}", i + 1);
        let _ = writeln!(
            page,
            "BT /F1 8 Tf {:.2} {:.2} Td {} Tj ET",
            PAGE_W - MARGIN - 60.0,
            MARGIN / 2.0,
            literal(footer.as_bytes())
        );
    }
    pages
}

struct Writer {
    out: Vec<u8>,
    offsets: Vec<usize>,
}

impl Writer {
    fn object(&mut self, number: usize, body: &[u8]) {
        self.offsets[number] = self.out.len();
        self.out.extend_from_slice(format!("{number} 0 obj\n").as_bytes());
        self.out.extend_from_slice(body);
        self.out.extend_from_slice(b"\nendobj\n");
    }

    fn stream(&mut self, number: usize, dict: &str, data: &[u8]) {
        let mut body = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
        body.extend_from_slice(data);
        body.extend_from_slice(b"\nendstream");
        self.object(number, &body);
    }
}

/// A PDF with the report's text on A4 pages and the attachments embedded.
pub fn compose_report(title: &str, blocks: &[Block], attachments: &[Attachment]) -> Vec<u8> {
    let pages = paginate(&layout(title, blocks));
    // 1 catalog, 2 page tree, 3-5 fonts, then per page (page, content), then per attachment
    // (file stream, file spec).
    let first_page = 6;
    let first_file = first_page + 2 * pages.len();
    let count = first_file + 2 * attachments.len();
    let mut w = Writer { out: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec(), offsets: vec![0; count] };

    let mut sorted: Vec<(usize, &Attachment)> = attachments.iter().enumerate().collect();
    sorted.sort_by(|a, b| a.1.name.cmp(&b.1.name));
    let names: String =
        sorted.iter().map(|(i, a)| format!("{} {} 0 R ", text_string(&a.name), first_file + 2 * i + 1)).collect();
    let af: String = (0..attachments.len()).map(|i| format!("{} 0 R ", first_file + 2 * i + 1)).collect();
    let mut catalog = String::from("<< /Type /Catalog /Pages 2 0 R");
    if !attachments.is_empty() {
        let _ = write!(
            catalog,
            " /Names << /EmbeddedFiles << /Names [ {names}] >> >> /AF [ {af}] /PageMode /UseAttachments"
        );
    }
    let _ = write!(catalog, " /Info << /Title {} /Producer (Signet) >> >>", text_string(title));
    w.object(1, catalog.as_bytes());
    let kids: String = (0..pages.len()).map(|i| format!("{} 0 R ", first_page + 2 * i)).collect();
    w.object(2, format!("<< /Type /Pages /Kids [ {kids}] /Count {} >>", pages.len()).as_bytes());
    for (number, base) in [(3, "Helvetica"), (4, "Helvetica-Bold"), (5, "Courier")] {
        w.object(
            number,
            format!("<< /Type /Font /Subtype /Type1 /BaseFont /{base} /Encoding /WinAnsiEncoding >>").as_bytes(),
        );
    }
    for (i, content) in pages.iter().enumerate() {
        let page = first_page + 2 * i;
        w.object(
            page,
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_W} {PAGE_H}] /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R >> >> /Contents {} 0 R >>",
                page + 1
            )
            .as_bytes(),
        );
        w.stream(page + 1, "", content.as_bytes());
    }
    for (i, attachment) in attachments.iter().enumerate() {
        let file = first_file + 2 * i;
        let subtype = attachment.mime.replace('/', "#2F");
        w.stream(
            file,
            &format!("/Type /EmbeddedFile /Subtype /{subtype} /Params << /Size {} >>", attachment.bytes.len()),
            &attachment.bytes,
        );
        w.object(
            file + 1,
            format!(
                "<< /Type /Filespec /F {} /UF {} /Desc {} /EF << /F {file} 0 R >> /AFRelationship /Supplement >>",
                literal(&win_ansi(&attachment.name)),
                text_string(&attachment.name),
                text_string(&attachment.description)
            )
            .as_bytes(),
        );
    }
    let xref = w.out.len();
    let mut table = format!("xref\n0 {count}\n0000000000 65535 f \n");
    for offset in &w.offsets[1..] {
        let _ = writeln!(table, "{offset:010} 00000 n ");
    }
    let _ = write!(table, "trailer\n<< /Size {count} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n");
    w.out.extend_from_slice(table.as_bytes());
    w.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_long_words_and_escapes() {
        let lines = wrap(&"a".repeat(300), Face::Mono, 7.5, 495.0);
        assert!(lines.len() >= 2 && lines.iter().all(|l| l.len() <= 110));
        assert_eq!(literal(b"(x)\\"), "(\\(x\\)\\\\)");
        assert_eq!(win_ansi("é€"), vec![0xe9, b'?']);
    }

    #[test]
    fn composes_a_document_our_reader_opens() {
        let blocks = vec![
            Block::Heading("Documents".into()),
            Block::KeyValues(vec![("SHA-256".into(), "ab".repeat(32))]),
            Block::Mono((0..300).map(|i| format!("{i:04} event line")).collect()),
        ];
        let attachment = Attachment {
            name: "a.pdf".into(),
            description: "signed".into(),
            mime: "application/pdf".into(),
            bytes: b"%PDF-1.7 x".to_vec(),
        };
        let pdf = compose_report("Completion certificate", &blocks, &[attachment]);
        let summary = crate::inspect(&pdf).expect("our reader opens it");
        assert!(summary.pages >= 3, "{}", summary.pages);
    }
}
