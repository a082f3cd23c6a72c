//! Workflow rules: who signs in which order, which state changes are allowed, and when a
//! workflow is complete. Pure functions over plain values, shared by the API and the pages.

use std::collections::{BTreeSet, HashSet};

use crate::phone::PhoneNumber;
use crate::{Error, ErrorCode, FieldErrors, Millis};

/// Most signatories one workflow may have.
pub const MAX_SIGNATORIES: usize = 50;

crate::text_states! {
    /// The states of a workflow (an envelope).
    pub enum WorkflowState ("workflow state") {
        InProgress => "in_progress",
        Completed => "completed",
        Declined => "declined",
        Expired => "expired",
        Inactive => "inactive",
        Deleted => "deleted",
    }
}

impl WorkflowState {
    /// Only a workflow in progress moves on; any ended one may still be deleted.
    pub fn may_become(self, next: WorkflowState) -> bool {
        use WorkflowState::*;
        matches!(
            (self, next),
            (InProgress, Completed | Declined | Expired | Inactive | Deleted)
                | (Completed | Declined | Expired | Inactive, Deleted)
        )
    }

    /// The error for a change that `may_become` refuses.
    pub fn refuse(self, next: WorkflowState) -> Error {
        Error::rejected(
            ErrorCode::StateConflict,
            format!("a workflow that is {} cannot become {}", self.as_str(), next.as_str()),
        )
    }
}

crate::text_states! {
    /// The states of one signatory.
    pub enum SignatoryState ("signatory state") {
        /// Waiting for an earlier signing group.
        Pending => "pending",
        /// Their turn: the link was sent (or handed out).
        Notified => "notified",
        /// Opened the signer page.
        Viewed => "viewed",
        Signed => "signed",
        Declined => "declined",
        /// Handed the signature on to someone else, who takes this place in the order.
        Delegated => "delegated",
    }
}

impl SignatoryState {
    /// The states in which it is the signatory's turn (see `is_turn`), for queries that select them.
    pub const TURN: [SignatoryState; 2] = [SignatoryState::Notified, SignatoryState::Viewed];

    pub fn may_become(self, next: SignatoryState) -> bool {
        use SignatoryState::*;
        match (self, next) {
            (Pending, Notified) => true,
            (Notified, Viewed) => true,
            // The no-JavaScript form may be posted without a fresh page view.
            (Notified | Viewed, Signed | Declined | Delegated) => true,
            _ => false,
        }
    }

    /// Whether this signatory may act (sign, decline, delegate) now.
    pub fn is_turn(self) -> bool {
        SignatoryState::TURN.contains(&self)
    }

    /// Ended for this signatory, one way or another.
    pub fn is_final(self) -> bool {
        matches!(self, SignatoryState::Signed | SignatoryState::Declined | SignatoryState::Delegated)
    }
}

crate::text_states! {
    /// The states of a document, in a workflow or not.
    pub enum DocumentState ("document state") {
        /// Usable: may be bound to a workflow, signed and downloaded.
        Active => "active",
        /// Set aside by its owner; kept, but no longer signed.
        Inactive => "inactive",
        /// Removed with its workflow; the row stays for the record, the files go.
        Deleted => "deleted",
    }
}

crate::text_states! {
    /// How a signatory signs.
    pub enum SignatureMode ("mode of signature") {
        /// A typed, drawn or uploaded signature, sealed with the tenant's certificate.
        Electronic => "electronic",
        /// Aadhaar eSign: the ESP issues a certificate in the signer's name and signs.
        AadhaarEsign => "aadhaar_esign",
        /// The signer's own crypto token (DSC) through the signer utility on their PC.
        DscToken => "dsc_token",
    }
}

/// A mode of signature as the API takes it: the names above, or the gateway's SignatureType
/// numbers (4 electronic, 3 Aadhaar eSign, 2 crypto token); empty means electronic.
pub fn parse_signature_mode(text: Option<&str>) -> Result<SignatureMode, String> {
    let text = text.map(str::trim).unwrap_or("");
    match text.to_ascii_lowercase().replace(['-', ' '], "_").as_str() {
        "" | "4" | "electronic" | "esignature" => Ok(SignatureMode::Electronic),
        "3" | "aadhaar_esign" | "aadhaar" | "esign" => Ok(SignatureMode::AadhaarEsign),
        "2" | "dsc" | "dsc_token" | "digital_signature" => Ok(SignatureMode::DscToken),
        _ => Err("must be electronic (4), aadhaar_esign (3) or dsc_token (2)".to_string()),
    }
}

/// A signatory as the initiator names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatoryInput {
    pub subscriber_id: i64,
    pub email: String,
    pub name: Option<String>,
    pub signing_order: i64,
    /// `modeOfSignature` as sent.
    pub mode: Option<String>,
    /// A mobile number for SMS (`mobileNo`) as typed; empty or none: no SMS.
    pub mobile: Option<String>,
    /// The signer confirms a code texted to `mobile` before signing (`otpBySms`).
    pub otp_sms: bool,
}

/// A checked signatory, with its place in the order (1-based groups without gaps).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedSignatory {
    pub subscriber_id: i64,
    pub email: String,
    pub name: String,
    pub signing_order: i64,
    pub mode: SignatureMode,
    /// Where invitations and reminders are also texted, when SMS is configured.
    pub mobile: Option<PhoneNumber>,
    /// The signer confirms a code texted to `mobile` before signing (always with a mobile).
    pub otp_sms: bool,
}

/// A pragmatic e-mail check: one `@`, a non-empty local part, a dotted domain of letters,
/// digits and hyphens, no spaces, at most 254 characters.
/// Least time between two e-mails to one signatory that the sender sends by hand (reminders).
pub const REMINDER_GAP_MS: i64 = 60 * 60 * 1000;

/// Whether a reminder by hand may go now to a signatory last e-mailed (their link or a
/// reminder) at `last_notice`: an hour apart, so a sender cannot flood a signer.
pub fn may_remind_by_hand(last_notice: Millis, now: Millis) -> bool {
    now >= last_notice.saturating_add(REMINDER_GAP_MS)
}

/// Longest message a sender may write to the signers.
pub const MAX_MESSAGE_CHARS: usize = 2000;

/// A sender's message to the signers: at most [`MAX_MESSAGE_CHARS`] characters, lines and tabs
/// but no other control characters (it goes into e-mails and pages).
pub fn check_message(message: &str) -> Result<(), &'static str> {
    let bad = |c: char| c.is_control() && !matches!(c, '\n' | '\r' | '\t');
    if message.chars().count() > MAX_MESSAGE_CHARS || message.chars().any(bad) {
        return Err("must be at most 2000 characters, without control characters other than line breaks and tabs");
    }
    Ok(())
}

pub fn is_valid_email(email: &str) -> bool {
    email.len() <= 254 && is_email_shaped(email)
}

/// The shape of [`is_valid_email`] without its length cap, for fields whose schema sets
/// their own (the spec's 255 characters of referrals).
pub fn is_email_shaped(email: &str) -> bool {
    if email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Some((local, domain)) = email.split_once('@') else { return false };
    if local.is_empty() || local.len() > 64 || domain.contains('@') || local.contains(['<', '>', '"', ',', ';']) {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_alphanumeric() || c == '-')
        })
}

/// Checks the signatories and settles the order. Orders are 1, 2, 3, ... without gaps; equal
/// numbers form a parallel group. When every order is 0 (left out), they sign one after the
/// other in the listed order. Names default to the part of the address before `@`.
pub fn plan_signatories(inputs: &[SignatoryInput]) -> Result<Vec<PlannedSignatory>, Error> {
    let mut errors = FieldErrors::new();
    let mut add = |field: String, message: String| errors.entry(field).or_default().push(message);
    if inputs.is_empty() {
        add("signatories".into(), "at least one signatory is required".into());
    }
    if inputs.len() > MAX_SIGNATORIES {
        add("signatories".into(), format!("at most {MAX_SIGNATORIES} signatories"));
    }
    let mut seen = HashSet::new();
    for (i, s) in inputs.iter().enumerate() {
        let email = s.email.trim();
        if !is_valid_email(email) {
            add(format!("signatories[{i}].emailId"), "must be a valid e-mail address".into());
        } else if !seen.insert(email.to_lowercase()) {
            add(format!("signatories[{i}].emailId"), "the same signatory is named twice".into());
        }
        if s.subscriber_id < 0 {
            add(format!("signatories[{i}].subscriberId"), "must be 0 (outside signer) or a user id".into());
        }
        if let Some(name) = &s.name
            && (name.chars().count() > 200 || name.chars().any(char::is_control))
        {
            add(format!("signatories[{i}].name"), "must be at most 200 characters without control characters".into());
        }
        if let Err(message) = parse_signature_mode(s.mode.as_deref()) {
            add(format!("signatories[{i}].modeOfSignature"), message);
        }
        match mobile_of(s) {
            Err(message) => add(format!("signatories[{i}].mobileNo"), message.into()),
            Ok(None) if s.otp_sms => add(
                format!("signatories[{i}].otpBySms"),
                "a code by SMS needs the signatory's mobile number (mobileNo)".into(),
            ),
            Ok(_) => {}
        }
    }
    let all_unset = inputs.iter().all(|s| s.signing_order == 0);
    if !all_unset {
        let orders: BTreeSet<i64> = inputs.iter().map(|s| s.signing_order).collect();
        if orders.iter().any(|o| *o < 1) {
            add(
                "signatories".into(),
                "signingOrder must be at least 1 for every signatory (or left out for all)".into(),
            );
        } else if orders.iter().copied().ne(1..=orders.len() as i64) {
            add("signatories".into(), "signingOrder must run 1, 2, 3, ... without gaps".into());
        }
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    Ok(inputs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let email = s.email.trim().to_string();
            let name = s
                .name
                .as_deref()
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .unwrap_or_else(|| email.split('@').next().unwrap_or_default().to_string());
            let signing_order = if all_unset { i as i64 + 1 } else { s.signing_order };
            let mode = parse_signature_mode(s.mode.as_deref()).unwrap_or(SignatureMode::Electronic);
            let mobile = mobile_of(s).unwrap_or(None);
            let otp_sms = s.otp_sms;
            PlannedSignatory { subscriber_id: s.subscriber_id, email, name, signing_order, mode, mobile, otp_sms }
        })
        .collect())
}

/// The signatory's mobile number, when one is given (empty counts as none).
fn mobile_of(s: &SignatoryInput) -> Result<Option<PhoneNumber>, &'static str> {
    match s.mobile.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        Some(typed) => PhoneNumber::parse(typed).map(Some),
        None => Ok(None),
    }
}

/// Where a workflow stands, from its signatories' (order, state).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// The group with this order signs now.
    Group(i64),
    /// Everyone signed.
    Complete,
    /// Someone declined.
    Declined,
}

/// The current group is the lowest order with a signatory still to sign; delegated places
/// count through the person they were delegated to.
pub fn progress(signatories: &[(i64, SignatoryState)]) -> Progress {
    if signatories.iter().any(|(_, s)| *s == SignatoryState::Declined) {
        return Progress::Declined;
    }
    signatories
        .iter()
        .filter(|(_, s)| !s.is_final())
        .map(|(order, _)| *order)
        .min()
        .map(Progress::Group)
        .unwrap_or(Progress::Complete)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(email: &str, order: i64) -> SignatoryInput {
        SignatoryInput {
            subscriber_id: 0,
            email: email.into(),
            name: None,
            signing_order: order,
            mode: None,
            mobile: None,
            otp_sms: false,
        }
    }

    #[test]
    fn reminders_by_hand_are_an_hour_apart() {
        let last = 1_700_000_000_000;
        assert!(!may_remind_by_hand(last, last));
        assert!(!may_remind_by_hand(last, last + REMINDER_GAP_MS - 1));
        assert!(may_remind_by_hand(last, last + REMINDER_GAP_MS));
        assert!(!may_remind_by_hand(i64::MAX, i64::MAX - 1), "no overflow");
    }

    #[test]
    fn a_message_to_the_signers_keeps_its_lines_and_nothing_else_invisible() {
        assert!(check_message("Dear Asha,\r\n\tplease sign by Friday.").is_ok());
        assert!(check_message(&"x".repeat(MAX_MESSAGE_CHARS)).is_ok());
        assert!(check_message(&"x".repeat(MAX_MESSAGE_CHARS + 1)).is_err());
        for bad in ["bell\u{7}", "escape\u{1b}[31m", "nul\0", "next line\u{85}"] {
            assert!(check_message(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn emails() {
        for ok in ["a@b.co", "first.last+tag@sub.example.org", "ü@bücher.de"] {
            assert!(is_valid_email(ok), "{ok}");
        }
        for bad in ["", "a", "a@b", "a@@b.co", "a b@c.co", "@b.co", "a@-b.co", "a@b..co", "<a>@b.co"] {
            assert!(!is_valid_email(bad), "{bad}");
        }
    }

    #[test]
    fn orders_without_gaps_and_parallel_groups() {
        let plan = plan_signatories(&[input("a@x.io", 1), input("b@x.io", 2), input("c@x.io", 2)]).expect("plan");
        assert_eq!(plan.iter().map(|p| p.signing_order).collect::<Vec<_>>(), vec![1, 2, 2]);
        assert_eq!(plan[0].name, "a");
        let unset = plan_signatories(&[input("a@x.io", 0), input("b@x.io", 0)]).expect("plan");
        assert_eq!(unset.iter().map(|p| p.signing_order).collect::<Vec<_>>(), vec![1, 2]);
    }

    #[test]
    fn refusals() {
        assert!(plan_signatories(&[]).is_err());
        assert!(plan_signatories(&[input("a@x.io", 1), input("b@x.io", 3)]).is_err(), "gap");
        assert!(plan_signatories(&[input("a@x.io", 0), input("b@x.io", 1)]).is_err(), "mixed");
        assert!(plan_signatories(&[input("a@x.io", 1), input("A@X.io", 2)]).is_err(), "duplicate");
        assert!(plan_signatories(&[input("not-an-email", 1)]).is_err());
    }

    #[test]
    fn transitions() {
        use SignatoryState::*;
        assert!(Pending.may_become(Notified));
        assert!(!Pending.may_become(Signed), "out of turn");
        assert!(!Signed.may_become(Signed), "twice");
        assert!(Viewed.may_become(Delegated));
        assert!(WorkflowState::InProgress.may_become(WorkflowState::Completed));
        assert!(!WorkflowState::Completed.may_become(WorkflowState::Declined));
        assert!(WorkflowState::Completed.may_become(WorkflowState::Deleted));
        assert!(!WorkflowState::Deleted.may_become(WorkflowState::Deleted));
    }

    #[test]
    fn states_round_trip_through_their_stored_text() {
        for state in WorkflowState::ALL {
            assert_eq!(WorkflowState::try_from(state.as_str().to_string()), Ok(*state));
        }
        for state in SignatoryState::ALL {
            assert_eq!(SignatoryState::try_from(state.to_string()), Ok(*state));
        }
        for state in DocumentState::ALL {
            assert_eq!(DocumentState::parse(state.as_str()), Some(*state));
        }
        let unknown = DocumentState::try_from("archived".to_string()).map_err(|e| e.to_string());
        assert_eq!(unknown, Err("unknown document state \"archived\"".to_string()));
        assert_eq!(SignatoryState::TURN.map(SignatoryState::is_turn), [true, true]);
    }

    #[test]
    fn progress_follows_groups() {
        use SignatoryState::*;
        assert_eq!(progress(&[(1, Signed), (2, Notified), (2, Signed), (3, Pending)]), Progress::Group(2));
        assert_eq!(progress(&[(1, Delegated), (1, Signed)]), Progress::Complete);
        assert_eq!(progress(&[(1, Declined), (2, Pending)]), Progress::Declined);
    }

    #[test]
    fn modes_of_signature_take_names_and_gateway_numbers() {
        assert_eq!(parse_signature_mode(None), Ok(SignatureMode::Electronic));
        assert_eq!(parse_signature_mode(Some(" 4 ")), Ok(SignatureMode::Electronic));
        for aadhaar in ["3", "aadhaar_esign", "Aadhaar eSign", "esign"] {
            assert_eq!(parse_signature_mode(Some(aadhaar)), Ok(SignatureMode::AadhaarEsign), "{aadhaar}");
        }
        assert_eq!(parse_signature_mode(Some("2")), Ok(SignatureMode::DscToken));
        assert!(parse_signature_mode(Some("fax")).is_err());
        let mut inputs = vec![input("a@b.co", 0)];
        inputs[0].mode = Some("3".into());
        assert_eq!(plan_signatories(&inputs).ok().map(|p| p[0].mode), Some(SignatureMode::AadhaarEsign));
        inputs[0].mode = Some("fax".into());
        assert!(plan_signatories(&inputs).is_err());
    }

    #[test]
    fn mobile_numbers_are_checked_and_kept_in_international_form() {
        let mut inputs = vec![input("a@b.co", 0), input("c@d.co", 0)];
        inputs[0].mobile = Some("98765 43210".into());
        inputs[1].mobile = Some("  ".into());
        let planned = plan_signatories(&inputs).expect("planned");
        assert_eq!(planned[0].mobile.as_ref().map(PhoneNumber::e164), Some("+919876543210"));
        assert_eq!(planned[1].mobile, None, "blank is no number");
        inputs[1].mobile = Some("12345".into());
        let Err(Error::Validation(fields)) = plan_signatories(&inputs) else { panic!("refused") };
        assert_eq!(fields.keys().collect::<Vec<_>>(), ["signatories[1].mobileNo"]);
    }

    #[test]
    fn a_code_by_sms_needs_a_mobile_number() {
        let mut inputs = vec![input("a@b.co", 0), input("c@d.co", 0)];
        inputs[0].mobile = Some("+919876543210".into());
        inputs[0].otp_sms = true;
        assert!(plan_signatories(&inputs).expect("planned")[0].otp_sms);
        inputs[1].otp_sms = true;
        let Err(Error::Validation(fields)) = plan_signatories(&inputs) else { panic!("refused") };
        assert_eq!(fields.keys().collect::<Vec<_>>(), ["signatories[1].otpBySms"]);
    }
}
