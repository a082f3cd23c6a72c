//! Schemathesis (an outside, property-based API tester) drives every documented operation of a
//! running server with generated and hostile inputs: no 5xx, every status and body as the
//! OpenAPI document says, and no operation that ignores its authentication.

mod common;

use std::process::Command;

use common::{reqwest::blocking_client, run, serve};
use serde_json::{Value, json};

#[test]
fn schemathesis_finds_no_server_errors_or_contract_breaks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let limits = [("SIGNET_AUTH_RATE_LIMIT_PER_MINUTE", "1000000"), ("SIGNET_ACCOUNT_FAILURE_LIMIT", "1000000")];
    let server = serve(&[], dir.path(), &limits);
    let output = run(&["tenant", "create", "--name", "Fuzz", "--admin-email", "fuzz@example.test"], dir.path());
    assert!(output.status.success());
    let tenant: Value = serde_json::from_slice(&output.stdout).expect("json");
    let token = blocking_client()
        .post(format!("{}/api/v1/auth/token", server.base))
        .json(&json!({"grant_type": "client_credentials", "client_id": tenant["client_id"], "client_secret": tenant["client_secret"]}))
        .send()
        .expect("token")
        .json()["access_token"]
        .as_str()
        .expect("access token")
        .to_string();
    let result = Command::new("st")
        .args(["run", &format!("{}/api/v1/openapi.json", server.base)])
        .args(["-H", &format!("Authorization: Bearer {token}")])
        .args([
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,ignored_auth",
        ])
        // Ending the caller's own sessions would log the tester out half-way.
        .args(["--exclude-path", "/api/v1/auth/sessions/revoke"])
        .args(["--max-examples", "25", "--workers", "2", "--seed", "20261122", "--phases", "examples,coverage,fuzzing"])
        .output()
        .expect("schemathesis (`st`) must be installed: pip install schemathesis");
    let report = String::from_utf8_lossy(&result.stdout);
    assert!(result.status.success(), "schemathesis found problems:\n{report}");
}
