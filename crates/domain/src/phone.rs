//! A mobile number Signet may text (the SMS channel): E.164, that is `+` and 8 to 15 digits
//! with the country code first. People type numbers with spaces, hyphens, dots and
//! parentheses, and in India often the bare 10-digit mobile number; those are accepted and
//! kept in E.164, so that the provider and the logs see one form.
//!
//! A number is personal data: it is shown whole only where it is needed (the provider, the
//! sender's own view); [`PhoneNumber`]'s `Display` and `Debug` mask all but the last four
//! digits, so a number that reaches a log line by accident is not readable there.

use std::fmt;

/// Why a typed number is refused, in words the sender can act on.
pub const PHONE_REFUSAL: &str = "must be a mobile number in international form, + and the country code then the \
     number (8 to 15 digits, e.g. +919876543210), or a 10-digit Indian mobile number starting with 6, 7, 8 or 9";

/// Digits an E.164 number has at least (country code and subscriber number) and at most.
const MIN_DIGITS: usize = 8;
const MAX_DIGITS: usize = 15;

/// A checked mobile number in E.164 form (`+919876543210`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PhoneNumber(String);

impl PhoneNumber {
    /// Reads a typed number: `+` and 8-15 digits (the first not 0), or a bare 10-digit Indian
    /// mobile number (first digit 6-9), which becomes `+91…`. Spaces, hyphens, dots and
    /// parentheses between digits are dropped; anything else is refused.
    pub fn parse(typed: &str) -> Result<PhoneNumber, &'static str> {
        let typed = typed.trim();
        let (international, rest) = match typed.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, typed),
        };
        let mut digits = String::with_capacity(rest.len());
        for c in rest.chars() {
            match c {
                '0'..='9' => digits.push(c),
                ' ' | '-' | '.' | '(' | ')' => {}
                _ => return Err(PHONE_REFUSAL),
            }
        }
        if international {
            let shaped = (MIN_DIGITS..=MAX_DIGITS).contains(&digits.len()) && !digits.starts_with('0');
            return if shaped { Ok(PhoneNumber(format!("+{digits}"))) } else { Err(PHONE_REFUSAL) };
        }
        if digits.len() == 10 && digits.starts_with(['6', '7', '8', '9']) {
            return Ok(PhoneNumber(format!("+91{digits}")));
        }
        Err(PHONE_REFUSAL)
    }

    /// A number given as someone's contact rather than asked for SMS (initiate-and-sign's
    /// `contactNo`, a loan record's `cntrprtycntmobno`): such fields carry landlines and office
    /// numbers too, which are no reason to refuse a request, so only a number that reads as a
    /// mobile number is kept (for texting the signer where an SMS provider is configured).
    pub fn from_contact(typed: Option<&str>) -> Option<PhoneNumber> {
        typed.and_then(|typed| PhoneNumber::parse(typed).ok())
    }

    /// The whole number, `+` and digits: for the provider and the sender's own view only.
    pub fn e164(&self) -> &str {
        &self.0
    }

    /// All but the last four digits hidden (`+*********3210`), for logs and events.
    pub fn masked(&self) -> String {
        let digits = self.0.len() - 1;
        let shown = &self.0[self.0.len() - 4..];
        format!("+{}{shown}", "*".repeat(digits - 4))
    }
}

impl fmt::Display for PhoneNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.masked())
    }
}

impl fmt::Debug for PhoneNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PhoneNumber({})", self.masked())
    }
}

/// A stored number reads back through the same check (a row written by an older version, or by
/// hand, that does not pass is treated as no number).
impl TryFrom<String> for PhoneNumber {
    type Error = &'static str;

    fn try_from(stored: String) -> Result<Self, Self::Error> {
        PhoneNumber::parse(&stored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn international_numbers_are_kept_in_e164() {
        assert_eq!(PhoneNumber::parse("+91 98765 43210").map(|p| p.e164().to_string()), Ok("+919876543210".into()));
        assert_eq!(PhoneNumber::parse("+1 (415) 555-0100").map(|p| p.e164().to_string()), Ok("+14155550100".into()));
        assert_eq!(PhoneNumber::parse("+44.20.7946.0958").map(|p| p.e164().to_string()), Ok("+442079460958".into()));
        assert!(PhoneNumber::parse("+1234567").is_err(), "7 digits are too few");
        assert!(PhoneNumber::parse("+1234567890123456").is_err(), "16 digits are too many");
        assert!(PhoneNumber::parse("+0919876543210").is_err(), "no country code starts with 0");
        assert!(PhoneNumber::parse("+91 98765 4321x").is_err());
        assert!(PhoneNumber::parse("++919876543210").is_err());
    }

    #[test]
    fn bare_indian_mobile_numbers_get_the_country_code() {
        assert_eq!(PhoneNumber::parse("98765 43210").map(|p| p.e164().to_string()), Ok("+919876543210".into()));
        assert_eq!(PhoneNumber::parse("6000000000").map(|p| p.e164().to_string()), Ok("+916000000000".into()));
        assert!(PhoneNumber::parse("5876543210").is_err(), "Indian mobiles start with 6-9");
        assert!(PhoneNumber::parse("09876543210").is_err(), "a trunk 0 is not a mobile number");
        assert!(PhoneNumber::parse("987654321").is_err());
        assert!(PhoneNumber::parse("").is_err());
        assert_eq!(PhoneNumber::parse("abc"), Err(PHONE_REFUSAL));
    }

    #[test]
    fn logs_see_the_last_four_digits_only() {
        let number = PhoneNumber::parse("+919876543210").expect("number");
        assert_eq!(number.to_string(), "+********3210");
        assert_eq!(format!("{number:?}"), "PhoneNumber(+********3210)");
        assert_eq!(number.masked().len(), number.e164().len());
    }
}
