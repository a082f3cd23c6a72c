//! `signet bench workflows`: complete workflows per second against a running server. Each
//! workflow: upload a PDF, initiate with three sequential signatories, each opens the signer
//! page and signs through its typed-name form, then the final PDF is downloaded and checked
//! to hold three signatures.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use clap::Args;
use serde_json::{Value, json};

#[derive(Args, Debug)]
pub struct BenchWorkflowsArgs {
    /// The server's base URL, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    pub url: String,
    /// API credentials of a tenant (`signet tenant create` prints them).
    #[arg(long, env = "SIGNET_BENCH_CLIENT_ID")]
    pub client_id: String,
    #[arg(long, env = "SIGNET_BENCH_CLIENT_SECRET")]
    pub client_secret: String,
    /// The PDF every workflow signs.
    #[arg(long)]
    pub pdf: PathBuf,
    /// Workflows in flight at once.
    #[arg(long, default_value_t = 16)]
    pub concurrency: usize,
    /// Seconds to run.
    #[arg(long, default_value_t = 10)]
    pub duration: u64,
}

pub fn run(args: BenchWorkflowsArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(bench(args))
}

struct Client {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Client {
    async fn post_json(&self, path: &str, body: &Value) -> anyhow::Result<reqwest::Response> {
        let response =
            self.http.post(format!("{}{path}", self.base)).bearer_auth(&self.token).json(body).send().await?;
        if !response.status().is_success() {
            let status = response.status();
            bail!("{path} answered {status}: {}", response.text().await.unwrap_or_default());
        }
        Ok(response)
    }
}

async fn access_token(http: &reqwest::Client, base: &str, args: &BenchWorkflowsArgs) -> anyhow::Result<String> {
    let body =
        json!({"grant_type": "client_credentials", "client_id": args.client_id, "client_secret": args.client_secret});
    let response = http.post(format!("{base}/api/v1/auth/token")).json(&body).send().await?;
    if !response.status().is_success() {
        bail!("the token request answered {}", response.status());
    }
    let body: Value = response.json().await?;
    body["access_token"].as_str().map(str::to_string).ok_or_else(|| anyhow!("no access_token in the answer"))
}

/// One complete workflow.
async fn one(client: &Client, pdf_base64: &str, n: u64) -> anyhow::Result<()> {
    let uploaded: Value = client
        .post_json("/api/v1/documents", &json!({"documentName": "bench.pdf", "fileData": pdf_base64}))
        .await?
        .json()
        .await?;
    let document_id = uploaded["documentId"].as_i64().ok_or_else(|| anyhow!("no documentId"))?;
    let signatories: Vec<Value> = (1..=3)
        .map(|i| json!({"subscriberId": 0, "emailId": format!("signer{i}@bench.test"), "name": format!("Signer {i}"), "signingOrder": i}))
        .collect();
    let body = json!({"templateId": 0, "workflowName": format!("bench {n}"), "documentIds": [document_id], "signatories": signatories});
    let started: Value = client.post_json("/api/v1/workflows", &body).await?.json().await?;
    let workflow_id = started["workflowId"].as_i64().ok_or_else(|| anyhow!("no workflowId"))?;
    let mut urls: Vec<(i64, String)> = started["signingUrls"]
        .as_array()
        .ok_or_else(|| anyhow!("no signingUrls"))?
        .iter()
        .filter_map(|u| Some((u["sequenceNumber"].as_i64()?, u["url"].as_str()?.to_string())))
        .collect();
    urls.sort();
    for (i, (_, url)) in urls.iter().enumerate() {
        let page = client.http.get(url).send().await?;
        if !page.status().is_success() {
            bail!("signer page {i} answered {}", page.status());
        }
        page.bytes().await?;
        let name = format!("Signer {}", i + 1);
        let form = [("mode", "typed"), ("typedName", name.as_str()), ("font", "handwriting"), ("consent", "on")];
        let signed = client.http.post(format!("{url}/sign")).form(&form).send().await?;
        if !signed.status().is_success() {
            bail!("signing {i} answered {}", signed.status());
        }
        signed.bytes().await?;
    }
    let pdf =
        client.post_json("/api/v1/documents/download", &json!({"workflowid": workflow_id})).await?.bytes().await?;
    let signatures = pdf.windows(10).filter(|w| w == b"/ByteRange").count();
    if signatures < 3 {
        bail!("the final PDF has {signatures} signatures, expected 3");
    }
    Ok(())
}

async fn bench(args: BenchWorkflowsArgs) -> anyhow::Result<()> {
    let pdf = std::fs::read(&args.pdf).with_context(|| format!("cannot read {}", args.pdf.display()))?;
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build()?;
    let base = args.url.trim_end_matches('/').to_string();
    let token = access_token(&http, &base, &args).await?;
    let client = Arc::new(Client { http, base, token });
    let pdf_base64 = Arc::new(STANDARD.encode(pdf));
    let (done, failed, next) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let first_error = Arc::new(std::sync::Mutex::new(None::<String>));
    let start = Instant::now();
    let deadline = start + Duration::from_secs(args.duration);
    let mut tasks = Vec::new();
    for _ in 0..args.concurrency.max(1) {
        let (client, pdf_base64, done, failed, next, first_error) =
            (client.clone(), pdf_base64.clone(), done.clone(), failed.clone(), next.clone(), first_error.clone());
        tasks.push(tokio::spawn(async move {
            while Instant::now() < deadline {
                let n = next.fetch_add(1, Ordering::Relaxed);
                match one(&client, &pdf_base64, n).await {
                    Ok(()) => done.fetch_add(1, Ordering::Relaxed),
                    Err(error) => {
                        if let Ok(mut slot) = first_error.lock() {
                            slot.get_or_insert_with(|| error.to_string());
                        }
                        failed.fetch_add(1, Ordering::Relaxed)
                    }
                };
            }
        }));
    }
    for task in tasks {
        task.await?;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let ok = done.load(Ordering::Relaxed);
    let report = json!({
        "concurrency": args.concurrency,
        "seconds": (elapsed * 100.0).round() / 100.0,
        "workflows_ok": ok,
        "failed": failed.load(Ordering::Relaxed),
        "workflows_per_second": ((ok as f64 / elapsed) * 10.0).round() / 10.0,
        "signatures_per_second": ((3.0 * ok as f64 / elapsed) * 10.0).round() / 10.0,
        "first_error": first_error.lock().ok().and_then(|e| e.clone()),
    });
    println!("{report}");
    Ok(())
}
