//! The signing gateway's records: Authtokens, per-tenant gateway settings and transactions.

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::gateway::TransactionState;
use signet_domain::{AuthtokenId, Error, ErrorCode, Millis, TenantId, now_millis};

use crate::{Result, Store, append_audit, db_err, is_unique_violation, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AuthtokenRow {
    #[sqlx(try_from = "i64")]
    pub id: AuthtokenId,
    pub label: String,
    pub token_hint: String,
    pub created_by: String,
    pub created_at: Millis,
    pub revoked_at: Option<Millis>,
}

/// The gateway features a tenant has subscribed to (the spec's value-added items).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewaySettings {
    /// Upper-case file types: PDF, XML, DATA, HASH.
    pub file_types: Vec<String>,
    /// Signature types: 2 (token), 3 (eSign), 4 (electronic signature).
    pub signature_types: Vec<i64>,
    /// Whether the legacy (PKCS#1 v1.5 + AES-ECB) envelope is accepted.
    pub legacy_profile: bool,
}

impl Default for GatewaySettings {
    fn default() -> Self {
        GatewaySettings {
            file_types: ["PDF", "XML", "DATA", "HASH"].map(String::from).to_vec(),
            signature_types: vec![2, 3, 4],
            legacy_profile: true,
        }
    }
}

pub struct NewTransaction<'a> {
    pub transaction_number: &'a str,
    pub tenant_id: TenantId,
    pub authtoken_id: AuthtokenId,
    pub reference_number: &'a str,
    pub file_type: &'a str,
    pub profile: i64,
    pub link_hash: &'a str,
    pub session_key: &'a [u8],
    pub request_json: &'a str,
    pub payload_blob: Option<&'a str>,
    pub store_result: bool,
    pub success_url: &'a str,
    pub failure_url: &'a str,
    pub cancel_url: &'a str,
    pub expires_at: Millis,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TransactionRow {
    pub id: i64,
    pub transaction_number: String,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    #[sqlx(try_from = "i64")]
    pub authtoken_id: AuthtokenId,
    pub reference_number: String,
    pub file_type: String,
    pub profile: i64,
    #[sqlx(try_from = "String")]
    pub state: TransactionState,
    pub link_hash: String,
    pub session_key: Vec<u8>,
    pub request_json: String,
    pub payload_blob: Option<String>,
    pub store_result: bool,
    pub success_url: String,
    pub failure_url: String,
    pub cancel_url: String,
    pub error_message: Option<String>,
    pub result_blob: Option<String>,
    pub result_expires_at: Option<Millis>,
    pub expires_at: Millis,
    pub created_at: Millis,
    pub updated_at: Millis,
    /// The baseline level the completed signature reached ("PAdES-B-LT", "CAdES-B-T", ...).
    pub signature_level: Option<String>,
}

/// How a transaction ended.
pub struct TransactionOutcome<'a> {
    /// `completed`, `failed`, `cancelled` or `expired`.
    pub state: TransactionState,
    pub error_message: Option<&'a str>,
    /// Where the result (or error) is kept for later retrieval, when the request asked for it.
    pub result_blob: Option<&'a str>,
    pub result_expires_at: Option<Millis>,
    /// The baseline level the signature reached, for a completed transaction.
    pub signature_level: Option<&'a str>,
    /// What the audit trail records about the ending (signer address, method, consent, ...).
    pub detail: serde_json::Value,
}

fn split_list(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

impl Store {
    pub async fn create_authtoken(
        &self,
        tenant_id: TenantId,
        label: &str,
        token_hash: &str,
        token_hint: &str,
        actor: &Actor,
    ) -> Result<AuthtokenRow> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: AuthtokenRow = sqlx::query_as(
                "INSERT INTO gateway_authtokens (tenant_id, label, token_hash, token_hint, created_by, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 RETURNING id, label, token_hint, created_by, created_at, revoked_at",
            )
            .bind(tenant_id.get())
            .bind(label)
            .bind(token_hash)
            .bind(token_hint)
            .bind(&actor.id)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event("gateway.authtoken_created", format!("authtoken:{}", row.id), json!({"label": label}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    pub async fn authtokens(&self, tenant_id: TenantId) -> Result<Vec<AuthtokenRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, label, token_hint, created_by, created_at, revoked_at FROM gateway_authtokens \
                 WHERE tenant_id = $1 ORDER BY id",
            )
            .bind(tenant_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Revokes a token of the tenant; revoking a revoked token is a no-op, another tenant's
    /// token is not found.
    pub async fn revoke_authtoken(&self, tenant_id: TenantId, id: AuthtokenId, actor: &Actor) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let found: Option<(Option<i64>,)> = sqlx::query_as(
                "UPDATE gateway_authtokens SET revoked_at = COALESCE(revoked_at, $3) WHERE tenant_id = $1 AND id = $2 \
                 RETURNING revoked_at",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .bind(now)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            if found.is_none() {
                return Err(Error::not_found("authtoken"));
            }
            let event = actor.event("gateway.authtoken_revoked", format!("authtoken:{id}"), json!({}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The live token with this hash: `(authtoken id, tenant id)`.
    pub async fn authtoken_by_hash(&self, token_hash: &str) -> Result<Option<(AuthtokenId, TenantId)>> {
        let row: Option<(i64, i64)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, tenant_id FROM gateway_authtokens WHERE token_hash = $1 AND revoked_at IS NULL",
            )
            .bind(token_hash)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        Ok(row.map(|(id, tenant_id)| (AuthtokenId::from(id), TenantId::from(tenant_id))))
    }

    pub async fn gateway_settings(&self, tenant_id: TenantId) -> Result<GatewaySettings> {
        let row: Option<(String, String, bool)> = on_db!(self, pool => {
            sqlx::query_as("SELECT file_types, signature_types, legacy_profile FROM gateway_settings WHERE tenant_id = $1")
                .bind(tenant_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        Ok(match row {
            None => GatewaySettings::default(),
            Some((file_types, signature_types, legacy_profile)) => GatewaySettings {
                file_types: split_list(&file_types),
                signature_types: split_list(&signature_types).iter().filter_map(|s| s.parse().ok()).collect(),
                legacy_profile,
            },
        })
    }

    pub async fn put_gateway_settings(
        &self,
        tenant_id: TenantId,
        settings: &GatewaySettings,
        actor: &Actor,
    ) -> Result<()> {
        let now = now_millis();
        let file_types = settings.file_types.join(",");
        let signature_types = settings.signature_types.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            sqlx::query(
                "INSERT INTO gateway_settings (tenant_id, file_types, signature_types, legacy_profile, updated_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tenant_id) DO UPDATE SET \
                 file_types = $2, signature_types = $3, legacy_profile = $4, updated_at = $5",
            )
            .bind(tenant_id.get())
            .bind(&file_types)
            .bind(&signature_types)
            .bind(settings.legacy_profile)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event(
                "gateway.settings_changed",
                format!("tenant:{tenant_id}"),
                json!({"fileTypes": file_types, "signatureTypes": signature_types, "legacyProfile": settings.legacy_profile}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Records a new transaction. A reference number the tenant has used before, even by a
    /// concurrent request on another instance, fails with `Conflict` (gateway error 108).
    pub async fn insert_transaction(&self, new: &NewTransaction<'_>) -> Result<i64> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let inserted: std::result::Result<(i64,), sqlx::Error> = sqlx::query_as(
                "INSERT INTO gateway_transactions (transaction_number, tenant_id, authtoken_id, reference_number, file_type, \
                 profile, state, link_hash, session_key, request_json, payload_blob, store_result, success_url, failure_url, \
                 cancel_url, expires_at, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $17, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16) \
                 RETURNING id",
            )
            .bind(new.transaction_number)
            .bind(new.tenant_id.get())
            .bind(new.authtoken_id.get())
            .bind(new.reference_number)
            .bind(new.file_type)
            .bind(new.profile)
            .bind(new.link_hash)
            .bind(new.session_key)
            .bind(new.request_json)
            .bind(new.payload_blob)
            .bind(new.store_result)
            .bind(new.success_url)
            .bind(new.failure_url)
            .bind(new.cancel_url)
            .bind(new.expires_at)
            .bind(now)
            .bind(TransactionState::Initiated.as_str())
            .fetch_one(&mut *tx)
            .await;
            let (id,) = inserted.map_err(|e| {
                if is_unique_violation(&e) {
                    Error::rejected(ErrorCode::Conflict, "reference number already used")
                } else {
                    db_err(e)
                }
            })?;
            let event = Actor::system().event(
                "gateway.transaction_initiated",
                format!("transaction:{}", new.transaction_number),
                json!({"referenceNumber": new.reference_number, "fileType": new.file_type, "profile": new.profile}),
            );
            append_audit!(self, tx, new.tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(id)
        })
    }

    pub async fn transaction(&self, transaction_number: &str) -> Result<Option<TransactionRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, transaction_number, tenant_id, authtoken_id, reference_number, file_type, profile, \
                 state, link_hash, session_key, request_json, payload_blob, store_result, success_url, failure_url, cancel_url, \
                 error_message, result_blob, result_expires_at, expires_at, created_at, updated_at, signature_level \
                 FROM gateway_transactions WHERE transaction_number = $1",
            )
            .bind(transaction_number)
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Moves an initiated transaction to its final state. Only the first caller wins, so a
    /// transaction completes, fails or is cancelled once. The sealed session key and the
    /// payload's blob key are forgotten with it: nothing of the request outlives the
    /// transaction (the caller deletes the blob).
    pub async fn finish_transaction(
        &self,
        tenant_id: TenantId,
        transaction_number: &str,
        outcome: &TransactionOutcome<'_>,
        actor: &Actor,
    ) -> Result<bool> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let changed = sqlx::query(
                "UPDATE gateway_transactions SET state = $3, error_message = $4, result_blob = $5, \
                 result_expires_at = $6, updated_at = $7, session_key = $8, payload_blob = NULL, signature_level = $10 \
                 WHERE tenant_id = $1 AND transaction_number = $2 AND state = $9",
            )
            .bind(tenant_id.get())
            .bind(transaction_number)
            .bind(outcome.state.as_str())
            .bind(outcome.error_message)
            .bind(outcome.result_blob)
            .bind(outcome.result_expires_at)
            .bind(now)
            .bind(Vec::<u8>::new())
            .bind(TransactionState::Initiated.as_str())
            .bind(outcome.signature_level)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed == 0 {
                return Ok(false);
            }
            let event = actor.event(
                &format!("gateway.transaction_{}", outcome.state),
                format!("transaction:{transaction_number}"),
                json!({"errorMessage": outcome.error_message, "detail": outcome.detail}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(true)
        })
    }

    /// Initiated transactions whose time ran out: `(tenant id, transaction number)`.
    pub async fn overdue_transactions(&self, now: Millis, limit: i64) -> Result<Vec<(TenantId, String)>> {
        let rows: Vec<(i64, String)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT tenant_id, transaction_number FROM gateway_transactions \
                 WHERE state = $3 AND expires_at < $1 ORDER BY expires_at LIMIT $2",
            )
            .bind(now)
            .bind(limit)
            .bind(TransactionState::Initiated.as_str())
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        Ok(rows.into_iter().map(|(tenant_id, number)| (TenantId::from(tenant_id), number)).collect())
    }

    /// Forgets stored results whose retention ended and returns their blob keys for deletion.
    pub async fn take_expired_results(&self, now: Millis, limit: i64) -> Result<Vec<String>> {
        on_db!(self, pool => {
            let due: Vec<(i64, Option<String>)> = sqlx::query_as(
                "SELECT id, result_blob FROM gateway_transactions WHERE result_expires_at < $1 \
                 ORDER BY result_expires_at LIMIT $2",
            )
            .bind(now)
            .bind(limit)
            .fetch_all(pool)
            .await
            .map_err(db_err)?;
            let mut keys = Vec::new();
            for (id, blob) in due {
                // Conditional on the key, so that two purgers never both claim one result.
                let cleared = sqlx::query(
                    "UPDATE gateway_transactions SET result_blob = NULL, result_expires_at = NULL \
                     WHERE id = $1 AND result_expires_at IS NOT NULL",
                )
                .bind(id)
                .execute(pool)
                .await
                .map_err(db_err)?
                .rows_affected();
                if cleared == 1 {
                    keys.extend(blob);
                }
            }
            Ok(keys)
        })
    }
}

impl Store {
    /// A tenant's display name.
    pub async fn tenant_name(&self, tenant_id: TenantId) -> Result<Option<String>> {
        let row: Option<(String,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT name FROM tenants WHERE id = $1")
                .bind(tenant_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        Ok(row.map(|(name,)| name))
    }

    /// Every live organisation's id, oldest first (start-up tasks that visit each tenant once);
    /// deleted organisations and the platform's row are not among them.
    pub async fn tenant_ids(&self) -> Result<Vec<TenantId>> {
        let rows: Vec<(i64,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT id FROM tenants WHERE id > 0 AND deleted_at IS NULL ORDER BY id")
                .fetch_all(pool)
                .await
                .map_err(db_err)?
        });
        Ok(rows.into_iter().map(|(id,)| TenantId::from(id)).collect())
    }

    /// Every audit chain's owner, deleted organisations and the platform (row 0) included, oldest
    /// first (`signet check` verifies each chain).
    pub async fn audit_chain_owners(&self) -> Result<Vec<TenantId>> {
        let rows: Vec<(i64,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT id FROM tenants ORDER BY id").fetch_all(pool).await.map_err(db_err)?
        });
        Ok(rows.into_iter().map(|(id,)| TenantId::from(id)).collect())
    }

    /// Whether any tenant accepts the legacy envelope (tenants without settings do: it is the
    /// default, for drop-in compatibility).
    pub async fn legacy_profile_accepted(&self) -> Result<bool> {
        let row: (i64,) = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT COUNT(*) FROM tenants t LEFT JOIN gateway_settings s ON s.tenant_id = t.id \
                 WHERE t.id > 0 AND t.deleted_at IS NULL AND (s.tenant_id IS NULL OR s.legacy_profile = TRUE)",
            )
            .fetch_one(pool)
            .await
            .map_err(db_err)?
        });
        Ok(row.0 > 0)
    }
}
