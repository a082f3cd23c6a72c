//! The commonest passwords from breaches, kept in the binary (no outside service is asked,
//! so air-gapped installations refuse them too): the 43,940 passwords of 12 or more
//! characters among the million commonest of OWASP SecLists (`data/common-passwords.txt`,
//! CC BY-SA 3.0, lowercased and sorted). Shorter ones are refused by the length rule.

const LIST: &str = include_str!("../data/common-passwords.txt");

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
