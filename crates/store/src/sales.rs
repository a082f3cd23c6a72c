//! Customer referrals and CRM leads with their outbox (docs/api.md, "Referrals and CRM leads").
//!
//! Writes that read before they write (is this person referred already? which lead does this
//! upsert change?) take the tenant's lock first, so concurrent requests on any instance see
//! each other's rows; the unique indexes (`referrals_tenant_email`, `referrals_tenant_mobile`,
//! `crm_leads_tenant_key`) hold the same rules should anything write without it.
//!
//! A lead's client address is a personal field sealed at rest ([`LEAD_IP_COLUMN`]): it is shown
//! and pushed to the CRM, never searched by (the e-mail and mobile a lead is matched and searched
//! by are not sealed).

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::job::JobKind;
use signet_domain::sales::{Lead, LeadMatch, PushOutcome, Referral};
use signet_domain::{Error, ErrorCode, LeadId, Millis, ReferralId, TenantId, now_millis};

use crate::{NewJob, Result, Store, append_audit, db_err, on_db};

/// Attempts of a push: the outbound policy's, spanning more than a day of the CRM's outage.
const PUSH_ATTEMPTS: i64 = JobKind::CrmPush.retry_policy().attempts;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReferralRow {
    #[sqlx(try_from = "i64")]
    pub id: ReferralId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub referrer_name: String,
    pub referrer_mobile: String,
    pub referrer_email: String,
    pub referral_name: String,
    pub referral_mobile: String,
    pub referral_email: String,
    pub created_by: String,
    pub created_at: Millis,
}

const REFERRAL_COLUMNS: &str = "id, tenant_id, referrer_name, referrer_mobile, referrer_email, referral_name, \
    referral_mobile, referral_email, created_by, created_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LeadRow {
    #[sqlx(try_from = "i64")]
    pub id: LeadId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub lead_key: Option<String>,
    pub visitor_id: Option<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    pub mobile: Option<String>,
    pub dialcode: Option<String>,
    pub plan_name: Option<String>,
    pub billing_cycle: Option<String>,
    pub subscription_mode: Option<String>,
    pub currency: Option<String>,
    pub state: Option<String>,
    pub partner_referral_code: Option<String>,
    pub client_ip: Option<String>,
    pub user_agent: Option<String>,
    pub plan_id: i64,
    pub amount: f64,
    pub num_users: Option<i64>,
    pub num_envelopes: Option<i64>,
    pub version: i64,
    pub push_state: String,
    pub push_stage: Option<String>,
    pub push_success: Option<bool>,
    pub crm_lead_id: Option<String>,
    pub push_error: Option<String>,
    pub pushed_at: Option<Millis>,
    pub created_at: Millis,
    pub updated_at: Millis,
}

/// The client address a lead was captured from, sealed (`crate::fields`).
pub(crate) const LEAD_IP_COLUMN: &str = "crm_leads.client_ip";

const LEAD_COLUMNS: &str = "id, tenant_id, lead_key, visitor_id, name, email, mobile, dialcode, plan_name, \
    billing_cycle, subscription_mode, currency, state, partner_referral_code, client_ip, user_agent, plan_id, \
    amount, num_users, num_envelopes, version, push_state, push_stage, push_success, crm_lead_id, push_error, \
    pushed_at, created_at, updated_at";

/// The lead fields an upsert writes, in bind order from `$3` (after tenant and time).
const LEAD_FIELDS: &str = "lead_key, visitor_id, name, email, email_key, mobile, dialcode, plan_name, billing_cycle, \
    subscription_mode, currency, state, partner_referral_code, client_ip, user_agent, plan_id, amount, num_users, \
    num_envelopes";

/// The tenant's CRM endpoint.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CrmSettingsRow {
    pub url: String,
    pub secret: String,
    pub updated_at: Millis,
}

/// Which leads a listing shows.
#[derive(Debug, Clone, Default)]
pub struct LeadFilter {
    /// `pending` (the outbox), `pushed` or `failed`.
    pub push_state: Option<String>,
    /// A case-insensitive substring of the key, name, e-mail or mobile.
    pub search: Option<String>,
}

/// Inserts a job inside the transaction `$tx` (so it exists exactly when the change does).
macro_rules! insert_job {
    ($tx:expr, $job:expr) => {{
        let job: &NewJob = $job;
        sqlx::query(
            "INSERT INTO jobs (kind, payload, dedupe_key, state, run_at, max_attempts, created_at, tenant_id) \
             VALUES ($1, $2, $3, 'ready', $4, $5, $6, $7) ON CONFLICT (dedupe_key) DO NOTHING",
        )
        .bind(job.kind.as_str())
        .bind(job.payload.to_string())
        .bind(&job.dedupe_key)
        .bind(job.run_at)
        .bind(job.max_attempts)
        .bind(now_millis())
        .bind(job.tenant.map(signet_domain::TenantId::get))
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
    }};
}

pub(crate) use insert_job;

/// The push job of one version of a lead.
fn push_job(tenant_id: TenantId, lead_id: LeadId, version: i64, dedupe: bool) -> NewJob {
    NewJob {
        tenant: Some(tenant_id),
        kind: JobKind::CrmPush,
        payload: json!({"leadId": lead_id, "version": version}),
        dedupe_key: dedupe.then(|| format!("{}:{lead_id}:{version}", JobKind::CrmPush)),
        run_at: now_millis(),
        max_attempts: PUSH_ATTEMPTS,
    }
}

impl Store {
    /// Records a referral with the job of the referrer's confirmation e-mail, unless the
    /// referred person is already referred in the tenant (same lower-cased e-mail or mobile
    /// number): then 409 `conflict` naming the earlier referral.
    pub async fn create_referral(
        &self,
        tenant_id: TenantId,
        referral: &Referral,
        notice: impl FnOnce(ReferralId) -> NewJob,
        actor: &Actor,
    ) -> Result<ReferralRow> {
        let email_key = referral.referral_email_key();
        let insert = format!(
            "INSERT INTO referrals (tenant_id, referrer_name, referrer_mobile, referrer_email, referral_name, \
             referral_mobile, referral_email, referral_email_key, created_by, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING {REFERRAL_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let earlier: Option<(i64,)> = sqlx::query_as(
                "SELECT id FROM referrals WHERE tenant_id = $1 AND (referral_email_key = $2 OR referral_mobile = $3) \
                 ORDER BY id LIMIT 1",
            )
            .bind(tenant_id.get())
            .bind(&email_key)
            .bind(&referral.referral_mobile)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            if let Some((id,)) = earlier {
                return Err(Error::rejected(
                    ErrorCode::Conflict,
                    format!("this person was already referred (referral {id}, same e-mail or mobile); nothing was recorded"),
                ));
            }
            let row: ReferralRow = sqlx::query_as(sqlx::AssertSqlSafe(insert.as_str()))
                .bind(tenant_id.get())
                .bind(&referral.referrer_name)
                .bind(&referral.referrer_mobile)
                .bind(&referral.referrer_email)
                .bind(&referral.referral_name)
                .bind(&referral.referral_mobile)
                .bind(&referral.referral_email)
                .bind(&email_key)
                .bind(&actor.id)
                .bind(now_millis())
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            insert_job!(tx, &notice(row.id));
            append_audit!(self, tx, tenant_id, &actor.event("referral.created", format!("referral:{}", row.id), json!({})));
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// A page of the tenant's referrals, newest first; `search` is a case-insensitive
    /// substring of either name, address or mobile.
    pub async fn referrals(
        &self,
        tenant_id: TenantId,
        search: Option<&str>,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<ReferralRow>, i64)> {
        let pattern = search.map(signet_domain::paging::contains_pattern);
        let filter = "tenant_id = $1 AND ($2 IS NULL OR lower(referrer_name) LIKE $2 ESCAPE '\\' \
             OR lower(referrer_email) LIKE $2 ESCAPE '\\' OR referrer_mobile LIKE $2 ESCAPE '\\' \
             OR lower(referral_name) LIKE $2 ESCAPE '\\' OR referral_email_key LIKE $2 ESCAPE '\\' \
             OR referral_mobile LIKE $2 ESCAPE '\\')";
        let list =
            format!("SELECT {REFERRAL_COLUMNS} FROM referrals WHERE {filter} ORDER BY id DESC LIMIT $3 OFFSET $4");
        let count = format!("SELECT COUNT(*) FROM referrals WHERE {filter}");
        on_db!(self, pool => {
            let rows: Vec<ReferralRow> = sqlx::query_as(sqlx::AssertSqlSafe(list.as_str()))
                .bind(tenant_id.get())
                .bind(&pattern)
                .bind(limit)
                .bind(offset)
                .fetch_all(pool)
                .await
                .map_err(db_err)?;
            let (total,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(count.as_str()))
                .bind(tenant_id.get())
                .bind(&pattern)
                .fetch_one(pool)
                .await
                .map_err(db_err)?;
            Ok((rows, total))
        })
    }

    /// One referral of the tenant (another tenant's id is not found).
    pub async fn referral(&self, tenant_id: TenantId, id: ReferralId) -> Result<Option<ReferralRow>> {
        let sql = format!("SELECT {REFERRAL_COLUMNS} FROM referrals WHERE tenant_id = $1 AND id = $2");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Creates or changes a lead (`how` says which one, see `LeadMatch`) and puts the new
    /// version in the outbox with its push job. Answers the lead and whether it is new.
    pub async fn upsert_lead(
        &self,
        tenant_id: TenantId,
        lead: &Lead,
        how: &LeadMatch,
        actor: &Actor,
    ) -> Result<(LeadRow, bool)> {
        let email_key = lead.email_key();
        // Sealed before the transaction: a first data key is written to the database.
        let client_ip = self.seal_field(tenant_id.get(), LEAD_IP_COLUMN, lead.client_ip.as_deref()).await?;
        let by_key = "SELECT id FROM crm_leads WHERE tenant_id = $1 AND lead_key = $2";
        // Contact matches prefer the most recently changed lead; with a key, only leads
        // without one may be taken over (a lead never changes its key).
        let by_contact = |keyless: bool| {
            format!(
                "SELECT id FROM crm_leads WHERE tenant_id = $1 AND (email_key = $2 OR mobile = $3){} \
                 ORDER BY updated_at DESC, id DESC LIMIT 1",
                if keyless { " AND lead_key IS NULL" } else { "" }
            )
        };
        let placeholders: Vec<String> = (3..=21).map(|i| format!("${i}")).collect();
        let insert = format!(
            "INSERT INTO crm_leads (tenant_id, created_at, updated_at, version, push_state, {LEAD_FIELDS}) \
             VALUES ($1, $2, $2, 1, 'pending', {}) RETURNING {LEAD_COLUMNS}",
            placeholders.join(", ")
        );
        let sets: Vec<String> =
            LEAD_FIELDS.split(',').map(str::trim).zip(3..).map(|(field, i)| format!("{field} = ${i}")).collect();
        // A field left out keeps its value: `COALESCE(new, old)` (the numbers that are not
        // nullable in the request always come, so they are always written).
        let sets: Vec<String> = sets
            .into_iter()
            .map(|set| {
                let (field, value) = set.split_once(" = ").unwrap_or((&set, ""));
                if matches!(field, "plan_id" | "amount") {
                    set.clone()
                } else {
                    format!("{field} = COALESCE({value}, {field})")
                }
            })
            .collect();
        let update = format!(
            "UPDATE crm_leads SET {}, updated_at = $2, version = version + 1, push_state = 'pending' \
             WHERE tenant_id = $1 AND id = $22 RETURNING {LEAD_COLUMNS}",
            sets.join(", ")
        );
        let (row, created) = on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let mut found: Option<(i64,)> = None;
            let (key, contact) = match how {
                LeadMatch::Key { key, by_contact } => (Some(key.as_str()), *by_contact),
                LeadMatch::Contact => (None, true),
            };
            if let Some(key) = key {
                found = sqlx::query_as(by_key).bind(tenant_id.get()).bind(key).fetch_optional(&mut *tx).await.map_err(db_err)?;
            }
            if found.is_none() && contact && (email_key.is_some() || lead.mobile.is_some()) {
                let sql = by_contact(key.is_some());
                found = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                    .bind(tenant_id.get())
                    .bind(&email_key)
                    .bind(&lead.mobile)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
            let sql = if found.is_some() { update.as_str() } else { insert.as_str() };
            let query = sqlx::query_as::<_, LeadRow>(sqlx::AssertSqlSafe(sql))
                .bind(tenant_id.get())
                .bind(now_millis())
                .bind(&lead.lead_key)
                .bind(&lead.visitor_id)
                .bind(&lead.name)
                .bind(&lead.email)
                .bind(&email_key)
                .bind(&lead.mobile)
                .bind(&lead.dialcode)
                .bind(&lead.plan_name)
                .bind(&lead.billing_cycle)
                .bind(&lead.subscription_mode)
                .bind(&lead.currency)
                .bind(&lead.state)
                .bind(&lead.partner_referral_code)
                .bind(&client_ip)
                .bind(&lead.user_agent)
                .bind(lead.plan_id)
                .bind(lead.amount)
                .bind(lead.num_users)
                .bind(lead.num_envelopes);
            // Only the update names the row (`$22`); PostgreSQL refuses unused parameters.
            let query = match found {
                Some((id,)) => query.bind(id),
                None => query,
            };
            let row = query
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            insert_job!(tx, &push_job(tenant_id, row.id, row.version, true));
            let action = if found.is_some() { "crm.lead_updated" } else { "crm.lead_created" };
            append_audit!(self, tx, tenant_id, &actor.event(action, format!("lead:{}", row.id), json!({"version": row.version})));
            tx.commit().await.map_err(db_err)?;
            Ok::<_, Error>((row, found.is_none()))
        })?;
        Ok((self.opened_lead(row).await?, created))
    }

    /// A lead as read, its client address opened.
    async fn opened_lead(&self, mut row: LeadRow) -> Result<LeadRow> {
        row.client_ip = self.open_field(row.tenant_id.get(), LEAD_IP_COLUMN, row.client_ip.take()).await?;
        Ok(row)
    }

    /// A page of the tenant's leads, most recently changed first.
    pub async fn leads(
        &self,
        tenant_id: TenantId,
        filter: &LeadFilter,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<LeadRow>, i64)> {
        let pattern = filter.search.as_deref().map(signet_domain::paging::contains_pattern);
        let condition = "tenant_id = $1 AND ($2 IS NULL OR push_state = $2) AND ($3 IS NULL \
             OR lower(lead_key) LIKE $3 ESCAPE '\\' OR lower(name) LIKE $3 ESCAPE '\\' \
             OR email_key LIKE $3 ESCAPE '\\' OR mobile LIKE $3 ESCAPE '\\')";
        let list = format!(
            "SELECT {LEAD_COLUMNS} FROM crm_leads WHERE {condition} ORDER BY updated_at DESC, id DESC LIMIT $4 OFFSET $5"
        );
        let count = format!("SELECT COUNT(*) FROM crm_leads WHERE {condition}");
        let (rows, total) = on_db!(self, pool => {
            let rows: Vec<LeadRow> = sqlx::query_as(sqlx::AssertSqlSafe(list.as_str()))
                .bind(tenant_id.get())
                .bind(&filter.push_state)
                .bind(&pattern)
                .bind(limit)
                .bind(offset)
                .fetch_all(pool)
                .await
                .map_err(db_err)?;
            let (total,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(count.as_str()))
                .bind(tenant_id.get())
                .bind(&filter.push_state)
                .bind(&pattern)
                .fetch_one(pool)
                .await
                .map_err(db_err)?;
            Ok::<_, Error>((rows, total))
        })?;
        let mut opened = Vec::with_capacity(rows.len());
        for row in rows {
            opened.push(self.opened_lead(row).await?);
        }
        Ok((opened, total))
    }

    /// One lead of the tenant (another tenant's id is not found).
    pub async fn lead(&self, tenant_id: TenantId, id: LeadId) -> Result<Option<LeadRow>> {
        let sql = format!("SELECT {LEAD_COLUMNS} FROM crm_leads WHERE tenant_id = $1 AND id = $2");
        let row: Option<LeadRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id.get()).bind(id.get()).fetch_optional(pool).await.map_err(db_err)?
        });
        match row {
            Some(row) => Ok(Some(self.opened_lead(row).await?)),
            None => Ok(None),
        }
    }

    /// A lead with its tenant's CRM endpoint, for the push job.
    pub async fn lead_for_push(&self, id: LeadId) -> Result<Option<(LeadRow, Option<CrmSettingsRow>)>> {
        let sql = format!("SELECT {LEAD_COLUMNS} FROM crm_leads WHERE id = $1");
        let lead: Option<LeadRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(id.get()).fetch_optional(pool).await.map_err(db_err)?
        });
        let Some(lead) = lead else { return Ok(None) };
        let lead = self.opened_lead(lead).await?;
        let settings = self.crm_settings(lead.tenant_id).await?;
        Ok(Some((lead, settings)))
    }

    /// Records the push job's outcome for `version` of a lead (a newer version has its own
    /// job and keeps its outbox state): `pushed`, `failed` for good, or still `pending` with
    /// the last error while retries remain.
    pub async fn record_push(&self, lead_id: LeadId, version: i64, state: &str, error: Option<&str>) -> Result<()> {
        let success = state == "pushed";
        on_db!(self, pool => {
            sqlx::query(
                "UPDATE crm_leads SET push_state = $3, push_stage = 'outbox', push_success = $4, push_error = $5, \
                 pushed_at = CASE WHEN $4 THEN $6 ELSE pushed_at END WHERE id = $1 AND version = $2",
            )
            .bind(lead_id.get())
            .bind(version)
            .bind(state)
            .bind(success)
            .bind(error)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?;
        });
        Ok(())
    }

    /// Records the outcome of a push made outside Signet (`CrmLeadMarkPushedRequest`): the lead
    /// leaves the outbox as `pushed` or `failed`. 404 for a key the tenant has no lead with.
    pub async fn mark_lead_pushed(&self, tenant_id: TenantId, outcome: &PushOutcome, actor: &Actor) -> Result<LeadRow> {
        let sql = format!(
            "UPDATE crm_leads SET push_state = $3, push_stage = $4, push_success = $5, crm_lead_id = COALESCE($6, crm_lead_id), \
             push_error = $7, pushed_at = CASE WHEN $5 THEN $8 ELSE pushed_at END \
             WHERE tenant_id = $1 AND lead_key = $2 RETURNING {LEAD_COLUMNS}"
        );
        let state = if outcome.success { "pushed" } else { "failed" };
        let row: LeadRow = on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let row: Option<LeadRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(&outcome.lead_key)
                .bind(state)
                .bind(&outcome.stage)
                .bind(outcome.success)
                .bind(&outcome.crm_lead_id)
                .bind(&outcome.error_message)
                .bind(now_millis())
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            let row = row.ok_or(Error::not_found("lead"))?;
            let detail = json!({"stage": outcome.stage, "success": outcome.success, "crmLeadId": outcome.crm_lead_id});
            append_audit!(self, tx, tenant_id, &actor.event("crm.lead_pushed", format!("lead:{}", row.id), detail));
            tx.commit().await.map_err(db_err)?;
            Ok::<_, Error>(row)
        })?;
        self.opened_lead(row).await
    }

    pub async fn crm_settings(&self, tenant_id: TenantId) -> Result<Option<CrmSettingsRow>> {
        on_db!(self, pool => {
            sqlx::query_as("SELECT url, secret, updated_at FROM crm_settings WHERE tenant_id = $1")
                .bind(tenant_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// Sets the tenant's CRM endpoint (`None`: no pushes) and queues a push of every lead in
    /// the outbox to the new endpoint.
    pub async fn set_crm_settings(
        &self,
        tenant_id: TenantId,
        endpoint: Option<(&str, &str)>,
        actor: &Actor,
    ) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            match endpoint {
                Some((url, secret)) => {
                    sqlx::query(
                        "INSERT INTO crm_settings (tenant_id, url, secret, updated_at) VALUES ($1, $2, $3, $4) \
                         ON CONFLICT (tenant_id) DO UPDATE SET url = $2, secret = $3, updated_at = $4",
                    )
                    .bind(tenant_id.get())
                    .bind(url)
                    .bind(secret)
                    .bind(now_millis())
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
                    let pending: Vec<(i64, i64)> =
                        sqlx::query_as("SELECT id, version FROM crm_leads WHERE tenant_id = $1 AND push_state = 'pending'")
                            .bind(tenant_id.get())
                            .fetch_all(&mut *tx)
                            .await
                            .map_err(db_err)?;
                    for (id, version) in pending {
                        insert_job!(tx, &push_job(tenant_id, LeadId::from(id), version, false));
                    }
                }
                None => {
                    sqlx::query("DELETE FROM crm_settings WHERE tenant_id = $1")
                        .bind(tenant_id.get())
                        .execute(&mut *tx)
                        .await
                        .map_err(db_err)?;
                }
            }
            let url = endpoint.map(|(url, _)| url);
            append_audit!(self, tx, tenant_id, &actor.event("crm.settings_changed", "crm".to_string(), json!({"url": url})));
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }
}
