//! Bad input, damaged files, hybrid-reference files, modification analysis and the streaming
//! file API.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::Write;

use common::*;
use signet_pdf::object::{Dict, ObjRef, Object, write_object};
use signet_pdf::reader::Document;
use signet_pdf::{Error, SignOptions};

fn opts() -> SignOptions {
    SignOptions { name: Some("Alice".into()), ..SignOptions::default() }
}

#[test]
fn empty_and_non_pdf_inputs_are_refused_clearly() {
    let e = signet_pdf::prepare(b"", &opts()).unwrap_err();
    assert!(matches!(e, Error::Empty), "{e}");
    let e = signet_pdf::prepare(b"hello, this is not a PDF at all", &opts()).unwrap_err();
    assert!(matches!(e, Error::NotPdf), "{e}");
    assert_eq!(e.to_string(), "not a PDF file (no %PDF- header)");
    let e = signet_pdf::prepare(b"%PDF-1.7\n", &opts()).unwrap_err();
    assert!(!e.to_string().is_empty());
}

#[test]
fn encrypted_pdfs_are_refused() {
    let plain = simple_pdf();
    for args in [&["--encrypt", "user", "owner", "256", "--"][..], &["--encrypt", "", "owner", "256", "--"][..]] {
        let enc = qpdf(&plain, args);
        let e = signet_pdf::prepare(&enc, &opts()).unwrap_err();
        assert!(matches!(e, Error::Encrypted), "{e}");
        assert!(e.to_string().contains("encrypted"));
    }
}

#[test]
fn truncated_files_fail_cleanly_or_recover() {
    let pdf = simple_pdf();
    for cut in [10, 100, pdf.len() / 3, pdf.len() / 2, pdf.len() - 30] {
        // Either a readable error or a recovered document; never a panic.
        match signet_pdf::prepare(&pdf[..cut], &opts()) {
            Ok(p) => assert!(p.bytes.starts_with(&pdf[..cut])),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

#[test]
fn missing_xref_is_rebuilt_and_the_signature_validates() {
    let dir = tmp();
    let pdf = simple_pdf();
    // Cut the xref table and trailer away: only the objects remain.
    let at = pdf.windows(5).rposition(|w| w == b"\nxref").unwrap();
    let broken = pdf[..at + 1].to_vec();
    let summary = signet_pdf::inspect(&broken).unwrap();
    assert!(summary.xref_recovered);
    let signed = sign(&broken, &opts(), 1);
    let path = write(&dir, "recovered.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_qpdf_clean(&path);
}

#[test]
fn wrong_startxref_offset_is_recovered() {
    let dir = tmp();
    let simple = simple_pdf();
    // A classic file, and one whose objects live in object streams (the rebuilt xref must then
    // be written as a complete xref stream with compressed entries).
    for (name, mut pdf) in [("table", simple.clone()), ("objstm", qpdf(&simple, &["--object-streams=generate"]))] {
        let at = pdf.windows(9).rposition(|w| w == b"startxref").unwrap();
        // Point startxref at byte 20 (inside the header area), same length edit.
        let tail = String::from_utf8_lossy(&pdf[at + 10..]).into_owned();
        let digits = tail.split_whitespace().next().unwrap().len();
        let start = at + 10 + (tail.len() - tail.trim_start().len());
        let replacement = format!("{:0>width$}", 20, width = digits);
        pdf[start..start + digits].copy_from_slice(replacement.as_bytes());
        let summary = signet_pdf::inspect(&pdf).unwrap();
        assert!(summary.xref_recovered, "{name}");
        let signed = sign(&pdf, &opts(), 1);
        let path = write(&dir, &format!("fixed-{name}.pdf"), &signed);
        assert_pdfsig_valid(&path, 1);
        assert_qpdf_clean(&path);
        // Co-signing the repaired file goes through the normal (non-recovered) path.
        let again = sign(&signed, &opts(), 2);
        assert!(!signet_pdf::inspect(&again).unwrap().xref_recovered);
        assert_pdfsig_valid(&write(&dir, &format!("fixed2-{name}.pdf"), &again), 2);
    }
}

/// Deterministic byte mutations: the reader and signer must never panic.
#[test]
fn mutated_inputs_never_panic() {
    let base = qpdf(&simple_pdf(), &["--object-streams=generate"]);
    let mut state: u64 = 0x9e3779b97f4a7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..300 {
        let mut m = base.clone();
        for _ in 0..(next() % 8 + 1) {
            let i = (next() % m.len() as u64) as usize;
            m[i] = next() as u8;
        }
        let _ = signet_pdf::prepare(&m, &opts());
        let _ = signet_pdf::signatures(&m);
    }
}

/// Build a hybrid-reference update by hand: the catalog moves into an object stream that only
/// the `/XRefStm` stream knows about; the classic table does not list it.
fn make_hybrid(base: &[u8]) -> Vec<u8> {
    let doc = Document::open(base).unwrap();
    let (root, mut catalog) = doc.catalog().unwrap();
    catalog.set("Lang", Object::literal(b"en-IN"));
    let size = doc.trailer.int("Size").unwrap() as u32;
    let prev = doc.startxref;
    let mut out = base.to_vec();
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    let mut body = Vec::new();
    write_object(&mut body, &Object::Dict(catalog));
    let header = format!("{} 0 ", root.num);
    let objstm_num = size;
    let xrefstm_num = size + 1;
    let objstm_at = out.len();
    write!(
        out,
        "{objstm_num} 0 obj\n<</Type /ObjStm /N 1 /First {} /Length {}>>\nstream\n{header}",
        header.len(),
        header.len() + body.len()
    )
    .unwrap();
    out.extend_from_slice(&body);
    out.extend_from_slice(b"\nendstream\nendobj\n");
    let xrefstm_at = out.len();
    let mut rows = vec![2u8];
    rows.extend_from_slice(&objstm_num.to_be_bytes());
    rows.extend_from_slice(&0u16.to_be_bytes());
    write!(
        out,
        "{xrefstm_num} 0 obj\n<</Type /XRef /W [1 4 2] /Index [{} 1] /Size {} /Length {}>>\nstream\n",
        root.num,
        size + 2,
        rows.len()
    )
    .unwrap();
    out.extend_from_slice(&rows);
    out.extend_from_slice(b"\nendstream\nendobj\n");
    let xref_at = out.len();
    write!(
        out,
        "xref\n{objstm_num} 2\n{objstm_at:010} 00000 n\r\n{xrefstm_at:010} 00000 n\r\n\
         trailer\n<</Size {} /Root {} 0 R /Prev {prev} /XRefStm {xrefstm_at}>>\nstartxref\n{xref_at}\n%%EOF\n",
        size + 2,
        root.num
    )
    .unwrap();
    out
}

#[test]
fn hybrid_reference_files_are_read_through_xrefstm() {
    let dir = tmp();
    let hybrid = make_hybrid(&simple_pdf());
    let doc = Document::open(hybrid.as_slice()).unwrap();
    assert!(doc.sections[0].hybrid);
    let (_, catalog) = doc.catalog().unwrap();
    assert!(catalog.get("Lang").is_some(), "the catalog must come from the hidden object stream");
    let signed = sign(&hybrid, &opts(), 1);
    // Our update rewrote the catalog (new AcroForm) from its newest version.
    let tail = &signed[hybrid.len()..];
    assert!(tail.windows(5).any(|w| w == b"en-IN"));
    let path = write(&dir, "hybrid.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid_lax(&path);
}

#[test]
fn page_content_change_after_signing_is_flagged() {
    let signed = sign(&simple_pdf(), &opts(), 1);
    let doc = Document::open(signed.as_slice()).unwrap();
    let page = doc.pages().unwrap().remove(0);
    let size = doc.trailer.int("Size").unwrap() as u32;
    let mut out = signed.clone();
    let content_at = out.len();
    let content = b"BT /F1 30 Tf 100 100 Td (FORGED) Tj ET";
    write!(out, "{size} 0 obj\n<</Length {}>>\nstream\n", content.len()).unwrap();
    out.extend_from_slice(content);
    out.extend_from_slice(b"\nendstream\nendobj\n");
    let mut new_page: Dict = page.dict.clone();
    new_page.set("Contents", Object::Ref(ObjRef::new(size, 0)));
    let page_at = out.len();
    let mut body = Vec::new();
    write_object(&mut body, &Object::Dict(new_page));
    writeln!(out, "{} 0 obj", page.id.num).unwrap();
    out.extend_from_slice(&body);
    out.extend_from_slice(b"\nendobj\n");
    let xref_at = out.len();
    write!(
        out,
        "xref\n{} 1\n{page_at:010} 00000 n\r\n{size} 1\n{content_at:010} 00000 n\r\n\
         trailer\n<</Size {} /Root {} 0 R /Prev {}>>\nstartxref\n{xref_at}\n%%EOF\n",
        page.id.num,
        size + 1,
        doc.root_ref().unwrap().num,
        doc.startxref
    )
    .unwrap();
    let sigs = signet_pdf::signatures(&out).unwrap();
    assert_eq!(sigs.len(), 1);
    assert!(sigs[0].covers_revision && !sigs[0].covers_whole_file);
    let changes = &sigs[0].later_changes;
    assert!(changes.disallowed.iter().any(|c| c.contains("Contents")), "{changes:?}");
}

#[test]
fn embed_checks_size_der_and_digest() {
    let prepared = signet_pdf::prepare(&simple_pdf(), &SignOptions { contents_size: 4096, ..opts() }).unwrap();
    assert_eq!(prepared.capacity(), 4096);
    let e = signet_pdf::embed(&prepared, b"not der").unwrap_err();
    assert!(matches!(e, Error::NotCms), "{e}");
    let mut big = vec![0x30, 0x82, 0x20, 0x00];
    big.resize(4 + 0x2000, 0);
    let e = signet_pdf::embed(&prepared, &big).unwrap_err();
    assert!(matches!(e, Error::SignatureTooLarge { .. }), "{e}");
    // A CMS over other data does not carry our digest.
    let other = openssl_cms(b"some other data", 1);
    let e = signet_pdf::embed(&prepared, &other).unwrap_err();
    assert!(matches!(e, Error::DigestMismatch), "{e}");
    // Phase 2 from stored bytes finds the same placeholder and digest.
    let reloaded = signet_pdf::Prepared::from_bytes(prepared.bytes.clone()).unwrap();
    assert_eq!((reloaded.byte_range, reloaded.digest), (prepared.byte_range, prepared.digest));
    // The right one fits and the result verifies structurally.
    let good = openssl_cms(&to_be_signed(&prepared), 1);
    let signed = signet_pdf::embed(&prepared, &good).unwrap();
    assert!(signet_pdf::Prepared::from_bytes(signed.clone()).is_err(), "no placeholder left");
    let sigs = signet_pdf::signatures(&signed).unwrap();
    assert_eq!(sigs[0].contents, good);
    assert_eq!(sigs[0].digest, prepared.digest);
    assert!(sigs[0].byte_range_ok && sigs[0].covers_whole_file);
    assert_eq!(sigs[0].sub_filter, "ETSI.CAdES.detached");
}

#[test]
fn file_api_streams_and_matches_the_memory_api() {
    let dir = tmp();
    let input = write(&dir, "in.pdf", &qpdf(&simple_pdf(), &["--object-streams=generate"]));
    let output = dir.join("out.pdf");
    let prepared = signet_pdf::prepare_file(&input, &output, &opts()).unwrap();
    let bytes = std::fs::read(&output).unwrap();
    assert_eq!(signet_pdf::hash_ranges(&bytes, &prepared.byte_range), prepared.digest);
    let br = prepared.byte_range;
    let mut tbs = bytes[..br[1] as usize].to_vec();
    tbs.extend_from_slice(&bytes[br[2] as usize..]);
    let cms = openssl_cms(&tbs, 1);
    signet_pdf::embed_file(&output, &prepared, Some(&prepared.digest), &cms).unwrap();
    assert_pdfsig_valid(&output, 1);
    // The generic source API gives the same update shape and a matching digest.
    let original = std::fs::read(&input).unwrap();
    let mut up = signet_pdf::prepare_source(original.as_slice(), &opts()).unwrap();
    let mut whole = original.clone();
    whole.extend_from_slice(&up.update);
    assert_eq!(signet_pdf::hash_ranges(&whole, &up.byte_range), up.digest);
    let br = up.byte_range;
    let mut tbs = whole[..br[1] as usize].to_vec();
    tbs.extend_from_slice(&whole[br[2] as usize..]);
    up.embed(&openssl_cms(&tbs, 2)).unwrap();
    let mut whole = original.clone();
    whole.extend_from_slice(&up.update);
    assert_pdfsig_valid(&write(&dir, "source.pdf", &whole), 1);
    let sigs = signet_pdf::signatures_in_file(&output).unwrap();
    assert_eq!(sigs.len(), 1);
    assert_eq!(sigs[0].digest, prepared.digest);
    assert_eq!(sigs[0].contents, cms);
    assert!(sigs[0].covers_whole_file && sigs[0].covers_revision);

    // B-LTA on the file in place: DSS update, then a document timestamp appended to it.
    signet_pdf::add_dss_file(
        &output,
        &signet_pdf::DssData { certs: vec![cert_der(&pki().ca())], ..Default::default() },
    )
    .unwrap();
    let ts_opts = SignOptions { kind: signet_pdf::SignatureKind::DocTimeStamp, ..SignOptions::default() };
    let stamp = signet_pdf::prepare_append(&output, &ts_opts).unwrap();
    let bytes = std::fs::read(&output).unwrap();
    assert_eq!(signet_pdf::hash_ranges(&bytes, &stamp.byte_range), stamp.digest);
    let br = stamp.byte_range;
    let mut tbs = bytes[..br[1] as usize].to_vec();
    tbs.extend_from_slice(&bytes[br[2] as usize..]);
    let token = openssl_timestamp_token(&tbs);
    assert!(token.len() <= stamp.capacity());
    signet_pdf::embed_file(&output, &stamp, Some(&stamp.digest), &token).unwrap();
    assert_pdfsig_valid(&output, 1);
    assert_pyhanko_valid(&output);
    let sigs = signet_pdf::signatures_in_file(&output).unwrap();
    assert_eq!(sigs.len(), 2);
    assert!(sigs[0].later_changes.disallowed.is_empty(), "{:?}", sigs[0].later_changes);
}

/// Benchmark (run with `--release --run-ignored only`): a ~100 MB PDF is prepared from a file
/// path; compare with `sha256sum` of the same file and report peak memory.
#[test]
#[ignore = "benchmark: needs a release build"]
fn bench_prepare_100mb_file() {
    let dir = tmp();
    let path = dir.join("big.pdf");
    let base = simple_pdf();
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        f.write_all(&base).unwrap();
        // An incremental update with one 100 MB stream (never read by the signer).
        let doc = Document::open(base.as_slice()).unwrap();
        let size = doc.trailer.int("Size").unwrap();
        let at = base.len();
        let len = 100 * 1024 * 1024;
        write!(f, "{size} 0 obj\n<</Length {len}>>\nstream\n").unwrap();
        let mut state = 1u64;
        let mut chunk = vec![0u8; 1 << 20];
        for _ in 0..100 {
            for b in chunk.iter_mut() {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *b = (state >> 56) as u8;
            }
            f.write_all(&chunk).unwrap();
        }
        let xref_at = at + format!("{size} 0 obj\n<</Length {len}>>\nstream\n").len() + len + 18;
        write!(
            f,
            "\nendstream\nendobj\nxref\n{size} 1\n{at:010} 00000 n\r\ntrailer\n<</Size {} /Root {} 0 R /Prev {}>>\nstartxref\n{xref_at}\n%%EOF\n",
            size + 1,
            doc.root_ref().unwrap().num,
            doc.startxref
        )
        .unwrap();
    }
    let t = std::time::Instant::now();
    let _ = std::process::Command::new("sha256sum").arg(&path).output().unwrap();
    let sha = t.elapsed();
    let t = std::time::Instant::now();
    let prepared = signet_pdf::prepare_file(&path, &dir.join("out.pdf"), &opts()).unwrap();
    let ours = t.elapsed();
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let hwm = status.lines().find(|l| l.starts_with("VmHWM")).unwrap_or("").to_string();
    eprintln!("sha256sum: {sha:?}; prepare_file: {ours:?}; ratio {:.2}; {hwm}", ours.as_secs_f64() / sha.as_secs_f64());
    assert_eq!(prepared.byte_range[0], 0);
}

/// A hand-built PDF exercising structure variants other producers rarely emit together:
/// inline /AcroForm with an indirect /Fields array holding a text field, a page with an
/// indirect /Annots array, MediaBox and Rotate inherited from the page tree, and a CropBox
/// whose origin is not 0,0.
fn handmade_pdf() -> Vec<u8> {
    let objects: Vec<String> = vec![
        // 1: catalog with inline AcroForm, Fields indirect (obj 6)
        "<</Type /Catalog /Pages 2 0 R /AcroForm <</Fields 6 0 R /DA (/Helv 0 Tf 0 g)>>>>".into(),
        // 2: pages node; MediaBox and Rotate inherited
        "<</Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 600 800] /Rotate 90>>".into(),
        // 3: page with indirect Annots (obj 7) and a CropBox offset
        "<</Type /Page /Parent 2 0 R /Contents 5 0 R /Annots 7 0 R /CropBox [50 50 550 750]>>".into(),
        // 4: page overriding Rotate
        "<</Type /Page /Parent 2 0 R /Contents 5 0 R /Rotate 0>>".into(),
        // 5: content
        "<</Length 42>>\nstream\nBT /F1 12 Tf 100 400 Td (hand made) Tj ET\nendstream".into(),
        // 6: fields array with one text field
        "[8 0 R]".into(),
        // 7: annots array of page 3
        "[8 0 R]".into(),
        // 8: a text field widget on page 3
        "<</FT /Tx /T (Comment) /Type /Annot /Subtype /Widget /Rect [100 100 200 120] /P 3 0 R /V (hi)>>".into(),
    ];
    let mut out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<</Size {} /Root 1 0 R>>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes(),
    );
    out
}

#[test]
fn inline_acroform_indirect_arrays_and_inherited_page_attributes() {
    let dir = tmp();
    let input = handmade_pdf();
    let doc = Document::open(input.as_slice()).unwrap();
    let pages = doc.pages().unwrap();
    assert_eq!(pages[0].rotate, 90);
    assert_eq!(pages[0].media_box, [0.0, 0.0, 600.0, 800.0]);
    assert_eq!(pages[0].crop_box, [50.0, 50.0, 550.0, 750.0]);
    assert_eq!(pages[1].rotate, 0);
    let mut app = signet_pdf::Appearance::new(signet_pdf::WidgetPlacement::Pages {
        pages: signet_pdf::PageSelection::All,
        rect: signet_pdf::BoxSpec::Custom { left: 20.0, top: 30.0, width: 160.0, height: 60.0 },
    });
    app.typed_name = Some("Dev Anand देव".into());
    let signed = sign(&input, &SignOptions { appearance: Some(app), ..opts() }, 1);
    let path = write(&dir, "handmade.pdf", &signed);
    assert_pdfsig_valid(&path, 2);
    assert_pyhanko_valid(&path);
    assert_qpdf_clean(&path);
    // The existing text field is kept next to the new signature field.
    let doc = Document::open(signed.as_slice()).unwrap();
    let (_, catalog) = doc.catalog().unwrap();
    let form = doc.resolve_dict(catalog.get("AcroForm").unwrap()).unwrap().unwrap();
    let fields = doc.resolve_array(form.get("Fields").unwrap()).unwrap().unwrap();
    assert_eq!(fields.len(), 2);
    assert_eq!(form.int("SigFlags"), Some(3));
    // Page 1 shows the crop box (500x700) rotated: 700 wide, 500 high.
    let img = render(&path, 1);
    assert!((img.width() as f64 - 700.0 * 50.0 / 72.0).abs() < 2.0);
    assert!(ink_in_box(&img, 20.0, 30.0, 160.0, 60.0) > 0.02);
    assert!(ink_in_box(&render(&path, 2), 20.0, 30.0, 160.0, 60.0) > 0.02);
}

/// Benchmark (run with `--release --run-ignored only`): prepare time of a visible signature on a
/// one-page PDF, the per-document cost in the 500-PDF batch benchmark (the RSA operation and CMS
/// are not included here).
#[test]
#[ignore = "benchmark: needs a release build"]
fn bench_prepare_small_visible() {
    let input = simple_pdf();
    let mut app = signet_pdf::Appearance::new(signet_pdf::WidgetPlacement::Pages {
        pages: signet_pdf::PageSelection::First,
        rect: signet_pdf::BoxSpec::Named(signet_pdf::Position::BottomRight),
    });
    app.typed_name = Some("Alice Example".into());
    let opts = SignOptions { appearance: Some(app), reason: Some("Approval".into()), ..opts() };
    let invisible = opts_plain();
    for (label, o) in [("visible", &opts), ("invisible", &invisible)] {
        let n = 200;
        let t = std::time::Instant::now();
        for _ in 0..n {
            let p = signet_pdf::prepare(&input, o).unwrap();
            assert!(p.bytes.len() > input.len());
        }
        eprintln!("{label}: {:?} per prepare", t.elapsed() / n);
    }
}

fn opts_plain() -> SignOptions {
    opts()
}

/// A longer mutation campaign (run with `--release --run-ignored only`; SIGNET_FUZZ_ITERS sets
/// the count): byte flips, truncations and splices over several producers' files.
#[test]
#[ignore = "long: mutation campaign"]
fn mutation_campaign() {
    let iters: usize = std::env::var("SIGNET_FUZZ_ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let simple = simple_pdf();
    let signed = sign(&simple, &opts(), 1);
    let bases = [
        simple.clone(),
        qpdf(&simple, &["--object-streams=generate"]),
        qpdf(&simple, &["--linearize"]),
        make_hybrid(&simple),
        handmade_pdf(),
        signed,
    ];
    let mut state: u64 = 0x2545f4914f6cdd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in 0..iters {
        let base = &bases[i % bases.len()];
        let mut m = base.clone();
        match next() % 4 {
            0 => {
                for _ in 0..(next() % 16 + 1) {
                    let at = (next() % m.len() as u64) as usize;
                    m[at] = next() as u8;
                }
            }
            1 => m.truncate((next() % m.len() as u64) as usize),
            2 => {
                // Overwrite a run with digits/delimiters, the bytes a PDF parser branches on.
                let at = (next() % m.len() as u64) as usize;
                let alphabet = b"0123456789 <>[]()/R\\nobjendstreamxref";
                for k in 0..(next() % 32) as usize {
                    if at + k < m.len() {
                        m[at + k] = alphabet[(next() % alphabet.len() as u64) as usize];
                    }
                }
            }
            _ => {
                let at = (next() % m.len() as u64) as usize;
                let from = (next() % m.len() as u64) as usize;
                let len = ((next() % 64) as usize).min(m.len() - from);
                let chunk = m[from..from + len].to_vec();
                m.splice(at..at, chunk);
            }
        }
        let _ = signet_pdf::prepare(&m, &opts());
        let _ = signet_pdf::signatures(&m);
    }
}
