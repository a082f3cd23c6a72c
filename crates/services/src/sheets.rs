//! The first worksheet of an XLSX workbook as a table of text, for bulk send: what Excel,
//! LibreOffice and openpyxl write (a ZIP of XML parts: `xl/worksheets/sheet1.xml` and the
//! shared strings). Bounded against hostile files: the archive's size and entry count, each
//! part's inflated size (a ZIP bomb stops at the limit), the rows and columns kept; formulas
//! are not evaluated (their cached value is read, as for any cell).

use std::io::Read;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use signet_domain::csv::{Limits, Table};

/// Largest archive read.
pub const MAX_XLSX_BYTES: usize = 5 * 1024 * 1024;
/// Largest part once inflated.
const MAX_PART_BYTES: u64 = 50 * 1024 * 1024;
/// Most entries in the archive's directory.
const MAX_ENTRIES: usize = 10_000;
/// Furthest column letter read (`XFD` is Excel's last).
const MAX_COLUMN: usize = 16_384;

/// Whether `bytes` look like a ZIP archive (an XLSX file).
pub fn is_xlsx(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// The first worksheet as a header and rows, with each row's number as its line.
pub fn read_first_sheet(bytes: &[u8], limits: Limits) -> Result<Table, String> {
    if bytes.len() > MAX_XLSX_BYTES {
        return Err("the workbook is larger than 5 MiB".into());
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
        .ok_or("the file is a ZIP archive but not an XLSX workbook (no worksheet)")?;
    let shared = match entries.iter().find(|e| e.name == "xl/sharedStrings.xml") {
        Some(entry) => shared_strings(&inflate(bytes, entry)?)?,
        None => Vec::new(),
    };
    let rows = sheet_rows(&inflate(bytes, sheet)?, &shared, limits)?;
    let mut rows = rows.into_iter();
    let Some((_, header)) = rows.next() else { return Err("the worksheet is empty: it needs a header row".into()) };
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
        return Err(format!("row {line} has cells beyond the header's columns"));
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

fn u16_at(b: &[u8], at: usize) -> Result<u16, String> {
    b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]])).ok_or_else(|| "the ZIP archive is cut short".into())
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, String> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| "the ZIP archive is cut short".into())
}

/// The archive's central directory.
fn directory(b: &[u8]) -> Result<Vec<Entry>, String> {
    let search_from = b.len().saturating_sub(22 + 65_535);
    let end = (search_from..b.len().saturating_sub(21))
        .rev()
        .find(|&i| b[i..].starts_with(b"PK\x05\x06"))
        .ok_or("the file is not a readable ZIP archive")?;
    let count = usize::from(u16_at(b, end + 10)?);
    let mut at = u32_at(b, end + 16)? as usize;
    if count > MAX_ENTRIES {
        return Err("the archive has too many entries".into());
    }
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        if u32_at(b, at)? != 0x0201_4b50 {
            return Err("the ZIP directory is damaged".into());
        }
        let method = u16_at(b, at + 10)?;
        let compressed = u64::from(u32_at(b, at + 20)?);
        let name_len = usize::from(u16_at(b, at + 28)?);
        let extra_len = usize::from(u16_at(b, at + 30)?);
        let comment_len = usize::from(u16_at(b, at + 32)?);
        let local_offset = u32_at(b, at + 42)? as usize;
        let name = b.get(at + 46..at + 46 + name_len).ok_or("the ZIP directory is cut short")?;
        entries.push(Entry { name: String::from_utf8_lossy(name).into_owned(), method, compressed, local_offset });
        at += 46 + name_len + extra_len + comment_len;
    }
    Ok(entries)
}

/// An entry's content, inflated up to the limit.
fn inflate(b: &[u8], entry: &Entry) -> Result<String, String> {
    let at = entry.local_offset;
    if u32_at(b, at)? != 0x0403_4b50 {
        return Err(format!("the archive's entry {} is damaged", entry.name));
    }
    let start = at + 30 + usize::from(u16_at(b, at + 26)?) + usize::from(u16_at(b, at + 28)?);
    let end =
        usize::try_from(entry.compressed).ok().and_then(|c| start.checked_add(c)).ok_or("the archive is damaged")?;
    let data = b.get(start..end).ok_or_else(|| format!("the archive's entry {} is cut short", entry.name))?;
    let mut out = Vec::new();
    let read = match entry.method {
        0 => data.take(MAX_PART_BYTES + 1).read_to_end(&mut out),
        8 => flate2::read::DeflateDecoder::new(data).take(MAX_PART_BYTES + 1).read_to_end(&mut out),
        other => return Err(format!("the archive's entry {} uses compression {other}, not deflate", entry.name)),
    };
    read.map_err(|e| format!("the archive's entry {} cannot be read: {e}", entry.name))?;
    if out.len() as u64 > MAX_PART_BYTES {
        return Err(format!("the archive's entry {} is larger than 50 MiB once unpacked", entry.name));
    }
    String::from_utf8(out).map_err(|_| format!("the archive's entry {} is not UTF-8 XML", entry.name))
}

fn xml_error(e: impl std::fmt::Display) -> String {
    format!("the workbook's XML cannot be read: {e}")
}

/// Text, with character and predefined entity references resolved.
fn push_event_text(event: &Event<'_>, into: &mut String) -> Result<(), String> {
    match event {
        Event::Text(t) => into.push_str(&t.decode().map_err(xml_error)?),
        Event::CData(c) => into.push_str(std::str::from_utf8(c.as_ref()).map_err(xml_error)?),
        Event::GeneralRef(r) => match r.resolve_char_ref().map_err(xml_error)? {
            Some(c) => into.push(c),
            None => into.push_str(match r.decode().map_err(xml_error)?.as_ref() {
                "amp" => "&",
                "lt" => "<",
                "gt" => ">",
                "quot" => "\"",
                "apos" => "'",
                other => return Err(format!("the workbook's XML names an unknown entity &{other};")),
            }),
        },
        _ => {}
    }
    Ok(())
}

/// The shared strings table: each `<si>`'s text (its runs joined).
fn shared_strings(xml: &str) -> Result<Vec<String>, String> {
    let mut reader = Reader::from_str(xml);
    let (mut strings, mut current, mut in_si, mut in_t) = (Vec::new(), String::new(), false, false);
    loop {
        let event = reader.read_event().map_err(xml_error)?;
        match &event {
            Event::Start(e) if e.local_name().as_ref() == b"si" => (in_si, current) = (true, String::new()),
            Event::Start(e) if e.local_name().as_ref() == b"t" => in_t = in_si,
            Event::End(e) if e.local_name().as_ref() == b"t" => in_t = false,
            Event::End(e) if e.local_name().as_ref() == b"si" => {
                in_si = false;
                strings.push(std::mem::take(&mut current));
            }
            Event::Empty(e) if e.local_name().as_ref() == b"si" => strings.push(String::new()),
            Event::Eof => return Ok(strings),
            other if in_t => push_event_text(other, &mut current)?,
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

fn cell_start(e: &BytesStart<'_>) -> Result<Cell, String> {
    let mut cell = Cell::default();
    for attribute in e.attributes() {
        let attribute = attribute.map_err(xml_error)?;
        let value = attribute.unescape_value().map_err(xml_error)?;
        match attribute.key.as_ref() {
            b"r" => {
                cell.column = column_of(&value).ok_or_else(|| format!("a cell reference {value:?} is not A1-style"))?
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
fn sheet_rows(xml: &str, shared: &[String], limits: Limits) -> Result<Vec<(usize, Vec<String>)>, String> {
    let mut reader = Reader::from_str(xml);
    let mut rows: Vec<(usize, Vec<String>)> = Vec::new();
    let (mut cell, mut in_value) = (None::<Cell>, false);
    loop {
        let event = reader.read_event().map_err(xml_error)?;
        match &event {
            Event::Start(e) if e.local_name().as_ref() == b"row" => {
                if rows.len() > limits.rows {
                    return Err(format!("the worksheet has more than {} rows", limits.rows));
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
                    place(cells, done, shared, limits)?;
                }
            }
            Event::Eof => return Ok(rows),
            other if in_value => {
                if let Some(current) = cell.as_mut() {
                    push_event_text(other, &mut current.text)?;
                    if current.text.chars().count() > limits.cell_chars {
                        return Err(format!("a cell is longer than {} characters", limits.cell_chars));
                    }
                }
            }
            _ => {}
        }
    }
}

fn place(cells: &mut Vec<String>, cell: Cell, shared: &[String], limits: Limits) -> Result<(), String> {
    if cell.column >= limits.columns {
        return Err(format!("a row has cells beyond column {}", limits.columns));
    }
    let text = match cell.kind.as_str() {
        "s" => {
            let index: usize = cell.text.trim().parse().map_err(|_| "a shared string index is not a number")?;
            shared.get(index).cloned().ok_or("a cell names a shared string that does not exist")?
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
    use super::*;

    #[test]
    fn columns_and_what_is_not_a_workbook() {
        assert_eq!(
            (column_of("A1"), column_of("Z9"), column_of("AA10"), column_of("XFD1")),
            (Some(0), Some(25), Some(26), Some(16_383))
        );
        assert_eq!((column_of("1A"), column_of("XFE1")), (None, None));
        let limits = Limits { rows: 10, columns: 10, cell_chars: 10 };
        assert!(read_first_sheet(b"PK\x03\x04 not really", limits).is_err());
        assert!(!is_xlsx(b"signer1.email\n"));
    }
}
