//! Filling a document's AcroForm fields before anyone signs, as an incremental update: text
//! fields, checkboxes, radio groups, choice fields (combo and list boxes) and image fields
//! (push buttons, as form designers make them). Every filled widget gets an appearance stream of
//! our own making, so that every viewer shows the value without regenerating anything
//! (`/NeedAppearances` is dropped: a viewer that regenerates appearances changes the document
//! after it is signed). Optionally the form is flattened: each widget's appearance is drawn
//! into its page's content and the fields (but signature fields) are removed.
//!
//! A signed document is refused: filling would change what was signed.

use std::collections::{HashMap, HashSet};

use crate::appearance::{draw_image, draw_shaped};
pub use crate::error::FieldPart;
use crate::error::{Error, Result};
use crate::fonts::{EmbeddedFonts, FontCollector, FontId, ShapedLine};
use crate::images::embed_image;
use crate::object::{Dict, ObjRef, Object, Stream, StreamData, decode_text, format_real};
use crate::reader::Document;
use crate::writer::{ObjSink, Writer};

/// Most values filled in one call.
pub const MAX_FILLS: usize = 500;
/// Longest text value, in characters.
pub const MAX_TEXT_CHARS: usize = 10_000;
/// Largest image for an image field.
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
/// Most fields (terminal and not) walked in a document's form.
pub const MAX_FORM_FIELDS: usize = 10_000;
/// Deepest field hierarchy followed.
const MAX_FIELD_DEPTH: usize = 32;
/// Most widgets one field may have.
const MAX_WIDGETS: usize = 500;
/// Most text lines drawn in one multi-line field or list box.
const MAX_LINES: usize = 200;

// Field flags (ISO 32000-1, tables 226, 228, 230).
const FF_MULTILINE: i64 = 1 << 12;
const FF_RADIO: i64 = 1 << 15;
const FF_PUSHBUTTON: i64 = 1 << 16;
const FF_COMBO: i64 = 1 << 17;
const FF_EDIT: i64 = 1 << 18;
const FF_MULTISELECT: i64 = 1 << 21;
// Annotation flags: hidden, no view.
const F_HIDDEN: i64 = 1 << 1;
const F_NOVIEW: i64 = 1 << 5;

/// The kinds of fields a value can be filled into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Text,
    Checkbox,
    Radio,
    Choice,
    Image,
}

impl FieldKind {
    fn describe(self) -> &'static str {
        match self {
            FieldKind::Text => "a text field: it takes a text value",
            FieldKind::Checkbox => "a checkbox: it takes checked or not",
            FieldKind::Radio => "a radio button group: it takes one of its options, selected or not",
            FieldKind::Choice => "a choice field: it takes one of its options, selected or not",
            FieldKind::Image => "an image field: it takes a PNG or JPEG image",
        }
    }
}

/// One value for one field, as the caller gave it: the field's kind decides which parts are
/// needed and which are refused.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldFill {
    /// Fully qualified field name (`parent.child`).
    pub name: String,
    /// The kind the caller expects; refused when the field is of another kind.
    pub kind: Option<FieldKind>,
    pub value: Option<String>,
    pub checked: Option<bool>,
    pub selected: Option<bool>,
    /// PNG or JPEG.
    pub image: Option<Vec<u8>>,
}

fn field_error(index: usize, part: FieldPart, name: &str, message: impl Into<String>) -> Error {
    Error::FormField { index, part, name: name.to_string(), message: message.into() }
}

/// `document` with the `fills` applied, flattened when asked.
pub fn fill_form(document: &[u8], fills: &[FieldFill], flatten: bool) -> Result<Vec<u8>> {
    if fills.len() > MAX_FILLS {
        return Err(Error::InvalidOptions(format!("more than {MAX_FILLS} field values")));
    }
    let doc = Document::open(document)?;
    if !crate::verify::signatures(document)?.is_empty() {
        return Err(Error::Unsupported("the document is signed; its form cannot be filled".into()));
    }
    doc.check_displayable()?;
    let (catalog_ref, mut catalog) = doc.catalog()?;
    let form = match catalog.get("AcroForm") {
        Some(f) => doc.resolve_dict(f)?,
        None => None,
    };
    let Some(mut form) = form else {
        return match fills.first() {
            Some(first) => Err(field_error(0, FieldPart::Name, &first.name, "the document has no form fields")),
            None => Ok(document.to_vec()),
        };
    };
    let mut fields = collect_fields(&doc, &form)?;
    let planned = plan(&fields, fills)?;
    let mut writer = Writer::new(&doc)?;
    let mut state = Filler::new(&form, &mut writer);
    state.shape_all(&fields, &planned)?;
    let fonts = std::mem::take(&mut state.collector).write(&mut *state.writer)?;
    for (field_index, assignment) in &planned {
        state.apply(*field_index, &mut fields[*field_index], assignment, &fonts)?;
    }
    let new_streams = std::mem::take(&mut state.new_streams);
    for field in &fields {
        if field.changed {
            for (r, dict) in &field.widgets {
                if Some(*r) != field.merged_widget() {
                    writer.put(*r, &Object::Dict(dict.clone()));
                }
            }
            writer.put(field.id, &Object::Dict(field.dict.clone()));
        }
    }
    if flatten {
        flatten_form(&doc, &mut writer, &mut form, &fields, &new_streams)?;
    }
    // Our appearances are complete: a viewer that regenerates them would change the document.
    form.remove("NeedAppearances");
    // An XFA form would be shown instead of the AcroForm values by viewers that know XFA.
    form.remove("XFA");
    match catalog.get("AcroForm") {
        Some(Object::Ref(r)) => writer.put(*r, &Object::Dict(form)),
        _ => {
            catalog.set("AcroForm", Object::Dict(form));
            writer.put(catalog_ref, &Object::Dict(catalog));
        }
    }
    let update = writer.finish(&doc)?;
    let mut out = Vec::with_capacity(document.len() + update.len());
    out.extend_from_slice(document);
    out.extend_from_slice(&update);
    Ok(out)
}

/// The fully qualified names of the document's terminal fields with their kinds (signature
/// fields and push buttons without a use here are listed as `None`).
pub fn form_fields(document: &[u8]) -> Result<Vec<(String, Option<FieldKind>)>> {
    let doc = Document::open(document)?;
    let (_, catalog) = doc.catalog()?;
    let Some(form) = catalog.get("AcroForm").map(|f| doc.resolve_dict(f)).transpose()?.flatten() else {
        return Ok(Vec::new());
    };
    Ok(collect_fields(&doc, &form)?.into_iter().map(|f| (f.name.clone(), f.kind())).collect())
}

// ---------------------------------------------------------------------------------------------
// The form's fields
// ---------------------------------------------------------------------------------------------

/// A terminal field with what it inherits and its widgets.
struct Field {
    name: String,
    id: ObjRef,
    dict: Dict,
    ft: Vec<u8>,
    flags: i64,
    da: Vec<u8>,
    quadding: i64,
    widgets: Vec<(ObjRef, Dict)>,
    /// The top-level field this one descends from (flattening keeps or drops whole trees).
    top: ObjRef,
    changed: bool,
}

impl Field {
    fn kind(&self) -> Option<FieldKind> {
        match self.ft.as_slice() {
            b"Tx" => Some(FieldKind::Text),
            b"Ch" => Some(FieldKind::Choice),
            b"Btn" if self.flags & FF_PUSHBUTTON != 0 => Some(FieldKind::Image),
            b"Btn" if self.flags & FF_RADIO != 0 => Some(FieldKind::Radio),
            b"Btn" => Some(FieldKind::Checkbox),
            _ => None,
        }
    }

    /// The field's own object when it is also its (only) widget.
    fn merged_widget(&self) -> Option<ObjRef> {
        self.widgets.iter().find(|(r, _)| *r == self.id).map(|(r, _)| *r)
    }

    fn widget_dicts_mut(&mut self) -> impl Iterator<Item = &mut Dict> {
        self.widgets.iter_mut().map(|(_, d)| d)
    }
}

#[derive(Clone, Default)]
struct Inherited {
    ft: Option<Vec<u8>>,
    flags: Option<i64>,
    da: Option<Vec<u8>>,
    quadding: Option<i64>,
}

impl Inherited {
    fn from(&self, doc: &Document<'_>, dict: &Dict) -> Result<Inherited> {
        let mut out = self.clone();
        if let Some(ft) = dict.name("FT") {
            out.ft = Some(ft.to_vec());
        }
        if let Some(ff) = resolved_int(doc, dict.get("Ff"))? {
            out.flags = Some(ff);
        }
        if let Some(da) = dict.get("DA").and_then(Object::as_str_bytes) {
            out.da = Some(da.to_vec());
        }
        if let Some(q) = resolved_int(doc, dict.get("Q"))? {
            out.quadding = Some(q);
        }
        Ok(out)
    }
}

fn resolved_int(doc: &Document<'_>, value: Option<&Object>) -> Result<Option<i64>> {
    Ok(match value {
        Some(v) => doc.resolve(v)?.as_int(),
        None => None,
    })
}

/// Walks `/AcroForm /Fields` (bounded in depth and count, each object once) and returns the
/// terminal fields: those whose kids, if any, are widgets rather than fields.
fn collect_fields(doc: &Document<'_>, form: &Dict) -> Result<Vec<Field>> {
    let top = match form.get("Fields") {
        Some(f) => doc.resolve_array(f)?.unwrap_or_default(),
        None => Vec::new(),
    };
    let defaults = Inherited {
        da: form.get("DA").map(|d| doc.resolve(d)).transpose()?.and_then(|d| d.as_str_bytes().map(<[u8]>::to_vec)),
        ..Inherited::default()
    };
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    // (field, parent's name, what it inherits, top-level field, depth)
    let mut stack: Vec<(ObjRef, String, Inherited, Option<ObjRef>, usize)> =
        top.iter().rev().filter_map(Object::as_ref).map(|r| (r, String::new(), defaults.clone(), None, 0)).collect();
    while let Some((r, parent_name, inherited, top, depth)) = stack.pop() {
        if depth > MAX_FIELD_DEPTH {
            return Err(Error::Unsupported(format!("form fields nested more than {MAX_FIELD_DEPTH} deep")));
        }
        if !seen.insert(r.num) {
            continue;
        }
        if seen.len() > MAX_FORM_FIELDS {
            return Err(Error::Unsupported(format!("more than {MAX_FORM_FIELDS} form fields")));
        }
        let Some(dict) = doc.resolve_dict(&Object::Ref(r))? else { continue };
        let top = top.unwrap_or(r);
        let partial = dict.get("T").and_then(Object::as_str_bytes).map(decode_text);
        let name = match (&partial, parent_name.is_empty()) {
            (Some(p), true) => p.clone(),
            (Some(p), false) => format!("{parent_name}.{p}"),
            (None, _) => parent_name.clone(),
        };
        let inherited = inherited.from(doc, &dict)?;
        let kids: Vec<ObjRef> = match dict.get("Kids") {
            Some(k) => doc.resolve_array(k)?.unwrap_or_default().iter().filter_map(Object::as_ref).collect(),
            None => Vec::new(),
        };
        let mut kid_dicts = Vec::with_capacity(kids.len());
        for kid in &kids {
            if let Some(d) = doc.resolve_dict(&Object::Ref(*kid))? {
                kid_dicts.push((*kid, d));
            }
        }
        let has_field_kids = kid_dicts.iter().any(|(_, d)| d.get("T").is_some() || d.get("Kids").is_some());
        if has_field_kids {
            for (kid, _) in kid_dicts.iter().rev() {
                stack.push((*kid, name.clone(), inherited.clone(), Some(top), depth + 1));
            }
            continue;
        }
        let widgets = if kid_dicts.is_empty() { vec![(r, dict.clone())] } else { kid_dicts };
        if widgets.len() > MAX_WIDGETS {
            return Err(Error::Unsupported(format!("a form field with more than {MAX_WIDGETS} widgets")));
        }
        out.push(Field {
            name,
            id: r,
            dict,
            ft: inherited.ft.unwrap_or_default(),
            flags: inherited.flags.unwrap_or(0),
            da: inherited.da.unwrap_or_default(),
            quadding: inherited.quadding.unwrap_or(0),
            widgets,
            top,
            changed: false,
        });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Checking the values against the fields
// ---------------------------------------------------------------------------------------------

/// What goes into one field once the fills are checked.
enum Assignment {
    Text(String),
    Checked(bool),
    /// A radio group's option (its on-state name), or none.
    Radio(Option<Vec<u8>>),
    /// A choice field's selected export values (several for a multi-select list).
    Choice(Vec<String>),
    /// The image and the position of the value that gave it (a bad image is that value's fault).
    Image(Vec<u8>, usize),
}

/// Each fill checked against its field; several fills of one multi-select list box add up.
fn plan(fields: &[Field], fills: &[FieldFill]) -> Result<Vec<(usize, Assignment)>> {
    let by_name: HashMap<&str, usize> = fields.iter().enumerate().map(|(i, f)| (f.name.as_str(), i)).collect();
    let mut planned: Vec<(usize, Assignment)> = Vec::new();
    for (index, fill) in fills.iter().enumerate() {
        let Some(&field_index) = by_name.get(fill.name.as_str()) else {
            return Err(field_error(index, FieldPart::Name, &fill.name, "the document has no field of this name"));
        };
        let field = &fields[field_index];
        let assignment = check_fill(index, fill, field)?;
        match (planned.iter_mut().find(|(i, _)| *i == field_index), assignment) {
            (None, assignment) => planned.push((field_index, assignment)),
            (Some((_, Assignment::Choice(values))), Assignment::Choice(more)) if field.flags & FF_MULTISELECT != 0 => {
                values.extend(more);
            }
            (Some(_), _) => {
                return Err(field_error(index, FieldPart::Name, &fill.name, "the field is given more than once"));
            }
        }
    }
    Ok(planned)
}

fn check_fill(index: usize, fill: &FieldFill, field: &Field) -> Result<Assignment> {
    let name = fill.name.as_str();
    let Some(kind) = field.kind() else {
        let what = if field.ft == b"Sig" { "a signature field: it is signed, not filled" } else { "not fillable" };
        return Err(field_error(index, FieldPart::Name, name, format!("the field is {what}")));
    };
    if let Some(expected) = fill.kind
        && expected != kind
    {
        return Err(field_error(index, FieldPart::Kind, name, format!("the field is {}", kind.describe())));
    }
    let refuse = |part: FieldPart| field_error(index, part, name, format!("the field is {}", kind.describe()));
    // Parts that do not belong to the field's kind are refused rather than ignored.
    let given = [
        (fill.value.is_some(), FieldPart::Value),
        (fill.checked.is_some(), FieldPart::Checked),
        (fill.selected.is_some(), FieldPart::Selected),
        (fill.image.is_some(), FieldPart::Image),
    ];
    let takes: &[FieldPart] = match kind {
        FieldKind::Text => &[FieldPart::Value],
        FieldKind::Checkbox => &[FieldPart::Checked],
        FieldKind::Radio | FieldKind::Choice => &[FieldPart::Value, FieldPart::Selected],
        FieldKind::Image => &[FieldPart::Image],
    };
    if let Some((_, part)) = given.iter().find(|(is_given, part)| *is_given && !takes.contains(part)) {
        return Err(refuse(*part));
    }
    match kind {
        FieldKind::Text => {
            let value = fill.value.clone().ok_or_else(|| refuse(FieldPart::Value))?;
            check_text(index, name, &value, field)?;
            Ok(Assignment::Text(value))
        }
        FieldKind::Checkbox => Ok(Assignment::Checked(fill.checked.ok_or_else(|| refuse(FieldPart::Checked))?)),
        FieldKind::Radio => {
            let value = fill.value.as_deref().ok_or_else(|| refuse(FieldPart::Value))?;
            let options = radio_options(field);
            let Some(state) = options.iter().find(|(state, export)| export == value || decode_text(state) == value)
            else {
                let names: Vec<&str> = options.iter().map(|(_, e)| e.as_str()).collect();
                return Err(field_error(
                    index,
                    FieldPart::Value,
                    name,
                    format!("not an option; the options are {names:?}"),
                ));
            };
            Ok(Assignment::Radio(fill.selected.unwrap_or(true).then(|| state.0.clone())))
        }
        FieldKind::Choice => {
            let value = fill.value.as_deref().ok_or_else(|| refuse(FieldPart::Value))?;
            check_text(index, name, value, field)?;
            if !fill.selected.unwrap_or(true) {
                return Ok(Assignment::Choice(Vec::new()));
            }
            let options = choice_options(&field.dict);
            match options.iter().find(|(export, display)| export == value || display == value) {
                Some((export, _)) => Ok(Assignment::Choice(vec![export.clone()])),
                // An editable combo box takes any text.
                None if field.flags & FF_COMBO != 0 && field.flags & FF_EDIT != 0 => {
                    Ok(Assignment::Choice(vec![value.to_string()]))
                }
                None => {
                    let names: Vec<&str> = options.iter().map(|(_, d)| d.as_str()).collect();
                    Err(field_error(index, FieldPart::Value, name, format!("not an option; the options are {names:?}")))
                }
            }
        }
        FieldKind::Image => {
            let image = fill.image.clone().ok_or_else(|| refuse(FieldPart::Image))?;
            if image.len() > MAX_IMAGE_BYTES {
                return Err(field_error(index, FieldPart::Image, name, format!("larger than {MAX_IMAGE_BYTES} bytes")));
            }
            if !image.starts_with(b"\x89PNG\r\n\x1a\n") && !image.starts_with(&[0xff, 0xd8, 0xff]) {
                return Err(field_error(index, FieldPart::Image, name, "must be a PNG or JPEG image"));
            }
            Ok(Assignment::Image(image, index))
        }
    }
}

fn check_text(index: usize, name: &str, value: &str, field: &Field) -> Result<()> {
    let chars = value.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(field_error(index, FieldPart::Value, name, format!("longer than {MAX_TEXT_CHARS} characters")));
    }
    if let Some(max) = field.dict.int("MaxLen")
        && chars as i64 > max
    {
        return Err(field_error(index, FieldPart::Value, name, format!("longer than the field's {max} characters")));
    }
    if value.chars().any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t') {
        return Err(field_error(index, FieldPart::Value, name, "contains control characters"));
    }
    Ok(())
}

/// A radio group's options: each widget's on-state name, with its export value (from the
/// field's `/Opt`, by widget position, else the state name).
fn radio_options(field: &Field) -> Vec<(Vec<u8>, String)> {
    let opt: Vec<String> = field
        .dict
        .get("Opt")
        .and_then(Object::as_array)
        .map(|a| a.iter().map(|o| o.as_str_bytes().map(decode_text).unwrap_or_default()).collect())
        .unwrap_or_default();
    let mut out: Vec<(Vec<u8>, String)> = Vec::new();
    for (i, (_, widget)) in field.widgets.iter().enumerate() {
        if let Some(state) = on_state(widget) {
            let export = opt.get(i).cloned().unwrap_or_else(|| decode_text(&state));
            if !out.iter().any(|(s, _)| *s == state) {
                out.push((state, export));
            }
        }
    }
    out
}

/// A choice field's options as (export value, display text).
fn choice_options(dict: &Dict) -> Vec<(String, String)> {
    let Some(options) = dict.get("Opt").and_then(Object::as_array) else { return Vec::new() };
    options
        .iter()
        .filter_map(|o| match o {
            Object::Str { bytes, .. } => Some((decode_text(bytes), decode_text(bytes))),
            Object::Array(pair) => {
                match (pair.first().and_then(Object::as_str_bytes), pair.get(1).and_then(Object::as_str_bytes)) {
                    (Some(e), Some(d)) => Some((decode_text(e), decode_text(d))),
                    _ => None,
                }
            }
            _ => None,
        })
        .collect()
}

/// The widget's "on" appearance state: a key of `/AP /N` other than `/Off`.
fn on_state(widget: &Dict) -> Option<Vec<u8>> {
    let normal = widget.get("AP")?.as_dict()?.get("N")?.as_dict()?;
    normal.0.iter().map(|(k, _)| k.clone()).find(|k| k.as_slice() != b"Off")
}

// ---------------------------------------------------------------------------------------------
// Writing values and appearances
// ---------------------------------------------------------------------------------------------

/// Text to draw in a widget, shaped before the fonts are written.
struct TextBox {
    lines: Vec<ShapedLine>,
    /// Lines that are selected (list boxes), drawn on a highlight.
    highlighted: Vec<bool>,
}

struct Filler<'a> {
    writer: &'a mut Writer,
    collector: FontCollector,
    /// Shaped text per (field index, widget index).
    text: HashMap<(usize, usize), TextBox>,
    /// Appearance streams we created, by reference, with their dictionaries (for flattening).
    new_streams: HashMap<ObjRef, Dict>,
    default_da: Vec<u8>,
}

impl<'a> Filler<'a> {
    fn new(form: &Dict, writer: &'a mut Writer) -> Self {
        let default_da = form.get("DA").and_then(Object::as_str_bytes).map(<[u8]>::to_vec).unwrap_or_default();
        Filler {
            writer,
            collector: FontCollector::default(),
            text: HashMap::new(),
            new_streams: HashMap::new(),
            default_da,
        }
    }

    /// Shapes every text that will be drawn, so that one font subset serves all fields.
    fn shape_all(&mut self, fields: &[Field], planned: &[(usize, Assignment)]) -> Result<()> {
        for (field_index, assignment) in planned {
            let field = &fields[*field_index];
            let (texts, highlighted): (Vec<String>, Vec<bool>) = match assignment {
                Assignment::Text(value) => (text_lines(value, field.flags & FF_MULTILINE != 0), Vec::new()),
                Assignment::Choice(values) if field.flags & FF_COMBO != 0 => {
                    let shown = values.first().map(|v| display_of(&field.dict, v)).unwrap_or_default();
                    (vec![shown], Vec::new())
                }
                Assignment::Choice(values) => {
                    let options = choice_options(&field.dict);
                    let marks = options.iter().map(|(e, _)| values.contains(e)).collect();
                    (options.into_iter().map(|(_, d)| d).collect(), marks)
                }
                _ => continue,
            };
            for (widget_index, _) in field.widgets.iter().enumerate() {
                let mut lines = Vec::new();
                for text in texts.iter().take(MAX_LINES) {
                    lines.push(self.collector.shape(text, FontId::Plain)?);
                }
                self.text.insert((*field_index, widget_index), TextBox { lines, highlighted: highlighted.clone() });
            }
        }
        Ok(())
    }

    fn apply(
        &mut self,
        field_index: usize,
        field: &mut Field,
        assignment: &Assignment,
        fonts: &EmbeddedFonts,
    ) -> Result<()> {
        field.changed = true;
        match assignment {
            Assignment::Text(value) => {
                field.dict.set("V", Object::text(value));
                self.draw_text_widgets(field, field_index, fonts)?;
            }
            Assignment::Choice(values) => {
                let v = match values.as_slice() {
                    [] => Object::Null,
                    [one] => Object::text(one),
                    many => Object::Array(many.iter().map(|v| Object::text(v)).collect()),
                };
                field.dict.set("V", v);
                let options = choice_options(&field.dict);
                let indices: Vec<Object> = options
                    .iter()
                    .enumerate()
                    .filter(|(_, (e, _))| values.contains(e))
                    .map(|(i, _)| Object::Int(i as i64))
                    .collect();
                if indices.is_empty() {
                    field.dict.remove("I");
                } else {
                    field.dict.set("I", Object::Array(indices));
                }
                self.draw_text_widgets(field, field_index, fonts)?;
            }
            Assignment::Checked(on) => self.set_checkbox(field, *on)?,
            Assignment::Radio(state) => set_radio(field, state.as_deref()),
            Assignment::Image(bytes, index) => self.draw_image_widgets(field, bytes, *index)?,
        }
        sync_merged(field);
        Ok(())
    }

    fn draw_text_widgets(&mut self, field: &mut Field, field_index: usize, fonts: &EmbeddedFonts) -> Result<()> {
        let da = if field.da.is_empty() { self.default_da.clone() } else { field.da.clone() };
        let style = TextStyle::from_da(
            &da,
            field.quadding,
            field.flags & FF_MULTILINE != 0 || field.flags & FF_COMBO == 0 && field.ft == b"Ch",
        );
        for (widget_index, (_, widget)) in field.widgets.iter_mut().enumerate() {
            let Some(text) = self.text.get(&(field_index, widget_index)) else { continue };
            let frame = Frame::of(widget);
            let mut content = frame.background();
            content.push_str("/Tx BMC\nq\n");
            content.push_str(&format!(
                "1 1 {} {} re W n\n",
                format_real(frame.width - 2.0),
                format_real(frame.height - 2.0)
            ));
            style.draw(&mut content, text, fonts, frame.width, frame.height);
            content.push_str("Q\nEMC\n");
            let mut resources = Dict::new();
            resources.set("Font", Object::Dict(fonts.resources()));
            let stream = self.appearance(&frame, content, resources);
            set_normal_appearance(widget, Object::Ref(stream));
        }
        Ok(())
    }

    fn draw_image_widgets(&mut self, field: &mut Field, bytes: &[u8], index: usize) -> Result<()> {
        let image = embed_image(bytes, &mut *self.writer).map_err(|e| match e {
            Error::Image(message) => field_error(index, FieldPart::Image, &field.name, message),
            other => other,
        })?;
        for widget in field.widget_dicts_mut() {
            let frame = Frame::of(widget);
            let mut content = frame.background();
            let pad = 1.0;
            draw_image(&mut content, &image, [pad, pad, frame.width - 2.0 * pad, frame.height - 2.0 * pad]);
            let mut xobjects = Dict::new();
            xobjects.set("Img", Object::Ref(image.xobject));
            let mut resources = Dict::new();
            resources.set("XObject", Object::Dict(xobjects));
            let stream = self.appearance(&frame, content, resources);
            set_normal_appearance(widget, Object::Ref(stream));
        }
        Ok(())
    }

    /// A checkbox: `/V` and every widget's `/AS` to its on state (or `/Off`); a widget without
    /// appearance states gets our own (`/Yes` with a check mark, `/Off` empty).
    fn set_checkbox(&mut self, field: &mut Field, on: bool) -> Result<()> {
        let mut value = b"Off".to_vec();
        for widget in field.widget_dicts_mut() {
            let state = match on_state(widget) {
                Some(state) => state,
                None => {
                    self.checkbox_states(widget);
                    b"Yes".to_vec()
                }
            };
            if on && value == b"Off" {
                value = state.clone();
            }
            widget.set("AS", Object::Name(if on { state } else { b"Off".to_vec() }));
        }
        field.dict.set("V", Object::Name(value));
        Ok(())
    }

    fn checkbox_states(&mut self, widget: &mut Dict) {
        let frame = Frame::of(widget);
        let (w, h) = (frame.width, frame.height);
        let check = format!(
            "{}q 0 g 0 G {} w 1 J 1 j {} {} m {} {} l {} {} l S Q\n",
            frame.background(),
            format_real((w.min(h) * 0.1).max(0.5)),
            format_real(w * 0.2),
            format_real(h * 0.5),
            format_real(w * 0.42),
            format_real(h * 0.25),
            format_real(w * 0.8),
            format_real(h * 0.78)
        );
        let yes = self.appearance(&frame, check, Dict::new());
        let off = self.appearance(&frame, frame.background(), Dict::new());
        let mut states = Dict::new();
        states.set("Yes", Object::Ref(yes));
        states.set("Off", Object::Ref(off));
        let mut ap = Dict::new();
        ap.set("N", Object::Dict(states));
        widget.set("AP", Object::Dict(ap));
    }

    /// Writes a form XObject of the widget's size (rotated as its `/MK /R` says).
    fn appearance(&mut self, frame: &Frame, content: String, resources: Dict) -> ObjRef {
        let mut d = Dict::new();
        d.set("Type", Object::name("XObject"));
        d.set("Subtype", Object::name("Form"));
        d.set(
            "BBox",
            Object::Array(vec![Object::Int(0), Object::Int(0), Object::Real(frame.width), Object::Real(frame.height)]),
        );
        if let Some(matrix) = frame.matrix() {
            d.set("Matrix", Object::Array(matrix.iter().map(|v| Object::Real(*v)).collect()));
        }
        d.set("Resources", Object::Dict(resources));
        d.set("Filter", Object::name("FlateDecode"));
        let data = crate::filters::flate_encode(content.as_bytes());
        let r = self.writer.add(Object::Stream(Stream { dict: d.clone(), data: StreamData::Owned(data) }));
        self.new_streams.insert(r, d);
        r
    }
}

/// A radio group: `/V` to the option, each widget's `/AS` to it where it is the widget's own
/// on state, else `/Off`.
fn set_radio(field: &mut Field, state: Option<&[u8]>) {
    for widget in field.widget_dicts_mut() {
        let mine = on_state(widget);
        let on = state.is_some() && mine.as_deref() == state;
        widget.set("AS", Object::Name(if on { mine.unwrap_or_default() } else { b"Off".to_vec() }));
    }
    field.dict.set("V", Object::Name(state.map_or_else(|| b"Off".to_vec(), <[u8]>::to_vec)));
}

/// When the field is its own widget, the widget's changes (`/AS`, `/AP`) belong in the field's
/// dictionary, which is the one written.
fn sync_merged(field: &mut Field) {
    if let Some(merged) = field.merged_widget()
        && let Some((_, widget)) = field.widgets.iter().find(|(r, _)| *r == merged)
    {
        let widget = widget.clone();
        for key in ["AS", "AP"] {
            match widget.get(key) {
                Some(v) => field.dict.set(key, v.clone()),
                None => {
                    field.dict.remove(key);
                }
            }
        }
        if let Some((_, w)) = field.widgets.iter_mut().find(|(r, _)| *r == merged) {
            *w = field.dict.clone();
        }
    }
}

fn set_normal_appearance(widget: &mut Dict, stream: Object) {
    let mut ap = Dict::new();
    ap.set("N", stream);
    widget.set("AP", Object::Dict(ap));
    // An appearance state only means something for buttons.
    widget.remove("AS");
}

/// The display text of a choice's export value.
fn display_of(dict: &Dict, export: &str) -> String {
    choice_options(dict).into_iter().find(|(e, _)| e == export).map_or_else(|| export.to_string(), |(_, d)| d)
}

/// A value's lines: a single-line field shows it on one line.
fn text_lines(value: &str, multiline: bool) -> Vec<String> {
    if !multiline {
        return vec![value.replace(['\r', '\n', '\t'], " ")];
    }
    value.replace("\r\n", "\n").replace('\r', "\n").split('\n').map(|l| l.replace('\t', " ")).collect()
}

/// A widget's box: its size, upright (as `/MK /R` turns it), and its border and background.
struct Frame {
    width: f64,
    height: f64,
    rotation: i64,
    background: Option<String>,
    border: Option<String>,
}

impl Frame {
    fn of(widget: &Dict) -> Frame {
        let rect: Vec<f64> = widget
            .get("Rect")
            .and_then(Object::as_array)
            .map(|a| a.iter().filter_map(Object::as_number).collect())
            .unwrap_or_default();
        let (w, h) = match rect.as_slice() {
            [x0, y0, x1, y1] => ((x1 - x0).abs(), (y1 - y0).abs()),
            _ => (0.0, 0.0),
        };
        let mk = widget.get("MK").and_then(Object::as_dict);
        let rotation = mk.and_then(|m| m.int("R")).unwrap_or(0).rem_euclid(360);
        let (width, height) = if rotation == 90 || rotation == 270 { (h, w) } else { (w, h) };
        let color = |key: &str, fill: bool| {
            mk.and_then(|m| m.get(key)).and_then(Object::as_array).and_then(|c| colour_operator(c, fill))
        };
        Frame {
            width: width.max(1.0),
            height: height.max(1.0),
            rotation,
            background: color("BG", true),
            border: color("BC", false),
        }
    }

    fn matrix(&self) -> Option<[f64; 6]> {
        match self.rotation {
            90 => Some([0.0, 1.0, -1.0, 0.0, 0.0, 0.0]),
            180 => Some([-1.0, 0.0, 0.0, -1.0, 0.0, 0.0]),
            270 => Some([0.0, -1.0, 1.0, 0.0, 0.0, 0.0]),
            _ => None,
        }
    }

    /// The widget's background and border, as its `/MK` asks.
    fn background(&self) -> String {
        let mut s = String::new();
        let (w, h) = (format_real(self.width), format_real(self.height));
        if let Some(bg) = &self.background {
            s.push_str(&format!("q {bg} 0 0 {w} {h} re f Q\n"));
        }
        if let Some(bc) = &self.border {
            s.push_str(&format!(
                "q {bc} 1 w 0.5 0.5 {} {} re S Q\n",
                format_real(self.width - 1.0),
                format_real(self.height - 1.0)
            ));
        }
        s
    }
}

fn colour_operator(components: &[Object], fill: bool) -> Option<String> {
    let c: Vec<String> = components.iter().filter_map(Object::as_number).map(format_real).collect();
    let op = match (c.len(), fill) {
        (1, true) => "g",
        (1, false) => "G",
        (3, true) => "rg",
        (3, false) => "RG",
        (4, true) => "k",
        (4, false) => "K",
        _ => return None,
    };
    Some(format!("{} {op}", c.join(" ")))
}

/// How text is drawn in a field: size (0 = fit), colour, alignment, one line or several.
struct TextStyle {
    size: f64,
    colour: String,
    quadding: i64,
    multiline: bool,
}

const AUTO_MAX_SIZE: f64 = 12.0;
const MIN_SIZE: f64 = 4.0;
const PAD: f64 = 2.0;

impl TextStyle {
    /// Reads the font size (`n Tf`) and colour (`g`, `rg`, `k`) from a default appearance
    /// string; the font itself is ours (embedded, with every script), not the form's.
    fn from_da(da: &[u8], quadding: i64, multiline: bool) -> TextStyle {
        let text = String::from_utf8_lossy(da);
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let mut size = 0.0;
        let mut colour = "0 g".to_string();
        for (i, token) in tokens.iter().enumerate() {
            let operands = |n: usize| -> Option<Vec<f64>> {
                let start = i.checked_sub(n)?;
                tokens[start..i].iter().map(|t| t.parse::<f64>().ok().filter(|v| v.is_finite())).collect()
            };
            match *token {
                "Tf" => size = operands(1).and_then(|v| v.first().copied()).unwrap_or(0.0),
                "g" | "rg" | "k" => {
                    let n = match *token {
                        "g" => 1,
                        "rg" => 3,
                        _ => 4,
                    };
                    if let Some(values) = operands(n) {
                        let values: Vec<String> = values.into_iter().map(|v| format_real(v.clamp(0.0, 1.0))).collect();
                        colour = format!("{} {token}", values.join(" "));
                    }
                }
                _ => {}
            }
        }
        TextStyle { size: if size > 0.0 && size < 300.0 { size } else { 0.0 }, colour, quadding, multiline }
    }

    fn draw(&self, s: &mut String, text: &TextBox, fonts: &EmbeddedFonts, width: f64, height: f64) {
        let inner_w = (width - 2.0 * PAD).max(1.0);
        let widest = text.lines.iter().map(ShapedLine::width_per_point).fold(0.01, f64::max);
        if self.multiline || text.lines.len() > 1 {
            let size =
                if self.size > 0.0 { self.size } else { (inner_w / widest).clamp(MIN_SIZE, AUTO_MAX_SIZE).min(10.0) };
            let line_h = size * 1.15;
            let mut y = height - PAD - size;
            for (i, line) in self.wrapped(text, size, inner_w).iter().enumerate() {
                if y < -size {
                    break;
                }
                if text.highlighted.get(i).copied().unwrap_or(false) {
                    s.push_str(&format!(
                        "q 0.6 0.75 0.85 rg 1 {} {} {} re f Q\n",
                        format_real(y - size * 0.25),
                        format_real(width - 2.0),
                        format_real(line_h)
                    ));
                }
                self.draw_one(s, line, fonts, size, inner_w, y);
                y -= line_h;
            }
            return;
        }
        let size = if self.size > 0.0 {
            self.size
        } else {
            ((height - 2.0 * PAD) / 1.2).min(AUTO_MAX_SIZE).min(inner_w / widest).max(MIN_SIZE)
        };
        let y = (height - size * 0.72) / 2.0;
        if let Some(line) = text.lines.first() {
            self.draw_one(s, line, fonts, size, inner_w, y);
        }
    }

    /// Lines as given; a line wider than the box is cut at glyphs into several (the values
    /// were shaped as whole lines, so words are not re-shaped here).
    fn wrapped(&self, text: &TextBox, size: f64, inner_w: f64) -> Vec<ShapedLine> {
        let mut out = Vec::new();
        for line in &text.lines {
            let mut current = ShapedLine::default();
            let mut used = 0.0;
            for run in &line.runs {
                let mut piece =
                    crate::fonts::Run { font: run.font, glyphs: Vec::new(), units_per_em: run.units_per_em };
                for g in &run.glyphs {
                    let advance = g.x_advance as f64 / run.units_per_em * size;
                    if used + advance > inner_w && (used > 0.0) {
                        if !piece.glyphs.is_empty() {
                            current.runs.push(std::mem::replace(
                                &mut piece,
                                crate::fonts::Run {
                                    font: run.font,
                                    glyphs: Vec::new(),
                                    units_per_em: run.units_per_em,
                                },
                            ));
                        }
                        out.push(std::mem::take(&mut current));
                        used = 0.0;
                    }
                    piece.glyphs.push(*g);
                    used += advance;
                }
                if !piece.glyphs.is_empty() {
                    current.runs.push(piece);
                }
            }
            out.push(current);
            if out.len() >= MAX_LINES {
                break;
            }
        }
        out
    }

    fn draw_one(&self, s: &mut String, line: &ShapedLine, fonts: &EmbeddedFonts, size: f64, inner_w: f64, y: f64) {
        let w = line.width_per_point() * size;
        let x = match self.quadding {
            1 => PAD + (inner_w - w) / 2.0,
            2 => PAD + inner_w - w,
            _ => PAD,
        };
        s.push_str(&self.colour);
        s.push('\n');
        draw_shaped(fonts, s, line, x.max(PAD), y, size);
    }
}

// ---------------------------------------------------------------------------------------------
// Flattening
// ---------------------------------------------------------------------------------------------

/// Draws every visible widget of every field but signature fields into its page and removes
/// those widgets from the pages and their fields from the form.
fn flatten_form(
    doc: &Document<'_>,
    writer: &mut Writer,
    form: &mut Dict,
    fields: &[Field],
    new_streams: &HashMap<ObjRef, Dict>,
) -> Result<()> {
    let mut flattened: HashMap<ObjRef, &Dict> = HashMap::new();
    let mut kept_tops = HashSet::new();
    for field in fields {
        if field.ft == b"Sig" {
            kept_tops.insert(field.top);
            continue;
        }
        for (r, dict) in &field.widgets {
            flattened.insert(*r, dict);
        }
    }
    for page in doc.pages()? {
        let annots = match page.dict.get("Annots") {
            Some(a) => doc.resolve_array(a)?.unwrap_or_default(),
            None => continue,
        };
        let mut kept = Vec::with_capacity(annots.len());
        let mut drawings = String::new();
        let mut xobjects = Dict::new();
        for annot in annots {
            let Some(widget) = annot.as_ref().and_then(|r| flattened.get(&r).copied()) else {
                kept.push(annot);
                continue;
            };
            if let Some((stream, placement)) = widget_drawing(doc, widget, new_streams)? {
                let name = format!("SgnFlat{}", xobjects.0.len());
                drawings.push_str(&format!("q {placement} cm /{name} Do Q\n"));
                xobjects.set(&name, Object::Ref(stream));
            }
        }
        if kept.len()
            == page.dict.get("Annots").map(|a| doc.resolve_array(a)).transpose()?.flatten().map_or(0, |a| a.len())
        {
            continue;
        }
        let mut dict = page.dict.clone();
        dict.set("Annots", Object::Array(kept));
        if !drawings.is_empty() {
            add_page_drawing(doc, writer, &page, &mut dict, drawings, xobjects)?;
        }
        writer.put(page.id, &Object::Dict(dict));
    }
    let top: Vec<Object> = match form.get("Fields") {
        Some(f) => doc.resolve_array(f)?.unwrap_or_default(),
        None => Vec::new(),
    };
    let remaining: Vec<Object> =
        top.into_iter().filter(|f| f.as_ref().is_some_and(|r| kept_tops.contains(&r))).collect();
    form.set("Fields", Object::Array(remaining));
    Ok(())
}

/// A widget's normal appearance (the state `/AS` names, for buttons) and the matrix that maps
/// it onto the widget's rectangle; nothing for a hidden widget or one without an appearance.
fn widget_drawing(
    doc: &Document<'_>,
    widget: &Dict,
    new_streams: &HashMap<ObjRef, Dict>,
) -> Result<Option<(ObjRef, String)>> {
    let flags = widget.int("F").unwrap_or(0);
    if flags & (F_HIDDEN | F_NOVIEW) != 0 {
        return Ok(None);
    }
    let Some(ap) = widget.get("AP").map(|a| doc.resolve_dict(a)).transpose()?.flatten() else { return Ok(None) };
    let normal = match ap.get("N") {
        // One of our new appearances (not in the document yet).
        Some(Object::Ref(r)) if new_streams.contains_key(r) => Object::Ref(*r),
        Some(Object::Ref(r)) => match doc.resolve_dict(&Object::Ref(*r))? {
            Some(d) if d.has_type("XObject") || d.get("BBox").is_some() => Object::Ref(*r),
            // An indirect dictionary of states.
            Some(d) => Object::Dict(d),
            None => return Ok(None),
        },
        Some(other) => other.clone(),
        None => return Ok(None),
    };
    let stream = match normal {
        Object::Ref(r) => r,
        Object::Dict(states) => {
            let Some(state) = widget.name("AS") else { return Ok(None) };
            match states.0.iter().find(|(k, _)| k.as_slice() == state).and_then(|(_, v)| v.as_ref()) {
                Some(r) => r,
                None => return Ok(None),
            }
        }
        _ => return Ok(None),
    };
    let dict = match new_streams.get(&stream) {
        Some(d) => d.clone(),
        None => match doc.get(stream)? {
            Object::Stream(s) => s.dict,
            _ => return Ok(None),
        },
    };
    let rect: Vec<f64> = widget
        .get("Rect")
        .and_then(Object::as_array)
        .map(|a| a.iter().filter_map(Object::as_number).collect())
        .unwrap_or_default();
    let [rx0, ry0, rx1, ry1] = rect.as_slice() else { return Ok(None) };
    let (rx0, rx1) = (rx0.min(*rx1), rx0.max(*rx1));
    let (ry0, ry1) = (ry0.min(*ry1), ry0.max(*ry1));
    let numbers = |key: &str| -> Vec<f64> {
        dict.get(key)
            .and_then(Object::as_array)
            .map(|a| a.iter().filter_map(Object::as_number).collect())
            .unwrap_or_default()
    };
    let bbox = numbers("BBox");
    let [bx0, by0, bx1, by1] = bbox.as_slice() else { return Ok(None) };
    let m = match numbers("Matrix").as_slice() {
        [a, b, c, d, e, f] => [*a, *b, *c, *d, *e, *f],
        _ => [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
    };
    // ISO 32000-1 12.5.5: the bounding box, transformed by the form's matrix, is fitted to
    // the annotation's rectangle.
    let corners = [(*bx0, *by0), (*bx1, *by0), (*bx0, *by1), (*bx1, *by1)]
        .map(|(x, y)| (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]));
    let min_x = corners.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    let max_x = corners.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
    let min_y = corners.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
    let max_y = corners.iter().map(|c| c.1).fold(f64::NEG_INFINITY, f64::max);
    if max_x - min_x <= 0.0 || max_y - min_y <= 0.0 || !min_x.is_finite() || !min_y.is_finite() {
        return Ok(None);
    }
    let sx = (rx1 - rx0) / (max_x - min_x);
    let sy = (ry1 - ry0) / (max_y - min_y);
    let placement = format!(
        "{} 0 0 {} {} {}",
        format_real(sx),
        format_real(sy),
        format_real(rx0 - min_x * sx),
        format_real(ry0 - min_y * sy)
    );
    Ok(Some((stream, placement)))
}

/// The page's content becomes `[q, its content, Q, drawings]` and its resources a copy with
/// the appearances added as XObjects (a page may share its resources with others).
fn add_page_drawing(
    doc: &Document<'_>,
    writer: &mut Writer,
    page: &crate::reader::Page,
    dict: &mut Dict,
    drawings: String,
    xobjects: Dict,
) -> Result<()> {
    let mut resources = inherited_resources(doc, &page.dict)?.unwrap_or_default();
    let mut existing = match resources.get("XObject") {
        Some(x) => doc.resolve_dict(x)?.unwrap_or_default(),
        None => Dict::new(),
    };
    for (k, v) in xobjects.0 {
        existing.0.push((k, v));
    }
    resources.set("XObject", Object::Dict(existing));
    dict.set("Resources", Object::Dict(resources));
    let mut contents = vec![Object::Ref(writer.add(content_stream(b"q\n".to_vec())))];
    match page.dict.get("Contents") {
        Some(Object::Array(parts)) => contents.extend(parts.iter().cloned()),
        Some(Object::Ref(r)) => match doc.resolve(&Object::Ref(*r))? {
            Object::Array(parts) => contents.extend(parts),
            _ => contents.push(Object::Ref(*r)),
        },
        Some(_) => return Err(Error::Damaged("a page's /Contents is neither a stream nor an array".into())),
        None => {}
    }
    contents.push(Object::Ref(writer.add(content_stream(b"Q\n".to_vec()))));
    contents.push(Object::Ref(writer.add(content_stream(drawings.into_bytes()))));
    dict.set("Contents", Object::Array(contents));
    Ok(())
}

fn inherited_resources(doc: &Document<'_>, page: &Dict) -> Result<Option<Dict>> {
    let mut node = page.clone();
    for _ in 0..MAX_FIELD_DEPTH {
        if let Some(resources) = node.get("Resources") {
            return doc.resolve_dict(resources);
        }
        let Some(parent) = node.get("Parent").cloned() else { return Ok(None) };
        match doc.resolve_dict(&parent)? {
            Some(d) => node = d,
            None => return Ok(None),
        }
    }
    Ok(None)
}

fn content_stream(data: Vec<u8>) -> Object {
    Object::Stream(Stream { dict: Dict::new(), data: StreamData::Owned(data) })
}
