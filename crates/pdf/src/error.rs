//! The crate's single error type: one readable line per failure.

/// Everything that can go wrong while reading, preparing or embedding.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("the input is empty")]
    Empty,
    #[error("not a PDF file (no %PDF- header)")]
    NotPdf,
    #[error("the PDF is truncated or damaged: {0}")]
    Damaged(String),
    #[error("malformed PDF syntax at byte {offset}: {msg}")]
    Syntax { offset: u64, msg: String },
    #[error("encrypted PDFs are not supported; remove the password protection first")]
    Encrypted,
    #[error("object {0} {1} R is missing")]
    MissingObject(u32, u16),
    #[error("unsupported PDF feature: {0}")]
    Unsupported(String),
    #[error("the document is certified with no changes allowed (DocMDP P=1); it cannot be signed again")]
    CertifiedNoChanges,
    #[error(
        "the document is certified (DocMDP P=2): a new visible signature field is not allowed; sign an existing empty signature field or sign invisibly"
    )]
    CertifiedNoNewVisibleField,
    #[error("a certification signature must be the first signature of the document")]
    CertifyNotFirst,
    #[error("invalid signing options: {0}")]
    InvalidOptions(String),
    #[error("page {0} does not exist (the document has {1} pages)")]
    NoSuchPage(u32, usize),
    #[error("signature image: {0}")]
    Image(String),
    /// A value for a form field that the field does not take; `index` is the value's position
    /// among those given, `part` the part of it that is wrong.
    #[error("form field {name:?}: {message}")]
    FormField { index: usize, part: FieldPart, name: String, message: String },
    #[error("font: {0}")]
    Font(String),
    #[error("the signature ({needed} bytes) does not fit the reserved space ({reserved} bytes)")]
    SignatureTooLarge { needed: usize, reserved: usize },
    #[error("the CMS is not DER-encoded SignedData")]
    NotCms,
    #[error("the CMS does not contain the prepared document digest")]
    DigestMismatch,
    #[error("the prepared data is inconsistent: {0}")]
    BadPrepared(String),
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

pub type Result<T> = std::result::Result<T, Error>;

pub(crate) fn damaged(msg: impl Into<String>) -> Error {
    Error::Damaged(msg.into())
}

pub(crate) fn syntax(offset: u64, msg: impl Into<String>) -> Error {
    Error::Syntax { offset, msg: msg.into() }
}

/// Which part of a form field's fill (`forms::FieldFill`) is wrong: errors name it so the
/// caller can point at it. Declared with the error (and re-exported by `forms`) so that the
/// error type depends on no module of the crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldPart {
    Name,
    Kind,
    Value,
    Checked,
    Selected,
    Image,
}
