/// Why a request or response was refused. `code` is the stable code of the refusal (the ESP's
/// `errCode` for requests; a Signet code for responses), `message` a sentence for people.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct EsignError {
    pub code: &'static str,
    pub message: String,
}

impl EsignError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }
}
