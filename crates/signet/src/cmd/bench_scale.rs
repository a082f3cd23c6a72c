//! Issue 38, item 1: a large lender's data. `signet bench seed` fills a database (SQLite or
//! PostgreSQL, as `serve` is configured) with one large organisation and many small ones
//! through the store's bulk seeder (`signet_store::bench_seed`); `signet bench lists` measures,
//! against a running server on that database, the workflow list (each filter, the search, deep
//! pages), the audit trail's pages, the chain's verification beside `sha256sum` over the same
//! bytes, and an export of every workflow. `scripts/bench-scale.sh` runs both on both backends.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use clap::Args;
use serde_json::{Value, json};
use signet_domain::audit::Actor;
use signet_server::provision;
use signet_store::bench_seed::SeedPlan;

use super::serve::ConfigArgs;

#[derive(Args, Debug)]
pub struct BenchSeedArgs {
    /// Workflows of the large organisation.
    #[arg(long, default_value_t = 1_000_000)]
    pub workflows: u64,
    /// Entries of the organisation's audit log per workflow.
    #[arg(long, default_value_t = 10)]
    pub events_per_workflow: u32,
    /// Small organisations beside the large one.
    #[arg(long, default_value_t = 99)]
    pub small_orgs: u32,
    /// Workflows of each small organisation.
    #[arg(long, default_value_t = 100)]
    pub small_org_workflows: u64,
    /// Years the workflows are spread over, ending now.
    #[arg(long, default_value_t = 5)]
    pub years: u32,
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Seeds; prints one JSON object (the large organisation's API credentials, what was
/// inserted, how fast, and the database's size per workflow).
pub fn seed(args: BenchSeedArgs) -> anyhow::Result<()> {
    let config = args.config.load(None, None)?;
    let blob = signet_blob::BlobStore::from_url(&config.blob_url(), &config.data_dir)?;
    super::runtime()?.block_on(async move {
        let store = signet_server::app::open_store(&config).await?;
        let actor = Actor { id: "cli".into(), ip: None };
        let suffix = std::process::id();
        let big =
            provision::create_tenant(&store, "Large Lender", &format!("admin-{suffix}@lender.example"), None, &actor)
                .await
                .map_err(|e| anyhow!("{e}"))?;
        // One small PDF that every seeded document names: writing a million files would
        // dominate the run and measure the file system, not the database.
        let mut pdf = Vec::new();
        super::bench_inputs::write_pdf(&mut pdf, "Loan agreement", 0)?;
        let key = signet_blob::BlobKey::new(["bench-seed", "agreement.pdf"])?;
        let sha256 = hex::encode(signet_sigcrypto::pki::sha256(&pdf));
        let size = pdf.len() as i64;
        blob.put(&key, bytes::Bytes::from(pdf)).await?;
        let plan = |workflows: u64, seed: u64, sender: String| SeedPlan {
            workflows,
            audit_per_workflow: args.events_per_workflow,
            blob_key: key.to_string(),
            blob_sha256: sha256.clone(),
            blob_size: size,
            sender,
            now: signet_domain::now_millis(),
            years: args.years,
            seed,
        };
        let started = Instant::now();
        let mut last_report = Instant::now();
        let large = store
            .bench_seed_workflows(
                big.tenant_id,
                &plan(args.workflows, 38, format!("user:{}", big.admin_user_id)),
                |n| {
                    if last_report.elapsed() > Duration::from_secs(10) {
                        last_report = Instant::now();
                        eprintln!("seeded {n} workflows in {:.0} s", started.elapsed().as_secs_f64());
                    }
                },
            )
            .await
            .map_err(|e| anyhow!("{e}"))?;
        let large_seconds = started.elapsed().as_secs_f64();
        let mut small_workflows = 0;
        for n in 0..args.small_orgs {
            let small = provision::create_tenant(
                &store,
                &format!("Small Lender {}", n + 1),
                &format!("admin-{suffix}-{n}@small{n}.example"),
                None,
                &actor,
            )
            .await
            .map_err(|e| anyhow!("{e}"))?;
            let seeded = store
                .bench_seed_workflows(
                    small.tenant_id,
                    &plan(args.small_org_workflows, u64::from(n), format!("user:{}", small.admin_user_id)),
                    |_| {},
                )
                .await
                .map_err(|e| anyhow!("{e}"))?;
            small_workflows += seeded.workflows;
        }
        let seconds = started.elapsed().as_secs_f64();
        let size = store.bench_database_size().await.map_err(|e| anyhow!("{e}"))?;
        store.close().await;
        let total_workflows = large.workflows + small_workflows;
        let rows = large.workflows + large.documents + large.signatories + large.workflow_events + large.audit_events;
        println!(
            "{}",
            json!({
                "tenant_id": big.tenant_id,
                "client_id": big.client_id,
                "client_secret": big.client_secret,
                "workflows": large.workflows,
                "documents": large.documents,
                "signatories": large.signatories,
                "workflow_events": large.workflow_events,
                "audit_events": large.audit_events,
                "small_orgs": args.small_orgs,
                "small_org_workflows": small_workflows,
                "large_seconds": (large_seconds * 10.0).round() / 10.0,
                "large_workflows_per_s": (large.workflows as f64 / large_seconds).round(),
                "large_rows_per_s": (rows as f64 / large_seconds).round(),
                "seconds": (seconds * 10.0).round() / 10.0,
                "database_bytes": size,
                "bytes_per_workflow": size / (total_workflows.max(1) as i64),
            })
        );
        Ok(())
    })
}

#[derive(Args, Debug)]
pub struct BenchListsArgs {
    /// The server's base URL, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    pub url: String,
    /// API credentials of the seeded organisation (`signet bench seed` prints them).
    #[arg(long, env = "SIGNET_BENCH_CLIENT_ID")]
    pub client_id: String,
    #[arg(long, env = "SIGNET_BENCH_CLIENT_SECRET")]
    pub client_secret: String,
    /// Requests per measured case.
    #[arg(long, default_value_t = 200)]
    pub requests: usize,
    /// Also export every workflow (an export job) and report rows/s.
    #[arg(long)]
    pub export: bool,
}

struct Api {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Api {
    async fn get(&self, path: &str) -> anyhow::Result<Value> {
        let response = self.http.get(format!("{}{path}", self.base)).bearer_auth(&self.token).send().await?;
        if !response.status().is_success() {
            let status = response.status();
            bail!("{path} answered {status}: {}", response.text().await.unwrap_or_default());
        }
        Ok(response.json().await?)
    }
}

/// p50 and p99 in milliseconds.
fn percentiles(mut ms: Vec<f64>) -> (f64, f64) {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[(((ms.len() as f64) * q).ceil() as usize).clamp(1, ms.len()) - 1];
    (at(0.50), at(0.99))
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Measures `paths` in turn, `requests` times over, and prints one line.
async fn measure(api: &Api, label: &str, paths: &[String], requests: usize) -> anyhow::Result<Value> {
    let mut times = Vec::with_capacity(requests);
    let mut total = None;
    for r in 0..requests {
        let path = &paths[r % paths.len()];
        let started = Instant::now();
        let body = api.get(path).await?;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        total = total.or_else(|| body.get("totalCount").cloned());
    }
    let (p50, p99) = percentiles(times);
    let line =
        json!({"case": label, "p50_ms": round2(p50), "p99_ms": round2(p99), "requests": requests, "total": total});
    println!("{line}");
    Ok(line)
}

/// Runs the measurements; one JSON line each.
pub fn lists(args: BenchListsArgs) -> anyhow::Result<()> {
    super::runtime()?.block_on(async move {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(600)).build()?;
        let base = args.url.trim_end_matches('/').to_string();
        let body = json!({"grant_type": "client_credentials", "client_id": args.client_id, "client_secret": args.client_secret});
        let token: Value = http.post(format!("{base}/api/v1/auth/token")).json(&body).send().await?.json().await?;
        let token = token["access_token"].as_str().ok_or_else(|| anyhow!("no access_token"))?.to_string();
        let api = Api { http, base, token };
        let n = args.requests;
        let list = |q: &str| format!("/api/v1/workflows?pageSize=20{q}");
        // Names, references and addresses the seeder writes (bench_seed.rs).
        let cases: Vec<(&str, Vec<String>)> = vec![
            ("list newest", vec![list("")]),
            ("list page 2..50", (2..=50).map(|p| list(&format!("&pageNumber={p}"))).collect()),
            ("list page 5000", vec![list("&pageNumber=5000")]),
            ("state in_progress", vec![list("&state=in_progress")]),
            ("state completed", vec![list("&state=completed")]),
            ("state declined", vec![list("&state=declined")]),
            ("state expired", vec![list("&state=expired")]),
            ("state inactive", vec![list("&state=inactive")]),
            ("search title", vec![list("&searchText=Gold%20loan"), list("&searchText=Vehicle")]),
            ("search reference", vec![list("&searchText=HL%2F2024%2F00"), list("&searchText=PL%2F2023%2F0001")]),
            ("search signer name", vec![list("&searchText=Meena%20Iyer"), list("&searchText=Tenzin%20Kaur")]),
            ("search signer e-mail", vec![list("&searchText=ravi.nair7"), list("&searchText=farah.khan12@example.in")]),
            ("search absent", vec![list("&searchText=zzzz-not-there")]),
        ];
        for (label, paths) in &cases {
            // The slow ones get fewer requests: a full scan answers in seconds on a large table.
            let started = Instant::now();
            api.get(&paths[0]).await?;
            let requests = if started.elapsed() > Duration::from_millis(200) { n.min(10) } else { n };
            measure(&api, label, paths, requests).await?;
        }
        // The audit trail in pages of 100, across the whole log.
        let started = Instant::now();
        let verified = api.get("/api/v1/audit/verify").await?;
        let seconds = started.elapsed().as_secs_f64();
        let entries = verified["entries"].as_u64().unwrap_or(0);
        let pages: Vec<String> =
            (0..50).map(|k| format!("/api/v1/audit?limit=100&afterSeq={}", entries * k / 50)).collect();
        measure(&api, "audit page of 100", &pages, n).await?;
        // The bytes the verifier hashes (each of an entry's nine fields with its 8-byte length),
        // from a sample page, for `sha256sum` over as many.
        let sample = api.get("/api/v1/audit?limit=1000&afterSeq=0").await?;
        let sample = sample.as_array().or_else(|| sample["entries"].as_array()).cloned().unwrap_or_default();
        let field_bytes: usize = sample
            .iter()
            .map(|e| {
                let s = |k: &str| e[k].as_str().map_or(0, str::len);
                9 * 8 + 24 + s("actor") + s("action") + s("target") + s("ip") + s("detail") + s("prevHash")
            })
            .sum();
        let per_entry = field_bytes as f64 / sample.len().max(1) as f64;
        let bytes = (per_entry * entries as f64) as u64;
        let sha = sha256sum_seconds(bytes)?;
        println!(
            "{}",
            json!({
                "case": "audit verification",
                "entries": entries,
                "intact": verified["intact"],
                "seconds": round2(seconds),
                "events_per_s": (entries as f64 / seconds).round(),
                "hashed_bytes": bytes,
                "sha256sum_seconds": round2(sha),
                "ratio_to_sha256sum": round2(sha / seconds),
            })
        );
        if args.export {
            export_all(&api).await?;
        }
        Ok(())
    })
}

/// `sha256sum` over a file of `bytes` bytes (written first, not timed).
fn sha256sum_seconds(bytes: u64) -> anyhow::Result<f64> {
    let dir = std::env::temp_dir().join(format!("signet-bench-sha-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("bytes");
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path)?);
        let chunk = vec![0x5a_u8; 1 << 20];
        let mut left = bytes;
        while left > 0 {
            let n = left.min(chunk.len() as u64) as usize;
            file.write_all(&chunk[..n])?;
            left -= n as u64;
        }
        file.flush()?;
    }
    let started = Instant::now();
    let status = std::process::Command::new("sha256sum").arg(&path).stdout(std::process::Stdio::null()).status();
    let seconds = started.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&dir);
    if !status.context("sha256sum")?.success() {
        bail!("sha256sum failed");
    }
    Ok(seconds)
}

/// Every workflow as one CSV export job, from its creation until its file is read.
async fn export_all(api: &Api) -> anyhow::Result<()> {
    let started = Instant::now();
    let response = api
        .http
        .post(format!("{}/api/v1/exports/workflows", api.base))
        .bearer_auth(&api.token)
        .header("Prefer", "respond-async")
        .json(&json!({"format": "csv", "fromDate": "2000-01-01T00:00:00Z"}))
        .send()
        .await?;
    if !response.status().is_success() {
        let status = response.status();
        bail!("the export answered {status}: {}", response.text().await.unwrap_or_default());
    }
    let job: Value = response.json().await?;
    let status_url = job["statusUrl"].as_str().ok_or_else(|| anyhow!("no statusUrl in {job}"))?.to_string();
    let status_path = status_url.strip_prefix(&api.base).unwrap_or(&status_url).to_string();
    let job = loop {
        let job = api.get(&status_path).await?;
        match job["status"].as_str() {
            Some("completed") => break job,
            Some("failed") => bail!("the export failed: {job}"),
            _ => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    };
    let written = started.elapsed().as_secs_f64();
    let file_url = job["fileUrl"].as_str().ok_or_else(|| anyhow!("no fileUrl in {job}"))?;
    let file_url = if file_url.starts_with("http") { file_url.to_string() } else { format!("{}{file_url}", api.base) };
    let mut response = api.http.get(file_url).bearer_auth(&api.token).send().await?;
    let mut bytes = 0_u64;
    while let Some(chunk) = response.chunk().await? {
        bytes += chunk.len() as u64;
    }
    let seconds = started.elapsed().as_secs_f64();
    let rows = job["rows"].as_i64().unwrap_or(0);
    println!(
        "{}",
        json!({
            "case": "export all workflows (csv job)",
            "rows": rows,
            "bytes": bytes,
            "job_seconds": round2(written),
            "seconds_with_download": round2(seconds),
            "rows_per_s": (rows as f64 / seconds).round(),
        })
    );
    Ok(())
}
