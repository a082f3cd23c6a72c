//! Opening a request envelope (server side) and sealing the `Returnvalue`.

use time::{Duration, OffsetDateTime};

use crate::cipher::{Profile, SessionKey, b64_decode_lenient, b64_encode, ct_eq, sha256};
use crate::key::GatewayKey;
use crate::payload::find_key;
use crate::{GatewayError, HashSignature};

/// Default clock window for the modern profile's `Timestamp`.
pub const DEFAULT_WINDOW: Duration = Duration::minutes(5);

/// The request's form fields as received.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawParams {
    /// `Parameter1`: the wrapped session key.
    pub p1: String,
    /// `Parameter2`: the encrypted JSON payload.
    pub p2: String,
    /// `Parameter3`: the encrypted SHA-256 of the payload (optional).
    pub p3: Option<String>,
    /// `Profile`: absent/"1" legacy, "2" modern.
    pub profile: Option<String>,
}

impl RawParams {
    /// The envelope profile the request asks for (109 for an unknown value). The server checks
    /// it against the tenant's policy (legacy switched off) before opening.
    pub fn profile(&self) -> Result<Profile, GatewayError> {
        Profile::from_param(self.profile.as_deref())
    }
}

/// A successfully opened request.
#[derive(Debug)]
pub struct OpenedRequest {
    /// The decrypted UTF-8 JSON (an object); read it with [`crate::parse_payload`].
    pub payload_json: Vec<u8>,
    /// The session key, to seal the `Returnvalue`.
    pub session: SessionKey,
    /// The profile the request used; the `Returnvalue` uses the same.
    pub profile: Profile,
}

/// Opens a request. Every failure is [`GatewayError::InvalidRequest`] (109), whatever the
/// cause; the modern profile also requires a `Timestamp` within `window` of `now`.
pub fn open_request(
    params: &RawParams,
    key: &GatewayKey,
    now: OffsetDateTime,
    window: Duration,
) -> Result<OpenedRequest, GatewayError> {
    let profile = params.profile()?;
    // Decode all base64 before touching the private key: these failures depend only on what
    // the sender wrote, so returning early reveals nothing new.
    let wrapped = b64_decode_lenient(&params.p1).ok_or(GatewayError::InvalidRequest)?;
    let body = b64_decode_lenient(&params.p2).ok_or(GatewayError::InvalidRequest)?;
    let hash = match params.p3.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(p3) => Some(b64_decode_lenient(p3).ok_or(GatewayError::InvalidRequest)?),
        None => None,
    };
    if wrapped.len() != key.modulus_len() {
        return Err(GatewayError::InvalidRequest);
    }
    let session = match profile {
        Profile::Legacy => key.unwrap_pkcs1_implicit(&wrapped),
        Profile::Modern => key.unwrap_oaep(&wrapped)?,
    };
    let payload_json = session.decrypt(profile, &body)?;
    if let Some(hash) = hash {
        let expected = sha256(&payload_json);
        let got = session.decrypt(profile, &hash)?;
        if !ct_eq(&got, &expected) {
            return Err(GatewayError::InvalidRequest);
        }
    }
    let object = json_object(&payload_json).ok_or(GatewayError::InvalidRequest)?;
    if profile == Profile::Modern {
        check_timestamp(&object, now, window)?;
    }
    Ok(OpenedRequest { payload_json, session, profile })
}

/// Seals the signed bytes as the `Returnvalue` (base64, profile's cipher, request's key).
pub fn seal_result(session: &SessionKey, profile: Profile, bytes: &[u8]) -> Result<String, GatewayError> {
    Ok(b64_encode(&session.encrypt(profile, bytes)?))
}

/// Opens a `Returnvalue` (client side). Lenient about base64 mangling (spaces for `+`,
/// missing padding); every failure is [`GatewayError::InvalidRequest`].
pub fn open_result(session: &SessionKey, profile: Profile, returnvalue: &str) -> Result<Vec<u8>, GatewayError> {
    // No trim: a space at either end is a '+' that a form decoder turned into a space
    // (b64_decode_lenient reads it back; line breaks it drops).
    let bytes = b64_decode_lenient(returnvalue).ok_or(GatewayError::InvalidRequest)?;
    session.decrypt(profile, &bytes)
}

/// Seals the `Hash` result: a JSON array of `{DocumentName, DocumentHash, Signature}`.
pub fn seal_hash_result(
    session: &SessionKey,
    profile: Profile,
    signatures: &[HashSignature],
) -> Result<String, GatewayError> {
    let json = serde_json::to_vec(signatures).map_err(|_| GatewayError::Crypto)?;
    seal_result(session, profile, &json)
}

/// Opens a `Hash` result into its items.
pub fn open_hash_result(
    session: &SessionKey,
    profile: Profile,
    returnvalue: &str,
) -> Result<Vec<HashSignature>, GatewayError> {
    let json = open_result(session, profile, returnvalue)?;
    serde_json::from_slice(&json).map_err(|_| GatewayError::InvalidRequest)
}

fn json_object(bytes: &[u8]) -> Option<serde_json::Map<String, serde_json::Value>> {
    match serde_json::from_slice::<serde_json::Value>(bytes).ok()? {
        serde_json::Value::Object(map) => Some(map),
        _ => None,
    }
}

fn check_timestamp(
    object: &serde_json::Map<String, serde_json::Value>,
    now: OffsetDateTime,
    window: Duration,
) -> Result<(), GatewayError> {
    let text = find_key(object, "Timestamp").and_then(|v| v.as_str()).ok_or(GatewayError::InvalidRequest)?;
    let at = parse_timestamp(text).ok_or(GatewayError::InvalidRequest)?;
    if (at - now).abs() > window {
        return Err(GatewayError::InvalidRequest);
    }
    Ok(())
}

/// Parses an ISO 8601 / RFC 3339 date-time that names its offset (`Z` or `+hh:mm`); a time
/// without an offset is refused because its instant is unknown.
pub fn parse_timestamp(text: &str) -> Option<OffsetDateTime> {
    use time::format_description::well_known::{Iso8601, Rfc3339};
    let text = text.trim();
    OffsetDateTime::parse(text, &Rfc3339).ok().or_else(|| OffsetDateTime::parse(text, &Iso8601::DEFAULT).ok())
}

/// Formats `now` as the `Timestamp` the modern profile expects (RFC 3339, UTC).
pub fn format_timestamp(now: OffsetDateTime) -> String {
    use time::format_description::well_known::Rfc3339;
    let utc = now.to_offset(time::UtcOffset::UTC).replace_nanosecond(0).unwrap_or(now);
    utc.format(&Rfc3339).unwrap_or_default()
}
