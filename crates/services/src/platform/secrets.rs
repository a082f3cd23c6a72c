//! Random secrets, their storage forms, and password hashing.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use aws_lc_rs::{constant_time, digest, rand};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// `bytes` random bytes from the system CSPRNG, base64url without padding.
pub fn random_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    // The system RNG failing is not recoverable; an all-zero token would be worse than a stop.
    #[allow(clippy::expect_used)]
    rand::fill(&mut buf).expect("system random number generator failed");
    URL_SAFE_NO_PAD.encode(buf)
}

/// `N` random bytes from the system CSPRNG.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    // As for random_token: a failing system RNG is not recoverable.
    #[allow(clippy::expect_used)]
    rand::fill(&mut buf).expect("system random number generator failed");
    buf
}

/// Storage form of a high-entropy secret (refresh tokens, client secrets): a SHA-256 digest.
/// A slow hash adds nothing against guessing 256 random bits.
pub fn hash_token(token: &str) -> String {
    hex::encode(digest::digest(&digest::SHA256, token.as_bytes()).as_ref())
}

/// Whether two secrets presented together are the same (a cookie and its form field), in time
/// independent of where they differ; empty ones never match.
pub fn same_secret(a: &str, b: &str) -> bool {
    !a.is_empty() && constant_time::verify_slices_are_equal(a.as_bytes(), b.as_bytes()).is_ok()
}

pub fn token_matches(token: &str, stored_hash: &str) -> bool {
    constant_time::verify_slices_are_equal(hash_token(token).as_bytes(), stored_hash.as_bytes()).is_ok()
}

/// Why a password could not be hashed (argon2's error kept as the cause).
#[derive(Debug, thiserror::Error)]
#[error("cannot hash password: {0}")]
pub struct HashError(#[source] argon2::password_hash::Error);

/// argon2id PHC string of a password.
pub fn hash_password(password: &str) -> Result<String, HashError> {
    Argon2::default().hash_password(password.as_bytes()).map(|hash| hash.to_string()).map_err(HashError)
}

/// A key that cannot be derived: the label's AES-256 key was refused (a bug: the digest always
/// has the key's length).
#[derive(Debug, thiserror::Error)]
#[error("{label} key")]
pub struct DeriveError {
    label: String,
    #[source]
    cause: aws_lc_rs::error::Unspecified,
}

pub fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc)
        .map(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
        .unwrap_or(false)
}

/// argon2's working memory (19 MiB with the default parameters), kept to be used again.
///
/// Each check allocating and freeing its own 19 MiB cost far more than 19 MiB: the allocator
/// raises its threshold for separately mapped blocks to the size of one freed, so later blocks
/// of that size come from the arena of whichever blocking thread runs the check and stay with
/// the process when freed (500 sign-ins grew it by 420 MiB). With one kept buffer per admitted
/// check, memory for password checks is fixed.
pub struct HashingMemory(Vec<argon2::Block>);

impl HashingMemory {
    pub fn new() -> HashingMemory {
        HashingMemory(vec![argon2::Block::default(); argon2::Params::default().block_count()])
    }
}

impl Default for HashingMemory {
    fn default() -> HashingMemory {
        HashingMemory::new()
    }
}

/// [`verify_password`] in `memory` (grown once if a stored hash asks for more).
pub fn verify_password_in(password: &str, phc: &str, memory: &mut HashingMemory) -> bool {
    let Ok(parsed) = PasswordHash::new(phc) else { return false };
    let (Some(salt), Some(expected)) = (&parsed.salt, &parsed.hash) else { return false };
    let (Ok(params), Ok(algorithm)) =
        (argon2::Params::try_from(&parsed), argon2::Algorithm::try_from(parsed.algorithm.as_str()))
    else {
        return false;
    };
    let version = match parsed.version.map(argon2::Version::try_from) {
        None => argon2::Version::default(),
        Some(Ok(version)) => version,
        Some(Err(_)) => return false,
    };
    let blocks = params.block_count();
    if memory.0.len() < blocks {
        memory.0.resize(blocks, argon2::Block::default());
    }
    let mut computed = vec![0u8; expected.len()];
    let hasher = Argon2::new(algorithm, version, params);
    hasher
        .hash_password_into_with_memory(password.as_bytes(), salt.as_ref(), &mut computed, &mut memory.0[..blocks])
        .is_ok()
        && constant_time::verify_slices_are_equal(&computed, expected.as_ref()).is_ok()
}

/// A fixed hash to verify against when an account does not exist, so that the answer takes
/// as long as for a wrong password (no account enumeration by timing).
pub fn dummy_password_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| hash_password("signet-dummy-password").unwrap_or_default())
}

/// AES-256-GCM under a key derived from the platform's derivation secret and a purpose label,
/// for secrets Signet must use again later (TOTP seeds, identity providers' client secrets):
/// the database alone does not reveal them. `aad` binds a sealed value to its owner, so it
/// cannot be moved to another row.
pub struct SealingKey(aws_lc_rs::aead::LessSafeKey);

impl SealingKey {
    pub fn derive(secret: &[u8], label: &str) -> Result<SealingKey, DeriveError> {
        use aws_lc_rs::aead::{AES_256_GCM, LessSafeKey, UnboundKey};
        let mut ctx = digest::Context::new(&digest::SHA256);
        ctx.update(label.as_bytes());
        ctx.update(b"\0");
        ctx.update(secret);
        let key = UnboundKey::new(&AES_256_GCM, ctx.finish().as_ref())
            .map_err(|cause| DeriveError { label: label.to_string(), cause })?;
        Ok(SealingKey(LessSafeKey::new(key)))
    }

    /// A sealing key over `key` as it is (a master key, or a key derived from a data key).
    pub fn from_key(key: aws_lc_rs::aead::LessSafeKey) -> SealingKey {
        SealingKey(key)
    }

    /// The random nonce, then the ciphertext and its tag.
    pub fn seal(&self, aad: &str, plain: &[u8]) -> Option<Vec<u8>> {
        use aws_lc_rs::aead::{Aad, Nonce};
        let nonce: [u8; 12] = random_bytes();
        let mut buffer = plain.to_vec();
        self.0
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(aad.as_bytes()), &mut buffer)
            .ok()?;
        Some([nonce.to_vec(), buffer].concat())
    }

    pub fn open(&self, aad: &str, sealed: &[u8]) -> Option<Vec<u8>> {
        use aws_lc_rs::aead::{Aad, Nonce};
        if sealed.len() < 12 + 16 {
            return None;
        }
        let (nonce, body) = sealed.split_at(12);
        let nonce = Nonce::try_assume_unique_for_key(nonce).ok()?;
        let mut buffer = body.to_vec();
        let plain = self.0.open_in_place(nonce, Aad::from(aad.as_bytes()), &mut buffer).ok()?;
        Some(plain.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_round_trip() {
        let hash = hash_password("correct horse").expect("hash");
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &hash));
        let mut memory = HashingMemory::new();
        assert!(verify_password_in("correct horse", &hash, &mut memory));
        assert!(!verify_password_in("wrong", &hash, &mut memory), "the kept memory is used again");
        assert!(verify_password_in("correct horse", &hash, &mut memory));
        assert!(!verify_password_in("x", "not a phc string", &mut memory));
        assert!(!verify_password("wrong", &hash));
        assert!(!verify_password("x", "not a phc string"));
    }

    #[test]
    fn tokens_are_random_and_hashed() {
        let a = random_token(32);
        assert_ne!(a, random_token(32));
        assert_eq!(a.len(), 43);
        assert!(token_matches(&a, &hash_token(&a)));
        assert!(!token_matches("other", &hash_token(&a)));
    }
}
