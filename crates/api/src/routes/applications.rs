//! Applications: named API clients with a role (`AuthorizeAppRequest` exchanges an
//! application's name and secret key for tokens at `/api/v1/auth/authorize-app`).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::{Error, PrincipalId};
use signet_services::integrations::applications;
use signet_services::records::ApplicationRow;
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiError, ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateApplicationRequest {
    /// 1 to 100 characters, no control characters; unique among the tenant's applications.
    #[schema(
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub app_name: String,
    /// What its tokens may do: 1 administrator, 2 sender, 3 signer, 4 auditor.
    #[schema(minimum = 1, maximum = 4)]
    pub role_id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Application {
    pub application_id: i64,
    /// Null for the API client made with the tenant.
    pub app_name: Option<String>,
    pub client_id: Option<String>,
    pub role: String,
    pub role_id: i32,
    pub revoked: bool,
    pub created_at: i64,
    pub updated_at: Option<i64>,
}

/// An application with its secret key, shown once.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApplicationSecret {
    pub application: Application,
    /// For `AuthorizeAppRequest.secretKey`; Signet keeps only its hash.
    pub secret_key: String,
}

fn view(row: ApplicationRow) -> Application {
    Application {
        application_id: row.id.get(),
        app_name: row.name,
        client_id: row.client_id,
        role: row.role.as_str().to_string(),
        role_id: row.role.id(),
        revoked: row.disabled,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

fn application_id(raw: i64) -> ApiResult<PrincipalId> {
    if (1..=i64::from(i32::MAX)).contains(&raw) {
        Ok(PrincipalId::from(raw))
    } else {
        Err(ApiError::from(Error::not_found("application")))
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/applications",
    operation_id = "createApplication",
    tag = "auth",
    security(("bearer" = [])),
    request_body = CreateApplicationRequest,
    responses(
        (status = 201, description = "Registered; the secret key is shown only now", body = ApplicationSecret),
        (status = 409, description = "An active application of this name exists (`conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CreateApplicationRequest>,
) -> ApiResult<(StatusCode, Json<ApplicationSecret>)> {
    let (row, secret_key) = applications::create(&state.services, &auth.caller(), &body.app_name, body.role_id).await?;
    Ok((StatusCode::CREATED, Json(ApplicationSecret { application: view(row), secret_key })))
}

#[utoipa::path(
    get,
    path = "/api/v1/applications",
    operation_id = "listApplications",
    tag = "auth",
    security(("bearer" = [])),
    responses((status = 200, description = "The tenant's applications, revoked ones included", body = Vec<Application>))
)]
pub async fn list(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Vec<Application>>> {
    Ok(Json(applications::list(&state.services, &auth.caller()).await?.into_iter().map(view).collect()))
}

#[utoipa::path(
    post,
    path = "/api/v1/applications/{applicationId}/rotate",
    operation_id = "rotateApplicationSecret",
    tag = "auth",
    security(("bearer" = [])),
    params(("applicationId" = i32, Path, description = "The application", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 200, description = "A new secret key; the old one and the application's sessions end at once", body = ApplicationSecret),
        (status = 404, description = "No such active application in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The caller's own credentials (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn rotate(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<Json<ApplicationSecret>> {
    let (row, secret_key) = applications::rotate(&state.services, &auth.caller(), application_id(id)?).await?;
    Ok(Json(ApplicationSecret { application: view(row), secret_key }))
}

#[utoipa::path(
    delete,
    path = "/api/v1/applications/{applicationId}",
    operation_id = "revokeApplication",
    tag = "auth",
    security(("bearer" = [])),
    params(("applicationId" = i32, Path, description = "The application", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 204, description = "Revoked: no new tokens, its sessions ended"),
        (status = 404, description = "No such active application in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The caller's own credentials (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn revoke(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<StatusCode> {
    applications::revoke(&state.services, &auth.caller(), application_id(id)?).await?;
    Ok(StatusCode::NO_CONTENT)
}
