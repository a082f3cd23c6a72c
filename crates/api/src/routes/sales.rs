//! Customer referrals and CRM leads (docs/api.md, "Referrals and CRM leads"): the spec's
//! `CustomerReferralCreateRequest`, `CrmLeadUpsertRequest` and `CrmLeadMarkPushedRequest`,
//! the listings, and the tenant's CRM endpoint that the lead outbox pushes to.
//!
//! The bounds and patterns below are the domain's (`signet_domain::sales`); the server test
//! `leads.rs` compares the document's values with the domain's constants.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::paging::Page;
use signet_domain::sales::{BILLING_CYCLES, LeadInput, PushInput, ReferralInput, SUBSCRIPTION_MODES};
use signet_domain::{Error, LeadId, ReferralId};
use signet_services::billing::sales as service;
use signet_services::records::{LeadFilter, LeadRow, ReferralRow};
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::{IntoParams, ToSchema};

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath, ApiQuery};

/// The spec's `CustomerReferralCreateRequest`: a customer (the referrer) refers someone.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CustomerReferralCreateRequest {
    #[schema(required = true, nullable = false, min_length = 1, max_length = 150)]
    pub referrer_name: Option<String>,
    /// 7 to 15 digits, an optional leading `+`, single spaces or hyphens between digits.
    #[schema(required = true, nullable = false, max_length = 20, pattern = r"^\+?[0-9](?:[ -]?[0-9]){6,14}$")]
    pub referrer_mobile: Option<String>,
    /// Receives the confirmation of the referral.
    #[schema(required = true, nullable = false, min_length = 1, max_length = 255, format = Email)]
    pub referrer_email: Option<String>,
    #[schema(required = true, nullable = false, min_length = 1, max_length = 150)]
    pub referral_name: Option<String>,
    /// Unique among the tenant's referrals (digits, with the `+` if sent).
    #[schema(required = true, nullable = false, max_length = 20, pattern = r"^\+?[0-9](?:[ -]?[0-9]){6,14}$")]
    pub referral_mobile: Option<String>,
    /// Unique among the tenant's referrals, ignoring case.
    #[schema(required = true, nullable = false, min_length = 1, max_length = 255, format = Email)]
    pub referral_email: Option<String>,
}

/// A recorded referral.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerReferral {
    pub referral_id: i64,
    pub referrer_name: String,
    /// As normalised: digits, with the `+` if sent.
    pub referrer_mobile: String,
    pub referrer_email: String,
    pub referral_name: String,
    pub referral_mobile: String,
    pub referral_email: String,
    /// Who recorded it: `user:ID` or `client:ID`.
    pub created_by: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

fn to_referral(row: ReferralRow) -> CustomerReferral {
    CustomerReferral {
        referral_id: row.id.get(),
        referrer_name: row.referrer_name,
        referrer_mobile: row.referrer_mobile,
        referrer_email: row.referrer_email,
        referral_name: row.referral_name,
        referral_mobile: row.referral_mobile,
        referral_email: row.referral_email,
        created_by: row.created_by,
        created_at: row.created_at,
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/referrals",
    operation_id = "createReferral",
    tag = "sales",
    security(("bearer" = [])),
    request_body = CustomerReferralCreateRequest,
    responses(
        (status = 201, description = "Recorded; the referrer is sent a confirmation", body = CustomerReferral),
        (status = 400, description = "Invalid fields, every one named", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The person was already referred in this tenant (same e-mail ignoring case, or same mobile); the detail names the referral", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn create_referral(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CustomerReferralCreateRequest>,
) -> ApiResult<(StatusCode, Json<CustomerReferral>)> {
    let input = ReferralInput {
        referrer_name: body.referrer_name,
        referrer_mobile: body.referrer_mobile,
        referrer_email: body.referrer_email,
        referral_name: body.referral_name,
        referral_mobile: body.referral_mobile,
        referral_email: body.referral_email,
    };
    let row = service::create_referral(&state.services, &auth.caller(), &input).await?;
    Ok((StatusCode::CREATED, Json(to_referral(row))))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ReferralListQuery {
    /// Case-insensitive substring of a name, address or mobile of either person.
    pub search_text: Option<String>,
    /// From 1; default 1.
    #[param(minimum = 1, maximum = 2147483647)]
    pub page_number: Option<i64>,
    /// 1 to 100; default 20.
    #[param(minimum = 1, maximum = 100)]
    pub page_size: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerReferralPage {
    pub items: Vec<CustomerReferral>,
    pub page_number: i64,
    pub page_size: i64,
    pub total_count: i64,
}

#[utoipa::path(
    get,
    path = "/api/v1/referrals",
    operation_id = "listReferrals",
    tag = "sales",
    security(("bearer" = [])),
    params(ReferralListQuery),
    responses(
        (status = 200, description = "One page of the tenant's referrals, newest first", body = CustomerReferralPage),
        (status = 400, description = "Invalid paging", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn list_referrals(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(query): ApiQuery<ReferralListQuery>,
) -> ApiResult<Json<CustomerReferralPage>> {
    let page = Page::parse(query.page_number, query.page_size)?;
    let (rows, total_count) =
        service::referrals(&state.services, &auth.caller(), query.search_text.as_deref(), page.offset(), page.size)
            .await?;
    Ok(Json(CustomerReferralPage {
        items: rows.into_iter().map(to_referral).collect(),
        page_number: page.number,
        page_size: page.size,
        total_count,
    }))
}

#[utoipa::path(
    get,
    path = "/api/v1/referrals/{referralId}",
    operation_id = "getReferral",
    tag = "sales",
    security(("bearer" = [])),
    params(("referralId" = i64, Path, description = "Referral id", minimum = 1)),
    responses(
        (status = 200, description = "The referral", body = CustomerReferral),
        (status = 404, description = "No such referral in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_referral(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<Json<CustomerReferral>> {
    let row = service::referral(&state.services, &auth.caller(), ReferralId::from(id)).await?;
    Ok(Json(to_referral(row)))
}

/// A nullable string among `spellings` (any case); answers give the kept form.
fn nullable_spelling(spellings: &[(&str, &str)], description: &str) -> Schema {
    let mut kept: Vec<&str> = spellings.iter().map(|(_, kept)| *kept).collect();
    kept.dedup();
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .pattern(Some(signet_domain::spelling::pattern_of(spellings)))
        .description(Some(format!(
            "{description} One of {} in any case (or a spelling the pattern names), kept as that.",
            kept.join(", ")
        )))
        .into()
}

fn billing_cycle_schema() -> Schema {
    nullable_spelling(&BILLING_CYCLES, "How often the plan is billed.")
}

fn subscription_mode_schema() -> Schema {
    nullable_spelling(&SUBSCRIPTION_MODES, "How the customer would subscribe.")
}

/// The spec's `CrmLeadUpsertRequest`: a sales lead, created or changed. Fields left out (or
/// null) keep a changed lead's values; `planId` and `amount` are always written.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CrmLeadUpsertRequest {
    /// The caller's identifier of the lead: one lead per key in a tenant.
    #[schema(min_length = 1, max_length = 100, pattern = r"^[A-Za-z0-9._:@-]+$")]
    pub lead_key: Option<String>,
    #[schema(min_length = 1, max_length = 100, pattern = r"^[A-Za-z0-9._:@-]+$")]
    pub visitor_id: Option<String>,
    #[schema(min_length = 1, max_length = 150)]
    pub name: Option<String>,
    #[schema(min_length = 1, max_length = 255, format = Email)]
    pub email: Option<String>,
    /// 7 to 15 digits, an optional leading `+`, single spaces or hyphens between digits.
    #[schema(max_length = 20, pattern = r"^\+?[0-9](?:[ -]?[0-9]){6,14}$")]
    pub mobile: Option<String>,
    /// The country calling code (`+91`).
    #[schema(max_length = 5, pattern = r"^\+?[0-9]{1,4}$")]
    pub dialcode: Option<String>,
    #[schema(min_length = 1, max_length = 100)]
    pub plan_name: Option<String>,
    #[schema(schema_with = billing_cycle_schema)]
    pub billing_cycle: Option<String>,
    #[schema(schema_with = subscription_mode_schema)]
    pub subscription_mode: Option<String>,
    /// ISO 4217 code (`INR`).
    #[schema(max_length = 3, pattern = "^[A-Z]{3}$")]
    pub currency: Option<String>,
    /// The customer's state or region.
    #[schema(min_length = 1, max_length = 100)]
    pub state: Option<String>,
    #[schema(max_length = 50, pattern = "^[A-Za-z0-9_-]+$")]
    pub partner_referral_code: Option<String>,
    /// The customer's address as the caller saw it (IPv4 or IPv6 text); recorded only.
    #[schema(max_length = 45, pattern = "^[0-9A-Fa-f:.]+$")]
    pub client_ip: Option<String>,
    #[schema(min_length = 1, max_length = 500)]
    pub user_agent: Option<String>,
    /// Match by `leadKey` only: never take over a lead without a key that has the same
    /// e-mail or mobile. Needs a `leadKey`.
    #[serde(default)]
    pub force_by_lead_key: bool,
    #[serde(default)]
    #[schema(minimum = 0)]
    pub plan_id: i32,
    /// In `currency` units, 0 to 10^12.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000000000_f64)]
    pub amount: f64,
    #[schema(minimum = 0)]
    pub num_users: Option<i32>,
    #[schema(minimum = 0)]
    pub num_envelopes: Option<i32>,
}

/// A lead with its place in the outbox.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CrmLead {
    pub lead_id: i64,
    pub lead_key: Option<String>,
    pub visitor_id: Option<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    /// As normalised: digits, with the `+` if sent.
    pub mobile: Option<String>,
    pub dialcode: Option<String>,
    pub plan_id: i64,
    pub plan_name: Option<String>,
    pub billing_cycle: Option<String>,
    pub subscription_mode: Option<String>,
    pub amount: f64,
    pub currency: Option<String>,
    pub num_users: Option<i64>,
    pub num_envelopes: Option<i64>,
    pub state: Option<String>,
    pub partner_referral_code: Option<String>,
    pub client_ip: Option<String>,
    pub user_agent: Option<String>,
    /// Raised by every change; each version is pushed once.
    pub version: i64,
    /// `pending` (in the outbox), `pushed` or `failed` (the last push failed for good).
    #[schema(schema_with = push_state_schema)]
    pub push_state: String,
    /// The stage of the last push outcome (`outbox` for Signet's own push).
    pub push_stage: Option<String>,
    pub push_success: Option<bool>,
    pub crm_lead_id: Option<String>,
    pub push_error: Option<String>,
    pub pushed_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

const PUSH_STATES: [&str; 3] = ["pending", "pushed", "failed"];

fn push_state_schema() -> Schema {
    ObjectBuilder::new().schema_type(Type::String).enum_values(Some(PUSH_STATES)).into()
}

fn to_lead(row: LeadRow) -> CrmLead {
    CrmLead {
        lead_id: row.id.get(),
        lead_key: row.lead_key,
        visitor_id: row.visitor_id,
        name: row.name,
        email: row.email,
        mobile: row.mobile,
        dialcode: row.dialcode,
        plan_id: row.plan_id,
        plan_name: row.plan_name,
        billing_cycle: row.billing_cycle,
        subscription_mode: row.subscription_mode,
        amount: row.amount,
        currency: row.currency,
        num_users: row.num_users,
        num_envelopes: row.num_envelopes,
        state: row.state,
        partner_referral_code: row.partner_referral_code,
        client_ip: row.client_ip,
        user_agent: row.user_agent,
        version: row.version,
        push_state: row.push_state,
        push_stage: row.push_stage,
        push_success: row.push_success,
        crm_lead_id: row.crm_lead_id,
        push_error: row.push_error,
        pushed_at: row.pushed_at,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/crm/leads",
    operation_id = "upsertCrmLead",
    tag = "sales",
    security(("bearer" = [])),
    request_body = CrmLeadUpsertRequest,
    responses(
        (status = 200, description = "An existing lead changed (by key, or by e-mail or mobile); in the outbox again", body = CrmLead),
        (status = 201, description = "A new lead, in the outbox", body = CrmLead),
        (status = 400, description = "Invalid fields, every one named; or nothing to find the lead by (`leadKey`, `email` or `mobile`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn upsert_lead(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CrmLeadUpsertRequest>,
) -> ApiResult<(StatusCode, Json<CrmLead>)> {
    let input = LeadInput {
        lead_key: body.lead_key,
        visitor_id: body.visitor_id,
        name: body.name,
        email: body.email,
        mobile: body.mobile,
        dialcode: body.dialcode,
        plan_name: body.plan_name,
        billing_cycle: body.billing_cycle,
        subscription_mode: body.subscription_mode,
        currency: body.currency,
        state: body.state,
        partner_referral_code: body.partner_referral_code,
        client_ip: body.client_ip,
        user_agent: body.user_agent,
        force_by_lead_key: body.force_by_lead_key,
        plan_id: i64::from(body.plan_id),
        amount: body.amount,
        num_users: body.num_users.map(i64::from),
        num_envelopes: body.num_envelopes.map(i64::from),
    };
    let (row, created) = service::upsert_lead(&state.services, &auth.caller(), &input).await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(to_lead(row))))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct LeadListQuery {
    /// One outbox state.
    #[param(schema_with = push_state_schema)]
    pub push_state: Option<String>,
    /// Case-insensitive substring of the key, name, e-mail or mobile.
    pub search_text: Option<String>,
    /// From 1; default 1.
    #[param(minimum = 1, maximum = 2147483647)]
    pub page_number: Option<i64>,
    /// 1 to 100; default 20.
    #[param(minimum = 1, maximum = 100)]
    pub page_size: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CrmLeadPage {
    pub items: Vec<CrmLead>,
    pub page_number: i64,
    pub page_size: i64,
    pub total_count: i64,
}

#[utoipa::path(
    get,
    path = "/api/v1/crm/leads",
    operation_id = "listCrmLeads",
    tag = "sales",
    security(("bearer" = [])),
    params(LeadListQuery),
    responses(
        (status = 200, description = "One page of the tenant's leads, most recently changed first", body = CrmLeadPage),
        (status = 400, description = "Invalid filter or paging", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn list_leads(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(query): ApiQuery<LeadListQuery>,
) -> ApiResult<Json<CrmLeadPage>> {
    let page = Page::parse(query.page_number, query.page_size)?;
    if query.push_state.as_deref().is_some_and(|s| !PUSH_STATES.contains(&s)) {
        return Err(Error::field("pushState", "must be pending, pushed or failed").into());
    }
    let filter = LeadFilter { push_state: query.push_state, search: query.search_text };
    let (rows, total_count) =
        service::leads(&state.services, &auth.caller(), &filter, page.offset(), page.size).await?;
    Ok(Json(CrmLeadPage {
        items: rows.into_iter().map(to_lead).collect(),
        page_number: page.number,
        page_size: page.size,
        total_count,
    }))
}

#[utoipa::path(
    get,
    path = "/api/v1/crm/leads/{leadId}",
    operation_id = "getCrmLead",
    tag = "sales",
    security(("bearer" = [])),
    params(("leadId" = i64, Path, description = "Lead id", minimum = 1)),
    responses(
        (status = 200, description = "The lead", body = CrmLead),
        (status = 404, description = "No such lead in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_lead(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<Json<CrmLead>> {
    let row = service::lead(&state.services, &auth.caller(), LeadId::from(id)).await?;
    Ok(Json(to_lead(row)))
}

/// The spec's `CrmLeadMarkPushedRequest`: the outcome of a push made outside Signet.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CrmLeadMarkPushedRequest {
    /// The lead, by its key.
    #[schema(required = true, nullable = false, min_length = 1, max_length = 100, pattern = r"^[A-Za-z0-9._:@-]+$")]
    pub lead_key: Option<String>,
    /// Where the push got to, in the integration's words.
    #[schema(min_length = 1, max_length = 50)]
    pub stage: Option<String>,
    /// `true`: the lead leaves the outbox as `pushed`; `false`: as `failed`.
    #[schema(required = true, nullable = false, value_type = bool)]
    pub success: Option<bool>,
    /// The CRM's id of the lead (kept when left out).
    #[schema(min_length = 1, max_length = 100)]
    pub crm_lead_id: Option<String>,
    #[schema(min_length = 1, max_length = 1000)]
    pub error_message: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/v1/crm/leads/mark-pushed",
    operation_id = "markCrmLeadPushed",
    tag = "sales",
    security(("bearer" = [])),
    request_body = CrmLeadMarkPushedRequest,
    responses(
        (status = 200, description = "Recorded", body = CrmLead),
        (status = 400, description = "Invalid fields, every one named", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No lead with this key in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn mark_pushed(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CrmLeadMarkPushedRequest>,
) -> ApiResult<Json<CrmLead>> {
    let input = PushInput {
        lead_key: body.lead_key,
        stage: body.stage,
        success: body.success,
        crm_lead_id: body.crm_lead_id,
        error_message: body.error_message,
    };
    let row = service::mark_pushed(&state.services, &auth.caller(), &input).await?;
    Ok(Json(to_lead(row)))
}

/// The tenant's CRM endpoint: every version of every lead is posted to it, signed the
/// Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with
/// `secret`, and retried with backoff until it answers 2xx.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CrmSettingsRequest {
    /// Absolute http(s) URL allowed by the outbound policy; null stops pushes (leads wait in
    /// the outbox). Left out: null.
    #[schema(max_length = 2000)]
    pub url: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CrmSettings {
    pub url: Option<String>,
    /// The signing secret, answered only when it is made (by a PUT with a URL).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    pub updated_at: Option<i64>,
}

#[utoipa::path(
    get,
    path = "/api/v1/crm/settings",
    operation_id = "getCrmSettings",
    tag = "sales",
    security(("bearer" = [])),
    responses((status = 200, description = "The CRM endpoint (its secret is not shown again)", body = CrmSettings))
)]
pub async fn get_settings(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<CrmSettings>> {
    let settings = service::crm_endpoint(&state.services, &auth.caller()).await?;
    Ok(Json(CrmSettings {
        url: settings.as_ref().map(|s| s.url.clone()),
        secret: None,
        updated_at: settings.map(|s| s.updated_at),
    }))
}

#[utoipa::path(
    put,
    path = "/api/v1/crm/settings",
    operation_id = "putCrmSettings",
    tag = "sales",
    security(("bearer" = [])),
    request_body = CrmSettingsRequest,
    responses(
        (status = 200, description = "Saved with a new signing secret (shown once); leads in the outbox are pushed to it", body = CrmSettings),
        (status = 400, description = "Not an absolute http(s) URL, or one the outbound policy refuses", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn put_settings(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CrmSettingsRequest>,
) -> ApiResult<Json<CrmSettings>> {
    let saved = service::set_crm_endpoint(&state.services, &auth.caller(), body.url.as_deref()).await?;
    let updated_at = saved.as_ref().map(|_| signet_domain::now_millis());
    let (url, secret) = saved.unzip();
    Ok(Json(CrmSettings { url, secret, updated_at }))
}
