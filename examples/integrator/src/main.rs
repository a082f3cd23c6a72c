//! `signet-example-integrator`: run it beside `signet serve` (see README.md).

use std::path::PathBuf;

use clap::Parser;
use signet_client::Profile;
use signet_example_integrator::{Settings, fetch_certificate, router};

#[derive(Parser)]
#[command(about = "A small integrator web app for the Signet signing gateway")]
struct Args {
    /// The gateway's base URL as browsers reach it.
    #[arg(long, env = "GATEWAY_URL", default_value = "http://127.0.0.1:8080")]
    gateway_url: String,
    #[arg(long, env = "GATEWAY_SEGMENT", default_value = "eMsecure")]
    segment: String,
    /// A gateway Authtoken (`POST /api/v1/gateway/authtokens`).
    #[arg(long, env = "GATEWAY_AUTHTOKEN")]
    authtoken: String,
    #[arg(long, default_value = "127.0.0.1:3000")]
    listen: String,
    /// This app's base URL as browsers reach it; `http://<listen>` by default.
    #[arg(long)]
    public_url: Option<String>,
    /// Where signed files are saved.
    #[arg(long, default_value = "signed")]
    out_dir: PathBuf,
    /// Use the legacy envelope (RSA PKCS#1 v1.5 + AES-ECB) instead of the modern one.
    #[arg(long)]
    legacy: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    std::fs::create_dir_all(&args.out_dir)?;
    let certificate = fetch_certificate(&args.gateway_url, &args.segment).await?;
    let listener = tokio::net::TcpListener::bind(&args.listen).await?;
    let public_url = args.public_url.unwrap_or(format!("http://{}", listener.local_addr()?));
    println!("integrator app on {public_url}, gateway {}", args.gateway_url);
    let settings = Settings {
        gateway_url: args.gateway_url,
        segment: args.segment,
        authtoken: args.authtoken,
        public_url,
        out_dir: args.out_dir,
        profile: if args.legacy { Profile::Legacy } else { Profile::Modern },
    };
    axum::serve(listener, router(settings, certificate)).await?;
    Ok(())
}
