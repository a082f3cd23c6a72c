//! Workflow transitions at the store level, on SQLite and PostgreSQL: each test drives one
//! transition (signing, version conflicts, delegation, deactivation, cancellation, declining,
//! completion) and checks the rows it changed and that the workflow's event chain verifies.

#[macro_use]
mod support;

use serde_json::json;
use signet_domain::audit::{Actor, AuditEntry, GENESIS_HASH, WorkflowEventKind, verify_chain};
use signet_domain::now_millis;
use signet_domain::placement::{PageRef, PlacedBox, Placement};
use signet_domain::workflow::{DocumentState, PlannedSignatory, SignatoryState, WorkflowState};
use signet_domain::workflow_settings::{AsSent, WorkflowSettings};
use signet_domain::{ErrorCode, TenantId, WorkflowId};
use signet_store::{
    AfterSignature, Backend, CreatedWorkflow, Delegate, DocumentRow, NewDocument, NewSignatory, NewWorkflow,
    RenewedVersion, SignatoryRow, SignedVersion, Store, WorkflowRow,
};
use support::{TestDb, tenant};

on_both_backends!(
    a_stale_document_version_is_refused_and_changes_nothing,
    delegation_hands_the_place_on_and_is_bounded,
    documents_are_deactivated_only_when_allowed,
    a_cancelled_workflow_takes_no_signatures_and_may_be_deleted,
    declining_ends_the_workflow,
    the_last_signature_completes_the_workflow,
    workflows_are_tenant_scoped,
    the_dashboard_counts_finds_by_signer_and_names_whom_each_waits_for,
    settings_are_written_and_read_back_typed,
    settings_written_in_the_untyped_form_still_read,
    placements_are_read_typed_and_handed_on_with_the_place,
    a_renewal_lands_once_and_moves_the_document_out_of_the_due_list,
    the_bench_seeder_writes_listable_workflows_and_chains_that_verify,
);

fn initiator() -> Actor {
    Actor { id: "user:1".into(), ip: Some("203.0.113.1".into()) }
}

fn signer(row: &SignatoryRow) -> Actor {
    Actor { id: format!("signatory:{}", row.id), ip: None }
}

async fn upload(store: &Store, tenant_id: TenantId, name: &str) -> DocumentRow {
    let new = NewDocument {
        tenant_id,
        name,
        category_id: None,
        reference_no: None,
        blob_key: &format!("blobs/{name}"),
        sha256: "00",
        size_bytes: 10,
        page_count: 1,
    };
    store.insert_document(&new, &Actor::system()).await.expect("document")
}

/// A workflow over `documents` with one signatory per `(email, signing order)`.
async fn start(
    store: &Store,
    tenant_id: TenantId,
    documents: &[&DocumentRow],
    signers: &[(&str, i64)],
) -> CreatedWorkflow {
    start_with(store, tenant_id, documents, signers, WorkflowSettings::default()).await
}

/// [`start`] with the given settings.
async fn start_with(
    store: &Store,
    tenant_id: TenantId,
    documents: &[&DocumentRow],
    signers: &[(&str, i64)],
    settings: WorkflowSettings,
) -> CreatedWorkflow {
    let signatories = signers
        .iter()
        .map(|(email, order)| NewSignatory {
            planned: PlannedSignatory {
                subscriber_id: 0,
                email: email.to_string(),
                name: email.to_string(),
                signing_order: *order,
                mode: signet_domain::workflow::SignatureMode::Electronic,
                mobile: None,
                otp_sms: false,
            },
            placement: Placement::default(),
        })
        .collect();
    let new = NewWorkflow {
        tenant_id,
        template_id: None,
        name: "Contract",
        reference_no: Some("REF-1"),
        workflow_type: 1,
        settings,
        reminder_every_days: None,
        expires_at: None,
        linked_ids: Vec::new(),
        document_ids: documents.iter().map(|d| d.id).collect(),
        signatories,
        link_expires_at: now_millis() + 3_600_000,
        attachments: Vec::new(),
        stamps: None,
        signer_lang: None,
    };
    store.create_workflow(&new, &initiator()).await.expect("create workflow")
}

/// Signs every document of the workflow as it stands now.
async fn sign(
    store: &Store,
    signatory: &SignatoryRow,
    documents: &[DocumentRow],
) -> signet_store::Result<AfterSignature> {
    let keys: Vec<String> = documents.iter().map(|d| format!("{}/v{}", d.current_blob, d.version + 1)).collect();
    let versions: Vec<SignedVersion<'_>> = documents
        .iter()
        .zip(&keys)
        .map(|(d, key)| SignedVersion { document_id: d.id, base_version: d.version, blob_key: key, sha256: "11" })
        .collect();
    store.record_signature(signatory, &versions, "test", &signer(signatory), json!({})).await
}

/// The workflow's events, after checking that their chain verifies from the genesis hash.
async fn verified_events(store: &Store, workflow: &WorkflowRow) -> Vec<AuditEntry> {
    let events = store.workflow_events(workflow).await.expect("events");
    assert_eq!(events.first().map(|e| e.prev_hash.as_str()), Some(GENESIS_HASH));
    assert_eq!(verify_chain(workflow.id.get(), &events), Ok(()));
    events
}

fn actions(events: &[AuditEntry]) -> Vec<&str> {
    events.iter().map(|e| e.action.as_str()).collect()
}

async fn signatory_states(store: &Store, workflow: &WorkflowRow) -> Vec<(String, SignatoryState)> {
    let rows = store.signatories(workflow).await.expect("signatories");
    rows.into_iter().map(|s| (s.email, s.state)).collect()
}

async fn workflow_state(store: &Store, tenant_id: TenantId, workflow_id: WorkflowId) -> WorkflowState {
    store.workflow(tenant_id, workflow_id).await.expect("workflow").expect("row").state
}

fn code<T: std::fmt::Debug>(outcome: signet_store::Result<T>) -> ErrorCode {
    outcome.expect_err("refused").code()
}

async fn a_stale_document_version_is_refused_and_changes_nothing(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "conflict").await;
    let doc = upload(&store, t, "a.pdf").await;
    // Two signers of one parallel group, both working from its first version.
    let created = start(&store, t, &[&doc], &[("a@x.test", 1), ("b@x.test", 1)]).await;
    let before = store.workflow_documents(&created.workflow).await.expect("documents");
    let first = sign(&store, &created.signatories[0], &before).await.expect("first signature");
    assert_eq!(first, AfterSignature::Continuing { notified: Vec::new() }, "b still signs in this group");

    // The second signature was made on the version the first one replaced.
    assert_eq!(code(sign(&store, &created.signatories[1], &before).await), ErrorCode::Conflict);
    let after = store.workflow_documents(&created.workflow).await.expect("documents");
    assert_eq!((after[0].version, after[0].current_blob.as_str()), (1, "blobs/a.pdf/v1"));
    assert_eq!(
        signatory_states(&store, &created.workflow).await,
        vec![("a@x.test".into(), SignatoryState::Signed), ("b@x.test".into(), SignatoryState::Notified)]
    );
    // Outside a signature too, an update must build on the version it read.
    let stale = store
        .advance_document(&before[0], "blobs/ts", "22", WorkflowEventKind::DocumentTimestamped, &initiator())
        .await;
    assert_eq!(code(stale), ErrorCode::Conflict);
    assert_eq!(store.workflow_documents(&created.workflow).await.expect("documents")[0].version, 1);
    let events = verified_events(&store, &created.workflow).await;
    assert_eq!(actions(&events), ["workflow.created", "signatory.notified", "signatory.notified", "signatory.signed"]);

    // Signed again on the current version, the signature goes through.
    let done = sign(&store, &created.signatories[1], &after).await.expect("second signature");
    assert_eq!(done, AfterSignature::Completed);
    verified_events(&store, &created.workflow).await;
}

async fn delegation_hands_the_place_on_and_is_bounded(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "delegate").await;
    let doc = upload(&store, t, "a.pdf").await;
    let created = start(&store, t, &[&doc], &[("a@x.test", 1), ("b@x.test", 2)]).await;
    let a = &created.signatories[0];
    let expires = now_millis() + 3_600_000;

    let taken = store.delegate(a, &Delegate::by_email("B@x.test", "B"), "busy", expires, &signer(a), Some(1)).await;
    assert_eq!(code(taken), ErrorCode::ValidationFailed, "b already signs this workflow");
    let out_of_turn = store
        .delegate(&created.signatories[1], &Delegate::by_email("c@x.test", "C"), "", expires, &initiator(), None)
        .await;
    assert_eq!(code(out_of_turn), ErrorCode::StateConflict, "b's turn has not come");

    let c = store
        .delegate(a, &Delegate::by_email("c@x.test", "C"), "on leave", expires, &signer(a), Some(1))
        .await
        .expect("delegate");
    assert_eq!((c.state, c.signing_order, c.delegated_from), (SignatoryState::Notified, 1, Some(a.id)));
    assert_eq!(
        signatory_states(&store, &created.workflow).await,
        vec![
            ("a@x.test".into(), SignatoryState::Delegated),
            ("c@x.test".into(), SignatoryState::Notified),
            ("b@x.test".into(), SignatoryState::Pending),
        ]
    );
    let again = store.delegate(&c, &Delegate::by_email("d@x.test", "D"), "", expires, &signer(&c), Some(1)).await;
    assert_eq!(code(again), ErrorCode::LimitReached, "one hand-over per place");
    let from_a = store.delegate(a, &Delegate::by_email("d@x.test", "D"), "", expires, &signer(a), None).await;
    assert_eq!(code(from_a), ErrorCode::StateConflict, "a's place was handed on already");

    let events = verified_events(&store, &created.workflow).await;
    let delegated = &events[events.len() - 2];
    assert_eq!(
        (delegated.action.as_str(), delegated.target.clone()),
        ("signatory.delegated", format!("signatory:{}", a.id))
    );
    assert_eq!(events[events.len() - 1].target, format!("signatory:{}", c.id));
    assert_eq!(events[events.len() - 1].action, "signatory.notified");

    // The delegate's signature counts for the place: the next group follows.
    let documents = store.workflow_documents(&created.workflow).await.expect("documents");
    let after = sign(&store, &c, &documents).await.expect("delegate signs");
    assert_eq!(after, AfterSignature::Continuing { notified: vec![created.signatories[1].id] });
    verified_events(&store, &created.workflow).await;
}

async fn documents_are_deactivated_only_when_allowed(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "deactivate").await;
    let loose = upload(&store, t, "loose.pdf").await;
    store.deactivate_document(t, loose.id, Some("superseded"), false, &initiator()).await.expect("outside a workflow");
    let row = store.document(t, loose.id).await.expect("document").expect("row");
    assert_eq!((row.state, row.state_reason.as_deref()), (DocumentState::Inactive, Some("superseded")));
    let twice = store.deactivate_document(t, loose.id, None, false, &initiator()).await;
    assert_eq!(code(twice), ErrorCode::StateConflict);

    let (one, two) = (upload(&store, t, "one.pdf").await, upload(&store, t, "two.pdf").await);
    let created = start(&store, t, &[&one, &two], &[("a@x.test", 1)]).await;
    let unforced = store.deactivate_document(t, one.id, None, false, &initiator()).await;
    assert_eq!(code(unforced), ErrorCode::StateConflict, "in a workflow in progress only when forced");
    store.deactivate_document(t, one.id, Some("wrong file"), true, &initiator()).await.expect("forced");
    let last = store.deactivate_document(t, two.id, None, true, &initiator()).await;
    assert_eq!(code(last), ErrorCode::StateConflict, "the last active document stays");
    let states: Vec<DocumentState> =
        store.workflow_documents(&created.workflow).await.expect("documents").into_iter().map(|d| d.state).collect();
    assert_eq!(states, [DocumentState::Inactive, DocumentState::Active]);
    // An inactive document cannot be bound to another workflow.
    let new = NewWorkflow { document_ids: vec![loose.id], ..clone_new(&created, t) };
    assert_eq!(code(store.create_workflow(&new, &initiator()).await), ErrorCode::ValidationFailed);

    let events = verified_events(&store, &created.workflow).await;
    assert_eq!(events.last().map(|e| e.action.as_str()), Some("document.inactive"));
    assert_eq!(events.last().map(|e| e.target.clone()), Some(format!("document:{}", one.id)));
}

/// A minimal new workflow in tenant `t` (for refusals that need no particular content).
fn clone_new(created: &CreatedWorkflow, t: TenantId) -> NewWorkflow<'static> {
    let planned = PlannedSignatory {
        subscriber_id: 0,
        email: format!("other{}@x.test", created.workflow.id),
        name: "Other".into(),
        signing_order: 1,
        mode: signet_domain::workflow::SignatureMode::Electronic,
        mobile: None,
        otp_sms: false,
    };
    NewWorkflow {
        tenant_id: t,
        template_id: None,
        name: "Other",
        reference_no: None,
        workflow_type: 1,
        settings: WorkflowSettings::default(),
        reminder_every_days: None,
        expires_at: None,
        linked_ids: Vec::new(),
        document_ids: Vec::new(),
        signatories: vec![NewSignatory { planned, placement: Placement::default() }],
        link_expires_at: now_millis() + 60_000,
        attachments: Vec::new(),
        stamps: None,
        signer_lang: None,
    }
}

async fn a_cancelled_workflow_takes_no_signatures_and_may_be_deleted(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "cancel").await;
    let doc = upload(&store, t, "a.pdf").await;
    let created = start(&store, t, &[&doc], &[("a@x.test", 1)]).await;
    let id = created.workflow.id;
    store.change_workflow_state(t, id, WorkflowState::Inactive, Some("withdrawn"), &initiator()).await.expect("cancel");
    let row = store.workflow(t, id).await.expect("workflow").expect("row");
    assert_eq!(
        (row.state, row.state_reason.as_deref(), row.completed_at),
        (WorkflowState::Inactive, Some("withdrawn"), None)
    );

    let documents = store.workflow_documents(&created.workflow).await.expect("documents");
    assert_eq!(code(sign(&store, &created.signatories[0], &documents).await), ErrorCode::StateConflict);
    let revived = store.change_workflow_state(t, id, WorkflowState::Completed, None, &initiator()).await;
    assert_eq!(code(revived), ErrorCode::StateConflict);
    assert_eq!(workflow_state(&store, t, id).await, WorkflowState::Inactive);
    assert_eq!(signatory_states(&store, &created.workflow).await, vec![("a@x.test".into(), SignatoryState::Notified)]);

    let keys = store.delete_workflow(t, id, &initiator()).await.expect("delete");
    assert_eq!(keys, vec!["blobs/a.pdf".to_string()]);
    assert_eq!(workflow_state(&store, t, id).await, WorkflowState::Deleted);
    let doc = store.document(t, doc.id).await.expect("document").expect("row");
    assert_eq!(doc.state, DocumentState::Deleted);
    assert_eq!(code(store.delete_workflow(t, id, &initiator()).await), ErrorCode::StateConflict);
    let (listed, total) = store.workflows(t, None, None, 0, 10).await.expect("list");
    assert_eq!((listed.len(), total), (0, 0), "deleted workflows are not listed");

    let events = verified_events(&store, &created.workflow).await;
    assert_eq!(actions(&events)[2..], ["workflow.inactive", "workflow.deleted"]);
}

async fn declining_ends_the_workflow(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "decline").await;
    let doc = upload(&store, t, "a.pdf").await;
    let created = start(&store, t, &[&doc], &[("a@x.test", 1), ("b@x.test", 2)]).await;
    let (id, a, b) = (created.workflow.id, &created.signatories[0], &created.signatories[1]);
    assert_eq!(code(store.decline(b, "not mine", &signer(b)).await), ErrorCode::StateConflict, "not b's turn");

    store.decline(a, "wrong amount", &signer(a)).await.expect("decline");
    let row = store.workflow(t, id).await.expect("workflow").expect("row");
    assert_eq!((row.state, row.state_reason.as_deref()), (WorkflowState::Declined, Some("wrong amount")));
    assert_eq!(
        signatory_states(&store, &created.workflow).await,
        vec![("a@x.test".into(), SignatoryState::Declined), ("b@x.test".into(), SignatoryState::Pending)]
    );
    assert_eq!(code(store.decline(a, "again", &signer(a)).await), ErrorCode::StateConflict);
    let (declined, total) = store.workflows(t, Some("declined"), None, 0, 10).await.expect("list");
    assert_eq!((declined.iter().map(|w| w.id).collect::<Vec<_>>(), total), (vec![id], 1));

    let events = verified_events(&store, &created.workflow).await;
    assert_eq!(actions(&events)[2..], ["signatory.declined", "workflow.declined"]);
}

async fn the_last_signature_completes_the_workflow(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "complete").await;
    let doc = upload(&store, t, "a.pdf").await;
    let created = start(&store, t, &[&doc], &[("a@x.test", 1), ("b@x.test", 2)]).await;
    let (id, a, b) = (created.workflow.id, &created.signatories[0], &created.signatories[1]);
    assert_eq!((created.workflow.state, created.workflow.current_order), (WorkflowState::InProgress, 1));
    assert_eq!(
        code(sign(&store, b, &store.workflow_documents(&created.workflow).await.expect("docs")).await),
        ErrorCode::StateConflict
    );

    let first =
        sign(&store, a, &store.workflow_documents(&created.workflow).await.expect("docs")).await.expect("a signs");
    assert_eq!(first, AfterSignature::Continuing { notified: vec![b.id] });
    let row = store.workflow(t, id).await.expect("workflow").expect("row");
    assert_eq!((row.state, row.current_order), (WorkflowState::InProgress, 2));

    let last =
        sign(&store, b, &store.workflow_documents(&created.workflow).await.expect("docs")).await.expect("b signs");
    assert_eq!(last, AfterSignature::Completed);
    let row = store.workflow(t, id).await.expect("workflow").expect("row");
    assert_eq!(row.state, WorkflowState::Completed);
    assert!(row.completed_at.is_some_and(|at| at >= row.created_at));
    assert_eq!(
        signatory_states(&store, &created.workflow).await,
        vec![("a@x.test".into(), SignatoryState::Signed), ("b@x.test".into(), SignatoryState::Signed)]
    );
    let documents = store.workflow_documents(&created.workflow).await.expect("documents");
    assert_eq!((documents[0].state, documents[0].version), (DocumentState::Active, 2));

    let events = verified_events(&store, &created.workflow).await;
    assert_eq!(
        actions(&events),
        [
            "workflow.created",
            "signatory.notified",
            "signatory.signed",
            "signatory.notified",
            "signatory.signed",
            "workflow.completed"
        ]
    );
    // Each event enqueued its delivery job once.
    let jobs = store.jobs_of_kind(signet_domain::job::JobKind::WorkflowEvent).await.expect("jobs");
    assert_eq!(jobs.len(), events.len());
    // Nothing happens in an ended workflow.
    assert_eq!(code(store.decline(b, "late", &signer(b)).await), ErrorCode::StateConflict);
}

async fn workflows_are_tenant_scoped(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let (a, b) = (tenant(&store, "ta").await, tenant(&store, "tb").await);
    let doc = upload(&store, a, "a.pdf").await;
    let created = start(&store, a, &[&doc], &[("a@x.test", 1)]).await;
    let id = created.workflow.id;
    assert!(store.workflow(b, id).await.expect("lookup").is_none());
    assert!(store.document(b, doc.id).await.expect("lookup").is_none());
    let foreign = store.change_workflow_state(b, id, WorkflowState::Inactive, None, &initiator()).await;
    assert_eq!(code(foreign), ErrorCode::NotFound);
    let foreign = store.deactivate_document(b, doc.id, None, true, &initiator()).await;
    assert_eq!(code(foreign), ErrorCode::NotFound);
    // Another tenant's document cannot be bound to a workflow.
    let new = NewWorkflow { document_ids: vec![doc.id], ..clone_new(&created, b) };
    assert_eq!(code(store.create_workflow(&new, &initiator()).await), ErrorCode::ValidationFailed);
    assert_eq!(workflow_state(&store, a, id).await, WorkflowState::InProgress);
    verified_events(&store, &created.workflow).await;
}

/// The console's dashboard: counts by state, search by a signer's name or address, and the
/// signatories each workflow waits for (whose turn it is, not those after them), all within
/// the tenant.
async fn the_dashboard_counts_finds_by_signer_and_names_whom_each_waits_for(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let (t, other) = (tenant(&store, "dash").await, tenant(&store, "other").await);
    let (doc, other_doc) = (upload(&store, t, "a.pdf").await, upload(&store, t, "b.pdf").await);
    let waiting = start(&store, t, &[&doc], &[("meena.iyer@x.test", 1), ("ravi@x.test", 1), ("later@x.test", 2)]).await;
    let declined = start(&store, t, &[&other_doc], &[("decline@x.test", 1)]).await;
    store.decline(&declined.signatories[0], "no", &signer(&declined.signatories[0])).await.expect("declined");
    let theirs_doc = upload(&store, other, "c.pdf").await;
    let theirs = start(&store, other, &[&theirs_doc], &[("meena.iyer@x.test", 1)]).await;

    let counts = store.workflow_counts(t).await.expect("counts");
    let count_of = |state| counts.iter().find(|(s, _)| *s == state).map_or(0, |(_, n)| *n);
    assert_eq!((count_of(WorkflowState::InProgress), count_of(WorkflowState::Declined)), (1, 1), "{counts:?}");
    assert_eq!(count_of(WorkflowState::Completed), 0);

    for text in ["MEENA", "ravi@x", "later@"] {
        let (found, total) = store.workflows(t, None, Some(text), 0, 25).await.expect("search");
        assert_eq!((total, found.first().map(|w| w.id)), (1, Some(waiting.workflow.id)), "{text}");
    }
    let (found, total) = store.workflows(t, None, Some("nobody"), 0, 25).await.expect("search");
    assert_eq!((total, found.len()), (0, 0));

    let ids = [waiting.workflow.id, declined.workflow.id, theirs.workflow.id];
    let due = store.waiting_signatories(t, &ids).await.expect("waiting");
    let emails: Vec<&str> = due.iter().map(|s| s.email.as_str()).collect();
    assert_eq!(emails, ["meena.iyer@x.test", "ravi@x.test"], "the first group only, none of another tenant's");
}

async fn settings_are_written_and_read_back_typed(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "settings").await;
    let doc = upload(&store, t, "a.pdf").await;
    let settings = WorkflowSettings {
        send_mail: true,
        redirect_url: Some("https://example.test/done".into()),
        hsm_certificate_id: Some(signet_domain::SigningProfileId::from(3)),
        message: Some("Please sign by Friday".into()),
        bulk_job_id: Some("BJ-1".into()),
        bulk_item: Some(4),
        as_sent: AsSent {
            reason: Some("Approval".into()),
            e_sign_params: Some(json!({"k": [1]})),
            ..AsSent::default()
        },
        ..WorkflowSettings::default()
    };
    let created = start_with(&store, t, &[&doc], &[("a@x.test", 1)], settings.clone()).await;
    assert_eq!(created.workflow.settings, settings);
    let read = store.workflow(t, created.workflow.id).await.expect("workflow").expect("row");
    assert_eq!((read.settings.version, &read.settings), (1, &settings));
    // A bulk send's item finds the workflow it started by the marks in its settings.
    assert_eq!(store.workflow_of_bulk_item(t, "BJ-1", 4).await.expect("find"), Some(created.workflow.id));
    assert_eq!(store.workflow_of_bulk_item(t, "BJ-1", 40).await.expect("find"), None);
}

/// Rows written before settings were typed hold the API's keys without a version; a key of
/// the wrong type costs only itself.
async fn settings_written_in_the_untyped_form_still_read(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "old-settings").await;
    let doc = upload(&store, t, "a.pdf").await;
    let created = start(&store, t, &[&doc], &[("a@x.test", 1)]).await;
    let old = json!({
        "sendMail": true, "notifyCustomer": "yes", "checkEmailNotify": false, "enableAutoClosePopup": false,
        "redirectURL": "https://example.test/after", "reason": null, "location": null, "thirdPartyParams": null,
        "eSignParams": null, "geoTagging": null, "initials": null, "stampDetails": null, "hsmCertificateId": 5,
        "message": "Hello", "bulkJobId": "BJ-9", "bulkItem": 2,
    });
    write_settings_text(&db.url, backend, created.workflow.id, &old.to_string()).await;
    let read = store.workflow(t, created.workflow.id).await.expect("workflow").expect("row").settings;
    assert_eq!(read.version, 1);
    assert!(read.send_mail, "the keys around the wrong-typed one keep their values");
    assert!(!read.notify_customer, "a string where a boolean belongs reads as absent");
    assert_eq!(read.redirect_url(), Some("https://example.test/after"));
    assert_eq!(
        (read.hsm_certificate_id, read.message.as_deref()),
        (Some(signet_domain::SigningProfileId::from(5)), Some("Hello"))
    );
    assert_eq!((read.bulk_job_id.as_deref(), read.bulk_item), (Some("BJ-9"), Some(2)));
    assert_eq!(read.as_sent.check_email_notify, Some(false));
    // Written as `serde_json::Value` did (compact, keys sorted), an old bulk item is found too.
    assert_eq!(store.workflow_of_bulk_item(t, "BJ-9", 2).await.expect("find"), Some(created.workflow.id));
}

/// A signatory's placement is read typed, handed on as it is to whom the place is delegated,
/// and a stored text that does not read is the default slot (as it always was).
async fn placements_are_read_typed_and_handed_on_with_the_place(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "placements").await;
    let doc = upload(&store, t, "a.pdf").await;
    let created = start(&store, t, &[&doc], &[("a@x.test", 1), ("b@x.test", 2)]).await;
    assert_eq!(created.signatories[0].placement, Placement::default());
    let placement = Placement {
        boxes: vec![PlacedBox {
            document: Some(0),
            page: PageRef::Word("last".into()),
            left: 10.0,
            top: 20.0,
            width: 100.0,
            height: 40.0,
        }],
        anchor: Some("Signed by".into()),
        slot: 1,
        ..Placement::default()
    };
    let text = serde_json::to_string(&placement).expect("json");
    let [a, b] = [created.signatories[0].id.get(), created.signatories[1].id.get()];
    write_text(&db.url, backend, "UPDATE signatories SET placement = $1 WHERE id = $2", a, &text).await;
    write_text(&db.url, backend, "UPDATE signatories SET placement = $1 WHERE id = $2", b, "not json").await;
    let read = store.signatories(&created.workflow).await.expect("signatories");
    assert_eq!((&read[0].placement, &read[1].placement), (&placement, &Placement::default()));
    let expires = now_millis() + 3_600_000;
    let c = store
        .delegate(&read[0], &Delegate::by_email("c@x.test", "C"), "", expires, &signer(&read[0]), None)
        .await
        .expect("delegate");
    assert_eq!(c.placement, placement, "the new signatory's boxes are the old one's");
}

/// Overwrites the stored settings text as an older release would have written it.
async fn write_settings_text(url: &str, backend: Backend, id: WorkflowId, text: &str) {
    write_text(url, backend, "UPDATE workflows SET settings = $1 WHERE id = $2", id.get(), text).await;
}

/// Runs `sql` (an update of one row's text column) with `text` and the row's `id`.
async fn write_text(url: &str, backend: Backend, sql: &'static str, id: i64, text: &str) {
    match backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(url).await.expect("sqlite");
            sqlx::query(sql).bind(text).bind(id).execute(&pool).await.expect("update");
            pool.close().await;
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(url).await.expect("postgres");
            sqlx::query(sql).bind(text).bind(id).execute(&pool).await.expect("update");
            pool.close().await;
        }
    }
}

async fn a_renewal_lands_once_and_moves_the_document_out_of_the_due_list(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let t = tenant(&store, "renewal").await;
    let (a, b) = (upload(&store, t, "a.pdf").await, upload(&store, t, "b.pdf").await);
    let created = start(&store, t, &[&a, &b], &[("a@x.test", 1)]).await;
    let before = store.workflow_documents(&created.workflow).await.expect("documents");
    sign(&store, &created.signatories[0], &before).await.expect("signed");
    let docs = store.workflow_documents(&created.workflow).await.expect("documents");
    // Completed with nothing recorded: both unknown, none due.
    assert_eq!(store.lta_unknown_documents(10).await.expect("unknown").len(), 2);
    let now = now_millis();
    assert!(store.lta_due_documents(now + 1000, 10).await.expect("due").is_empty());

    // Recorded (b runs out first); a record for a version since replaced is not written.
    assert!(store.record_lta_expiry(&docs[0], &docs[0].current_sha256, Some(now + 500)).await.expect("a"));
    assert!(store.record_lta_expiry(&docs[1], &docs[1].current_sha256, Some(now + 100)).await.expect("b"));
    assert!(!store.record_lta_expiry(&docs[1], "stale", Some(now + 900)).await.expect("stale"));
    assert!(store.lta_unknown_documents(10).await.expect("unknown").is_empty());
    let due = store.lta_due_documents(now + 1000, 10).await.expect("due");
    assert_eq!(due.iter().map(|d| d.id).collect::<Vec<_>>(), [docs[1].id, docs[0].id]);
    assert_eq!(store.lta_due_documents(now + 1000, 1).await.expect("due").len(), 1, "bounded");

    // Two renewals of the same version: the second is refused and changes nothing.
    let renewed = RenewedVersion { blob_key: "blobs/b/v2", sha256: "22", lta_expires_at: now + 10_000_000 };
    store.renew_document(&due[0], &renewed, &Actor::system()).await.expect("renewed");
    let again = RenewedVersion { blob_key: "blobs/b/v2-other", sha256: "23", lta_expires_at: now + 20_000_000 };
    assert_eq!(code(store.renew_document(&due[0], &again, &Actor::system()).await), ErrorCode::Conflict);
    let due = store.lta_due_documents(now + 1000, 10).await.expect("due");
    assert_eq!(due.iter().map(|d| d.id).collect::<Vec<_>>(), [docs[0].id]);
    let b_now = store.document(t, docs[1].id).await.expect("read").expect("b");
    assert_eq!((b_now.version, b_now.current_blob.as_str()), (docs[1].version + 1, "blobs/b/v2"));
    let (listed, counts) = store.lta_overview(now + 1000, 10).await.expect("overview");
    assert_eq!((listed.len(), counts.due, counts.fine, counts.unknown), (1, 1, 1, 0));
    assert_eq!(listed[0].document_id, docs[0].id);

    let events = verified_events(&store, &created.workflow).await;
    let renewals: Vec<&AuditEntry> = events.iter().filter(|e| e.action == "document.timestamped").collect();
    assert_eq!(renewals.len(), 1);
    assert!(renewals[0].detail.contains("\"renewal\":true"), "{}", renewals[0].detail);
}

/// Issue 38's seeder (`signet bench seed`), small: two seedings into one tenant (the second
/// continues the ids and the audit chain), one into another; counts, the list with its filter
/// and search, and both chains verified with the domain's verifier.
async fn the_bench_seeder_writes_listable_workflows_and_chains_that_verify(backend: Backend) {
    use signet_domain::audit::ChainVerifier;
    use signet_store::bench_seed::SeedPlan;
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let (t, other) = (tenant(&store, "lender").await, tenant(&store, "small").await);
    let plan = |workflows, seed| SeedPlan {
        workflows,
        audit_per_workflow: 10,
        blob_key: "bench-seed/agreement.pdf".into(),
        blob_sha256: "00".into(),
        blob_size: 10,
        sender: "user:1".into(),
        now: now_millis(),
        years: 5,
        seed,
    };
    let mut reports = Vec::new();
    let first = store.bench_seed_workflows(t, &plan(1500, 1), |n| reports.push(n)).await.expect("seed");
    let second = store.bench_seed_workflows(t, &plan(500, 2), |_| {}).await.expect("seed again");
    let small = store.bench_seed_workflows(other, &plan(30, 3), |_| {}).await.expect("seed other");
    assert_eq!(reports, [1500]);
    assert_eq!((first.workflows, first.documents, first.signatories, first.audit_events), (1500, 1500, 4500, 15_000));
    assert_eq!((second.workflows, small.workflows), (500, 30));

    let counts = store.workflow_counts(t).await.expect("counts");
    assert_eq!(counts.iter().map(|(_, n)| n).sum::<i64>(), 2000, "{counts:?}");
    let count_of = |state| counts.iter().find(|(s, _)| *s == state).map_or(0, |(_, n)| *n);
    // Five years of dates: most are completed; the last month's still in progress.
    assert!(count_of(WorkflowState::Completed) > 1500, "{counts:?}");
    assert!(count_of(WorkflowState::InProgress) > 0 && count_of(WorkflowState::Declined) > 0, "{counts:?}");

    let (page, total) = store.workflows(t, None, None, 0, 20).await.expect("list");
    assert_eq!((page.len(), total), (20, 2000));
    assert!(page.windows(2).all(|w| w[0].id > w[1].id), "newest first");
    let (declined, total) = store.workflows(t, Some("declined"), None, 0, 100).await.expect("filter");
    assert_eq!(total, count_of(WorkflowState::Declined));
    assert!(declined.iter().all(|w| w.state() == WorkflowState::Declined && w.tenant_id == t));
    // The search finds a workflow by its reference and by a signer's address, in this tenant only.
    let newest = &page[0];
    let reference = newest.reference_no.clone().expect("reference");
    let (found, total) = store.workflows(t, None, Some(&reference), 0, 20).await.expect("search");
    assert_eq!((total, found[0].id), (1, newest.id));
    let signatories = store.signatories(newest).await.expect("signatories");
    assert_eq!(signatories.len(), 3);
    let (found, _) = store.workflows(t, None, Some(&signatories[2].email), 0, 100).await.expect("search");
    assert!(found.iter().any(|w| w.id == newest.id));
    assert_eq!(store.workflows(other, None, Some(&reference), 0, 20).await.expect("search").1, 0);

    // The tenant's audit log: its creation entry, then 20,000 seeded ones, one chain.
    let mut verifier = ChainVerifier::new(t.get());
    let (mut after, mut entries) = (0, 0);
    loop {
        let page = store.audit_entries(t, after, 1000).await.expect("audit");
        let Some(last) = page.last() else { break };
        after = last.seq;
        entries += page.len();
        for entry in &page {
            verifier.check(entry).expect("the audit chain verifies");
        }
    }
    assert_eq!(entries, 1 + 20_000);
    // Each workflow's own chain verifies too, and ends at the head its row records.
    for workflow in page.iter().chain(&declined[..declined.len().min(5)]) {
        let events = store.workflow_events(workflow).await.expect("events");
        assert!(events.len() >= 2, "created and notified at least");
        verify_chain(workflow.id.get(), &events).expect("the workflow's chain verifies");
    }
}
