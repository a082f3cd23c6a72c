//! Signing in by e-mail address: which login modes an address may use, and one-time codes
//! sent by e-mail (login mode `email_otp`), with no way to tell from the answers whether an
//! account exists. The mode lookups answer what the installation offers for any address (a
//! user's own mode is enforced when they sign in, with the same refusal as a wrong secret);
//! `check_account` does the same work for every address (it queues a job, which looks the
//! address up later), so neither its answer nor its time tells anything; the job e-mails only
//! existing, active users: a sign-in code to those who sign in with codes, a set-password link
//! to those with passwords.

use std::net::IpAddr;

use aws_lc_rs::rand;
use signet_domain::authority::sessions::{self, SecondFactorAdmission, SecondFactorCheck, SignInAnswer};
use signet_domain::job::JobKind;
use signet_domain::user::{LoginMode, UserStatus};
use signet_domain::{Error, PrincipalId, now_millis};
use signet_store::{AuthAttempt, AuthThrottle, CodeUse, PrincipalCredentials};

use crate::platform::mail::{self, Mail};
use crate::{Services, people::users, platform::secrets};

/// How long a sign-in code works, and how many tries it allows.
pub const CODE_TTL_MS: i64 = 10 * 60 * 1000;
pub const CODE_ATTEMPTS: i64 = 5;

/// What an address may sign in with: password and e-mail codes for every address (alike for
/// unknown ones), and single sign-on where a provider serves its domain (a fact about the
/// domain, not the account).
pub struct LoginOptions {
    pub modes: Vec<LoginMode>,
    pub provider: Option<signet_store::SsoProviderRow>,
}

pub async fn login_options(svc: &Services, email: &str) -> Result<LoginOptions, Error> {
    let provider = crate::people::sso::provider_for_email(svc, email).await?;
    let mut modes = vec![LoginMode::Password, LoginMode::EmailOtp];
    if provider.is_some() {
        modes.push(LoginMode::Sso);
    }
    Ok(LoginOptions { modes, provider })
}

/// A six-digit code from the system CSPRNG, uniform (rejection sampling).
pub(crate) fn six_digit_code() -> String {
    loop {
        let mut bytes = [0u8; 4];
        // As for secrets::random_token: a failing system RNG is not recoverable.
        #[allow(clippy::expect_used)]
        rand::fill(&mut bytes).expect("system random number generator failed");
        let n = u32::from_be_bytes(bytes);
        // 4_294_000_000 is the largest multiple of 1_000_000 below 2^32.
        if n < 4_294_000_000 {
            return format!("{:06}", n % 1_000_000);
        }
    }
}

/// Starts a sign-in by e-mail for `email`: queues the lookup, whatever the address, within
/// two hourly shares counted in the database (all instances alike): the requesting address's
/// (past it the requester is refused, rate limited) and the target address's (past it nothing
/// is queued and the answer is the same, so that it tells nothing about an account, while its
/// owner's mailbox is not flooded), and the instance's share of all addresses together
/// (`mail_codes_per_minute`). A failing count refuses (fails closed).
pub async fn check_account(svc: &Services, ip: IpAddr, email: &str) -> Result<(), Error> {
    // Everyone's share first, in memory: a refused crowd writes nothing.
    svc.doors.mail_codes.check()?;
    let hourly = |limit: u32| AuthThrottle {
        window_ms: 3_600_000,
        limit: i64::from(limit.max(1)),
        base_delay_ms: 3_600_000,
        max_delay_ms: 3_600_000,
    };
    let requester = format!("mail-code-from:{}", crate::platform::limits::address_key(ip));
    if let AuthAttempt::Blocked { retry_after_ms } =
        svc.store.admit_auth_attempt(&requester, &hourly(svc.config.mail_codes_per_address_per_hour)).await?
    {
        return Err(Error::RateLimited { retry_after_secs: (retry_after_ms as u64).div_ceil(1000).max(1) });
    }
    let target = format!("mail-code-to:{}", email.trim().to_lowercase());
    let policy = hourly(svc.config.mail_codes_per_account_per_hour);
    if svc.store.admit_auth_attempt(&target, &policy).await? != AuthAttempt::Admitted {
        return Ok(());
    }
    let job = signet_store::NewJob {
        tenant: None,
        kind: JobKind::CheckAccount,
        payload: serde_json::json!({"email": email}),
        dedupe_key: None,
        run_at: now_millis(),
        max_attempts: 3,
    };
    svc.store.enqueue_job(&job).await?;
    Ok(())
}

/// The [`JobKind::CheckAccount`] job: existing active users get a code (login mode `email_otp`) or a
/// set-password link (`password`) by e-mail; nobody else gets anything.
pub async fn run_check_account(svc: &Services, payload: &str) -> Result<(), CheckAccountError> {
    let payload: serde_json::Value = serde_json::from_str(payload).map_err(CheckAccountError::Payload)?;
    let email = payload["email"].as_str().unwrap_or_default();
    Ok(mail_sign_in(svc, email).await?)
}

/// Why a [`JobKind::CheckAccount`] job failed; its text is the queue job's stored error.
#[derive(Debug, thiserror::Error)]
pub enum CheckAccountError {
    /// The job's payload is not JSON (Signet wrote it: a bug, kept with its cause).
    #[error("bad job: {0}")]
    Payload(#[source] serde_json::Error),
    /// Reading the account, or queueing its e-mail.
    #[error(transparent)]
    Domain(#[from] Error),
}

async fn mail_sign_in(svc: &Services, email: &str) -> Result<(), Error> {
    let Some(found) = svc.store.principal_by_email(email).await? else { return Ok(()) };
    if found.disabled || found.status != UserStatus::Active.as_str() || !svc.mailer.is_configured() {
        return Ok(());
    }
    let user = svc.store.user(found.tenant_id, found.id).await?;
    let Some(address) = user.email.clone() else { return Ok(()) };
    let name = user.name.clone().unwrap_or_default();
    match user.login_mode {
        LoginMode::EmailOtp => {
            let code = six_digit_code();
            svc.store
                .create_login_code(found.tenant_id, found.id, &secrets::hash_token(&code), now_millis() + CODE_TTL_MS)
                .await?;
            let text = format!(
                "Hello {name},\n\nyour Signet sign-in code is {code}. It works once, for 10 minutes.\n\n\
                 If you did not ask for it, ignore this e-mail.\n"
            );
            let mail = Mail {
                to_email: address,
                to_name: name,
                subject: "Your Signet sign-in code".into(),
                text,
                html: None,
                attachments: Vec::new(),
            };
            mail::enqueue(&svc.store, &mail, None).await
        }
        LoginMode::Password => users::send_reset_link(svc, &user).await,
        // Signed in through the identity provider: nothing to send.
        LoginMode::Sso => Ok(()),
    }
}

/// The credentials of the user `email` names when `code` is their live sign-in code (spent
/// now); `None` for any failure, alike.
pub async fn verify_code(
    svc: &Services,
    email: &str,
    code: &str,
) -> Result<Option<signet_store::PrincipalCredentials>, Error> {
    let Some(found) = svc.store.principal_by_email(email).await? else { return Ok(None) };
    if found.login_mode != LoginMode::EmailOtp.as_str() || found.disabled || found.status != UserStatus::Active.as_str()
    {
        return Ok(None);
    }
    let code = code.trim();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(None);
    }
    match svc.store.use_login_code(found.id, &secrets::hash_token(code), CODE_ATTEMPTS).await? {
        CodeUse::Accepted => Ok(Some(found)),
        CodeUse::Refused => Ok(None),
    }
}

/// How a user's sign-in with a password (and second factor) ended.
#[derive(Debug)]
pub enum PasswordSignIn {
    Accepted(PrincipalCredentials),
    /// The one refusal (`authority::sessions::sign_in_answer`): unknown address, wrong
    /// password, an account that does not sign in with a password, a missing or a wrong
    /// second-factor code, alike, so that it never confirms a password.
    Refused,
}

/// Checks a user's password (and TOTP code), throttled per account and address; a failure
/// counts, a success clears the count. Second-factor codes are also counted per account,
/// from every address: a locked second factor refuses every sign-in of the account (rate
/// limited) before the password is looked at, so that the lock says nothing about it either.
pub async fn sign_in_with_password(
    svc: &Services,
    ip: IpAddr,
    email: &str,
    password: &str,
    totp: Option<&str>,
) -> Result<PasswordSignIn, Error> {
    // The password check's seat first: when the checks are all taken, a crowd of sign-ins is
    // refused before it reads or writes anything (its throttle records included).
    let password_seat = svc.doors.passwords.seat()?;
    let account_key =
        crate::platform::limits::admit_attempt(svc, &format!("user:{}", email.to_lowercase()), ip).await?;
    let principal = svc.store.principal_by_email(email).await?;
    // Read for unknown addresses too (no principal has id 0), alike in time.
    refuse_if_second_factor_locked(svc, principal.as_ref().map_or(PrincipalId::from(0), |p| p.id)).await?;
    let phc = principal.as_ref().map(|p| p.secret_hash.clone());
    // Admitted like every password check: a full queue refuses known and unknown addresses
    // alike, and both cost one hash.
    let password_ok = password_seat.verify(password.to_string(), phc).await?;
    // A user who signs in with e-mail codes or SSO has no password sign-in.
    let signs_in = principal
        .as_ref()
        .is_some_and(|p| password_ok && sessions::keeps_sessions(&p.status, p.disabled) && p.login_mode == "password");
    // The second factor is looked at (and a code spent or counted) only after a right password.
    let second_factor = match &principal {
        Some(account) if signs_in => check_second_factor(svc, account, totp).await?,
        _ => SecondFactorCheck::NotEnrolled,
    };
    match (sessions::sign_in_answer(signs_in, second_factor), principal) {
        (SignInAnswer::SignedIn, Some(account)) => {
            svc.store.clear_auth_failures(&account_key).await?;
            Ok(PasswordSignIn::Accepted(account))
        }
        // Counted as a failed attempt of this account and address (when it was admitted).
        _ => Ok(PasswordSignIn::Refused),
    }
}

/// Refuses (rate limited) every sign-in of an account whose second factor is locked.
async fn refuse_if_second_factor_locked(svc: &Services, principal_id: PrincipalId) -> Result<(), Error> {
    let record = svc.store.second_factor_attempts(principal_id).await?;
    match sessions::second_factor_locked(record.as_ref(), now_millis()) {
        Some(until) => Err(locked_until(until)),
        None => Ok(()),
    }
}

fn locked_until(until: signet_domain::Millis) -> Error {
    let wait_ms = (until - now_millis()).max(1);
    Error::RateLimited { retry_after_secs: (wait_ms as u64).div_ceil(1000).max(1) }
}

/// The second factor of an account whose password was right: a code is checked only once the
/// attempt is counted for the account (whatever the address); the attempt that uses up the
/// account's tries locks it unless it succeeds, and a wrong code then tells the owner.
async fn check_second_factor(
    svc: &Services,
    account: &PrincipalCredentials,
    code: Option<&str>,
) -> Result<SecondFactorCheck, Error> {
    use crate::people::totp::SecondFactor;
    if !svc.store.totp_state(account.id).await?.totp_enabled {
        return Ok(SecondFactorCheck::NotEnrolled);
    }
    let Some(code) = code else { return Ok(SecondFactorCheck::Missing) };
    let Some(locks_if_wrong) = count_second_factor_attempt(svc, account.id).await? else {
        return Ok(SecondFactorCheck::Wrong);
    };
    match crate::people::totp::second_factor(svc, account.id, Some(code)).await? {
        SecondFactor::Accepted => {
            svc.store.clear_second_factor_attempts(account.id).await?;
            Ok(SecondFactorCheck::Accepted)
        }
        SecondFactor::NotRequired => Ok(SecondFactorCheck::NotEnrolled),
        SecondFactor::Missing | SecondFactor::Wrong => {
            if locks_if_wrong {
                mail_second_factor_locked(svc, account).await?;
            }
            Ok(SecondFactorCheck::Wrong)
        }
    }
}

/// Counts one second-factor attempt of the account: `Some(locks_if_wrong)` when admitted,
/// `None` when the account is locked (another attempt locked it meanwhile).
async fn count_second_factor_attempt(svc: &Services, principal_id: PrincipalId) -> Result<Option<bool>, Error> {
    // Each lost compare-and-set means another attempt was counted; a few rounds suffice
    // unless the account is flooded, which the lock soon stops.
    for _ in 0..16 {
        let seen = svc.store.second_factor_attempts(principal_id).await?;
        match sessions::admit_second_factor(seen.as_ref(), now_millis(), &sessions::SECOND_FACTOR_POLICY) {
            SecondFactorAdmission::Locked { .. } => return Ok(None),
            SecondFactorAdmission::Admitted { record, locks_if_wrong } => {
                if svc.store.replace_second_factor_attempts(principal_id, seen.as_ref(), &record).await? {
                    return Ok(Some(locks_if_wrong));
                }
            }
        }
    }
    Ok(None)
}

/// Tells the owner, once per lock, that their password was used with wrong codes.
async fn mail_second_factor_locked(svc: &Services, account: &PrincipalCredentials) -> Result<(), Error> {
    let user = svc.store.user(account.tenant_id, account.id).await?;
    let Some(address) = user.email.clone() else { return Ok(()) };
    let name = user.name.clone().unwrap_or_default();
    let policy = sessions::SECOND_FACTOR_POLICY;
    let text = format!(
        "Hello {name},\n\nsomeone signed in to Signet with your password but could not give the code of your \
         authenticator app, {} times. To protect your account, signing in is locked for {} minutes.\n\n\
         If this was not you, your password is known to someone else: change it now (\"E-mail me a code\" on the \
         sign-in page sends you a link to set a new one) and tell your administrator.\n",
        policy.limit,
        policy.lock_ms / 60_000,
    );
    let subject = "Signet: sign-in locked after wrong authenticator codes".to_string();
    let mail = Mail { to_email: address, to_name: name, subject, text, html: None, attachments: Vec::new() };
    // One notice per lock, even if the sign-in that locked is retried.
    let lock = svc.store.second_factor_attempts(account.id).await?.map(|r| r.locked_until).unwrap_or_default();
    mail::enqueue(&svc.store, &mail, Some(format!("second-factor-locked:{}:{lock}", account.id))).await
}

/// Checks a user's e-mailed sign-in code, throttled per account and address.
pub async fn sign_in_with_code(
    svc: &Services,
    ip: IpAddr,
    email: &str,
    code: &str,
) -> Result<Option<PrincipalCredentials>, Error> {
    let account_key =
        crate::platform::limits::admit_attempt(svc, &format!("user:{}", email.to_lowercase()), ip).await?;
    let account = verify_code(svc, email, code).await?;
    if account.is_some() {
        svc.store.clear_auth_failures(&account_key).await?;
    }
    Ok(account)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_six_digits() {
        for _ in 0..200 {
            let code = six_digit_code();
            assert!(code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()), "{code}");
        }
    }
}
