//! The key vault: one small file per organisation, `<vault>/tenant-<id>.key`, holding its
//! key-encryption key (KEK) sealed by the master key. The organisation's data keys are wrapped
//! by its KEK (`platform::data_keys`), so destroying this one file, which is never in the
//! database nor in a backup, makes every copy of its data keys useless, backups taken before
//! included: crypto-shredding.
//!
//! The vault only keeps files; sealing and opening the KEK is `platform::data_keys`' business.
//! A file is `signet kek v1 <master key id> <base64 nonce | ciphertext | tag>` on one line.
//!
//! - A file is made with create-new semantics: written whole under a temporary name, fsynced,
//!   then hard-linked to its name, which fails if the name exists; so two instances racing to
//!   make one keep the first, and the other reads that one back. The folder is fsynced after.
//! - Replacing a file (a master key rotation) and destroying one take the vault's lock
//!   (`.lock`, an advisory file lock), so a rotation never writes back a file just destroyed.
//! - Destroying overwrites the file with zeros, fsyncs, unlinks it and fsyncs the folder. On
//!   copy-on-write file systems and SSDs the old blocks may survive the overwrite; the unlink is
//!   what the design relies on, together with keeping the vault out of backups.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first words of a vault file.
const MAGIC: &str = "signet kek v1";
/// The lock file that replacing and destroying take.
const LOCK_FILE: &str = ".lock";

/// Why the vault could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum VaultError {
    #[error("key vault {0}: {1}")]
    Io(PathBuf, #[source] std::io::Error),
    #[error("key vault file {0} is malformed")]
    Malformed(PathBuf),
}

/// A vault file as stored: the id of the master key that sealed the KEK, and the sealed bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VaultEntry {
    pub master_id: String,
    pub sealed: Vec<u8>,
}

impl VaultEntry {
    fn text(&self) -> String {
        use base64::Engine;
        format!("{MAGIC} {} {}\n", self.master_id, base64::engine::general_purpose::STANDARD.encode(&self.sealed))
    }

    fn parse(text: &str) -> Option<VaultEntry> {
        use base64::Engine;
        let rest = text.trim().strip_prefix(MAGIC)?;
        let mut words = rest.split_whitespace();
        let (master_id, body) = (words.next()?, words.next()?);
        if words.next().is_some() {
            return None;
        }
        let sealed = base64::engine::general_purpose::STANDARD.decode(body).ok()?;
        Some(VaultEntry { master_id: master_id.to_string(), sealed })
    }
}

/// The vault folder.
#[derive(Debug, Clone)]
pub struct KeyVault {
    dir: PathBuf,
}

impl KeyVault {
    pub fn new(dir: PathBuf) -> KeyVault {
        KeyVault { dir }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of organisation `tenant_id`.
    pub fn path(&self, tenant_id: i64) -> PathBuf {
        self.dir.join(format!("tenant-{tenant_id}.key"))
    }

    fn io(&self, path: &Path) -> impl Fn(std::io::Error) -> VaultError {
        let path = path.to_path_buf();
        move |e| VaultError::Io(path.clone(), e)
    }

    /// The organisation's entry, `None` when it has no file.
    pub fn read(&self, tenant_id: i64) -> Result<Option<VaultEntry>, VaultError> {
        let path = self.path(tenant_id);
        match std::fs::read_to_string(&path) {
            Ok(text) => VaultEntry::parse(&text).map(Some).ok_or(VaultError::Malformed(path)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(VaultError::Io(path, e)),
        }
    }

    /// Keeps `entry` as the organisation's file unless it has one; answers the one kept (the
    /// other writer's, when it won the race).
    pub fn create(&self, tenant_id: i64, entry: &VaultEntry) -> Result<VaultEntry, VaultError> {
        self.ensure_dir()?;
        let path = self.path(tenant_id);
        let temporary = self.write_temporary(tenant_id, &entry.text())?;
        let linked = std::fs::hard_link(&temporary, &path);
        let _ = std::fs::remove_file(&temporary);
        match linked {
            Ok(()) => {
                self.sync_dir()?;
                Ok(entry.clone())
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                self.read(tenant_id)?.ok_or(VaultError::Io(path, e))
            }
            Err(e) => Err(VaultError::Io(path, e)),
        }
    }

    /// Replaces the organisation's file with `new` if it still holds `old` (a rotation); answers
    /// whether it did: a file destroyed or replaced meanwhile is left as it is.
    pub fn replace(&self, tenant_id: i64, old: &VaultEntry, new: &VaultEntry) -> Result<bool, VaultError> {
        let _lock = self.lock()?;
        if self.read(tenant_id)?.as_ref() != Some(old) {
            return Ok(false);
        }
        let path = self.path(tenant_id);
        let temporary = self.write_temporary(tenant_id, &new.text())?;
        std::fs::rename(&temporary, &path).map_err(self.io(&path))?;
        self.sync_dir()?;
        Ok(true)
    }

    /// Destroys the organisation's file: overwritten, fsynced, unlinked, the folder fsynced.
    /// Answers whether there was one (a re-run finds none).
    pub fn destroy(&self, tenant_id: i64) -> Result<bool, VaultError> {
        if !self.dir.exists() {
            return Ok(false);
        }
        let _lock = self.lock()?;
        let path = self.path(tenant_id);
        let length = match std::fs::metadata(&path) {
            Ok(meta) => meta.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(VaultError::Io(path, e)),
        };
        {
            let mut file = OpenOptions::new().write(true).open(&path).map_err(self.io(&path))?;
            let zeros = vec![0u8; usize::try_from(length).unwrap_or(0)];
            file.write_all(&zeros).map_err(self.io(&path))?;
            file.sync_all().map_err(self.io(&path))?;
        }
        std::fs::remove_file(&path).map_err(self.io(&path))?;
        self.sync_dir()?;
        Ok(true)
    }

    /// The organisations that have a file, by id.
    pub fn tenants(&self) -> Result<Vec<i64>, VaultError> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(VaultError::Io(self.dir.clone(), e)),
        };
        let mut ids = Vec::new();
        for entry in entries {
            let name = entry.map_err(self.io(&self.dir))?.file_name();
            let id = name.to_str().and_then(|n| n.strip_prefix("tenant-")?.strip_suffix(".key")?.parse::<i64>().ok());
            ids.extend(id);
        }
        ids.sort_unstable();
        Ok(ids)
    }

    fn ensure_dir(&self) -> Result<(), VaultError> {
        if self.dir.is_dir() {
            return Ok(());
        }
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(&self.dir).map_err(self.io(&self.dir))
    }

    /// `text` under a fresh temporary name in the vault, mode 0600, fsynced.
    fn write_temporary(&self, tenant_id: i64, text: &str) -> Result<PathBuf, VaultError> {
        let nonce = hex::encode(crate::platform::secrets::random_bytes::<8>());
        let path = self.dir.join(format!(".tenant-{tenant_id}.{nonce}.tmp"));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&path).map_err(self.io(&path))?;
        file.write_all(text.as_bytes()).map_err(self.io(&path))?;
        file.sync_all().map_err(self.io(&path))?;
        Ok(path)
    }

    fn sync_dir(&self) -> Result<(), VaultError> {
        File::open(&self.dir).and_then(|dir| dir.sync_all()).map_err(self.io(&self.dir))
    }

    /// The vault's advisory lock, held until the answer is dropped.
    fn lock(&self) -> Result<File, VaultError> {
        self.ensure_dir()?;
        let path = self.dir.join(LOCK_FILE);
        let file = OpenOptions::new().create(true).truncate(false).write(true).open(&path).map_err(self.io(&path))?;
        file.lock().map_err(self.io(&path))?;
        Ok(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(master: &str, byte: u8) -> VaultEntry {
        VaultEntry { master_id: master.into(), sealed: vec![byte; 60] }
    }

    #[test]
    fn a_file_is_made_once_replaced_only_if_unchanged_and_destroyed_for_good() -> Result<(), VaultError> {
        let dir = tempfile::tempdir().map_err(|e| VaultError::Io(PathBuf::new(), e))?;
        let vault = KeyVault::new(dir.path().join("vault"));
        assert_eq!(vault.read(3)?, None);
        assert_eq!(vault.create(3, &entry("aa", 1))?, entry("aa", 1));
        assert_eq!(vault.create(3, &entry("bb", 2))?, entry("aa", 1), "the second maker reads the first one back");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(vault.path(3)).map_err(vault.io(dir.path()))?.permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(!vault.replace(3, &entry("zz", 9), &entry("cc", 3))?, "replaced though it changed");
        assert!(vault.replace(3, &entry("aa", 1), &entry("cc", 3))?);
        assert_eq!(vault.read(3)?, Some(entry("cc", 3)));
        assert_eq!(vault.tenants()?, vec![3]);
        assert!(vault.destroy(3)?);
        assert!(!vault.destroy(3)?, "a second destruction finds nothing");
        assert_eq!(vault.read(3)?, None);
        assert!(!vault.replace(3, &entry("cc", 3), &entry("dd", 4))?, "a rotation brought a destroyed file back");
        assert_eq!(vault.read(3)?, None);
        assert!(vault.tenants()?.is_empty());
        std::fs::write(vault.path(4), "not a vault file").map_err(vault.io(dir.path()))?;
        assert!(matches!(vault.read(4), Err(VaultError::Malformed(_))));
        Ok(())
    }
}
