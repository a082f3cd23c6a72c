//! The audit trail: the tenant's entries in chain order, a page at a time, and the check of
//! the whole chain (every entry's hash and its link to the one before).

use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::PrincipalId;
use signet_domain::access::Permission;
use signet_domain::audit::Party;
use signet_http::AppState;

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
    /// Who, by name where the entry names a person or an application, else as written.
    actor: String,
    /// The reference the entry was written with (`user:5`), shown beside a name.
    actor_ref: Option<String>,
    action: String,
    target: String,
}

/// A reference's name, if it names a principal whose name was found.
fn name_of(names: &[(PrincipalId, String)], reference: &str) -> Option<String> {
    match Party::parse(reference) {
        Party::User(id) | Party::Client(id) => names.iter().find(|(p, _)| *p == id).map(|(_, n)| n.clone()),
        _ => None,
    }
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
    let entries =
        match signet_services::platform::audit::entries(&state.services, &session.auth.caller(), after, PAGE).await {
            Ok(entries) => entries,
            Err(error) => return failure(error),
        };
    let verified = match from.verify.is_some() {
        true => match signet_services::platform::audit::verify(&state.services, &session.auth.caller()).await {
            Ok((count, outcome)) => Some(Verified {
                entries: count,
                broken: outcome.err().map(|b| format!("entry {}: {}", b.seq, b.reason)),
            }),
            Err(error) => return failure(error),
        },
        false => None,
    };
    let next = (entries.len() as i64 == PAGE).then(|| entries.last().map(|e| e.seq)).flatten();
    let names = match signet_services::platform::audit::principal_names(
        &state.services,
        &session.auth.caller(),
        &entries,
    )
    .await
    {
        Ok(names) => names,
        Err(error) => return failure(error),
    };
    let entries = entries
        .into_iter()
        .map(|e| {
            let (actor, actor_ref) = match name_of(&names, &e.actor) {
                Some(name) => (name, Some(e.actor)),
                None => (e.actor, None),
            };
            let target = match name_of(&names, &e.target) {
                Some(name) => format!("{name} ({})", e.target),
                None => e.target,
            };
            EntryView { seq: e.seq, at: session.when(e.at), actor, actor_ref, action: e.action, target }
        })
        .collect();
    render(StatusCode::OK, &AuditPage { frame: session.frame("/app/audit"), entries, next, verified })
}
