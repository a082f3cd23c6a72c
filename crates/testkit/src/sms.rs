//! A local SMS provider for tests: a real HTTP server on 127.0.0.1:0 that speaks Twilio's
//! Messages API as Signet's adapter uses it (`POST /2010-04-01/Accounts/{sid}/Messages.json`,
//! form fields `To`, `From`, `Body`, HTTP Basic with the SID and token; `201` with the
//! message's `sid`, or an error object with `code` and `message`). It checks what it is sent
//! as Twilio would, keeps every message it accepts, and can be told to fail, so that tests go
//! through the real adapter, its retries and its refusals.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use base64::Engine;
use serde_json::json;

/// The account the double serves (Twilio's SIDs are `AC` and 32 hex digits).
pub const ACCOUNT_SID: &str = "AC00000000000000000000000000000001";
pub const AUTH_TOKEN: &str = "test-auth-token";
/// The sending number it knows.
pub const FROM: &str = "+15005550006";

/// One message the double accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmsMessage {
    pub sid: String,
    pub to: String,
    pub from: String,
    pub body: String,
}

#[derive(Default)]
struct Book {
    messages: Vec<SmsMessage>,
    /// Requests seen, accepted or not.
    requests: usize,
    /// The next this many requests answer `fail_status` (a provider that is down).
    failures_left: usize,
    fail_status: u16,
    /// Numbers refused for good (Twilio's 21610, an unsubscribed recipient).
    refused: Vec<String>,
}

/// The running double; it stops when this is dropped.
pub struct SmsDouble {
    pub port: u16,
    book: Arc<Mutex<Book>>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for SmsDouble {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl SmsDouble {
    /// Starts the double on an ephemeral port.
    pub async fn start() -> SmsDouble {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let book = Arc::new(Mutex::new(Book::default()));
        let app =
            Router::new().route("/2010-04-01/Accounts/{sid}/Messages.json", post(messages)).with_state(book.clone());
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        SmsDouble { port, book, server }
    }

    /// The base URL to configure as `sms_api_url`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Sets a server's SMS settings to this double (and lets it reach a loopback address).
    pub fn configure(&self, config: &mut signet_server::Config) {
        config.sms_api_url = self.url();
        config.sms_account_sid = Some(ACCOUNT_SID.into());
        config.sms_auth_token = Some(AUTH_TOKEN.into());
        config.sms_from = Some(FROM.into());
        config.outbound_allow_private = true;
    }

    /// The next `count` requests answer HTTP `status` with Twilio's error object.
    pub fn fail_next(&self, count: usize, status: u16) {
        let mut book = self.book.lock().expect("book");
        book.failures_left = count;
        book.fail_status = status;
    }

    /// Texts to `number` (E.164) are refused for good from now on.
    pub fn refuse(&self, number: &str) {
        self.book.lock().expect("book").refused.push(number.to_string());
    }

    /// Every message accepted so far, in order.
    pub fn messages(&self) -> Vec<SmsMessage> {
        self.book.lock().expect("book").messages.clone()
    }

    /// The six digits of the newest signer code texted ("123456 is your code ...").
    pub fn last_code(&self) -> String {
        let messages = self.messages();
        let text = messages.iter().rev().find(|m| m.body.contains("is your code")).expect("a code by SMS");
        text.body.chars().take(6).collect()
    }

    /// Requests received so far, accepted or not.
    pub fn requests(&self) -> usize {
        self.book.lock().expect("book").requests
    }

    /// Waits (up to 20 s) for a message to `to` whose body contains `text`.
    pub async fn wait_for(&self, to: &str, text: &str) -> SmsMessage {
        for _ in 0..400 {
            if let Some(message) = self.messages().into_iter().find(|m| m.to == to && m.body.contains(text)) {
                return message;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no SMS to {to} with {text:?}; received: {:?}", self.messages());
    }
}

/// Twilio's error object.
fn error(status: StatusCode, code: u32, message: &str) -> Response {
    let body = json!({"code": code, "message": message, "more_info": format!("https://www.twilio.com/docs/errors/{code}"), "status": status.as_u16()});
    (status, axum::Json(body)).into_response()
}

/// Whether the request carries the account's Basic credentials.
fn authenticated(headers: &HeaderMap) -> bool {
    let expected = base64::engine::general_purpose::STANDARD.encode(format!("{ACCOUNT_SID}:{AUTH_TOKEN}"));
    headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic "))
        .is_some_and(|given| given == expected)
}

async fn messages(
    State(book): State<Arc<Mutex<Book>>>,
    Path(sid): Path<String>,
    headers: HeaderMap,
    form: Bytes,
) -> Response {
    let mut book = book.lock().expect("book");
    book.requests += 1;
    if !authenticated(&headers) || sid != ACCOUNT_SID {
        return error(StatusCode::UNAUTHORIZED, 20003, "Authenticate");
    }
    if book.failures_left > 0 {
        book.failures_left -= 1;
        let status = StatusCode::from_u16(book.fail_status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
        return error(status, 20500, "Service unavailable");
    }
    let is_form = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let fields: HashMap<String, String> = match serde_urlencoded::from_bytes(&form) {
        Ok(fields) if is_form => fields,
        _ => return error(StatusCode::BAD_REQUEST, 20001, "The request must be form-encoded"),
    };
    let field = |name: &str| fields.get(name).cloned().unwrap_or_default();
    let (to, from, body) = (field("To"), field("From"), field("Body"));
    let e164 = |n: &str| {
        n.strip_prefix('+').is_some_and(|d| (8..=15).contains(&d.len()) && d.bytes().all(|b| b.is_ascii_digit()))
    };
    if !e164(&to) {
        return error(StatusCode::BAD_REQUEST, 21211, &format!("The 'To' number {to} is not a valid phone number."));
    }
    if from != FROM {
        return error(
            StatusCode::BAD_REQUEST,
            21606,
            &format!(
                "The From phone number {from} is not a valid, SMS-capable inbound phone number or short code for your account."
            ),
        );
    }
    if body.trim().is_empty() || body.chars().count() > 1600 {
        return error(StatusCode::BAD_REQUEST, 21602, "Message body is required.");
    }
    if book.refused.contains(&to) {
        return error(StatusCode::BAD_REQUEST, 21610, &format!("Attempt to send to unsubscribed recipient {to}"));
    }
    let sid = format!("SM{:032x}", book.messages.len() + 1);
    book.messages.push(SmsMessage { sid: sid.clone(), to: to.clone(), from: from.clone(), body: body.clone() });
    let answer = json!({"sid": sid, "account_sid": ACCOUNT_SID, "to": to, "from": from, "body": body, "status": "queued", "num_segments": "1"});
    (StatusCode::CREATED, axum::Json(answer)).into_response()
}
