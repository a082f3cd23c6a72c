//! Reading workflows: one with its documents and signatories, a page of them, the event chain
//! checked, the completion certificate.

use signet_domain::audit::{AuditEntry, ChainBreak, verify_chain};
use signet_domain::paging::Page;
use signet_domain::workflow::WorkflowState;
use signet_domain::{Error, ErrorCode, WorkflowId};
use signet_store::{AttachmentRow, DocumentRow, SignatoryRow, WorkflowRow};

use super::actions::visible_workflow;
use crate::Services;

/// A workflow with its documents and signatories.
pub struct Details {
    pub workflow: WorkflowRow,
    pub documents: Vec<DocumentRow>,
    pub signatories: Vec<SignatoryRow>,
}

pub async fn details(svc: &Services, caller: &crate::Caller, id: WorkflowId) -> Result<Details, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let tenant_id = caller.tenant_id;
    let workflow = visible_workflow(svc, tenant_id, id).await?;
    let documents = svc.store.workflow_documents(&workflow).await?;
    let signatories = svc.store.signatories(&workflow).await?;
    Ok(Details { workflow, documents, signatories })
}

/// The attachments a workflow of the caller's tenant holds a file for (those asked of signers
/// once they gave them), reading workflows.
pub async fn attachments(svc: &Services, caller: &crate::Caller, id: WorkflowId) -> Result<Vec<AttachmentRow>, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let workflow = visible_workflow(svc, caller.tenant_id, id).await?;
    Ok(svc.store.attachments(&workflow).await?.into_iter().filter(|a| a.blob_key.is_some()).collect())
}

/// What a list asks for, as sent.
pub struct ListQuery<'a> {
    pub page_number: Option<i64>,
    pub page_size: Option<i64>,
    pub state: Option<&'a str>,
    pub search_text: Option<&'a str>,
}

/// A page of the tenant's workflows, newest first, and how many there are in all.
pub async fn list(
    svc: &Services,
    caller: &crate::Caller,
    query: &ListQuery<'_>,
) -> Result<(Vec<WorkflowRow>, Page, i64), Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let tenant_id = caller.tenant_id;
    let page = Page::parse(query.page_number, query.page_size)?;
    if let Some(s) = query.state
        && (WorkflowState::parse(s).is_none() || s == "deleted")
    {
        return Err(Error::field("state", "must be in_progress, completed, declined, expired or inactive"));
    }
    let search = query.search_text.map(str::trim).filter(|s| !s.is_empty());
    if search.is_some_and(|s| s.chars().count() > 200) {
        return Err(Error::field("searchText", "must be at most 200 characters"));
    }
    let (rows, total) = svc.store.workflows(tenant_id, query.state, search, page.offset(), page.size).await?;
    Ok((rows, page, total))
}

/// The workflow's event chain and where, if anywhere, it is broken.
pub async fn audit(
    svc: &Services,
    caller: &crate::Caller,
    id: WorkflowId,
) -> Result<(WorkflowRow, Vec<AuditEntry>, Result<(), ChainBreak>), Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let tenant_id = caller.tenant_id;
    let workflow = visible_workflow(svc, tenant_id, id).await?;
    let entries = svc.store.workflow_events(&workflow).await?;
    let check = verify_chain(workflow.id.get(), &entries);
    Ok((workflow, entries, check))
}

/// The completion certificate of a completed workflow (PDF, sealed, the signed documents attached).
pub async fn certificate(svc: &Services, caller: &crate::Caller, id: WorkflowId) -> Result<Vec<u8>, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let tenant_id = caller.tenant_id;
    let workflow = visible_workflow(svc, tenant_id, id).await?;
    if workflow.state() != WorkflowState::Completed {
        return Err(Error::rejected(ErrorCode::StateConflict, "the workflow is not completed"));
    }
    crate::documents::merged_pdf(svc, &workflow).await
}
