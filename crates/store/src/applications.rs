//! Applications a tenant registers (`AuthorizeAppRequest`): API clients with a name, a role
//! and a secret kept as its SHA-256; rotating the secret or revoking the application ends its
//! sessions at once.

use serde_json::json;
use signet_domain::access::Role;
use signet_domain::audit::Actor;
use signet_domain::{Error, ErrorCode, PrincipalId, TenantId, now_millis};

use crate::{Result, Store, append_audit, db_err, is_unique_violation, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ApplicationRow {
    #[sqlx(try_from = "i64")]
    pub id: PrincipalId,
    pub name: Option<String>,
    pub client_id: Option<String>,
    #[sqlx(try_from = "String")]
    pub role: Role,
    pub disabled: bool,
    pub created_at: i64,
    pub updated_at: Option<i64>,
}

/// A new application as stored.
pub struct NewApplication<'a> {
    pub name: &'a str,
    pub client_id: &'a str,
    pub role: Role,
    pub secret_hash: &'a str,
    pub stamp: &'a str,
}

const APP_COLUMNS: &str = "id, name, client_id, role, disabled, created_at, updated_at";

impl Store {
    /// A new application of the tenant: an API client with a name (unique among the tenant's
    /// active applications), a role, and the hash of its secret.
    pub async fn create_application(
        &self,
        tenant_id: TenantId,
        new: &NewApplication<'_>,
        actor: &Actor,
    ) -> Result<ApplicationRow> {
        let (name, role) = (new.name, new.role);
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let taken: Option<(i64,)> = sqlx::query_as(
                "SELECT id FROM principals WHERE tenant_id = $1 AND kind = 'client' AND lower(name) = lower($2) AND NOT disabled",
            )
            .bind(tenant_id.get())
            .bind(name)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            if taken.is_some() {
                return Err(Error::rejected(ErrorCode::Conflict, "the tenant has an application of this name"));
            }
            let row: ApplicationRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "INSERT INTO principals (tenant_id, kind, client_id, secret_hash, security_stamp, created_at, name, role, \
                 user_type, status, created_by, updated_at) VALUES ($1, 'client', $2, $3, $4, $5, $6, $7, 'internal', \
                 'active', $8, $5) RETURNING {APP_COLUMNS}"
            )))
            .bind(tenant_id.get())
            .bind(new.client_id)
            .bind(new.secret_hash)
            .bind(new.stamp)
            .bind(now)
            .bind(name)
            .bind(role.as_str())
            .bind(&actor.id)
            .fetch_one(&mut *tx)
            .await
            .map_err(|e| if is_unique_violation(&e) { Error::rejected(ErrorCode::Conflict, "try again") } else { db_err(e) })?;
            let event = actor.event("application.created", format!("client:{}", row.id), json!({"name": name, "role": role.as_str()}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// The tenant's applications (the API client made with the tenant is one too).
    pub async fn applications(&self, tenant_id: TenantId) -> Result<Vec<ApplicationRow>> {
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {APP_COLUMNS} FROM principals WHERE tenant_id = $1 AND kind = 'client' ORDER BY id"
            )))
            .bind(tenant_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// A new secret for an active application; its sessions end (`new_stamp`).
    pub async fn rotate_application_secret(
        &self,
        tenant_id: TenantId,
        id: PrincipalId,
        secret_hash: &str,
        new_stamp: &str,
        actor: &Actor,
    ) -> Result<ApplicationRow> {
        self.change_application(tenant_id, id, Some(secret_hash), new_stamp, "application.secret_rotated", actor).await
    }

    /// Revokes an application: it can obtain no token and its sessions end.
    pub async fn revoke_application(
        &self,
        tenant_id: TenantId,
        id: PrincipalId,
        new_stamp: &str,
        actor: &Actor,
    ) -> Result<ApplicationRow> {
        self.change_application(tenant_id, id, None, new_stamp, "application.revoked", actor).await
    }

    async fn change_application(
        &self,
        tenant_id: TenantId,
        id: PrincipalId,
        secret_hash: Option<&str>,
        new_stamp: &str,
        action: &str,
        actor: &Actor,
    ) -> Result<ApplicationRow> {
        let now = now_millis();
        let revoke = secret_hash.is_none();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: Option<ApplicationRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "UPDATE principals SET secret_hash = coalesce($3, secret_hash), security_stamp = $4, updated_at = $5, \
                 disabled = (disabled OR $6), status = CASE WHEN $6 THEN 'disabled' ELSE status END \
                 WHERE tenant_id = $1 AND id = $2 AND kind = 'client' AND NOT disabled RETURNING {APP_COLUMNS}"
            )))
            .bind(tenant_id.get())
            .bind(id.get())
            .bind(secret_hash)
            .bind(new_stamp)
            .bind(now)
            .bind(revoke)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some(row) = row else { return Err(Error::not_found("application")) };
            sqlx::query("UPDATE refresh_tokens SET revoked_at = $2 WHERE principal_id = $1 AND revoked_at IS NULL")
                .bind(id.get())
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            append_audit!(self, tx, tenant_id, &actor.event(action, format!("client:{id}"), json!({"name": row.name})));
            tx.commit().await.map_err(db_err)?;
            self.principals_changed();
            Ok(row)
        })
    }
}
