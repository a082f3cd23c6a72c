//! Personal fields kept encrypted (issue 34): values the service shows but never searches by,
//! such as a user's PAN. The store encrypts them as it writes and opens them as it reads, with
//! the cipher the services give it ([`Store::seal_fields_with`]: AES-256-GCM under the
//! organisation's data key, bound to the organisation and the column). A value is stored as
//! `sealed:v1:...`; one without that prefix is from before and is read as it is, until
//! [`Store::seal_fields_in_clear`] encrypts it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::{Result, Store, db_err, on_db};

/// The start of an encrypted field's stored text.
pub const SEALED_PREFIX: &str = "sealed:v1:";

/// The column of the PAN of users.
pub const PAN_COLUMN: &str = "principals.pan_number";

/// A boxed future, as trait objects answer them.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Encrypts and opens personal fields (implemented by the services over the data keys).
pub trait FieldCipher: Send + Sync {
    /// The stored text of `plain` for `tenant_id`'s `column` (starting with [`SEALED_PREFIX`]).
    fn seal<'a>(&'a self, tenant_id: i64, column: &'static str, plain: &'a str) -> BoxFuture<'a, Result<String>>;
    /// The value of a stored text that starts with [`SEALED_PREFIX`].
    fn open<'a>(&'a self, tenant_id: i64, column: &'static str, stored: &'a str) -> BoxFuture<'a, Result<String>>;
}

impl Store {
    /// Encrypts personal fields with `cipher` from now on (once per store; later calls are
    /// ignored).
    pub fn seal_fields_with(&self, cipher: Arc<dyn FieldCipher>) {
        let _ = self.fields.set(cipher);
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

    /// Encrypts the personal fields stored in clear (from before encryption), a batch at a
    /// time; answers how many. Each value is its own update, so an interrupted pass resumes.
    pub async fn seal_fields_in_clear(&self) -> Result<u64> {
        if self.fields.get().is_none() {
            return Ok(0);
        }
        let mut sealed = 0;
        loop {
            let select = "SELECT id, tenant_id, pan_number FROM principals \
                          WHERE pan_number IS NOT NULL AND pan_number NOT LIKE 'sealed:v1:%' ORDER BY id LIMIT 200";
            let rows: Vec<(i64, i64, String)> =
                on_db!(self, pool => sqlx::query_as(select).fetch_all(pool).await).map_err(db_err)?;
            if rows.is_empty() {
                return Ok(sealed);
            }
            for (id, tenant_id, plain) in rows {
                let stored = self.seal_field(tenant_id, PAN_COLUMN, Some(&plain)).await?;
                let update = "UPDATE principals SET pan_number = $1 WHERE id = $2 AND pan_number = $3";
                on_db!(self, pool => sqlx::query(update).bind(&stored).bind(id).bind(&plain).execute(pool).await.map(|_| ()))
                    .map_err(db_err)?;
                sealed += 1;
            }
        }
    }
}
