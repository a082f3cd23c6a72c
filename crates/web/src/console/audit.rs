//! The audit trail: the tenant's entries in chain order, a page at a time, and the check of
//! the whole chain (every entry's hash and its link to the one before).

use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_api::AppState;
use signet_domain::access::Permission;

use super::{Frame, Session, failure, render};

const PAGE: i64 = 100;

#[derive(serde::Deserialize)]
pub struct From {
    after: Option<i64>,
    verify: Option<String>,
}

struct EntryView {
    seq: i64,
    at: String,
    actor: String,
    action: String,
    target: String,
}

/// The outcome of checking the whole chain.
struct Verified {
    entries: u64,
    broken: Option<String>,
}

#[derive(Template)]
#[template(path = "console/audit.html")]
struct AuditPage {
    frame: Frame,
    entries: Vec<EntryView>,
    next: Option<i64>,
    verified: Option<Verified>,
}

pub async fn list(State(state): State<AppState>, session: Session, Query(from): Query<From>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadAudit) {
        return refused;
    }
    let after = from.after.unwrap_or(0).max(0);
    let entries = match signet_services::audit::entries(&state.services, &session.auth.caller(), after, PAGE).await {
        Ok(entries) => entries,
        Err(error) => return failure(error),
    };
    let verified = match from.verify.is_some() {
        true => match signet_services::audit::verify(&state.services, &session.auth.caller()).await {
            Ok((count, outcome)) => Some(Verified {
                entries: count,
                broken: outcome.err().map(|b| format!("entry {}: {}", b.seq, b.reason)),
            }),
            Err(error) => return failure(error),
        },
        false => None,
    };
    let next = (entries.len() as i64 == PAGE).then(|| entries.last().map(|e| e.seq)).flatten();
    let entries = entries
        .into_iter()
        .map(|e| EntryView { seq: e.seq, at: session.when(e.at), actor: e.actor, action: e.action, target: e.target })
        .collect();
    render(StatusCode::OK, &AuditPage { frame: session.frame("/app/audit"), entries, next, verified })
}
