//! The gateway's public, wire-compatible addresses beside its submission: its encryption
//! certificate (anyone may fetch it) and the legacy transaction status query (authorised by
//! the gateway Authtoken). Neither reads an access token or a session.

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use signet_sigcrypto::pki;

use signet_http::error::ApiResult;
use signet_http::extract::{ApiQuery, ClientIp};
use signet_services::Services;
use signet_services::gateway::admin;

/// `GET /{segment}/certificate.cer`: the gateway's encryption certificate, DER.
pub async fn certificate_der(State(services): State<Services>) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "application/pkix-cert"),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"certificate.cer\""),
        ],
        services.keys.gateway.cert_der.clone(),
    )
}

/// `GET /{segment}/certificate.pem`: the same certificate, PEM.
pub async fn certificate_pem(State(services): State<Services>) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/x-pem-file")], pki::cert_der_to_pem(&services.keys.gateway.cert_der))
}

#[derive(Debug, Deserialize)]
pub struct StatusQuery {
    #[serde(rename = "Authtoken", alias = "authtoken", alias = "AuthToken")]
    pub authtoken: Option<String>,
    #[serde(rename = "Transactionnumber", alias = "transactionnumber", alias = "TransactionNumber")]
    pub transaction_number: Option<String>,
    #[serde(rename = "Referencenumber", alias = "referencenumber", alias = "ReferenceNumber")]
    pub reference_number: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct StatusValue {
    pub transaction_number: String,
    pub reference_number: String,
    /// Initiated, Completed, Failed, Cancelled or Expired.
    pub status: String,
    pub error_message: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct StatusAnswer {
    pub is_success: bool,
    pub messages: Vec<String>,
    pub value: Option<StatusValue>,
}

fn refused(message: &str) -> Json<StatusAnswer> {
    Json(StatusAnswer { is_success: false, messages: vec![message.to_string()], value: None })
}

/// `GET /api/TransactionStatusRequest?Authtoken=&Transactionnumber=&Referencenumber=`, as the
/// existing gateway answers it. The Authtoken must belong to the tenant that owns the
/// transaction, and the reference must match; anything else looks like an unknown transaction.
pub async fn transaction_status(
    State(services): State<Services>,
    ClientIp(ip): ClientIp,
    ApiQuery(query): ApiQuery<StatusQuery>,
) -> ApiResult<Json<StatusAnswer>> {
    let (token, number, reference) =
        (query.authtoken.as_deref(), query.transaction_number.as_deref(), query.reference_number.as_deref());
    let transaction = match admin::status(&services, ip, token, number, reference).await? {
        Ok(transaction) => transaction,
        Err(message) => return Ok(refused(message)),
    };
    Ok(Json(StatusAnswer {
        is_success: true,
        messages: Vec::new(),
        value: Some(StatusValue {
            transaction_number: transaction.transaction_number,
            reference_number: transaction.reference_number,
            status: admin::wire_status(transaction.state).to_string(),
            error_message: transaction.error_message.unwrap_or_default(),
        }),
    }))
}
