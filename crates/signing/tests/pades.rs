//! PAdES levels, appearances, deferred signing and verification, checked by pdfsig and pyHanko.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use signet_signing::{
    BoxSpec, PadesLevel, PageSelection, PdfSignOptions, Position, RawSigner, SignatureOrCms, Visible,
};

fn opts(pki: &Pki, level: PadesLevel) -> PdfSignOptions {
    PdfSignOptions { level, tsa_url: Some(pki.tsa_url.clone()), http: pki.http(), ..Default::default() }
}

#[test]
fn b_b_visible_on_all_pages_is_valid_and_drawn() {
    let pki = pki(1);
    let input = reportlab_pdf(3);
    let mut o = opts(&pki, PadesLevel::BB);
    o.reason = Some("Approval".into());
    o.location = Some("Pune".into());
    o.visible = Some(Visible {
        pages: PageSelection::All,
        rect: BoxSpec::Named(Position::TopLeft),
        typed_name: Some("Asha Verma".into()),
        ..Default::default()
    });
    let signed = signet_signing::sign_pdf(&input, &pki.signer(0), &o).unwrap();
    let path = write(pki.dir.path(), "bb.pdf", &signed);
    // poppler lists every widget of the one signature field as a signature: 3 pages, 3 entries.
    assert_pdfsig_valid(&path, 3);
    assert_pyhanko_valid(&path, &pki.ca_pem());
    // Top-Left on A4 = (25,725)-(145,785) in PDF space = left 25, top 57 from the top.
    for page in 1..=3 {
        assert!(ink_in_box(&path, page, 25.0, 57.0, 120.0, 60.0) > 0.02, "no ink in the box on page {page}");
    }
    assert!(ink_in_box(&path, 1, 300.0, 600.0, 100.0, 100.0) < 0.001, "ink outside the box");
    let report = signet_signing::verify_file(&signed, &pki.trust()).unwrap();
    assert!(report.valid, "{report:#?}");
    assert_eq!(report.signatures[0].pades_level.as_deref(), Some("B-B"));
}

#[test]
fn b_t_has_a_trusted_signature_timestamp() {
    let pki = pki(1);
    let signed = signet_signing::sign_pdf(&reportlab_pdf(1), &pki.signer(0), &opts(&pki, PadesLevel::BT)).unwrap();
    let path = write(pki.dir.path(), "bt.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path, &pki.ca_pem());
    let report = signet_signing::verify_file(&signed, &pki.trust()).unwrap();
    assert!(report.valid, "{report:#?}");
    let sig = &report.signatures[0];
    assert_eq!(sig.pades_level.as_deref(), Some("B-T"));
    assert!(sig.timestamp.as_ref().is_some_and(|t| t.intact && t.trusted));
}

#[test]
fn b_lt_and_b_lta_pass_pyhanko_adesverify_from_the_dss_alone() {
    let mut pki = pki(2);
    let input = reportlab_pdf(1);
    let bb = signet_signing::sign_pdf(&input, &pki.signer(0), &opts(&pki, PadesLevel::BB)).unwrap();
    let lt = signet_signing::sign_pdf(&input, &pki.signer(0), &opts(&pki, PadesLevel::BLT)).unwrap();
    // B-LTA, co-signed on top of the B-LT document by a second signer.
    let lta = signet_signing::sign_pdf(&lt, &pki.signer(1), &opts(&pki, PadesLevel::BLTA)).unwrap();
    // From here on, the OCSP responder, CRL server and TSA are gone.
    pki.stop_servers();
    let d = pki.dir.path().to_path_buf();

    let bb_path = write(&d, "bb.pdf", &bb);
    let (bb_ok, out) = pyhanko_ades(&bb_path, &pki.ca_pem());
    assert!(!bb_ok, "control: B-B without revocation data must not pass adesverify offline:\n{out}");

    let lt_path = write(&d, "blt.pdf", &lt);
    assert_pdfsig_valid(&lt_path, 1);
    assert_pyhanko_valid(&lt_path, &pki.ca_pem());
    assert_pyhanko_ades_valid(&lt_path, &pki.ca_pem());
    let report = signet_signing::verify_file(&lt, &pki.trust()).unwrap();
    assert!(report.valid, "{report:#?}");
    assert_eq!(report.signatures[0].pades_level.as_deref(), Some("B-LT"));
    assert!(report.signatures[0].revocation_data);

    let lta_path = write(&d, "blta.pdf", &lta);
    // pdfsig 22 cannot check document time-stamps ("Unimplemented"): both CMS signatures valid.
    assert_pdfsig_valid(&lta_path, 2);
    assert_pyhanko_valid(&lta_path, &pki.ca_pem());
    assert_pyhanko_ades_valid(&lta_path, &pki.ca_pem());
    let report = signet_signing::verify_file(&lta, &pki.trust()).unwrap();
    assert!(report.valid, "{report:#?}");
    let kinds: Vec<&str> = report.signatures.iter().map(|s| s.kind.as_str()).collect();
    assert_eq!(kinds, ["approval", "approval", "document-timestamp"]);
    assert_eq!(report.signatures[1].pades_level.as_deref(), Some("B-LTA"));
    assert!(report.signatures[0].later_revisions >= 3 && report.signatures[0].modifications_allowed);
}

#[test]
fn certification_then_approval_is_valid() {
    let pki = pki(2);
    let mut o = opts(&pki, PadesLevel::BB);
    o.certify = true;
    let certified = signet_signing::sign_pdf(&reportlab_pdf(1), &pki.signer(0), &o).unwrap();
    let approved = signet_signing::sign_pdf(&certified, &pki.signer(1), &opts(&pki, PadesLevel::BB)).unwrap();
    let path = write(pki.dir.path(), "certified.pdf", &approved);
    assert_pdfsig_valid(&path, 2);
    assert_pyhanko_valid(&path, &pki.ca_pem());
    let report = signet_signing::verify_file(&approved, &pki.trust()).unwrap();
    assert!(report.valid, "{report:#?}");
    assert_eq!(report.signatures[0].kind, "certification");
    // A second certification is refused.
    assert!(signet_signing::sign_pdf(&approved, &pki.signer(1), &o).is_err());
}

#[test]
fn deferred_signing_with_a_raw_signature_and_with_a_provider_cms() {
    let pki = pki(1);
    let signer = pki.signer(0);
    let input = reportlab_pdf(1);
    let o = opts(&pki, PadesLevel::BB);
    let chain = signer.chain_der().to_vec();

    // A token signs the signed attributes.
    let prepared = signet_signing::prepare_pdf(&input, signer.certificate_der(), &chain, &o).unwrap();
    let raw = signer.sign(&prepared.signed_attrs_der).unwrap();
    let signed = signet_signing::complete_pdf(&prepared, SignatureOrCms::Signature(raw.clone())).unwrap();
    let path = write(pki.dir.path(), "deferred.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path, &pki.ca_pem());
    // A corrupted signature is refused.
    let mut bad = raw;
    bad[10] ^= 1;
    assert!(signet_signing::complete_pdf(&prepared, SignatureOrCms::Signature(bad)).is_err());

    // A remote provider returns a whole CMS over the digest (made here by openssl).
    let prepared = signet_signing::prepare_pdf(&input, signer.certificate_der(), &chain, &o).unwrap();
    let br = prepared.byte_range;
    let mut tbs = prepared.bytes[..br[1] as usize].to_vec();
    tbs.extend_from_slice(&prepared.bytes[br[2] as usize..]);
    let cms = openssl_sign(&pki, &tbs);
    let wrong = openssl_sign(&pki, b"another document");
    assert!(signet_signing::complete_pdf(&prepared, SignatureOrCms::Cms(wrong)).is_err());
    let signed = signet_signing::complete_pdf(&prepared, SignatureOrCms::Cms(cms)).unwrap();
    let path = write(pki.dir.path(), "provider.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path, &pki.ca_pem());
}

fn openssl_sign(pki: &Pki, data: &[u8]) -> Vec<u8> {
    let d = pki.dir.path();
    write(d, "tbs.bin", data);
    let (ok, out) = run_any(std::process::Command::new("openssl").current_dir(d).args([
        "cms",
        "-sign",
        "-binary",
        "-outform",
        "DER",
        "-md",
        "sha256",
        "-nosmimecap",
        "-signer",
        "signer0.pem",
        "-inkey",
        "signer0.key",
        "-certfile",
        "ca.pem",
        "-in",
        "tbs.bin",
        "-out",
        "provider.der",
    ]));
    assert!(ok, "{out}");
    std::fs::read(d.join("provider.der")).unwrap()
}

#[test]
fn streaming_file_signing_of_a_large_pdf() {
    let pki = pki(1);
    // 9 MB of noise crosses the streaming threshold (8 MB).
    let dir = pki.dir.path();
    let mut pdf = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    let blob: Vec<u8> = (0..9u32 << 20).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    let objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>".to_vec(),
        [format!("<< /Length {} >>\nstream\n", blob.len()).into_bytes(), blob, b"\nendstream".to_vec()].concat(),
    ];
    for (i, body) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        pdf.extend_from_slice(body);
        pdf.extend_from_slice(b"\nendobj\n");
    }
    let xref = pdf.len();
    pdf.extend_from_slice(b"xref\n0 5\n0000000000 65535 f \n");
    for o in offsets {
        pdf.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(format!("trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n").as_bytes());
    let input = write(dir, "big.pdf", &pdf);
    let output = dir.join("big-signed.pdf");
    let mut o = opts(&pki, PadesLevel::BT);
    o.visible = Some(Visible::default());
    signet_signing::sign_pdf_file(&input, &output, &pki.signer(0), &o).unwrap();
    assert_pdfsig_valid(&output, 1);
    let report = signet_signing::verify_file(&std::fs::read(&output).unwrap(), &pki.trust()).unwrap();
    assert!(report.valid, "{report:#?}");
}

#[test]
fn tampered_and_untrusted_documents_are_reported() {
    let pki = pki(1);
    let signed = signet_signing::sign_pdf(&reportlab_pdf(1), &pki.signer(0), &opts(&pki, PadesLevel::BB)).unwrap();
    // Untrusted: an empty trust store.
    let report = signet_signing::verify_file(&signed, &[]).unwrap();
    assert!(!report.valid && report.signatures[0].intact && !report.signatures[0].trusted);
    // Tampered: flip a byte inside the first signed range (in the page content).
    let mut tampered = signed.clone();
    let at = tampered.windows(4).position(|w| w == b"Page").unwrap();
    tampered[at] = b'X';
    let report = signet_signing::verify_file(&tampered, &pki.trust()).unwrap();
    assert!(!report.valid && !report.signatures[0].intact, "{report:#?}");
    // An unsigned PDF has no valid signature.
    let report = signet_signing::verify_file(&reportlab_pdf(1), &pki.trust()).unwrap();
    assert!(!report.valid && report.signatures.is_empty());
}

#[test]
fn ecdsa_signer_and_a_devanagari_name_in_a_custom_box() {
    let pki = pki(1);
    let ec = pki.ca.issue_signer("ईसी हस्ताक्षरकर्ता", signet_sigcrypto::pki::KeyAlgo::EcP256).unwrap();
    let signer = signet_signing::LocalKeySigner::from_pkcs8(&ec.key_pkcs8_der, &ec.cert_der, pki.trust()).unwrap();
    let mut o = opts(&pki, PadesLevel::BT);
    o.visible = Some(Visible {
        rect: BoxSpec::parse_custom("300,500,220,90").unwrap(),
        typed_name: Some("आशा वर्मा".into()),
        name_style: signet_signing::NameStyle::Handwriting,
        ..Default::default()
    });
    let signed = signet_signing::sign_pdf(&reportlab_pdf(1), &signer, &o).unwrap();
    let path = write(pki.dir.path(), "ec.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path, &pki.ca_pem());
    assert!(ink_in_box(&path, 1, 300.0, 500.0, 220.0, 90.0) > 0.02, "the custom box is blank");
    let report = signet_signing::verify_file(&signed, &pki.trust()).unwrap();
    assert!(report.valid, "{report:#?}");
}

/// Keeps `bytes` as `name` in `$SIGNET_KEEP_PDF_DIR` when it is set (to run the validators by hand).
fn keep(name: &str, bytes: &[u8]) {
    if let Some(dir) = std::env::var_os("SIGNET_KEEP_PDF_DIR") {
        std::fs::write(std::path::Path::new(&dir).join(name), bytes).unwrap();
    }
}

/// pyHanko's report of every signature (`--pretty-print`), which must find all of them valid.
fn pyhanko_report(path: &std::path::Path, ca: &std::path::Path) -> String {
    let (ok, out) = run_any(
        std::process::Command::new("pyhanko")
            .args(["sign", "validate", "--trust"])
            .arg(ca)
            .args(["--trust-replace", "--no-revocation-check", "--pretty-print"])
            .arg(path),
    );
    assert!(ok && !out.contains("INVALID"), "pyhanko validate:\n{out}");
    out
}

#[test]
fn boxes_prepared_before_the_first_signature_are_filled_by_each_signature_as_form_filling() {
    use signet_signing::{FieldMark, MarkContent, NameStyle};
    let pki = pki(2);
    let unsigned = reportlab_pdf(2);
    let boxes = [
        ("SignetBox_s1_f0_p1", 1, "72,760,100,20", false),
        ("SignetBox_s1_f1_p1", 1, "200,760,160,20", false),
        ("SignetBox_s2_f0_p2", 2, "72,200,14,14", true),
        ("SignetBox_s2_f1_p2", 2, "72,100,200,20", false),
    ];
    let fields: Vec<signet_pdf::MarkField> = boxes
        .iter()
        .map(|(name, page, spec, check)| signet_pdf::MarkField {
            name: name.to_string(),
            page: *page,
            rect: BoxSpec::parse_custom(spec).unwrap(),
            check: *check,
        })
        .collect();
    let prepared = signet_pdf::add_mark_fields(&unsigned, &fields).unwrap().expect("fields added");
    let mark = |i: usize, content| {
        let (name, page, spec, _) = boxes[i];
        FieldMark { page, rect: BoxSpec::parse_custom(spec).unwrap(), content, field: Some(name.to_string()) }
    };
    let text = |text: &str| MarkContent::Text { text: text.into(), style: NameStyle::Plain };

    let mut first = opts(&pki, PadesLevel::BB);
    first.visible = Some(Visible {
        rect: BoxSpec::parse_custom("40,650,160,55").unwrap(),
        marks: vec![mark(0, text("01 Dec 2026")), mark(1, text("Asha Verma"))],
        ..Default::default()
    });
    let once = signet_signing::sign_pdf(&prepared, &pki.signer(0), &first).unwrap();
    let mut second = opts(&pki, PadesLevel::BB);
    second.visible = Some(Visible {
        rect: BoxSpec::parse_custom("300,650,160,55").unwrap(),
        marks: vec![mark(2, MarkContent::Check(true)), mark(3, text("PAN ABCDE1234F"))],
        ..Default::default()
    });
    let twice = signet_signing::sign_pdf(&once, &pki.signer(1), &second).unwrap();
    keep("prepared-marks.pdf", &twice);
    keep("ca.pem", &std::fs::read(pki.ca_pem()).unwrap());
    let path = write(pki.dir.path(), "prepared.pdf", &twice);
    // One signature per signer: the boxes are fields of their own, not widgets of a signature.
    assert_pdfsig_valid(&path, 2);
    let (_, listed) = run_any(std::process::Command::new("pdfsig").arg(&path));
    assert_eq!(listed.matches("Signature #").count(), 2, "{listed}");
    let report = pyhanko_report(&path, &pki.ca_pem());
    eprintln!("{report}");
    assert_eq!(report.matches("The signature is cryptographically sound.").count(), 2, "{report}");
    assert!(!report.contains("Some modifications may be illegitimate"), "beyond form filling:\n{report}");
    assert!(report.contains("All modifications relate to signing and form filling operations"), "{report}");
    let (ok, words) = run_any(std::process::Command::new("pdftotext").args(["-f", "1", "-l", "2"]).arg(&path).arg("-"));
    for expected in ["01 Dec 2026", "Asha Verma", "PAN ABCDE1234F"] {
        assert!(ok && words.contains(expected), "{expected} is text on the pages:\n{words}");
    }
    assert!(ink_in_box(&path, 2, 72.0, 200.0, 14.0, 14.0) > 0.05, "the tick is drawn");
    let verified = signet_signing::verify_file(&twice, &pki.trust()).unwrap();
    assert!(verified.valid, "{verified:#?}");

    // A field is filled once: a second signature naming it draws its mark the old way.
    let mut third = opts(&pki, PadesLevel::BB);
    third.visible = Some(Visible { marks: vec![mark(3, text("again"))], ..Default::default() });
    let thrice = signet_signing::sign_pdf(&twice, &pki.signer(0), &third).unwrap();
    let path = write(pki.dir.path(), "thrice.pdf", &thrice);
    assert_pdfsig_valid(&path, 4);
}

/// A document whose boxes were not prepared (signed before mark fields existed): the marks are
/// widgets of the signature field, as they were, and every signature stays valid.
#[test]
fn field_marks_are_drawn_as_part_of_a_later_signature_and_every_signature_stays_valid() {
    use signet_signing::{FieldMark, MarkContent, NameStyle};
    let pki = pki(2);
    let mut first = opts(&pki, PadesLevel::BB);
    first.visible = Some(Visible { rect: BoxSpec::parse_custom("40,700,160,55").unwrap(), ..Default::default() });
    let once = signet_signing::sign_pdf(&reportlab_pdf(2), &pki.signer(0), &first).unwrap();

    let mark = |page, spec: &str, content| FieldMark {
        page,
        rect: BoxSpec::parse_custom(spec).unwrap(),
        content,
        // Named fields that the document does not have: the widget way.
        field: Some(format!("SignetBox_unprepared_{page}_{spec}")),
    };
    let text = |text: &str, style| MarkContent::Text { text: text.into(), style };
    let mut second = opts(&pki, PadesLevel::BB);
    second.visible = Some(Visible {
        rect: BoxSpec::parse_custom("300,700,160,55").unwrap(),
        marks: vec![
            mark(1, "72,100,200,20", text("PAN ABCDE1234F", NameStyle::Plain)),
            mark(1, "72,140,60,30", text("AKV", NameStyle::Handwriting)),
            mark(2, "72,200,14,14", MarkContent::Check(true)),
            mark(2, "72,240,14,14", MarkContent::Check(false)),
        ],
        ..Default::default()
    });
    let twice = signet_signing::sign_pdf(&once, &pki.signer(1), &second).unwrap();
    keep("widget-marks.pdf", &twice);
    let path = write(pki.dir.path(), "marks.pdf", &twice);
    // poppler lists every widget of a signature field: the first signature, then the second
    // with its box and four marks.
    assert_pdfsig_valid(&path, 6);
    assert_pyhanko_valid(&path, &pki.ca_pem());
    let (ok, words) = run_any(std::process::Command::new("pdftotext").args(["-f", "1", "-l", "1"]).arg(&path).arg("-"));
    assert!(ok && words.contains("PAN ABCDE1234F"), "the typed text is real text on page 1:\n{words}");
    assert!(ink_in_box(&path, 1, 72.0, 140.0, 60.0, 30.0) > 0.01, "the initials are drawn");
    let ticked = ink_in_box(&path, 2, 72.0, 200.0, 14.0, 14.0);
    let empty = ink_in_box(&path, 2, 72.0, 240.0, 14.0, 14.0);
    assert!(ticked > empty && empty > 0.0, "a ticked box has more ink than an empty one ({ticked} vs {empty})");

    // What cannot be drawn is refused, and nothing is signed.
    let mut bad = second.clone();
    if let Some(v) = bad.visible.as_mut() {
        v.marks = vec![mark(3, "72,100,200,20", text("no such page", NameStyle::Plain))];
    }
    assert!(signet_signing::sign_pdf(&once, &pki.signer(1), &bad).is_err());
    if let Some(v) = bad.visible.as_mut() {
        v.marks = vec![mark(1, "72,100,200,20", text("bell\u{7}", NameStyle::Plain))];
    }
    assert!(signet_signing::sign_pdf(&once, &pki.signer(1), &bad).is_err());
}

/// A remote provider's CMS (Aadhaar eSign) completes a prepared PDF with an RSA or an ECDSA
/// P-256 signer key (C-DAC's 30-minute certificates are P-256), and the `/SubFilter` says what
/// the CMS is: `adbe.pkcs7.detached` for a CMS with signingTime and no signing-certificate-v2
/// (as CCA ESPs make it), `ETSI.CAdES.detached` only for a PAdES-baseline CMS; a placeholder
/// labelled `ETSI.CAdES.detached` refuses a CMS that is not.
#[test]
fn remote_cms_with_rsa_or_p256_keys_is_embedded_under_the_sub_filter_it_is() {
    use signet_sigcrypto::cms::{CmsOptions, sign_digest_detached};
    use signet_sigcrypto::pki::KeyAlgo;
    use signet_signing::{LocalKeySigner, SubFilter};
    let pki = pki(0);
    let input = reportlab_pdf(1);
    for algo in [KeyAlgo::Rsa2048, KeyAlgo::EcP256] {
        let issued = pki.ca.issue_signer(&format!("Asha Verma {algo:?}"), algo).unwrap();
        let signer =
            LocalKeySigner::from_pkcs8(&issued.key_pkcs8_der, &issued.cert_der, vec![pki.ca.cert_der().to_vec()])
                .unwrap();
        // As CCA ESPs sign: signingTime (and the crate's signing-certificate-v2).
        let cca = CmsOptions { signing_time: Some(time::OffsetDateTime::now_utc()), include_chain: true };
        for (sub_filter, label) in
            [(SubFilter::Pkcs7Detached, "adbe.pkcs7.detached"), (SubFilter::CadesDetached, "ETSI.CAdES.detached")]
        {
            let o = PdfSignOptions { sub_filter, ..opts(&pki, PadesLevel::BB) };
            let prepared = signet_signing::prepare_remote_pdf(&input, &o).unwrap();
            let cades = sign_digest_detached(&signer, &prepared.digest, &CmsOptions::pades()).unwrap();
            let with_time = sign_digest_detached(&signer, &prepared.digest, &cca).unwrap();
            let refused = signet_signing::complete_remote_pdf(&prepared, &with_time, &o);
            if sub_filter == SubFilter::CadesDetached {
                assert!(refused.is_err(), "a CMS with signingTime under ETSI.CAdES.detached");
            }
            let cms = if sub_filter == SubFilter::CadesDetached { cades } else { with_time };
            let signed = signet_signing::complete_remote_pdf(&prepared, &cms, &o).unwrap();
            let path = write(pki.dir.path(), &format!("remote-{algo:?}-{label}.pdf"), &signed);
            let (_, out) = run_any(std::process::Command::new("pdfsig").arg(&path));
            assert!(out.contains(&format!("Signature Type: {label}")), "pdfsig:\n{out}");
            assert_pdfsig_valid(&path, 1);
            assert_pyhanko_valid(&path, &pki.ca_pem());
        }
    }
}
