//! The workflow signer page: `/sign/w/{signatoryId}/{secret}`. The link is the signer's
//! credential (an HMAC, see `links`); the page shows the documents and takes a typed, drawn or
//! uploaded signature with consent, a decline, a delegation, a comment or an attachment.
//!
//! The pages speak the signer's language (see `link`): their words come from the pages'
//! catalogue (`crates/web/text/`, keys `signer.*`), the services' refusals too: they come as
//! facts ([`SignerRefusal`], [`SignerObstacle`], [`TokenRefusal`]), never as English words.

pub mod copy;
pub mod embed;
mod guide;
mod link;
mod otp;

use askama::Template;
use axum::extract::{Request, State};
use axum::http::header::USER_AGENT;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde_json::json;
use signet_domain::fields::FieldKind;
use signet_domain::placement::{FieldInputs, INPUTS_DETAIL_KEY};
use signet_domain::{Error, ErrorCode};
use signet_http::extract::{ApiPath, ClientIp};
use signet_services::Services;
use signet_services::gateway::seal::Mark;
use signet_services::records::AfterSignature;
use signet_services::workflows::placement;
use signet_services::workflows::session::LinkClosed;
use signet_services::workflows::signer::{self, SignerFormError, SignerObstacle, SignerRefusal};
use signet_services::workflows::token::{TokenFailure, TokenRefusal};

use crate::form::{Methods, Submission, UploadRule, mark_from, read_submission};
use crate::page::MessagePage;
use crate::text::{Text, key};
use guide::{DocumentView, Kept, SpotWhat};
pub use link::{PageError, SignerLink, page_lang};
pub use otp::{otp_send, otp_verify};
use signet_services::esign::EsignRefused;
pub use signet_services::workflows::signer::MAX_SIGNER_ATTACHMENT;

#[derive(Template)]
#[template(path = "workflow_sign.html")]
struct SignPage {
    /// The page's words, in its language.
    text: Text,
    /// What the forms' addresses end with (`?lang=`), so their answers keep the language.
    lang_query: String,
    /// The address the language switch leads to (with `?lang=`).
    switch_to: String,
    requester: String,
    workflow_name: String,
    reference: Option<String>,
    /// The sender's message to the signers, when they wrote one.
    message: Option<String>,
    signer_name: String,
    signer_email: String,
    base: String,
    error: Option<String>,
    /// The documents, each with its pages and the places that ask for the signer.
    documents: Vec<DocumentView>,
    /// How many places ask the signer to act (the guide's steps).
    steps: usize,
    attachments: Vec<String>,
    requested_attachments: Vec<String>,
    /// The electronic signature control (type, draw, upload) is offered.
    electronic: bool,
    /// What the signer sent when the form came back refused.
    kept: Kept,
    /// This signer signs with Aadhaar eSign (the only method offered then).
    esign: bool,
    /// The ESP's `AuthMode`s to choose from (empty when it offers one).
    auth_modes: Vec<crate::signer::gateway::views::AuthModeChoice>,
    /// This signer signs with their crypto token through the signer utility (the only method).
    token: bool,
    token_give_up: bool,
    /// The fields the signer fills in that no page shows (a document past the guided ones),
    /// and the form the fields go with.
    fields: Vec<FieldInput>,
    fields_form: &'static str,
    /// The fields Signet fills in (initials, date, name, e-mail), by their labels.
    filled_for_you: Vec<String>,
    /// What the last form did, when it went well (a code sent, the phone confirmed).
    notice: Option<String>,
    /// The step "confirm your phone with a code by SMS", while the signer still has to.
    otp: Option<otp::OtpStep>,
    /// The delegation form asks for the delegate's mobile number: the signer was asked for a
    /// code by SMS, and so is whoever they hand on to.
    delegate_mobile: bool,
}

/// A text or checkbox field on the signer page; `index` is its position in the placement.
pub struct FieldInput {
    pub index: usize,
    pub label: String,
    pub checkbox: bool,
    pub required: bool,
    /// What the signer had typed when the form came back refused.
    pub value: String,
}

/// `connect-src` names the signer utility's loopback addresses, which the token form calls.
const PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
    frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; \
    connect-src 'self' https://127.0.0.1:45763 https://127.0.0.1:45764 https://127.0.0.1:45765 https://127.0.0.1:45766";

fn html(status: StatusCode, body: String) -> Response {
    let mut response = (status, Html(body)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(PAGE_CSP));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A page with a title and one message, in English (the gateway's and sign-in's answers).
pub fn message(status: StatusCode, title: &str, text: &str) -> Response {
    let body =
        MessagePage { title, message: text, next: None, text: Text::EN }.render().unwrap_or_else(|_| text.to_string());
    html(status, body)
}

/// A signer page with the catalogue's `title` and one message, in `text`'s language.
pub fn message_in(text: Text, status: StatusCode, title: &str, said: &str) -> Response {
    let page = MessagePage { title: text.s(title), message: said, next: None, text };
    html(status, page.render().unwrap_or_else(|_| said.to_string()))
}

fn user_agent(headers: &HeaderMap) -> String {
    headers.get(USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("").chars().take(300).collect()
}

/// What the signer reads for a failure no fact names: the services' words are English and
/// meant for the logs, so the page says in its own language only that the form was not taken.
fn not_accepted(error: &Error, text: Text) -> String {
    tracing::warn!(%error, "a signer's form was not accepted");
    text.s("signer.form_not_accepted").into()
}

/// An obstacle the signer met (a limit, a request that moved on), in the page's language.
fn obstacle_text(obstacle: &SignerObstacle, text: Text) -> String {
    match obstacle {
        SignerObstacle::NotNow => text.s("signer.not_now").into(),
        SignerObstacle::TooManyComments { max } => text.plain("signer.too_many_comments", &[("max", max)]),
        SignerObstacle::TooManyAttachments { max } => text.plain("signer.too_many_attachments", &[("max", max)]),
        SignerObstacle::NoMoreDelegation { max: 0 } => text.s("signer.no_delegation").into(),
        SignerObstacle::NoMoreDelegation { max } => text.plain("signer.no_more_delegation", &[("max", max)]),
        SignerObstacle::DocumentNotSignable { document } => {
            text.plain("signer.document_not_signable", &[("document", document)])
        }
        SignerObstacle::DocumentsChanged => text.s("signer.token_documents_changed").into(),
    }
}

/// A form's refusal in the page's language.
fn refusal_text(refusal: SignerRefusal, text: Text) -> String {
    text.s(refusal_key(refusal)).to_string()
}

fn refusal_key(refusal: SignerRefusal) -> &'static str {
    match refusal {
        SignerRefusal::Reason => key("signer.need_reason"),
        SignerRefusal::InvalidEmail => key("signer.need_email"),
        SignerRefusal::DelegateToSelf => key("signer.not_yourself"),
        SignerRefusal::AlreadySigns => key("signer.already_signs"),
        SignerRefusal::Comment => key("signer.comment_length"),
        SignerRefusal::AttachmentTooLarge => key("signer.attachment_too_large"),
        SignerRefusal::InvalidMobile => key("signer.need_mobile_number"),
        SignerRefusal::MobileNeeded => key("signer.need_their_mobile"),
        SignerRefusal::PhoneNotConfirmed => key("signer.otp_needed"),
        SignerRefusal::SignWithEsign => key("signer.sign_with_esign"),
        SignerRefusal::SignWithToken => key("signer.sign_with_token"),
    }
}

/// The signer page, with a message about the last form when it was refused.
async fn render(state: &Services, link: &SignerLink, error: Option<String>) -> Response {
    render_kept(state, link, error, Kept::default()).await
}

/// The signer page with a refusal and the signature form as the signer left it.
async fn render_kept(state: &Services, link: &SignerLink, error: Option<String>, kept: Kept) -> Response {
    render_page(state, link, error, None, kept).await
}

/// The signer page with a refusal or a notice of what the last form did.
async fn render_page(
    state: &Services,
    link: &SignerLink,
    error: Option<String>,
    notice: Option<String>,
    mut kept: Kept,
) -> Response {
    let otp = otp::step(state, link).await;
    let content = signer::page_content(state, &link.session).await;
    let esign = signet_services::workflows::esign::required(&link.session);
    let token = signet_services::workflows::token::required(&link.session);
    let placement = &link.session.placement;
    if kept.mode.is_empty() {
        kept.typed_name = link.session.signatory.name.clone();
    }
    let spots = signet_services::workflows::guide::spots(state, &link.session, &content.documents).await;
    let previews = crate::preview::available();
    let mut seen = std::collections::HashSet::new();
    let documents: Vec<DocumentView> = content
        .documents
        .iter()
        .enumerate()
        .map(|(index, d)| {
            let shown = if previews { crate::preview::preview_pages(d.page_count as usize) } else { Vec::new() };
            let sheets = match spots.get(index) {
                Some(found) => guide::sheets(found, &shown, placement, &kept, &mut seen),
                None => Vec::new(),
            };
            DocumentView { id: d.id.get(), name: d.name.clone(), pages: d.page_count, sheets }
        })
        .collect();
    let steps = documents
        .iter()
        .flat_map(|d| d.sheets.iter())
        .flat_map(|s| s.spots.iter())
        .filter(|s| s.what.is_step())
        .count();
    let named = |kind: &str| content.attachments.iter().filter(|a| a.kind == kind).map(|a| a.name.clone()).collect();
    let (inputs, filled): (Vec<_>, Vec<_>) =
        placement.fields.iter().enumerate().partition(|(_, f)| f.asks_the_signer());
    let fields = inputs
        .into_iter()
        .filter(|(index, _)| !seen.contains(index))
        .map(|(index, f)| FieldInput {
            index,
            label: f.label().to_string(),
            checkbox: f.kind == FieldKind::Checkbox,
            required: f.required,
            value: kept.fields.get(&index).cloned().unwrap_or_default(),
        })
        .collect();
    let mut filled_for_you: Vec<String> = Vec::new();
    for (_, field) in filled {
        if !filled_for_you.iter().any(|label| label == field.label()) {
            filled_for_you.push(field.label().to_string());
        }
    }
    let page = SignPage {
        text: link.text,
        lang_query: link.lang_query(),
        switch_to: link.base.clone(),
        requester: content.requester,
        workflow_name: link.session.workflow.name.clone(),
        reference: link.session.workflow.reference_no.clone(),
        message: signet_services::workflows::initiate::message_of(&link.session.workflow),
        signer_name: link.session.signatory.name.clone(),
        signer_email: link.session.signatory.email.clone(),
        base: link.base.clone(),
        error: error.clone(),
        documents,
        steps,
        attachments: named("initiator"),
        requested_attachments: named("requested"),
        electronic: !(esign || token),
        kept,
        esign,
        auth_modes: if esign {
            crate::signer::gateway::views::auth_mode_choices(&signet_services::esign::auth_modes(state), link.text)
        } else {
            Vec::new()
        },
        token,
        token_give_up: false,
        fields,
        // The inputs on the pages belong to the signing form (the token's script reads them).
        fields_form: if esign {
            "esign-form"
        } else if token {
            ""
        } else {
            "sign-form"
        },
        filled_for_you,
        notice,
        otp,
        delegate_mobile: link.session.signatory.otp_sms,
    };
    let status = if error.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    match page.render() {
        Ok(body) => html(status, body),
        Err(_) => PageError::closed(LinkClosed::Broken, link.text).into_response(),
    }
}

/// After a comment or an attachment: the page again (with the refusal or the limit reached,
/// in the page's language), else the failure page titled `title`.
async fn after_action(
    state: &Services,
    link: &SignerLink,
    outcome: Result<(), SignerFormError>,
    title: &'static str,
) -> Result<Response, PageError> {
    match outcome {
        Ok(()) => Ok(render(state, link, None).await),
        Err(SignerFormError::Refused(refusal)) => Ok(render(state, link, Some(refusal_text(refusal, link.text))).await),
        Err(SignerFormError::Stopped(obstacle, _)) => {
            Ok(render(state, link, Some(obstacle_text(&obstacle, link.text))).await)
        }
        Err(SignerFormError::Failed(error)) => Err(PageError::failed(title, link, error)),
    }
}

/// The failure page titled `title` for an obstacle met on a form that leaves the page (a
/// signature, a decline, a delegation), with the status its error always had.
fn stopped(title: &'static str, link: &SignerLink, obstacle: &SignerObstacle, error: &Error) -> PageError {
    PageError::stopped(title, link, error.code(), obstacle_text(obstacle, link.text))
}

/// Records a real interaction with the page (see [`viewed`]).
async fn record_view(state: &Services, link: &SignerLink, ip: std::net::IpAddr, headers: &HeaderMap, how: &str) {
    signer::record_view(state, &link.session, &link.session.actor(ip), &user_agent(headers), how).await;
}

/// `GET /sign/w/{signatoryId}/{secret}`. Showing the page records nothing: e-mail security
/// scanners fetch links too, so "viewed" waits for a real interaction ([`viewed`], or any
/// action posted from the page).
pub async fn show(State(state): State<Services>, link: SignerLink) -> Response {
    render(&state, &link, None).await
}

/// `POST /sign/w/{signatoryId}/{secret}/viewed`: sent by the page's script once the page is
/// shown in a browser (a scanner's GET of the link does not run it).
pub async fn viewed(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    link: SignerLink,
) -> StatusCode {
    record_view(&state, &link, ip, &headers, "page").await;
    StatusCode::NO_CONTENT
}

/// `GET /sign/w/{signatoryId}/{secret}/documents/{documentId}`: the current version.
pub async fn document(
    State(state): State<Services>,
    link: SignerLink,
    ApiPath((_, _, document_id)): ApiPath<(i64, String, i64)>,
) -> Result<Response, PageError> {
    let (bytes, _) = signer::current_document(&state, &link.session, document_id.into())
        .await
        .map_err(|closed| PageError::closed(closed, link.text))?;
    Ok(crate::preview::inline_pdf(bytes))
}

/// `GET /sign/w/{signatoryId}/{secret}/documents/{documentId}/pages/{page}`: a rendered page.
pub async fn page_image(
    State(state): State<Services>,
    link: SignerLink,
    ApiPath((_, _, document_id, page)): ApiPath<(i64, String, i64, usize)>,
) -> Result<Response, PageError> {
    let (bytes, pages) = signer::current_document(&state, &link.session, document_id.into())
        .await
        .map_err(|closed| PageError::closed(closed, link.text))?;
    Ok(crate::preview::page_response(&bytes, page, pages).await)
}

fn signed_response(link: &SignerLink, after: &AfterSignature) -> Response {
    let session = &link.session;
    // In a frame, the application that frames the page hears of the signature instead.
    if let Some(url) = session.workflow.settings.redirect_url().filter(|_| !link.embedded) {
        return Redirect::to(url).into_response();
    }
    let mut page = signed_page(link, after);
    page.extensions_mut().insert(embed::PageEvent::Signed);
    page
}

/// The page that follows a signature.
fn signed_page(link: &SignerLink, after: &AfterSignature) -> Response {
    let text = link.text;
    match after {
        // The last signature: the way to the signer's copy of the signed documents.
        AfterSignature::Completed => {
            let copy = format!("{}/copy{}", link.base, link.lang_query());
            let said = text.s("signer.signed_everyone");
            let next = Some((copy.as_str(), text.s("signer.download_copy")));
            let page = MessagePage { title: text.s("signer.signed"), message: said, next, text };
            html(StatusCode::OK, page.render().unwrap_or_else(|_| said.to_string()))
        }
        AfterSignature::Continuing { .. } => {
            message_in(text, StatusCode::OK, key("signer.signed"), text.s("signer.signed_others_next"))
        }
    }
}

/// The signer's mark and the record of how it was given, from the submitted form; the text
/// of what the signer must correct otherwise.
fn signing_input(
    submission: &Submission,
    headers: &HeaderMap,
    link: &SignerLink,
) -> Result<(Mark, serde_json::Value), String> {
    let text = link.text;
    let mark = mark_from(submission, Methods::ALL, UploadRule::AnySize).map_err(|refusal| refusal.words(text))?;
    let inputs = field_inputs(submission.fields.iter());
    if let Some(said) = field_refusal(link, &inputs) {
        return Err(said);
    }
    let detail = json!({
        "method": submission.field("mode").unwrap_or(""),
        "consent": true,
        "userAgent": user_agent(headers),
        "signatureType": "electronic",
        (INPUTS_DETAIL_KEY): inputs,
    });
    Ok((mark, detail))
}

/// What the signer must correct in the fields they fill in, in their language.
fn field_refusal(link: &SignerLink, inputs: &FieldInputs) -> Option<String> {
    let (_, refusal) = placement::refused_input(&link.session.placement, inputs)?;
    Some(crate::signer::gateway::page::field_refusal_words(&refusal, link.text))
}

/// The signer's field inputs (`field<N>`) among a form's values.
fn field_inputs<'a>(values: impl Iterator<Item = (&'a String, &'a String)>) -> FieldInputs {
    values
        .filter_map(|(name, value)| {
            let index = name.strip_prefix("field")?.parse::<usize>().ok()?;
            Some((index, value.chars().take(signet_domain::fields::MAX_TEXT_CHARS + 1).collect()))
        })
        .take(signet_domain::fields::MAX_FIELDS)
        .collect()
}

/// `POST /sign/w/{signatoryId}/{secret}/sign`.
pub async fn sign(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    link: SignerLink,
    request: Request,
) -> Result<Response, PageError> {
    record_view(&state, &link, ip, &headers, "sign").await;
    let Ok(submission) = read_submission(request, &state).await else {
        return Ok(render(&state, &link, Some(link.text.s("signer.form_unreadable").into())).await);
    };
    let (mark, detail) = match signing_input(&submission, &headers, &link) {
        Ok(input) => input,
        Err(text) => return Ok(render_kept(&state, &link, Some(text), Kept::from_submission(&submission)).await),
    };
    let kept = || Kept::from_submission(&submission);
    match signer::sign(&state, &link.session, mark, &link.session.actor(ip), detail).await {
        Ok(after) => Ok(signed_response(&link, &after)),
        Err(SignerFormError::Refused(refusal)) => {
            Ok(render_kept(&state, &link, Some(refusal_text(refusal, link.text)), kept()).await)
        }
        // A document that cannot take the signature (its placement, say) is for the signer to see.
        Err(SignerFormError::Stopped(obstacle @ SignerObstacle::DocumentNotSignable { .. }, _)) => {
            Ok(render_kept(&state, &link, Some(obstacle_text(&obstacle, link.text)), kept()).await)
        }
        Err(SignerFormError::Stopped(obstacle, error)) => {
            Err(stopped(key("signer.not_signed"), &link, &obstacle, &error))
        }
        Err(SignerFormError::Failed(error)) if error.code() == ErrorCode::ValidationFailed => {
            Ok(render_kept(&state, &link, Some(not_accepted(&error, link.text)), kept()).await)
        }
        Err(SignerFormError::Failed(error)) => Err(PageError::failed(key("signer.not_signed"), &link, error)),
    }
}

/// `POST /sign/w/{signatoryId}/{secret}/decline`.
pub async fn decline(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    link: SignerLink,
    request: Request,
) -> Result<Response, PageError> {
    record_view(&state, &link, ip, &headers, "decline").await;
    let submission = read_submission(request, &state).await.unwrap_or_default();
    match signer::decline(&state, &link.session, submission.field("reason"), &link.session.actor(ip)).await {
        Ok(()) => {
            let mut page =
                message_in(link.text, StatusCode::OK, key("signer.declined"), link.text.s("signer.declined_text"));
            page.extensions_mut().insert(embed::PageEvent::Declined);
            Ok(page)
        }
        Err(SignerFormError::Refused(refusal)) => {
            Ok(render(&state, &link, Some(refusal_text(refusal, link.text))).await)
        }
        Err(SignerFormError::Stopped(obstacle, error)) => {
            Err(stopped(key("signer.not_declined"), &link, &obstacle, &error))
        }
        Err(SignerFormError::Failed(error)) => Err(PageError::failed(key("signer.not_declined"), &link, error)),
    }
}

/// `POST /sign/w/{signatoryId}/{secret}/delegate`.
pub async fn delegate(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    link: SignerLink,
    request: Request,
) -> Result<Response, PageError> {
    record_view(&state, &link, ip, &headers, "delegate").await;
    let submission = read_submission(request, &state).await.unwrap_or_default();
    let email = submission.field("email").unwrap_or("");
    let form = signer::DelegateForm {
        email,
        name: submission.field("name"),
        mobile: submission.field("mobile"),
        reason: submission.field("reason"),
    };
    match signer::delegate(&state, &link.session, form, &link.session.actor(ip)).await {
        Ok(_) => {
            let said = link.text.plain("signer.delegated_text", &[("email", &email.trim())]);
            Ok(message_in(link.text, StatusCode::OK, key("signer.delegated"), &said))
        }
        Err(SignerFormError::Refused(refusal)) => {
            Ok(render(&state, &link, Some(refusal_text(refusal, link.text))).await)
        }
        Err(SignerFormError::Stopped(obstacle, error)) => {
            Err(stopped(key("signer.not_delegated"), &link, &obstacle, &error))
        }
        Err(SignerFormError::Failed(error)) => Err(PageError::failed(key("signer.not_delegated"), &link, error)),
    }
}

/// `POST /sign/w/{signatoryId}/{secret}/comment`: a comment on the workflow's first document.
pub async fn comment(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    link: SignerLink,
    request: Request,
) -> Result<Response, PageError> {
    record_view(&state, &link, ip, &headers, "comment").await;
    let submission = read_submission(request, &state).await.unwrap_or_default();
    let text = submission.field("comment").unwrap_or("");
    let outcome = signer::comment(&state, &link.session, text, &link.session.actor(ip)).await;
    after_action(&state, &link, outcome, key("signer.comment_not_added")).await
}

/// `POST /sign/w/{signatoryId}/{secret}/attachment`: a document the sender asked for.
pub async fn attachment(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    link: SignerLink,
    request: Request,
) -> Result<Response, PageError> {
    record_view(&state, &link, ip, &headers, "attachment").await;
    let Ok(submission) = read_submission(request, &state).await else {
        return Ok(render(&state, &link, Some(link.text.s("signer.attachment_unreadable").into())).await);
    };
    let Some((file_name, bytes)) = submission.file.as_ref() else {
        return Ok(render(&state, &link, Some(link.text.s("signer.choose_a_file").into())).await);
    };
    let actor = link.session.actor(ip);
    let outcome = signer::attach(&state, &link.session, file_name, submission.field("name"), bytes, &actor).await;
    after_action(&state, &link, outcome, key("signer.attachment_not_added")).await
}

/// `POST /sign/w/{signatoryId}/{secret}/esign`: a signer who signs with Aadhaar eSign goes to
/// the ESP with Signet's signed request for all their documents.
pub async fn start_esign(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    link: SignerLink,
    request: Request,
) -> Result<Response, PageError> {
    record_view(&state, &link, ip, &headers, "esign").await;
    let submission = read_submission(request, &state).await.unwrap_or_default();
    let inputs = field_inputs(submission.fields.iter());
    if let Some(said) = field_refusal(&link, &inputs) {
        return Ok(render(&state, &link, Some(said)).await);
    }
    let Ok(auth_mode) = crate::signer::gateway::views::chosen_auth_mode(submission.field("authMode")) else {
        return Ok(render(&state, &link, Some(link.text.s("signer.form_not_accepted").into())).await);
    };
    match signet_services::workflows::esign::start(&state, &link.session, &inputs, auth_mode).await {
        Ok(redirect) => Ok(crate::signer::gateway::views::esp_page(link.text, &redirect)),
        Err(EsignRefused::Gone(gone)) => {
            let said = link.text.s(crate::signer::gateway::page::esign_gone_key(gone)).to_string();
            Ok(render(&state, &link, Some(said)).await)
        }
        Err(EsignRefused::PhoneNotConfirmed) => {
            Ok(render(&state, &link, Some(link.text.s("signer.otp_needed").into())).await)
        }
        Err(EsignRefused::Esp { code, message, .. }) => {
            let said = link.text.plain("gateway_page.esp_refused", &[("code", &code), ("message", &message)]);
            Ok(render(&state, &link, Some(said)).await)
        }
        Err(EsignRefused::Input(refusal)) => {
            let said = crate::signer::gateway::page::field_refusal_words(&refusal, link.text);
            Ok(render(&state, &link, Some(said)).await)
        }
        Err(EsignRefused::Unavailable) => {
            Ok(render(&state, &link, Some(link.text.s("signer.esign_unavailable").into())).await)
        }
        Err(refused) => {
            Err(PageError::failed(key("signer.not_signed"), &link, Error::internal(format!("{refused:?}"))))
        }
    }
}

/// `POST /sign/w/{signatoryId}/{secret}/token/prepare` (JSON `{certificate, chain}`): every
/// document prepared for the token's certificate; answers `{id, hashesToSign}`.
pub async fn token_prepare(State(state): State<Services>, link: SignerLink, body: axum::body::Bytes) -> Response {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    let read = serde_json::from_slice::<serde_json::Value>(&body).ok().and_then(|v| {
        let decode = |s: &serde_json::Value| s.as_str().and_then(|s| STANDARD.decode(s).ok());
        let certificate = decode(&v["certificate"])?;
        let chain = v["chain"].as_array().map(|a| a.iter().filter_map(decode).take(5).collect()).unwrap_or_default();
        let fields: std::collections::HashMap<String, String> =
            serde_json::from_value(v["fields"].clone()).unwrap_or_default();
        Some((certificate, chain, field_inputs(fields.iter())))
    });
    let refused = |said: String| (StatusCode::BAD_REQUEST, axum::Json(json!({ "error": said }))).into_response();
    let Some((certificate, chain, inputs)) = read else {
        return refused(link.text.s("gateway_page.certificate_unreadable").to_string());
    };
    // The fields first, as the other signing forms do: their refusal in the signer's language.
    if let Some(said) = field_refusal(&link, &inputs) {
        return refused(said);
    }
    match signet_services::workflows::token::prepare(&state, &link.session, certificate, chain, &inputs).await {
        Ok(prepared) => axum::Json(json!({"id": prepared.id, "hashesToSign": prepared.hashes_to_sign})).into_response(),
        Err(TokenFailure::Refused(refusal)) => refused(token_words(&refusal, link.text)),
        Err(TokenFailure::Failed(error @ (Error::Validation(_) | Error::Rejected { .. }))) => {
            refused(not_accepted(&error, link.text))
        }
        Err(TokenFailure::Failed(error)) => {
            tracing::error!(%error, "preparing a token signature failed");
            let said = link.text.s("signer.token_not_prepared");
            (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(json!({ "error": said }))).into_response()
        }
    }
}

/// `POST /sign/w/{signatoryId}/{secret}/token/complete` (form: `id`, `signatures`): the
/// token's signatures embedded and the signature recorded.
pub async fn token_complete(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    link: SignerLink,
    axum::Form(fields): axum::Form<std::collections::HashMap<String, String>>,
) -> Result<Response, PageError> {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    let id = fields.get("id").cloned().unwrap_or_default();
    let signatures: Vec<Vec<u8>> = fields
        .get("signatures")
        .map(|s| s.split(',').take(50).filter_map(|s| STANDARD.decode(s.trim()).ok()).collect())
        .unwrap_or_default();
    let actor = link.session.actor(ip);
    match signet_services::workflows::token::complete(&state, &link.session, &id, signatures, &actor).await {
        Ok(after) => Ok(signed_response(&link, &after)),
        Err(TokenFailure::Refused(refusal)) => Ok(render(&state, &link, Some(token_words(&refusal, link.text))).await),
        Err(TokenFailure::Failed(error @ (Error::Validation(_) | Error::Rejected { .. }))) => {
            Ok(render(&state, &link, Some(not_accepted(&error, link.text))).await)
        }
        Err(TokenFailure::Failed(error)) => Err(PageError::failed(key("signer.not_signed"), &link, error)),
    }
}

/// What the signer reads about their token's signature, in the page's language: the
/// gateway's words where the problem is the same, the signer page's own where it is not.
fn token_words(refusal: &TokenRefusal, text: Text) -> String {
    match refusal {
        TokenRefusal::NotHere => text.s("gateway_page.token_not_here").to_string(),
        TokenRefusal::PhoneNotConfirmed => text.s("signer.otp_needed").to_string(),
        TokenRefusal::Problem(problem) => crate::signer::gateway::page::token_words(problem, text),
        TokenRefusal::NothingToSign => text.s("signer.token_nothing_to_sign").to_string(),
        TokenRefusal::DocumentNotPrepared { document, detail } => {
            text.plain("signer.token_document_not_prepared", &[("document", document), ("detail", detail)])
        }
        TokenRefusal::DocumentsChanged => text.s("signer.token_documents_changed").to_string(),
        TokenRefusal::NotNow => text.s("signer.not_now").to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use signet_domain::Lang;

    /// Every obstacle a signer meets, with a sample of what it carries.
    fn obstacles() -> Vec<SignerObstacle> {
        vec![
            SignerObstacle::NotNow,
            SignerObstacle::TooManyComments { max: 2 },
            SignerObstacle::TooManyAttachments { max: 1 },
            SignerObstacle::NoMoreDelegation { max: 3 },
            SignerObstacle::NoMoreDelegation { max: 0 },
            SignerObstacle::DocumentNotSignable { document: "Deed.pdf".into() },
            SignerObstacle::DocumentsChanged,
        ]
    }

    #[test]
    fn every_obstacle_has_words_in_english_and_hindi() {
        let hindi = Text::new(Lang::Hi);
        for obstacle in obstacles() {
            let (en, hi) = (obstacle_text(&obstacle, Text::EN), obstacle_text(&obstacle, hindi));
            assert!(!en.is_empty() && !en.contains('{'), "{obstacle:?}: {en}");
            assert!(!hi.is_empty() && !hi.contains('{'), "{obstacle:?}: {hi}");
            assert_ne!(en, hi, "{obstacle:?} has no Hindi words");
        }
        // The limits name themselves as the page always did, in English.
        assert_eq!(
            obstacle_text(&SignerObstacle::TooManyComments { max: 2 }, Text::EN),
            "At most 2 comments per signer."
        );
        let document = obstacle_text(&SignerObstacle::DocumentNotSignable { document: "Deed.pdf".into() }, hindi);
        assert!(document.contains("Deed.pdf"), "{document}");
    }

    #[test]
    fn a_token_signer_too_late_reads_it_in_their_language() {
        let (en, hi) =
            (token_words(&TokenRefusal::NotNow, Text::EN), token_words(&TokenRefusal::NotNow, Text::new(Lang::Hi)));
        assert!(!en.is_empty() && !hi.is_empty() && en != hi, "{en} / {hi}");
    }

    #[test]
    fn a_failure_no_fact_names_never_shows_the_services_english() {
        let error = Error::rejected(ErrorCode::ValidationFailed, "an English detail for the logs");
        let said = not_accepted(&error, Text::new(Lang::Hi));
        assert!(!said.contains("English detail"), "{said}");
        assert_eq!(said, Text::new(Lang::Hi).s("signer.form_not_accepted"));
    }
}
