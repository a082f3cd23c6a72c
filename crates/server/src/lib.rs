//! Signet's HTTP side: the JSON API v1 (`/api/v1`), operations endpoints, the OpenAPI document
//! and the background workers, assembled by [`app::App`].

pub mod app;
pub mod auth;
pub mod config;
pub mod error;
pub mod extract;
pub mod gateway;
pub mod heavy;
pub mod keys;
pub mod mail;
pub mod observe;
pub mod openapi;
pub mod preview;
pub mod provision;
pub mod routes;
pub mod seals;
pub mod secrets;
pub mod signer_form;
pub mod webhooks;
pub mod workers;
pub mod workflows;

pub use app::{App, AppState};
pub use config::Config;
