//! A workflow's invoices (docs/stamps.md, "Invoices"): the tenant's billing profile (the
//! recipient the documents are made out to), issuing the tax invoice and debit note of an ended
//! workflow, the documents issued (newest first, in pages, by issue date and workflow) and
//! finding a workflow's documents with their PDFs. As the API's operations, with their
//! permissions: reading what was issued needs `read_workflows` (`GET /api/v1/stamps/invoices`,
//! `GET /api/v1/stamps/invoices/{workflowId}`); the billing profile and issuing `manage_settings`.

use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::invoice::{InvoiceKind, PartyInput, format_rupees};
use signet_domain::stamp;
use signet_domain::{Error, FieldErrors};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_http::files::pdf_response;
use signet_services::billing::invoices::{self as service, IssuedDocument, ListInput, WorkflowInvoices};

use super::session::see_other;
use super::{FormFields, Frame, Session, failure, page_error, render, shown_again};
use crate::text::{Text, key};

/// The documents of a workflow, by the address they download from.
const DOCUMENTS: [(&str, &str); 2] =
    [("invoice", key("invoices.tax_invoice")), ("debit-note", key("invoices.debit_note"))];

/// Documents listed a page.
const LISTED: i64 = 25;

/// The list's filters as typed (the query of its GET form).
#[derive(Debug, Default, Clone, serde::Deserialize)]
pub struct ListFilter {
    #[serde(default)]
    issued_from: String,
    #[serde(default)]
    issued_to: String,
    #[serde(default)]
    of_workflow: String,
    #[serde(default)]
    page: String,
}

/// A document in the list.
struct IssuedRow {
    workflow: i64,
    label: &'static str,
    number: String,
    issued: String,
    total: String,
    href: String,
}

/// The documents issued, one page of them, with the filters that chose them.
#[derive(Default)]
struct Listing {
    filter: ListFilter,
    rows: Vec<IssuedRow>,
    total: i64,
    page: i64,
    previous: Option<String>,
    next: Option<String>,
}

/// A number typed into a filter: empty is none.
fn typed_number(words: Text, field: &str, text: &str, what: &str) -> Result<Option<i64>, Error> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<i64>().map(Some).map_err(|_| Error::field(field, words.s(what)))
}

/// A page of the documents issued to the tenant, as `GET /api/v1/stamps/invoices` lists them.
async fn listing(state: &AppState, session: &Session, filter: ListFilter) -> Result<Listing, Error> {
    // Every filter is checked at once: what the form cannot read as a number, and what the
    // service refuses.
    let mut errors = FieldErrors::new();
    let mut number_of = |field: &str, text: &str, what: &str| {
        typed_number(session.text, field, text, what).unwrap_or_else(|error| {
            if let Error::Validation(fields) = error {
                errors.extend(fields);
            }
            None
        })
    };
    let input = ListInput {
        issued_from: Some(filter.issued_from.trim()).filter(|d| !d.is_empty()),
        issued_to: Some(filter.issued_to.trim()).filter(|d| !d.is_empty()),
        workflow_id: number_of("workflowId", &filter.of_workflow, key("invoices.must_be_a_workflow_id")),
        page_number: number_of("pageNumber", &filter.page, key("invoices.must_be_a_page_number")),
        page_size: Some(LISTED),
    };
    let listed = match (service::list(&state.services, &session.auth.caller(), input).await, errors.is_empty()) {
        (Ok(listed), true) => listed,
        (Ok(_), false) => return Err(Error::Validation(errors)),
        (Err(Error::Validation(fields)), _) => {
            errors.extend(fields);
            return Err(Error::Validation(errors));
        }
        (Err(error), _) => return Err(error),
    };
    let number = listed.page.number;
    let link = |n: i64| {
        let query = serde_urlencoded::to_string([
            ("issued_from", filter.issued_from.trim()),
            ("issued_to", filter.issued_to.trim()),
            ("of_workflow", filter.of_workflow.trim()),
            ("page", &n.to_string()),
        ])
        .unwrap_or_default();
        format!("/app/invoices?{query}")
    };
    let (previous, next) = (
        (number > 1).then(|| link(number - 1)),
        (number * listed.page.size < listed.total_count).then(|| link(number + 1)),
    );
    let rows = listed
        .rows
        .into_iter()
        .map(|row| {
            let (path, label) = match row.kind {
                InvoiceKind::Invoice => DOCUMENTS[0],
                InvoiceKind::DebitNote => DOCUMENTS[1],
            };
            IssuedRow {
                workflow: row.workflow_id,
                label: session.text.s(label),
                issued: session.when(row.issued_at),
                total: format!("₹{}", format_rupees(row.total_paise)),
                href: format!("/app/invoices/{}/{path}", row.workflow_id),
                number: row.number,
            }
        })
        .collect();
    Ok(Listing { filter, rows, total: listed.total_count, page: number, previous, next })
}

/// The billing profile as its form shows it.
#[derive(Default)]
struct ProfileForm {
    legal_name: String,
    address: String,
    gstin: String,
    state_code: String,
    updated: Option<String>,
}

struct StateOption {
    code: &'static str,
    name: &'static str,
}

struct DocumentView {
    label: &'static str,
    number: String,
    issued: String,
    total: String,
    href: String,
}

#[derive(Template)]
#[template(path = "console/invoices.html")]
struct InvoicesPage {
    frame: Frame,
    error: Option<String>,
    may_change: bool,
    profile: Option<ProfileForm>,
    states: Vec<StateOption>,
    /// The workflow asked about, as typed.
    workflow: String,
    documents: Vec<DocumentView>,
    total: String,
    listing: Listing,
}

impl InvoicesPage {
    /// Whether the billing profile's form has state `code` chosen.
    fn chosen(&self, code: &str) -> bool {
        self.profile.as_ref().is_some_and(|p| p.state_code == code)
    }
}

async fn invoices_page(state: &AppState, session: &Session, error: Option<String>) -> Result<InvoicesPage, Error> {
    invoices_page_listing(state, session, error, ListFilter::default()).await
}

/// The page with the documents the list's filters choose.
async fn invoices_page_listing(
    state: &AppState,
    session: &Session,
    error: Option<String>,
    filter: ListFilter,
) -> Result<InvoicesPage, Error> {
    let listing = listing(state, session, filter).await?;
    let may_change = session.auth.access.allows(Permission::ManageSettings);
    // The billing profile is read with the permission that changes it, as the API reads it.
    let profile = if may_change {
        let saved =
            signet_services::billing::invoices::billing_profile(&state.services, &session.auth.caller()).await?;
        Some(saved.map_or_else(ProfileForm::default, |p| ProfileForm {
            legal_name: p.legal_name,
            address: p.address,
            gstin: p.gstin.unwrap_or_default(),
            state_code: p.state_code,
            updated: Some(session.when(p.updated_at)),
        }))
    } else {
        None
    };
    Ok(InvoicesPage {
        frame: session.frame("/app/invoices"),
        error,
        may_change,
        profile,
        states: stamp::STATES.iter().map(|(code, name)| StateOption { code, name }).collect(),
        workflow: String::new(),
        documents: Vec::new(),
        total: String::new(),
        listing,
    })
}

/// The documents issued for workflow `id`, as the page lists them.
fn documents_of(session: &Session, id: i64, issued: WorkflowInvoices) -> (Vec<DocumentView>, String) {
    let text = session.text;
    let view = |(path, label): (&str, &'static str), document: IssuedDocument| DocumentView {
        label: text.s(label),
        number: document.number,
        issued: session.when(document.issued_at),
        total: format!("₹{}", format_rupees(document.total_paise)),
        href: format!("/app/invoices/{id}/{path}"),
    };
    let documents = [issued.invoice, issued.debit_note]
        .into_iter()
        .zip(DOCUMENTS)
        .filter_map(|(document, kind)| document.map(|d| view(kind, d)))
        .collect();
    (documents, format!("₹{}", format_rupees(issued.total_paise)))
}

#[derive(serde::Deserialize, Default)]
pub struct InvoicesQuery {
    workflow: Option<String>,
    #[serde(flatten)]
    list: ListFilter,
}

/// `GET /app/invoices?issued_from=2026-04-01&issued_to=&of_workflow=&page=2&workflow=7`: the
/// documents issued (a page, filtered), the documents of the workflow asked about, and the
/// billing profile (for `manage_settings`). Filters that are refused show the page with the
/// refusal and the filters as typed.
pub async fn show(State(state): State<AppState>, session: Session, Query(query): Query<InvoicesQuery>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    let asked = query.workflow.as_deref().map(str::trim).unwrap_or_default().to_string();
    let mut found = None;
    if !asked.is_empty() {
        let looked_up = async {
            let id = workflow_id(session.text, &asked)?;
            service::fetch(&state.services, &session.auth.caller(), id)
                .await
                .map(|issued| documents_of(&session, id, issued))
        }
        .await;
        match looked_up {
            Ok(documents) => found = Some(documents),
            Err(error) => return again(&state, &session, error, |page| page.workflow = asked).await,
        }
    }
    let filter = query.list;
    match invoices_page_listing(&state, &session, None, filter.clone()).await {
        Ok(mut page) => {
            if let Some((documents, total)) = found {
                (page.documents, page.total) = (documents, total);
            }
            page.workflow = asked;
            render(StatusCode::OK, &page)
        }
        // The unfiltered page, with the refusal, the filters as typed and nothing listed.
        Err(error) => {
            again(&state, &session, error, |page| {
                page.listing = Listing { filter, page: 1, ..Listing::default() };
                page.workflow = asked;
            })
            .await
        }
    }
}

/// The page again with a refusal the person can correct, and what they typed (`keep`).
async fn again(state: &AppState, session: &Session, error: Error, keep: impl FnOnce(&mut InvoicesPage)) -> Response {
    shown_again(error, async |text| {
        invoices_page(state, session, Some(text)).await.map(|mut page| {
            keep(&mut page);
            page
        })
    })
    .await
}

/// A workflow id as typed.
fn workflow_id(words: Text, text: &str) -> Result<i64, Error> {
    text.trim().parse::<i64>().map_err(|_| Error::field("workflowId", words.s("invoices.must_be_a_workflow_id")))
}

/// `POST /app/invoices/billing-profile`: `legal_name`, `address` (lines), `gstin` (empty: an
/// unregistered recipient), `state`, as `PUT /api/v1/stamps/billing-profile`.
pub async fn save_billing_profile(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    // A browser sends a text area's lines ended by CR LF; the address keeps them as lines.
    let address = fields.get("address").replace("\r\n", "\n");
    let input = PartyInput {
        legal_name: Some(fields.get("legal_name")),
        address: Some(&address),
        gstin: Some(fields.get("gstin")).filter(|g| !g.is_empty()),
        state_code: Some(fields.get("state")),
    };
    match service::set_billing_profile(&state.services, &session.auth.caller(), input).await {
        Ok(_) => see_other("/app/invoices"),
        Err(error) => {
            let typed = ProfileForm {
                legal_name: fields.get("legal_name").to_string(),
                address,
                gstin: fields.get("gstin").to_string(),
                state_code: fields.get("state").to_string(),
                updated: None,
            };
            again(&state, &session, error, |page| page.profile = Some(typed)).await
        }
    }
}

/// `POST /app/invoices/issue`: `workflow`, as `POST /api/v1/stamps/invoices`; issued once, so
/// issuing again shows the same documents.
pub async fn issue(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let typed = fields.get("workflow").to_string();
    let issued = async {
        let id = workflow_id(session.text, &typed)?;
        service::issue(&state.services, &session.auth.caller(), id).await.map(|_| id)
    }
    .await;
    match issued {
        Ok(id) => see_other(&format!("/app/invoices?workflow={id}")),
        Err(error) => again(&state, &session, error, |page| page.workflow = typed).await,
    }
}

/// `GET /app/invoices/{id}/invoice` or `.../debit-note`: the PDF as issued.
pub async fn document(
    State(state): State<AppState>,
    session: Session,
    ApiPath((id, kind)): ApiPath<(i64, String)>,
) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    let issued = match service::fetch(&state.services, &session.auth.caller(), id).await {
        Ok(issued) => issued,
        Err(error) => return failure(error),
    };
    let document = match kind.as_str() {
        "invoice" => issued.invoice,
        "debit-note" => issued.debit_note,
        _ => None,
    };
    match document {
        Some(d) => pdf_response(d.pdf.into(), &format!("{}.pdf", d.number.replace('/', "-"))),
        None => page_error(StatusCode::NOT_FOUND, session.text.s("invoices.no_such_document")),
    }
}
