//! What an ESP's `errCode` means for the integrator: one typed table for every ESP Signet knows
//! (the licensed ESPs' published codes and Signet's own test ESP), read by the gateway (106 at
//! `CUrl` for a cancel, 107 at `FUrl` with the ESP's code and words otherwise) and by workflows
//! (a cancel leaves the signer free to sign again; any other refusal is quoted to them).
//!
//! Sources of the licensed ESPs' codes: the codes C-DAC and eMudhra return as collected by
//! integrators (Leegality's "Frequent errors from ESPs and CAs", LotusPay's eSign eMandate
//! error list). A code no row names is a failure, never a cancel: an unknown code must not
//! look like a signer's choice.

/// What an ESP's refusal is, as far as the integrator is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EspRefusal {
    /// The signer stopped at the ESP (closed the eKYC or OTP page, pressed cancel).
    Cancelled,
    /// The signer took too long at the ESP (its page or transaction expired).
    Expired,
    /// The signer could not authenticate (wrong OTP, attempts exhausted, unknown Aadhaar).
    Authentication,
    /// The ESP refused the ASP's request itself (signature, ASP id, fields, replayed txn).
    Request,
    /// The ESP, or the CA or UIDAI behind it, failed.
    Service,
}

impl EspRefusal {
    /// A cancel goes to the integrator's `CUrl` as 106; everything else is a failure.
    pub fn is_cancel(self) -> bool {
        self == EspRefusal::Cancelled
    }
}

/// One row of the table: an ESP's code and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EspCode {
    pub code: &'static str,
    pub refusal: EspRefusal,
    /// Who uses the code and what it says, for documentation and logs.
    pub meaning: &'static str,
}

const fn row(code: &'static str, refusal: EspRefusal, meaning: &'static str) -> EspCode {
    EspCode { code, refusal, meaning }
}

use EspRefusal::{Authentication, Cancelled, Expired, Request, Service};

/// Every code Signet knows. Codes ESP-901 to ESP-999 are shared between the licensed ESPs and
/// Signet's test ESP with different words; where both use one, the row gives both meanings
/// and the one kind they share.
pub const KNOWN: &[EspCode] = &[
    row("ESP-415", Authentication, "licensed ESPs: invalid OTP, retry attempts exhausted"),
    row("ESP-901", Request, "licensed ESPs: invalid authentication mode; test ESP: malformed request"),
    row("ESP-902", Request, "licensed ESPs: ASP id empty; test ESP: version is not 2.1"),
    row("ESP-903", Request, "licensed ESPs and test ESP: ASP id unknown or inactive"),
    row("ESP-904", Request, "test ESP: request not signed with the ASP's registered certificate"),
    row("ESP-905", Request, "licensed ESPs: document hash not received; test ESP: ts outside the window"),
    row("ESP-906", Request, "licensed ESPs: UID token does not match; test ESP: txn replayed"),
    row("ESP-907", Request, "licensed ESPs: request timestamp empty; test ESP: bad InputHash list"),
    row("ESP-908", Request, "licensed ESPs: request timestamp not valid; test ESP: bad responseUrl"),
    row("ESP-909", Request, "licensed ESPs: transaction id empty; test ESP: AuthMode or ekycIdType not offered"),
    row("ESP-910", Request, "licensed ESPs: duplicate transaction id for the ASP"),
    row(
        "ESP-911",
        Authentication,
        "licensed ESPs: input XML signature verification failed; test ESP: unknown Aadhaar number or VID",
    ),
    row("ESP-912", Authentication, "test ESP: wrong OTP"),
    row("ESP-913", Authentication, "test ESP: OTP expired"),
    row("ESP-914", Authentication, "test ESP: too many wrong OTPs"),
    row("ESP-915", Expired, "test ESP: the transaction expired before the signer finished"),
    row("ESP-920", Cancelled, "test ESP: the signer cancelled"),
    row("ESP-922", Request, "licensed ESPs: request signed with a certificate not mapped to the ASP"),
    row("ESP-944", Cancelled, "licensed ESPs: user terminated eKYC process"),
    row("ESP-945", Cancelled, "licensed ESPs: user terminated eKYC process after OTP generation"),
    row("ESP-946", Expired, "licensed ESPs: user interface page expired"),
    row("ESP-991", Service, "licensed ESPs: ESP database connectivity error"),
    row("ESP-992", Request, "licensed ESPs: input XML parsing error"),
    row("ESP-993", Service, "licensed ESPs: error parsing the CA's response"),
    row("ESP-999", Service, "licensed ESPs and test ESP: unknown error"),
];

/// The row for an ESP's code (compared without regard to case or surrounding spaces).
pub fn lookup(code: &str) -> Option<&'static EspCode> {
    let code = code.trim();
    KNOWN.iter().find(|row| row.code.eq_ignore_ascii_case(code))
}

/// What an ESP's code means; a code no row names is a [`EspRefusal::Service`] failure.
pub fn classify(code: &str) -> EspRefusal {
    lookup(code).map_or(EspRefusal::Service, |row| row.refusal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_and_test_cancels_are_cancels_and_nothing_unknown_is() {
        for code in ["ESP-944", "ESP-945", "esp-944 ", crate::esp::codes::CANCELLED] {
            assert!(classify(code).is_cancel(), "{code}");
        }
        for code in ["ESP-946", "ESP-999", "ESP-415", "NA", "", "K-100", "ESP-9440"] {
            assert!(!classify(code).is_cancel(), "{code}");
        }
        assert_eq!(classify("K-100"), EspRefusal::Service);
    }

    #[test]
    fn the_table_has_one_row_per_code_and_covers_the_test_esp() {
        for (i, row) in KNOWN.iter().enumerate() {
            assert!(KNOWN[i + 1..].iter().all(|other| other.code != row.code), "{} twice", row.code);
        }
        for (code, _) in crate::esp::codes::ALL {
            assert!(lookup(code).is_some(), "the test ESP's {code} is not in the table");
        }
    }
}
