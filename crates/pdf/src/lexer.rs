//! The tokens of PDF's PostScript-like syntax as content streams and CMaps write it: numbers,
//! strings, arrays, names and operators. Text extraction (`text`) and the CMap reader
//! (`cmap`) both read with it; it depends on neither.

/// Deepest nesting of arrays read; deeper input is cut off, not recursed into.
const MAX_NESTING: usize = 64;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Token {
    Number(f64),
    Str(Vec<u8>),
    Array(Vec<Token>),
    Name(Vec<u8>),
    Other,
    Operator(String),
}

/// Tokens of a content stream (or a CMap, which is written in the same PostScript syntax).
pub(crate) struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Lexer<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Lexer { data, pos: 0 }
    }

    fn skip_space(&mut self) {
        while let Some(&b) = self.data.get(self.pos) {
            if b == b'%' {
                while self.data.get(self.pos).is_some_and(|b| *b != b'\n' && *b != b'\r') {
                    self.pos += 1;
                }
            } else if b.is_ascii_whitespace() || b == 0 {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn literal(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut depth = 1;
        self.pos += 1;
        while let Some(&b) = self.data.get(self.pos) {
            self.pos += 1;
            match b {
                b'\\' => {
                    let Some(&e) = self.data.get(self.pos) else { break };
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'0'..=b'7' => {
                            let mut value = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.data.get(self.pos) {
                                    Some(&d @ b'0'..=b'7') => {
                                        value = value * 8 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            out.push((value & 0xff) as u8);
                        }
                        b'\r' | b'\n' => {}
                        other => out.push(other),
                    }
                }
                b'(' => {
                    depth += 1;
                    out.push(b);
                }
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                    out.push(b);
                }
                _ => out.push(b),
            }
        }
        out
    }

    fn hex(&mut self) -> Vec<u8> {
        self.pos += 1;
        let mut digits = Vec::new();
        while let Some(&b) = self.data.get(self.pos) {
            self.pos += 1;
            if b == b'>' {
                break;
            }
            if let Some(d) = (b as char).to_digit(16) {
                digits.push(d as u8);
            }
        }
        if digits.len() % 2 == 1 {
            digits.push(0);
        }
        digits.chunks(2).map(|p| p[0] * 16 + p[1]).collect()
    }

    pub fn next(&mut self, depth: usize) -> Option<Token> {
        self.skip_space();
        let &b = self.data.get(self.pos)?;
        let token = match b {
            b'(' => Token::Str(self.literal()),
            b'<' if self.data.get(self.pos + 1) == Some(&b'<') => {
                self.pos += 2;
                Token::Other
            }
            b'>' if self.data.get(self.pos + 1) == Some(&b'>') => {
                self.pos += 2;
                Token::Other
            }
            b'<' => Token::Str(self.hex()),
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    match self.data.get(self.pos) {
                        None => break,
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        Some(_) if depth >= MAX_NESTING || items.len() > 100_000 => {
                            self.pos += 1;
                        }
                        Some(_) => match self.next(depth + 1) {
                            Some(t) => items.push(t),
                            None => break,
                        },
                    }
                }
                Token::Array(items)
            }
            b'/' => {
                self.pos += 1;
                Token::Name(self.word().to_vec())
            }
            b'0'..=b'9' | b'+' | b'-' | b'.' => {
                let word = self.word();
                std::str::from_utf8(word).ok().and_then(|w| w.parse().ok()).map_or(Token::Other, Token::Number)
            }
            b']' | b')' | b'{' | b'}' => {
                self.pos += 1;
                Token::Other
            }
            _ => {
                let word = self.word();
                if word.is_empty() {
                    self.pos += 1;
                    Token::Other
                } else {
                    Token::Operator(String::from_utf8_lossy(word).into_owned())
                }
            }
        };
        Some(token)
    }

    fn word(&mut self) -> &[u8] {
        let start = self.pos;
        while let Some(&b) = self.data.get(self.pos) {
            if b.is_ascii_whitespace() || b"()<>[]{}/%".contains(&b) {
                break;
            }
            self.pos += 1;
        }
        &self.data[start..self.pos]
    }
}
