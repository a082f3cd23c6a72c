//! `signet verify FILE [--trust PEM] [--json | --etsi-xml | --etsi-json]`: a report per
//! signature (Signet's, or ETSI TS 119 102-2's in XML or JSON); success only when every
//! signature is intact, chains to the trust store and was not invalidated later.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use signet_signing::{Report, SignatureReport};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// A signed PDF, a CMS (DER or PEM) or a signed XML file.
    pub file: PathBuf,
    /// Trust anchors (PEM bundle or DER certificate); repeatable.
    #[arg(long)]
    pub trust: Vec<PathBuf>,
    /// The signed data of a detached CMS.
    #[arg(long)]
    pub content: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long, conflicts_with_all = ["etsi_xml", "etsi_json"])]
    pub json: bool,
    /// Print the ETSI TS 119 102-2 validation report (XML).
    #[arg(long, conflicts_with = "etsi_json")]
    pub etsi_xml: bool,
    /// Print the ETSI TS 119 102-2 validation report's content as JSON.
    #[arg(long)]
    pub etsi_json: bool,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<()> {
    let bytes = std::fs::read(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let trust = trust_anchors(&args.trust)?;
    let content = match &args.content {
        Some(p) => Some(std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?),
        None => None,
    };
    let report = signet_signing::verify_file_with(&bytes, content.as_deref(), &trust, None)
        .with_context(|| format!("{}", args.file.display()))?;
    if args.etsi_xml || args.etsi_json {
        let etsi = signet_signing::etsi::ValidationReport::of_now(&report)
            .with_context(|| format!("{}", args.file.display()))?;
        if args.etsi_xml {
            print!("{}", etsi.to_xml());
        } else {
            println!("{}", serde_json::to_string_pretty(&etsi)?);
        }
    } else if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_text(&report);
    }
    if report.valid {
        return Ok(());
    }
    let bad = report.signatures.iter().filter(|s| !s.valid).count();
    match (report.signatures.len(), report.errors.first()) {
        (0, Some(e)) => bail!("{}: {e}", args.file.display()),
        (total, _) => bail!("{}: {bad} of {total} signatures are not valid", args.file.display()),
    }
}

/// The certificates of every file given to `--trust` (PEM bundles or DER certificates).
pub fn trust_anchors(paths: &[PathBuf]) -> anyhow::Result<Vec<Vec<u8>>> {
    let mut trust = Vec::new();
    for path in paths {
        let pem = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        trust.extend(
            signet_sigcrypto::pki::certs_from_pem_or_der(&pem)
                .with_context(|| format!("{}: no certificate", path.display()))?,
        );
    }
    Ok(trust)
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn print_text(report: &Report) {
    for s in &report.signatures {
        print_signature(s);
    }
    for e in &report.errors {
        println!("error: {e}");
    }
    println!("{}", if report.valid { "All signatures are valid." } else { "NOT all signatures are valid." });
}

fn print_signature(s: &SignatureReport) {
    let name = s.field_name.as_deref().unwrap_or("-");
    println!("Signature #{} ({}, field {name}): {}", s.index, s.kind, if s.valid { "VALID" } else { "INVALID" });
    println!("  intact: {}   trusted: {}", yes_no(s.intact), yes_no(s.trusted));
    if let Some(signer) = &s.signer {
        println!("  signer: {signer}");
    }
    if let Some(t) = &s.signing_time {
        println!("  signing time (claimed): {t}");
    }
    if let Some(ts) = &s.timestamp {
        println!(
            "  time-stamp: {} by {} (intact: {}, trusted: {})",
            ts.time.as_deref().unwrap_or("?"),
            ts.tsa.as_deref().unwrap_or("?"),
            yes_no(ts.intact),
            yes_no(ts.trusted)
        );
    }
    if let Some(level) = &s.pades_level {
        println!("  PAdES level: {level}   revocation data: {}", yes_no(s.revocation_data));
    }
    if s.later_revisions > 0 {
        println!(
            "  changed later: {} revision(s), {}",
            s.later_revisions,
            if s.modifications_allowed { "allowed changes only" } else { "DISALLOWED changes" }
        );
    }
    if let Some(indication) = s.indication {
        let named = |v: serde_json::Result<serde_json::Value>| v.ok().and_then(|v| v.as_str().map(str::to_string));
        let sub = s.sub_indication.and_then(|x| named(serde_json::to_value(x)));
        let sub = sub.map(|x| format!(" / {x}")).unwrap_or_default();
        println!("  EN 319 102-1: {}{sub}", named(serde_json::to_value(indication)).unwrap_or_default());
    }
    for covering in &s.hides_signed_content {
        println!("  HIDES SIGNED CONTENT: {covering}");
    }
    for e in &s.errors {
        println!("  error: {e}");
    }
    for w in &s.warnings {
        println!("  warning: {w}");
    }
}
