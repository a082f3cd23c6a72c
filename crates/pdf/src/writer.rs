//! Incremental update writer: appends objects after the original bytes (never touching them) and
//! closes the update with an xref of the same kind as the previous section (table after table,
//! stream after stream), or a complete xref when the original one had to be rebuilt.

use std::collections::BTreeMap;

use crate::error::Result;
use crate::object::{Dict, ObjRef, Object, write_object};
use crate::reader::{Document, XrefEntry, XrefKind};

/// Something that stores a new object and hands back its reference.
pub trait ObjSink {
    fn add(&mut self, obj: Object) -> ObjRef;
}

pub struct Writer {
    /// Length of the original file: offsets in `buf` are relative to it.
    base: u64,
    pub buf: Vec<u8>,
    written: BTreeMap<u32, (u64, u16)>,
    next_num: u32,
}

impl ObjSink for Writer {
    fn add(&mut self, obj: Object) -> ObjRef {
        let r = self.alloc();
        self.put(r, &obj);
        r
    }
}

impl Writer {
    pub fn new(doc: &Document<'_>) -> Result<Self> {
        let base = doc.len();
        let last = doc.source().window(base.saturating_sub(1), 1)?;
        let mut buf = Vec::with_capacity(64 * 1024);
        // The original must end with an EOL before our first object.
        if !matches!(last.first(), Some(b'\n' | b'\r')) {
            buf.push(b'\n');
        }
        let size = doc.trailer.int("Size").unwrap_or(0).clamp(0, u32::MAX as i64) as u32;
        let max_used = doc.xref.keys().max().map_or(0, |m| m.saturating_add(1));
        // Leave room for the objects an update adds (a few thousand at most).
        if max_used.max(size) > u32::MAX - 100_000 {
            return Err(crate::Error::Unsupported("object numbers near the 32-bit limit".into()));
        }
        Ok(Writer { base, buf, written: BTreeMap::new(), next_num: size.max(max_used).max(1) })
    }

    /// Absolute offset of the next byte written.
    pub fn pos(&self) -> u64 {
        self.base + self.buf.len() as u64
    }

    pub fn base(&self) -> u64 {
        self.base
    }

    pub fn alloc(&mut self) -> ObjRef {
        let r = ObjRef::new(self.next_num, 0);
        self.next_num += 1;
        r
    }

    /// Write (or re-write, for a modified object) `r` as a plain indirect object.
    pub fn put(&mut self, r: ObjRef, obj: &Object) {
        let mut body = Vec::new();
        write_object(&mut body, obj);
        self.put_raw(r, &body);
    }

    /// Write an object whose body is given as bytes; returns the absolute offset of the body.
    pub fn put_raw(&mut self, r: ObjRef, body: &[u8]) -> u64 {
        self.written.insert(r.num, (self.pos(), r.generation));
        self.buf.extend_from_slice(format!("{} {} obj\n", r.num, r.generation).as_bytes());
        let at = self.pos();
        self.buf.extend_from_slice(body);
        self.buf.extend_from_slice(b"\nendobj\n");
        at
    }

    /// Append the xref section and trailer; returns the update bytes.
    pub fn finish(self, doc: &Document<'_>) -> Result<Vec<u8>> {
        let mut entries: BTreeMap<u32, XrefEntry> = BTreeMap::new();
        let full = doc.recovered;
        if full {
            // The original xref is unusable: this section must describe every object.
            entries.insert(0, XrefEntry::Free);
            for (num, e) in &doc.xref {
                if *e != XrefEntry::Free {
                    entries.insert(*num, *e);
                }
            }
        }
        for (num, (offset, generation)) in &self.written {
            entries.insert(*num, XrefEntry::InUse { offset: *offset, generation: *generation });
        }
        let has_compressed = entries.values().any(|e| matches!(e, XrefEntry::Compressed { .. }));
        let use_stream =
            if full { has_compressed } else { doc.sections.first().is_some_and(|s| s.kind == XrefKind::Stream) };
        let mut trailer = Dict::new();
        for key in ["Root", "Info", "ID"] {
            if let Some(v) = doc.trailer.get(key) {
                trailer.set(key, v.clone());
            }
        }
        if !full {
            trailer.set("Prev", Object::Int(doc.startxref as i64));
        }
        if use_stream { self.finish_stream(entries, trailer) } else { self.finish_table(entries, trailer) }
    }

    fn finish_table(mut self, entries: BTreeMap<u32, XrefEntry>, mut trailer: Dict) -> Result<Vec<u8>> {
        let xref_at = self.pos();
        self.buf.extend_from_slice(b"xref\n");
        for run in consecutive_runs(&entries) {
            let first = run[0].0;
            self.buf.extend_from_slice(format!("{} {}\n", first, run.len()).as_bytes());
            for (num, e) in run {
                let line = match e {
                    XrefEntry::InUse { offset, generation } => {
                        format!("{offset:010} {generation:05} n\r\n")
                    }
                    // Only object 0 is written free: the head of the (empty) free list.
                    _ => format!("{:010} {:05} f\r\n", 0, if num == 0 { 65535 } else { 0 }),
                };
                self.buf.extend_from_slice(line.as_bytes());
            }
        }
        let size = entries.keys().max().map_or(0, |m| m.saturating_add(1)).max(self.next_num);
        trailer.set("Size", Object::Int(size as i64));
        self.buf.extend_from_slice(b"trailer\n");
        write_object(&mut self.buf, &Object::Dict(trailer));
        self.buf.extend_from_slice(format!("\nstartxref\n{xref_at}\n%%EOF\n").as_bytes());
        Ok(self.buf)
    }

    fn finish_stream(mut self, mut entries: BTreeMap<u32, XrefEntry>, mut trailer: Dict) -> Result<Vec<u8>> {
        let me = self.alloc();
        let xref_at = self.pos();
        entries.insert(me.num, XrefEntry::InUse { offset: xref_at, generation: 0 });
        let max_offset = entries
            .values()
            .map(|e| match e {
                XrefEntry::InUse { offset, .. } => *offset,
                XrefEntry::Compressed { stream, .. } => *stream as u64,
                XrefEntry::Free => 0,
            })
            .max()
            .unwrap_or(0);
        let max_third = entries
            .values()
            .map(|e| match e {
                XrefEntry::InUse { generation, .. } => *generation as u64,
                XrefEntry::Compressed { index, .. } => *index as u64,
                XrefEntry::Free => 65535,
            })
            .max()
            .unwrap_or(0);
        let w2 = byte_width(max_offset).max(4);
        let w3 = byte_width(max_third).max(2);
        let mut data = Vec::new();
        let mut index = Vec::new();
        for run in consecutive_runs(&entries) {
            index.push(Object::Int(run[0].0 as i64));
            index.push(Object::Int(run.len() as i64));
            for (_, e) in run {
                let (t, f2, f3) = match e {
                    XrefEntry::Free => (0u64, 0u64, 65535u64),
                    XrefEntry::InUse { offset, generation } => (1, offset, generation as u64),
                    XrefEntry::Compressed { stream, index } => (2, stream as u64, index as u64),
                };
                data.push(t as u8);
                data.extend_from_slice(&f2.to_be_bytes()[8 - w2..]);
                data.extend_from_slice(&f3.to_be_bytes()[8 - w3..]);
            }
        }
        let size = entries.keys().max().map_or(0, |m| m.saturating_add(1)).max(self.next_num);
        trailer.set("Type", Object::name("XRef"));
        trailer.set("Size", Object::Int(size as i64));
        trailer.set("Index", Object::Array(index));
        trailer.set("W", Object::Array(vec![Object::Int(1), Object::Int(w2 as i64), Object::Int(w3 as i64)]));
        let stream =
            Object::Stream(crate::object::Stream { dict: trailer, data: crate::object::StreamData::Owned(data) });
        let mut body = Vec::new();
        write_object(&mut body, &stream);
        self.buf.extend_from_slice(format!("{} 0 obj\n", me.num).as_bytes());
        self.buf.extend_from_slice(&body);
        self.buf.extend_from_slice(b"\nendobj\n");
        self.buf.extend_from_slice(format!("startxref\n{xref_at}\n%%EOF\n").as_bytes());
        Ok(self.buf)
    }
}

fn byte_width(v: u64) -> usize {
    (8 - v.leading_zeros() as usize / 8).max(1)
}

/// Group sorted entries into runs of consecutive object numbers (xref subsections).
fn consecutive_runs(entries: &BTreeMap<u32, XrefEntry>) -> Vec<Vec<(u32, XrefEntry)>> {
    let mut runs: Vec<Vec<(u32, XrefEntry)>> = Vec::new();
    for (num, e) in entries {
        match runs.last_mut() {
            Some(run) if run.last().is_some_and(|(n, _)| n + 1 == *num) => run.push((*num, *e)),
            _ => runs.push(vec![(*num, *e)]),
        }
    }
    runs
}
