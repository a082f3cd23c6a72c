//! Reading workflows: one with its documents and signatories, a page of them, the event chain
//! checked, the completion certificate.

use signet_domain::audit::{AuditEntry, ChainBreak, Party, WorkflowEventKind, verify_chain};
use signet_domain::paging::Page;
use signet_domain::workflow::WorkflowState;
use signet_domain::{Error, ErrorCode, Millis, PrincipalId, WorkflowId};
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

/// How many of the tenant's workflows are in each state a list can show (every such state,
/// in the order of [`WorkflowState::ALL`], zero where there are none): the dashboard's counts.
pub async fn counts(svc: &Services, caller: &crate::Caller) -> Result<Vec<(WorkflowState, i64)>, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let found = svc.store.workflow_counts(caller.tenant_id).await?;
    Ok(WorkflowState::ALL
        .iter()
        .filter(|state| **state != WorkflowState::Deleted)
        .map(|state| (*state, found.iter().find(|(s, _)| s == state).map_or(0, |(_, n)| *n)))
        .collect())
}

/// Someone a workflow waits for: a signatory whose turn it is, and since when (their link was
/// sent, or the workflow started).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    pub workflow_id: WorkflowId,
    pub name: String,
    pub email: String,
    pub since: Millis,
}

/// Whom each of `workflows` (a listed page, at most 100, of the caller's tenant) waits for.
pub async fn waiting_for(
    svc: &Services,
    caller: &crate::Caller,
    workflows: &[WorkflowRow],
) -> Result<Vec<Waiting>, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let ids: Vec<WorkflowId> = workflows
        .iter()
        .filter(|w| w.tenant_id == caller.tenant_id && w.state() == WorkflowState::InProgress)
        .map(|w| w.id)
        .collect();
    let rows = svc.store.waiting_signatories(caller.tenant_id, &ids).await?;
    Ok(rows
        .into_iter()
        .map(|s| Waiting {
            workflow_id: s.workflow_id,
            since: s.notified_at.unwrap_or(s.created_at),
            name: s.name,
            email: s.email,
        })
        .collect())
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

/// Whom an event names, as people read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    /// A user (by name, else address) or an application (by client id) of the organisation.
    Person(String),
    /// One of the workflow's signatories, by the name they were sent under.
    Signatory(String),
    /// Signet itself (sweeps, scheduled reminders, completion steps).
    System,
    /// A reference no name was found for, as written.
    Unnamed(String),
}

/// One event of a workflow's trail with the names of who did it and whom it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineEntry {
    pub at: Millis,
    /// The event's kind (`signatory.signed`, ...) as stored.
    pub action: String,
    /// The same kind parsed; `None` for one this Signet does not know (shown as written).
    pub kind: Option<WorkflowEventKind>,
    pub actor: Named,
    /// The signatory the event concerns, when it concerns one.
    pub subject: Option<Named>,
}

/// The workflow's trail with names (the event chain checked, as [`audit`]): whether the
/// chain is intact, and its events oldest first.
pub async fn timeline(
    svc: &Services,
    caller: &crate::Caller,
    id: WorkflowId,
) -> Result<(bool, Vec<TimelineEntry>), Error> {
    let (workflow, entries, check) = audit(svc, caller, id).await?;
    let signatories = svc.store.signatories(&workflow).await?;
    let mut principals: Vec<PrincipalId> = entries
        .iter()
        .filter_map(|e| match Party::parse(&e.actor) {
            Party::User(id) | Party::Client(id) => Some(id),
            _ => None,
        })
        .collect();
    principals.sort_unstable();
    principals.dedup();
    principals.truncate(100);
    let people = svc.store.principal_names(caller.tenant_id, &principals).await?;
    let name = |reference: &str| match Party::parse(reference) {
        Party::User(id) | Party::Client(id) => people
            .iter()
            .find(|(p, _)| *p == id)
            .map_or_else(|| Named::Unnamed(reference.to_string()), |(_, n)| Named::Person(n.clone())),
        Party::Signatory(id) => signatories
            .iter()
            .find(|s| s.id == id)
            .map_or_else(|| Named::Unnamed(reference.to_string()), |s| Named::Signatory(s.name.clone())),
        Party::System => Named::System,
        Party::Other => Named::Unnamed(reference.to_string()),
    };
    let events = entries
        .iter()
        .map(|e| TimelineEntry {
            at: e.at,
            action: e.action.clone(),
            kind: e.workflow_kind(),
            actor: name(&e.actor),
            subject: matches!(Party::parse(&e.target), Party::Signatory(_)).then(|| name(&e.target)),
        })
        .collect();
    Ok((check.is_ok(), events))
}

/// The completion certificate of a completed workflow (PDF, sealed, the signed documents attached).
pub async fn certificate(svc: &Services, caller: &crate::Caller, id: WorkflowId) -> Result<Vec<u8>, Error> {
    let workflow = completed_workflow(svc, caller, id).await?;
    crate::workflows::documents::merged_pdf(svc, &workflow).await
}

/// The caller's tenant's workflow, to read what only a completed one has (its certificate, its
/// evidence pack): reading workflows, and completed (`state_conflict` before).
pub async fn completed_workflow(svc: &Services, caller: &crate::Caller, id: WorkflowId) -> Result<WorkflowRow, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let workflow = visible_workflow(svc, caller.tenant_id, id).await?;
    if workflow.state() != WorkflowState::Completed {
        return Err(Error::rejected(ErrorCode::StateConflict, "the workflow is not completed"));
    }
    Ok(workflow)
}
