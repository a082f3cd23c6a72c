//! A gateway submission, once its body is read: the envelope is opened, the `Authtoken` and
//! the account's settings checked, and only then is `File` decoded, decompressed and parsed;
//! the subscription, document and reference checks follow, and the transaction is recorded
//! with what the signer page needs kept sealed under the link's secret (`vault`). The cheapest
//! checks come first, so that unauthenticated senders cost little; heavy steps run on the
//! bounded pool, off the executor.

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::{AuthtokenId, ErrorCode as ApiCode, now_millis};
use signet_gateway::{
    Document, ErrorCode, GatewayFailure, Payload, PayloadHead, PayloadObject, Profile, RawParams,
    new_transaction_number, open_request,
};
use signet_store::NewTransaction;
use time::OffsetDateTime;

use super::vault::Vault;
use crate::platform::heavy::Share;
use crate::{Services, platform::secrets};

/// Why a submission was not taken.
pub enum Refused {
    /// Before the request is opened there is no trusted return address: shown where it came.
    Here(GatewayFailure),
    /// Sent back to the request's `Furl` when it named one, else shown where it came.
    Back(GatewayFailure),
}

/// Takes a submission; returns the signer page's address (`/sign/g/{number}/{secret}`).
pub async fn submit(svc: &Services, ip: std::net::IpAddr, params: RawParams) -> Result<String, Refused> {
    let invalid = GatewayFailure::new(ErrorCode::InvalidRequest, "");
    let Ok(profile) = params.profile() else {
        return Err(Refused::Here(invalid));
    };
    match svc.intake.legacy_accepted(&svc.store).await {
        Ok(false) if profile == Profile::Legacy => return Err(Refused::Here(legacy_switched_off(None))),
        Ok(_) => {}
        Err(cause) => {
            tracing::error!(%cause, "gateway submission failed");
            return Err(Refused::Here(invalid));
        }
    }
    let key = svc.gateway_key.clone();
    let window = time::Duration::seconds(svc.config.gateway_clock_window_secs as i64);
    // The JSON is parsed once, here, and every later step reads the parsed object.
    let opened = svc
        .heavy
        .run(Share::GatewayIntake(crate::platform::limits::address_key(ip)), move || {
            let mut opened = open_request(&params, &key, OffsetDateTime::now_utc(), window).ok()?;
            let json = std::mem::take(&mut opened.payload_json);
            Some((PayloadObject::parse(&json), opened))
        })
        .await;
    let Ok(Some((object, opened))) = opened else {
        return Err(Refused::Here(invalid));
    };
    let object = object.map_err(Refused::Back)?;
    let head = object.head();
    let account = match authorise(svc, &head, opened.profile).await {
        Ok(account) => account,
        Err(Refusal::Gateway(failure)) => return Err(Refused::Back(failure)),
        Err(Refusal::Internal(cause)) => {
            tracing::error!(%cause, "gateway submission failed");
            return Err(Refused::Back(
                head.failure(ErrorCode::InvalidParameters, "the service could not take the request"),
            ));
        }
    };
    // From here the Authtoken has named the tenant: its payload (where an archive or XML bomb
    // would go off) is read in the tenant's own share, not in the line every integrator's
    // envelopes wait in.
    let read = svc.heavy.run(Share::Tenant(account.tenant_id), move || {
        let payload = object.read(&signet_gateway::PayloadLimits::default());
        (object, payload)
    });
    let (object, payload) = match read.await {
        Ok((object, Ok(payload))) => (object, payload),
        Ok((_, Err(failure))) => return Err(Refused::Back(failure)),
        Err(cause) => {
            tracing::error!(%cause, "gateway submission failed");
            return Err(Refused::Back(
                head.failure(ErrorCode::InvalidParameters, "the service could not take the request"),
            ));
        }
    };
    match accept(svc, &account, &payload, &object, &opened).await {
        Ok(link) => Ok(link),
        Err(Refusal::Gateway(failure)) => Err(Refused::Back(failure)),
        Err(Refusal::Internal(cause)) => {
            tracing::error!(%cause, "gateway submission failed");
            Err(Refused::Back(failure_for(
                &payload,
                ErrorCode::InvalidParameters,
                "the service could not take the request",
            )))
        }
    }
}

fn failure_for(payload: &Payload, code: ErrorCode, detail: impl Into<String>) -> GatewayFailure {
    let mut failure = GatewayFailure::new(code, detail);
    failure.failure_url = Some(payload.urls.failure.clone());
    failure.cancel_url = Some(payload.urls.cancel.clone());
    failure.reference_number = Some(payload.reference_number.clone());
    failure
}

fn legacy_switched_off(head: Option<&PayloadHead>) -> GatewayFailure {
    let detail = "the legacy envelope is switched off for this account; use Profile=2";
    match head {
        Some(head) => head.failure(ErrorCode::InvalidRequest, detail),
        None => GatewayFailure::new(ErrorCode::InvalidRequest, detail),
    }
}

enum Refusal {
    Gateway(GatewayFailure),
    Internal(String),
}

impl From<signet_domain::Error> for Refusal {
    fn from(error: signet_domain::Error) -> Self {
        Refusal::Internal(error.to_string())
    }
}

/// The account behind a valid `Authtoken`, with its gateway settings.
struct Account {
    authtoken_id: AuthtokenId,
    tenant_id: signet_domain::TenantId,
    settings: signet_store::GatewaySettings,
}

/// 104 for an unknown `Authtoken`; 109 for a legacy envelope the account switched off.
async fn authorise(svc: &Services, head: &PayloadHead, profile: Profile) -> Result<Account, Refusal> {
    let Some(authtoken) = head.authtoken.as_deref() else {
        return Err(Refusal::Gateway(head.failure(ErrorCode::InvalidParameters, "Authtoken is required")));
    };
    let Some((authtoken_id, tenant_id)) = svc.store.authtoken_by_hash(&secrets::hash_token(authtoken)).await? else {
        return Err(Refusal::Gateway(head.failure(ErrorCode::InvalidAuthtoken, "")));
    };
    let settings = svc.store.gateway_settings(tenant_id).await?;
    if profile == Profile::Legacy && !settings.legacy_profile {
        return Err(Refusal::Gateway(legacy_switched_off(Some(head))));
    }
    Ok(Account { authtoken_id, tenant_id, settings })
}

/// The subscription checks (105), the document checks (107) and the reference check (108);
/// then the transaction is recorded and its signer link returned. What the signer page needs
/// is kept sealed under the link's secret (`vault`), without the `Authtoken`.
async fn accept(
    svc: &Services,
    account: &Account,
    payload: &Payload,
    object: &PayloadObject,
    opened: &signet_gateway::OpenedRequest,
) -> Result<String, Refusal> {
    let refuse = |code: ErrorCode, detail: &str| Refusal::Gateway(failure_for(payload, code, detail));
    let Account { authtoken_id, tenant_id, settings } = account;
    let (authtoken_id, tenant_id) = (*authtoken_id, *tenant_id);
    let file_type = payload.file_type.as_str().to_ascii_uppercase();
    if !settings.file_types.contains(&file_type) {
        return Err(refuse(ErrorCode::NotSubscribed, &format!("file type {file_type}")));
    }
    if let Some(t) = payload.signature_types.iter().find(|t| !settings.signature_types.contains(&i64::from(t.code()))) {
        return Err(refuse(ErrorCode::NotSubscribed, &format!("signature type {}", t.code())));
    }
    if let Document::Pdf { bytes, options } = &payload.document {
        let (bytes, options) = (bytes.clone(), options.clone());
        svc.heavy
            .run(Share::Tenant(tenant_id), move || check_pdf_pages(&bytes, &options))
            .await?
            .map_err(|detail| refuse(ErrorCode::InvalidParameters, &detail))?;
    }
    if let Document::Hash(details) = &payload.document
        && svc.config.gateway_hash_check
    {
        check_document_hashes(svc, details).await.map_err(|detail| refuse(ErrorCode::InvalidParameters, &detail))?;
    }

    let number = new_transaction_number(OffsetDateTime::now_utc());
    let link_secret = secrets::random_token(24);
    let vault = Vault::for_link(&link_secret, &number).ok_or_else(|| Refusal::Internal("vault key".into()))?;
    let kept = object.without_authtoken();
    let sealed_payload = vault.seal(&kept).ok_or_else(|| Refusal::Internal("sealing the payload".into()))?;
    let sealed_session = vault.seal(opened.session.as_bytes()).ok_or_else(|| Refusal::Internal("sealing".into()))?;
    let payload_key = BlobKey::new(["tenant", &tenant_id.to_string(), "gateway", &number, "payload.sealed"])
        .map_err(|e| Refusal::Internal(e.to_string()))?;
    svc.blob.put(&payload_key, Bytes::from(sealed_payload)).await.map_err(|e| Refusal::Internal(e.to_string()))?;
    let summary = serde_json::json!({
        "fileType": file_type,
        "signatureTypes": payload.signature_types.iter().map(|t| t.code()).collect::<Vec<_>>(),
        "storeToDb": payload.store_to_db,
    });
    let expires_at = now_millis() + (svc.config.gateway_transaction_ttl_secs * 1000) as i64;
    let inserted = svc
        .store
        .insert_transaction(&NewTransaction {
            transaction_number: &number,
            tenant_id,
            authtoken_id,
            reference_number: &payload.reference_number,
            file_type: &file_type,
            profile: if opened.profile == Profile::Modern { 2 } else { 1 },
            link_hash: &secrets::hash_token(&link_secret),
            session_key: &sealed_session,
            request_json: &summary.to_string(),
            payload_blob: Some(payload_key.as_str()),
            store_result: payload.store_to_db,
            success_url: &payload.urls.success,
            failure_url: &payload.urls.failure,
            cancel_url: &payload.urls.cancel,
            expires_at,
        })
        .await;
    match inserted {
        Ok(_) => Ok(format!("/sign/g/{number}/{link_secret}")),
        Err(error) if error.code() == ApiCode::Conflict => {
            let _ = svc.blob.delete(&payload_key).await;
            Err(refuse(ErrorCode::ReferenceNumberUsed, ""))
        }
        Err(error) => {
            let _ = svc.blob.delete(&payload_key).await;
            Err(error.into())
        }
    }
}

/// Fetches each `DocumentURL` through the guarded client (SSRF rules, size and time caps) and
/// compares its SHA-256 with `DocumentHash`.
async fn check_document_hashes(svc: &Services, details: &[signet_gateway::DocumentDetail]) -> Result<(), String> {
    let cfg = svc.config.outbound_http();
    for detail in details.iter().cloned() {
        let cfg = cfg.clone();
        let fetched = tokio::task::spawn_blocking(move || {
            let bytes = signet_sigcrypto::fetch(&detail.url, &cfg)
                .map_err(|e| format!("DocumentURL of {} could not be fetched: {e}", detail.name))?;
            let actual = hex::encode(signet_gateway::sha256(&bytes));
            if actual == detail.hash_hex {
                Ok(())
            } else {
                Err(format!("DocumentHash of {} does not match the document at its DocumentURL", detail.name))
            }
        })
        .await
        .map_err(|e| e.to_string())?;
        fetched?;
    }
    Ok(())
}

/// Pages named by the request must exist in the document, and custom boxes must lie on the
/// pages they are drawn on (as the reader sees the page: crop box, rotation applied).
fn check_pdf_pages(pdf: &[u8], options: &signet_gateway::PdfOptions) -> Result<(), String> {
    use signet_gateway::PageSelection as Select;
    let document = signet_pdf::reader::Document::open(pdf).map_err(|e| format!("File: {e}"))?;
    document.check_displayable().map_err(|e| format!("File: {e}"))?;
    document.decode_page_contents().map_err(|e| format!("File: {e}"))?;
    let pages = document.pages().map_err(|e| format!("File: {e}"))?;
    let count = pages.len() as u32;
    let (selected, boxes): (Vec<u32>, Vec<(u32, signet_gateway::BoxRect)>) = match &options.pages {
        Select::All => ((1..=count).collect(), Vec::new()),
        Select::First => (vec![1], Vec::new()),
        Select::Last => (vec![count], Vec::new()),
        Select::Even => ((1..=count).filter(|p| p % 2 == 0).collect(), Vec::new()),
        Select::Odd => ((1..=count).filter(|p| p % 2 == 1).collect(), Vec::new()),
        Select::Specify(list) => (list.clone(), Vec::new()),
        Select::PageLevel(items) => {
            (items.iter().map(|b| b.page).collect(), items.iter().map(|b| (b.page, b.rect)).collect())
        }
    };
    if let Some(page) = selected.iter().find(|p| **p == 0 || **p > count) {
        return Err(format!("page {page} is beyond the document's {count} pages"));
    }
    let custom: Vec<(u32, signet_gateway::BoxRect)> = match options.position {
        signet_gateway::SignaturePosition::Customize(rect) if boxes.is_empty() => {
            selected.iter().map(|p| (*p, rect)).collect()
        }
        _ => boxes,
    };
    for (page, rect) in custom {
        let Some(info) = pages.get(page as usize - 1) else { continue };
        let [x0, y0, x1, y1] = info.crop_box;
        let (width, height) = ((x1 - x0).abs(), (y1 - y0).abs());
        let (width, height) = if info.rotate % 180 == 0 { (width, height) } else { (height, width) };
        if !rect.fits(width, height) {
            return Err(format!(
                "the box {} is outside page {page} ({width:.0} x {height:.0} points)",
                rect.to_param()
            ));
        }
    }
    Ok(())
}
