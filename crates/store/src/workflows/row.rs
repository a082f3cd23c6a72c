//! The workflow row itself, below every module that changes a workflow: its columns, the
//! new row's fields, and the row lock every transition takes first. Creation, reading and
//! state changes build on it (`envelope`), and so do documents, signatories, participation and
//! the event chain, none of which needs the others to name a workflow.

use signet_domain::workflow::WorkflowState;
use signet_domain::workflow_settings::WorkflowSettings;
use signet_domain::{Error, Lang, Millis, TemplateId, TenantId, WorkflowId};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WorkflowRow {
    #[sqlx(try_from = "i64")]
    pub id: WorkflowId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    #[sqlx(try_from = "crate::NullableId")]
    pub template_id: Option<TemplateId>,
    pub name: String,
    pub reference_no: Option<String>,
    pub workflow_type: i64,
    #[sqlx(try_from = "String")]
    pub state: WorkflowState,
    pub state_reason: Option<String>,
    pub current_order: i64,
    /// Parsed once here, tolerantly: a wrong-typed key reads as absent, the rest as stored.
    #[sqlx(try_from = "String")]
    pub settings: WorkflowSettings,
    pub reminder_every_days: Option<i64>,
    pub expires_at: Option<Millis>,
    pub linked_ids: String,
    pub category_id: Option<i64>,
    pub created_by: String,
    pub certificate_blob: Option<String>,
    pub created_at: Millis,
    pub updated_at: Millis,
    pub completed_at: Option<Millis>,
    /// The code of [`WorkflowRow::signer_lang`] as stored.
    signer_lang: Option<String>,
}

impl WorkflowRow {
    pub fn state(&self) -> WorkflowState {
        self.state
    }

    /// The language the workflow's signer pages and e-mails are in, when its sender chose one
    /// (else each signer's browser decides). A code no longer known counts as no choice.
    pub fn signer_lang(&self) -> Option<Lang> {
        self.signer_lang.as_deref().and_then(Lang::from_code)
    }
}

pub(crate) const WORKFLOW_COLUMNS: &str = "id, tenant_id, template_id, name, reference_no, workflow_type, state, \
    state_reason, current_order, settings, reminder_every_days, expires_at, linked_ids, category_id, created_by, \
    certificate_blob, created_at, updated_at, completed_at, signer_lang";

pub(crate) fn not_found_workflow() -> Error {
    Error::not_found("workflow")
}

/// Reads the workflow and takes its row lock (PostgreSQL) or the write lock (SQLite): the
/// no-op update works as `SELECT ... FOR UPDATE` on both. Every transition locks first, so
/// that its checks and its writes see one workflow state.
macro_rules! lock_workflow {
    ($tx:expr, $tenant_id:expr, $id:expr) => {{
        use $crate::workflows::row::{WORKFLOW_COLUMNS, WorkflowRow, not_found_workflow};
        let sql = format!(
            "UPDATE workflows SET updated_at = updated_at WHERE tenant_id = $1 AND id = $2 RETURNING {WORKFLOW_COLUMNS}"
        );
        let row: Option<WorkflowRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(signet_domain::TenantId::get($tenant_id))
            .bind(signet_domain::WorkflowId::get($id))
            .fetch_optional(&mut *$tx)
            .await
            .map_err($crate::db_err)?;
        row.ok_or_else(not_found_workflow)?
    }};
}
pub(crate) use lock_workflow;
