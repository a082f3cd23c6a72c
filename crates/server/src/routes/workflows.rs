//! Workflows through the JSON API: initiate (documents + signatories in order), read, list,
//! the event chain, and templates that carry signature fields per signatory.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::audit::{AuditEntry, verify_chain};
use signet_domain::paging::Page;
use signet_domain::workflow::{SignatoryInput, WorkflowState, plan_signatories};
use signet_domain::{Error, FieldErrors, now_millis};
use signet_store::{
    CreatedWorkflow, DocumentRow, NewSignatory, NewWorkflow, NewWorkflowAttachment, SignatoryRow, WorkflowActor,
    WorkflowRow,
};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use utoipa::ToSchema;

use super::documents::{BrowserInfo, decode_base64, document_name};
use crate::AppState;
use crate::auth::Auth;
use crate::error::{ApiError, ApiResult, ProblemDetails};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::workflows::links::signer_url;
use crate::workflows::placement::{self, PlacedBox, Placement};

/// Largest attachment sent with a workflow.
pub const MAX_ATTACHMENT_BYTES: usize = 10 * 1024 * 1024;

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
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AttachmentDetails {
    pub base64file_data: String,
    pub document_name: String,
    pub description: Option<String>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SignerAttachmentDetail {
    #[serde(rename = "base64FileData")]
    pub base64_file_data: String,
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
    pub stamp_details: Option<serde_json::Value>,
    pub list_attachment_details: Option<Vec<AttachmentDetails>>,
    pub signer_attachment_details: Option<Vec<SignerAttachmentDetail>>,
}

/// The spec's `ParallelSigningURL`: one signatory's link.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParallelSigningUrl {
    pub sequence_number: i64,
    /// The signatory's id.
    pub identification_number: String,
    pub name: String,
    pub email_id: String,
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
    pub ip: Option<String>,
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
    /// Instead of coordinates: text in the document below which the signature goes.
    pub anchor: Option<String>,
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

fn parse_time(field: &str, text: &str) -> Result<i64, Error> {
    let at = OffsetDateTime::parse(text, &Rfc3339).map_err(|_| Error::field(field, "must be an ISO 8601 date-time"))?;
    Ok((at.unix_timestamp_nanos() / 1_000_000) as i64)
}

fn check_url(field: &str, url: &str) -> Result<(), Error> {
    let ok = (url.starts_with("https://") || url.starts_with("http://"))
        && url.len() <= 2000
        && !url.chars().any(|c| c.is_whitespace() || c.is_control());
    if ok { Ok(()) } else { Err(Error::field(field, "must be an absolute http(s) URL")) }
}

/// The placement of each signatory from the template's fields (or the default slots).
fn placements(definition: &TemplateDefinition, count: usize) -> Result<Vec<Placement>, Error> {
    let mut result: Vec<Placement> = (0..count).map(|slot| Placement { slot, ..Placement::default() }).collect();
    for (i, field) in definition.fields.iter().enumerate() {
        let name = format!("definition.fields[{i}]");
        let index = (field.signatory as usize).checked_sub(1).filter(|i| *i < count);
        let Some(target) = index.and_then(|i| result.get_mut(i)) else { continue };
        if let Some(anchor) = &field.anchor {
            target.anchor = Some(anchor.clone());
        }
        if let (Some(left), Some(top), Some(width), Some(height)) = (field.left, field.top, field.width, field.height) {
            let page = match &field.page {
                None => placement::PageRef::Word("last".into()),
                Some(page) => page_ref(page).map_err(|message| Error::field(&name, message))?,
            };
            target.boxes.push(PlacedBox { document: field.document, page, left, top, width, height });
        }
        placement::check(target).map_err(|message| Error::field(&name, message))?;
    }
    Ok(result)
}

/// A field's `page`: a page number or a word ("first", "last", "all").
fn page_ref(page: &serde_json::Value) -> Result<placement::PageRef, String> {
    let invalid = || "page must be a number, first, last or all".to_string();
    match page {
        serde_json::Value::Number(n) => {
            n.as_u64().and_then(|n| u32::try_from(n).ok()).map(placement::PageRef::Number).ok_or_else(invalid)
        }
        serde_json::Value::String(s) => Ok(placement::PageRef::Word(s.clone())),
        _ => Err(invalid()),
    }
}

fn check_definition(definition: &TemplateDefinition) -> Result<(), Error> {
    if definition.fields.len() > 500 {
        return Err(Error::field("definition.fields", "at most 500 fields"));
    }
    for (i, field) in definition.fields.iter().enumerate() {
        // A workflow has at most MAX_SIGNATORIES; larger numbers would also size the placements.
        if field.signatory == 0 || field.signatory as usize > signet_domain::workflow::MAX_SIGNATORIES {
            return Err(Error::field(
                &format!("definition.fields[{i}].signatory"),
                format!("signatories count from 1 to {}", signet_domain::workflow::MAX_SIGNATORIES),
            ));
        }
        // The page is checked even where the box is incomplete (and so not used).
        if let Some(page) = &field.page {
            let probe = |page| Placement {
                boxes: vec![PlacedBox { document: None, page, left: 0.0, top: 0.0, width: 10.0, height: 10.0 }],
                ..Placement::default()
            };
            page_ref(page)
                .and_then(|page| placement::check(&probe(page)))
                .map_err(|message| Error::field(&format!("definition.fields[{i}].page"), message))?;
        }
    }
    let max_signatory = definition.fields.iter().map(|f| f.signatory as usize).max().unwrap_or(0);
    placements(definition, max_signatory).map(|_| ())
}

pub(crate) struct Attachment {
    kind: &'static str,
    name: String,
    description: Option<String>,
    bytes: Vec<u8>,
}

/// The initiator's attachments and those asked of signers, decoded and checked.
pub(crate) fn decode_attachments(
    initiator: &[AttachmentDetails],
    requested: &[SignerAttachmentDetail],
) -> Result<Vec<Attachment>, Error> {
    let mut result = Vec::new();
    for (i, a) in initiator.iter().enumerate() {
        let field = format!("listAttachmentDetails[{i}]");
        result.push(Attachment {
            kind: "initiator",
            name: document_name(&format!("{field}.documentName"), Some(&a.document_name), "attachment")?,
            description: a.description.clone(),
            bytes: decode_base64(&format!("{field}.base64fileData"), Some(&a.base64file_data), MAX_ATTACHMENT_BYTES)?,
        });
    }
    for (i, a) in requested.iter().enumerate() {
        let field = format!("signerAttachmentDetails[{i}]");
        result.push(Attachment {
            kind: "requested",
            name: document_name(&format!("{field}.documentName"), Some(&a.document_name), "attachment")?,
            description: a.description.clone(),
            bytes: decode_base64(&format!("{field}.base64FileData"), Some(&a.base64_file_data), MAX_ATTACHMENT_BYTES)?,
        });
    }
    if result.len() > 20 {
        return Err(Error::field("listAttachmentDetails", "at most 20 attachments in all"));
    }
    Ok(result)
}

/// Everything `initiate` checks before it stores anything.
struct Checked {
    name: String,
    document_ids: Vec<i64>,
    signatories: Vec<NewSignatory>,
    expires_at: Option<i64>,
    reminder_every_days: Option<i64>,
    attachments: Vec<Attachment>,
}

async fn check_initiate(state: &AppState, auth: &Auth, body: &InitiateWorkFlowData) -> Result<Checked, Error> {
    let mut errors = FieldErrors::new();
    let mut note = |field: &str, message: &str| errors.entry(field.to_string()).or_default().push(message.to_string());
    let document_ids: Vec<i64> = body.document_ids.iter().flatten().map(|id| i64::from(*id)).collect();
    if document_ids.is_empty() {
        note("documentIds", "at least one uploaded document is required");
    }
    let unique: std::collections::HashSet<_> = document_ids.iter().collect();
    if unique.len() != document_ids.len() {
        note("documentIds", "a document is named twice");
    }
    if let Some(name) = &body.workflow_name
        && (name.chars().count() > 200 || name.chars().any(char::is_control))
    {
        note("workflowName", "must be at most 200 characters without control characters");
    }
    if let Some(reference) = &body.reference_no
        && reference.chars().count() > 200
    {
        note("referenceNo", "must be at most 200 characters");
    }
    if let Some(url) = body.redirect_url.as_deref().filter(|u| !u.is_empty())
        && let Err(Error::Validation(fields)) = check_url("redirectURL", url)
    {
        errors.extend(fields);
    }
    if let Some(days) = body.reminder_frequency
        && !(0..=365).contains(&days)
    {
        errors.entry("reminderFrequency".into()).or_default().push("must be 0 to 365 days".into());
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let inputs: Vec<SignatoryInput> = body
        .signatories
        .iter()
        .flatten()
        .map(|s| SignatoryInput {
            subscriber_id: i64::from(s.subscriber_id),
            email: s.email_id.clone(),
            name: s.name.clone(),
            signing_order: i64::from(s.signing_order),
        })
        .collect();
    let planned = plan_signatories(&inputs)?;
    for (i, p) in planned.iter().enumerate() {
        if p.subscriber_id != 0 {
            let email = state.store.tenant_user_email(auth.tenant_id, p.subscriber_id).await?;
            if !email.is_some_and(|e| e.eq_ignore_ascii_case(&p.email)) {
                return Err(Error::field(
                    &format!("signatories[{i}].subscriberId"),
                    "is not an active user of this tenant with this emailId (use 0 for outside signers)",
                ));
            }
        }
    }
    if body.hsm_certificate_id != 0 {
        let profile = state
            .store
            .active_signing_profile(auth.tenant_id, i64::from(body.hsm_certificate_id))
            .await?
            .ok_or_else(|| Error::field("hsmCertificateId", "no such active signing profile"))?;
        if !planned.iter().any(|p| p.email.eq_ignore_ascii_case(&profile.email)) {
            return Err(Error::field("hsmCertificateId", "the profile's signer is not among the signatories"));
        }
    }
    let definition = match body.template_id {
        0 => TemplateDefinition::default(),
        id if id < 0 => return Err(Error::field("templateId", "must be 0 or a template id")),
        id => {
            let template = state
                .store
                .template(auth.tenant_id, i64::from(id))
                .await?
                .ok_or_else(|| Error::field("templateId", "no such template"))?;
            serde_json::from_str(&template.definition).map_err(Error::internal)?
        }
    };
    let placements = placements(&definition, planned.len())?;
    let expires_at = match body.envelope_expiry.as_deref().filter(|t| !t.is_empty()) {
        Some(text) => {
            let at = parse_time("envelopeExpiry", text)?;
            if at <= now_millis() {
                return Err(Error::field("envelopeExpiry", "must be in the future"));
            }
            Some(at)
        }
        None => definition.expiry_days.map(|days| now_millis() + i64::from(days) * 86_400_000),
    };
    let reminder_every_days =
        body.reminder_frequency.map(i64::from).or(definition.reminder_frequency.map(i64::from)).filter(|d| *d > 0);
    let signatories = planned
        .into_iter()
        .zip(placements)
        .map(|(planned, placement)| NewSignatory {
            planned,
            placement: serde_json::to_value(placement).unwrap_or_default(),
        })
        .collect();
    let name = body.workflow_name.as_deref().map(str::trim).filter(|n| !n.is_empty()).unwrap_or("Untitled").to_string();
    Ok(Checked {
        name,
        document_ids,
        signatories,
        expires_at,
        reminder_every_days,
        attachments: decode_attachments(
            body.list_attachment_details.as_deref().unwrap_or_default(),
            body.signer_attachment_details.as_deref().unwrap_or_default(),
        )?,
    })
}

fn settings(body: &InitiateWorkFlowData) -> serde_json::Value {
    serde_json::json!({
        "sendMail": body.send_mail,
        "notifyCustomer": body.notify_customer,
        "checkEmailNotify": body.check_email_notify,
        "enableAutoClosePopup": body.enable_auto_close_popup,
        "redirectURL": body.redirect_url,
        "reason": body.reason,
        "location": body.location,
        "thirdPartyParams": body.third_party_params,
        "eSignParams": body.e_sign_params,
        "geoTagging": body.geo_tagging,
        "initials": body.initials,
        "stampDetails": body.stamp_details,
        "hsmCertificateId": body.hsm_certificate_id,
    })
}

pub(crate) fn actor_of(auth: &Auth) -> WorkflowActor {
    let actor = auth.actor();
    WorkflowActor { id: actor.id, ip: actor.ip }
}

pub(crate) fn signing_url(state: &AppState, s: &SignatoryRow) -> ParallelSigningUrl {
    ParallelSigningUrl {
        sequence_number: s.signing_order,
        identification_number: s.id.to_string(),
        name: s.name.clone(),
        email_id: s.email.clone(),
        mobile_no: None,
        url: signer_url(state, s),
    }
}

/// Writes the attachments' files before any row exists (rows follow in the workflow's one
/// transaction, see [`create_workflow`]); if one write fails, the files written so far are
/// removed and nothing else has happened.
pub(crate) async fn put_attachment_files(
    state: &AppState,
    tenant_id: i64,
    attachments: Vec<Attachment>,
) -> Result<Vec<NewWorkflowAttachment>, Error> {
    let mut stored: Vec<NewWorkflowAttachment> = Vec::with_capacity(attachments.len());
    for a in attachments {
        let file = crate::secrets::random_token(16);
        let key = signet_blob::BlobKey::new(["tenant", &tenant_id.to_string(), "attachments", &file])
            .map_err(Error::internal)?;
        let sha256 = hex::encode(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &a.bytes).as_ref());
        let size_bytes = a.bytes.len() as i64;
        if let Err(error) = state.blob.put(&key, bytes::Bytes::from(a.bytes)).await {
            remove_attachment_files(state, &stored).await;
            return Err(Error::internal(error));
        }
        stored.push(NewWorkflowAttachment {
            kind: a.kind,
            name: a.name,
            description: a.description,
            blob_key: key.as_str().to_string(),
            sha256,
            size_bytes,
        });
    }
    Ok(stored)
}

pub(crate) async fn remove_attachment_files(state: &AppState, stored: &[NewWorkflowAttachment]) {
    for key in stored.iter().filter_map(|a| signet_blob::BlobKey::parse(&a.blob_key).ok()) {
        if let Err(error) = state.blob.delete(&key).await {
            tracing::warn!(%error, "an attachment file of a workflow that was not created could not be removed");
        }
    }
}

/// Creates the workflow in one transaction with its attachments (files written first); when
/// the transaction fails, the files are removed again.
pub(crate) async fn create_workflow(
    state: &AppState,
    new: &NewWorkflow<'_>,
    actor: &WorkflowActor,
) -> Result<CreatedWorkflow, Error> {
    match state.store.create_workflow(new, actor).await {
        Ok(created) => Ok(created),
        Err(error) => {
            remove_attachment_files(state, &new.attachments).await;
            Err(error)
        }
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
    let checked = check_initiate(&state, &auth, &body).await?;
    let link_expires_at =
        checked.expires_at.unwrap_or_else(|| now_millis() + state.config.signer_link_ttl_secs as i64 * 1000);
    let linked = if body.linked_workflow_id > 0 {
        state
            .store
            .workflow(auth.tenant_id, i64::from(body.linked_workflow_id))
            .await?
            .ok_or_else(|| ApiError(Error::field("linkedWorkflowId", "no such workflow")))?;
        vec![i64::from(body.linked_workflow_id)]
    } else {
        Vec::new()
    };
    let new = NewWorkflow {
        tenant_id: auth.tenant_id,
        template_id: (body.template_id > 0).then_some(i64::from(body.template_id)),
        name: &checked.name,
        reference_no: body.reference_no.as_deref(),
        workflow_type: i64::from(body.workflow_type),
        settings: settings(&body),
        reminder_every_days: checked.reminder_every_days,
        expires_at: checked.expires_at,
        linked_ids: linked,
        document_ids: checked.document_ids,
        signatories: checked.signatories,
        link_expires_at,
        attachments: put_attachment_files(&state, auth.tenant_id, checked.attachments).await?,
    };
    let created = create_workflow(&state, &new, &actor_of(&auth)).await?;
    let signing_urls = created.signatories.iter().map(|s| signing_url(&state, s)).collect();
    Ok((StatusCode::CREATED, Json(InitiatedWorkflow { workflow_id: created.workflow.id, signing_urls })))
}

fn document_view(d: DocumentRow) -> WorkflowDocument {
    WorkflowDocument {
        document_id: d.id,
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
        signatory_id: s.id,
        subscriber_id: s.subscriber_id,
        email_id: s.email,
        name: s.name,
        signing_order: s.signing_order,
        state: s.state.to_string(),
        reason: s.reason,
        delegated_from: s.delegated_from,
        notified_at: s.notified_at,
        viewed_at: s.viewed_at,
        signed_at: s.signed_at,
    }
}

/// The tenant's workflow, unless deleted (another tenant's id is not found either).
pub async fn visible_workflow(state: &AppState, tenant_id: i64, id: i64) -> Result<WorkflowRow, Error> {
    state
        .store
        .workflow(tenant_id, id)
        .await?
        .filter(|w| w.state() != WorkflowState::Deleted)
        .ok_or_else(|| Error::not_found("workflow"))
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
    let w = visible_workflow(&state, auth.tenant_id, id).await?;
    let documents = state.store.workflow_documents(w.id).await?.into_iter().map(document_view).collect();
    let signatories = state.store.signatories(w.id).await?.into_iter().map(signatory_view).collect();
    Ok(Json(WorkflowDetails {
        workflow_id: w.id,
        workflow_name: w.name,
        reference_no: w.reference_no,
        workflow_type: w.workflow_type,
        template_id: w.template_id,
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
        documents,
        signatories,
    }))
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
    let page = Page::parse(query.page_number, query.page_size)?;
    if let Some(s) = query.state.as_deref()
        && (WorkflowState::parse(s).is_none() || s == "deleted")
    {
        return Err(ApiError(Error::field("state", "must be in_progress, completed, declined, expired or inactive")));
    }
    let search = query.search_text.as_deref().map(str::trim).filter(|s| !s.is_empty());
    if search.is_some_and(|s| s.chars().count() > 200) {
        return Err(ApiError(Error::field("searchText", "must be at most 200 characters")));
    }
    let (rows, total_count) =
        state.store.workflows(auth.tenant_id, query.state.as_deref(), search, page.offset(), page.size).await?;
    let items = rows
        .into_iter()
        .map(|w| WorkflowSummary {
            workflow_id: w.id,
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
    WorkflowEvent {
        seq: e.seq,
        at: e.at,
        actor: e.actor,
        action: e.action,
        target: e.target,
        ip: e.ip,
        detail: serde_json::from_str(&e.detail).unwrap_or(serde_json::Value::String(e.detail)),
        prev_hash: e.prev_hash,
        hash: e.hash,
    }
}

/// The workflow's chain, checked.
pub async fn audit_of(state: &AppState, workflow: &WorkflowRow) -> Result<WorkflowAudit, Error> {
    let entries = state.store.workflow_events(workflow.id).await?;
    let check = verify_chain(workflow.id, &entries);
    Ok(WorkflowAudit {
        workflow_id: workflow.id,
        verified: check.is_ok(),
        broken_at: check.as_ref().err().map(|b| b.seq),
        problem: check.err().map(|b| b.reason),
        events: entries.into_iter().map(event_view).collect(),
    })
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
    let workflow = visible_workflow(&state, auth.tenant_id, id).await?;
    Ok(Json(audit_of(&state, &workflow).await?))
}

/// All documents of a workflow in one PDF: the completion certificate with each signed file
/// attached unchanged (the kept one once the workflow is complete, else the state so far).
pub async fn merged_pdf(
    state: &AppState,
    workflow: &WorkflowRow,
    _documents: &[DocumentRow],
) -> Result<Vec<u8>, Error> {
    if let Some(key) = workflow.certificate_blob.as_deref().and_then(|k| signet_blob::BlobKey::parse(k).ok()) {
        return Ok(state.blob.get(&key).await.map_err(Error::internal)?.to_vec());
    }
    crate::workflows::certificate::certificate_pdf(state, workflow).await
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
    let workflow = visible_workflow(&state, auth.tenant_id, id).await?;
    if workflow.state() != WorkflowState::Completed {
        return Err(ApiError(Error::rejected(
            signet_domain::ErrorCode::StateConflict,
            "the workflow is not completed",
        )));
    }
    let pdf = merged_pdf(&state, &workflow, &[]).await?;
    let mut response = (StatusCode::OK, pdf).into_response();
    response
        .headers_mut()
        .insert(axum::http::header::CONTENT_TYPE, axum::http::HeaderValue::from_static("application/pdf"));
    Ok(response)
}

fn template_view(row: signet_store::TemplateRow) -> Template {
    Template {
        template_id: row.id,
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
    let name = body.menu_name.as_deref().map(str::trim).unwrap_or("");
    if name.is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
        return Err(ApiError(Error::field("menuName", "must be 1 to 200 characters without control characters")));
    }
    if body.description.as_ref().is_some_and(|d| d.chars().count() > 2000) {
        return Err(ApiError(Error::field("description", "must be at most 2000 characters")));
    }
    let definition = body.definition.unwrap_or_default();
    check_definition(&definition)?;
    let json = serde_json::to_value(&definition).map_err(Error::internal)?;
    let row =
        state.store.create_template(auth.tenant_id, name, body.description.as_deref(), &json, &auth.actor()).await?;
    Ok((StatusCode::CREATED, Json(template_view(row))))
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
    let row = state.store.template(auth.tenant_id, id).await?.ok_or_else(|| ApiError(Error::not_found("template")))?;
    Ok(Json(template_view(row)))
}
