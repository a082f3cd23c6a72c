//! Admission to the gateway before any expensive work: a bound on the submissions one client
//! address may have in progress (each costs an RSA decryption and, once authenticated, parsing
//! and decompression), and whether any tenant still accepts the legacy envelope (when none
//! does, a legacy envelope is refused before the private key is touched).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use signet_domain::Error;
use signet_store::Store;

/// How long the answer "some tenant accepts the legacy envelope" is reused.
const LEGACY_RECHECK: Duration = Duration::from_secs(5);

pub struct Intake {
    per_address: usize,
    in_progress: Arc<Mutex<HashMap<IpAddr, usize>>>,
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
    pub fn new(per_address: usize) -> Intake {
        Intake { per_address: per_address.max(1), in_progress: Arc::default(), legacy: Mutex::new(None) }
    }

    /// A slot for one more submission from `address`, or None when it has its share running.
    pub fn admit(&self, address: IpAddr) -> Option<Slot> {
        let mut map = self.in_progress.lock().ok()?;
        let count = map.entry(address).or_insert(0);
        if *count >= self.per_address {
            return None;
        }
        *count += 1;
        Some(Slot { address, in_progress: self.in_progress.clone() })
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
        let intake = Intake::new(2);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let first = intake.admit(a).expect("first");
        let _second = intake.admit(a).expect("second");
        assert!(intake.admit(a).is_none(), "a third at once is refused");
        assert!(intake.admit(b).is_some(), "other addresses are not affected");
        drop(first);
        assert!(intake.admit(a).is_some(), "a finished submission frees its slot");
    }
}
