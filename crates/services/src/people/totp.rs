//! A second factor for staff: time-based one-time passwords (RFC 6238 over RFC 4226, HMAC-SHA1,
//! 30-second steps, 6 digits: what authenticator apps use by default). The shared secret is
//! sealed with AES-256-GCM under a key derived from the platform's derivation secret and bound
//! to the user, so the database alone does not reveal it. A code is accepted within one step
//! of the current time, and each step's code only once.

use aws_lc_rs::hmac;
use signet_domain::{Error, ErrorCode, PrincipalId};

use signet_store::TotpChange;

use crate::{Caller, Services, platform::secrets};

/// Seconds per step.
pub const STEP_SECS: u64 = 30;
/// Steps before and after the current one whose codes are accepted (clock drift).
const WINDOW: i64 = 1;

/// The key that seals TOTP secrets.
pub struct TotpKey(secrets::SealingKey);

impl TotpKey {
    pub fn derive(secret: &[u8]) -> Result<TotpKey, secrets::DeriveError> {
        secrets::SealingKey::derive(secret, "signet totp secrets v1").map(TotpKey)
    }

    fn seal(&self, user_id: PrincipalId, plain: &[u8]) -> Result<Vec<u8>, Error> {
        self.0.seal(&aad(user_id), plain).ok_or_else(|| Error::internal("sealing a TOTP secret"))
    }

    fn open(&self, user_id: PrincipalId, sealed: &[u8]) -> Result<Vec<u8>, Error> {
        self.0.open(&aad(user_id), sealed).ok_or_else(|| Error::internal("a TOTP secret that does not open"))
    }
}

fn aad(user_id: PrincipalId) -> String {
    format!("totp:user:{user_id}")
}

/// RFC 4648 base32 without padding (what otpauth URIs carry).
pub fn base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::new();
    let (mut buffer, mut bits) = (0u32, 0u32);
    for byte in bytes {
        buffer = (buffer << 8) | u32::from(*byte);
        bits += 8;
        while bits >= 5 {
            out.push(char::from(ALPHABET[((buffer >> (bits - 5)) & 31) as usize]));
            bits -= 5;
        }
    }
    if bits > 0 {
        out.push(char::from(ALPHABET[((buffer << (5 - bits)) & 31) as usize]));
    }
    out
}

/// The 6-digit code of `step` (RFC 4226 dynamic truncation).
pub fn code_at(secret: &[u8], step: u64) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, secret);
    let tag = hmac::sign(&key, &step.to_be_bytes());
    let mac = tag.as_ref();
    let offset = usize::from(mac[mac.len() - 1] & 0x0f);
    let value = u32::from_be_bytes([mac[offset] & 0x7f, mac[offset + 1], mac[offset + 2], mac[offset + 3]]);
    format!("{:06}", value % 1_000_000)
}

/// The step of a code that matches within the window, if any (compared in constant time).
pub fn matching_step(secret: &[u8], code: &str, now_secs: u64) -> Option<i64> {
    let current = i64::try_from(now_secs / STEP_SECS).ok()?;
    let mut found = None;
    for step in (current - WINDOW)..=(current + WINDOW) {
        let expected = code_at(secret, u64::try_from(step).ok()?);
        if aws_lc_rs::constant_time::verify_slices_are_equal(expected.as_bytes(), code.as_bytes()).is_ok() {
            found = Some(step);
        }
    }
    found
}

fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// What a new enrolment shows the user once: the secret and the URI for authenticator apps.
pub struct Enrolment {
    pub secret: String,
    pub uri: String,
}

fn user_only(caller: &Caller) -> Result<PrincipalId, Error> {
    if caller.is_user { Ok(caller.principal_id) } else { Err(Error::not_found("user")) }
}

/// Where the signed-in user's second factor stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Off,
    /// Enrolled, waiting for a code to confirm it.
    Pending,
    On,
}

/// Whether the signed-in user has a second factor, or one waiting for its first code.
pub async fn standing(svc: &Services, caller: &Caller) -> Result<Standing, Error> {
    let state = svc.store.totp_state(user_only(caller)?).await?;
    Ok(match (state.totp_enabled, state.totp_secret.is_some()) {
        (true, _) => Standing::On,
        (false, true) => Standing::Pending,
        (false, false) => Standing::Off,
    })
}

/// Starts an enrolment: a new secret, not yet required at sign-in until a code confirms it.
pub async fn enrol(svc: &Services, caller: &Caller) -> Result<Enrolment, Error> {
    let id = user_only(caller)?;
    if svc.store.totp_state(id).await?.totp_enabled {
        return Err(Error::rejected(ErrorCode::StateConflict, "a second factor is already set up; disable it first"));
    }
    let secret: [u8; 20] = secrets::random_bytes();
    let sealed = svc.totp_key.seal(id, &secret)?;
    svc.store
        .set_totp(
            caller.tenant_id,
            id,
            &TotpChange { secret: Some(&sealed), enabled: false, last_step: 0, action: "user.totp_enrolment_started" },
            &caller.actor,
        )
        .await?;
    let user = svc.store.user(caller.tenant_id, id).await?;
    let account = user.email.unwrap_or_default();
    let encoded = base32(&secret);
    let uri = format!(
        "otpauth://totp/Signet:{}?secret={encoded}&issuer=Signet&algorithm=SHA1&digits=6&period={STEP_SECS}",
        account.replace(['?', '&', '#', '/'], "")
    );
    Ok(Enrolment { secret: encoded, uri })
}

fn check_code_shape(code: &str) -> Result<(), Error> {
    if code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(Error::field("code", "must be the 6 digits your authenticator app shows"))
    }
}

/// The step of a valid, unused code of the user's secret (enrolled or pending).
async fn valid_step(svc: &Services, id: PrincipalId, code: &str) -> Result<Option<i64>, Error> {
    let state = svc.store.totp_state(id).await?;
    let Some(sealed) = state.totp_secret else { return Ok(None) };
    let secret = svc.totp_key.open(id, &sealed)?;
    Ok(matching_step(&secret, code, now_secs()).filter(|step| *step > state.totp_last_step))
}

/// Confirms an enrolment with a code from the app: from now on sign-in needs a code.
pub async fn confirm(svc: &Services, caller: &Caller, code: &str) -> Result<(), Error> {
    let id = user_only(caller)?;
    check_code_shape(code)?;
    let state = svc.store.totp_state(id).await?;
    if state.totp_enabled {
        return Err(Error::rejected(ErrorCode::StateConflict, "the second factor is already confirmed"));
    }
    let Some(step) = valid_step(svc, id, code).await? else {
        return Err(Error::field("code", "is not the current code of the enrolled secret"));
    };
    let sealed =
        state.totp_secret.ok_or_else(|| Error::rejected(ErrorCode::StateConflict, "start the enrolment first"))?;
    svc.store
        .set_totp(
            caller.tenant_id,
            id,
            &TotpChange { secret: Some(&sealed), enabled: true, last_step: step, action: "user.totp_enabled" },
            &caller.actor,
        )
        .await
}

/// Turns the second factor off, with a current code (the user's own choice).
pub async fn disable(svc: &Services, caller: &Caller, code: &str) -> Result<(), Error> {
    let id = user_only(caller)?;
    check_code_shape(code)?;
    if !svc.store.totp_state(id).await?.totp_enabled {
        return Err(Error::rejected(ErrorCode::StateConflict, "no second factor is set up"));
    }
    match valid_step(svc, id, code).await? {
        Some(step) if svc.store.use_totp_step(id, step).await? => {
            svc.store
                .set_totp(
                    caller.tenant_id,
                    id,
                    &TotpChange { secret: None, enabled: false, last_step: 0, action: "user.totp_disabled" },
                    &caller.actor,
                )
                .await
        }
        _ => Err(Error::field("code", "is not the current code")),
    }
}

/// An administrator removes a user's second factor (a lost phone); the user enrols again.
pub async fn reset(svc: &Services, caller: &Caller, user_id: PrincipalId) -> Result<(), Error> {
    caller.require(signet_domain::access::Permission::ManagePeople)?;
    svc.store.user(caller.tenant_id, user_id).await?;
    crate::people::users::check_manage(svc, caller, user_id).await?;
    svc.store
        .set_totp(
            caller.tenant_id,
            user_id,
            &TotpChange { secret: None, enabled: false, last_step: 0, action: "user.totp_reset" },
            &caller.actor,
        )
        .await
}

/// At sign-in: whether the user needs a second factor, and if `code` is given, whether it is
/// a valid code not used before (it is spent now).
pub async fn second_factor(svc: &Services, user_id: PrincipalId, code: Option<&str>) -> Result<SecondFactor, Error> {
    if !svc.store.totp_state(user_id).await?.totp_enabled {
        return Ok(SecondFactor::NotRequired);
    }
    let Some(code) = code else { return Ok(SecondFactor::Missing) };
    if check_code_shape(code).is_err() {
        return Ok(SecondFactor::Wrong);
    }
    match valid_step(svc, user_id, code).await? {
        Some(step) if svc.store.use_totp_step(user_id, step).await? => Ok(SecondFactor::Accepted),
        _ => Ok(SecondFactor::Wrong),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecondFactor {
    NotRequired,
    Missing,
    Wrong,
    Accepted,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_6238_sha1_test_vectors() {
        // RFC 6238 appendix B, SHA-1 seed "12345678901234567890" (the low six digits).
        let secret = b"12345678901234567890";
        for (time, code) in
            [(59u64, "287082"), (1_111_111_109, "081804"), (1_234_567_890, "005924"), (2_000_000_000, "279037")]
        {
            assert_eq!(code_at(secret, time / STEP_SECS), code, "{time}");
        }
        assert_eq!(matching_step(secret, "287082", 59 + 30), Some(1), "one step of drift");
        assert_eq!(matching_step(secret, "287082", 59 + 90), None);
    }

    #[test]
    fn base32_is_rfc_4648() {
        assert_eq!(base32(b"foobar"), "MZXW6YTBOI");
        assert_eq!(base32(b"f"), "MY");
    }
}
