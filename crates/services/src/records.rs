//! The records the use cases hand to the faces and take from them: read models as the store
//! keeps them (its rows), and the filters and inputs its queries take. The faces (API,
//! console) name them from here; they never reach the store itself, whose handle is private to
//! this crate (`crates/services/tests/layering.rs` keeps it so).

pub use signet_store::{
    AfterSignature, ApplicationRow, AuthtokenRow, BillingProfileRow, BulkJobRow, DeliveryAttemptRow, DeliveryRow,
    DocumentRow, ExportJobRow, GrantedDepartmentRow, Grantee, HoldRow, IdleGrantRow, LeadFilter, LeadRow, MenuRow,
    NewSignatory, PrincipalCredentials, ReferralRow, RetentionPolicies, RoleRow, Shelf, SignatoryRow, SigningKeyRow,
    SigningProfileRow, SsoDomainProofRow, SsoProviderRow, StampFilter, StampRow, StampSettings, StockRow,
    TemplateDocument, TemplateRow, UserFilter, UserRow, UserSort, WebhookRow,
};
