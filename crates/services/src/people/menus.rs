//! A tenant's menus and who may use each entry (docs/access.md, "Menus and access"): the
//! rules of `/api/v1/menus/activities`, `/api/v1/menus/access` (granting and taking back) and
//! `/api/v1/menus/delete`, in one place for the API and the console.

use signet_domain::access::Permission;
use signet_domain::{DepartmentId, Error, FieldErrors, MenuId, PrincipalId};
use signet_store::{AccessUserRow, Grant, GrantedDepartmentRow, Grantee, IdleGrantRow, MenuRow};

use crate::{Caller, Services};

/// An id as the API takes it: 1 to 2147483647.
fn is_id(id: i64) -> bool {
    (1..=i64::from(i32::MAX)).contains(&id)
}

/// A new activity named `name` under `parent_id` (`None` for the top level; the wire's 0 is
/// read with [`signet_domain::menu::parent_from_wire`]).
pub async fn create_activity(
    svc: &Services,
    caller: &Caller,
    parent_id: Option<MenuId>,
    name: &str,
) -> Result<MenuRow, Error> {
    caller.require(Permission::ManagePeople)?;
    let trimmed = name.trim();
    if trimmed.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(Error::field("menuName", "must be 1 to 100 characters without control characters"));
    }
    if parent_id.is_some_and(|parent| !is_id(parent.get())) {
        return Err(Error::field("menuParentId", "must be 0 to 2147483647"));
    }
    svc.store.create_activity(caller.tenant_id, parent_id, trimmed, &caller.actor).await
}

/// Removes an activity with the entries below it and their grants.
pub async fn delete_activity(svc: &Services, caller: &Caller, menu_id: MenuId) -> Result<(), Error> {
    caller.require(Permission::ManagePeople)?;
    if !is_id(menu_id.get()) {
        return Err(Error::field("menuId", "must be 1 to 2147483647"));
    }
    svc.store.delete_activity(caller.tenant_id, menu_id, &caller.actor).await
}

/// The ids of one list of a grant, sorted and without repeats; what is wrong with them goes
/// into `errors` under `field`.
fn ids<Id: Copy + Ord + Into<i64>>(field: &str, values: &[Id], errors: &mut FieldErrors) -> Vec<Id> {
    if values.len() > 1000 {
        errors.insert(field.into(), vec!["at most 1000 ids".into()]);
    }
    if values.iter().any(|v| !is_id((*v).into())) {
        errors.insert(field.into(), vec!["each id is 1 to 2147483647".into()]);
    }
    let mut values = values.to_vec();
    values.sort_unstable();
    values.dedup();
    values
}

/// Grants every menu entry of `menu_ids` to every user and department named, all or nothing;
/// the number of new grants (one that existed is not counted again).
pub async fn assign_access(
    svc: &Services,
    caller: &Caller,
    menu_ids: &[MenuId],
    user_ids: &[PrincipalId],
    department_ids: &[DepartmentId],
) -> Result<usize, Error> {
    caller.require(Permission::ManagePeople)?;
    let mut errors = FieldErrors::new();
    let menus = ids("menuIds", menu_ids, &mut errors);
    let users = ids("subscriberIds", user_ids, &mut errors);
    let departments = ids("departmentIds", department_ids, &mut errors);
    if menus.is_empty() {
        errors.entry("menuIds".into()).or_default().push("name at least one menu entry".into());
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let grant = Grant { menu_ids: &menus, user_ids: &users, department_ids: &departments };
    svc.store.assign_access(caller.tenant_id, &grant, &caller.actor).await
}

/// Takes back the grant of the menu entry `menu_id` to one user or department (given directly:
/// a user who may use the entry through their department keeps it while the department's
/// grant stands). An id out of bounds names nothing, so it is not found, as are an entry that
/// is not the tenant's and a grant that does not exist.
pub async fn revoke_access(svc: &Services, caller: &Caller, menu_id: MenuId, grantee: Grantee) -> Result<(), Error> {
    caller.require(Permission::ManagePeople)?;
    if !is_id(menu_id.get()) {
        return Err(Error::not_found("menu"));
    }
    if !is_id(grantee.id()) {
        return Err(Error::not_found("menu grant"));
    }
    svc.store.revoke_menu_access(caller.tenant_id, menu_id, grantee, &caller.actor).await
}

/// The entries the caller may use: all of them for administrators, otherwise those granted to
/// the caller or their department.
pub async fn usable(svc: &Services, caller: &Caller) -> Result<Vec<MenuRow>, Error> {
    let for_user = (!caller.is_administrator()).then_some(caller.principal_id);
    svc.store.menus(caller.tenant_id, for_user).await
}

/// Every entry of the tenant's menu (reading the directory).
pub async fn all(svc: &Services, caller: &Caller) -> Result<Vec<MenuRow>, Error> {
    caller.require(Permission::ReadDirectory)?;
    svc.store.menus(caller.tenant_id, None).await
}

/// Who may use one entry, and the grants that do not count now.
pub struct EntryAccess {
    pub entry: MenuRow,
    /// Active users granted directly or through their department.
    pub users: Vec<AccessUserRow>,
    /// The departments granted.
    pub departments: Vec<GrantedDepartmentRow>,
    /// Direct grants to people who cannot use the entry now.
    pub idle: Vec<IdleGrantRow>,
}

/// One entry of the tenant's menu and who may use it (reading the directory); an id out of
/// range or of another tenant reads as missing.
pub async fn access_to(svc: &Services, caller: &Caller, menu_id: MenuId) -> Result<EntryAccess, Error> {
    caller.require(Permission::ReadDirectory)?;
    if !is_id(menu_id.get()) {
        return Err(Error::not_found("menu"));
    }
    let entry = svc.store.menu(caller.tenant_id, menu_id).await?;
    let (users, departments) = svc.store.menu_access(caller.tenant_id, menu_id).await?;
    let idle = svc.store.menu_grants_to_inactive(caller.tenant_id, menu_id).await?;
    Ok(EntryAccess { entry, users, departments, idle })
}
