//! E-stamp certificates a stamp provider issued belong to the tenant Signet ordered them for.
//!
//! The provider cannot tell Signet's tenants apart: every tenant of an installation reaches it
//! with the installation's one API key, and it answers a fetch to whoever names a reference
//! (its own, the record's `txnID` or its loan number, all easy to guess). So the only record
//! of whose an issue is, is Signet's own: when Signet orders an issue for a tenant it records
//! the provider's reference, the record's `txnID` and loan number with that tenant
//! ([`ProviderIssue`]), and from then on
//!
//! - a reference is fetched only for a tenant with a recorded issue it names ([`may_fetch`]);
//! - what the provider answers is taken only if the issue it answered (by the provider's own
//!   reference) was recorded for that tenant ([`may_take`]): a `txnID` or loan number two
//!   lenders both use never hands one of them the other's certificates;
//! - an issue's reference is recorded for the first tenant it was issued to and never moves
//!   ([`bind_issue`]);
//! - every refusal of a reference reads exactly as the provider not knowing it
//!   ([`unknown_reference`]), so references cannot be probed.
//!
//! Certificates bought outside Signet (at the provider's portal, over the counter) are not
//! fetched by reference: the tenant loads them, with their PDFs, into its inventory.

use crate::{Error, TenantId};

/// An issue Signet ordered at the stamp provider, as recorded when the provider answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderIssue {
    /// The tenant Signet ordered the issue for.
    pub tenant_id: TenantId,
    /// The provider's reference of the issue.
    pub provider_ref: String,
    /// The loan record's `txnID`, when it had one.
    pub txn_id: Option<String>,
    /// The loan record's `loanno`.
    pub loan_no: Option<String>,
}

impl ProviderIssue {
    /// Whether `reference` names this issue as the provider resolves references: its own
    /// reference, the record's `txnID` or its loan number (ignoring case and outer spaces).
    pub fn is_named_by(&self, reference: &str) -> bool {
        let reference = reference.trim();
        !reference.is_empty()
            && [Some(self.provider_ref.as_str()), self.txn_id.as_deref(), self.loan_no.as_deref()]
                .into_iter()
                .flatten()
                .any(|name| name.trim().eq_ignore_ascii_case(reference))
    }
}

/// Whether the provider may be asked, for `tenant`, what it issued under `reference`: only if
/// one of the issues recorded for the tenant is named by it. Issues of other tenants among
/// `recorded` count for nothing.
pub fn may_fetch(tenant: TenantId, reference: &str, recorded: &[ProviderIssue]) -> bool {
    recorded.iter().any(|issue| issue.tenant_id == tenant && issue.is_named_by(reference))
}

/// Whether the provider's answer of a fetch may be taken for `tenant`: the issue answered (its
/// `provider_ref`) must have been recorded for this tenant. `recorded` is the issue recorded
/// under the answered reference, if any.
pub fn may_take(tenant: TenantId, answered_ref: &str, recorded: Option<&ProviderIssue>) -> bool {
    recorded.is_some_and(|issue| issue.tenant_id == tenant && issue.provider_ref.eq_ignore_ascii_case(answered_ref))
}

/// What an issue the provider answered for `tenant` does to the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssueBinding {
    /// The reference is new: recorded for `tenant` now.
    Recorded,
    /// Recorded for `tenant` before (a retried request the provider answered again).
    AlreadyTheirs,
    /// Recorded for another tenant: the answer is not this tenant's and is not taken.
    AnotherTenants,
}

/// Whose an issue is once the provider answered it for `tenant`: `recorded_for` is the tenant
/// the reference was recorded for after recording was attempted (the first one stays).
pub fn bind_issue(tenant: TenantId, recorded_for: TenantId, newly_recorded: bool) -> IssueBinding {
    match (recorded_for == tenant, newly_recorded) {
        (true, true) => IssueBinding::Recorded,
        (true, false) => IssueBinding::AlreadyTheirs,
        (false, _) => IssueBinding::AnotherTenants,
    }
}

/// The one refusal of a reference under `field`: the same words whether the provider issued
/// nothing under it, or it is another tenant's, or it was never ordered through Signet.
pub fn unknown_reference(field: &str) -> Error {
    Error::field(
        field,
        "there is no e-stamp certificate under this reference ordered through Signet for this organisation",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issue(tenant: i64, reference: &str, txn: Option<&str>, loan: &str) -> ProviderIssue {
        ProviderIssue {
            tenant_id: TenantId::from(tenant),
            provider_ref: reference.into(),
            txn_id: txn.map(str::to_string),
            loan_no: Some(loan.into()),
        }
    }

    #[test]
    fn a_reference_is_fetched_only_for_the_tenant_it_was_ordered_for() {
        let (a, b) = (TenantId::from(1), TenantId::from(2));
        let recorded = [issue(1, "ESTMP-00000042", Some("T-100"), "LN-100")];
        for name in ["ESTMP-00000042", "estmp-00000042", " T-100 ", "LN-100"] {
            assert!(may_fetch(a, name, &recorded), "{name}");
            assert!(!may_fetch(b, name, &recorded), "another tenant: {name}");
        }
        assert!(!may_fetch(a, "ESTMP-00000043", &recorded), "never ordered");
        assert!(!may_fetch(a, "", &recorded));
        assert!(!may_fetch(a, "  ", &[issue(1, "R", None, "")]), "blank names nothing");
        assert!(!may_fetch(a, "ESTMP-00000042", &[]), "nothing recorded");
    }

    #[test]
    fn an_answer_is_taken_only_when_the_issue_answered_is_the_tenants() {
        let (a, b) = (TenantId::from(1), TenantId::from(2));
        let of_a = issue(1, "ESTMP-1", Some("T-1"), "LN-1");
        assert!(may_take(a, "ESTMP-1", Some(&of_a)));
        assert!(may_take(a, "estmp-1", Some(&of_a)));
        // B fetched by a loan number both lenders use; the provider answered A's issue.
        assert!(!may_take(b, "ESTMP-1", Some(&of_a)));
        // Issued at the provider's portal: never recorded by Signet.
        assert!(!may_take(a, "ESTMP-9", None));
        assert!(!may_take(a, "ESTMP-9", Some(&of_a)), "the record must be of the answered issue");
    }

    #[test]
    fn an_issue_stays_with_the_first_tenant_it_was_recorded_for() {
        let (a, b) = (TenantId::from(1), TenantId::from(2));
        assert_eq!(bind_issue(a, a, true), IssueBinding::Recorded);
        assert_eq!(bind_issue(a, a, false), IssueBinding::AlreadyTheirs);
        assert_eq!(bind_issue(b, a, false), IssueBinding::AnotherTenants);
    }

    #[test]
    fn every_refusal_of_a_reference_reads_the_same() {
        let Error::Validation(errors) = unknown_reference("referenceNo") else { panic!("a field error") };
        assert_eq!(errors.len(), 1);
        assert!(errors.contains_key("referenceNo"));
    }
}
