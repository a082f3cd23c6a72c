//! Tracking: the tenant's workflows with their status, search and filters; one workflow with
//! its signatories, its timeline (the event chain, checked) and its documents to download.

use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_api::AppState;
use signet_api::extract::ApiPath;
use signet_api::routes::documents::pdf_response;
use signet_domain::access::Permission;
use signet_services::documents::{self, DownloadRequest};
use signet_services::workflows::queries::{self, ListQuery};

use super::{Frame, Session, failure, render, when};

/// The states a list can be filtered by, with the words people read.
const STATES: [(&str, &str); 5] = [
    ("in_progress", "In progress"),
    ("completed", "Completed"),
    ("declined", "Declined"),
    ("expired", "Expired"),
    ("inactive", "Inactive"),
];

fn state_label(state: &str) -> &'static str {
    STATES.iter().find(|(value, _)| *value == state).map(|(_, label)| *label).unwrap_or("Deleted")
}

#[derive(serde::Deserialize)]
pub struct ListFilter {
    state: Option<String>,
    q: Option<String>,
    page: Option<i64>,
}

struct Row {
    id: i64,
    name: String,
    reference: String,
    state: &'static str,
    state_class: String,
    created: String,
}

#[derive(Template)]
#[template(path = "console/workflows.html")]
struct ListPage {
    frame: Frame,
    rows: Vec<Row>,
    states: [(&'static str, &'static str); 5],
    state: String,
    q: String,
    total: i64,
    page: i64,
    previous: Option<String>,
    next: Option<String>,
}

pub async fn list(State(state): State<AppState>, session: Session, Query(filter): Query<ListFilter>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    let wanted_state = filter.state.as_deref().filter(|s| !s.is_empty());
    let q = filter.q.as_deref().unwrap_or_default();
    let query = ListQuery { page_number: filter.page, page_size: Some(25), state: wanted_state, search_text: Some(q) };
    let (rows, page, total) = match queries::list(&state, session.auth.tenant_id, &query).await {
        Ok(found) => found,
        Err(error) => return failure(error),
    };
    let number = page.number;
    let link = |n: i64| {
        let query = serde_urlencoded::to_string([
            ("state", wanted_state.unwrap_or_default()),
            ("q", q),
            ("page", &n.to_string()),
        ])
        .unwrap_or_default();
        format!("/app?{query}")
    };
    let rows = rows
        .into_iter()
        .map(|w| Row {
            id: w.id.get(),
            name: w.name,
            reference: w.reference_no.unwrap_or_default(),
            state: state_label(w.state.as_str()),
            state_class: w.state.as_str().replace('_', "-"),
            created: when(w.created_at),
        })
        .collect();
    let page = ListPage {
        frame: session.frame("/app"),
        rows,
        states: STATES,
        state: wanted_state.unwrap_or_default().to_string(),
        q: q.to_string(),
        total,
        page: number,
        previous: (number > 1).then(|| link(number - 1)),
        next: (number * page.size < total).then(|| link(number + 1)),
    };
    render(StatusCode::OK, &page)
}

struct SignatoryView {
    order: i64,
    name: String,
    email: String,
    state: String,
    signed: String,
}

struct EventView {
    at: String,
    action: String,
    actor: String,
}

struct DocumentView {
    id: i64,
    name: String,
    pages: i64,
}

#[derive(Template)]
#[template(path = "console/workflow.html")]
struct WorkflowPage {
    frame: Frame,
    id: i64,
    name: String,
    reference: String,
    state: &'static str,
    state_class: String,
    created: String,
    completed: bool,
    due: Vec<String>,
    signatories: Vec<SignatoryView>,
    documents: Vec<DocumentView>,
    events: Vec<EventView>,
    chain_intact: bool,
}

pub async fn show(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<i64>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    let tenant = session.auth.tenant_id;
    let details = match queries::details(&state, tenant, id.into()).await {
        Ok(details) => details,
        Err(error) => return failure(error),
    };
    let (_, entries, check) = match queries::audit(&state, tenant, id.into()).await {
        Ok(found) => found,
        Err(error) => return failure(error),
    };
    let workflow = details.workflow;
    let current = workflow.current_order;
    let due = details
        .signatories
        .iter()
        .filter(|s| s.signing_order == current && s.signed_at.is_none() && workflow.state.as_str() == "in_progress")
        .map(|s| format!("{} <{}>", s.name, s.email))
        .collect();
    let page = WorkflowPage {
        frame: session.frame(""),
        id: workflow.id.get(),
        name: workflow.name.clone(),
        reference: workflow.reference_no.clone().unwrap_or_default(),
        state: state_label(workflow.state.as_str()),
        state_class: workflow.state.as_str().replace('_', "-"),
        created: when(workflow.created_at),
        completed: workflow.state.as_str() == "completed",
        due,
        signatories: details
            .signatories
            .into_iter()
            .map(|s| SignatoryView {
                order: s.signing_order,
                name: s.name,
                email: s.email,
                state: s.state.as_str().to_string(),
                signed: s.signed_at.map(when).unwrap_or_default(),
            })
            .collect(),
        documents: details
            .documents
            .into_iter()
            .map(|d| DocumentView { id: d.id.get(), name: d.name, pages: d.page_count })
            .collect(),
        events: entries.into_iter().map(|e| EventView { at: when(e.at), action: e.action, actor: e.actor }).collect(),
        chain_intact: check.is_ok(),
    };
    render(StatusCode::OK, &page)
}

/// A document of the workflow as it stands (signed so far).
pub async fn download(
    State(state): State<AppState>,
    session: Session,
    ApiPath((id, document)): ApiPath<(i64, i64)>,
) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    let request =
        DownloadRequest { workflow_id: id.into(), reference_no: None, document_id: document.into(), merged: false };
    match documents::download(&state, session.auth.tenant_id, &request).await {
        Ok(file) => pdf_response(file.bytes, &file.file_name),
        Err(error) => failure(error),
    }
}

/// The completion certificate of a completed workflow.
pub async fn certificate(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<i64>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    match queries::certificate(&state, session.auth.tenant_id, id.into()).await {
        Ok(bytes) => pdf_response(bytes.into(), &format!("workflow-{id}-certificate.pdf")),
        Err(error) => failure(error),
    }
}
