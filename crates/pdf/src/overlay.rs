//! Marks drawn onto pages before anyone signs (a QR code that leads to the document's public
//! verification page), as an incremental update: each chosen page's content becomes
//! `[q, its own content, Q, the mark]`, so the mark is drawn in the page's default coordinates
//! whatever the page's content left in the graphics state, and the original bytes stay as they
//! were. A signed document is refused: drawing on it would change what was signed.

use crate::error::{Error, Result};
use crate::layout::{BoxSpec, PageSelection, place};
use crate::object::{Dict, Object, Stream, StreamData};
use crate::reader::Document;
use crate::writer::{ObjSink, Writer};

/// Largest QR code accepted (version 40 is 177 modules wide).
const MAX_MODULES: usize = 177;
/// Most marks one update draws.
pub const MAX_MARKS: usize = 500;

/// A QR code (or any square matrix of modules) to draw in `rect` on the `pages`.
#[derive(Debug, Clone, PartialEq)]
pub struct QrMark {
    pub pages: PageSelection,
    pub rect: BoxSpec,
    /// Modules per side.
    pub width: usize,
    /// Row by row from the top, `true` for a dark module; `width * width` of them.
    pub dark: Vec<bool>,
}

/// `document` with each mark drawn on its pages (the quiet zone of four modules inside the
/// box, white behind it).
pub fn draw_qr_codes(document: &[u8], marks: &[QrMark]) -> Result<Vec<u8>> {
    let doc = Document::open(document)?;
    if !crate::verify::signatures(document)?.is_empty() {
        return Err(Error::Unsupported("the document is signed; nothing can be drawn on it".into()));
    }
    doc.check_displayable()?;
    let pages = doc.pages()?;
    let mut per_page: Vec<Vec<Vec<u8>>> = vec![Vec::new(); pages.len()];
    let mut count = 0;
    for mark in marks {
        if mark.width == 0 || mark.width > MAX_MODULES || mark.dark.len() != mark.width * mark.width {
            return Err(Error::InvalidOptions("a QR code must be a square of 1 to 177 modules".into()));
        }
        for index in mark.pages.indices(pages.len())? {
            count += 1;
            if count > MAX_MARKS {
                return Err(Error::InvalidOptions(format!("more than {MAX_MARKS} marks")));
            }
            let placed = place(&pages[index], &mark.rect);
            per_page[index].push(qr_content(placed.rect, mark));
        }
    }
    let mut writer = Writer::new(&doc)?;
    let save = writer.add(content_stream(b"q\n".to_vec()));
    let restore = writer.add(content_stream(b"Q\n".to_vec()));
    for (page, drawings) in pages.iter().zip(per_page).filter(|(_, d)| !d.is_empty()) {
        let mut contents = vec![Object::Ref(save)];
        match page.dict.get("Contents") {
            Some(Object::Array(parts)) => contents.extend(parts.iter().cloned()),
            Some(Object::Ref(r)) => match doc.resolve(&Object::Ref(*r))? {
                // An indirect array of streams, or one stream.
                Object::Array(parts) => contents.extend(parts),
                _ => contents.push(Object::Ref(*r)),
            },
            Some(_) => return Err(Error::Damaged("a page's /Contents is neither a stream nor an array".into())),
            None => {}
        }
        contents.push(Object::Ref(restore));
        for drawing in drawings {
            contents.push(Object::Ref(writer.add(content_stream(drawing))));
        }
        let mut dict = page.dict.clone();
        dict.set("Contents", Object::Array(contents));
        writer.put(page.id, &Object::Dict(dict));
    }
    let update = writer.finish(&doc)?;
    let mut out = Vec::with_capacity(document.len() + update.len());
    out.extend_from_slice(document);
    out.extend_from_slice(&update);
    Ok(out)
}

fn content_stream(data: Vec<u8>) -> Object {
    let mut dict = Dict::new();
    dict.set("Length", Object::Int(data.len() as i64));
    Object::Stream(Stream { dict, data: StreamData::Owned(data) })
}

/// The operators that draw `mark` filling `rect` (user space), square and centred: a white
/// square, then one rectangle per run of dark modules in each row.
fn qr_content(rect: [f64; 4], mark: &QrMark) -> Vec<u8> {
    let (w, h) = (rect[2] - rect[0], rect[3] - rect[1]);
    let side = w.min(h);
    let (x0, y0) = (rect[0] + (w - side) / 2.0, rect[1] + (h - side) / 2.0);
    let quiet = 4;
    let module = side / (mark.width + 2 * quiet) as f64;
    let mut out = format!("q 1 g {x0:.3} {y0:.3} {side:.3} {side:.3} re f 0 g\n").into_bytes();
    for row in 0..mark.width {
        let mut col = 0;
        while col < mark.width {
            if !mark.dark[row * mark.width + col] {
                col += 1;
                continue;
            }
            let start = col;
            while col < mark.width && mark.dark[row * mark.width + col] {
                col += 1;
            }
            let x = x0 + (quiet + start) as f64 * module;
            // Rows count from the top; PDF's y grows upwards.
            let y = y0 + side - (quiet + row + 1) as f64 * module;
            out.extend_from_slice(
                format!("{x:.3} {y:.3} {:.3} {module:.3} re\n", (col - start) as f64 * module).as_bytes(),
            );
        }
    }
    out.extend_from_slice(b"f Q\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checker(width: usize) -> QrMark {
        QrMark {
            pages: PageSelection::All,
            rect: BoxSpec::Custom { left: 10.0, top: 10.0, width: 100.0, height: 100.0 },
            width,
            dark: (0..width * width).map(|i| (i / width + i % width).is_multiple_of(2)).collect(),
        }
    }

    #[test]
    fn rows_of_dark_modules_become_rectangles_inside_the_quiet_zone() {
        let mark = QrMark { width: 2, dark: vec![true, true, false, true], ..checker(2) };
        let content = String::from_utf8(qr_content([0.0, 0.0, 100.0, 100.0], &mark)).expect("ascii");
        // 2 modules + 8 of quiet zone: 10 points each; the top row is one run of two.
        assert!(content.contains("40.000 50.000 20.000 10.000 re"), "{content}");
        assert!(content.contains("50.000 40.000 10.000 10.000 re"), "{content}");
        assert_eq!(content.matches(" re\n").count(), 2, "{content}");
    }

    #[test]
    fn a_mark_that_is_no_square_is_refused() {
        let mut bad = checker(3);
        bad.dark.pop();
        let pdf = crate::compose::compose_report("t", &[], &[]);
        assert!(draw_qr_codes(&pdf, &[bad]).is_err());
        assert!(draw_qr_codes(&pdf, &[checker(0)]).is_err());
        let drawn = draw_qr_codes(&pdf, &[checker(21)]).expect("drawn");
        assert!(drawn.starts_with(&pdf), "an incremental update");
        assert_eq!(Document::open(drawn.as_slice()).expect("opens").pages().expect("pages").len(), 1);
    }
}
