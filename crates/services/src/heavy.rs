//! CPU-heavy work on uploaded files (opening envelopes, parsing and checking PDFs, sealing,
//! extracting text) runs on blocking threads, at most `heavy_work_limit` at once. On the async
//! executor a few large or hostile files would stall every other request; on an unbounded
//! blocking pool they would each take a thread and their memory at the same moment. Requests
//! beyond the limit wait their turn, in order.

use std::sync::Arc;

use signet_domain::Error;
use tokio::sync::Semaphore;

pub struct HeavyPool {
    permits: Arc<Semaphore>,
    limit: usize,
}

impl HeavyPool {
    /// `limit` 0 means one task per CPU core.
    pub fn new(limit: usize) -> HeavyPool {
        let limit = if limit == 0 { std::thread::available_parallelism().map_or(2, usize::from) } else { limit };
        HeavyPool { permits: Arc::new(Semaphore::new(limit)), limit }
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Runs `work` on a blocking thread once a permit is free.
    pub async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, Error> {
        let permit = self.permits.clone().acquire_owned().await.map_err(Error::internal)?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(Error::internal)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn never_more_than_the_limit_at_once() {
        let pool = Arc::new(HeavyPool::new(2));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let (pool, running, most) = (pool.clone(), running.clone(), most.clone());
                tokio::spawn(async move {
                    pool.run(move || {
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
}
