//! Lazy PDF reader: follows the xref chain from `startxref` and parses only the objects asked for.
//!
//! Handles classic xref tables, xref streams, hybrid files (`/XRefStm`), object streams,
//! incremental updates and linearized files (whose first-page xref simply chains to the main one).
//! When the xref is unusable it rebuilds one by scanning for `N G obj`, as mainstream viewers do.

use std::cell::{Cell, OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::error::{Error, Result, damaged, syntax};
use crate::filters::decode_stream_limited;
use crate::object::{Dict, ObjRef, Object, Stream, StreamData};
use crate::parser::{ParseError, Parser, parse_decimal};
use crate::source::Source;

const FIRST_WINDOW: usize = 4096;
/// Largest single object (or classic xref section) we agree to parse.
const MAX_WINDOW: usize = 256 * 1024 * 1024;
const MAX_SECTIONS: usize = 10_000;
const MAX_PAGES: usize = 1_000_000;
/// Objects whose loading needs other objects (an indirect `/Length`, an object stream) nest
/// only a few levels in real files; deeper is a loop in disguise.
const MAX_LOAD_DEPTH: usize = 16;
/// Decoded bytes kept in the object-stream cache; past this the cache starts over.
const MAX_OBJSTM_CACHE: usize = 64 << 20;
/// Largest decoded stream.
const MAX_DECODED_STREAM: u64 = 64 << 20;
/// Work (bytes parsed plus bytes decoded) allowed per document: a fixed part plus a multiple of
/// the file size, so big honest files fit and hostile ones cannot make reading quadratic.
const WORK_BASE: u64 = 64 << 20;
const WORK_PER_FILE_BYTE: u64 = 16;
/// `trailer` keywords tried (from the end) when rebuilding an xref.
const MAX_TRAILER_CANDIDATES: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XrefEntry {
    Free,
    InUse { offset: u64, generation: u16 },
    Compressed { stream: u32, index: u32 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XrefKind {
    Table,
    Stream,
}

/// One cross-reference section with its trailer, as found in the file.
#[derive(Debug, Clone)]
pub struct XrefSection {
    pub offset: u64,
    pub kind: XrefKind,
    pub trailer: Dict,
    pub entries: Vec<(u32, XrefEntry)>,
    /// A classic table whose trailer points to an additional xref stream (`/XRefStm`).
    pub hybrid: bool,
}

/// A page with its inherited attributes resolved.
#[derive(Debug, Clone)]
pub struct Page {
    pub id: ObjRef,
    pub dict: Dict,
    pub media_box: [f64; 4],
    pub crop_box: [f64; 4],
    /// Normalized to 0, 90, 180 or 270.
    pub rotate: i32,
}

struct ObjStmData {
    data: Vec<u8>,
    first: usize,
    /// (object number, offset relative to `first`)
    index: Vec<(u32, usize)>,
}

pub struct Document<'s> {
    src: Box<dyn Source + 's>,
    /// Newest first (the order of the `/Prev` chain).
    pub sections: Vec<XrefSection>,
    pub xref: HashMap<u32, XrefEntry>,
    pub trailer: Dict,
    /// The xref was rebuilt by scanning; an update must then carry a complete xref.
    pub recovered: bool,
    pub startxref: u64,
    /// Keyed by (stream number, offset): each revision reads its own version of a redefined
    /// object stream.
    objstms: RefCell<HashMap<(u32, u64), Rc<ObjStmData>>>,
    objstm_bytes: Cell<usize>,
    /// Objects being loaded right now (innermost last): re-entering one is a reference cycle.
    loading: RefCell<Vec<u32>>,
    work_done: Cell<u64>,
    work_limit: u64,
    /// Offsets of every `endstream` keyword, found once when a stream length must be guessed.
    endstreams: OnceCell<Vec<u64>>,
}

/// Pops the object from the loading stack when its load ends, however it ends.
struct Loading<'d> {
    stack: &'d RefCell<Vec<u32>>,
}

impl Drop for Loading<'_> {
    fn drop(&mut self) {
        self.stack.borrow_mut().pop();
    }
}

impl<'s> Document<'s> {
    /// Open a document: header check, xref chain (or recovery), refusal of encrypted files.
    pub fn open(src: impl Source + 's) -> Result<Self> {
        if src.is_empty() {
            return Err(Error::Empty);
        }
        check_header(&src)?;
        let mut doc = Self::new_empty(Box::new(src));
        if let Err(first_err) = doc.load_xref_chain() {
            if matches!(first_err, Error::Encrypted) {
                return Err(first_err);
            }
            // The chain's own error explains a failed rebuild better, unless the rebuild hit a
            // limit (then the file is hostile, whatever its xref says).
            doc.rebuild_xref().map_err(|e| if is_hard_limit(&e) { e } else { first_err })?;
        }
        if doc.trailer.get("Encrypt").is_some() {
            return Err(Error::Encrypted);
        }
        // A chain that parses but points at the wrong bytes shows up when the catalog is read;
        // a loop or a bomb would only come back from a rebuilt one.
        if let Err(e) = doc.catalog()
            && !doc.recovered
        {
            if is_hard_limit(&e) {
                return Err(e);
            }
            doc.rebuild_xref()?;
            if doc.trailer.get("Encrypt").is_some() {
                return Err(Error::Encrypted);
            }
        }
        doc.catalog()?;
        Ok(doc)
    }

    fn new_empty(src: Box<dyn Source + 's>) -> Self {
        let work_limit = WORK_BASE.saturating_add(src.len().saturating_mul(WORK_PER_FILE_BYTE));
        Document {
            objstm_bytes: Cell::new(0),
            loading: RefCell::new(Vec::new()),
            work_done: Cell::new(0),
            work_limit,
            endstreams: OnceCell::new(),
            src,
            sections: Vec::new(),
            xref: HashMap::new(),
            trailer: Dict::new(),
            recovered: false,
            startxref: 0,
            objstms: RefCell::new(HashMap::new()),
        }
    }

    pub fn len(&self) -> u64 {
        self.src.len()
    }

    pub fn is_empty(&self) -> bool {
        self.src.is_empty()
    }

    pub fn source(&self) -> &dyn Source {
        self.src.as_ref()
    }

    /// Follow the xref chain; on failure leave the document empty for recovery.
    fn load_xref_chain(&mut self) -> Result<()> {
        let result = self.read_xref_chain();
        if result.is_err() {
            self.sections.clear();
            self.xref.clear();
        }
        result
    }

    fn read_xref_chain(&mut self) -> Result<()> {
        let startxref = find_startxref(self.src.as_ref())?;
        let doc = self;
        doc.startxref = startxref;
        let mut seen = HashSet::new();
        let mut next = Some(startxref);
        while let Some(offset) = next {
            if !seen.insert(offset) || doc.sections.len() >= MAX_SECTIONS {
                break; // a /Prev loop: stop rather than spin
            }
            let section = doc.read_section(offset)?;
            next = section.trailer.int("Prev").filter(|p| *p >= 0).map(|p| p as u64);
            doc.sections.push(section);
        }
        doc.trailer = doc.sections[0].trailer.clone();
        doc.xref = merge_sections(&doc.sections);
        Ok(())
    }

    /// The xref map as of one section (index into `sections`) and everything older.
    pub fn xref_as_of(&self, section_index: usize) -> HashMap<u32, XrefEntry> {
        merge_sections(&self.sections[section_index.min(self.sections.len())..])
    }

    // -----------------------------------------------------------------------------------------
    // Objects
    // -----------------------------------------------------------------------------------------

    pub fn get(&self, r: ObjRef) -> Result<Object> {
        self.get_with(&self.xref, r)
    }

    /// Resolve `r` through a given xref map (used to look at older revisions).
    pub fn get_with(&self, xref: &HashMap<u32, XrefEntry>, r: ObjRef) -> Result<Object> {
        let _loading = self.start_loading(r.num)?;
        match xref.get(&r.num) {
            Some(XrefEntry::InUse { offset, .. }) => {
                let (found, obj) = self.read_object_at(*offset)?;
                if found.num != r.num {
                    return Err(damaged(format!(
                        "xref points object {} to offset {offset}, which holds object {}",
                        r.num, found.num
                    )));
                }
                Ok(obj)
            }
            Some(XrefEntry::Compressed { stream, index }) => self.get_compressed(xref, *stream, *index, r.num),
            // Missing objects are null by the spec; callers that need them report it.
            Some(XrefEntry::Free) | None => Ok(Object::Null),
        }
    }

    /// Mark `num` as being loaded until the guard drops; refuse re-entry (a reference cycle such
    /// as a `/Length` pointing at its own stream) and absurd nesting.
    fn start_loading(&self, num: u32) -> Result<Loading<'_>> {
        let mut stack = self.loading.borrow_mut();
        if stack.contains(&num) {
            let chain: Vec<String> = stack.iter().chain([&num]).map(|n| format!("{n} 0 R")).collect();
            return Err(damaged(format!("reference cycle while loading objects: {}", chain.join(" -> "))));
        }
        if stack.len() >= MAX_LOAD_DEPTH {
            return Err(damaged(format!("objects refer to each other more than {MAX_LOAD_DEPTH} levels deep")));
        }
        stack.push(num);
        Ok(Loading { stack: &self.loading })
    }

    fn is_loading(&self, num: u32) -> bool {
        self.loading.borrow().contains(&num)
    }

    /// Count `amount` units of work (bytes parsed or decoded) against the document's budget.
    fn charge(&self, amount: u64) -> Result<()> {
        let done = self.work_done.get().saturating_add(amount);
        self.work_done.set(done);
        if done > self.work_limit {
            return Err(damaged(format!(
                "reading it takes more than {} MB of parsing and decoding for a {} KB file (hostile or badly damaged)",
                self.work_limit >> 20,
                self.src.len() >> 10
            )));
        }
        Ok(())
    }

    fn work_left(&self) -> u64 {
        self.work_limit.saturating_sub(self.work_done.get())
    }

    /// Like `get` but a missing object is an error.
    pub fn get_required(&self, r: ObjRef) -> Result<Object> {
        match self.get(r)? {
            Object::Null => Err(Error::MissingObject(r.num, r.generation)),
            o => Ok(o),
        }
    }

    /// Follow a reference (one level is enough for dictionaries and arrays in practice;
    /// chained references are followed a few times).
    pub fn resolve(&self, obj: &Object) -> Result<Object> {
        let mut cur = obj.clone();
        for _ in 0..8 {
            match cur {
                Object::Ref(r) => cur = self.get(r)?,
                other => return Ok(other),
            }
        }
        Err(damaged("reference chain too long"))
    }

    pub fn resolve_dict(&self, obj: &Object) -> Result<Option<Dict>> {
        Ok(match self.resolve(obj)? {
            Object::Dict(d) => Some(d),
            Object::Stream(s) => Some(s.dict),
            _ => None,
        })
    }

    pub fn resolve_array(&self, obj: &Object) -> Result<Option<Vec<Object>>> {
        Ok(match self.resolve(obj)? {
            Object::Array(a) => Some(a),
            _ => None,
        })
    }

    /// Parse the indirect object starting at `offset`, growing the window until it fits.
    pub fn read_object_at(&self, offset: u64) -> Result<(ObjRef, Object)> {
        if offset >= self.src.len() {
            return Err(damaged(format!("object offset {offset} is beyond the end of the file")));
        }
        let mut size = FIRST_WINDOW;
        loop {
            self.charge(0)?;
            let window = self.src.window(offset, size)?;
            let at_eof = offset + window.len() as u64 >= self.src.len();
            let mut p = Parser::new(&window, offset, at_eof);
            let attempt = p.parse_obj_header().and_then(|r| Ok((r, p.parse_object()?)));
            let parsed = if matches!(attempt, Err(ParseError::Incomplete)) { window.len() } else { p.pos };
            self.charge(parsed as u64)?;
            match attempt {
                Ok((r, obj)) => return Ok((r, self.fix_stream_length(obj)?)),
                Err(ParseError::Incomplete) if size < MAX_WINDOW && !at_eof => size *= 4,
                Err(ParseError::Incomplete) => {
                    return Err(damaged(format!("object at offset {offset} is too large")));
                }
                Err(ParseError::Bad { pos, msg }) => return Err(syntax(offset + pos as u64, msg)),
            }
        }
    }

    /// Resolve an indirect `/Length`, and fall back to searching `endstream` when the length
    /// is missing or wrong (common damage).
    fn fix_stream_length(&self, obj: Object) -> Result<Object> {
        let Object::Stream(mut s) = obj else {
            return Ok(obj);
        };
        let StreamData::InSource { offset, len } = s.data else {
            return Ok(Object::Stream(s));
        };
        let mut len = len;
        if len == u64::MAX
            && let Some(Object::Ref(r)) = s.dict.get("Length")
        {
            if self.is_loading(r.num) {
                return Err(damaged(format!(
                    "reference cycle: the /Length of a stream at offset {offset} is object {} 0 R, which is being loaded",
                    r.num
                )));
            }
            // A damaged length object is tolerated (the end is searched instead); exhausted
            // budgets and loops are not.
            match self.get(*r) {
                Ok(Object::Int(l)) if l >= 0 => len = l as u64,
                Err(e) if is_hard_limit(&e) => return Err(e),
                _ => {}
            }
        }
        if len == u64::MAX || !self.endstream_follows(offset, len)? {
            len = self.search_endstream(offset)?;
        }
        s.data = StreamData::InSource { offset, len };
        Ok(Object::Stream(s))
    }

    fn endstream_follows(&self, offset: u64, len: u64) -> Result<bool> {
        let end = offset.saturating_add(len);
        if end > self.src.len() {
            return Ok(false);
        }
        let tail = self.src.window(end, 32)?;
        let trimmed: Vec<u8> = tail.iter().copied().skip_while(|b| crate::object::is_whitespace(*b)).collect();
        Ok(trimmed.starts_with(b"endstream") || (trimmed.is_empty() && end == self.src.len()))
    }

    /// The data length of a stream whose `/Length` is unusable: up to the next `endstream`.
    /// The keyword positions are indexed once, so thousands of unterminated streams cost one
    /// pass over the file, not one pass each.
    fn search_endstream(&self, offset: u64) -> Result<u64> {
        let ends = self.endstream_offsets()?;
        let next = ends.partition_point(|e| *e < offset);
        let Some(&found) = ends.get(next).filter(|e| **e - offset <= MAX_WINDOW as u64) else {
            return Err(damaged(format!("stream at offset {offset} has no end")));
        };
        let mut end = found;
        // The EOL before `endstream` is not part of the data.
        let before = self.src.window(end.saturating_sub(2).max(offset), 2)?;
        if before.ends_with(b"\r\n") {
            end -= 2;
        } else if before.ends_with(b"\n") || before.ends_with(b"\r") {
            end -= 1;
        }
        Ok(end.max(offset) - offset)
    }

    fn endstream_offsets(&self) -> Result<&[u64]> {
        if let Some(found) = self.endstreams.get() {
            return Ok(found);
        }
        let mut found = Vec::new();
        const CHUNK: usize = 4 << 20;
        let mut pos = 0u64;
        while pos < self.src.len() {
            let w = self.src.window(pos, CHUNK + 16)?;
            let limit = w.len().min(CHUNK + 9);
            found
                .extend(find_all(&w[..limit], b"endstream").into_iter().filter(|i| *i < CHUNK).map(|i| pos + i as u64));
            pos += CHUNK as u64;
        }
        Ok(self.endstreams.get_or_init(|| found))
    }

    /// Raw (encoded) stream bytes.
    pub fn stream_raw(&self, s: &Stream) -> Result<Vec<u8>> {
        match &s.data {
            StreamData::Owned(d) => Ok(d.clone()),
            StreamData::InSource { offset, len } => {
                if *len > MAX_WINDOW as u64 {
                    return Err(damaged("stream too large"));
                }
                let w = self.src.window(*offset, *len as usize)?;
                if (w.len() as u64) < *len {
                    return Err(damaged("stream data runs past the end of the file"));
                }
                Ok(w.into_owned())
            }
        }
    }

    /// Decoded stream data, capped per stream and charged to the document's work budget.
    pub fn stream_decoded(&self, s: &Stream) -> Result<Vec<u8>> {
        let raw = self.stream_raw(s)?;
        let limit = MAX_DECODED_STREAM.min(self.work_left());
        let decoded = decode_stream_limited(&s.dict, &raw, limit).map_err(|e| match e {
            Error::Damaged(m) if m.contains("decodes to more than") && limit < MAX_DECODED_STREAM => {
                self.work_exhausted()
            }
            other => other,
        })?;
        self.charge(decoded.len() as u64)?;
        Ok(decoded)
    }

    fn work_exhausted(&self) -> Error {
        self.work_done.set(self.work_limit.saturating_add(1));
        match self.charge(0) {
            Err(e) => e,
            Ok(()) => damaged("work budget exhausted"),
        }
    }

    fn get_compressed(&self, xref: &HashMap<u32, XrefEntry>, stream: u32, index: u32, num: u32) -> Result<Object> {
        let objstm = self.objstm(xref, stream)?;
        let by_index = objstm.index.get(index as usize).filter(|(n, _)| *n == num);
        let Some(&(_, rel)) = by_index.or_else(|| objstm.index.iter().find(|(n, _)| *n == num)) else {
            return Ok(Object::Null);
        };
        let start = objstm.first.saturating_add(rel);
        let data = objstm.data.get(start..).unwrap_or(&[]);
        let mut p = Parser::new(data, 0, true);
        p.parse_object().map_err(|e| damaged(format!("object {num} in object stream {stream}: {e:?}")))
    }

    fn objstm(&self, xref: &HashMap<u32, XrefEntry>, stream: u32) -> Result<Rc<ObjStmData>> {
        // An object stream itself must be a plain object (no nesting), which also stops loops.
        let Some(&XrefEntry::InUse { offset, .. }) = xref.get(&stream) else {
            return Err(damaged(format!("object stream {stream} is missing")));
        };
        if let Some(cached) = self.objstms.borrow().get(&(stream, offset)) {
            return Ok(cached.clone());
        }
        // Its /Length may lead back into the stream itself: the loading stack catches that.
        let _loading = self.start_loading(stream)?;
        let (_, obj) = self.read_object_at(offset)?;
        let Object::Stream(s) = obj else {
            return Err(damaged(format!("object {stream} is not an object stream")));
        };
        let parsed = Rc::new(parse_objstm(&s.dict, self.stream_decoded(&s)?)?);
        self.cache_objstm((stream, offset), parsed.clone());
        Ok(parsed)
    }

    /// Keep the cache's decoded bytes bounded: past the cap it starts over (the work budget
    /// bounds what re-decoding can cost).
    fn cache_objstm(&self, key: (u32, u64), parsed: Rc<ObjStmData>) {
        let size = parsed.data.len() + parsed.index.len() * std::mem::size_of::<(u32, usize)>();
        let mut cache = self.objstms.borrow_mut();
        if self.objstm_bytes.get().saturating_add(size) > MAX_OBJSTM_CACHE {
            cache.clear();
            self.objstm_bytes.set(0);
        }
        if size <= MAX_OBJSTM_CACHE {
            cache.insert(key, parsed);
            self.objstm_bytes.set(self.objstm_bytes.get() + size);
        }
    }

    /// Numbers of the objects an object stream holds, as read through `xref` (empty when it is
    /// not an object stream).
    pub fn objstm_members(&self, xref: &HashMap<u32, XrefEntry>, stream: u32) -> Result<Vec<u32>> {
        match self.get_with(xref, ObjRef::new(stream, 0))? {
            Object::Stream(s) if s.dict.has_type("ObjStm") => {
                Ok(self.objstm(xref, stream)?.index.iter().map(|(n, _)| *n).collect())
            }
            _ => Ok(Vec::new()),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Xref sections
    // -----------------------------------------------------------------------------------------

    fn read_section(&self, offset: u64) -> Result<XrefSection> {
        let head = self.src.window(offset, 16)?;
        let skip = head.iter().take_while(|b| crate::object::is_whitespace(**b)).count();
        if head[skip..].starts_with(b"xref") {
            let mut section = self.read_table(offset + skip as u64 + 4)?;
            section.offset = offset;
            if let Some(stm) = section.trailer.int("XRefStm").filter(|o| *o > 0) {
                // Hybrid file: entries hidden in the stream fill what the table leaves out.
                if let Ok(extra) = self.read_xref_stream(stm as u64) {
                    let listed: HashSet<u32> =
                        section.entries.iter().filter(|(_, e)| *e != XrefEntry::Free).map(|(n, _)| *n).collect();
                    section.entries.retain(|(n, e)| {
                        *e != XrefEntry::Free || !extra.entries.iter().any(|(m, x)| m == n && *x != XrefEntry::Free)
                    });
                    section.entries.extend(
                        extra.entries.into_iter().filter(|(n, e)| *e != XrefEntry::Free && !listed.contains(n)),
                    );
                    section.hybrid = true;
                }
            }
            Ok(section)
        } else {
            self.read_xref_stream(offset)
        }
    }

    fn read_table(&self, offset: u64) -> Result<XrefSection> {
        let mut size = 64 * 1024;
        loop {
            let window = self.src.window(offset, size)?;
            let at_eof = offset + window.len() as u64 >= self.src.len();
            match parse_table(&window, offset, at_eof) {
                Ok((entries, trailer)) => {
                    return Ok(XrefSection { offset, kind: XrefKind::Table, trailer, entries, hybrid: false });
                }
                Err(ParseError::Incomplete) if size < MAX_WINDOW && !at_eof => size *= 4,
                Err(ParseError::Incomplete) => return Err(damaged("xref table is too large")),
                Err(ParseError::Bad { pos, msg }) => {
                    return Err(syntax(offset + pos as u64, format!("xref table: {msg}")));
                }
            }
        }
    }

    fn read_xref_stream(&self, offset: u64) -> Result<XrefSection> {
        let (_, obj) = self.read_object_at(offset)?;
        let Object::Stream(s) = obj else {
            return Err(syntax(offset, "startxref does not point to an xref table or stream"));
        };
        if !s.dict.has_type("XRef") {
            return Err(syntax(offset, "startxref points to a stream that is not /Type /XRef"));
        }
        let data = self.stream_decoded(&s)?;
        let entries = parse_xref_stream_entries(&s.dict, &data)?;
        Ok(XrefSection { offset, kind: XrefKind::Stream, trailer: s.dict, entries, hybrid: false })
    }

    // -----------------------------------------------------------------------------------------
    // Recovery
    // -----------------------------------------------------------------------------------------

    /// Rebuild the xref by scanning the whole file for `N G obj` (later definitions win).
    fn rebuild_xref(&mut self) -> Result<()> {
        self.sections.clear();
        self.xref.clear();
        self.objstms.borrow_mut().clear();
        self.objstm_bytes.set(0);
        self.recovered = true;
        let (found, trailer) = scan_for_objects(self.src.as_ref())?;
        let doc = self;
        doc.xref = found;
        if doc.xref.is_empty() {
            return Err(damaged("no xref and no objects found"));
        }
        doc.register_objstm_contents()?;
        let trailer = trailer.or_else(|| doc.trailer_from_xref_streams()).or_else(|| doc.trailer_from_catalog_scan());
        let Some(mut trailer) = trailer else {
            return Err(damaged("no xref and no document catalog found"));
        };
        for k in ["Prev", "XRefStm", "Type", "W", "Index", "Filter", "DecodeParms", "Length"] {
            trailer.remove(k);
        }
        let max = doc.xref.keys().max().copied().unwrap_or(0);
        trailer.set("Size", Object::Int(max as i64 + 1));
        doc.trailer = trailer;
        Ok(())
    }

    fn register_objstm_contents(&mut self) -> Result<()> {
        let candidates: Vec<u32> = self.xref.keys().copied().collect();
        let mut compressed = Vec::new();
        for num in candidates {
            let s = match self.get(ObjRef::new(num, 0)) {
                Ok(Object::Stream(s)) if s.dict.has_type("ObjStm") => s,
                Err(e) if is_hard_limit(&e) => return Err(e),
                _ => continue,
            };
            let parsed = match self.stream_decoded(&s).and_then(|d| parse_objstm(&s.dict, d)) {
                Ok(parsed) => parsed,
                Err(e) if is_hard_limit(&e) => return Err(e),
                Err(_) => continue,
            };
            for (i, (n, _)) in parsed.index.iter().enumerate() {
                compressed.push((*n, num, i as u32));
            }
        }
        for (n, stream, index) in compressed {
            self.xref.entry(n).or_insert(XrefEntry::Compressed { stream, index });
        }
        Ok(())
    }

    fn trailer_from_xref_streams(&self) -> Option<Dict> {
        let mut best: Option<(u64, Dict)> = None;
        for e in self.xref.values() {
            if let XrefEntry::InUse { offset, .. } = e
                && let Ok((_, Object::Stream(s))) = self.read_object_at(*offset)
                && s.dict.has_type("XRef")
                && s.dict.get("Root").is_some()
                && best.as_ref().is_none_or(|(o, _)| offset > o)
            {
                best = Some((*offset, s.dict.clone()));
            }
        }
        best.map(|(_, d)| d)
    }

    fn trailer_from_catalog_scan(&self) -> Option<Dict> {
        let mut nums: Vec<u32> = self.xref.keys().copied().collect();
        nums.sort_unstable();
        for num in nums.into_iter().rev() {
            if let Ok(Object::Dict(d)) = self.get(ObjRef::new(num, 0))
                && d.has_type("Catalog")
            {
                let mut t = Dict::new();
                t.set("Root", Object::Ref(ObjRef::new(num, 0)));
                return Some(t);
            }
        }
        None
    }

    // -----------------------------------------------------------------------------------------
    // Document structure
    // -----------------------------------------------------------------------------------------

    pub fn root_ref(&self) -> Result<ObjRef> {
        self.trailer.get("Root").and_then(Object::as_ref).ok_or_else(|| damaged("the trailer has no /Root reference"))
    }

    pub fn catalog(&self) -> Result<(ObjRef, Dict)> {
        let r = self.root_ref()?;
        match self.get(r)? {
            Object::Dict(d) => Ok((r, d)),
            _ => Err(damaged("the document catalog is missing or not a dictionary")),
        }
    }

    /// All pages in order, with inherited MediaBox/CropBox/Rotate.
    pub fn pages(&self) -> Result<Vec<Page>> {
        let (_, catalog) = self.catalog()?;
        let Some(Object::Ref(root)) = catalog.get("Pages").cloned() else {
            return Err(damaged("the catalog has no /Pages reference"));
        };
        let mut pages = Vec::new();
        let mut seen = HashSet::new();
        let inherited = Inherited::default();
        self.walk_pages(root, &inherited, &mut pages, &mut seen, 0)?;
        if pages.is_empty() {
            return Err(damaged("the document has no pages"));
        }
        Ok(pages)
    }

    fn walk_pages(
        &self,
        node: ObjRef,
        inherited: &Inherited,
        out: &mut Vec<Page>,
        seen: &mut HashSet<u32>,
        depth: usize,
    ) -> Result<()> {
        if depth > 64 || out.len() >= MAX_PAGES || !seen.insert(node.num) {
            return Err(damaged("the page tree has a cycle or is too deep"));
        }
        let Some(dict) = self.resolve_dict(&Object::Ref(node))? else {
            return Err(damaged(format!("page tree node {} is not a dictionary", node.num)));
        };
        let here = inherited.merge(self, &dict)?;
        let kids = match dict.get("Kids") {
            Some(k) => self.resolve_array(k)?,
            None => None,
        };
        match kids {
            Some(kids) if !dict.has_type("Page") => {
                for kid in kids {
                    match kid {
                        Object::Ref(r) => {
                            self.require_page_node(r)?;
                            self.walk_pages(r, &here, out, seen, depth + 1)?;
                        }
                        Object::Null => {
                            return Err(damaged(format!(
                                "page tree node {} lists a null kid, where a page is missing",
                                node.num
                            )));
                        }
                        _ => {}
                    }
                }
                Ok(())
            }
            _ => {
                let media_box = here.media_box.unwrap_or([0.0, 0.0, 612.0, 792.0]);
                let crop_box = here.crop_box.map(|c| intersect(c, media_box)).unwrap_or(media_box);
                out.push(Page { id: node, dict, media_box, crop_box, rotate: here.rotate.rem_euclid(360) / 90 * 90 });
                Ok(())
            }
        }
    }

    fn require_page_node(&self, r: ObjRef) -> Result<()> {
        match self.get(r) {
            Ok(Object::Null) => Err(missing_from_page_tree(r)),
            Err(e) if !is_hard_limit(&e) => Err(missing_from_page_tree(r)),
            Err(e) => Err(e),
            Ok(_) => Ok(()),
        }
    }

    /// Decodes every page's content streams (within the document's work budget), so that a
    /// stream that cannot be decoded shows up as an error now rather than when it is drawn.
    pub fn decode_page_contents(&self) -> Result<()> {
        for page in self.pages()? {
            let contents = match page.dict.get("Contents") {
                Some(contents) => self.resolve(contents)?,
                None => continue,
            };
            let streams = match contents {
                Object::Array(items) => items,
                single => vec![single],
            };
            for item in streams {
                if let Object::Stream(stream) = self.resolve(&item)? {
                    self.stream_decoded(&stream)?;
                }
            }
        }
        Ok(())
    }

    /// Numbers of the objects the pages draw themselves (their content streams and resources,
    /// followed down; not their annotations), or `None` when the pages cannot be read.
    pub fn drawn_by_pages(&self) -> Option<HashSet<u32>> {
        let pages = self.pages().ok()?;
        let mut reached = HashSet::new();
        for page in &pages {
            let mut todo: Vec<(Object, usize)> = Vec::new();
            for key in ["Contents", "Resources"] {
                if let Some(v) = page.dict.get(key) {
                    todo.push((v.clone(), 0));
                }
            }
            todo.extend(self.inherited_resources(&page.dict).ok()?.into_iter().map(|r| (r, 0)));
            while let Some((obj, depth)) = todo.pop() {
                self.check_needed(obj, depth, &mut todo, &mut reached, &mut |_| {}).ok()?;
            }
        }
        Some(reached)
    }

    /// Check that every object a viewer needs to show the pages is there: the page tree, each
    /// page's content streams, resources (fonts, images, forms, graphics states...) and
    /// annotations. A missing one would show as a blank or wrong page, so a document that lost
    /// objects (typically a truncated file whose xref was rebuilt) is refused, not signed.
    pub fn check_displayable(&self) -> Result<()> {
        let pages = self.pages()?;
        let mut checked = HashSet::new();
        let mut missing: Vec<(usize, ObjRef)> = Vec::new();
        for (index, page) in pages.iter().enumerate() {
            let mut todo: Vec<(Object, usize)> = Vec::new();
            for key in ["Contents", "Resources", "Annots"] {
                if let Some(v) = page.dict.get(key) {
                    todo.push((v.clone(), 0));
                }
            }
            todo.extend(self.inherited_resources(&page.dict)?.into_iter().map(|r| (r, 0)));
            while let Some((obj, depth)) = todo.pop() {
                self.check_needed(obj, depth, &mut todo, &mut checked, &mut |r| missing.push((index + 1, r)))?;
            }
        }
        let Some(&(page, first)) = missing.first() else {
            return Ok(());
        };
        let mut msg = format!(
            "page {page} refers to object {} {} R, which is missing (truncated file?)",
            first.num, first.generation
        );
        if missing.len() > 1 {
            let last_page = missing.iter().map(|(p, _)| *p).max().unwrap_or(page);
            msg.push_str(&format!("; {} objects used by pages {page} to {last_page} are missing", missing.len()));
        }
        Err(damaged(msg))
    }

    /// `/Resources` held by ancestors in the page tree (inherited when the page has none).
    /// A page's resources: its own `/Resources`, else the nearest ancestor's.
    pub(crate) fn page_resources(&self, page: &Page) -> Option<Dict> {
        let own = page.dict.get("Resources").cloned();
        let inherited = || self.inherited_resources(&page.dict).ok()?.into_iter().next();
        self.resolve_dict(&own.or_else(inherited)?).ok().flatten()
    }

    fn inherited_resources(&self, page: &Dict) -> Result<Vec<Object>> {
        let mut out = Vec::new();
        let mut parent = page.get("Parent").and_then(Object::as_ref);
        let mut seen = HashSet::new();
        while let Some(r) = parent.filter(|r| seen.insert(r.num) && seen.len() <= 64) {
            let Some(node) = self.resolve_dict(&Object::Ref(r))? else {
                break;
            };
            out.extend(node.get("Resources").cloned());
            parent = node.get("Parent").and_then(Object::as_ref);
        }
        Ok(out)
    }

    /// One step of the display walk: load a referenced object once, report it if missing, and
    /// queue what it refers to (not back up to parents and pages, which are checked anyway).
    fn check_needed(
        &self,
        obj: Object,
        depth: usize,
        todo: &mut Vec<(Object, usize)>,
        checked: &mut HashSet<u32>,
        report_missing: &mut dyn FnMut(ObjRef),
    ) -> Result<()> {
        const MAX_DISPLAY_DEPTH: usize = 12;
        if depth > MAX_DISPLAY_DEPTH {
            return Ok(());
        }
        let value = match obj {
            Object::Ref(r) => {
                if !checked.insert(r.num) {
                    return Ok(());
                }
                match self.get(r) {
                    Ok(Object::Null) => {
                        report_missing(r);
                        return Ok(());
                    }
                    Err(e) if is_hard_limit(&e) => return Err(e),
                    Err(_) => {
                        report_missing(r);
                        return Ok(());
                    }
                    Ok(v) => v,
                }
            }
            other => other,
        };
        match value {
            Object::Array(items) => todo.extend(items.into_iter().map(|i| (i, depth + 1))),
            Object::Dict(d) | Object::Stream(Stream { dict: d, .. }) => {
                for (key, v) in d.0 {
                    if !matches!(key.as_slice(), b"Parent" | b"P" | b"Dest" | b"A" | b"Next" | b"Prev") {
                        todo.push((v, depth + 1));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

fn missing_from_page_tree(r: ObjRef) -> Error {
    damaged(format!("the page tree refers to object {} {} R, which is missing (truncated file?)", r.num, r.generation))
}

#[derive(Default, Clone)]
struct Inherited {
    media_box: Option<[f64; 4]>,
    crop_box: Option<[f64; 4]>,
    rotate: i32,
}

impl Inherited {
    fn merge(&self, doc: &Document<'_>, dict: &Dict) -> Result<Inherited> {
        let mut out = self.clone();
        if let Some(b) = dict.get("MediaBox") {
            out.media_box = read_rect(doc, b)?.or(out.media_box);
        }
        if let Some(b) = dict.get("CropBox") {
            out.crop_box = read_rect(doc, b)?.or(out.crop_box);
        }
        if let Some(r) = dict.get("Rotate")
            && let Some(r) = doc.resolve(r)?.as_int()
        {
            out.rotate = (r % 360) as i32;
        }
        Ok(out)
    }
}

fn read_rect(doc: &Document<'_>, obj: &Object) -> Result<Option<[f64; 4]>> {
    let Some(items) = doc.resolve_array(obj)? else {
        return Ok(None);
    };
    let mut v = [0.0; 4];
    if items.len() != 4 {
        return Ok(None);
    }
    for (slot, item) in v.iter_mut().zip(&items) {
        let Some(n) = doc.resolve(item)?.as_number() else {
            return Ok(None);
        };
        *slot = n;
    }
    Ok(Some([v[0].min(v[2]), v[1].min(v[3]), v[0].max(v[2]), v[1].max(v[3])]))
}

fn intersect(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let r = [a[0].max(b[0]), a[1].max(b[1]), a[2].min(b[2]), a[3].min(b[3])];
    if r[2] > r[0] && r[3] > r[1] { r } else { b }
}

fn merge_sections(sections: &[XrefSection]) -> HashMap<u32, XrefEntry> {
    let mut map = HashMap::new();
    for section in sections.iter().rev() {
        for (num, entry) in &section.entries {
            map.insert(*num, *entry);
        }
    }
    map
}

/// Scan the whole source for `N G obj` headers (later ones win) and the last `trailer`
/// dictionary that names a catalog.
fn scan_for_objects(src: &dyn Source) -> Result<(HashMap<u32, XrefEntry>, Option<Dict>)> {
    let mut found = HashMap::new();
    let mut trailer_at: Vec<u64> = Vec::new();
    const CHUNK: usize = 4 << 20;
    const OVERLAP: usize = 64;
    let mut pos = 0u64;
    while pos < src.len() {
        let w = src.window(pos, CHUNK + OVERLAP)?;
        let limit = w.len().min(CHUNK);
        for (num, generation, at) in scan_obj_headers(&w, limit) {
            found.insert(num, XrefEntry::InUse { offset: pos + at as u64, generation });
        }
        trailer_at.extend(find_all(&w[..limit], b"trailer").into_iter().map(|at| pos + at as u64));
        pos += CHUNK as u64;
    }
    // Parsing every `trailer` word would cost a window each; only the last good one matters.
    for at in trailer_at.into_iter().rev().take(MAX_TRAILER_CANDIDATES) {
        let tw = src.window(at + 7, 64 * 1024)?;
        let mut p = Parser::new(&tw, 0, true);
        if let Ok(Object::Dict(d)) = p.parse_object()
            && d.get("Root").is_some()
        {
            return Ok((found, Some(d)));
        }
    }
    Ok((found, None))
}

/// Errors that must not be papered over by a fallback: a loop or an exhausted work budget
/// would only come back, at a higher price.
fn is_hard_limit(e: &Error) -> bool {
    matches!(e, Error::Damaged(m) if m.starts_with("reference cycle")
        || m.starts_with("reading it takes more than")
        || m.starts_with("a stream decodes to more than"))
}

fn check_header(src: &dyn Source) -> Result<()> {
    let head = src.window(0, 1024)?;
    if find(&head, b"%PDF-").is_none() {
        return Err(Error::NotPdf);
    }
    Ok(())
}

fn find_startxref(src: &dyn Source) -> Result<u64> {
    let tail_len = src.len().min(4096);
    let tail = src.window(src.len() - tail_len, tail_len as usize)?;
    let Some(pos) = rfind(&tail, b"startxref") else {
        return Err(damaged("no startxref at the end of the file (truncated?)"));
    };
    let mut p = Parser::new(&tail[pos + 9..], 0, true);
    let offset = p.parse_u64().map_err(|_| damaged("startxref is not followed by an offset"))?;
    if offset >= src.len() {
        return Err(damaged("startxref points beyond the end of the file"));
    }
    Ok(offset)
}

fn parse_table(buf: &[u8], base: u64, at_eof: bool) -> crate::parser::PResult<(Vec<(u32, XrefEntry)>, Dict)> {
    let mut p = Parser::new(buf, base, at_eof);
    let mut entries = Vec::new();
    loop {
        if p.eat_keyword(b"trailer")? {
            break;
        }
        let start = p.parse_u64()?;
        let count = p.parse_u64()?;
        if start > u32::MAX as u64 || count > 10_000_000 {
            return Err(ParseError::Bad { pos: p.pos, msg: "absurd subsection".into() });
        }
        for i in 0..count {
            let offset = p.parse_u64()?;
            let generation = p.parse_u64()?;
            p.skip_ws();
            let kind = p.regular_token();
            if p.pos >= buf.len() && !at_eof {
                return Err(ParseError::Incomplete);
            }
            let num = (start + i) as u32;
            let entry = match kind {
                b"n" => XrefEntry::InUse { offset, generation: generation.min(u16::MAX as u64) as u16 },
                b"f" => XrefEntry::Free,
                _ => {
                    return Err(ParseError::Bad { pos: p.pos, msg: "xref entry is neither n nor f".into() });
                }
            };
            // Object 0 is always free; an "in use" offset 0 is a common producer slip.
            if !(matches!(entry, XrefEntry::InUse { offset: 0, .. })) {
                entries.push((num, entry));
            }
        }
    }
    match p.parse_object()? {
        Object::Dict(d) => Ok((entries, d)),
        _ => Err(ParseError::Bad { pos: p.pos, msg: "trailer is not a dictionary".into() }),
    }
}

fn parse_xref_stream_entries(dict: &Dict, data: &[u8]) -> Result<Vec<(u32, XrefEntry)>> {
    let w: Vec<usize> = dict
        .get("W")
        .and_then(Object::as_array)
        .map(|a| a.iter().map(|o| o.as_int().unwrap_or(0).clamp(0, 8) as usize).collect())
        .unwrap_or_default();
    if w.len() != 3 || w.iter().sum::<usize>() == 0 {
        return Err(damaged("xref stream has a bad /W"));
    }
    let size = dict.int("Size").unwrap_or(0).max(0);
    let index: Vec<i64> = match dict.get("Index").and_then(Object::as_array) {
        Some(a) => a.iter().filter_map(Object::as_int).collect(),
        None => vec![0, size],
    };
    let row = w.iter().sum::<usize>();
    let mut rows = data.chunks_exact(row);
    let mut entries = Vec::new();
    for pair in index.chunks_exact(2) {
        let (start, count) = (pair[0].max(0) as u64, pair[1].max(0) as u64);
        for i in 0..count {
            let Some(r) = rows.next() else {
                return Ok(entries); // short stream: keep what is there
            };
            let f1 = if w[0] == 0 { 1 } else { be(&r[..w[0]]) };
            let f2 = be(&r[w[0]..w[0] + w[1]]);
            let f3 = be(&r[w[0] + w[1]..]);
            let Ok(num) = u32::try_from(start + i) else {
                return Ok(entries);
            };
            let entry = match f1 {
                0 => XrefEntry::Free,
                1 => XrefEntry::InUse { offset: f2, generation: f3.min(u16::MAX as u64) as u16 },
                2 => XrefEntry::Compressed {
                    stream: f2.min(u32::MAX as u64) as u32,
                    index: f3.min(u32::MAX as u64) as u32,
                },
                _ => continue, // unknown types are ignored, as the spec says
            };
            entries.push((num, entry));
        }
    }
    Ok(entries)
}

fn be(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |acc, b| (acc << 8) | *b as u64)
}

fn parse_objstm(dict: &Dict, data: Vec<u8>) -> Result<ObjStmData> {
    let n = dict.int("N").unwrap_or(0).clamp(0, 1_000_000) as usize;
    let first = dict.int("First").unwrap_or(0).max(0) as usize;
    let mut p = Parser::new(&data, 0, true);
    let mut index = Vec::with_capacity(n);
    for _ in 0..n {
        let (Ok(num), Ok(off)) = (p.parse_u64(), p.parse_u64()) else {
            break;
        };
        index.push((num.min(u32::MAX as u64) as u32, off as usize));
    }
    Ok(ObjStmData { data, first, index })
}

/// Positions of `num generation obj` headers whose `obj` keyword lies before `limit`.
fn scan_obj_headers(w: &[u8], limit: usize) -> Vec<(u32, u16, usize)> {
    let mut out = Vec::new();
    for at in find_all(&w[..limit.min(w.len())], b"obj") {
        if w.get(at + 3).is_some_and(|b| !(crate::object::is_whitespace(*b) || crate::object::is_delimiter(*b))) {
            continue;
        }
        let mut i = at;
        let ws = |i: &mut usize| {
            let end = *i;
            while *i > 0 && crate::object::is_whitespace(w[*i - 1]) {
                *i -= 1;
            }
            end != *i
        };
        let digits = |i: &mut usize| {
            let end = *i;
            while *i > 0 && w[*i - 1].is_ascii_digit() {
                *i -= 1;
            }
            (*i, end)
        };
        if !ws(&mut i) {
            continue;
        }
        let (gs, ge) = digits(&mut i);
        if gs == ge || !ws(&mut i) {
            continue;
        }
        let (ns, ne) = digits(&mut i);
        if ns == ne || (ns > 0 && !crate::object::is_whitespace(w[ns - 1]) && !crate::object::is_delimiter(w[ns - 1])) {
            continue;
        }
        if let (Some(num), Some(generation)) = (parse_decimal(&w[ns..ne]), parse_decimal(&w[gs..ge]))
            && num <= u32::MAX as u64
            && generation <= u16::MAX as u64
        {
            out.push((num as u32, generation as u16, ns));
        }
    }
    out
}

/// First occurrence of `needle`; jumps between occurrences of its first byte rather than
/// comparing at every position.
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let last_start = hay.len().checked_sub(needle.len())?;
    let mut start = 0;
    while start <= last_start {
        let i = start + hay[start..=last_start].iter().position(|b| *b == first)?;
        if hay[i + 1..].starts_with(rest) {
            return Some(i);
        }
        start = i + 1;
    }
    None
}

pub fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

fn find_all(hay: &[u8], needle: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut start = 0;
    while let Some(i) = find(&hay[start..], needle) {
        out.push(start + i);
        start += i + needle.len();
    }
    out
}
