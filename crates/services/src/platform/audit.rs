//! The tenant's audit trail checked whole: read in pages, each entry checked against the one
//! before it, so that a long log is never held in memory at once.

use signet_domain::access::Permission;
use signet_domain::audit::{AuditEntry, ChainBreak, ChainVerifier, Party};
use signet_domain::{Error, PrincipalId, TenantId};
use signet_store::Store;

use crate::{Caller, Services};

/// Entries read per page.
const PAGE: i64 = 1000;

/// Most entries one page of the trail holds.
pub const MAX_PAGE: i64 = 1000;

/// Up to `limit` (1 to [`MAX_PAGE`]) entries of the tenant's trail after `after_seq`, oldest
/// first (reading the audit trail).
pub async fn entries(svc: &Services, caller: &Caller, after_seq: i64, limit: i64) -> Result<Vec<AuditEntry>, Error> {
    caller.require(Permission::ReadAudit)?;
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(Error::field("limit", "must be between 1 and 1000"));
    }
    if after_seq < 0 {
        return Err(Error::field("afterSeq", "must not be negative"));
    }
    svc.store.audit_entries(caller.tenant_id, after_seq, limit).await
}

/// The names of the people and applications `entries` name as actor or target (a user by
/// name, else address; an application by client id), by principal id (reading the audit
/// trail); at most 100 are looked up.
pub async fn principal_names(
    svc: &Services,
    caller: &Caller,
    entries: &[AuditEntry],
) -> Result<Vec<(PrincipalId, String)>, Error> {
    caller.require(Permission::ReadAudit)?;
    let mut ids: Vec<PrincipalId> = entries
        .iter()
        .flat_map(|e| [Party::parse(&e.actor), Party::parse(&e.target)])
        .filter_map(|party| match party {
            Party::User(id) | Party::Client(id) => Some(id),
            _ => None,
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids.truncate(100);
    svc.store.principal_names(caller.tenant_id, &ids).await
}

/// How many entries the tenant's log holds, and where the chain first breaks, if it does
/// (reading the audit trail).
pub async fn verify(svc: &Services, caller: &Caller) -> Result<(u64, Result<(), ChainBreak>), Error> {
    caller.require(Permission::ReadAudit)?;
    verify_chain_of(&svc.store, caller.tenant_id).await
}

/// [`verify`] without a caller, for the installation-wide check (`signet check`).
pub(crate) async fn verify_chain_of(
    store: &Store,
    tenant_id: TenantId,
) -> Result<(u64, Result<(), ChainBreak>), Error> {
    let mut verifier = ChainVerifier::new(tenant_id.get());
    let mut broken = None;
    let (mut after, mut entries) = (0, 0_u64);
    loop {
        let page = store.audit_entries(tenant_id, after, PAGE).await?;
        let Some(last) = page.last() else { break };
        after = last.seq;
        entries += page.len() as u64;
        if broken.is_none() {
            broken = page.iter().try_for_each(|entry| verifier.check(entry)).err();
        }
    }
    Ok((entries, broken.map_or(Ok(()), Err)))
}
