//! `signet lta status`: which completed documents' long-term protection (their newest document
//! time-stamp) runs out within the renewal margin, the counts, and whether the configured TSA
//! can renew them. `signet lta renew`: one renewal sweep now, what the hourly job does.

use clap::{Args, Subcommand};
use serde_json::json;
use signet_domain::{Millis, now_millis};
use signet_services::workflows::lta_renewal::{self, SweepLimits};
use signet_store::{LtaCounts, LtaDue};

use super::serve::ConfigArgs;

const DAY_MS: i64 = 86_400_000;

#[derive(Subcommand, Debug)]
pub enum LtaCommand {
    /// List the documents due for renewal within the margin, with the counts.
    Status(LtaStatusArgs),
    /// Run one renewal sweep now (what the hourly job does) and print what it did.
    Renew(LtaRenewArgs),
}

#[derive(Args, Debug)]
pub struct LtaStatusArgs {
    /// Due means protected for fewer than this many days [default: lta_renewal_margin_days].
    #[arg(long)]
    pub margin_days: Option<u32>,
    /// Most due documents listed (soonest first); the counts cover all.
    #[arg(long, default_value_t = 100)]
    pub limit: u32,
    /// One JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Args, Debug)]
pub struct LtaRenewArgs {
    /// Blob store [default: <data-dir>/blobs].
    #[arg(long, env = "SIGNET_BLOB_URL")]
    pub blob_url: Option<String>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

pub fn run(command: LtaCommand) -> anyhow::Result<()> {
    match command {
        LtaCommand::Status(args) => status(args),
        LtaCommand::Renew(args) => renew(args),
    }
}

/// What the configured TSA's time-stamps would last, or why that is not known.
enum TsaState {
    NotConfigured,
    Lasts { expires_at: Millis },
    Unreachable(String),
}

fn status(args: LtaStatusArgs) -> anyhow::Result<()> {
    let config = args.config.load(None, None)?;
    let margin_days = args.margin_days.unwrap_or(config.lta_renewal_margin_days);
    let margin_end = now_millis() + i64::from(margin_days) * DAY_MS;
    let (due, counts) = super::runtime()?.block_on(async {
        let store = signet_server::app::open_store(&config).await?;
        let overview = store.lta_overview(margin_end, i64::from(args.limit)).await;
        store.close().await;
        anyhow::Ok(overview?)
    })?;
    let tsa = match &config.tsa_url {
        None => TsaState::NotConfigured,
        Some(url) => match signet_signing::tsa_protection(url, &config.outbound_http()) {
            Ok(protection) => TsaState::Lasts { expires_at: seconds_to_ms(protection.expires_at_unix) },
            Err(error) => TsaState::Unreachable(error.to_string()),
        },
    };
    if args.json {
        println!("{}", status_json(margin_days, &due, &counts, &tsa, margin_end));
    } else {
        print_status(margin_days, &due, &counts, &tsa, margin_end);
    }
    Ok(())
}

fn status_json(margin_days: u32, due: &[LtaDue], counts: &LtaCounts, tsa: &TsaState, margin_end: Millis) -> String {
    let listed: Vec<_> = due
        .iter()
        .map(|d| {
            json!({
                "tenantId": d.tenant_id.get(), "workflowId": d.workflow_id.get(), "documentId": d.document_id.get(),
                "name": d.name, "expiresAt": d.expires_at, "expires": rfc3339(d.expires_at),
            })
        })
        .collect();
    let tsa = match tsa {
        TsaState::NotConfigured => json!({"configured": false}),
        TsaState::Lasts { expires_at } => json!({
            "configured": true, "expiresAt": expires_at, "expires": rfc3339(*expires_at),
            "withinMargin": *expires_at <= margin_end,
        }),
        TsaState::Unreachable(error) => json!({"configured": true, "error": error}),
    };
    json!({
        "marginDays": margin_days,
        "counts": {"due": counts.due, "fine": counts.fine, "unknown": counts.unknown, "withoutTimestamp": counts.without_timestamp},
        "due": listed,
        "tsa": tsa,
    })
    .to_string()
}

fn print_status(margin_days: u32, due: &[LtaDue], counts: &LtaCounts, tsa: &TsaState, margin_end: Millis) {
    println!(
        "due within {margin_days} days: {}; protected beyond: {}; not yet known: {}; no document time-stamp: {}",
        counts.due, counts.fine, counts.unknown, counts.without_timestamp
    );
    match tsa {
        TsaState::NotConfigured => println!("TSA: none configured (tsa_url); nothing can be renewed"),
        TsaState::Lasts { expires_at } if *expires_at <= margin_end => println!(
            "TSA: its certificates run out {}, within the margin: renewals are refused until a longer-lived TSA is configured",
            rfc3339(*expires_at)
        ),
        TsaState::Lasts { expires_at } => println!("TSA: renewals last until {}", rfc3339(*expires_at)),
        TsaState::Unreachable(error) => println!("TSA: not reachable: {error}"),
    }
    if !due.is_empty() {
        println!("tenant\tworkflow\tdocument\texpires\tname");
    }
    for d in due {
        println!("{}\t{}\t{}\t{}\t{}", d.tenant_id, d.workflow_id, d.document_id, rfc3339(d.expires_at), d.name);
    }
}

fn renew(args: LtaRenewArgs) -> anyhow::Result<()> {
    let config = args.config.load(None, args.blob_url.clone())?;
    let limits = SweepLimits::from_config(&config);
    let outcome = super::runtime()?.block_on(async {
        let store = signet_server::app::open_store(&config).await?;
        let blob = signet_blob::BlobStore::from_url(&config.blob_url(), &config.data_dir)?;
        let services = signet_services::Services::assemble(config, store.clone(), blob).await?;
        let outcome = lta_renewal::sweep(&services, limits).await;
        store.close().await;
        anyhow::Ok(outcome?)
    })?;
    println!("{}", serde_json::to_string(&outcome)?);
    Ok(())
}

fn seconds_to_ms(unix_secs: u64) -> Millis {
    i64::try_from(unix_secs).unwrap_or(i64::MAX / 1000) * 1000
}

fn rfc3339(millis: Millis) -> String {
    time::OffsetDateTime::from_unix_timestamp(millis / 1000)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_else(|| format!("{millis} ms"))
}
