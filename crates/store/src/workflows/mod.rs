//! Workflows (envelopes), their documents and signatories, and each workflow's own
//! hash-chained event log. Every change that a workflow's participants or integrators can
//! observe appends an event in the same transaction and enqueues a `workflow.event` job, from
//! which e-mails and webhooks are sent (so they survive restarts and run once across instances).
//!
//! One module per aggregate:
//! - `events`: the workflow's event chain, the job each event enqueues;
//! - `row`: the workflow row, the new row's fields, the row lock every transition takes first;
//! - `envelope`: creation, reading and listing, state changes, links;
//! - `documents`: documents, uploaded on their own and bound to a workflow, and their versions;
//! - `lta`: the long-term protection of completed documents, due renewals and the renewals;
//! - `signatories`: the signatories' rows, page views and signer links;
//! - `codes`: a signer's one-time codes by SMS and their verification;
//! - `signing`: the turn-taking transitions: signing, declining, delegating, completing;
//! - `participation`: what participants add along the way: comments and attachments;
//! - `templates`: reusable workflow definitions;
//! - `sweeps`: the periodic passes of the worker: reminders due, workflows past their expiry.

mod codes;
mod documents;
mod envelope;
mod events;
mod lta;
mod participation;
pub(crate) mod row;
mod signatories;
mod signing;
mod sweeps;
mod templates;

pub use codes::{NewSignerCode, SignerCodeRow};
pub use documents::{DocumentRow, NewDocument};
pub use envelope::{CreatedWorkflow, NewWorkflow};
pub use events::WORKFLOW_EVENTS_ANCHORED;
pub(crate) use events::append_event;
pub use lta::{LtaCounts, LtaDue, RenewedVersion};
pub use participation::{AttachmentRow, NewAttachment, NewWorkflowAttachment};
pub use row::WorkflowRow;
pub use signatories::{NewSignatory, SignatoryRow};
pub use signing::{AfterSignature, Delegate, SignedVersion};
pub use templates::{NewTemplate, Shelf, TemplateDocument, TemplateEdit, TemplateRow};
