use clap::{Args, Subcommand};
use serde_json::json;
use signet_domain::audit::Actor;
use signet_server::secrets;
use signet_store::NewTenant;

use super::serve::ConfigArgs;

#[derive(Subcommand, Debug)]
pub enum TenantCommand {
    /// Create a tenant with its administrator and API client; prints one JSON object.
    Create(TenantCreateArgs),
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

fn validate_email(email: &str) -> anyhow::Result<()> {
    let valid = email.len() <= 254
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.')
        })
        && !email.chars().any(|c| c.is_whitespace() || c.is_control());
    anyhow::ensure!(valid, "--admin-email {email:?} is not a valid email address");
    Ok(())
}

pub fn run_tenant(command: TenantCommand) -> anyhow::Result<()> {
    match command {
        TenantCommand::Create(args) => create(args),
    }
}

fn create(args: TenantCreateArgs) -> anyhow::Result<()> {
    let name = args.name.trim().to_string();
    anyhow::ensure!(!name.is_empty() && name.chars().count() <= 200, "--name must be 1 to 200 characters");
    validate_email(&args.admin_email)?;
    if let Some(password) = &args.admin_password {
        anyhow::ensure!(password.chars().count() >= 8, "--admin-password must have at least 8 characters");
    }
    let config = args.config.load(None, None)?;
    let generated_password = args.admin_password.is_none().then(|| secrets::random_token(18));
    let password = args.admin_password.clone().or_else(|| generated_password.clone()).unwrap_or_default();
    let client_id = format!("sgc_{}", secrets::random_token(12));
    let client_secret = secrets::random_token(32);
    let new = NewTenant {
        name,
        admin_email: args.admin_email.clone(),
        admin_password_hash: secrets::hash_password(&password).map_err(anyhow::Error::msg)?,
        client_id: client_id.clone(),
        client_secret_hash: secrets::hash_token(&client_secret),
        admin_stamp: secrets::random_token(16),
        client_stamp: secrets::random_token(16),
    };
    let created = super::runtime()?.block_on(async move {
        let store = signet_server::app::open_store(&config).await?;
        let created = store.create_tenant(&new, &Actor { id: "cli".into(), ip: None }).await;
        store.close().await;
        anyhow::Ok(created?)
    })?;
    let mut out = json!({
        "tenant_id": created.tenant_id,
        "client_id": client_id,
        "client_secret": client_secret,
        "admin_email": args.admin_email,
    });
    if let Some(password) = generated_password {
        out["admin_password"] = json!(password);
    }
    println!("{out}");
    Ok(())
}

pub fn run_user(command: UserCommand) -> anyhow::Result<()> {
    match command {
        UserCommand::Disable(args) => {
            let config = args.config.load(None, None)?;
            super::runtime()?.block_on(async move {
                let store = signet_server::app::open_store(&config).await?;
                let user = store.user_id_by_email(args.tenant_id, &args.email).await?;
                let Some(user) = user else {
                    anyhow::bail!("no user {} in tenant {}", args.email, args.tenant_id);
                };
                let actor = Actor { id: "cli".into(), ip: None };
                store.end_sessions(args.tenant_id, user, &secrets::random_token(16), true, &actor).await?;
                store.close().await;
                println!("{}", json!({"tenant_id": args.tenant_id, "user_id": user, "disabled": true}));
                Ok(())
            })
        }
    }
}
