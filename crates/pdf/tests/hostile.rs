//! Hostile files: reference cycles, deep nesting, decompression bombs and files built to make
//! reading quadratic. Each must be refused (or read) with bounded work; the inputs are sized so
//! that an unbounded reader would run for minutes or overflow its stack, while the bounded one
//! answers at once.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::Write;

use common::*;
use signet_pdf::reader::Document;
use signet_pdf::{Error, SignOptions};

fn opts() -> SignOptions {
    SignOptions { name: Some("Alice".into()), ..SignOptions::default() }
}

/// The 165-byte upload that used to abort the server: `/Length 1 0 R` inside object 1.
const SELF_LENGTH: &[u8] = b"%PDF-1.7\n1 0 obj\n<< /Length 1 0 R >>\nstream\nx\nendstream\nendobj\nxref\n0 2\n\
0000000000 65535 f \n0000000009 00000 n \ntrailer\n<< /Size 2 /Root 1 0 R >>\nstartxref\n63\n%%EOF\n";

/// A PDF with a classic xref from object bodies (object `i + 1` is `bodies[i]`).
fn classic_pdf(bodies: &[Vec<u8>], root: u32) -> Vec<u8> {
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in bodies.iter().enumerate() {
        offsets.push(out.len());
        writeln!(out, "{} 0 obj", i + 1).unwrap();
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    write!(out, "xref\n0 {}\n0000000000 65535 f \n", bodies.len() + 1).unwrap();
    for o in offsets {
        writeln!(out, "{o:010} 00000 n ").unwrap();
    }
    write!(out, "trailer\n<< /Size {} /Root {root} 0 R >>\nstartxref\n{xref}\n%%EOF\n", bodies.len() + 1).unwrap();
    out
}

fn stream_body(dict_extra: &str, data: &[u8]) -> Vec<u8> {
    let mut b = format!("<< /Length {} {dict_extra} >>\nstream\n", data.len()).into_bytes();
    b.extend_from_slice(data);
    b.extend_from_slice(b"\nendstream");
    b
}

fn expect_damaged(result: Result<impl std::fmt::Debug, Error>, needle: &str) {
    match result {
        Err(Error::Damaged(m)) => assert!(m.contains(needle), "expected {needle:?} in {m:?}"),
        other => panic!("expected a damaged-file error about {needle:?}, got {other:?}"),
    }
}

#[test]
fn stream_length_pointing_at_its_own_object_is_a_cycle_not_a_crash() {
    assert_eq!(SELF_LENGTH.len(), 165);
    expect_damaged(Document::open(SELF_LENGTH).map(|_| ()), "reference cycle");
    expect_damaged(signet_pdf::prepare(SELF_LENGTH, &opts()).map(|_| ()), "reference cycle");
    expect_damaged(signet_pdf::inspect(SELF_LENGTH), "reference cycle");
    expect_damaged(signet_pdf::signatures(SELF_LENGTH), "reference cycle");
    assert!(signet_pdf::text::document_text(SELF_LENGTH, 1000).is_err());
}

#[test]
fn length_cycles_through_other_objects_are_refused() {
    // Stream 3 takes its length from 4, a stream whose length is 3.
    let bodies = vec![
        b"<< /Type /Catalog /Pages 2 0 R /Extra 3 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [] /Count 0 >>".to_vec(),
        b"<< /Length 4 0 R >>\nstream\nabc\nendstream".to_vec(),
        b"<< /Length 3 0 R >>\nstream\nabc\nendstream".to_vec(),
    ];
    let pdf = classic_pdf(&bodies, 1);
    let doc = Document::open(pdf.as_slice()).unwrap();
    expect_damaged(doc.get(signet_pdf::object::ObjRef::new(3, 0)), "reference cycle");
}

/// An xref stream (uncompressed, /W [1 4 2]) listing `entries` as (type, field2, field3).
fn xref_stream_pdf(head: &[u8], entries: &[(u8, u32, u16)], root: u32) -> Vec<u8> {
    let mut out = head.to_vec();
    let xref_at = out.len();
    let mut rows = Vec::new();
    for (t, f2, f3) in entries {
        rows.push(*t);
        rows.extend_from_slice(&f2.to_be_bytes());
        rows.extend_from_slice(&f3.to_be_bytes());
    }
    let num = entries.len();
    write!(
        out,
        "{num} 0 obj\n<< /Type /XRef /Size {} /W [1 4 2] /Root {root} 0 R /Length {} >>\nstream\n",
        num + 1,
        rows.len() + 7
    )
    .unwrap();
    // The xref stream's own row comes last.
    out.extend_from_slice(&rows);
    out.push(1);
    out.extend_from_slice(&(xref_at as u32).to_be_bytes());
    out.extend_from_slice(&0u16.to_be_bytes());
    write!(out, "\nendstream\nendobj\nstartxref\n{xref_at}\n%%EOF\n").unwrap();
    out
}

#[test]
fn object_stream_whose_length_lives_inside_itself_is_refused() {
    // Object 3 is an object stream holding objects 1 (catalog), 2 (pages) and 4 (its own
    // /Length): reading any of them needs the stream, which needs 4, which needs the stream.
    let objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>", "999"];
    let mut data = String::new();
    let mut header = String::new();
    for (num, body) in [1, 2, 4].iter().zip(objects) {
        header.push_str(&format!("{num} {} ", data.len()));
        data.push_str(body);
        data.push(' ');
    }
    let content = format!("{header}{data}");
    let mut head = b"%PDF-1.7\n".to_vec();
    let objstm_at = head.len() as u32;
    write!(
        head,
        "3 0 obj\n<< /Type /ObjStm /N 3 /First {} /Length 4 0 R >>\nstream\n{content}\nendstream\nendobj\n",
        header.len()
    )
    .unwrap();
    let entries = [(0, 0, 65535), (2, 3, 0), (2, 3, 1), (1, objstm_at, 0), (2, 3, 2)];
    let pdf = xref_stream_pdf(&head, &entries, 1);
    let e = Document::open(pdf.as_slice()).map(|_| ()).unwrap_err();
    assert!(e.to_string().contains("reference cycle") || matches!(e, Error::Damaged(_)), "{e}");
    assert!(signet_pdf::signatures(&pdf).is_err());
}

#[test]
fn page_tree_loops_are_refused() {
    let bodies = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        // An intermediate node whose kid is the root again.
        b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>".to_vec(),
    ];
    let pdf = classic_pdf(&bodies, 1);
    expect_damaged(signet_pdf::prepare(&pdf, &opts()).map(|_| ()), "cycle");
}

#[test]
fn nesting_one_hundred_thousand_deep_is_refused() {
    let deep = format!("<< /Type /Catalog /Pages 2 0 R /Deep {}{} >>", "[".repeat(100_000), "]".repeat(100_000));
    let dict_deep =
        format!("<< /Type /Catalog /Pages 2 0 R /Deep {}1{} >>", "<< /A ".repeat(50_000), " >>".repeat(50_000));
    for catalog in [deep, dict_deep] {
        let bodies = vec![catalog.into_bytes(), b"<< /Type /Pages /Kids [] /Count 0 >>".to_vec()];
        let pdf = classic_pdf(&bodies, 1);
        let e = signet_pdf::prepare(&pdf, &opts()).map(|_| ()).unwrap_err();
        assert!(e.to_string().contains("nested too deeply") || matches!(e, Error::Damaged(_)), "{e}");
        assert!(signet_pdf::signatures(&pdf).is_err());
    }
}

/// Twenty thousand objects opening a stream that never ends, and no xref: recovery used to look
/// for `endstream` from each of them to the end of the file (quadratic).
#[test]
fn thousands_of_unterminated_streams_are_refused_in_one_pass() {
    let mut pdf = b"%PDF-1.7\n".to_vec();
    for n in 1..=20_000 {
        write!(pdf, "{n} 0 obj\n<< /Length 5 >>\nstream\n").unwrap();
    }
    expect_damaged(Document::open(pdf.as_slice()).map(|_| ()), "");
    // With a catalog among them the document opens; the broken streams stay unreadable.
    let mut with_catalog = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n".to_vec();
    with_catalog.extend_from_slice(b"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n");
    with_catalog.extend_from_slice(b"3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>\nendobj\n");
    for n in 4..=20_004 {
        write!(with_catalog, "{n} 0 obj\n<< /Length 5 >>\nstream\n").unwrap();
    }
    let e = signet_pdf::prepare(&with_catalog, &opts()).map(|_| ()).unwrap_err();
    assert!(matches!(e, Error::Damaged(_)), "{e}");
}

/// Objects that each open a string running to the end of the file: each parse needs the whole
/// rest of the file, so reading all of them is refused by the work budget instead of taking
/// quadratic time.
#[test]
fn unterminated_strings_exhaust_the_work_budget_not_the_clock() {
    // 1 MB of objects: reading each to the end would parse about 2.5 GB; the budget is 64 MB
    // plus 16 times the file size.
    let mut pdf = b"%PDF-1.7\n".to_vec();
    let filler = "x".repeat(200);
    let mut n = 1;
    while pdf.len() < 1 << 20 {
        write!(pdf, "{n} 0 obj\n({filler}\n").unwrap();
        n += 1;
    }
    expect_damaged(Document::open(pdf.as_slice()).map(|_| ()), "reading it takes more than");
}

/// A flate stream nested twice: 1,799 bytes that inflate to 1 GiB of zeros. Made once with
/// `zlib.compress(zlib.compressobj(9) over 64 x 16 MiB of zeros, 9)` in Python; stored so the
/// test does not spend seconds compressing.
const FLATE_BOMB: &[u8] = include_bytes!("data/flate-bomb-1gib.bin");

#[test]
fn flate_bombs_are_refused() {
    let bomb = FLATE_BOMB;
    // As a page's content stream (read by text extraction) and as an object stream (read by
    // everything).
    let bodies = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>".to_vec(),
        stream_body("/Filter [/FlateDecode /FlateDecode]", bomb),
    ];
    let pdf = classic_pdf(&bodies, 1);
    let bomb_refused = |e: &Error| {
        let m = e.to_string();
        matches!(e, Error::Damaged(_)) && (m.contains("decodes to more than") || m.contains("reading it takes more"))
    };
    let e = signet_pdf::text::document_text(&pdf, 1000).unwrap_err();
    assert!(bomb_refused(&e), "{e}");

    let mut head = b"%PDF-1.7\n".to_vec();
    let objstm_at = head.len() as u32;
    head.extend_from_slice(b"1 0 obj\n");
    head.extend_from_slice(&stream_body("/Type /ObjStm /N 1 /First 4 /Filter [/FlateDecode /FlateDecode]", bomb));
    head.extend_from_slice(b"\nendobj\n");
    let entries = [(0, 0, 65535), (1, objstm_at, 0), (2, 1, 0)];
    let pdf = xref_stream_pdf(&head, &entries, 2);
    let e = Document::open(pdf.as_slice()).map(|_| ()).unwrap_err();
    assert!(bomb_refused(&e), "{e}");
}

#[test]
fn many_text_runs_are_capped() {
    // One page whose content shows 300,000 one-letter runs (a few MB of content).
    let content = "BT /F1 1 Tf (a) Tj ET\n".repeat(300_000);
    let bodies = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>".to_vec(),
        stream_body("", content.as_bytes()),
    ];
    let pdf = classic_pdf(&bodies, 1);
    let pages = signet_pdf::text::pages_text(&pdf).unwrap();
    assert_eq!(pages[0].1.len(), 100_000);
}

/// A 50-page reportlab document (contents streams come after all page dictionaries).
fn fifty_pages() -> Vec<u8> {
    let pages: Vec<(f64, f64, i32)> = (0..50).map(|_| (595.0, 842.0, 0)).collect();
    reportlab_pdf(&pages)
}

#[test]
fn truncated_document_is_refused_naming_the_missing_objects() {
    let pdf = fifty_pages();
    let truncated = &pdf[..pdf.len() / 2];
    let doc = Document::open(truncated).unwrap();
    assert!(doc.recovered);
    // The page tree survived the cut, so the pages are all listed; their content did not.
    assert_eq!(doc.pages().unwrap().len(), 50);
    let e = signet_pdf::prepare(truncated, &opts()).map(|_| ()).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, Error::Damaged(_)), "{msg}");
    assert!(msg.contains("which is missing (truncated file?)"), "{msg}");
    assert!(msg.contains("page ") && msg.contains(" 0 R"), "{msg}");
    assert!(msg.contains("to 50 are missing"), "{msg}");
    // Adding empty fields is refused the same way.
    let field = signet_pdf::EmptyField {
        name: "Later".into(),
        page: 1,
        rect: signet_pdf::BoxSpec::Named(signet_pdf::Position::BottomLeft),
    };
    assert!(signet_pdf::add_signature_fields(truncated, &[field]).is_err());
}

#[test]
fn broken_xref_alone_is_repaired_and_the_signature_validates() {
    let pdf = fifty_pages();
    // Ten bytes of comment after the header: every xref offset (and startxref) is now wrong,
    // but no object is lost.
    let header_end = pdf.iter().position(|b| *b == b'\n').unwrap() + 1;
    let mut shifted = pdf[..header_end].to_vec();
    shifted.extend_from_slice(b"%shifted!\n");
    shifted.extend_from_slice(&pdf[header_end..]);
    assert!(Document::open(shifted.as_slice()).unwrap().recovered);
    let signed = sign(&shifted, &opts(), 1);
    let dir = tmp();
    let path = write(&dir, "shifted-signed.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
}

#[test]
fn pages_refer_to_missing_resources_or_null_kids() {
    let content = stream_body("", b"BT /F1 12 Tf 72 700 Td (x) Tj ET");
    let with = |page: &str, kids: &str| {
        classic_pdf(
            &[
                b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
                format!("<< /Type /Pages /Kids {kids} /Count 1 >>").into_bytes(),
                page.as_bytes().to_vec(),
                content.clone(),
            ],
            1,
        )
    };
    let good = with("<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>", "[3 0 R]");
    assert!(signet_pdf::prepare(&good, &opts()).is_ok());
    let font_missing =
        with("<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 9 0 R >> >> >>", "[3 0 R]");
    expect_damaged(signet_pdf::prepare(&font_missing, &opts()).map(|_| ()), "page 1 refers to object 9 0 R");
    let contents_missing = with("<< /Type /Page /Parent 2 0 R /Contents [4 0 R 12 0 R] >>", "[3 0 R]");
    expect_damaged(signet_pdf::prepare(&contents_missing, &opts()).map(|_| ()), "object 12 0 R, which is missing");
    let kid_missing = with("<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>", "[3 0 R 7 0 R]");
    expect_damaged(signet_pdf::prepare(&kid_missing, &opts()).map(|_| ()), "page tree refers to object 7 0 R");
    let null_kid = with("<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>", "[3 0 R null]");
    expect_damaged(signet_pdf::prepare(&null_kid, &opts()).map(|_| ()), "null kid");
}

#[test]
fn scanning_a_damaged_file_for_signatures_is_bounded() {
    // A damaged "file" made of nothing but signature-dictionary keys: the scan ends, reports
    // a bounded number of signatures, and each fails (no gap holds a /Contents string).
    let mut junk = b"%PDF-1.7\n".to_vec();
    for i in 0..200 {
        junk.extend_from_slice(
            format!("<< /Type /Sig /Contents <00> /ByteRange [0 {i} {} 1] /M (x) >>\n", i + 4).as_bytes(),
        );
    }
    junk.extend_from_slice(&b"/Contents /ByteRange ".repeat(50_000));
    let found = signet_pdf::signatures_of_damaged(&junk, "test damage");
    assert!(!found.is_empty() && found.len() <= 32, "{}", found.len());
    assert!(found.iter().all(|s| !s.byte_range_ok && !s.later_changes.disallowed.is_empty()));
}
