//! Who may do what: roles made of permissions. Every API operation needs one permission (the
//! table is `signet_api::access`); a caller whose role lacks it is refused with `forbidden`
//! (403) in its own tenant, while another tenant's resources stay invisible (404).
//!
//! The built-in roles, by id (`roleId` of `CreateInternalUserRequest`):
//!
//! | id | role | for |
//! |---|---|---|
//! | 1 | administrator | everything, including people, access and settings |
//! | 2 | sender | sends and tracks workflows, uploads documents, uses templates |
//! | 3 | signer | signs what is sent to them (signer pages); no administration |
//! | 4 | auditor | reads workflows, people and the audit trail; changes nothing |

use crate::text_states;

text_states! {
    /// A built-in role, stored by its text.
    pub enum Role ("role") {
        Administrator => "administrator",
        Sender => "sender",
        Signer => "signer",
        Auditor => "auditor",
    }
}

/// What an operation needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Permission {
    /// Any signed-in principal of the tenant (their own account, token housekeeping).
    Authenticated,
    /// List and read workflows, their documents, events and certificates.
    ReadWorkflows,
    /// Upload documents, create templates, send workflows and act on them.
    SendWorkflows,
    /// List and read users and departments.
    ReadDirectory,
    /// Create, change and end users; departments; access grants.
    ManagePeople,
    /// Gateway authtokens and settings, webhooks, automated-signing profiles.
    ManageSettings,
    /// Read and verify the audit trail.
    ReadAudit,
}

impl Role {
    /// The role's id in the API (`roleId`).
    pub fn id(self) -> i32 {
        match self {
            Role::Administrator => 1,
            Role::Sender => 2,
            Role::Signer => 3,
            Role::Auditor => 4,
        }
    }

    pub fn from_id(id: i32) -> Option<Role> {
        Role::ALL.iter().copied().find(|r| r.id() == id)
    }

    /// Whether this role grants `permission`.
    pub fn allows(self, permission: Permission) -> bool {
        use Permission::*;
        match self {
            Role::Administrator => true,
            Role::Sender => matches!(permission, Authenticated | ReadWorkflows | SendWorkflows | ReadDirectory),
            Role::Signer => matches!(permission, Authenticated),
            Role::Auditor => matches!(permission, Authenticated | ReadWorkflows | ReadDirectory | ReadAudit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_only_administrators_manage() {
        for role in Role::ALL {
            assert_eq!(Role::from_id(role.id()), Some(*role));
            assert!(role.allows(Permission::Authenticated));
            let manages = role.allows(Permission::ManagePeople) || role.allows(Permission::ManageSettings);
            assert_eq!(manages, *role == Role::Administrator, "{role}");
        }
        assert_eq!(Role::from_id(0), None);
        assert_eq!(Role::from_id(5), None);
    }

    #[test]
    fn auditors_read_and_never_send() {
        assert!(Role::Auditor.allows(Permission::ReadAudit));
        assert!(!Role::Auditor.allows(Permission::SendWorkflows));
        assert!(!Role::Sender.allows(Permission::ReadAudit));
        assert!(!Role::Signer.allows(Permission::ReadWorkflows));
    }
}
