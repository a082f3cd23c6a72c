//! Settings: compiled-in defaults, then an optional TOML file, then `SIGNET_*` environment
//! variables, then command-line flags (each later source wins).

use std::net::IpAddr;
use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// Folder for the embedded database, documents and keys.
    pub data_dir: PathBuf,
    /// Address to listen on.
    pub listen: String,
    /// `sqlite://PATH` or `postgres://...`; default: SQLite in the data folder.
    pub database_url: Option<String>,
    /// A local folder, `file:///...` or `s3://bucket/prefix?...`; default: `blobs` in the data folder.
    pub blob_url: Option<String>,
    /// Database connections of this instance (PostgreSQL adds one that listens for changes).
    /// The default, twice the cores and at least 4, was measured best (docs/performance.md):
    /// more connections than the machine can serve only queue inside the database, where a
    /// writer holding a lock waits for the CPU behind readers.
    pub db_max_connections: u32,
    /// Largest accepted request body, in bytes.
    pub max_body_bytes: usize,
    pub access_token_ttl_secs: u64,
    pub refresh_token_ttl_secs: u64,
    pub issuer: String,
    pub audience: String,
    pub log_format: LogFormat,
    /// Requests to `/api/v1/auth/*` per client address per minute.
    pub auth_rate_limit_per_minute: u32,
    /// Password hashes (sign-ins, new passwords) computed at once, each on a blocking thread
    /// with 19 MiB of memory; 0 = one per core.
    pub password_hashing_limit: usize,
    /// Password hashes that may wait for their turn; beyond them a sign-in is refused at once
    /// (HTTP 429 with `Retry-After`) instead of adding memory and delay for everyone.
    pub password_hashing_queue: usize,
    /// "E-mail me a code" (and the set-password link it sends) per requesting client address
    /// per hour, and per target address per hour (shared by all instances). Past the
    /// address's share the requester is refused (429); past the account's share nothing is
    /// sent and the answer stays the same, so it tells nothing about the account.
    pub mail_codes_per_address_per_hour: u32,
    pub mail_codes_per_account_per_hour: u32,
    /// "E-mail me a code" requests this instance takes per minute from all addresses together
    /// (then 429): a crowd of addresses cannot turn the door into a stream of database writes
    /// and queued jobs.
    pub mail_codes_per_minute: u32,
    /// Gateway status queries (`/api/TransactionStatusRequest`) per client address per minute.
    pub gateway_status_per_minute: u32,
    /// Failed logins per account and client address within the window before that pair is
    /// throttled; failures from one address never throttle another address.
    pub account_failure_limit: u32,
    pub account_failure_window_secs: u64,
    /// The first delay once the limit is reached; it doubles with each further failure, up to
    /// the window.
    pub account_failure_delay_ms: u64,
    /// Proxies whose `X-Forwarded-For` is believed; others' are ignored.
    pub trusted_proxies: Vec<IpAddr>,
    /// Run background workers in this process.
    pub workers: bool,
    pub worker_poll_ms: u64,
    /// How long a claimed job belongs to its worker; after a crash, others take it over then.
    pub job_lease_ms: u64,
    /// How long an instance may keep what authenticated requests check about their principal
    /// (security stamp, state, role) before reading it again; 0 reads it on every request. A
    /// change made through this instance, or on PostgreSQL through any instance, takes effect
    /// at once; only a change made by another process on the same SQLite file waits this long.
    pub auth_cache_ms: u64,
    /// How long a claimed bulk item belongs to its worker; after a crash, the items it held are
    /// claimed again after this (long enough for the slowest item: a signature with its TSA).
    pub bulk_item_lease_ms: u64,
    /// Size of the gateway's RSA key when it is first made (2048 for existing certificates).
    pub gateway_key_bits: usize,
    /// The gateway's path segment: `POST /{segment}/V3_0/Index`, `GET /{segment}/certificate.cer`.
    pub gateway_segment: String,
    /// How long a signer has to finish a gateway transaction.
    pub gateway_transaction_ttl_secs: u64,
    /// How long a stored gateway result (`Storetodb`) can be fetched.
    pub gateway_result_retention_secs: u64,
    /// Clock window for the modern gateway profile's `Timestamp`, in seconds either way.
    pub gateway_clock_window_secs: u64,
    /// RFC 3161 time-stamping authority; signatures are PAdES B-T when set, B-B otherwise.
    pub tsa_url: Option<String>,
    /// Completed documents whose newest document time-stamp (its TSA's certificates, its hash)
    /// runs out within this many days are renewed with a new one (hourly sweep).
    pub lta_renewal_margin_days: u32,
    /// Most documents renewed (and, apart from them, most whose protection is first read) per
    /// hourly sweep; the next run goes on where this one stopped.
    pub lta_renewals_per_run: u32,
    /// Let outbound fetches (TSA, OCSP, CRL, hash checking) reach private and loopback addresses.
    pub outbound_allow_private: bool,
    /// The DNS resolver (`ip:port`, UDP) that single sign-on asks for the TXT records proving a
    /// tenant owns an e-mail domain; defaults to the first `nameserver` of `/etc/resolv.conf`.
    pub sso_dns_resolver: Option<String>,
    /// For gateway `Hash` requests, fetch each `DocumentURL` and refuse (107) when its SHA-256
    /// is not the `DocumentHash`. Off by default: the server then fetches nothing.
    pub gateway_hash_check: bool,
    /// The address people reach this service at (for links in answers and e-mails), e.g.
    /// `https://sign.example.com`; defaults to `http://<listen>`.
    pub public_url: Option<String>,
    /// How long a workflow signer's link stays valid when the workflow sets no expiry.
    pub signer_link_ttl_secs: u64,
    /// Per signer of a workflow: attachments they may upload, comments they may add, and how
    /// often one signature may be handed on by delegation.
    pub signer_max_attachments: u32,
    pub signer_max_comments: u32,
    pub signer_max_delegations: u32,
    /// How long after a workflow completes its participants can download their copy (the
    /// signed documents and the completion certificate) through their own signer link.
    pub copy_link_days: u32,
    /// Most bytes of files attached to one e-mail (the completion notice's signed copy);
    /// beyond that the notice carries the download link only.
    pub mail_attachment_max_bytes: usize,
    /// The SMTP server for e-mail: `smtp://host:port` (STARTTLS when offered),
    /// `smtp+starttls://…` (STARTTLS required) or `smtps://user:pass@host:465`. Without it no
    /// e-mail is sent (links are still in the API answers).
    pub smtp_url: Option<String>,
    /// The sender of e-mails.
    pub mail_from: String,
    /// Failed background jobs (e-mails, webhooks) run again after base x 2^attempt ms (capped
    /// at an hour).
    pub job_retry_base_ms: u64,
    /// Uploaded files parsed, checked or sealed at once (blocking threads); 0 = one per core.
    pub heavy_work_limit: usize,
    /// Of those, the most one tenant's work holds at once (the rest wait in the tenant's own
    /// line, so another tenant is never queued behind them); 0 = one fewer than the limit.
    pub heavy_work_per_tenant: usize,
    /// Bulk send's XLSX workbooks: most bytes one part (the worksheet, the shared strings) may
    /// unpack to; it is read as it unpacks, never held whole.
    pub sheet_max_unpacked_bytes: u64,
    /// Bulk send's XLSX workbooks: most bytes of text held while reading one (the shared
    /// strings and every cell, a cell's copy of a shared string included).
    pub sheet_max_text_bytes: usize,
    /// Gateway submissions being opened at once from one client address; more are refused
    /// (HTTP 429) so that one sender cannot take every worker.
    pub gateway_submissions_per_address: usize,
    /// How long a submission over its address's share waits before its 429 (a tarpit for floods).
    pub gateway_refusal_delay_ms: u64,
    /// Submissions one address may make within a minute that do not authenticate (an envelope
    /// that does not open, a bogus `Authtoken`) before its submissions are refused before any
    /// decryption for the rest of that minute; 0 switches the bar off.
    pub gateway_unauthenticated_per_address: u32,
    /// Aadhaar eSign (SignatureType 3): the ESP's eSign 2.1 form address (e.g.
    /// `https://es-staging.cdac.in/esignlevel2/2.1/form/signdoc`). Without it, and without the
    /// two certificate files below, Aadhaar eSign is not offered.
    pub esign_esp_url: Option<String>,
    /// The ASP id the ESP registered Signet under.
    pub esign_asp_id: String,
    /// File with the certificate the ESP signs its responses with (PEM or DER).
    pub esign_esp_certificate: Option<PathBuf>,
    /// File with the eSign CA certificates (PEM bundle or DER) that issue signer certificates.
    pub esign_ca_certificates: Option<PathBuf>,
    /// How long a signer has at the ESP before its answer is refused as late.
    pub esign_response_ttl_secs: u64,
    /// Whether the ESP's answer signature may use SHA-1 (an RSA-SHA1 signature method, SHA-1
    /// reference digests), as C-DAC's does. Only the ESP's answer, verified with the pinned
    /// ESP certificate's key, is ever taken with SHA-1; documents, requests and the signer's
    /// CMS never are. Unset: the profile's default (on for `cdac` and the generic profiles);
    /// off, no answer from such an ESP is ever taken.
    pub esign_esp_allow_sha1: Option<bool>,
    /// Whether the ESP's CMS is PAdES baseline (`signing-certificate-v2`, no `signingTime`):
    /// then eSign PDF signatures are labelled `ETSI.CAdES.detached`, and an answer whose CMS
    /// is not is refused before embedding; otherwise (the default, as CCA ESPs sign: with
    /// `signingTime`) `adbe.pkcs7.detached`. The label is signed, so it is chosen before the
    /// ESP answers.
    pub esign_esp_pades_cms: bool,
    /// `form` (eSign 2.1: the signer's browser carries the request to `esign_esp_url`) or
    /// `server` (eSign 3.x: Signet posts the request to `esign_esp_url` itself, then sends the
    /// browser to `esign_esp_auth_url` with `txnref`). Unset: the profile's flow.
    pub esign_flow: Option<String>,
    /// The ESP's profile (`cdac`, `emudhra`, `protean` or `nsdl`, `generic-2.1`, `generic-3.x`;
    /// default `generic-2.1`): its flow, whether its answers may use SHA-1, its `AuthMode`s and
    /// its error codes. `esign_flow`, `esign_esp_allow_sha1` and `esign_auth_modes`, when set,
    /// win over the profile's defaults.
    pub esign_esp_profile: String,
    /// The `AuthMode`s offered to signers, the first the default (`otp`, `fingerprint`, `iris`,
    /// `face` or their codes 1-4, separated by commas). Unset: the profile's.
    pub esign_auth_modes: Option<String>,
    /// The ESP's address for the browser in the `server` flow (e.g. C-DAC's `…/esign/authRequest`).
    pub esign_esp_auth_url: Option<String>,
    /// The name of the ESP the `esign_esp_*` settings above describe (in metrics, logs and the
    /// record of each transaction).
    pub esign_esp_name: String,
    /// Further ESPs for failover, in priority order after the one above (or alone, when
    /// `esign_esp_url` is unset): TOML `[[esign_esps]]` tables, or
    /// `SIGNET_ESIGN_ESPS='[{name="b", url="…", certificate="…"}]'`. See [`EspSettings`] and
    /// docs/esign.md, "Several ESPs".
    pub esign_esps: Vec<EspSettings>,
    /// Each ESP's health is judged from what was seen of it over this window (ms; default 60 s).
    pub esign_health_window_ms: u64,
    /// Each ESP is probed (an HTTP GET) this often, so that a dead ESP is known without any
    /// signer (ms; default 10 s; 0: no probes).
    pub esign_probe_interval_ms: u64,
    /// A probe not answered within this is a failure (ms; default 3 s).
    pub esign_probe_timeout_ms: u64,
    /// Digital e-stamping (`eStampType` `digital`): the stamp provider's API address, to which
    /// Signet's adapter appends `/estamps` (docs/estamp-provider.md). Without it, digital
    /// e-stamping is not offered.
    pub estamp_provider_url: Option<String>,
    /// The provider's API key, sent as `Authorization: Bearer <key>`.
    pub estamp_provider_key: Option<String>,
    /// How long one call to the provider may take.
    pub estamp_provider_timeout_secs: u64,
    /// SMS to workflow signers (their invitation and reminders, to the `mobileNo` the sender
    /// gave) through a provider that speaks Twilio's Messages API: its address (Twilio's own
    /// by default), the account SID, the account's auth token and the sending number (E.164).
    /// Without the SID, the token and the number nothing is texted and no form offers a mobile
    /// number; with only some of them the server does not start.
    pub sms_api_url: String,
    pub sms_account_sid: Option<String>,
    pub sms_auth_token: Option<String>,
    pub sms_from: Option<String>,
    /// How long one call to the SMS provider may take (then the message is tried again later).
    pub sms_timeout_secs: u64,
    /// A PKCS#11 module (e.g. `/usr/lib/softhsm/libsofthsm2.so`, a network HSM's client
    /// library): when set, the sealing keys made from now on (the platform's and each
    /// tenant's) are generated in the HSM and uploaded automated-signing keys are imported
    /// into it; the database keeps their certificates only.
    pub hsm_module: Option<PathBuf>,
    /// The label of the HSM token (partition) holding Signet's keys.
    pub hsm_token_label: Option<String>,
    /// The token's user PIN (better from a file: `SIGNET_HSM_PIN_FILE`).
    pub hsm_pin: Option<String>,
    /// Stored documents are encrypted at rest (`platform::data_keys`); off only to compare
    /// speeds. Turning it off leaves what is encrypted readable.
    pub blob_encryption: bool,
    /// The master key(s) that wrap the data keys: base64 of 32 bytes, the current first, older
    /// ones after a comma (better from a file: `SIGNET_MASTER_KEY_FILE`). Read once at start.
    pub master_key: Option<String>,
    /// A file of master keys, one per line, the current first; read again when it changes
    /// (`signet keys rotate-master`). Without this, `master_key` and an HSM: `master.key` in
    /// the data folder, made on first start.
    pub master_key_path: Option<PathBuf>,
    /// The key vault: one file per organisation holding its key-encryption key, sealed by the
    /// master key (`platform::key_vault`). Deleting an organisation destroys its file, which
    /// is what makes backups taken before unreadable for it, so it lives beside the master
    /// key, outside the blob folder and outside backups. Default `<data_dir>/key-vault`.
    pub tenant_key_vault: Option<PathBuf>,
    /// CA certificates (a PEM bundle or DER) that users' own enrolled certificates must chain
    /// to; without it users cannot enrol certificates.
    pub certificate_trust_list: Option<PathBuf>,
    /// Further CA certificates (a PEM bundle or DER) that public verification (`/verify`,
    /// `POST /api/v1/verify`) trusts besides Signet's own CA, the eSign CAs and
    /// `certificate_trust_list`: a national root, time-stamp authorities.
    pub verification_trust_list: Option<PathBuf>,
    /// Self-service free trials (`POST /api/v1/auth/free-trial`): off unless set.
    pub free_trial: bool,
    /// A trial tenant's days, workflows and users.
    pub trial_days: u64,
    pub trial_max_workflows: i64,
    pub trial_max_users: i64,
    /// OpenID Connect providers through which people may sign up for a trial (`isSSO`,
    /// `ssoProvider`): the provider proves the address instead of an e-mailed link. TOML only:
    /// `[[sso_signup_providers]]` tables with `name`, `display_name`, `issuer`, `client_id` and
    /// `client_secret` (none for a public client).
    pub sso_signup_providers: Vec<SignupProvider>,
    /// Invoices of workflows (docs/stamps.md, "Invoices"): the platform operator that bills
    /// tenants, by legal name, address, GSTIN and state (ISO 3166-2:IN code). Without all four
    /// no invoices are issued; with only some the server does not start.
    pub invoice_supplier_name: Option<String>,
    pub invoice_supplier_address: Option<String>,
    pub invoice_supplier_gstin: Option<String>,
    pub invoice_supplier_state: Option<String>,
    /// The services accounting code the fee is invoiced under.
    pub invoice_sac: String,
    /// The fee per workflow, in paise, before GST.
    pub invoice_fee_paise: u64,
    /// GST on the fee, in percent (at most two decimals).
    pub invoice_gst_rate_percent: f64,
}

/// One ESP of several (`esign_esps`): where it is, what it signs with, its profile. Only the
/// name, the address and the certificate are required; the rest falls back as for the
/// `esign_esp_*` settings of the same names (the CA certificates to `esign_ca_certificates`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EspSettings {
    /// Unique among the ESPs: metrics, logs and each transaction's record name it.
    pub name: String,
    /// The form address (2.1) or the server-to-server address (3.x).
    pub url: String,
    /// The address the browser goes to in the server flow.
    pub auth_url: Option<String>,
    /// The certificate this ESP signs its answers with (PEM or DER).
    pub certificate: PathBuf,
    /// The CAs that issue this ESP's signer certificates; default `esign_ca_certificates`.
    pub ca_certificates: Option<PathBuf>,
    /// `cdac`, `emudhra`, `protean`, `generic-2.1` (default), `generic-3.x`.
    pub profile: Option<String>,
    pub flow: Option<String>,
    pub allow_sha1: Option<bool>,
    pub auth_modes: Option<String>,
    /// What the probe asks for; default `url` (any HTTP answer below 500 counts as alive).
    pub probe_url: Option<String>,
}

/// An installation-wide OpenID Connect provider for trial sign-ups.
#[derive(Clone, Serialize, Deserialize)]
pub struct SignupProvider {
    pub name: String,
    pub display_name: String,
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            data_dir: PathBuf::from("signet-data"),
            listen: "127.0.0.1:8080".into(),
            database_url: None,
            blob_url: None,
            db_max_connections: default_pool_size(),
            max_body_bytes: 25 * 1024 * 1024,
            access_token_ttl_secs: 15 * 60,
            refresh_token_ttl_secs: 30 * 24 * 3600,
            issuer: "signet".into(),
            audience: "signet-api".into(),
            log_format: LogFormat::Text,
            auth_rate_limit_per_minute: 120,
            password_hashing_limit: 0,
            password_hashing_queue: 32,
            mail_codes_per_address_per_hour: 10,
            mail_codes_per_account_per_hour: 3,
            mail_codes_per_minute: 120,
            gateway_status_per_minute: 60,
            account_failure_limit: 10,
            account_failure_window_secs: 15 * 60,
            account_failure_delay_ms: 1000,
            trusted_proxies: Vec::new(),
            workers: true,
            worker_poll_ms: 1000,
            job_lease_ms: 60_000,
            bulk_item_lease_ms: 10 * 60 * 1000,
            auth_cache_ms: 1000,
            gateway_key_bits: 3072,
            gateway_segment: "eMsecure".into(),
            gateway_transaction_ttl_secs: 30 * 60,
            gateway_result_retention_secs: 48 * 3600,
            gateway_clock_window_secs: 300,
            tsa_url: None,
            lta_renewal_margin_days: 90,
            lta_renewals_per_run: 500,
            outbound_allow_private: false,
            sso_dns_resolver: None,
            gateway_hash_check: false,
            public_url: None,
            signer_link_ttl_secs: 30 * 24 * 3600,
            signer_max_attachments: 10,
            signer_max_comments: 50,
            signer_max_delegations: 3,
            copy_link_days: 30,
            mail_attachment_max_bytes: 10 * 1024 * 1024,
            smtp_url: None,
            mail_from: "Signet <no-reply@localhost>".into(),
            job_retry_base_ms: 1000,
            heavy_work_limit: 0,
            heavy_work_per_tenant: 0,
            sheet_max_unpacked_bytes: 32 * 1024 * 1024,
            sheet_max_text_bytes: 16 * 1024 * 1024,
            gateway_submissions_per_address: 4,
            gateway_refusal_delay_ms: 500,
            gateway_unauthenticated_per_address: 20,
            esign_esp_url: None,
            esign_asp_id: "SIGNET".into(),
            esign_esp_certificate: None,
            esign_ca_certificates: None,
            esign_response_ttl_secs: 30 * 60,
            esign_esp_allow_sha1: None,
            esign_esp_pades_cms: false,
            esign_flow: None,
            esign_esp_profile: "generic-2.1".into(),
            esign_auth_modes: None,
            esign_esp_auth_url: None,
            esign_esp_name: "primary".into(),
            esign_esps: Vec::new(),
            esign_health_window_ms: 60_000,
            esign_probe_interval_ms: 10_000,
            esign_probe_timeout_ms: 3_000,
            estamp_provider_url: None,
            estamp_provider_key: None,
            estamp_provider_timeout_secs: 30,
            sms_api_url: "https://api.twilio.com".into(),
            sms_account_sid: None,
            sms_auth_token: None,
            sms_from: None,
            sms_timeout_secs: 15,
            hsm_module: None,
            hsm_token_label: None,
            hsm_pin: None,
            blob_encryption: true,
            master_key: None,
            master_key_path: None,
            tenant_key_vault: None,
            certificate_trust_list: None,
            verification_trust_list: None,
            free_trial: false,
            trial_days: 14,
            trial_max_workflows: 25,
            trial_max_users: 3,
            sso_signup_providers: Vec::new(),
            invoice_supplier_name: None,
            invoice_supplier_address: None,
            invoice_supplier_gstin: None,
            invoice_supplier_state: None,
            invoice_sac: signet_domain::invoice::DEFAULT_SAC.into(),
            invoice_fee_paise: 0,
            invoice_gst_rate_percent: signet_domain::invoice::DEFAULT_RATE_BP as f64 / 100.0,
        }
    }
}

/// Settings that may carry credentials (user:password@ in the URL, keys in its query).
const SECRET_BEARING: [&str; 4] = ["database_url", "blob_url", "smtp_url", "estamp_provider_url"];

/// Debug output (logs, panics) never shows a password or key from the settings.
impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut value = serde_json::to_value(self).map_err(|_| std::fmt::Error)?;
        for key in SECRET_BEARING {
            if let Some(slot) = value.get_mut(key)
                && let Some(url) = slot.as_str()
            {
                *slot = serde_json::Value::String(redact_url(url));
            }
        }
        for key in ["hsm_pin", "estamp_provider_key", "sms_auth_token", "master_key"] {
            if let Some(secret) = value.get_mut(key)
                && secret.is_string()
            {
                *secret = serde_json::Value::String("***".into());
            }
        }
        if let Some(providers) = value.get_mut("sso_signup_providers").and_then(|p| p.as_array_mut()) {
            for secret in providers.iter_mut().filter_map(|p| p.get_mut("client_secret")).filter(|s| s.is_string()) {
                *secret = serde_json::Value::String("***".into());
            }
        }
        write!(f, "Config {value}")
    }
}

/// The URL with the password of its user part and the values of secret-looking query
/// parameters replaced by `***`.
pub fn redact_url(url: &str) -> String {
    let (before_query, query) = match url.split_once('?') {
        Some((head, query)) => (head, Some(query)),
        None => (url, None),
    };
    let mut out = match before_query.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            match authority.rsplit_once('@') {
                Some((user_info, host)) => {
                    let user = user_info.split_once(':').map_or(user_info, |(user, _)| user);
                    let hidden = if user_info.contains(':') { format!("{user}:***") } else { "***".to_string() };
                    format!("{scheme}://{hidden}@{host}{path}")
                }
                None => before_query.to_string(),
            }
        }
        None => before_query.to_string(),
    };
    if let Some(query) = query {
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, _)) if is_secret_name(name) => format!("{name}=***"),
                _ => pair.to_string(),
            })
            .collect();
        out.push('?');
        out.push_str(&pairs.join("&"));
    }
    out
}

fn is_secret_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["secret", "password", "token", "key", "credential"].iter().any(|word| name.contains(word))
}

/// Twice the cores, at least 4.
fn default_pool_size() -> u32 {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
    u32::try_from(cores.saturating_mul(2)).unwrap_or(u32::MAX).max(4)
}

/// `SIGNET_<KEY>_FILE=/path` sets `<key>` to the file's contents (without the final line
/// break), so that secrets can come from mounted files (Docker and Kubernetes secrets)
/// instead of the environment.
/// Why the configuration cannot be loaded; each names the source to mend and keeps its cause
/// as its `source` (the command line prints the chain: `invalid configuration: …`).
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("config file {0} does not exist")]
    NoFile(PathBuf),
    /// A `SIGNET_*_FILE` variable names a file that cannot be read.
    #[error("{variable}: cannot read {path}")]
    SecretFile {
        variable: String,
        path: String,
        #[source]
        cause: std::io::Error,
    },
    #[error("invalid configuration")]
    Invalid(#[from] Box<figment::Error>),
}

fn settings_from_files() -> Result<Vec<(String, String)>, ConfigError> {
    let mut settings = Vec::new();
    for (name, path) in std::env::vars() {
        let Some(key) = name.strip_prefix("SIGNET_").and_then(|rest| rest.strip_suffix("_FILE")) else {
            continue;
        };
        let contents = std::fs::read_to_string(&path).map_err(|cause| ConfigError::SecretFile {
            variable: name.clone(),
            path: path.clone(),
            cause,
        })?;
        settings.push((key.to_ascii_lowercase(), contents.trim_end_matches(['\r', '\n']).to_string()));
    }
    Ok(settings)
}

/// Flags given on the command line; only the ones present override other sources.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Overrides {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_dir: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blob_url: Option<String>,
}

impl Config {
    /// The one outbound HTTP policy: every request to an address Signet did not choose itself
    /// (TSA, OCSP, CRL, the ESP, webhooks, a gateway request's `DocumentURL`) reaches private,
    /// loopback and link-local addresses only when `outbound_allow_private` says so.
    pub fn outbound_http(&self) -> signet_sigcrypto::HttpConfig {
        signet_sigcrypto::HttpConfig {
            allow_private_addresses: self.outbound_allow_private,
            ..signet_sigcrypto::HttpConfig::default()
        }
    }

    /// [`Config::outbound_http`] with its own time limit and cap on what is read back, for
    /// calls to addresses a tenant gave (webhooks, its CRM, its identity provider, the stamp
    /// and SMS providers).
    pub fn outbound_http_within(&self, timeout_secs: u64, max_response_bytes: u64) -> signet_sigcrypto::HttpConfig {
        signet_sigcrypto::HttpConfig {
            timeout: std::time::Duration::from_secs(timeout_secs),
            max_response_bytes,
            ..self.outbound_http()
        }
    }

    /// Loads settings from every source; `file` is the `--config` TOML file, if any.
    pub fn load(file: Option<&Path>, overrides: &Overrides) -> Result<Config, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        if let Some(file) = file {
            if !file.exists() {
                return Err(ConfigError::NoFile(file.to_path_buf()));
            }
            figment = figment.merge(Toml::file(file));
        }
        figment = figment.merge(Env::prefixed("SIGNET_").ignore(&["data_dir_file"]));
        for (key, value) in settings_from_files()? {
            figment = figment.merge((key, value));
        }
        Ok(figment.merge(Serialized::defaults(overrides)).extract().map_err(Box::new)?)
    }

    /// Every configured ESP in priority order: the one the `esign_esp_*` settings describe
    /// (as they always did), then `esign_esps`. Empty: Aadhaar eSign is not offered.
    pub fn esign_esp_list(&self) -> anyhow::Result<Vec<EspSettings>> {
        let mut list = Vec::with_capacity(self.esign_esps.len() + 1);
        if let Some(url) = &self.esign_esp_url {
            let Some(certificate) = self.esign_esp_certificate.clone() else {
                anyhow::bail!("esign_esp_url needs esign_esp_certificate and esign_ca_certificates");
            };
            list.push(EspSettings {
                name: self.esign_esp_name.clone(),
                url: url.clone(),
                auth_url: self.esign_esp_auth_url.clone(),
                certificate,
                ca_certificates: None,
                profile: Some(self.esign_esp_profile.clone()),
                flow: self.esign_flow.clone(),
                allow_sha1: self.esign_esp_allow_sha1,
                auth_modes: self.esign_auth_modes.clone(),
                probe_url: None,
            });
        }
        list.extend(self.esign_esps.iter().cloned());
        let mut names = std::collections::HashSet::new();
        for esp in &list {
            let well_formed = !esp.name.is_empty()
                && esp.name.len() <= 40
                && esp.name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            anyhow::ensure!(well_formed, "ESP name {:?}: 1-40 letters, digits, '-' or '_'", esp.name);
            anyhow::ensure!(names.insert(esp.name.as_str()), "two ESPs are named {:?}", esp.name);
        }
        Ok(list)
    }

    /// The database URL, defaulting to SQLite inside the data folder.
    pub fn database_url(&self) -> String {
        self.database_url.clone().unwrap_or_else(|| format!("sqlite://{}", self.data_dir.join("signet.db").display()))
    }

    /// The public base URL without a trailing slash.
    pub fn public_base(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => format!("http://{}", self.listen),
        }
    }

    /// The key vault's folder (`tenant_key_vault`, default `<data_dir>/key-vault`).
    pub fn key_vault_dir(&self) -> PathBuf {
        self.tenant_key_vault.clone().unwrap_or_else(|| self.data_dir.join("key-vault"))
    }

    pub fn blob_url(&self) -> String {
        self.blob_url.clone().unwrap_or_else(|| "blobs".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_sources_win() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("signet.toml");
        std::fs::write(&file, "listen = \"127.0.0.1:9000\"\nmax_body_bytes = 1234\n").expect("write");
        let overrides = Overrides { listen: Some("127.0.0.1:9001".into()), ..Default::default() };
        let config = Config::load(Some(&file), &overrides).expect("load");
        assert_eq!(config.listen, "127.0.0.1:9001");
        assert_eq!(config.max_body_bytes, 1234);
        assert!(config.database_url().starts_with("sqlite://"));
    }

    #[test]
    fn debug_output_hides_credentials() {
        let config = Config {
            database_url: Some("postgres://signet:hunter2@db.internal:5432/signet".into()),
            smtp_url: Some("smtps://mailer:s3cret@smtp.example.com:465".into()),
            blob_url: Some("s3://bucket/prefix?region=eu&secret_access_key=AKIAXYZ&access_key_id=ID".into()),
            hsm_pin: Some("4711-pin".into()),
            sms_auth_token: Some("twilio-token".into()),
            sso_signup_providers: vec![SignupProvider {
                name: "idp".into(),
                display_name: "IdP".into(),
                issuer: "https://idp.example".into(),
                client_id: "signet".into(),
                client_secret: Some("oidc-secret".into()),
            }],
            ..Config::default()
        };
        let shown = format!("{config:?}");
        for secret in ["hunter2", "s3cret", "AKIAXYZ", "4711-pin", "oidc-secret", "twilio-token"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(shown.contains("postgres://signet:***@db.internal:5432/signet"), "{shown}");
        assert!(shown.contains("region=eu"), "{shown}");
        assert_eq!(redact_url("sqlite:///data/signet.db"), "sqlite:///data/signet.db");
    }

    #[test]
    fn the_single_esp_settings_are_the_first_of_the_list() {
        let file_text = "esign_esp_url = \"https://esp-a.example/2.1/form/signdoc\"\n\
esign_esp_certificate = \"/etc/signet/a.cer\"\n\
esign_ca_certificates = \"/etc/signet/ca.pem\"\n\
esign_esp_profile = \"cdac\"\n\
[[esign_esps]]\nname = \"emudhra\"\nurl = \"https://esp-b.example/esign\"\n\
certificate = \"/etc/signet/b.cer\"\nprofile = \"emudhra\"\n";
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("signet.toml");
        std::fs::write(&file, file_text).expect("write");
        let config = Config::load(Some(&file), &Overrides::default()).expect("load");
        let list = config.esign_esp_list().expect("list");
        let names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["primary", "emudhra"]);
        assert_eq!((list[0].profile.as_deref(), list[1].profile.as_deref()), (Some("cdac"), Some("emudhra")));
        assert_eq!(list[1].certificate, PathBuf::from("/etc/signet/b.cer"));
        assert!(Config::default().esign_esp_list().expect("none").is_empty());

        let twice = Config { esign_esps: vec![list[1].clone(), list[1].clone()], ..Config::default() };
        assert!(twice.esign_esp_list().is_err(), "names are unique");
        std::fs::write(&file, format!("{file_text}bogus = 1\n")).expect("write");
        assert!(Config::load(Some(&file), &Overrides::default()).is_err(), "an unknown ESP field is refused");

        // An environment variable's value is read as the provider reads `SIGNET_ESIGN_ESPS`.
        let value: figment::value::Value =
            "[{name=\"b\", url=\"https://esp-b.example/form\", certificate=\"/b.cer\"}]".parse().expect("value");
        let config: Config =
            Figment::from(Serialized::defaults(Config::default())).merge(("esign_esps", value)).extract().expect("env");
        assert_eq!(config.esign_esp_list().expect("list")[0].url, "https://esp-b.example/form");
    }

    #[test]
    fn missing_file_is_an_error() {
        let overrides = Overrides::default();
        assert!(Config::load(Some(Path::new("/nonexistent/signet.toml")), &overrides).is_err());
    }
}
