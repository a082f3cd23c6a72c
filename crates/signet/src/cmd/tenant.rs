use clap::{Args, Subcommand};
use serde_json::json;
use signet_domain::Error;
use signet_domain::audit::Actor;
use signet_server::{provision, secrets};
use signet_services::platform::tenant_deletion;

use super::serve::ConfigArgs;

#[derive(Subcommand, Debug)]
pub enum TenantCommand {
    /// Create a tenant with its administrator and API client; prints one JSON object.
    Create(TenantCreateArgs),
    /// Delete an organisation by crypto-shredding: refuse it, destroy its key in the key vault
    /// (backups taken before can no longer yield its documents), delete its documents and rows.
    /// Running it again finishes a deletion that was stopped; prints one JSON object.
    Delete(TenantDeleteArgs),
}

#[derive(Args, Debug)]
pub struct TenantDeleteArgs {
    #[arg(long)]
    pub tenant_id: i64,
    /// The organisation's name, exactly: a guard against deleting the wrong one.
    #[arg(long)]
    pub confirm_name: String,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Args, Debug)]
pub struct TenantCreateArgs {
    #[arg(long)]
    pub name: String,
    #[arg(long)]
    pub admin_email: String,
    /// The administrator's password; one is generated and printed when absent.
    #[arg(long)]
    pub admin_password: Option<String>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Subcommand, Debug)]
pub enum UserCommand {
    /// Disable a user: its tokens stop working at once and it can no longer log in.
    Disable(UserDisableArgs),
}

#[derive(Args, Debug)]
pub struct UserDisableArgs {
    #[arg(long)]
    pub tenant_id: i64,
    #[arg(long)]
    pub email: String,
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// A domain error as one line: validation failures name their fields.
fn describe(error: Error) -> anyhow::Error {
    match error {
        Error::Validation(fields) => anyhow::anyhow!(
            "{}",
            fields.iter().map(|(f, m)| format!("{f} {}", m.join(", "))).collect::<Vec<_>>().join("; ")
        ),
        other => anyhow::anyhow!("{other}"),
    }
}

pub fn run_tenant(command: TenantCommand) -> anyhow::Result<()> {
    match command {
        TenantCommand::Create(args) => create(args),
        TenantCommand::Delete(args) => delete(args),
    }
}

/// Deletes the organisation through the services as `serve` assembles them (the blobs and the
/// key vault as configured).
fn delete(args: TenantDeleteArgs) -> anyhow::Result<()> {
    let config = args.config.load(None, None)?;
    let blob = signet_blob::BlobStore::from_url(&config.blob_url(), &config.data_dir)?;
    let done = super::runtime()?.block_on(async move {
        let store = signet_server::app::open_store(&config).await?;
        // Runs where the organisation's vault file is already gone (a crash after step 2, or a
        // backup from before the deletion restored): keys that do not open are no reason to stop.
        let services = signet_services::Services::assemble_to_inspect(config, store.clone(), blob).await?;
        let actor = Actor { id: "cli".into(), ip: None };
        let done = tenant_deletion::delete_tenant(&services, args.tenant_id, &args.confirm_name, &actor).await;
        store.close().await;
        done.map_err(describe)
    })?;
    let rows: serde_json::Map<String, serde_json::Value> =
        done.rows_deleted.iter().map(|(table, n)| (table.clone(), json!(n))).collect();
    println!(
        "{}",
        json!({
            "tenant_id": done.tenant_id,
            "name": done.name,
            "deleted": true,
            "marked_now": done.marked,
            "key_destroyed": done.key_destroyed,
            "data_keys_destroyed": done.data_keys_destroyed,
            "blobs_deleted": done.blobs_deleted,
            "rows_deleted": rows,
        })
    );
    Ok(())
}

fn create(args: TenantCreateArgs) -> anyhow::Result<()> {
    provision::validate_email(&args.admin_email).map_err(describe)?;
    let config = args.config.load(None, None)?;
    let tenant = super::runtime()?.block_on(async move {
        let store = signet_server::app::open_store(&config).await?;
        let actor = Actor { id: "cli".into(), ip: None };
        let created =
            provision::create_tenant(&store, &args.name, &args.admin_email, args.admin_password.as_deref(), &actor)
                .await;
        store.close().await;
        created.map_err(describe)
    })?;
    let mut out = json!({
        "tenant_id": tenant.tenant_id,
        "client_id": tenant.client_id,
        "client_secret": tenant.client_secret,
        "admin_email": tenant.admin_email,
    });
    if let Some(password) = tenant.generated_password {
        out["admin_password"] = json!(password);
    }
    println!("{out}");
    Ok(())
}

pub fn run_user(command: UserCommand) -> anyhow::Result<()> {
    let UserCommand::Disable(args) = command;
    let config = args.config.load(None, None)?;
    super::runtime()?.block_on(async move {
        let store = signet_server::app::open_store(&config).await?;
        let tenant_id = signet_domain::TenantId::from(args.tenant_id);
        let user = store.user_id_by_email(tenant_id, &args.email).await?;
        let Some(user) = user else {
            anyhow::bail!("no user {} in tenant {}", args.email, args.tenant_id);
        };
        let actor = Actor { id: "cli".into(), ip: None };
        store.end_sessions(tenant_id, user, &secrets::random_token(16), true, &actor).await?;
        store.close().await;
        println!("{}", json!({"tenant_id": args.tenant_id, "user_id": user, "disabled": true}));
        Ok(())
    })
}
