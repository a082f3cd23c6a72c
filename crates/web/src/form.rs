//! What a signer submits on a signing page (gateway or workflow): the form or multipart body,
//! consent, and the electronic signature chosen: a typed name, a drawing or an uploaded image.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::header::CONTENT_TYPE;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use signet_gateway::check_signature_image;
use signet_signing::NameStyle;

use signet_services::Services;
use signet_services::gateway::seal::Mark;

/// Largest drawn signature accepted (a PNG data URL from the canvas).
pub const MAX_DRAWN_BYTES: usize = 1024 * 1024;

/// The electronic-signature methods a page offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Methods {
    pub typed: bool,
    pub draw: bool,
    pub upload: bool,
}

impl Methods {
    pub const ALL: Methods = Methods { typed: true, draw: true, upload: true };
    pub const NONE: Methods = Methods { typed: false, draw: false, upload: false };

    pub fn any(self) -> bool {
        self.typed || self.draw || self.upload
    }
}

/// The fields of a submitted form and the uploaded file, if any.
#[derive(Default)]
pub struct Submission {
    pub fields: HashMap<String, String>,
    pub file: Option<(String, Vec<u8>)>,
}

impl Submission {
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }
}

/// Reads a urlencoded or multipart body (the body limit of the router applies).
pub async fn read_submission(request: Request, state: &Services) -> Result<Submission, String> {
    let is_multipart = request
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("multipart/form-data"));
    let mut submission = Submission::default();
    if is_multipart {
        let mut multipart = Multipart::from_request(request, state).await.map_err(|e| e.body_text())?;
        while let Some(field) = multipart.next_field().await.map_err(|e| e.body_text())? {
            let name = field.name().unwrap_or_default().to_string();
            match field.file_name().map(str::to_string) {
                Some(file_name) => {
                    let bytes = field.bytes().await.map_err(|e| e.body_text())?;
                    if !bytes.is_empty() {
                        submission.file = Some((file_name, bytes.to_vec()));
                    }
                }
                None => {
                    let text = field.text().await.map_err(|e| e.body_text())?;
                    submission.fields.insert(name, text);
                }
            }
        }
    } else {
        let bytes = Bytes::from_request(request, state).await.map_err(|e| e.body_text())?;
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&bytes).map_err(|e| e.to_string())?;
        submission.fields = pairs.into_iter().collect();
    }
    Ok(submission)
}

pub fn decode_drawn(data_url: &str) -> Result<Vec<u8>, String> {
    let encoded = data_url.strip_prefix("data:image/png;base64,").ok_or("the drawing is not a PNG image")?;
    if encoded.len() > MAX_DRAWN_BYTES * 4 / 3 + 4 {
        return Err("the drawing is too large".into());
    }
    let bytes = STANDARD.decode(encoded.trim()).map_err(|_| "the drawing could not be read".to_string())?;
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err("the drawing is not a PNG image".into());
    }
    Ok(bytes)
}

/// Checks consent and the method, and turns the submission into the mark to apply. The
/// messages are shown to the signer, who may correct the input and try again.
pub fn mark_from(submission: &Submission, allowed: Methods) -> Result<Mark, String> {
    if submission.field("consent") != Some("on") {
        return Err("Please confirm that you agree to sign electronically.".into());
    }
    match submission.field("mode").unwrap_or("") {
        "typed" if allowed.typed => {
            let name = submission.field("typedName").map(|n| n.trim().to_string()).unwrap_or_default();
            if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
                return Err("Please type your name (up to 100 characters).".into());
            }
            let style = match submission.field("font") {
                Some("plain") => NameStyle::Plain,
                _ => NameStyle::Handwriting,
            };
            Ok(Mark::Typed { name, style })
        }
        "drawn" if allowed.draw => decode_drawn(submission.field("image").unwrap_or("")).map(Mark::Image),
        "upload" if allowed.upload => {
            let Some((file_name, bytes)) = &submission.file else {
                return Err("Please choose a signature image.".into());
            };
            check_signature_image(bytes, file_name).map_err(|failure| failure.error_message())?;
            Ok(Mark::Image(bytes.clone()))
        }
        _ => Err("This signing method is not enabled for this request.".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> Submission {
        Submission { fields: pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(), file: None }
    }

    #[test]
    fn consent_and_method_are_required() {
        assert!(mark_from(&form(&[("mode", "typed"), ("typedName", "A")]), Methods::ALL).is_err());
        assert!(mark_from(&form(&[("mode", "typed"), ("typedName", "A"), ("consent", "on")]), Methods::NONE).is_err());
        let mark = mark_from(&form(&[("mode", "typed"), ("typedName", " Ann "), ("consent", "on")]), Methods::ALL);
        assert!(matches!(mark, Ok(Mark::Typed { name, .. }) if name == "Ann"));
        assert!(
            mark_from(
                &form(&[("mode", "drawn"), ("image", "data:image/gif;base64,AA"), ("consent", "on")]),
                Methods::ALL
            )
            .is_err()
        );
    }
}
