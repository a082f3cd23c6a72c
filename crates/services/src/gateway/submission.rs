//! A gateway submission, once its body is read: the envelope is opened, the `Authtoken` and
//! the account's settings checked, and only then is `File` decoded, decompressed and parsed;
//! the subscription, document and reference checks follow, and the transaction is recorded
//! with what the signer page needs kept sealed under the link's secret (`vault`). The cheapest
//! checks come first, so that unauthenticated senders cost little; heavy steps run on the
//! bounded pool, off the executor.

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::{AuthtokenId, BoxError, ErrorCode as ApiCode, now_millis};
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
    /// Something on our side failed: the integrator gets a generic 107, the log the cause.
    Internal(BoxError),
}

impl From<signet_domain::Error> for Refusal {
    fn from(error: signet_domain::Error) -> Self {
        Refusal::Internal(error.into())
    }
}

/// An internal failure with its cause: any error type, or a message.
fn internal(cause: impl Into<BoxError>) -> Refusal {
    Refusal::Internal(cause.into())
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

/// Whether the signer page would offer at least one of the request's signature types: eSign
/// (3) only where an ESP is configured, the others always. A request for eSign alone on a
/// service without an ESP is refused with 105 at once, rather than leaving the signer on a
/// page with no way to sign.
fn offers_a_signature_type(svc: &Services, payload: &Payload) -> bool {
    payload.signature_types.iter().any(|t| *t != signet_gateway::SignatureType::ESign || svc.esign.is_some())
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
    if !offers_a_signature_type(svc, payload) {
        return Err(refuse(
            ErrorCode::NotSubscribed,
            "signature type 3: Aadhaar eSign is not configured on this service",
        ));
    }
    if let Document::Pdf { bytes, options } = &payload.document {
        let (bytes, options) = (bytes.clone(), options.clone());
        svc.heavy
            .run(Share::Tenant(tenant_id), move || check_pdf_pages(&bytes, &options))
            .await?
            .map_err(|refusal| refuse(ErrorCode::InvalidParameters, &refusal.to_string()))?;
    }
    if let Document::Hash(details) = &payload.document
        && svc.config.gateway_hash_check
    {
        check_document_hashes(svc, details)
            .await
            .map_err(|refusal| refuse(ErrorCode::InvalidParameters, &refusal.to_string()))?;
    }

    let number = new_transaction_number(OffsetDateTime::now_utc());
    let link_secret = secrets::random_token(24);
    let vault = Vault::for_link(&link_secret, &number).ok_or_else(|| internal("vault key"))?;
    let kept = object.without_authtoken();
    let sealed_payload = vault.seal(&kept).ok_or_else(|| internal("sealing the payload"))?;
    let sealed_session = vault.seal(opened.session.as_bytes()).ok_or_else(|| internal("sealing"))?;
    let payload_key =
        BlobKey::new(["tenant", &tenant_id.to_string(), "gateway", &number, "payload.sealed"]).map_err(internal)?;
    svc.blob.put(&payload_key, Bytes::from(sealed_payload)).await.map_err(internal)?;
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

/// Why a request's document was refused (107). The text goes back to the integrator as the
/// failure's detail, so each variant reads exactly as the spec's answer always has; the
/// reader's or the fetch's own error stays attached as the cause.
#[derive(Debug, thiserror::Error)]
enum DocumentRefusal {
    /// The PDF cannot be read, or a page of it cannot be shown.
    #[error("File: {0}")]
    Unreadable(#[from] signet_pdf::Error),
    #[error("page {page} is beyond the document's {count} pages")]
    PageBeyond { page: u32, count: u32 },
    /// A custom box (as the request writes it) that does not lie on its page.
    #[error("the box {rect} is outside page {page} ({width:.0} x {height:.0} points)")]
    BoxOutside { rect: String, page: u32, width: f64, height: f64 },
    #[error("DocumentURL of {name} could not be fetched: {cause}")]
    Unfetched {
        name: String,
        #[source]
        cause: signet_sigcrypto::Error,
    },
    #[error("DocumentHash of {name} does not match the document at its DocumentURL")]
    HashMismatch { name: String },
    /// The fetch's blocking task did not finish.
    #[error(transparent)]
    Interrupted(#[from] tokio::task::JoinError),
}

/// Fetches each `DocumentURL` through the guarded client (SSRF rules, size and time caps) and
/// compares its SHA-256 with `DocumentHash`.
async fn check_document_hashes(
    svc: &Services,
    details: &[signet_gateway::DocumentDetail],
) -> Result<(), DocumentRefusal> {
    let cfg = svc.config.outbound_http();
    for detail in details.iter().cloned() {
        let cfg = cfg.clone();
        let fetched = tokio::task::spawn_blocking(move || {
            let bytes = signet_sigcrypto::fetch(&detail.url, &cfg)
                .map_err(|cause| DocumentRefusal::Unfetched { name: detail.name.clone(), cause })?;
            let actual = hex::encode(signet_gateway::sha256(&bytes));
            if actual == detail.hash_hex { Ok(()) } else { Err(DocumentRefusal::HashMismatch { name: detail.name }) }
        })
        .await?;
        fetched?;
    }
    Ok(())
}

/// Pages named by the request must exist in the document, and custom boxes must lie on the
/// pages they are drawn on (as the reader sees the page: crop box, rotation applied).
fn check_pdf_pages(pdf: &[u8], options: &signet_gateway::PdfOptions) -> Result<(), DocumentRefusal> {
    use signet_gateway::PageSelection as Select;
    let document = signet_pdf::reader::Document::open(pdf)?;
    document.check_displayable()?;
    document.decode_page_contents()?;
    let pages = document.pages()?;
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
        return Err(DocumentRefusal::PageBeyond { page: *page, count });
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
            return Err(DocumentRefusal::BoxOutside { rect: rect.to_param(), page, width, height });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusals' texts are the failure details integrators already parse: word for word.
    #[test]
    fn document_refusals_read_as_the_spec_answers_always_have() {
        assert_eq!(
            DocumentRefusal::PageBeyond { page: 3, count: 2 }.to_string(),
            "page 3 is beyond the document's 2 pages"
        );
        let outside = DocumentRefusal::BoxOutside { rect: "10,20,300,40".into(), page: 1, width: 595.3, height: 841.9 };
        assert_eq!(outside.to_string(), "the box 10,20,300,40 is outside page 1 (595 x 842 points)");
        assert_eq!(
            DocumentRefusal::HashMismatch { name: "a.pdf".into() }.to_string(),
            "DocumentHash of a.pdf does not match the document at its DocumentURL"
        );
        let unreadable = signet_pdf::reader::Document::open(&b"not a pdf"[..]).err().map(DocumentRefusal::from);
        let text = unreadable.map(|refusal| refusal.to_string()).unwrap_or_default();
        assert!(text.starts_with("File: "), "{text}");
    }
}
