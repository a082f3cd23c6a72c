//! One-call initiations: `initiate-and-sign` (a document, signers with coordinates or anchor
//! text, and optionally the first signer's signature image applied at once) and `optimized`
//! (documents and signer e-mails, in order). Both check everything before storing anything.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::json;
use signet_domain::Error;
use signet_domain::workflow::{SignatoryInput, plan_signatories};
use signet_store::NewSignatory;
use utoipa::ToSchema;

use super::workflows::{AttachmentDetails, InitiatedWorkflow, actor_of, attachment_uploads, signing_url};
use crate::AppState;
use crate::auth::Auth;
use crate::error::{ApiResult, ProblemDetails};
use crate::extract::ApiJson;
use signet_services::documents::{CheckedPdf, check_pdf, decode_base64, document_name};
use signet_services::workflows::initiate::decode_attachments;
use signet_services::workflows::placement::{self, PageRef, PlacedBox, Placement};
use signet_services::workflows::quick_start::{self, Plan, QuickStart, Started};

/// Largest signature image accepted with `initiate-and-sign`.
const MAX_SIGNATURE_IMAGE: usize = 1024 * 1024;

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Coordinate {
    #[serde(default)]
    pub control_type: i32,
    #[serde(default)]
    pub is_mandatory: i32,
    #[serde(default)]
    pub left: i32,
    #[serde(default)]
    pub height: i32,
    #[serde(default)]
    pub top: i32,
    #[serde(default)]
    pub width: i32,
    /// One page or a comma-separated list ("1,3").
    pub page_number: Option<String>,
    /// "first", "last" or "all", when no pageNumber is given.
    pub page: Option<String>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SignerView {
    pub email_id: Option<String>,
    pub name: Option<String>,
    pub contact_no: Option<String>,
    /// How this signatory signs: `electronic` (or `4`, the default) or `aadhaar_esign` (or
    /// `3`, Aadhaar eSign through the configured ESP) or `dsc_token` (or `2`, the signer's own
    /// crypto token through the signer utility).
    #[schema(max_length = 20)]
    pub mode_of_signature: Option<String>,
    /// The first signer's signature (PNG or JPEG, base64): applied when the workflow starts.
    pub signature_image: Option<String>,
    /// Text in the document below which this signer's signature goes.
    pub search_text: Option<String>,
    pub anchor: Option<String>,
    pub notification_email: Option<String>,
    #[serde(default)]
    pub mail_sending_options: i32,
    #[serde(default)]
    pub signer_type: i32,
    pub coordinates: Option<Vec<Coordinate>>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct QrCoordinate {
    #[serde(default)]
    pub left: i32,
    #[serde(default)]
    pub height: i32,
    #[serde(default)]
    pub top: i32,
    #[serde(default)]
    pub width: i32,
    pub page_number: Option<String>,
    pub selected_page: Option<String>,
}

/// The spec's `InitiateAndSignWorkflowConfig`. E-stamping fields are accepted only empty:
/// this server does not procure e-stamps.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InitiateAndSignWorkflowConfig {
    #[serde(default)]
    pub workflow_type: i32,
    pub list_attachment_details: Option<Vec<AttachmentDetails>>,
    pub e_stamp_type: Option<String>,
    pub state: Option<String>,
    #[serde(default)]
    pub denomination: i32,
    #[serde(rename = "clientID")]
    pub client_id: Option<String>,
    pub client_name: Option<String>,
    #[serde(default)]
    pub template_id: i32,
    pub document_name: Option<String>,
    pub file_data: Option<String>,
    pub signatories: Option<Vec<SignerView>>,
    pub reference_no: Option<String>,
    pub qr_code_cordinats: Option<Vec<QrCoordinate>>,
    #[serde(default)]
    pub donot_send_completion_mail_to_participants: bool,
    #[serde(default)]
    pub reminder: i32,
    #[schema(value_type = Option<Object>)]
    pub e_stamp_payload: Option<serde_json::Value>,
    #[serde(default)]
    pub fetch_estamp_deatils_using_ref_no: bool,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateControlDetail {
    pub field_name: Option<String>,
    pub field_type: Option<String>,
    pub field_value: Option<String>,
    pub is_checked: Option<String>,
    pub is_selected: Option<String>,
    pub image_data: Option<String>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MergeDocumentDetails {
    pub document_name: Option<String>,
    pub file_data: Option<String>,
    #[serde(default)]
    pub add_signature_placeholder: bool,
    #[serde(default)]
    pub parent_document_id: i32,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DocumentDetails {
    pub document_name: Option<String>,
    pub file_data: Option<String>,
    #[serde(default)]
    pub template_id: i32,
    pub control_details: Option<Vec<TemplateControlDetail>>,
    pub merge_document_details: Option<Vec<MergeDocumentDetails>>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MergeDocument {
    pub document_name: Option<String>,
    pub file_data: Option<String>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateData {
    #[serde(default)]
    pub template_id: i32,
    pub document_name: Option<String>,
    pub file_data: Option<String>,
    pub control_details: Option<Vec<TemplateControlDetail>>,
    pub lst_document_details: Option<Vec<DocumentDetails>>,
    pub merge_documents: Option<Vec<MergeDocument>>,
}

/// The spec's `OptimizedSignRequest`: documents and the signers' e-mails, signing in order.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OptimizedSignRequest {
    pub template_list: Option<Vec<TemplateData>>,
    pub lst_document_details: Option<Vec<DocumentDetails>>,
    pub email_id: Option<String>,
    pub name: Option<String>,
    #[serde(default)]
    pub suppress_estamp_page: bool,
    pub signatory_email_ids: Option<Vec<String>>,
    pub request_from: Option<String>,
}

fn unsupported(field: &str, what: &str) -> Error {
    Error::field(field, format!("{what} is not available on this server; leave it empty"))
}

fn page_refs(c: &Coordinate) -> Result<Vec<PageRef>, String> {
    if let Some(list) = c.page_number.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
        return list
            .split(',')
            .map(|p| {
                p.trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n > 0)
                    .map(PageRef::Number)
                    .ok_or_else(|| format!("page {p:?}"))
            })
            .collect();
    }
    Ok(vec![PageRef::Word(c.page.clone().filter(|p| !p.trim().is_empty()).unwrap_or_else(|| "last".into()))])
}

/// A signer's placement from their coordinates or anchor text.
fn placement_of(view: &SignerView, slot: usize, field: &str) -> Result<Placement, Error> {
    let mut placement = Placement { slot, ..Placement::default() };
    for (j, c) in view.coordinates.iter().flatten().enumerate() {
        let name = format!("{field}.coordinates[{j}]");
        let pages = page_refs(c).map_err(|what| Error::field(&name, format!("{what} is not a page number")))?;
        for page in pages {
            placement.boxes.push(PlacedBox {
                document: None,
                page,
                left: f64::from(c.left),
                top: f64::from(c.top),
                width: f64::from(c.width),
                height: f64::from(c.height),
            });
        }
    }
    placement.anchor = view.search_text.clone().or_else(|| view.anchor.clone()).filter(|a| !a.trim().is_empty());
    placement::check(&placement).map_err(|message| Error::field(field, message))?;
    Ok(placement)
}

fn signature_image(data: &str) -> Result<Vec<u8>, Error> {
    let bytes = decode_base64("signatories[0].signatureImage", Some(data), MAX_SIGNATURE_IMAGE)?;
    let is_png = bytes.starts_with(b"\x89PNG\r\n\x1a\n");
    let is_jpeg = bytes.starts_with(&[0xFF, 0xD8, 0xFF]);
    if !is_png && !is_jpeg {
        return Err(Error::field("signatories[0].signatureImage", "must be a PNG or JPEG image"));
    }
    Ok(bytes)
}

fn plan_initiate_and_sign(body: &InitiateAndSignWorkflowConfig, limit: usize) -> Result<Plan, Error> {
    if body.e_stamp_payload.as_ref().is_some_and(|v| !v.is_null()) || body.fetch_estamp_deatils_using_ref_no {
        return Err(unsupported("eStampPayload", "e-stamping"));
    }
    if body.e_stamp_type.as_deref().is_some_and(|t| !t.is_empty()) || body.denomination != 0 {
        return Err(unsupported("eStampType", "e-stamping"));
    }
    if body.qr_code_cordinats.as_ref().is_some_and(|q| !q.is_empty()) {
        return Err(unsupported("qrCodeCordinats", "a QR code on the document"));
    }
    if body.template_id != 0 {
        return Err(Error::field(
            "templateId",
            "initiate-and-sign takes its fields from the signatories' coordinates; use 0",
        ));
    }
    let name = document_name("documentName", body.document_name.as_deref(), "document.pdf")?;
    let bytes = decode_base64("fileData", body.file_data.as_deref(), limit)?;
    let pdf = check_pdf("fileData", name, bytes)?;
    let views = body.signatories.as_deref().unwrap_or_default();
    let inputs: Vec<SignatoryInput> = views
        .iter()
        .map(|v| SignatoryInput {
            subscriber_id: 0,
            email: v.email_id.clone().unwrap_or_default(),
            name: v.name.clone(),
            signing_order: 0,
            mode: v.mode_of_signature.clone(),
        })
        .collect();
    let planned = plan_signatories(&inputs)?;
    let mut signatories = Vec::with_capacity(planned.len());
    for (i, (planned, view)) in planned.into_iter().zip(views).enumerate() {
        let placement = placement_of(view, i, &format!("signatories[{i}]"))?;
        signatories.push(NewSignatory { planned, placement: serde_json::to_value(placement)? });
    }
    if let Some(i) = views.iter().skip(1).position(|v| v.signature_image.as_deref().is_some_and(|s| !s.is_empty())) {
        return Err(Error::field(
            &format!("signatories[{}].signatureImage", i + 1),
            "only the first signer can sign when the workflow starts",
        ));
    }
    let first_signature = match views.first().and_then(|v| v.signature_image.as_deref()).filter(|s| !s.is_empty()) {
        Some(data) => Some(signature_image(data)?),
        None => None,
    };
    Ok(Plan { pdfs: vec![pdf], signatories, first_signature })
}

/// The rest of an `initiate-and-sign` request, checked once its document is.
fn quick_start_rest(body: &InitiateAndSignWorkflowConfig) -> Result<QuickStart, Error> {
    let uploads = attachment_uploads(body.list_attachment_details.as_deref().unwrap_or_default(), &[]);
    let attachments = decode_attachments(&uploads)?;
    if body.reference_no.as_ref().is_some_and(|r| r.chars().count() > 200) {
        return Err(Error::field("referenceNo", "must be at most 200 characters"));
    }
    let settings = json!({
        "sendMail": !body.donot_send_completion_mail_to_participants,
        "completionMail": !body.donot_send_completion_mail_to_participants,
        "clientID": body.client_id,
        "clientName": body.client_name,
        "reminder": body.reminder,
    });
    Ok(QuickStart { reference_no: body.reference_no.clone(), settings, attachments })
}

fn initiated(started: Started, state: &AppState) -> InitiatedWorkflow {
    let waiting = started.signatories.iter().filter(|s| s.signed_at.is_none());
    InitiatedWorkflow {
        workflow_id: started.workflow.id.get(),
        signing_urls: waiting.map(|s| signing_url(state, s)).collect(),
    }
}

#[utoipa::path(
    post,
    path = "/api/v1/workflows/initiate-and-sign",
    tag = "workflows",
    security(("bearer" = [])),
    request_body = InitiateAndSignWorkflowConfig,
    responses(
        (status = 201, description = "Started (and signed by the first signer when a signature image was given); links for those still to sign", body = InitiatedWorkflow),
        (status = 400, description = "Invalid document, signers, coordinates or image; nothing stored", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn initiate_and_sign(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<InitiateAndSignWorkflowConfig>,
) -> ApiResult<(StatusCode, Json<InitiatedWorkflow>)> {
    let (body, limit) = (std::sync::Arc::new(body), state.config.max_body_bytes);
    let planning = body.clone();
    let rest = |_: &Plan| quick_start_rest(&body);
    let started = quick_start::start(
        &state,
        auth.tenant_id,
        &actor_of(&auth),
        move || plan_initiate_and_sign(&planning, limit),
        rest,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(initiated(started, &state))))
}

fn optimized_documents(body: &OptimizedSignRequest, limit: usize) -> Result<Vec<CheckedPdf>, Error> {
    let mut sources: Vec<(String, Option<&str>, Option<&str>, bool)> = Vec::new();
    for (i, t) in body.template_list.iter().flatten().enumerate() {
        let field = format!("templateList[{i}]");
        let has_controls = t.control_details.as_ref().is_some_and(|c| !c.is_empty());
        if t.merge_documents.as_ref().is_some_and(|m| !m.is_empty()) {
            return Err(unsupported(&format!("{field}.mergeDocuments"), "merging documents"));
        }
        sources.push((field.clone(), t.document_name.as_deref(), t.file_data.as_deref(), has_controls));
        for (j, d) in t.lst_document_details.iter().flatten().enumerate() {
            let has_controls = d.control_details.as_ref().is_some_and(|c| !c.is_empty());
            sources.push((
                format!("{field}.lstDocumentDetails[{j}]"),
                d.document_name.as_deref(),
                d.file_data.as_deref(),
                has_controls,
            ));
        }
    }
    for (i, d) in body.lst_document_details.iter().flatten().enumerate() {
        let field = format!("lstDocumentDetails[{i}]");
        if d.merge_document_details.as_ref().is_some_and(|m| !m.is_empty()) {
            return Err(unsupported(&format!("{field}.mergeDocumentDetails"), "merging documents"));
        }
        let has_controls = d.control_details.as_ref().is_some_and(|c| !c.is_empty());
        sources.push((field, d.document_name.as_deref(), d.file_data.as_deref(), has_controls));
    }
    if sources.is_empty() || sources.len() > signet_services::documents::MAX_BULK_DOCUMENTS {
        return Err(Error::field("lstDocumentDetails", "give 1 to 20 documents with fileData"));
    }
    let mut pdfs = Vec::with_capacity(sources.len());
    for (field, name, data, has_controls) in sources {
        if has_controls {
            return Err(unsupported(&format!("{field}.controlDetails"), "filling form fields"));
        }
        let name = document_name(&format!("{field}.documentName"), name, "document.pdf")?;
        let bytes = decode_base64(&format!("{field}.fileData"), data, limit)?;
        pdfs.push(check_pdf(&format!("{field}.fileData"), name, bytes)?);
    }
    Ok(pdfs)
}

#[utoipa::path(
    post,
    path = "/api/v1/workflows/optimized",
    tag = "workflows",
    security(("bearer" = [])),
    request_body = OptimizedSignRequest,
    responses(
        (status = 201, description = "Started; the signers sign in the order of `signatoryEmailIds`", body = InitiatedWorkflow),
        (status = 400, description = "Invalid documents or e-mail addresses; nothing stored", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn optimized(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<OptimizedSignRequest>,
) -> ApiResult<(StatusCode, Json<InitiatedWorkflow>)> {
    let (body, limit) = (std::sync::Arc::new(body), state.config.max_body_bytes);
    let reading = body.clone();
    let plan = move || -> Result<Plan, Error> {
        let pdfs = optimized_documents(&reading, limit)?;
        Ok(Plan { pdfs, signatories: optimized_signatories(&reading)?, first_signature: None })
    };
    let rest = |_: &Plan| {
        let settings = json!({"sendMail": true, "requestFrom": body.request_from});
        Ok(QuickStart { reference_no: None, settings, attachments: Vec::new() })
    };
    let started = quick_start::start(&state, auth.tenant_id, &actor_of(&auth), plan, rest).await?;
    Ok((StatusCode::CREATED, Json(initiated(started, &state))))
}

/// The signers of an `optimized` request, in the order of `signatoryEmailIds` (or the one
/// `emailId`), each in the default place.
fn optimized_signatories(body: &OptimizedSignRequest) -> Result<Vec<NewSignatory>, Error> {
    let mut emails: Vec<String> = body.signatory_email_ids.clone().unwrap_or_default();
    if emails.is_empty()
        && let Some(email) = body.email_id.clone().filter(|e| !e.trim().is_empty())
    {
        emails.push(email);
    }
    let inputs: Vec<SignatoryInput> = emails
        .iter()
        .enumerate()
        .map(|(i, email)| SignatoryInput {
            subscriber_id: 0,
            email: email.clone(),
            name: if i == 0 && emails.len() == 1 { body.name.clone() } else { None },
            signing_order: 0,
            mode: None,
        })
        .collect();
    let planned = plan_signatories(&inputs).map_err(|e| match e {
        Error::Validation(fields) => Error::Validation(
            fields
                .into_iter()
                .map(|(k, v)| (k.replace("signatories", "signatoryEmailIds").replace("].emailId", "]"), v))
                .collect(),
        ),
        other => other,
    })?;
    Ok(planned
        .into_iter()
        .enumerate()
        .map(|(slot, planned)| NewSignatory {
            planned,
            placement: serde_json::to_value(Placement { slot, ..Placement::default() }).unwrap_or_default(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;

    use super::*;

    #[test]
    fn coordinates_become_boxes_on_their_pages() {
        let view: SignerView = serde_json::from_value(serde_json::json!({
            "emailId": "a@b.co",
            "coordinates": [{"left": 50, "top": 600, "width": 150, "height": 50, "pageNumber": "1,2"}]
        }))
        .expect("view");
        let placement = placement_of(&view, 0, "signatories[0]").expect("placement");
        assert_eq!(placement.boxes.len(), 2);
        let bad: SignerView = serde_json::from_value(serde_json::json!({
            "emailId": "a@b.co", "coordinates": [{"left": 50, "top": 600, "width": 150, "height": 50, "pageNumber": "x"}]
        }))
        .expect("view");
        assert!(placement_of(&bad, 0, "signatories[0]").is_err());
        assert!(signature_image(&STANDARD.encode(b"GIF89a")).is_err());
    }
}
