//! Handlers, one module per resource, each with its DTOs. A handler extracts the caller and its
//! input, makes one call (a use case in `signet_services`; for a plain read or single-row
//! change, the store function it needs) and maps the answer to the response.

pub mod applications;
pub mod audit;
pub mod auth;
pub mod bulk;
pub mod certificates;
pub mod departments;
pub mod documents;
pub mod embedding;
pub mod esign;
pub mod estamp_payload;
pub mod exports;
pub mod gateway_admin;
pub mod initiate_and_sign;
pub mod invoices;
pub mod menus;
pub mod privacy;
pub mod roles;
pub mod sales;
pub mod schemas;
pub mod signing_profiles;
pub mod sso;
pub mod stamps;
pub mod users;
pub mod verify;
pub mod webhooks;
pub mod workflow_actions;
pub mod workflows;
