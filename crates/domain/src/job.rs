//! The kinds of background work, stored as text in the job queue (`jobs.kind`) and in bulk jobs
//! (`bulk_jobs.kind`): declared once here, so that what enqueues a job and what runs it cannot
//! spell a kind two ways, and a stored kind that names nothing is an error, not a silent skip.

use crate::text_state::text_states;

text_states! {
    /// What a queued job does (`signet_services::platform::jobs::run_job` runs each).
    pub enum JobKind ("job kind") {
        /// Refresh tokens and single sign-on states past their end, deleted (periodic).
        PurgeExpiredTokens => "maintenance.purge_expired_tokens",
        /// Gateway transactions whose signer never finished, expired; kept results past their
        /// retention, deleted (periodic).
        GatewayHousekeeping => "gateway.housekeeping",
        /// Reminders, expiries and the next signing group's notices (periodic).
        WorkflowHousekeeping => "workflow.housekeeping",
        /// Completed documents whose long-term time-stamp runs out within the margin, renewed;
        /// those time-stamped before it was recorded, read (periodic).
        LtaRenewal => "lta.renewal",
        /// What follows a committed workflow event: e-mails, webhooks, automated signing.
        WorkflowEvent => "workflow.event",
        /// One e-mail.
        Mail => "mail.send",
        /// One text message.
        Sms => "sms.send",
        /// The answer to an e-mail address typed on the sign-in page (a code, or nothing).
        CheckAccount => "account.check",
        /// One webhook delivery.
        WebhookDeliver => "webhook.deliver",
        /// One lead pushed to the tenant's CRM.
        CrmPush => "crm.push",
        /// The low-stock alert of a tenant's stamp inventory.
        StampLowStock => "stamps.low_stock",
        /// One slice of a bulk job's items.
        BulkRun => "bulk.run",
        /// One slice of an export.
        ExportRun => "export.run",
        /// A workflow's signatures made long-term (PAdES B-LT) after a signature; retried
        /// while a CA or TSA does not answer.
        LongTermData => "workflow.long_term",
        /// Workflows and gateway transactions whose retention period ended, erased (periodic).
        RetentionSweep => "retention.sweep",
        /// The stored objects of an erased workflow or transaction, deleted after the erasure
        /// committed (retried until gone, so a crash between the two leaves nothing behind).
        EraseBlobs => "blobs.erase",
    }
}

text_states! {
    /// What a bulk job does with each of its items.
    pub enum BulkKind ("bulk job kind") {
        /// One workflow started per row of a sheet.
        Send => "bulk_send",
        /// One signature applied to each workflow of a lot.
        LotSign => "lot_sign",
    }
}

/// How a kind of job backs off between attempts. Delays are counted in units of the
/// installation's retry base (`job_retry_base_ms`, one second in production), so that tests
/// shrink the whole schedule by setting a small base. The n-th failed attempt waits
/// `first × 2^(n-1)` units, at most `cap`, spread by ± `jitter_percent` so that deliveries
/// that failed together (an endpoint's outage) do not all come back in the same instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (the queue's `max_attempts`).
    pub attempts: i64,
    /// The wait after the first failed attempt, in units of the retry base.
    pub first: i64,
    /// The longest wait, in units of the retry base.
    pub cap: i64,
    /// How far (in percent, either way) a wait is spread at random.
    pub jitter_percent: i64,
}

impl RetryPolicy {
    /// Work done inside Signet or handed to its own providers (mail, text messages, exports):
    /// 2, 4, 8, ... units, at most 2048 (34 minutes in production), not spread; the kind's
    /// enqueuer chooses its attempts (this number is the usual one).
    pub const STANDARD: RetryPolicy = RetryPolicy { attempts: 8, first: 2, cap: 2048, jitter_percent: 0 };

    /// Posts to another party's system (webhook deliveries, CRM pushes), which may be down
    /// for a day: 15 attempts, 30 s doubling up to 6 h, spread ±20 %, so the last attempt comes
    /// 26 to 39 hours after the first (32.5 h without the spread).
    pub const OUTBOUND: RetryPolicy = RetryPolicy { attempts: 15, first: 30, cap: 21_600, jitter_percent: 20 };

    /// The wait before the attempt after failed attempt number `attempt` (1 for the first),
    /// with no spread, in milliseconds for a retry base of `base_ms`.
    pub fn nominal_delay_ms(&self, attempt: i64, base_ms: i64) -> i64 {
        // 2^40 units is beyond any cap, so the shift neither overflows nor changes the result.
        let doublings = attempt.clamp(1, 41) - 1;
        let units = self.first.saturating_mul(1_i64 << doublings).min(self.cap);
        units.saturating_mul(base_ms.max(1))
    }

    /// The wait with its spread: `draw` picks the point in the ± `jitter_percent` range
    /// (0 the shortest, `u32::MAX` the longest).
    pub fn delay_ms(&self, attempt: i64, base_ms: i64, draw: u32) -> i64 {
        let nominal = i128::from(self.nominal_delay_ms(attempt, base_ms));
        let jitter = i128::from(self.jitter_percent.clamp(0, 100));
        // percent × 2^32: (100 - j) at draw 0 up to (100 + j) at the top draw.
        let scaled = ((100 - jitter) << 32) + 2 * jitter * i128::from(draw);
        i64::try_from(nominal * scaled / (100_i128 << 32)).unwrap_or(i64::MAX)
    }

    /// [`Self::delay_ms`] with a random draw.
    pub fn random_delay_ms(&self, attempt: i64, base_ms: i64) -> i64 {
        let mut bytes = [0u8; 4];
        // Without randomness the wait is the nominal one: a schedule, not a secret.
        let draw = match aws_lc_rs::rand::fill(&mut bytes) {
            Ok(()) => u32::from_le_bytes(bytes),
            Err(_) => u32::MAX / 2,
        };
        self.delay_ms(attempt, base_ms, draw)
    }
}

impl JobKind {
    /// The backoff of this kind's failed attempts.
    pub const fn retry_policy(self) -> RetryPolicy {
        match self {
            JobKind::WebhookDeliver | JobKind::CrmPush => RetryPolicy::OUTBOUND,
            _ => RetryPolicy::STANDARD,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: i64 = 1000;

    #[test]
    fn the_standard_schedule_is_the_former_one() {
        let p = RetryPolicy::STANDARD;
        assert_eq!(p.delay_ms(1, SECOND, 12345), 2_000);
        assert_eq!(p.delay_ms(2, SECOND, 0), 4_000);
        assert_eq!(p.delay_ms(50, SECOND, u32::MAX), 2_048_000);
        assert_eq!(p.delay_ms(3, 10, 7), 80);
    }

    #[test]
    fn outbound_retries_span_a_day_even_at_the_shortest_spread() {
        let p = RetryPolicy::OUTBOUND;
        assert!(p.attempts >= 12);
        // The waits between the attempts: one fewer than the attempts.
        let span: i64 = (1..p.attempts).map(|n| p.delay_ms(n, SECOND, 0)).sum();
        assert!(span >= 24 * 3600 * SECOND, "{span} ms");
        assert_eq!(p.delay_ms(1, SECOND, u32::MAX / 2), 29_999, "30 s, less a rounding");
    }

    #[test]
    fn waits_grow_up_to_the_cap_and_the_spread_is_bounded() {
        for p in [RetryPolicy::STANDARD, RetryPolicy::OUTBOUND] {
            let mut before = 0;
            for n in 1..=60 {
                let nominal = p.nominal_delay_ms(n, SECOND);
                assert!(nominal >= before && nominal <= p.cap * SECOND, "{p:?} {n}");
                before = nominal;
                for draw in [0, 1, u32::MAX / 3, u32::MAX] {
                    let d = p.delay_ms(n, SECOND, draw);
                    let (low, high) =
                        (nominal * (100 - p.jitter_percent) / 100, nominal * (100 + p.jitter_percent) / 100);
                    assert!((low..=high).contains(&d), "{p:?} {n} {draw}: {d} not in {low}..={high}");
                }
            }
            assert_eq!(p.nominal_delay_ms(60, SECOND), p.cap * SECOND);
        }
    }
}
