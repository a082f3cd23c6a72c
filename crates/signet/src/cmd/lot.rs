//! `signet lot sign`: a lot's signer signs it through the API (`BulkSignInput`), following the
//! job's progress with a bar until it ends (docs/bulk.md).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use clap::{Args, Subcommand};
use serde_json::{Value, json};

use crate::progress::Progress;

#[derive(Subcommand, Debug)]
pub enum LotCommand {
    /// Sign every workflow of a lot with one signature image, as the lot's signer, and follow
    /// the job to its end; exits non-zero when some could not be signed.
    Sign(LotSignArgs),
}

#[derive(Args, Debug)]
pub struct LotSignArgs {
    /// The server's base URL, e.g. https://signet.example.com.
    #[arg(long)]
    pub url: String,
    /// The lot's signer (their sign-in address).
    #[arg(long)]
    pub username: String,
    #[arg(long, env = "SIGNET_PASSWORD", hide_env_values = true)]
    pub password: String,
    /// The lot to sign.
    #[arg(long)]
    pub lot: i64,
    /// The signature image (PNG or JPEG).
    #[arg(long)]
    pub image: PathBuf,
    /// Reviewer's comments recorded with each signature (at most 500 characters).
    #[arg(long)]
    pub comments: Option<String>,
}

pub fn run(command: LotCommand) -> anyhow::Result<()> {
    match command {
        LotCommand::Sign(args) => super::runtime()?.block_on(sign(args)),
    }
}

async fn sign(args: LotSignArgs) -> anyhow::Result<()> {
    let image = std::fs::read(&args.image).with_context(|| format!("cannot read {}", args.image.display()))?;
    let api = Api::new(&args.url);
    let token = api.password_token(&args.username, &args.password).await?;
    let job = api.sign_lot(&token, args.lot, &image, args.comments.as_deref()).await?;
    let total = job["total"].as_u64().unwrap_or(0);
    let job_id = job["jobId"].as_str().ok_or_else(|| anyhow!("the server answered no jobId"))?.to_string();
    let progress = Progress::new(total, "workflows");
    let done = api.follow(&token, &job_id, &progress).await?;
    progress.finish();
    let (succeeded, failed) = (done["succeeded"].as_u64().unwrap_or(0), done["failed"].as_u64().unwrap_or(0));
    let report = done["reportUrl"].as_str().unwrap_or_default();
    println!(
        "lot {}: {succeeded} of {total} workflows signed, {failed} failed, status {} (report: {report})",
        args.lot,
        done["status"].as_str().unwrap_or("unknown")
    );
    if failed > 0 {
        bail!("{failed} of {total} workflows of lot {} could not be signed; the report says why", args.lot);
    }
    Ok(())
}

/// The few API calls the lot commands make.
pub struct Api {
    http: reqwest::Client,
    base: String,
}

impl Api {
    pub fn new(url: &str) -> Api {
        Api { http: reqwest::Client::new(), base: url.trim_end_matches('/').to_string() }
    }

    async fn answer(response: reqwest::Response, what: &str) -> anyhow::Result<Value> {
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if !status.is_success() {
            let detail = body["detail"].as_str().unwrap_or("no detail");
            let errors = if body["errors"].is_object() { format!(" {}", body["errors"]) } else { String::new() };
            bail!("{what}: the server answered {status}: {detail}{errors}");
        }
        Ok(body)
    }

    pub async fn password_token(&self, username: &str, password: &str) -> anyhow::Result<String> {
        let body = json!({"grant_type": "password", "username": username, "password": password});
        let response = self.http.post(format!("{}/api/v1/auth/token", self.base)).json(&body).send().await?;
        let answer = Self::answer(response, "signing in").await?;
        answer["access_token"].as_str().map(str::to_string).ok_or_else(|| anyhow!("no access_token in the answer"))
    }

    pub async fn client_token(&self, client_id: &str, client_secret: &str) -> anyhow::Result<String> {
        let body = json!({"grant_type": "client_credentials", "client_id": client_id, "client_secret": client_secret});
        let response = self.http.post(format!("{}/api/v1/auth/token", self.base)).json(&body).send().await?;
        let answer = Self::answer(response, "the API credentials").await?;
        answer["access_token"].as_str().map(str::to_string).ok_or_else(|| anyhow!("no access_token in the answer"))
    }

    pub async fn post(&self, token: &str, path: &str, body: &Value) -> anyhow::Result<Value> {
        let response = self.http.post(format!("{}{path}", self.base)).bearer_auth(token).json(body).send().await?;
        Self::answer(response, path).await
    }

    pub async fn get(&self, token: &str, path: &str) -> anyhow::Result<Value> {
        let response = self.http.get(format!("{}{path}", self.base)).bearer_auth(token).send().await?;
        Self::answer(response, path).await
    }

    pub async fn sign_lot(&self, token: &str, lot: i64, image: &[u8], comments: Option<&str>) -> anyhow::Result<Value> {
        let body = json!({"lotId": lot, "signatureImage": STANDARD.encode(image), "reviewerComments": comments});
        self.post(token, "/api/v1/lots/sign", &body).await
    }

    /// Follows the job's events until `done`, moving the bar; answers the final status. A
    /// stream that ends early (they last an hour at most) is opened again.
    pub async fn follow(&self, token: &str, job_id: &str, progress: &Progress) -> anyhow::Result<Value> {
        loop {
            if let Some(done) = self.follow_once(token, job_id, progress).await? {
                return Ok(done);
            }
            let status = self.get(token, &format!("/api/v1/bulk-jobs/{job_id}")).await?;
            if status["finishedAt"].is_i64() {
                return Ok(status);
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    async fn follow_once(&self, token: &str, job_id: &str, progress: &Progress) -> anyhow::Result<Option<Value>> {
        let url = format!("{}/api/v1/bulk-jobs/{job_id}/events", self.base);
        let mut response = self.http.get(url).bearer_auth(token).send().await?;
        if !response.status().is_success() {
            return Self::answer(response, "following the job").await.map(Some);
        }
        let mut buffer = String::new();
        while let Some(chunk) = response.chunk().await? {
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                let event = block.lines().find_map(|l| l.strip_prefix("event: ")).unwrap_or_default();
                let data: Value =
                    serde_json::from_str(block.lines().find_map(|l| l.strip_prefix("data: ")).unwrap_or("null"))
                        .unwrap_or(Value::Null);
                let count = |k: &str| data[k].as_u64().unwrap_or(0);
                progress.set(count("succeeded") + count("failed") + count("skipped"), count("failed"));
                match event {
                    "done" => return Ok(Some(data)),
                    "error" => bail!("following the job: {data}"),
                    _ => {}
                }
            }
        }
        Ok(None)
    }
}
