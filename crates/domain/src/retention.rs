//! How long an organisation keeps what its workflows and gateway transactions leave behind, and
//! what an erasure request may take: the rules, free of storage.
//!
//! A retention period is both a floor and a ceiling. Lenders must keep signed records for years
//! (RBI's KYC directions: five years after the relationship ends), so a person's erasure request
//! does not take a record still inside its period; and India's DPDP Act asks that personal data
//! go once its purpose is served, so the daily sweep erases a record when its period ends. No
//! period set means the organisation keeps the record until someone erases it: the sweep leaves
//! it, and an erasure request takes it at once. A legal hold keeps a workflow whatever its
//! period says, until the hold is released.

use serde::{Deserialize, Serialize};

use crate::workflow::WorkflowState;
use crate::{FieldErrors, Millis};

/// The longest period an organisation may set: a hundred years.
pub const MAX_DAYS: u32 = 36_500;
/// Milliseconds in a day.
pub const DAY_MS: Millis = 86_400_000;
/// The longest reason of a legal hold.
pub const MAX_HOLD_REASON: usize = 500;

/// Periods in days after a workflow ended (or a gateway transaction finished) before the sweep
/// erases it; `None` keeps it until erased on request. 0 erases at the next sweep.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RetentionPeriods {
    pub completed_days: Option<u32>,
    pub declined_days: Option<u32>,
    pub expired_days: Option<u32>,
    /// Gateway transactions (organisation-wide only: they have no template).
    pub gateway_days: Option<u32>,
}

impl RetentionPeriods {
    /// The period for a workflow that ended in `state`; `None` for a state that is not an end.
    pub fn for_state(&self, state: WorkflowState) -> Option<u32> {
        match ended(state)? {
            Ended::Completed => self.completed_days,
            Ended::Declined => self.declined_days,
            Ended::Expired => self.expired_days,
        }
    }

    /// A template's periods over the organisation's: each field the template sets wins.
    pub fn over(&self, organisation: &RetentionPeriods) -> RetentionPeriods {
        RetentionPeriods {
            completed_days: self.completed_days.or(organisation.completed_days),
            declined_days: self.declined_days.or(organisation.declined_days),
            expired_days: self.expired_days.or(organisation.expired_days),
            gateway_days: organisation.gateway_days,
        }
    }

    /// Field errors under `prefix` (`""` or `templates[3].`) for periods out of range.
    pub fn check(&self, prefix: &str, errors: &mut FieldErrors) {
        let fields = [
            ("completedDays", self.completed_days),
            ("declinedDays", self.declined_days),
            ("expiredDays", self.expired_days),
            ("gatewayDays", self.gateway_days),
        ];
        for (name, days) in fields {
            if days.is_some_and(|d| d > MAX_DAYS) {
                errors.insert(format!("{prefix}{name}"), vec![format!("must be 0 to {MAX_DAYS} days")]);
            }
        }
    }
}

/// The states a workflow ends in, each with its own period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Completed,
    Declined,
    Expired,
}

impl Ended {
    pub const ALL: [Ended; 3] = [Ended::Completed, Ended::Declined, Ended::Expired];

    pub fn state(self) -> WorkflowState {
        match self {
            Ended::Completed => WorkflowState::Completed,
            Ended::Declined => WorkflowState::Declined,
            Ended::Expired => WorkflowState::Expired,
        }
    }
}

/// The end a state is, if it is one.
pub fn ended(state: WorkflowState) -> Option<Ended> {
    match state {
        WorkflowState::Completed => Some(Ended::Completed),
        WorkflowState::Declined => Some(Ended::Declined),
        WorkflowState::Expired => Some(Ended::Expired),
        _ => None,
    }
}

/// When a record that ended at `ended_at` leaves its period of `days`.
pub fn period_ends(ended_at: Millis, days: u32) -> Millis {
    ended_at.saturating_add(DAY_MS.saturating_mul(Millis::from(days)))
}

/// Why a record is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeptBecause {
    /// The workflow is still being signed.
    InProgress,
    /// A legal hold is on it.
    LegalHold,
    /// Its retention period has not ended.
    Retention,
}

/// What an erasure request may do with one workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Erase,
    /// Kept for this reason, until this time (none: until the reason goes).
    Keep(KeptBecause, Option<Millis>),
}

/// A workflow as an erasure request or the sweep sees it.
#[derive(Debug, Clone, Copy)]
pub struct Standing {
    pub state: WorkflowState,
    pub ended_at: Option<Millis>,
    pub held: bool,
}

/// What a person's erasure request does with a workflow, under the periods that apply to it:
/// a hold or a workflow still being signed keeps it; a period not yet over keeps it until it
/// ends; otherwise it goes (recalled and deleted workflows included: no period covers them).
pub fn on_request(standing: Standing, periods: &RetentionPeriods, now: Millis) -> Verdict {
    if standing.held {
        return Verdict::Keep(KeptBecause::LegalHold, None);
    }
    // A recalled or deleted workflow has no period: the request takes it.
    if standing.state == WorkflowState::InProgress {
        return Verdict::Keep(KeptBecause::InProgress, None);
    }
    match (periods.for_state(standing.state), standing.ended_at) {
        (Some(days), Some(at)) if period_ends(at, days) > now => {
            Verdict::Keep(KeptBecause::Retention, Some(period_ends(at, days)))
        }
        _ => Verdict::Erase,
    }
}

/// Whether the sweep erases a workflow now: it ended, is not held, and a period applies that
/// is over (no period: kept).
pub fn sweep_due(standing: Standing, periods: &RetentionPeriods, now: Millis) -> bool {
    if standing.held {
        return false;
    }
    match (periods.for_state(standing.state), standing.ended_at) {
        (Some(days), Some(at)) => period_ends(at, days) <= now,
        _ => false,
    }
}

/// A hold's reason: trimmed, 1 to [`MAX_HOLD_REASON`] characters.
pub fn hold_reason(reason: &str) -> Result<String, FieldErrors> {
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > MAX_HOLD_REASON {
        let mut errors = FieldErrors::new();
        errors.insert("reason".into(), vec![format!("must be 1 to {MAX_HOLD_REASON} characters")]);
        return Err(errors);
    }
    Ok(reason.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Millis = 1_000 * DAY_MS;

    fn standing(state: WorkflowState, ended_days_ago: Option<i64>, held: bool) -> Standing {
        Standing { state, ended_at: ended_days_ago.map(|d| NOW - d * DAY_MS), held }
    }

    fn five_years() -> RetentionPeriods {
        RetentionPeriods { completed_days: Some(1825), declined_days: Some(30), ..RetentionPeriods::default() }
    }

    #[test]
    fn a_request_erases_only_what_no_period_or_hold_keeps() {
        let periods = five_years();
        let completed = standing(WorkflowState::Completed, Some(10), false);
        assert_eq!(
            on_request(completed, &periods, NOW),
            Verdict::Keep(KeptBecause::Retention, Some(NOW - 10 * DAY_MS + 1825 * DAY_MS))
        );
        assert_eq!(on_request(standing(WorkflowState::Declined, Some(31), false), &periods, NOW), Verdict::Erase);
        // No period for expired workflows: the request takes them at once.
        assert_eq!(on_request(standing(WorkflowState::Expired, Some(1), false), &periods, NOW), Verdict::Erase);
        assert_eq!(
            on_request(standing(WorkflowState::Declined, Some(400), true), &periods, NOW),
            Verdict::Keep(KeptBecause::LegalHold, None)
        );
        assert_eq!(
            on_request(standing(WorkflowState::InProgress, None, false), &periods, NOW),
            Verdict::Keep(KeptBecause::InProgress, None)
        );
        assert_eq!(on_request(standing(WorkflowState::Deleted, None, false), &periods, NOW), Verdict::Erase);
    }

    #[test]
    fn the_sweep_takes_what_a_period_ended_and_keeps_the_rest() {
        let periods = five_years();
        assert!(sweep_due(standing(WorkflowState::Declined, Some(30), false), &periods, NOW), "the day it ends");
        assert!(!sweep_due(standing(WorkflowState::Declined, Some(29), false), &periods, NOW));
        assert!(!sweep_due(standing(WorkflowState::Declined, Some(400), true), &periods, NOW), "held");
        assert!(!sweep_due(standing(WorkflowState::Expired, Some(4000), false), &periods, NOW), "no period");
        assert!(!sweep_due(standing(WorkflowState::InProgress, None, false), &periods, NOW));
        let now_or_never = RetentionPeriods { completed_days: Some(0), ..RetentionPeriods::default() };
        assert!(sweep_due(standing(WorkflowState::Completed, Some(0), false), &now_or_never, NOW));
    }

    #[test]
    fn a_template_overrides_field_by_field_but_not_the_gateway() {
        let organisation = RetentionPeriods { gateway_days: Some(7), ..five_years() };
        let template =
            RetentionPeriods { completed_days: Some(3650), gateway_days: Some(1), ..RetentionPeriods::default() };
        let applied = template.over(&organisation);
        assert_eq!(applied.completed_days, Some(3650));
        assert_eq!(applied.declined_days, Some(30));
        assert_eq!(applied.gateway_days, Some(7));
    }

    #[test]
    fn periods_and_reasons_are_bounded() {
        let mut errors = FieldErrors::new();
        RetentionPeriods { expired_days: Some(MAX_DAYS + 1), ..RetentionPeriods::default() }
            .check("templates[0].", &mut errors);
        assert!(errors.contains_key("templates[0].expiredDays"), "{errors:?}");
        assert!(hold_reason("   ").is_err());
        assert!(hold_reason(&"x".repeat(MAX_HOLD_REASON + 1)).is_err());
        assert_eq!(hold_reason(" litigation 42/2026 ").ok().as_deref(), Some("litigation 42/2026"));
    }
}
