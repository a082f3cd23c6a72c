//! The real `signet` binary as a child process: one-shot commands and `signet serve`.
//!
//! Only the binary's own package knows its path (`CARGO_BIN_EXE_signet`), so tests name it
//! with [`signet_bin!`](crate::signet_bin) and the kit takes it from there.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::blocking::blocking_client;

/// The `signet` binary under test.
#[derive(Debug, Clone, Copy)]
pub struct SignetBin(pub &'static str);

/// The `signet` binary of the calling test crate (only `crates/signet` has one).
#[macro_export]
macro_rules! signet_bin {
    () => {
        $crate::process::SignetBin(env!("CARGO_BIN_EXE_signet"))
    };
}

impl SignetBin {
    /// A command for the binary, nothing set.
    pub fn command(self) -> Command {
        Command::new(self.0)
    }

    /// Runs `signet ARGS` in `cwd`, without an inherited `SIGNET_DATA_DIR`.
    pub fn run(self, args: &[&str], cwd: &Path) -> Output {
        self.command().args(args).current_dir(cwd).env_remove("SIGNET_DATA_DIR").output().expect("run signet")
    }

    /// Starts `signet serve ARGS --listen 127.0.0.1:0` in `cwd` with `envs`, reads the address it
    /// prints and waits until `/readyz` answers.
    pub fn serve(self, args: &[&str], cwd: &Path, envs: &[(&str, &str)]) -> Server {
        let mut command = self.command();
        command
            .arg("serve")
            .args(args)
            .args(["--listen", "127.0.0.1:0"])
            .current_dir(cwd)
            .env_remove("SIGNET_DATA_DIR")
            .env("SIGNET_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        command.envs(envs.iter().copied());
        let mut child = command.spawn().expect("spawn serve");
        let base = announced_address(&mut child);
        let server = Server { child, base };
        wait_ready(&server.base);
        server
    }
}

/// A `signet serve` process, killed when dropped.
pub struct Server {
    pub child: Child,
    pub base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `http://` address on the first line `serve` prints; the rest of its output is drained
/// on a thread so that the child never blocks on a full pipe.
fn announced_address(child: &mut Child) -> String {
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    std::thread::spawn(move || for _ in lines {});
    first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_string()
}

/// Waits (up to 60 s) until the server at `base` says it is ready.
pub fn wait_ready(base: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let client = blocking_client();
    while Instant::now() < deadline {
        if client.get(format!("{base}/readyz")).send().map(|r| r.status().is_success()).unwrap_or(false) {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{base} did not become ready");
}
