//! Two-phase incremental signing: `prepare` appends a signature field with reserved `/Contents`
//! and returns the ByteRange digest; `embed` hex-patches the CMS produced elsewhere.
//!
//! The original bytes are never changed: earlier signatures stay valid (co-signing).
//!
//! Boxes a signer fills in with their signature (a date, a name, initials, a text, a checkbox)
//! are form fields of their own, never widgets of the signature field: poppler's pdfsig reads
//! every widget of a signature field as another signature (two signers with a date box listed
//! three signatures). pyHanko's difference analysis accepts after a signature only new
//! *signature* fields and the filling of fields that already existed ("More form fields added
//! than expected" otherwise), so [`add_mark_fields`] creates every signer's boxes as empty
//! read-only text and checkbox fields before the first signature, and each signature fills its
//! own in its revision (form filling). A mark with no prepared field (a document signed before
//! this existed) is still drawn as a widget of the signature field.

use std::collections::HashSet;
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::appearance::{Appearance, MarkContent, Renderer};
use crate::date::{pdf_date, unix_millis};
use crate::error::{Error, Result};
use crate::filters::flate_encode;
use crate::layout::{BoxSpec, Placement, place};
use crate::object::{Dict, ObjRef, Object, Stream, StreamData, decode_text, write_object};
use crate::reader::{Document, Page};
use crate::source::{FileSource, Source};
use crate::writer::{ObjSink, Writer};
use signet_locale::Zone;

/// Bytes reserved for the CMS when the caller does not say (32768 hex characters).
pub const DEFAULT_CONTENTS_SIZE: usize = 16384;
/// Fixed-width ByteRange placeholder: patched later with the same length (pitfall P1).
const BYTE_RANGE_PLACEHOLDER: &[u8] = b"[0 0000000000 0000000000 0000000000]";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SignatureKind {
    /// An ordinary (approval) signature.
    #[default]
    Approval,
    /// A certification signature, DocMDP P=2 (form filling and further signatures allowed).
    Certification,
    /// A document timestamp (`/Type /DocTimeStamp`, `/SubFilter /ETSI.RFC3161`), for B-LTA.
    DocTimeStamp,
}

/// The `/SubFilter` of an approval or certification signature: what kind of CMS `/Contents`
/// holds. It is inside the ByteRange, so it is chosen before the CMS exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SubFilter {
    /// `ETSI.CAdES.detached` (PAdES baseline): the CMS has `signing-certificate-v2` and no
    /// `signingTime`, as every signature Signet makes itself.
    #[default]
    CadesDetached,
    /// `adbe.pkcs7.detached` (ISO 32000-1 §12.8.3.3): any detached CMS, as a remote provider
    /// returns it (Aadhaar eSign ESPs: `signingTime`, no `signing-certificate-v2`).
    Pkcs7Detached,
}

impl SubFilter {
    pub fn name(self) -> &'static str {
        match self {
            SubFilter::CadesDetached => "ETSI.CAdES.detached",
            SubFilter::Pkcs7Detached => "adbe.pkcs7.detached",
        }
    }
}

#[derive(Debug, Clone)]
pub struct SignOptions {
    pub kind: SignatureKind,
    /// The `/SubFilter` (a document time-stamp is always `ETSI.RFC3161`).
    pub sub_filter: SubFilter,
    /// Bytes reserved for the DER CMS (the placeholder holds twice as many hex digits).
    pub contents_size: usize,
    /// Field name; default `Signature<N>` unique in the form.
    pub field_name: Option<String>,
    pub name: Option<String>,
    pub reason: Option<String>,
    pub location: Option<String>,
    pub contact_info: Option<String>,
    /// `/M`; default now.
    pub signing_time: Option<SystemTime>,
    /// `None` = invisible signature (a zero-size widget on the first page).
    pub appearance: Option<Appearance>,
}

impl Default for SignOptions {
    fn default() -> Self {
        SignOptions {
            kind: SignatureKind::Approval,
            sub_filter: SubFilter::CadesDetached,
            contents_size: DEFAULT_CONTENTS_SIZE,
            field_name: None,
            name: None,
            reason: None,
            location: None,
            contact_info: None,
            signing_time: None,
            appearance: None,
        }
    }
}

/// The document with its signature placeholder, ready for the CMS.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub bytes: Vec<u8>,
    /// `[0, start of '<', end of '>', rest]` of the `/Contents` gap.
    pub byte_range: [u64; 4],
    /// SHA-256 over the two ByteRange parts: the CMS messageDigest (or the TSA imprint).
    pub digest: [u8; 32],
}

impl Prepared {
    /// Largest CMS (DER bytes) that fits.
    pub fn capacity(&self) -> usize {
        contents_capacity(&self.byte_range)
    }

    /// Rebuild the phase-1 result from stored prepared bytes (phase 2 may run in another
    /// process): finds the signature whose `/Contents` is still all zeros and recomputes the
    /// digest.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Prepared> {
        let placeholder = crate::verify::signatures(&bytes)?
            .into_iter()
            .rev()
            .find(|s| s.byte_range_ok && s.contents.iter().all(|b| *b == 0))
            .ok_or_else(|| Error::BadPrepared("no empty signature placeholder found".into()))?;
        let br = &placeholder.byte_range;
        let byte_range = [br[0] as u64, br[1] as u64, br[2] as u64, br[3] as u64];
        check_byte_range(bytes.len() as u64, &byte_range)?;
        let digest = hash_ranges(&bytes, &byte_range);
        Ok(Prepared { bytes, byte_range, digest })
    }
}

/// Result of preparing a file on disk (the prepared bytes are in the output file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedFile {
    pub byte_range: [u64; 4],
    pub digest: [u8; 32],
}

impl PreparedFile {
    /// Largest CMS (DER bytes) that fits.
    pub fn capacity(&self) -> usize {
        contents_capacity(&self.byte_range)
    }
}

/// Prepare an in-memory PDF.
pub fn prepare(input: &[u8], opts: &SignOptions) -> Result<Prepared> {
    let doc = Document::open(input)?;
    let update = build_signature_update(&doc, opts)?;
    let mut bytes = Vec::with_capacity(input.len() + update.bytes.len());
    bytes.extend_from_slice(input);
    bytes.extend_from_slice(&update.bytes);
    let byte_range = update.byte_range;
    let digest = hash_ranges(&bytes, &byte_range);
    Ok(Prepared { bytes, byte_range, digest })
}

/// Prepare a PDF file into `output`, streaming: the input is read once (hashed while copied),
/// and only the objects needed are parsed. Memory stays small whatever the file size.
pub fn prepare_file(input: &Path, output: &Path, opts: &SignOptions) -> Result<PreparedFile> {
    let doc = Document::open(FileSource::open(input)?)?;
    let input_len = doc.len();
    let update = build_signature_update(&doc, opts)?;
    // Copy (in the kernel) and hash (here) at the same time: wall time ~ one hashing pass.
    let (copied, hasher) = std::thread::scope(|scope| {
        let copier = scope.spawn(|| std::fs::copy(input, output));
        let hashed = hash_file_prefix(input, input_len);
        let copied = copier.join().map_err(|_| Error::Io(std::io::Error::other("copy thread failed")));
        (copied, hashed)
    });
    let mut hasher = hasher?;
    if copied?? != input_len {
        return Err(Error::Damaged("the input file changed while being signed".into()));
    }
    let gap_start = (update.byte_range[1] - input_len) as usize;
    let gap_end = (update.byte_range[2] - input_len) as usize;
    hasher.update(&update.bytes[..gap_start]);
    hasher.update(&update.bytes[gap_end..]);
    let mut out = std::fs::OpenOptions::new().append(true).open(output)?;
    out.write_all(&update.bytes)?;
    out.flush()?;
    Ok(PreparedFile { byte_range: update.byte_range, digest: hasher.finalize().into() })
}

/// SHA-256 state after the first `len` bytes of a file, read in 1 MiB chunks.
fn hash_file_prefix(path: &Path, len: u64) -> Result<Sha256> {
    let mut reader = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut chunk = vec![0u8; 1 << 20];
    let mut done = 0u64;
    while done < len {
        let want = chunk.len().min((len - done) as usize);
        let n = reader.read(&mut chunk[..want])?;
        if n == 0 {
            return Err(Error::Damaged("the input file shrank while being read".into()));
        }
        hasher.update(&chunk[..n]);
        done += n as u64;
    }
    Ok(hasher)
}

/// The update to append to a source, for callers that store documents elsewhere (object
/// storage, a custom [`Source`]): the signed document is `source bytes ++ update`.
#[derive(Debug, Clone)]
pub struct PreparedUpdate {
    /// Length of the source: the update starts at this offset.
    pub base: u64,
    pub update: Vec<u8>,
    pub byte_range: [u64; 4],
    pub digest: [u8; 32],
}

impl PreparedUpdate {
    /// Hex-patch the CMS into the update (same checks as [`embed`]).
    pub fn embed(&mut self, cms_der: &[u8]) -> Result<()> {
        let gap = self.byte_range[1].checked_sub(self.base).map(|g| g as usize);
        let Some(gap) = gap.filter(|g| self.update.get(*g) == Some(&b'<')) else {
            return Err(Error::BadPrepared("the update does not hold the /Contents gap".into()));
        };
        let hex = checked_hex(&self.byte_range, Some(&self.digest), cms_der)?;
        self.update[gap + 1..gap + 1 + hex.len()].copy_from_slice(&hex);
        Ok(())
    }
}

/// Prepare from any random-access source: parses lazily, hashes the source in 1 MiB chunks.
pub fn prepare_source(src: impl Source, opts: &SignOptions) -> Result<PreparedUpdate> {
    let doc = Document::open(src)?;
    let update = build_signature_update(&doc, opts)?;
    let base = doc.len();
    let mut hasher = Sha256::new();
    let mut done = 0u64;
    while done < base {
        let w = doc.source().window(done, 1 << 20)?;
        if w.is_empty() {
            return Err(Error::Damaged("the source shrank while being read".into()));
        }
        hasher.update(&w);
        done += w.len() as u64;
    }
    let gap_start = (update.byte_range[1] - base) as usize;
    let gap_end = (update.byte_range[2] - base) as usize;
    hasher.update(&update.bytes[..gap_start]);
    hasher.update(&update.bytes[gap_end..]);
    Ok(PreparedUpdate { base, update: update.bytes, byte_range: update.byte_range, digest: hasher.finalize().into() })
}

/// Embed a DER CMS (or RFC 3161 TimeStampToken) into the prepared document.
/// Checks that it is DER, that it fits, and that it contains the prepared digest.
pub fn embed(prepared: &Prepared, cms_der: &[u8]) -> Result<Vec<u8>> {
    let mut out = prepared.bytes.clone();
    embed_into(&mut out, &prepared.byte_range, Some(&prepared.digest), cms_der)?;
    Ok(out)
}

/// Embed into prepared bytes in place. `expected_digest` = None skips the digest check
/// (for a CMS over another digest algorithm computed by the caller).
pub fn embed_into(
    bytes: &mut [u8],
    byte_range: &[u64; 4],
    expected_digest: Option<&[u8; 32]>,
    cms_der: &[u8],
) -> Result<()> {
    check_byte_range(bytes.len() as u64, byte_range)?;
    let (start, end) = (byte_range[1] as usize, byte_range[2] as usize);
    if bytes[start] != b'<' || bytes[end - 1] != b'>' {
        return Err(Error::BadPrepared("the ByteRange gap is not a hex string".into()));
    }
    let hex = checked_hex(byte_range, expected_digest, cms_der)?;
    bytes[start + 1..start + 1 + hex.len()].copy_from_slice(&hex);
    Ok(())
}

/// Embed into a file produced by [`prepare_file`], patching only the reserved gap.
pub fn embed_file(
    path: &Path,
    prepared: &PreparedFile,
    expected_digest: Option<&[u8; 32]>,
    cms_der: &[u8],
) -> Result<()> {
    let file = std::fs::OpenOptions::new().read(true).write(true).open(path)?;
    let len = file.metadata()?.len();
    check_byte_range(len, &prepared.byte_range)?;
    let mut delims = [0u8; 1];
    file.read_exact_at(&mut delims, prepared.byte_range[1])?;
    if delims[0] != b'<' {
        return Err(Error::BadPrepared("the ByteRange gap is not a hex string".into()));
    }
    let hex = checked_hex(&prepared.byte_range, expected_digest, cms_der)?;
    file.write_all_at(&hex, prepared.byte_range[1] + 1)?;
    // No fsync: on a 100 MB file it would force the whole copy to disk; durability is the
    // caller's choice (as with `cp`).
    Ok(())
}

fn checked_hex(byte_range: &[u64; 4], expected_digest: Option<&[u8; 32]>, cms_der: &[u8]) -> Result<Vec<u8>> {
    if !is_single_der_sequence(cms_der) {
        return Err(Error::NotCms);
    }
    let reserved = contents_capacity(byte_range);
    if cms_der.len() > reserved {
        return Err(Error::SignatureTooLarge { needed: cms_der.len(), reserved });
    }
    if let Some(d) = expected_digest {
        // messageDigest (CMS) and messageImprint (timestamp token) hold it as OCTET STRING.
        let mut needle = vec![0x04, 0x20];
        needle.extend_from_slice(d);
        if !cms_der.windows(needle.len()).any(|w| w == needle.as_slice()) {
            return Err(Error::DigestMismatch);
        }
    }
    Ok(cms_der
        .iter()
        .flat_map(|b| {
            let h = b"0123456789ABCDEF";
            [h[(b >> 4) as usize], h[(b & 15) as usize]]
        })
        .collect())
}

fn contents_capacity(byte_range: &[u64; 4]) -> usize {
    (byte_range[2].saturating_sub(byte_range[1]).saturating_sub(2) / 2) as usize
}

fn check_byte_range(len: u64, br: &[u64; 4]) -> Result<()> {
    let ok = br[0] == 0 && br[1] < br[2] && br[2] - br[1] >= 2 && br[2].checked_add(br[3]) == Some(len);
    if ok { Ok(()) } else { Err(Error::BadPrepared(format!("ByteRange {br:?} does not match a {len}-byte document"))) }
}

/// True when the bytes are exactly one SEQUENCE (DER, or BER with indefinite lengths as some
/// remote providers send).
fn is_single_der_sequence(der: &[u8]) -> bool {
    der.first() == Some(&0x30) && crate::ber::encoded_len(der) == Some(der.len())
}

/// SHA-256 over `[0, br1)` and `[br2, br2+br3)`.
pub fn hash_ranges(bytes: &[u8], br: &[u64; 4]) -> [u8; 32] {
    let mut h = Sha256::new();
    let len = bytes.len() as u64;
    let a = br[1].min(len) as usize;
    let b = br[2].min(len) as usize;
    let c = br[2].saturating_add(br[3]).min(len) as usize;
    h.update(&bytes[..a]);
    h.update(&bytes[b..c]);
    h.finalize().into()
}

// ---------------------------------------------------------------------------------------------
// Building the update
// ---------------------------------------------------------------------------------------------

struct SignatureUpdate {
    bytes: Vec<u8>,
    byte_range: [u64; 4],
}

/// What the existing document says about signatures already in it.
struct ExistingSignatures {
    count: usize,
    top_level_names: HashSet<String>,
    docmdp_p: Option<i64>,
}

fn build_signature_update(doc: &Document<'_>, opts: &SignOptions) -> Result<SignatureUpdate> {
    if opts.contents_size == 0 || opts.contents_size > 1 << 20 {
        return Err(Error::InvalidOptions("contents_size must be 1..=1048576 bytes".into()));
    }
    let existing = existing_signatures(doc)?;
    check_permissions(&existing, opts.kind)?;
    doc.check_displayable()?;
    let pages = doc.pages()?;
    let (root_ref, mut catalog) = doc.catalog()?;
    let mut w = Writer::new(doc)?;
    let sig_ref = w.alloc();
    let signing_time = opts.signing_time.unwrap_or_else(SystemTime::now);
    let empty_field = match &opts.field_name {
        Some(name) if existing.top_level_names.contains(name) => Some(find_top_level_field(doc, &catalog, name)?),
        _ => None,
    };

    let mut catalog_dirty = match empty_field {
        // Sign an existing empty signature field: its widgets stay where they are.
        Some((field_ref, field)) => {
            if opts.appearance.as_ref().is_some_and(|app| !app.marks.is_empty()) {
                return Err(Error::InvalidOptions(
                    "field marks need a new signature field, not an existing one".into(),
                ));
            }
            fill_empty_field(&mut w, doc, &pages, opts, signing_time, sig_ref, field_ref, field)?;
            add_field_to_acroform(&mut w, doc, &mut catalog, None)?
        }
        None => {
            let field_name = opts.field_name.clone().unwrap_or_else(|| unique_field_name(&existing.top_level_names));
            if field_name.is_empty() || field_name.contains('.') {
                // A period separates the parts of a qualified field name (ISO 32000 12.7.4.2).
                return Err(Error::InvalidOptions("a field name must be non-empty and contain no '.'".into()));
            }
            let mut placements = placements(&pages, opts)?;
            let targets = mark_targets(doc, &catalog, opts)?;
            let marks = mark_placements(doc, &pages, opts, &targets)?;
            // With P=2 only form filling and signing are allowed: a new widget annotation is a
            // change validators (pyHanko, Acrobat) hold against the certification. Filling a
            // prepared field is form filling.
            let visible =
                placements.iter().any(|(_, p)| p.width > 0.0 && p.height > 0.0) || targets.iter().any(Option::is_none);
            if existing.docmdp_p == Some(2) && visible {
                return Err(Error::CertifiedNoNewVisibleField);
            }
            let mut appearances = build_appearances(&mut w, opts, &placements, &marks, signing_time)?;
            let mark_appearances = appearances.split_off(placements.len());
            for ((target, placed), ap) in targets.into_iter().zip(marks).zip(mark_appearances) {
                match target {
                    Some(target) => fill_mark_field(&mut w, target, ap),
                    None => {
                        placements.push(placed);
                        appearances.push(ap);
                    }
                }
            }
            let (field_ref, widgets) =
                write_field_and_widgets(&mut w, &pages, &placements, &appearances, sig_ref, &field_name)?;
            add_widgets_to_pages(&mut w, doc, &pages, &widgets)?;
            add_field_to_acroform(&mut w, doc, &mut catalog, Some(field_ref))?
        }
    };
    if opts.kind == SignatureKind::Certification {
        add_docmdp_permission(doc, &mut catalog, sig_ref)?;
        catalog_dirty = true;
    }
    if catalog_dirty {
        w.put(root_ref, &Object::Dict(catalog));
    }
    let (body, br_rel, contents_rel) = signature_dict_body(opts, signing_time);
    let body_at = w.put_raw(sig_ref, &body);
    let base = w.base();
    let mut bytes = w.finish(doc)?;

    let total = base + bytes.len() as u64;
    let gap_start = body_at + contents_rel as u64;
    let gap_end = gap_start + 2 + 2 * opts.contents_size as u64;
    let byte_range = [0, gap_start, gap_end, total - gap_end];
    patch_byte_range(&mut bytes, (body_at - base) as usize + br_rel, &byte_range)?;
    Ok(SignatureUpdate { bytes, byte_range })
}

fn patch_byte_range(bytes: &mut [u8], at: usize, br: &[u64; 4]) -> Result<()> {
    let mut text = format!("[{} {} {} {}", br[0], br[1], br[2], br[3]).into_bytes();
    if text.len() + 1 > BYTE_RANGE_PLACEHOLDER.len() {
        return Err(Error::Unsupported("document larger than 9.9 GB".into()));
    }
    text.resize(BYTE_RANGE_PLACEHOLDER.len() - 1, b' ');
    text.push(b']');
    bytes[at..at + text.len()].copy_from_slice(&text);
    Ok(())
}

/// The signature dictionary as bytes, with the offsets of the ByteRange and Contents
/// placeholders inside it.
fn signature_dict_body(opts: &SignOptions, when: SystemTime) -> (Vec<u8>, usize, usize) {
    let mut d = Dict::new();
    let timestamp = opts.kind == SignatureKind::DocTimeStamp;
    d.set("Type", Object::name(if timestamp { "DocTimeStamp" } else { "Sig" }));
    d.set("Filter", Object::name("Adobe.PPKLite"));
    d.set("SubFilter", Object::name(if timestamp { "ETSI.RFC3161" } else { opts.sub_filter.name() }));
    if !timestamp {
        d.set("M", Object::literal(pdf_date(when).as_bytes()));
        for (key, value) in [
            ("Name", &opts.name),
            ("Reason", &opts.reason),
            ("Location", &opts.location),
            ("ContactInfo", &opts.contact_info),
        ] {
            if let Some(v) = value {
                d.set(key, Object::text(v));
            }
        }
    }
    if opts.kind == SignatureKind::Certification {
        d.set("Reference", Object::Array(vec![Object::Dict(docmdp_reference())]));
    }
    let mut app = Dict::new();
    app.set("Name", Object::name("Signet"));
    let mut build = Dict::new();
    build.set("App", Object::Dict(app));
    d.set("Prop_Build", Object::Dict(build));

    let mut body = Vec::new();
    write_object(&mut body, &Object::Dict(d));
    body.truncate(body.len() - 2); // reopen the dictionary to append the placeholders
    body.extend_from_slice(b"/ByteRange ");
    let br_at = body.len();
    body.extend_from_slice(BYTE_RANGE_PLACEHOLDER);
    body.extend_from_slice(b"/Contents ");
    let contents_at = body.len();
    body.push(b'<');
    body.resize(body.len() + 2 * opts.contents_size, b'0');
    body.extend_from_slice(b">>>");
    (body, br_at, contents_at)
}

fn docmdp_reference() -> Dict {
    let mut params = Dict::new();
    params.set("Type", Object::name("TransformParams"));
    params.set("P", Object::Int(2));
    params.set("V", Object::name("1.2"));
    let mut r = Dict::new();
    r.set("Type", Object::name("SigRef"));
    r.set("TransformMethod", Object::name("DocMDP"));
    r.set("TransformParams", Object::Dict(params));
    r
}

fn unique_field_name(taken: &HashSet<String>) -> String {
    (1..).map(|i| format!("Signature{i}")).find(|n| !taken.contains(n)).unwrap_or_else(|| "Signature".into())
}

fn check_permissions(existing: &ExistingSignatures, kind: SignatureKind) -> Result<()> {
    if existing.docmdp_p == Some(1) && kind != SignatureKind::DocTimeStamp {
        return Err(Error::CertifiedNoChanges);
    }
    if kind == SignatureKind::Certification && (existing.count > 0 || existing.docmdp_p.is_some()) {
        return Err(Error::CertifyNotFirst);
    }
    Ok(())
}

fn existing_signatures(doc: &Document<'_>) -> Result<ExistingSignatures> {
    let (_, catalog) = doc.catalog()?;
    let mut out =
        ExistingSignatures { count: 0, top_level_names: HashSet::new(), docmdp_p: docmdp_permission(doc, &catalog)? };
    let Some(form) = catalog.get("AcroForm") else {
        return Ok(out);
    };
    let Some(form) = doc.resolve_dict(form)? else {
        return Ok(out);
    };
    let fields = match form.get("Fields") {
        Some(f) => doc.resolve_array(f)?.unwrap_or_default(),
        None => Vec::new(),
    };
    for f in &fields {
        if let Some(d) = doc.resolve_dict(f)?
            && let Some(t) = d.get("T").and_then(Object::as_str_bytes)
        {
            out.top_level_names.insert(decode_text(t));
        }
    }
    out.count = crate::verify::collect_signature_fields(doc, &fields)?.len();
    Ok(out)
}

/// `/P` of an existing certification signature, if the document is certified.
fn docmdp_permission(doc: &Document<'_>, catalog: &Dict) -> Result<Option<i64>> {
    let Some(perms) = catalog.get("Perms") else {
        return Ok(None);
    };
    let Some(perms) = doc.resolve_dict(perms)? else {
        return Ok(None);
    };
    let Some(sig) = perms.get("DocMDP") else {
        return Ok(None);
    };
    let Some(sig) = doc.resolve_dict(sig)? else {
        return Ok(None);
    };
    let refs = match sig.get("Reference") {
        Some(r) => doc.resolve_array(r)?.unwrap_or_default(),
        None => Vec::new(),
    };
    for r in refs {
        let Some(r) = doc.resolve_dict(&r)? else {
            continue;
        };
        if r.name("TransformMethod") == Some(b"DocMDP") {
            let p = match r.get("TransformParams") {
                Some(tp) => doc.resolve_dict(tp)?.and_then(|d| d.get("P").and_then(Object::as_int)),
                None => None,
            };
            return Ok(Some(p.unwrap_or(2)));
        }
    }
    Ok(Some(2))
}

fn add_docmdp_permission(doc: &Document<'_>, catalog: &mut Dict, sig_ref: ObjRef) -> Result<()> {
    let mut perms = match catalog.get("Perms") {
        Some(p) => doc.resolve_dict(p)?.unwrap_or_default(),
        None => Dict::new(),
    };
    perms.set("DocMDP", Object::Ref(sig_ref));
    catalog.set("Perms", Object::Dict(perms));
    Ok(())
}

/// The appearance to draw: none for an invisible signature or a document timestamp.
fn drawn_appearance(opts: &SignOptions) -> Option<&Appearance> {
    opts.appearance.as_ref().filter(|_| opts.kind != SignatureKind::DocTimeStamp)
}

/// (page index, placement) of every widget; one invisible widget on page 1 when no appearance.
fn placements(pages: &[Page], opts: &SignOptions) -> Result<Vec<(usize, Placement)>> {
    let invisible = Placement { rect: [0.0; 4], width: 0.0, height: 0.0, matrix: [1.0, 0.0, 0.0, 1.0, 0.0, 0.0] };
    let Some(app) = drawn_appearance(opts) else {
        return Ok(vec![(0, invisible)]);
    };
    let spec_per_page = app.placement.resolve(pages.len())?;
    Ok(spec_per_page.into_iter().map(|(i, spec)| (i, place(&pages[i], &spec))).collect())
}

/// (page index, placement) of every field mark of a visible signature: the prepared field's own
/// rectangle when it fills one (`targets`, from [`mark_targets`]), else the mark's box.
fn mark_placements(
    doc: &Document<'_>,
    pages: &[Page],
    opts: &SignOptions,
    targets: &[Option<MarkTarget>],
) -> Result<Vec<(usize, Placement)>> {
    let Some(app) = drawn_appearance(opts) else {
        return Ok(Vec::new());
    };
    app.marks
        .iter()
        .zip(targets)
        .map(|(mark, target)| {
            if let Some(target) = target
                && let Some(p) = widget_placement(doc, pages, &target.field)?
                && let Some(index) =
                    pages.iter().position(|page| Some(page.id) == target.field.get("P").and_then(Object::as_ref))
            {
                return Ok((index, p));
            }
            let index = mark.page.checked_sub(1).map(|i| i as usize).filter(|i| *i < pages.len());
            let index = index.ok_or(Error::NoSuchPage(mark.page, pages.len()))?;
            Ok((index, place(&pages[index], &mark.rect)))
        })
        .collect()
}

/// A prepared mark field a signature fills, with what it shows.
struct MarkTarget {
    field_ref: ObjRef,
    field: Dict,
    content: MarkContent,
}

/// For every mark of the appearance, the empty prepared field it fills (`None`: the mark
/// becomes a widget of the signature field). A field qualifies when it is a top-level,
/// read-only, unfilled text field (for text) or checkbox (for a tick) that is its own widget,
/// as [`add_mark_fields`] writes them; each is filled once.
fn mark_targets(doc: &Document<'_>, catalog: &Dict, opts: &SignOptions) -> Result<Vec<Option<MarkTarget>>> {
    let Some(app) = drawn_appearance(opts) else {
        return Ok(Vec::new());
    };
    if app.marks.iter().all(|m| m.field.is_none()) {
        return Ok(app.marks.iter().map(|_| None).collect());
    }
    let form = match catalog.get("AcroForm") {
        Some(f) => doc.resolve_dict(f)?.unwrap_or_default(),
        None => Dict::new(),
    };
    let fields = match form.get("Fields") {
        Some(f) => doc.resolve_array(f)?.unwrap_or_default(),
        None => Vec::new(),
    };
    let mut by_name: Vec<(String, ObjRef, Dict)> = Vec::new();
    for f in fields.iter().take(crate::forms::MAX_FORM_FIELDS) {
        let Object::Ref(r) = f else { continue };
        if let Some(d) = doc.resolve_dict(f)?
            && let Some(name) = d.get("T").and_then(Object::as_str_bytes).map(decode_text)
        {
            by_name.push((name, *r, d));
        }
    }
    let mut taken: HashSet<u32> = HashSet::new();
    let mut out = Vec::with_capacity(app.marks.len());
    for mark in &app.marks {
        let found = mark.field.as_deref().and_then(|name| by_name.iter().find(|(n, _, _)| n == name));
        let target = match found {
            Some((_, r, d)) if fillable(doc, d, &mark.content)? && taken.insert(r.num) => {
                Some(MarkTarget { field_ref: *r, field: d.clone(), content: mark.content.clone() })
            }
            _ => None,
        };
        out.push(target);
    }
    Ok(out)
}

/// Whether `field` is an empty read-only mark field of the kind `content` needs.
fn fillable(doc: &Document<'_>, field: &Dict, content: &MarkContent) -> Result<bool> {
    let flags = match field.get("Ff") {
        Some(f) => doc.resolve(f)?.as_int().unwrap_or(0),
        None => 0,
    };
    let kind_fits = match content {
        MarkContent::Text { .. } => field.name("FT") == Some(b"Tx"),
        MarkContent::Check(_) => field.name("FT") == Some(b"Btn") && flags & (FF_RADIO | FF_PUSHBUTTON) == 0,
    };
    let own_widget = field.name("Subtype") == Some(b"Widget") && field.get("Kids").is_none();
    Ok(kind_fits && own_widget && flags & FF_READ_ONLY != 0 && field.get("V").is_none())
}

/// Puts the mark's value and appearance into its prepared field: only `/V`, `/AP` and (a
/// checkbox) `/AS` change, which validators read as form filling.
fn fill_mark_field(w: &mut Writer, target: MarkTarget, ap: ObjRef) {
    let MarkTarget { field_ref, mut field, content } = target;
    let mut apd = Dict::new();
    match content {
        MarkContent::Text { text, .. } => {
            field.set("V", Object::text(text.trim()));
            apd.set("N", Object::Ref(ap));
        }
        MarkContent::Check(ticked) => {
            let state = if ticked { CHECK_ON } else { "Off" };
            field.set("V", Object::name(state));
            field.set("AS", Object::name(state));
            let mut states = Dict::new();
            states.set(state, Object::Ref(ap));
            apd.set("N", Object::Dict(states));
        }
    }
    field.set("AP", Object::Dict(apd));
    w.put(field_ref, &Object::Dict(field));
}

/// The appearance of every widget: the signature's boxes, then its field marks.
fn build_appearances(
    w: &mut Writer,
    opts: &SignOptions,
    placements: &[(usize, Placement)],
    marks: &[(usize, Placement)],
    when: SystemTime,
) -> Result<Vec<ObjRef>> {
    let app = drawn_appearance(opts);
    let Some(app) = app else {
        let empty = w.add(Renderer::empty_xobject());
        return Ok(vec![empty; placements.len()]);
    };
    let details = if app.show_details { detail_lines(opts, app.zone, when) } else { Vec::new() };
    let renderer = Renderer::new(app, &details, w)?;
    let mut refs = Vec::with_capacity(placements.len());
    let mut cache: Vec<(AppearanceKey, ObjRef)> = Vec::new();
    for (_, p) in placements {
        // Widgets of the same size and orientation share one appearance stream.
        let key = (
            p.width.to_bits(),
            p.height.to_bits(),
            [p.matrix[0] as i64, p.matrix[1] as i64, p.matrix[2] as i64, p.matrix[3] as i64],
        );
        if let Some((_, r)) = cache.iter().find(|(k, _)| *k == key) {
            refs.push(*r);
            continue;
        }
        let r = w.add(renderer.xobject(p.width, p.height, p.matrix));
        cache.push((key, r));
        refs.push(r);
    }
    for (index, (_, p)) in marks.iter().enumerate() {
        refs.push(w.add(renderer.mark_xobject(index, p.width, p.height, p.matrix)));
    }
    Ok(refs)
}

fn find_top_level_field(doc: &Document<'_>, catalog: &Dict, name: &str) -> Result<(ObjRef, Dict)> {
    let form = match catalog.get("AcroForm") {
        Some(f) => doc.resolve_dict(f)?.unwrap_or_default(),
        None => Dict::new(),
    };
    let fields = match form.get("Fields") {
        Some(f) => doc.resolve_array(f)?.unwrap_or_default(),
        None => Vec::new(),
    };
    for f in fields {
        let Object::Ref(r) = f else { continue };
        if let Some(d) = doc.resolve_dict(&f)?
            && d.get("T").and_then(Object::as_str_bytes).map(decode_text).as_deref() == Some(name)
        {
            return Ok((r, d));
        }
    }
    Err(Error::InvalidOptions(format!("field {name:?} cannot be signed (not an indirect top-level field)")))
}

/// Put the signature value into an existing, empty signature field and give its widgets the
/// requested appearance (sized to their existing rectangles).
#[allow(clippy::too_many_arguments)]
fn fill_empty_field(
    w: &mut Writer,
    doc: &Document<'_>,
    pages: &[Page],
    opts: &SignOptions,
    when: SystemTime,
    sig_ref: ObjRef,
    field_ref: ObjRef,
    mut field: Dict,
) -> Result<()> {
    if field.name("FT") != Some(b"Sig") {
        return Err(Error::InvalidOptions("the named field is not a signature field".into()));
    }
    if field.get("V").is_some() {
        return Err(Error::InvalidOptions("the named signature field is already signed".into()));
    }
    let renderer = match drawn_appearance(opts) {
        Some(app) => {
            let details = if app.show_details { detail_lines(opts, app.zone, when) } else { Vec::new() };
            Some(Renderer::new(app, &details, w)?)
        }
        None => None,
    };
    let kids = match field.get("Kids") {
        Some(k) => doc.resolve_array(k)?.unwrap_or_default(),
        None => Vec::new(),
    };
    let mut widgets: Vec<(ObjRef, Dict)> = Vec::new();
    for kid in kids {
        if let (Object::Ref(r), Some(d)) = (&kid, doc.resolve_dict(&kid)?) {
            widgets.push((*r, d));
        }
    }
    let merged = widgets.is_empty();
    if merged {
        widgets.push((field_ref, field.clone()));
    }
    for (wref, mut wd) in widgets {
        if let Some(renderer) = &renderer
            && let Some(p) = widget_placement(doc, pages, &wd)?
        {
            let ap = w.add(renderer.xobject(p.width, p.height, p.matrix));
            let mut apd = Dict::new();
            apd.set("N", Object::Ref(ap));
            wd.set("AP", Object::Dict(apd));
        }
        if merged {
            wd.set("V", Object::Ref(sig_ref));
        }
        w.put(wref, &Object::Dict(wd));
    }
    if !merged {
        field.set("V", Object::Ref(sig_ref));
        w.put(field_ref, &Object::Dict(field));
    }
    Ok(())
}

/// Upright size and rotation matrix for an existing widget rectangle.
fn widget_placement(doc: &Document<'_>, pages: &[Page], widget: &Dict) -> Result<Option<Placement>> {
    let Some(rect) = widget.get("Rect").map(|r| doc.resolve_array(r)).transpose()?.flatten() else {
        return Ok(None);
    };
    let v: Vec<f64> = rect.iter().filter_map(Object::as_number).collect();
    if v.len() != 4 {
        return Ok(None);
    }
    let (w, h) = ((v[2] - v[0]).abs(), (v[3] - v[1]).abs());
    if w < 1.0 || h < 1.0 {
        return Ok(None);
    }
    let page = widget.get("P").and_then(Object::as_ref);
    let rotate = pages.iter().find(|p| Some(p.id) == page).map_or(0, |p| p.rotate);
    let quarter = rotate % 180 != 0;
    Ok(Some(Placement {
        rect: [v[0], v[1], v[2], v[3]],
        width: if quarter { h } else { w },
        height: if quarter { w } else { h },
        matrix: crate::layout::rotation_matrix(rotate),
    }))
}

/// Width, height (as bits) and rotation of an appearance: equal keys share one stream.
type AppearanceKey = (u64, u64, [i64; 4]);

/// The text block: who, when (in `zone`, named), why and where.
fn detail_lines(opts: &SignOptions, zone: Zone, when: SystemTime) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(n) = &opts.name {
        lines.push(format!("Digitally signed by {n}"));
    }
    lines.push(format!("Date: {}", zone.format_seconds(unix_millis(when))));
    if let Some(r) = &opts.reason {
        lines.push(format!("Reason: {r}"));
    }
    if let Some(l) = &opts.location {
        lines.push(format!("Location: {l}"));
    }
    lines
}

/// Writes the field (merged with its widget when there is one page) and returns
/// (field ref, widgets as (page index, widget ref)).
fn write_field_and_widgets(
    w: &mut Writer,
    pages: &[Page],
    placements: &[(usize, Placement)],
    appearances: &[ObjRef],
    sig_ref: ObjRef,
    field_name: &str,
) -> Result<(ObjRef, Vec<(usize, ObjRef)>)> {
    let widget = |page: &Page, p: &Placement, ap: ObjRef| {
        let mut d = Dict::new();
        d.set("Type", Object::name("Annot"));
        d.set("Subtype", Object::name("Widget"));
        d.set("F", Object::Int(132)); // Print + Locked
        d.set("P", Object::Ref(page.id));
        d.set("Rect", Object::Array(p.rect.iter().map(|v| Object::Real(*v)).collect()));
        let mut apd = Dict::new();
        apd.set("N", Object::Ref(ap));
        d.set("AP", Object::Dict(apd));
        d
    };
    let field_keys = |d: &mut Dict| {
        d.set("FT", Object::name("Sig"));
        d.set("T", Object::text(field_name));
        d.set("V", Object::Ref(sig_ref));
    };
    if let ([(page_index, p)], [ap]) = (placements, appearances) {
        let mut d = widget(&pages[*page_index], p, *ap);
        field_keys(&mut d);
        let r = w.add(Object::Dict(d));
        return Ok((r, vec![(*page_index, r)]));
    }
    let field_ref = w.alloc();
    let mut kids = Vec::new();
    let mut widgets = Vec::new();
    for ((page_index, p), ap) in placements.iter().zip(appearances) {
        let mut d = widget(&pages[*page_index], p, *ap);
        d.set("Parent", Object::Ref(field_ref));
        // poppler (pdfsig 22) reads each widget kid as its own signature field: repeating the
        // inheritable /FT and /V keeps them all pointing at the one signature value.
        d.set("FT", Object::name("Sig"));
        d.set("V", Object::Ref(sig_ref));
        let r = w.add(Object::Dict(d));
        kids.push(Object::Ref(r));
        widgets.push((*page_index, r));
    }
    let mut field = Dict::new();
    field_keys(&mut field);
    field.set("Kids", Object::Array(kids));
    w.put(field_ref, &Object::Dict(field));
    Ok((field_ref, widgets))
}

/// The 0-based index of the 1-based `page` of a document of `count` pages.
fn page_index(page: u32, count: usize) -> Result<usize> {
    page.checked_sub(1).map(|i| i as usize).filter(|i| *i < count).ok_or(Error::NoSuchPage(page, count))
}

/// Puts new field widgets on their pages and into the form (the catalogue rewritten when the
/// form is new), and returns `input` with the update appended.
fn append_fields(
    input: &[u8],
    doc: &Document<'_>,
    pages: &[Page],
    mut w: Writer,
    (root_ref, mut catalog): (ObjRef, Dict),
    widgets: &[(usize, ObjRef)],
) -> Result<Vec<u8>> {
    add_widgets_to_pages(&mut w, doc, pages, widgets)?;
    let refs: Vec<ObjRef> = widgets.iter().map(|(_, r)| *r).collect();
    if add_fields_to_acroform(&mut w, doc, &mut catalog, &refs, 0)? {
        w.put(root_ref, &Object::Dict(catalog));
    }
    let update = w.finish(doc)?;
    let mut out = Vec::with_capacity(input.len() + update.len());
    out.extend_from_slice(input);
    out.extend_from_slice(&update);
    Ok(out)
}

fn add_widgets_to_pages(w: &mut Writer, doc: &Document<'_>, pages: &[Page], widgets: &[(usize, ObjRef)]) -> Result<()> {
    let mut page_indices: Vec<usize> = widgets.iter().map(|(i, _)| *i).collect();
    page_indices.sort_unstable();
    page_indices.dedup();
    for i in page_indices {
        let page = &pages[i];
        let new: Vec<Object> = widgets.iter().filter(|(pi, _)| *pi == i).map(|(_, r)| Object::Ref(*r)).collect();
        let shared = |ar: &ObjRef| pages.iter().filter(|p| p.dict.get("Annots") == Some(&Object::Ref(*ar))).count() > 1;
        match page.dict.get("Annots") {
            // An indirect /Annots array of this page only: rewrite the array, leave the page alone.
            Some(Object::Ref(ar)) if !shared(ar) && doc.resolve_array(&Object::Ref(*ar))?.is_some() => {
                let mut arr = doc.resolve_array(&Object::Ref(*ar))?.unwrap_or_default();
                arr.extend(new);
                w.put(*ar, &Object::Array(arr));
            }
            other => {
                // Inline, missing, or shared with other pages: give this page its own array.
                let mut arr = match other {
                    Some(Object::Array(a)) => a.clone(),
                    Some(r @ Object::Ref(_)) => doc.resolve_array(r)?.unwrap_or_default(),
                    _ => Vec::new(),
                };
                arr.extend(new);
                let mut d = page.dict.clone();
                d.set("Annots", Object::Array(arr));
                w.put(page.id, &Object::Dict(d));
            }
        }
    }
    Ok(())
}

/// Adds the field to `/AcroForm /Fields` and sets `/SigFlags 3`. Returns whether the catalog
/// itself changed (new or inline AcroForm).
fn add_field_to_acroform(
    w: &mut Writer,
    doc: &Document<'_>,
    catalog: &mut Dict,
    field: Option<ObjRef>,
) -> Result<bool> {
    add_fields_to_acroform(w, doc, catalog, field.as_slice(), 3)
}

/// Adds fields to `/AcroForm /Fields` and ORs `sig_flags` into `/SigFlags`. Returns whether the
/// catalog itself changed (new or inline AcroForm).
fn add_fields_to_acroform(
    w: &mut Writer,
    doc: &Document<'_>,
    catalog: &mut Dict,
    fields: &[ObjRef],
    sig_flags: i64,
) -> Result<bool> {
    match catalog.get("AcroForm").cloned() {
        Some(Object::Ref(form_ref)) if doc.resolve_dict(&Object::Ref(form_ref))?.is_some() => {
            let mut form = doc.resolve_dict(&Object::Ref(form_ref))?.unwrap_or_default();
            update_form(w, doc, &mut form, fields, sig_flags)?;
            w.put(form_ref, &Object::Dict(form));
            Ok(false)
        }
        Some(Object::Dict(mut form)) => {
            update_form(w, doc, &mut form, fields, sig_flags)?;
            catalog.set("AcroForm", Object::Dict(form));
            Ok(true)
        }
        _ => {
            let mut form = Dict::new();
            update_form(w, doc, &mut form, fields, sig_flags)?;
            let r = w.add(Object::Dict(form));
            catalog.set("AcroForm", Object::Ref(r));
            Ok(true)
        }
    }
}

fn update_form(w: &mut Writer, doc: &Document<'_>, form: &mut Dict, fields: &[ObjRef], sig_flags: i64) -> Result<()> {
    let new = fields.iter().map(|f| Object::Ref(*f));
    match form.get("Fields").cloned() {
        _ if fields.is_empty() => {}
        Some(Object::Ref(fr)) if doc.resolve_array(&Object::Ref(fr))?.is_some() => {
            let mut arr = doc.resolve_array(&Object::Ref(fr))?.unwrap_or_default();
            arr.extend(new);
            w.put(fr, &Object::Array(arr));
        }
        Some(Object::Array(mut arr)) => {
            arr.extend(new);
            form.set("Fields", Object::Array(arr));
        }
        _ => form.set("Fields", Object::Array(new.collect())),
    }
    let flags = form.get("SigFlags").map(|f| doc.resolve(f)).transpose()?.and_then(|f| f.as_int()).unwrap_or(0);
    if flags | sig_flags != flags || form.get("SigFlags").is_some() {
        form.set("SigFlags", Object::Int(flags | sig_flags));
    }
    // NeedAppearances makes viewers regenerate appearances, which reads as a modification.
    if form.get("NeedAppearances") == Some(&Object::Bool(true)) {
        form.remove("NeedAppearances");
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Empty signature fields (prepared for later signers)
// ---------------------------------------------------------------------------------------------

/// An unsigned signature field to create, e.g. before certifying so that later signers can sign
/// visibly without breaking the certification.
#[derive(Debug, Clone, PartialEq)]
pub struct EmptyField {
    pub name: String,
    /// 1-based page number.
    pub page: u32,
    pub rect: BoxSpec,
}

/// Append an incremental update adding empty signature fields.
pub fn add_signature_fields(input: &[u8], fields: &[EmptyField]) -> Result<Vec<u8>> {
    let doc = Document::open(input)?;
    let existing = existing_signatures(&doc)?;
    match existing.docmdp_p {
        Some(1) => return Err(Error::CertifiedNoChanges),
        Some(2) => return Err(Error::CertifiedNoNewVisibleField),
        _ => {}
    }
    doc.check_displayable()?;
    let pages = doc.pages()?;
    let (root_ref, catalog) = doc.catalog()?;
    let mut w = Writer::new(&doc)?;
    let mut names = existing.top_level_names.clone();
    let mut widgets = Vec::new();
    for f in fields {
        if f.name.is_empty() || f.name.contains('.') || !names.insert(f.name.clone()) {
            return Err(Error::InvalidOptions(format!("bad or duplicate field name {:?}", f.name)));
        }
        let index = page_index(f.page, pages.len())?;
        let p = place(&pages[index], &f.rect);
        let ap = w.add(Renderer::blank_xobject(p.width, p.height));
        let mut d = Dict::new();
        d.set("Type", Object::name("Annot"));
        d.set("Subtype", Object::name("Widget"));
        d.set("FT", Object::name("Sig"));
        d.set("T", Object::text(&f.name));
        d.set("F", Object::Int(4)); // Print
        d.set("P", Object::Ref(pages[index].id));
        d.set("Rect", Object::Array(p.rect.iter().map(|v| Object::Real(*v)).collect()));
        let mut apd = Dict::new();
        apd.set("N", Object::Ref(ap));
        d.set("AP", Object::Dict(apd));
        widgets.push((index, w.add(Object::Dict(d))));
    }
    append_fields(input, &doc, &pages, w, (root_ref, catalog), &widgets)
}

// ---------------------------------------------------------------------------------------------
// Mark fields (boxes the signers fill in with their signatures)
// ---------------------------------------------------------------------------------------------

/// Field flag: read-only (ISO 32000-1, table 221).
const FF_READ_ONLY: i64 = 1;
const FF_RADIO: i64 = 1 << 15;
const FF_PUSHBUTTON: i64 = 1 << 16;
/// Annotation flag: print (table 165).
const F_PRINT: i64 = 4;
/// The "on" appearance state of a mark checkbox.
const CHECK_ON: &str = "Yes";
/// Most mark fields prepared in one update.
pub const MAX_MARK_FIELDS: usize = 2000;

/// An empty box a signer will fill in with their signature (see [`add_mark_fields`]).
#[derive(Debug, Clone, PartialEq)]
pub struct MarkField {
    /// Top-level field name, the [`crate::FieldMark::field`] of the mark that fills it.
    pub name: String,
    /// 1-based page number.
    pub page: u32,
    pub rect: BoxSpec,
    /// A checkbox (else a text field).
    pub check: bool,
}

/// Append an incremental update adding empty, read-only, printed text fields and checkboxes:
/// the boxes signers fill in later with their signatures (each signature fills its own, which
/// validators accept as form filling; a field created after a signature would not be). Must
/// come before the first signature. Names already in the form are left alone (preparing twice
/// adds nothing); `None` when there was nothing to add.
pub fn add_mark_fields(input: &[u8], fields: &[MarkField]) -> Result<Option<Vec<u8>>> {
    if fields.len() > MAX_MARK_FIELDS {
        return Err(Error::InvalidOptions(format!("more than {MAX_MARK_FIELDS} mark fields")));
    }
    let doc = Document::open(input)?;
    let existing = existing_signatures(&doc)?;
    if existing.count > 0 || existing.docmdp_p.is_some() {
        return Err(Error::InvalidOptions("mark fields are added before the first signature".into()));
    }
    doc.check_displayable()?;
    let pages = doc.pages()?;
    let (root_ref, catalog) = doc.catalog()?;
    let mut w = Writer::new(&doc)?;
    let mut names = existing.top_level_names.clone();
    let mut widgets = Vec::new();
    for f in fields {
        if f.name.is_empty() || f.name.contains('.') {
            return Err(Error::InvalidOptions(format!("bad mark field name {:?}", f.name)));
        }
        if !names.insert(f.name.clone()) {
            continue;
        }
        let index = page_index(f.page, pages.len())?;
        let p = place(&pages[index], &f.rect);
        let mut blank = Renderer::blank_xobject(p.width, p.height);
        if let Object::Stream(stream) = &mut blank
            && p.matrix != [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
        {
            stream.dict.set("Matrix", Object::Array(p.matrix.iter().map(|v| Object::Real(*v)).collect()));
        }
        let ap = w.add(blank);
        let mut d = Dict::new();
        d.set("Type", Object::name("Annot"));
        d.set("Subtype", Object::name("Widget"));
        d.set("FT", Object::name(if f.check { "Btn" } else { "Tx" }));
        d.set("T", Object::text(&f.name));
        d.set("Ff", Object::Int(FF_READ_ONLY));
        d.set("F", Object::Int(F_PRINT));
        d.set("P", Object::Ref(pages[index].id));
        d.set("Rect", Object::Array(p.rect.iter().map(|v| Object::Real(*v)).collect()));
        let mut apd = Dict::new();
        if f.check {
            let mut states = Dict::new();
            states.set("Off", Object::Ref(ap));
            apd.set("N", Object::Dict(states));
            d.set("AS", Object::name("Off"));
        } else {
            d.set("DA", Object::literal(b"/Helv 0 Tf 0 g"));
            apd.set("N", Object::Ref(ap));
        }
        d.set("AP", Object::Dict(apd));
        widgets.push((index, w.add(Object::Dict(d))));
    }
    if widgets.is_empty() {
        return Ok(None);
    }
    append_fields(input, &doc, &pages, w, (root_ref, catalog), &widgets).map(Some)
}

// ---------------------------------------------------------------------------------------------
// DSS (B-LT / B-LTA)
// ---------------------------------------------------------------------------------------------

/// Validation data to add to the document security store (raw DER items from the caller).
#[derive(Debug, Clone, Default)]
pub struct DssData {
    pub certs: Vec<Vec<u8>>,
    pub ocsps: Vec<Vec<u8>>,
    pub crls: Vec<Vec<u8>>,
    /// `SignatureInfo::vri_key` of the signatures this data validates: each gets a `/VRI` entry
    /// listing this update's certificates, OCSP responses and CRLs (optional in PAdES).
    pub vri_keys: Vec<String>,
}

/// Entries of one kind read from a document security store: far more than any real chain needs.
const MAX_DSS_READ: usize = 512;

/// What the document security store already holds (certificates, OCSP responses, CRLs, each
/// DER; `vri_keys` empty), so that an extension adds only what is missing. An entry that
/// cannot be read is skipped: it is no evidence, the rest still is.
pub fn read_dss(input: &[u8]) -> Result<DssData> {
    let doc = Document::open(input)?;
    let (_, catalog) = doc.catalog()?;
    let Some(dss) = catalog.get("DSS").map(|d| doc.resolve_dict(d)).transpose()?.flatten() else {
        return Ok(DssData::default());
    };
    let items = |key: &str| -> Result<Vec<Vec<u8>>> {
        let entries = dss.get(key).map(|a| doc.resolve_array(a)).transpose()?.flatten().unwrap_or_default();
        Ok(entries
            .iter()
            .take(MAX_DSS_READ)
            .filter_map(|entry| match doc.resolve(entry) {
                Ok(Object::Stream(stream)) => doc.stream_decoded(&stream).ok(),
                _ => None,
            })
            .collect())
    };
    Ok(DssData { certs: items("Certs")?, ocsps: items("OCSPs")?, crls: items("CRLs")?, vri_keys: Vec::new() })
}

/// Append an incremental update adding `/DSS` (merged with an existing one).
pub fn add_dss(input: &[u8], data: &DssData) -> Result<Vec<u8>> {
    let doc = Document::open(input)?;
    let update = build_dss_update(&doc, data)?;
    let mut out = Vec::with_capacity(input.len() + update.len());
    out.extend_from_slice(input);
    out.extend_from_slice(&update);
    Ok(out)
}

/// Same as [`add_dss`] on a file, appending in place (the earlier bytes are not rewritten).
pub fn add_dss_file(path: &Path, data: &DssData) -> Result<()> {
    let update = {
        let doc = Document::open(FileSource::open(path)?)?;
        build_dss_update(&doc, data)?
    };
    append_to(path, &update)
}

/// Append a signature update to the file itself (no copy) and hash it streaming.
/// Meant for a document timestamp (B-LTA) or a co-signature on a large file that the caller
/// already owns; if phase 2 never happens the file keeps an empty placeholder at its end.
pub fn prepare_append(path: &Path, opts: &SignOptions) -> Result<PreparedFile> {
    let (update, base) = {
        let doc = Document::open(FileSource::open(path)?)?;
        (build_signature_update(&doc, opts)?, doc.len())
    };
    let mut hasher = hash_file_prefix(path, base)?;
    let gap_start = (update.byte_range[1] - base) as usize;
    let gap_end = (update.byte_range[2] - base) as usize;
    hasher.update(&update.bytes[..gap_start]);
    hasher.update(&update.bytes[gap_end..]);
    append_to(path, &update.bytes)?;
    Ok(PreparedFile { byte_range: update.byte_range, digest: hasher.finalize().into() })
}

fn append_to(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut out = std::fs::OpenOptions::new().append(true).open(path)?;
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

fn build_dss_update(doc: &Document<'_>, data: &DssData) -> Result<Vec<u8>> {
    let mut w = Writer::new(doc)?;
    let (root_ref, mut catalog) = doc.catalog()?;
    let existing_ref = catalog.get("DSS").and_then(Object::as_ref);
    let mut dss = match catalog.get("DSS") {
        Some(d) => doc.resolve_dict(d)?.unwrap_or_default(),
        None => Dict::new(),
    };
    // (DSS key, VRI key, new stream refs)
    let mut added: Vec<(&str, &str, Vec<Object>)> = Vec::new();
    for (key, vri_key, items) in
        [("Certs", "Cert", &data.certs), ("OCSPs", "OCSP", &data.ocsps), ("CRLs", "CRL", &data.crls)]
    {
        if items.is_empty() {
            continue;
        }
        let mut arr = match dss.get(key) {
            Some(a) => doc.resolve_array(a)?.unwrap_or_default(),
            None => Vec::new(),
        };
        let refs: Vec<Object> = items.iter().map(|item| Object::Ref(w.add(flate_stream(item)))).collect();
        arr.extend(refs.iter().cloned());
        dss.set(key, Object::Array(arr));
        added.push((key, vri_key, refs));
    }
    if !data.vri_keys.is_empty() {
        let mut vri = match dss.get("VRI") {
            Some(v) => doc.resolve_dict(v)?.unwrap_or_default(),
            None => Dict::new(),
        };
        for sig_key in &data.vri_keys {
            if sig_key.len() != 40 || !sig_key.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(Error::InvalidOptions(format!("bad VRI key {sig_key:?} (40 hex digits expected)")));
            }
            let mut entry = Dict::new();
            for (_, vri_key, refs) in &added {
                entry.set(vri_key, Object::Array(refs.clone()));
            }
            vri.set(&sig_key.to_ascii_uppercase(), Object::Dict(entry));
        }
        dss.set("VRI", Object::Dict(vri));
    }
    match existing_ref {
        Some(r) => w.put(r, &Object::Dict(dss)),
        None => {
            let r = w.add(Object::Dict(dss));
            catalog.set("DSS", Object::Ref(r));
            w.put(root_ref, &Object::Dict(catalog));
        }
    }
    w.finish(doc)
}

fn flate_stream(data: &[u8]) -> Object {
    let mut d = Dict::new();
    d.set("Filter", Object::name("FlateDecode"));
    Object::Stream(Stream { dict: d, data: StreamData::Owned(flate_encode(data)) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn der_sequence_check() {
        assert!(is_single_der_sequence(&[0x30, 0x03, 1, 2, 3]));
        assert!(!is_single_der_sequence(&[0x30, 0x04, 1, 2, 3]));
        assert!(is_single_der_sequence(&[0x30, 0x81, 0x01, 0]));
        assert!(is_single_der_sequence(&[0x30, 0x80, 0x04, 0x01, 7, 0, 0]));
        assert!(!is_single_der_sequence(&[0x30, 0x80, 0x04, 0x01, 7, 0, 0, 0]));
        assert!(!is_single_der_sequence(b"hello"));
    }

    /// Every top-level field of the latest revision: (name, ref, dictionary).
    fn fields_of(doc: &Document<'_>) -> Vec<(String, ObjRef, Dict)> {
        let (_, catalog) = doc.catalog().expect("catalog");
        let form = doc.resolve_dict(catalog.get("AcroForm").expect("AcroForm")).expect("form").expect("form");
        let fields = doc.resolve_array(form.get("Fields").expect("Fields")).expect("fields").expect("fields");
        fields
            .iter()
            .map(|f| {
                let d = doc.resolve_dict(f).expect("field").expect("field");
                let name = d.get("T").and_then(Object::as_str_bytes).map(decode_text).unwrap_or_default();
                (name, f.as_ref().expect("indirect field"), d)
            })
            .collect()
    }

    fn field<'a>(fields: &'a [(String, ObjRef, Dict)], name: &str) -> &'a Dict {
        &fields.iter().find(|(n, _, _)| n == name).unwrap_or_else(|| panic!("no field {name}")).2
    }

    fn mark(name: Option<&str>, page: u32, spec: &str, content: MarkContent) -> crate::FieldMark {
        crate::FieldMark {
            page,
            rect: BoxSpec::parse_custom(spec).expect("box"),
            content,
            field: name.map(str::to_string),
        }
    }

    fn mark_field(name: &str, spec: &str, check: bool) -> MarkField {
        MarkField { name: name.into(), page: 1, rect: BoxSpec::parse_custom(spec).expect("box"), check }
    }

    #[test]
    fn boxes_are_read_only_fields_of_their_own_filled_by_the_signature_not_widgets_of_it() {
        let pdf = crate::compose::compose_report("Loan agreement", &[], &[]);
        let boxes =
            [mark_field("SignetBox_date", "72,700,100,20", false), mark_field("SignetBox_tick", "72,740,14,14", true)];
        let prepared = add_mark_fields(&pdf, &boxes).expect("prepare").expect("added");
        assert!(prepared.starts_with(&pdf), "an incremental update");
        assert_eq!(add_mark_fields(&prepared, &boxes).expect("again"), None, "names already there are kept");

        let doc = Document::open(&prepared[..]).expect("open");
        let fields = fields_of(&doc);
        let pages = doc.pages().expect("pages");
        let annots = doc.resolve_array(pages[0].dict.get("Annots").expect("Annots")).expect("annots").expect("annots");
        for (name, kind) in [("SignetBox_date", b"Tx".as_slice()), ("SignetBox_tick", b"Btn")] {
            let d = field(&fields, name);
            assert_eq!(d.name("FT"), Some(kind), "{name}");
            assert_eq!(d.int("Ff"), Some(1), "{name} is read-only");
            assert_eq!(d.int("F"), Some(4), "{name} is printed");
            assert_eq!(d.name("Subtype"), Some(b"Widget".as_slice()));
            assert!(d.get("V").is_none(), "{name} is empty until signed");
            let r = fields.iter().find(|(n, _, _)| n == name).map(|(_, r, _)| *r).expect("ref");
            assert!(annots.contains(&Object::Ref(r)), "{name} is on its page");
        }
        assert_eq!(field(&fields, "SignetBox_tick").name("AS"), Some(b"Off".as_slice()));

        let mut app = Appearance::new(crate::WidgetPlacement::Pages {
            pages: crate::PageSelection::First,
            rect: BoxSpec::parse_custom("300,600,160,55").expect("box"),
        });
        app.marks = vec![
            mark(
                Some("SignetBox_date"),
                1,
                "72,700,100,20",
                MarkContent::Text { text: "01 Dec 2026".into(), style: crate::NameStyle::Plain },
            ),
            mark(Some("SignetBox_tick"), 1, "72,740,14,14", MarkContent::Check(true)),
        ];
        let opts = SignOptions { appearance: Some(app), contents_size: 64, ..SignOptions::default() };
        let signed = prepare(&prepared, &opts).expect("sign").bytes;
        let doc = Document::open(&signed[..]).expect("open");
        let fields = fields_of(&doc);
        assert_eq!(
            fields.len(),
            3,
            "the two boxes and one signature field: {:?}",
            fields.iter().map(|f| &f.0).collect::<Vec<_>>()
        );

        let date = field(&fields, "SignetBox_date");
        assert_eq!((date.name("FT"), date.int("Ff"), date.int("F")), (Some(b"Tx".as_slice()), Some(1), Some(4)));
        assert_eq!(date.get("V"), Some(&Object::text("01 Dec 2026")));
        let ap = doc.resolve_dict(date.get("AP").expect("AP")).expect("ap").expect("ap");
        let Ok(Object::Stream(stream)) = doc.resolve(ap.get("N").expect("N")) else { panic!("no appearance stream") };
        let bbox: Vec<f64> = stream
            .dict
            .get("BBox")
            .and_then(Object::as_array)
            .unwrap_or(&[])
            .iter()
            .filter_map(Object::as_number)
            .collect();
        assert_eq!(bbox, [0.0, 0.0, 100.0, 20.0], "the appearance fits the box");
        let drawn = doc.stream_decoded(&stream).expect("decoded");
        assert!(String::from_utf8_lossy(&drawn).contains(" Tf"), "the value is drawn as text");

        let tick = field(&fields, "SignetBox_tick");
        assert_eq!((tick.name("V"), tick.name("AS")), (Some(b"Yes".as_slice()), Some(b"Yes".as_slice())));
        let ap = doc.resolve_dict(tick.get("AP").expect("AP")).expect("ap").expect("ap");
        let states = doc.resolve_dict(ap.get("N").expect("N")).expect("states").expect("states");
        assert!(matches!(doc.resolve(states.get("Yes").expect("Yes")), Ok(Object::Stream(_))));

        // The signature field is its own single box: no kids, no mark widgets.
        let signatures: Vec<&Dict> = fields.iter().map(|f| &f.2).filter(|d| d.name("FT") == Some(b"Sig")).collect();
        assert_eq!(signatures.len(), 1);
        assert!(signatures[0].get("Kids").is_none(), "only the signature's own box: {:?}", signatures[0]);
        assert!(signatures[0].get("V").is_some());
        // After a signature, no more boxes can be prepared (pyHanko would refuse the new fields).
        assert!(add_mark_fields(&signed, &[mark_field("SignetBox_late", "72,500,100,20", false)]).is_err());
    }

    #[test]
    fn a_mark_without_an_empty_prepared_field_of_its_kind_is_a_widget_of_the_signature_field() {
        let pdf = crate::compose::compose_report("Loan agreement", &[], &[]);
        let prepared = add_mark_fields(&pdf, &[mark_field("SignetBox_text", "72,700,100,20", false)])
            .expect("prepare")
            .expect("added");
        let mut app = Appearance::new(crate::WidgetPlacement::Pages {
            pages: crate::PageSelection::First,
            rect: BoxSpec::parse_custom("300,600,160,55").expect("box"),
        });
        app.marks = vec![
            // A tick cannot go into a text field; an unknown name and no name have no field.
            mark(Some("SignetBox_text"), 1, "72,700,14,14", MarkContent::Check(true)),
            mark(Some("SignetBox_missing"), 1, "72,740,14,14", MarkContent::Check(false)),
            mark(None, 1, "72,780,14,14", MarkContent::Check(false)),
        ];
        let opts = SignOptions { appearance: Some(app), contents_size: 64, ..SignOptions::default() };
        let signed = prepare(&prepared, &opts).expect("sign").bytes;
        let doc = Document::open(&signed[..]).expect("open");
        let fields = fields_of(&doc);
        assert!(field(&fields, "SignetBox_text").get("V").is_none(), "left empty");
        let signature = fields.iter().map(|f| &f.2).find(|d| d.name("FT") == Some(b"Sig")).expect("signature");
        let kids = doc.resolve_array(signature.get("Kids").expect("kids")).expect("kids").expect("kids");
        assert_eq!(kids.len(), 4, "its box and the three marks");
    }

    #[test]
    fn placeholder_patch_keeps_length() {
        let mut buf = BYTE_RANGE_PLACEHOLDER.to_vec();
        patch_byte_range(&mut buf, 0, &[0, 10, 20, 30]).expect("patch");
        assert_eq!(buf.len(), BYTE_RANGE_PLACEHOLDER.len());
        assert!(buf.starts_with(b"[0 10 20 30 "));
        assert!(buf.ends_with(b"]"));
    }
}
