//! Embedded signing: an organisation's pages (its own web application) show a signer's turn in
//! an iframe. What may embed is decided here, free of HTTP: the origins an organisation allows
//! ([`EmbedOrigin`], at most [`MAX_ORIGINS`]), and the look it gives the embedded page
//! ([`Accent`], [`Logo`]). The browser enforces the origins (`frame-ancestors`, and the target
//! origin of every message the page posts), so an origin is kept exactly as browsers write
//! one: `scheme://host[:port]`, lower case, no path.

use crate::Error;

/// Origins an organisation may allow.
pub const MAX_ORIGINS: usize = 20;
/// A logo's largest size: it is sent with every embedded page.
pub const MAX_LOGO_BYTES: usize = 100 * 1024;
/// The longest origin taken (a host name is at most 253 characters).
pub const MAX_ORIGIN_CHARS: usize = 300;
/// What an origin's text may look like, for the API's schema: every text [`EmbedOrigin::parse`]
/// takes matches it (the parser is stricter about ports, hyphens and label lengths).
pub const ORIGIN_PATTERN: &str =
    "^[Hh][Tt][Tt][Pp][Ss]?://(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*)(:[0-9]{1,5})?/?$";

/// A web origin that may frame the organisation's signer pages, as a browser serialises it
/// (`https://app.example.com`, `http://localhost:3000`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EmbedOrigin(String);

/// Why a text is not an origin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OriginRefusal {
    #[error("must be an origin: http:// or https://, a host and an optional port, nothing after it")]
    NotAnOrigin,
    #[error("must be at most 300 characters")]
    TooLong,
}

impl EmbedOrigin {
    /// Reads an origin, with one trailing `/` forgiven (a copied address), the scheme and host
    /// in any case; a default port (80 for http, 443 for https) is dropped, as browsers do.
    /// Nothing else is forgiven (no spaces around it): [`ORIGIN_PATTERN`] says what may come.
    pub fn parse(text: &str) -> Result<EmbedOrigin, OriginRefusal> {
        if text.chars().count() > MAX_ORIGIN_CHARS {
            return Err(OriginRefusal::TooLong);
        }
        let lower = text.strip_suffix('/').unwrap_or(text).to_ascii_lowercase();
        let (scheme, rest) = lower.split_once("://").ok_or(OriginRefusal::NotAnOrigin)?;
        let default_port = match scheme {
            "https" => "443",
            "http" => "80",
            _ => return Err(OriginRefusal::NotAnOrigin),
        };
        let (host, port) = split_port(rest).ok_or(OriginRefusal::NotAnOrigin)?;
        if !is_host(host) {
            return Err(OriginRefusal::NotAnOrigin);
        }
        Ok(EmbedOrigin(match port {
            Some(port) if port != default_port => format!("{scheme}://{host}:{port}"),
            _ => format!("{scheme}://{host}"),
        }))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for EmbedOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The host and the port (digits, 1-65535, no leading zero) of `host[:port]`; a bracketed IPv6
/// address keeps its brackets.
fn split_port(rest: &str) -> Option<(&str, Option<&str>)> {
    let (host, port) = match rest.rfind(':') {
        Some(at) if !rest[at..].contains(']') => (&rest[..at], Some(&rest[at + 1..])),
        _ => (rest, None),
    };
    match port {
        Some(port) if port.starts_with('0') || port.parse::<u16>().map_or(true, |p| p == 0) => None,
        _ => Some((host, port)),
    }
}

/// A DNS name or IPv4 address (labels of letters, digits and hyphens), or a bracketed IPv6
/// address: nothing that could carry a path, a query, credentials or a wildcard.
fn is_host(host: &str) -> bool {
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return inner.parse::<std::net::Ipv6Addr>().is_ok();
    }
    !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

/// The colour of the embedded page's buttons and links, `#rrggbb`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Accent([u8; 3]);

impl Accent {
    /// Reads `#rrggbb` (or `rrggbb`), in any case.
    pub fn parse(text: &str) -> Option<Accent> {
        let hex = text.strip_prefix('#').unwrap_or(text);
        if hex.len() != 6 {
            return None;
        }
        let mut rgb = [0u8; 3];
        hex::decode_to_slice(hex, &mut rgb).ok()?;
        Some(Accent(rgb))
    }

    /// `#rrggbb`, lower case: as stored, shown and written into the page's style.
    pub fn css(self) -> String {
        format!("#{}", hex::encode(self.0))
    }
}

/// An image type a logo may have: one every browser shows and that cannot run script (no SVG).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogoType {
    Png,
    Jpeg,
}

impl LogoType {
    /// The type of an image by its first bytes, whatever its name says.
    pub fn sniff(bytes: &[u8]) -> Option<LogoType> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(LogoType::Png)
        } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
            Some(LogoType::Jpeg)
        } else {
            None
        }
    }

    pub fn media_type(self) -> &'static str {
        match self {
            LogoType::Png => "image/png",
            LogoType::Jpeg => "image/jpeg",
        }
    }

    /// The type by its media type, as stored.
    pub fn from_media_type(text: &str) -> Option<LogoType> {
        [LogoType::Png, LogoType::Jpeg].into_iter().find(|kind| kind.media_type() == text)
    }
}

/// An organisation's logo for its embedded pages: a PNG or JPEG of at most [`MAX_LOGO_BYTES`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logo {
    pub kind: LogoType,
    pub bytes: Vec<u8>,
}

impl Logo {
    /// The image, when it is a PNG or JPEG small enough; the refusal names `field`.
    pub fn read(field: &str, bytes: Vec<u8>) -> Result<Logo, Error> {
        if bytes.len() > MAX_LOGO_BYTES {
            return Err(Error::field(field, "must be at most 100 KB"));
        }
        let kind = LogoType::sniff(&bytes).ok_or_else(|| Error::field(field, "must be a PNG or JPEG image"))?;
        Ok(Logo { kind, bytes })
    }
}

/// What an organisation set for embedding its signer pages (the logo by its type: its bytes
/// are read only when the logo is asked for).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Embedding {
    /// The origins that may frame the pages; none: embedding is off.
    pub origins: Vec<EmbedOrigin>,
    pub accent: Option<Accent>,
    pub logo: Option<LogoType>,
}

impl Embedding {
    /// Whether pages may be framed by `origin`.
    pub fn allows(&self, origin: &EmbedOrigin) -> bool {
        self.origins.contains(origin)
    }

    /// The origins from their texts: each an origin, at most [`MAX_ORIGINS`], repeats dropped;
    /// the refusal names the field (`field[i]`).
    pub fn origins_from(field: &str, texts: &[String]) -> Result<Vec<EmbedOrigin>, Error> {
        if texts.len() > MAX_ORIGINS {
            return Err(Error::field(field, format!("must list at most {MAX_ORIGINS} origins")));
        }
        let mut origins: Vec<EmbedOrigin> = Vec::with_capacity(texts.len());
        for (i, text) in texts.iter().enumerate() {
            let origin = EmbedOrigin::parse(text)
                .map_err(|refusal| Error::field(&format!("{field}[{i}]"), refusal.to_string()))?;
            if !origins.contains(&origin) {
                origins.push(origin);
            }
        }
        Ok(origins)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_kept_as_browsers_write_them() {
        let origin = |text: &str| EmbedOrigin::parse(text).map(|o| o.to_string());
        assert_eq!(origin("https://App.Example.com/").as_deref(), Ok("https://app.example.com"));
        assert_eq!(origin("https://app.example.com:443").as_deref(), Ok("https://app.example.com"));
        assert_eq!(origin("http://localhost:3000").as_deref(), Ok("http://localhost:3000"));
        assert_eq!(origin("http://127.0.0.1:80").as_deref(), Ok("http://127.0.0.1"));
        assert_eq!(origin("https://[::1]:8443").as_deref(), Ok("https://[::1]:8443"));
        for refused in [
            "app.example.com",
            "ftp://app.example.com",
            "https://app.example.com/path",
            "https://app.example.com?x=1",
            "https://user@app.example.com",
            "https://*.example.com",
            "https://app.example.com:0",
            "https://app.example.com:99999",
            "https://app.example.com:08",
            "https://",
            "https://exa mple.com",
            "https://-bad.example.com",
            "'self'",
            "https://a.com https://b.com",
            "http://[0]",
            "http://[::g]",
        ] {
            assert_eq!(origin(refused), Err(OriginRefusal::NotAnOrigin), "{refused}");
        }
        assert_eq!(origin(&format!("https://{}.com", "a".repeat(300))), Err(OriginRefusal::TooLong));
        assert_eq!(origin(" https://app.example.com"), Err(OriginRefusal::NotAnOrigin));
    }

    #[test]
    fn every_origin_taken_matches_the_schemas_pattern() {
        let pattern = regex::Regex::new(ORIGIN_PATTERN).expect("pattern");
        for taken in ["https://App.Example.com/", "http://localhost:3000", "HTTPS://[::1]:8443", "http://127.0.0.1:80"]
        {
            assert!(EmbedOrigin::parse(taken).is_ok() && pattern.is_match(taken), "{taken}");
        }
        for refused in [" https://a.example", "https://a.example/x", "https://a.example?x", "ftp://a.example"] {
            assert!(!pattern.is_match(refused), "{refused}");
        }
    }

    #[test]
    fn origin_lists_are_bounded_and_name_the_entry() {
        let texts = vec!["https://a.example".to_string(), "https://A.example/".to_string()];
        assert_eq!(Embedding::origins_from("allowedOrigins", &texts).map(|o| o.len()).ok(), Some(1));
        let bad = vec!["https://a.example".to_string(), "nope".to_string()];
        match Embedding::origins_from("allowedOrigins", &bad) {
            Err(Error::Validation(fields)) => assert!(fields.contains_key("allowedOrigins[1]"), "{fields:?}"),
            other => panic!("{other:?}"),
        }
        let many: Vec<String> = (0..=MAX_ORIGINS).map(|i| format!("https://h{i}.example")).collect();
        assert!(Embedding::origins_from("allowedOrigins", &many).is_err());
    }

    #[test]
    fn accents_and_logos_are_read_strictly() {
        assert_eq!(Accent::parse("#1D4ED8").map(Accent::css).as_deref(), Some("#1d4ed8"));
        assert_eq!(Accent::parse("1d4ed8").map(Accent::css).as_deref(), Some("#1d4ed8"));
        for refused in ["#1d4ed", "#1d4ed8ff", "red", "#gggggg", "url(x)"] {
            assert_eq!(Accent::parse(refused), None, "{refused}");
        }
        let png = [b"\x89PNG\r\n\x1a\n".as_slice(), &[0u8; 16]].concat();
        assert_eq!(Logo::read("logo", png).map(|l| l.kind).ok(), Some(LogoType::Png));
        assert!(Logo::read("logo", b"<svg onload=alert(1)>".to_vec()).is_err());
        assert!(Logo::read("logo", vec![0xff; MAX_LOGO_BYTES + 1]).is_err());
    }
}
