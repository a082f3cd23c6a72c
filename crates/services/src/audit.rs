//! The tenant's audit trail checked whole: read in pages, each entry checked against the one
//! before it, so that a long log is never held in memory at once.

use signet_domain::audit::{ChainBreak, ChainVerifier};
use signet_domain::{Error, TenantId};

use crate::Services;

/// Entries read per page.
const PAGE: i64 = 1000;

/// How many entries the log holds, and where the chain first breaks, if it does.
pub async fn verify(svc: &Services, tenant_id: TenantId) -> Result<(u64, Result<(), ChainBreak>), Error> {
    let mut verifier = ChainVerifier::new(tenant_id.get());
    let mut broken = None;
    let (mut after, mut entries) = (0, 0_u64);
    loop {
        let page = svc.store.audit_entries(tenant_id, after, PAGE).await?;
        let Some(last) = page.last() else { break };
        after = last.seq;
        entries += page.len() as u64;
        if broken.is_none() {
            broken = page.iter().try_for_each(|entry| verifier.check(entry)).err();
        }
    }
    Ok((entries, broken.map_or(Ok(()), Err)))
}
