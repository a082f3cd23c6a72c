//! Runs the real `signet` binary as a child process.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub fn signet() -> Command {
    Command::new(env!("CARGO_BIN_EXE_signet"))
}

pub fn run(args: &[&str], cwd: &Path) -> Output {
    signet().args(args).current_dir(cwd).env_remove("SIGNET_DATA_DIR").output().expect("run signet")
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

/// Starts `signet serve ARGS --listen 127.0.0.1:0` and reads the address it prints.
pub fn serve(args: &[&str], cwd: &Path, envs: &[(&str, &str)]) -> Server {
    let mut command = signet();
    command
        .arg("serve")
        .args(args)
        .args(["--listen", "127.0.0.1:0"])
        .current_dir(cwd)
        .env_remove("SIGNET_DATA_DIR")
        .env("SIGNET_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    for (k, v) in envs {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("spawn serve");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    // Keep draining stdout so the child never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    let base = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_string();
    let server = Server { child, base };
    wait_ready(&server.base);
    server
}

pub fn wait_ready(base: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let client = reqwest::blocking_client();
    while Instant::now() < deadline {
        if client.get(format!("{base}/readyz")).send().map(|r| r.status().is_success()).unwrap_or(false) {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{base} did not become ready");
}

pub mod reqwest {
    /// A small blocking HTTP helper over a current-thread runtime, so tests stay synchronous.
    pub struct Blocking {
        rt: tokio::runtime::Runtime,
        client: ::reqwest::Client,
    }

    pub struct Request<'a> {
        owner: &'a Blocking,
        builder: ::reqwest::RequestBuilder,
    }

    pub struct Reply {
        status: u16,
        body: String,
    }

    impl Reply {
        pub fn status(&self) -> Status {
            Status(self.status)
        }
        pub fn json(&self) -> serde_json::Value {
            serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
        }
        pub fn code(&self) -> u16 {
            self.status
        }
    }

    pub struct Status(u16);
    impl Status {
        pub fn is_success(&self) -> bool {
            (200..300).contains(&self.0)
        }
    }

    pub fn blocking_client() -> Blocking {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        Blocking { rt, client: ::reqwest::Client::new() }
    }

    impl Blocking {
        pub fn get(&self, url: String) -> Request<'_> {
            Request { owner: self, builder: self.client.get(url) }
        }
        pub fn post(&self, url: String) -> Request<'_> {
            Request { owner: self, builder: self.client.post(url) }
        }
    }

    impl Request<'_> {
        pub fn bearer(self, token: &str) -> Self {
            Request { owner: self.owner, builder: self.builder.bearer_auth(token) }
        }
        pub fn json(self, body: &serde_json::Value) -> Self {
            Request { owner: self.owner, builder: self.builder.json(body) }
        }
        pub fn send(self) -> Result<Reply, ::reqwest::Error> {
            self.owner.rt.block_on(async move {
                let response = self.builder.send().await?;
                let status = response.status().as_u16();
                let body = response.text().await?;
                Ok(Reply { status, body })
            })
        }
    }
}
