//! Digital e-stamping: the loan record (`eStampPayload.loan`) an integrator sends for a stamp
//! provider to issue (or fetch) the e-stamp certificates of an agreement, checked field by
//! field before anything leaves Signet, and what Signet itself takes from it: the state, the
//! duty, the participants who sign and where each one signs.
//!
//! The record is checked as JSON against a table of formats per object (the schema's shapes
//! and types are the API's to enforce; these are the rules on the values), so that every
//! problem is named with its path (`eStampPayload.loan.prtcptentty[1].panno`) and all are
//! reported at once.

use serde_json::{Map, Value};

use crate::FieldErrors;
use crate::phone::PhoneNumber;
use crate::stamp::{MAX_DENOMINATION, MAX_STAMPS_PER_DOCUMENT, STATE_RULE, state_code_of};

/// Most participants one loan record may name.
pub const MAX_PARTICIPANTS: usize = 10;
/// Most documents of one loan record (initiate-and-sign makes one workflow of one document).
pub const MAX_DOCUMENTS: usize = 1;
/// Most security records.
pub const MAX_SECURITIES: usize = 20;
/// Most signature boxes per participant and document.
pub const MAX_BOXES: usize = 20;

/// What a value must look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    /// Free text of at most this many characters, without control characters.
    Text(usize),
    /// A PAN: five letters, four digits, a letter; the fourth letter a holder type.
    Pan,
    /// An Indian mobile number: ten digits from 6-9, optionally after +91, 91 or 0.
    Mobile,
    Email,
    /// A six-digit PIN code not starting with 0.
    Pin,
    /// A calendar date, `YYYY-MM-DD` or `DD-MM-YYYY` (or with `/`).
    Date,
    /// Rupees: up to 13 digits and 2 decimals.
    Amount,
    /// A percentage from 0 to 100 with up to 4 decimals.
    Rate,
    /// `Y` or `N` (either case).
    Flag,
    /// A whole number from 0 up to this.
    Count(u32),
    /// An ISO 4217 currency code (three capital letters).
    Currency,
}

const LOAN: &[(&str, Format)] = &[
    ("txnID", Format::Text(64)),
    ("loanno", Format::Text(50)),
    ("snctnno", Format::Text(50)),
    ("regType", Format::Text(20)),
    ("signFlag", Format::Flag),
    ("estampFlag", Format::Flag),
    ("f2f", Format::Flag),
];

const ESTAMP_DETAIL: &[(&str, Format)] = &[
    ("firstparty", Format::Text(200)),
    ("secondparty", Format::Text(200)),
    ("stampDutyAmount", Format::Amount),
    ("considerationPrice", Format::Amount),
    ("descriptionofDocument", Format::Text(200)),
    ("stampdutyPaidby", Format::Text(200)),
    ("articleCode", Format::Text(20)),
    ("documentID", Format::Text(20)),
    ("firstPartyOVDType", Format::Text(30)),
    ("firstPartyOVDValue", Format::Text(50)),
    ("secondPartyOVDType", Format::Text(30)),
    ("secondPartyOVDValue", Format::Text(50)),
];

const PARTICIPANT: &[(&str, Format)] = &[
    ("prtcptenttyId", Format::Count(2_147_483_647)),
    ("fulnm", Format::Text(150)),
    ("cntrprtycntnm", Format::Text(150)),
    ("cntrprtyaddr", Format::Text(300)),
    ("reltocntrct", Format::Text(50)),
    ("emlid", Format::Email),
    ("cntrprtycntmobno", Format::Mobile),
    ("panno", Format::Pan),
    ("ovdtype", Format::Text(30)),
    ("ovdid", Format::Text(50)),
    ("doi", Format::Date),
    ("lglcnstn", Format::Text(50)),
    ("partytyp", Format::Text(30)),
];

const LOAN_DETAILS: &[(&str, Format)] = &[
    ("loanno", Format::Text(50)),
    ("snctnno", Format::Text(50)),
    ("dtofsnctn", Format::Date),
    ("emiamt", Format::Amount),
    ("rtofint", Format::Rate),
    ("snctnamt", Format::Amount),
    ("tenure", Format::Count(1200)),
    ("ntrofcrdt", Format::Text(50)),
    ("isacctclosed", Format::Flag),
    ("fundtyp", Format::Text(50)),
    ("currofsanc", Format::Currency),
    ("crdtsubtyp", Format::Text(50)),
    ("fcltynm", Format::Text(100)),
    ("amtovrdue", Format::Amount),
    ("chgamt", Format::Amount),
    ("dtofdbrs", Format::Date),
    ("intamt", Format::Amount),
    ("oldaccno", Format::Text(50)),
    ("priamt", Format::Amount),
    ("remarkparta", Format::Text(500)),
    ("toutstndamt", Format::Amount),
    ("bu", Format::Text(50)),
    ("dp", Format::Text(50)),
    ("loc", Format::Text(100)),
    ("rpyfrq", Format::Text(20)),
    ("lndngarrg", Format::Text(50)),
    ("dpd", Format::Count(100_000)),
];

const SECURITY: &[(&str, Format)] = &[
    ("loanno", Format::Text(50)),
    ("dscofscrty", Format::Text(500)),
    ("asstyp", Format::Text(50)),
    ("typofchrg", Format::Text(50)),
    ("assetid", Format::Text(50)),
    ("dtofcrtn", Format::Date),
    ("dtofvltn", Format::Date),
    ("scrtyidcersai", Format::Text(50)),
    ("scrtyidroc", Format::Text(50)),
    ("vlofscrty", Format::Amount),
];

const ENTITY: &[(&str, Format)] = &[
    ("entty_pan", Format::Pan),
    ("entty_name", Format::Text(150)),
    ("lgl_cnstn", Format::Text(50)),
    ("doi", Format::Date),
    ("eml_id", Format::Email),
    ("reg_addr", Format::Text(300)),
    ("reg_pin", Format::Pin),
    ("comm_addr", Format::Text(300)),
    ("cntct_no", Format::Mobile),
    ("comm_pin", Format::Pin),
];

const DOCUMENT: &[(&str, Format)] = &[("documentID", Format::Text(20)), ("docRefNo", Format::Text(50))];

/// What the request asks of the provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Issue new certificates for the record's `estampdtls`.
    Issue,
    /// Fetch certificates issued before, by the request's reference number: `estampdtls` is
    /// not needed (the provider already has it).
    Fetch,
}

/// A participant who signs, in signing order.
#[derive(Debug, Clone, PartialEq)]
pub struct LoanSigner {
    /// The participant's position in `prtcptentty` as sent.
    pub index: usize,
    pub participant_id: i64,
    pub seqno: i64,
    pub name: String,
    pub email: String,
    /// Their mobile number (`cntrprtycntmobno`), when it reads as one.
    pub mobile: Option<PhoneNumber>,
    /// Where they sign on the document (pages of the document as sent, from 1).
    pub boxes: Vec<SignBox>,
}

/// One signature box: `page,left,top,width,height` in points from the page's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SignBox {
    pub page: u32,
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

/// What Signet takes from a checked loan record.
#[derive(Debug, Clone, PartialEq)]
pub struct LoanFacts {
    /// The state whose duty is paid (ISO 3166-2:IN code).
    pub state_code: Option<String>,
    /// The duty in whole rupees the record asks to be issued (0 when fetching).
    pub duty: i64,
    pub signers: Vec<LoanSigner>,
    /// The document's `docData` when the record carries the document itself.
    pub document_data: Option<String>,
    /// The key that makes a repeated request the same request for the provider.
    pub transaction: String,
}

/// Checks the loan record (the value of `eStampPayload.loan`), every problem at once under
/// `prefix` (`eStampPayload.loan`). `state` is the request's own `state` field, which the
/// record's must agree with.
pub fn check_loan(loan: &Value, prefix: &str, state: Option<&str>, purpose: Purpose) -> Result<LoanFacts, FieldErrors> {
    let mut errors = FieldErrors::new();
    let Some(loan) = loan.as_object() else {
        errors.insert(prefix.to_string(), vec!["must be an object".into()]);
        return Err(errors);
    };
    check_object(loan, LOAN, prefix, &mut errors);
    require(loan, "loanno", prefix, &mut errors);
    let state_code = check_state(loan, prefix, state, &mut errors);
    if let Some(details) = object(loan, "loandtls", prefix, &mut errors) {
        let at = format!("{prefix}.loandtls");
        check_object(details, LOAN_DETAILS, &at, &mut errors);
        for key in ["loanno", "snctnno"] {
            if let (Some(a), Some(b)) = (text(loan, key), text(details, key))
                && a != b
            {
                push(&mut errors, &format!("{at}.{key}"), format!("must be the loan's {key} ({a})"));
            }
        }
        if let (Some(sanction), Some(disbursal)) = (date_of(details, "dtofsnctn"), date_of(details, "dtofdbrs"))
            && disbursal < sanction
        {
            push(&mut errors, &format!("{at}.dtofdbrs"), "must not be before the sanction date (dtofsnctn)".into());
        }
    }
    if let Some(entity) = object(loan, "entty_dtls", prefix, &mut errors) {
        check_object(entity, ENTITY, &format!("{prefix}.entty_dtls"), &mut errors);
    }
    let securities = list(loan, "scrtydtls", prefix, &mut errors);
    check_count(&securities, MAX_SECURITIES, &format!("{prefix}.scrtydtls"), &mut errors);
    for (i, security) in securities.iter().enumerate() {
        let at = format!("{prefix}.scrtydtls[{i}]");
        check_object(security, SECURITY, &at, &mut errors);
        if let (Some(made), Some(valued)) = (date_of(security, "dtofcrtn"), date_of(security, "dtofvltn"))
            && valued < made
        {
            push(&mut errors, &format!("{at}.dtofvltn"), "must not be before the date of creation (dtofcrtn)".into());
        }
    }
    let documents = check_documents(loan, prefix, &mut errors);
    let duty = check_stamp_details(loan, prefix, purpose, &documents, &mut errors);
    let mut signers = check_participants(loan, prefix, &mut errors);
    check_coordinates(loan, prefix, &documents, &mut signers, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let transaction = text(loan, "txnID")
        .or_else(|| text(loan, "loanno"))
        .map(|t| format!("{t}/{}", text(loan, "snctnno").unwrap_or_default()))
        .unwrap_or_default();
    let document_data = list_items(loan, "documentdtls").first().and_then(|d| text(d, "docData")).map(str::to_string);
    Ok(LoanFacts { state_code, duty, signers, document_data, transaction })
}

fn check_state(
    loan: &Map<String, Value>,
    prefix: &str,
    state: Option<&str>,
    errors: &mut FieldErrors,
) -> Option<String> {
    let own = match text(loan, "state") {
        None => None,
        Some(said) => match state_code_of(said) {
            Some(code) => Some(code),
            None => {
                push(errors, &format!("{prefix}.state"), STATE_RULE.into());
                return None;
            }
        },
    };
    let state = state.filter(|s| !s.is_empty()).map(|s| state_code_of(s).unwrap_or(s));
    match (own, state) {
        (Some(a), Some(b)) if a != b => {
            push(errors, &format!("{prefix}.state"), format!("must be the request's state ({b})"));
            None
        }
        (Some(code), _) | (None, Some(code)) => Some(code.to_string()),
        (None, None) => None,
    }
}

/// The record's document IDs (`documentdtls`); without any, the request's one document is `1`.
fn check_documents(loan: &Map<String, Value>, prefix: &str, errors: &mut FieldErrors) -> Vec<String> {
    let documents = list(loan, "documentdtls", prefix, errors);
    check_count(&documents, MAX_DOCUMENTS, &format!("{prefix}.documentdtls"), errors);
    let mut ids = Vec::new();
    for (i, document) in documents.iter().enumerate() {
        let at = format!("{prefix}.documentdtls[{i}]");
        check_object(document, DOCUMENT, &at, errors);
        match text(document, "documentID") {
            Some(id) => ids.push(id.to_string()),
            None => push(errors, &format!("{at}.documentID"), "is required".into()),
        }
    }
    if documents.is_empty() {
        ids.push("1".into());
    }
    ids
}

/// The duty the record asks to be issued: the sum of its `stampDutyAmount`s, each whole rupees.
fn check_stamp_details(
    loan: &Map<String, Value>,
    prefix: &str,
    purpose: Purpose,
    documents: &[String],
    errors: &mut FieldErrors,
) -> i64 {
    let details = list(loan, "estampdtls", prefix, errors);
    let field = format!("{prefix}.estampdtls");
    if purpose == Purpose::Issue && details.is_empty() {
        push(errors, &field, "is required: the stamp duty to issue, one entry per certificate".into());
    }
    check_count(&details, MAX_STAMPS_PER_DOCUMENT, &field, errors);
    let mut duty: i64 = 0;
    for (i, detail) in details.iter().enumerate() {
        let at = format!("{field}[{i}]");
        check_object(detail, ESTAMP_DETAIL, &at, errors);
        for key in ["firstparty", "secondparty", "stampDutyAmount"] {
            require(detail, key, &at, errors);
        }
        for key in ["firstPartyPin", "secondPartyPin"] {
            match detail.get(key) {
                None | Some(Value::Null) => {}
                Some(Value::Number(n)) if n.as_i64() == Some(0) => {}
                Some(Value::Number(n)) if n.as_i64().is_some_and(|p| (100_000..=999_999).contains(&p)) => {}
                Some(_) => push(errors, &format!("{at}.{key}"), "must be a six-digit PIN code (or 0 for none)".into()),
            }
        }
        if let Some(document) = text(detail, "documentID")
            && !documents.iter().any(|d| d == document)
        {
            push(errors, &format!("{at}.documentID"), "names no document of documentdtls".into());
        }
        if let Some(amount) = text(detail, "stampDutyAmount").filter(|a| is_amount(a)) {
            match whole_rupees(amount) {
                Some(rupees) if rupees > 0 && rupees <= MAX_DENOMINATION => duty = duty.saturating_add(rupees),
                _ => push(
                    errors,
                    &format!("{at}.stampDutyAmount"),
                    "must be a positive amount of whole rupees (stamp duty is paid in rupees)".into(),
                ),
            }
        }
    }
    if duty > MAX_DENOMINATION {
        push(errors, &field, "the duty adds up to more than a certificate can carry".into());
    }
    duty
}

/// The participants in signing order (`seqno` 1, 2, ... each once), each with an e-mail
/// address (their signing link goes there) that no other participant has.
fn check_participants(loan: &Map<String, Value>, prefix: &str, errors: &mut FieldErrors) -> Vec<LoanSigner> {
    let field = format!("{prefix}.prtcptentty");
    let participants = list(loan, "prtcptentty", prefix, errors);
    if participants.is_empty() {
        push(errors, &field, "is required: the parties who sign, with seqno 1, 2, ...".into());
    }
    check_count(&participants, MAX_PARTICIPANTS, &field, errors);
    let mut signers: Vec<LoanSigner> = Vec::new();
    for (i, participant) in participants.iter().enumerate() {
        let at = format!("{field}[{i}]");
        check_object(participant, PARTICIPANT, &at, errors);
        for key in ["prtcptenttyId", "fulnm", "emlid"] {
            require(participant, key, &at, errors);
        }
        let seqno = match participant.get("seqno") {
            Some(Value::Number(n)) => n.as_i64().unwrap_or(0),
            _ => 0,
        };
        if !(1..=participants.len() as i64).contains(&seqno) {
            push(errors, &format!("{at}.seqno"), format!("must be the signing order, 1 to {}", participants.len()));
        } else if signers.iter().any(|s| s.seqno == seqno) {
            push(errors, &format!("{at}.seqno"), "is given to another participant too".into());
        }
        let id = text(participant, "prtcptenttyId").and_then(|v| v.parse::<i64>().ok()).unwrap_or(-1);
        if id >= 0 && signers.iter().any(|s| s.participant_id == id) {
            push(errors, &format!("{at}.prtcptenttyId"), "is given to another participant too".into());
        }
        let email = text(participant, "emlid").unwrap_or_default().to_string();
        if !email.is_empty() && signers.iter().any(|s| s.email.eq_ignore_ascii_case(&email)) {
            push(errors, &format!("{at}.emlid"), "is the address of another participant too".into());
        }
        let name = text(participant, "fulnm").unwrap_or_default().to_string();
        let mobile = PhoneNumber::from_contact(text(participant, "cntrprtycntmobno"));
        signers.push(LoanSigner { index: i, participant_id: id, seqno, name, email, mobile, boxes: Vec::new() });
    }
    let mut order: Vec<i64> = signers.iter().map(|s| s.seqno).collect();
    order.sort_unstable();
    if !order.is_empty() && order.iter().zip(1..).any(|(s, n)| *s != n) && !errors.keys().any(|k| k.ends_with(".seqno"))
    {
        push(errors, &field, "seqno must run 1, 2, ... without gaps".into());
    }
    signers.sort_by_key(|s| s.seqno);
    signers
}

/// `eSignCordinates`: each entry names a participant and a document of the record, and its
/// boxes become that participant's signature boxes.
fn check_coordinates(
    loan: &Map<String, Value>,
    prefix: &str,
    documents: &[String],
    signers: &mut [LoanSigner],
    errors: &mut FieldErrors,
) {
    let field = format!("{prefix}.eSignCordinates");
    let entries = list(loan, "eSignCordinates", prefix, errors);
    check_count(&entries, MAX_PARTICIPANTS * MAX_DOCUMENTS, &field, errors);
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("{field}[{i}]");
        let participant = entry.get("prtcptenttyId").and_then(Value::as_i64);
        let signer = participant.and_then(|id| signers.iter_mut().find(|s| s.participant_id == id));
        if signer.is_none() {
            push(errors, &format!("{at}.prtcptenttyId"), "names no participant of prtcptentty".into());
        }
        let document = entry.get("documentID").and_then(Value::as_i64).map(|d| d.to_string());
        if !document.as_ref().is_some_and(|d| documents.contains(d)) {
            push(
                errors,
                &format!("{at}.documentID"),
                "names no document of documentdtls (1 without documentdtls)".into(),
            );
        }
        let coordinates: Vec<&Value> =
            entry.get("coordinates").and_then(Value::as_array).into_iter().flatten().collect();
        if coordinates.is_empty() || coordinates.len() > MAX_BOXES {
            push(errors, &format!("{at}.coordinates"), format!("must give 1 to {MAX_BOXES} boxes"));
        }
        let mut boxes = Vec::new();
        for (j, raw) in coordinates.iter().enumerate() {
            match raw.as_str().map(parse_box) {
                Some(Ok(b)) => boxes.push(b),
                Some(Err(message)) => push(errors, &format!("{at}.coordinates[{j}]"), message),
                None => push(errors, &format!("{at}.coordinates[{j}]"), "must be a string".into()),
            }
        }
        if let Some(signer) = signers.iter_mut().find(|s| Some(s.participant_id) == participant) {
            signer.boxes.extend(boxes);
        }
    }
}

/// A box as `page,left,top,width,height` (points, from the page's top-left corner).
pub fn parse_box(raw: &str) -> Result<SignBox, String> {
    const SHAPE: &str = "must be page,left,top,width,height (a page from 1, then points from the top-left corner)";
    let parts: Vec<&str> = raw.split(',').map(str::trim).collect();
    let [page, numbers @ ..] = parts.as_slice() else { return Err(SHAPE.into()) };
    let page = page.parse::<u32>().ok().filter(|p| *p >= 1).ok_or_else(|| SHAPE.to_string())?;
    let numbers: Vec<f64> = numbers
        .iter()
        .map(|n| n.parse::<f64>().ok().filter(|v| v.is_finite() && (0.0..=14_400.0).contains(v)))
        .collect::<Option<_>>()
        .ok_or_else(|| SHAPE.to_string())?;
    match numbers.as_slice() {
        [left, top, width, height] if *width > 0.0 && *height > 0.0 => {
            Ok(SignBox { page, left: *left, top: *top, width: *width, height: *height })
        }
        _ => Err(SHAPE.into()),
    }
}

fn check_object(object: &Map<String, Value>, rules: &[(&str, Format)], prefix: &str, errors: &mut FieldErrors) {
    for (key, format) in rules {
        if let Some(value) = text(object, key)
            && let Err(message) = check_value(value, *format)
        {
            push(errors, &format!("{prefix}.{key}"), message);
        }
    }
}

fn check_value(value: &str, format: Format) -> Result<(), String> {
    let ok = match format {
        Format::Text(max) => value.chars().count() <= max && !value.chars().any(char::is_control),
        Format::Pan => is_pan(value),
        Format::Mobile => is_mobile(value),
        Format::Email => crate::workflow::is_valid_email(value),
        Format::Pin => is_pin(value),
        Format::Date => parse_date(value).is_some(),
        Format::Amount => is_amount(value),
        Format::Rate => is_rate(value),
        Format::Flag => matches!(value, "Y" | "N" | "y" | "n"),
        Format::Count(max) => value.parse::<u32>().is_ok_and(|n| n <= max) && value.bytes().all(|b| b.is_ascii_digit()),
        Format::Currency => value.len() == 3 && value.bytes().all(|b| b.is_ascii_uppercase()),
    };
    if ok { Ok(()) } else { Err(describe(format)) }
}

fn describe(format: Format) -> String {
    match format {
        Format::Text(max) => format!("must be at most {max} characters without control characters"),
        Format::Pan => "must be a PAN: five capital letters, four digits, a capital letter (ABCPE1234F)".into(),
        Format::Mobile => "must be an Indian mobile number: ten digits starting 6-9, optionally after +91".into(),
        Format::Email => "must be an e-mail address".into(),
        Format::Pin => "must be a six-digit PIN code".into(),
        Format::Date => "must be a date, YYYY-MM-DD or DD-MM-YYYY".into(),
        Format::Amount => "must be an amount in rupees: digits with up to 2 decimals (125000.50)".into(),
        Format::Rate => "must be a percentage from 0 to 100 (10.75)".into(),
        Format::Flag => "must be Y or N".into(),
        Format::Count(max) => format!("must be a whole number from 0 to {max}"),
        Format::Currency => "must be an ISO 4217 currency code (INR)".into(),
    }
}

/// PAN: `AAAAA9999A`, the fourth letter the holder's type (person, company, HUF, firm, AOP,
/// trust, BOI, local authority, artificial juridical person, government).
pub fn is_pan(value: &str) -> bool {
    let b = value.as_bytes();
    b.len() == 10
        && b[..5].iter().all(u8::is_ascii_uppercase)
        && b[5..9].iter().all(u8::is_ascii_digit)
        && b[9].is_ascii_uppercase()
        && b"PCHFATBLJG".contains(&b[3])
}

pub fn is_mobile(value: &str) -> bool {
    let digits = value.strip_prefix("+91").or_else(|| value.strip_prefix("91").filter(|d| d.len() == 10));
    let digits = digits.or_else(|| value.strip_prefix('0').filter(|d| d.len() == 10)).unwrap_or(value);
    digits.len() == 10 && digits.bytes().all(|b| b.is_ascii_digit()) && matches!(digits.as_bytes()[0], b'6'..=b'9')
}

pub fn is_pin(value: &str) -> bool {
    value.len() == 6 && value.bytes().all(|b| b.is_ascii_digit()) && !value.starts_with('0')
}

fn is_amount(value: &str) -> bool {
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    (1..=13).contains(&whole.len())
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.len() <= 2
        && fraction.bytes().all(|b| b.is_ascii_digit())
        && !(value.contains('.') && fraction.is_empty())
}

fn is_rate(value: &str) -> bool {
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    (1..=3).contains(&whole.len())
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.len() <= 4
        && fraction.bytes().all(|b| b.is_ascii_digit())
        && value.parse::<f64>().is_ok_and(|r| r <= 100.0)
}

/// Whole rupees of an amount (`500`, `500.00`); none when it has paise.
fn whole_rupees(value: &str) -> Option<i64> {
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    if fraction.bytes().any(|b| b != b'0') {
        return None;
    }
    whole.parse().ok()
}

/// A calendar date as (year, month, day), from `YYYY-MM-DD` or `DD-MM-YYYY` (`-` or `/`).
pub fn parse_date(value: &str) -> Option<(u32, u32, u32)> {
    let parts: Vec<&str> = value.split(['-', '/']).collect();
    let [a, b, c] = parts.as_slice() else { return None };
    let number = |s: &str, len: usize| {
        (s.len() == len && s.bytes().all(|x| x.is_ascii_digit())).then(|| s.parse().ok()).flatten()
    };
    let (year, month, day) = if a.len() == 4 {
        (number(a, 4)?, number(b, 2)?, number(c, 2)?)
    } else {
        (number(c, 4)?, number(b, 2)?, number(a, 2)?)
    };
    let days = crate::invoice::days_in_month(year, month)?;
    ((1900..=2200).contains(&year) && (1..=days).contains(&day)).then_some((year, month, day))
}

fn date_of(object: &Map<String, Value>, key: &str) -> Option<(u32, u32, u32)> {
    text(object, key).and_then(parse_date)
}

/// A field's text: strings as given, numbers as written; empty and null count as absent.
fn text<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

fn require(object: &Map<String, Value>, key: &str, prefix: &str, errors: &mut FieldErrors) {
    if text(object, key).is_none() {
        push(errors, &format!("{prefix}.{key}"), "is required".into());
    }
}

fn object<'a>(
    parent: &'a Map<String, Value>,
    key: &str,
    prefix: &str,
    errors: &mut FieldErrors,
) -> Option<&'a Map<String, Value>> {
    match parent.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Object(object)) => Some(object),
        Some(_) => {
            push(errors, &format!("{prefix}.{key}"), "must be an object".into());
            None
        }
    }
}

fn list<'a>(
    parent: &'a Map<String, Value>,
    key: &str,
    prefix: &str,
    errors: &mut FieldErrors,
) -> Vec<&'a Map<String, Value>> {
    match parent.get(key) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => {
            let objects: Vec<_> = items.iter().filter_map(Value::as_object).collect();
            if objects.len() != items.len() {
                push(errors, &format!("{prefix}.{key}"), "must be a list of objects".into());
            }
            objects
        }
        Some(_) => {
            push(errors, &format!("{prefix}.{key}"), "must be a list".into());
            Vec::new()
        }
    }
}

fn list_items<'a>(parent: &'a Map<String, Value>, key: &str) -> Vec<&'a Map<String, Value>> {
    parent.get(key).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_object).collect()
}

fn check_count<T>(items: &[T], max: usize, field: &str, errors: &mut FieldErrors) {
    if items.len() > max {
        push(errors, field, format!("must have at most {max} entries"));
    }
}

fn push(errors: &mut FieldErrors, field: &str, message: String) {
    errors.entry(field.to_string()).or_default().push(message);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn loan() -> Value {
        json!({
            "loanno": "LN-1001", "snctnno": "SN-77", "state": "MH", "txnID": "T-1", "signFlag": "Y",
            "estampdtls": [{"firstparty": "Acme Finance Ltd", "secondparty": "Asha Verma", "stampDutyAmount": "500",
                            "considerationPrice": "250000.00", "articleCode": "5(h)(B)", "firstPartyPin": 400001}],
            "prtcptentty": [
                {"prtcptenttyId": "2", "fulnm": "Ravi Kumar", "emlid": "ravi@lender.test", "seqno": 2, "panno": "ABCPK1234F"},
                {"prtcptenttyId": "1", "fulnm": "Asha Verma", "emlid": "asha@home.test", "seqno": 1,
                 "cntrprtycntmobno": "+919876543210", "doi": "15-08-1990"}
            ],
            "loandtls": {"loanno": "LN-1001", "dtofsnctn": "2026-11-01", "dtofdbrs": "2026-11-20", "rtofint": "10.75",
                         "snctnamt": "250000", "tenure": "36", "currofsanc": "INR"},
            "eSignCordinates": [{"prtcptenttyId": 1, "documentID": 1, "coordinates": ["2,60,600,160,60"]},
                                {"prtcptenttyId": 2, "documentID": 1, "coordinates": ["2,310,600,160,60", "1,40,40,100,40"]}],
            "entty_dtls": {"entty_pan": "AACCA1234B", "reg_pin": "400001", "eml_id": "ops@acme.test"}
        })
    }

    fn errors_of(value: &Value) -> FieldErrors {
        check_loan(value, "loan", None, Purpose::Issue).expect_err("refused")
    }

    #[test]
    fn a_good_record_gives_state_duty_and_signers_in_order_with_their_boxes() {
        let facts = check_loan(&loan(), "loan", Some("MH"), Purpose::Issue).expect("valid");
        assert_eq!(facts.state_code.as_deref(), Some("MH"));
        assert_eq!(facts.duty, 500);
        assert_eq!(
            facts.signers.iter().map(|s| s.email.as_str()).collect::<Vec<_>>(),
            ["asha@home.test", "ravi@lender.test"]
        );
        assert_eq!(facts.signers[1].boxes.len(), 2);
        assert_eq!(facts.signers[0].boxes[0], SignBox { page: 2, left: 60.0, top: 600.0, width: 160.0, height: 60.0 });
        assert_eq!(facts.transaction, "T-1/SN-77");
    }

    #[test]
    fn each_format_rule_names_its_field() {
        let cases = [
            ("/prtcptentty/0/panno", json!("ABCXK1234F"), "loan.prtcptentty[0].panno"),
            ("/prtcptentty/1/cntrprtycntmobno", json!("5876543210"), "loan.prtcptentty[1].cntrprtycntmobno"),
            ("/prtcptentty/1/doi", json!("31-02-1990"), "loan.prtcptentty[1].doi"),
            ("/prtcptentty/1/emlid", json!("not-an-address"), "loan.prtcptentty[1].emlid"),
            ("/loandtls/rtofint", json!("101"), "loan.loandtls.rtofint"),
            ("/loandtls/snctnamt", json!("12,000"), "loan.loandtls.snctnamt"),
            ("/loandtls/currofsanc", json!("inr"), "loan.loandtls.currofsanc"),
            ("/loandtls/dtofdbrs", json!("2026-10-01"), "loan.loandtls.dtofdbrs"),
            ("/loandtls/loanno", json!("LN-9"), "loan.loandtls.loanno"),
            ("/entty_dtls/reg_pin", json!("040001"), "loan.entty_dtls.reg_pin"),
            ("/estampdtls/0/stampDutyAmount", json!("500.50"), "loan.estampdtls[0].stampDutyAmount"),
            ("/estampdtls/0/firstPartyPin", json!(12), "loan.estampdtls[0].firstPartyPin"),
            ("/estampdtls/0/secondparty", json!(""), "loan.estampdtls[0].secondparty"),
            ("/signFlag", json!("yes"), "loan.signFlag"),
            ("/state", json!("XX"), "loan.state"),
            ("/prtcptentty/0/seqno", json!(1), "loan.prtcptentty[1].seqno"),
            ("/eSignCordinates/0/prtcptenttyId", json!(9), "loan.eSignCordinates[0].prtcptenttyId"),
            ("/eSignCordinates/0/documentID", json!(2), "loan.eSignCordinates[0].documentID"),
            ("/eSignCordinates/1/coordinates/0", json!("0,1,1,1,1"), "loan.eSignCordinates[1].coordinates[0]"),
        ];
        for (pointer, value, field) in cases {
            let mut record = loan();
            *record.pointer_mut(pointer).expect(pointer) = value;
            let errors = errors_of(&record);
            assert!(errors.contains_key(field), "{pointer}: {errors:?}");
        }
    }

    #[test]
    fn issuing_needs_stamp_details_and_participants_fetching_does_not_need_details() {
        let mut record = loan();
        record["estampdtls"] = json!([]);
        assert!(errors_of(&record).contains_key("loan.estampdtls"));
        let facts = check_loan(&record, "loan", None, Purpose::Fetch).expect("fetch needs no details");
        assert_eq!(facts.duty, 0);
        record["prtcptentty"] = json!([]);
        record["eSignCordinates"] = json!([]);
        assert!(
            check_loan(&record, "loan", None, Purpose::Fetch)
                .expect_err("no one signs")
                .contains_key("loan.prtcptentty")
        );
    }

    #[test]
    fn the_record_and_the_request_agree_on_the_state() {
        let errors = check_loan(&loan(), "loan", Some("KA"), Purpose::Issue).expect_err("two states");
        assert!(errors.contains_key("loan.state"));
        let mut record = loan();
        record.as_object_mut().expect("object").remove("state");
        assert_eq!(
            check_loan(&record, "loan", Some("KA"), Purpose::Issue).expect("valid").state_code.as_deref(),
            Some("KA")
        );
    }

    #[test]
    fn formats() {
        assert!(is_pan("ABCPE1234F") && !is_pan("ABCZE1234F") && !is_pan("abcpe1234f"));
        assert!(is_mobile("9876543210") && is_mobile("+919876543210") && is_mobile("09876543210"));
        assert!(!is_mobile("1234567890") && !is_mobile("98765"));
        assert_eq!(parse_date("2024-02-29"), Some((2024, 2, 29)));
        assert_eq!(parse_date("29/02/2023"), None);
        assert_eq!(parse_date("01-13-2020"), None);
        assert!(is_amount("0") && is_amount("12.5") && !is_amount("12.") && !is_amount("-1"));
        assert!(
            parse_box("1, 10, 20, 30, 40").is_ok()
                && parse_box("1,10,20,30").is_err()
                && parse_box("1,10,20,0,5").is_err()
        );
    }
}
