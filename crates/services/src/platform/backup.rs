//! Backup and restore of the embedded default: the SQLite database and the local blob folder
//! (`signet backup`, `signet restore`). PostgreSQL and S3 have their own tools (README, "Backup
//! and restore"), so both are refused here with that pointer.
//!
//! A backup is taken while `serve` runs and writes continue: the database first, as one
//! consistent snapshot, then the blob folder's files. Blobs are written before the rows that
//! name them, so every blob the snapshot names is already there when the folder is copied;
//! files that appear later are copied too and are simply not named. The files are copied as
//! stored, byte for byte (encrypted at rest stays encrypted). A manifest lists every file with
//! its size and SHA-256; restore refuses a backup that does not match it.
//!
//! Both write into a fresh folder beside their target and rename it into place at the end, so
//! an interrupted backup or restore never looks complete.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use signet_blob::{BlobKey, BlobStore};
use signet_domain::now_millis;
use signet_store::{Backend, Store};

use crate::platform::config::Config;

/// The manifest's file name, at the backup's root.
pub const MANIFEST: &str = "manifest.json";
/// What the manifest's `format` says; another value is refused.
const FORMAT: &str = "signet-backup-1";
/// Where the database and the blobs are inside a backup.
const DATABASE: &str = "signet.db";
const BLOBS: &str = "blobs";
/// Where the README explains backups of PostgreSQL and S3.
pub const README_SECTION: &str = "README.md, section \"Backup and restore\"";

/// Why a backup or restore was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0} is not the embedded default; back it up with its own tools (see {README_SECTION})")]
    NotEmbedded(&'static str),
    #[error("restore writes the embedded default layout: the database and the blob folder inside the data folder {0}")]
    OutsideDataDir(PathBuf),
    #[error("the backup cannot go inside the blob folder it copies ({0})")]
    InsideBlobs(PathBuf),
    #[error("{0} exists and is not empty")]
    NotEmpty(PathBuf),
    #[error("the backup does not match its manifest: {0}")]
    Manifest(String),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("the database snapshot failed: {0}")]
    Snapshot(signet_domain::Error),
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> BackupError + '_ {
    move |source| BackupError::Io { path: path.to_path_buf(), source }
}

/// Where the embedded default keeps its data.
#[derive(Debug, Clone)]
pub struct Layout {
    pub data_dir: PathBuf,
    /// The SQLite database file.
    pub database: PathBuf,
    /// The local blob folder.
    pub blobs: PathBuf,
}

impl Layout {
    /// The layout `config` describes, or why it is not the embedded default.
    pub fn of(config: &Config, blob: &BlobStore) -> Result<Layout, BackupError> {
        let url = config.database_url();
        let Some(database) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) else {
            return Err(BackupError::NotEmbedded("the PostgreSQL database"));
        };
        let database = PathBuf::from(database.split('?').next().unwrap_or(database));
        let Some(blobs) = blob.local_folder() else {
            return Err(BackupError::NotEmbedded("an S3 blob store"));
        };
        Ok(Layout { data_dir: config.data_dir.clone(), database, blobs: blobs.to_path_buf() })
    }

    /// The database's and the blob folder's places inside the data folder, for restore.
    fn inside_data_dir(&self) -> Result<(PathBuf, PathBuf), BackupError> {
        let outside = || BackupError::OutsideDataDir(self.data_dir.clone());
        let data_dir = absolute(&self.data_dir).map_err(|_| outside())?;
        let database = absolute(&self.database).map_err(|_| outside())?;
        let blobs = absolute(&self.blobs).map_err(|_| outside())?;
        let database = database.strip_prefix(&data_dir).map_err(|_| outside())?.to_path_buf();
        let blobs = blobs.strip_prefix(&data_dir).map_err(|_| outside())?.to_path_buf();
        if blobs.as_os_str().is_empty() || database.starts_with(&blobs) {
            return Err(outside());
        }
        Ok((database, blobs))
    }
}

/// The path made absolute with symbolic links resolved as far as it exists (the blob folder is
/// canonical; the data folder may not exist yet).
fn absolute(path: &Path) -> io::Result<PathBuf> {
    let path = std::path::absolute(path)?;
    let mut existing = path.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        rest.push(existing.file_name().ok_or_else(|| io::Error::other("no existing parent"))?.to_owned());
        existing = existing.parent().ok_or_else(|| io::Error::other("no existing parent"))?;
    }
    let mut resolved = fs::canonicalize(existing)?;
    resolved.extend(rest.iter().rev());
    Ok(resolved)
}

/// One file of a backup: its path inside the backup (`/`-separated), size and SHA-256 (hex).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFile {
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Manifest {
    format: String,
    created_at: i64,
    files: Vec<ManifestFile>,
}

/// What a backup holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupSummary {
    pub database_bytes: u64,
    pub blobs: u64,
    pub blob_bytes: u64,
    /// Files that were in the folder when it was listed and gone when they were copied.
    pub vanished: u64,
}

/// Takes a backup of the embedded default into `to` (absent or empty) while others keep
/// writing.
pub async fn backup(store: &Store, layout: &Layout, to: &Path) -> Result<BackupSummary, BackupError> {
    if store.backend() != Backend::Sqlite {
        return Err(BackupError::NotEmbedded("the PostgreSQL database"));
    }
    if absolute(to).map_err(io_at(to))?.starts_with(&layout.blobs) {
        return Err(BackupError::InsideBlobs(layout.blobs.clone()));
    }
    refuse_non_empty(to)?;
    let staging = beside(to, "partial")?;
    fs::create_dir_all(&staging).map_err(io_at(&staging))?;
    let taken = take(store, layout, &staging).await;
    let placed = taken.and_then(|summary| {
        remove_if_empty(to)?;
        fs::rename(&staging, to).map_err(io_at(to))?;
        Ok(summary)
    });
    if placed.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    placed
}

async fn take(store: &Store, layout: &Layout, staging: &Path) -> Result<BackupSummary, BackupError> {
    let database = staging.join(DATABASE);
    store.snapshot_into(&database).await.map_err(BackupError::Snapshot)?;
    let (blobs, staging) = (layout.blobs.clone(), staging.to_path_buf());
    tokio::task::spawn_blocking(move || copy_into_backup(&blobs, &staging))
        .await
        .map_err(|error| BackupError::Io { path: layout.blobs.clone(), source: io::Error::other(error) })?
}

/// After the snapshot: hashes it, copies the blob folder, writes the manifest.
fn copy_into_backup(blobs: &Path, staging: &Path) -> Result<BackupSummary, BackupError> {
    let database = staging.join(DATABASE);
    let database_file = copy_hashed(&database, None)?;
    let mut summary = BackupSummary { database_bytes: database_file.1, blobs: 0, blob_bytes: 0, vanished: 0 };
    let mut files = vec![ManifestFile { path: DATABASE.into(), size: database_file.1, sha256: database_file.0 }];
    for key in blob_files(blobs)? {
        let source = blobs.join(&key);
        let target = staging.join(BLOBS).join(&key);
        match copy_hashed(&source, Some(&target)) {
            Ok((sha256, size)) => {
                summary.blobs += 1;
                summary.blob_bytes += size;
                files.push(ManifestFile { path: format!("{BLOBS}/{key}"), size, sha256 });
            }
            // Deleted since it was listed: a file whose row went before the snapshot.
            Err(BackupError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => summary.vanished += 1,
            Err(error) => return Err(error),
        }
    }
    let manifest = Manifest { format: FORMAT.into(), created_at: now_millis(), files };
    let path = staging.join(MANIFEST);
    let json =
        serde_json::to_vec_pretty(&manifest).map_err(|e| BackupError::Io { path: path.clone(), source: e.into() })?;
    write_synced(&path, &json)?;
    Ok(summary)
}

/// The keys of every object in the blob folder, sorted. Files whose path is not a key (the
/// store's own temporary files of writes in progress) are left out.
fn blob_files(root: &Path) -> Result<Vec<String>, BackupError> {
    let mut keys = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).map_err(io_at(&folder))? {
            let entry = entry.map_err(io_at(&folder))?;
            let kind = entry.file_type().map_err(io_at(&entry.path()))?;
            if kind.is_dir() {
                folders.push(entry.path());
            } else if kind.is_file()
                && let Some(key) = relative_key(root, &entry.path())
            {
                keys.push(key);
            }
        }
    }
    keys.sort();
    Ok(keys)
}

fn relative_key(root: &Path, path: &Path) -> Option<String> {
    let relative = path.strip_prefix(root).ok()?;
    let segments: Option<Vec<&str>> = relative.iter().map(|s| s.to_str()).collect();
    BlobKey::new(segments?).ok().map(|key| key.as_str().to_string())
}

/// What a restore put in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoreSummary {
    pub files: u64,
    pub bytes: u64,
    /// Where the data folder that was there before went (with `force`).
    pub set_aside: Option<PathBuf>,
}

/// Restores the backup in `from` into the embedded default `layout`. A data folder that holds
/// anything is replaced only with `force`, and then kept beside it under another name.
pub fn restore(from: &Path, layout: &Layout, force: bool) -> Result<RestoreSummary, BackupError> {
    let (database, blobs) = layout.inside_data_dir()?;
    if !force {
        refuse_non_empty(&layout.data_dir)?;
    }
    let manifest = read_manifest(from)?;
    let staging = beside(&layout.data_dir, "restoring")?;
    let placed = copy_from_backup(from, &manifest, &staging, &database, &blobs)
        .and_then(|summary| put_in_place(&staging, &layout.data_dir, summary));
    if placed.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    placed
}

fn read_manifest(from: &Path) -> Result<Manifest, BackupError> {
    let path = from.join(MANIFEST);
    let bytes = fs::read(&path).map_err(io_at(&path))?;
    let manifest: Manifest =
        serde_json::from_slice(&bytes).map_err(|e| BackupError::Manifest(format!("{MANIFEST} is unreadable: {e}")))?;
    if manifest.format != FORMAT {
        return Err(BackupError::Manifest(format!("format {:?}, expected {FORMAT:?}", manifest.format)));
    }
    if !manifest.files.iter().any(|f| f.path == DATABASE) {
        return Err(BackupError::Manifest(format!("{DATABASE} is not listed")));
    }
    let mut listed: Vec<&str> = manifest.files.iter().map(|f| f.path.as_str()).collect();
    listed.push(MANIFEST);
    listed.sort_unstable();
    let mut present = vec![MANIFEST.to_string(), DATABASE.to_string()];
    if from.join(BLOBS).is_dir() {
        present.extend(blob_files(&from.join(BLOBS))?.into_iter().map(|key| format!("{BLOBS}/{key}")));
    }
    present.sort_unstable();
    if let Some(extra) = present.iter().find(|p| listed.binary_search(&p.as_str()).is_err()) {
        return Err(BackupError::Manifest(format!("{extra} is not listed")));
    }
    Ok(manifest)
}

/// Copies every listed file into `staging`, each checked against its size and hash.
fn copy_from_backup(
    from: &Path,
    manifest: &Manifest,
    staging: &Path,
    database: &Path,
    blobs: &Path,
) -> Result<RestoreSummary, BackupError> {
    fs::create_dir_all(staging).map_err(io_at(staging))?;
    let mut summary = RestoreSummary { files: 0, bytes: 0, set_aside: None };
    for file in &manifest.files {
        let target = if file.path == DATABASE {
            staging.join(database)
        } else {
            let key = file
                .path
                .strip_prefix(&format!("{BLOBS}/"))
                .and_then(|key| BlobKey::parse(key).ok())
                .ok_or_else(|| BackupError::Manifest(format!("{} is not a file a backup holds", file.path)))?;
            staging.join(blobs).join(key.as_str())
        };
        let source = from.join(&file.path);
        let (sha256, size) = match copy_hashed(&source, Some(&target)) {
            Err(BackupError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                return Err(BackupError::Manifest(format!("{} is missing", file.path)));
            }
            copied => copied?,
        };
        if sha256 != file.sha256 || size != file.size {
            return Err(BackupError::Manifest(format!("{} has changed (SHA-256 {sha256})", file.path)));
        }
        summary.files += 1;
        summary.bytes += size;
    }
    fs::create_dir_all(staging.join(blobs)).map_err(io_at(staging))?;
    Ok(summary)
}

/// Moves the restored folder to the data folder's place; what was there is set aside.
fn put_in_place(staging: &Path, data_dir: &Path, mut summary: RestoreSummary) -> Result<RestoreSummary, BackupError> {
    if !remove_if_empty(data_dir)? {
        let aside = beside(data_dir, "before-restore")?;
        fs::rename(data_dir, &aside).map_err(io_at(data_dir))?;
        summary.set_aside = Some(aside);
    }
    fs::rename(staging, data_dir).map_err(io_at(data_dir))?;
    Ok(summary)
}

/// Refuses a folder that holds any file (empty folders do not count: opening the blob store
/// makes its folder).
fn refuse_non_empty(dir: &Path) -> Result<(), BackupError> {
    if holds_files(dir)? { Err(BackupError::NotEmpty(dir.to_path_buf())) } else { Ok(()) }
}

/// Removes `dir` if it holds no file; answers whether it is gone (or was never there).
fn remove_if_empty(dir: &Path) -> Result<bool, BackupError> {
    if holds_files(dir)? {
        return Ok(false);
    }
    match fs::remove_dir_all(dir) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => {
            Err(BackupError::Io { path: dir.to_path_buf(), source: error })
        }
        _ => Ok(true),
    }
}

/// Whether `dir` or any folder in it holds something other than a folder.
fn holds_files(dir: &Path) -> Result<bool, BackupError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(error) => return Err(BackupError::Io { path: dir.to_path_buf(), source: error }),
    };
    for entry in entries {
        let entry = entry.map_err(io_at(dir))?;
        let is_dir = entry.file_type().map_err(io_at(&entry.path()))?.is_dir();
        if !is_dir || holds_files(&entry.path())? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// A fresh sibling of `path` named `<name>.<what>-<millis>` (same file system, so a rename
/// moves it into place at once).
fn beside(path: &Path, what: &str) -> Result<PathBuf, BackupError> {
    let name = path
        .file_name()
        .ok_or_else(|| BackupError::Io { path: path.to_path_buf(), source: io::Error::other("names no folder") })?;
    let mut sibling = name.to_os_string();
    sibling.push(format!(".{what}-{}", now_millis()));
    Ok(path.with_file_name(sibling))
}

/// Reads `source` whole, writing it to `target` if given (parents made, synced); answers the
/// SHA-256 (hex) and size of the bytes read.
fn copy_hashed(source: &Path, target: Option<&Path>) -> Result<(String, u64), BackupError> {
    let mut input = File::open(source).map_err(io_at(source))?;
    let mut output = match target {
        Some(target) => {
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent).map_err(io_at(parent))?;
            }
            Some((File::create(target).map_err(io_at(target))?, target))
        }
        None => None,
    };
    let mut digest = aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA256);
    let mut buffer = vec![0_u8; 64 * 1024];
    let mut size = 0_u64;
    loop {
        let read = input.read(&mut buffer).map_err(io_at(source))?;
        if read == 0 {
            break;
        }
        digest.update(&buffer[..read]);
        if let Some((file, target)) = output.as_mut() {
            file.write_all(&buffer[..read]).map_err(io_at(target))?;
        }
        size += read as u64;
    }
    if let Some((file, target)) = output {
        file.sync_all().map_err(io_at(target))?;
    }
    Ok((hex::encode(digest.finish().as_ref()), size))
}

fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), BackupError> {
    let mut file = File::create(path).map_err(io_at(path))?;
    file.write_all(bytes).map_err(io_at(path))?;
    file.sync_all().map_err(io_at(path))
}
