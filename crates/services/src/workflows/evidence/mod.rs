//! The evidence pack of a completed workflow: one ZIP with the signed documents, the completion
//! certificate, the workflow's event chain with the head the workflow row holds for it and the
//! organisation's audit entry that records that head (`audit/tenant-anchor.json`), the
//! verifier's ETSI report on every document (sealed by the organisation), a sealed certificate
//! under section 63 of the Bharatiya Sakshya Adhiniyam stating every other file's hash
//! (`section63`), a manifest of every other file's size and SHA-256, and the organisation's
//! seal over the manifest (`manifest.json.p7s`, a detached CAdES signature: whoever changed a
//! file and its hash in the manifest would break it). `check` verifies a
//! pack with nothing but its bytes (what `signet evidence verify` runs); `zip` is the archive
//! format both sides share.
//!
//! A pack is bounded by its workflow: each signed document once, the completion certificate
//! (which attaches them once more), a report and a few kilobytes of JSON a document, and the
//! section 63 certificate's page or two, so about twice the workflow's documents; the archive
//! refuses to grow past 4 GiB or 1,000 entries.

pub mod check;
pub mod section63;
pub mod zip;

use serde::{Deserialize, Serialize};
use signet_blob::BlobKey;
use signet_domain::audit::AuditEntry;
use signet_domain::workflow::DocumentState;
use signet_domain::{Error, TenantId, WorkflowId, now_millis};
use signet_store::{DocumentRow, WorkflowRow};

use crate::platform::heavy::Share;
use crate::workflows::documents::sha256_hex;
use crate::{Caller, Services};

/// What the manifest's `format` says, so a later layout can be told apart.
pub const FORMAT: &str = "signet-evidence-pack/1";
pub const MANIFEST: &str = "manifest.json";
pub const MANIFEST_SEAL: &str = "manifest.json.p7s";
pub const CERTIFICATE: &str = "completion-certificate.pdf";
pub const SECTION_63: &str = "section-63-certificate.pdf";
pub const EVENTS: &str = "audit/events.json";
pub const ANCHOR: &str = "audit/anchor.json";
pub const TENANT_ANCHOR: &str = "audit/tenant-anchor.json";
pub const DOCUMENTS_DIR: &str = "documents/";
pub const VALIDATION_DIR: &str = "validation/";

/// `manifest.json`: what the pack is of, and every other file in it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: String,
    pub workflow_id: i64,
    pub workflow_name: String,
    pub tenant_id: i64,
    pub tenant: String,
    pub completed_at: Option<i64>,
    /// When the pack was made (milliseconds since the epoch).
    pub created_at: i64,
    pub files: Vec<ManifestFile>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ManifestFile {
    pub name: String,
    pub size: u64,
    pub sha256: String,
}

/// `audit/events.json`: the workflow's event chain, every entry with its links.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Events {
    pub workflow_id: i64,
    pub events: Vec<AuditEntry>,
}

/// `audit/anchor.json`: the chain's head as the workflow row holds it, apart from the entries;
/// the entries must lead to it link by link.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Anchor {
    pub workflow_id: i64,
    pub seq: i64,
    pub head: String,
    pub rule: String,
}

/// `audit/tenant-anchor.json`: the entry of the organisation's audit chain that records the
/// workflow chain's head (`workflow.events_anchored`, written when the pack is made). Its hash
/// recomputes from its fields; that the entry stands in the organisation's chain is what
/// `signet audit verify` (or an audit export) confirms on the installation, by sequence number
/// and hash.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TenantAnchor {
    pub tenant_id: i64,
    pub entry: AuditEntry,
    pub rule: String,
}

/// What a `workflow.events_anchored` entry's detail says.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct AnchoredHead {
    pub workflow_id: i64,
    pub seq: i64,
    pub head: String,
}

const TENANT_HASH_RULE: &str = "The entry's hash is SHA-256 over the organisation's id, sequence number, time, actor, \
    action, target, address, detail and the previous entry's hash, each as an 8-byte big-endian length and its bytes \
    (numbers as 8-byte big-endian); the entry is the organisation's audit chain's at that sequence number.";

const HASH_RULE: &str = "Each entry's hash is SHA-256 over the workflow id, sequence number, time, actor, action, \
    target, address, detail and the previous entry's hash, each as an 8-byte big-endian length and its bytes \
    (numbers as 8-byte big-endian); the first entry's previous hash is 64 zeros.";

/// The evidence pack of the caller's completed workflow. Who may have it is who may have the
/// completion certificate (the same rules, `queries::completed_workflow`).
pub async fn pack(svc: &Services, caller: &Caller, id: WorkflowId) -> Result<Vec<u8>, Error> {
    let workflow = crate::workflows::queries::completed_workflow(svc, caller, id).await?;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let documents = svc.store.workflow_documents(&workflow).await?;
    for (i, document) in documents.iter().filter(|d| d.state != DocumentState::Deleted).enumerate() {
        let stem = format!("{}-{}", i + 1, file_stem(&document.name));
        let signed = signed_bytes(svc, document).await?;
        let report = crate::verification::sealed_etsi_report(svc, caller, signed.clone(), None).await?;
        files.push((format!("{DOCUMENTS_DIR}{stem}.pdf"), signed));
        files.push((format!("{VALIDATION_DIR}{stem}.xml"), report));
    }
    files.push((CERTIFICATE.into(), crate::workflows::documents::merged_pdf(svc, &workflow).await?));
    files.extend(audit_files(svc, caller, &workflow).await?);
    let tenant = svc.store.tenant_name(workflow.tenant_id).await?.unwrap_or_default();
    let section63 = section63::certificate(svc, &workflow, &tenant, &files).await?;
    files.push((SECTION_63.into(), section63));
    let manifest = manifest(&workflow, tenant, &files)?;
    let manifest_seal = seal_manifest(svc, workflow.tenant_id, manifest.clone()).await?;
    let mut archive = zip::ZipWriter::default();
    archive.add(MANIFEST, &manifest).map_err(Error::internal)?;
    archive.add(MANIFEST_SEAL, &manifest_seal).map_err(Error::internal)?;
    for (name, bytes) in &files {
        archive.add(name, bytes).map_err(Error::internal)?;
    }
    Ok(archive.finish())
}

/// The organisation's seal over the manifest: a detached CAdES signature by its sealing
/// certificate. The manifest states every other file's hash, so the seal vouches for them all;
/// without it, whoever rewrote a file could rewrite its hash in the manifest too.
async fn seal_manifest(svc: &Services, tenant: TenantId, manifest: Vec<u8>) -> Result<Vec<u8>, Error> {
    let seal = svc.seals.for_tenant(&svc.store, tenant).await?;
    let options = signet_signing::DataSignOptions { detached: true, ..Default::default() };
    svc.heavy
        .run(Share::Tenant(tenant), move || signet_signing::sign_data(&manifest, seal.as_ref(), &options))
        .await?
        .map_err(|e| Error::internal(format!("sealing the evidence manifest: {e}")))
}

/// The document's final file, with every signature.
async fn signed_bytes(svc: &Services, document: &DocumentRow) -> Result<Vec<u8>, Error> {
    Ok(svc.blob.get(&BlobKey::parse(&document.current_blob)?).await?.to_vec())
}

/// The event chain, the head it must lead to, and the organisation's audit entry that records
/// that head. The head is read first and the events up to it, so an event written meanwhile
/// (a renewal's time-stamp) is in the next pack, not a break in this one.
async fn audit_files(svc: &Services, caller: &Caller, workflow: &WorkflowRow) -> Result<[(String, Vec<u8>); 3], Error> {
    let (seq, head) = svc.store.workflow_event_head(workflow).await?;
    let mut events = svc.store.workflow_events(workflow).await?;
    events.retain(|event| event.seq <= seq);
    let events = Events { workflow_id: workflow.id.get(), events };
    let entry = svc.store.anchor_workflow_events(workflow, (seq, &head), &caller.actor).await?;
    let tenant_anchor = TenantAnchor { tenant_id: workflow.tenant_id.get(), entry, rule: TENANT_HASH_RULE.into() };
    let anchor = Anchor { workflow_id: workflow.id.get(), seq, head, rule: HASH_RULE.into() };
    Ok([
        (EVENTS.into(), json(&events)?),
        (ANCHOR.into(), json(&anchor)?),
        (TENANT_ANCHOR.into(), json(&tenant_anchor)?),
    ])
}

fn manifest(workflow: &WorkflowRow, tenant: String, files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, Error> {
    let manifest = Manifest {
        format: FORMAT.into(),
        workflow_id: workflow.id.get(),
        workflow_name: workflow.name.clone(),
        tenant_id: workflow.tenant_id.get(),
        tenant,
        completed_at: workflow.completed_at,
        created_at: now_millis(),
        files: files
            .iter()
            .map(|(name, bytes)| ManifestFile {
                name: name.clone(),
                size: bytes.len() as u64,
                sha256: sha256_hex(bytes),
            })
            .collect(),
    };
    json(&manifest)
}

fn json(value: &impl Serialize) -> Result<Vec<u8>, Error> {
    serde_json::to_vec_pretty(value).map_err(Error::internal)
}

/// A document's name as a file name inside the pack: letters, digits, `-`, `_` and `.` kept,
/// anything else `_`, a trailing `.pdf` dropped, at most 80 characters (the position in front
/// keeps two documents of one name apart).
fn file_stem(name: &str) -> String {
    let name = name.strip_suffix(".pdf").or_else(|| name.strip_suffix(".PDF")).unwrap_or(name);
    let stem: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' })
        .take(80)
        .collect();
    match stem.trim_matches('.') {
        "" => "document".into(),
        kept => kept.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_names_become_plain_file_names() {
        assert_eq!(file_stem("Loan agreement.pdf"), "Loan_agreement");
        assert_eq!(file_stem("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(file_stem(".."), "document");
        assert_eq!(file_stem("करार.pdf"), "____");
        assert_eq!(file_stem(&"x".repeat(300)).len(), 80);
    }
}
