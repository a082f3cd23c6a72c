//! Extractors whose rejections are ProblemDetails from the catalogue, not axum's plain text.

use std::net::{IpAddr, SocketAddr};

use axum::body::Bytes;
use axum::extract::rejection::{FormRejection, JsonRejection, PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, FromRef, FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use signet_domain::{Error, FieldErrors};

use crate::error::{ApiError, HttpCode};
use signet_services::Services;

fn body_error(status: StatusCode, message: String) -> ApiError {
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::new(HttpCode::PayloadTooLarge, "the request body exceeds the configured limit");
    }
    if status == StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return ApiError::new(HttpCode::UnsupportedMediaType, message);
    }
    let mut errors = FieldErrors::new();
    errors.insert(field_of(&message), vec![message]);
    if status == StatusCode::UNPROCESSABLE_ENTITY {
        ApiError::from(Error::Validation(errors))
    } else {
        ApiError::new(HttpCode::MalformedBody, errors.into_values().flatten().collect::<Vec<_>>().join("; "))
    }
}

/// The field a serde message is about (`missing field `x``, `unknown field `x``, or axum's
/// `path.to.field: ...` prefix); "$" names the body as a whole, as ASP.NET-style problems do.
fn field_of(message: &str) -> String {
    let detail = message.strip_prefix("Failed to deserialize the JSON body into the target type: ").unwrap_or(message);
    for marker in ["missing field `", "unknown field `"] {
        if let Some(rest) = detail.split(marker).nth(1)
            && let Some((name, _)) = rest.split_once('`')
        {
            return name.to_string();
        }
    }
    match detail.split_once(": ") {
        Some((path, _)) if !path.is_empty() && !path.contains(' ') => path.to_string(),
        _ => "$".to_string(),
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    let status = rejection.status();
    let message = match &rejection {
        JsonRejection::MissingJsonContentType(_) => "expected a body with Content-Type: application/json".to_string(),
        other => other.body_text(),
    };
    body_error(status, message)
}

/// A JSON body, strict as the spec's objects are (`deny_unknown_fields` on the type).
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(request.headers()) {
            return Err(ApiError::new(
                HttpCode::UnsupportedMediaType,
                "expected a body with Content-Type: application/json",
            ));
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| body_error(rejection.status(), rejection.body_text()))?;
        // serde would also accept a struct written as an array; the spec's objects are objects.
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if first.is_some_and(|b| *b != b'{') {
            return Err(body_error(StatusCode::UNPROCESSABLE_ENTITY, "expected a JSON object".into()));
        }
        match axum::Json::<T>::from_bytes(&bytes) {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => match integral_numbers_as_integers(&bytes) {
                // JSON Schema's `integer` includes `1.0`; serde's integers do not.
                Some(rewritten) => axum::Json::<T>::from_bytes(&rewritten)
                    .map(|axum::Json(value)| ApiJson(value))
                    .map_err(json_rejection),
                None => Err(json_rejection(rejection)),
            },
        }
    }
}

/// The body with every number that has no fraction (`26.0`, `1e3`) written as an integer, when
/// there is such a number; `None` otherwise (or when the body is not JSON).
fn integral_numbers_as_integers(bytes: &[u8]) -> Option<Vec<u8>> {
    fn rewrite(value: &mut serde_json::Value) -> bool {
        match value {
            serde_json::Value::Number(n) if n.is_f64() => match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
                    *value = serde_json::Value::from(f as i64);
                    true
                }
                _ => false,
            },
            serde_json::Value::Array(items) => items.iter_mut().map(rewrite).filter(|changed| *changed).count() > 0,
            serde_json::Value::Object(map) => map.values_mut().map(rewrite).filter(|changed| *changed).count() > 0,
            _ => false,
        }
    }
    let mut value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    if rewrite(&mut value) { serde_json::to_vec(&value).ok() } else { None }
}

/// `application/json` or a `+json` media type, as axum's own check.
fn is_json(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|mime| {
            let mime = mime.trim().to_ascii_lowercase();
            mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
        })
        .unwrap_or(false)
}

/// A JSON or form-encoded body (token operations accept both, as OAuth clients send forms).
pub struct JsonOrForm<T>(pub T);

impl<T, S> FromRequest<S> for JsonOrForm<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let content_type =
            request.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_ascii_lowercase();
        if content_type.starts_with("application/x-www-form-urlencoded") {
            axum::Form::<T>::from_request(request, state)
                .await
                .map(|axum::Form(value)| JsonOrForm(value))
                .map_err(|rejection: FormRejection| body_error(rejection.status(), rejection.body_text()))
        } else if content_type.starts_with("application/json") {
            ApiJson::<T>::from_request(request, state).await.map(|ApiJson(value)| JsonOrForm(value))
        } else {
            Err(ApiError::new(
                HttpCode::UnsupportedMediaType,
                "expected application/json or application/x-www-form-urlencoded",
            ))
        }
    }
}

/// Path parameters; a malformed id is a validation error, not axum's plain-text 400.
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(value)| ApiPath(value))
            .map_err(|rejection: PathRejection| {
                let mut errors = FieldErrors::new();
                errors.insert("path".into(), vec![rejection.body_text()]);
                ApiError::from(Error::Validation(errors))
            })
    }
}

/// Query parameters with catalogue errors.
pub struct ApiQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(value)| ApiQuery(value))
            .map_err(|rejection: QueryRejection| {
                let mut errors = FieldErrors::new();
                errors.insert("query".into(), vec![rejection.body_text()]);
                ApiError::from(Error::Validation(errors))
            })
    }
}

/// The client's address: the TCP peer, or, when the peer is a trusted proxy, the nearest
/// untrusted address in `X-Forwarded-For` (taking the first entry would let clients choose
/// their own address and dodge rate limits).
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

impl<S> FromRequestParts<S> for ClientIp
where
    Services: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = Services::from_ref(state);
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
            .unwrap_or(IpAddr::from([127, 0, 0, 1]));
        let trusted = &state.config.trusted_proxies;
        if !trusted.contains(&peer) {
            return Ok(ClientIp(peer));
        }
        let forwarded: Vec<IpAddr> = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|entry| entry.trim().parse().ok())
            .collect();
        let client = forwarded.iter().rev().find(|ip| !trusted.contains(ip)).copied().unwrap_or(peer);
        Ok(ClientIp(client))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;

    #[test]
    fn size_and_media_type_map_to_their_codes() {
        let too_large = body_error(StatusCode::PAYLOAD_TOO_LARGE, String::new());
        assert_eq!(too_large.code(), Code::Http(HttpCode::PayloadTooLarge));
        let media = body_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "x".into());
        assert_eq!(media.code(), Code::Http(HttpCode::UnsupportedMediaType));
        let unknown_field = body_error(StatusCode::UNPROCESSABLE_ENTITY, "unknown field".into());
        assert_eq!(unknown_field.code(), Code::Domain(signet_domain::ErrorCode::ValidationFailed));
    }

    #[test]
    fn serde_messages_name_their_field() {
        let prefix = "Failed to deserialize the JSON body into the target type: ";
        assert_eq!(field_of(&format!("{prefix}foo: unknown field `foo`, expected `a` at line 1")), "foo");
        assert_eq!(field_of(&format!("{prefix}missing field `departmentIds` at line 1 column 2")), "departmentIds");
        assert_eq!(field_of(&format!("{prefix}departmentName: invalid type: integer `12`")), "departmentName");
        assert_eq!(field_of("expected a JSON object"), "$");
    }

    #[test]
    fn integral_floats_become_integers() {
        let rewritten = integral_numbers_as_integers(br#"{"a":[26.0,1.5],"b":{"c":2e3},"d":1e300}"#);
        let value: serde_json::Value = serde_json::from_slice(&rewritten.unwrap_or_default()).unwrap_or_default();
        assert_eq!(value, serde_json::json!({"a": [26, 1.5], "b": {"c": 2000}, "d": 1e300}));
        assert!(integral_numbers_as_integers(br#"{"a":1,"b":"2.0"}"#).is_none());
    }
}
