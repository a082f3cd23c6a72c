//! Templates as a library (issue 37, item 9): the organisation's templates listed and searched,
//! each with a preview of the first page of the document it keeps, its places edited as rows
//! (signatory, kind, label, page and box, or an anchor text), duplicated, archived (no longer
//! offered on send, still readable for the workflows that used it) and brought back. A new
//! template is made here from a name and a PDF, or on the send screen from a placement.
//! Every decision is the services' (`signet_services::workflows::templates`).

use askama::Template;
use axum::extract::{Multipart, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::Error;
use signet_domain::access::Permission;
use signet_domain::fields::FieldKind;
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::platform::heavy::Share;
use signet_services::records::{Shelf, TemplateRow};
use signet_services::workflows::documents::check_pdf;
use signet_services::workflows::templates::{self, TemplateChange, TemplateDefinition, TemplateField};

use super::session::see_other;
use super::{FormFields, Frame, Session, failure, render, shown_again};
use crate::text::{Text, key};

/// Blank rows the edit form offers for new places.
const BLANK_ROWS: usize = 3;

/// One template in the list.
struct TemplateView {
    id: i64,
    name: String,
    places: usize,
    document: String,
    updated: String,
}

#[derive(Template)]
#[template(path = "console/templates.html")]
struct LibraryPage {
    frame: Frame,
    q: String,
    archived: bool,
    templates: Vec<TemplateView>,
    may_send: bool,
    error: Option<String>,
}

/// The list's filter: a part of the name, and the archived shelf instead of the active one.
#[derive(serde::Deserialize, Default)]
pub struct LibraryFilter {
    #[serde(default)]
    q: String,
    #[serde(default)]
    shelf: String,
}

/// Refuses whoever neither reads nor sends workflows (the services' rule for templates).
fn refuses_reader(session: &Session) -> Option<Response> {
    let access = &session.auth.access;
    match access.allows(Permission::ReadWorkflows) {
        true => None,
        false => session.refuses_without(Permission::SendWorkflows),
    }
}

async fn library_page(
    state: &AppState,
    session: &Session,
    filter: &LibraryFilter,
    error: Option<String>,
) -> Result<LibraryPage, Error> {
    let archived = filter.shelf == "archived";
    let shelf = if archived { Shelf::Archived } else { Shelf::Active };
    let q = filter.q.trim().to_string();
    let found = templates::library(&state.services, &session.auth.caller(), shelf, Some(&q)).await?;
    Ok(LibraryPage {
        frame: session.frame("/app/templates"),
        q,
        archived,
        templates: found.iter().map(|t| view_of(session, t)).collect(),
        may_send: session.auth.access.allows(Permission::SendWorkflows),
        error,
    })
}

fn view_of(session: &Session, template: &TemplateRow) -> TemplateView {
    let text = session.text;
    let places = definition_of(template).fields.len();
    TemplateView {
        id: template.id.get(),
        name: template.name.clone(),
        places,
        document: template.document_name.clone().unwrap_or_else(|| text.s("templates.no_document").to_string()),
        updated: session.when(template.updated_at),
    }
}

/// A template's definition as kept (an unreadable one shows no places).
fn definition_of(template: &TemplateRow) -> TemplateDefinition {
    serde_json::from_str(&template.definition).unwrap_or_default()
}

pub async fn list(State(state): State<AppState>, session: Session, Query(filter): Query<LibraryFilter>) -> Response {
    if let Some(refused) = refuses_reader(&session) {
        return refused;
    }
    match library_page(&state, &session, &filter, None).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

/// A new template from a name and the PDF it keeps; its places are added on its page.
pub async fn create(State(state): State<AppState>, session: Session, multipart: Multipart) -> Response {
    if let Some(refused) = session.refuses_without(Permission::SendWorkflows) {
        return refused;
    }
    let (fields, files) = match super::read_multipart(session.text, multipart, "document", "document.pdf").await {
        Ok(read) => read,
        Err(text) => return super::page_error(StatusCode::BAD_REQUEST, &text),
    };
    if let Some(refused) = session.refuses_form(fields.get("csrf")) {
        return refused;
    }
    let created = async {
        let (name, bytes) = files
            .into_iter()
            .next()
            .ok_or_else(|| Error::field("document", session.text.s("templates.choose_a_pdf")))?;
        let field = session.text.s("templates.field.document").to_string();
        let checked = state
            .services
            .heavy
            .run(Share::Tenant(session.auth.tenant_id), move || check_pdf(&field, name, bytes))
            .await??;
        let caller = session.auth.caller();
        let definition = TemplateDefinition::default();
        templates::create_keeping(&state.services, &caller, Some(fields.get("name")), None, definition, Some(checked))
            .await
    }
    .await;
    match created {
        Ok(template) => see_other(&format!("/app/templates/{}", template.id)),
        Err(error) => {
            shown_again(error, async |text| library_page(&state, &session, &LibraryFilter::default(), Some(text)).await)
                .await
        }
    }
}

/// One place as a row of the edit form.
struct PlaceRow {
    number: usize,
    signatory: String,
    document: String,
    kind: &'static str,
    label: String,
    page: String,
    left: String,
    top: String,
    width: String,
    height: String,
    anchor: String,
    required: bool,
}

impl PlaceRow {
    fn blank(number: usize) -> PlaceRow {
        PlaceRow {
            number,
            signatory: String::new(),
            document: String::new(),
            kind: FieldKind::Signature.as_str(),
            label: String::new(),
            page: String::new(),
            left: String::new(),
            top: String::new(),
            width: String::new(),
            height: String::new(),
            anchor: String::new(),
            required: false,
        }
    }

    fn of(number: usize, field: &TemplateField) -> PlaceRow {
        let number_text = |n: Option<f64>| n.map(|n| n.to_string()).unwrap_or_default();
        let page = match &field.page {
            Some(serde_json::Value::String(word)) => word.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        PlaceRow {
            number,
            signatory: field.signatory.to_string(),
            document: field.document.map(|d| d.to_string()).unwrap_or_default(),
            kind: field.kind.as_str(),
            label: field.label.clone().unwrap_or_default(),
            page,
            left: number_text(field.left),
            top: number_text(field.top),
            width: number_text(field.width),
            height: number_text(field.height),
            anchor: field.anchor.clone().unwrap_or_default(),
            required: field.required,
        }
    }
}

/// A kind of place, as the select offers it.
struct KindOption {
    value: &'static str,
    name: &'static str,
}

fn kind_options(text: Text) -> Vec<KindOption> {
    FieldKind::ALL
        .into_iter()
        .map(|kind| {
            let name = text.s(match kind {
                FieldKind::Signature => key("place.signature"),
                FieldKind::Initials => key("place.initials_filled_in"),
                FieldKind::Date => key("place.date_signed_filled_in"),
                FieldKind::Name => key("place.name_filled_in"),
                FieldKind::Email => key("place.e_mail_filled_in"),
                FieldKind::Text => key("place.text_the_signer_types"),
                FieldKind::Checkbox => key("place.checkbox_the_signer_ticks"),
            });
            KindOption { value: kind.as_str(), name }
        })
        .collect()
}

#[derive(Template)]
#[template(path = "console/template.html")]
struct TemplatePage {
    frame: Frame,
    id: i64,
    name: String,
    description: String,
    document: Option<String>,
    pages: i64,
    preview: bool,
    archived: bool,
    rows: Vec<PlaceRow>,
    kinds: Vec<KindOption>,
    may_change: bool,
    may_send: bool,
    /// The columns of a bulk send's file from this template.
    bulk_columns: String,
    error: Option<String>,
}

async fn template_page(
    state: &AppState,
    session: &Session,
    id: i64,
    error: Option<String>,
) -> Result<TemplatePage, Error> {
    let caller = session.auth.caller();
    let template = templates::template_for(&state.services, &caller, id).await?;
    let definition = definition_of(&template);
    let mut rows: Vec<PlaceRow> =
        definition.fields.iter().enumerate().map(|(i, field)| PlaceRow::of(i + 1, field)).collect();
    let first_blank = rows.len() + 1;
    rows.extend((first_blank..first_blank + BLANK_ROWS).map(PlaceRow::blank));
    let document = template.document();
    Ok(TemplatePage {
        frame: session.frame("/app/templates"),
        id: template.id.get(),
        name: template.name.clone(),
        description: template.description.clone().unwrap_or_default(),
        preview: document.is_some() && crate::preview::available(),
        pages: document.as_ref().map_or(0, |d| d.pages),
        document: document.map(|d| d.name),
        archived: template.is_archived(),
        rows,
        kinds: kind_options(session.text),
        may_change: templates::may_change(&caller, &template),
        may_send: session.auth.access.allows(Permission::SendWorkflows),
        bulk_columns: bulk_columns(&definition),
        error,
    })
}

/// The header of a bulk send's file from a template with these places: a name and an address
/// for each of its signatories, and a column for each labelled text or date field.
fn bulk_columns(definition: &TemplateDefinition) -> String {
    let signatories = definition.fields.iter().map(|f| f.signatory).max().unwrap_or(1).max(1);
    let mut columns = vec!["workflowName".to_string(), "referenceNo".to_string()];
    for n in 1..=signatories {
        columns.push(format!("signer{n}.name"));
        columns.push(format!("signer{n}.email"));
    }
    for field in definition.fields.iter().filter(|f| matches!(f.kind, FieldKind::Text | FieldKind::Date)) {
        let label =
            field.label.as_deref().map(str::trim).filter(|l| !l.is_empty()).unwrap_or(field.kind.default_label());
        let column = format!("field.{label}");
        if !columns.contains(&column) {
            columns.push(column);
        }
    }
    columns.join(",")
}

pub async fn show(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<i64>) -> Response {
    if let Some(refused) = refuses_reader(&session) {
        return refused;
    }
    match template_page(&state, &session, id, None).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

/// A page of the template's document as an image (the first is its preview).
pub async fn page_image(
    State(state): State<AppState>,
    session: Session,
    ApiPath((id, page)): ApiPath<(i64, usize)>,
) -> Response {
    if let Some(refused) = refuses_reader(&session) {
        return refused;
    }
    match templates::document(&state.services, &session.auth.caller(), id).await {
        Ok((kept, bytes)) => {
            crate::preview::page_response(&bytes, page, usize::try_from(kept.pages).unwrap_or(0)).await
        }
        Err(error) => failure(error),
    }
}

/// The template's page again, with a refusal the person can correct.
async fn template_again(state: &AppState, session: &Session, id: i64, error: Error) -> Response {
    shown_again(error, async |text| template_page(state, session, id, Some(text)).await).await
}

/// Changes the name and places.
pub async fn edit(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    form: FormFields,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::SendWorkflows, form.get("csrf")) {
        return refused;
    }
    let changed = async {
        let caller = session.auth.caller();
        let template = templates::template_for(&state.services, &caller, id).await?;
        let kept = definition_of(&template);
        let definition = TemplateDefinition { fields: places_of(session.text, &form)?, ..kept };
        let description = Some(form.get("description").to_string()).filter(|d| !d.is_empty());
        let change = TemplateChange { name: form.get("name").to_string(), description, definition };
        templates::edit(&state.services, &caller, id, change).await
    }
    .await;
    match changed {
        Ok(template) => see_other(&format!("/app/templates/{}", template.id)),
        Err(error) => template_again(&state, &session, id, error).await,
    }
}

/// The places of the edit form, in row order: each row that names a signatory.
fn places_of(text: Text, form: &FormFields) -> Result<Vec<TemplateField>, Error> {
    let mut places = Vec::new();
    for number in 1..=signet_domain::fields::MAX_FIELDS {
        let get = |part: &str| form.get(&format!("f{number}_{part}"));
        if !form.0.iter().any(|(name, _)| name.starts_with(&format!("f{number}_"))) {
            break;
        }
        if get("signatory").is_empty() {
            continue;
        }
        places.push(
            place_of(text, &get)
                .map_err(|message| Error::field(&text.plain("templates.field.row", &[("n", &number)]), message))?,
        );
    }
    Ok(places)
}

/// One row of the edit form as a place; else what is wrong with it.
fn place_of<'a>(text: Text, get: &dyn Fn(&str) -> &'a str) -> Result<TemplateField, String> {
    let wrong_number = || text.s("templates.must_be_a_number").to_string();
    let signatory = get("signatory").parse::<u32>().map_err(|_| wrong_number())?;
    let optional_number = |part: &str| -> Result<Option<f64>, String> {
        match get(part) {
            "" => Ok(None),
            value => value.parse::<f64>().ok().filter(|n| n.is_finite()).map(Some).ok_or_else(wrong_number),
        }
    };
    let document = match get("document") {
        "" => None,
        value => Some(value.parse::<usize>().map_err(|_| wrong_number())?),
    };
    let page = match get("page") {
        "" => None,
        value => Some(match value.parse::<u64>() {
            Ok(n) => serde_json::json!(n),
            Err(_) => serde_json::json!(value.to_ascii_lowercase()),
        }),
    };
    let kind = FieldKind::parse(get("kind")).ok_or_else(|| text.s("templates.kind_unknown").to_string())?;
    let optional_text = |part: &str| Some(get(part).to_string()).filter(|t| !t.is_empty());
    Ok(TemplateField {
        signatory,
        document,
        page,
        left: optional_number("left")?,
        top: optional_number("top")?,
        width: optional_number("width")?,
        height: optional_number("height")?,
        anchor: optional_text("anchor"),
        kind,
        label: optional_text("label").filter(|_| kind != FieldKind::Signature),
        required: get("required") == "on" && kind.is_input(),
    })
}

/// Makes a copy, named "Copy of …", and opens it.
pub async fn duplicate(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    form: FormFields,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::SendWorkflows, form.get("csrf")) {
        return refused;
    }
    let copied = async {
        let caller = session.auth.caller();
        let template = templates::template_for(&state.services, &caller, id).await?;
        let name = session.text.plain("templates.copy_of", &[("name", &template.name)]);
        let name: String = name.chars().take(200).collect();
        templates::duplicate(&state.services, &caller, id, &name).await
    }
    .await;
    match copied {
        Ok(copy) => see_other(&format!("/app/templates/{}", copy.id)),
        Err(error) => template_again(&state, &session, id, error).await,
    }
}

/// Archives the template (`archived=true`) or brings it back.
pub async fn archive(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    form: FormFields,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::SendWorkflows, form.get("csrf")) {
        return refused;
    }
    let archived = form.get("archived") == "true";
    match templates::archive(&state.services, &session.auth.caller(), id, archived).await {
        Ok(template) => see_other(&format!("/app/templates/{}", template.id)),
        Err(error) => template_again(&state, &session, id, error).await,
    }
}
