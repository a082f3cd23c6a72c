/// What went wrong with a token, in terms a signer can act on.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    /// The PKCS#11 module could not be loaded or initialised (wrong path, not a module).
    #[error("the token driver could not be loaded: {0}")]
    Module(String),
    /// No token with this serial number is inserted.
    #[error("no token with serial number {0} is inserted")]
    NoToken(String),
    /// The token holds no private key for the chosen certificate.
    #[error("the token has no private key for this certificate")]
    NoKey,
    #[error("the PIN is wrong{}", .0.warning())]
    WrongPin(PinTries),
    /// Too many wrong PINs: the token refuses every PIN until it is unlocked.
    #[error(
        "the token is locked after too many wrong PINs: unlock it with the token's own tool (SO PIN or PUK) or ask your certificate provider"
    )]
    Locked,
    #[error("the certificate is not valid for signing now")]
    CertificateNotUsable,
    #[error("the token failed: {0}")]
    Token(String),
}

/// What a token tells of its wrong-PIN counter after a wrong PIN. PKCS#11 has no count, only
/// the token's flags, and tokens that keep no counter (SoftHSM2) may set none of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PinTries {
    /// The token says nothing.
    Unknown,
    /// CKF_USER_PIN_COUNT_LOW: wrong PINs were given since the last right one.
    Low,
    /// CKF_USER_PIN_FINAL_TRY: the next wrong PIN locks the token.
    Final,
}

impl PinTries {
    /// The name in the service's `wrong_pin` answer (`pinTries`).
    pub fn code(self) -> Option<&'static str> {
        match self {
            PinTries::Unknown => None,
            PinTries::Low => Some("low"),
            PinTries::Final => Some("final"),
        }
    }

    fn warning(self) -> &'static str {
        match self {
            PinTries::Unknown => "",
            PinTries::Low => "; too many wrong PINs lock the token",
            PinTries::Final => "; the next wrong PIN locks the token",
        }
    }
}

impl From<cryptoki::error::Error> for BridgeError {
    fn from(error: cryptoki::error::Error) -> Self {
        use cryptoki::error::{Error, RvError};
        match error {
            Error::Pkcs11(RvError::PinIncorrect, _) | Error::Pkcs11(RvError::PinLenRange, _) => {
                BridgeError::WrongPin(PinTries::Unknown)
            }
            Error::Pkcs11(RvError::PinLocked, _) => BridgeError::Locked,
            Error::LibraryLoading(e) => BridgeError::Module(e.to_string()),
            other => BridgeError::Token(other.to_string()),
        }
    }
}
