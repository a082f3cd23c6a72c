//! Issuing and fetching certificates (docs/estamp-provider.md has the protocol).

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Serialize;
use serde_json::{Map, Value, json};
use signet_domain::stamp::{shipped_articles, state_name};

use crate::{MAX_ISSUED, Shared, lock};

/// Most certificates one issue makes.
const MAX_CERTIFICATES: usize = 10;
/// Letters that end a certificate number (no I or O, as on SHCIL's).
const CHECK_LETTERS: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ";

/// What one issue made, answered again unchanged to a retry or a fetch.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Issued {
    pub status: &'static str,
    pub provider_ref: String,
    #[serde(rename = "txnID")]
    pub txn_id: Option<String>,
    pub loanno: String,
    pub certificates: Vec<Certificate>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Certificate {
    pub certificate_no: String,
    pub state_code: String,
    /// Rupees.
    pub amount: i64,
    #[serde(rename = "documentID")]
    pub document_id: Option<String>,
    pub issued_at: String,
    pub first_party: String,
    pub second_party: String,
    /// The certificate PDF, base64.
    pub pdf: String,
}

fn failure(status: StatusCode, state: &str, message: &str) -> Response {
    (status, Json(json!({"status": state, "message": message}))).into_response()
}

fn authorized(sim: &Shared, headers: &HeaderMap) -> bool {
    let Some(key) = &sim.options.api_key else { return true };
    let given =
        headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "));
    given == Some(key.as_str())
}

/// `POST /v1/estamps` `{"loan": {...}}`: certificates for the record's `estampdtls`.
pub async fn issue(State(sim): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    tokio::time::sleep(sim.options.delay).await;
    if !authorized(&sim, &headers) {
        return failure(StatusCode::UNAUTHORIZED, "unauthorized", "a valid API key is required");
    }
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return failure(StatusCode::BAD_REQUEST, "failed", "the body is not JSON");
    };
    let n = sim.next_request();
    if sim.options.fail_every > 0 && n.is_multiple_of(sim.options.fail_every) {
        return failure(StatusCode::SERVICE_UNAVAILABLE, "unavailable", "the stamping service is busy; try again");
    }
    let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_string);
    if let Some(done) = key.as_ref().and_then(|k| lock(&sim.issued).get(k).cloned()) {
        return (StatusCode::OK, Json(done.as_ref().clone())).into_response();
    }
    let loan = match check(&request) {
        Ok(loan) => loan,
        Err(errors) => {
            let errors: Vec<Value> = errors.into_iter().map(|(f, m)| json!({"field": f, "message": m})).collect();
            return (StatusCode::UNPROCESSABLE_ENTITY, Json(json!({"status": "failed", "errors": errors})))
                .into_response();
        }
    };
    if lock(&sim.by_reference).len() >= MAX_ISSUED * 3 {
        return failure(StatusCode::INSUFFICIENT_STORAGE, "failed", "the simulator's record is full; restart it");
    }
    let issued = Arc::new(make(&sim, &loan, n));
    {
        let mut by_reference = lock(&sim.by_reference);
        by_reference.insert(issued.provider_ref.clone(), issued.clone());
        by_reference.insert(issued.loanno.clone(), issued.clone());
        if let Some(txn) = &issued.txn_id {
            by_reference.insert(txn.clone(), issued.clone());
        }
    }
    if let Some(key) = key {
        lock(&sim.issued).insert(key, issued.clone());
    }
    tracing::info!(reference = %issued.provider_ref, certificates = issued.certificates.len(), "issued");
    (StatusCode::CREATED, Json(issued.as_ref().clone())).into_response()
}

/// `GET /v1/estamps/{reference}`: what was issued under the provider's reference, a `txnID`
/// or a loan number.
pub async fn fetch(State(sim): State<Shared>, headers: HeaderMap, Path(reference): Path<String>) -> Response {
    tokio::time::sleep(sim.options.delay).await;
    if !authorized(&sim, &headers) {
        return failure(StatusCode::UNAUTHORIZED, "unauthorized", "a valid API key is required");
    }
    match lock(&sim.by_reference).get(&reference).cloned() {
        Some(issued) => (StatusCode::OK, Json(issued.as_ref().clone())).into_response(),
        None => failure(StatusCode::NOT_FOUND, "not_found", "no e-stamp certificate was issued under this reference"),
    }
}

/// A record the simulator accepts.
struct Loan {
    txn_id: Option<String>,
    loanno: String,
    state_code: String,
    details: Vec<Detail>,
}

struct Detail {
    amount: i64,
    first_party: String,
    second_party: String,
    paid_by: Option<String>,
    description: Option<String>,
    article: Option<String>,
    consideration: Option<String>,
    document_id: Option<String>,
}

fn text(object: &Map<String, Value>, key: &str) -> Option<String> {
    object.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)
}

/// The provider's own checks, independent of the caller's: what it needs to issue, and its
/// knowledge of the states' schedules.
fn check(request: &Value) -> Result<Loan, Vec<(String, String)>> {
    let mut errors = Vec::new();
    let Some(loan) = request.get("loan").and_then(Value::as_object) else {
        return Err(vec![("loan".into(), "is required".into())]);
    };
    let loanno = text(loan, "loanno").unwrap_or_else(|| {
        errors.push(("loan.loanno".into(), "is required".into()));
        String::new()
    });
    let state_code = text(loan, "state").unwrap_or_default();
    if state_name(&state_code).is_none() {
        errors.push(("loan.state".into(), "must name a state the provider stamps for (MH, KA, DL, ...)".into()));
    }
    let items: Vec<&Map<String, Value>> =
        loan.get("estampdtls").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_object).collect();
    if items.is_empty() || items.len() > MAX_CERTIFICATES {
        errors.push(("loan.estampdtls".into(), format!("must have 1 to {MAX_CERTIFICATES} entries")));
    }
    let mut details = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = |key: &str| format!("loan.estampdtls[{i}].{key}");
        let amount = text(item, "stampDutyAmount")
            .and_then(|a| a.strip_suffix(".00").map(str::to_string).or(Some(a)))
            .and_then(|a| a.parse::<i64>().ok())
            .filter(|a| *a > 0);
        if amount.is_none() {
            errors.push((at("stampDutyAmount"), "must be a positive amount of whole rupees".into()));
        }
        let article = text(item, "articleCode");
        if let Some(code) = &article
            && knows_schedule(&state_code)
            && !shipped_articles().iter().any(|a| a.state_code == state_code && &a.article_code == code)
        {
            errors.push((at("articleCode"), format!("is not an article of the {state_code} stamp schedule")));
        }
        let (first_party, second_party) = (text(item, "firstparty"), text(item, "secondparty"));
        for (key, value) in [("firstparty", &first_party), ("secondparty", &second_party)] {
            if value.is_none() {
                errors.push((at(key), "is required".into()));
            }
        }
        details.push(Detail {
            amount: amount.unwrap_or_default(),
            first_party: first_party.unwrap_or_default(),
            second_party: second_party.unwrap_or_default(),
            paid_by: text(item, "stampdutyPaidby"),
            description: text(item, "descriptionofDocument"),
            article,
            consideration: text(item, "considerationPrice"),
            document_id: text(item, "documentID"),
        });
    }
    if errors.is_empty() { Ok(Loan { txn_id: text(loan, "txnID"), loanno, state_code, details }) } else { Err(errors) }
}

/// The states whose schedules the simulator holds (the articles Signet ships).
fn knows_schedule(state_code: &str) -> bool {
    shipped_articles().iter().any(|a| a.state_code == state_code)
}

fn make(sim: &Shared, loan: &Loan, request: u64) -> Issued {
    let now = time::OffsetDateTime::now_utc();
    let issued_at = now.format(&time::format_description::well_known::Rfc3339).unwrap_or_default();
    let certificates = loan
        .details
        .iter()
        .map(|detail| {
            let serial = sim.next_serial();
            let letter = CHECK_LETTERS[(serial % CHECK_LETTERS.len() as u64) as usize] as char;
            let number = format!("IN-{}{:014}{letter}", loan.state_code, serial % 100_000_000_000_000);
            let pdf = certificate_pdf(&number, &issued_at, loan, detail);
            Certificate {
                certificate_no: number,
                state_code: loan.state_code.clone(),
                amount: detail.amount,
                document_id: detail.document_id.clone(),
                issued_at: issued_at.clone(),
                first_party: detail.first_party.clone(),
                second_party: detail.second_party.clone(),
                pdf: STANDARD.encode(pdf),
            }
        })
        .collect();
    Issued {
        status: "issued",
        provider_ref: format!("ESTMP-{request:08}"),
        txn_id: loan.txn_id.clone(),
        loanno: loan.loanno.clone(),
        certificates,
    }
}

/// The certificate page, with the fields of an SHCIL e-stamp certificate.
fn certificate_pdf(number: &str, issued_at: &str, loan: &Loan, detail: &Detail) -> Vec<u8> {
    use signet_pdf::compose::{Block, compose_report};
    let state = state_name(&loan.state_code).unwrap_or(&loan.state_code);
    let or_dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    let blocks = vec![
        Block::KeyValues(vec![
            ("Certificate No.".into(), number.to_string()),
            ("Certificate Issued Date".into(), issued_at.to_string()),
            ("State".into(), format!("{state} ({})", loan.state_code)),
            ("Unique Doc. Reference".into(), format!("{}/{}", loan.loanno, or_dash(&detail.document_id))),
            ("Purchased by".into(), detail.paid_by.clone().unwrap_or_else(|| detail.first_party.clone())),
            ("Description of Document".into(), or_dash(&detail.description)),
            ("Article".into(), or_dash(&detail.article)),
            ("Consideration Price (Rs.)".into(), or_dash(&detail.consideration)),
            ("First Party".into(), detail.first_party.clone()),
            ("Second Party".into(), detail.second_party.clone()),
            ("Stamp Duty Paid By".into(), detail.paid_by.clone().unwrap_or_else(|| detail.first_party.clone())),
            ("Stamp Duty Amount (Rs.)".into(), detail.amount.to_string()),
        ]),
        Block::Paragraph(
            "Issued by the Signet e-stamp provider simulator for development and tests. This is \
             not a stamp certificate of any stamp authority and no duty has been paid."
                .into(),
        ),
    ];
    compose_report("e-Stamp Certificate (simulated)", &blocks, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_provider_refuses_what_it_cannot_issue_naming_the_fields() {
        let errors = check(&json!({"loan": {"state": "MH", "estampdtls": [
            {"firstparty": "A", "stampDutyAmount": "12.50", "articleCode": "99"}]}}))
        .err()
        .expect("refused");
        let fields: Vec<&str> = errors.iter().map(|(f, _)| f.as_str()).collect();
        for field in [
            "loan.loanno",
            "loan.estampdtls[0].stampDutyAmount",
            "loan.estampdtls[0].articleCode",
            "loan.estampdtls[0].secondparty",
        ] {
            assert!(fields.contains(&field), "{field}: {fields:?}");
        }
        let ok = check(&json!({"loan": {"loanno": "L1", "state": "GA", "estampdtls": [
            {"firstparty": "A", "secondparty": "B", "stampDutyAmount": "100.00", "articleCode": "any"}]}}));
        assert!(ok.is_ok(), "a state whose schedule it does not hold takes any article");
    }
}
