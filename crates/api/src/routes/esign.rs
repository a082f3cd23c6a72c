//! Aadhaar eSign as an organisation's administrator sees it (a Signet extension, not in the
//! interface spec): the installation's ESPs, each one's health and the routing decisions taken,
//! as `crates/services/src/esign/providers.rs` answers them; see docs/esign.md.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use signet_services::esign::failover::Verdict;
use signet_services::esign::providers::{self, ProviderHealth};
use signet_services::esign::{EspProfileName, FlowKind};
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};

/// An ESP's health as Signet judges it over the window.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EspVerdict {
    /// New transactions may go to it first.
    Healthy,
    /// One recent failure, a quarter of the window failed, or slow answers: a healthy ESP goes
    /// first.
    Degraded,
    /// Its two latest observations failed: skipped while another is not down.
    Down,
}

/// How the request reaches the ESP.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EspFlow {
    /// eSign 2.1: the signer's browser posts the request to the ESP's form.
    Form,
    /// eSign 3.x: Signet posts the request, the browser follows with `txnref`.
    Server,
}

/// The ESP's profile (`esign_esp_profile`): its flow, signature style and codes.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub enum EspProfile {
    #[serde(rename = "cdac")]
    Cdac,
    #[serde(rename = "emudhra")]
    Emudhra,
    /// Protean eGov Technologies (formerly NSDL).
    #[serde(rename = "protean")]
    Protean,
    #[serde(rename = "generic-2.1")]
    Generic21,
    #[serde(rename = "generic-3.x")]
    Generic3x,
}

/// New eSign requests sent to an ESP since this Signet instance started, by why it was chosen.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EspRouted {
    /// It was first in the order and is the primary.
    pub primary: u64,
    /// It was first in the order, another being down or degraded.
    pub healthiest: u64,
    /// A signer back from another ESP, or trying again after a refused answer.
    pub retry: u64,
    /// An earlier ESP could not take the request (a failed server-flow post).
    pub failover: u64,
}

/// One configured ESP as this Signet instance sees it now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EspProvider {
    /// Its name in the installation's settings, the metrics and the logs.
    pub name: String,
    /// Its place in the configured order, 1 for the primary.
    #[schema(minimum = 1)]
    pub priority: u32,
    pub profile: EspProfile,
    pub flow: EspFlow,
    pub verdict: EspVerdict,
    /// Observations in the window: answers (and live probes).
    pub answered: u32,
    /// Observations in the window: refusals that are the ESP's own failure.
    pub refused: u32,
    /// Observations in the window: not reached, timed out, or a server error.
    pub unreachable: u32,
    /// Median latency of the window's timed observations (probes, server-flow posts).
    pub median_latency_ms: Option<u32>,
    pub routed: EspRouted,
}

/// The installation's ESPs in priority order; empty when Aadhaar eSign is not configured.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EspProviders {
    /// The sliding window each verdict is drawn from, in milliseconds (`esign_health_window_ms`).
    pub window_ms: u64,
    pub providers: Vec<EspProvider>,
}

fn view(esp: ProviderHealth) -> EspProvider {
    EspProvider {
        name: esp.name,
        priority: esp.priority,
        profile: match esp.profile {
            EspProfileName::Cdac => EspProfile::Cdac,
            EspProfileName::Emudhra => EspProfile::Emudhra,
            EspProfileName::Protean => EspProfile::Protean,
            EspProfileName::Generic21 => EspProfile::Generic21,
            EspProfileName::Generic3x => EspProfile::Generic3x,
        },
        flow: match esp.flow {
            FlowKind::Form => EspFlow::Form,
            FlowKind::Server => EspFlow::Server,
        },
        verdict: match esp.health.verdict {
            Verdict::Healthy => EspVerdict::Healthy,
            Verdict::Degraded => EspVerdict::Degraded,
            Verdict::Down => EspVerdict::Down,
        },
        answered: esp.health.answered,
        refused: esp.health.refused,
        unreachable: esp.health.unreachable,
        median_latency_ms: esp.health.median_latency_ms,
        routed: EspRouted {
            primary: esp.routed.primary,
            healthiest: esp.routed.healthiest,
            retry: esp.routed.retry,
            failover: esp.routed.failover,
        },
    }
}

#[utoipa::path(
    get,
    path = "/api/v1/esign/providers",
    tag = "esign",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The installation's ESPs, each one's health and routing as this instance sees it now (a Signet extension)", body = EspProviders),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
/// The installation's eSign service providers, each one's health and routing.
///
/// A Signet extension. Each configured ESP in priority order with its verdict over the sliding
/// window, the window's observations and the requests routed to it since this instance started;
/// empty when Aadhaar eSign is not configured. Needs `manage_settings`: the ESPs are the
/// installation's, and the organisation's Aadhaar signers are routed through them.
pub async fn esp_providers(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<EspProviders>> {
    let seen = providers::providers(&state.services, &auth.caller())?;
    Ok(Json(EspProviders { window_ms: seen.window_ms, providers: seen.esps.into_iter().map(view).collect() }))
}
