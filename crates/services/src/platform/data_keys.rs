//! The master key and the data keys it wraps: what encrypts stored documents at rest.
//!
//! Every stored object (documents, attachments, gateway payloads, exports) is sealed with a
//! data key of its owner (an organisation, or the platform) and year (`signet_blob::sealed`).
//! Data keys are kept in the database only wrapped (AES-256-GCM) by a master key that never
//! enters it. The master key comes from, in this order:
//!
//! 1. `master_key` (`SIGNET_MASTER_KEY` or `SIGNET_MASTER_KEY_FILE`): base64 keys of 32 bytes,
//!    separated by commas or lines, the first the current one, the others older ones still
//!    accepted for unwrapping (read once at start);
//! 2. `master_key_path`: a file of such keys, one per line; read again when it changes, so
//!    that `signet keys rotate-master` works while `serve` runs;
//! 3. the HSM (`hsm_module`) when the platform's sealing key is in it: a secret only the HSM can
//!    make (its deterministic RSA signature of a fixed context);
//! 4. otherwise `master.key` in the data folder, made on first start (mode 0600). It protects
//!    a copy of the blob store or of the database, not a copy of the whole data folder:
//!    operators move it elsewhere and point `master_key_path` at it (README).
//!
//! The platform's data keys (tenant 0) are wrapped by the master key itself. An organisation's
//! are wrapped by its key-encryption key (KEK), kept in the key vault outside the database
//! (`platform::key_vault`) and sealed there by the master key; a data key row wrapped so holds
//! `kek:<organisation>` as its `master_id`. Deleting the organisation destroys its vault file,
//! and with it every copy of its data keys, those in backups included (crypto-shredding).
//! Installations from before the vault have their organisations' keys re-wrapped under a KEK
//! at start, row by row (resumable).
//!
//! Rotation re-wraps the platform's data keys and every vault file, and leaves every object
//! and every organisation's data key row as it is.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use aws_lc_rs::aead::{AES_256_GCM, LessSafeKey, UnboundKey};
use aws_lc_rs::{digest, hmac, rand};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use signet_blob::{BlobStore, DataKey, DataKeys, KeyError, KeyOwner, SealPass, SealingOptions};
use signet_store::{CHAIN_IP_COLUMN, DataKeyRow, FieldCipher, FieldFuture, SEALED_PREFIX, Store};

use crate::platform::config::Config;
use crate::platform::key_vault::{KeyVault, VaultEntry, VaultError};
use crate::platform::keyring::{KeyPairDer, Keyring};
use crate::platform::secrets::SealingKey;

/// Bytes of a master or data key.
const KEY_BYTES: usize = 32;
/// What a master key's id is the HMAC of.
const ID_CONTEXT: &[u8] = b"signet master key id v1";
/// What the HSM signs to make the master key.
const HSM_CONTEXT: &[u8] = b"signet master key v1";
/// The file made in the data folder when no master key is configured.
pub const DEFAULT_KEY_FILE: &str = "master.key";
/// How a data key row names the organisation's KEK that wraps it (`kek:<organisation>`).
const KEK_PREFIX: &str = "kek:";

/// One master key and its id (a fingerprint that names it in the database, not secret).
pub struct MasterKey {
    id: String,
    key: SealingKey,
}

impl MasterKey {
    fn new(secret: &[u8; KEY_BYTES]) -> Result<MasterKey, MasterKeyError> {
        let tag = hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, secret), ID_CONTEXT);
        let id = hex::encode(&tag.as_ref()[..8]);
        let key = UnboundKey::new(&AES_256_GCM, secret).map_err(|_| MasterKeyError::Crypto)?;
        Ok(MasterKey { id, key: SealingKey::from_key(LessSafeKey::new(key)) })
    }

    /// A new random master key, as the text a key file holds.
    pub fn generate_text() -> Result<String, MasterKeyError> {
        let mut secret = [0u8; KEY_BYTES];
        rand::fill(&mut secret).map_err(|_| MasterKeyError::Crypto)?;
        Ok(STANDARD.encode(secret))
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    fn aad(tenant_id: i64, year: i64) -> String {
        format!("signet data key v1|{tenant_id}|{year}")
    }

    /// `nonce | ciphertext | tag` of a data key, bound to its owner and year.
    fn wrap(&self, secret: &[u8; KEY_BYTES], tenant_id: i64, year: i64) -> Result<Vec<u8>, MasterKeyError> {
        self.key.seal(&Self::aad(tenant_id, year), secret).ok_or(MasterKeyError::Crypto)
    }

    fn unwrap(&self, wrapped: &[u8], tenant_id: i64, year: i64) -> Result<[u8; KEY_BYTES], MasterKeyError> {
        let plain = self.key.open(&Self::aad(tenant_id, year), wrapped).ok_or(MasterKeyError::Unwrap)?;
        <[u8; KEY_BYTES]>::try_from(&plain[..]).map_err(|_| MasterKeyError::Unwrap)
    }

    fn kek_aad(tenant_id: i64) -> String {
        format!("signet tenant kek v1|{tenant_id}")
    }

    /// The vault entry of an organisation's KEK, sealed by this key, bound to the organisation.
    fn seal_kek(&self, kek: &[u8; KEY_BYTES], tenant_id: i64) -> Result<VaultEntry, MasterKeyError> {
        let sealed = self.key.seal(&Self::kek_aad(tenant_id), kek).ok_or(MasterKeyError::Crypto)?;
        Ok(VaultEntry { master_id: self.id.clone(), sealed })
    }

    fn open_kek(&self, entry: &VaultEntry, tenant_id: i64) -> Result<[u8; KEY_BYTES], MasterKeyError> {
        let plain = self.key.open(&Self::kek_aad(tenant_id), &entry.sealed).ok_or(MasterKeyError::Unwrap)?;
        <[u8; KEY_BYTES]>::try_from(&plain[..]).map_err(|_| MasterKeyError::Unwrap)
    }
}

/// What the key that seals fields under an organisation's KEK is derived with.
const KEK_FIELDS_LABEL: &str = "signet kek fields v1";

/// An organisation's key-encryption key, opened: wraps its data keys (same binding to the
/// owner and year as the master key's wrapping), and a key derived from it seals the fields
/// that are sealed inside a writing transaction (chain entries' addresses, see
/// [`FieldSealer`]), for which a data key, which may need a database write to be made, will not do.
struct Kek {
    wrapping: SealingKey,
    fields: SealingKey,
}

impl Kek {
    fn new(secret: &[u8; KEY_BYTES]) -> Result<Kek, MasterKeyError> {
        let key = UnboundKey::new(&AES_256_GCM, secret).map_err(|_| MasterKeyError::Crypto)?;
        let fields = SealingKey::derive(secret, KEK_FIELDS_LABEL).map_err(|_| MasterKeyError::Crypto)?;
        Ok(Kek { wrapping: SealingKey::from_key(LessSafeKey::new(key)), fields })
    }

    fn wrap(&self, secret: &[u8; KEY_BYTES], tenant_id: i64, year: i64) -> Result<Vec<u8>, MasterKeyError> {
        self.wrapping.seal(&MasterKey::aad(tenant_id, year), secret).ok_or(MasterKeyError::Crypto)
    }

    fn unwrap(&self, wrapped: &[u8], tenant_id: i64, year: i64) -> Result<[u8; KEY_BYTES], MasterKeyError> {
        let plain = self.wrapping.open(&MasterKey::aad(tenant_id, year), wrapped).ok_or(MasterKeyError::Unwrap)?;
        <[u8; KEY_BYTES]>::try_from(&plain[..]).map_err(|_| MasterKeyError::Unwrap)
    }
}

/// The organisation a data key row's `master_id` names as its KEK's, if it names one.
fn kek_owner(master_id: &str) -> Option<i64> {
    master_id.strip_prefix(KEK_PREFIX)?.parse().ok()
}

fn kek_name(tenant_id: i64) -> String {
    format!("{KEK_PREFIX}{tenant_id}")
}

/// Why a master key could not be had or used.
#[derive(Debug, thiserror::Error)]
pub enum MasterKeyError {
    #[error("master key file {0}: {1}")]
    File(PathBuf, #[source] std::io::Error),
    #[error("master key {0}: not base64 of 32 bytes")]
    Malformed(usize),
    #[error(
        "{0} is missing, and the database holds data keys it wrapped: put the installation's master key back \
         there, or name it with master_key_path (README: Data at rest)"
    )]
    Missing(PathBuf),
    #[error("no master key is given (master_key or master_key_path is empty)")]
    Empty,
    #[error("the HSM could not make the master key: {0}")]
    Hsm(String),
    #[error("a data key did not unwrap: altered, or wrapped by another master key")]
    Unwrap,
    #[error("data key {0} was wrapped by master key {1}, which is not configured")]
    Unknown(i64, String),
    #[error("data key {0} was destroyed (its organisation was deleted)")]
    Destroyed(i64),
    #[error(
        "the key vault file {1} of organisation {0} is missing, and its data keys are wrapped by the key it held: \
         put the vault back (tenant_key_vault, kept with the master key); if organisation {0} was deleted after \
         this database was backed up, run signet tenant delete --tenant-id {0} again (README: Data at rest)"
    )]
    VaultMissing(i64, PathBuf),
    #[error("organisation {0} was deleted: its keys are destroyed")]
    TenantDeleted(i64),
    #[error("data key {0} names the key of organisation {1}, not its own")]
    WrongKek(i64, i64),
    #[error(transparent)]
    Vault(#[from] VaultError),
    #[error("the database: {0}")]
    Store(String),
    #[error("the crypto library failed")]
    Crypto,
}

/// Makes the HSM's secret for a context (see [`MasterKeys::from_config`]).
pub type HsmSecret<'a> = &'a dyn Fn(&[u8]) -> Result<Vec<u8>, String>;

/// Where the master keys come from.
#[derive(Clone, Debug)]
pub enum MasterSource {
    /// The `master_key` setting (read once).
    Setting,
    /// A file, read again when it changes.
    File(PathBuf),
    /// The HSM's secret.
    Hsm,
}

/// The current master key (new wrappings) and the older ones still accepted.
pub struct MasterKeys {
    source: MasterSource,
    keys: Vec<MasterKey>,
    modified: Option<SystemTime>,
}

impl MasterKeys {
    /// The keys of `text`: base64 keys separated by commas or lines, `#` comments ignored.
    fn parse(text: &str) -> Result<Vec<MasterKey>, MasterKeyError> {
        let entries =
            text.lines().map(|line| line.split('#').next().unwrap_or_default()).flat_map(|line| line.split(','));
        let mut keys = Vec::new();
        for entry in entries.map(str::trim).filter(|e| !e.is_empty()) {
            let bytes = STANDARD.decode(entry).map_err(|_| MasterKeyError::Malformed(keys.len() + 1))?;
            let secret =
                <[u8; KEY_BYTES]>::try_from(bytes.as_slice()).map_err(|_| MasterKeyError::Malformed(keys.len() + 1))?;
            keys.push(MasterKey::new(&secret)?);
        }
        if keys.is_empty() { Err(MasterKeyError::Empty) } else { Ok(keys) }
    }

    fn from_file(path: &Path) -> Result<MasterKeys, MasterKeyError> {
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let text = std::fs::read_to_string(path).map_err(|e| MasterKeyError::File(path.to_path_buf(), e))?;
        Ok(MasterKeys { source: MasterSource::File(path.to_path_buf()), keys: Self::parse(&text)?, modified })
    }

    /// The master keys the settings name (see the module's doc for the order). `hsm_secret`
    /// makes the HSM's secret when the platform's sealing key is in an HSM. Blocking.
    /// `keys_exist`: the database already holds data keys, so a missing default key file is
    /// lost (or not restored), not to be made afresh.
    pub fn from_config(
        config: &Config,
        hsm_secret: Option<HsmSecret<'_>>,
        keys_exist: bool,
    ) -> Result<MasterKeys, MasterKeyError> {
        if let Some(text) = config.master_key.as_deref() {
            return Ok(MasterKeys { source: MasterSource::Setting, keys: Self::parse(text)?, modified: None });
        }
        if let Some(path) = &config.master_key_path {
            return Self::from_file(path);
        }
        if let Some(secret) = hsm_secret {
            let signature = secret(HSM_CONTEXT).map_err(MasterKeyError::Hsm)?;
            let mut key = [0u8; KEY_BYTES];
            key.copy_from_slice(digest::digest(&digest::SHA256, &signature).as_ref());
            return Ok(MasterKeys { source: MasterSource::Hsm, keys: vec![MasterKey::new(&key)?], modified: None });
        }
        let path = config.data_dir.join(DEFAULT_KEY_FILE);
        if !path.exists() && keys_exist {
            return Err(MasterKeyError::Missing(path));
        }
        if !path.exists() {
            write_key_file(&path, &format!("{}\n", MasterKey::generate_text()?))?;
            tracing::warn!(path = %path.display(), "made a master key for documents at rest; keep a copy apart from the data (see README: Data at rest)");
        }
        Self::from_file(&path)
    }

    pub fn source(&self) -> &MasterSource {
        &self.source
    }

    /// The key new wrappings use.
    pub fn current(&self) -> &MasterKey {
        // `parse` never answers an empty list.
        &self.keys[0]
    }

    fn by_id(&self, id: &str) -> Option<&MasterKey> {
        self.keys.iter().find(|k| k.id == id)
    }

    /// Reads the key file again if it changed since it was read (a rotation in progress).
    fn reload_if_changed(&mut self) {
        let MasterSource::File(path) = &self.source else { return };
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        if modified == self.modified {
            return;
        }
        match Self::from_file(path) {
            Ok(fresh) => *self = fresh,
            Err(error) => {
                tracing::warn!(%error, "the master key file changed and could not be read; keeping the keys read before")
            }
        }
    }

    /// The data key a row wrapped by a master key holds.
    fn unwrap_row(&self, row: &DataKeyRow) -> Result<[u8; KEY_BYTES], MasterKeyError> {
        let (Some(wrapped), Some(master)) = (&row.wrapped, &row.master_id) else {
            return Err(MasterKeyError::Destroyed(row.id));
        };
        let key = self.by_id(master).ok_or_else(|| MasterKeyError::Unknown(row.id, master.clone()))?;
        key.unwrap(wrapped, row.tenant_id, row.year)
    }

    /// An organisation's KEK from its vault entry, with the master key that sealed it.
    fn open_kek(&self, entry: &VaultEntry, tenant_id: i64) -> Result<[u8; KEY_BYTES], MasterKeyError> {
        let key = self
            .by_id(&entry.master_id)
            .ok_or_else(|| MasterKeyError::Unknown(tenant_id, format!("{} (key vault)", entry.master_id)))?;
        key.open_kek(entry, tenant_id)
    }
}

/// Writes a key file readable by its owner only, whole or not at all.
pub fn write_key_file(path: &Path, text: &str) -> Result<(), MasterKeyError> {
    let fail = |e| MasterKeyError::File(path.to_path_buf(), e);
    let temporary = path.with_extension("key.new");
    {
        use std::io::Write;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&temporary).map_err(fail)?;
        file.write_all(text.as_bytes()).map_err(fail)?;
        file.sync_all().map_err(fail)?;
    }
    std::fs::rename(&temporary, path).map_err(fail)
}

/// Data keys over the database, unwrapped by the master keys (the platform's) or by the
/// organisations' KEKs from the key vault, and kept in memory once used.
pub struct StoreDataKeys {
    store: Store,
    vault: KeyVault,
    masters: Mutex<MasterKeys>,
    keks: Mutex<HashMap<i64, Arc<Kek>>>,
    by_id: Mutex<HashMap<u64, Arc<DataKey>>>,
    by_owner: Mutex<HashMap<(i64, i64), Arc<DataKey>>>,
}

impl StoreDataKeys {
    pub fn new(store: Store, masters: MasterKeys, vault: KeyVault) -> StoreDataKeys {
        StoreDataKeys {
            store,
            vault,
            masters: Mutex::new(masters),
            keks: Mutex::default(),
            by_id: Mutex::default(),
            by_owner: Mutex::default(),
        }
    }

    fn masters(&self) -> std::sync::MutexGuard<'_, MasterKeys> {
        lock(&self.masters)
    }

    /// The key vault.
    pub fn vault(&self) -> &KeyVault {
        &self.vault
    }

    /// The KEK of an organisation from its vault file; a missing file is an error (its data
    /// keys cannot be opened), never a reason to make a new one.
    fn kek(&self, tenant_id: i64) -> Result<Arc<Kek>, MasterKeyError> {
        if let Some(kek) = lock(&self.keks).get(&tenant_id) {
            return Ok(kek.clone());
        }
        let entry = self
            .vault
            .read(tenant_id)?
            .ok_or_else(|| MasterKeyError::VaultMissing(tenant_id, self.vault.path(tenant_id)))?;
        self.remember_kek(tenant_id, &entry)
    }

    /// Opens a vault entry (reading the master key file again once if its master is unknown)
    /// and keeps the KEK in memory.
    fn remember_kek(&self, tenant_id: i64, entry: &VaultEntry) -> Result<Arc<Kek>, MasterKeyError> {
        let secret = {
            let mut masters = self.masters();
            match masters.open_kek(entry, tenant_id) {
                Err(MasterKeyError::Unknown(..)) => {
                    masters.reload_if_changed();
                    masters.open_kek(entry, tenant_id)?
                }
                other => other?,
            }
        };
        let kek = Arc::new(Kek::new(&secret)?);
        lock(&self.keks).insert(tenant_id, kek.clone());
        Ok(kek)
    }

    /// The KEK that wraps an organisation's new data keys: its vault file's, or a new one when
    /// it has none yet and nothing was ever wrapped by one (two instances racing keep one).
    /// A deleted organisation gets none.
    async fn kek_for_writing(&self, tenant_id: i64) -> Result<Arc<Kek>, MasterKeyError> {
        if let Some(kek) = lock(&self.keks).get(&tenant_id) {
            return Ok(kek.clone());
        }
        let store_error = |e: signet_domain::Error| MasterKeyError::Store(e.to_string());
        if self.store.tenant_deleted(tenant_id).await.map_err(store_error)? {
            return Err(MasterKeyError::TenantDeleted(tenant_id));
        }
        if let Some(entry) = self.vault.read(tenant_id)? {
            return self.remember_kek(tenant_id, &entry);
        }
        if self.store.count_data_keys_wrapped_by(&kek_name(tenant_id)).await.map_err(store_error)? > 0 {
            // Another instance may have made the file and wrapped a key with it since it was
            // read above (it makes the file first): read it once more before calling it lost.
            return match self.vault.read(tenant_id)? {
                Some(entry) => self.remember_kek(tenant_id, &entry),
                None => Err(MasterKeyError::VaultMissing(tenant_id, self.vault.path(tenant_id))),
            };
        }
        self.make_kek(tenant_id)
    }

    /// The KEK of an organisation being created, inside the transaction that creates it (so
    /// without reading the database: its id is new, so it is not deleted and nothing is
    /// wrapped by a key of it): its vault file's, or a new one.
    fn new_tenant_kek(&self, tenant_id: i64) -> Result<Arc<Kek>, MasterKeyError> {
        if let Some(kek) = lock(&self.keks).get(&tenant_id) {
            return Ok(kek.clone());
        }
        if let Some(entry) = self.vault.read(tenant_id)? {
            return self.remember_kek(tenant_id, &entry);
        }
        self.make_kek(tenant_id)
    }

    /// Every live organisation has its KEK (those created before the key vault, or before
    /// encryption was on, get theirs at start), so that a chain entry, sealed inside its
    /// appending transaction, finds its key without making one. Answers those it made them for.
    pub async fn make_missing_keks(&self) -> Result<Vec<i64>, RotateError> {
        let mut made = Vec::new();
        for tenant_id in self.store.live_tenant_ids().await? {
            if self.vault.read(tenant_id).map_err(MasterKeyError::from)?.is_some() {
                continue;
            }
            match self.kek_for_writing(tenant_id).await {
                Ok(_) => made.push(tenant_id),
                Err(MasterKeyError::TenantDeleted(_)) => {}
                Err(error) => return Err(error.into()),
            }
        }
        Ok(made)
    }

    /// A new KEK for an organisation that has none, kept in its vault file (two instances
    /// racing keep the first).
    fn make_kek(&self, tenant_id: i64) -> Result<Arc<Kek>, MasterKeyError> {
        let mut secret = [0u8; KEY_BYTES];
        rand::fill(&mut secret).map_err(|_| MasterKeyError::Crypto)?;
        let entry = {
            let mut masters = self.masters();
            masters.reload_if_changed();
            masters.current().seal_kek(&secret, tenant_id)?
        };
        let kept = self.vault.create(tenant_id, &entry)?;
        self.remember_kek(tenant_id, &kept)
    }

    /// The secret a data key row holds, through the master key or the organisation's KEK.
    fn secret_of(&self, row: &DataKeyRow) -> Result<[u8; KEY_BYTES], MasterKeyError> {
        let (Some(wrapped), Some(master)) = (&row.wrapped, &row.master_id) else {
            return Err(MasterKeyError::Destroyed(row.id));
        };
        if let Some(owner) = kek_owner(master) {
            if owner != row.tenant_id {
                return Err(MasterKeyError::WrongKek(row.id, owner));
            }
            return self.kek(owner)?.unwrap(wrapped, row.tenant_id, row.year);
        }
        let mut masters = self.masters();
        match masters.unwrap_row(row) {
            Err(MasterKeyError::Unknown(..)) => {
                masters.reload_if_changed();
                masters.unwrap_row(row)
            }
            other => other,
        }
    }

    /// The data key a row holds.
    fn open_row(&self, row: &DataKeyRow) -> Result<Arc<DataKey>, MasterKeyError> {
        let secret = self.secret_of(row)?;
        let id = u64::try_from(row.id).map_err(|_| MasterKeyError::Unwrap)?;
        Ok(Arc::new(DataKey::new(id, secret)))
    }

    fn remember(&self, key: &Arc<DataKey>, owner: (i64, i64)) {
        lock(&self.by_id).insert(key.id(), key.clone());
        lock(&self.by_owner).insert(owner, key.clone());
    }

    /// A new data key's wrapping: the platform's by the current master key, an organisation's
    /// by its KEK; with the name of what wrapped it.
    async fn wrap_new(
        &self,
        secret: &[u8; KEY_BYTES],
        tenant_id: i64,
        year: i64,
    ) -> Result<(Vec<u8>, String), MasterKeyError> {
        if tenant_id > 0 {
            let kek = self.kek_for_writing(tenant_id).await?;
            return Ok((kek.wrap(secret, tenant_id, year)?, kek_name(tenant_id)));
        }
        let mut masters = self.masters();
        masters.reload_if_changed();
        let current = masters.current();
        Ok((current.wrap(secret, tenant_id, year)?, current.id.clone()))
    }

    async fn writing_key(&self, owner: KeyOwner) -> Result<Arc<DataKey>, KeyError> {
        let slot = (owner.tenant_id(), current_year());
        if let Some(key) = lock(&self.by_owner).get(&slot) {
            return Ok(key.clone());
        }
        let row = match self.store.data_key_for(slot.0, slot.1).await.map_err(store_key_error)? {
            Some(row) => row,
            None => {
                let mut secret = [0u8; KEY_BYTES];
                rand::fill(&mut secret).map_err(|_| KeyError::new("no randomness for a data key"))?;
                let (wrapped, wrapped_by) = self.wrap_new(&secret, slot.0, slot.1).await.map_err(key_error)?;
                self.store.insert_data_key(slot.0, slot.1, &wrapped, &wrapped_by).await.map_err(store_key_error)?
            }
        };
        let key = self.open_row(&row).map_err(key_error)?;
        self.remember(&key, slot);
        Ok(key)
    }

    async fn reading_key(&self, id: u64) -> Result<Arc<DataKey>, KeyError> {
        if let Some(key) = lock(&self.by_id).get(&id) {
            return Ok(key.clone());
        }
        let row_id = i64::try_from(id).map_err(|_| KeyError::new(format!("no data key {id}")))?;
        let row = self
            .store
            .data_key(row_id)
            .await
            .map_err(store_key_error)?
            .ok_or_else(|| KeyError::new(format!("no data key {id}")))?;
        let key = self.open_row(&row).map_err(key_error)?;
        self.remember(&key, (row.tenant_id, row.year));
        Ok(key)
    }

    /// Re-wraps every data key wrapped by an older master key with the current one (the
    /// platform's, and an organisation's not yet under its KEK), then every vault file sealed
    /// by an older master key; answers how many it re-wrapped. Each key and each file is its
    /// own update, compared and set, so an interrupted rotation resumes where it stopped.
    pub async fn rotate(&self) -> Result<u64, RotateError> {
        let current_id = {
            let mut masters = self.masters();
            masters.reload_if_changed();
            masters.current().id.clone()
        };
        let mut after = 0;
        let mut rewrapped = 0;
        loop {
            let rows = self.store.data_keys_not_wrapped_by(&current_id, after, 100).await?;
            let Some(last) = rows.last() else { break };
            after = last.id;
            for row in rows {
                let wrapped = {
                    let masters = self.masters();
                    let secret = masters.unwrap_row(&row)?;
                    masters.current().wrap(&secret, row.tenant_id, row.year)?
                };
                let old = row.master_id.as_deref().unwrap_or_default();
                if self.store.rewrap_data_key(row.id, old, &wrapped, &current_id).await? {
                    rewrapped += 1;
                }
            }
        }
        for tenant_id in self.vault.tenants().map_err(MasterKeyError::from)? {
            rewrapped += u64::from(self.rotate_vault_file(tenant_id, &current_id)?);
        }
        Ok(rewrapped)
    }

    /// Seals one vault file again with the current master key, if an older one sealed it.
    fn rotate_vault_file(&self, tenant_id: i64, current_id: &str) -> Result<bool, MasterKeyError> {
        let Some(entry) = self.vault.read(tenant_id)? else { return Ok(false) };
        if entry.master_id == current_id {
            return Ok(false);
        }
        let fresh = {
            let masters = self.masters();
            let secret = masters.open_kek(&entry, tenant_id)?;
            masters.current().seal_kek(&secret, tenant_id)?
        };
        Ok(self.vault.replace(tenant_id, &entry, &fresh)?)
    }

    /// Re-wraps each organisation's data keys still wrapped by the master key (an installation
    /// from before the key vault) under the organisation's KEK, row by row, compared and set:
    /// resumable, and safe beside other instances doing the same. Answers how many it did.
    pub async fn wrap_tenant_keys_with_keks(&self) -> Result<u64, RotateError> {
        let (mut after, mut done) = (0, 0);
        loop {
            let rows = self.store.tenant_data_keys_wrapped_by_a_master(after, 100).await?;
            let Some(last) = rows.last() else { return Ok(done) };
            after = last.id;
            for row in rows {
                let secret = self.masters().unwrap_row(&row)?;
                let kek = match self.kek_for_writing(row.tenant_id).await {
                    Ok(kek) => kek,
                    Err(MasterKeyError::TenantDeleted(_)) => continue,
                    Err(error) => return Err(error.into()),
                };
                let wrapped = kek.wrap(&secret, row.tenant_id, row.year)?;
                let old = row.master_id.as_deref().unwrap_or_default();
                if self.store.rewrap_data_key(row.id, old, &wrapped, &kek_name(row.tenant_id)).await? {
                    done += 1;
                }
            }
        }
    }

    /// Every live data key unwrapped with the configured master keys and the vault (an
    /// integrity check): how many there are, and those that do not unwrap, with why (a missing
    /// or unreadable vault file names the file).
    pub async fn check(&self) -> Result<KeyCheck, signet_domain::Error> {
        let mut check = KeyCheck::default();
        let mut after = 0;
        loop {
            let rows = self.store.live_data_keys(after, 500).await?;
            let Some(last) = rows.last() else { return Ok(check) };
            after = last.id;
            check.live += rows.len() as u64;
            check
                .failures
                .extend(rows.iter().filter_map(|row| self.secret_of(row).err().map(|e| (row.id, e.to_string()))));
        }
    }

    /// The first data key whose master key is not configured, with that master's id: another
    /// instance's key, or a key file lost (nothing it wrapped could be opened here).
    /// Among `rows` (the first live data keys, read once at start); rows under a KEK are the
    /// vault's business ([`StoreDataKeys::missing_vault_file`]).
    fn wrapped_by_an_unknown_master(&self, rows: Vec<DataKeyRow>) -> Option<(i64, String)> {
        let mut masters = self.masters();
        masters.reload_if_changed();
        rows.into_iter().find_map(|row| {
            let master = row.master_id?;
            (kek_owner(&master).is_none() && masters.by_id(&master).is_none()).then_some((row.id, master))
        })
    }

    /// The first live organisation whose data keys are wrapped by a KEK that does not open
    /// (its vault file missing, unreadable, or sealed by an unknown master key), with why.
    async fn missing_vault_file(&self) -> Result<Option<MasterKeyError>, signet_domain::Error> {
        for tenant_id in self.store.tenants_with_kek_wrapped_keys().await? {
            if let Err(error) = self.kek(tenant_id) {
                return Ok(Some(error));
            }
        }
        Ok(None)
    }

    /// Forgets an organisation's KEK and data keys held in memory (it was deleted).
    pub fn forget_tenant(&self, tenant_id: i64) {
        lock(&self.keks).remove(&tenant_id);
        lock(&self.by_owner).retain(|(owner, _), _| *owner != tenant_id);
        // Ids do not say their owner without the database: forget them all, others reload.
        lock(&self.by_id).clear();
    }

    /// The id of the current master key.
    pub fn current_master_id(&self) -> String {
        self.masters().current().id.clone()
    }
}

/// How a start treats organisations' keys in the key vault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyStart {
    /// `serve` and the commands that write: a vault file missing stops the start, and data
    /// keys still wrapped by the master key move under their organisation's vault key.
    Serve,
    /// `signet check`, `keys status`, `backup` checks and `tenant delete`: a key that does not
    /// open is a finding to report (or the very thing being removed), and nothing is re-wrapped.
    Inspect,
}

/// The blob store with encryption as configured, and the data keys behind it. Objects in
/// clear are still read until a pass of [`seal_objects_in_clear`] found none left.
pub async fn seal_blobs(
    blob: BlobStore,
    config: &Config,
    store: &Store,
    keyring: &Keyring,
    seal: &KeyPairDer,
    start: KeyStart,
) -> anyhow::Result<(BlobStore, Arc<StoreDataKeys>)> {
    let first_keys = store.live_data_keys(0, 100).await?;
    let keys_exist = !first_keys.is_empty();
    let masters = {
        let (config, keyring, seal) = (config.clone(), keyring.clone(), seal.clone());
        tokio::task::spawn_blocking(move || {
            let hsm = |context: &[u8]| match keyring.hsm_secret(&seal, context) {
                Some(secret) => secret.map_err(|e| e.to_string()),
                None => Err("the sealing key is not in the HSM".to_string()),
            };
            let hsm: Option<HsmSecret<'_>> = seal.in_hsm().then_some(&hsm);
            MasterKeys::from_config(&config, hsm, keys_exist)
        })
        .await??
    };
    let vault = KeyVault::new(config.key_vault_dir());
    refuse_vault_inside_blobs(&vault, &blob)?;
    let keys = Arc::new(StoreDataKeys::new(store.clone(), masters, vault));
    if let Some((id, master)) = keys.wrapped_by_an_unknown_master(first_keys) {
        anyhow::bail!(
            "data key {id} of this installation is wrapped by master key {master}, which is not configured \
             (this instance's is {}): every instance of an installation needs the same master key \
             (master_key_path or SIGNET_MASTER_KEY; README: Data at rest)",
            keys.current_master_id()
        );
    }
    if start == KeyStart::Serve {
        if let Some(error) = keys.missing_vault_file().await? {
            anyhow::bail!("{error}");
        }
        let moved = keys.wrap_tenant_keys_with_keks().await?;
        if moved > 0 {
            tracing::info!(moved, vault = %keys.vault().dir().display(), "wrapped organisations' data keys with their keys in the key vault");
        }
    }
    let fields = FieldSealer::new(Arc::downgrade(&keys), config.blob_encryption);
    store.seal_fields_with(Arc::new(fields));
    if start == KeyStart::Serve && config.blob_encryption {
        // Organisations created by a tool that does not seal (`signet tenant create`) get their
        // key now, and the addresses of their first entries are sealed with it.
        let made = keys.make_missing_keks().await?;
        for &tenant_id in &made {
            store.seal_tenant_openings_in_clear(signet_domain::TenantId::from(tenant_id)).await?;
        }
        if !made.is_empty() {
            tracing::info!(made = made.len(), vault = %keys.vault().dir().display(), "made organisations' keys in the key vault");
        }
    }
    if !config.blob_encryption {
        store.set_blobs_all_sealed(None).await?;
    }
    let all_sealed = store.blobs_all_sealed_at().await?.is_some();
    let options = SealingOptions { seal_writes: config.blob_encryption, accept_plaintext: !all_sealed };
    Ok((blob.sealed_with(keys.clone(), options), keys))
}

/// Stops a start whose key vault is inside the local blob folder: a backup copies that folder,
/// and a vault copied with it would undo crypto-shredding.
fn refuse_vault_inside_blobs(vault: &KeyVault, blob: &BlobStore) -> anyhow::Result<()> {
    let Some(folder) = blob.local_folder() else { return Ok(()) };
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    if absolute(vault.dir()).starts_with(absolute(folder)) {
        anyhow::bail!(
            "the key vault {} is inside the blob folder {}: backups copy that folder, and must not copy the vault \
             (tenant_key_vault; README: Data at rest)",
            vault.dir().display(),
            folder.display()
        );
    }
    Ok(())
}

/// Encrypts what an installation stored in clear before encryption (started with the server,
/// resumable); once a pass finds nothing left in clear, objects in clear are refused.
pub async fn seal_objects_in_clear(blob: &BlobStore, store: &Store) -> anyhow::Result<SealPass> {
    if !blob.seals_writes() {
        return Ok(SealPass::default());
    }
    // Before the objects' mark: fields sealed by a later version (chain entries' addresses)
    // are found in installations whose objects were all sealed before (cheap when none are).
    let fields = store.seal_fields_in_clear().await?;
    if fields > 0 {
        tracing::info!(fields, "encrypted personal fields kept in clear");
    }
    if store.blobs_all_sealed_at().await?.is_some() {
        return Ok(SealPass::default());
    }
    // Addresses written beside chain entries while encryption was off (a walk over the chains,
    // so only until the mark is set).
    let openings = store.seal_chain_openings_in_clear().await?;
    if openings > 0 {
        tracing::info!(openings, "encrypted chain entries' addresses kept in clear");
    }
    let pass = blob.seal_in_clear().await?;
    if pass.all_sealed() {
        store.set_blobs_all_sealed(Some(signet_domain::now_millis())).await?;
        blob.accept_plaintext(false);
    }
    Ok(pass)
}

/// Personal fields sealed under their organisation's data key, for the store
/// (`signet_store::FieldCipher`): `sealed:v1:<data key id>:<base64 nonce | ciphertext | tag>`,
/// bound to the organisation and the column; chain entries' addresses under its KEK's field
/// key instead (`sealed:v1:k:...`). Holds the keys weakly: the keys hold the store.
pub struct FieldSealer {
    keys: std::sync::Weak<StoreDataKeys>,
    seal_writes: bool,
    /// Organisations whose key is being made after an entry found none (see `key_made_later`).
    keys_coming: Arc<Mutex<std::collections::HashSet<i64>>>,
}

/// When the addresses written before an organisation's key existed are sealed, after it is
/// made: soon, and once more after any transaction that wrote one must have ended (PostgreSQL
/// ends one idle for 60 s).
const LATE_SEALING_AFTER: [Duration; 2] = [Duration::from_secs(2), Duration::from_secs(65)];

impl FieldSealer {
    fn new(keys: std::sync::Weak<StoreDataKeys>, seal_writes: bool) -> FieldSealer {
        FieldSealer { keys, seal_writes, keys_coming: Arc::default() }
    }

    /// An organisation created by a tool that does not seal (`signet tenant create` beside
    /// running instances) has no key until something makes one; an entry cannot make it inside
    /// its transaction. Makes it in the background, then seals the addresses left in clear
    /// meanwhile (once per organisation at a time).
    fn key_made_later(&self, tenant_id: i64) {
        if !lock(&self.keys_coming).insert(tenant_id) {
            return;
        }
        let (keys, coming) = (self.keys.clone(), self.keys_coming.clone());
        // Holds the keys (and so the store) only while it works, not while it waits.
        tokio::spawn(async move {
            let made = match keys.upgrade() {
                Some(keys) => keys.kek_for_writing(tenant_id).await.map(|_| ()),
                None => Ok(()),
            };
            if let Err(error) = made {
                tracing::warn!(%error, tenant_id, "an organisation's key could not be made");
            } else {
                for wait in LATE_SEALING_AFTER {
                    tokio::time::sleep(wait).await;
                    let Some(keys) = keys.upgrade() else { break };
                    let tenant = signet_domain::TenantId::from(tenant_id);
                    if let Err(error) = keys.store.seal_tenant_openings_in_clear(tenant).await {
                        tracing::warn!(%error, tenant_id, "addresses left in clear could not be sealed yet");
                    }
                }
            }
            lock(&coming).remove(&tenant_id);
        });
    }

    fn keys(&self) -> Result<Arc<StoreDataKeys>, signet_domain::Error> {
        self.keys.upgrade().ok_or_else(|| signet_domain::Error::internal("the data keys are gone"))
    }

    fn aad(tenant_id: i64, column: &str) -> String {
        format!("signet field v1|{tenant_id}|{column}")
    }

    async fn seal_text(
        &self,
        tenant_id: i64,
        column: &'static str,
        plain: &str,
    ) -> Result<String, signet_domain::Error> {
        if !self.seal_writes {
            return Ok(plain.to_owned());
        }
        if column == CHAIN_IP_COLUMN {
            return self.seal_under_kek(tenant_id, column, plain).await;
        }
        let data_key =
            self.keys()?.writing_key(KeyOwner::Tenant(tenant_id)).await.map_err(signet_domain::Error::internal)?;
        let key = SealingKey::from_key(data_key.field_key()?);
        let sealed = key
            .seal(&Self::aad(tenant_id, column), plain.as_bytes())
            .ok_or_else(|| signet_domain::Error::internal("a field could not be sealed"))?;
        let body = STANDARD.encode(sealed);
        Ok(format!("{SEALED_PREFIX}{}:{body}", data_key.id()))
    }

    async fn open_text(
        &self,
        tenant_id: i64,
        column: &'static str,
        stored: &str,
    ) -> Result<String, signet_domain::Error> {
        let broken = || signet_domain::Error::internal(format!("a sealed {column} is malformed"));
        let rest = stored.strip_prefix(SEALED_PREFIX).ok_or_else(broken)?;
        let (id, body) = rest.split_once(':').ok_or_else(broken)?;
        if id == KEK_SEALED {
            return self.open_under_kek(tenant_id, column, body).await;
        }
        let id: u64 = id.parse().map_err(|_| broken())?;
        let bytes = STANDARD.decode(body).map_err(|_| broken())?;
        let key = SealingKey::from_key(
            self.keys()?.reading_key(id).await.map_err(signet_domain::Error::internal)?.field_key()?,
        );
        let plain = key
            .open(&Self::aad(tenant_id, column), &bytes)
            .ok_or_else(|| signet_domain::Error::internal(format!("a sealed {column} did not open")))?;
        String::from_utf8(plain).map_err(|_| broken())
    }
}

impl FieldSealer {
    /// `sealed:v1:k:<base64>` under the organisation's KEK's field key. The platform's own
    /// entries (organisation 0, no KEK) keep their text as it is.
    async fn seal_under_kek(
        &self,
        tenant_id: i64,
        column: &'static str,
        plain: &str,
    ) -> Result<String, signet_domain::Error> {
        if tenant_id <= 0 {
            return Ok(plain.to_owned());
        }
        // The vault file first (no database read: this runs inside a writing transaction, and
        // many at once must not wait for connections they hold); a new organisation's first
        // entry makes its key.
        let keys = self.keys()?;
        let kek = match keys.kek(tenant_id) {
            Ok(kek) => kek,
            // Every organisation has its key from its creation or from the start
            // (`make_missing_keks`); making one here would read the database inside this
            // transaction. One without (created by a tool that does not seal) gets it in the
            // background, and this address is sealed after.
            Err(MasterKeyError::VaultMissing(..)) => {
                self.key_made_later(tenant_id);
                return Ok(plain.to_owned());
            }
            Err(e) => return Err(signet_domain::Error::internal(e)),
        };
        let sealed = kek
            .fields
            .seal(&Self::aad(tenant_id, column), plain.as_bytes())
            .ok_or_else(|| signet_domain::Error::internal("a field could not be sealed"))?;
        Ok(format!("{SEALED_PREFIX}{KEK_SEALED}:{}", STANDARD.encode(sealed)))
    }

    async fn open_under_kek(
        &self,
        tenant_id: i64,
        column: &'static str,
        body: &str,
    ) -> Result<String, signet_domain::Error> {
        let broken = || signet_domain::Error::internal(format!("a sealed {column} is malformed"));
        let bytes = STANDARD.decode(body).map_err(|_| broken())?;
        let kek = self.keys()?.kek(tenant_id).map_err(signet_domain::Error::internal)?;
        let plain = kek
            .fields
            .open(&Self::aad(tenant_id, column), &bytes)
            .ok_or_else(|| signet_domain::Error::internal(format!("a sealed {column} did not open")))?;
        String::from_utf8(plain).map_err(|_| broken())
    }
}

/// What names the KEK's field key in a sealed field, where a data key's id would be.
const KEK_SEALED: &str = "k";

impl FieldCipher for FieldSealer {
    fn seal<'a>(
        &'a self,
        tenant_id: i64,
        column: &'static str,
        plain: &'a str,
    ) -> FieldFuture<'a, signet_store::Result<String>> {
        Box::pin(self.seal_text(tenant_id, column, plain))
    }

    fn open<'a>(
        &'a self,
        tenant_id: i64,
        column: &'static str,
        stored: &'a str,
    ) -> FieldFuture<'a, signet_store::Result<String>> {
        Box::pin(self.open_text(tenant_id, column, stored))
    }

    fn prepare_tenant(&self, tenant_id: i64) -> signet_store::Result<()> {
        if !self.seal_writes || tenant_id <= 0 {
            return Ok(());
        }
        self.keys()?.new_tenant_kek(tenant_id).map(|_| ()).map_err(signet_domain::Error::internal)
    }
}

/// What [`StoreDataKeys::check`] found: the live data keys, and those that do not unwrap.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyCheck {
    pub live: u64,
    pub failures: Vec<(i64, String)>,
}

/// Why a rotation stopped.
#[derive(Debug, thiserror::Error)]
pub enum RotateError {
    #[error(transparent)]
    Store(#[from] signet_domain::Error),
    #[error(transparent)]
    Key(#[from] MasterKeyError),
}

impl DataKeys for StoreDataKeys {
    fn for_writing(&self, owner: KeyOwner) -> BoxFuture<'_, Result<Arc<DataKey>, KeyError>> {
        self.writing_key(owner).boxed()
    }

    fn by_id(&self, id: u64) -> BoxFuture<'_, Result<Arc<DataKey>, KeyError>> {
        self.reading_key(id).boxed()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn key_error(error: impl std::fmt::Display) -> KeyError {
    KeyError::new(error.to_string())
}

/// A failure of the keys' store: an outage of the database stays one, so that a blob operation
/// that needed the key answers 503 (the fault run met a 500 on an upload while PostgreSQL was
/// cut off).
fn store_key_error(error: signet_domain::Error) -> KeyError {
    KeyError { unavailable: error.code() == signet_domain::ErrorCode::ServiceUnavailable, message: error.to_string() }
}

fn current_year() -> i64 {
    i64::from(time::OffsetDateTime::now_utc().year())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_wrap_for_their_owner_and_year_only() -> Result<(), MasterKeyError> {
        let text = format!("{}\n# older\n{}\n", MasterKey::generate_text()?, MasterKey::generate_text()?);
        let keys = MasterKeys::parse(&text)?;
        assert_eq!(keys.len(), 2);
        assert_ne!(keys[0].id, keys[1].id);
        let secret = [7u8; KEY_BYTES];
        let wrapped = keys[0].wrap(&secret, 4, 2026)?;
        assert_eq!(keys[0].unwrap(&wrapped, 4, 2026)?, secret);
        assert!(keys[0].unwrap(&wrapped, 5, 2026).is_err(), "unwrapped for another organisation");
        assert!(keys[0].unwrap(&wrapped, 4, 2025).is_err(), "unwrapped for another year");
        assert!(keys[1].unwrap(&wrapped, 4, 2026).is_err(), "unwrapped by another master key");
        assert!(MasterKeys::parse("not base64!").is_err());
        assert!(MasterKeys::parse(&STANDARD.encode([1u8; 16])).is_err(), "a 16-byte key was taken");
        assert!(MasterKeys::parse("# nothing\n").is_err());
        Ok(())
    }
}
