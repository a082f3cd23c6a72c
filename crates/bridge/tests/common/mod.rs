//! The test token (the test kit's SoftHSM2 token) and the `signet-bridge` command and service
//! run with its SOFTHSM2_CONF, on SoftHSM2 itself or through the PIN lock shim
//! (`pin_lock_shim.c`), which locks the token after too many wrong PINs as USB tokens do.
#![allow(dead_code)]

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

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

    /// SoftHSM2 itself.
    pub fn softhsm(&self) -> Driver {
        Driver::softhsm(&self.conf())
    }

    /// The PIN lock shim built into the token's folder, in front of SoftHSM2: the user PIN
    /// locks after `tries` wrong PINs, counted in a file there that every bridge process of
    /// this token shares, as a token keeps its own counter.
    pub fn pin_lock(&self, tries: u32) -> Driver {
        let module = self.dir().join("libpinlock.so");
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/common/pin_lock_shim.c");
        let out = Command::new("cc")
            .args(["-shared", "-fPIC", "-Wall", "-Werror", "-I/usr/include/p11-kit-1", "-o"])
            .arg(&module)
            .arg(&source)
            .arg("-ldl")
            .output()
            .expect("cc");
        assert!(
            out.status.success(),
            "the PIN lock shim does not build (scripts/install-test-deps.sh installs libp11-kit-dev): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut driver = self.softhsm();
        driver.module = module.display().to_string();
        driver.env.extend([
            ("PIN_LOCK_SHIM_TARGET", OsString::from(MODULE)),
            ("PIN_LOCK_SHIM_STATE", self.dir().join("pin-lock-state").into()),
            ("PIN_LOCK_SHIM_TRIES", tries.to_string().into()),
        ]);
        driver
    }
}

/// The PKCS#11 module a bridge process loads, and the environment it reads.
pub struct Driver {
    pub module: String,
    pub env: Vec<(&'static str, OsString)>,
}

impl Driver {
    fn softhsm(conf: &Path) -> Driver {
        Driver { module: MODULE.to_string(), env: vec![("SOFTHSM2_CONF", conf.into())] }
    }

    fn command(&self) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_signet-bridge"));
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        command
    }
}

/// `signet-bridge` with `args` on SoftHSM2, the PIN (if any) on standard input.
pub fn bridge(t: &Token, args: &[&str], pin: Option<&str>) -> Output {
    bridge_on(&t.softhsm(), args, pin)
}

/// `signet-bridge` with `args` and `driver`'s environment (`args` name its module).
pub fn bridge_on(driver: &Driver, args: &[&str], pin: Option<&str>) -> Output {
    let mut child = driver
        .command()
        .args(args)
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
    let tokens = json_of(&bridge_on(&Driver::softhsm(&soft.conf()), &["tokens", "--module", MODULE], None));
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

/// The signer page's origin, the one the served bridge allows.
pub const ORIGIN: &str = "https://sign.example.test";

/// A running `signet-bridge serve`, stopped when dropped.
pub struct Served {
    child: Child,
    pub url: String,
    pub client: reqwest::Client,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `signet-bridge serve` on `driver` with the token's folder as its HOME (where it installs its
/// CA), and the line it announced itself with.
pub fn serve(t: &Token, driver: &Driver) -> (Served, Value) {
    let data = t.dir().join("bridge");
    let mut child = driver
        .command()
        .args(["serve", "--module", &driver.module, "--allow-origin", ORIGIN, "--port", "0", "--data-dir"])
        .arg(&data)
        .env("HOME", t.dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("signet-bridge serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("first line");
    let started: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    let ca = std::fs::read(started["ca"].as_str().expect("ca")).expect("ca.pem");
    let client = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(&ca).expect("pem"))
        .build()
        .expect("client");
    (Served { child, url: started["url"].as_str().expect("url").to_string(), client }, started)
}
