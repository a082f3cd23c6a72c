//! Sending: PDFs and signatories (in order, and in parallel groups by giving several the same
//! number, each with their method), then the placement screen, where each signatory's
//! signature boxes are dragged onto the rendered pages (`static/console.js`); without a
//! script a signatory's box goes below an anchor text or into its default slot. The workflow
//! starts through the same service as `POST /api/v1/workflows`, with the placed boxes as its
//! fields, and the same placement may be saved as a template. Attachments (files sent with the
//! workflow, and documents asked of the signers, each with a form or example) are chosen on the
//! first form, checked as the API checks them and kept until the workflow is sent
//! (`signet_services::workflows::staged`); the screens after it carry their keys.

use askama::Template;
use axum::extract::{Multipart, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::fields::FieldKind;
use signet_domain::phone::PhoneNumber;
use signet_domain::workflow::{MAX_SIGNATORIES, SignatoryInput, plan_signatories};
use signet_domain::workflow_settings::WorkflowSettings;
use signet_domain::{DocumentId, Error, stamp};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::platform::heavy::Share;
use signet_services::stamps::StampDetails;
use signet_services::workflows::documents::{self, check_pdf};
use signet_services::workflows::initiate::{EnvelopeExpiry, InitiateWorkflow};
use signet_services::workflows::staged::{self, ChosenAttachment, StagedAttachment};
use signet_services::workflows::templates::{self, TemplateDefinition, TemplateField};

use super::session::see_other;
use super::{FormFields, Frame, Session, failure, render, user_text};
use crate::text::{Lang, Text, key};

/// Signatory rows the first form opens with; more are added on the form (by its script, or a
/// link that asks for more rows), up to the workflow's limit. Rows left without an address
/// are skipped.
const FIRST_ROWS: usize = 3;
/// Documents in one sending.
const MAX_DOCUMENTS: usize = 10;
/// Pixels of a rendered page per point (the previews are rendered at 80 dpi).
const PIXELS_PER_POINT: f64 = 80.0 / 72.0;
/// A box dragged out of the palette, in points (as the API's anchor box).
const BOX: (f64, f64) = (160.0, 55.0);
/// Most boxes carried from one screen to the next.
const MAX_PLACED: usize = 500;
/// The smallest box the placement screen makes and the server takes, across and down, in
/// points (as the workflow's placement checks).
const MIN_BOX_POINTS: f64 = 10.0;
/// How far past a page's edge a box may reach, in points (rounding on the screen).
const EDGE_SLACK: f64 = 0.5;

/// Whether a box (points from the top-left corner) lies on a `width` × `height` page.
fn on_the_page(left: f64, top: f64, width: f64, height: f64, page: (f64, f64)) -> bool {
    left + width <= page.0 + EDGE_SLACK && top + height <= page.1 + EDGE_SLACK
}
/// Rows asking the signers for a document on the first form.
const REQUESTS: usize = 2;

/// A document asked of the signers (`signerAttachmentDetails`), as typed on the first form;
/// its file (a form or an example) is chosen with it.
#[derive(Clone, Default)]
struct RequestRow {
    number: usize,
    name: String,
    description: String,
}

fn request_rows(fields: &FormFields) -> Vec<RequestRow> {
    (1..=REQUESTS)
        .map(|number| RequestRow {
            number,
            name: fields.get(&format!("r{number}_name")).to_string(),
            description: fields.get(&format!("r{number}_description")).to_string(),
        })
        .collect()
}

/// The files chosen on the first form, as `(field, file name, bytes)`: the PDFs, then the
/// attachments to send and those asked of the signers (a row with a name or a file).
fn chosen_attachments(fields: &FormFields, files: &mut Vec<(String, String, Vec<u8>)>) -> Vec<ChosenAttachment> {
    let mut take = |field: &str| {
        let (taken, kept): (Vec<_>, Vec<_>) = std::mem::take(files).into_iter().partition(|(f, _, _)| f == field);
        *files = kept;
        taken.into_iter().map(|(_, name, bytes)| (name, bytes))
    };
    let mut chosen: Vec<ChosenAttachment> = take("attachments")
        .map(|(name, bytes)| ChosenAttachment { kind: "initiator", name, description: None, bytes })
        .collect();
    for row in request_rows(fields) {
        let file = take(&format!("r{}_file", row.number)).next();
        if row.name.is_empty() && file.is_none() {
            continue;
        }
        let (file_name, bytes) = file.unwrap_or_default();
        chosen.push(ChosenAttachment {
            kind: "requested",
            name: if row.name.is_empty() { file_name } else { row.name },
            description: Some(row.description).filter(|d| !d.is_empty()),
            bytes,
        });
    }
    chosen
}

/// The staged attachments the placement screen carries, in order (`att_kind`, `att_name`,
/// `att_description`, `att_key` repeated); the service refuses a key that is not a staged file
/// of the organisation.
fn carried_attachments(text: Text, fields: &FormFields) -> Result<Vec<StagedAttachment>, Error> {
    let column = |name: &str| fields.all(name).map(str::to_string).collect::<Vec<_>>();
    let (kinds, names, descriptions, keys) =
        (column("att_kind"), column("att_name"), column("att_description"), column("att_key"));
    if [names.len(), descriptions.len(), keys.len()].iter().any(|n| *n != kinds.len()) {
        return Err(Error::field("attachments", text.s("send.attachments_unreadable")));
    }
    Ok(kinds
        .into_iter()
        .zip(names)
        .zip(descriptions)
        .zip(keys)
        .map(|(((kind, name), description), key)| StagedAttachment { kind, name, description, key, size: 0 })
        .collect())
}

/// One signatory as the forms carry it.
#[derive(Clone, Default)]
struct Signer {
    number: usize,
    name: String,
    email: String,
    /// A mobile number for SMS, as typed (offered only where SMS is configured).
    mobile: String,
    /// The signer confirms a code texted to `mobile` before signing (offered with SMS only).
    otp: bool,
    order: String,
    method: String,
    anchor: String,
}

/// What a send carries from screen to screen: the stored documents (in order), the
/// signatories and the staged attachments.
struct Sending {
    documents: Vec<i64>,
    signers: Vec<Signer>,
    attachments: Vec<StagedAttachment>,
}

const METHODS: [(&str, &str); 3] = [
    ("electronic", key("send.method.electronic")),
    ("aadhaar_esign", key("send.method.aadhaar_esign")),
    ("dsc_token", key("send.method.dsc_token")),
];

/// Where the stamp duty comes from, as the send form offers it (`stampDetails.eStampType`).
const STAMP_SOURCES: [(&str, &str); 3] = [
    ("", key("send.stamp_source.none")),
    ("inventory", key("send.stamp_source.inventory")),
    ("digital", key("send.stamp_source.digital")),
];

/// The signing methods this installation offers, with their labels: Aadhaar eSign only where
/// an eSign provider is configured (a signer sent it elsewhere would find no way to sign).
fn offered_methods(state: &AppState, text: Text) -> Vec<(&'static str, &'static str)> {
    let esign = state.services.esign.is_some();
    METHODS
        .into_iter()
        .filter(|(value, _)| esign || *value != "aadhaar_esign")
        .map(|(value, label)| (value, text.s(label)))
        .collect()
}

/// Option values with their labels in the session's language.
fn options(text: Text, options: [(&'static str, &'static str); 3]) -> [(&'static str, &'static str); 3] {
    options.map(|(value, label)| (value, text.s(label)))
}

/// The stamp duty asked for on the send form, as typed; the placement screen carries it on.
#[derive(Clone, Default)]
struct StampForm {
    source: String,
    state: String,
    article: String,
    duty: String,
    first_party: String,
    second_party: String,
    paid_by: String,
    description: String,
    /// With `digital`: the provider's reference of the certificates to fetch.
    reference: String,
}

impl StampForm {
    /// The form's `stamp_*` fields; a new form's state is Maharashtra, as the stamps screen's
    /// (one posted empty is left to the provider's certificates).
    fn read(fields: &FormFields) -> StampForm {
        let field = |name: &str| fields.get(&format!("stamp_{name}")).trim().to_string();
        let posted = fields.0.iter().any(|(name, _)| name == "stamp_state");
        StampForm {
            source: field("source"),
            state: if posted { field("state") } else { "MH".into() },
            article: field("article"),
            duty: field("duty"),
            first_party: field("first_party"),
            second_party: field("second_party"),
            paid_by: field("paid_by"),
            description: field("description"),
            reference: field("reference"),
        }
    }

    /// The form's fields by name, for the placement screen's hidden inputs.
    fn carried(&self) -> [(&'static str, &str); 9] {
        [
            ("stamp_source", &self.source),
            ("stamp_state", &self.state),
            ("stamp_article", &self.article),
            ("stamp_duty", &self.duty),
            ("stamp_first_party", &self.first_party),
            ("stamp_second_party", &self.second_party),
            ("stamp_paid_by", &self.paid_by),
            ("stamp_description", &self.description),
            ("stamp_reference", &self.reference),
        ]
    }

    /// `stampDetails` as the workflow service takes them (none without a source); the service
    /// checks the rest (state, article, stock) as it does for the API.
    fn details(&self, text: Text) -> Result<Option<StampDetails>, Error> {
        if self.source.is_empty() {
            return Ok(None);
        }
        let denomination =
            if self.duty.is_empty() {
                0
            } else {
                self.duty.parse::<i64>().ok().filter(|d| *d > 0).ok_or_else(|| {
                    Error::field("stampDetails.denomination", text.s("send.denomination_whole_rupees"))
                })?
            };
        let given = |value: &str| Some(value.to_string()).filter(|v| !v.is_empty());
        Ok(Some(StampDetails {
            e_stamp_type: Some(self.source.clone()),
            state: given(&self.state),
            denomination,
            article_code: given(&self.article),
            first_party: given(&self.first_party),
            second_party: given(&self.second_party),
            paid_by: given(&self.paid_by),
            description: given(&self.description),
            suppress_page: false,
            provider_ref: given(&self.reference),
        }))
    }
}

/// The stamp duty asked for, checked before the placement screen (which carries it on without
/// a way to correct it): the state, the article, the duty and the stock that makes it up, as
/// the service will take them.
async fn check_stamp(state: &AppState, session: &Session, fields: &FormFields) -> Result<(), Error> {
    match StampForm::read(fields).details(session.text)? {
        Some(details) => {
            signet_services::stamps::check_details_for(&state.services, &session.auth.caller(), details).await
        }
        None => Ok(()),
    }
}

#[derive(Template)]
#[template(path = "console/send.html")]
struct SendPage {
    frame: Frame,
    error: Option<String>,
    name: String,
    /// The sender's own reference (a loan or account number), searched for in the list.
    reference: String,
    /// The link that asks for more signatory rows (without the form's script).
    more_rows: Option<String>,
    expiry_days: String,
    reminder_days: String,
    /// The sender's message to the signers.
    message: String,
    send_mail: bool,
    /// The signers' language as chosen (its code; empty: each signer's browser decides).
    signer_lang: String,
    signers: Vec<Signer>,
    /// The installation texts signers: each row offers a mobile number.
    sms: bool,
    methods: Vec<(&'static str, &'static str)>,
    templates: Vec<(i64, String)>,
    template: i64,
    stamp: StampForm,
    stamp_sources: [(&'static str, &'static str); 3],
    states: &'static [(&'static str, &'static str)],
    requests: Vec<RequestRow>,
}

/// The language of the signer pages and e-mails the forms chose (`signer_lang`, a code); none
/// when each signer's browser decides (or a code that is not one of ours).
fn signer_lang(fields: &FormFields) -> Option<Lang> {
    Lang::from_code(fields.get("signer_lang"))
}

impl SendPage {
    /// The languages the form offers the signers, by code and own name.
    fn signer_languages(&self) -> Vec<(&'static str, &'static str)> {
        Lang::ALL.iter().map(|lang| (lang.code(), lang.own_name())).collect()
    }
}

/// The tenant's templates to start from, by name.
async fn template_options(state: &AppState, session: &Session) -> Result<Vec<(i64, String)>, Error> {
    Ok(templates::usable(&state.services, &session.auth.caller())
        .await?
        .into_iter()
        .map(|t| (t.id.get(), t.name))
        .collect())
}

/// `count` empty signatory rows, each in its own place in the order.
fn empty_rows(count: usize) -> Vec<Signer> {
    (1..=count).map(|number| Signer { number, order: number.to_string(), ..Signer::default() }).collect()
}

/// The first form's rows with `signers` typed in, and one empty row after them (at least
/// [`FIRST_ROWS`], at most the workflow's limit).
fn rows_after(signers: &[Signer]) -> Vec<Signer> {
    let mut rows = signers.to_vec();
    let wanted = (rows.last().map_or(0, |s| s.number) + 1).clamp(FIRST_ROWS, MAX_SIGNATORIES);
    let next = rows.last().map_or(1, |s| s.number + 1);
    rows.extend((next..=wanted).map(|number| Signer { number, order: number.to_string(), ..Signer::default() }));
    rows
}

/// The link to the send form with three more rows than `rows`, while the limit allows.
fn more_rows_link(rows: usize) -> Option<String> {
    (rows < MAX_SIGNATORIES).then(|| format!("/app/send?rows={}", (rows + 3).min(MAX_SIGNATORIES)))
}

#[derive(serde::Deserialize)]
pub struct FormQuery {
    rows: Option<String>,
}

pub async fn form(State(state): State<AppState>, session: Session, Query(query): Query<FormQuery>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::SendWorkflows) {
        return refused;
    }
    let templates = match template_options(&state, &session).await {
        Ok(templates) => templates,
        Err(error) => return failure(error),
    };
    let asked = query.rows.and_then(|rows| rows.parse::<usize>().ok());
    let rows = asked.unwrap_or(FIRST_ROWS).clamp(FIRST_ROWS, MAX_SIGNATORIES);
    let page = SendPage {
        templates,
        template: 0,
        frame: session.frame("/app/send"),
        error: None,
        name: String::new(),
        reference: String::new(),
        more_rows: more_rows_link(rows),
        expiry_days: "30".into(),
        reminder_days: "3".into(),
        message: String::new(),
        send_mail: true,
        signer_lang: String::new(),
        signers: empty_rows(rows),
        sms: state.services.sms.is_some(),
        methods: offered_methods(&state, session.text),
        stamp: StampForm::read(&FormFields(Vec::new())),
        stamp_sources: options(session.text, STAMP_SOURCES),
        states: &stamp::STATES,
        requests: request_rows(&FormFields(Vec::new())),
    };
    render(StatusCode::OK, &page)
}

/// The signatory rows of a form with an address, numbered as on the form.
fn signers(fields: &FormFields) -> Vec<Signer> {
    (1..=MAX_SIGNATORIES)
        .map(|number| Signer {
            number,
            name: fields.get(&format!("s{number}_name")).to_string(),
            email: fields.get(&format!("s{number}_email")).to_string(),
            mobile: fields.get(&format!("s{number}_mobile")).trim().to_string(),
            otp: fields.get(&format!("s{number}_otp")) == "on",
            order: fields.get(&format!("s{number}_order")).to_string(),
            method: fields.get(&format!("s{number}_method")).to_string(),
            anchor: fields.get(&format!("s{number}_anchor")).to_string(),
        })
        .filter(|s| !s.email.is_empty())
        .collect()
}

/// The signatories as the workflow service takes them; a missing order puts the row last.
fn signatory_inputs(text: Text, signers: &[Signer]) -> Result<Vec<SignatoryInput>, Error> {
    signers
        .iter()
        .map(|s| {
            let refused = |why: &str| Error::field(&text.plain("send.field.signer", &[("n", &s.number)]), text.s(why));
            let order = if s.order.is_empty() { Ok(s.number as i64) } else { s.order.parse::<i64>() };
            let order = order.map_err(|_| refused(key("send.order_must_be_a_number")))?;
            // Checked here too, so that the refusal names the row in the page's words.
            let mobile = match s.mobile.as_str() {
                "" => None,
                typed => Some(PhoneNumber::parse(typed).map_err(|_| refused(key("send.mobile_must_be_a_number")))?),
            };
            if s.otp && mobile.is_none() {
                return Err(refused(key("send.code_needs_a_mobile")));
            }
            Ok(SignatoryInput {
                subscriber_id: 0,
                email: s.email.clone(),
                name: Some(s.name.clone()).filter(|n| !n.is_empty()),
                signing_order: order,
                mode: Some(s.method.clone()).filter(|m| !m.is_empty()),
                mobile: mobile.map(|m| m.e164().to_string()),
                otp_sms: s.otp,
            })
        })
        .collect()
}

/// The first form: the files are checked and stored, the signatories checked, and the
/// placement screen shown. A refusal shows the form again with what to correct.
pub async fn upload(State(state): State<AppState>, session: Session, multipart: Multipart) -> Response {
    if let Some(refused) = session.refuses_without(Permission::SendWorkflows) {
        return refused;
    }
    let file_fields = ["documents", "attachments", "r1_file", "r2_file"];
    let (fields, mut files) =
        match super::read_multipart_files(session.text, multipart, &file_fields, "attachment").await {
            Ok(read) => read,
            Err(text) => return super::page_error(StatusCode::BAD_REQUEST, &text),
        };
    if let Some(refused) = session.refuses_form(fields.get("csrf")) {
        return refused;
    }
    let attachments = chosen_attachments(&fields, &mut files);
    let files: Vec<(String, Vec<u8>)> =
        files.into_iter().filter(|(field, _, _)| field == "documents").map(|(_, name, bytes)| (name, bytes)).collect();
    let signers = signers(&fields);
    let template = fields.get("template").parse::<i64>().unwrap_or(0);
    let templates = match template_options(&state, &session).await {
        Ok(templates) => templates,
        Err(error) => return failure(error),
    };
    let again = |error: String| {
        let rows = rows_after(&signers);
        let page = SendPage {
            frame: session.frame("/app/send"),
            error: Some(error),
            name: fields.get("name").to_string(),
            reference: fields.get("reference").to_string(),
            more_rows: more_rows_link(rows.len()),
            expiry_days: fields.get("expiry_days").to_string(),
            reminder_days: fields.get("reminder_days").to_string(),
            message: fields.get("message").to_string(),
            send_mail: fields.get("send_mail") == "on",
            signer_lang: fields.get("signer_lang").to_string(),
            signers: rows,
            sms: state.services.sms.is_some(),
            methods: offered_methods(&state, session.text),
            templates: templates.clone(),
            template,
            stamp: StampForm::read(&fields),
            stamp_sources: options(session.text, STAMP_SOURCES),
            states: &stamp::STATES,
            requests: request_rows(&fields),
        };
        render(StatusCode::BAD_REQUEST, &page)
    };
    if let Err(error) = signatory_inputs(session.text, &signers).and_then(|inputs| plan_signatories(&inputs)) {
        return again(user_text(&error));
    }
    if let Err(error) = check_stamp(&state, &session, &fields).await {
        return again(user_text(&error));
    }
    if files.len() > MAX_DOCUMENTS {
        return again(session.text.plain("send.too_many_documents", &[("max", &MAX_DOCUMENTS)]));
    }
    let mut documents = Vec::with_capacity(files.len() + 1);
    // A send from a template that keeps its document needs no upload: its copy is the document.
    if files.is_empty() && template != 0 {
        match templates::document_for_send(&state.services, &session.auth.caller(), template).await {
            Ok(Some(kept)) => documents.push(kept.id.get()),
            Ok(None) => {}
            Err(error) if signet_http::error::status_of(error.code()).is_client_error() => {
                return again(user_text(&error));
            }
            Err(error) => return failure(error),
        }
    }
    if files.is_empty() && documents.is_empty() {
        return again(session.text.s("send.choose_a_document").into());
    }
    for (name, bytes) in files {
        let field = session.text.plain("send.field.document", &[("name", &name)]);
        let checked = match state
            .services
            .heavy
            .run(Share::Tenant(session.auth.tenant_id), move || check_pdf(&field, name, bytes))
            .await
        {
            Ok(Ok(checked)) => checked,
            Ok(Err(error)) => return again(user_text(&error)),
            Err(error) => return failure(error),
        };
        match documents::keep(&state.services, &session.auth.caller(), checked).await {
            Ok(row) => documents.push(row.id.get()),
            Err(error) => return failure(error),
        }
    }
    // The attachments are checked as the API checks them and kept until the workflow is sent.
    let staged = match staged::stage(&state.services, &session.auth.caller(), attachments).await {
        Ok(staged) => staged,
        Err(error) if signet_http::error::status_of(error.code()).is_client_error() => return again(user_text(&error)),
        Err(error) => return failure(error),
    };
    let sending = Sending { documents, signers: signers.clone(), attachments: staged };
    if template == 0 {
        return placement_page(&state, &session, &fields, &sending, None).await;
    }
    // The template places the boxes: the review shows them before anything is sent.
    let carried = review_carry(&fields, &sending);
    match checked_review(&state, &session, &carried, &sending).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) if signet_http::error::status_of(error.code()).is_client_error() => again(user_text(&error)),
        Err(error) => failure(error),
    }
}

/// What the review of a send from a template carries on to **Send**: the send form's fields
/// (not its files, nor the rows of files asked of the signers, which are staged by now), the
/// stored documents and the staged attachments.
fn review_carry(fields: &FormFields, sending: &Sending) -> FormFields {
    let is_request_row = |name: &str| {
        name.strip_prefix('r').and_then(|rest| rest.split_once('_')).is_some_and(|(n, _)| n.parse::<u32>().is_ok())
    };
    let mut carried: Vec<(String, String)> =
        fields.0.iter().filter(|(name, _)| name != "csrf" && !is_request_row(name)).cloned().collect();
    carried.extend(sending.documents.iter().map(|id| ("document".to_string(), id.to_string())));
    for a in &sending.attachments {
        for (name, value) in
            [("att_kind", &a.kind), ("att_name", &a.name), ("att_description", &a.description), ("att_key", &a.key)]
        {
            carried.push((name.to_string(), value.clone()));
        }
    }
    FormFields(carried)
}

/// The placement screen's `field` value of a box on a page (`placed_field` reads it back).
fn placement_value(field: &TemplateField) -> Option<String> {
    let page = field.page.as_ref().and_then(serde_json::Value::as_u64)?;
    let (document, left, top, width, height) = (field.document?, field.left?, field.top?, field.width?, field.height?);
    let label = field.label.as_deref().unwrap_or_default();
    Some(format!(
        "{}:{document}:{page}:{left}:{top}:{width}:{height}:{}:{}:{label}",
        field.signatory,
        field.kind.as_str(),
        u8::from(field.required)
    ))
}

struct SheetView {
    number: usize,
    width: f64,
    height: f64,
    pixel_width: u32,
    pixel_height: u32,
    /// The boxes placed on the page (the review draws them).
    boxes: Vec<BoxView>,
}

/// A placed box as the review draws it, in points from the page's top-left corner.
struct BoxView {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    signatory: u32,
    /// What it is and whose: `Signature of Asha Rao`.
    text: String,
}

struct DocumentView {
    id: i64,
    position: usize,
    name: String,
    sheets: Vec<SheetView>,
}

#[derive(Template)]
#[template(path = "console/place.html")]
struct PlacePage {
    frame: Frame,
    error: Option<String>,
    name: String,
    reference: String,
    expiry_days: String,
    reminder_days: String,
    /// The sender's message to the signers.
    message: String,
    template_name: String,
    send_mail: bool,
    signer_lang: String,
    signers: Vec<Signer>,
    documents: Vec<DocumentView>,
    box_width: f64,
    box_height: f64,
    stamp: StampForm,
    attachments: Vec<StagedAttachment>,
    /// Boxes placed before (back from the review, or a refusal), drawn again by the script.
    placed: Vec<String>,
    /// Whether a signatory signs below an anchor text (its inputs are then shown open).
    anchored: bool,
}

/// The tenant's document `id` and the size of each page shown.
async fn document_view(state: &AppState, session: &Session, id: i64, position: usize) -> Result<DocumentView, Error> {
    let (row, bytes) = documents::staged(&state.services, &session.auth.caller(), DocumentId::from(id)).await?;
    let sizes = state
        .services
        .heavy
        .run(Share::Tenant(session.auth.tenant_id), move || {
            signet_pdf::page_sizes(&bytes).map_err(|e| Error::field("document", e.to_string()))
        })
        .await??;
    let sheets = sizes
        .into_iter()
        .take(crate::preview::MAX_PREVIEW_PAGES)
        .enumerate()
        .map(|(i, (width, height))| SheetView {
            number: i + 1,
            width,
            height,
            pixel_width: (width * PIXELS_PER_POINT).round() as u32,
            pixel_height: (height * PIXELS_PER_POINT).round() as u32,
            boxes: Vec::new(),
        })
        .collect();
    Ok(DocumentView { id, position, name: row.name, sheets })
}

/// The views of the documents being sent, in order.
async fn document_views(state: &AppState, session: &Session, documents: &[i64]) -> Result<Vec<DocumentView>, Error> {
    let mut views = Vec::with_capacity(documents.len());
    for (position, id) in documents.iter().enumerate() {
        views.push(document_view(state, session, *id, position).await?);
    }
    Ok(views)
}

async fn placement_page(
    state: &AppState,
    session: &Session,
    fields: &FormFields,
    sending: &Sending,
    error: Option<String>,
) -> Response {
    match document_views(state, session, &sending.documents).await {
        Ok(views) => placement_with(session, fields, sending, views, error),
        Err(error) => failure(error),
    }
}

/// The placement screen for documents already read.
fn placement_with(
    session: &Session,
    fields: &FormFields,
    sending: &Sending,
    views: Vec<DocumentView>,
    error: Option<String>,
) -> Response {
    let page = PlacePage {
        frame: session.frame("/app/send"),
        error,
        name: fields.get("name").to_string(),
        reference: fields.get("reference").to_string(),
        expiry_days: fields.get("expiry_days").to_string(),
        reminder_days: fields.get("reminder_days").to_string(),
        message: fields.get("message").to_string(),
        template_name: fields.get("template_name").to_string(),
        send_mail: fields.get("send_mail") == "on",
        signer_lang: fields.get("signer_lang").to_string(),
        signers: sending.signers.clone(),
        documents: views,
        box_width: BOX.0,
        box_height: BOX.1,
        stamp: StampForm::read(fields),
        attachments: sending.attachments.clone(),
        placed: fields.all("field").take(MAX_PLACED).map(str::to_string).collect(),
        anchored: sending.signers.iter().any(|s| !s.anchor.is_empty()),
    };
    let status = if page.error.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    render(status, &page)
}

/// A page of a document being placed, as an image.
pub async fn page_image(
    State(state): State<AppState>,
    session: Session,
    ApiPath((id, page)): ApiPath<(i64, usize)>,
) -> Response {
    if let Some(refused) = session.refuses_without(Permission::SendWorkflows) {
        return refused;
    }
    match documents::staged(&state.services, &session.auth.caller(), DocumentId::from(id)).await {
        Ok((row, bytes)) => crate::preview::page_response(&bytes, page, row.page_count as usize).await,
        Err(error) if error.code() == signet_domain::ErrorCode::NotFound => {
            super::page_error(StatusCode::NOT_FOUND, session.text.s("send.no_such_document"))
        }
        Err(error) => failure(error),
    }
}

/// One placed box, as the placement screen writes it:
/// `signatory:document:page:left:top:width:height[:kind:required:label]` (the label last, as
/// it may hold colons).
fn placed_field(words: Text, text: &str, signatories: usize, documents: usize) -> Result<TemplateField, Error> {
    let invalid = || Error::field("field", words.s("send.box_unreadable"));
    let parts: Vec<&str> = text.splitn(10, ':').collect();
    let [signatory, document, page, left, top, width, height, rest @ ..] = parts.as_slice() else {
        return Err(invalid());
    };
    let signatory: u32 = signatory.parse().map_err(|_| invalid())?;
    let document: usize = document.parse().map_err(|_| invalid())?;
    let page: u32 = page.parse().map_err(|_| invalid())?;
    let number = |s: &str| s.parse::<f64>().ok().filter(|n| n.is_finite() && *n >= 0.0 && *n <= 20_000.0);
    let (Some(left), Some(top), Some(width), Some(height)) = (number(left), number(top), number(width), number(height))
    else {
        return Err(invalid());
    };
    if signatory == 0 || signatory as usize > signatories || document >= documents || page == 0 {
        return Err(invalid());
    }
    if width < MIN_BOX_POINTS || height < MIN_BOX_POINTS {
        return Err(Error::field("field", words.s("send.box_too_small")));
    }
    let kind = match rest.first() {
        Some(kind) => FieldKind::parse(kind).ok_or_else(invalid)?,
        None => FieldKind::Signature,
    };
    let required = rest.get(1).is_some_and(|r| *r == "1");
    let label = rest.get(2).map(|l| l.trim().to_string()).filter(|l| !l.is_empty());
    Ok(TemplateField {
        signatory,
        document: Some(document),
        page: Some(serde_json::json!(page)),
        left: Some(left),
        top: Some(top),
        width: Some(width),
        height: Some(height),
        anchor: None,
        kind,
        label: label.filter(|_| kind != FieldKind::Signature),
        required: required && kind.is_input(),
    })
}

/// What the placement screen and the review carry: the documents, the signatories and the
/// staged attachments (or why they could not be read).
fn carried(text: Text, fields: &FormFields) -> (Sending, Result<(), Error>) {
    let documents: Vec<i64> = fields.all("document").filter_map(|d| d.parse().ok()).take(MAX_DOCUMENTS).collect();
    let (attachments, read) = match carried_attachments(text, fields) {
        Ok(attachments) => (attachments, Ok(())),
        Err(error) => (Vec::new(), Err(error)),
    };
    (Sending { documents, signers: signers(fields), attachments }, read)
}

/// The review's **Send** (or the placement screen's form posted as it is): the workflow starts,
/// and the template is saved, when named.
pub async fn start(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::SendWorkflows, fields.get("csrf")) {
        return refused;
    }
    let (sending, carried) = carried(session.text, &fields);
    let sent = match carried {
        Ok(()) => send(&state, &session, &fields, &sending).await,
        Err(error) => Err(error),
    };
    match sent {
        Ok(id) => see_other(&format!("/app/workflows/{id}")),
        Err(error) if signet_http::error::status_of(error.code()).is_client_error() => {
            // A send from a template comes back to the placement screen with its boxes drawn.
            let text = Some(user_text(&error));
            let views = match document_views(&state, &session, &sending.documents).await {
                Ok(views) => views,
                Err(error) => return failure(error),
            };
            let fields = from_template(&state, &session, &fields, &page_counts(&views)).await.unwrap_or(fields);
            let sending = Sending { signers: signers(&fields), ..sending };
            placement_with(&session, &fields, &sending, views, text)
        }
        Err(error) => failure(error),
    }
}

struct ReviewSigner {
    order: String,
    name: String,
    email: String,
    /// In international form, as it will be texted (empty: none).
    mobile: String,
    /// Asked for a code by SMS before signing.
    otp: bool,
    method: &'static str,
    anchor: String,
}

#[derive(Template)]
#[template(path = "console/review.html")]
struct ReviewPage {
    frame: Frame,
    name: String,
    reference: String,
    documents: Vec<DocumentView>,
    signers: Vec<ReviewSigner>,
    /// Placed boxes in words, for whoever does not see the pages.
    placed: Vec<String>,
    expiry: String,
    reminders: String,
    send_mail: bool,
    /// The signers' language by its own name; none: each signer's browser decides.
    signer_lang: Option<&'static str>,
    message: String,
    stamp: Vec<(&'static str, String)>,
    attachments: Vec<StagedAttachment>,
    template_name: String,
    /// The template whose boxes these are (empty when placed on the placement screen).
    from_template: String,
    /// Every field of the placement screen's form, sent on with **Send** or **Back to change**.
    carried: Vec<(String, String)>,
}

/// A number of days typed, in words: the catalogue's `<key>.none`, `<key>.one` or
/// `<key>.other` (keys `[none, one, other]`).
fn in_days(text: Text, typed: &str, keys: [&str; 3]) -> String {
    match typed.parse::<i64>() {
        Ok(days) if days > 0 => text.plain(if days == 1 { keys[1] } else { keys[2] }, &[("n", &days)]),
        _ => text.s(keys[0]).to_string(),
    }
}

/// The stamp duty asked for, in words (nothing without e-stamping).
fn stamp_lines(text: Text, stamp: &StampForm) -> Vec<(&'static str, String)> {
    if stamp.source.is_empty() {
        return Vec::new();
    }
    let source = STAMP_SOURCES
        .iter()
        .find(|(value, _)| *value == stamp.source)
        .map_or(stamp.source.as_str(), |(_, l)| text.s(l));
    let state = stamp::STATES.iter().find(|(code, _)| *code == stamp.state).map_or(stamp.state.as_str(), |(_, n)| n);
    let duty = match (stamp.duty.is_empty(), stamp.source == "digital") {
        (false, _) => format!("₹{}", stamp.duty),
        (true, false) => text.s("review.stamp.fixed_duty").to_string(),
        (true, true) => text.s("review.stamp.providers_duty").to_string(),
    };
    [
        (text.s("review.stamp.e_stamping"), source.to_string()),
        (text.s("review.stamp.reference"), stamp.reference.clone()),
        (text.s("review.stamp.state"), state.to_string()),
        (text.s("review.stamp.article"), stamp.article.clone()),
        (text.s("review.stamp.duty"), duty),
        (text.s("review.stamp.first_party"), stamp.first_party.clone()),
        (text.s("review.stamp.second_party"), stamp.second_party.clone()),
        (text.s("review.stamp.paid_by"), stamp.paid_by.clone()),
        (text.s("review.stamp.description"), stamp.description.clone()),
    ]
    .into_iter()
    .filter(|(_, value)| !value.is_empty())
    .collect()
}

async fn review_page(
    state: &AppState,
    session: &Session,
    fields: &FormFields,
    sending: &Sending,
    placed: &[TemplateField],
) -> Result<ReviewPage, Error> {
    let signers = &sending.signers;
    let mut views = document_views(state, session, &sending.documents).await?;
    let who = |signatory: u32| {
        let signer = (signatory as usize).checked_sub(1).and_then(|i| signers.get(i));
        signer.map(|s| if s.name.is_empty() { s.email.clone() } else { s.name.clone() }).unwrap_or_default()
    };
    let pages = page_counts(&views);
    let mut words = Vec::new();
    for field in &templates::on_the_pages(placed, &pages) {
        let what = field.label.clone().unwrap_or_else(|| field.kind.default_label().to_string());
        let text = session.text.plain("review.placed.box", &[("what", &what), ("who", &who(field.signatory))]);
        let page = field.page.as_ref().and_then(serde_json::Value::as_u64).unwrap_or(0) as usize;
        let sheet = field.document.and_then(|d| views.get_mut(d)).and_then(|d| {
            let name = d.name.clone();
            d.sheets.get_mut(page.wrapping_sub(1)).map(|sheet| (name, sheet))
        });
        match (sheet, field.left, field.top, field.width, field.height) {
            (Some((document, sheet)), Some(left), Some(top), Some(width), Some(height)) => {
                if !on_the_page(left, top, width, height, (sheet.width, sheet.height)) {
                    return Err(Error::field(
                        "field",
                        session.text.plain("send.box_off_the_page", &[("page", &page), ("document", &document)]),
                    ));
                }
                words.push(
                    session
                        .text
                        .plain("review.placed.on_page", &[("box", &text), ("document", &document), ("page", &page)]),
                );
                sheet.boxes.push(BoxView { left, top, width, height, signatory: field.signatory, text });
            }
            _ => match &field.anchor {
                Some(anchor) => {
                    words.push(session.text.plain("review.placed.below", &[("box", &text), ("anchor", anchor)]))
                }
                None => words.push(session.text.plain("review.placed.not_shown", &[("box", &text), ("page", &page)])),
            },
        }
    }
    let method = |value: &str| {
        session.text.s(METHODS.iter().find(|(v, _)| *v == value).map_or(METHODS[0].1, |(_, label)| label))
    };
    Ok(ReviewPage {
        frame: session.frame("/app/send"),
        name: fields.get("name").to_string(),
        reference: fields.get("reference").to_string(),
        documents: views,
        signers: signers
            .iter()
            .map(|s| ReviewSigner {
                order: if s.order.is_empty() { s.number.to_string() } else { s.order.clone() },
                name: s.name.clone(),
                email: s.email.clone(),
                mobile: PhoneNumber::parse(&s.mobile).map(|m| m.e164().to_string()).unwrap_or_default(),
                otp: s.otp,
                method: method(&s.method),
                anchor: s.anchor.clone(),
            })
            .collect(),
        placed: words,
        expiry: in_days(
            session.text,
            fields.get("expiry_days"),
            [key("review.expiry.none"), key("review.expiry.one"), key("review.expiry.other")],
        ),
        reminders: in_days(
            session.text,
            fields.get("reminder_days"),
            [key("review.reminders.none"), key("review.reminders.one"), key("review.reminders.other")],
        ),
        send_mail: fields.get("send_mail") == "on",
        signer_lang: signer_lang(fields).map(Lang::own_name),
        message: fields.get("message").to_string(),
        stamp: stamp_lines(session.text, &StampForm::read(fields)),
        attachments: sending.attachments.clone(),
        template_name: fields.get("template_name").to_string(),
        from_template: String::new(),
        carried: fields.0.iter().filter(|(name, _)| name != "csrf").cloned().collect(),
    })
}

/// The placement screen's form: the review of what would be sent, checked as the API's initiate
/// checks it and with nothing stored; a refusal shows the placement screen again with the boxes.
pub async fn review(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::SendWorkflows, fields.get("csrf")) {
        return refused;
    }
    let (sending, carried) = carried(session.text, &fields);
    let checked = match carried {
        Ok(()) => checked_review(&state, &session, &fields, &sending).await,
        Err(error) => Err(error),
    };
    match checked {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) if signet_http::error::status_of(error.code()).is_client_error() => {
            let text = Some(user_text(&error));
            placement_page(&state, &session, &fields, &sending, text).await
        }
        Err(error) => failure(error),
    }
}

/// What would be sent, checked as the API's initiate checks it and with nothing stored: the
/// review page, with the boxes placed on the placement screen or by the template chosen.
async fn checked_review(
    state: &AppState,
    session: &Session,
    fields: &FormFields,
    sending: &Sending,
) -> Result<ReviewPage, Error> {
    let request = request_of(session.text, fields, sending)?;
    let (template, placed) = match request.template_id {
        0 => (String::new(), request.fields.clone()),
        id => {
            let (name, definition) = templates::read_for(&state.services, &session.auth.caller(), id).await?;
            (name, definition.fields)
        }
    };
    staged::validate_with(&state.services, &session.auth.caller(), request, &sending.attachments).await?;
    let mut page = review_page(state, session, fields, sending, &placed).await?;
    page.from_template = template;
    Ok(page)
}

/// The review's **Back to change**: the placement screen again, with everything as it was. A
/// send from a template comes back with the template's boxes drawn, to be changed as any
/// others (the template itself stays as it is).
pub async fn back(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::SendWorkflows, fields.get("csrf")) {
        return refused;
    }
    let (sending, carried) = carried(session.text, &fields);
    let error = carried.err().map(|error| user_text(&error));
    let views = match document_views(&state, &session, &sending.documents).await {
        Ok(views) => views,
        Err(error) => return failure(error),
    };
    let fields = match from_template(&state, &session, &fields, &page_counts(&views)).await {
        Ok(fields) => fields,
        Err(error) if signet_http::error::status_of(error.code()).is_client_error() => {
            return super::page_error(StatusCode::BAD_REQUEST, &user_text(&error));
        }
        Err(error) => return failure(error),
    };
    let sending = Sending { signers: signers(&fields), ..sending };
    placement_with(&session, &fields, &sending, views, error)
}

/// The page count of each document viewed.
fn page_counts(views: &[DocumentView]) -> Vec<usize> {
    views.iter().map(|v| v.sheets.len()).collect()
}

/// `fields` with the chosen template's boxes in place of the template, as the placement screen
/// draws boxes, and its anchor texts as the signatories'; `fields` as they are without a
/// template. (The signatories are read again from what it answers.)
async fn from_template(
    state: &AppState,
    session: &Session,
    fields: &FormFields,
    pages: &[usize],
) -> Result<FormFields, Error> {
    let id = fields.get("template").parse::<i64>().unwrap_or(0);
    if id == 0 {
        return Ok(FormFields(fields.0.clone()));
    }
    let (_, definition) = templates::read_for(&state.services, &session.auth.caller(), id).await?;
    // A signature placed below a text becomes that signatory's anchor on the screen (the
    // template's signatory N is the N-th row with an address, as the request numbers them).
    let listed = signers(fields);
    let anchors: Vec<(String, String)> = definition
        .fields
        .iter()
        .filter_map(|f| {
            let row = listed.get((f.signatory as usize).checked_sub(1)?)?;
            Some((format!("s{}_anchor", row.number), f.anchor.clone()?))
        })
        .collect();
    let mut drawn: Vec<(String, String)> = fields
        .0
        .iter()
        .filter(|(name, _)| name != "template" && !anchors.iter().any(|(anchor, _)| anchor == name))
        .cloned()
        .collect();
    drawn.extend(anchors);
    let boxes = templates::on_the_pages(&definition.fields, pages);
    drawn.extend(boxes.iter().filter_map(placement_value).take(MAX_PLACED).map(|v| ("field".to_string(), v)));
    Ok(FormFields(drawn))
}

fn days(words: Text, fields: &FormFields, name: &str, label: &str) -> Result<Option<u32>, Error> {
    let text = fields.get(name);
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<u32>()
        .ok()
        .filter(|d| *d <= 365)
        .map(Some)
        .ok_or_else(|| Error::field(label, words.s("send.days_0_to_365")))
}

/// The workflow the forms ask for, as the API's initiate takes it (the staged attachments
/// are added by the service).
fn request_of(text: Text, fields: &FormFields, sending: &Sending) -> Result<InitiateWorkflow, Error> {
    let (documents, signers) = (&sending.documents, &sending.signers);
    let mut placed = fields
        .all("field")
        .map(|f| placed_field(text, f, signers.len(), documents.len()))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, signer) in signers.iter().enumerate() {
        if !signer.anchor.is_empty() {
            placed.push(TemplateField {
                signatory: (i + 1) as u32,
                document: None,
                page: None,
                left: None,
                top: None,
                width: None,
                height: None,
                anchor: Some(signer.anchor.clone()),
                kind: FieldKind::Signature,
                label: None,
                required: false,
            });
        }
    }
    // 0 days: no expiry of the sender's (a template's default still applies).
    let envelope_expiry = days(text, fields, "expiry_days", "expiry")?.filter(|d| *d > 0).map(EnvelopeExpiry::InDays);
    Ok(InitiateWorkflow {
        template_id: fields.get("template").parse::<i64>().unwrap_or(0),
        name: Some(fields.get("name").to_string()).filter(|n| !n.is_empty()),
        reference_no: Some(fields.get("reference").trim().to_string()).filter(|r| !r.is_empty()),
        workflow_type: 0,
        document_ids: documents.to_vec(),
        signatories: signatory_inputs(text, signers)?,
        hsm_certificate_id: None,
        linked_workflow_id: 0,
        redirect_url: None,
        envelope_expiry,
        reminder_frequency: days(text, fields, "reminder_days", "reminders")?.map(i64::from),
        settings: WorkflowSettings { send_mail: fields.get("send_mail") == "on", ..WorkflowSettings::default() },
        signer_lang: signer_lang(fields),
        message: Some(fields.get("message").to_string()).filter(|m| !m.is_empty()),
        attachments: Vec::new(),
        stamp: StampForm::read(fields).details(text)?,
        fields: placed,
        values: Default::default(),
    })
}

/// The staged document `id` as the checked PDF it was when uploaded, for a template to keep.
async fn kept_copy(state: &AppState, session: &Session, id: i64) -> Result<documents::CheckedPdf, Error> {
    let (row, bytes) = documents::staged(&state.services, &session.auth.caller(), DocumentId::from(id)).await?;
    Ok(documents::CheckedPdf {
        name: row.name,
        bytes: bytes.to_vec(),
        pages: row.page_count,
        sha256: row.original_sha256,
    })
}

async fn send(state: &AppState, session: &Session, fields: &FormFields, sending: &Sending) -> Result<i64, Error> {
    let request = request_of(session.text, fields, sending)?;
    let template_name = fields.get("template_name");
    if !template_name.is_empty() {
        let definition = TemplateDefinition { fields: request.fields.clone(), ..TemplateDefinition::default() };
        // The template keeps the first document, so that sending from it needs no upload.
        let kept = match sending.documents.first() {
            Some(id) => Some(kept_copy(state, session, *id).await?),
            None => None,
        };
        let caller = session.auth.caller();
        templates::create_keeping(&state.services, &caller, Some(template_name), None, definition, kept).await?;
    }
    let created = staged::initiate_with(&state.services, &session.auth.caller(), request, &sending.attachments).await?;
    Ok(created.workflow.id.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placed_box_names_a_signatory_document_and_page_that_exist() {
        let field = placed_field(Text::EN, "2:0:1:72:600.5:160:55", 3, 1).expect("a box");
        assert_eq!((field.signatory, field.document, field.left, field.top), (2, Some(0), Some(72.0), Some(600.5)));
        for bad in [
            "0:0:1:1:1:1:1",
            "4:0:1:1:1:1:1",
            "1:1:1:1:1:1:1",
            "1:0:0:1:1:1:1",
            "1:0:1:-1:1:1:1",
            "1:0:1:NaN:1:1:1",
            "1:0:1:1:1:1",
            "x",
        ] {
            assert!(placed_field(Text::EN, bad, 3, 1).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_placed_box_is_at_least_ten_points_and_stays_on_its_page() {
        assert!(placed_field(Text::EN, "1:0:1:0:0:10:10", 1, 1).is_ok());
        for small in ["1:0:1:0:0:9.9:40", "1:0:1:0:0:160:0", "1:0:1:0:0:0:0"] {
            let refused = placed_field(Text::EN, small, 1, 1).expect_err(small);
            assert!(user_text(&refused).contains("smaller than 10 points"), "{small}: {}", user_text(&refused));
        }
        let letter = (612.0, 792.0);
        assert!(on_the_page(452.0, 737.0, 160.0, 55.0, letter), "to the corner");
        assert!(on_the_page(452.3, 737.2, 160.0, 55.0, letter), "rounding on the screen");
        assert!(!on_the_page(500.0, 100.0, 160.0, 55.0, letter), "past the right edge");
        assert!(!on_the_page(10.0, 760.0, 160.0, 55.0, letter), "past the foot");
    }

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
    fn a_templates_box_is_drawn_as_the_placement_screen_would_post_it() {
        let field = TemplateField {
            kind: FieldKind::Text,
            label: Some("Loan: number".into()),
            required: true,
            ..template_field(Some(0), serde_json::json!(2))
        };
        let value = placement_value(&field).expect("a box on a page");
        let read = placed_field(Text::EN, &value, 1, 1).expect("read back");
        assert_eq!((read.page, read.left, read.top), (Some(serde_json::json!(2)), Some(72.0), Some(600.0)));
        assert_eq!((read.kind, read.label.as_deref(), read.required), (FieldKind::Text, Some("Loan: number"), true));
        assert!(placement_value(&template_field(None, serde_json::json!(1))).is_none(), "every document");
        assert!(placement_value(&template_field(Some(0), serde_json::json!("last"))).is_none(), "no page number");
    }

    #[test]
    fn rows_without_an_order_keep_their_place() {
        let signer = |number: usize, order: &str| Signer {
            number,
            email: format!("s{number}@x.example"),
            order: order.into(),
            ..Signer::default()
        };
        let inputs = signatory_inputs(Text::EN, &[signer(1, ""), signer(2, "1"), signer(3, "")]).expect("inputs");
        assert_eq!(inputs.iter().map(|i| i.signing_order).collect::<Vec<_>>(), vec![1, 1, 3]);
        assert!(signatory_inputs(Text::EN, &[signer(1, "first")]).is_err());
    }

    #[test]
    fn a_rows_mobile_number_is_checked_and_sent_in_international_form() {
        let signer = |mobile: &str| Signer {
            number: 2,
            email: "s2@x.example".into(),
            mobile: mobile.into(),
            ..Signer::default()
        };
        let inputs = signatory_inputs(Text::EN, &[signer("98765 43210")]).expect("inputs");
        assert_eq!(inputs[0].mobile.as_deref(), Some("+919876543210"));
        assert_eq!(signatory_inputs(Text::EN, &[signer("")]).expect("inputs")[0].mobile, None);
        let refused = signatory_inputs(Text::EN, &[signer("12345")]).map(drop);
        let Err(Error::Validation(fields)) = refused else { panic!("refused: {refused:?}") };
        assert!(fields["signer 2"][0].contains("10-digit Indian mobile"), "{fields:?}");
        let code_without_number = Signer { otp: true, ..signer("") };
        let refused = signatory_inputs(Text::EN, &[code_without_number]).map(drop);
        let Err(Error::Validation(fields)) = refused else { panic!("refused: {refused:?}") };
        assert!(fields["signer 2"][0].contains("needs their mobile number"), "{fields:?}");
        let inputs = signatory_inputs(Text::EN, &[Signer { otp: true, ..signer("98765 43210") }]).expect("inputs");
        assert!(inputs[0].otp_sms);
    }
}
