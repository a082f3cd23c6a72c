//! Gateway administration through the JSON API: Authtokens (shown once, stored hashed) and the
//! tenant's gateway settings (subscribed file and signature types, legacy envelope on/off).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_services::records::AuthtokenRow;
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};
use signet_services::gateway::admin;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateAuthtokenRequest {
    /// What the token is for, e.g. the integrating system's name (1 to 100 characters, trimmed,
    /// no control characters).
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub label: Option<String>,
}

/// A gateway Authtoken; the token value itself is only in the creation answer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayAuthtoken {
    pub id: i64,
    pub label: String,
    /// The last characters of the token, to tell tokens apart.
    pub token_hint: String,
    pub created_by: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub revoked_at: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedAuthtoken {
    #[serde(flatten)]
    pub token: GatewayAuthtoken,
    /// The value to put in the payload's `Authtoken`; shown only now.
    pub authtoken: String,
}

/// Which gateway features the tenant may use; a request outside them fails with error 105.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GatewaySettings {
    /// Any of PDF, XML, DATA, HASH (case and surrounding spaces are ignored; repeats are folded).
    #[schema(schema_with = crate::routes::schemas::gateway_file_types)]
    pub file_types: Vec<String>,
    /// Any of 2 (crypto token), 3 (Aadhaar eSign), 4 (electronic signature).
    #[schema(schema_with = crate::routes::schemas::gateway_signature_types)]
    pub signature_types: Vec<i64>,
    /// Accept the legacy envelope (RSA PKCS#1 v1.5 + AES-ECB) besides the modern one.
    pub legacy_profile_enabled: bool,
}

fn view(row: AuthtokenRow) -> GatewayAuthtoken {
    GatewayAuthtoken {
        id: row.id.get(),
        label: row.label,
        token_hint: row.token_hint,
        created_by: row.created_by,
        created_at: row.created_at,
        revoked_at: row.revoked_at,
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/gateway/authtokens",
    tag = "gateway",
    security(("bearer" = [])),
    request_body = CreateAuthtokenRequest,
    responses(
        (status = 201, description = "Created; the token value is shown once", body = CreatedAuthtoken),
        (status = 400, description = "Invalid input", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn create_authtoken(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CreateAuthtokenRequest>,
) -> ApiResult<(StatusCode, Json<CreatedAuthtoken>)> {
    let (row, authtoken) = admin::create_authtoken(&state.services, &auth.caller(), body.label.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(CreatedAuthtoken { token: view(row), authtoken })))
}

#[utoipa::path(
    get,
    path = "/api/v1/gateway/authtokens",
    tag = "gateway",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The tenant's Authtokens, revoked ones included", body = Vec<GatewayAuthtoken>),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn list_authtokens(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Vec<GatewayAuthtoken>>> {
    let rows = admin::authtokens(&state.services, &auth.caller()).await?;
    Ok(Json(rows.into_iter().map(view).collect()))
}

#[utoipa::path(
    delete,
    path = "/api/v1/gateway/authtokens/{id}",
    tag = "gateway",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Authtoken id", minimum = 1)),
    responses(
        (status = 204, description = "Revoked; requests with it now fail with error 104"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such token in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn revoke_authtoken(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<StatusCode> {
    admin::revoke_authtoken(&state.services, &auth.caller(), signet_domain::AuthtokenId::from(id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    get,
    path = "/api/v1/gateway/settings",
    tag = "gateway",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The tenant's gateway settings", body = GatewaySettings),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_settings(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<GatewaySettings>> {
    let settings = admin::settings(&state.services, &auth.caller()).await?;
    Ok(Json(GatewaySettings {
        file_types: settings.file_types,
        signature_types: settings.signature_types,
        legacy_profile_enabled: settings.legacy_profile,
    }))
}

#[utoipa::path(
    put,
    path = "/api/v1/gateway/settings",
    tag = "gateway",
    security(("bearer" = [])),
    request_body = GatewaySettings,
    responses(
        (status = 200, description = "Saved", body = GatewaySettings),
        (status = 400, description = "Invalid input", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn put_settings(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<GatewaySettings>,
) -> ApiResult<Json<GatewaySettings>> {
    let (types, legacy) = (&body.file_types, body.legacy_profile_enabled);
    let settings = admin::put_settings(&state.services, &auth.caller(), types, &body.signature_types, legacy).await?;
    Ok(Json(GatewaySettings {
        file_types: settings.file_types,
        signature_types: settings.signature_types,
        legacy_profile_enabled: settings.legacy_profile,
    }))
}

/// A gateway transaction as its tenant sees it. `returnvalue` is present while a stored result
/// (`Storetodb`) is kept: the signed data encrypted with the request's session key, exactly as
/// it was posted to the return address.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayTransaction {
    pub transaction_number: String,
    pub reference_number: String,
    pub file_type: String,
    /// Initiated, Completed, Failed, Cancelled or Expired.
    pub status: String,
    pub error_message: Option<String>,
    pub returnvalue: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub updated_at: i64,
    pub expires_at: i64,
    pub result_available_until: Option<i64>,
    /// For a completed transaction, the ETSI baseline level its signature reached:
    /// `PAdES-B-LT` or `CAdES-B-LT` when a time-stamp authority is configured and every CA
    /// answered (the signature validates after its certificates expire), `-B-T` when a CA did
    /// not answer, `-B-B` without a time-stamp authority; `XML-DSig` for XML. An Aadhaar eSign
    /// PDF whose ESP's CMS is not PAdES baseline (SubFilter `adbe.pkcs7.detached`) is no PAdES
    /// level: `PKCS7-LT`, `PKCS7-T` or `PKCS7-B` (docs/esign.md, "The PDF signature's label").
    pub signature_level: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/v1/gateway/transactions/{transactionNumber}",
    tag = "gateway",
    security(("bearer" = [])),
    params(("transactionNumber" = String, Path, description = "The gateway's Transactionnumber")),
    responses(
        (status = 200, description = "The transaction and, while kept, its stored result", body = GatewayTransaction),
        (status = 404, description = "No such transaction in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn transaction(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(number): ApiPath<String>,
) -> ApiResult<Json<GatewayTransaction>> {
    let (row, returnvalue) = admin::transaction(&state.services, &auth.caller(), &number).await?;
    let kept = admin::result_kept(&row);
    Ok(Json(GatewayTransaction {
        transaction_number: row.transaction_number,
        reference_number: row.reference_number,
        file_type: row.file_type,
        status: admin::wire_status(row.state).to_string(),
        error_message: row.error_message,
        returnvalue,
        created_at: row.created_at,
        updated_at: row.updated_at,
        expires_at: row.expires_at,
        result_available_until: if kept { row.result_expires_at } else { None },
        signature_level: row.signature_level,
    }))
}
