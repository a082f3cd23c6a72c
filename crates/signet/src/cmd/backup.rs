//! `signet backup` and `signet restore` of the embedded default (SQLite + local blob folder),
//! and `signet check` of any installation. The work is in
//! `signet_services::platform::{backup, integrity}`; here are the arguments and the output.

use std::path::PathBuf;

use clap::Args;
use signet_blob::BlobStore;
use signet_services::platform::backup::{self, Layout};
use signet_services::platform::integrity;

use super::serve::ConfigArgs;

#[derive(Args, Debug)]
pub struct BackupArgs {
    /// The folder to write the backup to (must not exist, or be empty).
    #[arg(long)]
    pub to: PathBuf,
    /// Blob store [default: <data-dir>/blobs].
    #[arg(long, env = "SIGNET_BLOB_URL")]
    pub blob_url: Option<String>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Args, Debug)]
pub struct RestoreArgs {
    /// The folder of a backup made by `signet backup`.
    #[arg(long)]
    pub from: PathBuf,
    /// Replace a data folder that is not empty (it is kept beside, renamed).
    #[arg(long)]
    pub force: bool,
    /// Blob store [default: <data-dir>/blobs].
    #[arg(long, env = "SIGNET_BLOB_URL")]
    pub blob_url: Option<String>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Blob store [default: <data-dir>/blobs].
    #[arg(long, env = "SIGNET_BLOB_URL")]
    pub blob_url: Option<String>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

pub fn backup(args: BackupArgs) -> anyhow::Result<()> {
    let config = args.config.load(None, args.blob_url)?;
    let blob = BlobStore::from_url(&config.blob_url(), &config.data_dir)?;
    let layout = Layout::of(&config, &blob)?;
    let summary = super::runtime()?.block_on(async {
        let store = signet_server::app::open_store(&config).await?;
        let taken = backup::backup(&store, &layout, &args.to).await;
        store.close().await;
        anyhow::Ok(taken?)
    })?;
    println!(
        "backup written to {}: database {} bytes, {} blobs ({} bytes){}",
        args.to.display(),
        summary.database_bytes,
        summary.blobs,
        summary.blob_bytes,
        match summary.vanished {
            0 => String::new(),
            n => format!("; {n} blob(s) deleted while copying were left out"),
        }
    );
    Ok(())
}

pub fn restore(args: RestoreArgs) -> anyhow::Result<()> {
    let config = args.config.load(None, args.blob_url)?;
    let blob = BlobStore::from_url(&config.blob_url(), &config.data_dir)?;
    let layout = Layout::of(&config, &blob)?;
    let summary = backup::restore(&args.from, &layout, args.force)?;
    println!("restored {} files ({} bytes) into {}", summary.files, summary.bytes, config.data_dir.display());
    if let Some(aside) = summary.set_aside {
        println!("the data folder that was there is kept as {}", aside.display());
    }
    println!("next: signet check");
    Ok(())
}

pub fn check(args: CheckArgs) -> anyhow::Result<()> {
    let config = args.config.load(None, args.blob_url)?;
    let blob = BlobStore::from_url(&config.blob_url(), &config.data_dir)?;
    let summary = super::runtime()?.block_on(async {
        let store = signet_server::app::open_store(&config).await?;
        // Assembled as `serve` is (the blobs are read through their data keys), except that a
        // vault file missing is a finding here, not a reason to stop.
        let services = signet_services::Services::assemble_to_inspect(config, store.clone(), blob).await?;
        let checked = integrity::check(&services, |finding| println!("FAIL {finding}")).await;
        store.close().await;
        anyhow::Ok(checked?)
    })?;
    println!("checked {summary}");
    if summary.findings > 0 {
        anyhow::bail!("{} finding(s): the installation is not whole", summary.findings);
    }
    Ok(())
}
