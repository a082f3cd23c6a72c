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
    pub errors: Option<FieldErrors>,
    /// The id of the request, also in the `x-request-id` response header and the logs.
    pub request_id: String,
}

pub fn status_of(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::ValidationFailed | ErrorCode::MalformedBody => StatusCode::BAD_REQUEST,
        ErrorCode::UnsupportedGrantType | ErrorCode::InvalidGrant => StatusCode::BAD_REQUEST,
        ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::Unauthenticated | ErrorCode::InvalidToken | ErrorCode::InvalidClient => StatusCode::UNAUTHORIZED,
        ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::NotFound | ErrorCode::RouteNotFound => StatusCode::NOT_FOUND,
        ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        ErrorCode::DepartmentNameTaken | ErrorCode::Conflict | ErrorCode::StateConflict => StatusCode::CONFLICT,
        ErrorCode::LimitReached => StatusCode::CONFLICT,
        ErrorCode::LinkExpired => StatusCode::GONE,
        ErrorCode::ServiceUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The error type of every handler.
#[derive(Debug)]
pub struct ApiError(pub Error);

impl From<Error> for ApiError {
    fn from(error: Error) -> Self {
        ApiError(error)
    }
}

impl ApiError {
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        ApiError(Error::rejected(code, detail))
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let code = self.0.code();
        let status = status_of(code);
        let (detail, errors) = match &self.0 {
            Error::Validation(errors) => ("one or more fields are invalid".to_string(), Some(errors.clone())),
            Error::Internal(cause) => {
                tracing::error!(%cause, "internal error");
                ("the server could not complete the request".to_string(), None)
            }
            other => (other.to_string(), None),
        };
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
        if let Error::RateLimited { retry_after_secs } = self.0
            && let Ok(value) = HeaderValue::from_str(&retry_after_secs.max(1).to_string())
        {
            headers.insert(header::RETRY_AFTER, value);
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

    #[test]
    fn every_code_has_a_client_or_server_status() {
        for code in ErrorCode::ALL {
            let status = status_of(code);
            let expect_server = matches!(code, ErrorCode::Internal | ErrorCode::ServiceUnavailable);
            assert_eq!(status.is_server_error(), expect_server, "{code:?}");
        }
    }
}
