//! Workflows through the JSON API: initiate (documents + signatories in order), read, list,
//! the event chain, and templates that carry signature fields per signatory.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::audit::AuditEntry;
use signet_domain::workflow::SignatoryInput;
use signet_domain::workflow_settings::{AsSent, WorkflowSettings};
use signet_domain::{Error, SigningProfileId};
use signet_services::records::{DocumentRow, SignatoryRow};
use utoipa::ToSchema;

use super::documents::BrowserInfo;
use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath, ApiQuery};
use signet_services::stamps::StampDetails;
use signet_services::workflows::initiate::{self, AttachmentUpload, EnvelopeExpiry, InitiateWorkflow};
use signet_services::workflows::links::signer_url;
use signet_services::workflows::{queries, templates};

pub use signet_services::workflows::initiate::MAX_ATTACHMENT_BYTES;

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SignatoryDetail {
    /// A user of the tenant, or 0 for someone outside it (known by `emailId` and `name`).
    pub subscriber_id: i32,
    #[schema(format = Email, max_length = 254)]
    pub email_id: String,
    pub name: Option<String>,
    /// Equal numbers sign in parallel; groups go 1, 2, 3, ... Leave 0 for all to sign one
    /// after the other in the listed order.
    #[serde(default)]
    pub signing_order: i32,
    /// How this signatory signs: `electronic` (or `4`, the default) or `aadhaar_esign` (or
    /// `3`): Aadhaar eSign through the configured ESP, the signature then made with a
    /// certificate in the signer's own name; or `dsc_token` (or `2`): the signer's own crypto
    /// token through the signer utility. A Signet extension of the spec's object.
    #[schema(max_length = 20)]
    pub mode_of_signature: Option<String>,
    /// The signatory's mobile number, to which their invitation and reminders are also sent
    /// by SMS when the installation has an SMS provider (without one it is kept and unused):
    /// `+` and the country code then the number, 8 to 15 digits (spaces, hyphens, dots and
    /// parentheses between them are dropped), or a 10-digit Indian mobile number starting with
    /// 6-9 (taken as `+91`). Anything else is refused (400 `validation_failed`, field
    /// `signatories[i].mobileNo`). A Signet extension of the spec's object.
    #[schema(max_length = 30, example = "+919876543210")]
    pub mobile_no: Option<String>,
    /// The signatory confirms a six-digit code texted to `mobileNo` on their signing page
    /// before any signature of theirs is accepted (electronic, crypto token or Aadhaar
    /// eSign); declining and commenting need no code. Needs `mobileNo` and an SMS provider on
    /// the service, else 400 `validation_failed` with the field `signatories[i].otpBySms`.
    /// Default false. A Signet extension of the spec's object.
    #[serde(default)]
    pub otp_by_sms: bool,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AttachmentDetails {
    #[schema(min_length = 1)]
    pub base64file_data: String,
    #[schema(min_length = 1)]
    pub document_name: String,
    pub description: Option<String>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SignerAttachmentDetail {
    #[serde(rename = "base64FileData")]
    #[schema(min_length = 1)]
    pub base64_file_data: String,
    #[schema(min_length = 1)]
    pub document_name: String,
    pub description: Option<String>,
}

/// The spec's `InitiateWorkFlowData`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InitiateWorkFlowData {
    /// A template of the tenant (signature fields per signatory), or 0 for none.
    pub template_id: i32,
    /// At most 200 characters, no control characters.
    #[schema(max_length = 200, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub workflow_name: Option<String>,
    #[schema(max_length = 200)]
    pub reference_no: Option<String>,
    #[serde(default)]
    pub workflow_type: i32,
    /// The uploaded documents (`POST /api/v1/documents`), each once.
    #[schema(required = true, nullable = false, min_items = 1)]
    pub document_ids: Option<Vec<i32>>,
    #[schema(required = true, nullable = false, min_items = 1)]
    pub signatories: Option<Vec<SignatoryDetail>>,
    #[serde(rename = "eSignaturePIN")]
    pub e_signature_pin: Option<String>,
    #[serde(default)]
    pub hsm_certificate_id: i32,
    pub e_sign_params: Option<serde_json::Value>,
    #[serde(default)]
    pub linked_workflow_id: i32,
    #[serde(default)]
    pub send_mail: bool,
    #[serde(default)]
    pub notify_customer: bool,
    #[serde(default)]
    pub check_email_notify: bool,
    #[serde(default)]
    pub enable_auto_close_popup: bool,
    /// An absolute http(s) URL, at most 2000 characters, or empty.
    #[serde(rename = "redirectURL")]
    #[schema(
        max_length = 2000,
        pattern = "^$|^https?://[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+$"
    )]
    pub redirect_url: Option<String>,
    /// When the envelope expires (RFC 3339 date-time).
    #[schema(format = DateTime)]
    pub envelope_expiry: Option<String>,
    /// Remind signers who have not signed every this many days (0 to 365).
    #[schema(minimum = 0, maximum = 365)]
    pub reminder_frequency: Option<i32>,
    pub third_party_params: Option<String>,
    pub geo_tagging: Option<serde_json::Value>,
    pub initials: Option<serde_json::Value>,
    pub location: Option<serde_json::Value>,
    pub reason: Option<String>,
    /// Signet's addition: the sender's message to the signers, shown in their invitation
    /// e-mails and on their signing page (line breaks and tabs kept, no other control
    /// characters).
    #[schema(max_length = 2000, pattern = "^[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]*$")]
    pub message: Option<String>,
    /// Stamp duty for the first document (docs/stamps.md). `eStampType` `inventory`: from the
    /// tenant's stock, with `state`, `denomination` (0 takes the article's fixed duty),
    /// `articleCode`. `eStampType` `digital`: certificates the stamp provider issued under
    /// `providerRef` (at most 100 characters), fetched when the workflow starts; `state`, when
    /// given, must be theirs, and `denomination` 0. Both take `firstParty`, `secondParty`,
    /// `stampDutyPaidBy`, `descriptionOfDocument` (each at most 200 characters) and
    /// `suppressEstampPage`. Without `eStampType` it is kept as sent.
    pub stamp_details: Option<serde_json::Value>,
    pub list_attachment_details: Option<Vec<AttachmentDetails>>,
    pub signer_attachment_details: Option<Vec<SignerAttachmentDetail>>,
}

/// The spec's `ParallelSigningURL`: one signatory's link.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ParallelSigningURL)]
pub struct ParallelSigningUrl {
    #[schema(format = Int32)]
    pub sequence_number: i64,
    /// The signatory's id.
    pub identification_number: String,
    pub name: String,
    pub email_id: String,
    /// The signatory's mobile number in international form (`+919876543210`), when the
    /// initiator gave one (`mobileNo`).
    pub mobile_no: Option<String>,
    pub url: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InitiatedWorkflow {
    pub workflow_id: i64,
    pub signing_urls: Vec<ParallelSigningUrl>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowDocument {
    pub document_id: i64,
    pub document_name: String,
    pub pages: i64,
    pub state: String,
    /// SHA-256 of the uploaded file.
    pub original_sha256: String,
    /// SHA-256 of the newest version (with every signature so far).
    pub current_sha256: String,
    pub version: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowSignatory {
    pub signatory_id: i64,
    pub subscriber_id: i64,
    pub email_id: String,
    pub name: String,
    pub signing_order: i64,
    /// The signatory's mobile number in international form, when the initiator gave one
    /// (`mobileNo`): invitations and reminders are also texted there.
    pub mobile_no: Option<String>,
    /// The signatory confirms a code texted to `mobileNo` before signing (`otpBySms`).
    pub otp_by_sms: bool,
    /// pending, notified, viewed, signed, declined or delegated.
    pub state: String,
    pub reason: Option<String>,
    pub delegated_from: Option<i64>,
    pub notified_at: Option<i64>,
    pub viewed_at: Option<i64>,
    pub signed_at: Option<i64>,
}

/// A workflow with its documents and signatories. Times are milliseconds since the epoch.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowDetails {
    pub workflow_id: i64,
    pub workflow_name: String,
    pub reference_no: Option<String>,
    pub workflow_type: i64,
    pub template_id: Option<i64>,
    /// in_progress, completed, declined, expired, inactive or deleted.
    pub state: String,
    pub state_reason: Option<String>,
    pub current_signing_order: i64,
    pub linked_workflow_ids: Vec<i64>,
    pub category_id: Option<i64>,
    pub created_by: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub completed_at: Option<i64>,
    pub expires_at: Option<i64>,
    pub documents: Vec<WorkflowDocument>,
    pub signatories: Vec<WorkflowSignatory>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowSummary {
    pub workflow_id: i64,
    pub workflow_name: String,
    pub reference_no: Option<String>,
    pub state: String,
    pub current_signing_order: i64,
    pub created_at: i64,
    pub completed_at: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowPage {
    pub items: Vec<WorkflowSummary>,
    pub page_number: i64,
    pub page_size: i64,
    pub total_count: i64,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct WorkflowListQuery {
    /// From 1; default 1.
    #[param(minimum = 1, maximum = 2147483647)]
    pub page_number: Option<i64>,
    /// 1 to 100; default 20.
    #[param(minimum = 1, maximum = 100)]
    pub page_size: Option<i64>,
    /// One state: in_progress, completed, declined, expired, inactive.
    #[param(schema_with = crate::routes::schemas::workflow_list_state)]
    pub state: Option<String>,
    /// Part of the name or reference, case-insensitive (at most 200 characters).
    #[param(max_length = 200)]
    pub search_text: Option<String>,
}

/// One event of the workflow's chain.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowEvent {
    pub seq: i64,
    pub at: i64,
    pub actor: String,
    pub action: String,
    pub target: String,
    /// The client address the event came from, when known.
    pub ip: Option<String>,
    /// When set, what `hash` covers in place of `ip`: `ipc1:` + hex SHA-256 of the
    /// length-prefixed `ipNonce` and `ip` (addresses are kept sealed; docs/privacy.md).
    pub ip_commitment: Option<String>,
    /// The nonce of `ipCommitment`, when the address is known.
    pub ip_nonce: Option<String>,
    /// Event details (JSON).
    pub detail: serde_json::Value,
    pub prev_hash: String,
    pub hash: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowAudit {
    pub workflow_id: i64,
    /// Whether every link and hash of the chain checks out.
    pub verified: bool,
    /// The first entry that does not, and why.
    pub broken_at: Option<i64>,
    pub problem: Option<String>,
    pub events: Vec<WorkflowEvent>,
}

/// A signature field of a template: which signatory (1-based position in `signatories`),
/// which document (0-based position), where.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateField {
    /// 1 to 50 (a workflow's largest number of signatories).
    #[schema(format = Int32, minimum = 1, maximum = 50)]
    pub signatory: u32,
    #[serde(default)]
    pub document: Option<usize>,
    /// A page number, "first", "last" or "all" (default "last").
    #[serde(default)]
    #[schema(schema_with = crate::routes::schemas::template_page)]
    pub page: Option<serde_json::Value>,
    pub left: Option<f64>,
    pub top: Option<f64>,
    pub width: Option<f64>,
    pub height: Option<f64>,
    /// Instead of coordinates: text in the document below which the signature goes (signature
    /// boxes only).
    pub anchor: Option<String>,
    /// What the box is for: `signature` (the default), or a field filled in with the signature:
    /// `initials`, `date` (the signing date, India time), `name`, `email` (filled in by Signet),
    /// `text` (typed by the signer, up to 200 characters) or `checkbox` (ticked by the signer).
    /// Fields need `left`, `top`, `width` and `height`.
    #[serde(default)]
    #[schema(schema_with = crate::routes::schemas::field_kind)]
    pub kind: signet_domain::fields::FieldKind,
    /// The field's name on the signer page (fields only), at most 100 characters.
    #[schema(max_length = 100)]
    pub label: Option<String>,
    /// A `text` that must be filled in, a `checkbox` that must be ticked (fields only).
    #[serde(default)]
    pub required: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateDefinition {
    /// At most 500.
    #[serde(default)]
    #[schema(max_items = 500)]
    pub fields: Vec<TemplateField>,
    /// Default days until the envelope expires, when the initiator sets none.
    #[schema(format = Int64, minimum = 0, maximum = 4294967295_u64)]
    pub expiry_days: Option<u32>,
    /// Default reminder interval in days.
    #[schema(format = Int64, minimum = 0, maximum = 4294967295_u64)]
    pub reminder_frequency: Option<u32>,
}

/// The spec's `CreateTemplateRequest` (`menuName` is the template's name) with its definition.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateTemplateRequest {
    /// The template's name: 1 to 200 characters (trimmed), no control characters.
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        max_length = 200,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub menu_name: Option<String>,
    pub browser_info: Option<BrowserInfo>,
    #[schema(max_length = 2000)]
    pub description: Option<String>,
    pub definition: Option<TemplateDefinition>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Template {
    pub template_id: i64,
    pub menu_name: String,
    pub description: Option<String>,
    pub definition: TemplateDefinition,
    pub created_at: i64,
}

/// The request as the services take it; every rule is checked there.
fn initiate_request(body: &InitiateWorkFlowData) -> Result<InitiateWorkflow, Error> {
    Ok(InitiateWorkflow {
        template_id: i64::from(body.template_id),
        name: body.workflow_name.clone(),
        reference_no: body.reference_no.clone(),
        workflow_type: i64::from(body.workflow_type),
        document_ids: body.document_ids.iter().flatten().map(|id| i64::from(*id)).collect(),
        signatories: body
            .signatories
            .iter()
            .flatten()
            .map(|s| SignatoryInput {
                subscriber_id: i64::from(s.subscriber_id),
                email: s.email_id.clone(),
                name: s.name.clone(),
                signing_order: i64::from(s.signing_order),
                mode: s.mode_of_signature.clone(),
                mobile: s.mobile_no.clone(),
                otp_sms: s.otp_by_sms,
            })
            .collect(),
        hsm_certificate_id: named_profile(body.hsm_certificate_id),
        linked_workflow_id: i64::from(body.linked_workflow_id),
        redirect_url: body.redirect_url.clone(),
        envelope_expiry: body.envelope_expiry.clone().map(EnvelopeExpiry::At),
        reminder_frequency: body.reminder_frequency.map(i64::from),
        settings: settings(body),
        message: body.message.clone(),
        attachments: attachment_uploads(
            body.list_attachment_details.as_deref().unwrap_or_default(),
            body.signer_attachment_details.as_deref().unwrap_or_default(),
        ),
        stamp: stamp_details(body.stamp_details.as_ref())?,
        fields: Vec::new(),
        values: Default::default(),
        // InitiateWorkFlowData has no place for a language: each signer's browser decides.
        signer_lang: None,
    })
}

/// `stampDetails` as the stamp use case reads it. An object that names an `eStampType` is read
/// strictly (unknown keys refused); anything else is no stamp duty and is kept as sent.
fn stamp_details(value: Option<&serde_json::Value>) -> Result<Option<StampDetails>, Error> {
    let Some(object) = value.and_then(serde_json::Value::as_object) else { return Ok(None) };
    if object.get("eStampType").is_none_or(|t| t.is_null() || t.as_str() == Some("")) {
        return Ok(None);
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Sent {
        e_stamp_type: Option<String>,
        state: Option<String>,
        #[serde(default)]
        denomination: i64,
        article_code: Option<String>,
        first_party: Option<String>,
        second_party: Option<String>,
        stamp_duty_paid_by: Option<String>,
        description_of_document: Option<String>,
        #[serde(default)]
        suppress_estamp_page: bool,
        provider_ref: Option<String>,
    }
    let sent: Sent = serde_json::from_value(serde_json::Value::Object(object.clone()))
        .map_err(|e| Error::field("stampDetails", format!("is not a stamp request: {e}")))?;
    Ok(Some(StampDetails {
        e_stamp_type: sent.e_stamp_type,
        state: sent.state,
        denomination: sent.denomination,
        article_code: sent.article_code,
        first_party: sent.first_party,
        second_party: sent.second_party,
        paid_by: sent.stamp_duty_paid_by,
        description: sent.description_of_document,
        suppress_page: sent.suppress_estamp_page,
        provider_ref: sent.provider_ref,
    }))
}

/// The initiator's attachments and those asked of signers, with the fields they came in.
pub(crate) fn attachment_uploads(
    initiator: &[AttachmentDetails],
    requested: &[SignerAttachmentDetail],
) -> Vec<AttachmentUpload> {
    let sent = initiator.iter().enumerate().map(|(i, a)| AttachmentUpload {
        kind: "initiator",
        name_field: format!("listAttachmentDetails[{i}].documentName"),
        data_field: format!("listAttachmentDetails[{i}].base64fileData"),
        name: a.document_name.clone(),
        description: a.description.clone(),
        data: a.base64file_data.clone(),
    });
    let asked = requested.iter().enumerate().map(|(i, a)| AttachmentUpload {
        kind: "requested",
        name_field: format!("signerAttachmentDetails[{i}].documentName"),
        data_field: format!("signerAttachmentDetails[{i}].base64FileData"),
        name: a.document_name.clone(),
        description: a.description.clone(),
        data: a.base64_file_data.clone(),
    });
    sent.chain(asked).collect()
}

/// The signing profile `hsmCertificateId` names: 0 (the wire's default) names none.
fn named_profile(id: i32) -> Option<SigningProfileId> {
    (id != 0).then(|| SigningProfileId::from(i64::from(id)))
}

fn settings(body: &InitiateWorkFlowData) -> WorkflowSettings {
    WorkflowSettings {
        send_mail: body.send_mail,
        notify_customer: body.notify_customer,
        redirect_url: body.redirect_url.clone(),
        hsm_certificate_id: named_profile(body.hsm_certificate_id),
        as_sent: AsSent {
            check_email_notify: Some(body.check_email_notify),
            enable_auto_close_popup: Some(body.enable_auto_close_popup),
            reason: body.reason.clone(),
            location: body.location.clone(),
            third_party_params: body.third_party_params.clone(),
            e_sign_params: body.e_sign_params.clone(),
            geo_tagging: body.geo_tagging.clone(),
            initials: body.initials.clone(),
            stamp_details: body.stamp_details.clone(),
            ..AsSent::default()
        },
        ..WorkflowSettings::default()
    }
}

pub(crate) fn signing_url(state: &AppState, s: &SignatoryRow) -> ParallelSigningUrl {
    ParallelSigningUrl {
        sequence_number: s.signing_order,
        identification_number: s.id.to_string(),
        name: s.name.clone(),
        email_id: s.email.clone(),
        mobile_no: s.mobile.clone(),
        url: signer_url(&state.services, s),
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/workflows",
    tag = "workflows",
    security(("bearer" = [])),
    request_body = InitiateWorkFlowData,
    responses(
        (status = 201, description = "Started; the first signing group is notified", body = InitiatedWorkflow),
        (status = 400, description = "Invalid signatories, order, documents or fields; nothing stored", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn initiate(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<InitiateWorkFlowData>,
) -> ApiResult<(StatusCode, Json<InitiatedWorkflow>)> {
    let created = initiate::initiate(&state.services, &auth.caller(), initiate_request(&body)?).await?;
    let signing_urls = created.signatories.iter().map(|s| signing_url(&state, s)).collect();
    Ok((StatusCode::CREATED, Json(InitiatedWorkflow { workflow_id: created.workflow.id.get(), signing_urls })))
}

fn document_view(d: DocumentRow) -> WorkflowDocument {
    WorkflowDocument {
        document_id: d.id.get(),
        document_name: d.name,
        pages: d.page_count,
        state: d.state.to_string(),
        original_sha256: d.original_sha256,
        current_sha256: d.current_sha256,
        version: d.version,
    }
}

fn signatory_view(s: SignatoryRow) -> WorkflowSignatory {
    WorkflowSignatory {
        signatory_id: s.id.get(),
        subscriber_id: s.subscriber_id,
        email_id: s.email,
        name: s.name,
        signing_order: s.signing_order,
        mobile_no: s.mobile.clone(),
        otp_by_sms: s.otp_sms,
        state: s.state.to_string(),
        reason: s.reason,
        delegated_from: s.delegated_from.map(|id| id.get()),
        notified_at: s.notified_at,
        viewed_at: s.viewed_at,
        signed_at: s.signed_at,
    }
}

fn details_view(details: queries::Details) -> WorkflowDetails {
    let queries::Details { workflow: w, documents, signatories } = details;
    WorkflowDetails {
        workflow_id: w.id.get(),
        workflow_name: w.name,
        reference_no: w.reference_no,
        workflow_type: w.workflow_type,
        template_id: w.template_id.map(|id| id.get()),
        state: w.state.to_string(),
        state_reason: w.state_reason,
        current_signing_order: w.current_order,
        linked_workflow_ids: serde_json::from_str(&w.linked_ids).unwrap_or_default(),
        category_id: w.category_id,
        created_by: w.created_by,
        created_at: w.created_at,
        updated_at: w.updated_at,
        completed_at: w.completed_at,
        expires_at: w.expires_at,
        documents: documents.into_iter().map(document_view).collect(),
        signatories: signatories.into_iter().map(signatory_view).collect(),
    }
}

#[utoipa::path(
    get,
    path = "/api/v1/workflows/{workflowId}",
    operation_id = "getWorkflow",
    tag = "workflows",
    security(("bearer" = [])),
    params(("workflowId" = i32, Path, description = "Workflow id", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 200, description = "The workflow", body = WorkflowDetails),
        (status = 404, description = "No such workflow in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<Json<WorkflowDetails>> {
    Ok(Json(details_view(queries::details(&state.services, &auth.caller(), id.into()).await?)))
}

#[utoipa::path(
    get,
    path = "/api/v1/workflows",
    operation_id = "listWorkflows",
    tag = "workflows",
    security(("bearer" = [])),
    params(WorkflowListQuery),
    responses(
        (status = 200, description = "A page of the tenant's workflows, newest first", body = WorkflowPage),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(query): ApiQuery<WorkflowListQuery>,
) -> ApiResult<Json<WorkflowPage>> {
    let asked = queries::ListQuery {
        page_number: query.page_number,
        page_size: query.page_size,
        state: query.state.as_deref(),
        search_text: query.search_text.as_deref(),
    };
    let (rows, page, total_count) = queries::list(&state.services, &auth.caller(), &asked).await?;
    let items = rows
        .into_iter()
        .map(|w| WorkflowSummary {
            workflow_id: w.id.get(),
            workflow_name: w.name,
            reference_no: w.reference_no,
            state: w.state.to_string(),
            current_signing_order: w.current_order,
            created_at: w.created_at,
            completed_at: w.completed_at,
        })
        .collect();
    Ok(Json(WorkflowPage { items, page_number: page.number, page_size: page.size, total_count }))
}

fn event_view(e: AuditEntry) -> WorkflowEvent {
    let (ip, ip_commitment) = (e.client_ip().map(str::to_owned), e.ip_commitment().map(str::to_owned));
    WorkflowEvent {
        seq: e.seq,
        at: e.at,
        actor: e.actor,
        action: e.action,
        target: e.target,
        ip,
        ip_commitment,
        ip_nonce: e.ip_opening.map(|opening| opening.nonce),
        detail: serde_json::from_str(&e.detail).unwrap_or(serde_json::Value::String(e.detail)),
        prev_hash: e.prev_hash,
        hash: e.hash,
    }
}

#[utoipa::path(
    get,
    path = "/api/v1/workflows/{workflowId}/audit",
    tag = "workflows",
    security(("bearer" = [])),
    params(("workflowId" = i32, Path, description = "Workflow id", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 200, description = "Every event, hash-chained, with the chain's verification", body = WorkflowAudit),
        (status = 404, description = "No such workflow in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn audit(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<Json<WorkflowAudit>> {
    let (workflow, entries, check) = queries::audit(&state.services, &auth.caller(), id.into()).await?;
    Ok(Json(WorkflowAudit {
        workflow_id: workflow.id.get(),
        verified: check.is_ok(),
        broken_at: check.as_ref().err().map(|b| b.seq),
        problem: check.err().map(|b| b.reason),
        events: entries.into_iter().map(event_view).collect(),
    }))
}

#[utoipa::path(
    get,
    path = "/api/v1/workflows/{workflowId}/certificate",
    tag = "workflows",
    security(("bearer" = [])),
    params(("workflowId" = i32, Path, description = "Workflow id", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 200, description = "The completion certificate (PDF, sealed; the signed documents attached)", content_type = "application/pdf"),
        (status = 404, description = "No such workflow in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The workflow is not completed (yet)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn certificate(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<axum::response::Response> {
    use axum::response::IntoResponse;
    let pdf = queries::certificate(&state.services, &auth.caller(), id.into()).await?;
    let mut response = (StatusCode::OK, pdf).into_response();
    response
        .headers_mut()
        .insert(axum::http::header::CONTENT_TYPE, axum::http::HeaderValue::from_static("application/pdf"));
    Ok(response)
}

#[utoipa::path(
    get,
    path = "/api/v1/workflows/{workflowId}/evidence",
    tag = "workflows",
    security(("bearer" = [])),
    params(("workflowId" = i32, Path, description = "Workflow id", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 200, description = "The evidence pack (ZIP): the signed documents, the completion certificate, the workflow's event chain with its anchored head, the verifier's sealed ETSI report on each document, a sealed certificate under section 63 of the Bharatiya Sakshya Adhiniyam stating every file's SHA-256 (the certifier's fields left blank), and a manifest of every file's size and SHA-256; `signet evidence verify` checks it", content_type = "application/zip"),
        (status = 404, description = "No such workflow in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The workflow is not completed (yet)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn evidence(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<axum::response::Response> {
    let zip = signet_services::workflows::evidence::pack(&state.services, &auth.caller(), id.into()).await?;
    let name = format!("workflow-{id}-evidence.zip");
    Ok(signet_http::files::download_response(zip.into(), &name, "application/zip"))
}

fn template_view(row: signet_services::records::TemplateRow) -> Template {
    Template {
        template_id: row.id.get(),
        menu_name: row.name,
        description: row.description,
        definition: serde_json::from_str(&row.definition).unwrap_or_default(),
        created_at: row.created_at,
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/templates",
    tag = "workflows",
    security(("bearer" = [])),
    request_body = CreateTemplateRequest,
    responses(
        (status = 201, description = "Created", body = Template),
        (status = 400, description = "Invalid name or definition", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn create_template(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CreateTemplateRequest>,
) -> ApiResult<(StatusCode, Json<Template>)> {
    let definition = serde_json::to_value(body.definition.unwrap_or_default())
        .and_then(serde_json::from_value)
        .map_err(Error::internal)?;
    let row = templates::create(
        &state.services,
        &auth.caller(),
        body.menu_name.as_deref(),
        body.description.as_deref(),
        definition,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(template_view(row))))
}

/// The spec's `SimpleRequest`: a template looked up by its name (its menu name) from a channel,
/// for the optimized initiations that name templates by id (docs/decisions.md says why).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SimpleRequest {
    /// The template's name, ignoring case and surrounding spaces; no control characters.
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub name: String,
    /// The channel the request comes from, in the caller's words (`web`, `mobile`, a system's
    /// name): logged, not read. 1 to 50 characters, no control characters.
    #[schema(
        min_length = 1,
        max_length = 50,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub request_from: String,
}

/// The templates a lookup found.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateMatches {
    pub request_from: String,
    /// The caller's templates of that name (those granted to them, for users who are no
    /// administrators); empty when there are none.
    pub templates: Vec<Template>,
}

#[utoipa::path(
    post,
    path = "/api/v1/templates/find",
    operation_id = "findTemplates",
    tag = "workflows",
    security(("bearer" = [])),
    request_body = SimpleRequest,
    responses(
        (status = 200, description = "The caller's templates of that name", body = TemplateMatches),
        (status = 400, description = "A field breaks its rule (`validation_failed`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn find_templates(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<SimpleRequest>,
) -> ApiResult<Json<TemplateMatches>> {
    let found = templates::find_by_name(&state.services, &auth.caller(), &body.name, &body.request_from).await?;
    Ok(Json(TemplateMatches {
        request_from: body.request_from,
        templates: found.into_iter().map(template_view).collect(),
    }))
}

#[utoipa::path(
    get,
    path = "/api/v1/templates/{templateId}",
    tag = "workflows",
    security(("bearer" = [])),
    params(("templateId" = i32, Path, description = "Template id", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 200, description = "The template", body = Template),
        (status = 404, description = "No such template in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_template(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<Json<Template>> {
    let row = templates::template_for(&state.services, &auth.caller(), id).await?;
    Ok(Json(template_view(row)))
}
