//! Workflows: documents sent to several signatories in order. The rules live in
//! `signet_domain::workflow`, the records in `signet_store`; this module holds the HTTP-side
//! parts: signer links, placement of signatures, sealing, the signer page and completion.

pub mod certificate;
pub mod completion;
pub mod events;
pub mod links;
pub mod notices;
pub mod page;
pub mod placement;
pub mod profiles;
pub mod sealing;

use signet_domain::now_millis;
use signet_store::WorkflowRow;

use crate::AppState;

/// When a new signer link expires: at the workflow's expiry, else after the configured time.
pub fn link_expiry(state: &AppState, workflow: &WorkflowRow) -> i64 {
    workflow.expires_at.unwrap_or_else(|| now_millis() + (state.config.signer_link_ttl_secs as i64) * 1000)
}
