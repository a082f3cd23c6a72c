//! `signet ca`: a local certificate authority for development and tests.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use signet_sigcrypto::pki::{self, IssueOptions, KeyAlgo, LocalCa};

const CRL_VALIDITY: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 3600);

/// Password of `signer.p12` when `--password` is not given.
pub const DEFAULT_P12_PASSWORD: &str = "signet";

#[derive(Subcommand, Debug)]
pub enum CaCommand {
    /// Create a test CA in DIR: ca.pem/ca.cer (trust anchor), ca.key, ca.crl (empty),
    /// signer.p12 (+ signer.pem/.key), tsa.pem/tsa.key (RFC 3161 TSA, with tsa.cnf for
    /// `openssl ts -reply`) and ocsp.pem/ocsp.key (OCSP responder).
    Init(CaInitArgs),
    /// Issue another signing certificate (PKCS#12) from the CA in DIR.
    Issue(CaIssueArgs),
}

#[derive(Args, Debug)]
pub struct UrlArgs {
    /// AIA OCSP URL put into the signer and TSA certificates (for B-LT).
    #[arg(long)]
    pub ocsp_url: Option<String>,
    /// CRL distribution point put into the signer and TSA certificates (for B-LT).
    #[arg(long)]
    pub crl_url: Option<String>,
    /// AIA caIssuers URL (where ca.pem/ca.cer is served).
    #[arg(long)]
    pub ca_issuers_url: Option<String>,
}

impl UrlArgs {
    fn issue_options(&self) -> IssueOptions {
        IssueOptions {
            ocsp_url: self.ocsp_url.clone(),
            crl_url: self.crl_url.clone(),
            ca_issuers_url: self.ca_issuers_url.clone(),
            ..Default::default()
        }
    }
}

#[derive(Args, Debug)]
pub struct CaInitArgs {
    pub dir: PathBuf,
    /// Password protecting signer.p12.
    #[arg(long, default_value = DEFAULT_P12_PASSWORD)]
    pub password: String,
    /// Common name of the signing certificate.
    #[arg(long, default_value = "Signet Test Signer")]
    pub signer_name: String,
    /// Signer key: rsa2048, rsa3072 or ec-p256.
    #[arg(long, default_value = "rsa2048")]
    pub key: String,
    /// Replace an existing CA in DIR.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub urls: UrlArgs,
}

#[derive(Args, Debug)]
pub struct CaIssueArgs {
    /// Directory made by `signet ca init` (reads ca.pem and ca.key).
    pub dir: PathBuf,
    /// Common name of the new certificate.
    #[arg(long)]
    pub name: String,
    /// Where to write the PKCS#12 file (the .pem/.key go next to it).
    #[arg(short, long)]
    pub out: PathBuf,
    #[arg(long, default_value = DEFAULT_P12_PASSWORD)]
    pub password: String,
    #[arg(long, default_value = "rsa2048")]
    pub key: String,
    #[command(flatten)]
    pub urls: UrlArgs,
}

pub fn run(command: CaCommand) -> anyhow::Result<()> {
    match command {
        CaCommand::Init(args) => init(&args),
        CaCommand::Issue(args) => issue(&args),
    }
}

fn key_algo(name: &str) -> anyhow::Result<KeyAlgo> {
    Ok(match name.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
        "rsa2048" => KeyAlgo::Rsa2048,
        "rsa3072" => KeyAlgo::Rsa3072,
        "rsa4096" => KeyAlgo::Rsa4096,
        "ecp256" | "p256" | "ec" => KeyAlgo::EcP256,
        _ => bail!("unknown key type {name:?} (rsa2048, rsa3072, rsa4096, ec-p256)"),
    })
}

fn init(args: &CaInitArgs) -> anyhow::Result<()> {
    let dir = &args.dir;
    if dir.join("ca.pem").exists() && !args.force {
        bail!("{} already holds a CA (use --force to replace it)", dir.display());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let algo = key_algo(&args.key)?;
    let ca = LocalCa::generate("Signet Local Test CA")?;
    let opts = args.urls.issue_options();
    let signer = ca.issue_signer_with(&args.signer_name, algo, &opts)?;
    let tsa = ca.issue_tsa_with("Signet Local Test TSA", &opts)?;
    let ocsp = ca.issue_ocsp_responder("Signet Local Test OCSP Responder")?;
    let chain = vec![ca.cert_der().to_vec()];
    write(dir, "ca.pem", ca.cert_pem().as_bytes(), false)?;
    write(dir, "ca.cer", ca.cert_der(), false)?;
    write(dir, "ca.key", ca.key_pem().as_bytes(), true)?;
    // An empty CRL, so a CRL distribution point URL can be served from DIR as is.
    write(dir, "ca.crl", &ca.issue_crl(&[], CRL_VALIDITY)?, false)?;
    write(dir, "signer.p12", &pki::write_p12(&signer.key_pkcs8_der, &signer.cert_der, &chain, &args.password)?, true)?;
    write(dir, "signer.pem", signer.cert_pem().as_bytes(), false)?;
    write(dir, "signer.key", signer.key_pem().as_bytes(), true)?;
    write(dir, "tsa.pem", tsa.cert_pem().as_bytes(), false)?;
    write(dir, "tsa.key", tsa.key_pem().as_bytes(), true)?;
    write(dir, "ocsp.pem", ocsp.cert_pem().as_bytes(), false)?;
    write(dir, "ocsp.key", ocsp.key_pem().as_bytes(), true)?;
    write(dir, "tsaserial", b"01\n", false)?;
    write(dir, "tsa.cnf", TSA_CNF.as_bytes(), false)?;
    println!("{}", dir.display());
    Ok(())
}

/// `openssl ts -reply -config tsa.cnf` in DIR answers time-stamp requests with tsa.pem.
const TSA_CNF: &str = "[ tsa ]\ndefault_tsa = tsa1\n[ tsa1 ]\ndir = .\nserial = ./tsaserial\n\
crypto_device = builtin\nsigner_cert = ./tsa.pem\ncerts = ./ca.pem\nsigner_key = ./tsa.key\n\
signer_digest = sha256\ndefault_policy = 1.2.3.4.1\ndigests = sha256, sha384, sha512\naccuracy = secs:1\n\
ordering = no\ntsa_name = yes\ness_cert_id_chain = no\ness_cert_id_alg = sha256\n";

fn issue(args: &CaIssueArgs) -> anyhow::Result<()> {
    let read = |name: &str| {
        std::fs::read_to_string(args.dir.join(name))
            .with_context(|| format!("cannot read {}", args.dir.join(name).display()))
    };
    let ca = LocalCa::from_pem(&read("ca.pem")?, &read("ca.key")?)?;
    let cert = ca.issue_signer_with(&args.name, key_algo(&args.key)?, &args.urls.issue_options())?;
    let p12 = pki::write_p12(&cert.key_pkcs8_der, &cert.cert_der, &[ca.cert_der().to_vec()], &args.password)?;
    let parent = args.out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let stem = args.out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "signer".into());
    write(parent, &format!("{stem}.pem"), cert.cert_pem().as_bytes(), false)?;
    write(parent, &format!("{stem}.key"), cert.key_pem().as_bytes(), true)?;
    std::fs::write(&args.out, p12).with_context(|| format!("cannot write {}", args.out.display()))?;
    println!("{}", args.out.display());
    Ok(())
}

/// Write a file; private keys are readable by the owner only.
fn write(dir: &Path, name: &str, bytes: &[u8], secret: bool) -> anyhow::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let path = dir.join(name);
    let mode = if secret { 0o600 } else { 0o644 };
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(mode)
        .open(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    f.write_all(bytes).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
