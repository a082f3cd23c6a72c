//! Workflow templates: reusable definitions, recorded in the tenant's audit log.

use serde_json::json;
use signet_domain::{Millis, TemplateId, TenantId, now_millis};

use crate::{Result, Store, db_err, on_db};

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
}

impl Store {
    pub async fn create_template(
        &self,
        tenant_id: TenantId,
        name: &str,
        description: Option<&str>,
        definition: &serde_json::Value,
        actor: &signet_domain::audit::Actor,
    ) -> Result<TemplateRow> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: TemplateRow = sqlx::query_as(
                "INSERT INTO templates (tenant_id, name, description, definition, created_by, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $6) \
                 RETURNING id, tenant_id, name, description, definition, created_by, created_at, updated_at",
            )
            .bind(tenant_id.get())
            .bind(name)
            .bind(description)
            .bind(definition.to_string())
            .bind(&actor.id)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            // Each template is a menu entry too, so that access to it can be granted.
            sqlx::query(
                "INSERT INTO menus (tenant_id, parent_id, name, kind, template_id, created_by, created_at) \
                 VALUES ($1, NULL, $2, 'template', $3, $4, $5)",
            )
            .bind(tenant_id.get())
            .bind(name)
            .bind(row.id.get())
            .bind(&actor.id)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event("template.created", format!("template:{}", row.id), json!({"name": name}));
            crate::append_audit!(tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    pub async fn template(&self, tenant_id: TenantId, id: TemplateId) -> Result<Option<TemplateRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, tenant_id, name, description, definition, created_by, created_at, updated_at \
                 FROM templates WHERE tenant_id = $1 AND id = $2",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }
}

impl Store {
    /// The tenant's templates named `name` (ignoring case and surrounding spaces).
    pub async fn templates_named(&self, tenant_id: TenantId, name: &str) -> Result<Vec<TemplateRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, tenant_id, name, description, definition, created_by, created_at, updated_at \
                 FROM templates WHERE tenant_id = $1 AND lower(name) = lower($2) ORDER BY id",
            )
            .bind(tenant_id.get())
            .bind(name.trim())
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// The tenant's templates by name (the first 500), for choosing one.
    pub async fn templates(&self, tenant_id: TenantId) -> Result<Vec<TemplateRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, tenant_id, name, description, definition, created_by, created_at, updated_at \
                 FROM templates WHERE tenant_id = $1 ORDER BY lower(name), id LIMIT 500",
            )
            .bind(tenant_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }
}
