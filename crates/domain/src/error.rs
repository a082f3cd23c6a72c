//! The one error catalogue. Every failure a client can see carries one of these stable codes;
//! the HTTP layer maps them to status codes and ProblemDetails bodies.

use std::collections::BTreeMap;

/// Stable, machine-readable error codes of the use cases. The string form is part of the
/// public contract. Codes that only the HTTP layer gives (a body it cannot read, a missing
/// token, an unknown route) are the API's own (`signet_http::error::HttpCode`); together they
/// are the catalogue that docs/api.md lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    ValidationFailed,
    RateLimited,
    NotFound,
    Forbidden,
    DepartmentNameTaken,
    Conflict,
    StateConflict,
    LinkExpired,
    LimitReached,
    OutOfStock,
    ProviderFailed,
    InvoicingNotConfigured,
    BillingProfileRequired,
    ServiceUnavailable,
    Internal,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 15] = [
        ErrorCode::ValidationFailed,
        ErrorCode::RateLimited,
        ErrorCode::NotFound,
        ErrorCode::Forbidden,
        ErrorCode::DepartmentNameTaken,
        ErrorCode::Conflict,
        ErrorCode::StateConflict,
        ErrorCode::LinkExpired,
        ErrorCode::LimitReached,
        ErrorCode::OutOfStock,
        ErrorCode::ProviderFailed,
        ErrorCode::InvoicingNotConfigured,
        ErrorCode::BillingProfileRequired,
        ErrorCode::ServiceUnavailable,
        ErrorCode::Internal,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::ValidationFailed => "validation_failed",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::DepartmentNameTaken => "department_name_taken",
            ErrorCode::Conflict => "conflict",
            ErrorCode::StateConflict => "state_conflict",
            ErrorCode::LinkExpired => "link_expired",
            ErrorCode::LimitReached => "limit_reached",
            ErrorCode::OutOfStock => "out_of_stock",
            ErrorCode::ProviderFailed => "provider_failed",
            ErrorCode::InvoicingNotConfigured => "invoicing_not_configured",
            ErrorCode::BillingProfileRequired => "billing_profile_required",
            ErrorCode::ServiceUnavailable => "service_unavailable",
            ErrorCode::Internal => "internal_error",
        }
    }

    /// A short human title for the code, used as the ProblemDetails `title`.
    pub fn title(self) -> &'static str {
        match self {
            ErrorCode::ValidationFailed => "The request has invalid fields",
            ErrorCode::RateLimited => "Too many requests",
            ErrorCode::NotFound => "Not found",
            ErrorCode::Forbidden => "Your role does not allow this",
            ErrorCode::DepartmentNameTaken => "A department with this name exists",
            ErrorCode::Conflict => "Conflict",
            ErrorCode::StateConflict => "Not allowed in the current state",
            ErrorCode::LinkExpired => "The link has expired or was already used",
            ErrorCode::LimitReached => "A limit is reached",
            ErrorCode::OutOfStock => "Not enough stamp paper in stock",
            ErrorCode::ProviderFailed => "An outside provider failed",
            ErrorCode::InvoicingNotConfigured => "This installation issues no invoices",
            ErrorCode::BillingProfileRequired => "The tenant has no billing profile",
            ErrorCode::ServiceUnavailable => "Service unavailable",
            ErrorCode::Internal => "Internal error",
        }
    }
}

/// The cause of an internal failure.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

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
    /// The cause, kept as an error (with its chain) for the log; clients see only the code.
    #[error("internal error: {0}")]
    Internal(BoxError),
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

    /// An internal failure with its cause: any error type, or a message.
    pub fn internal(cause: impl Into<BoxError>) -> Self {
        Error::Internal(cause.into())
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

/// A JSON failure inside a use case is internal: it concerns Signet's own documents (kept
/// settings, job payloads, stored definitions). Client JSON is read by the API's extractors,
/// whose failures are validation errors.
impl From<serde_json::Error> for Error {
    fn from(error: serde_json::Error) -> Self {
        Error::internal(error)
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
