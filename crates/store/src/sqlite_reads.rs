//! Point reads on SQLite answered on the calling thread.
//!
//! sqlx runs each SQLite connection on a thread of its own and hands it every statement through
//! a channel: a read of one row costs two thread wake-ups, which is most of what an
//! authenticated `GET` cost (a `perf` profile of `GET /api/v1/departments/{id}` under wrk: two
//! thirds of the samples in the kernel's scheduler, a third on sqlx's worker threads;
//! docs/performance.md). A primary-key read from a file in the OS page cache takes a few
//! microseconds, less than the hand-over, so the hottest point reads are answered here instead,
//! with rusqlite on read-only connections (the same libsqlite3 as sqlx's), on the async
//! worker that asks, without a thread hop.
//!
//! - Read-only connections in WAL mode never wait for writers; each statement is its own read
//!   transaction, so it sees everything committed before it, as sqlx's pool does.
//! - Should SQLite still answer busy (a checkpoint restarting the log) or fail otherwise, the
//!   read falls back to sqlx (`None`), so the caller's answer never depends on this path.
//! - Only single-row reads by key use it; anything that may scan stays on sqlx's threads, so
//!   no async worker blocks for long.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{OpenFlags, OptionalExtension, Params, Row};

pub(crate) struct SqliteReads {
    path: PathBuf,
    idle: Mutex<Vec<rusqlite::Connection>>,
    keep: usize,
}

impl SqliteReads {
    /// Reads from the database file at `path`, keeping up to `keep` connections open.
    pub(crate) fn new(path: PathBuf, keep: usize) -> SqliteReads {
        SqliteReads { path, idle: Mutex::new(Vec::new()), keep: keep.max(1) }
    }

    fn open(&self) -> rusqlite::Result<rusqlite::Connection> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
        let conn = rusqlite::Connection::open_with_flags(&self.path, flags)?;
        // Busy only while a checkpoint restarts the log: do not hold the async worker for it.
        conn.busy_timeout(Duration::from_millis(5))?;
        Ok(conn)
    }

    fn take(&self) -> rusqlite::Result<rusqlite::Connection> {
        let idle = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        match idle {
            Some(conn) => Ok(conn),
            None => self.open(),
        }
    }

    fn give_back(&self, conn: rusqlite::Connection) {
        if let Ok(mut idle) = self.idle.lock()
            && idle.len() < self.keep
        {
            idle.push(conn);
        }
    }

    /// The row `sql` finds (`Some(None)` when there is none), or `None` when this path could not
    /// answer and the caller should ask sqlx.
    pub(crate) fn row<T>(
        &self,
        sql: &str,
        params: impl Params,
        map: impl FnOnce(&Row<'_>) -> rusqlite::Result<T>,
    ) -> Option<Option<T>> {
        let read = self.take().and_then(|conn| {
            let found = conn.prepare_cached(sql).and_then(|mut statement| statement.query_row(params, map).optional());
            self.give_back(conn);
            found
        });
        match read {
            Ok(found) => Some(found),
            Err(error) => {
                tracing::debug!(%error, "a point read on the calling thread failed; asking sqlx");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_see_committed_rows_and_fall_back_when_they_cannot_answer() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("db.sqlite");
        let writer = rusqlite::Connection::open(&path).expect("open");
        writer
            .execute_batch("PRAGMA journal_mode=WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);")
            .expect("schema");
        let reads = SqliteReads::new(path.clone(), 2);
        let sql = "SELECT v FROM t WHERE id = $1";
        assert_eq!(reads.row(sql, [1], |r| r.get::<_, String>(0)), Some(None));
        writer.execute("INSERT INTO t VALUES (1, 'one')", []).expect("insert");
        assert_eq!(reads.row(sql, [1], |r| r.get::<_, String>(0)), Some(Some("one".to_string())));
        // A statement SQLite refuses (here: no such table) is not an answer.
        assert_eq!(reads.row("SELECT v FROM missing WHERE id = $1", [1], |r| r.get::<_, String>(0)), None);
        // Nor is a file that is not there.
        let absent = SqliteReads::new(dir.path().join("absent.sqlite"), 1);
        assert_eq!(absent.row(sql, [1], |r| r.get::<_, String>(0)), None);
    }
}
