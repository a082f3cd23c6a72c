//! Handlers, one module per resource. Each handler extracts (caller, validated input), calls
//! the store once, and maps the result.

pub mod audit;
pub mod auth;
pub mod departments;
pub mod documents;
pub mod gateway_admin;
pub mod gateway_public;
pub mod initiate_and_sign;
pub mod schemas;
pub mod signing_profiles;
pub mod webhooks;
pub mod workflow_actions;
pub mod workflows;
