//! Starting a workflow: everything the request names is checked before anything is stored
//! (signatories and their order, users of the tenant, the automated-signing profile, the
//! template's fields, expiry, attachments); the attachments' files are written first and the
//! workflow, its signatories, documents and attachments are created in one transaction.

use signet_domain::access::Permission;
use signet_domain::audit::Actor;
use signet_domain::authority::signing::{ProfileOwner, SigningBy, may_sign_with};
use signet_domain::workflow::{SignatoryInput, plan_signatories};
use signet_domain::workflow_settings::WorkflowSettings;
use signet_domain::{
    DocumentId, Error, FieldErrors, PrincipalId, SigningProfileId, TemplateId, TenantId, WorkflowId, now_millis,
};
use signet_store::{CreatedWorkflow, NewSignatory, NewWorkflow, NewWorkflowAttachment};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::templates::{TemplateDefinition, placements};
use crate::workflows::documents::{decode_base64, document_name};
use crate::{Caller, Services};

/// Largest attachment sent with a workflow.
pub const MAX_ATTACHMENT_BYTES: usize = 10 * 1024 * 1024;

/// What an initiator asks for (the API's `InitiateWorkFlowData`, its fields as sent).
pub struct InitiateWorkflow {
    pub template_id: i64,
    pub name: Option<String>,
    pub reference_no: Option<String>,
    pub workflow_type: i64,
    pub document_ids: Vec<i64>,
    pub signatories: Vec<SignatoryInput>,
    /// The organisation's signing profile to sign with (`hsmCertificateId`; the API's 0 is none).
    pub hsm_certificate_id: Option<SigningProfileId>,
    pub linked_workflow_id: i64,
    pub redirect_url: Option<String>,
    /// When the envelope expires; none: the template's default, if any.
    pub envelope_expiry: Option<EnvelopeExpiry>,
    pub reminder_frequency: Option<i64>,
    /// The options kept with the workflow (mail, redirect, reason, ...); `message` is set
    /// from [`InitiateWorkflow::message`].
    pub settings: WorkflowSettings,
    /// The sender's message to the signers, in their invitations and on their signing page.
    pub message: Option<String>,
    pub attachments: Vec<AttachmentUpload>,
    /// `stampDetails`: stamp duty from the tenant's inventory for the first document.
    pub stamp: Option<crate::stamps::StampDetails>,
    /// Signature fields placed with the request itself (the console's placement screen),
    /// used as a template's would be; only without `template_id`.
    pub fields: Vec<super::templates::TemplateField>,
    /// The sender's values of the template's text and date fields, by label (a bulk send's row).
    pub values: super::templates::FieldValues,
    /// The language of the signer pages and e-mails (the console's choice; the API's objects
    /// have no place for it, so there each signer's browser decides).
    pub signer_lang: Option<signet_domain::Lang>,
}

/// When an envelope expires, as the sender put it; checked by [`initiate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvelopeExpiry {
    /// This many days after the workflow starts (the console's choice), 1 to 365.
    InDays(u32),
    /// At this RFC 3339 date-time, the API's `envelopeExpiry` as sent (empty: no expiry given).
    /// Kept as text so that a bad one is reported in its turn among the request's checks.
    At(String),
}

/// The longest expiry in days a sender may choose.
pub const MAX_EXPIRY_DAYS: u32 = 365;

/// An attachment as sent: base64 data, with the field names to report problems under.
pub struct AttachmentUpload {
    /// `initiator` (sent with the workflow) or `requested` (asked of signers).
    pub kind: &'static str,
    pub name_field: String,
    pub data_field: String,
    pub name: String,
    pub description: Option<String>,
    pub data: String,
}

/// A decoded attachment, ready to store.
pub struct Attachment {
    kind: &'static str,
    name: String,
    description: Option<String>,
    bytes: Vec<u8>,
}

pub fn parse_time(field: &str, text: &str) -> Result<i64, Error> {
    let at = OffsetDateTime::parse(text, &Rfc3339).map_err(|_| Error::field(field, "must be an ISO 8601 date-time"))?;
    Ok((at.unix_timestamp_nanos() / 1_000_000) as i64)
}

pub fn check_url(field: &str, url: &str) -> Result<(), Error> {
    let ok = (url.starts_with("https://") || url.starts_with("http://"))
        && url.len() <= 2000
        && !url.chars().any(|c| c.is_whitespace() || c.is_control());
    if ok { Ok(()) } else { Err(Error::field(field, "must be an absolute http(s) URL")) }
}

/// The initiator's attachments and those asked of signers, decoded and checked.
pub fn decode_attachments(uploads: &[AttachmentUpload]) -> Result<Vec<Attachment>, Error> {
    let mut result = Vec::new();
    for a in uploads {
        if a.name.trim().is_empty() {
            return Err(Error::field(&a.name_field, "is required: the attachment's file name"));
        }
        result.push(Attachment {
            kind: a.kind,
            name: document_name(&a.name_field, Some(&a.name), "attachment")?,
            description: a.description.clone(),
            bytes: decode_base64(&a.data_field, Some(&a.data), MAX_ATTACHMENT_BYTES)?,
        });
    }
    if result.len() > 20 {
        return Err(Error::field("listAttachmentDetails", "at most 20 attachments in all"));
    }
    Ok(result)
}

/// Everything [`initiate`] checks before it stores anything.
struct Checked {
    name: String,
    document_ids: Vec<DocumentId>,
    /// Each planned signatory with their placement.
    signatories: Vec<NewSignatory>,
    expires_at: Option<i64>,
    reminder_every_days: Option<i64>,
    attachments: Vec<Attachment>,
}

/// The checks that need nothing but the request, all reported at once.
fn check_fields(request: &InitiateWorkflow) -> Result<(), Error> {
    let mut errors = FieldErrors::new();
    let mut note = |field: &str, message: &str| errors.entry(field.to_string()).or_default().push(message.to_string());
    if request.document_ids.is_empty() {
        note("documentIds", "at least one uploaded document is required");
    }
    let unique: std::collections::HashSet<_> = request.document_ids.iter().collect();
    if unique.len() != request.document_ids.len() {
        note("documentIds", "a document is named twice");
    }
    if let Some(name) = &request.name
        && (name.chars().count() > 200 || name.chars().any(char::is_control))
    {
        note("workflowName", "must be at most 200 characters without control characters");
    }
    if let Some(reference) = &request.reference_no
        && reference.chars().count() > 200
    {
        note("referenceNo", "must be at most 200 characters");
    }
    if let Some(url) = request.redirect_url.as_deref().filter(|u| !u.is_empty())
        && let Err(Error::Validation(fields)) = check_url("redirectURL", url)
    {
        errors.extend(fields);
    }
    if let Some(days) = request.reminder_frequency
        && !(0..=365).contains(&days)
    {
        errors.entry("reminderFrequency".into()).or_default().push("must be 0 to 365 days".into());
    }
    if let Some(message) = &request.message
        && let Err(why) = signet_domain::workflow::check_message(message)
    {
        errors.entry("message".into()).or_default().push(why.into());
    }
    if errors.is_empty() { Ok(()) } else { Err(Error::Validation(errors)) }
}

/// The signatories with a tenant user id must be that user, by e-mail.
async fn check_users(
    svc: &Services,
    tenant_id: TenantId,
    planned: &[signet_domain::workflow::PlannedSignatory],
) -> Result<(), Error> {
    for (i, p) in planned.iter().enumerate() {
        if p.subscriber_id != 0 {
            let email = svc.store.tenant_user_email(tenant_id, PrincipalId::from(p.subscriber_id)).await?;
            if !email.is_some_and(|e| e.eq_ignore_ascii_case(&p.email)) {
                return Err(Error::field(
                    &format!("signatories[{i}].subscriberId"),
                    "is not an active user of this tenant with this emailId (use 0 for outside signers)",
                ));
            }
        }
    }
    Ok(())
}

/// A signing profile named by the request (`hsmCertificateId`) must be an active profile of
/// the organisation (never a user's own certificate: `authority::signing`) whose signer is
/// among the signatories. Every refusal reads the same, so that ids cannot be probed.
async fn check_profile(
    svc: &Services,
    tenant_id: TenantId,
    profile_id: Option<SigningProfileId>,
    planned: &[signet_domain::workflow::PlannedSignatory],
) -> Result<(), Error> {
    let Some(profile_id) = profile_id else { return Ok(()) };
    let profile = svc.store.active_signing_profile(tenant_id, profile_id).await?;
    let usable = profile.is_some_and(|profile| {
        may_sign_with(ProfileOwner::of(profile.owner_id), SigningBy::NamedProfile)
            && planned.iter().any(|p| p.email.eq_ignore_ascii_case(&profile.email))
    });
    if !usable {
        return Err(Error::field(
            "hsmCertificateId",
            "is not an active signing profile of the organisation whose signer is among the signatories",
        ));
    }
    Ok(())
}

async fn template_definition(
    svc: &Services,
    tenant_id: TenantId,
    template_id: i64,
    fields: &[super::templates::TemplateField],
) -> Result<TemplateDefinition, Error> {
    if template_id != 0 && !fields.is_empty() {
        return Err(Error::field("templateId", "fields are placed either by a template or with the request"));
    }
    match template_id {
        0 => Ok(TemplateDefinition { fields: fields.to_vec(), ..TemplateDefinition::default() }),
        id if id < 0 => Err(Error::field("templateId", "must be 0 or a template id")),
        id => Ok(super::templates::read(svc, tenant_id, id).await?.1),
    }
}

/// When the envelope expires: as asked, else after the template's default days, else never.
fn expiry(request: &InitiateWorkflow, definition: &TemplateDefinition) -> Result<Option<i64>, Error> {
    match &request.envelope_expiry {
        Some(EnvelopeExpiry::At(text)) if !text.is_empty() => expiry_at(text).map(Some),
        Some(EnvelopeExpiry::InDays(days)) => expiry_in_days(*days).map(Some),
        _ => Ok(definition.expiry_days.map(days_from_now)),
    }
}

fn expiry_at(text: &str) -> Result<i64, Error> {
    let at = parse_time("envelopeExpiry", text)?;
    if at <= now_millis() {
        return Err(Error::field("envelopeExpiry", "must be in the future"));
    }
    Ok(at)
}

fn expiry_in_days(days: u32) -> Result<i64, Error> {
    if !(1..=MAX_EXPIRY_DAYS).contains(&days) {
        return Err(Error::field("envelopeExpiry", format!("must be 1 to {MAX_EXPIRY_DAYS} days")));
    }
    Ok(days_from_now(days))
}

fn days_from_now(days: u32) -> i64 {
    now_millis() + i64::from(days) * 86_400_000
}

async fn check(svc: &Services, tenant_id: TenantId, request: &InitiateWorkflow) -> Result<Checked, Error> {
    check_fields(request)?;
    let planned = plan_signatories(&request.signatories)?;
    super::offered::check_offered(svc, &planned)?;
    check_users(svc, tenant_id, &planned).await?;
    check_profile(svc, tenant_id, request.hsm_certificate_id, &planned).await?;
    let definition = template_definition(svc, tenant_id, request.template_id, &request.fields).await?;
    let mut placements = placements(&definition, planned.len())?;
    super::templates::apply_values(&mut placements, &request.values)?;
    let expires_at = expiry(request, &definition)?;
    let reminder_every_days =
        request.reminder_frequency.or(definition.reminder_frequency.map(i64::from)).filter(|d| *d > 0);
    let signatories =
        planned.into_iter().zip(placements).map(|(planned, placement)| NewSignatory { planned, placement }).collect();
    let name = request.name.as_deref().map(str::trim).filter(|n| !n.is_empty()).unwrap_or("Untitled").to_string();
    Ok(Checked {
        name,
        document_ids: request.document_ids.iter().copied().map(DocumentId::from).collect(),
        signatories,
        expires_at,
        reminder_every_days,
        attachments: decode_attachments(&request.attachments)?,
    })
}

/// Whether `request` would start a workflow (every check of [`initiate`] that stores nothing,
/// the stamp duty's stock included; the stamp provider is asked only when it starts).
pub async fn validate(svc: &Services, tenant_id: TenantId, request: &InitiateWorkflow) -> Result<(), Error> {
    check(svc, tenant_id, request).await?;
    match request.stamp.clone() {
        Some(details) => crate::stamps::check_details(svc, tenant_id, details).await,
        None => Ok(()),
    }
}

/// Starts a workflow for the caller, from a template only when they may use it
/// (`authority::templates`); the first signing group is notified by the `workflow.started`
/// event.
pub async fn initiate(svc: &Services, caller: &Caller, request: InitiateWorkflow) -> Result<CreatedWorkflow, Error> {
    caller.require(Permission::SendWorkflows)?;
    if request.template_id != 0 {
        super::templates::read_for(svc, caller, request.template_id).await?;
    }
    start(svc, caller.tenant_id, &caller.actor, request).await
}

/// Starts a workflow whose caller was checked before (a bulk job's row, checked when the job
/// was submitted).
pub(crate) async fn start(
    svc: &Services,
    tenant_id: TenantId,
    actor: &Actor,
    request: InitiateWorkflow,
) -> Result<CreatedWorkflow, Error> {
    let mut checked = check(svc, tenant_id, &request).await?;
    let stamp = match request.stamp.clone() {
        Some(details) => crate::stamps::request_from_details(svc, tenant_id, details).await?,
        None => None,
    };
    let held = match stamp {
        Some(order) => Some(crate::stamps::take(svc, tenant_id, actor, order).await?),
        None => None,
    };
    if let Some(held) = &held
        && let Err(error) = stamp_first_document(svc, tenant_id, actor, held, &mut checked).await
    {
        crate::stamps::release(svc, tenant_id, held).await;
        return Err(error);
    }
    let created = create_checked(svc, tenant_id, actor, request, checked, held.as_ref()).await;
    if created.is_err()
        && let Some(held) = &held
    {
        crate::stamps::release(svc, tenant_id, held).await;
    }
    created
}

/// Puts the held stamp papers' pages in front of the first document: a copy of the upload with
/// the pages is stored and takes its place in the workflow (the upload stays as it was), and
/// the signatories' boxes on it move along. Nothing to do when the page is suppressed.
async fn stamp_first_document(
    svc: &Services,
    tenant_id: TenantId,
    actor: &Actor,
    held: &crate::stamps::Held,
    checked: &mut Checked,
) -> Result<(), Error> {
    let Some(first) = checked.document_ids.first().copied() else { return Ok(()) };
    let document = svc
        .store
        .document(tenant_id, first)
        .await?
        .filter(|d| d.workflow_id.is_none() && d.state == signet_domain::workflow::DocumentState::Active)
        .ok_or_else(|| {
            Error::field(
                "documentIds",
                format!("document {first} does not exist, is inactive or already belongs to a workflow"),
            )
        })?;
    let bytes = svc.blob.get(&signet_blob::BlobKey::parse(&document.current_blob)?).await?.to_vec();
    let pdf = crate::workflows::documents::CheckedPdf {
        name: document.name.clone(),
        sha256: document.current_sha256.clone(),
        pages: document.page_count,
        bytes,
    };
    let (stamped, added) = crate::stamps::stamp_document(svc, tenant_id, held, pdf).await?;
    if added == 0 {
        return Ok(());
    }
    let copy = crate::workflows::documents::store_document(
        svc,
        tenant_id,
        actor,
        stamped,
        document.category_id,
        document.reference_no.as_deref(),
    )
    .await?;
    checked.document_ids[0] = copy.id;
    let documents = checked.document_ids.len();
    for signatory in &mut checked.signatories {
        super::placement::shift_first_document(&mut signatory.placement, added, documents);
    }
    Ok(())
}

/// The settings with the sender's message (trimmed; none when blank).
fn with_message(mut settings: WorkflowSettings, message: Option<&str>) -> WorkflowSettings {
    if let Some(message) = message.map(str::trim).filter(|m| !m.is_empty()) {
        settings.message = Some(message.to_string());
    }
    settings
}

/// The sender's message to the signers of `workflow`, when it was sent with one.
pub fn message_of(workflow: &signet_store::WorkflowRow) -> Option<String> {
    workflow.settings.message.clone()
}

async fn create_checked(
    svc: &Services,
    tenant_id: TenantId,
    actor: &Actor,
    request: InitiateWorkflow,
    checked: Checked,
    held: Option<&crate::stamps::Held>,
) -> Result<CreatedWorkflow, Error> {
    let link_expires_at =
        checked.expires_at.unwrap_or_else(|| now_millis() + svc.config.signer_link_ttl_secs as i64 * 1000);
    let linked = if request.linked_workflow_id > 0 {
        svc.store
            .workflow(tenant_id, WorkflowId::from(request.linked_workflow_id))
            .await?
            .ok_or_else(|| Error::field("linkedWorkflowId", "no such workflow"))?;
        vec![WorkflowId::from(request.linked_workflow_id)]
    } else {
        Vec::new()
    };
    let new = NewWorkflow {
        tenant_id,
        template_id: (request.template_id > 0).then_some(TemplateId::from(request.template_id)),
        name: &checked.name,
        reference_no: request.reference_no.as_deref(),
        workflow_type: request.workflow_type,
        settings: with_message(request.settings, request.message.as_deref()),
        reminder_every_days: checked.reminder_every_days,
        expires_at: checked.expires_at,
        linked_ids: linked,
        document_ids: checked.document_ids,
        signatories: checked.signatories,
        link_expires_at,
        attachments: put_attachment_files(svc, tenant_id, checked.attachments).await?,
        stamps: held.map(crate::stamps::Held::claim),
        signer_lang: request.signer_lang,
    };
    create_workflow(svc, &new, actor).await
}

/// Writes the attachments' files before any row exists (rows follow in the workflow's one
/// transaction, see [`create_workflow`]); if one write fails, the files written so far are
/// removed and nothing else has happened.
pub async fn put_attachment_files(
    svc: &Services,
    tenant_id: TenantId,
    attachments: Vec<Attachment>,
) -> Result<Vec<NewWorkflowAttachment>, Error> {
    let mut stored: Vec<NewWorkflowAttachment> = Vec::with_capacity(attachments.len());
    for a in attachments {
        let file = crate::platform::secrets::random_token(16);
        let key = signet_blob::BlobKey::new(["tenant", &tenant_id.to_string(), "attachments", &file])?;
        let sha256 = crate::workflows::documents::sha256_hex(&a.bytes);
        let size_bytes = a.bytes.len() as i64;
        if let Err(error) = svc.blob.put(&key, bytes::Bytes::from(a.bytes)).await {
            remove_attachment_files(svc, &stored).await;
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

pub async fn remove_attachment_files(svc: &Services, stored: &[NewWorkflowAttachment]) {
    for key in stored.iter().filter_map(|a| signet_blob::BlobKey::parse(&a.blob_key).ok()) {
        if let Err(error) = svc.blob.delete(&key).await {
            tracing::warn!(%error, "an attachment file of a workflow that was not created could not be removed");
        }
    }
}

/// Creates the workflow in one transaction with its attachments (files written first); when
/// the transaction fails, the files are removed again.
pub async fn create_workflow(svc: &Services, new: &NewWorkflow<'_>, actor: &Actor) -> Result<CreatedWorkflow, Error> {
    let allowed = crate::people::trial::allow(svc, new.tenant_id, crate::people::trial::Making::Workflow).await;
    let created = match allowed {
        Ok(()) => svc.store.create_workflow(new, actor).await,
        Err(refused) => Err(refused),
    };
    match created {
        Ok(created) => Ok(created),
        Err(error) => {
            remove_attachment_files(svc, &new.attachments).await;
            Err(error)
        }
    }
}
