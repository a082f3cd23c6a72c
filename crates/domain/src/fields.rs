//! The fields a signatory fills in besides their signature: initials, the signing date, their
//! name and e-mail, a text they type, a checkbox. Signet fills in what it knows (initials, date,
//! name, e-mail); the signer types the text and ticks the box. The rules here decide what a
//! field shows, from what the signer submitted; the PDF engine draws it into the signature.

use serde::{Deserialize, Serialize};

use crate::Millis;
use crate::Zone;

/// Most fields (and signature boxes) a template or a request places.
pub const MAX_FIELDS: usize = 500;
/// Longest label of a field, in characters.
pub const MAX_LABEL_CHARS: usize = 100;
/// Longest text a signer may type into a text field, in characters.
pub const MAX_TEXT_CHARS: usize = 200;

/// What a placed box is for. `signature` is the default: the signature's own box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldKind {
    #[default]
    Signature,
    Initials,
    Date,
    Name,
    Email,
    Text,
    Checkbox,
}

impl FieldKind {
    pub const ALL: [FieldKind; 7] = [
        FieldKind::Signature,
        FieldKind::Initials,
        FieldKind::Date,
        FieldKind::Name,
        FieldKind::Email,
        FieldKind::Text,
        FieldKind::Checkbox,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FieldKind::Signature => "signature",
            FieldKind::Initials => "initials",
            FieldKind::Date => "date",
            FieldKind::Name => "name",
            FieldKind::Email => "email",
            FieldKind::Text => "text",
            FieldKind::Checkbox => "checkbox",
        }
    }

    pub fn parse(text: &str) -> Option<FieldKind> {
        FieldKind::ALL.into_iter().find(|k| k.as_str().eq_ignore_ascii_case(text.trim()))
    }

    /// A field the signer fills in themselves (the others Signet fills in).
    pub fn is_input(self) -> bool {
        matches!(self, FieldKind::Text | FieldKind::Checkbox)
    }

    /// What the field is called on the signer page when the sender gave it no label.
    pub fn default_label(self) -> &'static str {
        match self {
            FieldKind::Signature => "Signature",
            FieldKind::Initials => "Initials",
            FieldKind::Date => "Date signed",
            FieldKind::Name => "Name",
            FieldKind::Email => "E-mail",
            FieldKind::Text => "Text",
            FieldKind::Checkbox => "Checkbox",
        }
    }
}

/// A sender's label: at most [`MAX_LABEL_CHARS`] characters, no control characters.
pub fn check_label(label: &str) -> Result<(), String> {
    if label.chars().count() > MAX_LABEL_CHARS || label.chars().any(char::is_control) {
        return Err(format!("a label must be at most {MAX_LABEL_CHARS} characters without control characters"));
    }
    Ok(())
}

/// What a filled field shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum FieldValue {
    /// Text; `handwriting` for initials, drawn like a signature.
    Text {
        text: String,
        handwriting: bool,
    },
    Checked(bool),
}

/// Who signs, for the fields Signet fills in.
pub struct Signer<'a> {
    pub name: &'a str,
    pub email: &'a str,
}

/// The first letter of each part of a name, upper-cased: "Asha K. Verma" gives "AKV".
/// Scripts without case (Devanagari) keep their first character.
pub fn initials_of(name: &str) -> String {
    let letters: String = name
        .split(|c: char| c.is_whitespace() || c == '.' || c == '-')
        .filter_map(|part| part.chars().find(|c| c.is_alphanumeric()))
        .flat_map(char::to_uppercase)
        .take(4)
        .collect();
    if letters.is_empty() { name.trim().chars().take(1).collect() } else { letters }
}

/// What the signer must correct in one field they fill in; the signer pages say it in the
/// signer's language, the API in English ([`std::fmt::Display`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldRefusal {
    /// A required text left empty.
    FillIn { label: String },
    /// A required checkbox left unticked.
    Tick { label: String },
    /// A text over [`MAX_TEXT_CHARS`] or not on one line.
    TooLong { label: String },
    /// Not a field the signer fills in (a signature box).
    NotAnInput,
}

impl std::fmt::Display for FieldRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FieldRefusal::FillIn { label } => write!(f, "Please fill in \u{201c}{label}\u{201d}."),
            FieldRefusal::Tick { label } => write!(f, "Please tick \u{201c}{label}\u{201d}."),
            FieldRefusal::TooLong { label } => {
                write!(f, "\u{201c}{label}\u{201d} takes at most {MAX_TEXT_CHARS} characters on one line.")
            }
            FieldRefusal::NotAnInput => f.write_str("a signature box is not filled in as a field"),
        }
    }
}

/// Whether the signer's `submitted` input for a field of `kind` is acceptable: a required one
/// given, a text bounded and on one line. The fields Signet fills in take any input (it is
/// ignored).
pub fn check_input(kind: FieldKind, label: &str, required: bool, submitted: Option<&str>) -> Result<(), FieldRefusal> {
    match kind {
        FieldKind::Signature => Err(FieldRefusal::NotAnInput),
        FieldKind::Initials | FieldKind::Date | FieldKind::Name | FieldKind::Email => Ok(()),
        FieldKind::Checkbox if required && !is_ticked(submitted) => Err(FieldRefusal::Tick { label: label.into() }),
        FieldKind::Checkbox => Ok(()),
        FieldKind::Text => {
            let value = submitted.map(str::trim).unwrap_or("");
            if required && value.is_empty() {
                return Err(FieldRefusal::FillIn { label: label.into() });
            }
            if value.chars().count() > MAX_TEXT_CHARS || value.chars().any(char::is_control) {
                return Err(FieldRefusal::TooLong { label: label.into() });
            }
            Ok(())
        }
    }
}

fn is_ticked(submitted: Option<&str>) -> bool {
    submitted.is_some_and(|v| matches!(v.trim(), "on" | "true" | "1" | "yes"))
}

/// The value of one field: what Signet knows for its own kinds, the signer's `submitted`
/// input (a text, or a checkbox's "on") for theirs, once [`check_input`] accepts it.
pub fn fill(
    kind: FieldKind,
    label: &str,
    required: bool,
    submitted: Option<&str>,
    signer: &Signer<'_>,
    at: Millis,
    zone: Zone,
) -> Result<FieldValue, FieldRefusal> {
    check_input(kind, label, required, submitted)?;
    let text = |text: String| FieldValue::Text { text, handwriting: false };
    Ok(match kind {
        FieldKind::Signature => return Err(FieldRefusal::NotAnInput),
        FieldKind::Initials => FieldValue::Text { text: initials_of(signer.name), handwriting: true },
        // The day in the organisation's zone: the day the signer sees on their calendar.
        FieldKind::Date => text(zone.date(at)),
        FieldKind::Name => text(signer.name.trim().to_string()),
        FieldKind::Email => text(signer.email.trim().to_string()),
        FieldKind::Checkbox => FieldValue::Checked(is_ticked(submitted)),
        FieldKind::Text => text(submitted.map(str::trim).unwrap_or("").to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIGNER: Signer<'static> = Signer { name: "Asha K. Verma", email: "asha@example.in" };
    // 2026-11-24 20:00 UTC is already the 25th in India.
    const LATE_EVENING_UTC: Millis = 1_795_550_400_000;

    #[test]
    fn signet_fills_in_what_it_knows() {
        assert_eq!(
            fill(FieldKind::Initials, "", false, None, &SIGNER, 0, Zone::Ist),
            Ok(FieldValue::Text { text: "AKV".into(), handwriting: true })
        );
        assert_eq!(
            fill(FieldKind::Date, "", false, Some("ignored"), &SIGNER, LATE_EVENING_UTC, Zone::Ist),
            Ok(FieldValue::Text { text: "25 Nov 2026".into(), handwriting: false })
        );
        assert_eq!(
            fill(FieldKind::Date, "", false, None, &SIGNER, LATE_EVENING_UTC, Zone::Utc),
            Ok(FieldValue::Text { text: "24 Nov 2026".into(), handwriting: false }),
            "the organisation's zone decides the day"
        );
        assert_eq!(
            fill(FieldKind::Email, "", false, Some("other@example.in"), &SIGNER, 0, Zone::Ist),
            Ok(FieldValue::Text { text: "asha@example.in".into(), handwriting: false }),
            "the signer cannot change what Signet fills in"
        );
    }

    #[test]
    fn required_inputs_must_be_given_and_texts_are_bounded() {
        assert!(
            fill(FieldKind::Text, "PAN", true, Some("  "), &SIGNER, 0, Zone::Ist)
                .is_err_and(|message| message.to_string().contains("PAN"))
        );
        assert_eq!(
            fill(FieldKind::Text, "PAN", false, None, &SIGNER, 0, Zone::Ist),
            Ok(FieldValue::Text { text: String::new(), handwriting: false })
        );
        assert!(fill(FieldKind::Text, "PAN", false, Some(&"x".repeat(201)), &SIGNER, 0, Zone::Ist).is_err());
        assert!(fill(FieldKind::Text, "PAN", false, Some("a\u{7}b"), &SIGNER, 0, Zone::Ist).is_err());
        assert!(fill(FieldKind::Checkbox, "I agree", true, None, &SIGNER, 0, Zone::Ist).is_err());
        assert_eq!(
            fill(FieldKind::Checkbox, "I agree", true, Some("on"), &SIGNER, 0, Zone::Ist),
            Ok(FieldValue::Checked(true))
        );
        assert_eq!(
            fill(FieldKind::Checkbox, "Optional", false, None, &SIGNER, 0, Zone::Ist),
            Ok(FieldValue::Checked(false))
        );
        assert!(fill(FieldKind::Signature, "", false, None, &SIGNER, 0, Zone::Ist).is_err());
    }

    #[test]
    fn initials_take_the_first_letter_of_each_part() {
        assert_eq!(initials_of("ravi shankar-prasad"), "RSP");
        assert_eq!(initials_of("आशा वर्मा"), "आव");
        assert_eq!(initials_of("  "), "");
        assert_eq!(initials_of("A B C D E F"), "ABCD");
    }

    #[test]
    fn kinds_read_their_names() {
        for kind in FieldKind::ALL {
            assert_eq!(FieldKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(FieldKind::parse(" Date "), Some(FieldKind::Date));
        assert_eq!(FieldKind::parse("stamp"), None);
        assert!(check_label(&"x".repeat(101)).is_err());
        assert!(check_label("Loan amount").is_ok());
    }
}
