//! The turn-taking transitions of signatories, each under the workflow's row lock: a
//! signature (which advances the documents' versions, then notifies the next group or
//! completes the workflow), a decline (which ends the workflow) and a delegation (someone
//! else takes the place in the order).

use serde_json::json;
use signet_domain::audit::{Actor, WorkflowEventKind};
use signet_domain::phone::PhoneNumber;
use signet_domain::workflow::{SignatoryState, WorkflowState};
use signet_domain::{DocumentId, Error, ErrorCode, Millis, SignatoryId, now_millis};

use super::envelope::set_workflow_state;
use super::events::append_event;
use super::row::lock_workflow;
use super::signatories::{SIGNATORY_COLUMNS, SignatoryRow, notified_detail};
use crate::{Result, Store, db_err, on_db};

/// The person a signature is handed on to: their address and name, and the mobile number
/// their invitations (and, with `otp_sms`, their code) are texted to, when given.
#[derive(Debug, Clone, Copy)]
pub struct Delegate<'a> {
    pub email: &'a str,
    pub name: &'a str,
    pub mobile: Option<&'a PhoneNumber>,
    pub otp_sms: bool,
}

impl<'a> Delegate<'a> {
    /// Someone reached by e-mail only.
    pub fn by_email(email: &'a str, name: &'a str) -> Delegate<'a> {
        Delegate { email, name, mobile: None, otp_sms: false }
    }
}

/// A new version of one of the workflow's documents, produced from `base_version`.
pub struct SignedVersion<'a> {
    pub document_id: DocumentId,
    pub base_version: i64,
    pub blob_key: &'a str,
    pub sha256: &'a str,
}

/// What a signature changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterSignature {
    /// Others still sign; these signatories were notified now (the next group).
    Continuing { notified: Vec<SignatoryId> },
    /// That was the last signature.
    Completed,
}

/// After a signature: notifies the next group, or completes the workflow.
macro_rules! advance {
    ($store:expr, $tx:expr, $workflow:expr) => {{
        let workflow: &$crate::workflows::WorkflowRow = $workflow;
        let system = Actor::system();
        let states: Vec<(i64, String)> =
            sqlx::query_as("SELECT signing_order, state FROM signatories WHERE workflow_id = $1")
                .bind(workflow.id.get())
                .fetch_all(&mut *$tx)
                .await
                .map_err(db_err)?;
        let states = states
            .into_iter()
            .map(|(order, state)| Ok((order, SignatoryState::try_from(state).map_err(Error::internal)?)))
            .collect::<Result<Vec<(i64, SignatoryState)>>>()?;
        match signet_domain::workflow::progress(&states) {
            signet_domain::workflow::Progress::Complete => {
                set_workflow_state!($store, $tx, workflow, WorkflowState::Completed, None, system);
                AfterSignature::Completed
            }
            signet_domain::workflow::Progress::Declined => AfterSignature::Continuing { notified: Vec::new() },
            signet_domain::workflow::Progress::Group(order) => {
                let now = now_millis();
                let woken: Vec<(i64, String, String)> = sqlx::query_as(
                    "UPDATE signatories SET state = $4, notified_at = $3, updated_at = $3 \
                     WHERE workflow_id = $1 AND signing_order = $2 AND state = $5 RETURNING id, email, name",
                )
                .bind(workflow.id.get())
                .bind(order)
                .bind(now)
                .bind(SignatoryState::Notified.as_str())
                .bind(SignatoryState::Pending.as_str())
                .fetch_all(&mut *$tx)
                .await
                .map_err(db_err)?;
                sqlx::query("UPDATE workflows SET current_order = $2 WHERE id = $1")
                    .bind(workflow.id.get())
                    .bind(order)
                    .execute(&mut *$tx)
                    .await
                    .map_err(db_err)?;
                for (id, email, name) in &woken {
                    let event = system.workflow_event(
                        signet_domain::audit::WorkflowEventKind::SignatoryNotified,
                        format!("signatory:{id}"),
                        json!({"email": email, "name": name, "signingOrder": order}),
                    );
                    append_event!($store, $tx, workflow.tenant_id, workflow.id, &event);
                }
                AfterSignature::Continuing { notified: woken.into_iter().map(|(id, _, _)| SignatoryId::from(id)).collect() }
            }
        }
    }};
}

/// Refuses a delegation to someone who already signs the workflow (and has not handed on or
/// declined their own place).
macro_rules! refuse_current_signer {
    ($tx:expr, $signatory:expr, $to_email:expr) => {{
        let taken: Option<(i64,)> = sqlx::query_as(
            "SELECT id FROM signatories WHERE workflow_id = $1 AND lower(email) = lower($2) \
             AND state NOT IN ($3, $4)",
        )
        .bind($signatory.workflow_id.get())
        .bind($to_email)
        .bind(SignatoryState::Delegated.as_str())
        .bind(SignatoryState::Declined.as_str())
        .fetch_optional(&mut *$tx)
        .await
        .map_err(db_err)?;
        if taken.is_some() {
            return Err(Error::field("delegatedUserEmail", "this person already signs this workflow"));
        }
    }};
}

/// Refuses a delegation when this place was handed on `$max` times already: the count follows
/// the chain of `delegated_from` back to the original signatory.
macro_rules! refuse_past_delegation_limit {
    ($tx:expr, $signatory:expr, $max:expr) => {{
        let max: i64 = $max;
        let mut handed_on = 0;
        let mut from = $signatory.delegated_from;
        while let Some(id) = from {
            handed_on += 1;
            if handed_on >= max {
                return Err(Error::rejected(
                    ErrorCode::LimitReached,
                    format!("a signature can be delegated at most {max} times"),
                ));
            }
            let (previous,): (Option<i64>,) = sqlx::query_as("SELECT delegated_from FROM signatories WHERE id = $1")
                .bind(id.get())
                .fetch_one(&mut *$tx)
                .await
                .map_err(db_err)?;
            from = previous.map(SignatoryId::from);
        }
        if max <= 0 {
            return Err(Error::rejected(ErrorCode::LimitReached, "delegation is not allowed"));
        }
    }};
}

impl Store {
    /// Records a signature: the signatory must still be due, each document must still be at the
    /// version the signature was made on (a concurrent signer of the same group makes this
    /// fail with `Conflict`, and the caller signs the newer version). Then the next group is
    /// notified, or the workflow completes.
    pub async fn record_signature(
        &self,
        signatory: &SignatoryRow,
        versions: &[SignedVersion<'_>],
        method: &str,
        actor: &Actor,
        detail: serde_json::Value,
    ) -> Result<AfterSignature> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            // Lock the workflow first, so that the group's progress is decided by one signer at a time.
            let workflow = lock_workflow!(tx, signatory.tenant_id, signatory.workflow_id);
            if workflow.state() != WorkflowState::InProgress {
                return Err(Error::rejected(ErrorCode::StateConflict, format!("the workflow is {}", workflow.state)));
            }
            let changed = sqlx::query(
                "UPDATE signatories SET state = $4, signed_at = $2, method = $3, updated_at = $2 \
                 WHERE id = $1 AND state IN ($5, $6) AND link_expires_at > $2",
            )
            .bind(signatory.id.get())
            .bind(now)
            .bind(method)
            .bind(SignatoryState::Signed.as_str())
            .bind(SignatoryState::Notified.as_str())
            .bind(SignatoryState::Viewed.as_str())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed != 1 {
                return Err(Error::rejected(ErrorCode::StateConflict, "this signatory cannot sign now"));
            }
            for v in versions {
                let advanced = sqlx::query(
                    "UPDATE documents SET current_blob = $1, current_sha256 = $2, version = version + 1, updated_at = $3 \
                     WHERE id = $4 AND workflow_id = $5 AND version = $6",
                )
                .bind(v.blob_key)
                .bind(v.sha256)
                .bind(now)
                .bind(v.document_id.get())
                .bind(signatory.workflow_id.get())
                .bind(v.base_version)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?
                .rows_affected();
                if advanced != 1 {
                    return Err(Error::rejected(ErrorCode::Conflict, "the document changed while it was being signed"));
                }
            }
            let signed = actor.workflow_event(WorkflowEventKind::SignatorySigned, format!("signatory:{}", signatory.id), detail);
            append_event!(self, tx, signatory.tenant_id, signatory.workflow_id, &signed);
            let after = advance!(self, tx, &workflow);
            tx.commit().await.map_err(db_err)?;
            Ok(after)
        })
    }

    /// The signatory declines: the workflow ends as declined.
    pub async fn decline(&self, signatory: &SignatoryRow, reason: &str, actor: &Actor) -> Result<()> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, signatory.tenant_id, signatory.workflow_id);
            if !workflow.state().may_become(WorkflowState::Declined) {
                return Err(workflow.state().refuse(WorkflowState::Declined));
            }
            let changed = sqlx::query(
                "UPDATE signatories SET state = $4, reason = $3, updated_at = $2 \
                 WHERE id = $1 AND state IN ($5, $6)",
            )
            .bind(signatory.id.get())
            .bind(now)
            .bind(reason)
            .bind(SignatoryState::Declined.as_str())
            .bind(SignatoryState::Notified.as_str())
            .bind(SignatoryState::Viewed.as_str())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed != 1 {
                return Err(Error::rejected(ErrorCode::StateConflict, "this signatory cannot decline now"));
            }
            let event = actor.workflow_event(WorkflowEventKind::SignatoryDeclined, format!("signatory:{}", signatory.id), json!({"reason": reason}));
            append_event!(self, tx, signatory.tenant_id, signatory.workflow_id, &event);
            set_workflow_state!(self, tx, &workflow, WorkflowState::Declined, Some(reason), actor);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Hands a signatory's place to someone else, who is notified at once with their own link;
    /// `max_delegations` limits how often one place may be handed on.
    pub async fn delegate(
        &self,
        signatory: &SignatoryRow,
        to: &Delegate<'_>,
        reason: &str,
        link_expires_at: Millis,
        actor: &Actor,
        max_delegations: Option<i64>,
    ) -> Result<SignatoryRow> {
        let (now, to_email) = (now_millis(), to.email);
        let insert = format!(
            "INSERT INTO signatories (tenant_id, workflow_id, subscriber_id, email, name, signing_order, state, \
             link_expires_at, placement, delegated_from, notified_at, created_at, updated_at, signature_mode, \
             mobile, otp_sms) \
             VALUES ($1, $2, 0, $3, $4, $5, $10, $6, $7, $8, $9, $9, $9, $11, $12, $13) RETURNING {SIGNATORY_COLUMNS}"
        );
        let placement = serde_json::to_string(&signatory.placement)?;
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let workflow = lock_workflow!(tx, signatory.tenant_id, signatory.workflow_id);
            if workflow.state() != WorkflowState::InProgress {
                return Err(Error::rejected(ErrorCode::StateConflict, format!("the workflow is {}", workflow.state)));
            }
            refuse_current_signer!(tx, signatory, to_email);
            if let Some(max) = max_delegations {
                refuse_past_delegation_limit!(tx, signatory, max);
            }
            let changed = sqlx::query(
                "UPDATE signatories SET state = $4, reason = $3, updated_at = $2 \
                 WHERE id = $1 AND state IN ($5, $6)",
            )
            .bind(signatory.id.get())
            .bind(now)
            .bind(reason)
            .bind(SignatoryState::Delegated.as_str())
            .bind(SignatoryState::Notified.as_str())
            .bind(SignatoryState::Viewed.as_str())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if changed != 1 {
                return Err(Error::rejected(ErrorCode::StateConflict, "this signatory cannot delegate now"));
            }
            let row: SignatoryRow = sqlx::query_as(sqlx::AssertSqlSafe(insert.as_str()))
                .bind(signatory.tenant_id.get())
                .bind(signatory.workflow_id.get())
                .bind(to_email)
                .bind(to.name)
                .bind(signatory.signing_order)
                .bind(link_expires_at)
                .bind(&placement)
                .bind(signatory.id.get())
                .bind(now)
                .bind(SignatoryState::Notified.as_str())
                .bind(signatory.signature_mode.as_str())
                .bind(to.mobile.map(|m| m.e164().to_string()))
                .bind(to.otp_sms)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            let delegated = actor.workflow_event(
                WorkflowEventKind::SignatoryDelegated,
                format!("signatory:{}", signatory.id),
                json!({"to": to_email, "toSignatory": row.id, "reason": reason}),
            );
            append_event!(self, tx, signatory.tenant_id, signatory.workflow_id, &delegated);
            let notified = actor.workflow_event(
                WorkflowEventKind::SignatoryNotified,
                format!("signatory:{}", row.id),
                notified_detail(&row),
            );
            append_event!(self, tx, signatory.tenant_id, signatory.workflow_id, &notified);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }
}
