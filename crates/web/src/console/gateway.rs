//! The signing gateway's settings for the organisation: the Authtokens its integrators put in
//! their payloads (made with the value shown once, revoked), and which file and signature types
//! and envelope profiles the gateway accepts from them. As the API's `/gateway` operations,
//! with the same permission (`manage_settings`). Below them, the installation's Aadhaar eSign
//! providers (ESPs) its signers are routed through, each one's health and the routing
//! decisions taken, as `GET /api/v1/esign/providers` answers them.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::{AuthtokenId, Error};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::esign::failover::Verdict;
use signet_services::esign::providers::{self, ProviderHealth};
use signet_services::gateway::admin::{self, FILE_TYPES};

use super::session::see_other;
use super::{FormFields, Frame, Session, failure, render, shown_again};
use crate::text::key;

const SIGNATURE_TYPES: [(i64, &str); 3] = [
    (4, key("gateway.signature_type.electronic")),
    (3, key("gateway.signature_type.aadhaar")),
    (2, key("gateway.signature_type.dsc_token")),
];

/// One ESP's row: its verdict both as words and as the value scripts and tests read.
struct EspView {
    priority: u32,
    name: String,
    verdict: &'static str,
    verdict_text: &'static str,
    answered: u32,
    refused: u32,
    unreachable: u32,
    median_latency_ms: Option<u32>,
    /// Sent to it first (as the primary or the healthiest), as a retry, as a failover.
    routed_new: u64,
    routed_retry: u64,
    routed_failover: u64,
}

fn verdict_key(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Healthy => key("gateway.esp_verdict.healthy"),
        Verdict::Degraded => key("gateway.esp_verdict.degraded"),
        Verdict::Down => key("gateway.esp_verdict.down"),
    }
}

fn esp_view(session: &Session, esp: ProviderHealth) -> EspView {
    EspView {
        priority: esp.priority,
        name: esp.name,
        verdict: esp.health.verdict.as_str(),
        verdict_text: session.text.s(verdict_key(esp.health.verdict)),
        answered: esp.health.answered,
        refused: esp.health.refused,
        unreachable: esp.health.unreachable,
        median_latency_ms: esp.health.median_latency_ms,
        routed_new: esp.routed.primary.saturating_add(esp.routed.healthiest),
        routed_retry: esp.routed.retry,
        routed_failover: esp.routed.failover,
    }
}

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
    /// The installation's ESPs; empty when Aadhaar eSign is not configured.
    esps: Vec<EspView>,
    /// The window their health is judged over, in seconds.
    esp_window_seconds: u64,
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
    let esps = providers::providers(&state.services, &caller)?;
    Ok(GatewayPage {
        frame: session.frame("/app/gateway"),
        tokens,
        file_types: FILE_TYPES.iter().map(|t| (*t, settings.file_types.iter().any(|f| f == t))).collect(),
        signature_types: SIGNATURE_TYPES
            .iter()
            .map(|(n, label)| (*n, session.text.s(label), settings.signature_types.contains(n)))
            .collect(),
        legacy: settings.legacy_profile,
        esp_window_seconds: esps.window_ms.div_ceil(1000),
        esps: esps.esps.into_iter().map(|esp| esp_view(session, esp)).collect(),
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
