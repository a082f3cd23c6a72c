//! `signet gateway-client` against a running `signet serve`: a whole transaction validated in
//! pdfsig, seal/open round trips, and a gateway failure as one `signet:` line.

use std::process::Command;

use base64::Engine;
use serde_json::{Value, json};
use signet_testkit::blocking::blocking_client;
use signet_testkit::pdf::one_page;
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;

/// The `signet` binary under test.
const SIGNET: SignetBin = signet_bin!();

/// A tenant and a gateway Authtoken made through the CLI and the API.
fn authtoken(base: &str, dir: &std::path::Path) -> String {
    let output = SIGNET.run(&["tenant", "create", "--name", "Acme Bank", "--admin-email", "admin@acme.test"], dir);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let created: Value = serde_json::from_slice(&output.stdout).expect("json");
    let http = blocking_client();
    let token = http
        .post(format!("{base}/api/v1/auth/token"))
        .json(&json!({"grant_type": "client_credentials", "client_id": created["client_id"], "client_secret": created["client_secret"]}))
        .send()
        .expect("token")
        .json();
    let access = token["access_token"].as_str().expect("access token").to_string();
    let reply = http
        .post(format!("{base}/api/v1/gateway/authtokens"))
        .bearer(&access)
        .json(&json!({"label": "cli"}))
        .send()
        .expect("authtoken");
    reply.json()["authtoken"].as_str().expect("authtoken").to_string()
}

fn payload(pdf: &[u8], authtoken: &str, reference: &str) -> Value {
    json!({
        "Filetype": "PDF", "File": base64::engine::general_purpose::STANDARD.encode(pdf), "ReferenceNumber": reference,
        "Name": "Asha Verma", "Authtoken": authtoken, "SignatureType": "4", "SelectPage": "ALL",
        "SignaturePosition": "Bottom-Right", "Enablefontsignature": true,
        "SUrl": "https://erp.example.test/ok", "Furl": "https://erp.example.test/fail", "Curl": "https://erp.example.test/cancel"
    })
}

fn signet(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    SIGNET.run(args, dir)
}

#[test]
fn submit_seal_and_open_through_the_cli() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = SIGNET.serve(&[], dir.path(), &[]);
    let token = authtoken(&server.base, dir.path());
    let pdf = one_page("Loan agreement");

    for (profile, reference) in [("legacy", "CLI-0001"), ("modern", "CLI-0002")] {
        let file = dir.path().join(format!("{reference}.json"));
        std::fs::write(&file, payload(&pdf, &token, reference).to_string()).expect("payload");
        let out = dir.path().join(format!("{reference}.pdf"));
        let output = signet(
            &[
                "gateway-client",
                "submit",
                "--url",
                &server.base,
                "--payload",
                file.to_str().expect("utf8"),
                "--profile",
                profile,
                "--sign-typed",
                "Asha Verma",
                "-o",
                out.to_str().expect("utf8"),
            ],
            dir.path(),
        );
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let report = Command::new("pdfsig").arg(&out).output().expect("pdfsig (poppler-utils)");
        assert!(String::from_utf8_lossy(&report.stdout).contains("Signature is Valid."), "{report:?}");

        // The same reference again: the gateway answers 108, the CLI one line and exit 1.
        let again = signet(
            &[
                "gateway-client",
                "submit",
                "--url",
                &server.base,
                "--payload",
                file.to_str().expect("utf8"),
                "--profile",
                profile,
                "--sign-typed",
                "Asha Verma",
                "-o",
                out.to_str().expect("utf8"),
            ],
            dir.path(),
        );
        assert_eq!(again.status.code(), Some(1));
        let line = String::from_utf8_lossy(&again.stderr).to_string();
        assert!(line.starts_with("signet: 108"), "{line}");
        assert_eq!(line.trim_end().lines().count(), 1, "{line}");
    }

    // seal prints the fields and keeps the session; open decrypts what that key sealed.
    let der = tokio::runtime::Runtime::new().expect("runtime").block_on(async {
        reqwest::get(format!("{}/eMsecure/certificate.cer", server.base))
            .await
            .expect("cer")
            .bytes()
            .await
            .expect("der")
    });
    let cert = dir.path().join("gateway.cer");
    std::fs::write(&cert, &der).expect("cer");
    for (profile, reference) in [("legacy", "CLI-0003"), ("modern", "CLI-0004")] {
        let file = dir.path().join("p.json");
        std::fs::write(&file, payload(&pdf, &token, reference).to_string()).expect("payload");
        let session = dir.path().join("session.json");
        let form = dir.path().join("form.html");
        let output = signet(
            &[
                "gateway-client",
                "seal",
                "--cert",
                cert.to_str().expect("utf8"),
                "--payload",
                file.to_str().expect("utf8"),
                "--profile",
                profile,
                "--session-out",
                session.to_str().expect("utf8"),
                "--out-form",
                form.to_str().expect("utf8"),
                "--gateway-url",
                "https://gw.example.test/eMsecure/V3_0/Index",
            ],
            dir.path(),
        );
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let fields: Value = serde_json::from_slice(&output.stdout).expect("fields");
        assert!(
            fields["Parameter1"].is_string() && fields["Parameter2"].is_string() && fields["Parameter3"].is_string()
        );
        assert_eq!(fields["Profile"].is_string(), profile == "modern");
        assert!(std::fs::read_to_string(&form).expect("form").contains("gw.example.test/eMsecure/V3_0/Index"));
        let saved: Value = serde_json::from_slice(&std::fs::read(&session).expect("session")).expect("json");
        let key =
            base64::engine::general_purpose::STANDARD.decode(saved["session_key"].as_str().expect("key")).expect("b64");
        let key = signet_client::SessionKey::from_slice(&key).expect("32 bytes");
        let p = if profile == "modern" { signet_client::Profile::Modern } else { signet_client::Profile::Legacy };
        let rv = base64::engine::general_purpose::STANDARD.encode(key.encrypt(p, b"%PDF-1.7 signed").expect("encrypt"));
        std::fs::write(dir.path().join("rv.txt"), &rv).expect("rv");
        let out = dir.path().join("opened.pdf");
        let opened = signet(
            &[
                "gateway-client",
                "open",
                "--session",
                session.to_str().expect("utf8"),
                "--returnvalue",
                "@rv.txt",
                "-o",
                out.to_str().expect("utf8"),
            ],
            dir.path(),
        );
        assert!(opened.status.success(), "{}", String::from_utf8_lossy(&opened.stderr));
        assert_eq!(std::fs::read(&out).expect("out"), b"%PDF-1.7 signed");
        let garbage = signet(
            &[
                "gateway-client",
                "open",
                "--session",
                session.to_str().expect("utf8"),
                "--returnvalue",
                "AAAAAAAAAAAAAAAAAAAAAA==",
                "-o",
                out.to_str().expect("utf8"),
            ],
            dir.path(),
        );
        assert_eq!(garbage.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&garbage.stderr).starts_with("signet: "));
    }
}

#[test]
fn open_reads_hash_results_and_load_runs_back_to_back_without_reference_clashes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = SIGNET.serve(&[], dir.path(), &[]);
    let token = authtoken(&server.base, dir.path());
    let pdf = one_page("Loan agreement");

    // A Hash result: open --hash writes the JSON array of {DocumentName, DocumentHash, Signature}.
    let file = dir.path().join("hash.json");
    std::fs::write(&file, payload(&pdf, &token, "CLI-HASH").to_string()).expect("payload");
    let session = dir.path().join("session.json");
    let der = tokio::runtime::Runtime::new().expect("runtime").block_on(async {
        reqwest::get(format!("{}/eMsecure/certificate.cer", server.base))
            .await
            .expect("cer")
            .bytes()
            .await
            .expect("der")
    });
    let cert = dir.path().join("gateway.cer");
    std::fs::write(&cert, &der).expect("cer");
    let sealed = signet(
        &[
            "gateway-client",
            "seal",
            "--cert",
            cert.to_str().expect("utf8"),
            "--payload",
            file.to_str().expect("utf8"),
            "--session-out",
            session.to_str().expect("utf8"),
        ],
        dir.path(),
    );
    assert!(sealed.status.success(), "seal: {}", String::from_utf8_lossy(&sealed.stderr));
    let saved: Value = serde_json::from_slice(&std::fs::read(&session).expect("session")).expect("json");
    let key =
        base64::engine::general_purpose::STANDARD.decode(saved["session_key"].as_str().expect("key")).expect("b64");
    let key = signet_client::SessionKey::from_slice(&key).expect("32 bytes");
    let signatures = json!([{"DocumentName": "a.pdf", "DocumentHash": "00".repeat(32), "Signature": "MIIB"}]);
    let rv = base64::engine::general_purpose::STANDARD
        .encode(key.encrypt(signet_client::Profile::Modern, signatures.to_string().as_bytes()).expect("encrypt"));
    let out = dir.path().join("signatures.json");
    let opened = signet(
        &[
            "gateway-client",
            "open",
            "--session",
            session.to_str().expect("utf8"),
            "--returnvalue",
            &rv,
            "--hash",
            "-o",
            out.to_str().expect("utf8"),
        ],
        dir.path(),
    );
    assert!(opened.status.success(), "{}", String::from_utf8_lossy(&opened.stderr));
    let written: Value = serde_json::from_slice(&std::fs::read(&out).expect("out")).expect("json array");
    assert_eq!(written[0]["DocumentName"], "a.pdf");
    let not_json = base64::engine::general_purpose::STANDARD
        .encode(key.encrypt(signet_client::Profile::Modern, b"%PDF-1.7 not a hash result").expect("encrypt"));
    let refused = signet(
        &[
            "gateway-client",
            "open",
            "--session",
            session.to_str().expect("utf8"),
            "--returnvalue",
            &not_json,
            "--hash",
            "-o",
            out.to_str().expect("utf8"),
        ],
        dir.path(),
    );
    assert_eq!(refused.status.code(), Some(1));

    // Two load runs in the same second: every request is accepted (no reused references).
    let template = dir.path().join("template.json");
    std::fs::write(&template, payload(&pdf, &token, "X").to_string()).expect("template");
    for full in [false, true] {
        for _ in 0..2 {
            let mut args = vec![
                "gateway-client",
                "load",
                "--url",
                &server.base,
                "--payload",
                template.to_str().expect("utf8"),
                "--concurrency",
                "4",
                "--duration",
                "20",
                "--envelopes",
                "12",
            ];
            if full {
                args.push("--full");
            }
            let output = signet(&args, dir.path());
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
            let report: Value = serde_json::from_slice(&output.stdout).expect("report");
            assert_eq!(report["ok"], 12, "{report}");
            assert_eq!(report["failed"], 0, "{report}");
            assert_eq!(report["exhausted"], true, "{report}");
        }
    }
}
