//! A real SMTP server (Python's aiosmtpd, `scripts/smtp_sink.py`) that keeps every message it
//! receives, for tests of the mail the server sends.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// The sink; the server process is stopped when this is dropped.
pub struct SmtpSink {
    pub port: u16,
    dir: tempfile::TempDir,
    child: Child,
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl SmtpSink {
    /// Starts the sink on an ephemeral port and waits until it listens.
    pub fn start() -> SmtpSink {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut child = Command::new("python3")
            .arg(crate::script("smtp_sink.py"))
            .arg(dir.path())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 with aiosmtpd (scripts/install-test-deps.sh installs it)");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout).read_line(&mut line).expect("port line");
        let port = line.trim().parse().unwrap_or_else(|_| panic!("the SMTP sink did not start: {line:?}"));
        SmtpSink { port, dir, child }
    }

    /// The URL to configure as the server's SMTP relay.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Every message received so far, in order.
    pub fn messages(&self) -> Vec<Value> {
        let mut files: Vec<_> = std::fs::read_dir(self.dir.path())
            .expect("dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        files.iter().map(|p| serde_json::from_slice(&std::fs::read(p).expect("read")).expect("json")).collect()
    }

    /// Waits (up to 20 s) for a message to `to` whose subject contains `subject`.
    pub async fn wait_for(&self, to: &str, subject: &str) -> Value {
        for _ in 0..400 {
            if let Some(message) = self.messages().into_iter().find(|m| is_to(m, to) && has_subject(m, subject)) {
                return message;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no e-mail to {to} about {subject:?}; received: {:?}", self.messages());
    }
}

fn is_to(message: &Value, to: &str) -> bool {
    message["to"].as_array().is_some_and(|r| r.iter().any(|a| a.as_str().is_some_and(|a| a.eq_ignore_ascii_case(to))))
}

fn has_subject(message: &Value, subject: &str) -> bool {
    message["subject"].as_str().is_some_and(|s| s.contains(subject))
}
