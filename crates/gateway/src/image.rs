//! The signer's uploaded signature image: jpg, jpeg or png (by name AND content), 100-200 KB.

use crate::{ErrorCode, GatewayFailure};

/// Smallest accepted image: 100 KB.
pub const MIN_IMAGE_BYTES: usize = 100 * 1024;
/// Largest accepted image: 200 KB.
pub const MAX_IMAGE_BYTES: usize = 200 * 1024;

/// The kind of an accepted signature image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    /// JPEG (.jpg or .jpeg).
    Jpeg,
    /// PNG (.png).
    Png,
}

impl ImageKind {
    /// The MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
        }
    }
}

/// Checks an uploaded signature image: 115 unless the name ends in .jpg/.jpeg/.png and the
/// bytes are that format; then 116 unless it is 100-200 KB (both inclusive; 1 KB = 1024 bytes).
pub fn check_signature_image(bytes: &[u8], declared_name: &str) -> Result<ImageKind, GatewayFailure> {
    let by_name = kind_by_name(declared_name);
    let by_magic = kind_by_magic(bytes);
    let kind = match (by_name, by_magic) {
        (Some(n), Some(m)) if n == m => n,
        _ => {
            return Err(GatewayFailure::new(
                ErrorCode::SignatureImageType,
                "the file must be a JPEG (.jpg, .jpeg) or PNG (.png) image",
            ));
        }
    };
    if !(MIN_IMAGE_BYTES..=MAX_IMAGE_BYTES).contains(&bytes.len()) {
        return Err(GatewayFailure::new(
            ErrorCode::SignatureImageSize,
            format!("the image has {} KB", bytes.len().div_ceil(1024)),
        ));
    }
    Ok(kind)
}

fn kind_by_name(name: &str) -> Option<ImageKind> {
    let ext = name.trim().rsplit_once('.')?.1.to_ascii_lowercase();
    match ext.as_str() {
        "jpg" | "jpeg" => Some(ImageKind::Jpeg),
        "png" => Some(ImageKind::Png),
        _ => None,
    }
}

fn kind_by_magic(bytes: &[u8]) -> Option<ImageKind> {
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(ImageKind::Jpeg)
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(ImageKind::Png)
    } else {
        None
    }
}
