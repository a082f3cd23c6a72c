//! Tracking: the tenant's workflows with their status, search and filters; one workflow with
//! its signatories, its timeline (the event chain, checked) and its documents to download.

use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::WorkflowId;
use signet_domain::access::Permission;
use signet_domain::audit::WorkflowEventKind;
use signet_domain::workflow::{SignatoryState, WorkflowState};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_http::files::{download_response, pdf_response};
use signet_services::workflows::documents::{self, DownloadRequest};
use signet_services::workflows::queries::{self, ListQuery, Named, TimelineEntry, Waiting};

use signet_domain::workflow::{REMINDER_GAP_MS, may_remind_by_hand};
use signet_services::workflows::actions;

use super::{Frame, Session, failure, render};
use crate::text::{Text, key};

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

/// Someone a listed workflow waits for, as the list shows them.
struct WaitingView {
    name: String,
    email: String,
    since: String,
}

struct Row {
    id: i64,
    name: String,
    reference: String,
    state: &'static str,
    state_class: String,
    created: String,
    waiting: Vec<WaitingView>,
}

/// One state's count at the top of the list, a link to the workflows in it.
struct CountView {
    label: &'static str,
    count: i64,
    href: String,
    class: String,
    current: bool,
}

#[derive(Template)]
#[template(path = "console/workflows.html")]
struct ListPage {
    frame: Frame,
    counts: Vec<CountView>,
    rows: Vec<Row>,
    states: [(&'static str, &'static str); 5],
    state: String,
    q: String,
    total: i64,
    page: i64,
    previous: Option<String>,
    next: Option<String>,
}

/// The list's address with a state, a search text and a page.
fn list_link(state: &str, q: &str, page: i64) -> String {
    let query =
        serde_urlencoded::to_string([("state", state), ("q", q), ("page", &page.to_string())]).unwrap_or_default();
    format!("/app?{query}")
}

/// The dashboard's counts: every state a list shows, each a link to its workflows.
fn count_views(text: Text, counts: Vec<(WorkflowState, i64)>, wanted: Option<&str>) -> Vec<CountView> {
    counts
        .into_iter()
        .map(|(state, count)| CountView {
            label: state_label(text, state.as_str()),
            count,
            href: format!("/app?state={}", state.as_str()),
            class: state.as_str().replace('_', "-"),
            current: wanted == Some(state.as_str()),
        })
        .collect()
}

/// Whom the workflow `id` waits for, and since when.
fn waiting_views(session: &Session, waiting: &[Waiting], id: WorkflowId) -> Vec<WaitingView> {
    waiting
        .iter()
        .filter(|s| s.workflow_id == id)
        .map(|s| WaitingView { name: s.name.clone(), email: s.email.clone(), since: session.when(s.since) })
        .collect()
}

pub async fn list(State(state): State<AppState>, session: Session, Query(filter): Query<ListFilter>) -> Response {
    // The console's home: who may not follow the organisation's workflows starts at their own.
    if !session.auth.access.allows(Permission::ReadWorkflows) {
        return super::session::see_other("/app/inbox");
    }
    let wanted_state = filter.state.as_deref().filter(|s| !s.is_empty());
    let q = filter.q.as_deref().unwrap_or_default();
    let caller = session.auth.caller();
    let query = ListQuery { page_number: filter.page, page_size: Some(25), state: wanted_state, search_text: Some(q) };
    let (rows, page, total) = match queries::list(&state.services, &caller, &query).await {
        Ok(found) => found,
        Err(error) => return failure(error),
    };
    let counts = match queries::counts(&state.services, &caller).await {
        Ok(counts) => counts,
        Err(error) => return failure(error),
    };
    let waiting = match queries::waiting_for(&state.services, &caller, &rows).await {
        Ok(waiting) => waiting,
        Err(error) => return failure(error),
    };
    let number = page.number;
    let link = |n: i64| list_link(wanted_state.unwrap_or_default(), q, n);
    let page = ListPage {
        frame: session.frame("/app"),
        counts: count_views(session.text, counts, wanted_state),
        rows: rows
            .into_iter()
            .map(|w| Row {
                id: w.id.get(),
                reference: w.reference_no.unwrap_or_default(),
                state: state_label(session.text, w.state.as_str()),
                state_class: w.state.as_str().replace('_', "-"),
                created: session.when(w.created_at),
                waiting: waiting_views(&session, &waiting, w.id),
                name: w.name,
            })
            .collect(),
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
    state: &'static str,
    signed: String,
}

/// One event of the timeline in words: what happened, and who did it when that is not whom
/// it concerns ("Meena Iyer signed"; "Ravi's link was replaced", by the sender).
struct EventView {
    at: String,
    what: String,
    by: Option<String>,
}

/// A signatory's state in the words of the workflow's page.
fn signatory_state_label(text: Text, state: SignatoryState) -> &'static str {
    text.s(match state {
        SignatoryState::Pending => key("workflow.signatory.pending"),
        SignatoryState::Notified => key("workflow.signatory.notified"),
        SignatoryState::Viewed => key("workflow.signatory.viewed"),
        SignatoryState::Signed => key("workflow.signatory.signed"),
        SignatoryState::Declined => key("workflow.signatory.declined"),
        SignatoryState::Delegated => key("workflow.signatory.delegated"),
    })
}

/// The sentence of a workflow event (`{subject}` is the signatory it concerns); a kind
/// without one (the stamp papers' events) reads as its kind.
fn event_words(kind: WorkflowEventKind) -> Option<&'static str> {
    use WorkflowEventKind::*;
    Some(match kind {
        WorkflowCreated => key("timeline.workflow.created"),
        WorkflowLinked => key("timeline.workflow.linked"),
        WorkflowCompleted => key("timeline.workflow.completed"),
        WorkflowDeclined => key("timeline.workflow.declined"),
        WorkflowExpired => key("timeline.workflow.expired"),
        WorkflowInactive => key("timeline.workflow.inactive"),
        WorkflowDeleted => key("timeline.workflow.deleted"),
        CertificateIssued => key("timeline.workflow.certificate_issued"),
        SignatoryNotified => key("timeline.signatory.notified"),
        SignatoryViewed => key("timeline.signatory.viewed"),
        SignatorySigned => key("timeline.signatory.signed"),
        SignatoryDeclined => key("timeline.signatory.declined"),
        SignatoryDelegated => key("timeline.signatory.delegated"),
        LinkRevoked => key("timeline.signatory.link_revoked"),
        LinkHandedOut => key("timeline.signatory.link_handed_out"),
        LinkEmbedded => key("timeline.signatory.link_embedded"),
        SignatoryReminded => key("timeline.signatory.reminded"),
        SmsSent => key("timeline.signatory.sms_sent"),
        OtpSent => key("timeline.signatory.otp_sent"),
        OtpVerified => key("timeline.signatory.otp_verified"),
        OtpFailed => key("timeline.signatory.otp_failed"),
        SmsFailed => key("timeline.signatory.sms_failed"),
        DocumentCommented => key("timeline.document.commented"),
        DocumentCategorised => key("timeline.document.categorised"),
        DocumentInactive => key("timeline.document.inactive"),
        DocumentTimestamped => key("timeline.document.timestamped"),
        DocumentLongTerm => key("timeline.document.long_term"),
        DocumentLongTermPending => key("timeline.document.long_term_pending"),
        DocumentLevelReached => key("timeline.document.level_reached"),
        AttachmentAdded => key("timeline.attachment.added"),
        StampsAllocated | StampsRetired | StampsReleased => return None,
    })
}

/// A name as the page shows it.
fn named(text: Text, who: &Named) -> String {
    match who {
        Named::Person(name) | Named::Signatory(name) | Named::Unnamed(name) => name.clone(),
        Named::System => text.s("timeline.signet").to_string(),
    }
}

/// An event in words.
fn event_view(session: &Session, event: &TimelineEntry) -> EventView {
    let text = session.text;
    let subject = event.subject.as_ref().map(|s| named(text, s)).unwrap_or_default();
    let what = match event.kind.and_then(event_words) {
        Some(words) => text.plain(words, &[("subject", &subject)]),
        None => event.action.clone(),
    };
    let by = (event.subject.as_ref() != Some(&event.actor)).then(|| named(text, &event.actor));
    EventView { at: session.when(event.at), what, by }
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
    /// When a reminder may be e-mailed, if not now (the workflow e-mails its signers).
    remind_from: Option<String>,
}

/// A due signatory's link, taken by the sender to hand over another way.
struct HandedLink {
    signatory: i64,
    name: String,
    url: String,
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
    /// The link the sender asked for, shown once with a button to copy it.
    handed: Option<HandedLink>,
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
    match workflow_page(&state, &session, id, notice, None, None).await {
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
    handed: Option<HandedLink>,
) -> Result<WorkflowPage, signet_domain::Error> {
    let caller = session.auth.caller();
    let details = queries::details(&state.services, &caller, id.into()).await?;
    let (chain_intact, events) = queries::timeline(&state.services, &caller, id.into()).await?;
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
    let due = details
        .signatories
        .iter()
        .filter(|s| in_progress && s.state().is_turn())
        .map(|s| {
            let last = s.last_reminded_at.or(s.notified_at).unwrap_or(s.created_at);
            // A reminder goes by e-mail, or by SMS to a signer with a mobile number.
            let mails = signet_services::workflows::notices::reaches(&state.services, &workflow, s);
            let may_remind = mails && may_remind_by_hand(last, signet_domain::now_millis());
            DueView {
                id: s.id.get(),
                name: s.name.clone(),
                email: s.email.clone(),
                last_notice: mails.then(|| session.when(last)),
                may_remind,
                remind_from: (mails && !may_remind).then(|| session.when(last.saturating_add(REMINDER_GAP_MS))),
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
        frame: session.frame("/app"),
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
        handed,
        reminders,
        expires,
        signatories: details
            .signatories
            .into_iter()
            .map(|s| SignatoryView {
                order: s.signing_order,
                name: s.name,
                email: s.email,
                state: signatory_state_label(session.text, s.state),
                signed: s.signed_at.map(|at| session.when(at)).unwrap_or_default(),
            })
            .collect(),
        documents,
        attachments,
        events: events.iter().map(|e| event_view(session, e)).collect(),
        chain_intact,
    })
}

/// An action on one signatory: `link-{id}` (a new link), `remind-{id}` (a reminder) or
/// `copy-{id}` (their link, shown to copy).
fn signatory_action(action: &str) -> Option<(&'static str, i64)> {
    let (kind, id) = action.split_once('-')?;
    let kind = match kind {
        "link" => "link",
        "remind" => "remind",
        "copy" => "copy",
        _ => return None,
    };
    id.parse::<i64>().ok().filter(|id| *id > 0).map(|id| (kind, id))
}

/// An action's form: its token and what the action needs.
#[derive(serde::Deserialize)]
pub struct ActionForm {
    csrf: String,
    email: Option<String>,
    /// The delegate's mobile number (needed when the signatory confirms a code by SMS).
    mobile: Option<String>,
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
            let (mobile, reason) = (form.mobile.as_deref(), form.reason.as_deref().unwrap_or_default());
            actions::delegate(&state.services, &caller, workflow_id, email, mobile, reason).await.map(|_| "delegated")
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
            Some(("copy", signatory)) => return handed_link(&state, &session, id, signatory).await,
            Some((_, signatory)) => {
                actions::remind(&state.services, &caller, workflow_id, signatory.into()).await.map(|_| "reminded")
            }
            None => return super::page_error(StatusCode::NOT_FOUND, session.text.s("workflow.no_such_action")),
        },
    };
    match done {
        Ok(done) => super::session::see_other(&format!("/app/workflows/{id}?done={done}")),
        Err(error) => {
            super::shown_again(error, async |text| workflow_page(&state, &session, id, None, Some(text), None).await)
                .await
        }
    }
}

/// The workflow's page with a due signatory's link shown to copy (the link stays as it is).
async fn handed_link(state: &AppState, session: &Session, id: i64, signatory: i64) -> Response {
    let caller = session.auth.caller();
    let handed = match actions::hand_out_link(&state.services, &caller, id.into(), signatory.into()).await {
        Ok(url) => url,
        Err(error) => {
            return super::shown_again(error, async |text| {
                workflow_page(state, session, id, None, Some(text), None).await
            })
            .await;
        }
    };
    let page = async {
        let mut page = workflow_page(state, session, id, None, None, None).await?;
        let name = page.due.iter().find(|d| d.id == signatory).map(|d| d.name.clone()).unwrap_or_default();
        page.handed = Some(HandedLink { signatory, name, url: handed });
        Ok::<_, signet_domain::Error>(page)
    };
    match page.await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
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

/// The evidence pack of a completed workflow (the API's, `signet evidence verify` checks it).
pub async fn evidence(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<i64>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    match signet_services::workflows::evidence::pack(&state.services, &session.auth.caller(), id.into()).await {
        Ok(zip) => download_response(zip.into(), &format!("workflow-{id}-evidence.zip"), "application/zip"),
        Err(error) => failure(error),
    }
}
