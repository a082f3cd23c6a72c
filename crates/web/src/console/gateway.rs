//! The signing gateway's settings for the organisation: the Authtokens its integrators put in
//! their payloads (made with the value shown once, revoked), and which file and signature types
//! and envelope profiles the gateway accepts from them. As the API's `/gateway` operations,
//! with the same permission (`manage_settings`).

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_api::AppState;
use signet_api::extract::ApiPath;
use signet_domain::Error;
use signet_domain::access::Permission;
use signet_services::gateway::admin::{self, FILE_TYPES};

use super::session::see_other;
use super::{Frame, Session, failure, render, user_text, when};

const SIGNATURE_TYPES: [(i64, &str); 3] =
    [(4, "Electronic signature (4)"), (3, "Aadhaar eSign (3)"), (2, "DSC token through the signer utility (2)")];

struct TokenView {
    id: i64,
    label: String,
    hint: String,
    created: String,
    revoked: Option<String>,
}

#[derive(Template)]
#[template(path = "console/gateway.html")]
struct GatewayPage {
    frame: Frame,
    tokens: Vec<TokenView>,
    file_types: Vec<(&'static str, bool)>,
    signature_types: Vec<(i64, &'static str, bool)>,
    legacy: bool,
    created: Option<String>,
    notice: Option<&'static str>,
    error: Option<String>,
}

async fn gateway_page(state: &AppState, session: &Session) -> Result<GatewayPage, Error> {
    let tenant = session.auth.tenant_id;
    let settings = state.store.gateway_settings(tenant).await?;
    let tokens = state
        .store
        .authtokens(tenant)
        .await?
        .into_iter()
        .map(|t| TokenView {
            id: t.id,
            label: t.label,
            hint: t.token_hint,
            created: when(t.created_at),
            revoked: t.revoked_at.map(when),
        })
        .collect();
    Ok(GatewayPage {
        frame: session.frame("/app/gateway"),
        tokens,
        file_types: FILE_TYPES.iter().map(|t| (*t, settings.file_types.iter().any(|f| f == t))).collect(),
        signature_types: SIGNATURE_TYPES
            .iter()
            .map(|(n, label)| (*n, *label, settings.signature_types.contains(n)))
            .collect(),
        legacy: settings.legacy_profile,
        created: None,
        notice: None,
        error: None,
    })
}

async fn shown(
    state: &AppState,
    session: &Session,
    status: StatusCode,
    change: impl FnOnce(&mut GatewayPage),
) -> Response {
    match gateway_page(state, session).await {
        Ok(mut page) => {
            change(&mut page);
            render(status, &page)
        }
        Err(error) => failure(error),
    }
}

pub async fn show(State(state): State<AppState>, session: Session) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ManageSettings) {
        return refused;
    }
    shown(&state, &session, StatusCode::OK, |_| {}).await
}

/// A refusal the person can correct, on the page; anything else fails.
async fn refused(state: &AppState, session: &Session, error: Error) -> Response {
    let status = signet_api::error::status_of(error.code());
    if !status.is_client_error() {
        return failure(error);
    }
    shown(state, session, status, |page| page.error = Some(user_text(&error))).await
}

#[derive(serde::Deserialize)]
pub struct TokenForm {
    csrf: String,
    label: Option<String>,
}

pub async fn create_token(
    State(state): State<AppState>,
    session: Session,
    axum::Form(form): axum::Form<TokenForm>,
) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ManageSettings) {
        return refused;
    }
    if let Some(refused) = session.refuses_form(&form.csrf) {
        return refused;
    }
    match admin::create_authtoken(&state, session.auth.tenant_id, &session.auth.actor(), form.label.as_deref()).await {
        // The value is shown this once, as the API answers it once.
        Ok((_, token)) => shown(&state, &session, StatusCode::CREATED, |page| page.created = Some(token)).await,
        Err(error) => refused(&state, &session, error).await,
    }
}

pub async fn revoke_token(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    axum::Form(form): axum::Form<TokenForm>,
) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ManageSettings) {
        return refused;
    }
    if let Some(refused) = session.refuses_form(&form.csrf) {
        return refused;
    }
    match state.store.revoke_authtoken(session.auth.tenant_id, id, &session.auth.actor()).await {
        Ok(()) => see_other("/app/gateway"),
        Err(error) => refused(&state, &session, error).await,
    }
}

/// The settings form: checkboxes, so it is read as pairs.
pub async fn save_settings(State(state): State<AppState>, session: Session, body: axum::body::Bytes) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ManageSettings) {
        return refused;
    }
    let Ok(pairs) = serde_urlencoded::from_bytes::<Vec<(String, String)>>(&body) else {
        return super::page_error(StatusCode::BAD_REQUEST, "The form could not be read.");
    };
    let all = |name: &'static str| pairs.iter().filter(move |(k, _)| k == name).map(|(_, v)| v.clone());
    let csrf = all("csrf").next().unwrap_or_default();
    if let Some(refused) = session.refuses_form(&csrf) {
        return refused;
    }
    let file_types: Vec<String> = all("file_type").collect();
    let signature_types: Vec<i64> = all("signature_type").filter_map(|t| t.parse().ok()).collect();
    let legacy = all("legacy").next().is_some();
    let saved = admin::put_settings(
        &state,
        session.auth.tenant_id,
        &session.auth.actor(),
        &file_types,
        &signature_types,
        legacy,
    )
    .await;
    match saved {
        Ok(_) => shown(&state, &session, StatusCode::OK, |page| page.notice = Some("The settings are saved.")).await,
        Err(error) => refused(&state, &session, error).await,
    }
}
