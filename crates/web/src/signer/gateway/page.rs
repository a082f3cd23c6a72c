//! The signer page of a gateway transaction: `/sign/g/{transaction}/{secret}`. The secret in
//! the link (stored hashed) is what authorises the signer ([`GatewayLink`]); the page shows who
//! asks and the document, takes a typed, drawn or uploaded signature with consent, and hands
//! the result on (the steps are `signet_services::gateway::transaction`).

use axum::extract::{FromRequestParts, RawPathParams, Request, State};
use axum::http::header::USER_AGENT;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;
use signet_domain::audit::Actor;
use signet_gateway::{Document, Payload, SignatureType};
use signet_http::extract::{ApiPath, ClientIp};
use signet_services::Services;
use signet_services::esign::dispatch::Answered;
use signet_services::esign::{AnswerRefusal, EsignGone, EsignRefused};
use signet_services::gateway::esign;
use signet_services::gateway::seal::Mark;
use signet_services::gateway::transaction::{self, Delivery, OpenTransaction, TransactionClosed, TransactionEnd};
use signet_services::workflows::esign::Esigned;

use super::views::{HashLink, SignPage, error_page, esp_page, result_page, sign_page};
use crate::form::{Methods, Refusal, UploadRule, mark_from, read_submission};
use crate::signer::workflow::page_lang;
use crate::text::{Text, key};

/// An open gateway transaction from its link (`/sign/g/{number}/{secret}/...`).
pub struct GatewayLink {
    pub open: OpenTransaction,
    pub number: String,
    pub secret: String,
    /// The page's words: the language the signer chose with the switch, else the browser's.
    pub text: Text,
}

impl GatewayLink {
    fn base(&self) -> String {
        format!("/sign/g/{}/{}", self.number, self.secret)
    }

    /// What the page's forms' addresses end with, so that their answers keep the language.
    fn lang_query(&self) -> String {
        format!("?lang={}", self.text.lang().code())
    }

    fn actor(&self, ip: std::net::IpAddr) -> Actor {
        Actor { id: format!("signer:{}", self.number), ip: Some(ip.to_string()) }
    }
}

/// A link that leads to no open transaction, with the secret it came with (a completed
/// transaction may still hand its result out again, see `transaction::deliver_again`).
pub struct Closed {
    pub why: TransactionClosed,
    number: String,
    secret: String,
    text: Text,
}

impl FromRequestParts<Services> for GatewayLink {
    type Rejection = Closed;

    async fn from_request_parts(parts: &mut Parts, state: &Services) -> Result<Self, Self::Rejection> {
        let params = RawPathParams::from_request_parts(parts, state).await.ok();
        let param = |name: &str| {
            params.as_ref().and_then(|p| p.iter().find(|(key, _)| *key == name).map(|(_, value)| value.to_string()))
        };
        let (number, secret) = (param("number").unwrap_or_default(), param("secret").unwrap_or_default());
        // The gateway's request names no language: the switch's, else the browser's.
        let text = Text::new(page_lang(&parts.uri, &parts.headers, None));
        match transaction::open(state, &number, &secret).await {
            Ok(open) => Ok(GatewayLink { open, number, secret, text }),
            Err(why) => Err(Closed { why, number, secret, text }),
        }
    }
}

fn closed_page(text: Text, why: TransactionClosed) -> Response {
    let (status, message) = match why {
        TransactionClosed::NotFound => (StatusCode::NOT_FOUND, key("signer.link_not_valid_text")),
        TransactionClosed::Ended(TransactionEnd::Signed) => (StatusCode::GONE, key("gateway_page.already_signed")),
        TransactionClosed::Ended(TransactionEnd::Cancelled) => (StatusCode::GONE, key("gateway_page.cancelled")),
        TransactionClosed::Ended(TransactionEnd::Failed) => (StatusCode::GONE, key("gateway_page.failed")),
        TransactionClosed::Ended(TransactionEnd::Expired) => (StatusCode::GONE, key("gateway_page.expired")),
        TransactionClosed::Broken => (StatusCode::INTERNAL_SERVER_ERROR, key("gateway_page.cannot_show")),
    };
    (status, error_page(text, text.s(message))).into_response()
}

impl IntoResponse for Closed {
    fn into_response(self) -> Response {
        closed_page(self.text, self.why)
    }
}

fn delivered(text: Text, delivery: Delivery) -> Response {
    result_page(text, &delivery.url, &delivery.post)
}

/// The most of a DATA request's text the signer page shows.
const MAX_SHOWN_DATA_CHARS: usize = 64 * 1024;

fn document_name(payload: &Payload, text: Text) -> String {
    match &payload.document {
        Document::Hash(items) if items.len() == 1 => items[0].name.clone(),
        Document::Hash(items) => text.plain("gateway_page.n_documents", &[("n", &items.len())]),
        _ => format!("{}.{}", payload.reference_number, payload.file_type.as_str().to_ascii_lowercase()),
    }
}

/// The electronic-signature methods this page can offer for the request. Hash requests need
/// only consent, which the typed form carries.
fn methods(payload: &Payload) -> Methods {
    if !payload.has_type(SignatureType::ESignature) {
        return Methods::NONE;
    }
    match &payload.document {
        // A signature pad's strokes come onto the drawing canvas.
        Document::Pdf { options, .. } => Methods {
            typed: options.esignature.font,
            draw: options.esignature.draw || options.esignature.signature_pad,
            upload: options.esignature.upload,
        },
        Document::Hash(_) => Methods { typed: true, draw: false, upload: false },
        _ => Methods::NONE,
    }
}

async fn render(state: &Services, link: &GatewayLink, error: Option<String>) -> Response {
    render_refused(state, link, error, None).await
}

/// The signing page, after a refusal of the uploaded image when `refused_image` is its code.
async fn render_refused(
    state: &Services,
    link: &GatewayLink,
    error: Option<String>,
    refused_image: Option<u16>,
) -> Response {
    let open = &link.open;
    let requester = signet_services::gateway::transaction::requester_name(state, open).await;
    let allowed = methods(&open.payload);
    let esign = esign::offered(state, open);
    let token = signet_services::gateway::token::offered(open);
    let (allow_pad, pad_only) = match &open.payload.document {
        Document::Pdf { options, .. } if open.payload.has_type(SignatureType::ESignature) => {
            let e = &options.esignature;
            (e.signature_pad, e.signature_pad && !(e.draw || e.font || e.upload))
        }
        _ => (false, false),
    };
    let (preview, signer_name) = match &open.payload.document {
        Document::Pdf { options, .. } => (options.preview_required, options.name.clone()),
        _ => (false, String::new()),
    };
    let hashes = match &open.payload.document {
        Document::Hash(items) => items
            .iter()
            .map(|d| HashLink { name: d.name.clone(), url: d.url.clone(), hash: d.hash_hex.clone() })
            .collect(),
        _ => Vec::new(),
    };
    let is_pdf = matches!(open.payload.document, Document::Pdf { .. });
    let (data_text, data_cut) = match &open.payload.document {
        Document::Data(bytes) | Document::Xml(bytes) => {
            let text = String::from_utf8_lossy(bytes);
            let shown: String = text.chars().take(MAX_SHOWN_DATA_CHARS).collect();
            let cut = shown.len() < text.len();
            (Some(shown), cut)
        }
        _ => (None, false),
    };
    let preview_pages = match &open.payload.document {
        Document::Pdf { bytes, .. } if preview && crate::preview::available() => {
            signet_pdf::inspect(bytes).map(|s| crate::preview::preview_pages(s.pages)).unwrap_or_default()
        }
        _ => Vec::new(),
    };
    sign_page(&SignPage {
        requester,
        document_name: document_name(&open.payload, link.text),
        reference: open.payload.reference_number.clone(),
        signer_name,
        base: link.base(),
        error,
        preview: preview && is_pdf,
        preview_pages,
        view_link: open.payload.enable_view_document_link && !preview && is_pdf,
        hashes,
        allow_typed: allowed.typed,
        allow_draw: allowed.draw,
        allow_upload: allowed.upload,
        esign,
        auth_modes: if esign {
            super::views::auth_mode_choices(&signet_services::esign::auth_modes(state), link.text)
        } else {
            Vec::new()
        },
        token,
        token_give_up: token,
        refused_image,
        allow_pad,
        pad_only,
        data_text,
        data_cut,
        only_unavailable: !(allowed.typed || allowed.draw || allowed.upload || esign || token),
        text: link.text,
        lang_query: link.lang_query(),
        switch_to: link.base(),
    })
}

/// `GET /sign/g/{transaction}/{secret}`.
pub async fn show(State(state): State<Services>, link: Result<GatewayLink, Closed>) -> Response {
    match link {
        Ok(link) => render(&state, &link, None).await,
        Err(closed) => closed_link(&state, closed).await,
    }
}

fn no_document(text: Text) -> Response {
    (StatusCode::NOT_FOUND, error_page(text, text.s("gateway_page.no_document"))).into_response()
}

/// `GET /sign/g/{transaction}/{secret}/document`: the original, for the preview and the link.
pub async fn document(link: GatewayLink) -> Response {
    let Document::Pdf { bytes, .. } = link.open.payload.document else { return no_document(link.text) };
    crate::preview::inline_pdf(bytes.into())
}

/// `GET /sign/g/{transaction}/{secret}/pages/{page}`: one page rendered for the preview.
pub async fn page_image(link: GatewayLink, ApiPath((_, _, page)): ApiPath<(String, String, usize)>) -> Response {
    let Document::Pdf { bytes, .. } = link.open.payload.document else { return no_document(link.text) };
    let pages = signet_pdf::inspect(&bytes).map(|s| s.pages).unwrap_or(0);
    crate::preview::page_response(&bytes, page, pages).await
}

/// A link whose transaction has ended: a completed one hands its kept result out again when
/// it was asked for twice (see `transaction::deliver_again`); one whose time ran out sends the
/// signer to FUrl with that failure, which the integrator could learn no other way (see
/// `transaction::expired_delivery`); else the page says how it ended.
async fn ended(state: &Services, closed: Closed) -> Response {
    let delivery = match closed.why {
        TransactionClosed::Ended(TransactionEnd::Expired) => {
            transaction::expired_delivery(state, &closed.number, Some(&closed.secret)).await
        }
        TransactionClosed::Ended(_) => transaction::deliver_again(state, &closed.number, &closed.secret).await,
        TransactionClosed::NotFound | TransactionClosed::Broken => None,
    };
    match delivery {
        Some(delivery) => delivered(closed.text, delivery),
        None => closed.into_response(),
    }
}

/// A link whose transaction has ended, opened or used other than to sign: one whose time ran
/// out still sends the signer to FUrl (see [`ended`]); any other says how it ended.
async fn closed_link(state: &Services, closed: Closed) -> Response {
    match closed.why {
        TransactionClosed::Ended(TransactionEnd::Expired) => ended(state, closed).await,
        _ => closed.into_response(),
    }
}

/// What the signer must correct: the words, and the gateway's code when it is a refusal of the
/// uploaded image (115/116).
struct Correction {
    said: String,
    image_code: Option<u16>,
}

/// The signer's mark and the record of how it was given, from the submitted form; what the
/// signer must correct otherwise (115/116 included).
async fn signing_input(
    state: &Services,
    request: Request,
    headers: &HeaderMap,
    allowed: Methods,
    text: Text,
) -> Result<(Mark, serde_json::Value), Correction> {
    let unreadable = || Correction { said: text.s("signer.form_unreadable").to_string(), image_code: None };
    let submission = read_submission(request, state).await.map_err(|_| unreadable())?;
    // The gateway's uploads keep the spec's size rule (116).
    let mark = mark_from(&submission, allowed, UploadRule::Spec).map_err(|refusal| Correction {
        said: refusal.words(text),
        image_code: match &refusal {
            Refusal::Gateway(failure) => Some(failure.code.code()),
            Refusal::Said(_) => None,
        },
    })?;
    let method = submission.fields.get("mode").cloned().unwrap_or_default();
    let user_agent =
        headers.get(USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("").chars().take(300).collect::<String>();
    let detail = json!({"method": method, "consent": true, "userAgent": user_agent, "signatureTypes": "4"});
    Ok((mark, detail))
}

/// `POST /sign/g/{transaction}/{secret}/sign`.
pub async fn sign(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    link: Result<GatewayLink, Closed>,
    headers: HeaderMap,
    request: Request,
) -> Response {
    let link = match link {
        Ok(link) => link,
        Err(closed) => return ended(&state, closed).await,
    };
    let (mark, detail) = match signing_input(&state, request, &headers, methods(&link.open.payload), link.text).await {
        Ok(input) => input,
        Err(correction) => {
            return render_refused(&state, &link, Some(correction.said), correction.image_code).await;
        }
    };
    match transaction::sign(&state, &link.open, &link.secret, mark, &link.actor(ip), detail).await {
        Ok(delivery) => delivered(link.text, delivery),
        Err(why) => closed_page(link.text, why),
    }
}

/// `POST /sign/g/{transaction}/{secret}/cancel`: error 106 to Curl; right after a refusal of
/// the uploaded image (form field `refused`: 115 or 116), that code to Furl instead.
pub async fn cancel(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    link: Result<GatewayLink, Closed>,
    body: axum::body::Bytes,
) -> Response {
    let link = match link {
        Ok(link) => link,
        Err(closed) => return closed_link(&state, closed).await,
    };
    let form: std::collections::HashMap<String, String> = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    let refused = form.get("refused").and_then(|code| code.trim().parse::<u16>().ok());
    let actor = link.actor(ip);
    let outcome = match refused {
        Some(code) => transaction::give_up_after_image(&state, &link.open, code, &actor).await,
        None => transaction::cancel(&state, &link.open, &actor).await,
    };
    match outcome {
        Ok(delivery) => delivered(link.text, delivery),
        Err(why) => closed_page(link.text, why),
    }
}

/// `POST /sign/g/{transaction}/{secret}/esign`: the signer chose Aadhaar eSign; their browser
/// takes Signet's signed request to the ESP.
pub async fn start_esign(
    State(state): State<Services>,
    link: Result<GatewayLink, Closed>,
    body: axum::body::Bytes,
) -> Response {
    let link = match link {
        Ok(link) => link,
        Err(closed) => return closed_link(&state, closed).await,
    };
    // The form carries `authMode` when the ESP offers several; without a body, the default.
    let fields: std::collections::HashMap<String, String> = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    let Ok(auth_mode) = super::views::chosen_auth_mode(fields.get("authMode").map(String::as_str)) else {
        return render(&state, &link, Some(link.text.s("signer.form_not_accepted").to_string())).await;
    };
    match esign::start(&state, &link.open, auth_mode).await {
        Ok(redirect) => esp_page(link.text, &redirect),
        Err(refused) => esign_refused(&state, Some(&link), link.text, refused).await,
    }
}

/// `POST /esign/response`: the ESP's answer (`eSignResponse`, `espTxnID`), brought back by the
/// signer's browser. It is checked against what Signet sent before anything is embedded.
pub async fn esign_answer(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    uri: axum::http::Uri,
    headers: HeaderMap,
    axum::Form(fields): axum::Form<std::collections::HashMap<String, String>>,
) -> Response {
    // The ESP's answer names no language: the browser's.
    let text = Text::new(page_lang(&uri, &headers, None));
    let Some(response) = fields.iter().find(|(k, _)| k.eq_ignore_ascii_case("eSignResponse")).map(|(_, v)| v) else {
        return (StatusCode::BAD_REQUEST, error_page(text, text.s("gateway_page.esp_no_answer"))).into_response();
    };
    match signet_services::esign::dispatch::answer(&state, response.as_bytes(), Some(ip.to_string())).await {
        Ok(Answered::Gateway(delivery)) => delivered(text, delivery),
        Ok(Answered::Workflow(esigned, lang)) => {
            // The workflow's signer language, when the sender chose one; else the browser's.
            let text = lang.map(Text::new).unwrap_or(text);
            let said = esigned_words(&esigned, text);
            crate::signer::workflow::message_in(text, StatusCode::OK, key("esign.done.title"), &said)
        }
        Err(refused) => esign_refused(&state, None, text, refused).await,
    }
}

async fn esign_refused(state: &Services, link: Option<&GatewayLink>, text: Text, refused: EsignRefused) -> Response {
    match refused {
        EsignRefused::Unavailable => match link {
            Some(link) => render(state, link, Some(text.s("signer.esign_unavailable").to_string())).await,
            None => (StatusCode::NOT_FOUND, error_page(text, text.s("gateway_page.esign_not_here"))).into_response(),
        },
        EsignRefused::Closed(why) => closed_page(text, why),
        EsignRefused::Gone(gone) => (StatusCode::GONE, error_page(text, text.s(esign_gone_key(gone)))).into_response(),
        EsignRefused::Answer(refusal) => {
            let mut said = answer_refusal_words(refusal, text);
            if let AnswerRefusal::NotAccepted(code) = refusal {
                said = format!("{said} {}", text.s(asp_code_key(code)));
            }
            (StatusCode::BAD_REQUEST, error_page(text, &said)).into_response()
        }
        EsignRefused::AnswerRefused { code, txn } => {
            let said = answer_refusal_words(AnswerRefusal::NotAccepted(code), text);
            let page = super::views::esign_refused_page(text, &said, text.s(asp_code_key(code)), &txn);
            (StatusCode::BAD_REQUEST, page).into_response()
        }
        EsignRefused::Esp { code, message, kind } => {
            let said = format!(
                "{} {}",
                text.plain("gateway_page.esp_refused", &[("code", &code), ("message", &message)]),
                text.s(esp_kind_key(kind))
            );
            match link {
                Some(link) => render(state, link, Some(said)).await,
                None => (StatusCode::BAD_GATEWAY, error_page(text, &said)).into_response(),
            }
        }
        EsignRefused::PhoneNotConfirmed => match link {
            Some(link) => render(state, link, Some(text.s("signer.otp_needed").to_string())).await,
            None => (StatusCode::BAD_REQUEST, error_page(text, text.s("signer.otp_needed"))).into_response(),
        },
        EsignRefused::Input(refusal) => {
            let said = field_refusal_words(&refusal, text);
            match link {
                Some(link) => render(state, link, Some(said)).await,
                None => (StatusCode::BAD_REQUEST, error_page(text, &said)).into_response(),
            }
        }
        EsignRefused::Internal(cause) => {
            tracing::error!(%cause, "Aadhaar eSign failed");
            (StatusCode::INTERNAL_SERVER_ERROR, error_page(text, text.s("gateway_page.esign_failed"))).into_response()
        }
    }
}

/// The `txn` field of the refused-answer page's forms.
fn txn_field(body: &[u8]) -> String {
    let fields: std::collections::HashMap<String, String> = serde_urlencoded::from_bytes(body).unwrap_or_default();
    fields.get("txn").cloned().unwrap_or_default()
}

/// `POST /esign/retry` (`txn`): after a refused answer, the same document to the ESP again in a
/// new request. The `txn`'s secret is the authority; without it nothing is shown or changed.
pub async fn esign_retry(
    State(state): State<Services>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let text = Text::new(page_lang(&uri, &headers, None));
    match esign::retry(&state, &txn_field(&body)).await {
        Ok(redirect) => esp_page(text, &redirect),
        Err(refused) => esign_refused(&state, None, text, refused).await,
    }
}

/// `POST /esign/give-up` (`txn`): after a refused answer, the signer gives up; the transaction
/// ends and the integrator learns why at FUrl.
pub async fn esign_give_up(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let text = Text::new(page_lang(&uri, &headers, None));
    let txn = txn_field(&body);
    let actor = Actor { id: format!("esign:{}", txn.split('-').next().unwrap_or_default()), ip: Some(ip.to_string()) };
    match esign::give_up(&state, &txn, &actor).await {
        Ok(delivery) => delivered(text, delivery),
        Err(refused) => esign_refused(&state, None, text, refused).await,
    }
}

/// What a kind of ESP refusal means for the signer, in the page's language.
pub(crate) fn esp_kind_key(kind: signet_services::esign::EspRefusal) -> &'static str {
    use signet_services::esign::EspRefusal;
    match kind {
        EspRefusal::Cancelled => key("esign.kind.cancelled"),
        EspRefusal::Expired => key("esign.kind.expired"),
        EspRefusal::Authentication => key("esign.kind.authentication"),
        EspRefusal::Request => key("esign.kind.request"),
        EspRefusal::Service => key("esign.kind.service"),
    }
}

/// What an ASP refusal code means for the signer, in the page's language.
pub(crate) fn asp_code_key(code: &str) -> &'static str {
    match code {
        "esign_forged" => key("esign.asp.forged"),
        "esign_other_transaction" => key("esign.asp.other_transaction"),
        "esign_late" => key("esign.asp.late"),
        "esign_document" => key("esign.asp.document"),
        "esign_certificate" => key("esign.asp.certificate"),
        "esign_replayed" => key("esign.asp.replayed"),
        _ => key("esign.asp.malformed"),
    }
}

/// `GET /esign/asp.cer`: the certificate Signet signs eSign requests with (DER), for
/// registration with an ESP.
pub async fn asp_certificate(State(state): State<Services>) -> Response {
    let mut response = state.keys.asp.cert_der.clone().into_response();
    response
        .headers_mut()
        .insert(axum::http::header::CONTENT_TYPE, axum::http::HeaderValue::from_static("application/pkix-cert"));
    response.headers_mut().insert(
        axum::http::header::CONTENT_DISPOSITION,
        axum::http::HeaderValue::from_static("attachment; filename=\"signet-asp.cer\""),
    );
    response
}

/// `POST /sign/g/{transaction}/{secret}/token/prepare` (JSON `{certificate, chain}`, base64
/// DER): the document prepared for the token's certificate; answers `{id, hashToSign}`.
pub async fn token_prepare(State(state): State<Services>, link: GatewayLink, body: axum::body::Bytes) -> Response {
    use signet_services::gateway::token::{self, TokenRefused};
    let read = serde_json::from_slice::<serde_json::Value>(&body).ok().and_then(|v| {
        let decode = |s: &serde_json::Value| s.as_str().and_then(|s| STANDARD.decode(s).ok());
        let certificate = decode(&v["certificate"])?;
        let chain = v["chain"].as_array().map(|a| a.iter().filter_map(decode).take(5).collect()).unwrap_or_default();
        Some((certificate, chain))
    });
    let Some((certificate, chain)) = read else {
        return token_error(StatusCode::BAD_REQUEST, link.text.s("gateway_page.certificate_unreadable"));
    };
    match token::prepare(&state, &link.open, certificate, chain).await {
        Ok(prepared) => axum::Json(json!({"id": prepared.id, "hashesToSign": prepared.hashes_to_sign})).into_response(),
        Err(TokenRefused::Invalid(problem)) => token_error(StatusCode::BAD_REQUEST, &token_words(&problem, link.text)),
        Err(TokenRefused::Unavailable) => {
            token_error(StatusCode::NOT_FOUND, link.text.s("gateway_page.token_not_here"))
        }
        Err(TokenRefused::Closed(why)) => closed_page(link.text, why),
        Err(TokenRefused::Internal(cause)) => {
            tracing::error!(%cause, "preparing a token signature failed");
            token_error(StatusCode::INTERNAL_SERVER_ERROR, link.text.s("signer.token_not_prepared"))
        }
    }
}

fn token_error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({"error": message}))).into_response()
}

/// `POST /sign/g/{transaction}/{secret}/token/complete` (form: `id`, `signatures` base64 joined
/// by commas): the token's signatures embedded; the result goes on to SUrl.
pub async fn token_complete(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    link: Result<GatewayLink, Closed>,
    axum::Form(fields): axum::Form<std::collections::HashMap<String, String>>,
) -> Response {
    use signet_services::gateway::token::{self, TokenRefused};
    let link = match link {
        Ok(link) => link,
        Err(closed) => return ended(&state, closed).await,
    };
    let id = fields.get("id").cloned().unwrap_or_default();
    // `signatures`: base64 values joined by commas, in the order of the hashes.
    let signatures: Vec<Vec<u8>> = fields
        .get("signatures")
        .map(|s| {
            s.split(',').take(signet_gateway::MAX_DOCUMENTS).filter_map(|s| STANDARD.decode(s.trim()).ok()).collect()
        })
        .unwrap_or_default();
    match token::complete(&state, &link.open, &id, signatures, &link.actor(ip)).await {
        Ok(delivery) => delivered(link.text, delivery),
        Err(TokenRefused::Invalid(problem)) => render(&state, &link, Some(token_words(&problem, link.text))).await,
        Err(TokenRefused::Unavailable) => {
            render(&state, &link, Some(link.text.s("gateway_page.token_again").into())).await
        }
        Err(TokenRefused::Closed(why)) => closed_page(link.text, why),
        Err(TokenRefused::Internal(cause)) => {
            tracing::error!(%cause, "completing a token signature failed");
            let said = link.text.s("gateway_page.not_completed");
            (StatusCode::INTERNAL_SERVER_ERROR, error_page(link.text, said)).into_response()
        }
    }
}

/// Why a workflow signature behind an eSign step can no longer be made, in the page's language.
pub(crate) fn esign_gone_key(gone: EsignGone) -> &'static str {
    match gone {
        EsignGone::DocumentCount => key("esign.gone.document_count"),
        EsignGone::NoSuchRequest => key("esign.gone.no_such_request"),
        EsignGone::MovedOn => key("esign.gone.moved_on"),
        EsignGone::DocumentsChanged => key("esign.gone.documents_changed"),
    }
}

/// Why an ESP's answer was not taken, in the page's language.
fn answer_refusal_words(refusal: AnswerRefusal, text: Text) -> String {
    match refusal {
        AnswerRefusal::Unknown => text.s("esign.answer.unknown").to_string(),
        AnswerRefusal::Replayed => text.s("esign.answer.replayed").to_string(),
        AnswerRefusal::NotAccepted(code) => text.plain("esign.answer.not_accepted", &[("code", &code)]),
    }
}

/// What a workflow signatory's eSign came to, in the page's language.
fn esigned_words(esigned: &Esigned, text: Text) -> String {
    match esigned {
        Esigned::Cancelled => text.s("esign.done.cancelled").to_string(),
        Esigned::EspRefused { code, message, kind } => format!(
            "{} {}",
            text.plain("esign.done.esp_refused", &[("code", code), ("message", message)]),
            text.s(esp_kind_key(*kind))
        ),
        Esigned::Signed { completed: true } => text.s("esign.done.signed_everyone").to_string(),
        Esigned::Signed { completed: false } => text.s("esign.done.signed").to_string(),
    }
}

/// What the signer must correct in a field they fill in, in the page's language (the workflow
/// page's fields; the gateway's page has none, but eSign's refusals are shared).
pub(crate) fn field_refusal_words(refusal: &signet_domain::fields::FieldRefusal, text: Text) -> String {
    use signet_domain::fields::FieldRefusal;
    match refusal {
        FieldRefusal::FillIn { label } => text.plain("signer.field_fill_in", &[("label", label)]),
        FieldRefusal::Tick { label } => text.plain("signer.field_tick", &[("label", label)]),
        FieldRefusal::TooLong { label } => {
            let max = signet_domain::fields::MAX_TEXT_CHARS;
            text.plain(key("signer.field_too_long"), &[("label", label), ("max", &max)])
        }
        FieldRefusal::NotAnInput => text.s("signer.form_not_accepted").to_string(),
    }
}

/// What the signer reads about a certificate or signature their token gave, in the page's
/// language (the workflow signer page says the same problems with these words).
pub(crate) fn token_words(problem: &signet_services::gateway::token::TokenProblem, text: Text) -> String {
    use signet_services::gateway::token::TokenProblem;
    let words = match problem {
        TokenProblem::CannotSignNow => key("gateway_page.token_cannot_sign_now"),
        TokenProblem::NotPrepared(_) => key("gateway_page.token_not_prepared"),
        TokenProblem::SignAgain => key("gateway_page.token_again"),
        TokenProblem::NotEveryDocument => key("gateway_page.token_not_every_document"),
        TokenProblem::NotAccepted(_) => key("gateway_page.token_not_accepted"),
    };
    text.plain(words, &[("detail", &problem.detail())])
}

/// `POST /sign/g/{transaction}/{secret}/token/give-up` (form: `code`, 110-113): the signer
/// utility could not be used; the page's finding goes to Furl.
pub async fn token_give_up(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    link: GatewayLink,
    axum::Form(fields): axum::Form<std::collections::HashMap<String, String>>,
) -> Response {
    let code = fields.get("code").and_then(|c| c.trim().parse::<u16>().ok()).unwrap_or_default();
    match signet_services::gateway::token::give_up(&state, &link.open, code, &link.actor(ip)).await {
        Ok(delivery) => delivered(link.text, delivery),
        Err(_) => render(&state, &link, Some(link.text.s("gateway_page.not_utility_error").into())).await,
    }
}

/// `POST /sign/g/{transaction}/{secret}/pad/give-up`: the signature pad, the only eSignature
/// option of the request, is not connected: 117 to Furl.
pub async fn pad_give_up(State(state): State<Services>, ClientIp(ip): ClientIp, link: GatewayLink) -> Response {
    match transaction::pad_missing(&state, &link.open, &link.actor(ip)).await {
        Ok(delivery) => delivered(link.text, delivery),
        Err(why) => closed_page(link.text, why),
    }
}

#[cfg(test)]
mod esign_words_tests {
    use super::*;
    use signet_domain::Lang;

    #[test]
    fn esign_outcomes_and_refusals_are_worded_in_each_language() {
        let (en, hi) = (Text::new(Lang::En), Text::new(Lang::Hi));
        for gone in
            [EsignGone::DocumentCount, EsignGone::NoSuchRequest, EsignGone::MovedOn, EsignGone::DocumentsChanged]
        {
            assert_ne!(en.s(esign_gone_key(gone)), hi.s(esign_gone_key(gone)), "{gone:?}");
        }
        let refused = AnswerRefusal::NotAccepted("esign_forged");
        assert_eq!(answer_refusal_words(refused, en), "The eSign answer could not be accepted (esign_forged).");
        assert!(answer_refusal_words(refused, hi).contains("esign_forged"));
        let kind = signet_services::esign::EspRefusal::Authentication;
        let esp = Esigned::EspRefused { code: "ESP-944".into(), message: "user terminated".into(), kind };
        assert!(esigned_words(&esp, hi).contains("ESP-944") && !esigned_words(&esp, hi).contains("did not sign"));
        assert_eq!(esigned_words(&Esigned::Signed { completed: false }, en), "Signed with Aadhaar eSign. Thank you.");
        assert_ne!(esigned_words(&Esigned::Cancelled, en), esigned_words(&Esigned::Cancelled, hi));
    }

    /// Issue 39: every kind of ESP refusal, every ASP refusal code, every AuthMode and the
    /// refused-answer page have their words in English and in Hindi (not English again).
    #[test]
    fn esign_explanations_are_in_english_and_hindi() {
        use signet_services::esign::{AuthMode, EspRefusal};
        let (en, hi) = (Text::new(Lang::En), Text::new(Lang::Hi));
        let kinds = [
            EspRefusal::Cancelled,
            EspRefusal::Expired,
            EspRefusal::Authentication,
            EspRefusal::Request,
            EspRefusal::Service,
        ];
        let mut keys: Vec<&str> = kinds.into_iter().map(esp_kind_key).collect();
        for code in ["esign_forged", "esign_other_transaction", "esign_late", "esign_document"] {
            keys.push(asp_code_key(code));
        }
        for code in ["esign_certificate", "esign_replayed", "esign_malformed"] {
            keys.push(asp_code_key(code));
        }
        for key in ["esign.refused.title", "esign.refused.try_again", "esign.refused.give_up"] {
            keys.push(key);
        }
        keys.extend(["esign.refused.give_up_text", "esign.auth_mode.choose"]);
        let modes = [AuthMode::Otp, AuthMode::Fingerprint, AuthMode::Iris, AuthMode::Face];
        let labels = |text| super::super::views::auth_mode_choices(&modes, text);
        for (en, hi) in labels(en).iter().zip(labels(hi).iter()) {
            assert_ne!(en.label, hi.label, "{}", en.value);
        }
        let distinct: std::collections::BTreeSet<&str> = keys.iter().map(|key| en.s(key)).collect();
        assert_eq!(distinct.len(), keys.len(), "each explanation is its own");
        for key in keys {
            assert!(!en.s(key).is_empty() && en.s(key) != key, "{key}");
            assert_ne!(en.s(key), hi.s(key), "{key} has no Hindi");
        }
    }
}
