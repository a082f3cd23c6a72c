//! Long work on the command line: `signet lot sign` signs a lot through the API as its signer
//! and follows the job with a progress bar; `signet sign pdf` over many files shows one too;
//! neither draws a bar when stderr is not a terminal, and refusals are one readable line.

use std::path::Path;

use serde_json::{Value, json};
use signet_testkit::blocking::blocking_client;
use signet_testkit::pdf::{one_page, signature_png};
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;

const SIGNET: SignetBin = signet_bin!();

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

#[test]
fn lot_sign_follows_the_job_with_a_bar_and_sign_pdf_shows_one_for_many_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = SIGNET.serve(&[], dir.path(), &[]);
    let output =
        SIGNET.run(&["tenant", "create", "--name", "Lender", "--admin-email", "officer@lender.test"], dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    let tenant: Value = serde_json::from_slice(&output.stdout).expect("json");
    let http = blocking_client();
    let token = |body: Value| -> String {
        let reply = http.post(format!("{}/api/v1/auth/token", server.base)).json(&body).send().expect("token");
        reply.json()["access_token"].as_str().expect("access token").to_string()
    };
    let client = token(
        json!({"grant_type": "client_credentials", "client_id": tenant["client_id"], "client_secret": tenant["client_secret"]}),
    );
    let password = tenant["admin_password"].as_str().expect("password").to_string();
    let officer = token(json!({"grant_type": "password", "username": "officer@lender.test", "password": password}));
    let me = http.get(format!("{}/api/v1/users/me", server.base)).bearer(&officer).send().expect("me").json();
    let pdf = base64_of(&one_page("Sanction letter"));
    let workflows: Vec<i64> = (0..5)
        .map(|i| {
            let body = json!({"documentName": format!("letter-{i}.pdf"), "fileData": pdf,
                              "signatories": [{"emailId": "officer@lender.test", "name": "Officer"}]});
            let reply = http
                .post(format!("{}/api/v1/workflows/initiate-and-sign", server.base))
                .bearer(&client)
                .json(&body)
                .send();
            reply.expect("initiate").json()["workflowId"].as_i64().expect("workflowId")
        })
        .collect();
    let lot = http
        .post(format!("{}/api/v1/lots", server.base))
        .bearer(&client)
        .json(&json!({"name": "Today", "signerUserId": me["subscriberId"], "workflowIds": workflows}))
        .send()
        .expect("lot")
        .json();
    let lot_id = lot["lotId"].as_i64().expect("lotId").to_string();
    std::fs::write(dir.path().join("signature.png"), signature_png()).expect("png");

    // A wrong password: one line, nothing signed.
    let refused = SIGNET
        .command()
        .args(["lot", "sign", "--url", &server.base, "--username", "officer@lender.test", "--lot", &lot_id])
        .args(["--image", "signature.png"])
        .env("SIGNET_PASSWORD", "wrong")
        .current_dir(dir.path())
        .output()
        .expect("run");
    assert!(!refused.status.success());
    assert_eq!(stderr(&refused).lines().count(), 1, "{}", stderr(&refused));
    assert!(stderr(&refused).starts_with("signet: signing in: the server answered 400"), "{}", stderr(&refused));

    let signed = SIGNET
        .command()
        .args(["lot", "sign", "--url", &server.base, "--username", "officer@lender.test", "--lot", &lot_id])
        .args(["--image", "signature.png", "--comments", "Checked"])
        .env("SIGNET_PASSWORD", &password)
        .env("SIGNET_PROGRESS", "1")
        .current_dir(dir.path())
        .output()
        .expect("run");
    assert!(signed.status.success(), "{}", stderr(&signed));
    let out = String::from_utf8_lossy(&signed.stdout);
    assert!(out.contains(&format!("lot {lot_id}: 5 of 5 workflows signed, 0 failed, status completed")), "{out}");
    assert!(stderr(&signed).contains(&format!("[{}] 5/5 workflows", "#".repeat(30))), "{}", stderr(&signed));

    // Many files: a bar with SIGNET_PROGRESS=1, none when stderr is a pipe.
    let ca = SIGNET.run(&["ca", "init", "ca", "--password", "pw"], dir.path());
    assert!(ca.status.success(), "{}", stderr(&ca));
    let inputs: Vec<String> = (0..4).map(|i| write_pdf(dir.path(), &format!("in-{i}.pdf"))).collect();
    for (progress, bar) in [("1", true), ("", false)] {
        let mut command = SIGNET.command();
        command.args(["sign", "pdf", "--out-dir", "out", "--p12", "ca/signer.p12", "--password", "pw"]);
        command.args(&inputs).current_dir(dir.path());
        if !progress.is_empty() {
            command.env("SIGNET_PROGRESS", progress);
        } else {
            command.env_remove("SIGNET_PROGRESS");
        }
        let output = command.output().expect("sign pdf");
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(stderr(&output).contains("4/4 files"), bar, "{}", stderr(&output));
    }
}

fn write_pdf(dir: &Path, name: &str) -> String {
    std::fs::write(dir.join(name), one_page(name)).expect("write");
    name.to_string()
}

fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
