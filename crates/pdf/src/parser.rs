//! Tokenizer and object parser over a byte window of the source.
//!
//! The parser never sees the whole file: the reader hands it a window starting at an object's
//! offset, and retries with a larger window when the parser reports `Incomplete`.

use crate::object::{Dict, ObjRef, Object, Stream, StreamData, is_delimiter, is_whitespace};

/// Nesting limit: deeper structures are hostile input, not documents.
const MAX_DEPTH: usize = 64;

#[derive(Debug, Clone, PartialEq)]
pub enum ParseError {
    /// The window ended before the object did; a larger window may help.
    Incomplete,
    Bad {
        pos: usize,
        msg: String,
    },
}

pub type PResult<T> = std::result::Result<T, ParseError>;

fn bad<T>(pos: usize, msg: impl Into<String>) -> PResult<T> {
    Err(ParseError::Bad { pos, msg: msg.into() })
}

pub struct Parser<'a> {
    pub buf: &'a [u8],
    pub pos: usize,
    /// Absolute offset of `buf[0]` in the source (used for stream data offsets).
    pub base: u64,
    /// True when `buf` runs to the end of the source (then "incomplete" means "truncated").
    pub at_eof: bool,
}

impl<'a> Parser<'a> {
    pub fn new(buf: &'a [u8], base: u64, at_eof: bool) -> Self {
        Parser { buf, pos: 0, base, at_eof }
    }

    fn incomplete<T>(&self) -> PResult<T> {
        if self.at_eof { bad(self.pos, "unexpected end of file") } else { Err(ParseError::Incomplete) }
    }

    pub fn peek(&self) -> Option<u8> {
        self.buf.get(self.pos).copied()
    }

    pub fn skip_ws(&mut self) {
        while let Some(b) = self.peek() {
            if is_whitespace(b) {
                self.pos += 1;
            } else if b == b'%' {
                while let Some(c) = self.peek() {
                    if c == b'\n' || c == b'\r' {
                        break;
                    }
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    /// A bare keyword or number token (regular characters up to a delimiter or whitespace).
    pub fn regular_token(&mut self) -> &'a [u8] {
        let start = self.pos;
        while let Some(b) = self.peek() {
            if is_whitespace(b) || is_delimiter(b) {
                break;
            }
            self.pos += 1;
        }
        &self.buf[start..self.pos]
    }

    /// Consume `kw` (after whitespace) if it is next; the window must be long enough to decide.
    pub fn eat_keyword(&mut self, kw: &[u8]) -> PResult<bool> {
        self.skip_ws();
        let end = self.pos + kw.len();
        if end > self.buf.len() {
            let rest = &self.buf[self.pos..];
            return if kw.starts_with(rest) && !self.at_eof { Err(ParseError::Incomplete) } else { Ok(false) };
        }
        if &self.buf[self.pos..end] == kw && self.buf.get(end).is_none_or(|&b| is_whitespace(b) || is_delimiter(b)) {
            self.pos = end;
            return Ok(true);
        }
        Ok(false)
    }

    pub fn parse_u64(&mut self) -> PResult<u64> {
        self.skip_ws();
        let start = self.pos;
        let tok = self.regular_token();
        if self.pos == self.buf.len() && !self.at_eof {
            return Err(ParseError::Incomplete);
        }
        parse_decimal(tok).ok_or_else(|| ParseError::Bad { pos: start, msg: "expected an unsigned integer".into() })
    }

    /// `num generation obj` header of an indirect object.
    pub fn parse_obj_header(&mut self) -> PResult<ObjRef> {
        let num = self.parse_u64()?;
        let generation = self.parse_u64()?;
        if !self.eat_keyword(b"obj")? {
            return bad(self.pos, "expected 'obj'");
        }
        let num =
            u32::try_from(num).map_err(|_| ParseError::Bad { pos: self.pos, msg: "object number too large".into() })?;
        Ok(ObjRef::new(num, generation.min(u16::MAX as u64) as u16))
    }

    /// Parse one object. Streams are recognized after a dictionary; their data is not read,
    /// only located (`Length` may be indirect, which the caller resolves).
    pub fn parse_object(&mut self) -> PResult<Object> {
        self.parse_depth(0)
    }

    fn parse_depth(&mut self, depth: usize) -> PResult<Object> {
        if depth > MAX_DEPTH {
            return bad(self.pos, "objects nested too deeply");
        }
        self.skip_ws();
        let Some(b) = self.peek() else {
            return self.incomplete();
        };
        match b {
            b'/' => {
                self.pos += 1;
                Ok(Object::Name(self.parse_name_body()))
            }
            b'(' => self.parse_literal_string(),
            b'<' => {
                if self.buf.get(self.pos + 1) == Some(&b'<') {
                    self.parse_dict_or_stream(depth)
                } else if self.pos + 1 >= self.buf.len() {
                    self.incomplete()
                } else {
                    self.parse_hex_string()
                }
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    match self.peek() {
                        None => return self.incomplete(),
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(Object::Array(items));
                        }
                        Some(_) => items.push(self.parse_depth(depth + 1)?),
                    }
                }
            }
            b'+' | b'-' | b'.' | b'0'..=b'9' => self.parse_number_or_ref(),
            _ => {
                let start = self.pos;
                let tok = self.regular_token();
                if self.pos == self.buf.len() && !self.at_eof {
                    return Err(ParseError::Incomplete);
                }
                match tok {
                    b"true" => Ok(Object::Bool(true)),
                    b"false" => Ok(Object::Bool(false)),
                    b"null" => Ok(Object::Null),
                    _ => bad(start, format!("unexpected token {:?}", lossy(tok, 20))),
                }
            }
        }
    }

    fn parse_name_body(&mut self) -> Vec<u8> {
        let raw = self.regular_token();
        let mut name = Vec::with_capacity(raw.len());
        let mut i = 0;
        while i < raw.len() {
            if raw[i] == b'#'
                && i + 2 < raw.len()
                && let (Some(h), Some(l)) = (hex_val(raw[i + 1]), hex_val(raw[i + 2]))
            {
                name.push(h << 4 | l);
                i += 3;
                continue;
            }
            name.push(raw[i]);
            i += 1;
        }
        name
    }

    fn parse_number_or_ref(&mut self) -> PResult<Object> {
        let start = self.pos;
        let tok = self.regular_token();
        if self.pos == self.buf.len() && !self.at_eof {
            return Err(ParseError::Incomplete);
        }
        let Some(first) = parse_number(tok) else {
            return bad(start, format!("bad number {:?}", lossy(tok, 20)));
        };
        let Object::Int(num) = first else {
            return Ok(first);
        };
        // Look ahead for `generation R` without committing.
        let save = self.pos;
        if num >= 0
            && let Some(r) = self.try_ref_tail(num)?
        {
            return Ok(r);
        }
        self.pos = save;
        Ok(first)
    }

    fn try_ref_tail(&mut self, num: i64) -> PResult<Option<Object>> {
        self.skip_ws();
        if self.pos >= self.buf.len() {
            return if self.at_eof { Ok(None) } else { Err(ParseError::Incomplete) };
        }
        if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
            return Ok(None);
        }
        let tok = self.regular_token();
        if self.pos >= self.buf.len() && !self.at_eof {
            return Err(ParseError::Incomplete);
        }
        let Some(generation) = parse_decimal(tok) else {
            return Ok(None);
        };
        self.skip_ws();
        if self.pos >= self.buf.len() && !self.at_eof {
            return Err(ParseError::Incomplete);
        }
        if self.peek() == Some(b'R') && self.buf.get(self.pos + 1).is_none_or(|&b| is_whitespace(b) || is_delimiter(b))
        {
            self.pos += 1;
            let (Ok(num), Ok(generation)) = (u32::try_from(num), u16::try_from(generation)) else {
                return Ok(Some(Object::Null));
            };
            return Ok(Some(Object::Ref(ObjRef::new(num, generation))));
        }
        Ok(None)
    }

    fn parse_literal_string(&mut self) -> PResult<Object> {
        self.pos += 1;
        let mut out = Vec::new();
        let mut depth = 1usize;
        loop {
            let Some(b) = self.peek() else {
                return self.incomplete();
            };
            self.pos += 1;
            match b {
                b'(' => {
                    depth += 1;
                    out.push(b);
                }
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(Object::Str { bytes: out, hex: false });
                    }
                    out.push(b);
                }
                b'\\' => {
                    let Some(e) = self.peek() else {
                        return self.incomplete();
                    };
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'0'..=b'7' => {
                            let mut v = (e - b'0') as u32;
                            for _ in 0..2 {
                                match self.peek() {
                                    Some(d @ b'0'..=b'7') => {
                                        v = v * 8 + (d - b'0') as u32;
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            out.push(v as u8);
                        }
                        b'\r' => {
                            if self.peek() == Some(b'\n') {
                                self.pos += 1;
                            }
                        }
                        b'\n' => {}
                        other => out.push(other),
                    }
                }
                _ => out.push(b),
            }
        }
    }

    fn parse_hex_string(&mut self) -> PResult<Object> {
        self.pos += 1;
        let mut out = Vec::new();
        let mut high: Option<u8> = None;
        loop {
            let Some(b) = self.peek() else {
                return self.incomplete();
            };
            self.pos += 1;
            if b == b'>' {
                if let Some(h) = high {
                    out.push(h << 4);
                }
                return Ok(Object::Str { bytes: out, hex: true });
            }
            if is_whitespace(b) {
                continue;
            }
            let Some(v) = hex_val(b) else {
                return bad(self.pos - 1, "bad hex string");
            };
            match high.take() {
                Some(h) => out.push(h << 4 | v),
                None => high = Some(v),
            }
        }
    }

    fn parse_dict_or_stream(&mut self, depth: usize) -> PResult<Object> {
        self.pos += 2;
        let mut dict = Dict::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None => return self.incomplete(),
                Some(b'>') => {
                    if self.buf.get(self.pos + 1) == Some(&b'>') {
                        self.pos += 2;
                        break;
                    }
                    if self.pos + 1 >= self.buf.len() {
                        return self.incomplete();
                    }
                    return bad(self.pos, "bad dictionary end");
                }
                Some(b'/') => {
                    self.pos += 1;
                    let key = self.parse_name_body();
                    let value = self.parse_depth(depth + 1)?;
                    // A null value means the key is absent (ISO 32000 7.3.7).
                    if value != Object::Null {
                        dict.0.push((key, value));
                    }
                }
                Some(_) => {
                    return bad(self.pos, "expected a name key in dictionary");
                }
            }
        }
        self.maybe_stream(dict)
    }

    fn maybe_stream(&mut self, dict: Dict) -> PResult<Object> {
        let save = self.pos;
        if !self.eat_keyword(b"stream")? {
            self.pos = save;
            return Ok(Object::Dict(dict));
        }
        // The keyword is followed by CRLF or LF (tolerate a lone CR).
        match self.peek() {
            Some(b'\r') => {
                self.pos += 1;
                if self.peek() == Some(b'\n') {
                    self.pos += 1;
                }
            }
            Some(b'\n') => self.pos += 1,
            None => return self.incomplete(),
            Some(_) => {}
        }
        let offset = self.base + self.pos as u64;
        let len = dict.get("Length").and_then(Object::as_int).unwrap_or(-1);
        Ok(Object::Stream(Stream {
            dict,
            // A negative length marks "unknown yet" (indirect /Length); the reader fixes it.
            data: StreamData::InSource { offset, len: if len < 0 { u64::MAX } else { len as u64 } },
        }))
    }
}

pub fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

pub fn parse_decimal(tok: &[u8]) -> Option<u64> {
    if tok.is_empty() || tok.len() > 19 || !tok.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(tok).ok()?.parse().ok()
}

fn parse_number(tok: &[u8]) -> Option<Object> {
    let s = std::str::from_utf8(tok).ok()?;
    if !s.contains('.')
        && let Ok(i) = s.parse::<i64>()
    {
        return Some(Object::Int(i));
    }
    // Tolerate producer quirks like "--1" or "1.2.3" loosely, as viewers do.
    let cleaned = s.trim_start_matches('+');
    cleaned
        .parse::<f64>()
        .ok()
        .map(Object::Real)
        .or_else(|| if s.bytes().all(|b| b == b'-' || b == b'+' || b == b'.') { Some(Object::Int(0)) } else { None })
}

pub fn lossy(b: &[u8], max: usize) -> String {
    String::from_utf8_lossy(&b[..b.len().min(max)]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Object {
        let mut p = Parser::new(s.as_bytes(), 0, true);
        p.parse_object().expect("parses")
    }

    #[test]
    fn parses_refs_and_numbers() {
        assert_eq!(parse("12 0 R"), Object::Ref(ObjRef::new(12, 0)));
        assert_eq!(parse("12 0"), Object::Int(12));
        assert_eq!(parse("-3.5"), Object::Real(-3.5));
        assert_eq!(parse("[1 2 R 3]"), Object::Array(vec![Object::Ref(ObjRef::new(1, 2)), Object::Int(3)]));
    }

    #[test]
    fn parses_strings_and_names() {
        assert_eq!(parse("(a\\(b\\)c\\101)"), Object::literal(b"a(b)cA"));
        assert_eq!(parse("<48 65 6>"), Object::Str { bytes: b"He`".to_vec(), hex: true });
        assert_eq!(parse("/A#20B"), Object::Name(b"A B".to_vec()));
    }

    #[test]
    fn incomplete_window_is_reported() {
        let mut p = Parser::new(b"<< /A [1 2", 0, false);
        assert_eq!(p.parse_object(), Err(ParseError::Incomplete));
        let mut p = Parser::new(b"<< /A [1 2", 0, true);
        assert!(matches!(p.parse_object(), Err(ParseError::Bad { .. })));
    }

    #[test]
    fn finds_stream_data_offset() {
        let src = b"<< /Length 3 >>\nstream\nabc\nendstream";
        let mut p = Parser::new(src, 100, true);
        let Object::Stream(s) = p.parse_object().expect("stream") else { panic!("no stream") };
        assert_eq!(s.data, StreamData::InSource { offset: 123, len: 3 });
    }
}
