//! What an erasure leaves in the organisation's audit chain: a tombstone stating what was
//! erased (ids, the documents' last hashes, the event chain's length and head), why and when,
//! sealed by the organisation (a detached CAdES signature by its sealing certificate, as the
//! evidence pack's manifest is). The chain keeps verifying, since nothing in it changes; the
//! tombstone is a new entry, and its seal lets anyone holding the audit export show that Signet
//! erased these records, and which, without the records themselves:
//! `openssl cms -verify -binary -inform DER -in seal.der -content tombstone.json -noverify`.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};
use serde_json::json;
use signet_domain::audit::{Actor, AuditEvent};
use signet_domain::{Error, Millis, TenantId};

use crate::Services;
use crate::platform::heavy::Share;

/// What the tombstone's `format` says.
pub const FORMAT: &str = "signet-tombstone/1";
/// The audit action of erased workflows.
pub const WORKFLOWS_ERASED: &str = "workflows.erased";
/// The audit action of erased gateway transactions.
pub const TRANSACTIONS_ERASED: &str = "gateway.erased";

/// Why something was erased.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// Its retention period ended (the sweep).
    Retention,
    /// A person asked (`POST /api/v1/privacy/erasure`).
    ErasureRequest,
}

impl Why {
    /// The erased workflow's `state_reason`.
    pub fn state_reason(self) -> &'static str {
        match self {
            Why::Retention => "erased: retention period ended",
            Why::ErasureRequest => "erased: erasure request",
        }
    }
}

/// One erased document: its id and the SHA-256 of its last version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErasedDocument {
    pub document_id: i64,
    pub sha256: String,
}

/// The signed statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tombstone {
    pub format: String,
    pub tenant_id: TenantId,
    pub why: Why,
    pub erased_at: Millis,
    /// The erased workflows, each with its documents and the event chain it had.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workflows: Vec<ErasedWorkflow>,
    /// Erased gateway transactions, by number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transactions: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErasedWorkflow {
    pub workflow_id: i64,
    pub state: String,
    pub ended_at: Option<Millis>,
    pub documents: Vec<ErasedDocument>,
    pub event_count: i64,
    pub event_head: String,
}

/// The audit entry of a tombstone: `detail.tombstone` is the exact JSON text sealed,
/// `detail.seal` the detached CMS signature over it (base64 DER).
pub async fn sealed_entry(
    svc: &Services,
    actor: &Actor,
    action: &str,
    target: String,
    tombstone: &Tombstone,
) -> Result<AuditEvent, Error> {
    let text = serde_json::to_string(tombstone).map_err(Error::internal)?;
    let seal = seal(svc, tombstone.tenant_id, text.clone().into_bytes()).await?;
    Ok(actor.event(action, target, json!({"tombstone": text, "seal": STANDARD.encode(seal)})))
}

async fn seal(svc: &Services, tenant: TenantId, bytes: Vec<u8>) -> Result<Vec<u8>, Error> {
    let seal = svc.seals.for_tenant(&svc.store, tenant).await?;
    let options = signet_signing::DataSignOptions { detached: true, ..Default::default() };
    svc.heavy
        .run(Share::Tenant(tenant), move || signet_signing::sign_data(&bytes, seal.as_ref(), &options))
        .await?
        .map_err(|e| Error::internal(format!("sealing a tombstone: {e}")))
}
