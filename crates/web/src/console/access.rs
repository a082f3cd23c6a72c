//! Menus and access (docs/access.md, "Menus and access"): the tenant's menu entries (its
//! activities and its templates) with who may use each (users, directly or through their
//! department, and departments), as `GET /api/v1/menus/{menuId}/access` (`read_directory`);
//! for `manage_people`, adding an activity, granting entries to users and departments, taking
//! a grant back from one of them and removing an activity, as `/api/v1/menus/activities`,
//! `/api/v1/menus/access`, `DELETE /api/v1/menus/{menuId}/access/users/{userId}` (and
//! `…/departments/{departmentId}`) and `/api/v1/menus/delete`. The API grants entries to users
//! and departments, not to roles.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::menu::{MenuKind, parent_from_wire};
use signet_domain::paging::Page;
use signet_domain::user::{UserKind, UserStatus};
use signet_domain::{DepartmentId, Error, MenuId, PrincipalId};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::records::{Grantee, UserFilter};
use signet_services::{people::menus, people::users};

use super::session::see_other;
use super::{FormFields, Frame, Session, failure, render, shown_again};
use crate::text::{Text, key};

/// Entries listed on the page (the first made), and people and departments offered.
const LISTED: usize = 200;
const OFFERED: i64 = 100;

struct MenuView {
    id: i64,
    name: String,
    /// The entry it is under, if any.
    parent: Option<String>,
    kind: &'static str,
    created: String,
    departments: Vec<Granted>,
    users: Vec<Granted>,
    /// An activity (a template's entry goes with its template).
    removable: bool,
}

/// A department or a person who may use an entry.
struct Granted {
    id: i64,
    label: String,
    /// Granted directly, so the grant can be taken back (a person may also use an entry
    /// through their department's grant).
    direct: bool,
    /// A person who cannot use the entry now (their status in words); their direct grant
    /// stays until taken back.
    not_active: Option<String>,
}

/// A user or a department to grant entries to.
struct Choice {
    id: i64,
    label: String,
}

#[derive(Template)]
#[template(path = "console/access.html")]
struct AccessPage {
    frame: Frame,
    error: Option<String>,
    may_change: bool,
    menus: Vec<MenuView>,
    total: usize,
    users: Vec<Choice>,
    departments: Vec<Choice>,
}

/// A person as listed: their name and address.
fn person(name: Option<String>, email: Option<String>) -> String {
    match (name, email) {
        (Some(name), Some(email)) => format!("{name} ({email})"),
        (name, email) => name.or(email).unwrap_or_default(),
    }
}

async fn access_page(state: &AppState, session: &Session, error: Option<String>) -> Result<AccessPage, Error> {
    let caller = session.auth.caller();
    let rows = menus::all(&state.services, &caller).await?;
    let total = rows.len();
    let names: std::collections::HashMap<MenuId, String> = rows.iter().map(|m| (m.id, m.name.clone())).collect();
    let mut menus = Vec::new();
    for row in rows.into_iter().take(LISTED) {
        let menus::EntryAccess { users, departments, idle, .. } =
            menus::access_to(&state.services, &caller, row.id).await?;
        menus.push(MenuView {
            parent: row.parent_id.and_then(|p| names.get(&p).cloned()),
            kind: session.text.s(match row.kind {
                MenuKind::Template => key("access.kind.template"),
                MenuKind::Activity => key("access.kind.activity"),
            }),
            removable: row.kind == MenuKind::Activity,
            created: session.when(row.created_at),
            departments: departments
                .into_iter()
                .map(|d| Granted { id: d.id.get(), label: d.name, direct: true, not_active: None })
                .collect(),
            users: users
                .into_iter()
                .map(|u| Granted { id: u.id.get(), direct: u.direct, label: person(u.name, u.email), not_active: None })
                .chain(idle.into_iter().map(|idle| Granted {
                    id: idle.id.get(),
                    direct: true,
                    label: person(idle.name, idle.email),
                    not_active: Some(session.text.plain("access.not_active", &[("status", &idle.status)])),
                }))
                .collect(),
            id: row.id.get(),
            name: row.name,
        });
    }
    let may_change = session.auth.access.allows(Permission::ManagePeople);
    let (users, departments) = if may_change {
        let active =
            UserFilter { kind: Some(UserKind::Internal), statuses: vec![UserStatus::Active], ..UserFilter::default() };
        let (people, _) =
            users::search(&state.services, &caller, active, None, Page::parse(Some(1), Some(OFFERED))?).await?;
        let (groups, _) = signet_services::people::departments::list(
            &state.services,
            &session.auth.caller(),
            Page::parse(Some(1), Some(OFFERED))?,
            None,
        )
        .await?;
        (
            people.into_iter().map(|u| Choice { id: u.id.get(), label: person(u.name, u.email) }).collect(),
            groups.into_iter().map(|d| Choice { id: d.id.get(), label: d.name }).collect(),
        )
    } else {
        (Vec::new(), Vec::new())
    };
    Ok(AccessPage { frame: session.frame("/app/access"), error, may_change, menus, total, users, departments })
}

/// `GET /app/access`.
pub async fn show(State(state): State<AppState>, session: Session) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadDirectory) {
        return refused;
    }
    match access_page(&state, &session, None).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

/// After a change: back to the page, or the page again with the refusal the person can correct.
async fn answer<T>(state: &AppState, session: &Session, outcome: Result<T, Error>) -> Response {
    match outcome {
        Ok(_) => see_other("/app/access"),
        Err(error) => shown_again(error, async |text| access_page(state, session, Some(text)).await).await,
    }
}

/// The ids chosen in the form's `name` (a select), as the API's `field` takes them.
fn chosen<Id: From<i64>>(text: Text, fields: &FormFields, name: &str, field: &str) -> Result<Vec<Id>, Error> {
    fields
        .all(name)
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| v.parse::<i64>().map(Id::from).map_err(|_| Error::field(field, text.s("access.each_id"))))
        .collect()
}

/// `POST /app/access/activities`: `name`, `parent` (a menu id, or 0 for the top level), as
/// `POST /api/v1/menus/activities`.
pub async fn create_activity(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManagePeople, fields.get("csrf")) {
        return refused;
    }
    let created = async {
        let parent = match fields.get("parent") {
            "" => None,
            id => parent_from_wire(
                id.parse::<i64>().map_err(|_| Error::field("menuParentId", session.text.s("access.parent_id")))?,
            ),
        };
        let name = fields.all("name").next().unwrap_or_default();
        menus::create_activity(&state.services, &session.auth.caller(), parent, name).await
    }
    .await;
    answer(&state, &session, created).await
}

/// `POST /app/access/grant`: `menu` (entries), `user` and `department` (each repeated), as
/// `POST /api/v1/menus/access`.
pub async fn grant(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManagePeople, fields.get("csrf")) {
        return refused;
    }
    let granted = async {
        let menu_ids: Vec<MenuId> = chosen(session.text, &fields, "menu", "menuIds")?;
        let user_ids: Vec<PrincipalId> = chosen(session.text, &fields, "user", "subscriberIds")?;
        let department_ids: Vec<DepartmentId> = chosen(session.text, &fields, "department", "departmentIds")?;
        if user_ids.is_empty() && department_ids.is_empty() {
            return Err(Error::field("subscriberIds", session.text.s("access.choose_someone")));
        }
        menus::assign_access(&state.services, &session.auth.caller(), &menu_ids, &user_ids, &department_ids).await
    }
    .await;
    answer(&state, &session, granted).await
}

/// `POST /app/access/{id}/delete`, as `POST /api/v1/menus/delete`: the activity goes with the
/// entries below it and their grants.
pub async fn delete_activity(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    fields: FormFields,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManagePeople, fields.get("csrf")) {
        return refused;
    }
    let deleted = menus::delete_activity(&state.services, &session.auth.caller(), MenuId::from(id)).await;
    answer(&state, &session, deleted).await
}

/// `POST /app/access/{menu}/users/{user}/take-back`, as
/// `DELETE /api/v1/menus/{menuId}/access/users/{userId}`.
pub async fn take_back_from_user(
    State(state): State<AppState>,
    session: Session,
    ApiPath((menu, user)): ApiPath<(i64, i64)>,
    fields: FormFields,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManagePeople, fields.get("csrf")) {
        return refused;
    }
    let grantee = Grantee::User(PrincipalId::from(user));
    let taken = menus::revoke_access(&state.services, &session.auth.caller(), MenuId::from(menu), grantee).await;
    answer(&state, &session, taken).await
}

/// `POST /app/access/{menu}/departments/{department}/take-back`, as
/// `DELETE /api/v1/menus/{menuId}/access/departments/{departmentId}`.
pub async fn take_back_from_department(
    State(state): State<AppState>,
    session: Session,
    ApiPath((menu, department)): ApiPath<(i64, i64)>,
    fields: FormFields,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManagePeople, fields.get("csrf")) {
        return refused;
    }
    let grantee = Grantee::Department(DepartmentId::from(department));
    let taken = menus::revoke_access(&state.services, &session.auth.caller(), MenuId::from(menu), grantee).await;
    answer(&state, &session, taken).await
}
