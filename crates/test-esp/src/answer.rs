//! The ESP's answers to the ASP: a signed `EsignResp`, either a failure with its code or the
//! signatures made with a fresh 30-minute certificate in the signer's name.

use axum::http::StatusCode;
use axum::response::Response;
use signet_esign::esp::{self, codes};
use signet_esign::{DocSignature, EsignError, EsignRequest, EsignResponse, ResponseStatus};
use signet_sigcrypto::pki::{self, IssueOptions, KeyAlgo};
use signet_sigcrypto::signer::LocalKeySigner;
use time::OffsetDateTime;

use crate::files::Identity;
use crate::ledger::Recorded;
use crate::pages;
use crate::state::{Esp, lock, unix_now};

/// How long a signer certificate is valid, as CCA ESPs issue them.
const SIGNER_CERTIFICATE_VALIDITY: std::time::Duration = std::time::Duration::from_secs(30 * 60);

/// Posts a failure back to the ASP (`status="0"`, `errCode`, `errMsg`).
pub fn failure(esp: &Esp, request: &EsignRequest, esp_txn: &str, code: &str, message: &str) -> Response {
    tracing::info!(asp = %request.asp_id, txn = %request.txn, %esp_txn, code, "answering the ASP with a failure");
    let response = unsigned(request, esp_txn, ResponseStatus::Failure, Some((code, message)));
    post_back(esp, request, esp_txn, &response, &format!("The document was not signed: {message} ({code})."))
}

/// A response without signatures: a failure (`status="0"` with its code) or, in the
/// server-to-server flow, the acceptance (`status="2"`, `resCode` naming the transaction the
/// signer's browser continues with).
pub fn unsigned(
    request: &EsignRequest,
    esp_txn: &str,
    status: ResponseStatus,
    error: Option<(&str, &str)>,
) -> EsignResponse {
    EsignResponse {
        status,
        ts: OffsetDateTime::now_utc(),
        txn: request.txn.clone(),
        res_code: esp_txn.to_string(),
        err_code: error.map(|(code, _)| code.to_string()),
        err_msg: error.map(|(_, message)| message.to_string()),
        user_certificate: None,
        signatures: Vec::new(),
    }
}

/// The server-to-server answer: the signed response as the HTTP body (`application/xml`).
pub fn xml_answer(esp: &Esp, response: &EsignResponse) -> Response {
    use axum::response::IntoResponse;
    match esp::signed_response(response, &esp.keys.esp) {
        Ok(xml) => ([(axum::http::header::CONTENT_TYPE, "application/xml")], xml).into_response(),
        Err(error) => {
            tracing::error!("the answer could not be signed: {error}");
            (StatusCode::INTERNAL_SERVER_ERROR, "the ESP could not sign its answer").into_response()
        }
    }
}

/// Signs the request's hashes as `identity` and posts the signatures back to the ASP; a
/// failure to sign is answered as ESP-999.
pub fn signed(esp: &Esp, request: &EsignRequest, esp_txn: &str, identity: &Identity) -> Response {
    match signed_response(esp, request, esp_txn, identity) {
        Ok(response) => {
            tracing::info!(asp = %request.asp_id, txn = %request.txn, %esp_txn, "signed");
            post_back(esp, request, esp_txn, &response, "Your document was signed with Aadhaar eSign.")
        }
        Err(error) => {
            tracing::error!(%esp_txn, "signing failed: {error}");
            failure(esp, request, esp_txn, codes::INTERNAL, "the ESP could not sign")
        }
    }
}

fn signed_response(
    esp: &Esp,
    request: &EsignRequest,
    esp_txn: &str,
    identity: &Identity,
) -> Result<EsignResponse, EsignError> {
    let internal = |e: String| EsignError::new(codes::INTERNAL, e);
    // `rawrsa` (XML signatures) needs an RSA key; CMS answers use EC P-256 as C-DAC's do.
    let raw = esp::raw_response(request) == Some(true);
    let algorithm = if raw { KeyAlgo::Rsa2048 } else { KeyAlgo::EcP256 };
    let (signer, key_der) = signer_certificate(esp, identity, algorithm).map_err(|e| internal(format!("{e:#}")))?;
    let now = OffsetDateTime::now_utc();
    let sign = |digest: &[u8; 32]| {
        if raw { esp::sign_hash_raw_rsa(&key_der, digest) } else { esp::sign_hash(&signer, digest, now) }
    };
    let signatures = request
        .hashes
        .iter()
        .map(|h| Ok(DocSignature { id: h.id, cms_der: sign(&h.sha256)?, error: None }))
        .collect::<Result<Vec<_>, EsignError>>()?;
    Ok(EsignResponse {
        status: ResponseStatus::Success,
        ts: now,
        txn: request.txn.clone(),
        res_code: esp_txn.to_string(),
        err_code: None,
        err_msg: None,
        user_certificate: Some(signet_sigcrypto::signer::RawSigner::certificate_der(&signer).to_vec()),
        signatures,
    })
}

/// A fresh key (`algorithm`) and a 30-minute certificate in the identity's name (CN, C=IN)
/// from the test eSign CA, with the CRL, OCSP (unless CRL-only) and caIssuers URLs of this
/// ESP; its serial is recorded for the OCSP responder. The key comes back too (PKCS#8), for
/// raw signatures.
fn signer_certificate(esp: &Esp, identity: &Identity, algorithm: KeyAlgo) -> anyhow::Result<(LocalKeySigner, Vec<u8>)> {
    let base = &esp.public_url;
    let options = IssueOptions {
        ocsp_url: (!esp.options.crl_only).then(|| format!("{base}/ocsp")),
        ca_issuers_url: Some(format!("{base}/ca.cer")),
        crl_url: Some(format!("{base}/crl")),
        validity: Some(SIGNER_CERTIFICATE_VALIDITY),
        country: Some("IN".into()),
        ..IssueOptions::default()
    };
    let issued = esp.keys.ca.issue_signer_with(&identity.name, algorithm, &options)?;
    let serial = pki::parse_cert(&issued.cert_der)?.tbs_certificate.serial_number.as_bytes().to_vec();
    if lock(&esp.issued).record(&hex::encode(serial), unix_now())? == Recorded::Full {
        // The certificate is still good; OCSP will only call it unknown.
        tracing::warn!("the record of issued certificates is full");
    }
    let chain = vec![esp.keys.ca.cert_der().to_vec()];
    Ok((LocalKeySigner::from_pkcs8(&issued.key_pkcs8_der, &issued.cert_der, chain)?, issued.key_pkcs8_der))
}

fn post_back(esp: &Esp, request: &EsignRequest, esp_txn: &str, response: &EsignResponse, headline: &str) -> Response {
    match esp::signed_response(response, &esp.keys.esp) {
        Ok(xml) => {
            let xml = String::from_utf8_lossy(&xml);
            pages::answer_page(&request.response_url, &xml, esp_txn, &request.asp_id, headline)
        }
        Err(error) => {
            tracing::error!(%esp_txn, "the answer could not be signed: {error}");
            pages::error_page(StatusCode::INTERNAL_SERVER_ERROR, codes::INTERNAL, "the ESP could not sign its answer")
        }
    }
}
