//! Exports (docs/exports.md): a tenant's workflows, signatories, audit events or users between
//! two dates, filtered, as CSV, XLSX or JSON Lines.
//!
//! Rows are read page by page by keyset and each page is written out before the next is read,
//! so an export of a million rows holds one page at a time. An export of at most
//! [`STREAM_LIMIT`] rows streams straight back to the caller; a larger one (or any, when the
//! caller prefers) is an export job: a background writer puts the file in the blob store in
//! parts, and the caller fetches it when it is done.

pub mod csv;
mod filter;
pub mod xlsx;

use bytes::Bytes;
use serde::Serialize;
use serde_json::json;
use signet_blob::{BlobKey, ByteStream};
use signet_domain::access::Permission;
use signet_domain::audit::AuditEntry;
use signet_domain::job::JobKind;
use signet_domain::{Error, ErrorCode, ExportJobId, FieldErrors, Millis, TenantId, now_millis};
use signet_store::{
    ExportFilter, ExportJobRow, ExportPage, ExportWindow, NewExportJob, NewJob, SignatoryExportRow, UserExportRow,
    WorkflowExportRow,
};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::{Caller, Services};

pub use filter::parse_filter;

/// Exports of at most this many rows stream straight back; larger ones run as jobs.
pub const STREAM_LIMIT: i64 = 10_000;
/// The most rows one export may have.
pub const MAX_RECORDS: i64 = 1_000_000;
/// Rows read (and written out) at a time.
const PAGE: i64 = 1000;
/// How long a writer's claim on an export job lasts; renewed after every page.
const LEASE_MS: Millis = 2 * 60 * 1000;
/// Writers that may start one export before it is given up (each start is after a crash).
const MAX_ATTEMPTS: i64 = 3;

/// What is exported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dataset {
    Workflows,
    Signatories,
    AuditEvents,
    Users,
}

impl Dataset {
    pub fn parse(name: &str) -> Option<Dataset> {
        Some(match name {
            "workflows" => Dataset::Workflows,
            "signatories" => Dataset::Signatories,
            "audit-events" => Dataset::AuditEvents,
            "users" => Dataset::Users,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Dataset::Workflows => "workflows",
            Dataset::Signatories => "signatories",
            Dataset::AuditEvents => "audit-events",
            Dataset::Users => "users",
        }
    }

    /// What a caller needs to export it (and to follow another caller's export of it).
    pub fn permission(self) -> Permission {
        match self {
            Dataset::Workflows | Dataset::Signatories => Permission::ReadWorkflows,
            Dataset::AuditEvents => Permission::ReadAudit,
            Dataset::Users => Permission::ReadDirectory,
        }
    }

    /// The columns, in order (also the keys of a JSON Lines object).
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Dataset::Workflows => &[
                "workflowId",
                "name",
                "referenceNo",
                "workflowType",
                "status",
                "statusReason",
                "templateId",
                "createdBy",
                "createdAt",
                "updatedAt",
                "completedAt",
                "expiresAt",
                "signatories",
                "signed",
            ],
            Dataset::Signatories => &[
                "signatoryId",
                "workflowId",
                "workflowName",
                "signingOrder",
                "name",
                "email",
                "status",
                "signatureMode",
                "method",
                "reason",
                "notifiedAt",
                "viewedAt",
                "signedAt",
                "createdAt",
            ],
            Dataset::AuditEvents => &[
                "seq",
                "at",
                "actor",
                "action",
                "target",
                "ip",
                "ipCommitment",
                "ipNonce",
                "detail",
                "prevHash",
                "hash",
            ],
            Dataset::Users => &[
                "userId",
                "email",
                "name",
                "role",
                "customRole",
                "status",
                "userType",
                "department",
                "designation",
                "organization",
                "contactNumber",
                "loginMode",
                "createdAt",
                "updatedAt",
            ],
        }
    }
}

/// The file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Xlsx,
    Jsonl,
}

impl Format {
    /// `csv`, `xlsx` or `jsonl`, in any case.
    pub fn parse(name: &str) -> Option<Format> {
        Some(match name.trim().to_ascii_lowercase().as_str() {
            "csv" => Format::Csv,
            "xlsx" => Format::Xlsx,
            "jsonl" => Format::Jsonl,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Xlsx => "xlsx",
            Format::Jsonl => "jsonl",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            Format::Jsonl => "application/x-ndjson",
        }
    }
}

/// The spec's `ExportRequest`, as sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportInput {
    pub format: String,
    pub from_date: Option<String>,
    pub to_date: Option<String>,
    pub max_records: Option<i64>,
    pub filter_criteria: Option<String>,
}

/// A checked export request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportSpec {
    pub dataset: Dataset,
    pub format: Format,
    pub window: ExportWindow,
    pub filter: ExportFilter,
    pub max_records: i64,
}

/// The file's name: `signet-<dataset>-<yyyymmdd>.<format>`.
fn file_name(dataset: &str, format: &str, at: Millis) -> String {
    let day = OffsetDateTime::from_unix_timestamp_nanos(i128::from(at) * 1_000_000)
        .map(|t| format!("{:04}{:02}{:02}", t.year(), u8::from(t.month()), t.day()))
        .unwrap_or_default();
    format!("signet-{dataset}-{day}.{format}")
}

/// Checks an `ExportRequest` for `dataset`; every field in error is named.
pub fn check(dataset: Dataset, input: &ExportInput) -> Result<ExportSpec, Error> {
    let mut errors = FieldErrors::new();
    let mut refuse = |field: &str, message: String| errors.entry(field.to_string()).or_default().push(message);
    let format = Format::parse(&input.format);
    if format.is_none() {
        refuse("format", "must be csv, xlsx or jsonl".into());
    }
    let from = parse_date(input.from_date.as_deref()).unwrap_or_else(|m| {
        refuse("fromDate", m.to_string());
        None
    });
    let to = parse_date(input.to_date.as_deref()).unwrap_or_else(|m| {
        refuse("toDate", m.to_string());
        None
    });
    if let (Some(from), Some(to)) = (from, to)
        && from > to
    {
        refuse("toDate", "must not be before fromDate".into());
    }
    let max_records = input.max_records.unwrap_or(MAX_RECORDS);
    if !(1..=MAX_RECORDS).contains(&max_records) {
        refuse("maxRecords", format!("must be from 1 to {MAX_RECORDS}"));
    }
    let filter = parse_filter(dataset, input.filter_criteria.as_deref().unwrap_or("")).unwrap_or_else(|m| {
        refuse("filterCriteria", m.to_string());
        filter::empty(dataset)
    });
    match format {
        Some(format) if errors.is_empty() => {
            Ok(ExportSpec { dataset, format, window: ExportWindow { from, to }, filter, max_records })
        }
        _ => Err(Error::Validation(errors)),
    }
}

/// Why a date of an export request cannot be read; the text is the field's message.
#[derive(Debug, thiserror::Error)]
enum DateError {
    #[error("must be an RFC 3339 date-time, e.g. 2026-04-01T00:00:00Z")]
    NotRfc3339(#[source] time::error::Parse),
    #[error("is out of range")]
    OutOfRange,
}

/// An RFC 3339 date-time as milliseconds since the epoch; none when not given.
fn parse_date(text: Option<&str>) -> Result<Option<Millis>, DateError> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let at = OffsetDateTime::parse(text, &Rfc3339).map_err(DateError::NotRfc3339)?;
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).map(Some).map_err(|_| DateError::OutOfRange)
}

/// Milliseconds since the epoch as RFC 3339 (UTC).
pub fn rfc3339(millis: Millis) -> String {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}

/// A value of a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    Int(i64),
    Text(String),
    Null,
}

impl Cell {
    fn text(value: &str) -> Cell {
        Cell::Text(value.to_string())
    }

    fn opt_text(value: &Option<String>) -> Cell {
        value.as_deref().map_or(Cell::Null, Cell::text)
    }

    fn opt_int(value: Option<i64>) -> Cell {
        value.map_or(Cell::Null, Cell::Int)
    }

    fn time(value: Millis) -> Cell {
        Cell::Text(rfc3339(value))
    }

    fn opt_time(value: Option<Millis>) -> Cell {
        value.map_or(Cell::Null, Cell::time)
    }

    fn as_string(&self) -> String {
        match self {
            Cell::Int(n) => n.to_string(),
            Cell::Text(text) => text.clone(),
            Cell::Null => String::new(),
        }
    }
}

fn workflow_cells(r: &WorkflowExportRow) -> Vec<Cell> {
    vec![
        Cell::Int(r.id),
        Cell::text(&r.name),
        Cell::opt_text(&r.reference_no),
        Cell::Int(r.workflow_type),
        Cell::text(&r.state),
        Cell::opt_text(&r.state_reason),
        Cell::opt_int(r.template_id),
        Cell::text(&r.created_by),
        Cell::time(r.created_at),
        Cell::time(r.updated_at),
        Cell::opt_time(r.completed_at),
        Cell::opt_time(r.expires_at),
        Cell::Int(r.signatories),
        Cell::Int(r.signed),
    ]
}

fn signatory_cells(r: &SignatoryExportRow) -> Vec<Cell> {
    vec![
        Cell::Int(r.id),
        Cell::Int(r.workflow_id),
        Cell::text(&r.workflow_name),
        Cell::Int(r.signing_order),
        Cell::text(&r.name),
        Cell::text(&r.email),
        Cell::text(&r.state),
        Cell::text(&r.signature_mode),
        Cell::opt_text(&r.method),
        Cell::opt_text(&r.reason),
        Cell::opt_time(r.notified_at),
        Cell::opt_time(r.viewed_at),
        Cell::opt_time(r.signed_at),
        Cell::time(r.created_at),
    ]
}

fn audit_cells(e: &AuditEntry) -> Vec<Cell> {
    vec![
        Cell::Int(e.seq),
        Cell::time(e.at),
        Cell::text(&e.actor),
        Cell::text(&e.action),
        Cell::text(&e.target),
        Cell::opt_text(&e.client_ip().map(str::to_owned)),
        Cell::opt_text(&e.ip_commitment().map(str::to_owned)),
        Cell::opt_text(&e.ip_opening.as_ref().map(|opening| opening.nonce.clone())),
        Cell::text(&e.detail),
        Cell::text(&e.prev_hash),
        Cell::text(&e.hash),
    ]
}

fn user_cells(r: &UserExportRow) -> Vec<Cell> {
    vec![
        Cell::Int(r.id),
        Cell::opt_text(&r.email),
        Cell::opt_text(&r.name),
        Cell::text(&r.role),
        Cell::opt_text(&r.custom_role),
        Cell::text(&r.status),
        Cell::text(&r.user_type),
        Cell::opt_text(&r.department),
        Cell::opt_text(&r.designation),
        Cell::opt_text(&r.organization),
        Cell::opt_text(&r.contact_number),
        Cell::text(&r.login_mode),
        Cell::time(r.created_at),
        Cell::opt_time(r.updated_at),
    ]
}

/// The rows of a page, as cells in column order.
fn page_rows(page: &ExportPage) -> Vec<Vec<Cell>> {
    match page {
        ExportPage::Workflows(rows) => rows.iter().map(workflow_cells).collect(),
        ExportPage::Signatories(rows) => rows.iter().map(signatory_cells).collect(),
        ExportPage::AuditEvents(rows) => rows.iter().map(audit_cells).collect(),
        ExportPage::Users(rows) => rows.iter().map(user_cells).collect(),
    }
}

/// Turns rows into the bytes of one format.
enum Writer {
    Csv,
    Jsonl,
    Xlsx(Box<xlsx::XlsxWriter>),
}

impl Writer {
    fn new(format: Format) -> Writer {
        match format {
            Format::Csv => Writer::Csv,
            Format::Jsonl => Writer::Jsonl,
            Format::Xlsx => Writer::Xlsx(Box::default()),
        }
    }

    fn begin(&mut self, columns: &[&str], out: &mut Vec<u8>) -> Result<(), Error> {
        match self {
            Writer::Csv => out.extend_from_slice(csv::line(columns).as_bytes()),
            Writer::Jsonl => {}
            Writer::Xlsx(sheet) => {
                sheet.begin(out).map_err(Error::internal)?;
                let header: Vec<xlsx::XlsxCell<'_>> = columns.iter().map(|c| xlsx::XlsxCell::Text(c)).collect();
                sheet.row(&header, out).map_err(Error::internal)?;
            }
        }
        Ok(())
    }

    fn row(&mut self, columns: &[&str], cells: &[Cell], out: &mut Vec<u8>) -> Result<(), Error> {
        match self {
            Writer::Csv => {
                let texts: Vec<String> = cells.iter().map(Cell::as_string).collect();
                out.extend_from_slice(csv::line(&texts).as_bytes());
            }
            Writer::Jsonl => {
                jsonl_line(columns, cells, out)?;
            }
            Writer::Xlsx(sheet) => {
                let row: Vec<xlsx::XlsxCell<'_>> = cells
                    .iter()
                    .map(|c| match c {
                        Cell::Int(n) => xlsx::XlsxCell::Number(*n),
                        Cell::Text(text) => xlsx::XlsxCell::Text(text),
                        Cell::Null => xlsx::XlsxCell::Empty,
                    })
                    .collect();
                sheet.row(&row, out).map_err(Error::internal)?;
            }
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        if let Writer::Xlsx(sheet) = self {
            sheet.finish(out).map_err(Error::internal)?;
        }
        Ok(())
    }
}

/// One JSON object on one line, keys in column order.
fn jsonl_line(columns: &[&str], cells: &[Cell], out: &mut Vec<u8>) -> Result<(), Error> {
    out.push(b'{');
    for (i, (column, cell)) in columns.iter().zip(cells).enumerate() {
        if i > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut *out, column)?;
        out.push(b':');
        match cell {
            Cell::Int(n) => serde_json::to_writer(&mut *out, n)?,
            Cell::Text(text) => serde_json::to_writer(&mut *out, text)?,
            Cell::Null => out.extend_from_slice(b"null"),
        }
    }
    out.extend_from_slice(b"}\n");
    Ok(())
}

/// An export being written: each call to [`ExportStream::next_chunk`] reads one page and
/// answers its bytes, so the caller sends (or stores) it before the next is read.
pub struct ExportStream {
    svc: Services,
    tenant_id: TenantId,
    spec: ExportSpec,
    writer: Writer,
    after: i64,
    rows: i64,
    stage: Stage,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Start,
    Rows,
    Done,
}

impl ExportStream {
    pub fn new(svc: Services, tenant_id: TenantId, spec: ExportSpec) -> ExportStream {
        let writer = Writer::new(spec.format);
        ExportStream { svc, tenant_id, spec, writer, after: 0, rows: 0, stage: Stage::Start }
    }

    /// Rows written so far.
    pub fn rows(&self) -> i64 {
        self.rows
    }

    pub fn spec(&self) -> &ExportSpec {
        &self.spec
    }

    /// The next bytes of the file; none at its end.
    pub async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, Error> {
        let columns = self.spec.dataset.columns();
        let mut out = Vec::new();
        match self.stage {
            Stage::Done => return Ok(None),
            Stage::Start => {
                self.writer.begin(columns, &mut out)?;
                self.stage = Stage::Rows;
                return Ok(Some(out));
            }
            Stage::Rows => {}
        }
        let limit = PAGE.min(self.spec.max_records - self.rows);
        let page = if limit > 0 {
            self.svc.store.export_page(self.tenant_id, self.spec.window, &self.spec.filter, self.after, limit).await?
        } else {
            // `maxRecords` reached: an empty page ends the file.
            ExportPage::Users(Vec::new())
        };
        for cells in page_rows(&page) {
            self.writer.row(columns, &cells, &mut out)?;
        }
        self.rows += page.len() as i64;
        match page.last_key() {
            Some(key) if page.len() as i64 == limit => self.after = key,
            _ => {
                self.writer.finish(&mut out)?;
                self.stage = Stage::Done;
            }
        }
        Ok(Some(out))
    }
}

/// What asking for an export gives.
pub enum Started {
    /// The file, to stream straight back under this name.
    Stream { stream: Box<ExportStream>, file_name: String },
    /// An export job, to follow and fetch when done.
    Job(ExportJobStatus),
}

/// Asks for an export: small ones stream at once, large ones (or any, when `prefer_job`) run
/// as a job.
pub async fn start(
    svc: &Services,
    caller: &Caller,
    dataset: Dataset,
    input: &ExportInput,
    prefer_job: bool,
) -> Result<Started, Error> {
    caller.require(dataset.permission())?;
    let spec = check(dataset, input)?;
    let asked = now_millis();
    let rows = svc.store.export_count(caller.tenant_id, spec.window, &spec.filter, spec.max_records).await?;
    let detail = json!({"dataset": dataset.as_str(), "format": spec.format.as_str(), "rows": rows, "request": input});
    if !prefer_job && rows <= STREAM_LIMIT {
        svc.store.record_export(caller.tenant_id, detail, &caller.actor).await?;
        let file_name = file_name(dataset.as_str(), spec.format.as_str(), now_millis());
        let stream = Box::new(ExportStream::new(svc.clone(), caller.tenant_id, spec));
        return Ok(Started::Stream { stream, file_name });
    }
    // A job covers what there was when it was asked for, not rows added while it waits.
    let mut input = input.clone();
    if input.to_date.is_none() {
        input.to_date = Some(rfc3339(asked));
    }
    let job = NewExportJob {
        public_id: format!("exp_{}", crate::platform::secrets::random_token(12)),
        tenant_id: caller.tenant_id,
        dataset: dataset.as_str(),
        format: spec.format.as_str(),
        request: serde_json::to_value(&input)?,
        expected_rows: rows,
    };
    let row = svc.store.create_export_job(&job, &caller.actor).await?;
    Ok(Started::Job(status_of(svc, &row)))
}

/// An export job as the API shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportJobStatus {
    pub export_id: String,
    pub dataset: String,
    pub format: String,
    /// `queued`, `running`, `completed` or `failed`.
    pub status: String,
    /// Rows counted when it was asked for; once running, rows written so far; once completed,
    /// the rows of the file.
    pub rows: i64,
    pub size_bytes: Option<i64>,
    pub error: Option<String>,
    pub created_at: Millis,
    pub started_at: Option<Millis>,
    pub finished_at: Option<Millis>,
    pub status_url: String,
    /// Where the file is, once completed.
    pub file_url: Option<String>,
}

fn status_of(svc: &Services, row: &ExportJobRow) -> ExportJobStatus {
    let base = format!("{}/api/v1/exports/jobs/{}", svc.config.public_base(), row.public_id);
    ExportJobStatus {
        export_id: row.public_id.clone(),
        dataset: row.dataset.clone(),
        format: row.format.clone(),
        status: row.status.clone(),
        rows: row.row_count,
        size_bytes: row.size_bytes,
        error: row.error.clone(),
        created_at: row.created_at,
        started_at: row.started_at,
        finished_at: row.finished_at,
        file_url: (row.status == "completed").then(|| format!("{base}/file")),
        status_url: base,
    }
}

/// The export job, if it is the caller's tenant's and the caller may see it: whoever asked
/// for it, or a caller whose role allows exporting its dataset (`allows`).
pub async fn job_for(
    svc: &Services,
    caller: &Caller,
    public_id: &str,
    allows: impl Fn(Permission) -> bool,
) -> Result<ExportJobRow, Error> {
    let job = svc.store.export_job(caller.tenant_id, public_id).await?.ok_or_else(|| Error::not_found("export"))?;
    let permitted = Dataset::parse(&job.dataset).is_some_and(|d| allows(d.permission()));
    if job.created_by != caller.actor.id && !permitted {
        return Err(Error::not_found("export"));
    }
    Ok(job)
}

pub fn status(svc: &Services, job: &ExportJobRow) -> ExportJobStatus {
    status_of(svc, job)
}

/// A finished export's file: its bytes as a stream, its size, type and name.
pub struct ExportFile {
    pub stream: ByteStream,
    pub size: u64,
    pub content_type: &'static str,
    pub file_name: String,
}

pub async fn file(svc: &Services, job: &ExportJobRow) -> Result<ExportFile, Error> {
    let key = match (job.status.as_str(), job.blob_key.as_deref()) {
        ("completed", Some(key)) => BlobKey::parse(key)?,
        ("failed", _) => return Err(Error::rejected(ErrorCode::StateConflict, "the export failed; ask for it again")),
        _ => return Err(Error::rejected(ErrorCode::StateConflict, "the export is not ready yet")),
    };
    let format = Format::parse(&job.format).ok_or_else(|| Error::internal("an export job of an unknown format"))?;
    let (size, stream) = svc.blob.get_stream(&key).await?;
    let file_name = file_name(&job.dataset, format.as_str(), job.created_at);
    Ok(ExportFile { stream, size, content_type: format.content_type(), file_name })
}

/// The `export.run` queue job: claims the export and writes it in the background, or, when a
/// writer already has it, looks again once that writer's lease could have run out (so that an
/// export whose writer crashed is started again).
pub async fn run_job(svc: &Services, job: &signet_store::ClaimedJob) -> Result<(), ExportJobError> {
    let payload: serde_json::Value = serde_json::from_str(&job.payload).map_err(ExportJobError::Payload)?;
    let id = ExportJobId::from(payload["exportJobId"].as_i64().ok_or(ExportJobError::NoId)?);
    let Some(row) = svc.store.export_job_by_id(id).await? else {
        return Ok(());
    };
    if !matches!(row.status.as_str(), "queued" | "running") {
        return Ok(());
    }
    let lease_until = now_millis() + LEASE_MS;
    let Some(claimed) = svc.store.claim_export_job(id, lease_until).await? else {
        let again = row.locked_until.unwrap_or_else(now_millis) + 1_000;
        return Ok(watch(svc, row.tenant_id, id, again).await?);
    };
    if claimed.attempts > MAX_ATTEMPTS {
        let reason = "the export was started too many times without finishing";
        svc.store.finish_export_job(id, "failed", 0, None, Some(reason)).await?;
        return Ok(());
    }
    // The writer runs on its own task: the queue's worker goes on with mail and webhooks
    // meanwhile, and the watch below restarts the export if this process dies.
    let writer_svc = svc.clone();
    tokio::spawn(async move { write(&writer_svc, claimed).await });
    Ok(watch(svc, row.tenant_id, id, lease_until + 1_000).await?)
}

/// Why an `export.run` job failed; its text is the queue job's stored error, as before.
#[derive(Debug, thiserror::Error)]
pub enum ExportJobError {
    /// The job's payload is not JSON (Signet wrote it: a bug, kept with its cause).
    #[error("{0}")]
    Payload(#[source] serde_json::Error),
    #[error("an export job without its id")]
    NoId,
    #[error(transparent)]
    Domain(#[from] Error),
}

async fn watch(svc: &Services, tenant_id: TenantId, id: ExportJobId, run_at: Millis) -> Result<(), Error> {
    let payload = json!({"exportJobId": id});
    let job = NewJob {
        tenant: Some(tenant_id),
        kind: JobKind::ExportRun,
        payload,
        dedupe_key: None,
        run_at,
        max_attempts: 5,
    };
    svc.store.enqueue_job(&job).await?;
    Ok(())
}

/// Writes the export to the blob store and records the outcome.
async fn write(svc: &Services, job: ExportJobRow) {
    let outcome = write_file(svc, &job).await;
    let recorded = match outcome {
        Ok((rows, key, size)) => svc.store.finish_export_job(job.id, "completed", rows, Some((&key, size)), None).await,
        Err(error) => {
            tracing::error!(%error, export = %job.public_id, "an export failed");
            let reason = "the export could not be written; see the server log";
            svc.store.finish_export_job(job.id, "failed", 0, None, Some(reason)).await
        }
    };
    if let Err(error) = recorded {
        tracing::error!(%error, export = %job.public_id, "could not record an export's outcome");
    }
}

async fn write_file(svc: &Services, job: &ExportJobRow) -> Result<(i64, String, i64), Error> {
    let dataset = Dataset::parse(&job.dataset).ok_or_else(|| Error::internal("an export of an unknown dataset"))?;
    let input: ExportInput = serde_json::from_str(&job.request)?;
    let spec = check(dataset, &input)?;
    let key = BlobKey::new([
        "exports".to_string(),
        job.tenant_id.to_string(),
        format!("{}.{}", job.public_id, spec.format.as_str()),
    ])?;
    let mut file = svc.blob.writer(&key).await?;
    let mut stream = ExportStream::new(svc.clone(), job.tenant_id, spec);
    let mut size = 0_i64;
    loop {
        let chunk = match stream.next_chunk().await {
            Ok(Some(chunk)) => chunk,
            Ok(None) => break,
            Err(error) => {
                let _ = file.abort().await;
                return Err(error);
            }
        };
        size += chunk.len() as i64;
        file.write(Bytes::from(chunk)).await?;
        svc.store.renew_export_job(job.id, now_millis() + LEASE_MS, stream.rows()).await?;
    }
    file.finish().await?;
    Ok((stream.rows(), key.as_str().to_string(), size))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(format: &str) -> ExportInput {
        ExportInput { format: format.into(), ..ExportInput::default() }
    }

    fn fields(error: Error) -> Vec<String> {
        match error {
            Error::Validation(fields) => fields.into_keys().collect(),
            other => panic!("not a validation error: {other}"),
        }
    }

    #[test]
    fn formats_are_read_in_any_case() {
        assert_eq!(Format::parse("CSV"), Some(Format::Csv));
        assert_eq!(Format::parse("Xlsx"), Some(Format::Xlsx));
        assert_eq!(Format::parse("jsonl"), Some(Format::Jsonl));
        assert_eq!(Format::parse("pdf"), None);
    }

    #[test]
    fn every_bad_field_is_named() {
        let bad = ExportInput {
            format: "pdf".into(),
            from_date: Some("2026-05-01T00:00:00Z".into()),
            to_date: Some("2026-04-01T00:00:00Z".into()),
            max_records: Some(0),
            filter_criteria: Some("colour=red".into()),
        };
        let named = fields(check(Dataset::Workflows, &bad).expect_err("refused"));
        assert_eq!(named, ["filterCriteria", "format", "maxRecords", "toDate"]);
        let too_many = ExportInput { max_records: Some(MAX_RECORDS + 1), ..input("csv") };
        assert_eq!(fields(check(Dataset::Users, &too_many).expect_err("refused")), ["maxRecords"]);
        let not_a_date = ExportInput { from_date: Some("yesterday".into()), ..input("csv") };
        assert_eq!(fields(check(Dataset::Users, &not_a_date).expect_err("refused")), ["fromDate"]);
    }

    #[test]
    fn a_good_request_is_checked_into_a_spec() {
        let good = ExportInput {
            format: "JSONL".into(),
            from_date: Some("2026-04-01T00:00:00+05:30".into()),
            to_date: None,
            max_records: Some(50),
            filter_criteria: Some("action=workflow.created; actor=user:3".into()),
        };
        let spec = check(Dataset::AuditEvents, &good).expect("checked");
        assert_eq!(spec.format, Format::Jsonl);
        assert_eq!(spec.window.from, Some(1_775_001_600_000 - 19_800_000));
        assert_eq!(spec.max_records, 50);
        assert_eq!(
            spec.filter,
            ExportFilter::AuditEvents {
                action: Some("workflow.created".into()),
                actor: Some("user:3".into()),
                target: None
            }
        );
    }

    #[test]
    fn json_lines_keep_types_and_column_order() {
        let mut out = Vec::new();
        jsonl_line(&["id", "name", "gone"], &[Cell::Int(7), Cell::text("a \"b\"\n"), Cell::Null], &mut out)
            .expect("line");
        assert_eq!(String::from_utf8(out).expect("utf-8"), "{\"id\":7,\"name\":\"a \\\"b\\\"\\n\",\"gone\":null}\n");
    }
}
