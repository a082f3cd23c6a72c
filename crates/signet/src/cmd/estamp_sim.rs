//! `signet estamp-sim`: the local digital e-stamping provider that Signet's provider adapter
//! talks to in development and demos (docs/estamp-provider.md). It runs on its own, never
//! inside `signet serve`, and what it issues is not stamp duty paid to anyone.

use std::time::Duration;

use anyhow::Context;
use clap::{Args, Subcommand};
use signet_estamp_sim::SimOptions;

#[derive(Subcommand, Debug)]
pub enum EstampSimCommand {
    /// Run the provider: POST /v1/estamps issues certificates for a loan record,
    /// GET /v1/estamps/{reference} fetches them again.
    Serve(EstampSimServeArgs),
}

#[derive(Args, Debug)]
pub struct EstampSimServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8091")]
    pub listen: String,
    /// The key callers must send as `Authorization: Bearer <key>` (default: any caller).
    #[arg(long)]
    pub api_key: Option<String>,
    /// Milliseconds every answer takes, as a busy provider's would.
    #[arg(long, default_value_t = 0)]
    pub delay_ms: u64,
    /// Every n-th issue request fails with 503 (0: never).
    #[arg(long, default_value_t = 0)]
    pub fail_every: u64,
}

pub fn run(command: EstampSimCommand) -> anyhow::Result<()> {
    match command {
        EstampSimCommand::Serve(args) => serve(args),
    }
}

fn serve(args: EstampSimServeArgs) -> anyhow::Result<()> {
    signet_server::observe::init_logging(signet_server::config::LogFormat::Text);
    let options =
        SimOptions { api_key: args.api_key, delay: Duration::from_millis(args.delay_ms), fail_every: args.fail_every };
    super::runtime()?.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        let running = signet_estamp_sim::spawn(options, listener).await?;
        let base = &running.base_url;
        println!("signet e-stamp provider simulator listening on {base}  (issue: POST {base}/v1/estamps)");
        println!("point Signet at it with SIGNET_ESTAMP_PROVIDER_URL={base}/v1");
        super::serve::shutdown_signal().await;
        running.stop().await;
        Ok(())
    })
}
