//! The guided signer page's views: each document's pages with the places that ask for the
//! signer drawn over them (the signature's boxes, the fields the signer fills in, the fields
//! Signet fills in), and what the signer had typed, drawn or uploaded when a form came back
//! refused. The places come from `signet_services::workflows::guide` (where the seal puts
//! them); this module only shapes them for the template.

use std::collections::{BTreeMap, HashSet};

use signet_domain::fields::FieldKind;
use signet_domain::placement::Placement;
use signet_services::workflows::guide::{DocumentSpots, Spot, SpotKind};

use crate::form::Submission;

/// A document on the signer page: its link, and the pages shown (as images when previews
/// can be rendered, else only the pages that carry places, as lists).
pub struct DocumentView {
    pub id: i64,
    pub name: String,
    pub pages: i64,
    pub sheets: Vec<SheetView>,
}

/// One page: its number, whether its image is shown, its width / height, its places.
pub struct SheetView {
    pub page: u32,
    pub image: bool,
    pub ratio: String,
    pub spots: Vec<SpotView>,
}

/// One place on a page: `place` is "left top width height" in percent of the page.
pub struct SpotView {
    pub kind: &'static str,
    pub label: String,
    pub place: String,
    pub what: SpotWhat,
}

/// What the signer does at a place.
pub enum SpotWhat {
    /// Their signature goes here.
    Sign,
    /// They fill in the field `index` here (its first place), with the value kept so far.
    Input { index: usize, checkbox: bool, required: bool, value: String },
    /// The field `index` again (a field on several pages): it shows what was typed at its first place.
    Again { index: usize },
    /// Signet fills this in (a date, a name) or the sender did.
    ForYou,
}

impl SpotWhat {
    /// Whether the signer acts here (a step of the guide).
    pub fn is_step(&self) -> bool {
        matches!(self, SpotWhat::Sign | SpotWhat::Input { .. })
    }
}

/// What the signer sent when the form came back refused, put back into the form so that
/// nothing typed, drawn or uploaded is lost.
#[derive(Default)]
pub struct Kept {
    pub mode: String,
    pub typed_name: String,
    pub font: String,
    /// The drawing, as the PNG data URL the canvas made.
    pub drawing: String,
    /// The uploaded image, as a data URL (only when small enough to send back).
    pub image: String,
    pub consent: bool,
    pub fields: BTreeMap<usize, String>,
}

/// Largest uploaded image sent back in a refused form (as a data URL, a third larger).
const MAX_KEPT_IMAGE_BYTES: usize = 1024 * 1024;

impl Kept {
    /// The form as the signer left it.
    pub fn from_submission(submission: &Submission) -> Kept {
        let text = |name: &str| submission.field(name).unwrap_or("").to_string();
        let drawing = text("image");
        let image = match &submission.file {
            Some((_, bytes)) if bytes.len() <= MAX_KEPT_IMAGE_BYTES => crate::form::image_data_url(bytes),
            Some(_) => None,
            None => submission
                .field("keptImage")
                .filter(|url| url.len() <= MAX_KEPT_IMAGE_BYTES * 4 / 3 + 32)
                .map(str::to_string),
        };
        Kept {
            mode: text("mode"),
            typed_name: text("typedName"),
            font: text("font"),
            drawing: if drawing.starts_with("data:image/png;base64,") { drawing } else { String::new() },
            image: image.unwrap_or_default(),
            consent: submission.field("consent") == Some("on"),
            fields: super::field_inputs(submission.fields.iter()),
        }
    }
}

/// The sheets of one document: `shown` pages with images (none without previews), and the
/// places of `spots` on them and on any other page.
pub fn sheets(
    spots: &DocumentSpots,
    shown: &[usize],
    placement: &Placement,
    kept: &Kept,
    seen: &mut HashSet<usize>,
) -> Vec<SheetView> {
    let mut pages: Vec<u32> = shown.iter().map(|p| *p as u32).collect();
    for spot in &spots.spots {
        if !pages.contains(&spot.page) {
            pages.push(spot.page);
        }
    }
    pages.sort_unstable();
    pages
        .into_iter()
        .map(|page| SheetView {
            page,
            image: shown.contains(&(page as usize)),
            ratio: ratio(spots.page_sizes.get(page as usize - 1).copied()),
            spots: spots.spots.iter().filter(|s| s.page == page).map(|s| view(s, placement, kept, seen)).collect(),
        })
        .collect()
}

fn ratio(size: Option<(f64, f64)>) -> String {
    match size {
        Some((width, height)) if width > 0.0 && height > 0.0 => format!("{:.4}", width / height),
        _ => String::new(),
    }
}

fn view(spot: &Spot, placement: &Placement, kept: &Kept, seen: &mut HashSet<usize>) -> SpotView {
    let place = format!(
        "{:.3} {:.3} {:.3} {:.3}",
        spot.left * 100.0,
        spot.top * 100.0,
        spot.width * 100.0,
        spot.height * 100.0
    );
    let SpotKind::Field { index, kind } = spot.kind else {
        return SpotView { kind: "signature", label: String::new(), place, what: SpotWhat::Sign };
    };
    let field = placement.fields.get(index);
    let label = field.map(|f| f.label().to_string()).unwrap_or_default();
    let what = match field {
        Some(f) if f.asks_the_signer() && seen.insert(index) => SpotWhat::Input {
            index,
            checkbox: kind == FieldKind::Checkbox,
            required: f.required,
            value: kept.fields.get(&index).cloned().unwrap_or_default(),
        },
        Some(f) if f.asks_the_signer() => SpotWhat::Again { index },
        _ => SpotWhat::ForYou,
    };
    SpotView { kind: kind.as_str(), label, place, what }
}
