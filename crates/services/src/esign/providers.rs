//! The configured ESPs as Signet sees them now, for an organisation's administrator: each one's
//! health over the sliding window and the routing decisions taken since the start (issue 39:
//! "health and routing decisions are in the metrics and the console").

use signet_domain::Error;
use signet_domain::access::Permission;

use signet_esign::{EspProfileName, FlowKind};

use super::failover::{Health, Routed};
use crate::{Caller, Services};

/// One configured ESP now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderHealth {
    /// Its name in the settings, metrics and logs.
    pub name: String,
    /// Its place in the configured order, 1 for the primary.
    pub priority: u32,
    pub profile: EspProfileName,
    /// 2.1 form flow, or 3.x server flow.
    pub flow: FlowKind,
    /// The verdict and the window's counts it was drawn from.
    pub health: Health,
    /// New requests sent to it since this instance started, by why it was chosen.
    pub routed: Routed,
}

/// The window each verdict is drawn from, and every configured ESP in priority order; no ESP
/// when eSign is not configured.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Providers {
    pub window_ms: u64,
    pub esps: Vec<ProviderHealth>,
}

/// Every configured ESP's health as this instance sees it now (permission `manage_settings`).
/// The ESPs are the installation's, not the organisation's, yet an organisation's
/// administrator is the one who asks: its Aadhaar signers are routed through them, and the
/// answer holds nothing of another organisation (names, counts, latencies). Each instance keeps
/// its own windows: behind a load balancer each answers what it saw.
pub fn providers(svc: &Services, caller: &Caller) -> Result<Providers, Error> {
    caller.require(Permission::ManageSettings)?;
    let Some(setup) = svc.esign.as_deref() else {
        return Ok(Providers::default());
    };
    let healths = setup.health.healths();
    let routed = setup.health.routed_counts();
    let esps = setup
        .esps
        .iter()
        .zip(healths)
        .zip(routed)
        .enumerate()
        .map(|(place, ((esp, health), routed))| ProviderHealth {
            name: esp.name.clone(),
            priority: u32::try_from(place + 1).unwrap_or(u32::MAX),
            profile: esp.profile.profile.name,
            flow: esp.profile.flow,
            health,
            routed,
        })
        .collect();
    Ok(Providers { window_ms: setup.health.window_ms(), esps })
}
