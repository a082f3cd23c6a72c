//! ESP profiles (issue 39 item 2): each provider's defaults, the explicit settings winning over
//! them, each profile's cancel reaching the integrator as a cancel (106 at CUrl), its other
//! refusals as failures of the right kind, and the `AuthMode` a request carries following the
//! signer's choice among the profile's modes.

use signet_esign::esp_codes::EspRefusal;
use signet_esign::profile::{Overrides, parse_auth_modes};
use signet_esign::{AuthMode, EspProfile, EspProfileName, FlowKind};

#[test]
fn each_profile_has_its_providers_defaults() {
    use AuthMode::{Fingerprint, Iris, Otp};
    // (profile, flow, SHA-1 taken, AuthModes, a published staging address)
    let expected: [(EspProfileName, FlowKind, bool, &[AuthMode], bool); 5] = [
        (EspProfileName::Cdac, FlowKind::Form, true, &[Otp, Fingerprint, Iris], true),
        (EspProfileName::Emudhra, FlowKind::Form, false, &[Otp, Fingerprint, Iris], false),
        (EspProfileName::Protean, FlowKind::Form, false, &[Otp, Fingerprint, Iris], false),
        (EspProfileName::Generic21, FlowKind::Form, true, &[Otp], false),
        (EspProfileName::Generic3x, FlowKind::Server, true, &[Otp], false),
    ];
    for (name, flow, sha1, modes, staging) in expected {
        let profile = EspProfile::of(name);
        let resolved = profile.resolve(&Overrides::default());
        assert_eq!((resolved.flow, resolved.allow_sha1), (flow, sha1), "{}", name.as_str());
        assert_eq!(resolved.auth_modes, modes, "{}", name.as_str());
        assert_eq!(profile.staging_url.is_some(), staging, "{}", name.as_str());
        assert_eq!(resolved.auth_mode(None), Some(Otp), "{}: OTP is every ESP's default", name.as_str());
    }
    assert_eq!(
        EspProfile::of(EspProfileName::Cdac).staging_url,
        Some("https://es-staging.cdac.in/esignlevel2/2.1/form/signdoc")
    );
    // The setting's default profile behaves as Signet did before profiles.
    assert_eq!(EspProfileName::parse("generic-2.1"), Some(EspProfileName::Generic21));
    assert_eq!(EspProfileName::parse("NSDL"), Some(EspProfileName::Protean));
    assert_eq!(EspProfileName::parse("cdac2"), None);
}

#[test]
fn explicit_settings_win_over_the_profile() {
    let cdac = EspProfile::of(EspProfileName::Cdac);
    let overrides = Overrides {
        flow: Some(FlowKind::Server),
        allow_sha1: Some(false),
        auth_modes: Some(vec![AuthMode::Iris, AuthMode::Otp, AuthMode::Iris]),
    };
    let resolved = cdac.resolve(&overrides);
    assert_eq!((resolved.flow, resolved.allow_sha1), (FlowKind::Server, false));
    assert_eq!(resolved.auth_modes, [AuthMode::Iris, AuthMode::Otp], "repeats folded, order kept");
    assert_eq!(resolved.auth_mode(None), Some(AuthMode::Iris));
    // Only what is set overrides; an empty list is no list.
    let partial = Overrides { allow_sha1: Some(true), auth_modes: Some(Vec::new()), ..Overrides::default() };
    let emudhra = EspProfile::of(EspProfileName::Emudhra).resolve(&partial);
    assert_eq!((emudhra.flow, emudhra.allow_sha1), (FlowKind::Form, true));
    assert_eq!(emudhra.auth_modes.len(), 3);
}

#[test]
fn each_profiles_cancel_is_a_cancel_and_its_other_codes_are_failures_of_their_kind() {
    for name in EspProfileName::ALL {
        let profile = EspProfile::of(name);
        let cancels = profile.cancel_codes();
        assert!(!cancels.is_empty(), "{}: no cancel code", name.as_str());
        for code in &cancels {
            assert_eq!(profile.refusal(code), EspRefusal::Cancelled, "{} {code}", name.as_str());
        }
        for row in profile.known_codes() {
            assert_eq!(profile.refusal(row.code), row.refusal, "{} {}", name.as_str(), row.code);
        }
        // An unknown code is a service failure, never a cancel.
        assert_eq!(profile.refusal("ESP-000"), EspRefusal::Service, "{}", name.as_str());
    }
    for name in [EspProfileName::Cdac, EspProfileName::Emudhra, EspProfileName::Protean] {
        let profile = EspProfile::of(name);
        assert_eq!(profile.cancel_codes(), ["ESP-944", "ESP-945"], "{}", name.as_str());
        assert_eq!(profile.refusal("ESP-946"), EspRefusal::Expired);
        assert_eq!(profile.refusal("ESP-415"), EspRefusal::Authentication);
        assert_eq!(profile.refusal("ESP-922"), EspRefusal::Request);
        assert_eq!(profile.refusal("ESP-993"), EspRefusal::Service);
        // Test ESP codes are not among a licensed provider's codes.
        assert!(profile.known_codes().iter().all(|row| row.code != "ESP-920"), "{}", name.as_str());
    }
    assert!(!EspProfile::of(EspProfileName::Protean).codes_sourced, "Protean's codes are assumed, and say so");
}

#[test]
fn the_request_carries_the_signers_choice_among_the_profiles_modes_only() {
    let cdac = EspProfile::of(EspProfileName::Cdac).resolve(&Overrides::default());
    assert_eq!(cdac.auth_mode(Some(AuthMode::Fingerprint)), Some(AuthMode::Fingerprint));
    assert_eq!(cdac.auth_mode(Some(AuthMode::Iris)), Some(AuthMode::Iris));
    assert_eq!(cdac.auth_mode(Some(AuthMode::Face)), None, "C-DAC's profile offers no face mode");
    let generic = EspProfile::of(EspProfileName::Generic21).resolve(&Overrides::default());
    assert_eq!(generic.auth_mode(Some(AuthMode::Fingerprint)), None);

    assert_eq!(parse_auth_modes("otp, 2 ,iris,otp"), Ok(vec![AuthMode::Otp, AuthMode::Fingerprint, AuthMode::Iris]));
    assert_eq!(parse_auth_modes("Face"), Ok(vec![AuthMode::Face]));
    assert_eq!(parse_auth_modes("otp,retina"), Err("retina".to_string()));
    assert!(parse_auth_modes(" , ").is_err());
}
