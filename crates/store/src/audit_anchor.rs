//! The tenant's audit chain on PostgreSQL: written unlinked, linked in batches.
//!
//! Linking an entry means reading the chain's head, hashing over it and moving the head, so it
//! needs the tenant row's lock. Taken inside every writing transaction, that lock was held
//! through the commit's WAL flush, the slowest part of a write: the writers of one tenant
//! committed one at a time, and PostgreSQL could not flush their commits together (issue 16
//! measured POST department at half of SQLite's rate). So on PostgreSQL a writer only inserts
//! its event into `audit_pending` (no lock), and the events are linked afterwards, many per
//! transaction, by [`Store::link_audit`]:
//!
//! - every reader of the chain (`audit_entries`, audit exports) links what is pending for its
//!   tenant first, waiting for a linking in progress, so it sees every committed event in the
//!   chain, as before;
//! - the server links what any writer left pending in the background
//!   ([`Store::link_audit_in_background`]): within 10 ms under load, within a second when
//!   idle, and whatever an instance that stopped left behind;
//! - entries are linked in the order of their pending ids, each keeping the time it was
//!   written; `verify_chain` checks them as any other.
//!
//! What changes for tamper evidence: an event is outside the chain between its commit and its
//! linking (about a second at most while a server runs), and someone able to write to the
//! database could alter or drop it in that window without breaking the chain. Once linked, it is
//! covered as before.
//!
//! SQLite is not changed: its writers take turns for the whole transaction anyway, so the
//! append links at once (`chain::append_audit`) and nothing is ever pending.

use std::time::Duration;

use signet_domain::TenantId;
use signet_domain::audit::AuditEntry;
use sqlx::PgPool;

use crate::chain::Unlinked;
use crate::{Db, Result, Store, db_err};

/// Events linked per transaction at most (ten parameters each in one INSERT).
const LINK_BATCH: i64 = 500;
/// How soon the background linker looks again after it found work, and at most when it did not.
const BUSY_PAUSE: Duration = Duration::from_millis(10);
const IDLE_PAUSE: Duration = Duration::from_secs(1);

/// Whether audit events written on this connection are linked after their commit
/// (PostgreSQL) rather than in the writing transaction (SQLite).
pub(crate) fn links_after_commit<C: sqlx::Connection>(_: &C) -> bool {
    database_links_after_commit::<C::Database>()
}

fn database_links_after_commit<DB: sqlx::Database>() -> bool {
    DB::NAME == <sqlx::Postgres as sqlx::Database>::NAME
}

/// Stores `$event` unlinked for the tenant `$tenant_id` inside the writer's transaction `$tx`.
/// A macro because `append_audit!` expands it for both backends' transactions (only
/// PostgreSQL's runs).
macro_rules! insert_unlinked {
    ($tx:expr, $tenant_id:expr, $event:expr, $ip:expr) => {{
        let ip: $crate::chain::StoredIp = $ip;
        let sealed = ip.sealed.clone();
        let unlinked = $crate::chain::Unlinked::stamped_now($event, ip);
        sqlx::query(
            "INSERT INTO audit_pending (tenant_id, at, actor, action, target, ip, detail, ip_sealed) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind($tenant_id)
        .bind(unlinked.at)
        .bind(&unlinked.actor)
        .bind(&unlinked.action)
        .bind(&unlinked.target)
        .bind(&unlinked.ip)
        .bind(&unlinked.detail)
        .bind(sealed)
        .execute(&mut *$tx)
        .await
        .map_err($crate::db_err)?;
    }};
}
pub(crate) use insert_unlinked;

/// `INSERT INTO audit_log` of `rows` entries in one statement (eleven parameters per entry, in
/// the order `bind_entries` binds them).
pub(crate) fn insert_entries_sql(rows: usize) -> String {
    let values: Vec<String> = (0..rows)
        .map(|i| {
            let params: Vec<String> = (1..=11).map(|k| format!("${}", i * 11 + k)).collect();
            format!("({})", params.join(", "))
        })
        .collect();
    format!(
        "INSERT INTO audit_log (tenant_id, seq, at, actor, action, target, ip, detail, prev_hash, hash, ip_sealed) \
         VALUES {}",
        values.join(", ")
    )
}

/// Binds `entries` (each an `AuditEntry` with its sealed address) to a statement made by
/// `insert_entries_sql`.
macro_rules! bind_entries {
    ($query:expr, $tenant_id:expr, $entries:expr) => {{
        let mut query = $query;
        for (e, sealed) in $entries {
            query = query
                .bind($tenant_id)
                .bind(e.seq)
                .bind(e.at)
                .bind(&e.actor)
                .bind(&e.action)
                .bind(&e.target)
                .bind(&e.ip)
                .bind(&e.detail)
                .bind(&e.prev_hash)
                .bind(&e.hash)
                .bind(sealed);
        }
        query
    }};
}
pub(crate) use bind_entries;

#[derive(sqlx::FromRow)]
struct PendingRow {
    id: i64,
    #[sqlx(flatten)]
    event: Unlinked,
    ip_sealed: Option<String>,
}

impl Store {
    /// Links the tenant's pending audit events into its chain (PostgreSQL; nothing is ever
    /// pending on SQLite). Waits for a linking in progress on any instance, so that on return
    /// every event committed before the call is in the chain.
    pub async fn link_audit(&self, tenant_id: TenantId) -> Result<()> {
        let Db::Postgres(pool) = &self.db else {
            return Ok(());
        };
        while link_batch(pool, tenant_id.get()).await? == LINK_BATCH as usize {}
        Ok(())
    }

    /// How many of the tenant's audit events wait to be linked into its chain (always 0 on
    /// SQLite).
    pub async fn unlinked_audit_events(&self, tenant_id: TenantId) -> Result<i64> {
        let Db::Postgres(pool) = &self.db else {
            return Ok(0);
        };
        sqlx::query_scalar("SELECT COUNT(*) FROM audit_pending WHERE tenant_id = $1")
            .bind(tenant_id.get())
            .fetch_one(pool)
            .await
            .map_err(db_err)
    }

    /// Links, in the background and for as long as the pool is open, what writers on any
    /// instance leave pending. Called once by the server; a no-op on SQLite.
    pub fn link_audit_in_background(&self) {
        if let Db::Postgres(pool) = &self.db {
            tokio::spawn(link_continually(self.clone(), pool.clone()));
        }
    }

    /// Links every tenant's pending events; answers how many it linked.
    async fn link_all_pending(&self, pool: &PgPool) -> Result<usize> {
        let tenants: Vec<i64> =
            sqlx::query_scalar("SELECT DISTINCT tenant_id FROM audit_pending").fetch_all(pool).await.map_err(db_err)?;
        let mut linked = 0;
        for tenant in tenants {
            loop {
                let n = link_batch(pool, tenant).await?;
                linked += n;
                if n < LINK_BATCH as usize {
                    break;
                }
            }
        }
        Ok(linked)
    }
}

async fn link_continually(store: Store, pool: PgPool) {
    let mut pause = BUSY_PAUSE;
    while !pool.is_closed() {
        tokio::time::sleep(pause).await;
        pause = match store.link_all_pending(&pool).await {
            Ok(0) => (pause * 2).min(IDLE_PAUSE),
            Ok(_) => BUSY_PAUSE,
            Err(error) => {
                if !pool.is_closed() {
                    tracing::warn!(%error, "could not link pending audit events; trying again");
                }
                IDLE_PAUSE
            }
        };
    }
}

/// Links up to `LINK_BATCH` of the tenant's pending events in one transaction; answers how
/// many. Skips the lock when nothing is pending, which is what most readers find.
async fn link_batch(pool: &PgPool, tenant_id: i64) -> Result<usize> {
    let pending: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM audit_pending WHERE tenant_id = $1)")
        .bind(tenant_id)
        .fetch_one(pool)
        .await
        .map_err(db_err)?;
    if !pending {
        return Ok(0);
    }
    let mut tx = pool.begin().await.map_err(db_err)?;
    // NO KEY UPDATE: writers' foreign keys to the tenant row (KEY SHARE) do not wait for it.
    let (mut seq, mut head): (i64, String) =
        sqlx::query_as("SELECT audit_seq, audit_head FROM tenants WHERE id = $1 FOR NO KEY UPDATE")
            .bind(tenant_id)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
    // Read after the lock: what another linker took meanwhile is gone from this snapshot.
    let rows: Vec<PendingRow> = sqlx::query_as(
        "SELECT id, at, actor, action, target, ip, detail, ip_sealed FROM audit_pending \
         WHERE tenant_id = $1 ORDER BY id LIMIT $2",
    )
    .bind(tenant_id)
    .bind(LINK_BATCH)
    .fetch_all(&mut *tx)
    .await
    .map_err(db_err)?;
    if rows.is_empty() {
        return Ok(0);
    }
    let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
    let entries: Vec<(AuditEntry, Option<String>)> = rows
        .into_iter()
        .map(|row| {
            seq += 1;
            let entry = row.event.link(tenant_id, seq, std::mem::take(&mut head));
            head.clone_from(&entry.hash);
            (entry, row.ip_sealed)
        })
        .collect();
    let sql = insert_entries_sql(entries.len());
    bind_entries!(sqlx::query(sqlx::AssertSqlSafe(sql.as_str())), tenant_id, &entries)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    sqlx::query("DELETE FROM audit_pending WHERE id = ANY($1)").bind(&ids).execute(&mut *tx).await.map_err(db_err)?;
    sqlx::query("UPDATE tenants SET audit_seq = $2, audit_head = $3 WHERE id = $1")
        .bind(tenant_id)
        .bind(seq)
        .bind(&head)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(entries.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_batch_insert_numbers_eleven_parameters_per_entry() {
        assert_eq!(
            insert_entries_sql(2),
            "INSERT INTO audit_log (tenant_id, seq, at, actor, action, target, ip, detail, prev_hash, hash, ip_sealed) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11), \
             ($12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)"
        );
    }

    #[test]
    fn only_postgres_links_after_commit() {
        assert!(database_links_after_commit::<sqlx::Postgres>());
        assert!(!database_links_after_commit::<sqlx::Sqlite>());
    }
}
