//! People of the tenant (issue 13): staff users with their profile and role, searched with
//! the spec's filters, and their life cycle (disable, mark inactive, reactivate, delete);
//! set-password e-mails. Who may call what: `crate::access` and docs/access.md.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::paging::Page;
use signet_domain::user::{UserInput, UserKind, UserStatus};
use signet_domain::{Error, PrincipalId};
use signet_services::people::users;
use signet_services::records::{UserFilter, UserRow, UserSort};
use signet_services::workflows::initiate::parse_time;
use utoipa::ToSchema;

use crate::routes::documents::BrowserInfo;
use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiError, ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};

/// A staff user as an administrator creates or changes them. `name` and `EmailID` are
/// required; the rest is optional.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateInternalUserRequest {
    /// 1 to 150 characters, no control characters.
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 150,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub name: Option<String>,
    /// The sign-in address, unique across Signet.
    #[serde(rename = "EmailID")]
    #[schema(required = true, nullable = false, format = Email, max_length = 254)]
    pub email_id: Option<String>,
    /// Another address of the user (not the sign-in one).
    #[serde(rename = "AlternativeEmailID")]
    #[schema(format = Email, max_length = 254)]
    pub alternative_email_id: Option<String>,
    /// 7 to 15 digits, optionally with a leading `+` (spaces and hyphens allowed between digits).
    #[serde(rename = "contactNumber")]
    #[schema(max_length = 32, pattern = "^$|^\\+?[0-9](?:[ -]?[0-9]){6,14}$")]
    pub contact_number: Option<String>,
    #[schema(max_length = 150, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub organization: Option<String>,
    /// A department of the tenant.
    #[serde(rename = "deptId")]
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub dept_id: Option<i64>,
    #[serde(rename = "geoProfileId")]
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub geo_profile_id: Option<i64>,
    #[schema(max_length = 150, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub designation: Option<String>,
    /// How the user signs: `electronic` (or 4), `aadhaar_esign` (3), `dsc_token` (2); default electronic.
    #[serde(rename = "signatureType")]
    #[schema(pattern = "^(|electronic|esignature|4|aadhaar_esign|aadhaar|esign|3|dsc|dsc_token|digital_signature|2)$")]
    pub signature_type: Option<String>,
    /// A certificate profile reference, kept as given.
    #[serde(rename = "profileId")]
    #[schema(max_length = 150, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub profile_id: Option<String>,
    /// eSignature options, combined: 1 draw, 2 type, 4 upload, 8 pad.
    #[serde(rename = "signatureOption")]
    #[schema(format = Int32, minimum = 0, maximum = 15)]
    pub signature_option: Option<i64>,
    /// `password` (default), `email_otp` or `sso`.
    #[serde(rename = "loginAuthentication")]
    #[schema(pattern = "^(|password|email_otp|otp|sso)$")]
    pub login_authentication: Option<String>,
    /// Aadhaar number: 12 digits with a valid check digit. Kept as its last four digits only.
    #[serde(rename = "nationalId")]
    #[schema(max_length = 14, pattern = "^$|^[2-9][0-9]{3}[ -]?[0-9]{4}[ -]?[0-9]{4}$")]
    pub national_id: Option<String>,
    /// IANA time-zone name, e.g. `Asia/Kolkata`.
    #[serde(rename = "timeZoneId")]
    #[schema(max_length = 64, pattern = "^$|^[A-Za-z][A-Za-z0-9_+-]{0,31}(/[A-Za-z][A-Za-z0-9_+-]{0,31})*$")]
    pub time_zone_id: Option<String>,
    /// 1 administrator, 2 sender (default), 3 signer, 4 auditor, or a tenant role's id (above
    /// 100, see `GET /api/v1/roles`); only administrators give the administrator or a tenant role.
    #[serde(rename = "roleId")]
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub role_id: Option<i64>,
    /// Date of birth, between 1900 and today.
    #[schema(format = DateTime)]
    pub dob: Option<String>,
    /// PAN: five letters, four digits, a letter (e.g. `ABCPE1234F`).
    #[serde(rename = "PanNumber")]
    #[schema(max_length = 10, pattern = "^$|^[A-Za-z]{3}[ABCFGHLJPTabcfghljpt][A-Za-z][0-9]{4}[A-Za-z]$")]
    pub pan_number: Option<String>,
    #[serde(rename = "browserInfo")]
    pub browser_info: Option<BrowserInfo>,
}

impl CreateInternalUserRequest {
    fn input(&self) -> ApiResult<UserInput> {
        let dob = self.dob.as_deref().map(|d| parse_time("dob", d)).transpose()?;
        Ok(UserInput {
            name: self.name.clone(),
            email: self.email_id.clone(),
            alternative_email: self.alternative_email_id.clone(),
            contact_number: self.contact_number.clone(),
            organization: self.organization.clone(),
            department_id: self.dept_id,
            geo_profile_id: self.geo_profile_id,
            designation: self.designation.clone(),
            signature_type: self.signature_type.clone(),
            profile_id: self.profile_id.clone(),
            signature_option: self.signature_option,
            login_authentication: self.login_authentication.clone(),
            national_id: self.national_id.clone(),
            time_zone: self.time_zone_id.clone(),
            role_id: self.role_id,
            dob,
            pan: self.pan_number.clone(),
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateInternalUserResponse {
    /// The new user's id (`subscriberId` in workflows).
    pub subscriber_id: i32,
    /// The id of the audit event that recorded the creation's operation (the user id here).
    pub op_id: i32,
    pub is_success: bool,
    /// What happened, e.g. whether a set-password invitation was e-mailed.
    pub message: Option<String>,
    pub email: Option<String>,
    pub name: Option<String>,
}

/// A user of the tenant.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    /// The user's id (`subscriberId`).
    pub subscriber_id: i64,
    pub name: Option<String>,
    #[serde(rename = "emailID")]
    pub email_id: Option<String>,
    #[serde(rename = "alternativeEmailID")]
    pub alternative_email_id: Option<String>,
    pub contact_number: Option<String>,
    pub organization: Option<String>,
    pub dept_id: Option<i64>,
    pub geo_profile_id: Option<i64>,
    pub designation: Option<String>,
    pub signature_type: Option<String>,
    pub profile_id: Option<String>,
    pub signature_option: Option<i64>,
    /// `password`, `email_otp` or `sso`.
    pub login_authentication: String,
    /// The national id masked: `XXXXXXXX1234`.
    pub national_id: Option<String>,
    pub pan_number: Option<String>,
    pub time_zone_id: Option<String>,
    /// Milliseconds since the epoch.
    pub dob: Option<i64>,
    /// 1 to 4 for a built-in role, above 100 for a tenant's own role.
    pub role_id: i32,
    /// `administrator`, `sender`, `signer`, `auditor`, or the name of the tenant's own role.
    pub role: String,
    /// `internal` or `external`.
    pub user_type: String,
    /// `active`, `inactive`, `disabled`, `pending`, `rejected` or `deleted`.
    pub status: String,
    pub status_reason: Option<String>,
    /// Who set the status (e.g. who approved or rejected a registration).
    pub status_by: Option<String>,
    /// Whether the user has set a password.
    pub has_password: bool,
    pub created_by: Option<String>,
    pub created_at: i64,
    pub updated_at: Option<i64>,
}

fn view(row: UserRow) -> User {
    User {
        subscriber_id: row.id.get(),
        name: row.name,
        email_id: row.email,
        alternative_email_id: row.alternative_email,
        contact_number: row.contact_number,
        organization: row.organization,
        dept_id: row.department_id,
        geo_profile_id: row.geo_profile_id,
        designation: row.designation,
        signature_type: row.signature_type,
        profile_id: row.profile_ref,
        signature_option: row.signature_option,
        login_authentication: row.login_mode.as_str().to_string(),
        national_id: row.national_id_last4.map(|last4| format!("XXXXXXXX{last4}")),
        pan_number: row.pan_number,
        time_zone_id: row.time_zone,
        dob: row.dob,
        role_id: row
            .custom_role_id
            .and_then(|id| i32::try_from(signet_domain::access::RoleRef::Custom(id).wire_id()).ok())
            .unwrap_or_else(|| row.role.id()),
        role: row.custom_role_name.clone().unwrap_or_else(|| row.role.as_str().to_string()),
        user_type: row.user_type.as_str().to_string(),
        status: row.status.as_str().to_string(),
        status_reason: row.status_reason,
        status_by: row.status_by,
        has_password: row.has_password,
        created_by: row.created_by,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserPage {
    pub items: Vec<User>,
    pub page_number: i64,
    pub page_size: i64,
    pub total_count: i64,
}

/// The spec's staff-user search.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GetInternalUsersRequest {
    /// Case-insensitive substring of the name or e-mail address.
    #[schema(max_length = 200)]
    pub search_text: Option<String>,
    /// Only active users (`true`) or only users who are not (`false`).
    pub is_active: Option<bool>,
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub page_number: Option<i64>,
    /// 1 to 100; default 20.
    #[schema(format = Int32, minimum = 1, maximum = 100)]
    pub page_size: Option<i64>,
    #[schema(schema_with = sort_column_schema)]
    pub sort_by: Option<String>,
    #[schema(schema_with = sort_direction_schema)]
    pub sort_direction: Option<String>,
    #[schema(schema_with = status_schema)]
    pub status: Option<String>,
    /// Same as `status` (either may be used).
    #[schema(schema_with = status_schema)]
    pub status_of_user: Option<String>,
}

/// Words a user search is sorted and filtered by: the server takes them in any case (and
/// trims them), so the schema says any case.
fn words_schema(words: &[&str], description: &str) -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    let table: Vec<(&str, &str)> = std::iter::once("").chain(words.iter().copied()).map(|w| (w, w)).collect();
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .pattern(Some(signet_domain::spelling::pattern_of(&table)))
        .description(Some(description))
        .into()
}

fn sort_column_schema() -> utoipa::openapi::schema::Schema {
    let words = ["id", "name", "email", "emailId", "createdAt", "createdDate", "status"];
    words_schema(&words, "`id` (default), `name`, `email`, `createdAt` or `status`, in any case.")
}

fn sort_direction_schema() -> utoipa::openapi::schema::Schema {
    words_schema(&["asc", "desc"], "`asc` (default) or `desc`, in any case.")
}

fn status_schema() -> utoipa::openapi::schema::Schema {
    let words = ["active", "inactive", "disabled", "pending", "rejected", "deleted"];
    words_schema(&words, "A status (`active`, `inactive`, `disabled`, `pending`, `rejected`, `deleted`), in any case.")
}

/// The spec's search over every user (staff and external).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GetUsersRequest {
    /// Substrings (case-insensitive) of these fields.
    #[schema(max_length = 200)]
    pub name: Option<String>,
    #[schema(max_length = 254)]
    pub email: Option<String>,
    #[schema(max_length = 254)]
    pub alternative_email: Option<String>,
    #[schema(max_length = 32)]
    pub contact_number: Option<String>,
    #[schema(max_length = 150)]
    pub organization: Option<String>,
    /// The whole Aadhaar number (exact match; the number itself is not stored).
    #[schema(max_length = 14, pattern = "^$|^[2-9][0-9]{3}[ -]?[0-9]{4}[ -]?[0-9]{4}$")]
    pub national_id: Option<String>,
    /// A status, as in `GetInternalUsersRequest`.
    #[schema(schema_with = status_schema)]
    pub status: Option<String>,
    /// Substring of who set the status, e.g. who rejected a registration (`user:<id>`).
    #[schema(max_length = 200)]
    pub rejected_by: Option<String>,
    /// Substring of the reason recorded with the status.
    #[schema(max_length = 500)]
    pub remarks: Option<String>,
    /// Substring of who created the user (`user:<id>`, `client:<id>`).
    #[schema(max_length = 200)]
    pub created_by: Option<String>,
    /// As `sortBy` of `GetInternalUsersRequest`.
    #[schema(schema_with = sort_column_schema)]
    pub sort_column: Option<String>,
    /// As `sortDirection` of `GetInternalUsersRequest`.
    #[schema(schema_with = sort_direction_schema)]
    pub sort_order: Option<String>,
    #[schema(max_length = 200)]
    pub search_text: Option<String>,
    /// Created at or after this time.
    #[schema(format = DateTime)]
    pub created_date: Option<String>,
    /// Changed at or after this time.
    #[schema(format = DateTime)]
    pub updated_on: Option<String>,
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub page_number: Option<i64>,
    #[schema(format = Int32, minimum = 1, maximum = 100)]
    pub page_size: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DisableUserRequest {
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub user_id: i64,
    /// Disable even with workflows in progress: those become inactive (cancelled).
    pub force_disable_with_workflow: Option<bool>,
    pub browser_info: Option<BrowserInfo>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DisableUserResponse {
    /// Workflows that were in progress and are now inactive.
    pub cancelled_workflow_ids: Vec<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MarkUserInactiveRequest {
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub user_id: i64,
    /// Kept with the status, at most 500 characters.
    #[schema(max_length = 500, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub reason: Option<String>,
    /// Accepted for compatibility (absent: false): marking a user inactive always ends their
    /// sessions at once.
    #[serde(default)]
    pub invalidate_tokens: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeleteUserRequest {
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub user_id: i64,
    pub browser_info: Option<BrowserInfo>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AdminPasswordSettingsEmailRequest {
    #[serde(rename = "emailID")]
    #[schema(min_length = 1, max_length = 254, format = Email)]
    pub email_id: String,
}

/// Refuses filter texts longer than the document says (`(field, value, most characters)`).
fn within_bounds(fields: &[(&str, &Option<String>, usize)]) -> ApiResult<()> {
    let mut errors = signet_domain::FieldErrors::new();
    for (field, value, max) in fields {
        if value.as_deref().is_some_and(|v| v.chars().count() > *max) {
            errors.insert(field.to_string(), vec![format!("must be at most {max} characters")]);
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(ApiError::from(Error::Validation(errors))) }
}

/// A user id in a body: the schema's bounds are a validation rule there.
fn body_user_id(raw: i64) -> ApiResult<PrincipalId> {
    if (1..=i64::from(i32::MAX)).contains(&raw) {
        Ok(PrincipalId::from(raw))
    } else {
        Err(ApiError::from(Error::field("userId", "must be 1 to 2147483647")))
    }
}

/// A user id in the path: ids outside the spec's range cannot exist, so they are not found.
fn user_id(raw: i64) -> ApiResult<PrincipalId> {
    if (1..=i64::from(i32::MAX)).contains(&raw) {
        Ok(PrincipalId::from(raw))
    } else {
        Err(ApiError::from(Error::not_found("user")))
    }
}

fn statuses(field: &str, value: Option<&str>) -> ApiResult<Vec<UserStatus>> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(Vec::new()),
        Some(text) => UserStatus::parse(&text.to_ascii_lowercase()).map(|s| vec![s]).ok_or_else(|| {
            ApiError::from(Error::field(field, "must be active, inactive, disabled, pending, rejected or deleted"))
        }),
    }
}

fn sort(
    field: &str,
    column: Option<&str>,
    direction_field: &str,
    direction: Option<&str>,
) -> ApiResult<(UserSort, bool)> {
    let key = match column.map(|c| c.trim().to_ascii_lowercase()).as_deref() {
        None | Some("") | Some("id") => UserSort::Id,
        Some("name") => UserSort::Name,
        Some("email") | Some("emailid") => UserSort::Email,
        Some("createdat") | Some("createddate") => UserSort::CreatedAt,
        Some("status") => UserSort::Status,
        Some(_) => return Err(ApiError::from(Error::field(field, "must be id, name, email, createdAt or status"))),
    };
    let descending = match direction.map(|d| d.trim().to_ascii_lowercase()).as_deref() {
        None | Some("") | Some("asc") => false,
        Some("desc") => true,
        Some(_) => return Err(ApiError::from(Error::field(direction_field, "must be asc or desc"))),
    };
    Ok((key, descending))
}

fn page_of(rows: Vec<UserRow>, total: i64, page: Page) -> UserPage {
    UserPage {
        items: rows.into_iter().map(view).collect(),
        page_number: page.number,
        page_size: page.size,
        total_count: total,
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/users",
    operation_id = "createInternalUser",
    tag = "users",
    security(("bearer" = [])),
    request_body = CreateInternalUserRequest,
    responses(
        (status = 201, description = "Created; a set-password invitation is e-mailed when e-mail is configured", body = CreateInternalUserResponse),
        (status = 409, description = "A user with this e-mail address exists (`conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CreateInternalUserRequest>,
) -> ApiResult<(StatusCode, Json<CreateInternalUserResponse>)> {
    let created = users::create_internal(&state.services, &auth.caller(), &body.input()?).await?;
    let id = i32::try_from(created.user.id.get()).map_err(Error::internal)?;
    let message = if created.invited {
        "created; a set-password invitation was e-mailed"
    } else {
        "created; no invitation was e-mailed (e-mail is not configured, or the user does not sign in with a password)"
    };
    Ok((
        StatusCode::CREATED,
        Json(CreateInternalUserResponse {
            subscriber_id: id,
            op_id: id,
            is_success: true,
            message: Some(message.into()),
            email: created.user.email,
            name: created.user.name,
        }),
    ))
}

#[utoipa::path(
    get,
    path = "/api/v1/users/me",
    operation_id = "getCurrentUser",
    tag = "users",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The signed-in user", body = User),
        (status = 404, description = "The caller is an API client, not a user", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn me(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<User>> {
    Ok(Json(view(users::me(&state.services, &auth.caller()).await?)))
}

#[utoipa::path(
    get,
    path = "/api/v1/users/{userId}",
    operation_id = "getUser",
    tag = "users",
    security(("bearer" = [])),
    params(("userId" = i32, Path, description = "The user's id", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 200, description = "The user", body = User),
        (status = 404, description = "No such user in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<Json<User>> {
    Ok(Json(view(users::get(&state.services, &auth.caller(), PrincipalId::from(id)).await?)))
}

#[utoipa::path(
    put,
    path = "/api/v1/users/{userId}",
    operation_id = "updateUser",
    tag = "users",
    security(("bearer" = [])),
    params(("userId" = i32, Path, description = "The user's id", minimum = 1, maximum = 2147483647)),
    request_body = CreateInternalUserRequest,
    responses(
        (status = 200, description = "Changed; a changed role or sign-in mode ends the user's sessions", body = User),
        (status = 404, description = "No such user in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "E-mail taken, a deleted user, or your own role (`conflict`, `state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn update(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<CreateInternalUserRequest>,
) -> ApiResult<Json<User>> {
    Ok(Json(view(users::update(&state.services, &auth.caller(), user_id(id)?, &body.input()?).await?)))
}

#[utoipa::path(
    post,
    path = "/api/v1/users/internal-search",
    operation_id = "getInternalUsers",
    tag = "users",
    security(("bearer" = [])),
    request_body = GetInternalUsersRequest,
    responses((status = 200, description = "One page of staff users", body = UserPage))
)]
pub async fn search_internal(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<GetInternalUsersRequest>,
) -> ApiResult<Json<UserPage>> {
    within_bounds(&[("searchText", &body.search_text, 200)])?;
    let page = Page::parse(body.page_number, body.page_size)?;
    let (sort, descending) = sort("sortBy", body.sort_by.as_deref(), "sortDirection", body.sort_direction.as_deref())?;
    let mut statuses = statuses("status", body.status.as_deref())?;
    statuses.extend(statuses_of(&body)?);
    match body.is_active {
        Some(true) => statuses.push(UserStatus::Active),
        Some(false) => statuses.extend(UserStatus::ALL.iter().copied().filter(|s| *s != UserStatus::Active)),
        None => {}
    }
    let filter = UserFilter {
        kind: Some(UserKind::Internal),
        statuses,
        search: body.search_text,
        sort,
        descending,
        ..UserFilter::default()
    };
    let (rows, total) = users::search(&state.services, &auth.caller(), filter, None, page).await?;
    Ok(Json(page_of(rows, total, page)))
}

fn statuses_of(body: &GetInternalUsersRequest) -> ApiResult<Vec<UserStatus>> {
    statuses("statusOfUser", body.status_of_user.as_deref())
}

#[utoipa::path(
    post,
    path = "/api/v1/users/search",
    operation_id = "getUsers",
    tag = "users",
    security(("bearer" = [])),
    request_body = GetUsersRequest,
    responses((status = 200, description = "One page of users, staff and external", body = UserPage))
)]
pub async fn search(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<GetUsersRequest>,
) -> ApiResult<Json<UserPage>> {
    within_bounds(&[
        ("name", &body.name, 200),
        ("email", &body.email, 254),
        ("alternativeEmail", &body.alternative_email, 254),
        ("contactNumber", &body.contact_number, 32),
        ("organization", &body.organization, 150),
        ("nationalId", &body.national_id, 14),
        ("rejectedBy", &body.rejected_by, 200),
        ("remarks", &body.remarks, 500),
        ("createdBy", &body.created_by, 200),
        ("searchText", &body.search_text, 200),
    ])?;
    let page = Page::parse(body.page_number, body.page_size)?;
    let (sort, descending) = sort("sortColumn", body.sort_column.as_deref(), "sortOrder", body.sort_order.as_deref())?;
    let instant = |field: &str, value: &Option<String>| -> ApiResult<Option<i64>> {
        Ok(value.as_deref().map(|v| parse_time(field, v)).transpose()?)
    };
    let filter = UserFilter {
        statuses: statuses("status", body.status.as_deref())?,
        search: body.search_text,
        name: body.name,
        email: body.email,
        alternative_email: body.alternative_email,
        contact_number: body.contact_number,
        organization: body.organization,
        status_reason: body.remarks,
        created_by: body.created_by,
        status_by: body.rejected_by,
        created_from: instant("createdDate", &body.created_date)?,
        updated_from: instant("updatedOn", &body.updated_on)?,
        sort,
        descending,
        ..UserFilter::default()
    };
    let (rows, total) =
        users::search(&state.services, &auth.caller(), filter, body.national_id.as_deref(), page).await?;
    Ok(Json(page_of(rows, total, page)))
}

#[utoipa::path(
    post,
    path = "/api/v1/users/disable",
    operation_id = "disableUser",
    tag = "users",
    security(("bearer" = [])),
    request_body = DisableUserRequest,
    responses(
        (status = 200, description = "Disabled: the user cannot sign in and their sessions ended", body = DisableUserResponse),
        (status = 404, description = "No such user in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Workflows in progress (without forceDisableWithWorkflow), your own account, or not possible from the user's status (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn disable(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<DisableUserRequest>,
) -> ApiResult<Json<DisableUserResponse>> {
    let force = body.force_disable_with_workflow.unwrap_or(false);
    let cancelled = users::disable(&state.services, &auth.caller(), body_user_id(body.user_id)?, force).await?;
    Ok(Json(DisableUserResponse { cancelled_workflow_ids: cancelled.into_iter().map(|w| w.get()).collect() }))
}

#[utoipa::path(
    post,
    path = "/api/v1/users/inactive",
    operation_id = "markUserInactive",
    tag = "users",
    security(("bearer" = [])),
    request_body = MarkUserInactiveRequest,
    responses(
        (status = 204, description = "Inactive: the user cannot sign in or renew a session"),
        (status = 404, description = "No such user in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Your own account, or not possible from the user's status (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn mark_inactive(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<MarkUserInactiveRequest>,
) -> ApiResult<StatusCode> {
    if let Some(reason) = &body.reason
        && (reason.chars().count() > 500 || reason.chars().any(char::is_control))
    {
        return Err(ApiError::from(Error::field(
            "reason",
            "must be at most 500 characters without control characters",
        )));
    }
    let reason = body.reason.as_deref().map(str::trim).filter(|r| !r.is_empty());
    users::mark_inactive(&state.services, &auth.caller(), body_user_id(body.user_id)?, reason, body.invalidate_tokens)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/users/{userId}/reactivate",
    operation_id = "reactivateUser",
    tag = "users",
    security(("bearer" = [])),
    params(("userId" = i32, Path, description = "The user's id", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 204, description = "Active again"),
        (status = 404, description = "No such user in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Not inactive or disabled (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn reactivate(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<StatusCode> {
    users::reactivate(&state.services, &auth.caller(), user_id(id)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/users/delete",
    operation_id = "deleteUser",
    tag = "users",
    security(("bearer" = [])),
    request_body = DeleteUserRequest,
    responses(
        (status = 204, description = "Deleted: personal data erased, the signed history kept"),
        (status = 404, description = "No such user in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Workflows in progress, or your own account (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn delete(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<DeleteUserRequest>,
) -> ApiResult<StatusCode> {
    users::delete(&state.services, &auth.caller(), body_user_id(body.user_id)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/users/password-email",
    operation_id = "sendPasswordSettingsEmail",
    tag = "users",
    security(("bearer" = [])),
    request_body = AdminPasswordSettingsEmailRequest,
    responses(
        (status = 202, description = "A single-use set-password link (valid 72 hours) is e-mailed to the user"),
        (status = 400, description = "`emailID` is not an e-mail address (`validation_failed`)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such user in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The user cannot set a password in their status, or e-mail is not configured (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn password_email(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<AdminPasswordSettingsEmailRequest>,
) -> ApiResult<StatusCode> {
    users::send_password_email(&state.services, &auth.caller(), body.email_id.trim()).await?;
    Ok(StatusCode::ACCEPTED)
}

/// A person registering with a tenant as an external user (a customer or counterparty).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RegisterExternalUserRequest {
    /// 1 to 150 characters, no control characters.
    #[schema(
        min_length = 1,
        max_length = 150,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub name: String,
    #[serde(rename = "emailID")]
    #[schema(max_length = 254, format = Email)]
    pub email_id: String,
    #[schema(max_length = 32, pattern = "^$|^\\+?[0-9](?:[ -]?[0-9]){6,14}$")]
    pub contact_number: Option<String>,
    #[schema(max_length = 150, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub organization: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RegistrationResponse {
    pub message: String,
}

#[utoipa::path(
    post,
    path = "/api/v1/tenants/{tenantId}/register",
    operation_id = "registerExternalUser",
    tag = "users",
    params(("tenantId" = i64, Path, description = "The organisation registered with", minimum = 1)),
    request_body = RegisterExternalUserRequest,
    responses((status = 202, description = "The same answer whether or not the address or the organisation is known: a new registration waits for approval", body = RegistrationResponse))
)]
pub async fn register(
    State(state): State<AppState>,
    signet_http::extract::ClientIp(ip): signet_http::extract::ClientIp,
    ApiPath(tenant_id): ApiPath<i64>,
    ApiJson(body): ApiJson<RegisterExternalUserRequest>,
) -> ApiResult<(StatusCode, Json<RegistrationResponse>)> {
    state.ip_limiter.check(ip)?;
    let registration = users::Registration {
        name: &body.name,
        email: &body.email_id,
        contact_number: body.contact_number.as_deref(),
        organization: body.organization.as_deref(),
    };
    if tenant_id < 1 {
        return Err(ApiError::from(Error::field("tenantId", "must be at least 1")));
    }
    users::register_external(&state.services, signet_domain::TenantId::from(tenant_id), &registration).await?;
    let message =
        "Thank you. Once the organisation approves your registration, you get an e-mail to set your password.";
    Ok((StatusCode::ACCEPTED, Json(RegistrationResponse { message: message.into() })))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApproveExternalUserRequest {
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub external_user_id: i64,
    /// Kept with the decision, at most 500 characters.
    #[schema(max_length = 500, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub reason: Option<String>,
    pub browser_info: Option<BrowserInfo>,
}

async fn decide(
    state: &AppState,
    auth: &Auth,
    body: &ApproveExternalUserRequest,
    approve: bool,
) -> ApiResult<Json<User>> {
    let id = if (1..=i64::from(i32::MAX)).contains(&body.external_user_id) {
        PrincipalId::from(body.external_user_id)
    } else {
        return Err(ApiError::from(Error::field("externalUserId", "must be 1 to 2147483647")));
    };
    let reason = body.reason.as_deref().filter(|r| !r.trim().is_empty());
    Ok(Json(view(users::decide_external(&state.services, &auth.caller(), id, approve, reason).await?)))
}

#[utoipa::path(
    post,
    path = "/api/v1/users/external/approve",
    operation_id = "approveExternalUser",
    tag = "users",
    security(("bearer" = [])),
    request_body = ApproveExternalUserRequest,
    responses(
        (status = 200, description = "Approved: active, and a set-password link is e-mailed", body = User),
        (status = 404, description = "No such external user in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Already decided (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn approve_external(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<ApproveExternalUserRequest>,
) -> ApiResult<Json<User>> {
    decide(&state, &auth, &body, true).await
}

#[utoipa::path(
    post,
    path = "/api/v1/users/external/reject",
    operation_id = "rejectExternalUser",
    tag = "users",
    security(("bearer" = [])),
    request_body = ApproveExternalUserRequest,
    responses(
        (status = 200, description = "Rejected, with the reason kept (and e-mailed)", body = User),
        (status = 404, description = "No such external user in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Already decided (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn reject_external(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<ApproveExternalUserRequest>,
) -> ApiResult<Json<User>> {
    decide(&state, &auth, &body, false).await
}

/// A single sign-on provider: its short name, what its button says, the address that starts a
/// sign-in through it, and its state (`enabled` or `disabled`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExternalLoginProvider {
    pub name: Option<String>,
    #[serde(rename = "displayName")]
    pub display_name: Option<String>,
    pub url: Option<String>,
    pub state: Option<String>,
}

/// A provider as `ExternalLoginProvider`; its start address hints `email` to the provider
/// when one is given.
pub fn provider_view(
    state: &AppState,
    (id, name, display_name, disabled): (signet_domain::SsoProviderId, &str, &str, bool),
    email: Option<&str>,
) -> ExternalLoginProvider {
    let start = signet_services::people::sso::start_url(&state.services, id);
    let url = match email {
        Some(email) => format!("{start}?{}", serde_urlencoded::to_string([("login_hint", email)]).unwrap_or_default()),
        None => start,
    };
    ExternalLoginProvider {
        name: Some(name.to_string()),
        display_name: Some(display_name.to_string()),
        url: Some(url),
        state: Some(if disabled { "disabled" } else { "enabled" }.to_string()),
    }
}

/// How the signed-in user signs in: their local login and any linked external ones.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManageInfoResponse {
    /// `password` or `email_otp` (null when the user signs in only through SSO).
    pub local_login_provider: Option<String>,
    pub email: Option<String>,
    /// The single sign-on providers the account is linked to.
    pub external_login_providers: Option<Vec<ExternalLoginProvider>>,
    pub has_password: bool,
}

#[utoipa::path(
    get,
    path = "/api/v1/users/me/logins",
    operation_id = "getManageInfo",
    tag = "users",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The signed-in user's logins", body = ManageInfoResponse),
        (status = 404, description = "The caller is an API client, not a user", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn manage_info(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<ManageInfoResponse>> {
    let user = users::me(&state.services, &auth.caller()).await?;
    let local = match user.login_mode {
        signet_domain::user::LoginMode::Sso => None,
        mode => Some(mode.as_str().to_string()),
    };
    let linked = signet_services::people::sso::identities(&state.services, &auth.caller()).await?;
    let external = linked
        .iter()
        .map(|link| provider_view(&state, (link.provider_id, &link.name, &link.display_name, link.disabled), None))
        .collect();
    Ok(Json(ManageInfoResponse {
        local_login_provider: local,
        email: user.email,
        external_login_providers: Some(external),
        has_password: user.has_password,
    }))
}

/// A new second-factor secret, shown once: scan `otpauthUri` (or type `secret`) into an
/// authenticator app, then confirm with a code.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TotpEnrolment {
    /// Base32, for typing into the app.
    pub secret: String,
    pub otpauth_uri: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TotpCodeRequest {
    /// The six digits the authenticator app shows now.
    #[schema(pattern = "^[0-9]{6}$")]
    pub code: String,
}

#[utoipa::path(
    post,
    path = "/api/v1/users/me/totp",
    operation_id = "startTotpEnrolment",
    tag = "users",
    security(("bearer" = [])),
    responses(
        (status = 201, description = "A new secret (not required at sign-in until confirmed)", body = TotpEnrolment),
        (status = 404, description = "The caller is an API client, not a user", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "A second factor is already set up (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn totp_enrol(State(state): State<AppState>, auth: Auth) -> ApiResult<(StatusCode, Json<TotpEnrolment>)> {
    let enrolment = signet_services::people::totp::enrol(&state.services, &auth.caller()).await?;
    Ok((StatusCode::CREATED, Json(TotpEnrolment { secret: enrolment.secret, otpauth_uri: enrolment.uri })))
}

#[utoipa::path(
    post,
    path = "/api/v1/users/me/totp/confirm",
    operation_id = "confirmTotp",
    tag = "users",
    security(("bearer" = [])),
    request_body = TotpCodeRequest,
    responses(
        (status = 204, description = "Confirmed: signing in with a password now also needs a code (`totp`)"),
        (status = 404, description = "The caller is an API client, not a user", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "No enrolment started, or already confirmed (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn totp_confirm(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<TotpCodeRequest>,
) -> ApiResult<StatusCode> {
    signet_services::people::totp::confirm(&state.services, &auth.caller(), &body.code).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/users/me/totp/disable",
    operation_id = "disableTotp",
    tag = "users",
    security(("bearer" = [])),
    request_body = TotpCodeRequest,
    responses(
        (status = 204, description = "The second factor is off"),
        (status = 404, description = "The caller is an API client, not a user", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "No second factor is set up (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn totp_disable(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<TotpCodeRequest>,
) -> ApiResult<StatusCode> {
    signet_services::people::totp::disable(&state.services, &auth.caller(), &body.code).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    post,
    path = "/api/v1/users/{userId}/totp/reset",
    operation_id = "resetTotp",
    tag = "users",
    security(("bearer" = [])),
    params(("userId" = i32, Path, description = "The user's id", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 204, description = "The user's second factor is removed (they enrol again)"),
        (status = 404, description = "No such user in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn totp_reset(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<StatusCode> {
    signet_services::people::totp::reset(&state.services, &auth.caller(), user_id(id)?).await?;
    Ok(StatusCode::NO_CONTENT)
}
