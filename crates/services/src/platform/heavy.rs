//! CPU-heavy work on uploaded files (opening envelopes, parsing and checking PDFs, sealing,
//! extracting text) runs on blocking threads, at most `heavy_work_limit` at once. On the async
//! executor a few large or hostile files would stall every other request; on an unbounded
//! blocking pool they would each take a thread and their memory at the same moment. Requests
//! beyond the limit wait their turn, in order. The work runs on the pool's own threads
//! ([`CostlyThreads`]), the public doors' at a lower CPU priority than request handling.
//!
//! **Fair share.** One process serves every tenant, so one tenant's flood (a bulk send, a burst
//! of uploads) must not take every slot: each [`Share`] (a tenant, or one of the public doors
//! that come before any tenant is known) holds at most `heavy_work_per_tenant` slots at once (by
//! default one fewer than the pool has), and its further work waits in its own line, not in
//! the pool's. Another tenant's request therefore finds a slot after at most the work already
//! running, never behind the flooder's queue.
//!
//! **Priority.** The public doors' work (anyone's files to verify, integrators' envelopes before
//! their Authtoken is read) runs at the lower priority of [`CostlyThreads`]: a crowd of strangers
//! yields the cores to request handling. A tenant's work (signing, sealing, its uploads) runs at
//! normal priority: it is what that tenant's request is waiting for, and at the lower priority
//! it would wait behind every other request the machine is handling (a signature under a flood
//! took four times as long). Fair share already keeps one tenant to its slots; the pool's limit
//! keeps all of it to the cores.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use signet_domain::{Error, TenantId};
use tokio::sync::Semaphore;

use crate::platform::costly::CostlyThreads;

/// Whose work it is, for the fair share of the pool. The two public doors have a line each, so
/// that a flood of one (anyone may check a signature) does not hold up the other (integrators'
/// sealed requests, opened before their Authtoken can be read).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Share {
    Tenant(TenantId),
    /// Signature verification for anyone (`/verify`, `POST /api/v1/verify`).
    Verification,
    /// The gateway's intake from one client address (`limits::address_key`), before the
    /// request's Authtoken names its tenant: one sender's envelopes wait in their own line, not
    /// in front of every integrator's.
    GatewayIntake(std::net::IpAddr),
}

/// Lines kept before the idle ones are forgotten.
const MAX_IDLE_LINES: usize = 4096;

pub struct HeavyPool {
    permits: Arc<Semaphore>,
    limit: usize,
    per_share: usize,
    /// Each share's own line (created on first use; one small semaphore per tenant).
    lines: Mutex<HashMap<Share, Arc<Semaphore>>>,
    /// Tenants' work, at normal priority.
    tenants: CostlyThreads,
    /// The public doors' work, at the lower priority.
    public: CostlyThreads,
}

impl HeavyPool {
    /// `limit` 0 means one task per CPU core; `per_share` 0 means one fewer than `limit`
    /// (at least one).
    pub fn new(limit: usize, per_share: usize) -> std::io::Result<HeavyPool> {
        let limit = if limit == 0 { std::thread::available_parallelism().map_or(2, usize::from) } else { limit };
        let per_share = match per_share {
            0 => limit.saturating_sub(1).max(1),
            n => n.min(limit),
        };
        Ok(HeavyPool {
            permits: Arc::new(Semaphore::new(limit)),
            limit,
            per_share,
            lines: Mutex::new(HashMap::new()),
            tenants: CostlyThreads::start_at("heavy", limit, false)?,
            public: CostlyThreads::start("heavy-public", limit)?,
        })
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The most slots one share holds at once.
    pub fn per_share(&self) -> usize {
        self.per_share
    }

    fn line(&self, share: Share) -> Result<Arc<Semaphore>, Error> {
        let mut lines = self.lines.lock().map_err(|_| Error::internal("the heavy pool's lines are poisoned"))?;
        // Lines per address come and go: past a bound, the idle ones (held by nobody but the
        // map: no work of theirs runs or waits) are forgotten.
        if lines.len() >= MAX_IDLE_LINES && !lines.contains_key(&share) {
            lines.retain(|_, line| Arc::strong_count(line) > 1);
        }
        Ok(lines.entry(share).or_insert_with(|| Arc::new(Semaphore::new(self.per_share))).clone())
    }

    /// Runs `work` for `share` on one of the pool's threads once the share's line and the pool both
    /// have a free slot.
    pub async fn run<T: Send + 'static>(
        &self,
        share: Share,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Error> {
        let own = self.line(share)?.acquire_owned().await.map_err(Error::internal)?;
        let permit = self.permits.clone().acquire_owned().await.map_err(Error::internal)?;
        let threads = match share {
            Share::Tenant(_) => &self.tenants,
            Share::Verification | Share::GatewayIntake(_) => &self.public,
        };
        // The slots go with the work: a caller that stops waiting does not free them early.
        threads
            .run(move || {
                let _slots = (own, permit);
                work()
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn never_more_than_the_limit_at_once() {
        let pool = Arc::new(HeavyPool::new(2, 2).expect("pool"));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let (pool, running, most) = (pool.clone(), running.clone(), most.clone());
                tokio::spawn(async move {
                    pool.run(Share::Verification, move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        for task in tasks {
            assert!(task.await.expect("join").is_ok());
        }
        assert_eq!(most.load(Ordering::SeqCst), 2);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_flooding_tenant_leaves_a_slot_for_another() {
        let pool = Arc::new(HeavyPool::new(2, 0).expect("pool"));
        assert_eq!(pool.per_share(), 1);
        let flooder = Share::Tenant(TenantId::from(1));
        let (release, held) = std::sync::mpsc::channel::<()>();
        let held = Arc::new(Mutex::new(held));
        // The flooder's first task holds its one slot; twenty more wait in its own line.
        let mut queued = Vec::new();
        for _ in 0..21 {
            let (pool, held) = (pool.clone(), held.clone());
            queued.push(tokio::spawn(async move {
                pool.run(flooder, move || {
                    let _ = held.lock().map(|h| h.recv());
                })
                .await
            }));
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        // Another tenant is served at once, past the flooder's queue.
        let other = Share::Tenant(TenantId::from(2));
        let served = tokio::time::timeout(std::time::Duration::from_secs(5), pool.run(other, || 42)).await;
        assert_eq!(served.expect("served while the flooder waits").expect("ran"), 42);
        for _ in 0..21 {
            release.send(()).expect("release");
        }
        for task in queued {
            assert!(task.await.expect("join").is_ok());
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_public_doors_work_yields_and_a_tenants_does_not() {
        let pool = HeavyPool::new(2, 0).expect("pool");
        let niceness = || rustix::process::getpriority_process(Some(rustix::thread::gettid())).expect("priority");
        let tenant = pool.run(Share::Tenant(TenantId::from(1)), niceness).await.expect("ran");
        let public = pool.run(Share::Verification, niceness).await.expect("ran");
        let intake = pool.run(Share::GatewayIntake([192, 0, 2, 1].into()), niceness).await.expect("ran");
        assert_eq!(tenant, 0);
        assert_eq!((public, intake), (10, 10));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn idle_lines_of_passing_addresses_are_forgotten() {
        let pool = HeavyPool::new(2, 0).expect("pool");
        for n in 0..(MAX_IDLE_LINES as u32 + 10) {
            let address = std::net::IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + n));
            pool.run(Share::GatewayIntake(address), || ()).await.expect("ran");
        }
        let kept = pool.lines.lock().expect("lines").len();
        assert!(kept < MAX_IDLE_LINES, "{kept} lines kept");
    }
}
