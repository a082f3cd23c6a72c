//! A tenant proves it owns an e-mail domain before its single sign-on providers serve it.
//!
//! The proof is a DNS TXT record: starting a proof gives the tenant a random value, which the
//! domain's owner publishes at `_signet-challenge.<domain>` as `signet-domain-proof=<value>`;
//! checking asks the operator's DNS resolver (`sso_dns_resolver`, see [`super::dns`]) and, when
//! the record is there, the domain is proven for the tenant. (Chosen over a mail to the
//! domain's postmaster: it needs no mailbox anyone must watch, it proves control of the domain
//! itself, and it can be checked again at any time by anyone.)
//!
//! The rules are `signet_domain::authority::sso`: a pending proof serves nothing and blocks no
//! one; only a proven domain is claimed, installation-wide, and a tenant cannot claim (start,
//! prove, or name for a provider) a domain another tenant has proven. The store's unique index
//! on proven domains holds the same line when two tenants prove one domain at once.

use signet_domain::access::Permission;
use signet_domain::authority::sso::{DomainProof, may_claim_domain};
use signet_domain::{Error, ErrorCode};
use signet_store::SsoDomainProofRow;

use super::{dns, is_domain};
use crate::{Caller, Services, platform::secrets};

/// Where the proof's TXT record lives.
pub fn record_name(domain: &str) -> String {
    format!("_signet-challenge.{domain}")
}

/// What the proof's TXT record holds.
pub fn record_value(token: &str) -> String {
    format!("signet-domain-proof={token}")
}

fn checked_domain(domain: &str) -> Result<&str, Error> {
    if is_domain(domain) { Ok(domain) } else { Err(Error::field("domain", "must be a lower-case domain name")) }
}

fn proven_elsewhere(domain: &str) -> Error {
    Error::rejected(ErrorCode::Conflict, format!("the domain {domain} is proven by another tenant"))
}

/// Refuses a domain another tenant has proven.
pub(super) async fn check_claim(svc: &Services, caller: &Caller, domain: &str) -> Result<(), Error> {
    let proofs: Vec<DomainProof> = svc
        .store
        .sso_domain_proofs_of(domain)
        .await?
        .iter()
        .map(|p| DomainProof { tenant_id: p.tenant_id, proven: p.proven_at.is_some() })
        .collect();
    if may_claim_domain(caller.tenant_id, &proofs) { Ok(()) } else { Err(proven_elsewhere(domain)) }
}

/// Starts the tenant's proof of `domain` (or answers the one under way or done).
pub async fn start_proof(svc: &Services, caller: &Caller, domain: &str) -> Result<SsoDomainProofRow, Error> {
    caller.require(Permission::ManageSettings)?;
    let domain = checked_domain(domain)?;
    check_claim(svc, caller, domain).await?;
    let token = secrets::random_token(24);
    svc.store.start_sso_domain_proof(caller.tenant_id, domain, &token, &caller.actor).await
}

/// The tenant's proofs.
pub async fn proofs(svc: &Services, caller: &Caller) -> Result<Vec<SsoDomainProofRow>, Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.sso_domain_proofs(caller.tenant_id).await
}

/// Checks the tenant's proof of `domain` now: proven when the TXT record holds its value.
pub async fn check_proof(svc: &Services, caller: &Caller, domain: &str) -> Result<SsoDomainProofRow, Error> {
    caller.require(Permission::ManageSettings)?;
    let domain = checked_domain(domain)?;
    let proof = svc
        .store
        .sso_domain_proofs(caller.tenant_id)
        .await?
        .into_iter()
        .find(|p| p.domain == domain)
        .ok_or(Error::not_found("domain proof"))?;
    if proof.proven_at.is_some() {
        return Ok(proof);
    }
    check_claim(svc, caller, domain).await?;
    let unavailable = |e: dns::LookupFailed| {
        tracing::warn!(%domain, cause = %e.0, "a domain proof's DNS lookup failed");
        Error::rejected(
            ErrorCode::ServiceUnavailable,
            format!("The DNS records of {domain} cannot be read now: {}", e.0),
        )
    };
    let resolver = dns::resolver(svc.config.sso_dns_resolver.as_deref()).map_err(unavailable)?;
    let records = dns::txt_records(resolver, &record_name(domain)).await.map_err(unavailable)?;
    let expected = record_value(&proof.token);
    if !records.iter().any(|r| r.trim() == expected) {
        return Err(Error::rejected(
            ErrorCode::StateConflict,
            format!("the TXT record {} does not hold {expected} (yet)", record_name(domain)),
        ));
    }
    svc.store.prove_sso_domain(caller.tenant_id, domain, &caller.actor).await
}
