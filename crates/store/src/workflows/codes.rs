//! A signer's one-time codes by SMS (`signer_codes`): the live code of each signatory who must
//! confirm their phone before signing, its tries, the sending bounds, and the last
//! verification. Only the code's HMAC is stored (computed by the services, who hold the key).
//! Each change is one statement, so concurrent requests cannot send twice within the gap or
//! spend one code twice.

use signet_domain::{Millis, SignatoryId, TenantId};

use crate::{Result, Store, db_err, on_db};

/// A signatory's code row as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SignerCodeRow {
    /// The link version the code (and the day's count) belongs to.
    pub link_version: i64,
    pub code_hash: String,
    pub code_salt: String,
    pub expires_at: Millis,
    pub attempts: i64,
    pub used_at: Option<Millis>,
    pub sent_at: Millis,
    pub day_started_at: Millis,
    pub sends_in_day: i64,
    pub verified_at: Option<Millis>,
    pub verified_version: Option<i64>,
}

/// A new code to store, with the bounds it must pass.
#[derive(Debug, Clone)]
pub struct NewSignerCode<'a> {
    pub tenant_id: TenantId,
    pub signatory_id: SignatoryId,
    pub link_version: i64,
    pub code_hash: &'a str,
    pub code_salt: &'a str,
    pub now: Millis,
    pub expires_at: Millis,
    /// Least time between two codes.
    pub gap_ms: i64,
    /// Most codes per link version in one day (`day_ms`).
    pub per_day: i64,
    pub day_ms: i64,
}

impl Store {
    /// A signatory's code row, if one was ever sent.
    pub async fn signer_code(&self, signatory_id: SignatoryId) -> Result<Option<SignerCodeRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT link_version, code_hash, code_salt, expires_at, attempts, used_at, sent_at, day_started_at, \
                 sends_in_day, verified_at, verified_version FROM signer_codes WHERE signatory_id = $1",
            )
                .bind(signatory_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Stores a new code in place of the last one, when the bounds allow it: the last code was
    /// sent at least `gap_ms` ago, and fewer than `per_day` were sent in the current day of
    /// this link version (a new link version or a day past starts the count again). Answers
    /// whether it was stored; a refusal changes nothing (read the row to say why).
    pub async fn issue_signer_code(&self, new: &NewSignerCode<'_>) -> Result<bool> {
        // $1 signatory, $2 tenant, $3 version, $4 hash, $5 salt, $6 now, $7 expiry, $8 gap,
        // $9 per day, $10 day length. A new day: a different version or a day past its start.
        let new_day = "(signer_codes.link_version <> $3 OR signer_codes.day_started_at <= $6 - $10)";
        let sql = format!(
            "INSERT INTO signer_codes (signatory_id, tenant_id, link_version, code_hash, code_salt, expires_at, \
             attempts, used_at, sent_at, day_started_at, sends_in_day) VALUES ($1, $2, $3, $4, $5, $7, 0, NULL, $6, $6, 1) \
             ON CONFLICT (signatory_id) DO UPDATE SET link_version = $3, code_hash = $4, code_salt = $5, \
             expires_at = $7, attempts = 0, used_at = NULL, sent_at = $6, \
             day_started_at = CASE WHEN {new_day} THEN $6 ELSE signer_codes.day_started_at END, \
             sends_in_day = CASE WHEN {new_day} THEN 1 ELSE signer_codes.sends_in_day + 1 END \
             WHERE signer_codes.sent_at <= $6 - $8 AND ({new_day} OR signer_codes.sends_in_day < $9)"
        );
        let stored = on_db!(self, pool => {
            // Built from constants only (no input): the bounds are bound parameters.
            sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(new.signatory_id.get())
                .bind(new.tenant_id.get())
                .bind(new.link_version)
                .bind(new.code_hash)
                .bind(new.code_salt)
                .bind(new.now)
                .bind(new.expires_at)
                .bind(new.gap_ms)
                .bind(new.per_day)
                .bind(new.day_ms)
                .execute(pool)
                .await
                .map_err(db_err)?
                .rows_affected()
        });
        Ok(stored == 1)
    }

    /// Spends the live code whose hash is `code_hash` (unused, in time, within
    /// `max_attempts`, of `link_version`) and records the verification; answers whether it did.
    pub async fn verify_signer_code(
        &self,
        signatory_id: SignatoryId,
        link_version: i64,
        code_hash: &str,
        now: Millis,
        max_attempts: i64,
    ) -> Result<bool> {
        let spent = on_db!(self, pool => {
            sqlx::query(
                "UPDATE signer_codes SET used_at = $4, verified_at = $4, verified_version = link_version \
                 WHERE signatory_id = $1 AND link_version = $2 AND code_hash = $3 AND used_at IS NULL \
                 AND expires_at > $4 AND attempts < $5",
            )
            .bind(signatory_id.get())
            .bind(link_version)
            .bind(code_hash)
            .bind(now)
            .bind(max_attempts)
            .execute(pool)
            .await
            .map_err(db_err)?
            .rows_affected()
        });
        Ok(spent == 1)
    }

    /// Counts a wrong try against the signatory's unused code.
    pub async fn count_signer_code_failure(&self, signatory_id: SignatoryId) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("UPDATE signer_codes SET attempts = attempts + 1 WHERE signatory_id = $1 AND used_at IS NULL")
                .bind(signatory_id.get())
                .execute(pool)
                .await
                .map_err(db_err)?;
            Ok(())
        })
    }
}
