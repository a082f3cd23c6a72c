//! Departments: the first resource, and the pattern every later resource follows.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use serde::{Deserialize, Serialize};
use signet_domain::department::{self, DepartmentName};
use signet_domain::paging::Page;
use signet_domain::{DepartmentId, Error};
use signet_services::people::departments;
use utoipa::{IntoParams, ToSchema};

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiError, ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath, ApiQuery};

/// A department of the tenant.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Department {
    #[serde(rename = "departmentID")]
    pub department_id: i32,
    #[serde(rename = "departmentName")]
    pub department_name: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateDepartmentRequest {
    /// 1 to 100 characters (trimmed), no control characters; unique within the tenant, ignoring case.
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub department_name: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UpdateDepartmentRequest {
    /// As in `CreateDepartmentRequest`.
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub department_name: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeleteDepartmentRequest {
    #[schema(minimum = 1)]
    pub department_id: i32,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BulkDeleteDepartmentRequest {
    /// 1 to 1000 ids, each positive; all are deleted or none.
    #[schema(schema_with = crate::routes::schemas::bulk_department_ids)]
    pub department_ids: Vec<i32>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct DepartmentListQuery {
    /// From 1; default 1.
    #[param(minimum = 1, maximum = 2147483647)]
    pub page_number: Option<i64>,
    /// 1 to 100; default 20.
    #[param(minimum = 1, maximum = 100)]
    pub page_size: Option<i64>,
    /// Case-insensitive substring of the name.
    pub search_text: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DepartmentPage {
    pub items: Vec<Department>,
    pub page_number: i64,
    pub page_size: i64,
    pub total_count: i64,
}

fn to_dto(department: department::Department) -> ApiResult<Department> {
    Ok(Department {
        department_id: i32::try_from(department.id.get()).map_err(Error::internal)?,
        department_name: Some(department.name),
    })
}

/// Ids outside the spec's int32 range cannot exist, so they are simply not found.
fn department_id(raw: i64) -> ApiResult<DepartmentId> {
    if (1..=i64::from(i32::MAX)).contains(&raw) {
        Ok(DepartmentId::from(raw))
    } else {
        Err(ApiError::from(Error::not_found("department")))
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/departments",
    operation_id = "createDepartment",
    tag = "departments",
    security(("bearer" = [])),
    request_body = CreateDepartmentRequest,
    responses(
        (status = 201, description = "Created", body = Department),
        (status = 400, description = "Invalid input", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Name taken", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CreateDepartmentRequest>,
) -> ApiResult<(StatusCode, HeaderMap, Json<Department>)> {
    let name = DepartmentName::parse("departmentName", body.department_name.as_deref())?;
    let created = departments::create(&state.services, &auth.caller(), &name).await?;
    let mut headers = HeaderMap::new();
    if let Ok(location) = HeaderValue::from_str(&format!("/api/v1/departments/{}", created.id)) {
        headers.insert(header::LOCATION, location);
    }
    Ok((StatusCode::CREATED, headers, Json(to_dto(created)?)))
}

#[utoipa::path(
    get,
    path = "/api/v1/departments",
    operation_id = "listDepartments",
    tag = "departments",
    security(("bearer" = [])),
    params(DepartmentListQuery),
    responses(
        (status = 200, description = "One page of departments", body = DepartmentPage),
        (status = 400, description = "Invalid paging", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(query): ApiQuery<DepartmentListQuery>,
) -> ApiResult<Json<DepartmentPage>> {
    let page = Page::parse(query.page_number, query.page_size)?;
    let (items, total_count) =
        departments::list(&state.services, &auth.caller(), page, query.search_text.as_deref()).await?;
    Ok(Json(DepartmentPage {
        items: items.into_iter().map(to_dto).collect::<ApiResult<_>>()?,
        page_number: page.number,
        page_size: page.size,
        total_count,
    }))
}

#[utoipa::path(
    get,
    path = "/api/v1/departments/{departmentId}",
    operation_id = "getDepartment",
    tag = "departments",
    security(("bearer" = [])),
    params(("departmentId" = i32, Path, description = "Department id", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 200, description = "The department", body = Department),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such department in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<Json<Department>> {
    let found = departments::get(&state.services, &auth.caller(), department_id(id)?).await?;
    Ok(Json(to_dto(found)?))
}

#[utoipa::path(
    put,
    path = "/api/v1/departments/{departmentId}",
    tag = "departments",
    security(("bearer" = [])),
    params(("departmentId" = i32, Path, description = "Department id", minimum = 1, maximum = 2147483647)),
    request_body = UpdateDepartmentRequest,
    responses(
        (status = 200, description = "Renamed", body = Department),
        (status = 400, description = "Invalid input", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such department in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Name taken", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn update(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<UpdateDepartmentRequest>,
) -> ApiResult<Json<Department>> {
    let id = department_id(id)?;
    let name = DepartmentName::parse("departmentName", body.department_name.as_deref())?;
    let renamed = departments::rename(&state.services, &auth.caller(), id, &name).await?;
    Ok(Json(to_dto(renamed)?))
}

#[utoipa::path(
    delete,
    path = "/api/v1/departments/{departmentId}",
    operation_id = "deleteDepartment",
    tag = "departments",
    security(("bearer" = [])),
    params(("departmentId" = i32, Path, description = "Department id", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such department in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn delete(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<StatusCode> {
    let id = department_id(id)?;
    departments::delete(&state.services, &auth.caller(), &[id]).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/departments/delete",
    tag = "departments",
    security(("bearer" = [])),
    request_body = DeleteDepartmentRequest,
    responses(
        (status = 204, description = "Deleted"),
        (status = 400, description = "Invalid input", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such department in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn delete_one(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<DeleteDepartmentRequest>,
) -> ApiResult<StatusCode> {
    let id = department_id(i64::from(body.department_id))?;
    departments::delete(&state.services, &auth.caller(), &[id]).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Most ids one bulk call may name; larger batches are split by the client.
pub const MAX_BULK_IDS: usize = 1000;

#[utoipa::path(
    post,
    path = "/api/v1/departments/bulk-delete",
    tag = "departments",
    security(("bearer" = [])),
    request_body = BulkDeleteDepartmentRequest,
    responses(
        (status = 204, description = "All deleted"),
        (status = 400, description = "Invalid input", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "Some ids are not departments of this tenant; nothing was deleted", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn bulk_delete(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<BulkDeleteDepartmentRequest>,
) -> ApiResult<StatusCode> {
    if body.department_ids.len() > MAX_BULK_IDS {
        return Err(ApiError::from(Error::field("departmentIds", format!("at most {MAX_BULK_IDS} ids per call"))));
    }
    let raw: Vec<i64> = body.department_ids.iter().map(|id| i64::from(*id)).collect();
    let ids: Vec<DepartmentId> =
        department::parse_bulk_ids("departmentIds", &raw)?.into_iter().map(DepartmentId::from).collect();
    departments::delete(&state.services, &auth.caller(), &ids).await?;
    Ok(StatusCode::NO_CONTENT)
}
