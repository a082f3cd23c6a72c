//! Every failure leaves as an RFC 9457 ProblemDetails body with a stable `code`. The status
//! mapping lives here and nowhere else; internal causes are logged, never sent.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use signet_domain::{Error, ErrorCode, FieldErrors};
use utoipa::ToSchema;

use crate::observe;

/// The error body of every API failure (RFC 9457), with Signet's extensions.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ProblemDetails)]
#[serde(rename_all = "camelCase")]
pub struct ProblemDetails {
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    pub instance: String,
    /// Stable machine-readable error code.
    pub code: String,
    /// Field name -> messages, for validation failures.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(inline)]
    pub errors: Option<FieldErrors>,
    /// The id of the request, also in the `x-request-id` response header and the logs.
    pub request_id: String,
}

/// Codes only the HTTP layer gives: the request is refused before any use case runs (its
/// body cannot be read, it carries no valid token, no operation is at its address).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HttpCode {
    MalformedBody,
    UnsupportedMediaType,
    PayloadTooLarge,
    Unauthenticated,
    InvalidToken,
    InvalidClient,
    InvalidGrant,
    UnsupportedGrantType,
    RouteNotFound,
    MethodNotAllowed,
}

impl HttpCode {
    pub const ALL: [HttpCode; 10] = [
        HttpCode::MalformedBody,
        HttpCode::UnsupportedMediaType,
        HttpCode::PayloadTooLarge,
        HttpCode::Unauthenticated,
        HttpCode::InvalidToken,
        HttpCode::InvalidClient,
        HttpCode::InvalidGrant,
        HttpCode::UnsupportedGrantType,
        HttpCode::RouteNotFound,
        HttpCode::MethodNotAllowed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            HttpCode::MalformedBody => "malformed_body",
            HttpCode::UnsupportedMediaType => "unsupported_media_type",
            HttpCode::PayloadTooLarge => "payload_too_large",
            HttpCode::Unauthenticated => "unauthenticated",
            HttpCode::InvalidToken => "invalid_token",
            HttpCode::InvalidClient => "invalid_client",
            HttpCode::InvalidGrant => "invalid_grant",
            HttpCode::UnsupportedGrantType => "unsupported_grant_type",
            HttpCode::RouteNotFound => "route_not_found",
            HttpCode::MethodNotAllowed => "method_not_allowed",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            HttpCode::MalformedBody => "The request body could not be read",
            HttpCode::UnsupportedMediaType => "Unsupported content type",
            HttpCode::PayloadTooLarge => "The request body is too large",
            HttpCode::Unauthenticated => "Authentication required",
            HttpCode::InvalidToken => "The access token is not valid",
            HttpCode::InvalidClient => "Client authentication failed",
            HttpCode::InvalidGrant => "The grant is not valid",
            HttpCode::UnsupportedGrantType => "Unsupported grant type",
            HttpCode::RouteNotFound => "No such operation",
            HttpCode::MethodNotAllowed => "Method not allowed",
        }
    }
}

/// Any code a client can see: the use cases' catalogue and the HTTP layer's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    Domain(ErrorCode),
    Http(HttpCode),
}

impl Code {
    /// The whole catalogue, as docs/api.md lists it.
    pub fn all() -> impl Iterator<Item = Code> {
        ErrorCode::ALL.into_iter().map(Code::Domain).chain(HttpCode::ALL.into_iter().map(Code::Http))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Code::Domain(code) => code.as_str(),
            Code::Http(code) => code.as_str(),
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Code::Domain(code) => code.title(),
            Code::Http(code) => code.title(),
        }
    }

    /// The one table from code to HTTP status.
    pub fn status(self) -> StatusCode {
        match self {
            Code::Domain(code) => status_of(code),
            Code::Http(code) => match code {
                HttpCode::MalformedBody | HttpCode::UnsupportedGrantType | HttpCode::InvalidGrant => {
                    StatusCode::BAD_REQUEST
                }
                HttpCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
                HttpCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
                HttpCode::Unauthenticated | HttpCode::InvalidToken | HttpCode::InvalidClient => {
                    StatusCode::UNAUTHORIZED
                }
                HttpCode::RouteNotFound => StatusCode::NOT_FOUND,
                HttpCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            },
        }
    }
}

/// The status of a use case's code (the pages use it too).
pub fn status_of(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::ValidationFailed => StatusCode::BAD_REQUEST,
        ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::NotFound => StatusCode::NOT_FOUND,
        ErrorCode::Forbidden => StatusCode::FORBIDDEN,
        ErrorCode::DepartmentNameTaken | ErrorCode::Conflict | ErrorCode::StateConflict => StatusCode::CONFLICT,
        ErrorCode::LimitReached | ErrorCode::OutOfStock => StatusCode::CONFLICT,
        ErrorCode::InvoicingNotConfigured | ErrorCode::BillingProfileRequired => StatusCode::CONFLICT,
        ErrorCode::LinkExpired => StatusCode::GONE,
        ErrorCode::ProviderFailed => StatusCode::BAD_GATEWAY,
        ErrorCode::ServiceUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The error type of every handler: a use case's error, or the HTTP layer's own refusal.
#[derive(Debug)]
pub enum ApiError {
    Domain(Error),
    Http { code: HttpCode, detail: String },
}

impl From<Error> for ApiError {
    fn from(error: Error) -> Self {
        ApiError::Domain(error)
    }
}

impl ApiError {
    /// A refusal of the HTTP layer.
    pub fn new(code: HttpCode, detail: impl Into<String>) -> Self {
        ApiError::Http { code, detail: detail.into() }
    }

    pub fn code(&self) -> Code {
        match self {
            ApiError::Domain(error) => Code::Domain(error.code()),
            ApiError::Http { code, .. } => Code::Http(*code),
        }
    }

    /// What the body says: a use case's refusal as it was put, one fixed text for validation
    /// (the fields follow) and for internal failures (whose cause goes to the log only).
    fn detail(&self) -> (String, Option<FieldErrors>) {
        match self {
            ApiError::Http { detail, .. } => (detail.clone(), None),
            ApiError::Domain(Error::Validation(errors)) => {
                ("one or more fields are invalid".to_string(), Some(errors.clone()))
            }
            ApiError::Domain(Error::Internal(cause)) => {
                tracing::error!(%cause, "internal error");
                ("the server could not complete the request".to_string(), None)
            }
            ApiError::Domain(other) => (other.to_string(), None),
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// `Retry-After` of a 503: long enough for a restarting database or a load balancer's next
/// health check, short enough that a client's retry loop does not idle.
pub const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 2;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let code = self.code();
        let status = code.status();
        let (detail, errors) = self.detail();
        let context = observe::current();
        let body = ProblemDetails {
            kind: format!("https://signet.dev/problems/{}", code.as_str()),
            title: code.title().to_string(),
            status: status.as_u16(),
            detail,
            instance: context.path.clone(),
            code: code.as_str().to_string(),
            errors,
            request_id: context.request_id.clone(),
        };
        let mut response = (status, axum::Json(body)).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
        if let ApiError::Domain(Error::RateLimited { retry_after_secs }) = self
            && let Ok(value) = HeaderValue::from_str(&retry_after_secs.max(1).to_string())
        {
            headers.insert(header::RETRY_AFTER, value);
        }
        // An outage (database or blob store away, pool exhausted) passes: say when to try again.
        if status == StatusCode::SERVICE_UNAVAILABLE {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(UNAVAILABLE_RETRY_AFTER_SECS));
        }
        if status == StatusCode::UNAUTHORIZED {
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_code_has_a_client_or_server_status() {
        for code in Code::all() {
            let expect_server = matches!(
                code,
                Code::Domain(ErrorCode::Internal | ErrorCode::ServiceUnavailable | ErrorCode::ProviderFailed)
            );
            assert_eq!(code.status().is_server_error(), expect_server, "{code:?}");
            assert!(code.status().is_client_error() || code.status().is_server_error(), "{code:?}");
        }
    }

    #[test]
    fn an_outage_says_when_to_retry() {
        let response = ApiError::from(Error::rejected(ErrorCode::ServiceUnavailable, "the database is not reachable"))
            .into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers().get(header::RETRY_AFTER).and_then(|v| v.to_str().ok()), Some("2"));
        let internal = ApiError::from(Error::internal("boom")).into_response();
        assert!(internal.headers().get(header::RETRY_AFTER).is_none());
    }

    #[test]
    fn codes_are_unique_across_the_catalogue() {
        let strings: HashSet<_> = Code::all().map(Code::as_str).collect();
        assert_eq!(strings.len(), ErrorCode::ALL.len() + HttpCode::ALL.len());
    }
}
