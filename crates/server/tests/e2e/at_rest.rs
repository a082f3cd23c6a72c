//! Documents at rest (issue 34): nothing a signer uploads, and no user's PAN, is kept in clear,
//! in the blob store, the SQLite file or a PostgreSQL dump; an installation from before encryption is encrypted
//! on start and then refuses an object put there in clear; the master key rotates while the
//! server runs, after which the old key is no longer needed. Deleting an organisation destroys
//! its key in the key vault and every row of it, and leaves the others and the checks whole.

use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_domain::audit::Actor;
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::pdf::outlined_pdf;
use signet_testkit::server::{TestApp, spawn_with};

use crate::support::link_of;

on_both_backends!(
    a_signed_document_is_nowhere_in_clear_and_downloads_whole,
    objects_kept_in_clear_are_encrypted_on_start_and_then_clear_ones_refused,
    the_master_key_rotates_online_and_the_old_one_retires,
    deleting_an_organisation_shreds_its_keys_and_leaves_the_others_whole,
    keys_wrapped_by_the_master_key_move_under_the_vault_at_start,
    a_deletion_stopped_after_its_key_was_destroyed_starts_and_finishes_when_run_again,
    an_organisation_made_by_a_tool_that_does_not_seal_gets_its_key_and_its_first_addresses_sealed,
);

/// A PDF whose outline carries `marker` in clear (reportlab compresses page text, not outlines).
fn marked_pdf(marker: &str) -> Vec<u8> {
    let pdf = outlined_pdf(marker, 1);
    assert!(contains(&pdf, marker.as_bytes()), "the marker must be in the uploaded bytes");
    pdf
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Every file under `dir` that holds `needle`.
fn files_holding(dir: &Path, needle: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("read_dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if std::fs::read(&path).is_ok_and(|bytes| contains(&bytes, needle)) {
                found.push(path.display().to_string());
            }
        }
    }
    found
}

/// The text of a PostgreSQL dump of the app's database.
fn pg_dump(app: &TestApp) -> Vec<u8> {
    let url = app.state.services.config.database_url.clone().expect("a PostgreSQL URL");
    let out = std::process::Command::new("pg_dump").arg(&url).output().expect("pg_dump");
    assert!(out.status.success(), "pg_dump: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// A PAN of the right shape.
const PAN: &str = "ABCPE1234F";

/// A new user of the organisation with [`PAN`]; answers their id.
async fn user_with_pan(app: &TestApp, token: &str, email: &str) -> i64 {
    let body = json!({"name": "Asha Verma", "EmailID": email, "roleId": 2, "PanNumber": PAN});
    let created = app.post("/api/v1/users", token, body).await;
    assert_eq!(created.status(), 201);
    created.json::<Value>().await.expect("json")["subscriberId"].as_i64().expect("subscriberId")
}

async fn upload(app: &TestApp, token: &str, pdf: &[u8]) -> i64 {
    let body = json!({"documentName": "Marked.pdf", "fileData": STANDARD.encode(pdf)});
    let response = app.post("/api/v1/documents", token, body).await;
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.expect("json");
    body["documentId"].as_i64().expect("documentId")
}

/// Uploads `pdf`, has one signer sign it and answers the workflow and the signed PDF.
async fn signed(app: &TestApp, token: &str, pdf: &[u8]) -> (i64, Vec<u8>) {
    let document_id = upload(app, token, pdf).await;
    sign_document(app, token, document_id).await
}

/// The address the signer signs from (through a proxy the first test trusts).
const SIGNER_ADDRESS: &str = "198.51.100.77";

/// Opens the signer page and signs with a typed name, through a proxy that says the signer is
/// at [`SIGNER_ADDRESS`] (taken only where `trusted_proxies` names this machine).
async fn sign_typed_from_the_signers_address(link: &str, name: &str) {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("x-forwarded-for", reqwest::header::HeaderValue::from_static(SIGNER_ADDRESS));
    let http = reqwest::Client::builder().default_headers(headers).build().expect("client");
    assert_eq!(http.get(link).send().await.expect("page").status(), 200);
    let form = [("mode", "typed"), ("typedName", name), ("font", "handwriting"), ("consent", "on")];
    let signed = http.post(format!("{link}/sign")).form(&form).send().await.expect("sign");
    assert_eq!(signed.status(), 200, "signing as {name}");
}

/// A new organisation's first entry with a client address, before it has any document: a
/// template made through a proxy that names the address (sealed like every later one: the
/// organisation's key is made with it). Answers the address.
async fn first_entry_from_an_address(app: &TestApp, token: &str) -> &'static str {
    const ADDRESS: &str = "192.0.2.55";
    let template = json!({"menuName": "First"});
    let made = app
        .client
        .post(app.url("/api/v1/templates"))
        .bearer_auth(token)
        .header("x-forwarded-for", ADDRESS)
        .json(&template)
        .send()
        .await
        .expect("template");
    assert_eq!(made.status(), 201, "{}", made.text().await.unwrap_or_default());
    ADDRESS
}

/// Has one signer sign the uploaded document; answers the workflow and the signed PDF.
async fn sign_document(app: &TestApp, token: &str, document_id: i64) -> (i64, Vec<u8>) {
    let signer = "asha@borrower.test";
    let body = json!({
        "templateId": 0,
        "workflowName": "Marked",
        "documentIds": [document_id],
        "signatories": [{"subscriberId": 0, "emailId": signer, "name": "Asha", "signingOrder": 1}],
    });
    let started: Value = app.post("/api/v1/workflows", token, body).await.json().await.expect("json");
    let workflow_id = started["workflowId"].as_i64().expect("workflowId");
    sign_typed_from_the_signers_address(&link_of(&started, signer), "Asha").await;
    (workflow_id, download(app, token, workflow_id).await)
}

async fn download(app: &TestApp, token: &str, workflow_id: i64) -> Vec<u8> {
    let response = app.post("/api/v1/documents/download", token, json!({"workflowid": workflow_id})).await;
    assert_eq!(response.status(), 200);
    response.bytes().await.expect("pdf").to_vec()
}

async fn a_signed_document_is_nowhere_in_clear_and_downloads_whole(backend: Backend) {
    let app = spawn_with(backend, |c| c.trusted_proxies = vec![std::net::IpAddr::from([127, 0, 0, 1])]).await;
    let tenant = app.tenant("Northwind Lending").await;
    let token = app.token(&tenant).await;
    let first_address = first_entry_from_an_address(&app, &token).await;
    let marker = format!("AT-REST-{}", signet_server::secrets::random_token(8));
    let pdf = marked_pdf(&marker);
    let (workflow_id, signed) = signed(&app, &token, &pdf).await;
    // The signer's address is evidence: shown with the events, and covered by the chain
    // through a commitment (recomputed here as docs/api.md says), yet sealed at rest.
    let audit: Value =
        app.get(&format!("/api/v1/workflows/{workflow_id}/audit"), &token).await.json().await.expect("json");
    assert_eq!(audit["verified"], true, "{audit}");
    let signed_event = audit["events"]
        .as_array()
        .and_then(|events| events.iter().find(|e| e["action"] == "signatory.signed"))
        .expect("a signed event");
    assert_eq!(signed_event["ip"], SIGNER_ADDRESS, "{signed_event}");
    let opening = signet_domain::audit::IpOpening {
        ip: SIGNER_ADDRESS.into(),
        nonce: signed_event["ipNonce"].as_str().expect("ipNonce").into(),
    };
    assert_eq!(signed_event["ipCommitment"].as_str(), Some(opening.commitment().as_str()), "{signed_event}");
    let user_id = user_with_pan(&app, &token, "asha@northwind.test").await;
    let user: Value = app.get(&format!("/api/v1/users/{user_id}"), &token).await.json().await.expect("json");
    assert_eq!(user["panNumber"], PAN, "the PAN reads back: {user}");
    // The signature is an incremental update: the upload is the signed file's first bytes.
    assert!(signed.starts_with(&pdf), "the signed PDF keeps the upload byte for byte");
    assert!(signed.len() > pdf.len());
    let data_dir = app.state.services.config.data_dir.clone();
    for secret in [marker.as_bytes(), PAN.as_bytes(), SIGNER_ADDRESS.as_bytes(), first_address.as_bytes()] {
        assert_eq!(files_holding(&data_dir, secret), Vec::<String>::new(), "in clear under {data_dir:?}");
        if backend == Backend::Postgres {
            assert!(!contains(&pg_dump(&app), secret), "in clear in the PostgreSQL dump");
        }
    }
    // An object's bytes moved to another object's key do not open there.
    let blobs = signet_blob::BlobStore::from_url("blobs", &data_dir).expect("blobs");
    let keys = stored_keys(&data_dir.join("blobs"));
    assert!(keys.len() >= 2, "{keys:?}");
    let raw = blobs.raw();
    let first = raw.get(&keys[0]).await.expect("raw");
    raw.put(&keys[1], first).await.expect("swap");
    assert!(app.state.services.blob.get(&keys[1]).await.is_err(), "a swapped object opened");
}

/// The keys of every object in a local blob folder.
fn stored_keys(root: &Path) -> Vec<signet_blob::BlobKey> {
    let mut keys = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("read_dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if let Some(key) = path.strip_prefix(root).ok().and_then(|p| p.to_str())
                && let Ok(key) = signet_blob::BlobKey::parse(key)
            {
                keys.push(key);
            }
        }
    }
    keys.sort();
    keys
}

async fn objects_kept_in_clear_are_encrypted_on_start_and_then_clear_ones_refused(backend: Backend) {
    let dir = tempfile::tempdir().expect("tmp");
    let data_dir = dir.path().to_path_buf();
    let before = spawn_with(backend, |c| {
        c.data_dir = data_dir.clone();
        c.blob_encryption = false;
    })
    .await;
    let tenant = before.tenant("Northwind Lending").await;
    let token = before.token(&tenant).await;
    let marker = format!("IN-CLEAR-{}", signet_server::secrets::random_token(8));
    let pdf = marked_pdf(&marker);
    let document_id = upload(&before, &token, &pdf).await;
    let user_id = user_with_pan(&before, &token, "asha@northwind.test").await;
    assert!(!files_holding(&data_dir.join("blobs"), marker.as_bytes()).is_empty(), "kept in clear while off");
    let database_url = before.state.services.config.database_url.clone();
    drop(before);

    let after = spawn_with(backend, |c| {
        c.data_dir = data_dir.clone();
        c.database_url = database_url;
    })
    .await;
    // What start-up does in the background, awaited here. The start's own pass runs at the
    // same time: an object it is writing counts as changed to this one, which leaves it to
    // that pass, so this waits (bounded) for whichever finishes it.
    for _ in 0..50 {
        after.state.services.seal_objects_in_clear().await;
        if files_holding(&data_dir.join("blobs"), marker.as_bytes()).is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(files_holding(&data_dir.join("blobs"), marker.as_bytes()), Vec::<String>::new());
    let token = after.token(&tenant).await;
    let user: Value = after.get(&format!("/api/v1/users/{user_id}"), &token).await.json().await.expect("json");
    assert_eq!(user["panNumber"], PAN, "the PAN, encrypted on start, reads back: {user}");
    if backend == Backend::Postgres {
        assert!(!contains(&pg_dump(&after), PAN.as_bytes()), "the PAN stayed in clear");
    }
    let (_, signed) = sign_document(&after, &token, document_id).await;
    assert!(signed.starts_with(&pdf), "the upload, encrypted on start, is signed whole");
    // Every object is now encrypted: one put there in clear is refused, not served.
    let key = stored_keys(&data_dir.join("blobs")).into_iter().next().expect("an object");
    after.state.services.blob.raw().put(&key, bytes::Bytes::from_static(b"%PDF-1.7 planted")).await.expect("plant");
    let planted = after.state.services.blob.get(&key).await;
    assert!(matches!(planted, Err(signet_blob::Error::Plaintext { .. })), "{planted:?}");
}

async fn the_master_key_rotates_online_and_the_old_one_retires(backend: Backend) {
    use signet_services::platform::data_keys::{MasterKey, write_key_file};
    let dir = tempfile::tempdir().expect("tmp");
    let key_file = dir.path().join("keys");
    let old = MasterKey::generate_text().expect("key");
    write_key_file(&key_file, &format!("{old}\n")).expect("write");
    let (path, data_dir) = (key_file.clone(), dir.path().join("data"));
    let app = spawn_with(backend, |c| {
        c.master_key_path = Some(path);
        c.data_dir = data_dir;
    })
    .await;
    let tenant = app.tenant("Northwind Lending").await;
    let token = app.token(&tenant).await;
    let pdf = marked_pdf("ROTATED");
    let (workflow_id, signed_before) = signed(&app, &token, &pdf).await;
    let old_id = app.state.services.data_keys.current_master_id();

    // A new key on top while the server runs; the server reads the file again by itself.
    let new = MasterKey::generate_text().expect("key");
    write_key_file(&key_file, &format!("{new}\n{old}\n")).expect("write");
    let rewrapped = app.state.services.data_keys.rotate().await.expect("rotate");
    assert!(rewrapped >= 1, "the organisation's data key: {rewrapped}");
    assert_ne!(app.state.services.data_keys.current_master_id(), old_id);
    assert_eq!(app.state.services.data_keys.rotate().await.expect("again"), 0, "nothing left to re-wrap");
    assert!(app.state.services.data_keys.check().await.expect("check").failures.is_empty());

    // Only the new key from now on: a fresh start opens what was written under the old one.
    write_key_file(&key_file, &format!("{new}\n")).expect("retire");
    // (The data folder is this test's: a TestApp removes only a folder it made.)
    let (data_dir, database_url) =
        (app.state.services.config.data_dir.clone(), app.state.services.config.database_url.clone());
    drop(app);
    let path = key_file.clone();
    let restarted = spawn_with(backend, |c| {
        c.data_dir = data_dir;
        c.database_url = database_url;
        c.master_key_path = Some(path);
    })
    .await;
    let token = restarted.token(&tenant).await;
    assert_eq!(download(&restarted, &token, workflow_id).await, signed_before);
}

async fn deleting_an_organisation_shreds_its_keys_and_leaves_the_others_whole(backend: Backend) {
    use signet_services::platform::{integrity, tenant_deletion};
    let app = spawn_with(backend, |_| {}).await;
    let (gone, kept) = (app.tenant("Gone Lending").await, app.tenant("Kept Lending").await);
    let (gone_token, kept_token) = (app.token(&gone).await, app.token(&kept).await);
    let (_, _) = signed(&app, &gone_token, &marked_pdf("GONE")).await;
    user_with_pan(&app, &gone_token, "asha@gone.test").await;
    let (kept_workflow, kept_pdf) = signed(&app, &kept_token, &marked_pdf("KEPT")).await;
    let services = &app.state.services;
    let gone_id = gone.tenant_id.get();
    let vault_file = services.data_keys.vault().path(gone_id);
    assert!(vault_file.exists(), "the organisation's key is in the vault: {}", vault_file.display());
    assert!(services.data_keys.vault().path(kept.tenant_id.get()).exists());

    let actor = signet_domain::audit::Actor { id: "operator".into(), ip: None };
    let wrong = tenant_deletion::delete_tenant(services, gone_id, "Kept Lending", &actor).await;
    assert!(wrong.is_err(), "deleted under another organisation's name");
    let done = tenant_deletion::delete_tenant(services, gone_id, "Gone Lending", &actor).await.expect("delete");
    assert!(done.marked && done.key_destroyed, "{done:?}");
    assert!(done.data_keys_destroyed >= 1 && done.blobs_deleted >= 2, "{done:?}");
    assert!(!vault_file.exists(), "the key file is still there");
    assert_eq!(app.store.rows_left_of_tenant(gone_id).await.expect("rows"), vec![]);
    let blobs = services.config.data_dir.join("blobs/tenant").join(gone_id.to_string());
    assert!(!blobs.exists() || stored_keys(&blobs).is_empty(), "blobs left under {}", blobs.display());

    // Its API client no longer gets in; the other organisation downloads byte for byte.
    let refused = app
        .client
        .post(format!("{}/api/v1/auth/token", app.base()))
        .json(&json!({"grant_type": "client_credentials", "client_id": gone.client_id, "client_secret": gone.client_secret}))
        .send()
        .await
        .expect("token");
    assert!(refused.status().is_client_error(), "{}", refused.status());
    let old_token = app.get("/api/v1/workflows", &gone_token).await;
    assert_eq!(old_token.status(), 401, "a token issued before still works");
    assert_eq!(download(&app, &kept_token, kept_workflow).await, kept_pdf);

    // Running it again finds nothing left to do; the installation checks whole.
    let again = tenant_deletion::delete_tenant(services, gone_id, "Gone Lending", &actor).await.expect("again");
    assert!(!again.marked && !again.key_destroyed && again.data_keys_destroyed == 0, "{again:?}");
    assert!(again.blobs_deleted == 0 && again.rows_deleted.is_empty(), "{again:?}");
    let mut findings = Vec::new();
    let summary = integrity::check(services, |f| findings.push(f.to_string())).await.expect("check");
    assert_eq!(summary.findings, 0, "{findings:?}");
    // The platform's audit chain says who deleted which organisation.
    let platform = app.store.audit_entries(signet_domain::TenantId::from(0), 0, 100).await.expect("audit");
    let entry = platform.iter().find(|e| e.action == "tenant.deleted").expect("a platform audit entry");
    assert_eq!(entry.actor, "operator");
    assert_eq!(entry.target, format!("tenant:{gone_id}"));
}

/// AES-256-GCM as the key files are written (`nonce | ciphertext | tag`), done here apart from
/// the service's code: the test builds an installation from before the key vault by hand.
mod gcm {
    use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};

    fn key(secret: &[u8]) -> LessSafeKey {
        LessSafeKey::new(UnboundKey::new(&AES_256_GCM, secret).expect("key"))
    }

    pub fn open(secret: &[u8], aad: &str, sealed: &[u8]) -> Vec<u8> {
        let (nonce, body) = sealed.split_at(12);
        let mut buffer = body.to_vec();
        let nonce = Nonce::try_assume_unique_for_key(nonce).expect("nonce");
        key(secret).open_in_place(nonce, Aad::from(aad.as_bytes()), &mut buffer).expect("opens").to_vec()
    }

    pub fn seal(secret: &[u8], aad: &str, plain: &[u8]) -> Vec<u8> {
        let nonce = [7u8; 12];
        let mut buffer = plain.to_vec();
        key(secret)
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(aad.as_bytes()), &mut buffer)
            .expect("seal");
        [nonce.to_vec(), buffer].concat()
    }
}

async fn keys_wrapped_by_the_master_key_move_under_the_vault_at_start(backend: Backend) {
    use signet_services::platform::data_keys::{MasterKey, write_key_file};
    let dir = tempfile::tempdir().expect("tmp");
    let key_file = dir.path().join("keys");
    let master_text = MasterKey::generate_text().expect("key");
    write_key_file(&key_file, &format!("{master_text}\n")).expect("write");
    let master = STANDARD.decode(&master_text).expect("base64");
    let (path, data_dir) = (key_file.clone(), dir.path().join("data"));
    let app = spawn_with(backend, |c| {
        c.master_key_path = Some(path);
        c.data_dir = data_dir;
    })
    .await;
    let tenant = app.tenant("Old Lending").await;
    let token = app.token(&tenant).await;
    let (workflow_id, signed_pdf) = signed(&app, &token, &marked_pdf("BEFORE THE VAULT")).await;
    let tenant_id = tenant.tenant_id.get();

    // Undo the vault by hand: the data key wrapped by the master key itself, no vault file.
    let vault_file = app.state.services.data_keys.vault().path(tenant_id);
    let line = std::fs::read_to_string(&vault_file).expect("vault file");
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&words[..3], ["signet", "kek", "v1"], "{line}");
    let kek =
        gcm::open(&master, &format!("signet tenant kek v1|{tenant_id}"), &STANDARD.decode(words[4]).expect("b64"));
    let year = i64::from(time::OffsetDateTime::now_utc().year());
    let row = app.store.data_key_for(tenant_id, year).await.expect("row").expect("a data key");
    assert_eq!(row.master_id.as_deref(), Some(format!("kek:{tenant_id}").as_str()));
    let aad = format!("signet data key v1|{tenant_id}|{year}");
    let secret = gcm::open(&kek, &aad, row.wrapped.as_deref().expect("wrapped"));
    let by_master = gcm::seal(&master, &aad, &secret);
    let master_id = {
        use aws_lc_rs::hmac;
        let tag = hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, &master), b"signet master key id v1");
        hex::encode(&tag.as_ref()[..8])
    };
    let literal = match backend {
        Backend::Sqlite => format!("X'{}'", hex::encode(&by_master)),
        Backend::Postgres => format!("decode('{}', 'hex')", hex::encode(&by_master)),
    };
    let sql = format!("UPDATE data_keys SET wrapped = {literal}, master_id = '{master_id}' WHERE id = {}", row.id);
    assert_eq!(app.store.execute_for_tests(Box::leak(sql.into_boxed_str())).await.expect("update"), 1);
    std::fs::remove_file(&vault_file).expect("remove");

    let (data_dir, database_url) =
        (app.state.services.config.data_dir.clone(), app.state.services.config.database_url.clone());
    drop(app);
    let path = key_file.clone();
    let restarted = spawn_with(backend, |c| {
        c.data_dir = data_dir;
        c.database_url = database_url;
        c.master_key_path = Some(path);
    })
    .await;
    let moved = restarted.store.data_key(row.id).await.expect("row").expect("the data key");
    assert_eq!(moved.master_id.as_deref(), Some(format!("kek:{tenant_id}").as_str()), "not moved under the vault");
    assert!(vault_file.exists(), "no new vault file");
    let token = restarted.token(&tenant).await;
    assert_eq!(download(&restarted, &token, workflow_id).await, signed_pdf);
    assert!(restarted.state.services.data_keys.check().await.expect("check").failures.is_empty());
}

async fn a_deletion_stopped_after_its_key_was_destroyed_starts_and_finishes_when_run_again(backend: Backend) {
    use signet_services::platform::{integrity, tenant_deletion};
    let dir = tempfile::tempdir().expect("tmp");
    let data_dir = dir.path().join("data");
    let app = spawn_with(backend, |c| c.data_dir = data_dir).await;
    let tenant = app.tenant("Halfway Lending").await;
    let token = app.token(&tenant).await;
    signed(&app, &token, &marked_pdf("HALFWAY")).await;
    let tenant_id = tenant.tenant_id.get();
    // Stopped in step 2: marked deleted, its vault file gone, its data key rows not yet emptied.
    assert!(app.store.mark_tenant_deleted(tenant_id, "stamp").await.expect("mark"));
    assert!(app.state.services.data_keys.vault().destroy(tenant_id).expect("destroy"));
    let (data_dir, database_url) =
        (app.state.services.config.data_dir.clone(), app.state.services.config.database_url.clone());
    drop(app);
    // The start does not stop on the deleted organisation's missing vault file.
    let restarted = spawn_with(backend, |c| {
        c.data_dir = data_dir;
        c.database_url = database_url;
    })
    .await;
    let actor = signet_domain::audit::Actor { id: "operator".into(), ip: None };
    let services = &restarted.state.services;
    let done = tenant_deletion::delete_tenant(services, tenant_id, "Halfway Lending", &actor).await.expect("finish");
    assert!(!done.marked && !done.key_destroyed, "{done:?}");
    assert!(done.data_keys_destroyed >= 1 && done.blobs_deleted >= 2 && !done.rows_deleted.is_empty(), "{done:?}");
    assert_eq!(restarted.store.rows_left_of_tenant(tenant_id).await.expect("rows"), vec![]);
    let mut findings = Vec::new();
    let summary = integrity::check(services, |f| findings.push(f.to_string())).await.expect("check");
    assert_eq!(summary.findings, 0, "{findings:?}");
}

/// `signet tenant create` beside a running server opens the bare store, which makes no key:
/// the organisation's first entries find none. The server makes it in the background and then
/// seals the addresses those entries kept; they still read back.
async fn an_organisation_made_by_a_tool_that_does_not_seal_gets_its_key_and_its_first_addresses_sealed(
    backend: Backend,
) {
    const ADDRESS: &str = "192.0.2.66";
    let app = spawn_with(backend, |c| c.trusted_proxies = vec![std::net::IpAddr::from([127, 0, 0, 1])]).await;
    let bare = signet_server::app::open_store(&app.state.services.config).await.expect("bare store");
    let tenant =
        signet_server::provision::create_tenant(&bare, "Made Aside", "admin@aside.test", None, &Actor::system())
            .await
            .expect("tenant");
    bare.close().await;
    let vault = app.state.services.config.key_vault_dir().join(format!("tenant-{}.key", tenant.tenant_id));
    assert!(!vault.exists(), "the bare store makes no key");
    let token = app.token(&tenant).await;
    let made = app
        .client
        .post(app.url("/api/v1/templates"))
        .bearer_auth(&token)
        .header("x-forwarded-for", ADDRESS)
        .json(&json!({"menuName": "Aside"}))
        .send()
        .await
        .expect("template");
    assert_eq!(made.status(), 201);
    // Rows holding it in clear (a SQLite file may keep a changed value's old bytes in its free
    // space until they are written over, so rows are counted rather than the file searched).
    let rows_in_clear = || async {
        app.store
            .fetch_id_for_tests(
                "SELECT (SELECT COUNT(*) FROM audit_log WHERE ip_sealed LIKE '%192.0.2.66%') \
                 + (SELECT COUNT(*) FROM audit_pending WHERE ip_sealed LIKE '%192.0.2.66%')",
            )
            .await
            .expect("count")
    };
    // The background sealing waits 2 s for the entry's transaction to end; bounded here.
    for _ in 0..100 {
        if rows_in_clear().await == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert_eq!(rows_in_clear().await, 0, "the first address is still in clear");
    if backend == Backend::Postgres {
        assert!(!contains(&pg_dump(&app), ADDRESS.as_bytes()), "in clear in the PostgreSQL dump");
    }
    assert!(vault.exists(), "the key was made");
    let verified: Value = app.get("/api/v1/audit/verify", &token).await.json().await.expect("json");
    assert_eq!(verified["intact"], true, "{verified}");
    let audit: Value = app.get("/api/v1/audit", &token).await.json().await.expect("json");
    let entries = audit.as_array().expect("entries");
    assert!(entries.iter().any(|e| e["ip"] == ADDRESS), "the sealed address reads back: {audit}");
}
