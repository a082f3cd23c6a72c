//! The languages of the pages and e-mails people read.

use std::fmt::{self, Display};

/// A language Signet speaks. English is the fallback of every catalogue; a language is added
/// with a variant here (its code, its own name) and a catalogue file of that code beside each
/// English one: Tamil (`ta`), Telugu (`te`), Marathi (`mr`), Bengali (`bn`), Kannada (`kn`) and
/// Gujarati (`gu`) are next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    #[default]
    En,
    Hi,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Hi];

    /// The ISO 639-1 code: the `lang` attribute, the catalogue's file name, what is stored.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Hi => "hi",
        }
    }

    /// The language's name in itself, as a language switch offers it.
    pub fn own_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Hi => "हिन्दी",
        }
    }

    /// The language a code names (`en`, `hi`; any case, surrounding spaces ignored), if it
    /// names one of ours.
    pub fn from_code(code: &str) -> Option<Lang> {
        let code = code.trim();
        Lang::ALL.into_iter().find(|lang| lang.code().eq_ignore_ascii_case(code))
    }

    /// The other languages: the ones a language switch offers.
    pub fn others(self) -> impl Iterator<Item = Lang> {
        Lang::ALL.into_iter().filter(move |lang| *lang != self)
    }

    /// The first other language (with two languages, the one a switch offers).
    pub fn other(self) -> Lang {
        self.others().next().unwrap_or_default()
    }

    /// The language of a page: the one its query's `lang` names (a language switch), else the
    /// one `Accept-Language` asks for.
    pub fn chosen(query: Option<&str>, accept_language: Option<&str>) -> Lang {
        Lang::asked_in_query(query)
            .unwrap_or_else(|| accept_language.map(Lang::from_accept_language).unwrap_or_default())
    }

    /// The language a query's `lang` parameter names, if it names one of ours (a code needs no
    /// percent-decoding: one that is encoded names none).
    pub fn asked_in_query(query: Option<&str>) -> Option<Lang> {
        query?.split('&').filter_map(|pair| pair.strip_prefix("lang=")).find_map(Lang::from_code)
    }

    /// The language an `Accept-Language` header asks for: of ours, the one ranked highest (by
    /// weight, then by order); English when it names none of ours (or refuses them, `q=0`).
    pub fn from_accept_language(header: &str) -> Lang {
        // (weight in thousandths, position) of the best range naming each language; a
        // higher weight and then an earlier position rank first.
        let mut best: Vec<(Lang, u32, usize)> = Vec::new();
        for (position, range) in header.split(',').enumerate() {
            let mut parts = range.split(';');
            let tag = parts.next().unwrap_or_default().trim();
            let Some(lang) = tag.split('-').next().and_then(Lang::from_code) else { continue };
            let weight = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .filter_map(|q| q.trim().parse::<f32>().ok())
                .next()
                .unwrap_or(1.0);
            let weight = (weight.clamp(0.0, 1.0) * 1000.0).round() as u32;
            match best.iter_mut().find(|(l, _, _)| *l == lang) {
                Some(entry) if weight > entry.1 => *entry = (lang, weight, position),
                Some(_) => {}
                None => best.push((lang, weight, position)),
            }
        }
        best.into_iter()
            .filter(|(_, weight, _)| *weight > 0)
            .max_by(|a, b| a.1.cmp(&b.1).then(b.2.cmp(&a.2)))
            .map(|(lang, _, _)| lang)
            .unwrap_or_default()
    }
}

impl Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(Lang::from_accept_language("fr,hi;q=0.4"), Lang::Hi);
    }

    #[test]
    fn a_query_chooses_over_the_header() {
        assert_eq!(Lang::chosen(Some("lang=hi"), Some("en")), Lang::Hi);
        assert_eq!(Lang::chosen(Some("x=1&lang=en"), Some("hi")), Lang::En);
        assert_eq!(Lang::chosen(Some("lang=fr"), Some("hi-IN")), Lang::Hi);
        assert_eq!(Lang::chosen(Some("lang=%ZZ"), None), Lang::En);
        assert_eq!(Lang::chosen(None, None), Lang::En);
        assert_eq!(Lang::Hi.other(), Lang::En);
        assert_eq!(Lang::En.others().collect::<Vec<_>>(), vec![Lang::Hi]);
        assert_eq!(Lang::from_code(" HI "), Some(Lang::Hi));
    }
}
