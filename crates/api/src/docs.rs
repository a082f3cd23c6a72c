//! The API reference: the OpenAPI document at `/api/v1/openapi.json` and its viewer at
//! `/api/docs`, served outside the document itself.

use std::sync::{Arc, OnceLock};

use axum::http::header;
use axum::response::{Html, IntoResponse};

/// The API reference viewer (Scalar's standalone bundle, `@scalar/api-reference` 1.46.4 from
/// npm, MIT licence beside it), served by Signet itself so `/api/docs` works offline.
pub const DOCS_SCRIPT_PATH: &str = "/api/docs/assets/scalar.js";
const DOCS_SCRIPT: &str = include_str!("../static/scalar-api-reference-1.46.4.js");

/// The docs page: the viewer reads the document from `/api/v1/openapi.json`. Everything that
/// would reach a third party is off: default fonts (fetched from Scalar's servers), the
/// hosted-client button, the "Ask AI" agent and the developer toolbar ("Share", "Deploy"),
/// which the viewer otherwise shows on localhost and which send the API description away.
const DOCS_HTML: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Signet API</title>
</head>
<body>
<script id="api-reference" data-url="/api/v1/openapi.json" data-configuration='{"withDefaultFonts":false,"hideClientButton":true,"showDeveloperTools":"never","agent":{"disabled":true}}'></script>
<script src="/api/docs/assets/scalar.js"></script>
</body>
</html>
"#;

/// Only this origin: the viewer's script, its injected styles, the document it fetches.
const DOCS_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
    img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// `GET /api/v1/openapi.json`, generated once.
pub async fn openapi_json() -> impl IntoResponse {
    static JSON: OnceLock<Arc<String>> = OnceLock::new();
    let json = JSON.get_or_init(|| Arc::new(crate::openapi::document_json())).clone();
    ([(header::CONTENT_TYPE, "application/json")], json.as_str().to_owned())
}

/// `GET /api/docs`.
pub async fn viewer() -> impl IntoResponse {
    ([(header::CONTENT_SECURITY_POLICY, DOCS_CSP), (header::REFERRER_POLICY, "no-referrer")], Html(DOCS_HTML))
}

/// The viewer's script, at [`DOCS_SCRIPT_PATH`].
pub async fn viewer_script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=86400")],
        DOCS_SCRIPT,
    )
}
