//! An installation checked whole (`signet check`): every blob a row names exists and, where the
//! row keeps its SHA-256, still has it; every tenant's audit chain and every workflow's event
//! chain verifies up to the head the workflow row holds; the data keys open. Rows are read a
//! page at a time and each finding is handed out as it is found, so that an installation of
//! any size is checked in bounded memory.

use std::fmt;

use signet_blob::{BlobKey, BlobStore};
use signet_domain::audit::{ChainBreak, GENESIS_HASH, verify_chain};
use signet_domain::{Error, TenantId, WorkflowId};
use signet_store::{BlobColumn, BlobReference, RowId, Store, WorkflowRow};

use crate::Services;
use crate::workflows::documents::sha256_hex;

/// Rows read per page.
const PAGE: i64 = 500;

/// Something missing or wrong, naming the row and the blob or the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// A data key does not unwrap with the configured master keys: what it encrypts is lost
    /// unless the master key that wrapped it is found.
    DataKey { id: i64, error: String },
    /// The row names a blob the store does not have.
    MissingBlob { column: BlobColumn, row: RowId, key: String },
    /// The blob is there but could not be read (or its key is not one Signet writes).
    UnreadableBlob { column: BlobColumn, row: RowId, key: String, error: String },
    /// The blob's SHA-256 is not the one the row keeps for it.
    ChangedBlob { column: BlobColumn, row: RowId, key: String, stored: String, actual: String },
    /// A tenant's audit chain breaks.
    AuditChain { tenant_id: TenantId, broken: ChainBreak },
    /// A workflow's event chain breaks.
    WorkflowChain { tenant_id: TenantId, workflow_id: WorkflowId, broken: ChainBreak },
    /// A workflow's events do not end at the head its row holds (entries lost or added).
    WorkflowHead { tenant_id: TenantId, workflow_id: WorkflowId, held: (i64, String), found: (i64, String) },
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::DataKey { id, error } => write!(f, "data key {id}: {error}"),
            Finding::MissingBlob { column, row, key } => write!(f, "missing blob {key} ({column}, row {row})"),
            Finding::UnreadableBlob { column, row, key, error } => {
                write!(f, "unreadable blob {key} ({column}, row {row}): {error}")
            }
            Finding::ChangedBlob { column, row, key, stored, actual } => {
                write!(f, "changed blob {key} ({column}, row {row}): SHA-256 {actual}, the row keeps {stored}")
            }
            Finding::AuditChain { tenant_id, broken } => {
                write!(f, "audit chain of tenant {tenant_id} breaks at entry {}: {}", broken.seq, broken.reason)
            }
            Finding::WorkflowChain { tenant_id, workflow_id, broken } => write!(
                f,
                "event chain of workflow {workflow_id} (tenant {tenant_id}) breaks at entry {}: {}",
                broken.seq, broken.reason
            ),
            Finding::WorkflowHead { tenant_id, workflow_id, held, found } => write!(
                f,
                "event chain of workflow {workflow_id} (tenant {tenant_id}) ends at entry {} ({}), the workflow holds {} ({})",
                found.0, found.1, held.0, held.1
            ),
        }
    }
}

/// How many data keys were unwrapped (each that did not is a finding).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataKeys {
    pub live: u64,
}

impl fmt::Display for DataKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} unwrapped with the configured master key and key vault", self.live)
    }
}

/// What was checked, and how many findings there were.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub blobs: u64,
    pub hashed: u64,
    pub tenants: u64,
    pub audit_entries: u64,
    pub workflows: u64,
    pub workflow_events: u64,
    pub data_keys: DataKeys,
    pub findings: u64,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} blob references ({} with a stored hash), {} audit chains ({} entries), {} workflow chains ({} events), data keys: {}; {} finding(s)",
            self.blobs,
            self.hashed,
            self.tenants,
            self.audit_entries,
            self.workflows,
            self.workflow_events,
            self.data_keys,
            self.findings
        )
    }
}

/// Checks the installation whole, handing each finding to `found` as it is found. An error is
/// returned only when the check itself cannot go on (the database does not answer).
pub async fn check(svc: &Services, mut found: impl FnMut(&Finding)) -> Result<Summary, Error> {
    let (store, blob) = (&svc.store, &svc.blob);
    let keys = svc.data_keys.check().await?;
    let mut summary = Summary {
        blobs: 0,
        hashed: 0,
        tenants: 0,
        audit_entries: 0,
        workflows: 0,
        workflow_events: 0,
        data_keys: DataKeys { live: keys.live },
        findings: 0,
    };
    let mut report = |finding: Finding, summary: &mut Summary| {
        summary.findings += 1;
        found(&finding);
    };
    for (id, error) in keys.failures {
        report(Finding::DataKey { id, error }, &mut summary);
    }
    for column in BlobColumn::ALL {
        let mut after = None;
        loop {
            let page = store.blob_references(column, after.as_ref(), PAGE).await?;
            let Some(last) = page.last() else { break };
            after = Some(last.row.clone());
            for reference in &page {
                summary.blobs += 1;
                summary.hashed += u64::from(reference.sha256.is_some());
                if let Some(finding) = check_blob(blob, column, reference).await {
                    report(finding, &mut summary);
                }
            }
        }
    }
    for tenant_id in store.audit_chain_owners().await? {
        summary.tenants += 1;
        let (entries, verified) = crate::platform::audit::verify_chain_of(store, tenant_id).await?;
        summary.audit_entries += entries;
        if let Err(broken) = verified {
            report(Finding::AuditChain { tenant_id, broken }, &mut summary);
        }
    }
    let mut after = 0;
    loop {
        let page = store.workflows_after(after, PAGE).await?;
        let Some(last) = page.last() else { break };
        after = last.id.get();
        for workflow in &page {
            summary.workflows += 1;
            let (events, finding) = workflow_chain(store, workflow).await?;
            summary.workflow_events += events;
            if let Some(finding) = finding {
                report(finding, &mut summary);
            }
        }
    }
    Ok(summary)
}

/// Reads the blob through the store (so that what is checked is what Signet would serve) and
/// compares its SHA-256 with the row's.
async fn check_blob(blob: &BlobStore, column: BlobColumn, reference: &BlobReference) -> Option<Finding> {
    let (row, key) = (reference.row.clone(), reference.key.clone());
    let parsed = match BlobKey::parse(&reference.key) {
        Ok(parsed) => parsed,
        Err(error) => return Some(Finding::UnreadableBlob { column, row, key, error: error.to_string() }),
    };
    let bytes = match blob.get(&parsed).await {
        Ok(bytes) => bytes,
        Err(error) if error.is_not_found() => return Some(Finding::MissingBlob { column, row, key }),
        Err(error) => return Some(Finding::UnreadableBlob { column, row, key, error: error.to_string() }),
    };
    let stored = reference.sha256.as_deref()?;
    let actual = sha256_hex(&bytes);
    (!actual.eq_ignore_ascii_case(stored)).then(|| Finding::ChangedBlob {
        column,
        row,
        key,
        stored: stored.to_string(),
        actual,
    })
}

/// The workflow's event chain verified, and its last entry compared with the head the row holds.
async fn workflow_chain(store: &Store, workflow: &WorkflowRow) -> Result<(u64, Option<Finding>), Error> {
    let (tenant_id, workflow_id) = (workflow.tenant_id, workflow.id);
    let entries = store.workflow_events(workflow).await?;
    let events = entries.len() as u64;
    if let Err(broken) = verify_chain(workflow_id.get(), &entries) {
        return Ok((events, Some(Finding::WorkflowChain { tenant_id, workflow_id, broken })));
    }
    let held = store.workflow_event_head(workflow).await?;
    let found = entries.last().map_or_else(|| (0, GENESIS_HASH.to_string()), |last| (last.seq, last.hash.clone()));
    let finding = (found != held).then_some(Finding::WorkflowHead { tenant_id, workflow_id, held, found });
    Ok((events, finding))
}
