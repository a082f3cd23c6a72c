//! Where a signatory's signature goes on each document: explicit boxes (template fields or
//! `SignerView` coordinates), a text anchor found in the PDF, or a default slot that keeps
//! signers' boxes from overlapping.
//!
//! The boxes a signatory fills in with the signature (date, name, e-mail, initials, text,
//! checkbox) are page content, not signatures: before the first signature every signatory's
//! boxes become empty read-only form fields ([`prepare_fields`]), and each signature fills its
//! own. Widgets of the signature field (the old way) made pdfsig list one signature per box,
//! and pyHanko's difference analysis accepts after a signature only new signature fields and
//! the filling of existing fields, so the fields must exist before anyone signs.
//!
//! The placement itself ([`Placement`] and its parts) is data of the domain
//! (`signet_domain::placement`), which the store reads and writes; the rules here need the PDF.

use signet_domain::fields::{self, FieldKind, FieldValue};
use signet_domain::placement::{FieldInputs, PageRef, PlacedBox, Placement};
use signet_domain::{Millis, Zone};
use signet_pdf::MarkField;
use signet_signing::{BoxSpec, FieldMark, MarkContent, NameStyle, PageSelection, Position, Visible};

use crate::gateway::seal::Mark;

/// Why a placement cannot be used. A rule's text is shown to whoever wrote the placement (a
/// field's message), so it reads exactly as the rule says; a document that cannot be read
/// keeps the PDF library's error.
#[derive(Debug, thiserror::Error)]
pub enum PlacementError {
    /// The placement breaks a rule: a page that is not one, a box too small, a bad label or
    /// anchor. The writer's to correct.
    #[error("{0}")]
    Rule(String),
    /// The document cannot be read (its pages, its text, its signatures or fields).
    #[error(transparent)]
    Pdf(#[from] signet_pdf::Error),
}

/// A broken rule.
fn rule(message: impl Into<String>) -> PlacementError {
    PlacementError::Rule(message.into())
}

const SLOTS: [Position; 9] = [
    Position::BottomLeft,
    Position::BottomCenter,
    Position::BottomRight,
    Position::MiddleLeft,
    Position::MiddleCenter,
    Position::MiddleRight,
    Position::TopLeft,
    Position::TopCenter,
    Position::TopRight,
];

const ANCHOR_BOX: (f64, f64) = (160.0, 55.0);

fn page_selection(page: &PageRef) -> Result<PageSelection, PlacementError> {
    match page {
        PageRef::Number(0) => Err(rule("page numbers start at 1")),
        PageRef::Number(n) => Ok(PageSelection::List(vec![*n])),
        PageRef::Word(word) => match word.trim().to_ascii_lowercase().as_str() {
            "first" => Ok(PageSelection::First),
            "last" => Ok(PageSelection::Last),
            "all" => Ok(PageSelection::All),
            other => other
                .parse::<u32>()
                .ok()
                .filter(|n| *n > 0)
                .map(|n| PageSelection::List(vec![n]))
                .ok_or_else(|| rule(format!("page {word:?} is not a page number, first, last or all"))),
        },
    }
}

/// The pages `page` names on a document of `count` pages (a number as it is, even past the end).
pub fn page_numbers(page: &PageRef, count: u32) -> Result<Vec<u32>, PlacementError> {
    Ok(match page_selection(page)? {
        PageSelection::List(list) => list,
        PageSelection::First => vec![1],
        PageSelection::Last => vec![count],
        _ => (1..=count).collect(),
    })
}

/// Moves the boxes of the first document (`index` 0) of `documents` down by `by` pages, for
/// pages put in front of it after the placement was written (a stamp certificate): numbered
/// pages and `first` keep pointing at the same page of the document; `last` and `all` need no
/// change. A box meant for every document becomes one box per document, so that only the
/// first one's moves.
pub fn shift_first_document(placement: &mut Placement, by: u32, documents: usize) {
    placement.boxes = shifted(std::mem::take(&mut placement.boxes), |b| b, by, documents);
    placement.fields = shifted(std::mem::take(&mut placement.fields), |f| &mut f.at, by, documents);
    for pages in placement.slot_pages.iter_mut().filter(|p| p.document == 0) {
        pages.pages.iter_mut().for_each(|p| *p = p.saturating_add(by));
    }
}

/// [`shift_first_document`] for one list of boxes (signature boxes or fields).
fn shifted<T: Clone>(items: Vec<T>, at: fn(&mut T) -> &mut PlacedBox, by: u32, documents: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(items.len());
    for mut item in items {
        match at(&mut item).document {
            None if documents > 1 => out.extend((0..documents).map(|d| {
                let mut copy = item.clone();
                at(&mut copy).document = Some(d);
                copy
            })),
            _ => out.push(item),
        }
    }
    for item in out.iter_mut() {
        let b = at(item);
        if b.document.is_some_and(|d| d != 0) {
            continue;
        }
        let moved = match &b.page {
            PageRef::Number(n) => Some(n.saturating_add(by)),
            PageRef::Word(word) => match word.trim().to_ascii_lowercase().as_str() {
                "first" => Some(1 + by),
                other => other.parse::<u32>().ok().map(|n| n.saturating_add(by)),
            },
        };
        if let Some(page) = moved {
            b.page = PageRef::Number(page);
        }
    }
    out
}

/// Checks a placement before it is stored: pages must be readable and boxes positive.
pub fn check(placement: &Placement) -> Result<(), PlacementError> {
    for field in &placement.fields {
        if field.kind == FieldKind::Signature {
            return Err(rule("a signature box is placed as a box, not as a field"));
        }
        fields::check_label(field.label.as_deref().unwrap_or("")).map_err(PlacementError::Rule)?;
    }
    for b in placement.boxes.iter().chain(placement.fields.iter().map(|f| &f.at)) {
        page_selection(&b.page)?;
        let values = [b.left, b.top, b.width, b.height];
        if values.iter().any(|v| !v.is_finite()) || b.left < 0.0 || b.top < 0.0 || b.width < 10.0 || b.height < 10.0 {
            return Err(rule("a signature box needs left, top >= 0 and width, height >= 10 points"));
        }
    }
    if let Some(anchor) = &placement.anchor
        && (anchor.trim().is_empty() || anchor.chars().count() > 200)
    {
        return Err(rule("an anchor text must be 1 to 200 characters"));
    }
    Ok(())
}

/// The pages, the box on each, or explicit (page, box) pairs: the parts of a [`Visible`].
pub type Boxes = (PageSelection, BoxSpec, Option<Vec<(u32, BoxSpec)>>);

/// Where the boxes go on the document at `index` (the anchor is looked up in `pdf`).
pub fn boxes_for(placement: &Placement, index: usize, pdf: &[u8]) -> Result<Boxes, PlacementError> {
    let mine: Vec<&PlacedBox> = placement.boxes.iter().filter(|b| b.document.is_none_or(|d| d == index)).collect();
    if let [single] = mine.as_slice() {
        let rect = BoxSpec::Custom { left: single.left, top: single.top, width: single.width, height: single.height };
        return Ok((page_selection(&single.page)?, rect, None));
    }
    if !mine.is_empty() {
        let count = signet_pdf::inspect(pdf)?.pages as u32;
        let mut pairs = Vec::new();
        for b in mine {
            let rect = BoxSpec::Custom { left: b.left, top: b.top, width: b.width, height: b.height };
            let pages = page_numbers(&b.page, count)?;
            pairs.extend(pages.into_iter().map(|p| (p, rect)));
        }
        return Ok((PageSelection::First, BoxSpec::Named(Position::BottomRight), Some(pairs)));
    }
    if let Some(anchor) = &placement.anchor
        && let Some(hit) = signet_pdf::text::find_text(pdf, anchor)?
    {
        let rect = BoxSpec::Custom {
            left: hit.left,
            top: hit.top + hit.height + 2.0,
            width: ANCHOR_BOX.0,
            height: ANCHOR_BOX.1,
        };
        return Ok((PageSelection::List(vec![hit.page]), rect, None));
    }
    let slot = BoxSpec::Named(SLOTS[placement.slot % SLOTS.len()]);
    match placement.slot_pages.iter().find(|p| p.document == index).filter(|p| !p.pages.is_empty()) {
        Some(pages) => Ok((PageSelection::List(pages.pages.clone()), slot, None)),
        None => Ok((PageSelection::Last, slot, None)),
    }
}

/// The first of the signer's inputs the placement cannot take, by its position: what a
/// signer page checks before signing so that it can say it in the signer's language
/// ([`filled`] refuses the same when signing).
pub fn refused_input(placement: &Placement, inputs: &FieldInputs) -> Option<(usize, fields::FieldRefusal)> {
    placement.fields.iter().enumerate().filter(|(_, field)| field.asks_the_signer()).find_map(|(i, field)| {
        let submitted = inputs.get(&i).map(String::as_str);
        fields::check_input(field.kind, field.label(), field.required, submitted).err().map(|refusal| (i, refusal))
    })
}

/// What each of the placement's fields shows, from the signer's inputs; the first field the
/// signer must correct is refused (its position, and why, for the page to word).
pub fn filled(
    placement: &Placement,
    inputs: &FieldInputs,
    signer: &fields::Signer<'_>,
    at: Millis,
    zone: Zone,
) -> Result<Vec<FieldValue>, (usize, fields::FieldRefusal)> {
    placement
        .fields
        .iter()
        .enumerate()
        .map(|(i, field)| {
            if let Some(value) = &field.value {
                return Ok(FieldValue::Text { text: value.clone(), handwriting: false });
            }
            let submitted = inputs.get(&i).map(String::as_str);
            fields::fill(field.kind, field.label(), field.required, submitted, signer, at, zone)
                .map_err(|refusal| (i, refusal))
        })
        .collect()
}

/// The name of the form field that holds field `field` of signatory `signatory` on `page`:
/// created empty before the first signature ([`prepare_fields`]), filled by that signatory's
/// signature.
pub fn mark_field_name(signatory: i64, field: usize, page: u32) -> String {
    format!("SignetBox_s{signatory}_f{field}_p{page}")
}

/// The pages the field at `at` is on, in a document read lazily for its page count.
fn field_pages(at: &PlacedBox, pdf: &[u8], page_count: &mut Option<u32>) -> Result<Vec<u32>, PlacementError> {
    Ok(match page_selection(&at.page)? {
        PageSelection::List(list) => list,
        PageSelection::First => vec![1],
        selection => {
            let count = match page_count {
                Some(count) => *count,
                None => *page_count.insert(signet_pdf::inspect(pdf)?.pages as u32),
            };
            if selection == PageSelection::Last { vec![count] } else { (1..=count).collect() }
        }
    })
}

/// The field marks of signatory `signatory` on the document at `index`: every filled field's
/// box on each of its pages (an optional text left empty shows nothing), each naming the
/// prepared field it fills.
fn marks_for(
    placement: &Placement,
    values: &[FieldValue],
    index: usize,
    pdf: &[u8],
    signatory: i64,
) -> Result<Vec<FieldMark>, PlacementError> {
    let mut marks = Vec::new();
    let mut page_count = None;
    for (i, (field, value)) in placement.fields.iter().zip(values).enumerate() {
        if field.at.document.is_some_and(|d| d != index) {
            continue;
        }
        let content = match value {
            FieldValue::Text { text, .. } if text.is_empty() => continue,
            FieldValue::Text { text, handwriting } => MarkContent::Text {
                text: text.clone(),
                style: if *handwriting { NameStyle::Handwriting } else { NameStyle::Plain },
            },
            FieldValue::Checked(ticked) => MarkContent::Check(*ticked),
        };
        let b = &field.at;
        let rect = BoxSpec::Custom { left: b.left, top: b.top, width: b.width, height: b.height };
        marks.extend(field_pages(b, pdf, &mut page_count)?.into_iter().map(|page| FieldMark {
            page,
            rect,
            content: content.clone(),
            field: Some(mark_field_name(signatory, i, page)),
        }));
    }
    Ok(marks)
}

/// The empty fields of every signatory's boxes on the document at `index` (`signatories`: each
/// one's id and placement), on the pages the document has.
pub fn mark_fields(
    signatories: &[(i64, Placement)],
    index: usize,
    pdf: &[u8],
) -> Result<Vec<MarkField>, PlacementError> {
    let mut out = Vec::new();
    let mut page_count = None;
    for (signatory, placement) in signatories {
        for (i, field) in placement.fields.iter().enumerate() {
            if field.at.document.is_some_and(|d| d != index) {
                continue;
            }
            let b = &field.at;
            let rect = BoxSpec::Custom { left: b.left, top: b.top, width: b.width, height: b.height };
            for page in field_pages(b, pdf, &mut page_count)? {
                out.push(MarkField {
                    name: mark_field_name(*signatory, i, page),
                    page,
                    rect,
                    check: field.kind == FieldKind::Checkbox,
                });
            }
        }
    }
    if !out.is_empty() {
        let count = match page_count {
            Some(count) => count,
            None => signet_pdf::inspect(pdf)?.pages as u32,
        };
        // A box past the end fails its own signer's signature, not everyone's preparation.
        out.retain(|f| f.page >= 1 && f.page <= count);
    }
    Ok(out)
}

/// The document at `index` with every signatory's boxes as empty read-only form fields, when
/// nobody has signed it yet and it has boxes not yet prepared (`None`: sign `pdf` as it is).
/// pdfsig would list boxes written as widgets of a signature field as signatures of their own,
/// and pyHanko refuses form fields created after a signature: created now and filled by each
/// signature, they are form filling. A document signed before this existed keeps the old way
/// (its marks become widgets of the signature field).
pub fn prepare_fields(
    signatories: &[(i64, Placement)],
    index: usize,
    pdf: &[u8],
) -> Result<Option<Vec<u8>>, PlacementError> {
    if signatories.iter().all(|(_, p)| p.fields.is_empty()) {
        return Ok(None);
    }
    if !signet_pdf::signatures(pdf)?.is_empty() {
        return Ok(None);
    }
    let fields = mark_fields(signatories, index, pdf)?;
    if fields.is_empty() {
        return Ok(None);
    }
    Ok(signet_pdf::add_mark_fields(pdf, &fields)?)
}

/// The visible signature of a signatory on the document at `index`, with the `values` of the
/// placement's fields (from [`filled`]); `signatory` is the signatory's id, which names the
/// prepared fields the marks fill.
pub fn visible(
    placement: &Placement,
    signatory: i64,
    index: usize,
    pdf: &[u8],
    mark: &Mark,
    values: &[FieldValue],
    zone: Zone,
) -> Result<Visible, PlacementError> {
    let (pages, rect, page_boxes) = boxes_for(placement, index, pdf)?;
    let (typed_name, name_style, image) = match mark {
        Mark::Typed { name, style } => (Some(name.clone()), *style, None),
        Mark::Image(bytes) => (None, signet_signing::NameStyle::Plain, Some(bytes.clone())),
    };
    let marks = marks_for(placement, values, index, pdf, signatory)?;
    Ok(Visible { pages, rect, page_boxes, typed_name, name_style, image, show_details: true, marks, zone })
}

#[cfg(test)]
mod tests {
    use signet_domain::placement::{PlacedField, SlotPages};

    use super::*;

    fn on(document: Option<usize>, page: PageRef) -> PlacedBox {
        PlacedBox { document, page, left: 10.0, top: 10.0, width: 50.0, height: 20.0 }
    }

    #[test]
    fn pages_put_in_front_move_only_the_first_documents_boxes() {
        let mut placement = Placement {
            boxes: vec![
                on(None, PageRef::Number(2)),
                on(Some(0), PageRef::Word("first".into())),
                on(Some(0), PageRef::Word("last".into())),
                on(Some(1), PageRef::Number(1)),
            ],
            ..Placement::default()
        };
        shift_first_document(&mut placement, 2, 2);
        let pages: Vec<(Option<usize>, PageRef)> =
            placement.boxes.iter().map(|b| (b.document, b.page.clone())).collect();
        assert_eq!(
            pages,
            [
                (Some(0), PageRef::Number(4)),
                (Some(1), PageRef::Number(2)),
                (Some(0), PageRef::Number(3)),
                (Some(0), PageRef::Word("last".into())),
                (Some(1), PageRef::Number(1)),
            ]
        );
        let mut single = Placement { boxes: vec![on(None, PageRef::Word("2".into()))], ..Placement::default() };
        shift_first_document(&mut single, 1, 1);
        assert_eq!(single.boxes[0].page, PageRef::Number(3));
        assert_eq!(single.boxes[0].document, None);
    }

    #[test]
    fn slot_pages_put_the_default_slot_on_those_pages_of_their_document_only() {
        let mut placement = Placement {
            slot: 1,
            slot_pages: vec![SlotPages { document: 0, pages: vec![2, 5] }],
            ..Placement::default()
        };
        let (pages, rect, _) = boxes_for(&placement, 0, b"unused: no anchor, no boxes").expect("boxes");
        assert_eq!(pages, PageSelection::List(vec![2, 5]));
        assert_eq!(rect, BoxSpec::Named(Position::BottomCenter));
        let (pages, _, _) = boxes_for(&placement, 1, b"unused").expect("boxes");
        assert_eq!(pages, PageSelection::Last, "another document keeps its last page");
        shift_first_document(&mut placement, 1, 2);
        assert_eq!(placement.slot_pages[0].pages, [3, 6], "pages put in front move them");
    }

    fn field(kind: FieldKind, document: Option<usize>, page: PageRef) -> PlacedField {
        PlacedField { kind, at: on(document, page), label: None, required: false, value: None }
    }

    #[test]
    fn filled_fields_become_marks_on_their_documents_and_pages_and_move_with_the_pages() {
        let mut placement = Placement {
            fields: vec![
                field(FieldKind::Date, Some(0), PageRef::Number(2)),
                field(FieldKind::Text, None, PageRef::Word("first".into())),
                field(FieldKind::Checkbox, Some(1), PageRef::Number(1)),
            ],
            ..Placement::default()
        };
        let signer = fields::Signer { name: "Asha Verma", email: "asha@example.in" };
        let inputs = FieldInputs::from([(1, String::new()), (2, "on".into())]);
        let values = filled(&placement, &inputs, &signer, 0, Zone::Ist).expect("filled");
        assert_eq!(values[2], FieldValue::Checked(true));
        let first = marks_for(&placement, &values, 0, b"unused: no word pages", 7).expect("marks");
        assert_eq!(first.len(), 1, "the empty optional text shows nothing: {first:?}");
        assert_eq!(
            (first[0].page, &first[0].content),
            (2, &MarkContent::Text { text: "01 Jan 1970".into(), style: NameStyle::Plain })
        );
        assert_eq!(first[0].field.as_deref(), Some("SignetBox_s7_f0_p2"), "the mark names its prepared field");
        let second = marks_for(&placement, &values, 1, b"unused", 7).expect("marks");
        assert_eq!((second.len(), &second[0].content), (1, &MarkContent::Check(true)));

        placement.fields[1].required = true;
        assert_eq!(
            filled(&placement, &inputs, &signer, 0, Zone::Ist).map_err(|(i, _)| format!("field{i}")),
            Err("field1".to_string())
        );
        shift_first_document(&mut placement, 1, 2);
        let pages: Vec<(Option<usize>, PageRef)> =
            placement.fields.iter().map(|f| (f.at.document, f.at.page.clone())).collect();
        assert_eq!(
            pages,
            [
                (Some(0), PageRef::Number(3)),
                (Some(0), PageRef::Number(2)),
                (Some(1), PageRef::Word("first".into())),
                (Some(1), PageRef::Number(1)),
            ]
        );
        assert!(
            check(&Placement {
                fields: vec![field(FieldKind::Signature, None, PageRef::Number(1))],
                ..Placement::default()
            })
            .is_err()
        );
    }

    #[test]
    fn every_signatorys_boxes_are_prepared_as_fields_once_and_only_before_the_first_signature() {
        let pdf = signet_pdf::compose::compose_report("Loan agreement", &[], &[]);
        let first = Placement {
            fields: vec![
                field(FieldKind::Date, None, PageRef::Number(1)),
                field(FieldKind::Name, None, PageRef::Word("last".into())),
                field(FieldKind::Text, None, PageRef::Number(9)),
            ],
            ..Placement::default()
        };
        let second = Placement {
            fields: vec![field(FieldKind::Checkbox, Some(0), PageRef::Word("all".into()))],
            ..Placement::default()
        };
        let signatories = [(3, first), (4, second), (5, Placement::default())];
        let fields: Vec<(String, u32, bool)> = mark_fields(&signatories, 0, &pdf)
            .expect("fields")
            .into_iter()
            .map(|f| (f.name, f.page, f.check))
            .collect();
        assert_eq!(
            fields,
            [
                ("SignetBox_s3_f0_p1".to_string(), 1, false),
                ("SignetBox_s3_f1_p1".to_string(), 1, false),
                ("SignetBox_s4_f0_p1".to_string(), 1, true),
            ],
            "a box past the last page is left to its own signer"
        );
        let prepared = prepare_fields(&signatories, 0, &pdf).expect("prepare").expect("fields added");
        assert!(prepared.starts_with(&pdf), "an incremental update");
        assert_eq!(prepare_fields(&signatories, 0, &prepared).expect("again"), None, "prepared once");
        assert_eq!(prepare_fields(&signatories[2..], 0, &pdf).expect("none"), None, "no boxes, nothing to add");
        let signed = signet_pdf::prepare(&pdf, &signet_pdf::SignOptions::default()).expect("signature").bytes;
        assert_eq!(prepare_fields(&signatories, 0, &signed).expect("signed"), None, "too late: the old way");
    }

    #[test]
    fn pages_and_boxes_are_checked() {
        let good = Placement {
            boxes: vec![PlacedBox {
                document: None,
                page: PageRef::Word("last".into()),
                left: 10.0,
                top: 10.0,
                width: 100.0,
                height: 40.0,
            }],
            ..Placement::default()
        };
        assert!(check(&good).is_ok());
        let mut bad = good.clone();
        bad.boxes[0].page = PageRef::Word("middle".into());
        assert!(check(&bad).is_err());
        let mut tiny = good.clone();
        tiny.boxes[0].width = 1.0;
        assert!(check(&tiny).is_err());
        assert!(check(&Placement { anchor: Some(" ".into()), ..Placement::default() }).is_err());
    }
}
