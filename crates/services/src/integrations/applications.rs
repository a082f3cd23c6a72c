//! Applications (`AuthorizeAppRequest`): a tenant registers named applications that obtain API
//! tokens with the role given to them. The secret key is `<clientId>.<secret>`, shown once and
//! kept as its SHA-256 (256 random bits need no slow hash); rotating it or revoking the
//! application ends its sessions at once.

use signet_domain::access::{Access, Role};
use signet_domain::authority::people;
use signet_domain::{Error, ErrorCode, PrincipalId};
use signet_store::{ApplicationRow, NewApplication, PrincipalCredentials};

use crate::{Caller, Services, platform::secrets};

fn check_name(raw: &str) -> Result<&str, Error> {
    let name = raw.trim();
    if name.is_empty() || raw.chars().count() > 100 || raw.chars().any(char::is_control) {
        return Err(Error::field("appName", "must be 1 to 100 characters without control characters"));
    }
    Ok(name)
}

fn new_secret(client_id: &str) -> String {
    format!("{client_id}.{}", secrets::random_token(32))
}

/// Registers an application with `role`; answers it and its secret key (shown only now).
pub async fn create(
    svc: &Services,
    caller: &Caller,
    name: &str,
    role_id: i64,
) -> Result<(ApplicationRow, String), Error> {
    let name = check_name(name)?;
    let role = i32::try_from(role_id)
        .ok()
        .and_then(Role::from_id)
        .ok_or_else(|| Error::field("roleId", "must be 1 (administrator), 2 (sender), 3 (signer) or 4 (auditor)"))?;
    if !people::may_grant(&caller.access, &Access::builtin(role)) {
        return Err(Error::rejected(ErrorCode::Forbidden, "your role cannot give an application this role"));
    }
    let client_id = format!("sga_{}", secrets::random_token(12));
    let secret = new_secret(&client_id);
    let new = NewApplication {
        name,
        client_id: &client_id,
        role,
        secret_hash: &secrets::hash_token(&secret),
        stamp: &secrets::random_token(16),
    };
    let row = svc.store.create_application(caller.tenant_id, &new, &caller.actor).await?;
    Ok((row, secret))
}

/// A new secret key for an application (never the caller's own: it would lock itself out);
/// the old one stops working at once.
pub async fn rotate(svc: &Services, caller: &Caller, id: PrincipalId) -> Result<(ApplicationRow, String), Error> {
    refuse_self(caller, id)?;
    let current = svc.store.applications(caller.tenant_id).await?.into_iter().find(|a| a.id == id && !a.disabled);
    let current = current.ok_or(Error::not_found("application"))?;
    check_manage(caller, &current)?;
    let client_id = current.client_id.ok_or(Error::not_found("application"))?;
    let secret = new_secret(&client_id);
    let row = svc
        .store
        .rotate_application_secret(
            caller.tenant_id,
            id,
            &secrets::hash_token(&secret),
            &secrets::random_token(16),
            &caller.actor,
        )
        .await?;
    Ok((row, secret))
}

/// Revokes an application (never the caller's own credentials).
pub async fn revoke(svc: &Services, caller: &Caller, id: PrincipalId) -> Result<(), Error> {
    refuse_self(caller, id)?;
    let current = svc.store.applications(caller.tenant_id).await?.into_iter().find(|a| a.id == id);
    check_manage(caller, &current.ok_or(Error::not_found("application"))?)?;
    svc.store.revoke_application(caller.tenant_id, id, &secrets::random_token(16), &caller.actor).await.map(|_| ())
}

/// A new key for an application is its role in the caller's hands: only callers whose role
/// covers the application's rotate or revoke it (`authority::people::may_manage`).
fn check_manage(caller: &Caller, application: &ApplicationRow) -> Result<(), Error> {
    if !people::may_manage(&caller.access, &Access::builtin(application.role)) {
        return Err(Error::rejected(
            ErrorCode::Forbidden,
            "only administrators change an application whose role allows more than yours",
        ));
    }
    Ok(())
}

fn refuse_self(caller: &Caller, id: PrincipalId) -> Result<(), Error> {
    if !caller.is_user && caller.principal_id == id {
        return Err(Error::rejected(ErrorCode::StateConflict, "an application cannot rotate or revoke its own key"));
    }
    Ok(())
}

/// The application `app_name` when `secret_key` is its current key; `None` for any failure.
pub async fn authorize(
    svc: &Services,
    app_name: &str,
    secret_key: &str,
) -> Result<Option<PrincipalCredentials>, Error> {
    let Some((client_id, _)) = secret_key.split_once('.') else { return Ok(None) };
    if !client_id.starts_with("sga_") || client_id.len() > 64 {
        return Ok(None);
    }
    let Some(found) = svc.store.principal_by_client_id(client_id).await? else { return Ok(None) };
    let named = svc
        .store
        .applications(found.tenant_id)
        .await?
        .into_iter()
        .any(|a| a.id == found.id && a.name.as_deref().is_some_and(|n| n.eq_ignore_ascii_case(app_name.trim())));
    let key_ok = secrets::token_matches(secret_key, &found.secret_hash);
    Ok((key_ok && named && !found.disabled && found.status == "active").then_some(found))
}

/// The tenant's applications, revoked ones included (managing settings).
pub async fn list(svc: &Services, caller: &Caller) -> Result<Vec<ApplicationRow>, Error> {
    caller.require(signet_domain::access::Permission::ManageSettings)?;
    svc.store.applications(caller.tenant_id).await
}
