//! Making a lot (docs/bulk.md): the sender chooses who signs, ticks the workflows in progress
//! whose signature is due from that person now, names the lot and makes it, through the same
//! service as `POST /api/v1/lots` (and with its permission, `send_workflows`). The lot then waits
//! in the signer's **To sign**, where they sign it all at once (`inbox::lot`).

use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::{Error, PrincipalId, WorkflowId};
use signet_http::AppState;
use signet_services::bulk::lots;

use super::session::see_other;
use super::{FormFields, Frame, Session, render, shown_again};

struct SignerOption {
    id: i64,
    label: String,
    chosen: bool,
}

struct WorkflowOption {
    id: i64,
    name: String,
    since: String,
    chosen: bool,
}

#[derive(Template)]
#[template(path = "console/lots.html")]
struct LotsPage {
    frame: Frame,
    error: Option<String>,
    notice: Option<String>,
    signers: Vec<SignerOption>,
    signer: Option<(i64, String)>,
    name: String,
    workflows: Vec<WorkflowOption>,
}

/// What was typed on the lot form, shown again with a refusal.
#[derive(Default)]
struct Typed {
    name: String,
    chosen: Vec<String>,
}

#[derive(serde::Deserialize, Default)]
pub struct LotsQuery {
    signer: Option<String>,
    made: Option<String>,
}

/// A person as the signer list shows them: name and address.
fn label(name: Option<&str>, email: &str) -> String {
    match name.filter(|n| !n.is_empty() && *n != email) {
        Some(name) => format!("{name} ({email})"),
        None => email.to_string(),
    }
}

async fn lots_page(
    state: &AppState,
    session: &Session,
    signer: Option<PrincipalId>,
    typed: &Typed,
    error: Option<String>,
    notice: Option<String>,
) -> Result<LotsPage, Error> {
    let choices = lots::choices(&state.services, &session.auth.caller(), signer).await?;
    let signers = choices
        .signers
        .iter()
        .map(|u| SignerOption {
            id: u.id.get(),
            label: label(u.name.as_deref(), u.email.as_deref().unwrap_or_default()),
            chosen: Some(u.id) == signer,
        })
        .collect();
    let workflows = choices
        .workflows
        .into_iter()
        .map(|w| WorkflowOption {
            id: w.id.get(),
            chosen: typed.chosen.iter().any(|c| c.trim() == w.id.to_string()),
            name: w.name,
            since: session.when(w.created_at),
        })
        .collect();
    Ok(LotsPage {
        frame: session.frame("/app/lots"),
        error,
        notice,
        signers,
        signer: choices.signer.map(|u| (u.id.get(), label(u.name.as_deref(), u.email.as_deref().unwrap_or_default()))),
        name: typed.name.clone(),
        workflows,
    })
}

/// `GET /app/lots?signer=ID`: who signs, and the workflows waiting for them to choose from.
pub async fn form(State(state): State<AppState>, session: Session, Query(query): Query<LotsQuery>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::SendWorkflows) {
        return refused;
    }
    let signer = query.signer.as_deref().and_then(|s| s.trim().parse::<i64>().ok()).map(PrincipalId::from);
    let notice = query
        .made
        .as_deref()
        .and_then(|m| m.parse::<i64>().ok())
        .map(|id| session.text.plain("lots.made", &[("id", &id)]));
    match lots_page(&state, &session, signer, &Typed::default(), None, notice).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => {
            shown_again(error, async |text| {
                lots_page(&state, &session, None, &Typed::default(), Some(text), None).await
            })
            .await
        }
    }
}

/// `POST /app/lots`: `signer`, `name`, `workflow` (repeated). A refusal shows the form again
/// with what was typed and chosen; nothing is stored.
pub async fn create(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::SendWorkflows, fields.get("csrf")) {
        return refused;
    }
    let signer = fields.get("signer").parse::<i64>().ok().map(PrincipalId::from);
    let typed =
        Typed { name: fields.get("name").to_string(), chosen: fields.all("workflow").map(str::to_string).collect() };
    let made = async {
        let signer = signer.ok_or_else(|| Error::field("signer", session.text.s("lots.choose_the_signer")))?;
        let ids = typed
            .chosen
            .iter()
            .map(|id| id.trim().parse::<i64>().map(WorkflowId::from))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| Error::field("workflows", session.text.s("lots.workflow_unreadable")))?;
        lots::create(&state.services, &session.auth.caller(), &typed.name, signer, &ids).await
    }
    .await;
    match made {
        Ok(lot) => see_other(&format!("/app/lots?signer={}&made={}", signer.map_or(0, PrincipalId::get), lot.row.id)),
        Err(error) => {
            shown_again(error, async |text| {
                match lots_page(&state, &session, signer, &typed, Some(text.clone()), None).await {
                    // The signer named is no one to choose: the form without one.
                    Err(Error::Validation(_)) => lots_page(&state, &session, None, &typed, Some(text), None).await,
                    page => page,
                }
            })
            .await
        }
    }
}
