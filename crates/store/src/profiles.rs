//! Automated-signing certificate profiles (see migration 0005). The store keeps the encrypted
//! key material as given; encryption and decryption happen in the server.

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::{Error, Millis, PrincipalId, SigningProfileId, TenantId, now_millis};

use crate::{Result, Store, append_audit, db_err, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SigningProfileRow {
    #[sqlx(try_from = "i64")]
    pub id: SigningProfileId,
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
    /// The user who enrolled it as their own certificate (none: uploaded by the tenant).
    #[sqlx(try_from = "crate::NullableId")]
    pub owner_id: Option<PrincipalId>,
}

pub struct NewSigningProfile<'a> {
    pub tenant_id: TenantId,
    pub name: &'a str,
    pub email: &'a str,
    pub subject: &'a str,
    pub not_after: Millis,
    pub material: &'a [u8],
    pub owner_id: Option<PrincipalId>,
}

const COLUMNS: &str =
    "id, tenant_id, name, email, subject, not_after, material, created_by, created_at, revoked_at, owner_id";

impl Store {
    pub async fn create_signing_profile(
        &self,
        new: &NewSigningProfile<'_>,
        actor: &Actor,
    ) -> Result<SigningProfileRow> {
        let sql = format!(
            "INSERT INTO signing_profiles (tenant_id, name, email, subject, not_after, material, created_by, created_at, \
             owner_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING {COLUMNS}"
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
                .bind(new.owner_id.map(PrincipalId::get))
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.event(
                "signing_profile.created",
                format!("signing_profile:{}", row.id),
                json!({"name": new.name, "email": new.email, "subject": new.subject}),
            );
            append_audit!(self, tx, new.tenant_id, &event);
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
    pub async fn active_signing_profile(
        &self,
        tenant_id: TenantId,
        id: SigningProfileId,
    ) -> Result<Option<SigningProfileRow>> {
        let sql =
            format!("SELECT {COLUMNS} FROM signing_profiles WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id.get()).bind(id.get()).fetch_optional(pool).await.map_err(db_err)
        })
    }

    pub async fn revoke_signing_profile(&self, tenant_id: TenantId, id: SigningProfileId, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let done = sqlx::query(
                "UPDATE signing_profiles SET revoked_at = $3 WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .bind(now_millis())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if done != 1 {
                return Err(Error::not_found("signing profile"));
            }
            // Automated signing that used it stops with it.
            sqlx::query("UPDATE principals SET auto_sign_enabled = FALSE WHERE tenant_id = $1 AND auto_sign_profile_id = $2")
                .bind(tenant_id.get())
                .bind(id.get())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.event("signing_profile.revoked", format!("signing_profile:{id}"), json!({}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }
}

/// A user with automated signing on, their settings and the profile they named (whose owner
/// the services check against the user: `signet_domain::authority::signing`).
#[derive(Debug, Clone)]
pub struct AutomatedSigner {
    pub user_id: PrincipalId,
    pub settings: AutomatedSigningRow,
    pub profile: SigningProfileRow,
}

/// A user's automated-signing settings (`AutomatedSigningData`).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct AutomatedSigningRow {
    pub auto_sign_enabled: bool,
    #[sqlx(try_from = "crate::NullableId")]
    pub auto_sign_profile_id: Option<SigningProfileId>,
    pub auto_sign_consent_at: Option<Millis>,
    pub auto_sign_consent_ip: Option<String>,
    pub auto_sign_reason: Option<String>,
    pub auto_sign_location: Option<String>,
}

/// The address a user consented to automated signing from (a sealed personal field).
pub(crate) const CONSENT_IP_COLUMN: &str = "principals.auto_sign_consent_ip";

const AUTO_COLUMNS: &str = "auto_sign_enabled, auto_sign_profile_id, auto_sign_consent_at, auto_sign_consent_ip, \
    auto_sign_reason, auto_sign_location";

impl Store {
    pub async fn automated_signing(&self, tenant_id: TenantId, user_id: PrincipalId) -> Result<AutomatedSigningRow> {
        let row: Option<AutomatedSigningRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {AUTO_COLUMNS} FROM principals WHERE tenant_id = $1 AND id = $2 AND kind = 'user'"
            )))
            .bind(tenant_id.get())
            .bind(user_id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        let mut row = row.ok_or(Error::not_found("user"))?;
        row.auto_sign_consent_ip =
            self.open_field(tenant_id.get(), CONSENT_IP_COLUMN, row.auto_sign_consent_ip.take()).await?;
        Ok(row)
    }

    /// Replaces a user's automated-signing settings; the profile, when one is named, must be
    /// the user's own active one (checked in the same transaction).
    pub async fn set_automated_signing(
        &self,
        tenant_id: TenantId,
        user_id: PrincipalId,
        settings: &AutomatedSigningRow,
        actor: &Actor,
    ) -> Result<()> {
        let consent_ip =
            self.seal_field(tenant_id.get(), CONSENT_IP_COLUMN, settings.auto_sign_consent_ip.as_deref()).await?;
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            if let Some(profile) = settings.auto_sign_profile_id {
                let own: Option<(i64,)> = sqlx::query_as(
                    "SELECT id FROM signing_profiles WHERE tenant_id = $1 AND id = $2 AND owner_id = $3 AND revoked_at IS NULL",
                )
                .bind(tenant_id.get())
                .bind(profile.get())
                .bind(user_id.get())
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
                if own.is_none() {
                    return Err(Error::field("certificateProfileId", "is not an active certificate you enrolled"));
                }
            }
            sqlx::query(
                "UPDATE principals SET auto_sign_enabled = $3, auto_sign_profile_id = $4, auto_sign_consent_at = $5, \
                 auto_sign_consent_ip = $6, auto_sign_reason = $7, auto_sign_location = $8 \
                 WHERE tenant_id = $1 AND id = $2 AND kind = 'user'",
            )
            .bind(tenant_id.get())
            .bind(user_id.get())
            .bind(settings.auto_sign_enabled)
            .bind(settings.auto_sign_profile_id.map(SigningProfileId::get))
            .bind(settings.auto_sign_consent_at)
            .bind(&consent_ip)
            .bind(&settings.auto_sign_reason)
            .bind(&settings.auto_sign_location)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event(
                "user.automated_signing_set",
                format!("user:{user_id}"),
                // The address of the consent is this entry's own (sealed), not repeated in clear.
                json!({"enabled": settings.auto_sign_enabled, "profileId": settings.auto_sign_profile_id,
                    "consentAt": settings.auto_sign_consent_at}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The automated signer of a workflow signatory: an active user of the tenant (by id, or
    /// by e-mail address) with automated signing on, and their own active profile.
    pub async fn automated_signer(
        &self,
        tenant_id: TenantId,
        subscriber_id: i64,
        email: &str,
    ) -> Result<Option<AutomatedSigner>> {
        let user: Option<(i64,)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id FROM principals WHERE tenant_id = $1 AND kind = 'user' AND status = 'active' \
                 AND auto_sign_enabled AND (id = $2 OR ($2 = 0 AND lower(email) = lower($3)))",
            )
            .bind(tenant_id.get())
            .bind(subscriber_id)
            .bind(email)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        let Some((user_id,)) = user else { return Ok(None) };
        let user_id = PrincipalId::from(user_id);
        let settings = self.automated_signing(tenant_id, user_id).await?;
        let Some(profile_id) = settings.auto_sign_profile_id else { return Ok(None) };
        let profile = self.active_signing_profile(tenant_id, profile_id).await?;
        Ok(profile.map(|profile| AutomatedSigner { user_id, settings, profile }))
    }
}
