//! Signet signing gateway protocol library, shared by the server and the client SDK.
//!
//! * [`open_request`] opens `Parameter1..3` (legacy: RSA PKCS#1 v1.5 + AES-256-ECB; modern,
//!   `Profile=2`: RSA-OAEP-SHA256 + AES-256-GCM + `Timestamp`), every failure being 109;
//! * [`parse_payload`] reads and checks every field (107/109/114 with the return URLs);
//! * [`seal_result`] / [`open_result`] for the `Returnvalue`;
//! * [`render_result_form`] builds the post-back page; [`check_signature_image`] (115/116);
//! * [`ErrorCode`] is the spec's catalogue 104-117.
//!
//! All private-key operations and AES run in aws-lc-rs.

mod archive;
mod cipher;
mod envelope;
mod error;
mod image;
mod key;
mod payload;
mod result;

pub use archive::{DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_RATIO, PayloadLimits, decompress_7z};
pub use cipher::{
    Profile, SESSION_KEY_LEN, SessionKey, b64_decode_lenient, b64_encode, ecb_decrypt, ecb_encrypt, gcm_open, gcm_seal,
    sha256,
};
pub use envelope::{
    DEFAULT_WINDOW, OpenedRequest, RawParams, format_timestamp, open_hash_result, open_request, open_result,
    parse_timestamp, seal_hash_result, seal_result,
};
pub use error::{ErrorCode, GatewayError, GatewayFailure};
pub use image::{ImageKind, MAX_IMAGE_BYTES, MIN_IMAGE_BYTES, check_signature_image};
pub use key::{GatewayKey, KeyBits};
pub use payload::{
    BoxRect, Document, DocumentDetail, ESignatureOptions, FileType, MAX_DOCUMENTS, MAX_NAME_CHARS, MAX_REASON_CHARS,
    MAX_REFERENCE_LEN, PageBox, PageSelection, Payload, PayloadHead, PayloadObject, PdfOptions, ReturnUrls,
    SignaturePosition, SignatureType, is_http_url, parse_kept_payload, parse_payload, parse_payload_with, read_head,
    without_authtoken,
};
pub use result::{
    FormPage, FormScript, HashSignature, ResultPost, ReturnStatus, html_escape, new_transaction_number,
    render_post_form, render_result_form,
};
