//! Renewal of long-term signatures (issue 33, item 2), on SQLite and PostgreSQL: 1,000 completed
//! documents whose document time-stamp comes from a TSA certificate that runs out in 20 days
//! (100 of them time-stamped before their protection was recorded) are renewed by `signet lta
//! renew` through a TSA with a two-year certificate; the first run is killed with SIGKILL
//! midway, the next finishes. Each document is renewed exactly once: version + 1, one
//! `document.timestamped` event each in a chain that verifies, protected past the margin.
//! A TSA whose own certificate is within the margin is refused rather than used in a loop;
//! `signet lta status` shows it; pdfsig and pyHanko accept a renewed document.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;
use std::process::Output;
use std::time::{Duration, Instant};

use bytes::Bytes;
use serde_json::{Value, json};
use signet_domain::audit::{Actor, verify_chain};
use signet_domain::placement::Placement;
use signet_domain::workflow::{PlannedSignatory, SignatureMode};
use signet_domain::workflow_settings::WorkflowSettings;
use signet_domain::{DocumentId, TenantId, now_millis};
use signet_signing::{HttpConfig, LocalKeySigner, PadesLevel, PdfSignOptions, ValidationData};
use signet_store::{
    Backend, DocumentRow, NewDocument, NewSignatory, NewTenant, NewWorkflow, PoolSettings, SignedVersion, Store,
    WorkflowRow,
};
use signet_testkit::pki::{TestPki, TestTsa, TsaProfile};
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;
use signet_testkit::validators::{cert_pem, pdfsig, pyhanko_validates};

const SIGNET: SignetBin = signet_bin!();
const DAY: u64 = 86_400;
const WORKFLOWS: usize = 10;
const DOCUMENTS_PER_WORKFLOW: usize = 100;
/// The last workflow's documents were time-stamped before `lta_expires_at` existed.
const UNRECORDED_WORKFLOWS: usize = 1;
const SEED_BLOB: &str = "seed/lta.pdf";

signet_testkit::on_both_backends!(a_killed_renewal_sweep_resumes_and_renews_each_document_once);

struct Installation {
    dir: tempfile::TempDir,
    database_url: String,
}

impl Installation {
    async fn new(backend: Backend) -> Installation {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("signet-data")).expect("data dir");
        let database_url = match backend {
            Backend::Sqlite => format!("sqlite://{}", dir.path().join("signet-data/signet.db").display()),
            Backend::Postgres => signet_testkit::db::fresh_postgres_database().await,
        };
        Installation { dir, database_url }
    }

    fn lta(&self, args: &[&str], tsa_url: &str) -> std::process::Command {
        let mut command = SIGNET.command();
        command
            .arg("lta")
            .args(args)
            .args(["--database-url", &self.database_url])
            .current_dir(self.dir.path())
            .env_remove("SIGNET_DATA_DIR")
            .env("SIGNET_TSA_URL", tsa_url)
            .env("SIGNET_OUTBOUND_ALLOW_PRIVATE", "true")
            .env("SIGNET_LTA_RENEWAL_MARGIN_DAYS", "90")
            .env("SIGNET_LTA_RENEWALS_PER_RUN", "2000")
            .env("SIGNET_GATEWAY_KEY_BITS", "2048")
            // The test seeds and reads blobs itself, as stored (encryption has its own tests).
            .env("SIGNET_BLOB_ENCRYPTION", "false");
        command
    }

    fn run(&self, args: &[&str], tsa_url: &str) -> Output {
        self.lta(args, tsa_url).output().expect("signet lta")
    }

    fn status(&self, tsa_url: &str) -> Value {
        let output = self.run(&["status", "--json"], tsa_url);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice(&output.stdout).expect("status JSON")
    }
}

/// A B-LTA document: a signature of a test CA's signer, its DSS and a document time-stamp of `tsa`.
fn long_term_pdf(tsa: &TestTsa, pki: &TestPki) -> Vec<u8> {
    let issued = pki.signer("Seed Signer", None);
    let signer = LocalKeySigner::from_pkcs8(&issued.key_pkcs8_der, &issued.cert_der, vec![pki.ca.cert_der().to_vec()])
        .expect("signer");
    let crl = pki.ca.issue_crl(&[], Duration::from_secs(7 * DAY)).expect("CRL");
    let opts = PdfSignOptions {
        level: PadesLevel::BLTA,
        tsa_url: Some(tsa.url.clone()),
        http: HttpConfig::allow_private(),
        validation: ValidationData { certs: vec![pki.ca.cert_der().to_vec()], crls: vec![crl], ocsps: Vec::new() },
        ..PdfSignOptions::default()
    };
    signet_signing::sign_pdf(&signet_testkit::pdf::one_page("Loan agreement"), &signer, &opts).expect("B-LTA")
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(signet_sigcrypto::pki::sha256(bytes))
}

async fn tenant(store: &Store) -> TenantId {
    let new = NewTenant {
        name: "Acme Bank".into(),
        admin_email: "ops@acme.test".into(),
        admin_password_hash: "x".into(),
        client_id: "client-acme".into(),
        client_secret_hash: "x".into(),
        admin_stamp: "s".into(),
        client_stamp: "s".into(),
    };
    store.create_tenant(&new, &Actor::system()).await.expect("tenant").tenant_id
}

/// One completed workflow over `count` documents whose signed version is the seed PDF.
async fn completed_workflow(store: &Store, tenant_id: TenantId, count: usize, sha: &str) -> WorkflowRow {
    let mut documents = Vec::with_capacity(count);
    for n in 0..count {
        let name = format!("loan-{n}.pdf");
        let new = NewDocument {
            tenant_id,
            name: &name,
            category_id: None,
            reference_no: None,
            blob_key: SEED_BLOB,
            sha256: sha,
            size_bytes: 1,
            page_count: 1,
        };
        documents.push(store.insert_document(&new, &Actor::system()).await.expect("document").id);
    }
    let signatory = new_signatory();
    let new = new_workflow(tenant_id, documents, signatory);
    let created = store.create_workflow(&new, &Actor::system()).await.expect("workflow");
    let bound = store.workflow_documents(&created.workflow).await.expect("documents");
    let versions: Vec<SignedVersion<'_>> = bound
        .iter()
        .map(|d| SignedVersion { document_id: d.id, base_version: d.version, blob_key: SEED_BLOB, sha256: sha })
        .collect();
    let signer = Actor { id: format!("signatory:{}", created.signatories[0].id), ip: None };
    store.record_signature(&created.signatories[0], &versions, "electronic", &signer, json!({})).await.expect("signed");
    store.workflow(tenant_id, created.workflow.id).await.expect("read").expect("workflow")
}

fn new_signatory() -> NewSignatory {
    NewSignatory {
        planned: PlannedSignatory {
            subscriber_id: 0,
            email: "asha@acme.test".into(),
            name: "Asha Verma".into(),
            signing_order: 1,
            mode: SignatureMode::Electronic,
            mobile: None,
            otp_sms: false,
        },
        placement: Placement::default(),
    }
}

fn new_workflow(tenant_id: TenantId, document_ids: Vec<DocumentId>, signatory: NewSignatory) -> NewWorkflow<'static> {
    NewWorkflow {
        tenant_id,
        template_id: None,
        name: "Loans",
        reference_no: None,
        workflow_type: 1,
        settings: WorkflowSettings::default(),
        reminder_every_days: None,
        expires_at: None,
        linked_ids: Vec::new(),
        document_ids,
        signatories: vec![signatory],
        link_expires_at: now_millis() + 3_600_000,
        attachments: Vec::new(),
        stamps: None,
        signer_lang: None,
    }
}

/// Seeds the installation: one real B-LTA blob, 1,000 documents in completed workflows, their
/// protection recorded as completion records it except for the last workflow's.
async fn seed(store: &Store, install: &Installation, pdf: &[u8]) -> Vec<WorkflowRow> {
    let blob = signet_blob::BlobStore::from_url("blobs", &install.dir.path().join("signet-data")).expect("blobs");
    blob.put(&signet_blob::BlobKey::parse(SEED_BLOB).expect("key"), Bytes::from(pdf.to_vec())).await.expect("put");
    let expires_at = signet_signing::lta_protection(pdf).expect("reads").expect("time-stamped").expires_at_unix as i64;
    let sha = sha256_hex(pdf);
    let tenant_id = tenant(store).await;
    let mut workflows = Vec::new();
    for n in 0..WORKFLOWS {
        let workflow = completed_workflow(store, tenant_id, DOCUMENTS_PER_WORKFLOW, &sha).await;
        if n < WORKFLOWS - UNRECORDED_WORKFLOWS {
            for doc in store.workflow_documents(&workflow).await.expect("documents") {
                assert!(store.record_lta_expiry(&doc, &sha, Some(expires_at * 1000)).await.expect("record"));
            }
        }
        workflows.push(workflow);
    }
    workflows
}

fn outcome(output: &Output) -> Value {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("outcome JSON")
}

/// Starts a sweep, waits until it has renewed some documents (and not all), and kills it.
async fn killed_midway(install: &Installation, store: &Store, tsa_url: &str, margin_end: i64) -> i64 {
    let mut child = install.lta(&["renew"], tsa_url).spawn().expect("signet lta renew");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (_, counts) = store.lta_overview(margin_end, 0).await.expect("overview");
        if counts.fine >= 50 {
            break;
        }
        assert!(child.try_wait().expect("wait").is_none(), "the sweep ended before it was killed");
        assert!(Instant::now() < deadline, "no renewal within two minutes");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let (_, counts) = store.lta_overview(margin_end, 0).await.expect("overview");
    let total = (WORKFLOWS * DOCUMENTS_PER_WORKFLOW) as i64;
    assert!(counts.fine < total, "the kill came after every renewal: {counts:?}");
    counts.fine
}

async fn a_killed_renewal_sweep_resumes_and_renews_each_document_once(backend: Backend) {
    let install = Installation::new(backend).await;
    let pki = TestPki::new("Loan Signing CA");
    let short =
        TestTsa::start_with(&TsaProfile { validity: Some(Duration::from_secs(20 * DAY)), ..TsaProfile::default() });
    let long = TestTsa::start();
    let pdf = long_term_pdf(&short, &pki);
    let store = Store::connect(&install.database_url, &PoolSettings::default()).await.expect("connect");
    store.migrate().await.expect("migrate");
    let workflows = seed(&store, &install, &pdf).await;
    let total = (WORKFLOWS * DOCUMENTS_PER_WORKFLOW) as i64;
    let unrecorded = (UNRECORDED_WORKFLOWS * DOCUMENTS_PER_WORKFLOW) as i64;

    let before = install.status(&short.url);
    assert_eq!(
        before["counts"],
        json!({"due": total - unrecorded, "fine": 0, "unknown": unrecorded, "withoutTimestamp": 0})
    );
    assert_eq!(before["tsa"]["withinMargin"], json!(true), "{before}");

    // The short-lived TSA cannot renew: refused, nothing renewed (back-filling happens).
    let refused = install.run(&["renew"], &short.url);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.starts_with("signet: ") && said.contains("TSA") && said.lines().count() == 1, "{said}");
    let after_refusal = install.status(&long.url);
    assert_eq!(after_refusal["counts"], json!({"due": total, "fine": 0, "unknown": 0, "withoutTimestamp": 0}));
    assert_eq!(after_refusal["tsa"]["withinMargin"], json!(false), "{after_refusal}");

    let started = Instant::now();
    let margin_end = now_millis() + 90 * DAY as i64 * 1000;
    let renewed_before_kill = killed_midway(&install, &store, &long.url, margin_end).await;
    let resumed = outcome(&install.run(&["renew"], &long.url));
    let elapsed = started.elapsed();
    assert_eq!(resumed["failed"], json!(0), "{resumed}");
    let renewed_after = resumed["renewed"].as_i64().expect("renewed") + resumed["already_renewed"].as_i64().expect("n");
    assert_eq!(renewed_before_kill + renewed_after, total, "{resumed}");
    eprintln!("renewed {total} documents in {elapsed:?} ({renewed_before_kill} before the kill)");

    // Nothing is due any more: a further run renews nothing.
    assert_eq!(outcome(&install.run(&["renew"], &long.url))["renewed"], json!(0));
    let after = install.status(&long.url);
    assert_eq!(after["counts"], json!({"due": 0, "fine": total, "unknown": 0, "withoutTimestamp": 0}));
    assert_eq!(after["due"], json!([]));

    // Exactly once: version 1 (signed) + 1, one renewal event per document, chains intact.
    let mut keys = HashSet::new();
    let mut renewed_doc = None;
    for workflow in &workflows {
        let documents = store.workflow_documents(workflow).await.expect("documents");
        assert!(
            documents.iter().all(|d| d.version == 2),
            "{:?}",
            documents.iter().map(|d| d.version).collect::<Vec<_>>()
        );
        keys.extend(documents.iter().map(|d| d.current_blob.clone()));
        let events = store.workflow_events(workflow).await.expect("events");
        assert_eq!(verify_chain(workflow.id.get(), &events), Ok(()));
        let renewals: Vec<_> = events.iter().filter(|e| e.action == "document.timestamped").collect();
        assert_eq!(renewals.len(), documents.len());
        let targets: HashSet<&str> = renewals.iter().map(|e| e.target.as_str()).collect();
        assert_eq!(targets.len(), documents.len(), "one renewal event per document");
        assert!(renewals.iter().all(|e| e.detail.contains("\"renewal\":true")));
        renewed_doc = documents.into_iter().next();
    }
    assert_eq!(keys.len() as i64, total, "each renewal is its own version");
    check_renewed_document(&install, renewed_doc.expect("a document"), &[&pki, &short.root, &long.root]).await;
}

/// A renewed document: two document time-stamps, the newest of the long-lived TSA; pdfsig and
/// pyHanko accept it.
async fn check_renewed_document(install: &Installation, doc: DocumentRow, roots: &[&TestPki]) {
    let blob = signet_blob::BlobStore::from_url("blobs", &install.dir.path().join("signet-data")).expect("blobs");
    let pdf = blob.get(&signet_blob::BlobKey::parse(&doc.current_blob).expect("key")).await.expect("renewed blob");
    assert_eq!(sha256_hex(&pdf), doc.current_sha256);
    let stamps = signet_pdf::signatures(&pdf).expect("signatures");
    assert_eq!(stamps.iter().filter(|s| s.sig_type == "DocTimeStamp").count(), 2);
    let protection = signet_signing::lta_protection(&pdf).expect("reads").expect("time-stamped");
    assert!(protection.expires_at_unix > (now_millis() / 1000) as u64 + 700 * DAY);
    // pdfsig checks the signature and lists the time-stamps (it cannot check those itself).
    let report = pdfsig(&pdf);
    assert_eq!(report.matches("Signature is Valid.").count(), 1, "{report}");
    assert!(report.contains("Signature #3"), "{report}");
    let roots: Vec<Vec<u8>> = roots.iter().map(|p| cert_pem(p.ca.cert_der())).collect();
    let roots: Vec<&[u8]> = roots.iter().map(Vec::as_slice).collect();
    pyhanko_validates(&pdf, &roots);
}
