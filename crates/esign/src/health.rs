//! How healthy an ESP is, from what was seen of it over a sliding window, and which ESP a new
//! transaction goes to. Pure rules: the caller brings the time and what it saw (an answer, a
//! refusal that is the ESP's own failure, a connection failure or time-out, a probe's result).
//!
//! Why these rules (issue 39: "a provider that fails is skipped within 60 s; routing goes back
//! when it returns"):
//! * Two failures in a row with nothing good between them is an ESP that is down now, not a
//!   blip: it is skipped at once. A probe every 10-15 s makes that at most ~30 s after it died,
//!   even when no signer is there to notice.
//! * One failure, or a quarter of the window's observations failed, or answers slower than
//!   [`SLOW_MS`]: the ESP still works but is degraded; a healthy ESP goes first.
//! * What is older than the window is forgotten, so an ESP that came back is healthy again at
//!   most one window after its return (sooner once its good answers outweigh the failures).
//! * Among equals the configured priority decides: the primary, when it is healthy, gets every
//!   new transaction.

use std::collections::VecDeque;

/// Answers slower than this (the median of the window's timed observations) degrade an ESP.
pub const SLOW_MS: u32 = 5_000;
/// Most observations kept per ESP: a busy ESP's window is a sample of its latest, bounded.
pub const MAX_OBSERVATIONS: usize = 512;

/// What was seen of an ESP once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Observation {
    /// It answered: an answer to a request, or an HTTP answer to a probe. `latency_ms` when the
    /// time is the ESP's own (a probe, the server flow's post), not a signer's at its pages.
    Answered { latency_ms: Option<u32> },
    /// It answered with a refusal that is its own failure (its service, its CA, UIDAI behind it).
    Refused,
    /// It could not be reached, did not answer in time, or answered with a server error.
    Unreachable,
}

impl Observation {
    pub fn failed(self) -> bool {
        !matches!(self, Observation::Answered { .. })
    }

    /// For metrics and logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Observation::Answered { .. } => "answered",
            Observation::Refused => "refused",
            Observation::Unreachable => "unreachable",
        }
    }
}

/// An ESP's health, best first (the order routing sorts by).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Healthy,
    Degraded,
    Down,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Healthy => "healthy",
            Verdict::Degraded => "degraded",
            Verdict::Down => "down",
        }
    }

    /// The metrics gauge: 2 healthy, 1 degraded, 0 down.
    pub fn gauge(self) -> f64 {
        match self {
            Verdict::Healthy => 2.0,
            Verdict::Degraded => 1.0,
            Verdict::Down => 0.0,
        }
    }
}

/// The window's counts and the verdict they lead to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Health {
    pub verdict: Verdict,
    pub answered: u32,
    pub refused: u32,
    pub unreachable: u32,
    /// Median of the timed observations, if any.
    pub median_latency_ms: Option<u32>,
}

/// One ESP's observations over the last `span_ms` (times are milliseconds of any monotonic
/// clock the caller keeps).
#[derive(Debug, Clone)]
pub struct Window {
    span_ms: u64,
    seen: VecDeque<(u64, Observation)>,
}

impl Window {
    pub fn new(span_ms: u64) -> Window {
        Window { span_ms: span_ms.max(1), seen: VecDeque::new() }
    }

    pub fn record(&mut self, at_ms: u64, observation: Observation) {
        self.forget_before(at_ms);
        if self.seen.len() == MAX_OBSERVATIONS {
            self.seen.pop_front();
        }
        self.seen.push_back((at_ms, observation));
    }

    fn forget_before(&mut self, now_ms: u64) {
        let oldest = now_ms.saturating_sub(self.span_ms);
        while self.seen.front().is_some_and(|(at, _)| *at < oldest) {
            self.seen.pop_front();
        }
    }

    /// The health at `now_ms`, from the observations still in the window. Nothing seen (no
    /// traffic, no probe yet) is healthy: an ESP is not condemned without evidence.
    pub fn health(&mut self, now_ms: u64) -> Health {
        self.forget_before(now_ms);
        let mut health =
            Health { verdict: Verdict::Healthy, answered: 0, refused: 0, unreachable: 0, median_latency_ms: None };
        let mut latencies = Vec::new();
        for (_, observation) in &self.seen {
            match observation {
                Observation::Answered { latency_ms } => {
                    health.answered += 1;
                    latencies.extend(latency_ms);
                }
                Observation::Refused => health.refused += 1,
                Observation::Unreachable => health.unreachable += 1,
            }
        }
        latencies.sort_unstable();
        health.median_latency_ms = latencies.get(latencies.len() / 2).copied();
        let mut latest = self.seen.iter().rev().map(|(_, o)| o.failed());
        let (last, before) = (latest.next(), latest.next());
        let failures = health.refused + health.unreachable;
        let total = failures + health.answered;
        health.verdict = if last == Some(true) && before == Some(true) {
            Verdict::Down
        } else if last == Some(true)
            || failures * 4 >= total.max(1) && failures > 0
            || health.median_latency_ms.is_some_and(|ms| ms > SLOW_MS)
        {
            Verdict::Degraded
        } else {
            Verdict::Healthy
        };
        health
    }
}

/// The order in which to try the ESPs (indexes into `verdicts`, which is in priority order):
/// the ESPs that are not down before those that are; among them the one to `avoid` (the ESP
/// that just failed this signer) last; then the healthiest; then priority.
pub fn route(verdicts: &[Verdict], avoid: Option<usize>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..verdicts.len()).collect();
    order.sort_by_key(|&i| (verdicts[i] == Verdict::Down, Some(i) == avoid, verdicts[i], i));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: u64 = 60_000;
    const OK: Observation = Observation::Answered { latency_ms: Some(120) };

    fn window_of(seen: &[(u64, Observation)]) -> Window {
        let mut window = Window::new(WINDOW);
        for (at, observation) in seen {
            window.record(*at, *observation);
        }
        window
    }

    #[test]
    fn nothing_seen_is_healthy_and_answers_keep_it_so() {
        assert_eq!(Window::new(WINDOW).health(0).verdict, Verdict::Healthy);
        let mut window = window_of(&[(0, OK), (1_000, OK), (2_000, Observation::Answered { latency_ms: None })]);
        let health = window.health(3_000);
        assert_eq!((health.verdict, health.answered, health.median_latency_ms), (Verdict::Healthy, 3, Some(120)));
    }

    #[test]
    fn two_failures_in_a_row_are_down_one_is_degraded() {
        let mut window = window_of(&[(0, OK), (1_000, OK), (2_000, OK), (3_000, OK), (4_000, OK)]);
        window.record(10_000, Observation::Unreachable);
        assert_eq!(window.health(10_000).verdict, Verdict::Degraded);
        window.record(20_000, Observation::Refused);
        let health = window.health(20_000);
        assert_eq!((health.verdict, health.refused, health.unreachable), (Verdict::Down, 1, 1));
    }

    #[test]
    fn a_failure_between_answers_is_a_blip_until_a_quarter_of_the_window_fails() {
        let mut window =
            window_of(&[(0, OK), (1_000, OK), (2_000, OK), (3_000, OK), (4_000, Observation::Unreachable)]);
        window.record(5_000, OK);
        assert_eq!(window.health(5_000).verdict, Verdict::Healthy, "1 failure in 6");
        window.record(6_000, Observation::Unreachable);
        window.record(7_000, OK);
        assert_eq!(window.health(7_000).verdict, Verdict::Degraded, "2 failures in 8");
    }

    #[test]
    fn a_returned_esp_is_healthy_again_within_one_window() {
        let mut window = window_of(&[(0, Observation::Unreachable), (10_000, Observation::Unreachable)]);
        assert_eq!(window.health(10_000).verdict, Verdict::Down);
        // It answers probes again from 20 s on.
        window.record(20_000, OK);
        assert_eq!(window.health(20_000).verdict, Verdict::Degraded, "back, but most of what is known failed");
        for at in (30_000..=70_000).step_by(10_000) {
            window.record(at, OK);
        }
        assert_eq!(window.health(70_000).verdict, Verdict::Healthy, "the failures left the window");
        // Without probes the failures are forgotten too: nothing is known, nothing condemns it.
        let mut silent = window_of(&[(0, Observation::Unreachable), (1_000, Observation::Unreachable)]);
        assert_eq!(silent.health(WINDOW + 1_001).verdict, Verdict::Healthy);
    }

    #[test]
    fn slow_answers_degrade() {
        let slow = Observation::Answered { latency_ms: Some(SLOW_MS + 1) };
        let mut window = window_of(&[(0, slow), (1, slow), (2, OK)]);
        assert_eq!(window.health(3).verdict, Verdict::Degraded);
    }

    #[test]
    fn the_window_holds_a_bounded_sample() {
        let mut window = Window::new(WINDOW);
        for at in 0..(MAX_OBSERVATIONS as u64 + 100) {
            window.record(at, OK);
        }
        assert_eq!(window.health(MAX_OBSERVATIONS as u64 + 100).answered as usize, MAX_OBSERVATIONS);
    }

    #[test]
    fn routing_prefers_the_healthy_by_priority_skips_the_down_and_the_avoided() {
        use Verdict::{Degraded, Down, Healthy};
        assert_eq!(route(&[Healthy, Healthy], None), [0, 1], "the primary when healthy");
        assert_eq!(route(&[Degraded, Healthy], None), [1, 0], "the healthiest");
        assert_eq!(route(&[Down, Degraded], None), [1, 0], "a degraded ESP before a down one");
        assert_eq!(route(&[Healthy, Healthy, Healthy], Some(0)), [1, 2, 0], "never the same one twice in a row");
        assert_eq!(route(&[Healthy, Down], Some(0)), [0, 1], "but the avoided one before a down one");
        assert_eq!(route(&[Healthy], Some(0)), [0], "the only one is still tried");
    }
}
