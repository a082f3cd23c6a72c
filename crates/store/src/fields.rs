//! Personal fields kept encrypted (issue 34): values the service shows but never searches by,
//! such as a user's PAN. The store encrypts them as it writes and opens them as it reads, with
//! the cipher the services give it ([`Store::seal_fields_with`]: AES-256-GCM under the
//! organisation's data key, bound to the organisation and the column). A value is stored as
//! `sealed:v1:...`; one without that prefix is from before and is read as it is, until
//! [`Store::seal_fields_in_clear`] encrypts it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use signet_domain::TenantId;
use signet_domain::audit::{AuditEntry, IP_COMMITMENT_PREFIX, IpOpening};

use crate::chain::{EntryRow, StoredIp};
use crate::profiles::CONSENT_IP_COLUMN;
use crate::sales::LEAD_IP_COLUMN;
use crate::{Result, Store, db_err, on_db};

/// The start of an encrypted field's stored text.
pub const SEALED_PREFIX: &str = "sealed:v1:";

/// The column of the PAN of users.
pub const PAN_COLUMN: &str = "principals.pan_number";

/// The sealed address of a chain entry (`audit_log`, `workflow_events`). It is sealed inside
/// the transaction that appends the entry, so its cipher must not write to the database to
/// have its key (on SQLite that write would wait for the transaction itself): the services seal
/// it under a key derived from the organisation's key-encryption key (its vault file).
pub const CHAIN_IP_COLUMN: &str = "chain.ip";

/// A boxed future, as trait objects answer them.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Encrypts and opens personal fields (implemented by the services over the data keys).
pub trait FieldCipher: Send + Sync {
    /// The stored text of `plain` for `tenant_id`'s `column` (starting with [`SEALED_PREFIX`]).
    fn seal<'a>(&'a self, tenant_id: i64, column: &'static str, plain: &'a str) -> BoxFuture<'a, Result<String>>;
    /// The value of a stored text that starts with [`SEALED_PREFIX`].
    fn open<'a>(&'a self, tenant_id: i64, column: &'static str, stored: &'a str) -> BoxFuture<'a, Result<String>>;
    /// Makes what sealing a new organisation's fields needs (its key), inside the transaction
    /// that creates it and before its first chain entry, so without reading the database.
    fn prepare_tenant(&self, tenant_id: i64) -> Result<()> {
        let _ = tenant_id;
        Ok(())
    }
}

impl Store {
    /// Encrypts personal fields with `cipher` from now on (once per store; later calls are
    /// ignored).
    pub fn seal_fields_with(&self, cipher: Arc<dyn FieldCipher>) {
        let _ = self.fields.set(cipher);
    }

    /// A new organisation's first entries are sealed like the rest (see
    /// [`FieldCipher::prepare_tenant`]).
    pub(crate) fn prepare_tenant_fields(&self, tenant_id: TenantId) -> Result<()> {
        match self.fields.get() {
            Some(cipher) => cipher.prepare_tenant(tenant_id.get()),
            None => Ok(()),
        }
    }

    /// The text to store for `value` (encrypted when a cipher is set).
    pub(crate) async fn seal_field(
        &self,
        tenant_id: i64,
        column: &'static str,
        value: Option<&str>,
    ) -> Result<Option<String>> {
        match (value, self.fields.get()) {
            (Some(plain), Some(cipher)) => cipher.seal(tenant_id, column, plain).await.map(Some),
            (value, _) => Ok(value.map(str::to_owned)),
        }
    }

    /// The value of a stored text (opened when it is encrypted).
    pub(crate) async fn open_field(
        &self,
        tenant_id: i64,
        column: &'static str,
        stored: Option<String>,
    ) -> Result<Option<String>> {
        let Some(stored) = stored else { return Ok(None) };
        if !stored.starts_with(SEALED_PREFIX) {
            return Ok(Some(stored));
        }
        let cipher = self
            .fields
            .get()
            .ok_or_else(|| signet_domain::Error::internal("an encrypted field, and no field cipher is set"))?;
        cipher.open(tenant_id, column, &stored).await.map(Some)
    }

    /// How a new chain entry keeps `ip`: a commitment for the hash, the opening sealed beside it.
    pub(crate) async fn seal_chain_ip(&self, tenant_id: TenantId, ip: Option<&str>) -> Result<StoredIp> {
        let Some(ip) = ip else { return Ok(StoredIp::default()) };
        let opening = IpOpening::fresh(ip)
            .ok_or_else(|| signet_domain::Error::internal("no randomness for an address's commitment"))?;
        let sealed = self.seal_field(tenant_id.get(), CHAIN_IP_COLUMN, Some(&opening.to_stored())).await?;
        Ok(StoredIp { hashed: Some(opening.commitment()), sealed })
    }

    /// Chain entries as read, their addresses opened.
    pub(crate) async fn open_entries(&self, tenant_id: i64, rows: Vec<EntryRow>) -> Result<Vec<AuditEntry>> {
        let mut entries = Vec::with_capacity(rows.len());
        for row in rows {
            entries.push(self.open_entry(tenant_id, row).await?);
        }
        Ok(entries)
    }

    /// One entry: a commitment's opening is read from the sealed text; an address from before
    /// commitments that was sealed in place (`seal_chain_ips_in_clear`) goes back into the
    /// hashed field, which covers it.
    pub(crate) async fn open_entry(&self, tenant_id: i64, row: EntryRow) -> Result<AuditEntry> {
        let EntryRow { seq, at, actor, action, target, ip, detail, prev_hash, hash, ip_sealed } = row;
        // A reader without the cipher (a tool on the bare store) still reads and verifies the
        // chain: a commitment's sealed address is then unknown to it (one kept in clear, with
        // encryption off, it reads). An address from before, sealed in place, is what the hash
        // covers, so that one must open.
        let committed = ip.as_deref().is_some_and(|hashed| hashed.starts_with(IP_COMMITMENT_PREFIX));
        let ip_sealed =
            ip_sealed.filter(|text| !committed || self.fields.get().is_some() || !text.starts_with(SEALED_PREFIX));
        let opened = self.open_field(tenant_id, CHAIN_IP_COLUMN, ip_sealed).await?;
        let (ip, ip_opening) = match (ip, opened) {
            (Some(hashed), Some(text)) if hashed.starts_with(IP_COMMITMENT_PREFIX) => {
                let opening = IpOpening::from_stored(&text).filter(|opening| opening.opens(&hashed));
                (Some(hashed), opening)
            }
            (None, Some(address)) => (Some(address), None),
            (hashed, _) => (hashed, None),
        };
        Ok(AuditEntry { seq, at, actor, action, target, ip, detail, prev_hash, hash, ip_opening })
    }

    /// Encrypts the personal fields stored in clear (from before encryption), a batch at a
    /// time; answers how many. Each value is its own update, so an interrupted pass resumes.
    pub async fn seal_fields_in_clear(&self) -> Result<u64> {
        if self.fields.get().is_none() {
            return Ok(0);
        }
        Ok(self.seal_row_fields_in_clear().await? + self.seal_chain_ips_in_clear().await?)
    }

    /// Chain entries from before commitments hold their address in the hashed field: the
    /// address moves, sealed, beside it (`ip` empty; reading puts it back for the hash, see
    /// [`Store::open_entry`]). The platform's own entries (organisation 0) stay as they are.
    async fn seal_chain_ips_in_clear(&self) -> Result<u64> {
        const IN_CLEAR: [(&str, &str); 2] = [
            (
                "SELECT tenant_id, tenant_id, seq, ip FROM audit_log \
                 WHERE ip IS NOT NULL AND ip NOT LIKE 'ipc1:%' AND tenant_id > 0 ORDER BY tenant_id, seq LIMIT 200",
                "UPDATE audit_log SET ip = NULL, ip_sealed = $1 WHERE tenant_id = $2 AND seq = $3 AND ip = $4",
            ),
            (
                "SELECT w.tenant_id, e.workflow_id, e.seq, e.ip FROM workflow_events e JOIN workflows w ON w.id = e.workflow_id \
                 WHERE e.ip IS NOT NULL AND e.ip NOT LIKE 'ipc1:%' AND w.tenant_id > 0 ORDER BY e.workflow_id, e.seq LIMIT 200",
                "UPDATE workflow_events SET ip = NULL, ip_sealed = $1 WHERE workflow_id = $2 AND seq = $3 AND ip = $4",
            ),
        ];
        let mut sealed = 0;
        for (select, update) in IN_CLEAR {
            loop {
                let rows: Vec<(i64, i64, i64, String)> =
                    on_db!(self, pool => sqlx::query_as(select).fetch_all(pool).await).map_err(db_err)?;
                if rows.is_empty() {
                    break;
                }
                for (tenant_id, owner, seq, plain) in rows {
                    let stored = self.seal_field(tenant_id, CHAIN_IP_COLUMN, Some(&plain)).await?;
                    on_db!(self, pool => sqlx::query(update).bind(&stored).bind(owner).bind(seq).bind(&plain)
                        .execute(pool).await.map(|_| ()))
                    .map_err(db_err)?;
                    sealed += 1;
                }
            }
        }
        Ok(sealed)
    }

    /// Chain entries' addresses kept beside them in clear (written while encryption was off):
    /// sealed where they are. A walk over every entry that has one, so the services run it
    /// only until a pass found nothing left in clear (with the objects' mark, see
    /// `seal_objects_in_clear`); each value is its own update, so an interrupted pass resumes.
    pub async fn seal_chain_openings_in_clear(&self) -> Result<u64> {
        // (Entries waiting to be linked into their organisation's chain are keyed by id alone,
        // given twice to fit the pages' keys.)
        const PAGES: [(&str, &str); 3] = [
            (
                "SELECT tenant_id, id, id, ip_sealed FROM audit_pending \
                 WHERE ip_sealed IS NOT NULL AND tenant_id >= $3 AND (id > $1 OR (id = $1 AND id > $2)) \
                 ORDER BY id LIMIT 1000",
                "UPDATE audit_pending SET ip_sealed = $1 WHERE id = $2 AND id = $3 AND ip_sealed = $4",
            ),
            (
                "SELECT tenant_id, tenant_id, seq, ip_sealed FROM audit_log \
                 WHERE ip_sealed IS NOT NULL AND tenant_id >= $3 AND (tenant_id > $1 OR (tenant_id = $1 AND seq > $2)) \
                 ORDER BY tenant_id, seq LIMIT 1000",
                "UPDATE audit_log SET ip_sealed = $1 WHERE tenant_id = $2 AND seq = $3 AND ip_sealed = $4",
            ),
            (
                "SELECT w.tenant_id, e.workflow_id, e.seq, e.ip_sealed FROM workflow_events e \
                 JOIN workflows w ON w.id = e.workflow_id \
                 WHERE e.ip_sealed IS NOT NULL AND w.tenant_id >= $3 \
                 AND (e.workflow_id > $1 OR (e.workflow_id = $1 AND e.seq > $2)) \
                 ORDER BY e.workflow_id, e.seq LIMIT 1000",
                "UPDATE workflow_events SET ip_sealed = $1 WHERE workflow_id = $2 AND seq = $3 AND ip_sealed = $4",
            ),
        ];
        // Organisations from 1: the platform's own entries are not sealed.
        self.seal_openings_walking(&PAGES, 1).await
    }

    /// [`Store::seal_chain_openings_in_clear`] for one organisation's audit chain, for an
    /// organisation whose first entries were written before it had its key (made by a tool
    /// that does not seal, see the services' `FieldSealer`). Its workflows' events need no
    /// walk: a workflow has a document, and its first document made the key.
    pub async fn seal_tenant_openings_in_clear(&self, tenant_id: TenantId) -> Result<u64> {
        const PAGES: [(&str, &str); 2] = [
            (
                "SELECT tenant_id, id, id, ip_sealed FROM audit_pending \
                 WHERE ip_sealed IS NOT NULL AND tenant_id = $3 AND (id > $1 OR (id = $1 AND id > $2)) \
                 ORDER BY id LIMIT 1000",
                "UPDATE audit_pending SET ip_sealed = $1 WHERE id = $2 AND id = $3 AND ip_sealed = $4",
            ),
            (
                "SELECT tenant_id, tenant_id, seq, ip_sealed FROM audit_log \
                 WHERE ip_sealed IS NOT NULL AND tenant_id = $3 AND (tenant_id > $1 OR (tenant_id = $1 AND seq > $2)) \
                 ORDER BY tenant_id, seq LIMIT 1000",
                "UPDATE audit_log SET ip_sealed = $1 WHERE tenant_id = $2 AND seq = $3 AND ip_sealed = $4",
            ),
        ];
        self.seal_openings_walking(&PAGES, tenant_id.get()).await
    }

    /// Walks each `(page, update)` pair in key order (`$1`, `$2`: the last row's key; `$3`:
    /// `tenant`) and seals every opening found in clear.
    async fn seal_openings_walking(&self, pages: &[(&'static str, &'static str)], tenant: i64) -> Result<u64> {
        if self.fields.get().is_none() {
            return Ok(0);
        }
        let mut sealed = 0;
        for &(page, update) in pages {
            let mut after = (0_i64, 0_i64);
            loop {
                let rows: Vec<(i64, i64, i64, String)> = on_db!(self, pool => sqlx::query_as(page)
                    .bind(after.0).bind(after.1).bind(tenant).fetch_all(pool).await)
                .map_err(db_err)?;
                let Some(&(_, owner, seq, _)) = rows.last() else { break };
                after = (owner, seq);
                for (tenant_id, owner, seq, plain) in rows.into_iter().filter(|row| !row.3.starts_with(SEALED_PREFIX)) {
                    let stored = self.seal_field(tenant_id, CHAIN_IP_COLUMN, Some(&plain)).await?;
                    if stored.as_deref() == Some(plain.as_str()) {
                        continue;
                    }
                    on_db!(self, pool => sqlx::query(update).bind(&stored).bind(owner).bind(seq).bind(&plain)
                        .execute(pool).await.map(|_| ()))
                    .map_err(db_err)?;
                    sealed += 1;
                }
            }
        }
        Ok(sealed)
    }

    /// The personal fields of rows with an id and an organisation: users' (their PAN, the
    /// address they consented to automated signing from) and leads' (the address a lead came
    /// from).
    async fn seal_row_fields_in_clear(&self) -> Result<u64> {
        const IN_CLEAR: [(&str, &str, &str); 3] = [
            (
                PAN_COLUMN,
                "SELECT id, tenant_id, pan_number FROM principals \
                 WHERE pan_number IS NOT NULL AND pan_number NOT LIKE 'sealed:v1:%' ORDER BY id LIMIT 200",
                "UPDATE principals SET pan_number = $1 WHERE id = $2 AND pan_number = $3",
            ),
            (
                CONSENT_IP_COLUMN,
                "SELECT id, tenant_id, auto_sign_consent_ip FROM principals \
                 WHERE auto_sign_consent_ip IS NOT NULL AND auto_sign_consent_ip NOT LIKE 'sealed:v1:%' ORDER BY id LIMIT 200",
                "UPDATE principals SET auto_sign_consent_ip = $1 WHERE id = $2 AND auto_sign_consent_ip = $3",
            ),
            (
                LEAD_IP_COLUMN,
                "SELECT id, tenant_id, client_ip FROM crm_leads \
                 WHERE client_ip IS NOT NULL AND client_ip NOT LIKE 'sealed:v1:%' ORDER BY id LIMIT 200",
                "UPDATE crm_leads SET client_ip = $1 WHERE id = $2 AND client_ip = $3",
            ),
        ];
        let mut sealed = 0;
        for (column, select, update) in IN_CLEAR {
            loop {
                let rows: Vec<(i64, i64, String)> =
                    on_db!(self, pool => sqlx::query_as(select).fetch_all(pool).await).map_err(db_err)?;
                if rows.is_empty() {
                    break;
                }
                for (id, tenant_id, plain) in rows {
                    let stored = self.seal_field(tenant_id, column, Some(&plain)).await?;
                    on_db!(self, pool => sqlx::query(update).bind(&stored).bind(id).bind(&plain).execute(pool).await.map(|_| ()))
                        .map_err(db_err)?;
                    sealed += 1;
                }
            }
        }
        Ok(sealed)
    }
}
