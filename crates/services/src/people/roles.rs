//! A tenant's own roles: a name and the permissions it grants, made and removed by
//! administrators only (a role may list permissions its maker would otherwise give away).

use signet_domain::access::{Permission, RoleRef};
use signet_domain::{Error, ErrorCode};
use signet_store::RoleRow;

use crate::{Caller, Services};

fn administrators_only(caller: &Caller) -> Result<(), Error> {
    if caller.is_administrator() {
        Ok(())
    } else {
        Err(Error::rejected(ErrorCode::Forbidden, "only administrators make or remove roles"))
    }
}

/// Makes a role granting `permissions` (names as `Permission::as_str`).
pub async fn create(svc: &Services, caller: &Caller, name: &str, permissions: &[String]) -> Result<RoleRow, Error> {
    administrators_only(caller)?;
    let trimmed = name.trim();
    if trimmed.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(Error::field("name", "must be 1 to 100 characters without control characters"));
    }
    let mut parsed = Vec::new();
    for permission in permissions {
        match Permission::parse(permission) {
            Some(Permission::Authenticated) | None => {
                let names: Vec<&str> =
                    Permission::ALL.iter().filter(|p| **p != Permission::Authenticated).map(|p| p.as_str()).collect();
                return Err(Error::field("permissions", format!("each must be one of {}", names.join(", "))));
            }
            Some(p) if !parsed.contains(&p) => parsed.push(p),
            Some(_) => {}
        }
    }
    let list: Vec<&str> = parsed.iter().map(|p| p.as_str()).collect();
    svc.store.create_role(caller.tenant_id, trimmed, &list.join(","), &caller.actor).await
}

/// Removes a role nobody has; `role_id` is the API's id.
pub async fn delete(svc: &Services, caller: &Caller, role_id: i64) -> Result<(), Error> {
    administrators_only(caller)?;
    let Some(RoleRef::Custom(id)) = RoleRef::from_wire(role_id) else {
        return Err(Error::not_found("role"));
    };
    svc.store.delete_role(caller.tenant_id, id, &caller.actor).await
}

/// The tenant's own roles, for whoever reads the directory or places people in roles.
pub async fn list(svc: &Services, caller: &Caller) -> Result<Vec<RoleRow>, Error> {
    if !caller.access.allows(Permission::ManagePeople) {
        caller.require(Permission::ReadDirectory)?;
    }
    svc.store.roles(caller.tenant_id).await
}
