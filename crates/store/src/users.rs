//! Users of a tenant (principals of kind `user`): profile, role, status and their life cycle,
//! each change audited in its own transaction; single-use set-password links.

use serde_json::json;
use signet_domain::access::Role;
use signet_domain::audit::Actor;
use signet_domain::authority::sessions;
use signet_domain::paging::{Page, contains_pattern};
use signet_domain::user::{LoginMode, SenderNotices, UserKind, UserStatus};
use signet_domain::{Error, ErrorCode, Millis, PrincipalId, RoleId, TenantId, WorkflowId, now_millis};

use crate::fields::PAN_COLUMN;
use crate::{Result, Store, append_audit, db_err, is_unique_violation, on_db};

/// A user as stored (national id as its last four digits only).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    #[sqlx(try_from = "i64")]
    pub id: PrincipalId,
    pub email: Option<String>,
    pub name: Option<String>,
    #[sqlx(try_from = "String")]
    pub user_type: UserKind,
    #[sqlx(try_from = "String")]
    pub role: Role,
    /// The tenant's own role the user has instead, if any.
    #[sqlx(try_from = "crate::NullableId")]
    pub custom_role_id: Option<RoleId>,
    pub custom_role_name: Option<String>,
    #[sqlx(try_from = "String")]
    pub status: UserStatus,
    pub status_reason: Option<String>,
    /// Who set the status (an audit actor id).
    pub status_by: Option<String>,
    pub alternative_email: Option<String>,
    pub contact_number: Option<String>,
    pub organization: Option<String>,
    pub department_id: Option<i64>,
    pub geo_profile_id: Option<i64>,
    pub designation: Option<String>,
    pub signature_type: Option<String>,
    pub profile_ref: Option<String>,
    pub signature_option: Option<i64>,
    #[sqlx(try_from = "String")]
    pub login_mode: LoginMode,
    pub national_id_last4: Option<String>,
    pub pan_number: Option<String>,
    pub time_zone: Option<String>,
    pub dob: Option<i64>,
    pub has_password: bool,
    pub created_by: Option<String>,
    pub created_at: i64,
    pub updated_at: Option<i64>,
}

const USER_COLUMNS: &str = "id, email, name, user_type, role, custom_role_id, \
    (SELECT r.name FROM roles r WHERE r.id = principals.custom_role_id) AS custom_role_name, status, status_reason, status_by, alternative_email, \
    contact_number, organization, department_id, geo_profile_id, designation, signature_type, profile_ref, \
    signature_option, login_mode, national_id_last4, pan_number, time_zone, dob, \
    (secret_hash <> '') AS has_password, created_by, created_at, updated_at";

/// A user's stored fields (what [`signet_domain::user::UserDetails`] becomes).
#[derive(Debug, Clone)]
pub struct UserFields<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub alternative_email: Option<&'a str>,
    pub contact_number: Option<&'a str>,
    pub organization: Option<&'a str>,
    pub department_id: Option<i64>,
    pub geo_profile_id: Option<i64>,
    pub designation: Option<&'a str>,
    pub signature_type: &'a str,
    pub profile_ref: Option<&'a str>,
    pub signature_option: Option<i64>,
    pub login_mode: LoginMode,
    /// Last four digits and keyed digest of the national id.
    pub national_id: Option<(&'a str, &'a str)>,
    pub pan_number: Option<&'a str>,
    pub time_zone: Option<&'a str>,
    pub dob: Option<Millis>,
    pub role: Role,
    /// A tenant role (stored id), checked to be the tenant's in the same transaction.
    pub custom_role_id: Option<RoleId>,
}

/// Which users a search returns.
#[derive(Debug, Clone, Default)]
pub struct UserFilter {
    pub kind: Option<UserKind>,
    pub statuses: Vec<UserStatus>,
    /// Case-insensitive substring of name or e-mail.
    pub search: Option<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    pub alternative_email: Option<String>,
    pub contact_number: Option<String>,
    pub organization: Option<String>,
    /// The keyed digest of a national id (exact match).
    pub national_id_digest: Option<String>,
    pub status_reason: Option<String>,
    /// Who set the status (substring), e.g. who rejected a registration.
    pub status_by: Option<String>,
    pub created_by: Option<String>,
    pub created_from: Option<Millis>,
    pub updated_from: Option<Millis>,
    pub sort: UserSort,
    pub descending: bool,
}

/// Sort keys of user lists (each with the id as tie-breaker).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum UserSort {
    #[default]
    Id,
    Name,
    Email,
    CreatedAt,
    Status,
}

impl UserSort {
    fn column(self) -> &'static str {
        match self {
            UserSort::Id => "id",
            UserSort::Name => "lower(coalesce(name, ''))",
            UserSort::Email => "lower(coalesce(email, ''))",
            UserSort::CreatedAt => "created_at",
            UserSort::Status => "status",
        }
    }
}

fn email_conflict(error: sqlx::Error) -> Error {
    if is_unique_violation(&error) {
        Error::rejected(ErrorCode::Conflict, "a user with this e-mail address already exists")
    } else {
        db_err(error)
    }
}

fn audit_fields(fields: &UserFields<'_>) -> serde_json::Value {
    json!({"name": fields.name, "email": fields.email, "role": fields.role.as_str(),
        "departmentId": fields.department_id, "loginMode": fields.login_mode.as_str()})
}

/// Appends `AND <condition with $n>` for each present filter value, numbering parameters from
/// `next`; answers the clause and the values in order.
fn filter_sql(filter: &UserFilter, mut next: usize) -> (String, Vec<FilterValue>) {
    let mut sql = String::new();
    let mut values = Vec::new();
    let mut like = |sql: &mut String, column: &str, value: &Option<String>| {
        if let Some(v) = value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
            sql.push_str(&format!(" AND lower(coalesce({column}, '')) LIKE ${next} ESCAPE '\\'"));
            next += 1;
            values.push(FilterValue::Text(contains_pattern(v)));
        }
    };
    like(&mut sql, "name", &filter.name);
    like(&mut sql, "email", &filter.email);
    like(&mut sql, "alternative_email", &filter.alternative_email);
    like(&mut sql, "contact_number", &filter.contact_number);
    like(&mut sql, "organization", &filter.organization);
    like(&mut sql, "status_reason", &filter.status_reason);
    like(&mut sql, "created_by", &filter.created_by);
    like(&mut sql, "status_by", &filter.status_by);
    if let Some(search) = filter.search.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        sql.push_str(&format!(
            " AND (lower(coalesce(name, '')) LIKE ${next} ESCAPE '\\' OR lower(coalesce(email, '')) LIKE ${next} ESCAPE '\\')"
        ));
        next += 1;
        values.push(FilterValue::Text(contains_pattern(search)));
    }
    if let Some(digest) = &filter.national_id_digest {
        sql.push_str(&format!(" AND national_id_digest = ${next}"));
        next += 1;
        values.push(FilterValue::Text(digest.clone()));
    }
    if let Some(kind) = filter.kind {
        sql.push_str(&format!(" AND user_type = ${next}"));
        next += 1;
        values.push(FilterValue::Text(kind.as_str().to_string()));
    }
    if !filter.statuses.is_empty() {
        let placeholders: Vec<String> = (0..filter.statuses.len()).map(|i| format!("${}", next + i)).collect();
        sql.push_str(&format!(" AND status IN ({})", placeholders.join(", ")));
        next += filter.statuses.len();
        values.extend(filter.statuses.iter().map(|s| FilterValue::Text(s.as_str().to_string())));
    }
    for (column, from) in
        [("created_at", filter.created_from), ("coalesce(updated_at, created_at)", filter.updated_from)]
    {
        if let Some(from) = from {
            sql.push_str(&format!(" AND {column} >= ${next}"));
            next += 1;
            values.push(FilterValue::Int(from));
        }
    }
    (sql, values)
}

enum FilterValue {
    Text(String),
    Int(i64),
}

macro_rules! bind_filters {
    ($query:expr, $values:expr) => {{
        let mut query = $query;
        for value in $values {
            query = match value {
                FilterValue::Text(text) => query.bind(text.clone()),
                FilterValue::Int(n) => query.bind(*n),
            };
        }
        query
    }};
}

/// Refuses a department id that is not the tenant's (inside the caller's transaction).
macro_rules! department_exists {
    ($tx:ident, $tenant_id:expr, $id:expr) => {{
        let found: Option<(i64,)> = sqlx::query_as("SELECT id FROM departments WHERE tenant_id = $1 AND id = $2")
            .bind($tenant_id.get())
            .bind($id)
            .fetch_optional(&mut *$tx)
            .await
            .map_err(db_err)?;
        if found.is_none() {
            return Err(Error::field("deptId", "no such department in this tenant"));
        }
    }};
}

/// Refuses a tenant role id that is not the tenant's (inside the caller's transaction).
macro_rules! role_exists {
    ($tx:ident, $tenant_id:expr, $id:expr) => {{
        let found: Option<(i64,)> = sqlx::query_as("SELECT id FROM roles WHERE tenant_id = $1 AND id = $2")
            .bind($tenant_id.get())
            .bind(RoleId::get($id))
            .fetch_optional(&mut *$tx)
            .await
            .map_err(db_err)?;
        if found.is_none() {
            return Err(Error::field("roleId", "no such role in this tenant"));
        }
    }};
}

/// Revokes every refresh token of a principal (inside the caller's transaction).
macro_rules! revoke_refresh_tokens {
    ($tx:ident, $principal_id:expr, $now:expr) => {{
        sqlx::query("UPDATE refresh_tokens SET revoked_at = $2 WHERE principal_id = $1 AND revoked_at IS NULL")
            .bind($principal_id)
            .bind($now)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
    }};
}

impl Store {
    /// Creates a user (no password yet: they set one through a link) with a fresh security stamp.
    pub async fn create_user(
        &self,
        tenant_id: TenantId,
        kind: UserKind,
        status: UserStatus,
        fields: &UserFields<'_>,
        stamp: &str,
        actor: &Actor,
    ) -> Result<UserRow> {
        let now = now_millis();
        let pan = self.seal_field(tenant_id.get(), PAN_COLUMN, fields.pan_number).await?;
        let row = on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            if let Some(department) = fields.department_id {
                department_exists!(tx, tenant_id, department);
            }
            if let Some(role) = fields.custom_role_id {
                role_exists!(tx, tenant_id, role);
            }
            if kind == UserKind::Internal {
                // A registration nobody approved yet does not hold an address against an
                // organisation's own user: anyone may register any address, so it gives way
                // (rejected, its address released) rather than reserve it installation-wide.
                sqlx::query(
                    "UPDATE principals SET email = NULL, status = 'rejected', disabled = TRUE, \
                     status_reason = 'the address belongs to a user an organisation created', updated_at = $2 \
                     WHERE lower(email) = lower($1) AND kind = 'user' AND user_type = 'external' AND status = 'pending'",
                )
                .bind(fields.email)
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            }
            let (id,): (i64,) = sqlx::query_as(
                "INSERT INTO principals (tenant_id, kind, email, secret_hash, security_stamp, disabled, created_at, \
                 name, user_type, role, status, alternative_email, contact_number, organization, department_id, \
                 geo_profile_id, designation, signature_type, profile_ref, signature_option, login_mode, \
                 national_id_last4, national_id_digest, pan_number, time_zone, dob, created_by, updated_at, custom_role_id) \
                 VALUES ($1, 'user', $2, '', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, \
                 $19, $20, $21, $22, $23, $24, $25, $5, $26) RETURNING id",
            )
            .bind(tenant_id.get())
            .bind(fields.email)
            .bind(stamp)
            .bind(status != UserStatus::Active)
            .bind(now)
            .bind(fields.name)
            .bind(kind.as_str())
            .bind(fields.role.as_str())
            .bind(status.as_str())
            .bind(fields.alternative_email)
            .bind(fields.contact_number)
            .bind(fields.organization)
            .bind(fields.department_id)
            .bind(fields.geo_profile_id)
            .bind(fields.designation)
            .bind(fields.signature_type)
            .bind(fields.profile_ref)
            .bind(fields.signature_option)
            .bind(fields.login_mode.as_str())
            .bind(fields.national_id.map(|(last4, _)| last4))
            .bind(fields.national_id.map(|(_, digest)| digest))
            .bind(pan.as_deref())
            .bind(fields.time_zone)
            .bind(fields.dob)
            .bind(&actor.id)
            .bind(fields.custom_role_id.map(RoleId::get))
            .fetch_one(&mut *tx)
            .await
            .map_err(email_conflict)?;
            let mut detail = audit_fields(fields);
            detail["userType"] = json!(kind.as_str());
            detail["status"] = json!(status.as_str());
            append_audit!(self, tx, tenant_id, &actor.event("user.created", format!("user:{id}"), detail));
            let row: UserRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {USER_COLUMNS} FROM principals WHERE id = $1")))
                .bind(id)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            tx.commit().await.map_err(db_err)?;
            Ok::<_, Error>(row)
        })?;
        self.open_user(tenant_id, row).await
    }

    /// A user row with its personal fields opened.
    async fn open_user(&self, tenant_id: TenantId, mut row: UserRow) -> Result<UserRow> {
        row.pan_number = self.open_field(tenant_id.get(), PAN_COLUMN, row.pan_number.take()).await?;
        Ok(row)
    }

    /// A user of the tenant (API clients are not users: 404).
    pub async fn user(&self, tenant_id: TenantId, id: PrincipalId) -> Result<UserRow> {
        let row: Option<UserRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {USER_COLUMNS} FROM principals WHERE tenant_id = $1 AND id = $2 AND kind = 'user'"
            )))
            .bind(tenant_id.get())
            .bind(id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        self.open_user(tenant_id, row.ok_or(Error::not_found("user"))?).await
    }

    /// The names the tenant's principals `ids` (at most 100) go by, for pages that show who
    /// did something: a user's name (else their address), an application's client id.
    pub async fn principal_names(
        &self,
        tenant_id: TenantId,
        ids: &[PrincipalId],
    ) -> Result<Vec<(PrincipalId, String)>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        if ids.len() > 100 {
            return Err(Error::internal("at most 100 principals at once"));
        }
        // The SQL is made of constants and numbered placeholders only; every value is bound.
        let placeholders: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT id, coalesce(nullif(name, ''), email, client_id, '') FROM principals \
             WHERE tenant_id = $1 AND id IN ({})",
            placeholders.join(", ")
        );
        on_db!(self, pool => {
            let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id.get());
            for id in ids {
                query = query.bind(id.get());
            }
            let rows: Vec<(i64, String)> = query.fetch_all(pool).await.map_err(db_err)?;
            Ok(rows.into_iter().map(|(id, name)| (PrincipalId::from(id), name)).collect())
        })
    }

    /// One page of the tenant's users matching `filter`, with the number of all matches.
    pub async fn users(&self, tenant_id: TenantId, filter: &UserFilter, page: Page) -> Result<(Vec<UserRow>, i64)> {
        // The SQL is made of constants and numbered placeholders only; every value is bound.
        let (clause, values) = filter_sql(filter, 2);
        let direction = if filter.descending { "DESC" } else { "ASC" };
        let order = format!("{} {direction}, id {direction}", filter.sort.column());
        let n = values.len();
        let select = format!(
            "SELECT {USER_COLUMNS} FROM principals WHERE tenant_id = $1 AND kind = 'user'{clause} \
             ORDER BY {order} LIMIT ${} OFFSET ${}",
            n + 2,
            n + 3
        );
        let count = format!("SELECT COUNT(*) FROM principals WHERE tenant_id = $1 AND kind = 'user'{clause}");
        let (rows, total) = on_db!(self, pool => {
            let query = bind_filters!(sqlx::query_as::<_, UserRow>(sqlx::AssertSqlSafe(select.as_str())).bind(tenant_id.get()), &values);
            let rows = query.bind(page.size).bind(page.offset()).fetch_all(pool).await.map_err(db_err)?;
            let (total,): (i64,) = bind_filters!(sqlx::query_as(sqlx::AssertSqlSafe(count.as_str())).bind(tenant_id.get()), &values)
                .fetch_one(pool)
                .await
                .map_err(db_err)?;
            Ok::<_, Error>((rows, total))
        })?;
        let mut opened = Vec::with_capacity(rows.len());
        for row in rows {
            opened.push(self.open_user(tenant_id, row).await?);
        }
        Ok((opened, total))
    }

    /// Replaces a user's profile and role (not their status). A changed role or sign-in mode
    /// ends their sessions (`new_stamp`), so no token outlives the access it was issued for.
    pub async fn update_user(
        &self,
        tenant_id: TenantId,
        id: PrincipalId,
        fields: &UserFields<'_>,
        new_stamp: &str,
        actor: &Actor,
    ) -> Result<UserRow> {
        let now = now_millis();
        let pan = self.seal_field(tenant_id.get(), PAN_COLUMN, fields.pan_number).await?;
        let row = on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let current: Option<(String, String, String, Option<i64>)> = sqlx::query_as(
                "SELECT role, login_mode, status, custom_role_id FROM principals WHERE tenant_id = $1 AND id = $2 AND kind = 'user'",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some((role, login_mode, status, custom_role)) = current else { return Err(Error::not_found("user")) };
            if status == UserStatus::Deleted.as_str() {
                return Err(Error::rejected(ErrorCode::StateConflict, "a deleted user cannot be changed"));
            }
            if let Some(department) = fields.department_id {
                department_exists!(tx, tenant_id, department);
            }
            if let Some(role) = fields.custom_role_id {
                role_exists!(tx, tenant_id, role);
            }
            let access_changed = role != fields.role.as_str()
                || login_mode != fields.login_mode.as_str()
                || custom_role != fields.custom_role_id.map(RoleId::get);
            sqlx::query(
                "UPDATE principals SET email = $3, name = $4, role = $5, alternative_email = $6, contact_number = $7, \
                 organization = $8, department_id = $9, geo_profile_id = $10, designation = $11, signature_type = $12, \
                 profile_ref = $13, signature_option = $14, login_mode = $15, national_id_last4 = $16, \
                 national_id_digest = $17, pan_number = $18, time_zone = $19, dob = $20, updated_at = $21, \
                 security_stamp = CASE WHEN $22 THEN $23 ELSE security_stamp END, custom_role_id = $24 \
                 WHERE tenant_id = $1 AND id = $2",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .bind(fields.email)
            .bind(fields.name)
            .bind(fields.role.as_str())
            .bind(fields.alternative_email)
            .bind(fields.contact_number)
            .bind(fields.organization)
            .bind(fields.department_id)
            .bind(fields.geo_profile_id)
            .bind(fields.designation)
            .bind(fields.signature_type)
            .bind(fields.profile_ref)
            .bind(fields.signature_option)
            .bind(fields.login_mode.as_str())
            .bind(fields.national_id.map(|(last4, _)| last4))
            .bind(fields.national_id.map(|(_, digest)| digest))
            .bind(pan.as_deref())
            .bind(fields.time_zone)
            .bind(fields.dob)
            .bind(now)
            .bind(access_changed)
            .bind(new_stamp)
            .bind(fields.custom_role_id.map(RoleId::get))
            .execute(&mut *tx)
            .await
            .map_err(email_conflict)?;
            if access_changed {
                revoke_refresh_tokens!(tx, id.get(), now);
            }
            let mut detail = audit_fields(fields);
            detail["sessionsEnded"] = json!(access_changed);
            append_audit!(self, tx, tenant_id, &actor.event("user.updated", format!("user:{id}"), detail));
            let row: UserRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {USER_COLUMNS} FROM principals WHERE id = $1")))
                .bind(id.get())
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            tx.commit().await.map_err(db_err)?;
            self.principals_changed();
            Ok::<_, Error>(row)
        })?;
        self.open_user(tenant_id, row).await
    }

    /// Moves a user from `from` to `to` (a compare-and-set: a concurrent change wins and this
    /// one reports the conflict). Only `active` users sign in or keep sessions; becoming
    /// anything else also ends every session at once (`new_stamp`, refresh tokens revoked),
    /// and so does any move with `end_sessions`.
    #[allow(clippy::too_many_arguments)]
    pub async fn set_user_status(
        &self,
        tenant_id: TenantId,
        id: PrincipalId,
        from: UserStatus,
        to: UserStatus,
        reason: Option<&str>,
        new_stamp: &str,
        end_sessions: bool,
        actor: &Actor,
    ) -> Result<()> {
        let now = now_millis();
        // Leaving the active status ends every session, whatever was asked.
        let end = sessions::move_ends_sessions(to, end_sessions);
        let blocked = end && to != UserStatus::Active;
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let changed = sqlx::query(
                "UPDATE principals SET status = $4, disabled = $5, status_reason = $6, updated_at = $7, \
                 security_stamp = CASE WHEN $8 THEN $9 ELSE security_stamp END, status_by = $10 \
                 WHERE tenant_id = $1 AND id = $2 AND kind = 'user' AND status = $3",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .bind(from.as_str())
            .bind(to.as_str())
            .bind(blocked)
            .bind(reason)
            .bind(now)
            .bind(end)
            .bind(new_stamp)
            .bind(&actor.id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed == 0 {
                return Err(Error::rejected(ErrorCode::StateConflict, "the user changed meanwhile; try again"));
            }
            if end {
                revoke_refresh_tokens!(tx, id.get(), now);
            }
            let event = actor.event(
                &format!("user.{}", to.as_str()),
                format!("user:{id}"),
                json!({"from": from.as_str(), "to": to.as_str(), "reason": reason, "sessionsEnded": end}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            self.principals_changed();
            Ok(())
        })
    }

    /// Deletes a user: their personal data is erased (name, e-mail, numbers, dates; the
    /// signatures and events that name them keep what they recorded), they can never sign in
    /// again, and their id stays for the history.
    pub async fn erase_user(&self, tenant_id: TenantId, id: PrincipalId, new_stamp: &str, actor: &Actor) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let changed = sqlx::query(
                "UPDATE principals SET status = 'deleted', disabled = TRUE, secret_hash = '', security_stamp = $3, \
                 email = NULL, name = NULL, alternative_email = NULL, contact_number = NULL, organization = NULL, \
                 designation = NULL, national_id_last4 = NULL, national_id_digest = NULL, pan_number = NULL, \
                 dob = NULL, time_zone = NULL, profile_ref = NULL, status_reason = NULL, updated_at = $4 \
                 WHERE tenant_id = $1 AND id = $2 AND kind = 'user' AND status <> 'deleted'",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .bind(new_stamp)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed == 0 {
                return Err(Error::not_found("user"));
            }
            revoke_refresh_tokens!(tx, id.get(), now);
            sqlx::query("DELETE FROM password_links WHERE principal_id = $1")
                .bind(id.get())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            append_audit!(self, tx, tenant_id, &actor.event("user.deleted", format!("user:{id}"), json!({"erased": true})));
            tx.commit().await.map_err(db_err)?;
            self.principals_changed();
            Ok(())
        })
    }

    /// The tenant a principal belongs to.
    pub async fn tenant_of_principal(&self, id: PrincipalId) -> Result<Option<TenantId>> {
        let row: Option<(i64,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT tenant_id FROM principals WHERE id = $1")
                .bind(id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        Ok(row.map(|(id,)| TenantId::from(id)))
    }

    /// The stored last four digits and digest of a user's national id.
    pub async fn user_national_id(&self, tenant_id: TenantId, id: PrincipalId) -> Result<Option<(String, String)>> {
        let row: Option<(Option<String>, Option<String>)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT national_id_last4, national_id_digest FROM principals WHERE tenant_id = $1 AND id = $2 AND kind = 'user'",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        Ok(row.and_then(|(last4, digest)| last4.zip(digest)))
    }

    /// Workflows in progress that the user sent or still has to sign.
    pub async fn workflows_in_progress_of_user(&self, tenant_id: TenantId, id: PrincipalId) -> Result<Vec<WorkflowId>> {
        let rows: Vec<(i64,)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT w.id FROM workflows w WHERE w.tenant_id = $1 AND w.state = 'in_progress' AND \
                 (w.created_by = $2 OR EXISTS (SELECT 1 FROM signatories s WHERE s.workflow_id = w.id \
                  AND s.state IN ('pending', 'notified', 'viewed') AND (s.subscriber_id = $3 OR lower(s.email) = \
                  (SELECT lower(email) FROM principals p WHERE p.id = $3)))) ORDER BY w.id",
            )
            .bind(tenant_id.get())
            .bind(format!("user:{id}"))
            .bind(id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        Ok(rows.into_iter().map(|(id,)| WorkflowId::from(id)).collect())
    }

    /// Records a set-password link for a user (only the token's hash is kept); earlier unused
    /// links of the user stop working.
    pub async fn create_password_link(
        &self,
        tenant_id: TenantId,
        principal_id: PrincipalId,
        token_hash: &str,
        expires_at: Millis,
        actor: &Actor,
    ) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            sqlx::query("UPDATE password_links SET used_at = $2 WHERE principal_id = $1 AND used_at IS NULL")
                .bind(principal_id.get())
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            sqlx::query(
                "INSERT INTO password_links (token_hash, tenant_id, principal_id, expires_at, created_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(token_hash)
            .bind(tenant_id.get())
            .bind(principal_id.get())
            .bind(expires_at)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event("user.password_link_sent", format!("user:{principal_id}"), json!({"expiresAt": expires_at}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// The e-mail address of the user a live set-password link belongs to (the link is not
    /// spent): the password rules compare the password with it.
    pub async fn password_link_email(&self, token_hash: &str) -> Result<Option<String>> {
        let now = now_millis();
        let row: Option<(Option<String>,)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT p.email FROM password_links l JOIN principals p ON p.id = l.principal_id \
                 WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > $2",
            )
            .bind(token_hash)
            .bind(now)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        Ok(row.and_then(|(email,)| email))
    }

    /// Spends a set-password link and sets the password in one transaction: a link works once,
    /// before it expires, for a user who may sign in. Every earlier session ends.
    pub async fn set_password_with_link(
        &self,
        token_hash: &str,
        password_hash: &str,
        new_stamp: &str,
    ) -> Result<(TenantId, PrincipalId)> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let link: Option<(i64, i64)> = sqlx::query_as(
                "UPDATE password_links SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 \
                 RETURNING tenant_id, principal_id",
            )
            .bind(token_hash)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some((tenant_id, principal_id)) = link else {
                return Err(Error::rejected(ErrorCode::LinkExpired, "this link has expired or was already used"));
            };
            let principal_id = PrincipalId::from(principal_id);
            let changed = sqlx::query(
                "UPDATE principals SET secret_hash = $2, security_stamp = $3, updated_at = $4 \
                 WHERE id = $1 AND kind = 'user' AND status IN ('active', 'inactive', 'disabled')",
            )
            .bind(principal_id.get())
            .bind(password_hash)
            .bind(new_stamp)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed == 0 {
                return Err(Error::rejected(ErrorCode::LinkExpired, "this link has expired or was already used"));
            }
            revoke_refresh_tokens!(tx, principal_id.get(), now);
            let tenant_id = TenantId::from(tenant_id);
            let event = Actor { id: format!("user:{principal_id}"), ip: None }.event(
                "user.password_set",
                format!("user:{principal_id}"),
                json!({}),
            );
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            self.principals_changed();
            Ok((tenant_id, principal_id))
        })
    }
}

/// How a one-time sign-in code was received.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeUse {
    /// The code was right, in time and unused: it is now spent.
    Accepted,
    /// Wrong, expired, spent or out of attempts.
    Refused,
}

impl Store {
    /// Stores a user's new sign-in code (its hash), replacing any earlier one.
    pub async fn create_login_code(
        &self,
        tenant_id: TenantId,
        principal_id: PrincipalId,
        code_hash: &str,
        expires_at: Millis,
    ) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO login_codes (principal_id, tenant_id, code_hash, expires_at, attempts, used_at, created_at) \
                 VALUES ($1, $2, $3, $4, 0, NULL, $5) ON CONFLICT (principal_id) DO UPDATE SET code_hash = $3, \
                 expires_at = $4, attempts = 0, used_at = NULL, created_at = $5",
            )
            .bind(principal_id.get())
            .bind(tenant_id.get())
            .bind(code_hash)
            .bind(expires_at)
            .bind(now)
            .execute(pool)
            .await
            .map_err(db_err)?;
            Ok(())
        })
    }

    /// Spends a user's sign-in code if `code_hash` is it, it is unused, in time and within
    /// `max_attempts`; a wrong try counts as an attempt. One statement each, so concurrent
    /// tries cannot both succeed.
    pub async fn use_login_code(
        &self,
        principal_id: PrincipalId,
        code_hash: &str,
        max_attempts: i64,
    ) -> Result<CodeUse> {
        let now = now_millis();
        on_db!(self, pool => {
            let spent = sqlx::query(
                "UPDATE login_codes SET used_at = $3 WHERE principal_id = $1 AND code_hash = $2 AND used_at IS NULL \
                 AND expires_at > $3 AND attempts < $4",
            )
            .bind(principal_id.get())
            .bind(code_hash)
            .bind(now)
            .bind(max_attempts)
            .execute(pool)
            .await
            .map_err(db_err)?
            .rows_affected();
            if spent == 1 {
                return Ok(CodeUse::Accepted);
            }
            sqlx::query("UPDATE login_codes SET attempts = attempts + 1 WHERE principal_id = $1 AND used_at IS NULL")
                .bind(principal_id.get())
                .execute(pool)
                .await
                .map_err(db_err)?;
            Ok(CodeUse::Refused)
        })
    }
}

/// A change of a user's second factor: the sealed secret (none clears it), whether it is
/// confirmed, the last step used (the confirming code's), and the audit action.
#[derive(Debug, Clone, Copy)]
pub struct TotpChange<'a> {
    pub secret: Option<&'a [u8]>,
    pub enabled: bool,
    pub last_step: i64,
    pub action: &'a str,
}

/// A user's second factor as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TotpState {
    pub totp_secret: Option<Vec<u8>>,
    pub totp_enabled: bool,
    pub totp_last_step: i64,
}

impl Store {
    pub async fn totp_state(&self, principal_id: PrincipalId) -> Result<TotpState> {
        let row: Option<TotpState> = on_db!(self, pool => {
            sqlx::query_as("SELECT totp_secret, totp_enabled, totp_last_step FROM principals WHERE id = $1 AND kind = 'user'")
                .bind(principal_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        row.ok_or(Error::not_found("user"))
    }

    /// Sets or clears a user's second factor (audited as `change.action`).
    pub async fn set_totp(
        &self,
        tenant_id: TenantId,
        principal_id: PrincipalId,
        change: &TotpChange<'_>,
        actor: &Actor,
    ) -> Result<()> {
        let TotpChange { secret, enabled, last_step, action } = *change;
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let changed = sqlx::query(
                "UPDATE principals SET totp_secret = $3, totp_enabled = $4, totp_last_step = $5, updated_at = $6 \
                 WHERE tenant_id = $1 AND id = $2 AND kind = 'user'",
            )
            .bind(tenant_id.get())
            .bind(principal_id.get())
            .bind(secret)
            .bind(enabled)
            .bind(last_step)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed == 0 {
                return Err(Error::not_found("user"));
            }
            append_audit!(self, tx, tenant_id, &actor.event(action, format!("user:{principal_id}"), json!({})));
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Records that the code of `step` was used, if no later (or the same) step was: a
    /// compare-and-set, so a code works once even when sent twice at the same time.
    pub async fn use_totp_step(&self, principal_id: PrincipalId, step: i64) -> Result<bool> {
        on_db!(self, pool => {
            let changed = sqlx::query(
                "UPDATE principals SET totp_last_step = $2 WHERE id = $1 AND totp_enabled AND totp_last_step < $2",
            )
            .bind(principal_id.get())
            .bind(step)
            .execute(pool)
            .await
            .map_err(db_err)?
            .rows_affected();
            Ok(changed == 1)
        })
    }

    /// What the user is e-mailed about the workflows they send.
    pub async fn sender_notices(&self, tenant_id: TenantId, principal_id: PrincipalId) -> Result<SenderNotices> {
        let row: Option<(bool, bool, bool)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT notify_completed, notify_declined, notify_signed FROM principals \
                 WHERE tenant_id = $1 AND id = $2 AND kind = 'user'",
            )
            .bind(tenant_id.get())
            .bind(principal_id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        let (completed, declined, signed) = row.ok_or(Error::not_found("user"))?;
        Ok(SenderNotices { completed, declined, signed })
    }

    /// Keeps the user's choice of e-mails (audited as `user.notices_changed`).
    pub async fn set_sender_notices(
        &self,
        tenant_id: TenantId,
        principal_id: PrincipalId,
        notices: SenderNotices,
        actor: &Actor,
    ) -> Result<()> {
        let SenderNotices { completed, declined, signed } = notices;
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let changed = sqlx::query(
                "UPDATE principals SET notify_completed = $3, notify_declined = $4, notify_signed = $5, updated_at = $6 \
                 WHERE tenant_id = $1 AND id = $2 AND kind = 'user'",
            )
            .bind(tenant_id.get())
            .bind(principal_id.get())
            .bind(completed)
            .bind(declined)
            .bind(signed)
            .bind(now_millis())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed == 0 {
                return Err(Error::not_found("user"));
            }
            let detail = json!({"completed": completed, "declined": declined, "signed": signed});
            append_audit!(self, tx, tenant_id, &actor.event("user.notices_changed", format!("user:{principal_id}"), detail));
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }
}
