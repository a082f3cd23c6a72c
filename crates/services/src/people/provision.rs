//! Creating a tenant with its first administrator and API client (used by `signet tenant
//! create` and by test suites). Secrets are returned once and stored hashed.

use signet_domain::audit::Actor;
use signet_domain::{Error, ErrorCode};
use signet_store::{NewTenant, Store};

use crate::platform::secrets;

#[derive(Debug, Clone)]
pub struct ProvisionedTenant {
    pub tenant_id: signet_domain::TenantId,
    pub admin_user_id: signet_domain::PrincipalId,
    pub client_id: String,
    pub client_secret: String,
    pub admin_email: String,
    /// Present when the password was generated rather than given.
    pub generated_password: Option<String>,
}

pub fn validate_email(email: &str) -> Result<(), Error> {
    let valid = email.len() <= 254
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.')
        })
        && !email.chars().any(|c| c.is_whitespace() || c.is_control());
    if valid { Ok(()) } else { Err(Error::field("adminEmail", "is not a valid email address")) }
}

pub async fn create_tenant(
    store: &Store,
    name: &str,
    admin_email: &str,
    admin_password: Option<&str>,
    actor: &Actor,
) -> Result<ProvisionedTenant, Error> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(Error::field("name", "must be 1 to 200 characters"));
    }
    validate_email(admin_email)?;
    if admin_password.is_some_and(|p| p.chars().count() < 8) {
        return Err(Error::field("adminPassword", "must have at least 8 characters"));
    }
    let generated_password = admin_password.is_none().then(|| secrets::random_token(18));
    let password = admin_password.map(str::to_string).or_else(|| generated_password.clone()).unwrap_or_default();
    let password_hash = tokio::task::spawn_blocking(move || secrets::hash_password(&password))
        .await
        .map_err(Error::internal)?
        .map_err(Error::internal)?;
    let client_id = format!("sgc_{}", secrets::random_token(12));
    let client_secret = secrets::random_token(32);
    let new = NewTenant {
        name: name.to_string(),
        admin_email: admin_email.to_string(),
        admin_password_hash: password_hash,
        client_id: client_id.clone(),
        client_secret_hash: secrets::hash_token(&client_secret),
        admin_stamp: secrets::random_token(16),
        client_stamp: secrets::random_token(16),
    };
    let created = store.create_tenant(&new, actor).await.map_err(|e| match e.code() {
        ErrorCode::Conflict => Error::field("adminEmail", "a user with this email already exists"),
        _ => e,
    })?;
    Ok(ProvisionedTenant {
        tenant_id: created.tenant_id,
        admin_user_id: created.admin_id,
        client_id,
        client_secret,
        admin_email: admin_email.to_string(),
        generated_password,
    })
}
