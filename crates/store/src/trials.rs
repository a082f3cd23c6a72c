//! Free-trial sign-ups and the limits of trial tenants.

use signet_domain::{Millis, TenantId, now_millis};

use crate::{Result, Store, db_err, on_db};

/// A verified sign-up, ready to become a tenant.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TrialSignup {
    pub email: String,
    pub name: String,
    pub password_hash: String,
    pub source: Option<String>,
    /// The installation's provider that proves the address (sign-up through SSO), instead of
    /// the e-mailed link.
    pub sso_provider: Option<String>,
}

/// What a tenant may still do; all absent for tenants that are no trial.
#[derive(Debug, Clone, Copy, Default, sqlx::FromRow)]
pub struct TenantLimits {
    pub trial_ends_at: Option<Millis>,
    pub max_workflows: Option<i64>,
    pub max_users: Option<i64>,
}

impl Store {
    pub async fn create_trial_signup(&self, token_hash: &str, signup: &TrialSignup, expires_at: Millis) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO trial_signups (token_hash, email, name, password_hash, source, expires_at, created_at, \
                 sso_provider) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(token_hash)
            .bind(&signup.email)
            .bind(&signup.name)
            .bind(&signup.password_hash)
            .bind(&signup.source)
            .bind(expires_at)
            .bind(now_millis())
            .bind(&signup.sso_provider)
            .execute(pool)
            .await
            .map_err(db_err)?;
            Ok(())
        })
    }

    /// Spends a sign-up's token (once, before it expires).
    pub async fn take_trial_signup(&self, token_hash: &str) -> Result<Option<TrialSignup>> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query_as(
                "UPDATE trial_signups SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 \
                 RETURNING email, name, password_hash, source, sso_provider",
            )
            .bind(token_hash)
            .bind(now)
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// A sign-up still waiting (unused, in time), without spending it.
    pub async fn pending_trial_signup(&self, token_hash: &str) -> Result<Option<TrialSignup>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT email, name, password_hash, source, sso_provider FROM trial_signups \
                 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
            )
            .bind(token_hash)
            .bind(now_millis())
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Records a sign-up's sign-in sent to the installation's provider `provider`.
    pub async fn begin_sso_signup_login(
        &self,
        state_hash: &str,
        signup_hash: &str,
        provider: &str,
        expires_at: Millis,
    ) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO sso_signup_logins (state_hash, signup_hash, provider, expires_at, used_at, created_at) \
                 VALUES ($1, $2, $3, $4, NULL, $5)",
            )
            .bind(state_hash)
            .bind(signup_hash)
            .bind(provider)
            .bind(expires_at)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?;
            Ok(())
        })
    }

    /// Takes a sign-up's sign-in under way (once, in time): the sign-up's hash and the provider.
    pub async fn take_sso_signup_login(&self, state_hash: &str) -> Result<Option<(String, String)>> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query_as(
                "UPDATE sso_signup_logins SET used_at = $2 WHERE state_hash = $1 AND used_at IS NULL AND expires_at > $2 \
                 RETURNING signup_hash, provider",
            )
            .bind(state_hash)
            .bind(now)
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    pub async fn set_tenant_limits(&self, tenant_id: TenantId, limits: &TenantLimits) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("UPDATE tenants SET trial_ends_at = $2, max_workflows = $3, max_users = $4 WHERE id = $1")
                .bind(tenant_id.get())
                .bind(limits.trial_ends_at)
                .bind(limits.max_workflows)
                .bind(limits.max_users)
                .execute(pool)
                .await
                .map_err(db_err)?;
            Ok(())
        })
    }

    pub async fn tenant_limits(&self, tenant_id: TenantId) -> Result<TenantLimits> {
        let row: Option<TenantLimits> = on_db!(self, pool => {
            sqlx::query_as("SELECT trial_ends_at, max_workflows, max_users FROM tenants WHERE id = $1")
                .bind(tenant_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        Ok(row.unwrap_or_default())
    }

    /// Workflows and users the tenant has made (deleted ones count: a trial's allowance is
    /// spent by making, not by keeping).
    pub async fn tenant_usage(&self, tenant_id: TenantId) -> Result<(i64, i64)> {
        on_db!(self, pool => {
            let (workflows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM workflows WHERE tenant_id = $1")
                .bind(tenant_id.get())
                .fetch_one(pool)
                .await
                .map_err(db_err)?;
            let (users,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM principals WHERE tenant_id = $1 AND kind = 'user'")
                .bind(tenant_id.get())
                .fetch_one(pool)
                .await
                .map_err(db_err)?;
            Ok((workflows, users))
        })
    }
}
