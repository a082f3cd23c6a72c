//! Filling forms made by other producers (reportlab, pypdf): values read back with pdftotext,
//! flattened fields seen on a rendered page, filled documents signed and validated.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use signet_pdf::Error;
use signet_pdf::forms::{FieldFill, FieldKind, FieldPart, fill_form, form_fields};

fn text(name: &str, value: &str) -> FieldFill {
    FieldFill { name: name.into(), value: Some(value.into()), ..FieldFill::default() }
}

fn every_kind() -> Vec<FieldFill> {
    vec![
        text("fullName", "Ravi Kumar"),
        text("address", "12 MG Road\nPune 411001"),
        FieldFill { name: "agree".into(), checked: Some(true), ..FieldFill::default() },
        FieldFill { name: "plan".into(), value: Some("premium".into()), selected: Some(true), ..FieldFill::default() },
        FieldFill { name: "city".into(), value: Some("Mumbai".into()), ..FieldFill::default() },
        FieldFill {
            name: "langs".into(),
            value: Some("Marathi".into()),
            kind: Some(FieldKind::Choice),
            ..FieldFill::default()
        },
        FieldFill { name: "photo".into(), image: Some(signature_png()), ..FieldFill::default() },
    ]
}

fn problem(result: signet_pdf::Result<Vec<u8>>) -> (usize, FieldPart, String) {
    match result {
        Err(Error::FormField { index, part, message, .. }) => (index, part, message),
        other => panic!("expected a form field error, got {:?}", other.map(|b| b.len())),
    }
}

#[test]
fn the_fields_of_a_reportlab_form_are_listed_with_their_kinds() {
    let fields = form_fields(&form_pdf()).unwrap();
    let kinds: Vec<(&str, Option<FieldKind>)> = fields.iter().map(|(n, k)| (n.as_str(), *k)).collect();
    assert!(kinds.contains(&("fullName", Some(FieldKind::Text))), "{kinds:?}");
    assert!(kinds.contains(&("agree", Some(FieldKind::Checkbox))), "{kinds:?}");
    assert!(kinds.contains(&("plan", Some(FieldKind::Radio))), "{kinds:?}");
    assert!(kinds.contains(&("city", Some(FieldKind::Choice))), "{kinds:?}");
    assert!(kinds.contains(&("photo", Some(FieldKind::Image))), "{kinds:?}");
}

#[test]
fn every_kind_of_field_is_filled_and_shown_by_poppler() {
    let form = form_pdf();
    let filled = fill_form(&form, &every_kind(), false).unwrap();
    assert!(filled.starts_with(&form), "an incremental update");
    let dir = tmp();
    let path = write(&dir, "filled.pdf", &filled);
    assert_qpdf_clean(&path);
    let text = pdftotext(&path);
    for expected in ["Ravi Kumar", "12 MG Road", "Pune 411001", "Mumbai", "Marathi"] {
        assert!(text.contains(expected), "{expected} missing from:\n{text}");
    }
    let json = run(std::process::Command::new("qpdf").args(["--json", "--json-key=acroform", path.to_str().unwrap()]));
    assert!(json.contains("\"value\": \"u:Ravi Kumar\""), "{json}");
    assert!(json.contains("\"value\": \"/premium\""), "{json}");
    assert!(json.contains("\"value\": \"/Yes\""), "{json}");
    let page = render(&path, 1);
    // The image field at 72,300-222,400 (A4 is 841.89 high): top = 841.89 - 400.
    assert!(ink_in_box(&page, 80.0, 450.0, 130.0, 80.0) > 0.02, "the image is drawn");
}

#[test]
fn a_filled_form_is_signed_and_valid() {
    let filled = fill_form(&form_pdf(), &every_kind(), false).unwrap();
    let signed = sign(&filled, &signet_pdf::SignOptions::default(), 1);
    let dir = tmp();
    let path = write(&dir, "signed.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path);
    assert!(pdftotext(&path).contains("Ravi Kumar"));
}

#[test]
fn flattening_draws_the_values_into_the_page_and_removes_the_fields() {
    let flat = fill_form(&form_pdf(), &every_kind(), true).unwrap();
    assert!(form_fields(&flat).unwrap().is_empty(), "no fields left");
    let dir = tmp();
    let path = write(&dir, "flat.pdf", &flat);
    assert_qpdf_clean(&path);
    let text = pdftotext(&path);
    assert!(text.contains("Ravi Kumar") && text.contains("Mumbai"), "{text}");
    let page = render(&path, 1);
    // fullName at 72,700-322,724: the value's glyphs darken the box.
    assert!(ink_in_box(&page, 76.0, 841.89 - 722.0, 120.0, 18.0) > 0.03, "the text is drawn");
    assert!(ink_in_box(&page, 80.0, 450.0, 130.0, 80.0) > 0.02, "the image is drawn");
    let signed = sign(&flat, &signet_pdf::SignOptions::default(), 1);
    let path = write(&dir, "signed.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path);
}

#[test]
fn unknown_fields_and_wrong_kinds_are_refused_with_the_value_named() {
    let form = form_pdf();
    let fills = vec![text("fullName", "x"), text("nope", "y")];
    assert_eq!(problem(fill_form(&form, &fills, false)).0, 1);
    let fills = vec![FieldFill { name: "fullName".into(), checked: Some(true), ..FieldFill::default() }];
    assert_eq!(problem(fill_form(&form, &fills, false)).1, FieldPart::Checked);
    let fills = vec![text("city", "Chennai")];
    let (_, part, message) = problem(fill_form(&form, &fills, false));
    assert_eq!(part, FieldPart::Value);
    assert!(message.contains("Mumbai"), "the options are listed: {message}");
    let fills = vec![FieldFill { name: "photo".into(), image: Some(b"GIF89a....".to_vec()), ..FieldFill::default() }];
    assert_eq!(problem(fill_form(&form, &fills, false)).1, FieldPart::Image);
    let fills = vec![FieldFill { name: "agree".into(), kind: Some(FieldKind::Text), ..FieldFill::default() }];
    assert_eq!(problem(fill_form(&form, &fills, false)).1, FieldPart::Kind);
    let fills = vec![text("fullName", &"x".repeat(101))];
    assert!(problem(fill_form(&form, &fills, false)).2.contains("100"), "MaxLen 100");
    let fills = vec![text("fullName", "a"), text("fullName", "b")];
    assert_eq!(problem(fill_form(&form, &fills, false)).0, 1);
    let fills = vec![FieldFill { name: "photo".into(), image: Some(vec![0x89; 100]), ..FieldFill::default() }];
    assert_eq!(problem(fill_form(&form, &fills, false)).1, FieldPart::Image);
}

#[test]
fn a_signed_form_is_not_filled() {
    let signed = sign(&form_pdf(), &signet_pdf::SignOptions::default(), 1);
    assert!(matches!(fill_form(&signed, &[text("fullName", "x")], false), Err(Error::Unsupported(_))));
}

#[test]
fn a_form_in_object_streams_is_filled_with_an_xref_stream_update_and_signed() {
    let form = qpdf(&form_pdf(), &["--object-streams=generate"]);
    let filled = fill_form(&form, &every_kind(), false).unwrap();
    let tail = String::from_utf8_lossy(&filled[form.len()..]).into_owned();
    assert!(tail.contains("/Type /XRef"), "an xref stream after an xref stream");
    let dir = tmp();
    let path = write(&dir, "filled.pdf", &filled);
    assert_qpdf_clean(&path);
    assert!(pdftotext(&path).contains("Ravi Kumar"));
    let signed = sign(&filled, &signet_pdf::SignOptions::default(), 1);
    let path = write(&dir, "signed.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path);
}

#[test]
fn a_radio_group_and_a_checkbox_are_cleared_again() {
    let form = form_pdf();
    let on = vec![
        FieldFill { name: "plan".into(), value: Some("basic".into()), ..FieldFill::default() },
        FieldFill { name: "agree".into(), checked: Some(true), ..FieldFill::default() },
    ];
    let filled = fill_form(&form, &on, false).unwrap();
    let off = vec![
        FieldFill { name: "plan".into(), value: Some("basic".into()), selected: Some(false), ..FieldFill::default() },
        FieldFill { name: "agree".into(), checked: Some(false), ..FieldFill::default() },
    ];
    let cleared = fill_form(&filled, &off, false).unwrap();
    let dir = tmp();
    let path = write(&dir, "cleared.pdf", &cleared);
    let json = run(std::process::Command::new("qpdf").args(["--json", "--json-key=acroform", path.to_str().unwrap()]));
    assert!(!json.contains("\"value\": \"/basic\"") && !json.contains("\"value\": \"/Yes\""), "{json}");
    assert!(json.contains("\"value\": \"/Off\""), "{json}");
}

/// Bytes of an uncompressed copy of the form changed at a few places (a fixed pseudo-random
/// sequence): filling, flattening and merging give a document or an error, never a panic, and
/// a document only ever appends.
#[test]
fn damaged_forms_are_filled_merged_or_refused_never_a_panic() {
    let form = qpdf(&form_pdf(), &["--qdf", "--object-streams=disable"]);
    let fills: Vec<FieldFill> = every_kind().into_iter().filter(|f| f.image.is_none()).collect();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let noise = b"<>[]/()0 R-9.e\n";
    for round in 0..300 {
        let mut damaged = form.clone();
        for _ in 0..1 + round % 4 {
            let at = (next() as usize) % damaged.len();
            damaged[at] = noise[(next() as usize) % noise.len()];
        }
        for flatten in [false, true] {
            if let Ok(out) = fill_form(&damaged, &fills, flatten) {
                assert!(out.starts_with(&damaged), "round {round}: an update only appends");
            }
        }
        let part = [signet_pdf::MergePart { bytes: &damaged, title: Some("part") }];
        if let Ok(merged) = signet_pdf::append_documents(&form, &part) {
            assert!(merged.bytes.starts_with(&form), "round {round}");
        }
    }
}
