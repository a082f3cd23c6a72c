//! The organisation's retention periods and legal holds (managing settings).

use std::collections::HashSet;

use signet_domain::access::Permission;
use signet_domain::retention::{RetentionPeriods, hold_reason};
use signet_domain::{Error, FieldErrors, TemplateId, WorkflowId};
use signet_store::{HoldRow, RetentionPolicies};

use crate::{Caller, Services};

/// Templates with their own periods, at most.
pub const MAX_TEMPLATE_POLICIES: usize = 1_000;
/// Holds listed per page, at most.
pub const MAX_HOLDS_PAGE: i64 = 500;

/// The organisation's periods and its templates'.
pub async fn policies(svc: &Services, caller: &Caller) -> Result<RetentionPolicies, Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.retention_policies(caller.tenant_id).await
}

/// Replaces the organisation's periods and its templates'; answers what is saved. A period out
/// of range or a template of another organisation is refused and nothing changes; a template
/// named twice takes its last entry (as a JSON object's repeated key would).
pub async fn set_policies(
    svc: &Services,
    caller: &Caller,
    policies: RetentionPolicies,
) -> Result<RetentionPolicies, Error> {
    caller.require(Permission::ManageSettings)?;
    let mut errors = FieldErrors::new();
    policies.organisation.check("", &mut errors);
    if policies.templates.len() > MAX_TEMPLATE_POLICIES {
        errors.insert("templates".into(), vec![format!("at most {MAX_TEMPLATE_POLICIES}")]);
    }
    for (i, (_, periods)) in policies.templates.iter().enumerate() {
        periods.check(&format!("templates[{i}]."), &mut errors);
        if periods.gateway_days.is_some() {
            errors.insert(format!("templates[{i}].gatewayDays"), vec!["is the organisation's only".into()]);
        }
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let policies = RetentionPolicies { templates: last_of_each(policies.templates), ..policies };
    svc.store.set_retention_policies(caller.tenant_id, &policies, &caller.actor).await?;
    svc.store.retention_policies(caller.tenant_id).await
}

/// Each template once, at its last entry, in the order of those entries.
fn last_of_each(templates: Vec<(TemplateId, RetentionPeriods)>) -> Vec<(TemplateId, RetentionPeriods)> {
    let mut seen: HashSet<TemplateId> = HashSet::new();
    let mut kept: Vec<_> = templates.into_iter().rev().filter(|(id, _)| seen.insert(*id)).collect();
    kept.reverse();
    kept
}

/// Places a legal hold on a workflow (or changes its reason): neither the sweep nor an erasure
/// request takes it until the hold is released.
pub async fn place_hold(
    svc: &Services,
    caller: &Caller,
    workflow_id: WorkflowId,
    reason: &str,
) -> Result<HoldRow, Error> {
    caller.require(Permission::ManageSettings)?;
    let reason = hold_reason(reason).map_err(Error::Validation)?;
    svc.store.place_hold(caller.tenant_id, workflow_id, &reason, &caller.actor).await
}

/// Releases a workflow's legal hold.
pub async fn release_hold(svc: &Services, caller: &Caller, workflow_id: WorkflowId) -> Result<(), Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.release_hold(caller.tenant_id, workflow_id, &caller.actor).await
}

/// The organisation's legal holds by workflow id, after `after`, at most `limit` (1 to 500).
pub async fn holds(
    svc: &Services,
    caller: &Caller,
    after: Option<WorkflowId>,
    limit: i64,
) -> Result<Vec<HoldRow>, Error> {
    caller.require(Permission::ManageSettings)?;
    if !(1..=MAX_HOLDS_PAGE).contains(&limit) {
        return Err(Error::field("limit", format!("must be 1 to {MAX_HOLDS_PAGE}")));
    }
    svc.store.holds(caller.tenant_id, after.map_or(0, WorkflowId::get), limit).await
}
