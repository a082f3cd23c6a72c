//! The rules of a workflow's invoices (docs/stamps.md, "Invoices"): the platform operator's
//! tax invoice for its fee and the debit note for the stamp duty it passed through as a pure
//! agent. Amounts are integers in paise; GST is split by place of supply and each tax line is
//! rounded half up; numbers run per tenant, kind and Indian financial year.

use crate::stamp::state_name;
use crate::{Error, ErrorCode, FieldErrors, Millis};

crate::text_states! {
    /// The two documents a workflow may be billed with.
    pub enum InvoiceKind ("invoice kind") {
        /// The tax invoice for the platform's fee, with GST.
        Invoice => "invoice",
        /// The stamp duty passed through, reimbursed without GST.
        DebitNote => "debit_note",
    }
}

impl InvoiceKind {
    /// The series a number of this kind belongs to.
    pub fn prefix(self) -> &'static str {
        match self {
            InvoiceKind::Invoice => "INV",
            InvoiceKind::DebitNote => "DN",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            InvoiceKind::Invoice => "Tax Invoice",
            InvoiceKind::DebitNote => "Debit Note",
        }
    }
}

/// The largest serial number of a series in a year: six digits keep `INV/26-27/000001` at the
/// sixteen characters that Rule 46(b) of the CGST Rules, 2017 allows an invoice number.
pub const MAX_SERIAL: i64 = 999_999;
/// India Standard Time is UTC+05:30 all year: invoice dates and financial years are IST dates.
pub const IST_OFFSET_MS: i64 = (5 * 60 + 30) * 60 * 1000;
/// A legal name on an invoice, in characters.
pub const MAX_NAME_CHARS: usize = 200;
/// An address on an invoice, in characters (line breaks allowed).
pub const MAX_ADDRESS_CHARS: usize = 500;
/// The SAC the platform's fee is invoiced under unless configured: 998314, "IT design and
/// development services" (hosted software, as signing services are usually classified).
pub const DEFAULT_SAC: &str = "998314";
/// GST on that SAC, in hundredths of a percent.
pub const DEFAULT_RATE_BP: i64 = 1800;

/// A calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct CivilDate {
    pub year: i64,
    pub month: u32,
    pub day: u32,
}

impl CivilDate {
    /// `03 May 2026`: no day-month ambiguity on the document.
    pub fn long(self) -> String {
        const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
        let month = MONTHS.get(self.month.saturating_sub(1) as usize).copied().unwrap_or("?");
        format!("{:02} {month} {}", self.day, self.year)
    }
}

/// The IST date of an instant.
pub fn ist_date(at: Millis) -> CivilDate {
    let days = (at + IST_OFFSET_MS).div_euclid(86_400_000);
    civil_from_days(days)
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> CivilDate {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    CivilDate { year, month, day }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(date: CivilDate) -> i64 {
    let year = date.year - i64::from(date.month <= 2);
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let month = i64::from(date.month);
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(date.day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The first instant of an IST date.
pub fn ist_day_start(date: CivilDate) -> Millis {
    days_from_civil(date) * 86_400_000 - IST_OFFSET_MS
}

/// A date as `YYYY-MM-DD` (RFC 3339's full-date, as OpenAPI's `format: date`), strictly: a day
/// that exists, in any year the format can write (0000 to 9999); a filter by a day no document
/// can carry matches none.
pub fn parse_iso_date(text: &str) -> Option<CivilDate> {
    let b = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        text.get(range).filter(|d| d.bytes().all(|c| c.is_ascii_digit())).and_then(|d| d.parse::<u32>().ok())
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    (1..=days_in_month(year, month)?).contains(&day).then_some(CivilDate { year: i64::from(year), month, day })
}

/// The number of days of a month of the Gregorian calendar; `None` for a month that is not 1-12.
pub fn days_in_month(year: u32, month: u32) -> Option<u32> {
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => Some(31),
        4 | 6 | 9 | 11 => Some(30),
        2 if leap => Some(29),
        2 => Some(28),
        _ => None,
    }
}

/// The issue dates a listing of documents is limited to: IST days, both ends included.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IssuedWindow {
    /// Issued at or after this instant.
    pub from: Option<Millis>,
    /// Issued before this instant (the start of the day after the last one).
    pub until: Option<Millis>,
}

/// `issuedFrom` and `issuedTo` (`YYYY-MM-DD`, IST days, both included) as a window; every
/// mistake named at once under the parameter's name. A parameter given is a date as the
/// OpenAPI document says (not empty, no spaces); leaving it out leaves the window open.
pub fn issued_window(from: Option<&str>, to: Option<&str>) -> Result<IssuedWindow, Error> {
    let mut errors = FieldErrors::new();
    let mut day = |field: &str, text: Option<&str>| match text {
        None => None,
        Some(text) => parse_iso_date(text).or_else(|| {
            errors.insert(field.into(), vec!["must be a date as YYYY-MM-DD".into()]);
            None
        }),
    };
    // A window that ends before it starts is not refused (the OpenAPI document cannot say that
    // it would be): it matches no document.
    let (from, to) = (day("issuedFrom", from), day("issuedTo", to));
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    Ok(IssuedWindow { from: from.map(ist_day_start), until: to.map(|d| ist_day_start(d) + 86_400_000) })
}

/// An Indian financial year (1 April to 31 March), by the year it starts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct FinancialYear(pub i64);

impl FinancialYear {
    /// The financial year of an instant, by its IST date.
    pub fn of(at: Millis) -> FinancialYear {
        let date = ist_date(at);
        FinancialYear(if date.month >= 4 { date.year } else { date.year - 1 })
    }

    /// `2026-27`, as stored and shown.
    pub fn label(self) -> String {
        format!("{}-{:02}", self.0, (self.0 + 1).rem_euclid(100))
    }

    /// `26-27`, as in document numbers.
    fn short(self) -> String {
        format!("{:02}-{:02}", self.0.rem_euclid(100), (self.0 + 1).rem_euclid(100))
    }
}

/// `INV/26-27/000001`: the series, the financial year and the serial, at most 16 characters.
/// A serial beyond [`MAX_SERIAL`] would lengthen the number, so it is refused.
pub fn document_number(kind: InvoiceKind, year: FinancialYear, serial: i64) -> Result<String, Error> {
    if !(1..=MAX_SERIAL).contains(&serial) {
        return Err(Error::rejected(
            ErrorCode::LimitReached,
            format!("the {} series of {} is exhausted ({MAX_SERIAL} numbers)", kind.prefix(), year.label()),
        ));
    }
    Ok(format!("{}/{}/{serial:06}", kind.prefix(), year.short()))
}

/// The GST state code (the first two digits of a GSTIN) of an ISO 3166-2:IN code.
pub fn gst_state_code(iso: &str) -> Option<&'static str> {
    const CODES: [(&str, &str); 36] = [
        ("JK", "01"),
        ("HP", "02"),
        ("PB", "03"),
        ("CH", "04"),
        ("UT", "05"),
        ("HR", "06"),
        ("DL", "07"),
        ("RJ", "08"),
        ("UP", "09"),
        ("BR", "10"),
        ("SK", "11"),
        ("AR", "12"),
        ("NL", "13"),
        ("MN", "14"),
        ("MZ", "15"),
        ("TR", "16"),
        ("ML", "17"),
        ("AS", "18"),
        ("WB", "19"),
        ("JH", "20"),
        ("OR", "21"),
        ("CT", "22"),
        ("MP", "23"),
        ("GJ", "24"),
        ("DH", "26"),
        ("MH", "27"),
        ("KA", "29"),
        ("GA", "30"),
        ("LD", "31"),
        ("KL", "32"),
        ("TN", "33"),
        ("PY", "34"),
        ("AN", "35"),
        ("TG", "36"),
        ("AP", "37"),
        ("LA", "38"),
    ];
    CODES.iter().find(|(code, _)| *code == iso).map(|(_, gst)| *gst)
}

/// `Maharashtra (27)`: a state as GST documents name it.
pub fn state_label(iso: &str) -> String {
    match (state_name(iso), gst_state_code(iso)) {
        (Some(name), Some(code)) => format!("{name} ({code})"),
        _ => iso.to_string(),
    }
}

const BASE36: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The check character of a GSTIN's first fourteen characters (the GSTN's base-36 Luhn
/// variant: weights 1 and 2 alternating from the left, each product's base-36 digits summed).
fn gstin_check_char(first14: &[u8]) -> Option<u8> {
    let mut sum = 0_usize;
    for (i, byte) in first14.iter().enumerate() {
        let value = BASE36.iter().position(|c| c == byte)?;
        let product = value * if i % 2 == 0 { 1 } else { 2 };
        sum += product / 36 + product % 36;
    }
    BASE36.get((36 - sum % 36) % 36).copied()
}

/// A GSTIN: two digits of state, the holder's PAN (five letters, four digits, a letter), the
/// registration's number in the state, `Z`, and the check character; in capitals, as issued.
pub fn check_gstin(field: &str, gstin: &str) -> Result<String, Error> {
    let b = gstin.as_bytes();
    let shaped = b.len() == 15
        && b[..2].iter().all(u8::is_ascii_digit)
        && b[2..7].iter().all(u8::is_ascii_uppercase)
        && b[7..11].iter().all(u8::is_ascii_digit)
        && b[11].is_ascii_uppercase()
        && (b[12].is_ascii_uppercase() || (b'1'..=b'9').contains(&b[12]))
        && b[13] == b'Z';
    if !shaped {
        return Err(Error::field(field, "must be a GSTIN of 15 characters (e.g. 27AAPFU0939F1ZV)"));
    }
    if gstin_check_char(&b[..14]) != Some(b[14]) {
        return Err(Error::field(field, "is not a valid GSTIN: its check character does not match"));
    }
    Ok(gstin.to_string())
}

/// The state a GSTIN is registered in is the party's state.
pub fn gstin_matches_state(gstin: &str, iso: &str) -> bool {
    gst_state_code(iso).is_some_and(|code| gstin.starts_with(code))
}

/// `n / d` rounded half up, for non-negative amounts.
pub fn round_half_up(n: i64, d: i64) -> i64 {
    let (n, d) = (i128::from(n), i128::from(d.max(1)));
    i64::try_from((2 * n + d) / (2 * d)).unwrap_or(i64::MAX)
}

/// A GST rate given in percent (`18`, `2.5`) in hundredths of a percent; `None` unless it is
/// 0 to 100 with at most two decimals.
pub fn rate_from_percent(percent: f64) -> Option<i64> {
    let hundredths = percent * 100.0;
    let whole = hundredths.round();
    ((0.0..=10_000.0).contains(&whole) && (hundredths - whole).abs() < 1e-6).then_some(whole as i64)
}

/// `18%`, `2.5%`, `0.125%`: `value` in `1/scale` of a percent (a power of ten), without
/// trailing zeros (a half rate needs thousandths).
fn format_rate(value: i64, scale: i64) -> String {
    let whole = value / scale;
    let mut fraction = format!("{:0width$}", value % scale, width = scale.ilog10() as usize);
    while fraction.ends_with('0') {
        fraction.pop();
    }
    if fraction.is_empty() { format!("{whole}%") } else { format!("{whole}.{fraction}%") }
}

/// The taxes on a taxable value: CGST and SGST (half the rate each) when the place of supply
/// is the supplier's own state, IGST (the whole rate) when it is another state. Each line is
/// rounded half up to the paisa on its own, as the return shows each tax separately.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gst {
    IntraState { cgst: i64, sgst: i64 },
    InterState { igst: i64 },
}

impl Gst {
    pub fn total(self) -> i64 {
        match self {
            Gst::IntraState { cgst, sgst } => cgst + sgst,
            Gst::InterState { igst } => igst,
        }
    }

    /// Each tax line as (label with its rate, amount in paise).
    pub fn lines(self, rate_bp: i64) -> Vec<(String, i64)> {
        match self {
            Gst::IntraState { cgst, sgst } => {
                let half = format_rate(rate_bp * 5, 1000);
                vec![(format!("CGST @ {half}"), cgst), (format!("SGST @ {half}"), sgst)]
            }
            Gst::InterState { igst } => vec![(format!("IGST @ {}", format_rate(rate_bp, 100)), igst)],
        }
    }
}

/// The GST on `taxable` paise at `rate_bp` hundredths of a percent.
pub fn gst(taxable: i64, rate_bp: i64, supplier_state: &str, place_of_supply: &str) -> Gst {
    if supplier_state == place_of_supply {
        let half = round_half_up(taxable.saturating_mul(rate_bp), 2 * 10_000);
        Gst::IntraState { cgst: half, sgst: half }
    } else {
        Gst::InterState { igst: round_half_up(taxable.saturating_mul(rate_bp), 10_000) }
    }
}

/// `1,18,000.50`: paise as rupees with two decimals, grouped the Indian way (thousands, then
/// lakhs and crores in pairs of digits).
pub fn format_rupees(paise: i64) -> String {
    let sign = if paise < 0 { "-" } else { "" };
    let paise = paise.unsigned_abs();
    let digits = (paise / 100).to_string();
    let grouped = if digits.len() <= 3 {
        digits
    } else {
        let (head, last3) = digits.split_at(digits.len() - 3);
        let mut groups: Vec<&str> = Vec::new();
        let mut rest = head;
        while rest.len() > 2 {
            let (front, pair) = rest.split_at(rest.len() - 2);
            groups.push(pair);
            rest = front;
        }
        groups.push(rest);
        groups.reverse();
        format!("{},{last3}", groups.join(","))
    };
    format!("{sign}{grouped}.{:02}", paise % 100)
}

/// Paise as the rupees a JSON number carries (exact for any realistic amount: below 2^53 paise).
pub fn rupees(paise: i64) -> f64 {
    paise as f64 / 100.0
}

/// A party of an invoice: the platform operator (supplier) or the tenant (recipient).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Party {
    pub legal_name: String,
    pub address: String,
    /// The recipient may be unregistered (a consumer of the service); the supplier never is.
    pub gstin: Option<String>,
    /// ISO 3166-2:IN code; the recipient's is the place of supply.
    pub state_code: String,
}

/// A party as sent or configured, before checking.
#[derive(Debug, Clone, Default)]
pub struct PartyInput<'a> {
    pub legal_name: Option<&'a str>,
    pub address: Option<&'a str>,
    pub gstin: Option<&'a str>,
    pub state_code: Option<&'a str>,
}

/// Names for the fields of a party in errors (API field names, or configuration keys).
pub struct PartyFields<'a> {
    pub legal_name: &'a str,
    pub address: &'a str,
    pub gstin: &'a str,
    pub state_code: &'a str,
}

/// Text of a party: something besides spaces, at most `max` characters as sent, no control
/// characters (but `\n` between the lines of an address); kept without surrounding spaces.
fn party_text(errors: &mut FieldErrors, field: &str, raw: Option<&str>, max: usize, lines: bool) -> Option<String> {
    let Some(text) = raw else {
        errors.entry(field.to_string()).or_default().push("is required".into());
        return None;
    };
    let bad = text.trim().is_empty()
        || text.chars().count() > max
        || text.chars().any(|c| c.is_control() && !(lines && c == '\n'));
    if bad {
        let what = if lines { " but line breaks (\\n)" } else { "" };
        errors
            .entry(field.to_string())
            .or_default()
            .push(format!("must be 1 to {max} characters, not only spaces, without control characters{what}"));
        return None;
    }
    Some(text.trim().to_string())
}

/// Checks every field of a party at once. The GSTIN, when given (always for the supplier),
/// must be registered in the party's state; without it the party is unregistered.
pub fn check_party(input: &PartyInput<'_>, names: &PartyFields<'_>, gstin_required: bool) -> Result<Party, Error> {
    let mut errors = FieldErrors::new();
    let legal_name = party_text(&mut errors, names.legal_name, input.legal_name, MAX_NAME_CHARS, false);
    let address = party_text(&mut errors, names.address, input.address, MAX_ADDRESS_CHARS, true);
    let state_code = match input.state_code.and_then(crate::stamp::state_code_of) {
        Some(code) => Some(code.to_string()),
        None => {
            errors.entry(names.state_code.to_string()).or_default().push(crate::stamp::STATE_RULE.into());
            None
        }
    };
    let gstin = match input.gstin {
        None if gstin_required => {
            errors.entry(names.gstin.to_string()).or_default().push("is required".into());
            None
        }
        None => None,
        Some(raw) => match check_gstin(names.gstin, raw) {
            Ok(gstin) => Some(gstin),
            Err(Error::Validation(fields)) => {
                errors.extend(fields);
                None
            }
            Err(other) => return Err(other),
        },
    };
    if let (Some(gstin), Some(state)) = (&gstin, &state_code)
        && !gstin_matches_state(gstin, state)
    {
        let code = gst_state_code(state).unwrap_or("?");
        errors
            .entry(names.gstin.to_string())
            .or_default()
            .push(format!("is registered in another state: a GSTIN of {state} starts with {code}"));
    }
    match (legal_name, address, state_code, errors.is_empty()) {
        (Some(legal_name), Some(address), Some(state_code), true) => {
            Ok(Party { legal_name, address, gstin, state_code })
        }
        _ => Err(Error::Validation(errors)),
    }
}

/// A SAC (services accounting code): six digits starting with 99.
pub fn check_sac(code: &str) -> bool {
    code.len() == 6 && code.starts_with("99") && code.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAY_3_2026_NOON_IST: Millis = 1_777_789_800_000;

    #[test]
    fn financial_years_turn_on_the_first_of_april_in_ist() {
        assert_eq!(ist_date(MAY_3_2026_NOON_IST), CivilDate { year: 2026, month: 5, day: 3 });
        assert_eq!(FinancialYear::of(MAY_3_2026_NOON_IST).label(), "2026-27");
        // 2026-03-31T18:29:59.999Z is 23:59:59.999 IST on 31 March; a millisecond later is April.
        let last_march = 1_774_981_799_999;
        assert_eq!(ist_date(last_march), CivilDate { year: 2026, month: 3, day: 31 });
        assert_eq!(FinancialYear::of(last_march).label(), "2025-26");
        assert_eq!(FinancialYear::of(last_march + 1).label(), "2026-27");
        assert_eq!(FinancialYear(1999).label(), "1999-00");
        assert_eq!(ist_date(0).long(), "01 Jan 1970");
        assert_eq!(ist_date(951_782_400_000), CivilDate { year: 2000, month: 2, day: 29 });
    }

    #[test]
    fn numbers_fit_sixteen_characters_and_the_series_ends() {
        let year = FinancialYear(2026);
        let first = document_number(InvoiceKind::Invoice, year, 1).expect("number");
        assert_eq!(first, "INV/26-27/000001");
        assert_eq!(first.len(), 16);
        assert_eq!(document_number(InvoiceKind::DebitNote, year, 42).expect("number"), "DN/26-27/000042");
        let last = document_number(InvoiceKind::Invoice, year, MAX_SERIAL).expect("number");
        assert_eq!(last.len(), 16);
        let over = document_number(InvoiceKind::Invoice, year, MAX_SERIAL + 1).expect_err("exhausted");
        assert_eq!(over.code(), ErrorCode::LimitReached);
        assert!(document_number(InvoiceKind::Invoice, year, 0).is_err());
    }

    #[test]
    fn gst_splits_by_place_of_supply_and_rounds_each_line_half_up() {
        assert_eq!(gst(100_000, 1800, "MH", "MH"), Gst::IntraState { cgst: 9_000, sgst: 9_000 });
        assert_eq!(gst(100_000, 1800, "MH", "KA"), Gst::InterState { igst: 18_000 });
        // 9% of 1.05 rupees is 9.45 paise -> 9; of 1.06 rupees 9.54 -> 10; 18% of 0.25 is 4.5 -> 5.
        assert_eq!(gst(105, 1800, "DL", "DL"), Gst::IntraState { cgst: 9, sgst: 9 });
        assert_eq!(gst(106, 1800, "DL", "DL"), Gst::IntraState { cgst: 10, sgst: 10 });
        assert_eq!(gst(25, 1800, "DL", "KA"), Gst::InterState { igst: 5 });
        assert_eq!(round_half_up(5, 10), 1);
        assert_eq!(round_half_up(4, 10), 0);
        assert_eq!(gst(0, 1800, "DL", "DL").total(), 0);
        let lines = gst(100_000, 1800, "MH", "MH").lines(1800);
        assert_eq!(lines, vec![("CGST @ 9%".to_string(), 9_000), ("SGST @ 9%".to_string(), 9_000)]);
        assert_eq!(gst(100_000, 500, "MH", "MH").lines(500)[0].0, "CGST @ 2.5%");
        assert_eq!(gst(100_000, 25, "MH", "MH").lines(25)[0].0, "CGST @ 0.125%");
        assert_eq!(gst(100_000, 1800, "MH", "KA").lines(1800)[0].0, "IGST @ 18%");
    }

    #[test]
    fn rates_come_in_percent_with_at_most_two_decimals() {
        assert_eq!(rate_from_percent(18.0), Some(1800));
        assert_eq!(rate_from_percent(2.5), Some(250));
        assert_eq!(rate_from_percent(0.25), Some(25));
        assert_eq!(rate_from_percent(0.125), None);
        assert_eq!(rate_from_percent(-1.0), None);
        assert_eq!(rate_from_percent(101.0), None);
    }

    #[test]
    fn rupees_are_grouped_the_indian_way() {
        assert_eq!(format_rupees(0), "0.00");
        assert_eq!(format_rupees(5), "0.05");
        assert_eq!(format_rupees(99_999), "999.99");
        assert_eq!(format_rupees(118_000), "1,180.00");
        assert_eq!(format_rupees(11_800_050), "1,18,000.50");
        assert_eq!(format_rupees(123_456_789_012), "1,23,45,67,890.12");
        assert_eq!(rupees(118_050), 1180.5);
    }

    #[test]
    fn gstins_carry_their_check_character_and_state() {
        assert_eq!(check_gstin("g", "27AAPFU0939F1ZV").expect("valid"), "27AAPFU0939F1ZV");
        for bad in ["27AAPFU0939F1ZW", "27AAPFU0939F1Z", "2XAAPFU0939F1ZV", "27AAPFU0939F1YV", "", "27aapfu0939f1zv"] {
            assert!(check_gstin("g", bad).is_err(), "{bad}");
        }
        assert!(gstin_matches_state("27AAPFU0939F1ZV", "MH"));
        assert!(!gstin_matches_state("27AAPFU0939F1ZV", "KA"));
        assert_eq!(state_label("KA"), "Karnataka (29)");
        // Every state has a GST code.
        for (code, _) in crate::stamp::STATES {
            assert!(gst_state_code(code).is_some(), "{code}");
        }
    }

    #[test]
    fn a_party_is_checked_whole() {
        let names =
            PartyFields { legal_name: "legalName", address: "address", gstin: "gstin", state_code: "stateCode" };
        let input = PartyInput {
            legal_name: Some(" Acme Finance Ltd "),
            address: Some("1 Marine Drive\nMumbai 400020 "),
            gstin: Some("27AAPFU0939F1ZV"),
            state_code: Some("MH"),
        };
        let party = check_party(&input, &names, false).expect("valid");
        assert_eq!(
            (party.legal_name.as_str(), party.address.as_str()),
            ("Acme Finance Ltd", "1 Marine Drive\nMumbai 400020")
        );
        let unregistered = PartyInput { gstin: None, ..input.clone() };
        assert_eq!(check_party(&unregistered, &names, false).expect("valid").gstin, None);
        assert!(check_party(&unregistered, &names, true).is_err());
        let carriage = PartyInput { address: Some("1 Marine Drive\r\nMumbai"), ..input.clone() };
        assert!(check_party(&carriage, &names, false).is_err());
        let blank = PartyInput { gstin: Some(""), ..input.clone() };
        assert!(check_party(&blank, &names, false).is_err(), "absent, not empty, means unregistered");
        let elsewhere = PartyInput { state_code: Some("KA"), ..input.clone() };
        let Err(Error::Validation(fields)) = check_party(&elsewhere, &names, false) else { panic!("refused") };
        assert!(fields["gstin"][0].contains("starts with 29"), "{fields:?}");
        let Err(Error::Validation(fields)) = check_party(&PartyInput::default(), &names, false) else {
            panic!("refused")
        };
        assert_eq!(fields.len(), 3, "{fields:?}");
        assert!(check_sac("998314") && !check_sac("12345") && !check_sac("881234"));
    }

    #[test]
    fn issue_windows_are_ist_days_with_both_ends_included() {
        // 2026-04-01 00:00 IST is 2026-03-31 18:30 UTC.
        let start = ist_day_start(CivilDate { year: 2026, month: 4, day: 1 });
        assert_eq!(start, 1_774_981_800_000);
        assert_eq!(ist_date(start), CivilDate { year: 2026, month: 4, day: 1 });
        assert_eq!(ist_date(start - 1), CivilDate { year: 2026, month: 3, day: 31 });
        let window = issued_window(Some("2026-04-01"), Some("2026-04-01")).expect("one day");
        assert_eq!(window, IssuedWindow { from: Some(start), until: Some(start + 86_400_000) });
        assert_eq!(issued_window(None, None).ok(), Some(IssuedWindow::default()));
        // Any year RFC 3339 can write is a date; a window far from any document matches none.
        assert!(issued_window(Some("0001-01-01"), Some("9999-12-31")).is_ok());
        for bad in [
            "2026-02-29",
            "2026-4-01",
            "01-04-2026",
            "2026-04-01T00:00:00Z",
            "२०२६-04-01",
            "",
            " 2026-04-01 ",
            "+2026-04-01",
        ] {
            let Err(Error::Validation(fields)) = issued_window(Some(bad), None) else { panic!("{bad} accepted") };
            assert!(fields.contains_key("issuedFrom"), "{bad}: {fields:?}");
        }
        assert_eq!(parse_iso_date("2028-02-29"), Some(CivilDate { year: 2028, month: 2, day: 29 }));
        let inverted = issued_window(Some("2026-05-02"), Some("2026-05-01")).expect("an empty window");
        assert!(inverted.until <= inverted.from, "{inverted:?}");
    }
}
