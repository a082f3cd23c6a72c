//! Retention and privacy (managing settings): the organisation's retention periods, legal holds
//! on workflows, and a person's erasure request, as the API offers them (docs/privacy.md).
//! Templates' own periods are set through the API and listed here.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::retention::{KeptBecause, RetentionPeriods};
use signet_domain::{Error, WorkflowId};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::privacy::{erasure, retention};
use signet_services::records::RetentionPolicies;

use super::{FormFields, Frame, Session, render, shown_again};
use crate::text::key;

/// Holds the page lists, at most.
const HOLDS_SHOWN: i64 = 500;

/// One legal hold as the page lists it.
struct HoldLine {
    workflow_id: i64,
    reason: String,
    placed_by: String,
    placed_at: String,
}

/// A template's own periods, as text.
struct TemplateLine {
    template_id: i64,
    periods: String,
}

/// One workflow an erasure request erased or kept.
struct OutcomeLine {
    workflow_id: i64,
    name: String,
    /// Why it was kept and until when, written out; empty when erased.
    kept: String,
}

#[derive(Template)]
#[template(path = "console/privacy.html")]
struct PrivacyPage {
    frame: Frame,
    /// Each period as the form shows it: empty for "kept until erased".
    completed: String,
    declined: String,
    expired: String,
    gateway: String,
    templates: Vec<TemplateLine>,
    holds: Vec<HoldLine>,
    /// The last erasure request's outcome, when the page answers one.
    erased: Vec<OutcomeLine>,
    kept: Vec<OutcomeLine>,
    answered: bool,
    more: bool,
    notice: Option<&'static str>,
    error: Option<String>,
}

fn days_text(days: Option<u32>) -> String {
    days.map(|d| d.to_string()).unwrap_or_default()
}

async fn page(state: &AppState, session: &Session) -> Result<PrivacyPage, Error> {
    let caller = session.auth.caller();
    let policies = retention::policies(&state.services, &caller).await?;
    let holds = retention::holds(&state.services, &caller, None, HOLDS_SHOWN).await?;
    let o = policies.organisation;
    let text = session.text;
    let none = text.s("privacy.keep");
    let period =
        |days: Option<u32>| days.map_or_else(|| none.to_string(), |d| text.plain("privacy.days", &[("days", &d)]));
    Ok(PrivacyPage {
        frame: session.frame("/app/privacy"),
        completed: days_text(o.completed_days),
        declined: days_text(o.declined_days),
        expired: days_text(o.expired_days),
        gateway: days_text(o.gateway_days),
        templates: policies
            .templates
            .iter()
            .map(|(id, p)| TemplateLine {
                template_id: id.get(),
                periods: format!(
                    "{}: {} · {}: {} · {}: {}",
                    text.s("privacy.completed"),
                    period(p.completed_days),
                    text.s("privacy.declined"),
                    period(p.declined_days),
                    text.s("privacy.expired"),
                    period(p.expired_days)
                ),
            })
            .collect(),
        holds: holds
            .into_iter()
            .map(|h| HoldLine {
                workflow_id: h.workflow_id.get(),
                reason: h.reason,
                placed_by: h.placed_by,
                placed_at: session.when(h.placed_at),
            })
            .collect(),
        erased: Vec::new(),
        kept: Vec::new(),
        answered: false,
        more: false,
        notice: None,
        error: None,
    })
}

/// `GET /app/privacy`.
pub async fn show(State(state): State<AppState>, session: Session) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ManageSettings) {
        return refused;
    }
    match page(&state, &session).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => refused(&state, &session, error).await,
    }
}

/// A period field: empty keeps until erased; otherwise whole days.
fn days_field(fields: &FormFields, name: &str) -> Result<Option<u32>, Error> {
    let typed = fields.get(name).trim();
    if typed.is_empty() {
        return Ok(None);
    }
    typed.parse::<u32>().map(Some).map_err(|_| Error::field(name, "must be a whole number of days"))
}

/// `POST /app/privacy/retention`: the organisation's four periods; templates' are kept.
pub async fn save_retention(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let caller = session.auth.caller();
    let saved = async {
        let organisation = RetentionPeriods {
            completed_days: days_field(&fields, "completedDays")?,
            declined_days: days_field(&fields, "declinedDays")?,
            expired_days: days_field(&fields, "expiredDays")?,
            gateway_days: days_field(&fields, "gatewayDays")?,
        };
        let templates = retention::policies(&state.services, &caller).await?.templates;
        retention::set_policies(&state.services, &caller, RetentionPolicies { organisation, templates }).await
    };
    match saved.await {
        Ok(_) => saved_page(&state, &session, key("privacy.saved")).await,
        Err(error) => refused(&state, &session, error).await,
    }
}

/// `POST /app/privacy/holds`: `workflowId`, `reason`.
pub async fn place_hold(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let placed = async {
        let id: i64 = fields
            .get("workflowId")
            .trim()
            .parse()
            .map_err(|_| Error::field("workflowId", "must be a workflow's number"))?;
        retention::place_hold(&state.services, &session.auth.caller(), WorkflowId::from(id), fields.get("reason")).await
    };
    match placed.await {
        Ok(_) => saved_page(&state, &session, key("privacy.held")).await,
        Err(error) => refused(&state, &session, error).await,
    }
}

/// `POST /app/privacy/holds/{id}/release`.
pub async fn release_hold(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    fields: FormFields,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    match retention::release_hold(&state.services, &session.auth.caller(), WorkflowId::from(id)).await {
        Ok(()) => saved_page(&state, &session, key("privacy.released")).await,
        Err(error) => refused(&state, &session, error).await,
    }
}

/// `POST /app/privacy/erasure`: `email` and/or `phone`; the page answers what was erased and
/// what was kept, why and until when.
pub async fn request_erasure(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let some = |name: &str| Some(fields.get(name).trim().to_string()).filter(|v| !v.is_empty());
    let subject = erasure::Subject { email: some("email"), phone: some("phone") };
    let answered = erasure::request(&state.services, &session.auth.caller(), subject).await;
    let answer = match answered {
        Ok(answer) => answer,
        Err(error) => return refused(&state, &session, error).await,
    };
    match page(&state, &session).await {
        Ok(mut page) => {
            let text = session.text;
            page.answered = true;
            page.more = answer.more;
            page.erased = answer
                .erased
                .into_iter()
                .map(|r| OutcomeLine { workflow_id: r.workflow_id.get(), name: r.name, kept: String::new() })
                .collect();
            page.kept = answer
                .kept
                .into_iter()
                .map(|k| {
                    let why = match k.because {
                        KeptBecause::InProgress => text.s("privacy.kept_in_progress").to_string(),
                        KeptBecause::LegalHold => text.s("privacy.kept_hold").to_string(),
                        KeptBecause::Retention => {
                            let until = k.until.map(|u| session.when(u)).unwrap_or_default();
                            text.plain("privacy.kept_until", &[("until", &until)])
                        }
                    };
                    OutcomeLine { workflow_id: k.record.workflow_id.get(), name: k.record.name, kept: why }
                })
                .collect();
            render(StatusCode::OK, &page)
        }
        Err(error) => refused(&state, &session, error).await,
    }
}

/// The page as saved, with the notice `said` (a catalogue key).
async fn saved_page(state: &AppState, session: &Session, said: &'static str) -> Response {
    match page(state, session).await {
        Ok(mut page) => {
            page.notice = Some(session.text.s(said));
            render(StatusCode::OK, &page)
        }
        Err(error) => refused(state, session, error).await,
    }
}

/// The page again, with a refusal the person can correct.
async fn refused(state: &AppState, session: &Session, error: Error) -> Response {
    shown_again(error, async |text| {
        let mut page = page(state, session).await?;
        page.error = Some(text);
        Ok::<_, Error>(page)
    })
    .await
}
