//! Composing a workflow's documents before anyone signs (the API's `optimized`): a document's
//! form fields filled (`controlDetails`), optionally flattened, then other documents merged
//! after it (`mergeDocuments`, `mergeDocumentDetails`), each given as base64 or as a stored
//! document of the tenant. Every problem is reported at the request field it comes from
//! (`lstDocumentDetails[0].controlDetails[2].fieldName`); nothing is stored when one fails.
//!
//! Two steps: [`gather`] reads what lives in the store (stored documents to merge, the
//! templates named) and [`compose`] does the PDF work, on the bounded heavy pool.

use signet_blob::BlobKey;
use signet_domain::workflow::DocumentState;
use signet_domain::{DocumentId, Error, TenantId};
use signet_pdf::assemble::{MAX_MERGED_DOCUMENTS, MergePart};
use signet_pdf::forms::{FieldFill, FieldKind, FieldPart, MAX_FILLS, MAX_IMAGE_BYTES, MAX_TEXT_CHARS};

use crate::Services;
use crate::workflows::documents::{CheckedPdf, check_pdf, decode_base64, document_name};
use signet_domain::placement::SlotPages;

/// Most field values for one document.
pub const MAX_CONTROLS: usize = MAX_FILLS;
/// Most documents merged into one document.
pub const MAX_MERGES: usize = MAX_MERGED_DOCUMENTS;
/// Longest field name, in characters.
pub const MAX_FIELD_NAME_CHARS: usize = 200;

/// One `TemplateControlDetail` as the client sent it.
#[derive(Debug, Clone, Default)]
pub struct Control {
    pub field_name: Option<String>,
    pub field_type: Option<String>,
    pub field_value: Option<String>,
    pub is_checked: Option<String>,
    pub is_selected: Option<String>,
    pub image_data: Option<String>,
}

/// One `MergeDocument` / `MergeDocumentDetails` as the client sent it.
#[derive(Debug, Clone, Default)]
pub struct Merge {
    pub document_name: Option<String>,
    pub file_data: Option<String>,
    /// A stored document of the tenant (0: none).
    pub parent_document_id: i32,
    /// The signers' signature fields go on this part's last page too.
    pub add_signature_placeholder: bool,
}

/// One document of the request: `field` is its place in the request (`templateList[0]`),
/// `merges_key` the name of its merge list there (`mergeDocuments` or `mergeDocumentDetails`).
#[derive(Debug, Clone, Default)]
pub struct DocumentInput {
    pub field: String,
    pub template_id: i32,
    pub document_name: Option<String>,
    pub file_data: Option<String>,
    pub controls: Vec<Control>,
    pub flatten: bool,
    pub merges_key: &'static str,
    pub merges: Vec<Merge>,
}

/// A document input with its stored documents read.
pub struct Gathered {
    input: DocumentInput,
    /// Per merge: the stored document's name and bytes, when it names one.
    stored: Vec<Option<(String, Vec<u8>)>>,
}

/// A composed document and the pages (1-based) where the signers' fields go when the default
/// place (the last page) is not enough: the last page of the document's own part and of each
/// merged part that asked for a placeholder. Empty when nothing was merged.
pub struct Composed {
    pub pdf: CheckedPdf,
    pub signature_pages: Vec<u32>,
}

/// Reads the stored documents the inputs merge and checks the templates they name, for a
/// caller who may send; tenant scoped (another tenant's document is "no such document"), and a
/// template the caller may not use reads as one that does not exist
/// (`authority::templates::may_use_template`).
pub async fn gather(
    svc: &Services,
    caller: &crate::Caller,
    inputs: Vec<DocumentInput>,
) -> Result<Vec<Gathered>, Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let tenant_id = caller.tenant_id;
    let mut out = Vec::with_capacity(inputs.len());
    for input in inputs {
        if input.template_id < 0 {
            return Err(Error::field(&format!("{}.templateId", input.field), "must be 0 or a template id"));
        }
        if input.template_id > 0 {
            match crate::workflows::templates::template_for(svc, caller, i64::from(input.template_id)).await {
                Err(e) if e.code() == signet_domain::ErrorCode::NotFound => {
                    return Err(Error::field(&format!("{}.templateId", input.field), "no such template"));
                }
                Err(e) => return Err(e),
                Ok(_) => {}
            }
        }
        if input.merges.len() > MAX_MERGES {
            return Err(Error::field(
                &format!("{}.{}", input.field, input.merges_key),
                format!("at most {MAX_MERGES} documents"),
            ));
        }
        let mut stored = Vec::with_capacity(input.merges.len());
        for (i, merge) in input.merges.iter().enumerate() {
            let field = format!("{}.{}[{i}]", input.field, input.merges_key);
            stored.push(stored_document(svc, tenant_id, merge, &field).await?);
        }
        out.push(Gathered { input, stored });
    }
    Ok(out)
}

async fn stored_document(
    svc: &Services,
    tenant_id: TenantId,
    merge: &Merge,
    field: &str,
) -> Result<Option<(String, Vec<u8>)>, Error> {
    let has_data = merge.file_data.as_deref().is_some_and(|d| !d.trim().is_empty());
    match merge.parent_document_id {
        0 => Ok(None),
        id if id < 0 => Err(Error::field(&format!("{field}.parentDocumentId"), "must be 0 or a document id")),
        _ if has_data => Err(Error::field(field, "give the document once: in fileData or as parentDocumentId")),
        id => {
            let row = svc
                .store
                .document(tenant_id, DocumentId::from(i64::from(id)))
                .await?
                .filter(|d| d.state != DocumentState::Deleted)
                .ok_or_else(|| Error::field(&format!("{field}.parentDocumentId"), "no such document"))?;
            let bytes = svc.blob.get(&BlobKey::parse(&row.current_blob)?).await?;
            Ok(Some((row.name, bytes.to_vec())))
        }
    }
}

/// Composes every document (heavy: run it on the pool): the documents in order, and where the
/// signers' default fields go on those that had documents merged into them.
pub fn compose_all(gathered: Vec<Gathered>, limit: usize) -> Result<(Vec<CheckedPdf>, Vec<SlotPages>), Error> {
    let mut pdfs = Vec::with_capacity(gathered.len());
    let mut slots = Vec::new();
    for (document, one) in gathered.into_iter().enumerate() {
        let composed = compose(one, limit)?;
        if !composed.signature_pages.is_empty() {
            slots.push(SlotPages { document, pages: composed.signature_pages });
        }
        pdfs.push(composed.pdf);
    }
    Ok((pdfs, slots))
}

/// Fills, flattens and merges one document (heavy: run it on the pool). `limit` bounds every
/// decoded file.
pub fn compose(gathered: Gathered, limit: usize) -> Result<Composed, Error> {
    let Gathered { input, stored } = gathered;
    let field = input.field.as_str();
    let name = document_name(&format!("{field}.documentName"), input.document_name.as_deref(), "document.pdf")?;
    let data_field = format!("{field}.fileData");
    let mut bytes = decode_base64(&data_field, input.file_data.as_deref(), limit)?;
    // The document as sent must be one we can show and sign before anything is done to it,
    // and not signed yet: filling or merging would change what was signed.
    check_pdf(&data_field, name.clone(), bytes.clone())?;
    let composing = !input.controls.is_empty() || input.flatten || !input.merges.is_empty();
    if composing {
        refuse_signed(&data_field, &bytes, "filled or merged")?;
    }
    if !input.controls.is_empty() || input.flatten {
        let fills = fills(field, &input.controls)?;
        bytes = signet_pdf::forms::fill_form(&bytes, &fills, input.flatten)
            .map_err(|e| pdf_error(field, &data_field, e))?;
    }
    let mut signature_pages = Vec::new();
    if !input.merges.is_empty() {
        let own_pages = signet_pdf::inspect(&bytes).map_err(|e| pdf_error(field, &data_field, e))?.pages;
        let parts = merge_parts(&input, stored, limit)?;
        let merge_parts: Vec<MergePart<'_>> =
            parts.iter().map(|(title, bytes)| MergePart { bytes, title: Some(title.as_str()) }).collect();
        let merged = signet_pdf::append_documents(&bytes, &merge_parts)
            .map_err(|e| Error::field(&format!("{field}.{}", input.merges_key), format!("cannot be merged: {e}")))?;
        signature_pages.push(own_pages as u32);
        for (merge, (first, count)) in input.merges.iter().zip(&merged.parts) {
            if merge.add_signature_placeholder && *count > 0 {
                signature_pages.push((first + count - 1) as u32);
            }
        }
        bytes = merged.bytes;
    }
    let pdf = check_pdf(&data_field, name, bytes)?;
    Ok(Composed { pdf, signature_pages })
}

/// Each merge's title (its name) and bytes, flattened so that a part's filled fields stay
/// visible (merging carries pages, not form fields).
fn merge_parts(
    input: &DocumentInput,
    stored: Vec<Option<(String, Vec<u8>)>>,
    limit: usize,
) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let mut parts = Vec::with_capacity(input.merges.len());
    for (i, (merge, stored)) in input.merges.iter().zip(stored).enumerate() {
        let field = format!("{}.{}[{i}]", input.field, input.merges_key);
        let data_field = format!("{field}.fileData");
        let (default_name, bytes) = match stored {
            Some((name, bytes)) => (name, bytes),
            None => ("document.pdf".to_string(), decode_base64(&data_field, merge.file_data.as_deref(), limit)?),
        };
        let name = document_name(&format!("{field}.documentName"), merge.document_name.as_deref(), &default_name)?;
        let checked = check_pdf(&data_field, name.clone(), bytes)?;
        refuse_signed(&data_field, &checked.bytes, "merged (its signatures would be lost)")?;
        let flat = signet_pdf::forms::fill_form(&checked.bytes, &[], true)
            .map_err(|e| Error::field(&data_field, format!("cannot be merged: {e}")))?;
        parts.push((name, flat));
    }
    Ok(parts)
}

fn refuse_signed(field: &str, pdf: &[u8], what: &str) -> Result<(), Error> {
    let signed = signet_pdf::signatures(pdf).map_err(|e| Error::field(field, format!("is not a usable PDF: {e}")))?;
    if signed.is_empty() {
        Ok(())
    } else {
        Err(Error::field(field, format!("carries signatures; a signed document cannot be {what}")))
    }
}

/// The controls as field values; a value's problems are named at its place in the request.
fn fills(field: &str, controls: &[Control]) -> Result<Vec<FieldFill>, Error> {
    if controls.len() > MAX_CONTROLS {
        return Err(Error::field(&format!("{field}.controlDetails"), format!("at most {MAX_CONTROLS} values")));
    }
    controls.iter().enumerate().map(|(i, c)| fill(&format!("{field}.controlDetails[{i}]"), c)).collect()
}

fn fill(at: &str, control: &Control) -> Result<FieldFill, Error> {
    let name = control.field_name.as_deref().map(str::trim).unwrap_or_default();
    if name.is_empty() || name.chars().count() > MAX_FIELD_NAME_CHARS {
        return Err(Error::field(
            &format!("{at}.fieldName"),
            format!("must be 1 to {MAX_FIELD_NAME_CHARS} characters"),
        ));
    }
    let given = |v: &Option<String>| v.as_deref().filter(|s| !s.is_empty()).map(str::to_string);
    let value = given(&control.field_value);
    if value.as_ref().is_some_and(|v| v.chars().count() > MAX_TEXT_CHARS) {
        return Err(Error::field(&format!("{at}.fieldValue"), format!("must be at most {MAX_TEXT_CHARS} characters")));
    }
    let image = match given(&control.image_data) {
        Some(data) => Some(decode_base64(&format!("{at}.imageData"), Some(&data), MAX_IMAGE_BYTES)?),
        None => None,
    };
    Ok(FieldFill {
        name: name.to_string(),
        kind: field_kind(at, control.field_type.as_deref())?,
        value,
        checked: flag(&format!("{at}.isChecked"), control.is_checked.as_deref())?,
        selected: flag(&format!("{at}.isSelected"), control.is_selected.as_deref())?,
        image,
    })
}

/// `fieldType`, when given: what the client expects the field to be.
fn field_kind(at: &str, given: Option<&str>) -> Result<Option<FieldKind>, Error> {
    let Some(kind) = given.map(str::trim).filter(|k| !k.is_empty()) else { return Ok(None) };
    Ok(Some(match kind.to_ascii_lowercase().as_str() {
        "text" | "textbox" | "textfield" => FieldKind::Text,
        "checkbox" | "check" => FieldKind::Checkbox,
        "radio" | "radiobutton" => FieldKind::Radio,
        "choice" | "combo" | "combobox" | "dropdown" | "list" | "listbox" => FieldKind::Choice,
        "image" | "button" => FieldKind::Image,
        _ => {
            return Err(Error::field(
                &format!("{at}.fieldType"),
                "must be text, checkbox, radio, choice (dropdown, list) or image",
            ));
        }
    }))
}

/// `isChecked` / `isSelected`: the spec's strings for a yes or a no.
fn flag(at: &str, given: Option<&str>) -> Result<Option<bool>, Error> {
    let Some(value) = given.map(str::trim).filter(|v| !v.is_empty()) else { return Ok(None) };
    match value.to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" | "on" | "checked" | "selected" => Ok(Some(true)),
        "false" | "no" | "0" | "off" => Ok(Some(false)),
        _ => Err(Error::field(at, "must be true or false")),
    }
}

/// A PDF error as a validation error: a field value's problem at that value's part, anything
/// else at the document's file.
fn pdf_error(field: &str, data_field: &str, error: signet_pdf::Error) -> Error {
    match error {
        signet_pdf::Error::FormField { index, part, message, .. } => {
            let key = match part {
                FieldPart::Name => "fieldName",
                FieldPart::Kind => "fieldType",
                FieldPart::Value => "fieldValue",
                FieldPart::Checked => "isChecked",
                FieldPart::Selected => "isSelected",
                FieldPart::Image => "imageData",
            };
            Error::field(&format!("{field}.controlDetails[{index}].{key}"), message)
        }
        signet_pdf::Error::InvalidOptions(message) => Error::field(&format!("{field}.controlDetails"), message),
        other => Error::field(data_field, format!("cannot be filled: {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_read_with_their_places_named() {
        let control = Control {
            field_name: Some("agree".into()),
            is_checked: Some("True".into()),
            field_type: Some("checkbox".into()),
            ..Control::default()
        };
        let filled = fill("x.controlDetails[0]", &control).expect("fill");
        assert_eq!(filled.checked, Some(true));
        assert_eq!(filled.kind, Some(FieldKind::Checkbox));
        let bad = Control { field_name: Some("agree".into()), is_checked: Some("maybe".into()), ..Control::default() };
        match fill("x.controlDetails[0]", &bad) {
            Err(Error::Validation(fields)) => assert!(fields.contains_key("x.controlDetails[0].isChecked")),
            other => panic!("{other:?}"),
        }
        let nameless = Control::default();
        assert!(fill("x.controlDetails[0]", &nameless).is_err());
        let wrong_type =
            Control { field_name: Some("a".into()), field_type: Some("slider".into()), ..Control::default() };
        assert!(fill("x.controlDetails[0]", &wrong_type).is_err());
    }

    #[test]
    fn form_errors_point_at_the_part_of_the_value() {
        let error = signet_pdf::Error::FormField {
            index: 2,
            part: FieldPart::Name,
            name: "x".into(),
            message: "the document has no field of this name".into(),
        };
        match pdf_error("lstDocumentDetails[0]", "lstDocumentDetails[0].fileData", error) {
            Error::Validation(fields) => {
                assert!(fields.contains_key("lstDocumentDetails[0].controlDetails[2].fieldName"))
            }
            other => panic!("{other:?}"),
        }
    }
}
