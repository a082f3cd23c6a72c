//! Reading the server's answers: ProblemDetails bodies and the auto-submitting post-back pages
//! of the gateway.

use std::collections::HashMap;

use reqwest::Response;
use serde_json::Value;

/// Asserts a ProblemDetails answer with `status` and `code`, and returns its body.
pub async fn expect_problem(response: Response, status: u16, code: &str) -> Value {
    assert_eq!(response.status().as_u16(), status, "status");
    let content_type =
        response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    assert_eq!(content_type, "application/problem+json");
    let body: Value = response.json().await.expect("problem json");
    assert_eq!(body["code"], code, "code in {body}");
    assert_eq!(body["status"], status);
    assert!(body["requestId"].as_str().is_some_and(|id| !id.is_empty()), "request id in {body}");
    body
}

/// Where a gateway post-back page (the auto-submitting result form) posts, and its hidden fields.
pub fn posted_fields(html: &str) -> (String, HashMap<String, String>) {
    let action = attribute(html, "action").to_string();
    let mut fields = HashMap::new();
    for input in html.split("<input type=\"hidden\" ").skip(1) {
        let value = attribute(input, "value");
        fields.insert(attribute(input, "name").to_string(), unescape(value));
    }
    (action, fields)
}

/// An attribute value as a browser reads it: the named escapes HTML templates write (`&lt;`,
/// `&gt;`, `&quot;`, `&apos;`, `&amp;`) and numeric references (`&#60;`, `&#x3c;`).
pub fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let decoded = tail.find(';').filter(|end| *end <= 10).and_then(|end| {
            let entity = &tail[1..end];
            let c = match entity {
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "amp" => Some('&'),
                _ => entity
                    .strip_prefix("#x")
                    .or_else(|| entity.strip_prefix("#X"))
                    .map(|hex| u32::from_str_radix(hex, 16))
                    .or_else(|| entity.strip_prefix('#').map(str::parse::<u32>))
                    .and_then(Result::ok)
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, end + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &tail[len..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The value of the first `name="..."` attribute in `html`, or "".
fn attribute<'a>(html: &'a str, name: &str) -> &'a str {
    html.split(&format!("{name}=\"")).nth(1).and_then(|rest| rest.split('"').next()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_back_fields_are_read_and_unescaped() {
        let html = "<form method=\"post\" action=\"https://erp.example.test/signed\">\
            <input type=\"hidden\" name=\"ReturnStatus\" value=\"Success\">\
            <input type=\"hidden\" name=\"Returnvalue\" value=\"a&amp;b&quot;c&#39;d\"></form>";
        let (action, fields) = posted_fields(html);
        assert_eq!(action, "https://erp.example.test/signed");
        assert_eq!(fields["ReturnStatus"], "Success");
        assert_eq!(fields["Returnvalue"], "a&b\"c'd");
        assert_eq!(fields.len(), 2);
        assert_eq!(unescape("&#60;a b=&#34;1&#34;&#62; &#x3C;&amp;lt; &bogus; &"), "<a b=\"1\"> <&lt; &bogus; &");
    }
}
