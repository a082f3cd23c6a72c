//! The states of the signing gateway's transactions and of the Aadhaar eSign requests Signet
//! sends as ASP, stored as text (`gateway_transactions.state`, `esign_transactions.state`):
//! declared once here, so that the queries and the code that reads a row cannot spell a state
//! two ways.

use crate::text_states;

text_states! {
    /// The states of a gateway transaction: open while `initiated`, then ended once.
    pub enum TransactionState ("gateway transaction state") {
        Initiated => "initiated",
        /// Signed; the result went (or is kept) for the integrator.
        Completed => "completed",
        Failed => "failed",
        /// The signer cancelled.
        Cancelled => "cancelled",
        /// The signer never finished in time.
        Expired => "expired",
    }
}

text_states! {
    /// The states of an eSign request sent to an ESP: `sent` until its answer is taken, once.
    pub enum EsignState ("eSign request state") {
        Sent => "sent",
        Signed => "signed",
        /// The ESP refused (the signer gave up, a wrong OTP, ...).
        Refused => "refused",
        Failed => "failed",
    }
}
