//! Automated-signing certificate profiles (see migration 0005). The store keeps the encrypted
//! key material as given; encryption and decryption happen in the server.

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::{Error, Millis, TenantId, now_millis};

use crate::{Result, Store, append_audit, db_err, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SigningProfileRow {
    pub id: i64,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub not_after: Millis,
    pub material: Vec<u8>,
    pub created_by: String,
    pub created_at: Millis,
    pub revoked_at: Option<Millis>,
}

pub struct NewSigningProfile<'a> {
    pub tenant_id: TenantId,
    pub name: &'a str,
    pub email: &'a str,
    pub subject: &'a str,
    pub not_after: Millis,
    pub material: &'a [u8],
}

const COLUMNS: &str = "id, tenant_id, name, email, subject, not_after, material, created_by, created_at, revoked_at";

impl Store {
    pub async fn create_signing_profile(
        &self,
        new: &NewSigningProfile<'_>,
        actor: &Actor,
    ) -> Result<SigningProfileRow> {
        let sql = format!(
            "INSERT INTO signing_profiles (tenant_id, name, email, subject, not_after, material, created_by, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: SigningProfileRow = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(new.tenant_id.get())
                .bind(new.name)
                .bind(new.email)
                .bind(new.subject)
                .bind(new.not_after)
                .bind(new.material)
                .bind(&actor.id)
                .bind(now_millis())
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.event(
                "signing_profile.created",
                format!("signing_profile:{}", row.id),
                json!({"name": new.name, "email": new.email, "subject": new.subject}),
            );
            append_audit!(tx, new.tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// The tenant's profiles, revoked ones included.
    pub async fn signing_profiles(&self, tenant_id: TenantId) -> Result<Vec<SigningProfileRow>> {
        let sql = format!("SELECT {COLUMNS} FROM signing_profiles WHERE tenant_id = $1 ORDER BY id");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id.get()).fetch_all(pool).await.map_err(db_err)
        })
    }

    /// An active (not revoked) profile of the tenant.
    pub async fn active_signing_profile(&self, tenant_id: TenantId, id: i64) -> Result<Option<SigningProfileRow>> {
        let sql =
            format!("SELECT {COLUMNS} FROM signing_profiles WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id.get()).bind(id).fetch_optional(pool).await.map_err(db_err)
        })
    }

    pub async fn revoke_signing_profile(&self, tenant_id: TenantId, id: i64, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let done = sqlx::query(
                "UPDATE signing_profiles SET revoked_at = $3 WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL",
            )
            .bind(tenant_id.get())
            .bind(id)
            .bind(now_millis())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if done != 1 {
                return Err(Error::not_found("signing profile"));
            }
            let event = actor.event("signing_profile.revoked", format!("signing_profile:{id}"), json!({}));
            append_audit!(tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }
}
