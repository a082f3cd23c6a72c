//! A tenant's own roles (see `signet_domain::access`).

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::{Error, ErrorCode, RoleId, TenantId, now_millis};

use crate::{Result, Store, append_audit, db_err, is_unique_violation, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RoleRow {
    #[sqlx(try_from = "i64")]
    pub id: RoleId,
    pub name: String,
    pub permissions: String,
    pub created_at: i64,
}

impl Store {
    pub async fn create_role(
        &self,
        tenant_id: TenantId,
        name: &str,
        permissions: &str,
        actor: &Actor,
    ) -> Result<RoleRow> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: RoleRow = sqlx::query_as(
                "INSERT INTO roles (tenant_id, name, permissions, created_by, created_at) VALUES ($1, $2, $3, $4, $5) \
                 RETURNING id, name, permissions, created_at",
            )
            .bind(tenant_id.get())
            .bind(name)
            .bind(permissions)
            .bind(&actor.id)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(|e| {
                if is_unique_violation(&e) {
                    Error::rejected(ErrorCode::Conflict, "the tenant has a role of this name")
                } else {
                    db_err(e)
                }
            })?;
            let event = actor.event("role.created", format!("role:{}", row.id), json!({"name": name, "permissions": permissions}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    pub async fn roles(&self, tenant_id: TenantId) -> Result<Vec<RoleRow>> {
        on_db!(self, pool => {
            sqlx::query_as("SELECT id, name, permissions, created_at FROM roles WHERE tenant_id = $1 ORDER BY id")
                .bind(tenant_id.get())
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Deletes a role nobody has (users who are not deleted).
    pub async fn delete_role(&self, tenant_id: TenantId, id: RoleId, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let (holders,): (i64,) = sqlx::query_as(
                "SELECT COUNT(*) FROM principals WHERE tenant_id = $1 AND custom_role_id = $2 AND status <> 'deleted'",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            if holders > 0 {
                return Err(Error::rejected(ErrorCode::StateConflict, format!("{holders} user(s) have this role: give them another first")));
            }
            sqlx::query("UPDATE principals SET custom_role_id = NULL WHERE tenant_id = $1 AND custom_role_id = $2")
                .bind(tenant_id.get())
                .bind(id.get())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let gone = sqlx::query("DELETE FROM roles WHERE tenant_id = $1 AND id = $2")
                .bind(tenant_id.get())
                .bind(id.get())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?
                .rows_affected();
            if gone == 0 {
                return Err(Error::not_found("role"));
            }
            append_audit!(self, tx, tenant_id, &actor.event("role.deleted", format!("role:{id}"), json!({})));
            tx.commit().await.map_err(db_err)?;
            self.principals_changed();
            Ok(())
        })
    }
}
