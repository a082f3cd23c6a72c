//! `signet evidence verify PACK.zip [--trust PEM]`: checks a workflow's evidence pack (from
//! `GET /api/v1/workflows/{id}/evidence`) with nothing but the file: every file's SHA-256
//! against the manifest, no file missing or extra, the event chain recomputed link by link to
//! its anchored head, every signature. One line per check; non-zero naming the files that fail.

use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use signet_services::workflows::evidence::check::check_pack;

/// Largest pack read (the archive format holds no more than 4 GiB; a pack of one workflow's
/// documents is far below this).
const MAX_PACK_BYTES: u64 = 2 << 30;

#[derive(Subcommand, Debug)]
pub enum EvidenceCommand {
    /// Verify an evidence pack; exits non-zero naming every file that fails a check.
    Verify(EvidenceVerifyArgs),
}

#[derive(Args, Debug)]
pub struct EvidenceVerifyArgs {
    /// The evidence pack (ZIP).
    pub pack: PathBuf,
    /// Trust anchors (PEM bundle or DER certificate), repeatable: then every signature must
    /// chain to one; without, every signature must be intact.
    #[arg(long)]
    pub trust: Vec<PathBuf>,
}

pub fn run(command: EvidenceCommand) -> anyhow::Result<()> {
    let EvidenceCommand::Verify(args) = command;
    let pack = read_bounded(&args.pack)?;
    let trust = crate::cmd::verify::trust_anchors(&args.trust)?;
    let checks = check_pack(&pack, &trust);
    for check in &checks {
        println!("{} {}: {}", if check.passed { "ok  " } else { "FAIL" }, check.file, check.what);
    }
    let mut failed: Vec<&str> = checks.iter().filter(|c| !c.passed).map(|c| c.file.as_str()).collect();
    failed.dedup();
    if failed.is_empty() {
        println!("The evidence pack is intact: {} checks passed.", checks.len());
        return Ok(());
    }
    bail!("{}: the evidence pack fails for {}", args.pack.display(), failed.join(", "))
}

fn read_bounded(path: &PathBuf) -> anyhow::Result<Vec<u8>> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_PACK_BYTES + 1).read_to_end(&mut bytes).with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > MAX_PACK_BYTES {
        bail!("{}: larger than {} GiB, not an evidence pack", path.display(), MAX_PACK_BYTES >> 30);
    }
    Ok(bytes)
}
