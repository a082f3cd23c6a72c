//! `IsCompressed`: 7-zip files are opened within size and ratio limits; bombs are 107.

use std::io::Cursor;

use serde_json::json;
use signet_gateway::{
    Document, ErrorCode, PayloadLimits, b64_encode, decompress_7z, parse_payload, parse_payload_with,
};

fn seven_zip(name: &str, content: &[u8]) -> Vec<u8> {
    let mut writer = sevenz_rust2::ArchiveWriter::new(Cursor::new(Vec::new())).expect("writer");
    writer.push_archive_entry(sevenz_rust2::ArchiveEntry::new_file(name), Some(content)).expect("entry");
    writer.finish().expect("finish").into_inner()
}

/// Bytes that do not compress much (so the ratio stays low), starting as a PDF.
fn pdf_like(len: usize) -> Vec<u8> {
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut x: u32 = 0x1234_5678;
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        out.push((x & 0xff) as u8);
    }
    out
}

fn payload(file: &[u8], compressed: bool) -> serde_json::Value {
    json!({
        "Filetype": "PDF", "File": b64_encode(file), "IsCompressed": compressed, "ReferenceNumber": "R",
        "Name": "A", "Authtoken": "t", "SignatureType": "2", "SelectPage": "ALL", "SignaturePosition": "Top-Left",
        "SUrl": "https://a.example/s", "Furl": "https://a.example/f", "Curl": "https://a.example/c"
    })
}

#[test]
fn compressed_pdf_is_opened() {
    let pdf = pdf_like(300_000);
    let archive = seven_zip("doc.pdf", &pdf);
    let p = parse_payload(payload(&archive, true).to_string().as_bytes()).expect("valid");
    let Document::Pdf { bytes, .. } = p.document else { panic!("pdf") };
    assert_eq!(bytes, pdf);
    assert!(p.is_compressed);
}

#[test]
fn ratio_bomb_is_refused() {
    // 4 MB of zeros compress to a few hundred bytes: far beyond 200:1.
    let archive = seven_zip("zeros.pdf", &vec![0u8; 4 * 1024 * 1024]);
    assert!(archive.len() < 4 * 1024 * 1024 / 200);
    let f = parse_payload(payload(&archive, true).to_string().as_bytes()).expect_err("bomb refused");
    assert_eq!(f.code, ErrorCode::InvalidParameters);
    assert!(f.detail.contains("expands beyond"), "{}", f.detail);
    assert_eq!(f.failure_url.as_deref(), Some("https://a.example/f"));
}

#[test]
fn size_limit_is_refused_even_at_a_low_ratio() {
    let pdf = pdf_like(600_000);
    let archive = seven_zip("doc.pdf", &pdf);
    let limits = PayloadLimits { max_file_bytes: 500_000, max_ratio: 200 };
    let f = parse_payload_with(payload(&archive, true).to_string().as_bytes(), &limits).expect_err("too large");
    assert!(f.detail.contains("500000"), "{}", f.detail);
    // The same limit applies to an uncompressed file.
    let f = parse_payload_with(payload(&pdf, false).to_string().as_bytes(), &limits).expect_err("too large");
    assert!(f.detail.contains("larger than"), "{}", f.detail);
    assert!(decompress_7z(&archive, &PayloadLimits { max_file_bytes: 700_000, max_ratio: 200 }).is_ok());
}

#[test]
fn damaged_archives_are_107() {
    let archive = seven_zip("doc.pdf", &pdf_like(10_000));
    let limits = PayloadLimits::default();
    for bad in [&archive[..archive.len() / 2], &archive[6..], b"7z\xbc\xaf\x27\x1c garbage".as_slice(), b"PK\x03\x04"] {
        let f = decompress_7z(bad, &limits).expect_err("refused");
        assert_eq!(f.code, ErrorCode::InvalidParameters);
    }
    let mut flipped = archive.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0xff;
    assert!(decompress_7z(&flipped, &limits).is_err(), "CRC or stream error");
    // An archive holding a non-PDF is the usual "not a PDF".
    let f = parse_payload(payload(&seven_zip("x.txt", b"hello"), true).to_string().as_bytes()).expect_err("not pdf");
    assert!(f.detail.contains("not a PDF"), "{}", f.detail);
}
