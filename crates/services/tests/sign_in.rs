//! Use cases tested below HTTP, on both databases: the services assembled on a fresh store,
//! called as the API and the console call them. Signing in with a password: one answer for
//! every refusal, and failures counted per account *and* address in the database, so that
//! guesses from one address neither pass the limit nor lock the owner out elsewhere.

mod common;

use std::net::IpAddr;

use common::{Assembled, PASSWORD};
use signet_domain::{Error, PrincipalId};
use signet_services::Services;
use signet_services::people::login::{PasswordSignIn, sign_in_with_password};
use signet_services::platform::config::Config;
use signet_testkit::{Backend, on_both_backends};

const EMAIL: &str = "admin@lender.example";

/// The services with `config`'s settings and a tenant whose administrator (its id answered)
/// signs in with [`PASSWORD`].
async fn assembled(backend: Backend, config: Config) -> (Assembled, PrincipalId) {
    let assembled = Assembled::with(backend, config).await;
    let tenant = assembled.tenant_with_admin("Lender", EMAIL).await;
    (assembled, tenant.admin_user_id)
}

fn address(text: &str) -> IpAddr {
    text.parse().expect("an address")
}

async fn attempt(svc: &Services, ip: &str, email: &str, password: &str) -> Result<PasswordSignIn, Error> {
    sign_in_with_password(svc, address(ip), email, password, None).await
}

on_both_backends!(every_refusal_is_the_same_answer, failures_are_counted_per_account_and_address);

async fn every_refusal_is_the_same_answer(backend: Backend) {
    let (kit, admin) = assembled(backend, Config::default()).await;
    let svc = &kit.services;
    let signed_in = attempt(svc, "192.0.2.1", EMAIL, PASSWORD).await.expect("answered");
    assert!(matches!(signed_in, PasswordSignIn::Accepted(ref account) if account.id == admin), "{signed_in:?}");
    // The address's case does not matter; a wrong password and an unknown address look alike.
    let upper = attempt(svc, "192.0.2.1", &EMAIL.to_uppercase(), PASSWORD).await.expect("answered");
    assert!(matches!(upper, PasswordSignIn::Accepted(_)), "{upper:?}");
    for (email, password) in [(EMAIL, "not the passphrase at all"), ("nobody@lender.example", PASSWORD)] {
        let refused = attempt(svc, "192.0.2.1", email, password).await.expect("answered");
        assert!(matches!(refused, PasswordSignIn::Refused), "{email}: {refused:?}");
    }
}

async fn failures_are_counted_per_account_and_address(backend: Backend) {
    let config = Config { account_failure_limit: 3, account_failure_delay_ms: 60_000, ..Config::default() };
    let (kit, _) = assembled(backend, config).await;
    let svc = &kit.services;
    for _ in 0..3 {
        let refused = attempt(svc, "198.51.100.7", EMAIL, "a guess that is wrong").await.expect("admitted");
        assert!(matches!(refused, PasswordSignIn::Refused), "{refused:?}");
    }
    // Past the limit the guessing address is held off, even with the right password …
    let held = attempt(svc, "198.51.100.7", EMAIL, PASSWORD).await;
    assert!(matches!(held, Err(Error::RateLimited { retry_after_secs }) if retry_after_secs >= 1), "{held:?}");
    // … while the owner, elsewhere, still signs in, and that clears only their own count.
    let owner = attempt(svc, "203.0.113.9", EMAIL, PASSWORD).await.expect("admitted");
    assert!(matches!(owner, PasswordSignIn::Accepted(_)), "{owner:?}");
    let still_held = attempt(svc, "198.51.100.7", EMAIL, PASSWORD).await;
    assert!(matches!(still_held, Err(Error::RateLimited { .. })), "{still_held:?}");
}
