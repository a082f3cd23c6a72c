//! What relying parties fetch: the CA and ESP certificates, a CRL and OCSP answers for the
//! signer certificates (the URLs the certificates announce), so that Signet's long-term
//! validation (PAdES B-LT) works against the test ESP as against C-DAC's.

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use signet_sigcrypto::revocation::{self, OcspResponder, RevocationStatus};

use crate::state::{Shared, lock, unix_now};

/// How long a CRL and an OCSP answer may be relied on.
const CRL_VALIDITY: Duration = Duration::from_secs(7 * 24 * 3600);
const OCSP_VALIDITY: Duration = Duration::from_secs(24 * 3600);
/// `OCSPResponse` with status internalError and no body (RFC 6960 §4.2.1).
const OCSP_INTERNAL_ERROR: &[u8] = &[0x30, 0x03, 0x0a, 0x01, 0x02];

fn der(content_type: &'static str, bytes: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, content_type)], bytes).into_response()
}

pub async fn ca_certificate(State(esp): State<Shared>) -> Response {
    der("application/pkix-cert", esp.keys.ca.cert_der().to_vec())
}

pub async fn esp_certificate(State(esp): State<Shared>) -> Response {
    der("application/pkix-cert", esp.keys.esp_certificate_der.clone())
}

/// A fresh CRL on each fetch: nothing is ever revoked by this ESP (its certificates live 30
/// minutes), so it is empty.
pub async fn crl(State(esp): State<Shared>) -> Response {
    match esp.keys.ca.issue_crl(&[], CRL_VALIDITY) {
        Ok(crl) => der("application/pkix-crl", crl),
        Err(error) => {
            tracing::error!("no CRL: {error}");
            (StatusCode::INTERNAL_SERVER_ERROR, "the CRL could not be made").into_response()
        }
    }
}

/// RFC 6960 over HTTP POST: `good` for certificates this ESP issued, `unknown` for others.
pub async fn ocsp(State(esp): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    // A body over the limit is a malformed request like any other unreadable one.
    let request = body.map(|b| b.to_vec()).unwrap_or_default();
    let responder =
        OcspResponder { issuer_der: esp.keys.ca.cert_der(), signer: &esp.keys.ocsp, validity: OCSP_VALIDITY };
    let now = unix_now();
    let answer = {
        let issued = lock(&esp.issued);
        let status_of = |serial: &[u8]| {
            if issued.contains(&hex::encode(serial), now) { RevocationStatus::Good } else { RevocationStatus::Unknown }
        };
        revocation::build_ocsp_response(&request, &responder, &status_of, std::time::SystemTime::now())
    };
    let answer = answer.unwrap_or_else(|error| {
        tracing::error!("no OCSP answer: {error}");
        OCSP_INTERNAL_ERROR.to_vec()
    });
    der("application/ocsp-response", answer)
}
