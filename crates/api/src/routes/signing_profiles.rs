//! Automated-signing certificate profiles: a tenant uploads a PKCS#12 for one signer's
//! address; workflows that name the profile (`hsmCertificateId`) have that signer sign
//! server-side with it when their turn comes.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_services::records::SigningProfileRow;
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};
use signet_services::workflows::profiles::{self, NewProfile};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateSigningProfileRequest {
    /// A name for the profile, 1 to 100 characters (trimmed), no control characters.
    #[schema(
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub name: String,
    /// The signer whose signatures this certificate makes.
    #[schema(format = Email, max_length = 254)]
    pub email_id: String,
    /// The PKCS#12 (.p12/.pfx) file, base64, at most 256 KiB.
    #[schema(min_length = 1, content_encoding = "base64", content_media_type = "application/pkcs12")]
    pub pkcs12: String,
    /// Its password; used once to open the file and not stored.
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SigningProfile {
    /// Use as `hsmCertificateId` in `InitiateWorkFlowData`.
    pub profile_id: i64,
    pub name: String,
    pub email_id: String,
    /// The certificate's subject.
    pub subject: String,
    /// When the certificate expires (milliseconds since the epoch).
    pub not_after: i64,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
}

/// The API view of a stored profile.
pub fn view_profile(row: SigningProfileRow) -> SigningProfile {
    SigningProfile {
        profile_id: row.id.get(),
        name: row.name,
        email_id: row.email,
        subject: row.subject,
        not_after: row.not_after,
        created_at: row.created_at,
        revoked_at: row.revoked_at,
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/signing-profiles",
    operation_id = "createSigningProfile",
    tag = "workflows",
    security(("bearer" = [])),
    request_body = CreateSigningProfileRequest,
    responses(
        (status = 201, description = "Stored; the key is kept encrypted, the password is not kept", body = SigningProfile),
        (status = 400, description = "Not a PKCS#12, wrong password, unusable key or invalid fields", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<CreateSigningProfileRequest>,
) -> ApiResult<(StatusCode, Json<SigningProfile>)> {
    let new = NewProfile { name: &body.name, email: &body.email_id, pkcs12: &body.pkcs12, password: body.password };
    let row = profiles::create(&state.services, &auth.caller(), new).await?;
    Ok((StatusCode::CREATED, Json(view_profile(row))))
}

#[utoipa::path(
    get,
    path = "/api/v1/signing-profiles",
    operation_id = "listSigningProfiles",
    tag = "workflows",
    security(("bearer" = [])),
    responses((status = 200, description = "The tenant's profiles, revoked ones included", body = Vec<SigningProfile>))
)]
pub async fn list(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Vec<SigningProfile>>> {
    Ok(Json(profiles::visible(&state.services, &auth.caller()).await?.into_iter().map(view_profile).collect()))
}

#[utoipa::path(
    delete,
    path = "/api/v1/signing-profiles/{profileId}",
    operation_id = "revokeSigningProfile",
    tag = "workflows",
    security(("bearer" = [])),
    params(("profileId" = i64, Path, description = "Profile id", minimum = 1)),
    responses(
        (status = 204, description = "Revoked; workflows naming it no longer sign with it"),
        (status = 404, description = "No such active profile in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn revoke(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<StatusCode> {
    profiles::revoke(&state.services, &auth.caller(), signet_domain::SigningProfileId::from(id)).await?;
    Ok(StatusCode::NO_CONTENT)
}
