//! What a gateway transaction keeps between submission and signature (the payload, without its
//! `Authtoken`, and the session key that seals the `Returnvalue`) is encrypted under a key
//! derived from the secret in the signer's link. Only the link's hash is stored, so a copy of
//! the database and the blob store together still reveals neither the document nor the session
//! key: whoever can decrypt could also sign. Both are forgotten when the transaction ends.

use aws_lc_rs::hkdf::{HKDF_SHA256, Salt};
use signet_gateway::{SessionKey, gcm_open, gcm_seal};

const SALT: &[u8] = b"signet gateway transaction vault v1";
/// Session keys stored before transactions were sealed: 32 bytes in the clear.
const PLAIN_SESSION_KEY_LEN: usize = 32;

pub struct Vault(SessionKey);

impl Vault {
    /// The key of one transaction: HKDF-SHA256 of the link secret, bound to the transaction.
    pub fn for_link(link_secret: &str, transaction_number: &str) -> Option<Vault> {
        let info = [transaction_number.as_bytes()];
        let prk = Salt::new(HKDF_SHA256, SALT).extract(link_secret.as_bytes());
        let okm = prk.expand(&info, HKDF_SHA256).ok()?;
        let mut key = [0u8; 32];
        okm.fill(&mut key).ok()?;
        Some(Vault(SessionKey::from_bytes(key)))
    }

    pub fn seal(&self, plain: &[u8]) -> Option<Vec<u8>> {
        gcm_seal(&self.0, plain).ok()
    }

    pub fn open(&self, sealed: &[u8]) -> Option<Vec<u8>> {
        gcm_open(&self.0, sealed).ok()
    }

    /// The session key as stored: sealed, or (transactions from before sealing) in the clear.
    pub fn open_session_key(&self, stored: &[u8]) -> Option<SessionKey> {
        if stored.len() == PLAIN_SESSION_KEY_LEN {
            return SessionKey::from_slice(stored);
        }
        SessionKey::from_slice(&self.open(stored)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_right_link_opens_what_was_sealed() {
        let vault = Vault::for_link("secret-a", "SGN1").expect("vault");
        let sealed = vault.seal(b"payload").expect("seal");
        assert!(!sealed.windows(7).any(|w| w == b"payload"));
        assert_eq!(vault.open(&sealed).as_deref(), Some(&b"payload"[..]));
        assert!(Vault::for_link("secret-b", "SGN1").expect("vault").open(&sealed).is_none());
        assert!(Vault::for_link("secret-a", "SGN2").expect("vault").open(&sealed).is_none());
    }

    #[test]
    fn session_keys_round_trip_sealed_and_old_plain_ones_still_open() {
        let vault = Vault::for_link("secret", "SGN1").expect("vault");
        let key = [9u8; 32];
        let sealed = vault.seal(&key).expect("seal");
        assert_ne!(sealed.len(), PLAIN_SESSION_KEY_LEN);
        assert_eq!(vault.open_session_key(&sealed).map(|k| *k.as_bytes()), Some(key));
        assert_eq!(vault.open_session_key(&key).map(|k| *k.as_bytes()), Some(key));
        assert!(vault.open_session_key(&[1, 2, 3]).is_none());
    }
}
