use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::department::{Department, DepartmentName};
use signet_domain::paging::{Page, contains_pattern};
use signet_domain::{DepartmentId, Error, ErrorCode, TenantId, now_millis};

use crate::{Result, Store, append_audit, db_err, is_unique_violation, on_db};

type DepartmentRow = (i64, String, i64, i64);

fn department((id, name, created_at, updated_at): DepartmentRow) -> Department {
    Department { id: DepartmentId::from(id), name, created_at, updated_at }
}

fn name_conflict(error: sqlx::Error) -> Error {
    if is_unique_violation(&error) {
        Error::rejected(ErrorCode::DepartmentNameTaken, "a department with this name already exists")
    } else {
        db_err(error)
    }
}

impl Store {
    pub async fn create_department(
        &self,
        tenant_id: TenantId,
        name: &DepartmentName,
        actor: &Actor,
    ) -> Result<Department> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: DepartmentRow = sqlx::query_as(
                "INSERT INTO departments (tenant_id, name, created_at, updated_at) VALUES ($1, $2, $3, $3) \
                 RETURNING id, name, created_at, updated_at",
            )
            .bind(tenant_id.get())
            .bind(name.as_str())
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(name_conflict)?;
            let created = department(row);
            let event = actor.event(
                "department.created",
                format!("department:{}", created.id),
                json!({"departmentName": created.name}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(created)
        })
    }

    pub async fn department(&self, tenant_id: TenantId, id: DepartmentId) -> Result<Department> {
        const SQL: &str = "SELECT id, name, created_at, updated_at FROM departments WHERE tenant_id = $1 AND id = $2";
        let read_in_place = self.sqlite_reads.as_ref().and_then(|reads| {
            reads.row(SQL, (tenant_id.get(), id.get()), |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        });
        if let Some(row) = read_in_place {
            return row.map(department).ok_or(Error::not_found("department"));
        }
        let row: Option<DepartmentRow> = on_db!(self, pool => {
            sqlx::query_as(SQL)
            .bind(tenant_id.get())
            .bind(id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        row.map(department).ok_or(Error::not_found("department"))
    }

    /// One page of a tenant's departments, optionally filtered by a case-insensitive
    /// substring of the name, with the total count of matches.
    pub async fn departments(
        &self,
        tenant_id: TenantId,
        page: Page,
        search: Option<&str>,
    ) -> Result<(Vec<Department>, i64)> {
        let pattern = search.map(str::trim).filter(|s| !s.is_empty()).map(contains_pattern);
        on_db!(self, pool => {
            let rows: Vec<DepartmentRow> = sqlx::query_as(
                "SELECT id, name, created_at, updated_at FROM departments \
                 WHERE tenant_id = $1 AND ($2 IS NULL OR lower(name) LIKE $2 ESCAPE '\\') \
                 ORDER BY id LIMIT $3 OFFSET $4",
            )
            .bind(tenant_id.get())
            .bind(&pattern)
            .bind(page.size)
            .bind(page.offset())
            .fetch_all(pool)
            .await
            .map_err(db_err)?;
            let (total,): (i64,) = sqlx::query_as(
                "SELECT COUNT(*) FROM departments WHERE tenant_id = $1 AND ($2 IS NULL OR lower(name) LIKE $2 ESCAPE '\\')",
            )
            .bind(tenant_id.get())
            .bind(&pattern)
            .fetch_one(pool)
            .await
            .map_err(db_err)?;
            Ok((rows.into_iter().map(department).collect(), total))
        })
    }

    pub async fn rename_department(
        &self,
        tenant_id: TenantId,
        id: DepartmentId,
        name: &DepartmentName,
        actor: &Actor,
    ) -> Result<Department> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let previous: Option<(String,)> = sqlx::query_as(
                "UPDATE departments SET updated_at = updated_at WHERE tenant_id = $1 AND id = $2 RETURNING name",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some((previous,)) = previous else {
                return Err(Error::not_found("department"));
            };
            let row: DepartmentRow = sqlx::query_as(
                "UPDATE departments SET name = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2 \
                 RETURNING id, name, created_at, updated_at",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .bind(name.as_str())
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(name_conflict)?;
            let updated = department(row);
            let event = actor.event(
                "department.renamed",
                format!("department:{id}"),
                json!({"from": previous, "to": updated.name}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(updated)
        })
    }

    /// Deletes all the given departments or none: when one id is not the tenant's, nothing
    /// changes and the error names the missing ids.
    pub async fn delete_departments(&self, tenant_id: TenantId, ids: &[DepartmentId], actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let mut missing = Vec::new();
            for id in ids {
                let deleted: Option<(String,)> = sqlx::query_as(
                    "DELETE FROM departments WHERE tenant_id = $1 AND id = $2 RETURNING name",
                )
                .bind(tenant_id.get())
                .bind(id.get())
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
                match deleted {
                    Some((name,)) => {
                        let event = actor.event(
                            "department.deleted",
                            format!("department:{id}"),
                            json!({"departmentName": name}),
                        );
                        append_audit!(self, tx, tenant_id, &event);
                    }
                    None => missing.push(*id),
                }
            }
            if !missing.is_empty() {
                tx.rollback().await.map_err(db_err)?;
                return Err(if ids.len() == 1 {
                    Error::not_found("department")
                } else {
                    let list: Vec<String> = missing.iter().map(DepartmentId::to_string).collect();
                    Error::rejected(ErrorCode::NotFound, format!("departments not found: {}", list.join(", ")))
                });
            }
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }
}
