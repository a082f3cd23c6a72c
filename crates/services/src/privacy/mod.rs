//! Privacy: how long an organisation keeps what signing leaves behind, and erasing it.
//!
//! - `retention`: the organisation's and its templates' periods, and legal holds;
//! - `erasure`: erasing one workflow behind a sealed tombstone, and a person's erasure request;
//! - `sweep`: the periodic pass that erases what a period ended, and the deletion of the
//!   stored objects an erasure left (`blobs.erase`);
//! - `tombstone`: what an erasure leaves in the organisation's audit chain, sealed.
//!
//! The rules (what a period covers, what a request may take) are `signet_domain::retention`;
//! what an erasure removes in the database is `signet_store`'s `erase_workflow`.

pub mod erasure;
pub mod retention;
pub mod sweep;
pub mod tombstone;
