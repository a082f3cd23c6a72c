//! One-call initiations: `initiate-and-sign` (a document, signers with coordinates or anchor
//! text, and optionally the first signer's signature image applied at once) and `optimized`
//! (documents and signer e-mails, in order). Both check everything before storing anything.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use signet_domain::Error;
use signet_domain::estamp::LoanSigner;
use signet_domain::phone::PhoneNumber;
use signet_domain::stamp;
use signet_domain::workflow::{SignatoryInput, plan_signatories};
use signet_domain::workflow_settings::{AsSent, WorkflowSettings};
use signet_services::records::NewSignatory;
use utoipa::ToSchema;

use super::workflows::{AttachmentDetails, InitiatedWorkflow, attachment_uploads, signing_url};
use signet_domain::placement::{PageRef, PlacedBox, Placement, SlotPages};
use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::error::{ApiResult, ProblemDetails};
use signet_http::extract::ApiJson;
use signet_services::stamps::StampRequest;
use signet_services::verification::QrPlacement;
use signet_services::workflows::compose;
use signet_services::workflows::documents::{check_pdf, decode_base64, document_name};
use signet_services::workflows::initiate::decode_attachments;
use signet_services::workflows::placement;
use signet_services::workflows::quick_start::{self, Plan, QuickStart, StampOrder, Started};

use super::estamp_payload::{self, DigitalStamp, EstampPayload};
use signet_signing::{BoxSpec, PageSelection};

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
    /// The signer's phone. A mobile number also gets the invitation and reminders by SMS
    /// where this service has an SMS provider; any other number is no reason to refuse.
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

impl SignerView {
    /// A loan record's participant as a signatory (their boxes come from the record).
    fn of_participant(signer: &LoanSigner) -> SignerView {
        SignerView {
            email_id: Some(signer.email.clone()),
            name: Some(signer.name.clone()),
            contact_no: signer.mobile.as_ref().map(|m| m.e164().to_string()),
            mode_of_signature: None,
            signature_image: None,
            search_text: None,
            anchor: None,
            notification_email: None,
            mail_sending_options: 0,
            signer_type: 0,
            coordinates: None,
        }
    }
}

/// Where a QR code leading to the document's public verification page (`/verify/d/...`) is
/// drawn: a box in points from the page's top-left corner (width and height 0: one inch; a
/// smaller box is enlarged to 40 points so that phones read the code), on the pages of
/// `pageNumber` ("1" or "1,3"), else of `selectedPage`, else the first page.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = QRCoordinate)]
pub struct QrCoordinate {
    #[serde(default)]
    #[schema(minimum = 0, maximum = 14400)]
    pub left: i32,
    #[serde(default)]
    #[schema(minimum = 0, maximum = 2000)]
    pub height: i32,
    #[serde(default)]
    #[schema(minimum = 0, maximum = 14400)]
    pub top: i32,
    #[serde(default)]
    #[schema(minimum = 0, maximum = 2000)]
    pub width: i32,
    #[schema(pattern = "^ *([1-9][0-9]{0,4} *(, *[1-9][0-9]{0,4} *)*)?$")]
    pub page_number: Option<String>,
    #[schema(pattern = "^(|ALL|FIRST|LAST|EVEN|ODD|all|first|last|even|odd|All|First|Last|Even|Odd)$")]
    pub selected_page: Option<String>,
}

/// The QR codes asked for, checked.
fn qr_placements(codes: &[QrCoordinate]) -> Result<Vec<QrPlacement>, Error> {
    use signet_services::verification::{MAX_QR_PLACEMENTS, MIN_QR_SIDE};
    if codes.len() > MAX_QR_PLACEMENTS {
        return Err(Error::field("qrCodeCordinats", format!("at most {MAX_QR_PLACEMENTS} QR codes")));
    }
    let mut placements = Vec::with_capacity(codes.len());
    for (i, code) in codes.iter().enumerate() {
        let field = format!("qrCodeCordinats[{i}]");
        let within = |v: i32, max: i32| (0..=max).contains(&v);
        if !within(code.left, 14400)
            || !within(code.top, 14400)
            || !within(code.width, 2000)
            || !within(code.height, 2000)
        {
            return Err(Error::field(&field, "left and top must be 0 to 14400, width and height 0 to 2000 points"));
        }
        let side = |v: i32| if v == 0 { 72.0 } else { f64::from(v).max(MIN_QR_SIDE) };
        let rect = BoxSpec::Custom {
            left: f64::from(code.left),
            top: f64::from(code.top),
            width: side(code.width),
            height: side(code.height),
        };
        placements.push(QrPlacement { pages: qr_pages(code).map_err(|m| Error::field(&field, m))?, rect });
    }
    Ok(placements)
}

fn qr_pages(code: &QrCoordinate) -> Result<PageSelection, String> {
    let numbers = code.page_number.as_deref().map(str::trim).filter(|p| !p.is_empty());
    if let Some(list) = numbers {
        let pages: Option<Vec<u32>> =
            list.split(',').map(|p| p.trim().parse::<u32>().ok().filter(|n| (1..=99_999).contains(n))).collect();
        return pages
            .map(PageSelection::List)
            .ok_or_else(|| format!("pageNumber {list:?} is not a list of page numbers"));
    }
    // Exactly the spellings the OpenAPI pattern allows: upper, lower or title case.
    let word = code.selected_page.as_deref().unwrap_or_default();
    let spelled = |k: &&&str| word == **k || word == k.to_lowercase() || word == title_case(k);
    match ["ALL", "FIRST", "LAST", "EVEN", "ODD"].iter().find(spelled) {
        _ if word.is_empty() => Ok(PageSelection::First),
        Some(known) => PageSelection::parse(known).map_err(|e| e.to_string()),
        None => Err("selectedPage must be ALL, FIRST, LAST, EVEN or ODD".into()),
    }
}

fn title_case(word: &str) -> String {
    let lower = word.to_lowercase();
    let mut chars = lower.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The spec's `InitiateAndSignWorkflowConfig`. Stamp duty comes from the tenant's inventory
/// (`eStampType` `inventory`, `state`, `denomination`: docs/stamps.md) or from the stamp
/// provider (`eStampType` `digital` with the loan record in `eStampPayload`, or
/// `fetchEstampDeatilsUsingRefNo` with `referenceNo`: docs/estamp-provider.md).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InitiateAndSignWorkflowConfig {
    #[serde(default)]
    pub workflow_type: i32,
    pub list_attachment_details: Option<Vec<AttachmentDetails>>,
    #[schema(schema_with = super::schemas::estamp_type)]
    pub e_stamp_type: Option<String>,
    #[schema(schema_with = super::schemas::estamp_state)]
    pub state: Option<String>,
    /// The stamp duty in rupees (with `eStampType`): the stamp papers taken add up to it; 0 without.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 2147483647)]
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
    pub e_stamp_payload: Option<EstampPayload>,
    /// With `eStampType` `digital`: fetch the certificates the provider issued before under
    /// `referenceNo` instead of issuing new ones.
    #[serde(default)]
    pub fetch_estamp_deatils_using_ref_no: bool,
}

/// A value for one of the document's form fields (`fieldName`, fully qualified as
/// `parent.child`): `fieldValue` for a text field, `isChecked` (`true`/`false`) for a
/// checkbox, `fieldValue` (the option) with `isSelected` (default `true`) for a radio group or
/// a choice field, `imageData` (PNG or JPEG, base64) for an image field (a push button).
/// `fieldType`, when given (`text`, `checkbox`, `radio`, `choice`, `image`), must match the
/// field.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateControlDetail {
    #[schema(max_length = 200)]
    pub field_name: Option<String>,
    #[schema(max_length = 20)]
    pub field_type: Option<String>,
    #[schema(max_length = 10000)]
    pub field_value: Option<String>,
    #[schema(max_length = 10)]
    pub is_checked: Option<String>,
    #[schema(max_length = 10)]
    pub is_selected: Option<String>,
    /// PNG or JPEG, base64, at most 5 MiB decoded.
    pub image_data: Option<String>,
}

/// A document merged after a document (`lstDocumentDetails`): given as `fileData`, or as a
/// stored document of the tenant (`parentDocumentId`, uploaded with `POST /api/v1/documents`).
/// With `addSignaturePlaceholder`, the signers' signature fields go on its last page as well.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MergeDocumentDetails {
    /// The title of the bookmark that leads to the merged pages.
    #[schema(max_length = 200)]
    pub document_name: Option<String>,
    pub file_data: Option<String>,
    #[serde(default)]
    pub add_signature_placeholder: bool,
    #[serde(default)]
    pub parent_document_id: i32,
}

/// A document to sign: its form fields filled from `controlDetails` (and flattened with
/// `flattenFields`, a Signet extension), then the `mergeDocumentDetails` appended after it.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DocumentDetails {
    #[schema(max_length = 200)]
    pub document_name: Option<String>,
    pub file_data: Option<String>,
    /// 0, or one of the tenant's templates (checked; templates carry no document).
    #[serde(default)]
    pub template_id: i32,
    #[schema(max_items = 500)]
    pub control_details: Option<Vec<TemplateControlDetail>>,
    #[schema(max_items = 20)]
    pub merge_document_details: Option<Vec<MergeDocumentDetails>>,
    /// Signet extension: draw the filled fields into the pages and remove them.
    #[serde(default)]
    pub flatten_fields: bool,
}

/// A document appended after a template's document.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MergeDocument {
    /// The title of the bookmark that leads to the merged pages.
    #[schema(max_length = 200)]
    pub document_name: Option<String>,
    pub file_data: Option<String>,
}

/// A template's document (`fileData`, its form filled from `controlDetails`, the
/// `mergeDocuments` appended after it) and further documents of the template.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TemplateData {
    /// 0, or one of the tenant's templates (checked; templates carry no document).
    #[serde(default)]
    pub template_id: i32,
    #[schema(max_length = 200)]
    pub document_name: Option<String>,
    pub file_data: Option<String>,
    #[schema(max_items = 500)]
    pub control_details: Option<Vec<TemplateControlDetail>>,
    #[schema(max_items = 20)]
    pub lst_document_details: Option<Vec<DocumentDetails>>,
    #[schema(max_items = 20)]
    pub merge_documents: Option<Vec<MergeDocument>>,
    /// Signet extension: draw the filled fields into the pages and remove them.
    #[serde(default)]
    pub flatten_fields: bool,
}

/// The spec's `OptimizedSignRequest`: documents and the signers' e-mails, signing in order.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OptimizedSignRequest {
    #[schema(max_items = 20)]
    pub template_list: Option<Vec<TemplateData>>,
    #[schema(max_items = 20)]
    pub lst_document_details: Option<Vec<DocumentDetails>>,
    pub email_id: Option<String>,
    pub name: Option<String>,
    #[serde(default)]
    pub suppress_estamp_page: bool,
    pub signatory_email_ids: Option<Vec<String>>,
    pub request_from: Option<String>,
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
    placement::check(&placement).map_err(|e| Error::field(field, e.to_string()))?;
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

fn digital_stamp_of(body: &InitiateAndSignWorkflowConfig) -> Result<Option<DigitalStamp>, Error> {
    estamp_payload::digital_stamp(
        body.e_stamp_type.as_deref(),
        body.e_stamp_payload.as_ref(),
        body.fetch_estamp_deatils_using_ref_no,
        body.state.as_deref(),
        body.reference_no.as_deref(),
    )
}

fn plan_initiate_and_sign(body: &InitiateAndSignWorkflowConfig, limit: usize) -> Result<Plan, Error> {
    if body.template_id != 0 {
        return Err(Error::field(
            "templateId",
            "initiate-and-sign takes its fields from the signatories' coordinates; use 0",
        ));
    }
    let digital = digital_stamp_of(body)?;
    let facts = digital.as_ref().and_then(|d| d.facts.as_ref());
    let name = document_name("documentName", body.document_name.as_deref(), "document.pdf")?;
    let bytes =
        match (body.file_data.as_deref().filter(|d| !d.is_empty()), facts.and_then(|f| f.document_data.as_deref())) {
            (Some(_), Some(_)) => {
                return Err(Error::field(
                    "eStampPayload.loan.documentdtls[0].docData",
                    "give the document once: in fileData or here",
                ));
            }
            (None, Some(data)) => decode_base64("eStampPayload.loan.documentdtls[0].docData", Some(data), limit)?,
            (data, None) => decode_base64("fileData", data, limit)?,
        };
    let pdf = check_pdf("fileData", name, bytes)?;
    let given = body.signatories.as_deref().unwrap_or_default();
    // Without signatories, the loan record's participants sign, in their order.
    let from_loan: Vec<SignerView>;
    let views = match facts {
        Some(facts) if given.is_empty() => {
            from_loan = facts.signers.iter().map(SignerView::of_participant).collect();
            from_loan.as_slice()
        }
        _ => given,
    };
    let inputs: Vec<SignatoryInput> = views
        .iter()
        .map(|v| SignatoryInput {
            subscriber_id: 0,
            email: v.email_id.clone().unwrap_or_default(),
            name: v.name.clone(),
            signing_order: 0,
            mode: v.mode_of_signature.clone(),
            mobile: PhoneNumber::from_contact(v.contact_no.as_deref()).map(|m| m.e164().to_string()),
            otp_sms: false,
        })
        .collect();
    let planned = plan_signatories(&inputs)?;
    let mut placements = Vec::with_capacity(views.len());
    for (i, view) in views.iter().enumerate() {
        placements.push(placement_of(view, i, &format!("signatories[{i}]"))?);
    }
    if let Some(facts) = facts {
        let emails: Vec<String> = inputs.iter().map(|i| i.email.clone()).collect();
        estamp_payload::place_participants(facts, &emails, &mut placements)?;
        for placement in &placements {
            placement::check(placement)
                .map_err(|e| Error::field("eStampPayload.loan.eSignCordinates", e.to_string()))?;
        }
    }
    let mut signatories = Vec::with_capacity(planned.len());
    for (planned, placement) in planned.into_iter().zip(placements) {
        signatories.push(NewSignatory { planned, placement });
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
    let mails = !body.donot_send_completion_mail_to_participants;
    let as_sent = AsSent {
        completion_mail: Some(mails),
        client_id: body.client_id.clone(),
        client_name: body.client_name.clone(),
        reminder: Some(i64::from(body.reminder)),
        ..AsSent::default()
    };
    let settings = WorkflowSettings { send_mail: mails, as_sent, ..WorkflowSettings::default() };
    Ok(QuickStart {
        reference_no: body.reference_no.clone(),
        settings,
        attachments,
        stamp: stamp_request(body)?,
        qr: qr_placements(body.qr_code_cordinats.as_deref().unwrap_or_default())?,
    })
}

/// The stamp duty asked for: papers of `state` making up `denomination` from the inventory,
/// with the first two signers as the parties on the certificate page; or the certificates the
/// stamp provider issues for the loan record (or issued, by reference).
fn stamp_request(body: &InitiateAndSignWorkflowConfig) -> Result<Option<StampOrder>, Error> {
    if let Some(digital) = digital_stamp_of(body)? {
        let order = digital.order(
            body.state.as_deref(),
            body.denomination,
            body.reference_no.as_deref(),
            body.document_name.as_deref(),
        )?;
        return Ok(Some(StampOrder::Provider(order)));
    }
    let source = stamp::parse_estamp_type(body.e_stamp_type.as_deref()).map_err(|m| Error::field("eStampType", m))?;
    if source.is_none() {
        if body.denomination != 0 || body.state.is_some() {
            return Err(Error::field(
                "eStampType",
                "give eStampType inventory to take stamp papers of state and denomination",
            ));
        }
        return Ok(None);
    }
    let state_code = stamp::parse_state_code("state", body.state.as_deref())?;
    let duty = stamp::check_denomination("denomination", i64::from(body.denomination))?;
    let party = |i: usize| {
        body.signatories.as_deref().and_then(|s| s.get(i)).and_then(|v| v.name.clone().or_else(|| v.email_id.clone()))
    };
    Ok(Some(StampOrder::Inventory(StampRequest {
        state_code,
        duty,
        article: None,
        description: body.document_name.clone(),
        first_party: party(0),
        second_party: party(1),
        paid_by: party(0),
        attach_page: true,
    })))
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
        (status = 409, description = "`out_of_stock`: the inventory has no stamp papers of the state that make up the duty; nothing stored or taken", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn initiate_and_sign(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<InitiateAndSignWorkflowConfig>,
) -> ApiResult<(StatusCode, Json<InitiatedWorkflow>)> {
    let (body, limit) = (std::sync::Arc::new(body), state.services.config.max_body_bytes);
    let planning = body.clone();
    let rest = |_: &Plan| quick_start_rest(&body);
    let started =
        quick_start::start(&state.services, &auth.caller(), move || plan_initiate_and_sign(&planning, limit), rest)
            .await?;
    Ok((StatusCode::CREATED, Json(initiated(started, &state))))
}

fn controls(list: Option<&Vec<TemplateControlDetail>>) -> Vec<compose::Control> {
    list.into_iter()
        .flatten()
        .map(|c| compose::Control {
            field_name: c.field_name.clone(),
            field_type: c.field_type.clone(),
            field_value: c.field_value.clone(),
            is_checked: c.is_checked.clone(),
            is_selected: c.is_selected.clone(),
            image_data: c.image_data.clone(),
        })
        .collect()
}

fn document_input(field: String, d: &DocumentDetails) -> compose::DocumentInput {
    compose::DocumentInput {
        field,
        template_id: d.template_id,
        document_name: d.document_name.clone(),
        file_data: d.file_data.clone(),
        controls: controls(d.control_details.as_ref()),
        flatten: d.flatten_fields,
        merges_key: "mergeDocumentDetails",
        merges: d
            .merge_document_details
            .iter()
            .flatten()
            .map(|m| compose::Merge {
                document_name: m.document_name.clone(),
                file_data: m.file_data.clone(),
                parent_document_id: m.parent_document_id,
                add_signature_placeholder: m.add_signature_placeholder,
            })
            .collect(),
    }
}

/// The request's documents in order (each template's document, then its further documents,
/// then `lstDocumentDetails`), each named by its place in the request.
fn optimized_documents(body: &OptimizedSignRequest) -> Result<Vec<compose::DocumentInput>, Error> {
    let mut inputs = Vec::new();
    for (i, t) in body.template_list.iter().flatten().enumerate() {
        let field = format!("templateList[{i}]");
        inputs.push(compose::DocumentInput {
            field: field.clone(),
            template_id: t.template_id,
            document_name: t.document_name.clone(),
            file_data: t.file_data.clone(),
            controls: controls(t.control_details.as_ref()),
            flatten: t.flatten_fields,
            merges_key: "mergeDocuments",
            merges: t
                .merge_documents
                .iter()
                .flatten()
                .map(|m| compose::Merge {
                    document_name: m.document_name.clone(),
                    file_data: m.file_data.clone(),
                    ..compose::Merge::default()
                })
                .collect(),
        });
        for (j, d) in t.lst_document_details.iter().flatten().enumerate() {
            inputs.push(document_input(format!("{field}.lstDocumentDetails[{j}]"), d));
        }
    }
    for (i, d) in body.lst_document_details.iter().flatten().enumerate() {
        inputs.push(document_input(format!("lstDocumentDetails[{i}]"), d));
    }
    if inputs.is_empty() || inputs.len() > signet_services::workflows::documents::MAX_BULK_DOCUMENTS {
        return Err(Error::field("lstDocumentDetails", "give 1 to 20 documents with fileData"));
    }
    Ok(inputs)
}

#[utoipa::path(
    post,
    path = "/api/v1/workflows/optimized",
    tag = "workflows",
    security(("bearer" = [])),
    request_body = OptimizedSignRequest,
    responses(
        (status = 201, description = "Started; the signers sign in the order of `signatoryEmailIds`", body = InitiatedWorkflow),
        (status = 400, description = "Invalid documents, form field values (named at their place, e.g. `lstDocumentDetails[0].controlDetails[2].fieldName`), documents to merge or e-mail addresses; a signed document cannot be filled or merged; nothing stored", body = ProblemDetails, content_type = "application/problem+json"),
    )
)]
pub async fn optimized(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<OptimizedSignRequest>,
) -> ApiResult<(StatusCode, Json<InitiatedWorkflow>)> {
    let (body, limit) = (std::sync::Arc::new(body), state.services.config.max_body_bytes);
    let gathered = compose::gather(&state.services, &auth.caller(), optimized_documents(&body)?).await?;
    let reading = body.clone();
    let plan = move || -> Result<Plan, Error> {
        let (pdfs, slot_pages) = compose::compose_all(gathered, limit)?;
        Ok(Plan { pdfs, signatories: optimized_signatories(&reading, &slot_pages)?, first_signature: None })
    };
    let rest = |_: &Plan| {
        let as_sent = AsSent { request_from: body.request_from.clone(), ..AsSent::default() };
        let settings = WorkflowSettings { send_mail: true, as_sent, ..WorkflowSettings::default() };
        Ok(QuickStart { reference_no: None, settings, attachments: Vec::new(), stamp: None, qr: Vec::new() })
    };
    let started = quick_start::start(&state.services, &auth.caller(), plan, rest).await?;
    Ok((StatusCode::CREATED, Json(initiated(started, &state))))
}

/// The signers of an `optimized` request, in the order of `signatoryEmailIds` (or the one
/// `emailId`), each in the default place.
fn optimized_signatories(body: &OptimizedSignRequest, slot_pages: &[SlotPages]) -> Result<Vec<NewSignatory>, Error> {
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
            mobile: None,
            otp_sms: false,
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
            placement: Placement { slot, slot_pages: slot_pages.to_vec(), ..Placement::default() },
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
