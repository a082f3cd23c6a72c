//! A tenant's departments: read by whoever reads the directory (or manages people, who place
//! people in them), made, renamed and removed by whoever manages people. The faces (API, console) call these; the permission is decided here.

use signet_domain::access::Permission;
use signet_domain::department::{Department, DepartmentName};
use signet_domain::paging::Page;
use signet_domain::{DepartmentId, Error};

use crate::{Caller, Services};

/// One page of the tenant's departments, optionally those whose name contains `search`.
pub async fn list(
    svc: &Services,
    caller: &Caller,
    page: Page,
    search: Option<&str>,
) -> Result<(Vec<Department>, i64), Error> {
    if !caller.access.allows(Permission::ManagePeople) {
        caller.require(Permission::ReadDirectory)?;
    }
    svc.store.departments(caller.tenant_id, page, search).await
}

pub async fn get(svc: &Services, caller: &Caller, id: DepartmentId) -> Result<Department, Error> {
    caller.require(Permission::ReadDirectory)?;
    svc.store.department(caller.tenant_id, id).await
}

pub async fn create(svc: &Services, caller: &Caller, name: &DepartmentName) -> Result<Department, Error> {
    caller.require(Permission::ManagePeople)?;
    svc.store.create_department(caller.tenant_id, name, &caller.actor).await
}

pub async fn rename(
    svc: &Services,
    caller: &Caller,
    id: DepartmentId,
    name: &DepartmentName,
) -> Result<Department, Error> {
    caller.require(Permission::ManagePeople)?;
    svc.store.rename_department(caller.tenant_id, id, name, &caller.actor).await
}

/// Removes departments, all or none (one that does not exist refuses the whole request).
pub async fn delete(svc: &Services, caller: &Caller, ids: &[DepartmentId]) -> Result<(), Error> {
    caller.require(Permission::ManagePeople)?;
    svc.store.delete_departments(caller.tenant_id, ids, &caller.actor).await
}
