//! The signing gateway's settings for the organisation: the Authtokens its integrators put in
//! their payloads (made with the value shown once, revoked), and which file and signature types
//! and envelope profiles the gateway accepts from them. As the API's `/gateway` operations,
//! with the same permission (`manage_settings`).

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::{AuthtokenId, Error};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::gateway::admin::{self, FILE_TYPES};

use super::session::see_other;
use super::{FormFields, Frame, Session, failure, render, shown_again};
use crate::text::key;

const SIGNATURE_TYPES: [(i64, &str); 3] = [
    (4, key("gateway.signature_type.electronic")),
    (3, key("gateway.signature_type.aadhaar")),
    (2, key("gateway.signature_type.dsc_token")),
];

struct TokenView {
    id: AuthtokenId,
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
    let caller = session.auth.caller();
    let settings = admin::settings(&state.services, &caller).await?;
    let tokens = admin::authtokens(&state.services, &caller)
        .await?
        .into_iter()
        .map(|t| TokenView {
            id: t.id,
            label: t.label,
            hint: t.token_hint,
            created: session.when(t.created_at),
            revoked: t.revoked_at.map(|at| session.when(at)),
        })
        .collect();
    Ok(GatewayPage {
        frame: session.frame("/app/gateway"),
        tokens,
        file_types: FILE_TYPES.iter().map(|t| (*t, settings.file_types.iter().any(|f| f == t))).collect(),
        signature_types: SIGNATURE_TYPES
            .iter()
            .map(|(n, label)| (*n, session.text.s(label), settings.signature_types.contains(n)))
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

/// The page again, with a refusal the person can correct.
async fn refused(state: &AppState, session: &Session, error: Error) -> Response {
    shown_again(error, async |text| {
        gateway_page(state, session).await.map(|mut page| {
            page.error = Some(text);
            page
        })
    })
    .await
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
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, &form.csrf) {
        return refused;
    }
    match admin::create_authtoken(&state.services, &session.auth.caller(), form.label.as_deref()).await {
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
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, &form.csrf) {
        return refused;
    }
    match admin::revoke_authtoken(&state.services, &session.auth.caller(), AuthtokenId::from(id)).await {
        Ok(()) => see_other("/app/gateway"),
        Err(error) => refused(&state, &session, error).await,
    }
}

/// The settings form: checkboxes, so it is read as pairs.
pub async fn save_settings(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let file_types: Vec<String> = fields.all("file_type").map(str::to_string).collect();
    let signature_types: Vec<i64> = fields.all("signature_type").filter_map(|t| t.parse().ok()).collect();
    let legacy = fields.all("legacy").next().is_some();
    let saved =
        admin::put_settings(&state.services, &session.auth.caller(), &file_types, &signature_types, legacy).await;
    match saved {
        Ok(_) => {
            shown(&state, &session, StatusCode::OK, |page| page.notice = Some(session.text.s("gateway.settings_saved")))
                .await
        }
        Err(error) => refused(&state, &session, error).await,
    }
}
