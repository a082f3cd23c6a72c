//! Verifies an evidence pack with nothing but its bytes (and, if given, the certificates to
//! trust): every file against the manifest (its CRC-32 too, and no file missing or extra),
//! the organisation's seal over the manifest, the event chain link by link up to the anchored
//! head and the organisation's audit entry that records it, every signature of every PDF and sealed report. Each check names the file it is about, so a changed byte points at its file.

use std::collections::{BTreeMap, BTreeSet};

use signet_domain::audit::{entry_hash, verify_chain};
use signet_store::WORKFLOW_EVENTS_ANCHORED;

use super::zip::{self, ZipEntry};
use super::{
    ANCHOR, Anchor, AnchoredHead, CERTIFICATE, DOCUMENTS_DIR, EVENTS, Events, FORMAT, MANIFEST, MANIFEST_SEAL,
    Manifest, SECTION_63, TENANT_ANCHOR, TenantAnchor, VALIDATION_DIR,
};
use crate::workflows::documents::sha256_hex;

/// One check's outcome, about one file of the pack (or `pack` for the archive as a whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub file: String,
    pub passed: bool,
    pub what: String,
}

impl Check {
    fn new(file: &str, passed: bool, what: impl Into<String>) -> Check {
        Check { file: file.to_string(), passed, what: what.into() }
    }
}

/// Every check of the pack, in order: the archive, the manifest, each file's hash, the chain,
/// the signatures. The pack is good when every one passed.
pub fn check_pack(archive: &[u8], trust: &[Vec<u8>]) -> Vec<Check> {
    let entries = match zip::read(archive) {
        Ok(entries) => entries,
        Err(e) => return vec![Check::new("pack", false, format!("not a readable evidence pack: {e}"))],
    };
    let mut checks: Vec<Check> = entries
        .iter()
        .filter(|e| !e.crc_matches)
        .map(|e| Check::new(&e.name, false, "its bytes no longer match the archive's CRC-32: the file was changed"))
        .collect();
    let files: BTreeMap<&str, &[u8]> = entries.iter().map(|e: &ZipEntry<'_>| (e.name.as_str(), e.data)).collect();
    let Some(manifest) = read_manifest(&files, &mut checks) else { return checks };
    checks.extend(manifest_seal_checks(&files, trust));
    checks.extend(manifest_checks(&manifest, &files));
    checks.extend(chain_checks(&manifest, &files));
    checks.extend(signature_checks(&files, trust));
    checks
}

fn read_manifest(files: &BTreeMap<&str, &[u8]>, checks: &mut Vec<Check>) -> Option<Manifest> {
    let Some(bytes) = files.get(MANIFEST) else {
        checks.push(Check::new(MANIFEST, false, "missing"));
        return None;
    };
    match serde_json::from_slice::<Manifest>(bytes) {
        Ok(manifest) if manifest.format == FORMAT => {
            checks.push(Check::new(MANIFEST, true, format!("{} files listed", manifest.files.len())));
            Some(manifest)
        }
        Ok(manifest) => {
            checks.push(Check::new(MANIFEST, false, format!("unknown format {:?}", manifest.format)));
            None
        }
        Err(e) => {
            checks.push(Check::new(MANIFEST, false, format!("cannot be read: {e}")));
            None
        }
    }
}

/// The organisation's seal over the manifest (a detached CAdES signature), intact (or valid,
/// when certificates to trust were given). A seal that no longer matches cannot say which of
/// the two was changed, so both are named.
fn manifest_seal_checks(files: &BTreeMap<&str, &[u8]>, trust: &[Vec<u8>]) -> Vec<Check> {
    let (Some(manifest), Some(seal)) = (files.get(MANIFEST), files.get(MANIFEST_SEAL)) else {
        return vec![Check::new(MANIFEST_SEAL, false, "missing: nothing vouches for the manifest")];
    };
    let how = if trust.is_empty() { "intact (no certificates to trust given)" } else { "valid" };
    let verdict = match signet_signing::verify_file_with(seal, Some(manifest), trust, None) {
        Err(e) => Err(format!("cannot be verified: {e}")),
        Ok(report) => match report.signatures.first() {
            None => Err(format!("no signature: {}", report.errors.first().map_or("none found", String::as_str))),
            Some(s) if (if trust.is_empty() { s.intact } else { s.valid }) => {
                Ok(s.signer.clone().unwrap_or_else(|| "an unnamed signer".into()))
            }
            Some(s) => Err(s.errors.first().or(s.warnings.first()).cloned().unwrap_or_default()),
        },
    };
    match verdict {
        Ok(signer) => vec![Check::new(MANIFEST_SEAL, true, format!("the manifest's seal by {signer}: {how}"))],
        Err(why) => vec![
            Check::new(MANIFEST, false, format!("does not match the seal in {MANIFEST_SEAL}: {why}")),
            Check::new(MANIFEST_SEAL, false, format!("the seal is not {how} over {MANIFEST}: {why}")),
        ],
    }
}

/// Each listed file present with its size and SHA-256; nothing in the pack that is not listed.
fn manifest_checks(manifest: &Manifest, files: &BTreeMap<&str, &[u8]>) -> Vec<Check> {
    let mut checks = Vec::new();
    let mut listed = BTreeSet::new();
    for file in &manifest.files {
        listed.insert(file.name.as_str());
        let check = match files.get(file.name.as_str()) {
            None => Check::new(&file.name, false, "listed in the manifest but missing from the pack"),
            Some(bytes) if bytes.len() as u64 != file.size => {
                Check::new(&file.name, false, format!("{} bytes, the manifest says {}", bytes.len(), file.size))
            }
            Some(bytes) => match sha256_hex(bytes) {
                hash if hash == file.sha256 => Check::new(&file.name, true, format!("SHA-256 {hash} as listed")),
                hash => Check::new(&file.name, false, format!("SHA-256 {hash}, the manifest says {}", file.sha256)),
            },
        };
        checks.push(check);
    }
    for name in files.keys().filter(|name| **name != MANIFEST && **name != MANIFEST_SEAL && !listed.contains(*name)) {
        checks.push(Check::new(name, false, "in the pack but not listed in the manifest"));
    }
    checks
}

/// The events recomputed link by link from the first, leading to the anchored head, all of
/// the manifest's workflow.
fn chain_checks(manifest: &Manifest, files: &BTreeMap<&str, &[u8]>) -> Vec<Check> {
    let events = files.get(EVENTS).map(|b| serde_json::from_slice::<Events>(b));
    let anchor = files.get(ANCHOR).map(|b| serde_json::from_slice::<Anchor>(b));
    let (events, anchor) = match (events, anchor) {
        (Some(Ok(events)), Some(Ok(anchor))) => (events, anchor),
        (Some(Err(e)), _) => return vec![Check::new(EVENTS, false, format!("cannot be read: {e}"))],
        (_, Some(Err(e))) => return vec![Check::new(ANCHOR, false, format!("cannot be read: {e}"))],
        (None, _) => return vec![Check::new(EVENTS, false, "missing")],
        (_, None) => return vec![Check::new(ANCHOR, false, "missing")],
    };
    let workflow = manifest.workflow_id;
    if events.workflow_id != workflow {
        return vec![Check::new(
            EVENTS,
            false,
            format!("of workflow {}, the pack is of {workflow}", events.workflow_id),
        )];
    }
    if anchor.workflow_id != workflow {
        return vec![Check::new(
            ANCHOR,
            false,
            format!("of workflow {}, the pack is of {workflow}", anchor.workflow_id),
        )];
    }
    if let Err(broken) = verify_chain(workflow, &events.events) {
        return vec![Check::new(EVENTS, false, format!("chain broken at event {}: {}", broken.seq, broken.reason))];
    }
    let last = events.events.last().map(|e| (e.seq, e.hash.as_str()));
    if last != Some((anchor.seq, anchor.head.as_str())) {
        return vec![Check::new(ANCHOR, false, "the events do not lead to the anchored head")];
    }
    vec![
        Check::new(
            EVENTS,
            true,
            format!("{} events recomputed link by link to the anchored head {}", events.events.len(), anchor.head),
        ),
        tenant_anchor_check(manifest, &anchor, files),
    ]
}

/// The organisation's audit entry that records the anchored head: its hash recomputes from its
/// fields, and it names this workflow, sequence number and head.
fn tenant_anchor_check(manifest: &Manifest, anchor: &Anchor, files: &BTreeMap<&str, &[u8]>) -> Check {
    let tenant_anchor = match files.get(TENANT_ANCHOR).map(|b| serde_json::from_slice::<TenantAnchor>(b)) {
        Some(Ok(tenant_anchor)) => tenant_anchor,
        Some(Err(e)) => return Check::new(TENANT_ANCHOR, false, format!("cannot be read: {e}")),
        None => return Check::new(TENANT_ANCHOR, false, "missing"),
    };
    let entry = &tenant_anchor.entry;
    let recomputed = entry_hash(
        tenant_anchor.tenant_id,
        entry.seq,
        entry.at,
        &entry.actor,
        &entry.action,
        &entry.target,
        entry.ip.as_deref(),
        &entry.detail,
        &entry.prev_hash,
    );
    let anchored = serde_json::from_str::<AnchoredHead>(&entry.detail).ok();
    let expected = AnchoredHead { workflow_id: manifest.workflow_id, seq: anchor.seq, head: anchor.head.clone() };
    let problem = if tenant_anchor.tenant_id != manifest.tenant_id {
        Some(format!("of organisation {}, the pack is of {}", tenant_anchor.tenant_id, manifest.tenant_id))
    } else if recomputed != entry.hash {
        Some("the entry's hash does not recompute from its fields".to_string())
    } else if entry.action != WORKFLOW_EVENTS_ANCHORED || anchored.as_ref() != Some(&expected) {
        Some("the entry does not record this workflow's anchored head".to_string())
    } else {
        None
    };
    match problem {
        Some(problem) => Check::new(TENANT_ANCHOR, false, problem),
        None => Check::new(
            TENANT_ANCHOR,
            true,
            format!(
                "the head is recorded in the organisation's audit chain as entry {} with hash {} \
                 (`signet audit verify` on the installation confirms the entry in its chain)",
                entry.seq, entry.hash
            ),
        ),
    }
}

/// Every PDF's signatures and every report's seal: present and intact, and trusted when
/// certificates to trust were given.
fn signature_checks(files: &BTreeMap<&str, &[u8]>, trust: &[Vec<u8>]) -> Vec<Check> {
    let signed = |name: &&str| {
        *name == CERTIFICATE
            || *name == SECTION_63
            || (name.starts_with(DOCUMENTS_DIR) && name.ends_with(".pdf"))
            || (name.starts_with(VALIDATION_DIR) && name.ends_with(".xml"))
    };
    files.iter().filter(|(name, _)| signed(name)).map(|(name, bytes)| signature_check(name, bytes, trust)).collect()
}

fn signature_check(name: &str, bytes: &[u8], trust: &[Vec<u8>]) -> Check {
    let mut report = match signet_signing::verify_file(bytes, trust) {
        Ok(report) => report,
        Err(e) => return Check::new(name, false, format!("its signatures cannot be verified: {e}")),
    };
    if name == CERTIFICATE {
        // The certificate carries the documents' pages with their signatures, judged on the
        // documents themselves; what vouches for the certificate is its seal over the whole file.
        report.signatures.retain(|s| s.covers_whole_document);
    }
    let sound = |s: &signet_signing::SignatureReport| if trust.is_empty() { s.intact } else { s.valid };
    let total = report.signatures.len();
    let bad = report.signatures.iter().filter(|s| !sound(s)).count();
    let how = if trust.is_empty() { "intact (no certificates to trust given)" } else { "valid" };
    match (total, bad, report.errors.first()) {
        (0, _, error) => Check::new(name, false, format!("no signature: {}", error.map_or("none found", |e| e))),
        (_, 0, _) => Check::new(name, true, format!("{total} signature(s) {how}")),
        (_, bad, _) => {
            let first = report.signatures.iter().find(|s| !sound(s));
            let why = first.and_then(|s| s.errors.first().or(s.warnings.first())).map_or("", String::as_str);
            Check::new(name, false, format!("{bad} of {total} signature(s) not {how}: {why}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use signet_domain::audit::AuditEntry;

    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            format: FORMAT.into(),
            workflow_id: 7,
            workflow_name: "Lease".into(),
            tenant_id: 3,
            tenant: "Acme".into(),
            completed_at: None,
            created_at: 0,
            files: Vec::new(),
        }
    }

    /// A tenant entry recording `head` for workflow 7, hashed as the chain hashes it.
    fn tenant_anchor(head: &str) -> TenantAnchor {
        let detail = serde_json::json!({"workflowId": 7, "seq": 4, "head": head}).to_string();
        let mut entry = AuditEntry {
            seq: 12,
            at: 1_700_000_000_000,
            actor: "user:1".into(),
            action: WORKFLOW_EVENTS_ANCHORED.into(),
            target: "workflow:7".into(),
            ip: None,
            detail,
            prev_hash: "ab".repeat(32),
            hash: String::new(),
            ip_opening: None,
        };
        entry.hash = entry_hash(
            3,
            12,
            entry.at,
            &entry.actor,
            &entry.action,
            &entry.target,
            None,
            &entry.detail,
            &entry.prev_hash,
        );
        TenantAnchor { tenant_id: 3, entry, rule: String::new() }
    }

    fn check(tenant_anchor: &TenantAnchor) -> Check {
        let anchor = Anchor { workflow_id: 7, seq: 4, head: "cd".repeat(32), rule: String::new() };
        let bytes = serde_json::to_vec(tenant_anchor).expect("json");
        let files = BTreeMap::from([(TENANT_ANCHOR, bytes.as_slice())]);
        tenant_anchor_check(&manifest(), &anchor, &files)
    }

    #[test]
    fn the_tenant_entry_must_recompute_and_record_this_workflows_head() {
        assert!(check(&tenant_anchor(&"cd".repeat(32))).passed);
        let other_head = check(&tenant_anchor(&"ef".repeat(32)));
        assert!(!other_head.passed && other_head.what.contains("does not record"), "{other_head:?}");
        let mut edited = tenant_anchor(&"cd".repeat(32));
        edited.entry.actor = "user:2".into();
        let edited = check(&edited);
        assert!(!edited.passed && edited.what.contains("does not recompute"), "{edited:?}");
        let mut elsewhere = tenant_anchor(&"cd".repeat(32));
        elsewhere.tenant_id = 4;
        assert!(!check(&elsewhere).passed);
    }
}
