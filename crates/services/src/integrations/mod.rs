//! Integrations: how a tenant's own systems meet Signet besides calling the API as a user:
//! registered applications with their API secrets (`applications`), the webhooks Signet
//! posts to them (`webhooks`), and signer pages shown inside their own web applications
//! (`embedding`).

pub mod applications;
pub mod embedding;
pub mod webhooks;
