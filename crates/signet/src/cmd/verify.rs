//! `signet verify FILE [--trust PEM] [--at RFC3339] [--json | --etsi-xml | --etsi-json]`: a
//! report per signature (Signet's, or ETSI TS 119 102-2's in XML or JSON); success only when
//! every signature is intact, chains to the trust store and was not invalidated later.
//! Verification never goes to the network: it judges from what the file carries.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use signet_signing::{Report, SignatureReport};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

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
    /// Validate as at this time (RFC 3339, e.g. 2041-12-06T00:00:00Z) instead of now: a
    /// signature whose certificates have expired by then passes when time-stamps prove it
    /// existed while they were valid (long-term validation).
    #[arg(long, value_parser = parse_rfc3339)]
    pub at: Option<OffsetDateTime>,
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
    let validation_time = args.at.map(unix_seconds).transpose()?;
    let report = signet_signing::verify_file_with(&bytes, content.as_deref(), &trust, validation_time)
        .with_context(|| format!("{}", args.file.display()))?;
    if args.etsi_xml || args.etsi_json {
        let etsi = match args.at {
            Some(at) => signet_signing::etsi::ValidationReport::of(&report, &at.format(&Rfc3339)?),
            None => signet_signing::etsi::ValidationReport::of_now(&report),
        }
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

fn parse_rfc3339(text: &str) -> Result<OffsetDateTime, String> {
    OffsetDateTime::parse(text, &Rfc3339)
        .map(|t| t.to_offset(time::UtcOffset::UTC))
        .map_err(|e| format!("not an RFC 3339 time (e.g. 2041-12-06T00:00:00Z): {e}"))
}

/// Validation times before 1970 name no time any certificate here was valid at.
fn unix_seconds(at: OffsetDateTime) -> anyhow::Result<u64> {
    u64::try_from(at.unix_timestamp()).map_err(|_| anyhow::anyhow!("--at must be after 1970"))
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
    if let Some(t) = &s.validated_at {
        println!("  certificates checked at: {t}");
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
        let baseline = match s.kind.as_str() {
            "cms" => "CAdES",
            "xml-dsig" | "xades" => "XAdES",
            _ => "PAdES",
        };
        println!("  {baseline} level: {level}   revocation data: {}", yes_no(s.revocation_data));
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
