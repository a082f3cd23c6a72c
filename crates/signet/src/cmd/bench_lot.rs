//! `signet bench lot`: documents per second through a lot signed in one bulk job on a running
//! server, beside `signet sign pdf` signing the same documents locally in the same run.
//!
//! The lot part times from `BulkSignInput` to the job's end (the workflows are made first,
//! untimed): each document is signed with the tenant's seal, its signature recorded in its
//! workflow's trail, and the workflow completed (sealed, certificate of completion). The
//! local part runs this binary's `sign pdf` over copies of the same PDF with the same image.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, anyhow, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use clap::Args;
use serde_json::json;

use super::lot::Api;
use crate::progress::Progress;

#[derive(Args, Debug)]
pub struct BenchLotArgs {
    /// The server's base URL, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    pub url: String,
    /// API credentials of a tenant (`signet tenant create` prints them): they make the workflows.
    #[arg(long, env = "SIGNET_BENCH_CLIENT_ID")]
    pub client_id: String,
    #[arg(long, env = "SIGNET_BENCH_CLIENT_SECRET")]
    pub client_secret: String,
    /// A user of the tenant who signs the lot (the tenant's administrator will do).
    #[arg(long)]
    pub username: String,
    #[arg(long, env = "SIGNET_BENCH_PASSWORD", hide_env_values = true)]
    pub password: String,
    /// The PDF every workflow carries.
    #[arg(long)]
    pub pdf: PathBuf,
    /// The signature image (PNG or JPEG).
    #[arg(long)]
    pub image: PathBuf,
    /// Documents in the lot.
    #[arg(long, default_value_t = 200)]
    pub count: usize,
    /// The PKCS#12 key `signet sign pdf` signs with (`signet ca init` makes one).
    #[arg(long)]
    pub p12: PathBuf,
    #[arg(long, env = "SIGNET_P12_PASSWORD", hide_env_values = true)]
    pub p12_password: String,
}

pub fn run(args: BenchLotArgs) -> anyhow::Result<()> {
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    let pdf = std::fs::read(&args.pdf).with_context(|| format!("cannot read {}", args.pdf.display()))?;
    let image = std::fs::read(&args.image).with_context(|| format!("cannot read {}", args.image.display()))?;
    let lot_rate = super::runtime()?.block_on(lot_rate(&args, &pdf, &image))?;
    let local_rate = local_rate(&args, &pdf)?;
    println!("lot (bulk job on the server): {lot_rate:.1} documents/s");
    println!("signet sign pdf (local, same files): {local_rate:.1} documents/s");
    println!("ratio lot / sign pdf: {:.2}", lot_rate / local_rate);
    Ok(())
}

async fn lot_rate(args: &BenchLotArgs, pdf: &[u8], image: &[u8]) -> anyhow::Result<f64> {
    let api = Arc::new(Api::new(&args.url));
    let client = api.client_token(&args.client_id, &args.client_secret).await?;
    let signer = api.password_token(&args.username, &args.password).await?;
    let me = api.get(&signer, "/api/v1/users/me").await?;
    let signer_id = me["subscriberId"].as_i64().ok_or_else(|| anyhow!("no subscriberId for {}", args.username))?;
    let workflows = make_workflows(&api, &client, &args.username, pdf, args.count).await?;
    let lot = json!({"name": "bench", "signerUserId": signer_id, "workflowIds": workflows});
    let lot = api.post(&client, "/api/v1/lots", &lot).await?;
    let lot_id = lot["lotId"].as_i64().ok_or_else(|| anyhow!("no lotId"))?;
    let started = Instant::now();
    let job = api.sign_lot(&signer, lot_id, image, None).await?;
    let job_id = job["jobId"].as_str().ok_or_else(|| anyhow!("no jobId"))?;
    let progress = Progress::new(args.count as u64, "documents");
    let done = api.follow(&signer, job_id, &progress).await?;
    progress.finish();
    let seconds = started.elapsed().as_secs_f64();
    let signed = done["succeeded"].as_u64().unwrap_or(0);
    if signed != args.count as u64 {
        bail!("the lot signed {signed} of {} documents: {done}", args.count);
    }
    Ok(signed as f64 / seconds)
}

/// The lot's workflows, eight requests at a time.
async fn make_workflows(
    api: &Arc<Api>,
    token: &str,
    signer: &str,
    pdf: &[u8],
    count: usize,
) -> anyhow::Result<Vec<i64>> {
    let data = Arc::new(STANDARD.encode(pdf));
    let mut ids = Vec::with_capacity(count);
    for chunk in (0..count).collect::<Vec<_>>().chunks(8) {
        let mut tasks = Vec::new();
        for i in chunk {
            let (api, token, data) = (api.clone(), token.to_string(), data.clone());
            let body = json!({"documentName": format!("bench-{i}.pdf"), "fileData": data.as_str(),
                              "signatories": [{"emailId": signer, "name": "Bench signer"}]});
            tasks.push(tokio::spawn(
                async move { api.post(&token, "/api/v1/workflows/initiate-and-sign", &body).await },
            ));
        }
        for task in tasks {
            let started = task.await??;
            ids.push(started["workflowId"].as_i64().ok_or_else(|| anyhow!("no workflowId"))?);
        }
    }
    Ok(ids)
}

/// `signet sign pdf` (this binary) over `count` copies of the PDF, visible with the image.
fn local_rate(args: &BenchLotArgs, pdf: &[u8]) -> anyhow::Result<f64> {
    let dir = tempfile_dir()?;
    let inputs: Vec<PathBuf> = (0..args.count).map(|i| dir.join(format!("bench-{i}.pdf"))).collect();
    for input in &inputs {
        std::fs::write(input, pdf)?;
    }
    let exe = std::env::current_exe()?;
    let started = Instant::now();
    let status = std::process::Command::new(exe)
        .args(["sign", "pdf", "--out-dir"])
        .arg(dir.join("signed"))
        .arg("--p12")
        .arg(&args.p12)
        .arg("--image")
        .arg(&args.image)
        .args(inputs.iter())
        .env("SIGNET_P12_PASSWORD", &args.p12_password)
        .status()?;
    let seconds = started.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&dir);
    if !status.success() {
        bail!("signet sign pdf failed");
    }
    Ok(args.count as f64 / seconds)
}

fn tempfile_dir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("signet-bench-lot-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
