//! Structure-level verification helpers: find the signatures, their ByteRange, CMS bytes and
//! metadata, check that each ByteRange covers a whole revision, and a basic analysis of what
//! later revisions changed (new signatures, DSS and form filling are allowed; the rest is not).
//! The CMS itself is checked elsewhere (sigcrypto).

use std::collections::{HashMap, HashSet};

use crate::coverage::{Covering, LatestPages, Placed, SignedPages};
use crate::error::Result;
use crate::object::{Dict, ObjRef, Object, decode_text};
use crate::reader::{Document, XrefEntry};
use sha2::{Digest, Sha256};

use crate::source::{Prefix, Source};

/// One signature as found in the document.
#[derive(Debug, Clone, Default)]
pub struct SignatureInfo {
    /// Fully qualified field name (`parent.child`).
    pub field_name: String,
    /// `Sig` or `DocTimeStamp`.
    pub sig_type: String,
    pub filter: String,
    pub sub_filter: String,
    pub byte_range: Vec<i64>,
    /// The CMS (or timestamp token) DER, with the zero padding of `/Contents` removed.
    pub contents: Vec<u8>,
    /// `/M` as written (a PDF date string).
    pub signing_time: Option<String>,
    pub name: Option<String>,
    pub reason: Option<String>,
    pub location: Option<String>,
    /// SHA-256 over the ByteRange, to compare with the CMS messageDigest.
    pub digest: [u8; 32],
    /// The ByteRange is well formed and its gap is exactly the `/Contents` string.
    pub byte_range_ok: bool,
    /// The ByteRange ends at the end of a revision (an `%%EOF` marker).
    pub covers_revision: bool,
    /// The ByteRange covers the whole file (no later revision).
    pub covers_whole_file: bool,
    /// Key of this signature in `/DSS /VRI`: uppercase hex SHA-1 of the raw `/Contents` bytes
    /// (zero padding included), as pyHanko and Acrobat compute it.
    pub vri_key: String,
    /// DocMDP `/P` when this is a certification signature.
    pub docmdp_p: Option<i64>,
    /// Changes made after this signature's revision.
    pub later_changes: Modifications,
}

/// What revisions after a signature changed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Modifications {
    pub later_revisions: usize,
    /// Allowed changes, summarized (e.g. "signature field added", "DSS added").
    pub allowed: Vec<String>,
    /// Changes that signing, DSS and form filling do not explain.
    pub disallowed: Vec<String>,
    /// Changes of allowed kinds that lie over signed content (an annotation or field
    /// appearance over signed text, a replaced appearance of a signed signature): the
    /// signature still verifies, but the document no longer shows what was signed.
    pub covering: Vec<Covering>,
}

/// List the signatures of a PDF held in memory, in signing order.
pub fn signatures(input: &[u8]) -> Result<Vec<SignatureInfo>> {
    signatures_in(Document::open(input)?)
}

/// List the signatures of a PDF file without loading it (hashes the ranges streaming).
pub fn signatures_in_file(path: &std::path::Path) -> Result<Vec<SignatureInfo>> {
    signatures_in(Document::open(crate::source::FileSource::open(path)?)?)
}

fn signatures_in(doc: Document<'_>) -> Result<Vec<SignatureInfo>> {
    let (_, catalog) = doc.catalog()?;
    let eofs = revision_ends(doc.source())?;
    let mut fields = collect_signature_fields(&doc, &acroform_fields(&doc, &catalog)?)?;
    let mut docmdp_sig = docmdp_signature(&doc, &catalog)?;
    // A later revision that names another catalog, or drops a field, must not make a
    // signature (or the certification's permission) disappear: earlier catalogs are read too.
    let mut known: HashSet<u32> = fields.iter().filter_map(|f| f.value_ref.map(|r| r.num)).collect();
    for earlier in earlier_revisions(&doc, &eofs) {
        let Ok((_, earlier_catalog)) = earlier.catalog() else { continue };
        let listed = acroform_fields(&earlier, &earlier_catalog).unwrap_or_default();
        for field in collect_signature_fields(&earlier, &listed).unwrap_or_default() {
            if field.value_ref.is_some_and(|r| known.insert(r.num)) {
                fields.push(field);
            }
        }
        if docmdp_sig.is_none() {
            docmdp_sig = docmdp_signature(&earlier, &earlier_catalog).ok().flatten();
        }
    }
    // The certification's permission binds every later revision, whoever signed after it.
    let document_p = match docmdp_sig {
        Some(r) => match doc.get(r)? {
            Object::Dict(sig) => Some(docmdp_p_of(&doc, &sig)?.unwrap_or(2)),
            _ => None,
        },
        None => None,
    };
    let mut out = Vec::new();
    for field in fields {
        out.push(describe(&doc, &eofs, field, docmdp_sig, document_p)?);
    }
    // Signing order (by where each ByteRange ends), not form order.
    out.sort_by_key(|s| {
        let end = s.byte_range.get(2).zip(s.byte_range.get(3)).map(|(a, b)| a.saturating_add(*b));
        (!s.byte_range_ok, end.unwrap_or(i64::MAX))
    });
    Ok(out)
}

/// Most earlier revisions read for signature fields the latest catalog no longer lists.
const MAX_EARLIER_REVISIONS: usize = 64;

/// The file as it was at each earlier `%%EOF` that opens as a file of its own, newest first
/// (at most [`MAX_EARLIER_REVISIONS`]).
fn earlier_revisions<'d>(doc: &'d Document<'_>, eofs: &[u64]) -> Vec<Document<'d>> {
    let mut ends: Vec<u64> = eofs.iter().copied().filter(|&end| end < doc.len()).collect();
    // One end per revision: `%%EOF`, `%%EOF\r` and `%%EOF\r\n` open the same file.
    ends.dedup_by(|later, earlier| *later - *earlier <= 2);
    ends.iter()
        .rev()
        .take(MAX_EARLIER_REVISIONS)
        .filter_map(|&len| Document::open(Prefix { inner: doc.source(), len }).ok())
        .collect()
}

/// The catalog's `/AcroForm /Fields`.
fn acroform_fields(doc: &Document<'_>, catalog: &Dict) -> Result<Vec<Object>> {
    let Some(form) = catalog.get("AcroForm") else { return Ok(Vec::new()) };
    let Some(form) = doc.resolve_dict(form)? else { return Ok(Vec::new()) };
    match form.get("Fields") {
        Some(fields) => Ok(doc.resolve_array(fields)?.unwrap_or_default()),
        None => Ok(Vec::new()),
    }
}

/// The certification signature the catalog's `/Perms /DocMDP` names.
fn docmdp_signature(doc: &Document<'_>, catalog: &Dict) -> Result<Option<ObjRef>> {
    Ok(catalog
        .get("Perms")
        .map(|p| doc.resolve_dict(p))
        .transpose()?
        .flatten()
        .and_then(|p| p.get("DocMDP").and_then(Object::as_ref)))
}

/// Most signature dictionaries looked for in a file whose structure cannot be read.
const MAX_SCANNED_SIGNATURES: usize = 32;

/// Whether `error` says the file's structure cannot be read (rather than that it is not a
/// PDF, is encrypted, or exceeds a limit).
pub fn is_damage(error: &crate::Error) -> bool {
    matches!(error, crate::Error::Damaged(_) | crate::Error::Syntax { .. } | crate::Error::MissingObject(..))
}

/// The signatures of a file whose structure cannot be read, for example one whose signed range
/// was moved and a new object put in the gap (signature wrapping): signature dictionaries
/// found by scanning the bytes for `/ByteRange`, each hashed over its own ranges and reported
/// as followed by `damage`, a change no rule allows. Every signature is then reported and
/// fails on its own, rather than the file being refused whole.
pub fn signatures_of_damaged(input: &[u8], damage: &str) -> Vec<SignatureInfo> {
    let mut found: Vec<SignatureInfo> = Vec::new();
    let mut from = 0;
    while let Some(at) = crate::reader::find(&input[from..], b"/ByteRange").map(|p| from + p) {
        from = at + b"/ByteRange".len();
        if found.len() >= MAX_SCANNED_SIGNATURES {
            break;
        }
        let info = scanned_signature(input, at, damage);
        if !found.iter().any(|f| f.byte_range == info.byte_range) {
            found.push(info);
        }
    }
    found
}

/// How far around a `/ByteRange` the other entries of its dictionary are looked for (a
/// `/Contents` string with its padding is some tens of KB, rarely more than 200).
const MAX_ENTRY_DISTANCE: usize = 512 << 10;

/// The entries of the signature dictionary whose `/ByteRange` is at `key_at`, read one by one
/// (the dictionary as a whole may no longer parse: wrapping puts objects inside it): for each
/// key, the nearest occurrence whose value parses and is of the kind a signature dictionary
/// holds. Also where the `/Contents` string starts.
fn entries_around(input: &[u8], key_at: usize) -> (Dict, Option<usize>) {
    let mut dict = Dict::new();
    let mut contents_at = None;
    if let Some((value, _)) = value_after(input, key_at + b"/ByteRange".len()) {
        dict.set("ByteRange", value);
    }
    let low = key_at.saturating_sub(MAX_ENTRY_DISTANCE);
    let high = input.len().min(key_at.saturating_add(MAX_ENTRY_DISTANCE));
    for key in ["Contents", "Type", "SubFilter", "Filter", "M", "Name", "Reason", "Location"] {
        let marker = format!("/{key}");
        let fits = |value: &Object| match key {
            "Contents" | "M" | "Name" | "Reason" | "Location" => value.as_str_bytes().is_some(),
            "Type" => matches!(value.as_name(), Some(b"Sig" | b"DocTimeStamp")),
            "Filter" => value.as_name().is_some_and(|n| n.starts_with(b"Adobe") || n.starts_with(b"Entrust")),
            _ => value.as_name().is_some(),
        };
        let before = occurrences(&input[low..key_at], marker.as_bytes()).into_iter().map(|p| low + p);
        let after = occurrences(&input[key_at..high], marker.as_bytes()).into_iter().map(|p| key_at + p);
        let mut nearest: Vec<usize> = before.chain(after).collect();
        nearest.sort_by_key(|p| p.abs_diff(key_at));
        for at in nearest.into_iter().take(16) {
            if let Some((value, value_at)) = value_after(input, at + marker.len())
                && fits(&value)
            {
                if key == "Contents" {
                    contents_at = Some(value_at);
                }
                dict.set(key, value);
                break;
            }
        }
    }
    (dict, contents_at)
}

/// Where `needle` occurs in `hay` (the last 64 occurrences at most).
fn occurrences(hay: &[u8], needle: &[u8]) -> Vec<usize> {
    let mut out = std::collections::VecDeque::new();
    let mut from = 0;
    while let Some(p) = crate::reader::find(&hay[from..], needle) {
        if out.len() == 64 {
            out.pop_front();
        }
        out.push_back(from + p);
        from += p + needle.len();
    }
    out.into()
}

/// The object that follows a key ending at `at`, and where it starts; `None` when the key is
/// only the start of a longer name (`/Contents2`) or what follows does not parse.
fn value_after(input: &[u8], at: usize) -> Option<(Object, usize)> {
    let rest = input.get(at..)?;
    if rest.first().is_some_and(|b| !crate::object::is_whitespace(*b) && !crate::object::is_delimiter(*b)) {
        return None;
    }
    let mut parser = crate::parser::Parser::new(rest, at as u64, true);
    parser.skip_ws();
    let start = at + parser.pos;
    parser.parse_object().ok().map(|value| (value, start))
}

/// One scanned signature dictionary, checked like [`describe`] checks one read through the
/// file's structure, and followed by `damage`.
fn scanned_signature(input: &[u8], key_at: usize, damage: &str) -> SignatureInfo {
    let (entries, contents_at) = entries_around(input, key_at);
    let byte_range: Vec<i64> = entries
        .get("ByteRange")
        .and_then(Object::as_array)
        .unwrap_or_default()
        .iter()
        .filter_map(Object::as_int)
        .collect();
    let len = input.len() as u64;
    let br = byte_range_offsets(&byte_range);
    let byte_at = |at: u64| usize::try_from(at).ok().and_then(|at| input.get(at).copied());
    let byte_range_ok = br.is_some_and(|b| {
        gap_holds_contents(b, len, contents_length(&entries), byte_at) && contents_at == usize::try_from(b[1]).ok()
    });
    let digest = match br {
        Some(b) if byte_range_ok => hash_source_ranges(&input, &b).unwrap_or([0; 32]),
        _ => [0; 32],
    };
    let end = br.map_or(0, |b| b[2].saturating_add(b[3]));
    SignatureInfo {
        field_name: format!("signature dictionary near byte {key_at}"),
        digest,
        byte_range_ok,
        covers_whole_file: byte_range_ok && end == len,
        later_changes: Modifications {
            later_revisions: 1,
            disallowed: vec![format!(
                "the file cannot be read as a PDF ({damage}), so what it shows cannot be tied to what was signed"
            )],
            ..Modifications::default()
        },
        byte_range,
        ..declared(&entries)
    }
}

/// What a signature dictionary says of itself: its kind, filters, signature value and the
/// signer's declared name, time, reason and location.
fn declared(v: &Dict) -> SignatureInfo {
    let text = |k: &str| v.get(k).and_then(Object::as_str_bytes).map(decode_text);
    let name = |key: &str| v.name(key).map(|n| String::from_utf8_lossy(n).into_owned());
    let raw_contents = v.get("Contents").and_then(Object::as_str_bytes).unwrap_or(&[]);
    SignatureInfo {
        sig_type: name("Type").unwrap_or_else(|| "Sig".into()),
        filter: name("Filter").unwrap_or_default(),
        sub_filter: name("SubFilter").unwrap_or_default(),
        contents: trim_der(raw_contents).to_vec(),
        vri_key: sha1::Sha1::digest(raw_contents).iter().map(|b| format!("{b:02X}")).collect(),
        signing_time: text("M"),
        name: text("Name"),
        reason: text("Reason"),
        location: text("Location"),
        ..SignatureInfo::default()
    }
}

/// The length of a signature dictionary's `/Contents` string, padding included.
fn contents_length(v: &Dict) -> u64 {
    v.get("Contents").and_then(Object::as_str_bytes).map_or(0, |c| c.len() as u64)
}

/// A `/ByteRange` of four offsets none negative, as offsets.
fn byte_range_offsets(byte_range: &[i64]) -> Option<[u64; 4]> {
    match byte_range {
        &[a, b, c, d] if [a, b, c, d].iter().all(|x| *x >= 0) => Some([a as u64, b as u64, c as u64, d as u64]),
        _ => None,
    }
}

/// Whether `b` starts at the file's first byte, ends within its `len` bytes and leaves
/// exactly one gap that holds the hex `/Contents` string of `contents_len` bytes, its `<` and `>`
/// included.
fn gap_holds_contents(b: [u64; 4], len: u64, contents_len: u64, byte_at: impl Fn(u64) -> Option<u8>) -> bool {
    b[0] == 0
        && b[1] < b[2]
        && b[2].saturating_add(b[3]) <= len
        && byte_at(b[1]) == Some(b'<')
        && byte_at(b[2] - 1) == Some(b'>')
        && (b[2] - b[1]).checked_sub(2) == Some(contents_len * 2)
}

pub(crate) struct SigField {
    pub name: String,
    pub value_ref: Option<ObjRef>,
    pub value: Dict,
}

/// Signature fields with a value (`/FT /Sig` inherited through `/Parent`), depth-first.
pub(crate) fn collect_signature_fields(doc: &Document<'_>, fields: &[Object]) -> Result<Vec<SigField>> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for f in fields {
        walk_field(doc, f, "", None, &mut out, &mut seen, 0)?;
    }
    Ok(out)
}

fn walk_field(
    doc: &Document<'_>,
    node: &Object,
    parent_name: &str,
    inherited_ft: Option<Vec<u8>>,
    out: &mut Vec<SigField>,
    seen: &mut HashSet<u32>,
    depth: usize,
) -> Result<()> {
    if depth > 32 {
        return Ok(());
    }
    if let Object::Ref(r) = node
        && !seen.insert(r.num)
    {
        return Ok(());
    }
    let Some(d) = doc.resolve_dict(node)? else {
        return Ok(());
    };
    let name = match d.get("T").and_then(Object::as_str_bytes) {
        Some(t) if parent_name.is_empty() => decode_text(t),
        Some(t) => format!("{parent_name}.{}", decode_text(t)),
        None => parent_name.to_string(),
    };
    let ft = d.name("FT").map(<[u8]>::to_vec).or(inherited_ft);
    if ft.as_deref() == Some(b"Sig")
        && let Some(v) = d.get("V")
        && let Some(value) = doc.resolve_dict(v)?
    {
        out.push(SigField { name, value_ref: v.as_ref(), value });
        return Ok(());
    }
    if let Some(kids) = d.get("Kids") {
        for kid in doc.resolve_array(kids)?.unwrap_or_default() {
            walk_field(doc, &kid, &name, ft.clone(), out, seen, depth + 1)?;
        }
    }
    Ok(())
}

fn describe(
    doc: &Document<'_>,
    eofs: &[u64],
    field: SigField,
    docmdp_sig: Option<ObjRef>,
    document_p: Option<i64>,
) -> Result<SignatureInfo> {
    let v = &field.value;
    let byte_range: Vec<i64> = v
        .get("ByteRange")
        .map(|b| doc.resolve_array(b))
        .transpose()?
        .flatten()
        .unwrap_or_default()
        .iter()
        .filter_map(Object::as_int)
        .collect();
    let src = doc.source();
    let len = src.len();
    let byte_at = |at: u64| -> Option<u8> { src.window(at, 1).ok().and_then(|w| w.first().copied()) };
    let br = byte_range_offsets(&byte_range);
    let byte_range_ok = br.is_some_and(|b| {
        gap_holds_contents(b, len, contents_length(v), byte_at) && gap_inside_signature_dict(doc, field.value_ref, b[1])
    });
    let end = br.map_or(0, |b| b[2].saturating_add(b[3]));
    let digest = match br {
        Some(b) if byte_range_ok => hash_source_ranges(src, &b)?,
        _ => [0; 32],
    };
    let docmdp_p = if field.value_ref.is_some() && field.value_ref == docmdp_sig {
        Some(docmdp_p_of(doc, v)?.unwrap_or(2))
    } else {
        None
    };
    Ok(SignatureInfo {
        field_name: field.name,
        digest,
        byte_range_ok,
        covers_revision: byte_range_ok && eofs.contains(&end),
        covers_whole_file: byte_range_ok && end == len,
        docmdp_p,
        later_changes: if byte_range_ok {
            let mut changes = modifications_after(doc, eofs, end, docmdp_p, document_p)?;
            if !eofs.contains(&end) {
                // Signed bytes that stop inside a revision leave the rest of it unsigned.
                changes.disallowed.insert(0, format!("the signed range ends at byte {end}, inside a revision"));
            }
            changes
        } else {
            Modifications::default()
        },
        byte_range,
        ..declared(v)
    })
}

/// The ByteRange gap must be this signature dictionary's own `/Contents`: signature wrapping
/// points it at a copy elsewhere and moves the signed bytes around it.
fn gap_inside_signature_dict(doc: &Document<'_>, value_ref: Option<ObjRef>, gap_start: u64) -> bool {
    const MAX_SIG_DICT: u64 = 64 * 1024;
    let Some(r) = value_ref else {
        // A direct value sits inside its field's dictionary; nothing to locate it by.
        return true;
    };
    let Some(&XrefEntry::InUse { offset, .. }) = doc.xref.get(&r.num) else {
        return false;
    };
    if offset >= gap_start || gap_start - offset > MAX_SIG_DICT {
        return false;
    }
    match doc.source().window(offset, (gap_start - offset) as usize) {
        Ok(w) => crate::reader::find(&w, b"endobj").is_none(),
        Err(_) => false,
    }
}

fn docmdp_p_of(doc: &Document<'_>, sig: &Dict) -> Result<Option<i64>> {
    for r in sig.get("Reference").map(|r| doc.resolve_array(r)).transpose()?.flatten().unwrap_or_default() {
        if let Some(r) = doc.resolve_dict(&r)?
            && r.name("TransformMethod") == Some(b"DocMDP")
        {
            let p =
                r.get("TransformParams").map(|t| doc.resolve_dict(t)).transpose()?.flatten().and_then(|t| t.int("P"));
            return Ok(p);
        }
    }
    Ok(None)
}

/// Remove the zero padding after the DER value (the placeholder is larger than the CMS).
fn trim_der(bytes: &[u8]) -> &[u8] {
    if bytes.first() != Some(&0x30) {
        return bytes;
    }
    match crate::ber::encoded_len(bytes) {
        Some(n) => &bytes[..n],
        None => bytes,
    }
}

/// SHA-256 over `[0, br1)` and `[br2, br2+br3)`, read in chunks.
fn hash_source_ranges(src: &dyn Source, br: &[u64; 4]) -> Result<[u8; 32]> {
    let mut h = Sha256::new();
    for (start, len) in [(br[0], br[1]), (br[2], br[3])] {
        let mut done = 0u64;
        while done < len {
            let want = (len - done).min(1 << 20) as usize;
            let w = src.window(start + done, want)?;
            if w.is_empty() {
                break;
            }
            h.update(&w);
            done += w.len() as u64;
        }
    }
    Ok(h.finalize().into())
}

/// Offsets just after each `%%EOF` marker (and after its end-of-line, both forms accepted).
fn revision_ends(src: &dyn Source) -> Result<Vec<u64>> {
    const CHUNK: u64 = 1 << 20;
    let mut out = Vec::new();
    let mut pos = 0u64;
    while pos < src.len() {
        // Overlap so a marker and its end-of-line straddling two chunks are seen whole.
        let w = src.window(pos, CHUNK as usize + 8)?;
        let limit = w.len().min(CHUNK as usize + 4);
        let mut i = 0;
        while let Some(p) = crate::reader::find(&w[i..limit], b"%%EOF") {
            let end = i + p + 5;
            if end as u64 + pos > src.len() || (i + p) as u64 >= CHUNK {
                break;
            }
            out.push(pos + end as u64);
            let mut e = end;
            if w.get(e) == Some(&b'\r') {
                e += 1;
                out.push(pos + e as u64);
            }
            if w.get(e) == Some(&b'\n') {
                e += 1;
                out.push(pos + e as u64);
            }
            i = end;
        }
        pos += CHUNK;
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Compare every object changed by the sections written after `signed_end` with its version
/// in the signed revision.
/// `docmdp_p` is set when the signature is a certification: with P=2 a new visible widget of a
/// new field is not allowed (only filling fields and signing), as pyHanko and Acrobat judge it.
/// `document_p` is the certification's permission, which binds every signature's later
/// revisions (annotations: [`added_annotation`]).
fn modifications_after(
    doc: &Document<'_>,
    eofs: &[u64],
    signed_end: u64,
    docmdp_p: Option<i64>,
    document_p: Option<i64>,
) -> Result<Modifications> {
    let mut result = Modifications::default();
    let later: Vec<usize> = (0..doc.sections.len()).filter(|i| doc.sections[*i].offset >= signed_end).collect();
    result.later_revisions = later.len();
    if let Some(problem) = unaccounted_bytes(doc, eofs, signed_end, !later.is_empty())? {
        result.disallowed.push(problem);
        return Ok(result);
    }
    if later.is_empty() {
        return Ok(result);
    }
    let older: Vec<usize> = (0..doc.sections.len()).filter(|i| doc.sections[*i].offset < signed_end).collect();
    if let Some(problem) = signed_section_skipped(doc, signed_end, &older)? {
        result.disallowed.push(problem);
    }
    if let Some(problem) = catalog_replaced(doc, &older) {
        result.disallowed.push(problem);
    }
    let mut before: HashMap<u32, XrefEntry> = HashMap::new();
    for i in older.iter().rev() {
        for (n, e) in &doc.sections[*i].entries {
            before.insert(*n, *e);
        }
    }
    let mut changed: Vec<u32> = later.iter().flat_map(|i| doc.sections[*i].entries.iter().map(|(n, _)| *n)).collect();
    changed.extend(objects_in_changed_object_streams(doc, &before, &changed, &mut result.disallowed));
    changed.sort_unstable();
    changed.dedup();
    let signed_fields = form_field_numbers(doc, &before);
    let appearances = field_appearances(doc, &before, &signed_fields);
    let mut drawn_by_pages: Option<Option<HashSet<u32>>> = None;
    let metadata = Metadata::of(doc);
    let mut added = 0usize;
    let mut drawn: Vec<Drawn> = Vec::new();
    for num in changed {
        let r = ObjRef::new(num, 0);
        let new = match doc.get(r) {
            Ok(o) => o,
            Err(e) => {
                result.disallowed.push(format!("object {num} cannot be read in the latest revision ({e})"));
                continue;
            }
        };
        let old = match before.contains_key(&num).then(|| doc.get_with(&before, r)).transpose() {
            Ok(o) => o.unwrap_or(Object::Null),
            Err(e) => {
                result.disallowed.push(format!("object {num} cannot be read in the signed revision ({e})"));
                continue;
            }
        };
        if let (Object::Stream(_), Object::Stream(_), Some(&widget)) = (&old, &new, appearances.get(&num))
            && old != new
        {
            let pages_draw = drawn_by_pages.get_or_insert_with(|| doc.drawn_by_pages());
            if pages_draw.as_ref().is_some_and(|drawn| !drawn.contains(&num))
                && let Ok(object) = doc.get(ObjRef::new(widget, 0))
            {
                let old_widget = doc.get_with(&before, ObjRef::new(widget, 0)).unwrap_or(Object::Null);
                let signed_signature = is_signed_signature(doc, &before, &old_widget);
                let said = format!("field {widget}: appearance {num} redrawn");
                drawn.push(Drawn { num: widget, said, object, signed_signature });
                continue;
            }
        }
        match classify_change(num, &old, &new, &signed_fields, &metadata) {
            Change::Same => {}
            Change::Added if docmdp_p == Some(2) && is_new_visible_widget(&new, num, &before) => {
                result.disallowed.push(format!("widget {num}: a new visible field after a P=2 certification"));
            }
            Change::Added => match added_annotation(num, &new, document_p) {
                Some(Change::Allowed(said)) => drawn.push(Drawn { num, said, object: new, signed_signature: false }),
                Some(Change::Disallowed(s)) => result.disallowed.push(s),
                _ if is_widget(&new) => {
                    drawn.push(Drawn { num, said: format!("widget {num} added"), object: new, signed_signature: false })
                }
                _ => added += 1,
            },
            Change::Allowed(said) if appearance_changed(&old, &new) => {
                let signed_signature = is_signed_signature(doc, &before, &old);
                drawn.push(Drawn { num, said, object: new, signed_signature });
            }
            Change::Allowed(s) => result.allowed.push(s),
            Change::Disallowed(s) => result.disallowed.push(s),
        }
    }
    if added > 0 {
        result.allowed.push(format!("{added} objects added"));
    }
    place_drawn(doc, signed_end, drawn, &mut result);
    Ok(result)
}

/// An allowed change that draws on a page: an added annotation or widget, or a field whose
/// appearance or value changed.
struct Drawn {
    num: u32,
    /// The change as the rules described it.
    said: String,
    object: Object,
    /// The appearance of a signature that was already signed was replaced.
    signed_signature: bool,
}

/// Says where each drawn change is and what it draws, and records those that lie over signed
/// content (the signed revision's pages are read only when something was drawn).
fn place_drawn(doc: &Document<'_>, signed_end: u64, drawn: Vec<Drawn>, result: &mut Modifications) {
    if drawn.is_empty() {
        return;
    }
    let latest = LatestPages::read(doc);
    let placed: Vec<(Drawn, Option<Placed>)> = drawn
        .into_iter()
        .map(|item| {
            let placed = match (&item.object, &latest) {
                (Object::Dict(dict), Some(pages)) => pages.place(doc, item.num, dict),
                _ => None,
            };
            (item, placed)
        })
        .collect();
    let pages: Vec<usize> = placed.iter().filter_map(|(_, p)| p.as_ref().map(|p| p.page)).collect();
    let signed = SignedPages::read(doc, signed_end, &pages);
    for (item, placed) in placed {
        let Some(placed) = placed else {
            result.allowed.push(item.said);
            continue;
        };
        result.allowed.push(format!("{} {}", item.said, placed.describe()));
        let covering = signed.as_ref().and_then(|pages| pages.covering(&placed));
        match (covering, item.signed_signature) {
            (Some(covering), _) => result.covering.push(covering),
            (None, true) => result.covering.push(Covering {
                object: placed.object,
                page: placed.page,
                subtype: "signature appearance".into(),
                rect: placed.rect,
                draws: placed.draws,
                covers: "appearance of this signature".into(),
            }),
            (None, false) => {}
        }
    }
}

fn is_widget(object: &Object) -> bool {
    matches!(object, Object::Dict(d) if d.name("Subtype") == Some(b"Widget"))
}

/// A field or widget whose appearance (`/AP`, `/AS`) or value changed: what it shows may have.
fn appearance_changed(old: &Object, new: &Object) -> bool {
    let (Object::Dict(old), Object::Dict(new)) = (old, new) else { return false };
    new.get("Rect").is_some() && ["AP", "AS", "V"].iter().any(|key| old.get(key) != new.get(key))
}

/// The widget of a signature field that held a signature in the signed revision (the field is
/// the widget itself, or its `/Parent`).
fn is_signed_signature(doc: &Document<'_>, before: &HashMap<u32, XrefEntry>, old: &Object) -> bool {
    let Object::Dict(widget) = old else { return false };
    let parent = match widget.get("Parent").and_then(Object::as_ref) {
        Some(parent) if widget.get("FT").is_none() => match doc.get_with(before, parent) {
            Ok(Object::Dict(field)) => Some(field),
            _ => return false,
        },
        _ => None,
    };
    let field = parent.as_ref().unwrap_or(widget);
    field.name("FT") == Some(b"Sig") && field.get("V").is_some()
}

/// Bytes after the signed revision that no readable incremental update accounts for: data
/// appended without a cross-reference section (shown by tolerant readers, hidden from others),
/// a broken cross-reference section (the rebuilt xref cannot tell what changed), or anything
/// after the last `%%EOF`.
fn unaccounted_bytes(doc: &Document<'_>, eofs: &[u64], signed_end: u64, has_later: bool) -> Result<Option<String>> {
    let len = doc.len();
    if signed_end >= len {
        return Ok(None);
    }
    if !has_later && is_blank(doc.source(), signed_end, len)? {
        return Ok(None);
    }
    if doc.recovered {
        return Ok(Some(format!(
            "{} bytes follow the signed revision but the cross-reference data is damaged, so the changes they make cannot be checked",
            len - signed_end
        )));
    }
    if !has_later {
        return Ok(Some(format!(
            "{} bytes after the signed revision are not an incremental update (no cross-reference section)",
            len - signed_end
        )));
    }
    let last_eof = eofs.iter().copied().filter(|e| *e <= len).max().unwrap_or(0);
    if last_eof < doc.startxref || !is_blank(doc.source(), last_eof, len)? {
        return Ok(Some(format!(
            "{} bytes after the last revision's %%EOF are not part of any revision",
            len - last_eof
        )));
    }
    Ok(None)
}

fn is_blank(src: &dyn Source, from: u64, to: u64) -> Result<bool> {
    let mut pos = from;
    while pos < to {
        let w = src.window(pos, (to - pos).min(1 << 20) as usize)?;
        if w.is_empty() {
            break;
        }
        if !w.iter().all(|b| crate::object::is_whitespace(*b)) {
            return Ok(false);
        }
        pos += w.len() as u64;
    }
    Ok(true)
}

/// The signed revision's own cross-reference section must still be in the chain the latest
/// revision starts: a later `/Prev` that jumps over it would let the update rewrite history.
fn signed_section_skipped(doc: &Document<'_>, signed_end: u64, older: &[usize]) -> Result<Option<String>> {
    let back = signed_end.min(1024);
    let w = doc.source().window(signed_end - back, back as usize)?;
    let Some(at) = crate::reader::rfind(&w, b"startxref") else {
        return Ok(Some("the signed revision has no startxref".into()));
    };
    let digits: String = w[at + 9..]
        .iter()
        .skip_while(|b| crate::object::is_whitespace(**b))
        .take_while(|b| b.is_ascii_digit())
        .map(|b| *b as char)
        .collect();
    let Ok(offset) = digits.parse::<u64>() else {
        return Ok(Some("the signed revision's startxref is not a number".into()));
    };
    if older.iter().any(|i| doc.sections[*i].offset == offset) {
        return Ok(None);
    }
    Ok(Some(format!(
        "the later revisions' cross-reference chain skips the signed revision's section at offset {offset}"
    )))
}

/// A later trailer naming another catalog swaps the whole document for new objects, which
/// object-by-object comparison would only see as "objects added".
fn catalog_replaced(doc: &Document<'_>, older: &[usize]) -> Option<String> {
    let signed_root = older.first().and_then(|i| doc.sections[*i].trailer.get("Root")).and_then(Object::as_ref)?;
    let root = doc.trailer.get("Root").and_then(Object::as_ref)?;
    (root != signed_root).then(|| {
        format!("the document catalog was replaced (trailer /Root {} 0 R, signed {} 0 R)", root.num, signed_root.num)
    })
}

/// Objects held by an object stream that a later revision redefines (in either version):
/// they change with it even though no later xref entry names them.
fn objects_in_changed_object_streams(
    doc: &Document<'_>,
    before: &HashMap<u32, XrefEntry>,
    changed: &[u32],
    problems: &mut Vec<String>,
) -> Vec<u32> {
    let mut out = Vec::new();
    for &num in changed {
        match doc.objstm_members(&doc.xref, num) {
            Ok(members) => out.extend(members),
            Err(e) => problems.push(format!("object stream {num} cannot be read in the latest revision ({e})")),
        }
        if before.contains_key(&num) {
            match doc.objstm_members(before, num) {
                Ok(members) => out.extend(members),
                Err(e) => problems.push(format!("object stream {num} cannot be read in the signed revision ({e})")),
            }
        }
    }
    out
}

/// Object numbers of the form fields (and their widgets) reachable from the AcroForm `/Fields`
/// of a revision: only these may take form-filling changes.
fn form_field_numbers(doc: &Document<'_>, xref: &HashMap<u32, XrefEntry>) -> HashSet<u32> {
    let mut out = HashSet::new();
    let get = |obj: &Object| -> Option<Object> {
        match obj {
            Object::Ref(r) => doc.get_with(xref, *r).ok(),
            other => Some(other.clone()),
        }
    };
    let catalog = doc.trailer.get("Root").and_then(Object::as_ref).and_then(|r| doc.get_with(xref, r).ok());
    let fields = catalog
        .as_ref()
        .and_then(Object::as_dict)
        .and_then(|c| c.get("AcroForm"))
        .and_then(get)
        .and_then(|f| f.as_dict().and_then(|f| f.get("Fields")).and_then(get));
    let mut todo: Vec<(Object, usize)> = match fields {
        Some(Object::Array(items)) => items.into_iter().map(|i| (i, 0)).collect(),
        _ => Vec::new(),
    };
    while let Some((item, depth)) = todo.pop() {
        let Object::Ref(r) = item else { continue };
        if depth > 32 || out.len() > 100_000 || !out.insert(r.num) {
            continue;
        }
        if let Some(Object::Array(kids)) =
            doc.get_with(xref, r).ok().as_ref().and_then(Object::as_dict).and_then(|d| d.get("Kids")).and_then(get)
        {
            todo.extend(kids.into_iter().map(|k| (k, depth + 1)));
        }
    }
    out
}

/// The appearance streams (`/AP` `/N`, `/D`, `/R`, each a stream or a dictionary of states)
/// of the signed revision's form fields, with the widget each belongs to. Form fillers redraw
/// a field by rewriting its appearance stream in place (pypdf does): that is form filling,
/// judged like a new appearance (placed, and checked for what it covers), as long as the
/// pages do not draw the same stream themselves.
fn field_appearances(doc: &Document<'_>, xref: &HashMap<u32, XrefEntry>, fields: &HashSet<u32>) -> HashMap<u32, u32> {
    let resolve = |obj: &Object| match obj {
        Object::Ref(r) => doc.get_with(xref, *r).ok(),
        other => Some(other.clone()),
    };
    let mut out = HashMap::new();
    for &widget in fields {
        let Ok(Object::Dict(dict)) = doc.get_with(xref, ObjRef::new(widget, 0)) else { continue };
        let Some(Object::Dict(ap)) = dict.get("AP").and_then(resolve) else { continue };
        for key in ["N", "D", "R"] {
            match ap.get(key) {
                Some(Object::Ref(r)) => match doc.get_with(xref, *r) {
                    Ok(Object::Stream(_)) => {
                        out.insert(r.num, widget);
                    }
                    Ok(Object::Dict(states)) => {
                        out.extend(states.0.iter().filter_map(|(_, s)| s.as_ref()).map(|s| (s.num, widget)));
                    }
                    _ => {}
                },
                Some(Object::Dict(states)) => {
                    out.extend(states.0.iter().filter_map(|(_, s)| s.as_ref()).map(|s| (s.num, widget)));
                }
                _ => {}
            }
        }
    }
    out
}

/// A widget annotation with a non-empty /Rect whose field did not exist in the signed revision.
fn is_new_visible_widget(obj: &Object, num: u32, before: &HashMap<u32, XrefEntry>) -> bool {
    let Object::Dict(d) = obj else { return false };
    if d.name("Subtype") != Some(b"Widget") {
        return false;
    }
    let rect: Vec<f64> =
        d.get("Rect").and_then(Object::as_array).unwrap_or(&[]).iter().filter_map(Object::as_number).collect();
    let visible = rect.len() == 4 && (rect[2] - rect[0]).abs() > 0.0 && (rect[3] - rect[1]).abs() > 0.0;
    let field = d.get("Parent").and_then(Object::as_ref).map_or(num, |p| p.num);
    visible && !before.contains_key(&field)
}

/// Annotations a reader draws as comments on top of the page: allowed in a later revision when
/// no certification forbids them (reported, with their page position left to the report).
const COMMENT_SUBTYPES: [&[u8]; 16] = [
    b"Text",
    b"Link",
    b"FreeText",
    b"Line",
    b"Square",
    b"Circle",
    b"Polygon",
    b"PolyLine",
    b"Highlight",
    b"Underline",
    b"Squiggly",
    b"StrikeOut",
    b"Stamp",
    b"Caret",
    b"Ink",
    b"Popup",
];

/// The rule for an annotation first seen after signing (`None` for anything else, and for
/// widgets: fields have their own rules). A certification with P=1 or P=2 allows only form
/// filling and signing, so any other annotation fails: a FreeText or Stamp whose appearance
/// paints over certified text is the Evil Annotation Attack. Without such a certification,
/// the comment subtypes are allowed and reported; others (redactions, watermarks, media,
/// unknown kinds) change what the document is and fail.
fn added_annotation(num: u32, object: &Object, document_p: Option<i64>) -> Option<Change> {
    let Object::Dict(d) = object else { return None };
    let subtype = d.name("Subtype")?;
    if subtype == b"Widget" || (d.get("Rect").is_none() && !d.has_type("Annot")) {
        return None;
    }
    let kind = String::from_utf8_lossy(subtype);
    Some(match document_p {
        Some(p @ (1 | 2)) => Change::Disallowed(format!(
            "annotation {num} ({kind}) added after a P={p} certification, which allows only form filling and signing"
        )),
        _ if COMMENT_SUBTYPES.contains(&subtype) => Change::Allowed(format!("annotation {num} ({kind}) added")),
        _ => Change::Disallowed(format!("annotation {num} ({kind}) added: not a comment")),
    })
}

enum Change {
    Same,
    Added,
    Allowed(String),
    Disallowed(String),
}

/// The objects that describe the document rather than show it: the document information
/// dictionary (the trailer's `/Info`) and the XMP metadata stream (the catalog's `/Metadata`).
/// Every saving tool rewrites them (pyHanko and Acrobat set `/ModDate` on each incremental
/// save a second or more after the last), and no reader draws them on a page, so a later
/// revision may change them: the change is reported, never a failure. Only while they still
/// are what they claim to be: an information dictionary of text and numbers, an XML metadata
/// stream (an object pointed at as `/Info` that is a page stays a page).
struct Metadata {
    info: Option<u32>,
    xmp: Option<u32>,
}

impl Metadata {
    fn of(doc: &Document<'_>) -> Metadata {
        let info = doc.trailer.get("Info").and_then(Object::as_ref).map(|r| r.num);
        let xmp = doc.catalog().ok().and_then(|(_, c)| c.get("Metadata").and_then(Object::as_ref)).map(|r| r.num);
        Metadata { info, xmp }
    }

    /// The change of object `num` when it is metadata on both sides.
    fn change(&self, num: u32, old: &Object, new: &Object) -> Option<Change> {
        let described =
            |what: &str| Some(Change::Allowed(format!("{what} {num} updated (metadata, not page content)")));
        if self.info == Some(num) && is_information_dict(old) && is_information_dict(new) {
            return described("document information");
        }
        if self.xmp == Some(num) && is_xmp_stream(old) && is_xmp_stream(new) {
            return described("XMP metadata");
        }
        None
    }
}

/// A document information dictionary: text, names, numbers and booleans only (no references,
/// arrays, dictionaries or streams that could carry anything drawn).
fn is_information_dict(object: &Object) -> bool {
    match object {
        Object::Dict(dict) => dict.0.iter().all(|(_, value)| {
            matches!(
                value,
                Object::Str { .. }
                    | Object::Name(_)
                    | Object::Int(_)
                    | Object::Real(_)
                    | Object::Bool(_)
                    | Object::Null
            )
        }),
        _ => false,
    }
}

fn is_xmp_stream(object: &Object) -> bool {
    matches!(object, Object::Stream(s) if s.dict.has_type("Metadata") && s.dict.name("Subtype") == Some(b"XML"))
}

fn classify_change(num: u32, old: &Object, new: &Object, fields: &HashSet<u32>, metadata: &Metadata) -> Change {
    if old != new
        && let Some(change) = metadata.change(num, old, new)
    {
        return change;
    }
    match (old, new) {
        (Object::Null, _) => Change::Added,
        (a, b) if a == b => Change::Same,
        (_, Object::Null) => Change::Disallowed(format!("object {num} was deleted")),
        (Object::Array(a), Object::Array(b)) => {
            if a.iter().all(|x| b.contains(x)) {
                Change::Allowed(format!("array {num} extended (annotations or fields)"))
            } else {
                Change::Disallowed(format!("array {num} lost entries"))
            }
        }
        (Object::Dict(a), Object::Dict(b)) => classify_dict_change(num, a, b, fields),
        // A retired xref stream is not shown; an object stream's objects are compared one by
        // one. A content stream turned into an object stream (or the reverse) is a rewrite.
        (Object::Stream(a), Object::Stream(_)) if a.dict.has_type("XRef") => Change::Same,
        (Object::Stream(a), Object::Stream(b)) if a.dict.has_type("ObjStm") && b.dict.has_type("ObjStm") => {
            Change::Same
        }
        _ => Change::Disallowed(format!("object {num} was rewritten")),
    }
}

fn classify_dict_change(num: u32, old: &Dict, new: &Dict, fields: &HashSet<u32>) -> Change {
    let mut keys: Vec<&[u8]> = old.0.iter().chain(new.0.iter()).map(|(k, _)| k.as_slice()).collect();
    keys.sort_unstable();
    keys.dedup();
    let changed: Vec<String> = keys
        .into_iter()
        .filter(|k| {
            let k = String::from_utf8_lossy(k);
            old.get(&k) != new.get(&k)
        })
        .map(|k| String::from_utf8_lossy(k).into_owned())
        .collect();
    // Page-tree nodes also have /Parent: only real fields and widgets take form filling.
    let is_field = old.get("FT").is_some() || old.name("Subtype") == Some(b"Widget") || fields.contains(&num);
    let kind = if old.has_type("Catalog") {
        "catalog"
    } else if old.has_type("Page") || new.has_type("Page") {
        "page"
    } else if old.has_type("Pages") || new.has_type("Pages") {
        "page tree node"
    } else if old.get("Fields").is_some() || new.get("SigFlags").is_some() {
        "form"
    } else if is_field {
        "field"
    } else if old.has_type("DSS") || new.get("Certs").is_some() || new.get("OCSPs").is_some() {
        "dss"
    } else {
        "object"
    };
    let allowed: &[&str] = match kind {
        // `/Version` declares the syntax a saving tool wrote (pyHanko raises it to 1.7 when it
        // co-signs an older file); it draws nothing.
        "catalog" => &["AcroForm", "DSS", "Extensions", "Metadata", "Version"],
        "page" => &["Annots"],
        "form" => &["Fields", "SigFlags", "DR", "DA", "NeedAppearances"],
        "field" => &["V", "AP", "AS", "Kids"],
        "dss" => &["Certs", "OCSPs", "CRLs", "VRI"],
        _ => &[],
    };
    let bad: Vec<&String> = changed.iter().filter(|k| !allowed.contains(&k.as_str())).collect();
    if kind == "page"
        && let (Some(Object::Array(a)), Some(Object::Array(b))) = (old.get("Annots"), new.get("Annots"))
        && !a.iter().all(|x| b.contains(x))
    {
        return Change::Disallowed(format!("page {num}: annotations removed"));
    }
    if bad.is_empty() {
        Change::Allowed(format!("{kind} {num}: {} updated", changed.join(", ")))
    } else {
        Change::Disallowed(format!(
            "{kind} {num}: {} changed",
            bad.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
        ))
    }
}
