//! Embedded signing through the JSON API: the organisation's embedding settings (the origins
//! that may frame its signer pages, their accent colour and logo) and a signatory's embed
//! address for one of those origins. `docs/embedding.md` shows the integrator's side.

use axum::Json;
use axum::extract::State;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};
use signet_domain::Error;
use signet_domain::embedding::{Embedding, Logo};
use signet_services::integrations::embedding::{self, EmbeddingInput};
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ApiPath};

/// What the organisation allows for embedding its signer pages in its own applications.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EmbeddingSettings {
    /// The web origins (`https://app.example.com`, `http://localhost:3000`: scheme, host and an
    /// optional port, nothing after) whose pages may frame the signer pages; none turns
    /// embedding off. At most 20; kept as browsers write an origin (lower case, a default port
    /// dropped), repeats folded.
    #[schema(schema_with = crate::routes::schemas::embed_origins)]
    pub allowed_origins: Vec<String>,
    /// The colour of the embedded pages' buttons and links, `#rrggbb`; none: Signet's own.
    #[schema(nullable = true, pattern = "^#?[0-9A-Fa-f]{6}$")]
    #[serde(default)]
    pub accent_color: Option<String>,
    /// A logo shown at the top of the embedded pages: a PNG or JPEG of at most 100 KB, base64.
    /// None or empty: no logo.
    #[schema(nullable = true, content_encoding = "base64", max_length = 136_536)]
    #[serde(default)]
    pub logo: Option<String>,
}

impl EmbeddingSettings {
    fn of(embedding: Embedding, logo: Option<Logo>) -> EmbeddingSettings {
        EmbeddingSettings {
            allowed_origins: embedding.origins.iter().map(ToString::to_string).collect(),
            accent_color: embedding.accent.map(|accent| accent.css()),
            logo: logo.map(|logo| STANDARD.encode(logo.bytes)),
        }
    }

    fn input(self) -> Result<EmbeddingInput, Error> {
        let logo = match self.logo.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
            Some(text) => Some(STANDARD.decode(text).map_err(|_| Error::field("logo", "must be base64"))?),
            None => None,
        };
        Ok(EmbeddingInput { origins: self.allowed_origins, accent: self.accent_color, logo })
    }
}

#[utoipa::path(
    get,
    path = "/api/v1/organisation/embedding",
    tag = "embedding",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The organisation's embedding settings", body = EmbeddingSettings),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role does not manage settings", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn get_embedding(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<EmbeddingSettings>> {
    let (embedding, logo) = embedding::settings(&state.services, &auth.caller()).await?;
    Ok(Json(EmbeddingSettings::of(embedding, logo)))
}

#[utoipa::path(
    put,
    path = "/api/v1/organisation/embedding",
    tag = "embedding",
    security(("bearer" = [])),
    request_body = EmbeddingSettings,
    responses(
        (status = 200, description = "Saved (the whole replaces what was set); frames of an origin no longer listed stop at their next page", body = EmbeddingSettings),
        (status = 400, description = "An origin, the colour or the logo is not as described; nothing changed", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role does not manage settings", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn put_embedding(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<EmbeddingSettings>,
) -> ApiResult<Json<EmbeddingSettings>> {
    let input = body.input()?;
    let caller = auth.caller();
    embedding::set_settings(&state.services, &caller, input).await?;
    let (embedding, logo) = embedding::settings(&state.services, &caller).await?;
    Ok(Json(EmbeddingSettings::of(embedding, logo)))
}

/// For which page an embed address is asked.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EmbedRequest {
    /// The origin of the page that will frame the signer's page: one of the organisation's
    /// `allowedOrigins`.
    #[schema(schema_with = crate::routes::schemas::embed_origin)]
    pub origin: String,
}

/// A signatory's embed address.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmbedUrl {
    /// The address to frame (`<signet-signing src="...">` or an iframe's `src`). It opens only
    /// inside a page of the origin asked for, and only until `expiresAt`; once open, the page
    /// keeps working for an hour.
    pub url: String,
    /// When the address stops opening: milliseconds since the Unix epoch (five minutes on).
    pub expires_at: i64,
}

#[utoipa::path(
    post,
    path = "/api/v1/workflows/{workflowId}/signatories/{signatoryId}/embed",
    tag = "embedding",
    security(("bearer" = [])),
    params(
        ("workflowId" = i32, Path, description = "Workflow id"),
        ("signatoryId" = i64, Path, description = "Signatory id (`identificationNumber` of the signing URL)"),
    ),
    request_body = EmbedRequest,
    responses(
        (status = 200, description = "The address of the signatory's page to frame in a page of `origin`; the workflow's trail records who asked and for which origin", body = EmbedUrl),
        (status = 400, description = "`origin` is not an origin, or not one the organisation allows", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 404, description = "No such workflow or signatory in this tenant", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 409, description = "The workflow is not in progress, or it is not the signatory's turn", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn embed_signatory(
    State(state): State<AppState>,
    auth: Auth,
    ApiPath((workflow_id, signatory_id)): ApiPath<(i64, i64)>,
    ApiJson(body): ApiJson<EmbedRequest>,
) -> ApiResult<Json<EmbedUrl>> {
    let (workflow_id, signatory_id) = (workflow_id.into(), signatory_id.into());
    let made = embedding::embed_url(&state.services, &auth.caller(), workflow_id, signatory_id, &body.origin).await?;
    Ok(Json(EmbedUrl { url: made.url, expires_at: made.expires_at }))
}
