//! `signet keys`: the master key that wraps the data keys of documents at rest.
//!
//! `rotate-master` re-wraps every data key with the current master key (the first in the key
//! file or in `master_key`); with `--generate` it first writes a new key at the top of the key
//! file, keeping the old ones below it, so a running `serve` (which reads the file again when it
//! changes) keeps opening everything throughout. Each data key is re-wrapped on its own: a
//! rotation stopped half-way is resumed by running it again. `--retire` then drops the older
//! keys from the file. Documents are never re-encrypted. The organisations' data keys are
//! wrapped by their keys in the key vault: rotation seals every vault file again under the new
//! master key (each file replaced on its own, so a stopped rotation also resumes there).

use std::path::PathBuf;

use clap::{Args, Subcommand};
use signet_services::platform::config::Config;
use signet_services::platform::data_keys::{DEFAULT_KEY_FILE, MasterKey, write_key_file};

use super::serve::ConfigArgs;

#[derive(Subcommand, Debug)]
pub enum KeysCommand {
    /// Re-wrap the platform's data keys and every key vault file with the current master key
    /// (online; resumable).
    RotateMaster(RotateArgs),
    /// The master key in use and whether every data key unwraps with it.
    Status(StatusArgs),
}

#[derive(Args, Debug)]
pub struct RotateArgs {
    /// First write a new master key at the top of the key file (the older keys stay below it).
    #[arg(long)]
    pub generate: bool,
    /// Afterwards remove the older keys from the key file (every data key then needs only the
    /// current one).
    #[arg(long)]
    pub retire: bool,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Args, Debug)]
pub struct StatusArgs {
    #[command(flatten)]
    pub config: ConfigArgs,
}

pub fn run(command: KeysCommand) -> anyhow::Result<()> {
    match command {
        KeysCommand::RotateMaster(args) => rotate(args),
        KeysCommand::Status(args) => status(args),
    }
}

/// The key file the settings name, when the master key comes from a file.
fn key_file(config: &Config) -> Option<PathBuf> {
    if config.master_key.is_some() {
        return None;
    }
    if let Some(path) = &config.master_key_path {
        return Some(path.clone());
    }
    let default = config.data_dir.join(DEFAULT_KEY_FILE);
    (config.hsm_module.is_none() || default.exists()).then_some(default)
}

fn rotate(args: RotateArgs) -> anyhow::Result<()> {
    let config = args.config.load(None, None)?;
    let file = key_file(&config);
    if (args.generate || args.retire) && file.is_none() {
        anyhow::bail!(
            "the master key does not come from a file (master_key or the HSM): put the new key first in \
             SIGNET_MASTER_KEY, the old one after a comma, restart, then run rotate-master without --generate"
        );
    }
    if args.generate
        && let Some(path) = &file
    {
        let old = std::fs::read_to_string(path).unwrap_or_default();
        write_key_file(path, &format!("{}\n{old}", MasterKey::generate_text()?))?;
        println!("wrote a new master key at the top of {}", path.display());
    }
    let rewrapped = super::runtime()?.block_on(async {
        let services = assemble(config).await?;
        let rewrapped = services.data_keys.rotate().await?;
        let failures = services.data_keys.check().await?.failures;
        anyhow::Ok((rewrapped, services.data_keys.current_master_id(), failures))
    })?;
    let (count, current, failures) = rewrapped;
    println!("re-wrapped {count} data key(s) and key vault file(s) with master key {current}");
    if !failures.is_empty() {
        for (id, why) in &failures {
            eprintln!("data key {id}: {why}");
        }
        anyhow::bail!("{} data key(s) do not unwrap with the configured master keys", failures.len());
    }
    if args.retire
        && let Some(path) = &file
    {
        let text = std::fs::read_to_string(path)?;
        let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or_default();
        write_key_file(path, &format!("{first}\n"))?;
        println!("retired the older master keys from {}", path.display());
    }
    Ok(())
}

fn status(args: StatusArgs) -> anyhow::Result<()> {
    let config = args.config.load(None, None)?;
    let (current, failures) = super::runtime()?.block_on(async {
        // A vault file missing is reported with the data keys it leaves unopened.
        let store = signet_server::app::open_store(&config).await?;
        let services =
            signet_services::Services::assemble_to_inspect(config, store, signet_blob::BlobStore::memory()).await?;
        let failures = services.data_keys.check().await?.failures;
        anyhow::Ok((services.data_keys.current_master_id(), failures))
    })?;
    println!("current master key: {current}");
    for (id, why) in &failures {
        println!("data key {id}: {why}");
    }
    anyhow::ensure!(failures.is_empty(), "{} data key(s) do not unwrap", failures.len());
    println!("every data key unwraps");
    Ok(())
}

/// The services over the configured database (no blob store is needed to re-wrap keys).
async fn assemble(config: Config) -> anyhow::Result<signet_services::Services> {
    let store = signet_server::app::open_store(&config).await?;
    signet_services::Services::assemble(config, store, signet_blob::BlobStore::memory()).await
}
