//! The audit trail: an append-only, hash-chained list of events per tenant. Each entry's hash
//! covers the previous entry's hash, so removing or editing any entry breaks every later link.

use aws_lc_rs::digest;
use serde::Serialize;

use crate::text_states;
use crate::workflow::WorkflowState;
use crate::{PrincipalId, SignatoryId};

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

text_states! {
    /// What happened in a workflow: the `action` of each entry of its own event chain, the
    /// `type` of the `workflow.event` job that follows it, and of the webhooks it sends. Declared
    /// once here so that what records an event and what reads it back (timelines, notices,
    /// certificates, webhooks) cannot spell a kind two ways. Entries are read back as text and
    /// parsed: a kind this Signet does not know is shown as written, never an error.
    pub enum WorkflowEventKind ("workflow event kind") {
        WorkflowCreated => "workflow.created",
        /// Other workflows were linked to it (related envelopes).
        WorkflowLinked => "workflow.linked",
        WorkflowCompleted => "workflow.completed",
        WorkflowDeclined => "workflow.declined",
        WorkflowExpired => "workflow.expired",
        WorkflowInactive => "workflow.inactive",
        WorkflowDeleted => "workflow.deleted",
        /// The completion certificate was issued (a completion step).
        CertificateIssued => "workflow.certificate_issued",
        /// Their turn: the link was sent.
        SignatoryNotified => "signatory.notified",
        SignatoryViewed => "signatory.viewed",
        SignatorySigned => "signatory.signed",
        SignatoryDeclined => "signatory.declined",
        SignatoryDelegated => "signatory.delegated",
        /// A reminder was sent (scheduled, by hand, or with a new link).
        SignatoryReminded => "signatory.reminded",
        /// The sender took the signing link to hand it out themselves.
        LinkHandedOut => "signatory.link_handed_out",
        /// A signatory's page handed to an allowed origin to show in a frame (embedded signing).
        LinkEmbedded => "signatory.link_embedded",
        /// The signatory's link was replaced; the old one no longer opens the page.
        LinkRevoked => "signatory.link_revoked",
        OtpSent => "signatory.otp_sent",
        OtpVerified => "signatory.otp_verified",
        OtpFailed => "signatory.otp_failed",
        SmsSent => "signatory.sms_sent",
        SmsFailed => "signatory.sms_failed",
        /// The final document time-stamp (a completion step).
        DocumentTimestamped => "document.timestamped",
        /// The chains and revocation data of the signatures made so far were added to the
        /// document (PAdES B-LT), soon after a signature.
        DocumentLongTerm => "document.long_term",
        /// That data could not be had yet (a CA or TSA did not answer): retried until it can.
        DocumentLongTermPending => "document.long_term_pending",
        /// The level a completed workflow's document stays at, and why (without a TSA: B-B,
        /// signed but not time-stamped); once per document.
        DocumentLevelReached => "document.level_reached",
        DocumentCommented => "document.commented",
        DocumentCategorised => "document.categorised",
        DocumentInactive => "document.inactive",
        AttachmentAdded => "attachment.added",
        /// Stamp papers were taken from stock for the workflow.
        StampsAllocated => "stamps.allocated",
        /// Stamp papers of a workflow that ended were retired.
        StampsRetired => "stamps.retired",
        /// Stamp papers of a workflow that ended went back to stock.
        StampsReleased => "stamps.released",
    }
}

impl WorkflowEventKind {
    /// The event of a workflow becoming `state` (`workflow.<state>`); none for
    /// `in_progress`, which a workflow starts in and never becomes again.
    pub fn became(state: WorkflowState) -> Option<WorkflowEventKind> {
        match state {
            WorkflowState::InProgress => None,
            WorkflowState::Completed => Some(WorkflowEventKind::WorkflowCompleted),
            WorkflowState::Declined => Some(WorkflowEventKind::WorkflowDeclined),
            WorkflowState::Expired => Some(WorkflowEventKind::WorkflowExpired),
            WorkflowState::Inactive => Some(WorkflowEventKind::WorkflowInactive),
            WorkflowState::Deleted => Some(WorkflowEventKind::WorkflowDeleted),
        }
    }
}

/// An event for a workflow's own chain: an [`AuditEvent`] whose action is a
/// [`WorkflowEventKind`]. Only [`Actor::workflow_event`] makes one, so the store's workflow
/// chain takes no free-text action (the tenant's audit log, whose actions are many and
/// varied, takes [`AuditEvent`]s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkflowEvent {
    kind: WorkflowEventKind,
    event: AuditEvent,
}

impl WorkflowEvent {
    pub fn kind(&self) -> WorkflowEventKind {
        self.kind
    }

    /// The event as the chain stores it.
    pub fn as_audit(&self) -> &AuditEvent {
        &self.event
    }
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
    /// The event's kind; `None` for a kind this Signet does not know (nothing follows it).
    pub fn event_kind(&self) -> Option<WorkflowEventKind> {
        WorkflowEventKind::parse(&self.kind)
    }

    /// The id in `signatory:ID` targets.
    pub fn signatory_id(&self) -> Option<crate::SignatoryId> {
        self.target.strip_prefix("signatory:").and_then(|id| id.parse::<i64>().ok()).map(crate::SignatoryId::from)
    }
}

/// A stored, chained entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub seq: i64,
    pub at: crate::Millis,
    pub actor: String,
    pub action: String,
    pub target: String,
    /// What the hash covers of the client address: its commitment ([`IpOpening::commitment`])
    /// for entries written since addresses are kept sealed, the address itself before.
    pub ip: Option<String>,
    pub detail: String,
    pub prev_hash: String,
    pub hash: String,
    /// The address a commitment in `ip` stands for, with its nonce, when it was kept (absent
    /// once erased, or where the reader may not see it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ip_opening: Option<IpOpening>,
}

impl AuditEntry {
    /// The commitment the hash covers in place of the address, when the entry has one.
    pub fn ip_commitment(&self) -> Option<&str> {
        self.ip.as_deref().filter(|ip| ip.starts_with(IP_COMMITMENT_PREFIX))
    }

    /// The client address the entry records, if it is known: the opened commitment's, or the
    /// address itself in an entry from before commitments.
    pub fn client_ip(&self) -> Option<&str> {
        match (&self.ip_opening, &self.ip) {
            (Some(opening), _) => Some(&opening.ip),
            (None, Some(ip)) if !ip.starts_with(IP_COMMITMENT_PREFIX) => Some(ip),
            _ => None,
        }
    }

    /// The kind of an entry of a workflow's chain; `None` for text that names no kind
    /// (an entry of a tenant's audit log, or a kind this Signet does not know).
    pub fn workflow_kind(&self) -> Option<WorkflowEventKind> {
        WorkflowEventKind::parse(&self.action)
    }
}

/// The start of a chain entry's `ip` that commits to an address rather than holding it.
pub const IP_COMMITMENT_PREFIX: &str = "ipc1:";

/// A client address and the random nonce its chain entry's commitment was made with.
///
/// A chain's hash must cover the address an event came from (who signed from where is
/// evidence), yet the address is personal data that must be kept encrypted and can be erased
/// (issue 34). So an entry's hashed field holds `ipc1:` + SHA-256(nonce ‖ address), and the
/// opening (address and nonce) is kept sealed beside it: the chain verifies without the key,
/// the address is shown to those who may read it, and erasing the opening leaves a chain that
/// still verifies. The nonce keeps the commitment from being matched against a guessed
/// address (IPv4 has only 2³² of them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct IpOpening {
    pub ip: String,
    /// 16 random bytes, hex.
    pub nonce: String,
}

impl IpOpening {
    /// The opening of `ip` with a fresh random nonce; `None` when there is no randomness.
    pub fn fresh(ip: &str) -> Option<IpOpening> {
        let mut nonce = [0u8; 16];
        aws_lc_rs::rand::fill(&mut nonce).ok()?;
        Some(IpOpening { ip: ip.to_string(), nonce: hex::encode(nonce) })
    }

    /// What the chain's hash covers in place of the address.
    pub fn commitment(&self) -> String {
        let mut ctx = digest::Context::new(&digest::SHA256);
        for field in [self.nonce.as_bytes(), self.ip.as_bytes()] {
            ctx.update(&(field.len() as u64).to_be_bytes());
            ctx.update(field);
        }
        format!("{IP_COMMITMENT_PREFIX}{}", hex::encode(ctx.finish().as_ref()))
    }

    /// Whether this opening is the one `committed` was made from.
    pub fn opens(&self, committed: &str) -> bool {
        self.commitment() == committed
    }

    /// The text that is sealed and stored beside the entry: `nonce:address`.
    pub fn to_stored(&self) -> String {
        format!("{}:{}", self.nonce, self.ip)
    }

    /// Reads [`IpOpening::to_stored`]'s text back.
    pub fn from_stored(stored: &str) -> Option<IpOpening> {
        let (nonce, ip) = stored.split_once(':')?;
        (!nonce.is_empty() && !ip.is_empty()).then(|| IpOpening { ip: ip.to_string(), nonce: nonce.to_string() })
    }
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
        if let Some(opening) = &entry.ip_opening
            && !entry.ip.as_deref().is_some_and(|committed| opening.opens(committed))
        {
            return Err(fail("the address does not match the entry's commitment"));
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
        assert_eq!(Party::parse("user:7"), Party::User(PrincipalId::from(7)));
        assert_eq!(Party::parse("client:3"), Party::Client(PrincipalId::from(3)));
        assert_eq!(Party::parse("signatory:12"), Party::Signatory(SignatoryId::from(12)));
        assert_eq!(Party::parse("system"), Party::System);
        for other in ["workflow:4", "user:", "user:x", "user", "", "signatory:-"] {
            assert_eq!(Party::parse(other), Party::Other, "{other}");
        }
    }

    #[test]
    fn every_ended_state_has_its_event() {
        for state in WorkflowState::ALL.iter().copied() {
            let kind = WorkflowEventKind::became(state);
            assert_eq!(
                kind.map(|k| k.as_str().to_string()),
                (state != WorkflowState::InProgress).then(|| format!("workflow.{state}"))
            );
        }
        let event = Actor::system().workflow_event(
            WorkflowEventKind::SignatorySigned,
            "signatory:1".into(),
            serde_json::json!({}),
        );
        assert_eq!(
            (event.kind(), event.as_audit().action.as_str()),
            (WorkflowEventKind::SignatorySigned, "signatory.signed")
        );
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
                    ip_opening: None,
                };
                prev = hash;
                entry
            })
            .collect()
    }

    #[test]
    fn an_address_is_committed_to_and_opened_only_by_its_own_nonce() {
        let opening = IpOpening::fresh("2001:db8::7").expect("randomness");
        let committed = opening.commitment();
        assert!(committed.starts_with(IP_COMMITMENT_PREFIX) && !committed.contains("2001"));
        assert!(opening.opens(&committed));
        assert_eq!(IpOpening::from_stored(&opening.to_stored()), Some(opening.clone()));
        let again = IpOpening::fresh("2001:db8::7").expect("randomness");
        assert_ne!(again.commitment(), committed, "a fresh nonce: the same address is not recognisable");
        let other = IpOpening { ip: "2001:db8::8".into(), ..opening.clone() };
        assert!(!other.opens(&committed));
        for broken in ["", ":1.2.3.4", "abcd:", "no-colon"] {
            assert_eq!(IpOpening::from_stored(broken), None, "{broken}");
        }
        let mut entry = chain(1).remove(0);
        entry.ip = Some(committed);
        assert_eq!(entry.client_ip(), None, "a commitment is not an address");
        entry.ip_opening = Some(opening);
        assert_eq!(entry.client_ip(), Some("2001:db8::7"));
        entry.ip_opening = Some(IpOpening { ip: "2001:db8::9".into(), ..entry.ip_opening.clone().expect("set") });
        let mut entry_chain = vec![entry.clone()];
        entry_chain[0].hash = entry_hash(7, 1, 10, "user:1", "x", "t", entry.ip.as_deref(), "{}", GENESIS_HASH);
        assert_eq!(
            verify_chain(7, &entry_chain).map_err(|b| b.reason),
            Err("the address does not match the entry's commitment".to_string()),
            "a chain whose hash holds does not vouch for another address"
        );
        entry_chain[0].ip_opening = None;
        assert_eq!(verify_chain(7, &entry_chain), Ok(()), "an erased address leaves the chain verifying");
        entry.ip_opening = None;
        entry.ip = Some("10.0.0.1".into());
        assert_eq!(entry.client_ip(), Some("10.0.0.1"), "an entry from before commitments");
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
    User(PrincipalId),
    Client(PrincipalId),
    Signatory(SignatoryId),
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
            "user" => Party::User(PrincipalId::from(id)),
            "client" => Party::Client(PrincipalId::from(id)),
            "signatory" => Party::Signatory(SignatoryId::from(id)),
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

    /// An event of the tenant's audit log (`department.created`, `user.updated`, ...).
    pub fn event(&self, action: &str, target: String, detail: serde_json::Value) -> AuditEvent {
        AuditEvent { actor: self.id.clone(), action: action.to_string(), target, ip: self.ip.clone(), detail }
    }

    /// An event of a workflow's own chain.
    pub fn workflow_event(&self, kind: WorkflowEventKind, target: String, detail: serde_json::Value) -> WorkflowEvent {
        WorkflowEvent { kind, event: self.event(kind.as_str(), target, detail) }
    }
}
