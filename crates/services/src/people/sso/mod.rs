//! Single sign-on through a tenant's own OpenID Connect provider (authorization code flow with
//! PKCE). An administrator saves the provider (its issuer is checked through its discovery
//! document) with the e-mail domains it serves; the login-mode lookups then offer it for
//! addresses of those domains. A sign-in goes: Signet's start address -> the provider -> Signet's
//! callback, which exchanges the code, validates the ID token, finds the account (by the
//! provider's subject once linked; first by the verified e-mail address, within the provider's
//! tenant only) and hands the application a one-time code for `grant_type=sso_code`.
//!
//! What a provider may do is bounded (the rules are `signet_domain::authority::sso`): it serves
//! a domain only once its tenant proved the domain with a DNS TXT record ([`domains`]); it links
//! a first sign-in only to an account whose role its last saver could have granted (their
//! access is recorded when it is saved); and it stands in for the account's second factor only
//! where the tenant says so, for administrators only when the ID token's `amr` asserts a
//! multi-factor sign-in. Otherwise a user with an authenticator app gives its code at Signet
//! after the provider ([`finish_second_factor`]) before the application gets its code.
//!
//! Nothing of a sign-in under way is stored but the hash of its state: the nonce and the PKCE
//! verifier are derived from the state with a key of the platform, and the state is also bound
//! to the browser that started (a cookie), so a sign-in cannot be finished in another browser
//! (login CSRF).

pub mod dns;
pub mod domains;
pub mod oidc;

use aws_lc_rs::hmac;
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use signet_domain::access::{Access, CustomRole, Permission, Role, parse_permissions};
use signet_domain::authority::sso::{SsoSecondFactor, provider_may_link, sso_satisfies_second_factor};
use signet_domain::{Error, ErrorCode, PrincipalId, SsoProviderId, TenantId, now_millis};
use signet_store::{NewSsoProvider, PrincipalCredentials, SavedBy, SsoIdentityRow, SsoProviderRow, SsoSecondFactorRow};

use crate::{Caller, Services, platform::secrets};

/// How long a sign-in may stay at the provider.
const LOGIN_TTL_MS: i64 = 10 * 60 * 1000;
/// How long a signed-in person has to give their second factor.
const SECOND_FACTOR_TTL_MS: i64 = 5 * 60 * 1000;
/// How long the application has to exchange its one-time code.
const CODE_TTL_MS: i64 = 2 * 60 * 1000;
/// The callback address's path (registered at the provider as `<public URL>/sso/callback`).
pub const CALLBACK_PATH: &str = "/sso/callback";

/// The keys of single sign-on: one seals providers' client secrets, one derives each sign-in's
/// nonce and PKCE verifier from its state.
pub struct SsoKey {
    sealing: secrets::SealingKey,
    derivation: hmac::Key,
}

impl SsoKey {
    pub fn derive(secret: &[u8]) -> Result<SsoKey, secrets::DeriveError> {
        let sealing = secrets::SealingKey::derive(secret, "signet sso client secrets v1")?;
        let derivation = hmac::Key::new(hmac::HMAC_SHA256, &[b"signet sso states v1\0".as_slice(), secret].concat());
        Ok(SsoKey { sealing, derivation })
    }

    fn derived(&self, purpose: &str, state: &str) -> String {
        URL_SAFE_NO_PAD.encode(hmac::sign(&self.derivation, format!("{purpose}\0{state}").as_bytes()))
    }

    fn nonce(&self, state: &str) -> String {
        self.derived("nonce", state)
    }

    /// 43 characters of base64url: a valid RFC 7636 verifier.
    fn verifier(&self, state: &str) -> String {
        self.derived("pkce", state)
    }

    fn secret_aad(tenant_id: TenantId, name: &str) -> String {
        format!("sso:{}:{name}", tenant_id.get())
    }
}

/// A provider as an administrator gives it.
pub struct ProviderInput<'a> {
    pub name: &'a str,
    pub display_name: &'a str,
    pub issuer: &'a str,
    pub client_id: &'a str,
    pub client_secret: Option<&'a str>,
    pub email_domains: &'a [String],
    pub redirect_uris: &'a [String],
}

fn is_slug(name: &str) -> bool {
    (1..=40).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
}

/// A lower-case DNS name of at least two labels.
fn is_domain(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    domain.len() <= 253
        && labels.len() >= 2
        && labels.iter().all(|l| {
            (1..=63).contains(&l.len())
                && l.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        })
}

/// An absolute http(s) URL without fragment or credentials, at most 500 characters.
fn is_absolute_url(url: &str) -> bool {
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"));
    url.len() <= 500
        && rest.is_some_and(|r| {
            let authority = r.split(['/', '?']).next().unwrap_or("");
            !authority.is_empty() && !authority.contains('@')
        })
        && !url.contains('#')
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

fn check_input(input: &ProviderInput<'_>) -> Result<(), Error> {
    if !is_slug(input.name) {
        return Err(Error::field("name", "must be 1 to 40 lower-case letters, digits or hyphens"));
    }
    let display = input.display_name.trim();
    if display.is_empty()
        || input.display_name.chars().count() > 100
        || input.display_name.chars().any(char::is_control)
    {
        return Err(Error::field("displayName", "must be 1 to 100 characters without control characters"));
    }
    if !is_absolute_url(input.issuer) || input.issuer.contains('?') {
        return Err(Error::field("issuer", "must be an absolute http(s) URL without query or fragment"));
    }
    if input.client_id.is_empty() || input.client_id.len() > 255 || input.client_id.chars().any(char::is_control) {
        return Err(Error::field("clientId", "must be 1 to 255 characters without control characters"));
    }
    if input.client_secret.is_some_and(|s| s.len() > 1000 || s.chars().any(char::is_control)) {
        return Err(Error::field("clientSecret", "must be at most 1000 characters without control characters"));
    }
    if input.email_domains.is_empty() || input.email_domains.len() > 20 {
        return Err(Error::field("emailDomains", "must list 1 to 20 domains"));
    }
    if let Some(bad) = input.email_domains.iter().find(|d| !is_domain(d)) {
        return Err(Error::field("emailDomains", format!("{bad} is not a lower-case domain name")));
    }
    if input.redirect_uris.len() > 10 {
        return Err(Error::field("redirectUris", "must list at most 10 addresses"));
    }
    if let Some(bad) = input.redirect_uris.iter().find(|u| !is_absolute_url(u)) {
        return Err(Error::field("redirectUris", format!("{bad} is not an absolute http(s) URL without fragment")));
    }
    Ok(())
}

/// A domain a provider serves must be the domain of a user of the tenant: a tenant cannot
/// offer its provider to the addresses of an organisation it has no one from.
async fn check_domains_are_the_tenants(svc: &Services, caller: &Caller, domains: &[String]) -> Result<(), Error> {
    let known = svc.store.user_email_domains(caller.tenant_id).await?;
    match domains.iter().find(|d| !known.contains(d)) {
        Some(foreign) => {
            Err(Error::field("emailDomains", format!("{foreign} is the domain of no user of this tenant")))
        }
        None => Ok(()),
    }
}

fn http_policy(svc: &Services) -> signet_sigcrypto::HttpConfig {
    svc.config.outbound_http_within(10, 1 << 20)
}

/// Why a call to the provider brought no answer: the guarded client refused or failed, or the
/// blocking task it ran on stopped. Both are the provider's to mend or a retry's; the words go
/// to the log and to the administrator's field error.
#[derive(Debug, thiserror::Error)]
enum CallError {
    #[error(transparent)]
    Fetch(#[from] signet_sigcrypto::Error),
    #[error(transparent)]
    Stopped(#[from] tokio::task::JoinError),
}

/// An outbound call off the executor (the guarded client blocks).
async fn call(
    svc: &Services,
    url: &str,
    headers: Vec<(&'static str, String)>,
    body: Option<String>,
) -> Result<Vec<u8>, CallError> {
    let (url, cfg) = (url.to_string(), http_policy(svc));
    tokio::task::spawn_blocking(move || {
        let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        signet_sigcrypto::request(&url, &headers, body.as_deref().map(str::as_bytes), &cfg)
    })
    .await?
    .map_err(CallError::from)
}

/// A provider's input checked as saving and changing check it: its fields, its domains (the
/// tenant's users'), and its issuer's discovery document, read now; the domains sorted once each.
async fn checked(
    svc: &Services,
    caller: &Caller,
    input: &ProviderInput<'_>,
) -> Result<(oidc::Discovery, Vec<String>), Error> {
    check_input(input)?;
    check_domains_are_the_tenants(svc, caller, input.email_domains).await?;
    for domain in input.email_domains {
        domains::check_claim(svc, caller, domain).await?;
    }
    let body = call(svc, &oidc::discovery_url(input.issuer), vec![("Accept", "application/json".into())], None)
        .await
        .map_err(|e| Error::field("issuer", format!("its discovery document cannot be fetched: {e}")))?;
    let discovery = oidc::check_discovery(input.issuer, &body).map_err(|e| Error::field("issuer", e.to_string()))?;
    let mut domains = input.email_domains.to_vec();
    domains.sort();
    domains.dedup();
    Ok((discovery, domains))
}

/// A client secret sealed for the provider named `name` of the tenant (the name is bound in).
fn seal_secret(svc: &Services, tenant_id: TenantId, name: &str, secret: &[u8]) -> Result<Vec<u8>, Error> {
    svc.sso_key
        .sealing
        .seal(&SsoKey::secret_aad(tenant_id, name), secret)
        .ok_or_else(|| Error::internal("sealing a client secret"))
}

/// A principal's access as the store holds it now: its tenant's role when it has one, else its
/// built-in role.
async fn access_of(svc: &Services, tenant_id: TenantId, principal_id: PrincipalId) -> Result<Option<Access>, Error> {
    let Some(auth) = svc.store.principal_auth(tenant_id, principal_id).await? else { return Ok(None) };
    let custom = match (auth.custom_role_id, auth.custom_role_name, auth.custom_permissions) {
        (Some(id), Some(name), Some(permissions)) => {
            Some(CustomRole { id, name, permissions: parse_permissions(&permissions) })
        }
        _ => None,
    };
    Ok(Some(Access { role: auth.role, custom }))
}

/// The access the caller saves a provider with (recorded on it: see [`provider_may_link`]).
struct Saver {
    actor: String,
    role: String,
    permissions: Option<String>,
}

impl Saver {
    async fn of(svc: &Services, caller: &Caller) -> Result<Saver, Error> {
        let access = access_of(svc, caller.tenant_id, caller.principal_id)
            .await?
            .ok_or_else(|| Error::rejected(ErrorCode::Forbidden, "the caller is not a principal of this tenant"))?;
        let permissions =
            access.custom.as_ref().map(|c| c.permissions.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(","));
        Ok(Saver { actor: caller.actor.id.clone(), role: access.role.as_str().to_string(), permissions })
    }

    fn saved_by(&self) -> SavedBy<'_> {
        SavedBy { actor: &self.actor, role: &self.role, permissions: self.permissions.as_deref() }
    }
}

/// The access a provider's last saver had, as recorded (`None`: not recorded).
fn saver_access(provider: &SsoProviderRow) -> Option<Access> {
    let role = Role::try_from(provider.saved_by_role.clone()?).ok()?;
    let custom = provider.saved_by_permissions.as_deref().map(|permissions| CustomRole {
        // Only the permissions were recorded; the role's row is no longer named.
        id: signet_domain::RoleId::from(0),
        name: "saver's role".into(),
        permissions: parse_permissions(permissions),
    });
    Some(Access { role, custom })
}

/// Saves a provider after reading its discovery document.
pub async fn create_provider(
    svc: &Services,
    caller: &Caller,
    input: &ProviderInput<'_>,
) -> Result<(SsoProviderRow, Vec<String>), Error> {
    caller.require(Permission::ManageSettings)?;
    let (discovery, domains) = checked(svc, caller, input).await?;
    let saver = Saver::of(svc, caller).await?;
    let sealed = match input.client_secret.filter(|s| !s.is_empty()) {
        Some(secret) => Some(seal_secret(svc, caller.tenant_id, input.name, secret.as_bytes())?),
        None => None,
    };
    let new = NewSsoProvider {
        name: input.name,
        display_name: input.display_name.trim(),
        issuer: input.issuer,
        client_id: input.client_id,
        client_secret: sealed.as_deref(),
        authorization_endpoint: &discovery.authorization_endpoint,
        token_endpoint: &discovery.token_endpoint,
        userinfo_endpoint: discovery.userinfo_endpoint.as_deref(),
        jwks_uri: &discovery.jwks_uri,
        redirect_uris: input.redirect_uris,
        domains: &domains,
        saved_by: saver.saved_by(),
    };
    let row = svc.store.create_sso_provider(caller.tenant_id, &new, &caller.actor).await?;
    Ok((row, domains))
}

/// Changes a saved provider of the caller's tenant with the rules of saving one (its discovery
/// document read again). `input.client_secret`: `None` keeps the saved secret (sealed again
/// when the name changes, as the name is bound into its sealing), `Some("")` makes the
/// provider a public client, anything else replaces it.
pub async fn update_provider(
    svc: &Services,
    caller: &Caller,
    id: SsoProviderId,
    input: &ProviderInput<'_>,
) -> Result<(SsoProviderRow, Vec<String>), Error> {
    caller.require(Permission::ManageSettings)?;
    // Ids are positive 32-bit numbers (the API's bounds); any other names no provider.
    if !(1..=i64::from(i32::MAX)).contains(&id.get()) {
        return Err(Error::not_found("SSO provider"));
    }
    let saved = svc
        .store
        .sso_provider(id)
        .await?
        .filter(|p| p.tenant_id == caller.tenant_id)
        .ok_or(Error::not_found("SSO provider"))?;
    let (discovery, domains) = checked(svc, caller, input).await?;
    let saver = Saver::of(svc, caller).await?;
    let secret = match (input.client_secret, &saved.client_secret) {
        (None, None) => None,
        (None, Some(sealed)) if saved.name == input.name => Some(sealed.clone()),
        (None, Some(sealed)) => {
            let plain = svc
                .sso_key
                .sealing
                .open(&SsoKey::secret_aad(saved.tenant_id, &saved.name), sealed)
                .ok_or_else(|| Error::internal("a client secret that does not open"))?;
            Some(seal_secret(svc, caller.tenant_id, input.name, &plain)?)
        }
        (Some(""), _) => None,
        (Some(secret), _) => Some(seal_secret(svc, caller.tenant_id, input.name, secret.as_bytes())?),
    };
    let changed = NewSsoProvider {
        name: input.name,
        display_name: input.display_name.trim(),
        issuer: input.issuer,
        client_id: input.client_id,
        client_secret: secret.as_deref(),
        authorization_endpoint: &discovery.authorization_endpoint,
        token_endpoint: &discovery.token_endpoint,
        userinfo_endpoint: discovery.userinfo_endpoint.as_deref(),
        jwks_uri: &discovery.jwks_uri,
        redirect_uris: input.redirect_uris,
        domains: &domains,
        saved_by: saver.saved_by(),
    };
    let replaced = input.client_secret.is_some_and(|s| !s.is_empty())
        || (input.client_secret == Some("") && saved.client_secret.is_some());
    let row = svc
        .store
        .update_sso_provider(caller.tenant_id, id, &changed, saved.client_secret.as_deref(), replaced, &caller.actor)
        .await?;
    Ok((row, domains))
}

/// The tenant's providers with the domains each serves (managing settings).
pub async fn providers(svc: &Services, caller: &Caller) -> Result<Vec<(SsoProviderRow, Vec<String>)>, Error> {
    caller.require(signet_domain::access::Permission::ManageSettings)?;
    svc.store.sso_providers(caller.tenant_id).await
}

pub async fn delete_provider(svc: &Services, caller: &Caller, id: SsoProviderId) -> Result<(), Error> {
    caller.require(Permission::ManageSettings)?;
    // Ids are positive 32-bit numbers (the API's bounds); any other names no provider.
    if !(1..=i64::from(i32::MAX)).contains(&id.get()) {
        return Err(Error::not_found("SSO provider"));
    }
    svc.store.delete_sso_provider(caller.tenant_id, id, &caller.actor).await
}

/// The enabled provider that serves an address's domain.
pub async fn provider_for_email(svc: &Services, email: &str) -> Result<Option<SsoProviderRow>, Error> {
    let Some((_, domain)) = email.rsplit_once('@') else { return Ok(None) };
    svc.store.sso_provider_for_domain(&domain.to_ascii_lowercase()).await
}

/// Signet's address that starts a sign-in through a provider.
pub fn start_url(svc: &Services, provider_id: SsoProviderId) -> String {
    format!("{}/sso/{provider_id}/start", svc.config.public_base())
}

fn callback_url(svc: &Services) -> String {
    format!("{}{CALLBACK_PATH}", svc.config.public_base())
}

/// What starting a sign-in asks of the browser: go to the provider, keeping `state` in a cookie.
pub struct Started {
    pub provider_url: String,
    pub state: String,
}

/// Where a finished sign-in may send its code: the provider's registered application
/// addresses (exactly), or a path on Signet itself.
fn check_return_to(provider: &SsoProviderRow, return_to: Option<&str>) -> Result<String, Error> {
    match return_to.filter(|r| !r.is_empty()) {
        Some(path) if is_local_path(path) => check_local_return(path).map(str::to_string),
        Some(url) if provider.redirect_uri_list().any(|r| r == url) => Ok(url.to_string()),
        Some(_) => Err(Error::field("return_to", "is not an application address registered with this provider")),
        None => provider.redirect_uri_list().next().map(str::to_string).ok_or_else(|| {
            Error::field("return_to", "is required: this provider has no registered application address")
        }),
    }
}

/// A path on Signet itself (not `//host`, which browsers take for another site).
fn is_local_path(path: &str) -> bool {
    path.starts_with('/') && !path.starts_with("//") && !path.contains(['\\', '#'])
}

/// Where Signet's own sign-in page may send a signed-in person: a path on Signet itself.
pub fn check_local_return(path: &str) -> Result<&str, Error> {
    if !is_local_path(path) {
        return Err(Error::field("return_to", "must be a path on this Signet (starting with a single /)"));
    }
    if path.len() > 500 || path.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(Error::field("return_to", "must be at most 500 characters without spaces"));
    }
    Ok(path)
}

/// Hands a signed-in account to the application at `return_to` with a one-time code for
/// `grant_type=sso_code` (and the application's own `state`): the address to send the browser to.
pub async fn hand_over(
    svc: &Services,
    account: &PrincipalCredentials,
    return_to: &str,
    client_state: Option<&str>,
) -> Result<String, Error> {
    let one_time = secrets::random_token(32);
    svc.store
        .create_sso_code(&secrets::hash_token(&one_time), account.tenant_id, account.id, now_millis() + CODE_TTL_MS)
        .await?;
    let mut pairs = vec![("code", one_time.as_str())];
    if let Some(state) = client_state.filter(|s| !s.is_empty()) {
        pairs.push(("state", state));
    }
    let separator = if return_to.contains('?') { '&' } else { '?' };
    Ok(format!("{return_to}{separator}{}", serde_urlencoded::to_string(&pairs).unwrap_or_default()))
}

/// Starts a sign-in through provider `provider_id`.
pub async fn start(
    svc: &Services,
    provider_id: SsoProviderId,
    return_to: Option<&str>,
    client_state: Option<&str>,
    login_hint: Option<&str>,
) -> Result<Started, Error> {
    let provider = match svc.store.sso_provider(provider_id).await? {
        Some(p) if !p.disabled => p,
        _ => return Err(Error::not_found("SSO provider")),
    };
    let return_to = check_return_to(&provider, return_to)?;
    if client_state.is_some_and(|s| s.len() > 500 || s.chars().any(char::is_control)) {
        return Err(Error::field("state", "must be at most 500 characters without control characters"));
    }
    let login_hint = login_hint.filter(|h| !h.is_empty() && h.len() <= 254 && !h.chars().any(char::is_control));
    let state = secrets::random_token(32);
    svc.store
        .begin_sso_login(
            &secrets::hash_token(&state),
            provider.id,
            Some(&return_to),
            client_state.filter(|s| !s.is_empty()),
            now_millis() + LOGIN_TTL_MS,
        )
        .await?;
    Ok(started(svc, &provider.authorization_endpoint, &provider.client_id, state, login_hint))
}

/// The redirect to the provider for the sign-in `state`: its nonce and PKCE verifier derived
/// from the state, Signet's callback as the redirect URI.
fn started(
    svc: &Services,
    authorization_endpoint: &str,
    client_id: &str,
    state: String,
    login_hint: Option<&str>,
) -> Started {
    let (nonce, verifier, redirect_uri) = (svc.sso_key.nonce(&state), svc.sso_key.verifier(&state), callback_url(svc));
    let provider_url = oidc::authorization_url(&oidc::AuthorizationRequest {
        authorization_endpoint,
        client_id,
        redirect_uri: &redirect_uri,
        state: &state,
        nonce: &nonce,
        code_verifier: &verifier,
        login_hint,
    });
    Started { provider_url, state }
}

/// The provider's answer at the callback.
pub struct Answer<'a> {
    pub state: &'a str,
    /// The state the browser's cookie holds.
    pub cookie_state: Option<&'a str>,
    pub code: Option<&'a str>,
    /// The provider's `error` (the person cancelled, the provider refused).
    pub error: Option<&'a str>,
}

fn refused(message: impl Into<String>) -> Error {
    Error::rejected(ErrorCode::Forbidden, message)
}

/// The provider failed: the cause goes to the log, the person gets what to do.
fn provider_failed(client: &Client, cause: &str) -> Error {
    tracing::warn!(provider = %client.name, issuer = %client.issuer, %cause, "single sign-on failed at the provider");
    Error::rejected(
        ErrorCode::ServiceUnavailable,
        format!("{} did not complete the sign-in. Try again, or ask your administrator.", client.display_name),
    )
}

/// Signet's registration at one provider, with the endpoints it calls after the redirect.
struct Client {
    name: String,
    display_name: String,
    issuer: String,
    client_id: String,
    client_secret: Option<String>,
    token_endpoint: String,
    jwks_uri: String,
    userinfo_endpoint: Option<String>,
}

impl Client {
    /// A tenant's saved provider, its client secret opened.
    fn of_provider(svc: &Services, provider: &SsoProviderRow) -> Result<Client, Error> {
        let client_secret = match &provider.client_secret {
            Some(sealed) => Some(
                svc.sso_key
                    .sealing
                    .open(&SsoKey::secret_aad(provider.tenant_id, &provider.name), sealed)
                    .and_then(|plain| String::from_utf8(plain).ok())
                    .ok_or_else(|| Error::internal("a client secret that does not open"))?,
            ),
            None => None,
        };
        Ok(Client {
            name: provider.name.clone(),
            display_name: provider.display_name.clone(),
            issuer: provider.issuer.clone(),
            client_id: provider.client_id.clone(),
            client_secret,
            token_endpoint: provider.token_endpoint.clone(),
            jwks_uri: provider.jwks_uri.clone(),
            userinfo_endpoint: provider.userinfo_endpoint.clone(),
        })
    }

    /// An installation's sign-up provider, with the endpoints its discovery document gives now.
    async fn of_signup(svc: &Services, name: &str) -> Result<(Client, oidc::Discovery), Error> {
        let configured =
            svc.config.sso_signup_providers.iter().find(|p| p.name == name).ok_or_else(|| {
                Error::rejected(ErrorCode::LinkExpired, "This sign-up's provider is no longer offered.")
            })?;
        let mut client = Client {
            name: configured.name.clone(),
            display_name: configured.display_name.clone(),
            issuer: configured.issuer.clone(),
            client_id: configured.client_id.clone(),
            client_secret: configured.client_secret.clone().filter(|s| !s.is_empty()),
            token_endpoint: String::new(),
            jwks_uri: String::new(),
            userinfo_endpoint: None,
        };
        let body = call(svc, &oidc::discovery_url(&client.issuer), vec![("Accept", "application/json".into())], None)
            .await
            .map_err(|e| provider_failed(&client, &format!("discovery: {e}")))?;
        let discovery =
            oidc::check_discovery(&client.issuer, &body).map_err(|e| provider_failed(&client, &e.to_string()))?;
        client.token_endpoint = discovery.token_endpoint.clone();
        client.jwks_uri = discovery.jwks_uri.clone();
        client.userinfo_endpoint = discovery.userinfo_endpoint.clone();
        Ok((client, discovery))
    }
}

/// What a finished sign-in leads to.
#[derive(Debug, PartialEq, Eq)]
pub enum Finished {
    /// The application's address with its one-time code.
    Redirect(String),
    /// A trial sign-up whose address the provider proved: the trial tenant is made.
    TrialStarted,
    /// The account still owes its second factor: the browser keeps `token` (bound to it like
    /// the sign-in's state) and gives the authenticator app's code ([`finish_second_factor`]).
    SecondFactor { token: String },
}

fn expired() -> Error {
    Error::rejected(ErrorCode::LinkExpired, "This sign-in has expired or was already used. Start again.")
}

/// The person's refusal at the provider (or the provider's), as they may read it.
fn refused_at_provider(client: &str, error: &str) -> Error {
    let error: String = error.chars().filter(|c| c.is_ascii_graphic()).take(100).collect();
    refused(format!("{client} did not sign you in ({error})."))
}

/// Finishes a sign-in (or a trial sign-up's proof of address) from the provider's answer.
pub async fn finish(svc: &Services, answer: &Answer<'_>) -> Result<Finished, Error> {
    if answer.state.is_empty() || answer.state.len() > 200 {
        return Err(expired());
    }
    let same_browser = answer.cookie_state.is_some_and(|c| secrets::same_secret(c, answer.state));
    if !same_browser {
        return Err(refused("This sign-in was started in another browser or window. Start again here."));
    }
    let state_hash = secrets::hash_token(answer.state);
    if let Some(login) = svc.store.take_sso_login(&state_hash).await? {
        return finish_sign_in(svc, answer, login).await;
    }
    let (signup_hash, provider) = svc.store.take_sso_signup_login(&state_hash).await?.ok_or_else(expired)?;
    finish_sign_up(svc, answer, &signup_hash, &provider).await?;
    Ok(Finished::TrialStarted)
}

async fn finish_sign_in(
    svc: &Services,
    answer: &Answer<'_>,
    login: signet_store::SsoLoginRow,
) -> Result<Finished, Error> {
    let provider = match svc.store.sso_provider(login.provider_id).await? {
        Some(p) if !p.disabled => p,
        _ => return Err(expired()),
    };
    if let Some(error) = answer.error {
        return Err(refused_at_provider(&provider.display_name, error));
    }
    let code = answer.code.filter(|c| !c.is_empty() && c.len() <= 2048).ok_or_else(expired)?;
    let identity = identify(svc, &Client::of_provider(svc, &provider)?, answer.state, code).await?;
    let account = account_of(svc, &provider, &identity).await?;
    let return_to = login.return_to.unwrap_or_else(|| "/".into());
    if owes_second_factor(svc, &account, &identity).await? {
        let token = secrets::random_token(32);
        let pending = SsoSecondFactorRow {
            principal_id: account.id,
            tenant_id: account.tenant_id,
            return_to,
            client_state: login.client_state,
        };
        svc.store
            .begin_sso_second_factor(&secrets::hash_token(&token), &pending, now_millis() + SECOND_FACTOR_TTL_MS)
            .await?;
        return Ok(Finished::SecondFactor { token });
    }
    hand_over(svc, &account, &return_to, login.client_state.as_deref()).await.map(Finished::Redirect)
}

/// Whether the account must still give its authenticator app's code: it has one, and the
/// tenant's setting, its role and the provider's `amr` do not let the provider stand in.
async fn owes_second_factor(
    svc: &Services,
    account: &PrincipalCredentials,
    identity: &Identity,
) -> Result<bool, Error> {
    if !svc.store.totp_state(account.id).await?.totp_enabled {
        return Ok(false);
    }
    let setting = if svc.store.sso_replaces_second_factor(account.tenant_id).await? {
        SsoSecondFactor::ReplacedByProvider
    } else {
        SsoSecondFactor::StillRequired
    };
    // An account without a readable role is treated as the most guarded one.
    let access =
        access_of(svc, account.tenant_id, account.id).await?.unwrap_or_else(|| Access::builtin(Role::Administrator));
    Ok(!sso_satisfies_second_factor(setting, &access, &identity.amr))
}

/// How giving the second factor after a single sign-on ended.
#[derive(Debug, PartialEq, Eq)]
pub enum SecondFactorGiven {
    /// The application's address with its one-time code.
    Redirect(String),
    /// A wrong, spent or missing code: the person may try again (the tries are throttled).
    Wrong,
}

/// The account's authenticator code for a sign-in that owes it (`token`, from the browser
/// that signed in): right, the application gets its one-time code; tries are throttled per
/// account and address as the password sign-in's are.
pub async fn finish_second_factor(
    svc: &Services,
    ip: std::net::IpAddr,
    token: &str,
    code: &str,
) -> Result<SecondFactorGiven, Error> {
    if token.is_empty() || token.len() > 200 {
        return Err(expired());
    }
    let token_hash = secrets::hash_token(token);
    let pending = svc.store.sso_second_factor(&token_hash).await?.ok_or_else(expired)?;
    let throttle =
        crate::platform::limits::admit_attempt(svc, &format!("sso-second-factor:{}", pending.principal_id), ip).await?;
    let code = code.trim();
    match crate::people::totp::second_factor(svc, pending.principal_id, Some(code).filter(|c| !c.is_empty())).await? {
        crate::people::totp::SecondFactor::Accepted | crate::people::totp::SecondFactor::NotRequired => {}
        crate::people::totp::SecondFactor::Missing | crate::people::totp::SecondFactor::Wrong => {
            return Ok(SecondFactorGiven::Wrong);
        }
    }
    if !svc.store.take_sso_second_factor(&token_hash).await? {
        return Err(expired());
    }
    svc.store.clear_auth_failures(&throttle).await?;
    let account = svc
        .store
        .principal_credentials(pending.principal_id)
        .await?
        .filter(|a| a.tenant_id == pending.tenant_id && is_active(a))
        .ok_or_else(|| refused("Your account is not active. Ask your administrator."))?;
    let to = hand_over(svc, &account, &pending.return_to, pending.client_state.as_deref()).await?;
    Ok(SecondFactorGiven::Redirect(to))
}

fn is_active(account: &PrincipalCredentials) -> bool {
    signet_domain::authority::sessions::keeps_sessions(&account.status, account.disabled)
}

/// Starts the proof of a trial sign-up's address at the installation's provider it chose.
pub async fn start_signup(svc: &Services, token: &str) -> Result<Started, Error> {
    let gone =
        || Error::rejected(ErrorCode::LinkExpired, "This sign-up has expired or was already used. Sign up again.");
    if token.is_empty() || token.len() > 200 {
        return Err(gone());
    }
    let signup_hash = secrets::hash_token(token);
    let signup = svc.store.pending_trial_signup(&signup_hash).await?.ok_or_else(gone)?;
    let name = signup.sso_provider.ok_or_else(gone)?;
    let (client, discovery) = Client::of_signup(svc, &name).await?;
    let state = secrets::random_token(32);
    svc.store
        .begin_sso_signup_login(&secrets::hash_token(&state), &signup_hash, &name, now_millis() + LOGIN_TTL_MS)
        .await?;
    Ok(started(svc, &discovery.authorization_endpoint, &client.client_id, state, Some(&signup.email)))
}

/// The provider proved an address: if it is the sign-up's, verified, the trial starts.
async fn finish_sign_up(svc: &Services, answer: &Answer<'_>, signup_hash: &str, provider: &str) -> Result<(), Error> {
    let (client, _) = Client::of_signup(svc, provider).await?;
    if let Some(error) = answer.error {
        return Err(refused_at_provider(&client.display_name, error));
    }
    let code = answer.code.filter(|c| !c.is_empty() && c.len() <= 2048).ok_or_else(expired)?;
    let identity = identify(svc, &client, answer.state, code).await?;
    let signup = svc.store.pending_trial_signup(signup_hash).await?.ok_or_else(expired)?;
    let proven =
        identity.email_verified && identity.email.as_deref().is_some_and(|e| e.eq_ignore_ascii_case(&signup.email));
    if !proven {
        return Err(refused(format!(
            "{} did not confirm the address {} that you signed up with. Sign in there with that address.",
            client.display_name, signup.email
        )));
    }
    crate::people::trial::start_verified(svc, signup_hash).await.map(|_| ())
}

/// Who the provider says signed in.
struct Identity {
    subject: String,
    email: Option<String>,
    email_verified: bool,
    /// How the person signed in at the provider (the ID token's `amr`).
    amr: Vec<String>,
}

/// Exchanges the code (with the PKCE verifier) and validates the ID token; the e-mail claims
/// come from the ID token or, where a code flow leaves them out, from userinfo.
async fn identify(svc: &Services, client: &Client, state: &str, code: &str) -> Result<Identity, Error> {
    let redirect_uri = callback_url(svc);
    let verifier = svc.sso_key.verifier(state);
    let mut form = vec![
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", redirect_uri.as_str()),
        ("code_verifier", verifier.as_str()),
    ];
    let mut headers = vec![
        ("Content-Type", "application/x-www-form-urlencoded".to_string()),
        ("Accept", "application/json".to_string()),
    ];
    match &client.client_secret {
        // RFC 6749 §2.3.1: client_secret_basic, each part form-encoded first.
        Some(secret) => {
            let encode = |s: &str| serde_urlencoded::to_string([("", s)]).unwrap_or_default().split_off(1);
            let basic = STANDARD.encode(format!("{}:{}", encode(&client.client_id), encode(secret)));
            headers.push(("Authorization", format!("Basic {basic}")));
        }
        None => form.push(("client_id", client.client_id.as_str())),
    }
    let body = serde_urlencoded::to_string(&form).map_err(Error::internal)?;
    let answer = call(svc, &client.token_endpoint, headers, Some(body))
        .await
        .map_err(|e| provider_failed(client, &format!("token exchange: {e}")))?;
    let tokens: oidc::TokenAnswer =
        serde_json::from_slice(&answer).map_err(|e| provider_failed(client, &format!("token answer: {e}")))?;
    let jwks = call(svc, &client.jwks_uri, vec![("Accept", "application/json".into())], None)
        .await
        .map_err(|e| provider_failed(client, &format!("JWKS: {e}")))?;
    let claims =
        oidc::verify_id_token(&tokens.id_token, &jwks, &client.issuer, &client.client_id, &svc.sso_key.nonce(state))
            .map_err(|e| provider_failed(client, &e.to_string()))?;
    if claims.email.is_some() {
        return Ok(Identity {
            subject: claims.sub,
            email: claims.email,
            email_verified: claims.email_verified == Some(true),
            amr: claims.amr,
        });
    }
    let (Some(userinfo), Some(access)) = (&client.userinfo_endpoint, &tokens.access_token) else {
        return Ok(Identity { subject: claims.sub, email: None, email_verified: false, amr: claims.amr });
    };
    let headers = vec![("Authorization", format!("Bearer {access}")), ("Accept", "application/json".into())];
    let info =
        call(svc, userinfo, headers, None).await.map_err(|e| provider_failed(client, &format!("userinfo: {e}")))?;
    let info: oidc::UserInfo =
        serde_json::from_slice(&info).map_err(|e| provider_failed(client, &format!("userinfo answer: {e}")))?;
    // Core §5.3.2: userinfo about another subject must not be used.
    if info.sub != claims.sub {
        return Err(provider_failed(client, "userinfo names another subject"));
    }
    Ok(Identity {
        subject: claims.sub,
        email: info.email,
        email_verified: info.email_verified == Some(true),
        amr: claims.amr,
    })
}

/// The account the identity signs in as: the one linked to its subject, or else the active
/// user of the provider's tenant with its verified e-mail address (then linked).
async fn account_of(
    svc: &Services,
    provider: &SsoProviderRow,
    identity: &Identity,
) -> Result<PrincipalCredentials, Error> {
    let linked = match svc.store.sso_linked_principal(provider.id, &identity.subject).await? {
        Some(id) => svc.store.principal_credentials(id).await?,
        None => None,
    };
    let account = match linked {
        // Checked at every sign-in, not only the first: an account linked while its role was
        // within the saver's reach may have been given more since.
        Some(account) if !may_sign_in(svc, provider, &account).await? => {
            return Err(refused(format!(
                "{} may not sign in this account. Ask your administrator.",
                provider.display_name
            )));
        }
        Some(account) => {
            svc.store.touch_sso_identity(provider.id, &identity.subject).await?;
            account
        }
        None => {
            let email = identity.email.as_deref().ok_or_else(|| {
                refused(format!("{} did not tell Signet your e-mail address.", provider.display_name))
            })?;
            if !identity.email_verified {
                return Err(refused(format!(
                    "{} has not verified your e-mail address {email}, so Signet cannot link it to an account.",
                    provider.display_name
                )));
            }
            let unknown = || refused(format!("No account of this organisation uses {email}. Ask your administrator."));
            let account = svc
                .store
                .principal_by_email(email)
                .await?
                .filter(|p| p.tenant_id == provider.tenant_id)
                .ok_or_else(unknown)?;
            // Any account the provider may not sign in reads as an unknown address (nothing
            // tells which accounts exist).
            if !may_sign_in(svc, provider, &account).await? {
                return Err(unknown());
            }
            svc.store.link_sso_identity(provider, &identity.subject, account.id, email).await?;
            account
        }
    };
    if !is_active(&account) {
        return Err(refused("Your account is not active. Ask your administrator."));
    }
    Ok(account)
}

/// Whether the provider may sign in `account`: only one whose role the provider's last saver
/// could have granted ([`provider_may_link`]).
async fn may_sign_in(svc: &Services, provider: &SsoProviderRow, account: &PrincipalCredentials) -> Result<bool, Error> {
    let account_access = access_of(svc, account.tenant_id, account.id).await?;
    let allowed = account_access.is_some_and(|a| provider_may_link(saver_access(provider).as_ref(), &a));
    if !allowed {
        tracing::warn!(
            provider = provider.id.get(),
            account = account.id.get(),
            "single sign-on refused an account above its provider's saver"
        );
    }
    Ok(allowed)
}

/// The account a finished sign-in's one-time code stands for (spent now), if it is active.
pub async fn redeem(svc: &Services, code: &str) -> Result<Option<PrincipalCredentials>, Error> {
    if code.is_empty() || code.len() > 200 {
        return Ok(None);
    }
    let account = svc.store.take_sso_code(&secrets::hash_token(code)).await?;
    Ok(account.filter(|a| signet_domain::authority::sessions::keeps_sessions(&a.status, a.disabled)))
}

/// Whether the tenant lets a single sign-on stand in for its users' second factor (default:
/// it does not; administrators need their provider to assert a multi-factor sign-in anyway).
pub async fn replaces_second_factor(svc: &Services, caller: &Caller) -> Result<bool, Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.sso_replaces_second_factor(caller.tenant_id).await
}

/// Sets whether a single sign-on stands in for the tenant's users' second factor. It weakens
/// every single sign-on user's sign-in, so only administrators change it.
pub async fn set_replaces_second_factor(svc: &Services, caller: &Caller, replaces: bool) -> Result<(), Error> {
    if !caller.is_administrator() {
        return Err(Error::rejected(
            ErrorCode::Forbidden,
            "only administrators change whether single sign-on replaces the second factor",
        ));
    }
    svc.store.set_sso_replaces_second_factor(caller.tenant_id, replaces, &caller.actor).await
}

/// The providers the caller's own account is linked to.
pub async fn identities(svc: &Services, caller: &Caller) -> Result<Vec<SsoIdentityRow>, Error> {
    let (tenant_id, user_id) = (caller.tenant_id, caller.principal_id);
    svc.store.sso_identities_of(tenant_id, user_id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provider(redirects: &str) -> SsoProviderRow {
        SsoProviderRow {
            id: SsoProviderId::from(1),
            tenant_id: TenantId::from(1),
            name: "corp".into(),
            display_name: "Corp".into(),
            issuer: "https://idp".into(),
            client_id: "signet".into(),
            client_secret: None,
            authorization_endpoint: "https://idp/auth".into(),
            token_endpoint: "https://idp/token".into(),
            userinfo_endpoint: None,
            jwks_uri: "https://idp/jwks".into(),
            redirect_uris: redirects.into(),
            disabled: false,
            created_at: 0,
            updated_at: None,
            saved_by_role: None,
            saved_by_permissions: None,
        }
    }

    #[test]
    fn a_sign_in_returns_only_to_a_registered_address_or_a_path_on_signet() {
        let p = provider("https://app.bank.example/cb\nhttps://ops.bank.example/cb");
        assert_eq!(check_return_to(&p, None).ok().as_deref(), Some("https://app.bank.example/cb"));
        assert!(check_return_to(&p, Some("https://ops.bank.example/cb")).is_ok());
        assert!(check_return_to(&p, Some("/app/inbox?x=1")).is_ok());
        for bad in ["https://evil.example/cb", "//evil.example/cb", "/\\evil.example", "https://app.bank.example/cb/x"]
        {
            assert!(check_return_to(&p, Some(bad)).is_err(), "{bad}");
        }
        assert!(check_return_to(&provider(""), None).is_err());
    }

    #[test]
    fn provider_fields_follow_their_rules() {
        let domains = vec!["bank.example".to_string()];
        let good = ProviderInput {
            name: "corp-idp",
            display_name: "Corp",
            issuer: "https://login.bank.example/realms/staff",
            client_id: "signet",
            client_secret: Some("s"),
            email_domains: &domains,
            redirect_uris: &[],
        };
        assert!(check_input(&good).is_ok());
        assert!(check_input(&ProviderInput { name: "Corp", ..good }).is_err());
        assert!(check_input(&ProviderInput { issuer: "ftp://idp", ..good }).is_err());
        assert!(check_input(&ProviderInput { issuer: "https://user@idp", ..good }).is_err());
        assert!(check_input(&ProviderInput { display_name: " ", ..good }).is_err());
        let bad_domains = vec!["Bank.example".to_string()];
        assert!(check_input(&ProviderInput { email_domains: &bad_domains, ..good }).is_err());
        let no_domains: Vec<String> = Vec::new();
        assert!(check_input(&ProviderInput { email_domains: &no_domains, ..good }).is_err());
        let bad_redirect = vec!["https://app/cb#x".to_string()];
        assert!(check_input(&ProviderInput { redirect_uris: &bad_redirect, ..good }).is_err());
    }

    #[test]
    fn nonce_and_verifier_are_distinct_per_state_and_the_verifier_fits_rfc_7636() {
        let key = SsoKey::derive(b"platform secret").expect("key");
        let verifier = key.verifier("state-1");
        assert_eq!(verifier.len(), 43);
        assert_ne!(verifier, key.verifier("state-2"));
        assert_ne!(verifier, key.nonce("state-1"));
        assert_eq!(verifier, SsoKey::derive(b"platform secret").expect("key").verifier("state-1"));
    }
}
