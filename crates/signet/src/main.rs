//! The `signet` command. Each subcommand lives in its own module under `cmd/`.

mod cmd;
mod progress;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "signet", version, about = "Signet document signing platform")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the service (API, workers) on the embedded default or the configured database.
    Serve(cmd::serve::ServeArgs),
    /// Apply database migrations and exit.
    Migrate(cmd::serve::MigrateArgs),
    /// Back up the embedded default (SQLite + local blob folder) while it runs.
    Backup(cmd::backup::BackupArgs),
    /// Restore a backup made by `signet backup` into the data folder.
    Restore(cmd::backup::RestoreArgs),
    /// Check the installation whole: blobs and their hashes, the hash chains, the data keys.
    Check(cmd::backup::CheckArgs),
    /// Tenant administration.
    #[command(subcommand)]
    Tenant(cmd::tenant::TenantCommand),
    /// User administration.
    #[command(subcommand)]
    User(cmd::tenant::UserCommand),
    /// Print the OpenAPI document of the JSON API.
    Openapi,
    /// A local test CA (signer, TSA and OCSP responder certificates).
    #[command(subcommand)]
    Ca(cmd::ca::CaCommand),
    /// Sign PDF (PAdES), data (CMS), XML (XML-DSig) or SHA-256 hashes.
    #[command(subcommand)]
    Sign(cmd::sign::SignCommand),
    /// Verify the signatures of a PDF, CMS or XML file.
    Verify(cmd::verify::VerifyArgs),
    /// Evidence packs of completed workflows: verify one offline.
    #[command(subcommand)]
    Evidence(cmd::evidence::EvidenceCommand),
    /// The master key of documents at rest: rotate it (online), check every data key.
    #[command(subcommand)]
    Keys(cmd::keys::KeysCommand),
    /// Long-term signatures: what is due for renewal, and a renewal sweep now.
    #[command(subcommand)]
    Lta(cmd::lta::LtaCommand),
    /// Retention: erase now what the organisations' retention periods ended.
    #[command(subcommand)]
    Retention(cmd::retention::RetentionCommand),
    /// Benchmarks.
    #[command(subcommand)]
    Bench(cmd::bench::BenchCommand),
    /// A local test eSign Service Provider (Aadhaar eSign, CCA API 2.1) for development.
    #[command(subcommand)]
    Esp(cmd::esp::EspCommand),
    /// A local digital e-stamping provider (issues simulated stamp certificates) for development.
    #[command(subcommand, name = "estamp-sim")]
    EstampSim(cmd::estamp_sim::EstampSimCommand),
    /// Lots: sign a lot through the API as its signer, with a progress bar.
    #[command(subcommand)]
    Lot(cmd::lot::LotCommand),
    /// The signing gateway's client: seal requests, open results, drive a transaction.
    #[command(subcommand, name = "gateway-client")]
    GatewayClient(cmd::gateway_client::GatewayClientCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Serve(args) => cmd::serve::serve(args),
        Command::Migrate(args) => cmd::serve::migrate(args),
        Command::Backup(args) => cmd::backup::backup(args),
        Command::Restore(args) => cmd::backup::restore(args),
        Command::Check(args) => cmd::backup::check(args),
        Command::Tenant(command) => cmd::tenant::run_tenant(command),
        Command::User(command) => cmd::tenant::run_user(command),
        Command::Openapi => {
            println!("{}", signet_server::openapi::document_json());
            Ok(())
        }
        Command::Ca(command) => cmd::ca::run(command),
        Command::Sign(command) => cmd::sign::run(command),
        Command::Verify(args) => cmd::verify::run(args),
        Command::Evidence(command) => cmd::evidence::run(command),
        Command::Lta(command) => cmd::lta::run(command),
        Command::Keys(command) => cmd::keys::run(command),
        Command::Retention(command) => cmd::retention::run(command),
        Command::Bench(command) => cmd::bench::run(command),
        Command::GatewayClient(command) => cmd::gateway_client::run(command),
        Command::Esp(command) => cmd::esp::run(command),
        Command::EstampSim(command) => cmd::estamp_sim::run(command),
        Command::Lot(command) => cmd::lot::run(command),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // One readable line, never a backtrace.
            eprintln!("signet: {}", format!("{error:#}").replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}
