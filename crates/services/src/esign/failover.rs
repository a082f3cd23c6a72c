//! Several ESPs: what is seen of each (kept over a sliding window), the order a new
//! transaction tries them in, and the probe that keeps a dead ESP known when no signer is there.
//!
//! Why a probe: in the 2.1 form flow the signer's browser posts to the ESP, so Signet never sees
//! a dead ESP, only answers that stop coming. A bounded GET to each ESP every
//! `esign_probe_interval_ms` (time-out `esign_probe_timeout_ms`; any HTTP answer below 500 is
//! alive) makes a dead ESP known within the window without any signer. In the 3.x server flow
//! Signet posts the request itself, and each post's outcome is recorded too; so is every answer.
//! The rules that turn observations into a verdict and a routing order are
//! `signet_esign::health` (pure, unit-tested); this module keeps the windows, the metrics
//! (`esign_esp_*`) and the log line when an ESP's verdict changes.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub use signet_esign::health::{Health, Verdict};
use signet_esign::health::{Observation, Window, route};
use tokio::sync::watch;

use super::EsignSetup;

/// The windows of every ESP (in priority order) and the verdicts last published.
pub struct EspHealth {
    started: Instant,
    names: Vec<String>,
    window_ms: u64,
    state: Mutex<State>,
}

struct State {
    windows: Vec<Window>,
    published: Vec<Verdict>,
    routed: Vec<Routed>,
}

/// New requests sent to one ESP since this instance started, by why it was chosen (as the
/// `esign_routed_total` metric counts them, kept here for the console and the API).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Routed {
    /// First in the order, and the primary.
    pub primary: u64,
    /// First in the order, another ESP before it being down or degraded.
    pub healthiest: u64,
    /// A signer back from another ESP, or a retry after a refused answer.
    pub retry: u64,
    /// An earlier ESP could not take the request (the server flow's post failed).
    pub failover: u64,
}

/// One routing decision, as counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decision {
    Primary,
    Healthiest,
    Retry,
    Failover,
}

impl Decision {
    fn as_str(self) -> &'static str {
        match self {
            Decision::Primary => "primary",
            Decision::Healthiest => "healthiest",
            Decision::Retry => "retry",
            Decision::Failover => "failover",
        }
    }
}

impl Routed {
    fn count(&mut self, decision: Decision) {
        let counter = match decision {
            Decision::Primary => &mut self.primary,
            Decision::Healthiest => &mut self.healthiest,
            Decision::Retry => &mut self.retry,
            Decision::Failover => &mut self.failover,
        };
        *counter = counter.saturating_add(1);
    }
}

/// Why the next ESP was chosen, for the routing metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RouteReason {
    /// The first in the routing order.
    Best,
    /// An earlier ESP could not take the request (the server flow's post failed).
    Failover,
}

impl EspHealth {
    pub fn new(names: Vec<String>, window_ms: u64) -> EspHealth {
        let windows = names.iter().map(|_| Window::new(window_ms)).collect();
        let published = names.iter().map(|_| Verdict::Healthy).collect();
        let routed = names.iter().map(|_| Routed::default()).collect();
        let state = Mutex::new(State { windows, published, routed });
        EspHealth { started: Instant::now(), names, window_ms: window_ms.max(1), state }
    }

    /// The span of the sliding window each verdict is drawn from.
    pub fn window_ms(&self) -> u64 {
        self.window_ms
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// A poisoned lock only means a panic elsewhere; the windows stay usable.
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn name(&self, esp: usize) -> &str {
        self.names.get(esp).map(String::as_str).unwrap_or("unknown")
    }

    /// Records what was seen of ESP `esp` now.
    pub fn record(&self, esp: usize, observation: Observation) {
        let name = self.name(esp).to_string();
        metrics::counter!("esign_esp_observations_total", "esp" => name.clone(), "outcome" => observation.as_str())
            .increment(1);
        if let Observation::Answered { latency_ms: Some(ms) } = observation {
            metrics::histogram!("esign_esp_latency_seconds", "esp" => name).record(f64::from(ms) / 1000.0);
        }
        let now = self.now_ms();
        if let Some(window) = self.state().windows.get_mut(esp) {
            window.record(now, observation);
        }
        self.healths();
    }

    /// Every ESP's health now, in priority order; the gauges follow, and a change of verdict is
    /// logged (an operator learns from the log that routing moved).
    pub fn healths(&self) -> Vec<Health> {
        let now = self.now_ms();
        let mut state = self.state();
        let healths: Vec<Health> = state.windows.iter_mut().map(|w| w.health(now)).collect();
        for (esp, health) in healths.iter().enumerate() {
            let name = self.name(esp).to_string();
            metrics::gauge!("esign_esp_health", "esp" => name.clone()).set(health.verdict.gauge());
            if let Some(published) = state.published.get_mut(esp)
                && *published != health.verdict
            {
                tracing::warn!(
                    esp = %name,
                    from = published.as_str(),
                    to = health.verdict.as_str(),
                    answered = health.answered,
                    refused = health.refused,
                    unreachable = health.unreachable,
                    "an ESP's health changed; new eSign transactions are routed accordingly"
                );
                *published = health.verdict;
            }
        }
        healths
    }

    /// The order a new transaction tries the ESPs in; `avoid` is the ESP that just failed this
    /// signer (never the same one twice in a row while another is not down).
    pub fn route(&self, avoid: Option<usize>) -> Vec<usize> {
        let verdicts: Vec<Verdict> = self.healths().iter().map(|h| h.verdict).collect();
        route(&verdicts, avoid)
    }

    /// Counts a routing decision.
    pub fn routed(&self, esp: usize, reason: RouteReason, retry: bool) {
        let decision = match (reason, retry) {
            (RouteReason::Failover, _) => Decision::Failover,
            (RouteReason::Best, true) => Decision::Retry,
            (RouteReason::Best, false) if esp == 0 => Decision::Primary,
            (RouteReason::Best, false) => Decision::Healthiest,
        };
        let reason = decision.as_str();
        metrics::counter!("esign_routed_total", "esp" => self.name(esp).to_string(), "reason" => reason).increment(1);
        if let Some(routed) = self.state().routed.get_mut(esp) {
            routed.count(decision);
        }
    }

    /// The routing decisions counted for each ESP, in priority order.
    pub fn routed_counts(&self) -> Vec<Routed> {
        self.state().routed.clone()
    }
}

/// How the probe runs.
#[derive(Debug, Clone)]
pub struct ProbeSettings {
    /// Zero: no probes.
    pub interval: Duration,
    /// Time-out and address policy of each probe.
    pub http: signet_sigcrypto::HttpConfig,
}

/// Probes every ESP each interval until `stop` turns true.
pub async fn probe_until(setup: Arc<EsignSetup>, mut stop: watch::Receiver<bool>) {
    let interval = setup.probe.interval;
    if interval.is_zero() {
        return;
    }
    loop {
        let mut probes = tokio::task::JoinSet::new();
        for esp in 0..setup.esps.len() {
            let setup = setup.clone();
            probes.spawn(async move {
                let seen = probe_once(&setup, esp).await;
                setup.health.record(esp, seen);
            });
        }
        while probes.join_next().await.is_some() {}
        tokio::select! {
            _ = tokio::time::sleep(interval) => {}
            _ = stop.changed() => return,
        }
        if *stop.borrow() {
            return;
        }
    }
}

/// One bounded GET to the ESP's probe address: any HTTP answer below 500 is alive.
async fn probe_once(setup: &EsignSetup, esp: usize) -> Observation {
    let Some(target) = setup.esps.get(esp) else {
        return Observation::Unreachable;
    };
    let (url, http) = (target.probe_url.clone(), setup.probe.http.clone());
    let started = Instant::now();
    let answer = tokio::task::spawn_blocking(move || signet_sigcrypto::exchange(&url, &[], None, &http)).await;
    match answer {
        Ok(Ok((status, _))) if status < 500 => {
            Observation::Answered { latency_ms: Some(u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX)) }
        }
        Ok(Ok((status, _))) => {
            tracing::debug!(esp = %target.name, status, "an ESP probe was answered with a server error");
            Observation::Unreachable
        }
        Ok(Err(error)) => {
            tracing::debug!(esp = %target.name, %error, "an ESP probe failed");
            Observation::Unreachable
        }
        Err(_) => Observation::Unreachable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_routing_decision_is_counted_for_its_esp() {
        let health = EspHealth::new(vec!["a".into(), "b".into()], 60_000);
        health.routed(0, RouteReason::Best, false);
        health.routed(1, RouteReason::Best, false);
        health.routed(1, RouteReason::Best, true);
        health.routed(1, RouteReason::Failover, true);
        let counts = health.routed_counts();
        assert_eq!(counts[0], Routed { primary: 1, ..Routed::default() });
        assert_eq!(counts[1], Routed { primary: 0, healthiest: 1, retry: 1, failover: 1 });
        // An ESP no longer in the list is not counted (and nothing panics).
        health.routed(7, RouteReason::Best, false);
        assert_eq!(health.routed_counts(), counts);
    }
}
