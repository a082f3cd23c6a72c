//! A small persistent set of keys with the time each was recorded: the `txn` values seen per
//! ASP (replay protection that survives a restart) and the serial numbers of issued
//! certificates (what the OCSP responder vouches for).
//!
//! One JSON object per line, appended as keys are recorded. Entries older than the retention
//! are dropped when the file is opened and whenever the file is rewritten; the file is
//! rewritten (compacted) when it has grown to twice the live entries. The count is bounded:
//! a full ledger refuses new keys rather than forget live ones.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::files::write_atomically;

#[derive(serde::Serialize, serde::Deserialize)]
struct Line {
    key: String,
    /// Unix seconds.
    at: i64,
}

pub struct Ledger {
    path: PathBuf,
    retention_secs: i64,
    max_entries: usize,
    entries: HashMap<String, i64>,
    lines_in_file: usize,
}

/// Whether a key was recorded.
#[derive(Debug, PartialEq, Eq)]
pub enum Recorded {
    New,
    AlreadyThere,
    /// The ledger holds `max_entries` live keys.
    Full,
}

impl Ledger {
    /// Opens (or starts) the ledger at `path`, keeping the entries younger than `retention`.
    /// Lines that cannot be read (a torn last line after a crash) are skipped.
    pub fn open(path: &Path, retention: std::time::Duration, max_entries: usize, now: i64) -> anyhow::Result<Ledger> {
        let retention_secs = i64::try_from(retention.as_secs()).unwrap_or(i64::MAX);
        let mut ledger =
            Ledger { path: path.to_path_buf(), retention_secs, max_entries, entries: HashMap::new(), lines_in_file: 0 };
        match std::fs::read_to_string(path) {
            Ok(text) => {
                for line in text.lines() {
                    if let Ok(Line { key, at }) = serde_json::from_str::<Line>(line) {
                        ledger.entries.insert(key, at);
                    }
                }
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(error).with_context(|| format!("cannot read {}", path.display())),
        }
        ledger.compact(now)?;
        Ok(ledger)
    }

    fn is_live(&self, at: i64, now: i64) -> bool {
        now.saturating_sub(at) <= self.retention_secs
    }

    pub fn contains(&self, key: &str, now: i64) -> bool {
        self.entries.get(key).is_some_and(|at| self.is_live(*at, now))
    }

    /// Records `key` at `now` (on disk before this returns).
    pub fn record(&mut self, key: &str, now: i64) -> anyhow::Result<Recorded> {
        if self.contains(key, now) {
            return Ok(Recorded::AlreadyThere);
        }
        if self.entries.len() >= self.max_entries {
            self.compact(now)?;
            if self.entries.len() >= self.max_entries {
                return Ok(Recorded::Full);
            }
        }
        let line = serde_json::to_string(&Line { key: key.to_string(), at: now })?;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        file.write_all(format!("{line}\n").as_bytes())
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        self.entries.insert(key.to_string(), now);
        self.lines_in_file += 1;
        if self.lines_in_file > 2 * self.entries.len().max(1024) {
            self.compact(now)?;
        }
        Ok(Recorded::New)
    }

    /// Drops expired entries and rewrites the file with the live ones.
    fn compact(&mut self, now: i64) -> anyhow::Result<()> {
        let retention_secs = self.retention_secs;
        self.entries.retain(|_, at| now.saturating_sub(*at) <= retention_secs);
        let mut text = String::new();
        for (key, at) in &self.entries {
            text.push_str(&serde_json::to_string(&Line { key: key.clone(), at: *at })?);
            text.push('\n');
        }
        write_atomically(&self.path, text.as_bytes(), false)?;
        self.lines_in_file = self.entries.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: std::time::Duration = std::time::Duration::from_secs(3600);

    #[test]
    fn keys_survive_a_reopen_until_they_are_old() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("seen.jsonl");
        let mut ledger = Ledger::open(&path, HOUR, 10, 1_000).expect("open");
        assert_eq!(ledger.record("ASP T1", 1_000).expect("record"), Recorded::New);
        assert_eq!(ledger.record("ASP T1", 1_500).expect("record"), Recorded::AlreadyThere);
        assert_eq!(ledger.record("ASP T2", 2_000).expect("record"), Recorded::New);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(b"{\"key\": \"torn"))
            .expect("torn line");

        let reopened = Ledger::open(&path, HOUR, 10, 2_100).expect("reopen");
        assert!(reopened.contains("ASP T1", 2_100) && reopened.contains("ASP T2", 2_100));
        let later = Ledger::open(&path, HOUR, 10, 1_000 + 3_601).expect("later");
        assert!(!later.contains("ASP T1", 4_601), "older than the retention");
        assert!(later.contains("ASP T2", 4_601));
        assert_eq!(std::fs::read_to_string(&path).expect("file").lines().count(), 1, "compacted");
    }

    #[test]
    fn a_full_ledger_refuses_until_entries_age_out() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut ledger = Ledger::open(&dir.path().join("seen.jsonl"), HOUR, 2, 0).expect("open");
        assert_eq!(ledger.record("a", 0).expect("a"), Recorded::New);
        assert_eq!(ledger.record("b", 10).expect("b"), Recorded::New);
        assert_eq!(ledger.record("c", 20).expect("c"), Recorded::Full);
        assert_eq!(ledger.record("c", 3_605).expect("c later"), Recorded::New, "a aged out");
    }
}
