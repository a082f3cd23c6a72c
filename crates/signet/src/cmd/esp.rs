//! `signet esp`: the local test eSign Service Provider (Aadhaar eSign, CCA eSign API 2.1) that
//! Signet's ASP side talks to in development and demos. It runs on its own, never inside
//! `signet serve`.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use signet_test_esp::EspOptions;

const DEFAULT_LISTEN: &str = "127.0.0.1:8090";
const DEFAULT_DATA_DIR: &str = "signet-esp";

#[derive(Subcommand, Debug)]
pub enum EspCommand {
    /// Run the test ESP: POST /2.1/form/signdoc, the Aadhaar and OTP pages, /ca.cer, /esp.cer,
    /// /crl, /ocsp and /outbox (the OTPs). Keys and records live in --data-dir.
    Serve(EspServeArgs),
    /// Register (or replace) an ASP: its aspId and the certificate that signs its requests.
    /// A running ESP picks it up at its next request.
    RegisterAsp(EspRegisterArgs),
}

#[derive(Args, Debug)]
pub struct EspServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = DEFAULT_LISTEN)]
    pub listen: String,
    /// Folder for the ESP's keys, registered ASPs, identities and records.
    #[arg(long, default_value = DEFAULT_DATA_DIR)]
    pub data_dir: PathBuf,
    /// Make every OTP this code (tests, demos); otherwise OTPs are random and shown on /outbox.
    #[arg(long)]
    pub fixed_otp: Option<String>,
    /// Base URL announced in signer certificates (CRL, OCSP, CA URLs) [default: http://<listen>].
    #[arg(long)]
    pub public_url: Option<String>,
    /// Signer certificates name only the CRL, no OCSP responder (a CRL-only CA).
    #[arg(long)]
    pub crl_only: bool,
}

#[derive(Args, Debug)]
pub struct EspRegisterArgs {
    /// The ASP's request-signing certificate, PEM or DER.
    #[arg(long)]
    pub cert: PathBuf,
    /// The aspId its requests carry.
    #[arg(long)]
    pub asp_id: String,
    /// The ESP's data folder.
    #[arg(long, default_value = DEFAULT_DATA_DIR)]
    pub data_dir: PathBuf,
}

pub fn run(command: EspCommand) -> anyhow::Result<()> {
    match command {
        EspCommand::Serve(args) => serve(args),
        EspCommand::RegisterAsp(args) => register(&args),
    }
}

fn register(args: &EspRegisterArgs) -> anyhow::Result<()> {
    let certificate = std::fs::read(&args.cert).with_context(|| format!("cannot read {}", args.cert.display()))?;
    signet_test_esp::register_asp(&args.data_dir, &args.asp_id, &certificate)
        .with_context(|| format!("cannot register {}", args.cert.display()))?;
    println!("registered ASP {} in {}", args.asp_id, args.data_dir.join("asps.json").display());
    Ok(())
}

fn serve(args: EspServeArgs) -> anyhow::Result<()> {
    signet_server::observe::init_logging(signet_server::config::LogFormat::Text);
    let mut options = EspOptions::new(args.data_dir);
    options.fixed_otp = args.fixed_otp;
    options.public_url = args.public_url;
    options.crl_only = args.crl_only;
    super::runtime()?.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        // Absolute, so that they can be pasted into an ASP's configuration from anywhere.
        let ca = std::path::absolute(options.ca_certificate_path())?;
        let esp_certificate = std::path::absolute(options.esp_certificate_path())?;
        let running = signet_test_esp::spawn(options, listener).await?;
        let base = &running.base_url;
        println!("signet test ESP listening on {base}  (eSign 2.1 form: {base}/2.1/form/signdoc, OTPs: {base}/outbox)");
        println!("ESP certificate (signs EsignResp, pin it in the ASP): {}", esp_certificate.display());
        println!("Test eSign CA (issues signer certificates, trust it in the ASP): {}", ca.display());
        super::serve::shutdown_signal().await;
        running.stop().await;
        Ok(())
    })
}
