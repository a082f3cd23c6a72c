//! The signatories of a workflow: their rows, the signer page's view, and signer links
//! (rotated by bumping `link_version`). Their turn-taking transitions are in `signing`.

use serde_json::json;
use signet_domain::audit::{Actor, WorkflowEventKind};
use signet_domain::embedding::EmbedOrigin;
use signet_domain::placement::Placement;
use signet_domain::workflow::{PlannedSignatory, SignatoryState, WorkflowState};
use signet_domain::{Error, ErrorCode, Millis, SignatoryId, TenantId, WorkflowId, now_millis};

use super::events::append_event;
use super::row::{WorkflowRow, lock_workflow, not_found_workflow};
use crate::{Result, Store, db_err, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SignatoryRow {
    #[sqlx(try_from = "i64")]
    pub id: SignatoryId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    #[sqlx(try_from = "i64")]
    pub workflow_id: WorkflowId,
    pub subscriber_id: i64,
    pub email: String,
    pub name: String,
    pub signing_order: i64,
    #[sqlx(try_from = "String")]
    pub state: SignatoryState,
    pub link_version: i64,
    pub link_expires_at: Millis,
    /// Parsed once here, tolerantly (see [`Placement::from_stored`]).
    #[sqlx(try_from = "String")]
    pub placement: Placement,
    #[sqlx(try_from = "crate::NullableId")]
    pub delegated_from: Option<SignatoryId>,
    pub reason: Option<String>,
    pub method: Option<String>,
    #[sqlx(try_from = "String")]
    pub signature_mode: signet_domain::workflow::SignatureMode,
    pub notified_at: Option<Millis>,
    pub viewed_at: Option<Millis>,
    pub signed_at: Option<Millis>,
    pub last_reminded_at: Option<Millis>,
    pub created_at: Millis,
    pub updated_at: Millis,
    /// The mobile number invitations and reminders are texted to (E.164), when given.
    pub mobile: Option<String>,
    /// The signer must confirm a code texted to `mobile` before any signature of theirs.
    pub otp_sms: bool,
}

impl SignatoryRow {
    pub fn state(&self) -> SignatoryState {
        self.state
    }

    /// The signatory's mobile number, checked again on the way out (a stored value that does
    /// not pass counts as none).
    pub fn mobile(&self) -> Option<signet_domain::phone::PhoneNumber> {
        self.mobile.as_deref().and_then(|m| signet_domain::phone::PhoneNumber::parse(m).ok())
    }
}

pub(super) const SIGNATORY_COLUMNS: &str = "id, tenant_id, workflow_id, subscriber_id, email, name, signing_order, \
    state, link_version, link_expires_at, placement, delegated_from, reason, method, signature_mode, notified_at, viewed_at, \
    signed_at, last_reminded_at, created_at, updated_at, mobile, otp_sms";

/// A signatory to create, with where their signature goes.
pub struct NewSignatory {
    pub planned: PlannedSignatory,
    pub placement: Placement,
}

/// The detail of a `signatory.notified` event.
pub(super) fn notified_detail(row: &SignatoryRow) -> serde_json::Value {
    json!({"email": &row.email, "name": &row.name, "signingOrder": row.signing_order})
}

/// Creates a new workflow's signatories and evaluates to their rows: the first group is
/// notified at once (with a `signatory.notified` event each), the others wait as pending.
macro_rules! insert_signatories {
    ($store:expr, $tx:expr, $tenant_id:expr, $signatories:expr, $link_expires_at:expr, $workflow_id:expr, $first_order:expr, $actor:expr, $now:expr) => {{
        use $crate::workflows::signatories::{NewSignatory, SIGNATORY_COLUMNS, SignatoryRow, notified_detail};
        let (tenant_id, signatories): (signet_domain::TenantId, &[NewSignatory]) = ($tenant_id, $signatories);
        let link_expires_at: signet_domain::Millis = $link_expires_at;
        let insert = format!(
            "INSERT INTO signatories (tenant_id, workflow_id, subscriber_id, email, name, signing_order, state, \
             link_expires_at, placement, notified_at, created_at, updated_at, signature_mode, mobile, otp_sms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13, $14) RETURNING {SIGNATORY_COLUMNS}"
        );
        let mut rows: Vec<SignatoryRow> = Vec::with_capacity(signatories.len());
        for s in signatories {
            let first = s.planned.signing_order == $first_order;
            let state = if first {
                signet_domain::workflow::SignatoryState::Notified
            } else {
                signet_domain::workflow::SignatoryState::Pending
            };
            let placement = serde_json::to_string(&s.placement)?;
            let row: SignatoryRow = sqlx::query_as(sqlx::AssertSqlSafe(insert.as_str()))
                .bind(tenant_id.get())
                .bind(signet_domain::WorkflowId::get($workflow_id))
                .bind(s.planned.subscriber_id)
                .bind(&s.planned.email)
                .bind(&s.planned.name)
                .bind(s.planned.signing_order)
                .bind(state.as_str())
                .bind(link_expires_at)
                .bind(&placement)
                .bind(first.then_some($now))
                .bind($now)
                .bind(s.planned.mode.as_str())
                .bind(s.planned.mobile.as_ref().map(|m| m.e164().to_string()))
                .bind(s.planned.otp_sms)
                .fetch_one(&mut *$tx)
                .await
                .map_err($crate::db_err)?;
            if first {
                let notified = $actor.workflow_event(
                    signet_domain::audit::WorkflowEventKind::SignatoryNotified,
                    format!("signatory:{}", row.id),
                    notified_detail(&row),
                );
                $crate::workflows::events::append_event!($store, $tx, tenant_id, $workflow_id, &notified);
            }
            rows.push(row);
        }
        rows
    }};
}
pub(super) use insert_signatories;

impl Store {
    /// The workflow's signatories in their order.
    pub async fn signatories(&self, workflow: &WorkflowRow) -> Result<Vec<SignatoryRow>> {
        let sql =
            format!("SELECT {SIGNATORY_COLUMNS} FROM signatories WHERE workflow_id = $1 ORDER BY signing_order, id");
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(workflow.id.get()).fetch_all(pool).await.map_err(db_err)
        })
    }

    /// The signatories whose turn it is in the tenant's workflows `ids` (at most 100 ids), in
    /// their workflows' order: whom each workflow waits for.
    pub async fn waiting_signatories(&self, tenant_id: TenantId, ids: &[WorkflowId]) -> Result<Vec<SignatoryRow>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        if ids.len() > 100 {
            return Err(Error::internal("at most 100 workflows at once"));
        }
        // The SQL is made of constants and numbered placeholders only; every value is bound.
        let placeholders: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 4)).collect();
        let sql = format!(
            "SELECT {SIGNATORY_COLUMNS} FROM signatories WHERE tenant_id = $1 AND state IN ($2, $3) \
             AND workflow_id IN ({}) ORDER BY workflow_id, signing_order, id",
            placeholders.join(", ")
        );
        let [notified, viewed] = SignatoryState::TURN;
        on_db!(self, pool => {
            let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(tenant_id.get())
                .bind(notified.as_str())
                .bind(viewed.as_str());
            for id in ids {
                query = query.bind(id.get());
            }
            query.fetch_all(pool).await.map_err(db_err)
        })
    }

    /// The signatures due now from `email` in the tenant's workflows in progress (the console's
    /// inbox), oldest first, with their workflows; at most 200.
    pub async fn due_signatories(&self, tenant_id: TenantId, email: &str) -> Result<Vec<(SignatoryRow, WorkflowRow)>> {
        let sql = format!(
            "SELECT {SIGNATORY_COLUMNS} FROM signatories WHERE tenant_id = $1 AND lower(email) = lower($2) \
             AND state IN ('notified', 'viewed') ORDER BY id LIMIT 200"
        );
        let rows: Vec<SignatoryRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(tenant_id.get()).bind(email).fetch_all(pool).await.map_err(db_err)?
        });
        let mut due = Vec::with_capacity(rows.len());
        for row in rows {
            let workflow = self.workflow(row.tenant_id, row.workflow_id).await?.ok_or_else(not_found_workflow)?;
            if workflow.state() == signet_domain::workflow::WorkflowState::InProgress {
                due.push((row, workflow));
            }
        }
        Ok(due)
    }

    /// A signatory by id, with their workflow (for the signer page, which has no tenant yet).
    pub async fn signatory(&self, id: SignatoryId) -> Result<Option<(SignatoryRow, WorkflowRow)>> {
        let sql = format!("SELECT {SIGNATORY_COLUMNS} FROM signatories WHERE id = $1");
        let row: Option<SignatoryRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(id.get()).fetch_optional(pool).await.map_err(db_err)?
        });
        let Some(row) = row else { return Ok(None) };
        let workflow = self.workflow(row.tenant_id, row.workflow_id).await?.ok_or_else(not_found_workflow)?;
        Ok(Some((row, workflow)))
    }

    /// Records that the signatory opened the page (notified -> viewed); a no-op otherwise.
    pub async fn mark_viewed(&self, signatory: &SignatoryRow, actor: &Actor, detail: serde_json::Value) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let changed = sqlx::query(
                "UPDATE signatories SET state = $3, viewed_at = $2, updated_at = $2 WHERE id = $1 AND state = $4",
            )
            .bind(signatory.id.get())
            .bind(now)
            .bind(SignatoryState::Viewed.as_str())
            .bind(SignatoryState::Notified.as_str())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed == 1 {
                let event = actor.workflow_event(WorkflowEventKind::SignatoryViewed, format!("signatory:{}", signatory.id), detail);
                append_event!(self, tx, signatory.tenant_id, signatory.workflow_id, &event);
            }
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// A reminder now, the link unchanged: a `signatory.reminded` event (which e-mails them when
    /// the workflow sends e-mail), and the automatic reminders count from now. Refused when it
    /// is not their turn, or they were e-mailed too recently
    /// ([`signet_domain::workflow::may_remind_by_hand`]), both checked under the workflow's lock.
    pub async fn remind_signatory(
        &self,
        tenant_id: TenantId,
        workflow_id: WorkflowId,
        signatory_id: SignatoryId,
        actor: &Actor,
    ) -> Result<SignatoryRow> {
        let now = now_millis();
        let select = format!(
            "SELECT {SIGNATORY_COLUMNS} FROM signatories WHERE id = $1 AND workflow_id = $2 AND tenant_id = $3"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, tenant_id, workflow_id);
            if workflow.state() != WorkflowState::InProgress {
                return Err(Error::rejected(ErrorCode::StateConflict, format!("the workflow is {}", workflow.state)));
            }
            let row: Option<SignatoryRow> = sqlx::query_as(sqlx::AssertSqlSafe(select.as_str()))
                .bind(signatory_id.get())
                .bind(workflow_id.get())
                .bind(tenant_id.get())
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            let row = row.ok_or_else(|| Error::not_found("signatory"))?;
            if !row.state().is_turn() {
                return Err(Error::rejected(ErrorCode::StateConflict, "it is not this signatory's turn to sign"));
            }
            let last = row.last_reminded_at.or(row.notified_at).unwrap_or(row.created_at);
            if !signet_domain::workflow::may_remind_by_hand(last, now) {
                return Err(Error::rejected(
                    ErrorCode::StateConflict,
                    format!(
                        "this signatory was sent their link less than {} minutes ago",
                        signet_domain::workflow::REMINDER_GAP_MS / 60_000
                    ),
                ));
            }
            sqlx::query("UPDATE signatories SET last_reminded_at = $2 WHERE id = $1")
                .bind(row.id.get())
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.workflow_event(WorkflowEventKind::SignatoryReminded, format!("signatory:{}", row.id), json!({"byHand": true}));
            append_event!(self, tx, tenant_id, workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(SignatoryRow { last_reminded_at: Some(now), ..row })
        })
    }

    /// Records that the sender took a due signatory's link to hand it over themselves (copied
    /// from the console), or, `embedded_in` an origin, to show the page in their application:
    /// the link is unchanged, and the trail says who took it, when and for where.
    pub async fn hand_out_signer_link(
        &self,
        tenant_id: TenantId,
        workflow_id: WorkflowId,
        signatory_id: SignatoryId,
        actor: &Actor,
        embedded_in: Option<&EmbedOrigin>,
    ) -> Result<SignatoryRow> {
        let select = format!(
            "SELECT {SIGNATORY_COLUMNS} FROM signatories WHERE id = $1 AND workflow_id = $2 AND tenant_id = $3"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, tenant_id, workflow_id);
            if workflow.state() != WorkflowState::InProgress {
                return Err(Error::rejected(ErrorCode::StateConflict, format!("the workflow is {}", workflow.state)));
            }
            let row: Option<SignatoryRow> = sqlx::query_as(sqlx::AssertSqlSafe(select.as_str()))
                .bind(signatory_id.get())
                .bind(workflow_id.get())
                .bind(tenant_id.get())
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            let row = row.ok_or_else(|| Error::not_found("signatory"))?;
            if !row.state().is_turn() {
                return Err(Error::rejected(ErrorCode::StateConflict, "it is not this signatory's turn to sign"));
            }
            let event = match embedded_in {
                None => actor.workflow_event(
                    WorkflowEventKind::LinkHandedOut,
                    format!("signatory:{}", row.id),
                    json!({"linkVersion": row.link_version}),
                ),
                Some(origin) => actor.workflow_event(
                    WorkflowEventKind::LinkEmbedded,
                    format!("signatory:{}", row.id),
                    json!({"linkVersion": row.link_version, "origin": origin.as_str()}),
                ),
            };
            append_event!(self, tx, tenant_id, workflow_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// Revokes a signatory's link by bumping its version (every earlier link stops working)
    /// and sets a new expiry; when it is the signatory's turn a `signatory.reminded` event
    /// follows, which e-mails them the new link if the workflow sends e-mail.
    pub async fn rotate_signer_link(
        &self,
        tenant_id: TenantId,
        workflow_id: WorkflowId,
        signatory_id: SignatoryId,
        link_expires_at: Millis,
        actor: &Actor,
    ) -> Result<SignatoryRow> {
        let now = now_millis();
        let sql = format!(
            "UPDATE signatories SET link_version = link_version + 1, link_expires_at = $4, updated_at = $5 \
             WHERE id = $1 AND workflow_id = $2 AND tenant_id = $3 RETURNING {SIGNATORY_COLUMNS}"
        );
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, tenant_id, workflow_id);
            if workflow.state() != WorkflowState::InProgress {
                return Err(Error::rejected(ErrorCode::StateConflict, format!("the workflow is {}", workflow.state)));
            }
            let row: Option<SignatoryRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(signatory_id.get())
                .bind(workflow_id.get())
                .bind(tenant_id.get())
                .bind(link_expires_at)
                .bind(now)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            let row = row.ok_or_else(|| Error::not_found("signatory"))?;
            if row.state().is_final() {
                return Err(Error::rejected(ErrorCode::StateConflict, "this signatory has nothing left to do"));
            }
            let subject = format!("signatory:{}", row.id);
            let revoked = actor.workflow_event(WorkflowEventKind::LinkRevoked, subject.clone(), json!({"linkVersion": row.link_version}));
            append_event!(self, tx, tenant_id, workflow_id, &revoked);
            if row.state().is_turn() {
                let resent = actor.workflow_event(WorkflowEventKind::SignatoryReminded, subject, json!({"newLink": true}));
                append_event!(self, tx, tenant_id, workflow_id, &resent);
            }
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }
}
