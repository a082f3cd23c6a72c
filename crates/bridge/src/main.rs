//! `signet-bridge`: the signer utility. For now its token commands, which also serve support
//! staff to see what a signer's token holds:
//!
//!   signet-bridge tokens --module PATH
//!   signet-bridge certificates --module PATH --token SERIAL
//!   signet-bridge sign --module PATH --token SERIAL --key-id HEX --digest HEX [--digest HEX ...]
//!   signet-bridge serve [--module PATH] --allow-origin https://sign.example.com [--port N] [--data-dir DIR] [--pad-simulator] [--no-install-ca]
//!   signet-bridge install-ca [--data-dir DIR]
//!
//! `sign` reads the PIN from the first line of standard input (never from the command line,
//! where other users could see it). Output is JSON; an error is one line on stderr, exit 1.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use clap::{Parser, Subcommand};
use serde_json::json;
use signet_bridge::token::Tokens;

#[derive(Parser)]
#[command(name = "signet-bridge", version, about = "Signet's signer utility: crypto tokens through PKCS#11")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The inserted tokens.
    Tokens {
        /// The token's PKCS#11 module (driver library).
        #[arg(long)]
        module: PathBuf,
    },
    /// A token's certificates that can sign now.
    Certificates {
        #[arg(long)]
        module: PathBuf,
        /// The token's serial number.
        #[arg(long)]
        token: String,
    },
    /// Signs SHA-256 digests with one PIN entry (the PIN is read from standard input).
    Sign {
        #[arg(long)]
        module: PathBuf,
        #[arg(long)]
        token: String,
        /// The key's id (hex), as `certificates` shows it.
        #[arg(long)]
        key_id: String,
        /// A SHA-256 digest in hex; repeat for a batch.
        #[arg(long, required = true)]
        digest: Vec<String>,
    },
    /// The loopback HTTPS service for the signer page. Prints one JSON line with its address
    /// and the CA certificate to trust, then serves until stopped.
    Serve {
        /// The token's PKCS#11 module; without it only a signature pad is served.
        #[arg(long)]
        module: Option<PathBuf>,
        /// A Signet installation whose pages may use the bridge (repeat for several).
        #[arg(long = "allow-origin", required = true)]
        allow_origin: Vec<String>,
        /// A fixed port (0: any free one); by default 45763, else the next three.
        #[arg(long)]
        port: Option<u16>,
        /// Where the bridge keeps its local CA (default: .signet-bridge in the home folder).
        #[arg(long)]
        data_dir: Option<PathBuf>,
        /// Report a connected signature pad whose signer always writes the same flourish.
        #[arg(long)]
        pad_simulator: bool,
        /// Do not put a newly made CA into this user's certificate stores (see install-ca).
        #[arg(long)]
        no_install_ca: bool,
    },
    /// Puts the bridge's CA (loopback names only) into this user's certificate stores, so that
    /// browsers accept the bridge: NSS databases on Linux (Chromium, Chrome, Firefox), the
    /// user's root store on Windows, the login keychain on macOS. `serve` does it on its first
    /// start.
    InstallCa {
        /// Where the bridge keeps its local CA (default: .signet-bridge in the home folder).
        #[arg(long)]
        data_dir: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse().command) {
        Ok(output) => {
            println!("{output}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("signet-bridge: {message}");
            ExitCode::FAILURE
        }
    }
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

fn run(command: Command) -> Result<serde_json::Value, String> {
    match command {
        Command::Serve { module, allow_origin, port, data_dir, pad_simulator, no_install_ca } => {
            serve(module, allow_origin, port, data_dir, pad_simulator, !no_install_ca)
        }
        Command::InstallCa { data_dir } => {
            let identity = signet_bridge::service::server_identity(&bridge_dir(data_dir)?)?;
            let stores = signet_bridge::trust::install(&identity.ca_path)?;
            Ok(json!({"ca": identity.ca_path, "trusted": stores}))
        }
        Command::Tokens { module } => {
            let tokens = Tokens::open(&module).map_err(|e| e.to_string())?;
            Ok(json!(tokens.list().map_err(|e| e.to_string())?))
        }
        Command::Certificates { module, token } => {
            let tokens = Tokens::open(&module).map_err(|e| e.to_string())?;
            let certificates = tokens.certificates(&token, now()).map_err(|e| e.to_string())?;
            Ok(json!(
                certificates
                    .iter()
                    .map(|c| json!({"keyId": c.key_id, "label": c.label, "subject": c.subject,
                    "certificate": STANDARD.encode(&c.der)}))
                    .collect::<Vec<_>>()
            ))
        }
        Command::Sign { module, token, key_id, digest } => {
            let digests = digest
                .iter()
                .map(|d| hex::decode(d.trim()).ok().and_then(|b| <[u8; 32]>::try_from(b).ok()))
                .collect::<Option<Vec<[u8; 32]>>>()
                .ok_or("each --digest must be 64 hexadecimal digits")?;
            let mut pin = String::new();
            std::io::stdin().lock().read_line(&mut pin).map_err(|e| format!("cannot read the PIN: {e}"))?;
            let pin = pin.trim_end_matches(['\r', '\n']);
            let tokens = Tokens::open(&module).map_err(|e| e.to_string())?;
            let certificate = tokens
                .certificates(&token, now())
                .map_err(|e| e.to_string())?
                .into_iter()
                .find(|c| c.key_id.eq_ignore_ascii_case(&key_id))
                .ok_or("no certificate with this key id can sign now")?;
            let signatures = tokens
                .sign_digests(&token, &certificate.key_id, &certificate.der, pin, &digests)
                .map_err(|e| e.to_string())?;
            Ok(json!(signatures.iter().map(|s| STANDARD.encode(s)).collect::<Vec<_>>()))
        }
    }
}

fn bridge_dir(data_dir: Option<PathBuf>) -> Result<PathBuf, String> {
    data_dir
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".signet-bridge")))
        .ok_or_else(|| "no --data-dir and no HOME".to_string())
}

fn serve(
    module: Option<PathBuf>,
    allowed_origins: Vec<String>,
    port: Option<u16>,
    data_dir: Option<PathBuf>,
    pad_simulator: bool,
    install_ca: bool,
) -> Result<serde_json::Value, String> {
    use signet_bridge::service::{self, Bridge, DEFAULT_PORT, PORT_FALLBACKS};
    if let Some(bad) =
        allowed_origins.iter().find(|o| !(o.starts_with("https://") || o.starts_with("http://")) || o.ends_with('/'))
    {
        return Err(format!("--allow-origin {bad}: an origin is scheme://host[:port], without a path"));
    }
    let identity = service::server_identity(&bridge_dir(data_dir)?)?;
    // A new CA is trusted at once; a failure is reported, not fatal (install-ca retries it).
    let trusted = match (install_ca && identity.new_ca).then(|| signet_bridge::trust::install(&identity.ca_path)) {
        None => json!(null),
        Some(Ok(stores)) => json!(stores),
        Some(Err(message)) => {
            eprintln!("signet-bridge: the CA is not trusted yet: {message}");
            json!([])
        }
    };
    let service::Identity { cert_der: cert, key_der: key, ca_path, .. } = identity;
    let tokens = match module {
        Some(module) => Some(Tokens::open(&module).map_err(|e| e.to_string())?),
        None => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let ports: Vec<u16> = match port {
            Some(p) => vec![p],
            None => (0..=PORT_FALLBACKS).map(|i| DEFAULT_PORT + i).collect(),
        };
        let mut listener = None;
        for p in ports {
            if let Ok(l) = tokio::net::TcpListener::bind(("127.0.0.1", p)).await {
                listener = Some(l);
                break;
            }
        }
        let listener = listener.ok_or("every port of the bridge is taken")?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        let bridge =
            std::sync::Arc::new(Bridge { tokens: tokens.map(std::sync::Mutex::new), allowed_origins, pad_simulator });
        println!(
            "{}",
            json!({"url": format!("https://127.0.0.1:{}", address.port()), "ca": ca_path, "trusted": trusted})
        );
        use std::io::Write;
        let _ = std::io::stdout().flush();
        service::serve_tls(listener, cert, key, service::router(bridge)).await?;
        Ok(json!(null))
    })
}
