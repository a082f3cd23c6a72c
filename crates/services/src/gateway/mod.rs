//! The gateway's transaction steps on the server side: admission before any expensive work
//! (`intake`), sealing the document or hashes (`seal`), and keeping a transaction's secrets
//! sealed at rest (`vault`).

pub mod admin;
pub mod esign;
pub mod intake;
pub mod seal;
pub mod submission;
pub mod token;
pub mod transaction;
pub mod vault;
