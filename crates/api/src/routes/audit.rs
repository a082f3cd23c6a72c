//! The tenant's audit trail: export and chain verification.

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use signet_domain::audit::{AuditEntry, ChainBreak};
use utoipa::{IntoParams, ToSchema};

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::ApiQuery;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// Entries after this sequence number; default 0 (from the start).
    #[param(minimum = 0)]
    pub after_seq: Option<i64>,
    /// 1 to 1000; default 100.
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
}

/// One audit entry; `hash` covers every field and the previous entry's hash.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntryView {
    pub seq: i64,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
    pub actor: String,
    pub action: String,
    pub target: String,
    /// The client address the change came from, when known.
    pub ip: Option<String>,
    /// When set, what `hash` covers in place of `ip`: `ipc1:` + hex SHA-256 of the
    /// length-prefixed `ipNonce` and `ip` (addresses are kept sealed; docs/privacy.md).
    pub ip_commitment: Option<String>,
    /// The nonce of `ipCommitment`, when the address is known.
    pub ip_nonce: Option<String>,
    /// Event details, a JSON document.
    pub detail: String,
    pub prev_hash: String,
    pub hash: String,
}

impl From<AuditEntry> for AuditEntryView {
    fn from(e: AuditEntry) -> Self {
        let (ip, ip_commitment) = (e.client_ip().map(str::to_owned), e.ip_commitment().map(str::to_owned));
        AuditEntryView {
            seq: e.seq,
            at: e.at,
            actor: e.actor,
            action: e.action,
            target: e.target,
            ip,
            ip_commitment,
            ip_nonce: e.ip_opening.map(|opening| opening.nonce),
            detail: e.detail,
            prev_hash: e.prev_hash,
            hash: e.hash,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditVerification {
    pub intact: bool,
    pub entries: usize,
    /// The first entry that fails, when the chain is broken.
    pub broken_at: Option<i64>,
    pub reason: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/v1/audit",
    operation_id = "listAuditEntries",
    tag = "audit",
    security(("bearer" = [])),
    params(AuditQuery),
    responses(
        (status = 200, description = "Entries in chain order", body = Vec<AuditEntryView>),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(query): ApiQuery<AuditQuery>,
) -> ApiResult<Json<Vec<AuditEntryView>>> {
    let (after_seq, limit) = (query.after_seq.unwrap_or(0), query.limit.unwrap_or(100));
    let entries = signet_services::platform::audit::entries(&state.services, &auth.caller(), after_seq, limit).await?;
    Ok(Json(entries.into_iter().map(AuditEntryView::from).collect()))
}

#[utoipa::path(
    get,
    path = "/api/v1/audit/verify",
    tag = "audit",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Whether the tenant's chain is intact", body = AuditVerification),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn verify(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<AuditVerification>> {
    let (entries, outcome) = signet_services::platform::audit::verify(&state.services, &auth.caller()).await?;
    let (broken_at, reason) = match outcome {
        Ok(()) => (None, None),
        Err(ChainBreak { seq, reason }) => (Some(seq), Some(reason)),
    };
    Ok(Json(AuditVerification { intact: broken_at.is_none(), entries: entries as usize, broken_at, reason }))
}
