//! The evidence pack's ZIP archive: a writer of stored (uncompressed) entries and a bounded
//! reader of exactly such archives. No ZIP crate is in the tree (the XLSX reader in
//! `platform/sheets.rs` reads deflated workbook parts into XML and nothing else), and a pack
//! needs very little of the format: its PDFs are compressed already, so storing them costs
//! nothing, and a reader that inflates nothing cannot be made to inflate a bomb. Only the
//! CRC-32 is borrowed (`crc32fast`, already in the tree through flate2).

use std::collections::BTreeSet;

const LOCAL_HEADER: u32 = 0x0403_4b50;
const CENTRAL_HEADER: u32 = 0x0201_4b50;
const END_OF_DIRECTORY: u32 = 0x0605_4b50;
const LOCAL_HEADER_LEN: usize = 30;
const CENTRAL_HEADER_LEN: usize = 46;
const END_LEN: usize = 22;
/// Bit 11: the names are UTF-8.
const UTF8_NAMES: u16 = 0x0800;
/// 1 January 1980, the format's earliest date (the pack's own time is in its manifest).
const DOS_DATE: u16 = 0x0021;
/// Most entries a pack may hold: a workflow's documents and a report each, and a few more.
pub const MAX_ENTRIES: usize = 1000;
/// Longest entry name accepted.
const MAX_NAME_LEN: usize = 255;

/// Why an archive cannot be written or read (the entry's name in the text, where one is at fault).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ZipError(pub String);

fn damaged(message: impl Into<String>) -> ZipError {
    ZipError(message.into())
}

/// Writes an archive of stored entries, in the order given. Fails past what the format holds
/// without ZIP64 (65,535 entries, 4 GiB), which a pack of one workflow does not reach.
#[derive(Default)]
pub struct ZipWriter {
    out: Vec<u8>,
    directory: Vec<u8>,
    names: BTreeSet<String>,
}

impl ZipWriter {
    pub fn add(&mut self, name: &str, data: &[u8]) -> Result<(), ZipError> {
        check_name(name)?;
        if !self.names.insert(name.to_string()) {
            return Err(damaged(format!("{name}: named twice")));
        }
        if self.names.len() > MAX_ENTRIES {
            return Err(damaged(format!("more than {MAX_ENTRIES} entries")));
        }
        let too_big = || damaged(format!("{name}: the archive would pass 4 GiB"));
        let offset = u32::try_from(self.out.len()).map_err(|_| too_big())?;
        let size = u32::try_from(data.len()).map_err(|_| too_big())?;
        let crc = crc32fast::hash(data);
        let name_len = name.len() as u16; // at most MAX_NAME_LEN, checked above
        // The fields both headers share: version needed, flags, method (0, stored), time, date,
        // CRC-32, both sizes, name length.
        let mut common = Vec::with_capacity(26);
        common.extend(20u16.to_le_bytes());
        common.extend(UTF8_NAMES.to_le_bytes());
        common.extend(0u16.to_le_bytes());
        common.extend(0u16.to_le_bytes());
        common.extend(DOS_DATE.to_le_bytes());
        common.extend(crc.to_le_bytes());
        common.extend(size.to_le_bytes());
        common.extend(size.to_le_bytes());
        common.extend(name_len.to_le_bytes());
        self.out.extend(LOCAL_HEADER.to_le_bytes());
        self.out.extend(&common);
        self.out.extend(0u16.to_le_bytes()); // extra field length
        self.out.extend(name.as_bytes());
        self.out.extend(data);
        self.directory.extend(CENTRAL_HEADER.to_le_bytes());
        self.directory.extend(20u16.to_le_bytes()); // made by
        self.directory.extend(&common);
        self.directory.extend([0u8; 12]); // extra, comment, disk, internal and external attributes
        self.directory.extend(offset.to_le_bytes());
        self.directory.extend(name.as_bytes());
        if self.out.len() + self.directory.len() + END_LEN > u32::MAX as usize {
            return Err(too_big());
        }
        Ok(())
    }

    pub fn finish(mut self) -> Vec<u8> {
        let count = self.names.len() as u16; // at most MAX_ENTRIES
        let at = self.out.len() as u32; // bounded in `add`
        let directory_len = self.directory.len() as u32;
        self.out.append(&mut self.directory);
        self.out.extend(END_OF_DIRECTORY.to_le_bytes());
        self.out.extend([0u8; 4]); // this disk, the directory's disk
        self.out.extend(count.to_le_bytes());
        self.out.extend(count.to_le_bytes());
        self.out.extend(directory_len.to_le_bytes());
        self.out.extend(at.to_le_bytes());
        self.out.extend(0u16.to_le_bytes()); // comment length
        self.out
    }
}

/// One entry as read: its name, its bytes (borrowed from the archive), and whether they still
/// match the CRC-32 recorded for them.
#[derive(Debug)]
pub struct ZipEntry<'a> {
    pub name: String,
    pub data: &'a [u8],
    pub crc_matches: bool,
}

/// Reads an archive of stored entries: at most [`MAX_ENTRIES`], each inside the archive
/// (so no entry is larger than the file itself), with a relative name that leads nowhere
/// outside the pack (no `..`, no absolute path, no backslash), each name once. A changed byte
/// is not an error here: the entry reads with `crc_matches` false, for the caller to name.
pub fn read(archive: &[u8]) -> Result<Vec<ZipEntry<'_>>, ZipError> {
    let end = end_of_directory(archive)?;
    let count = usize::from(u16_at(archive, end + 10)?);
    if count > MAX_ENTRIES {
        return Err(damaged(format!("the archive holds {count} entries, more than {MAX_ENTRIES}")));
    }
    let mut at = u32_at(archive, end + 16)? as usize;
    let mut names = BTreeSet::new();
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        let (entry, next) = central_entry(archive, at, end)?;
        if !names.insert(entry.name.clone()) {
            return Err(damaged(format!("{}: named twice", entry.name)));
        }
        entries.push(entry);
        at = next;
    }
    Ok(entries)
}

/// Where the end-of-directory record starts (searched back over at most a maximal comment).
fn end_of_directory(archive: &[u8]) -> Result<usize, ZipError> {
    let last = archive.len().checked_sub(END_LEN).ok_or_else(|| damaged("the file is not a ZIP archive"))?;
    let first = last.saturating_sub(usize::from(u16::MAX));
    (first..=last)
        .rev()
        .find(|&at| u32_at(archive, at).is_ok_and(|sig| sig == END_OF_DIRECTORY))
        .ok_or_else(|| damaged("the file is not a ZIP archive (no end of directory)"))
}

/// The entry whose directory record starts at `at`, and where the next record starts.
fn central_entry(archive: &[u8], at: usize, end: usize) -> Result<(ZipEntry<'_>, usize), ZipError> {
    if at + CENTRAL_HEADER_LEN > end || u32_at(archive, at)? != CENTRAL_HEADER {
        return Err(damaged("the ZIP directory is damaged"));
    }
    let flags = u16_at(archive, at + 8)?;
    let method = u16_at(archive, at + 10)?;
    let crc = u32_at(archive, at + 16)?;
    let packed = u32_at(archive, at + 20)? as usize;
    let size = u32_at(archive, at + 24)? as usize;
    let name_len = usize::from(u16_at(archive, at + 28)?);
    let extra_len = usize::from(u16_at(archive, at + 30)?);
    let comment_len = usize::from(u16_at(archive, at + 32)?);
    let offset = u32_at(archive, at + 42)? as usize;
    let name_bytes = slice(archive, at + CENTRAL_HEADER_LEN, name_len)?;
    let name = std::str::from_utf8(name_bytes).map_err(|_| damaged("an entry's name is not UTF-8"))?.to_string();
    check_name(&name)?;
    if method != 0 || packed != size || flags & 0x0009 != 0 {
        return Err(damaged(format!("{name}: not a plainly stored entry (compressed, encrypted or streamed)")));
    }
    let data = local_data(archive, offset, name_bytes, size, end).map_err(|e| damaged(format!("{name}: {}", e.0)))?;
    let next = at + CENTRAL_HEADER_LEN + name_len + extra_len + comment_len;
    Ok((ZipEntry { crc_matches: crc32fast::hash(data) == crc, name, data }, next))
}

/// The bytes of an entry from its local header, which must name it as the directory does and
/// lie before the directory.
fn local_data<'a>(
    archive: &'a [u8],
    offset: usize,
    name: &[u8],
    size: usize,
    end: usize,
) -> Result<&'a [u8], ZipError> {
    if u32_at(archive, offset)? != LOCAL_HEADER {
        return Err(damaged("no local header where the directory points"));
    }
    let local_name_len = usize::from(u16_at(archive, offset + 26)?);
    let extra_len = usize::from(u16_at(archive, offset + 28)?);
    if slice(archive, offset + LOCAL_HEADER_LEN, local_name_len)? != name {
        return Err(damaged("the local header names another entry"));
    }
    let start = offset + LOCAL_HEADER_LEN + local_name_len + extra_len;
    if start.checked_add(size).is_none_or(|stop| stop > end) {
        return Err(damaged("the entry runs past the archive's files"));
    }
    slice(archive, start, size)
}

/// A name that stays inside the pack when unpacked: relative, `/`-separated, no `.` or `..`
/// component, no backslash or control character, at most [`MAX_NAME_LEN`] bytes.
fn check_name(name: &str) -> Result<(), ZipError> {
    let refused = |why: &str| damaged(format!("entry name {name:?} {why}"));
    if name.is_empty() || name.len() > MAX_NAME_LEN {
        return Err(refused("is empty or too long"));
    }
    if name.chars().any(|c| c == '\\' || c == ':' || c.is_control()) {
        return Err(refused("holds a backslash, colon or control character"));
    }
    if name.split('/').any(|part| part.is_empty() || part == "." || part == "..") {
        return Err(refused("is absolute or leads out of the pack"));
    }
    Ok(())
}

fn slice(b: &[u8], at: usize, len: usize) -> Result<&[u8], ZipError> {
    at.checked_add(len).and_then(|stop| b.get(at..stop)).ok_or_else(|| damaged("the ZIP archive is cut short"))
}

fn u16_at(b: &[u8], at: usize) -> Result<u16, ZipError> {
    let s = slice(b, at, 2)?;
    Ok(u16::from_le_bytes([s[0], s[1]]))
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, ZipError> {
    let s = slice(b, at, 4)?;
    Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut writer = ZipWriter::default();
        for (name, data) in entries {
            writer.add(name, data).expect("add");
        }
        writer.finish()
    }

    #[test]
    fn what_is_written_reads_back_and_unzip_agrees() {
        let bytes = archive(&[("manifest.json", b"{}"), ("documents/1-a.pdf", b"%PDF-1.7 body")]);
        let entries = read(&bytes).expect("read");
        let names: Vec<_> = entries.iter().map(|e| (e.name.as_str(), e.data, e.crc_matches)).collect();
        assert_eq!(names, [("manifest.json", &b"{}"[..], true), ("documents/1-a.pdf", &b"%PDF-1.7 body"[..], true)]);
        // An outside reader accepts the archive as written (Python's zipfile checks the CRCs).
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("pack.zip");
        std::fs::write(&path, &bytes).expect("write");
        let script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\n\
                      print(','.join(z.namelist()))";
        let out = std::process::Command::new("python3").arg("-c").arg(script).arg(&path).output().expect("python3");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "manifest.json,documents/1-a.pdf");
    }

    #[test]
    fn a_changed_byte_reads_with_its_crc_failing() {
        let mut bytes = archive(&[("a.json", b"{\"x\":1}"), ("b.json", b"{\"y\":2}")]);
        let at = bytes.windows(7).position(|w| w == b"{\"y\":2}").expect("b's data");
        bytes[at + 5] ^= 1;
        let entries = read(&bytes).expect("read");
        assert!(entries[0].crc_matches);
        assert!(!entries[1].crc_matches);
    }

    #[test]
    fn names_that_leave_the_pack_are_refused_both_ways() {
        for name in ["../etc/passwd", "/abs", "a//b", "a/./b", "c:\\x", "a\\..\\b", ""] {
            assert!(ZipWriter::default().add(name, b"x").is_err(), "{name}");
        }
        // Written past the writer's check (same length, patched), the reader refuses it too.
        let mut bytes = archive(&[("aa/passwd", b"x")]);
        for at in (0..bytes.len() - 9).filter(|&i| &bytes[i..i + 9] == b"aa/passwd").collect::<Vec<_>>() {
            bytes[at..at + 3].copy_from_slice(b"../");
        }
        let err = read(&bytes).expect_err("traversal");
        assert!(err.0.contains("leads out of the pack"), "{err}");
    }

    #[test]
    fn damaged_archives_are_refused_not_trusted() {
        assert!(read(b"").is_err());
        assert!(read(b"PK\x05\x06 not really").is_err());
        let bytes = archive(&[("a.json", b"{}")]);
        // Cut anywhere, the archive no longer reads.
        for cut in [1, 10, bytes.len() / 2, bytes.len() - 1] {
            assert!(read(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        // A directory that says the entry is larger than the archive holds.
        let mut bigger = bytes.clone();
        let central = bigger.windows(4).position(|w| w == CENTRAL_HEADER.to_le_bytes()).expect("central");
        bigger[central + 20..central + 28].copy_from_slice(&[0xff, 0xff, 0, 0, 0xff, 0xff, 0, 0]);
        assert!(read(&bigger).expect_err("too big").0.contains("runs past"));
    }
}
