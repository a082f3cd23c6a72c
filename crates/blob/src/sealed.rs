//! Envelope encryption of stored objects: AES-256-GCM under a data key per owner (an
//! organisation, or the platform) and year, streamed in authenticated chunks.
//!
//! An encrypted object is a 48-byte header followed by chunks:
//!
//! ```text
//! magic (8: 0x89 "SGNENC" 0x01) | data key id (8, big-endian) | salt (32, random per object)
//! chunk 0 | chunk 1 | ... | chunk n-1        each: up to CHUNK plaintext bytes + 16-byte tag
//! ```
//!
//! - The object's own AES key is HKDF-SHA256(data key, salt, info = "signet blob v1" + the
//!   object's [`BlobKey`]): a fresh key per object (so GCM nonces can be a plain counter) that
//!   only opens the object under the key it was written to: a blob copied or swapped to
//!   another key fails authentication.
//! - Chunk `i`'s nonce is `0^7 | i (u32, big-endian) | last (1 byte)`, and every chunk
//!   authenticates the header: chunks cannot be reordered, dropped, or the object cut short
//!   without the read failing (the STREAM construction of Hoang, Reyhanitabar, Rogaway and
//!   Vizár).
//! - Only full chunks are held in memory, so a 100 MB document is read and written in 64 KiB
//!   steps, as before.
//!
//! The data keys themselves live elsewhere (wrapped by a master key, see [`DataKeys`]); this
//! module only names them by id.

use std::fmt;
use std::sync::Arc;

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use aws_lc_rs::hkdf::{HKDF_SHA256, Salt};
use bytes::{Bytes, BytesMut};
use futures_util::future::BoxFuture;

use crate::{BlobKey, Error, Result};

/// Plaintext bytes per chunk.
pub const CHUNK: usize = 64 * 1024;
/// Bytes of a GCM tag.
const TAG: usize = 16;
/// The first bytes of every encrypted object: not text, not a PDF, not a ZIP.
pub const MAGIC: [u8; 8] = [0x89, b'S', b'G', b'N', b'E', b'N', b'C', 0x01];
/// Bytes of the header: magic, data key id, salt.
pub const HEADER: usize = 8 + 8 + 32;
const INFO: &[u8] = b"signet blob v1\0";

/// Whose data key an object is sealed with: the organisation the object belongs to, read
/// from its key (`tenant/N/...`, `exports/N/...`), or the platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyOwner {
    Platform,
    Tenant(i64),
}

impl KeyOwner {
    /// The owner of the object under `key`.
    pub fn of(key: &BlobKey) -> KeyOwner {
        let mut segments = key.segments();
        match (segments.next(), segments.next().map(str::parse::<i64>)) {
            (Some("tenant" | "exports"), Some(Ok(id))) => KeyOwner::Tenant(id),
            _ => KeyOwner::Platform,
        }
    }

    /// The tenant id, 0 for the platform (how the key table stores it).
    pub fn tenant_id(self) -> i64 {
        match self {
            KeyOwner::Platform => 0,
            KeyOwner::Tenant(id) => id,
        }
    }
}

/// A data key: its id (written in every object's header) and its 32 secret bytes.
pub struct DataKey {
    id: u64,
    secret: [u8; 32],
}

impl DataKey {
    pub fn new(id: u64, secret: [u8; 32]) -> DataKey {
        DataKey { id, secret }
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// The AES key of the object under `blob` with this header's salt.
    fn object_key(&self, salt: &[u8], blob: &BlobKey) -> Result<LessSafeKey> {
        let info = [INFO, blob.as_str().as_bytes()];
        let prk = Salt::new(HKDF_SHA256, salt).extract(&self.secret);
        let okm = prk
            .expand(&info, &AES_256_GCM)
            .map_err(|_| Error::Sealed { key: blob.to_string(), reason: "key derivation failed" })?;
        Ok(LessSafeKey::new(UnboundKey::from(okm)))
    }
}

impl DataKey {
    /// The AES key of short values sealed one by one (personal fields in the database): its
    /// own key, derived from this one, so that it never meets an object's nonces.
    pub fn field_key(&self) -> Result<LessSafeKey> {
        let prk = Salt::new(HKDF_SHA256, b"signet field v1").extract(&self.secret);
        let okm = prk
            .expand(&[], &AES_256_GCM)
            .map_err(|_| Error::Sealed { key: String::new(), reason: "key derivation failed" })?;
        Ok(LessSafeKey::new(UnboundKey::from(okm)))
    }
}

impl Drop for DataKey {
    fn drop(&mut self) {
        // Not a guarantee (copies may have been made by moves), but the kept copy goes.
        self.secret.iter_mut().for_each(|b| *b = 0);
    }
}

impl fmt::Debug for DataKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DataKey").field("id", &self.id).finish_non_exhaustive()
    }
}

/// Where data keys come from: the one for writing an owner's objects now, and any by id for
/// reading. Implemented over the database (keys wrapped by the master key) by the services.
pub trait DataKeys: Send + Sync {
    /// The key new objects of `owner` are sealed with.
    fn for_writing(&self, owner: KeyOwner) -> BoxFuture<'_, Result<Arc<DataKey>, KeyError>>;
    /// The key with `id`, to open an object sealed with it.
    fn by_id(&self, id: u64) -> BoxFuture<'_, Result<Arc<DataKey>, KeyError>>;
}

/// Why a data key could not be had (its text is for the log).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct KeyError {
    /// What failed.
    pub message: String,
    /// The keys' store (the database) did not answer: a retry may succeed.
    pub unavailable: bool,
}

impl KeyError {
    /// A key that cannot be had, for good.
    pub fn new(message: impl Into<String>) -> Self {
        KeyError { message: message.into(), unavailable: false }
    }
}

/// Whether `bytes` start like an encrypted object.
pub fn is_sealed(bytes: &[u8]) -> bool {
    bytes.len() >= MAGIC.len() && bytes[..MAGIC.len()] == MAGIC
}

/// A parsed header.
pub(crate) struct Header {
    bytes: [u8; HEADER],
}

impl Header {
    fn fresh(data_key: &DataKey) -> Result<Header> {
        let mut bytes = [0u8; HEADER];
        bytes[..8].copy_from_slice(&MAGIC);
        bytes[8..16].copy_from_slice(&data_key.id.to_be_bytes());
        aws_lc_rs::rand::fill(&mut bytes[16..])
            .map_err(|_| Error::Sealed { key: String::new(), reason: "no randomness for the salt" })?;
        Ok(Header { bytes })
    }

    /// The header at the start of `bytes`, if they are an encrypted object's.
    pub(crate) fn read(bytes: &[u8]) -> Option<Header> {
        if !is_sealed(bytes) || bytes.len() < HEADER {
            return None;
        }
        let mut header = [0u8; HEADER];
        header.copy_from_slice(&bytes[..HEADER]);
        Some(Header { bytes: header })
    }

    pub(crate) fn key_id(&self) -> u64 {
        let mut id = [0u8; 8];
        id.copy_from_slice(&self.bytes[8..16]);
        u64::from_be_bytes(id)
    }

    fn salt(&self) -> &[u8] {
        &self.bytes[16..]
    }
}

/// The plaintext size of an encrypted object of `sealed_size` bytes (header included), or
/// `None` when no chunking gives that size.
pub fn plaintext_size(sealed_size: u64) -> Option<u64> {
    let body = sealed_size.checked_sub(HEADER as u64)?;
    let chunks = body.div_ceil((CHUNK + TAG) as u64).max(1);
    body.checked_sub(chunks * TAG as u64)
}

/// The sealed size of `plaintext` bytes.
pub fn sealed_size(plaintext: u64) -> u64 {
    let chunks = plaintext.div_ceil(CHUNK as u64).max(1);
    HEADER as u64 + plaintext + chunks * TAG as u64
}

fn nonce(index: u32, last: bool) -> Nonce {
    let mut nonce = [0u8; 12];
    nonce[7..11].copy_from_slice(&index.to_be_bytes());
    nonce[11] = u8::from(last);
    Nonce::assume_unique_for_key(nonce)
}

/// Seals chunks of one object in order.
pub(crate) struct Sealer {
    key: LessSafeKey,
    header: Header,
    index: u32,
    blob: String,
}

impl Sealer {
    pub(crate) fn new(data_key: &DataKey, blob: &BlobKey) -> Result<Sealer> {
        let header = Header::fresh(data_key)?;
        let key = data_key.object_key(header.salt(), blob)?;
        Ok(Sealer { key, header, index: 0, blob: blob.to_string() })
    }

    pub(crate) fn header(&self) -> Bytes {
        Bytes::copy_from_slice(&self.header.bytes)
    }

    /// Encrypts `chunk` (at most [`CHUNK`] bytes) in place and answers its tag.
    pub(crate) fn seal(&mut self, chunk: &mut [u8], last: bool) -> Result<[u8; TAG]> {
        let failed = || Error::Sealed { key: self.blob.clone(), reason: "encryption failed" };
        let tag = self
            .key
            .seal_in_place_separate_tag(nonce(self.index, last), Aad::from(&self.header.bytes[..]), chunk)
            .map_err(|_| failed())?;
        self.index = self.index.checked_add(1).ok_or_else(failed)?;
        let mut out = [0u8; TAG];
        out.copy_from_slice(tag.as_ref());
        Ok(out)
    }

    /// Seals a whole object given as one buffer, in place when the buffer is not shared: the
    /// parts to write, in order (no copy of a 100 MB document is made).
    pub(crate) fn seal_all(mut self, plaintext: Bytes) -> Result<Vec<Bytes>> {
        let mut buffer = plaintext.try_into_mut().unwrap_or_else(|shared| BytesMut::from(&shared[..]));
        let total = buffer.len();
        let chunks = total.div_ceil(CHUNK).max(1);
        let mut parts = Vec::with_capacity(1 + 2 * chunks);
        parts.push(self.header());
        for index in 0..chunks {
            let len = (total - index * CHUNK).min(CHUNK);
            let mut chunk = buffer.split_to(len);
            let tag = self.seal(&mut chunk, index + 1 == chunks)?;
            parts.push(chunk.freeze());
            parts.push(Bytes::copy_from_slice(&tag));
        }
        Ok(parts)
    }
}

/// Opens the chunks of one object in order.
pub(crate) struct Opener {
    key: LessSafeKey,
    header: [u8; HEADER],
    index: u32,
    /// Chunks (with their tags) still to come.
    remaining: u64,
    blob: String,
}

impl Opener {
    /// An opener for an object of `sealed_size` bytes whose header is `header`.
    pub(crate) fn new(data_key: &DataKey, header: &Header, sealed_size: u64, blob: &BlobKey) -> Result<Opener> {
        let broken = |reason| Error::Sealed { key: blob.to_string(), reason };
        plaintext_size(sealed_size).ok_or_else(|| broken("its size is not that of an encrypted object"))?;
        let body = sealed_size - HEADER as u64;
        let key = data_key.object_key(header.salt(), blob)?;
        Ok(Opener {
            key,
            header: header.bytes,
            index: 0,
            remaining: body.div_ceil((CHUNK + TAG) as u64).max(1),
            blob: blob.to_string(),
        })
    }

    /// Whether every chunk has been opened.
    pub(crate) fn done(&self) -> bool {
        self.remaining == 0
    }

    /// The sealed length of the next chunk, given the sealed bytes still unread.
    pub(crate) fn next_len(&self, unread: u64) -> usize {
        if self.remaining <= 1 { usize::try_from(unread).unwrap_or(usize::MAX) } else { CHUNK + TAG }
    }

    /// The error of an object whose bytes ended before its last chunk.
    pub(crate) fn cut_short(&self) -> Error {
        Error::Sealed { key: self.blob.clone(), reason: "cut short" }
    }

    /// Decrypts one chunk (ciphertext and tag) in place; answers the plaintext's length.
    pub(crate) fn open(&mut self, chunk: &mut [u8]) -> Result<usize> {
        let failed = |reason| Error::Sealed { key: self.blob.clone(), reason };
        if self.remaining == 0 {
            return Err(failed("more bytes than its chunks"));
        }
        let last = self.remaining == 1;
        let opened = self
            .key
            .open_in_place(nonce(self.index, last), Aad::from(&self.header[..]), chunk)
            .map_err(|_| failed("a chunk failed authentication (altered, moved or cut short)"))?
            .len();
        self.index = self.index.wrapping_add(1);
        self.remaining -= 1;
        Ok(opened)
    }

    /// Opens a whole sealed object held in one buffer, in place.
    pub(crate) fn open_all(mut self, sealed: Bytes) -> Result<Bytes> {
        let mut buffer = sealed.try_into_mut().unwrap_or_else(|shared| BytesMut::from(&shared[..]));
        let total = buffer.len();
        let mut read = HEADER;
        let mut written = 0;
        while !self.done() {
            let len = self.next_len((total - read) as u64);
            let end = read
                .checked_add(len)
                .filter(|end| *end <= total)
                .ok_or(Error::Sealed { key: self.blob.clone(), reason: "cut short" })?;
            let opened = self.open(&mut buffer[read..end])?;
            buffer.copy_within(read..read + opened, written);
            written += opened;
            read = end;
        }
        buffer.truncate(written);
        Ok(buffer.freeze())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: u64) -> DataKey {
        DataKey::new(id, [id as u8; 32])
    }

    fn seal(data_key: &DataKey, blob: &BlobKey, plain: &[u8]) -> Vec<u8> {
        let parts =
            Sealer::new(data_key, blob).and_then(|s| s.seal_all(Bytes::copy_from_slice(plain))).expect("sealed");
        parts.concat()
    }

    fn open(data_key: &DataKey, blob: &BlobKey, sealed: &[u8]) -> Result<Bytes> {
        let header = Header::read(sealed).expect("header");
        Opener::new(data_key, &header, sealed.len() as u64, blob)?.open_all(Bytes::copy_from_slice(sealed))
    }

    #[test]
    fn sizes_round_trip_at_chunk_edges() {
        for plain in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 17] {
            let sealed = sealed_size(plain as u64);
            assert_eq!(plaintext_size(sealed), Some(plain as u64), "plaintext {plain}");
        }
        assert_eq!(plaintext_size(HEADER as u64 + 15), None);
    }

    #[test]
    fn objects_open_and_refuse_tampering_swaps_and_truncation() -> Result<()> {
        let a = BlobKey::parse("tenant/7/doc/a")?;
        let b = BlobKey::parse("tenant/7/doc/b")?;
        let dk = key(3);
        for len in [0, 5, CHUNK, 2 * CHUNK + 9] {
            let plain: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let sealed = seal(&dk, &a, &plain);
            assert_eq!(sealed.len() as u64, sealed_size(len as u64));
            assert_eq!(open(&dk, &a, &sealed)?.as_ref(), &plain[..]);
            assert!(open(&dk, &b, &sealed).is_err(), "opened under another key");
            assert!(open(&key(4), &a, &sealed).is_err(), "opened with another data key");
            let mut flipped = sealed.clone();
            let at = HEADER + len / 2;
            flipped[at] ^= 1;
            assert!(open(&dk, &a, &flipped).is_err(), "a flipped bit passed");
            if len > CHUNK {
                let cut = &sealed[..HEADER + CHUNK + TAG];
                assert!(open(&dk, &a, cut).is_err(), "a cut at a chunk boundary passed");
            }
        }
        Ok(())
    }

    #[test]
    fn owners_come_from_the_key() -> Result<()> {
        assert_eq!(KeyOwner::of(&BlobKey::parse("tenant/42/doc/x")?), KeyOwner::Tenant(42));
        assert_eq!(KeyOwner::of(&BlobKey::parse("exports/9/x.csv")?), KeyOwner::Tenant(9));
        assert_eq!(KeyOwner::of(&BlobKey::parse("platform/x")?), KeyOwner::Platform);
        assert_eq!(KeyOwner::of(&BlobKey::parse("tenant/x")?), KeyOwner::Platform);
        Ok(())
    }
}
