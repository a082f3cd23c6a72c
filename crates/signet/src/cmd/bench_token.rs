//! `signet bench token`: PDF signatures with a crypto token through a running signer utility
//! (`signet-bridge serve`), the way the signer page makes them: Signet prepares the document
//! for the token's certificate (signature field, placeholder, signed attributes), the bridge
//! signs the SHA-256 of the signed attributes on the token after the PIN, Signet checks the
//! signature and embeds it. Three runs over the same one-page PDFs (B-B, visible), one
//! thread each, as a signer works:
//!
//! - a local key of the same algorithm, in process (the reference);
//! - the token, one request (and one PIN entry) per document;
//! - the token, one bulk request for all documents: one PIN entry.
//!
//! `scripts/bench-token.sh` makes a SoftHSM2 token and starts the bridge for it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, anyhow, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use clap::Args;
use serde_json::{Value, json};
use signet_sigcrypto::pki::{self, KeyAlgo, LocalCa};
use signet_sigcrypto::signer::SigAlg;
use signet_signing::{LocalKeySigner, PreparedPdf, SignatureOrCms};

use super::bench_inputs::{Run, pdfsig_check, visible_options, write_pdf};

#[derive(Args, Debug)]
pub struct BenchTokenArgs {
    /// The bridge's address, as `signet-bridge serve` prints it.
    #[arg(long)]
    pub bridge: String,
    /// The bridge's CA certificate (PEM), as `signet-bridge serve` prints it.
    #[arg(long)]
    pub bridge_ca: PathBuf,
    /// An origin on the bridge's allow-list.
    #[arg(long)]
    pub origin: String,
    /// The token's serial number.
    #[arg(long)]
    pub token: String,
    /// The key's id (hex), as `signet-bridge certificates` shows it.
    #[arg(long)]
    pub key_id: String,
    /// A file holding the token's PIN.
    #[arg(long)]
    pub pin_file: PathBuf,
    /// Number of one-page PDFs.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Where the documents and signed copies go (kept).
    #[arg(long)]
    pub dir: PathBuf,
}

pub fn run(args: BenchTokenArgs) -> anyhow::Result<()> {
    if args.count == 0 || args.count > 1000 {
        bail!("--count must be 1 to 1000 (the bridge signs at most 1000 digests per PIN)");
    }
    let pin = std::fs::read_to_string(&args.pin_file)
        .with_context(|| format!("cannot read {}", args.pin_file.display()))?
        .trim_end_matches(['\r', '\n'])
        .to_string();
    super::runtime()?.block_on(bench(&args, &pin))
}

struct Bridge {
    http: reqwest::Client,
    args_base: String,
    origin: String,
    token: String,
    key_id: String,
}

impl Bridge {
    async fn certificate(&self) -> anyhow::Result<Vec<u8>> {
        let url = format!("{}/tokens/{}/certificates", self.args_base, self.token);
        let listed: Value =
            self.http.get(url).header("origin", &self.origin).send().await?.error_for_status()?.json().await?;
        let found = listed["certificates"]
            .as_array()
            .and_then(|all| {
                all.iter().find(|c| c["keyId"].as_str().is_some_and(|k| k.eq_ignore_ascii_case(&self.key_id)))
            })
            .ok_or_else(|| anyhow!("the token has no signing certificate with key id {}", self.key_id))?;
        Ok(STANDARD.decode(found["certificate"].as_str().unwrap_or_default())?)
    }

    /// The token's signatures of `hashes` (each SHA-256), one PIN entry for all.
    async fn sign(&self, pin: &str, hashes: &[&[u8]]) -> anyhow::Result<Vec<Vec<u8>>> {
        let url = format!("{}/tokens/{}/sign", self.args_base, self.token);
        let digests: Vec<String> = hashes.iter().map(hex::encode).collect();
        let body = json!({"keyId": self.key_id, "pin": pin, "digests": digests});
        let answer = self.http.post(url).header("origin", &self.origin).json(&body).send().await?;
        if !answer.status().is_success() {
            bail!("the bridge refused: {}", answer.text().await.unwrap_or_default());
        }
        let answer: Value = answer.json().await?;
        let signatures = answer["signatures"].as_array().ok_or_else(|| anyhow!("no signatures: {answer}"))?;
        signatures.iter().map(|s| Ok(STANDARD.decode(s.as_str().unwrap_or_default())?)).collect()
    }
}

async fn bench(args: &BenchTokenArgs, pin: &str) -> anyhow::Result<()> {
    let ca = std::fs::read(&args.bridge_ca).with_context(|| format!("cannot read {}", args.bridge_ca.display()))?;
    let http = reqwest::Client::builder().add_root_certificate(reqwest::Certificate::from_pem(&ca)?).build()?;
    let bridge = Bridge {
        http,
        args_base: args.bridge.trim_end_matches('/').to_string(),
        origin: args.origin.clone(),
        token: args.token.clone(),
        key_id: args.key_id.clone(),
    };
    let certificate = bridge.certificate().await?;
    let algorithm = SigAlg::for_certificate(&certificate)?;
    let inputs = make_pdfs(args.count)?;
    println!(
        "signet bench token: {} one-page PDFs, B-B visible, {} ({:?}); one thread each",
        args.count,
        pki::cert_common_name(&certificate).unwrap_or_default(),
        algorithm
    );

    let local = local_key(algorithm)?;
    let out = args.dir.join("out-local");
    let started = Instant::now();
    for (i, input) in inputs.iter().enumerate() {
        let signed = signet_signing::sign_pdf(input, &local, &visible_options())?;
        write(&out, i, &signed)?;
    }
    let local_run = Run { count: args.count, seconds: started.elapsed().as_secs_f64() };
    report("local key, in process", &local_run, None, &out);

    let out = args.dir.join("out-token-each");
    let started = Instant::now();
    for (i, input) in inputs.iter().enumerate() {
        let prepared = signet_signing::prepare_pdf(input, &certificate, &[], &visible_options())?;
        let signature = bridge.sign(pin, &[&prepared.hash_to_sign]).await?.remove(0);
        write(&out, i, &embed(&prepared, signature)?)?;
    }
    let each = Run { count: args.count, seconds: started.elapsed().as_secs_f64() };
    report("token, one PIN per document", &each, Some(&local_run), &out);

    let out = args.dir.join("out-token-bulk");
    let started = Instant::now();
    let prepared: Vec<PreparedPdf> = inputs
        .iter()
        .map(|input| signet_signing::prepare_pdf(input, &certificate, &[], &visible_options()))
        .collect::<Result<_, _>>()?;
    let hashes: Vec<&[u8]> = prepared.iter().map(|p| p.hash_to_sign.as_slice()).collect();
    let signatures = bridge.sign(pin, &hashes).await?;
    for (i, (prepared, signature)) in prepared.iter().zip(signatures).enumerate() {
        write(&out, i, &embed(prepared, signature)?)?;
    }
    let bulk = Run { count: args.count, seconds: started.elapsed().as_secs_f64() };
    report("token, one PIN for all (bulk)", &bulk, Some(&local_run), &out);
    Ok(())
}

fn embed(prepared: &PreparedPdf, signature: Vec<u8>) -> anyhow::Result<Vec<u8>> {
    Ok(signet_signing::complete_pdf_with(prepared, SignatureOrCms::Signature(signature), &visible_options())?)
}

fn report(what: &str, run: &Run, reference: Option<&Run>, out: &Path) {
    let ratio = reference.map(|r| format!(", {:.2} of the local key", run.rate() / r.rate())).unwrap_or_default();
    let check = pdfsig_check(&out.join("doc-0000.pdf"));
    println!("  {what:<32} {:>8.1} docs/s ({:.3} s for {}{ratio}) [{check}]", run.rate(), run.seconds, run.count);
}

/// A local key of the token key's algorithm, from a throwaway CA.
fn local_key(algorithm: SigAlg) -> anyhow::Result<LocalKeySigner> {
    let ca = LocalCa::generate_with("Signet Bench CA", KeyAlgo::EcP256)?;
    let algo = match algorithm {
        SigAlg::RsaPkcs1Sha256 => KeyAlgo::Rsa2048,
        SigAlg::EcdsaP256Sha256 => KeyAlgo::EcP256,
    };
    let signer = ca.issue_signer("Signet Bench Local Key", algo)?;
    Ok(LocalKeySigner::from_pkcs8(&signer.key_pkcs8_der, &signer.cert_der, vec![ca.cert_der().to_vec()])?)
}

fn make_pdfs(count: usize) -> anyhow::Result<Vec<Vec<u8>>> {
    (0..count)
        .map(|i| {
            let mut pdf = Vec::new();
            write_pdf(&mut pdf, &format!("Token benchmark document {i}"), 0)?;
            Ok(pdf)
        })
        .collect()
}

fn write(dir: &Path, i: usize, pdf: &[u8]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(format!("doc-{i:04}.pdf")), pdf)
        .with_context(|| format!("cannot write into {}", dir.display()))
}
