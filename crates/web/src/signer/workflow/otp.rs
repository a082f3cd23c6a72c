//! The signer page's step "confirm your phone" (`signet_services::workflows::otp`): for a
//! signer the sender asked for a code by SMS, the page offers to send the code to their phone
//! (its last digits shown) and a labelled field to type it; the services refuse every
//! signature until it is given. Refusals are worded here, in the page's language.

use std::collections::HashMap;

use axum::extract::State;
use axum::response::Response;
use signet_http::extract::ClientIp;
use signet_services::Services;
use signet_services::workflows::otp::{self, OtpFailure, OtpRefusal, OtpStatus};

use super::guide::Kept;
use super::{PageError, SignerLink, render_page};
use crate::text::{Text, key};

/// What the page shows of the step, while the signer still has to give a code.
pub struct OtpStep {
    /// The last four digits of the number the code goes to.
    pub last_digits: String,
    /// A code is waiting to be typed (the field to type it is shown).
    pub code_live: bool,
}

/// The step to show, if the signer must still give a code. A failure to read it shows the
/// whole step (the services refuse the signature anyway).
pub(super) async fn step(state: &Services, link: &SignerLink) -> Option<OtpStep> {
    match otp::status(state, &link.session).await {
        Ok(OtpStatus::NotAsked | OtpStatus::Verified) => None,
        Ok(OtpStatus::Needed { last_digits, code_live }) => Some(OtpStep { last_digits, code_live }),
        Err(error) => {
            tracing::warn!(%error, "the signer's code status could not be read");
            Some(OtpStep { last_digits: String::new(), code_live: true })
        }
    }
}

/// A refusal in the page's language.
fn refusal_words(text: Text, refusal: OtpRefusal) -> String {
    match refusal {
        OtpRefusal::NotAsked => text.s("signer.otp_not_asked").into(),
        OtpRefusal::Unavailable => text.s("signer.otp_unavailable").into(),
        OtpRefusal::TooSoon { wait_secs } => text.plain("signer.otp_too_soon", &[("s", &wait_secs)]),
        OtpRefusal::DailyLimit => text.s("signer.otp_daily_limit").into(),
        OtpRefusal::NotSent => text.s("signer.otp_not_sent").into(),
        OtpRefusal::Malformed => text.s("signer.otp_malformed").into(),
        OtpRefusal::NoCode => text.s("signer.otp_no_code").into(),
        OtpRefusal::Expired => text.s("signer.otp_expired").into(),
        OtpRefusal::Dead => text.s("signer.otp_dead").into(),
        OtpRefusal::Wrong { left } => text.plain("signer.otp_wrong", &[("left", &left)]),
    }
}

/// The page again after a step of the code: with `notice` when it went well, with the
/// refusal in the page's words when not; a failure on our side is the failure page.
async fn after(
    state: &Services,
    link: &SignerLink,
    outcome: Result<String, OtpFailure>,
) -> Result<Response, PageError> {
    match outcome {
        Ok(notice) => Ok(render_page(state, link, None, Some(notice), Kept::default()).await),
        Err(OtpFailure::Refused(refusal)) => {
            let said = refusal_words(link.text, refusal);
            Ok(render_page(state, link, Some(said), None, Kept::default()).await)
        }
        Err(OtpFailure::Failed(error)) => Err(PageError::failed(key("signer.otp_failed"), link, error)),
    }
}

/// `POST /sign/w/{signatoryId}/{secret}/otp/send`: texts the signer a new code.
pub async fn otp_send(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    link: SignerLink,
) -> Result<Response, PageError> {
    let actor = link.session.actor(ip);
    let sent = otp::send_code(&state, &link.session, link.text.lang(), &actor).await;
    let outcome = sent.map(|digits| link.text.plain("signer.otp_sent", &[("digits", &digits)]));
    after(&state, &link, outcome).await
}

/// `POST /sign/w/{signatoryId}/{secret}/otp/verify` (form: `code`): checks the typed code.
pub async fn otp_verify(
    State(state): State<Services>,
    ClientIp(ip): ClientIp,
    link: SignerLink,
    axum::Form(fields): axum::Form<HashMap<String, String>>,
) -> Result<Response, PageError> {
    let typed = fields.get("code").map(String::as_str).unwrap_or_default();
    let checked = otp::check_code(&state, &link.session, typed, &link.session.actor(ip)).await;
    let outcome = checked.map(|()| link.text.s("signer.otp_verified").to_string());
    after(&state, &link, outcome).await
}
