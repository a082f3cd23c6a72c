//! The `signet` command as a user runs it.

use serde_json::{Value, json};
use signet_testkit::blocking::blocking_client;
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;

/// The `signet` binary under test.
const SIGNET: SignetBin = signet_bin!();

fn stderr_line(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).trim().to_string()
}

#[test]
fn serve_with_no_configuration_uses_the_embedded_default() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = SIGNET.serve(&[], dir.path(), &[]);
    let data = dir.path().join("signet-data");
    assert!(data.join("signet.db").exists(), "SQLite database in ./signet-data");
    for cert in ["gateway.cer", "gateway.pem", "ca.pem", "seal.pem"] {
        assert!(data.join("keys").join(cert).exists(), "{cert} made on first start");
    }
    let http = blocking_client();
    assert!(http.get(format!("{}/healthz", server.base)).send().expect("healthz").status().is_success());

    // `tenant create` works while `serve` runs on the same data.
    let output = SIGNET.run(&["tenant", "create", "--name", "Acme", "--admin-email", "admin@acme.test"], dir.path());
    assert!(output.status.success(), "{}", stderr_line(&output));
    let created: Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    for key in ["tenant_id", "client_id", "client_secret", "admin_email", "admin_password"] {
        assert!(!created[key].is_null(), "{key} in {created}");
    }
    let token = http
        .post(format!("{}/api/v1/auth/token", server.base))
        .json(&json!({"grant_type": "password", "username": "admin@acme.test", "password": created["admin_password"]}))
        .send()
        .expect("token")
        .json();
    let access = token["access_token"].as_str().expect("access token");
    let reply = http
        .post(format!("{}/api/v1/departments", server.base))
        .bearer(access)
        .json(&json!({"departmentName": "Legal"}))
        .send()
        .expect("create");
    assert_eq!(reply.code(), 201);
}

#[test]
fn tenant_create_with_a_given_password_does_not_print_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = SIGNET.run(
        &[
            "tenant",
            "create",
            "--name",
            "Globex",
            "--admin-email",
            "a@globex.test",
            "--admin-password",
            "long enough pw",
            "--data-dir",
            "d",
        ],
        dir.path(),
    );
    assert!(output.status.success(), "{}", stderr_line(&output));
    let created: Value = serde_json::from_slice(&output.stdout).expect("json");
    assert!(created.get("admin_password").is_none());
    assert_eq!(created["admin_email"], "a@globex.test");
    assert!(dir.path().join("d/signet.db").exists(), "--data-dir is honoured");

    let again = SIGNET
        .run(&["tenant", "create", "--name", "Other", "--admin-email", "A@GLOBEX.TEST", "--data-dir", "d"], dir.path());
    assert!(!again.status.success());
    assert!(stderr_line(&again).contains("already exists"), "{}", stderr_line(&again));
}

#[test]
fn bad_input_gives_one_readable_line_and_a_failure_exit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases: [&[&str]; 4] = [
        &["tenant", "create", "--name", "X", "--admin-email", "not-an-email"],
        &["tenant", "create", "--name", "X", "--admin-email", "a@b.test", "--admin-password", "short"],
        &["tenant", "create", "--name", "X", "--admin-email", "a@b.test", "--database-url", "mysql://x"],
        &["serve", "--config", "/nonexistent/signet.toml"],
    ];
    for args in cases {
        let output = SIGNET.run(args, dir.path());
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let line = stderr_line(&output);
        assert!(line.starts_with("signet: "), "{args:?}: {line}");
        assert_eq!(line.lines().count(), 1, "{args:?}: {line}");
        assert!(!line.contains("panicked"), "{line}");
    }
}

#[test]
fn openapi_subcommand_prints_the_committed_document() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = SIGNET.run(&["openapi"], dir.path());
    assert!(output.status.success());
    let printed: Value = serde_json::from_slice(&output.stdout).expect("json");
    let committed: Value = serde_json::from_str(include_str!("../../../openapi.json")).expect("committed openapi.json");
    assert_eq!(printed, committed);
}

#[test]
fn settings_can_come_from_files_named_by_file_variables() {
    let dir = tempfile::tempdir().expect("tempdir");
    let database = dir.path().join("from-a-secret-file.db");
    let secret = dir.path().join("database_url");
    std::fs::write(&secret, format!("sqlite://{}\n", database.display())).expect("secret file");
    let output = SIGNET
        .command()
        .arg("migrate")
        .current_dir(dir.path())
        .env_remove("SIGNET_DATA_DIR")
        .env_remove("SIGNET_DATABASE_URL")
        .env("SIGNET_DATABASE_URL_FILE", &secret)
        .output()
        .expect("migrate");
    assert!(output.status.success(), "{}", stderr_line(&output));
    assert!(database.exists(), "the database named in the file was created");

    let missing = SIGNET
        .command()
        .arg("migrate")
        .current_dir(dir.path())
        .env_remove("SIGNET_DATABASE_URL")
        .env("SIGNET_DATABASE_URL_FILE", dir.path().join("no-such-file"))
        .output()
        .expect("migrate");
    assert_eq!(missing.status.code(), Some(1));
    let line = stderr_line(&missing);
    assert!(line.starts_with("signet: ") && line.contains("SIGNET_DATABASE_URL_FILE"), "{line}");
    assert_eq!(line.lines().count(), 1, "{line}");
}
