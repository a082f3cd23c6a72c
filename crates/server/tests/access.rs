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
use signet_domain::access::Permission;
use signet_store::Backend;
use signet_testkit::server::spawn_with;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_answers_each_role_as_docs_access_md_says() {
    let smtp = SmtpSink::start();
    let app = spawn_with(Backend::Sqlite, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let tenant = app.tenant("Matrix Bank").await;
    let admin = app.token(&tenant).await;
    let mut tokens = Vec::new();
    for (role, id) in ROLES {
        let email = format!("{role}@matrix.test");
        let (_, token) = signet_testkit::people::signed_in_user(&app, &smtp, &admin, &email, id).await;
        tokens.push(token);
    }
    for permission in permissions() {
        let name = permission.as_str();
        let body = json!({"name": format!("only {name}"), "permissions": [name]});
        let role: Value = app.post("/api/v1/roles", &admin, body).await.json().await.expect("json");
        let email = format!("{}@matrix.test", name.replace('_', "-"));
        let role_id = role["roleId"].as_i64().expect("roleId");
        let (_, token) = signet_testkit::people::signed_in_user(&app, &smtp, &admin, &email, role_id).await;
        tokens.push(token);
    }

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
    if std::env::var_os("SIGNET_UPDATE_ACCESS_DOC").is_some() {
        let head = doc.split("| operation |").next().expect("head");
        let mut table = String::from("| operation | administrator | sender | signer | auditor |");
        for permission in permissions() {
            table.push_str(&format!(" {} |", permission.as_str()));
        }
        table.push_str(&format!("\n|---|{}\n", "---|".repeat(ROLES.len() + permissions().len())));
        for (operation, allowed) in &observed {
            let cells: Vec<&str> = allowed.iter().map(|a| if *a { "yes" } else { "no" }).collect();
            table.push_str(&format!("| `{operation}` | {} |\n", cells.join(" | ")));
        }
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
