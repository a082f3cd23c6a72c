//! What Signet's two faces stand on: the JSON API (`signet-api`) and the pages
//! (`signet-web`) share this crate's state, caller extraction (access tokens, the console's
//! session checks them the same way), extractors whose refusals are ProblemDetails, the one
//! table from an error code to an HTTP status, request ids and request logs, and the file
//! responses. Neither face depends on the other; both call the services (`signet-services`).

pub mod auth;
pub mod error;
pub mod extract;
pub mod files;
pub mod observe;

use std::sync::Arc;

use axum::extract::FromRef;
use signet_services::Services;

use crate::auth::jwt::JwtKeys;
use crate::auth::ratelimit::IpRateLimiter;

/// What the faces' handlers share: the services, and the access-token keys and limiter
/// (which the workers never need).
/// Cloned by every extractor of every request, so it is a few reference counts, not the
/// twenty-odd handles of [`Services`].
#[derive(Clone)]
pub struct AppState {
    pub services: Arc<Services>,
    pub jwt: Arc<JwtKeys>,
    pub ip_limiter: Arc<IpRateLimiter>,
}

impl FromRef<AppState> for Services {
    fn from_ref(state: &AppState) -> Services {
        Services::clone(&state.services)
    }
}
