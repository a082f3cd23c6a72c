//! Administration screens beyond people: departments (create, rename by API, delete) and
//! webhooks (register with the secret shown once, remove, the latest deliveries of each with
//! their outcome, and delivering one again). Each is the API's operation with the same
//! permission: departments need `manage_people` to change and `read_directory` to see,
//! webhooks `manage_settings`.

use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::department::DepartmentName;
use signet_domain::paging::Page;
use signet_domain::{DeliveryId, DepartmentId, Error, WebhookId};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::{integrations::webhooks, people::departments};

use super::session::see_other;
use super::{FormFields, Frame, Session, failure, render, shown_again};

struct DepartmentView {
    id: i64,
    name: String,
    created: String,
}

#[derive(Template)]
#[template(path = "console/departments.html")]
struct DepartmentsPage {
    frame: Frame,
    departments: Vec<DepartmentView>,
    total: i64,
    may_change: bool,
    error: Option<String>,
}

async fn departments_page(
    state: &AppState,
    session: &Session,
    error: Option<String>,
) -> Result<DepartmentsPage, Error> {
    let (rows, total) =
        departments::list(&state.services, &session.auth.caller(), Page::parse(Some(1), Some(100))?, None).await?;
    Ok(DepartmentsPage {
        frame: session.frame("/app/departments"),
        departments: rows
            .into_iter()
            .map(|d| DepartmentView { id: d.id.get(), name: d.name, created: session.when(d.created_at) })
            .collect(),
        total,
        may_change: session.auth.access.allows(Permission::ManagePeople),
        error,
    })
}

pub async fn departments(State(state): State<AppState>, session: Session) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadDirectory) {
        return refused;
    }
    match departments_page(&state, &session, None).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

#[derive(serde::Deserialize)]
pub struct DepartmentForm {
    csrf: String,
    name: Option<String>,
}

/// The departments page again, with a refusal the person can correct.
async fn departments_again(state: &AppState, session: &Session, error: Error) -> Response {
    shown_again(error, async |text| departments_page(state, session, Some(text)).await).await
}

pub async fn create_department(
    State(state): State<AppState>,
    session: Session,
    axum::Form(form): axum::Form<DepartmentForm>,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManagePeople, &form.csrf) {
        return refused;
    }
    let created = async {
        let name = DepartmentName::parse("name", form.name.as_deref())?;
        departments::create(&state.services, &session.auth.caller(), &name).await
    }
    .await;
    match created {
        Ok(_) => see_other("/app/departments"),
        Err(error) => departments_again(&state, &session, error).await,
    }
}

pub async fn delete_department(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    axum::Form(form): axum::Form<DepartmentForm>,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManagePeople, &form.csrf) {
        return refused;
    }
    let deleted = async {
        if !(1..=i64::from(i32::MAX)).contains(&id) {
            return Err(Error::not_found("department"));
        }
        let id = DepartmentId::from(id);
        departments::delete(&state.services, &session.auth.caller(), &[id]).await
    }
    .await;
    match deleted {
        Ok(()) => see_other("/app/departments"),
        Err(error) => departments_again(&state, &session, error).await,
    }
}

struct WebhookView {
    id: i64,
    url: String,
    description: String,
    events: String,
    disabled: bool,
    /// When the circuit breaker paused it, as shown.
    paused: Option<String>,
}

struct DeliveryView {
    id: DeliveryId,
    event: String,
    state: String,
    attempts: i64,
    last: String,
    at: String,
    /// Every attempt, oldest first.
    tries: Vec<AttemptView>,
}

struct AttemptView {
    at: String,
    answer: String,
    duration_ms: i64,
}

/// What an endpoint answered: its HTTP status, else why it could not be reached.
fn answer(status: Option<i64>, error: Option<String>) -> String {
    match (status, error) {
        (Some(status), _) => format!("HTTP {status}"),
        (None, Some(error)) => error,
        (None, None) => String::new(),
    }
}

#[derive(Template)]
#[template(path = "console/webhooks.html")]
struct WebhooksPage {
    frame: Frame,
    webhooks: Vec<WebhookView>,
    event_types: Vec<&'static str>,
    shown: Option<(i64, Vec<DeliveryView>)>,
    secret: Option<String>,
    error: Option<String>,
}

#[derive(serde::Deserialize)]
pub struct Shown {
    deliveries: Option<i64>,
}

async fn webhooks_page(state: &AppState, session: &Session, shown: Option<i64>) -> Result<WebhooksPage, Error> {
    let caller = session.auth.caller();
    let webhooks = webhooks::endpoints(&state.services, &caller)
        .await?
        .into_iter()
        .map(|w| WebhookView {
            id: w.id.get(),
            url: w.url,
            description: w.description.unwrap_or_default(),
            events: w.event_types,
            disabled: w.disabled,
            paused: w.paused_at.map(|at| session.when(at)),
        })
        .collect();
    let shown = match shown {
        Some(id) => {
            let deliveries = webhooks::deliveries(&state.services, &caller, WebhookId::from(id))
                .await?
                .into_iter()
                .map(|(d, tries)| DeliveryView {
                    id: d.id,
                    event: d.event_type,
                    state: d.state,
                    attempts: d.attempts,
                    last: answer(d.last_status, d.last_error),
                    at: session.when(d.updated_at),
                    tries: tries
                        .into_iter()
                        .map(|a| AttemptView {
                            at: session.when(a.attempted_at),
                            answer: answer(a.status, a.error),
                            duration_ms: a.duration_ms,
                        })
                        .collect(),
                })
                .collect();
            Some((id, deliveries))
        }
        None => None,
    };
    Ok(WebhooksPage {
        frame: session.frame("/app/webhooks"),
        webhooks,
        event_types: signet_domain::webhook::EVENT_TYPES.to_vec(),
        shown,
        secret: None,
        error: None,
    })
}

pub async fn webhooks(State(state): State<AppState>, session: Session, Query(shown): Query<Shown>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ManageSettings) {
        return refused;
    }
    match webhooks_page(&state, &session, shown.deliveries).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

/// The webhook form: `(name, value)` pairs, as its event types are several checkboxes.
pub async fn create_webhook(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let mut events: Vec<String> = fields.all("event").map(str::to_string).collect();
    if events.is_empty() {
        events.push("*".into());
    }
    let description = Some(fields.get("description")).filter(|d| !d.is_empty());
    let created =
        webhooks::create_endpoint(&state.services, &session.auth.caller(), fields.get("url"), description, &events)
            .await;
    match created {
        Ok((_, secret)) => match webhooks_page(&state, &session, None).await {
            // The secret is shown this once, as the API answers it once.
            Ok(mut page) => {
                page.secret = Some(secret);
                render(StatusCode::CREATED, &page)
            }
            Err(error) => failure(error),
        },
        Err(error) => webhooks_again(&state, &session, None, error).await,
    }
}

/// The webhooks page again, with a refusal the person can correct.
async fn webhooks_again(state: &AppState, session: &Session, shown: Option<i64>, error: Error) -> Response {
    shown_again(error, async |text| {
        webhooks_page(state, session, shown).await.map(|mut page| {
            page.error = Some(text);
            page
        })
    })
    .await
}

#[derive(serde::Deserialize)]
pub struct Plain {
    csrf: String,
}

pub async fn delete_webhook(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    axum::Form(form): axum::Form<Plain>,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, &form.csrf) {
        return refused;
    }
    match webhooks::delete_endpoint(&state.services, &session.auth.caller(), WebhookId::from(id)).await {
        Ok(()) => see_other("/app/webhooks"),
        Err(error) => failure(error),
    }
}

pub async fn redeliver(
    State(state): State<AppState>,
    session: Session,
    ApiPath((webhook, delivery)): ApiPath<(i64, i64)>,
    axum::Form(form): axum::Form<Plain>,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, &form.csrf) {
        return refused;
    }
    match webhooks::redeliver(&state.services, &session.auth.caller(), DeliveryId::from(delivery)).await {
        Ok(()) => see_other(&format!("/app/webhooks?deliveries={webhook}")),
        Err(error) => webhooks_again(&state, &session, Some(webhook), error).await,
    }
}

/// Resumes an endpoint the circuit breaker paused; its waiting deliveries are sent.
pub async fn resume_webhook(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    axum::Form(form): axum::Form<Plain>,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, &form.csrf) {
        return refused;
    }
    match webhooks::resume_endpoint(&state.services, &session.auth.caller(), WebhookId::from(id)).await {
        Ok(()) => see_other("/app/webhooks"),
        Err(error) => webhooks_again(&state, &session, None, error).await,
    }
}
