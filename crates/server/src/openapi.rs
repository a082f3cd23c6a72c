//! The OpenAPI 3.1 document, generated from the handlers themselves (utoipa-axum registers
//! each route and its documentation in one place, so they cannot drift apart).

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::ProblemDetails;
use crate::routes::{audit, auth, departments, gateway_admin};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Signet API",
        version = "v1",
        description = "Signet's JSON API v1. Errors are RFC 9457 ProblemDetails with a stable `code`."
    ),
    modifiers(&BearerAuth),
    components(schemas(ProblemDetails)),
    tags(
        (name = "auth", description = "Token operations"),
        (name = "departments", description = "Departments of the tenant"),
        (name = "audit", description = "The tenant's hash-chained audit trail"),
        (name = "gateway", description = "Signing gateway administration: Authtokens and settings"),
    )
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    }
}

/// Every documented API route, with its documentation.
pub fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(auth::token))
        .routes(routes!(auth::refresh))
        .routes(routes!(auth::revoke))
        .routes(routes!(auth::revoke_sessions))
        .routes(routes!(auth::jwks))
        .routes(routes!(departments::create, departments::list))
        .routes(routes!(departments::get, departments::update, departments::delete))
        .routes(routes!(departments::delete_one))
        .routes(routes!(departments::bulk_delete))
        .routes(routes!(audit::list))
        .routes(routes!(audit::verify))
        .routes(routes!(gateway_admin::create_authtoken, gateway_admin::list_authtokens))
        .routes(routes!(gateway_admin::revoke_authtoken))
        .routes(routes!(gateway_admin::get_settings, gateway_admin::put_settings))
}

/// The document as served and as committed in `openapi.json`.
pub fn document() -> utoipa::openapi::OpenApi {
    api_router().split_for_parts().1
}

pub fn document_json() -> String {
    document().to_pretty_json().unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
