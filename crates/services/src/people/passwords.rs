//! Password rules (length, not the e-mail address, not a common one), for every door that sets a
//! password: the user's own, an invitation's link, a trial's sign-up.
//!
//! The commonest passwords from breaches are kept in the binary (no outside service is asked,
//! so air-gapped installations refuse them too): the 43,940 passwords of 12 or more
//! characters among the million commonest of OWASP SecLists (`data/common-passwords.txt`,
//! CC BY-SA 3.0, lowercased and sorted). Shorter ones are refused by the length rule.

use signet_domain::{Error, FieldErrors};

/// Password length bounds (argon2id takes any length; the bound keeps hashing cheap).
pub const MIN_PASSWORD_CHARS: usize = 12;
pub const MAX_PASSWORD_CHARS: usize = 256;

/// Password rules: length, not the e-mail address, not one of the commonest passwords.
pub fn check_password(password: &str, email: Option<&str>) -> Result<(), Error> {
    let chars = password.chars().count();
    let mut errors = FieldErrors::new();
    let mut add = |message: &str| errors.entry("password".to_string()).or_default().push(message.to_string());
    if !(MIN_PASSWORD_CHARS..=MAX_PASSWORD_CHARS).contains(&chars) {
        add(&format!("must be {MIN_PASSWORD_CHARS} to {MAX_PASSWORD_CHARS} characters"));
    }
    let lowered = password.to_lowercase();
    if email.is_some_and(|e| lowered.contains(&e.to_lowercase())) {
        add("must not contain your e-mail address");
    }
    if is_common(&lowered) {
        add("is one of the most common passwords: choose another");
    }
    if errors.is_empty() { Ok(()) } else { Err(Error::Validation(errors)) }
}

const LIST: &str = include_str!("../../data/common-passwords.txt");

fn entries() -> &'static [&'static str] {
    static ENTRIES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    ENTRIES.get_or_init(|| LIST.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).collect())
}

/// Whether `lowercased` (a password in lower case) is on the list.
pub fn is_common(lowercased: &str) -> bool {
    entries().binary_search(&lowercased).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_and_finds_common_passwords() {
        assert!(entries().windows(2).all(|w| w[0] < w[1]), "sorted bytewise, no repeats");
        assert!(entries().len() > 40_000);
        assert!(is_common("qwerty123456"));
        assert!(is_common("1qaz2wsx3edc"));
        assert!(!is_common("correct horse battery staple 7"));
    }
}
