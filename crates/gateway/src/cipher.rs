//! The symmetric half of the envelope, shared by the gateway and the client: the session key,
//! AES-256-ECB/PKCS#7 (legacy) and AES-256-GCM (modern), base64 as clients send it.

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use aws_lc_rs::cipher::{
    AES_256, DecryptionContext, PaddedBlockDecryptingKey, PaddedBlockEncryptingKey, UnboundCipherKey,
};
use aws_lc_rs::constant_time::verify_slices_are_equal;
use aws_lc_rs::digest::{SHA256, digest};
use aws_lc_rs::rand::{SecureRandom, SystemRandom};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use crate::GatewayError;

/// Length of the AES-256 session key.
pub const SESSION_KEY_LEN: usize = 32;
/// GCM tag length.
const TAG_LEN: usize = 16;

/// The envelope profile of a request, chosen by the `Profile` field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Profile {
    /// RSA PKCS#1 v1.5 + AES-256-ECB/PKCS#7: what existing integrations send. No `Profile` field.
    Legacy,
    /// `Profile=2`: RSA-OAEP(SHA-256, MGF1-SHA-256) + AES-256-GCM and a `Timestamp` in the payload.
    Modern,
}

impl Profile {
    /// Reads the `Profile` form field: absent, empty or "1" is legacy, "2" is modern.
    /// Anything else is 109 (an envelope we cannot read).
    pub fn from_param(value: Option<&str>) -> Result<Self, GatewayError> {
        match value.map(str::trim) {
            None | Some("") | Some("1") => Ok(Self::Legacy),
            Some("2") => Ok(Self::Modern),
            Some(_) => Err(GatewayError::InvalidRequest),
        }
    }

    /// The value of the `Profile` field to send (`None`: send no field).
    pub fn param(self) -> Option<&'static str> {
        match self {
            Self::Legacy => None,
            Self::Modern => Some("2"),
        }
    }
}

/// The per-request AES-256 key. Each request has its own; the client keeps it (keyed by its
/// ReferenceNumber) to open the `Returnvalue`.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionKey([u8; SESSION_KEY_LEN]);

impl std::fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionKey(..)")
    }
}

impl Drop for SessionKey {
    fn drop(&mut self) {
        // Best effort: the key must not outlive the request in freed memory.
        self.0.iter_mut().for_each(|b| *b = 0);
    }
}

impl SessionKey {
    /// A fresh random key.
    pub fn generate() -> Result<Self, GatewayError> {
        let mut k = [0u8; SESSION_KEY_LEN];
        SystemRandom::new().fill(&mut k).map_err(|_| GatewayError::Crypto)?;
        Ok(Self(k))
    }

    /// A key from its 32 bytes (e.g. read back from the client's store).
    pub fn from_bytes(bytes: [u8; SESSION_KEY_LEN]) -> Self {
        Self(bytes)
    }

    /// A key from a slice that must be exactly 32 bytes.
    pub fn from_slice(bytes: &[u8]) -> Option<Self> {
        <[u8; SESSION_KEY_LEN]>::try_from(bytes).ok().map(Self)
    }

    /// The raw key bytes.
    pub fn as_bytes(&self) -> &[u8; SESSION_KEY_LEN] {
        &self.0
    }

    /// Encrypts with the profile's cipher: ECB/PKCS#7 (legacy) or GCM nonce||ct||tag (modern).
    pub fn encrypt(&self, profile: Profile, plaintext: &[u8]) -> Result<Vec<u8>, GatewayError> {
        match profile {
            Profile::Legacy => ecb_encrypt(self, plaintext),
            Profile::Modern => gcm_seal(self, plaintext),
        }
    }

    /// Decrypts with the profile's cipher. Every failure is [`GatewayError::InvalidRequest`].
    pub fn decrypt(&self, profile: Profile, ciphertext: &[u8]) -> Result<Vec<u8>, GatewayError> {
        match profile {
            Profile::Legacy => ecb_decrypt(self, ciphertext),
            Profile::Modern => gcm_open(self, ciphertext),
        }
    }
}

/// AES-256-ECB with PKCS#7 padding (the legacy payload cipher; no IV).
pub fn ecb_encrypt(key: &SessionKey, plaintext: &[u8]) -> Result<Vec<u8>, GatewayError> {
    let unbound = UnboundCipherKey::new(&AES_256, key.as_bytes()).map_err(|_| GatewayError::Crypto)?;
    let enc = PaddedBlockEncryptingKey::ecb_pkcs7(unbound).map_err(|_| GatewayError::Crypto)?;
    let mut buf = plaintext.to_vec();
    enc.encrypt(&mut buf).map_err(|_| GatewayError::Crypto)?;
    Ok(buf)
}

/// AES-256-ECB/PKCS#7 decryption. ECB has no malleability that a padding oracle could exploit
/// (each block decrypts independently); the caller still reports one error for everything.
pub fn ecb_decrypt(key: &SessionKey, ciphertext: &[u8]) -> Result<Vec<u8>, GatewayError> {
    if ciphertext.is_empty() || !ciphertext.len().is_multiple_of(16) {
        return Err(GatewayError::InvalidRequest);
    }
    let unbound = UnboundCipherKey::new(&AES_256, key.as_bytes()).map_err(|_| GatewayError::InvalidRequest)?;
    let dec = PaddedBlockDecryptingKey::ecb_pkcs7(unbound).map_err(|_| GatewayError::InvalidRequest)?;
    let mut buf = ciphertext.to_vec();
    let len = dec.decrypt(&mut buf, DecryptionContext::None).map_err(|_| GatewayError::InvalidRequest)?.len();
    buf.truncate(len);
    Ok(buf)
}

/// AES-256-GCM with a random 12-byte nonce, no AAD: returns nonce || ciphertext || tag.
pub fn gcm_seal(key: &SessionKey, plaintext: &[u8]) -> Result<Vec<u8>, GatewayError> {
    let mut nonce = [0u8; NONCE_LEN];
    SystemRandom::new().fill(&mut nonce).map_err(|_| GatewayError::Crypto)?;
    let k = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, key.as_bytes()).map_err(|_| GatewayError::Crypto)?);
    let mut buf = plaintext.to_vec();
    k.seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::empty(), &mut buf)
        .map_err(|_| GatewayError::Crypto)?;
    let mut out = Vec::with_capacity(NONCE_LEN + buf.len());
    out.extend_from_slice(&nonce);
    out.extend_from_slice(&buf);
    Ok(out)
}

/// Opens nonce || ciphertext || tag.
pub fn gcm_open(key: &SessionKey, sealed: &[u8]) -> Result<Vec<u8>, GatewayError> {
    if sealed.len() < NONCE_LEN + TAG_LEN {
        return Err(GatewayError::InvalidRequest);
    }
    let (nonce, rest) = sealed.split_at(NONCE_LEN);
    let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| GatewayError::InvalidRequest)?;
    let k = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, key.as_bytes()).map_err(|_| GatewayError::InvalidRequest)?);
    let mut buf = rest.to_vec();
    let len = k.open_in_place(nonce, Aad::empty(), &mut buf).map_err(|_| GatewayError::InvalidRequest)?.len();
    buf.truncate(len);
    Ok(buf)
}

/// SHA-256 of the bytes.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    let d = digest(&SHA256, bytes);
    let mut out = [0u8; 32];
    out.copy_from_slice(d.as_ref());
    out
}

/// Constant-time equality (lengths are not secret).
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    verify_slices_are_equal(a, b).is_ok()
}

/// Standard base64 with padding, as the gateway emits it.
pub fn b64_encode(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Decodes base64 the way it arrives in practice: standard or URL-safe alphabet, padding
/// missing or present, line breaks inside, and `+` turned into a space by a form decoder that
/// saw an unencoded value. Returns `None` when it still is not base64.
pub fn b64_decode_lenient(text: &str) -> Option<Vec<u8>> {
    let mut cleaned: String = text
        .chars()
        .filter(|c| !matches!(c, '\r' | '\n' | '\t'))
        .map(|c| match c {
            ' ' => '+',
            '-' => '+',
            '_' => '/',
            other => other,
        })
        .collect();
    let trimmed_len = cleaned.trim_end_matches('=').len();
    cleaned.truncate(trimmed_len);
    while !cleaned.len().is_multiple_of(4) {
        cleaned.push('=');
    }
    STANDARD.decode(cleaned.as_bytes()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ecb_round_trip_and_block_sizes() -> Result<(), GatewayError> {
        let k = SessionKey::generate()?;
        for n in [0usize, 1, 15, 16, 17, 100] {
            let data = vec![7u8; n];
            let ct = ecb_encrypt(&k, &data)?;
            assert_eq!(ct.len(), (n / 16 + 1) * 16);
            assert_eq!(ecb_decrypt(&k, &ct)?, data);
        }
        Ok(())
    }

    #[test]
    fn gcm_round_trip_and_tamper() -> Result<(), GatewayError> {
        let k = SessionKey::generate()?;
        let mut ct = gcm_seal(&k, b"hello")?;
        assert_eq!(gcm_open(&k, &ct)?, b"hello");
        ct[13] ^= 1;
        assert!(gcm_open(&k, &ct).is_err());
        Ok(())
    }

    #[test]
    fn lenient_base64() {
        assert_eq!(b64_decode_lenient("aGk+Pz8/"), Some(b"hi>???".to_vec()));
        assert_eq!(b64_decode_lenient("aGk Pz8/"), Some(b"hi>???".to_vec()));
        assert_eq!(b64_decode_lenient("aGk-Pz8_"), Some(b"hi>???".to_vec()));
        assert_eq!(b64_decode_lenient("aGk"), Some(b"hi".to_vec()));
        assert_eq!(b64_decode_lenient("aG\r\nk="), Some(b"hi".to_vec()));
        // A '+' at either end that a form decoder made a space.
        assert_eq!(b64_decode_lenient(" 8A"), Some(vec![0xfb, 0xc0]));
        assert_eq!(b64_decode_lenient("Pz8 "), Some(b"??>".to_vec()));
        assert_eq!(b64_decode_lenient("a"), None);
        assert_eq!(b64_decode_lenient("!!!!"), None);
    }
}
