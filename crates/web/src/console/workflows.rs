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

use signet_domain::workflow::may_remind_by_hand;
use signet_services::workflows::actions;

use super::text::{Text, key};
use super::{Frame, Session, failure, render};

/// The states a list can be filtered by, with the words people read.
const STATES: [(&str, &str); 5] = [
    ("in_progress", key("workflows.state.in_progress")),
    ("completed", key("workflows.state.completed")),
    ("declined", key("workflows.state.declined")),
    ("expired", key("workflows.state.expired")),
    ("inactive", key("workflows.state.inactive")),
];

fn state_label(text: Text, state: &str) -> &'static str {
    text.s(STATES.iter().find(|(value, _)| *value == state).map_or(key("workflows.state.deleted"), |(_, label)| label))
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
    // The console's home: who may not follow the organisation's workflows starts at their own.
    if !session.auth.access.allows(Permission::ReadWorkflows) {
        return super::session::see_other("/app/inbox");
    }
    let wanted_state = filter.state.as_deref().filter(|s| !s.is_empty());
    let q = filter.q.as_deref().unwrap_or_default();
    let query = ListQuery { page_number: filter.page, page_size: Some(25), state: wanted_state, search_text: Some(q) };
    let (rows, page, total) = match queries::list(&state.services, &session.auth.caller(), &query).await {
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
            state: state_label(session.text, w.state.as_str()),
            state_class: w.state.as_str().replace('_', "-"),
            created: session.when(w.created_at),
        })
        .collect();
    let page = ListPage {
        frame: session.frame("/app"),
        rows,
        states: STATES.map(|(value, label)| (value, session.text.s(label))),
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
    comments: Vec<CommentView>,
}

struct CommentView {
    author: String,
    text: String,
    at: String,
}

struct AttachmentView {
    id: i64,
    name: String,
    description: String,
    from_signer: bool,
    /// Sent by the sender as the form or example of a document asked of the signers.
    requested: bool,
}

struct DueView {
    id: i64,
    name: String,
    email: String,
    /// When they were last e-mailed their link or a reminder (none when the workflow does not
    /// e-mail its signers).
    last_notice: Option<String>,
    /// A reminder may be e-mailed now (the workflow e-mails its signers, and the last notice
    /// is an hour old).
    may_remind: bool,
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
    may_act: bool,
    notice: Option<String>,
    error: Option<String>,
    due: Vec<DueView>,
    /// The automatic reminders and the expiry, in words.
    reminders: String,
    expires: String,
    signatories: Vec<SignatoryView>,
    documents: Vec<DocumentView>,
    attachments: Vec<AttachmentView>,
    events: Vec<EventView>,
    chain_intact: bool,
}

#[derive(serde::Deserialize)]
pub struct Shown {
    done: Option<String>,
}

pub async fn show(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    Query(shown): Query<Shown>,
) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    let notice = shown.done.as_deref().and_then(done_text).map(|done| session.text.s(done).to_string());
    match workflow_page(&state, &session, id, notice, None).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

/// The key of what an action that succeeded reads as (`?done=` after it).
fn done_text(done: &str) -> Option<&'static str> {
    match done {
        "link" => Some(key("workflow.done.link")),
        "reminded" => Some(key("workflow.done.reminded")),
        "delegated" => Some(key("workflow.done.delegated")),
        "declined" => Some(key("workflow.done.declined")),
        "comment" => Some(key("workflow.done.comment")),
        _ => None,
    }
}

async fn workflow_page(
    state: &AppState,
    session: &Session,
    id: i64,
    notice: Option<String>,
    error: Option<String>,
) -> Result<WorkflowPage, signet_domain::Error> {
    let caller = session.auth.caller();
    let details = queries::details(&state.services, &caller, id.into()).await?;
    let (_, entries, check) = queries::audit(&state.services, &caller, id.into()).await?;
    let workflow = details.workflow;
    let in_progress = workflow.state.as_str() == "in_progress";
    // Attachments asked of a signer have a file once they gave it.
    let attachments = queries::attachments(&state.services, &session.auth.caller(), id.into())
        .await?
        .into_iter()
        .map(|a| AttachmentView {
            id: a.id.get(),
            name: a.name,
            description: a.description.unwrap_or_default(),
            from_signer: a.signatory_id.is_some(),
            requested: a.kind == "requested",
        })
        .collect();
    let mails = signet_services::workflows::notices::sends_mail(&workflow);
    let due = details
        .signatories
        .iter()
        .filter(|s| in_progress && s.state().is_turn())
        .map(|s| {
            let last = s.last_reminded_at.or(s.notified_at).unwrap_or(s.created_at);
            DueView {
                id: s.id.get(),
                name: s.name.clone(),
                email: s.email.clone(),
                last_notice: mails.then(|| session.when(last)),
                may_remind: mails && may_remind_by_hand(last, signet_domain::now_millis()),
            }
        })
        .collect();
    let reminders = match workflow.reminder_every_days {
        Some(1) => session.text.s("workflow.reminders.one").to_string(),
        Some(days) if days > 1 => session.text.plain("workflow.reminders.other", &[("n", &days)]),
        _ => session.text.s("workflow.reminders.none").to_string(),
    };
    let expires =
        workflow.expires_at.map_or_else(|| session.text.s("workflow.expires.never").to_string(), |at| session.when(at));
    let mut documents = Vec::with_capacity(details.documents.len());
    for d in details.documents {
        let comments = signet_services::workflows::actions::comments(&state.services, &caller, d.id)
            .await?
            .into_iter()
            .map(|(author, text, at)| CommentView { author, text, at: session.when(at) })
            .collect();
        documents.push(DocumentView { id: d.id.get(), name: d.name, pages: d.page_count, comments });
    }
    Ok(WorkflowPage {
        frame: session.frame(""),
        id: workflow.id.get(),
        name: workflow.name.clone(),
        reference: workflow.reference_no.clone().unwrap_or_default(),
        state: state_label(session.text, workflow.state.as_str()),
        state_class: workflow.state.as_str().replace('_', "-"),
        created: session.when(workflow.created_at),
        completed: workflow.state.as_str() == "completed",
        may_act: session.auth.access.allows(Permission::SendWorkflows),
        notice,
        error,
        due,
        reminders,
        expires,
        signatories: details
            .signatories
            .into_iter()
            .map(|s| SignatoryView {
                order: s.signing_order,
                name: s.name,
                email: s.email,
                state: s.state.as_str().to_string(),
                signed: s.signed_at.map(|at| session.when(at)).unwrap_or_default(),
            })
            .collect(),
        documents,
        attachments,
        events: entries
            .into_iter()
            .map(|e| EventView { at: session.when(e.at), action: e.action, actor: e.actor })
            .collect(),
        chain_intact: check.is_ok(),
    })
}

/// An action on one signatory: `link-{id}` (a new link) or `remind-{id}` (a reminder).
fn signatory_action(action: &str) -> Option<(&'static str, i64)> {
    let (kind, id) = action.split_once('-')?;
    let kind = match kind {
        "link" => "link",
        "remind" => "remind",
        _ => return None,
    };
    id.parse::<i64>().ok().filter(|id| *id > 0).map(|id| (kind, id))
}

/// An action's form: its token and what the action needs.
#[derive(serde::Deserialize)]
pub struct ActionForm {
    csrf: String,
    email: Option<String>,
    reason: Option<String>,
    document: Option<i64>,
    comment: Option<String>,
}

/// One action of the sender on a workflow, as the API's workflow actions: a new link for a due
/// signatory (the old one stops working), handing the due signature on, declining it, or a
/// comment on a document. Afterwards the workflow's page, saying what happened or what to correct.
pub async fn act(
    State(state): State<AppState>,
    session: Session,
    ApiPath((id, action)): ApiPath<(i64, String)>,
    axum::Form(form): axum::Form<ActionForm>,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::SendWorkflows, &form.csrf) {
        return refused;
    }
    let caller = session.auth.caller();
    let workflow_id = id.into();
    let done = match action.as_str() {
        "delegate" => {
            let email = form.email.as_deref().unwrap_or_default();
            let reason = form.reason.as_deref().unwrap_or_default();
            actions::delegate(&state.services, &caller, workflow_id, email, reason).await.map(|_| "delegated")
        }
        "decline" => {
            actions::decline(&state.services, &caller, workflow_id, form.reason.as_deref()).await.map(|_| "declined")
        }
        "comment" => {
            let document = form.document.unwrap_or_default().into();
            let comment = form.comment.as_deref().unwrap_or_default();
            actions::add_comment(&state.services, &caller, document, comment).await.map(|_| "comment")
        }
        other => match signatory_action(other) {
            Some(("link", signatory)) => {
                actions::revoke_link(&state.services, &caller, workflow_id, signatory.into()).await.map(|_| "link")
            }
            Some((_, signatory)) => {
                actions::remind(&state.services, &caller, workflow_id, signatory.into()).await.map(|_| "reminded")
            }
            None => return super::page_error(StatusCode::NOT_FOUND, session.text.s("workflow.no_such_action")),
        },
    };
    match done {
        Ok(done) => super::session::see_other(&format!("/app/workflows/{id}?done={done}")),
        Err(error) => {
            super::shown_again(error, async |text| workflow_page(&state, &session, id, None, Some(text)).await).await
        }
    }
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
    match documents::download(&state.services, &session.auth.caller(), &request).await {
        Ok(file) => pdf_response(file.bytes, &file.file_name),
        Err(error) => failure(error),
    }
}

/// A file attached to the workflow, by its sender or by a signer.
pub async fn attachment(
    State(state): State<AppState>,
    session: Session,
    ApiPath((id, attachment)): ApiPath<(i64, i64)>,
) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    match actions::attachment(&state.services, &session.auth.caller(), id.into(), attachment.into()).await {
        Ok((name, bytes)) => super::download(bytes, &name),
        Err(error) => failure(error),
    }
}

/// The completion certificate of a completed workflow.
pub async fn certificate(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<i64>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    match queries::certificate(&state.services, &session.auth.caller(), id.into()).await {
        Ok(bytes) => pdf_response(bytes.into(), &format!("workflow-{id}-certificate.pdf")),
        Err(error) => failure(error),
    }
}
