//! Catalogues of text: one file a language, `key = value` a line, read into the binary and
//! parsed once. The pages' catalogue lives with the web crate, the e-mails' with the services;
//! both are read and looked up here, the one way.
//!
//! The format: `#` comments and blank lines; keys are `<screen>.<name>` in lower case; a value
//! may hold named placeholders `{name}`. A key a language lacks is given in English. Why this
//! format: `docs/decisions.md`.

use std::collections::HashMap;
use std::fmt::Display;
use std::sync::OnceLock;

use crate::Lang;

/// One language's entries.
type Table = HashMap<&'static str, &'static str>;

/// The text of every language for one audience (pages, e-mails), English required.
pub struct Catalogue {
    /// Where the files are, for the message of a malformed one.
    origin: &'static str,
    sources: &'static [(Lang, &'static str)],
    tables: OnceLock<Vec<(Lang, Table)>>,
}

impl Catalogue {
    /// A catalogue of `sources` (each language's file, `include_str!`), parsed when first used.
    pub const fn new(origin: &'static str, sources: &'static [(Lang, &'static str)]) -> Catalogue {
        Catalogue { origin, sources, tables: OnceLock::new() }
    }

    fn tables(&self) -> &[(Lang, Table)] {
        self.tables.get_or_init(|| {
            self.sources
                .iter()
                .map(|(lang, source)| {
                    // The files are part of the binary; the tests parse every one.
                    let table = parse(source).unwrap_or_else(|e| panic!("{}/{lang}.txt: {e}", self.origin));
                    (*lang, table)
                })
                .collect()
        })
    }

    fn table(&self, lang: Lang) -> Option<&Table> {
        self.tables().iter().find(|(l, _)| *l == lang).map(|(_, table)| table)
    }

    /// The text of `key` in `lang`, else in English; `None` when English lacks it too.
    pub fn get(&self, lang: Lang, key: &str) -> Option<&'static str> {
        let english = || self.table(Lang::En).and_then(|t| t.get(key)).copied();
        self.table(lang).and_then(|t| t.get(key)).copied().or_else(english)
    }

    /// The text of `key` in `lang` with its placeholders filled in as they are (plain text).
    pub fn plain(&self, lang: Lang, key: &str, values: &[(&str, &dyn Display)]) -> String {
        fill(self.get(lang, key).unwrap_or_default(), values, |value| value.to_string())
    }

    /// The keys of one language, sorted.
    pub fn keys(&self, lang: Lang) -> Vec<&'static str> {
        let mut keys: Vec<_> = self.table(lang).map(|t| t.keys().copied().collect()).unwrap_or_default();
        keys.sort_unstable();
        keys
    }

    /// Whether every file parses and every language has only English keys, with the same
    /// placeholders: the tests of each catalogue call it.
    pub fn check(&self) -> Result<(), String> {
        let mut english = None;
        let mut others = Vec::new();
        for (lang, source) in self.sources {
            let table = parse(source).map_err(|e| format!("{}/{lang}.txt: {e}", self.origin))?;
            if *lang == Lang::En {
                english = Some(table);
            } else {
                others.push((*lang, table));
            }
        }
        let english = english.ok_or_else(|| format!("{}: no English catalogue", self.origin))?;
        for (lang, table) in others {
            for (key, text) in table {
                let Some(in_english) = english.get(key) else {
                    return Err(format!("`{key}` of {}/{lang}.txt is not in English", self.origin));
                };
                if placeholders(text) != placeholders(in_english) {
                    return Err(format!(
                        "the placeholders of `{key}` in {}/{lang}.txt differ from English",
                        self.origin
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A catalogue's entries; refuses a line that is not `key = value`, a malformed key and a key
/// given twice.
pub fn parse(source: &'static str) -> Result<HashMap<&'static str, &'static str>, String> {
    let mut entries = HashMap::new();
    for (number, line) in source.lines().enumerate() {
        let number = number + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once(" = ") else {
            return Err(format!("line {number} is not `key = value`"));
        };
        let key = key.trim();
        if !well_formed(key) {
            return Err(format!("line {number}: `{key}` is not a key (`screen.name`, lower case)"));
        }
        if value.trim().is_empty() {
            return Err(format!("line {number}: `{key}` has no text"));
        }
        if entries.insert(key, value.trim_end()).is_some() {
            return Err(format!("line {number}: `{key}` is given twice"));
        }
    }
    Ok(entries)
}

/// `screen.name`: lower-case words joined by dots.
fn well_formed(key: &str) -> bool {
    key.contains('.')
        && !key.starts_with('.')
        && !key.ends_with('.')
        && !key.contains("..")
        && key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'.')
}

/// `text` with each `{name}` of `values` replaced by its value through `put` (which escapes it
/// for HTML, or not); a placeholder without a value stays as it is.
pub fn fill(text: &str, values: &[(&str, &dyn Display)], put: impl Fn(&dyn Display) -> String) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after
            .find('}')
            .and_then(|close| values.iter().find(|(name, _)| *name == &after[..close]).map(|v| (close, v.1)));
        match value {
            Some((close, value)) => {
                out.push_str(&put(value));
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The placeholders of a catalogue text, sorted.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut names: Vec<&str> = text
        .split('{')
        .skip(1)
        .filter_map(|part| part.split_once('}').map(|(name, _)| name))
        .filter(|name| !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    static SAMPLE: Catalogue = Catalogue::new(
        "sample",
        &[(Lang::En, "a.hello = Hello {name}\na.bye = Bye\n"), (Lang::Hi, "a.hello = नमस्ते {name}\n")],
    );

    #[test]
    fn the_parser_refuses_malformed_and_repeated_lines() {
        assert!(parse("# a comment\n\nscreen.name = Text <code>x</code>\n").is_ok());
        assert!(parse("screen.name Text").expect_err("refused").contains("line 1"));
        assert!(parse("a = b\n").expect_err("refused").contains("not a key"));
        assert!(parse("Screen.Name = b\n").expect_err("refused").contains("not a key"));
        assert!(parse("screen.name = \n").is_err());
        assert!(parse("screen.a = x\n\nscreen.a = y\n").expect_err("refused").contains("line 3"));
    }

    #[test]
    fn a_language_falls_back_to_english_and_fills_placeholders() {
        assert_eq!(SAMPLE.plain(Lang::Hi, "a.hello", &[("name", &"Asha")]), "नमस्ते Asha");
        assert_eq!(SAMPLE.plain(Lang::Hi, "a.bye", &[]), "Bye");
        assert_eq!(SAMPLE.get(Lang::En, "a.missing"), None);
        assert_eq!(SAMPLE.keys(Lang::En), vec!["a.bye", "a.hello"]);
        assert!(SAMPLE.check().is_ok());
    }

    #[test]
    fn check_refuses_a_key_english_lacks_and_other_placeholders() {
        static EXTRA: Catalogue = Catalogue::new("x", &[(Lang::En, "a.b = B\n"), (Lang::Hi, "a.c = C\n")]);
        assert!(EXTRA.check().expect_err("refused").contains("`a.c`"));
        static OTHER: Catalogue = Catalogue::new("x", &[(Lang::En, "a.b = {x}\n"), (Lang::Hi, "a.b = {y}\n")]);
        assert!(OTHER.check().expect_err("refused").contains("placeholders"));
    }

    #[test]
    fn placeholders_without_a_value_stay() {
        let filled = fill("<b>{name}</b> has {n} {missing}", &[("name", &"Ann"), ("n", &3)], |v| v.to_string());
        assert_eq!(filled, "<b>Ann</b> has 3 {missing}");
        assert_eq!(placeholders("{b} {a} {b} {}"), vec!["a", "b"]);
    }
}
