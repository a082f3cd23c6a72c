//! Authentication: JWT access tokens, rotating refresh tokens, security stamps, rate limits.

pub mod jwt;
pub mod ratelimit;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use signet_domain::PrincipalId;
use signet_domain::audit::Actor;

use crate::AppState;
use crate::error::{ApiError, HttpCode};
use crate::extract::ClientIp;

/// The caller of an authenticated operation. Every tenant-scoped query uses `tenant_id`.
#[derive(Debug, Clone)]
pub struct Auth {
    pub tenant_id: signet_domain::TenantId,
    pub principal_id: PrincipalId,
    pub kind: jwt::PrincipalKind,
    pub ip: std::net::IpAddr,
    /// What the caller may do (each face checks it per operation): its built-in role, or its
    /// tenant's role.
    pub access: signet_domain::access::Access,
}

impl Auth {
    /// The caller as the services know it.
    pub fn caller(&self) -> signet_services::Caller {
        let actor = self.actor();
        signet_services::Caller {
            tenant_id: self.tenant_id,
            principal_id: self.principal_id,
            is_user: self.kind == jwt::PrincipalKind::User,
            access: self.access.clone(),
            actor,
        }
    }

    /// The actor recorded in the audit trail for changes made by this caller.
    pub fn actor(&self) -> Actor {
        Actor { id: format!("{}:{}", self.kind.as_str(), self.principal_id), ip: Some(self.ip.to_string()) }
    }
}

fn bearer_token(parts: &Parts) -> Result<&str, ApiError> {
    let header = parts
        .headers
        .get(AUTHORIZATION)
        .ok_or_else(|| ApiError::new(HttpCode::Unauthenticated, "an access token is required"))?;
    let value = header
        .to_str()
        .map_err(|_| ApiError::new(HttpCode::InvalidToken, "the Authorization header is not readable"))?;
    match value.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() => Ok(token.trim()),
        _ => Err(ApiError::new(HttpCode::InvalidToken, "expected 'Authorization: Bearer <token>'")),
    }
}

impl<S> FromRequestParts<S> for Auth
where
    AppState: FromRef<S>,
    signet_services::Services: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        // Already authenticated by the access check of this request.
        if let Some(auth) = parts.extensions.get::<Auth>() {
            return Ok(auth.clone());
        }
        let app = AppState::from_ref(state);
        let token = bearer_token(parts)?.to_string();
        let ClientIp(ip) = ClientIp::from_request_parts(parts, state).await?;
        Auth::from_access_token(&app, &token, ip).await
    }
}

impl Auth {
    /// The caller an access token names, checked as every request's is: the signature and
    /// lifetime, then the principal's current security stamp and status. The console's
    /// session cookie carries the same token, so it is revoked by the same changes.
    pub async fn from_access_token(app: &AppState, token: &str, ip: std::net::IpAddr) -> Result<Auth, ApiError> {
        let claims = app.jwt.verify_access(token)?;
        Auth::current(app, claims.tid.into(), claims.principal_id()?, claims.kind()?, &claims.stamp, ip).await
    }

    /// The principal as it is now, refused unless it is active and enabled
    /// (`authority::sessions::keeps_sessions`: marked inactive, disabled or deleted ends every
    /// session, whatever the change asked for its tokens) and `stamp` is still its security
    /// stamp. The stamp check makes disabling a principal, changing its role or ending its
    /// sessions take effect at once, on every instance, without waiting for tokens to expire;
    /// the cache behind it is emptied by every such change, a status change included
    /// (crates/store/src/principal_cache.rs).
    pub async fn current(
        app: &AppState,
        tenant_id: signet_domain::TenantId,
        principal_id: PrincipalId,
        kind: jwt::PrincipalKind,
        stamp: &str,
        ip: std::net::IpAddr,
    ) -> Result<Auth, ApiError> {
        let access = signet_services::people::sessions::current_access(&app.services, tenant_id, principal_id, stamp)
            .await?
            .ok_or_else(|| ApiError::new(HttpCode::InvalidToken, "the access token has been revoked"))?;
        Ok(Auth { tenant_id, principal_id, kind, ip, access })
    }
}
