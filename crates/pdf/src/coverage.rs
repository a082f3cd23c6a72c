//! What a change made after signing draws, and whether it lies over what was signed.
//!
//! Readers draw annotations and field appearances on top of the page content. A later
//! revision can therefore hide or replace signed words (a white box with a new amount over the
//! old one, a "PAID" stamp, a new picture in the signed signature box) while every signed byte
//! stays intact and each change on its own is of a kind the rules allow. So every annotation
//! or field appearance a later revision adds or replaces is placed: its page, subtype,
//! rectangle and the text it draws, and the text of the *signed* revision's page that lies
//! under its rectangle. Both come from this crate's own reading: the signed revision is opened
//! as the file it was when it ended ([`Prefix`]), and its page text runs are in the same user
//! space as an annotation's `/Rect`.
//!
//! Images the page paints directly are compared too (a third of an image under the rectangle
//! covers it: a photograph, a seal, a stamp paper's picture). Text in two-byte (Type0) fonts
//! and what form XObjects draw are read like the rest (`text.rs`, `cmap.rs`).

use std::collections::HashMap;

use crate::object::{Dict, Object, decode_text};
use crate::reader::Document;
use crate::source::Prefix;
use crate::text::{Placement, TextRun, page_drawing, runs_of, runs_of_form};

/// A later annotation or appearance that lies over text of the signed revision.
#[derive(Debug, Clone, PartialEq)]
pub struct Covering {
    /// The annotation's object number.
    pub object: u32,
    /// 1-based page number.
    pub page: usize,
    /// `FreeText`, `Stamp`, `Widget`, ...
    pub subtype: String,
    /// `[x0 y0 x1 y1]` in the page's user space.
    pub rect: [f64; 4],
    /// The text its appearance draws (empty when it draws none, such as a filled box).
    pub draws: String,
    /// What of the signed page lies under it: `text "..."`, `an image`, or both.
    pub covers: String,
}

impl std::fmt::Display for Covering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x0, y0, x1, y1] = self.rect;
        write!(f, "{} {} on page {} at [{x0:.0} {y0:.0} {x1:.0} {y1:.0}]", self.subtype, self.object, self.page)?;
        if !self.draws.is_empty() {
            write!(f, " drawing \"{}\"", self.draws)?;
        }
        write!(f, " lies over the signed {}", self.covers)
    }
}

/// Text shown in a sentence: one line, at most this many characters.
const QUOTED_CHARS: usize = 80;
/// A run or an image counts as covered when this share of its box lies under the rectangle.
const COVERED_SHARE: f64 = 0.3;

/// An annotation a later revision added or whose appearance it replaced, placed on its page.
pub(crate) struct Placed {
    pub object: u32,
    pub page: usize,
    pub subtype: String,
    pub rect: [f64; 4],
    pub draws: String,
    /// A text markup (highlight, underline, strike-out) that leaves the text under it legible.
    pub see_through: bool,
}

impl Placed {
    /// Where and what, for the list of changes.
    pub fn describe(&self) -> String {
        let [x0, y0, x1, y1] = self.rect;
        let drawing = if self.draws.is_empty() { String::new() } else { format!(", drawing \"{}\"", self.draws) };
        format!("on page {} at [{x0:.0} {y0:.0} {x1:.0} {y1:.0}]{drawing}", self.page)
    }
}

/// The latest revision's pages, to find the page an annotation is on.
pub(crate) struct LatestPages {
    /// Page object number → 1-based page number.
    numbers: HashMap<u32, usize>,
    /// Annotation object number → page object number (from the pages' `/Annots`).
    annotations: HashMap<u32, u32>,
}

impl LatestPages {
    pub fn read(doc: &Document<'_>) -> Option<LatestPages> {
        let pages = doc.pages().ok()?;
        let mut numbers = HashMap::new();
        let mut annotations = HashMap::new();
        for (index, page) in pages.iter().enumerate() {
            numbers.insert(page.id.num, index + 1);
            let listed = page.dict.get("Annots").and_then(|a| doc.resolve_array(a).ok().flatten()).unwrap_or_default();
            for annotation in listed.iter().filter_map(Object::as_ref) {
                annotations.insert(annotation.num, page.id.num);
            }
        }
        Some(LatestPages { numbers, annotations })
    }

    /// The annotation placed: its page (`/P`, else the page that lists it), `/Rect` and the
    /// text its normal appearance draws; `None` when it has no page or no rectangle with area
    /// (nothing is drawn then).
    pub fn place(&self, doc: &Document<'_>, object: u32, annotation: &Dict) -> Option<Placed> {
        let rect = rectangle(annotation)?;
        let page_object = self
            .annotations
            .get(&object)
            .copied()
            .or_else(|| annotation.get("P").and_then(Object::as_ref).map(|p| p.num))?;
        let page = *self.numbers.get(&page_object)?;
        let subtype =
            annotation.name("Subtype").map_or_else(|| "annotation".into(), |s| String::from_utf8_lossy(s).into());
        let see_through = is_see_through_markup(doc, annotation);
        Some(Placed { object, page, subtype, rect, draws: drawn_text(doc, annotation), see_through })
    }
}

/// Annotations made to lie over text and leave it legible: a highlight, an underline, a
/// strike-out or a squiggle.
const TEXT_MARKUP: [&[u8]; 4] = [b"Highlight", b"Underline", b"StrikeOut", b"Squiggly"];

/// A text markup annotation that leaves what it marks legible: without an appearance stream
/// (the reader draws its standard translucent mark), or with one that draws no text and no
/// images and fills nothing, or fills only while a graphics state (`gs`) is in force and every
/// graphics state it can choose blends with what lies beneath (`/BM /Multiply` or `/Darken`, or a fill alpha of at most 0.5), as readers draw
/// highlights. Anything else is judged like any annotation: a "highlight" painting an opaque
/// box with new words over the terms is the Evil Annotation Attack in another subtype.
fn is_see_through_markup(doc: &Document<'_>, annotation: &Dict) -> bool {
    if !annotation.name("Subtype").is_some_and(|s| TEXT_MARKUP.contains(&s)) {
        return false;
    }
    let normal = annotation
        .get("AP")
        .and_then(|ap| doc.resolve_dict(ap).ok().flatten())
        .and_then(|ap| ap.get("N").cloned())
        .map(|normal| doc.resolve(&normal));
    let stream = match normal {
        None => return true,
        Some(Ok(Object::Stream(stream))) => stream,
        Some(_) => return false,
    };
    let Ok(content) = doc.stream_decoded(&stream) else { return false };
    let painting = crate::text::painting_of(&content);
    if painting.places || painting.plain_fills || !runs_of(&content).is_empty() {
        return false;
    }
    !painting.fills_under_state || blends_with_beneath(doc, &stream.dict)
}

/// Whether every graphics state an appearance's resources define blends with the page beneath.
fn blends_with_beneath(doc: &Document<'_>, form: &Dict) -> bool {
    let states = form
        .get("Resources")
        .and_then(|r| doc.resolve_dict(r).ok().flatten())
        .and_then(|resources| resources.get("ExtGState").cloned())
        .and_then(|g| doc.resolve_dict(&g).ok().flatten());
    let Some(states) = states else { return false };
    let blending = |state: &Object| {
        let Ok(Some(state)) = doc.resolve_dict(state) else { return false };
        let multiplies = state.name("BM").is_some_and(|bm| bm == b"Multiply" || bm == b"Darken");
        let translucent = state.get("ca").and_then(Object::as_number).is_some_and(|alpha| alpha <= 0.5);
        multiplies || translucent
    };
    !states.0.is_empty() && states.0.iter().all(|(_, state)| blending(state))
}

/// A `/Rect` normalised to `[x0 y0 x1 y1]` with x0 < x1, y0 < y1; `None` without area.
fn rectangle(annotation: &Dict) -> Option<[f64; 4]> {
    let numbers: Vec<f64> = annotation.get("Rect")?.as_array()?.iter().filter_map(Object::as_number).collect();
    let [a, b, c, d] = numbers.as_slice() else { return None };
    let rect = [a.min(*c), b.min(*d), a.max(*c), b.max(*d)];
    (rect[2] - rect[0] > 0.0 && rect[3] - rect[1] > 0.0 && rect.iter().all(|n| n.is_finite())).then_some(rect)
}

/// The text an annotation shows: what its normal appearance stream draws, else its
/// `/Contents` (a FreeText without appearance) or a field's text value.
fn drawn_text(doc: &Document<'_>, annotation: &Dict) -> String {
    let appearance = annotation
        .get("AP")
        .and_then(|ap| doc.resolve_dict(ap).ok().flatten())
        .and_then(|ap| ap.get("N").cloned())
        .and_then(|normal| doc.resolve(&normal).ok());
    let from_stream = match appearance {
        Some(Object::Stream(stream)) => Some(joined(&runs_of_form(doc, &stream))),
        _ => None,
    };
    let text = from_stream.filter(|t| !t.is_empty()).or_else(|| {
        ["Contents", "V"].iter().find_map(|key| annotation.get(key).and_then(Object::as_str_bytes).map(decode_text))
    });
    quoted(&text.unwrap_or_default())
}

/// What the signed revision shows on the pages later changes drew on (only those: a 500-page
/// contract with one comment reads one page).
pub(crate) struct SignedPages {
    /// 1-based page number → its text runs and the boxes of the images it paints.
    pages: HashMap<usize, (Vec<TextRun>, Vec<[f64; 4]>)>,
}

impl SignedPages {
    /// The text of `pages` (1-based) in the revision that ends at `signed_end`; `None` when it
    /// cannot be read as a file of its own (changes are then reported without their coverage).
    pub fn read(doc: &Document<'_>, signed_end: u64, pages: &[usize]) -> Option<SignedPages> {
        let signed = Document::open(Prefix { inner: doc.source(), len: signed_end }).ok()?;
        let all = signed.pages().ok()?;
        let mut read = HashMap::new();
        for &number in pages {
            if let Some(page) = number.checked_sub(1).and_then(|i| all.get(i))
                && !read.contains_key(&number)
            {
                let (runs, placements) = page_drawing(&signed, page).ok()?;
                read.insert(number, (runs, image_boxes(&placements)));
            }
        }
        Some(SignedPages { pages: read })
    }

    /// Whether `placed` lies over signed text or images, and which.
    pub fn covering(&self, placed: &Placed) -> Option<Covering> {
        if placed.see_through {
            return None;
        }
        let (runs, images) = self.pages.get(&placed.page)?;
        let covered: Vec<TextRun> = runs.iter().filter(|run| is_covered(run, placed.rect)).cloned().collect();
        let images = images.iter().filter(|image| share_under(**image, placed.rect) >= COVERED_SHARE).count();
        let text = (!covered.is_empty()).then(|| format!("text \"{}\"", quoted(&joined(&covered))));
        let pictures = match images {
            0 => None,
            1 => Some("an image".to_string()),
            n => Some(format!("{n} images")),
        };
        let covers = match (text, pictures) {
            (None, None) => return None,
            (Some(text), None) => text,
            (None, Some(pictures)) => pictures,
            (Some(text), Some(pictures)) => format!("{text} and {pictures}"),
        };
        Some(Covering {
            object: placed.object,
            page: placed.page,
            subtype: placed.subtype.clone(),
            rect: placed.rect,
            draws: placed.draws.clone(),
            covers,
        })
    }
}

/// The boxes of the placements that paint images (in the page's content or in forms it draws).
fn image_boxes(placements: &[Placement]) -> Vec<[f64; 4]> {
    placements.iter().filter(|p| p.image).map(|p| p.bbox).collect()
}

/// The share of `area`'s box that lies under `rect` (0 for a box without area).
fn share_under(area: [f64; 4], rect: [f64; 4]) -> f64 {
    let size = (area[2] - area[0]) * (area[3] - area[1]);
    if size <= 0.0 || !size.is_finite() {
        return 0.0;
    }
    let overlap_x = (area[2].min(rect[2]) - area[0].max(rect[0])).max(0.0);
    let overlap_y = (area[3].min(rect[3]) - area[1].max(rect[1])).max(0.0);
    overlap_x * overlap_y / size
}

/// A run of real text (not a fill-in line of underscores or dots that a field is meant to sit
/// on) whose box lies under `rect` by at least [`COVERED_SHARE`].
fn is_covered(run: &TextRun, rect: [f64; 4]) -> bool {
    // A glyph we cannot read (U+FFFD: a two-byte font without a map to Unicode) is text too.
    if !run.text.chars().any(|c| c.is_alphanumeric() || c == char::REPLACEMENT_CHARACTER) {
        return false;
    }
    // The glyphs' box: from a little under the baseline to the top of capitals.
    let (x0, x1) = (run.x.min(run.x + run.width), run.x.max(run.x + run.width));
    let glyphs = [x0, run.y - 0.2 * run.size, x1, run.y + 0.8 * run.size];
    share_under(glyphs, rect) >= COVERED_SHARE
}

/// Runs in reading order (top to bottom, left to right) as one line of text.
fn joined(runs: &[TextRun]) -> String {
    let mut sorted: Vec<&TextRun> = runs.iter().collect();
    sorted.sort_by(|a, b| b.y.total_cmp(&a.y).then(a.x.total_cmp(&b.x)));
    sorted.iter().map(|r| r.text.trim()).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ")
}

/// One line, at most [`QUOTED_CHARS`] characters (an ellipsis when cut).
fn quoted(text: &str) -> String {
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, x: f64, y: f64) -> TextRun {
        TextRun { text: text.into(), x, y, size: 12.0, width: 60.0 }
    }

    #[test]
    fn a_rectangle_covers_the_words_under_it_not_their_neighbours_or_fill_in_lines() {
        let over_amount = [95.0, 695.0, 170.0, 715.0];
        assert!(is_covered(&run("Rs 50,000", 100.0, 700.0), over_amount));
        assert!(!is_covered(&run("Borrower", 100.0, 650.0), over_amount), "a line below");
        assert!(!is_covered(&run("__________", 100.0, 700.0), over_amount), "a fill-in line");
        // Touching the edge of a word is not covering it.
        assert!(!is_covered(&run("Rs 50,000", 100.0, 700.0), [158.0, 695.0, 200.0, 715.0]));
    }

    #[test]
    fn quoted_text_is_one_short_line() {
        assert_eq!(quoted("  Pay\n  Rs 5 "), "Pay Rs 5");
        assert_eq!(quoted(&"x".repeat(100)).chars().count(), QUOTED_CHARS + 1);
    }
}
