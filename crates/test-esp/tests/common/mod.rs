//! An ASP and a browser for driving the test ESP over real HTTP: the ASP signs requests with
//! `signet_esign`, the "browser" reads the pages' forms and posts them as a person would.
#![allow(dead_code)]

use signet_esign::asp::{self, EspTrust, Expected, Outcome};
use signet_esign::{AuthMode, EsignRequest, InputHash};
use signet_sigcrypto::pki;
use signet_sigcrypto::signer::LocalKeySigner;
use signet_test_esp::{EspOptions, RunningEsp};
use time::{Duration, OffsetDateTime};

pub const FIXED_OTP: &str = "123456";
pub const RESPONSE_URL: &str = "https://asp.example.test/esign/response";
/// The first example identity (identities.json).
pub const ASHA_AADHAAR: &str = "999941057058";
pub const ASHA_VID: &str = "9999410570581234";

pub struct Asp {
    pub id: String,
    pub signer: LocalKeySigner,
    pub cert_der: Vec<u8>,
}

impl Asp {
    pub fn new(id: &str) -> Asp {
        let issued = pki::self_signed_rsa(&format!("{id} request signing"), 2048).expect("ASP certificate");
        let signer = LocalKeySigner::from_pkcs8(&issued.key_pkcs8_der, &issued.cert_der, vec![]).expect("signer");
        Asp { id: id.into(), signer, cert_der: issued.cert_der }
    }

    pub fn register(&self, data_dir: &std::path::Path) {
        let pem = pki::cert_der_to_pem(&self.cert_der);
        signet_test_esp::register_asp(data_dir, &self.id, pem.as_bytes()).expect("register");
    }

    pub fn request(&self, txn: &str, digests: &[[u8; 32]]) -> EsignRequest {
        EsignRequest {
            ver: "2.1".into(),
            ts: OffsetDateTime::now_utc(),
            txn: txn.into(),
            asp_id: self.id.clone(),
            auth_mode: AuthMode::Otp,
            response_sig_type: "pkcs7".into(),
            response_url: RESPONSE_URL.into(),
            ekyc_id: String::new(),
            ekyc_id_type: "A".into(),
            hashes: digests
                .iter()
                .enumerate()
                .map(|(i, d)| InputHash {
                    id: i as u32 + 1,
                    sha256: *d,
                    doc_info: format!("Loan agreement part {}", i + 1),
                })
                .collect(),
        }
    }

    pub fn sign(&self, request: &EsignRequest) -> String {
        let signed = signet_esign::sign_document(request.to_xml().as_bytes(), &self.signer).expect("sign");
        String::from_utf8(signed).expect("utf-8")
    }
}

pub fn digests(n: usize) -> Vec<[u8; 32]> {
    (0..n).map(|i| pki::sha256(format!("document {i}").as_bytes())).collect()
}

/// A started ESP with its own data folder.
pub struct Esp {
    pub dir: tempfile::TempDir,
    pub running: RunningEsp,
}

pub fn options(dir: &std::path::Path) -> EspOptions {
    let mut options = EspOptions::new(dir.to_path_buf());
    options.fixed_otp = Some(FIXED_OTP.into());
    options
}

pub async fn start_with(options: EspOptions) -> RunningEsp {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    signet_test_esp::spawn(options, listener).await.expect("spawn")
}

pub async fn start(adjust: impl FnOnce(&mut EspOptions)) -> Esp {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut options = options(dir.path());
    adjust(&mut options);
    let running = start_with(options).await;
    Esp { dir, running }
}

// ---------------------------------------------------------------------------------------------
// Pages and their forms
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
pub struct HtmlForm {
    pub action: String,
    pub method: String,
    /// Hidden inputs: name and value.
    pub fields: Vec<(String, String)>,
    /// Every input: name, type and value.
    pub inputs: Vec<(String, String, String)>,
    /// The text of its submit buttons.
    pub buttons: Vec<String>,
}

impl HtmlForm {
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The type and value of the input `name`.
    pub fn input(&self, name: &str) -> Option<(&str, &str)> {
        self.inputs.iter().find(|(n, _, _)| n == name).map(|(_, t, v)| (t.as_str(), v.as_str()))
    }
}

pub struct Page {
    pub status: u16,
    pub csp: String,
    pub html: String,
}

impl Page {
    pub fn forms(&self) -> Vec<HtmlForm> {
        forms(&self.html)
    }

    /// The form posting to `action` (a path of the ESP or the ASP's URL).
    pub fn form(&self, action: &str) -> HtmlForm {
        self.forms()
            .into_iter()
            .find(|f| f.action == action)
            .unwrap_or_else(|| panic!("no form to {action} on the page (status {}):\n{}", self.status, self.html))
    }

    pub fn has_form(&self, action: &str) -> bool {
        self.forms().iter().any(|f| f.action == action)
    }

    /// The text of the page's error box, if any.
    pub fn error(&self) -> Option<String> {
        let start = self.html.find("id=\"error\"")?;
        let rest = &self.html[start..];
        let open = rest.find('>')? + 1;
        let close = ["</p>", "</div>"].iter().filter_map(|end| rest.find(end)).min()?;
        Some(unescape(&strip_tags(&rest[open..close.max(open)])))
    }

    /// The answer page's form to the ASP: the signed XML and the ESP's transaction id.
    pub fn answer(&self) -> (String, String) {
        let form = self.form(RESPONSE_URL);
        let xml = form.field("eSignResponse").expect("eSignResponse").to_string();
        let esp_txn = form.field("espTxnID").expect("espTxnID").to_string();
        (xml, esp_txn)
    }
}

fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// The value of `name="…"` in a tag (values are escaped, so the next quote ends it).
fn attribute(tag: &str, name: &str) -> Option<String> {
    let marker = format!(" {name}=\"");
    let start = tag.find(&marker)? + marker.len();
    let end = tag[start..].find('"')? + start;
    Some(unescape(&tag[start..end]))
}

/// Decodes the character references a template engine writes (named and numeric).
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        let Some(semi) = after.find(';').filter(|s| *s <= 10) else {
            out.push('&');
            rest = &after[1..];
            continue;
        };
        let entity = &after[1..semi];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .or_else(|| entity.strip_prefix("#X"))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &after[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every form of a page: its action, its inputs and its buttons.
pub fn forms(html: &str) -> Vec<HtmlForm> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<form") {
        let after = &rest[start..];
        let end = after.find("</form>").unwrap_or(after.len());
        let body = &after[..end];
        let tag_end = body.find('>').unwrap_or(body.len());
        let action = attribute(&body[..tag_end], "action").unwrap_or_default();
        let method = attribute(&body[..tag_end], "method").unwrap_or_default();
        let mut fields = Vec::new();
        let mut inputs = Vec::new();
        let mut rest_of_form = body;
        while let Some(i) = rest_of_form.find("<input") {
            let tag = &rest_of_form[i..];
            let close = tag.find('>').unwrap_or(tag.len());
            let tag = &tag[..close];
            if let Some(name) = attribute(tag, "name") {
                let kind = attribute(tag, "type").unwrap_or_else(|| "text".into());
                let value = attribute(tag, "value").unwrap_or_default();
                if kind == "hidden" {
                    fields.push((name.clone(), value.clone()));
                }
                inputs.push((name, kind, value));
            }
            rest_of_form = &rest_of_form[i + close..];
        }
        let mut buttons = Vec::new();
        let mut rest_of_form = body;
        while let Some(i) = rest_of_form.find("<button") {
            let tag = &rest_of_form[i..];
            let (Some(open), Some(close)) = (tag.find('>'), tag.find("</button>")) else { break };
            buttons.push(strip_tags(&tag[open + 1..close]).trim().to_string());
            rest_of_form = &tag[close..];
        }
        out.push(HtmlForm { action, method, fields, inputs, buttons });
        rest = &after[end..];
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The browser
// ---------------------------------------------------------------------------------------------

pub struct Browser {
    pub http: reqwest::Client,
    pub base: String,
}

impl Browser {
    pub fn new(esp: &RunningEsp) -> Browser {
        Browser { http: reqwest::Client::new(), base: esp.base_url.clone() }
    }

    pub async fn post(&self, path: &str, fields: &[(&str, &str)]) -> Page {
        let response = self.http.post(format!("{}{path}", self.base)).form(fields).send().await.expect("post");
        page(response).await
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.http.get(format!("{}{path}", self.base)).send().await.expect("get")
    }

    /// Posts a form of the ESP's pages with its hidden fields and what the person `typed`
    /// (or ticked).
    pub async fn submit(&self, form: &HtmlForm, typed: &[(&str, &str)]) -> Page {
        assert_eq!(form.method, "post");
        let mut fields: Vec<(&str, &str)> = form.fields.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        fields.extend_from_slice(typed);
        self.post(&form.action, &fields).await
    }

    /// The ASP's page posting the signed request.
    pub async fn send_request(&self, signed_xml: &str, txn: &str) -> Page {
        self.post(
            "/2.1/form/signdoc",
            &[("eSignRequest", signed_xml), ("aspTxnID", txn), ("Content-Type", "application/xml")],
        )
        .await
    }
}

pub async fn page(response: reqwest::Response) -> Page {
    let status = response.status().as_u16();
    let csp =
        response.headers().get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    let html = response.text().await.expect("body");
    Page { status, csp, html }
}

// ---------------------------------------------------------------------------------------------
// The ASP's check of the answer
// ---------------------------------------------------------------------------------------------

pub fn check(esp: &RunningEsp, xml: &str, txn: &str, digests: &[[u8; 32]]) -> Outcome {
    let trust = EspTrust {
        esp_certificate: esp.esp_certificate_der.clone(),
        esign_cas: vec![esp.ca_certificate_der.clone()],
        allow_sha1: false,
    };
    let now = OffsetDateTime::now_utc();
    let expected = Expected {
        txn,
        digests,
        sent_at: now - Duration::seconds(30),
        max_age: Duration::minutes(30),
        now,
        raw: false,
    };
    asp::check_response(xml.as_bytes(), &trust, &expected).expect("the answer passes the ASP's checks")
}

/// The ESP's refusal code in an answer page.
pub fn refusal(esp: &RunningEsp, page: &Page, txn: &str, digests: &[[u8; 32]]) -> String {
    let (xml, _) = page.answer();
    match check(esp, &xml, txn, digests) {
        Outcome::Refused { code, .. } => code,
        Outcome::Signed(_) => panic!("a refusal was expected"),
    }
}

/// Request → Aadhaar page → OTP page, for Asha.
pub async fn up_to_otp(browser: &Browser, asp: &Asp, txn: &str, digests: &[[u8; 32]]) -> Page {
    let aadhaar = browser.send_request(&asp.sign(&asp.request(txn, digests)), txn).await;
    assert_eq!(aadhaar.status, 200, "{}", aadhaar.html);
    let otp = browser.submit(&aadhaar.form("/2.1/form/otp"), &[("aadhaar", ASHA_AADHAAR)]).await;
    assert!(otp.has_form("/2.1/form/authenticate"), "{}", otp.html);
    otp
}
