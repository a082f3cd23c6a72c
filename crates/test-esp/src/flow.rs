//! The form flow: request → Aadhaar page → OTP page → answer, and cancel.
//!
//! The rule for refusals: the ESP answers the ASP (a signed failure posted to `responseUrl`)
//! only once it knows the ASP sent the request, i.e. the request is readable and carries the
//! registered ASP's valid signature. Anything else gets an error page, so that nobody can
//! make the ESP post to an address of their choosing.

use std::time::{Duration, Instant};

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use signet_esign::esp::{self, codes};
use signet_esign::{EsignError, EsignRequest, ResponseStatus, verify_document};
use time::OffsetDateTime;

use crate::answer;
use crate::files::{self, Identity};
use crate::form::{Form, FormError};
use crate::ledger::Recorded;
use crate::pages::{self, OtpPrompt};
use crate::pending::{MAX_OTP_SENDS, OutboxEntry, Pending, Step};
use crate::state::{Esp, MAX_BODY_BYTES, Shared, lock, unix_now};

/// Longest ESP transaction id read from a form (ours are 32 hex digits).
const MAX_ESP_TXN_CHARS: usize = 64;
/// Longest Aadhaar number or VID as typed (16 digits with separators).
const MAX_AADHAAR_CHARS: usize = 32;
const MAX_OTP_CHARS: usize = 16;

/// A post refused before any transaction is looked at, and why.
struct Rejected {
    status: StatusCode,
    message: String,
}

impl Rejected {
    fn page(self) -> Response {
        pages::error_page(self.status, codes::MALFORMED, &self.message)
    }
}

impl From<FormError> for Rejected {
    fn from(FormError(message): FormError) -> Self {
        Rejected { status: StatusCode::BAD_REQUEST, message }
    }
}

/// The fields of a post (bounded in size by the router, in count by [`Form`]).
fn read_form(body: Result<Bytes, BytesRejection>) -> Result<Form, Rejected> {
    let body = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            let message = format!("the form is larger than {MAX_BODY_BYTES} bytes");
            Rejected { status: StatusCode::PAYLOAD_TOO_LARGE, message }
        } else {
            Rejected { status: StatusCode::BAD_REQUEST, message: "the form cannot be read".into() }
        }
    })?;
    Ok(Form::parse(&body)?)
}

/// A page's post: its fields and the ESP transaction it continues.
fn read_page_form(body: Result<Bytes, BytesRejection>) -> Result<(Form, String), Rejected> {
    let form = read_form(body)?;
    let esp_txn = form.required("espTxn", MAX_ESP_TXN_CHARS)?.to_string();
    Ok((form, esp_txn))
}

fn unknown_transaction() -> Response {
    pages::error_page(
        StatusCode::NOT_FOUND,
        codes::TRANSACTION_EXPIRED,
        "This eSign transaction is unknown, finished or expired. Please start again from the application.",
    )
}

/// 16 random bytes in hex: the ESP's transaction id (and `resCode`).
fn new_esp_txn() -> Option<String> {
    let mut bytes = [0u8; 16];
    aws_lc_rs::rand::fill(&mut bytes).ok()?;
    Some(hex::encode(bytes))
}

/// Six random digits (a sliver of modulo bias does not matter for a test OTP).
fn random_otp() -> Option<String> {
    let mut bytes = [0u8; 4];
    aws_lc_rs::rand::fill(&mut bytes).ok()?;
    Some(format!("{:06}", u32::from_be_bytes(bytes) % 1_000_000))
}

fn request_window(esp: &Esp) -> time::Duration {
    time::Duration::try_from(esp.options.request_window).unwrap_or(time::Duration::minutes(10))
}

/// The request, if the registered ASP signed it: only then may the ESP post to its
/// `responseUrl` (and only to an http(s) one).
fn authenticated(esp: &Esp, xml: &[u8]) -> Option<EsignRequest> {
    let request = EsignRequest::parse(xml).ok()?;
    let certificate = files::registered_asp_certificate(&esp.options.data_dir, &request.asp_id)?;
    verify_document(xml, &certificate, codes::ASP_SIGNATURE).ok()?;
    let url = request.response_url.to_ascii_lowercase();
    (url.starts_with("https://") || url.starts_with("http://")).then_some(request)
}

/// `POST /2.1/form/signdoc`: `eSignRequest`, `aspTxnID`, `Content-Type`.
pub async fn signdoc(State(esp): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    let form = match read_form(body) {
        Ok(form) => form,
        Err(rejected) => return rejected.page(),
    };
    let xml = match form.required("eSignRequest", MAX_BODY_BYTES) {
        Ok(xml) => xml.as_bytes(),
        Err(error) => return Rejected::from(error).page(),
    };
    let registry = |asp_id: &str| files::registered_asp_certificate(&esp.options.data_dir, asp_id);
    match esp::check_request(xml, registry, OffsetDateTime::now_utc(), request_window(&esp)) {
        Ok(request) => accept(&esp, request),
        Err(error) => refuse(&esp, xml, &error),
    }
}

fn refuse(esp: &Esp, xml: &[u8], error: &EsignError) -> Response {
    match authenticated(esp, xml) {
        Some(request) => {
            let Some(esp_txn) = new_esp_txn() else {
                return pages::error_page(StatusCode::INTERNAL_SERVER_ERROR, codes::INTERNAL, "no random numbers");
            };
            answer::failure(esp, &request, &esp_txn, error.code, &error.message)
        }
        None => {
            tracing::info!(code = error.code, "refused an unauthenticated request: {}", error.message);
            pages::error_page(StatusCode::BAD_REQUEST, error.code, &error.message)
        }
    }
}

/// When the request's `ts` leaves the window, as an instant of this process's clock.
fn request_end(esp: &Esp, request: &EsignRequest) -> Instant {
    let ends = request.ts + request_window(esp);
    let left = (ends - OffsetDateTime::now_utc()).max(time::Duration::ZERO);
    Instant::now() + Duration::try_from(left).unwrap_or(Duration::ZERO)
}

/// A checked request: new `txn` for its ASP → the Aadhaar page.
fn accept(esp: &Esp, request: EsignRequest) -> Response {
    match admit(esp, &request) {
        Ok(esp_txn) => aadhaar_page_for(&request, &esp_txn),
        Err((esp_txn, code, message)) => answer::failure(esp, &request, &esp_txn, code, &message),
    }
}

fn aadhaar_page_for(request: &EsignRequest, esp_txn: &str) -> Response {
    let prefill = files::aadhaar_or_vid(&request.ekyc_id).unwrap_or_default();
    pages::aadhaar_page(request, esp_txn, &prefill, None)
}

/// Records a checked request's `txn` (refused when its ASP used it before) and opens its
/// transaction; the ESP transaction id, or the refusal (with the id it is answered under).
fn admit(esp: &Esp, request: &EsignRequest) -> Result<String, (String, &'static str, String)> {
    let esp_txn = new_esp_txn().unwrap_or_default();
    let refuse = |code: &'static str, message: &str| Err((esp_txn.clone(), code, message.to_string()));
    if esp_txn.is_empty() {
        return refuse(codes::INTERNAL, "no random numbers");
    }
    let replay_key = format!("{} {}", request.asp_id, request.txn);
    let recorded = lock(&esp.seen_txns).record(&replay_key, unix_now());
    match recorded {
        Ok(Recorded::New) => {}
        Ok(Recorded::AlreadyThere) => {
            return refuse(codes::REPLAYED_TXN, &format!("txn {} was already used by {}", request.txn, request.asp_id));
        }
        Ok(Recorded::Full) => return refuse(codes::INTERNAL, "the ESP is busy"),
        Err(error) => {
            tracing::error!("the txn record cannot be written: {error:#}");
            return refuse(codes::INTERNAL, "the ESP cannot keep records");
        }
    }
    let pending = Pending {
        ends_at: request_end(esp, request),
        request: request.clone(),
        step: Step::Identify,
        otp_sends: 0,
        wrong_otps: 0,
    };
    if !lock(&esp.transactions).insert(esp_txn.clone(), pending, Instant::now()) {
        return refuse(codes::INTERNAL, "the ESP is busy");
    }
    tracing::info!(asp = %request.asp_id, txn = %request.txn, %esp_txn, "request accepted");
    Ok(esp_txn)
}

/// `POST /2.1/signdoc`: the server-to-server first step (eSign 3.x style). The ASP's server
/// posts the signed request (the XML as the body, or an `eSignRequest` field); the answer is a
/// signed `EsignResp` in the HTTP body: `status="2"` with `resCode` when the request is taken
/// (the ASP then sends the signer's browser to `POST /2.1/authRequest` with `txnref`), else
/// `status="0"` with the code. A request that cannot be authenticated gets HTTP 400.
pub async fn signdoc_server(State(esp): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    let Ok(body) = body else {
        return (StatusCode::PAYLOAD_TOO_LARGE, "the request is too large").into_response();
    };
    let xml: Vec<u8> = if body.starts_with(b"eSignRequest=") {
        match Form::parse(&body)
            .ok()
            .and_then(|f| f.required("eSignRequest", MAX_BODY_BYTES).ok().map(|x| x.as_bytes().to_vec()))
        {
            Some(xml) => xml,
            None => return (StatusCode::BAD_REQUEST, "eSignRequest cannot be read").into_response(),
        }
    } else {
        body.to_vec()
    };
    let registry = |asp_id: &str| files::registered_asp_certificate(&esp.options.data_dir, asp_id);
    let request = match esp::check_request(&xml, registry, OffsetDateTime::now_utc(), request_window(&esp)) {
        Ok(request) => request,
        Err(error) => {
            return match authenticated(&esp, &xml) {
                Some(request) => {
                    let response =
                        answer::unsigned(&request, "", ResponseStatus::Failure, Some((error.code, &error.message)));
                    answer::xml_answer(&esp, &response)
                }
                None => (StatusCode::BAD_REQUEST, format!("{}: {}", error.code, error.message)).into_response(),
            };
        }
    };
    match admit(&esp, &request) {
        Ok(esp_txn) => answer::xml_answer(&esp, &answer::unsigned(&request, &esp_txn, ResponseStatus::Pending, None)),
        Err((esp_txn, code, message)) => answer::xml_answer(
            &esp,
            &answer::unsigned(&request, &esp_txn, ResponseStatus::Failure, Some((code, &message))),
        ),
    }
}

/// `POST /2.1/authRequest`: `txnref` = base64("<txn>|<resCode>") from the server-to-server
/// step; the signer continues on the Aadhaar page.
pub async fn auth_request(State(esp): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    use base64::Engine;
    let form = match read_form(body) {
        Ok(form) => form,
        Err(rejected) => return rejected.page(),
    };
    let reference = form
        .required("txnref", 400)
        .ok()
        .and_then(|r| base64::engine::general_purpose::STANDARD.decode(r.trim()).ok())
        .and_then(|r| String::from_utf8(r).ok());
    let Some((txn, esp_txn)) = reference.as_deref().and_then(|r| r.rsplit_once('|')) else {
        return Rejected { status: StatusCode::BAD_REQUEST, message: "txnref is not base64(txn|resCode)".into() }
            .page();
    };
    if let Some(response) = ended(&esp, esp_txn) {
        return response;
    }
    let request = {
        let mut transactions = lock(&esp.transactions);
        transactions
            .get_mut(esp_txn)
            .filter(|p| p.request.txn == txn && matches!(p.step, Step::Identify))
            .map(|p| p.request.clone())
    };
    match request {
        Some(request) => aadhaar_page_for(&request, esp_txn),
        None => unknown_transaction(),
    }
}

/// Ends a transaction whose request left its window (ESP-915 to the ASP), or `None` if it is
/// still running.
fn ended(esp: &Esp, esp_txn: &str) -> Option<Response> {
    let pending = {
        let mut transactions = lock(&esp.transactions);
        let ends_at = transactions.get_mut(esp_txn)?.ends_at;
        if Instant::now() < ends_at {
            return None;
        }
        transactions.remove(esp_txn)?
    };
    Some(answer::failure(esp, &pending.request, esp_txn, codes::TRANSACTION_EXPIRED, "the transaction expired"))
}

/// `POST /2.1/form/otp`: `espTxn`, `aadhaar`.
pub async fn send_otp(State(esp): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    let (form, esp_txn) = match read_page_form(body) {
        Ok(read) => read,
        Err(rejected) => return rejected.page(),
    };
    let esp_txn = esp_txn.as_str();
    if let Some(page) = ended(&esp, esp_txn) {
        return page;
    }
    let typed = form.optional("aadhaar").unwrap_or_default();
    let typed: String = typed.chars().take(MAX_AADHAAR_CHARS).collect();
    let identity = match files::aadhaar_or_vid(&typed) {
        None => Err(format!("Enter a 12-digit Aadhaar number or a 16-digit VID ({}).", codes::UNKNOWN_IDENTITY)),
        Some(number) => match files::find_identity(&esp.options.data_dir, &number) {
            Ok(Some(identity)) => Ok(identity),
            Ok(None) => Err(format!("No resident has this Aadhaar number or VID ({}).", codes::UNKNOWN_IDENTITY)),
            Err(error) => {
                tracing::error!("identities.json cannot be read: {error:#}");
                Err(format!("The identities cannot be read ({}).", codes::INTERNAL))
            }
        },
    };
    let mut transactions = lock(&esp.transactions);
    let Some(pending) = transactions.get_mut(esp_txn) else {
        return unknown_transaction();
    };
    let identity = match identity {
        Ok(identity) => identity,
        Err(message) => return pages::aadhaar_page(&pending.request, esp_txn, &typed, Some(message)),
    };
    if pending.otp_sends >= MAX_OTP_SENDS {
        let Some(pending) = transactions.remove(esp_txn) else {
            return unknown_transaction();
        };
        drop(transactions);
        return answer::failure(&esp, &pending.request, esp_txn, codes::OTP_ATTEMPTS, "too many OTPs were requested");
    }
    let Some(otp) = esp.options.fixed_otp.clone().or_else(random_otp) else {
        return pages::error_page(StatusCode::INTERNAL_SERVER_ERROR, codes::INTERNAL, "no random numbers");
    };
    lock(&esp.outbox).push(OutboxEntry {
        at: OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default(),
        esp_txn: esp_txn.to_string(),
        name: identity.name.clone(),
        mobile: identity.masked_mobile(),
        otp: otp.clone(),
    });
    let page = otp_page(&pending.request, esp_txn, &identity, None);
    pending.otp_sends += 1;
    pending.step = Step::OtpSent { identity, otp, sent_at: Instant::now() };
    tracing::info!(%esp_txn, "OTP sent");
    page
}

fn otp_page(request: &EsignRequest, esp_txn: &str, identity: &Identity, error: Option<String>) -> Response {
    let prompt = OtpPrompt { masked_mobile: &identity.masked_mobile(), masked_aadhaar: &identity.masked_aadhaar() };
    pages::otp_page(request, esp_txn, &prompt, error)
}

/// What an OTP post leads to, decided under the lock; answers to the ASP are made after it.
enum Authenticated {
    Page(Response),
    Fail(Pending, &'static str, String),
    Sign(Pending, Identity),
}

/// `POST /2.1/form/authenticate`: `espTxn`, `otp`, `consent`.
pub async fn authenticate(State(esp): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    let (form, esp_txn) = match read_page_form(body) {
        Ok(read) => read,
        Err(rejected) => return rejected.page(),
    };
    let esp_txn = esp_txn.as_str();
    if let Some(page) = ended(&esp, esp_txn) {
        return page;
    }
    let otp: String = form.optional("otp").unwrap_or_default().trim().chars().take(MAX_OTP_CHARS).collect();
    let consent = form.optional("consent").is_some_and(|c| c.trim().eq_ignore_ascii_case("y"));
    let decision = check_otp(&esp, esp_txn, &otp, consent);
    match decision {
        Authenticated::Page(page) => page,
        Authenticated::Fail(pending, code, message) => answer::failure(&esp, &pending.request, esp_txn, code, &message),
        Authenticated::Sign(pending, identity) => answer::signed(&esp, &pending.request, esp_txn, &identity),
    }
}

fn check_otp(esp: &Esp, esp_txn: &str, otp: &str, consent: bool) -> Authenticated {
    let mut transactions = lock(&esp.transactions);
    let Some(pending) = transactions.get_mut(esp_txn) else {
        return Authenticated::Page(unknown_transaction());
    };
    let (identity, expected, sent_at) = match &pending.step {
        Step::Identify => {
            let message = "Ask for an OTP first.".to_string();
            return Authenticated::Page(pages::aadhaar_page(&pending.request, esp_txn, "", Some(message)));
        }
        Step::OtpSent { identity, otp, sent_at } => (identity.clone(), otp.clone(), *sent_at),
    };
    let end = |transactions: &mut crate::pending::Transactions, code, message: &str| match transactions.remove(esp_txn)
    {
        Some(pending) => Authenticated::Fail(pending, code, message.to_string()),
        None => Authenticated::Page(unknown_transaction()),
    };
    if sent_at.elapsed() > esp.options.otp_ttl {
        return end(&mut transactions, codes::OTP_EXPIRED, "the OTP has expired");
    }
    if !consent {
        let message = "Tick the consent box to sign.".to_string();
        return Authenticated::Page(otp_page(&pending.request, esp_txn, &identity, Some(message)));
    }
    if otp.is_empty() {
        let message = "Enter the OTP.".to_string();
        return Authenticated::Page(otp_page(&pending.request, esp_txn, &identity, Some(message)));
    }
    if otp != expected {
        pending.wrong_otps += 1;
        let left = esp.options.max_otp_attempts.saturating_sub(pending.wrong_otps);
        if left == 0 {
            return end(&mut transactions, codes::OTP_ATTEMPTS, "too many wrong OTPs");
        }
        let message = format!("The OTP is wrong ({}). {left} attempt{} left.", codes::WRONG_OTP, plural(left));
        return Authenticated::Page(otp_page(&pending.request, esp_txn, &identity, Some(message)));
    }
    match transactions.remove(esp_txn) {
        Some(pending) => Authenticated::Sign(pending, identity),
        None => Authenticated::Page(unknown_transaction()),
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `POST /2.1/form/cancel`: `espTxn` → ESP-920 to the ASP.
pub async fn cancel(State(esp): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    let (_, esp_txn) = match read_page_form(body) {
        Ok(read) => read,
        Err(rejected) => return rejected.page(),
    };
    let esp_txn = esp_txn.as_str();
    let Some(pending) = lock(&esp.transactions).remove(esp_txn) else {
        return unknown_transaction();
    };
    answer::failure(&esp, &pending.request, esp_txn, codes::CANCELLED, "the signer cancelled")
}

/// `GET /outbox`: the OTPs "sent", newest first.
pub async fn outbox(State(esp): State<Shared>) -> Response {
    let entries = lock(&esp.outbox).entries();
    pages::outbox_page(&entries)
}

/// `GET /outbox.json`: the same, for scripts.
pub async fn outbox_json(State(esp): State<Shared>) -> Response {
    Json(lock(&esp.outbox).entries()).into_response()
}
