//! Sessions, apart from the tokens' signatures (the API signs access tokens with its own
//! keys): a session is a family of rotating refresh tokens kept hashed, spent once each, and
//! the whole family revoked when one is used twice. A session lives while its principal
//! keeps its security stamp and stays active and enabled (`authority::sessions`); every
//! request checks that here, through the store's principal cache.

use signet_domain::access::Access;
use signet_domain::authority::sessions::keeps_sessions;
use signet_domain::{Error, Millis, PrincipalId, TenantId, now_millis};
use signet_store::{NewRefreshToken, PrincipalCredentials, RefreshUse};

use crate::{Caller, Services, platform::secrets};

/// What a new or rotated session's refresh side is: the token (shown once) and its family.
#[derive(Debug, Clone)]
pub struct Refresh {
    pub token: String,
    pub family: String,
    pub expires_at: Millis,
}

/// Who a session's access token speaks for.
#[derive(Debug, Clone)]
pub struct Holder {
    pub principal_id: PrincipalId,
    pub tenant_id: TenantId,
    pub security_stamp: String,
    /// `user` or `client`, as the principal is stored.
    pub kind: String,
}

/// Starts a session (a new token family) for a principal who has just proved who they are.
pub async fn open(svc: &Services, principal: &PrincipalCredentials) -> Result<Refresh, Error> {
    let family = secrets::random_token(16);
    let ttl_ms = i64::try_from(svc.config.refresh_token_ttl_secs.saturating_mul(1000)).unwrap_or(i64::MAX);
    let expires_at = now_millis().saturating_add(ttl_ms);
    add_token(svc, principal.id, principal.tenant_id, family, expires_at).await
}

async fn add_token(
    svc: &Services,
    principal_id: PrincipalId,
    tenant_id: TenantId,
    family: String,
    expires_at: Millis,
) -> Result<Refresh, Error> {
    let token = secrets::random_token(32);
    let token_hash = secrets::hash_token(&token);
    let new = NewRefreshToken { token_hash: &token_hash, family_id: &family, principal_id, tenant_id, expires_at };
    svc.store.insert_refresh_token(&new).await?;
    Ok(Refresh { token, family, expires_at })
}

/// What presenting a refresh token came to.
#[derive(Debug, Clone)]
pub enum Rotation {
    /// Spent; its successor is issued in the same family, for `holder`.
    Rotated {
        holder: Holder,
        refresh: Refresh,
    },
    /// The principal is no longer active and enabled, or no longer exists.
    Ended,
    /// Used before: the whole family is now revoked.
    Reused,
    Expired,
    Unknown,
}

/// Spends `refresh_token` for its successor (reuse revokes the whole family).
pub async fn rotate(svc: &Services, refresh_token: &str) -> Result<Rotation, Error> {
    let (principal_id, tenant_id, family_id, expires_at) =
        match svc.store.use_refresh_token(&secrets::hash_token(refresh_token)).await? {
            RefreshUse::Fresh { principal_id, tenant_id, family_id, expires_at } => {
                (principal_id, tenant_id, family_id, expires_at)
            }
            RefreshUse::Reused => return Ok(Rotation::Reused),
            RefreshUse::Expired => return Ok(Rotation::Expired),
            RefreshUse::Unknown => return Ok(Rotation::Unknown),
        };
    let current = svc.store.principal_auth(tenant_id, principal_id).await?;
    let Some(current) = current.filter(|p| keeps_sessions(&p.status, p.disabled)) else {
        return Ok(Rotation::Ended);
    };
    let Some(kind) = svc.store.principal_kind(principal_id).await? else {
        return Ok(Rotation::Ended);
    };
    let refresh = add_token(svc, principal_id, tenant_id, family_id, expires_at).await?;
    let holder = Holder { principal_id, tenant_id, security_stamp: current.security_stamp, kind };
    Ok(Rotation::Rotated { holder, refresh })
}

/// Revokes the session `refresh_token` belongs to (nothing happens for an unknown token, as
/// RFC 7009 asks).
pub async fn revoke(svc: &Services, refresh_token: &str) -> Result<(), Error> {
    svc.store.revoke_refresh_family(&secrets::hash_token(refresh_token)).await
}

/// The principal and tenant of a session whose refresh token is still live (the console's
/// cookie carries it).
pub async fn live(svc: &Services, refresh_token: &str) -> Result<Option<(PrincipalId, TenantId)>, Error> {
    svc.store.live_refresh_token(&secrets::hash_token(refresh_token)).await
}

/// What a session's holder may do now: `None` once the principal stops being active and
/// enabled or its security stamp is no longer `stamp` (disabling, a role change or ending
/// sessions changed it), so that such a change takes effect on the next request.
pub async fn current_access(
    svc: &Services,
    tenant_id: TenantId,
    principal_id: PrincipalId,
    stamp: &str,
) -> Result<Option<Access>, Error> {
    let current = svc.store.principal_auth_cached(tenant_id, principal_id).await?;
    Ok(current.filter(|p| keeps_sessions(&p.status, p.disabled) && p.security_stamp == stamp).map(|p| p.access()))
}

/// Ends every session of the caller (a new security stamp); `false` when the caller no
/// longer exists.
pub async fn end_own(svc: &Services, caller: &Caller) -> Result<bool, Error> {
    let stamp = secrets::random_token(16);
    svc.store.end_sessions(caller.tenant_id, caller.principal_id, &stamp, false, &caller.actor).await
}

/// The API client `client_id` if `secret` is its secret and it may sign in; the attempt was
/// admitted (and counted) as `account_key`, whose count a success clears.
pub async fn client_credentials(
    svc: &Services,
    account_key: &str,
    client_id: &str,
    secret: &str,
) -> Result<Option<PrincipalCredentials>, Error> {
    let principal = svc.store.principal_by_client_id(client_id).await?;
    // Compared whether or not the client exists, so that the answer takes as long.
    let stored_hash = principal.as_ref().map(|p| p.secret_hash.as_str()).unwrap_or("");
    let secret_ok = secrets::token_matches(secret, stored_hash);
    match principal {
        Some(p) if secret_ok && keeps_sessions(&p.status, p.disabled) => {
            svc.store.clear_auth_failures(account_key).await?;
            Ok(Some(p))
        }
        _ => Ok(None),
    }
}

/// Forgets the failed attempts counted as `account_key` (after a successful sign-in).
pub async fn clear_failures(svc: &Services, account_key: &str) -> Result<(), Error> {
    svc.store.clear_auth_failures(account_key).await
}
