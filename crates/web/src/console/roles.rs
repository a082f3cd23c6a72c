//! Roles: the built-in ones with what they allow, the organisation's own (a name and the
//! permissions it grants), made and removed by administrators, as `POST /api/v1/roles`.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::Error;
use signet_domain::access::{Permission, Role, RoleRef, parse_permissions};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::people::roles;

use super::session::see_other;
use super::{FormFields, Frame, Session, failure, render, shown_again};
use crate::text::{Text, key};

/// What each permission lets a person do, as the role forms say it.
const PERMISSIONS: [(Permission, &str); 6] = [
    (Permission::ReadWorkflows, key("roles.permission.read_workflows")),
    (Permission::SendWorkflows, key("roles.permission.send_workflows")),
    (Permission::ReadDirectory, key("roles.permission.read_directory")),
    (Permission::ManagePeople, key("roles.permission.manage_people")),
    (Permission::ManageSettings, key("roles.permission.manage_settings")),
    (Permission::ReadAudit, key("roles.permission.read_audit")),
];

fn described(text: Text, permissions: &[Permission]) -> String {
    let texts: Vec<&str> =
        PERMISSIONS.iter().filter(|(p, _)| permissions.contains(p)).map(|(_, key)| text.s(key)).collect();
    if texts.is_empty() { text.s("roles.permission.none").into() } else { texts.join("; ") }
}

struct RoleView {
    id: i64,
    name: String,
    allows: String,
    own: bool,
}

#[derive(Template)]
#[template(path = "console/roles.html")]
struct RolesPage {
    frame: Frame,
    roles: Vec<RoleView>,
    permissions: Vec<(&'static str, &'static str)>,
    may_change: bool,
    error: Option<String>,
}

async fn roles_page(state: &AppState, session: &Session, error: Option<String>) -> Result<RolesPage, Error> {
    let builtin = [Role::Administrator, Role::Sender, Role::Signer, Role::Auditor].into_iter().map(|role| {
        let allows: Vec<Permission> =
            Permission::ALL.into_iter().filter(|p| *p != Permission::Authenticated && role.allows(*p)).collect();
        RoleView {
            id: i64::from(role.id()),
            name: role.as_str().to_string(),
            allows: described(session.text, &allows),
            own: false,
        }
    });
    let own =
        signet_services::people::roles::list(&state.services, &session.auth.caller()).await?.into_iter().map(|role| {
            RoleView {
                id: RoleRef::Custom(role.id).wire_id(),
                name: role.name,
                allows: described(session.text, &parse_permissions(&role.permissions)),
                own: true,
            }
        });
    Ok(RolesPage {
        frame: session.frame("/app/people"),
        roles: builtin.chain(own).collect(),
        permissions: PERMISSIONS.iter().map(|(p, key)| (p.as_str(), session.text.s(key))).collect(),
        may_change: session.auth.access.is_administrator(),
        error,
    })
}

pub async fn list(State(state): State<AppState>, session: Session) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadDirectory) {
        return refused;
    }
    match roles_page(&state, &session, None).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

/// The roles page again, with a refusal the person can correct.
async fn again(state: &AppState, session: &Session, error: Error) -> Response {
    shown_again(error, async |text| roles_page(state, session, Some(text)).await).await
}

/// A new role: its name and the chosen permissions (checkboxes, so the form is read as pairs).
pub async fn create(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManagePeople, fields.get("csrf")) {
        return refused;
    }
    let permissions: Vec<String> = fields.all("permission").map(str::to_string).collect();
    match roles::create(&state.services, &session.auth.caller(), fields.get("name"), &permissions).await {
        Ok(_) => see_other("/app/roles"),
        Err(error) => again(&state, &session, error).await,
    }
}

#[derive(serde::Deserialize)]
pub struct Plain {
    csrf: String,
}

pub async fn delete(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    axum::Form(form): axum::Form<Plain>,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManagePeople, &form.csrf) {
        return refused;
    }
    match roles::delete(&state.services, &session.auth.caller(), id).await {
        Ok(()) => see_other("/app/roles"),
        Err(error) => again(&state, &session, error).await,
    }
}
