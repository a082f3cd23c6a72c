//! Signing documents made by other producers, checked by validators we did not write.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::Command;

use common::*;
use signet_pdf::{
    Appearance, BoxSpec, DssData, Error, NameStyle, PageSelection, Position, SignOptions, SignatureKind,
    WidgetPlacement,
};

fn named(opts_name: &str) -> SignOptions {
    SignOptions {
        name: Some(opts_name.into()),
        reason: Some("Approval".into()),
        location: Some("Pune".into()),
        ..SignOptions::default()
    }
}

#[test]
fn invisible_signature_on_reportlab_pdf_is_valid() {
    let dir = tmp();
    let signed = sign(&simple_pdf(), &named("Alice"), 1);
    let path = write(&dir, "signed.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path);
    assert_qpdf_clean(&path);
}

#[test]
fn co_signing_keeps_the_first_signature_valid() {
    let dir = tmp();
    let once = sign(&simple_pdf(), &named("Alice"), 1);
    let twice = sign(&once, &named("Bob"), 2);
    assert!(twice.starts_with(&once), "earlier bytes must not change");
    let path = write(&dir, "cosigned.pdf", &twice);
    assert_pdfsig_valid(&path, 2);
    assert_pyhanko_valid(&path);
    let sigs = signet_pdf::signatures(&twice).unwrap();
    assert_eq!(sigs.len(), 2);
    assert!(sigs[0].covers_revision && !sigs[0].covers_whole_file);
    assert!(sigs[1].covers_whole_file);
    assert!(sigs[0].later_changes.disallowed.is_empty(), "{:?}", sigs[0].later_changes);
    assert_eq!(sigs[0].later_changes.later_revisions, 1);
}

#[test]
fn object_stream_input_gets_an_xref_stream_update() {
    let dir = tmp();
    let input = qpdf(&simple_pdf(), &["--object-streams=generate"]);
    let once = sign(&input, &named("Alice"), 1);
    let tail = String::from_utf8_lossy(&once[input.len()..]).into_owned();
    assert!(tail.contains("/Type /XRef"), "expected an xref stream after an xref stream");
    let twice = sign(&once, &named("Bob"), 2);
    let path = write(&dir, "objstm.pdf", &twice);
    assert_pdfsig_valid(&path, 2);
    assert_pyhanko_valid(&path);
    assert_qpdf_clean(&path);
}

#[test]
fn classic_table_input_gets_a_table_update() {
    let input = simple_pdf();
    let once = sign(&input, &named("Alice"), 1);
    let tail = String::from_utf8_lossy(&once[input.len()..]).into_owned();
    assert!(tail.contains("\nxref\n") && tail.contains("/Prev"), "expected a classic table");
}

#[test]
fn linearized_input_is_signed() {
    let dir = tmp();
    let input = qpdf(&reportlab_pdf(&[(595.0, 842.0, 0), (595.0, 842.0, 0), (612.0, 792.0, 0)]), &["--linearize"]);
    let signed = sign(&input, &named("Alice"), 1);
    let path = write(&dir, "linear.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path);
    assert_qpdf_clean(&path);
    // Linearized with object streams (xref streams in both sections).
    let input = qpdf(&simple_pdf(), &["--linearize", "--object-streams=generate"]);
    let signed = sign(&sign(&input, &named("Alice"), 1), &named("Bob"), 2);
    let path = write(&dir, "linear-objstm.pdf", &signed);
    assert_pdfsig_valid(&path, 2);
    assert_pyhanko_valid(&path);
    assert_qpdf_clean(&path);
}

#[test]
fn ghostscript_and_pypdf_inputs_are_signed() {
    let dir = tmp();
    write(&dir, "src.pdf", &reportlab_pdf(&[(595.0, 842.0, 0), (842.0, 595.0, 0)]));
    run(Command::new("gs").current_dir(&dir).args([
        "-q",
        "-dNOPAUSE",
        "-dBATCH",
        "-sDEVICE=pdfwrite",
        "-sOutputFile=gs.pdf",
        "src.pdf",
    ]));
    run(Command::new("python3").current_dir(&dir).args([
        "-c",
        "from pypdf import PdfReader, PdfWriter\nw = PdfWriter(clone_from=PdfReader('src.pdf'))\nw.write('pypdf.pdf')",
    ]));
    for name in ["gs.pdf", "pypdf.pdf"] {
        let input = std::fs::read(dir.join(name)).unwrap();
        let signed = sign(&input, &visible_opts("Alice", PageSelection::Last), 1);
        let path = write(&dir, &format!("signed-{name}"), &signed);
        assert_pdfsig_valid(&path, 1);
        assert_pyhanko_valid(&path);
    }
}

#[test]
fn co_signs_a_pdf_signed_by_pyhanko() {
    let dir = tmp();
    let pki = pki();
    write(&dir, "in.pdf", &simple_pdf());
    pyhanko_addsig(pki, &dir, 3, "1/50,50,250,110/PyHankoSig", "in.pdf", "pyhanko.pdf");
    let input = std::fs::read(dir.join("pyhanko.pdf")).unwrap();
    let signed = sign(&input, &visible_opts("Bob", PageSelection::First), 1);
    let path = write(&dir, "cosigned.pdf", &signed);
    assert_pdfsig_valid(&path, 2);
    assert_pyhanko_valid(&path);
    let sigs = signet_pdf::signatures(&signed).unwrap();
    assert_eq!(sigs.len(), 2);
    assert_eq!(sigs[0].field_name, "PyHankoSig");
    assert!(sigs[0].later_changes.disallowed.is_empty(), "{:?}", sigs[0].later_changes);
}

fn visible_opts(name: &str, pages: PageSelection) -> SignOptions {
    let mut app = Appearance::new(WidgetPlacement::Pages { pages, rect: BoxSpec::Named(Position::BottomRight) });
    app.typed_name = Some(name.into());
    SignOptions { appearance: Some(app), ..named(name) }
}

#[test]
fn visible_signature_on_all_rotated_pages_renders_upright_boxes() {
    let dir = tmp();
    let input = reportlab_pdf(&[(595.0, 842.0, 0), (595.0, 842.0, 90), (612.0, 792.0, 180), (612.0, 792.0, 270)]);
    let mut app = Appearance::new(WidgetPlacement::Pages {
        pages: PageSelection::All,
        rect: BoxSpec::Custom { left: 40.0, top: 40.0, width: 200.0, height: 90.0 },
    });
    app.image = Some(signature_png());
    app.typed_name = Some("रवि कुमार".into());
    app.name_style = NameStyle::Handwriting;
    let opts = SignOptions { appearance: Some(app), name: Some("Ravi Kumar रवि".into()), ..named("x") };
    let signed = sign(&input, &opts, 1);
    let path = write(&dir, "visible.pdf", &signed);
    // pdfsig lists one entry per widget of the field.
    assert_pdfsig_valid(&path, 4);
    assert_pyhanko_valid(&path);
    assert_qpdf_clean(&path);
    for page in 1..=4 {
        let img = render(&path, page);
        let ink = ink_in_box(&img, 40.0, 40.0, 200.0, 90.0);
        assert!(ink > 0.02, "page {page}: box region is blank ({ink})");
        // The page's opposite corner stays white (the box did not land elsewhere).
        let (w, h) = (img.width() as f64 * 72.0 / 50.0, img.height() as f64 * 72.0 / 50.0);
        let other = ink_in_box(&img, w - 240.0, h - 130.0, 200.0, 90.0);
        assert!(other < 0.01, "page {page}: unexpected ink at the opposite corner ({other})");
    }
    // One field with four widget kids.
    let sigs = signet_pdf::signatures(&signed).unwrap();
    assert_eq!(sigs.len(), 1);
    // The Devanagari text is extractable through ToUnicode.
    let (_, text) = run_any(Command::new("pdftotext").arg(&path).arg("-"));
    assert!(text.contains("रवि"), "pdftotext: {text}");
}

#[test]
fn named_positions_page_lists_and_page_boxes() {
    let dir = tmp();
    let input = reportlab_pdf(&[(595.0, 842.0, 0), (595.0, 842.0, 0), (595.0, 842.0, 0)]);
    let mut app = Appearance::new(WidgetPlacement::PageBoxes(
        signet_pdf::parse_page_boxes("1,30,30,150,60;3,300,600,150,60").unwrap(),
    ));
    app.typed_name = Some("Alice Example".into());
    app.name_style = NameStyle::Plain;
    let signed = sign(&input, &SignOptions { appearance: Some(app), ..named("Alice") }, 1);
    let path = write(&dir, "boxes.pdf", &signed);
    assert_pdfsig_valid(&path, 2); // two widgets of one field
    assert!(ink_in_box(&render(&path, 1), 30.0, 30.0, 150.0, 60.0) > 0.02);
    assert!(ink_in_box(&render(&path, 2), 30.0, 30.0, 150.0, 60.0) < 0.001);
    assert!(ink_in_box(&render(&path, 3), 300.0, 600.0, 150.0, 60.0) > 0.02);

    // Named position Top-Left on even pages, JPEG image, details only.
    let jpeg = {
        let img = image::RgbImage::from_fn(120, 60, |x, _| image::Rgb([(x * 2) as u8, 40, 90]));
        let mut c = std::io::Cursor::new(Vec::new());
        img.write_to(&mut c, image::ImageFormat::Jpeg).unwrap();
        c.into_inner()
    };
    let mut app =
        Appearance::new(WidgetPlacement::Pages { pages: PageSelection::Even, rect: BoxSpec::Named(Position::TopLeft) });
    app.image = Some(jpeg);
    let signed2 = sign(&signed, &SignOptions { appearance: Some(app), ..named("Bob") }, 2);
    let path2 = write(&dir, "boxes2.pdf", &signed2);
    assert_pdfsig_valid(&path2, 3);
    assert_pyhanko_valid(&path2);
    // Top-Left on A4 = 25,725..145,785 (llx,lly,urx,ury) => left 25, top 842-785 = 57.
    assert!(ink_in_box(&render(&path2, 2), 25.0, 57.0, 120.0, 60.0) > 0.02);
    assert!(ink_in_box(&render(&path2, 3), 25.0, 57.0, 120.0, 60.0) < 0.001);
}

/// Issue 32: an honest co-signature by another product was reported as a change to the first
/// signature's document, because pyHanko (like Acrobat) rewrites `/Info /ModDate` when it saves
/// a second or more after the last save. Now the metadata change is reported and allowed.
#[test]
fn a_co_signature_by_pyhanko_that_rewrites_the_metadata_keeps_the_first_signature_intact() {
    let dir = tmp();
    let pki = pki();
    let signed = sign(&simple_pdf(), &named("Alice"), 1);
    write(&dir, "signed.pdf", &signed);
    // pyHanko dates its save to the second: a second later, /ModDate differs.
    std::thread::sleep(std::time::Duration::from_millis(1_200));
    pyhanko_addsig(pki, &dir, 2, "1/300,50,500,110/Approval", "signed.pdf", "cosigned.pdf");
    let path = dir.join("cosigned.pdf");
    assert_pyhanko_valid(&path);
    let cosigned = std::fs::read(&path).unwrap();
    let sigs = signet_pdf::signatures(&cosigned).unwrap();
    assert_eq!(sigs.len(), 2);
    let changes = &sigs[0].later_changes;
    assert!(changes.disallowed.is_empty(), "{changes:?}");
    assert!(changes.allowed.iter().any(|c| c.contains("document information")), "pyHanko rewrote /Info: {changes:?}");
}

#[test]
fn certification_allows_later_approval_and_p1_refuses() {
    let dir = tmp();
    let certified = sign(&simple_pdf(), &SignOptions { kind: SignatureKind::Certification, ..named("Alice") }, 1);
    let cosigned = sign(&certified, &named("Bob"), 2);
    let path = write(&dir, "certified.pdf", &cosigned);
    assert_pdfsig_valid(&path, 2);
    assert_pyhanko_valid(&path);
    let sigs = signet_pdf::signatures(&cosigned).unwrap();
    assert_eq!(sigs[0].docmdp_p, Some(2));
    // A second certification is refused.
    let again =
        signet_pdf::prepare(&certified, &SignOptions { kind: SignatureKind::Certification, ..SignOptions::default() });
    assert!(matches!(again, Err(Error::CertifyNotFirst)), "{again:?}");

    // Same-length edit P 2 -> P 1 (structure only) and expect a refusal.
    let mut p1 = certified.clone();
    let at = p1.windows(4).rposition(|w| w == b"/P 2").unwrap();
    p1[at + 3] = b'1';
    let err = signet_pdf::prepare(&p1, &named("Bob")).unwrap_err();
    assert!(matches!(err, Error::CertifiedNoChanges), "{err}");
    assert!(err.to_string().contains("P=1"));
}

#[test]
fn document_timestamp_and_dss_updates() {
    let dir = tmp();
    let pki = pki();
    let signed = sign(&simple_pdf(), &named("Alice"), 1);
    let der = |p: std::path::PathBuf| cert_der(&p);
    let with_dss = signet_pdf::add_dss(
        &signed,
        &DssData {
            certs: vec![der(pki.ca()), der(pki.cert(1)), der(pki.dir.join("tsa.pem"))],
            vri_keys: vec![signet_pdf::signatures(&signed).unwrap()[0].vri_key.clone()],
            ..DssData::default()
        },
    )
    .unwrap();
    assert!(with_dss.starts_with(&signed));
    let key = signet_pdf::signatures(&signed).unwrap()[0].vri_key.clone();
    assert_eq!(key.len(), 40);
    assert!(with_dss.windows(40).any(|w| w == key.as_bytes()), "VRI entry for the signature");
    let opts = SignOptions { kind: SignatureKind::DocTimeStamp, ..SignOptions::default() };
    let prepared = signet_pdf::prepare(&with_dss, &opts).unwrap();
    let token = openssl_timestamp_token(&to_be_signed(&prepared));
    let stamped = signet_pdf::embed(&prepared, &token).unwrap();
    let path = write(&dir, "lta.pdf", &stamped);
    assert_pdfsig_valid(&path, 1); // pdfsig cannot check DocTimeStamp signatures
    assert_pyhanko_valid(&path);
    assert_qpdf_clean(&path);
    let sigs = signet_pdf::signatures(&stamped).unwrap();
    assert_eq!(sigs.len(), 2);
    assert_eq!(sigs[1].sig_type, "DocTimeStamp");
    assert_eq!(sigs[1].sub_filter, "ETSI.RFC3161");
    assert!(sigs[0].later_changes.disallowed.is_empty(), "{:?}", sigs[0].later_changes);
    assert_eq!(sigs[0].later_changes.later_revisions, 2);
}

#[test]
fn signs_an_existing_empty_field_made_by_pyhanko() {
    let dir = tmp();
    write(&dir, "in.pdf", &reportlab_pdf(&[(595.0, 842.0, 0), (612.0, 792.0, 90)]));
    run(Command::new("pyhanko").current_dir(&dir).args([
        "sign",
        "addfields",
        "--field",
        "2/100,100,300,160/EmptySig",
        "in.pdf",
        "fields.pdf",
    ]));
    let input = std::fs::read(dir.join("fields.pdf")).unwrap();
    let mut app = Appearance::new(WidgetPlacement::Pages {
        pages: PageSelection::First, // ignored: the field's own widget is used
        rect: BoxSpec::Named(Position::TopLeft),
    });
    app.typed_name = Some("Carol".into());
    let opts = SignOptions { field_name: Some("EmptySig".into()), appearance: Some(app), ..named("Carol") };
    let signed = sign(&input, &opts, 1);
    let path = write(&dir, "filled.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path);
    let sigs = signet_pdf::signatures(&signed).unwrap();
    assert_eq!(sigs.len(), 1);
    assert_eq!(sigs[0].field_name, "EmptySig");
    // Page 2 is 612x792 rotated 90: user rect x 100..300, y 100..160 shows at
    // left = y = 100..160, top = x = 100..300 on the displayed page.
    let img = render(&path, 2);
    assert!(ink_in_box(&img, 100.0, 100.0, 60.0, 200.0) > 0.02);
    // Signing the same field again is refused.
    let e = signet_pdf::prepare(&signed, &opts).unwrap_err();
    assert!(e.to_string().contains("already signed"), "{e}");
}

/// pyHanko certifies (P=1 and P=2): we refuse the first and co-sign the second.
#[test]
fn documents_certified_by_pyhanko() {
    let dir = tmp();
    let pki = pki();
    write(&dir, "in.pdf", &simple_pdf());
    let script = format!(
        r#"
from pyhanko.sign import signers, fields
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
signer = signers.SimpleSigner.load("{key}", "{cert}", ca_chain_files=("{ca}",))
for name, perm in (("p1.pdf", fields.MDPPerm.NO_CHANGES), ("p2.pdf", fields.MDPPerm.FILL_FORMS)):
    with open("in.pdf", "rb") as f:
        w = IncrementalPdfFileWriter(f)
        # An empty field prepared for the next signer, as certifying workflows do.
        fields.append_signature_field(w, fields.SigFieldSpec("Approver", box=(100, 100, 300, 160)))
        meta = signers.PdfSignatureMetadata(field_name="Certification", certify=True, docmdp_permissions=perm)
        with open(name, "wb") as out:
            signers.sign_pdf(w, meta, signer=signer, output=out)
"#,
        key = pki.key(3).display(),
        cert = pki.cert(3).display(),
        ca = pki.ca().display()
    );
    run(Command::new("python3").current_dir(&dir).args(["-c", &script]));
    let p1 = std::fs::read(dir.join("p1.pdf")).unwrap();
    let e = signet_pdf::prepare(&p1, &named("Bob")).unwrap_err();
    assert!(matches!(e, Error::CertifiedNoChanges), "{e}");
    let p2 = std::fs::read(dir.join("p2.pdf")).unwrap();
    assert_eq!(signet_pdf::signatures(&p2).unwrap()[0].docmdp_p, Some(2));
    // pyHanko itself lets a later signer add a new visible field; our analysis flags it.
    run(Command::new("pyhanko").current_dir(&dir).args([
        "sign",
        "addsig",
        "--field",
        "1/300,300,450,350/Late",
        "pemder",
        "--key",
        pki.key(4).to_str().unwrap(),
        "--cert",
        pki.cert(4).to_str().unwrap(),
        "--no-pass",
        "p2.pdf",
        "late.pdf",
    ]));
    let late = std::fs::read(dir.join("late.pdf")).unwrap();
    let sigs = signet_pdf::signatures(&late).unwrap();
    assert!(
        sigs[0].later_changes.disallowed.iter().any(|c| c.contains("new visible field")),
        "{:?}",
        sigs[0].later_changes
    );
    // A new visible field would break the certification for validators: refused.
    let e = signet_pdf::prepare(&p2, &visible_opts("Bob", PageSelection::First)).unwrap_err();
    assert!(matches!(e, Error::CertifiedNoNewVisibleField), "{e}");
    // Invisible co-signature: allowed.
    let signed = sign(&p2, &named("Bob"), 1);
    let path = write(&dir, "p2-cosigned.pdf", &signed);
    assert_pdfsig_valid(&path, 2);
    assert_pyhanko_valid(&path);
    // Visible signature in the prepared empty field: allowed.
    let opts = SignOptions { field_name: Some("Approver".into()), ..visible_opts("Carol", PageSelection::First) };
    let signed = sign(&signed, &opts, 2);
    let path = write(&dir, "p2-approver.pdf", &signed);
    assert_pdfsig_valid(&path, 3);
    assert_pyhanko_valid(&path);
    assert!(ink_in_box(&render(&path, 1), 100.0, 842.0 - 160.0, 200.0, 60.0) > 0.02);
}

/// Our own certification workflow: empty fields first, certify, then later signers sign those
/// fields visibly; every validator accepts every signature.
#[test]
fn certify_with_prepared_fields_then_visible_signers() {
    let dir = tmp();
    let fields = [
        signet_pdf::EmptyField { name: "Approver".into(), page: 1, rect: BoxSpec::Named(Position::BottomLeft) },
        signet_pdf::EmptyField { name: "Witness".into(), page: 1, rect: BoxSpec::Named(Position::BottomCenter) },
    ];
    let with_fields = signet_pdf::add_signature_fields(&simple_pdf(), &fields).unwrap();
    let certified = sign(
        &with_fields,
        &SignOptions { kind: SignatureKind::Certification, ..visible_opts("Alice", PageSelection::First) },
        1,
    );
    assert!(matches!(
        signet_pdf::add_signature_fields(&certified, &fields[..1]),
        Err(Error::CertifiedNoNewVisibleField)
    ));
    let mut doc = certified;
    for (i, (field, who)) in [("Approver", "Bob"), ("Witness", "Carol")].into_iter().enumerate() {
        let opts = SignOptions { field_name: Some(field.into()), ..visible_opts(who, PageSelection::First) };
        doc = sign(&doc, &opts, i + 2);
    }
    let path = write(&dir, "workflow.pdf", &doc);
    assert_pdfsig_valid(&path, 3);
    assert_pyhanko_valid(&path);
    assert_qpdf_clean(&path);
    let img = render(&path, 1);
    // Bottom-Left and Bottom-Center boxes (A4: top = 842 - 160 = 682).
    assert!(ink_in_box(&img, 25.0, 682.0, 120.0, 60.0) > 0.02);
    assert!(ink_in_box(&img, 225.0, 682.0, 120.0, 60.0) > 0.02);
    let sigs = signet_pdf::signatures(&doc).unwrap();
    assert_eq!(sigs.iter().map(|s| s.field_name.as_str()).collect::<Vec<_>>(), ["Signature1", "Approver", "Witness"]);
    assert_eq!(sigs[0].docmdp_p, Some(2));
    assert!(sigs[0].later_changes.disallowed.is_empty(), "{:?}", sigs[0].later_changes);
}

/// `pyhanko sign addsig` in `dir`: signer `signer` of `pki` signs `input` into `output` in a
/// new visible field (`page/x1,y1,x2,y2/name`).
fn pyhanko_addsig(pki: &Pki, dir: &std::path::Path, signer: usize, field: &str, input: &str, output: &str) {
    run(Command::new("pyhanko").current_dir(dir).args([
        "sign",
        "addsig",
        "--field",
        field,
        "pemder",
        "--key",
        pki.key(signer).to_str().unwrap(),
        "--cert",
        pki.cert(signer).to_str().unwrap(),
        "--chain",
        pki.ca().to_str().unwrap(),
        "--no-pass",
        input,
        output,
    ]));
}
