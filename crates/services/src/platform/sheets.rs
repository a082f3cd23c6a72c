//! The first worksheet of an XLSX workbook as a table of text, for bulk send: what Excel,
//! LibreOffice and openpyxl write (a ZIP of XML parts: `xl/worksheets/sheet1.xml` and the
//! shared strings). Bounded against hostile files while reading, never after: the archive's
//! size and entry count, each part's inflated bytes (streamed through the XML reader, so a ZIP
//! bomb stops at the limit and no part is held whole), the rows and columns kept, each cell's
//! length (a cell naming a shared string included), and the text held at once: the shared
//! strings and every cell's copy of them count against one [`SheetBudget`], so a few kilobytes
//! naming one long shared string thousands of times are refused at the first copy too many.
//! Formulas are not evaluated (their cached value is read, as for any cell).

use std::borrow::Cow;
use std::io::{BufRead, BufReader, Read};

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use signet_domain::csv::{Limits, Table};

/// Why a workbook cannot be read. Its text is what the sender is shown (the `fileData` field's
/// message), so each variant displays the sentence that names the fault; the XML parser's and
/// the unpacking's own errors stay attached as causes.
#[derive(Debug, thiserror::Error)]
pub enum SheetError {
    /// The ZIP archive is damaged, cut short, or holds no worksheet.
    #[error("{0}")]
    Archive(String),
    /// The workbook goes beyond one of the bounds (size, entries, rows, columns, text).
    #[error("{0}")]
    Limit(String),
    /// The worksheet is not a table: empty, cells beyond the header, references not A1-style.
    #[error("{0}")]
    Content(String),
    /// A part's XML does not parse.
    #[error("the workbook's XML cannot be read: {0}")]
    Xml(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// Unpacking a part failed (its limit included, whose message speaks for itself).
    #[error("{0}")]
    Unpack(#[source] std::sync::Arc<std::io::Error>),
}

/// A damaged or cut-short archive.
fn damaged(message: impl Into<String>) -> SheetError {
    SheetError::Archive(message.into())
}

/// Largest archive read.
pub const MAX_XLSX_BYTES: usize = 5 * 1024 * 1024;
/// Most entries in the archive's directory.
const MAX_ENTRIES: usize = 10_000;
/// Furthest column letter read (`XFD` is Excel's last).
const MAX_COLUMN: usize = 16_384;

/// Whether `bytes` look like a ZIP archive (an XLSX file).
pub fn is_xlsx(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// What reading one workbook may cost beyond its rows, columns and cell lengths.
#[derive(Debug, Clone, Copy)]
pub struct SheetBudget {
    /// Most bytes one part (the worksheet, the shared strings) may inflate to.
    pub part_bytes: u64,
    /// Most bytes of text held at once: the shared strings plus every cell read.
    pub text_bytes: usize,
}

/// The text still allowed; each string kept takes its share first.
struct TextBudget {
    left: usize,
    total: usize,
}

impl TextBudget {
    fn take(&mut self, bytes: usize) -> Result<(), SheetError> {
        self.left = self.left.checked_sub(bytes).ok_or_else(|| {
            SheetError::Limit(format!(
                "the workbook holds more than {} of text once read",
                size_text(self.total as u64)
            ))
        })?;
        Ok(())
    }

    fn give_back(&mut self, bytes: usize) {
        self.left = (self.left + bytes).min(self.total);
    }
}

/// The first worksheet as a header and rows, with each row's number as its line.
pub fn read_first_sheet(bytes: &[u8], limits: Limits, budget: SheetBudget) -> Result<Table, SheetError> {
    if bytes.len() > MAX_XLSX_BYTES {
        return Err(SheetError::Limit("the workbook is larger than 5 MiB".into()));
    }
    let entries = directory(bytes)?;
    let sheet = entries
        .iter()
        .find(|e| e.name == "xl/worksheets/sheet1.xml")
        .or_else(|| {
            let mut sheets: Vec<&Entry> =
                entries.iter().filter(|e| e.name.starts_with("xl/worksheets/sheet")).collect();
            sheets.sort_by(|a, b| a.name.cmp(&b.name));
            sheets.first().copied()
        })
        .ok_or_else(|| damaged("the file is a ZIP archive but not an XLSX workbook (no worksheet)"))?;
    let mut text = TextBudget { left: budget.text_bytes, total: budget.text_bytes };
    let shared = match entries.iter().find(|e| e.name == "xl/sharedStrings.xml") {
        Some(entry) => shared_strings(inflate(bytes, entry, budget.part_bytes)?, limits.cell_chars, &mut text)?,
        None => Vec::new(),
    };
    let rows = sheet_rows(inflate(bytes, sheet, budget.part_bytes)?, &shared, limits, &mut text)?;
    let mut rows = rows.into_iter();
    let Some((_, header)) = rows.next() else {
        return Err(SheetError::Content("the worksheet is empty: it needs a header row".into()));
    };
    let header: Vec<String> = header.into_iter().map(|h| h.trim().to_string()).collect();
    let width = header.len();
    let rows: Vec<(usize, Vec<String>)> = rows
        .map(|(line, mut cells)| {
            cells.resize(width.max(cells.len()), String::new());
            (line, cells)
        })
        .filter(|(_, cells)| cells.iter().any(|c| !c.trim().is_empty()))
        .collect();
    if let Some((line, _)) = rows.iter().find(|(_, cells)| cells[width..].iter().any(|c| !c.trim().is_empty())) {
        return Err(SheetError::Content(format!("row {line} has cells beyond the header's columns")));
    }
    let rows = rows.into_iter().map(|(line, mut cells)| {
        cells.truncate(width);
        (line, cells)
    });
    Ok(Table { header, rows: rows.collect() })
}

struct Entry {
    name: String,
    method: u16,
    compressed: u64,
    local_offset: usize,
}

fn u16_at(b: &[u8], at: usize) -> Result<u16, SheetError> {
    b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]])).ok_or_else(|| damaged("the ZIP archive is cut short"))
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, SheetError> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| damaged("the ZIP archive is cut short"))
}

/// The archive's central directory.
fn directory(b: &[u8]) -> Result<Vec<Entry>, SheetError> {
    let search_from = b.len().saturating_sub(22 + 65_535);
    let end = (search_from..b.len().saturating_sub(21))
        .rev()
        .find(|&i| b[i..].starts_with(b"PK\x05\x06"))
        .ok_or_else(|| damaged("the file is not a readable ZIP archive"))?;
    let count = usize::from(u16_at(b, end + 10)?);
    let mut at = u32_at(b, end + 16)? as usize;
    if count > MAX_ENTRIES {
        return Err(SheetError::Limit("the archive has too many entries".into()));
    }
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        if u32_at(b, at)? != 0x0201_4b50 {
            return Err(damaged("the ZIP directory is damaged"));
        }
        let method = u16_at(b, at + 10)?;
        let compressed = u64::from(u32_at(b, at + 20)?);
        let name_len = usize::from(u16_at(b, at + 28)?);
        let extra_len = usize::from(u16_at(b, at + 30)?);
        let comment_len = usize::from(u16_at(b, at + 32)?);
        let local_offset = u32_at(b, at + 42)? as usize;
        let name = b.get(at + 46..at + 46 + name_len).ok_or_else(|| damaged("the ZIP directory is cut short"))?;
        entries.push(Entry { name: String::from_utf8_lossy(name).into_owned(), method, compressed, local_offset });
        at += 46 + name_len + extra_len + comment_len;
    }
    Ok(entries)
}

/// An entry's content as an XML reader that inflates as it reads, up to `limit` bytes.
fn inflate<'a>(b: &'a [u8], entry: &Entry, limit: u64) -> Result<Reader<BufReader<Bounded<'a>>>, SheetError> {
    let at = entry.local_offset;
    if u32_at(b, at)? != 0x0403_4b50 {
        return Err(damaged(format!("the archive's entry {} is damaged", entry.name)));
    }
    let start = at + 30 + usize::from(u16_at(b, at + 26)?) + usize::from(u16_at(b, at + 28)?);
    let end = usize::try_from(entry.compressed)
        .ok()
        .and_then(|c| start.checked_add(c))
        .ok_or_else(|| damaged("the archive is damaged"))?;
    let data = b.get(start..end).ok_or_else(|| damaged(format!("the archive's entry {} is cut short", entry.name)))?;
    let inner: Box<dyn Read + 'a> = match entry.method {
        0 => Box::new(data),
        8 => Box::new(flate2::read::DeflateDecoder::new(data)),
        other => {
            return Err(damaged(format!("the archive's entry {} uses compression {other}, not deflate", entry.name)));
        }
    };
    let bounded = Bounded { inner, left: limit, limit, name: entry.name.clone() };
    Ok(Reader::from_reader(BufReader::new(bounded)))
}

/// An inflating reader that fails once more than its limit came out (a ZIP bomb stops there).
struct Bounded<'a> {
    inner: Box<dyn Read + 'a>,
    left: u64,
    limit: u64,
    name: String,
}

impl Read for Bounded<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.left = self.left.checked_sub(read as u64).ok_or_else(|| {
            std::io::Error::other(format!(
                "the archive's entry {} is larger than {} once unpacked",
                self.name,
                size_text(self.limit)
            ))
        })?;
        Ok(read)
    }
}

/// A size as people read it: whole MiB, or KiB below one.
fn size_text(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB { format!("{} MiB", bytes / MIB) } else { format!("{} KiB", bytes.div_ceil(1024)) }
}

/// The next event, its bytes in `buf` (cleared first).
fn next_event<'b, R: BufRead>(reader: &mut Reader<R>, buf: &'b mut Vec<u8>) -> Result<Event<'b>, SheetError> {
    buf.clear();
    reader.read_event_into(buf).map_err(|e| match e {
        // The unpacking limit speaks for itself.
        quick_xml::Error::Io(io) => SheetError::Unpack(io),
        other => xml_error(other),
    })
}

fn xml_error(e: impl std::error::Error + Send + Sync + 'static) -> SheetError {
    SheetError::Xml(Box::new(e))
}

/// Text, with character and predefined entity references resolved, paid for from `budget`
/// before it is copied.
fn push_event_text(event: &Event<'_>, into: &mut String, budget: &mut TextBudget) -> Result<(), SheetError> {
    let text = event_text(event)?;
    budget.take(text.len())?;
    into.push_str(&text);
    Ok(())
}

fn event_text<'e>(event: &'e Event<'_>) -> Result<Cow<'e, str>, SheetError> {
    Ok(match event {
        Event::Text(t) => t.decode().map_err(xml_error)?,
        Event::CData(c) => Cow::Borrowed(std::str::from_utf8(c.as_ref()).map_err(xml_error)?),
        Event::GeneralRef(r) => match r.resolve_char_ref().map_err(xml_error)? {
            Some(c) => Cow::Owned(c.to_string()),
            None => Cow::Borrowed(match r.decode().map_err(xml_error)?.as_ref() {
                "amp" => "&",
                "lt" => "<",
                "gt" => ">",
                "quot" => "\"",
                "apos" => "'",
                other => {
                    return Err(SheetError::Content(format!("the workbook's XML names an unknown entity &{other};")));
                }
            }),
        },
        _ => Cow::Borrowed(""),
    })
}

/// A shared string: its text, or `TooLong` when it has more characters than a cell may (it is
/// not kept; only a cell naming it is refused).
enum Shared {
    Text(String),
    TooLong,
}

/// The shared strings table: each `<si>`'s text (its runs joined).
fn shared_strings(
    mut reader: Reader<impl BufRead>,
    cell_chars: usize,
    budget: &mut TextBudget,
) -> Result<Vec<Shared>, SheetError> {
    let mut strings = Vec::new();
    let (mut current, mut chars, mut in_si, mut in_t) = (String::new(), 0usize, false, false);
    let mut buf = Vec::new();
    loop {
        let event = next_event(&mut reader, &mut buf)?;
        match &event {
            Event::Start(e) if e.local_name().as_ref() == b"si" => (in_si, current, chars) = (true, String::new(), 0),
            Event::Start(e) if e.local_name().as_ref() == b"t" => in_t = in_si,
            Event::End(e) if e.local_name().as_ref() == b"t" => in_t = false,
            Event::End(e) if e.local_name().as_ref() == b"si" => {
                in_si = false;
                budget.take(std::mem::size_of::<Shared>())?;
                strings.push(if chars > cell_chars {
                    Shared::TooLong
                } else {
                    Shared::Text(std::mem::take(&mut current))
                });
            }
            Event::Empty(e) if e.local_name().as_ref() == b"si" => {
                budget.take(std::mem::size_of::<Shared>())?;
                strings.push(Shared::Text(String::new()));
            }
            Event::Eof => return Ok(strings),
            other if in_t && chars <= cell_chars => {
                let text = event_text(other)?;
                chars += text.chars().count();
                if chars > cell_chars {
                    // What is never copied into a cell need not be kept.
                    budget.give_back(current.len());
                    current = String::new();
                } else {
                    budget.take(text.len())?;
                    current.push_str(&text);
                }
            }
            _ => {}
        }
    }
}

/// A cell being read: its column, type and text.
#[derive(Default)]
struct Cell {
    column: usize,
    kind: String,
    text: String,
}

fn cell_start(e: &BytesStart<'_>) -> Result<Cell, SheetError> {
    let mut cell = Cell::default();
    for attribute in e.attributes() {
        let attribute = attribute.map_err(xml_error)?;
        let value = attribute.unescape_value().map_err(xml_error)?;
        match attribute.key.as_ref() {
            b"r" => {
                cell.column = column_of(&value)
                    .ok_or_else(|| SheetError::Content(format!("a cell reference {value:?} is not A1-style")))?
            }
            b"t" => cell.kind = value.into_owned(),
            _ => {}
        }
    }
    Ok(cell)
}

/// The 0-based column of an `A1`-style reference.
fn column_of(reference: &str) -> Option<usize> {
    let letters: String = reference.chars().take_while(char::is_ascii_uppercase).collect();
    if letters.is_empty() || letters.len() > 3 {
        return None;
    }
    let n = letters.bytes().fold(0usize, |n, b| n * 26 + usize::from(b - b'A') + 1);
    (n <= MAX_COLUMN).then(|| n - 1)
}

/// The rows of a worksheet (row number, cells by column), within the limits.
fn sheet_rows(
    mut reader: Reader<impl BufRead>,
    shared: &[Shared],
    limits: Limits,
    budget: &mut TextBudget,
) -> Result<Vec<(usize, Vec<String>)>, SheetError> {
    let mut rows: Vec<(usize, Vec<String>)> = Vec::new();
    let (mut cell, mut in_value) = (None::<Cell>, false);
    let mut buf = Vec::new();
    loop {
        let event = next_event(&mut reader, &mut buf)?;
        match &event {
            Event::Start(e) if e.local_name().as_ref() == b"row" => {
                if rows.len() > limits.rows {
                    return Err(SheetError::Limit(format!("the worksheet has more than {} rows", limits.rows)));
                }
                let number = e
                    .try_get_attribute("r")
                    .map_err(xml_error)?
                    .and_then(|a| std::str::from_utf8(&a.value).ok().and_then(|v| v.parse().ok()))
                    .unwrap_or(rows.last().map_or(1, |(n, _)| n + 1));
                rows.push((number, Vec::new()));
            }
            Event::Start(e) if e.local_name().as_ref() == b"c" => cell = Some(cell_start(e)?),
            Event::Start(e) if matches!(e.local_name().as_ref(), b"v" | b"t") => in_value = cell.is_some(),
            Event::End(e) if matches!(e.local_name().as_ref(), b"v" | b"t") => in_value = false,
            Event::End(e) if e.local_name().as_ref() == b"c" => {
                if let (Some(done), Some((_, cells))) = (cell.take(), rows.last_mut()) {
                    place(cells, done, shared, limits, budget)?;
                }
            }
            Event::Eof => return Ok(rows),
            other if in_value => {
                if let Some(current) = cell.as_mut() {
                    push_event_text(other, &mut current.text, budget)?;
                    if current.text.chars().count() > limits.cell_chars {
                        return Err(too_long(limits));
                    }
                }
            }
            _ => {}
        }
    }
}

/// A cell over the length limit.
fn too_long(limits: Limits) -> SheetError {
    SheetError::Limit(format!("a cell is longer than {} characters", limits.cell_chars))
}

fn place(
    cells: &mut Vec<String>,
    cell: Cell,
    shared: &[Shared],
    limits: Limits,
    budget: &mut TextBudget,
) -> Result<(), SheetError> {
    if cell.column >= limits.columns {
        return Err(SheetError::Limit(format!("a row has cells beyond column {}", limits.columns)));
    }
    let text = match cell.kind.as_str() {
        "s" => {
            let index: usize = cell
                .text
                .trim()
                .parse()
                .map_err(|_| SheetError::Content("a shared string index is not a number".into()))?;
            budget.give_back(cell.text.len());
            match shared
                .get(index)
                .ok_or_else(|| SheetError::Content("a cell names a shared string that does not exist".into()))?
            {
                // Each copy is paid for before it is made: the copies are what a bomb multiplies.
                Shared::Text(named) => {
                    budget.take(named.len())?;
                    named.clone()
                }
                Shared::TooLong => return Err(too_long(limits)),
            }
        }
        "b" => if cell.text.trim() == "1" { "TRUE" } else { "FALSE" }.to_string(),
        _ => cell.text,
    };
    if cells.len() <= cell.column {
        cells.resize(cell.column + 1, String::new());
    }
    cells[cell.column] = text;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    const LIMITS: Limits = Limits { rows: 100, columns: 10, cell_chars: 500 };
    const BUDGET: SheetBudget = SheetBudget { part_bytes: 1024 * 1024, text_bytes: 64 * 1024 };

    /// A ZIP archive of deflated entries, as much of one as the reader looks at.
    fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let (mut out, mut directory) = (Vec::new(), Vec::new());
        for (name, content) in entries {
            let mut deflate = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
            deflate.write_all(content).expect("deflate");
            let packed = deflate.finish().expect("deflate");
            let offset = out.len() as u32;
            let sizes = [(packed.len() as u32).to_le_bytes(), (content.len() as u32).to_le_bytes()].concat();
            out.extend(0x0403_4b50u32.to_le_bytes());
            out.extend([20, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            out.extend(&sizes);
            out.extend((name.len() as u16).to_le_bytes());
            out.extend([0, 0]);
            out.extend(name.as_bytes());
            out.extend(&packed);
            directory.extend(0x0201_4b50u32.to_le_bytes());
            directory.extend([20, 0, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            directory.extend(&sizes);
            directory.extend((name.len() as u16).to_le_bytes());
            directory.extend([0; 12]);
            directory.extend(offset.to_le_bytes());
            directory.extend(name.as_bytes());
        }
        let at = out.len() as u32;
        out.extend(&directory);
        out.extend(0x0605_4b50u32.to_le_bytes());
        out.extend([0, 0, 0, 0]);
        out.extend([(entries.len() as u16).to_le_bytes(), (entries.len() as u16).to_le_bytes()].concat());
        out.extend((directory.len() as u32).to_le_bytes());
        out.extend(at.to_le_bytes());
        out.extend([0, 0]);
        out
    }

    /// A workbook whose shared string `text` is named by `copies` cells (ten a row).
    fn workbook(text: &str, copies: usize) -> Vec<u8> {
        let shared = format!("<sst><si><t>name</t></si><si><t>{text}</t></si></sst>");
        let mut sheet = String::from("<worksheet><sheetData><row r=\"1\">");
        for column in b'A'..=b'J' {
            sheet.push_str(&format!("<c r=\"{}1\" t=\"s\"><v>0</v></c>", char::from(column)));
        }
        sheet.push_str("</row>");
        for row in 0..copies.div_ceil(10) {
            sheet.push_str(&format!("<row r=\"{}\">", row + 2));
            for column in 0..10.min(copies - row * 10) {
                let letter = char::from(b'A' + column as u8);
                sheet.push_str(&format!("<c r=\"{letter}{}\" t=\"s\"><v>1</v></c>", row + 2));
            }
            sheet.push_str("</row>");
        }
        sheet.push_str("</sheetData></worksheet>");
        zip(&[("xl/sharedStrings.xml", shared.as_bytes()), ("xl/worksheets/sheet1.xml", sheet.as_bytes())])
    }

    #[test]
    fn columns_and_what_is_not_a_workbook() {
        assert_eq!(
            (column_of("A1"), column_of("Z9"), column_of("AA10"), column_of("XFD1")),
            (Some(0), Some(25), Some(26), Some(16_383))
        );
        assert_eq!((column_of("1A"), column_of("XFE1")), (None, None));
        assert!(read_first_sheet(b"PK\x03\x04 not really", LIMITS, BUDGET).is_err());
        assert!(!is_xlsx(b"signer1.email\n"));
        let table = read_first_sheet(&workbook("Asha &amp; co", 3), LIMITS, BUDGET).expect("a small workbook");
        let mut row = vec!["Asha & co".to_string(); 3];
        row.resize(10, String::new());
        assert_eq!(table.rows, [(2, row)]);
    }

    #[test]
    fn a_long_shared_string_is_refused_in_a_cell_and_never_copied() {
        let long = "x".repeat(100_000);
        let bomb = workbook(&long, 1);
        assert!(bomb.len() < 2_000, "a tiny file: {}", bomb.len());
        let refused = read_first_sheet(&bomb, LIMITS, SheetBudget { text_bytes: 1024 * 1024, ..BUDGET });
        assert_eq!(refused.err().map(|e| e.to_string()).as_deref(), Some("a cell is longer than 500 characters"));
    }

    #[test]
    fn copies_of_shared_strings_stop_at_the_text_budget() {
        // 400 characters (within a cell's 500) named 400 times: 160 KB of copies from 3 KB.
        let bomb = workbook(&"y".repeat(400), 400);
        assert!(bomb.len() < 4_000, "a tiny file: {}", bomb.len());
        let refused = read_first_sheet(&bomb, LIMITS, BUDGET).expect_err("over the budget").to_string();
        assert!(refused.contains("more than 64 KiB of text once read"), "{refused}");
        let read = read_first_sheet(&bomb, LIMITS, SheetBudget { text_bytes: 1024 * 1024, ..BUDGET });
        assert!(read.is_ok(), "{read:?}");
    }

    #[test]
    fn a_part_stops_inflating_at_its_limit() {
        let shared = format!("<sst><si><t>{}</t></si></sst>", " ".repeat(2 * 1024 * 1024));
        let sheet = b"<worksheet><sheetData></sheetData></worksheet>";
        let bomb = zip(&[("xl/sharedStrings.xml", shared.as_bytes()), ("xl/worksheets/sheet1.xml", sheet)]);
        let refused = read_first_sheet(&bomb, LIMITS, BUDGET).expect_err("over the part limit").to_string();
        assert!(refused.contains("larger than 1 MiB once unpacked"), "{refused}");
    }
}
