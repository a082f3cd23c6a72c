//! Budgets (issue 31): no request, file or crowd can exhaust Signet. Each test first sends
//! what the attacker sent, on both backends: a tiny XLSX whose cells copy a long
//! shared string, password sign-ins beyond what the hashing admission holds, a flood of
//! sign-in and verification pages from one address, "e-mail me a code" aimed at one account,
//! status queries probing Authtokens, and an outbound URL that names an internal host.

use std::net::IpAddr;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::{Page, reportlab_pdf};
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn_with};

on_both_backends!(
    a_tiny_workbook_that_copies_a_long_shared_string_is_refused_and_nothing_is_sent,
    password_checks_beyond_the_admission_are_refused_at_once_alike_for_every_address,
    the_sign_in_and_verify_pages_count_each_address_with_the_api,
    e_mailed_codes_are_limited_per_requester_and_per_target_account,
    e_mailed_codes_are_limited_for_everyone_together,
    gateway_status_queries_are_limited_per_address,
    an_outbound_url_refusal_names_the_rule_not_the_address,
);

const PASSWORD: &str = "correct horse battery";

fn local() -> Vec<IpAddr> {
    vec![IpAddr::from([127, 0, 0, 1])]
}

/// A workbook made by Python's zipfile: a header (`workflowName`, `signer1.email`) and `rows`
/// rows whose `workflowName` cell names a shared string of `chars` characters.
fn workbook(chars: usize, rows: usize) -> String {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("bomb.xlsx");
    let script = format!(
        "import zipfile\n\
         shared = '<sst><si><t>' + 'x' * {chars} + '</t></si></sst>'\n\
         cells = ''.join('<row r=\"%d\"><c r=\"A%d\" t=\"s\"><v>0</v></c><c r=\"B%d\" t=\"inlineStr\"><is><t>s%d@home.test</t></is></c></row>' % (n, n, n, n) for n in range(2, {rows} + 2))\n\
         sheet = '<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>workflowName</t></is></c><c r=\"B1\" t=\"inlineStr\"><is><t>signer1.email</t></is></c></row>' + cells + '</sheetData></worksheet>'\n\
         with zipfile.ZipFile({path:?}, 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:\n    z.writestr('xl/sharedStrings.xml', shared)\n    z.writestr('xl/worksheets/sheet1.xml', sheet)\n",
        path = path.display().to_string()
    );
    let status = std::process::Command::new("python3").args(["-c", &script]).status().expect("python3");
    assert!(status.success(), "python3 writes the workbook");
    let bytes = std::fs::read(path).expect("xlsx");
    assert!(bytes.len() < 16 * 1024, "a few kilobytes: {}", bytes.len());
    STANDARD.encode(bytes)
}

/// Item 1: each cell naming a shared string cloned it, with no bound on its length nor on the
/// copies: 2 KB here became 64 MiB of cells (the 13.5 KB became 17 GB).
async fn a_tiny_workbook_that_copies_a_long_shared_string_is_refused_and_nothing_is_sent(backend: Backend) {
    let app = spawn_with(backend, |config| config.sheet_max_text_bytes = 256 * 1024).await;
    let tenant = app.tenant("Sheets").await;
    let token = app.token(&tenant).await;
    let upload =
        json!({"documentName": "Lease.pdf", "fileData": STANDARD.encode(reportlab_pdf(&[Page::text("Lease")]))});
    let uploaded: Value = app.post("/api/v1/documents", &token, upload).await.json().await.expect("json");
    let document = uploaded["documentId"].clone();
    // A 1 MiB shared string in 64 cells; and 400 characters (within a cell's 500) in 1000
    // cells, 400 KB of copies against a budget of 256 KiB.
    for (file, refusal) in [
        (workbook(1024 * 1024, 64), "a cell is longer than 500 characters"),
        (workbook(400, 1000), "the workbook holds more than 256 KiB of text once read"),
    ] {
        for dry_run in [true, false] {
            let body = json!({"documentIds": [document], "fileData": file, "dryRun": dry_run});
            let refused = app.post("/api/v1/bulk-sends", &token, body).await;
            let problem = expect_problem(refused, 400, "validation_failed").await;
            assert_eq!(problem["errors"]["fileData"][0], refusal, "{problem}");
        }
    }
    let workflows: Value = app.get("/api/v1/workflows", &token).await.json().await.expect("json");
    assert_eq!(workflows["totalCount"], 0, "nothing was sent: {workflows}");
    // Within the budget the same shape is read.
    let body = json!({"documentIds": [document], "fileData": workbook(20, 3), "dryRun": true});
    let checked: Value = app.post("/api/v1/bulk-sends", &token, body).await.json().await.expect("json");
    assert_eq!(checked["rows"], 3, "{checked}");
}

async fn password_grant(app: &TestApp, from: &str, email: &str) -> reqwest::Response {
    let body = json!({"grant_type": "password", "username": email, "password": "Not-The-Password-1"});
    let request = app.client.post(app.url("/api/v1/auth/token")).header("x-forwarded-for", from).json(&body);
    request.send().await.expect("token")
}

/// Item 2: every password check ran argon2id (19 MiB) on the blocking pool with no bound on
/// how many at once. Here the one running check is held by the test and the queue is empty,
/// so the next sign-in, of a known or an unknown address, is refused at once (429,
/// `Retry-After`) on the API and on the sign-in page.
async fn password_checks_beyond_the_admission_are_refused_at_once_alike_for_every_address(backend: Backend) {
    let app = spawn_with(backend, |config| {
        config.password_hashing_limit = 1;
        config.password_hashing_queue = 0;
        config.trusted_proxies = local();
    })
    .await;
    let tenant = app.tenant("Hashing").await;
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (started_tx, started) = tokio::sync::oneshot::channel();
    let doors = app.state.services.doors.clone();
    let holder = tokio::spawn(async move {
        doors
            .passwords
            .run(move || {
                let _ = started_tx.send(());
                let _ = held.recv();
            })
            .await
    });
    started.await.expect("the held check runs");

    let mut answers = Vec::new();
    for (n, email) in [tenant.admin_email.as_str(), "nobody@hashing.test"].into_iter().enumerate() {
        let refused = password_grant(&app, &format!("203.0.113.{n}"), email).await;
        assert_eq!(refused.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"));
        let mut problem = expect_problem(refused, 429, "rate_limited").await;
        problem.as_object_mut().expect("problem").remove("requestId");
        answers.push(problem);
    }
    assert_eq!(answers[0], answers[1], "a known and an unknown address read alike");
    let (status, page) = sign_in_page(&app, "198.51.100.1", "password", &tenant.admin_email).await;
    assert_eq!(status, 429, "{page}");
    assert!(page.contains("Too many tries"), "{page}");

    release.send(()).expect("release");
    assert!(holder.await.expect("join").is_ok());
    let body = json!({"grant_type": "password", "username": tenant.admin_email, "password": PASSWORD});
    let signed_in = app.client.post(app.url("/api/v1/auth/token")).json(&body).send().await.expect("token");
    assert_eq!(signed_in.status(), 200, "admitted again once the check is done");
}

/// The sign-in page's form from `from`, one step (`action`) for `email`: status and page.
async fn sign_in_page(app: &TestApp, from: &str, action: &str, email: &str) -> (u16, String) {
    let fields = [("action", action), ("email", email), ("password", "Not-The-Password-1")];
    signet_testkit::people::post_sign_in_page(app, Some(from), &fields).await
}

async fn verify_page(app: &TestApp, from: &str) -> reqwest::Response {
    let file = reqwest::multipart::Part::bytes(b"%PDF-1.4 not really".to_vec()).file_name("a.pdf");
    let form = reqwest::multipart::Form::new().part("file", file);
    app.client.post(app.url("/verify")).header("x-forwarded-for", from).multipart(form).send().await.expect("verify")
}

/// Items 2 and 4: the sign-in page and the `/verify` page had no per-address limit while the
/// API's doors had one; now they count against the same allowance per address.
async fn the_sign_in_and_verify_pages_count_each_address_with_the_api(backend: Backend) {
    let app = spawn_with(backend, |config| {
        config.auth_rate_limit_per_minute = 3;
        config.trusted_proxies = local();
    })
    .await;
    let flooder = "203.0.113.7";
    for _ in 0..3 {
        assert_eq!(sign_in_page(&app, flooder, "continue", "someone@home.test").await.0, 200);
    }
    let (status, page) = sign_in_page(&app, flooder, "continue", "someone@home.test").await;
    assert_eq!(status, 429, "{page}");
    assert!(page.contains("Too many tries from your network"), "{page}");
    let refused = verify_page(&app, flooder).await;
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    assert!(refused.text().await.expect("html").contains("Too many checks"));
    // The API's door counts the same address as spent; another address is untouched.
    expect_problem(password_grant(&app, flooder, "someone@home.test").await, 429, "rate_limited").await;
    assert_ne!(verify_page(&app, "203.0.113.8").await.status(), 429, "another address is checked");
}

async fn ask_for_code(app: &TestApp, from: &str, email: &str) -> reqwest::Response {
    let request = app.client.post(app.url("/api/v1/auth/check-account")).header("x-forwarded-for", from);
    request.json(&json!({"emailID": email})).send().await.expect("check-account")
}

/// Item 3: every "e-mail me a code" queued a mail to the target (25 asks, 25 mails). Now an
/// account gets a few per hour whoever asks (the answer unchanged, so it tells nothing), and
/// an address may ask a few times per hour.
async fn e_mailed_codes_are_limited_per_requester_and_per_target_account(backend: Backend) {
    let app = spawn_with(backend, |config| {
        config.mail_codes_per_account_per_hour = 2;
        config.mail_codes_per_address_per_hour = 3;
        config.trusted_proxies = local();
    })
    .await;
    let tenant = app.tenant("Mailbox").await;
    let mut answers = Vec::new();
    for n in 1..=5 {
        let asked = ask_for_code(&app, &format!("203.0.113.{n}"), &tenant.admin_email).await;
        assert_eq!(asked.status(), 202);
        answers.push(asked.text().await.expect("answer"));
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "the same answer past the account's share: {answers:?}");
    let queued = app.store.jobs_of_kind(signet_domain::job::JobKind::CheckAccount).await.expect("jobs");
    assert_eq!(queued.len(), 2, "two mails for the account in the hour, not five");

    // One address asking for many accounts: its share, then 429 with Retry-After.
    let flooder = "198.51.100.9";
    for n in 0..3 {
        assert_eq!(ask_for_code(&app, flooder, &format!("person{n}@home.test")).await.status(), 202);
    }
    let refused = ask_for_code(&app, flooder, "person9@home.test").await;
    assert!(refused.headers().contains_key("retry-after"));
    expect_problem(refused, 429, "rate_limited").await;
    // The sign-in page's "E-mail me a code" counts the same.
    let (status, page) = sign_in_page(&app, flooder, "send-code", "person10@home.test").await;
    assert_eq!(status, 429, "{page}");
}

/// A crowd of addresses, each within its own share, asking for codes: every ask was two
/// counts written and a job queued. The instance takes `mail_codes_per_minute` asks from
/// everyone together, then refuses before anything is written.
async fn e_mailed_codes_are_limited_for_everyone_together(backend: Backend) {
    let app = spawn_with(backend, |config| {
        config.mail_codes_per_minute = 4;
        config.trusted_proxies = local();
    })
    .await;
    for n in 1..=4 {
        let asked = ask_for_code(&app, &format!("203.0.113.{n}"), &format!("person{n}@home.test")).await;
        assert_eq!(asked.status(), 202);
    }
    let refused = ask_for_code(&app, "203.0.113.99", "person99@home.test").await;
    assert!(refused.headers().contains_key("retry-after"));
    expect_problem(refused, 429, "rate_limited").await;
    let queued = app.store.jobs_of_kind(signet_domain::job::JobKind::CheckAccount).await.expect("jobs");
    assert_eq!(queued.len(), 4, "nothing queued past everyone's share");
}

/// Item 5: the gateway status query answered every guess at an Authtoken, unlimited.
async fn gateway_status_queries_are_limited_per_address(backend: Backend) {
    let app = spawn_with(backend, |config| {
        config.gateway_status_per_minute = 2;
        config.trusted_proxies = local();
    })
    .await;
    let query = |from: &'static str| {
        let url = app.url("/api/TransactionStatusRequest?Authtoken=guess&Transactionnumber=SGN1&Referencenumber=R1");
        app.client.get(url).header("x-forwarded-for", from).send()
    };
    for _ in 0..2 {
        let answer: Value = query("203.0.113.5").await.expect("status").json().await.expect("json");
        assert_eq!(answer["Messages"][0], "104: Invalid Authtoken", "{answer}");
    }
    let refused = query("203.0.113.5").await.expect("status");
    assert!(refused.headers().contains_key("retry-after"));
    expect_problem(refused, 429, "rate_limited").await;
    assert_eq!(query("203.0.113.6").await.expect("status").status(), 200, "another address is answered");
}

/// Item 6: a refused outbound URL told the caller the internal address its host resolves to.
async fn an_outbound_url_refusal_names_the_rule_not_the_address(backend: Backend) {
    let app = spawn_with(backend, |config| config.outbound_allow_private = false).await;
    let tenant = app.tenant("Hooks").await;
    let token = app.token(&tenant).await;
    let refused =
        app.post("/api/v1/webhooks", &token, json!({"url": "http://localhost:9/hooks", "eventTypes": ["*"]})).await;
    let problem = expect_problem(refused, 400, "validation_failed").await;
    let said = problem["errors"]["url"][0].as_str().expect("message").to_string();
    assert!(said.contains("not a public address"), "the rule: {said}");
    for internal in ["127.0.0.1", "::1"] {
        assert!(!problem.to_string().contains(internal), "no resolved address: {problem}");
    }
}
