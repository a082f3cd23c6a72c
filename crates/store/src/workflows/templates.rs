//! Workflow templates: reusable definitions, recorded in the tenant's audit log. A template
//! may keep its document (a blob key, as workflow documents do) and may be archived: no longer
//! offered on send, still readable for the workflows that used it.

use serde_json::json;
use signet_domain::paging::contains_pattern;
use signet_domain::{Millis, TemplateId, TenantId, now_millis};

use crate::{Result, Store, db_err, on_db};

/// The columns every template query reads, in [`TemplateRow`]'s order.
const COLUMNS: &str = "id, tenant_id, name, description, definition, created_by, created_at, updated_at, \
                       document_name, document_blob, document_pages, archived_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TemplateRow {
    #[sqlx(try_from = "i64")]
    pub id: TemplateId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub name: String,
    pub description: Option<String>,
    pub definition: String,
    pub created_by: String,
    pub created_at: Millis,
    pub updated_at: Millis,
    /// The document kept with the template (its file name), when it keeps one.
    pub document_name: Option<String>,
    /// Where the kept document's bytes are in the blob store.
    pub document_blob: Option<String>,
    pub document_pages: Option<i64>,
    /// When the template was archived (not offered on send any more).
    pub archived_at: Option<Millis>,
}

impl TemplateRow {
    /// The document kept with the template, when it keeps one.
    pub fn document(&self) -> Option<TemplateDocument> {
        let (Some(name), Some(blob_key)) = (&self.document_name, &self.document_blob) else { return None };
        Some(TemplateDocument {
            name: name.clone(),
            blob_key: blob_key.clone(),
            pages: self.document_pages.unwrap_or(1),
        })
    }

    pub fn is_archived(&self) -> bool {
        self.archived_at.is_some()
    }
}

/// The document a template keeps: its file name, its blob and its page count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateDocument {
    pub name: String,
    pub blob_key: String,
    pub pages: i64,
}

/// A template to create.
pub struct NewTemplate<'a> {
    pub tenant_id: TenantId,
    pub name: &'a str,
    pub description: Option<&'a str>,
    pub definition: &'a serde_json::Value,
    pub document: Option<&'a TemplateDocument>,
}

/// What an edit of a template changes: its name, description and definition.
pub struct TemplateEdit<'a> {
    pub name: &'a str,
    pub description: Option<&'a str>,
    pub definition: &'a serde_json::Value,
}

/// Which of the tenant's templates a library listing shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shelf {
    /// Those offered on send.
    Active,
    /// Those archived.
    Archived,
}

impl Store {
    pub async fn create_template(
        &self,
        new: &NewTemplate<'_>,
        actor: &signet_domain::audit::Actor,
    ) -> Result<TemplateRow> {
        let now = now_millis();
        let document = new.document;
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: TemplateRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "INSERT INTO templates (tenant_id, name, description, definition, created_by, created_at, updated_at, \
                 document_name, document_blob, document_pages) \
                 VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9) RETURNING {COLUMNS}",
            )))
            .bind(new.tenant_id.get())
            .bind(new.name)
            .bind(new.description)
            .bind(new.definition.to_string())
            .bind(&actor.id)
            .bind(now)
            .bind(document.map(|d| d.name.as_str()))
            .bind(document.map(|d| d.blob_key.as_str()))
            .bind(document.map(|d| d.pages))
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            // Each template is a menu entry too, so that access to it can be granted.
            sqlx::query(
                "INSERT INTO menus (tenant_id, parent_id, name, kind, template_id, created_by, created_at) \
                 VALUES ($1, NULL, $2, $3, $4, $5, $6)",
            )
            .bind(new.tenant_id.get())
            .bind(new.name)
            .bind(signet_domain::menu::MenuKind::Template.as_str())
            .bind(row.id.get())
            .bind(&actor.id)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event("template.created", format!("template:{}", row.id), json!({"name": new.name}));
            crate::append_audit!(self, tx, new.tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    pub async fn template(&self, tenant_id: TenantId, id: TemplateId) -> Result<Option<TemplateRow>> {
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM templates WHERE tenant_id = $1 AND id = $2")))
                .bind(tenant_id.get())
                .bind(id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Changes the tenant's template `id` (and the name of its menu entry); `None` when the
    /// tenant has no such template.
    pub async fn edit_template(
        &self,
        tenant_id: TenantId,
        id: TemplateId,
        edit: &TemplateEdit<'_>,
        actor: &signet_domain::audit::Actor,
    ) -> Result<Option<TemplateRow>> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: Option<TemplateRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "UPDATE templates SET name = $3, description = $4, definition = $5, updated_at = $6 \
                 WHERE tenant_id = $1 AND id = $2 RETURNING {COLUMNS}",
            )))
            .bind(tenant_id.get())
            .bind(id.get())
            .bind(edit.name)
            .bind(edit.description)
            .bind(edit.definition.to_string())
            .bind(now_millis())
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some(row) = row else { return Ok(None) };
            sqlx::query("UPDATE menus SET name = $3 WHERE tenant_id = $1 AND template_id = $2")
                .bind(tenant_id.get())
                .bind(id.get())
                .bind(edit.name)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.event("template.changed", format!("template:{id}"), json!({"name": edit.name}));
            crate::append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(Some(row))
        })
    }

    /// Archives the tenant's template `id` (or brings it back); `None` when the tenant has no
    /// such template. Archiving one already archived keeps its first date.
    pub async fn archive_template(
        &self,
        tenant_id: TenantId,
        id: TemplateId,
        archived: bool,
        actor: &signet_domain::audit::Actor,
    ) -> Result<Option<TemplateRow>> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: Option<TemplateRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "UPDATE templates SET archived_at = CASE WHEN $3 THEN COALESCE(archived_at, $4) ELSE NULL END, \
                 updated_at = $4 WHERE tenant_id = $1 AND id = $2 RETURNING {COLUMNS}",
            )))
            .bind(tenant_id.get())
            .bind(id.get())
            .bind(archived)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some(row) = row else { return Ok(None) };
            let action = if archived { "template.archived" } else { "template.restored" };
            let event = actor.event(action, format!("template:{id}"), json!({"name": row.name}));
            crate::append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(Some(row))
        })
    }
}

impl Store {
    /// The tenant's templates named `name` (ignoring case and surrounding spaces).
    pub async fn templates_named(&self, tenant_id: TenantId, name: &str) -> Result<Vec<TemplateRow>> {
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM templates WHERE tenant_id = $1 AND lower(name) = lower($2) ORDER BY id"
            )))
            .bind(tenant_id.get())
            .bind(name.trim())
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// The tenant's templates by name (the first 500), archived ones too.
    pub async fn templates(&self, tenant_id: TenantId) -> Result<Vec<TemplateRow>> {
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM templates WHERE tenant_id = $1 ORDER BY lower(name), id LIMIT 500"
            )))
            .bind(tenant_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// The tenant's templates on one `shelf` whose name holds `search` (any case), by name
    /// (the first 500).
    pub async fn template_library(
        &self,
        tenant_id: TenantId,
        shelf: Shelf,
        search: Option<&str>,
    ) -> Result<Vec<TemplateRow>> {
        let pattern = search.map(str::trim).filter(|s| !s.is_empty()).map(contains_pattern);
        let archived = shelf == Shelf::Archived;
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM templates WHERE tenant_id = $1 \
                 AND (archived_at IS NOT NULL) = $2 AND ($3 IS NULL OR lower(name) LIKE $3 ESCAPE '\\') \
                 ORDER BY lower(name), id LIMIT 500"
            )))
            .bind(tenant_id.get())
            .bind(archived)
            .bind(&pattern)
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }
}
