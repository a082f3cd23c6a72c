//! Signet's use cases, apart from HTTP, in rooms named as the faces name them: `people`
//! (staff, roles, signing in, single sign-on), `workflows` (documents sent to signatories in
//! order), `gateway` (the integrators' encrypted signing gateway), `esign` (Aadhaar eSign
//! through an ESP), `stamps` (e-stamp paper), `bulk` (bulk sends and lots), `exports`,
//! `verification` (checking anyone's signed file), `integrations` (applications, webhooks),
//! `billing` (invoices, referrals), and under them all `platform` (settings, keys, mail, SMS,
//! jobs, budgets). `records` names what the store reads for the faces.
//! The JSON API (`signet-api`) and the HTML pages (`signet-web`) call into this crate; the
//! server (`signet-server`) assembles [`Services`] once and hands it to both and to the workers.
//! Nothing here names axum.

pub mod billing;
pub mod bulk;
pub mod esign;
pub mod exports;
pub mod gateway;
pub mod integrations;
pub mod people;
pub mod platform;
pub mod privacy;
pub mod records;
pub mod stamps;
pub mod verification;
pub mod workflows;

use std::sync::Arc;

use signet_blob::BlobStore;
use signet_domain::audit::Actor;
use signet_store::Store;

use billing::invoices;
use people::{sso, totp, users};
pub use platform::config::Config;
use platform::{data_keys, heavy, keyring, keys, limits, mail, seals, sms};

/// Who asks for a use case through the API: the tenant, the principal (a user of the tenant
/// or an API client) and how the audit trail records them.
#[derive(Debug, Clone)]
pub struct Caller {
    pub tenant_id: signet_domain::TenantId,
    pub principal_id: signet_domain::PrincipalId,
    /// A user of the tenant (who may also be a signatory), not an API client.
    pub is_user: bool,
    /// What the caller's role allows: every use case decides with it (the permission, and
    /// the rules of `signet_domain::authority` about whose resource it is).
    pub access: signet_domain::access::Access,
    pub actor: Actor,
}

impl Caller {
    /// Has the built-in administrator role (gives roles, makes tenant roles).
    pub fn is_administrator(&self) -> bool {
        self.access.is_administrator()
    }

    /// Refuses (`forbidden`) a caller whose role lacks `permission`.
    pub fn require(&self, permission: signet_domain::access::Permission) -> Result<(), signet_domain::Error> {
        signet_domain::authority::require(&self.access, permission)
    }
}

/// Everything a use case needs, assembled once per process and cheap to clone.
#[derive(Clone)]
pub struct Services {
    /// Private to the use cases: the faces call them, never the store (`records` names
    /// what the store reads for them).
    pub(crate) store: Store,
    pub blob: BlobStore,
    /// The data keys that encrypt stored objects (`platform::data_keys`).
    pub data_keys: Arc<data_keys::StoreDataKeys>,
    pub config: Arc<Config>,
    pub keys: Arc<keys::PlatformKeys>,
    pub gateway_key: Arc<signet_gateway::GatewayKey>,
    /// The platform's document-sealing key, loaded once (the keys for signer links and
    /// profiles derive from it; documents are sealed with the tenant's own key, `seals`).
    pub seal: Arc<dyn signet_signing::RawSigner>,
    /// Where private keys live: the database, or the configured HSM.
    pub keyring: keyring::Keyring,
    /// Each tenant's sealing certificate and key.
    pub seals: Arc<seals::TenantSeals>,
    /// Admission to the gateway (submissions per address, legacy envelope in use).
    pub intake: Arc<gateway::intake::Intake>,
    /// Blocking threads for parsing, checking and sealing uploaded files, bounded.
    pub heavy: Arc<heavy::HeavyPool>,
    /// Per-address limits of the unauthenticated doors and the admission of password hashing.
    pub doors: Arc<limits::Doors>,
    /// The key behind workflow signers' links.
    pub link_key: Arc<workflows::links::LinkKey>,
    /// The key of national-id digests (users are found by the number, which is not kept).
    pub identity_key: Arc<users::IdentityKey>,
    /// The key that seals second-factor (TOTP) secrets.
    pub totp_key: Arc<totp::TotpKey>,
    /// The key that seals automated-signing profiles.
    pub profile_key: Arc<workflows::profiles::ProfileKey>,
    /// The keys of single sign-on (client secrets, sign-in states).
    pub sso_key: Arc<sso::SsoKey>,
    pub mailer: Arc<mail::Mailer>,
    /// SMS to signers through the configured provider, when one is configured.
    pub sms: Option<Arc<dyn sms::SmsSender>>,
    /// Aadhaar eSign through the configured ESP, when one is configured.
    pub esign: Option<Arc<esign::EsignSetup>>,
    /// The platform operator that invoices tenants, when the installation names one.
    pub invoicing: Option<Arc<invoices::Supplier>>,
}

impl Services {
    /// Whether the database answers (readiness).
    pub async fn ping_store(&self) -> Result<(), signet_domain::Error> {
        self.store.ping().await
    }

    /// Loads (or, on first start, creates) the platform keys and assembles the services.
    /// `config` is final here: its public address is known.
    pub async fn assemble(config: Config, store: Store, blob: BlobStore) -> anyhow::Result<Services> {
        Self::assemble_with(config, store, blob, data_keys::KeyStart::Serve).await
    }

    /// As [`Services::assemble`], for commands that inspect or remove keys
    /// ([`data_keys::KeyStart::Inspect`]).
    pub async fn assemble_to_inspect(config: Config, store: Store, blob: BlobStore) -> anyhow::Result<Services> {
        Self::assemble_with(config, store, blob, data_keys::KeyStart::Inspect).await
    }

    async fn assemble_with(
        config: Config,
        store: Store,
        blob: BlobStore,
        start: data_keys::KeyStart,
    ) -> anyhow::Result<Services> {
        let keyring = {
            let config = config.clone();
            tokio::task::spawn_blocking(move || keyring::Keyring::from_config(&config)).await??
        };
        let keys =
            keys::PlatformKeys::load_or_create(&store, &config.data_dir, config.gateway_key_bits, &keyring).await?;
        let (blob, data_keys) = data_keys::seal_blobs(blob, &config, &store, &keyring, &keys.seal, start).await?;
        let gateway_key = signet_gateway::GatewayKey::from_pkcs8_der(&keys.gateway.key_pkcs8_der)
            .and_then(|key| key.with_certificate(&keys.gateway.cert_der))
            .map_err(|e| anyhow::anyhow!("gateway key: {e}"))?;
        let seal = keyring
            .signer(&keys.seal, vec![keys.ca.cert_der.clone()])
            .map_err(|e| anyhow::anyhow!("document-sealing key: {e}"))?;
        let secret = keyring.derivation_secret(&keys.seal).map_err(|e| anyhow::anyhow!("derived keys: {e}"))?;
        let link_key = workflows::links::LinkKey::derive(&secret);
        let identity_key = users::IdentityKey::derive(&secret);
        let totp_key = totp::TotpKey::derive(&secret).map_err(|e| anyhow::anyhow!(e))?;
        let profile_key =
            workflows::profiles::ProfileKey::derive(&secret, keyring.clone()).map_err(|e| anyhow::anyhow!(e))?;
        let sso_key = sso::SsoKey::derive(&secret).map_err(|e| anyhow::anyhow!(e))?;
        let mailer = mail::Mailer::from_config(config.smtp_url.as_deref(), &config.mail_from)?;
        let esign = esign::EsignSetup::from_config(&config, &keys.asp)?.map(Arc::new);
        let sms = sms::configured(&config)?;
        let invoicing = invoices::Supplier::from_config(&config)?.map(Arc::new);
        Ok(Services {
            store,
            blob,
            data_keys,
            seals: Arc::new(seals::TenantSeals::new(keys.ca.clone(), keyring.clone())),
            keyring,
            keys: Arc::new(keys),
            gateway_key: Arc::new(gateway_key),
            seal,
            heavy: Arc::new(heavy::HeavyPool::new(config.heavy_work_limit, config.heavy_work_per_tenant)?),
            doors: Arc::new(limits::Doors::from_config(&config)?),
            intake: Arc::new(gateway::intake::Intake::new(
                config.gateway_submissions_per_address,
                config.gateway_unauthenticated_per_address,
            )),
            link_key: Arc::new(link_key),
            identity_key: Arc::new(identity_key),
            totp_key: Arc::new(totp_key),
            profile_key: Arc::new(profile_key),
            sso_key: Arc::new(sso_key),
            mailer: Arc::new(mailer),
            sms,
            esign,
            invoicing,
            config: Arc::new(config),
        })
    }

    /// Installations from before encryption at rest have their stored objects encrypted at
    /// start-up, in the background (see `platform::data_keys::seal_objects_in_clear`).
    pub async fn seal_objects_in_clear(&self) {
        match data_keys::seal_objects_in_clear(&self.blob, &self.store).await {
            Ok(pass) if pass.sealed > 0 || pass.left > 0 => {
                tracing::info!(sealed = pass.sealed, left = pass.left, "encrypted stored objects kept in clear")
            }
            Ok(_) => {}
            Err(error) => {
                tracing::warn!(%error, "could not encrypt the objects stored in clear; the next start goes on")
            }
        }
    }

    /// Installations from before per-tenant seals get their tenants' certificates at start-up
    /// (a tenant's first seal would issue it anyway; this keeps that first signature fast).
    pub async fn issue_missing_seals(&self) {
        match self.seals.issue_missing(&self.store).await {
            Ok(0) => {}
            Ok(issued) => tracing::info!(issued, "issued sealing certificates for existing tenants"),
            Err(error) => tracing::warn!(%error, "could not issue the sealing certificates of existing tenants"),
        }
    }
}
