//! Workflows: documents sent to several signatories in order. The rules live in
//! `signet_domain::workflow`, the records in `signet_store`; this module holds the use cases:
//! starting one (`initiate`, `quick_start`, `templates`), what senders do to it (`actions`),
//! reading it (`queries`), what signers do through their links (`signer`, `links`), placing
//! and sealing signatures (`placement`, `sealing`), completion (`completion`, `certificate`),
//! the signer's code by SMS before signing (`otp`), everyone's copy of the result (`copies`),
//! the event job with its notices (`events`, `notices`), the documents a workflow carries
//! (`documents`: checked before they are stored; `compose`: filled and merged before anyone
//! signs), a person's own inbox of what waits for them (`inbox`), and the renewal of completed
//! documents' long-term time-stamps before they expire (`lta_renewal`).

pub mod actions;
pub mod certificate;
pub mod completion;
pub mod compose;
pub mod copies;
pub mod documents;
pub mod esign;
pub mod events;
pub mod evidence;
pub mod guide;
pub mod inbox;
pub mod initiate;
pub mod links;
pub mod long_term;
pub mod lta_renewal;
pub mod notices;
mod offered;
pub mod otp;
pub mod placement;
pub mod profiles;
pub mod queries;
pub mod quick_start;
pub mod sealing;
pub mod session;
pub mod signer;
pub mod staged;
pub mod templates;
pub mod token;

use signet_domain::now_millis;
use signet_store::WorkflowRow;

use crate::Services;

/// When a new signer link expires: at the workflow's expiry, else after the configured time.
pub fn link_expiry(state: &Services, workflow: &WorkflowRow) -> i64 {
    workflow.expires_at.unwrap_or_else(|| now_millis() + (state.config.signer_link_ttl_secs as i64) * 1000)
}
