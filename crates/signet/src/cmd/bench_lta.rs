//! `signet bench lta`: renewal throughput of long-term signatures (issue 33, item 2) beside the
//! raw time-stamp rate of the same TSA, in one run. A renewal is what the sweep does to each
//! document apart from the database and blob writes: read its protection, extend it with
//! fresh validation data and a new document time-stamp (B-LTA), read the new protection, hash
//! it. Both runs use the same number of threads, so the ratio says how much of the TSA's rate
//! renewal keeps (scripts/bench-lta.sh starts a local TSA).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use serde_json::json;
use signet_sigcrypto::{pki, tsp};
use signet_signing::{HttpConfig, LocalKeySigner, PadesLevel, PdfSignOptions, ValidationData};

use super::bench_inputs::Run;

#[derive(Args, Debug)]
pub struct BenchLtaArgs {
    /// The TSA (RFC 3161) both runs use.
    #[arg(long)]
    pub tsa: String,
    /// The document to sign B-LTA once; its renewals are measured.
    #[arg(long)]
    pub pdf: PathBuf,
    /// The signer's PKCS#12.
    #[arg(long)]
    pub p12: PathBuf,
    #[arg(long, env = "SIGNET_P12_PASSWORD")]
    pub password: String,
    /// The CA's revocation list (`signet ca init` writes `ca.crl`): the bench CA publishes
    /// nowhere, so the list goes into the documents as a CA's download would.
    #[arg(long)]
    pub crl: PathBuf,
    /// Renewals (and time-stamps) per run.
    #[arg(long, default_value_t = 200)]
    pub documents: usize,
    /// Threads in each run [default: one per core].
    #[arg(long)]
    pub concurrency: Option<usize>,
}

pub fn run(args: BenchLtaArgs) -> anyhow::Result<()> {
    let p12 = std::fs::read(&args.p12).with_context(|| format!("cannot read {}", args.p12.display()))?;
    let keys = pki::load_p12(&p12, &args.password)?;
    let signer = LocalKeySigner::from_pkcs8(&keys.key_pkcs8_der, &keys.cert_der, keys.chain_der.clone())?;
    let input = std::fs::read(&args.pdf).with_context(|| format!("cannot read {}", args.pdf.display()))?;
    let crl = std::fs::read(&args.crl).with_context(|| format!("cannot read {}", args.crl.display()))?;
    let opts = PdfSignOptions {
        level: PadesLevel::BLTA,
        tsa_url: Some(args.tsa.clone()),
        http: HttpConfig::allow_private(),
        // The bench CA publishes nowhere: its certificate and list are given.
        validation: ValidationData { certs: keys.chain_der.clone(), ocsps: Vec::new(), crls: vec![crl] },
        ..PdfSignOptions::default()
    };
    let signed = signet_signing::sign_pdf(&input, &signer, &opts)?;
    let threads =
        args.concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);

    let timestamps = in_parallel(args.documents, threads, |n| {
        let digest = pki::sha256(&n.to_be_bytes());
        tsp::timestamp_token_with(&digest, &args.tsa, &opts.http).map(|_| ()).map_err(anyhow::Error::from)
    })?;
    let renewals = in_parallel(args.documents, threads, |_| {
        signet_signing::lta_protection(&signed)?;
        let renewed = signet_signing::extend_pdf(&signed, &opts)?;
        signet_signing::lta_protection(&renewed)?.context("the renewed document has no document time-stamp")?;
        pki::sha256(&renewed);
        Ok(())
    })?;
    let ratio = renewals.rate() / timestamps.rate().max(1e-9);
    println!(
        "time-stamps (raw, same TSA): {:>8.1} /s  ({} in {:.2} s)",
        timestamps.rate(),
        timestamps.count,
        timestamps.seconds
    );
    println!(
        "renewals (B-LTA):            {:>8.1} /s  ({} in {:.2} s)",
        renewals.rate(),
        renewals.count,
        renewals.seconds
    );
    println!("ratio renewals / time-stamps: {ratio:.2} ({threads} threads)");
    println!(
        "{}",
        json!({
            "threads": threads,
            "timestampsPerSecond": timestamps.rate(),
            "renewalsPerSecond": renewals.rate(),
            "ratio": ratio,
        })
    );
    Ok(())
}

/// Runs `work(0..count)` on `threads` threads; a thread stops at its first error, which the run answers.
fn in_parallel(count: usize, threads: usize, work: impl Fn(usize) -> anyhow::Result<()> + Sync) -> anyhow::Result<Run> {
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| -> anyhow::Result<()> {
                    loop {
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        if n >= count {
                            return Ok(());
                        }
                        work(n)?;
                    }
                })
            })
            .collect();
        workers.into_iter().try_for_each(|w| w.join().map_err(|_| anyhow::anyhow!("a bench thread panicked"))?)
    })?;
    Ok(Run { count, seconds: started.elapsed().as_secs_f64() })
}
