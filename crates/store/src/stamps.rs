//! The tenant's stamp inventory (pre-purchased e-stamp certificates), its low-stock settings
//! and its edits of the articles of stamp schedules.
//!
//! Taking certificates for a document happens in two steps so that each one is used exactly
//! once across instances and a failure takes nothing: `reserve_stamps` marks the certificates
//! that make up the duty as reserved under a random token (one conditional UPDATE per
//! denomination, under the tenant's lock, rows counted), the caller makes the stamp page with
//! their reference numbers, and `claim_stamps!` allocates exactly the reserved rows to the new
//! workflow inside the workflow's creation transaction (again counted). A failure in between
//! releases the reservation; a crash leaves it to lapse at `reserved_until`, after which the
//! certificates count as available again.

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::authority::stamps::ProviderIssue;
use signet_domain::stamp::{DutyKind, StampState, plan_allocation};
use signet_domain::{Error, ErrorCode, Millis, StampId, TenantId, WorkflowId, now_millis};

use crate::ids::NullableId;
use crate::{Result, Store, append_audit, db_err, is_unique_violation, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StampRow {
    #[sqlx(try_from = "i64")]
    pub id: StampId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub state_code: String,
    pub denomination: i64,
    pub reference_no: String,
    pub certificate_blob: Option<String>,
    #[sqlx(try_from = "String")]
    pub state: StampState,
    pub reserved_until: Option<Millis>,
    #[sqlx(try_from = "NullableId")]
    pub workflow_id: Option<WorkflowId>,
    pub page_attached: bool,
    pub loaded_at: Millis,
    pub allocated_at: Option<Millis>,
    pub ended_at: Option<Millis>,
    /// `inventory` (loaded by the tenant) or `provider` (issued by the stamp provider for one
    /// request).
    pub source: String,
    /// The provider's reference of the issue, for `provider` certificates.
    pub provider_ref: Option<String>,
}

impl StampRow {
    /// The state as callers see it: a reservation that lapsed is stock again.
    pub fn state_at(&self, now: Millis) -> StampState {
        match (self.state, self.reserved_until) {
            (StampState::Reserved, Some(until)) if until < now => StampState::Available,
            (state, _) => state,
        }
    }
}

const STAMP_COLUMNS: &str = "id, tenant_id, state_code, denomination, reference_no, certificate_blob, state, \
    reserved_until, workflow_id, page_attached, loaded_at, allocated_at, ended_at, source, provider_ref";

/// Rows that may be taken: inventory in stock, or held by a reservation that lapsed (`$now`).
/// A provider's certificates are never taken: they belong to the request they were issued for.
const TAKEABLE: &str =
    "(source = 'inventory' AND (state = 'available' OR (state = 'reserved' AND reserved_until < $now)))";

/// A certificate to load (its PDF, when the tenant has it, already in the blob store).
pub struct NewStamp {
    pub denomination: i64,
    pub reference_no: String,
    pub certificate_blob: Option<String>,
}

/// Which certificates a listing shows.
#[derive(Debug, Default, Clone)]
pub struct StampFilter {
    pub state_code: Option<String>,
    pub denomination: Option<i64>,
    pub status: Option<StampState>,
    /// A case-insensitive substring of the reference number.
    pub search: Option<String>,
}

/// One state and denomination of the inventory, counted by where its certificates stand.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StockRow {
    pub state_code: String,
    pub denomination: i64,
    pub available: i64,
    pub reserved: i64,
    pub allocated: i64,
    pub retired: i64,
}

/// Reserved certificates for a workflow about to be created: `claim_stamps!` allocates exactly
/// these (`count` rows under `reservation`) to it.
#[derive(Debug, Clone)]
pub struct StampClaim {
    pub reservation: String,
    pub count: usize,
    /// The certificate page is in front of the document (else recorded without it).
    pub page_attached: bool,
}

/// The tenant's low-stock settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StampSettings {
    /// 0: no alerts.
    pub low_stock_threshold: i64,
    pub alert_emails: Vec<String>,
}

/// A tenant's edit of an article: a changed or added article, or a shipped one hidden.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ArticleEditRow {
    pub state_code: String,
    pub article_code: String,
    pub description: Option<String>,
    pub duty_kind: Option<String>,
    pub fixed_duty: Option<i64>,
    pub duty_rule: Option<String>,
    pub source: Option<String>,
    pub hidden: bool,
}

impl ArticleEditRow {
    pub fn duty_kind(&self) -> Option<DutyKind> {
        self.duty_kind.as_deref().and_then(DutyKind::parse)
    }
}

/// Allocates a new workflow's reserved certificates (see the module), inside its creation
/// transaction: exactly `claim.count` rows still held by the reservation, or the whole
/// creation fails. Records the allocation in the workflow's chain and enqueues a low-stock
/// alert for each stock the allocation brought to the tenant's threshold.
macro_rules! claim_stamps {
    ($store:expr, $tx:expr, $tenant_id:expr, $workflow_id:expr, $claim:expr, $actor:expr, $now:expr) => {{
        let claim: &$crate::stamps::StampClaim = $claim;
        let tenant_id: signet_domain::TenantId = $tenant_id;
        let workflow_id: signet_domain::WorkflowId = $workflow_id;
        let now: signet_domain::Millis = $now;
        let taken: Vec<(String, i64, String)> = sqlx::query_as(
            "UPDATE stamps SET state = 'allocated', workflow_id = $1, page_attached = $2, allocated_at = $3, \
             reservation = NULL, reserved_until = NULL \
             WHERE tenant_id = $4 AND reservation = $5 AND state = 'reserved' \
             RETURNING state_code, denomination, reference_no",
        )
        .bind(workflow_id.get())
        .bind(claim.page_attached)
        .bind(now)
        .bind(tenant_id.get())
        .bind(&claim.reservation)
        .fetch_all(&mut *$tx)
        .await
        .map_err($crate::db_err)?;
        if taken.len() != claim.count {
            return Err(signet_domain::Error::rejected(
                signet_domain::ErrorCode::Conflict,
                "the stamp papers held for this document were released before it was stored; send the request again",
            ));
        }
        let references: Vec<&str> = taken.iter().map(|(_, _, r)| r.as_str()).collect();
        let event = $actor.workflow_event(
            signet_domain::audit::WorkflowEventKind::StampsAllocated,
            format!("workflow:{workflow_id}"),
            serde_json::json!({"referenceNos": references, "pageAttached": claim.page_attached}),
        );
        $crate::workflows::append_event!($store, $tx, tenant_id, workflow_id, &event);
        let mut touched: Vec<(String, i64, i64)> = Vec::new();
        for (state_code, denomination, _) in &taken {
            match touched.iter_mut().find(|(s, d, _)| s == state_code && d == denomination) {
                Some(entry) => entry.2 += 1,
                None => touched.push((state_code.clone(), *denomination, 1)),
            }
        }
        let threshold: Option<(i64,)> =
            sqlx::query_as("SELECT low_stock_threshold FROM stamp_settings WHERE tenant_id = $1")
                .bind(tenant_id.get())
                .fetch_optional(&mut *$tx)
                .await
                .map_err($crate::db_err)?;
        let threshold = threshold.map_or(0, |(t,)| t);
        for (state_code, denomination, count) in touched.into_iter().filter(|_| threshold > 0) {
            let (after,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(
                $crate::stamps::takeable_sql(
                    "SELECT COUNT(*) FROM stamps WHERE tenant_id = $1 AND state_code = $2 AND denomination = $3 AND ",
                    "$4",
                )
                .as_str(),
            ))
            .bind(tenant_id.get())
            .bind(&state_code)
            .bind(denomination)
            .bind(now)
            .fetch_one(&mut *$tx)
            .await
            .map_err($crate::db_err)?;
            if signet_domain::stamp::falls_to_low_stock(after + count, after, threshold) {
                let payload = serde_json::json!({
                    "tenantId": tenant_id, "stateCode": state_code, "denomination": denomination,
                    "available": after, "threshold": threshold, "workflowId": workflow_id, "at": now,
                });
                sqlx::query(
                    "INSERT INTO jobs (kind, payload, dedupe_key, state, run_at, max_attempts, created_at, tenant_id) \
                     VALUES ($1, $2, NULL, 'ready', $3, 5, $3, $4)",
                )
                .bind(signet_domain::job::JobKind::StampLowStock.as_str())
                .bind(payload.to_string())
                .bind(now)
                .bind(tenant_id.get())
                .execute(&mut *$tx)
                .await
                .map_err($crate::db_err)?;
            }
        }
    }};
}
pub(crate) use claim_stamps;

/// What a workflow that ends without completing does to its certificates (the rule is the
/// domain's `after_workflow_ended`), inside the transaction that ends it; the workflow's chain
/// records which certificates went back to stock or were retired.
macro_rules! end_workflow_stamps {
    ($store:expr, $tx:expr, $workflow:expr, $actor:expr) => {{
        let workflow: &$crate::workflows::WorkflowRow = $workflow;
        let (signed,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM signatories WHERE workflow_id = $1 AND state = $2")
            .bind(workflow.id.get())
            .bind(signet_domain::workflow::SignatoryState::Signed.as_str())
            .fetch_one(&mut *$tx)
            .await
            .map_err($crate::db_err)?;
        // A provider's certificates were issued for this agreement alone: retired whoever signed.
        let issued: Vec<(String,)> = sqlx::query_as(
            "UPDATE stamps SET state = 'retired', ended_at = $2 \
             WHERE workflow_id = $1 AND state = 'allocated' AND source = 'provider' RETURNING reference_no",
        )
        .bind(workflow.id.get())
        .bind(signet_domain::now_millis())
        .fetch_all(&mut *$tx)
        .await
        .map_err($crate::db_err)?;
        if !issued.is_empty() {
            let references: Vec<String> = issued.into_iter().map(|(r,)| r).collect();
            let event = $actor.workflow_event(signet_domain::audit::WorkflowEventKind::StampsRetired, format!("workflow:{}", workflow.id), serde_json::json!({"referenceNos": references}));
            $crate::workflows::append_event!($store, $tx, workflow.tenant_id, workflow.id, &event);
        }
        let next = signet_domain::stamp::after_workflow_ended(signed > 0);
        let sql = if next == signet_domain::stamp::StampState::Retired {
            "UPDATE stamps SET state = $2, ended_at = $3 WHERE workflow_id = $1 AND state = 'allocated' RETURNING reference_no"
        } else {
            "UPDATE stamps SET state = $2, workflow_id = NULL, page_attached = FALSE, allocated_at = NULL \
             WHERE workflow_id = $1 AND state = 'allocated' AND $3 > 0 RETURNING reference_no"
        };
        let ended: Vec<(String,)> = sqlx::query_as(sql)
            .bind(workflow.id.get())
            .bind(next.as_str())
            .bind(signet_domain::now_millis())
            .fetch_all(&mut *$tx)
            .await
            .map_err($crate::db_err)?;
        if !ended.is_empty() {
            let kind = if next == signet_domain::stamp::StampState::Retired {
                signet_domain::audit::WorkflowEventKind::StampsRetired
            } else {
                signet_domain::audit::WorkflowEventKind::StampsReleased
            };
            let references: Vec<String> = ended.into_iter().map(|(r,)| r).collect();
            let event = $actor.workflow_event(kind, format!("workflow:{}", workflow.id), serde_json::json!({"referenceNos": references}));
            $crate::workflows::append_event!($store, $tx, workflow.tenant_id, workflow.id, &event);
        }
    }};
}
pub(crate) use end_workflow_stamps;

/// `prefix` followed by the takeable condition with `now` as the time parameter.
pub(crate) fn takeable_sql(prefix: &str, now: &str) -> String {
    format!("{prefix}{}", TAKEABLE.replace("$now", now))
}

/// The takeable stock of a state by denomination (`$1` tenant, `$2` state, `$3` now).
fn takeable_stock_sql() -> String {
    takeable_sql("SELECT denomination, COUNT(*) FROM stamps WHERE tenant_id = $1 AND state_code = $2 AND ", "$3")
        + " GROUP BY denomination"
}

fn out_of_stock(state_code: &str, duty: i64, stock: &[(i64, i64)]) -> Error {
    let have: Vec<String> = stock.iter().filter(|(_, n)| *n > 0).map(|(d, n)| format!("{n} x Rs {d}")).collect();
    let have = if have.is_empty() { "none".to_string() } else { have.join(", ") };
    Error::rejected(
        ErrorCode::OutOfStock,
        format!(
            "no stamp papers of {state_code} in stock make up Rs {duty} (at most {} papers; in stock: {have}); nothing was taken",
            signet_domain::stamp::MAX_STAMPS_PER_DOCUMENT
        ),
    )
}

/// A provider's certificate whose number another tenant already holds (numbers are unique
/// installation-wide): refused as a number this tenant holds would be.
fn number_taken(error: sqlx::Error, reference_no: &str) -> Error {
    if is_unique_violation(&error) {
        return Error::rejected(
            ErrorCode::Conflict,
            format!(
                "e-stamp certificate {reference_no} is already recorded; a certificate stamps one document, and \
                 nothing was stored"
            ),
        );
    }
    db_err(error)
}

fn provider_issue(row: (i64, String, Option<String>, Option<String>)) -> ProviderIssue {
    let (tenant_id, provider_ref, txn_id, loan_no) = row;
    ProviderIssue { tenant_id: TenantId::from(tenant_id), provider_ref, txn_id, loan_no }
}

impl Store {
    /// The issues Signet recorded for the tenant that `reference` names as the provider
    /// resolves it: the provider's reference, the loan record's txnID or loan number
    /// (ignoring case). Another tenant's issues are never read.
    pub async fn provider_issues_named(&self, tenant_id: TenantId, reference: &str) -> Result<Vec<ProviderIssue>> {
        let rows: Vec<(i64, String, Option<String>, Option<String>)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT tenant_id, provider_ref, txn_id, loan_no FROM stamp_provider_issues WHERE tenant_id = $1 \
                 AND (lower(provider_ref) = lower($2) OR lower(txn_id) = lower($2) OR lower(loan_no) = lower($2)) \
                 ORDER BY id LIMIT 100",
            )
            .bind(tenant_id.get())
            .bind(reference)
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        Ok(rows.into_iter().map(provider_issue).collect())
    }

    /// The issue recorded under the provider's own reference (ignoring case), whichever
    /// tenant's it is: for the rule that decides whether an answer is the caller's.
    pub async fn provider_issue(&self, provider_ref: &str) -> Result<Option<ProviderIssue>> {
        let row: Option<(i64, String, Option<String>, Option<String>)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT tenant_id, provider_ref, txn_id, loan_no FROM stamp_provider_issues \
                 WHERE lower(provider_ref) = lower($1)",
            )
            .bind(provider_ref)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        Ok(row.map(provider_issue))
    }

    /// Records that the provider answered `issue` for its tenant, unless its reference is
    /// recorded already (the first tenant keeps it, even against a concurrent request).
    /// Answers the tenant the reference is recorded for and whether it was recorded now.
    pub async fn record_provider_issue(&self, issue: &ProviderIssue) -> Result<(TenantId, bool)> {
        on_db!(self, pool => {
            let inserted = sqlx::query(
                "INSERT INTO stamp_provider_issues (tenant_id, provider_ref, txn_id, loan_no, issued_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
            )
            .bind(issue.tenant_id.get())
            .bind(&issue.provider_ref)
            .bind(&issue.txn_id)
            .bind(&issue.loan_no)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?
            .rows_affected();
            let (owner,): (i64,) =
                sqlx::query_as("SELECT tenant_id FROM stamp_provider_issues WHERE lower(provider_ref) = lower($1)")
                    .bind(&issue.provider_ref)
                    .fetch_one(pool)
                    .await
                    .map_err(db_err)?;
            Ok((TenantId::from(owner), inserted == 1))
        })
    }

    /// Loads certificates of one state, all or none: a reference number already recorded
    /// (ignoring case; in any tenant, as numbers are unique installation-wide) refuses the
    /// whole load.
    pub async fn load_stamps(
        &self,
        tenant_id: TenantId,
        state_code: &str,
        stamps: &[NewStamp],
        actor: &Actor,
    ) -> Result<Vec<StampRow>> {
        let now = now_millis();
        let insert = format!(
            "INSERT INTO stamps (tenant_id, state_code, denomination, reference_no, certificate_blob, state, \
             loaded_by, loaded_at) VALUES ($1, $2, $3, $4, $5, 'available', $6, $7) RETURNING {STAMP_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let mut rows = Vec::with_capacity(stamps.len());
            for stamp in stamps {
                let row: std::result::Result<StampRow, sqlx::Error> = sqlx::query_as(sqlx::AssertSqlSafe(insert.as_str()))
                    .bind(tenant_id.get())
                    .bind(state_code)
                    .bind(stamp.denomination)
                    .bind(&stamp.reference_no)
                    .bind(&stamp.certificate_blob)
                    .bind(&actor.id)
                    .bind(now)
                    .fetch_one(&mut *tx)
                    .await;
                match row {
                    Ok(row) => rows.push(row),
                    // Numbers are unique installation-wide: one refusal whoever holds it.
                    Err(error) if is_unique_violation(&error) => {
                        return Err(Error::rejected(
                            ErrorCode::Conflict,
                            format!("certificate {} is already recorded; nothing was loaded", stamp.reference_no),
                        ));
                    }
                    Err(error) => return Err(db_err(error)),
                }
            }
            let total: i64 = stamps.iter().map(|s| s.denomination).sum();
            let event = actor.event(
                "stamps.loaded",
                format!("stamps:{state_code}"),
                json!({"stateCode": state_code, "count": stamps.len(), "totalDenomination": total}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(rows)
        })
    }

    /// Records certificates a stamp provider issued (or fetched) for one request, reserved
    /// under `reservation` for the workflow about to be created (`claim_stamps!` allocates
    /// them). A certificate the tenant already has refuses them all (one certificate stamps
    /// one document), except one of the provider's that an earlier attempt recorded and then
    /// gave up before its workflow was made: a retried request takes it again.
    pub async fn record_provider_stamps(
        &self,
        tenant_id: TenantId,
        state_code: &str,
        stamps: &[NewStamp],
        provider_ref: &str,
        reservation: &str,
        actor: &Actor,
    ) -> Result<Vec<StampRow>> {
        let now = now_millis();
        let insert = format!(
            "INSERT INTO stamps (tenant_id, state_code, denomination, reference_no, certificate_blob, state, \
             reservation, reserved_until, loaded_by, loaded_at, source, provider_ref) \
             VALUES ($1, $2, $3, $4, $5, 'reserved', $6, $7, $8, $9, 'provider', $10) RETURNING {STAMP_COLUMNS}"
        );
        let retake = format!(
            "UPDATE stamps SET state = 'reserved', reservation = $1, reserved_until = $2, ended_at = NULL \
             WHERE id = $3 RETURNING {STAMP_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let mut rows = Vec::with_capacity(stamps.len());
            for stamp in stamps {
                let known: Option<(i64, String, String, Option<i64>, i64)> = sqlx::query_as(
                    "SELECT id, source, state, workflow_id, denomination FROM stamps \
                     WHERE tenant_id = $1 AND lower(reference_no) = lower($2)",
                )
                .bind(tenant_id.get())
                .bind(&stamp.reference_no)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
                // Not a lease that lapses back to stock: the row is never takeable.
                let row: StampRow = match known {
                    None => sqlx::query_as(sqlx::AssertSqlSafe(insert.as_str()))
                        .bind(tenant_id.get())
                        .bind(state_code)
                        .bind(stamp.denomination)
                        .bind(&stamp.reference_no)
                        .bind(&stamp.certificate_blob)
                        .bind(reservation)
                        .bind(i64::MAX)
                        .bind(&actor.id)
                        .bind(now)
                        .bind(provider_ref)
                        .fetch_one(&mut *tx)
                        .await
                        .map_err(|error| number_taken(error, &stamp.reference_no))?,
                    Some((id, source, state, None, denomination))
                        if source == "provider" && state == "retired" && denomination == stamp.denomination =>
                    {
                        sqlx::query_as(sqlx::AssertSqlSafe(retake.as_str()))
                            .bind(reservation)
                            .bind(i64::MAX)
                            .bind(id)
                            .fetch_one(&mut *tx)
                            .await
                            .map_err(db_err)?
                    }
                    Some((_, _, _, workflow, _)) => {
                        let used = workflow.map(|w| format!(" (workflow {w})")).unwrap_or_default();
                        return Err(Error::rejected(
                            ErrorCode::Conflict,
                            format!(
                                "e-stamp certificate {} is already recorded for this tenant{used}; a certificate \
                                 stamps one document, and nothing was stored",
                                stamp.reference_no
                            ),
                        ));
                    }
                };
                rows.push(row);
            }
            let total: i64 = stamps.iter().map(|s| s.denomination).sum();
            let references: Vec<&str> = stamps.iter().map(|s| s.reference_no.as_str()).collect();
            let event = actor.event(
                "stamps.issued",
                format!("stamps:{state_code}"),
                json!({"stateCode": state_code, "providerRef": provider_ref, "referenceNos": references,
                       "totalDenomination": total}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(rows)
        })
    }

    /// A page of the tenant's certificates, oldest first.
    pub async fn stamps(
        &self,
        tenant_id: TenantId,
        filter: &StampFilter,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<StampRow>, i64)> {
        let now = now_millis();
        let pattern = filter.search.as_deref().map(signet_domain::paging::contains_pattern);
        // A lapsed reservation is listed as available (see `StampRow::state_at`).
        let status = "($4 IS NULL OR (CASE WHEN state = 'reserved' AND reserved_until < $6 THEN 'available' ELSE state END) = $4)";
        let filter_sql = format!(
            "tenant_id = $1 AND ($2 IS NULL OR state_code = $2) AND ($3 IS NULL OR denomination = $3) AND {status} \
             AND ($5 IS NULL OR lower(reference_no) LIKE $5 ESCAPE '\\')"
        );
        let list = format!("SELECT {STAMP_COLUMNS} FROM stamps WHERE {filter_sql} ORDER BY id LIMIT $7 OFFSET $8");
        let count = format!("SELECT COUNT(*) FROM stamps WHERE {filter_sql} AND $7 >= 0 AND $8 >= 0");
        let status = filter.status.map(StampState::as_str);
        on_db!(self, pool => {
            let rows: Vec<StampRow> = sqlx::query_as(sqlx::AssertSqlSafe(list.as_str()))
                .bind(tenant_id.get())
                .bind(&filter.state_code)
                .bind(filter.denomination)
                .bind(status)
                .bind(&pattern)
                .bind(now)
                .bind(limit)
                .bind(offset)
                .fetch_all(pool)
                .await
                .map_err(db_err)?;
            let (total,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(count.as_str()))
                .bind(tenant_id.get())
                .bind(&filter.state_code)
                .bind(filter.denomination)
                .bind(status)
                .bind(&pattern)
                .bind(now)
                .bind(limit)
                .bind(offset)
                .fetch_one(pool)
                .await
                .map_err(db_err)?;
            Ok((rows, total))
        })
    }

    /// One certificate of the tenant (another tenant's id is not found).
    pub async fn stamp(&self, tenant_id: TenantId, id: StampId) -> Result<Option<StampRow>> {
        let sql = format!("SELECT {STAMP_COLUMNS} FROM stamps WHERE tenant_id = $1 AND id = $2");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// The certificates allocated to a workflow of the tenant, in the order they were loaded.
    pub async fn workflow_stamps(&self, tenant_id: TenantId, workflow_id: WorkflowId) -> Result<Vec<StampRow>> {
        let sql = format!("SELECT {STAMP_COLUMNS} FROM stamps WHERE tenant_id = $1 AND workflow_id = $2 ORDER BY id");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(workflow_id.get())
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }

    /// The inventory counted per state and denomination (one state, or all).
    pub async fn stamp_stock(&self, tenant_id: TenantId, state_code: Option<&str>) -> Result<Vec<StockRow>> {
        let lapsed = "state = 'reserved' AND reserved_until < $3";
        let sql = format!(
            "SELECT state_code, denomination, \
             SUM(CASE WHEN state = 'available' OR ({lapsed}) THEN 1 ELSE 0 END) AS available, \
             SUM(CASE WHEN state = 'reserved' AND NOT ({lapsed}) THEN 1 ELSE 0 END) AS reserved, \
             SUM(CASE WHEN state = 'allocated' THEN 1 ELSE 0 END) AS allocated, \
             SUM(CASE WHEN state = 'retired' THEN 1 ELSE 0 END) AS retired \
             FROM stamps WHERE tenant_id = $1 AND ($2 IS NULL OR state_code = $2) AND source = 'inventory' \
             GROUP BY state_code, denomination ORDER BY state_code, denomination"
        );
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(state_code)
                .bind(now_millis())
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Reserves certificates of `state_code` that make up `duty` (the plan is the domain's
    /// `plan_allocation`) under `reservation` until `until`. Under the tenant's lock, so
    /// concurrent requests (on any instance) see each other's reservations; each
    /// denomination's rows are taken by one conditional UPDATE and counted. `out_of_stock`
    /// when the stock cannot make up the duty; then nothing is reserved.
    pub async fn reserve_stamps(
        &self,
        tenant_id: TenantId,
        state_code: &str,
        duty: i64,
        reservation: &str,
        until: Millis,
    ) -> Result<Vec<StampRow>> {
        let now = now_millis();
        let stock_sql = takeable_stock_sql();
        let take_sql = format!(
            "UPDATE stamps SET state = 'reserved', reservation = $1, reserved_until = $2 WHERE id IN \
             ({}) RETURNING {STAMP_COLUMNS}",
            takeable_sql(
                "SELECT id FROM stamps WHERE tenant_id = $3 AND state_code = $4 AND denomination = $5 AND ",
                "$6"
            ) + " ORDER BY id LIMIT $7"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let stock: Vec<(i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(stock_sql.as_str()))
                .bind(tenant_id.get())
                .bind(state_code)
                .bind(now)
                .fetch_all(&mut *tx)
                .await
                .map_err(db_err)?;
            let plan = plan_allocation(&stock, duty).ok_or_else(|| out_of_stock(state_code, duty, &stock))?;
            let mut reserved = Vec::new();
            for (denomination, count) in plan {
                let rows: Vec<StampRow> = sqlx::query_as(sqlx::AssertSqlSafe(take_sql.as_str()))
                    .bind(reservation)
                    .bind(until)
                    .bind(tenant_id.get())
                    .bind(state_code)
                    .bind(denomination)
                    .bind(now)
                    .bind(count)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db_err)?;
                if rows.len() as i64 != count {
                    // Cannot happen under the tenant's lock; refuse rather than take too few.
                    return Err(out_of_stock(state_code, duty, &stock));
                }
                reserved.extend(rows);
            }
            tx.commit().await.map_err(db_err)?;
            reserved.sort_by_key(|r| r.id);
            Ok(reserved)
        })
    }

    /// Whether the stock of `state_code` makes up `duty` now, as [`Store::reserve_stamps`] would
    /// take it, with nothing taken: its refusal, for a check before anything is sent (a send
    /// that races another for the last certificates is still refused when it reserves).
    pub async fn check_stamp_stock(&self, tenant_id: TenantId, state_code: &str, duty: i64) -> Result<()> {
        let sql = takeable_stock_sql();
        let stock: Vec<(i64, i64)> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(state_code)
                .bind(now_millis())
                .fetch_all(pool)
                .await
                .map_err(db_err)?
        });
        plan_allocation(&stock, duty).map(|_| ()).ok_or_else(|| out_of_stock(state_code, duty, &stock))
    }

    /// Gives back what a reservation still holds (the document was not made or stored):
    /// inventory goes back to stock, a provider's certificates are retired (issued for this
    /// request only, they cannot serve another).
    pub async fn release_reservation(&self, tenant_id: TenantId, reservation: &str) -> Result<u64> {
        on_db!(self, pool => {
            let done = sqlx::query(
                "UPDATE stamps SET state = CASE WHEN source = 'provider' THEN 'retired' ELSE 'available' END, \
                 ended_at = CASE WHEN source = 'provider' THEN $3 ELSE ended_at END, \
                 reservation = NULL, reserved_until = NULL \
                 WHERE tenant_id = $1 AND reservation = $2 AND state = 'reserved'",
            )
            .bind(tenant_id.get())
            .bind(reservation)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?;
            Ok(done.rows_affected())
        })
    }

    /// Sets a certificate in stock aside for good (damaged, refunded, used outside Signet).
    pub async fn retire_stamp(&self, tenant_id: TenantId, id: StampId, actor: &Actor) -> Result<StampRow> {
        let sql = format!(
            "UPDATE stamps SET state = 'retired', ended_at = $3, reservation = NULL, reserved_until = NULL \
             WHERE tenant_id = $1 AND id = $2 AND {} RETURNING {STAMP_COLUMNS}",
            TAKEABLE.replace("$now", "$3")
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let row: Option<StampRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(id.get())
                .bind(now_millis())
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            let Some(row) = row else {
                let exists: Option<(i64,)> = sqlx::query_as("SELECT id FROM stamps WHERE tenant_id = $1 AND id = $2")
                    .bind(tenant_id.get())
                    .bind(id.get())
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db_err)?;
                return Err(match exists {
                    None => Error::not_found("stamp"),
                    Some(_) => Error::rejected(ErrorCode::StateConflict, "only a certificate in stock can be retired"),
                });
            };
            let event = actor.event("stamps.retired", format!("stamp:{id}"), json!({"referenceNo": row.reference_no}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    pub async fn stamp_settings(&self, tenant_id: TenantId) -> Result<StampSettings> {
        let row: Option<(i64, String)> = on_db!(self, pool => {
            sqlx::query_as("SELECT low_stock_threshold, alert_emails FROM stamp_settings WHERE tenant_id = $1")
                .bind(tenant_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        Ok(match row {
            Some((low_stock_threshold, emails)) => {
                StampSettings { low_stock_threshold, alert_emails: serde_json::from_str(&emails)? }
            }
            None => StampSettings::default(),
        })
    }

    pub async fn set_stamp_settings(&self, tenant_id: TenantId, settings: &StampSettings, actor: &Actor) -> Result<()> {
        let emails = serde_json::to_string(&settings.alert_emails)?;
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            sqlx::query(
                "INSERT INTO stamp_settings (tenant_id, low_stock_threshold, alert_emails, updated_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (tenant_id) DO UPDATE SET low_stock_threshold = $2, alert_emails = $3, updated_at = $4",
            )
            .bind(tenant_id.get())
            .bind(settings.low_stock_threshold)
            .bind(&emails)
            .bind(now_millis())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event(
                "stamps.settings_changed",
                "stamps".to_string(),
                json!({"lowStockThreshold": settings.low_stock_threshold, "alertEmails": settings.alert_emails.len()}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The tenant's edits of one state's articles.
    pub async fn article_edits(&self, tenant_id: TenantId, state_code: &str) -> Result<Vec<ArticleEditRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT state_code, article_code, description, duty_kind, fixed_duty, duty_rule, source, hidden \
                 FROM stamp_articles WHERE tenant_id = $1 AND state_code = $2 ORDER BY article_code",
            )
            .bind(tenant_id.get())
            .bind(state_code)
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Records the tenant's version of an article (or, with `hidden`, that a shipped one does
    /// not apply to them).
    pub async fn put_article_edit(&self, tenant_id: TenantId, edit: &ArticleEditRow, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            sqlx::query(
                "INSERT INTO stamp_articles (tenant_id, state_code, article_code, description, duty_kind, fixed_duty, \
                 duty_rule, source, hidden, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
                 ON CONFLICT (tenant_id, state_code, article_code) DO UPDATE SET description = $4, duty_kind = $5, \
                 fixed_duty = $6, duty_rule = $7, source = $8, hidden = $9, updated_by = $10, updated_at = $11",
            )
            .bind(tenant_id.get())
            .bind(&edit.state_code)
            .bind(&edit.article_code)
            .bind(&edit.description)
            .bind(&edit.duty_kind)
            .bind(edit.fixed_duty)
            .bind(&edit.duty_rule)
            .bind(&edit.source)
            .bind(edit.hidden)
            .bind(&actor.id)
            .bind(now_millis())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let action = if edit.hidden { "stamps.article_hidden" } else { "stamps.article_set" };
            let target = format!("article:{}/{}", edit.state_code, edit.article_code);
            append_audit!(self, tx, tenant_id, &actor.event(action, target, json!({"fixedDuty": edit.fixed_duty})));
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Forgets the tenant's edit of an article (the shipped version, if any, applies again);
    /// `false` when there was none.
    pub async fn delete_article_edit(
        &self,
        tenant_id: TenantId,
        state_code: &str,
        article_code: &str,
        actor: &Actor,
    ) -> Result<bool> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let done = sqlx::query("DELETE FROM stamp_articles WHERE tenant_id = $1 AND state_code = $2 AND article_code = $3")
                .bind(tenant_id.get())
                .bind(state_code)
                .bind(article_code)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?
                .rows_affected();
            if done == 0 {
                return Ok(false);
            }
            let target = format!("article:{state_code}/{article_code}");
            append_audit!(self, tx, tenant_id, &actor.event("stamps.article_reset", target, json!({})));
            tx.commit().await.map_err(db_err)?;
            Ok(true)
        })
    }
}
