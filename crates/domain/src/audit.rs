//! The audit trail: an append-only, hash-chained list of events per tenant. Each entry's hash
//! covers the previous entry's hash, so removing or editing any entry breaks every later link.

use aws_lc_rs::digest;
use serde::Serialize;

/// The hash that precedes a tenant's first entry.
pub const GENESIS_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// What is recorded about a change, before it is chained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEvent {
    /// Who acted: `user:ID`, `client:ID` or `system`.
    pub actor: String,
    /// What happened, e.g. `department.created`.
    pub action: String,
    /// What it happened to, e.g. `department:12`.
    pub target: String,
    /// The client address the request came from, when there was one.
    pub ip: Option<String>,
    /// Event details as a JSON document.
    pub detail: serde_json::Value,
}

/// A workflow event once committed, as the `workflow.event` job carries it to what follows
/// (e-mails, webhooks, automated signing): the store writes it with the event, in the same
/// transaction; the job reads it. Enough to find the event again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowEventJob {
    pub tenant_id: crate::TenantId,
    pub workflow_id: crate::WorkflowId,
    pub seq: i64,
    /// The event's action (`signatory.notified`, `workflow.completed`, …).
    #[serde(rename = "type")]
    pub kind: String,
    pub target: String,
    pub at: i64,
}

impl WorkflowEventJob {
    /// The id in `signatory:ID` targets.
    pub fn signatory_id(&self) -> Option<crate::SignatoryId> {
        self.target.strip_prefix("signatory:").and_then(|id| id.parse::<i64>().ok()).map(crate::SignatoryId::from)
    }
}

/// A stored, chained entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub seq: i64,
    pub at: crate::Millis,
    pub actor: String,
    pub action: String,
    pub target: String,
    pub ip: Option<String>,
    pub detail: String,
    pub prev_hash: String,
    pub hash: String,
}

/// The hash of an entry: SHA-256 over the tenant, the previous hash and every field, each
/// length-prefixed so that no two different entries serialise to the same bytes.
#[allow(clippy::too_many_arguments)]
pub fn entry_hash(
    tenant_id: i64,
    seq: i64,
    at: crate::Millis,
    actor: &str,
    action: &str,
    target: &str,
    ip: Option<&str>,
    detail: &str,
    prev_hash: &str,
) -> String {
    let mut ctx = digest::Context::new(&digest::SHA256);
    let fields: [&[u8]; 9] = [
        &tenant_id.to_be_bytes(),
        &seq.to_be_bytes(),
        &at.to_be_bytes(),
        actor.as_bytes(),
        action.as_bytes(),
        target.as_bytes(),
        ip.unwrap_or("").as_bytes(),
        detail.as_bytes(),
        prev_hash.as_bytes(),
    ];
    for field in fields {
        ctx.update(&(field.len() as u64).to_be_bytes());
        ctx.update(field);
    }
    hex::encode(ctx.finish().as_ref())
}

/// Where a chain first fails to verify.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChainBreak {
    pub seq: i64,
    pub reason: String,
}

/// Checks a tenant's entries in order from the first: sequence numbers, links and hashes.
pub fn verify_chain(tenant_id: i64, entries: &[AuditEntry]) -> Result<(), ChainBreak> {
    let mut verifier = ChainVerifier::new(tenant_id);
    entries.iter().try_for_each(|entry| verifier.check(entry))
}

/// [`verify_chain`] one entry at a time, for chains read in pages (no need to hold a whole
/// log): each entry must follow the one checked before it.
pub struct ChainVerifier {
    tenant_id: i64,
    expected_seq: i64,
    expected_prev: String,
}

impl ChainVerifier {
    pub fn new(tenant_id: i64) -> ChainVerifier {
        ChainVerifier { tenant_id, expected_seq: 1, expected_prev: GENESIS_HASH.to_string() }
    }

    pub fn check(&mut self, entry: &AuditEntry) -> Result<(), ChainBreak> {
        let fail = |reason: &str| ChainBreak { seq: entry.seq, reason: reason.to_string() };
        if entry.seq != self.expected_seq {
            return Err(fail("sequence gap"));
        }
        if entry.prev_hash != self.expected_prev {
            return Err(fail("link to the previous entry does not match"));
        }
        let recomputed = entry_hash(
            self.tenant_id,
            entry.seq,
            entry.at,
            &entry.actor,
            &entry.action,
            &entry.target,
            entry.ip.as_deref(),
            &entry.detail,
            &entry.prev_hash,
        );
        if recomputed != entry.hash {
            return Err(fail("entry content does not match its hash"));
        }
        self.expected_prev = entry.hash.clone();
        self.expected_seq += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parties_are_read_from_their_references() {
        assert_eq!(Party::parse("user:7"), Party::User(7));
        assert_eq!(Party::parse("client:3"), Party::Client(3));
        assert_eq!(Party::parse("signatory:12"), Party::Signatory(12));
        assert_eq!(Party::parse("system"), Party::System);
        for other in ["workflow:4", "user:", "user:x", "user", "", "signatory:-"] {
            assert_eq!(Party::parse(other), Party::Other, "{other}");
        }
    }

    fn chain(n: i64) -> Vec<AuditEntry> {
        let mut prev = GENESIS_HASH.to_string();
        (1..=n)
            .map(|seq| {
                let hash = entry_hash(7, seq, seq * 10, "user:1", "x", "t", None, "{}", &prev);
                let entry = AuditEntry {
                    seq,
                    at: seq * 10,
                    actor: "user:1".into(),
                    action: "x".into(),
                    target: "t".into(),
                    ip: None,
                    detail: "{}".into(),
                    prev_hash: prev.clone(),
                    hash: hash.clone(),
                };
                prev = hash;
                entry
            })
            .collect()
    }

    #[test]
    fn intact_chain_verifies() {
        assert_eq!(verify_chain(7, &chain(5)), Ok(()));
    }

    #[test]
    fn edits_removals_and_other_tenants_are_detected() {
        let mut edited = chain(5);
        edited[2].action = "y".into();
        assert_eq!(verify_chain(7, &edited).map_err(|b| b.seq), Err(3));

        let mut removed = chain(5);
        removed.remove(1);
        assert_eq!(verify_chain(7, &removed).map_err(|b| b.seq), Err(3));

        assert!(verify_chain(8, &chain(2)).is_err());
    }
}

/// Whom an audit entry's actor or target names (`user:7`, `client:3`, `signatory:12`,
/// `system`, ...), so that pages can show a name instead of the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Party {
    User(i64),
    Client(i64),
    Signatory(i64),
    /// Signet itself: sweeps, completion steps, scheduled reminders.
    System,
    /// Anything else (a workflow, a document, a setting): shown as it is written.
    Other,
}

impl Party {
    pub fn parse(reference: &str) -> Party {
        if reference == "system" {
            return Party::System;
        }
        let Some((kind, id)) = reference.split_once(':') else { return Party::Other };
        let Ok(id) = id.parse::<i64>() else { return Party::Other };
        match kind {
            "user" => Party::User(id),
            "client" => Party::Client(id),
            "signatory" => Party::Signatory(id),
            _ => Party::Other,
        }
    }
}

/// Who performed a change and from where; every audited write takes one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    /// `user:ID`, `client:ID` or `system`.
    pub id: String,
    pub ip: Option<String>,
}

impl Actor {
    pub fn system() -> Self {
        Actor { id: "system".into(), ip: None }
    }

    pub fn event(&self, action: &str, target: String, detail: serde_json::Value) -> AuditEvent {
        AuditEvent { actor: self.id.clone(), action: action.to_string(), target, ip: self.ip.clone(), detail }
    }
}
