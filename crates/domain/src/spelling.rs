//! Words integrators spell their own way: a value Signet must understand (a state, a billing
//! cycle) is taken in any case and in the spellings in use, kept in one form, and the API's
//! schema says exactly which spellings are taken, as an ECMA-262 pattern (JSON Schema's).

/// A pattern piece that matches `text` with its ASCII letters in either case.
pub fn any_case(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if c.is_ascii_alphabetic() => format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase()),
            c if "\\^$.|?*+()[]{}".contains(c) => format!("\\{c}"),
            c => c.to_string(),
        })
        .collect()
}

/// The whole-text pattern of the spellings in `table` (spelling, kept form), any case.
pub fn pattern_of(table: &[(&str, &str)]) -> String {
    let each: Vec<String> = table.iter().map(|(spelt, _)| any_case(spelt)).collect();
    format!("^(?:{})$", each.join("|"))
}

/// The kept form of `said` in `table`, ignoring ASCII case.
pub fn kept_form(table: &[(&str, &'static str)], said: &str) -> Option<&'static str> {
    table.iter().find(|(spelt, _)| spelt.eq_ignore_ascii_case(said)).map(|(_, kept)| *kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_takes_exactly_the_spellings_in_any_case() {
        let table = [("one_time", "one_time"), ("one-time", "one_time"), ("yearly", "yearly")];
        let pattern = regex::Regex::new(&pattern_of(&table)).expect("a pattern");
        for said in ["one_time", "ONE-TIME", "Yearly"] {
            assert!(pattern.is_match(said) && kept_form(&table, said).is_some(), "{said}");
        }
        for said in ["yearly ", "one time", "", "weekly", "yearlyy"] {
            assert!(!pattern.is_match(said) && kept_form(&table, said).is_none(), "{said}");
        }
        assert_eq!(any_case("a.b"), "[Aa]\\.[Bb]");
    }
}
