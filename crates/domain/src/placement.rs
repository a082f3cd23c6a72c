//! Where a signatory's signature and fields go, as integrators and templates write it and as
//! it is stored with the signatory: explicit boxes, fields filled in with the signature, a
//! text anchor, or a default slot. The rules that read the PDF or lay out the signature are in
//! `signet-services` (`workflows::placement`); these are the data, shared by the store (which
//! keeps it as JSON in this serde shape, so existing rows must keep reading) and every face.

use serde::{Deserialize, Serialize};

use crate::fields::FieldKind;

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

/// A box the signatory fills in besides their signature (initials, date, text, ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlacedField {
    pub kind: FieldKind,
    #[serde(flatten)]
    pub at: PlacedBox,
    /// What the signer page calls it; the kind's own name when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// A text that must be typed, a box that must be ticked.
    #[serde(default)]
    pub required: bool,
    /// The sender's value of a text or date field (a bulk send's row): shown as it is, the
    /// signer does not type it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl PlacedField {
    pub fn label(&self) -> &str {
        self.label.as_deref().filter(|l| !l.trim().is_empty()).unwrap_or(self.kind.default_label())
    }

    /// Whether the signer fills this field in (a text or checkbox the sender gave no value).
    pub fn asks_the_signer(&self) -> bool {
        self.kind.is_input() && self.value.is_none()
    }
}

/// What the signer typed or ticked, by the field's position in [`Placement::fields`].
pub type FieldInputs = std::collections::BTreeMap<usize, String>;

/// The key under which a signature's recorded detail carries the signer's [`FieldInputs`].
pub const INPUTS_DETAIL_KEY: &str = "fieldInputs";

/// The signer's inputs recorded in a signature's detail (none when absent or unreadable).
pub fn inputs_of(detail: &serde_json::Value) -> FieldInputs {
    detail.get(INPUTS_DETAIL_KEY).and_then(|v| serde_json::from_value(v.clone()).ok()).unwrap_or_default()
}

/// A signatory's placement, stored with the signatory.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Placement {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boxes: Vec<PlacedBox>,
    /// Initials, date, name, e-mail, text and checkbox fields, filled in with the signature.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<PlacedField>,
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

impl Placement {
    /// A placement as stored with its signatory. Signet wrote it from this type; text that
    /// does not read places the signature in the default slot, as it always has.
    pub fn from_stored(text: &str) -> Placement {
        serde_json::from_str(text).unwrap_or_default()
    }
}

/// The store's row mapping reads the column through this (see [`Placement::from_stored`]).
impl From<String> for Placement {
    fn from(text: String) -> Self {
        Placement::from_stored(&text)
    }
}

/// The pages (1-based) of the document at `document` that carry the default slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlotPages {
    pub document: usize,
    pub pages: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_stored_shape_is_kept() {
        let stored = json!({
            "boxes": [{"document": 1, "page": "last", "left": 10.0, "top": 20.0, "width": 100.0, "height": 40.0}],
            "fields": [{"kind": "date", "page": 2, "left": 1.0, "top": 2.0, "width": 30.0, "height": 12.0,
                        "label": "Dated", "required": false, "value": "1 Jan"}],
            "anchor": "Signed by",
            "slot": 2,
            "slotPages": [{"document": 0, "pages": [3, 5]}]
        });
        let placement = Placement::from_stored(&stored.to_string());
        assert_eq!(placement.boxes[0].page, PageRef::Word("last".into()));
        assert_eq!(placement.fields[0].at.page, PageRef::Number(2));
        assert_eq!(placement.slot_pages, [SlotPages { document: 0, pages: vec![3, 5] }]);
        assert_eq!(serde_json::to_value(&placement).expect("json"), stored, "written back as read");
        assert_eq!(serde_json::to_string(&Placement::default()).expect("json"), r#"{"slot":0}"#);
    }

    #[test]
    fn text_that_does_not_read_is_the_default_slot() {
        assert_eq!(Placement::from_stored("not json"), Placement::default());
        assert_eq!(Placement::from(String::from("{}")), Placement::default());
        assert_eq!(inputs_of(&json!({INPUTS_DETAIL_KEY: {"1": "yes"}})), FieldInputs::from([(1, "yes".into())]));
        assert_eq!(inputs_of(&json!({INPUTS_DETAIL_KEY: 7})), FieldInputs::new());
    }
}
