//! Bulk send: a template (or the default corners) and PDFs sent to every row of a spreadsheet
//! (CSV or XLSX), one workflow per row, through the same service as `POST
//! /api/v1/bulk-sends`. "Check the rows" is the dry run, which lists every row that would not
//! start and why; "Send" starts the job, whose page shows its progress live (the script asks
//! for it every few seconds; without it the page has a link to look again) and offers the
//! report of every row's outcome.

use askama::Template;
use axum::Json;
use axum::extract::{Multipart, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use signet_domain::Error;
use signet_domain::access::Permission;
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::bulk::send::{self as bulk_send, BulkSend};
use signet_services::bulk::{self, JobStatus};
use signet_services::platform::heavy::Share;
use signet_services::workflows::documents::{self, check_pdf};

use super::session::see_other;
use super::{Frame, Session, failure, render, user_text};
use crate::text::{Text, key};

/// The largest spreadsheet accepted (as the API's).
const MAX_SHEET_BYTES: usize = bulk_send::MAX_FILE_BYTES;

struct TemplateOption {
    id: i64,
    name: String,
}

struct ProblemView {
    row: usize,
    line: usize,
    text: String,
}

struct Checked {
    rows: usize,
    valid: usize,
    problems: Vec<ProblemView>,
}

#[derive(Template)]
#[template(path = "console/bulk.html")]
struct BulkPage {
    frame: Frame,
    templates: Vec<TemplateOption>,
    template: i64,
    error: Option<String>,
    checked: Option<Checked>,
    max_rows: usize,
}

async fn bulk_page(state: &AppState, session: &Session, template: i64) -> Result<BulkPage, Error> {
    let templates = signet_services::workflows::templates::usable(&state.services, &session.auth.caller())
        .await?
        .into_iter()
        .map(|t| TemplateOption { id: t.id.get(), name: t.name })
        .collect();
    Ok(BulkPage {
        frame: session.frame("/app/bulk"),
        templates,
        template,
        error: None,
        checked: None,
        max_rows: bulk_send::MAX_ROWS,
    })
}

/// The template chosen before (from the template's page).
#[derive(serde::Deserialize, Default)]
pub struct Chosen {
    #[serde(default)]
    template: Option<String>,
}

pub async fn form(State(state): State<AppState>, session: Session, Query(chosen): Query<Chosen>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::SendWorkflows) {
        return refused;
    }
    let template = chosen.template.and_then(|t| t.trim().parse::<i64>().ok()).unwrap_or(0);
    match bulk_page(&state, &session, template).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

/// What the form sent: its fields, the PDFs and the spreadsheet.
#[derive(Default)]
struct Sent {
    csrf: String,
    action: String,
    template: i64,
    documents: Vec<(String, Vec<u8>)>,
    sheet: Option<Vec<u8>>,
}

async fn read_form(text: Text, mut multipart: Multipart) -> Result<Sent, String> {
    let unreadable = |_| text.s("message.files_unreadable").to_string();
    let mut sent = Sent::default();
    while let Some(field) = multipart.next_field().await.map_err(unreadable)? {
        match field.name().unwrap_or_default() {
            "documents" => {
                let name = field.file_name().unwrap_or("document.pdf").to_string();
                let bytes = field.bytes().await.map_err(unreadable)?;
                if !bytes.is_empty() && sent.documents.len() < bulk_send::MAX_DOCUMENTS + 1 {
                    sent.documents.push((name, bytes.to_vec()));
                }
            }
            "sheet" => {
                let bytes = field.bytes().await.map_err(unreadable)?;
                sent.sheet = Some(bytes.to_vec()).filter(|b| !b.is_empty());
            }
            "csrf" => sent.csrf = field.text().await.map_err(unreadable)?,
            "action" => sent.action = field.text().await.map_err(unreadable)?,
            "template" => sent.template = field.text().await.map_err(unreadable)?.trim().parse().unwrap_or(0),
            _ => {}
        }
    }
    Ok(sent)
}

/// Checks the rows (dry run) or starts the job.
pub async fn submit(State(state): State<AppState>, session: Session, multipart: Multipart) -> Response {
    if let Some(refused) = session.refuses_without(Permission::SendWorkflows) {
        return refused;
    }
    let sent = match read_form(session.text, multipart).await {
        Ok(sent) => sent,
        Err(text) => return super::page_error(StatusCode::BAD_REQUEST, &text),
    };
    if let Some(refused) = session.refuses_form(&sent.csrf) {
        return refused;
    }
    let mut page = match bulk_page(&state, &session, sent.template).await {
        Ok(page) => page,
        Err(error) => return failure(error),
    };
    match check_or_send(&state, &session, sent).await {
        Ok(Outcome::Started(job)) => see_other(&format!("/app/bulk/jobs/{}", job.job_id)),
        Ok(Outcome::Checked(checked)) => {
            page.checked = Some(checked);
            render(StatusCode::OK, &page)
        }
        Err(error) if signet_http::error::status_of(error.code()).is_client_error() => {
            page.error = Some(user_text(&error));
            render(StatusCode::BAD_REQUEST, &page)
        }
        Err(error) => failure(error),
    }
}

enum Outcome {
    Checked(Checked),
    Started(JobStatus),
}

async fn check_or_send(state: &AppState, session: &Session, sent: Sent) -> Result<Outcome, Error> {
    let sheet = sent.sheet.ok_or_else(|| Error::field("spreadsheet", session.text.s("bulk.choose_the_sheet")))?;
    if sheet.len() > MAX_SHEET_BYTES {
        return Err(Error::field("spreadsheet", session.text.s("bulk.sheet_too_large")));
    }
    // A template that keeps its document needs none here (the service says when it keeps none).
    let none_needed = sent.template != 0;
    if (sent.documents.is_empty() && !none_needed) || sent.documents.len() > bulk_send::MAX_DOCUMENTS {
        return Err(Error::field(
            "documents",
            session.text.plain("bulk.choose_documents", &[("n", &bulk_send::MAX_DOCUMENTS)]),
        ));
    }
    let mut document_ids = Vec::with_capacity(sent.documents.len());
    for (name, bytes) in sent.documents {
        let field = session.text.plain("bulk.field.document", &[("name", &name)]);
        let checked = state
            .services
            .heavy
            .run(Share::Tenant(session.auth.tenant_id), move || check_pdf(&field, name, bytes))
            .await??;
        let stored = documents::keep(&state.services, &session.auth.caller(), checked).await?;
        document_ids.push(stored.id.get());
    }
    let send = BulkSend {
        template_id: sent.template,
        document_ids,
        file_base64: base64::engine::general_purpose::STANDARD.encode(sheet),
        dry_run: sent.action != "send",
    };
    let (preview, job) = bulk_send::start(&state.services, &session.auth.caller(), send).await?;
    if let Some(job) = job {
        return Ok(Outcome::Started(job));
    }
    let problems = preview
        .problems
        .into_iter()
        .map(|p| ProblemView { row: p.row, line: p.line, text: user_text(&Error::Validation(p.errors)) })
        .collect();
    Ok(Outcome::Checked(Checked { rows: preview.rows, valid: preview.valid, problems }))
}

#[derive(Template)]
#[template(path = "console/job.html")]
struct JobPage {
    frame: Frame,
    job: JobStatus,
    status: &'static str,
    started: String,
}

/// What people read for a job's status.
fn status_text(text: Text, status: &str) -> &'static str {
    text.s(match status {
        "queued" => key("bulk.status.queued"),
        "running" => key("bulk.status.running"),
        "completed" => key("bulk.status.completed"),
        "completed_with_errors" => key("bulk.status.completed_with_errors"),
        "cancelled" => key("bulk.status.cancelled"),
        _ => key("bulk.status.unknown"),
    })
}

/// The job, if this person may follow it: whoever started it, or who reads the tenant's workflows.
async fn job_of(state: &AppState, session: &Session, id: &str) -> Result<signet_services::records::BulkJobRow, Error> {
    bulk::job_for(&state.services, &session.auth.caller(), id).await
}

/// The job's status and progress, if this person may follow it.
async fn job_status(state: &AppState, session: &Session, id: &str) -> Result<JobStatus, Error> {
    bulk::status(&state.services, &job_of(state, session, id).await?).await
}

pub async fn job(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<String>) -> Response {
    match job_status(&state, &session, &id).await {
        Ok(job) => {
            let page = JobPage {
                frame: session.frame(""),
                status: status_text(session.text, &job.status),
                started: session.when(job.created_at),
                job,
            };
            render(StatusCode::OK, &page)
        }
        Err(error) => failure(error),
    }
}

/// The job's counts for the page's script.
pub async fn progress(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<String>) -> Response {
    match job_status(&state, &session, &id).await {
        Ok(job) => Json(serde_json::json!({
            "status": status_text(session.text, &job.status),
            "finished": job.is_finished(),
            "total": job.total,
            "succeeded": job.succeeded,
            "failed": job.failed,
            "skipped": job.skipped,
            "pending": job.pending,
        }))
        .into_response(),
        Err(error) => failure(error),
    }
}

pub async fn report(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<String>) -> Response {
    match job_of(&state, &session, &id).await {
        Ok(job) => signet_http::files::report_response(state, job),
        Err(error) => failure(error),
    }
}
