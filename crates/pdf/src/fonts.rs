//! Text for appearances: split into script runs, shape with rustybuzz, embed a subset of an open
//! font as a Type0 font (Identity-H) with a ToUnicode CMap so the text stays extractable.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use rustybuzz::{Face, UnicodeBuffer};
use subsetter::GlyphRemapper;

use crate::error::{Error, Result};
use crate::object::{Dict, ObjRef, Object, Stream, StreamData};
use crate::writer::ObjSink;

static NOTO_SANS: &[u8] = include_bytes!("../fonts/NotoSans-Regular.ttf");
static NOTO_DEVANAGARI: &[u8] = include_bytes!("../fonts/NotoSansDevanagari-Regular.ttf");
static DANCING_SCRIPT: &[u8] = include_bytes!("../fonts/DancingScript-Regular.otf");

/// The fonts shipped with the crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FontId {
    Plain,
    Devanagari,
    Handwriting,
}

impl FontId {
    fn data(self) -> &'static [u8] {
        match self {
            FontId::Plain => NOTO_SANS,
            FontId::Devanagari => NOTO_DEVANAGARI,
            FontId::Handwriting => DANCING_SCRIPT,
        }
    }

    fn postscript_name(self) -> &'static str {
        match self {
            FontId::Plain => "NotoSans-Regular",
            FontId::Devanagari => "NotoSansDevanagari-Regular",
            FontId::Handwriting => "DancingScript-Regular",
        }
    }

    /// Resource name inside appearance streams.
    pub fn resource_name(self) -> &'static str {
        match self {
            FontId::Plain => "FPlain",
            FontId::Devanagari => "FDeva",
            FontId::Handwriting => "FHand",
        }
    }
}

/// One shaped glyph, positions in font units.
#[derive(Debug, Clone, Copy)]
pub struct Glyph {
    /// Glyph id in the original font (remapped to a CID when the font is written).
    pub gid: u16,
    pub x_advance: i32,
    pub x_offset: i32,
    pub y_offset: i32,
}

#[derive(Debug, Clone)]
pub struct Run {
    pub font: FontId,
    pub glyphs: Vec<Glyph>,
    pub units_per_em: f64,
}

/// A shaped line of text: runs in visual order.
#[derive(Debug, Clone, Default)]
pub struct ShapedLine {
    pub runs: Vec<Run>,
}

impl ShapedLine {
    /// Width in text-space units for a font size of 1.
    pub fn width_per_point(&self) -> f64 {
        self.runs.iter().map(|r| r.glyphs.iter().map(|g| g.x_advance as f64).sum::<f64>() / r.units_per_em).sum()
    }
}

/// Parsed shaping faces of the bundled fonts, built once: parsing the layout tables costs more
/// than shaping a name.
fn shaping_face(font: FontId) -> Result<&'static Face<'static>> {
    static FACES: OnceLock<[Option<Face<'static>>; 3]> = OnceLock::new();
    let faces = FACES.get_or_init(|| {
        [FontId::Plain, FontId::Devanagari, FontId::Handwriting].map(|f| Face::from_slice(f.data(), 0))
    });
    let index = match font {
        FontId::Plain => 0,
        FontId::Devanagari => 1,
        FontId::Handwriting => 2,
    };
    faces[index].as_ref().ok_or_else(|| Error::Font(format!("cannot parse {}", font.postscript_name())))
}

fn is_devanagari(c: char) -> bool {
    matches!(c as u32, 0x0900..=0x097F | 0xA8E0..=0xA8FF | 0x1CD0..=0x1CFF | 0x200C | 0x200D)
}

/// Split by script: Devanagari goes to the Devanagari font, everything else to `latin`.
/// Spaces and punctuation stay with the run they are in, so words are not split.
fn script_runs(text: &str, latin: FontId) -> Vec<(FontId, String)> {
    let mut runs: Vec<(FontId, String)> = Vec::new();
    for c in text.chars() {
        let font = if is_devanagari(c) {
            FontId::Devanagari
        } else if c.is_alphanumeric() || runs.is_empty() {
            latin
        } else {
            runs.last().map_or(latin, |(f, _)| *f)
        };
        match runs.last_mut() {
            Some((f, s)) if *f == font => s.push(c),
            _ => runs.push((font, c.to_string())),
        }
    }
    runs
}

/// Glyphs of one shaped run, each with the text of its cluster.
type ShapedGlyphs = Arc<Vec<(Glyph, String)>>;

/// `text` shaped with `font`. Shaping builds a plan from the font's layout tables each time,
/// and a batch signs the same name, labels and digits on every document: results are kept per
/// thread (bounded; emptied when full).
fn shaped_run(font: FontId, face: &Face<'static>, text: &str) -> ShapedGlyphs {
    const MAX_ENTRIES: usize = 256;
    const MAX_CACHED_LEN: usize = 512;
    thread_local! {
        static CACHE: std::cell::RefCell<HashMap<(FontId, String), ShapedGlyphs>> =
            std::cell::RefCell::new(HashMap::new());
    }
    if text.len() > MAX_CACHED_LEN {
        return Arc::new(shape_with(face, text));
    }
    let key = (font, text.to_string());
    if let Some(hit) = CACHE.with_borrow(|cache| cache.get(&key).cloned()) {
        return hit;
    }
    let shaped = Arc::new(shape_with(face, text));
    CACHE.with_borrow_mut(|cache| {
        if cache.len() >= MAX_ENTRIES {
            cache.clear();
        }
        cache.insert(key, shaped.clone());
    });
    shaped
}

fn shape_with(face: &Face<'static>, text: &str) -> Vec<(Glyph, String)> {
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.guess_segment_properties();
    let shaped = rustybuzz::shape(face, &[], buffer);
    let infos = shaped.glyph_infos();
    let positions = shaped.glyph_positions();
    let mut cluster_starts: Vec<usize> = infos.iter().map(|i| i.cluster as usize).collect();
    cluster_starts.sort_unstable();
    cluster_starts.dedup();
    infos
        .iter()
        .zip(positions)
        .map(|(info, pos)| {
            let gid = u16::try_from(info.glyph_id).unwrap_or(0);
            let start = info.cluster as usize;
            let end = cluster_starts.iter().copied().find(|s| *s > start).unwrap_or(text.len());
            let cluster_text = text.get(start..end).unwrap_or("").to_string();
            (Glyph { gid, x_advance: pos.x_advance, x_offset: pos.x_offset, y_offset: pos.y_offset }, cluster_text)
        })
        .collect()
}

/// Collects the glyphs used per font while shaping, then writes the font objects.
#[derive(Default)]
pub struct FontCollector {
    /// Per font: original gid -> text it stands for (first cluster wins).
    used: BTreeMap<FontId, BTreeMap<u16, String>>,
}

impl FontCollector {
    pub fn shape(&mut self, text: &str, latin: FontId) -> Result<ShapedLine> {
        let mut line = ShapedLine::default();
        for (font, chunk) in script_runs(text, latin) {
            line.runs.push(self.shape_run(font, &chunk)?);
        }
        Ok(line)
    }

    fn shape_run(&mut self, font: FontId, text: &str) -> Result<Run> {
        let face = shaping_face(font)?;
        let shaped = shaped_run(font, face, text);
        let used = self.used.entry(font).or_default();
        for (glyph, cluster_text) in shaped.iter() {
            let entry = used.entry(glyph.gid).or_default();
            if entry.is_empty() {
                entry.clone_from(cluster_text);
            }
        }
        let glyphs = shaped.iter().map(|(glyph, _)| *glyph).collect();
        Ok(Run { font, glyphs, units_per_em: face.units_per_em() as f64 })
    }

    /// Subset and write every used font; returns the fonts by id and the gid -> CID maps.
    pub fn write(self, sink: &mut dyn ObjSink) -> Result<EmbeddedFonts> {
        let mut out = EmbeddedFonts::default();
        for (font, used) in self.used {
            let (r, remap) = write_font(font, &used, sink)?;
            out.fonts.push((font, r, remap));
        }
        Ok(out)
    }
}

#[derive(Default)]
pub struct EmbeddedFonts {
    pub fonts: Vec<(FontId, ObjRef, GlyphRemapper)>,
}

impl EmbeddedFonts {
    pub fn cid(&self, font: FontId, gid: u16) -> u16 {
        self.fonts.iter().find(|(f, _, _)| *f == font).and_then(|(_, _, m)| m.get(gid)).unwrap_or(0)
    }

    pub fn resources(&self) -> Dict {
        let mut d = Dict::new();
        for (font, r, _) in &self.fonts {
            d.set(font.resource_name(), Object::Ref(*r));
        }
        d
    }
}

// Long on purpose: the objects of one embedded subset font (FontFile2, descriptor, widths,
// ToUnicode, the CID font and the Type0 font) are written in the order they reference each other.
fn write_font(font: FontId, used: &BTreeMap<u16, String>, sink: &mut dyn ObjSink) -> Result<(ObjRef, GlyphRemapper)> {
    let data = font.data();
    let face = ttf_parser::Face::parse(data, 0).map_err(|e| Error::Font(format!("{}: {e}", font.postscript_name())))?;
    let mut remapper = GlyphRemapper::new();
    for gid in used.keys() {
        remapper.remap(*gid);
    }
    let streams = compressed_streams(font, used, &remapper)?;
    let is_cff = data.starts_with(b"OTTO");
    let scale = 1000.0 / face.units_per_em() as f64;
    let base_name = format!("{}+{}", subset_tag(used), font.postscript_name());

    let mut file_dict = Dict::new();
    file_dict.set("Filter", Object::name("FlateDecode"));
    if is_cff {
        file_dict.set("Subtype", Object::name("OpenType"));
    } else {
        file_dict.set("Length1", Object::Int(streams.subset_len as i64));
    }
    let file_ref = sink
        .add(Object::Stream(Stream { dict: file_dict, data: StreamData::Owned(streams.font_file.as_ref().clone()) }));

    let bbox = face.global_bounding_box();
    let mut descriptor = Dict::new();
    descriptor.set("Type", Object::name("FontDescriptor"));
    descriptor.set("FontName", Object::Name(base_name.as_bytes().to_vec()));
    descriptor.set("Flags", Object::Int(4)); // symbolic: glyphs addressed by CID, not encoding
    descriptor.set(
        "FontBBox",
        Object::Array(
            [bbox.x_min, bbox.y_min, bbox.x_max, bbox.y_max]
                .iter()
                .map(|v| Object::Int((*v as f64 * scale).round() as i64))
                .collect(),
        ),
    );
    descriptor.set("ItalicAngle", Object::Int(0));
    descriptor.set("Ascent", Object::Int((face.ascender() as f64 * scale).round() as i64));
    descriptor.set("Descent", Object::Int((face.descender() as f64 * scale).round() as i64));
    let cap = face.capital_height().unwrap_or(face.ascender());
    descriptor.set("CapHeight", Object::Int((cap as f64 * scale).round() as i64));
    descriptor.set("StemV", Object::Int(80));
    descriptor.set(if is_cff { "FontFile3" } else { "FontFile2" }, Object::Ref(file_ref));
    let descriptor_ref = sink.add(Object::Dict(descriptor));

    // Widths by CID (= new glyph id), from the original advances.
    let mut widths: Vec<(u16, i64)> = used
        .keys()
        .filter_map(|old| {
            let new = remapper.get(*old)?;
            let adv = face.glyph_hor_advance(ttf_parser::GlyphId(*old)).unwrap_or(0);
            Some((new, (adv as f64 * scale).round() as i64))
        })
        .collect();
    widths.sort_unstable();
    let mut w_array = Vec::new();
    for (cid, width) in widths {
        w_array.push(Object::Int(cid as i64));
        w_array.push(Object::Array(vec![Object::Int(width)]));
    }

    let mut system_info = Dict::new();
    system_info.set("Registry", Object::literal(b"Adobe"));
    system_info.set("Ordering", Object::literal(b"Identity"));
    system_info.set("Supplement", Object::Int(0));
    let mut cid_font = Dict::new();
    cid_font.set("Type", Object::name("Font"));
    cid_font.set("Subtype", Object::name(if is_cff { "CIDFontType0" } else { "CIDFontType2" }));
    cid_font.set("BaseFont", Object::Name(base_name.as_bytes().to_vec()));
    cid_font.set("CIDSystemInfo", Object::Dict(system_info));
    cid_font.set("FontDescriptor", Object::Ref(descriptor_ref));
    cid_font.set("DW", Object::Int(1000));
    cid_font.set("W", Object::Array(w_array));
    if !is_cff {
        cid_font.set("CIDToGIDMap", Object::name("Identity"));
    }
    let cid_ref = sink.add(Object::Dict(cid_font));

    let mut tu = Dict::new();
    tu.set("Filter", Object::name("FlateDecode"));
    let tu_ref = sink.add(Object::Stream(Stream { dict: tu, data: StreamData::Owned(streams.to_unicode.to_vec()) }));

    let mut type0 = Dict::new();
    type0.set("Type", Object::name("Font"));
    type0.set("Subtype", Object::name("Type0"));
    type0.set("BaseFont", Object::Name(base_name.as_bytes().to_vec()));
    type0.set("Encoding", Object::name("Identity-H"));
    type0.set("DescendantFonts", Object::Array(vec![Object::Ref(cid_ref)]));
    type0.set("ToUnicode", Object::Ref(tu_ref));
    Ok((sink.add(Object::Dict(type0)), remapper))
}

/// The compressed streams of one subset font: the font file and its ToUnicode map.
#[derive(Clone)]
struct FontStreams {
    subset_len: usize,
    font_file: Arc<Vec<u8>>,
    to_unicode: Arc<Vec<u8>>,
}

type StreamsCache = Mutex<HashMap<(FontId, BTreeMap<u16, String>), FontStreams>>;

/// Subsetting and compressing a font costs about a millisecond, more than everything else in
/// `prepare`, and its ToUnicode map is compressed too; batch signing repeats the same glyph
/// sets, so results are kept (bounded) per font and glyph set with the text of each glyph.
fn compressed_streams(font: FontId, used: &BTreeMap<u16, String>, remapper: &GlyphRemapper) -> Result<FontStreams> {
    const MAX_ENTRIES: usize = 64;
    static CACHE: OnceLock<StreamsCache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (font, used.clone());
    if let Ok(map) = cache.lock()
        && let Some(hit) = map.get(&key)
    {
        return Ok(hit.clone());
    }
    let subset = subsetter::subset(font.data(), 0, remapper)
        .map_err(|e| Error::Font(format!("subsetting {}: {e}", font.postscript_name())))?;
    let streams = FontStreams {
        subset_len: subset.len(),
        font_file: Arc::new(crate::filters::flate_encode(&subset)),
        to_unicode: Arc::new(crate::filters::flate_encode(&to_unicode_cmap(used, remapper))),
    };
    if let Ok(mut map) = cache.lock() {
        if map.len() >= MAX_ENTRIES {
            map.clear();
        }
        map.insert(key, streams.clone());
    }
    Ok(streams)
}

/// Six capital letters derived from the glyph set (ISO 32000 §9.6.4 subset tag).
fn subset_tag(used: &BTreeMap<u16, String>) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for gid in used.keys() {
        h = (h ^ *gid as u64).wrapping_mul(0x100000001b3);
    }
    (0..6).map(|i| (b'A' + ((h >> (i * 5)) % 26) as u8) as char).collect()
}

fn to_unicode_cmap(used: &BTreeMap<u16, String>, remapper: &GlyphRemapper) -> Vec<u8> {
    let mut pairs: Vec<(u16, String)> = used
        .iter()
        .filter(|(_, text)| !text.is_empty())
        .filter_map(|(old, text)| Some((remapper.get(*old)?, text.clone())))
        .collect();
    pairs.sort();
    let mut s = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
         /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    for chunk in pairs.chunks(100) {
        s.push_str(&format!("{} beginbfchar\n", chunk.len()));
        for (cid, text) in chunk {
            let hex: String = text.encode_utf16().map(|u| format!("{u:04X}")).collect();
            s.push_str(&format!("<{cid:04X}> <{hex}>\n"));
        }
        s.push_str("endbfchar\n");
    }
    s.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    s.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devanagari_runs_are_split_from_latin() {
        let runs = script_runs("Ravi रवि कुमार", FontId::Plain);
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[1].0, FontId::Devanagari);
        assert_eq!(runs[1].1, "रवि कुमार");
    }

    #[test]
    fn devanagari_shaping_forms_conjuncts() {
        let mut c = FontCollector::default();
        // "क्ष" is a conjunct: three code points, shaped to fewer glyphs.
        let line = c.shape("क्ष", FontId::Plain).expect("shapes");
        assert_eq!(line.runs.len(), 1);
        assert!(line.runs[0].glyphs.len() < 3, "{:?}", line.runs[0].glyphs);
        assert!(line.width_per_point() > 0.0);
    }
}
