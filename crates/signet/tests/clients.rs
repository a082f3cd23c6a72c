//! The published clients against a live `signet serve`: the Python client (`clients/python`,
//! pytest) and the TypeScript client (`clients/typescript`, `npm test`) each run their own suite
//! (tokens and refresh, a workflow from upload to the signed download, a webhook delivery
//! verified, a ProblemDetails as a typed error, the generated code current with `openapi.json`)
//! against a fresh server and tenant. scripts/install-test-deps.sh installs what they need.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;

/// The `signet` binary under test.
const SIGNET: SignetBin = signet_bin!();

fn client_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../clients").join(name)
}

/// Starts a server whose webhooks may reach this machine (the suites receive them on a
/// loopback port), makes a tenant, and runs `program args` in the client's directory with
/// SIGNET_URL, SIGNET_CLIENT_ID and SIGNET_CLIENT_SECRET; the suite's output on failure.
fn run_suite_against_a_live_server(client: &str, program: &str, args: &[&str]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = SIGNET.serve(&[], dir.path(), &[("SIGNET_OUTBOUND_ALLOW_PRIVATE", "true")]);
    let output =
        SIGNET.run(&["tenant", "create", "--name", "Client Co", "--admin-email", "admin@client.test"], dir.path());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let tenant: Value = serde_json::from_slice(&output.stdout).expect("tenant json");
    let suite = Command::new(program)
        .args(args)
        .current_dir(client_dir(client))
        .env("SIGNET_URL", &server.base)
        .env("SIGNET_CLIENT_ID", tenant["client_id"].as_str().expect("client_id"))
        .env("SIGNET_CLIENT_SECRET", tenant["client_secret"].as_str().expect("client_secret"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} (scripts/install-test-deps.sh installs it): {e}"));
    assert!(
        suite.status.success(),
        "the {client} client's suite failed:\n{}\n{}",
        String::from_utf8_lossy(&suite.stdout),
        String::from_utf8_lossy(&suite.stderr)
    );
}

#[test]
fn python_client_suite_passes_against_a_live_server() {
    run_suite_against_a_live_server("python", "python3", &["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]);
}

#[test]
fn typescript_client_suite_passes_against_a_live_server() {
    run_suite_against_a_live_server("typescript", "npm", &["test", "--silent"]);
}
