//! People of a tenant: the rules of a user's fields (`CreateInternalUserRequest`), their
//! statuses and life cycle. National ids are Aadhaar numbers (12 digits, Verhoeff check
//! digit, not starting with 0 or 1); PAN is five letters, four digits, a letter.

use crate::access::Role;
use crate::error::FieldErrors;
use crate::workflow::{SignatureMode, is_valid_email, parse_signature_mode};
use crate::{Error, Millis, text_states};

text_states! {
    /// Where a user stands. Only `active` users sign in.
    pub enum UserStatus ("user status") {
        Active => "active",
        /// Marked inactive (on leave, left): no sign-in, history kept; may be reactivated.
        Inactive => "inactive",
        /// Disabled by an administrator: no sign-in.
        Disabled => "disabled",
        /// An external user who registered and waits for approval.
        Pending => "pending",
        /// An external user whose registration was rejected.
        Rejected => "rejected",
        /// Deleted: personal data erased, the id kept for the signed history.
        Deleted => "deleted",
    }
}

text_states! {
    /// Staff of the tenant, or a customer or counterparty who signs.
    pub enum UserKind ("user type") {
        Internal => "internal",
        External => "external",
    }
}

text_states! {
    /// How a user signs in (`loginAuthentication`).
    pub enum LoginMode ("login mode") {
        Password => "password",
        EmailOtp => "email_otp",
        Sso => "sso",
    }
}

impl UserStatus {
    /// The life cycle: who may become what. Deleted is final.
    pub fn may_become(self, next: UserStatus) -> bool {
        use UserStatus::*;
        matches!(
            (self, next),
            (Active, Inactive | Disabled | Deleted)
                | (Inactive | Disabled, Active | Deleted)
                | (Inactive, Disabled)
                | (Disabled, Inactive)
                | (Pending, Active | Rejected | Deleted)
                | (Rejected, Deleted)
        )
    }
}

/// Longest free text of a user's profile (designation, organization, …).
pub const MAX_TEXT: usize = 150;

/// A user's fields as sent (every one optional in the spec's schema).
#[derive(Debug, Default, Clone)]
pub struct UserInput {
    pub name: Option<String>,
    pub email: Option<String>,
    pub alternative_email: Option<String>,
    pub contact_number: Option<String>,
    pub organization: Option<String>,
    pub department_id: Option<i64>,
    pub geo_profile_id: Option<i64>,
    pub designation: Option<String>,
    pub signature_type: Option<String>,
    pub profile_id: Option<String>,
    pub signature_option: Option<i64>,
    pub login_authentication: Option<String>,
    pub national_id: Option<String>,
    pub time_zone: Option<String>,
    pub role_id: Option<i64>,
    /// Date of birth, milliseconds since the epoch.
    pub dob: Option<Millis>,
    pub pan: Option<String>,
}

/// A user's fields after the rules: what is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserDetails {
    pub name: String,
    pub email: String,
    pub alternative_email: Option<String>,
    pub contact_number: Option<String>,
    pub organization: Option<String>,
    pub department_id: Option<i64>,
    pub geo_profile_id: Option<i64>,
    pub designation: Option<String>,
    pub signature_type: SignatureMode,
    pub profile_id: Option<String>,
    pub signature_option: Option<i64>,
    pub login: LoginMode,
    /// The Aadhaar number, digits only (the store keeps a keyed digest and the last four).
    pub national_id: Option<String>,
    pub time_zone: Option<String>,
    pub role: Role,
    /// A tenant's own role (its stored id), when `roleId` names one.
    pub custom_role: Option<crate::RoleId>,
    pub dob: Option<Millis>,
    pub pan: Option<String>,
}

/// Free text as stored: trimmed, absent when blank.
fn text(value: &Option<String>) -> Option<String> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_string)
}

/// A value with a fixed shape: absent when empty, otherwise checked exactly as sent.
fn shaped(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|v| !v.is_empty())
}

/// `Some(message)` when free text is too long or has control characters.
fn bad_text(value: &str, max: usize) -> Option<String> {
    (value.chars().count() > max || value.chars().any(char::is_control))
        .then(|| format!("must be at most {max} characters without control characters"))
}

/// Whether `digits` (12 of them) pass the Verhoeff check Aadhaar numbers carry.
pub fn verhoeff_valid(digits: &str) -> bool {
    const D: [[u8; 10]; 10] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
        [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
        [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
        [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
        [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
        [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
        [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
        [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ];
    const P: [[u8; 10]; 8] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
        [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
        [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
        [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
        [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
        [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
        [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
    ];
    let mut check = 0u8;
    for (i, c) in digits.bytes().rev().enumerate() {
        if !c.is_ascii_digit() {
            return false;
        }
        check = D[usize::from(check)][usize::from(P[i % 8][usize::from(c - b'0')])];
    }
    check == 0
}

/// An Aadhaar number: 12 digits in groups of four, a space or hyphen allowed between the
/// groups (`^[2-9][0-9]{3}[ -]?[0-9]{4}[ -]?[0-9]{4}$`); answers the 12 digits.
pub fn parse_aadhaar(value: &str) -> Result<String, String> {
    let Some(digits) = aadhaar_digits(value) else {
        return Err("must be a 12-digit Aadhaar number".into());
    };
    if digits.starts_with(['0', '1']) || !verhoeff_valid(&digits) {
        return Err("is not a valid Aadhaar number (its check digit does not match)".into());
    }
    Ok(digits)
}

/// Three groups of four digits, each group after the first optionally after one space or hyphen.
fn aadhaar_digits(value: &str) -> Option<String> {
    let mut digits = String::with_capacity(12);
    let mut chars = value.chars().peekable();
    for group in 0..3 {
        if group > 0 && matches!(chars.peek(), Some(' ' | '-')) {
            chars.next();
        }
        for _ in 0..4 {
            digits.push(chars.next().filter(char::is_ascii_digit)?);
        }
    }
    chars.next().is_none().then_some(digits)
}

/// A PAN: `AAAAA9999A`, its fourth letter the holder's kind (P person, C company, …).
pub fn parse_pan(value: &str) -> Result<String, String> {
    let pan = value.to_ascii_uppercase();
    let b = pan.as_bytes();
    let shape = b.len() == 10
        && b[..5].iter().all(u8::is_ascii_uppercase)
        && b[5..9].iter().all(u8::is_ascii_digit)
        && b[9].is_ascii_uppercase();
    if !shape {
        return Err("must be a PAN: five letters, four digits and a letter (e.g. ABCPE1234F)".into());
    }
    if !b"ABCFGHLJPT".contains(&b[3]) {
        return Err("is not a valid PAN (its fourth letter names no kind of holder)".into());
    }
    Ok(pan)
}

/// A phone number: an optional leading +, then 7 to 15 digits, single spaces or hyphens
/// allowed between digits (`^\+?[0-9](?:[ -]?[0-9]){6,14}$`); answers it without separators.
pub fn parse_phone(value: &str) -> Result<String, String> {
    let invalid = || "must be a phone number of 7 to 15 digits, optionally with a leading +".to_string();
    let (plus, rest) = match value.strip_prefix('+') {
        Some(rest) => ("+", rest),
        None => ("", value),
    };
    let bytes = rest.as_bytes();
    let shape = bytes.first().is_some_and(u8::is_ascii_digit)
        && bytes.last().is_some_and(u8::is_ascii_digit)
        && bytes.iter().all(|b| b.is_ascii_digit() || matches!(b, b' ' | b'-'))
        && !bytes.windows(2).any(|w| !w[0].is_ascii_digit() && !w[1].is_ascii_digit());
    let digits: String = rest.chars().filter(char::is_ascii_digit).collect();
    if !shape || !(7..=15).contains(&digits.len()) {
        return Err(invalid());
    }
    Ok(format!("{plus}{digits}"))
}

/// An IANA time-zone name (`Asia/Kolkata`, `UTC`, `America/Argentina/Buenos_Aires`).
pub fn parse_time_zone(value: &str) -> Result<String, String> {
    let zone = value;
    let part_ok = |p: &str| {
        !p.is_empty()
            && p.len() <= 32
            && p.starts_with(|c: char| c.is_ascii_alphabetic())
            && p.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+'))
    };
    if zone.len() > 64 || !zone.split('/').all(part_ok) {
        return Err("must be an IANA time-zone name such as Asia/Kolkata or UTC".into());
    }
    Ok(zone.to_string())
}

fn parse_login(value: Option<&str>) -> Result<LoginMode, String> {
    match value.map(str::trim).map(str::to_ascii_lowercase).as_deref() {
        None | Some("") | Some("password") => Ok(LoginMode::Password),
        Some("otp") | Some("email_otp") | Some("emailotp") => Ok(LoginMode::EmailOtp),
        Some("sso") => Ok(LoginMode::Sso),
        Some(_) => Err("must be password, email_otp or sso".into()),
    }
}

/// Applies the rules of a user's fields; `now` bounds the date of birth. Every broken rule is
/// reported at once, by field.
pub fn validate_user(input: &UserInput, now: Millis) -> Result<UserDetails, Error> {
    let mut errors = FieldErrors::new();
    let mut add = |field: &str, message: String| errors.entry(field.to_string()).or_default().push(message);

    let name = text(&input.name).unwrap_or_default();
    if name.is_empty() {
        add("name", "is required".into());
    } else if let Some(message) = input.name.as_deref().and_then(|raw| bad_text(raw, MAX_TEXT)) {
        add("name", message);
    }
    let email = input.email.clone().unwrap_or_default();
    if !is_valid_email(&email) {
        add("EmailID", "must be a valid e-mail address".into());
    }
    let alternative_email = shaped(&input.alternative_email).map(str::to_string);
    if let Some(alt) = &alternative_email
        && (!is_valid_email(alt) || alt.eq_ignore_ascii_case(&email))
    {
        add("AlternativeEmailID", "must be a valid e-mail address other than EmailID".into());
    }
    let contact_number = match shaped(&input.contact_number).map(parse_phone).transpose() {
        Ok(phone) => phone,
        Err(message) => {
            add("contactNumber", message);
            None
        }
    };
    for (field, value) in
        [("organization", &input.organization), ("designation", &input.designation), ("profileId", &input.profile_id)]
    {
        if let Some(message) = value.as_deref().and_then(|v| bad_text(v, MAX_TEXT)) {
            add(field, message);
        }
    }
    for (field, value) in [("deptId", input.department_id), ("geoProfileId", input.geo_profile_id)] {
        if value.is_some_and(|v| !(1..=i64::from(i32::MAX)).contains(&v)) {
            add(field, "must be an id from 1 to 2147483647".into());
        }
    }
    let signature_type = parse_signature_mode(input.signature_type.as_deref()).unwrap_or_else(|message| {
        add("signatureType", message);
        SignatureMode::Electronic
    });
    if input.signature_option.is_some_and(|o| !(0..=15).contains(&o)) {
        add("signatureOption", "must be 0 to 15 (1 draw, 2 type, 4 upload, 8 pad, combined)".into());
    }
    let login = parse_login(input.login_authentication.as_deref()).unwrap_or_else(|message| {
        add("loginAuthentication", message);
        LoginMode::Password
    });
    let national_id = match shaped(&input.national_id).map(parse_aadhaar).transpose() {
        Ok(id) => id,
        Err(message) => {
            add("nationalId", message);
            None
        }
    };
    let pan = match shaped(&input.pan).map(parse_pan).transpose() {
        Ok(pan) => pan,
        Err(message) => {
            add("PanNumber", message);
            None
        }
    };
    let time_zone = match shaped(&input.time_zone).map(parse_time_zone).transpose() {
        Ok(zone) => zone,
        Err(message) => {
            add("timeZoneId", message);
            None
        }
    };
    let (role, custom_role) = match input.role_id {
        None => (Role::Sender, None),
        Some(id) => match crate::access::RoleRef::from_wire(id) {
            Some(crate::access::RoleRef::BuiltIn(role)) => (role, None),
            // A tenant's own role: the built-in role underneath is the least one.
            Some(crate::access::RoleRef::Custom(custom)) => (Role::Signer, Some(custom)),
            None => {
                add(
                    "roleId",
                    "must be 1 (administrator), 2 (sender), 3 (signer), 4 (auditor) or a tenant role's id (above 100)"
                        .into(),
                );
                (Role::Sender, None)
            }
        },
    };
    const EARLIEST_DOB: Millis = -2_208_988_800_000; // 1900-01-01
    if input.dob.is_some_and(|dob| dob < EARLIEST_DOB || dob > now) {
        add("dob", "must be a date between 1900 and today".into());
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    Ok(UserDetails {
        name,
        email: email.to_lowercase(),
        alternative_email: alternative_email.map(|a| a.to_lowercase()),
        contact_number,
        organization: text(&input.organization),
        department_id: input.department_id,
        geo_profile_id: input.geo_profile_id,
        designation: text(&input.designation),
        signature_type,
        profile_id: text(&input.profile_id),
        signature_option: input.signature_option,
        login,
        national_id,
        time_zone,
        role,
        custom_role,
        dob: input.dob,
        pan,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> UserInput {
        UserInput { name: Some("Asha Verma".into()), email: Some("Asha@Bank.example".into()), ..UserInput::default() }
    }

    #[test]
    fn aadhaar_numbers_carry_a_verhoeff_check_digit() {
        // UIDAI's published sample number.
        assert_eq!(parse_aadhaar("4991 1866 5246").as_deref(), Ok("499118665246"));
        assert!(parse_aadhaar("499118665247").is_err(), "one digit off");
        assert!(parse_aadhaar("099118665246").is_err(), "cannot start with 0");
        assert!(parse_aadhaar("49911866524").is_err());
        assert!(parse_aadhaar("49911866524x").is_err());
        assert_eq!(parse_aadhaar("4991-1866-5246").as_deref(), Ok("499118665246"));
        assert!(parse_aadhaar("49 9118665246").is_err(), "groups of four");
        assert_eq!(parse_aadhaar("4991 18665246").as_deref(), Ok("499118665246"));
        assert!(parse_aadhaar("४९९११८६६५२४६").is_err(), "ASCII digits only");
        assert!(parse_aadhaar(" 499118665246").is_err(), "nothing around it");
    }

    #[test]
    fn phone_numbers_have_digits_with_single_separators() {
        assert_eq!(parse_phone("+91 98765-43210").as_deref(), Ok("+919876543210"));
        for bad in ["12", "+91  98765", "-9876543210", "98765 43210 ", "98765x43210", "1234567890123456"] {
            assert!(parse_phone(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn pan_numbers_have_their_shape_and_a_holder_kind() {
        assert_eq!(parse_pan("abcpe1234f").as_deref(), Ok("ABCPE1234F"));
        assert!(parse_pan("ABCXE1234F").is_err(), "X is no kind of holder");
        assert!(parse_pan("ABCPE12345").is_err());
        assert!(parse_pan("ABCP1234F").is_err());
    }

    #[test]
    fn a_minimal_user_is_a_sender_with_a_password() {
        let user = validate_user(&input(), 0).expect("valid");
        assert_eq!(
            (user.role, user.login, user.email.as_str()),
            (Role::Sender, LoginMode::Password, "asha@bank.example")
        );
    }

    #[test]
    fn every_broken_rule_is_reported_by_field() {
        let bad = UserInput {
            name: Some(" ".into()),
            email: Some("nope".into()),
            contact_number: Some("12ab".into()),
            national_id: Some("123412341234".into()),
            pan: Some("X".into()),
            time_zone: Some("Not a zone!".into()),
            role_id: Some(9),
            dob: Some(i64::MAX),
            signature_type: Some("carrier pigeon".into()),
            login_authentication: Some("telepathy".into()),
            department_id: Some(0),
            ..UserInput::default()
        };
        let Err(Error::Validation(errors)) = validate_user(&bad, 1_700_000_000_000) else { panic!("invalid") };
        for field in [
            "name",
            "EmailID",
            "contactNumber",
            "nationalId",
            "PanNumber",
            "timeZoneId",
            "roleId",
            "dob",
            "signatureType",
            "loginAuthentication",
            "deptId",
        ] {
            assert!(errors.contains_key(field), "{field}: {errors:?}");
        }
    }

    #[test]
    fn deleted_is_final_and_pending_users_are_approved_or_rejected() {
        for next in UserStatus::ALL {
            assert!(!UserStatus::Deleted.may_become(*next));
        }
        assert!(UserStatus::Pending.may_become(UserStatus::Active));
        assert!(UserStatus::Pending.may_become(UserStatus::Rejected));
        assert!(!UserStatus::Rejected.may_become(UserStatus::Active));
        assert!(UserStatus::Inactive.may_become(UserStatus::Active));
    }
}

/// What a sender is e-mailed about the workflows they send, their own choice: a completed
/// workflow (with its signed documents) and a declined one unless they turn them off, each
/// signature when they turn it on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SenderNotices {
    pub completed: bool,
    pub declined: bool,
    pub signed: bool,
}

impl Default for SenderNotices {
    fn default() -> Self {
        SenderNotices { completed: true, declined: true, signed: false }
    }
}
