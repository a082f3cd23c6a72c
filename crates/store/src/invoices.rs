//! A workflow's invoices (docs/stamps.md, "Invoices"): the tenant's billing profile, the
//! documents issued and the counters that number them.
//!
//! Numbers are consecutive without gaps per tenant, kind and financial year: the counter row
//! is raised in the transaction that inserts the document, under the tenant's lock, and the
//! caller makes and stores the PDF (which shows the number) inside that transaction. A failure
//! anywhere rolls the counter back, so no number is lost; two issues for one workflow meet at
//! the lock, and the second finds the first's documents.

use std::future::Future;

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::invoice::{FinancialYear, InvoiceKind, Party, document_number};
use signet_domain::{Millis, TenantId, WorkflowId, now_millis};

use crate::{Result, Store, append_audit, db_err, on_db};

/// The tenant as the recipient of invoices.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct BillingProfileRow {
    pub legal_name: String,
    pub address: String,
    pub gstin: Option<String>,
    pub state_code: String,
    pub updated_at: Millis,
}

impl BillingProfileRow {
    pub fn party(&self) -> Party {
        Party {
            legal_name: self.legal_name.clone(),
            address: self.address.clone(),
            gstin: self.gstin.clone(),
            state_code: self.state_code.clone(),
        }
    }
}

/// A document issued for a workflow.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct InvoiceRow {
    pub id: i64,
    pub workflow_id: i64,
    #[sqlx(try_from = "String")]
    pub kind: InvoiceKind,
    pub financial_year: String,
    pub serial: i64,
    pub number: String,
    pub taxable_paise: i64,
    pub tax_paise: i64,
    pub total_paise: i64,
    pub document_blob: String,
    pub document_sha256: String,
    pub issued_by: String,
    pub issued_at: Millis,
}

const INVOICE_COLUMNS: &str = "id, workflow_id, kind, financial_year, serial, number, taxable_paise, tax_paise, \
    total_paise, document_blob, document_sha256, issued_by, issued_at";

/// Which issued documents a listing shows.
#[derive(Debug, Default, Clone)]
pub struct InvoiceFilter {
    /// Issued at or after.
    pub issued_from: Option<Millis>,
    /// Issued before.
    pub issued_until: Option<Millis>,
    pub workflow_id: Option<i64>,
}

/// The numbers and date the documents are made with.
#[derive(Debug, Clone)]
pub struct IssueNumbers {
    pub issued_at: Millis,
    pub financial_year: FinancialYear,
    pub invoice: String,
    /// Only when a debit note was asked for.
    pub debit_note: Option<String>,
}

/// A document made with its number, its PDF already in the blob store.
#[derive(Debug, Clone)]
pub struct NewInvoice {
    pub kind: InvoiceKind,
    pub taxable_paise: i64,
    pub tax_paise: i64,
    pub total_paise: i64,
    pub document_blob: String,
    pub document_sha256: String,
}

/// What an issue found or did.
#[derive(Debug, Clone)]
pub enum Issued {
    /// Issued now, with these numbers.
    New(Vec<InvoiceRow>),
    /// Issued before (the caller's documents were not made).
    Existing(Vec<InvoiceRow>),
}

/// The next serial of a series, raised inside the caller's transaction.
macro_rules! next_serial {
    ($tx:ident, $tenant_id:expr, $kind:expr, $year:expr) => {{
        let (serial,): (i64,) = sqlx::query_as(
            "INSERT INTO invoice_counters (tenant_id, kind, financial_year, last_serial) VALUES ($1, $2, $3, 1) \
             ON CONFLICT (tenant_id, kind, financial_year) DO UPDATE SET last_serial = invoice_counters.last_serial + 1 \
             RETURNING last_serial",
        )
        .bind($tenant_id.get())
        .bind($kind.as_str())
        .bind($year.label())
        .fetch_one(&mut *$tx)
        .await
        .map_err(db_err)?;
        serial
    }};
}

impl Store {
    /// The tenant's billing profile, if it set one.
    pub async fn billing_profile(&self, tenant_id: TenantId) -> Result<Option<BillingProfileRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT legal_name, address, gstin, state_code, updated_at FROM billing_profiles WHERE tenant_id = $1",
            )
            .bind(tenant_id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Sets the tenant's billing profile (documents already issued keep the parties they show).
    pub async fn put_billing_profile(&self, tenant_id: TenantId, party: &Party, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            sqlx::query(
                "INSERT INTO billing_profiles (tenant_id, legal_name, address, gstin, state_code, updated_by, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant_id) DO UPDATE SET legal_name = $2, \
                 address = $3, gstin = $4, state_code = $5, updated_by = $6, updated_at = $7",
            )
            .bind(tenant_id.get())
            .bind(&party.legal_name)
            .bind(&party.address)
            .bind(&party.gstin)
            .bind(&party.state_code)
            .bind(&actor.id)
            .bind(now_millis())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let detail = json!({"stateCode": party.state_code, "registered": party.gstin.is_some()});
            append_audit!(self, tx, tenant_id, &actor.event("billing.profile_set", "billing-profile".into(), detail));
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The documents issued for a workflow of the tenant, the invoice first.
    pub async fn workflow_invoices(&self, tenant_id: TenantId, workflow_id: WorkflowId) -> Result<Vec<InvoiceRow>> {
        let sql =
            format!("SELECT {INVOICE_COLUMNS} FROM invoices WHERE tenant_id = $1 AND workflow_id = $2 ORDER BY id");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(workflow_id.get())
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }

    /// A page of the documents issued to the tenant, newest first (one workflow's debit note
    /// before its invoice, as they share the moment of issue), and how many the filter finds.
    pub async fn invoices(
        &self,
        tenant_id: TenantId,
        filter: &InvoiceFilter,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<InvoiceRow>, i64)> {
        let filter_sql = "tenant_id = $1 AND ($2 IS NULL OR issued_at >= $2) AND ($3 IS NULL OR issued_at < $3) \
             AND ($4 IS NULL OR workflow_id = $4)";
        let list = format!(
            "SELECT {INVOICE_COLUMNS} FROM invoices WHERE {filter_sql} ORDER BY issued_at DESC, id DESC LIMIT $5 OFFSET $6"
        );
        let count = format!("SELECT COUNT(*) FROM invoices WHERE {filter_sql}");
        on_db!(self, pool => {
            let rows: Vec<InvoiceRow> = sqlx::query_as(sqlx::AssertSqlSafe(list.as_str()))
                .bind(tenant_id.get())
                .bind(filter.issued_from)
                .bind(filter.issued_until)
                .bind(filter.workflow_id)
                .bind(limit)
                .bind(offset)
                .fetch_all(pool)
                .await
                .map_err(db_err)?;
            let (total,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(count.as_str()))
                .bind(tenant_id.get())
                .bind(filter.issued_from)
                .bind(filter.issued_until)
                .bind(filter.workflow_id)
                .fetch_one(pool)
                .await
                .map_err(db_err)?;
            Ok((rows, total))
        })
    }

    /// Issues a workflow's invoice (and debit note, with `debit_note`) once: under the tenant's
    /// lock, a workflow already invoiced answers its documents; otherwise the series' counters
    /// are raised, `make` makes and stores the documents with those numbers, and they are
    /// recorded, all in one transaction (see the module). The lock is held while `make` runs,
    /// so it should only render and store.
    pub async fn issue_invoices<F, Fut>(
        &self,
        tenant_id: TenantId,
        workflow_id: WorkflowId,
        debit_note: bool,
        actor: &Actor,
        make: F,
    ) -> Result<Issued>
    where
        F: FnOnce(IssueNumbers) -> Fut + Send,
        Fut: Future<Output = Result<Vec<NewInvoice>>> + Send,
    {
        let select =
            format!("SELECT {INVOICE_COLUMNS} FROM invoices WHERE tenant_id = $1 AND workflow_id = $2 ORDER BY id");
        let insert = format!(
            "INSERT INTO invoices (tenant_id, workflow_id, kind, financial_year, serial, number, taxable_paise, \
             tax_paise, total_paise, document_blob, document_sha256, issued_by, issued_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING {INVOICE_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let existing: Vec<InvoiceRow> = sqlx::query_as(sqlx::AssertSqlSafe(select.as_str()))
                .bind(tenant_id.get())
                .bind(workflow_id.get())
                .fetch_all(&mut *tx)
                .await
                .map_err(db_err)?;
            if !existing.is_empty() {
                return Ok(Issued::Existing(existing));
            }
            // The date is taken under the lock, so numbers and dates rise together.
            let issued_at = now_millis();
            let year = FinancialYear::of(issued_at);
            let mut serials = vec![(InvoiceKind::Invoice, next_serial!(tx, tenant_id, InvoiceKind::Invoice, year))];
            if debit_note {
                serials.push((InvoiceKind::DebitNote, next_serial!(tx, tenant_id, InvoiceKind::DebitNote, year)));
            }
            let mut numbered = Vec::with_capacity(serials.len());
            for (kind, serial) in serials {
                numbered.push((kind, serial, document_number(kind, year, serial)?));
            }
            let number_of = |kind: InvoiceKind| numbered.iter().find(|(k, _, _)| *k == kind).map(|(_, _, n)| n.clone());
            let numbers = IssueNumbers {
                issued_at,
                financial_year: year,
                invoice: number_of(InvoiceKind::Invoice).unwrap_or_default(),
                debit_note: number_of(InvoiceKind::DebitNote),
            };
            let documents = make(numbers).await?;
            if documents.len() != numbered.len() {
                // Every number raised must be used, or the series would have a gap.
                return Err(signet_domain::Error::internal("the documents made do not match the numbers raised"));
            }
            let mut rows = Vec::with_capacity(documents.len());
            for document in &documents {
                let Some((_, serial, number)) = numbered.iter().find(|(k, _, _)| *k == document.kind) else {
                    return Err(signet_domain::Error::internal("a document of a kind that was not numbered"));
                };
                let row: InvoiceRow = sqlx::query_as(sqlx::AssertSqlSafe(insert.as_str()))
                    .bind(tenant_id.get())
                    .bind(workflow_id.get())
                    .bind(document.kind.as_str())
                    .bind(year.label())
                    .bind(serial)
                    .bind(number)
                    .bind(document.taxable_paise)
                    .bind(document.tax_paise)
                    .bind(document.total_paise)
                    .bind(&document.document_blob)
                    .bind(&document.document_sha256)
                    .bind(&actor.id)
                    .bind(issued_at)
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(db_err)?;
                rows.push(row);
            }
            let detail = json!({
                "numbers": rows.iter().map(|r| r.number.as_str()).collect::<Vec<_>>(),
                "totalPaise": rows.iter().map(|r| r.total_paise).sum::<i64>(),
            });
            append_audit!(self, tx, tenant_id, &actor.event("invoices.issued", format!("workflow:{workflow_id}"), detail));
            tx.commit().await.map_err(db_err)?;
            Ok(Issued::New(rows))
        })
    }
}
