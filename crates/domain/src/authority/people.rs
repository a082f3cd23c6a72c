//! People and the roles they hold. Two lines hold here, through every door that gives or
//! uses a role (users, applications, tenant roles, SSO links):
//!
//! - nobody gives a role that grants a permission they do not hold themselves, and only
//!   administrators give the administrator role or a tenant's own role;
//! - only administrators change, disable, delete, reset or re-address an administrator, or
//!   anyone whose role grants a permission the caller does not hold. Otherwise a holder of
//!   `manage_people` could lower an administrator, reset their second factor, point their
//!   address at a mailbox of its own and mail itself their password link.

use crate::access::{Access, Permission};

/// Every permission `access` grants.
fn permissions(access: &Access) -> impl Iterator<Item = Permission> + '_ {
    Permission::ALL.into_iter().filter(|p| access.allows(*p))
}

/// Whether everything `other` allows, `access` allows too.
pub fn covers(access: &Access, other: &Access) -> bool {
    permissions(other).all(|p| access.allows(p))
}

/// Whether `giver` may give a principal the role `granted`.
pub fn may_grant(giver: &Access, granted: &Access) -> bool {
    if giver.is_administrator() {
        return true;
    }
    let privileged = granted.is_administrator() || granted.custom.is_some();
    !privileged && covers(giver, granted)
}

/// Whether `manager` may change, disable, delete, reset or re-address a person whose role is
/// `target` (their own account has rules of its own).
pub fn may_manage(manager: &Access, target: &Access) -> bool {
    manager.is_administrator() || (!target.is_administrator() && covers(manager, target))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::{CustomRole, Role};

    fn tenant_role(permissions: &[Permission]) -> Access {
        let custom = CustomRole { id: crate::RoleId::from(1), name: "Own".into(), permissions: permissions.to_vec() };
        Access { role: Role::Signer, custom: Some(custom) }
    }

    #[test]
    fn nobody_gives_a_permission_they_lack() {
        let admin = Access::builtin(Role::Administrator);
        let settings = tenant_role(&[Permission::ManageSettings]);
        let people = tenant_role(&[Permission::ManagePeople, Permission::ReadDirectory]);
        for role in Role::ALL {
            assert!(may_grant(&admin, &Access::builtin(*role)), "{role}");
        }
        assert!(!may_grant(&settings, &Access::builtin(Role::Administrator)));
        assert!(!may_grant(&people, &Access::builtin(Role::Administrator)));
        assert!(!may_grant(&people, &Access::builtin(Role::Sender)), "a sender sends; the manager cannot");
        assert!(may_grant(&people, &Access::builtin(Role::Signer)));
        assert!(!may_grant(&people, &tenant_role(&[Permission::ReadDirectory])), "tenant roles: administrators");
        let sender = Access::builtin(Role::Sender);
        assert!(may_grant(&sender, &Access::builtin(Role::Signer)));
        assert!(!may_grant(&sender, &Access::builtin(Role::Auditor)), "auditors read the audit trail");
    }

    #[test]
    fn only_administrators_manage_the_more_powerful() {
        let admin = Access::builtin(Role::Administrator);
        let people = tenant_role(&[Permission::ManagePeople, Permission::ReadDirectory]);
        assert!(may_manage(&admin, &admin));
        assert!(!may_manage(&people, &admin));
        assert!(!may_manage(&people, &Access::builtin(Role::Sender)));
        assert!(!may_manage(&people, &tenant_role(&[Permission::ManageSettings])));
        assert!(may_manage(&people, &Access::builtin(Role::Signer)));
        assert!(may_manage(&people, &tenant_role(&[Permission::ReadDirectory])));
    }
}
