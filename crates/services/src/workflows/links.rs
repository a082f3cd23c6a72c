//! Signer links: `/sign/w/{signatoryId}/{secret}` where the secret is an HMAC of the
//! signatory id and its link version under a key derived from the platform's sealing key.
//! Nothing secret is stored per link, every instance computes the same links, links can be
//! sent again (reminders) and bumping the version revokes all earlier ones.

use aws_lc_rs::{constant_time, digest, hmac};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use signet_domain::embedding::EmbedOrigin;
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

    /// An embed token: leave for `origin` to frame the signatory's page until `expires_at`
    /// (Unix seconds), written `{expires_at}.{origin, base64url}.{tag}` (path-safe). The tag
    /// covers the link version, so a revoked link ends its embeds too; the `embed:` prefix
    /// keeps it apart from the links' and codes' messages.
    pub fn embed_token(&self, signatory_id: i64, link_version: i64, origin: &EmbedOrigin, expires_at: i64) -> String {
        let tag = self.embed_tag(signatory_id, link_version, origin.as_str(), expires_at);
        format!("{expires_at}.{}.{}", URL_SAFE_NO_PAD.encode(origin.as_str()), URL_SAFE_NO_PAD.encode(tag))
    }

    /// The origin and expiry of an authentic embed token of this signatory's current link
    /// (expired or not: the caller decides); `None` for anything else.
    pub fn read_embed_token(&self, signatory_id: i64, link_version: i64, token: &str) -> Option<(EmbedOrigin, i64)> {
        let mut parts = token.splitn(3, '.');
        let expires_at: i64 = parts.next()?.parse().ok()?;
        let origin = String::from_utf8(URL_SAFE_NO_PAD.decode(parts.next()?).ok()?).ok()?;
        let presented = URL_SAFE_NO_PAD.decode(parts.next()?).ok()?;
        let expected = self.embed_tag(signatory_id, link_version, &origin, expires_at);
        constant_time::verify_slices_are_equal(&expected, &presented).ok()?;
        Some((EmbedOrigin::parse(&origin).ok()?, expires_at))
    }

    fn embed_tag(&self, signatory_id: i64, link_version: i64, origin: &str, expires_at: i64) -> Vec<u8> {
        let message = format!("embed:{signatory_id}:{link_version}:{expires_at}:{origin}");
        hmac::sign(&self.0, message.as_bytes()).as_ref()[..24].to_vec()
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

    #[test]
    fn embed_tokens_bind_signatory_version_origin_and_expiry() {
        let key = LinkKey::derive(b"key one");
        let origin = EmbedOrigin::parse("https://app.example").expect("origin");
        let token = key.embed_token(7, 1, &origin, 1_900_000_000);
        assert_eq!(key.read_embed_token(7, 1, &token), Some((origin.clone(), 1_900_000_000)));
        assert_eq!(key.read_embed_token(8, 1, &token), None);
        assert_eq!(key.read_embed_token(7, 2, &token), None);
        assert_eq!(LinkKey::derive(b"key two").read_embed_token(7, 1, &token), None);
        // Another origin or a later expiry in the token's text does not match its tag.
        let tag = token.rsplit('.').next().expect("tag");
        let other = URL_SAFE_NO_PAD.encode("https://evil.example");
        assert_eq!(key.read_embed_token(7, 1, &format!("1900000000.{other}.{tag}")), None);
        let origin_text = URL_SAFE_NO_PAD.encode(origin.as_str());
        assert_eq!(key.read_embed_token(7, 1, &format!("1900000001.{origin_text}.{tag}")), None);
        assert_eq!(key.read_embed_token(7, 1, "junk"), None);
        assert!(token.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)), "{token}");
    }
}
