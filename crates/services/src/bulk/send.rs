//! Bulk send (docs/bulk.md): one template and its documents sent to every row of a CSV file,
//! one workflow per row. The file is checked whole first (its columns, every row as the
//! workflow it would start), a dry run answers only that, and a real send starts a bulk job in
//! which each row is checked again and started on its own; a row that is wrong is reported and
//! nothing is sent for it.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value, json};
use signet_blob::BlobKey;
use signet_domain::audit::Actor;
use signet_domain::csv::{Limits, Table};
use signet_domain::job::BulkKind;
use signet_domain::workflow::SignatoryInput;
use signet_domain::workflow_settings::WorkflowSettings;
use signet_domain::{DocumentId, Error, FieldErrors, TenantId, WorkflowId};
use signet_store::{BulkItemRow, BulkJobRow, NewBulkJob};

use super::{JobStatus, Outcome, new_public_id, status};
use crate::platform::heavy::Share;
use crate::platform::sheets::SheetBudget;
use crate::workflows::documents::{check_pdf, store_document};
use crate::workflows::initiate::{InitiateWorkflow, start as initiate_checked, validate};
use crate::{Caller, Services};

/// Most rows one file may hold.
pub const MAX_ROWS: usize = 5000;
/// Largest file (CSV text).
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// Most signers per row (`signer1.*` to `signer10.*`).
pub const MAX_SIGNERS: usize = 10;
/// Most documents sent with each row.
pub const MAX_DOCUMENTS: usize = 10;
/// Most `field.<label>` columns (values of the template's text and date fields).
pub const MAX_VALUES: usize = 20;

const LIMITS: Limits = Limits { rows: MAX_ROWS, columns: 3 + 6 * MAX_SIGNERS + MAX_VALUES, cell_chars: 500 };

/// The prefix of a column giving a template field's value (`field.Loan number`).
const VALUE_PREFIX: &str = "field.";

/// A column the file may have.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Column {
    WorkflowName,
    ReferenceNo,
    /// The sender's message to the row's signers (`InitiateWorkFlowData.message`).
    Message,
    /// `signerN.email`, `.name`, `.order`, `.mode`, `.mobile`, `.otp` (N from 1): the
    /// template's signatory N.
    Signer(usize, SignerPart),
    /// `field.<label>`: the value of the template's text or date fields of that label.
    Value(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SignerPart {
    Email,
    Name,
    Order,
    Mode,
    /// A mobile number for SMS, as the API's `mobileNo`.
    Mobile,
    /// `yes` asks the signer for a code by SMS, as the API's `otpBySms`.
    Otp,
}

fn column(name: &str) -> Option<Column> {
    match name.to_ascii_lowercase().as_str() {
        "workflowname" => return Some(Column::WorkflowName),
        "referenceno" => return Some(Column::ReferenceNo),
        "message" => return Some(Column::Message),
        _ => {}
    }
    if let Some(prefix) = name.get(..VALUE_PREFIX.len()).filter(|p| p.eq_ignore_ascii_case(VALUE_PREFIX)) {
        let label = name[prefix.len()..].trim();
        return (!label.is_empty()).then(|| Column::Value(label.to_string()));
    }
    let lower = name.to_ascii_lowercase();
    let (signer, part) = lower.strip_prefix("signer")?.split_once('.')?;
    let n: usize = signer.parse().ok().filter(|n| (1..=MAX_SIGNERS).contains(n))?;
    let part = match part {
        "email" => SignerPart::Email,
        "name" => SignerPart::Name,
        "order" => SignerPart::Order,
        "mode" => SignerPart::Mode,
        "mobile" => SignerPart::Mobile,
        "otp" => SignerPart::Otp,
        _ => return None,
    };
    Some(Column::Signer(n, part))
}

/// The columns of the header, each known and named once.
fn columns(header: &[String]) -> Result<Vec<Column>, Error> {
    let mut found = Vec::with_capacity(header.len());
    for name in header {
        let Some(c) = column(name) else {
            return Err(Error::field(
                "fileData",
                format!(
                    "column {name:?} is not known: use workflowName, referenceNo, message, signer1.email, signer1.name, \
                     signer1.order, signer1.mode, signer1.mobile, signer1.otp ... up to signer{MAX_SIGNERS}, and field.<label> for the template's \
                     text and date fields"
                ),
            ));
        };
        if found.iter().any(|f| same_column(f, &c)) {
            return Err(Error::field("fileData", format!("column {name:?} appears twice")));
        }
        found.push(c);
    }
    if found.iter().filter(|c| matches!(c, Column::Value(_))).count() > MAX_VALUES {
        return Err(Error::field("fileData", format!("at most {MAX_VALUES} field.<label> columns")));
    }
    if !found.contains(&Column::Signer(1, SignerPart::Email)) {
        return Err(Error::field("fileData", "the file needs a signer1.email column"));
    }
    Ok(found)
}

/// Whether two columns are one (field labels are compared ignoring case, as the template's).
fn same_column(a: &Column, b: &Column) -> bool {
    match (a, b) {
        (Column::Value(a), Column::Value(b)) => a.eq_ignore_ascii_case(b),
        _ => a == b,
    }
}

/// What a send asks for: the template (0: none), the uploads sent with every row after the
/// template's own document (when it keeps one), and the file of rows.
pub struct BulkSend {
    pub template_id: i64,
    pub document_ids: Vec<i64>,
    pub file_base64: String,
    pub dry_run: bool,
}

/// A row that would not start a workflow.
#[derive(Debug, Clone)]
pub struct RowProblem {
    /// The row's number among the records (from 1) and its line in the file.
    pub row: usize,
    pub line: usize,
    pub errors: FieldErrors,
}

/// The file as checked.
#[derive(Debug, Clone)]
pub struct Preview {
    pub rows: usize,
    pub valid: usize,
    pub problems: Vec<RowProblem>,
}

/// Checks the file, and unless it is a dry run starts the job that sends every row.
pub async fn start(svc: &Services, caller: &Caller, mut send: BulkSend) -> Result<(Preview, Option<JobStatus>), Error> {
    caller.require(signet_domain::access::Permission::SendWorkflows)?;
    let budget = sheet_budget(&svc.config);
    let file = std::mem::take(&mut send.file_base64);
    // Decoding and parsing a file of megabytes is heavy work: on the bounded pool.
    let table = svc.heavy.run(Share::Tenant(caller.tenant_id), move || read_file(&file, budget)).await??;
    let columns = columns(&table.header)?;
    if send.template_id != 0 {
        // The rows are sent later by a worker in the caller's name: the template is theirs to use now.
        crate::workflows::templates::read_for(svc, caller, send.template_id).await?;
        // The document the template keeps goes first, copied for each row as the uploads are.
        if let Some(kept) = crate::workflows::templates::document_for_send(svc, caller, send.template_id).await? {
            send.document_ids.insert(0, kept.id.get());
        }
    }
    check_documents(svc, caller.tenant_id, &send.document_ids).await?;
    let mut problems = Vec::new();
    let mut items = Vec::with_capacity(table.rows.len());
    for (index, (line, cells)) in table.rows.iter().enumerate() {
        let row = row_object(&columns, cells);
        if let Err(error) = check_row(svc, caller.tenant_id, &row, send.template_id, &send.document_ids).await {
            problems.push(RowProblem { row: index + 1, line: *line, errors: field_errors(error)? });
        }
        let reference =
            row.get("referenceNo").and_then(Value::as_str).map_or_else(|| format!("line {line}"), str::to_string);
        items.push(json!({"ref": reference, "line": line, "row": row}).to_string());
    }
    let preview = Preview { rows: table.rows.len(), valid: table.rows.len() - problems.len(), problems };
    if send.dry_run {
        return Ok((preview, None));
    }
    let job = NewBulkJob {
        public_id: new_public_id(),
        tenant_id: caller.tenant_id,
        kind: BulkKind::Send,
        subscriber_id: caller.principal_id.get(),
        parent_id: send.template_id,
        input: json!({"templateId": send.template_id, "documentIds": send.document_ids}),
        items,
        lot_id: None,
    };
    let created = svc.store.create_bulk_job(&job, &caller.actor).await?;
    Ok((preview, Some(status(svc, &created).await?)))
}

/// Whether a row would start its workflow: its first signer named, and every check of a
/// workflow's start.
async fn check_row(
    svc: &Services,
    tenant_id: TenantId,
    row: &Map<String, Value>,
    template_id: i64,
    document_ids: &[i64],
) -> Result<(), Error> {
    if !row.contains_key("signer1.email") {
        return Err(Error::field("signer1.email", "is required: every row names its first signer"));
    }
    check_otp_cells(row)?;
    validate(svc, tenant_id, &row_request(row, template_id, document_ids, None)).await
}

/// A row's problems as fields (anything but a refusal of the row is a failure of the send).
fn field_errors(error: Error) -> Result<FieldErrors, Error> {
    match error {
        Error::Validation(fields) => Ok(fields),
        Error::Internal(cause) => Err(Error::Internal(cause)),
        other => Ok(FieldErrors::from([("row".to_string(), vec![other.to_string()])])),
    }
}

/// What reading a workbook may cost (docs: README, `sheet_max_*`).
fn sheet_budget(config: &crate::Config) -> SheetBudget {
    SheetBudget { part_bytes: config.sheet_max_unpacked_bytes, text_bytes: config.sheet_max_text_bytes }
}

/// The file as a table: an XLSX workbook's first worksheet, or CSV text (whose table the
/// file's size bounds).
fn read_file(data: &str, budget: SheetBudget) -> Result<Table, Error> {
    if data.len() > MAX_FILE_BYTES.div_ceil(3) * 4 + 4 {
        return Err(Error::field("fileData", "must be at most 5 MiB"));
    }
    let bytes =
        STANDARD.decode(data.trim()).map_err(|_| Error::field("fileData", "must be base64 of a CSV or XLSX file"))?;
    let table = if crate::platform::sheets::is_xlsx(&bytes) {
        crate::platform::sheets::read_first_sheet(&bytes, LIMITS, budget).map_err(|e| e.to_string())
    } else {
        let text =
            String::from_utf8(bytes).map_err(|_| Error::field("fileData", "must be UTF-8 text (CSV) or XLSX"))?;
        signet_domain::csv::parse(&text, LIMITS)
    }
    .map_err(|m| Error::field("fileData", m))?;
    if table.rows.is_empty() {
        return Err(Error::field("fileData", "has no rows below its header"));
    }
    Ok(table)
}

/// The documents sent with every row: the tenant's uploads, each copied for each workflow.
async fn check_documents(svc: &Services, tenant_id: TenantId, ids: &[i64]) -> Result<(), Error> {
    if ids.is_empty() || ids.len() > MAX_DOCUMENTS {
        return Err(Error::field("documentIds", format!("must name 1 to {MAX_DOCUMENTS} uploaded documents")));
    }
    for (i, id) in ids.iter().enumerate() {
        let found = svc.store.document(tenant_id, DocumentId::from(*id)).await?;
        if !found.is_some_and(|d| d.state == signet_domain::workflow::DocumentState::Active) {
            return Err(Error::field(&format!("documentIds[{i}]"), "is not an uploaded document of the organisation"));
        }
    }
    Ok(())
}

/// A row as `{column: value}` (empty cells left out), the form each job item keeps; a
/// template field's value under `field.<label>`.
fn row_object(columns: &[Column], cells: &[String]) -> Map<String, Value> {
    let mut row = Map::new();
    for (column, cell) in columns.iter().zip(cells) {
        let value = cell.trim();
        if value.is_empty() {
            continue;
        }
        let key = match column {
            Column::WorkflowName => "workflowName".to_string(),
            Column::ReferenceNo => "referenceNo".to_string(),
            Column::Message => "message".to_string(),
            Column::Signer(n, part) => format!("signer{n}.{}", part_name(*part)),
            Column::Value(label) => format!("{VALUE_PREFIX}{label}"),
        };
        row.insert(key, Value::String(value.to_string()));
    }
    row
}

fn part_name(part: SignerPart) -> &'static str {
    match part {
        SignerPart::Email => "email",
        SignerPart::Name => "name",
        SignerPart::Order => "order",
        SignerPart::Mode => "mode",
        SignerPart::Mobile => "mobile",
        SignerPart::Otp => "otp",
    }
}

/// A `signerN.otp` cell: yes or no, in the spellings spreadsheets and people use (an empty
/// cell is no); `None` for anything else, which refuses the row rather than guessing.
fn yes_or_no(cell: &str) -> Option<bool> {
    match cell.trim().to_ascii_lowercase().as_str() {
        "yes" | "y" | "true" | "1" => Some(true),
        "no" | "n" | "false" | "0" | "" => Some(false),
        _ => None,
    }
}

/// Refuses a row whose `signerN.otp` is neither yes nor no.
fn check_otp_cells(row: &Map<String, Value>) -> Result<(), Error> {
    for n in 1..=MAX_SIGNERS {
        let key = format!("signer{n}.otp");
        if row.get(&key).and_then(Value::as_str).is_some_and(|cell| yes_or_no(cell).is_none()) {
            return Err(Error::field(&key, "must be yes or no"));
        }
    }
    Ok(())
}

/// The workflow a row starts: its signers in column order (those with an address), the
/// template, the documents and the values of the template's fields; `job` marks it as the job's (for a retried item).
fn row_request(
    row: &Map<String, Value>,
    template_id: i64,
    document_ids: &[i64],
    job: Option<(&str, i64)>,
) -> InitiateWorkflow {
    let text = |key: &str| row.get(key).and_then(Value::as_str).map(str::to_string);
    let signatories = (1..=MAX_SIGNERS)
        .filter_map(|n| {
            let email = text(&format!("signer{n}.email"))?;
            Some(SignatoryInput {
                subscriber_id: 0,
                email,
                name: text(&format!("signer{n}.name")),
                // An order that is not a number is refused by the order rules (as a negative one).
                signing_order: text(&format!("signer{n}.order")).map_or(0, |o| o.parse().unwrap_or(-1)),
                mode: text(&format!("signer{n}.mode")),
                mobile: text(&format!("signer{n}.mobile")),
                otp_sms: text(&format!("signer{n}.otp")).and_then(|cell| yes_or_no(&cell)).unwrap_or(false),
            })
        })
        .collect();
    let values = row
        .iter()
        .filter_map(|(key, value)| Some((key.strip_prefix(VALUE_PREFIX)?.to_string(), value.as_str()?.to_string())))
        .collect();
    // The job's marks let a retried item find the workflow it started (`started_before`).
    let settings = WorkflowSettings {
        send_mail: true,
        bulk_job_id: job.map(|(job, _)| job.to_string()),
        bulk_item: job.map(|(_, item)| item),
        ..WorkflowSettings::default()
    };
    InitiateWorkflow {
        template_id,
        name: text("workflowName"),
        reference_no: text("referenceNo"),
        workflow_type: 0,
        document_ids: document_ids.to_vec(),
        signatories,
        hsm_certificate_id: None,
        linked_workflow_id: 0,
        redirect_url: None,
        envelope_expiry: None,
        reminder_frequency: None,
        settings,
        message: text("message"),
        attachments: Vec::new(),
        stamp: None,
        fields: Vec::new(),
        values,
        signer_lang: None,
    }
}

/// One row: checked again, its documents copied, its workflow started. Idempotent: a workflow
/// this job already started for the row (an earlier attempt that died before recording it)
/// counts as the row's.
pub async fn send_item(svc: &Services, job: &BulkJobRow, item: &BulkItemRow) -> Result<Outcome, Error> {
    let input: Value = serde_json::from_str(&job.input)?;
    let entry: Value = serde_json::from_str(&item.input)?;
    let tenant_id = job.tenant_id;
    let row = entry["row"].as_object().cloned().unwrap_or_default();
    let template_id = input["templateId"].as_i64().unwrap_or(0);
    let sources: Vec<i64> = input["documentIds"].as_array().into_iter().flatten().filter_map(Value::as_i64).collect();
    if let Some(done) = started_before(svc, tenant_id, job, item).await? {
        return Ok(Outcome::succeeded(done.to_string(), "sent"));
    }
    if let Err(error) = check_row(svc, tenant_id, &row, template_id, &sources).await {
        let errors = field_errors(error)?;
        let detail = errors.iter().map(|(f, m)| format!("{f}: {}", m.join("; "))).collect::<Vec<_>>().join("; ");
        return Ok(Outcome::failed(None, detail));
    }
    let copies = copy_documents(svc, tenant_id, job, &sources).await?;
    let request = row_request(&row, template_id, &copies, Some((&job.public_id, item.item_no)));
    let actor = Actor { id: job.created_by.clone(), ip: None };
    match initiate_checked(svc, tenant_id, &actor, request).await {
        Ok(created) => Ok(Outcome::succeeded(created.workflow.id.to_string(), "sent")),
        Err(Error::Internal(cause)) => Err(Error::Internal(cause)),
        Err(refused) => Ok(Outcome::failed(None, refused.to_string())),
    }
}

/// The workflow this job started for this item before, if any.
async fn started_before(
    svc: &Services,
    tenant_id: TenantId,
    job: &BulkJobRow,
    item: &BulkItemRow,
) -> Result<Option<WorkflowId>, Error> {
    let found = svc.store.workflow_of_bulk_item(tenant_id, &job.public_id, item.item_no).await?;
    Ok(found)
}

async fn copy_documents(
    svc: &Services,
    tenant_id: TenantId,
    job: &BulkJobRow,
    sources: &[i64],
) -> Result<Vec<i64>, Error> {
    let actor = Actor { id: job.created_by.clone(), ip: None };
    let mut copies = Vec::with_capacity(sources.len());
    for source in sources {
        let document = svc
            .store
            .document(tenant_id, DocumentId::from(*source))
            .await?
            .ok_or_else(|| Error::not_found("document"))?;
        let bytes = svc.blob.get(&BlobKey::parse(&document.original_blob)?).await.map_err(Error::internal)?.to_vec();
        let name = document.name.clone();
        let checked = svc.heavy.run(Share::Tenant(tenant_id), move || check_pdf("documentIds", name, bytes)).await??;
        let copy = store_document(svc, tenant_id, &actor, checked, document.category_id, None).await?;
        copies.push(copy.id.get());
    }
    Ok(copies)
}
