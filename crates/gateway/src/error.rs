//! The gateway's error codes (spec "Gateway errors", 104-117) and the crate's error type.

use std::fmt;

/// A gateway error code with the text the spec gives it. `ErrorMessage` is "<code>: <text>".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// 104: invalid Authtoken.
    InvalidAuthtoken,
    /// 105: the tenant has not subscribed to the file type or signature type.
    NotSubscribed,
    /// 106: the signer cancelled (delivered to Curl).
    Cancelled,
    /// 107: a parameter is missing, empty or invalid.
    InvalidParameters,
    /// 108: ReferenceNumber was used by an earlier transaction.
    ReferenceNumberUsed,
    /// 109: the request could not be decrypted or read. Never says why.
    InvalidRequest,
    /// 110: signer utility not installed.
    UtilityNotInstalled,
    /// 111: signer utility not running.
    UtilityNotRunning,
    /// 112: signer utility port mismatch.
    UtilityPortMismatch,
    /// 113: signer utility outdated.
    UtilityOutdated,
    /// 114: eSignature requested for XML or DATA.
    ESignatureNotApplicable,
    /// 115: signature image of another type than jpg/jpeg/png.
    SignatureImageType,
    /// 116: signature image outside 100-200 KB.
    SignatureImageSize,
    /// 117: the eSignature pad is not connected.
    SignaturePadNotConnected,
}

impl ErrorCode {
    /// Every code, in numeric order.
    pub const ALL: [ErrorCode; 14] = [
        Self::InvalidAuthtoken,
        Self::NotSubscribed,
        Self::Cancelled,
        Self::InvalidParameters,
        Self::ReferenceNumberUsed,
        Self::InvalidRequest,
        Self::UtilityNotInstalled,
        Self::UtilityNotRunning,
        Self::UtilityPortMismatch,
        Self::UtilityOutdated,
        Self::ESignatureNotApplicable,
        Self::SignatureImageType,
        Self::SignatureImageSize,
        Self::SignaturePadNotConnected,
    ];

    /// The numeric code.
    pub fn code(self) -> u16 {
        match self {
            Self::InvalidAuthtoken => 104,
            Self::NotSubscribed => 105,
            Self::Cancelled => 106,
            Self::InvalidParameters => 107,
            Self::ReferenceNumberUsed => 108,
            Self::InvalidRequest => 109,
            Self::UtilityNotInstalled => 110,
            Self::UtilityNotRunning => 111,
            Self::UtilityPortMismatch => 112,
            Self::UtilityOutdated => 113,
            Self::ESignatureNotApplicable => 114,
            Self::SignatureImageType => 115,
            Self::SignatureImageSize => 116,
            Self::SignaturePadNotConnected => 117,
        }
    }

    /// The code for a number, if it is one of 104-117.
    pub fn from_code(code: u16) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.code() == code)
    }

    /// The spec's text for the code.
    pub fn text(self) -> &'static str {
        match self {
            Self::InvalidAuthtoken => "Invalid Authtoken",
            Self::NotSubscribed => "Not subscribed to this value-added item",
            Self::Cancelled => "Cancelled by user",
            Self::InvalidParameters => "Invalid parameters",
            Self::ReferenceNumberUsed => "Reference number already used",
            Self::InvalidRequest => "Invalid Request",
            Self::UtilityNotInstalled | Self::UtilityNotRunning | Self::UtilityPortMismatch => {
                "Signer utility required for token-based signing"
            }
            Self::UtilityOutdated => "Update the signer utility",
            Self::ESignatureNotApplicable => "eSignature not applicable for XML and Data signing",
            Self::SignatureImageType => "Only .jpg, .jpeg and .png allowed as signature image",
            Self::SignatureImageSize => "Signature image must be 100KB to 200KB",
            Self::SignaturePadNotConnected => "Connect the eSignature pad",
        }
    }

    /// `ErrorMessage` as posted back: "<code>: <text>".
    pub fn error_message(self) -> String {
        format!("{}: {}", self.code(), self.text())
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.text())
    }
}

/// A refusal with a spec code, a detail for the integrator, and what is known of where to send it.
///
/// `failure_url` / `cancel_url` / `reference_number` are filled as soon as the payload yields
/// them (even when another field is wrong), so the server can post the error to Furl; when
/// `failure_url` is `None` the server answers an HTML error page instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.error_message())]
pub struct GatewayFailure {
    /// The spec code.
    pub code: ErrorCode,
    /// What was wrong, naming the field (empty when the code says it all, e.g. 109).
    pub detail: String,
    /// Furl, when it was present and valid.
    pub failure_url: Option<String>,
    /// Curl, when it was present and valid.
    pub cancel_url: Option<String>,
    /// ReferenceNumber, when it was present and valid (echoed as `Referencenumber`).
    pub reference_number: Option<String>,
}

impl GatewayFailure {
    /// A failure with a detail and no return addresses yet.
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        Self { code, detail: detail.into(), failure_url: None, cancel_url: None, reference_number: None }
    }

    /// `ErrorMessage` as posted back: "<code>: <text>", then " - <detail>" when there is one.
    /// Integrators read the code from the leading digits.
    pub fn error_message(&self) -> String {
        if self.detail.is_empty() {
            self.code.error_message()
        } else {
            format!("{} - {}", self.code.error_message(), self.detail)
        }
    }
}

/// The crate's error type.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// 109 "Invalid Request": the envelope could not be opened. Deliberately the same for every
    /// cause (bad base64, RSA padding, key length, AES padding or tag, hash mismatch, JSON,
    /// timestamp) so that nothing about the failure leaks to the sender.
    #[error("109: Invalid Request")]
    InvalidRequest,
    /// A payload or signer-input rule was broken (107, 114, 115, 116, ...).
    #[error(transparent)]
    Rejected(#[from] Box<GatewayFailure>),
    /// The gateway key or certificate cannot be used (configuration, not input).
    #[error("gateway key: {0}")]
    Key(String),
    /// Encryption failed (only on a broken system: randomness or cipher setup).
    #[error("encryption failed")]
    Crypto,
}

impl GatewayError {
    /// The spec code to report, when the error is a gateway answer.
    pub fn code(&self) -> Option<ErrorCode> {
        match self {
            Self::InvalidRequest => Some(ErrorCode::InvalidRequest),
            Self::Rejected(f) => Some(f.code),
            Self::Key(_) | Self::Crypto => None,
        }
    }
}

impl From<GatewayFailure> for GatewayError {
    fn from(f: GatewayFailure) -> Self {
        Self::Rejected(Box::new(f))
    }
}
