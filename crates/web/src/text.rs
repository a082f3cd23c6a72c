//! The pages' text (the console, the public verification page `/verify` and the signer pages
//! `/sign/w/...`): one catalogue a language (`crates/web/text/<code>.txt`), read and looked up
//! through `signet_locale::Catalogue` (the e-mails' catalogue, in the services, the same way). Templates
//! write `{{ frame.t("people.heading") }}` (or `tf1`..`tf3` for text with placeholders);
//! handlers use [`Text`] for the messages they build.
//!
//! The format is one `key = value` a line, `#` comments and blank lines. Keys are
//! `<screen>.<name>`; a value is a trusted HTML fragment as it stood in the template (entities,
//! `<code>`, links) and may hold named placeholders `{name}`, whose values are HTML-escaped
//! when put in. A key Hindi lacks is shown in English. Why this format: `docs/decisions.md`.

use std::borrow::Cow;
use std::fmt::{self, Display};

pub use signet_locale::Lang;
use signet_locale::{Catalogue, fill};

/// The pages' catalogue: the console, `/verify` and the signer pages.
static PAGES: Catalogue = Catalogue::new(
    "crates/web/text",
    &[(Lang::En, include_str!("../text/en.txt")), (Lang::Hi, include_str!("../text/hi.txt"))],
);

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
        PAGES.get(self.lang, key).unwrap_or_else(|| {
            // The tests keep every key used in the English catalogue.
            tracing::error!(key, "page text missing from text/en.txt");
            ""
        })
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

    /// The text of `key` with its placeholder `a` filled in with `va` (escaped): for templates.
    pub fn tf1(self, key: &str, a: &str, va: impl Display) -> Html {
        self.tf(key, &[(a, &va)])
    }

    /// As [`Text::tf1`], with two placeholders.
    pub fn tf2(self, key: &str, a: &str, va: impl Display, b: &str, vb: impl Display) -> Html {
        self.tf(key, &[(a, &va), (b, &vb)])
    }

    /// As [`Text::tf1`], with three placeholders.
    #[allow(clippy::too_many_arguments)]
    pub fn tf3(
        self,
        key: &str,
        a: &str,
        va: impl Display,
        b: &str,
        vb: impl Display,
        c: &str,
        vc: impl Display,
    ) -> Html {
        self.tf(key, &[(a, &va), (b, &vb), (c, &vc)])
    }

    /// The languages a language switch offers: every other one, by code and own name.
    pub fn other_languages(self) -> Vec<(&'static str, &'static str)> {
        self.lang.others().map(|lang| (lang.code(), lang.own_name())).collect()
    }

    /// The text of `key` with its placeholders filled in as they are: for messages the
    /// templates escape when they show them (so such catalogue text is plain, not HTML).
    pub fn plain(self, key: &str, values: &[(&str, &dyn Display)]) -> String {
        fill(self.s(key), values, |value| value.to_string())
    }
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
        // The public verification page and the signer pages share the catalogue.
        for file in [
            "templates/verify.html",
            "src/signer/verify.rs",
            "templates/workflow_sign.html",
            "templates/workflow_signature.html",
            "src/form.rs",
            "templates/workflow_copy.html",
            "templates/workflow_message.html",
            "templates/lang_switch.html",
            "templates/sign_methods.html",
            "templates/token_form.html",
            "templates/gateway_sign.html",
            "templates/gateway_error.html",
            "templates/esign_refused.html",
        ] {
            files.push((file.to_string(), std::fs::read_to_string(format!("{root}{file}")).expect("readable")));
        }
        for dir in ["templates/console", "src/console", "src/signer/workflow", "src/signer/gateway"] {
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
        let english = PAGES.keys(Lang::En);
        let missing: Vec<_> = keys_used().into_iter().filter(|(key, _)| !english.contains(&key.as_str())).collect();
        assert!(missing.is_empty(), "keys missing from text/en.txt: {missing:?}");
    }

    #[test]
    fn every_english_key_is_used() {
        let used: BTreeSet<String> = keys_used().into_iter().map(|(key, _)| key).collect();
        let unused: Vec<_> = PAGES.keys(Lang::En).into_iter().filter(|key| !used.contains(*key)).collect();
        assert!(unused.is_empty(), "keys of text/en.txt no template or module uses: {unused:?}");
    }

    #[test]
    fn every_language_has_only_english_keys_with_the_same_placeholders() {
        PAGES.check().expect("the catalogues agree");
        assert!(PAGES.keys(Lang::Hi).contains(&"frame.sign_out"), "Hindi has the frame");
        assert!(PAGES.keys(Lang::Hi).contains(&"signer.title"), "Hindi has the signer pages");
    }

    #[test]
    fn placeholders_are_escaped_and_the_text_is_not() {
        let filled = Text::EN.tf("check.file_name", &[("name", &"<Ann & 'Bo'>")]);
        assert!(filled.as_str().contains("&#60;Ann &#38; &#39;Bo&#39;&#62;"), "{filled}");
        assert_eq!(Text::EN.t("frame.sign_out").as_str(), "Sign out");
        assert_ne!(Text::new(Lang::Hi).t("frame.sign_out").as_str(), "Sign out");
    }
}
