//! Token operations (OAuth 2.0 conventions): `client_credentials` and `password` grants,
//! rotating refresh tokens with reuse detection, revocation, and ending all sessions.

use std::net::IpAddr;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::Error;
use signet_domain::PrincipalId;
use signet_services::people::sessions::{self, Rotation};
use signet_services::records::PrincipalCredentials;
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::auth::jwt::PrincipalKind;
use signet_http::error::{ApiError, ApiResult, HttpCode, ProblemDetails};
use signet_http::extract::{ClientIp, JsonOrForm};

/// `POST /api/v1/auth/token` body (JSON or form).
#[derive(Debug, Deserialize, ToSchema)]
pub struct TokenRequest {
    /// `client_credentials` (with `client_id`, `client_secret`), `password` (with `username`,
    /// `password`) or `refresh_token` (with `refresh_token`).
    #[schema(schema_with = crate::routes::schemas::grant_type)]
    pub grant_type: String,
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    /// The user's email, for the `password` grant.
    pub username: Option<String>,
    pub password: Option<String>,
    pub refresh_token: Option<String>,
    /// The six-digit code e-mailed by `check-account`, for the `email_otp` grant (with `username`).
    pub otp: Option<String>,
    /// The authenticator app's six-digit code, for the `password` grant of a user with a second factor.
    pub totp: Option<String>,
    /// The one-time code a finished single sign-on handed the application, for the `sso_code` grant.
    pub code: Option<String>,
    /// Accepted for compatibility; access covers the tenant's API.
    pub scope: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RefreshRequest {
    pub refresh_token: String,
}

/// RFC 7009 revocation request.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RevokeRequest {
    pub token: String,
    pub token_type_hint: Option<String>,
}

/// RFC 7009's answer carries nothing: an empty JSON object.
#[derive(Debug, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRevoked {}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokenResponse {
    pub access_token: String,
    /// Always `Bearer`.
    pub token_type: String,
    /// Lifetime of the access token in seconds.
    pub expires_in: u64,
    pub refresh_token: String,
}

fn missing(field: &str) -> ApiError {
    ApiError::from(Error::field(field, "is required"))
}

#[utoipa::path(
    post,
    path = "/api/v1/auth/token",
    tag = "auth",
    request_body(content(
        (TokenRequest = "application/json"),
        (TokenRequest = "application/x-www-form-urlencoded")
    )),
    responses(
        (status = 200, description = "Tokens issued", body = TokenResponse),
        (status = 400, description = "Bad grant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 401, description = "Bad client credentials", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 429, description = "Too many attempts", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn token(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    JsonOrForm(request): JsonOrForm<TokenRequest>,
) -> ApiResult<Json<TokenResponse>> {
    state.ip_limiter.check(ip)?;
    grant(&state, ip, &request).await.map(Json)
}

/// The grant the request names, each with its required fields.
async fn grant(state: &AppState, ip: IpAddr, request: &TokenRequest) -> ApiResult<TokenResponse> {
    match request.grant_type.as_str() {
        "client_credentials" => {
            let client_id = request.client_id.as_deref().ok_or_else(|| missing("client_id"))?;
            let secret = request.client_secret.as_deref().ok_or_else(|| missing("client_secret"))?;
            client_credentials(state, ip, client_id, secret).await
        }
        "password" => {
            let username = request.username.as_deref().ok_or_else(|| missing("username"))?;
            let password = request.password.as_deref().ok_or_else(|| missing("password"))?;
            password_grant(state, ip, username, password, request.totp.as_deref()).await
        }
        "refresh_token" => {
            let refresh = request.refresh_token.as_deref().ok_or_else(|| missing("refresh_token"))?;
            rotate(state, refresh).await
        }
        "email_otp" => {
            let username = request.username.as_deref().ok_or_else(|| missing("username"))?;
            let otp = request.otp.as_deref().ok_or_else(|| missing("otp"))?;
            otp_grant(state, ip, username, otp).await
        }
        "sso_code" => {
            let code = request.code.as_deref().ok_or_else(|| missing("code"))?;
            match signet_services::people::sso::redeem(&state.services, code).await? {
                Some(account) => issue_new_session(state, &account, PrincipalKind::User).await,
                None => Err(ApiError::new(HttpCode::InvalidGrant, "this sign-in code has expired or was already used")),
            }
        }
        _ => Err(ApiError::new(
            HttpCode::UnsupportedGrantType,
            "grant_type must be client_credentials, password, email_otp, sso_code or refresh_token",
        )),
    }
}

/// Admits one login attempt (see [`signet_services::platform::limits::admit_attempt`]).
async fn admit_attempt(state: &AppState, account_key: &str, ip: IpAddr) -> ApiResult<String> {
    Ok(signet_services::platform::limits::admit_attempt(&state.services, account_key, ip).await?)
}

async fn client_credentials(state: &AppState, ip: IpAddr, client_id: &str, secret: &str) -> ApiResult<TokenResponse> {
    let account_key = admit_attempt(state, &format!("client:{client_id}"), ip).await?;
    match sessions::client_credentials(&state.services, &account_key, client_id, secret).await? {
        Some(p) => issue_new_session(state, &p, PrincipalKind::Client).await,
        // The failure was counted when the attempt was admitted.
        None => Err(ApiError::new(HttpCode::InvalidClient, "unknown client or wrong secret")),
    }
}

async fn password_grant(
    state: &AppState,
    ip: IpAddr,
    username: &str,
    password: &str,
    totp: Option<&str>,
) -> ApiResult<TokenResponse> {
    use signet_services::people::login::{PasswordSignIn, sign_in_with_password};
    match sign_in_with_password(&state.services, ip, username, password, totp).await? {
        PasswordSignIn::Accepted(p) => issue_new_session(state, &p, PrincipalKind::User).await,
        // One refusal whatever was wrong, so that it never confirms the password; a client
        // whose user has an authenticator app asks for its code and sends it with the password.
        PasswordSignIn::Refused => Err(ApiError::new(
            HttpCode::InvalidGrant,
            "wrong email or password, or the code of the account's authenticator app (totp) is missing or wrong",
        )),
    }
}

async fn otp_grant(state: &AppState, ip: IpAddr, username: &str, otp: &str) -> ApiResult<TokenResponse> {
    match signet_services::people::login::sign_in_with_code(&state.services, ip, username, otp).await? {
        Some(p) => issue_new_session(state, &p, PrincipalKind::User).await,
        None => Err(ApiError::new(HttpCode::InvalidGrant, "wrong email or code")),
    }
}

/// A new session (token family) for `p`: an access token and its first refresh token.
pub async fn issue_new_session(
    state: &AppState,
    p: &PrincipalCredentials,
    kind: PrincipalKind,
) -> ApiResult<TokenResponse> {
    let refresh = sessions::open(&state.services, p).await?;
    tokens(state, kind, p.id, p.tenant_id, &p.security_stamp, refresh)
}

/// The answer of a grant: a new access token beside the session's refresh token.
fn tokens(
    state: &AppState,
    kind: PrincipalKind,
    principal_id: PrincipalId,
    tenant_id: signet_domain::TenantId,
    stamp: &str,
    refresh: sessions::Refresh,
) -> ApiResult<TokenResponse> {
    let access_token = state.jwt.issue_access(kind, principal_id, tenant_id.get(), stamp)?;
    Ok(TokenResponse {
        access_token,
        token_type: "Bearer".into(),
        expires_in: state.jwt.ttl_secs(),
        refresh_token: refresh.token,
    })
}

/// Spends `refresh_token` for new tokens of its session (reuse revokes the whole family).
pub async fn rotate(state: &AppState, refresh_token: &str) -> ApiResult<TokenResponse> {
    let invalid = |detail: &str| ApiError::new(HttpCode::InvalidGrant, detail.to_string());
    match sessions::rotate(&state.services, refresh_token).await? {
        Rotation::Rotated { holder, refresh } => {
            let kind = PrincipalKind::parse(&holder.kind).ok_or_else(|| invalid("the account no longer exists"))?;
            tokens(state, kind, holder.principal_id, holder.tenant_id, &holder.security_stamp, refresh)
        }
        Rotation::Ended => Err(invalid("the account is disabled")),
        Rotation::Reused => Err(invalid("the refresh token was already used; its session has been revoked")),
        Rotation::Expired => Err(invalid("the refresh token has expired")),
        Rotation::Unknown => Err(invalid("the refresh token is not valid")),
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/auth/refresh",
    tag = "auth",
    request_body(content(
        (RefreshRequest = "application/json"),
        (RefreshRequest = "application/x-www-form-urlencoded")
    )),
    responses(
        (status = 200, description = "New tokens; the presented refresh token is spent", body = TokenResponse),
        (status = 400, description = "Unknown, expired or reused refresh token", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 429, description = "Too many requests", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn refresh(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    JsonOrForm(request): JsonOrForm<RefreshRequest>,
) -> ApiResult<Json<TokenResponse>> {
    state.ip_limiter.check(ip)?;
    rotate(&state, &request.refresh_token).await.map(Json)
}

#[utoipa::path(
    post,
    path = "/api/v1/auth/revoke",
    operation_id = "revokeToken",
    tag = "auth",
    request_body(content(
        (RevokeRequest = "application/json"),
        (RevokeRequest = "application/x-www-form-urlencoded")
    )),
    responses(
        (status = 200, description = "Revoked (also answered for unknown tokens, as RFC 7009 asks)", body = TokenRevoked),
        (status = 429, description = "Too many requests", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn revoke(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    JsonOrForm(request): JsonOrForm<RevokeRequest>,
) -> ApiResult<Json<TokenRevoked>> {
    state.ip_limiter.check(ip)?;
    let _ = request.token_type_hint;
    sessions::revoke(&state.services, &request.token).await?;
    Ok(Json(TokenRevoked {}))
}

#[utoipa::path(
    post,
    path = "/api/v1/auth/sessions/revoke",
    tag = "auth",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Every access and refresh token of the caller is revoked"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn revoke_sessions(State(state): State<AppState>, auth: Auth) -> ApiResult<StatusCode> {
    state.ip_limiter.check(auth.ip)?;
    if !sessions::end_own(&state.services, &auth.caller()).await? {
        return Err(ApiError::from(Error::not_found("principal")));
    }
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    get,
    path = "/api/v1/.well-known/jwks.json",
    tag = "auth",
    responses((status = 200, description = "The public keys that verify access tokens (JWKS)", body = serde_json::Value))
)]
pub async fn jwks(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(state.jwt.jwks())
}

/// A new password, with the token of a set-password link.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetPasswordRequest {
    /// The token from the link's address (its `token` parameter).
    #[schema(min_length = 1, max_length = 200)]
    pub token: String,
    /// 12 to 256 characters, not one of the commonest passwords from breaches.
    #[schema(min_length = 12, max_length = 256)]
    pub password: String,
}

#[utoipa::path(
    post,
    path = "/api/v1/auth/password",
    operation_id = "setPassword",
    tag = "auth",
    request_body = SetPasswordRequest,
    responses(
        (status = 204, description = "The password is set; earlier sessions of the user ended"),
        (status = 410, description = "The link has expired or was already used (`link_expired`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn set_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    signet_http::extract::ApiJson(request): signet_http::extract::ApiJson<SetPasswordRequest>,
) -> ApiResult<StatusCode> {
    state.ip_limiter.check(ip)?;
    signet_services::people::users::set_password(&state.services, &request.token, &request.password).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GetUserLoginModesRequest {
    #[schema(min_length = 1, max_length = 100, format = Email)]
    pub email_id: String,
}

/// How an address may sign in: the same for every address, so nothing tells whether an
/// account exists; a user's own mode is enforced when they sign in.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserLoginModes {
    pub email_id: String,
    /// `password` and `email_otp`, and `sso` when a provider serves the address's domain.
    pub login_modes: Vec<String>,
    /// The single sign-on provider serving the address's domain (at most one): `url` starts
    /// the sign-in (add `return_to` and `state` as the application needs).
    pub external_login_providers: Vec<crate::routes::users::ExternalLoginProvider>,
}

fn checked_email(field: &str, email: &str, max: usize) -> ApiResult<()> {
    if email.chars().count() > max || !signet_domain::workflow::is_valid_email(email) {
        return Err(ApiError::from(Error::field(field, "must be a valid e-mail address")));
    }
    Ok(())
}

#[utoipa::path(
    post,
    path = "/api/v1/auth/login-modes",
    operation_id = "getUserLoginModes",
    tag = "auth",
    request_body = GetUserLoginModesRequest,
    responses((status = 200, description = "The login modes offered for this address", body = UserLoginModes))
)]
pub async fn login_modes(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    signet_http::extract::ApiJson(request): signet_http::extract::ApiJson<GetUserLoginModesRequest>,
) -> ApiResult<Json<UserLoginModes>> {
    state.ip_limiter.check(ip)?;
    checked_email("emailId", &request.email_id, 100)?;
    let options = signet_services::people::login::login_options(&state.services, &request.email_id).await?;
    let providers = options.provider.iter().map(|p| {
        crate::routes::users::provider_view(
            &state,
            (p.id, &p.name, &p.display_name, p.disabled),
            Some(&request.email_id),
        )
    });
    Ok(Json(UserLoginModes {
        external_login_providers: providers.collect(),
        email_id: request.email_id,
        login_modes: options.modes.iter().map(|m| m.as_str().to_string()).collect(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CheckAuthRequest {
    #[schema(max_length = 254, format = Email)]
    pub email_id: Option<String>,
    /// 1 password, 2 e-mail code, 3 single sign-on.
    #[schema(minimum = 1, maximum = 3)]
    pub login_type: Option<i32>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckAuthResponse {
    pub login_type: i32,
    /// Whether this login type is offered for the address (not whether an account exists).
    pub available: bool,
}

#[utoipa::path(
    post,
    path = "/api/v1/auth/check-auth",
    operation_id = "checkAuth",
    tag = "auth",
    request_body = CheckAuthRequest,
    responses((status = 200, description = "Whether the login type is offered for the address", body = CheckAuthResponse))
)]
pub async fn check_auth(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    signet_http::extract::ApiJson(request): signet_http::extract::ApiJson<CheckAuthRequest>,
) -> ApiResult<Json<CheckAuthResponse>> {
    use signet_domain::user::LoginMode;
    state.ip_limiter.check(ip)?;
    if let Some(email) = &request.email_id {
        checked_email("emailId", email, 254)?;
    }
    let email = request.email_id.unwrap_or_default();
    let login_type = request.login_type.unwrap_or(1);
    let mode = match login_type {
        1 => LoginMode::Password,
        2 => LoginMode::EmailOtp,
        3 => LoginMode::Sso,
        _ => return Err(ApiError::from(Error::field("loginType", "must be 1 (password), 2 (e-mail code) or 3 (SSO)"))),
    };
    let available = signet_services::people::login::login_options(&state.services, &email).await?.modes.contains(&mode);
    Ok(Json(CheckAuthResponse { login_type, available }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckAccountRequest {
    #[serde(rename = "emailID")]
    #[schema(min_length = 1, max_length = 254, format = Email)]
    pub email_id: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CheckAccountResponse {
    pub message: String,
}

#[utoipa::path(
    post,
    path = "/api/v1/auth/check-account",
    operation_id = "checkAccount",
    tag = "auth",
    request_body = CheckAccountRequest,
    responses((status = 202, description = "The same answer for every address: an existing user gets a sign-in code or a set-password link by e-mail", body = CheckAccountResponse))
)]
pub async fn check_account(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    signet_http::extract::ApiJson(request): signet_http::extract::ApiJson<CheckAccountRequest>,
) -> ApiResult<(StatusCode, Json<CheckAccountResponse>)> {
    state.ip_limiter.check(ip)?;
    checked_email("emailID", &request.email_id, 254)?;
    signet_services::people::login::check_account(&state.services, ip, &request.email_id).await?;
    let message = "If an account with this address exists, a sign-in code or a link to set the password is on its way.";
    Ok((StatusCode::ACCEPTED, Json(CheckAccountResponse { message: message.into() })))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AuthorizeAppRequest {
    #[schema(min_length = 1, max_length = 100)]
    pub app_name: String,
    #[schema(min_length = 1, max_length = 200)]
    pub secret_key: String,
}

#[utoipa::path(
    post,
    path = "/api/v1/auth/authorize-app",
    operation_id = "authorizeApp",
    tag = "auth",
    request_body = AuthorizeAppRequest,
    responses(
        (status = 200, description = "Tokens with the application's role", body = TokenResponse),
        (status = 401, description = "Unknown application, wrong key or revoked (`invalid_client`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn authorize_app(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    signet_http::extract::ApiJson(request): signet_http::extract::ApiJson<AuthorizeAppRequest>,
) -> ApiResult<Json<TokenResponse>> {
    state.ip_limiter.check(ip)?;
    let bounded = |field: &str, value: &str, max: usize| {
        if value.is_empty() || value.chars().count() > max {
            Err(ApiError::from(Error::field(field, format!("must be 1 to {max} characters"))))
        } else {
            Ok(())
        }
    };
    bounded("appName", &request.app_name, 100)?;
    bounded("secretKey", &request.secret_key, 200)?;
    let account_key = admit_attempt(&state, &format!("app:{}", request.app_name.to_lowercase()), ip).await?;
    match signet_services::integrations::applications::authorize(
        &state.services,
        &request.app_name,
        &request.secret_key,
    )
    .await?
    {
        Some(p) => {
            sessions::clear_failures(&state.services, &account_key).await?;
            issue_new_session(&state, &p, PrincipalKind::Client).await.map(Json)
        }
        None => Err(ApiError::new(HttpCode::InvalidClient, "unknown application or wrong secret key")),
    }
}

/// A self-service trial sign-up.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FreeTrialRequest {
    #[schema(max_length = 150, format = Email)]
    pub email_id: String,
    /// 12 to 150 characters, not containing the address, not among the commonest passwords.
    #[schema(min_length = 12, max_length = 150)]
    pub password: String,
    /// The person's name, 1 to 150 characters.
    #[schema(
        min_length = 1,
        max_length = 150,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub name: String,
    /// Not accepted (must be empty): a token obtained elsewhere proves nothing to Signet; sign
    /// up through single sign-on with `isSSO` and `ssoProvider` instead.
    #[schema(max_length = 0)]
    pub microsoft_access_key: Option<String>,
    /// Not accepted (must be empty), as `microsoftAccessKey`.
    #[schema(max_length = 0)]
    pub google_access_key: Option<String>,
    /// Sign-up through single sign-on: the provider `ssoProvider` proves the address instead of
    /// an e-mailed link; the answer's `redirectUrl` sends the person there. Absent: false.
    #[serde(rename = "isSSO", default)]
    pub is_sso: bool,
    /// One of the installation's sign-up providers (`sso_signup_providers`), with `isSSO`.
    #[schema(max_length = 40)]
    pub sso_provider: Option<String>,
    /// Where the person came from (a campaign), kept with the sign-up; at most 100 characters.
    #[schema(max_length = 100)]
    pub source: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/v1/auth/free-trial",
    operation_id = "startFreeTrial",
    tag = "auth",
    request_body = FreeTrialRequest,
    responses(
        (status = 202, description = "The same answer for every address: a new one gets a link to verify it, which starts the trial; through single sign-on, `redirectUrl` sends the person to the provider", body = FreeTrialResponse),
        (status = 409, description = "Free trials are not offered here, or e-mail is not configured (`state_conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn free_trial(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    signet_http::extract::ApiJson(request): signet_http::extract::ApiJson<FreeTrialRequest>,
) -> ApiResult<(StatusCode, Json<FreeTrialResponse>)> {
    state.ip_limiter.check(ip)?;
    if request.source.as_deref().is_some_and(|s| s.chars().count() > 100) {
        return Err(ApiError::from(Error::field("source", "must be at most 100 characters")));
    }
    if request.password.chars().count() < 12 {
        return Err(ApiError::from(Error::field("password", "must be 12 to 150 characters")));
    }
    for (field, key) in
        [("microsoftAccessKey", &request.microsoft_access_key), ("googleAccessKey", &request.google_access_key)]
    {
        if key.as_deref().is_some_and(|k| !k.is_empty()) {
            return Err(ApiError::from(Error::field(field, "is not accepted: sign up with isSSO and ssoProvider")));
        }
    }
    let trial = signet_services::people::trial::FreeTrial {
        email: &request.email_id,
        password: &request.password,
        name: &request.name,
        is_sso: request.is_sso,
        sso_provider: request.sso_provider.as_deref(),
        source: request.source.as_deref(),
    };
    let redirect_url = signet_services::people::trial::sign_up(&state.services, &trial).await?;
    let message = match redirect_url {
        Some(_) => "Confirm your address at your sign-in provider to start the trial.",
        None => "If this address can start a trial, a link to confirm it is on its way.",
    };
    Ok((StatusCode::ACCEPTED, Json(FreeTrialResponse { message: message.into(), redirect_url })))
}

/// What a sign-up answers.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FreeTrialResponse {
    pub message: String,
    /// Through single sign-on: where to send the person (the provider proves the address).
    pub redirect_url: Option<String>,
}
