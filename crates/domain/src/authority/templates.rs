//! Who may read a template or start a workflow from it. Templates are handed to people as
//! menu entries (to them or their department); administrators and the tenant's API clients
//! use every template, and whoever made a template keeps using it.

use crate::access::{Access, Permission};

/// Whether the caller may look at templates at all: whoever reads the tenant's workflows, and
/// whoever sends them (a sender starts workflows from the templates granted to them).
pub fn may_read_templates(access: &Access) -> bool {
    access.allows(Permission::ReadWorkflows) || access.allows(Permission::SendWorkflows)
}

/// How the caller stands to a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TemplateRelation {
    /// The caller is a user of the tenant (not an API client).
    pub caller_is_user: bool,
    /// The caller made the template.
    pub made_it: bool,
    /// A menu entry grants it to the caller or their department.
    pub granted: bool,
}

/// Whether the caller may read the template or send from it (by id, by name, in the console).
pub fn may_use_template(access: &Access, relation: TemplateRelation) -> bool {
    access.is_administrator() || !relation.caller_is_user || relation.made_it || relation.granted
}

/// Whether the caller may change the template (its name and places), archive it or bring it
/// back: administrators, the tenant's API clients and whoever made it. Those it is only
/// granted to send from it (and may duplicate it, making a template of their own).
pub fn may_change_template(access: &Access, relation: TemplateRelation) -> bool {
    access.allows(Permission::SendWorkflows)
        && (access.is_administrator() || !relation.caller_is_user || relation.made_it)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::Role;

    #[test]
    fn users_use_the_templates_granted_to_them_or_made_by_them() {
        let sender = Access::builtin(Role::Sender);
        let user = TemplateRelation { caller_is_user: true, made_it: false, granted: false };
        assert!(!may_use_template(&sender, user));
        assert!(may_use_template(&sender, TemplateRelation { granted: true, ..user }));
        assert!(may_use_template(&sender, TemplateRelation { made_it: true, ..user }));
        assert!(may_use_template(&Access::builtin(Role::Administrator), user));
        assert!(may_use_template(&sender, TemplateRelation { caller_is_user: false, ..user }), "API clients");
    }

    #[test]
    fn templates_are_changed_by_their_maker_and_administrators() {
        let sender = Access::builtin(Role::Sender);
        let user = TemplateRelation { caller_is_user: true, made_it: false, granted: true };
        assert!(!may_change_template(&sender, user), "granted to use, not to change");
        assert!(may_change_template(&sender, TemplateRelation { made_it: true, ..user }));
        assert!(may_change_template(&Access::builtin(Role::Administrator), user));
        assert!(may_change_template(&sender, TemplateRelation { caller_is_user: false, ..user }), "API clients");
        let auditor = Access::builtin(Role::Auditor);
        assert!(!may_change_template(&auditor, TemplateRelation { made_it: true, ..user }), "readers do not change");
    }

    #[test]
    fn templates_are_for_those_who_read_or_send_workflows() {
        assert!(may_read_templates(&Access::builtin(Role::Sender)));
        assert!(may_read_templates(&Access::builtin(Role::Auditor)));
        assert!(!may_read_templates(&Access::builtin(Role::Signer)));
    }
}
