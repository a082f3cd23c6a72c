//! Login and single sign-on (docs/access.md, "Signing in"): what the signed-in person's address
//! is offered at sign-in (as `POST /api/v1/auth/login-modes`), their own logins (as
//! `GET /api/v1/users/me/logins`) and their second factor (as `/api/v1/users/me/totp`,
//! `…/confirm` and `…/disable`), which are everyone's; and for `manage_settings`, the
//! organisation's single sign-on providers, listed, added, changed and removed as
//! `/api/v1/sso-providers` and `/api/v1/sso-providers/{providerId}`.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::user::LoginMode;
use signet_domain::{Error, SsoProviderId};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::{people::login, people::sso, people::totp};

use super::session::see_other;
use super::{FormFields, Frame, Session, failure, render, shown_again};
use crate::text::{Text, key};

/// A login mode as people read it.
fn mode_text(text: Text, mode: LoginMode) -> &'static str {
    text.s(match mode {
        LoginMode::Password => key("login.mode.password"),
        LoginMode::EmailOtp => key("login.mode.email_otp"),
        LoginMode::Sso => key("login.mode.sso"),
    })
}

/// One of the person's linked single sign-on logins.
struct LinkedView {
    display_name: String,
    email: String,
    linked: String,
    disabled: bool,
}

/// One of the organisation's providers.
struct ProviderView {
    id: SsoProviderId,
    name: String,
    display_name: String,
    issuer: String,
    client_id: String,
    has_secret: bool,
    domains: String,
    redirects: String,
    disabled: bool,
    created: String,
    /// Its change form: what is saved (never the secret), or what was typed when the change
    /// was refused.
    form: ProviderDraft,
    /// The change form is shown open (a refused change).
    open: bool,
}

/// One e-mail domain the organisation proves (or has proven) it owns.
struct ProofView {
    domain: String,
    record_name: String,
    record_value: String,
    /// When it was proven; `None` while the record is awaited.
    proven: Option<String>,
}

/// What was typed into a provider form, shown again with a refusal (never the secret).
#[derive(Default)]
struct ProviderDraft {
    name: String,
    display_name: String,
    issuer: String,
    client_id: String,
    domains: String,
    redirects: String,
}

#[derive(Template)]
#[template(path = "console/login.html")]
struct LoginPage {
    frame: Frame,
    error: Option<String>,
    email: String,
    /// What the person's address is offered at sign-in.
    offered: Vec<&'static str>,
    offered_provider: Option<String>,
    own_mode: &'static str,
    has_password: bool,
    linked: Vec<LinkedView>,
    totp_on: bool,
    totp_pending: bool,
    /// A new secret and its `otpauth://` URI, shown once (as the API answers them once).
    enrolment: Option<(String, String)>,
    may_change: bool,
    providers: Vec<ProviderView>,
    callback_url: String,
    draft: ProviderDraft,
    /// The organisation's domain proofs (a provider serves only proven domains).
    proofs: Vec<ProofView>,
    /// Whether a single sign-on stands in for the second factor (administrators change it).
    sso_replaces: bool,
    is_administrator: bool,
}

async fn login_page(state: &AppState, session: &Session, error: Option<String>) -> Result<LoginPage, Error> {
    let caller = session.auth.caller();
    let user = signet_services::people::users::me(&state.services, &caller).await?;
    let email = user.email.clone().unwrap_or_default();
    let options = login::login_options(&state.services, &email).await?;
    let linked = sso::identities(&state.services, &caller)
        .await?
        .into_iter()
        .map(|l| LinkedView {
            display_name: l.display_name,
            email: l.email.unwrap_or_default(),
            linked: session.when(l.linked_at),
            disabled: l.disabled,
        })
        .collect();
    let second = totp::standing(&state.services, &caller).await?;
    let may_change = session.auth.access.allows(Permission::ManageSettings);
    let providers = match may_change {
        true => sso::providers(&state.services, &caller)
            .await?
            .into_iter()
            .map(|(row, domains)| ProviderView {
                has_secret: row.client_secret.is_some(),
                redirects: row.redirect_uri_list().collect::<Vec<_>>().join(" "),
                form: ProviderDraft {
                    name: row.name.clone(),
                    display_name: row.display_name.clone(),
                    issuer: row.issuer.clone(),
                    client_id: row.client_id.clone(),
                    domains: domains.join(", "),
                    redirects: row.redirect_uri_list().collect::<Vec<_>>().join("\n"),
                },
                open: false,
                domains: domains.join(", "),
                created: session.when(row.created_at),
                id: row.id,
                name: row.name,
                display_name: row.display_name,
                issuer: row.issuer,
                client_id: row.client_id,
                disabled: row.disabled,
            })
            .collect(),
        false => Vec::new(),
    };
    let (proofs, sso_replaces) = match may_change {
        true => (
            sso::domains::proofs(&state.services, &caller).await?,
            sso::replaces_second_factor(&state.services, &caller).await?,
        ),
        false => (Vec::new(), false),
    };
    let proofs = proofs
        .into_iter()
        .map(|p| ProofView {
            record_name: sso::domains::record_name(&p.domain),
            record_value: sso::domains::record_value(&p.token),
            proven: p.proven_at.map(|at| session.when(at)),
            domain: p.domain,
        })
        .collect();
    Ok(LoginPage {
        frame: session.frame("/app/login"),
        error,
        email,
        offered: options.modes.iter().map(|m| mode_text(session.text, *m)).collect(),
        offered_provider: options.provider.map(|p| p.display_name),
        own_mode: mode_text(session.text, user.login_mode),
        has_password: user.has_password,
        linked,
        totp_on: second == totp::Standing::On,
        totp_pending: second == totp::Standing::Pending,
        enrolment: None,
        may_change,
        providers,
        callback_url: format!("{}{}", state.services.config.public_base(), sso::CALLBACK_PATH),
        draft: ProviderDraft::default(),
        proofs,
        sso_replaces,
        is_administrator: session.auth.access.is_administrator(),
    })
}

/// `GET /app/login`: everyone's (their own logins); the providers for `manage_settings`.
pub async fn show(State(state): State<AppState>, session: Session) -> Response {
    match login_page(&state, &session, None).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

/// After a change: back to the page, or the page again with the refusal the person can correct.
async fn answer<T>(state: &AppState, session: &Session, outcome: Result<T, Error>) -> Response {
    match outcome {
        Ok(_) => see_other("/app/login"),
        Err(error) => shown_again(error, async |text| login_page(state, session, Some(text)).await).await,
    }
}

/// `POST /app/login/totp`, as `POST /api/v1/users/me/totp`: a new secret, shown this once.
pub async fn totp_enrol(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::Authenticated, fields.get("csrf")) {
        return refused;
    }
    match totp::enrol(&state.services, &session.auth.caller()).await {
        Ok(enrolment) => match login_page(&state, &session, None).await {
            Ok(mut page) => {
                page.enrolment = Some((enrolment.secret, enrolment.uri));
                render(StatusCode::CREATED, &page)
            }
            Err(error) => failure(error),
        },
        Err(error) => answer::<()>(&state, &session, Err(error)).await,
    }
}

/// `POST /app/login/totp/confirm`: `code`, as `POST /api/v1/users/me/totp/confirm`.
pub async fn totp_confirm(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::Authenticated, fields.get("csrf")) {
        return refused;
    }
    let confirmed = totp::confirm(&state.services, &session.auth.caller(), fields.get("code")).await;
    answer(&state, &session, confirmed).await
}

/// `POST /app/login/totp/disable`: `code`, as `POST /api/v1/users/me/totp/disable`.
pub async fn totp_disable(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::Authenticated, fields.get("csrf")) {
        return refused;
    }
    let disabled = totp::disable(&state.services, &session.auth.caller(), fields.get("code")).await;
    answer(&state, &session, disabled).await
}

/// The items of a list typed into one field, separated by white space or by `separators`.
fn items(text: &str, separators: &[char]) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || separators.contains(&c))
        .filter(|i| !i.is_empty())
        .take(100)
        .map(str::to_string)
        .collect()
}

/// `POST /app/login/sso-providers`: `name`, `display_name`, `issuer`, `client_id`,
/// `client_secret` (empty for a public client), `domains`, `redirect_uris`, as
/// `POST /api/v1/sso-providers` (the issuer's discovery document is read now).
pub async fn create_provider(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    // Domains may be separated by commas too; an address may hold one, so only white space
    // separates addresses.
    let (domains, redirects) = (items(fields.get("domains"), &[',', ';']), items(fields.get("redirect_uris"), &[]));
    let secret = fields.all("client_secret").next().filter(|s| !s.is_empty());
    let input = sso::ProviderInput {
        name: fields.get("name"),
        display_name: fields.get("display_name"),
        issuer: fields.get("issuer"),
        client_id: fields.get("client_id"),
        client_secret: secret,
        email_domains: &domains,
        redirect_uris: &redirects,
    };
    match sso::create_provider(&state.services, &session.auth.caller(), &input).await {
        Ok(_) => see_other("/app/login"),
        Err(error) => {
            shown_again(error, async |text| {
                let mut page = login_page(&state, &session, Some(text)).await?;
                page.draft = typed(&fields);
                Ok(page)
            })
            .await
        }
    }
}

/// What was typed into a provider form, but the secret.
fn typed(fields: &FormFields) -> ProviderDraft {
    ProviderDraft {
        name: fields.get("name").to_string(),
        display_name: fields.get("display_name").to_string(),
        issuer: fields.get("issuer").to_string(),
        client_id: fields.get("client_id").to_string(),
        domains: fields.get("domains").to_string(),
        redirects: fields.get("redirect_uris").to_string(),
    }
}

/// `POST /app/login/sso-providers/{id}/change`: the fields of adding one, as
/// `PUT /api/v1/sso-providers/{id}`: an empty `client_secret` keeps the saved secret,
/// `remove_secret` removes it (a public client from then on).
pub async fn update_provider(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    fields: FormFields,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let id = SsoProviderId::from(id);
    let (domains, redirects) = (items(fields.get("domains"), &[',', ';']), items(fields.get("redirect_uris"), &[]));
    let new_secret = fields.all("client_secret").next().filter(|s| !s.is_empty());
    let remove = !fields.get("remove_secret").is_empty();
    let changed = match (new_secret, remove) {
        (Some(_), true) => Err(Error::field("clientSecret", session.text.s("login.secret_or_remove"))),
        (secret, remove) => {
            let input = sso::ProviderInput {
                name: fields.get("name"),
                display_name: fields.get("display_name"),
                issuer: fields.get("issuer"),
                client_id: fields.get("client_id"),
                client_secret: if remove { Some("") } else { secret },
                email_domains: &domains,
                redirect_uris: &redirects,
            };
            sso::update_provider(&state.services, &session.auth.caller(), id, &input).await
        }
    };
    match changed {
        Ok(_) => see_other("/app/login"),
        Err(error) => {
            shown_again(error, async |text| {
                let mut page = login_page(&state, &session, Some(text)).await?;
                if let Some(provider) = page.providers.iter_mut().find(|p| p.id == id) {
                    provider.form = typed(&fields);
                    provider.open = true;
                }
                Ok(page)
            })
            .await
        }
    }
}

/// `POST /app/login/sso-providers/{id}/delete`, as `DELETE /api/v1/sso-providers/{id}`: its
/// users sign in otherwise.
pub async fn delete_provider(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    fields: FormFields,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let deleted = sso::delete_provider(&state.services, &session.auth.caller(), SsoProviderId::from(id)).await;
    answer(&state, &session, deleted).await
}

/// `POST /app/login/domains`: `domain`, as `PUT /api/v1/sso-providers/domain-proofs/{domain}`:
/// the page then shows the TXT record to publish.
pub async fn start_domain_proof(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let domain = fields.get("domain").trim().to_ascii_lowercase();
    let started = sso::domains::start_proof(&state.services, &session.auth.caller(), &domain).await;
    answer(&state, &session, started).await
}

/// `POST /app/login/domains/check`: `domain`, as `POST
/// /api/v1/sso-providers/domain-proofs/{domain}/check`: proven once the record is published.
pub async fn check_domain_proof(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let checked = sso::domains::check_proof(&state.services, &session.auth.caller(), fields.get("domain")).await;
    answer(&state, &session, checked).await
}

/// `POST /app/login/sso-second-factor`: `replaces` (a checkbox), as `PUT
/// /api/v1/sso-providers/second-factor`: whether a single sign-on stands in for the second
/// factor (administrators only; never for administrators unless their provider asserts MFA).
pub async fn set_sso_second_factor(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let replaces = !fields.get("replaces").is_empty();
    let saved = sso::set_replaces_second_factor(&state.services, &session.auth.caller(), replaces).await;
    answer(&state, &session, saved).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_split_on_commas_and_addresses_on_white_space_only() {
        assert_eq!(
            items("bank.example, branch.example;x.example\n", &[',', ';']),
            ["bank.example", "branch.example", "x.example"]
        );
        assert_eq!(
            items("https://a.example/cb?x=1,2\r\n https://b.example/", &[]),
            ["https://a.example/cb?x=1,2", "https://b.example/"]
        );
        assert!(items(" \n ", &[]).is_empty());
    }
}
