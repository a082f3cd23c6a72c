//! Certificates and automated signing (docs/access.md, "Certificates and automated
//! signing"): the signed-in person's own certificates (a PKCS#12 that chains to the
//! installation's trust list, enrolled, and removed with their account password) and their
//! automated signing, as `/api/v1/users/me/certificates` and `/api/v1/users/me/automated-signing`
//! (everyone's); and the organisation's automated-signing profiles, as
//! `/api/v1/signing-profiles` (`manage_settings`).

use askama::Template;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::Response;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use signet_domain::access::Permission;
use signet_domain::{Error, SigningProfileId};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::people::certificates::{self, AutomatedSigningChange, Enrolment};
use signet_services::workflows::profiles::{self, NewProfile};

use super::session::see_other;
use super::{FormFields, Frame, Session, failure, page_error, read_multipart, render, shown_again};
use crate::text::Text;

/// One of the person's own certificates.
struct CertificateView {
    id: i64,
    name: String,
    subject: String,
    expires: String,
    chosen: bool,
}

/// One of the organisation's profiles.
struct ProfileView {
    id: i64,
    name: String,
    email: String,
    subject: String,
    expires: String,
    created: String,
    /// Enrolled by a user as their own certificate (else uploaded for the organisation).
    enrolled: bool,
    revoked: Option<String>,
}

#[derive(Template)]
#[template(path = "console/signing.html")]
struct SigningPage {
    frame: Frame,
    error: Option<String>,
    certificates: Vec<CertificateView>,
    automated: bool,
    automated_name: Option<String>,
    reason: String,
    location: String,
    may_change: bool,
    profiles: Vec<ProfileView>,
}

async fn signing_page(state: &AppState, session: &Session, error: Option<String>) -> Result<SigningPage, Error> {
    let caller = session.auth.caller();
    let (settings, automated_name) = certificates::automated_signing(&state.services, &caller).await?;
    let rows = profiles::visible(&state.services, &caller).await?;
    let certificates = rows
        .iter()
        .filter(|p| p.owner_id == Some(caller.principal_id) && p.revoked_at.is_none())
        .map(|p| CertificateView {
            id: p.id.get(),
            name: p.name.clone(),
            subject: p.subject.clone(),
            expires: session.when(p.not_after),
            chosen: settings.auto_sign_profile_id == Some(p.id),
        })
        .collect();
    let may_change = session.auth.access.allows(Permission::ManageSettings);
    let profiles = rows
        .into_iter()
        .filter(|_| may_change)
        .map(|p| ProfileView {
            id: p.id.get(),
            expires: session.when(p.not_after),
            created: session.when(p.created_at),
            enrolled: p.owner_id.is_some(),
            revoked: p.revoked_at.map(|at| session.when(at)),
            name: p.name,
            email: p.email,
            subject: p.subject,
        })
        .collect();
    Ok(SigningPage {
        frame: session.frame("/app/signing"),
        error,
        certificates,
        automated: settings.auto_sign_enabled,
        automated_name,
        reason: settings.auto_sign_reason.unwrap_or_default(),
        location: settings.auto_sign_location.unwrap_or_default(),
        may_change,
        profiles,
    })
}

/// `GET /app/signing`: everyone's (their own certificates); the profiles for `manage_settings`.
pub async fn show(State(state): State<AppState>, session: Session) -> Response {
    match signing_page(&state, &session, None).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

/// After a change: back to the page, or the page again with the refusal the person can correct.
async fn answer<T>(state: &AppState, session: &Session, outcome: Result<T, Error>) -> Response {
    match outcome {
        Ok(_) => see_other("/app/signing"),
        Err(error) => shown_again(error, async |text| signing_page(state, session, Some(text)).await).await,
    }
}

/// A form with a PKCS#12 file (`certificate`) from someone `permission` allows, with this
/// session's token: its fields and the file as base64 (empty when none was chosen).
async fn certificate_form(
    session: &Session,
    permission: Permission,
    multipart: Multipart,
) -> Result<(FormFields, String), Response> {
    if let Some(refused) = session.refuses_without(permission) {
        return Err(refused);
    }
    let (fields, files) = read_multipart(session.text, multipart, "certificate", "certificate.p12")
        .await
        .map_err(|text| page_error(StatusCode::BAD_REQUEST, &text))?;
    if let Some(refused) = session.refuses_form(fields.get("csrf")) {
        return Err(refused);
    }
    let p12 = files.first().map(|(_, bytes)| STANDARD.encode(bytes)).unwrap_or_default();
    Ok((fields, p12))
}

/// A password as typed (spaces are part of it).
fn untrimmed<'a>(fields: &'a FormFields, name: &'a str) -> &'a str {
    fields.all(name).next().unwrap_or_default()
}

/// A profile id as the API takes it (1 to 2147483647).
fn profile_id(words: Text, field: &str, text: &str) -> Result<SigningProfileId, Error> {
    text.parse::<i64>()
        .ok()
        .filter(|id| (1..=i64::from(i32::MAX)).contains(id))
        .map(SigningProfileId::from)
        .ok_or_else(|| Error::field(field, words.s("signing.choose_a_certificate")))
}

/// `POST /app/signing/certificates` (multipart): `certificate` (the PKCS#12), `password`,
/// `name`; enrolled as the person's own, as `POST /api/v1/users/me/certificates`.
pub async fn enrol(State(state): State<AppState>, session: Session, multipart: Multipart) -> Response {
    let (fields, p12) = match certificate_form(&session, Permission::Authenticated, multipart).await {
        Ok(form) => form,
        Err(refused) => return refused,
    };
    let enrolment = Enrolment {
        pfx_base64: Some(&p12),
        password: Some(untrimmed(&fields, "password")),
        certificate_name: Some(fields.get("name")),
    };
    let enrolled = certificates::enrol(&state.services, &session.auth.caller(), &enrolment).await;
    answer(&state, &session, enrolled).await
}

/// `POST /app/signing/certificates/remove`: `certificate` (one of the person's), `password`
/// (their account's), as `POST /api/v1/users/me/certificates/reset`.
pub async fn remove(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::Authenticated, fields.get("csrf")) {
        return refused;
    }
    let removed = async {
        let id = profile_id(session.text, "profileID", fields.get("certificate"))?;
        certificates::reset(&state.services, &session.auth.caller(), id, untrimmed(&fields, "password")).await
    }
    .await;
    answer(&state, &session, removed).await
}

/// `POST /app/signing/automated`: `enabled`, `certificate` (a profile id), `consent`, `reason`,
/// `location`, as `PUT /api/v1/users/me/automated-signing`.
pub async fn automated(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::Authenticated, fields.get("csrf")) {
        return refused;
    }
    let saved = async {
        let profile_id = match fields.get("certificate") {
            "" => None,
            id => Some(profile_id(session.text, "certificateProfileId", id)?),
        };
        let change = AutomatedSigningChange {
            enabled: fields.get("enabled") == "on",
            profile_id,
            consent_accepted: fields.get("consent") == "on",
            reason: Some(fields.get("reason")),
            location: Some(fields.get("location")),
        };
        certificates::set_automated_signing(&state.services, &session.auth.caller(), &change).await
    }
    .await;
    answer(&state, &session, saved).await
}

/// `POST /app/signing/profiles` (multipart): `name`, `email` (the signer), `certificate` (the
/// PKCS#12), `password`, as `POST /api/v1/signing-profiles`.
pub async fn create_profile(State(state): State<AppState>, session: Session, multipart: Multipart) -> Response {
    let (fields, p12) = match certificate_form(&session, Permission::ManageSettings, multipart).await {
        Ok(form) => form,
        Err(refused) => return refused,
    };
    let new = NewProfile {
        name: fields.get("name"),
        email: fields.get("email"),
        pkcs12: &p12,
        password: untrimmed(&fields, "password").to_string(),
    };
    let created = profiles::create(&state.services, &session.auth.caller(), new).await;
    answer(&state, &session, created).await
}

#[derive(serde::Deserialize)]
pub struct RevokeForm {
    csrf: String,
}

/// `POST /app/signing/profiles/{id}/revoke`, as `DELETE /api/v1/signing-profiles/{id}`:
/// workflows naming the profile no longer sign with it.
pub async fn revoke_profile(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    axum::Form(form): axum::Form<RevokeForm>,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, &form.csrf) {
        return refused;
    }
    let revoked = profiles::revoke(&state.services, &session.auth.caller(), SigningProfileId::from(id)).await;
    answer(&state, &session, revoked).await
}
