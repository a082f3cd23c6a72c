//! An XLSX (Office Open XML workbook) written in one pass, for exports of up to a million rows
//! in constant memory. An XLSX is a ZIP of a few XML parts; the sheet is the only large one.
//! Each part is a deflated ZIP entry whose sizes and CRC-32 follow its data (a "data
//! descriptor", general-purpose flag bit 3), so nothing has to be known, or kept, before the
//! data is written; the central directory at the end holds a few dozen bytes per part.
//!
//! Cells are inline strings (`t="inlineStr"`) or numbers, so there is no shared-string table
//! to build (it would grow with the data). Inline strings are never formulas, so the
//! apostrophe that CSV needs against formula injection is not needed here.
//!
//! Limits: no ZIP64, so a part (and the whole file) must stay under 4 GiB; at the export limit
//! of a million rows a sheet is far below it, and the writer refuses to go past it rather than
//! write a broken file. A worksheet holds at most 1,048,576 rows.

use std::io::Write;

use flate2::Compression;
use flate2::write::DeflateEncoder;

/// Rows a worksheet can hold (Excel's limit, header included).
pub const MAX_ROWS: u64 = 1_048_576;
/// Characters a cell can hold (Excel's limit); longer text is cut.
const MAX_CELL_CHARS: usize = 32_767;

/// A cell of a row.
#[derive(Debug, Clone, PartialEq)]
pub enum XlsxCell<'a> {
    Number(i64),
    Text(&'a str),
    Empty,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XlsxError {
    /// Past the 4 GiB a ZIP without ZIP64 can address.
    TooLarge,
    /// Past the rows a worksheet can hold.
    TooManyRows,
}

impl std::fmt::Display for XlsxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            XlsxError::TooLarge => "the workbook would exceed 4 GiB",
            XlsxError::TooManyRows => "a worksheet holds at most 1,048,576 rows",
        })
    }
}

impl std::error::Error for XlsxError {}

/// Writes an XLSX of one sheet: `begin`, `row` for each row, `finish`. Each call appends the
/// bytes ready to be sent to `out`; what is held between calls is the deflate state and one
/// central-directory record per part.
pub struct XlsxWriter {
    /// Bytes written so far (where the next entry starts).
    offset: u64,
    entries: Vec<CentralEntry>,
    sheet: Option<Entry>,
    rows: u64,
}

struct CentralEntry {
    name: &'static str,
    crc: u32,
    compressed: u32,
    size: u32,
    offset: u32,
}

/// The ZIP entry being written.
struct Entry {
    name: &'static str,
    offset: u64,
    encoder: DeflateEncoder<Vec<u8>>,
    crc: flate2::Crc,
    compressed: u64,
}

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>"#;

const ROOT_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;

const WORKBOOK: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Export" sheetId="1" r:id="rId1"/></sheets></workbook>"#;

const WORKBOOK_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#;

const STYLES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs></styleSheet>"#;

const SHEET_START: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#;
const SHEET_END: &str = "</sheetData></worksheet>";

/// 1980-01-01 00:00 in MS-DOS form: the parts carry no meaningful time.
const DOS_TIME: u16 = 0;
const DOS_DATE: u16 = (1 << 5) | 1;
/// Bit 3: sizes and CRC follow the data.
const FLAG_DESCRIPTOR: u16 = 0x0008;
const METHOD_DEFLATE: u16 = 8;
const VERSION: u16 = 20;

impl Default for XlsxWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl XlsxWriter {
    pub fn new() -> XlsxWriter {
        XlsxWriter { offset: 0, entries: Vec::new(), sheet: None, rows: 0 }
    }

    /// The fixed parts, and the start of the sheet.
    pub fn begin(&mut self, out: &mut Vec<u8>) -> Result<(), XlsxError> {
        for (name, text) in [
            ("[Content_Types].xml", CONTENT_TYPES),
            ("_rels/.rels", ROOT_RELS),
            ("xl/workbook.xml", WORKBOOK),
            ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
            ("xl/styles.xml", STYLES),
        ] {
            let mut entry = self.start_entry(name, out);
            entry.write(text.as_bytes(), out)?;
            self.end_entry(entry, out)?;
        }
        let mut sheet = self.start_entry("xl/worksheets/sheet1.xml", out);
        sheet.write(SHEET_START.as_bytes(), out)?;
        self.sheet = Some(sheet);
        Ok(())
    }

    /// One row of the sheet.
    pub fn row(&mut self, cells: &[XlsxCell<'_>], out: &mut Vec<u8>) -> Result<(), XlsxError> {
        if self.rows >= MAX_ROWS {
            return Err(XlsxError::TooManyRows);
        }
        self.rows += 1;
        let xml = row_xml(self.rows, cells);
        match self.sheet.as_mut() {
            Some(sheet) => sheet.write(xml.as_bytes(), out),
            None => Ok(()),
        }
    }

    /// The end of the sheet and the central directory.
    pub fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), XlsxError> {
        if let Some(mut sheet) = self.sheet.take() {
            sheet.write(SHEET_END.as_bytes(), out)?;
            self.end_entry(sheet, out)?;
        }
        let directory_start = self.offset;
        let mut directory = Vec::new();
        for entry in &self.entries {
            central_record(entry, &mut directory);
        }
        let directory_size = directory.len() as u64;
        let count = u16::try_from(self.entries.len()).map_err(|_| XlsxError::TooLarge)?;
        directory.extend_from_slice(&0x0605_4b50_u32.to_le_bytes());
        directory.extend_from_slice(&[0, 0, 0, 0]);
        directory.extend_from_slice(&count.to_le_bytes());
        directory.extend_from_slice(&count.to_le_bytes());
        directory.extend_from_slice(&small(directory_size)?.to_le_bytes());
        directory.extend_from_slice(&small(directory_start)?.to_le_bytes());
        directory.extend_from_slice(&0_u16.to_le_bytes());
        self.emit(&directory, out);
        Ok(())
    }

    fn emit(&mut self, bytes: &[u8], out: &mut Vec<u8>) {
        self.offset += bytes.len() as u64;
        out.extend_from_slice(bytes);
    }

    fn start_entry(&mut self, name: &'static str, out: &mut Vec<u8>) -> Entry {
        let offset = self.offset;
        let mut header = Vec::with_capacity(30 + name.len());
        header.extend_from_slice(&0x0403_4b50_u32.to_le_bytes());
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&FLAG_DESCRIPTOR.to_le_bytes());
        header.extend_from_slice(&METHOD_DEFLATE.to_le_bytes());
        header.extend_from_slice(&DOS_TIME.to_le_bytes());
        header.extend_from_slice(&DOS_DATE.to_le_bytes());
        header.extend_from_slice(&[0; 12]); // CRC and sizes: in the descriptor
        header.extend_from_slice(&(name.len() as u16).to_le_bytes());
        header.extend_from_slice(&0_u16.to_le_bytes());
        header.extend_from_slice(name.as_bytes());
        self.emit(&header, out);
        Entry {
            name,
            offset,
            encoder: DeflateEncoder::new(Vec::new(), Compression::fast()),
            crc: flate2::Crc::new(),
            compressed: 0,
        }
    }

    fn end_entry(&mut self, mut entry: Entry, out: &mut Vec<u8>) -> Result<(), XlsxError> {
        let rest = entry.encoder.finish().map_err(|_| XlsxError::TooLarge)?;
        entry.compressed += rest.len() as u64;
        out.extend_from_slice(&rest);
        // The entry's data went to `out` from `Entry::write` and here: count it all once.
        self.offset += entry.compressed;
        let (crc, size) = (entry.crc.sum(), u64::from(entry.crc.amount()));
        let record = CentralEntry {
            name: entry.name,
            crc,
            compressed: small(entry.compressed)?,
            size: small(size)?,
            offset: small(entry.offset)?,
        };
        let mut descriptor = Vec::with_capacity(16);
        descriptor.extend_from_slice(&0x0807_4b50_u32.to_le_bytes());
        descriptor.extend_from_slice(&record.crc.to_le_bytes());
        descriptor.extend_from_slice(&record.compressed.to_le_bytes());
        descriptor.extend_from_slice(&record.size.to_le_bytes());
        self.emit(&descriptor, out);
        self.entries.push(record);
        Ok(())
    }
}

impl Entry {
    /// Compresses `data` and moves what the encoder produced so far to `out`.
    fn write(&mut self, data: &[u8], out: &mut Vec<u8>) -> Result<(), XlsxError> {
        self.crc.update(data);
        self.encoder.write_all(data).map_err(|_| XlsxError::TooLarge)?;
        let produced = std::mem::take(self.encoder.get_mut());
        self.compressed += produced.len() as u64;
        out.extend_from_slice(&produced);
        if self.compressed > u64::from(u32::MAX) || u64::from(self.crc.amount()) >= u64::from(u32::MAX) {
            return Err(XlsxError::TooLarge);
        }
        Ok(())
    }
}

fn small(value: u64) -> Result<u32, XlsxError> {
    u32::try_from(value).map_err(|_| XlsxError::TooLarge)
}

fn central_record(entry: &CentralEntry, out: &mut Vec<u8>) {
    out.extend_from_slice(&0x0201_4b50_u32.to_le_bytes());
    out.extend_from_slice(&VERSION.to_le_bytes()); // made by
    out.extend_from_slice(&VERSION.to_le_bytes()); // needed
    out.extend_from_slice(&FLAG_DESCRIPTOR.to_le_bytes());
    out.extend_from_slice(&METHOD_DEFLATE.to_le_bytes());
    out.extend_from_slice(&DOS_TIME.to_le_bytes());
    out.extend_from_slice(&DOS_DATE.to_le_bytes());
    out.extend_from_slice(&entry.crc.to_le_bytes());
    out.extend_from_slice(&entry.compressed.to_le_bytes());
    out.extend_from_slice(&entry.size.to_le_bytes());
    out.extend_from_slice(&(entry.name.len() as u16).to_le_bytes());
    out.extend_from_slice(&[0; 12]); // extra, comment, disk, internal and external attributes
    out.extend_from_slice(&entry.offset.to_le_bytes());
    out.extend_from_slice(entry.name.as_bytes());
}

/// `A`, `B`, ..., `Z`, `AA`, ...: the letters of the column `index` (from 0).
fn column_letters(mut index: usize) -> String {
    let mut letters = Vec::new();
    loop {
        letters.push(b'A' + (index % 26) as u8);
        if index < 26 {
            break;
        }
        index = index / 26 - 1;
    }
    letters.reverse();
    String::from_utf8(letters).unwrap_or_default()
}

fn row_xml(number: u64, cells: &[XlsxCell<'_>]) -> String {
    let mut xml = format!("<row r=\"{number}\">");
    for (i, cell) in cells.iter().enumerate() {
        let reference = format!("{}{number}", column_letters(i));
        match cell {
            XlsxCell::Number(n) => xml.push_str(&format!("<c r=\"{reference}\"><v>{n}</v></c>")),
            XlsxCell::Text(text) => {
                xml.push_str(&format!("<c r=\"{reference}\" t=\"inlineStr\"><is><t xml:space=\"preserve\">"));
                escape_into(text, &mut xml);
                xml.push_str("</t></is></c>");
            }
            XlsxCell::Empty => {}
        }
    }
    xml.push_str("</row>");
    xml
}

/// XML-escapes `text` (what XML 1.0 cannot carry dropped), cut at Excel's cell limit.
fn escape_into(text: &str, xml: &mut String) {
    let end = text.char_indices().nth(MAX_CELL_CHARS).map_or(text.len(), |(at, _)| at);
    signet_sigcrypto::xml::escape_into(&text[..end], xml);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workbook(rows: &[Vec<XlsxCell<'_>>]) -> Vec<u8> {
        let mut writer = XlsxWriter::new();
        let mut out = Vec::new();
        writer.begin(&mut out).expect("begin");
        for row in rows {
            writer.row(row, &mut out).expect("row");
        }
        writer.finish(&mut out).expect("finish");
        out
    }

    #[test]
    fn column_letters_count_like_a_spreadsheet() {
        assert_eq!(column_letters(0), "A");
        assert_eq!(column_letters(25), "Z");
        assert_eq!(column_letters(26), "AA");
        assert_eq!(column_letters(27), "AB");
        assert_eq!(column_letters(701), "ZZ");
        assert_eq!(column_letters(702), "AAA");
    }

    #[test]
    fn text_is_escaped_and_control_characters_dropped() {
        let xml = row_xml(3, &[XlsxCell::Text("a<b & \"c\"\u{1}"), XlsxCell::Number(-4), XlsxCell::Empty]);
        assert_eq!(
            xml,
            "<row r=\"3\"><c r=\"A3\" t=\"inlineStr\"><is><t xml:space=\"preserve\">a&lt;b &amp; &quot;c&quot;</t></is></c>\
             <c r=\"B3\"><v>-4</v></c></row>"
        );
    }

    /// The ZIP structure: every local header where the central directory says, each entry's
    /// data inflating to its recorded size and CRC.
    #[test]
    fn the_zip_is_consistent() {
        let rows: Vec<Vec<XlsxCell<'_>>> =
            (0..5000).map(|i| vec![XlsxCell::Number(i), XlsxCell::Text("some text =1+2")]).collect();
        let bytes = workbook(&rows);
        let end = bytes.len() - 22;
        assert_eq!(&bytes[end..end + 4], &[0x50, 0x4b, 0x05, 0x06]);
        let le32 = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize;
        let le16 = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
        let count = le16(end + 10);
        assert_eq!(count, 6);
        let mut at = le32(end + 16);
        for _ in 0..count {
            assert_eq!(le32(at), 0x0201_4b50);
            let (crc, compressed, size) = (le32(at + 16) as u32, le32(at + 20), le32(at + 24));
            let name_len = le16(at + 28);
            let local = le32(at + 42);
            assert_eq!(le32(local), 0x0403_4b50);
            let data = local + 30 + le16(local + 26);
            let mut inflated = Vec::new();
            let mut decoder = flate2::write::DeflateDecoder::new(&mut inflated);
            decoder.write_all(&bytes[data..data + compressed]).expect("inflate");
            decoder.finish().expect("inflate");
            assert_eq!(inflated.len(), size);
            let mut check = flate2::Crc::new();
            check.update(&inflated);
            assert_eq!(check.sum(), crc);
            assert_eq!(le32(data + compressed), 0x0807_4b50);
            at += 46 + name_len;
        }
    }
}
