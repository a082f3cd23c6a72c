//! Templates: a name and the signature fields per signatory (page and box, or an anchor
//! text), with a default expiry and reminder interval. The definition is kept as JSON; this
//! is its stored form (the API's `TemplateDefinition` has the same shape).

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use signet_blob::BlobKey;
use signet_domain::authority::templates::{TemplateRelation, may_change_template, may_use_template};
use signet_domain::fields::FieldKind;
use signet_domain::placement::{PageRef, PlacedBox, PlacedField, Placement};
use signet_domain::{Error, TemplateId, TenantId};
use signet_store::{NewTemplate, Shelf, TemplateDocument, TemplateEdit, TemplateRow};

use super::placement::{self, PlacementError};
use crate::Services;
use crate::workflows::documents::CheckedPdf;

/// One signature field of a template.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateField {
    pub signatory: u32,
    #[serde(default)]
    pub document: Option<usize>,
    #[serde(default)]
    pub page: Option<serde_json::Value>,
    pub left: Option<f64>,
    pub top: Option<f64>,
    pub width: Option<f64>,
    pub height: Option<f64>,
    pub anchor: Option<String>,
    /// What the box is for: the signature (the default), or a field filled in with it.
    #[serde(default)]
    pub kind: FieldKind,
    /// The field's name on the signer page.
    #[serde(default)]
    pub label: Option<String>,
    /// A text field that must be filled in, a checkbox that must be ticked.
    #[serde(default)]
    pub required: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateDefinition {
    #[serde(default)]
    pub fields: Vec<TemplateField>,
    pub expiry_days: Option<u32>,
    pub reminder_frequency: Option<u32>,
}

/// The placement of each signatory from the template's fields (or the default slots).
pub fn placements(definition: &TemplateDefinition, count: usize) -> Result<Vec<Placement>, Error> {
    let mut result: Vec<Placement> = (0..count).map(|slot| Placement { slot, ..Placement::default() }).collect();
    for (i, field) in definition.fields.iter().enumerate() {
        let name = format!("definition.fields[{i}]");
        let index = (field.signatory as usize).checked_sub(1).filter(|i| *i < count);
        let Some(target) = index.and_then(|i| result.get_mut(i)) else { continue };
        let at = placed_box(field).map_err(|e| Error::field(&name, e.to_string()))?;
        if field.kind != FieldKind::Signature {
            let Some(at) = at.filter(|_| field.anchor.is_none()) else {
                return Err(Error::field(&name, "a field is placed by left, top, width and height (no anchor)"));
            };
            let label = field.label.as_ref().map(|l| l.trim().to_string()).filter(|l| !l.is_empty());
            target.fields.push(PlacedField { kind: field.kind, at, label, required: field.required, value: None });
        } else if field.label.is_some() || field.required {
            return Err(Error::field(
                &name,
                "label and required belong to initials, date, name, email, text and checkbox fields",
            ));
        } else {
            if let Some(anchor) = &field.anchor {
                target.anchor = Some(anchor.clone());
            }
            target.boxes.extend(at);
        }
        placement::check(target).map_err(|e| Error::field(&name, e.to_string()))?;
    }
    Ok(result)
}

/// The sender's values of text and date fields, by the field's label (a bulk send's row).
pub type FieldValues = std::collections::BTreeMap<String, String>;

/// Gives each text and date field named in `values` (by its label, any case) its value, on
/// every signatory's placement; a value no such field takes, or one too long, is refused under
/// `field.<label>` (the row's column).
pub fn apply_values(placements: &mut [Placement], values: &FieldValues) -> Result<(), Error> {
    for (label, value) in values {
        let column = format!("field.{label}");
        let value = value.trim();
        if value.chars().count() > signet_domain::fields::MAX_TEXT_CHARS || value.chars().any(char::is_control) {
            return Err(Error::field(
                &column,
                format!("takes at most {} characters on one line", signet_domain::fields::MAX_TEXT_CHARS),
            ));
        }
        let takes = |f: &PlacedField| {
            matches!(f.kind, FieldKind::Text | FieldKind::Date) && f.label().trim().eq_ignore_ascii_case(label.trim())
        };
        let mut taken = false;
        for field in placements.iter_mut().flat_map(|p| p.fields.iter_mut()).filter(|f| takes(f)) {
            field.value = Some(value.to_string());
            taken = true;
        }
        if !taken {
            return Err(Error::field(&column, "the template has no text or date field of this name"));
        }
    }
    Ok(())
}

/// The box a field gives, when it gives all four of left, top, width and height (on its
/// page, the last by default).
fn placed_box(field: &TemplateField) -> Result<Option<PlacedBox>, PlacementError> {
    let (Some(left), Some(top), Some(width), Some(height)) = (field.left, field.top, field.width, field.height) else {
        return Ok(None);
    };
    let page = match &field.page {
        None => PageRef::Word("last".into()),
        Some(page) => page_ref(page)?,
    };
    Ok(Some(PlacedBox { document: field.document, page, left, top, width, height }))
}

/// A field's `page`: a page number or a word ("first", "last", "all").
fn page_ref(page: &serde_json::Value) -> Result<PageRef, PlacementError> {
    let invalid = || PlacementError::Rule("page must be a number, first, last or all".into());
    match page {
        serde_json::Value::Number(n) => {
            n.as_u64().and_then(|n| u32::try_from(n).ok()).map(PageRef::Number).ok_or_else(invalid)
        }
        serde_json::Value::String(s) => Ok(PageRef::Word(s.clone())),
        _ => Err(invalid()),
    }
}

/// A template's fields where they fall on these documents (`pages[i]`: the page count of
/// document `i`), as the signing reads them: a field for every document becomes one per
/// document, and `first`, `last`, `all` (or no page: the last) become page numbers. Fields
/// without a box (placed below a text) stay as they are; pages a document does not have are
/// left out, as the signing leaves them out.
pub fn on_the_pages(fields: &[TemplateField], pages: &[usize]) -> Vec<TemplateField> {
    let mut concrete = Vec::new();
    for field in fields {
        let Ok(Some(at)) = placed_box(field).map(|b| b.filter(|_| field.anchor.is_none())) else {
            concrete.push(field.clone());
            continue;
        };
        let documents: Vec<usize> = match field.document {
            Some(d) => vec![d],
            None => (0..pages.len()).collect(),
        };
        for document in documents {
            let count = pages.get(document).copied().unwrap_or(0);
            let numbers =
                placement::page_numbers(&at.page, u32::try_from(count).unwrap_or(u32::MAX)).unwrap_or_default();
            for page in numbers.into_iter().filter(|p| (1..=count).contains(&(*p as usize))) {
                concrete.push(TemplateField {
                    document: Some(document),
                    page: Some(serde_json::json!(page)),
                    ..field.clone()
                });
            }
        }
    }
    concrete
}

pub fn check_definition(definition: &TemplateDefinition) -> Result<(), Error> {
    if definition.fields.len() > signet_domain::fields::MAX_FIELDS {
        return Err(Error::field("definition.fields", format!("at most {} fields", signet_domain::fields::MAX_FIELDS)));
    }
    for (i, field) in definition.fields.iter().enumerate() {
        // A workflow has at most MAX_SIGNATORIES; larger numbers would also size the placements.
        if field.signatory == 0 || field.signatory as usize > signet_domain::workflow::MAX_SIGNATORIES {
            return Err(Error::field(
                &format!("definition.fields[{i}].signatory"),
                format!("signatories count from 1 to {}", signet_domain::workflow::MAX_SIGNATORIES),
            ));
        }
        // The page is checked even where the box is incomplete (and so not used).
        if let Some(page) = &field.page {
            let probe = |page| Placement {
                boxes: vec![PlacedBox { document: None, page, left: 0.0, top: 0.0, width: 10.0, height: 10.0 }],
                ..Placement::default()
            };
            page_ref(page)
                .and_then(|page| placement::check(&probe(page)))
                .map_err(|e| Error::field(&format!("definition.fields[{i}].page"), e.to_string()))?;
        }
    }
    let max_signatory = definition.fields.iter().map(|f| f.signatory as usize).max().unwrap_or(0);
    placements(definition, max_signatory).map(|_| ())
}

/// Creates a template after checking its name, description and definition.
pub async fn create(
    svc: &Services,
    caller: &crate::Caller,
    name: Option<&str>,
    description: Option<&str>,
    definition: TemplateDefinition,
) -> Result<TemplateRow, Error> {
    create_keeping(svc, caller, name, description, definition, None).await
}

/// Creates a template that keeps `document` (checked as any upload), so that sending from it
/// needs no upload.
pub async fn create_keeping(
    svc: &Services,
    caller: &crate::Caller,
    name: Option<&str>,
    description: Option<&str>,
    definition: TemplateDefinition,
    document: Option<CheckedPdf>,
) -> Result<TemplateRow, Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let name = checked_name(name)?;
    check_description(description)?;
    check_definition(&definition)?;
    let json = serde_json::to_value(&definition)?;
    let kept = match document {
        Some(document) => Some(keep_document(svc, caller.tenant_id, document).await?),
        None => None,
    };
    let new =
        NewTemplate { tenant_id: caller.tenant_id, name, description, definition: &json, document: kept.as_ref() };
    let created = svc.store.create_template(&new, &caller.actor).await;
    if created.is_err()
        && let Some(kept) = &kept
    {
        let _ = svc.blob.delete(&BlobKey::parse(&kept.blob_key)?).await;
    }
    created
}

/// A template's name: 1 to 200 characters without control characters (surrounding spaces
/// left out).
fn checked_name(name: Option<&str>) -> Result<&str, Error> {
    let name = name.map(str::trim).unwrap_or("");
    if name.is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
        return Err(Error::field("menuName", "must be 1 to 200 characters without control characters"));
    }
    Ok(name)
}

fn check_description(description: Option<&str>) -> Result<(), Error> {
    if description.is_some_and(|d| d.chars().count() > 2000) {
        return Err(Error::field("description", "must be at most 2000 characters"));
    }
    Ok(())
}

/// Writes a template's document to the blob store, under the tenant's templates.
async fn keep_document(svc: &Services, tenant_id: TenantId, document: CheckedPdf) -> Result<TemplateDocument, Error> {
    let file = format!("template-{}.pdf", crate::platform::secrets::random_token(12));
    let key = BlobKey::new(["tenant", &tenant_id.to_string(), "templates", &file])?;
    svc.blob.put(&key, Bytes::from(document.bytes)).await?;
    Ok(TemplateDocument { name: document.name, blob_key: key.as_str().to_string(), pages: document.pages })
}

/// The tenant's template `id` (its name and definition), as a workflow started from it reads
/// it; one that does not exist is refused under `templateId`.
pub async fn read(
    svc: &Services,
    tenant_id: signet_domain::TenantId,
    id: i64,
) -> Result<(String, TemplateDefinition), Error> {
    let template = match id {
        id if id <= 0 => None,
        id => svc.store.template(tenant_id, TemplateId::from(id)).await?,
    }
    .ok_or_else(|| Error::field("templateId", "no such template"))?;
    Ok((template.name, serde_json::from_str(&template.definition)?))
}

/// Longest channel a template lookup names (`SimpleRequest.requestFrom`).
pub const MAX_CHANNEL_CHARS: usize = 50;

/// The templates named `name` that the caller may start workflows from
/// (`authority::templates::may_use_template`). `request_from` names the caller's channel in
/// its own words (`SimpleRequest`), which is logged.
pub async fn find_by_name(
    svc: &Services,
    caller: &crate::Caller,
    name: &str,
    request_from: &str,
) -> Result<Vec<TemplateRow>, Error> {
    may_read_templates(caller)?;
    if name.trim().is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
        return Err(Error::field("name", "must be 1 to 200 characters without control characters"));
    }
    // The caller's own word for where it asks from (the spec leaves it free): logged, not read.
    if request_from.trim().is_empty()
        || request_from.chars().count() > MAX_CHANNEL_CHARS
        || request_from.chars().any(char::is_control)
    {
        return Err(Error::field("requestFrom", "must be 1 to 50 characters without control characters"));
    }
    tracing::info!(tenant = %caller.tenant_id, request_from, "template lookup by name");
    let named = svc.store.templates_named(caller.tenant_id, name).await?;
    // An archived template is not offered for new workflows.
    usable_of(svc, caller, named.into_iter().filter(|t| !t.is_archived()).collect()).await
}

/// The tenant's templates the caller may send from, by name (archived ones are not offered).
pub async fn usable(svc: &Services, caller: &crate::Caller) -> Result<Vec<TemplateRow>, Error> {
    may_read_templates(caller)?;
    let shelf = svc.store.template_library(caller.tenant_id, Shelf::Active, None).await?;
    usable_of(svc, caller, shelf).await
}

/// The caller's template `id`, when they may use it; any other id reads as a missing one.
pub async fn template_for(svc: &Services, caller: &crate::Caller, id: i64) -> Result<TemplateRow, Error> {
    may_read_templates(caller)?;
    let found = match id {
        id if id <= 0 => None,
        id => svc.store.template(caller.tenant_id, TemplateId::from(id)).await?,
    };
    let found = match found {
        Some(template) => usable_of(svc, caller, vec![template]).await?.pop(),
        None => None,
    };
    found.ok_or(Error::not_found("template"))
}

/// The name and definition of the caller's template `id`, as a new workflow started from it
/// reads it; one they may not use reads as one that does not exist (under `templateId`), and
/// an archived one is refused (workflows started before keep their places).
pub async fn read_for(svc: &Services, caller: &crate::Caller, id: i64) -> Result<(String, TemplateDefinition), Error> {
    may_read_templates(caller)?;
    if id == 0 {
        return Err(Error::field("templateId", "no such template"));
    }
    match template_for(svc, caller, id).await {
        Ok(template) if template.is_archived() => {
            Err(Error::field("templateId", "the template is archived: bring it back to send from it"))
        }
        Ok(template) => Ok((template.name, serde_json::from_str(&template.definition)?)),
        Err(error) if error.code() == signet_domain::ErrorCode::NotFound => {
            Err(Error::field("templateId", "no such template"))
        }
        Err(error) => Err(error),
    }
}

/// The caller's templates on one shelf (offered on send, or archived) whose name holds
/// `search`, by name: those they may use (`authority::templates::may_use_template`).
pub async fn library(
    svc: &Services,
    caller: &crate::Caller,
    shelf: Shelf,
    search: Option<&str>,
) -> Result<Vec<TemplateRow>, Error> {
    may_read_templates(caller)?;
    if search.is_some_and(|s| s.chars().count() > 200) {
        return Err(Error::field("search", "must be at most 200 characters"));
    }
    let found = svc.store.template_library(caller.tenant_id, shelf, search).await?;
    usable_of(svc, caller, found).await
}

/// A template's new name, description and definition.
pub struct TemplateChange {
    pub name: String,
    pub description: Option<String>,
    pub definition: TemplateDefinition,
}

/// Changes the caller's template `id` (its name and places), when they may change it
/// (`authority::templates::may_change_template`). Workflows started from it keep the places
/// they were started with.
pub async fn edit(
    svc: &Services,
    caller: &crate::Caller,
    id: i64,
    change: TemplateChange,
) -> Result<TemplateRow, Error> {
    let template = changeable(svc, caller, id).await?;
    let name = checked_name(Some(&change.name))?;
    check_description(change.description.as_deref())?;
    check_definition(&change.definition)?;
    let definition = serde_json::to_value(&change.definition)?;
    let edit = TemplateEdit { name, description: change.description.as_deref(), definition: &definition };
    svc.store
        .edit_template(caller.tenant_id, template.id, &edit, &caller.actor)
        .await?
        .ok_or(Error::not_found("template"))
}

/// A copy of the caller's template `id` named `name`: its places and a copy of its document,
/// made by the caller (so theirs to change). Anyone who may send from a template may copy it.
pub async fn duplicate(svc: &Services, caller: &crate::Caller, id: i64, name: &str) -> Result<TemplateRow, Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let template = template_for(svc, caller, id).await?;
    let definition: TemplateDefinition = serde_json::from_str(&template.definition)?;
    let document = match template.document() {
        Some(kept) => Some(kept_pdf(svc, &kept).await?),
        None => None,
    };
    create_keeping(svc, caller, Some(name), template.description.as_deref(), definition, document).await
}

/// Archives the caller's template `id` (`archived`) or brings it back: an archived template
/// is not offered on send, and stays readable for the workflows that used it.
pub async fn archive(svc: &Services, caller: &crate::Caller, id: i64, archived: bool) -> Result<TemplateRow, Error> {
    let template = changeable(svc, caller, id).await?;
    svc.store
        .archive_template(caller.tenant_id, template.id, archived, &caller.actor)
        .await?
        .ok_or(Error::not_found("template"))
}

/// The document the caller's template `id` keeps, with its bytes (for its preview); a template
/// without one answers `not_found`.
pub async fn document(svc: &Services, caller: &crate::Caller, id: i64) -> Result<(TemplateDocument, Bytes), Error> {
    let template = template_for(svc, caller, id).await?;
    let kept = template.document().ok_or(Error::not_found("document"))?;
    let bytes = svc.blob.get(&BlobKey::parse(&kept.blob_key)?).await.map_err(Error::internal)?;
    Ok((kept, bytes))
}

/// A new upload of the tenant (not yet in a workflow) copied from the document `template`
/// keeps, for a workflow sent from it; `None` when it keeps none.
pub async fn document_to_send(
    svc: &Services,
    tenant_id: TenantId,
    actor: &signet_domain::audit::Actor,
    template: &TemplateRow,
) -> Result<Option<signet_store::DocumentRow>, Error> {
    let Some(kept) = template.document() else { return Ok(None) };
    let checked = kept_pdf(svc, &kept).await?;
    crate::workflows::documents::store_document(svc, tenant_id, actor, checked, None, None).await.map(Some)
}

/// The caller's template `id` copied into a workflow document, for a send from it in the
/// console (which needs no upload then); `None` when it keeps no document.
pub async fn document_for_send(
    svc: &Services,
    caller: &crate::Caller,
    id: i64,
) -> Result<Option<signet_store::DocumentRow>, Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let template = template_for(svc, caller, id).await?;
    document_to_send(svc, caller.tenant_id, &caller.actor, &template).await
}

/// The kept document as a checked PDF (it was checked when kept; its hash is taken again).
async fn kept_pdf(svc: &Services, kept: &TemplateDocument) -> Result<CheckedPdf, Error> {
    let bytes = svc.blob.get(&BlobKey::parse(&kept.blob_key)?).await.map_err(Error::internal)?.to_vec();
    let sha256 = crate::workflows::documents::sha256_hex(&bytes);
    Ok(CheckedPdf { name: kept.name.clone(), bytes, pages: kept.pages, sha256 })
}

/// Whether the caller may change `template` (its name and places) or archive it
/// (`authority::templates::may_change_template`).
pub fn may_change(caller: &crate::Caller, template: &TemplateRow) -> bool {
    let relation = TemplateRelation {
        caller_is_user: caller.is_user,
        made_it: template.created_by == caller.actor.id,
        granted: true,
    };
    may_change_template(&caller.access, relation)
}

/// The caller's template `id` when they may change it; one they may only use is `forbidden`,
/// one they may not use reads as missing.
async fn changeable(svc: &Services, caller: &crate::Caller, id: i64) -> Result<TemplateRow, Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let template = template_for(svc, caller, id).await?;
    if !may_change(caller, &template) {
        return Err(Error::rejected(
            signet_domain::ErrorCode::Forbidden,
            "only whoever made a template, or an administrator, changes or archives it",
        ));
    }
    Ok(template)
}

/// Refuses a caller who neither reads nor sends workflows (`authority::templates`).
fn may_read_templates(caller: &crate::Caller) -> Result<(), Error> {
    match signet_domain::authority::templates::may_read_templates(&caller.access) {
        true => Ok(()),
        false => caller.require(signet_domain::access::Permission::ReadWorkflows),
    }
}

async fn usable_of(
    svc: &Services,
    caller: &crate::Caller,
    templates: Vec<TemplateRow>,
) -> Result<Vec<TemplateRow>, Error> {
    let granted: Vec<TemplateId> = match caller.is_user && !caller.is_administrator() {
        true => svc
            .store
            .menus(caller.tenant_id, Some(caller.principal_id))
            .await?
            .into_iter()
            .filter_map(|menu| menu.template_id)
            .collect(),
        false => Vec::new(),
    };
    let relation = |template: &TemplateRow| TemplateRelation {
        caller_is_user: caller.is_user,
        made_it: template.created_by == caller.actor.id,
        granted: granted.contains(&template.id),
    };
    Ok(templates.into_iter().filter(|t| may_use_template(&caller.access, relation(t))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template_field(document: Option<usize>, page: serde_json::Value) -> TemplateField {
        TemplateField {
            signatory: 1,
            document,
            page: Some(page),
            left: Some(72.0),
            top: Some(600.0),
            width: Some(150.0),
            height: Some(40.0),
            anchor: None,
            kind: FieldKind::Signature,
            label: None,
            required: false,
        }
    }

    #[test]
    fn a_rows_values_fill_the_text_and_date_fields_of_their_label() {
        let field = |signatory, kind, label: &str| TemplateField {
            signatory,
            kind,
            label: Some(label.into()),
            ..template_field(Some(0), serde_json::json!(1))
        };
        let definition = TemplateDefinition {
            fields: vec![
                field(1, FieldKind::Text, "Loan number"),
                field(2, FieldKind::Text, "Loan number"),
                field(1, FieldKind::Date, "Sanctioned on"),
                field(1, FieldKind::Checkbox, "I agree"),
            ],
            ..TemplateDefinition::default()
        };
        let mut placed = placements(&definition, 2).expect("placements");
        let values = FieldValues::from([
            ("loan NUMBER".to_string(), " LN-1001 ".to_string()),
            ("Sanctioned on".to_string(), "1 Dec 2026".to_string()),
        ]);
        apply_values(&mut placed, &values).expect("values");
        let value_of = |p: &Placement, i: usize| p.fields[i].value.clone();
        assert_eq!(value_of(&placed[0], 0).as_deref(), Some("LN-1001"), "by label, any case, trimmed");
        assert_eq!(value_of(&placed[1], 0).as_deref(), Some("LN-1001"), "every signatory's field of that label");
        assert_eq!(value_of(&placed[0], 1).as_deref(), Some("1 Dec 2026"));
        assert_eq!(value_of(&placed[0], 2), None, "a checkbox takes no value");
        assert!(!placed[0].fields[0].asks_the_signer() && placed[0].fields[2].asks_the_signer());

        let refused = |label: &str, value: &str| {
            let mut placed = placements(&definition, 2).expect("placements");
            match apply_values(&mut placed, &FieldValues::from([(label.to_string(), value.to_string())])) {
                Err(Error::Validation(fields)) => fields.keys().cloned().collect::<Vec<_>>(),
                other => panic!("{label}: {other:?}"),
            }
        };
        assert_eq!(refused("Branch", "Pune"), vec!["field.Branch"], "no field of that label");
        assert_eq!(refused("I agree", "yes"), vec!["field.I agree"], "a checkbox is the signer's");
        assert_eq!(refused("Loan number", &"x".repeat(201)), vec!["field.Loan number"]);
        assert_eq!(refused("Loan number", "a\u{7}b"), vec!["field.Loan number"]);
    }

    #[test]
    fn a_templates_fields_fall_on_the_pages_the_documents_have() {
        let on = |field: TemplateField, pages: &[usize]| {
            on_the_pages(&[field], pages)
                .iter()
                .map(|f| (f.document.unwrap_or(99), f.page.as_ref().and_then(|p| p.as_u64()).unwrap_or(0)))
                .collect::<Vec<_>>()
        };
        assert_eq!(on(template_field(None, serde_json::json!("last")), &[3, 2]), vec![(0, 3), (1, 2)]);
        assert_eq!(on(template_field(Some(1), serde_json::json!("all")), &[3, 2]), vec![(1, 1), (1, 2)]);
        assert_eq!(on(template_field(Some(0), serde_json::json!("first")), &[3]), vec![(0, 1)]);
        assert_eq!(on(template_field(Some(0), serde_json::json!(2)), &[3]), vec![(0, 2)]);
        // Pages and documents that are not there are left out, as the signing leaves them out.
        assert!(on(template_field(Some(0), serde_json::json!(9)), &[3]).is_empty());
        assert!(on(template_field(Some(4), serde_json::json!(1)), &[3]).is_empty());
        let below = TemplateField { anchor: Some("Borrower".into()), ..template_field(None, serde_json::json!(1)) };
        assert_eq!(on_the_pages(std::slice::from_ref(&below), &[3]).len(), 1, "kept as it is");
    }
}
