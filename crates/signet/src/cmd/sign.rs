//! `signet sign pdf|data|xml|hash`.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use signet_signing::{
    BoxSpec, DataSignOptions, HttpConfig, LocalKeySigner, NameStyle, PadesLevel, PageSelection, PdfSignOptions,
    Position, Visible,
};

#[derive(Subcommand, Debug)]
pub enum SignCommand {
    /// Sign PDFs (PAdES B-B, B-T, B-LT, B-LTA), several at once on every core.
    Pdf(Box<SignPdfArgs>),
    /// CMS/CAdES signature over a file, attached (.p7m) or detached (.p7s).
    Data(SignDataArgs),
    /// Enveloped XML-DSig (optionally XAdES-BES).
    Xml(SignXmlArgs),
    /// CMS over given SHA-256 digests (the document never leaves its owner).
    Hash(SignHashArgs),
}

#[derive(Args, Debug)]
pub struct KeyArgs {
    /// PKCS#12 file with the signing key and certificate chain.
    #[arg(long)]
    pub p12: PathBuf,
    /// Password of the PKCS#12 file.
    #[arg(long, env = "SIGNET_P12_PASSWORD", hide_env_values = true)]
    pub password: String,
}

impl KeyArgs {
    /// Load and parse the key once; every signature reuses it.
    fn signer(&self) -> anyhow::Result<LocalKeySigner> {
        let bytes = std::fs::read(&self.p12).with_context(|| format!("cannot read {}", self.p12.display()))?;
        LocalKeySigner::from_p12(&bytes, &self.password).with_context(|| format!("{}", self.p12.display()))
    }
}

#[derive(Args, Debug)]
pub struct TsaArgs {
    /// RFC 3161 time-stamp authority URL.
    #[arg(long)]
    pub tsa: Option<String>,
}

/// The CLI runs with its operator's authority, so TSA/OCSP/CRL URLs on private networks are
/// allowed here (the server keeps the default SSRF guard).
fn http_config() -> HttpConfig {
    HttpConfig::allow_private()
}

#[derive(Args, Debug)]
pub struct SignPdfArgs {
    /// Input PDF files.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output file (only with one input).
    #[arg(short, long, conflicts_with = "out_dir")]
    pub out: Option<PathBuf>,
    /// Output directory (one signed file per input, same file name).
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    #[command(flatten)]
    pub key: KeyArgs,
    /// PAdES level: b-b, b-t, b-lt or b-lta.
    #[arg(long, default_value = "b-b")]
    pub level: String,
    #[command(flatten)]
    pub tsa: TsaArgs,
    /// Draw a visible signature (implied by --pages, --position, --rect, --page-boxes, --image).
    #[arg(long)]
    pub visible: bool,
    /// Pages with a box: ALL, FIRST, LAST, EVEN, ODD or a list like 1,3,5.
    #[arg(long)]
    pub pages: Option<String>,
    /// Named position: Top-Left ... Bottom-Right (nine positions).
    #[arg(long, conflicts_with = "rect")]
    pub position: Option<String>,
    /// Custom box left,top,width,height in points from the page's top-left corner.
    #[arg(long)]
    pub rect: Option<String>,
    /// Page-level boxes page,left,top,width,height;... (overrides --pages/--position/--rect).
    #[arg(long)]
    pub page_boxes: Option<String>,
    /// Signer name shown in the box and in /Name (default: the certificate's common name).
    #[arg(long)]
    pub name: Option<String>,
    /// Draw the name in a handwriting-like font.
    #[arg(long)]
    pub handwriting: bool,
    /// Signature image (PNG with transparency, or JPEG).
    #[arg(long)]
    pub image: Option<PathBuf>,
    #[arg(long)]
    pub reason: Option<String>,
    #[arg(long)]
    pub location: Option<String>,
    /// Certification signature (DocMDP P=2: form filling and signing stay allowed).
    #[arg(long)]
    pub certify: bool,
    /// Signature field name (an existing empty field is filled).
    #[arg(long)]
    pub field: Option<String>,
}

#[derive(Args, Debug)]
pub struct SignDataArgs {
    pub input: PathBuf,
    #[arg(short, long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub key: KeyArgs,
    /// Detached signature (the data is not embedded).
    #[arg(long)]
    pub detached: bool,
    /// Write PEM ("-----BEGIN CMS-----") instead of DER.
    #[arg(long)]
    pub pem: bool,
    #[command(flatten)]
    pub tsa: TsaArgs,
}

#[derive(Args, Debug)]
pub struct SignXmlArgs {
    pub input: PathBuf,
    #[arg(short, long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub key: KeyArgs,
    /// Add XAdES-BES qualifying properties.
    #[arg(long)]
    pub xades: bool,
}

#[derive(Args, Debug)]
pub struct SignHashArgs {
    /// SHA-256 digest as 64 hex digits or base64.
    #[arg(long, required_unless_present = "hashes", conflicts_with = "hashes")]
    pub sha256: Option<String>,
    /// File with one SHA-256 digest per line (hex or base64); writes DIR/<hex>.p7s each.
    #[arg(long, requires = "out_dir")]
    pub hashes: Option<PathBuf>,
    /// Output CMS (DER) for --sha256.
    #[arg(short, long, conflicts_with = "out_dir", required_unless_present = "out_dir")]
    pub out: Option<PathBuf>,
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    #[command(flatten)]
    pub key: KeyArgs,
    #[command(flatten)]
    pub tsa: TsaArgs,
}

pub fn run(command: SignCommand) -> anyhow::Result<()> {
    match command {
        SignCommand::Pdf(args) => sign_pdf(&args),
        SignCommand::Data(args) => sign_data(&args),
        SignCommand::Xml(args) => sign_xml(&args),
        SignCommand::Hash(args) => sign_hash(&args),
    }
}

// ---------------------------------------------------------------------------------------------
// PDF
// ---------------------------------------------------------------------------------------------

fn sign_pdf(args: &SignPdfArgs) -> anyhow::Result<()> {
    let jobs = output_paths(args)?;
    let opts = pdf_options(args)?;
    let signer = args.key.signer()?;
    let failures = sign_all(&jobs, &signer, &opts);
    report_peak_rss();
    match failures.as_slice() {
        [] => Ok(()),
        [(input, error)] if jobs.len() == 1 => bail!("{}: {error:#}", input.display()),
        _ => {
            for (input, error) in &failures {
                eprintln!("signet: {}: {error:#}", input.display());
            }
            bail!("{} of {} files could not be signed", failures.len(), jobs.len())
        }
    }
}

/// (input, output) pairs; refuses to overwrite an input.
fn output_paths(args: &SignPdfArgs) -> anyhow::Result<Vec<(PathBuf, PathBuf)>> {
    let pairs: Vec<(PathBuf, PathBuf)> = match (&args.out, &args.out_dir) {
        (Some(out), None) => {
            if args.inputs.len() != 1 {
                bail!("-o takes one input; use --out-dir for {} inputs", args.inputs.len());
            }
            vec![(args.inputs[0].clone(), out.clone())]
        }
        (None, Some(dir)) => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            let mut pairs = Vec::with_capacity(args.inputs.len());
            for input in &args.inputs {
                let name = input.file_name().with_context(|| format!("{} is not a file", input.display()))?;
                pairs.push((input.clone(), dir.join(name)));
            }
            pairs
        }
        _ => bail!("give either -o OUT or --out-dir DIR"),
    };
    for (input, output) in &pairs {
        if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize())
            && a == b
        {
            bail!("{}: refusing to overwrite the input", input.display());
        }
    }
    Ok(pairs)
}

fn pdf_options(args: &SignPdfArgs) -> anyhow::Result<PdfSignOptions> {
    let level: PadesLevel = args.level.parse()?;
    let visible = args.visible
        || args.pages.is_some()
        || args.position.is_some()
        || args.rect.is_some()
        || args.page_boxes.is_some()
        || args.image.is_some();
    Ok(PdfSignOptions {
        level,
        tsa_url: args.tsa.tsa.clone(),
        http: http_config(),
        visible: if visible { Some(visible_options(args)?) } else { None },
        name: args.name.clone(),
        reason: args.reason.clone(),
        location: args.location.clone(),
        certify: args.certify,
        field_name: args.field.clone(),
        ..Default::default()
    })
}

fn visible_options(args: &SignPdfArgs) -> anyhow::Result<Visible> {
    let rect = match (&args.position, &args.rect) {
        (Some(p), _) => BoxSpec::Named(Position::parse(p)?),
        (None, Some(r)) => BoxSpec::parse_custom(r)?,
        (None, None) => BoxSpec::Named(Position::BottomRight),
    };
    let image = match &args.image {
        Some(p) => Some(std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?),
        None => None,
    };
    Ok(Visible {
        pages: match &args.pages {
            Some(p) => PageSelection::parse(p)?,
            None => PageSelection::First,
        },
        rect,
        page_boxes: args.page_boxes.as_deref().map(signet_signing::parse_page_boxes).transpose()?,
        typed_name: args.name.clone(),
        name_style: if args.handwriting { NameStyle::Handwriting } else { NameStyle::Plain },
        image,
        show_details: true,
        marks: Vec::new(),
        // The CLI writes the appearance's date in India Standard Time, the platform's default.
        zone: signet_signing::Zone::default(),
    })
}

/// Sign every job on all cores; returns the failures.
fn sign_all(
    jobs: &[(PathBuf, PathBuf)],
    signer: &LocalKeySigner,
    opts: &PdfSignOptions,
) -> Vec<(PathBuf, anyhow::Error)> {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let progress = crate::progress::Progress::new(jobs.len() as u64, "files");
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(jobs.len()).max(1);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((input, output)) = jobs.get(i) else { break };
                    let signed = signet_signing::sign_pdf_file(input, output, signer, opts);
                    progress.advance(signed.is_ok());
                    if let Err(e) = signed {
                        // A poisoned lock only means another worker panicked; keep the list.
                        let mut list = failures.lock().unwrap_or_else(|p| p.into_inner());
                        // Display only: the lower crates' messages already include their cause.
                        list.push((input.clone(), anyhow::anyhow!("{e}")));
                    }
                }
            });
        }
    });
    progress.finish();
    let mut list = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    list.sort_by(|a, b| a.0.cmp(&b.0));
    list
}

/// With SIGNET_REPORT_PEAK_RSS set, print this process's peak resident memory (the
/// benchmark reads it: a child cannot be measured from outside without unsafe code).
fn report_peak_rss() {
    if std::env::var_os("SIGNET_REPORT_PEAK_RSS").is_none() {
        return;
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    if let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:")) {
        let kb: String = line.chars().filter(char::is_ascii_digit).collect();
        eprintln!("peak_rss_kb={kb}");
    }
}

// ---------------------------------------------------------------------------------------------
// Data, XML, hash
// ---------------------------------------------------------------------------------------------

fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

fn data_options(detached: bool, tsa: &TsaArgs) -> DataSignOptions {
    DataSignOptions { detached, tsa_url: tsa.tsa.clone(), http: http_config() }
}

fn sign_data(args: &SignDataArgs) -> anyhow::Result<()> {
    let data = read(&args.input)?;
    let signer = args.key.signer()?;
    let cms = signet_signing::sign_data(&data, &signer, &data_options(args.detached, &args.tsa))?;
    if args.pem { write(&args.out, pem("CMS", &cms).as_bytes()) } else { write(&args.out, &cms) }
}

fn pem(label: &str, der: &[u8]) -> String {
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for chunk in b64.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(chunk));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

fn sign_xml(args: &SignXmlArgs) -> anyhow::Result<()> {
    let xml = read(&args.input)?;
    let signer = args.key.signer()?;
    let signed = signet_signing::sign_xml(&xml, &signer, args.xades)?;
    write(&args.out, &signed)
}

fn sign_hash(args: &SignHashArgs) -> anyhow::Result<()> {
    let signer = args.key.signer()?;
    let opts = data_options(true, &args.tsa);
    if let Some(text) = &args.sha256 {
        let digest = signet_signing::parse_sha256(text)?;
        let cms = signet_signing::sign_hash(&digest, &signer, &opts)?;
        return match (&args.out, &args.out_dir) {
            (Some(out), _) => write(out, &cms),
            (None, Some(dir)) => write(&dir.join(format!("{}.p7s", hex::encode(digest))), &cms),
            (None, None) => bail!("give -o OUT or --out-dir DIR"),
        };
    }
    let (Some(list), Some(dir)) = (&args.hashes, &args.out_dir) else {
        bail!("give --sha256 HEX with -o OUT, or --hashes FILE with --out-dir DIR");
    };
    let text = String::from_utf8(read(list)?).context("the hash list is not text")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let digest =
            signet_signing::parse_sha256(line).with_context(|| format!("{} line {}", list.display(), n + 1))?;
        let cms = signet_signing::sign_hash(&digest, &signer, &opts)?;
        write(&dir.join(format!("{}.p7s", hex::encode(digest))), &cms)?;
    }
    Ok(())
}
