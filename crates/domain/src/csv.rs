//! CSV as spreadsheets write it (RFC 4180): a header row, then records; fields optionally in
//! double quotes (a quote inside doubled), which may hold commas and line breaks; CRLF or LF;
//! a UTF-8 byte-order mark ignored. Bounded in rows, columns and cell length, so a hostile file
//! is refused before it costs anything.

/// A parsed file: the header's names (trimmed) and each record's cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub header: Vec<String>,
    /// Records with their line number in the file (from 1, the header being line 1).
    pub rows: Vec<(usize, Vec<String>)>,
}

/// How much a file may hold.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub rows: usize,
    pub columns: usize,
    pub cell_chars: usize,
}

/// Parses `text`. Blank lines are skipped; a record with a different number of cells than the
/// header is refused with its line.
pub fn parse(text: &str, limits: Limits) -> Result<Table, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Records { chars: text.chars().peekable(), line: 1, limits };
    let Some((_, header)) = records.next_record()? else {
        return Err("the file is empty: it needs a header row".into());
    };
    let header: Vec<String> = header.into_iter().map(|h| h.trim().to_string()).collect();
    if header.iter().all(String::is_empty) {
        return Err("the header row is empty".into());
    }
    let mut rows = Vec::new();
    while let Some((line, cells)) = records.next_record()? {
        if cells.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if cells.len() != header.len() {
            return Err(format!("line {line} has {} cells; the header has {}", cells.len(), header.len()));
        }
        if rows.len() == limits.rows {
            return Err(format!("the file has more than {} rows", limits.rows));
        }
        rows.push((line, cells));
    }
    Ok(Table { header, rows })
}

struct Records<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    limits: Limits,
}

impl Records<'_> {
    /// The next record and the line it starts on; none at the end.
    fn next_record(&mut self) -> Result<Option<(usize, Vec<String>)>, String> {
        if self.chars.peek().is_none() {
            return Ok(None);
        }
        let start = self.line;
        let mut cells = Vec::new();
        loop {
            let (cell, ended) = self.next_cell(start)?;
            if cells.len() == self.limits.columns {
                return Err(format!("line {start} has more than {} cells", self.limits.columns));
            }
            cells.push(cell);
            if ended {
                return Ok(Some((start, cells)));
            }
        }
    }

    /// A cell, and whether the record ends after it.
    fn next_cell(&mut self, start: usize) -> Result<(String, bool), String> {
        let mut cell = String::new();
        let quoted = self.chars.peek() == Some(&'"');
        if quoted {
            self.chars.next();
            loop {
                match self.chars.next() {
                    None => return Err(format!("line {start}: a quoted cell is not closed")),
                    Some('"') if self.chars.peek() == Some(&'"') => {
                        self.chars.next();
                        self.push(&mut cell, '"', start)?;
                    }
                    Some('"') => break,
                    Some(c) => {
                        if c == '\n' {
                            self.line += 1;
                        }
                        self.push(&mut cell, c, start)?;
                    }
                }
            }
        }
        loop {
            match self.chars.next() {
                None => return Ok((cell, true)),
                Some(',') => return Ok((cell, false)),
                Some('\r') if self.chars.peek() == Some(&'\n') => {
                    self.chars.next();
                    self.line += 1;
                    return Ok((cell, true));
                }
                Some('\n') => {
                    self.line += 1;
                    return Ok((cell, true));
                }
                Some(_) if quoted => return Err(format!("line {start}: text after a closing quote")),
                Some(c) => self.push(&mut cell, c, start)?,
            }
        }
    }

    fn push(&self, cell: &mut String, c: char, start: usize) -> Result<(), String> {
        if cell.chars().count() >= self.limits.cell_chars {
            return Err(format!("line {start}: a cell is longer than {} characters", self.limits.cell_chars));
        }
        cell.push(c);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits { rows: 3, columns: 4, cell_chars: 20 };

    #[test]
    fn quoted_cells_line_breaks_and_a_byte_order_mark() {
        let table = parse(
            "\u{feff}name,email\r\n\"Verma, Asha\",asha@x.test\r\n\"say \"\"hi\"\"\nthere\",b@x.test\n\n",
            LIMITS,
        )
        .expect("parses");
        assert_eq!(table.header, ["name", "email"]);
        assert_eq!(table.rows[0], (2, vec!["Verma, Asha".to_string(), "asha@x.test".to_string()]));
        assert_eq!(table.rows[1], (3, vec!["say \"hi\"\nthere".to_string(), "b@x.test".to_string()]));
    }

    #[test]
    fn what_is_refused_names_the_line() {
        assert!(parse("", LIMITS).is_err());
        assert!(parse("a,b\n1\n", LIMITS).expect_err("short").contains("line 2"));
        assert!(parse("a\n\"open\n", LIMITS).expect_err("open").contains("not closed"));
        assert!(parse("a\n\"x\"y\n", LIMITS).expect_err("after quote").contains("line 2"));
        assert!(parse("a,b,c,d,e\n", LIMITS).expect_err("columns").contains("more than 4"));
        assert!(parse("a\n1\n2\n3\n4\n", LIMITS).expect_err("rows").contains("more than 3 rows"));
        assert!(parse(&format!("a\n{}\n", "x".repeat(21)), LIMITS).expect_err("cell").contains("longer"));
    }
}
