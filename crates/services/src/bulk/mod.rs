//! Bulk jobs (docs/bulk.md): many items of one kind run in the background, each on its own
//! (one that fails does not stop the others), with progress counted from the items, a report
//! of each item's outcome, cancellation, and at the end a completion record
//! (`BulkCompletionRequest`) delivered to the tenant's webhooks as `bulk.completed`.
//!
//! A job runs in slices: the queue job `bulk.run` claims a few items at a time (with a lease,
//! so an item runs once across instances) and works for a few seconds, then queues the next
//! slice and returns, so that one large job neither holds a queue lease longer than it lasts
//! nor keeps mail and webhooks waiting. A job survives restarts: the items not yet done are
//! simply claimed again by the next slice.

use serde::Serialize;
use signet_domain::authority::jobs::{JobAct, may_act_on_job};
use signet_domain::{BulkJobId, Error, ErrorCode, MenuId, Millis};
use signet_store::{BulkItemRow, BulkJobRow, BulkProgress};

use crate::{Caller, Services};

pub mod lots;
pub mod run;
pub mod send;

/// What became of one item.
pub struct Outcome {
    /// `succeeded`, `failed` or `skipped`.
    pub state: &'static str,
    /// What the item made or touched (a workflow id).
    pub result_ref: Option<String>,
    pub detail: String,
}

impl Outcome {
    pub fn succeeded(result_ref: impl Into<String>, detail: impl Into<String>) -> Outcome {
        Outcome { state: "succeeded", result_ref: Some(result_ref.into()), detail: detail.into() }
    }

    pub fn failed(result_ref: Option<String>, detail: impl Into<String>) -> Outcome {
        Outcome { state: "failed", result_ref, detail: detail.into() }
    }
}

/// A job as the API shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    pub job_id: String,
    pub kind: String,
    /// `queued`, `running`, `completed`, `completed_with_errors` or `cancelled`.
    pub status: String,
    pub total: i64,
    pub succeeded: i64,
    pub failed: i64,
    pub skipped: i64,
    /// Items not yet done.
    pub pending: i64,
    pub cancel_requested: bool,
    pub created_at: Millis,
    pub started_at: Option<Millis>,
    pub finished_at: Option<Millis>,
    /// Where the report (CSV) of each item's outcome is.
    pub report_url: String,
}

impl JobStatus {
    pub fn is_finished(&self) -> bool {
        matches!(self.status.as_str(), "completed" | "completed_with_errors" | "cancelled")
    }
}

fn status_of(svc: &Services, job: &BulkJobRow, progress: BulkProgress) -> JobStatus {
    JobStatus {
        job_id: job.public_id.clone(),
        kind: job.kind.as_str().to_string(),
        status: job.status.clone(),
        total: progress.total(),
        succeeded: progress.succeeded,
        failed: progress.failed,
        skipped: progress.skipped,
        pending: progress.open(),
        cancel_requested: job.cancel_requested,
        created_at: job.created_at,
        started_at: job.started_at,
        finished_at: job.finished_at,
        report_url: report_url(svc, &job.public_id),
    }
}

fn report_url(svc: &Services, public_id: &str) -> String {
    format!("{}/api/v1/bulk-jobs/{public_id}/report", svc.config.public_base())
}

/// A new job's public id (its address): unguessable.
pub fn new_public_id() -> String {
    format!("job_{}", crate::platform::secrets::random_token(12))
}

/// The job, if it is the caller's tenant's and the caller may follow it: whoever started it,
/// or a caller who reads the tenant's workflows (`authority::jobs`).
pub async fn job_for(svc: &Services, caller: &Caller, public_id: &str) -> Result<BulkJobRow, Error> {
    let job = svc.store.bulk_job(caller.tenant_id, public_id).await?.ok_or_else(|| Error::not_found("bulk job"))?;
    if !may_act_on_job(&caller.access, started_it(caller, &job), JobAct::Follow) {
        return Err(Error::not_found("bulk job"));
    }
    Ok(job)
}

fn started_it(caller: &Caller, job: &BulkJobRow) -> bool {
    job.created_by == caller.actor.id
}

/// The job's status as it is now, if the caller may follow it ([`job_for`]).
pub async fn status_for(svc: &Services, caller: &Caller, public_id: &str) -> Result<JobStatus, Error> {
    status(svc, &job_for(svc, caller, public_id).await?).await
}

pub async fn status(svc: &Services, job: &BulkJobRow) -> Result<JobStatus, Error> {
    let progress = svc.store.bulk_progress(job.id).await?;
    Ok(status_of(svc, job, progress))
}

/// Asks the job to stop: items not yet started are skipped, the one running finishes.
pub async fn cancel(svc: &Services, caller: &Caller, job: &BulkJobRow) -> Result<JobStatus, Error> {
    if !may_act_on_job(&caller.access, started_it(caller, job), JobAct::Stop) {
        return Err(Error::rejected(ErrorCode::Forbidden, "only its starter or a sender stops a job"));
    }
    let finished = || Error::rejected(ErrorCode::StateConflict, "the job has finished; there is nothing to cancel");
    if job.finished_at.is_some() {
        return Err(finished());
    }
    let job = svc
        .store
        .request_bulk_cancel(caller.tenant_id, &job.public_id, &caller.actor)
        .await?
        .ok_or_else(|| Error::not_found("bulk job"))?;
    if !job.cancel_requested {
        return Err(finished());
    }
    // A queued job may wait for a worker: skip its items now so that its status says so.
    svc.store.skip_pending_items(job.id, "cancelled").await?;
    if svc.store.bulk_progress(job.id).await?.open() == 0 {
        finish(svc, &job).await?;
    }
    let job =
        svc.store.bulk_job(caller.tenant_id, &job.public_id).await?.ok_or_else(|| Error::not_found("bulk job"))?;
    status(svc, &job).await
}

/// One page of the report: `item,state,result,detail` lines after item `after`.
pub async fn report_page(svc: &Services, job: &BulkJobRow, after: i64, limit: i64) -> Result<Vec<BulkItemRow>, Error> {
    svc.store.bulk_items(job.id, after, limit).await
}

/// A CSV line of the report, quoted where needed (and never read as a formula by a
/// spreadsheet: a leading `= + - @` is quoted with an apostrophe).
pub fn report_line(item: &BulkItemRow) -> String {
    let input_ref = serde_json::from_str::<serde_json::Value>(&item.input)
        .ok()
        .and_then(|v| v.get("ref").and_then(|r| r.as_str().map(str::to_string)))
        .unwrap_or_default();
    let cells = [
        item.item_no.to_string(),
        input_ref,
        item.state.clone(),
        item.result_ref.clone().unwrap_or_default(),
        item.detail.clone().unwrap_or_default(),
    ];
    crate::exports::csv::line(&cells)
}

pub const REPORT_HEADER: &str = "item,input,state,result,detail\r\n";

/// Ends the job once every item is done: its status, then the completion record to the
/// tenant's webhooks.
pub(super) async fn finish(svc: &Services, job: &BulkJobRow) -> Result<(), Error> {
    let progress = svc.store.bulk_progress(job.id).await?;
    let current = svc.store.bulk_job_by_id(job.id).await?.ok_or_else(|| Error::not_found("bulk job"))?;
    let status = match (current.cancel_requested, progress.failed) {
        (true, _) => "cancelled",
        (false, 0) => "completed",
        (false, _) => "completed_with_errors",
    };
    svc.store.finish_bulk_job(job.id, status).await?;
    announce(svc, job.id).await
}

/// Delivers the completion record of an ended job to the tenant's webhooks. Exactly once however
/// often it is called: a delivery is keyed by the job's message id, so whichever worker ended the
/// job, or took over a slice cut off before the announcement, makes the same one.
pub(super) async fn announce(svc: &Services, job_id: BulkJobId) -> Result<(), Error> {
    let ended = svc.store.bulk_job_by_id(job_id).await?.ok_or_else(|| Error::not_found("bulk job"))?;
    let progress = svc.store.bulk_progress(job_id).await?;
    let record = completion(svc, &ended, progress);
    let tenant = ended.tenant_id;
    let message_id = format!("msg_{}", ended.public_id);
    crate::integrations::webhooks::publish(
        svc,
        tenant,
        &message_id,
        "bulk.completed",
        serde_json::to_value(&record)?,
        None,
    )
    .await
    .map_err(Error::internal)?;
    Ok(())
}

/// The spec's `BulkCompletionRequest`: what a finished job reports.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    pub job_id: String,
    pub subscriber_id: i64,
    pub parent_id: i64,
    /// 0: no job is tied to a menu entry (see `BulkJobRow::menu_id`).
    pub menu_id: MenuId,
    pub status: String,
    pub total_rows: i64,
    pub succeeded: i64,
    pub failed: i64,
    pub skipped: i64,
    /// RFC 3339.
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    pub report_url: String,
}

pub fn completion(svc: &Services, job: &BulkJobRow, progress: BulkProgress) -> Completion {
    Completion {
        job_id: job.public_id.clone(),
        subscriber_id: job.subscriber_id,
        parent_id: job.parent_id,
        menu_id: job.menu_id,
        status: job.status.clone(),
        total_rows: progress.total(),
        succeeded: progress.succeeded,
        failed: progress.failed,
        skipped: progress.skipped,
        started_at: job.started_at.map(crate::exports::rfc3339),
        finished_at: job.finished_at.map(crate::exports::rfc3339),
        report_url: report_url(svc, &job.public_id),
    }
}

/// A finished job's completion record (`not_found` before it finished).
pub async fn completion_of(svc: &Services, job: &BulkJobRow) -> Result<Completion, Error> {
    if job.finished_at.is_none() {
        return Err(Error::rejected(ErrorCode::StateConflict, "the job has not finished yet"));
    }
    let progress = svc.store.bulk_progress(job.id).await?;
    Ok(completion(svc, job, progress))
}
