//! Hostile input and trust boundaries, from outside: hostile PDFs through the API and the
//! gateway (each a clear refusal, the server still up), each tenant's seals under its own
//! certificate (checked by pdfsig and openssl), unauthenticated envelopes stopped before their
//! file is opened, and nothing secret of a gateway transaction kept at rest.

use std::io::Cursor;
use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_client::{
    PageSelection, PayloadBuilder, Profile, SealedRequest, SignaturePosition, SignatureType, open_result,
};
use signet_store::Backend;
use signet_testkit::gateway::{Integrator, erp_urls};
use signet_testkit::on_both_backends;
use signet_testkit::pdf::one_page;
use signet_testkit::problem::{expect_problem, posted_fields};
use signet_testkit::server::{TestApp, spawn, spawn_with};
use signet_testkit::validators::pdfsig_signer;

use crate::support::submit;

on_both_backends!(
    hostile_pdfs_are_refused_through_the_api_and_the_gateway,
    each_tenant_seals_with_its_own_certificate,
    a_sealing_certificate_near_its_end_is_renewed_before_it_seals,
    an_envelope_with_a_bogus_authtoken_is_refused_before_its_file_is_opened,
    nothing_secret_of_a_gateway_transaction_is_kept_at_rest,
    an_address_beyond_its_share_of_submissions_waits_for_its_refusal,
    an_address_whose_envelopes_keep_failing_to_authenticate_is_refused_before_decryption,
);

/// The 165-byte file that took the whole server down: `/Length` refers to its own object.
const SELF_LENGTH: &[u8] = b"%PDF-1.7\n1 0 obj\n<< /Length 1 0 R >>\nstream\nx\nendstream\nendobj\nxref\n0 2\n\
0000000000 65535 f \n0000000009 00000 n \ntrailer\n<< /Size 2 /Root 1 0 R >>\nstartxref\n63\n%%EOF\n";

/// A PDF whose objects are given in order, with a correct xref table.
fn pdf_with(objects: &[&[u8]]) -> Vec<u8> {
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes(),
    );
    out
}

/// Files that must be refused as damaged, each with what it attacks.
fn hostile_corpus() -> Vec<(&'static str, Vec<u8>)> {
    let deep = format!("<< /Type /Catalog /Pages 2 0 R /X {}1{} >>", "[".repeat(100_000), "]".repeat(100_000));
    // 1,799 bytes deflated twice that inflate to 1 GiB; a budget must stop the decoder.
    let flate_bomb = include_bytes!("../../../pdf/tests/data/flate-bomb-1gib.bin");
    let mut bomb_page =
        format!("<< /Length {} /Filter [/FlateDecode /FlateDecode] >>\nstream\n", flate_bomb.len()).into_bytes();
    bomb_page.extend_from_slice(flate_bomb);
    bomb_page.extend_from_slice(b"\nendstream");
    vec![
        ("a /Length that refers to its own object", SELF_LENGTH.to_vec()),
        (
            "a page tree whose /Kids lead back to itself",
            pdf_with(&[b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"]),
        ),
        ("arrays nested 100,000 deep", pdf_with(&[deep.as_bytes(), b"<< /Type /Pages /Kids [] /Count 0 >>"])),
        (
            "a stream whose /Length is far beyond the file and that never ends",
            pdf_with(&[
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
                b"<< /Length 99999999999 >>\nstream\nBT /F1 12 Tf (cut off here",
            ]),
        ),
        (
            "a page whose contents are missing",
            pdf_with(&[
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 9 0 R >>",
            ]),
        ),
        (
            "a content stream that inflates to 1 GiB",
            pdf_with(&[
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
                &bomb_page,
            ]),
        ),
    ]
}

fn pdf_payload(pdf: &[u8], authtoken: &str, reference: &str) -> PayloadBuilder {
    PayloadBuilder::pdf(pdf, "Asha Verma")
        .reference_number(reference)
        .authtoken(authtoken)
        .signature_types(&[SignatureType::ESignature])
        .urls(&erp_urls())
        .pages(&PageSelection::First)
        .position(SignaturePosition::BottomRight)
        .font_signature(true)
}

fn seal(who: &Integrator, payload: &[u8]) -> SealedRequest {
    who.seal(Profile::Modern, payload)
}

async fn sign_typed(app: &TestApp, link: &str) -> std::collections::HashMap<String, String> {
    let signed = app
        .client
        .post(app.url(&format!("{link}/sign")))
        .form(&[("mode", "typed"), ("typedName", "Asha Verma"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    let html = signed.text().await.expect("html");
    let (action, fields) = posted_fields(&html);
    assert_eq!(action, "https://erp.example.test/signed", "{html}");
    fields
}

async fn hostile_pdfs_are_refused_through_the_api_and_the_gateway(backend: Backend) {
    let app = spawn(backend).await;
    let (who, token) = app.integrator("Acme Bank").await;
    for (i, (what, pdf)) in hostile_corpus().into_iter().enumerate() {
        let upload = json!({"documentName": "hostile.pdf", "fileData": STANDARD.encode(&pdf)});
        let response = app.post("/api/v1/documents", &token, upload).await;
        assert_eq!(response.status(), 400, "{what} must be refused");
        let problem = expect_problem(response, 400, "validation_failed").await;
        assert!(problem["errors"]["fileData"].is_array(), "{what}: {problem}");

        let builder = pdf_payload(&pdf, &who.authtoken, &format!("HOSTILE-{i}"));
        let payload = serde_json::to_vec(&builder.to_value()).expect("json");
        let html = submit(&app, &who, &seal(&who, &payload)).await.text().await.expect("html");
        let (action, fields) = posted_fields(&html);
        assert_eq!(action, "https://erp.example.test/failed", "{what}: {html}");
        assert!(fields["ErrorMessage"].starts_with("107"), "{what}: {}", fields["ErrorMessage"]);

        let health = app.client.get(app.url("/healthz")).send().await.expect("the server is still up");
        assert_eq!(health.status(), 200, "{what}");
    }
    let listed: Value = app.get("/api/v1/documents", &token).await.json().await.unwrap_or(Value::Null);
    assert!(!listed.to_string().contains("hostile.pdf"), "nothing was stored: {listed}");
}

async fn each_tenant_seals_with_its_own_certificate(backend: Backend) {
    let app = spawn(backend).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let pdf = one_page("Loan agreement");
    let mut signers = Vec::new();
    for (name, reference) in [("Acme Bank", "SEAL-A"), ("Borrower Finance", "SEAL-B")] {
        let (who, _) = app.integrator(name).await;
        let payload = pdf_payload(&pdf, &who.authtoken, reference).reason("I agree to the loan").build().expect("p");
        let sealed = seal(&who, &payload);
        let response = submit(&app, &who, &sealed).await;
        assert_eq!(response.status(), 303, "{:?}", response.text().await);
        let link = response.headers()["location"].to_str().expect("location").to_string();
        let fields = sign_typed(&app, &link).await;
        let signed = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");
        let signer = pdfsig_signer(&signed);
        assert_eq!(signer, format!("{name} (sealed by Signet)"));

        // openssl sees the organisation in the subject, issued by the platform CA.
        let cms_path = dir.path().join(format!("{reference}.p7s"));
        let info = signet_pdf::signatures(&signed).expect("signatures");
        std::fs::write(&cms_path, &info[0].contents).expect("cms");
        let certs = Command::new("openssl")
            .args(["pkcs7", "-inform", "DER", "-print_certs", "-noout", "-in"])
            .arg(&cms_path)
            .output()
            .expect("openssl");
        let text = String::from_utf8_lossy(&certs.stdout).to_string();
        assert!(text.contains(&format!("O = {name}")), "{text}");
        assert!(text.contains("issuer=CN = Signet platform CA") || text.contains("issuer=CN=Signet platform CA"));
        signers.push(signer);
    }
    assert_ne!(signers[0], signers[1], "one tenant cannot seal in another's name");
}

/// The subject and notAfter of the certificates in a PDF's first signature, as openssl reads them.
fn signature_certificates(signed: &[u8], dir: &std::path::Path) -> String {
    let cms_path = dir.join("signature.p7s");
    let info = signet_pdf::signatures(signed).expect("signatures");
    std::fs::write(&cms_path, &info[0].contents).expect("cms");
    let pem = Command::new("openssl")
        .args(["pkcs7", "-inform", "DER", "-print_certs", "-in"])
        .arg(&cms_path)
        .output()
        .expect("openssl pkcs7");
    let pem_path = dir.join("certs.pem");
    std::fs::write(&pem_path, &pem.stdout).expect("pem");
    // The tenant's certificate comes first; x509 reads the first of the file.
    let out = Command::new("openssl")
        .args(["x509", "-noout", "-subject", "-enddate", "-in"])
        .arg(&pem_path)
        .output()
        .expect("openssl x509");
    String::from_utf8_lossy(&out.stdout).to_string()
}

async fn a_sealing_certificate_near_its_end_is_renewed_before_it_seals(backend: Backend) {
    use signet_sigcrypto::pki::{IssueOptions, KeyAlgo, LocalCa};
    let app = spawn(backend).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let tenant = app.tenant("Renewal Bank").await;
    let who = Integrator::setup(&app.base(), &app.token(&tenant).await).await;

    // The tenant's stored certificate has ten days left (as one issued two years ago would).
    let ca = &app.state.services.keys.ca;
    let ca = LocalCa::from_der(&ca.cert_der, &ca.key_pkcs8_der).expect("platform CA");
    let options = IssueOptions {
        organization: Some("Renewal Bank".into()),
        validity: Some(std::time::Duration::from_secs(10 * 24 * 3600)),
        ..IssueOptions::default()
    };
    let old = ca.issue_signer_with("Renewal Bank (sealed by Signet)", KeyAlgo::Rsa2048, &options).expect("issue");
    let old_row = signet_store::SigningKeyRow {
        kid: "about-to-lapse".into(),
        private_der: old.key_pkcs8_der.clone(),
        public_raw: old.cert_der.clone(),
    };
    let purpose = signet_services::platform::seals::purpose(tenant.tenant_id);
    let store = &app.store;
    match store.signing_key(&purpose).await.expect("read") {
        Some(current) => store.signing_key_replace(&purpose, &current.kid, &old_row).await.expect("replace"),
        None => store.signing_key_get_or_insert(&purpose, &old_row).await.expect("insert"),
    };

    // The next seal is made with a renewed certificate, which validates.
    let payload = pdf_payload(&one_page("Lease"), &who.authtoken, "RENEW-1").build().expect("payload");
    let sealed = seal(&who, &payload);
    let response = submit(&app, &who, &sealed).await;
    assert_eq!(response.status(), 303, "{:?}", response.text().await);
    let link = response.headers()["location"].to_str().expect("location").to_string();
    let fields = sign_typed(&app, &link).await;
    let signed = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");
    assert_eq!(pdfsig_signer(&signed), "Renewal Bank (sealed by Signet)");
    let certs = signature_certificates(&signed, dir.path());
    let not_after = certs.lines().find_map(|l| l.strip_prefix("notAfter=")).expect("notAfter").to_string();
    let year_of = |text: &str| text.split_whitespace().nth(3).and_then(|y| y.parse::<i32>().ok()).expect("year");
    let this_year = time::OffsetDateTime::now_utc().year();
    assert!(year_of(&not_after) > this_year, "renewed for about two years: {certs}");
    let stored = store.signing_key(&purpose).await.expect("read").expect("key");
    assert_ne!(stored.kid, "about-to-lapse", "the renewal is stored for every instance");
}

fn seven_zip_bomb() -> Vec<u8> {
    let mut writer = sevenz_rust2::ArchiveWriter::new(Cursor::new(Vec::new())).expect("writer");
    let zeros = vec![0u8; 4 * 1024 * 1024];
    writer.push_archive_entry(sevenz_rust2::ArchiveEntry::new_file("doc.pdf"), Some(zeros.as_slice())).expect("entry");
    writer.finish().expect("finish").into_inner()
}

async fn an_envelope_with_a_bogus_authtoken_is_refused_before_its_file_is_opened(backend: Backend) {
    let app = spawn(backend).await;
    let (who, _) = app.integrator("Acme Bank").await;
    let bomb = seven_zip_bomb();
    // With a valid Authtoken the bomb is opened and refused for its ratio (107)...
    // (The client SDK refuses to build a bomb, so the payload is its JSON as it stands.)
    let raw = |builder: PayloadBuilder| serde_json::to_vec(&builder.to_value()).expect("json");
    let payload = raw(pdf_payload(b"%PDF-1.7", &who.authtoken, "BOMB-1").compressed_file(&bomb));
    let html = submit(&app, &who, &seal(&who, &payload)).await.text().await.expect("html");
    assert!(posted_fields(&html).1["ErrorMessage"].starts_with("107"), "{html}");
    // ...with a bogus one it is refused (104) before anything is decompressed or parsed:
    // otherwise its own 107 would win.
    let payload = raw(pdf_payload(b"%PDF-1.7", "bogus-token", "BOMB-2").compressed_file(&bomb));
    let html = submit(&app, &who, &seal(&who, &payload)).await.text().await.expect("html");
    let (action, fields) = posted_fields(&html);
    assert_eq!(action, "https://erp.example.test/failed");
    assert!(fields["ErrorMessage"].starts_with("104"), "{html}");
    // A payload with fields that do not parse, and a bogus Authtoken: 104 as well.
    let broken =
        json!({"Authtoken": "bogus", "Filetype": "PDF", "File": "%%%", "Furl": "https://erp.example.test/failed"});
    let html = submit(&app, &who, &seal(&who, broken.to_string().as_bytes())).await.text().await.expect("html");
    assert!(posted_fields(&html).1["ErrorMessage"].starts_with("104"), "{html}");
}

/// Every file under `dir`, with its bytes.
fn files_under(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                out.push((path, bytes));
            }
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

async fn nothing_secret_of_a_gateway_transaction_is_kept_at_rest(backend: Backend) {
    let app = spawn(backend).await;
    let (who, _) = app.integrator("Acme Bank").await;
    let pdf = one_page("Loan agreement");
    let payload = pdf_payload(&pdf, &who.authtoken, "REST-1").build().expect("payload");
    let sealed = seal(&who, &payload);
    let response = submit(&app, &who, &sealed).await;
    assert_eq!(response.status(), 303);
    let link = response.headers()["location"].to_str().expect("location").to_string();
    let number = link.split('/').nth(3).expect("number").to_string();

    let row = app.store.transaction(&number).await.expect("row").expect("transaction");
    assert!(!contains(&row.session_key, sealed.session.as_bytes()), "the session key is sealed");
    let data_dir = app.state.services.config.data_dir.clone();
    let kept = files_under(&data_dir);
    for (path, bytes) in &kept {
        assert!(!contains(bytes, who.authtoken.as_bytes()), "Authtoken in {}", path.display());
        assert!(!contains(bytes, sealed.session.as_bytes()), "session key in {}", path.display());
        assert!(!contains(bytes, b"Loan agreement"), "the document in the clear in {}", path.display());
    }
    assert!(kept.iter().any(|(path, _)| path.to_string_lossy().ends_with("payload.sealed")));

    // The signer still gets the document and signs; then nothing of the request remains.
    let fields = sign_typed(&app, &link).await;
    let signed = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");
    assert!(signed.starts_with(b"%PDF"));
    let row = app.store.transaction(&number).await.expect("row").expect("transaction");
    assert!(row.session_key.is_empty() && row.payload_blob.is_none(), "forgotten with the transaction");
    assert!(!files_under(&data_dir).iter().any(|(path, _)| path.to_string_lossy().ends_with("payload.sealed")));
}

/// One address's share of gateway submissions in progress: a submission beyond it is refused
/// (429), and only after the tarpit's delay; when the share frees up, submissions go through.
async fn an_address_beyond_its_share_of_submissions_waits_for_its_refusal(backend: Backend) {
    use tokio::io::AsyncWriteExt;
    let app = spawn_with(backend, |config| {
        config.gateway_submissions_per_address = 1;
        config.gateway_refusal_delay_ms = 400;
    })
    .await;
    // A submission that holds the address's only slot: its body arrives slowly (never, here).
    let mut slow = tokio::net::TcpStream::connect(app.addr).await.expect("connect");
    let head = "POST /eMsecure/V3_0/Index HTTP/1.1\r\nHost: signet\r\nContent-Type: application/x-www-form-urlencoded\r\n\
                Content-Length: 100000\r\n\r\nParameter1=";
    slow.write_all(head.as_bytes()).await.expect("write");
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let post =
        || app.client.post(app.url("/eMsecure/V3_0/Index")).form(&[("Parameter1", "x"), ("Parameter2", "y")]).send();
    let started = std::time::Instant::now();
    let refused = post().await.expect("post");
    assert_eq!(refused.status(), 429);
    assert!(started.elapsed() >= std::time::Duration::from_millis(400), "answered after {:?}", started.elapsed());
    assert_eq!(refused.headers()["retry-after"], "1");
    drop(slow);
    // The slot is free again once the slow submission's connection is gone.
    let mut answered = post().await.expect("post").status();
    for _ in 0..50 {
        if answered != 429 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        answered = post().await.expect("post").status();
    }
    assert_eq!(answered, 400, "a bad envelope is refused for what it is, not for the address's share");
}

/// An address whose envelopes keep carrying bogus Authtokens is refused before any decryption
/// once it used up its allowance; another address (a real integrator) is served meanwhile.
async fn an_address_whose_envelopes_keep_failing_to_authenticate_is_refused_before_decryption(backend: Backend) {
    let app = spawn_with(backend, |config| {
        config.gateway_unauthenticated_per_address = 3;
        config.gateway_refusal_delay_ms = 10;
        config.trusted_proxies = vec!["127.0.0.1".parse().expect("address")];
    })
    .await;
    let (who, _) = app.integrator("Acme Bank").await;
    let pdf = one_page("Loan agreement");
    let bogus = pdf_payload(&pdf, "bogus-authtoken", "FLOOD-1").build().expect("payload");
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let from = |address: &'static str, sealed: SealedRequest| {
        let (app, http) = (&app, &http);
        async move {
            http.post(app.url("/eMsecure/V3_0/Index"))
                .header("X-Forwarded-For", address)
                .form(&sealed.form_fields())
                .send()
                .await
                .expect("post")
                .status()
                .as_u16()
        }
    };
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(from("203.0.113.9", seal(&who, &bogus)).await);
    }
    // Three bogus Authtokens are answered for what they are (Furl, a 200 page posting 104);
    // then the address is refused at the door.
    assert_eq!(&statuses[3..], &[429, 429], "{statuses:?}");
    assert!(statuses[..3].iter().all(|s| *s != 429), "{statuses:?}");
    let good = pdf_payload(&pdf, &who.authtoken, "REAL-1").build().expect("payload");
    assert_eq!(from("198.51.100.7", seal(&who, &good)).await, 303, "the integrator's own address is served");
}
