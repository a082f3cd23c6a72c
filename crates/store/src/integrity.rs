//! What `signet check` and `signet backup` read: every reference from a row to a blob (with
//! the hash stored beside it, where one is), the workflows one page at a time, and an online
//! snapshot of the embedded SQLite database.

use std::fmt;
use std::path::Path;

use signet_domain::Error;

use crate::workflows::row::{WORKFLOW_COLUMNS, WorkflowRow};
use crate::{Db, Result, Store, db_err, on_db};

/// A column that names a blob which must exist while its row says so. References that are
/// meant to be short-lived (queued jobs' payloads, staged uploads) are not listed: their
/// blobs may go before the row that named them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlobColumn {
    DocumentOriginal,
    DocumentCurrent,
    WorkflowCertificate,
    WorkflowAttachment,
    Invoice,
    GatewayPayload,
    GatewayResult,
    EsignPending,
    Export,
    Stamp,
    Template,
}

impl BlobColumn {
    pub const ALL: [BlobColumn; 11] = [
        BlobColumn::DocumentOriginal,
        BlobColumn::DocumentCurrent,
        BlobColumn::WorkflowCertificate,
        BlobColumn::WorkflowAttachment,
        BlobColumn::Invoice,
        BlobColumn::GatewayPayload,
        BlobColumn::GatewayResult,
        BlobColumn::EsignPending,
        BlobColumn::Export,
        BlobColumn::Stamp,
        BlobColumn::Template,
    ];

    /// `(table, key column, hash column)`.
    fn parts(self) -> (&'static str, &'static str, Option<&'static str>) {
        match self {
            BlobColumn::DocumentOriginal => ("documents", "original_blob", Some("original_sha256")),
            BlobColumn::DocumentCurrent => ("documents", "current_blob", Some("current_sha256")),
            BlobColumn::WorkflowCertificate => ("workflows", "certificate_blob", None),
            BlobColumn::WorkflowAttachment => ("workflow_attachments", "blob_key", Some("sha256")),
            BlobColumn::Invoice => ("invoices", "document_blob", Some("document_sha256")),
            BlobColumn::GatewayPayload => ("gateway_transactions", "payload_blob", None),
            BlobColumn::GatewayResult => ("gateway_transactions", "result_blob", None),
            BlobColumn::EsignPending => ("esign_transactions", "pending_blob", None),
            BlobColumn::Export => ("export_jobs", "blob_key", None),
            BlobColumn::Stamp => ("stamps", "certificate_blob", None),
            BlobColumn::Template => ("templates", "document_blob", None),
        }
    }

    /// The page query: the rows after `$1` whose reference must resolve, by id. A deleted
    /// workflow's documents have their files removed; an eSign transaction's pending document
    /// lives only while it is sent.
    fn page_sql(self) -> String {
        let (table, key, hash) = self.parts();
        let hash = hash.unwrap_or("NULL");
        let only = match self {
            BlobColumn::DocumentOriginal | BlobColumn::DocumentCurrent => " AND state <> 'deleted'",
            BlobColumn::EsignPending => " AND state = 'sent'",
            BlobColumn::Export => " AND status = 'completed'",
            _ => "",
        };
        format!("SELECT id, {key}, {hash} FROM {table} WHERE id > $1 AND {key} IS NOT NULL{only} ORDER BY id LIMIT $2")
    }
}

impl fmt::Display for BlobColumn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (table, key, _) = self.parts();
        write!(f, "{table}.{key}")
    }
}

/// A row's primary key: a number, or text (eSign transactions are named by random ids).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowId {
    Number(i64),
    Text(String),
}

impl fmt::Display for RowId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowId::Number(id) => write!(f, "{id}"),
            RowId::Text(id) => f.write_str(id),
        }
    }
}

/// One row's reference to a blob, with the SHA-256 (hex) stored for its content, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobReference {
    pub row: RowId,
    pub key: String,
    pub sha256: Option<String>,
}

impl Store {
    /// Up to `limit` references of `column` in rows after `after` (from the first when `None`),
    /// by primary key.
    pub async fn blob_references(
        &self,
        column: BlobColumn,
        after: Option<&RowId>,
        limit: i64,
    ) -> Result<Vec<BlobReference>> {
        let sql = column.page_sql();
        let sql = sql.as_str();
        let references = match (column, after) {
            (BlobColumn::EsignPending, after) => {
                let after = match after {
                    Some(RowId::Text(id)) => id.as_str(),
                    _ => "",
                };
                let rows: Vec<(String, String, Option<String>)> = on_db!(self, pool => {
                    sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(after).bind(limit).fetch_all(pool).await.map_err(db_err)?
                });
                rows.into_iter().map(|(id, key, sha256)| BlobReference { row: RowId::Text(id), key, sha256 }).collect()
            }
            (_, after) => {
                let after = match after {
                    Some(RowId::Number(id)) => *id,
                    _ => 0,
                };
                let rows: Vec<(i64, String, Option<String>)> = on_db!(self, pool => {
                    sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(after).bind(limit).fetch_all(pool).await.map_err(db_err)?
                });
                rows.into_iter()
                    .map(|(id, key, sha256)| BlobReference { row: RowId::Number(id), key, sha256 })
                    .collect()
            }
        };
        Ok(references)
    }

    /// Up to `limit` workflows of every tenant after `after_id`, by id (an installation-wide
    /// walk; the tenant-scoped finders serve everything else).
    pub async fn workflows_after(&self, after_id: i64, limit: i64) -> Result<Vec<WorkflowRow>> {
        // An erased workflow has no chain left: its tombstone in the organisation's chain says what it was.
        let sql = format!(
            "SELECT {WORKFLOW_COLUMNS} FROM workflows WHERE id > $1 AND erased_at IS NULL ORDER BY id LIMIT $2"
        );
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(after_id)
                .bind(limit)
                .fetch_all(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Writes a consistent copy of the SQLite database to `target` (which must not exist) while
    /// others keep writing: `VACUUM INTO` reads one snapshot in a read transaction, which WAL
    /// mode lets run beside writers. PostgreSQL has its own tools (base backup + WAL archiving).
    pub async fn snapshot_into(&self, target: &Path) -> Result<()> {
        let Db::Sqlite(pool) = &self.db else {
            return Err(Error::internal("an online snapshot is taken of the embedded SQLite database only"));
        };
        let target = target.to_str().ok_or_else(|| Error::internal("the snapshot path is not UTF-8"))?;
        sqlx::query("VACUUM INTO $1").bind(target).execute(pool).await.map_err(db_err)?;
        Ok(())
    }
}
