//! Menus and access: activities under a parent menu (`CreateActivityRequest`), templates as
//! menu entries (made with each template), granted to users and departments
//! (`AssignAccessRequest`) and taken back from one of them, and who may use an entry
//! (`FlexiFormResponse`).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::menu::parent_from_wire;
use signet_domain::{DepartmentId, MenuId, PrincipalId, TemplateId};
use signet_services::people::menus;
use signet_services::records::{Grantee, MenuRow};
use utoipa::ToSchema;

use crate::routes::departments::Department;
use crate::routes::documents::BrowserInfo;
use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateActivityRequest {
    /// The menu it goes under; 0 for the top level.
    #[schema(format = Int32, minimum = 0, maximum = 2147483647)]
    pub menu_parent_id: i64,
    /// 1 to 100 characters, no control characters.
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub menu_name: Option<String>,
    pub browser_info: Option<BrowserInfo>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeleteActivityRequest {
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub menu_id: i64,
    pub browser_info: Option<BrowserInfo>,
}

/// Grants every listed menu entry to every listed user and department.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AssignAccessRequest {
    #[schema(schema_with = crate::routes::schemas::menu_ids)]
    pub menu_ids: Vec<i64>,
    /// Absent or null: nobody by name.
    #[serde(default)]
    #[schema(schema_with = crate::routes::schemas::grantee_ids)]
    pub subscriber_ids: Option<Vec<i64>>,
    /// Absent or null: no department.
    #[serde(default)]
    #[schema(schema_with = crate::routes::schemas::grantee_ids)]
    pub department_ids: Option<Vec<i64>>,
    pub browser_info: Option<BrowserInfo>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AssignAccessResponse {
    /// New grants (a grant that existed is not counted again).
    pub granted: usize,
}

/// A menu entry: an activity, or a template.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Menu {
    pub menu_id: i64,
    pub menu_parent_id: Option<i64>,
    pub menu_name: String,
    /// `activity` or `template`.
    pub kind: String,
    pub template_id: Option<i64>,
    pub created_at: i64,
}

fn view(row: MenuRow) -> Menu {
    Menu {
        menu_id: row.id.get(),
        menu_parent_id: row.parent_id.map(MenuId::get),
        menu_name: row.name,
        kind: row.kind.as_str().to_string(),
        template_id: row.template_id.map(TemplateId::get),
        created_at: row.created_at,
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HeaderInfo {
    pub name: Option<String>,
    #[serde(rename = "startDate")]
    pub start_date: Option<String>,
    #[serde(rename = "endDate")]
    pub end_date: Option<String>,
    pub link: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AccessUser {
    #[serde(rename = "subscriberID")]
    pub subscriber_id: i32,
    pub name: Option<String>,
    #[serde(rename = "emailID")]
    pub email_id: Option<String>,
    /// Not kept by Signet: always null.
    pub profileimg: Option<String>,
}

/// Who may use a menu entry.
#[derive(Debug, Serialize, ToSchema)]
pub struct FlexiFormResponse {
    pub header: HeaderInfo,
    pub users: Option<Vec<AccessUser>>,
    pub departments: Option<Vec<Department>>,
}

#[utoipa::path(
    post,
    path = "/api/v1/menus/activities",
    operation_id = "createActivity",
    tag = "users",
    security(("bearer" = [])),
    request_body = CreateActivityRequest,
    responses((status = 201, description = "Created", body = Menu))
)]
pub async fn create_activity(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CreateActivityRequest>,
) -> ApiResult<(StatusCode, Json<Menu>)> {
    let name = body.menu_name.as_deref().unwrap_or_default();
    let parent = parent_from_wire(body.menu_parent_id);
    let row = menus::create_activity(&state.services, &auth.caller(), parent, name).await?;
    Ok((StatusCode::CREATED, Json(view(row))))
}

#[utoipa::path(
    post,
    path = "/api/v1/menus/delete",
    operation_id = "deleteActivity",
    tag = "users",
    security(("bearer" = [])),
    request_body = DeleteActivityRequest,
    responses(
        (status = 204, description = "Deleted, with the entries below it and their grants"),
        (status = 404, description = "No such menu entry in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "A template's entry (it goes with its template) (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn delete_activity(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<DeleteActivityRequest>,
) -> ApiResult<StatusCode> {
    menus::delete_activity(&state.services, &auth.caller(), MenuId::from(body.menu_id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    get,
    path = "/api/v1/menus",
    operation_id = "listMenus",
    tag = "users",
    security(("bearer" = [])),
    responses((status = 200, description = "The menu entries the caller may use (all of them for administrators)", body = Vec<Menu>))
)]
pub async fn list(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Vec<Menu>>> {
    Ok(Json(menus::usable(&state.services, &auth.caller()).await?.into_iter().map(view).collect()))
}

#[utoipa::path(
    post,
    path = "/api/v1/menus/access",
    operation_id = "assignAccess",
    tag = "users",
    security(("bearer" = [])),
    request_body = AssignAccessRequest,
    responses((status = 200, description = "Granted (all or nothing)", body = AssignAccessResponse))
)]
pub async fn assign(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<AssignAccessRequest>,
) -> ApiResult<Json<AssignAccessResponse>> {
    let menu_ids: Vec<MenuId> = body.menu_ids.into_iter().map(MenuId::from).collect();
    let user_ids: Vec<PrincipalId> =
        body.subscriber_ids.unwrap_or_default().into_iter().map(PrincipalId::from).collect();
    let department_ids: Vec<DepartmentId> =
        body.department_ids.unwrap_or_default().into_iter().map(DepartmentId::from).collect();
    let granted = menus::assign_access(&state.services, &auth.caller(), &menu_ids, &user_ids, &department_ids).await?;
    Ok(Json(AssignAccessResponse { granted }))
}

#[utoipa::path(
    delete,
    path = "/api/v1/menus/{menuId}/access/users/{userId}",
    operation_id = "revokeUserAccess",
    tag = "users",
    security(("bearer" = [])),
    params(
        ("menuId" = i32, Path, description = "The menu entry", minimum = 1, maximum = 2147483647),
        ("userId" = i32, Path, description = "The user it is granted to", minimum = 1, maximum = 2147483647),
    ),
    responses(
        (status = 400, description = "An id that is not a whole number (`validation_failed`)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 204, description = "Taken back: the user may no longer use the entry, unless it is granted to their department"),
        (status = 404, description = "No such menu entry in this tenant, or it is not granted to this user", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn revoke_user(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath((menu_id, user_id)): ApiPath<(i64, i64)>,
) -> ApiResult<StatusCode> {
    let grantee = Grantee::User(PrincipalId::from(user_id));
    menus::revoke_access(&state.services, &auth.caller(), MenuId::from(menu_id), grantee).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    delete,
    path = "/api/v1/menus/{menuId}/access/departments/{departmentId}",
    operation_id = "revokeDepartmentAccess",
    tag = "users",
    security(("bearer" = [])),
    params(
        ("menuId" = i32, Path, description = "The menu entry", minimum = 1, maximum = 2147483647),
        ("departmentId" = i32, Path, description = "The department it is granted to", minimum = 1, maximum = 2147483647),
    ),
    responses(
        (status = 400, description = "An id that is not a whole number (`validation_failed`)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 204, description = "Taken back: the department's users may no longer use the entry, unless it is granted to them directly"),
        (status = 404, description = "No such menu entry in this tenant, or it is not granted to this department", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn revoke_department(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath((menu_id, department_id)): ApiPath<(i64, i64)>,
) -> ApiResult<StatusCode> {
    let grantee = Grantee::Department(DepartmentId::from(department_id));
    menus::revoke_access(&state.services, &auth.caller(), MenuId::from(menu_id), grantee).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    get,
    path = "/api/v1/menus/{menuId}/access",
    operation_id = "getMenuAccess",
    tag = "users",
    security(("bearer" = [])),
    params(("menuId" = i32, Path, description = "The menu entry", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 200, description = "Who may use the entry: users (directly or through their department) and departments", body = FlexiFormResponse),
        (status = 404, description = "No such menu entry in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn access(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<Json<FlexiFormResponse>> {
    let menus::EntryAccess { entry: menu, users, departments, .. } =
        menus::access_to(&state.services, &auth.caller(), MenuId::from(id)).await?;
    let start = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(menu.created_at) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok());
    let link = match menu.template_id {
        Some(template) => format!("/api/v1/templates/{template}"),
        None => format!("/api/v1/menus/{}/access", menu.id),
    };
    Ok(Json(FlexiFormResponse {
        header: HeaderInfo { name: Some(menu.name), start_date: start, end_date: None, link: Some(link) },
        users: Some(
            users
                .into_iter()
                .filter_map(|u| {
                    Some(AccessUser {
                        subscriber_id: i32::try_from(u.id.get()).ok()?,
                        name: u.name,
                        email_id: u.email,
                        profileimg: None,
                    })
                })
                .collect(),
        ),
        departments: Some(
            departments
                .into_iter()
                .filter_map(|d| {
                    Some(Department { department_id: i32::try_from(d.id.get()).ok()?, department_name: Some(d.name) })
                })
                .collect(),
        ),
    }))
}
