//! Hostile load (issue 31): `signet serve`, held to 1 GiB of memory, takes everything an
//! attacker without much effort can send at once, while a second tenant goes about its day.
//!
//! The attacker (tenant "Flood Bank" and anyone on the internet) sends, together and for the
//! whole measured window: file bombs at every door that unpacks or parses (an XLSX whose cells
//! copy a long shared string, a ZIP entry that inflates to a gibibyte, a 7-zip bomb and a
//! billion-laughs XML through the encrypted gateway, a PDF whose stream inflates to half a
//! gibibyte, a PDF nested a hundred thousand deep, JSON nested as deep and a body past the
//! limit), 500 concurrent password sign-ins from 500 addresses, "e-mail me a code" from many
//! addresses, a `/verify` flood, and a bulk send of 10,000 rows.
//!
//! Throughout, the quiet tenant ("Quiet Bank") reads its workflows, sends a workflow and has
//! it signed end to end, and runs a gateway transaction: none of its requests fails, no request
//! of anyone's gets a 500, the process stays up and its peak resident memory stays under the
//! cap. The quiet tenant's request latencies, p50 and p99, alone and under the flood, are
//! printed as a ratio (`docs/performance.md` records a run; nothing here asserts a time).
//!
//! The cap is a memory cgroup (v2 `memory.max`, else v1 `memory.limit_in_bytes`) when this
//! machine lets the test make one; the peak (`VmHWM`) is checked against it either way. Only
//! loopback is used: the "addresses" are `X-Forwarded-For` values from a trusted proxy.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_client::{PageSelection, PayloadBuilder, Profile, SignaturePosition, SignatureType};
use signet_testkit::gateway::{Integrator, access_token, erp_urls};
use signet_testkit::pdf::{Page, numbered_pages, reportlab_pdf};
use signet_testkit::process::{Server, SignetBin};
use signet_testkit::signet_bin;
use tokio::task::JoinSet;

const SIGNET: SignetBin = signet_bin!();
/// The memory the server may use.
const CAP_BYTES: u64 = 1024 * 1024 * 1024;
/// Rounds of the quiet tenant's day, alone and under the flood.
const ROUNDS: usize = 6;
const SIGN_INS: usize = 500;
const BULK_ROWS: usize = 10_000;

#[test]
fn the_quiet_tenant_is_served_through_a_flood_on_sqlite() {
    hostile_load(false);
}

#[test]
fn the_quiet_tenant_is_served_through_a_flood_on_postgres() {
    hostile_load(true);
}

fn hostile_load(postgres: bool) {
    // The attacker's client shares the 2 cores with the server, where a real one would bring
    // its own machine: its threads run at a lower CPU priority, so that what is measured is the
    // server's fairness, not the load generator's appetite. The quiet tenant's client has its
    // own thread, so its timings never wait behind the attacker's tasks.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .on_thread_start(|| {
            let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 10);
        })
        .enable_all()
        .build()
        .expect("runtime");
    let quiet_rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("signet-data")).expect("data dir");
    let database_url = match postgres {
        true => rt.block_on(signet_testkit::db::fresh_postgres_database()),
        false => format!("sqlite://{}", dir.path().join("signet-data/signet.db").display()),
    };
    let config = dir.path().join("signet.toml");
    std::fs::write(&config, "trusted_proxies = [\"127.0.0.1\"]\nworker_poll_ms = 100\n").expect("config");
    let config = config.display().to_string();
    let mut server = SIGNET.serve(&["--config", &config, "--database-url", &database_url], dir.path(), &[]);
    let cap = MemoryCap::apply(server.child.id());
    let quiet = tenant(dir.path(), &database_url, "Quiet Bank", "ops@quiet.test");
    let flood = tenant(dir.path(), &database_url, "Flood Bank", "ops@flood.test");
    let base = server.base.clone();

    let victim = quiet_rt.block_on(Victim::new(&base, &quiet));
    let alone = quiet_rt.block_on(victim.day("ALONE", ROUNDS));
    let stop = Arc::new(AtomicBool::new(false));
    let attack = rt.block_on(Attack::prepare(&base, &flood));
    let attackers = {
        let _inside = rt.enter();
        attack.start(stop.clone())
    };
    // Let the flood build up before the quiet tenant's day starts.
    std::thread::sleep(Duration::from_secs(2));
    let flooded = quiet_rt.block_on(victim.day("FLOOD", ROUNDS));
    stop.store(true, Ordering::SeqCst);
    let sent = rt.block_on(attackers).expect("attackers");
    assert_alive(&mut server);
    let peak = peak_resident_bytes(server.child.id());
    drop(server);
    drop(cap);

    let (p50_alone, p99_alone) = percentiles(&alone.latencies);
    let (p50_flood, p99_flood) = percentiles(&flooded.latencies);
    println!(
        "hostile load ({}): {} attacker requests ({} refused with 429/503), quiet tenant {} requests \
         alone p50 {p50_alone:?} p99 {p99_alone:?}, under the flood p50 {p50_flood:?} p99 {p99_flood:?} \
         (p99 ratio {:.2}); peak RSS {} MiB",
        if postgres { "PostgreSQL" } else { "SQLite" },
        sent.requests,
        sent.refused,
        flooded.latencies.len(),
        p99_flood.as_secs_f64() / p99_alone.as_secs_f64().max(1e-6),
        peak / (1024 * 1024),
    );
    println!("slowest alone: {:?}\nslowest under the flood: {:?}", alone.slowest, flooded.slowest);
    assert!(alone.failures.is_empty(), "the quiet tenant failed alone: {:?}", alone.failures);
    assert!(flooded.failures.is_empty(), "the quiet tenant failed under the flood: {:?}", flooded.failures);
    assert!(sent.server_errors.is_empty(), "the attacker met server errors: {:?}", sent.server_errors);
    assert!(sent.requests > SIGN_INS, "the flood ran: {} requests", sent.requests);
    assert!(peak < CAP_BYTES, "peak resident memory {} MiB, above the 1 GiB cap", peak / (1024 * 1024));
}

/// `signet tenant create` on the server's database: the tenant's JSON (its API client's keys).
fn tenant(dir: &std::path::Path, database_url: &str, name: &str, email: &str) -> Value {
    let output = SIGNET
        .command()
        .args(["tenant", "create", "--name", name, "--admin-email", email, "--database-url", database_url])
        .current_dir(dir)
        .output()
        .expect("tenant create");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("json")
}

fn assert_alive(server: &mut Server) {
    let exited = server.child.try_wait().expect("the server's state");
    assert!(exited.is_none(), "the server process is gone: {exited:?}");
}

/// The process's peak resident memory (`VmHWM`), in bytes.
fn peak_resident_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .expect("VmHWM in /proc/PID/status");
    kib * 1024
}

fn percentiles(latencies: &[Duration]) -> (Duration, Duration) {
    let mut sorted = latencies.to_vec();
    sorted.sort();
    let at = |q: f64| sorted.get(((sorted.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or_default();
    (at(0.50), at(0.99))
}

/// A memory cgroup holding the server, removed when dropped.
struct MemoryCap {
    dir: Option<PathBuf>,
}

impl MemoryCap {
    fn apply(pid: u32) -> MemoryCap {
        let name = format!("signet-hostile-load-{}", std::process::id());
        let tries = [
            (PathBuf::from("/sys/fs/cgroup").join(&name), "memory.max"),
            (PathBuf::from("/sys/fs/cgroup/memory").join(&name), "memory.limit_in_bytes"),
        ];
        for (dir, limit_file) in tries {
            let made = std::fs::create_dir(&dir)
                .and_then(|_| std::fs::write(dir.join(limit_file), CAP_BYTES.to_string()))
                .and_then(|_| std::fs::write(dir.join("cgroup.procs"), pid.to_string()));
            match made {
                Ok(()) => return MemoryCap { dir: Some(dir) },
                Err(_) => {
                    let _ = std::fs::remove_dir(&dir);
                }
            }
        }
        println!("hostile load: no memory cgroup could be made here; the peak is still held to the cap");
        MemoryCap { dir: None }
    }
}

impl Drop for MemoryCap {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// What one stretch of the quiet tenant's day measured.
#[derive(Default)]
struct Day {
    latencies: Vec<Duration>,
    failures: Vec<String>,
    /// The slowest requests, with what they were.
    slowest: Vec<(Duration, String)>,
}

impl Day {
    /// Sends `request`, timing it; a failure is noted (with `what`) unless `expected` holds.
    async fn timed(
        &mut self,
        what: &str,
        request: reqwest::RequestBuilder,
        expected: impl Fn(u16) -> bool,
    ) -> Option<(u16, String)> {
        let started = Instant::now();
        let answer = request.send().await;
        let answer = match answer {
            Ok(response) => {
                let status = response.status().as_u16();
                let location = response.headers().get("location").and_then(|l| l.to_str().ok()).map(str::to_string);
                let body = response.text().await.unwrap_or_default();
                Some((status, location.unwrap_or(body)))
            }
            Err(error) => {
                self.failures.push(format!("{what}: {error}"));
                None
            }
        };
        let took = started.elapsed();
        self.latencies.push(took);
        self.slowest.push((took, what.to_string()));
        self.slowest.sort_by_key(|(took, _)| std::cmp::Reverse(*took));
        self.slowest.truncate(5);
        match answer {
            Some((status, body)) if expected(status) => Some((status, body)),
            Some((status, body)) => {
                self.failures.push(format!("{what}: {status} {}", body.chars().take(300).collect::<String>()));
                None
            }
            None => None,
        }
    }
}

/// The quiet tenant: its API client and its gateway integrator.
struct Victim {
    base: String,
    http: reqwest::Client,
    token: String,
    integrator: Integrator,
    document: Vec<u8>,
}

impl Victim {
    async fn new(base: &str, tenant: &Value) -> Victim {
        // The quiet tenant's office, behind the same proxy as everyone.
        let mut office = reqwest::header::HeaderMap::new();
        office.insert("x-forwarded-for", reqwest::header::HeaderValue::from_static("100.64.1.1"));
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(120))
            .default_headers(office)
            .build()
            .expect("client");
        let (id, secret) =
            (tenant["client_id"].as_str().expect("id"), tenant["client_secret"].as_str().expect("secret"));
        let token = access_token(&http, base, id, secret).await;
        let integrator = Integrator::setup(base, &token).await;
        let document = numbered_pages("Quiet agreement", 2);
        Victim { base: base.to_string(), http, token, integrator, document }
    }

    fn api(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http.request(method, format!("{}{path}", self.base)).bearer_auth(&self.token)
    }

    /// `rounds` of reads, a workflow sent and signed, and a gateway transaction; `name` keeps
    /// the day's reference numbers its own.
    async fn day(&self, name: &str, rounds: usize) -> Day {
        let mut day = Day::default();
        for round in 0..rounds {
            let round = format!("{name}-{round}");
            self.reads(&mut day).await;
            self.workflow(&mut day, &round).await;
            self.gateway(&mut day, &round).await;
        }
        day
    }

    async fn reads(&self, day: &mut Day) {
        let ok = |s: u16| s == 200;
        day.timed("list workflows", self.api(reqwest::Method::GET, "/api/v1/workflows"), ok).await;
        day.timed("list roles", self.api(reqwest::Method::GET, "/api/v1/roles"), ok).await;
        day.timed("list departments", self.api(reqwest::Method::GET, "/api/v1/departments"), ok).await;
    }

    async fn workflow(&self, day: &mut Day, round: &str) {
        let upload = json!({"documentName": "Quiet.pdf", "fileData": STANDARD.encode(&self.document)});
        let uploaded =
            day.timed("upload", self.api(reqwest::Method::POST, "/api/v1/documents").json(&upload), |s| s == 201).await;
        let Some(document) = uploaded.and_then(|(_, body)| serde_json::from_str::<Value>(&body).ok()) else { return };
        let signer = format!("asha{round}@quiet.test");
        let body = json!({
            "templateId": 0,
            "workflowName": format!("Quiet loan {round}"),
            "documentIds": [document["documentId"]],
            "signatories": [{"subscriberId": 0, "emailId": signer, "name": "Asha Verma", "signingOrder": 1}],
        });
        let started =
            day.timed("send", self.api(reqwest::Method::POST, "/api/v1/workflows").json(&body), |s| s == 201).await;
        let Some(started) = started.and_then(|(_, body)| serde_json::from_str::<Value>(&body).ok()) else { return };
        let link = started["signingUrls"][0]["url"].as_str().unwrap_or_default().to_string();
        day.timed("signer page", self.http.get(&link), |s| s == 200).await;
        let form = [("mode", "typed"), ("typedName", "Asha Verma"), ("font", "handwriting"), ("consent", "on")];
        day.timed("sign", self.http.post(format!("{link}/sign")).form(&form), |s| s == 200).await;
        // Completion (sealing) runs as a job: followed until it is done, within two minutes.
        let path = format!("/api/v1/workflows/{}", started["workflowId"]);
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let read = day.timed("workflow state", self.api(reqwest::Method::GET, &path), |s| s == 200).await;
            let state =
                read.and_then(|(_, body)| serde_json::from_str::<Value>(&body).ok()).map(|v| v["state"].clone());
            if state == Some(json!("completed")) {
                break;
            }
            if Instant::now() > deadline {
                day.failures.push(format!("workflow {path} not completed within two minutes: {state:?}"));
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    async fn gateway(&self, day: &mut Day, round: &str) {
        let payload = PayloadBuilder::pdf(&self.document, "Asha Verma")
            .reference_number(&format!("QUIET-{round}"))
            .authtoken(&self.integrator.authtoken)
            .signature_types(&[SignatureType::ESignature])
            .urls(&erp_urls())
            .pages(&PageSelection::All)
            .position(SignaturePosition::BottomRight)
            .font_signature(true)
            .store_to_db(true)
            .build()
            .expect("payload");
        let sealed = self.integrator.seal(Profile::Modern, &payload);
        let form = sealed.form_fields();
        let intake = format!("{}/eMsecure/V3_0/Index", self.base);
        let submitted = day.timed("gateway submit", self.http.post(intake).form(&form), |s| s == 303).await;
        let Some((_, link)) = submitted else { return };
        let form = [("mode", "typed"), ("typedName", "Asha Verma"), ("consent", "on")];
        let signed =
            day.timed("gateway sign", self.http.post(format!("{}{link}/sign", self.base)).form(&form), |s| s == 200);
        if let Some((_, html)) = signed.await
            && !html.contains("Returnvalue")
        {
            day.failures
                .push(format!("gateway round {round}: no result posted back: {}", &html[..html.len().min(300)]));
        }
    }
}

/// What the attacker sent.
#[derive(Default)]
struct Sent {
    requests: usize,
    refused: usize,
    server_errors: Vec<String>,
}

/// The attacker's material, made before the flood starts.
struct Attack {
    base: String,
    token: String,
    integrator: Integrator,
    bombs: Vec<(String, reqwest::Method, String, Value)>,
    gateway_bombs: Vec<(&'static str, Vec<(&'static str, String)>)>,
    verify_pdf: Vec<u8>,
    bulk: Value,
}

impl Attack {
    async fn prepare(base: &str, tenant: &Value) -> Attack {
        let http = reqwest::Client::new();
        let (id, secret) =
            (tenant["client_id"].as_str().expect("id"), tenant["client_secret"].as_str().expect("secret"));
        let token = access_token(&http, base, id, secret).await;
        let integrator = Integrator::setup(base, &token).await;
        let pdf = reportlab_pdf(&[Page::text("Flood")]);
        let upload = json!({"documentName": "Flood.pdf", "fileData": STANDARD.encode(&pdf)});
        let uploaded: Value = http
            .post(format!("{base}/api/v1/documents"))
            .bearer_auth(&token)
            .json(&upload)
            .send()
            .await
            .expect("upload")
            .json()
            .await
            .expect("json");
        let document = uploaded["documentId"].clone();
        let bulk_send = |file: &[u8], dry_run: bool| json!({"documentIds": [document], "fileData": STANDARD.encode(file), "dryRun": dry_run});
        let pdf_upload = |file: &[u8]| json!({"documentName": "Bomb.pdf", "fileData": STANDARD.encode(file)});
        let post = reqwest::Method::POST;
        let bombs = vec![
            (
                "xlsx shared strings".into(),
                post.clone(),
                "/api/v1/bulk-sends".into(),
                bulk_send(&python(XLSX_BOMB), true),
            ),
            (
                "zip entry of 1 GiB".into(),
                post.clone(),
                "/api/v1/bulk-sends".into(),
                bulk_send(&python(ZIP_BOMB), true),
            ),
            (
                "pdf stream of 512 MiB".into(),
                post.clone(),
                "/api/v1/documents".into(),
                pdf_upload(&python(&format!("{PDF_WRITER}{PDF_STREAM_BOMB}"))),
            ),
            (
                "pdf nested 100k deep".into(),
                post.clone(),
                "/api/v1/documents".into(),
                pdf_upload(&python(&format!("{PDF_WRITER}{PDF_NESTING_BOMB}"))),
            ),
        ];
        let gateway_bombs = vec![
            ("7-zip of 16 MiB", integrator.seal(Profile::Modern, &seven_zip_bomb(&integrator)).form_fields()),
            ("billion laughs", integrator.seal(Profile::Modern, &xml_bomb(&integrator)).form_fields()),
        ];
        let bulk = bulk_send(&python(&BULK_CSV.replace("ROWS", &BULK_ROWS.to_string())), false);
        Attack { base: base.to_string(), token, integrator, bombs, gateway_bombs, verify_pdf: pdf, bulk }
    }

    /// Starts every attacker; the answer is what they sent once `stop` is set.
    fn start(self, stop: Arc<AtomicBool>) -> tokio::task::JoinHandle<Sent> {
        tokio::spawn(async move {
            let attack = Arc::new(self);
            let count = Arc::new(AtomicUsize::new(0));
            let mut tasks: JoinSet<Sent> = JoinSet::new();
            let bulk = attack.clone();
            tasks.spawn(async move { bulk.bulk_send().await });
            tasks.spawn(sign_in_crowd(attack.base.clone(), stop.clone()));
            for lane in 0..2 {
                let (attack, stop) = (attack.clone(), stop.clone());
                tasks.spawn(async move { attack.bombs(lane, stop).await });
            }
            for lane in 0..4 {
                let (attack, stop, count) = (attack.clone(), stop.clone(), count.clone());
                tasks.spawn(async move { attack.doors(lane, stop, count).await });
            }
            let mut sent = Sent::default();
            while let Some(done) = tasks.join_next().await {
                let done = done.expect("attacker");
                sent.requests += done.requests;
                sent.refused += done.refused;
                sent.server_errors.extend(done.server_errors);
            }
            sent
        })
    }

    async fn bulk_send(&self) -> Sent {
        let mut sent = Sent::default();
        let http = attacker_client(300);
        let request = http.post(format!("{}/api/v1/bulk-sends", self.base)).bearer_auth(&self.token).json(&self.bulk);
        note(&mut sent, "bulk send of 10,000 rows", request.send().await);
        sent
    }

    /// File bombs, one after another, at every door that unpacks or parses.
    async fn bombs(&self, lane: usize, stop: Arc<AtomicBool>) -> Sent {
        let mut sent = Sent::default();
        let http = attacker_client(300);
        let mut turn = lane;
        while !stop.load(Ordering::SeqCst) {
            match turn % (self.bombs.len() + self.gateway_bombs.len() + 2) {
                n if n < self.bombs.len() => {
                    let (what, method, path, body) = &self.bombs[n];
                    let request = http.request(method.clone(), format!("{}{path}", self.base)).bearer_auth(&self.token);
                    note(&mut sent, what, request.json(body).send().await);
                }
                n if n < self.bombs.len() + self.gateway_bombs.len() => {
                    let (what, form) = &self.gateway_bombs[n - self.bombs.len()];
                    let request = http.post(format!("{}/eMsecure/V3_0/Index", self.base)).form(form);
                    note(&mut sent, what, request.send().await);
                }
                n if n == self.bombs.len() + self.gateway_bombs.len() => {
                    let nested = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
                    let request = http
                        .post(format!("{}/api/v1/workflows", self.base))
                        .bearer_auth(&self.token)
                        .header("content-type", "application/json")
                        .body(nested);
                    note(&mut sent, "json nested 100k deep", request.send().await);
                }
                _ => {
                    let huge = format!("{{\"documentName\": \"x.pdf\", \"fileData\": \"{}\"}}", "A".repeat(80 << 20));
                    let request = http
                        .post(format!("{}/api/v1/documents", self.base))
                        .bearer_auth(&self.token)
                        .header("content-type", "application/json")
                        .body(huge);
                    // Refused at the door (413) while it is still being sent: the server may
                    // close the connection before reading the rest, which is a refusal too.
                    match request.send().await {
                        Err(error) if !error.is_timeout() => {
                            sent.requests += 1;
                            sent.refused += 1;
                        }
                        answer => note(&mut sent, "json body of 80 MiB", answer),
                    }
                }
            }
            turn += 1;
        }
        sent
    }

    /// Unauthenticated doors from ever-new addresses: e-mailed codes, `/verify`, gateway status.
    async fn doors(&self, lane: usize, stop: Arc<AtomicBool>, count: Arc<AtomicUsize>) -> Sent {
        let mut sent = Sent::default();
        let http = reqwest::Client::builder().timeout(Duration::from_secs(120)).build().expect("client");
        while !stop.load(Ordering::SeqCst) {
            let n = count.fetch_add(1, Ordering::SeqCst);
            let from = format!("198.51.{}.{}", (n / 250) % 250, n % 250 + 1);
            let request = match lane {
                0 => http
                    .post(format!("{}/api/v1/auth/check-account", self.base))
                    .json(&json!({"emailID": format!("ops@flood.test")})),
                1 => http
                    .post(format!("{}/api/v1/auth/check-account", self.base))
                    .json(&json!({"emailID": format!("stranger{n}@flood.test")})),
                2 => {
                    let file = reqwest::multipart::Part::bytes(self.verify_pdf.clone()).file_name("check.pdf");
                    http.post(format!("{}/verify", self.base))
                        .multipart(reqwest::multipart::Form::new().part("file", file))
                }
                _ => http.get(format!(
                    "{}/api/TransactionStatusRequest?Authtoken={}{n}&Transactionnumber=SGN{n}&Referencenumber=R{n}",
                    self.base, self.integrator.authtoken
                )),
            };
            note(&mut sent, "unauthenticated door", request.header("x-forwarded-for", from).send().await);
        }
        sent
    }
}

/// The flooding tenant's own client, from its own address behind the proxy.
fn attacker_client(timeout_secs: u64) -> reqwest::Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("x-forwarded-for", reqwest::header::HeaderValue::from_static("192.0.2.66"));
    let builder = reqwest::Client::builder().timeout(Duration::from_secs(timeout_secs)).default_headers(headers);
    builder.build().expect("client")
}

/// 500 password sign-ins at once, each from its own address, in waves until `stop`.
async fn sign_in_crowd(base: String, stop: Arc<AtomicBool>) -> Sent {
    let mut sent = Sent::default();
    let http = reqwest::Client::builder().timeout(Duration::from_secs(120)).build().expect("client");
    let mut wave = 0;
    while !stop.load(Ordering::SeqCst) || wave == 0 {
        let mut crowd = JoinSet::new();
        for n in 0..SIGN_INS {
            let body = json!({"grant_type": "password", "username": format!("user{n}@flood.test"), "password": "Guess-1234-x"});
            let request = http
                .post(format!("{base}/api/v1/auth/token"))
                .header("x-forwarded-for", format!("203.0.{}.{}", wave % 100, n % 250 + 1 + (n / 250)))
                .json(&body);
            crowd.spawn(async move { request.send().await });
        }
        while let Some(answer) = crowd.join_next().await {
            note(&mut sent, "password sign-in", answer.expect("join"));
        }
        wave += 1;
    }
    sent
}

/// Counts an attacker's answer: refusals are expected, server errors are not (a 503 from an
/// admission queue is a refusal).
fn note(sent: &mut Sent, what: &str, answer: reqwest::Result<reqwest::Response>) {
    sent.requests += 1;
    match answer {
        Ok(response) if response.status().as_u16() == 429 || response.status().as_u16() == 503 => sent.refused += 1,
        Ok(response) if response.status().is_server_error() => {
            sent.server_errors.push(format!("{what}: {}", response.status()));
        }
        Ok(_) => {}
        Err(error) => sent.server_errors.push(format!("{what}: {error}")),
    }
}

/// Runs a Python script (an outside writer of the hostile files) that prints a file's bytes.
fn python(script: &str) -> Vec<u8> {
    let child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    let output = child.wait_with_output().expect("python3 output");
    assert!(output.status.success(), "python3 wrote the file");
    output.stdout
}

/// 2.7 KB of XLSX whose 4,000 cells each name one 4 MiB shared string.
const XLSX_BOMB: &str = r#"
import io, sys, zipfile
shared = '<sst><si><t>' + 'x' * (4 << 20) + '</t></si></sst>'
cells = ''.join('<row r="%d"><c r="A%d" t="s"><v>0</v></c></row>' % (n, n) for n in range(2, 4002))
sheet = '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>workflowName</t></is></c></row>' + cells + '</sheetData></worksheet>'
out = io.BytesIO()
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.writestr('xl/sharedStrings.xml', shared)
    z.writestr('xl/worksheets/sheet1.xml', sheet)
sys.stdout.buffer.write(out.getvalue())
"#;

/// A ZIP (named as a workbook's sheet) whose one entry inflates to 1 GiB of zeros.
const ZIP_BOMB: &str = r#"
import io, sys, zipfile
out = io.BytesIO()
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    with z.open('xl/worksheets/sheet1.xml', 'w', force_zip64=True) as entry:
        chunk = b'\0' * (1 << 20)
        for _ in range(1024):
            entry.write(chunk)
sys.stdout.buffer.write(out.getvalue())
"#;

/// Defines `write_pdf(objects)` for the PDF bombs: writes objects 1.. (object 1 the catalog)
/// with a classic cross-reference table to standard output.
const PDF_WRITER: &str = r#"
import sys
def write_pdf(objects):
    out = bytearray(b'%PDF-1.7\n')
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b'%d 0 obj\n' % i + body + b'\nendobj\n'
    xref = len(out)
    out += b'xref\n0 %d\n0000000000 65535 f \n' % (len(objects) + 1)
    for o in offsets:
        out += b'%010d 00000 n \n' % o
    out += b'trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n' % (len(objects) + 1, xref)
    sys.stdout.buffer.write(bytes(out))
"#;

/// A one-page PDF whose content stream inflates to 512 MiB (after [`PDF_WRITER`]).
const PDF_STREAM_BOMB: &str = r#"
import sys, zlib
z = zlib.compressobj(9)
chunk = b' ' * (1 << 20)
data = b''.join(z.compress(chunk) for _ in range(512)) + z.flush()
objects = [
    b'<< /Type /Catalog /Pages 2 0 R >>',
    b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    b'<< /Length %d /Filter /FlateDecode >>\nstream\n' % len(data) + data + b'\nendstream',
]
write_pdf(objects)
"#;

/// A one-page PDF whose page dictionary holds an array nested 100,000 deep (after [`PDF_WRITER`]).
const PDF_NESTING_BOMB: &str = r#"
import sys
deep = b'[' * 100000 + b']' * 100000
objects = [
    b'<< /Type /Catalog /Pages 2 0 R >>',
    b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Deep ' + deep + b' >>',
]
write_pdf(objects)
"#;

/// A CSV of ROWS customers to send a workflow each.
const BULK_CSV: &str = r#"
import csv, io, sys
out = io.StringIO()
w = csv.writer(out)
w.writerow(['workflowName', 'signer1.email', 'signer1.name'])
for i in range(1, ROWS + 1):
    w.writerow(['Flood %d' % i, 'victim%d@flood.test' % i, 'Victim %d' % i])
sys.stdout.write(out.getvalue())
"#;

/// A gateway request whose `File` is a 7-zip archive of 16 MiB of zeros (a ratio of thousands) (the client's own
/// check would refuse to build it, so the archive replaces a small one's after building).
fn seven_zip_bomb(integrator: &Integrator) -> Vec<u8> {
    let archive = |len: usize| {
        let mut writer = sevenz_rust2::ArchiveWriter::new(std::io::Cursor::new(Vec::new())).expect("7z writer");
        let zeros = ZeroReader { left: len, head: b"%PDF-1.7\n" };
        writer.push_archive_entry(sevenz_rust2::ArchiveEntry::new_file("Loan.pdf"), Some(zeros)).expect("7z entry");
        writer.finish().expect("7z").into_inner()
    };
    let small = gateway_payload(
        integrator,
        SignatureType::ESignature,
        PayloadBuilder::pdf(b"%PDF-1.7", "Asha Verma").compressed_file(&archive(64)),
    );
    let mut payload: Value = serde_json::from_slice(&small).expect("payload");
    payload["File"] = json!(STANDARD.encode(archive(16 << 20)));
    serde_json::to_vec(&payload).expect("json")
}

/// A gateway request for an XML signature over a billion-laughs document.
fn xml_bomb(integrator: &Integrator) -> Vec<u8> {
    let mut xml = Vec::new();
    writeln!(xml, "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">").expect("write");
    for level in 1..10 {
        let previous = if level == 1 { "lol".to_string() } else { format!("lol{}", level - 1) };
        writeln!(xml, "<!ENTITY lol{level} \"{}\">", format!("&{previous};").repeat(10)).expect("write");
    }
    writeln!(xml, "]>\n<lolz>&lol9;</lolz>").expect("write");
    gateway_payload(integrator, SignatureType::DigitalSignature, PayloadBuilder::xml(&xml))
}

/// A request to sign with `kind` (XML is signed with a token, not with a drawn signature).
fn gateway_payload(integrator: &Integrator, kind: SignatureType, builder: PayloadBuilder) -> Vec<u8> {
    builder
        .reference_number("FLOOD")
        .authtoken(&integrator.authtoken)
        .signature_types(&[kind])
        .urls(&erp_urls())
        .font_signature(true)
        .build()
        .expect("payload")
}

/// `head`, then zero bytes up to `left` in all, without holding them.
struct ZeroReader {
    left: usize,
    head: &'static [u8],
}

impl std::io::Read for ZeroReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.left);
        let from_head = self.head.len().min(n);
        buf[..from_head].copy_from_slice(&self.head[..from_head]);
        buf[from_head..n].fill(0);
        self.head = &self.head[from_head..];
        self.left -= n;
        Ok(n)
    }
}
