//! Verification for everyone (`POST /api/v1/verify`): a signed PDF, XML or CMS in, each
//! signature's verdict out, in the report's terms and in words. Public (rate limited per
//! address); nothing handed in is kept.

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use signet_services::verification::{self, Verdict, Verification};
use utoipa::ToSchema;

use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::{ApiJson, ClientIp};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct VerifyRequest {
    /// The signed file, base64 (a `data:` URL prefix is allowed): a PDF, an XML document with
    /// enveloped signatures, or a CMS signature (DER or PEM); at most 25 MiB.
    #[schema(min_length = 1, content_encoding = "base64")]
    pub file_data: String,
    /// For a detached CMS signature: the content it signs, base64.
    #[schema(content_encoding = "base64")]
    pub detached_content: Option<String>,
}

/// A file to report on, and the report's form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct VerificationReportRequest {
    /// The signed file, base64 (a `data:` URL prefix is allowed): a PDF, an XML document with
    /// enveloped signatures, or a CMS signature (DER or PEM); at most 25 MiB.
    #[schema(min_length = 1, content_encoding = "base64")]
    pub file_data: String,
    /// For a detached CMS signature: the content it signs, base64.
    #[schema(content_encoding = "base64")]
    pub detached_content: Option<String>,
    /// `xml` (the default: the standard's XML) or `json` (the same content as JSON).
    pub format: Option<ReportFormat>,
}

/// The form of an ETSI TS 119 102-2 report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReportFormat {
    Xml,
    Json,
}

/// One signature's verdict.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifiedSignature {
    /// 1-based position in the file.
    pub index: usize,
    /// `approval`, `certification`, `document-timestamp`, `cms`, `xml-dsig` or `xades`.
    pub kind: String,
    /// `electronic` (sealed by Signet), `aadhaar_esign`, `digital_certificate` or `timestamp`.
    pub method: String,
    pub method_label: String,
    /// `valid`, `changed` (the document changed after it in a way it forbids), `covered` (the
    /// signature holds, but something added after signing lies over signed content), `revoked`
    /// (the certificate was revoked before a proven signing time, or with no proof of when),
    /// `untrusted` (intact, but from an authority not trusted here) or `broken`.
    pub status: String,
    /// Who signed (for a Signet seal, the organisation).
    pub signer: Option<String>,
    /// The certificate's full subject.
    pub signer_subject: Option<String>,
    pub issuer: Option<String>,
    /// When: the time-stamp's time, else the time the signer claimed.
    pub signed_at: Option<String>,
    /// `time-stamp` or `claimed by the signer`.
    pub time_source: Option<String>,
    pub intact: bool,
    pub trusted: bool,
    pub valid: bool,
    /// ETSI EN 319 102-1 main indication of the signature itself: `TOTAL-PASSED`,
    /// `TOTAL-FAILED` or `INDETERMINATE`.
    #[schema(value_type = Option<String>)]
    pub indication: Option<signet_signing::Indication>,
    /// Why, when not `TOTAL-PASSED`: `FORMAT_FAILURE`, `HASH_FAILURE`, `SIG_CRYPTO_FAILURE`,
    /// `REVOKED`, `REVOKED_NO_POE`, `EXPIRED`, `NOT_YET_VALID`, `OUT_OF_BOUNDS_NO_POE`,
    /// `NO_CERTIFICATE_CHAIN_FOUND`, `NO_SIGNING_CERTIFICATE_FOUND`, `CHAIN_CONSTRAINTS_FAILURE`
    /// or `TRY_LATER`.
    #[schema(value_type = Option<String>)]
    pub sub_indication: Option<signet_signing::SubIndication>,
    /// `B-B`, `B-T`, `B-LT` or `B-LTA` for PDF signatures.
    pub pades_level: Option<String>,
    /// What is needed to check it for years is inside the document.
    pub long_term: bool,
    pub covers_whole_document: bool,
    pub later_revisions: usize,
    pub modifications_allowed: bool,
    pub modifications: Vec<String>,
    /// Changes after signing that lie over signed content: what, on which page, where, what it
    /// draws and the signed text it covers.
    pub hides_signed_content: Vec<String>,
    /// Sentences for people, the most important first.
    pub explanation: Vec<String>,
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerificationReport {
    /// `pdf`, `cms` or `xml`.
    pub file_kind: String,
    /// At least one signature, and every one valid.
    pub valid: bool,
    /// One sentence about the whole file.
    pub summary: String,
    pub signatures: Vec<VerifiedSignature>,
    /// Problems with the file as a whole.
    pub errors: Vec<String>,
}

fn view(verification: Verification) -> VerificationReport {
    let Verification { report, verdicts, summary } = verification;
    let signatures = report
        .signatures
        .into_iter()
        .zip(verdicts)
        .map(|(s, v): (_, Verdict)| VerifiedSignature {
            index: s.index,
            kind: s.kind,
            method: serde_json::to_value(v.method)
                .ok()
                .and_then(|m| m.as_str().map(str::to_string))
                .unwrap_or_default(),
            method_label: v.method.label().to_string(),
            status: v.status.code().to_string(),
            signer: v.signer,
            signer_subject: s.signer,
            issuer: s.issuer,
            signed_at: v.signed_at,
            time_source: v.time_source.map(|t| t.code().to_string()),
            intact: s.intact,
            trusted: s.trusted,
            valid: s.valid,
            indication: s.indication,
            sub_indication: s.sub_indication,
            pades_level: s.pades_level,
            long_term: v.long_term,
            covers_whole_document: s.covers_whole_document,
            later_revisions: s.later_revisions,
            modifications_allowed: s.modifications_allowed,
            modifications: s.modifications,
            hides_signed_content: s.hides_signed_content,
            explanation: v.explanation.iter().map(verification::Sentence::english).collect(),
            errors: s.errors,
            warnings: s.warnings,
        })
        .collect();
    let file_kind = serde_json::to_value(report.file_kind).ok().and_then(|k| k.as_str().map(str::to_string));
    VerificationReport {
        file_kind: file_kind.unwrap_or_default(),
        valid: report.valid,
        summary: summary.english(),
        signatures,
        errors: report.errors,
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/verify",
    operation_id = "verifyFile",
    tag = "verification",
    request_body = VerifyRequest,
    responses(
        (status = 200, description = "Each signature's verdict (a file without signatures is answered too, not valid)", body = VerificationReport),
        (status = 400, description = "Not base64, empty, larger than 25 MiB, or not a PDF, XML or CMS file (`validation_failed`)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 429, description = "Too many requests from this address", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn verify(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(request): ApiJson<VerifyRequest>,
) -> ApiResult<Json<VerificationReport>> {
    state.ip_limiter.check(ip)?;
    let verification =
        verification::verify_base64(&state.services, Some(&request.file_data), request.detached_content.as_deref())
            .await?;
    Ok(Json(view(verification)))
}

const XML: &str = "application/xml; charset=utf-8";

#[utoipa::path(
    post,
    path = "/api/v1/verify/report",
    operation_id = "verificationReport",
    tag = "verification",
    request_body = VerificationReportRequest,
    responses(
        (status = 200, description = "The ETSI TS 119 102-2 validation report: XML in the schema's namespace `http://uri.etsi.org/19102/v1.2.1#` (`format` `xml`, the default), or its content as JSON with the schema's element names (`format` `json`)", content(
            (String = "application/xml"),
            (Object = "application/json"),
        )),
        (status = 400, description = "Not base64, empty, larger than 25 MiB, not a PDF, XML or CMS file, or a file without signatures (`validation_failed`)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 429, description = "Too many requests from this address", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn report(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(request): ApiJson<VerificationReportRequest>,
) -> ApiResult<Response> {
    state.ip_limiter.check(ip)?;
    let (file, detached) = verification::decode_upload(&request.file_data, request.detached_content.as_deref())?;
    let report = verification::etsi_report(&state.services, file, detached).await?;
    Ok(match request.format.unwrap_or(ReportFormat::Xml) {
        ReportFormat::Xml => ([(header::CONTENT_TYPE, XML)], report.to_xml()).into_response(),
        ReportFormat::Json => Json(report).into_response(),
    })
}

#[utoipa::path(
    post,
    path = "/api/v1/verify/sealed-report",
    operation_id = "sealedVerificationReport",
    tag = "verification",
    security(("bearer" = [])),
    request_body = VerifyRequest,
    responses(
        (status = 200, description = "The ETSI TS 119 102-2 validation report (XML) sealed by the caller's organisation: an enveloped XAdES signature by its sealing certificate as the report's last element, which `signet verify` and `POST /api/v1/verify` check", content_type = "application/xml"),
        (status = 400, description = "Not base64, empty, larger than 25 MiB, not a PDF, XML or CMS file, or a file without signatures (`validation_failed`)", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 401, description = "Not authenticated", body = ProblemDetails, content_type = "application/problem+json"),
        (status = 403, description = "The caller may not read the organisation's workflows (`forbidden`)", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn sealed_report(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(request): ApiJson<VerifyRequest>,
) -> ApiResult<Response> {
    let (file, detached) = verification::decode_upload(&request.file_data, request.detached_content.as_deref())?;
    let sealed = verification::sealed_etsi_report(&state.services, &auth.caller(), file, detached).await?;
    Ok(([(header::CONTENT_TYPE, XML)], sealed).into_response())
}
