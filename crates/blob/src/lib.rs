//! signet-blob: where Signet keeps document bytes.
//!
//! One cloneable handle, [`BlobStore`], over three backends chosen by a URL
//! (see [`BlobStore::from_url`]):
//!
//! | URL | backend |
//! |---|---|
//! | `blobs`, `./blobs`, `/abs/path`, `file:///abs/path` | local folder (relative paths are under the data dir; created if missing) |
//! | `s3://bucket/prefix?endpoint=..&region=..&allow_http=true` | S3-compatible object storage |
//! | `memory://` | in-process memory (tests) |
//!
//! Objects are addressed by [`BlobKey`]s, which only Signet builds: every segment is
//! `[A-Za-z0-9._-]{1,128}`, never starts with `.` and never contains `..`, so a key can not
//! leave the store's root (no path traversal) and user file names are never used as keys.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::path::Path as ObjectPath;
use object_store::prefix::PrefixStore;
use object_store::{ObjectMeta, ObjectStore, ObjectStoreExt, PutPayload, RetryConfig, WriteMultipart};

pub mod sealed;
pub use sealed::{DataKey, DataKeys, KeyError, KeyOwner};
use sealed::{Header, Opener, Sealer};

/// In a use case a blob failure is never the client's: keys are built by Signet and the store
/// is the operator's. A store that does not answer (network, time-out, a bucket it refuses) is
/// a temporary outage the client may retry (503); anything else is internal. The cause is kept
/// for the log either way.
impl From<Error> for signet_domain::Error {
    fn from(error: Error) -> Self {
        if error.is_unavailable() {
            tracing::warn!(%error, "the blob store is not reachable");
            return signet_domain::Error::rejected(
                signet_domain::ErrorCode::ServiceUnavailable,
                "the document store is not reachable; try again shortly",
            );
        }
        signet_domain::Error::internal(error)
    }
}

impl Error {
    /// Whether the backend did not answer or failed on its side: a retry may succeed once it
    /// is back. A missing object, a bad key or a sealed object that does not open is not.
    pub fn is_unavailable(&self) -> bool {
        match self {
            Error::Backend { source, .. } => !matches!(
                source,
                object_store::Error::NotFound { .. }
                    | object_store::Error::InvalidPath { .. }
                    | object_store::Error::NotSupported { .. }
                    | object_store::Error::NotImplemented { .. }
            ),
            Error::Timeout(_) => true,
            Error::Key { source, .. } => source.unavailable,
            _ => false,
        }
    }
}

/// An object's bytes, chunk by chunk.
pub type ByteStream = BoxStream<'static, Result<Bytes>>;

/// Result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Errors of the blob store.
///
/// Display texts never contain credentials (they are meant for logs, not for API bodies).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A key segment broke the key rules (a programming error: keys are built by Signet).
    #[error("invalid blob key: {reason}")]
    InvalidKey {
        /// Why the key was refused.
        reason: &'static str,
    },
    /// No object under this key.
    #[error("blob not found: {key}")]
    NotFound {
        /// The key that was asked for.
        key: String,
    },
    /// The blob store URL could not be used (configuration error).
    #[error("invalid blob store URL: {0}")]
    InvalidUrl(String),
    /// The local folder could not be created or is not usable.
    #[error("blob folder {path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The backend failed (network, permissions, disk, missing bucket, ...).
    #[error("blob store {op} failed: {source}")]
    Backend {
        /// The operation (`put`, `get`, `delete`, `exists`, `check`, `open`).
        op: &'static str,
        /// The cause.
        #[source]
        source: object_store::Error,
    },
    /// The backend did not answer in time (reachability check).
    #[error("blob store did not answer within {0:?}")]
    Timeout(Duration),
    /// An encrypted object could not be opened (altered, moved, cut short) or sealed.
    #[error("blob {key}: {reason}")]
    Sealed {
        /// The object's key.
        key: String,
        /// What failed.
        reason: &'static str,
    },
    /// The data key of an object could not be had.
    #[error("blob {key}: data key: {source}")]
    Key {
        /// The object's key.
        key: String,
        /// The cause.
        #[source]
        source: KeyError,
    },
    /// An object is stored in clear where every object must be encrypted (all were encrypted
    /// once, so one in clear was put there by someone else).
    #[error("blob {key} is not encrypted, and every object must be")]
    Plaintext {
        /// The object's key.
        key: String,
    },
}

impl Error {
    /// True for [`Error::NotFound`].
    pub fn is_not_found(&self) -> bool {
        matches!(self, Error::NotFound { .. })
    }
}

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

/// The address of an object: `/`-separated segments built by Signet, never from user input
/// such as file names. Example: `BlobKey::new(["tenant", "42", "doc", &uuid])`.
///
/// Rules for each segment: 1 to [`BlobKey::MAX_SEGMENT_LEN`] characters from
/// `[A-Za-z0-9._-]`, not starting with `.` (so never `.`, `..` or a hidden file), and not
/// containing `..`. The whole key is at most [`BlobKey::MAX_LEN`] bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlobKey(String);

impl BlobKey {
    /// Longest allowed segment.
    pub const MAX_SEGMENT_LEN: usize = 128;
    /// Longest allowed key (S3 allows 1024 bytes including the store's prefix).
    pub const MAX_LEN: usize = 900;

    /// Build a key from its segments, validating each one.
    pub fn new<I, S>(segments: I) -> Result<Self>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut key = String::new();
        for segment in segments {
            let segment = segment.as_ref();
            validate_segment(segment)?;
            if !key.is_empty() {
                key.push('/');
            }
            key.push_str(segment);
            if key.len() > Self::MAX_LEN {
                return Err(Error::InvalidKey { reason: "key too long" });
            }
        }
        if key.is_empty() {
            return Err(Error::InvalidKey { reason: "a key needs at least one segment" });
        }
        Ok(Self(key))
    }

    /// Parse a key previously rendered with [`BlobKey::as_str`] (e.g. read back from the
    /// database). Applies the same rules as [`BlobKey::new`]; empty segments (`a//b`, a
    /// leading or trailing `/`) are refused.
    pub fn parse(key: &str) -> Result<Self> {
        Self::new(key.split('/'))
    }

    /// A key with one more segment.
    pub fn join(&self, segment: impl AsRef<str>) -> Result<Self> {
        Self::new(self.segments().chain(std::iter::once(segment.as_ref())))
    }

    /// The key as `seg/seg/seg`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The segments of the key.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }

    fn to_object_path(&self) -> Result<ObjectPath> {
        // Cannot fail for a validated key; map the error anyway instead of unwrapping.
        ObjectPath::parse(&self.0).map_err(|_| Error::InvalidKey { reason: "not a valid object path" })
    }
}

impl fmt::Display for BlobKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for BlobKey {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl FromStr for BlobKey {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Self::parse(s)
    }
}

fn validate_segment(segment: &str) -> Result<()> {
    let reason = if segment.is_empty() {
        "empty segment"
    } else if segment.len() > BlobKey::MAX_SEGMENT_LEN {
        "segment too long"
    } else if !segment.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')) {
        "segment has a character outside [A-Za-z0-9._-]"
    } else if segment.starts_with('.') {
        "segment starts with '.'"
    } else if segment.contains("..") {
        "segment contains '..'"
    } else {
        return Ok(());
    };
    Err(Error::InvalidKey { reason })
}

// ---------------------------------------------------------------------------------------------
// Store
// ---------------------------------------------------------------------------------------------

/// Which kind of backend a [`BlobStore`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BackendKind {
    /// A local folder.
    Local,
    /// S3-compatible object storage.
    S3,
    /// In-process memory (tests).
    Memory,
}

/// A cloneable handle to the blob store (cheap to clone: an `Arc`).
#[derive(Clone)]
pub struct BlobStore {
    inner: Arc<dyn ObjectStore>,
    kind: BackendKind,
    /// Human-readable, credential-free description (for logs and start-up output).
    description: Arc<str>,
    /// The folder of a local store (checked by [`BlobStore::check`]).
    local_root: Option<Arc<Path>>,
    /// Envelope encryption, when configured ([`BlobStore::sealed_with`]).
    sealing: Option<Arc<Sealing>>,
}

/// How a store encrypts: its data keys, whether new objects are sealed, and whether objects
/// in clear are still read (while an installation is being migrated, or with writing in clear).
struct Sealing {
    keys: Arc<dyn DataKeys>,
    seal_writes: bool,
    accept_plaintext: AtomicBool,
}

/// What [`BlobStore::sealed_with`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SealingOptions {
    /// New objects are encrypted (off only to compare speeds, or to leave encryption).
    pub seal_writes: bool,
    /// Objects in clear are read as they are (until every object has been encrypted).
    pub accept_plaintext: bool,
}

impl fmt::Debug for BlobStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Hand-written so that no backend's configuration (credentials) can leak.
        f.debug_struct("BlobStore").field("kind", &self.kind).field("description", &self.description).finish()
    }
}

impl fmt::Display for BlobStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

/// How long [`BlobStore::check`] waits for the backend.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(5);

/// Query parameters accepted on an `s3://` URL.
pub const S3_QUERY_PARAMS: &[&str] = &[
    "endpoint",
    "region",
    "allow_http",
    "access_key_id",
    "secret_access_key",
    "session_token",
    "virtual_hosted_style_request",
];

impl BlobStore {
    /// Open the store described by `url`:
    ///
    /// - `memory://`: in-process memory, for tests;
    /// - `s3://BUCKET[/PREFIX][?endpoint=URL&region=R&allow_http=true&access_key_id=..&secret_access_key=..&session_token=..&virtual_hosted_style_request=false]`:
    ///   S3-compatible storage. Credentials, region and endpoint come from the standard
    ///   `AWS_*` environment variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    ///   `AWS_SESSION_TOKEN`, `AWS_DEFAULT_REGION`, `AWS_ENDPOINT`, `AWS_ALLOW_HTTP`, ...);
    ///   query parameters override them. With an `endpoint`, requests are path-style.
    ///   Unknown query parameters are refused (typos should not pass silently);
    /// - `file:///ABS/PATH`, or a plain path: a local folder; a relative plain path is taken
    ///   under `data_dir`. The folder is created if missing; writes are fsynced.
    ///
    /// No network access happens here; use [`BlobStore::check`] to test reachability.
    pub fn from_url(url: &str, data_dir: &Path) -> Result<Self> {
        let url = url.trim();
        if url.is_empty() {
            return Err(Error::InvalidUrl("empty".into()));
        }
        let Some((scheme, _)) = url.split_once("://") else {
            let path = Path::new(url);
            let dir = if path.is_absolute() { path.to_path_buf() } else { data_dir.join(path) };
            return Self::local(&dir);
        };
        match scheme.to_ascii_lowercase().as_str() {
            "memory" => {
                if url.len() > "memory://".len() {
                    return Err(Error::InvalidUrl("memory:// takes no host, path or parameters".into()));
                }
                Ok(Self::memory())
            }
            "file" => {
                let parsed = url::Url::parse(url).map_err(|e| Error::InvalidUrl(format!("file URL: {e}")))?;
                if parsed.query().is_some() || parsed.fragment().is_some() {
                    return Err(Error::InvalidUrl("file URL takes no query or fragment".into()));
                }
                let dir = parsed.to_file_path().map_err(|()| {
                    Error::InvalidUrl(
                        "file URL must be file:///absolute/path (use a plain path for a \
                         folder relative to the data directory)"
                            .into(),
                    )
                })?;
                Self::local(&dir)
            }
            "s3" => Self::s3(url),
            other => Err(Error::InvalidUrl(format!(
                "unsupported scheme {other:?} (use a folder path, file://, s3:// or memory://)"
            ))),
        }
    }

    /// A local folder store rooted at `dir` (created if missing).
    pub fn local(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(|source| Error::Folder { path: dir.to_path_buf(), source })?;
        let root = std::fs::canonicalize(dir).map_err(|source| Error::Folder { path: dir.to_path_buf(), source })?;
        let fs = LocalFileSystem::new_with_prefix(&root)
            .map_err(|source| Error::Backend { op: "open", source })?
            .with_fsync(true)
            .with_automatic_cleanup(true);
        Ok(Self {
            inner: Arc::new(fs),
            kind: BackendKind::Local,
            description: format!("local folder {}", root.display()).into(),
            local_root: Some(root.into()),
            sealing: None,
        })
    }

    /// An in-memory store (for tests; contents die with the last clone).
    pub fn memory() -> Self {
        Self {
            inner: Arc::new(InMemory::new()),
            kind: BackendKind::Memory,
            description: "memory://".into(),
            local_root: None,
            sealing: None,
        }
    }

    // Long on purpose: one pass over the URL's parts and its query parameters, each refused
    // with its own message; split up, the checks would be spread away from the URL they read.
    fn s3(url: &str) -> Result<Self> {
        let parsed = url::Url::parse(url).map_err(|e| Error::InvalidUrl(format!("s3 URL: {e}")))?;
        if !parsed.username().is_empty() || parsed.password().is_some() || parsed.port().is_some() {
            return Err(Error::InvalidUrl(
                "s3 URL is s3://BUCKET/PREFIX; pass credentials as query parameters or AWS_* \
                 environment variables"
                    .into(),
            ));
        }
        if parsed.fragment().is_some() {
            return Err(Error::InvalidUrl("s3 URL takes no fragment".into()));
        }
        let bucket = match parsed.host_str() {
            Some(b) if !b.is_empty() => b.to_owned(),
            _ => return Err(Error::InvalidUrl("s3 URL has no bucket".into())),
        };
        // The prefix from the raw text: `Url` would resolve `..` and percent-escapes, and we
        // want those refused, not reinterpreted.
        let raw_path = url.split_once("://").map(|(_, rest)| rest).unwrap_or_default();
        let raw_path = raw_path.split(['?', '#']).next().unwrap_or_default();
        let prefix_str = raw_path.split_once('/').map(|(_, p)| p.trim_end_matches('/')).unwrap_or_default();
        let prefix = if prefix_str.is_empty() {
            None
        } else {
            let key = BlobKey::parse(prefix_str)
                .map_err(|e| Error::InvalidUrl(format!("s3 prefix {prefix_str:?} is not allowed: {e}")))?;
            Some(key.to_object_path()?)
        };

        let mut builder = AmazonS3Builder::from_env().with_bucket_name(&bucket).with_retry(RetryConfig {
            backoff: Default::default(),
            max_retries: 3,
            retry_timeout: Duration::from_secs(20),
        });
        let mut endpoint_desc = None;
        let mut seen: Vec<String> = Vec::new();
        for (name, value) in parsed.query_pairs() {
            if seen.iter().any(|s| *s == name) {
                return Err(Error::InvalidUrl(format!("s3 query parameter {name:?} given twice")));
            }
            seen.push(name.to_string());
            let value = value.into_owned();
            builder = match name.as_ref() {
                "endpoint" => {
                    let ep = url::Url::parse(&value)
                        .map_err(|e| Error::InvalidUrl(format!("s3 endpoint is not a URL: {e}")))?;
                    if !matches!(ep.scheme(), "http" | "https") {
                        return Err(Error::InvalidUrl("s3 endpoint must be an http:// or https:// URL".into()));
                    }
                    endpoint_desc = Some(ep.origin().ascii_serialization());
                    builder.with_endpoint(value)
                }
                "region" => builder.with_region(value),
                "allow_http" => builder.with_allow_http(parse_bool("allow_http", &value)?),
                "virtual_hosted_style_request" => {
                    builder.with_virtual_hosted_style_request(parse_bool("virtual_hosted_style_request", &value)?)
                }
                "access_key_id" => builder.with_access_key_id(value),
                "secret_access_key" => builder.with_secret_access_key(value),
                "session_token" => builder.with_token(value),
                other => {
                    return Err(Error::InvalidUrl(format!(
                        "unknown s3 query parameter {other:?} (known: {})",
                        S3_QUERY_PARAMS.join(", ")
                    )));
                }
            };
        }
        let s3 = builder.build().map_err(|source| Error::Backend { op: "open", source })?;

        let mut description = format!("s3://{bucket}");
        if let Some(p) = &prefix {
            description.push('/');
            description.push_str(p.as_ref());
        }
        if let Some(ep) = endpoint_desc {
            description.push_str(" at ");
            description.push_str(&ep);
        }
        let inner: Arc<dyn ObjectStore> = match prefix {
            Some(p) => Arc::new(PrefixStore::new(s3, p)),
            None => Arc::new(s3),
        };
        Ok(Self { inner, kind: BackendKind::S3, description: description.into(), local_root: None, sealing: None })
    }

    /// The kind of backend.
    pub fn kind(&self) -> BackendKind {
        self.kind
    }

    /// The folder of a local store, where each object is the file at its key's path (backups
    /// copy these files as they are); `None` for other backends.
    pub fn local_folder(&self) -> Option<&Path> {
        self.local_root.as_deref()
    }

    /// A credential-free description, e.g. `local folder /srv/signet-data/blobs` or
    /// `s3://bucket/prefix at http://127.0.0.1:9000`.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// This store, encrypting what it writes and opening what it reads with `keys` (see
    /// [`sealed`]). Objects in clear are read only while `options.accept_plaintext` holds.
    pub fn sealed_with(mut self, keys: Arc<dyn DataKeys>, options: SealingOptions) -> Self {
        self.sealing = Some(Arc::new(Sealing {
            keys,
            seal_writes: options.seal_writes,
            accept_plaintext: AtomicBool::new(options.accept_plaintext),
        }));
        self
    }

    /// Stops (or starts again) reading objects in clear: once every object has been
    /// encrypted, one in clear was put there by someone else and is refused.
    pub fn accept_plaintext(&self, accept: bool) {
        if let Some(sealing) = &self.sealing {
            sealing.accept_plaintext.store(accept, Ordering::Release);
        }
    }

    /// Whether new objects are encrypted.
    pub fn seals_writes(&self) -> bool {
        self.sealing.as_ref().is_some_and(|s| s.seal_writes)
    }

    /// The same objects, as stored: written and read without encryption (to encrypt objects
    /// in clear, or to copy a store as it is).
    pub fn raw(&self) -> BlobStore {
        BlobStore { sealing: None, ..self.clone() }
    }

    /// Store `bytes` under `key`, replacing any previous object. Atomic: readers see the old
    /// or the new object, never a partial one. On a local folder the write is fsynced.
    pub async fn put(&self, key: &BlobKey, bytes: Bytes) -> Result<()> {
        let path = key.to_object_path()?;
        let payload = match self.sealer(key).await? {
            Some(sealer) => sealer.seal_all(bytes)?.into_iter().collect(),
            None => PutPayload::from_bytes(bytes),
        };
        self.inner.put(&path, payload).await.map(|_| ()).map_err(|e| map_err("put", key, e))
    }

    /// The bytes under `key`; [`Error::NotFound`] if there are none.
    pub async fn get(&self, key: &BlobKey) -> Result<Bytes> {
        let path = key.to_object_path()?;
        let result = self.inner.get(&path).await.map_err(|e| map_err("get", key, e))?;
        let size = result.meta.size;
        let bytes = result.bytes().await.map_err(|e| map_err("get", key, e))?;
        let Some(sealing) = &self.sealing else { return Ok(bytes) };
        match Header::read(&bytes) {
            Some(header) => self.opener(sealing, &header, size, key).await?.open_all(bytes),
            None => sealing.plaintext(key).map(|()| bytes),
        }
    }

    /// A writer that stores an object under `key` in parts as it is written, so that a large
    /// object (an export) is never held whole in memory. The object appears, whole, when
    /// [`BlobWriter::finish`] succeeds; until then readers see the old object or none.
    pub async fn writer(&self, key: &BlobKey) -> Result<BlobWriter> {
        let path = key.to_object_path()?;
        let sealer = self.sealer(key).await?;
        let upload = self.inner.put_multipart(&path).await.map_err(|e| map_err("put", key, e))?;
        let mut inner = WriteMultipart::new_with_chunk_size(upload, WRITER_PART);
        if let Some(sealer) = &sealer {
            inner.put(sealer.header());
        }
        let sealing = sealer.map(|sealer| (sealer, BytesMut::new()));
        Ok(BlobWriter { inner, key: key.clone(), sealing })
    }

    /// The object under `key` as a stream of chunks (read as it is sent, never whole), with
    /// its size; [`Error::NotFound`] if there is none.
    pub async fn get_stream(&self, key: &BlobKey) -> Result<(u64, ByteStream)> {
        let path = key.to_object_path()?;
        let result = self.inner.get(&path).await.map_err(|e| map_err("get", key, e))?;
        let size = result.meta.size;
        let owned = key.clone();
        let mut stream = result.into_stream().map(move |chunk| chunk.map_err(|e| map_err("get", &owned, e))).boxed();
        let Some(sealing) = &self.sealing else { return Ok((size, stream)) };
        // The first bytes say whether the object is encrypted.
        let mut start = BytesMut::new();
        while start.len() < sealed::HEADER {
            match stream.next().await {
                Some(chunk) => start.extend_from_slice(&chunk?),
                None => break,
            }
        }
        let Some(header) = Header::read(&start) else {
            sealing.plaintext(key)?;
            let start = futures_util::stream::once(futures_util::future::ready(Ok(start.freeze())));
            return Ok((size, start.chain(stream).boxed()));
        };
        let opener = self.opener(sealing, &header, size, key).await?;
        let plain_size = sealed::plaintext_size(size).unwrap_or_default();
        let rest = start.split_off(sealed::HEADER);
        Ok((plain_size, open_stream(opener, rest, stream, size - sealed::HEADER as u64)))
    }

    /// Makes sure writing under `key` needs nothing more from the data keys' database (the
    /// key is fetched, or made, now): for a write inside a database transaction, which must
    /// not wait for another connection (SQLite has one writer).
    pub async fn ready_to_write(&self, key: &BlobKey) -> Result<()> {
        self.sealer(key).await.map(|_| ())
    }

    /// The sealer of a new object under `key`, when writes are encrypted.
    async fn sealer(&self, key: &BlobKey) -> Result<Option<Sealer>> {
        let Some(sealing) = self.sealing.as_ref().filter(|s| s.seal_writes) else { return Ok(None) };
        let data_key = sealing
            .keys
            .for_writing(KeyOwner::of(key))
            .await
            .map_err(|source| Error::Key { key: key.to_string(), source })?;
        Sealer::new(&data_key, key).map(Some)
    }

    async fn opener(&self, sealing: &Sealing, header: &Header, size: u64, key: &BlobKey) -> Result<Opener> {
        let data_key =
            sealing.keys.by_id(header.key_id()).await.map_err(|source| Error::Key { key: key.to_string(), source })?;
        Opener::new(&data_key, header, size, key)
    }

    /// Encrypts every object stored in clear, one by one (an installation from before
    /// encryption, or one that wrote in clear for a while). Resumable: an interrupted pass
    /// leaves each object in clear or encrypted, whole, and the next pass goes on. An object
    /// changed while it was being encrypted is left for the next pass (the new bytes win).
    pub async fn seal_in_clear(&self) -> Result<SealPass> {
        let mut pass = SealPass::default();
        if !self.seals_writes() {
            return Ok(pass);
        }
        let raw = self.raw();
        let mut listing = raw.inner.list(None);
        while let Some(meta) = listing.next().await {
            let meta = meta.map_err(|source| Error::Backend { op: "list", source })?;
            let Ok(key) = BlobKey::parse(meta.location.as_ref()) else {
                tracing_skip(&meta);
                pass.left += 1;
                continue;
            };
            if raw.starts_sealed(&key, meta.size).await? {
                pass.already += 1;
                continue;
            }
            match self.seal_one(&raw, &key, &meta).await {
                Ok(true) => pass.sealed += 1,
                Ok(false) => pass.left += 1,
                Err(error) if error.is_not_found() => {}
                Err(error) => return Err(error),
            }
        }
        Ok(pass)
    }

    /// Encrypts one object in clear in place; `false` when it changed meanwhile.
    async fn seal_one(&self, raw: &BlobStore, key: &BlobKey, listed: &ObjectMeta) -> Result<bool> {
        let (_, mut plain) = raw.get_stream(key).await?;
        let mut writer = self.writer(key).await?;
        while let Some(chunk) = plain.next().await {
            match chunk {
                Ok(chunk) => writer.write(chunk).await?,
                Err(error) => {
                    let _ = writer.abort().await;
                    return Err(error);
                }
            }
        }
        let path = key.to_object_path()?;
        let now = self.inner.head(&path).await.map_err(|e| map_err("get", key, e))?;
        if now.last_modified != listed.last_modified || now.e_tag != listed.e_tag || now.size != listed.size {
            writer.abort().await?;
            return Ok(false);
        }
        writer.finish().await?;
        Ok(true)
    }

    /// Whether the object under `key`, of `size` bytes (already known from a listing), is
    /// stored encrypted: one ranged read of its first bytes.
    async fn starts_sealed(&self, key: &BlobKey, size: u64) -> Result<bool> {
        let path = key.to_object_path()?;
        if size < sealed::HEADER as u64 {
            return Ok(false);
        }
        let start =
            self.inner.get_range(&path, 0..sealed::MAGIC.len() as u64).await.map_err(|e| map_err("get", key, e))?;
        Ok(sealed::is_sealed(&start))
    }

    /// Delete the object under `key`. Idempotent: deleting a missing object succeeds.
    pub async fn delete(&self, key: &BlobKey) -> Result<()> {
        let path = key.to_object_path()?;
        match self.inner.delete(&path).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(source) => Err(Error::Backend { op: "delete", source }),
        }
    }

    /// Deletes every object under `prefix` (whole segments: `tenant/4` does not reach
    /// `tenant/42`) and answers how many. Idempotent; an object written under the prefix while
    /// the listing runs may stay, so callers delete a prefix only once nothing writes there.
    pub async fn delete_under(&self, prefix: &BlobKey) -> Result<u64> {
        let path = prefix.to_object_path()?;
        let mut listing = self.inner.list(Some(&path));
        let mut deleted = 0;
        while let Some(meta) = listing.next().await {
            let meta = meta.map_err(|source| Error::Backend { op: "list", source })?;
            match self.inner.delete(&meta.location).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => deleted += 1,
                Err(source) => return Err(Error::Backend { op: "delete", source }),
            }
        }
        Ok(deleted)
    }

    /// Whether an object exists under `key`.
    pub async fn exists(&self, key: &BlobKey) -> Result<bool> {
        let path = key.to_object_path()?;
        match self.inner.head(&path).await {
            Ok(_) => Ok(true),
            Err(object_store::Error::NotFound { .. }) => Ok(false),
            Err(source) => Err(Error::Backend { op: "exists", source }),
        }
    }

    /// Reachability check for `/readyz`: the folder exists / the bucket answers a listing.
    /// Read-only; gives up after [`CHECK_TIMEOUT`]. Needs a Tokio runtime with timers
    /// enabled (`#[tokio::main]` enables them).
    pub async fn check(&self) -> Result<()> {
        tokio::time::timeout(CHECK_TIMEOUT, self.check_inner()).await.map_err(|_| Error::Timeout(CHECK_TIMEOUT))?
    }

    async fn check_inner(&self) -> Result<()> {
        if let Some(root) = &self.local_root {
            let meta = tokio::fs::metadata(root.as_ref())
                .await
                .map_err(|source| Error::Folder { path: root.to_path_buf(), source })?;
            if !meta.is_dir() {
                return Err(Error::Folder {
                    path: root.to_path_buf(),
                    source: std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"),
                });
            }
        }
        // One listing request: on S3 this fails if the bucket is missing, unreachable or
        // the credentials are refused.
        self.inner.list_with_delimiter(None).await.map(|_| ()).map_err(|source| Error::Backend { op: "check", source })
    }
}

/// What a pass of [`BlobStore::seal_in_clear`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SealPass {
    /// Objects it encrypted.
    pub sealed: u64,
    /// Objects already encrypted.
    pub already: u64,
    /// Objects left in clear: changed while being encrypted, or stored under a name Signet
    /// does not make.
    pub left: u64,
}

impl SealPass {
    /// Whether every object is now encrypted.
    pub fn all_sealed(&self) -> bool {
        self.left == 0
    }
}

/// An object under a name Signet does not make is not touched (someone else's file).
fn tracing_skip(meta: &ObjectMeta) {
    tracing::warn!(object = %meta.location, "left in clear: not a name Signet makes");
}

/// The size of the parts a [`BlobWriter`] sends (S3 wants at least 5 MiB but the last).
const WRITER_PART: usize = 8 * 1024 * 1024;

/// An object being written in parts (see [`BlobStore::writer`]); at most a part or two of it
/// is in memory at a time.
pub struct BlobWriter {
    inner: WriteMultipart,
    key: BlobKey,
    /// The sealer and the plaintext not yet sealed (less than a chunk, or exactly one: the
    /// last chunk is sealed as such only on [`BlobWriter::finish`]).
    sealing: Option<(Sealer, BytesMut)>,
}

impl fmt::Debug for BlobWriter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlobWriter").field("key", &self.key).finish()
    }
}

impl BlobWriter {
    /// Appends `bytes`, first waiting while two parts are still being sent.
    pub async fn write(&mut self, bytes: Bytes) -> Result<()> {
        self.inner.wait_for_capacity(2).await.map_err(|e| map_err("put", &self.key, e))?;
        let Some((sealer, pending)) = &mut self.sealing else {
            self.inner.put(bytes);
            return Ok(());
        };
        pending.extend_from_slice(&bytes);
        while pending.len() > sealed::CHUNK {
            let mut chunk = pending.split_to(sealed::CHUNK);
            let tag = sealer.seal(&mut chunk, false)?;
            self.inner.put(chunk.freeze());
            self.inner.put(Bytes::copy_from_slice(&tag));
        }
        Ok(())
    }

    /// Completes the object.
    pub async fn finish(mut self) -> Result<()> {
        if let Some((mut sealer, mut last)) = self.sealing.take() {
            let tag = sealer.seal(&mut last, true)?;
            self.inner.put(last.freeze());
            self.inner.put(Bytes::copy_from_slice(&tag));
        }
        let key = self.key;
        self.inner.finish().await.map(|_| ()).map_err(|e| map_err("put", &key, e))
    }

    /// Gives up: nothing is stored.
    pub async fn abort(self) -> Result<()> {
        let key = self.key;
        self.inner.abort().await.map_err(|e| map_err("put", &key, e))
    }
}

impl Sealing {
    /// An object in clear is read only while objects in clear are accepted.
    fn plaintext(&self, key: &BlobKey) -> Result<()> {
        if self.accept_plaintext.load(Ordering::Acquire) {
            Ok(())
        } else {
            Err(Error::Plaintext { key: key.to_string() })
        }
    }
}

/// The plaintext of a sealed object's chunks as they arrive: `start` holds the bytes already
/// read past the header, `stream` the rest, `unread` the sealed bytes past the header in all.
fn open_stream(opener: Opener, start: BytesMut, stream: ByteStream, unread: u64) -> ByteStream {
    let state = Some((opener, start, stream, unread));
    futures_util::stream::unfold(state, |state| async move {
        let (mut opener, mut buffer, mut stream, mut unread) = state?;
        if opener.done() {
            return None;
        }
        let need = opener.next_len(unread);
        while buffer.len() < need {
            match stream.next().await {
                Some(Ok(chunk)) => buffer.extend_from_slice(&chunk),
                Some(Err(error)) => return Some((Err(error), None)),
                None => break,
            }
        }
        if buffer.len() < need {
            return Some((Err(opener.cut_short()), None));
        }
        let mut chunk = buffer.split_to(need);
        unread -= need as u64;
        match opener.open(&mut chunk) {
            Ok(len) => {
                chunk.truncate(len);
                Some((Ok(chunk.freeze()), Some((opener, buffer, stream, unread))))
            }
            Err(error) => Some((Err(error), None)),
        }
    })
    .boxed()
}

fn map_err(op: &'static str, key: &BlobKey, err: object_store::Error) -> Error {
    match err {
        object_store::Error::NotFound { .. } => Error::NotFound { key: key.as_str().to_owned() },
        source => Error::Backend { op, source },
    }
}

fn parse_bool(name: &str, value: &str) -> Result<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" => Ok(true),
        "false" | "0" | "no" => Ok(false),
        _ => Err(Error::InvalidUrl(format!("s3 query parameter {name:?} must be true or false"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_that_does_not_answer_is_an_outage_for_the_use_cases() {
        use signet_domain::ErrorCode;
        let code = |error: Error| signet_domain::Error::from(error).code();
        assert_eq!(code(Error::Timeout(CHECK_TIMEOUT)), ErrorCode::ServiceUnavailable);
        let key_away = KeyError { message: "the database is not reachable".into(), unavailable: true };
        assert_eq!(code(Error::Key { key: "k".into(), source: key_away }), ErrorCode::ServiceUnavailable);
        assert_eq!(code(Error::Key { key: "k".into(), source: KeyError::new("no data key 7") }), ErrorCode::Internal);
        assert_eq!(code(Error::NotFound { key: "k".into() }), ErrorCode::Internal);
    }

    #[test]
    fn keys_accept_our_shapes() -> Result<()> {
        let k = BlobKey::new(["tenant", "42", "doc", "0b6f6f5e-2c4a-4f7e-9a3c-1d2e3f4a5b6c", "v1.pdf"])?;
        assert_eq!(k.as_str(), "tenant/42/doc/0b6f6f5e-2c4a-4f7e-9a3c-1d2e3f4a5b6c/v1.pdf");
        assert_eq!(BlobKey::parse(k.as_str())?, k);
        assert_eq!(k.join("signed_2")?.segments().last(), Some("signed_2"));
        assert_eq!(k.to_object_path()?.as_ref(), k.as_str());
        Ok(())
    }

    #[test]
    fn keys_refuse_traversal_and_odd_segments() {
        let bad_segments = [
            "",
            ".",
            "..",
            "...",
            ".hidden",
            "a..b",
            "a/b",
            "../etc",
            "a\\b",
            "..\\..\\windows",
            "/etc",
            "C:",
            "%2e%2e",
            "a b",
            "a\0b",
            "a\nb",
            "é",
            "ａ",
            "a#b",
            "a?b",
            "*",
            "~",
        ];
        for s in bad_segments {
            assert!(BlobKey::new(["tenant", s]).is_err(), "segment {s:?} was accepted");
        }
        let long = "a".repeat(BlobKey::MAX_SEGMENT_LEN + 1);
        assert!(BlobKey::new([long.as_str()]).is_err());
        let many = vec!["abcdefgh"; 200];
        assert!(BlobKey::new(many).is_err());
        assert!(BlobKey::new(Vec::<&str>::new()).is_err());
        for s in ["", "/a", "a/", "a//b", "a/../b", "../a", "a/./b", "/etc/passwd"] {
            assert!(BlobKey::parse(s).is_err(), "key {s:?} was accepted");
        }
        assert!(BlobKey::parse("a").and_then(|k| k.join("..")).is_err());
    }

    #[test]
    fn urls_are_checked() {
        let dir = std::env::temp_dir();
        for url in [
            "",
            "gs://bucket",
            "http://example.com/x",
            "s3://",
            "s3:///prefix",
            "s3://bucket/../x",
            "s3://bucket/a//b",
            "s3://bucket?bogus=1",
            "s3://bucket?region=a&region=b",
            "s3://bucket?allow_http=maybe",
            "s3://bucket?endpoint=ftp://x",
            "s3://user:pw@bucket",
            "file://relative/path",
            "file:///tmp/x?y=1",
            "memory://something",
        ] {
            assert!(BlobStore::from_url(url, &dir).is_err(), "{url:?} accepted");
        }
        assert!(matches!(BlobStore::from_url("memory://", &dir).map(|s| s.kind()), Ok(BackendKind::Memory)));
    }

    #[test]
    fn s3_description_and_debug_hide_credentials() -> Result<()> {
        let store = BlobStore::from_url(
            "s3://bucket/some/prefix?endpoint=http://127.0.0.1:9/&region=us-east-1&allow_http=true\
             &access_key_id=AKIDSECRETID&secret_access_key=VERYSECRETKEY&session_token=TOKENX",
            Path::new("."),
        )?;
        assert_eq!(store.kind(), BackendKind::S3);
        assert_eq!(store.description(), "s3://bucket/some/prefix at http://127.0.0.1:9");
        for text in [format!("{store:?}"), store.to_string()] {
            for secret in ["AKIDSECRETID", "VERYSECRETKEY", "TOKENX"] {
                assert!(!text.contains(secret), "{secret} leaked in {text}");
            }
        }
        Ok(())
    }
}
