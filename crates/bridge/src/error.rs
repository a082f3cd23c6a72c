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
    #[error("the PIN is wrong")]
    WrongPin,
    /// Too many wrong PINs: the token refuses every PIN until it is unlocked.
    #[error("the token is locked after too many wrong PINs")]
    Locked,
    #[error("the certificate is not valid for signing now")]
    CertificateNotUsable,
    #[error("the token failed: {0}")]
    Token(String),
}

impl From<cryptoki::error::Error> for BridgeError {
    fn from(error: cryptoki::error::Error) -> Self {
        use cryptoki::error::{Error, RvError};
        match error {
            Error::Pkcs11(RvError::PinIncorrect, _) | Error::Pkcs11(RvError::PinLenRange, _) => BridgeError::WrongPin,
            Error::Pkcs11(RvError::PinLocked, _) => BridgeError::Locked,
            Error::LibraryLoading(e) => BridgeError::Module(e.to_string()),
            other => BridgeError::Token(other.to_string()),
        }
    }
}
