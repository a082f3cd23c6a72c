//! The permission each operation needs, in one table, enforced by one middleware before the
//! handler runs: a caller whose role lacks it gets 403 `forbidden` (another tenant's resources
//! still answer 404: the handlers look them up by tenant). `docs/access.md` shows the matrix
//! this table and [`Role::allows`] make, and `crates/server/tests/e2e/access.rs` walks every
//! operation with every built-in role against that document.

use axum::extract::{FromRequestParts, MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use signet_domain::access::Permission;
use signet_domain::{Error, ErrorCode};

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::ApiError;

/// What an operation needs: nothing (public), or a permission of the caller's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requirement {
    Public,
    Needs(Permission),
}

/// The requirement of the operation `method path` (`path` as the OpenAPI document names it,
/// e.g. `/api/v1/workflows/{workflowId}`); `None` for an address that is no API operation.
pub fn requirement(method: &Method, path: &str) -> Option<Requirement> {
    use Permission::*;
    use Requirement::*;
    let rest = path.strip_prefix("/api/v1/")?;
    let read = method == Method::GET;
    let needs = match rest.split('/').collect::<Vec<_>>().as_slice() {
        [".well-known", "jwks.json"]
        | [
            "auth",
            "token" | "refresh" | "revoke" | "password" | "login-modes" | "check-auth" | "check-account"
            | "authorize-app",
        ] => {
            return Some(Public);
        }
        ["auth", "sessions", "revoke"] | ["users", "me", ..] => Authenticated,
        // The entries the caller may use (filtered by their grants).
        ["menus"] if read => Authenticated,
        ["menus", ..] if read => ReadDirectory,
        ["menus", ..] => ManagePeople,
        ["audit", ..] => ReadAudit,
        ["departments", ..] | ["users", ..] if read => ReadDirectory,
        ["users", "search" | "internal-search"] => ReadDirectory,
        ["departments", ..] | ["users", ..] => ManagePeople,
        // The installation's ESPs, through which the organisation's Aadhaar signers go.
        ["gateway", ..]
        | ["esign", ..]
        | ["webhooks", ..]
        | ["signing-profiles", ..]
        | ["applications", ..]
        | ["sso-providers", ..]
        | ["organisation", ..] => ManageSettings,
        ["roles", ..] if read => ReadDirectory,
        ["roles", ..] => ManagePeople,
        ["documents", "download" | "summary"] => ReadWorkflows,
        ["documents", _, "comments"] if read => ReadWorkflows,
        ["documents", ..] => SendWorkflows,
        // The lot's signer signs it (checked against the lot); a job's own starter follows it,
        // others need to read the tenant's workflows (checked by the service).
        ["lots", "sign"] | ["bulk-jobs", ..] => Authenticated,
        ["lots", ..] if read => ReadWorkflows,
        ["lots", ..] | ["bulk-sends"] => SendWorkflows,
        // An export needs the permission to read what it exports; an export job is followed
        // by whoever asked for it or may export its dataset (checked by the service).
        ["exports", "workflows" | "signatories"] => ReadWorkflows,
        ["exports", "audit-events"] => ReadAudit,
        ["exports", "users"] => ReadDirectory,
        ["exports", "jobs", ..] => Authenticated,
        ["stamps", "settings" | "billing-profile"] => ManageSettings,
        // Issuing bills the tenant; reading what was issued is a read of its workflows.
        ["stamps", "invoices", ..] if read => ReadWorkflows,
        ["stamps", "invoices"] => ManageSettings,
        // Looking articles up is a read, sent as POST with `GetArticleCodesInput`.
        ["stamps", "article-codes"] => ReadWorkflows,
        ["stamps", ..] if read => ReadWorkflows,
        ["stamps", ..] => ManageSettings,
        // Any signed-in user or application may record a referral; administrators list them.
        ["referrals"] if !read => Authenticated,
        ["referrals", ..] => ManageSettings,
        // Leads come from the tenant's sales integrations (applications with the permission).
        ["crm", ..] => ManageSettings,
        // A report sealed in the organisation's name states what a file showed: as reading
        // its workflows (`POST /verify` and `/verify/report` are public).
        ["verify", "sealed-report"] => ReadWorkflows,
        ["workflows", ..] | ["templates", ..] if read => ReadWorkflows,
        ["templates", "find"] => ReadWorkflows,
        ["workflows", ..] | ["templates", ..] => SendWorkflows,
        _ => return None,
    };
    Some(Needs(needs))
}

/// Refuses an operation the caller's role does not allow, before its handler runs; the
/// caller it authenticated is handed to the handler (no second token check).
pub async fn enforce(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let path = request.extensions().get::<MatchedPath>().map(|m| m.as_str().to_string()).unwrap_or_default();
    let permission = match requirement(request.method(), &path) {
        Some(Requirement::Needs(permission)) => permission,
        // Public operations, and addresses outside the API (its own 404/405 answers).
        Some(Requirement::Public) | None => return next.run(request).await,
    };
    let (mut parts, body) = request.into_parts();
    let auth = match Auth::from_request_parts(&mut parts, &state).await {
        Ok(auth) => auth,
        Err(refusal) => return refusal.into_response(),
    };
    if !auth.access.allows(permission) {
        let detail = format!("the {} role does not allow this operation", auth.access.name());
        return ApiError::from(Error::rejected(ErrorCode::Forbidden, detail)).into_response();
    }
    parts.extensions.insert(auth);
    next.run(Request::from_parts(parts, body)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_of_one_resource_need_different_permissions() {
        let needs = |m: Method, p: &str| requirement(&m, p);
        assert_eq!(needs(Method::GET, "/api/v1/users/{userId}"), Some(Requirement::Needs(Permission::ReadDirectory)));
        assert_eq!(needs(Method::PUT, "/api/v1/users/{userId}"), Some(Requirement::Needs(Permission::ManagePeople)));
        assert_eq!(needs(Method::POST, "/api/v1/workflows"), Some(Requirement::Needs(Permission::SendWorkflows)));
        assert_eq!(needs(Method::GET, "/api/v1/workflows"), Some(Requirement::Needs(Permission::ReadWorkflows)));
        assert_eq!(needs(Method::POST, "/api/v1/auth/token"), Some(Requirement::Public));
        assert_eq!(needs(Method::GET, "/healthz"), None);
    }
}
