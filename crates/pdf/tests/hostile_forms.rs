//! Hand-made forms that no honest producer writes: deep or cyclic field trees, widgets without
//! appearances or rectangles, values past the limits. Each is an error or a filled document,
//! never a panic or a hang.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write as _;

use signet_pdf::Error;
use signet_pdf::forms::{FieldFill, FieldPart, MAX_FILLS, MAX_TEXT_CHARS, fill_form, form_fields};

/// A PDF with a classic xref from object bodies (object `i + 1` is `bodies[i]`).
fn classic_pdf(bodies: &[String]) -> Vec<u8> {
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in bodies.iter().enumerate() {
        offsets.push(out.len());
        write!(out, "{} 0 obj\n{body}\nendobj\n", i + 1).unwrap();
    }
    let xref = out.len();
    write!(out, "xref\n0 {}\n0000000000 65535 f \n", bodies.len() + 1).unwrap();
    for o in offsets {
        writeln!(out, "{o:010} 00000 n ").unwrap();
    }
    write!(out, "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", bodies.len() + 1).unwrap();
    out
}

/// Catalog, pages and one page whose annotations are `annots`; the form's fields are `fields`.
fn form(fields: &str, annots: &str, more: &[String]) -> Vec<u8> {
    let mut bodies = vec![
        format!("<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [{fields}] /NeedAppearances true >> >>"),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [{annots}] >>"),
    ];
    bodies.extend_from_slice(more);
    classic_pdf(&bodies)
}

fn text(name: &str, value: &str) -> FieldFill {
    FieldFill { name: name.into(), value: Some(value.into()), ..FieldFill::default() }
}

#[test]
fn a_checkbox_without_appearances_gets_ours_and_flattens() {
    let doc = form("4 0 R", "4 0 R", &["<< /FT /Btn /T (box) /Subtype /Widget /Rect [10 10 30 30] /P 3 0 R >>".into()]);
    let fill = FieldFill { name: "box".into(), checked: Some(true), ..FieldFill::default() };
    let filled = fill_form(&doc, std::slice::from_ref(&fill), false).unwrap();
    let tail = String::from_utf8_lossy(&filled[doc.len()..]).into_owned();
    assert!(tail.contains("/AS /Yes") && tail.contains("/V /Yes"), "{tail}");
    assert!(!tail.contains("NeedAppearances"), "{tail}");
    let flat = fill_form(&doc, &[fill], true).unwrap();
    assert!(form_fields(&flat).unwrap().is_empty());
    signet_pdf::inspect_upload(&flat).unwrap();
}

#[test]
fn a_text_field_without_rectangle_or_appearance_is_filled() {
    let doc = form("4 0 R", "4 0 R", &["<< /FT /Tx /T (name) /Subtype /Widget /P 3 0 R >>".into()]);
    let filled = fill_form(&doc, &[text("name", "Asha")], true).unwrap();
    signet_pdf::inspect_upload(&filled).unwrap();
}

#[test]
fn fields_nested_past_the_bound_are_refused() {
    let depth = 100;
    let mut more = Vec::new();
    for i in 0..depth {
        more.push(format!("<< /T (f{i}) /Kids [{} 0 R] >>", i + 5));
    }
    more.push("<< /FT /Tx /T (leaf) /Subtype /Widget /Rect [0 0 10 10] >>".into());
    let doc = form("4 0 R", "", &more);
    match fill_form(&doc, &[text("x", "y")], false) {
        Err(Error::Unsupported(message)) => assert!(message.contains("nested"), "{message}"),
        other => panic!("{:?}", other.map(|b| b.len())),
    }
}

#[test]
fn field_trees_that_loop_end() {
    // 4 -> 5 -> 4: each field is visited once.
    let doc = form(
        "4 0 R",
        "6 0 R",
        &[
            "<< /T (a) /Kids [5 0 R] >>".into(),
            "<< /T (b) /Kids [4 0 R 6 0 R] >>".into(),
            "<< /FT /Tx /T (c) /Subtype /Widget /Rect [0 0 50 20] >>".into(),
        ],
    );
    let names: Vec<String> = form_fields(&doc).unwrap().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["a.b.c"]);
    fill_form(&doc, &[text("a.b.c", "ok")], false).unwrap();
}

#[test]
fn values_past_the_limits_are_refused() {
    let doc = form("4 0 R", "4 0 R", &["<< /FT /Tx /T (name) /Subtype /Widget /Rect [0 0 50 20] >>".into()]);
    match fill_form(&doc, &[text("name", &"x".repeat(MAX_TEXT_CHARS + 1))], false) {
        Err(Error::FormField { part: FieldPart::Value, .. }) => {}
        other => panic!("{:?}", other.map(|b| b.len())),
    }
    let many = vec![text("name", "x"); MAX_FILLS + 1];
    assert!(matches!(fill_form(&doc, &many, false), Err(Error::InvalidOptions(_))));
    match fill_form(&doc, &[text("name", "bell\u{7}")], false) {
        Err(Error::FormField { part: FieldPart::Value, .. }) => {}
        other => panic!("{:?}", other.map(|b| b.len())),
    }
}

#[test]
fn a_document_without_a_form_names_the_first_value() {
    let doc = classic_pdf(&[
        "<< /Type /Catalog /Pages 2 0 R >>".into(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>".into(),
    ]);
    match fill_form(&doc, &[text("name", "x")], false) {
        Err(Error::FormField { index: 0, part: FieldPart::Name, .. }) => {}
        other => panic!("{:?}", other.map(|b| b.len())),
    }
    assert_eq!(fill_form(&doc, &[], true).unwrap(), doc);
}
