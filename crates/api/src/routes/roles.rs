//! Roles: the built-in ones and the tenant's own (a name and the permissions it grants).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::Error;
use signet_domain::access::{Permission, Role, RoleRef, parse_permissions};
use signet_services::records::RoleRow;
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiError, ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};

/// A role: built in (ids 1 to 4) or the tenant's own (ids above 100).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoleView {
    /// For `roleId` in `CreateInternalUserRequest`.
    pub role_id: i64,
    pub name: String,
    pub built_in: bool,
    /// `read_workflows`, `send_workflows`, `read_directory`, `manage_people`, `manage_settings`,
    /// `read_audit` (every role may also manage its own account).
    pub permissions: Vec<String>,
}

fn names(permissions: impl IntoIterator<Item = Permission>) -> Vec<String> {
    permissions.into_iter().filter(|p| *p != Permission::Authenticated).map(|p| p.as_str().to_string()).collect()
}

fn custom(row: RoleRow) -> RoleView {
    RoleView {
        role_id: RoleRef::Custom(row.id).wire_id(),
        name: row.name,
        built_in: false,
        permissions: names(parse_permissions(&row.permissions)),
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateRoleRequest {
    /// 1 to 100 characters, unique in the tenant (ignoring case).
    #[schema(
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub name: String,
    #[schema(schema_with = crate::routes::schemas::role_permissions)]
    pub permissions: Vec<String>,
}

#[utoipa::path(
    get,
    path = "/api/v1/roles",
    operation_id = "listRoles",
    tag = "users",
    security(("bearer" = [])),
    responses((status = 200, description = "The built-in roles and the tenant's own", body = Vec<RoleView>))
)]
pub async fn list(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Vec<RoleView>>> {
    let built_in = Role::ALL.iter().map(|role| RoleView {
        role_id: i64::from(role.id()),
        name: role.as_str().to_string(),
        built_in: true,
        permissions: names(Permission::ALL.iter().copied().filter(|p| role.allows(*p))),
    });
    let own = signet_services::people::roles::list(&state.services, &auth.caller()).await?.into_iter().map(custom);
    Ok(Json(built_in.chain(own).collect()))
}

#[utoipa::path(
    post,
    path = "/api/v1/roles",
    operation_id = "createRole",
    tag = "users",
    security(("bearer" = [])),
    request_body = CreateRoleRequest,
    responses(
        (status = 201, description = "Made; give it to users with its roleId", body = RoleView),
        (status = 409, description = "The tenant has a role of this name (`conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CreateRoleRequest>,
) -> ApiResult<(StatusCode, Json<RoleView>)> {
    if body.permissions.len() > 6 {
        return Err(ApiError::from(Error::field("permissions", "at most 6")));
    }
    let row =
        signet_services::people::roles::create(&state.services, &auth.caller(), &body.name, &body.permissions).await?;
    Ok((StatusCode::CREATED, Json(custom(row))))
}

#[utoipa::path(
    delete,
    path = "/api/v1/roles/{roleId}",
    operation_id = "deleteRole",
    tag = "users",
    security(("bearer" = [])),
    params(("roleId" = i32, Path, description = "A tenant role's id (above 100)", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 204, description = "Removed"),
        (status = 404, description = "No such role of this tenant (built-in roles stay)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Users have it (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn delete(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<StatusCode> {
    signet_services::people::roles::delete(&state.services, &auth.caller(), id).await?;
    Ok(StatusCode::NO_CONTENT)
}
