//! The one mechanism behind both hash chains: a tenant's audit log and a workflow's event log.
//! Each chain is a table of entries owned by a row (a tenant, a workflow) that holds the chain's
//! sequence counter and head hash; a `Chain` names those tables and columns, and `append_chain!`
//! appends one entry to any of them. The hash rule is `Unlinked::link` (`entry_hash` of the domain,
//! keyed by the owner's id), so both chains verify with `signet_domain::audit::verify_chain`.

use signet_domain::audit::{AuditEntry, AuditEvent, entry_hash};

/// The three statements that append to one chain, spelled out once per chain by `chain!`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Chain {
    /// Bumps the owner's counter and answers `(seq, head)`. Being the first write of the
    /// append, it takes the owner row's lock (PostgreSQL) or the write lock (SQLite), so each
    /// chain grows one link at a time even with several instances.
    pub(crate) advance: &'static str,
    /// Inserts the entry: owner, seq, at, actor, action, target, ip, detail, prev_hash, hash,
    /// and the sealed opening of the address the `ip` commits to.
    pub(crate) insert: &'static str,
    /// Moves the owner's head to the new entry's hash.
    pub(crate) set_head: &'static str,
}

/// Builds a `Chain` from its table and column names at compile time (the SQL stays `'static`).
macro_rules! chain {
    (entries: $entries:literal, owner_column: $owner_column:literal,
     owners: $owners:literal, seq: $seq:literal, head: $head:literal) => {
        Chain {
            advance: concat!(
                "UPDATE ",
                $owners,
                " SET ",
                $seq,
                " = ",
                $seq,
                " + 1 WHERE id = $1 RETURNING ",
                $seq,
                ", ",
                $head
            ),
            insert: concat!(
                "INSERT INTO ",
                $entries,
                " (",
                $owner_column,
                ", seq, at, actor, action, target, ip, detail, prev_hash, hash, ip_sealed) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
            ),
            set_head: concat!("UPDATE ", $owners, " SET ", $head, " = $2 WHERE id = $1"),
        }
    };
}

/// A tenant's audit log, owned by the `tenants` row.
pub(crate) const AUDIT_CHAIN: Chain = chain!(
    entries: "audit_log", owner_column: "tenant_id", owners: "tenants", seq: "audit_seq", head: "audit_head"
);

/// A workflow's event log, owned by the `workflows` row.
pub(crate) const WORKFLOW_CHAIN: Chain = chain!(
    entries: "workflow_events", owner_column: "workflow_id", owners: "workflows", seq: "event_seq", head: "event_head"
);

/// Appends `$event` to `$chain` for the owner `$owner_id` inside the open transaction `$tx`,
/// its address kept as `$ip` (`Store::seal_chain_ip`), and evaluates to the stored
/// `AuditEntry`. A macro rather than a function because it runs on either backend's
/// transaction type (see `on_db!`).
macro_rules! append_chain {
    ($tx:expr, $chain:expr, $owner_id:expr, $event:expr, $ip:expr) => {{
        let chain: &$crate::chain::Chain = $chain;
        let owner_id: i64 = $owner_id;
        let event: &signet_domain::audit::AuditEvent = $event;
        let ip: $crate::chain::StoredIp = $ip;
        let (seq, prev_hash): (i64, String) =
            sqlx::query_as(chain.advance).bind(owner_id).fetch_one(&mut *$tx).await.map_err($crate::db_err)?;
        let sealed = ip.sealed.clone();
        let entry = $crate::chain::Unlinked::stamped_now(event, ip).link(owner_id, seq, prev_hash);
        sqlx::query(chain.insert)
            .bind(owner_id)
            .bind(entry.seq)
            .bind(entry.at)
            .bind(&entry.actor)
            .bind(&entry.action)
            .bind(&entry.target)
            .bind(&entry.ip)
            .bind(&entry.detail)
            .bind(&entry.prev_hash)
            .bind(&entry.hash)
            .bind(sealed)
            .execute(&mut *$tx)
            .await
            .map_err($crate::db_err)?;
        sqlx::query(chain.set_head)
            .bind(owner_id)
            .bind(&entry.hash)
            .execute(&mut *$tx)
            .await
            .map_err($crate::db_err)?;
        entry
    }};
}
pub(crate) use append_chain;

/// Appends an event to the tenant's audit log inside an open transaction. On SQLite, whose
/// writers take turns anyway, the entry is linked into the chain at once. On PostgreSQL it is
/// stored unlinked and linked after commit in batches (`audit_anchor.rs`), so that writers of
/// one tenant do not queue behind the tenant row through their commits.
///
/// `$store` seals the event's address (`Store::seal_chain_ip`).
macro_rules! append_audit {
    ($store:expr, $tx:expr, $tenant_id:expr, $event:expr) => {{
        let tenant_id: signet_domain::TenantId = $tenant_id;
        let event: &signet_domain::audit::AuditEvent = $event;
        let ip = $store.seal_chain_ip(tenant_id, event.ip.as_deref()).await?;
        if $crate::audit_anchor::links_after_commit(&*$tx) {
            $crate::audit_anchor::insert_unlinked!($tx, tenant_id.get(), event, ip);
        } else {
            $crate::chain::append_chain!($tx, &$crate::chain::AUDIT_CHAIN, tenant_id.get(), event, ip);
        }
    }};
}
pub(crate) use append_audit;

/// Takes the tenant row's lock (PostgreSQL) or the write lock (SQLite) as a transaction's first
/// statement, for transactions that read before they write: a SQLite transaction that starts
/// with a read cannot wait for the write lock later and fails at once with "database is
/// locked" when another connection wrote meanwhile. On SQLite the audit append takes the same
/// lock, so this only takes it earlier; on PostgreSQL the append takes none (`audit_anchor.rs`),
/// and these transactions take turns among themselves and with the linking of the chain.
macro_rules! lock_tenant {
    ($tx:ident, $tenant_id:expr) => {{
        let tenant_id: signet_domain::TenantId = $tenant_id;
        sqlx::query("UPDATE tenants SET audit_seq = audit_seq WHERE id = $1")
            .bind(tenant_id.get())
            .execute(&mut *$tx)
            .await
            .map_err($crate::db_err)?;
    }};
}
pub(crate) use lock_tenant;

/// The columns of an audit or workflow event row, in [`EntryRow`]'s order.
pub(crate) const ENTRY_COLUMNS: &str = "seq, at, actor, action, target, ip, detail, prev_hash, hash, ip_sealed";

/// An audit or workflow event row as stored: its fields, and the sealed opening of its address.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct EntryRow {
    pub(crate) seq: i64,
    pub(crate) at: i64,
    pub(crate) actor: String,
    pub(crate) action: String,
    pub(crate) target: String,
    pub(crate) ip: Option<String>,
    pub(crate) detail: String,
    pub(crate) prev_hash: String,
    pub(crate) hash: String,
    pub(crate) ip_sealed: Option<String>,
}

/// How an entry keeps the address an event came from: `hashed` is what the chain's hash covers
/// (the commitment, `IpOpening`), `sealed` the opening, encrypted as a personal field. An entry
/// from before (or whose address was sealed later, see `Store::seal_chain_ips_in_clear`) may
/// hold the address itself in `hashed`, or nothing there and the address alone in `sealed`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct StoredIp {
    pub(crate) hashed: Option<String>,
    pub(crate) sealed: Option<String>,
}

/// An event with its time and its detail serialised, not yet given a place in a chain: how an
/// audit event waits in `audit_pending` on PostgreSQL (`audit_anchor.rs`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub(crate) struct Unlinked {
    pub(crate) at: i64,
    pub(crate) actor: String,
    pub(crate) action: String,
    pub(crate) target: String,
    /// What the hash covers of the address ([`StoredIp::hashed`]).
    pub(crate) ip: Option<String>,
    pub(crate) detail: String,
}

impl Unlinked {
    /// The event stamped now, its address kept as `ip` says (the event's own `ip` is not
    /// stored: it is in `ip`'s sealed opening).
    pub(crate) fn stamped_now(event: &AuditEvent, ip: StoredIp) -> Unlinked {
        Unlinked {
            at: signet_domain::now_millis(),
            actor: event.actor.clone(),
            action: event.action.clone(),
            target: event.target.clone(),
            ip: ip.hashed,
            detail: event.detail.to_string(),
        }
    }

    /// The entry at `seq` after `prev_hash` in the chain of `owner_id`.
    pub(crate) fn link(self, owner_id: i64, seq: i64, prev_hash: String) -> AuditEntry {
        let hash = entry_hash(
            owner_id,
            seq,
            self.at,
            &self.actor,
            &self.action,
            &self.target,
            self.ip.as_deref(),
            &self.detail,
            &prev_hash,
        );
        AuditEntry {
            seq,
            at: self.at,
            actor: self.actor,
            action: self.action,
            target: self.target,
            ip: self.ip,
            detail: self.detail,
            prev_hash,
            hash,
            ip_opening: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statements the two chains ran before they shared this mechanism, verbatim (with the
    /// sealed address added since): the descriptors must reproduce them, so stored rows (and
    /// hence hashes) stay the same.
    #[test]
    fn descriptors_spell_the_statements_each_chain_used() {
        assert_eq!(
            AUDIT_CHAIN,
            Chain {
                advance: "UPDATE tenants SET audit_seq = audit_seq + 1 WHERE id = $1 RETURNING audit_seq, audit_head",
                insert: "INSERT INTO audit_log (tenant_id, seq, at, actor, action, target, ip, detail, prev_hash, hash, \
                         ip_sealed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                set_head: "UPDATE tenants SET audit_head = $2 WHERE id = $1",
            }
        );
        assert_eq!(
            WORKFLOW_CHAIN,
            Chain {
                advance: "UPDATE workflows SET event_seq = event_seq + 1 WHERE id = $1 RETURNING event_seq, event_head",
                insert: "INSERT INTO workflow_events (workflow_id, seq, at, actor, action, target, ip, detail, \
                         prev_hash, hash, ip_sealed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                set_head: "UPDATE workflows SET event_head = $2 WHERE id = $1",
            }
        );
    }
}
