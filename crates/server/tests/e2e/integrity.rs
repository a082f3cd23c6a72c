//! `signet check`'s use case on SQLite and PostgreSQL: an installation with a signed workflow
//! checks whole; a document version whose bytes changed, a document whose file is gone and a
//! workflow event rewritten are each found, naming the row and the blob or the chain.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use serde_json::{Value, json};
use signet_blob::BlobKey;
use signet_services::platform::integrity::{self, Finding, Summary};
use signet_store::{Backend, BlobColumn, RowId};
use signet_testkit::on_both_backends;
use signet_testkit::pdf::one_page;
use signet_testkit::server::{TestApp, spawn};

use crate::support::{link_of, sign_typed};

on_both_backends!(check_finds_changed_and_missing_blobs_and_broken_chains);

async fn checked(app: &TestApp) -> (Summary, Vec<Finding>) {
    let mut findings = Vec::new();
    let summary = integrity::check(&app.state.services, |f| findings.push(f.clone())).await.expect("check");
    (summary, findings)
}

/// The one document's key in `column`.
async fn key_of(app: &TestApp, column: BlobColumn) -> (RowId, String) {
    let references = app.store.blob_references(column, None, 10).await.expect("references");
    assert_eq!(references.len(), 1, "{column}: {references:?}");
    (references[0].row.clone(), references[0].key.clone())
}

async fn check_finds_changed_and_missing_blobs_and_broken_chains(backend: Backend) {
    let app = spawn(backend).await;
    let tenant = app.tenant("Checked").await;
    let token = app.token(&tenant).await;
    let body = json!({"documentName": "Lease.pdf", "fileData": STANDARD.encode(one_page("Lease"))});
    let document: Value = app.post("/api/v1/documents", &token, body).await.json().await.expect("document");
    let signer = json!([{"subscriberId": 0, "emailId": "tenant@x.test", "name": "Tenant", "signingOrder": 1}]);
    let body = json!({"templateId": 0, "workflowName": "Lease", "documentIds": [document["documentId"]], "signatories": signer});
    let response = app.post("/api/v1/workflows", &token, body).await;
    assert_eq!(response.status(), 201);
    let started: Value = response.json().await.expect("workflow");
    sign_typed(&link_of(&started, "tenant@x.test"), "Tenant").await;

    let (summary, findings) = checked(&app).await;
    assert_eq!(findings, Vec::new());
    assert_eq!((summary.findings, summary.workflows), (0, 1), "{summary}");
    assert!(summary.hashed >= 2 && summary.audit_entries > 0 && summary.workflow_events > 1, "{summary}");
    assert!(summary.to_string().contains("data keys: 1 unwrapped"), "{summary}");

    let blob = &app.state.services.blob;
    let (row, current) = key_of(&app, BlobColumn::DocumentCurrent).await;
    let (_, original) = key_of(&app, BlobColumn::DocumentOriginal).await;
    assert_ne!(current, original, "signing made a new version");
    blob.put(&BlobKey::parse(&current).expect("key"), Bytes::from_static(b"%PDF-1.7 changed")).await.expect("put");
    blob.delete(&BlobKey::parse(&original).expect("key")).await.expect("delete");
    app.store
        .execute_for_tests("UPDATE workflow_events SET detail = '{\"changed\":true}' WHERE seq = 1")
        .await
        .expect("tamper");

    let (summary, findings) = checked(&app).await;
    assert_eq!(summary.findings, 3, "{findings:?}");
    let lines: Vec<String> = findings.iter().map(ToString::to_string).collect();
    assert!(
        matches!(&findings[0], Finding::MissingBlob { key, row: r, .. } if *key == original && *r == row),
        "{lines:?}"
    );
    assert!(matches!(&findings[1], Finding::ChangedBlob { key, .. } if *key == current), "{lines:?}");
    assert!(lines[1].contains(&format!("documents.current_blob, row {row}")), "{lines:?}");
    let workflow_id = started["workflowId"].as_i64().expect("id");
    assert!(
        matches!(&findings[2], Finding::WorkflowChain { workflow_id: w, broken, .. } if w.get() == workflow_id && broken.seq == 1),
        "{lines:?}"
    );

    // A data key that no configured master key unwraps is named first.
    app.store.execute_for_tests("UPDATE data_keys SET master_id = 'ffffffffffffffff'").await.expect("tamper");
    let (_, findings) = checked(&app).await;
    assert!(matches!(&findings[0], Finding::DataKey { error, .. } if error.contains("not configured")), "{findings:?}");
}
