//! `signet retention sweep`: erase now what the organisations' retention periods ended (what
//! the daily job does), and print what it did. Safe beside a running `serve` and after a crash:
//! each record is erased in its own transaction, and a second sweep finds only what is left.

use clap::{Args, Subcommand};
use serde_json::json;
use signet_domain::now_millis;
use signet_services::privacy::sweep;

use super::serve::ConfigArgs;

#[derive(Subcommand, Debug)]
pub enum RetentionCommand {
    /// Run one retention sweep now and print what it erased as one JSON object.
    Sweep(RetentionSweepArgs),
}

#[derive(Args, Debug)]
pub struct RetentionSweepArgs {
    /// Blob store [default: <data-dir>/blobs].
    #[arg(long, env = "SIGNET_BLOB_URL")]
    pub blob_url: Option<String>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

pub fn run(command: RetentionCommand) -> anyhow::Result<()> {
    let RetentionCommand::Sweep(args) = command;
    let config = args.config.load(None, args.blob_url.clone())?;
    let report = super::runtime()?.block_on(async {
        let store = signet_server::app::open_store(&config).await?;
        let blob = signet_blob::BlobStore::from_url(&config.blob_url(), &config.data_dir)?;
        let services = signet_services::Services::assemble(config, store.clone(), blob).await?;
        let report = sweep::sweep(&services, now_millis()).await;
        store.close().await;
        anyhow::Ok(report?)
    })?;
    let out = json!({"workflows": report.workflows, "transactions": report.transactions, "skipped": report.skipped});
    println!("{out}");
    Ok(())
}
