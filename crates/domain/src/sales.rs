//! Customer referrals and CRM leads (docs/api.md, "Referrals and CRM leads"): the field rules of
//! `CustomerReferralCreateRequest`, `CrmLeadUpsertRequest` and `CrmLeadMarkPushedRequest`, the
//! normal forms duplicates are found by, and how an upsert picks the lead it changes.
//!
//! Every bound and pattern here is also in the OpenAPI document (the API's schemas use these
//! constants), so a request the schema allows is never refused for its shape.

use crate::user::parse_phone;
use crate::workflow::is_email_shaped;
use crate::{Error, FieldErrors};

/// Names of people (`referrerName`, `referralName`, a lead's `name`): the spec's 150.
pub const MAX_NAME_CHARS: usize = 150;
/// E-mail addresses: the spec's 255.
pub const MAX_EMAIL_CHARS: usize = 255;
/// Mobile numbers: the spec's 20 characters; 7 to 15 digits, an optional leading `+`, single
/// spaces or hyphens between digits (the check every phone number of Signet passes).
pub const MAX_MOBILE_CHARS: usize = 20;
pub const MOBILE_PATTERN: &str = r"^\+?[0-9](?:[ -]?[0-9]){6,14}$";
/// A lead's key and visitor id: opaque identifiers of the caller's systems.
pub const MAX_KEY_CHARS: usize = 100;
pub const KEY_PATTERN: &str = r"^[A-Za-z0-9._:@-]+$";
/// A country calling code: `+91`, `91`, `1`.
pub const DIALCODE_PATTERN: &str = r"^\+?[0-9]{1,4}$";
pub const MAX_DIALCODE_CHARS: usize = 5;
/// ISO 4217 alphabetic code, upper case.
pub const CURRENCY_PATTERN: &str = "^[A-Z]{3}$";
/// A partner's referral code.
pub const PARTNER_CODE_PATTERN: &str = "^[A-Za-z0-9_-]+$";
pub const MAX_PARTNER_CODE_CHARS: usize = 50;
/// The client's address as the caller saw it (IPv4 or IPv6 text); recorded, not used.
pub const CLIENT_IP_PATTERN: &str = "^[0-9A-Fa-f:.]+$";
pub const MAX_CLIENT_IP_CHARS: usize = 45;
pub const MAX_PLAN_NAME_CHARS: usize = 100;
pub const MAX_STATE_CHARS: usize = 100;
pub const MAX_USER_AGENT_CHARS: usize = 500;
/// Largest amount a lead carries (in its currency's units).
pub const MAX_AMOUNT: f64 = 1e12;
/// How often a plan is billed: the kept forms, each with the spellings CRMs and sites send
/// (any case).
pub const BILLING_CYCLES: [(&str, &str); 12] = [
    ("monthly", "monthly"),
    ("month", "monthly"),
    ("quarterly", "quarterly"),
    ("quarter", "quarterly"),
    ("yearly", "yearly"),
    ("year", "yearly"),
    ("annual", "yearly"),
    ("annually", "yearly"),
    ("one_time", "one_time"),
    ("one-time", "one_time"),
    ("onetime", "one_time"),
    ("once", "one_time"),
];
/// How the customer would subscribe (any case).
pub const SUBSCRIPTION_MODES: [(&str, &str); 3] = [("trial", "trial"), ("free", "free"), ("paid", "paid")];
/// `CrmLeadMarkPushedRequest`: a stage name, the CRM's id of the lead, the error it reported.
pub const MAX_STAGE_CHARS: usize = 50;
pub const MAX_CRM_ID_CHARS: usize = 100;
pub const MAX_ERROR_CHARS: usize = 1000;

/// A lower-cased address, the form duplicates are found by.
pub fn normal_email(email: &str) -> String {
    email.to_lowercase()
}

/// A referral as sent (`CustomerReferralCreateRequest`; every field required).
#[derive(Debug, Clone, Default)]
pub struct ReferralInput {
    pub referrer_name: Option<String>,
    pub referrer_mobile: Option<String>,
    pub referrer_email: Option<String>,
    pub referral_name: Option<String>,
    pub referral_mobile: Option<String>,
    pub referral_email: Option<String>,
}

/// A checked referral; `*_mobile` without separators, `referral_email_key` lower-cased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Referral {
    pub referrer_name: String,
    pub referrer_mobile: String,
    pub referrer_email: String,
    pub referral_name: String,
    pub referral_mobile: String,
    pub referral_email: String,
}

impl Referral {
    /// The referred person's address as duplicates are found by.
    pub fn referral_email_key(&self) -> String {
        normal_email(&self.referral_email)
    }
}

/// Collects every field's errors before answering.
struct Checker {
    errors: FieldErrors,
}

impl Checker {
    fn new() -> Self {
        Checker { errors: FieldErrors::new() }
    }

    fn fail(&mut self, field: &str, message: impl Into<String>) {
        self.errors.entry(field.to_string()).or_default().push(message.into());
    }

    fn required(&mut self, field: &str, value: Option<&str>) -> Option<String> {
        if value.is_none() {
            self.fail(field, "is required");
        }
        value.map(str::to_string)
    }

    /// 1 to `max` characters (code points, as JSON Schema counts).
    fn text(&mut self, field: &str, value: Option<String>, max: usize) -> Option<String> {
        let value = value?;
        let count = value.chars().count();
        if count == 0 || count > max {
            self.fail(field, format!("must be 1 to {max} characters"));
            return None;
        }
        Some(value)
    }

    fn email(&mut self, field: &str, value: Option<String>) -> Option<String> {
        let value = self.text(field, value, MAX_EMAIL_CHARS)?;
        if !is_email_shaped(&value) {
            self.fail(field, "must be an e-mail address");
            return None;
        }
        Some(value)
    }

    /// A mobile number, answered in its normal form (digits, with the `+` if sent).
    fn mobile(&mut self, field: &str, value: Option<String>) -> Option<String> {
        let value = self.text(field, value, MAX_MOBILE_CHARS)?;
        match parse_phone(&value) {
            Ok(normal) => Some(normal),
            Err(message) => {
                self.fail(field, message);
                None
            }
        }
    }

    /// `max` characters at most, all matching `allowed`; `rule` says what was expected.
    fn shaped(
        &mut self,
        field: &str,
        value: Option<String>,
        max: usize,
        allowed: fn(char) -> bool,
        rule: &str,
    ) -> Option<String> {
        let value = self.text(field, value, max)?;
        if !value.chars().all(allowed) {
            self.fail(field, rule.to_string());
            return None;
        }
        Some(value)
    }

    /// One of `spellings` (any case), as its kept form.
    fn one_of(&mut self, field: &str, value: Option<String>, spellings: &[(&str, &'static str)]) -> Option<String> {
        let value = value?;
        let kept = crate::spelling::kept_form(spellings, &value);
        if kept.is_none() {
            let mut forms: Vec<&str> = spellings.iter().map(|(_, kept)| *kept).collect();
            forms.dedup();
            self.fail(field, format!("must be one of {} (any case)", forms.join(", ")));
        }
        kept.map(str::to_string)
    }

    fn finish<T>(self, value: T) -> Result<T, Error> {
        if self.errors.is_empty() { Ok(value) } else { Err(Error::Validation(self.errors)) }
    }
}

/// Checks a referral: every field present, names of 1 to 150 characters, addresses of at most
/// 255, mobile numbers as [`MOBILE_PATTERN`] says.
pub fn check_referral(input: &ReferralInput) -> Result<Referral, Error> {
    let mut c = Checker::new();
    let name = |c: &mut Checker, field: &str, value: &Option<String>| {
        let value = c.required(field, value.as_deref());
        c.text(field, value, MAX_NAME_CHARS)
    };
    let referrer_name = name(&mut c, "referrerName", &input.referrer_name);
    let referral_name = name(&mut c, "referralName", &input.referral_name);
    let mobile = |c: &mut Checker, field: &str, value: &Option<String>| {
        let value = c.required(field, value.as_deref());
        c.mobile(field, value)
    };
    let referrer_mobile = mobile(&mut c, "referrerMobile", &input.referrer_mobile);
    let referral_mobile = mobile(&mut c, "referralMobile", &input.referral_mobile);
    let email = |c: &mut Checker, field: &str, value: &Option<String>| {
        let value = c.required(field, value.as_deref());
        c.email(field, value)
    };
    let referrer_email = email(&mut c, "referrerEmail", &input.referrer_email);
    let referral_email = email(&mut c, "referralEmail", &input.referral_email);
    let (
        Some(referrer_name),
        Some(referrer_mobile),
        Some(referrer_email),
        Some(referral_name),
        Some(referral_mobile),
        Some(referral_email),
    ) = (referrer_name, referrer_mobile, referrer_email, referral_name, referral_mobile, referral_email)
    else {
        return Err(Error::Validation(c.errors));
    };
    c.finish(Referral {
        referrer_name,
        referrer_mobile,
        referrer_email,
        referral_name,
        referral_mobile,
        referral_email,
    })
}

/// A lead as sent (`CrmLeadUpsertRequest`).
#[derive(Debug, Clone, Default)]
pub struct LeadInput {
    pub lead_key: Option<String>,
    pub visitor_id: Option<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    pub mobile: Option<String>,
    pub dialcode: Option<String>,
    pub plan_name: Option<String>,
    pub billing_cycle: Option<String>,
    pub subscription_mode: Option<String>,
    pub currency: Option<String>,
    pub state: Option<String>,
    pub partner_referral_code: Option<String>,
    pub client_ip: Option<String>,
    pub user_agent: Option<String>,
    pub force_by_lead_key: bool,
    pub plan_id: i64,
    pub amount: f64,
    pub num_users: Option<i64>,
    pub num_envelopes: Option<i64>,
}

/// A checked lead: the input with mobile numbers in their normal form.
#[derive(Debug, Clone, PartialEq)]
pub struct Lead {
    pub lead_key: Option<String>,
    pub visitor_id: Option<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    pub mobile: Option<String>,
    pub dialcode: Option<String>,
    pub plan_name: Option<String>,
    pub billing_cycle: Option<String>,
    pub subscription_mode: Option<String>,
    pub currency: Option<String>,
    pub state: Option<String>,
    pub partner_referral_code: Option<String>,
    pub client_ip: Option<String>,
    pub user_agent: Option<String>,
    pub plan_id: i64,
    pub amount: f64,
    pub num_users: Option<i64>,
    pub num_envelopes: Option<i64>,
}

/// How an upsert finds the lead it changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeadMatch {
    /// The lead with this key; when there is none, a lead without a key and with the same
    /// e-mail or mobile (`by_contact`), which takes the key; else a new lead.
    Key { key: String, by_contact: bool },
    /// The most recently changed lead with the same e-mail or mobile, else a new lead.
    Contact,
}

impl Lead {
    /// The lower-cased address duplicates are found by.
    pub fn email_key(&self) -> Option<String> {
        self.email.as_deref().map(normal_email)
    }
}

fn is_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ':' | '@' | '-')
}

/// Checks a lead and says how its upsert matches. A lead must carry something to be found by:
/// a `leadKey`, an `email` or a `mobile`; `forceByLeadKey` needs a `leadKey`.
pub fn check_lead(input: &LeadInput) -> Result<(Lead, LeadMatch), Error> {
    let mut c = Checker::new();
    let key_rule = "may hold only letters, digits and . _ : @ -";
    let lead_key = c.shaped("leadKey", input.lead_key.clone(), MAX_KEY_CHARS, is_key_char, key_rule);
    let visitor_id = c.shaped("visitorId", input.visitor_id.clone(), MAX_KEY_CHARS, is_key_char, key_rule);
    let name = c.text("name", input.name.clone(), MAX_NAME_CHARS);
    let email = c.email("email", input.email.clone());
    let mobile = c.mobile("mobile", input.mobile.clone());
    let dialcode = input.dialcode.clone().and_then(|d| {
        let digits = d.strip_prefix('+').unwrap_or(&d);
        let ok = (1..=4).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
        if !ok {
            c.fail("dialcode", "must be a country calling code: 1 to 4 digits, optionally after a +");
        }
        ok.then_some(d)
    });
    let plan_name = c.text("planName", input.plan_name.clone(), MAX_PLAN_NAME_CHARS);
    let billing_cycle = c.one_of("billingCycle", input.billing_cycle.clone(), &BILLING_CYCLES);
    let subscription_mode = c.one_of("subscriptionMode", input.subscription_mode.clone(), &SUBSCRIPTION_MODES);
    let currency = input.currency.clone().and_then(|code| {
        let ok = code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase());
        if !ok {
            c.fail("currency", "must be an ISO 4217 code: three capital letters (INR, USD)");
        }
        ok.then_some(code)
    });
    let state = c.text("state", input.state.clone(), MAX_STATE_CHARS);
    let partner_referral_code = c.shaped(
        "partnerReferralCode",
        input.partner_referral_code.clone(),
        MAX_PARTNER_CODE_CHARS,
        |ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-'),
        "may hold only letters, digits, _ and -",
    );
    let client_ip = c.shaped(
        "clientIp",
        input.client_ip.clone(),
        MAX_CLIENT_IP_CHARS,
        |ch| ch.is_ascii_hexdigit() || matches!(ch, ':' | '.'),
        "must be an IPv4 or IPv6 address",
    );
    let user_agent = c.text("userAgent", input.user_agent.clone(), MAX_USER_AGENT_CHARS);
    if !(0..=i64::from(i32::MAX)).contains(&input.plan_id) {
        c.fail("planId", "must be 0 or more");
    }
    if !input.amount.is_finite() || !(0.0..=MAX_AMOUNT).contains(&input.amount) {
        c.fail("amount", format!("must be a number from 0 to {MAX_AMOUNT}"));
    }
    for (field, count) in [("numUsers", input.num_users), ("numEnvelopes", input.num_envelopes)] {
        if count.is_some_and(|n| !(0..=i64::from(i32::MAX)).contains(&n)) {
            c.fail(field, "must be 0 or more");
        }
    }
    let how = match (&input.lead_key, input.force_by_lead_key) {
        (Some(key), force) => LeadMatch::Key { key: key.clone(), by_contact: !force },
        (None, true) => {
            c.fail("leadKey", "is required when forceByLeadKey is true");
            LeadMatch::Contact
        }
        (None, false) => {
            if input.email.is_none() && input.mobile.is_none() {
                c.fail("leadKey", "a lead needs a leadKey, an email or a mobile to be found by");
            }
            LeadMatch::Contact
        }
    };
    let lead = Lead {
        lead_key,
        visitor_id,
        name,
        email,
        mobile,
        dialcode,
        plan_name,
        billing_cycle,
        subscription_mode,
        currency,
        state,
        partner_referral_code,
        client_ip,
        user_agent,
        plan_id: input.plan_id,
        amount: input.amount,
        num_users: input.num_users,
        num_envelopes: input.num_envelopes,
    };
    c.finish((lead, how))
}

/// An external push's outcome (`CrmLeadMarkPushedRequest`).
#[derive(Debug, Clone, Default)]
pub struct PushInput {
    pub lead_key: Option<String>,
    pub stage: Option<String>,
    pub success: Option<bool>,
    pub crm_lead_id: Option<String>,
    pub error_message: Option<String>,
}

/// A checked outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushOutcome {
    pub lead_key: String,
    pub stage: Option<String>,
    pub success: bool,
    pub crm_lead_id: Option<String>,
    pub error_message: Option<String>,
}

/// Checks an outcome: the lead's key and `success` are required; the stage, the CRM's id and
/// the error are bounded text.
pub fn check_push(input: &PushInput) -> Result<PushOutcome, Error> {
    let mut c = Checker::new();
    let key = c.required("leadKey", input.lead_key.as_deref());
    let key_rule = "may hold only letters, digits and . _ : @ -";
    let lead_key = c.shaped("leadKey", key, MAX_KEY_CHARS, is_key_char, key_rule);
    let stage = c.text("stage", input.stage.clone(), MAX_STAGE_CHARS);
    let crm_lead_id = c.text("crmLeadId", input.crm_lead_id.clone(), MAX_CRM_ID_CHARS);
    let error_message = c.text("errorMessage", input.error_message.clone(), MAX_ERROR_CHARS);
    if input.success.is_none() {
        c.fail("success", "is required");
    }
    let (Some(lead_key), Some(success)) = (lead_key, input.success) else {
        return Err(Error::Validation(c.errors));
    };
    c.finish(PushOutcome { lead_key, stage, success, crm_lead_id, error_message })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(error: Error) -> Vec<String> {
        match error {
            Error::Validation(fields) => fields.into_keys().collect(),
            other => panic!("not a validation error: {other}"),
        }
    }

    fn referral() -> ReferralInput {
        ReferralInput {
            referrer_name: Some("Asha".into()),
            referrer_mobile: Some("+91 98765-43210".into()),
            referrer_email: Some("asha@example.test".into()),
            referral_name: Some("Ravi".into()),
            referral_mobile: Some("9876500000".into()),
            referral_email: Some("Ravi@Example.test".into()),
        }
    }

    #[test]
    fn referrals_are_checked_field_by_field() {
        let ok = check_referral(&referral()).expect("valid");
        assert_eq!(ok.referrer_mobile, "+919876543210");
        assert_eq!(ok.referral_email_key(), "ravi@example.test");
        let bad = ReferralInput {
            referrer_name: Some("x".repeat(151)),
            referrer_mobile: Some("12".into()),
            referrer_email: Some("not-an-address".into()),
            referral_name: Some(String::new()),
            referral_mobile: None,
            referral_email: Some(format!("{}@example.test", "a".repeat(250))),
        };
        let got = fields(check_referral(&bad).expect_err("invalid"));
        assert_eq!(got.len(), 6, "{got:?}");
        // 150 characters of any script are fine (counted as characters, not bytes).
        let long = ReferralInput { referrer_name: Some("अ".repeat(150)), ..referral() };
        assert!(check_referral(&long).is_ok());
    }

    #[test]
    fn an_email_of_the_specs_255_characters_passes() {
        let local = "a".repeat(64);
        let domain = format!("{}.{}.{}.{}", "b".repeat(63), "c".repeat(63), "d".repeat(57), "test");
        let email = format!("{local}@{domain}");
        assert_eq!(email.len(), 255);
        let input = ReferralInput { referral_email: Some(email), ..referral() };
        assert!(check_referral(&input).is_ok());
    }

    fn lead() -> LeadInput {
        LeadInput {
            lead_key: Some("site:abc-1".into()),
            email: Some("Lead@Example.test".into()),
            ..LeadInput::default()
        }
    }

    #[test]
    fn leads_are_matched_by_key_or_contact() {
        let (checked, how) = check_lead(&lead()).expect("valid");
        assert_eq!(how, LeadMatch::Key { key: "site:abc-1".into(), by_contact: true });
        assert_eq!(checked.email_key().as_deref(), Some("lead@example.test"));
        let forced = check_lead(&LeadInput { force_by_lead_key: true, ..lead() }).expect("valid").1;
        assert_eq!(forced, LeadMatch::Key { key: "site:abc-1".into(), by_contact: false });
        let contact = check_lead(&LeadInput { lead_key: None, ..lead() }).expect("valid").1;
        assert_eq!(contact, LeadMatch::Contact);
        let nothing = LeadInput::default();
        assert_eq!(fields(check_lead(&nothing).expect_err("nothing to match")), ["leadKey"]);
        let forced_without = LeadInput { force_by_lead_key: true, lead_key: None, ..lead() };
        assert_eq!(fields(check_lead(&forced_without).expect_err("no key")), ["leadKey"]);
    }

    #[test]
    fn lead_fields_keep_their_rules() {
        let bad = LeadInput {
            lead_key: Some("has space".into()),
            visitor_id: Some("x".repeat(101)),
            dialcode: Some("+12345".into()),
            billing_cycle: Some("weekly".into()),
            subscription_mode: Some("premium".into()),
            currency: Some("inr".into()),
            partner_referral_code: Some("a b".into()),
            client_ip: Some("10.0.0.1 ".into()),
            plan_id: -1,
            amount: f64::NAN,
            num_users: Some(-1),
            num_envelopes: Some(-5),
            mobile: Some("phone".into()),
            ..LeadInput::default()
        };
        let got = fields(check_lead(&bad).expect_err("invalid"));
        for field in [
            "leadKey",
            "visitorId",
            "dialcode",
            "billingCycle",
            "subscriptionMode",
            "currency",
            "partnerReferralCode",
            "clientIp",
            "planId",
            "amount",
            "numUsers",
            "numEnvelopes",
            "mobile",
        ] {
            assert!(got.iter().any(|f| f == field), "{field} not refused: {got:?}");
        }
        let negative = LeadInput { amount: -0.5, ..lead() };
        assert_eq!(fields(check_lead(&negative).expect_err("negative")), ["amount"]);
        // Spellings of a billing cycle and a mode in any case are kept in one form (issue 35).
        let fine = LeadInput {
            dialcode: Some("+91".into()),
            currency: Some("INR".into()),
            billing_cycle: Some("Annually".into()),
            subscription_mode: Some("Paid".into()),
            amount: 4999.5,
            num_users: Some(0),
            ..lead()
        };
        let (kept, _) = check_lead(&fine).expect("valid");
        assert_eq!((kept.billing_cycle.as_deref(), kept.subscription_mode.as_deref()), (Some("yearly"), Some("paid")));
    }

    #[test]
    fn a_push_outcome_needs_its_key_and_success() {
        let got = fields(check_push(&PushInput::default()).expect_err("empty"));
        assert_eq!(got, ["leadKey", "success"]);
        let ok = check_push(&PushInput { lead_key: Some("k1".into()), success: Some(true), ..PushInput::default() })
            .expect("valid");
        assert!(ok.success);
        let long = PushInput { error_message: Some("e".repeat(1001)), ..PushInput::default() };
        assert!(fields(check_push(&long).expect_err("long")).contains(&"errorMessage".to_string()));
    }
}
