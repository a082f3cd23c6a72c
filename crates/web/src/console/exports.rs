//! Exports: the organisation's workflows, signatories, audit events or users between two dates,
//! as CSV, XLSX or JSON Lines, through the same service as `POST /api/v1/exports/{dataset}`.
//! Up to 10,000 rows download at once; a larger export runs as a job whose page shows its state
//! and, once it is written, the file.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::Error;
use signet_domain::access::Permission;
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_http::files::{file_response, stream_response};
use signet_services::exports::{self, Dataset, ExportInput, ExportJobStatus, Started};

use super::session::see_other;
use super::{Frame, Session, failure, render};
use crate::text::key;

const DATASETS: [(&str, &str, Dataset); 4] = [
    ("workflows", key("exports.dataset.workflows"), Dataset::Workflows),
    ("signatories", key("exports.dataset.signatories"), Dataset::Signatories),
    ("audit-events", key("exports.dataset.audit_events"), Dataset::AuditEvents),
    ("users", key("exports.dataset.users"), Dataset::Users),
];
const FORMATS: [(&str, &str); 3] =
    [("csv", key("exports.format.csv")), ("xlsx", key("exports.format.xlsx")), ("jsonl", key("exports.format.jsonl"))];

#[derive(Template)]
#[template(path = "console/exports.html")]
struct ExportsPage {
    frame: Frame,
    datasets: Vec<(&'static str, &'static str)>,
    formats: [(&'static str, &'static str); 3],
    error: Option<String>,
}

fn exports_page(session: &Session, error: Option<String>) -> ExportsPage {
    let datasets = DATASETS
        .iter()
        .filter(|(_, _, d)| session.auth.access.allows(d.permission()))
        .map(|(value, label, _)| (*value, session.text.s(label)))
        .collect();
    ExportsPage {
        frame: session.frame("/app/exports"),
        datasets,
        formats: FORMATS.map(|(value, label)| (value, session.text.s(label))),
        error,
    }
}

/// Whether this person may export anything at all.
fn may_export(session: &Session) -> bool {
    DATASETS.iter().any(|(_, _, d)| session.auth.access.allows(d.permission()))
}

pub async fn form(session: Session) -> Response {
    // Who may export nothing lacks, among the rest, what workflows need: refused as for those.
    if !may_export(&session)
        && let Some(refused) = session.refuses_without(Permission::ReadWorkflows)
    {
        return refused;
    }
    render(StatusCode::OK, &exports_page(&session, None))
}

#[derive(serde::Deserialize)]
pub struct ExportForm {
    csrf: String,
    dataset: String,
    format: String,
    from: Option<String>,
    to: Option<String>,
    background: Option<String>,
}

/// A date from the form (`YYYY-MM-DD`) as the service takes it: the start of that day, UTC,
/// or (for the end of the range) the start of the next day.
fn day(text: Option<&str>, end: bool) -> Option<String> {
    let text = text.map(str::trim).filter(|t| !t.is_empty())?;
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let Ok(date) = time::Date::parse(text, format) else { return Some(text.to_string()) };
    let date = if end { date.next_day().unwrap_or(date) } else { date };
    Some(format!("{date}T00:00:00Z"))
}

pub async fn start(
    State(state): State<AppState>,
    session: Session,
    axum::Form(form): axum::Form<ExportForm>,
) -> Response {
    if let Some(refused) = session.refuses_form(&form.csrf) {
        return refused;
    }
    let Some((_, _, dataset)) = DATASETS.iter().find(|(value, _, _)| *value == form.dataset) else {
        return render(
            StatusCode::BAD_REQUEST,
            &exports_page(&session, Some(session.text.s("exports.choose_what").into())),
        );
    };
    if let Some(refused) = session.refuses_without(dataset.permission()) {
        return refused;
    }
    let input = ExportInput {
        format: form.format.clone(),
        from_date: day(form.from.as_deref(), false),
        to_date: day(form.to.as_deref(), true),
        max_records: None,
        filter_criteria: None,
    };
    let background = form.background.is_some();
    match exports::start(&state.services, &session.auth.caller(), *dataset, &input, background).await {
        Ok(Started::Stream { stream, file_name }) => stream_response(stream, &file_name),
        Ok(Started::Job(job)) => see_other(&format!("/app/exports/{}", job.export_id)),
        Err(error) => super::shown_again(error, async |text| Ok(exports_page(&session, Some(text)))).await,
    }
}

#[derive(Template)]
#[template(path = "console/export.html")]
struct JobPage {
    frame: Frame,
    job: ExportJobStatus,
    asked: String,
}

async fn job_of(
    state: &AppState,
    session: &Session,
    id: &str,
) -> Result<signet_services::records::ExportJobRow, Error> {
    exports::job_for(&state.services, &session.auth.caller(), id, |permission| session.auth.access.allows(permission))
        .await
}

pub async fn job(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<String>) -> Response {
    match job_of(&state, &session, &id).await {
        Ok(job) => {
            let job = exports::status(&state.services, &job);
            let asked = session.when(job.created_at);
            render(StatusCode::OK, &JobPage { frame: session.frame("/app/exports"), job, asked })
        }
        Err(error) => failure(error),
    }
}

pub async fn file(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<String>) -> Response {
    let file = async { exports::file(&state.services, &job_of(&state, &session, &id).await?).await }.await;
    match file {
        Ok(file) => file_response(file),
        Err(error) => failure(error),
    }
}
