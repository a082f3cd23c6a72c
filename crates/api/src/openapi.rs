//! The OpenAPI 3.1 document, generated from the handlers themselves (utoipa-axum registers
//! each route and its documentation in one place, so they cannot drift apart).

use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{
    ClientCredentials, Flow, HttpAuthScheme, HttpBuilder, OAuth2, Password, Scopes, SecurityScheme,
};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::routes::{
    applications, audit, auth, bulk, certificates, departments, documents, embedding, esign, exports, gateway_admin,
    initiate_and_sign, invoices, menus, privacy, roles, sales, signing_profiles, sso, stamps, users, verify, webhooks,
    workflow_actions, workflows,
};
use signet_http::AppState;
use signet_http::error::ProblemDetails;

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
        (name = "users", description = "People of the tenant: staff, their roles and life cycle; see docs/access.md"),
        (name = "audit", description = "The tenant's hash-chained audit trail"),
        (name = "gateway", description = "Signing gateway administration: Authtokens and settings"),
        (name = "esign", description = "Aadhaar eSign as the organisation's administrator sees it: the installation's eSign service providers (ESPs), their health and routing (a Signet extension); see docs/esign.md"),
        (name = "documents", description = "Documents for workflows: upload, download"),
        (name = "workflows", description = "Workflows: signatories in order, signer links, events; templates"),
        (name = "webhooks", description = "Webhook endpoints and their deliveries (Standard Webhooks)"),
        (name = "embedding", description = "Embedded signing: a signer's turn shown inside the organisation's own web application (the origins allowed, the look, a signatory's embed address); see docs/embedding.md"),
        (name = "verification", description = "Verification for everyone: a signed PDF, XML or CMS file's signatures checked and explained; nothing is kept"),
        (name = "sales", description = "Customer referrals and CRM leads with their outbox to the tenant's CRM endpoint"),
        (name = "exports", description = "Exports of workflows, signatories, audit events and users as CSV, XLSX or JSON Lines, streamed or as jobs; see docs/exports.md"),
        (name = "privacy", description = "Retention periods, legal holds and a person's erasure request; what erasure leaves: docs/privacy.md"),
        (name = "stamps", description = "Stamp duty: the inventory of pre-purchased e-stamp certificates, its stock and alerts, articles of stamp schedules, invoices and debit notes of workflows; see docs/stamps.md"),
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
        // Where the bearer tokens come from, so that clients (and testers) know the token
        // operation answers a wrong credential with OAuth's 400 `invalid_grant`.
        let (token, refresh) = ("/api/v1/auth/token", "/api/v1/auth/refresh");
        components.add_security_scheme(
            "oauth2",
            SecurityScheme::OAuth2(OAuth2::with_description(
                [
                    Flow::ClientCredentials(ClientCredentials::with_refresh_url(token, Scopes::new(), refresh)),
                    Flow::Password(Password::with_refresh_url(token, Scopes::new(), refresh)),
                ],
                "The token operations; the access token is then sent as `Authorization: Bearer`.",
            )),
        );
    }
}

/// Adds the failures every operation can produce (from the shared extractors and middleware)
/// to each operation, so the document lists every status a client can see.
struct CommonResponses;

fn problem_response(description: &str) -> RefOr<Response> {
    let content = ContentBuilder::new().schema(Some(Ref::from_schema_name("ProblemDetails"))).build();
    RefOr::T(ResponseBuilder::new().description(description).content("application/problem+json", content).build())
}

fn add_common(operation: &mut Operation, method: &axum::http::Method, path: &str) {
    // Every path parameter is required (OpenAPI says so); a schema given by hand
    // (`schema_with`) leaves utoipa unable to tell.
    for parameter in operation.parameters.iter_mut().flatten() {
        if let RefOr::T(parameter) = parameter
            && parameter.parameter_in == utoipa::openapi::path::ParameterIn::Path
        {
            parameter.required = utoipa::openapi::Required::True;
        }
    }
    let responses = &mut operation.responses.responses;
    let mut add = |status: &str, description: &str| {
        responses.entry(status.to_string()).or_insert_with(|| problem_response(description));
    };
    let has_input = operation.request_body.is_some() || operation.parameters.as_ref().is_some_and(|p| !p.is_empty());
    if has_input {
        add("400", "Invalid input (`validation_failed`, `malformed_body`)");
    }
    if operation.request_body.is_some() {
        add("413", "Body larger than the configured limit (`payload_too_large`)");
        add("415", "Body without a supported Content-Type (`unsupported_media_type`)");
    }
    if operation.security.as_ref().is_some_and(|s| !s.is_empty()) {
        add("401", "Missing, invalid, expired or revoked access token");
    }
    if matches!(
        crate::access::requirement(method, path),
        Some(crate::access::Requirement::Needs(p)) if p != signet_domain::access::Permission::Authenticated
    ) {
        add("403", "The caller's role does not allow this operation (`forbidden`); see docs/access.md");
    }
    if path.starts_with("/api/v1/auth/") {
        add("429", "Too many requests (`rate_limited`); see Retry-After");
    }
    add("500", "Internal error (`internal_error`); the log has the cause under the requestId");
    add("503", "The database is unavailable (`service_unavailable`)");
}

impl Modify for CommonResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in openapi.paths.paths.iter_mut() {
            use axum::http::Method;
            let operations = [
                (Method::GET, &mut item.get),
                (Method::PUT, &mut item.put),
                (Method::POST, &mut item.post),
                (Method::DELETE, &mut item.delete),
            ];
            for (method, operation) in operations {
                if let Some(operation) = operation {
                    add_common(operation, &method, path);
                }
            }
        }
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
        .routes(routes!(auth::set_password))
        .routes(routes!(auth::login_modes))
        .routes(routes!(auth::authorize_app))
        .routes(routes!(auth::free_trial))
        .routes(routes!(applications::create, applications::list))
        .routes(routes!(applications::rotate))
        .routes(routes!(applications::revoke))
        .routes(routes!(verify::verify))
        .routes(routes!(verify::report))
        .routes(routes!(verify::sealed_report))
        .routes(routes!(sso::create, sso::list))
        .routes(routes!(sso::update, sso::delete))
        .routes(routes!(sso::list_proofs))
        .routes(routes!(sso::start_proof))
        .routes(routes!(sso::check_proof))
        .routes(routes!(sso::get_settings, sso::put_settings))
        .routes(routes!(users::manage_info))
        .routes(routes!(users::totp_enrol))
        .routes(routes!(users::totp_confirm))
        .routes(routes!(users::totp_disable))
        .routes(routes!(users::totp_reset))
        .routes(routes!(certificates::enrol))
        .routes(routes!(certificates::reset))
        .routes(routes!(certificates::get, certificates::put))
        .routes(routes!(auth::check_auth))
        .routes(routes!(auth::check_account))
        .routes(routes!(users::create))
        .routes(routes!(users::me))
        .routes(routes!(users::get, users::update))
        .routes(routes!(users::search_internal))
        .routes(routes!(users::search))
        .routes(routes!(users::disable))
        .routes(routes!(users::mark_inactive))
        .routes(routes!(users::reactivate))
        .routes(routes!(users::delete))
        .routes(routes!(users::password_email))
        .routes(routes!(users::register))
        .routes(routes!(users::approve_external))
        .routes(routes!(users::reject_external))
        .routes(routes!(roles::list, roles::create))
        .routes(routes!(roles::delete))
        .routes(routes!(menus::create_activity))
        .routes(routes!(menus::delete_activity))
        .routes(routes!(menus::list))
        .routes(routes!(menus::assign))
        .routes(routes!(menus::access))
        .routes(routes!(menus::revoke_user))
        .routes(routes!(menus::revoke_department))
        .routes(routes!(departments::create, departments::list))
        .routes(routes!(departments::get, departments::update, departments::delete))
        .routes(routes!(departments::delete_one))
        .routes(routes!(departments::bulk_delete))
        .routes(routes!(audit::list))
        .routes(routes!(audit::verify))
        .routes(routes!(gateway_admin::create_authtoken, gateway_admin::list_authtokens))
        .routes(routes!(gateway_admin::revoke_authtoken))
        .routes(routes!(gateway_admin::get_settings, gateway_admin::put_settings))
        .routes(routes!(gateway_admin::transaction))
        .routes(routes!(esign::esp_providers))
        .routes(routes!(documents::upload))
        .routes(routes!(documents::upload_bulk))
        .routes(routes!(documents::download))
        .routes(routes!(workflows::initiate, workflows::list))
        .routes(routes!(workflows::get))
        .routes(routes!(workflows::audit))
        .routes(routes!(workflows::certificate))
        .routes(routes!(workflows::evidence))
        .routes(routes!(workflows::create_template))
        .routes(routes!(workflows::get_template))
        .routes(routes!(workflows::find_templates))
        .routes(routes!(initiate_and_sign::initiate_and_sign))
        .routes(routes!(initiate_and_sign::optimized))
        .routes(routes!(signing_profiles::create, signing_profiles::list))
        .routes(routes!(signing_profiles::revoke))
        .routes(routes!(workflow_actions::delegate))
        .routes(routes!(workflow_actions::revoke_link))
        .routes(routes!(workflow_actions::remind))
        .routes(routes!(embedding::embed_signatory))
        .routes(routes!(embedding::get_embedding, embedding::put_embedding))
        .routes(routes!(workflow_actions::decline))
        .routes(routes!(workflow_actions::link))
        .routes(routes!(workflow_actions::inactive))
        .routes(routes!(workflow_actions::delete))
        .routes(routes!(workflow_actions::add_comment))
        .routes(routes!(workflow_actions::comments))
        .routes(routes!(workflow_actions::category))
        .routes(routes!(workflow_actions::document_inactive))
        .routes(routes!(workflow_actions::attachment))
        .routes(routes!(workflow_actions::summary))
        .routes(routes!(webhooks::create, webhooks::list))
        .routes(routes!(webhooks::delete))
        .routes(routes!(webhooks::deliveries))
        .routes(routes!(webhooks::redeliver))
        .routes(routes!(webhooks::resume))
        .routes(routes!(privacy::get_retention, privacy::put_retention))
        .routes(routes!(privacy::place_hold, privacy::release_hold))
        .routes(routes!(privacy::list_holds))
        .routes(routes!(privacy::request_erasure))
        .routes(routes!(bulk::bulk_send))
        .routes(routes!(bulk::create_lot))
        .routes(routes!(bulk::get_lot))
        .routes(routes!(bulk::sign_lot))
        .routes(routes!(bulk::get_job))
        .routes(routes!(bulk::cancel_job))
        .routes(routes!(bulk::get_completion))
        .routes(routes!(bulk::get_report))
        .routes(routes!(bulk::stream_events))
        .routes(routes!(exports::export_workflows))
        .routes(routes!(exports::export_signatories))
        .routes(routes!(exports::export_audit_events))
        .routes(routes!(exports::export_users))
        .routes(routes!(exports::get_job))
        .routes(routes!(exports::get_file))
        .routes(routes!(stamps::load, stamps::list))
        .routes(routes!(stamps::stock))
        .routes(routes!(stamps::get_settings, stamps::put_settings))
        .routes(routes!(stamps::article_codes))
        .routes(routes!(stamps::put_article_code, stamps::delete_article_code))
        .routes(routes!(stamps::get))
        .routes(routes!(stamps::certificate))
        .routes(routes!(stamps::retire))
        .routes(routes!(invoices::issue, invoices::list))
        .routes(routes!(invoices::get))
        .routes(routes!(invoices::document))
        .routes(routes!(invoices::get_billing_profile, invoices::put_billing_profile))
        .routes(routes!(sales::create_referral, sales::list_referrals))
        .routes(routes!(sales::get_referral))
        .routes(routes!(sales::upsert_lead, sales::list_leads))
        .routes(routes!(sales::mark_pushed))
        .routes(routes!(sales::get_lead))
        .routes(routes!(sales::get_settings, sales::put_settings))
}

/// The document as served and as committed in `openapi.json`.
pub fn document() -> utoipa::openapi::OpenApi {
    let mut document = api_router().split_for_parts().1;
    // Applied after the routes are collected: `#[openapi(modifiers)]` would run before them.
    CommonResponses.modify(&mut document);
    document
}

pub fn document_json() -> String {
    document().to_pretty_json().unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
