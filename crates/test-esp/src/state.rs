//! What every handler shares: the ESP's state, the largest body read, the clock, and a lock
//! that survives a panicked request. Below the flow, the answers, revocation and the server, so
//! that none of them imports back up from the router.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::EspOptions;
use crate::keys::EspKeys;
use crate::ledger::Ledger;
use crate::pending::{Outbox, Transactions};

/// Largest form post read (a request with five hashes and its signature is a few KB).
pub const MAX_BODY_BYTES: usize = 1 << 20;
/// Everything the handlers share.
pub struct Esp {
    pub options: EspOptions,
    /// Base URL announced in certificates, without a trailing slash.
    pub public_url: String,
    pub keys: EspKeys,
    pub transactions: Mutex<Transactions>,
    pub outbox: Mutex<Outbox>,
    /// `"<aspId> <txn>"` of every accepted request.
    pub seen_txns: Mutex<Ledger>,
    /// Hex serial numbers of issued signer certificates.
    pub issued: Mutex<Ledger>,
}

pub type Shared = Arc<Esp>;

/// A poisoned lock only means another request panicked mid-way; the data stays usable.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub fn unix_now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}
