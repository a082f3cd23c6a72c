//! Aadhaar eSign with Signet as the Application Service Provider (ASP): the configured ESP,
//! the key Signet signs requests with, what it trusts in answers, the transaction id that
//! carries a secret (see [`TxnId`]); sending a request ([`send`]) for a gateway transaction
//! (`gateway::esign`) or a workflow signatory (`workflows::esign`), and taking its answer
//! ([`dispatch::answer`], which hands it to whichever of the two asked).

use std::path::Path;
use std::sync::Arc;

use base64::Engine as _;
use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::{BoxError, now_millis};
use signet_esign::asp::{EspTrust, Expected, Outcome, check_response};
use signet_esign::health::Observation;
use signet_esign::profile::Overrides;
use signet_esign::{EsignRequest, EsignResponse, EspProfile, InputHash, ResolvedProfile, sign_document};
use signet_sigcrypto::pki;
use signet_signing::LocalKeySigner;
use signet_store::{EsignSubject, EsignTransactionRow, NewEsignTransaction};
use time::OffsetDateTime;

use crate::gateway::vault::Vault;
use crate::platform::config::{Config, EspSettings};
use crate::platform::heavy::Share;
use crate::platform::keys::KeyPairDer;
use crate::{Services, platform::secrets};

pub mod dispatch;
pub mod failover;
pub mod providers;

pub use signet_esign::esp_codes::EspRefusal;
pub use signet_esign::{AuthMode, EspProfileName, FlowKind};

/// The `AuthMode`s the signer pages offer (the first the default; a choice when several):
/// the primary ESP's, empty when no ESP is configured. (Routing skips an ESP that does not
/// offer the signer's choice.)
pub fn auth_modes(svc: &Services) -> Vec<AuthMode> {
    svc.esign.as_deref().map(|setup| setup.primary().profile.auth_modes.clone()).unwrap_or_default()
}

/// What an ESP's `errCode` means, for the pages' words: by the profile of the ESP named
/// (`None`: the primary's).
pub fn refusal_kind(svc: &Services, esp: Option<&str>, code: &str) -> EspRefusal {
    match svc.esign.as_deref().and_then(|setup| setup.esp(esp)) {
        Some((_, esp)) => esp.profile.profile.refusal(code),
        None => signet_esign::esp_codes::classify(code),
    }
}

/// Everything needed to send requests to the configured ESPs and check their answers.
pub struct EsignSetup {
    pub asp_id: String,
    pub asp: Arc<LocalKeySigner>,
    pub response_ttl: time::Duration,
    /// Where the ESP sends the signer back with its answer.
    pub response_url: String,
    /// Outbound requests (the server flow's post to the ESP).
    pub http: signet_sigcrypto::HttpConfig,
    /// The `/SubFilter` of eSign PDF signatures: what the ESPs' CMS is (`esign_esp_pades_cms`).
    /// One for all ESPs: the label is signed before the ESP is chosen, and a retry sends the
    /// same prepared document through another ESP.
    pub pdf_sub_filter: signet_signing::SubFilter,
    /// The ESPs in priority order; never empty.
    pub esps: Vec<Esp>,
    /// What was seen of each ESP, and the routing order it leads to.
    pub health: failover::EspHealth,
    pub probe: failover::ProbeSettings,
}

/// One configured ESP.
pub struct Esp {
    /// Its name in the settings, metrics, logs and each transaction's record.
    pub name: String,
    /// The eSign 2.1 form address (the signer's browser posts there), or the 3.x address
    /// Signet posts to.
    pub url: String,
    pub flow: EspFlow,
    /// What its answers must be signed with, and the CAs of its signer certificates.
    pub trust: EspTrust,
    /// Its profile with the explicit settings applied: its `AuthMode`s, its codes.
    pub profile: ResolvedProfile,
    /// What the probe asks for.
    pub probe_url: String,
}

/// How the request reaches the ESP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EspFlow {
    /// eSign 2.1 form flow: the signer's browser posts the request to the ESP's form.
    Form,
    /// eSign 3.x: Signet posts the request, the ESP answers `status="2"` with a `resCode`, and
    /// the browser goes to this address with `txnref` = base64("<txn>|<resCode>").
    Server { auth_url: String },
}

impl EsignSetup {
    /// The setup from the settings; `None` when no ESP is configured. A configured ESP with an
    /// unreadable certificate file stops the start-up: better than refusing every signer.
    pub fn from_config(config: &Config, asp_key: &KeyPairDer) -> anyhow::Result<Option<EsignSetup>> {
        let list = config.esign_esp_list()?;
        if list.is_empty() {
            return Ok(None);
        }
        let shared_cas = config.esign_ca_certificates.as_deref();
        let esps =
            list.iter().map(|settings| Esp::from_settings(settings, shared_cas)).collect::<Result<Vec<_>, _>>()?;
        let asp = LocalKeySigner::from_pkcs8(&asp_key.key_pkcs8_der, &asp_key.cert_der, Vec::new())
            .map_err(|e| anyhow::anyhow!("eSign ASP key: {e}"))?;
        let names = esps.iter().map(|esp| esp.name.clone()).collect();
        let probe_timeout = std::time::Duration::from_millis(config.esign_probe_timeout_ms.max(1));
        Ok(Some(EsignSetup {
            asp_id: config.esign_asp_id.clone(),
            asp: Arc::new(asp),
            response_ttl: time::Duration::seconds(config.esign_response_ttl_secs as i64),
            response_url: format!("{}/esign/response", config.public_base()),
            http: config.outbound_http(),
            pdf_sub_filter: if config.esign_esp_pades_cms {
                signet_signing::SubFilter::CadesDetached
            } else {
                signet_signing::SubFilter::Pkcs7Detached
            },
            esps,
            health: failover::EspHealth::new(names, config.esign_health_window_ms),
            probe: failover::ProbeSettings {
                interval: std::time::Duration::from_millis(config.esign_probe_interval_ms),
                http: signet_sigcrypto::HttpConfig {
                    timeout: probe_timeout,
                    max_response_bytes: 64 * 1024,
                    ..config.outbound_http()
                },
            },
        }))
    }

    /// The first ESP configured.
    pub fn primary(&self) -> &Esp {
        &self.esps[0]
    }

    /// The ESP of this name with its place in the list; `None` names the primary (transactions
    /// recorded before there were several). An ESP no longer configured is `None`.
    pub fn esp(&self, name: Option<&str>) -> Option<(usize, &Esp)> {
        match name {
            None => self.esps.first().map(|esp| (0, esp)),
            Some(name) => self.esps.iter().enumerate().find(|(_, esp)| esp.name == name),
        }
    }

    /// The CAs of every ESP's signer certificates (public verification trusts them all).
    pub fn esign_cas(&self) -> Vec<Vec<u8>> {
        let mut cas: Vec<Vec<u8>> = Vec::new();
        for ca in self.esps.iter().flat_map(|esp| esp.trust.esign_cas.iter()) {
            if !cas.contains(ca) {
                cas.push(ca.clone());
            }
        }
        cas
    }
}

impl Esp {
    fn from_settings(settings: &EspSettings, shared_cas: Option<&Path>) -> anyhow::Result<Esp> {
        let name = &settings.name;
        let is_http = |url: &str| url.starts_with("https://") || url.starts_with("http://");
        if !is_http(&settings.url) {
            anyhow::bail!("ESP {name}: its address (esign_esp_url, url) must be an http(s) address");
        }
        let Some(ca_file) = settings.ca_certificates.as_deref().or(shared_cas) else {
            anyhow::bail!("ESP {name}: esign_esp_url needs esign_esp_certificate and esign_ca_certificates");
        };
        let esp_certificate = certificates(&settings.certificate)?
            .into_iter()
            .next()
            .ok_or_else(|| anyhow::anyhow!("{}: no certificate", settings.certificate.display()))?;
        let esign_cas = certificates(ca_file)?;
        let profile = resolve_profile(settings).map_err(|e| anyhow::anyhow!("ESP {name}: {e}"))?;
        let flow = match (profile.flow, &settings.auth_url) {
            (FlowKind::Form, _) => EspFlow::Form,
            (FlowKind::Server, Some(auth_url)) if is_http(auth_url) => EspFlow::Server { auth_url: auth_url.clone() },
            (FlowKind::Server, _) => {
                anyhow::bail!(
                    "ESP {name}: the server flow (esign_flow = server, or a 3.x profile) needs esign_esp_auth_url (an http(s) address)"
                )
            }
        };
        let probe_url = settings.probe_url.clone().unwrap_or_else(|| settings.url.clone());
        if !is_http(&probe_url) {
            anyhow::bail!("ESP {name}: probe_url must be an http(s) address");
        }
        Ok(Esp {
            name: name.clone(),
            url: settings.url.clone(),
            flow,
            trust: EspTrust { esp_certificate, esign_cas, allow_sha1: profile.allow_sha1 },
            profile,
            probe_url,
        })
    }
}

/// The ESP's profile with the explicit settings over its defaults.
fn resolve_profile(settings: &EspSettings) -> anyhow::Result<ResolvedProfile> {
    let named = settings.profile.as_deref().unwrap_or("generic-2.1");
    let name = EspProfileName::parse(named).ok_or_else(|| {
        anyhow::anyhow!(
            "esign_esp_profile must be one of cdac, emudhra, protean, generic-2.1, generic-3.x, not {named:?}"
        )
    })?;
    let flow = match settings.flow.as_deref() {
        Some(text) => Some(
            FlowKind::parse(text).ok_or_else(|| anyhow::anyhow!("esign_flow must be form or server, not {text:?}"))?,
        ),
        None => None,
    };
    let auth_modes = match settings.auth_modes.as_deref() {
        Some(text) => Some(signet_esign::profile::parse_auth_modes(text).map_err(|bad| {
            anyhow::anyhow!("esign_auth_modes: {bad:?} is not otp, fingerprint, iris or face (or 1 to 4)")
        })?),
        None => None,
    };
    let overrides = Overrides { flow, allow_sha1: settings.allow_sha1, auth_modes };
    Ok(EspProfile::of(name).resolve(&overrides))
}

fn certificates(path: &Path) -> anyhow::Result<Vec<Vec<u8>>> {
    let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let certs = pki::certs_from_pem_or_der(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if certs.is_empty() {
        anyhow::bail!("{}: no certificate", path.display());
    }
    Ok(certs)
}

/// The `txn` Signet sends: `<id>-<secret>`. The id finds the transaction; only the secret's
/// hash is stored, and the secret derives the key that seals what the answer completes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxnId {
    pub id: String,
    pub secret: String,
}

/// Hex characters of the id and of the secret (48 and 128 bits; `txn` stays under 50
/// characters, as ESPs require).
const ID_HEX: usize = 12;
const SECRET_HEX: usize = 32;

impl TxnId {
    pub fn new() -> TxnId {
        let random = secrets::random_bytes::<{ (ID_HEX + SECRET_HEX) / 2 }>();
        let text = hex::encode(random);
        let (id, secret) = text.split_at(ID_HEX);
        TxnId { id: format!("E{id}"), secret: secret.to_string() }
    }

    pub fn parse(txn: &str) -> Option<TxnId> {
        let (id, secret) = txn.trim().split_once('-')?;
        let well_formed = id.len() == ID_HEX + 1
            && id.starts_with('E')
            && id[1..].bytes().all(|b| b.is_ascii_hexdigit())
            && secret.len() == SECRET_HEX
            && secret.bytes().all(|b| b.is_ascii_hexdigit());
        well_formed.then(|| TxnId { id: id.to_string(), secret: secret.to_string() })
    }

    pub fn txn(&self) -> String {
        format!("{}-{}", self.id, self.secret)
    }
}

impl Default for TxnId {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn txn_ids_round_trip_and_stay_short() {
        let txn = TxnId::new();
        assert!(txn.txn().len() < signet_esign::MAX_TXN_CHARS + 1);
        assert_eq!(TxnId::parse(&txn.txn()), Some(txn.clone()));
        assert_ne!(TxnId::new(), txn);
        for bad in [
            "",
            "E123",
            "X0123456789ab-0123456789abcdef0123456789abcdef",
            "E0123456789ab-short",
            "E0123456789ab-zz23456789abcdef0123456789abcdef",
        ] {
            assert_eq!(TxnId::parse(bad), None, "{bad}");
        }
    }
}

/// Why a workflow signature behind an eSign step can no longer be made (facts the signer pages
/// word in the signer's language).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EsignGone {
    /// Aadhaar eSign signs one to [`signet_esign::MAX_HASHES`] documents at a time.
    DocumentCount,
    /// The signature request no longer exists.
    NoSuchRequest,
    /// The request moved on (completed, declined, handed on) while the signer was away.
    MovedOn,
    /// The documents changed while the signer was at the ESP (another signer signed): sign again.
    DocumentsChanged,
}

/// Why an ESP's answer was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerRefusal {
    /// It names no transaction of this service.
    Unknown,
    /// It was already received.
    Replayed,
    /// It does not check out (forged, late, mismatched): the ASP error code recorded.
    NotAccepted(&'static str),
}

/// Why an eSign step was not taken: facts the pages word in the signer's language.
#[derive(Debug)]
pub enum EsignRefused {
    /// Aadhaar eSign is not configured, or not asked for here.
    Unavailable,
    /// The gateway transaction behind the answer has ended or cannot be found.
    Closed(crate::gateway::transaction::TransactionClosed),
    /// The workflow signature behind the answer can no longer be made, for this reason.
    Gone(EsignGone),
    /// The answer was not accepted (forged, replayed, late, mismatched); nothing changed.
    Answer(AnswerRefusal),
    /// The ESP refused the request (server flow): its error code and message, which the
    /// pages quote in the signer's language, and what the code means by that ESP's profile.
    Esp { code: String, message: String, kind: EspRefusal },
    /// Something the signer filled in must be corrected first: what, for the page to word.
    Input(signet_domain::fields::FieldRefusal),
    /// The signer was asked for a code by SMS and has not confirmed their phone yet.
    PhoneNotConfirmed,
    /// The answer to a gateway transaction was not accepted (forged, late, mismatched…) though
    /// it carried the transaction's secret: the signer may try again or give up, which ends the
    /// transaction with this code at `FUrl` (`gateway::esign::give_up`). `txn` is what the
    /// answer carried (`<id>-<secret>`), for the page's two forms.
    AnswerRefused { code: &'static str, txn: String },
    /// Something on our side failed: the cause, with its chain, is for the log only.
    Internal(BoxError),
}

impl From<signet_domain::Error> for EsignRefused {
    fn from(error: signet_domain::Error) -> Self {
        EsignRefused::Internal(error.into())
    }
}

/// An internal failure with its cause: any error type, or a message.
pub(crate) fn internal(cause: impl Into<BoxError>) -> EsignRefused {
    EsignRefused::Internal(cause.into())
}

/// Why the server flow's first step failed on the way to or from the ESP (internal: the
/// signer is told that eSign failed, the log gets this with its cause).
#[derive(Debug, thiserror::Error)]
enum EspExchangeError {
    #[error("the ESP could not be reached: {0}")]
    Unreachable(#[source] signet_sigcrypto::Error),
    /// The answer's signature does not verify, or the answer does not parse.
    #[error("the ESP's answer: {0}")]
    Answer(#[source] signet_esign::EsignError),
    #[error("the ESP answered for another transaction")]
    OtherTransaction,
}

pub(crate) fn setup(svc: &Services) -> Result<&EsignSetup, EsignRefused> {
    svc.esign.as_deref().ok_or(EsignRefused::Unavailable)
}

/// Where the signer's browser goes next: the ESP's address and the fields it posts there
/// (`eSignRequest`, `aspTxnID`, `Content-Type` in the form flow; `txnref` in the server flow).
pub struct EspRedirect {
    pub action: String,
    pub fields: Vec<(&'static str, String)>,
}

/// A request about to be sent: for whom, the digests with what the signer is told about each,
/// and where what the answer completes is kept.
pub(crate) struct Outgoing<'a> {
    pub tenant_id: signet_domain::TenantId,
    pub subject: EsignSubject<'a>,
    /// The folder under the tenant's blobs (`["gateway", number]`, `["signatories", id]`).
    pub blob_folder: [&'a str; 2],
    pub digests: &'a [[u8; 32]],
    pub doc_info: &'a [String],
    pub signer_id: Option<&'a str>,
    /// Raw RSA signatures over the digests (`rawrsa`, for XML) rather than a CMS per digest.
    pub raw: bool,
    /// The `AuthMode` the signer chose (`None`: the ESP's default, the profile's first).
    pub auth_mode: Option<AuthMode>,
}

/// Records the request (what the answer completes, sealed under the `txn`'s secret) and
/// returns it signed for the ESP the routing chooses: the healthiest in priority order, not
/// the one whose request this signer left unanswered last (they are back without an answer).
pub(crate) async fn send(
    svc: &Services,
    outgoing: &Outgoing<'_>,
    pending: &impl serde::Serialize,
) -> Result<EspRedirect, EsignRefused> {
    let avoid = svc.store.unanswered_esign_esp(outgoing.subject).await?;
    send_avoiding(svc, outgoing, pending, avoid.as_ref().map(Option::as_deref), false).await
}

/// As [`send`], never first through the ESP `avoid` (`Some(None)`: the primary, for requests
/// recorded before there were several) while another is not down: a retry after that ESP's
/// answer was refused.
pub(crate) async fn send_avoiding(
    svc: &Services,
    outgoing: &Outgoing<'_>,
    pending: &impl serde::Serialize,
    avoid: Option<Option<&str>>,
    retry: bool,
) -> Result<EspRedirect, EsignRefused> {
    let setup = setup(svc)?;
    let avoid = avoid.and_then(|name| setup.esp(name)).map(|(index, _)| index);
    // An ESP that does not offer the signer's `AuthMode` is no choice for them.
    let order: Vec<usize> = setup
        .health
        .route(avoid)
        .into_iter()
        .filter(|&index| setup.esps.get(index).is_some_and(|esp| esp.profile.auth_mode(outgoing.auth_mode).is_some()))
        .collect();
    // A mode no ESP offers can only come from a form that was not ours.
    let Some((&last, _)) = order.split_last() else {
        return Err(EsignRefused::Input(signet_domain::fields::FieldRefusal::NotAnInput));
    };
    let mut reason = failover::RouteReason::Best;
    for &index in &order {
        setup.health.routed(index, reason, retry || avoid.is_some());
        match send_to(svc, setup, index, outgoing, pending).await {
            Ok(redirect) => return Ok(redirect),
            // The server flow saw this ESP fail: the next one, at once, the signer seeing nothing.
            Err(Attempt::Failed(refused)) if index != last => {
                tracing::warn!(esp = %setup.esps[index].name, "an ESP failed a request; trying the next one");
                drop(refused);
                reason = failover::RouteReason::Failover;
            }
            Err(Attempt::Failed(refused) | Attempt::Refused(refused)) => return Err(refused),
        }
    }
    Err(internal("no ESP to send to"))
}

/// Why a request did not reach an ESP.
enum Attempt {
    /// The ESP failed (could not be reached, answered nothing readable, refused for its own
    /// failure): another ESP may take the request.
    Failed(EsignRefused),
    /// Anything else: the signer is told.
    Refused(EsignRefused),
}

impl From<EsignRefused> for Attempt {
    fn from(refused: EsignRefused) -> Self {
        Attempt::Refused(refused)
    }
}

impl From<signet_domain::Error> for Attempt {
    fn from(error: signet_domain::Error) -> Self {
        Attempt::Refused(error.into())
    }
}

/// One request to ESP `index`: recorded under a new `txn` naming that ESP, signed, and (server
/// flow) posted.
async fn send_to(
    svc: &Services,
    setup: &EsignSetup,
    index: usize,
    outgoing: &Outgoing<'_>,
    pending: &impl serde::Serialize,
) -> Result<EspRedirect, Attempt> {
    let esp = setup.esps.get(index).ok_or_else(|| internal("no such ESP"))?;
    let auth_mode = esp
        .profile
        .auth_mode(outgoing.auth_mode)
        .ok_or(EsignRefused::Input(signet_domain::fields::FieldRefusal::NotAnInput))?;
    let txn = TxnId::new();
    let sealed = Vault::for_link(&txn.secret, &txn.id)
        .and_then(|vault| serde_json::to_vec(pending).ok().and_then(|json| vault.seal(&json)))
        .ok_or_else(|| internal("sealing the eSign transaction"))?;
    let tenant = outgoing.tenant_id.to_string();
    let [folder, item] = outgoing.blob_folder;
    let key = BlobKey::new(["tenant", &tenant, folder, item, &format!("esign-{}.sealed", txn.id)]).map_err(internal)?;
    svc.blob.put(&key, Bytes::from(sealed)).await.map_err(internal)?;
    let digests_json =
        serde_json::to_string(&outgoing.digests.iter().map(hex::encode).collect::<Vec<_>>()).map_err(internal)?;
    svc.store
        .insert_esign_transaction(&NewEsignTransaction {
            id: &txn.id,
            secret_hash: &secrets::hash_token(&txn.secret),
            tenant_id: outgoing.tenant_id,
            subject: outgoing.subject,
            digests: &digests_json,
            raw_signatures: outgoing.raw,
            pending_blob: key.as_str(),
            expires_at: now_millis() + setup.response_ttl.whole_milliseconds() as i64,
            esp: &esp.name,
        })
        .await?;
    let request = request(setup, &txn, outgoing, auth_mode);
    let signed = sign_document(request.to_xml().as_bytes(), setup.asp.as_ref()).map_err(internal)?;
    match &esp.flow {
        EspFlow::Form => {
            let request = String::from_utf8(signed).map_err(internal)?;
            let fields =
                vec![("eSignRequest", request), ("aspTxnID", txn.txn()), ("Content-Type", "application/xml".into())];
            Ok(EspRedirect { action: esp.url.clone(), fields })
        }
        EspFlow::Server { auth_url } => {
            let posted = post_to_esp(svc, Share::Tenant(outgoing.tenant_id), setup, index, &txn, signed).await;
            match posted {
                Ok(res_code) => {
                    let reference =
                        base64::engine::general_purpose::STANDARD.encode(format!("{}|{res_code}", txn.txn()));
                    Ok(EspRedirect { action: auth_url.clone(), fields: vec![("txnref", reference)] })
                }
                Err(attempt) => {
                    // This request is over: an answer to it later finds it taken.
                    let code = match &attempt {
                        Attempt::Failed(_) => "esp_failed",
                        Attempt::Refused(_) => "esp_refused",
                    };
                    if let Ok(Some(row)) = svc.store.esign_transaction(&txn.id).await {
                        let _ = svc.store.answer_esign(&row.id, signet_domain::gateway::EsignState::Failed, code).await;
                        forget_pending(svc, &row).await;
                    }
                    Err(attempt)
                }
            }
        }
    }
}

/// The server flow's first step: the signed request posted to the ESP, whose signed answer
/// must accept it (`status="2"`) for this `txn`; its `resCode`. What the ESP did is recorded in
/// its health: an answer, its own failure, or no answer at all.
async fn post_to_esp(
    svc: &Services,
    share: Share,
    setup: &EsignSetup,
    index: usize,
    txn: &TxnId,
    signed: Vec<u8>,
) -> Result<String, Attempt> {
    let esp = setup.esps.get(index).ok_or_else(|| internal("no such ESP"))?;
    let (url, http) = (esp.url.clone(), setup.http.clone());
    let started = std::time::Instant::now();
    let posted = svc.heavy.run(share, move || signet_sigcrypto::post(&url, "application/xml", &signed, &http)).await?;
    let latency_ms = Some(u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX));
    let failed = |cause: EspExchangeError| {
        setup.health.record(index, Observation::Unreachable);
        tracing::warn!(esp = %esp.name, %cause, "the ESP did not take the request");
        Attempt::Failed(internal(cause))
    };
    let answer = posted.map_err(|e| failed(EspExchangeError::Unreachable(e)))?;
    signet_esign::asp::verify_answer(&answer, &esp.trust).map_err(|e| failed(EspExchangeError::Answer(e)))?;
    let response = EsignResponse::parse(&answer).map_err(|e| failed(EspExchangeError::Answer(e)))?;
    if response.txn != txn.txn() {
        return Err(failed(EspExchangeError::OtherTransaction));
    }
    match response.status {
        signet_esign::ResponseStatus::Pending if !response.res_code.is_empty() => {
            setup.health.record(index, Observation::Answered { latency_ms });
            Ok(response.res_code)
        }
        _ => {
            let code = response.err_code.unwrap_or_else(|| "NA".into());
            let message: String =
                response.err_msg.unwrap_or_default().chars().filter(|c| !c.is_control()).take(200).collect();
            let kind = esp.profile.profile.refusal(&code);
            let refused = EsignRefused::Esp { code, message, kind };
            if kind == EspRefusal::Service {
                setup.health.record(index, Observation::Refused);
                Err(Attempt::Failed(refused))
            } else {
                setup.health.record(index, Observation::Answered { latency_ms });
                Err(Attempt::Refused(refused))
            }
        }
    }
}

/// `SignerID` goes to the ESP as the eKYC id when it is an Aadhaar number (12 digits) or a
/// VID (16 digits); anything else is not an identifier the ESP knows.
fn ekyc_id(signer_id: Option<&str>) -> (String, String) {
    match signer_id.map(str::trim) {
        Some(id) if id.len() == 12 && id.bytes().all(|b| b.is_ascii_digit()) => (id.to_string(), "A".into()),
        Some(id) if id.len() == 16 && id.bytes().all(|b| b.is_ascii_digit()) => (id.to_string(), "V".into()),
        _ => (String::new(), "A".into()),
    }
}

fn request(setup: &EsignSetup, txn: &TxnId, outgoing: &Outgoing<'_>, auth_mode: AuthMode) -> EsignRequest {
    let (ekyc_id, ekyc_id_type) = ekyc_id(outgoing.signer_id);
    EsignRequest {
        ver: signet_esign::VERSION.into(),
        ts: OffsetDateTime::now_utc(),
        txn: txn.txn(),
        asp_id: setup.asp_id.clone(),
        auth_mode,
        response_sig_type: if outgoing.raw { "rawrsa" } else { "pkcs7" }.into(),
        response_url: setup.response_url.clone(),
        ekyc_id,
        ekyc_id_type,
        hashes: outgoing
            .digests
            .iter()
            .zip(outgoing.doc_info)
            .enumerate()
            .map(|(i, (digest, info))| InputHash { id: i as u32 + 1, sha256: *digest, doc_info: info.clone() })
            .collect(),
    }
}

/// The answer checked against the request the row records; the code of the refusal otherwise.
/// Checked against the ESP the request went to, and no other: an answer signed by another
/// configured ESP's key is as forged as any.
fn checked(setup: &EsignSetup, esign: &EsignTransactionRow, txn: &TxnId, xml: &[u8]) -> Result<Outcome, &'static str> {
    let malformed = signet_esign::asp::codes::MALFORMED;
    let Some((_, esp)) = setup.esp(esign.esp.as_deref()) else {
        tracing::warn!(esign = %esign.id, esp = ?esign.esp, "an eSign answer for an ESP no longer configured");
        return Err(signet_esign::asp::codes::FORGED);
    };
    let digests = digests_of(esign).map_err(|_| malformed)?;
    let sent_at =
        OffsetDateTime::from_unix_timestamp_nanos(i128::from(esign.sent_at) * 1_000_000).map_err(|_| malformed)?;
    let txn_text = txn.txn();
    let expected = Expected {
        txn: &txn_text,
        digests: &digests,
        sent_at,
        max_age: setup.response_ttl,
        now: OffsetDateTime::now_utc(),
        raw: esign.raw_signatures,
    };
    check_response(xml, &esp.trust, &expected).map_err(|refusal| {
        tracing::warn!(esign = %esign.id, code = refusal.code, message = %refusal.message, "an eSign answer was refused");
        refusal.code
    })
}

/// The eSign transaction an answer names, if its `txn` carries the right secret. The answer
/// is not trusted yet: only its `txn` is read, to know what to check it against.
async fn find_transaction(svc: &Services, response_xml: &[u8]) -> Result<(EsignTransactionRow, TxnId), EsignRefused> {
    let response = EsignResponse::parse(response_xml).map_err(|_| EsignRefused::Answer(AnswerRefusal::Unknown))?;
    transaction_of(svc, &response.txn).await
}

/// The eSign transaction a `txn` (`<id>-<secret>`) names, if it carries the right secret;
/// [`AnswerRefusal::Unknown`] otherwise, whatever is wrong (nothing tells a guesser more).
pub(crate) async fn transaction_of(svc: &Services, txn: &str) -> Result<(EsignTransactionRow, TxnId), EsignRefused> {
    let unknown = || EsignRefused::Answer(AnswerRefusal::Unknown);
    let txn = TxnId::parse(txn).ok_or_else(unknown)?;
    let row = svc.store.esign_transaction(&txn.id).await?.ok_or_else(unknown)?;
    if !secrets::token_matches(&txn.secret, &row.secret_hash) {
        return Err(unknown());
    }
    Ok((row, txn))
}

pub(crate) fn digests_of(esign: &EsignTransactionRow) -> Result<Vec<[u8; 32]>, EsignRefused> {
    let hexes: Vec<String> = serde_json::from_str(&esign.digests).map_err(internal)?;
    hexes.iter().map(|h| signet_signing::parse_sha256(h).map_err(internal)).collect()
}

/// Takes the answer: the first of concurrent or replayed posts wins, the others are refused.
pub(crate) async fn take(
    svc: &Services,
    esign: &EsignTransactionRow,
    state: signet_domain::gateway::EsignState,
    outcome: &str,
) -> Result<(), EsignRefused> {
    if svc.store.answer_esign(&esign.id, state, outcome).await? {
        Ok(())
    } else {
        Err(EsignRefused::Answer(AnswerRefusal::Replayed))
    }
}

/// Why what an answer completes could not be opened (internal: Signet kept it itself).
#[derive(Debug, thiserror::Error)]
pub(crate) enum PendingError {
    /// Its blob key is not one, or the blob cannot be read.
    #[error(transparent)]
    Blob(#[from] signet_blob::Error),
    /// It does not open under the `txn`'s secret, or what opens does not read.
    #[error("the pending eSign document cannot be opened")]
    Unreadable,
}

/// What the answer completes, opened with the `txn`'s secret.
pub(crate) async fn open_pending<T: serde::de::DeserializeOwned>(
    svc: &Services,
    esign: &EsignTransactionRow,
    txn: &TxnId,
) -> Result<T, PendingError> {
    let key = BlobKey::parse(&esign.pending_blob)?;
    let sealed = svc.blob.get(&key).await?;
    Vault::for_link(&txn.secret, &txn.id)
        .and_then(|vault| vault.open(&sealed))
        .and_then(|json| serde_json::from_slice(&json).ok())
        .ok_or(PendingError::Unreadable)
}

pub(crate) async fn forget_pending(svc: &Services, esign: &EsignTransactionRow) {
    if let Ok(key) = BlobKey::parse(&esign.pending_blob)
        && let Err(error) = svc.blob.delete(&key).await
    {
        tracing::warn!(%error, "the pending eSign document could not be deleted");
    }
}
