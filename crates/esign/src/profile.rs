//! ESP profiles: what Signet knows of each eSign Service Provider, as one typed value a
//! configured ESP carries ([`EspProfile`]): its flow (the 2.1 form or the 3.x server flow),
//! whether its answer signature may use SHA-1, the `AuthMode`s it offers, and the error codes
//! it is known to send (rows of the one table in [`crate::esp_codes`], which says what each
//! code means for the integrator). An installation names one profile (`esign_esp_profile`);
//! explicit settings override the profile's defaults ([`EspProfile::resolve`]). A list of
//! ESPs, each with its profile, builds on this unchanged.
//!
//! Everything here is public knowledge: the C-DAC staging address, the CCA eSign API's
//! `AuthMode` values (1 OTP, 2 fingerprint, 3 iris), the codes integrators publish (see
//! [`crate::esp_codes`]). What is assumed rather than sourced says so (`docs/esign.md`).

use crate::esp_codes::{self, EspCode, EspRefusal};
use crate::model::AuthMode;

/// The providers Signet has a profile for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EspProfileName {
    /// C-DAC (Centre for Development of Advanced Computing).
    Cdac,
    /// eMudhra.
    Emudhra,
    /// Protean eGov Technologies (formerly NSDL e-Governance).
    Protean,
    /// Any ESP speaking the eSign 2.1 form flow, with nothing assumed beyond the API.
    Generic21,
    /// Any ESP speaking the eSign 3.x server-to-server flow.
    Generic3x,
}

impl EspProfileName {
    pub const ALL: [EspProfileName; 5] = [Self::Cdac, Self::Emudhra, Self::Protean, Self::Generic21, Self::Generic3x];

    /// The setting's value (`esign_esp_profile`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cdac => "cdac",
            Self::Emudhra => "emudhra",
            Self::Protean => "protean",
            Self::Generic21 => "generic-2.1",
            Self::Generic3x => "generic-3.x",
        }
    }

    /// Reads the setting (case and surrounding spaces ignored; `nsdl` names Protean).
    pub fn parse(text: &str) -> Option<EspProfileName> {
        let text = text.trim().to_ascii_lowercase();
        match text.as_str() {
            "nsdl" => Some(Self::Protean),
            _ => Self::ALL.into_iter().find(|name| name.as_str() == text),
        }
    }
}

/// How the request reaches the ESP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlowKind {
    /// eSign 2.1 form flow: the signer's browser posts the signed request to the ESP's form.
    Form,
    /// eSign 3.x: the ASP posts the request, the ESP answers `status="2"` with a `resCode`,
    /// and the browser goes to the ESP's authentication address with `txnref`.
    Server,
}

impl FlowKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Form => "form",
            Self::Server => "server",
        }
    }

    pub fn parse(text: &str) -> Option<FlowKind> {
        match text.trim().to_ascii_lowercase().as_str() {
            "form" => Some(Self::Form),
            "server" => Some(Self::Server),
            _ => None,
        }
    }
}

/// One provider's profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EspProfile {
    pub name: EspProfileName,
    /// The provider, for pages and logs.
    pub provider: &'static str,
    pub flow: FlowKind,
    /// Whether the provider's answers are signed with SHA-1 (RSA-SHA1, SHA-1 digests), so the
    /// profile takes them by default.
    pub allow_sha1: bool,
    /// The `AuthMode`s the provider offers, the first the default; the signer chooses when
    /// there are several.
    pub auth_modes: &'static [AuthMode],
    /// The codes the provider is known to send (each a row of [`esp_codes::KNOWN`]).
    pub codes: &'static [&'static str],
    /// Whether [`Self::codes`] is sourced for this provider (false: assumed from the codes
    /// CCA ESPs share).
    pub codes_sourced: bool,
    /// The provider's public staging address for the flow, where one is published.
    pub staging_url: Option<&'static str>,
}

/// The codes licensed ESPs send as integrators publish them (C-DAC, eMudhra).
const LICENSED: &[&str] = &[
    "ESP-415", "ESP-901", "ESP-902", "ESP-903", "ESP-905", "ESP-906", "ESP-907", "ESP-908", "ESP-909", "ESP-910",
    "ESP-911", "ESP-922", "ESP-944", "ESP-945", "ESP-946", "ESP-991", "ESP-992", "ESP-993", "ESP-999",
];

/// OTP and the biometric modes the CCA eSign API 2.1 names (fingerprint, iris).
const OTP_AND_BIOMETRIC: &[AuthMode] = &[AuthMode::Otp, AuthMode::Fingerprint, AuthMode::Iris];
const OTP_ONLY: &[AuthMode] = &[AuthMode::Otp];

const PROFILES: [EspProfile; 5] = [
    EspProfile {
        name: EspProfileName::Cdac,
        provider: "C-DAC",
        flow: FlowKind::Form,
        allow_sha1: true,
        auth_modes: OTP_AND_BIOMETRIC,
        codes: LICENSED,
        codes_sourced: true,
        staging_url: Some("https://es-staging.cdac.in/esignlevel2/2.1/form/signdoc"),
    },
    EspProfile {
        name: EspProfileName::Emudhra,
        provider: "eMudhra",
        flow: FlowKind::Form,
        allow_sha1: false,
        auth_modes: OTP_AND_BIOMETRIC,
        codes: LICENSED,
        codes_sourced: true,
        staging_url: None,
    },
    EspProfile {
        name: EspProfileName::Protean,
        provider: "Protean (NSDL)",
        flow: FlowKind::Form,
        allow_sha1: false,
        auth_modes: OTP_AND_BIOMETRIC,
        codes: LICENSED,
        codes_sourced: false,
        staging_url: None,
    },
    EspProfile {
        name: EspProfileName::Generic21,
        provider: "eSign 2.1 ESP",
        flow: FlowKind::Form,
        allow_sha1: true,
        auth_modes: OTP_ONLY,
        codes: &[],
        codes_sourced: true,
        staging_url: None,
    },
    EspProfile {
        name: EspProfileName::Generic3x,
        provider: "eSign 3.x ESP",
        flow: FlowKind::Server,
        allow_sha1: true,
        auth_modes: OTP_ONLY,
        codes: &[],
        codes_sourced: true,
        staging_url: None,
    },
];

/// What the explicit settings say, each overriding the profile's default when given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    pub flow: Option<FlowKind>,
    pub allow_sha1: Option<bool>,
    pub auth_modes: Option<Vec<AuthMode>>,
}

/// A profile with the settings applied: what a configured ESP is run with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedProfile {
    pub profile: &'static EspProfile,
    pub flow: FlowKind,
    pub allow_sha1: bool,
    /// Never empty: the first is the default.
    pub auth_modes: Vec<AuthMode>,
}

impl ResolvedProfile {
    /// The `AuthMode` a request carries for the signer's `choice`: the choice when this ESP
    /// offers it, the default when there is no choice; `None` for a mode not offered.
    pub fn auth_mode(&self, choice: Option<AuthMode>) -> Option<AuthMode> {
        match choice {
            Some(mode) => self.auth_modes.contains(&mode).then_some(mode),
            None => self.auth_modes.first().copied(),
        }
    }
}

impl EspProfile {
    pub fn of(name: EspProfileName) -> &'static EspProfile {
        match name {
            EspProfileName::Cdac => &PROFILES[0],
            EspProfileName::Emudhra => &PROFILES[1],
            EspProfileName::Protean => &PROFILES[2],
            EspProfileName::Generic21 => &PROFILES[3],
            EspProfileName::Generic3x => &PROFILES[4],
        }
    }

    /// What the ESP's `errCode` means. The table is shared: the CCA ESPs' `ESP-nnn` codes
    /// mean the same kind at every provider, and a code no row names is a service failure,
    /// never a cancel.
    pub fn refusal(&self, code: &str) -> EspRefusal {
        esp_codes::classify(code)
    }

    /// The rows of the codes this provider is known to send (every row for a generic profile).
    pub fn known_codes(&self) -> Vec<&'static EspCode> {
        if self.codes.is_empty() {
            return esp_codes::KNOWN.iter().collect();
        }
        self.codes.iter().filter_map(|code| esp_codes::lookup(code)).collect()
    }

    /// The provider's cancel codes: reaching the integrator's `CUrl` as 106.
    pub fn cancel_codes(&self) -> Vec<&'static str> {
        self.known_codes().into_iter().filter(|row| row.refusal.is_cancel()).map(|row| row.code).collect()
    }

    /// The profile with the settings applied: an explicit setting wins over the profile.
    pub fn resolve(&'static self, overrides: &Overrides) -> ResolvedProfile {
        let auth_modes = match &overrides.auth_modes {
            Some(modes) if !modes.is_empty() => {
                let mut unique = Vec::with_capacity(modes.len());
                for mode in modes {
                    if !unique.contains(mode) {
                        unique.push(*mode);
                    }
                }
                unique
            }
            _ => self.auth_modes.to_vec(),
        };
        ResolvedProfile {
            profile: self,
            flow: overrides.flow.unwrap_or(self.flow),
            allow_sha1: overrides.allow_sha1.unwrap_or(self.allow_sha1),
            auth_modes,
        }
    }
}

/// Reads an `AuthMode` list setting: codes (`1`) or names (`otp`, `fingerprint`, `iris`,
/// `face`), separated by commas; the offending entry otherwise.
pub fn parse_auth_modes(text: &str) -> Result<Vec<AuthMode>, String> {
    let mut modes = Vec::new();
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let mode =
            AuthMode::from_code(entry).or_else(|| AuthMode::from_name(entry)).ok_or_else(|| entry.to_string())?;
        if !modes.contains(&mode) {
            modes.push(mode);
        }
    }
    if modes.is_empty() {
        return Err(text.trim().to_string());
    }
    Ok(modes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_every_profile_is_its_own() {
        for name in EspProfileName::ALL {
            assert_eq!(EspProfileName::parse(name.as_str()), Some(name));
            assert_eq!(EspProfile::of(name).name, name);
        }
        assert_eq!(EspProfileName::parse(" NSDL "), Some(EspProfileName::Protean));
        assert_eq!(EspProfileName::parse("generic"), None);
    }

    #[test]
    fn every_profile_code_is_a_row_of_the_table() {
        for name in EspProfileName::ALL {
            let profile = EspProfile::of(name);
            if !profile.codes.is_empty() {
                assert_eq!(profile.known_codes().len(), profile.codes.len(), "{}", name.as_str());
            }
            for code in profile.codes {
                assert!(esp_codes::lookup(code).is_some(), "{} {code}", name.as_str());
            }
        }
    }
}
