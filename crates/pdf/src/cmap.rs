//! How a font's string bytes become text, for reading what a page says.
//!
//! A simple font takes one byte per character; a composite (Type0) font, two: Word, Chromium,
//! LibreOffice and Signet's own appearances write Hindi and any text outside Latin-1 that way.
//! The bytes of a subset font number its glyphs (1, 2, 3 ... or glyph ids), so they mean
//! nothing without the font's `/ToUnicode` CMap, which maps codes to UTF-16 text
//! (ISO 32000-1 §9.10.3). Codes a font does not map read as U+FFFD: still text (it covers
//! something), just not legible to us.
//!
//! A CMap is read within bounds ([`MAX_MAPPINGS`] entries; ranges are kept as ranges, not
//! expanded), so a hostile font cannot make reading run long or fill the memory.

use std::collections::HashMap;

use crate::lexer::{Lexer, Token};
use crate::object::{Dict, Object};
use crate::reader::Document;

/// Most `bfchar` and `bfrange` entries read from one CMap: a full CJK font maps ~30,000.
const MAX_MAPPINGS: usize = 100_000;
/// Most UTF-16 units one code maps to (a ligature "ffi" is three).
const MAX_TARGET_UNITS: usize = 16;

/// How one font's strings are read.
#[derive(Debug, Clone, Default)]
pub(crate) struct FontCodes {
    /// Bytes per code: 1 for simple fonts, 2 for composite ones.
    two_byte: bool,
    /// The font's map from codes to text, when it has one.
    to_unicode: Option<ToUnicode>,
}

impl FontCodes {
    /// A font dictionary's codes: two bytes for `/Subtype /Type0`, its `/ToUnicode` read if
    /// present (one that cannot be read is as if absent).
    pub fn of(doc: &Document<'_>, font: &Dict) -> FontCodes {
        let two_byte = font.name("Subtype") == Some(b"Type0");
        let to_unicode = match font.get("ToUnicode").map(|m| doc.resolve(m)) {
            Some(Ok(Object::Stream(stream))) => doc.stream_decoded(&stream).ok().map(|cmap| ToUnicode::parse(&cmap)),
            _ => None,
        };
        FontCodes { two_byte, to_unicode }
    }

    /// The text `bytes` show and how many glyphs they draw.
    pub fn decode(&self, bytes: &[u8]) -> (String, usize) {
        let width = if self.two_byte { 2 } else { 1 };
        let mut text = String::new();
        let mut glyphs = 0;
        for code_bytes in bytes.chunks(width) {
            glyphs += 1;
            let code = code_bytes.iter().fold(0u32, |code, b| code << 8 | u32::from(*b));
            match self.to_unicode.as_ref().and_then(|map| map.get(code)) {
                Some(mapped) => text.push_str(&mapped),
                None if self.two_byte => text.push(char::REPLACEMENT_CHARACTER),
                None => text.push(latin1(code_bytes[0])),
            }
        }
        (text, glyphs)
    }
}

/// A byte read as Latin-1 (what simple fonts with a standard encoding mostly show), control
/// characters as spaces.
pub(crate) fn latin1(byte: u8) -> char {
    if byte < 0x20 { ' ' } else { char::from(byte) }
}

/// A `/ToUnicode` CMap: single codes and ranges.
#[derive(Debug, Clone, Default)]
pub(crate) struct ToUnicode {
    singles: HashMap<u32, String>,
    ranges: Vec<Range>,
}

#[derive(Debug, Clone)]
struct Range {
    low: u32,
    high: u32,
    target: RangeTarget,
}

#[derive(Debug, Clone)]
enum RangeTarget {
    /// `<lo> <hi> <dst>`: code `lo + n` maps to `dst` with its last unit increased by `n`.
    Counting(Vec<u16>),
    /// `<lo> <hi> [<d0> <d1> ...]`: one text per code.
    Listed(Vec<String>),
}

impl ToUnicode {
    /// Reads the `bfchar` and `bfrange` sections; anything else in the CMap is skipped.
    pub fn parse(cmap: &[u8]) -> ToUnicode {
        let mut map = ToUnicode::default();
        let mut lexer = Lexer::new(cmap);
        let mut section: Option<&'static str> = None;
        let mut operands: Vec<Token> = Vec::new();
        let mut entries = 0usize;
        while let Some(token) = lexer.next(0) {
            if entries >= MAX_MAPPINGS {
                break;
            }
            match token {
                Token::Operator(op) => {
                    section = match op.as_str() {
                        "beginbfchar" => Some("bfchar"),
                        "beginbfrange" => Some("bfrange"),
                        _ => None,
                    };
                    operands.clear();
                }
                other if section.is_some() => {
                    operands.push(other);
                    let complete = match section {
                        Some("bfchar") => operands.len() == 2,
                        _ => operands.len() == 3,
                    };
                    if complete {
                        map.add(&operands);
                        entries += 1;
                        operands.clear();
                    }
                }
                _ => {}
            }
        }
        map.ranges.sort_by_key(|r| r.low);
        map
    }

    fn add(&mut self, entry: &[Token]) {
        match entry {
            [Token::Str(code), Token::Str(target)] => {
                if let Some(code) = code_of(code) {
                    self.singles.insert(code, utf16_text(&units(target)));
                }
            }
            [Token::Str(low), Token::Str(high), target] => {
                let (Some(low), Some(high)) = (code_of(low), code_of(high)) else { return };
                if high < low {
                    return;
                }
                let target = match target {
                    Token::Str(start) => RangeTarget::Counting(units(start)),
                    Token::Array(items) => RangeTarget::Listed(
                        items
                            .iter()
                            .take(MAX_MAPPINGS)
                            .map(|item| match item {
                                Token::Str(text) => utf16_text(&units(text)),
                                _ => String::new(),
                            })
                            .collect(),
                    ),
                    _ => return,
                };
                self.ranges.push(Range { low, high, target });
            }
            _ => {}
        }
    }

    /// The text of `code`, if the CMap maps it.
    fn get(&self, code: u32) -> Option<String> {
        if let Some(text) = self.singles.get(&code) {
            return Some(text.clone());
        }
        // The range starting last at or below `code` (ranges sorted by their start).
        let after = self.ranges.partition_point(|r| r.low <= code);
        let range = self.ranges.get(after.checked_sub(1)?).filter(|r| code <= r.high)?;
        let offset = code - range.low;
        match &range.target {
            RangeTarget::Counting(start) => {
                let mut units = start.clone();
                let last = units.last_mut()?;
                *last = last.wrapping_add(u16::try_from(offset).ok()?);
                Some(utf16_text(&units))
            }
            RangeTarget::Listed(texts) => texts.get(usize::try_from(offset).ok()?).cloned(),
        }
    }
}

/// A source code of one to four bytes as a number.
fn code_of(bytes: &[u8]) -> Option<u32> {
    (1..=4).contains(&bytes.len()).then(|| bytes.iter().fold(0u32, |code, b| code << 8 | u32::from(*b)))
}

/// Big-endian UTF-16 units (at most [`MAX_TARGET_UNITS`]; an odd last byte is dropped).
fn units(bytes: &[u8]) -> Vec<u16> {
    bytes.chunks_exact(2).take(MAX_TARGET_UNITS).map(|pair| u16::from_be_bytes([pair[0], pair[1]])).collect()
}

fn utf16_text(units: &[u16]) -> String {
    String::from_utf16_lossy(units)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CMAP: &[u8] = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
        1 begincodespacerange <0000> <FFFF> endcodespacerange\n\
        2 beginbfchar <0003> <0020> <0024> <0915094D> endbfchar\n\
        2 beginbfrange <0010> <0012> <0041> <0020> <0021> [<0050> <00660066>] endbfrange\n\
        endcmap CMapName currentdict /CMap defineresource pop end end";

    #[test]
    fn a_to_unicode_cmap_maps_single_codes_counting_ranges_and_listed_ranges() {
        let map = ToUnicode::parse(CMAP);
        assert_eq!(map.get(3).as_deref(), Some(" "));
        assert_eq!(map.get(0x24).as_deref(), Some("क्"), "a conjunct's two code points");
        assert_eq!(map.get(0x11).as_deref(), Some("B"));
        assert_eq!(map.get(0x21).as_deref(), Some("ff"));
        assert_eq!(map.get(0x13), None);
    }

    #[test]
    fn composite_fonts_read_two_bytes_a_code_and_unmapped_codes_stay_text() {
        let codes = FontCodes { two_byte: true, to_unicode: Some(ToUnicode::parse(CMAP)) };
        assert_eq!(codes.decode(&[0, 0x10, 0, 0x11, 0, 3, 0, 0x12]), ("AB C".to_string(), 4));
        assert_eq!(codes.decode(&[0, 0x99]), ("\u{FFFD}".to_string(), 1));
        let simple = FontCodes::default();
        assert_eq!(simple.decode(b"Pay\x01"), ("Pay ".to_string(), 4));
    }

    #[test]
    fn hostile_cmaps_end_and_stay_bounded() {
        let many = "1 beginbfchar <01> <0041> endbfchar ".repeat(MAX_MAPPINGS + 5);
        let map = ToUnicode::parse(many.as_bytes());
        assert_eq!(map.singles.len(), 1);
        let wide = ToUnicode::parse(b"1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange");
        assert_eq!(wide.get(0x0000_0001).as_deref(), Some("B"));
        assert_eq!(wide.get(0x0001_0000), None, "an offset beyond one UTF-16 unit maps to nothing");
        let broken = ToUnicode::parse(b"beginbfrange <02> <01> <0041> [ <zz endbfrange");
        assert!(broken.get(1).is_none());
    }
}
