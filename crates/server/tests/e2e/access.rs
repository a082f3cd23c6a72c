//! The permission matrix: every operation of the OpenAPI document, called by a signed-in user
//! of each built-in role and of a tenant role with exactly one permission (one such role for
//! each permission), answers as `docs/access.md` says: 403 `forbidden` where the role lacks the
//! permission, anything else where it has it. Whatever the document says, a tenant role never
//! passes an operation whose permission (`signet_api::access::requirement`) it lacks. The
//! document's table lists exactly the document's operations. `SIGNET_UPDATE_ACCESS_DOC=1`
//! rewrites the table from what the server does (review the diff).

use std::collections::BTreeMap;

use reqwest::Method;
use serde_json::{Value, json};
use signet_api::access::{Requirement, requirement};
use signet_domain::access::{Access, CustomRole, Permission, Role};
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::server::{TestApp, spawn_with};
use signet_testkit::smtp::SmtpSink;

const ROLES: [(&str, i64); 4] = [("administrator", 1), ("sender", 2), ("signer", 3), ("auditor", 4)];
/// The permissions a tenant role may list (every one but being signed in): one role of the
/// tenant for each, granting only it.
fn permissions() -> Vec<Permission> {
    Permission::ALL.into_iter().filter(|p| *p != Permission::Authenticated).collect()
}
const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/access.md");
const MISSING: &str = "2000000000";

fn documented_matrix(doc: &str) -> BTreeMap<String, Vec<bool>> {
    doc.lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|line| {
            let (operation, cells) = line.split_once("` |")?;
            if !operation.contains(" /api/") {
                return None;
            }
            let allowed: Vec<bool> =
                cells.split('|').map(str::trim).filter(|c| !c.is_empty()).map(|c| c == "yes").collect();
            Some((operation.to_string(), allowed))
        })
        .collect()
}

fn concrete(path: &str) -> String {
    let mut out = String::new();
    let mut in_param = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_param = true;
                out.push_str(MISSING);
            }
            '}' => in_param = false,
            _ if in_param => {}
            _ => out.push(c),
        }
    }
    out
}

/// A signed-in user of each column of the matrix, in its order: the built-in roles, then a
/// tenant role for each permission. Each is its access, address and API access token.
async fn matrix_people(app: &TestApp, smtp: &SmtpSink, admin: &str, domain: &str) -> Vec<(Access, String, String)> {
    let mut people = Vec::new();
    for (role, id) in ROLES {
        let email = format!("{role}@{domain}");
        let (_, token) = signet_testkit::people::signed_in_user(app, smtp, admin, &email, id).await;
        let role = Role::ALL.iter().copied().find(|r| r.as_str() == role).expect("role");
        people.push((Access::builtin(role), email, token));
    }
    for permission in permissions() {
        let name = permission.as_str();
        let body = json!({"name": format!("only {name}"), "permissions": [name]});
        let role: Value = app.post("/api/v1/roles", admin, body).await.json().await.expect("json");
        let email = format!("{}@{domain}", name.replace('_', "-"));
        let role_id = role["roleId"].as_i64().expect("roleId");
        let (_, token) = signet_testkit::people::signed_in_user(app, smtp, admin, &email, role_id).await;
        let Some(signet_domain::access::RoleRef::Custom(stored)) = signet_domain::access::RoleRef::from_wire(role_id)
        else {
            panic!("roleId {role_id} names no tenant role");
        };
        let custom = CustomRole { id: stored, name: format!("only {name}"), permissions: vec![permission] };
        people.push((Access { role: Role::Signer, custom: Some(custom) }, email, token));
    }
    people
}

/// The markdown table `docs/access.md` shows of `observed` (a row per operation or page, a
/// column per person of [`matrix_people`]), headed `first`.
fn matrix_table(first: &str, observed: &BTreeMap<String, Vec<bool>>) -> String {
    let mut table = format!("| {first} | administrator | sender | signer | auditor |");
    for permission in permissions() {
        table.push_str(&format!(" {} |", permission.as_str()));
    }
    table.push_str(&format!("\n|---|{}\n", "---|".repeat(ROLES.len() + permissions().len())));
    for (row, allowed) in observed {
        let cells: Vec<&str> = allowed.iter().map(|a| if *a { "yes" } else { "no" }).collect();
        table.push_str(&format!("| `{row}` | {} |\n", cells.join(" | ")));
    }
    table
}

on_both_backends!(every_operation_answers_each_role_as_docs_access_md_says);

async fn every_operation_answers_each_role_as_docs_access_md_says(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let tenant = app.tenant("Matrix Bank").await;
    let admin = app.token(&tenant).await;
    let people = matrix_people(&app, &smtp, &admin, "matrix.test").await;
    let tokens: Vec<&String> = people.iter().map(|(_, _, token)| token).collect();

    let document: Value = serde_json::to_value(signet_server::openapi::document()).expect("document");
    let mut operations = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("item") {
            operations.push((method.to_uppercase(), path.clone(), operation.get("requestBody").is_some()));
        }
    }
    // Ending one's own sessions goes last: every later call would be refused.
    operations.sort_by_key(|(method, path, _)| (path == "/api/v1/auth/sessions/revoke", method.clone(), path.clone()));

    let mut observed: BTreeMap<String, Vec<bool>> = BTreeMap::new();
    for (method, path, takes_body) in &operations {
        let label = format!("{method} {path}");
        for token in &tokens {
            let mut request = app
                .client
                .request(Method::from_bytes(method.as_bytes()).expect("method"), app.url(&concrete(path)))
                .bearer_auth(token);
            if *takes_body {
                request = request.json(&json!({}));
            }
            let response = request.send().await.expect("send");
            let status = response.status().as_u16();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            if status == 403 {
                assert_eq!(body["code"], "forbidden", "{label}: {body}");
            }
            observed.entry(label.clone()).or_default().push(status != 403);
        }
    }

    let doc = std::fs::read_to_string(DOC).expect("docs/access.md");
    if std::env::var_os("SIGNET_UPDATE_ACCESS_DOC").is_some() && backend == Backend::Sqlite {
        let head = doc.split("| operation |").next().expect("head");
        let table = matrix_table("operation", &observed);
        std::fs::write(DOC, format!("{head}{table}")).expect("write docs/access.md");
        return;
    }
    let documented = documented_matrix(&doc);
    let missing: Vec<&String> = observed.keys().filter(|k| !documented.contains_key(*k)).collect();
    let stale: Vec<&String> = documented.keys().filter(|k| !observed.contains_key(*k)).collect();
    assert!(missing.is_empty() && stale.is_empty(), "docs/access.md lacks {missing:?} and lists unknown {stale:?}");
    for (operation, allowed) in &observed {
        assert_eq!(Some(allowed), documented.get(operation), "{operation}: roles {ROLES:?} (true = allowed)");
    }
    // Administrators may do everything; an operation no role may call would be a mistake.
    assert!(observed.values().all(|a| a[0]), "an administrator is refused somewhere: {observed:?}");
    // No tenant role passes an operation whose permission it lacks.
    for (operation, allowed) in &observed {
        let (method, path) = operation.split_once(' ').expect("method and path");
        let method = axum::http::Method::from_bytes(method.as_bytes()).expect("method");
        let Some(Requirement::Needs(needed)) = requirement(&method, path) else { continue };
        for (permission, passed) in permissions().iter().zip(&allowed[ROLES.len()..]) {
            if needed != Permission::Authenticated && *permission != needed {
                assert!(
                    !passed,
                    "{operation} needs {} and passed a role with only {}",
                    needed.as_str(),
                    permission.as_str()
                );
            }
        }
    }
}

/// The console's pages and forms, each with the permissions its use case needs (any of them;
/// none: administrators only). `Authenticated`
/// marks what every signed-in person reaches, whose answer then depends on their relation to
/// what it names (their own inbox, lots, jobs, sign-in settings, certificates): for an id that
/// does not exist, that is 404 for everyone.
const CONSOLE: [(&str, &str, &[Permission]); 101] = {
    use Permission::*;
    [
        // The landing page: the workflows list, or the inbox for whoever cannot read workflows.
        ("GET", "/app", &[Authenticated]),
        ("GET", "/app/workflows/{id}", &[ReadWorkflows]),
        ("GET", "/app/workflows/{id}/documents/{document}", &[ReadWorkflows]),
        ("GET", "/app/workflows/{id}/certificate", &[ReadWorkflows]),
        ("GET", "/app/workflows/{id}/evidence", &[ReadWorkflows]),
        ("GET", "/app/workflows/{id}/attachments/{attachment}", &[ReadWorkflows]),
        ("POST", "/app/workflows/{id}/{action}", &[SendWorkflows]),
        ("GET", "/app/send", &[SendWorkflows]),
        ("POST", "/app/send", &[SendWorkflows]),
        ("GET", "/app/send/documents/{id}/pages/{page}", &[SendWorkflows]),
        ("POST", "/app/send/start", &[SendWorkflows]),
        ("POST", "/app/send/review", &[SendWorkflows]),
        ("POST", "/app/send/place", &[SendWorkflows]),
        // Templates are read by whoever reads or sends workflows; changed by senders (their own).
        ("GET", "/app/templates", &[ReadWorkflows, SendWorkflows]),
        ("POST", "/app/templates", &[SendWorkflows]),
        ("GET", "/app/templates/{id}", &[ReadWorkflows, SendWorkflows]),
        ("GET", "/app/templates/{id}/pages/{page}", &[ReadWorkflows, SendWorkflows]),
        ("POST", "/app/templates/{id}/edit", &[SendWorkflows]),
        ("POST", "/app/templates/{id}/duplicate", &[SendWorkflows]),
        ("POST", "/app/templates/{id}/archive", &[SendWorkflows]),
        ("GET", "/app/bulk", &[SendWorkflows]),
        ("POST", "/app/bulk", &[SendWorkflows]),
        ("GET", "/app/bulk/jobs/{id}", &[Authenticated]),
        ("GET", "/app/bulk/jobs/{id}/progress", &[Authenticated]),
        ("GET", "/app/bulk/jobs/{id}/report", &[Authenticated]),
        ("GET", "/app/people", &[ReadDirectory]),
        ("POST", "/app/people", &[ManagePeople]),
        ("POST", "/app/people/{id}/decide", &[ManagePeople]),
        ("GET", "/app/roles", &[ReadDirectory]),
        // Only administrators make and remove roles (none listed: administrators only).
        ("POST", "/app/roles", &[]),
        ("POST", "/app/roles/{id}/delete", &[]),
        ("GET", "/app/inbox", &[Authenticated]),
        ("GET", "/app/inbox/{id}", &[Authenticated]),
        ("GET", "/app/lots", &[SendWorkflows]),
        ("POST", "/app/lots", &[SendWorkflows]),
        ("GET", "/app/lots/{id}", &[Authenticated]),
        ("POST", "/app/lots/{id}/sign", &[Authenticated]),
        ("GET", "/app/audit", &[ReadAudit]),
        ("GET", "/app/verify", &[ReadWorkflows]),
        ("POST", "/app/verify", &[ReadWorkflows]),
        ("GET", "/app/departments", &[ReadDirectory]),
        ("POST", "/app/departments", &[ManagePeople]),
        ("POST", "/app/departments/{id}/delete", &[ManagePeople]),
        // Open to whoever may export one of the datasets; each export needs its own permission.
        ("GET", "/app/exports", &[ReadWorkflows, ReadDirectory, ReadAudit]),
        ("POST", "/app/exports", &[ReadWorkflows]),
        ("GET", "/app/exports/{id}", &[Authenticated]),
        ("GET", "/app/exports/{id}/file", &[Authenticated]),
        ("GET", "/app/stamps", &[ReadWorkflows]),
        ("POST", "/app/stamps/load", &[ManageSettings]),
        ("POST", "/app/stamps/settings", &[ManageSettings]),
        ("POST", "/app/stamps/articles", &[ManageSettings]),
        ("POST", "/app/stamps/articles/remove", &[ManageSettings]),
        ("POST", "/app/stamps/{id}/retire", &[ManageSettings]),
        ("GET", "/app/stamps/{id}/certificate", &[ReadWorkflows]),
        ("GET", "/app/invoices", &[ReadWorkflows]),
        ("POST", "/app/invoices/billing-profile", &[ManageSettings]),
        ("POST", "/app/invoices/issue", &[ManageSettings]),
        ("GET", "/app/invoices/{id}/{document}", &[ReadWorkflows]),
        ("GET", "/app/signing", &[Authenticated]),
        ("POST", "/app/signing/certificates", &[Authenticated]),
        ("POST", "/app/signing/certificates/remove", &[Authenticated]),
        ("POST", "/app/signing/automated", &[Authenticated]),
        ("POST", "/app/signing/profiles", &[ManageSettings]),
        ("POST", "/app/signing/profiles/{id}/revoke", &[ManageSettings]),
        ("GET", "/app/access", &[ReadDirectory]),
        ("POST", "/app/access/activities", &[ManagePeople]),
        ("POST", "/app/access/grant", &[ManagePeople]),
        ("POST", "/app/access/{id}/delete", &[ManagePeople]),
        ("POST", "/app/access/{menu}/users/{user}/take-back", &[ManagePeople]),
        ("POST", "/app/access/{menu}/departments/{department}/take-back", &[ManagePeople]),
        ("GET", "/app/login", &[Authenticated]),
        ("POST", "/app/login/totp", &[Authenticated]),
        ("POST", "/app/login/totp/confirm", &[Authenticated]),
        ("POST", "/app/login/totp/disable", &[Authenticated]),
        ("POST", "/app/login/sso-providers", &[ManageSettings]),
        ("POST", "/app/login/sso-providers/{id}/change", &[ManageSettings]),
        ("POST", "/app/login/sso-providers/{id}/delete", &[ManageSettings]),
        ("POST", "/app/login/domains", &[ManageSettings]),
        ("POST", "/app/login/domains/check", &[ManageSettings]),
        // Only administrators change whether single sign-on stands in for the second factor.
        ("POST", "/app/login/sso-second-factor", &[]),
        ("GET", "/app/notices", &[Authenticated]),
        ("POST", "/app/notices", &[Authenticated]),
        ("GET", "/app/organisation", &[ManageSettings]),
        ("POST", "/app/organisation", &[ManageSettings]),
        ("POST", "/app/organisation/embedding", &[ManageSettings]),
        ("GET", "/app/privacy", &[ManageSettings]),
        ("POST", "/app/privacy/retention", &[ManageSettings]),
        ("POST", "/app/privacy/holds", &[ManageSettings]),
        ("POST", "/app/privacy/holds/{id}/release", &[ManageSettings]),
        ("POST", "/app/privacy/erasure", &[ManageSettings]),
        ("GET", "/app/gateway", &[ManageSettings]),
        ("POST", "/app/gateway/authtokens", &[ManageSettings]),
        ("POST", "/app/gateway/authtokens/{id}/revoke", &[ManageSettings]),
        ("POST", "/app/gateway/settings", &[ManageSettings]),
        ("GET", "/app/webhooks", &[ManageSettings]),
        ("POST", "/app/webhooks", &[ManageSettings]),
        ("POST", "/app/webhooks/{id}/delete", &[ManageSettings]),
        ("POST", "/app/webhooks/{id}/resume", &[ManageSettings]),
        ("POST", "/app/webhooks/{id}/deliveries/{delivery}/again", &[ManageSettings]),
        ("POST", "/app/sign-out", &[Authenticated]),
        ("GET", "/app/session", &[Authenticated]),
    ]
};

/// Forms sent as `multipart/form-data` (files, signature images).
const MULTIPART: [&str; 8] = [
    "/app/send",
    "/app/templates",
    "/app/verify",
    "/app/bulk",
    "/app/lots/{id}/sign",
    "/app/stamps/load",
    "/app/signing/certificates",
    "/app/signing/profiles",
];

/// Every `/app` route the console's router declares, as `METHOD path`, read from its source
/// (so a new page or form without its row in [`CONSOLE`] fails the test).
fn console_routes() -> Vec<String> {
    let router = include_str!("../../../web/src/console/mod.rs");
    let mut routes = Vec::new();
    for line in router.lines().map(str::trim).filter(|l| l.starts_with(".route(\"/app")) {
        let path = line.trim_start_matches(".route(\"").split('"').next().unwrap_or_default();
        for method in ["get", "post"] {
            let handler = format!("{method}(");
            if line.contains(&handler) && !path.starts_with("/app/static/") {
                routes.push(format!("{} {path}", method.to_uppercase()));
            }
        }
    }
    routes
}

/// A concrete address for a console route: ids no tenant has, page 1, a real action name.
fn console_address(path: &str) -> String {
    concrete(&path.replace("{page}", "1").replace("{action}", "decline"))
}

on_both_backends!(every_console_page_and_form_answers_each_role_by_its_permission);

/// The console's counterpart of the operation matrix: every page (GET) and form (POST, with
/// this session's form token and the fields the forms require) of `/app`, opened by a signed-in
/// user of each built-in role and of each one-permission tenant role, is refused (403) exactly
/// when the role lacks the permission [`CONSOLE`] names; `docs/access.md` shows the result.
async fn every_console_page_and_form_answers_each_role_by_its_permission(backend: Backend) {
    use signet_testkit::console::{Browser, console_session, csrf_of};
    let declared = console_routes();
    let listed: Vec<String> = CONSOLE.iter().map(|(m, p, _)| format!("{m} {p}")).collect();
    let unlisted: Vec<&String> = declared.iter().filter(|r| !listed.contains(r)).collect();
    let stale: Vec<&String> = listed.iter().filter(|r| !declared.contains(r)).collect();
    assert!(unlisted.is_empty() && stale.is_empty(), "CONSOLE lacks {unlisted:?} and lists unknown {stale:?}");

    let smtp = SmtpSink::start();
    let app = spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let tenant = app.tenant("Console Matrix Bank").await;
    let admin = app.token(&tenant).await;
    let mut people: Vec<(Access, Browser)> = Vec::new();
    for (access, email, _) in matrix_people(&app, &smtp, &admin, "console.test").await {
        people.push((access, console_session(&app, &email, signet_testkit::people::GOOD_PASSWORD).await));
    }

    let mut observed: BTreeMap<String, Vec<bool>> = BTreeMap::new();
    // Signing out and starting a session are how one enters and leaves, not pages to refuse.
    let pages = CONSOLE.iter().filter(|(_, path, _)| !["/app/sign-out", "/app/session"].contains(path));
    for (access, browser) in &people {
        let inbox = browser.get(app.url("/app/inbox")).await;
        assert_eq!(inbox.status(), 200, "{}", access.name());
        let csrf = csrf_of(&inbox.text().await.expect("html"));
        for &(method, path, needs) in pages.clone() {
            let url = app.url(&console_address(path));
            let response = match (method, MULTIPART.contains(&path)) {
                ("GET", _) => browser.get(url).await,
                (_, true) => {
                    let form = reqwest::multipart::Form::new().text("csrf", csrf.clone());
                    browser.send(browser.http.post(url).multipart(form)).await
                }
                (_, false) => {
                    let fields = [
                        ("csrf", csrf.as_str()),
                        ("decision", "reject"),
                        ("dataset", "workflows"),
                        ("format", "csv"),
                        ("name", "Matrix"),
                        ("email", "matrix@nowhere.test"),
                        ("role", "3"),
                    ];
                    browser.post(url, &fields).await
                }
            };
            let status = response.status().as_u16();
            let label = format!("{method} {path}");
            assert!(status < 500, "{label} as {}: {status}", access.name());
            let allowed = access.is_administrator() || needs.iter().any(|p| access.allows(*p));
            assert_eq!(status != 403, allowed, "{label} as {} ({status}); it needs one of {needs:?}", access.name());
            observed.entry(label).or_default().push(status != 403);
        }
    }

    let doc = std::fs::read_to_string(DOC).expect("docs/access.md");
    let table = matrix_table("page or form", &observed);
    let start = doc.find("| page or form |").expect("docs/access.md has the console's table");
    let end = start + doc[start..].find("\n\n").expect("the table ends");
    let documented = &doc[start..=end];
    if std::env::var_os("SIGNET_UPDATE_ACCESS_DOC").is_some() && backend == Backend::Sqlite {
        std::fs::write(DOC, format!("{}{table}{}", &doc[..start], &doc[end + 1..])).expect("write docs/access.md");
        return;
    }
    assert_eq!(documented, table, "docs/access.md's console table (SIGNET_UPDATE_ACCESS_DOC=1 rewrites it)");
}
