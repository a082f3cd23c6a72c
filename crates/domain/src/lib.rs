//! Signet's domain: identifiers, validated values, the error catalogue and the rules every
//! surface (API, gateway, CLI) shares. Nothing here knows about HTTP or SQL.

pub mod access;
pub mod audit;
pub mod authority;
pub mod csv;
pub mod department;
pub mod embedding;
pub mod error;
pub mod estamp;
pub mod fields;
pub mod gateway;
pub mod ids;
pub mod invoice;
pub mod job;
pub mod menu;
pub mod paging;
pub mod phone;
pub mod placement;
pub mod retention;
pub mod sales;
pub mod spelling;
pub mod stamp;
pub mod summary;
pub mod text_state;
pub mod user;
pub mod webhook;
pub mod workflow;
pub mod workflow_settings;

pub use error::{BoxError, Error, ErrorCode, FieldErrors};
pub use ids::{
    AttachmentId, AuthtokenId, BulkJobId, DeliveryId, DepartmentId, DocumentId, ExportJobId, JobId, LeadId, LotId,
    MenuId, PrincipalId, ReferralId, RoleId, SignatoryId, SigningProfileId, SsoProviderId, StampId, TemplateId,
    TenantId, WebhookId, WorkflowId,
};
/// The languages and time zones people read Signet in (`signet-locale`): the workflow's
/// signer language and the organisation's zone are these types.
pub use signet_locale::{Lang, Zone};
pub use text_state::UnknownState;
pub(crate) use text_state::text_states;

/// Milliseconds since the Unix epoch; every stored timestamp uses this so that the same SQL
/// works on SQLite and PostgreSQL.
pub type Millis = i64;

/// The current time in milliseconds since the Unix epoch.
pub fn now_millis() -> Millis {
    let since_epoch = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since_epoch.as_millis()).unwrap_or(i64::MAX)
}
