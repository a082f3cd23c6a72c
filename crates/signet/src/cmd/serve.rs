use std::path::PathBuf;

use clap::Args;
use signet_server::config::{Config, Overrides};
use signet_server::{App, observe};

/// Where settings come from; shared by `serve` and `migrate`.
#[derive(Args, Debug, Clone)]
pub struct ConfigArgs {
    /// Folder for the embedded database, documents and keys [default: ./signet-data].
    #[arg(long, env = "SIGNET_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// A TOML settings file.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// sqlite://PATH or postgres://... [default: SQLite in the data folder].
    #[arg(long, env = "SIGNET_DATABASE_URL")]
    pub database_url: Option<String>,
}

impl ConfigArgs {
    pub fn load(&self, listen: Option<String>, blob_url: Option<String>) -> anyhow::Result<Config> {
        let overrides =
            Overrides { data_dir: self.data_dir.clone(), listen, database_url: self.database_url.clone(), blob_url };
        Config::load(self.config.as_deref(), &overrides).map_err(anyhow::Error::from)
    }
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Address to listen on [default: 127.0.0.1:8080].
    #[arg(long, env = "SIGNET_LISTEN")]
    pub listen: Option<String>,
    /// Blob store: a folder, file:///..., or s3://bucket/prefix?endpoint=... [default: <data-dir>/blobs].
    #[arg(long, env = "SIGNET_BLOB_URL")]
    pub blob_url: Option<String>,
}

#[derive(Args, Debug)]
pub struct MigrateArgs {
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = terminate => {}
    }
}

pub fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let config = args.config.load(args.listen, args.blob_url)?;
    observe::init_logging(config.log_format);
    super::runtime()?.block_on(async move {
        let app = App::build(config).await?;
        let addr = app.local_addr()?;
        let backend = format!("{:?}", app.store.backend()).to_lowercase();
        println!("signet listening on http://{addr} ({backend} database, blobs: {})", app.state.services.blob);
        println!("Console: http://{addr}/app  (staff sign in here; anyone checks a signed file at http://{addr}/verify)");
        println!("API docs: http://{addr}/api/docs  (OpenAPI: http://{addr}/api/v1/openapi.json)");
        let segment = &app.state.services.config.gateway_segment;
        println!("Signing gateway: http://{addr}/{segment}/V3_0/Index  (certificate: http://{addr}/{segment}/certificate.cer)");
        tracing::info!(%addr, "listening");
        app.run(shutdown_signal()).await
    })
}

pub fn migrate(args: MigrateArgs) -> anyhow::Result<()> {
    let config = args.config.load(None, None)?;
    super::runtime()?.block_on(async move {
        let store = signet_server::app::open_store(&config).await?;
        store.close().await;
        println!("migrations applied to {}", redact(&config.database_url()));
        Ok(())
    })
}

/// A database URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let credentials = &url[scheme_end + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme_end + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}
