//! A fixed-window limiter per client address for the token endpoints. It is per instance
//! (cheap, in memory); the per-account failure limit lives in the database and is shared.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use signet_domain::Error;

pub struct IpRateLimiter {
    limit: u32,
    window: Duration,
    windows: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl IpRateLimiter {
    pub fn per_minute(limit: u32) -> Self {
        IpRateLimiter { limit, window: Duration::from_secs(60), windows: Mutex::new(HashMap::new()) }
    }

    /// Counts one request from `ip`; refuses with the seconds until the window ends.
    pub fn check(&self, ip: IpAddr) -> Result<(), Error> {
        let now = Instant::now();
        let mut windows = self.windows.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if windows.len() > 100_000 {
            // Bound memory under address-spraying: forget windows that have ended.
            windows.retain(|_, (start, _)| now.duration_since(*start) < self.window);
        }
        let entry = windows.entry(ip).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1 >= self.limit {
            let retry_after = self.window.saturating_sub(now.duration_since(entry.0));
            return Err(Error::RateLimited { retry_after_secs: retry_after.as_secs().max(1) });
        }
        entry.1 += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_after_the_limit_per_address() {
        let limiter = IpRateLimiter::per_minute(2);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        assert!(limiter.check(a).is_ok());
        assert!(limiter.check(a).is_ok());
        assert!(matches!(limiter.check(a), Err(Error::RateLimited { retry_after_secs }) if retry_after_secs >= 1));
        assert!(limiter.check(b).is_ok());
    }
}
