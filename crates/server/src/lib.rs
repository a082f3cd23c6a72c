//! Signet's server: wiring only. It loads the configuration, assembles the services
//! (`signet-services`), the JSON API (`signet-api`) and the pages (`signet-web`), both on
//! `signet-http`, into one router ([`app::App`]), runs the background worker loop
//! (`workers`) and sets up observability (`observe`, `ops`).

pub mod app;
pub mod observe;
pub mod ops;
pub mod workers;

pub use app::{App, AppState};
pub use signet_api::openapi;
pub use signet_services::platform::config::{self, Config};
pub use signet_services::{Caller, Services};
// Paths the CLI and the tests have always used.
pub use signet_services::{integrations::webhooks, people::provision, platform::mail, platform::secrets, workflows};
