//! The `workflow.event` job: what follows an event once it is committed (completion steps;
//! e-mails to the people concerned and webhooks to the tenant's endpoints).

use serde::Deserialize;

use crate::AppState;

/// The payload the store writes for each workflow event.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowEvent {
    pub tenant_id: i64,
    pub workflow_id: i64,
    pub seq: i64,
    #[serde(rename = "type")]
    pub kind: String,
    pub target: String,
    pub at: i64,
}

pub async fn handle(state: &AppState, payload: &str) -> Result<(), String> {
    let event: WorkflowEvent = serde_json::from_str(payload).map_err(|e| format!("bad workflow event: {e}"))?;
    if event.kind == "workflow.completed" {
        super::completion::finish(state, event.tenant_id, event.workflow_id).await.map_err(|e| e.to_string())?;
    }
    Ok(())
}
