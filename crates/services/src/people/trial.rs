//! Self-service free trials (`FreeTrialRequest`, with `free_trial` on): a person signs up with
//! their name, address and password; after they verify the address through the e-mailed link
//! a tenant is made with them as its first administrator, limited to `trial_days` days,
//! `trial_max_workflows` workflows and `trial_max_users` users. The sign-up answers the same
//! whether the address is known (a known address gets no second account), and the limits are
//! enforced where workflows and users are made, with `limit_reached` naming the limit.

use signet_domain::audit::Actor;
use signet_domain::{Error, ErrorCode, TenantId, now_millis};
use signet_store::{NewTenant, TenantLimits, TrialSignup};

use crate::platform::mail::{self, Mail};
use crate::{Services, platform::secrets};

/// How long a sign-up's verification link works.
const SIGNUP_TTL_MS: i64 = 24 * 3600 * 1000;

/// A sign-up as sent.
pub struct FreeTrial<'a> {
    pub email: &'a str,
    pub password: &'a str,
    pub name: &'a str,
    pub is_sso: bool,
    /// The installation's sign-up provider (`sso_signup_providers`) that proves the address.
    pub sso_provider: Option<&'a str>,
    pub source: Option<&'a str>,
}

/// Takes a sign-up: checks it, and e-mails a verification link to a new address; through
/// single sign-on, answers the address that sends the person to the provider instead (for
/// every address alike: an address with an account learns so only after the provider proved
/// it is theirs).
pub async fn sign_up(svc: &Services, request: &FreeTrial<'_>) -> Result<Option<String>, Error> {
    if !svc.config.free_trial {
        return Err(Error::rejected(ErrorCode::StateConflict, "free trials are not offered on this installation"));
    }
    let sso_provider = if request.is_sso {
        let name = request.sso_provider.unwrap_or_default();
        if !svc.config.sso_signup_providers.iter().any(|p| p.name == name) {
            return Err(Error::field("ssoProvider", "must name a sign-up provider of this installation"));
        }
        Some(name.to_string())
    } else {
        None
    };
    let name = request.name.trim();
    if name.is_empty() || request.name.chars().count() > 150 || request.name.chars().any(char::is_control) {
        return Err(Error::field("name", "must be 1 to 150 characters without control characters"));
    }
    if request.email.chars().count() > 150 || !signet_domain::workflow::is_valid_email(request.email) {
        return Err(Error::field("emailId", "must be a valid e-mail address of at most 150 characters"));
    }
    if request.password.chars().count() > 150 {
        return Err(Error::field("password", "must be at most 150 characters"));
    }
    crate::people::passwords::check_password(request.password, Some(request.email))?;
    if sso_provider.is_none() && !svc.mailer.is_configured() {
        return Err(Error::rejected(
            ErrorCode::StateConflict,
            "e-mail is not configured on this installation (smtp_url)",
        ));
    }
    if sso_provider.is_none() && svc.store.principal_by_email(request.email).await?.is_some() {
        return Ok(None);
    }
    let password_hash = svc.doors.passwords.hash(request.password.to_string()).await?;
    let token = secrets::random_token(32);
    let signup = TrialSignup {
        email: request.email.to_lowercase(),
        name: name.to_string(),
        password_hash,
        source: request.source.map(|s| s.chars().take(100).collect()),
        sso_provider,
    };
    svc.store.create_trial_signup(&secrets::hash_token(&token), &signup, now_millis() + SIGNUP_TTL_MS).await?;
    if signup.sso_provider.is_some() {
        return Ok(Some(format!("{}/sso/signup/{token}", svc.config.public_base())));
    }
    let link = format!("{}/account/verify?token={token}", svc.config.public_base());
    let text = format!(
        "Hello {name},\n\nconfirm your address to start your Signet trial ({} days):\n{link}\n\nThe link works once, for 24 hours.\n",
        svc.config.trial_days
    );
    let mail = Mail {
        to_email: signup.email.clone(),
        to_name: name.to_string(),
        subject: "Start your Signet trial".into(),
        text,
        html: None,
        attachments: Vec::new(),
    };
    mail::enqueue(&svc.store, &mail, None).await.map(|_| None)
}

/// Verifies a sign-up: makes the trial tenant with its administrator; answers the tenant.
pub async fn verify(svc: &Services, token: &str) -> Result<TenantId, Error> {
    if token.is_empty() || token.len() > 200 {
        return Err(Error::rejected(ErrorCode::LinkExpired, "this link has expired or was already used"));
    }
    let hash = secrets::hash_token(token);
    // A sign-up through single sign-on is proven by its provider only, never by this link.
    if svc.store.pending_trial_signup(&hash).await?.is_some_and(|s| s.sso_provider.is_some()) {
        return Err(Error::rejected(ErrorCode::LinkExpired, "this link has expired or was already used"));
    }
    start_verified(svc, &hash).await
}

/// Makes the trial tenant of a sign-up whose address is proven (by its e-mailed link, or by
/// the sign-up provider); the sign-up is spent.
pub(crate) async fn start_verified(svc: &Services, signup_hash: &str) -> Result<TenantId, Error> {
    let signup = svc
        .store
        .take_trial_signup(signup_hash)
        .await?
        .ok_or_else(|| Error::rejected(ErrorCode::LinkExpired, "this link has expired or was already used"))?;
    let client_secret = secrets::random_token(32);
    let new = NewTenant {
        name: format!("{} (trial)", signup.name),
        admin_email: signup.email.clone(),
        admin_password_hash: signup.password_hash.clone(),
        client_id: format!("sgc_{}", secrets::random_token(12)),
        client_secret_hash: secrets::hash_token(&client_secret),
        admin_stamp: secrets::random_token(16),
        client_stamp: secrets::random_token(16),
    };
    let actor = Actor { id: "free-trial".into(), ip: None };
    let created = svc.store.create_tenant(&new, &actor).await.map_err(|error| {
        if error.code() == ErrorCode::Conflict {
            Error::rejected(ErrorCode::Conflict, "an account with this address exists: sign in instead")
        } else {
            error
        }
    })?;
    let days = i64::try_from(svc.config.trial_days).unwrap_or(i64::MAX / 86_400_000);
    let limits = TenantLimits {
        trial_ends_at: Some(now_millis().saturating_add(days.saturating_mul(86_400_000))),
        max_workflows: Some(svc.config.trial_max_workflows),
        max_users: Some(svc.config.trial_max_users),
    };
    svc.store.set_tenant_limits(created.tenant_id, &limits).await?;
    Ok(created.tenant_id)
}

/// What a tenant is about to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Making {
    Workflow,
    User,
}

/// Refuses what a trial tenant may no longer make (other tenants have no limits).
pub async fn allow(svc: &Services, tenant_id: TenantId, making: Making) -> Result<(), Error> {
    let limits = svc.store.tenant_limits(tenant_id).await?;
    if let Some(ends) = limits.trial_ends_at
        && ends <= now_millis()
    {
        return Err(Error::rejected(ErrorCode::LimitReached, "the free trial has ended"));
    }
    let (workflows, users) = match (limits.max_workflows, limits.max_users) {
        (None, None) => return Ok(()),
        _ => svc.store.tenant_usage(tenant_id).await?,
    };
    match making {
        Making::Workflow if limits.max_workflows.is_some_and(|max| workflows >= max) => Err(Error::rejected(
            ErrorCode::LimitReached,
            format!("the free trial allows {} workflows", limits.max_workflows.unwrap_or_default()),
        )),
        Making::User if limits.max_users.is_some_and(|max| users >= max) => Err(Error::rejected(
            ErrorCode::LimitReached,
            format!("the free trial allows {} users", limits.max_users.unwrap_or_default()),
        )),
        _ => Ok(()),
    }
}
