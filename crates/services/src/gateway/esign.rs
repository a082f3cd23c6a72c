//! Aadhaar eSign (SignatureType 3) in a gateway transaction. [`start`]: the signer chose
//! eSign on the signer page; the document is prepared (PDF: the signature field and its
//! appearance, the digest over the ByteRange; Hash: the request's hashes; DATA: the data's
//! digest, the answer's detached CMS being the result), what the answer will
//! complete is sealed under the secret in the `txn`, and the signed request goes to the ESP
//! through the signer's browser. [`answer`]: the ESP sends the browser back with its answer,
//! which is checked in full (`signet_esign::asp::check_response`) and taken once; the ESP's
//! signatures are embedded and the transaction ends as for any other signature.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};
use signet_domain::audit::Actor;
use signet_domain::gateway::{EsignState, TransactionState};
use signet_domain::{BoxError, now_millis};
use signet_esign::AuthMode;
use signet_esign::asp::{Outcome, Signed};
use signet_gateway::{
    Document, ErrorCode, GatewayFailure, HashSignature, Profile, SessionKey, SignatureType, seal_hash_result,
    seal_result,
};
use signet_sigcrypto::xmldsig::PreparedXmlSignature;
use signet_signing::{PdfSignOptions, PreparedRemotePdf};
use signet_store::{EsignSubject, EsignTransactionRow, TransactionRow};

use super::seal::{Reached, esign_completion_options, esign_pdf_options, long_term_cms, long_term_xml};
use super::transaction::{self, Delivery, OpenTransaction, TransactionClosed};
use crate::Services;
use crate::esign::{
    AnswerRefusal, EsignRefused, EspRedirect, Outgoing, PendingError, TxnId, forget_pending, internal, open_pending,
    send, take, transaction_of,
};
use crate::platform::heavy::Share;

/// What the answer completes, sealed under the `txn`'s secret.
#[derive(Serialize, Deserialize)]
struct Pending {
    session_key: Vec<u8>,
    document: PendingDocument,
    /// What a new request needs to try again after a refused answer, without the signer link
    /// (absent in requests sent before it was kept: those cannot be retried from the answer).
    #[serde(default)]
    again: Option<Again>,
}

/// The request's other fields, kept to send it again (`retry`).
#[derive(Serialize, Deserialize)]
struct Again {
    doc_info: Vec<String>,
    signer_id: Option<String>,
    auth_mode: Option<AuthMode>,
}

#[derive(Serialize, Deserialize)]
enum PendingDocument {
    Pdf {
        prepared: PreparedRemotePdf,
    },
    /// The request's hashes, with their names, in request order.
    Hash {
        items: Vec<(String, String)>,
    },
    /// DATA: the answer's CMS is the result (detached, over the data).
    Data,
    /// XML: an enveloped XML-DSig whose SignedInfo hash the ESP signs raw (`rawrsa`).
    Xml {
        xml: Vec<u8>,
        prepared: PreparedXmlSignature,
    },
}

/// Whether the signer page offers Aadhaar eSign for this request.
pub fn offered(svc: &Services, open: &OpenTransaction) -> bool {
    svc.esign.is_some()
        && open.payload.has_type(SignatureType::ESign)
        && matches!(
            open.payload.document,
            Document::Pdf { .. } | Document::Hash(_) | Document::Data(_) | Document::Xml(_)
        )
}

/// The signer chose Aadhaar eSign: prepares the document, records the eSign transaction and
/// returns the signed request for the ESP.
pub async fn start(
    svc: &Services,
    open: &OpenTransaction,
    auth_mode: Option<AuthMode>,
) -> Result<EspRedirect, EsignRefused> {
    if !offered(svc, open) {
        return Err(EsignRefused::Unavailable);
    }
    let session_key = open.session_key().ok_or_else(|| internal("session key"))?;
    let (document, digests, doc_info) = prepare(svc, open).await?;
    let pending = Pending {
        session_key: session_key.as_bytes().to_vec(),
        document,
        again: Some(Again { doc_info: doc_info.clone(), signer_id: open.payload.signer_id.clone(), auth_mode }),
    };
    let row = &open.row;
    let request = Outgoing {
        tenant_id: row.tenant_id,
        subject: EsignSubject::Gateway(&row.transaction_number),
        blob_folder: ["gateway", &row.transaction_number],
        digests: &digests,
        doc_info: &doc_info,
        signer_id: open.payload.signer_id.as_deref(),
        raw: matches!(pending.document, PendingDocument::Xml { .. }),
        auth_mode,
    };
    send(svc, &request, &pending).await
}

/// The document prepared for signing, the digests to send, and what the signer is shown at
/// the ESP about each.
async fn prepare(
    svc: &Services,
    open: &OpenTransaction,
) -> Result<(PendingDocument, Vec<[u8; 32]>, Vec<String>), EsignRefused> {
    match &open.payload.document {
        Document::Pdf { bytes, options } => {
            let (bytes, options) = (bytes.clone(), options.clone());
            let policy = transaction::seal_policy(svc, open.row.tenant_id).await;
            let sub_filter = crate::esign::setup(svc)?.pdf_sub_filter;
            let prepared = svc
                .heavy
                .run(Share::Tenant(open.row.tenant_id), move || -> Result<_, BoxError> {
                    let opts = PdfSignOptions { sub_filter, ..esign_pdf_options(&bytes, &options, &policy)? };
                    Ok(signet_signing::prepare_remote_pdf(&bytes, &opts)?)
                })
                .await?
                .map_err(EsignRefused::Internal)?;
            let digest = prepared.digest;
            let info = format!("{}.pdf", open.payload.reference_number);
            Ok((PendingDocument::Pdf { prepared }, vec![digest], vec![info]))
        }
        Document::Hash(details) => {
            let mut digests = Vec::with_capacity(details.len());
            for detail in details {
                digests.push(signet_signing::parse_sha256(&detail.hash_hex).map_err(internal)?);
            }
            let items = details.iter().map(|d| (d.name.clone(), d.hash_hex.clone())).collect();
            let info = details.iter().map(|d| d.name.clone()).collect();
            Ok((PendingDocument::Hash { items }, digests, info))
        }
        Document::Xml(bytes) => {
            let xml = bytes.clone();
            let prepared = svc
                .heavy
                .run(Share::Tenant(open.row.tenant_id), move || signet_sigcrypto::xmldsig::prepare_enveloped_rsa(&xml))
                .await?
                .map_err(internal)?;
            let digest = prepared.signed_info_sha256;
            let info = format!("{}.xml", open.payload.reference_number);
            Ok((PendingDocument::Xml { xml: bytes.clone(), prepared }, vec![digest], vec![info]))
        }
        Document::Data(bytes) => {
            let digest = signet_sigcrypto::pki::sha256(bytes);
            Ok((PendingDocument::Data, vec![digest], vec![format!("{}.txt", open.payload.reference_number)]))
        }
    }
}

/// A checked answer for a gateway transaction: the transaction ends with the signed result,
/// the signer's cancel (106) or the ESP's refusal (107 naming the ESP's code).
pub(crate) async fn answer(
    svc: &Services,
    esign: &EsignTransactionRow,
    txn: &TxnId,
    outcome: Outcome,
    actor: &Actor,
) -> Result<Delivery, EsignRefused> {
    let expired = EsignRefused::Closed(TransactionClosed::Ended(transaction::TransactionEnd::Expired));
    let row = match open_gateway_transaction(svc, esign).await {
        // Too late for the transaction: the signer's browser takes its expiry to FUrl (the
        // answer was checked for this eSign request, whose `txn` carries its secret).
        Err(EsignRefused::Closed(TransactionClosed::Ended(transaction::TransactionEnd::Expired))) => {
            let number = esign.gateway_transaction.as_deref().unwrap_or_default();
            return transaction::expired_delivery(svc, number, None).await.ok_or(expired);
        }
        other => other?,
    };
    match outcome {
        Outcome::Refused { code, message } => {
            take(svc, esign, EsignState::Refused, &code).await?;
            forget_pending(svc, esign).await;
            let refusal = crate::esign::refusal_kind(svc, esign.esp.as_deref(), &code);
            if gateway_code(refusal) == ErrorCode::Cancelled {
                return transaction::cancel_row(svc, &row, actor).await.map_err(EsignRefused::Closed);
            }
            let failure = GatewayFailure::new(gateway_code(refusal), esp_refusal(&code, &message));
            Ok(transaction::fail(svc, &row, &failure, actor, serde_json::json!({"signatureTypes": "3", "esp": code}))
                .await)
        }
        Outcome::Signed(signed) => {
            take(svc, esign, EsignState::Signed, &signed.res_code).await?;
            let result = complete(svc, esign, txn, &row, &signed).await;
            forget_pending(svc, esign).await;
            let detail = serde_json::json!({
                "signatureTypes": "3",
                "signer": signed.signer_name,
                "espReference": signed.res_code,
            });
            match result {
                Ok(returnvalue) => transaction::complete(svc, &row, returnvalue, actor, detail)
                    .await
                    .map_err(EsignRefused::Closed)?
                    .ok_or(EsignRefused::Closed(TransactionClosed::Ended(transaction::TransactionEnd::Signed))),
                Err(cause) => {
                    tracing::warn!(transaction = %row.transaction_number, %cause, "embedding the eSign signature failed");
                    let failure = GatewayFailure::new(ErrorCode::InvalidParameters, "the document could not be signed");
                    Ok(transaction::fail(svc, &row, &failure, actor, detail).await)
                }
            }
        }
    }
}

/// The eSign transaction a refused answer carried (`<id>-<secret>`), while it still waits for
/// an answer that could be taken: the transaction's secret is the signer's authority to try
/// again or give up. Anything else reads as unknown and changes nothing.
async fn refused_attempt(svc: &Services, txn: &str) -> Result<(EsignTransactionRow, TxnId, String), EsignRefused> {
    let (esign, txn) = transaction_of(svc, txn).await?;
    let unknown = || EsignRefused::Answer(AnswerRefusal::Unknown);
    let refusal = esign.last_refusal.clone().filter(|_| esign.refused_answers > 0).ok_or_else(unknown)?;
    if esign.gateway_transaction.is_none() {
        return Err(unknown());
    }
    if esign.state != EsignState::Sent {
        return Err(EsignRefused::Answer(AnswerRefusal::Replayed));
    }
    Ok((esign, txn, refusal))
}

/// The signer whose ESP answer was refused tries again: the same document (as prepared, kept
/// sealed under the `txn`'s secret) goes in a new request with a new `txn` through the next
/// healthy ESP (never first through the one whose answer was refused, while another is up); the
/// refused request is closed with the refusal's code, so its own later answers find it taken.
/// The `txn`'s secret leads only back to the ESP, never to the signer page or the document.
pub async fn retry(svc: &Services, txn: &str) -> Result<EspRedirect, EsignRefused> {
    let (esign, txn, refusal) = refused_attempt(svc, txn).await?;
    let row = open_gateway_transaction(svc, &esign).await?;
    let pending: Pending = open_pending(svc, &esign, &txn).await.map_err(internal)?;
    let again = pending.again.as_ref().ok_or(EsignRefused::Answer(AnswerRefusal::Unknown))?;
    let digests = crate::esign::digests_of(&esign)?;
    take(svc, &esign, EsignState::Failed, &refusal).await?;
    forget_pending(svc, &esign).await;
    let request = Outgoing {
        tenant_id: row.tenant_id,
        subject: EsignSubject::Gateway(&row.transaction_number),
        blob_folder: ["gateway", &row.transaction_number],
        digests: &digests,
        doc_info: &again.doc_info,
        signer_id: again.signer_id.as_deref(),
        raw: matches!(pending.document, PendingDocument::Xml { .. }),
        auth_mode: again.auth_mode,
    };
    crate::esign::send_avoiding(svc, &request, &pending, Some(esign.esp.as_deref()), true).await
}

/// The signer whose ESP answer was refused gives up: the transaction ends as failed, the
/// integrator learning why at `FUrl` (107 naming the refusal's code and what it means), the
/// status query showing the same. Only with the transaction's secret, while no answer was
/// taken.
pub async fn give_up(svc: &Services, txn: &str, actor: &Actor) -> Result<Delivery, EsignRefused> {
    let (esign, _, refusal) = refused_attempt(svc, txn).await?;
    let row = open_gateway_transaction(svc, &esign).await?;
    take(svc, &esign, EsignState::Failed, &refusal).await?;
    forget_pending(svc, &esign).await;
    let failure = GatewayFailure::new(ErrorCode::InvalidParameters, refused_answer(&refusal));
    let detail = serde_json::json!({"signatureTypes": "3", "refusedAnswer": refusal, "signerGaveUp": true});
    Ok(transaction::fail(svc, &row, &failure, actor, detail).await)
}

/// `Aadhaar eSign answer refused: <code> (<what it means>)`, for `ErrorMessage`.
pub fn refused_answer(code: &str) -> String {
    let code: String = code.chars().filter(|c| c.is_ascii_graphic()).take(40).collect();
    match signet_esign::asp::codes::describe(&code) {
        Some(meaning) => format!("Aadhaar eSign answer refused: {code} ({meaning})"),
        None => format!("Aadhaar eSign answer refused: {code}"),
    }
}

/// The gateway code an ESP's refusal reaches the integrator with: the signer's cancel is 106 at
/// `CUrl`; every other refusal is 107 at `FUrl` (the spec's codes name no ESP failure more
/// closely), its `ErrorMessage` quoting the ESP's code and words.
fn gateway_code(refusal: signet_esign::esp_codes::EspRefusal) -> ErrorCode {
    use signet_esign::esp_codes::EspRefusal;
    match refusal {
        EspRefusal::Cancelled => ErrorCode::Cancelled,
        EspRefusal::Expired | EspRefusal::Authentication | EspRefusal::Request | EspRefusal::Service => {
            ErrorCode::InvalidParameters
        }
    }
}

/// The ESP's words, bounded and without control characters, after its code.
fn esp_refusal(code: &str, message: &str) -> String {
    let clean = |s: &str, n: usize| s.chars().filter(|c| !c.is_control()).take(n).collect::<String>();
    format!("Aadhaar eSign: {} {}", clean(code, 20), clean(message, 200)).trim_end().to_string()
}

async fn open_gateway_transaction(svc: &Services, esign: &EsignTransactionRow) -> Result<TransactionRow, EsignRefused> {
    let number = esign.gateway_transaction.as_deref().ok_or(EsignRefused::Closed(TransactionClosed::NotFound))?;
    let row = svc.store.transaction(number).await?.ok_or(EsignRefused::Closed(TransactionClosed::NotFound))?;
    if row.state != TransactionState::Initiated {
        return Err(EsignRefused::Closed(TransactionClosed::Ended(transaction::TransactionEnd::of_state(row.state))));
    }
    if row.expires_at < now_millis() {
        return Err(EsignRefused::Closed(TransactionClosed::Ended(transaction::TransactionEnd::Expired)));
    }
    Ok(row)
}

/// Why the ESP's signatures could not be made into the `Returnvalue`. The integrator is told
/// only that the document could not be signed; the cause, with its chain, is for the log.
#[derive(Debug, thiserror::Error)]
enum CompletionError {
    #[error(transparent)]
    Pending(#[from] PendingError),
    #[error("the session key is damaged")]
    SessionKey,
    /// The checked answer carries fewer signatures than the request asked for.
    #[error("no signature")]
    NoSignature,
    /// The work pool failed.
    #[error(transparent)]
    Platform(#[from] signet_domain::Error),
    /// The PDF signature could not be completed with the ESP's CMS.
    #[error(transparent)]
    Pdf(#[from] signet_signing::Error),
    /// The XML signature could not be completed with the ESP's raw signature.
    #[error(transparent)]
    Xml(#[from] signet_sigcrypto::Error),
    /// The result could not be encrypted under the session key.
    #[error(transparent)]
    Envelope(#[from] signet_gateway::GatewayError),
}

/// Embeds the ESP's signatures and seals the `Returnvalue` with the transaction's session key.
/// The ESP's CMS signatures made long-term (CAdES B-LT) when a TSA is configured: an eSign
/// certificate lives 30 minutes, its validation data must be had now.
async fn long_term_hashes(
    svc: &Services,
    row: &TransactionRow,
    cms: Vec<Vec<u8>>,
) -> Result<(Vec<Vec<u8>>, Reached), CompletionError> {
    let policy = transaction::seal_policy(svc, row.tenant_id).await;
    let extend = move || cms.into_iter().map(|one| long_term_cms(one, &policy)).collect::<Vec<_>>();
    let extended = svc.heavy.run(Share::Tenant(row.tenant_id), extend).await?;
    let reached = Reached::weakest_cades(extended.iter().map(|(_, reached)| *reached));
    Ok((extended.into_iter().map(|(cms, _)| cms).collect(), reached))
}

async fn complete(
    svc: &Services,
    esign: &EsignTransactionRow,
    txn: &TxnId,
    row: &TransactionRow,
    signed: &Signed,
) -> Result<(String, Reached), CompletionError> {
    let signatures = &signed.signatures;
    let pending: Pending = open_pending(svc, esign, txn).await?;
    let session = SessionKey::from_slice(&pending.session_key).ok_or(CompletionError::SessionKey)?;
    let profile = if row.profile == 2 { Profile::Modern } else { Profile::Legacy };
    match pending.document {
        PendingDocument::Pdf { prepared } => {
            let cms = signatures.first().cloned().ok_or(CompletionError::NoSignature)?;
            // The label the placeholder was prepared with is what the signature is.
            let pkcs7_label = prepared.pkcs7_label;
            let policy = transaction::seal_policy(svc, row.tenant_id).await;
            let opts = esign_completion_options(&policy);
            let (signed, reached) = svc
                .heavy
                .run(Share::Tenant(row.tenant_id), move || {
                    signet_signing::complete_remote_pdf(&prepared, &cms, &opts)
                        .map(|signed| super::seal::long_term(signed, &policy))
                })
                .await??;
            Ok((seal_result(&session, profile, &signed)?, reached.in_pdf_labelled(pkcs7_label)))
        }
        PendingDocument::Hash { items } => {
            let (signatures, reached) = long_term_hashes(svc, row, signatures.clone()).await?;
            let signatures: Vec<HashSignature> = items
                .into_iter()
                .zip(signatures)
                .map(|((name, hash), cms)| HashSignature {
                    document_name: name,
                    document_hash: hash,
                    signature: STANDARD.encode(cms),
                })
                .collect();
            Ok((seal_hash_result(&session, profile, &signatures)?, reached))
        }
        PendingDocument::Data => {
            let cms = signatures.first().cloned().ok_or(CompletionError::NoSignature)?;
            let (extended, reached) = long_term_hashes(svc, row, vec![cms]).await?;
            let cms = extended.into_iter().next().ok_or(CompletionError::NoSignature)?;
            Ok((seal_result(&session, profile, &cms)?, reached))
        }
        PendingDocument::Xml { xml, prepared } => {
            let signature = signatures.first().cloned().ok_or(CompletionError::NoSignature)?;
            let certificate = signed.signer_certificate.clone();
            let policy = transaction::seal_policy(svc, row.tenant_id).await;
            // The time-stamp and the validation data are fetched: off the async workers.
            let (signed_xml, reached) = svc
                .heavy
                .run(Share::Tenant(row.tenant_id), move || {
                    signet_sigcrypto::xmldsig::complete_enveloped_rsa(&xml, &prepared, &signature, &certificate, &[])
                        .map(|signed| long_term_xml(signed, &policy, Reached::XmlDsig))
                })
                .await??;
            Ok((seal_result(&session, profile, &signed_xml)?, reached))
        }
    }
}
