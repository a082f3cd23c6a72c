//! People: the tenant's users with their role and status, searched by name or address, and
//! inviting a user with a role (they get the set-password e-mail, as through the API).

use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::PrincipalId;
use signet_domain::access::{Permission, Role, RoleRef};
use signet_domain::paging::Page;
use signet_domain::user::{UserInput, UserKind};
use signet_http::AppState;
use signet_services::people::users;
use signet_services::records::UserFilter;

use super::{Frame, Session, failure, render, user_text};

#[derive(serde::Deserialize)]
pub struct Search {
    q: Option<String>,
    invited: Option<String>,
}

struct UserView {
    name: String,
    email: String,
    role: String,
    status: String,
}

struct PendingView {
    id: i64,
    name: String,
    email: String,
    organization: String,
}

struct RoleOption {
    id: i64,
    label: String,
}

#[derive(Template)]
#[template(path = "console/people.html")]
struct PeoplePage {
    frame: Frame,
    q: String,
    users: Vec<UserView>,
    total: i64,
    pending: Vec<PendingView>,
    may_invite: bool,
    roles: Vec<RoleOption>,
    notice: Option<String>,
    error: Option<String>,
    name: String,
    email: String,
}

/// The roles a user may be given here: the built-in ones, then the tenant's own.
async fn role_options(state: &AppState, session: &Session) -> Result<Vec<RoleOption>, signet_domain::Error> {
    let builtin = [Role::Sender, Role::Signer, Role::Auditor, Role::Administrator];
    let mut options: Vec<RoleOption> =
        builtin.into_iter().map(|r| RoleOption { id: i64::from(r.id()), label: capitalised(r.as_str()) }).collect();
    for role in signet_services::people::roles::list(&state.services, &session.auth.caller()).await? {
        options.push(RoleOption { id: RoleRef::Custom(role.id).wire_id(), label: role.name });
    }
    Ok(options)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().collect::<String>() + chars.as_str()).unwrap_or_default()
}

async fn people_page(state: &AppState, session: &Session, q: &str) -> Result<PeoplePage, signet_domain::Error> {
    let filter = UserFilter {
        kind: Some(UserKind::Internal),
        search: Some(q.to_string()).filter(|q| !q.is_empty()),
        ..UserFilter::default()
    };
    let (rows, total) =
        users::search(&state.services, &session.auth.caller(), filter, None, Page::parse(Some(1), Some(100))?).await?;
    let users = rows
        .into_iter()
        .map(|u| UserView {
            name: u.name.unwrap_or_default(),
            email: u.email.unwrap_or_default(),
            role: u.custom_role_name.unwrap_or_else(|| capitalised(u.role.as_str())),
            status: u.status.as_str().to_string(),
        })
        .collect();
    let may_invite = session.auth.access.allows(Permission::ManagePeople);
    let roles = if may_invite { role_options(state, session).await? } else { Vec::new() };
    let waiting = UserFilter {
        kind: Some(UserKind::External),
        statuses: vec![signet_domain::user::UserStatus::Pending],
        ..UserFilter::default()
    };
    let pending = match may_invite {
        true => users::search(&state.services, &session.auth.caller(), waiting, None, Page::parse(Some(1), Some(100))?)
            .await?
            .0
            .into_iter()
            .map(|u| PendingView {
                id: u.id.get(),
                name: u.name.unwrap_or_default(),
                email: u.email.unwrap_or_default(),
                organization: u.organization.unwrap_or_default(),
            })
            .collect(),
        false => Vec::new(),
    };
    Ok(PeoplePage {
        frame: session.frame("/app/people"),
        q: q.to_string(),
        users,
        total,
        pending,
        may_invite,
        roles,
        notice: None,
        error: None,
        name: String::new(),
        email: String::new(),
    })
}

pub async fn list(State(state): State<AppState>, session: Session, Query(search): Query<Search>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadDirectory) {
        return refused;
    }
    let q = search.q.as_deref().map(str::trim).unwrap_or_default();
    if q.chars().count() > 200 {
        return super::page_error(StatusCode::BAD_REQUEST, session.text.s("people.search_too_long"));
    }
    match people_page(&state, &session, q).await {
        Ok(mut page) => {
            page.notice = search.invited.map(|email| session.text.plain("people.invited", &[("email", &email)]));
            render(StatusCode::OK, &page)
        }
        Err(error) => failure(error),
    }
}

#[derive(serde::Deserialize)]
pub struct Invite {
    csrf: String,
    name: String,
    email: String,
    role: i64,
}

pub async fn invite(State(state): State<AppState>, session: Session, axum::Form(form): axum::Form<Invite>) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManagePeople, &form.csrf) {
        return refused;
    }
    let input = UserInput {
        name: Some(form.name.trim().to_string()),
        email: Some(form.email.trim().to_string()),
        role_id: Some(form.role),
        ..UserInput::default()
    };
    match users::create_internal(&state.services, &session.auth.caller(), &input).await {
        Ok(created) => {
            let email = created.user.email.unwrap_or_default();
            let query = serde_urlencoded::to_string([("invited", email.as_str())]).unwrap_or_default();
            super::session::see_other(&format!("/app/people?{query}"))
        }
        Err(error) if signet_http::error::status_of(error.code()).is_client_error() => {
            match people_page(&state, &session, "").await {
                Ok(mut page) => {
                    page.error = Some(user_text(&error));
                    (page.name, page.email) = (form.name, form.email);
                    render(StatusCode::BAD_REQUEST, &page)
                }
                Err(error) => failure(error),
            }
        }
        Err(error) => failure(error),
    }
}

#[derive(serde::Deserialize)]
pub struct Decision {
    csrf: String,
    decision: String,
    reason: Option<String>,
}

/// An administrator's decision on an external user's registration: approved ones get their
/// set-password e-mail, rejected ones are told, as through the API.
pub async fn decide(
    State(state): State<AppState>,
    session: Session,
    signet_http::extract::ApiPath(id): signet_http::extract::ApiPath<i64>,
    axum::Form(form): axum::Form<Decision>,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManagePeople, &form.csrf) {
        return refused;
    }
    let approve = match form.decision.as_str() {
        "approve" => true,
        "reject" => false,
        _ => return super::page_error(StatusCode::BAD_REQUEST, session.text.s("people.approve_or_reject")),
    };
    let reason = form.reason.as_deref().map(str::trim).filter(|r| !r.is_empty());
    match users::decide_external(&state.services, &session.auth.caller(), PrincipalId::from(id), approve, reason).await
    {
        Ok(_) => super::session::see_other("/app/people"),
        Err(error) => {
            super::shown_again(error, async |text| {
                people_page(&state, &session, "").await.map(|mut page| {
                    page.error = Some(text);
                    page
                })
            })
            .await
        }
    }
}
