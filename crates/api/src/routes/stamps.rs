//! Stamp duty (docs/stamps.md): the tenant's inventory of pre-purchased e-stamp certificates
//! (`StampBulk` loads them), its stock and low-stock settings, and the articles of the states'
//! stamp schedules (`GetArticleCodesInput`), which the tenant may edit. Certificates are taken
//! from the inventory by `initiate-and-sign` (`eStampType` `inventory`, `state`, `denomination`).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use signet_domain::paging::Page;
use signet_domain::stamp::{self, StampState};
use signet_domain::{Error, FieldErrors, StampId, WorkflowId};
use signet_services::records::{StampFilter, StampRow, StampSettings};
use signet_services::stamps::{self as service, ArticleInput, ArticleView, LoadItem, StockLevel};
use utoipa::{IntoParams, ToSchema};

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath, ApiQuery};

/// The spec's `StampItem`: one certificate of a load.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StampItem {
    /// The certificate's amount in rupees.
    #[serde(default)]
    #[schema(required = true, minimum = 1, maximum = 2147483647)]
    pub denomination: i32,
    /// The certificate number (e.g. `IN-DL12345678901234X`), unique in the tenant's inventory
    /// ignoring case.
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 64,
        pattern = "^[A-Za-z0-9][A-Za-z0-9/_.-]{0,63}$"
    )]
    pub reference_no: Option<String>,
    /// Signet's addition to the spec's object: the certificate as issued (a PDF of 1 to 4 pages,
    /// base64, at most 2 MiB). Its pages go in front of the document it is allocated to; without
    /// it Signet makes a certificate page.
    pub certificate_file: Option<String>,
}

/// The spec's `StampBulk`: certificates of one state, loaded all or none.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StampBulk {
    /// The state the certificates were issued for (ISO 3166-2:IN code).
    #[schema(required = true, nullable = false, schema_with = state_code_schema)]
    pub state: Option<String>,
    /// The certificates: 1 to 1000.
    #[schema(required = true, nullable = false, min_items = 1, max_items = 1000)]
    pub denomination: Option<Vec<StampItem>>,
}

pub(crate) fn state_code_schema() -> utoipa::openapi::schema::Schema {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .pattern(Some(stamp::state_pattern()))
        .description(Some(
            "An Indian state or union territory: its ISO 3166-2:IN code (MH, KA, DL, ...; the 2023 edition's CG, \
             OD, TS and UK too), with or without `IN-`, or its name (`&` for `and`; Orissa, Pondicherry, \
             Uttaranchal and NCT of Delhi too), in any case. Answers give the code.",
        ))
        .into()
}

/// A certificate of the inventory.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Stamp {
    pub stamp_id: i64,
    /// ISO 3166-2:IN code.
    pub state: String,
    pub denomination: i64,
    pub reference_no: String,
    /// `available`, `reserved` (held for a document being made), `allocated` or `retired`.
    #[schema(schema_with = stamp_status_schema)]
    pub status: String,
    /// The workflow it is allocated to (or was, when retired with it).
    pub workflow_id: Option<i64>,
    /// The tenant loaded the certificate's PDF.
    pub has_certificate: bool,
    /// Allocated with its page in front of the document (else recorded without it).
    pub page_attached: bool,
    /// Milliseconds since the epoch.
    pub loaded_at: i64,
    pub allocated_at: Option<i64>,
    /// `inventory` (loaded by the tenant) or `provider` (issued by the stamp provider for one
    /// request; never stock).
    #[schema(schema_with = stamp_source_schema)]
    pub source: String,
    /// The stamp provider's reference of the issue (`provider` only).
    pub provider_ref: Option<String>,
}

fn stamp_source_schema() -> utoipa::openapi::schema::Schema {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(["inventory", "provider"]))
        .into()
}

fn stamp_status_schema() -> utoipa::openapi::schema::Schema {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(StampState::ALL.iter().map(|s| s.as_str())))
        .into()
}

fn to_stamp(row: StampRow) -> Stamp {
    Stamp {
        stamp_id: row.id.get(),
        status: service::shown_state(&row).as_str().to_string(),
        state: row.state_code,
        denomination: row.denomination,
        reference_no: row.reference_no,
        workflow_id: row.workflow_id.map(WorkflowId::get),
        has_certificate: row.certificate_blob.is_some(),
        page_attached: row.page_attached,
        loaded_at: row.loaded_at,
        allocated_at: row.allocated_at,
        source: row.source,
        provider_ref: row.provider_ref,
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoadedStamps {
    pub loaded: usize,
    pub stamps: Vec<Stamp>,
}

#[utoipa::path(
    post,
    path = "/api/v1/stamps",
    operation_id = "loadStamps",
    tag = "stamps",
    security(("bearer" = [])),
    request_body = StampBulk,
    responses(
        (status = 201, description = "Loaded: every certificate is in stock", body = LoadedStamps),
        (status = 400, description = "Invalid fields (every one named), or a certificateFile that is not a PDF of 1 to 4 pages; nothing loaded", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "A certificate number is already recorded (numbers are unique installation-wide); nothing loaded", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn load(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<StampBulk>,
) -> ApiResult<(StatusCode, Json<LoadedStamps>)> {
    let items = body
        .denomination
        .unwrap_or_default()
        .into_iter()
        .map(|i| LoadItem {
            denomination: i64::from(i.denomination),
            reference_no: i.reference_no,
            certificate: i.certificate_file,
        })
        .collect();
    let rows = service::load(&state.services, &auth.caller(), body.state.as_deref(), items).await?;
    let stamps: Vec<Stamp> = rows.into_iter().map(to_stamp).collect();
    Ok((StatusCode::CREATED, Json(LoadedStamps { loaded: stamps.len(), stamps })))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct StampListQuery {
    /// One state (ISO 3166-2:IN code).
    #[param(schema_with = state_code_schema)]
    pub state: Option<String>,
    #[param(minimum = 1, maximum = 2147483647)]
    pub denomination: Option<i64>,
    /// One status.
    #[param(schema_with = stamp_status_schema)]
    pub status: Option<String>,
    /// Case-insensitive substring of the certificate number.
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
pub struct StampPage {
    pub items: Vec<Stamp>,
    pub page_number: i64,
    pub page_size: i64,
    pub total_count: i64,
}

fn list_filter(query: &StampListQuery) -> ApiResult<StampFilter> {
    let mut errors = FieldErrors::new();
    let state_code = match query.state.as_deref() {
        Some(code) => stamp::parse_state_code("state", Some(code)).map_err(|e| note(&mut errors, e)).ok(),
        None => None,
    };
    let status = match query.status.as_deref() {
        Some(text) => StampState::parse(text).or_else(|| {
            errors.insert("status".into(), vec!["must be available, reserved, allocated or retired".into()]);
            None
        }),
        None => None,
    };
    if query.denomination.is_some_and(|d| stamp::check_denomination("denomination", d).is_err()) {
        errors.insert("denomination".into(), vec!["must be a positive amount in rupees".into()]);
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors).into());
    }
    Ok(StampFilter { state_code, denomination: query.denomination, status, search: query.search_text.clone() })
}

fn note(errors: &mut FieldErrors, error: Error) {
    if let Error::Validation(fields) = error {
        errors.extend(fields);
    }
}

#[utoipa::path(
    get,
    path = "/api/v1/stamps",
    operation_id = "listStamps",
    tag = "stamps",
    security(("bearer" = [])),
    params(StampListQuery),
    responses(
        (status = 200, description = "One page of the inventory, oldest first", body = StampPage),
        (status = 400, description = "Invalid filter or paging", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(query): ApiQuery<StampListQuery>,
) -> ApiResult<Json<StampPage>> {
    let page = Page::parse(query.page_number, query.page_size)?;
    let filter = list_filter(&query)?;
    let (rows, total_count) =
        service::inventory(&state.services, &auth.caller(), &filter, page.offset(), page.size).await?;
    Ok(Json(StampPage {
        items: rows.into_iter().map(to_stamp).collect(),
        page_number: page.number,
        page_size: page.size,
        total_count,
    }))
}

#[utoipa::path(
    get,
    path = "/api/v1/stamps/{stampId}",
    operation_id = "getStamp",
    tag = "stamps",
    security(("bearer" = [])),
    params(("stampId" = i64, Path, description = "Stamp id", minimum = 1)),
    responses(
        (status = 200, description = "The certificate", body = Stamp),
        (status = 404, description = "No such certificate in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<Json<Stamp>> {
    let row = service::stamp(&state.services, &auth.caller(), StampId::from(id)).await?;
    Ok(Json(to_stamp(row)))
}

#[utoipa::path(
    get,
    path = "/api/v1/stamps/{stampId}/certificate",
    operation_id = "getStampCertificate",
    tag = "stamps",
    security(("bearer" = [])),
    params(("stampId" = i64, Path, description = "Stamp id", minimum = 1)),
    responses(
        (status = 200, description = "The certificate's PDF as it was loaded (`certificateFile`) or issued by the stamp provider", content_type = "application/pdf"),
        (status = 404, description = "No such certificate in this tenant, or it has no PDF (`hasCertificate` false)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn certificate(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<Response> {
    let (name, pdf) = service::certificate_pdf(&state.services, &auth.caller(), StampId::from(id)).await?;
    Ok(signet_http::files::pdf_response(pdf, &name))
}

#[utoipa::path(
    post,
    path = "/api/v1/stamps/{stampId}/retire",
    operation_id = "retireStamp",
    tag = "stamps",
    security(("bearer" = [])),
    params(("stampId" = i64, Path, description = "Stamp id", minimum = 1)),
    responses(
        (status = 200, description = "Retired: never taken again", body = Stamp),
        (status = 404, description = "No such certificate in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Not in stock (allocated or already retired)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn retire(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<Json<Stamp>> {
    let row = service::retire(&state.services, &auth.caller(), StampId::from(id)).await?;
    Ok(Json(to_stamp(row)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct StockQuery {
    /// One state (ISO 3166-2:IN code); all when absent.
    #[param(schema_with = state_code_schema)]
    pub state: Option<String>,
}

/// One state and denomination of the inventory.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StampStock {
    pub state: String,
    pub denomination: i64,
    pub available: i64,
    pub reserved: i64,
    pub allocated: i64,
    pub retired: i64,
    /// Available stock is at or below the tenant's threshold (never when alerts are off).
    pub low: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StampStockList {
    pub items: Vec<StampStock>,
    pub low_stock_threshold: i64,
}

#[utoipa::path(
    get,
    path = "/api/v1/stamps/stock",
    operation_id = "stampStock",
    tag = "stamps",
    security(("bearer" = [])),
    params(StockQuery),
    responses(
        (status = 200, description = "Certificates counted per state and denomination", body = StampStockList),
        (status = 400, description = "Not a state code", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn stock(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(query): ApiQuery<StockQuery>,
) -> ApiResult<Json<StampStockList>> {
    let state_code = match query.state.as_deref() {
        Some(code) => Some(stamp::parse_state_code("state", Some(code))?),
        None => None,
    };
    let (rows, alert) = service::stock(&state.services, &auth.caller(), state_code.as_deref()).await?;
    let threshold = alert.low_stock_threshold;
    let items = service::stock_levels(rows, threshold).into_iter().map(StampStock::from).collect();
    Ok(Json(StampStockList { items, low_stock_threshold: threshold }))
}

impl From<StockLevel> for StampStock {
    fn from(level: StockLevel) -> Self {
        StampStock {
            state: level.state,
            denomination: level.denomination,
            available: level.available,
            reserved: level.reserved,
            allocated: level.allocated,
            retired: level.retired,
            low: level.low,
        }
    }
}

/// The tenant's low-stock alert: when an allocation brings the available certificates of a
/// state and denomination from above `lowStockThreshold` to at or below it, webhooks receive
/// `stamps.low_stock` and `alertEmails` an e-mail.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StampAlertSettings {
    /// 0 (the default) switches alerts off.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub low_stock_threshold: i64,
    /// Up to 10 addresses.
    #[serde(default)]
    #[schema(max_items = 10, inline, value_type = Vec<String>)]
    pub alert_emails: Vec<String>,
}

#[utoipa::path(
    get,
    path = "/api/v1/stamps/settings",
    operation_id = "getStampSettings",
    tag = "stamps",
    security(("bearer" = [])),
    responses((status = 200, description = "The low-stock alert settings", body = StampAlertSettings))
)]
pub async fn get_settings(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<StampAlertSettings>> {
    let settings = service::settings(&state.services, &auth.caller()).await?;
    Ok(Json(settings_dto(settings)))
}

fn settings_dto(settings: StampSettings) -> StampAlertSettings {
    StampAlertSettings { low_stock_threshold: settings.low_stock_threshold, alert_emails: settings.alert_emails }
}

#[utoipa::path(
    put,
    path = "/api/v1/stamps/settings",
    operation_id = "putStampSettings",
    tag = "stamps",
    security(("bearer" = [])),
    request_body = StampAlertSettings,
    responses(
        (status = 200, description = "Saved", body = StampAlertSettings),
        (status = 400, description = "Invalid threshold or addresses", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn put_settings(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<StampAlertSettings>,
) -> ApiResult<Json<StampAlertSettings>> {
    let saved =
        service::set_settings(&state.services, &auth.caller(), body.low_stock_threshold, body.alert_emails).await?;
    Ok(Json(settings_dto(saved)))
}

/// The spec's `GetArticleCodesInput`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GetArticleCodesInput {
    /// The state: its ISO 3166-2:IN code or name, as `StampBulk.state` takes it (ignoring
    /// surrounding spaces); a text that names no state has no articles.
    #[schema(required = true, nullable = false, min_length = 1)]
    pub state_code: Option<String>,
}

/// An article of a state's stamp schedule.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ArticleCode {
    pub article_code: String,
    pub description: String,
    /// `fixed`, `ad_valorem` or `varies`.
    #[schema(schema_with = duty_kind_schema)]
    pub duty_kind: String,
    /// The duty in rupees, when the article fixes one.
    pub fixed_duty: Option<i64>,
    pub duty_rule: String,
    /// Where the rule is published (act, schedule, article).
    pub source: String,
    /// Signet ships this article.
    pub shipped: bool,
    /// The tenant changed or added it.
    pub edited: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ArticleCodeList {
    pub state_code: String,
    pub items: Vec<ArticleCode>,
}

fn duty_kind_schema() -> utoipa::openapi::schema::Schema {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(stamp::DutyKind::ALL.iter().map(|k| k.as_str())))
        .into()
}

fn to_article(view: ArticleView) -> ArticleCode {
    let a = view.article;
    ArticleCode {
        article_code: a.article_code,
        description: a.description,
        duty_kind: a.duty_kind.as_str().to_string(),
        fixed_duty: a.fixed_duty,
        duty_rule: a.duty_rule,
        source: a.source,
        shipped: view.shipped,
        edited: view.edited,
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/stamps/article-codes",
    operation_id = "getArticleCodes",
    tag = "stamps",
    security(("bearer" = [])),
    request_body = GetArticleCodesInput,
    responses(
        (status = 200, description = "The state's articles for this tenant (shipped ones with the tenant's edits)", body = ArticleCodeList),
        (status = 400, description = "No stateCode", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn article_codes(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<GetArticleCodesInput>,
) -> ApiResult<Json<ArticleCodeList>> {
    let code = match body.state_code.as_deref() {
        Some(said) if !said.is_empty() => {
            stamp::state_code_of(said.trim()).map_or_else(|| said.trim().to_ascii_uppercase(), str::to_string)
        }
        _ => return Err(Error::field("stateCode", "is required").into()),
    };
    let items = service::articles_for(&state.services, &auth.caller(), &code).await?;
    Ok(Json(ArticleCodeList { state_code: code, items: items.into_iter().map(to_article).collect() }))
}

/// A tenant's version of an article.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ArticleCodeInput {
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 500,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub description: Option<String>,
    #[schema(required = true, nullable = false, schema_with = duty_kind_schema)]
    pub duty_kind: Option<String>,
    /// Required with `fixed`, and only then.
    #[schema(minimum = 1, maximum = 2147483647)]
    pub fixed_duty: Option<i64>,
    #[schema(
        min_length = 1,
        max_length = 500,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub duty_rule: Option<String>,
    #[schema(
        min_length = 1,
        max_length = 500,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub source: Option<String>,
}

#[utoipa::path(
    put,
    path = "/api/v1/stamps/article-codes/{stateCode}/{articleCode}",
    operation_id = "putArticleCode",
    tag = "stamps",
    security(("bearer" = [])),
    params(
        ("stateCode" = String, Path, description = "ISO 3166-2:IN code", pattern = "^[A-Z]{2}$"),
        ("articleCode" = String, Path, description = "The article, e.g. 5(h)(B)", pattern = "^[A-Za-z0-9][A-Za-z0-9().-]{0,19}$"),
    ),
    request_body = ArticleCodeInput,
    responses(
        (status = 200, description = "The tenant's version of the article", body = ArticleCode),
        (status = 400, description = "Invalid fields, or not a state code", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn put_article_code(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath((state_code, article_code)): ApiPath<(String, String)>,
    ApiJson(body): ApiJson<ArticleCodeInput>,
) -> ApiResult<Json<ArticleCode>> {
    let input = ArticleInput {
        description: body.description,
        duty_kind: body.duty_kind,
        fixed_duty: body.fixed_duty,
        duty_rule: body.duty_rule,
        source: body.source,
    };
    let view = service::set_article(&state.services, &auth.caller(), &state_code, &article_code, input).await?;
    Ok(Json(to_article(view)))
}

#[utoipa::path(
    delete,
    path = "/api/v1/stamps/article-codes/{stateCode}/{articleCode}",
    operation_id = "deleteArticleCode",
    tag = "stamps",
    security(("bearer" = [])),
    params(
        ("stateCode" = String, Path, description = "ISO 3166-2:IN code", pattern = "^[A-Z]{2}$"),
        ("articleCode" = String, Path, description = "The article, e.g. 5(h)(B)"),
    ),
    responses(
        (status = 204, description = "The article no longer applies for this tenant (a shipped one is hidden, the tenant's own removed)"),
        (status = 404, description = "The state has no such article for this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn delete_article_code(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath((state_code, article_code)): ApiPath<(String, String)>,
) -> ApiResult<StatusCode> {
    service::remove_article(&state.services, &auth.caller(), &state_code, &article_code).await?;
    Ok(StatusCode::NO_CONTENT)
}
