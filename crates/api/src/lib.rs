//! Signet's JSON API v1 (`/api/v1`): the routes, their DTOs, the access table of its
//! operations and the OpenAPI document generated from the handlers. A handler extracts the
//! caller and its input (with `signet-http`, which the pages share), calls the services
//! (`signet-services`) and maps the answer; the use cases themselves live there.

pub mod access;
pub mod docs;
pub mod openapi;
pub mod routes;

use axum::Router;
use axum::routing::{MethodRouter, get};
use signet_http::AppState;

/// Addresses the API serves outside its OpenAPI document: the document itself and its viewer.
/// (The gateway's public addresses, its own protocol, are the pages': `signet_web::signer`.)
pub fn undocumented_routes() -> Vec<(String, MethodRouter<AppState>)> {
    vec![
        ("/api/v1/openapi.json".into(), get(docs::openapi_json)),
        ("/api/docs".into(), get(docs::viewer)),
        (docs::DOCS_SCRIPT_PATH.into(), get(docs::viewer_script)),
    ]
}

/// The API: every documented operation (registered through [`openapi::api_router`], so
/// documented by construction, and each checked against the caller's role by
/// [`access::enforce`]) and [`undocumented_routes`].
pub fn router(state: AppState) -> Router {
    let (documented, _) = openapi::api_router().split_for_parts();
    let mut router = documented.route_layer(axum::middleware::from_fn_with_state(state.clone(), access::enforce));
    for (path, route) in undocumented_routes() {
        router = router.route(&path, route);
    }
    router.with_state(state)
}
