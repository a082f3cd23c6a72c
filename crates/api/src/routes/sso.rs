//! Single sign-on providers of a tenant (OpenID Connect): saved with the e-mail domains they
//! serve and the application addresses a finished sign-in may return to. The sign-in itself
//! runs through Signet's pages (`/sso/{providerId}/start`, `/sso/callback`) and ends with a
//! one-time code for `grant_type=sso_code` at `/api/v1/auth/token`.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use signet_domain::SsoProviderId;
use signet_services::people::sso;
use signet_services::records::SsoProviderRow;
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};

// The OpenAPI patterns below state exactly the rules `signet_services::people::sso` checks.

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SsoProviderRequest {
    /// Short name, unique in the tenant: lower-case letters, digits and hyphens.
    #[schema(min_length = 1, max_length = 40, pattern = "^[a-z0-9][a-z0-9-]{0,39}$")]
    pub name: String,
    /// What the sign-in button says ("Bank staff login").
    #[schema(
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\x00-\\x20\\x7f-\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub display_name: String,
    /// The provider's issuer identifier; Signet reads `<issuer>/.well-known/openid-configuration`
    /// now and refuses an issuer whose document it cannot fetch or use.
    #[schema(
        max_length = 500,
        pattern = "^https?://[^/?#@\\s\\x00-\\x1f\\x7f-\\x9f]+[^?#\\s\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    pub issuer: String,
    /// The client id Signet is registered with at the provider.
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]+$")]
    pub client_id: String,
    /// The client secret (`client_secret_basic`); none for a public client (PKCE only). Kept
    /// sealed; never shown again. When a saved provider is changed, leaving it out (or null)
    /// keeps the saved secret and an empty string removes it (a public client from then on).
    #[schema(max_length = 1000, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub client_secret: Option<String>,
    /// The e-mail domains whose addresses sign in through this provider; each must be the
    /// domain of a user of the tenant, served by no other provider of the tenant and proven by
    /// no other tenant. The provider serves a domain once the tenant has proven it
    /// (`/api/v1/sso-providers/domain-proofs/{domain}`).
    #[schema(min_items = 1, max_items = 20, inline)]
    pub email_domains: Vec<EmailDomain>,
    /// Application addresses a finished sign-in may return to with its one-time code (exact
    /// match); the first is the default. Paths on Signet itself are always allowed.
    #[schema(max_items = 10, inline)]
    pub redirect_uris: Option<Vec<RedirectUri>>,
}

impl SsoProviderRequest {
    /// The domains and return addresses as the services take them.
    fn lists(&self) -> (Vec<String>, Vec<String>) {
        let domains = self.email_domains.iter().map(|d| d.0.clone()).collect();
        let redirects = self.redirect_uris.iter().flatten().map(|r| r.0.clone()).collect();
        (domains, redirects)
    }

    fn input<'a>(&'a self, domains: &'a [String], redirects: &'a [String]) -> sso::ProviderInput<'a> {
        sso::ProviderInput {
            name: &self.name,
            display_name: &self.display_name,
            issuer: &self.issuer,
            client_id: &self.client_id,
            client_secret: self.client_secret.as_deref(),
            email_domains: domains,
            redirect_uris: redirects,
        }
    }
}

/// A lower-case domain name of two labels or more.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(max_length = 253, pattern = r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$")]
pub struct EmailDomain(pub String);

/// An absolute http(s) URL without credentials or fragment.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(max_length = 500, pattern = "^https?://[^/?#@\\s\\x00-\\x1f\\x7f-\\x9f]+[^#\\s\\x00-\\x1f\\x7f-\\x9f]*$")]
pub struct RedirectUri(pub String);

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SsoProvider {
    pub provider_id: i64,
    pub name: String,
    pub display_name: String,
    pub issuer: String,
    pub client_id: String,
    pub has_client_secret: bool,
    pub email_domains: Vec<String>,
    pub redirect_uris: Vec<String>,
    /// Register this address as the redirect URI at the provider.
    pub callback_url: String,
    /// Where a sign-in starts (query: `return_to`, `state`, `login_hint`).
    pub start_url: String,
    pub disabled: bool,
    pub created_at: i64,
}

fn view(state: &AppState, row: SsoProviderRow, domains: Vec<String>) -> SsoProvider {
    SsoProvider {
        provider_id: row.id.get(),
        start_url: sso::start_url(&state.services, row.id),
        callback_url: format!("{}{}", state.services.config.public_base(), sso::CALLBACK_PATH),
        has_client_secret: row.client_secret.is_some(),
        redirect_uris: row.redirect_uri_list().map(str::to_string).collect(),
        name: row.name,
        display_name: row.display_name,
        issuer: row.issuer,
        client_id: row.client_id,
        email_domains: domains,
        disabled: row.disabled,
        created_at: row.created_at,
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/sso-providers",
    operation_id = "createSsoProvider",
    tag = "auth",
    security(("bearer" = [])),
    request_body = SsoProviderRequest,
    responses(
        (status = 201, description = "Saved; its discovery document was read", body = SsoProvider),
        (status = 400, description = "A field breaks its rule, or the issuer's discovery document cannot be fetched or used (`validation_failed`)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The tenant has a provider of this name, a domain is served by another provider, or another tenant has proven a domain (`conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<SsoProviderRequest>,
) -> ApiResult<(StatusCode, Json<SsoProvider>)> {
    let (domains, redirects) = body.lists();
    let input = body.input(&domains, &redirects);
    let (row, domains) = sso::create_provider(&state.services, &auth.caller(), &input).await?;
    Ok((StatusCode::CREATED, Json(view(&state, row, domains))))
}

#[utoipa::path(
    get,
    path = "/api/v1/sso-providers",
    operation_id = "listSsoProviders",
    tag = "auth",
    security(("bearer" = [])),
    responses((status = 200, description = "The tenant's single sign-on providers", body = Vec<SsoProvider>))
)]
pub async fn list(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Vec<SsoProvider>>> {
    let rows = signet_services::people::sso::providers(&state.services, &auth.caller()).await?;
    Ok(Json(rows.into_iter().map(|(row, domains)| view(&state, row, domains)).collect()))
}

#[utoipa::path(
    put,
    path = "/api/v1/sso-providers/{providerId}",
    operation_id = "updateSsoProvider",
    tag = "auth",
    security(("bearer" = [])),
    params(("providerId" = i32, Path, description = "The provider", minimum = 1, maximum = 2147483647)),
    request_body = SsoProviderRequest,
    responses(
        (status = 200, description = "Changed with the rules of saving; its discovery document was read again. A new issuer ends the accounts' links to the old one and the sign-ins under way", body = SsoProvider),
        (status = 400, description = "A field breaks its rule, or the issuer's discovery document cannot be fetched or used (`validation_failed`)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such provider in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The tenant has another provider of this name, a domain is served by another provider, another tenant has proven a domain, or the provider was changed meanwhile (`conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn update(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<SsoProviderRequest>,
) -> ApiResult<Json<SsoProvider>> {
    let (domains, redirects) = body.lists();
    let input = body.input(&domains, &redirects);
    let (row, domains) = sso::update_provider(&state.services, &auth.caller(), SsoProviderId::from(id), &input).await?;
    Ok(Json(view(&state, row, domains)))
}

#[utoipa::path(
    delete,
    path = "/api/v1/sso-providers/{providerId}",
    operation_id = "deleteSsoProvider",
    tag = "auth",
    security(("bearer" = [])),
    params(("providerId" = i32, Path, description = "The provider", minimum = 1, maximum = 2147483647)),
    responses(
        (status = 204, description = "Deleted with its domains and links; its users sign in otherwise"),
        (status = 404, description = "No such provider in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn delete(State(state): State<AppState>, auth: Auth, ApiPath(id): ApiPath<i64>) -> ApiResult<StatusCode> {
    sso::delete_provider(&state.services, &auth.caller(), SsoProviderId::from(id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A tenant's proof that it owns an e-mail domain: publish `recordValue` as a TXT record at
/// `recordName`, then check it. Only a proven domain's providers serve sign-ins.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SsoDomainProof {
    pub domain: String,
    /// `pending` until the TXT record was found, then `proven`.
    #[schema(pattern = "^(pending|proven)$")]
    pub status: String,
    /// Where the TXT record goes: `_signet-challenge.<domain>`.
    pub record_name: String,
    /// What the TXT record holds: `signet-domain-proof=<value>`.
    pub record_value: String,
    pub created_at: i64,
    pub proven_at: Option<i64>,
}

fn proof_view(row: signet_services::records::SsoDomainProofRow) -> SsoDomainProof {
    SsoDomainProof {
        status: if row.proven_at.is_some() { "proven" } else { "pending" }.into(),
        record_name: sso::domains::record_name(&row.domain),
        record_value: sso::domains::record_value(&row.token),
        domain: row.domain,
        created_at: row.created_at,
        proven_at: row.proven_at,
    }
}

#[utoipa::path(
    get,
    path = "/api/v1/sso-providers/domain-proofs",
    operation_id = "listSsoDomainProofs",
    tag = "auth",
    security(("bearer" = [])),
    responses((status = 200, description = "The tenant's proofs of its e-mail domains, pending and proven", body = Vec<SsoDomainProof>))
)]
pub async fn list_proofs(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Vec<SsoDomainProof>>> {
    let rows = sso::domains::proofs(&state.services, &auth.caller()).await?;
    Ok(Json(rows.into_iter().map(proof_view).collect()))
}

#[utoipa::path(
    put,
    path = "/api/v1/sso-providers/domain-proofs/{domain}",
    operation_id = "startSsoDomainProof",
    tag = "auth",
    security(("bearer" = [])),
    params(("domain" = String, Path, description = "A lower-case domain name of two labels or more", max_length = 253, pattern = "^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")),
    responses(
        (status = 200, description = "The proof, started now or before: publish its TXT record, then check it", body = SsoDomainProof),
        (status = 400, description = "Not a lower-case domain name (`validation_failed`)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "Another tenant has proven the domain (`conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn start_proof(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(domain): ApiPath<String>,
) -> ApiResult<Json<SsoDomainProof>> {
    Ok(Json(proof_view(sso::domains::start_proof(&state.services, &auth.caller(), &domain).await?)))
}

#[utoipa::path(
    post,
    path = "/api/v1/sso-providers/domain-proofs/{domain}/check",
    operation_id = "checkSsoDomainProof",
    tag = "auth",
    security(("bearer" = [])),
    params(("domain" = String, Path, description = "A lower-case domain name of two labels or more", max_length = 253, pattern = "^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")),
    responses(
        (status = 200, description = "Proven: the TXT record holds the proof's value (or the domain was proven before)", body = SsoDomainProof),
        (status = 400, description = "Not a lower-case domain name (`validation_failed`)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "The tenant has started no proof of this domain", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The TXT record does not hold the value (yet) (`state_conflict`), or another tenant has proven the domain (`conflict`)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 503, description = "The DNS resolver cannot be asked now (`service_unavailable`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn check_proof(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath(domain): ApiPath<String>,
) -> ApiResult<Json<SsoDomainProof>> {
    Ok(Json(proof_view(sso::domains::check_proof(&state.services, &auth.caller(), &domain).await?)))
}

/// The tenant's single sign-on settings.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SsoSettings {
    /// Whether a sign-in through the tenant's provider stands in for the user's second factor
    /// (authenticator app). Default `false`: users with an authenticator app give its code
    /// after the provider too. Administrators give it anyway unless their provider asserts a
    /// multi-factor sign-in (the ID token's `amr`). Only administrators change it.
    pub replaces_second_factor: bool,
}

#[utoipa::path(
    get,
    path = "/api/v1/sso-providers/settings",
    operation_id = "getSsoSettings",
    tag = "auth",
    security(("bearer" = [])),
    responses((status = 200, description = "The tenant's single sign-on settings", body = SsoSettings))
)]
pub async fn get_settings(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<SsoSettings>> {
    let replaces_second_factor = sso::replaces_second_factor(&state.services, &auth.caller()).await?;
    Ok(Json(SsoSettings { replaces_second_factor }))
}

#[utoipa::path(
    put,
    path = "/api/v1/sso-providers/settings",
    operation_id = "putSsoSettings",
    tag = "auth",
    security(("bearer" = [])),
    request_body = SsoSettings,
    responses(
        (status = 200, description = "Changed", body = SsoSettings),
        (status = 403, description = "Only administrators change these settings (`forbidden`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn put_settings(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<SsoSettings>,
) -> ApiResult<Json<SsoSettings>> {
    sso::set_replaces_second_factor(&state.services, &auth.caller(), body.replaces_second_factor).await?;
    Ok(Json(body))
}
