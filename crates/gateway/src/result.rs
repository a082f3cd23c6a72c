//! The result post-back: the fields POSTed to SUrl/Furl/Curl and the auto-submitting form.

use aws_lc_rs::rand::{SecureRandom, SystemRandom};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use crate::{ErrorCode, GatewayFailure};

/// `ReturnStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReturnStatus {
    /// The request is done; `Returnvalue` holds the sealed result.
    Success,
    /// Failed or cancelled; `ErrorMessage` says why, `Returnvalue` is "Failure".
    Failure,
}

impl ReturnStatus {
    /// "Success" or "Failure".
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Success => "Success",
            Self::Failure => "Failure",
        }
    }
}

/// One item of a `Hash` result (the `Returnvalue` plaintext is a JSON array of these).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HashSignature {
    /// `DocumentName` from the request.
    #[serde(rename = "DocumentName")]
    pub document_name: String,
    /// `DocumentHash` from the request (64 hex).
    #[serde(rename = "DocumentHash")]
    pub document_hash: String,
    /// base64 of a detached CMS SignedData over the hash.
    #[serde(rename = "Signature")]
    pub signature: String,
}

/// The five fields posted back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultPost {
    /// `ReturnStatus`.
    pub status: ReturnStatus,
    /// `ErrorMessage`: empty on success, "<code>: <text>[ - detail]" on failure.
    pub error_message: String,
    /// `Returnvalue`: the sealed result on success, "Failure" otherwise.
    pub returnvalue: String,
    /// `Transactionnumber`.
    pub transaction_number: String,
    /// `Referencenumber`.
    pub reference_number: String,
}

impl ResultPost {
    /// A success with the sealed `Returnvalue`.
    pub fn success(returnvalue: String, transaction_number: &str, reference_number: &str) -> Self {
        Self {
            status: ReturnStatus::Success,
            error_message: String::new(),
            returnvalue,
            transaction_number: transaction_number.to_owned(),
            reference_number: reference_number.to_owned(),
        }
    }

    /// A failure (to Furl; 106 goes to Curl). The reference is the failure's when it has one.
    pub fn failure(failure: &GatewayFailure, transaction_number: &str, reference_number: Option<&str>) -> Self {
        Self {
            status: ReturnStatus::Failure,
            error_message: failure.error_message(),
            returnvalue: "Failure".to_owned(),
            transaction_number: transaction_number.to_owned(),
            reference_number: reference_number.or(failure.reference_number.as_deref()).unwrap_or("").to_owned(),
        }
    }

    /// The signer cancelled: 106, to Curl.
    pub fn cancelled(transaction_number: &str, reference_number: &str) -> Self {
        Self::failure(&GatewayFailure::new(ErrorCode::Cancelled, ""), transaction_number, Some(reference_number))
    }

    /// The fields in order, with the names integrators read.
    pub fn fields(&self) -> [(&'static str, &str); 5] {
        [
            ("ReturnStatus", self.status.as_str()),
            ("ErrorMessage", &self.error_message),
            ("Returnvalue", &self.returnvalue),
            ("Transactionnumber", &self.transaction_number),
            ("Referencenumber", &self.reference_number),
        ]
    }

    /// Reads a received post (client side). Field names are matched case-insensitively, since
    /// `Referencenumber` / `ReferenceNumber` both occur in the wild. `None` without ReturnStatus.
    pub fn from_fields<'a>(fields: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<Self> {
        let pairs: Vec<(&str, &str)> = fields.into_iter().collect();
        let get = |name: &str| {
            pairs.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| (*v).to_owned()).unwrap_or_default()
        };
        let status = match get("ReturnStatus").trim().to_ascii_lowercase().as_str() {
            "success" => ReturnStatus::Success,
            "failure" => ReturnStatus::Failure,
            _ => return None,
        };
        Some(Self {
            status,
            error_message: get("ErrorMessage"),
            returnvalue: get("Returnvalue"),
            transaction_number: get("Transactionnumber"),
            reference_number: get("Referencenumber"),
        })
    }

    /// The error code of a failure ("107: ..." → 107).
    pub fn error_code(&self) -> Option<ErrorCode> {
        let digits: String = self.error_message.trim().chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok().and_then(ErrorCode::from_code)
    }
}

/// How the form submits itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormScript {
    /// An inline `<script>` submits it (needs `script-src 'unsafe-inline'` or no CSP).
    Inline,
    /// An inline script carrying this CSP nonce (`script-src 'nonce-…'`).
    Nonce(String),
    /// No script at all: the visible button submits it (strictest CSP, or JavaScript off).
    None,
}

/// Escapes text for HTML element content and double-quoted attributes.
pub fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// The page that sends the browser on: a POST form to `action` with the five fields as hidden
/// inputs and a visible "Continue" button, so it works without JavaScript; with a script it
/// submits at once. The caller has checked `action` is the payload's http(s) URL.
pub fn render_result_form(action: &str, post: &ResultPost, script: &FormScript) -> String {
    let page = FormPage {
        title: "Returning to the application",
        message: "Returning you to the application. Please do not press Refresh or Back.",
    };
    render_post_form(action, &post.fields(), &page, script)
}

/// The words of an auto-submitting form page.
pub struct FormPage<'a> {
    pub title: &'a str,
    pub message: &'a str,
}

/// A page whose form posts `fields` to `action`: a visible Continue button, so it works
/// without JavaScript, and a script that submits it at once where scripts run.
pub fn render_post_form(action: &str, fields: &[(&str, &str)], page: &FormPage<'_>, script: &FormScript) -> String {
    let inputs: String = fields
        .iter()
        .map(|(name, value)| {
            format!("<input type=\"hidden\" name=\"{}\" value=\"{}\">\n", html_escape(name), html_escape(value))
        })
        .collect();
    let script = match script {
        FormScript::Inline => AUTO_SUBMIT.to_owned(),
        FormScript::Nonce(nonce) => {
            AUTO_SUBMIT.replace("<script>", &format!("<script nonce=\"{}\">", html_escape(nonce)))
        }
        FormScript::None => String::new(),
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n<title>{}</title>\n</head>\n<body>\n\
         <form id=\"signet-result\" method=\"post\" action=\"{}\">\n{inputs}\
         <p>{}</p>\n\
         <button type=\"submit\">Continue</button>\n</form>\n{script}</body>\n</html>\n",
        html_escape(page.title),
        html_escape(action),
        html_escape(page.message),
    )
}

const AUTO_SUBMIT: &str = "<script>document.getElementById(\"signet-result\").submit();</script>\n";

/// A new transaction number: "SGN", the UTC time to the millisecond, and 6 random digits
/// (unique in practice; the server's store enforces it).
pub fn new_transaction_number(now: OffsetDateTime) -> String {
    let t = now.to_offset(time::UtcOffset::UTC);
    let mut r = [0u8; 4];
    // A failing RNG only makes the suffix zero; the store's unique constraint still holds.
    let _ = SystemRandom::new().fill(&mut r);
    format!(
        "SGN{:04}{:02}{:02}{:02}{:02}{:02}{:03}{:06}",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.millisecond(),
        u32::from_be_bytes(r) % 1_000_000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_escapes_and_has_button() {
        let post = ResultPost::success("a\"b<c>&'".into(), "SGN1", "R\"1");
        let html = render_result_form("https://x.example/cb?a=1&b=\"", &post, &FormScript::None);
        assert!(html.contains("value=\"a&quot;b&lt;c&gt;&amp;&#39;\""));
        assert!(html.contains("action=\"https://x.example/cb?a=1&amp;b=&quot;\""));
        assert!(html.contains("<button type=\"submit\">"));
        assert!(!html.contains("<script"));
        let html = render_result_form("https://x", &post, &FormScript::Nonce("n0\"".into()));
        assert!(html.contains("<script nonce=\"n0&quot;\">"));
        assert!(render_result_form("https://x", &post, &FormScript::Inline).contains("<script>"));
    }

    #[test]
    fn post_round_trip_and_code() {
        let f = GatewayFailure::new(ErrorCode::InvalidParameters, "PageNumber is required");
        let post = ResultPost::failure(&f, "SGN1", Some("R1"));
        let back =
            ResultPost::from_fields(post.fields().iter().map(|(k, v)| (k.to_ascii_lowercase().leak() as &str, *v)));
        assert_eq!(back.as_ref(), Some(&post));
        assert_eq!(post.error_code(), Some(ErrorCode::InvalidParameters));
        assert_eq!(post.returnvalue, "Failure");
    }

    #[test]
    fn transaction_numbers_differ() {
        let now = OffsetDateTime::now_utc();
        let a = new_transaction_number(now);
        assert!(a.starts_with("SGN") && a.len() == 3 + 17 + 6);
        assert_ne!(a, new_transaction_number(now));
    }
}
