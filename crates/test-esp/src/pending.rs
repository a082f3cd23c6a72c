//! Transactions between the request and the answer, in memory: what the signer has done so
//! far (identified, OTP sent, wrong OTPs), keyed by the ESP's random transaction id, which the
//! pages carry in a hidden field. Bounded in count; each ends when its request's time window
//! does.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use signet_esign::EsignRequest;

use crate::files::Identity;

/// Most transactions waiting for their signer at once.
pub const MAX_PENDING: usize = 10_000;
/// How long an ended transaction is kept so that a late page post still gets a proper
/// "expired" answer to the ASP rather than "unknown transaction".
const KEEP_AFTER_END: Duration = Duration::from_secs(10 * 60);
/// OTPs one transaction may ask for (each resend is an SMS in the real world).
pub const MAX_OTP_SENDS: u32 = 5;
/// OTPs the outbox shows.
const OUTBOX_SIZE: usize = 100;

pub struct Pending {
    pub request: EsignRequest,
    /// When the request's `ts` leaves the window: the signer must be done by then.
    pub ends_at: Instant,
    pub step: Step,
    pub otp_sends: u32,
    /// Wrong OTPs so far, across resends.
    pub wrong_otps: u32,
}

pub enum Step {
    /// Waiting for the Aadhaar number or VID.
    Identify,
    /// An OTP was sent to the identity's mobile.
    OtpSent { identity: Identity, otp: String, sent_at: Instant },
}

#[derive(Default)]
pub struct Transactions {
    pending: HashMap<String, Pending>,
}

impl Transactions {
    /// Keeps a new transaction under `id`; `false` when [`MAX_PENDING`] are waiting.
    pub fn insert(&mut self, id: String, pending: Pending, now: Instant) -> bool {
        if self.pending.len() >= MAX_PENDING {
            self.pending.retain(|_, p| now < p.ends_at + KEEP_AFTER_END);
        }
        if self.pending.len() >= MAX_PENDING {
            return false;
        }
        self.pending.insert(id, pending);
        true
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut Pending> {
        self.pending.get_mut(id)
    }

    /// Ends a transaction (answered, failed or cancelled): a page posted later for it finds
    /// nothing.
    pub fn remove(&mut self, id: &str) -> Option<Pending> {
        self.pending.remove(id)
    }
}

/// One OTP "sent", as the outbox page shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct OutboxEntry {
    /// RFC 3339, UTC.
    pub at: String,
    pub esp_txn: String,
    pub name: String,
    pub mobile: String,
    pub otp: String,
}

/// The newest OTPs, newest first.
#[derive(Default)]
pub struct Outbox {
    entries: VecDeque<OutboxEntry>,
}

impl Outbox {
    pub fn push(&mut self, entry: OutboxEntry) {
        self.entries.push_front(entry);
        self.entries.truncate(OUTBOX_SIZE);
    }

    pub fn entries(&self) -> Vec<OutboxEntry> {
        self.entries.iter().cloned().collect()
    }
}
