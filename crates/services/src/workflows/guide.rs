//! Where the signer page asks the signer to act: the boxes of their signature and of their
//! fields on each document, as fractions of the page they are on, so that the page can draw
//! them over its page images and lead the signer from one to the next. The boxes come from
//! the same [`placement::boxes_for`] the seal uses, so what the page shows is where the
//! signature lands (an anchor found in the text, the default slot, or the sender's boxes).

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::fields::FieldKind;
use signet_domain::placement::Placement;
use signet_signing::BoxSpec;
use signet_store::DocumentRow;

use super::placement::{self, PlacementError};
use super::session::SignerSession;
use crate::Services;
use crate::platform::heavy::Share;

/// Documents whose places are worked out for one page view; a workflow with more shows the
/// rest as links only (the seal still signs them all).
pub const MAX_GUIDED_DOCUMENTS: usize = 10;

/// What a place on a page is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpotKind {
    /// The signature itself.
    Signature,
    /// The placement's field at `index` (in [`Placement::fields`]).
    Field { index: usize, kind: FieldKind },
}

/// One place on one page (1-based): `left, top, width, height` as fractions of the page as
/// the reader sees it (its crop box, turned by its rotation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spot {
    pub page: u32,
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    pub kind: SpotKind,
}

/// A document's places, and each of its pages' width and height in points.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocumentSpots {
    pub page_sizes: Vec<(f64, f64)>,
    pub spots: Vec<Spot>,
}

/// The places on each of `documents` (the workflow's active documents, in order), at most
/// [`MAX_GUIDED_DOCUMENTS`]; a document that cannot be read or placed gets none (the page
/// still shows it, and the seal's refusal, if any, comes when the signer signs).
pub async fn spots(svc: &Services, session: &SignerSession, documents: &[DocumentRow]) -> Vec<DocumentSpots> {
    let placement = &session.placement;
    let mut out = Vec::with_capacity(documents.len().min(MAX_GUIDED_DOCUMENTS));
    for (index, doc) in documents.iter().enumerate().take(MAX_GUIDED_DOCUMENTS) {
        let found = match read(svc, doc).await {
            Some(pdf) => {
                let placement = placement.clone();
                let work = move || locate(&placement, index, &pdf);
                svc.heavy.run(Share::Tenant(doc.tenant_id), work).await.ok().and_then(Result::ok)
            }
            None => None,
        };
        out.push(found.unwrap_or_default());
    }
    out
}

async fn read(svc: &Services, doc: &DocumentRow) -> Option<Bytes> {
    let key = BlobKey::parse(&doc.current_blob).ok()?;
    svc.blob.get(&key).await.ok()
}

/// The places of `placement` on the document at `index` of the workflow.
pub fn locate(placement: &Placement, index: usize, pdf: &[u8]) -> Result<DocumentSpots, PlacementError> {
    let page_sizes = signet_pdf::page_sizes(pdf)?;
    let count = page_sizes.len() as u32;
    let mut spots = Vec::new();
    let (pages, rect, pairs) = placement::boxes_for(placement, index, pdf)?;
    let signature_boxes = match pairs {
        Some(pairs) => pairs,
        None => {
            let indices = pages.indices(page_sizes.len())?;
            indices.into_iter().map(|i| (i as u32 + 1, rect)).collect()
        }
    };
    for (page, spec) in signature_boxes {
        spots.extend(spot(&page_sizes, page, &spec, SpotKind::Signature));
    }
    for (field_index, field) in placement.fields.iter().enumerate() {
        if field.at.document.is_some_and(|d| d != index) {
            continue;
        }
        let b = &field.at;
        let spec = BoxSpec::Custom { left: b.left, top: b.top, width: b.width, height: b.height };
        let kind = SpotKind::Field { index: field_index, kind: field.kind };
        for page in placement::page_numbers(&b.page, count)? {
            spots.extend(spot(&page_sizes, page, &spec, kind));
        }
    }
    spots.sort_by(|a, b| {
        (a.page, a.top, a.left).partial_cmp(&(b.page, b.top, b.left)).unwrap_or(std::cmp::Ordering::Equal)
    });
    Ok(DocumentSpots { page_sizes, spots })
}

/// The box `spec` on page `page` as fractions of the page; none on a page the document lacks.
fn spot(page_sizes: &[(f64, f64)], page: u32, spec: &BoxSpec, kind: SpotKind) -> Option<Spot> {
    let &(width, height) = page_sizes.get((page as usize).checked_sub(1)?)?;
    if width <= 0.0 || height <= 0.0 {
        return None;
    }
    let [left, top, w, h] = spec.top_left_box(width, height);
    let fraction = |v: f64, of: f64| (v / of).clamp(0.0, 1.0);
    Some(Spot {
        page,
        left: fraction(left, width),
        top: fraction(top, height),
        width: fraction(w, width),
        height: fraction(h, height),
        kind,
    })
}

#[cfg(test)]
mod tests {
    use signet_testkit::pdf::{Page, reportlab_pdf};

    use super::*;
    use signet_domain::placement::{PageRef, PlacedBox, PlacedField};

    fn pages(count: usize) -> Vec<u8> {
        reportlab_pdf(&vec![Page::text("Loan agreement"); count])
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn boxes_and_fields_become_fractions_of_their_pages_in_reading_order() {
        let pdf = pages(2);
        let (width, height) = signet_pdf::page_sizes(&pdf).expect("sizes")[1];
        let at = |page, left: f64, top: f64| PlacedBox {
            document: None,
            page,
            left: left * width,
            top: top * height,
            width: 0.2 * width,
            height: 0.05 * height,
        };
        let date = PlacedField {
            kind: FieldKind::Date,
            at: at(PageRef::Word("last".into()), 0.0, 0.1),
            label: None,
            required: false,
            value: None,
        };
        let placement =
            Placement { boxes: vec![at(PageRef::Number(2), 0.1, 0.5)], fields: vec![date], ..Placement::default() };
        let found = locate(&placement, 0, &pdf).expect("spots");
        assert_eq!(found.page_sizes.len(), 2);
        let [date, signature] = found.spots.as_slice() else { panic!("two spots: {:?}", found.spots) };
        assert_eq!(date.kind, SpotKind::Field { index: 0, kind: FieldKind::Date });
        assert_eq!((date.page, signature.page), (2, 2));
        assert!(close(signature.left, 0.1) && close(signature.top, 0.5), "{signature:?}");
        assert!(close(signature.width, 0.2) && close(signature.height, 0.05), "{signature:?}");
        assert!(close(date.top, 0.1) && close(date.left, 0.0), "{date:?}");
    }

    #[test]
    fn the_default_slot_is_at_the_bottom_of_the_last_page() {
        let found = locate(&Placement::default(), 0, &pages(3)).expect("spots");
        let [slot] = found.spots.as_slice() else { panic!("one slot: {:?}", found.spots) };
        assert_eq!((slot.page, slot.kind), (3, SpotKind::Signature));
        assert!(slot.top > 0.8 && slot.left < 0.1, "bottom left: {slot:?}");
    }
}
