//! Digital e-stamping through a stamp provider (docs/estamp-provider.md): the loan record of an
//! `initiate-and-sign` request goes to the provider, which issues the agreement's e-stamp
//! certificates (or answers ones it issued before, by reference); Signet records them against
//! the tenant, reserved for the workflow about to be created, and from there they take the same
//! path as certificates from the tenant's inventory (their pages go in front of the document,
//! the workflow's creation allocates them). Unlike inventory they never go back to stock.
//!
//! One adapter interface, [`StampProvider`], with one implementation: [`HttpProvider`], which
//! speaks Signet's provider protocol over the guarded outbound client. A real provider plugs in
//! by configuration (`estamp_provider_url`, `estamp_provider_key`) when it speaks the
//! protocol, or through a small bridge that translates it.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;
use serde_json::{Value, json};
use signet_blob::BlobKey;
use signet_domain::authority::stamps::{self as stamp_authority, IssueBinding, ProviderIssue};
use signet_domain::estamp::Purpose;
use signet_domain::stamp::{self, MAX_CERTIFICATE_BYTES, MAX_STAMPS_PER_DOCUMENT};
use signet_domain::{Error, ErrorCode, FieldErrors, TenantId, audit::Actor};
use signet_store::NewStamp;

use super::{Held, StampRequest};
use crate::Services;

/// Largest answer read from a provider: ten certificate PDFs as base64, and some.
const MAX_ANSWER_BYTES: u64 = 40 << 20;
/// Longest field name or message of a provider's refusal passed on to the caller.
const MAX_REASON_CHARS: usize = 300;

/// Certificates a provider issued for one loan record.
#[derive(Debug, Clone)]
pub struct Issued {
    /// The provider's reference of the issue.
    pub reference: String,
    pub certificates: Vec<IssuedCertificate>,
}

#[derive(Debug, Clone)]
pub struct IssuedCertificate {
    /// The certificate number (`IN-MH12345678901234A`).
    pub number: String,
    pub state_code: String,
    /// Rupees.
    pub amount: i64,
    pub pdf: Vec<u8>,
}

/// Why a provider gave no certificates.
#[derive(Debug)]
pub enum ProviderError {
    /// It refused the record; field names are paths in the loan record (`loan.…`).
    Refused(Vec<(String, String)>),
    /// It has issued nothing under the reference.
    NotFound,
    /// It failed, could not be reached, or answered something unusable.
    Failed(String),
}

/// A stamping provider, as Signet uses one. Calls block (the HTTP adapter uses the guarded
/// blocking client); callers run them off the async threads.
pub trait StampProvider: Send + Sync {
    /// Issues the certificates of `loan` (the record's `estampdtls`). The same
    /// `idempotency_key` again answers what the first call issued, so a retry never pays twice.
    fn issue(&self, loan: &Value, idempotency_key: &str) -> Result<Issued, ProviderError>;
    /// What the provider issued before under `reference` (its own reference, the record's
    /// `txnID` or loan number).
    fn fetch(&self, reference: &str) -> Result<Issued, ProviderError>;
}

/// The provider protocol over HTTP: `POST {base}/estamps` and `GET {base}/estamps/{reference}`.
pub struct HttpProvider {
    base_url: String,
    key: Option<String>,
    policy: signet_sigcrypto::HttpConfig,
}

impl HttpProvider {
    /// The configured provider, if any.
    pub fn configured(svc: &Services) -> Option<HttpProvider> {
        let base_url = svc.config.estamp_provider_url.as_deref()?.trim_end_matches('/').to_string();
        let mut policy = svc.config.outbound_http_within(svc.config.estamp_provider_timeout_secs, MAX_ANSWER_BYTES);
        policy.timeout = Duration::from_secs(svc.config.estamp_provider_timeout_secs.max(1));
        Some(HttpProvider { base_url, key: svc.config.estamp_provider_key.clone(), policy })
    }

    fn call(&self, url: &str, body: Option<&[u8]>, idempotency_key: Option<&str>) -> Result<Issued, ProviderError> {
        let bearer = self.key.as_ref().map(|k| format!("Bearer {k}"));
        let mut headers: Vec<(&str, &str)> = vec![("Accept", "application/json")];
        if body.is_some() {
            headers.push(("Content-Type", "application/json"));
        }
        if let Some(bearer) = &bearer {
            headers.push(("Authorization", bearer));
        }
        if let Some(key) = idempotency_key {
            headers.push(("Idempotency-Key", key));
        }
        let (status, answer) = signet_sigcrypto::exchange(url, &headers, body, &self.policy)
            .map_err(|e| ProviderError::Failed(format!("cannot reach the stamp provider: {e}")))?;
        match status {
            200 | 201 => read_issued(&answer),
            404 => Err(ProviderError::NotFound),
            400 | 422 => Err(ProviderError::Refused(read_refusal(&answer))),
            401 | 403 => Err(ProviderError::Failed("the stamp provider refused Signet's API key".into())),
            other => Err(ProviderError::Failed(format!("the stamp provider answered HTTP {other}"))),
        }
    }
}

impl StampProvider for HttpProvider {
    fn issue(&self, loan: &Value, idempotency_key: &str) -> Result<Issued, ProviderError> {
        let body = json!({ "loan": loan }).to_string();
        self.call(&format!("{}/estamps", self.base_url), Some(body.as_bytes()), Some(idempotency_key))
    }

    fn fetch(&self, reference: &str) -> Result<Issued, ProviderError> {
        let encoded: String = reference
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-_.".contains(&b) {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect();
        self.call(&format!("{}/estamps/{encoded}", self.base_url), None, None)
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AnswerWire {
    provider_ref: String,
    certificates: Vec<CertificateWire>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CertificateWire {
    certificate_no: String,
    state_code: String,
    amount: i64,
    pdf: String,
}

/// The provider's answer, checked: certificate numbers Signet can keep, known states,
/// positive amounts, PDFs within the limits of a certificate.
fn read_issued(answer: &[u8]) -> Result<Issued, ProviderError> {
    let unusable = |why: &str| ProviderError::Failed(format!("the stamp provider's answer is unusable: {why}"));
    let wire: AnswerWire = serde_json::from_slice(answer).map_err(|e| unusable(&e.to_string()))?;
    // The reference is what the certificates are recorded (and whose they are) under.
    if wire.provider_ref.trim().is_empty() {
        return Err(unusable("it names no providerRef"));
    }
    if wire.certificates.is_empty() || wire.certificates.len() > MAX_STAMPS_PER_DOCUMENT {
        return Err(unusable("it holds no certificates, or too many"));
    }
    let mut certificates = Vec::with_capacity(wire.certificates.len());
    for c in wire.certificates {
        stamp::check_reference("certificateNo", Some(&c.certificate_no))
            .map_err(|_| unusable("a certificate number"))?;
        if stamp::state_name(&c.state_code).is_none() || c.amount <= 0 {
            return Err(unusable("a certificate's state or amount"));
        }
        let pdf = STANDARD.decode(c.pdf.as_bytes()).map_err(|_| unusable("a certificate PDF is not base64"))?;
        if pdf.len() > MAX_CERTIFICATE_BYTES || !pdf.starts_with(b"%PDF-") {
            return Err(unusable("a certificate PDF is not a PDF within 2 MiB"));
        }
        certificates.push(IssuedCertificate {
            number: c.certificate_no,
            state_code: c.state_code,
            amount: c.amount,
            pdf,
        });
    }
    Ok(Issued { reference: wire.provider_ref.trim().chars().take(100).collect(), certificates })
}

/// A provider's refusal: its `errors` (`field`, `message`), else its `message`.
fn read_refusal(answer: &[u8]) -> Vec<(String, String)> {
    let clean = |s: &str| s.chars().filter(|c| !c.is_control()).take(MAX_REASON_CHARS).collect::<String>();
    let value: Value = serde_json::from_slice(answer).unwrap_or(Value::Null);
    let mut reasons: Vec<(String, String)> = value
        .get("errors")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .take(50)
        .filter_map(|e| Some((clean(e.get("field")?.as_str()?), clean(e.get("message")?.as_str()?))))
        .filter(|(field, _)| field == "loan" || field.starts_with("loan."))
        .collect();
    if reasons.is_empty() {
        let message = value.get("message").and_then(Value::as_str).map_or("refused the record".into(), clean);
        reasons.push(("loan".into(), message));
    }
    reasons
}

/// What a request asks of the provider, and what the certificate pages say.
#[derive(Debug, Clone)]
pub struct ProviderOrder {
    /// The loan record as sent (`eStampPayload.loan`), forwarded to the provider.
    pub loan: Value,
    pub purpose: Purpose,
    /// With [`Purpose::Fetch`]: the provider's reference to fetch by.
    pub reference: Option<String>,
    /// The request's field that names the reference, for a refusal of it.
    pub reference_field: &'static str,
    /// The record's transaction (`txnID`, else the loan and sanction numbers).
    pub transaction: String,
    /// The state the duty is paid in, when the request names one.
    pub state_code: Option<String>,
    /// The duty the record asks to be issued (rupees; 0 when fetching).
    pub duty: i64,
    pub description: Option<String>,
    pub first_party: Option<String>,
    pub second_party: Option<String>,
    pub paid_by: Option<String>,
    /// Put the certificates' pages in front of the document (else they are only recorded).
    pub attach_page: bool,
}

/// Obtains the order's certificates from the configured provider and records them reserved
/// for the workflow about to be created. Nothing is recorded when the provider refuses or
/// fails, or its certificates do not match the request.
pub async fn obtain(svc: &Services, tenant_id: TenantId, actor: &Actor, order: ProviderOrder) -> Result<Held, Error> {
    let Some(provider) = HttpProvider::configured(svc) else {
        return Err(Error::field("eStampType", "digital e-stamping is not configured on this server"));
    };
    if let (Purpose::Fetch, Some(reference)) = (order.purpose, order.reference.as_deref()) {
        check_reference(svc, tenant_id, reference, order.reference_field).await?;
    }
    let key = idempotency_key(tenant_id, &order.transaction);
    let (loan, purpose, reference) = (order.loan.clone(), order.purpose, order.reference.clone());
    let answer = tokio::task::spawn_blocking(move || match (purpose, reference) {
        (Purpose::Fetch, Some(reference)) => provider.fetch(&reference),
        _ => provider.issue(&loan, &key),
    })
    .await
    .map_err(Error::internal)?;
    let issued = answer.map_err(|e| provider_error(e, order.purpose, order.reference_field))?;
    take_issue(svc, tenant_id, &order, &issued).await?;
    let state_code = check_against_order(&issued, &order)?;
    let mut stamps = Vec::with_capacity(issued.certificates.len());
    let mut written = Vec::with_capacity(issued.certificates.len());
    for certificate in &issued.certificates {
        let file = format!("certificate-{}.pdf", crate::platform::secrets::random_token(12));
        let key = BlobKey::new(["tenant", &tenant_id.to_string(), "stamps", &file])?;
        svc.blob.put(&key, bytes::Bytes::from(certificate.pdf.clone())).await.map_err(Error::internal)?;
        stamps.push(NewStamp {
            denomination: certificate.amount,
            reference_no: certificate.number.clone(),
            certificate_blob: Some(key.as_str().to_string()),
        });
        written.push(key);
    }
    let reservation = crate::platform::secrets::random_token(16);
    let recorded =
        svc.store.record_provider_stamps(tenant_id, &state_code, &stamps, &issued.reference, &reservation, actor).await;
    let rows = match recorded {
        Ok(rows) => rows,
        Err(error) => {
            for key in &written {
                let _ = svc.blob.delete(key).await;
            }
            return Err(error);
        }
    };
    // A retried request takes back the certificates (and PDFs) its first attempt recorded.
    for key in written.iter().filter(|k| !rows.iter().any(|r| r.certificate_blob.as_deref() == Some(k.as_str()))) {
        let _ = svc.blob.delete(key).await;
    }
    let request = StampRequest {
        duty: rows.iter().map(|r| r.denomination).sum(),
        state_code,
        article: None,
        description: order.description,
        first_party: order.first_party,
        second_party: order.second_party,
        paid_by: order.paid_by,
        attach_page: order.attach_page,
    };
    Ok(Held::new(reservation, rows, request))
}

/// Whether the provider may be asked, for the tenant, what it issued under `reference`: only
/// when the reference names an issue Signet ordered for this tenant (the rule is
/// `authority::stamps::may_fetch`). Any other reference is refused as one the provider does
/// not know, before the provider is asked.
async fn check_reference(svc: &Services, tenant_id: TenantId, reference: &str, field: &str) -> Result<(), Error> {
    let recorded = svc.store.provider_issues_named(tenant_id, reference).await?;
    if stamp_authority::may_fetch(tenant_id, reference, &recorded) {
        Ok(())
    } else {
        Err(stamp_authority::unknown_reference(field))
    }
}

/// The issue the provider answered must be the tenant's. A fetch takes only an issue recorded
/// for this tenant (a txnID or loan number another lender also uses may resolve to theirs);
/// an issue is recorded for the tenant it was ordered for now, and one the provider answered
/// that is already another tenant's is not taken. Recorded before the answer is checked
/// further: the provider issued (and charged) for this tenant whatever Signet then does.
async fn take_issue(svc: &Services, tenant_id: TenantId, order: &ProviderOrder, issued: &Issued) -> Result<(), Error> {
    match order.purpose {
        Purpose::Fetch => {
            let recorded = svc.store.provider_issue(&issued.reference).await?;
            if stamp_authority::may_take(tenant_id, &issued.reference, recorded.as_ref()) {
                Ok(())
            } else {
                Err(stamp_authority::unknown_reference(order.reference_field))
            }
        }
        Purpose::Issue => {
            let issue = ProviderIssue {
                tenant_id,
                provider_ref: issued.reference.clone(),
                txn_id: loan_text(&order.loan, "txnID"),
                loan_no: loan_text(&order.loan, "loanno"),
            };
            let (recorded_for, newly) = svc.store.record_provider_issue(&issue).await?;
            match stamp_authority::bind_issue(tenant_id, recorded_for, newly) {
                IssueBinding::Recorded | IssueBinding::AlreadyTheirs => Ok(()),
                IssueBinding::AnotherTenants => Err(Error::rejected(
                    ErrorCode::ProviderFailed,
                    "the stamp provider answered with certificates Signet cannot take for this request; nothing \
                     was stored",
                )),
            }
        }
    }
}

/// A text member of the loan record, trimmed, when it has one.
fn loan_text(loan: &Value, member: &str) -> Option<String> {
    loan.get(member).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)
}

/// The key that makes a repeated request the same issue for the provider: the tenant and the
/// record's transaction.
fn idempotency_key(tenant_id: TenantId, transaction: &str) -> String {
    let digest = aws_lc_rs::digest::digest(
        &aws_lc_rs::digest::SHA256,
        format!("signet-estamp\n{tenant_id}\n{transaction}").as_bytes(),
    );
    hex::encode(&digest.as_ref()[..16])
}

/// The certificates must be of the request's state (one state), and when issuing add up to
/// the duty asked for. Answers the state.
fn check_against_order(issued: &Issued, order: &ProviderOrder) -> Result<String, Error> {
    let failed = |why: String| Error::rejected(ErrorCode::ProviderFailed, format!("{why}; nothing was stored"));
    let state = issued.certificates[0].state_code.clone();
    if issued.certificates.iter().any(|c| c.state_code != state) {
        return Err(failed("the stamp provider answered certificates of several states".into()));
    }
    if let Some(asked) = &order.state_code
        && asked != &state
    {
        return Err(failed(format!("the stamp provider answered certificates of {state}, not {asked}")));
    }
    let total: i64 = issued.certificates.iter().map(|c| c.amount).sum();
    if order.purpose == Purpose::Issue && total != order.duty {
        return Err(failed(format!(
            "the stamp provider issued Rs {total} of duty, not the Rs {} asked for",
            order.duty
        )));
    }
    Ok(state)
}

fn provider_error(error: ProviderError, purpose: Purpose, reference_field: &str) -> Error {
    match error {
        ProviderError::Refused(reasons) => {
            let mut errors = FieldErrors::new();
            for (field, message) in reasons {
                errors
                    .entry(format!("eStampPayload.{field}"))
                    .or_default()
                    .push(format!("the stamp provider refused it: {message}"));
            }
            Error::Validation(errors)
        }
        ProviderError::NotFound if purpose == Purpose::Fetch => stamp_authority::unknown_reference(reference_field),
        ProviderError::NotFound => {
            Error::rejected(ErrorCode::ProviderFailed, "the stamp provider does not offer issuing; nothing was stored")
        }
        ProviderError::Failed(why) => Error::rejected(ErrorCode::ProviderFailed, format!("{why}; nothing was stored")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_keep_only_fields_of_the_record() {
        let reasons = read_refusal(
            br#"{"errors": [{"field": "loan.state", "message": "no"}, {"field": "../etc", "message": "x"}]}"#,
        );
        assert_eq!(reasons, vec![("loan.state".to_string(), "no".to_string())]);
        let reasons = read_refusal(b"<html>busy</html>");
        assert_eq!(reasons[0].0, "loan");
    }

    #[test]
    fn answers_that_cannot_be_kept_are_failures() {
        let pdf = STANDARD.encode(b"%PDF-1.7\n");
        let good = json!({"providerRef": "R1", "certificates": [
            {"certificateNo": "IN-MH1", "stateCode": "MH", "amount": 100, "pdf": pdf}]});
        assert!(read_issued(good.to_string().as_bytes()).is_ok());
        for (pointer, value) in [
            ("/certificates/0/certificateNo", json!("../../x")),
            ("/certificates/0/stateCode", json!("ZZ")),
            ("/certificates/0/amount", json!(0)),
            ("/certificates/0/pdf", json!(STANDARD.encode(b"<html>"))),
            ("/certificates", json!([])),
        ] {
            let mut bad = good.clone();
            *bad.pointer_mut(pointer).expect(pointer) = value;
            assert!(matches!(read_issued(bad.to_string().as_bytes()), Err(ProviderError::Failed(_))), "{pointer}");
        }
    }
}
