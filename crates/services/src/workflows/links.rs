//! Signer links: `/sign/w/{signatoryId}/{secret}` where the secret is an HMAC of the
//! signatory id and its link version under a key derived from the platform's sealing key.
//! Nothing secret is stored per link, every instance computes the same links, links can be
//! sent again (reminders) and bumping the version revokes all earlier ones.

use aws_lc_rs::{constant_time, digest, hmac};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use signet_store::SignatoryRow;

use crate::Services;

/// The HMAC key for signer links, derived once from the platform's sealing key.
pub struct LinkKey(hmac::Key);

impl LinkKey {
    pub fn derive(seal_key_pkcs8: &[u8]) -> LinkKey {
        let mut ctx = digest::Context::new(&digest::SHA256);
        ctx.update(b"signet signer links v1\0");
        ctx.update(seal_key_pkcs8);
        LinkKey(hmac::Key::new(hmac::HMAC_SHA256, ctx.finish().as_ref()))
    }

    pub fn secret(&self, signatory_id: i64, link_version: i64) -> String {
        let message = format!("{signatory_id}:{link_version}");
        let tag = hmac::sign(&self.0, message.as_bytes());
        URL_SAFE_NO_PAD.encode(&tag.as_ref()[..24])
    }

    /// The stored form of a signer's one-time code (`otp`): an HMAC under this key of the
    /// signatory, a random per-code salt and the code. Six digits are a million guesses: with
    /// a keyed hash, a copy of the database alone does not let anyone try them offline. The
    /// message's `otp:` prefix keeps it apart from the links' `{id}:{version}`.
    pub fn code_tag(&self, signatory_id: i64, salt: &str, code: &str) -> String {
        let message = format!("otp:{signatory_id}:{salt}:{code}");
        hex::encode(hmac::sign(&self.0, message.as_bytes()).as_ref())
    }

    pub fn matches(&self, signatory_id: i64, link_version: i64, presented: &str) -> bool {
        let expected = self.secret(signatory_id, link_version);
        constant_time::verify_slices_are_equal(expected.as_bytes(), presented.as_bytes()).is_ok()
    }
}

/// The path of a signatory's page (relative to the public base).
pub fn signer_path(state: &Services, signatory: &SignatoryRow) -> String {
    format!("/sign/w/{}/{}", signatory.id, state.link_key.secret(signatory.id.get(), signatory.link_version))
}

/// The absolute link to a signatory's page, for answers and e-mails.
pub fn signer_url(state: &Services, signatory: &SignatoryRow) -> String {
    format!("{}{}", state.config.public_base(), signer_path(state, signatory))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_depend_on_id_version_and_key() {
        let key = LinkKey::derive(b"key one");
        let secret = key.secret(7, 1);
        assert!(key.matches(7, 1, &secret));
        assert!(!key.matches(8, 1, &secret));
        assert!(!key.matches(7, 2, &secret));
        assert!(!LinkKey::derive(b"key two").matches(7, 1, &secret));
        assert_eq!(secret.len(), 32);
    }
}
