//! Background work in the job queue: every instance runs a worker, and leases make sure each
//! job runs once across all of them. Periodic maintenance is enqueued with a dedupe key per
//! time slot, so several instances scheduling it still create one job per slot. What each job
//! does is `signet_services::platform::jobs`.

use std::time::Duration;

use signet_domain::job::{JobKind, RetryPolicy};
use signet_domain::now_millis;
use signet_services::Services;
pub use signet_services::platform::jobs::{gateway_housekeeping, workflow_housekeeping};
use signet_services::platform::jobs::{run_job, schedule_periodic};
use signet_store::Store;
use tokio::sync::watch;

/// A name for this process in job leases: host, process id and a random suffix.
pub fn worker_id() -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "host".into());
    format!("{host}-{}-{}", std::process::id(), signet_services::platform::secrets::random_token(4))
}

/// Retries back off by the job kind's policy (`JobKind::retry_policy`); a kind this build does
/// not know (its job fails at once) backs off by the standard one.
fn retry_delay_ms(kind: &str, attempts: i64, base_ms: u64) -> i64 {
    let policy = JobKind::parse(kind).map_or(RetryPolicy::STANDARD, JobKind::retry_policy);
    policy.random_delay_ms(attempts, i64::try_from(base_ms).unwrap_or(1000))
}

/// Claims and runs due jobs until `shutdown` turns true.
pub async fn run(state: Services, store: Store, poll: Duration, mut shutdown: watch::Receiver<bool>) {
    let worker = worker_id();
    let mut last_schedule = 0_i64;
    loop {
        if now_millis() - last_schedule > 60_000 {
            if let Err(error) = schedule_periodic(&store).await {
                tracing::warn!(%error, "could not schedule periodic jobs");
            }
            last_schedule = now_millis();
        }
        let lease_ms = i64::try_from(state.config.job_lease_ms).unwrap_or(i64::MAX).max(1_000);
        let mut busy = false;
        match store.claim_jobs(&worker, lease_ms, 8).await {
            Ok(jobs) => {
                busy = !jobs.is_empty();
                for job in jobs {
                    let outcome = run_job(&state, &job).await;
                    let recorded = match outcome {
                        Ok(()) => store.complete_job(job.id, &worker).await.map(|_| ()),
                        Err(error) => {
                            tracing::warn!(job = job.id.get(), kind = %job.kind, %error, "job failed");
                            let retry_at =
                                now_millis() + retry_delay_ms(&job.kind, job.attempts, state.config.job_retry_base_ms);
                            store.fail_job(job.id, &worker, &error.to_string(), retry_at).await
                        }
                    };
                    if let Err(error) = recorded {
                        tracing::warn!(job = job.id.get(), %error, "could not record job outcome");
                    }
                }
            }
            Err(error) => tracing::warn!(%error, "could not claim jobs"),
        }
        // A queue with work in it is drained without pauses; an empty one is polled.
        let pause = if busy { Duration::ZERO } else { poll };
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            _ = shutdown.changed() => {}
        }
        if *shutdown.borrow() {
            break;
        }
    }
}
