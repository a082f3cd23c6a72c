//! Budgets of the doors anyone may knock at, in memory per instance: a fixed-window count per
//! client address ([`IpRateLimiter`]) and an admission gate for costly steps ([`Admission`]:
//! a few at once, a bounded queue behind them, a fast refusal beyond it). Both fail closed:
//! a record that is full refuses newcomers rather than forgetting who was counted, and a
//! queue that is full refuses rather than growing. What must hold across instances (per
//! account) is counted in the database instead ([`admit_attempt`], `login::check_account`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use signet_domain::Error;
use signet_store::{AuthAttempt, AuthThrottle};
use tokio::sync::Semaphore;

use crate::Services;

/// Most addresses one limiter remembers; past it, once ended windows are forgotten, a new
/// address is refused until some window ends (fails closed, never forgets a count).
const MAX_ADDRESSES: usize = 100_000;

/// What one address is counted as: an IPv4 address, or the /64 network of an IPv6 one (one
/// subscriber's usual share, so a host cannot pass as 2^64 clients).
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
    }
}

/// A fixed-window limit of requests per client address.
pub struct IpRateLimiter {
    limit: u32,
    window: Duration,
    capacity: usize,
    windows: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl IpRateLimiter {
    pub fn per_minute(limit: u32) -> Self {
        IpRateLimiter::new(limit, Duration::from_secs(60), MAX_ADDRESSES)
    }

    pub fn new(limit: u32, window: Duration, capacity: usize) -> Self {
        IpRateLimiter { limit, window, capacity: capacity.max(1), windows: Mutex::new(HashMap::new()) }
    }

    /// Counts one request from `ip`; refuses (rate limited) with the seconds until its window
    /// ends, or until the oldest window ends when the record is full.
    pub fn check(&self, ip: IpAddr) -> Result<(), Error> {
        let key = address_key(ip);
        let now = Instant::now();
        let mut windows = self.windows.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if windows.len() >= self.capacity && !windows.contains_key(&key) {
            windows.retain(|_, (start, _)| now.duration_since(*start) < self.window);
            if windows.len() >= self.capacity {
                let oldest = windows.values().map(|(start, _)| *start).min().unwrap_or(now);
                return Err(self.refusal(now, oldest));
            }
        }
        let entry = windows.entry(key).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1 >= self.limit {
            return Err(self.refusal(now, entry.0));
        }
        entry.1 += 1;
        Ok(())
    }

    fn refusal(&self, now: Instant, window_start: Instant) -> Error {
        let retry_after = self.window.saturating_sub(now.duration_since(window_start));
        Error::RateLimited { retry_after_secs: retry_after.as_secs().max(1) }
    }
}

/// A fixed-window limit of requests from everyone together, for a door that must also hold
/// against a crowd of addresses (each within its own allowance).
pub struct GlobalRateLimiter(IpRateLimiter);

impl GlobalRateLimiter {
    pub fn per_minute(limit: u32) -> Self {
        GlobalRateLimiter(IpRateLimiter::new(limit, Duration::from_secs(60), 1))
    }

    /// Counts one request; refuses (rate limited) until the window ends once it is full.
    pub fn check(&self) -> Result<(), Error> {
        self.0.check(IpAddr::from([0, 0, 0, 0]))
    }
}

/// Admission to a costly step (a password hash: 19 MiB and tens of milliseconds of a core
/// each): at most `running` at once on blocking threads, at most `queued` waiting behind them;
/// anyone beyond is refused at once (rate limited, retry after a second) instead of adding
/// memory and waiting time for everyone.
pub struct Admission {
    running: Arc<Semaphore>,
    threads: crate::platform::costly::CostlyThreads,
    /// Seats for the running and the waiting together.
    seats: Arc<Semaphore>,
}

impl Admission {
    /// `running` 0 means one per CPU core; `name` names its threads.
    pub fn new(name: &str, running: usize, queued: usize) -> std::io::Result<Admission> {
        let running = if running == 0 { std::thread::available_parallelism().map_or(2, usize::from) } else { running };
        Ok(Admission {
            running: Arc::new(Semaphore::new(running)),
            threads: crate::platform::costly::CostlyThreads::start(name, running)?,
            seats: Arc::new(Semaphore::new(running + queued)),
        })
    }

    /// Runs `work` on one of its low-priority threads when admitted; refuses (rate limited)
    /// when every seat is taken.
    pub async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, Error> {
        self.seat()?.run(work).await
    }

    /// Takes a seat now, for work to run later in the same request: a door that must refuse a
    /// flood takes it before anything else it would spend on the request (database reads and
    /// writes), so that a refused request costs nothing but the refusal.
    pub fn seat(&self) -> Result<Seat<'_>, Error> {
        let seat = self.seats.clone().try_acquire_owned().map_err(|_| Error::RateLimited { retry_after_secs: 1 })?;
        Ok(Seat { admission: self, seat })
    }
}

/// A place in an [`Admission`]'s queue, held until its work has run (or it is dropped).
pub struct Seat<'a> {
    admission: &'a Admission,
    seat: tokio::sync::OwnedSemaphorePermit,
}

impl Seat<'_> {
    /// Waits for a running place and runs `work` on one of the low-priority threads.
    pub async fn run<T: Send + 'static>(self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, Error> {
        let Seat { admission, seat } = self;
        let permit = admission.running.clone().acquire_owned().await.map_err(Error::internal)?;
        admission
            .threads
            .run(move || {
                let _held = (seat, permit);
                work()
            })
            .await
    }
}

/// Password checks and hashing: admitted like all costly work ([`Admission`]), and checked in
/// argon2 memory kept between checks (one buffer per check that may run at once), so that the
/// memory passwords take is fixed however many sign-ins arrive
/// ([`secrets::HashingMemory`](crate::platform::secrets::HashingMemory) says why it must be kept).
pub struct Passwords {
    admission: Admission,
    memory: Arc<Mutex<Vec<crate::platform::secrets::HashingMemory>>>,
}

impl Passwords {
    pub fn new(running: usize, queued: usize) -> std::io::Result<Passwords> {
        Ok(Passwords { admission: Admission::new("passwords", running, queued)?, memory: Arc::default() })
    }

    /// Whether `password` is the one `phc` was made from; `None` checks against a fixed
    /// hash (an unknown account answers as slowly as a wrong password).
    pub async fn verify(&self, password: String, phc: Option<String>) -> Result<bool, Error> {
        self.seat()?.verify(password, phc).await
    }

    /// A seat for one password check, taken before the rest of a sign-in (see [`Admission::seat`]).
    pub fn seat(&self) -> Result<PasswordSeat<'_>, Error> {
        Ok(PasswordSeat { seat: self.admission.seat()?, memory: self.memory.clone() })
    }

    /// The argon2id PHC string of a new password (rare: a password set or changed).
    pub async fn hash(&self, password: String) -> Result<String, Error> {
        self.admission.run(move || crate::platform::secrets::hash_password(&password)).await?.map_err(Error::internal)
    }

    /// Runs other work behind the same admission (a test holds the one running seat with it).
    pub async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, Error> {
        self.admission.run(work).await
    }
}

/// A seat for one password check in [`Passwords`].
pub struct PasswordSeat<'a> {
    seat: Seat<'a>,
    memory: Arc<Mutex<Vec<crate::platform::secrets::HashingMemory>>>,
}

impl PasswordSeat<'_> {
    /// Whether `password` is the one `phc` was made from; `None` checks against a fixed hash.
    pub async fn verify(self, password: String, phc: Option<String>) -> Result<bool, Error> {
        let memory = self.memory;
        self.seat
            .run(move || {
                let phc = phc.as_deref().unwrap_or_else(|| crate::platform::secrets::dummy_password_hash());
                // At most `running` checks hold a buffer at once: the pool never holds more.
                let mut kept = memory.lock().ok().and_then(|mut pool| pool.pop()).unwrap_or_default();
                let matches = crate::platform::secrets::verify_password_in(&password, phc, &mut kept);
                if let Ok(mut pool) = memory.lock() {
                    pool.push(kept);
                }
                matches
            })
            .await
    }
}

/// The limits of the unauthenticated doors and costly steps, assembled once per process.
pub struct Doors {
    /// Requests per address to the doors that authenticate or verify: the API's
    /// `/api/v1/auth/*` and `/api/v1/verify`, the sign-in page and the `/verify` page share it
    /// (`auth_rate_limit_per_minute`), so one door does not add to another's allowance.
    pub auth: Arc<IpRateLimiter>,
    /// "E-mail me a code" from all addresses together (`mail_codes_per_minute`).
    pub mail_codes: GlobalRateLimiter,
    /// Gateway status queries per address (`gateway_status_per_minute`).
    pub gateway_status: IpRateLimiter,
    /// Password hashing and checking (`password_hashing_limit`, `password_hashing_queue`).
    pub passwords: Passwords,
}

impl Doors {
    pub fn from_config(config: &crate::Config) -> std::io::Result<Doors> {
        Ok(Doors {
            auth: Arc::new(IpRateLimiter::per_minute(config.auth_rate_limit_per_minute)),
            mail_codes: GlobalRateLimiter::per_minute(config.mail_codes_per_minute),
            gateway_status: IpRateLimiter::per_minute(config.gateway_status_per_minute),
            passwords: Passwords::new(config.password_hashing_limit, config.password_hashing_queue)?,
        })
    }
}

/// Admits one sign-in attempt for `account_key` from `ip`, or refuses it (rate limited) with
/// the remaining delay; the check and the count are one statement (see
/// [`signet_store::Store::admit_auth_attempt`]). Keyed by account *and* address, so failures
/// from one address cannot lock the account's owner out at another. Answers the throttle key,
/// to clear after a success.
pub async fn admit_attempt(svc: &Services, account_key: &str, ip: IpAddr) -> Result<String, Error> {
    let throttle_key = format!("{account_key}|{ip}");
    let window_ms = (svc.config.account_failure_window_secs * 1000) as i64;
    let policy = AuthThrottle {
        window_ms,
        limit: i64::from(svc.config.account_failure_limit),
        base_delay_ms: svc.config.account_failure_delay_ms as i64,
        max_delay_ms: window_ms,
    };
    match svc.store.admit_auth_attempt(&throttle_key, &policy).await? {
        AuthAttempt::Admitted => Ok(throttle_key),
        AuthAttempt::Blocked { retry_after_ms } => {
            Err(Error::RateLimited { retry_after_secs: (retry_after_ms as u64).div_ceil(1000).max(1) })
        }
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

    #[test]
    fn a_full_record_refuses_newcomers_and_keeps_its_counts() {
        let limiter = IpRateLimiter::new(1, Duration::from_secs(60), 2);
        let [a, b, c]: [IpAddr; 3] = [[10, 0, 0, 1].into(), [10, 0, 0, 2].into(), [10, 0, 0, 3].into()];
        assert!(limiter.check(a).is_ok() && limiter.check(b).is_ok());
        assert!(matches!(limiter.check(c), Err(Error::RateLimited { .. })), "no room: refused, not forgotten");
        assert!(matches!(limiter.check(a), Err(Error::RateLimited { .. })), "a's count was kept");
    }

    #[test]
    fn a_global_limit_counts_everyone_together() {
        let limiter = GlobalRateLimiter::per_minute(2);
        assert!(limiter.check().is_ok() && limiter.check().is_ok());
        assert!(matches!(limiter.check(), Err(Error::RateLimited { retry_after_secs }) if retry_after_secs >= 1));
    }

    #[test]
    fn an_ipv6_network_counts_as_one_address() {
        let limiter = IpRateLimiter::per_minute(1);
        let one: IpAddr = "2001:db8:1:2::1".parse().expect("v6");
        let same_network: IpAddr = "2001:db8:1:2:ffff::9".parse().expect("v6");
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().expect("v6");
        assert!(limiter.check(one).is_ok());
        assert!(limiter.check(same_network).is_err());
        assert_eq!(address_key(mapped), IpAddr::from([10, 0, 0, 1]));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn admission_refuses_at_once_when_running_and_queue_are_full() {
        let admission = Arc::new(Admission::new("test", 1, 1).expect("threads"));
        let (release, held) = std::sync::mpsc::channel::<()>();
        let held = Arc::new(Mutex::new(held));
        let (started_tx, started) = tokio::sync::oneshot::channel();
        let running = {
            let (admission, held) = (admission.clone(), held.clone());
            tokio::spawn(async move {
                admission
                    .run(move || {
                        let _ = started_tx.send(());
                        let _ = held.lock().map(|h| h.recv());
                    })
                    .await
            })
        };
        started.await.expect("the first runs");
        let queued = {
            let admission = admission.clone();
            tokio::spawn(async move { admission.run(|| 2).await })
        };
        // The queued one holds its seat while it waits; poll until it has taken it.
        while admission.seats.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        let refused = admission.run(|| 3).await;
        assert!(matches!(refused, Err(Error::RateLimited { retry_after_secs: 1 })), "{refused:?}");
        release.send(()).expect("release");
        assert!(running.await.expect("join").is_ok());
        assert_eq!(queued.await.expect("join").expect("admitted from the queue"), 2);
        assert_eq!(admission.run(|| 4).await.expect("room again"), 4);
    }
}
