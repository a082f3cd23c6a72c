//! Visible signature appearances: an image and/or a typed name on top, a text block below
//! (signed by, date, reason, location), drawn upright whatever the page rotation.

use signet_locale::Zone;

use crate::error::Result;
use crate::fonts::{EmbeddedFonts, FontCollector, FontId, ShapedLine};
use crate::images::{EmbeddedImage, embed_image};
use crate::layout::{BoxSpec, PageSelection};
use crate::object::{Dict, Object, Stream, StreamData, format_real, push_real};
use crate::writer::ObjSink;

/// Where the widgets go.
#[derive(Debug, Clone, PartialEq)]
pub enum WidgetPlacement {
    /// The same box on every selected page.
    Pages { pages: PageSelection, rect: BoxSpec },
    /// Explicit (1-based page, box) pairs.
    PageBoxes(Vec<(u32, BoxSpec)>),
}

impl WidgetPlacement {
    /// (0-based page index, box) for every widget.
    pub fn resolve(&self, page_count: usize) -> Result<Vec<(usize, BoxSpec)>> {
        match self {
            WidgetPlacement::Pages { pages, rect } => {
                Ok(pages.indices(page_count)?.into_iter().map(|i| (i, *rect)).collect())
            }
            WidgetPlacement::PageBoxes(boxes) => boxes
                .iter()
                .map(|(p, b)| {
                    if *p == 0 || *p as usize > page_count {
                        Err(crate::Error::NoSuchPage(*p, page_count))
                    } else {
                        Ok((*p as usize - 1, *b))
                    }
                })
                .collect(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NameStyle {
    /// A handwriting-like script font (Latin); Devanagari falls back to Noto Sans Devanagari.
    #[default]
    Handwriting,
    Plain,
}

/// What a visible signature shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Appearance {
    pub placement: WidgetPlacement,
    /// PNG (transparency kept) or JPEG bytes.
    pub image: Option<Vec<u8>>,
    /// A typed name drawn large.
    pub typed_name: Option<String>,
    pub name_style: NameStyle,
    /// Add the text block: signed by, date, reason, location.
    pub show_details: bool,
    /// Further boxes the signature fills in (initials, a date, a typed text, a checkbox): each
    /// fills the empty read-only form field [`FieldMark::field`] names (prepared before the
    /// first signature with [`crate::add_mark_fields`]), in the signature's own revision; a mark
    /// without one (a document prepared before such fields existed) becomes another widget of
    /// the signature field, as it used to.
    pub marks: Vec<FieldMark>,
    /// The zone the text block's date is written in (the organisation's), named after it.
    pub zone: Zone,
}

impl Appearance {
    pub fn new(placement: WidgetPlacement) -> Self {
        Appearance {
            placement,
            image: None,
            typed_name: None,
            name_style: NameStyle::Handwriting,
            show_details: true,
            marks: Vec::new(),
            zone: Zone::default(),
        }
    }
}

/// Most field marks one signature carries.
pub const MAX_MARKS: usize = 200;
/// Longest text of one mark, in characters.
pub const MAX_MARK_CHARS: usize = 500;

/// A box filled in with the signature, on a 1-based page.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldMark {
    pub page: u32,
    pub rect: BoxSpec,
    pub content: MarkContent,
    /// The prepared form field the mark fills ([`crate::MarkField::name`]); when the document
    /// has no such empty field, the mark is drawn as a widget of the signature field instead.
    pub field: Option<String>,
}

/// What a field mark shows.
#[derive(Debug, Clone, PartialEq)]
pub enum MarkContent {
    /// One line of text, shrunk to fit the box; `style` picks the font (initials are written
    /// in the handwriting style).
    Text { text: String, style: NameStyle },
    /// A checkbox, ticked or not.
    Check(bool),
}

/// Shared resources (fonts, image) written once; one form XObject per widget size.
pub struct Renderer {
    image: Option<EmbeddedImage>,
    name: Option<ShapedLine>,
    details: Vec<ShapedLine>,
    /// The appearance's marks, their text shaped.
    marks: Vec<ShapedMark>,
    fonts: EmbeddedFonts,
}

const NAME_COLOR: &str = "0.05 0.15 0.45 rg";
const TEXT_COLOR: &str = "0 0 0 rg";

impl Renderer {
    pub fn new(app: &Appearance, details: &[String], sink: &mut dyn ObjSink) -> Result<Self> {
        let image = match &app.image {
            Some(bytes) => Some(embed_image(bytes, sink)?),
            None => None,
        };
        let mut collector = FontCollector::default();
        let name_font = match app.name_style {
            NameStyle::Handwriting => FontId::Handwriting,
            NameStyle::Plain => FontId::Plain,
        };
        let name = match app.typed_name.as_deref().map(str::trim) {
            Some(n) if !n.is_empty() => Some(collector.shape(n, name_font)?),
            _ => None,
        };
        let details = details.iter().map(|l| collector.shape(l, FontId::Plain)).collect::<Result<Vec<_>>>()?;
        if !details.is_empty() {
            // Always carry the digits: the date changes every second, the glyph set should
            // not, so the font subset cache keeps hitting in batch signing.
            collector.shape("0123456789-: ", FontId::Plain)?;
        }
        if app.marks.len() > MAX_MARKS {
            return Err(crate::Error::InvalidOptions(format!("more than {MAX_MARKS} field marks")));
        }
        let marks = app.marks.iter().map(|m| shape_mark(&mut collector, &m.content)).collect::<Result<Vec<_>>>()?;
        let fonts = collector.write(sink)?;
        Ok(Renderer { image, name, details, marks, fonts })
    }

    /// An empty appearance for invisible signatures.
    pub fn empty_xobject() -> Object {
        let mut d = Dict::new();
        d.set("Type", Object::name("XObject"));
        d.set("Subtype", Object::name("Form"));
        d.set("BBox", Object::Array(vec![Object::Int(0); 4]));
        Object::Stream(Stream { dict: d, data: StreamData::Owned(Vec::new()) })
    }

    /// An empty appearance of a given size (unsigned fields).
    pub fn blank_xobject(width: f64, height: f64) -> Object {
        let mut d = Dict::new();
        d.set("Type", Object::name("XObject"));
        d.set("Subtype", Object::name("Form"));
        d.set("BBox", Object::Array(vec![Object::Int(0), Object::Int(0), Object::Real(width), Object::Real(height)]));
        Object::Stream(Stream { dict: d, data: StreamData::Owned(Vec::new()) })
    }

    /// The form XObject for a `width` x `height` box (upright), with the rotation `matrix`.
    pub fn xobject(&self, width: f64, height: f64, matrix: [f64; 6]) -> Object {
        self.form_xobject(&self.content(width, height), self.image.as_ref(), width, height, matrix)
    }

    /// The form XObject of the appearance's mark at `index`, for a `width` x `height` box with
    /// the rotation `matrix` (empty when there is no such mark).
    pub fn mark_xobject(&self, index: usize, width: f64, height: f64, matrix: [f64; 6]) -> Object {
        let mut s = String::new();
        match self.marks.get(index) {
            Some(ShapedMark::Text(line)) => self.draw_mark_text(&mut s, line, width, height),
            Some(ShapedMark::Check(ticked)) => draw_checkbox(&mut s, *ticked, width, height),
            None => {}
        }
        self.form_xobject(&s, None, width, height, matrix)
    }

    /// A form XObject drawing `content` with the renderer's fonts (and `image` as `/Img`).
    fn form_xobject(
        &self,
        content: &str,
        image: Option<&EmbeddedImage>,
        width: f64,
        height: f64,
        matrix: [f64; 6],
    ) -> Object {
        let mut d = Dict::new();
        d.set("Type", Object::name("XObject"));
        d.set("Subtype", Object::name("Form"));
        d.set("BBox", Object::Array(vec![Object::Int(0), Object::Int(0), Object::Real(width), Object::Real(height)]));
        if matrix != [1.0, 0.0, 0.0, 1.0, 0.0, 0.0] {
            d.set("Matrix", Object::Array(matrix.iter().map(|v| Object::Real(*v)).collect()));
        }
        let mut resources = Dict::new();
        resources.set("Font", Object::Dict(self.fonts.resources()));
        if let Some(img) = image {
            let mut x = Dict::new();
            x.set("Img", Object::Ref(img.xobject));
            resources.set("XObject", Object::Dict(x));
        }
        d.set("Resources", Object::Dict(resources));
        d.set("Filter", Object::name("FlateDecode"));
        Object::Stream(Stream { dict: d, data: StreamData::Owned(compressed_content(content)) })
    }

    /// One line, left-aligned and centred vertically, as large as the box allows (at most 14 pt
    /// for plain text, so that a tall box does not get shouting letters).
    fn draw_mark_text(&self, s: &mut String, line: &ShapedLine, width: f64, height: f64) {
        let pad = (height * 0.1).clamp(1.0, 4.0);
        let (w, h) = (width - 2.0 * pad, height - 2.0 * pad);
        if w <= 0.0 || h <= 0.0 {
            return;
        }
        let per_pt = line.width_per_point().max(0.01);
        let size = (h * 0.8).min(w / per_pt).min(14.0_f64.max(h * 0.5));
        let y = pad + (h - size) / 2.0 + size * 0.22;
        s.push_str(TEXT_COLOR);
        s.push('\n');
        self.draw_line(s, line, pad, y, size);
    }

    fn content(&self, width: f64, height: f64) -> String {
        let pad = (width.min(height) * 0.04).max(1.0);
        let (x0, y0, w, h) = (pad, pad, width - 2.0 * pad, height - 2.0 * pad);
        let mut s = String::new();
        if w <= 0.0 || h <= 0.0 {
            return s;
        }
        let has_top = self.image.is_some() || self.name.is_some();
        let details_h = match (has_top, self.details.is_empty()) {
            (_, true) => 0.0,
            (false, false) => h,
            (true, false) => h * 0.45,
        };
        let top = [x0, y0 + details_h, w, h - details_h];
        match (&self.image, &self.name) {
            (Some(img), Some(name)) => {
                let half = top[2] / 2.0;
                draw_image(&mut s, img, [top[0], top[1], half, top[3]]);
                self.draw_name(&mut s, name, [top[0] + half, top[1], half, top[3]]);
            }
            (Some(img), None) => draw_image(&mut s, img, top),
            (None, Some(name)) => self.draw_name(&mut s, name, top),
            (None, None) => {}
        }
        if details_h > 0.0 {
            self.draw_details(&mut s, [x0, y0, w, details_h]);
        }
        s
    }

    fn draw_name(&self, s: &mut String, name: &ShapedLine, area: [f64; 4]) {
        let per_pt = name.width_per_point().max(0.01);
        let size = (area[3] * 0.75).min(area[2] / per_pt);
        let x = area[0] + (area[2] - per_pt * size) / 2.0;
        let y = area[1] + (area[3] - size) / 2.0 + size * 0.25;
        s.push_str(NAME_COLOR);
        s.push('\n');
        self.draw_line(s, name, x, y, size);
    }

    fn draw_details(&self, s: &mut String, area: [f64; 4]) {
        let n = self.details.len() as f64;
        let widest = self.details.iter().map(ShapedLine::width_per_point).fold(0.01, f64::max);
        let line_h = area[3] / n;
        let size = (line_h / 1.3).min(area[2] / widest);
        s.push_str(TEXT_COLOR);
        s.push('\n');
        for (i, line) in self.details.iter().enumerate() {
            let y = area[1] + area[3] - line_h * (i as f64 + 1.0) + (line_h - size) / 2.0 + size * 0.22;
            self.draw_line(s, line, area[0], y, size);
        }
    }

    fn draw_line(&self, s: &mut String, line: &ShapedLine, x: f64, y: f64, size: f64) {
        draw_shaped(&self.fonts, s, line, x, y, size);
    }
}

/// Every glyph is placed with its own text matrix so shaping offsets (marks, reordered
/// Devanagari vowel signs) land exactly where the shaper put them.
pub(crate) fn draw_shaped(fonts: &EmbeddedFonts, s: &mut String, line: &ShapedLine, x: f64, y: f64, size: f64) {
    s.push_str("BT\n");
    let mut pen = x;
    for run in &line.runs {
        let k = size / run.units_per_em;
        s.push('/');
        s.push_str(run.font.resource_name());
        s.push(' ');
        push_real(s, size);
        s.push_str(" Tf\n");
        for g in &run.glyphs {
            s.push_str("1 0 0 1 ");
            push_real(s, pen + g.x_offset as f64 * k);
            s.push(' ');
            push_real(s, y + g.y_offset as f64 * k);
            s.push_str(" Tm <");
            push_cid(s, fonts.cid(run.font, g.gid));
            s.push_str("> Tj\n");
            pen += g.x_advance as f64 * k;
        }
    }
    s.push_str("ET\n");
}

/// A CID as four upper-case hex digits.
fn push_cid(s: &mut String, cid: u16) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for shift in [12, 8, 4, 0] {
        s.push(HEX[usize::from((cid >> shift) & 0xF)] as char);
    }
}

/// `content` compressed. The documents of a batch signed within the same second get the same
/// appearance (the date shown changes once a second), so the last few results are kept per
/// thread and compression, the dearest part of drawing a signature, runs once per batch.
fn compressed_content(content: &str) -> Vec<u8> {
    type Recent = std::collections::VecDeque<(String, Vec<u8>)>;
    const KEPT: usize = 4;
    thread_local! {
        static RECENT: std::cell::RefCell<Recent> = const { std::cell::RefCell::new(Recent::new()) };
    }
    if let Some(hit) = RECENT.with_borrow(|recent| recent.iter().find(|(c, _)| c == content).map(|(_, z)| z.clone())) {
        return hit;
    }
    let compressed = crate::filters::flate_encode(content.as_bytes());
    RECENT.with_borrow_mut(|recent| {
        if recent.len() >= KEPT {
            recent.pop_front();
        }
        recent.push_back((content.to_string(), compressed.clone()));
    });
    compressed
}

/// A mark ready to draw: its text shaped with the renderer's fonts.
enum ShapedMark {
    Text(ShapedLine),
    Check(bool),
}

fn shape_mark(collector: &mut FontCollector, content: &MarkContent) -> Result<ShapedMark> {
    let (text, style) = match content {
        MarkContent::Text { text, style } => (text, style),
        MarkContent::Check(ticked) => return Ok(ShapedMark::Check(*ticked)),
    };
    if text.chars().count() > MAX_MARK_CHARS || text.chars().any(char::is_control) {
        return Err(crate::Error::InvalidOptions(format!(
            "a field mark's text must be at most {MAX_MARK_CHARS} characters without control characters"
        )));
    }
    let font = match style {
        NameStyle::Handwriting => FontId::Handwriting,
        NameStyle::Plain => FontId::Plain,
    };
    Ok(ShapedMark::Text(collector.shape(text.trim(), font)?))
}

/// A square as large as the box allows, with a tick drawn as two strokes when `ticked`.
fn draw_checkbox(s: &mut String, ticked: bool, width: f64, height: f64) {
    let side = width.min(height) - 2.0;
    if side <= 0.0 {
        return;
    }
    let (x, y) = ((width - side) / 2.0, (height - side) / 2.0);
    let line = (side / 14.0).max(0.5);
    s.push_str(&format!(
        "q 0 0 0 RG {} w {} {} {} {} re S\n",
        format_real(line),
        format_real(x),
        format_real(y),
        format_real(side),
        format_real(side)
    ));
    if ticked {
        let at = |fx: f64, fy: f64| format!("{} {}", format_real(x + side * fx), format_real(y + side * fy));
        s.push_str(&format!(
            "{} w 1 J 1 j {} m {} l {} l S\n",
            format_real(line * 2.0),
            at(0.2, 0.52),
            at(0.42, 0.25),
            at(0.8, 0.78)
        ));
    }
    s.push_str("Q\n");
}

pub(crate) fn draw_image(s: &mut String, img: &EmbeddedImage, area: [f64; 4]) {
    let (iw, ih) = (img.width as f64, img.height as f64);
    let scale = (area[2] / iw).min(area[3] / ih);
    let (w, h) = (iw * scale, ih * scale);
    let x = area[0] + (area[2] - w) / 2.0;
    let y = area[1] + (area[3] - h) / 2.0;
    s.push_str(&format!(
        "q {} 0 0 {} {} {} cm /Img Do Q\n",
        format_real(w),
        format_real(h),
        format_real(x),
        format_real(y)
    ));
}
