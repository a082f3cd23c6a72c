//! What a signer submits on a signing page (gateway or workflow): the form or multipart body,
//! consent, and the electronic signature chosen: a typed name, a drawing or an uploaded image.
//!
//! Uploaded images follow one of two rules: the gateway keeps the spec's (JPEG or PNG of
//! 100-200 KB, errors 115 and 116); a workflow signer may upload a photo of any common size (up
//! to [`MAX_UPLOAD_BYTES`]), which the PDF engine scales down when it embeds it.

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

use crate::text::{Text, key};

/// Largest drawn signature accepted (a PNG data URL from the canvas).
pub const MAX_DRAWN_BYTES: usize = 1024 * 1024;
/// Largest signature image a workflow signer may upload.
pub const MAX_UPLOAD_BYTES: usize = 5 * 1024 * 1024;

/// Which uploaded signature images a page takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadRule {
    /// The gateway's: JPEG or PNG by name and content, 100-200 KB (the spec's 115 and 116).
    Spec,
    /// The workflow pages': JPEG or PNG by content, any size up to [`MAX_UPLOAD_BYTES`].
    AnySize,
}

/// Why a submission gives no signature: words from the pages' catalogue, or the gateway's own
/// refusal of an image (its code's text, in English as the gateway speaks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Said(&'static str),
    /// The gateway's own refusal of an uploaded image (115 or 116), kept whole so that the
    /// page can deliver its code if the signer gives up.
    Gateway(signet_gateway::GatewayFailure),
}

impl Refusal {
    /// What the signer reads, in the page's language.
    pub fn words(&self, text: Text) -> String {
        match self {
            Refusal::Said(key) => text.s(key).to_string(),
            Refusal::Gateway(failure) => failure.error_message(),
        }
    }
}

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

pub fn decode_drawn(data_url: &str) -> Result<Vec<u8>, Refusal> {
    let encoded =
        data_url.strip_prefix("data:image/png;base64,").ok_or(Refusal::Said(key("signer.drawing_not_png")))?;
    if encoded.len() > MAX_DRAWN_BYTES * 4 / 3 + 4 {
        return Err(Refusal::Said(key("signer.drawing_too_large")));
    }
    let bytes = STANDARD.decode(encoded.trim()).map_err(|_| Refusal::Said(key("signer.drawing_unreadable")))?;
    if !bytes.starts_with(PNG_MAGIC) {
        return Err(Refusal::Said(key("signer.drawing_not_png")));
    }
    Ok(bytes)
}

const PNG_MAGIC: &[u8] = b"\x89PNG\r\n\x1a\n";
const JPEG_MAGIC: &[u8] = &[0xff, 0xd8, 0xff];

/// An uploaded image sent back in a refused form: a data URL of its own type (PNG or JPEG by
/// content), none for anything else.
pub fn image_data_url(bytes: &[u8]) -> Option<String> {
    let mime = if bytes.starts_with(PNG_MAGIC) {
        "image/png"
    } else if bytes.starts_with(JPEG_MAGIC) {
        "image/jpeg"
    } else {
        return None;
    };
    Some(format!("data:{mime};base64,{}", STANDARD.encode(bytes)))
}

/// A workflow signer's image: PNG or JPEG by content, at most [`MAX_UPLOAD_BYTES`].
fn any_size_image(bytes: &[u8]) -> Result<Vec<u8>, Refusal> {
    if bytes.len() > MAX_UPLOAD_BYTES {
        return Err(Refusal::Said(key("signer.image_too_large")));
    }
    if !(bytes.starts_with(PNG_MAGIC) || bytes.starts_with(JPEG_MAGIC)) {
        return Err(Refusal::Said(key("signer.image_type")));
    }
    Ok(bytes.to_vec())
}

/// The image a refused form sent back (`keptImage`, see [`image_data_url`]).
fn kept_image(data_url: &str) -> Result<Vec<u8>, Refusal> {
    let encoded = ["data:image/png;base64,", "data:image/jpeg;base64,"]
        .iter()
        .find_map(|prefix| data_url.strip_prefix(prefix))
        .ok_or(Refusal::Said(key("signer.image_type")))?;
    if encoded.len() > MAX_UPLOAD_BYTES * 4 / 3 + 4 {
        return Err(Refusal::Said(key("signer.image_too_large")));
    }
    let bytes = STANDARD.decode(encoded.trim()).map_err(|_| Refusal::Said(key("signer.image_type")))?;
    any_size_image(&bytes)
}

/// Checks consent and the method, and turns the submission into the mark to apply. The
/// refusals are shown to the signer, who may correct the input and try again.
pub fn mark_from(submission: &Submission, allowed: Methods, uploads: UploadRule) -> Result<Mark, Refusal> {
    if submission.field("consent") != Some("on") {
        return Err(Refusal::Said(key("signer.need_consent")));
    }
    match submission.field("mode").unwrap_or("") {
        "typed" if allowed.typed => {
            let name = submission.field("typedName").map(|n| n.trim().to_string()).unwrap_or_default();
            if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
                return Err(Refusal::Said(key("signer.need_name")));
            }
            let style = match submission.field("font") {
                Some("plain") => NameStyle::Plain,
                _ => NameStyle::Handwriting,
            };
            Ok(Mark::Typed { name, style })
        }
        "drawn" if allowed.draw => decode_drawn(submission.field("image").unwrap_or("")).map(Mark::Image),
        "upload" if allowed.upload => match (&submission.file, uploads) {
            (Some((file_name, bytes)), UploadRule::Spec) => {
                check_signature_image(bytes, file_name).map_err(Refusal::Gateway)?;
                Ok(Mark::Image(bytes.clone()))
            }
            (Some((_, bytes)), UploadRule::AnySize) => any_size_image(bytes).map(Mark::Image),
            (None, UploadRule::AnySize) if submission.field("keptImage").is_some_and(|k| !k.is_empty()) => {
                kept_image(submission.field("keptImage").unwrap_or("")).map(Mark::Image)
            }
            (None, _) => Err(Refusal::Said(key("signer.need_image"))),
        },
        _ => Err(Refusal::Said(key("signer.method_not_offered"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> Submission {
        Submission { fields: pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(), file: None }
    }

    const RULE: UploadRule = UploadRule::Spec;

    #[test]
    fn consent_and_method_are_required() {
        let refused = mark_from(&form(&[("mode", "typed"), ("typedName", "A")]), Methods::ALL, RULE);
        assert_eq!(refused.err(), Some(Refusal::Said("signer.need_consent")));
        let refused =
            mark_from(&form(&[("mode", "typed"), ("typedName", "A"), ("consent", "on")]), Methods::NONE, RULE);
        assert_eq!(refused.err(), Some(Refusal::Said("signer.method_not_offered")));
        let mark =
            mark_from(&form(&[("mode", "typed"), ("typedName", " Ann "), ("consent", "on")]), Methods::ALL, RULE);
        assert!(matches!(mark, Ok(Mark::Typed { name, .. }) if name == "Ann"));
        let gif = form(&[("mode", "drawn"), ("image", "data:image/gif;base64,AA"), ("consent", "on")]);
        assert_eq!(mark_from(&gif, Methods::ALL, RULE).err(), Some(Refusal::Said("signer.drawing_not_png")));
    }

    fn upload(bytes: Vec<u8>) -> Submission {
        let mut submission = form(&[("mode", "upload"), ("consent", "on")]);
        submission.file = Some(("photo.png".into(), bytes));
        submission
    }

    #[test]
    fn a_workflow_signer_uploads_an_image_of_any_size_the_gateway_keeps_the_spec_rule() {
        let small = [PNG_MAGIC, &[0u8; 2000]].concat();
        assert!(matches!(mark_from(&upload(small.clone()), Methods::ALL, UploadRule::AnySize), Ok(Mark::Image(_))));
        let refused = mark_from(&upload(small.clone()), Methods::ALL, UploadRule::Spec);
        assert!(
            matches!(refused, Err(Refusal::Gateway(ref failure)) if failure.error_message().starts_with("116")),
            "the spec's 116"
        );
        let huge = [PNG_MAGIC, &vec![0u8; MAX_UPLOAD_BYTES]].concat();
        let refused = mark_from(&upload(huge), Methods::ALL, UploadRule::AnySize).err();
        assert_eq!(refused, Some(Refusal::Said("signer.image_too_large")));
        let text = mark_from(&upload(b"GIF89a".to_vec()), Methods::ALL, UploadRule::AnySize).err();
        assert_eq!(text, Some(Refusal::Said("signer.image_type")));
    }

    #[test]
    fn an_image_kept_from_a_refused_form_signs_without_choosing_the_file_again() {
        let small = [JPEG_MAGIC, &[0u8; 500]].concat();
        let url = image_data_url(&small).expect("a JPEG");
        assert!(url.starts_with("data:image/jpeg;base64,"));
        let again = form(&[("mode", "upload"), ("consent", "on"), ("keptImage", &url)]);
        assert!(matches!(mark_from(&again, Methods::ALL, UploadRule::AnySize), Ok(Mark::Image(b)) if b == small));
        let forged = form(&[("mode", "upload"), ("consent", "on"), ("keptImage", "data:text/html;base64,AA")]);
        assert!(mark_from(&forged, Methods::ALL, UploadRule::AnySize).is_err());
        assert_eq!(image_data_url(b"%PDF-1.7"), None);
    }
}
