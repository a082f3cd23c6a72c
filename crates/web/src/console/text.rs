//! The console's text (and the public verification page's, `/verify`): one catalogue a
//! language (`crates/web/text/<code>.txt`), read into the binary and parsed once. Templates
//! write `{{ frame.t("people.heading") }}` (or `tf1`..`tf3` for text with placeholders);
//! handlers use [`Text`] for the messages they build.
//!
//! The format is one `key = value` a line, `#` comments and blank lines. Keys are
//! `<screen>.<name>`; a value is a trusted HTML fragment as it stood in the template (entities,
//! `<code>`, links) and may hold named placeholders `{name}`, whose values are HTML-escaped
//! when put in. A key Hindi lacks is shown in English. Why this format: `docs/decisions.md`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::{self, Display};
use std::sync::LazyLock;

/// The languages of the console.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    #[default]
    En,
    Hi,
}

impl Lang {
    /// The code of the `lang` attribute and of the catalogue's file name.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Hi => "hi",
        }
    }

    /// The language a code names (`en`, `hi`), if it names one of ours.
    pub fn from_code(code: &str) -> Option<Lang> {
        match code.trim().to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "hi" => Some(Lang::Hi),
            _ => None,
        }
    }

    /// The other language: the one a language switch offers.
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Hi,
            Lang::Hi => Lang::En,
        }
    }

    /// The language of a public page: the one its query's `lang` names (a language switch),
    /// else the one `Accept-Language` asks for (as the console's).
    pub fn chosen(query: Option<&str>, accept_language: Option<&str>) -> Lang {
        let asked = query
            .and_then(|q| serde_urlencoded::from_str::<Vec<(String, String)>>(q).ok())
            .and_then(|pairs| pairs.into_iter().find(|(name, _)| name == "lang"))
            .and_then(|(_, code)| Lang::from_code(&code));
        asked.unwrap_or_else(|| accept_language.map(Lang::from_accept_language).unwrap_or_default())
    }

    /// The language an `Accept-Language` header asks for: Hindi when it ranks Hindi above
    /// English (by weight, then by order), else English.
    pub fn from_accept_language(header: &str) -> Lang {
        // (weight, position) of the best range naming each language; a higher weight and
        // then an earlier position rank first.
        let mut best: [Option<(u32, usize)>; 2] = [None, None];
        for (position, range) in header.split(',').enumerate() {
            let mut parts = range.split(';');
            let tag = parts.next().unwrap_or_default().trim();
            let primary = tag.split('-').next().unwrap_or_default().to_ascii_lowercase();
            let weight = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .filter_map(|q| q.trim().parse::<f32>().ok())
                .next()
                .unwrap_or(1.0);
            // Thousandths, as the header's weights are given.
            let weight = (weight.clamp(0.0, 1.0) * 1000.0).round() as u32;
            let slot = match primary.as_str() {
                "en" => 0,
                "hi" => 1,
                _ => continue,
            };
            let ranks_higher = |(w, p): (u32, usize)| weight > w || (weight == w && position < p);
            if best[slot].is_none_or(ranks_higher) {
                best[slot] = Some((weight, position));
            }
        }
        match best {
            [_, Some((0, _))] | [_, None] => Lang::En,
            [None, Some(_)] => Lang::Hi,
            [Some((en_weight, en_position)), Some((hi_weight, hi_position))] => {
                if hi_weight > en_weight || (hi_weight == en_weight && hi_position < en_position) {
                    Lang::Hi
                } else {
                    Lang::En
                }
            }
        }
    }
}

type Catalogue = HashMap<&'static str, &'static str>;

const EN_SOURCE: &str = include_str!("../../text/en.txt");
const HI_SOURCE: &str = include_str!("../../text/hi.txt");

static EN: LazyLock<Catalogue> = LazyLock::new(|| parse(EN_SOURCE).unwrap_or_else(|e| panic!("text/en.txt: {e}")));
static HI: LazyLock<Catalogue> = LazyLock::new(|| parse(HI_SOURCE).unwrap_or_else(|e| panic!("text/hi.txt: {e}")));

/// A catalogue's entries; refuses a line that is not `key = value`, a malformed key and a key
/// given twice.
fn parse(source: &'static str) -> Result<Catalogue, String> {
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
        let well_formed = key.contains('.')
            && !key.starts_with('.')
            && !key.ends_with('.')
            && !key.contains("..")
            && key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'.');
        if !well_formed {
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

/// Catalogue text as HTML: shown as it is, without escaping (askama's [`HtmlSafe`]); the
/// values put into its placeholders are escaped.
///
/// [`HtmlSafe`]: askama::filters::HtmlSafe
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Html(Cow<'static, str>);

impl Html {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Display for Html {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl askama::filters::HtmlSafe for Html {}

/// A key of the catalogue named where its text is not looked up at once (a table of labels);
/// the tests find the keys by this name.
pub const fn key(key: &'static str) -> &'static str {
    key
}

/// The text of one language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Text {
    lang: Lang,
}

impl Text {
    /// English, for what is shown without a session (refusals before sign-in).
    pub const EN: Text = Text { lang: Lang::En };

    pub fn new(lang: Lang) -> Text {
        Text { lang }
    }

    pub fn lang(self) -> Lang {
        self.lang
    }

    /// The catalogue's text of `key` as it stands (in English when this language lacks it).
    pub fn s(self, key: &str) -> &'static str {
        let found = match self.lang {
            Lang::Hi => HI.get(key).or_else(|| EN.get(key)),
            Lang::En => EN.get(key),
        };
        match found {
            Some(text) => text,
            None => {
                // The tests keep every key used in the English catalogue.
                tracing::error!(key, "console text missing from text/en.txt");
                ""
            }
        }
    }

    /// The text of `key`, as HTML.
    pub fn t(self, key: &str) -> Html {
        Html(Cow::Borrowed(self.s(key)))
    }

    /// The text of `key` with its placeholders filled in, each value HTML-escaped.
    pub fn tf(self, key: &str, values: &[(&str, &dyn Display)]) -> Html {
        Html(Cow::Owned(fill(self.s(key), values, |value| {
            askama::filters::escape(value, askama::filters::Html).map(|v| v.to_string()).unwrap_or_default()
        })))
    }

    /// The text of `key` with its placeholders filled in as they are: for messages the
    /// templates escape when they show them (so such catalogue text is plain, not HTML).
    pub fn plain(self, key: &str, values: &[(&str, &dyn Display)]) -> String {
        fill(self.s(key), values, |value| value.to_string())
    }
}

/// `text` with each `{name}` of `values` replaced by its value through `put`.
fn fill(text: &str, values: &[(&str, &dyn Display)], put: impl Fn(&dyn Display) -> String) -> String {
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
#[cfg(test)]
fn placeholders(text: &str) -> Vec<&str> {
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
    use std::collections::BTreeSet;

    /// Every key a template or a console module names: `t("…")`, `tf("…"`, `tf1("…"` …,
    /// `s("…")` and `plain("…"`.
    fn keys_used() -> BTreeSet<(String, String)> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/");
        let mut files = Vec::new();
        // The public verification page shares the catalogue.
        for file in ["templates/verify.html", "src/verify.rs"] {
            files.push((file.to_string(), std::fs::read_to_string(format!("{root}{file}")).expect("readable")));
        }
        for dir in ["templates/console", "src/console"] {
            for entry in std::fs::read_dir(format!("{root}{dir}")).expect("the directory") {
                let path = entry.expect("an entry").path();
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
                if name.ends_with(".html") || (name.ends_with(".rs") && name != "text.rs") {
                    files.push((format!("{dir}/{name}"), std::fs::read_to_string(&path).expect("readable")));
                }
            }
        }
        let mut used = BTreeSet::new();
        for (file, source) in files {
            for call in ["t(\"", "key(\"", "tf(\"", "tf1(\"", "tf2(\"", "tf3(\"", "s(\"", "plain(\""] {
                for (at, _) in source.match_indices(call) {
                    let before = source[..at].chars().next_back();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let rest = &source[at + call.len()..];
                    let key = &rest[..rest.find('"').expect("a closed string")];
                    used.insert((key.to_string(), file.clone()));
                }
            }
        }
        used
    }

    #[test]
    fn every_key_used_is_in_english() {
        let missing: Vec<_> = keys_used().into_iter().filter(|(key, _)| !EN.contains_key(key.as_str())).collect();
        assert!(missing.is_empty(), "keys missing from text/en.txt: {missing:?}");
    }

    #[test]
    fn every_english_key_is_used() {
        let used: BTreeSet<String> = keys_used().into_iter().map(|(key, _)| key).collect();
        let mut unused: Vec<_> = EN.keys().filter(|key| !used.contains(**key)).collect();
        unused.sort();
        assert!(unused.is_empty(), "keys of text/en.txt no template or module uses: {unused:?}");
    }

    #[test]
    fn hindi_has_only_english_keys_with_the_same_placeholders() {
        for (key, text) in HI.iter() {
            let english = EN.get(key).unwrap_or_else(|| panic!("`{key}` of text/hi.txt is not in text/en.txt"));
            assert_eq!(placeholders(text), placeholders(english), "the placeholders of `{key}`");
        }
        assert!(HI.contains_key("frame.sign_out"), "Hindi has the frame");
    }

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
    fn placeholders_are_escaped_and_the_text_is_not() {
        let filled = fill("<b>{name}</b> has {n} {missing}", &[("name", &"<Ann & 'Bo'>"), ("n", &3)], |v| {
            askama::filters::escape(v, askama::filters::Html).map(|v| v.to_string()).unwrap_or_default()
        });
        assert_eq!(filled, "<b>&#60;Ann &#38; &#39;Bo&#39;&#62;</b> has 3 {missing}");
        assert_eq!(Text::EN.t("frame.sign_out").as_str(), "Sign out");
        assert_ne!(Text::new(Lang::Hi).t("frame.sign_out").as_str(), "Sign out");
    }

    #[test]
    fn the_language_follows_accept_language() {
        assert_eq!(Lang::from_accept_language(""), Lang::En);
        assert_eq!(Lang::from_accept_language("hi"), Lang::Hi);
        assert_eq!(Lang::from_accept_language("hi-IN,hi;q=0.9,en;q=0.8"), Lang::Hi);
        assert_eq!(Lang::from_accept_language("en-GB,en;q=0.9,hi;q=0.8"), Lang::En);
        assert_eq!(Lang::from_accept_language("en;q=0.5,hi;q=0.7"), Lang::Hi);
        assert_eq!(Lang::from_accept_language("fr,de"), Lang::En);
        assert_eq!(Lang::from_accept_language("hi;q=0"), Lang::En);
        assert_eq!(Lang::from_accept_language("en,hi"), Lang::En);
    }

    #[test]
    fn a_query_chooses_over_the_header() {
        assert_eq!(Lang::chosen(Some("lang=hi"), Some("en")), Lang::Hi);
        assert_eq!(Lang::chosen(Some("x=1&lang=en"), Some("hi")), Lang::En);
        assert_eq!(Lang::chosen(Some("lang=fr"), Some("hi-IN")), Lang::Hi);
        assert_eq!(Lang::chosen(Some("lang=%ZZ"), None), Lang::En);
        assert_eq!(Lang::chosen(None, None), Lang::En);
        assert_eq!(Lang::Hi.other(), Lang::En);
        assert_eq!(Lang::from_code(" HI "), Some(Lang::Hi));
    }
}
