//! A workflow's invoices (docs/stamps.md, "Invoices"): the spec's `StampInvoiceRequest` issues
//! the platform operator's tax invoice for the workflow and the debit note for its stamp duty
//! (`StampInvoiceResponse`), once; the tenant's billing profile names the recipient.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};
use signet_domain::Error;
use signet_domain::invoice::{self, InvoiceKind, PartyInput};
use signet_services::billing::invoices::{self as service, IssuedDocument, ListInput, WorkflowInvoices};
use signet_services::records::BillingProfileRow;
use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};
use utoipa::{IntoParams, ToSchema};

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath, ApiQuery};
use signet_http::files::pdf_response;

/// The spec's `StampInvoiceRequest`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StampInvoiceRequest {
    /// The workflow of the tenant to invoice; it must have ended (completed, declined, expired
    /// or inactive).
    #[serde(default)]
    #[schema(required = true, minimum = 1, maximum = 2147483647)]
    pub workflow_id: i32,
}

/// The spec's `StampInvoiceResponse`: the documents issued for the workflow, the same on every
/// call.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StampInvoiceResponse {
    /// The tax invoice's number, e.g. `INV/26-27/000001`.
    pub invoice_no: Option<String>,
    /// The tax invoice, a PDF, base64.
    pub invoice_document: Option<String>,
    /// When it was issued (RFC 3339, in India Standard Time).
    #[schema(format = DateTime)]
    pub invoice_created_date: Option<String>,
    /// The debit note's number, e.g. `DN/26-27/000001`; null when the workflow took no stamp
    /// papers.
    pub debit_note_no: Option<String>,
    /// The debit note, a PDF, base64.
    pub debit_note_document: Option<String>,
    #[schema(format = DateTime)]
    pub debit_note_created_date: Option<String>,
    /// The invoice's total (fee and GST) and the debit note's (stamp duty), in rupees.
    #[schema(format = Double)]
    pub total_amount: f64,
}

/// An instant as RFC 3339 in IST, the time zone of the documents' dates.
fn ist_time(millis: i64) -> Option<String> {
    let offset = UtcOffset::from_whole_seconds((invoice::IST_OFFSET_MS / 1000) as i32).ok()?;
    let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000).ok()?;
    at.to_offset(offset).format(&Rfc3339).ok()
}

type Shown = (Option<String>, Option<String>, Option<String>);

fn show(document: Option<IssuedDocument>) -> Shown {
    match document {
        Some(d) => (Some(d.number), Some(STANDARD.encode(&d.pdf)), ist_time(d.issued_at)),
        None => (None, None, None),
    }
}

fn to_response(invoices: WorkflowInvoices) -> StampInvoiceResponse {
    let (invoice_no, invoice_document, invoice_created_date) = show(invoices.invoice);
    let (debit_note_no, debit_note_document, debit_note_created_date) = show(invoices.debit_note);
    StampInvoiceResponse {
        invoice_no,
        invoice_document,
        invoice_created_date,
        debit_note_no,
        debit_note_document,
        debit_note_created_date,
        total_amount: invoice::rupees(invoices.total_paise),
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/stamps/invoices",
    operation_id = "stampInvoice",
    tag = "stamps",
    security(("bearer" = [])),
    request_body = StampInvoiceRequest,
    responses(
        (status = 201, description = "Issued now: the tax invoice and, when the workflow took stamp papers, the debit note", body = StampInvoiceResponse),
        (status = 200, description = "Issued before: the same numbers, dates and documents, byte for byte", body = StampInvoiceResponse),
        (status = 400, description = "`workflowId` missing or not positive", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such workflow in this tenant (or it was deleted)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Nothing issued: `invoicing_not_configured` (the installation names no supplier), `billing_profile_required` (the tenant set no billing profile), `state_conflict` (the workflow is in progress), `limit_reached` (the year's series is exhausted)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn issue(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<StampInvoiceRequest>,
) -> ApiResult<(StatusCode, Json<StampInvoiceResponse>)> {
    let issued = service::issue(&state.services, &auth.caller(), i64::from(body.workflow_id)).await?;
    let status = if issued.created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(to_response(issued))))
}

#[utoipa::path(
    get,
    path = "/api/v1/stamps/invoices/{workflowId}",
    operation_id = "getStampInvoice",
    tag = "stamps",
    security(("bearer" = [])),
    params(("workflowId" = i64, Path, description = "Workflow id", minimum = 1)),
    responses(
        (status = 200, description = "The documents issued for the workflow, as issued", body = StampInvoiceResponse),
        (status = 404, description = "None issued for this workflow of this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(workflow_id): ApiPath<i64>,
) -> ApiResult<Json<StampInvoiceResponse>> {
    let issued = service::fetch(&state.services, &auth.caller(), workflow_id).await?;
    Ok(Json(to_response(issued)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct StampInvoiceListQuery {
    /// Issued on this day or later: a date in India Standard Time, the documents' dates.
    #[param(format = Date)]
    pub issued_from: Option<String>,
    /// Issued on this day or earlier (IST); a day before `issuedFrom` matches nothing.
    #[param(format = Date)]
    pub issued_to: Option<String>,
    /// One workflow's documents.
    #[param(minimum = 1)]
    pub workflow_id: Option<i64>,
    /// From 1; default 1.
    #[param(minimum = 1, maximum = 2147483647)]
    pub page_number: Option<i64>,
    /// 1 to 100; default 20.
    #[param(minimum = 1, maximum = 100)]
    pub page_size: Option<i64>,
}

fn invoice_kind_schema() -> utoipa::openapi::schema::Schema {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(InvoiceKind::ALL.iter().map(|k| k.as_str())))
        .description(Some("`invoice` (the tax invoice) or `debit_note` (the stamp duty)."))
        .into()
}

/// A document issued to the tenant.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StampInvoiceListItem {
    /// The workflow it bills.
    pub workflow_id: i64,
    #[schema(schema_with = invoice_kind_schema)]
    pub kind: String,
    /// `INV/26-27/000001` or `DN/26-27/000001`.
    pub number: String,
    /// When it was issued (RFC 3339, in India Standard Time).
    #[schema(format = DateTime)]
    pub issued_at: String,
    /// The document's total in rupees (an invoice's fee and GST, a debit note's stamp duty).
    #[schema(format = Double)]
    pub total_amount: f64,
    /// Where its PDF downloads, as issued: `GET /api/v1/stamps/invoices/{workflowId}/{kind}`.
    pub document_url: String,
}

/// A page of the documents issued to the tenant, newest first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StampInvoicePage {
    pub items: Vec<StampInvoiceListItem>,
    pub page_number: i64,
    pub page_size: i64,
    pub total_count: i64,
}

/// Where a document's PDF downloads.
pub fn document_url(workflow_id: i64, kind: InvoiceKind) -> String {
    format!("/api/v1/stamps/invoices/{workflow_id}/{}", kind.as_str())
}

#[utoipa::path(
    get,
    path = "/api/v1/stamps/invoices",
    operation_id = "listStampInvoices",
    tag = "stamps",
    security(("bearer" = [])),
    params(StampInvoiceListQuery),
    responses(
        (status = 200, description = "One page of the tenant's tax invoices and debit notes, newest first", body = StampInvoicePage),
        (status = 400, description = "Invalid filter or paging (every parameter named): `validation_failed`", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(query): ApiQuery<StampInvoiceListQuery>,
) -> ApiResult<Json<StampInvoicePage>> {
    let input = ListInput {
        issued_from: query.issued_from.as_deref(),
        issued_to: query.issued_to.as_deref(),
        workflow_id: query.workflow_id,
        page_number: query.page_number,
        page_size: query.page_size,
    };
    let listed = service::list(&state.services, &auth.caller(), input).await?;
    let items = listed
        .rows
        .into_iter()
        .map(|row| StampInvoiceListItem {
            document_url: document_url(row.workflow_id, row.kind),
            workflow_id: row.workflow_id,
            kind: row.kind.as_str().to_string(),
            issued_at: ist_time(row.issued_at).unwrap_or_default(),
            total_amount: invoice::rupees(row.total_paise),
            number: row.number,
        })
        .collect();
    Ok(Json(StampInvoicePage {
        items,
        page_number: listed.page.number,
        page_size: listed.page.size,
        total_count: listed.total_count,
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Path)]
pub struct StampInvoiceDocumentPath {
    /// The workflow the document bills.
    #[param(minimum = 1)]
    pub workflow_id: i64,
    /// Which of its documents.
    #[param(schema_with = invoice_kind_schema)]
    pub kind: String,
}

#[utoipa::path(
    get,
    path = "/api/v1/stamps/invoices/{workflowId}/{kind}",
    operation_id = "getStampInvoiceDocument",
    tag = "stamps",
    security(("bearer" = [])),
    params(StampInvoiceDocumentPath),
    responses(
        (status = 200, description = "The document's PDF, byte for byte as issued", content_type = "application/pdf"),
        (status = 400, description = "`kind` is neither `invoice` nor `debit_note`", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such document issued for this workflow of this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn document(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(path): ApiPath<StampInvoiceDocumentPath>,
) -> ApiResult<Response> {
    let kind = InvoiceKind::parse(&path.kind).ok_or_else(|| Error::field("kind", "must be invoice or debit_note"))?;
    let issued = service::document(&state.services, &auth.caller(), path.workflow_id, kind).await?;
    Ok(pdf_response(issued.pdf.into(), &format!("{}.pdf", issued.number.replace('/', "-"))))
}

/// The tenant as the recipient of the platform's invoices. Its state is the place of supply.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BillingProfile {
    /// The legal name invoices are made out to.
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 200,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub legal_name: Option<String>,
    /// The billing address; lines separated by `\n`.
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 500,
        pattern = "^[^\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f]*$"
    )]
    pub address: Option<String>,
    /// The tenant's GSTIN, registered in `stateCode`; absent or null for an unregistered
    /// recipient.
    #[schema(nullable = true, pattern = "^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$")]
    pub gstin: Option<String>,
    /// The tenant's state (ISO 3166-2:IN code): the place of supply.
    #[schema(required = true, nullable = false, schema_with = super::stamps::state_code_schema)]
    pub state_code: Option<String>,
}

fn profile_dto(row: BillingProfileRow) -> BillingProfile {
    BillingProfile {
        legal_name: Some(row.legal_name),
        address: Some(row.address),
        gstin: row.gstin,
        state_code: Some(row.state_code),
    }
}

#[utoipa::path(
    get,
    path = "/api/v1/stamps/billing-profile",
    operation_id = "getBillingProfile",
    tag = "stamps",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The tenant's billing profile", body = BillingProfile),
        (status = 404, description = "The tenant has not set one", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_billing_profile(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<BillingProfile>> {
    let row = signet_services::billing::invoices::billing_profile(&state.services, &auth.caller())
        .await?
        .ok_or(Error::not_found("billing profile"))?;
    Ok(Json(profile_dto(row)))
}

#[utoipa::path(
    put,
    path = "/api/v1/stamps/billing-profile",
    operation_id = "putBillingProfile",
    tag = "stamps",
    security(("bearer" = [])),
    request_body = BillingProfile,
    responses(
        (status = 200, description = "Saved; documents issued before keep the recipient they show", body = BillingProfile),
        (status = 400, description = "Invalid fields (every one named), a GSTIN whose check character is wrong or that is registered in another state", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn put_billing_profile(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<BillingProfile>,
) -> ApiResult<Json<BillingProfile>> {
    let input = PartyInput {
        legal_name: body.legal_name.as_deref(),
        address: body.address.as_deref(),
        gstin: body.gstin.as_deref(),
        state_code: body.state_code.as_deref(),
    };
    let row = service::set_billing_profile(&state.services, &auth.caller(), input).await?;
    Ok(Json(profile_dto(row)))
}
