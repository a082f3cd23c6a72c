use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::authority::sessions::SecondFactorAttempts;
use signet_domain::{Millis, PrincipalId, RoleId, TenantId, now_millis};

use crate::{Result, Store, append_audit, db_err, on_db};

/// What a login needs to check a secret.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PrincipalCredentials {
    #[sqlx(try_from = "i64")]
    pub id: PrincipalId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub kind: String,
    pub secret_hash: String,
    pub security_stamp: String,
    pub disabled: bool,
    /// Only `active` principals sign in.
    pub status: String,
    /// How a user signs in (`password`, `email_otp`, `sso`); `password` for clients.
    pub login_mode: String,
}

/// What every authenticated request checks against the token's claims.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PrincipalAuth {
    pub security_stamp: String,
    pub disabled: bool,
    /// What the principal may do (API clients act as administrators of their tenant).
    #[sqlx(try_from = "String")]
    pub role: signet_domain::access::Role,
    /// Only `active` principals renew their sessions.
    pub status: String,
    /// The tenant's own role the principal has, if any: its id, name and permissions.
    #[sqlx(try_from = "crate::NullableId")]
    pub custom_role_id: Option<RoleId>,
    pub custom_role_name: Option<String>,
    pub custom_permissions: Option<String>,
}

impl PrincipalAuth {
    /// What the principal may do: its tenant's role when it has one, else its built-in role.
    pub fn access(&self) -> signet_domain::access::Access {
        use signet_domain::access::{Access, CustomRole, parse_permissions};
        let custom = match (self.custom_role_id, &self.custom_role_name, &self.custom_permissions) {
            (Some(id), Some(name), Some(permissions)) => {
                Some(CustomRole { id, name: name.clone(), permissions: parse_permissions(permissions) })
            }
            _ => None,
        };
        Access { role: self.role, custom }
    }
}

/// A `PrincipalAuth` from the row of `principal_auth`'s statement, read on the calling thread.
fn auth_of_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<PrincipalAuth> {
    let role = signet_domain::access::Role::try_from(row.get::<_, String>(2)?)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(2, rusqlite::types::Type::Text, Box::new(e)))?;
    Ok(PrincipalAuth {
        security_stamp: row.get(0)?,
        disabled: row.get(1)?,
        role,
        status: row.get(3)?,
        custom_role_id: row.get::<_, Option<i64>>(4)?.map(RoleId::from),
        custom_role_name: row.get(5)?,
        custom_permissions: row.get(6)?,
    })
}

pub struct NewRefreshToken<'a> {
    pub token_hash: &'a str,
    pub family_id: &'a str,
    pub principal_id: PrincipalId,
    pub tenant_id: TenantId,
    pub expires_at: Millis,
}

/// The outcome of presenting a refresh token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefreshUse {
    /// First use: the token is now spent; a successor may be issued in the same family.
    Fresh {
        principal_id: PrincipalId,
        tenant_id: TenantId,
        family_id: String,
        expires_at: Millis,
    },
    /// Already spent or revoked: the whole family has been revoked.
    Reused,
    Expired,
    Unknown,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SigningKeyRow {
    pub kid: String,
    pub private_der: Vec<u8>,
    pub public_raw: Vec<u8>,
}

/// How login attempts per (account, address) are throttled.
#[derive(Debug, Clone, Copy)]
pub struct AuthThrottle {
    /// Failures counted within this window.
    pub window_ms: Millis,
    /// Attempts allowed without delay within the window.
    pub limit: i64,
    /// The first delay once the limit is reached; each further failure doubles it.
    pub base_delay_ms: Millis,
    pub max_delay_ms: Millis,
}

/// The answer of [`Store::admit_auth_attempt`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthAttempt {
    Admitted,
    Blocked { retry_after_ms: Millis },
}

impl Store {
    pub async fn principal_by_email(&self, email: &str) -> Result<Option<PrincipalCredentials>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, tenant_id, kind, secret_hash, security_stamp, disabled, status, login_mode FROM principals \
                 WHERE kind = 'user' AND lower(email) = lower($1)",
            )
            .bind(email)
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    pub async fn principal_by_client_id(&self, client_id: &str) -> Result<Option<PrincipalCredentials>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, tenant_id, kind, secret_hash, security_stamp, disabled, status, login_mode FROM principals \
                 WHERE kind = 'client' AND client_id = $1",
            )
            .bind(client_id)
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// [`Store::principal_auth`] through the cache of what authenticated requests check
    /// (`principal_cache.rs`); the database is read when the cache has no fresh answer.
    pub async fn principal_auth_cached(
        &self,
        tenant_id: TenantId,
        principal_id: PrincipalId,
    ) -> Result<Option<PrincipalAuth>> {
        if let Some(hit) = self.principals.get(tenant_id, principal_id) {
            return Ok(Some(hit));
        }
        let ticket = self.principals.ticket();
        let found = self.principal_auth(tenant_id, principal_id).await?;
        if let Some(auth) = &found {
            self.principals.put(ticket, tenant_id, principal_id, auth);
        }
        Ok(found)
    }

    /// The stamp and state of a principal of a tenant; `None` when it does not exist there.
    pub async fn principal_auth(
        &self,
        tenant_id: TenantId,
        principal_id: PrincipalId,
    ) -> Result<Option<PrincipalAuth>> {
        const SQL: &str = "SELECT p.security_stamp, p.disabled, p.role, p.status, r.id AS custom_role_id, \
            r.name AS custom_role_name, r.permissions AS custom_permissions \
            FROM principals p LEFT JOIN roles r ON r.id = p.custom_role_id WHERE p.tenant_id = $1 AND p.id = $2";
        let read_in_place = self
            .sqlite_reads
            .as_ref()
            .and_then(|reads| reads.row(SQL, (tenant_id.get(), principal_id.get()), auth_of_row));
        if let Some(found) = read_in_place {
            return Ok(found);
        }
        on_db!(self, pool => {
            sqlx::query_as(SQL)
            .bind(tenant_id.get())
            .bind(principal_id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Ends every session of a principal at once: a new security stamp makes its access tokens
    /// fail, and its refresh tokens are revoked. `disable` also blocks new logins.
    pub async fn end_sessions(
        &self,
        tenant_id: TenantId,
        principal_id: PrincipalId,
        new_stamp: &str,
        disable: bool,
        actor: &Actor,
    ) -> Result<bool> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let changed = sqlx::query(
                "UPDATE principals SET security_stamp = $3, disabled = (disabled OR $4) \
                 WHERE tenant_id = $1 AND id = $2",
            )
            .bind(tenant_id.get())
            .bind(principal_id.get())
            .bind(new_stamp)
            .bind(disable)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed == 0 {
                return Ok(false);
            }
            sqlx::query(
                "UPDATE refresh_tokens SET revoked_at = $2 WHERE principal_id = $1 AND revoked_at IS NULL",
            )
            .bind(principal_id.get())
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let action = if disable { "principal.disabled" } else { "principal.sessions_revoked" };
            let event = actor.event(action, format!("principal:{principal_id}"), json!({}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            self.principals_changed();
            Ok(true)
        })
    }

    pub async fn insert_refresh_token(&self, token: &NewRefreshToken<'_>) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO refresh_tokens (token_hash, family_id, principal_id, tenant_id, issued_at, expires_at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(token.token_hash)
            .bind(token.family_id)
            .bind(token.principal_id.get())
            .bind(token.tenant_id.get())
            .bind(now)
            .bind(token.expires_at)
            .execute(pool)
            .await
            .map_err(db_err)?;
        });
        Ok(())
    }

    /// Spends a refresh token. The spend is one conditional UPDATE, so of two concurrent
    /// presentations exactly one wins; presenting a spent token revokes its family
    /// (RFC 6749 §10.4 / OAuth security BCP: refresh token reuse detection).
    pub async fn use_refresh_token(&self, token_hash: &str) -> Result<RefreshUse> {
        let now = now_millis();
        on_db!(self, pool => {
            let spent: Option<(i64, i64, String, i64)> = sqlx::query_as(
                "UPDATE refresh_tokens SET used_at = $2 \
                 WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2 \
                 RETURNING principal_id, tenant_id, family_id, expires_at",
            )
            .bind(token_hash)
            .bind(now)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?;
            if let Some((principal_id, tenant_id, family_id, expires_at)) = spent {
                let tenant_id = TenantId::from(tenant_id);
                let principal_id = PrincipalId::from(principal_id);
                return Ok(RefreshUse::Fresh { principal_id, tenant_id, family_id, expires_at });
            }
            let known: Option<(String, i64)> = sqlx::query_as(
                "SELECT family_id, expires_at FROM refresh_tokens WHERE token_hash = $1",
            )
            .bind(token_hash)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?;
            match known {
                None => Ok(RefreshUse::Unknown),
                Some((_, expires_at)) if expires_at <= now => Ok(RefreshUse::Expired),
                Some((family_id, _)) => {
                    sqlx::query("UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL")
                        .bind(&family_id)
                        .bind(now)
                        .execute(pool)
                        .await
                        .map_err(db_err)?;
                    Ok(RefreshUse::Reused)
                }
            }
        })
    }

    /// The principal and tenant of a refresh token that can still be spent (not used, not
    /// revoked, not expired), without spending it: the console's session check.
    pub async fn live_refresh_token(&self, token_hash: &str) -> Result<Option<(PrincipalId, TenantId)>> {
        let now = now_millis();
        on_db!(self, pool => {
            let found: Option<(i64, i64)> = sqlx::query_as(
                "SELECT principal_id, tenant_id FROM refresh_tokens \
                 WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2",
            )
            .bind(token_hash)
            .bind(now)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?;
            Ok(found.map(|(principal, tenant)| (PrincipalId::from(principal), TenantId::from(tenant))))
        })
    }

    /// Revokes the family of a refresh token (RFC 7009); unknown tokens are ignored.
    pub async fn revoke_refresh_family(&self, token_hash: &str) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query(
                "UPDATE refresh_tokens SET revoked_at = $2 WHERE revoked_at IS NULL AND family_id IN \
                 (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)",
            )
            .bind(token_hash)
            .bind(now)
            .execute(pool)
            .await
            .map_err(db_err)?;
        });
        Ok(())
    }

    /// Deletes refresh tokens that expired before `before`.
    pub async fn purge_expired_refresh_tokens(&self, before: Millis) -> Result<u64> {
        on_db!(self, pool => {
            Ok(sqlx::query("DELETE FROM refresh_tokens WHERE expires_at < $1")
                .bind(before)
                .execute(pool)
                .await
                .map_err(db_err)?
                .rows_affected())
        })
    }

    /// The key for `purpose`, inserting `candidate` if there is none yet. Concurrent first
    /// starts agree: the first insert wins and every instance reads it back.
    pub async fn signing_key_get_or_insert(&self, purpose: &str, candidate: &SigningKeyRow) -> Result<SigningKeyRow> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO signing_keys (purpose, kid, private_der, public_raw, created_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (purpose) DO NOTHING",
            )
            .bind(purpose)
            .bind(&candidate.kid)
            .bind(&candidate.private_der)
            .bind(&candidate.public_raw)
            .bind(now)
            .execute(pool)
            .await
            .map_err(db_err)?;
            sqlx::query_as("SELECT kid, private_der, public_raw FROM signing_keys WHERE purpose = $1")
                .bind(purpose)
                .fetch_one(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Replaces the key for `purpose` by `renewed` if it still is `old_kid`, and returns the
    /// key in force: when instances renew at once, the first replacement wins and the others
    /// read it back.
    pub async fn signing_key_replace(
        &self,
        purpose: &str,
        old_kid: &str,
        renewed: &SigningKeyRow,
    ) -> Result<SigningKeyRow> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query(
                "UPDATE signing_keys SET kid = $3, private_der = $4, public_raw = $5, created_at = $6 \
                 WHERE purpose = $1 AND kid = $2",
            )
            .bind(purpose)
            .bind(old_kid)
            .bind(&renewed.kid)
            .bind(&renewed.private_der)
            .bind(&renewed.public_raw)
            .bind(now)
            .execute(pool)
            .await
            .map_err(db_err)?;
            sqlx::query_as("SELECT kid, private_der, public_raw FROM signing_keys WHERE purpose = $1")
                .bind(purpose)
                .fetch_one(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Admits one login attempt for `throttle_key` (an account together with the client's
    /// address) or refuses it, in one statement: the attempt is counted as a failure up front
    /// (a success clears the row with [`Store::clear_auth_failures`]), so parallel guesses
    /// cannot all pass the check before any failure is recorded. Attempts past `policy.limit`
    /// within the window block the key for `base_delay_ms`, then twice as long each time, up to
    /// `max_delay_ms`. Shared by all instances because it lives in the database.
    pub async fn admit_auth_attempt(&self, throttle_key: &str, policy: &AuthThrottle) -> Result<AuthAttempt> {
        let now = now_millis();
        // In an UPDATE every right-hand side reads the old row, so the new count is spelled out.
        let stale = "auth_failures.window_start + $3 <= $2";
        let count = format!("(CASE WHEN {stale} THEN 1 ELSE auth_failures.failures + 1 END)");
        let delay = format!(
            "(CASE WHEN {count} < $4 THEN 0 WHEN {stale} OR auth_failures.delay_ms = 0 THEN $5 \
             WHEN auth_failures.delay_ms * 2 > $6 THEN $6 ELSE auth_failures.delay_ms * 2 END)"
        );
        let sql = format!(
            "INSERT INTO auth_failures (account_key, window_start, failures, blocked_until, delay_ms) \
             VALUES ($1, $2, 1, CASE WHEN 1 >= $4 THEN $2 + $5 ELSE 0 END, CASE WHEN 1 >= $4 THEN $5 ELSE 0 END) \
             ON CONFLICT (account_key) DO UPDATE SET \
               failures = {count}, \
               window_start = CASE WHEN {stale} THEN $2 ELSE auth_failures.window_start END, \
               delay_ms = {delay}, \
               blocked_until = CASE WHEN {delay} = 0 THEN 0 ELSE $2 + {delay} END \
             WHERE auth_failures.blocked_until <= $2 \
             RETURNING failures"
        );
        let admitted: Option<(i64,)> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(throttle_key)
                .bind(now)
                .bind(policy.window_ms)
                .bind(policy.limit)
                .bind(policy.base_delay_ms)
                .bind(policy.max_delay_ms)
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        if admitted.is_some() {
            return Ok(AuthAttempt::Admitted);
        }
        let blocked: Option<(i64,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT blocked_until FROM auth_failures WHERE account_key = $1")
                .bind(throttle_key)
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        let until = blocked.map(|(until,)| until).unwrap_or(now);
        Ok(AuthAttempt::Blocked { retry_after_ms: (until - now).max(1) })
    }

    pub async fn clear_auth_failures(&self, account_key: &str) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("DELETE FROM auth_failures WHERE account_key = $1")
                .bind(account_key)
                .execute(pool)
                .await
                .map_err(db_err)?;
        });
        Ok(())
    }
}

/// The stored row of [`SecondFactorAttempts`].
type AttemptsRow = (i64, i64, i64);

fn attempts_of_row((window_start, attempts, locked_until): AttemptsRow) -> SecondFactorAttempts {
    SecondFactorAttempts { window_start, attempts, locked_until }
}

/// Second-factor attempts per account (`signet_domain::authority::sessions` decides what they
/// mean): read, replaced only if unchanged since read, cleared after a success.
impl Store {
    pub async fn second_factor_attempts(&self, principal_id: PrincipalId) -> Result<Option<SecondFactorAttempts>> {
        let row: Option<AttemptsRow> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT window_start, attempts, locked_until FROM second_factor_attempts WHERE principal_id = $1",
            )
            .bind(principal_id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        Ok(row.map(attempts_of_row))
    }

    /// Writes `next` if the record still is `seen` (a compare-and-set, so that two attempts
    /// counted at once are both counted); false when another attempt changed it meanwhile.
    pub async fn replace_second_factor_attempts(
        &self,
        principal_id: PrincipalId,
        seen: Option<&SecondFactorAttempts>,
        next: &SecondFactorAttempts,
    ) -> Result<bool> {
        let written = match seen {
            None => on_db!(self, pool => {
                sqlx::query(
                    "INSERT INTO second_factor_attempts (principal_id, window_start, attempts, locked_until) \
                     VALUES ($1, $2, $3, $4) ON CONFLICT (principal_id) DO NOTHING",
                )
                .bind(principal_id.get())
                .bind(next.window_start)
                .bind(next.attempts)
                .bind(next.locked_until)
                .execute(pool)
                .await
                .map_err(db_err)?
                .rows_affected()
            }),
            Some(seen) => on_db!(self, pool => {
                sqlx::query(
                    "UPDATE second_factor_attempts SET window_start = $5, attempts = $6, locked_until = $7 \
                     WHERE principal_id = $1 AND window_start = $2 AND attempts = $3 AND locked_until = $4",
                )
                .bind(principal_id.get())
                .bind(seen.window_start)
                .bind(seen.attempts)
                .bind(seen.locked_until)
                .bind(next.window_start)
                .bind(next.attempts)
                .bind(next.locked_until)
                .execute(pool)
                .await
                .map_err(db_err)?
                .rows_affected()
            }),
        };
        Ok(written == 1)
    }

    pub async fn clear_second_factor_attempts(&self, principal_id: PrincipalId) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("DELETE FROM second_factor_attempts WHERE principal_id = $1")
                .bind(principal_id.get())
                .execute(pool)
                .await
                .map_err(db_err)?;
        });
        Ok(())
    }
}

impl Store {
    /// `user` or `client`, for re-issuing tokens to a principal known by id only.
    pub async fn principal_kind(&self, principal_id: PrincipalId) -> Result<Option<String>> {
        let row: Option<(String,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT kind FROM principals WHERE id = $1")
                .bind(principal_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        Ok(row.map(|(kind,)| kind))
    }

    /// Finds a user by email within a tenant, for administrative operations.
    pub async fn user_id_by_email(&self, tenant_id: TenantId, email: &str) -> Result<Option<PrincipalId>> {
        let row: Option<(i64,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT id FROM principals WHERE tenant_id = $1 AND kind = 'user' AND lower(email) = lower($2)")
                .bind(tenant_id.get())
                .bind(email)
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        Ok(row.map(|(id,)| PrincipalId::from(id)))
    }
}

impl Store {
    /// The stored key for `purpose`, if any.
    pub async fn signing_key(&self, purpose: &str) -> Result<Option<SigningKeyRow>> {
        on_db!(self, pool => {
            sqlx::query_as("SELECT kid, private_der, public_raw FROM signing_keys WHERE purpose = $1")
                .bind(purpose)
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }
}
