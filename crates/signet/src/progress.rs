//! A progress bar on stderr for long work (many files signed, a lot signed through the API):
//! drawn in place when stderr is a terminal (or `SIGNET_PROGRESS=1`), never otherwise, so
//! that scripts and logs see only the one-line results and errors.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often the bar is redrawn at most.
const REDRAW: Duration = Duration::from_millis(100);
const WIDTH: u64 = 30;

pub struct Progress {
    total: u64,
    done: AtomicU64,
    failed: AtomicU64,
    unit: &'static str,
    started: Instant,
    enabled: bool,
    last_draw: Mutex<Option<Instant>>,
}

impl Progress {
    /// A bar for `total` items of `unit` ("files", "documents"); shown only for more than one.
    pub fn new(total: u64, unit: &'static str) -> Progress {
        let forced = std::env::var("SIGNET_PROGRESS").ok();
        let enabled = match forced.as_deref() {
            Some("1") => true,
            Some("0") => false,
            _ => total > 1 && std::io::stderr().is_terminal(),
        };
        Progress {
            total,
            done: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            unit,
            started: Instant::now(),
            enabled,
            last_draw: Mutex::new(None),
        }
    }

    /// One more item finished (`ok` or failed).
    pub fn advance(&self, ok: bool) {
        self.done.fetch_add(1, Ordering::Relaxed);
        if !ok {
            self.failed.fetch_add(1, Ordering::Relaxed);
        }
        self.draw(false);
    }

    /// The counts as reported by someone else (a job's progress).
    pub fn set(&self, done: u64, failed: u64) {
        self.done.store(done, Ordering::Relaxed);
        self.failed.store(failed, Ordering::Relaxed);
        self.draw(false);
    }

    /// The last drawing, and the line ended.
    pub fn finish(&self) {
        self.draw(true);
        if self.enabled {
            eprintln!();
        }
    }

    fn draw(&self, force: bool) {
        if !self.enabled {
            return;
        }
        let mut last = self.last_draw.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if !force && last.is_some_and(|at| now.duration_since(at) < REDRAW) {
            return;
        }
        *last = Some(now);
        let line = self.line(now);
        let mut stderr = std::io::stderr().lock();
        let _ = write!(stderr, "\r{line}\x1b[K");
        let _ = stderr.flush();
    }

    fn line(&self, now: Instant) -> String {
        let (done, failed) = (self.done.load(Ordering::Relaxed), self.failed.load(Ordering::Relaxed));
        render(done, failed, self.total, self.unit, now.duration_since(self.started))
    }
}

/// `[#########---------]  120/500 files, 2 failed, 24.1/s, 16 s left`
fn render(done: u64, failed: u64, total: u64, unit: &str, elapsed: Duration) -> String {
    let filled = (done.min(total) * WIDTH).checked_div(total).unwrap_or(WIDTH);
    let bar: String = (0..WIDTH).map(|i| if i < filled { '#' } else { '-' }).collect();
    let seconds = elapsed.as_secs_f64();
    let rate = if seconds > 0.0 { done as f64 / seconds } else { 0.0 };
    let failed = if failed > 0 { format!(", {failed} failed") } else { String::new() };
    let left = match (rate > 0.0, total > done) {
        (true, true) => format!(", {:.0} s left", (total - done) as f64 / rate),
        _ => String::new(),
    };
    format!("[{bar}] {done}/{total} {unit}{failed}, {rate:.1}/s{left}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_with_the_work() {
        let line = render(15, 1, 30, "files", Duration::from_secs(3));
        assert_eq!(line, format!("[{}{}] 15/30 files, 1 failed, 5.0/s, 3 s left", "#".repeat(15), "-".repeat(15)));
        assert!(render(0, 0, 0, "files", Duration::ZERO).starts_with(&format!("[{}]", "#".repeat(30))));
    }
}
