//! Incremental-update attacks on signed PDFs (the shadow, incremental saving and wrapping
//! attacks of the PDF signature research): each is built on a file signed by this crate and
//! must come out as a disallowed later change. Legitimate later revisions (co-signing, DSS,
//! form filling) are checked by validators.rs and stay allowed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::Write;

use common::*;
use signet_pdf::SignOptions;
use signet_pdf::object::{ObjRef, Object, write_object};
use signet_pdf::reader::{Document, XrefEntry};

fn opts() -> SignOptions {
    SignOptions { name: Some("Alice".into()), ..SignOptions::default() }
}

/// Append a classic-xref revision redefining `objects` (number, body), chained to `prev`
/// (default: the current startxref).
fn append_revision(base: &[u8], objects: &[(u32, Vec<u8>)], prev: Option<u64>) -> Vec<u8> {
    let root = Document::open(base).unwrap().root_ref().unwrap().num;
    append_revision_with_root(base, objects, prev, root)
}

fn append_revision_with_root(base: &[u8], objects: &[(u32, Vec<u8>)], prev: Option<u64>, root: u32) -> Vec<u8> {
    let doc = Document::open(base).unwrap();
    let max = objects.iter().map(|(n, _)| *n as i64 + 1).max().unwrap_or(0);
    let size = doc.trailer.int("Size").unwrap().max(max);
    let prev = prev.unwrap_or(doc.startxref);
    let mut out = base.to_vec();
    let mut offsets = Vec::new();
    for (num, body) in objects {
        offsets.push((*num, out.len()));
        writeln!(out, "{num} 0 obj").unwrap();
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(b"xref\n");
    for (num, off) in offsets {
        write!(out, "{num} 1\n{off:010} 00000 n\r\n").unwrap();
    }
    write!(out, "trailer\n<< /Size {size} /Root {root} 0 R /Prev {prev} >>\nstartxref\n{xref}\n%%EOF\n").unwrap();
    out
}

fn body(obj: &Object) -> Vec<u8> {
    let mut b = Vec::new();
    write_object(&mut b, obj);
    b
}

fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut b = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
    b.extend_from_slice(data);
    b.extend_from_slice(b"\nendstream");
    b
}

/// The disallowed changes reported for the first signature.
fn disallowed(pdf: &[u8]) -> Vec<String> {
    let sigs = signet_pdf::signatures(pdf).unwrap();
    assert!(!sigs.is_empty(), "the signature must still be found");
    sigs[0].later_changes.disallowed.clone()
}

fn assert_changed(pdf: &[u8], needle: &str) {
    let d = disallowed(pdf);
    assert!(d.iter().any(|c| c.contains(needle)), "expected a disallowed change about {needle:?}, got {d:?}");
}

#[test]
fn redefined_object_stream_is_compared_object_by_object() {
    let base = qpdf(&simple_pdf(), &["--object-streams=generate"]);
    let signed = sign(&base, &opts(), 1);
    let doc = Document::open(signed.as_slice()).unwrap();
    let stream = doc
        .xref
        .values()
        .find_map(|e| match e {
            XrefEntry::Compressed { stream, .. } => Some(*stream),
            _ => None,
        })
        .expect("an object stream survives signing");
    let members = doc.objstm_members(&doc.xref, stream).unwrap();
    // Same objects, one of them with a key more: the revision lists only the object stream.
    let mut header = String::new();
    let mut data = Vec::new();
    let mut forged = None;
    for num in &members {
        let mut obj = doc.get(ObjRef::new(*num, 0)).unwrap();
        if forged.is_none()
            && let Object::Dict(d) = &mut obj
        {
            d.set("Forged", Object::Bool(true));
            forged = Some(*num);
        }
        header.push_str(&format!("{num} {} ", data.len()));
        data.extend(body(&obj));
        data.push(b'\n');
    }
    let forged = forged.expect("a dictionary in the object stream");
    let mut content = header.clone().into_bytes();
    content.extend(&data);
    let dict = format!("/Type /ObjStm /N {} /First {}", members.len(), header.len());
    let attacked = append_revision(&signed, &[(stream, stream_body_bytes(&dict, &content))], None);
    assert_eq!(Document::open(attacked.as_slice()).unwrap().sections.len(), doc.sections.len() + 1);
    assert_changed(&attacked, &format!("{forged}: Forged changed"));
}

fn stream_body_bytes(dict: &str, data: &[u8]) -> Vec<u8> {
    stream(dict, data)
}

#[test]
fn content_stream_turned_into_an_object_stream_is_a_rewrite() {
    let signed = sign(&simple_pdf(), &opts(), 1);
    let doc = Document::open(signed.as_slice()).unwrap();
    let page = doc.pages().unwrap().remove(0);
    let contents = page.dict.get("Contents").and_then(Object::as_ref).unwrap();
    let shadow = stream("/Type /ObjStm /N 0 /First 0", b"BT /F1 30 Tf 100 100 Td (FORGED) Tj ET");
    let attacked = append_revision(&signed, &[(contents.num, shadow)], None);
    assert_changed(&attacked, &format!("object {} was rewritten", contents.num));
}

#[test]
fn broken_xref_after_the_signature_does_not_hide_the_changes() {
    let signed = sign(&simple_pdf(), &opts(), 1);
    let doc = Document::open(signed.as_slice()).unwrap();
    let page = doc.pages().unwrap().remove(0);
    let contents = page.dict.get("Contents").and_then(Object::as_ref).unwrap();
    let forged = stream("", b"BT /F1 30 Tf 100 100 Td (FORGED) Tj ET");
    let mut attacked = append_revision(&signed, &[(contents.num, forged)], None);
    // Spoil the new section: readers then rebuild the xref by scanning and show the forgery.
    let mut spoiled_startxref = attacked.clone();
    let at = attacked.windows(6).rposition(|w| w == b"\nxref\n").unwrap();
    attacked[at + 1..at + 5].copy_from_slice(b"xrex");
    assert!(Document::open(attacked.as_slice()).unwrap().recovered);
    assert_changed(&attacked, "cross-reference data is damaged");
    // With the last startxref spoiled instead, the reader falls back on the signed revision's:
    // the appended revision is then data outside any revision.
    let at = spoiled_startxref.windows(9).rposition(|w| w == b"startxref").unwrap();
    spoiled_startxref[at..at + 9].copy_from_slice(b"startxrex");
    assert_changed(&spoiled_startxref, "not an incremental update");
}

/// Catalog -> root node -> intermediate node (with /Parent, like a field) -> two pages.
fn two_level_page_tree() -> Vec<u8> {
    let content = |t: &str| stream("", format!("BT /F1 24 Tf 72 700 Td ({t}) Tj ET").as_bytes());
    let bodies: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 2 /MediaBox [0 0 612 792] >>".to_vec(),
        b"<< /Type /Pages /Parent 2 0 R /Kids [4 0 R 5 0 R] /Count 2 >>".to_vec(),
        b"<< /Type /Page /Parent 3 0 R /Contents 6 0 R >>".to_vec(),
        b"<< /Type /Page /Parent 3 0 R /Contents 7 0 R >>".to_vec(),
        content("I agree to pay 100 EUR"),
        content("Signed in Paris"),
    ];
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, b) in bodies.iter().enumerate() {
        offsets.push(out.len());
        writeln!(out, "{} 0 obj", i + 1).unwrap();
        out.extend_from_slice(b);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    write!(out, "xref\n0 {}\n0000000000 65535 f \n", bodies.len() + 1).unwrap();
    for o in offsets {
        writeln!(out, "{o:010} 00000 n ").unwrap();
    }
    write!(out, "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", bodies.len() + 1).unwrap();
    out
}

#[test]
fn page_tree_nodes_are_not_form_fields() {
    let signed = sign(&two_level_page_tree(), &opts(), 1);
    // Swap the pages' order through the intermediate node (it has /Parent and /Kids, which used
    // to pass for a form field's allowed /Kids change).
    let node = b"<< /Type /Pages /Parent 2 0 R /Kids [5 0 R 4 0 R] /Count 2 >>".to_vec();
    let attacked = append_revision(&signed, &[(3, node)], None);
    assert_changed(&attacked, "page tree node 3: Kids changed");
    // A page replaced by a new one the same way.
    let new_page = b"<< /Type /Page /Parent 3 0 R /Contents 101 0 R >>".to_vec();
    let new_content = stream("", b"BT /F1 24 Tf 72 700 Td (I agree to pay 100000 EUR) Tj ET");
    let node = b"<< /Type /Pages /Parent 2 0 R /Kids [100 0 R 5 0 R] /Count 2 >>".to_vec();
    let attacked = append_revision(&signed, &[(100, new_page), (101, new_content), (3, node)], None);
    assert_changed(&attacked, "page tree node 3");
}

#[test]
fn bytes_after_the_signed_revision_are_reported() {
    let signed = sign(&simple_pdf(), &opts(), 1);
    // Blank padding is harmless.
    let mut padded = signed.clone();
    padded.extend_from_slice(b"\r\n\n  \n");
    assert!(disallowed(&padded).is_empty());
    // Objects appended without an xref: tolerant readers show them, strict ones do not.
    let doc = Document::open(signed.as_slice()).unwrap();
    let root = doc.root_ref().unwrap().num;
    let mut shadow = signed.clone();
    write!(shadow, "{root} 0 obj\n<< /Type /Catalog /Pages 999 0 R >>\nendobj\n").unwrap();
    assert_changed(&shadow, "not an incremental update");
    let sigs = signet_pdf::signatures(&shadow).unwrap();
    assert!(!sigs[0].covers_whole_file);
    // Junk after a legitimate second signature's %%EOF.
    let cosigned = sign(&signed, &SignOptions { name: Some("Bob".into()), ..SignOptions::default() }, 2);
    assert!(disallowed(&cosigned).is_empty());
    let mut junk = cosigned.clone();
    junk.extend_from_slice(b"% trailing data\n");
    assert_changed(&junk, "after the last revision's %%EOF");
}

#[test]
fn later_chain_that_skips_the_signed_revision_is_reported() {
    let plain = simple_pdf();
    let original_startxref = Document::open(plain.as_slice()).unwrap().startxref;
    let signed = sign(&plain, &opts(), 1);
    let doc = Document::open(signed.as_slice()).unwrap();
    // Copy the signature revision's dictionaries into a new revision chained straight to the
    // unsigned one, so the signature is still found but its own section is out of the chain.
    let mut objects = Vec::new();
    for (num, entry) in &doc.sections[0].entries {
        if let XrefEntry::InUse { .. } = entry
            && let Ok(obj @ (Object::Dict(_) | Object::Array(_))) = doc.get(ObjRef::new(*num, 0))
        {
            objects.push((*num, body(&obj)));
        }
    }
    let attacked = append_revision(&signed, &objects, Some(original_startxref));
    // The copied signature dictionary no longer holds the gap (wrapping check); were it
    // kept in place, the skipped section is reported.
    let sigs = signet_pdf::signatures(&attacked).unwrap();
    let skipped = sigs[0].later_changes.disallowed.iter().any(|c| c.contains("skips the signed revision"));
    assert!(!sigs[0].byte_range_ok || skipped, "{:?}", sigs[0]);
}

#[test]
fn signature_dictionary_moved_away_from_the_signed_gap_is_refused() {
    let signed = sign(&simple_pdf(), &opts(), 1);
    let sig = &signet_pdf::signatures(&signed).unwrap()[0];
    assert!(sig.byte_range_ok);
    // Wrapping: a later revision redefines the signature dictionary elsewhere (here a
    // byte-identical copy, so the signer's name, reason and ByteRange can be anything); the
    // ByteRange gap then no longer lies in the dictionary the document uses.
    let doc = Document::open(signed.as_slice()).unwrap();
    let (value_num, offset) = doc.sections[0]
        .entries
        .iter()
        .find_map(|(n, e)| match (e, doc.get(ObjRef::new(*n, 0))) {
            (XrefEntry::InUse { offset, .. }, Ok(Object::Dict(d))) if d.get("ByteRange").is_some() => {
                Some((*n, *offset))
            }
            _ => None,
        })
        .unwrap();
    let start = offset as usize + signed[offset as usize..].windows(4).position(|w| w == b"obj\n").unwrap() + 4;
    let end = start + signed[start..].windows(6).position(|w| w == b"endobj").unwrap();
    let copy = signed[start..end].to_vec();
    let attacked = append_revision(&signed, &[(value_num, copy)], None);
    let sigs = signet_pdf::signatures(&attacked).unwrap();
    assert!(!sigs[0].byte_range_ok, "{:?}", sigs[0].byte_range);
}

#[test]
fn a_new_catalog_in_a_later_trailer_is_a_change() {
    // Incremental saving attack: only new objects, and a trailer whose /Root is a new catalog
    // showing a new page.
    let signed = sign(&simple_pdf(), &opts(), 1);
    // The new catalog keeps the signed form, so the signature is still listed.
    let (_, catalog) = Document::open(signed.as_slice()).unwrap().catalog().unwrap();
    let form = body(catalog.get("AcroForm").unwrap());
    let mut new_catalog = b"<< /Type /Catalog /Pages 101 0 R /AcroForm ".to_vec();
    new_catalog.extend(form);
    new_catalog.extend_from_slice(b" >>");
    let objects = vec![
        (100, new_catalog),
        (101, b"<< /Type /Pages /Kids [102 0 R] /Count 1 >>".to_vec()),
        (102, b"<< /Type /Page /Parent 101 0 R /MediaBox [0 0 612 792] /Contents 103 0 R >>".to_vec()),
        (103, stream("", b"BT /F1 30 Tf 100 100 Td (FORGED) Tj ET")),
    ];
    let attacked = append_revision_with_root(&signed, &objects, None, 100);
    assert_changed(&attacked, "catalog was replaced");
}

#[test]
fn a_signed_range_that_stops_inside_a_revision_is_a_change() {
    let signed = sign(&simple_pdf(), &opts(), 1);
    // Without its %%EOF marker the signed range no longer ends a revision: whatever follows
    // belongs to a revision the signature only partly covers. (The digest breaks too; the
    // structural verdict must not depend on the CMS check.)
    let mut cut = signed.clone();
    let at = cut.windows(5).rposition(|w| w == b"%%EOF").unwrap();
    cut[at..at + 5].copy_from_slice(b"%%EOX");
    let sigs = signet_pdf::signatures(&cut).unwrap();
    assert!(sigs[0].byte_range_ok && !sigs[0].covers_revision);
    assert_changed(&cut, "inside a revision");
}

/// The trailer's `/Info` number and the signed document's first page number.
fn info_and_first_page(pdf: &[u8]) -> (u32, u32) {
    let doc = Document::open(pdf).unwrap();
    let info = doc.trailer.get("Info").and_then(Object::as_ref).expect("reportlab writes /Info").num;
    let (_, catalog) = doc.catalog().unwrap();
    let Object::Dict(pages) = doc.get(catalog.get("Pages").and_then(Object::as_ref).unwrap()).unwrap() else {
        panic!("pages")
    };
    let Some(Object::Array(kids)) = pages.get("Kids") else { panic!("kids") };
    (info, kids[0].as_ref().unwrap().num)
}

/// A later revision (classic xref) whose trailer names `info` as `/Info`.
fn append_revision_with_info(base: &[u8], objects: &[(u32, Vec<u8>)], info: u32) -> Vec<u8> {
    let updated = append_revision(base, objects, None);
    let at = updated.windows(10).rposition(|w| w == b"trailer\n<<").expect("trailer") + 10;
    let mut out = updated[..at].to_vec();
    out.extend_from_slice(format!(" /Info {info} 0 R").as_bytes());
    out.extend_from_slice(&updated[at..]);
    out
}

#[test]
fn the_document_information_may_change_but_cannot_carry_anything_else() {
    let signed = sign(&simple_pdf(), &opts(), 1);
    let (info, page) = info_and_first_page(&signed);
    // A later save that rewrites /ModDate, as pyHanko and Acrobat do: reported, allowed.
    let metadata = b"<< /Producer (Another tool) /ModDate (D:20261128120000Z) >>".to_vec();
    let saved = append_revision_with_info(&signed, &[(info, metadata)], info);
    let sigs = signet_pdf::signatures(&saved).unwrap();
    assert!(sigs[0].later_changes.disallowed.is_empty(), "{:?}", sigs[0].later_changes);
    assert!(
        sigs[0].later_changes.allowed.iter().any(|c| c.contains("document information")),
        "{:?}",
        sigs[0].later_changes
    );
    // An "information dictionary" that references something is no longer one.
    let carrying = format!("<< /ModDate (D:20261128120000Z) /Extra {page} 0 R >>").into_bytes();
    assert_changed(&append_revision_with_info(&signed, &[(info, carrying)], info), "changed");
    // Naming the page as /Info does not make rewriting the page a metadata change.
    let forged = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 900 0 R /Resources << >> >>".to_vec();
    let objects = vec![(page, forged), (900, stream("", b"BT /F1 30 Tf 100 100 Td (FORGED) Tj ET"))];
    let hidden = append_revision_with_info(&signed, &objects, page);
    assert_changed(&hidden, "page");
}

#[test]
fn xmp_metadata_may_be_rewritten_later() {
    // A document with XMP metadata (added by an earlier save), signed.
    let plain = simple_pdf();
    let (root, mut catalog) = Document::open(plain.as_slice()).unwrap().catalog().unwrap();
    catalog.0.push((b"Metadata".to_vec(), Object::Ref(ObjRef::new(900, 0))));
    let xmp = |title: &str| {
        let packet = format!("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><dc:title>{title}</dc:title></x:xmpmeta>");
        stream("/Type /Metadata /Subtype /XML", packet.as_bytes())
    };
    let with_xmp = append_revision(&plain, &[(root.num, body(&Object::Dict(catalog))), (900, xmp("Lease"))], None);
    let signed = sign(&with_xmp, &opts(), 1);
    let rewritten = append_revision(&signed, &[(900, xmp("Lease, saved again"))], None);
    let sigs = signet_pdf::signatures(&rewritten).unwrap();
    let changes = &sigs[0].later_changes;
    assert!(changes.disallowed.is_empty(), "{changes:?}");
    assert!(changes.allowed.iter().any(|c| c.contains("XMP metadata")), "{changes:?}");
    // A "metadata" stream that is not XML metadata is a rewrite like any other.
    let drawn = append_revision(&signed, &[(900, stream("", b"BT /F1 30 Tf 100 100 Td (FORGED) Tj ET"))], None);
    assert_changed(&drawn, "rewritten");
}

/// `signed` with a later revision that puts a `subtype` annotation on the first page, its
/// appearance painting "PAID IN FULL" (a raw incremental update, as an editor writes one).
fn with_annotation(signed: &[u8], subtype: &str) -> Vec<u8> {
    with_annotation_at(signed, subtype, [50.0, 700.0, 545.0, 800.0])
}

fn with_annotation_at(signed: &[u8], subtype: &str, rect: [f64; 4]) -> Vec<u8> {
    let doc = Document::open(signed).unwrap();
    let (_, page) = info_and_first_page(signed);
    let Object::Dict(mut page_dict) = doc.get(ObjRef::new(page, 0)).unwrap() else { panic!("page") };
    let size = doc.trailer.int("Size").unwrap() as u32;
    let (annot, appearance) = (size, size + 1);
    let mut annots = match page_dict.get("Annots") {
        Some(Object::Array(a)) => a.clone(),
        _ => Vec::new(),
    };
    annots.push(Object::Ref(ObjRef::new(annot, 0)));
    page_dict.0.retain(|(k, _)| k.as_slice() != b"Annots");
    page_dict.0.push((b"Annots".to_vec(), Object::Array(annots)));
    let [x0, y0, x1, y1] = rect;
    let annotation = format!(
        "<< /Type /Annot /Subtype /{subtype} /Rect [{x0} {y0} {x1} {y1}] /Contents (PAID IN FULL) /AP << /N {appearance} 0 R >> >>"
    );
    let paint = b"1 1 1 rg 0 0 495 100 re f 0 0 0 rg BT /Helv 40 Tf 20 40 Td (PAID IN FULL) Tj ET";
    let objects = vec![
        (page, body(&Object::Dict(page_dict))),
        (annot, annotation.into_bytes()),
        (appearance, stream("/Type /XObject /Subtype /Form /BBox [0 0 495 100]", paint)),
    ];
    append_revision(signed, &objects, None)
}

/// Issue 32: a FreeText or Stamp annotation painting over certified text was listed as an
/// allowed change (the Evil Annotation Attack). A P=2 certification allows only form filling
/// and signing; without a certification, comments are allowed and reported, other kinds fail.
#[test]
fn annotations_after_a_p2_certification_fail_and_comments_on_an_approval_are_reported() {
    use signet_pdf::SignatureKind;
    let certified = sign(&simple_pdf(), &SignOptions { kind: SignatureKind::Certification, ..opts() }, 1);
    for subtype in ["FreeText", "Stamp", "Square"] {
        assert_changed(&with_annotation(&certified, subtype), "P=2 certification");
    }
    let approved = sign(&simple_pdf(), &opts(), 1);
    let commented = with_annotation(&approved, "FreeText");
    let sigs = signet_pdf::signatures(&commented).unwrap();
    let changes = &sigs[0].later_changes;
    assert!(changes.disallowed.is_empty(), "{changes:?}");
    assert!(changes.allowed.iter().any(|c| c.contains("(FreeText) added")), "{changes:?}");
    assert_changed(&with_annotation(&approved, "Watermark"), "not a comment");
    assert_changed(&with_annotation(&approved, "Redact"), "not a comment");
}

/// Issue 32, item 2: every annotation added after signing is placed (page, rectangle, what it
/// draws), and one that lies over signed text is named as hiding it; one beside the text is not.
#[test]
fn a_comment_over_signed_text_hides_it_and_one_beside_it_does_not() {
    let approved = sign(&simple_pdf(), &opts(), 1);
    // reportlab drew "Page 1 of a test document" at (72, 421) in 14 pt Helvetica.
    let over = with_annotation_at(&approved, "FreeText", [60.0, 410.0, 300.0, 440.0]);
    let changes = signet_pdf::signatures(&over).unwrap().remove(0).later_changes;
    assert!(changes.disallowed.is_empty(), "{changes:?}");
    let [covering] = changes.covering.as_slice() else { panic!("one covering change: {changes:?}") };
    assert_eq!((covering.page, covering.subtype.as_str(), covering.draws.as_str()), (1, "FreeText", "PAID IN FULL"));
    assert!(covering.covers.contains("Page 1 of a test document"), "{covering:?}");
    assert!(covering.to_string().contains("on page 1 at [60 410 300 440]"), "{covering}");

    let beside = signet_pdf::signatures(&with_annotation(&approved, "FreeText")).unwrap().remove(0).later_changes;
    assert!(beside.covering.is_empty(), "{beside:?}");
    let said = beside.allowed.iter().find(|c| c.contains("(FreeText) added")).expect("reported");
    assert!(said.contains("on page 1 at [50 700 545 800], drawing \"PAID IN FULL\""), "{said}");
}

/// Issue 32, item 2: the appearance of a signature that was already signed, replaced in a later
/// revision (its widget's /AP pointed at a new picture), is named: the box no longer shows what
/// was signed, whatever it covers.
#[test]
fn a_replaced_appearance_of_a_signed_signature_is_named() {
    let mut appearance = signet_pdf::Appearance::new(signet_pdf::WidgetPlacement::Pages {
        pages: signet_pdf::PageSelection::All,
        rect: signet_pdf::BoxSpec::Custom { left: 300.0, top: 600.0, width: 200.0, height: 60.0 },
    });
    appearance.typed_name = Some("Alice".into());
    let signed = sign(&simple_pdf(), &SignOptions { appearance: Some(appearance), ..opts() }, 1);
    let doc = Document::open(signed.as_slice()).unwrap();
    let (_, catalog) = doc.catalog().unwrap();
    let form = doc.resolve_dict(catalog.get("AcroForm").unwrap()).unwrap().unwrap();
    let fields = doc.resolve_array(form.get("Fields").unwrap()).unwrap().unwrap();
    let field = fields[0].as_ref().unwrap();
    let Object::Dict(field_dict) = doc.get(field).unwrap() else { panic!("field") };
    let widget = match field_dict.get("Kids") {
        Some(kids) => doc.resolve_array(kids).unwrap().unwrap()[0].as_ref().unwrap(),
        None => field,
    };
    let Object::Dict(mut widget_dict) = doc.get(widget).unwrap() else { panic!("widget") };
    let picture = doc.trailer.int("Size").unwrap() as u32;
    widget_dict.0.retain(|(k, _)| k.as_slice() != b"AP");
    widget_dict.0.push((
        b"AP".to_vec(),
        Object::Dict(signet_pdf::object::Dict(vec![(b"N".to_vec(), Object::Ref(ObjRef::new(picture, 0)))])),
    ));
    let paint = b"BT /Helv 20 Tf 10 20 Td (Mallory) Tj ET";
    let objects = vec![
        (widget.num, body(&Object::Dict(widget_dict))),
        (picture, stream("/Type /XObject /Subtype /Form /BBox [0 0 200 60]", paint)),
    ];
    let replaced = append_revision(&signed, &objects, None);
    let changes = signet_pdf::signatures(&replaced).unwrap().remove(0).later_changes;
    assert!(changes.disallowed.is_empty(), "{changes:?}");
    let [covering] = changes.covering.as_slice() else { panic!("one covering change: {changes:?}") };
    assert_eq!((covering.subtype.as_str(), covering.draws.as_str()), ("signature appearance", "Mallory"));
}

/// Issue 32, item 2: a stamp laid over an image of the signed page (a photograph, a seal) hides
/// it as surely as one over words.
#[test]
fn a_stamp_over_a_signed_image_hides_it() {
    let dir = tmp();
    let script = r#"
from reportlab.pdfgen import canvas
from reportlab.lib.utils import ImageReader
from PIL import Image
c = canvas.Canvas("out.pdf")
c.drawImage(ImageReader(Image.new("RGB", (40, 20), (200, 30, 30))), 100, 500, width=200, height=100)
c.drawString(72, 300, "Borrower's photograph above")
c.showPage()
c.save()
"#;
    run(std::process::Command::new("python3").current_dir(&dir).args(["-c", script]));
    let signed = sign(&std::fs::read(dir.join("out.pdf")).unwrap(), &opts(), 1);
    let stamped = with_annotation_at(&signed, "Stamp", [120.0, 520.0, 280.0, 580.0]);
    let changes = signet_pdf::signatures(&stamped).unwrap().remove(0).later_changes;
    let [covering] = changes.covering.as_slice() else { panic!("one covering change: {changes:?}") };
    assert_eq!((covering.subtype.as_str(), covering.covers.as_str()), ("Stamp", "an image"), "{covering}");
    // Beside the image, over nothing: placed, not covering.
    let beside = with_annotation_at(&signed, "Stamp", [350.0, 520.0, 450.0, 580.0]);
    assert!(signet_pdf::signatures(&beside).unwrap().remove(0).later_changes.covering.is_empty());
}
