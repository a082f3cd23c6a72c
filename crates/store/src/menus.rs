//! The tenant's menus (activities and templates as entries) and who may use each entry.

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::menu::MenuKind;
use signet_domain::user::UserStatus;
use signet_domain::{DepartmentId, Error, MenuId, PrincipalId, TemplateId, TenantId, now_millis};

use crate::{Result, Store, append_audit, db_err, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MenuRow {
    #[sqlx(try_from = "i64")]
    pub id: MenuId,
    #[sqlx(try_from = "crate::NullableId")]
    pub parent_id: Option<MenuId>,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub kind: MenuKind,
    /// The template whose entry this is (a template's entry only).
    #[sqlx(try_from = "crate::NullableId")]
    pub template_id: Option<TemplateId>,
    pub created_at: i64,
}

/// Someone who may use a menu entry (directly, or through their department).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AccessUserRow {
    #[sqlx(try_from = "i64")]
    pub id: PrincipalId,
    pub name: Option<String>,
    pub email: Option<String>,
    /// Granted to them directly (a grant that can be taken back), not only through their
    /// department.
    pub direct: bool,
}

/// A department granted a menu entry.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GrantedDepartmentRow {
    #[sqlx(try_from = "i64")]
    pub id: DepartmentId,
    pub name: String,
}

/// A direct grant of a menu entry to someone who cannot use it now: the grantee, who they are
/// and where they stand (never `active`).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct IdleGrantRow {
    #[sqlx(try_from = "i64")]
    pub id: PrincipalId,
    pub name: Option<String>,
    pub email: Option<String>,
    #[sqlx(try_from = "String")]
    pub status: UserStatus,
}

/// What `AssignAccessRequest` grants: every listed menu to every listed user and department.
pub struct Grant<'a> {
    pub menu_ids: &'a [MenuId],
    pub user_ids: &'a [PrincipalId],
    pub department_ids: &'a [DepartmentId],
}

/// Whom one grant of a menu entry is to: a user or a department.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grantee {
    User(PrincipalId),
    Department(DepartmentId),
}

impl Grantee {
    /// The grantee's bare id (a user's or a department's, by the variant).
    pub fn id(self) -> i64 {
        match self {
            Grantee::User(id) => id.get(),
            Grantee::Department(id) => id.get(),
        }
    }
}

const MENU_COLUMNS: &str = "id, parent_id, name, kind, template_id, created_at";

impl Store {
    /// A new activity under `parent_id` (a menu of the tenant, or none for the top level).
    pub async fn create_activity(
        &self,
        tenant_id: TenantId,
        parent_id: Option<MenuId>,
        name: &str,
        actor: &Actor,
    ) -> Result<MenuRow> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            if let Some(parent) = parent_id {
                let found: Option<(i64,)> = sqlx::query_as("SELECT id FROM menus WHERE tenant_id = $1 AND id = $2")
                    .bind(tenant_id.get())
                    .bind(parent.get())
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db_err)?;
                if found.is_none() {
                    return Err(Error::field("menuParentId", "no such menu in this tenant (0 for the top level)"));
                }
            }
            let row: MenuRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "INSERT INTO menus (tenant_id, parent_id, name, kind, template_id, created_by, created_at) \
                 VALUES ($1, $2, $3, $4, NULL, $5, $6) RETURNING {MENU_COLUMNS}"
            )))
            .bind(tenant_id.get())
            .bind(parent_id.map(MenuId::get))
            .bind(name)
            .bind(MenuKind::Activity.as_str())
            .bind(&actor.id)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event("menu.created", format!("menu:{}", row.id), json!({"name": name, "parentId": parent_id}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// Deletes an activity with its entries below and their grants (a template's entry goes
    /// with its template, not here).
    pub async fn delete_activity(&self, tenant_id: TenantId, id: MenuId, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let found: Option<(String,)> =
                sqlx::query_as("SELECT kind FROM menus WHERE tenant_id = $1 AND id = $2")
                    .bind(tenant_id.get())
                    .bind(id.get())
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db_err)?;
            match found {
                None => return Err(Error::not_found("menu")),
                Some((kind,)) if MenuKind::parse(&kind) != Some(MenuKind::Activity) => {
                    return Err(Error::rejected(
                        signet_domain::ErrorCode::StateConflict,
                        "a template's menu entry goes with its template",
                    ));
                }
                Some(_) => {}
            }
            // The entry and everything below it, level by level (menus are shallow; the loop
            // ends when a level is empty, and ids only ever point at earlier rows).
            let mut level = vec![id.get()];
            let mut all = Vec::new();
            while !level.is_empty() && all.len() < 10_000 {
                all.extend(level.iter().copied());
                let mut next = Vec::new();
                for parent in &level {
                    let children: Vec<(i64,)> =
                        sqlx::query_as("SELECT id FROM menus WHERE tenant_id = $1 AND parent_id = $2")
                            .bind(tenant_id.get())
                            .bind(parent)
                            .fetch_all(&mut *tx)
                            .await
                            .map_err(db_err)?;
                    next.extend(children.into_iter().map(|(c,)| c));
                }
                level = next;
            }
            for menu in all.iter().rev() {
                sqlx::query("DELETE FROM menu_access WHERE menu_id = $1").bind(menu).execute(&mut *tx).await.map_err(db_err)?;
                sqlx::query("UPDATE menus SET parent_id = NULL WHERE parent_id = $1 AND kind = $2")
                    .bind(menu)
                    .bind(MenuKind::Template.as_str())
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
                sqlx::query("DELETE FROM menus WHERE id = $1 AND kind = $2")
                    .bind(menu)
                    .bind(MenuKind::Activity.as_str())
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
            append_audit!(self, tx, tenant_id, &actor.event("menu.deleted", format!("menu:{id}"), json!({"entries": all.len()})));
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The tenant's menu entries; with `for_user`, only those the user may use (granted to
    /// them or to their department).
    pub async fn menus(&self, tenant_id: TenantId, for_user: Option<PrincipalId>) -> Result<Vec<MenuRow>> {
        on_db!(self, pool => {
            let rows: Vec<MenuRow> = match for_user {
                None => sqlx::query_as(sqlx::AssertSqlSafe(format!(
                    "SELECT {MENU_COLUMNS} FROM menus WHERE tenant_id = $1 ORDER BY id"
                )))
                .bind(tenant_id.get())
                .fetch_all(pool)
                .await
                .map_err(db_err)?,
                Some(user) => sqlx::query_as(sqlx::AssertSqlSafe(format!(
                    "SELECT {MENU_COLUMNS} FROM menus m WHERE m.tenant_id = $1 AND EXISTS (SELECT 1 FROM menu_access a \
                     WHERE a.menu_id = m.id AND (a.principal_id = $2 OR a.department_id = \
                     (SELECT department_id FROM principals p WHERE p.id = $2))) ORDER BY id"
                )))
                .bind(tenant_id.get())
                .bind(user.get())
                .fetch_all(pool)
                .await
                .map_err(db_err)?,
            };
            Ok(rows)
        })
    }

    pub async fn menu(&self, tenant_id: TenantId, id: MenuId) -> Result<MenuRow> {
        let row: Option<MenuRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {MENU_COLUMNS} FROM menus WHERE tenant_id = $1 AND id = $2")))
                .bind(tenant_id.get())
                .bind(id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        row.ok_or(Error::not_found("menu"))
    }

    /// Grants every menu to every user and department named, all or nothing: an id that is
    /// not the tenant's (a menu, an active user, a department) refuses the whole grant.
    pub async fn assign_access(&self, tenant_id: TenantId, grant: &Grant<'_>, actor: &Actor) -> Result<usize> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let menu_ids: Vec<i64> = grant.menu_ids.iter().map(|id| id.get()).collect();
            let user_ids: Vec<i64> = grant.user_ids.iter().map(|id| id.get()).collect();
            let department_ids: Vec<i64> = grant.department_ids.iter().map(|id| id.get()).collect();
            let checks: [(&str, &str, &[i64]); 3] = [
                ("menuIds", "SELECT id FROM menus WHERE tenant_id = $1 AND id = $2", &menu_ids),
                (
                    "subscriberIds",
                    "SELECT id FROM principals WHERE tenant_id = $1 AND id = $2 AND kind = 'user' AND status = 'active'",
                    &user_ids,
                ),
                ("departmentIds", "SELECT id FROM departments WHERE tenant_id = $1 AND id = $2", &department_ids),
            ];
            for (field, sql, ids) in checks {
                for id in ids {
                    let found: Option<(i64,)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                        .bind(tenant_id.get())
                        .bind(id)
                        .fetch_optional(&mut *tx)
                        .await
                        .map_err(db_err)?;
                    if found.is_none() {
                        return Err(Error::field(field, "names an id that is not one of this tenant's"));
                    }
                }
            }
            let mut granted = 0;
            for menu in &menu_ids {
                for (column, ids) in [("principal_id", user_ids.as_slice()), ("department_id", department_ids.as_slice())] {
                    for id in ids {
                        let sql = format!(
                            "INSERT INTO menu_access (tenant_id, menu_id, {column}, created_at) VALUES ($1, $2, $3, $4) \
                             ON CONFLICT DO NOTHING"
                        );
                        granted += sqlx::query(sqlx::AssertSqlSafe(sql))
                            .bind(tenant_id.get())
                            .bind(menu)
                            .bind(id)
                            .bind(now)
                            .execute(&mut *tx)
                            .await
                            .map_err(db_err)?
                            .rows_affected() as usize;
                    }
                }
            }
            let event = actor.event(
                "menu.access_granted",
                "menus".to_string(),
                json!({"menuIds": grant.menu_ids, "subscriberIds": grant.user_ids, "departmentIds": grant.department_ids}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(granted)
        })
    }

    /// Takes back one grant of a menu entry of the tenant: not found when the entry is not the
    /// tenant's or the entry is not granted to that user or department (directly: a user who
    /// may use it through their department keeps it until the department's grant goes).
    pub async fn revoke_menu_access(
        &self,
        tenant_id: TenantId,
        menu_id: MenuId,
        grantee: Grantee,
        actor: &Actor,
    ) -> Result<()> {
        let (column, detail) = match grantee {
            Grantee::User(id) => ("principal_id", json!({"menuId": menu_id, "subscriberId": id})),
            Grantee::Department(id) => ("department_id", json!({"menuId": menu_id, "departmentId": id})),
        };
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let found: Option<(i64,)> = sqlx::query_as("SELECT id FROM menus WHERE tenant_id = $1 AND id = $2")
                .bind(tenant_id.get())
                .bind(menu_id.get())
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            if found.is_none() {
                return Err(Error::not_found("menu"));
            }
            let sql = format!("DELETE FROM menu_access WHERE tenant_id = $1 AND menu_id = $2 AND {column} = $3");
            let taken = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(tenant_id.get())
                .bind(menu_id.get())
                .bind(grantee.id())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?
                .rows_affected();
            if taken == 0 {
                return Err(Error::not_found("menu grant"));
            }
            append_audit!(self, tx, tenant_id, &actor.event("menu.access_revoked", format!("menu:{menu_id}"), detail));
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Direct grants of a menu entry to people who cannot use it now (inactive, disabled,
    /// pending, ...): the grant stays, to be taken back or to count again if they come back.
    pub async fn menu_grants_to_inactive(&self, tenant_id: TenantId, menu_id: MenuId) -> Result<Vec<IdleGrantRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT p.id, p.name, p.email, p.status FROM principals p JOIN menu_access a ON a.principal_id = p.id \
                 WHERE p.tenant_id = $1 AND a.menu_id = $2 AND p.kind = 'user' AND p.status <> 'active' ORDER BY p.id",
            )
            .bind(tenant_id.get())
            .bind(menu_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Who may use a menu entry: users granted directly or through their department, and the
    /// departments granted.
    pub async fn menu_access(
        &self,
        tenant_id: TenantId,
        menu_id: MenuId,
    ) -> Result<(Vec<AccessUserRow>, Vec<GrantedDepartmentRow>)> {
        on_db!(self, pool => {
            let users: Vec<AccessUserRow> = sqlx::query_as(
                "SELECT p.id, p.name, p.email, EXISTS (SELECT 1 FROM menu_access d WHERE d.menu_id = $2 \
                 AND d.principal_id = p.id) AS direct FROM principals p WHERE p.tenant_id = $1 AND p.kind = 'user' \
                 AND p.status = 'active' AND EXISTS (SELECT 1 FROM menu_access a WHERE a.menu_id = $2 AND \
                 (a.principal_id = p.id OR (a.department_id IS NOT NULL AND a.department_id = p.department_id))) ORDER BY p.id",
            )
            .bind(tenant_id.get())
            .bind(menu_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)?;
            let departments: Vec<GrantedDepartmentRow> = sqlx::query_as(
                "SELECT d.id, d.name FROM departments d JOIN menu_access a ON a.department_id = d.id \
                 WHERE d.tenant_id = $1 AND a.menu_id = $2 ORDER BY d.id",
            )
            .bind(tenant_id.get())
            .bind(menu_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)?;
            Ok((users, departments))
        })
    }
}
