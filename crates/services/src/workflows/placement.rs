//! Where a signatory's signature goes on each document: explicit boxes (template fields or
//! `SignerView` coordinates), a text anchor found in the PDF, or a default slot that keeps
//! signers' boxes from overlapping.

use serde::{Deserialize, Serialize};
use signet_signing::{BoxSpec, PageSelection, Position, Visible};

use crate::gateway::seal::Mark;

/// A page reference as integrators write it: a number, "first", "last" or "all".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PageRef {
    Number(u32),
    Word(String),
}

/// One box, `left, top, width, height` in points from the page's top-left corner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlacedBox {
    /// The document (0-based position in the workflow) this box is on; every document when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<usize>,
    pub page: PageRef,
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

/// A signatory's placement, stored with the signatory.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Placement {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boxes: Vec<PlacedBox>,
    /// Text in the document below which the signature goes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<String>,
    /// The signatory's position among all signatories, for the default slot.
    #[serde(default)]
    pub slot: usize,
    /// Pages of a document where the default slot goes instead of its last page (a merged
    /// document: the last page of its own part and of each part that asked for a placeholder).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slot_pages: Vec<SlotPages>,
}

/// The pages (1-based) of the document at `document` that carry the default slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlotPages {
    pub document: usize,
    pub pages: Vec<u32>,
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

fn page_selection(page: &PageRef) -> Result<PageSelection, String> {
    match page {
        PageRef::Number(0) => Err("page numbers start at 1".into()),
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
                .ok_or_else(|| format!("page {word:?} is not a page number, first, last or all")),
        },
    }
}

/// Moves the boxes of the first document (`index` 0) of `documents` down by `by` pages, for
/// pages put in front of it after the placement was written (a stamp certificate): numbered
/// pages and `first` keep pointing at the same page of the document; `last` and `all` need no
/// change. A box meant for every document becomes one box per document, so that only the
/// first one's moves.
pub fn shift_first_document(placement: &mut Placement, by: u32, documents: usize) {
    let mut boxes = Vec::with_capacity(placement.boxes.len());
    for b in placement.boxes.drain(..) {
        match b.document {
            None if documents > 1 => {
                boxes.extend((0..documents).map(|d| PlacedBox { document: Some(d), ..b.clone() }));
            }
            _ => boxes.push(b),
        }
    }
    for b in boxes.iter_mut().filter(|b| b.document.is_none_or(|d| d == 0)) {
        let shifted = match &b.page {
            PageRef::Number(n) => Some(n.saturating_add(by)),
            PageRef::Word(word) => match word.trim().to_ascii_lowercase().as_str() {
                "first" => Some(1 + by),
                other => other.parse::<u32>().ok().map(|n| n.saturating_add(by)),
            },
        };
        if let Some(page) = shifted {
            b.page = PageRef::Number(page);
        }
    }
    placement.boxes = boxes;
    for pages in placement.slot_pages.iter_mut().filter(|p| p.document == 0) {
        pages.pages.iter_mut().for_each(|p| *p = p.saturating_add(by));
    }
}

/// Checks a placement before it is stored: pages must be readable and boxes positive.
pub fn check(placement: &Placement) -> Result<(), String> {
    for b in &placement.boxes {
        page_selection(&b.page)?;
        let values = [b.left, b.top, b.width, b.height];
        if values.iter().any(|v| !v.is_finite()) || b.left < 0.0 || b.top < 0.0 || b.width < 10.0 || b.height < 10.0 {
            return Err("a signature box needs left, top >= 0 and width, height >= 10 points".into());
        }
    }
    if let Some(anchor) = &placement.anchor
        && (anchor.trim().is_empty() || anchor.chars().count() > 200)
    {
        return Err("an anchor text must be 1 to 200 characters".into());
    }
    Ok(())
}

/// The pages, the box on each, or explicit (page, box) pairs: the parts of a [`Visible`].
pub type Boxes = (PageSelection, BoxSpec, Option<Vec<(u32, BoxSpec)>>);

/// Where the boxes go on the document at `index` (the anchor is looked up in `pdf`).
pub fn boxes_for(placement: &Placement, index: usize, pdf: &[u8]) -> Result<Boxes, String> {
    let mine: Vec<&PlacedBox> = placement.boxes.iter().filter(|b| b.document.is_none_or(|d| d == index)).collect();
    if let [single] = mine.as_slice() {
        let rect = BoxSpec::Custom { left: single.left, top: single.top, width: single.width, height: single.height };
        return Ok((page_selection(&single.page)?, rect, None));
    }
    if !mine.is_empty() {
        let count = signet_pdf::inspect(pdf).map_err(|e| e.to_string())?.pages as u32;
        let mut pairs = Vec::new();
        for b in mine {
            let rect = BoxSpec::Custom { left: b.left, top: b.top, width: b.width, height: b.height };
            let pages: Vec<u32> = match page_selection(&b.page)? {
                PageSelection::List(list) => list,
                PageSelection::First => vec![1],
                PageSelection::Last => vec![count],
                _ => (1..=count).collect(),
            };
            pairs.extend(pages.into_iter().map(|p| (p, rect)));
        }
        return Ok((PageSelection::First, BoxSpec::Named(Position::BottomRight), Some(pairs)));
    }
    if let Some(anchor) = &placement.anchor
        && let Some(hit) = signet_pdf::text::find_text(pdf, anchor).map_err(|e| e.to_string())?
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

/// The visible signature of a signatory on the document at `index`.
pub fn visible(placement: &Placement, index: usize, pdf: &[u8], mark: &Mark) -> Result<Visible, String> {
    let (pages, rect, page_boxes) = boxes_for(placement, index, pdf)?;
    let (typed_name, name_style, image) = match mark {
        Mark::Typed { name, style } => (Some(name.clone()), *style, None),
        Mark::Image(bytes) => (None, signet_signing::NameStyle::Plain, Some(bytes.clone())),
    };
    Ok(Visible { pages, rect, page_boxes, typed_name, name_style, image, show_details: true })
}

#[cfg(test)]
mod tests {
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
