//! A tenant's menu (docs/access.md, "Menus and access"): entries that access is granted
//! through, each an activity (a heading people make) or a template's entry (made and removed
//! with its template).

use crate::MenuId;
use crate::text_state::text_states;

text_states! {
    /// What a menu entry is, as stored in `menus.kind` and shown as the API's `kind`.
    pub enum MenuKind ("menu kind") {
        /// A heading made through `/api/v1/menus/activities`; it may be removed.
        Activity => "activity",
        /// A template's entry: it goes with its template, not on its own.
        Template => "template",
    }
}

/// The parent named by the wire's `menuParentId`: 0 means the top level (no parent).
pub fn parent_from_wire(menu_parent_id: i64) -> Option<MenuId> {
    (menu_parent_id != 0).then_some(MenuId::from(menu_parent_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_keep_their_stored_spelling() {
        assert_eq!(MenuKind::parse("activity"), Some(MenuKind::Activity));
        assert_eq!(MenuKind::Template.as_str(), "template");
        assert!(MenuKind::try_from("Template".to_string()).is_err());
    }

    #[test]
    fn zero_is_the_top_level() {
        assert_eq!(parent_from_wire(0), None);
        assert_eq!(parent_from_wire(5), Some(MenuId::from(5)));
        assert_eq!(parent_from_wire(-1), Some(MenuId::from(-1)), "left to the bounds check");
    }
}
