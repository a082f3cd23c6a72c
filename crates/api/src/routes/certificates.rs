//! A user's own certificates and automated signing (`EnrollmentCertificateUploadRequest`,
//! `CertificateResetRequest`, `AutomatedSigningData`); the rules are in
//! `signet_services::people::certificates`.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::{Error, SigningProfileId};
use signet_services::people::certificates::{self, AutomatedSigningChange, Enrolment};
use utoipa::ToSchema;

use crate::routes::documents::BrowserInfo;
use crate::routes::signing_profiles::{SigningProfile, view_profile};
use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiError, ApiResult, ProblemDetails};
use signet_http::extract::ApiJson;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EnrollmentCertificateUploadRequest {
    /// The PKCS#12 (.p12/.pfx), base64, at most 256 KiB: a certificate that may sign documents
    /// now and chains to the installation's trust list.
    #[schema(
        required = true,
        nullable = false,
        min_length = 1,
        content_encoding = "base64",
        content_media_type = "application/pkcs12"
    )]
    pub pfx_base64: Option<String>,
    /// Its password; used once to open the file and not stored.
    pub password: Option<String>,
    /// A name for it (default: the certificate's subject), at most 100 characters.
    #[schema(max_length = 100, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub certificate_name: Option<String>,
    pub browser_info: Option<BrowserInfo>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CertificateResetRequest {
    /// One of the caller's enrolled certificates.
    #[serde(rename = "profileID")]
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub profile_id: i64,
    /// The caller's account password, confirming the removal.
    pub password: Option<String>,
    pub browserinfo: Option<BrowserInfo>,
}

/// A user's automated signing: when enabled (with consent), their turn in a workflow is
/// signed server-side with their enrolled certificate and their default reason and location.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AutomatedSigningData {
    pub enabled: bool,
    /// One of the user's own enrolled certificates (required when enabled).
    #[schema(format = Int32, minimum = 1, maximum = 2147483647)]
    pub certificate_profile_id: Option<i64>,
    /// Must be true to enable; the time and address of the consent are recorded.
    pub consent_accepted: bool,
    /// The certificate's name (shown; ignored when sent).
    #[schema(max_length = 200)]
    pub certificate_name: Option<String>,
    #[schema(max_length = 200, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub default_signatory_location: Option<String>,
    #[schema(max_length = 200, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub default_signatory_reason: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/v1/users/me/certificates",
    operation_id = "enrollCertificate",
    tag = "users",
    security(("bearer" = [])),
    request_body = EnrollmentCertificateUploadRequest,
    responses(
        (status = 201, description = "Enrolled as a signing profile the user owns", body = SigningProfile),
        (status = 404, description = "The caller is an API client, not a user", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "No trust list is configured (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn enrol(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<EnrollmentCertificateUploadRequest>,
) -> ApiResult<(StatusCode, Json<SigningProfile>)> {
    let enrolment = Enrolment {
        pfx_base64: body.pfx_base64.as_deref(),
        password: body.password.as_deref(),
        certificate_name: body.certificate_name.as_deref(),
    };
    let row = certificates::enrol(&state.services, &auth.caller(), &enrolment).await?;
    Ok((StatusCode::CREATED, Json(view_profile(row))))
}

#[utoipa::path(
    post,
    path = "/api/v1/users/me/certificates/reset",
    operation_id = "resetCertificate",
    tag = "users",
    security(("bearer" = [])),
    request_body = CertificateResetRequest,
    responses(
        (status = 204, description = "The enrolled certificate is removed; automated signing with it stops"),
        (status = 404, description = "Not one of the caller's enrolled certificates", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn reset(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CertificateResetRequest>,
) -> ApiResult<StatusCode> {
    if !(1..=i64::from(i32::MAX)).contains(&body.profile_id) {
        return Err(ApiError::from(Error::field("profileID", "must be 1 to 2147483647")));
    }
    certificates::reset(
        &state.services,
        &auth.caller(),
        SigningProfileId::from(body.profile_id),
        body.password.as_deref().unwrap_or_default(),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn current(state: &AppState, auth: &Auth) -> ApiResult<AutomatedSigningData> {
    let (settings, name) = certificates::automated_signing(&state.services, &auth.caller()).await?;
    Ok(AutomatedSigningData {
        enabled: settings.auto_sign_enabled,
        certificate_profile_id: settings.auto_sign_profile_id.map(SigningProfileId::get),
        consent_accepted: settings.auto_sign_consent_at.is_some(),
        certificate_name: name,
        default_signatory_location: settings.auto_sign_location,
        default_signatory_reason: settings.auto_sign_reason,
    })
}

#[utoipa::path(
    get,
    path = "/api/v1/users/me/automated-signing",
    operation_id = "getAutomatedSigning",
    tag = "users",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's automated-signing settings", body = AutomatedSigningData),
        (status = 404, description = "The caller is an API client, not a user", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<AutomatedSigningData>> {
    Ok(Json(current(&state, &auth).await?))
}

#[utoipa::path(
    put,
    path = "/api/v1/users/me/automated-signing",
    operation_id = "setAutomatedSigning",
    tag = "users",
    security(("bearer" = [])),
    request_body = AutomatedSigningData,
    responses(
        (status = 200, description = "Saved (consent recorded with time and address when enabled)", body = AutomatedSigningData),
        (status = 404, description = "The caller is an API client, not a user", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn put(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<AutomatedSigningData>,
) -> ApiResult<Json<AutomatedSigningData>> {
    if body.certificate_profile_id.is_some_and(|id| !(1..=i64::from(i32::MAX)).contains(&id)) {
        return Err(ApiError::from(Error::field("certificateProfileId", "must be 1 to 2147483647")));
    }
    if body.certificate_name.as_deref().is_some_and(|n| n.chars().count() > 200) {
        return Err(ApiError::from(Error::field("certificateName", "must be at most 200 characters")));
    }
    let change = AutomatedSigningChange {
        enabled: body.enabled,
        profile_id: body.certificate_profile_id.map(SigningProfileId::from),
        consent_accepted: body.consent_accepted,
        reason: body.default_signatory_reason.as_deref(),
        location: body.default_signatory_location.as_deref(),
    };
    certificates::set_automated_signing(&state.services, &auth.caller(), &change).await?;
    Ok(Json(current(&state, &auth).await?))
}
