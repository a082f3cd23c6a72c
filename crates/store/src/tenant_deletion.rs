//! Deleting an organisation (`signet tenant delete`): the database's part. Each step is its own
//! idempotent write, so that a deletion stopped by a crash is finished by running it again:
//!
//! 1. [`Store::mark_tenant_deleted`]: the organisation is refused from then on (every principal
//!    disabled with a new security stamp, refresh and gateway tokens revoked);
//! 2. [`Store::destroy_tenant_data_keys`]: its data keys lose their wrapped bytes (the services
//!    destroy the key-encryption key that wrapped them first);
//! 3. [`Store::purge_tenant_rows`]: every row of it is deleted in one transaction, the tenant row
//!    kept as a tombstone, and the platform's audit chain (tenant row 0) records the deletion.

use serde_json::json;
use signet_domain::audit::{Actor, GENESIS_HASH};
use signet_domain::{Error, TenantId, now_millis};

use crate::{Result, Store, append_audit, db_err, on_db};

/// The platform's own tenant row: its audit chain records deletions of organisations.
pub const PLATFORM_TENANT: i64 = 0;

/// An organisation as deletion sees it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TenantState {
    pub id: i64,
    pub name: String,
    pub deleted_at: Option<i64>,
    pub purged_at: Option<i64>,
    pub audit_seq: i64,
    pub audit_head: String,
}

/// Rows whose parent carries the tenant, deleted through it (children first).
const CHILD_ROWS: &[(&str, &str)] = &[
    ("workflow_events", "workflow_id IN (SELECT id FROM workflows WHERE tenant_id = $1)"),
    ("document_summaries", "document_id IN (SELECT id FROM documents WHERE tenant_id = $1)"),
    ("bulk_job_items", "job_id IN (SELECT id FROM bulk_jobs WHERE tenant_id = $1)"),
    ("lot_workflows", "lot_id IN (SELECT id FROM lots WHERE tenant_id = $1)"),
    ("sso_logins", "provider_id IN (SELECT id FROM sso_providers WHERE tenant_id = $1)"),
    ("second_factor_attempts", "principal_id IN (SELECT id FROM principals WHERE tenant_id = $1)"),
];

/// Tables with a `tenant_id`, in an order that deletes every row before the rows it references.
/// A table added later and missing here is still emptied by the catalogue pass that follows
/// ([`Store::purge_tenant_rows`]), if nothing references it.
const TENANT_TABLES: &[&str] = &[
    "webhook_delivery_attempts",
    "webhook_deliveries",
    "webhook_endpoints",
    "signer_codes",
    "esign_transactions",
    "document_verifications",
    "document_comments",
    "workflow_attachments",
    "invoices",
    "invoice_counters",
    "billing_profiles",
    "stamps",
    "stamp_provider_issues",
    "stamp_settings",
    "stamp_articles",
    "lots",
    "bulk_jobs",
    "export_jobs",
    "documents",
    "signatories",
    "workflows",
    "menu_access",
    "menus",
    "templates",
    "gateway_transactions",
    "gateway_authtokens",
    "gateway_settings",
    "password_links",
    "login_codes",
    "sso_identities",
    "sso_codes",
    "sso_second_factors",
    "sso_domains",
    "sso_domain_proofs",
    "sso_providers",
    "refresh_tokens",
    "signing_profiles",
    "principals",
    "roles",
    "departments",
    "referrals",
    "crm_leads",
    "crm_settings",
    "tenant_embedding",
    "audit_pending",
    "audit_log",
    "jobs",
];

/// Tables never emptied by a deletion: the tombstone, and the destroyed data keys (kept so that
/// a blob's key id still says whose it was).
const KEPT_TABLES: &[&str] = &["tenants", "data_keys"];

impl Store {
    /// The organisation `tenant_id`, deleted or not; `None` if there never was one.
    pub async fn tenant_state(&self, tenant_id: i64) -> Result<Option<TenantState>> {
        let sql = "SELECT id, name, deleted_at, purged_at, audit_seq, audit_head FROM tenants WHERE id = $1";
        on_db!(self, pool => sqlx::query_as(sql).bind(tenant_id).fetch_optional(pool).await).map_err(db_err)
    }

    /// Whether the organisation was deleted (or is being deleted).
    pub async fn tenant_deleted(&self, tenant_id: i64) -> Result<bool> {
        let sql = "SELECT deleted_at FROM tenants WHERE id = $1";
        let found: Option<(Option<i64>,)> =
            on_db!(self, pool => sqlx::query_as(sql).bind(tenant_id).fetch_optional(pool).await).map_err(db_err)?;
        Ok(matches!(found, Some((Some(_),))))
    }

    /// Step 1: refuses the organisation from now on. Every principal is disabled with a new
    /// security stamp (access tokens fail, as for `user disable`), refresh tokens and gateway
    /// tokens are revoked. Answers whether it was marked now (false: it already was).
    pub async fn mark_tenant_deleted(&self, tenant_id: i64, new_stamp: &str) -> Result<bool> {
        let now = now_millis();
        let marked = on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let marked = sqlx::query("UPDATE tenants SET deleted_at = $2 WHERE id = $1 AND deleted_at IS NULL")
                .bind(tenant_id)
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?
                .rows_affected()
                == 1;
            sqlx::query("UPDATE principals SET disabled = TRUE, security_stamp = $2 WHERE tenant_id = $1")
                .bind(tenant_id)
                .bind(new_stamp)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            for sql in [
                "UPDATE refresh_tokens SET revoked_at = $2 WHERE tenant_id = $1 AND revoked_at IS NULL",
                "UPDATE gateway_authtokens SET revoked_at = $2 WHERE tenant_id = $1 AND revoked_at IS NULL",
            ] {
                sqlx::query(sql).bind(tenant_id).bind(now).execute(&mut *tx).await.map_err(db_err)?;
            }
            tx.commit().await.map_err(db_err)?;
            marked
        });
        self.principals_changed();
        Ok(marked)
    }

    /// Step 2 (after the key-encryption key is destroyed): the organisation's data keys keep
    /// their rows, without key material. Answers how many were destroyed now.
    pub async fn destroy_tenant_data_keys(&self, tenant_id: i64) -> Result<u64> {
        let sql = "UPDATE data_keys SET wrapped = NULL, master_id = NULL, destroyed_at = COALESCE(destroyed_at, $2) \
                   WHERE tenant_id = $1 AND (wrapped IS NOT NULL OR master_id IS NOT NULL)";
        on_db!(self, pool => sqlx::query(sql)
            .bind(tenant_id)
            .bind(now_millis())
            .execute(pool)
            .await
            .map(|done| done.rows_affected()))
        .map_err(db_err)
    }

    /// The organisations that are not deleted (not the platform), by id.
    pub async fn live_tenant_ids(&self) -> Result<Vec<i64>> {
        let sql = "SELECT id FROM tenants WHERE deleted_at IS NULL AND id > 0 ORDER BY id";
        let rows: Vec<(i64,)> = on_db!(self, pool => sqlx::query_as(sql).fetch_all(pool).await).map_err(db_err)?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// The organisations (not the platform, none deleted) that have data keys wrapped by their
    /// key-encryption key (`master_id` `kek:<id>`), by id.
    pub async fn tenants_with_kek_wrapped_keys(&self) -> Result<Vec<i64>> {
        let sql = "SELECT DISTINCT d.tenant_id FROM data_keys d JOIN tenants t ON t.id = d.tenant_id \
                   WHERE d.wrapped IS NOT NULL AND d.master_id LIKE 'kek:%' AND t.deleted_at IS NULL \
                   ORDER BY d.tenant_id";
        let rows: Vec<(i64,)> = on_db!(self, pool => sqlx::query_as(sql).fetch_all(pool).await).map_err(db_err)?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// Step 3: deletes every row of the organisation but its tombstone and its destroyed data
    /// keys, and records the deletion in the platform's audit chain (who, which organisation,
    /// the head of its own chain at deletion), all in one transaction. Answers the rows deleted
    /// per table; empty if it was done before.
    pub async fn purge_tenant_rows(&self, tenant_id: i64, actor: &Actor) -> Result<Vec<(String, u64)>> {
        if tenant_id == PLATFORM_TENANT {
            return Err(Error::internal("the platform is not an organisation to delete"));
        }
        self.link_audit(TenantId::from(tenant_id)).await?;
        let tables = self.tables_with_tenant_id().await?;
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            // The write lock first: on SQLite a transaction that reads before it writes fails
            // ("database is locked") when another connection wrote in between.
            crate::chain::lock_tenant!(tx, TenantId::from(tenant_id));
            let state: Option<TenantState> = sqlx::query_as(
                "SELECT id, name, deleted_at, purged_at, audit_seq, audit_head FROM tenants WHERE id = $1",
            )
            .bind(tenant_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some(state) = state else { return Err(Error::internal(format!("no organisation {tenant_id}"))) };
            if state.deleted_at.is_none() {
                return Err(Error::internal(format!("organisation {tenant_id} is not marked deleted")));
            }
            if state.purged_at.is_some() {
                return Ok(Vec::new());
            }
            let mut removed = Vec::new();
            for (table, condition) in CHILD_ROWS {
                // Names and conditions are this file's constants.
                let sql = format!("DELETE FROM {table} WHERE {condition}");
                let done = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id).execute(&mut *tx).await.map_err(db_err)?;
                removed.push((table.to_string(), done.rows_affected()));
            }
            sqlx::query(
                "UPDATE principals SET auto_sign_profile_id = NULL, department_id = NULL, custom_role_id = NULL \
                 WHERE tenant_id = $1",
            )
            .bind(tenant_id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let later = tables.iter().filter(|t| !TENANT_TABLES.contains(&t.as_str()) && !KEPT_TABLES.contains(&t.as_str()));
            for table in TENANT_TABLES.iter().map(|t| t.to_string()).chain(later.cloned()) {
                if !tables.contains(&table) {
                    continue;
                }
                // Names are this file's constants or the catalogue's own, quoted.
                let sql = format!("DELETE FROM \"{table}\" WHERE tenant_id = $1");
                let done = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id).execute(&mut *tx).await.map_err(db_err)?;
                removed.push((table, done.rows_affected()));
            }
            sqlx::query("UPDATE tenants SET purged_at = $2 WHERE id = $1")
                .bind(tenant_id)
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            sqlx::query(
                "INSERT INTO tenants (id, name, audit_head, created_at) VALUES ($1, 'Platform', $2, $3) \
                 ON CONFLICT (id) DO NOTHING",
            )
            .bind(PLATFORM_TENANT)
            .bind(GENESIS_HASH)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event(
                "tenant.deleted",
                format!("tenant:{tenant_id}"),
                json!({
                    "tenantId": tenant_id,
                    "name": state.name,
                    "deletedAt": state.deleted_at,
                    "auditSeq": state.audit_seq,
                    "auditHead": state.audit_head,
                    "rowsRemoved": removed.iter().map(|(_, n)| n).sum::<u64>(),
                }),
            );
            append_audit!(self, tx, TenantId::from(PLATFORM_TENANT), &event);
            tx.commit().await.map_err(db_err)?;
            self.principals_changed();
            Ok(removed.into_iter().filter(|(_, n)| *n > 0).collect())
        })
    }

    /// The tables that have a `tenant_id` column, from the database's catalogue.
    async fn tables_with_tenant_id(&self) -> Result<Vec<String>> {
        let rows: Vec<(String,)> = on_db!(self, pool => {
            let sql = if matches!(self.backend(), crate::Backend::Sqlite) {
                "SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c \
                 WHERE m.type = 'table' AND c.name = 'tenant_id' ORDER BY m.name"
            } else {
                "SELECT table_name::TEXT FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND column_name = 'tenant_id' ORDER BY table_name"
            };
            sqlx::query_as(sql).fetch_all(pool).await
        })
        .map_err(db_err)?;
        Ok(rows.into_iter().map(|(name,)| name).collect())
    }

    /// Rows left with `tenant_id` in each table that has the column (but the kept ones), for
    /// tests of deletion: every count must be zero after a purge.
    pub async fn rows_left_of_tenant(&self, tenant_id: i64) -> Result<Vec<(String, i64)>> {
        let mut left = Vec::new();
        for table in self.tables_with_tenant_id().await? {
            if KEPT_TABLES.contains(&table.as_str()) {
                continue;
            }
            // The catalogue's own names, quoted.
            let sql = format!("SELECT COUNT(*) FROM \"{table}\" WHERE tenant_id = $1");
            let (count,): (i64,) =
                on_db!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id).fetch_one(pool).await).map_err(db_err)?;
            if count > 0 {
                left.push((table, count));
            }
        }
        Ok(left)
    }
}
