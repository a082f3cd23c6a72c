//! A chain entry's client address (issue 34): the hash covers a commitment to it, the address
//! is kept sealed beside it and opened as it is read, and an address from before commitments is
//! sealed in place by the start-up pass with the chain still verifying, on SQLite and PostgreSQL.
//! The cipher here only marks what it sealed; the services' AES-GCM one is tested end to end
//! (`e2e at_rest`).

#[macro_use]
mod support;

use std::sync::Arc;

use serde_json::json;
use signet_domain::audit::{Actor, IP_COMMITMENT_PREFIX, verify_chain};
use signet_store::{Backend, FieldCipher, FieldFuture, NewTemplate, SEALED_PREFIX, Store};
use support::{TestDb, tenant};

on_both_backends!(
    an_address_is_committed_to_kept_sealed_and_read_back,
    an_address_from_before_is_sealed_in_place,
    an_address_kept_while_encryption_was_off_is_sealed_when_it_comes_on,
);

/// Seals by reversing the text behind the prefix: enough to see that the store stored what the
/// cipher made and opened it again.
struct Reversing;

impl FieldCipher for Reversing {
    fn seal<'a>(&'a self, _: i64, _: &'static str, plain: &'a str) -> FieldFuture<'a, signet_store::Result<String>> {
        Box::pin(async move { Ok(format!("{SEALED_PREFIX}{}", plain.chars().rev().collect::<String>())) })
    }

    fn open<'a>(&'a self, _: i64, _: &'static str, stored: &'a str) -> FieldFuture<'a, signet_store::Result<String>> {
        Box::pin(async move {
            let body = stored.strip_prefix(SEALED_PREFIX).expect("sealed here");
            Ok(body.chars().rev().collect())
        })
    }
}

const ADDRESS: &str = "203.0.113.77";

async fn store_with_cipher(db: &TestDb) -> Store {
    let store = db.open().await;
    store.seal_fields_with(Arc::new(Reversing));
    store
}

/// How many stored chain rows hold the address in clear, in any column (entries not yet linked
/// into their chain included).
async fn rows_in_clear(store: &Store) -> i64 {
    store
        .fetch_id_for_tests(
            "SELECT (SELECT COUNT(*) FROM audit_log WHERE ip LIKE '%203.0.113.77%' OR ip_sealed LIKE '%203.0.113.77%') \
             + (SELECT COUNT(*) FROM workflow_events WHERE ip LIKE '%203.0.113.77%' OR ip_sealed LIKE '%203.0.113.77%') \
             + (SELECT COUNT(*) FROM audit_pending WHERE ip LIKE '%203.0.113.77%' OR ip_sealed LIKE '%203.0.113.77%')",
        )
        .await
        .expect("count")
}

async fn an_address_is_committed_to_kept_sealed_and_read_back(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = store_with_cipher(&db).await;
    let tenant_id = tenant(&store, "Addresses").await;
    let actor = Actor { id: "user:1".into(), ip: Some(ADDRESS.into()) };
    let definition = json!({"fields": []});
    let new = NewTemplate { tenant_id, name: "Loan", description: None, definition: &definition, document: None };
    store.create_template(&new, &actor).await.expect("template");

    let entries = store.audit_entries(tenant_id, 0, 100).await.expect("entries");
    assert_eq!(verify_chain(tenant_id.get(), &entries), Ok(()));
    let entry =
        entries.iter().find(|e| e.client_ip() == Some(ADDRESS)).expect("the template's entry names the address");
    let committed = entry.ip.as_deref().expect("a commitment");
    assert!(committed.starts_with(IP_COMMITMENT_PREFIX), "{committed}");
    assert!(entry.ip_opening.as_ref().is_some_and(|opening| opening.opens(committed)));
    assert_eq!(rows_in_clear(&store).await, 0, "the address is stored only sealed");
}

async fn an_address_from_before_is_sealed_in_place(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = store_with_cipher(&db).await;
    let tenant_id = tenant(&store, "Addresses").await;
    let event = Actor { id: "user:1".into(), ip: Some(ADDRESS.into()) }.event("x.done", "x:1".into(), json!({}));
    store.append_audit_in_clear_for_tests(tenant_id, &event).await.expect("an entry as written before");
    assert_eq!(rows_in_clear(&store).await, 1, "the old way keeps it in clear");

    assert!(store.seal_fields_in_clear().await.expect("pass") >= 1);
    assert_eq!(rows_in_clear(&store).await, 0, "sealed in place");
    assert_eq!(store.seal_fields_in_clear().await.expect("again"), 0, "nothing left the second time");
    let entries = store.audit_entries(tenant_id, 0, 100).await.expect("entries");
    assert_eq!(verify_chain(tenant_id.get(), &entries), Ok(()), "the hash covers the address it reads back");
    let entry = entries.iter().find(|e| e.action == "x.done").expect("the entry");
    assert_eq!((entry.ip.as_deref(), entry.client_ip()), (Some(ADDRESS), Some(ADDRESS)));
}

async fn an_address_kept_while_encryption_was_off_is_sealed_when_it_comes_on(backend: Backend) {
    let db = TestDb::new(backend).await;
    let (tenant_id, template) = {
        let plain = db.open().await;
        let tenant_id = tenant(&plain, "Addresses").await;
        let actor = Actor { id: "user:1".into(), ip: Some(ADDRESS.into()) };
        let definition = json!({"fields": []});
        let new = NewTemplate { tenant_id, name: "Loan", description: None, definition: &definition, document: None };
        (tenant_id, plain.create_template(&new, &actor).await.expect("template"))
    };
    let store = store_with_cipher(&db).await;
    assert_eq!(rows_in_clear(&store).await, 1, "kept beside its commitment, in clear");

    assert_eq!(store.seal_chain_openings_in_clear().await.expect("pass"), 1);
    assert_eq!(rows_in_clear(&store).await, 0, "sealed where it was");
    assert_eq!(store.seal_chain_openings_in_clear().await.expect("again"), 0, "nothing left the second time");
    let entries = store.audit_entries(tenant_id, 0, 100).await.expect("entries");
    assert_eq!(verify_chain(tenant_id.get(), &entries), Ok(()));
    let entry = entries.iter().find(|e| e.target == format!("template:{}", template.id)).expect("the template's entry");
    assert_eq!(entry.client_ip(), Some(ADDRESS), "opened again");
}
