//! The test token (the test kit's SoftHSM2 token) and the `signet-bridge` command run with its
//! SOFTHSM2_CONF.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use signet_testkit::token::SoftToken;
pub use signet_testkit::token::{LABEL, MODULE, PIN};

pub struct Token {
    pub soft: SoftToken,
    pub serial: String,
}

impl Token {
    pub fn dir(&self) -> &Path {
        self.soft.dir.path()
    }

    pub fn conf(&self) -> PathBuf {
        self.soft.conf()
    }
}

/// `signet-bridge` with `args`, the PIN (if any) on standard input.
pub fn bridge(t: &Token, args: &[&str], pin: Option<&str>) -> Output {
    bridge_with(&t.conf(), args, pin)
}

fn bridge_with(conf: &Path, args: &[&str], pin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_signet-bridge"))
        .args(args)
        .env("SOFTHSM2_CONF", conf)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("signet-bridge");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = writeln!(stdin, "{}", pin.unwrap_or_default());
    }
    child.wait_with_output().expect("signet-bridge output")
}

pub fn json_of(output: &Output) -> Value {
    assert!(output.status.success(), "signet-bridge failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("json")
}

/// A fresh token, and its serial number as the bridge lists it.
pub fn token() -> Token {
    let soft = SoftToken::new();
    let tokens = json_of(&bridge_with(&soft.conf(), &["tokens", "--module", MODULE], None));
    let serial = tokens
        .as_array()
        .and_then(|list| list.iter().find(|t| t["label"] == LABEL))
        .and_then(|t| t["serial"].as_str())
        .expect("the token is listed")
        .to_string();
    Token { soft, serial }
}

pub fn certificates(t: &Token) -> Vec<Value> {
    let listed = json_of(&bridge(t, &["certificates", "--module", MODULE, "--token", &t.serial], None));
    listed.as_array().cloned().unwrap_or_default()
}
