//! The platform under the use cases: settings (`config`), the platform's and the tenants'
//! keys and where they live (`keys`, `keyring`, `seals`, `secrets`), outbound messages
//! (`mail`, `sms`), the job handlers (`jobs`), the budgets of costly work and open doors
//! (`heavy`, `costly`, `limits`), reading worksheets (`sheets`), the tenant's audit trail
//! checked whole (`audit`), the installation checked whole (`integrity`) and the embedded
//! default backed up and restored (`backup`). Nothing here decides who may do what; the
//! rooms beside it do.

pub mod audit;
pub mod backup;
pub mod config;
pub mod costly;
pub mod data_keys;
pub mod heavy;
pub mod integrity;
pub mod jobs;
pub mod key_vault;
pub mod keyring;
pub mod keys;
pub mod limits;
pub mod mail;
pub mod seals;
pub mod secrets;
pub mod sheets;
pub mod sms;
pub mod tenant_deletion;
