//! What every authenticated request checks (a principal's security stamp, state and role),
//! kept in memory for a short while so that the common request reads nothing but its resource.
//!
//! Revocation must not wait for the cache, so an entry is dropped as soon as anything that
//! could change it is known to have changed:
//! - in this process, by the store's own writes to principals and roles, after they commit;
//! - on PostgreSQL, from every instance (and from any SQL at all), through triggers on
//!   `principals` and `roles` that `NOTIFY signet_principals`; the cache is only used while
//!   this process is listening, and is emptied whenever the listener connects again;
//! - otherwise (another process writing the same SQLite file, the CLI) an entry lives at most
//!   `ttl`, which is the bound on staleness that the docs state.
//!
//! A read that raced a change must not put the old answer back: every change bumps a
//! generation, and an answer is kept only if no change happened while it was being read.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use signet_domain::{PrincipalId, TenantId};

use crate::auth::PrincipalAuth;

/// The channel the PostgreSQL triggers notify (migration 0029).
pub(crate) const CHANNEL: &str = "signet_principals";
/// More entries than this and the cache starts again (a bound on memory, not a tuning knob:
/// an entry is one principal seen within `ttl`).
const MAX_ENTRIES: usize = 100_000;

type Key = (TenantId, PrincipalId);

#[derive(Default)]
pub(crate) struct PrincipalCache {
    /// Milliseconds; read by every request, so an atomic rather than a lock.
    ttl_ms: AtomicU64,
    /// False until enabled, and on PostgreSQL while the listener is not connected.
    live: AtomicBool,
    generation: AtomicU64,
    entries: RwLock<HashMap<Key, (PrincipalAuth, Instant)>>,
}

/// A ticket for one read: the generation it started in.
#[derive(Clone, Copy)]
pub(crate) struct Ticket(u64);

impl PrincipalCache {
    pub(crate) fn new() -> Arc<PrincipalCache> {
        Arc::new(PrincipalCache::default())
    }

    pub(crate) fn set_ttl(&self, ttl: Duration) {
        self.ttl_ms.store(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX), Ordering::SeqCst);
    }

    fn ttl(&self) -> Duration {
        Duration::from_millis(self.ttl_ms.load(Ordering::SeqCst))
    }

    /// Starts or stops trusting entries; either way the entries so far are dropped.
    pub(crate) fn set_live(&self, live: bool) {
        self.invalidate();
        self.live.store(live, Ordering::SeqCst);
    }

    pub(crate) fn get(&self, tenant_id: TenantId, principal_id: PrincipalId) -> Option<PrincipalAuth> {
        if !self.live.load(Ordering::SeqCst) {
            return None;
        }
        let ttl = self.ttl();
        let entries = self.entries.read().ok()?;
        let (auth, loaded) = entries.get(&(tenant_id, principal_id))?;
        (loaded.elapsed() < ttl).then(|| auth.clone())
    }

    /// Taken before reading the database.
    pub(crate) fn ticket(&self) -> Ticket {
        Ticket(self.generation.load(Ordering::SeqCst))
    }

    /// Keeps what was read, unless something changed since the ticket was taken.
    pub(crate) fn put(&self, ticket: Ticket, tenant_id: TenantId, principal_id: PrincipalId, auth: &PrincipalAuth) {
        if !self.live.load(Ordering::SeqCst) || self.ttl().is_zero() {
            return;
        }
        let Ok(mut entries) = self.entries.write() else { return };
        // Checked under the lock that `invalidate` takes to clear: a change bumped after this
        // check clears the entry once the lock is released.
        if self.generation.load(Ordering::SeqCst) != ticket.0 {
            return;
        }
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert((tenant_id, principal_id), (auth.clone(), Instant::now()));
    }

    /// Something about principals or roles changed: nothing kept so far is trusted.
    pub(crate) fn invalidate(&self) {
        // Bumped first: a `put` that checked the old generation before this bump holds the
        // lock, so its entry is in the map by the time the clear below runs.
        self.generation.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut entries) = self.entries.write() {
            entries.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn auth(stamp: &str) -> PrincipalAuth {
        PrincipalAuth {
            security_stamp: stamp.into(),
            disabled: false,
            role: signet_domain::access::Role::Administrator,
            status: "active".into(),
            custom_role_id: None,
            custom_role_name: None,
            custom_permissions: None,
        }
    }

    fn live_cache(ttl: Duration) -> Arc<PrincipalCache> {
        let cache = PrincipalCache::new();
        cache.set_ttl(ttl);
        cache.set_live(true);
        cache
    }

    #[test]
    fn an_answer_is_kept_until_its_time_is_up() {
        let cache = live_cache(Duration::from_millis(50));
        let ticket = cache.ticket();
        cache.put(ticket, TenantId::from(1), PrincipalId::from(2), &auth("a"));
        assert_eq!(cache.get(TenantId::from(1), PrincipalId::from(2)).map(|a| a.security_stamp), Some("a".into()));
        assert!(cache.get(TenantId::from(1), PrincipalId::from(3)).is_none(), "another principal");
        assert!(cache.get(TenantId::from(2), PrincipalId::from(2)).is_none(), "the same id in another tenant");
        std::thread::sleep(Duration::from_millis(60));
        assert!(cache.get(TenantId::from(1), PrincipalId::from(2)).is_none());
    }

    #[test]
    fn a_change_drops_every_entry() {
        let cache = live_cache(Duration::from_secs(60));
        cache.put(cache.ticket(), TenantId::from(1), PrincipalId::from(2), &auth("a"));
        cache.invalidate();
        assert!(cache.get(TenantId::from(1), PrincipalId::from(2)).is_none());
    }

    #[test]
    fn a_read_that_raced_a_change_is_not_kept() {
        let cache = live_cache(Duration::from_secs(60));
        let ticket = cache.ticket();
        // The row is read (old stamp), then a revocation commits and invalidates.
        cache.invalidate();
        cache.put(ticket, TenantId::from(1), PrincipalId::from(2), &auth("old"));
        assert!(cache.get(TenantId::from(1), PrincipalId::from(2)).is_none(), "the old stamp must not come back");
    }

    #[test]
    fn nothing_is_kept_or_trusted_unless_live() {
        let cache = PrincipalCache::new();
        cache.set_ttl(Duration::from_secs(60));
        cache.put(cache.ticket(), TenantId::from(1), PrincipalId::from(2), &auth("a"));
        assert!(cache.get(TenantId::from(1), PrincipalId::from(2)).is_none());
        cache.set_live(true);
        cache.put(cache.ticket(), TenantId::from(1), PrincipalId::from(2), &auth("a"));
        assert!(cache.get(TenantId::from(1), PrincipalId::from(2)).is_some());
        // The listener dropped: notifications may be missed from now on.
        cache.set_live(false);
        assert!(cache.get(TenantId::from(1), PrincipalId::from(2)).is_none());
    }

    #[test]
    fn a_zero_ttl_keeps_nothing() {
        let cache = live_cache(Duration::ZERO);
        cache.put(cache.ticket(), TenantId::from(1), PrincipalId::from(2), &auth("a"));
        assert!(cache.get(TenantId::from(1), PrincipalId::from(2)).is_none());
    }
}
