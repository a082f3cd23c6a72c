//! Integrations: how a tenant's own systems meet Signet besides calling the API as a user:
//! registered applications with their API secrets (`applications`) and the webhooks Signet
//! posts to them (`webhooks`).

pub mod applications;
pub mod webhooks;
