//! Single sign-on: which tenant's provider may serve an e-mail domain, which accounts a
//! provider may sign in as, and when its sign-in stands in for the account's second factor.
//!
//! A provider is whatever its saver points it at: whoever controls the provider controls every
//! account it may sign in as. So a provider links a first sign-in only to an account whose role
//! its saver could have granted (the saver's access is recorded when the provider is saved or
//! changed), serves a domain only once its tenant has proven the domain (a DNS TXT record), and
//! does not replace the account's own second factor unless the tenant says so, and for
//! administrators only when the provider asserts a multi-factor sign-in.

use crate::TenantId;
use crate::access::{Access, Permission};

/// Whether a provider saved by someone with `saver`'s access may link a first sign-in to (and
/// later sign in) an account with `account`'s access: only administrators reach administrators, and anyone else
/// only accounts whose every permission the saver holds. A provider whose saver is unknown
/// (saved before savers were recorded) links no one until it is saved again.
pub fn provider_may_link(saver: Option<&Access>, account: &Access) -> bool {
    let Some(saver) = saver else { return false };
    if saver.is_administrator() {
        return true;
    }
    !account.is_administrator() && Permission::ALL.iter().all(|p| !account.allows(*p) || saver.allows(*p))
}

/// Whether the tenant lets a single sign-on stand in for its users' second factor (TOTP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SsoSecondFactor {
    /// The default: a user with an authenticator app gives its code after signing in at the
    /// provider too.
    #[default]
    StillRequired,
    /// The provider's sign-in is enough, except for administrators whose provider does not
    /// assert a multi-factor sign-in.
    ReplacedByProvider,
}

/// RFC 8176 authentication method references that mean more than one factor (or a factor
/// beyond a password): the provider's `amr` claim must name one of them.
const MULTI_FACTOR_METHODS: [&str; 5] = ["mfa", "mca", "otp", "hwk", "sc"];

/// Whether the ID token's `amr` claim asserts a multi-factor sign-in.
pub fn asserts_multi_factor(amr: &[String]) -> bool {
    amr.iter().any(|m| MULTI_FACTOR_METHODS.contains(&m.as_str()))
}

/// Whether a sign-in through the provider satisfies the account's second factor.
pub fn sso_satisfies_second_factor(setting: SsoSecondFactor, account: &Access, amr: &[String]) -> bool {
    match setting {
        SsoSecondFactor::StillRequired => false,
        SsoSecondFactor::ReplacedByProvider => !account.is_administrator() || asserts_multi_factor(amr),
    }
}

/// One tenant's proof (or attempt to prove) that it owns a domain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DomainProof {
    pub tenant_id: TenantId,
    pub proven: bool,
}

/// Whether `tenant` may claim a domain (start proving it, prove it, or name it for one of its
/// providers) given every tenant's proofs of it: not when another tenant has proven it. A
/// pending proof blocks no one.
pub fn may_claim_domain(tenant: TenantId, proofs: &[DomainProof]) -> bool {
    !proofs.iter().any(|p| p.proven && p.tenant_id != tenant)
}

/// Whether `tenant`'s providers serve sign-ins for a domain: only once the tenant proved it.
pub fn serves_domain(tenant: TenantId, proofs: &[DomainProof]) -> bool {
    proofs.iter().any(|p| p.proven && p.tenant_id == tenant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::{CustomRole, Role};

    fn custom(permissions: &[Permission]) -> Access {
        Access {
            role: Role::Signer,
            custom: Some(CustomRole {
                id: crate::RoleId::from(1),
                name: "custom".into(),
                permissions: permissions.to_vec(),
            }),
        }
    }

    #[test]
    fn a_provider_links_only_accounts_its_saver_could_have_given_their_role() {
        let admin = Access::builtin(Role::Administrator);
        let settings_only = custom(&[Permission::ManageSettings]);
        for role in Role::ALL {
            assert!(provider_may_link(Some(&admin), &Access::builtin(*role)), "{role}");
        }
        assert!(!provider_may_link(Some(&settings_only), &admin));
        assert!(!provider_may_link(Some(&settings_only), &Access::builtin(Role::Sender)));
        assert!(!provider_may_link(Some(&settings_only), &Access::builtin(Role::Auditor)));
        assert!(provider_may_link(Some(&settings_only), &Access::builtin(Role::Signer)), "signers hold nothing");
        assert!(provider_may_link(Some(&settings_only), &settings_only));
        let wide = custom(&[Permission::ReadWorkflows, Permission::SendWorkflows, Permission::ReadDirectory]);
        assert!(provider_may_link(Some(&wide), &Access::builtin(Role::Sender)));
        assert!(!provider_may_link(Some(&wide), &Access::builtin(Role::Auditor)), "lacks read_audit");
        // Even a tenant role with every permission is no administrator, and reaches none.
        assert!(!provider_may_link(Some(&custom(&Permission::ALL)), &admin));
        assert!(!provider_may_link(None, &Access::builtin(Role::Signer)), "an unknown saver links no one");
    }

    #[test]
    fn single_sign_on_replaces_the_second_factor_only_where_the_tenant_says_so() {
        let (admin, sender) = (Access::builtin(Role::Administrator), Access::builtin(Role::Sender));
        let none: Vec<String> = Vec::new();
        let mfa = vec!["pwd".to_string(), "mfa".to_string()];
        for amr in [&none, &mfa] {
            assert!(!sso_satisfies_second_factor(SsoSecondFactor::default(), &sender, amr));
            assert!(!sso_satisfies_second_factor(SsoSecondFactor::StillRequired, &admin, amr));
            assert!(sso_satisfies_second_factor(SsoSecondFactor::ReplacedByProvider, &sender, amr));
        }
        assert!(!sso_satisfies_second_factor(SsoSecondFactor::ReplacedByProvider, &admin, &none));
        assert!(!sso_satisfies_second_factor(SsoSecondFactor::ReplacedByProvider, &admin, &["pwd".to_string()]));
        assert!(sso_satisfies_second_factor(SsoSecondFactor::ReplacedByProvider, &admin, &mfa));
        for method in ["otp", "hwk", "mca", "sc"] {
            assert!(asserts_multi_factor(&[method.to_string()]), "{method}");
        }
        for method in ["pwd", "kba", "MFA", ""] {
            assert!(!asserts_multi_factor(&[method.to_string()]), "{method}");
        }
    }

    #[test]
    fn only_a_proven_domain_claims_it_and_only_for_its_tenant() {
        let (a, b) = (TenantId::from(1), TenantId::from(2));
        assert!(may_claim_domain(a, &[]) && !serves_domain(a, &[]));
        let pending_b = [DomainProof { tenant_id: b, proven: false }];
        assert!(may_claim_domain(a, &pending_b), "a pending proof blocks no one");
        assert!(!serves_domain(b, &pending_b), "a pending proof serves nothing");
        let proven_a = [DomainProof { tenant_id: a, proven: true }, DomainProof { tenant_id: b, proven: false }];
        assert!(may_claim_domain(a, &proven_a) && serves_domain(a, &proven_a));
        assert!(!may_claim_domain(b, &proven_a) && !serves_domain(b, &proven_a));
    }
}
