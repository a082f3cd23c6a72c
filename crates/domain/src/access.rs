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

use crate::RoleId;
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

impl Permission {
    pub const ALL: [Permission; 7] = [
        Permission::Authenticated,
        Permission::ReadWorkflows,
        Permission::SendWorkflows,
        Permission::ReadDirectory,
        Permission::ManagePeople,
        Permission::ManageSettings,
        Permission::ReadAudit,
    ];

    /// The name a tenant's role lists it by.
    pub fn as_str(self) -> &'static str {
        match self {
            Permission::Authenticated => "authenticated",
            Permission::ReadWorkflows => "read_workflows",
            Permission::SendWorkflows => "send_workflows",
            Permission::ReadDirectory => "read_directory",
            Permission::ManagePeople => "manage_people",
            Permission::ManageSettings => "manage_settings",
            Permission::ReadAudit => "read_audit",
        }
    }

    pub fn parse(text: &str) -> Option<Permission> {
        Permission::ALL.iter().copied().find(|p| p.as_str() == text)
    }
}

/// A tenant's own role lists its permissions by name, comma-separated; the API ids of such
/// roles start above this (built-in roles are 1 to 4).
pub const CUSTOM_ROLE_BASE: i64 = 100;

/// A role as the API's `roleId` names it: a built-in role (1 to 4), or a tenant's own role,
/// whose `roleId` is its stored id plus [`CUSTOM_ROLE_BASE`]. The offset lives here only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoleRef {
    BuiltIn(Role),
    Custom(RoleId),
}

impl RoleRef {
    /// What a `roleId` names, if anything (up to the API's 32-bit bound).
    pub fn from_wire(id: i64) -> Option<RoleRef> {
        if id > CUSTOM_ROLE_BASE && id <= i64::from(i32::MAX) {
            return Some(RoleRef::Custom(RoleId::from(id - CUSTOM_ROLE_BASE)));
        }
        i32::try_from(id).ok().and_then(Role::from_id).map(RoleRef::BuiltIn)
    }

    /// The `roleId` the API shows for this role.
    pub fn wire_id(self) -> i64 {
        match self {
            RoleRef::BuiltIn(role) => i64::from(role.id()),
            RoleRef::Custom(id) => CUSTOM_ROLE_BASE + id.get(),
        }
    }
}

/// A tenant's own role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomRole {
    /// The stored id (the API's `roleId` is [`RoleRef::wire_id`]).
    pub id: RoleId,
    pub name: String,
    pub permissions: Vec<Permission>,
}

/// What a principal may do: its built-in role, or its tenant's own role when it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    pub role: Role,
    pub custom: Option<CustomRole>,
}

impl Access {
    pub fn builtin(role: Role) -> Access {
        Access { role, custom: None }
    }

    pub fn allows(&self, permission: Permission) -> bool {
        match &self.custom {
            Some(custom) => permission == Permission::Authenticated || custom.permissions.contains(&permission),
            None => self.role.allows(permission),
        }
    }

    /// Only the built-in administrator role (and API clients, which have it) grants roles.
    pub fn is_administrator(&self) -> bool {
        self.custom.is_none() && self.role == Role::Administrator
    }

    pub fn name(&self) -> &str {
        match &self.custom {
            Some(custom) => &custom.name,
            None => self.role.as_str(),
        }
    }
}

/// The permissions a stored list names (unknown names are dropped, so a list never grants
/// more than it says).
pub fn parse_permissions(text: &str) -> Vec<Permission> {
    text.split(',').filter_map(|p| Permission::parse(p.trim())).collect()
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
    fn role_ids_on_the_wire_name_built_in_or_tenant_roles() {
        assert_eq!(RoleRef::from_wire(2), Some(RoleRef::BuiltIn(Role::Sender)));
        assert_eq!(RoleRef::from_wire(101), Some(RoleRef::Custom(RoleId::from(1))));
        for nothing in [0, 5, 100, -1, i64::from(i32::MAX) + 1] {
            assert_eq!(RoleRef::from_wire(nothing), None, "{nothing}");
        }
        assert_eq!(RoleRef::Custom(RoleId::from(7)).wire_id(), 107);
        assert_eq!(RoleRef::BuiltIn(Role::Auditor).wire_id(), 4);
    }

    #[test]
    fn a_tenant_role_grants_what_it_lists_and_nothing_else() {
        let reviewer = Access {
            role: Role::Signer,
            custom: Some(CustomRole {
                id: RoleId::from(1),
                name: "Reviewer".into(),
                permissions: parse_permissions("read_workflows, read_audit, bogus"),
            }),
        };
        assert!(reviewer.allows(Permission::ReadWorkflows) && reviewer.allows(Permission::ReadAudit));
        assert!(reviewer.allows(Permission::Authenticated));
        assert!(!reviewer.allows(Permission::SendWorkflows) && !reviewer.is_administrator());
        assert_eq!(reviewer.name(), "Reviewer");
        for p in Permission::ALL {
            assert_eq!(Permission::parse(p.as_str()), Some(p));
        }
    }

    #[test]
    fn auditors_read_and_never_send() {
        assert!(Role::Auditor.allows(Permission::ReadAudit));
        assert!(!Role::Auditor.allows(Permission::SendWorkflows));
        assert!(!Role::Sender.allows(Permission::ReadAudit));
        assert!(!Role::Signer.allows(Permission::ReadWorkflows));
    }
}
