//! Templates as a library (issue 37, item 9) at the store level, on SQLite and PostgreSQL: a
//! template keeps its document; it is edited (its menu entry renamed with it), archived and
//! brought back, listed by shelf and by a part of its name; another tenant's template is
//! neither read, listed, edited nor archived. Every change is in the tenant's audit trail.

#[macro_use]
mod support;

use serde_json::json;
use signet_domain::TemplateId;
use signet_domain::audit::Actor;
use signet_store::{Backend, NewTemplate, Shelf, Store, TemplateDocument, TemplateEdit, TemplateRow};
use support::{TestDb, tenant};

on_both_backends!(
    a_template_keeps_its_document_and_is_edited_with_its_menu_entry,
    archived_templates_leave_the_active_shelf_and_come_back,
    another_tenants_templates_are_out_of_reach,
);

fn maker() -> Actor {
    Actor { id: "user:1".into(), ip: None }
}

async fn made(
    store: &Store,
    tenant_id: signet_domain::TenantId,
    name: &str,
    kept: Option<&TemplateDocument>,
) -> TemplateRow {
    let definition = json!({"fields": [{"signatory": 1, "kind": "text", "label": "Loan number"}]});
    let new = NewTemplate { tenant_id, name, description: None, definition: &definition, document: kept };
    store.create_template(&new, &maker()).await.expect("template")
}

fn loan_pdf() -> TemplateDocument {
    TemplateDocument { name: "loan.pdf".into(), blob_key: "tenant/1/templates/template-x.pdf".into(), pages: 2 }
}

async fn audit_actions(store: &Store, tenant_id: signet_domain::TenantId) -> Vec<String> {
    let entries = store.audit_entries(tenant_id, 0, 100).await.expect("audit");
    entries.into_iter().map(|e| e.action).collect()
}

async fn a_template_keeps_its_document_and_is_edited_with_its_menu_entry(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "lib").await;
    let kept = loan_pdf();
    let template = made(&store, t, "Loan agreement", Some(&kept)).await;
    assert_eq!(template.document(), Some(kept.clone()));
    assert!(!template.is_archived());
    let bare = made(&store, t, "Bare", None).await;
    assert_eq!(bare.document(), None, "a template without a document keeps none");

    let definition = json!({"fields": [{"signatory": 2, "kind": "signature"}]});
    let edit = TemplateEdit { name: "Home loan agreement", description: Some("for homes"), definition: &definition };
    let edited = store.edit_template(t, template.id, &edit, &maker()).await.expect("edit").expect("found");
    assert_eq!(edited.name, "Home loan agreement");
    assert_eq!(edited.description.as_deref(), Some("for homes"));
    assert_eq!(serde_json::from_str::<serde_json::Value>(&edited.definition).expect("json"), definition);
    assert_eq!(edited.document(), Some(kept), "the document stays with the template");
    let read = store.template(t, template.id).await.expect("read").expect("found");
    assert_eq!(read.name, "Home loan agreement");
    let menus = store.menus(t, None).await.expect("menus");
    let entry = menus.iter().find(|m| m.template_id == Some(template.id)).expect("its menu entry");
    assert_eq!(entry.name, "Home loan agreement", "the menu entry is renamed with its template");
    assert!(audit_actions(&store, t).await.contains(&"template.changed".to_string()));
    let missing = store.edit_template(t, TemplateId::from(2_000_000_000), &edit, &maker()).await.expect("edit");
    assert!(missing.is_none());
}

async fn archived_templates_leave_the_active_shelf_and_come_back(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "shelf").await;
    let loan = made(&store, t, "Loan agreement", None).await;
    let lease = made(&store, t, "Lease_100%", None).await;
    let names = |rows: Vec<TemplateRow>| rows.into_iter().map(|r| r.name).collect::<Vec<_>>();

    let archived = store.archive_template(t, loan.id, true, &maker()).await.expect("archive").expect("found");
    let first_date = archived.archived_at.expect("archived");
    let again = store.archive_template(t, loan.id, true, &maker()).await.expect("again").expect("found");
    assert_eq!(again.archived_at, Some(first_date), "archiving twice keeps the first date");
    let active = store.template_library(t, Shelf::Active, None).await.expect("active");
    assert_eq!(names(active), vec!["Lease_100%"]);
    let shelved = store.template_library(t, Shelf::Archived, None).await.expect("archived");
    assert_eq!(names(shelved), vec!["Loan agreement"]);
    assert!(store.template(t, loan.id).await.expect("read").expect("still readable").is_archived());

    // The search is a part of the name in any case; `%` and `_` are matched as themselves.
    assert_eq!(names(store.template_library(t, Shelf::Active, Some("LEASE")).await.expect("q")), vec!["Lease_100%"]);
    assert_eq!(names(store.template_library(t, Shelf::Active, Some("_100%")).await.expect("q")), vec!["Lease_100%"]);
    assert!(store.template_library(t, Shelf::Active, Some("e_1x")).await.expect("q").is_empty());
    assert!(store.template_library(t, Shelf::Active, Some("loan")).await.expect("q").is_empty());

    let back = store.archive_template(t, loan.id, false, &maker()).await.expect("restore").expect("found");
    assert!(!back.is_archived());
    assert_eq!(store.template_library(t, Shelf::Active, None).await.expect("active").len(), 2);
    let actions = audit_actions(&store, t).await;
    assert!(actions.contains(&"template.archived".to_string()) && actions.contains(&"template.restored".to_string()));
    let _ = lease;
}

async fn another_tenants_templates_are_out_of_reach(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let (ours, theirs) = (tenant(&store, "ours").await, tenant(&store, "theirs").await);
    let kept = loan_pdf();
    let template = made(&store, ours, "Loan agreement", Some(&kept)).await;
    assert!(store.template(theirs, template.id).await.expect("read").is_none());
    assert!(store.template_library(theirs, Shelf::Active, None).await.expect("list").is_empty());
    let definition = json!({});
    let edit = TemplateEdit { name: "Taken", description: None, definition: &definition };
    assert!(store.edit_template(theirs, template.id, &edit, &maker()).await.expect("edit").is_none());
    assert!(store.archive_template(theirs, template.id, true, &maker()).await.expect("archive").is_none());
    let untouched = store.template(ours, template.id).await.expect("read").expect("found");
    assert_eq!(untouched.name, "Loan agreement");
    assert!(!untouched.is_archived(), "another tenant archived our template");
    assert!(!audit_actions(&store, theirs).await.iter().any(|a| a.starts_with("template.")));
}
