//! `kill -9` of `signet serve` in the middle of its work, then a restart on the same data, on
//! SQLite and PostgreSQL: a gateway transaction whose sealing was cut off is either untouched
//! (the signer signs again) or complete with its kept result (delivered again), never lost or
//! half-written; and every queued job is done after the restart, none lost, and only a job that
//! was running at the moment of the kill may run a second time; a lot being signed when its
//! instance dies is finished by two instances taking over at once, each document signed once
//! and the completion announced once.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use signet_client::{PageSelection, PayloadBuilder, Profile, SignaturePosition, SignatureType, open_result};
use signet_store::{NewJob, PoolSettings, Store};
use signet_testkit::blocking::blocking_client;
use signet_testkit::gateway::{Integrator, access_token, erp_urls};
use signet_testkit::pdf::{numbered_pages, signature_png};
use signet_testkit::problem::posted_fields;
use signet_testkit::process::{Server, SignetBin};
use signet_testkit::signet_bin;
use signet_testkit::validators::pdfsig;

/// The `signet` binary under test.
const SIGNET: SignetBin = signet_bin!();

/// Short leases and polls, so that jobs of a killed process are taken over within the test.
const FAST_WORKERS: [(&str, &str); 2] = [("SIGNET_JOB_LEASE_MS", "1500"), ("SIGNET_WORKER_POLL_MS", "100")];

struct Installation {
    dir: tempfile::TempDir,
    database_url: String,
}

impl Installation {
    fn new(postgres: bool, rt: &tokio::runtime::Runtime) -> Installation {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("signet-data")).expect("data dir");
        let database_url = if postgres {
            rt.block_on(signet_testkit::db::fresh_postgres_database())
        } else {
            format!("sqlite://{}", dir.path().join("signet-data/signet.db").display())
        };
        Installation { dir, database_url }
    }

    fn serve(&self) -> Server {
        self.serve_with(&[])
    }

    fn serve_with(&self, envs: &[(&str, &str)]) -> Server {
        let envs: Vec<(&str, &str)> = FAST_WORKERS.iter().chain(envs).copied().collect();
        SIGNET.serve(&["--database-url", &self.database_url], self.dir.path(), &envs)
    }

    fn tenant(&self) -> Value {
        let output = SIGNET
            .command()
            .args(["tenant", "create", "--name", "Acme Bank", "--admin-email", "ops@acme.test"])
            .args(["--database-url", &self.database_url])
            .current_dir(self.dir.path())
            .output()
            .expect("tenant create");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice(&output.stdout).expect("json")
    }
}

async fn sign(http: &reqwest::Client, base: &str, link: &str) -> reqwest::Result<String> {
    http.post(format!("{base}{link}/sign"))
        .form(&[("mode", "typed"), ("typedName", "Asha Verma"), ("consent", "on")])
        .send()
        .await?
        .text()
        .await
}

/// An integrator of the tenant made by `signet tenant create` (its JSON output).
async fn integrator(base: &str, tenant: &Value) -> Integrator {
    let (id, secret) = (tenant["client_id"].as_str().expect("id"), tenant["client_secret"].as_str().expect("secret"));
    let token = access_token(&reqwest::Client::new(), base, id, secret).await;
    Integrator::setup(base, &token).await
}

/// Submits a PDF for a typed signature; the signer's link and the sealed request.
async fn submit(who: &Integrator, base: &str, pdf: &[u8], reference: &str) -> (String, signet_client::SealedRequest) {
    let payload = PayloadBuilder::pdf(pdf, "Asha Verma")
        .reference_number(reference)
        .authtoken(&who.authtoken)
        .signature_types(&[SignatureType::ESignature])
        .urls(&erp_urls())
        .pages(&PageSelection::All)
        .position(SignaturePosition::BottomRight)
        .font_signature(true)
        .store_to_db(true)
        .build()
        .expect("payload");
    let sealed = who.seal(Profile::Modern, &payload);
    let response = who.submit(base, &sealed).await;
    assert_eq!(response.status(), 303);
    (response.headers()["location"].to_str().expect("location").to_string(), sealed)
}

fn gateway_sealing_survives_kill_9(postgres: bool) {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let install = Installation::new(postgres, &rt);
    let mut server = install.serve();
    let tenant = install.tenant();
    let pdf = numbered_pages("Loan agreement", 3);
    let who = rt.block_on(integrator(&server.base, &tenant));
    // Kills at different moments of the signature: before, during and after sealing.
    for (round, delay_ms) in [0u64, 15, 60, 150, 400].into_iter().enumerate() {
        let reference = format!("CRASH-{round}");
        let (link, sealed) = rt.block_on(submit(&who, &server.base, &pdf, &reference));
        let number = link.split('/').nth(3).expect("transaction number").to_string();
        let (client, base, cut_link) = (who.http.clone(), server.base.clone(), link.clone());
        let cut_off = rt.spawn(async move { sign(&client, &base, &cut_link).await });
        std::thread::sleep(Duration::from_millis(delay_ms));
        server.child.kill().expect("kill -9");
        server.child.wait().expect("reaped");
        let _ = rt.block_on(cut_off);
        server = install.serve();

        // Whatever the moment, signing from the link now ends in one valid result.
        let html = rt.block_on(sign(&who.http, &server.base, &link)).expect("sign after the restart");
        let (action, fields) = posted_fields(&html);
        assert_eq!(action, "https://erp.example.test/signed", "round {round} ({delay_ms} ms): {html}");
        assert_eq!(fields["Transactionnumber"], number);
        let signed = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");
        let report = pdfsig(&signed);
        assert!(report.contains("Signature is Valid."), "round {round}: {report}");
        let signatures = signet_pdf::signatures(&signed).expect("signatures");
        assert_eq!(signatures.len(), 1, "one signature, not two: {report}");
        let status_url = format!(
            "{}/api/TransactionStatusRequest?Authtoken={}&Transactionnumber={number}&Referencenumber={reference}",
            server.base, who.authtoken
        );
        let status: Value =
            rt.block_on(async { who.http.get(&status_url).send().await.expect("status").json().await }).expect("json");
        assert_eq!(status["Value"]["Status"], "Completed", "round {round}: {status}");
    }
}

fn jobs_survive_kill_9(postgres: bool) {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let install = Installation::new(postgres, &rt);
    let mut server = install.serve();
    let store = rt.block_on(Store::connect(&install.database_url, &PoolSettings::default())).expect("store");
    let kind = signet_domain::job::JobKind::PurgeExpiredTokens;
    let ids: Vec<signet_domain::JobId> = (0..300)
        .map(|i| {
            let job =
                NewJob { tenant: None, kind, payload: json!({"n": i}), dedupe_key: None, run_at: 0, max_attempts: 5 };
            rt.block_on(store.enqueue_job(&job)).expect("enqueue").expect("id")
        })
        .collect();
    // Kill while the worker is part-way through the queue.
    let started = Instant::now();
    loop {
        let rows = rt.block_on(store.jobs_of_kind(kind)).expect("jobs");
        let done = rows.iter().filter(|r| ids.contains(&r.id) && r.state == "done").count();
        if done >= 20 || started.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    server.child.kill().expect("kill -9");
    server.child.wait().expect("reaped");
    let at_kill = rt.block_on(store.jobs_of_kind(kind)).expect("jobs");
    let done_at_kill = at_kill.iter().filter(|r| ids.contains(&r.id) && r.state == "done").count();
    assert!(done_at_kill < ids.len(), "the kill came before the queue was empty");
    let running_at_kill: Vec<signet_domain::JobId> =
        at_kill.iter().filter(|r| ids.contains(&r.id) && r.state != "done" && r.attempts > 0).map(|r| r.id).collect();

    server = install.serve();
    let deadline = Instant::now() + Duration::from_secs(120);
    let rows = loop {
        let rows = rt.block_on(store.jobs_of_kind(kind)).expect("jobs");
        let ours: Vec<_> = rows.into_iter().filter(|r| ids.contains(&r.id)).collect();
        if ours.iter().all(|r| r.state == "done") || Instant::now() > deadline {
            break ours;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    drop(server);
    assert_eq!(rows.len(), ids.len(), "no job lost");
    for row in &rows {
        assert_eq!(row.state, "done", "job {} done after the restart", row.id);
        let allowed = if running_at_kill.contains(&row.id) { 2 } else { 1 };
        assert!(
            row.attempts <= allowed,
            "job {} ran {} times (running at the kill: {allowed} allowed)",
            row.id,
            row.attempts
        );
    }
    assert!(running_at_kill.len() <= 8, "at most one claimed batch was cut off: {running_at_kill:?}");
}

/// Instances for the bulk test: items of a killed worker are claimed again after two seconds,
/// and webhooks may point at this machine.
const BULK_INSTANCE: [(&str, &str); 2] =
    [("SIGNET_BULK_ITEM_LEASE_MS", "2000"), ("SIGNET_OUTBOUND_ALLOW_PRIVATE", "true")];

fn bulk_lot_survives_kill_9(postgres: bool) {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let install = Installation::new(postgres, &rt);
    let first = install.serve_with(&BULK_INSTANCE);
    let tenant = install.tenant();
    let http = blocking_client();
    let base = first.base.clone();
    let token = |body: Value| -> String {
        let reply = http.post(format!("{base}/api/v1/auth/token")).json(&body).send().expect("token").json();
        reply["access_token"].as_str().expect("access token").to_string()
    };
    let client = token(
        json!({"grant_type": "client_credentials", "client_id": tenant["client_id"], "client_secret": tenant["client_secret"]}),
    );
    let password = tenant["admin_password"].as_str().expect("password");
    let officer = token(json!({"grant_type": "password", "username": "ops@acme.test", "password": password}));
    let webhook = http
        .post(format!("{base}/api/v1/webhooks"))
        .bearer(&client)
        .json(&json!({"url": "http://127.0.0.1:9/hooks", "eventTypes": ["bulk.completed"]}))
        .send()
        .expect("webhook")
        .json();
    let webhook_id = webhook["webhookId"].as_i64().expect("webhookId");
    let me = http.get(format!("{base}/api/v1/users/me")).bearer(&officer).send().expect("me").json();
    let pdf = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, numbered_pages("Sanction letter", 1));
    let workflows: Vec<i64> = (0..60)
        .map(|i| {
            let body = json!({"documentName": format!("letter-{i}.pdf"), "fileData": pdf,
                              "signatories": [{"emailId": "ops@acme.test", "name": "Officer"}]});
            let reply =
                http.post(format!("{base}/api/v1/workflows/initiate-and-sign")).bearer(&client).json(&body).send();
            reply.expect("initiate").json()["workflowId"].as_i64().expect("workflowId")
        })
        .collect();
    let lot = http
        .post(format!("{base}/api/v1/lots"))
        .bearer(&client)
        .json(&json!({"name": "Today", "signerUserId": me["subscriberId"], "workflowIds": workflows}))
        .send()
        .expect("lot")
        .json();
    let image = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, signature_png());
    let job = http
        .post(format!("{base}/api/v1/lots/sign"))
        .bearer(&officer)
        .json(&json!({"lotId": lot["lotId"], "signatureImage": image, "reviewerComments": "Checked"}))
        .send()
        .expect("sign lot")
        .json();
    let job_id = job["jobId"].as_str().expect("jobId").to_string();
    let status_at = |base: &str| -> Value {
        http.get(format!("{base}/api/v1/bulk-jobs/{job_id}")).bearer(&officer).send().expect("status").json()
    };

    // The instance dies part-way through the lot, with items in its hands.
    let mut first = first;
    let started = Instant::now();
    while status_at(&first.base)["succeeded"].as_i64().unwrap_or(0) < 6 && started.elapsed() < Duration::from_secs(120)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    first.child.kill().expect("kill -9");
    first.child.wait().expect("reaped");

    // Two instances take over at once.
    let (second, third) = std::thread::scope(|s| {
        let second = s.spawn(|| install.serve_with(&BULK_INSTANCE));
        let third = s.spawn(|| install.serve_with(&BULK_INSTANCE));
        (second.join().expect("second"), third.join().expect("third"))
    });
    let at_takeover = status_at(&second.base);
    let signed_before = at_takeover["succeeded"].as_i64().expect("succeeded");
    assert!(signed_before < 60, "the kill came before the lot was done: {at_takeover}");
    eprintln!("at the takeover: {at_takeover}");
    let deadline = Instant::now() + Duration::from_secs(180);
    let mut polls = 0u32;
    let done = loop {
        let status = status_at(if polls.is_multiple_of(2) { &second.base } else { &third.base });
        polls += 1;
        if status["status"] != "queued" && status["status"] != "running" || Instant::now() > deadline {
            break status;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!((done["succeeded"].as_i64(), done["failed"].as_i64()), (Some(60), Some(0)), "{done}");

    // Each document carries one signature, and its event chain one signing, whichever instance
    // made it.
    let store = rt.block_on(Store::connect(&install.database_url, &PoolSettings::default())).expect("store");
    let tenant_id = signet_domain::TenantId::from(tenant["tenant_id"].as_i64().expect("tenant_id"));
    for id in &workflows {
        let workflow = rt.block_on(store.workflow(tenant_id, (*id).into())).expect("read").expect("workflow");
        let events = rt.block_on(store.workflow_events(&workflow)).expect("events");
        let signings = events.iter().filter(|e| e.action == "signatory.signed").count();
        assert_eq!(signings, 1, "workflow {id} signed {signings} times");
    }
    let download = reqwest::Client::new();
    for (n, id) in workflows.iter().enumerate().filter(|(n, _)| n % 15 == 0) {
        let signed = rt.block_on(async {
            let reply = download
                .post(format!("{}/api/v1/documents/download", third.base))
                .bearer_auth(&client)
                .json(&json!({"workflowid": id}))
                .send()
                .await
                .expect("download");
            assert!(reply.status().is_success(), "document {n}: {}", reply.status());
            reply.bytes().await.expect("pdf").to_vec()
        });
        let report = pdfsig(&signed);
        assert!(report.contains("Signature is Valid."), "document {n}: {report}");
        assert_eq!(signet_pdf::signatures(&signed).expect("signatures").len(), 1, "document {n}: {report}");
    }

    // The completion goes to the webhook once, though three instances worked on the job.
    let deliveries = http
        .get(format!("{}/api/v1/webhooks/{webhook_id}/deliveries", second.base))
        .bearer(&client)
        .send()
        .expect("deliveries")
        .json();
    let completions: Vec<&Value> =
        deliveries.as_array().expect("list").iter().filter(|d| d["eventType"] == "bulk.completed").collect();
    assert_eq!(completions.len(), 1, "{deliveries}");
    assert_eq!(completions[0]["messageId"], format!("msg_{job_id}"));
}

#[test]
fn bulk_lot_survives_kill_9_on_sqlite() {
    bulk_lot_survives_kill_9(false);
}

#[test]
fn bulk_lot_survives_kill_9_on_postgres() {
    bulk_lot_survives_kill_9(true);
}

#[test]
fn gateway_sealing_survives_kill_9_on_sqlite() {
    gateway_sealing_survives_kill_9(false);
}

#[test]
fn gateway_sealing_survives_kill_9_on_postgres() {
    gateway_sealing_survives_kill_9(true);
}

#[test]
fn jobs_survive_kill_9_on_sqlite() {
    jobs_survive_kill_9(false);
}

#[test]
fn jobs_survive_kill_9_on_postgres() {
    jobs_survive_kill_9(true);
}
