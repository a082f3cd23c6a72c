//! A gateway transaction from its signer link: opening it (the link's secret authorises the
//! signer and unseals what was kept of the request), sealing the document or hashes into the
//! `Returnvalue`, keeping the result when the integrator asked (`Storetodb`), and ending it
//! (first caller wins; what was kept of the request is deleted).

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::audit::Actor;
use signet_domain::gateway::TransactionState;
use signet_domain::now_millis;
use signet_gateway::{
    Document, ErrorCode, GatewayFailure, Payload, PayloadLimits, Profile, ResultPost, parse_kept_payload,
    seal_hash_result, seal_result,
};
use signet_store::{TransactionOutcome, TransactionRow};

use super::seal::{Mark, Reached, SealError, SealPolicy, seal_hashes, seal_pdf};
use super::vault::Vault;
use crate::platform::heavy::Share;
use crate::{Services, platform::secrets};

/// How long after completion a repeated submission from the signer's link is answered with the
/// kept result again.
const DELIVER_AGAIN_MILLIS: i64 = 10 * 60 * 1000;

/// An open transaction: its row, the request as it was kept, and the link's vault.
pub struct OpenTransaction {
    pub row: TransactionRow,
    pub payload: Payload,
    vault: Vault,
}

impl OpenTransaction {
    /// The key that seals the `Returnvalue`.
    pub fn session_key(&self) -> Option<signet_gateway::SessionKey> {
        self.vault.open_session_key(&self.row.session_key)
    }

    /// Seals what a later step of this transaction needs under the link's key.
    pub(super) fn seal(&self, plain: &[u8]) -> Option<Vec<u8>> {
        self.vault.seal(plain)
    }

    pub(super) fn unseal(&self, sealed: &[u8]) -> Option<Vec<u8>> {
        self.vault.open(sealed)
    }
}

/// Why a link does not lead to an open transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransactionClosed {
    NotFound,
    /// Ended, and how (the signer page says it in the signer's language).
    Ended(TransactionEnd),
    Broken,
}

/// How a transaction that no longer takes a signature ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransactionEnd {
    Signed,
    Cancelled,
    Failed,
    Expired,
}

impl TransactionEnd {
    /// The end a stored state stands for (an `initiated` one past its time is expired).
    pub fn of_state(state: TransactionState) -> TransactionEnd {
        match state {
            TransactionState::Completed => TransactionEnd::Signed,
            TransactionState::Cancelled => TransactionEnd::Cancelled,
            TransactionState::Failed => TransactionEnd::Failed,
            TransactionState::Initiated | TransactionState::Expired => TransactionEnd::Expired,
        }
    }
}

/// The transaction behind a link, if the link is right and the transaction still open.
pub async fn open(svc: &Services, number: &str, secret: &str) -> Result<OpenTransaction, TransactionClosed> {
    use TransactionClosed::{Broken, Ended, NotFound};
    let row = svc.store.transaction(number).await.map_err(|_| Broken)?.ok_or(NotFound)?;
    if !secrets::token_matches(secret, &row.link_hash) {
        return Err(NotFound);
    }
    if row.state != TransactionState::Initiated {
        return Err(Ended(TransactionEnd::of_state(row.state)));
    }
    if row.expires_at < now_millis() {
        return Err(Ended(TransactionEnd::Expired));
    }
    let key = row.payload_blob.as_deref().and_then(|k| BlobKey::parse(k).ok()).ok_or(Broken)?;
    let vault = Vault::for_link(secret, number).ok_or(Broken)?;
    let stored = svc.blob.get(&key).await.map_err(|_| Broken)?;
    // Transactions submitted before payloads were sealed kept them as plain `payload.json`.
    let json = if key.as_str().ends_with(".sealed") { vault.open(&stored).ok_or(Broken)? } else { stored.to_vec() };
    let payload = svc
        .heavy
        .run(Share::Tenant(row.tenant_id), move || parse_kept_payload(&json, &PayloadLimits::default()))
        .await
        .map_err(|_| Broken)?
        .map_err(|_| Broken)?;
    Ok(OpenTransaction { row, payload, vault })
}

/// Ends the transaction (first caller wins) and deletes what it kept of the request.
pub(super) async fn finish(
    svc: &Services,
    row: &TransactionRow,
    outcome: &TransactionOutcome<'_>,
    actor: &Actor,
) -> Result<bool, TransactionClosed> {
    let finished = svc.store.finish_transaction(row.tenant_id, &row.transaction_number, outcome, actor).await;
    if let Ok(true) = finished
        && let Some(key) = row.payload_blob.as_deref().and_then(|k| BlobKey::parse(k).ok())
        && let Err(error) = svc.blob.delete(&key).await
    {
        tracing::warn!(%error, "the payload of a finished transaction could not be deleted");
    }
    finished.map_err(|error| {
        tracing::error!(%error, "finishing a gateway transaction failed");
        TransactionClosed::Broken
    })
}

/// How the tenant's seals are made: the TSA, the outbound policy, the platform CA's revocation
/// list, the zone of the appearance's date.
pub(super) async fn seal_policy(svc: &Services, tenant_id: signet_domain::TenantId) -> SealPolicy {
    let http = svc.config.outbound_http();
    let zone = crate::people::organisation::zone_of(svc, tenant_id).await;
    // Issuing the list is a signature: only when a TSA makes seals long-term at all.
    let validation = match svc.config.tsa_url {
        Some(_) => svc.keys.validation_data().unwrap_or_else(|error| {
            tracing::warn!(%error, "no revocation list of the platform CA: seals stay at B-T");
            signet_signing::ValidationData::default()
        }),
        None => signet_signing::ValidationData::default(),
    };
    SealPolicy { tsa_url: svc.config.tsa_url.clone(), http, zone, validation }
}

/// Why the `Returnvalue` could not be made. The integrator is told only that the document
/// could not be signed; the cause, with its chain, is for the log.
#[derive(Debug, thiserror::Error)]
enum ReturnvalueError {
    #[error("the session key is damaged")]
    SessionKey,
    /// The tenant's seal could not be loaded, or the work pool failed.
    #[error(transparent)]
    Platform(#[from] signet_domain::Error),
    #[error(transparent)]
    Seal(#[from] SealError),
    /// The result could not be encrypted under the session key.
    #[error(transparent)]
    Envelope(#[from] signet_gateway::GatewayError),
    #[error("this file type is not signed with an electronic signature")]
    NotSealable,
}

/// The signed bytes (PDF) or the JSON of hash signatures, sealed as the `Returnvalue`, and the
/// level the signature reached.
async fn produce_returnvalue(
    svc: &Services,
    open: &OpenTransaction,
    mark: Mark,
) -> Result<(String, Reached), ReturnvalueError> {
    let profile = if open.row.profile == 2 { Profile::Modern } else { Profile::Legacy };
    let session = open.vault.open_session_key(&open.row.session_key).ok_or(ReturnvalueError::SessionKey)?;
    let signer = svc.seals.for_tenant(&svc.store, open.row.tenant_id).await?;
    let policy = seal_policy(svc, open.row.tenant_id).await;
    match open.payload.document.clone() {
        Document::Pdf { bytes, options } => {
            let (signed, reached) = svc
                .heavy
                .run(Share::Tenant(open.row.tenant_id), move || {
                    seal_pdf(&bytes, &options, mark, signer.as_ref(), &policy)
                })
                .await??;
            Ok((seal_result(&session, profile, &signed)?, reached))
        }
        Document::Hash(details) => {
            let (signatures, reached) = svc
                .heavy
                .run(Share::Tenant(open.row.tenant_id), move || seal_hashes(&details, signer.as_ref(), &policy))
                .await??;
            Ok((seal_hash_result(&session, profile, &signatures)?, reached))
        }
        _ => Err(ReturnvalueError::NotSealable),
    }
}

pub(super) async fn keep_result(svc: &Services, row: &TransactionRow, returnvalue: &str) -> Option<(String, i64)> {
    if !row.store_result {
        return None;
    }
    let key =
        BlobKey::new(["tenant", &row.tenant_id.to_string(), "gateway", &row.transaction_number, "result"]).ok()?;
    svc.blob.put(&key, Bytes::from(returnvalue.to_string())).await.ok()?;
    Some((key.as_str().to_string(), now_millis() + (svc.config.gateway_result_retention_secs * 1000) as i64))
}

/// Where the signer's browser posts a transaction's result, and what.
pub struct Delivery {
    pub url: String,
    pub post: ResultPost,
    pub headline: &'static str,
}

/// A second submission from the signer's link shortly after the transaction completed (Sign
/// pressed twice on a slow connection without JavaScript, or the result page reloaded): the
/// browser showed only the later answer, so the kept result (`Storetodb`) goes to SUrl again
/// instead of a page that says the document is already signed, and the integrator still gets it.
pub async fn deliver_again(svc: &Services, number: &str, secret: &str) -> Option<Delivery> {
    let row = svc.store.transaction(number).await.ok()??;
    if !secrets::token_matches(secret, &row.link_hash) || row.state != TransactionState::Completed {
        return None;
    }
    let now = now_millis();
    if row.updated_at + DELIVER_AGAIN_MILLIS < now || row.result_expires_at.is_none_or(|until| until < now) {
        return None;
    }
    let key = BlobKey::parse(row.result_blob.as_deref()?).ok()?;
    let returnvalue = String::from_utf8(svc.blob.get(&key).await.ok()?.to_vec()).ok()?;
    let post = ResultPost::success(returnvalue, number, &row.reference_number);
    Some(Delivery { url: row.success_url, post, headline: "Signed" })
}

/// Ends a transaction whose time ran out before its signer finished (first caller wins; what
/// was kept of the request is deleted). A signer whose eSign answer was refused and who never
/// came back: the integrator learns why (the status query's `ErrorMessage`, and FUrl when the
/// signer's browser comes back, see [`expired_delivery`]).
pub async fn expire(
    store: &signet_store::Store,
    blob: &signet_blob::BlobStore,
    tenant_id: signet_domain::TenantId,
    number: &str,
) -> Result<(), signet_domain::Error> {
    let refused = store.esign_refusal_of_gateway(number).await?;
    let message = match &refused {
        Some(code) => format!("{EXPIRED} - {}", super::esign::refused_answer(code)),
        None => EXPIRED.to_string(),
    };
    let detail = match &refused {
        Some(code) => serde_json::json!({"refusedAnswer": code}),
        None => serde_json::Value::Null,
    };
    let expired = TransactionOutcome {
        state: TransactionState::Expired,
        error_message: Some(&message),
        result_blob: None,
        result_expires_at: None,
        signature_level: None,
        detail,
    };
    let kept = store.transaction(number).await?.and_then(|row| row.payload_blob);
    if store.finish_transaction(tenant_id, number, &expired, &Actor::system()).await?
        && let Some(key) = kept.as_deref().and_then(|k| BlobKey::parse(k).ok())
        && let Err(error) = blob.delete(&key).await
    {
        tracing::warn!(%error, "the payload of an expired transaction could not be deleted");
    }
    Ok(())
}

/// What an expired transaction's `ErrorMessage` starts with.
const EXPIRED: &str = "Transaction expired";

/// A transaction whose time ran out, for the signer's browser that comes back to it (through
/// its link, or with the ESP's answer): the failure goes to FUrl, 107 with the status query's
/// message, since the gateway has no server-to-server call and the browser carries every other
/// result. One past its time that housekeeping has not reached yet is expired first. `None`
/// for any other transaction (a wrong secret among them).
pub async fn expired_delivery(svc: &Services, number: &str, secret: Option<&str>) -> Option<Delivery> {
    let mut row = svc.store.transaction(number).await.ok()??;
    if secret.is_some_and(|secret| !secrets::token_matches(secret, &row.link_hash)) {
        return None;
    }
    if row.state == TransactionState::Initiated && row.expires_at < now_millis() {
        if let Err(error) = expire(&svc.store, &svc.blob, row.tenant_id, number).await {
            tracing::warn!(%error, transaction = number, "an overdue transaction could not be expired");
            return None;
        }
        row = svc.store.transaction(number).await.ok()??;
    }
    if row.state != TransactionState::Expired {
        return None;
    }
    let message = row.error_message.clone().unwrap_or_else(|| EXPIRED.to_string());
    let failure = GatewayFailure::new(ErrorCode::InvalidParameters, message);
    let post = ResultPost::failure(&failure, number, Some(&row.reference_number));
    Some(Delivery { url: row.failure_url, post, headline: EXPIRED })
}

/// Seals the document with the signer's mark and ends the transaction: the result goes to
/// SUrl, or, when sealing fails, a generic failure to FUrl (the cause goes to the log only:
/// file system, TSA or OCSP text is for operators). Another submission that finished first
/// gets the kept result again, or the "already signed" refusal.
pub async fn sign(
    svc: &Services,
    open: &OpenTransaction,
    secret: &str,
    mark: Mark,
    actor: &Actor,
    detail: serde_json::Value,
) -> Result<Delivery, TransactionClosed> {
    match produce_returnvalue(svc, open, mark).await {
        Ok((returnvalue, reached)) => match complete(svc, &open.row, (returnvalue, reached), actor, detail).await? {
            Some(delivery) => Ok(delivery),
            // Another submission from this link finished first.
            None => deliver_again(svc, &open.row.transaction_number, secret)
                .await
                .ok_or(TransactionClosed::Ended(TransactionEnd::Signed)),
        },
        Err(cause) => {
            tracing::warn!(transaction = %open.row.transaction_number, %cause, "sealing failed");
            let failure = GatewayFailure::new(ErrorCode::InvalidParameters, "the document could not be signed");
            Ok(fail(svc, &open.row, &failure, actor, detail).await)
        }
    }
}

/// Ends the transaction as completed, keeping the result when asked (`Storetodb`); `None`
/// when another submission ended it first.
pub(super) async fn complete(
    svc: &Services,
    row: &TransactionRow,
    (returnvalue, reached): (String, Reached),
    actor: &Actor,
    mut detail: serde_json::Value,
) -> Result<Option<Delivery>, TransactionClosed> {
    let kept = keep_result(svc, row, &returnvalue).await;
    let level = reached.label();
    if let Some(fields) = detail.as_object_mut() {
        fields.insert("signatureLevel".into(), serde_json::Value::String(level.clone()));
    }
    let outcome = TransactionOutcome {
        state: TransactionState::Completed,
        error_message: None,
        result_blob: kept.as_ref().map(|(key, _)| key.as_str()),
        result_expires_at: kept.as_ref().map(|(_, until)| *until),
        signature_level: Some(&level),
        detail,
    };
    if !finish(svc, row, &outcome, actor).await? {
        return Ok(None);
    }
    let post = ResultPost::success(returnvalue, &row.transaction_number, &row.reference_number);
    Ok(Some(Delivery { url: row.success_url.clone(), post, headline: "Signed" }))
}

/// Ends the transaction as failed: `failure` goes to FUrl.
pub(super) async fn fail(
    svc: &Services,
    row: &TransactionRow,
    failure: &GatewayFailure,
    actor: &Actor,
    detail: serde_json::Value,
) -> Delivery {
    let message = failure.error_message();
    let outcome = TransactionOutcome {
        state: TransactionState::Failed,
        error_message: Some(&message),
        result_blob: None,
        result_expires_at: None,
        signature_level: None,
        detail,
    };
    let _ = finish(svc, row, &outcome, actor).await;
    let post = ResultPost::failure(failure, &row.transaction_number, Some(&row.reference_number));
    Delivery { url: row.failure_url.clone(), post, headline: "Signing failed" }
}

/// The signer cancels: error 106 to CUrl.
pub async fn cancel(svc: &Services, open: &OpenTransaction, actor: &Actor) -> Result<Delivery, TransactionClosed> {
    cancel_row(svc, &open.row, actor).await
}

pub(super) async fn cancel_row(
    svc: &Services,
    row: &TransactionRow,
    actor: &Actor,
) -> Result<Delivery, TransactionClosed> {
    let message = ErrorCode::Cancelled.error_message();
    let outcome = TransactionOutcome {
        state: TransactionState::Cancelled,
        error_message: Some(&message),
        result_blob: None,
        result_expires_at: None,
        signature_level: None,
        detail: serde_json::json!({}),
    };
    if !finish(svc, row, &outcome, actor).await? {
        return Err(TransactionClosed::Ended(TransactionEnd::Cancelled));
    }
    let post = ResultPost::cancelled(&row.transaction_number, &row.reference_number);
    Ok(Delivery { url: row.cancel_url.clone(), post, headline: "Cancelled" })
}

/// The signer gives up after the page refused their uploaded image (115 or 116): that code goes
/// to Furl, so the integrator learns why rather than a bare cancellation. Any other code, or a
/// request that offers no upload (where neither refusal can happen), is a plain cancel (106).
pub async fn give_up_after_image(
    svc: &Services,
    open: &OpenTransaction,
    code: u16,
    actor: &Actor,
) -> Result<Delivery, TransactionClosed> {
    let code = match ErrorCode::from_code(code) {
        Some(code @ (ErrorCode::SignatureImageType | ErrorCode::SignatureImageSize)) => code,
        _ => return cancel(svc, open, actor).await,
    };
    let uploads = matches!(&open.payload.document, Document::Pdf { options, .. } if options.esignature.upload);
    if !uploads {
        return cancel(svc, open, actor).await;
    }
    let failure = GatewayFailure::new(code, "");
    Ok(fail(svc, &open.row, &failure, actor, serde_json::json!({"signatureTypes": "4"})).await)
}

/// The signer's signature pad (the request's only eSignature option) is not connected: 117
/// to Furl. Refused when the request offers other ways to sign.
pub async fn pad_missing(svc: &Services, open: &OpenTransaction, actor: &Actor) -> Result<Delivery, TransactionClosed> {
    let pad_only = match &open.payload.document {
        Document::Pdf { options, .. } => {
            let e = &options.esignature;
            e.signature_pad && !(e.draw || e.font || e.upload)
        }
        _ => false,
    };
    if !pad_only {
        return Err(TransactionClosed::NotFound);
    }
    let failure = GatewayFailure::new(ErrorCode::SignaturePadNotConnected, "");
    Ok(fail(svc, &open.row, &failure, actor, serde_json::json!({"signatureTypes": "4"})).await)
}

/// The name of the organisation that asks for the open transaction's signature (empty when it
/// cannot be read: the page still shows).
pub async fn requester_name(svc: &Services, open: &OpenTransaction) -> String {
    svc.store.tenant_name(open.row.tenant_id).await.ok().flatten().unwrap_or_default()
}
