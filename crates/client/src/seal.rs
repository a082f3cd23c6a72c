//! Sealing a request and opening its result.

use serde_json::Value;
use signet_gateway::{
    FormScript, HashSignature, Profile, SessionKey, b64_encode, format_timestamp, html_escape, sha256,
};
use time::OffsetDateTime;

use crate::{ClientError, GatewayCertificate};

/// The encrypted request: post its form fields; keep the session key to open the result.
#[derive(Debug)]
pub struct SealedRequest {
    /// `Parameter1`.
    pub parameter1: String,
    /// `Parameter2`.
    pub parameter2: String,
    /// `Parameter3` (the encrypted SHA-256 of the payload).
    pub parameter3: String,
    /// The profile used.
    pub profile: Profile,
    /// The session key: store it with the ReferenceNumber until the result arrives.
    pub session: SessionKey,
}

impl SealedRequest {
    /// The form fields to POST (`Profile=2` only for the modern profile).
    pub fn form_fields(&self) -> Vec<(&'static str, String)> {
        let mut fields = vec![
            ("Parameter1", self.parameter1.clone()),
            ("Parameter2", self.parameter2.clone()),
            ("Parameter3", self.parameter3.clone()),
        ];
        if let Some(p) = self.profile.param() {
            fields.push(("Profile", p.to_owned()));
        }
        fields
    }

    /// The page that sends the user's browser to the gateway: a POST form to `gateway_url`
    /// (`https://…/<segment>/V3_0/Index`) with the fields as hidden inputs and a visible button
    /// (works without JavaScript); `script` decides whether it submits itself.
    pub fn render_form(&self, gateway_url: &str, script: &FormScript) -> String {
        let inputs: String = self
            .form_fields()
            .iter()
            .map(|(name, value)| format!("<input type=\"hidden\" name=\"{name}\" value=\"{}\">\n", html_escape(value)))
            .collect();
        let submit = "document.getElementById(\"signet-request\").submit();";
        let script = match script {
            FormScript::Inline => format!("<script>{submit}</script>\n"),
            FormScript::Nonce(n) => format!("<script nonce=\"{}\">{submit}</script>\n", html_escape(n)),
            FormScript::None => String::new(),
        };
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Signing</title>\n</head>\n<body>\n\
             <form id=\"signet-request\" method=\"post\" action=\"{}\">\n{inputs}\
             <p>Taking you to the signing page. Please do not press Refresh or Back.</p>\n\
             <button type=\"submit\">Continue to signing</button>\n</form>\n{script}</body>\n</html>\n",
            html_escape(gateway_url)
        )
    }
}

/// Encrypts a payload (UTF-8 JSON object) for the gateway. For the modern profile a
/// `Timestamp` (now, UTC) is added when the payload has none.
pub fn seal_request(
    cert: &GatewayCertificate,
    profile: Profile,
    payload_json: &[u8],
    now: OffsetDateTime,
) -> Result<SealedRequest, ClientError> {
    let json = match profile {
        Profile::Legacy => payload_json.to_vec(),
        Profile::Modern => with_timestamp(payload_json, now)?,
    };
    let session = SessionKey::generate().map_err(|_| ClientError::Crypto)?;
    let wrapped = match profile {
        Profile::Legacy => cert.wrap_pkcs1(session.as_bytes())?,
        Profile::Modern => cert.wrap_oaep(session.as_bytes())?,
    };
    let body = session.encrypt(profile, &json).map_err(|_| ClientError::Crypto)?;
    let hash = session.encrypt(profile, &sha256(&json)).map_err(|_| ClientError::Crypto)?;
    Ok(SealedRequest {
        parameter1: b64_encode(&wrapped),
        parameter2: b64_encode(&body),
        parameter3: b64_encode(&hash),
        profile,
        session,
    })
}

fn with_timestamp(payload_json: &[u8], now: OffsetDateTime) -> Result<Vec<u8>, ClientError> {
    let Ok(Value::Object(mut map)) = serde_json::from_slice::<Value>(payload_json) else {
        return Err(ClientError::NotAnObject);
    };
    if map.keys().any(|k| k.eq_ignore_ascii_case("Timestamp")) {
        return Ok(payload_json.to_vec());
    }
    map.insert("Timestamp".into(), Value::String(format_timestamp(now)));
    serde_json::to_vec(&map).map_err(|_| ClientError::NotAnObject)
}

/// Opens a `Returnvalue` (the signed file). Tolerates `+` turned into spaces and lost padding.
pub fn open_result(session: &SessionKey, profile: Profile, returnvalue: &str) -> Result<Vec<u8>, ClientError> {
    signet_gateway::open_result(session, profile, returnvalue).map_err(|_| ClientError::Result)
}

/// Opens the `Returnvalue` of a `Hash` request.
pub fn open_hash_result(
    session: &SessionKey,
    profile: Profile,
    returnvalue: &str,
) -> Result<Vec<HashSignature>, ClientError> {
    signet_gateway::open_hash_result(session, profile, returnvalue).map_err(|_| ClientError::Result)
}
