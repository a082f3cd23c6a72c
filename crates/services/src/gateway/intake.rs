//! Admission to the gateway before any expensive work: a bound on the submissions one client
//! address may have in progress (each costs an RSA decryption and, once authenticated, parsing
//! and decompression), a bar on addresses whose recent submissions did not authenticate (an
//! envelope that does not open or a bogus `Authtoken`: an attacker without an account pays one
//! RSA decryption of ours per try, so after a few such tries within a minute the address is
//! refused before any), and whether any tenant still accepts the legacy envelope (when none
//! does, a legacy envelope is refused before the private key is touched).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use signet_domain::Error;
use signet_store::Store;

/// How long the answer "some tenant accepts the legacy envelope" is reused.
const LEGACY_RECHECK: Duration = Duration::from_secs(5);

/// How long an address's unauthenticated submissions are remembered.
pub const STRIKE_WINDOW: Duration = Duration::from_secs(60);
/// Most addresses whose strikes are remembered; beyond it those whose window ended are
/// forgotten first, and when all are recent a new address is barred until room is made (the
/// bar fails closed: flooding the record with addresses never wipes the strikes it holds).
const MAX_STRUCK_ADDRESSES: usize = 50_000;

pub struct Intake {
    per_address: usize,
    in_progress: Arc<Mutex<HashMap<IpAddr, usize>>>,
    /// Unauthenticated submissions per address allowed within [`STRIKE_WINDOW`] (0: no bar).
    strikes_allowed: u32,
    strikes: Mutex<HashMap<IpAddr, (Instant, u32)>>,
    /// Most addresses in `strikes` (fixed but for tests).
    capacity: usize,
    legacy: Mutex<Option<(Instant, bool)>>,
}

/// One submission in progress; dropping it frees the address's slot.
pub struct Slot {
    address: IpAddr,
    in_progress: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut map) = self.in_progress.lock()
            && let Some(count) = map.get_mut(&self.address)
        {
            *count = count.saturating_sub(1);
            if *count == 0 {
                map.remove(&self.address);
            }
        }
    }
}

impl Intake {
    pub fn new(per_address: usize, strikes_allowed: u32) -> Intake {
        Intake::with_capacity(per_address, strikes_allowed, MAX_STRUCK_ADDRESSES)
    }

    fn with_capacity(per_address: usize, strikes_allowed: u32, capacity: usize) -> Intake {
        Intake {
            per_address: per_address.max(1),
            in_progress: Arc::default(),
            strikes_allowed,
            strikes: Mutex::default(),
            capacity: capacity.max(1),
            legacy: Mutex::new(None),
        }
    }

    /// A slot for one more submission from `address`, or None when it has its share running or
    /// is barred for its unauthenticated submissions.
    pub fn admit(&self, address: IpAddr) -> Option<Slot> {
        if self.barred(address) {
            return None;
        }
        let mut map = self.in_progress.lock().ok()?;
        let count = map.entry(address).or_insert(0);
        if *count >= self.per_address {
            return None;
        }
        *count += 1;
        Some(Slot { address, in_progress: self.in_progress.clone() })
    }

    /// Counts a submission from `address` that did not authenticate.
    pub fn strike(&self, address: IpAddr) {
        if self.strikes_allowed == 0 {
            return;
        }
        let address = crate::platform::limits::address_key(address);
        let mut strikes = self.strikes.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let now = Instant::now();
        if !self.room_for(&mut strikes, address, now) {
            // Not recorded: while the record is full, every address it cannot hold is barred.
            return;
        }
        let entry = strikes.entry(address).or_insert((now, 0));
        if now.duration_since(entry.0) >= STRIKE_WINDOW {
            *entry = (now, 0);
        }
        entry.1 = entry.1.saturating_add(1);
    }

    /// Whether `strikes` holds `address` or can make room for it (forgetting ended windows).
    fn room_for(&self, strikes: &mut HashMap<IpAddr, (Instant, u32)>, address: IpAddr, now: Instant) -> bool {
        if strikes.len() < self.capacity || strikes.contains_key(&address) {
            return true;
        }
        strikes.retain(|_, (since, _)| now.duration_since(*since) < STRIKE_WINDOW);
        strikes.len() < self.capacity
    }

    /// Whether `address` used up its unauthenticated submissions of the current window, or
    /// the record is full and cannot hold it (fails closed).
    pub fn barred(&self, address: IpAddr) -> bool {
        if self.strikes_allowed == 0 {
            return false;
        }
        let address = crate::platform::limits::address_key(address);
        let mut strikes = self.strikes.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !self.room_for(&mut strikes, address, Instant::now()) {
            return true;
        }
        strikes
            .get(&address)
            .is_some_and(|(since, count)| since.elapsed() < STRIKE_WINDOW && *count >= self.strikes_allowed)
    }

    /// Whether any tenant accepts the legacy envelope (rechecked every few seconds).
    pub async fn legacy_accepted(&self, store: &Store) -> Result<bool, Error> {
        if let Ok(cached) = self.legacy.lock()
            && let Some((at, accepted)) = *cached
            && at.elapsed() < LEGACY_RECHECK
        {
            return Ok(accepted);
        }
        let accepted = store.legacy_profile_accepted().await?;
        if let Ok(mut cached) = self.legacy.lock() {
            *cached = Some((Instant::now(), accepted));
        }
        Ok(accepted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_share_and_slots_come_back() {
        let intake = Intake::new(2, 0);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let first = intake.admit(a).expect("first");
        let _second = intake.admit(a).expect("second");
        assert!(intake.admit(a).is_none(), "a third at once is refused");
        assert!(intake.admit(b).is_some(), "other addresses are not affected");
        drop(first);
        assert!(intake.admit(a).is_some(), "a finished submission frees its slot");
    }

    #[test]
    fn an_address_that_keeps_failing_to_authenticate_is_barred_and_others_are_not() {
        let intake = Intake::new(4, 3);
        let (a, b): (IpAddr, IpAddr) = ([10, 0, 0, 1].into(), [10, 0, 0, 2].into());
        for _ in 0..2 {
            intake.strike(a);
        }
        assert!(intake.admit(a).is_some(), "two strikes of three allowed");
        intake.strike(a);
        assert!(intake.admit(a).is_none(), "the third bars it");
        assert!(intake.admit(b).is_some(), "another address is not affected");
        let open = Intake::new(4, 0);
        for _ in 0..100 {
            open.strike(a);
        }
        assert!(open.admit(a).is_some(), "no bar when switched off");
    }

    #[test]
    fn a_full_strike_record_bars_newcomers_and_keeps_its_strikes() {
        let intake = Intake::with_capacity(4, 2, 2);
        let [a, b, c]: [IpAddr; 3] = [[10, 0, 0, 1].into(), [10, 0, 0, 2].into(), [10, 0, 0, 3].into()];
        intake.strike(a);
        intake.strike(a);
        intake.strike(b);
        assert!(intake.admit(a).is_none(), "a used its strikes");
        assert!(intake.admit(b).is_some(), "b has one left");
        // A flood of new addresses cannot be held: each is barred, and a's strikes stay.
        intake.strike(c);
        assert!(intake.admit(c).is_none(), "no room: barred, not let through");
        assert!(intake.admit(a).is_none(), "a is still barred");
    }
}
