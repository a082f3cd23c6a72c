//! A person's own inbox in the console: the signatures waiting for them across the tenant's
//! workflows and the lots made for them to sign at once. Everything here is the caller's own,
//! found by their address in the tenant; API clients have none, and another person's
//! signature reads as missing.

use signet_domain::{Error, LotId, SignatoryId, WorkflowId};
use signet_store::{LotRow, SignatoryRow, WorkflowRow};

use crate::bulk::lots::Lot;
use crate::{Caller, Services};

/// What waits for the caller.
pub struct Waiting {
    /// Signatures whose turn it is, with their workflows.
    pub due: Vec<(SignatoryRow, WorkflowRow)>,
    /// Lots to sign at once.
    pub lots: Vec<LotRow>,
}

/// The caller's address, if they are an active user of the tenant.
async fn own_email(svc: &Services, caller: &Caller) -> Result<Option<String>, Error> {
    if !caller.is_user {
        return Ok(None);
    }
    svc.store.tenant_user_email(caller.tenant_id, caller.principal_id).await
}

/// The signatures and lots waiting for the caller (none for an API client).
pub async fn waiting(svc: &Services, caller: &Caller) -> Result<Waiting, Error> {
    let Some(email) = own_email(svc, caller).await? else {
        return Ok(Waiting { due: Vec::new(), lots: Vec::new() });
    };
    let due = svc.store.due_signatories(caller.tenant_id, &email).await?;
    let lots = svc.store.lots_to_sign(caller.tenant_id, &email).await?;
    Ok(Waiting { due, lots })
}

/// One of the caller's own signatures whose turn it is, in a workflow in progress; any other
/// reads as missing.
pub async fn own_turn(svc: &Services, caller: &Caller, id: SignatoryId) -> Result<SignatoryRow, Error> {
    let missing = || Error::not_found("signature");
    let email = own_email(svc, caller).await?.ok_or_else(missing)?;
    let found = svc.store.signatory(id).await?;
    let theirs = found.filter(|(s, w)| {
        w.tenant_id == caller.tenant_id
            && s.email.eq_ignore_ascii_case(&email)
            && s.state().is_turn()
            && w.state() == signet_domain::workflow::WorkflowState::InProgress
    });
    theirs.map(|(signatory, _)| signatory).ok_or_else(missing)
}

/// A lot of the tenant with its workflows' ids and names.
pub async fn lot_with_names(
    svc: &Services,
    caller: &Caller,
    lot_id: LotId,
) -> Result<(Lot, Vec<(WorkflowId, String)>), Error> {
    let lot = crate::bulk::lots::get(svc, caller, lot_id).await?;
    let mut named = Vec::with_capacity(lot.workflow_ids.len());
    for &id in &lot.workflow_ids {
        let name = svc.store.workflow(caller.tenant_id, id).await?.map(|w| w.name).unwrap_or_default();
        named.push((id, name));
    }
    Ok((lot, named))
}
