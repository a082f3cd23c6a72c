//! The one error catalogue. Every failure a client can see carries one of these stable codes;
//! the HTTP layer maps them to status codes and ProblemDetails bodies.

use std::collections::BTreeMap;

/// Stable, machine-readable error codes. The string form is part of the public contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    ValidationFailed,
    MalformedBody,
    UnsupportedMediaType,
    PayloadTooLarge,
    Unauthenticated,
    InvalidToken,
    InvalidClient,
    InvalidGrant,
    UnsupportedGrantType,
    RateLimited,
    NotFound,
    RouteNotFound,
    MethodNotAllowed,
    DepartmentNameTaken,
    Conflict,
    StateConflict,
    LinkExpired,
    LimitReached,
    ServiceUnavailable,
    Internal,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 20] = [
        ErrorCode::ValidationFailed,
        ErrorCode::MalformedBody,
        ErrorCode::UnsupportedMediaType,
        ErrorCode::PayloadTooLarge,
        ErrorCode::Unauthenticated,
        ErrorCode::InvalidToken,
        ErrorCode::InvalidClient,
        ErrorCode::InvalidGrant,
        ErrorCode::UnsupportedGrantType,
        ErrorCode::RateLimited,
        ErrorCode::NotFound,
        ErrorCode::RouteNotFound,
        ErrorCode::MethodNotAllowed,
        ErrorCode::DepartmentNameTaken,
        ErrorCode::Conflict,
        ErrorCode::StateConflict,
        ErrorCode::LinkExpired,
        ErrorCode::LimitReached,
        ErrorCode::ServiceUnavailable,
        ErrorCode::Internal,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::ValidationFailed => "validation_failed",
            ErrorCode::MalformedBody => "malformed_body",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::Unauthenticated => "unauthenticated",
            ErrorCode::InvalidToken => "invalid_token",
            ErrorCode::InvalidClient => "invalid_client",
            ErrorCode::InvalidGrant => "invalid_grant",
            ErrorCode::UnsupportedGrantType => "unsupported_grant_type",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::NotFound => "not_found",
            ErrorCode::RouteNotFound => "route_not_found",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::DepartmentNameTaken => "department_name_taken",
            ErrorCode::Conflict => "conflict",
            ErrorCode::StateConflict => "state_conflict",
            ErrorCode::LinkExpired => "link_expired",
            ErrorCode::LimitReached => "limit_reached",
            ErrorCode::ServiceUnavailable => "service_unavailable",
            ErrorCode::Internal => "internal_error",
        }
    }

    /// A short human title for the code, used as the ProblemDetails `title`.
    pub fn title(self) -> &'static str {
        match self {
            ErrorCode::ValidationFailed => "The request has invalid fields",
            ErrorCode::MalformedBody => "The request body could not be read",
            ErrorCode::UnsupportedMediaType => "Unsupported content type",
            ErrorCode::PayloadTooLarge => "The request body is too large",
            ErrorCode::Unauthenticated => "Authentication required",
            ErrorCode::InvalidToken => "The access token is not valid",
            ErrorCode::InvalidClient => "Client authentication failed",
            ErrorCode::InvalidGrant => "The grant is not valid",
            ErrorCode::UnsupportedGrantType => "Unsupported grant type",
            ErrorCode::RateLimited => "Too many requests",
            ErrorCode::NotFound => "Not found",
            ErrorCode::RouteNotFound => "No such operation",
            ErrorCode::MethodNotAllowed => "Method not allowed",
            ErrorCode::DepartmentNameTaken => "A department with this name exists",
            ErrorCode::Conflict => "Conflict",
            ErrorCode::StateConflict => "Not allowed in the current state",
            ErrorCode::LinkExpired => "The link has expired or was already used",
            ErrorCode::LimitReached => "A limit is reached",
            ErrorCode::ServiceUnavailable => "Service unavailable",
            ErrorCode::Internal => "Internal error",
        }
    }
}

/// Field name -> messages, as in the ProblemDetails `errors` extension.
pub type FieldErrors = BTreeMap<String, Vec<String>>;

/// A domain failure. `Internal` keeps its cause for the logs only; it is never shown to clients.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{detail}")]
    Rejected { code: ErrorCode, detail: String },
    #[error("validation failed")]
    Validation(FieldErrors),
    #[error("{what} not found")]
    NotFound { what: &'static str },
    #[error("rate limited, retry after {retry_after_secs}s")]
    RateLimited { retry_after_secs: u64 },
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    pub fn rejected(code: ErrorCode, detail: impl Into<String>) -> Self {
        Error::Rejected { code, detail: detail.into() }
    }

    pub fn not_found(what: &'static str) -> Self {
        Error::NotFound { what }
    }

    pub fn field(field: &str, message: impl Into<String>) -> Self {
        let mut errors = FieldErrors::new();
        errors.insert(field.to_string(), vec![message.into()]);
        Error::Validation(errors)
    }

    pub fn internal(cause: impl std::fmt::Display) -> Self {
        Error::Internal(cause.to_string())
    }

    pub fn code(&self) -> ErrorCode {
        match self {
            Error::Rejected { code, .. } => *code,
            Error::Validation(_) => ErrorCode::ValidationFailed,
            Error::NotFound { .. } => ErrorCode::NotFound,
            Error::RateLimited { .. } => ErrorCode::RateLimited,
            Error::Internal(_) => ErrorCode::Internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_unique_and_snake_case() {
        let strings: HashSet<_> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(strings.len(), ErrorCode::ALL.len());
        for s in strings {
            assert!(s.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{s}");
        }
    }
}
