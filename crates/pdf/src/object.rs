//! A small PDF object model and its serializer.
//!
//! Only what signing needs: objects parsed from the input are kept exactly enough to be written back
//! unchanged in meaning (the incremental update re-serializes the few objects it modifies).

use std::fmt::Write as _;

/// An indirect reference `num generation R`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjRef {
    pub num: u32,
    pub generation: u16,
}

impl ObjRef {
    pub fn new(num: u32, generation: u16) -> Self {
        ObjRef { num, generation }
    }
}

/// A dictionary keeping its key order (so rewritten objects look like their originals).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dict(pub Vec<(Vec<u8>, Object)>);

impl Dict {
    pub fn new() -> Self {
        Dict(Vec::new())
    }

    pub fn get(&self, key: &str) -> Option<&Object> {
        self.0.iter().find(|(k, _)| k.as_slice() == key.as_bytes()).map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Object> {
        self.0.iter_mut().find(|(k, _)| k.as_slice() == key.as_bytes()).map(|(_, v)| v)
    }

    /// Insert or replace, keeping the position of an existing key.
    pub fn set(&mut self, key: &str, value: Object) {
        match self.get_mut(key) {
            Some(slot) => *slot = value,
            None => self.0.push((key.as_bytes().to_vec(), value)),
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<Object> {
        let pos = self.0.iter().position(|(k, _)| k.as_slice() == key.as_bytes())?;
        Some(self.0.remove(pos).1)
    }

    pub fn name(&self, key: &str) -> Option<&[u8]> {
        self.get(key).and_then(Object::as_name)
    }

    pub fn int(&self, key: &str) -> Option<i64> {
        self.get(key).and_then(Object::as_int)
    }

    pub fn has_type(&self, type_name: &str) -> bool {
        self.name("Type") == Some(type_name.as_bytes())
    }
}

/// Where a stream's data lives.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamData {
    /// Raw (still encoded) bytes at an absolute offset of the source.
    InSource { offset: u64, len: u64 },
    /// Bytes we created (already encoded as the dictionary says).
    Owned(Vec<u8>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stream {
    pub dict: Dict,
    pub data: StreamData,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Object {
    Null,
    Bool(bool),
    Int(i64),
    Real(f64),
    Name(Vec<u8>),
    /// String bytes after unescaping; `hex` remembers the original notation.
    Str {
        bytes: Vec<u8>,
        hex: bool,
    },
    Array(Vec<Object>),
    Dict(Dict),
    Stream(Stream),
    Ref(ObjRef),
}

impl Object {
    pub fn name(n: &str) -> Object {
        Object::Name(n.as_bytes().to_vec())
    }

    pub fn literal(s: &[u8]) -> Object {
        Object::Str { bytes: s.to_vec(), hex: false }
    }

    /// A PDF "text string": PDFDocEncoding-compatible ASCII, else UTF-16BE with a BOM.
    pub fn text(s: &str) -> Object {
        if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return Object::literal(s.as_bytes());
        }
        let mut bytes = vec![0xfe, 0xff];
        for unit in s.encode_utf16() {
            bytes.extend_from_slice(&unit.to_be_bytes());
        }
        Object::Str { bytes, hex: true }
    }

    pub fn as_name(&self) -> Option<&[u8]> {
        match self {
            Object::Name(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Object::Int(i) => Some(*i),
            Object::Real(r) if r.fract() == 0.0 => Some(*r as i64),
            _ => None,
        }
    }

    pub fn as_number(&self) -> Option<f64> {
        match self {
            Object::Int(i) => Some(*i as f64),
            Object::Real(r) => Some(*r),
            _ => None,
        }
    }

    pub fn as_dict(&self) -> Option<&Dict> {
        match self {
            Object::Dict(d) => Some(d),
            Object::Stream(s) => Some(&s.dict),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Object]> {
        match self {
            Object::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_ref(&self) -> Option<ObjRef> {
        match self {
            Object::Ref(r) => Some(*r),
            _ => None,
        }
    }

    pub fn as_str_bytes(&self) -> Option<&[u8]> {
        match self {
            Object::Str { bytes, .. } => Some(bytes),
            _ => None,
        }
    }
}

impl From<ObjRef> for Object {
    fn from(r: ObjRef) -> Self {
        Object::Ref(r)
    }
}
impl From<i64> for Object {
    fn from(i: i64) -> Self {
        Object::Int(i)
    }
}
impl From<Dict> for Object {
    fn from(d: Dict) -> Self {
        Object::Dict(d)
    }
}

/// Decode a PDF text string (UTF-16BE with BOM, UTF-8 with BOM, else PDFDocEncoding ~ Latin-1).
pub fn decode_text(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xfe, 0xff]) {
        let units: Vec<u16> = rest.chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
        return String::from_utf16_lossy(&units);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xef, 0xbb, 0xbf]) {
        return String::from_utf8_lossy(rest).into_owned();
    }
    bytes.iter().map(|&b| b as char).collect()
}

// ---------------------------------------------------------------------------------------------
// Serialization
// ---------------------------------------------------------------------------------------------

pub fn write_object(out: &mut Vec<u8>, obj: &Object) {
    match obj {
        Object::Null => out.extend_from_slice(b"null"),
        Object::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Object::Int(i) => out.extend_from_slice(i.to_string().as_bytes()),
        Object::Real(r) => out.extend_from_slice(format_real(*r).as_bytes()),
        Object::Name(n) => write_name(out, n),
        Object::Str { bytes, hex } => write_string(out, bytes, *hex),
        Object::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                write_object(out, item);
            }
            out.push(b']');
        }
        Object::Dict(d) => write_dict(out, d),
        Object::Stream(s) => write_stream(out, s),
        Object::Ref(r) => out.extend_from_slice(format!("{} {} R", r.num, r.generation).as_bytes()),
    }
}

pub fn write_dict(out: &mut Vec<u8>, d: &Dict) {
    out.extend_from_slice(b"<<");
    for (k, v) in &d.0 {
        write_name(out, k);
        out.push(b' ');
        write_object(out, v);
    }
    out.extend_from_slice(b">>");
}

/// Streams we write always carry owned data; a source-backed stream cannot be re-serialized
/// without reading it, which the signer never needs (it never rewrites existing streams).
fn write_stream(out: &mut Vec<u8>, s: &Stream) {
    let data: &[u8] = match &s.data {
        StreamData::Owned(d) => d,
        StreamData::InSource { .. } => &[],
    };
    let mut dict = s.dict.clone();
    dict.set("Length", Object::Int(data.len() as i64));
    write_dict(out, &dict);
    out.extend_from_slice(b"\nstream\n");
    out.extend_from_slice(data);
    out.extend_from_slice(b"\nendstream");
}

/// A real as PDF content writes it: at most four decimals, no trailing zeros, no `-0`.
pub fn format_real(r: f64) -> String {
    let mut s = String::with_capacity(12);
    push_real(&mut s, r);
    s
}

/// [`format_real`] appended to `s`. Appearance streams write a few hundred numbers per
/// signature, and going through `format!("{r:.4}")` was a tenth of a one-page signature's work
/// besides the RSA operation; this rounds in integer arithmetic instead.
pub fn push_real(s: &mut String, r: f64) {
    // Beyond this, r * 10^4 loses integer precision in an f64; no coordinate gets there.
    const FAST_LIMIT: f64 = 1e11;
    if !r.is_finite() {
        s.push('0');
        return;
    }
    if r.abs() >= FAST_LIMIT {
        let mut text = format!("{r:.4}");
        while text.ends_with('0') {
            text.pop();
        }
        if text.ends_with('.') {
            text.pop();
        }
        s.push_str(&text);
        return;
    }
    let scaled = (r * 10_000.0).round() as i64;
    if scaled == 0 {
        s.push('0');
        return;
    }
    if scaled < 0 {
        s.push('-');
    }
    let magnitude = scaled.unsigned_abs();
    push_digits(s, magnitude / 10_000, 1);
    let mut fraction = magnitude % 10_000;
    if fraction != 0 {
        let mut width = 4;
        while fraction.is_multiple_of(10) {
            fraction /= 10;
            width -= 1;
        }
        s.push('.');
        push_digits(s, fraction, width);
    }
}

/// `n` in decimal, left-padded with zeros to `width` digits.
fn push_digits(s: &mut String, mut n: u64, width: usize) {
    let mut buf = [b'0'; 20];
    let mut at = buf.len();
    while n > 0 || buf.len() - at < width {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    s.extend(buf[at..].iter().map(|b| *b as char));
}

fn write_name(out: &mut Vec<u8>, n: &[u8]) {
    out.push(b'/');
    for &b in n {
        if b.is_ascii_graphic() && !is_delimiter(b) && b != b'#' {
            out.push(b);
        } else {
            let _ = write!(HexSink(out), "#{b:02X}");
        }
    }
}

fn write_string(out: &mut Vec<u8>, bytes: &[u8], hex: bool) {
    if hex {
        out.push(b'<');
        for b in bytes {
            let _ = write!(HexSink(out), "{b:02X}");
        }
        out.push(b'>');
        return;
    }
    out.push(b'(');
    for &b in bytes {
        match b {
            b'(' | b')' | b'\\' => {
                out.push(b'\\');
                out.push(b);
            }
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\n' => out.extend_from_slice(b"\\n"),
            _ => out.push(b),
        }
    }
    out.push(b')');
}

struct HexSink<'a>(&'a mut Vec<u8>);
impl std::fmt::Write for HexSink<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

pub fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\0')
}

pub fn is_delimiter(b: u8) -> bool {
    matches!(b, b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals_have_four_decimals_at_most() {
        let cases = [
            (0.0, "0"),
            (-0.0, "0"),
            (-0.00001, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.25, "0.25"),
            (595.2756, "595.2756"),
            (12.30004, "12.3"),
            (0.00005, "0.0001"),
            (1e11, "100000000000"),
            (f64::NAN, "0"),
            (10.05, "10.05"),
            (-0.0625, "-0.0625"),
        ];
        for (value, text) in cases {
            assert_eq!(format_real(value), text, "{value}");
        }
    }

    #[test]
    fn reals_agree_with_the_formatter_to_the_last_decimal() {
        // The integer rounding may differ from `{:.4}` only on exact ties, by one unit.
        let mut x: u64 = 0x9E3779B97F4A7C15;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let value = ((x % 2_000_000_000) as f64 - 1e9) / 997.0;
            let ours: f64 = format_real(value).parse().unwrap_or(f64::NAN);
            let reference: f64 = format!("{value:.4}").parse().unwrap_or(f64::NAN);
            assert!((ours - reference).abs() <= 1.0001e-4, "{value}: {ours} vs {reference}");
            assert!((ours - value).abs() <= 0.5001e-4, "{value}: {ours}");
        }
    }

    #[test]
    fn serializes_nested_objects() {
        let mut d = Dict::new();
        d.set("Type", Object::name("Sig"));
        d.set("A", Object::Array(vec![Object::Int(1), Object::Real(0.5)]));
        d.set("S", Object::literal(b"a(b)\\"));
        d.set("R", Object::Ref(ObjRef::new(3, 0)));
        let mut out = Vec::new();
        write_object(&mut out, &Object::Dict(d));
        assert_eq!(String::from_utf8_lossy(&out), "<</Type /Sig/A [1 0.5]/S (a\\(b\\)\\\\)/R 3 0 R>>");
    }

    #[test]
    fn text_strings_use_utf16_for_non_ascii() {
        let Object::Str { bytes, hex } = Object::text("रवि") else { panic!("not a string") };
        assert!(hex);
        assert_eq!(&bytes[..2], &[0xfe, 0xff]);
        assert_eq!(decode_text(&bytes), "रवि");
    }
}
