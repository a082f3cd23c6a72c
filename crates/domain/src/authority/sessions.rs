//! Sessions and signing in: when a session of any kind (access token, refresh token, console
//! cookie) still holds; when an account's second factor is locked after failed codes; and what
//! a sign-in with a password answers, so that no answer tells a right password from a wrong
//! one.
//!
//! - A session holds only while its principal is active and enabled: a user marked inactive,
//!   disabled, deleted (or anything but active) is refused at their next request, whatever
//!   the change asked for its tokens. Leaving the active status also ends the sessions for
//!   good, so that coming back (reactivation) does not revive them.
//! - Second-factor codes are counted per account, whatever address they come from: an
//!   attacker who has the password gets [`SecondFactorPolicy::limit`] guesses, then the
//!   account's second factor is locked for [`SecondFactorPolicy::lock_ms`] and its owner is
//!   told once. Attempts are counted when they are admitted (before the code is checked), so
//!   that guesses sent in parallel cannot all pass before one failure is on record.
//! - A sign-in with a password has one refusal: a wrong password, a missing or a wrong code
//!   read the same, so a guesser learns the password is right only by signing in.

use crate::Millis;
use crate::user::UserStatus;

/// Whether a principal in `status` (the stored text), `disabled` or not, keeps its sessions.
/// Anything but an active, enabled principal is refused; an unknown status too.
pub fn keeps_sessions(status: &str, disabled: bool) -> bool {
    !disabled && UserStatus::parse(status) == Some(UserStatus::Active)
}

/// Whether moving a user to `to` ends their sessions at once. `requested` is what the caller
/// asked (`invalidateTokens`); it only matters for a move that keeps the user active.
pub fn move_ends_sessions(to: UserStatus, requested: bool) -> bool {
    requested || to != UserStatus::Active
}

/// How failed second-factor codes of one account lock it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecondFactorPolicy {
    /// Attempts admitted within `window_ms`; the last of them locks the second factor unless
    /// it succeeds.
    pub limit: i64,
    pub window_ms: Millis,
    /// How long a locked second factor refuses every sign-in of the account.
    pub lock_ms: Millis,
}

/// Five codes in fifteen minutes, then half an hour without.
pub const SECOND_FACTOR_POLICY: SecondFactorPolicy =
    SecondFactorPolicy { limit: 5, window_ms: 15 * 60 * 1000, lock_ms: 30 * 60 * 1000 };

/// The second-factor attempts of one account on record: counted since `window_start`, a
/// success clears them. `locked_until` is 0 when the account is not locked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecondFactorAttempts {
    pub window_start: Millis,
    pub attempts: i64,
    pub locked_until: Millis,
}

/// Until when the account's second factor is locked, if it is at `now`.
pub fn second_factor_locked(record: Option<&SecondFactorAttempts>, now: Millis) -> Option<Millis> {
    record.map(|r| r.locked_until).filter(|until| *until > now)
}

/// Whether one more second-factor code may be checked, and the record that counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecondFactorAdmission {
    /// Check the code; `record` counts this attempt (write it before checking). When
    /// `locks_if_wrong`, this was the last attempt of the window: the record already locks
    /// the account (a success clears it), and a wrong code calls for the owner's notice.
    Admitted { record: SecondFactorAttempts, locks_if_wrong: bool },
    /// Refused without checking the code.
    Locked { until: Millis },
}

/// Admits one second-factor attempt of an account with `record` on file, at `now`.
pub fn admit_second_factor(
    record: Option<&SecondFactorAttempts>,
    now: Millis,
    policy: &SecondFactorPolicy,
) -> SecondFactorAdmission {
    if let Some(until) = second_factor_locked(record, now) {
        return SecondFactorAdmission::Locked { until };
    }
    // A new window after the old one ran out, or after a lock was served.
    let current = record.filter(|r| r.window_start + policy.window_ms > now && r.locked_until == 0);
    let (window_start, attempts) = match current {
        Some(r) => (r.window_start, r.attempts + 1),
        None => (now, 1),
    };
    if attempts > policy.limit {
        // Unreachable through this rule (the limit-th attempt locks), but a record written
        // otherwise must not open more attempts.
        return SecondFactorAdmission::Locked { until: now + policy.lock_ms };
    }
    let locks_if_wrong = attempts == policy.limit;
    let locked_until = if locks_if_wrong { now + policy.lock_ms } else { 0 };
    SecondFactorAdmission::Admitted {
        record: SecondFactorAttempts { window_start, attempts, locked_until },
        locks_if_wrong,
    }
}

/// The second factor of an account at sign-in, as far as the sign-in got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecondFactorCheck {
    /// The account has none.
    NotEnrolled,
    /// It has one and no code came with the password.
    Missing,
    /// A code came and is wrong, spent, or was not checked (a locked account).
    Wrong,
    Accepted,
}

/// What a sign-in with a password answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignInAnswer {
    SignedIn,
    /// The one refusal: wrong address, wrong password, missing or wrong code, alike.
    Refused,
}

/// The answer of a sign-in whose password is right or not, with its second factor. A right
/// password whose code is missing or wrong answers exactly as a wrong password does.
pub fn sign_in_answer(password_ok: bool, second_factor: SecondFactorCheck) -> SignInAnswer {
    match (password_ok, second_factor) {
        (true, SecondFactorCheck::NotEnrolled | SecondFactorCheck::Accepted) => SignInAnswer::SignedIn,
        _ => SignInAnswer::Refused,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: SecondFactorPolicy = SECOND_FACTOR_POLICY;
    const MINUTE: Millis = 60 * 1000;

    #[test]
    fn only_an_active_enabled_principal_keeps_its_sessions() {
        assert!(keeps_sessions("active", false));
        assert!(!keeps_sessions("active", true), "disabled");
        for status in ["inactive", "disabled", "deleted", "pending", "rejected", "", "ACTIVE", "unknown"] {
            assert!(!keeps_sessions(status, false), "{status}");
        }
    }

    #[test]
    fn leaving_the_active_status_ends_sessions_whatever_was_asked() {
        for to in [UserStatus::Inactive, UserStatus::Disabled, UserStatus::Deleted, UserStatus::Rejected] {
            assert!(move_ends_sessions(to, false), "{to}");
            assert!(move_ends_sessions(to, true), "{to}");
        }
        assert!(!move_ends_sessions(UserStatus::Active, false), "reactivation leaves nothing to end");
        assert!(move_ends_sessions(UserStatus::Active, true));
    }

    /// Admits attempts one after the other at `now`, as the store writes each record.
    fn admit_times(record: &mut Option<SecondFactorAttempts>, now: Millis, times: usize) -> Vec<SecondFactorAdmission> {
        (0..times)
            .map(|_| {
                let admission = admit_second_factor(record.as_ref(), now, &POLICY);
                if let SecondFactorAdmission::Admitted { record: next, .. } = admission {
                    *record = Some(next);
                }
                admission
            })
            .collect()
    }

    #[test]
    fn the_limit_th_attempt_locks_the_account_and_asks_for_the_notice() {
        let mut record = None;
        let admissions = admit_times(&mut record, 1_000, 5);
        let locks: Vec<bool> = admissions
            .iter()
            .map(|a| match a {
                SecondFactorAdmission::Admitted { locks_if_wrong, .. } => *locks_if_wrong,
                SecondFactorAdmission::Locked { .. } => panic!("refused too early: {a:?}"),
            })
            .collect();
        assert_eq!(locks, [false, false, false, false, true], "the notice once, with the last attempt");
        assert_eq!(second_factor_locked(record.as_ref(), 1_000), Some(1_000 + POLICY.lock_ms));
        assert_eq!(
            admit_second_factor(record.as_ref(), 1_000 + 29 * MINUTE, &POLICY),
            SecondFactorAdmission::Locked { until: 1_000 + POLICY.lock_ms },
            "from any address, whatever the code"
        );
    }

    #[test]
    fn a_served_lock_or_an_old_window_starts_the_count_again() {
        let mut record = None;
        admit_times(&mut record, 0, 5);
        let after_lock = POLICY.lock_ms;
        assert_eq!(second_factor_locked(record.as_ref(), after_lock), None);
        match admit_second_factor(record.as_ref(), after_lock, &POLICY) {
            SecondFactorAdmission::Admitted { record, locks_if_wrong } => {
                assert_eq!(record, SecondFactorAttempts { window_start: after_lock, attempts: 1, locked_until: 0 });
                assert!(!locks_if_wrong);
            }
            other => panic!("{other:?}"),
        }
        let mut record = None;
        admit_times(&mut record, 0, 4);
        match admit_second_factor(record.as_ref(), POLICY.window_ms, &POLICY) {
            SecondFactorAdmission::Admitted { record, .. } => assert_eq!(record.attempts, 1, "a new window"),
            other => panic!("{other:?}"),
        }
        match admit_second_factor(record.as_ref(), POLICY.window_ms - 1, &POLICY) {
            SecondFactorAdmission::Admitted { record, locks_if_wrong } => {
                assert_eq!((record.attempts, locks_if_wrong), (5, true), "still the old window");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_record_past_the_limit_opens_nothing() {
        let record = SecondFactorAttempts { window_start: 0, attempts: 9, locked_until: 0 };
        assert!(matches!(admit_second_factor(Some(&record), MINUTE, &POLICY), SecondFactorAdmission::Locked { .. }));
    }

    #[test]
    fn a_sign_in_refuses_a_wrong_password_exactly_as_a_missing_or_wrong_code() {
        use SecondFactorCheck::*;
        assert_eq!(sign_in_answer(true, NotEnrolled), SignInAnswer::SignedIn);
        assert_eq!(sign_in_answer(true, Accepted), SignInAnswer::SignedIn);
        let refusals = [
            sign_in_answer(true, Missing),
            sign_in_answer(true, Wrong),
            sign_in_answer(false, NotEnrolled),
            sign_in_answer(false, Missing),
            sign_in_answer(false, Wrong),
            sign_in_answer(false, Accepted),
        ];
        assert!(refusals.iter().all(|a| *a == SignInAnswer::Refused), "{refusals:?}");
    }
}
