//! The signer's code by SMS (issue 37, item 8): a signatory the sender marked `otp_sms` proves
//! they hold the phone the sender named before any signature of theirs is accepted. The link
//! alone is something forwarded e-mail can leak; the code is a second thing the signer has.
//!
//! Why it is built this way:
//! - A code is six digits from the system CSPRNG (the sign-in codes' helper), texted directly
//!   through the SMS provider (a queued job would keep the code in clear in its payload), and
//!   stored only as an HMAC under the links' key with a random salt (`LinkKey::code_tag`).
//!   Neither the code nor the number in full is ever logged or put on the timeline.
//! - A code works for [`CODE_TTL_MS`] and [`MAX_ATTEMPTS`] wrong tries; then it is dead and a
//!   new one must be asked for. A new code waits [`RESEND_GAP_MS`] after the last, and at most
//!   [`CODES_PER_DAY`] go out per link version in a day: a signer's phone cannot be flooded
//!   (nor the organisation's SMS bill run up) through the link.
//! - A right code records a verification for the signatory's current link version, good for
//!   [`VERIFIED_FOR_MS`]: a replaced link, or a long pause, asks again.
//! - [`require_verified`] is called by every signing path (electronic, crypto token, Aadhaar
//!   eSign) and by delegation, which would otherwise hand the signature on without the code.
//!   Declining and commenting stay open without it: they sign nothing.

use serde_json::json;
use signet_domain::audit::{Actor, WorkflowEventKind};
use signet_domain::phone::PhoneNumber;
use signet_domain::{Error, ErrorCode, Lang, Millis, now_millis};
use signet_store::{NewSignerCode, SignerCodeRow};

use super::session::SignerSession;
use crate::Services;

/// How long a code works.
pub const CODE_TTL_MS: i64 = 10 * 60 * 1000;
/// Wrong tries one code allows; the next try finds it dead.
pub const MAX_ATTEMPTS: i64 = 5;
/// Least time between two codes to one signatory.
pub const RESEND_GAP_MS: i64 = 60 * 1000;
/// Most codes per signatory and link version in one day.
pub const CODES_PER_DAY: i64 = 10;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// How long a verification lets the signer sign.
pub const VERIFIED_FOR_MS: i64 = 30 * 60 * 1000;

/// Why a code was not sent or not accepted; each has a stable [`code`](OtpRefusal::code) the
/// pages word in the signer's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OtpRefusal {
    /// The sender did not ask this signer for a code.
    NotAsked,
    /// No SMS provider is configured (or the number on record is unusable).
    Unavailable,
    /// A code went out less than a minute ago; a new one may be asked for after `wait_secs`.
    TooSoon {
        wait_secs: i64,
    },
    /// The day's codes for this link are used up.
    DailyLimit,
    /// The provider did not take the text; asking again may work.
    NotSent,
    /// Not six digits.
    Malformed,
    /// No code was sent (for this link), or it was used already.
    NoCode,
    Expired,
    /// Out of wrong tries: a new code must be asked for.
    Dead,
    /// Wrong; `left` tries remain for this code.
    Wrong {
        left: i64,
    },
}

impl OtpRefusal {
    /// A stable name for the refusal (the pages' catalogue keys end with it).
    pub fn code(self) -> &'static str {
        match self {
            OtpRefusal::NotAsked => "not_asked",
            OtpRefusal::Unavailable => "unavailable",
            OtpRefusal::TooSoon { .. } => "too_soon",
            OtpRefusal::DailyLimit => "daily_limit",
            OtpRefusal::NotSent => "not_sent",
            OtpRefusal::Malformed => "malformed",
            OtpRefusal::NoCode => "no_code",
            OtpRefusal::Expired => "expired",
            OtpRefusal::Dead => "dead",
            OtpRefusal::Wrong { .. } => "wrong",
        }
    }
}

/// A code refused, or a failure on our side.
#[derive(Debug)]
pub enum OtpFailure {
    Refused(OtpRefusal),
    Failed(Error),
}

impl From<Error> for OtpFailure {
    fn from(error: Error) -> Self {
        OtpFailure::Failed(error)
    }
}

/// Where a signer stands with their code, for the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OtpStatus {
    /// No code is asked of this signer.
    NotAsked,
    /// Verified for the current link, recently enough to sign.
    Verified,
    /// A code must be typed first; `last_digits` of the number it goes to, and whether a live
    /// code is waiting to be typed.
    Needed { last_digits: String, code_live: bool },
}

/// What became of a code, from its row: pure, so the rules are tested without a database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeState {
    Missing,
    Spent,
    Expired,
    Dead,
    Live { attempts: i64 },
}

/// The state of the signatory's code for `link_version` at `now`.
pub fn code_state(row: Option<&SignerCodeRow>, link_version: i64, now: Millis) -> CodeState {
    match row {
        None => CodeState::Missing,
        Some(row) if row.link_version != link_version => CodeState::Missing,
        Some(row) if row.used_at.is_some() => CodeState::Spent,
        Some(row) if row.attempts >= MAX_ATTEMPTS => CodeState::Dead,
        Some(row) if row.expires_at <= now => CodeState::Expired,
        Some(row) => CodeState::Live { attempts: row.attempts },
    }
}

/// Whether the row records a verification of `link_version` that is still good at `now`.
pub fn verified(row: Option<&SignerCodeRow>, link_version: i64, now: Millis) -> bool {
    row.is_some_and(|row| {
        row.verified_version == Some(link_version) && row.verified_at.is_some_and(|at| now < at + VERIFIED_FOR_MS)
    })
}

/// Why a new code cannot go out now (read after the store refused one).
pub fn send_refusal(row: Option<&SignerCodeRow>, now: Millis) -> OtpRefusal {
    match row {
        Some(row) if now < row.sent_at + RESEND_GAP_MS => {
            OtpRefusal::TooSoon { wait_secs: (row.sent_at + RESEND_GAP_MS - now + 999) / 1000 }
        }
        _ => OtpRefusal::DailyLimit,
    }
}

/// Whether the sender asked this signer for a code.
pub fn required(session: &SignerSession) -> bool {
    session.signatory.otp_sms
}

/// Where the signer stands, for the page; a store failure is an error.
pub async fn status(svc: &Services, session: &SignerSession) -> Result<OtpStatus, Error> {
    if !required(session) {
        return Ok(OtpStatus::NotAsked);
    }
    let row = svc.store.signer_code(session.signatory.id).await?;
    let (version, now) = (session.signatory.link_version, now_millis());
    if verified(row.as_ref(), version, now) {
        return Ok(OtpStatus::Verified);
    }
    let code_live = matches!(code_state(row.as_ref(), version, now), CodeState::Live { .. });
    Ok(OtpStatus::Needed { last_digits: last_digits(session), code_live })
}

/// The last four digits of the signer's number (what the page may show).
fn last_digits(session: &SignerSession) -> String {
    let number = session.signatory.mobile().map(|m| m.e164().to_string()).unwrap_or_default();
    number.chars().skip(number.chars().count().saturating_sub(4)).collect()
}

/// A signer asked for a code by SMS who has not confirmed their phone for their current link
/// (recently enough): a fact, which the pages say in the signer's language. As an [`Error`]
/// (the bulk lots' report, a client of the services that does not know it) it keeps the
/// words it always had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhoneNotConfirmed;

/// The refusal's English words, for [`Error`] only: no page compares them.
const NOT_VERIFIED: &str = "please confirm your phone with the code we send by SMS before signing";

impl From<PhoneNotConfirmed> for Error {
    fn from(_: PhoneNotConfirmed) -> Self {
        Error::rejected(ErrorCode::ValidationFailed, NOT_VERIFIED)
    }
}

/// Refuses a signature (or a delegation) of a signer asked for a code who has not given it for
/// their current link within [`VERIFIED_FOR_MS`]. Every signing path calls this, in the service;
/// each answers in its own error type, which holds the refusal as [`PhoneNotConfirmed`] and a
/// failure to read the store as an [`Error`].
pub async fn require_verified<E>(svc: &Services, session: &SignerSession) -> Result<(), E>
where
    E: From<PhoneNotConfirmed> + From<Error>,
{
    match status(svc, session).await? {
        OtpStatus::NotAsked | OtpStatus::Verified => Ok(()),
        OtpStatus::Needed { .. } => Err(PhoneNotConfirmed.into()),
    }
}

/// Why the mobile number given for a delegate is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DelegateMobileRefusal {
    /// Not a mobile number Signet can text.
    Unreadable,
    /// The signer hands on a place that asks for a code by SMS, and no number was given.
    Needed,
}

/// The mobile number of the person a signature is handed on to, and whether they confirm a
/// code by SMS: they do when the signer handing on was asked to, so a signer the sender asked
/// for a code hands on only to someone with a number for their own code (otherwise the
/// delegate would sign on the link alone, which the code is there to prevent). A number given
/// for any other delegate carries their invitation and reminders.
pub fn delegate_mobile(
    asked_for_code: bool,
    typed: Option<&str>,
) -> Result<(Option<PhoneNumber>, bool), DelegateMobileRefusal> {
    let mobile = match typed.map(str::trim).filter(|typed| !typed.is_empty()) {
        Some(typed) => Some(PhoneNumber::parse(typed).map_err(|_| DelegateMobileRefusal::Unreadable)?),
        None => None,
    };
    if asked_for_code && mobile.is_none() {
        return Err(DelegateMobileRefusal::Needed);
    }
    Ok((mobile, asked_for_code))
}

/// Texts the signer a new code in `lang`, within the bounds; answers the number's last digits.
pub async fn send_code(
    svc: &Services,
    session: &SignerSession,
    lang: Lang,
    actor: &Actor,
) -> Result<String, OtpFailure> {
    if !required(session) {
        return Err(OtpFailure::Refused(OtpRefusal::NotAsked));
    }
    let (Some(sender), Some(to)) = (svc.sms.as_ref(), session.signatory.mobile()) else {
        return Err(OtpFailure::Refused(OtpRefusal::Unavailable));
    };
    let (signatory, now) = (&session.signatory, now_millis());
    let code = crate::people::login::six_digit_code();
    let salt = crate::platform::secrets::random_token(16);
    let hash = svc.link_key.code_tag(signatory.id.get(), &salt, &code);
    let new = NewSignerCode {
        tenant_id: signatory.tenant_id,
        signatory_id: signatory.id,
        link_version: signatory.link_version,
        code_hash: &hash,
        code_salt: &salt,
        now,
        expires_at: now + CODE_TTL_MS,
        gap_ms: RESEND_GAP_MS,
        per_day: CODES_PER_DAY,
        day_ms: DAY_MS,
    };
    if !svc.store.issue_signer_code(&new).await? {
        let row = svc.store.signer_code(signatory.id).await?;
        return Err(OtpFailure::Refused(send_refusal(row.as_ref(), now)));
    }
    let requester = svc.store.tenant_name(session.workflow.tenant_id).await?.unwrap_or_default();
    let text = super::notices::code_sms(lang, &requester, &code, CODE_TTL_MS / 60_000);
    match sender.send(&to, &text).await {
        Ok(sent) => {
            let detail = json!({"to": to.masked(), "providerId": sent.provider_id});
            record(svc, session, WorkflowEventKind::OtpSent, detail, actor).await;
            Ok(last_digits(session))
        }
        Err(crate::platform::sms::SmsFailure::Refused(cause) | crate::platform::sms::SmsFailure::TryAgain(cause)) => {
            tracing::warn!(to = %to, %cause, "the signer's code was not sent");
            let detail = json!({"to": to.masked(), "purpose": "code", "reason": cause});
            record(svc, session, WorkflowEventKind::SmsFailed, detail, actor).await;
            Err(OtpFailure::Refused(OtpRefusal::NotSent))
        }
    }
}

/// Checks a typed code: a right one records the verification (`signatory.otp_verified`), a
/// wrong one counts a try (`signatory.otp_failed`).
pub async fn check_code(svc: &Services, session: &SignerSession, typed: &str, actor: &Actor) -> Result<(), OtpFailure> {
    if !required(session) {
        return Err(OtpFailure::Refused(OtpRefusal::NotAsked));
    }
    let typed: String = typed.chars().filter(|c| !c.is_whitespace()).collect();
    if typed.len() != 6 || !typed.bytes().all(|b| b.is_ascii_digit()) {
        return Err(OtpFailure::Refused(OtpRefusal::Malformed));
    }
    let (signatory, now) = (&session.signatory, now_millis());
    let row = svc.store.signer_code(signatory.id).await?;
    let attempts = match code_state(row.as_ref(), signatory.link_version, now) {
        CodeState::Live { attempts } => attempts,
        CodeState::Missing | CodeState::Spent => return Err(OtpFailure::Refused(OtpRefusal::NoCode)),
        CodeState::Expired => return Err(OtpFailure::Refused(OtpRefusal::Expired)),
        CodeState::Dead => return Err(OtpFailure::Refused(OtpRefusal::Dead)),
    };
    let salt = row.map(|r| r.code_salt).unwrap_or_default();
    let hash = svc.link_key.code_tag(signatory.id.get(), &salt, &typed);
    if svc.store.verify_signer_code(signatory.id, signatory.link_version, &hash, now, MAX_ATTEMPTS).await? {
        record(svc, session, WorkflowEventKind::OtpVerified, json!({}), actor).await;
        return Ok(());
    }
    svc.store.count_signer_code_failure(signatory.id).await?;
    let left = (MAX_ATTEMPTS - attempts - 1).max(0);
    record(svc, session, WorkflowEventKind::OtpFailed, json!({"attemptsLeft": left}), actor).await;
    Err(OtpFailure::Refused(if left == 0 { OtpRefusal::Dead } else { OtpRefusal::Wrong { left } }))
}

/// Puts a code's outcome on the workflow's timeline; the code has gone (or been judged) by
/// now, so a failure to record it is logged, not a reason to fail the signer.
async fn record(
    svc: &Services,
    session: &SignerSession,
    kind: WorkflowEventKind,
    detail: serde_json::Value,
    actor: &Actor,
) {
    let target = format!("signatory:{}", session.signatory.id);
    if let Err(error) = svc.store.record_workflow_event(&session.workflow, kind, target, detail, actor).await {
        tracing::warn!(%error, action = %kind, "could not record the signer's code event");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(sent_at: Millis) -> SignerCodeRow {
        SignerCodeRow {
            link_version: 1,
            code_hash: "h".into(),
            code_salt: "s".into(),
            expires_at: sent_at + CODE_TTL_MS,
            attempts: 0,
            used_at: None,
            sent_at,
            day_started_at: sent_at,
            sends_in_day: 1,
            verified_at: None,
            verified_version: None,
        }
    }

    #[test]
    fn a_code_lives_ten_minutes_and_five_wrong_tries_for_its_link_version() {
        let live = row(1_000);
        assert_eq!(code_state(Some(&live), 1, 1_000 + CODE_TTL_MS - 1), CodeState::Live { attempts: 0 });
        assert_eq!(code_state(Some(&live), 1, 1_000 + CODE_TTL_MS), CodeState::Expired);
        assert_eq!(code_state(Some(&live), 2, 1_000), CodeState::Missing, "a replaced link asks again");
        assert_eq!(code_state(None, 1, 1_000), CodeState::Missing);
        let tried = SignerCodeRow { attempts: MAX_ATTEMPTS, ..live.clone() };
        assert_eq!(code_state(Some(&tried), 1, 1_000), CodeState::Dead);
        let used = SignerCodeRow { used_at: Some(2_000), ..live };
        assert_eq!(code_state(Some(&used), 1, 3_000), CodeState::Spent);
    }

    #[test]
    fn a_verification_holds_thirty_minutes_for_its_link_version() {
        let done = SignerCodeRow { verified_at: Some(10_000), verified_version: Some(1), ..row(1_000) };
        assert!(verified(Some(&done), 1, 10_000 + VERIFIED_FOR_MS - 1));
        assert!(!verified(Some(&done), 1, 10_000 + VERIFIED_FOR_MS));
        assert!(!verified(Some(&done), 2, 10_001), "a replaced link asks again");
        assert!(!verified(Some(&row(1_000)), 1, 1_001));
        assert!(!verified(None, 1, 1_001));
    }

    #[test]
    fn a_delegate_of_a_signer_asked_for_a_code_needs_a_number_for_their_own() {
        let asked = true;
        let (mobile, otp) = delegate_mobile(asked, Some(" 91234 56789 ")).expect("a number");
        assert_eq!((mobile.as_ref().map(PhoneNumber::e164), otp), (Some("+919123456789"), true));
        assert_eq!(delegate_mobile(asked, None), Err(DelegateMobileRefusal::Needed));
        assert_eq!(delegate_mobile(asked, Some("  ")), Err(DelegateMobileRefusal::Needed));
        assert_eq!(delegate_mobile(asked, Some("12345")), Err(DelegateMobileRefusal::Unreadable));
        let not_asked = false;
        assert_eq!(delegate_mobile(not_asked, None), Ok((None, false)));
        let (mobile, otp) = delegate_mobile(not_asked, Some("+14155550100")).expect("a number");
        assert_eq!((mobile.is_some(), otp), (true, false), "a number carries the invitation, asks no code");
    }

    #[test]
    fn a_refused_send_says_how_long_to_wait_or_that_the_day_is_used_up() {
        let sent = row(100_000);
        assert_eq!(send_refusal(Some(&sent), 100_000), OtpRefusal::TooSoon { wait_secs: 60 });
        assert_eq!(send_refusal(Some(&sent), 100_000 + 59_001), OtpRefusal::TooSoon { wait_secs: 1 });
        assert_eq!(send_refusal(Some(&sent), 100_000 + RESEND_GAP_MS), OtpRefusal::DailyLimit);
        assert_eq!(OtpRefusal::TooSoon { wait_secs: 5 }.code(), "too_soon");
    }
}
