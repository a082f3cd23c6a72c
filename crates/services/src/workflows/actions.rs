//! What a sender (or a signatory using the API) does to a running workflow: delegate,
//! decline, revoke a signer's link, link workflows, make inactive, delete; and to its
//! documents: comments, categories, inactive, attachments, summaries. Each change is an event
//! in the workflow's chain (written by the store in the change's transaction).

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::access::Permission;
use signet_domain::phone::PHONE_REFUSAL;
use signet_domain::workflow::{DocumentState, WorkflowState, is_valid_email};
use signet_domain::{AttachmentId, DocumentId, Error, ErrorCode, SignatoryId, TenantId, WorkflowId};
use signet_store::{Delegate, SignatoryRow, WorkflowRow};

use super::otp::DelegateMobileRefusal;
use crate::{Caller, Services};

/// Sentences in a summary.
const SUMMARY_SENTENCES: usize = 5;
/// Text read for a summary.
const SUMMARY_MAX_CHARS: usize = 200_000;

/// The tenant's workflow, unless deleted (another tenant's id is not found either).
pub async fn visible_workflow(svc: &Services, tenant_id: TenantId, id: WorkflowId) -> Result<WorkflowRow, Error> {
    svc.store
        .workflow(tenant_id, id)
        .await?
        .filter(|w| w.state() != WorkflowState::Deleted)
        .ok_or_else(|| Error::not_found("workflow"))
}

/// A reason given with an action: trimmed, at most 500 characters, no control characters.
pub fn reason_field(field: &str, reason: Option<&str>, required: bool) -> Result<Option<String>, Error> {
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    match reason {
        None if required => Err(Error::field(field, "is required")),
        Some(r) if r.chars().count() > 500 || r.chars().any(char::is_control) => {
            Err(Error::field(field, "must be at most 500 characters without control characters"))
        }
        other => Ok(other.map(str::to_string)),
    }
}

/// The signatory the caller acts for: their own place when they are a due signatory (a user of
/// the tenant), else, for the sender, the one signatory due now.
async fn due_signatory(svc: &Services, caller: &Caller, workflow: &WorkflowRow) -> Result<SignatoryRow, Error> {
    if workflow.state() != WorkflowState::InProgress {
        return Err(Error::rejected(ErrorCode::StateConflict, format!("the workflow is {}", workflow.state)));
    }
    let due: Vec<SignatoryRow> =
        svc.store.signatories(workflow).await?.into_iter().filter(|s| s.state().is_turn()).collect();
    let email = match caller.is_user {
        true => svc.store.tenant_user_email(caller.tenant_id, caller.principal_id).await?,
        false => None,
    };
    let own = due.iter().find(|s| {
        s.subscriber_id == caller.principal_id.get()
            || email.as_deref().is_some_and(|e| e.eq_ignore_ascii_case(&s.email))
    });
    match (own, due.as_slice()) {
        (Some(own), _) => Ok(own.clone()),
        (None, [only]) => Ok(only.clone()),
        (None, []) => Err(Error::rejected(ErrorCode::StateConflict, "no signatory is due")),
        (None, many) => Err(Error::rejected(
            ErrorCode::StateConflict,
            format!(
                "several signatories are due ({}); act through their signing links",
                many.iter().map(|s| s.email.as_str()).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

/// Hands the due signature on to someone else (texted at `mobile` when given); returns the new
/// signatory. A signatory asked for a code by SMS is handed on only with the delegate's mobile
/// number, for the delegate's own code (`otp::delegate_mobile`); the API's request has no field
/// for it (the spec's `DelegateWorkflowRequest`), so there such a delegation is refused and the
/// console's form, which asks for the number, is the way.
pub async fn delegate(
    svc: &Services,
    caller: &Caller,
    workflow_id: WorkflowId,
    email: &str,
    mobile: Option<&str>,
    reason: &str,
) -> Result<SignatoryRow, Error> {
    caller.require(Permission::SendWorkflows)?;
    let email = email.trim().to_string();
    if !is_valid_email(&email) {
        return Err(Error::field("delegatedUserEmail", "must be a valid e-mail address"));
    }
    let reason = reason_field("reason", Some(reason), true)?.unwrap_or_default();
    let workflow = visible_workflow(svc, caller.tenant_id, workflow_id).await?;
    let from = due_signatory(svc, caller, &workflow).await?;
    if from.email.eq_ignore_ascii_case(&email) {
        return Err(Error::field("delegatedUserEmail", "is the signatory who delegates"));
    }
    let (mobile, otp_sms) = super::otp::delegate_mobile(from.otp_sms, mobile).map_err(|refusal| match refusal {
        DelegateMobileRefusal::Unreadable => Error::field("mobile", PHONE_REFUSAL),
        DelegateMobileRefusal::Needed => Error::field(
            "delegatedUserEmail",
            "takes the place of a signatory who confirms a code by SMS, so the delegate needs a mobile number \
             for their own code (the console's delegation form asks for it; this request has no field for it)",
        ),
    })?;
    let name = email.split('@').next().unwrap_or_default().to_string();
    let to = Delegate { email: &email, name: &name, mobile: mobile.as_ref(), otp_sms };
    let expires = super::link_expiry(svc, &workflow);
    let limit = Some(i64::from(svc.config.signer_max_delegations));
    svc.store.delegate(&from, &to, &reason, expires, &caller.actor, limit).await
}

/// Replaces a signatory's link (the old one stops working); returns the signatory with it.
pub async fn revoke_link(
    svc: &Services,
    caller: &Caller,
    workflow_id: WorkflowId,
    signatory_id: SignatoryId,
) -> Result<SignatoryRow, Error> {
    caller.require(Permission::SendWorkflows)?;
    let workflow = visible_workflow(svc, caller.tenant_id, workflow_id).await?;
    let expires = super::link_expiry(svc, &workflow);
    svc.store.rotate_signer_link(caller.tenant_id, workflow.id, signatory_id, expires, &caller.actor).await
}

/// A due signatory's link, for the sender to hand over another way (a chat, a call, in
/// person): the link is not changed, and the workflow's trail records who took it.
pub async fn hand_out_link(
    svc: &Services,
    caller: &Caller,
    workflow_id: WorkflowId,
    signatory_id: SignatoryId,
) -> Result<String, Error> {
    caller.require(Permission::SendWorkflows)?;
    let workflow = visible_workflow(svc, caller.tenant_id, workflow_id).await?;
    let row = svc.store.hand_out_signer_link(caller.tenant_id, workflow.id, signatory_id, &caller.actor, None).await?;
    Ok(super::links::signer_url(svc, &row))
}

/// E-mails a due signatory a reminder with the link they have (unchanged); at most one an
/// hour, and only for a workflow that e-mails its signers.
pub async fn remind(
    svc: &Services,
    caller: &Caller,
    workflow_id: WorkflowId,
    signatory_id: SignatoryId,
) -> Result<SignatoryRow, Error> {
    caller.require(Permission::SendWorkflows)?;
    let workflow = visible_workflow(svc, caller.tenant_id, workflow_id).await?;
    let signatory = match svc.store.signatory(signatory_id).await? {
        Some((signatory, _)) if signatory.workflow_id == workflow.id => signatory,
        _ => return Err(Error::not_found("signatory")),
    };
    if !super::notices::reaches(svc, &workflow, &signatory) {
        return Err(Error::rejected(
            signet_domain::ErrorCode::StateConflict,
            "this workflow does not e-mail its signers (sendMail false) and the signatory has no mobile number to \
             text: give them their link another way",
        ));
    }
    svc.store.remind_signatory(caller.tenant_id, workflow.id, signatory_id, &caller.actor).await
}

/// Declines the due signature, which ends the workflow.
pub async fn decline(
    svc: &Services,
    caller: &Caller,
    workflow_id: WorkflowId,
    reason: Option<&str>,
) -> Result<(), Error> {
    caller.require(Permission::SendWorkflows)?;
    let reason = reason_field("reason", reason, false)?.unwrap_or_else(|| "declined".into());
    let workflow = visible_workflow(svc, caller.tenant_id, workflow_id).await?;
    let signatory = due_signatory(svc, caller, &workflow).await?;
    svc.store.decline(&signatory, &reason, &caller.actor).await.map(|_| ())
}

/// Sets the workflows this one is linked with (at most 100, not itself).
pub async fn link(
    svc: &Services,
    caller: &Caller,
    workflow_id: WorkflowId,
    mut linked: Vec<WorkflowId>,
) -> Result<(), Error> {
    caller.require(Permission::SendWorkflows)?;
    linked.sort_unstable();
    linked.dedup();
    if linked.contains(&workflow_id) || linked.len() > 100 {
        return Err(Error::field("linkedWorkflowIds", "at most 100 other workflows, not this one"));
    }
    visible_workflow(svc, caller.tenant_id, workflow_id).await?;
    svc.store.set_linked_workflows(caller.tenant_id, workflow_id, &linked, &caller.actor).await
}

pub async fn make_inactive(svc: &Services, caller: &Caller, workflow_id: WorkflowId) -> Result<(), Error> {
    caller.require(Permission::SendWorkflows)?;
    visible_workflow(svc, caller.tenant_id, workflow_id).await?;
    svc.store
        .change_workflow_state(caller.tenant_id, workflow_id, WorkflowState::Inactive, None, &caller.actor)
        .await
        .map(|_| ())
}

/// Deletes a workflow and then its files (a file that cannot be removed is logged).
pub async fn delete(svc: &Services, caller: &crate::Caller, workflow_id: WorkflowId) -> Result<(), Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let (tenant_id, actor) = (caller.tenant_id, &caller.actor);
    visible_workflow(svc, tenant_id, workflow_id).await?;
    let keys = svc.store.delete_workflow(tenant_id, workflow_id, actor).await?;
    for key in keys.iter().filter_map(|k| BlobKey::parse(k).ok()) {
        if let Err(error) = svc.blob.delete(&key).await {
            tracing::warn!(%error, "a deleted workflow's file could not be removed");
        }
    }
    Ok(())
}

/// The tenant's document that belongs to a workflow (not deleted), with that workflow's id.
async fn workflow_document(
    svc: &Services,
    tenant_id: TenantId,
    document_id: DocumentId,
) -> Result<(DocumentId, WorkflowId), Error> {
    let doc = svc
        .store
        .document(tenant_id, document_id)
        .await?
        .filter(|d| d.state != DocumentState::Deleted)
        .ok_or_else(|| Error::not_found("document"))?;
    let workflow_id =
        doc.workflow_id.ok_or_else(|| Error::field("documentID", "the document is not in a workflow yet"))?;
    Ok((doc.id, workflow_id))
}

pub async fn add_comment(svc: &Services, caller: &Caller, document_id: DocumentId, comment: &str) -> Result<(), Error> {
    caller.require(Permission::SendWorkflows)?;
    let comment = comment.trim();
    if comment.is_empty() || comment.chars().count() > 2000 {
        return Err(Error::field("comment", "must be 1 to 2000 characters"));
    }
    let (document_id, workflow_id) = workflow_document(svc, caller.tenant_id, document_id).await?;
    svc.store.add_comment(caller.tenant_id, workflow_id, document_id, comment, &caller.actor, None).await.map(|_| ())
}

/// A document's comments: author, text, when.
pub async fn comments(
    svc: &Services,
    caller: &Caller,
    document_id: DocumentId,
) -> Result<Vec<(String, String, i64)>, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let tenant_id = caller.tenant_id;
    let doc = svc.store.document(tenant_id, document_id).await?.filter(|d| d.state != DocumentState::Deleted);
    let doc = doc.ok_or_else(|| Error::not_found("document"))?;
    svc.store.comments(&doc).await
}

pub async fn set_category(
    svc: &Services,
    caller: &Caller,
    workflow_id: WorkflowId,
    document_id: DocumentId,
    category_id: i64,
) -> Result<(), Error> {
    caller.require(Permission::SendWorkflows)?;
    if category_id < 0 {
        return Err(Error::field("categoryId", "must be 0 or more"));
    }
    visible_workflow(svc, caller.tenant_id, workflow_id).await?;
    svc.store.set_category(caller.tenant_id, workflow_id, document_id, category_id, &caller.actor).await
}

pub async fn deactivate_document(
    svc: &Services,
    caller: &Caller,
    document_id: DocumentId,
    reason: Option<&str>,
    force: bool,
) -> Result<(), Error> {
    caller.require(Permission::SendWorkflows)?;
    let reason = reason_field("reason", reason, false)?;
    svc.store.deactivate_document(caller.tenant_id, document_id, reason.as_deref(), force, &caller.actor).await
}

/// A workflow's attachment: its name and file.
pub async fn attachment(
    svc: &Services,
    caller: &Caller,
    workflow_id: WorkflowId,
    attachment_id: AttachmentId,
) -> Result<(String, Bytes), Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let tenant_id = caller.tenant_id;
    let workflow = visible_workflow(svc, tenant_id, workflow_id).await?;
    let found = svc.store.attachment(&workflow, attachment_id).await?.ok_or_else(|| Error::not_found("attachment"))?;
    let key =
        found.blob_key.as_deref().and_then(|k| BlobKey::parse(k).ok()).ok_or_else(|| Error::not_found("attachment"))?;
    let bytes = svc.blob.get(&key).await?;
    Ok((found.name, bytes))
}

/// A document's summary and whether it came from the cache.
pub struct Summary {
    pub document_id: DocumentId,
    pub from_cache: bool,
    pub summary: serde_json::Value,
}

/// `{"sentences": [...], "characters": n}`: the sentences that carry the document's most
/// frequent content words, made once per uploaded file and cached.
pub async fn summary(
    svc: &Services,
    caller: &Caller,
    workflow_id: WorkflowId,
    document_id: DocumentId,
) -> Result<Summary, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let tenant_id = caller.tenant_id;
    let workflow = visible_workflow(svc, tenant_id, workflow_id).await?;
    let doc = svc
        .store
        .document(tenant_id, document_id)
        .await?
        .filter(|d| d.workflow_id == Some(workflow.id) && d.state != DocumentState::Deleted)
        .ok_or_else(|| Error::not_found("document"))?;
    // The text is that of the upload; signatures add none.
    if let Some(cached) = svc.store.cached_summary(&doc, &doc.original_sha256).await? {
        let summary = serde_json::from_str(&cached).unwrap_or(serde_json::Value::Null);
        return Ok(Summary { document_id: doc.id, from_cache: true, summary });
    }
    let key = BlobKey::parse(&doc.original_blob)?;
    let bytes = svc.blob.get(&key).await?;
    let text = tokio::task::spawn_blocking(move || signet_pdf::text::document_text(&bytes, SUMMARY_MAX_CHARS))
        .await
        .map_err(Error::internal)?
        .map_err(|e| Error::rejected(ErrorCode::StateConflict, format!("the document's text cannot be read: {e}")))?;
    let sentences = signet_domain::summary::summarise(&text, SUMMARY_SENTENCES);
    let summary = serde_json::json!({"sentences": sentences, "characters": text.chars().count()});
    svc.store.cache_summary(&doc, &doc.original_sha256, &summary.to_string()).await?;
    Ok(Summary { document_id: doc.id, from_cache: false, summary })
}
