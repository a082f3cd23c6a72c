//! The console (`/app`): the authenticated web application of the people who send, track
//! and administer, and the pages that sign them in.
//!
//! What authorises a request: a console page, the session cookie ([`Session`], checked by
//! [`session::require`] against the principal's current security stamp) and then the
//! permission the API's table gives the same operation. The sign-in pages come before any
//! session: Signet's sign-in page (`sign_in`), single sign-on (`sso`) and the set-password
//! link (`account`, whose token is its credential); they end in a one-time code that
//! `/app/session` turns into a session. The public pages a link authorises are `crate::signer`.
//!
//! Pages are rendered on the server (askama templates in `templates/console/`) and work
//! without JavaScript; `static/console.js` adds what needs a script (placing signature fields
//! by dragging them onto the pages). Why this technology: `docs/decisions.md`.
//!
//! Handlers are thin, as the API's are: each takes the [`Session`], checks the permission,
//! calls one service function and renders its answer. The caller is the same [`Auth`] as the
//! API's (`signet-http`), so the audit trail, tenant scoping and refusals are the API's.

mod access;
mod account;
mod admin;
mod audit;
mod bulk;
mod exports;
mod gateway;
mod inbox;
mod invoices;
mod login;
mod lots;
mod notices;
mod organisation;
mod people;
mod privacy;
mod roles;
mod send;
pub mod session;
mod sign_in;
mod signing;
mod sso;
mod stamps;
mod templates;
mod verify;
mod workflows;

use askama::Template;
use axum::Router;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use signet_domain::access::Permission;
use signet_domain::{Error, Zone};
use signet_http::AppState;
use signet_http::auth::Auth;

use crate::text::{Html as TextHtml, Text, key};

/// Scripts and styles from this origin only; page images are this origin's too.
const CONSOLE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
    connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

pub fn router(state: AppState) -> Router {
    let pages = Router::new()
        .route("/app", get(workflows::list))
        .route("/app/workflows/{id}", get(workflows::show))
        .route("/app/workflows/{id}/documents/{document}", get(workflows::download))
        .route("/app/workflows/{id}/certificate", get(workflows::certificate))
        .route("/app/workflows/{id}/evidence", get(workflows::evidence))
        .route("/app/workflows/{id}/attachments/{attachment}", get(workflows::attachment))
        .route("/app/workflows/{id}/{action}", post(workflows::act))
        .route("/app/send", get(send::form).post(send::upload))
        .route("/app/send/documents/{id}/pages/{page}", get(send::page_image))
        .route("/app/send/start", post(send::start))
        .route("/app/send/review", post(send::review))
        .route("/app/send/place", post(send::back))
        .route("/app/templates", get(templates::list).post(templates::create))
        .route("/app/templates/{id}", get(templates::show))
        .route("/app/templates/{id}/pages/{page}", get(templates::page_image))
        .route("/app/templates/{id}/edit", post(templates::edit))
        .route("/app/templates/{id}/duplicate", post(templates::duplicate))
        .route("/app/templates/{id}/archive", post(templates::archive))
        .route("/app/bulk", get(bulk::form).post(bulk::submit))
        .route("/app/bulk/jobs/{id}", get(bulk::job))
        .route("/app/bulk/jobs/{id}/progress", get(bulk::progress))
        .route("/app/bulk/jobs/{id}/report", get(bulk::report))
        .route("/app/people", get(people::list).post(people::invite))
        .route("/app/people/{id}/decide", post(people::decide))
        .route("/app/roles", get(roles::list).post(roles::create))
        .route("/app/roles/{id}/delete", post(roles::delete))
        .route("/app/inbox", get(inbox::list))
        .route("/app/inbox/{id}", get(inbox::open))
        .route("/app/lots", get(lots::form).post(lots::create))
        .route("/app/lots/{id}", get(inbox::lot))
        .route("/app/lots/{id}/sign", post(inbox::sign_lot))
        .route("/app/audit", get(audit::list))
        .route("/app/departments", get(admin::departments).post(admin::create_department))
        .route("/app/departments/{id}/delete", post(admin::delete_department))
        .route("/app/exports", get(exports::form).post(exports::start))
        .route("/app/exports/{id}", get(exports::job))
        .route("/app/exports/{id}/file", get(exports::file))
        .route("/app/stamps", get(stamps::show))
        .route("/app/stamps/load", post(stamps::load))
        .route("/app/stamps/settings", post(stamps::settings))
        .route("/app/stamps/articles", post(stamps::set_article))
        .route("/app/stamps/articles/remove", post(stamps::remove_article))
        .route("/app/stamps/{id}/retire", post(stamps::retire))
        .route("/app/stamps/{id}/certificate", get(stamps::certificate))
        .route("/app/invoices", get(invoices::show))
        .route("/app/invoices/billing-profile", post(invoices::save_billing_profile))
        .route("/app/invoices/issue", post(invoices::issue))
        .route("/app/invoices/{id}/{document}", get(invoices::document))
        .route("/app/signing", get(signing::show))
        .route("/app/signing/certificates", post(signing::enrol))
        .route("/app/signing/certificates/remove", post(signing::remove))
        .route("/app/signing/automated", post(signing::automated))
        .route("/app/signing/profiles", post(signing::create_profile))
        .route("/app/signing/profiles/{id}/revoke", post(signing::revoke_profile))
        .route("/app/access", get(access::show))
        .route("/app/access/activities", post(access::create_activity))
        .route("/app/access/grant", post(access::grant))
        .route("/app/access/{id}/delete", post(access::delete_activity))
        .route("/app/access/{menu}/users/{user}/take-back", post(access::take_back_from_user))
        .route("/app/access/{menu}/departments/{department}/take-back", post(access::take_back_from_department))
        .route("/app/login", get(login::show))
        .route("/app/login/totp", post(login::totp_enrol))
        .route("/app/login/totp/confirm", post(login::totp_confirm))
        .route("/app/login/totp/disable", post(login::totp_disable))
        .route("/app/login/sso-providers", post(login::create_provider))
        .route("/app/login/sso-providers/{id}/change", post(login::update_provider))
        .route("/app/login/sso-providers/{id}/delete", post(login::delete_provider))
        .route("/app/login/domains", post(login::start_domain_proof))
        .route("/app/login/domains/check", post(login::check_domain_proof))
        .route("/app/login/sso-second-factor", post(login::set_sso_second_factor))
        .route("/app/organisation", get(organisation::show).post(organisation::save))
        .route("/app/organisation/embedding", post(organisation::save_embedding))
        .route("/app/privacy", get(privacy::show))
        .route("/app/privacy/retention", post(privacy::save_retention))
        .route("/app/privacy/holds", post(privacy::place_hold))
        .route("/app/privacy/holds/{id}/release", post(privacy::release_hold))
        .route("/app/privacy/erasure", post(privacy::request_erasure))
        .route("/app/notices", get(notices::show).post(notices::save))
        .route("/app/gateway", get(gateway::show))
        .route("/app/gateway/authtokens", post(gateway::create_token))
        .route("/app/gateway/authtokens/{id}/revoke", post(gateway::revoke_token))
        .route("/app/gateway/settings", post(gateway::save_settings))
        .route("/app/webhooks", get(admin::webhooks).post(admin::create_webhook))
        .route("/app/webhooks/{id}/delete", post(admin::delete_webhook))
        .route("/app/webhooks/{id}/resume", post(admin::resume_webhook))
        .route("/app/webhooks/{id}/deliveries/{delivery}/again", post(admin::redeliver))
        .route("/app/verify", get(verify::form).post(verify::seal))
        .route("/app/sign-out", post(session::end))
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), session::require));
    Router::new()
        .route("/app/session", get(session::start))
        .route("/app/static/console.js", get(script))
        .route("/app/static/console.css", get(style))
        .merge(pages)
        .merge(sign_in::routes())
        .with_state(state)
}

async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../../static/console.js"))
}

async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("../../static/console.css"))
}

/// The signed-in person of a console request.
#[derive(Clone)]
pub struct Session {
    pub auth: Auth,
    /// The token every form of this session carries.
    pub csrf: String,
    pub name: String,
    /// The console's text in the language the browser asks for.
    pub text: Text,
    /// The organisation's time zone, in which the console shows every time.
    pub zone: Zone,
}

impl Session {
    /// An instant as people read it, in the organisation's zone with the zone named
    /// (`28 Nov 2026, 01:00 IST`).
    pub fn when(&self, millis: i64) -> String {
        self.zone.format_in(self.text.lang(), millis)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Session {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<Session>()
            .cloned()
            .ok_or_else(|| page_error(StatusCode::UNAUTHORIZED, Text::EN.s("message.sign_in")))
    }
}

impl Session {
    /// The refusal of a page the person's role does not allow (as the API refuses the
    /// operation), if it does not.
    pub fn refuses_without(&self, permission: Permission) -> Option<Response> {
        (!self.auth.access.allows(permission)).then(|| {
            page_error(
                StatusCode::FORBIDDEN,
                &self.text.plain("message.role_refused", &[("role", &self.auth.access.name())]),
            )
        })
    }

    /// The refusal of a change (a form) the role does not allow or that does not carry this
    /// session's token, if it is refused.
    pub fn refuses_change(&self, permission: Permission, token: &str) -> Option<Response> {
        self.refuses_without(permission).or_else(|| self.refuses_form(token))
    }

    /// What every page's frame shows: the sections this person may open, in their groups,
    /// their name and the sign-out form.
    pub fn frame(&self, current: &'static str) -> Frame {
        let text = self.text;
        let groups: Vec<NavGroup> = SECTIONS
            .iter()
            .map(|(group, sections)| NavGroup {
                label: text.t(group),
                items: sections
                    .iter()
                    .filter(|(_, _, permission)| self.auth.access.allows(*permission))
                    .map(|(label, href, _)| NavItem { label: text.t(label), href, current: *href == current })
                    .collect(),
            })
            .filter(|group| !group.items.is_empty())
            .collect();
        let may_send = self.auth.access.allows(Permission::SendWorkflows);
        Frame { csrf: self.csrf.clone(), name: self.name.clone(), groups, may_send, text }
    }
}

/// A section of the console: its words, its address and the permission that opens it.
type Section = (&'static str, &'static str, Permission);

/// The console's sections in the four groups its navigation shows (issue 37: eighteen links
/// in one row were too many to find one's way): each with its words, address and the
/// permission that opens it.
const SECTIONS: [(&str, &[Section]); 4] = [
    (
        key("frame.group.send_and_track"),
        &[
            (key("frame.nav.to_sign"), "/app/inbox", Permission::Authenticated),
            (key("frame.nav.workflows"), "/app", Permission::ReadWorkflows),
            (key("frame.nav.send"), "/app/send", Permission::SendWorkflows),
            (key("frame.nav.bulk"), "/app/bulk", Permission::SendWorkflows),
            (key("frame.nav.templates"), "/app/templates", Permission::SendWorkflows),
            (key("frame.nav.lots"), "/app/lots", Permission::SendWorkflows),
            (key("frame.nav.verify"), "/app/verify", Permission::ReadWorkflows),
            (key("frame.nav.exports"), "/app/exports", Permission::ReadWorkflows),
        ],
    ),
    (
        key("frame.group.people_and_access"),
        &[
            (key("frame.nav.people"), "/app/people", Permission::ReadDirectory),
            (key("frame.nav.departments"), "/app/departments", Permission::ReadDirectory),
            (key("frame.nav.access"), "/app/access", Permission::ReadDirectory),
            (key("frame.nav.audit"), "/app/audit", Permission::ReadAudit),
        ],
    ),
    (
        key("frame.group.stamps_and_billing"),
        &[
            (key("frame.nav.stamps"), "/app/stamps", Permission::ReadWorkflows),
            (key("frame.nav.invoices"), "/app/invoices", Permission::ReadWorkflows),
        ],
    ),
    (
        key("frame.group.settings"),
        &[
            (key("frame.nav.signing"), "/app/signing", Permission::Authenticated),
            (key("frame.nav.login"), "/app/login", Permission::Authenticated),
            (key("frame.nav.notices"), "/app/notices", Permission::Authenticated),
            (key("frame.nav.organisation"), "/app/organisation", Permission::ManageSettings),
            (key("frame.nav.privacy"), "/app/privacy", Permission::ManageSettings),
            (key("frame.nav.gateway"), "/app/gateway", Permission::ManageSettings),
            (key("frame.nav.webhooks"), "/app/webhooks", Permission::ManageSettings),
        ],
    ),
];

/// The frame around every console page.
pub struct Frame {
    pub csrf: String,
    pub name: String,
    /// The sections this person may open, in their groups (groups with none left out).
    pub groups: Vec<NavGroup>,
    /// Whether this person may send documents (pages then point to the send form).
    pub may_send: bool,
    /// The page's language and text.
    pub text: Text,
}

impl Frame {
    /// The page's `lang` attribute.
    pub fn lang(&self) -> &'static str {
        self.text.lang().code()
    }

    /// The catalogue's text of `key` (`crates/web/text/`), shown unescaped.
    pub fn t(&self, key: &str) -> TextHtml {
        self.text.t(key)
    }

    /// The text of `key` with its placeholder `a` filled in with `va` (escaped).
    pub fn tf1(&self, key: &str, a: &str, va: impl std::fmt::Display) -> TextHtml {
        self.text.tf(key, &[(a, &va)])
    }

    /// As [`Frame::tf1`], with two placeholders.
    pub fn tf2(&self, key: &str, a: &str, va: impl std::fmt::Display, b: &str, vb: impl std::fmt::Display) -> TextHtml {
        self.text.tf(key, &[(a, &va), (b, &vb)])
    }

    /// As [`Frame::tf1`], with three placeholders.
    #[allow(clippy::too_many_arguments)]
    pub fn tf3(
        &self,
        key: &str,
        a: &str,
        va: impl std::fmt::Display,
        b: &str,
        vb: impl std::fmt::Display,
        c: &str,
        vc: impl std::fmt::Display,
    ) -> TextHtml {
        self.text.tf(key, &[(a, &va), (b, &vb), (c, &vc)])
    }
}

/// A group of sections in the navigation, with its heading.
pub struct NavGroup {
    pub label: TextHtml,
    pub items: Vec<NavItem>,
}

pub struct NavItem {
    pub label: TextHtml,
    pub href: &'static str,
    pub current: bool,
}

/// A console page: scripts from this origin only, no framing, no referrer, not cached.
pub(crate) fn html(status: StatusCode, body: String) -> Response {
    let mut response = (status, Html(body)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONSOLE_CSP));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn render(status: StatusCode, page: &impl Template) -> Response {
    match page.render() {
        Ok(body) => html(status, body),
        Err(error) => {
            tracing::error!(%error, "a console page could not be rendered");
            page_error(StatusCode::INTERNAL_SERVER_ERROR, Text::EN.s("message.not_shown"))
        }
    }
}

#[derive(Template)]
#[template(path = "console/message.html")]
struct MessagePage<'a> {
    title: &'a str,
    message: &'a str,
    link: Option<(&'a str, &'a str)>,
    text: Text,
}

/// A page with a title, one message and maybe a link on.
pub(crate) fn message(status: StatusCode, title: &str, text: &str, link: Option<(&str, &str)>) -> Response {
    let page = MessagePage { title, message: text, link, text: Text::EN };
    html(status, page.render().unwrap_or_else(|_| text.to_string()))
}

/// A refusal the person can read, with the way back to the console.
pub(crate) fn page_error(status: StatusCode, text: &str) -> Response {
    let title = Text::EN.s(match status {
        StatusCode::FORBIDDEN => key("message.not_allowed"),
        StatusCode::NOT_FOUND => key("message.not_found"),
        s if s.is_server_error() => key("message.not_available"),
        _ => key("message.cannot"),
    });
    message(status, title, text, Some((Text::EN.s("message.back"), "/app")))
}

/// A refusal the person can correct, shown with its status on the page the form came from
/// (`page`, given the refusal's text); anything else is the failure page. When that page is
/// not theirs to see (a role that may send but not read workflows, a page gone meanwhile), the
/// refusal itself is the answer.
pub(crate) async fn shown_again<P: Template>(
    error: Error,
    page: impl AsyncFnOnce(String) -> Result<P, Error>,
) -> Response {
    let status = signet_http::error::status_of(error.code());
    if !status.is_client_error() {
        return failure(error);
    }
    match page(user_text(&error)).await {
        Ok(page) => render(status, &page),
        Err(unseen) if signet_http::error::status_of(unseen.code()).is_client_error() => failure(error),
        Err(unseen) => failure(unseen),
    }
}

/// A form's fields as `(name, value)` pairs in order: for forms that repeat a name
/// (checkboxes, placed boxes) or that come as multipart.
pub(crate) struct FormFields(pub Vec<(String, String)>);

impl<S: Send + Sync> axum::extract::FromRequest<S> for FormFields {
    type Rejection = Response;

    async fn from_request(request: axum::extract::Request, state: &S) -> Result<Self, Self::Rejection> {
        let unreadable = || page_error(StatusCode::BAD_REQUEST, Text::EN.s("message.form_unreadable"));
        let body = axum::body::Bytes::from_request(request, state).await.map_err(|_| unreadable())?;
        serde_urlencoded::from_bytes(&body).map(FormFields).map_err(|_| unreadable())
    }
}

impl FormFields {
    /// The first value of `name`, trimmed; empty when absent.
    pub fn get(&self, name: &str) -> &str {
        self.0.iter().find(|(key, _)| key == name).map(|(_, value)| value.trim()).unwrap_or_default()
    }

    /// Every value of `name`, in order.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.0.iter().filter(move |(key, _)| key == name).map(|(_, value)| value.as_str())
    }
}

/// A multipart form's text fields and its files under `file_field` (each with its name, or
/// `unnamed`; empty ones dropped), within the body limit the server sets; else the text of
/// the refusal.
pub(crate) async fn read_multipart(
    text: Text,
    multipart: axum::extract::Multipart,
    file_field: &str,
    unnamed: &str,
) -> Result<(FormFields, Vec<(String, Vec<u8>)>), String> {
    let (fields, files) = read_multipart_files(text, multipart, &[file_field], unnamed).await?;
    Ok((fields, files.into_iter().map(|(_, name, bytes)| (name, bytes)).collect()))
}

/// As [`read_multipart`], with files under any of `file_fields`, each as `(field, name, bytes)`.
pub(crate) async fn read_multipart_files(
    text: Text,
    mut multipart: axum::extract::Multipart,
    file_fields: &[&str],
    unnamed: &str,
) -> Result<(FormFields, Vec<(String, String, Vec<u8>)>), String> {
    let mut fields = Vec::new();
    let mut files = Vec::new();
    let unreadable = |_| text.s("message.files_unreadable").to_string();
    while let Some(field) = multipart.next_field().await.map_err(unreadable)? {
        let name = field.name().unwrap_or_default().to_string();
        if file_fields.contains(&name.as_str()) {
            let file_name = field.file_name().unwrap_or(unnamed).to_string();
            let bytes = field.bytes().await.map_err(unreadable)?;
            if !bytes.is_empty() {
                files.push((name, file_name, bytes.to_vec()));
            }
        } else if fields.len() < 200 {
            fields.push((name, field.text().await.map_err(unreadable)?));
        }
    }
    Ok((FormFields(fields), files))
}

/// A service's refusal as a page: what the person can correct, or that it failed.
pub(crate) fn failure(error: Error) -> Response {
    let status = signet_http::error::status_of(error.code());
    if status.is_server_error() {
        tracing::error!(%error, "a console request failed");
        return page_error(status, Text::EN.s("message.failed"));
    }
    page_error(status, &user_text(&error))
}

/// The text of a refusal for a person: the fields' messages, or the refusal as put.
pub(crate) fn user_text(error: &Error) -> String {
    match error {
        Error::Validation(fields) => fields
            .iter()
            .map(|(field, messages)| format!("{field}: {}", messages.join("; ")))
            .collect::<Vec<_>>()
            .join(". "),
        other => other.to_string(),
    }
}

/// A file to download under `name`, never shown inline (an attachment may be anything its
/// uploader chose) and not cached.
pub(crate) fn download(bytes: axum::body::Bytes, name: &str) -> Response {
    let mut response = signet_http::files::download_response(bytes, name, "application/octet-stream");
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
