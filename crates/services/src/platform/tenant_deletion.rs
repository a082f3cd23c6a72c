//! Deleting an organisation, by crypto-shredding (`signet tenant delete`, operators only).
//!
//! In this order, each step idempotent so that running the deletion again after a crash
//! finishes it:
//!
//! 1. the organisation is marked deleted: its users cannot sign in, its tokens, API clients and
//!    gateway tokens stop working (`Store::mark_tenant_deleted`);
//! 2. its key-encryption key is destroyed (its vault file overwritten and unlinked), then its
//!    data key rows lose their wrapped bytes. From here on nothing of it can be decrypted, from
//!    this installation or from any backup taken before, since no backup holds the vault;
//! 3. its blobs (`tenant/<id>/`) and its rows are deleted, the tenant row kept as a tombstone,
//!    and the platform's audit chain records who deleted which organisation, when, and the
//!    head of its audit chain then.
//!
//! What it cannot do: rows in clear in database backups taken before (names, e-mail addresses,
//! audit entries) stay readable there until those backups are expired (README: Data at rest).

use signet_blob::BlobKey;
use signet_domain::audit::Actor;
use signet_domain::{Error, ErrorCode};
use signet_store::PLATFORM_TENANT;

use crate::Services;
use crate::platform::secrets::random_token;

/// What a deletion did (on a re-run after it completed: nothing).
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Deletion {
    pub tenant_id: i64,
    pub name: String,
    /// Marked deleted by this run (false: it already was).
    pub marked: bool,
    /// The vault file was destroyed by this run.
    pub key_destroyed: bool,
    pub data_keys_destroyed: u64,
    pub blobs_deleted: u64,
    /// Rows deleted per table (only tables that had some).
    pub rows_deleted: Vec<(String, u64)>,
}

/// Deletes the organisation `tenant_id`, whose name must be `confirm_name` (a guard against a
/// wrong id). See the module's doc for the steps.
pub async fn delete_tenant(
    svc: &Services,
    tenant_id: i64,
    confirm_name: &str,
    actor: &Actor,
) -> Result<Deletion, Error> {
    let state = match svc.store.tenant_state(tenant_id).await? {
        Some(state) if tenant_id != PLATFORM_TENANT => state,
        _ => return Err(Error::not_found("organisation")),
    };
    if state.name != confirm_name {
        return Err(Error::rejected(
            ErrorCode::Conflict,
            format!("organisation {tenant_id} is named {:?}, not {confirm_name:?}", state.name),
        ));
    }
    let mut done = Deletion { tenant_id, name: state.name, ..Deletion::default() };
    done.marked = svc.store.mark_tenant_deleted(tenant_id, &random_token(16)).await?;
    done.key_destroyed = svc.data_keys.vault().destroy(tenant_id).map_err(Error::internal)?;
    svc.data_keys.forget_tenant(tenant_id);
    done.data_keys_destroyed = svc.store.destroy_tenant_data_keys(tenant_id).await?;
    let folder = BlobKey::new(["tenant".to_string(), tenant_id.to_string()]).map_err(Error::internal)?;
    done.blobs_deleted = svc.blob.delete_under(&folder).await.map_err(Error::internal)?;
    done.rows_deleted = svc.store.purge_tenant_rows(tenant_id, actor).await?;
    Ok(done)
}
