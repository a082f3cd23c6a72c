//! Threads for costly work (password hashing, parsing, checking and sealing uploaded files),
//! apart from tokio's blocking pool and at a lower CPU priority than the threads that answer
//! requests.
//!
//! Admission decides how much costly work runs at once (`heavy::HeavyPool`, `limits::Admission`:
//! about one piece per core); priority decides who gets the cores while it runs. At nice 10 a
//! thread weighs about a tenth of a normal one in Linux's scheduler, so when a flood keeps every
//! hashing and parsing slot busy, a request handler that wakes up (another tenant's read) still
//! gets about nine of every ten time slices it asks for, instead of one share among equals.
//! Costly work loses nothing when the machine is otherwise idle. The threads are dedicated
//! because a thread cannot raise its priority again once lowered (without privileges): tokio's
//! shared blocking threads, which also serve file reads, must stay at normal priority.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use signet_domain::Error;

/// How much lower than request handling costly work runs (Linux nice: 0 normal, 19 lowest).
const NICENESS: i32 = 10;

type Work = Box<dyn FnOnce() + Send>;

/// A fixed set of low-priority threads taking work in order; they end when this is dropped.
pub struct CostlyThreads {
    queue: mpsc::Sender<Work>,
}

impl CostlyThreads {
    /// Starts `threads` threads named `name-N` (at least one), at the lower priority.
    pub fn start(name: &str, threads: usize) -> std::io::Result<CostlyThreads> {
        CostlyThreads::start_at(name, threads, true)
    }

    /// Starts `threads` threads at normal priority (for work that must not wait behind a
    /// flood: see `heavy::HeavyPool`) or, when `lowered`, at the lower one.
    pub fn start_at(name: &str, threads: usize, lowered: bool) -> std::io::Result<CostlyThreads> {
        let (queue, work) = mpsc::channel::<Work>();
        let work = Arc::new(Mutex::new(work));
        for n in 0..threads.max(1) {
            let work = work.clone();
            std::thread::Builder::new().name(format!("{name}-{n}")).spawn(move || {
                if lowered {
                    lower_priority();
                }
                // Each thread waits its turn at the receiver; the queue closing ends them all.
                while let Some(next) = work.lock().ok().and_then(|receiver| receiver.recv().ok()) {
                    next();
                }
            })?;
        }
        Ok(CostlyThreads { queue })
    }

    /// Runs `work` on one of the threads; a panic in it is an internal error, not a lost thread.
    pub async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, Error> {
        let (done, answer) = tokio::sync::oneshot::channel();
        let job: Work = Box::new(move || {
            let _ = done.send(std::panic::catch_unwind(AssertUnwindSafe(work)));
        });
        self.queue.send(job).map_err(|_| Error::internal("the costly-work threads have stopped"))?;
        match answer.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(_)) => Err(Error::internal("costly work panicked")),
            Err(_) => Err(Error::internal("the costly-work threads have stopped")),
        }
    }
}

/// Lowers the calling thread's priority (on Linux, nice values are per thread). A refusal
/// (a sandbox that forbids it) leaves the thread at normal priority: slower to yield, not wrong.
fn lower_priority() {
    let thread = rustix::thread::gettid();
    if let Err(error) = rustix::process::setpriority_process(Some(thread), NICENESS) {
        tracing::debug!(%error, "costly-work thread kept normal priority");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_at_lower_priority_and_a_panic_is_an_error() {
        let threads = CostlyThreads::start("test-costly", 1).expect("threads");
        let niceness = threads
            .run(|| rustix::process::getpriority_process(Some(rustix::thread::gettid())).expect("priority"))
            .await
            .expect("ran");
        assert_eq!(niceness, NICENESS);
        let panicked = threads.run(|| -> u8 { panic!("boom") }).await;
        assert!(panicked.is_err());
        assert_eq!(threads.run(|| 7).await.expect("the thread lives on"), 7);
    }
}
