//! Text of a PDF with positions, for placing a signature at an anchor text and for summaries.
//! Reads the page content streams (text operators, text and graphics matrices) and the form
//! XObjects they draw. Strings are decoded by their font (`cmap.rs`): a `/ToUnicode` map where
//! the font has one, else Latin-1 for simple fonts; two-byte (Type0) codes without a map read
//! as U+FFFD. Glyphs are taken as half an em wide (no font metrics). Work is bounded so a
//! hostile file cannot make it run long.

use std::collections::HashMap;
use std::rc::Rc;

use crate::cmap::FontCodes;
use crate::lexer::{Lexer, Token};
use crate::object::{Dict, Object, Stream};
use crate::reader::{Document, Page};
use crate::{Error, Result};

/// A piece of text drawn at one place, in the page's user space.
#[derive(Debug, Clone, PartialEq)]
pub struct TextRun {
    pub text: String,
    /// Baseline origin.
    pub x: f64,
    pub y: f64,
    pub size: f64,
    pub width: f64,
}

/// Where a text was found: a box from the page's top-left corner, in points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextHit {
    /// 1-based.
    pub page: u32,
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

const MAX_OPERATIONS: usize = 2_000_000;
const MAX_STACK: usize = 64;
/// Text kept per page and per document: far more than any real page or contract holds, little
/// enough that a hostile file cannot fill the memory with runs.
const MAX_RUNS_PER_PAGE: usize = 100_000;
const MAX_CHARS_PER_PAGE: usize = 1 << 20;
const MAX_RUNS_PER_DOCUMENT: usize = 1_000_000;
const MAX_CHARS_PER_DOCUMENT: usize = 16 << 20;

/// What is left of the document's text allowance.
struct TextBudget {
    runs: usize,
    chars: usize,
}

impl TextBudget {
    fn for_document() -> Self {
        TextBudget { runs: MAX_RUNS_PER_DOCUMENT, chars: MAX_CHARS_PER_DOCUMENT }
    }

    fn for_page(&self) -> Self {
        TextBudget { runs: self.runs.min(MAX_RUNS_PER_PAGE), chars: self.chars.min(MAX_CHARS_PER_PAGE) }
    }

    fn spend(&mut self, runs: &[TextRun]) {
        self.runs = self.runs.saturating_sub(runs.len());
        self.chars = self.chars.saturating_sub(runs.iter().map(|r| r.text.len()).sum());
    }
}

type Matrix = [f64; 6];
const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// `m` then `n` (row vectors: p' = p·m·n).
fn multiply(m: &Matrix, n: &Matrix) -> Matrix {
    [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]
}

fn number(t: Option<&Token>) -> f64 {
    match t {
        Some(Token::Number(n)) if n.is_finite() => *n,
        _ => 0.0,
    }
}

/// The text runs of one content stream read on its own, without resources (fonts read as
/// one byte a character, forms not followed).
pub(crate) fn runs_of(content: &[u8]) -> Vec<TextRun> {
    let mut reader = ContentReader::new(None);
    reader.read(content, None, State::initial(), 0);
    reader.runs
}

/// The text runs of a form XObject (an annotation's appearance) in its own space, its fonts
/// and inner forms read from its `/Resources`.
pub(crate) fn runs_of_form(doc: &Document<'_>, form: &Stream) -> Vec<TextRun> {
    let Ok(content) = doc.stream_decoded(form) else { return Vec::new() };
    let resources = form.dict.get("Resources").and_then(|r| doc.resolve_dict(r).ok().flatten());
    let mut reader = ContentReader::new(Some(doc));
    reader.read(&content, resources.as_ref(), State::initial(), 0);
    reader.runs
}

/// Where a content stream paints an XObject (`/Name Do`): the box the unit square lands on in
/// user space (where an image is drawn), and whether it is an image.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Placement {
    pub bbox: [f64; 4],
    pub image: bool,
}

/// Most XObject placements kept per page.
const MAX_PLACEMENTS: usize = 10_000;
/// How deep forms drawing forms are followed (real files nest two or three).
const MAX_FORM_DEPTH: usize = 8;
/// Most forms followed per page (each costs operations from the same allowance too).
const MAX_FORMS_FOLLOWED: usize = 10_000;
/// Most bytes of decoded forms kept per document (each form is decoded once).
const MAX_FORM_BYTES: usize = 64 << 20;

/// The graphics state the reader follows (saved by `q`, restored by `Q`): where things land
/// and which font strings are read in.
#[derive(Clone)]
struct State {
    ctm: Matrix,
    font: Rc<FontCodes>,
    size: f64,
}

impl State {
    fn initial() -> State {
        State { ctm: IDENTITY, font: Rc::new(FontCodes::default()), size: 12.0 }
    }
}

/// Reads content streams into text runs and placements, following the form XObjects they
/// paint (text and pictures in forms are on the page like any other: Chromium and many
/// generators draw whole pages as forms). Fonts and forms are read once per document; work is
/// bounded per page by [`MAX_OPERATIONS`], the text budget and the form limits above.
struct ContentReader<'r, 'd> {
    doc: Option<&'r Document<'d>>,
    budget: TextBudget,
    runs: Vec<TextRun>,
    placements: Vec<Placement>,
    operations: usize,
    forms_followed: usize,
    /// Fonts read, by object number.
    fonts: HashMap<u32, Rc<FontCodes>>,
    /// Decoded forms, by object number, and their total size.
    forms: HashMap<u32, Rc<Vec<u8>>>,
    form_bytes: usize,
}

impl<'r, 'd> ContentReader<'r, 'd> {
    fn new(doc: Option<&'r Document<'d>>) -> Self {
        ContentReader {
            doc,
            budget: TextBudget::for_document().for_page(),
            runs: Vec::new(),
            placements: Vec::new(),
            operations: 0,
            forms_followed: 0,
            fonts: HashMap::new(),
            forms: HashMap::new(),
            form_bytes: 0,
        }
    }

    /// Starts a page within what is left of `budget` (fonts and forms stay known).
    fn start_page(&mut self, budget: &TextBudget) {
        self.budget = budget.for_page();
        self.runs.clear();
        self.placements.clear();
        self.operations = 0;
        self.forms_followed = 0;
    }

    /// One page's text runs and placements.
    fn read_page(&mut self, doc: &Document<'_>, page: &Page) -> Result<()> {
        let content = page_content(doc, page)?;
        let resources = doc.page_resources(page);
        self.read(&content, resources.as_ref(), State::initial(), 0);
        Ok(())
    }

    fn spent(&self) -> bool {
        self.operations > MAX_OPERATIONS || self.budget.runs == 0 || self.budget.chars == 0
    }

    /// Reads one content stream drawn in `state`, its names looked up in `resources`.
    fn read(&mut self, content: &[u8], resources: Option<&Dict>, mut state: State, depth: usize) {
        let initial = state.clone();
        let mut lexer = Lexer::new(content);
        let mut saved: Vec<State> = Vec::new();
        let (mut tm, mut tlm, mut leading) = (IDENTITY, IDENTITY, 0.0_f64);
        let mut operands: Vec<Token> = Vec::new();
        while let Some(token) = lexer.next(0) {
            self.operations += 1;
            if self.spent() {
                break;
            }
            let Token::Operator(op) = token else {
                if operands.len() < 32 {
                    operands.push(token);
                }
                continue;
            };
            let arg = |i: usize| number(operands.get(i));
            match op.as_str() {
                "q" if saved.len() < MAX_STACK => saved.push(state.clone()),
                "Q" => state = saved.pop().unwrap_or_else(|| initial.clone()),
                "cm" => state.ctm = multiply(&[arg(0), arg(1), arg(2), arg(3), arg(4), arg(5)], &state.ctm),
                "Do" => {
                    if let Some(Token::Name(name)) = operands.last() {
                        let name = name.clone();
                        self.paint(&name, resources, &state, depth);
                    }
                }
                "BT" => {
                    tm = IDENTITY;
                    tlm = IDENTITY;
                }
                "Tf" => {
                    state.size = arg(1);
                    if let Some(Token::Name(name)) = operands.first() {
                        state.font = self.font(resources, name);
                    }
                }
                "TL" => leading = arg(0),
                "Td" | "TD" => {
                    if op == "TD" {
                        leading = -arg(1);
                    }
                    tlm = multiply(&[1.0, 0.0, 0.0, 1.0, arg(0), arg(1)], &tlm);
                    tm = tlm;
                }
                "Tm" => {
                    tlm = [arg(0), arg(1), arg(2), arg(3), arg(4), arg(5)];
                    tm = tlm;
                }
                "T*" => {
                    tlm = multiply(&[1.0, 0.0, 0.0, 1.0, 0.0, -leading], &tlm);
                    tm = tlm;
                }
                "Tj" | "'" | "\"" => {
                    if op != "Tj" {
                        tlm = multiply(&[1.0, 0.0, 0.0, 1.0, 0.0, -leading], &tlm);
                        tm = tlm;
                    }
                    if let Some(Token::Str(bytes)) = operands.iter().rev().find(|t| matches!(t, Token::Str(_))) {
                        let (text, glyphs) = state.font.decode(bytes);
                        self.show(text, glyphs, 0.0, &mut tm, &state);
                    }
                }
                "TJ" => {
                    if let Some(Token::Array(items)) = operands.last() {
                        let (text, glyphs, adjust) = shown_by_array(items, &state);
                        self.show(text, glyphs, adjust, &mut tm, &state);
                    }
                }
                _ => {}
            }
            operands.clear();
        }
    }

    /// A run of `glyphs` glyphs showing `text`, moved by `adjust` (text space units), at the
    /// text matrix `tm`; the text matrix advances past it.
    fn show(&mut self, text: String, glyphs: usize, adjust: f64, tm: &mut Matrix, state: &State) {
        let device = multiply(tm, &state.ctm);
        let scale = (device[0] * device[0] + device[1] * device[1]).sqrt();
        // Glyphs half an em wide: close enough to place words, without reading font metrics.
        let advance = glyphs as f64 * 0.5 * state.size + adjust * state.size;
        let kept = within_bytes(text, self.budget.chars);
        self.budget.runs = self.budget.runs.saturating_sub(1);
        self.budget.chars = self.budget.chars.saturating_sub(kept.len());
        self.runs.push(TextRun {
            text: kept,
            x: device[4],
            y: device[5],
            size: state.size * (device[2] * device[2] + device[3] * device[3]).sqrt().max(f64::EPSILON),
            width: advance * scale,
        });
        *tm = multiply(&[1.0, 0.0, 0.0, 1.0, advance, 0.0], tm);
    }

    /// `/Name Do`: an image is placed; a form is read where it is drawn.
    fn paint(&mut self, name: &[u8], resources: Option<&Dict>, state: &State, depth: usize) {
        let bbox = unit_square_box(&state.ctm);
        let Some(doc) = self.doc else {
            self.place(Placement { bbox, image: false });
            return;
        };
        let Some(named) = resources.and_then(|r| resource(doc, r, "XObject", name)) else { return };
        let number = named.as_ref().map(|r| r.num);
        let Ok(Object::Stream(xobject)) = doc.resolve(&named) else { return };
        match xobject.dict.name("Subtype") {
            Some(b"Image") => self.place(Placement { bbox, image: true }),
            Some(b"Form") => self.follow(doc, number, &xobject, resources, state, depth),
            _ => self.place(Placement { bbox, image: false }),
        }
    }

    fn place(&mut self, placement: Placement) {
        if self.placements.len() < MAX_PLACEMENTS {
            self.placements.push(placement);
        }
    }

    /// Reads a form where it is drawn: its `/Matrix` on the current transformation, its own
    /// resources (or, as older files do, those of the stream that draws it).
    fn follow(
        &mut self,
        doc: &Document<'_>,
        number: Option<u32>,
        form: &Stream,
        resources: Option<&Dict>,
        state: &State,
        depth: usize,
    ) {
        if depth >= MAX_FORM_DEPTH || self.forms_followed >= MAX_FORMS_FOLLOWED {
            return;
        }
        self.forms_followed += 1;
        let Some(content) = self.form_content(doc, number, form) else { return };
        let matrix = form
            .dict
            .get("Matrix")
            .and_then(|m| doc.resolve_array(m).ok().flatten())
            .and_then(|m| <[f64; 6]>::try_from(m.iter().filter_map(Object::as_number).collect::<Vec<_>>()).ok())
            .filter(|m| m.iter().all(|n| n.is_finite()))
            .unwrap_or(IDENTITY);
        let own = form.dict.get("Resources").and_then(|r| doc.resolve_dict(r).ok().flatten());
        let inner = State { ctm: multiply(&matrix, &state.ctm), ..state.clone() };
        self.read(&content, own.as_ref().or(resources), inner, depth + 1);
    }

    /// A form's decoded content, decoded once per document within [`MAX_FORM_BYTES`].
    fn form_content(&mut self, doc: &Document<'_>, number: Option<u32>, form: &Stream) -> Option<Rc<Vec<u8>>> {
        if let Some(content) = number.and_then(|n| self.forms.get(&n)) {
            return Some(content.clone());
        }
        let content = Rc::new(doc.stream_decoded(form).ok()?);
        if self.form_bytes + content.len() > MAX_FORM_BYTES {
            return None;
        }
        self.form_bytes += content.len();
        if let Some(number) = number {
            self.forms.insert(number, content.clone());
        }
        Some(content)
    }

    /// The codes of the font `/name` of `resources` (one byte, Latin-1, when it cannot be read).
    fn font(&mut self, resources: Option<&Dict>, name: &[u8]) -> Rc<FontCodes> {
        let Some(doc) = self.doc else { return Rc::new(FontCodes::default()) };
        let Some(named) = resources.and_then(|r| resource(doc, r, "Font", name)) else {
            return Rc::new(FontCodes::default());
        };
        let number = named.as_ref().map(|r| r.num);
        if let Some(known) = number.and_then(|n| self.fonts.get(&n)) {
            return known.clone();
        }
        let codes = Rc::new(match doc.resolve_dict(&named) {
            Ok(Some(font)) => FontCodes::of(doc, &font),
            _ => FontCodes::default(),
        });
        if let Some(number) = number {
            self.fonts.insert(number, codes.clone());
        }
        codes
    }
}

/// What a `TJ` array shows: its strings' text, with a space where a large gap separates words,
/// their glyph count and the sum of its position adjustments (in text space units).
fn shown_by_array(items: &[Token], state: &State) -> (String, usize, f64) {
    let (mut text, mut glyphs, mut adjust) = (String::new(), 0, 0.0);
    for item in items {
        match item {
            Token::Str(bytes) => {
                let (piece, count) = state.font.decode(bytes);
                text.push_str(&piece);
                glyphs += count;
            }
            Token::Number(n) if n.is_finite() => {
                // A large negative adjustment is a word space in practice.
                if *n < -200.0 {
                    text.push(' ');
                }
                adjust -= n / 1000.0;
            }
            _ => {}
        }
    }
    (text, glyphs, adjust)
}

/// At most `max` bytes of `text`, cut at a character boundary.
fn within_bytes(mut text: String, max: usize) -> String {
    if text.len() > max {
        let cut = (0..=max).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        text.truncate(cut);
    }
    text
}

/// The entry `name` of a resource category (`/Font`, `/XObject`) of `resources`, unresolved.
fn resource(doc: &Document<'_>, resources: &Dict, category: &str, name: &[u8]) -> Option<Object> {
    let entries = doc.resolve_dict(resources.get(category)?).ok().flatten()?;
    entries.get(&String::from_utf8_lossy(name)).cloned()
}

/// What a content stream paints besides text.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Painting {
    /// Areas filled (`f`, `b`, `B` and their variants, shadings, inline images) while no
    /// graphics state (`gs`) was in force: they paint as they are, opaque.
    pub plain_fills: bool,
    /// Areas filled under a graphics state set with `gs` (its blend mode or alpha decides).
    pub fills_under_state: bool,
    /// XObjects placed (`Do`).
    pub places: bool,
}

/// Most nested `q` a painting check follows (deeper saves count as the outermost state).
const MAX_SAVES: usize = 64;

/// What `content` paints besides text; every fill is attributed to whether a `gs` was in force
/// (saved with `q`, restored with `Q`). Past the operation budget it reports everything.
pub(crate) fn painting_of(content: &[u8]) -> Painting {
    let mut lexer = Lexer::new(content);
    let mut painting = Painting::default();
    let (mut under_state, mut saved) = (false, Vec::new());
    let mut operations = 0usize;
    while let Some(token) = lexer.next(0) {
        operations += 1;
        if operations > MAX_OPERATIONS {
            return Painting { plain_fills: true, fills_under_state: true, places: true };
        }
        let Token::Operator(op) = token else { continue };
        match op.as_str() {
            "q" if saved.len() < MAX_SAVES => saved.push(under_state),
            "Q" => under_state = saved.pop().unwrap_or(false),
            "gs" => under_state = true,
            "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" | "sh" | "BI" if under_state => {
                painting.fills_under_state = true
            }
            "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" | "sh" | "BI" => painting.plain_fills = true,
            "Do" => painting.places = true,
            _ => {}
        }
    }
    painting
}

/// The unit square under `ctm`, as a box.
fn unit_square_box(ctm: &Matrix) -> [f64; 4] {
    let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
        .map(|(x, y)| (x * ctm[0] + y * ctm[2] + ctm[4], x * ctm[1] + y * ctm[3] + ctm[5]));
    let xs = corners.map(|c| c.0);
    let ys = corners.map(|c| c.1);
    let min = |v: [f64; 4]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = |v: [f64; 4]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    [min(xs), min(ys), max(xs), max(ys)]
}

fn page_content(doc: &Document<'_>, page: &Page) -> Result<Vec<u8>> {
    let mut content = Vec::new();
    let contents = match page.dict.get("Contents") {
        Some(c) => doc.resolve(c)?,
        None => return Ok(content),
    };
    let parts: Vec<Object> = match contents {
        Object::Array(items) => items,
        other => vec![other],
    };
    for part in parts.iter().take(1000) {
        if let Object::Stream(stream) = doc.resolve(part)? {
            content.extend(doc.stream_decoded(&stream)?);
            content.push(b'\n');
        }
        if content.len() > 64 << 20 {
            return Err(Error::Unsupported("page content larger than 64 MB".into()));
        }
    }
    Ok(content)
}

/// The text runs of each page.
pub fn pages_text(bytes: &[u8]) -> Result<Vec<(Page, Vec<TextRun>)>> {
    pages_text_of(&Document::open(bytes)?)
}

/// The text runs of one page of an open document (within one page's allowance), and where
/// it paints XObjects.
pub(crate) fn page_drawing(doc: &Document<'_>, page: &Page) -> Result<(Vec<TextRun>, Vec<Placement>)> {
    let mut reader = ContentReader::new(Some(doc));
    reader.read_page(doc, page)?;
    Ok((reader.runs, reader.placements))
}

/// The text runs of each page of an open document.
fn pages_text_of(doc: &Document<'_>) -> Result<Vec<(Page, Vec<TextRun>)>> {
    let pages = doc.pages()?;
    let mut out = Vec::with_capacity(pages.len());
    let mut budget = TextBudget::for_document();
    let mut reader = ContentReader::new(Some(doc));
    for page in pages {
        let runs = if budget.runs == 0 || budget.chars == 0 {
            Vec::new()
        } else {
            reader.start_page(&budget);
            reader.read_page(doc, &page)?;
            std::mem::take(&mut reader.runs)
        };
        budget.spend(&runs);
        out.push((page, runs));
    }
    Ok(out)
}

/// Runs grouped into lines (top to bottom), each line's runs left to right.
fn lines(runs: &[TextRun]) -> Vec<Vec<&TextRun>> {
    let mut sorted: Vec<&TextRun> = runs.iter().filter(|r| !r.text.trim().is_empty()).collect();
    sorted.sort_by(|a, b| b.y.total_cmp(&a.y).then(a.x.total_cmp(&b.x)));
    let mut lines: Vec<Vec<&TextRun>> = Vec::new();
    for run in sorted {
        match lines.last_mut() {
            Some(line) if (line[0].y - run.y).abs() <= line[0].size.max(1.0) * 0.3 => line.push(run),
            _ => lines.push(vec![run]),
        }
    }
    for line in &mut lines {
        line.sort_by(|a, b| a.x.total_cmp(&b.x));
    }
    lines
}

fn line_text(line: &[&TextRun]) -> String {
    line.iter().map(|r| r.text.trim()).collect::<Vec<_>>().join(" ")
}

/// The document's text in reading order (lines top to bottom, pages separated by a blank
/// line), at most `max_chars` characters.
pub fn document_text(bytes: &[u8], max_chars: usize) -> Result<String> {
    let mut text = String::new();
    for (_, runs) in pages_text(bytes)? {
        for line in lines(&runs) {
            text.push_str(&line_text(&line));
            text.push('\n');
            if text.len() > max_chars {
                return Ok(text.chars().take(max_chars).collect());
            }
        }
        text.push('\n');
    }
    Ok(text)
}

/// The first place `needle` appears (case-insensitive, within one line).
pub fn find_text(bytes: &[u8], needle: &str) -> Result<Option<TextHit>> {
    let needle = needle.trim().to_lowercase();
    if needle.is_empty() {
        return Ok(None);
    }
    for (index, (page, runs)) in pages_text(bytes)?.into_iter().enumerate() {
        for line in lines(&runs) {
            if !line_text(&line).to_lowercase().contains(&needle) {
                continue;
            }
            // The run where the match starts (or the line's first run).
            let start = line.iter().find(|r| r.text.to_lowercase().contains(&needle)).unwrap_or(&line[0]);
            let offset = start.text.to_lowercase().find(&needle).unwrap_or(0) as f64;
            let per_char = if start.text.is_empty() { 0.0 } else { start.width / start.text.chars().count() as f64 };
            let [x0, _, _, y1] = page.crop_box;
            let left = (start.x + offset * per_char - x0.min(page.crop_box[2])).max(0.0);
            let top = (y1.max(page.crop_box[1]) - (start.y + start.size)).max(0.0);
            let width = needle.chars().count() as f64 * per_char;
            return Ok(Some(TextHit { page: index as u32 + 1, left, top, width, height: start.size * 1.2 }));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    #[test]
    fn fills_are_attributed_to_the_graphics_state_in_force() {
        let plain = Painting { plain_fills: true, ..Painting::default() };
        let under_state = Painting { fills_under_state: true, ..Painting::default() };
        assert_eq!(painting_of(b"1 1 0 rg 0 0 10 10 re f"), plain);
        assert_eq!(painting_of(b"/GS0 gs 1 1 0 rg 0 0 10 10 re f"), under_state);
        assert_eq!(painting_of(b"q /GS0 gs Q 0 0 10 10 re f"), plain, "the state ended with Q");
        assert_eq!(painting_of(b"0 0 m 10 0 l S"), Painting::default(), "strokes fill nothing");
        assert!(painting_of(b"/Im0 Do").places);
    }

    use super::*;

    #[test]
    fn runs_follow_the_text_and_graphics_matrices() {
        let content =
            b"q 1 0 0 1 10 20 cm BT /F1 12 Tf 72 700 Td (Hello \\(world\\)) Tj 0 -14 Td [(Sig)-300(nature:)] TJ ET Q";
        let runs = runs_of(content);
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].text, "Hello (world)");
        assert_eq!((runs[0].x, runs[0].y), (82.0, 720.0));
        assert_eq!(runs[1].text, "Sig nature:");
        assert_eq!(runs[1].y, 706.0);
    }

    #[test]
    fn runs_and_characters_are_capped_per_page() {
        let content = "BT (ab) Tj ".repeat(MAX_RUNS_PER_PAGE + 10);
        let runs = runs_of(content.as_bytes());
        assert_eq!(runs.len(), MAX_RUNS_PER_PAGE);
        let long = format!("BT ({}) Tj (more) Tj", "x".repeat(MAX_CHARS_PER_PAGE + 10));
        let runs = runs_of(long.as_bytes());
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].text.len(), MAX_CHARS_PER_PAGE);
        let mut budget = TextBudget { runs: 3, chars: 100 };
        let mut reader = ContentReader::new(None);
        reader.start_page(&budget);
        reader.read(b"BT (a) Tj (b) Tj (c) Tj (d) Tj", None, State::initial(), 0);
        let runs = reader.runs;
        budget.spend(&runs);
        assert_eq!((runs.len(), budget.runs), (3, 0));
    }

    #[test]
    fn hostile_content_ends() {
        let deep = "[".repeat(10_000);
        assert!(runs_of(deep.as_bytes()).is_empty());
        assert!(runs_of(b"(unterminated").is_empty());
        assert!(runs_of(&[0xff; 1000]).is_empty());
    }
}
