//! Data keys of envelope encryption, kept wrapped: one per owner (an organisation, or the
//! platform as tenant 0) and year. The store only keeps and hands out the wrapped bytes and the
//! id of the master key that wrapped them; wrapping and unwrapping happen in the services,
//! which hold the master key. See `signet_blob::sealed` for what the keys encrypt.
//!
//! Two instances that need the same owner's key for a new year at once both try to insert it;
//! the unique index keeps one, and both read that one back ([`Store::insert_data_key`]).

use signet_domain::now_millis;

use crate::{Result, Store, db_err, on_db};

/// A data key as stored: `wrapped` and `master_id` are `None` once it is destroyed.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DataKeyRow {
    pub id: i64,
    pub tenant_id: i64,
    pub year: i64,
    pub wrapped: Option<Vec<u8>>,
    pub master_id: Option<String>,
    pub destroyed_at: Option<i64>,
}

impl Store {
    /// The data key of `tenant_id` for `year`, if one was made.
    pub async fn data_key_for(&self, tenant_id: i64, year: i64) -> Result<Option<DataKeyRow>> {
        let sql = "SELECT id, tenant_id, year, wrapped, master_id, destroyed_at FROM data_keys \
                   WHERE tenant_id = $1 AND year = $2";
        on_db!(self, pool => sqlx::query_as(sql).bind(tenant_id).bind(year).fetch_optional(pool).await).map_err(db_err)
    }

    /// The data key with `id`.
    pub async fn data_key(&self, id: i64) -> Result<Option<DataKeyRow>> {
        let sql = "SELECT id, tenant_id, year, wrapped, master_id, destroyed_at FROM data_keys WHERE id = $1";
        on_db!(self, pool => sqlx::query_as(sql).bind(id).fetch_optional(pool).await).map_err(db_err)
    }

    /// Keeps a new data key for `tenant_id` and `year` unless one is there already; answers the
    /// one kept (the other instance's, when it won the race).
    pub async fn insert_data_key(
        &self,
        tenant_id: i64,
        year: i64,
        wrapped: &[u8],
        master_id: &str,
    ) -> Result<DataKeyRow> {
        let sql = "INSERT INTO data_keys (tenant_id, year, wrapped, master_id, created_at) \
                   VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tenant_id, year) DO NOTHING";
        on_db!(self, pool => sqlx::query(sql)
            .bind(tenant_id)
            .bind(year)
            .bind(wrapped)
            .bind(master_id)
            .bind(now_millis())
            .execute(pool)
            .await
            .map(|_| ()))
        .map_err(db_err)?;
        self.data_key_for(tenant_id, year)
            .await?
            .ok_or_else(|| signet_domain::Error::internal("a data key just kept is not there"))
    }

    /// Up to `limit` live data keys wrapped by another master key than `master_id`, by id (those
    /// wrapped by an organisation's key-encryption key, `kek:<id>`, are not the master's).
    pub async fn data_keys_not_wrapped_by(
        &self,
        master_id: &str,
        after_id: i64,
        limit: i64,
    ) -> Result<Vec<DataKeyRow>> {
        let sql = "SELECT id, tenant_id, year, wrapped, master_id, destroyed_at FROM data_keys \
                   WHERE wrapped IS NOT NULL AND master_id <> $1 AND master_id NOT LIKE 'kek:%' AND id > $2 \
                   ORDER BY id LIMIT $3";
        on_db!(self, pool => sqlx::query_as(sql).bind(master_id).bind(after_id).bind(limit).fetch_all(pool).await)
            .map_err(db_err)
    }

    /// Up to `limit` live data keys of organisations (not the platform's) still wrapped by a
    /// master key rather than by their organisation's key-encryption key, by id.
    pub async fn tenant_data_keys_wrapped_by_a_master(&self, after_id: i64, limit: i64) -> Result<Vec<DataKeyRow>> {
        let sql = "SELECT id, tenant_id, year, wrapped, master_id, destroyed_at FROM data_keys \
                   WHERE tenant_id > 0 AND wrapped IS NOT NULL AND master_id NOT LIKE 'kek:%' AND id > $1 \
                   ORDER BY id LIMIT $2";
        on_db!(self, pool => sqlx::query_as(sql).bind(after_id).bind(limit).fetch_all(pool).await).map_err(db_err)
    }

    /// How many live data keys `wrapped_by` (a master key's id or `kek:<organisation>`) wraps.
    pub async fn count_data_keys_wrapped_by(&self, wrapped_by: &str) -> Result<i64> {
        let sql = "SELECT COUNT(*) FROM data_keys WHERE wrapped IS NOT NULL AND master_id = $1";
        let (count,): (i64,) =
            on_db!(self, pool => sqlx::query_as(sql).bind(wrapped_by).fetch_one(pool).await).map_err(db_err)?;
        Ok(count)
    }

    /// Every live data key (for an integrity check: each must unwrap), by id from `after_id`.
    pub async fn live_data_keys(&self, after_id: i64, limit: i64) -> Result<Vec<DataKeyRow>> {
        let sql = "SELECT id, tenant_id, year, wrapped, master_id, destroyed_at FROM data_keys \
                   WHERE wrapped IS NOT NULL AND id > $1 ORDER BY id LIMIT $2";
        on_db!(self, pool => sqlx::query_as(sql).bind(after_id).bind(limit).fetch_all(pool).await).map_err(db_err)
    }

    /// Replaces the wrapping of data key `id` if it is still the one wrapped by `old_master`;
    /// answers whether it did (another rotation may have got there first).
    pub async fn rewrap_data_key(&self, id: i64, old_master: &str, wrapped: &[u8], new_master: &str) -> Result<bool> {
        let sql = "UPDATE data_keys SET wrapped = $1, master_id = $2 \
                   WHERE id = $3 AND master_id = $4 AND wrapped IS NOT NULL";
        on_db!(self, pool => sqlx::query(sql)
            .bind(wrapped)
            .bind(new_master)
            .bind(id)
            .bind(old_master)
            .execute(pool)
            .await
            .map(|done| done.rows_affected() == 1))
        .map_err(db_err)
    }

    /// When every stored object was last found encrypted, if ever.
    pub async fn blobs_all_sealed_at(&self) -> Result<Option<i64>> {
        let sql = "SELECT all_sealed_at FROM blob_encryption WHERE id = 1";
        on_db!(self, pool => sqlx::query_scalar(sql).fetch_optional(pool).await).map_err(db_err)
    }

    /// Records that every stored object is encrypted (`Some`), or that objects in clear may be
    /// written again (`None`: encryption of new objects was turned off).
    pub async fn set_blobs_all_sealed(&self, at: Option<i64>) -> Result<()> {
        match at {
            Some(at) => {
                let sql = "INSERT INTO blob_encryption (id, all_sealed_at) VALUES (1, $1) \
                           ON CONFLICT (id) DO UPDATE SET all_sealed_at = excluded.all_sealed_at";
                on_db!(self, pool => sqlx::query(sql).bind(at).execute(pool).await.map(|_| ())).map_err(db_err)?;
            }
            None => {
                on_db!(self, pool => sqlx::query("DELETE FROM blob_encryption").execute(pool).await.map(|_| ()))
                    .map_err(db_err)?;
            }
        }
        Ok(())
    }
}
