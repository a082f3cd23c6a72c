//! The console (`/app`) in Debian's headless Chromium (`tests/browser/console.mjs`), on a
//! phone's screen, on both backends: an administrator invites a user and gives them a role;
//! that user signs in, sends a three-signer document (ReportLab's PDF) with the signature
//! boxes dragged onto the page; the signers sign through their e-mailed links; the sender
//! finds it completed and downloads a document whose three signatures pdfsig and pyHanko
//! accept, at the places dragged to; a user without the permission neither sees nor reaches
//! administration. The driver fails on console errors, failed requests, layout shift,
//! horizontal scrolling and unlabelled controls; screenshots of each step are kept under
//! `<target>/browser-artifacts/console/`.
//!
//! Besides the browser: what a console session refuses (forms without their token or from
//! another site, a session after sign-out or after its sessions were ended).
//!
//! Needs node, Debian's chromium and `npm ci` in `tests/browser` (scripts/install-test-deps.sh).

use signet_domain::audit::Actor;
use std::path::Path;

use base64::Engine;
use reqwest::redirect::Policy;
use serde_json::{Value, json};
use signet_store::Backend;
use signet_testkit::console::{Browser, console_session, csrf_of};
use signet_testkit::on_both_backends;
use signet_testkit::people::{GOOD_PASSWORD, link_token, set_password};
use signet_testkit::problem::unescape;
use signet_testkit::server::{TestApp, administrator, spawn_with};
use signet_testkit::smtp::SmtpSink;
use signet_testkit::validators::{cert_pem, pdfsig, pyhanko_validates};

use crate::support::{ADMIN_PASSWORD, DRIVER_DIR, discovery_server, hidden_fields, run_driver, target_dir};

on_both_backends!(
    staff_invite_send_track_and_are_kept_out_of_what_their_role_does_not_allow,
    a_console_session_refuses_foreign_forms_and_ends_with_sign_out_and_revocation,
    marking_a_user_inactive_ends_their_console_and_api_sessions_at_once,
    the_sender_acts_on_a_workflow_signs_from_the_inbox_and_checks_the_audit_trail,
    administrators_keep_departments_and_webhooks_and_others_are_kept_out,
    administrators_keep_the_stamp_inventory_and_its_article_codes,
    senders_e_stamp_the_documents_they_send,
    senders_e_stamp_with_certificates_the_stamp_provider_issued,
    people_keep_their_certificates_and_administrators_the_signing_profiles,
    administrators_keep_the_billing_profile_and_issue_invoices,
    administrators_keep_the_menus_and_grant_their_entries,
    people_keep_their_second_factor_and_administrators_the_single_sign_on_providers,
    senders_make_lots_that_their_signer_signs_from_the_inbox,
    senders_attach_files_and_ask_the_signers_for_documents,
    senders_review_what_they_send_and_nothing_is_made_before_they_confirm,
    every_section_meets_wcag_2_1_aa_on_a_phone,
);

/// Runs one journey of `console.mjs`; its outcome, which must list no problems.
async fn journey(app: &TestApp, name: &str, shots: &str, mut args: Value) -> Value {
    assert!(
        Path::new(DRIVER_DIR).join("node_modules/playwright-core").is_dir(),
        "the console tests need playwright-core: run `npm ci --prefix crates/server/tests/browser` \
         (scripts/install-test-deps.sh does)"
    );
    args["base"] = json!(app.base());
    args["journey"] = json!(name);
    args["shots"] = json!(target_dir().join("browser-artifacts").join("console").join(shots));
    let name = name.to_string();
    tokio::task::spawn_blocking(move || run_driver("console.mjs", &args, &name)).await.expect("join")
}

async fn console_app(backend: Backend, smtp: &SmtpSink) -> TestApp {
    spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await
}

/// A user invited by the administrator in the console, their password set through the link.
async fn invited(app: &TestApp, smtp: &SmtpSink, admin: &str, tag: &str, who: (&str, &str), role: &str) {
    let (name, email) = who;
    let args =
        json!({"email": admin, "password": ADMIN_PASSWORD, "invite": {"name": name, "email": email, "role": role}});
    let outcome = journey(app, "invite", &format!("{tag}-invite-{role}"), args).await;
    assert!(outcome["notice"].as_str().unwrap_or_default().contains(email), "{outcome}");
    assert_eq!(outcome["listed"], 1, "{outcome}");
    let token = link_token(smtp, email).await;
    assert_eq!(set_password(app, &token, GOOD_PASSWORD).await.status(), 204);
}

/// The link of the newest invitation to sign `workflow` sent to `email`.
async fn signer_link(smtp: &SmtpSink, email: &str, workflow: &str) -> String {
    let message = smtp.wait_for(email, &format!("Please sign: {workflow}")).await;
    let text = message["text"].as_str().expect("text part");
    text.split_whitespace().find(|w| w.contains("/sign/w/")).expect("a signer link").to_string()
}

async fn sign_typed(link: &str, name: &str) {
    let http = reqwest::Client::builder().redirect(Policy::none()).build().expect("client");
    assert_eq!(http.get(link).send().await.expect("page").status(), 200);
    let signed = http
        .post(format!("{link}/sign"))
        .form(&[("mode", "typed"), ("typedName", name), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    assert_eq!(signed.status(), 200, "{}", signed.text().await.unwrap_or_default());
}

async fn staff_invite_send_track_and_are_kept_out_of_what_their_role_does_not_allow(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = console_app(backend, &smtp).await;
    let tag = format!("{backend:?}").to_lowercase();
    let tenant = app.tenant("Bank of Examples").await;
    let admin = tenant.admin_email.clone();

    // The administrator invites a sender and a signer-only user in the console.
    let sender = ("Sara Sender", "sara@bank.example");
    invited(&app, &smtp, &admin, &tag, sender, "Sender").await;
    invited(&app, &smtp, &admin, &tag, ("Sid Signer", "sid@bank.example"), "Signer").await;

    // The sender sends a document made by another tool to three signers, placing each box.
    let dir = tempfile::tempdir().expect("tempdir");
    let pdf_path = dir.path().join("loan-agreement.pdf");
    let page = signet_testkit::pdf::Page::text("Loan agreement").line(700, "The borrower agrees to the terms below.");
    // Three pages: the palette must stay in view down to the last.
    let schedules = (1..=2).map(|n| signet_testkit::pdf::Page::text(&format!("Schedule {n}")));
    let pages: Vec<_> = std::iter::once(page).chain(schedules).collect();
    std::fs::write(&pdf_path, signet_testkit::pdf::reportlab_pdf(&pages)).expect("pdf");
    let signers = [
        ("Asha Rao", "asha@borrower.example"),
        ("Ravi Iyer", "ravi@guarantor.example"),
        ("Meera Das", "meera@bank.example"),
    ];
    let workflow = format!("Loan agreement {tag}");
    let args = json!({
        "email": sender.1, "password": GOOD_PASSWORD, "pdf": pdf_path, "workflow": workflow,
        "saveAs": "Loan agreement, three signers",
        "signers": signers.iter().map(|(name, email)| json!({"name": name, "email": email})).collect::<Vec<_>>(),
    });
    let sent = journey(&app, "send", &format!("{tag}-send"), args).await;
    assert_eq!(sent["placed"], 5, "three signatures and two fields: {sent}");
    assert_eq!(sent["reviewBoxes"], 5, "the review draws them: {sent}");
    assert_eq!(sent["placedAgain"], 5, "back to change keeps them: {sent}");
    assert_eq!(sent["state"], "In progress", "{sent}");
    // Placement that fits the hand: the pages' progress said; the palette in view at the last
    // page on a phone and at a desk, nothing wider than the phone; each box where the pointer
    // let go (within 2 % of the page); one resized by its handle and one moved by the pointer,
    // each keeping the point grabbed; one moved and resized from the keyboard; a chip pressed
    // twice puts two boxes in free spots (Delete removes them).
    assert_eq!(sent["progress"], "All 3 pages shown", "{sent}");
    assert_eq!(sent["paletteAtLastPage"], json!({"phone": true, "desk": true}), "{sent}");
    assert!(sent["phoneScroll"].as_f64().is_some_and(|s| s <= 1.0), "{sent}");
    assert!(sent["dropOffBy"].as_f64().is_some_and(|d| d <= 0.02), "{sent}");
    let near = |value: &Value, want: [f64; 2]| {
        value
            .as_array()
            .is_some_and(|v| v.iter().zip(want).all(|(v, w)| (v.as_f64().unwrap_or(f64::NAN) - w).abs() <= 2.0))
    };
    assert!(near(&sent["resizedBy"], [40.0, 20.0]) && sent["resizeKeptCorner"] == true, "{sent}");
    assert!(near(&sent["movedBy"], [30.0, 30.0]), "{sent}");
    assert_eq!(sent["keyboard"], json!({"dx": 1, "dy": 5, "dw": 4, "dh": 2}), "{sent}");
    // By a finger: touch moves the box (it does not scroll the page) and keeps the point
    // grabbed; pushed past the page's right edge, the box stops at the edge, whole on its page.
    assert_eq!(sent["touch"]["pointerType"], "touch", "{sent}");
    assert!(near(&sent["touch"]["movedBy"], [30.0, 20.0]), "{sent}");
    assert_eq!(
        (&sent["touch"]["atRightEdge"], &sent["touch"]["onItsPage"], &sent["touch"]["page"]),
        (&json!(true), &json!(true), &json!("1")),
        "{sent}"
    );
    assert_eq!((sent["pressedPlaced"].as_i64(), sent["pressedOverlaps"].as_i64()), (Some(2), Some(0)), "{sent}");
    assert_eq!(sent["afterDelete"], 0, "{sent}");
    let workflow_id: i64 = sent["workflowUrl"]
        .as_str()
        .and_then(|u| u.rsplit('/').next())
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("{sent}"));

    // The boxes went where they were dropped: each on the first page, the first signer's in
    // the page's left half below its middle (dropped 20 % across and 55 % down).
    let details =
        signet_services::workflows::queries::details(&app.state.services, &administrator(&tenant), workflow_id.into())
            .await
            .expect("workflow");
    let boxes: Vec<Value> = details
        .signatories
        .iter()
        .map(|s| serde_json::to_value(&s.placement).expect("placement")["boxes"][0].clone())
        .collect();
    // The first resized by its handle (40 px of 680 across: 36 points wider), the second from
    // the keyboard (4 points wider, 2 taller), the third as dropped.
    assert!(boxes.iter().all(|b| b["page"] == 1), "{boxes:?}");
    let size = |b: &Value| (b["width"].as_f64().unwrap_or(0.0), b["height"].as_f64().unwrap_or(0.0));
    assert!((190.0..=202.0).contains(&size(&boxes[0]).0), "{boxes:?}");
    assert_eq!((size(&boxes[1]), size(&boxes[2])), ((164.0, 57.0), (160.0, 55.0)), "{boxes:?}");
    let (left, top) = (boxes[0]["left"].as_f64().unwrap_or(-1.0), boxes[0]["top"].as_f64().unwrap_or(-1.0));
    assert!((0.0..306.0).contains(&left) && (396.0..792.0).contains(&top), "{boxes:?}");
    // The fields went with their signers: a date for the first, a labelled checkbox for the second.
    let fields: Vec<Value> = details
        .signatories
        .iter()
        .map(|s| serde_json::to_value(&s.placement).expect("placement")["fields"].clone())
        .collect();
    assert_eq!(fields[0][0]["kind"], "date", "{fields:?}");
    assert_eq!(fields[1][0]["kind"], "checkbox", "{fields:?}");
    assert_eq!(fields[1][0]["label"], "I have read the terms", "{fields:?}");
    assert_eq!((fields[1][0]["width"].as_f64(), fields[1][0]["page"].as_i64()), (Some(14.0), Some(1)), "{fields:?}");
    // The placement was saved as a template too: three signature boxes and two fields.
    let templates = app.store.templates(tenant.tenant_id).await.expect("templates");
    assert_eq!(templates.len(), 1);
    let definition: Value = serde_json::from_str(&templates[0].definition).expect("definition");
    assert_eq!(definition["fields"].as_array().map(Vec::len), Some(5), "{definition}");

    // The signers sign through their links, in order.
    for (name, email) in signers {
        sign_typed(&signer_link(&smtp, email, &workflow).await, name).await;
    }
    // Everyone gets their copy: the sender (a console user) and each signer are mailed the
    // signed document and the completion certificate.
    for (to, subject) in [(sender.1, "Completed: "), ("asha@borrower.example", "Signed by everyone: ")] {
        let mail = smtp.wait_for(to, &format!("{subject}{workflow}")).await;
        let files: Vec<&str> = mail["attachments"]
            .as_array()
            .expect("attachments")
            .iter()
            .filter_map(|a| a["filename"].as_str())
            .collect();
        assert_eq!(files.len(), 2, "{mail}");
        assert_eq!(files[1], "completion-certificate.pdf", "{mail}");
    }
    // The signer's copy page, as the link in her e-mail (and her finished signer link) opens
    // it, audited on a phone like every page.
    let mail = smtp.wait_for("asha@borrower.example", &format!("Signed by everyone: {workflow}")).await;
    let copy =
        mail["text"].as_str().and_then(|t| t.split_whitespace().find(|w| w.ends_with("/copy"))).expect("copy link");
    let copy_path = copy.split_once("/sign/").map(|(_, rest)| format!("/sign/{rest}")).expect("a signer path");
    let args = json!({"email": sender.1, "password": GOOD_PASSWORD, "pages": [copy_path]});
    let looked = journey(&app, "look", &format!("{tag}-copy"), args).await;
    assert_eq!(looked["statuses"], json!([200]), "{looked}");

    // The sender finds it completed and downloads it; pdfsig and pyHanko accept all three.
    let download = dir.path().join("signed.pdf");
    let args = json!({
        "email": sender.1, "password": GOOD_PASSWORD, "workflow": workflow,
        "document": "loan-agreement.pdf", "downloadTo": download,
    });
    let tracked = journey(&app, "track", &format!("{tag}-track"), args).await;
    assert_eq!(tracked["state"], "Completed", "{tracked}");
    assert_eq!(tracked["afterSignOut"], "/account/sign-in", "signed out: {tracked}");
    let signed = std::fs::read(&download).expect("the downloaded document");
    let report = pdfsig(&signed);
    // One signature a signer: the two fields placed are form fields of their own, not
    // widgets of a signature (which poppler would list as signatures of their own).
    assert_eq!(report.matches("Signature is Valid.").count(), 3, "{report}");
    pyhanko_validates(&signed, &[&cert_pem(&app.state.services.keys.ca.cert_der)]);

    // A bulk send from a spreadsheet with a bad row: the check names it, the job sends the
    // others and reports it.
    let sheet = dir.path().join("rows.csv");
    std::fs::write(
        &sheet,
        "workflowName,signer1.email,signer1.name\r\nBulk one,one@customer.example,One\r\n\
         Bulk two,not-an-address,Two\r\nBulk three,three@customer.example,Three\r\n",
    )
    .expect("csv");
    let report = dir.path().join("report.csv");
    let args =
        json!({"email": sender.1, "password": GOOD_PASSWORD, "pdf": pdf_path, "sheet": sheet, "reportTo": report});
    let bulk = journey(&app, "bulk", &format!("{tag}-bulk"), args).await;
    assert_eq!(bulk["checked"], "Checked: 2 of 3 rows would be sent", "{bulk}");
    let problems = bulk["problemRows"].as_array().cloned().unwrap_or_default();
    assert!(problems.len() == 1 && problems[0].as_str().is_some_and(|p| p.starts_with("2\t3\t")), "{bulk}");
    assert_eq!(
        (bulk["jobStatus"].as_str(), bulk["succeeded"].as_i64(), bulk["failed"].as_i64()),
        (Some("Completed with errors"), Some(2), Some(1)),
        "{bulk}"
    );
    let report = std::fs::read_to_string(&report).expect("report");
    assert!(report.starts_with("item,input,state,result,detail"), "{report}");
    assert_eq!(report.lines().filter(|l| l.contains(",failed,")).count(), 1, "{report}");

    // A user whose role has no access to people neither sees nor reaches that section.
    let args = json!({"email": "sid@bank.example", "password": GOOD_PASSWORD, "expectedErrors": [403]});
    let denied = journey(&app, "denied", &format!("{tag}-denied"), args).await;
    assert_eq!(denied["peopleStatus"], 403, "{denied}");
    let sections = denied["sections"].as_array().cloned().unwrap_or_default();
    assert!(!sections.contains(&json!("People")) && !sections.contains(&json!("Send")), "{denied}");
}

async fn a_console_session_refuses_foreign_forms_and_ends_with_sign_out_and_revocation(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = console_app(backend, &smtp).await;
    let tenant = app.tenant("Bank of Examples").await;
    let browser = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let people = browser.get(app.url("/app/people")).await;
    assert_eq!(people.status(), 200);
    let csrf = csrf_of(&people.text().await.expect("html"));
    let invite = |token: String, origin: String| {
        let form = [("csrf", token), ("name", "Om".into()), ("email", "om@bank.example".into()), ("role", "2".into())];
        browser.send(browser.http.post(app.url("/app/people")).header("origin", origin).form(&form))
    };
    // Without the form's token, with a made-up one, or from another site: refused, and nobody
    // is invited.
    assert_eq!(invite(String::new(), app.base()).await.status(), 403);
    assert_eq!(invite("0".repeat(64), app.base()).await.status(), 403);
    assert_eq!(invite(csrf.clone(), "https://evil.example".into()).await.status(), 403);
    assert!(smtp.messages().iter().all(|m| m["to"][0] != "om@bank.example"), "nobody was invited");
    // A refusal the person can correct is shown on the form: a bad address.
    let form = [("csrf", csrf.as_str()), ("name", "Om"), ("email", "not an address"), ("role", "2")];
    let bad = browser.post(app.url("/app/people"), &form).await;
    assert_eq!(bad.status(), 400);
    assert!(bad.text().await.expect("html").contains("role=\"alert\""));
    // The right form works.
    assert_eq!(invite(csrf.clone(), app.base()).await.status(), 303);

    // The console speaks the language the browser ranks first of English and Hindi (the text
    // of crates/web/text/), English by default.
    let in_language = async |accept: Option<&str>| {
        let request = browser.http.get(app.url("/app/people"));
        let request = match accept {
            Some(accept) => request.header("accept-language", accept),
            None => request,
        };
        browser.send(request).await.text().await.expect("html")
    };
    for accept in [None, Some("en-GB,hi;q=0.5"), Some("fr")] {
        let english = in_language(accept).await;
        assert!(english.contains("<html lang=\"en\">"), "{accept:?}");
        assert!(english.contains(">Sign out</button>") && english.contains("aria-current=\"page\">People</a>"));
    }
    for accept in ["hi", "hi-IN,en;q=0.8", "en;q=0.3,hi;q=0.9"] {
        let hindi = in_language(Some(accept)).await;
        assert!(hindi.contains("<html lang=\"hi\">"), "{accept}");
        assert!(hindi.contains(">साइन आउट</button>") && hindi.contains("aria-current=\"page\">लोग</a>"), "{hindi}");
        assert!(hindi.contains(">सामग्री पर जाएँ</a>") && hindi.contains("<title>लोग · Signet</title>"));
        // The screens' own text too (the catalogue is whole in Hindi).
        assert!(hindi.contains(">उपयोगकर्ता को आमंत्रित करें</summary>"), "{hindi}");
    }

    // Signing out revokes the session, so a copy of its cookie is worthless too.
    let other = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let copy = Browser::new();
    *copy.cookies.lock().expect("jar") = other.cookies.lock().expect("jar").clone();
    assert_eq!(
        other.post(app.url("/app/sign-out"), &[("csrf", "wrong")]).await.status(),
        403,
        "sign-out needs the token"
    );
    let page = other.get(app.url("/app")).await.text().await.expect("html");
    assert_eq!(other.post(app.url("/app/sign-out"), &[("csrf", &csrf_of(&page))]).await.status(), 200);
    assert_eq!(other.get(app.url("/app")).await.status(), 303);
    assert_eq!(copy.get(app.url("/app")).await.status(), 303);

    // Ending all of the administrator's sessions through the API ends console sessions too.
    assert_eq!(browser.get(app.url("/app")).await.status(), 200);
    let tokens: Value =
        signet_testkit::people::login(&app, &tenant.admin_email, ADMIN_PASSWORD).await.json().await.expect("json");
    let access = tokens["access_token"].as_str().expect("access");
    assert_eq!(app.post("/api/v1/auth/sessions/revoke", access, json!({})).await.status(), 204);
    assert_eq!(browser.get(app.url("/app")).await.status(), 303);

    // A hand-over without this browser's state cookie is refused (login CSRF).
    let forged = Browser::new().get(app.url("/app/session?code=abc&state=nonce~/app")).await;
    assert_eq!(forged.status(), 403);
}

/// Issue 30, item 8: "Mark inactive" with the API's default (`invalidateTokens: false`) used to
/// leave the console session (and the API tokens) working until the refresh token ran out.
async fn marking_a_user_inactive_ends_their_console_and_api_sessions_at_once(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = console_app(backend, &smtp).await;
    let tenant = app.tenant("Bank of Examples").await;
    let api = app.token(&tenant).await;
    let email = "meera@bank.example";
    let (meera, meera_api) = signet_testkit::people::signed_in_user(&app, &smtp, &api, email, 2).await;
    let tokens: Value = signet_testkit::people::login(&app, email, GOOD_PASSWORD).await.json().await.expect("json");
    let refresh = tokens["refresh_token"].as_str().expect("refresh").to_string();
    let console = console_session(&app, email, GOOD_PASSWORD).await;
    // Working as usual (which also leaves her state in the instance's cache).
    assert_eq!(console.get(app.url("/app")).await.status(), 200);
    assert_eq!(app.get("/api/v1/users/me", &meera_api).await.status(), 200);

    let leave = json!({"userId": meera, "reason": "left the bank", "invalidateTokens": false});
    assert_eq!(app.post("/api/v1/users/inactive", &api, leave).await.status(), 204);
    let page = console.get(app.url("/app")).await;
    assert_eq!(page.status(), 303, "the console session ended: {}", page.text().await.unwrap_or_default());
    let form = console.post(app.url("/app/sign-out"), &[("csrf", "any")]).await;
    assert_eq!(form.status(), 303, "a form goes to sign in too");
    let me = app.get("/api/v1/users/me", &meera_api).await;
    signet_testkit::problem::expect_problem(me, 401, "invalid_token").await;
    let renewed =
        app.client.post(app.url("/api/v1/auth/refresh")).json(&json!({"refresh_token": refresh})).send().await;
    signet_testkit::problem::expect_problem(renewed.expect("refresh"), 400, "invalid_grant").await;

    // Back from leave: what ended stays ended; she signs in afresh.
    assert_eq!(app.post(&format!("/api/v1/users/{meera}/reactivate"), &api, json!(null)).await.status(), 204);
    assert_eq!(console.get(app.url("/app")).await.status(), 303);
    signet_testkit::problem::expect_problem(app.get("/api/v1/users/me", &meera_api).await, 401, "invalid_token").await;
    let again = console_session(&app, email, GOOD_PASSWORD).await;
    assert_eq!(again.get(app.url("/app")).await.status(), 200);
}

/// A workflow started through the API for `signers` (e-mailed), with a ReportLab document.
async fn workflow_for(app: &TestApp, token: &str, name: &str, signers: &[&str]) -> (i64, i64) {
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Offer letter")]);
    let body = json!({"documentName": "offer.pdf", "fileData": base64::engine::general_purpose::STANDARD.encode(pdf)});
    let uploaded: Value = app.post("/api/v1/documents", token, body).await.json().await.expect("json");
    let document = uploaded["documentId"].as_i64().expect("documentId");
    let signatories: Vec<Value> = signers
        .iter()
        .enumerate()
        .map(|(i, email)| json!({"subscriberId": 0, "emailId": email, "name": email, "signingOrder": i + 1}))
        .collect();
    let terms = base64::engine::general_purpose::STANDARD.encode("Terms and conditions, version 7");
    let attachment = json!({"documentName": "terms.txt", "description": "General terms", "base64fileData": terms});
    let body = json!({"templateId": 0, "workflowName": name, "documentIds": [document], "sendMail": true,
                      "signatories": signatories, "listAttachmentDetails": [attachment]});
    let created = app.post("/api/v1/workflows", token, body).await;
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.expect("json");
    (created["workflowId"].as_i64().expect("workflowId"), document)
}

async fn the_sender_acts_on_a_workflow_signs_from_the_inbox_and_checks_the_audit_trail(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = console_app(backend, &smtp).await;
    let tenant = app.tenant("Bank of Examples").await;
    let admin = tenant.admin_email.clone();
    let api = app.token(&tenant).await;
    let browser = console_session(&app, &admin, ADMIN_PASSWORD).await;

    // The administrator's own signature is in their inbox and opens their signer page; the
    // next signer's is not theirs to open.
    let (own, _) = workflow_for(&app, &api, "Board resolution", &[&admin, "director@board.example"]).await;
    let inbox = browser.get(app.url("/app/inbox")).await.text().await.expect("html");
    assert!(inbox.contains("Sign Board resolution"), "{inbox}");
    let open = inbox.split("href=\"/app/inbox/").nth(1).and_then(|r| r.split('"').next()).expect("an inbox entry");
    let to_page = browser.get(app.url(&format!("/app/inbox/{open}"))).await;
    assert_eq!(to_page.status(), 303);
    let signer_page = to_page.headers()["location"].to_str().expect("location").to_string();
    assert!(signer_page.starts_with("/sign/w/"), "{signer_page}");
    assert_eq!(browser.get(app.url(&signer_page)).await.status(), 200);
    let details =
        signet_services::workflows::queries::details(&app.state.services, &administrator(&tenant), own.into())
            .await
            .expect("workflow");
    let director = details.signatories[1].id.get();
    assert_eq!(browser.get(app.url(&format!("/app/inbox/{director}"))).await.status(), 404);

    // A lot of two workflows waits for the administrator in the inbox; one consent and one
    // signature image sign both, and the job's page follows it.
    let (first, _) = workflow_for(&app, &api, "Lease A", &[&admin]).await;
    let (second, _) = workflow_for(&app, &api, "Lease B", &[&admin]).await;
    let lot =
        json!({"name": "Leases of November", "signerUserId": tenant.admin_user_id, "workflowIds": [first, second]});
    let lot: Value = app.post("/api/v1/lots", &api, lot).await.json().await.expect("json");
    let lot_id = lot["lotId"].as_i64().unwrap_or_else(|| panic!("{lot}"));
    let inbox = browser.get(app.url("/app/inbox")).await.text().await.expect("html");
    assert!(inbox.contains(&format!("href=\"/app/lots/{lot_id}\">Leases of November</a>")), "{inbox}");
    let page = browser.get(app.url(&format!("/app/lots/{lot_id}"))).await.text().await.expect("html");
    assert!(page.contains("Lease A") && page.contains("Lease B") && page.contains("Sign all 2"), "{page}");
    let sign = |consent: bool| {
        let mut form = reqwest::multipart::Form::new().text("csrf", csrf_of(&page)).part(
            "signature",
            reqwest::multipart::Part::bytes(signet_testkit::pdf::signature_png())
                .file_name("me.png")
                .mime_str("image/png")
                .expect("mime"),
        );
        if consent {
            form = form.text("consent", "on");
        }
        browser.send(browser.http.post(app.url(&format!("/app/lots/{lot_id}/sign"))).multipart(form))
    };
    let without = sign(false).await;
    assert_eq!(without.status(), 400);
    assert!(without.text().await.expect("html").contains("tick the box"));
    let signed = sign(true).await;
    assert_eq!(signed.status(), 303);
    let job = signed.headers()["location"].to_str().expect("location").to_string();
    assert!(job.starts_with("/app/bulk/jobs/job_"), "{job}");
    let mut page = String::new();
    for _ in 0..300 {
        page = browser.get(app.url(&job)).await.text().await.expect("html");
        if page.contains(">Completed<") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(page.contains("data-field=\"succeeded\">2<"), "{page}");
    let signed_pdf =
        app.post("/api/v1/documents/download", &api, json!({"workflowid": first})).await.bytes().await.expect("pdf");
    assert!(pdfsig(&signed_pdf).contains("Signature is Valid."), "the lot's signature validates");
    assert!(!browser.get(app.url("/app/inbox")).await.text().await.expect("html").contains("Leases of November"));

    // On another workflow's page the sender comments, e-mails the due signer a new link (the
    // old one stops working), is told what to correct, and declines on the signer's behalf.
    let (id, document) = workflow_for(&app, &api, "Loan offer", &["asha@borrower.example"]).await;
    let first = smtp.wait_for("asha@borrower.example", "Please sign: Loan offer").await;
    let old_link = first["text"]
        .as_str()
        .and_then(|t| t.split_whitespace().find(|w| w.contains("/sign/w/")))
        .expect("link")
        .to_string();
    let page = browser.get(app.url(&format!("/app/workflows/{id}"))).await.text().await.expect("html");
    let csrf = csrf_of(&page);
    let act = |action: &str, form: Vec<(&'static str, String)>| {
        let mut form = form;
        form.push(("csrf", csrf.clone()));
        browser.send(browser.http.post(app.url(&format!("/app/workflows/{id}/{action}"))).form(&form))
    };
    let commented =
        act("comment", vec![("document", document.to_string()), ("comment", "Rate fixed for 5 years".into())]).await;
    assert_eq!(commented.headers()["location"], format!("/app/workflows/{id}?done=comment"));
    let page = browser.get(app.url(&format!("/app/workflows/{id}?done=comment"))).await.text().await.expect("html");
    assert!(page.contains("Rate fixed for 5 years") && page.contains("Your comment was added."), "{page}");
    let signatory = page.split("/link-").nth(1).and_then(|r| r.split('"').next()).expect("a due signatory").to_string();
    // The schedule is shown; a reminder by hand is offered once the last e-mail is an hour old,
    // and goes with the same link.
    assert!(page.contains("Reminders: none. Expires: never.") && !page.contains("/remind-"), "{page}");
    assert!(page.contains(&format!("id=\"remind-from-{signatory}\">A reminder can be e-mailed from ")), "{page}");
    // Within that hour the sender can take the link to hand over themselves: the same link,
    // still working, and the trail says they took it.
    let copied = act(&format!("copy-{signatory}"), Vec::new()).await;
    assert_eq!(copied.status(), 200);
    let copied = unescape(&copied.text().await.expect("html"));
    let shown = copied.split("id=\"handed-url\" readonly value=\"").nth(1).and_then(|r| r.split('"').next());
    assert_eq!(shown, Some(old_link.as_str()), "{copied}");
    assert_eq!(reqwest::Client::new().get(&old_link).send().await.expect("link").status(), 200, "still works");
    let audit: Value = app.get(&format!("/api/v1/workflows/{id}/audit"), &api).await.json().await.expect("audit");
    assert!(audit.to_string().contains("signatory.link_handed_out"), "{audit}");
    app.store
        .execute_for_tests("UPDATE signatories SET notified_at = notified_at - 7200000")
        .await
        .expect("an hour ago");
    let page = browser.get(app.url(&format!("/app/workflows/{id}"))).await.text().await.expect("html");
    assert!(page.contains(&format!("/app/workflows/{id}/remind-{signatory}")), "{page}");
    let reminded = act(&format!("remind-{signatory}"), Vec::new()).await;
    assert_eq!(reminded.headers()["location"], format!("/app/workflows/{id}?done=reminded"));
    let reminder = smtp.wait_for("asha@borrower.example", "Reminder: Please sign: Loan offer").await;
    assert!(reminder["text"].as_str().is_some_and(|t| t.contains(&old_link)), "the same link: {reminder}");
    let page = browser.get(app.url(&format!("/app/workflows/{id}?done=reminded"))).await.text().await.expect("html");
    assert!(page.contains("A reminder was e-mailed with the same link") && !page.contains("/remind-"), "{page}");
    let again = act(&format!("remind-{signatory}"), Vec::new()).await;
    assert_eq!(again.status(), 409, "an hour between reminders");
    assert!(again.text().await.expect("html").contains("less than 60 minutes ago"));
    let reminders = || smtp.messages().iter().filter(|m| m["subject"] == "Reminder: Please sign: Loan offer").count();
    let relinked = act(&format!("link-{signatory}"), Vec::new()).await;
    assert_eq!(relinked.status(), 303);
    for _ in 0..100 {
        if reminders() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(reminders(), 2, "the new link e-mailed");
    let old = reqwest::Client::new().get(&old_link).send().await.expect("old link");
    assert_ne!(old.status(), 200, "the old link no longer opens the page");
    let bad = act("delegate", vec![("email", "not an address".into()), ("reason", "on leave".into())]).await;
    assert_eq!(bad.status(), 400);
    assert!(bad.text().await.expect("html").contains("must be a valid e-mail address"));
    assert_eq!(act("launch", Vec::new()).await.status(), 404);
    let declined = act("decline", vec![("reason", "The customer withdrew".into())]).await;
    assert_eq!(declined.status(), 303);
    let page = browser.get(app.url(&format!("/app/workflows/{id}?done=declined"))).await.text().await.expect("html");
    assert!(page.contains(">Declined<") && page.contains("declined to sign</strong>"), "{page}");
    // Forms of another session are refused and change nothing.
    let forged = browser
        .send(
            browser
                .http
                .post(app.url(&format!("/app/workflows/{own}/decline")))
                .form(&[("csrf", "forged"), ("reason", "x")]),
        )
        .await;
    assert_eq!(forged.status(), 403);

    // The audit trail, a page at a time, and the check of the whole chain.
    let audit = browser.get(app.url("/app/audit?verify=1")).await.text().await.expect("html");
    assert!(audit.contains("The chain is intact") && audit.contains("tenant.created"), "{audit}");
    assert!(audit.contains("<span class=\"meta\">(user:"), "people are named, with their reference: {audit}");
    app.store.execute_for_tests("UPDATE audit_log SET detail = '{}' WHERE seq = 2").await.expect("tamper");
    let audit = browser.get(app.url("/app/audit?verify=1")).await.text().await.expect("html");
    assert!(audit.contains("The chain is broken at entry 2"), "{audit}");
}

async fn administrators_keep_departments_and_webhooks_and_others_are_kept_out(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
        config.outbound_allow_private = true;
    })
    .await;
    let tenant = app.tenant("Bank of Examples").await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = admin.get(app.url("/app/departments")).await.text().await.expect("html");
    let csrf = csrf_of(&page);

    // Departments: added, a taken name refused on the page, removed.
    let add = |name: &str| admin.post(app.url("/app/departments"), &[("csrf", csrf.as_str()), ("name", name)]);
    assert_eq!(add("Legal").await.status(), 303);
    let taken = add("legal").await;
    assert_eq!(taken.status(), 409);
    assert!(taken.text().await.expect("html").contains("role=\"alert\""));
    let page = admin.get(app.url("/app/departments")).await.text().await.expect("html");
    assert!(page.contains("<td>Legal</td>"), "{page}");
    let id =
        page.split("/app/departments/").nth(1).and_then(|r| r.split('/').next()).expect("a department").to_string();
    let removed = admin.post(app.url(&format!("/app/departments/{id}/delete")), &[("csrf", csrf.as_str())]).await;
    assert_eq!(removed.status(), 303);
    assert!(!admin.get(app.url("/app/departments")).await.text().await.expect("html").contains("<td>Legal</td>"));

    // Webhooks: a bad address refused; an endpoint registered with its secret shown once; its
    // failing deliveries listed with their answer, and delivered again on request.
    let register = |url: &str| {
        let form = [("csrf", csrf.as_str()), ("url", url), ("description", "ERP"), ("event", "workflow.created")];
        admin.post(app.url("/app/webhooks"), &form)
    };
    let refused = register("ftp://erp.example/hook").await;
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("html").contains("role=\"alert\""));
    let registered = register("http://127.0.0.1:9/hook").await;
    assert_eq!(registered.status(), 201);
    let page = registered.text().await.expect("html");
    assert!(page.contains("shown this once: <code>whsec_"), "{page}");
    let api = app.token(&tenant).await;
    workflow_for(&app, &api, "Hooked", &["asha@borrower.example"]).await;
    let webhook =
        page.split("/app/webhooks?deliveries=").nth(1).and_then(|r| r.split('"').next()).expect("webhook").to_string();
    let attempted = async || {
        for _ in 0..200 {
            let page =
                admin.get(app.url(&format!("/app/webhooks?deliveries={webhook}"))).await.text().await.expect("html");
            // The count opens the attempt's line: when, the answer (none: refused), how long.
            if page.contains(
                "<td>workflow.created</td><td>pending</td><td><details><summary>1</summary><ol class=\"attempts\"><li>",
            ) && page.contains(" ms</li></ol></details>")
            {
                return page;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("no attempted delivery listed");
    };
    let listed = attempted().await;
    assert!(!listed.contains("Deliver again"), "a delivery still being attempted is not offered again");
    let webhook_id = signet_domain::WebhookId::from(webhook.parse::<i64>().expect("webhook id"));
    let delivery = app.store.deliveries(tenant.tenant_id, webhook_id, 10).await.expect("deliveries")[0].id;
    let again = format!("/app/webhooks/{webhook}/deliveries/{delivery}/again");
    let early = admin.post(app.url(&again), &[("csrf", csrf.as_str())]).await;
    assert_eq!(early.status(), 409);
    assert!(early.text().await.expect("html").contains("still being attempted"));
    app.store.execute_for_tests("UPDATE webhook_deliveries SET state = 'failed'").await.expect("given up");
    assert!(
        admin
            .get(app.url(&format!("/app/webhooks?deliveries={webhook}")))
            .await
            .text()
            .await
            .expect("html")
            .contains("Deliver again")
    );
    assert_eq!(admin.post(app.url(&again), &[("csrf", csrf.as_str())]).await.status(), 303);

    // Registrations of outside people wait for approval on the People page; an approved one gets
    // the set-password e-mail, a rejected one is gone from the list, and a second decision on
    // either is refused on the page.
    let tenant_path = format!("/api/v1/tenants/{}/register", tenant.tenant_id);
    for (name, email) in [("Kiran Client", "kiran@client.example"), ("Spam Bot", "bot@spam.example")] {
        let registered = app
            .client
            .post(app.url(&tenant_path))
            .json(&json!({"name": name, "emailID": email, "organization": "Client Co"}))
            .send()
            .await
            .expect("register");
        assert!(registered.status().is_success(), "{}", registered.status());
    }
    let people = admin.get(app.url("/app/people")).await.text().await.expect("html");
    assert!(
        people.contains("Waiting for approval")
            && people.contains("kiran@client.example")
            && people.contains("bot@spam.example")
    );
    let decide = |page: &str, email: &str| {
        let row = page.split("<tr>").find(|r| r.contains(email)).expect("a pending row").to_string();
        row.split("action=\"").nth(1).and_then(|r| r.split('"').next()).expect("decision form").to_string()
    };
    let (approve, reject) = (decide(&people, "kiran@client.example"), decide(&people, "bot@spam.example"));
    let approved =
        admin.post(app.url(&approve), &[("csrf", csrf.as_str()), ("decision", "approve"), ("reason", "")]).await;
    assert_eq!(approved.status(), 303);
    smtp.wait_for("kiran@client.example", "Your Signet registration is approved").await;
    let rejected = admin
        .post(app.url(&reject), &[("csrf", csrf.as_str()), ("decision", "reject"), ("reason", "Not a customer")])
        .await;
    assert_eq!(rejected.status(), 303);
    assert!(!admin.get(app.url("/app/people")).await.text().await.expect("html").contains("Waiting for approval"));
    let again = admin.post(app.url(&approve), &[("csrf", csrf.as_str()), ("decision", "reject")]).await;
    assert_eq!(again.status(), 409);
    assert!(again.text().await.expect("html").contains("role=\"alert\""), "the refusal is shown on the page");

    // Roles: one of the organisation's own, offered when inviting, removed while nobody has it.
    let form = [
        ("csrf", csrf.as_str()),
        ("name", "Branch reviewer"),
        ("permission", "read_workflows"),
        ("permission", "read_audit"),
    ];
    assert_eq!(admin.post(app.url("/app/roles"), &form).await.status(), 303);
    let roles = admin.get(app.url("/app/roles")).await.text().await.expect("html");
    assert!(
        roles.contains(
            "<td>Branch reviewer</td><td>Read the organisation&#39;s workflows; Read and check the audit trail</td>"
        ) || roles.contains(
            "<td>Branch reviewer</td><td>Read the organisation's workflows; Read and check the audit trail</td>"
        ),
        "{roles}"
    );
    let bad = admin
        .post(app.url("/app/roles"), &[("csrf", csrf.as_str()), ("name", "Root"), ("permission", "everything")])
        .await;
    assert_eq!(bad.status(), 400);
    let people = admin.get(app.url("/app/people")).await.text().await.expect("html");
    assert!(people.contains(">Branch reviewer</option>"), "the invitation offers the role");
    let role =
        roles.split("/app/roles/").nth(1).and_then(|r| r.split('/').next()).expect("a role of our own").to_string();
    assert_eq!(
        admin.post(app.url(&format!("/app/roles/{role}/delete")), &[("csrf", csrf.as_str())]).await.status(),
        303
    );
    assert!(!admin.get(app.url("/app/roles")).await.text().await.expect("html").contains("Branch reviewer"));

    // Sending with a template: its fields place the signature, shown on the review before the
    // workflow starts.
    let template = template_of_one_box(&app, &tenant, "One signer at the foot", json!(1)).await;
    let guarantee = |template: &str| {
        let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Guarantee")]);
        let form = reqwest::multipart::Form::new()
            .text("csrf", csrf.clone())
            .text("template", template.to_string())
            .text("name", "Guarantee")
            .text("s1_name", "Ravi")
            .text("s1_email", "ravi@guarantor.example")
            .text("s1_order", "1")
            .text("s1_method", "electronic")
            .part(
                "documents",
                reqwest::multipart::Part::bytes(pdf)
                    .file_name("guarantee.pdf")
                    .mime_str("application/pdf")
                    .expect("mime"),
            );
        admin.send(admin.http.post(app.url("/app/send")).multipart(form))
    };
    // A template that signs below a text and dates the signature: on the review in words and
    // drawn, and on the placement screen (Back to change) as the signatory's anchor and a box.
    let definition = json!({"fields": [{"signatory": 1, "anchor": "Guarantor:"},
        {"signatory": 1, "kind": "date", "page": 1, "left": 100.0, "top": 600.0, "width": 100.0, "height": 20.0}]});
    let below = signet_services::workflows::templates::create(
        &app.state.services,
        &administrator(&tenant),
        Some("Below the guarantor"),
        None,
        serde_json::from_value(definition).expect("definition"),
    )
    .await
    .expect("template");
    let reviewed = guarantee(&below.id.get().to_string()).await;
    assert_eq!(reviewed.status(), 200);
    let reviewed = unescape(&reviewed.text().await.expect("html"));
    assert!(reviewed.contains("Signature of Ravi: below the text “Guarantor:”"), "{reviewed}");
    assert!(reviewed.contains("Date signed of Ravi: guarantee.pdf, page 1"), "{reviewed}");
    let mut carried = hidden_fields(&reviewed, "id=\"review-form\"");
    carried.push(("csrf".into(), csrf.clone()));
    let back = admin.send(admin.http.post(app.url("/app/send/place")).form(&carried)).await;
    assert_eq!(back.status(), 200);
    let back = unescape(&back.text().await.expect("html"));
    assert!(back.contains("name=\"s1_anchor\" value=\"Guarantor:\""), "{back}");
    assert!(back.contains("name=\"field\" value=\"1:0:1:100:600:100:20:date:0:\""), "{back}");
    let review = guarantee(&template).await;
    let (review, id) = sent_as_reviewed(&app, &admin, &csrf, review).await;
    assert!(review.contains("The template One signer at the foot places these boxes"), "{review}");
    assert!(review.contains("Signature of Ravi: guarantee.pdf, page 1"), "{review}");
    assert!(review.contains("x=\"100\" y=\"500\" width=\"150\" height=\"50\""), "{review}");
    let details = signet_services::workflows::queries::details(&app.state.services, &administrator(&tenant), id.into())
        .await
        .expect("workflow");
    let placement: Value = serde_json::to_value(&details.signatories[0].placement).expect("placement");
    assert_eq!(placement["boxes"][0]["top"], 500.0, "{placement}");

    // The gateway: an Authtoken made (its value shown once) and revoked; what it accepts saved,
    // as the API then reads it, and a file type it does not know refused.
    let made =
        admin.post(app.url("/app/gateway/authtokens"), &[("csrf", csrf.as_str()), ("label", "Loan system")]).await;
    assert_eq!(made.status(), 201);
    let page = made.text().await.expect("html");
    assert!(page.contains("shown this once: <code>sga_") && page.contains("<td>Loan system</td>"), "{page}");
    let token =
        page.split("/app/gateway/authtokens/").nth(1).and_then(|r| r.split('/').next()).expect("token id").to_string();
    let revoked =
        admin.post(app.url(&format!("/app/gateway/authtokens/{token}/revoke")), &[("csrf", csrf.as_str())]).await;
    assert_eq!(revoked.status(), 303);
    assert!(admin.get(app.url("/app/gateway")).await.text().await.expect("html").contains("revoked "));
    let form = [("csrf", csrf.as_str()), ("file_type", "PDF"), ("file_type", "XML"), ("signature_type", "4")];
    let saved = admin.post(app.url("/app/gateway/settings"), &form).await;
    assert_eq!(saved.status(), 200);
    assert!(saved.text().await.expect("html").contains("The settings are saved."));
    let settings: Value = app.get("/api/v1/gateway/settings", &api).await.json().await.expect("json");
    assert_eq!(
        (&settings["fileTypes"], &settings["signatureTypes"]),
        (&json!(["PDF", "XML"]), &json!([4])),
        "{settings}"
    );
    let bad = admin.post(app.url("/app/gateway/settings"), &[("csrf", csrf.as_str()), ("file_type", "EXE")]).await;
    assert_eq!(bad.status(), 400);

    // Exports: a small one downloads at once; one asked for in the background is followed on its
    // page until its file can be fetched; a bad date is refused on the form.
    let form =
        [("csrf", csrf.as_str()), ("dataset", "audit-events"), ("format", "csv"), ("from", "2020-01-01"), ("to", "")];
    let now = admin.post(app.url("/app/exports"), &form).await;
    assert_eq!(now.status(), 200);
    assert_eq!(now.headers()["content-type"], "text/csv; charset=utf-8");
    let csv = now.text().await.expect("csv");
    assert!(csv.contains("department.created") || csv.contains("tenant.created"), "{csv}");
    let form = [
        ("csrf", csrf.as_str()),
        ("dataset", "users"),
        ("format", "csv"),
        ("from", ""),
        ("to", ""),
        ("background", "on"),
    ];
    let queued = admin.post(app.url("/app/exports"), &form).await;
    assert_eq!(queued.status(), 303);
    let job = queued.headers()["location"].to_str().expect("location").to_string();
    let mut page = String::new();
    for _ in 0..200 {
        page = admin.get(app.url(&job)).await.text().await.expect("html");
        if page.contains("Download the file") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(page.contains("<strong id=\"state\">completed</strong>"), "{page}");
    let file = admin.get(app.url(&format!("{job}/file"))).await;
    assert_eq!(file.status(), 200);
    assert!(file.text().await.expect("csv").contains(&tenant.admin_email));
    let bad = admin
        .post(
            app.url("/app/exports"),
            &[("csrf", csrf.as_str()), ("dataset", "users"), ("format", "csv"), ("from", "yesterday")],
        )
        .await;
    assert_eq!(bad.status(), 400);
    assert_eq!(admin.get(app.url("/app/exports/exp_unknown")).await.status(), 404);

    // A sender sees neither section and is refused at both addresses.
    let admin_token = app.token(&tenant).await;
    signet_testkit::people::signed_in_user(&app, &smtp, &admin_token, "sara@bank.example", 2).await;
    let sender = console_session(&app, "sara@bank.example", GOOD_PASSWORD).await;
    let home = sender.get(app.url("/app")).await.text().await.expect("html");
    assert!(home.contains(">Departments<") && !home.contains(">Webhooks<"), "a sender reads departments only");
    assert_eq!(sender.get(app.url("/app/webhooks")).await.status(), 403);
    assert_eq!(sender.get(app.url("/app/gateway")).await.status(), 403);
    let sender_csrf = csrf_of(&home);
    let add = sender.post(app.url("/app/departments"), &[("csrf", sender_csrf.as_str()), ("name", "Sales")]).await;
    assert_eq!(add.status(), 403);
    assert_eq!(sender.get(app.url("/app/audit")).await.status(), 403);
    let audit_export = [("csrf", sender_csrf.as_str()), ("dataset", "audit-events"), ("format", "csv")];
    assert_eq!(
        sender.post(app.url("/app/exports"), &audit_export).await.status(),
        403,
        "a sender may not export the audit trail"
    );
}

/// A stamp form of the Karnataka page: its token and state, then `pairs`.
fn in_karnataka<'a>(csrf: &'a str, pairs: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut all = vec![("csrf", csrf), ("state", "KA")];
    all.extend_from_slice(pairs);
    all
}

async fn administrators_keep_the_stamp_inventory_and_its_article_codes(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let tenant = app.tenant("Stamped Finance").await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = admin.get(app.url("/app/stamps?state=KA")).await.text().await.expect("html");
    assert!(page.contains("Certificates of Karnataka"), "{page}");
    let csrf = csrf_of(&page);
    let api = app.token(&tenant).await;
    let load = |token: &str, lines: &str, files: &[(&str, &[u8])]| {
        let mut form = reqwest::multipart::Form::new()
            .text("csrf", token.to_string())
            .text("state", "KA")
            .text("certificates", lines.to_string());
        for (name, bytes) in files {
            let part = reqwest::multipart::Part::bytes(bytes.to_vec()).file_name(name.to_string());
            form = form.part("certificate_files", part.mime_str("application/pdf").expect("mime"));
        }
        admin.send(admin.http.post(app.url("/app/stamps/load")).multipart(form))
    };
    let stored = async |search: &str| -> Value {
        let path = format!("/api/v1/stamps?state=KA&searchText={search}");
        app.get(&path, &api).await.json().await.expect("json")
    };
    // Loading: a bad line and a repeated reference are refused on the page, nothing stored.
    for bad in ["500, KA-0001\nfive hundred", "500, KA-0001\n100, KA-0001"] {
        let refused = load(&csrf, bad, &[]).await;
        assert_eq!(refused.status(), 400);
        assert!(refused.text().await.expect("html").contains("role=\"alert\""));
    }
    let loaded = load(&csrf, "500, KA-0001\n500, KA-0002\n100, KA-0003", &[]).await;
    assert_eq!(loaded.status(), 303);
    assert_eq!(loaded.headers()["location"], "/app/stamps?state=KA");
    assert!(stored("KA-000").await["items"].as_array().expect("items").iter().all(|s| s["hasCertificate"] == false));

    // With the certificates' PDFs (ReportLab's): a file that is not a PDF, one over 2 MiB, one
    // of five pages, a token of another form and a count that is not the lines' are refused
    // on the page with the lines as typed, and nothing is stored.
    let first = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("e-Stamp IN-KA-0010")]);
    let second = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("e-Stamp IN-KA-0011")]);
    let long = signet_testkit::pdf::numbered_pages("e-Stamp of five pages", 5);
    let mut big = first.clone();
    big.extend(std::iter::repeat_n(b' ', 2 * 1024 * 1024));
    let lines = "1000, KA-0010\n200, KA-0011";
    for (files, says) in [
        (vec![("a.pdf", first.as_slice()), ("b.pdf", b"GIF89a not a certificate".as_slice())], "line 2, PDF b.pdf"),
        (vec![("a.pdf", big.as_slice()), ("b.pdf", second.as_slice())], "larger than"),
        (vec![("a.pdf", first.as_slice()), ("b.pdf", long.as_slice())], "at most 4 pages"),
        (vec![("a.pdf", first.as_slice())], "2 lines, 1 file"),
    ] {
        let refused = load(&csrf, lines, &files).await;
        assert_eq!(refused.status(), 400, "{says}");
        let page = refused.text().await.expect("html");
        assert!(page.contains("role=\"alert\"") && unescape(&page).contains(says), "{says}: {page}");
        assert!(page.contains(">1000, KA-0010\n200, KA-0011</textarea>"), "the lines kept: {page}");
    }
    // Named after the lines' numbers, they go with their lines whatever order they come in.
    let two = [("KA-0011.pdf", second.as_slice()), ("ka-0010.PDF", first.as_slice())];
    assert_eq!(load(&"0".repeat(64), lines, &two).await.status(), 403);
    assert_eq!(stored("KA-001").await["totalCount"], 0, "nothing stored");
    let loaded = load(&csrf, lines, &two).await;
    assert_eq!(loaded.status(), 303);
    let read = stored("KA-001").await;
    let certificates: Vec<(&str, i64, bool)> = read["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|s| {
            (
                s["referenceNo"].as_str().unwrap_or(""),
                s["denomination"].as_i64().unwrap_or(0),
                s["hasCertificate"] == true,
            )
        })
        .collect();
    assert_eq!(certificates, [("KA-0010", 1000, true), ("KA-0011", 200, true)], "{read}");
    let stock: Value = app.get("/api/v1/stamps/stock?state=KA", &api).await.json().await.expect("json");
    let available: Vec<(i64, i64)> = stock["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| (i["denomination"].as_i64().unwrap_or(0), i["available"].as_i64().unwrap_or(0)))
        .collect();
    assert_eq!(available, [(100, 1), (200, 1), (500, 2), (1000, 1)], "{stock}");
    // Each certificate with its PDF links to it, byte for byte as loaded.
    let page = admin.get(app.url("/app/stamps?state=KA")).await.text().await.expect("html");
    for (number, pdf) in [("KA-0010", &first), ("KA-0011", &second)] {
        let row = page.split("<tr>").find(|r| r.contains(number)).expect("a certificate row").to_string();
        let link = row.split("<a href=\"").nth(1).and_then(|r| r.split('"').next()).expect("a link").to_string();
        assert!(link.ends_with("/certificate"), "{row}");
        let downloaded = admin.get(app.url(&link)).await;
        assert_eq!(downloaded.status(), 200);
        assert_eq!(&downloaded.bytes().await.expect("pdf").to_vec(), pdf, "{number}");
    }
    let row = page.split("<tr>").find(|r| r.contains("KA-0001")).expect("a certificate row").to_string();
    assert!(!row.contains("/certificate"), "no PDF, no link: {row}");

    // Retiring one: it leaves the stock and is offered no more.
    let page = admin.get(app.url("/app/stamps?state=KA")).await.text().await.expect("html");
    let row = page.split("<tr>").find(|r| r.contains("KA-0002")).expect("a certificate row").to_string();
    let retire = row.split("action=\"").nth(1).and_then(|r| r.split('"').next()).expect("retire form").to_string();
    assert_eq!(admin.post(app.url(&retire), &in_karnataka(&csrf, &[])).await.status(), 303);
    let page = admin.get(app.url("/app/stamps?state=KA")).await.text().await.expect("html");
    let row = page.split("<tr>").find(|r| r.contains("KA-0002")).expect("a certificate row").to_string();
    assert!(row.contains("<td>retired</td>") && !row.contains("Retire"), "{row}");
    assert_eq!(admin.post(app.url(&retire), &in_karnataka(&csrf, &[])).await.status(), 409, "retired twice");

    // The low-stock alert: saved, read back by the API; a bad address refused.
    let saved = admin
        .post(
            app.url("/app/stamps/settings"),
            &in_karnataka(&csrf, &[("threshold", "5"), ("emails", "ops@stamped.example")]),
        )
        .await;
    assert_eq!(saved.status(), 303);
    let settings: Value = app.get("/api/v1/stamps/settings", &api).await.json().await.expect("json");
    assert_eq!(
        (settings["lowStockThreshold"].as_i64(), &settings["alertEmails"]),
        (Some(5), &json!(["ops@stamped.example"]))
    );
    let bad = admin
        .post(
            app.url("/app/stamps/settings"),
            &in_karnataka(&csrf, &[("threshold", "5"), ("emails", "not-an-address")]),
        )
        .await;
    assert_eq!(bad.status(), 400);
    let page = admin.get(app.url("/app/stamps?state=KA")).await.text().await.expect("html");
    assert!(page.contains("<strong>(low)</strong>"), "stock at or below 5 is marked low");

    // Article codes: the tenant's own added (a fixed duty without an amount refused), listed as
    // theirs, and removed.
    let article = |fixed: &'static str| {
        in_karnataka(
            &csrf,
            &[("code", "99Z"), ("description", "Branch guarantee"), ("duty_kind", "fixed"), ("fixed_duty", fixed)],
        )
    };
    assert_eq!(admin.post(app.url("/app/stamps/articles"), &article("")).await.status(), 400);
    assert_eq!(admin.post(app.url("/app/stamps/articles"), &article("200")).await.status(), 303);
    let page = admin.get(app.url("/app/stamps?state=KA")).await.text().await.expect("html");
    let row = page.split("<tr>").find(|r| r.contains("<td>99Z</td>")).expect("the article").to_string();
    assert!(row.contains("Branch guarantee") && row.contains("your own"), "{row}");
    let removed = admin.post(app.url("/app/stamps/articles/remove"), &in_karnataka(&csrf, &[("code", "99Z")])).await;
    assert_eq!(removed.status(), 303);
    assert!(!admin.get(app.url("/app/stamps?state=KA")).await.text().await.expect("html").contains("<td>99Z</td>"));

    // A sender reads the stock but changes nothing.
    signet_testkit::people::signed_in_user(&app, &smtp, &api, "sara@stamped.example", 2).await;
    let sender = console_session(&app, "sara@stamped.example", GOOD_PASSWORD).await;
    let page = sender.get(app.url("/app/stamps?state=KA")).await.text().await.expect("html");
    assert!(page.contains("KA-0001") && !page.contains("load-form") && !page.contains("Retire "), "{page}");
    let sender_csrf = csrf_of(&page);
    let part = reqwest::multipart::Part::bytes(first.clone()).file_name("c.pdf");
    let form = reqwest::multipart::Form::new()
        .text("csrf", sender_csrf)
        .text("state", "KA")
        .text("certificates", "500, KA-0009")
        .part("certificate_files", part);
    assert_eq!(sender.send(sender.http.post(app.url("/app/stamps/load")).multipart(form)).await.status(), 403);
    assert_eq!(stored("KA-0009").await["totalCount"], 0, "nothing stored");
}

/// A template `name` of the tenant with the first signatory's box on `page` (at 100, 500, 150 x
/// 50 points): its id, as the send form offers it.
async fn template_of_one_box(
    app: &TestApp,
    tenant: &signet_server::provision::ProvisionedTenant,
    name: &str,
    page: Value,
) -> String {
    let definition = json!({"fields": [{"signatory": 1, "page": page, "left": 100.0, "top": 500.0, "width": 150.0, "height": 50.0}]});
    signet_services::workflows::templates::create(
        &app.state.services,
        &administrator(tenant),
        Some(name),
        None,
        serde_json::from_value(definition).expect("definition"),
    )
    .await
    .expect("template")
    .id
    .get()
    .to_string()
}

/// A multipart send of one PDF with `template` to one signer, with the stamp form's `stamp`.
fn stamped_send(csrf: &str, template: &str, stamp: &[(&'static str, &'static str)]) -> reqwest::multipart::Form {
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Hypothecation deed")]);
    let mut form = reqwest::multipart::Form::new()
        .text("csrf", csrf.to_string())
        .text("template", template.to_string())
        .text("name", "Hypothecation")
        .text("s1_name", "Asha")
        .text("s1_email", "asha@borrower.example")
        .text("s1_order", "1")
        .text("s1_method", "electronic");
    for (name, value) in stamp {
        form = form.text(*name, *value);
    }
    form.part(
        "documents",
        reqwest::multipart::Part::bytes(pdf).file_name("deed.pdf").mime_str("application/pdf").expect("mime"),
    )
}

async fn senders_e_stamp_the_documents_they_send(backend: Backend) {
    let app = spawn_with(backend, |_| {}).await;
    let tenant = app.tenant("Stamped Sends").await;
    let api = app.token(&tenant).await;
    let load = json!({"state": "KA", "denomination": [{"denomination": 100, "referenceNo": "KA-SEND-1"}]});
    assert_eq!(app.post("/api/v1/stamps", &api, load).await.status(), 201);
    let template = template_of_one_box(&app, &tenant, "Deed", json!(1)).await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = admin.get(app.url("/app/send")).await.text().await.expect("html");
    assert!(page.contains("<legend>Stamp duty</legend>") && page.contains("value=\"KA\""), "{page}");
    let csrf = csrf_of(&page);
    let available = || async {
        let stock: Value = app.get("/api/v1/stamps/stock?state=KA", &api).await.json().await.expect("json");
        stock["items"][0]["available"].as_i64()
    };

    // Refused on the form, what was typed kept, nothing sent and nothing taken: a duty that is
    // not a number, a duty of which there is no certificate, an article the state does not have.
    let typed = [("stamp_source", "inventory"), ("stamp_state", "KA"), ("stamp_first_party", "Asha Rao")];
    for (duty, article, says) in [
        ("a hundred", "", "whole number of rupees"),
        ("500", "", "no stamp papers of KA"),
        ("100", "999", "articleCode"),
    ] {
        let stamp = [typed.as_slice(), &[("stamp_duty", duty), ("stamp_article", article)]].concat();
        let refused =
            admin.send(admin.http.post(app.url("/app/send")).multipart(stamped_send(&csrf, &template, &stamp))).await;
        assert_eq!(refused.status(), 400, "duty {duty}, article {article}");
        let html = refused.text().await.expect("html");
        assert!(html.contains("role=\"alert\"") && html.contains(says), "{says}: {html}");
        assert!(html.contains("value=\"Asha Rao\"") && html.contains("<option value=\"KA\" selected>"), "kept: {html}");
    }
    let listed: Value = app.get("/api/v1/workflows", &api).await.json().await.expect("json");
    assert_eq!(listed["totalCount"], 0, "nothing sent: {listed}");
    assert_eq!(available().await, Some(1));

    // Sent with the certificate of Rs 100: it is taken for the workflow, and its page stands in
    // front of the deed.
    let stamp = [typed.as_slice(), &[("stamp_duty", "100"), ("stamp_description", "Hypothecation of a car")]].concat();
    let review =
        admin.send(admin.http.post(app.url("/app/send")).multipart(stamped_send(&csrf, &template, &stamp))).await;
    // A second send reviewed while the certificate is still in stock.
    let second =
        admin.send(admin.http.post(app.url("/app/send")).multipart(stamped_send(&csrf, &template, &stamp))).await;
    assert_eq!(second.status(), 200);
    let second = unescape(&second.text().await.expect("html"));
    let (review, id) = sent_as_reviewed(&app, &admin, &csrf, review).await;
    for line in ["E-stamping: A certificate from our stock", "Duty: ₹100", "First party: Asha Rao"] {
        assert!(review.contains(line), "{line}: {review}");
    }
    assert_eq!(available().await, Some(0));

    // The second, sent once the certificate has gone: refused to the placement screen with the
    // template's box drawn there to be changed (as Back to change does), nothing sent.
    let carried: Vec<(String, String)> =
        hidden_fields(&second, "id=\"review-form\"").into_iter().chain([("csrf".into(), csrf.clone())]).collect();
    let drawn = "name=\"field\" value=\"1:0:1:100:500:150:50:signature:0:\"";
    let back = admin.send(admin.http.post(app.url("/app/send/place")).form(&carried)).await;
    assert_eq!(back.status(), 200);
    let back = unescape(&back.text().await.expect("html"));
    assert!(back.contains(drawn) && !back.contains("name=\"template\""), "{back}");
    let refused = admin.send(admin.http.post(app.url("/app/send/start")).form(&carried)).await;
    assert_eq!(refused.status(), 400);
    let refused = unescape(&refused.text().await.expect("html"));
    assert!(refused.contains("role=\"alert\"") && refused.contains("no stamp papers of KA"), "{refused}");
    assert!(refused.contains(drawn), "{refused}");
    let listed: Value = app.get("/api/v1/workflows", &api).await.json().await.expect("json");
    assert_eq!(listed["totalCount"], 1, "only the first was sent: {listed}");
    let taken: Value = app.get("/api/v1/stamps?state=KA", &api).await.json().await.expect("json");
    let taken = taken["items"].as_array().cloned().unwrap_or_default();
    assert_eq!(taken.len(), 1, "{taken:?}");
    assert_eq!((taken[0]["workflowId"].as_i64(), taken[0]["referenceNo"].as_str()), (Some(id), Some("KA-SEND-1")));
    let download = app.post("/api/v1/documents/download", &api, json!({"workflowid": id})).await;
    let stamped = download.bytes().await.expect("pdf").to_vec();
    assert_eq!(signet_pdf::inspect(&stamped).expect("opens").pages, 2, "the certificate's page and the deed");
}

async fn senders_e_stamp_with_certificates_the_stamp_provider_issued(backend: Backend) {
    const KEY: &str = "console-sim-key";
    let sim = signet_estamp_sim::spawn(
        signet_estamp_sim::SimOptions { api_key: Some(KEY.into()), ..Default::default() },
        tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind"),
    )
    .await
    .expect("simulator");
    let provider = format!("{}/v1", sim.base_url);
    let smtp = SmtpSink::start();
    let mail = smtp.url();
    let app = spawn_with(backend, move |config| {
        config.smtp_url = Some(mail);
        config.workers = true;
        config.worker_poll_ms = 50;
        config.estamp_provider_url = Some(provider);
        config.estamp_provider_key = Some(KEY.into());
        config.estamp_provider_timeout_secs = 5;
        config.outbound_allow_private = true;
    })
    .await;
    let tenant = app.tenant("Portal Stamps").await;
    let api = app.token(&tenant).await;
    // Issued beforehand, ordered through Signet for this organisation (Rs 300 of Goa's duty)
    // by a request whose workflow was then not made (its QR code names a page the deed does
    // not have): the certificate is the organisation's, recorded and not used.
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Deed")]);
    let order = json!({"documentName": "Deed.pdf", "fileData": base64::engine::general_purpose::STANDARD.encode(pdf),
        "eStampType": "digital",
        "qrCodeCordinats": [{"left": 10, "top": 10, "width": 60, "height": 60, "pageNumber": "9"}],
        "eStampPayload": {"loan": {"txnID": "PORTAL-1", "loanno": "LN-77", "state": "GA", "estampdtls": [
            {"firstparty": "Asha Rao", "secondparty": "Bank of Examples", "stampDutyAmount": "300", "articleCode": "any"}],
            "prtcptentty": [{"prtcptenttyId": "10", "fulnm": "Asha Rao", "emlid": "asha@borrower.example", "seqno": 1}]}}});
    let not_made = app.post("/api/v1/workflows/initiate-and-sign", &api, order).await;
    assert!(not_made.status().is_client_error(), "{}", not_made.text().await.unwrap_or_default());
    let ordered: Value = app.get("/api/v1/stamps?state=GA", &api).await.json().await.expect("json");
    let reference = ordered["items"][0]["providerRef"].as_str().expect("reference").to_string();
    let number = ordered["items"][0]["referenceNo"].as_str().expect("number").to_string();
    let template = template_of_one_box(&app, &tenant, "Deed", json!("last")).await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let csrf = csrf_of(&admin.get(app.url("/app/send")).await.text().await.expect("html"));
    let send = |stamp: Vec<(&'static str, String)>| {
        let mut form = stamped_send(&csrf, &template, &[("send_mail", "on")]);
        for (name, value) in stamp {
            form = form.text(name, value);
        }
        admin.send(admin.http.post(app.url("/app/send")).multipart(form))
    };
    let digital = |reference: &str, state: &str, duty: &str| {
        vec![
            ("stamp_source", "digital".to_string()),
            ("stamp_reference", reference.to_string()),
            ("stamp_state", state.to_string()),
            ("stamp_duty", duty.to_string()),
            ("stamp_first_party", "Asha Rao".to_string()),
        ]
    };

    // Refused on the form, what was typed kept: no reference, a duty (the certificates carry
    // theirs). A reference the provider does not know is refused when sending.
    for (stamp, says) in
        [(digital("", "", ""), "the stamp provider's reference"), (digital(&reference, "", "300"), "carry their duty")]
    {
        let refused = send(stamp).await;
        assert_eq!(refused.status(), 400, "{says}");
        let html = unescape(&refused.text().await.expect("html"));
        assert!(html.contains("role=\"alert\"") && html.contains(says), "{says}: {html}");
        assert!(html.contains("<option value=\"digital\" selected>"), "kept: {html}");
    }
    let unknown = send(digital("ESTMP-00000000", "", "")).await;
    assert_eq!(unknown.status(), 200, "reviewed: the provider is asked only when sending");
    let unknown = unescape(&unknown.text().await.expect("html"));
    let carried: Vec<(String, String)> =
        hidden_fields(&unknown, "id=\"review-form\"").into_iter().chain([("csrf".into(), csrf.clone())]).collect();
    let refused = admin.send(admin.http.post(app.url("/app/send/start")).form(&carried)).await;
    assert_eq!(refused.status(), 400);
    let refused = unescape(&refused.text().await.expect("html"));
    assert!(refused.contains("no e-stamp certificate under this reference"), "{refused}");

    // Sent with the provider's reference, the state left to the certificates: the review says
    // where the duty comes from, the certificate is fetched and its page put in front.
    let review = send(digital(&reference, "", "")).await;
    let (review, id) = sent_as_reviewed(&app, &admin, &csrf, review).await;
    for line in [
        "E-stamping: Issued by the stamp provider",
        &format!("Provider's reference: {reference}"),
        "Duty: as the provider's certificates say",
    ] {
        assert!(review.contains(line), "{line}: {review}");
    }
    let stamps: Value = app.get("/api/v1/stamps?state=GA", &api).await.json().await.expect("json");
    let stamp = &stamps["items"][0];
    assert_eq!((stamp["referenceNo"].as_str(), stamp["workflowId"].as_i64()), (Some(number.as_str()), Some(id)));
    assert_eq!((stamp["source"].as_str(), stamp["status"].as_str()), (Some("provider"), Some("allocated")));
    sign_typed(&signer_link(&smtp, "asha@borrower.example", "Hypothecation").await, "Asha Rao").await;

    let download = app.post("/api/v1/documents/download", &api, json!({"workflowid": id})).await;
    let signed = download.bytes().await.expect("pdf").to_vec();
    assert_eq!(signet_pdf::inspect(&signed).expect("opens").pages, 2, "the certificate's page and the deed");
    let report = pdfsig(&signed);
    assert_eq!(report.matches("Signature is Valid").count(), 1, "{report}");
    pyhanko_validates(&signed, &[cert_pem(&app.state.services.keys.ca.cert_der).as_slice()]);
}

/// A form with a PKCS#12 file (`certificate`), as the signing screen's upload forms send it.
fn with_p12(csrf: &str, p12: Vec<u8>, fields: &[(&'static str, &'static str)]) -> reqwest::multipart::Form {
    let file = reqwest::multipart::Part::bytes(p12).file_name("signer.p12").mime_str("application/x-pkcs12");
    let mut form =
        reqwest::multipart::Form::new().text("csrf", csrf.to_string()).part("certificate", file.expect("mime"));
    for (name, value) in fields {
        form = form.text(*name, *value);
    }
    form
}

/// The tenant's signing profiles as the API lists them: (name, e-mail, revoked).
async fn profiles_of(app: &TestApp, token: &str) -> Vec<(String, String, bool)> {
    let list: Value = app.get("/api/v1/signing-profiles", token).await.json().await.expect("json");
    let text = |p: &Value, key: &str| p[key].as_str().unwrap_or_default().to_string();
    let profiles = list.as_array().expect("profiles").iter();
    profiles.map(|p| (text(p, "name"), text(p, "emailId"), p["revokedAt"].is_i64())).collect()
}

async fn people_keep_their_certificates_and_administrators_the_signing_profiles(backend: Backend) {
    use signet_testkit::pki::TestPki;
    let bank_ca = TestPki::new("Bank Signing CA");
    let dir = tempfile::tempdir().expect("dir");
    let trust = dir.path().join("trust.pem");
    std::fs::write(&trust, bank_ca.ca_pem()).expect("trust list");
    let smtp = SmtpSink::start();
    let app = spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
        config.certificate_trust_list = Some(trust.clone());
    })
    .await;
    let tenant = app.tenant("Acme Bank").await;
    let api = app.token(&tenant).await;
    let (_, ravi_api) = signet_testkit::people::signed_in_user(&app, &smtp, &api, "ravi@acme.example", 2).await;
    let ravi = console_session(&app, "ravi@acme.example", GOOD_PASSWORD).await;

    // A sender has the screen for their own certificates, not the organisation's profiles.
    let page = ravi.get(app.url("/app/signing")).await;
    assert_eq!(page.status(), 200);
    let page = page.text().await.expect("html");
    assert!(page.contains("href=\"/app/signing\" aria-current=\"page\""), "{page}");
    assert!(page.contains("enrol-form") && !page.contains("profile-form") && !page.contains("profiles-heading"));
    let csrf = csrf_of(&page);
    let enrol = |token: &str, p12: Vec<u8>, password: &'static str| {
        let form = with_p12(token, p12, &[("password", password), ("name", "Ravi's DSC")]);
        ravi.send(ravi.http.post(app.url("/app/signing/certificates")).multipart(form))
    };

    // Refused on the page, nothing enrolled: a certificate of an untrusted issuer, a wrong
    // password; refused outright: a form without this session's token.
    let stranger = TestPki::new("Unknown CA").signer_p12("Ravi Kumar", None, "pw");
    let refused = enrol(&csrf, stranger, "pw").await;
    assert_eq!(refused.status(), 400);
    let refused = refused.text().await.expect("html");
    assert!(refused.contains("role=\"alert\"") && refused.contains("chain"), "{refused}");
    assert_eq!(enrol(&csrf, bank_ca.signer_p12("Ravi Kumar", None, "pw"), "wrong").await.status(), 400);
    assert_eq!(enrol(&"0".repeat(64), bank_ca.signer_p12("Ravi Kumar", None, "pw"), "pw").await.status(), 403);
    assert!(profiles_of(&app, &api).await.is_empty(), "nothing enrolled");

    // Enrolled: the API lists it as a profile of his address.
    let enrolled = enrol(&csrf, bank_ca.signer_p12("Ravi Kumar", Some("Acme Bank"), "pw"), "pw").await;
    assert_eq!(enrolled.status(), 303);
    assert_eq!(enrolled.headers()["location"], "/app/signing");
    assert_eq!(profiles_of(&app, &api).await, [("Ravi's DSC".to_string(), "ravi@acme.example".to_string(), false)]);
    let page = unescape(&ravi.get(app.url("/app/signing")).await.text().await.expect("html"));
    let certificate = page
        .split("<option value=\"")
        .skip(1)
        .find(|o| o.contains("Ravi's DSC"))
        .and_then(|o| o.split('"').next())
        .expect("his certificate offered")
        .to_string();

    // Automated signing: without consent refused and still off; with it, on with his reason.
    let automated = |consent: bool| {
        let mut form = vec![
            ("csrf", csrf.as_str()),
            ("enabled", "on"),
            ("certificate", certificate.as_str()),
            ("reason", "Sanctioned under delegation 7"),
            ("location", "Mumbai branch"),
        ];
        if consent {
            form.push(("consent", "on"));
        }
        ravi.post(app.url("/app/signing/automated"), &form)
    };
    let refused = automated(false).await;
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("html").contains("role=\"alert\""));
    let settings: Value = app.get("/api/v1/users/me/automated-signing", &ravi_api).await.json().await.expect("json");
    assert_eq!(settings["enabled"], false, "{settings}");
    assert_eq!(automated(true).await.status(), 303);
    let settings: Value = app.get("/api/v1/users/me/automated-signing", &ravi_api).await.json().await.expect("json");
    assert_eq!(
        (&settings["enabled"], &settings["consentAccepted"], &settings["certificateName"]),
        (&json!(true), &json!(true), &json!("Ravi's DSC")),
        "{settings}"
    );
    assert_eq!(settings["defaultSignatoryReason"], "Sanctioned under delegation 7");
    assert_eq!(settings["defaultSignatoryLocation"], "Mumbai branch");
    let page = ravi.get(app.url("/app/signing")).await.text().await.expect("html");
    assert!(page.contains("On: when your turn comes"), "{page}");

    // Removing it needs his account password.
    let remove = |password: &'static str| {
        let form = [("csrf", csrf.as_str()), ("certificate", certificate.as_str()), ("password", password)];
        ravi.post(app.url("/app/signing/certificates/remove"), &form)
    };
    assert_eq!(remove("not my password").await.status(), 400);
    assert!(!profiles_of(&app, &api).await[0].2, "still enrolled");
    assert_eq!(remove(GOOD_PASSWORD).await.status(), 303);
    assert!(profiles_of(&app, &api).await[0].2, "removed");

    // The organisation's profiles are the administrator's: the sender is refused both changes.
    let p12 = || TestPki::new("Treasury CA").signer_p12("Treasury Signing", Some("Acme Bank"), "s3cret");
    let profile = |csrf: &str, password: &'static str| {
        with_p12(csrf, p12(), &[("name", "Treasury"), ("email", "treasury@acme.example"), ("password", password)])
    };
    let by_sender = ravi.send(ravi.http.post(app.url("/app/signing/profiles")).multipart(profile(&csrf, "s3cret")));
    assert_eq!(by_sender.await.status(), 403);
    let first = app.get("/api/v1/signing-profiles", &api).await.json::<Value>().await.expect("json")[0]["profileId"]
        .as_i64()
        .expect("profileId");
    let revoke = format!("/app/signing/profiles/{first}/revoke");
    assert_eq!(ravi.post(app.url(&revoke), &[("csrf", csrf.as_str())]).await.status(), 403);
    assert_eq!(profiles_of(&app, &api).await.len(), 1, "the sender added nothing");

    // The administrator adds one (a wrong password refused on the page) and revokes it.
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = unescape(&admin.get(app.url("/app/signing")).await.text().await.expect("html"));
    assert!(page.contains("profile-form") && page.contains("Ravi's DSC"), "{page}");
    let admin_csrf = csrf_of(&page);
    let add = |password: &'static str| {
        admin.send(admin.http.post(app.url("/app/signing/profiles")).multipart(profile(&admin_csrf, password)))
    };
    let refused = add("nope").await;
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("html").contains("role=\"alert\""));
    assert_eq!(profiles_of(&app, &api).await.len(), 1, "nothing added");
    assert_eq!(add("s3cret").await.status(), 303);
    let profiles = profiles_of(&app, &api).await;
    assert!(profiles.contains(&("Treasury".into(), "treasury@acme.example".into(), false)), "{profiles:?}");
    // On a phone in Chromium: every control named, nothing wider than the screen.
    let tag = format!("{backend:?}").to_lowercase();
    let args = json!({"email": tenant.admin_email, "password": ADMIN_PASSWORD, "pages": ["/app/signing"]});
    let looked = journey(&app, "look", &format!("{tag}-signing"), args).await;
    assert_eq!(looked["statuses"], json!([200]), "{looked}");
    let page = admin.get(app.url("/app/signing")).await.text().await.expect("html");
    let row = page.split("<tr>").find(|r| r.contains("treasury@acme.example")).expect("the profile's row");
    let revoke = row.split("action=\"").nth(1).and_then(|r| r.split('"').next()).expect("revoke form").to_string();
    assert_eq!(admin.post(app.url(&revoke), &[("csrf", admin_csrf.as_str())]).await.status(), 303);
    let profiles = profiles_of(&app, &api).await;
    assert!(profiles.contains(&("Treasury".into(), "treasury@acme.example".into(), true)), "{profiles:?}");
    assert_eq!(admin.post(app.url(&revoke), &[("csrf", admin_csrf.as_str())]).await.status(), 404, "revoked twice");
}

async fn administrators_keep_the_billing_profile_and_issue_invoices(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
        config.invoice_supplier_name = Some("Signet Platform Services Pvt Ltd".into());
        config.invoice_supplier_address = Some("4 Nariman Point\nMumbai 400021".into());
        config.invoice_supplier_gstin = Some("27AACCS1234K1ZF".into());
        config.invoice_supplier_state = Some("MH".into());
        config.invoice_fee_paise = 10_050;
    })
    .await;
    let tenant = app.tenant("Acme Finance").await;
    let api = app.token(&tenant).await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = admin.get(app.url("/app/invoices")).await;
    assert_eq!(page.status(), 200);
    let page = page.text().await.expect("html");
    assert!(page.contains("href=\"/app/invoices\" aria-current=\"page\"") && page.contains("Not set yet"), "{page}");
    let csrf = csrf_of(&page);

    // The billing profile: a GSTIN of another state refused on the page with what was typed,
    // nothing saved; then saved, and the API reads it (the address's lines kept).
    let profile = |token: &str, gstin: &str, state: &str| {
        let form = [
            ("csrf", token),
            ("legal_name", "Acme Finance Ltd"),
            ("address", "7 MG Road\r\nBengaluru 560001"),
            ("gstin", gstin),
            ("state", state),
        ];
        admin.post(app.url("/app/invoices/billing-profile"), &form)
    };
    let refused = profile(&csrf, "29AAACA1234B1ZE", "MH").await;
    assert_eq!(refused.status(), 400);
    let refused = refused.text().await.expect("html");
    assert!(refused.contains("role=\"alert\"") && refused.contains("value=\"Acme Finance Ltd\""), "{refused}");
    assert_eq!(app.get("/api/v1/stamps/billing-profile", &api).await.status(), 404, "nothing saved");
    assert_eq!(profile(&"0".repeat(64), "29AAACA1234B1ZE", "KA").await.status(), 403);
    assert_eq!(app.get("/api/v1/stamps/billing-profile", &api).await.status(), 404, "nothing saved");
    let saved = profile(&csrf, "29AAACA1234B1ZE", "KA").await;
    assert_eq!(saved.status(), 303);
    assert_eq!(saved.headers()["location"], "/app/invoices");
    let read: Value = app.get("/api/v1/stamps/billing-profile", &api).await.json().await.expect("json");
    assert_eq!(
        read,
        json!({"legalName": "Acme Finance Ltd", "address": "7 MG Road\nBengaluru 560001", "gstin": "29AAACA1234B1ZE",
               "stateCode": "KA"})
    );

    // Issuing: not a number, or a workflow still in progress, is refused and issues nothing.
    let (workflow, _) = workflow_for(&app, &api, "Loan sanction", &["asha@borrower.example"]).await;
    let id = workflow.to_string();
    let issue = |what: &str| admin.post(app.url("/app/invoices/issue"), &[("csrf", csrf.as_str()), ("workflow", what)]);
    assert_eq!(issue("seven").await.status(), 400);
    let refused = issue(&id).await;
    assert_eq!(refused.status(), 409);
    assert!(refused.text().await.expect("html").contains("in progress"));
    let invoice_of = format!("/api/v1/stamps/invoices/{workflow}");
    assert_eq!(app.get(&invoice_of, &api).await.status(), 404, "nothing issued");

    // Once it has ended: issued, shown with its PDF, which is the API's document.
    let ended =
        app.post(&format!("/api/v1/workflows/{workflow}/inactive"), &api, json!({"workflowid": workflow})).await;
    assert!(ended.status().is_success(), "{}", ended.status());
    let issued = issue(&id).await;
    assert_eq!(issued.status(), 303);
    assert_eq!(issued.headers()["location"].to_str().expect("location"), format!("/app/invoices?workflow={workflow}"));
    let documents: Value = app.get(&invoice_of, &api).await.json().await.expect("json");
    let number = documents["invoiceNo"].as_str().expect("invoiceNo").to_string();
    assert!(documents["debitNoteNo"].is_null(), "no stamp papers, no debit note: {documents}");
    let page = admin.get(app.url(&format!("/app/invoices?workflow={workflow}"))).await.text().await.expect("html");
    let shown = unescape(&page);
    assert!(shown.contains(&format!("<td>{number}</td>")), "{page}");
    let total = format!("<td>₹{:.2}</td>", documents["totalAmount"].as_f64().expect("totalAmount"));
    assert!(total != "<td>₹0.00</td>" && shown.contains(&total), "{total} in {page}");
    let href = format!("/app/invoices/{workflow}/invoice");
    assert!(shown.contains(&format!("href=\"{href}\"")), "{page}");
    let pdf = admin.get(app.url(&href)).await;
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    let pdf = pdf.bytes().await.expect("pdf");
    assert!(pdf.starts_with(b"%PDF-"), "a PDF");
    let issued_pdf = base64::engine::general_purpose::STANDARD
        .decode(documents["invoiceDocument"].as_str().expect("invoiceDocument"))
        .expect("base64");
    assert_eq!(pdf.to_vec(), issued_pdf, "the document as issued");
    assert_eq!(admin.get(app.url(&format!("/app/invoices/{workflow}/debit-note"))).await.status(), 404);
    // The documents issued, listed (newest first) with their PDFs; filtered by workflow and day
    // with a GET form; filters that are not dates or numbers refused with what was typed.
    let listed = admin.get(app.url("/app/invoices")).await.text().await.expect("html");
    let shown = unescape(&listed);
    let issued_table = shown.split("id=\"issued\"").nth(1).expect("the list of documents issued").to_string();
    assert!(issued_table.contains(&format!("<td>{number}</td>")) && issued_table.contains(&format!("href=\"{href}\"")));
    assert!(shown.contains("1 document, newest first"), "{listed}");
    let find_at = listed.find("id=\"find-form\"").expect("find form");
    assert!(listed.find("id=\"list-form\"").expect("list form") < find_at, "the list above the find form");
    let today = &documents["invoiceCreatedDate"].as_str().expect("date")[..10];
    let filtered = admin
        .get(app.url(&format!("/app/invoices?issued_from={today}&issued_to={today}&of_workflow={workflow}")))
        .await
        .text()
        .await
        .expect("html");
    assert!(unescape(&filtered).contains(&format!("<td>{number}</td>")), "{filtered}");
    let other_day = admin.get(app.url("/app/invoices?issued_from=2199-01-01")).await.text().await.expect("html");
    assert!(other_day.contains("0 documents") && !other_day.contains("id=\"issued\""), "{other_day}");
    let refused = admin.get(app.url("/app/invoices?issued_from=2026-02-30&of_workflow=seven")).await;
    assert_eq!(refused.status(), 400);
    let refused = refused.text().await.expect("html");
    assert!(refused.contains("role=\"alert\"") && refused.contains("issuedFrom") && refused.contains("workflowId"));
    assert!(refused.contains("value=\"2026-02-30\"") && refused.contains("value=\"seven\""), "{refused}");
    // On a phone in Chromium: every control named, nothing wider than the screen.
    let tag = format!("{backend:?}").to_lowercase();
    let pages = json!(["/app/invoices", format!("/app/invoices?workflow={workflow}")]);
    let args = json!({"email": tenant.admin_email, "password": ADMIN_PASSWORD, "pages": pages});
    let looked = journey(&app, "look", &format!("{tag}-invoices"), args).await;
    assert_eq!(looked["statuses"], json!([200, 200]), "{looked}");
    assert_eq!(issue(&id).await.status(), 303, "issuing again shows what was issued");
    let again: Value = app.get(&invoice_of, &api).await.json().await.expect("json");
    assert_eq!(again["invoiceNo"], number.as_str());
    let unknown = admin.get(app.url("/app/invoices?workflow=999999")).await;
    assert_eq!(unknown.status(), 404);
    assert!(unknown.text().await.expect("html").contains("role=\"alert\""));

    // A sender finds the documents but issues nothing and does not see the billing profile.
    signet_testkit::people::signed_in_user(&app, &smtp, &api, "sara@acme.example", 2).await;
    let sender = console_session(&app, "sara@acme.example", GOOD_PASSWORD).await;
    let page = sender.get(app.url(&format!("/app/invoices?workflow={workflow}"))).await;
    assert_eq!(page.status(), 200);
    let page = page.text().await.expect("html");
    assert!(unescape(&page).contains(&number) && !page.contains("issue-form") && !page.contains("profile-form"));
    let listed = sender.get(app.url("/app/invoices")).await.text().await.expect("html");
    assert!(unescape(&listed).contains(&format!("<td>{number}</td>")), "a sender sees the list: {listed}");
    let sender_csrf = csrf_of(&page);
    let form = [("csrf", sender_csrf.as_str()), ("workflow", id.as_str())];
    assert_eq!(sender.post(app.url("/app/invoices/issue"), &form).await.status(), 403);
    let form = [("csrf", sender_csrf.as_str()), ("legal_name", "Not Acme"), ("address", "Elsewhere"), ("state", "MH")];
    assert_eq!(sender.post(app.url("/app/invoices/billing-profile"), &form).await.status(), 403);
    let read: Value = app.get("/api/v1/stamps/billing-profile", &api).await.json().await.expect("json");
    assert_eq!(read["legalName"], "Acme Finance Ltd", "unchanged");

    // A signer-role user neither sees nor reaches the screen.
    signet_testkit::people::signed_in_user(&app, &smtp, &api, "sid@acme.example", 3).await;
    let signer = console_session(&app, "sid@acme.example", GOOD_PASSWORD).await;
    let inbox = signer.get(app.url("/app/inbox")).await.text().await.expect("html");
    assert!(!inbox.contains("/app/invoices"), "{inbox}");
    assert_eq!(signer.get(app.url("/app/invoices")).await.status(), 403);
}

/// The names of the tenant's menu entries with the entry each is under, as the API lists them.
async fn menus_of(app: &TestApp, token: &str) -> Vec<(String, Option<i64>)> {
    let menus: Value = app.get("/api/v1/menus", token).await.json().await.expect("json");
    let menus = menus.as_array().cloned().unwrap_or_default();
    menus.iter().map(|m| (m["menuName"].as_str().unwrap_or_default().to_string(), m["menuParentId"].as_i64())).collect()
}

async fn administrators_keep_the_menus_and_grant_their_entries(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = console_app(backend, &smtp).await;
    let tenant = app.tenant("Bank of Examples").await;
    let api = app.token(&tenant).await;
    let retail = app.post("/api/v1/departments", &api, json!({"departmentName": "Retail"})).await;
    assert_eq!(retail.status(), 201);
    let retail = retail.json::<Value>().await.expect("json")["departmentID"].as_i64().expect("departmentID");
    let (sara, sara_api) = signet_testkit::people::signed_in_user(&app, &smtp, &api, "sara@bank.example", 2).await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = admin.get(app.url("/app/access")).await;
    assert_eq!(page.status(), 200);
    let page = page.text().await.expect("html");
    assert!(page.contains("href=\"/app/access\" aria-current=\"page\"") && page.contains("activity-form"), "{page}");
    let csrf = csrf_of(&page);
    let add = |token: &str, name: &str, parent: &str| {
        admin.post(app.url("/app/access/activities"), &[("csrf", token), ("name", name), ("parent", parent)])
    };

    // Refused on the page, nothing made: a blank name, a parent that is not the tenant's;
    // refused outright: a form without this session's token.
    let blank = add(&csrf, "   ", "0").await;
    assert_eq!(blank.status(), 400);
    let blank = blank.text().await.expect("html");
    assert!(blank.contains("role=\"alert\"") && blank.contains("menuName"), "{blank}");
    let orphan = add(&csrf, "Loans", "999999").await;
    assert_eq!(orphan.status(), 400);
    assert!(orphan.text().await.expect("html").contains("menuParentId"));
    assert_eq!(add(&"0".repeat(64), "Loans", "0").await.status(), 403);
    assert!(menus_of(&app, &api).await.is_empty(), "nothing made");

    // Added at the top and under it, as the API lists them.
    let added = add(&csrf, "Loans", "0").await;
    assert_eq!(added.status(), 303);
    assert_eq!(added.headers()["location"], "/app/access");
    let listed: Value = app.get("/api/v1/menus", &api).await.json().await.expect("json");
    let loans = listed[0]["menuId"].as_i64().expect("menuId");
    assert_eq!(add(&csrf, "Home loans", &loans.to_string()).await.status(), 303);
    assert_eq!(menus_of(&app, &api).await, [("Loans".to_string(), None), ("Home loans".to_string(), Some(loans))]);

    // Granting: an id that is not the tenant's refuses the whole grant; then Loans to the
    // Retail department and to Sara, as the API reads them back.
    let (loans_id, retail_id, sara_id) = (loans.to_string(), retail.to_string(), sara.to_string());
    let grant = |pairs: &[(&'static str, &str)]| {
        let mut form = vec![("csrf", csrf.as_str())];
        form.extend_from_slice(pairs);
        admin.post(app.url("/app/access/grant"), &form)
    };
    let refused = grant(&[("menu", &loans_id), ("department", &retail_id), ("user", "999999")]).await;
    assert_eq!(refused.status(), 400);
    let refused = refused.text().await.expect("html");
    assert!(refused.contains("role=\"alert\"") && refused.contains("subscriberIds"), "{refused}");
    assert_eq!(grant(&[("menu", &loans_id)]).await.status(), 400, "a grant to nobody");
    let access_of = format!("/api/v1/menus/{loans}/access");
    let access: Value = app.get(&access_of, &api).await.json().await.expect("json");
    assert_eq!((&access["users"], &access["departments"]), (&json!([]), &json!([])), "nothing granted: {access}");
    assert!(menus_of(&app, &sara_api).await.is_empty(), "Sara may use no entry yet");
    let granted = grant(&[("menu", &loans_id), ("department", &retail_id), ("user", &sara_id)]).await;
    assert_eq!(granted.status(), 303);
    let access: Value = app.get(&access_of, &api).await.json().await.expect("json");
    assert_eq!(access["departments"], json!([{"departmentID": retail, "departmentName": "Retail"}]), "{access}");
    assert_eq!(access["users"][0]["subscriberID"], sara, "{access}");
    assert_eq!(menus_of(&app, &sara_api).await, [("Loans".to_string(), None)]);
    let page = admin.get(app.url("/app/access")).await.text().await.expect("html");
    let row = page.split("<tr>").find(|r| r.starts_with("<td>Loans</td>")).expect("the Loans row");
    assert!(row.contains(">Retail <form") && row.contains("sara@bank.example"), "{row}");
    let (take_back_retail, take_back_sara) = (
        format!("/app/access/{loans}/departments/{retail}/take-back"),
        format!("/app/access/{loans}/users/{sara}/take-back"),
    );
    assert!(row.contains(&take_back_retail) && row.contains(&take_back_sara), "a button for each grant: {row}");
    // On a phone in Chromium: every control named, nothing wider than the screen.
    let tag = format!("{backend:?}").to_lowercase();
    let args = json!({"email": tenant.admin_email, "password": ADMIN_PASSWORD, "pages": ["/app/access"]});
    let looked = journey(&app, "look", &format!("{tag}-access"), args).await;
    assert_eq!(looked["statuses"], json!([200]), "{looked}");

    // A sender reads the menus and who may use them, and changes nothing.
    let sender = console_session(&app, "sara@bank.example", GOOD_PASSWORD).await;
    let page = sender.get(app.url("/app/access")).await;
    assert_eq!(page.status(), 200);
    let page = page.text().await.expect("html");
    assert!(page.contains("<div class=\"grant\">Retail</div>") && !page.contains("grant-form"), "{page}");
    assert!(!page.contains("activity-form") && !page.contains("take-back"), "{page}");
    let sender_csrf = csrf_of(&page);
    let form = [("csrf", sender_csrf.as_str()), ("name", "Sales"), ("parent", "0")];
    assert_eq!(sender.post(app.url("/app/access/activities"), &form).await.status(), 403);
    let form = [("csrf", sender_csrf.as_str()), ("menu", loans_id.as_str()), ("department", retail_id.as_str())];
    assert_eq!(sender.post(app.url("/app/access/grant"), &form).await.status(), 403);
    let remove = format!("/app/access/{loans}/delete");
    assert_eq!(sender.post(app.url(&remove), &[("csrf", sender_csrf.as_str())]).await.status(), 403);
    assert_eq!(sender.post(app.url(&take_back_retail), &[("csrf", sender_csrf.as_str())]).await.status(), 403);
    assert_eq!(sender.post(app.url(&take_back_sara), &[("csrf", sender_csrf.as_str())]).await.status(), 403);
    assert_eq!(menus_of(&app, &api).await.len(), 2, "unchanged");
    let access: Value = app.get(&access_of, &api).await.json().await.expect("json");
    assert_eq!(
        (access["users"].as_array().map(Vec::len), access["departments"].as_array().map(Vec::len)),
        (Some(1), Some(1))
    );

    // A grant to someone who cannot use it now (marked inactive) stays listed, marked, with its
    // button; the API's list of who may use the entry leaves them out.
    let meera = signet_testkit::people::signed_in_user(&app, &smtp, &api, "meera@bank.example", 2).await.0;
    assert_eq!(grant(&[("menu", &loans_id), ("user", &meera.to_string())]).await.status(), 303);
    let leave = json!({"userId": meera, "reason": "long leave", "invalidateTokens": true});
    assert_eq!(app.post("/api/v1/users/inactive", &api, leave).await.status(), 204);
    let access: Value = app.get(&access_of, &api).await.json().await.expect("json");
    assert_eq!(access["users"].as_array().map(Vec::len), Some(1), "Sara only: {access}");
    let page = admin.get(app.url("/app/access")).await.text().await.expect("html");
    let row = page.split("<tr>").find(|r| r.starts_with("<td>Loans</td>")).expect("the Loans row");
    let take_back_meera = format!("/app/access/{loans}/users/{meera}/take-back");
    assert!(
        row.contains("meera@bank.example) <span class=\"meta\">(cannot use it now: inactive)</span>")
            && row.contains(&take_back_meera),
        "{row}"
    );
    assert_eq!(admin.post(app.url(&take_back_meera), &[("csrf", csrf.as_str())]).await.status(), 303);
    let page = admin.get(app.url("/app/access")).await.text().await.expect("html");
    assert!(!page.contains("meera@bank.example) <span"), "taken back: {page}");

    // Taking grants back. Refused, nothing taken: a form without this session's token, a grant
    // that does not exist (on the page), an entry of no one here.
    assert_eq!(admin.post(app.url(&take_back_sara), &[("csrf", "0".repeat(64).as_str())]).await.status(), 403);
    let absent = admin
        .post(app.url(&format!("/app/access/{loans}/departments/999999/take-back")), &[("csrf", csrf.as_str())])
        .await;
    assert_eq!(absent.status(), 404);
    assert!(absent.text().await.expect("html").contains("role=\"alert\""));
    let foreign = admin
        .post(app.url(&format!("/app/access/2000000000/users/{sara}/take-back")), &[("csrf", csrf.as_str())])
        .await;
    assert_eq!(foreign.status(), 404);
    assert_eq!(admin.post(app.url("/app/access/x/users/1/take-back"), &[("csrf", csrf.as_str())]).await.status(), 400);
    let access: Value = app.get(&access_of, &api).await.json().await.expect("json");
    assert_eq!(access["users"][0]["subscriberID"], sara, "nothing taken: {access}");
    assert_eq!(access["departments"][0]["departmentID"], retail, "nothing taken: {access}");
    // Sara's grant, then Retail's, as the API reads them back.
    let taken = admin.post(app.url(&take_back_sara), &[("csrf", csrf.as_str())]).await;
    assert_eq!(taken.status(), 303);
    assert_eq!(taken.headers()["location"], "/app/access");
    let access: Value = app.get(&access_of, &api).await.json().await.expect("json");
    assert_eq!((&access["users"], &access["departments"][0]["departmentID"]), (&json!([]), &json!(retail)), "{access}");
    assert!(menus_of(&app, &sara_api).await.is_empty(), "Sara, not in Retail, may use no entry");
    assert_eq!(admin.post(app.url(&take_back_sara), &[("csrf", csrf.as_str())]).await.status(), 404, "taken once");
    assert_eq!(admin.post(app.url(&take_back_retail), &[("csrf", csrf.as_str())]).await.status(), 303);
    let access: Value = app.get(&access_of, &api).await.json().await.expect("json");
    assert_eq!((&access["users"], &access["departments"]), (&json!([]), &json!([])), "{access}");
    let page = admin.get(app.url("/app/access")).await.text().await.expect("html");
    assert!(!page.contains("take-back"), "no grant left to take back: {page}");

    // A signer-role user neither sees nor reaches the screen.
    signet_testkit::people::signed_in_user(&app, &smtp, &api, "sid@bank.example", 3).await;
    let signer = console_session(&app, "sid@bank.example", GOOD_PASSWORD).await;
    let inbox = signer.get(app.url("/app/inbox")).await.text().await.expect("html");
    assert!(!inbox.contains("/app/access"), "{inbox}");
    assert_eq!(signer.get(app.url("/app/access")).await.status(), 403);
    let form = [("csrf", csrf_of(&inbox)), ("name", "Sales".to_string()), ("parent", "0".to_string())];
    assert_eq!(signer.send(signer.http.post(app.url("/app/access/activities")).form(&form)).await.status(), 403);

    // Removing Loans takes Home loans and the grants with it; a second time there is nothing.
    assert_eq!(admin.post(app.url(&remove), &[("csrf", csrf.as_str())]).await.status(), 303);
    assert!(menus_of(&app, &api).await.is_empty(), "both entries gone");
    assert!(menus_of(&app, &sara_api).await.is_empty());
    assert_eq!(admin.post(app.url(&remove), &[("csrf", csrf.as_str())]).await.status(), 404);
}

/// The login modes the API offers an address.
async fn login_modes(app: &TestApp, email: &str) -> Value {
    let modes = app.client.post(app.url("/api/v1/auth/login-modes")).json(&json!({"emailId": email})).send().await;
    modes.expect("modes").json::<Value>().await.expect("json")["loginModes"].clone()
}

async fn people_keep_their_second_factor_and_administrators_the_single_sign_on_providers(backend: Backend) {
    const CLIENT_SECRET: &str = "provider-client-secret-7Q";
    let smtp = SmtpSink::start();
    let dns = signet_testkit::dns::Dns::start().await;
    let app = spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
        config.outbound_allow_private = true;
        config.sso_dns_resolver = Some(dns.addr.to_string());
    })
    .await;
    let tenant = app.tenant("Bank of Examples").await;
    let api = app.token(&tenant).await;
    let (_, sara_api) = signet_testkit::people::signed_in_user(&app, &smtp, &api, "sara@bank.example", 2).await;
    let issuer = discovery_server().await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = admin.get(app.url("/app/login")).await;
    assert_eq!(page.status(), 200);
    let page = page.text().await.expect("html");
    assert!(page.contains("href=\"/app/login\" aria-current=\"page\"") && page.contains("provider-form"), "{page}");
    assert!(page.contains("You sign in with password"), "{page}");
    let csrf = csrf_of(&page);

    // A provider serves only a domain its tenant has proven: the proof is started on the page,
    // which shows the TXT record to publish; checked before it is published, it is refused
    // with what is missing; once published, it is proven.
    let started =
        admin.post(app.url("/app/login/domains"), &[("csrf", csrf.as_str()), ("domain", "Bank.Example")]).await;
    assert_eq!(started.status(), 303);
    let page = unescape(&admin.get(app.url("/app/login")).await.text().await.expect("html"));
    let cell_after = |marker: &str| {
        let rest = page.split(marker).nth(1).unwrap_or_default();
        rest.split("<code>").nth(1).and_then(|c| c.split("</code>").next()).unwrap_or_default().to_string()
    };
    let (record, value) = (cell_after("<td>bank.example</td>"), cell_after("_signet-challenge.bank.example</code>"));
    assert_eq!(record, "_signet-challenge.bank.example", "{page}");
    assert!(value.starts_with("signet-domain-proof=") && page.contains("waiting for the record"), "{page}");
    let check = [("csrf", csrf.as_str()), ("domain", "bank.example")];
    let early = admin.post(app.url("/app/login/domains/check"), &check).await;
    assert_eq!(early.status(), 409);
    assert!(unescape(&early.text().await.expect("html")).contains("does not hold"), "the record is missing");
    dns.publish(&record, &value);
    assert_eq!(admin.post(app.url("/app/login/domains/check"), &check).await.status(), 303);
    let page = admin.get(app.url("/app/login")).await.text().await.expect("html");
    assert!(page.contains("proven ") && !page.contains("waiting for the record"), "{page}");

    // Whether single sign-on stands in for the second factor: off, turned on by the administrator.
    let settings = async || app.get("/api/v1/sso-providers/settings", &api).await.json::<Value>().await.expect("json");
    assert_eq!(settings().await["replacesSecondFactor"], false);
    let on = [("csrf", csrf.as_str()), ("replaces", "on")];
    assert_eq!(admin.post(app.url("/app/login/sso-second-factor"), &on).await.status(), 303);
    assert_eq!(settings().await["replacesSecondFactor"], true);
    assert_eq!(admin.post(app.url("/app/login/sso-second-factor"), &[("csrf", csrf.as_str())]).await.status(), 303);
    assert_eq!(settings().await["replacesSecondFactor"], false);
    let add = |token: &str, domains: &str| {
        let form = [
            ("csrf", token),
            ("name", "bank-staff"),
            ("display_name", "Bank staff login"),
            ("issuer", issuer.as_str()),
            ("client_id", "signet"),
            ("client_secret", CLIENT_SECRET),
            ("domains", domains),
            ("redirect_uris", ""),
        ];
        admin.post(app.url("/app/login/sso-providers"), &form)
    };
    let providers = async || app.get("/api/v1/sso-providers", &api).await.json::<Value>().await.expect("json");

    // Refused on the page with what was typed (never the secret), nothing saved: a domain of
    // no user here; refused outright: a form without this session's token.
    let refused = add(&csrf, "elsewhere.example").await;
    assert_eq!(refused.status(), 400);
    let refused = refused.text().await.expect("html");
    assert!(refused.contains("role=\"alert\"") && refused.contains("emailDomains"), "{refused}");
    assert!(refused.contains("value=\"bank-staff\"") && !refused.contains(CLIENT_SECRET), "{refused}");
    assert_eq!(add(&"0".repeat(64), "bank.example").await.status(), 403);
    assert_eq!(providers().await, json!([]), "nothing saved");
    assert_eq!(login_modes(&app, "sara@bank.example").await, json!(["password", "email_otp"]));

    // Saved: the API lists it (its secret sealed) and offers it to the domain's addresses.
    let saved = add(&csrf, "bank.example").await;
    assert_eq!(saved.status(), 303);
    assert_eq!(saved.headers()["location"], "/app/login");
    let listed = providers().await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(
        (&listed[0]["name"], &listed[0]["hasClientSecret"], &listed[0]["emailDomains"]),
        (&json!("bank-staff"), &json!(true), &json!(["bank.example"])),
        "{listed}"
    );
    assert_eq!(login_modes(&app, "sara@bank.example").await, json!(["password", "email_otp", "sso"]));
    let page = admin.get(app.url("/app/login")).await.text().await.expect("html");
    assert!(page.contains("<td>Bank staff login</td>") && !page.contains(CLIENT_SECRET), "{page}");
    // On a phone in Chromium: the page, and the key of a new second factor shown once.
    let tag = format!("{backend:?}").to_lowercase();
    let pages = json!(["/app/login", {"path": "/app/login", "press": "Set up a second factor"}]);
    let args = json!({"email": tenant.admin_email, "password": ADMIN_PASSWORD, "pages": pages});
    let looked = journey(&app, "look", &format!("{tag}-login"), args).await;
    assert_eq!(looked["statuses"], json!([200, 201]), "{looked}");

    // A sender sees their own logins and second factor, not the providers, and changes none.
    let sara = console_session(&app, "sara@bank.example", GOOD_PASSWORD).await;
    let page = sara.get(app.url("/app/login")).await;
    assert_eq!(page.status(), 200);
    let page = page.text().await.expect("html");
    assert!(page.contains("through Bank staff login") && page.contains("Off: your password alone"), "{page}");
    assert!(!page.contains("provider-form") && !page.contains("providers-heading"), "{page}");
    let sara_csrf = csrf_of(&page);
    let form =
        [("csrf", sara_csrf.as_str()), ("name", "other"), ("issuer", issuer.as_str()), ("domains", "bank.example")];
    assert_eq!(sara.post(app.url("/app/login/sso-providers"), &form).await.status(), 403);
    let provider = listed[0]["providerId"].as_i64().expect("providerId");
    let remove = format!("/app/login/sso-providers/{provider}/delete");
    assert_eq!(sara.post(app.url(&remove), &[("csrf", sara_csrf.as_str())]).await.status(), 403);
    let change = format!("/app/login/sso-providers/{provider}/change");
    let changing = [
        ("csrf", sara_csrf.as_str()),
        ("name", "bank-staff"),
        ("display_name", "Mine"),
        ("issuer", issuer.as_str()),
        ("client_id", "signet"),
        ("domains", "bank.example"),
    ];
    assert_eq!(sara.post(app.url(&change), &changing).await.status(), 403);
    assert_eq!(providers().await, listed, "unchanged");

    // Each provider has its change form, filled in with what is saved, never the secret.
    let page = admin.get(app.url("/app/login")).await.text().await.expect("html");
    let form = page
        .split(&format!("action=\"{change}\""))
        .nth(1)
        .and_then(|f| f.split("</form>").next())
        .expect("the change form");
    assert!(form.contains("value=\"Bank staff login\"") && form.contains("value=\"bank.example\""), "{form}");
    assert!(!page.contains(CLIENT_SECRET), "{page}");
    let change_form =
        |token: &'static str, display: &'static str, domains: &'static str, secret: &'static str, remove: bool| {
            let mut form = vec![
                ("csrf", if token.is_empty() { csrf.clone() } else { token.to_string() }),
                ("name", "bank-staff".to_string()),
                ("display_name", display.to_string()),
                ("issuer", issuer.clone()),
                ("client_id", "signet".to_string()),
                ("client_secret", secret.to_string()),
                ("domains", domains.to_string()),
                ("redirect_uris", String::new()),
            ];
            if remove {
                form.push(("remove_secret", "on".to_string()));
            }
            admin.send(admin.http.post(app.url(&change)).form(&form))
        };
    // Refused on the page with what was typed (never the secret), nothing changed: a domain of
    // no user here, a new secret and its removal at once; refused outright: a forged token,
    // a provider of no one here.
    let refused = change_form("", "Bank login, changed", "elsewhere.example", "typed-secret-9Z", false).await;
    assert_eq!(refused.status(), 400);
    let refused = refused.text().await.expect("html");
    assert!(refused.contains("role=\"alert\"") && refused.contains("emailDomains"), "{refused}");
    assert!(
        refused.contains("value=\"Bank login, changed\"") && refused.contains("value=\"elsewhere.example\""),
        "{refused}"
    );
    assert!(refused.contains(&format!("id=\"change-{provider}\" open")), "the refused form is open: {refused}");
    assert!(!refused.contains("typed-secret-9Z") && !refused.contains(CLIENT_SECRET), "{refused}");
    let both = change_form("", "Bank login", "bank.example", "typed-secret-9Z", true).await;
    assert_eq!(both.status(), 400);
    assert!(both.text().await.expect("html").contains("clientSecret"));
    assert_eq!(
        change_form(
            "0000000000000000000000000000000000000000000000000000000000000000",
            "Bank login",
            "bank.example",
            "",
            false
        )
        .await
        .status(),
        403
    );
    let elsewhere = admin
        .post(
            app.url("/app/login/sso-providers/999999/change"),
            &[
                ("csrf", csrf.as_str()),
                ("name", "bank-staff"),
                ("display_name", "X"),
                ("issuer", issuer.as_str()),
                ("client_id", "signet"),
                ("domains", "bank.example"),
            ],
        )
        .await;
    assert_eq!(elsewhere.status(), 404);
    assert_eq!(providers().await, listed, "unchanged");
    // Changed: the button's text, the secret left empty (kept); then the secret removed.
    let changed = change_form("", "Bank single sign-on", "bank.example", "", false).await;
    assert_eq!(changed.status(), 303);
    assert_eq!(changed.headers()["location"], "/app/login");
    let now = providers().await;
    assert_eq!(
        (&now[0]["displayName"], &now[0]["hasClientSecret"]),
        (&json!("Bank single sign-on"), &json!(true)),
        "{now}"
    );
    assert_eq!((&now[0]["providerId"], &now[0]["emailDomains"]), (&json!(provider), &json!(["bank.example"])), "{now}");
    assert_eq!(change_form("", "Bank single sign-on", "bank.example", "", true).await.status(), 303);
    assert_eq!(providers().await[0]["hasClientSecret"], false);
    let page = admin.get(app.url("/app/login")).await.text().await.expect("html");
    assert!(page.contains("<td>Bank single sign-on</td>") && page.contains("none (public client)"), "{page}");

    // Her second factor: the key shown once at enrolment, a wrong code refused on the page and
    // nothing turned on, the app's code turns it on, as the API then holds her to it.
    let enrolled = sara.post(app.url("/app/login/totp"), &[("csrf", sara_csrf.as_str())]).await;
    assert_eq!(enrolled.status(), 201);
    let enrolled = unescape(&enrolled.text().await.expect("html"));
    let secret = enrolled
        .split("<code id=\"totp-secret\">")
        .nth(1)
        .and_then(|r| r.split('<').next())
        .expect("the key shown")
        .to_string();
    assert!(enrolled.contains(&format!("otpauth://totp/Signet:sara@bank.example?secret={secret}")), "{enrolled}");
    let confirm =
        |code: &str| sara.post(app.url("/app/login/totp/confirm"), &[("csrf", sara_csrf.as_str()), ("code", code)]);
    let now = signet_testkit::people::authenticator_code(&secret, 0);
    let wrong = if now == "000000" { "111111" } else { "000000" };
    let refused = confirm(wrong).await;
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.expect("html").contains("role=\"alert\""));
    assert_eq!(confirm("12345").await.status(), 400);
    let page = sara.get(app.url("/app/login")).await.text().await.expect("html");
    assert!(page.contains("Started, not yet confirmed") && !page.contains(&secret), "the key is not shown again");
    assert_eq!(signet_testkit::people::login(&app, "sara@bank.example", GOOD_PASSWORD).await.status(), 200);
    let confirmed = confirm(&now).await;
    assert_eq!(confirmed.status(), 303);
    assert_eq!(confirmed.headers()["location"], "/app/login");
    signet_testkit::problem::expect_problem(
        app.post("/api/v1/users/me/totp", &sara_api, json!(null)).await,
        409,
        "state_conflict",
    )
    .await;
    let needs_code = signet_testkit::people::login(&app, "sara@bank.example", GOOD_PASSWORD).await;
    signet_testkit::problem::expect_problem(needs_code, 400, "invalid_grant").await;
    assert!(sara.get(app.url("/app/login")).await.text().await.expect("html").contains("On: signing in"));
    // Turned off with a current code (a used or wrong one is refused, and it stays on).
    let disable =
        |code: &str| sara.post(app.url("/app/login/totp/disable"), &[("csrf", sara_csrf.as_str()), ("code", code)]);
    assert_eq!(disable(&now).await.status(), 400, "a code works once");
    assert_eq!(signet_testkit::people::login(&app, "sara@bank.example", GOOD_PASSWORD).await.status(), 400);
    assert_eq!(disable(&signet_testkit::people::authenticator_code(&secret, 1)).await.status(), 303);
    assert_eq!(signet_testkit::people::login(&app, "sara@bank.example", GOOD_PASSWORD).await.status(), 200);

    // A signer-role user has the screen for their own second factor, without the providers.
    signet_testkit::people::signed_in_user(&app, &smtp, &api, "sid@bank.example", 3).await;
    let signer = console_session(&app, "sid@bank.example", GOOD_PASSWORD).await;
    let page = signer.get(app.url("/app/login")).await.text().await.expect("html");
    assert!(page.contains("href=\"/app/login\"") && !page.contains("provider-form"), "{page}");
    assert_eq!(signer.post(app.url(&remove), &[("csrf", csrf_of(&page).as_str())]).await.status(), 403);

    // The administrator removes the provider: the API lists none and offers it no more.
    assert_eq!(admin.post(app.url(&remove), &[("csrf", csrf.as_str())]).await.status(), 303);
    assert_eq!(providers().await, json!([]));
    assert_eq!(login_modes(&app, "sara@bank.example").await, json!(["password", "email_otp"]));
    assert_eq!(admin.post(app.url(&remove), &[("csrf", csrf.as_str())]).await.status(), 404);
}

/// The lot form's fields: the signer, a name and the workflows ticked.
fn lot_form<'a>(csrf: &'a str, signer: &'a str, name: &'a str, workflows: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    let mut form = vec![("csrf", csrf), ("signer", signer), ("name", name)];
    form.extend(workflows.iter().map(|w| ("workflow", *w)));
    form
}

async fn senders_make_lots_that_their_signer_signs_from_the_inbox(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = console_app(backend, &smtp).await;
    let tenant = app.tenant("Bank of Examples").await;
    let api = app.token(&tenant).await;
    let sid = "sid@bank.example";
    let (sid_id, _) = signet_testkit::people::signed_in_user(&app, &smtp, &api, sid, 3).await;
    signet_testkit::people::signed_in_user(&app, &smtp, &api, "sara@bank.example", 2).await;
    let (lease_a, _) = workflow_for(&app, &api, "Lease A", &[sid]).await;
    let (lease_b, _) = workflow_for(&app, &api, "Lease B", &[sid]).await;
    let (elsewhere, _) = workflow_for(&app, &api, "Someone else's", &["om@outside.example"]).await;
    let other = app.tenant("Other Bank").await;
    let other_api = app.token(&other).await;
    let (foreign, _) = workflow_for(&app, &other_api, "Foreign lease", &[sid]).await;

    // The sender chooses Sid and sees the workflows waiting for him, and only those.
    let sara = console_session(&app, "sara@bank.example", GOOD_PASSWORD).await;
    let page = unescape(&sara.get(app.url("/app/lots")).await.text().await.expect("html"));
    assert!(page.contains("href=\"/app/lots\" aria-current=\"page\">Lots<"), "{page}");
    assert!(page.contains(&format!("<option value=\"{sid_id}\">")), "{page}");
    let csrf = csrf_of(&page);
    let page = sara.get(app.url(&format!("/app/lots?signer={sid_id}"))).await.text().await.expect("html");
    assert!(page.contains("Lease A") && page.contains("Lease B"), "{page}");
    assert!(!page.contains("Someone else") && !page.contains("Foreign lease"), "{page}");
    assert_eq!(sara.get(app.url("/app/lots?signer=999999")).await.status(), 400, "no such signer");
    let theirs = format!("/app/lots?signer={}", other.admin_user_id);
    assert_eq!(sara.get(app.url(&theirs)).await.status(), 400, "not a user of this organisation");
    // On a phone in Chromium: every control named, nothing wider than the screen.
    let tag = format!("{backend:?}").to_lowercase();
    let pages = json!(["/app/lots", format!("/app/lots?signer={sid_id}")]);
    let args = json!({"email": "sara@bank.example", "password": GOOD_PASSWORD, "pages": pages});
    let looked = journey(&app, "look", &format!("{tag}-lots"), args).await;
    assert_eq!(looked["statuses"], json!([200, 200]), "{looked}");

    // Refused on the page with what was typed kept, and nothing stored: a workflow not waiting
    // for Sid, another organisation's, one that is not a number, no name, no such signer.
    let signer = sid_id.to_string();
    let other_admin = other.admin_user_id.to_string();
    let (a, b, elsewhere, foreign) =
        (lease_a.to_string(), lease_b.to_string(), elsewhere.to_string(), foreign.to_string());
    let refusals = [
        (lot_form(&csrf, &signer, "Leases", &[&a, &elsewhere]), "has no signature still to come from"),
        (lot_form(&csrf, &signer, "Leases", &[&a, &foreign]), "is not a workflow of the organisation"),
        (lot_form(&csrf, &signer, "Leases", &[&a, "1 OR 1=1"]), "could not be read"),
        (lot_form(&csrf, &signer, "Leases", &[&a, &a]), "is named twice"),
        (lot_form(&csrf, &signer, "", &[&a]), "name: must be 1 to 200 characters"),
        (lot_form(&csrf, &signer, "Leases", &[]), "must name 1 to 1000 workflows"),
        (lot_form(&csrf, "999999", "Leases", &[&a]), "signerUserId"),
        (lot_form(&csrf, &other_admin, "Leases", &[&a]), "signerUserId"),
        (lot_form(&csrf, "", "Leases", &[&a]), "choose who signs the lot"),
    ];
    for (form, says) in refusals {
        let refused = sara.post(app.url("/app/lots"), &form).await;
        assert_eq!(refused.status(), 400, "{says}");
        let html = unescape(&refused.text().await.expect("html"));
        assert!(html.contains("role=\"alert\"") && html.contains(says), "{says}: {html}");
        if form[1].1 == signer && form[2].1 == "Leases" && form.len() > 3 {
            assert!(html.contains("value=\"Leases\""), "the name is kept: {html}");
            assert!(html.contains(&format!("value=\"{a}\" checked")), "the ticks are kept: {html}");
        }
    }
    let forged = sara.post(app.url("/app/lots"), &lot_form("forged", &signer, "Leases", &[&a])).await;
    assert_eq!(forged.status(), 403);
    assert_eq!(app.get("/api/v1/lots/1", &api).await.status(), 404, "no lot was stored");
    assert!(app.store.lots_to_sign(tenant.tenant_id, sid).await.expect("lots").is_empty());

    // Made: the page says so, and the API reads it back.
    let made = sara.post(app.url("/app/lots"), &lot_form(&csrf, &signer, "Leases of November", &[&a, &b])).await;
    assert_eq!(made.status(), 303, "{}", made.text().await.unwrap_or_default());
    let location = made.headers()["location"].to_str().expect("location").to_string();
    let lot_id: i64 = location.split("made=").nth(1).and_then(|id| id.parse().ok()).expect("the lot's id");
    let page = sara.get(app.url(&location)).await.text().await.expect("html");
    assert!(page.contains(&format!("Lot {lot_id} was made")), "{page}");
    let lot: Value = app.get(&format!("/api/v1/lots/{lot_id}"), &api).await.json().await.expect("json");
    assert_eq!((lot["name"].as_str(), lot["signerEmail"].as_str()), (Some("Leases of November"), Some(sid)), "{lot}");
    assert_eq!(lot["workflowIds"], json!([lease_a, lease_b]), "{lot}");

    // Sid finds it in To sign and signs it there; the API shows both workflows completed.
    let sid_console = console_session(&app, sid, GOOD_PASSWORD).await;
    let inbox = sid_console.get(app.url("/app/inbox")).await.text().await.expect("html");
    assert!(inbox.contains(&format!("href=\"/app/lots/{lot_id}\">Leases of November</a>")), "{inbox}");
    let page = sid_console.get(app.url(&format!("/app/lots/{lot_id}"))).await.text().await.expect("html");
    let form = reqwest::multipart::Form::new().text("csrf", csrf_of(&page)).text("consent", "on").part(
        "signature",
        reqwest::multipart::Part::bytes(signet_testkit::pdf::signature_png())
            .file_name("sid.png")
            .mime_str("image/png")
            .expect("mime"),
    );
    let signed =
        sid_console.send(sid_console.http.post(app.url(&format!("/app/lots/{lot_id}/sign"))).multipart(form)).await;
    assert_eq!(signed.status(), 303, "{}", signed.text().await.unwrap_or_default());
    for id in [lease_a, lease_b] {
        let mut details = Value::Null;
        for _ in 0..300 {
            details = app.get(&format!("/api/v1/workflows/{id}"), &api).await.json().await.expect("json");
            if details["state"] == "completed" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(details["state"], "completed", "{details}");
    }

    // A signer-role user has no Lots entry and is refused the page and the form.
    assert!(!unescape(&inbox).contains("href=\"/app/lots\""), "{inbox}");
    assert_eq!(sid_console.get(app.url("/app/lots")).await.status(), 403);
    let (b, c) = (lease_b.to_string(), csrf_of(&inbox));
    let refused = sid_console.post(app.url("/app/lots"), &lot_form(&c, &signer, "Mine", &[&b])).await;
    assert_eq!(refused.status(), 403);
    assert!(app.store.lots_to_sign(tenant.tenant_id, sid).await.expect("lots").is_empty(), "nothing made");
}

/// The workflow a send answered with (`303` to its page).
fn workflow_of_location(sent: &reqwest::Response) -> i64 {
    let location = sent.headers()["location"].to_str().expect("location");
    location.rsplit('/').next().and_then(|i| i.parse().ok()).unwrap_or_else(|| panic!("a workflow page: {location}"))
}

/// A send from a template: its review (the template's boxes drawn, nothing made yet), then
/// **Send** with what the review carries. Answers the review's text and the new workflow.
async fn sent_as_reviewed(app: &TestApp, browser: &Browser, csrf: &str, review: reqwest::Response) -> (String, i64) {
    assert_eq!(review.status(), 200, "the review");
    let review = unescape(&review.text().await.expect("html"));
    assert!(review.contains("<h1>Review and send</h1>") && review.contains("id=\"from-template\""), "{review}");
    let carried: Vec<(String, String)> = hidden_fields(&review, "id=\"review-form\"")
        .into_iter()
        .chain([("csrf".to_string(), csrf.to_string())])
        .collect();
    let sent = browser.send(browser.http.post(app.url("/app/send/start")).form(&carried)).await;
    assert_eq!(sent.status(), 303, "{}", sent.text().await.unwrap_or_default());
    let id = workflow_of_location(&sent);
    (review, id)
}

/// A document asked of the signers on the send form: its name, description and file.
type Asked<'a> = (&'a str, &'a str, Option<(&'a str, &'a [u8])>);
/// Files to attach on the send form: their names and bytes.
type Files<'a> = Vec<(&'a str, &'a [u8])>;

/// The send form with one signer, `files` to attach and `asked` of the signers.
fn attaching_send(csrf: &str, pdf: &[u8], files: &[(&str, &[u8])], asked: &[Asked<'_>]) -> reqwest::multipart::Form {
    let part = |name: &str, bytes: &[u8]| reqwest::multipart::Part::bytes(bytes.to_vec()).file_name(name.to_string());
    let mut form = reqwest::multipart::Form::new()
        .text("csrf", csrf.to_string())
        .text("template", "0")
        .text("name", "Home loan")
        .text("s1_name", "Asha Rao")
        .text("s1_email", "asha@borrower.example")
        .text("s1_order", "1")
        .text("s1_method", "electronic")
        .text("send_mail", "on")
        .part("documents", part("loan.pdf", pdf));
    for (name, bytes) in files {
        form = form.part("attachments", part(name, bytes));
    }
    for (i, (name, description, file)) in asked.iter().enumerate() {
        let n = i + 1;
        form = form
            .text(format!("r{n}_name"), name.to_string())
            .text(format!("r{n}_description"), description.to_string());
        if let Some((file_name, bytes)) = file {
            form = form.part(format!("r{n}_file"), part(file_name, bytes));
        }
    }
    form
}

async fn senders_attach_files_and_ask_the_signers_for_documents(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = console_app(backend, &smtp).await;
    let tenant = app.tenant("Bank of Examples").await;
    let api = app.token(&tenant).await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = admin.get(app.url("/app/send")).await.text().await.expect("html");
    assert!(page.contains("<legend>Attachments</legend>") && page.contains("name=\"r1_file\""), "{page}");
    let csrf = csrf_of(&page);
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Home loan")]);
    let terms: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
    let form_pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Address form")]);
    let asked =
        ("Proof of address", "A utility bill of the last three months", Some(("address-form.pdf", &form_pdf[..])));
    let sent_count = async || {
        let listed: Value = app.get("/api/v1/workflows", &api).await.json().await.expect("json");
        listed["totalCount"].as_i64()
    };

    // Refused on the first form as the API refuses them, what was typed kept, nothing sent: a file
    // over 10 MB, a name with slashes, a request without its file, more than 20 files.
    let big = vec![7u8; 10 * 1024 * 1024 + 1];
    let many: Vec<(String, Vec<u8>)> = (0..21).map(|i| (format!("note-{i}.txt"), vec![b'x'; 10])).collect();
    let many: Vec<(&str, &[u8])> = many.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
    let refusals: [(Files<'_>, Vec<Asked<'_>>, &str); 4] = [
        (vec![("statement.bin", &big[..])], vec![asked], "attachment 1: the file is larger than 10485760 bytes"),
        (vec![("../../etc/passwd", &terms[..])], vec![asked], "without control characters or slashes"),
        (
            vec![("terms.bin", &terms[..])],
            vec![("Proof of address", "A utility bill", None)],
            "requested document 1: is required",
        ),
        (many, vec![asked], "at most 20 attachments in all"),
    ];
    for (files, asks, says) in refusals {
        let refused = admin
            .send(admin.http.post(app.url("/app/send")).multipart(attaching_send(&csrf, &pdf, &files, &asks)))
            .await;
        assert_eq!(refused.status(), 400, "{says}");
        let html = unescape(&refused.text().await.expect("html"));
        assert!(html.contains("role=\"alert\"") && html.contains(says), "{says}: {html}");
        assert!(
            html.contains("value=\"Proof of address\"") && html.contains("value=\"asha@borrower.example\""),
            "{html}"
        );
    }
    assert_eq!(sent_count().await, Some(0), "nothing sent");

    // Accepted: the placement screen carries the staged files, which a changed form cannot swap
    // for a file that is not staged here.
    let placing = admin
        .send(admin.http.post(app.url("/app/send")).multipart(attaching_send(
            &csrf,
            &pdf,
            &[("terms.bin", &terms[..])],
            &[asked],
        )))
        .await;
    assert_eq!(placing.status(), 200);
    let placing = unescape(&placing.text().await.expect("html"));
    assert!(
        placing.contains("Attached: terms.bin") && placing.contains("Asked of the signers: Proof of address"),
        "{placing}"
    );
    let fields = hidden_fields(&placing, "id=\"place-form\"");
    let keys: Vec<String> = fields.iter().filter(|(k, _)| k == "att_key").map(|(_, v)| v.clone()).collect();
    assert_eq!(keys.len(), 2, "{fields:?}");
    let start = |fields: Vec<(String, String)>| admin.send(admin.http.post(app.url("/app/send/start")).form(&fields));
    let other = app.tenant("Other Bank").await;
    for forged in [
        format!("tenant/{}/staged/{}", other.tenant_id, keys[0].rsplit('/').next().unwrap_or_default()),
        format!("tenant/{}/attachments/x", tenant.tenant_id),
        "../../signet.db".to_string(),
    ] {
        let changed: Vec<(String, String)> =
            fields.iter().map(|(k, v)| (k.clone(), if *v == keys[0] { forged.clone() } else { v.clone() })).collect();
        let refused = start(changed).await;
        assert_eq!(refused.status(), 400, "{forged}");
        assert!(refused.text().await.expect("html").contains("an attachment is no longer there"), "{forged}");
    }
    let unpaired: Vec<(String, String)> = fields.iter().filter(|(k, _)| k != "att_name").cloned().collect();
    assert_eq!(start(unpaired).await.status(), 400);
    assert_eq!(sent_count().await, Some(0), "nothing sent");

    // A signer-role user may not send with them.
    signet_testkit::people::signed_in_user(&app, &smtp, &api, "sid@bank.example", 3).await;
    let sid = console_session(&app, "sid@bank.example", GOOD_PASSWORD).await;
    let sid_csrf = csrf_of(&sid.get(app.url("/app/inbox")).await.text().await.expect("html"));
    let theirs: Vec<(String, String)> =
        fields.iter().map(|(k, v)| (k.clone(), if k == "csrf" { sid_csrf.clone() } else { v.clone() })).collect();
    assert_eq!(sid.send(sid.http.post(app.url("/app/send/start")).form(&theirs)).await.status(), 403);
    assert_eq!(sent_count().await, Some(0), "nothing sent");

    // Sent: the workflow page lists both, and each downloads as given, from the console and the API.
    let sent = start(fields).await;
    assert_eq!(sent.status(), 303, "{}", sent.text().await.unwrap_or_default());
    let id: i64 = workflow_of_location(&sent);
    let page = admin.get(app.url(&format!("/app/workflows/{id}"))).await.text().await.expect("html");
    assert!(page.contains("(asked of the signers: A utility bill of the last three months)"), "{page}");
    let links: Vec<String> = page
        .split(&format!("href=\"/app/workflows/{id}/attachments/"))
        .skip(1)
        .filter_map(|rest| rest.split('"').next().map(str::to_string))
        .collect();
    assert_eq!(links.len(), 2, "{page}");
    let mut given = Vec::new();
    for attachment in &links {
        let console = admin.get(app.url(&format!("/app/workflows/{id}/attachments/{attachment}"))).await;
        assert_eq!(console.status(), 200);
        let console = console.bytes().await.expect("bytes").to_vec();
        let through_api = app.get(&format!("/api/v1/workflows/{id}/attachments/{attachment}"), &api).await;
        assert_eq!(through_api.status(), 200);
        assert_eq!(through_api.bytes().await.expect("bytes").to_vec(), console);
        given.push(console);
    }
    assert!(given.contains(&terms) && given.contains(&form_pdf), "both downloaded as given");
    let workflow = app.store.workflow(tenant.tenant_id, id.into()).await.expect("read").expect("workflow");
    let stored = app.store.attachments(&workflow).await.expect("attachments");
    let kinds: Vec<(&str, &str)> = stored.iter().map(|a| (a.kind.as_str(), a.name.as_str())).collect();
    assert_eq!(kinds, [("initiator", "terms.bin"), ("requested", "Proof of address")], "{kinds:?}");
    for key in &keys {
        let key = signet_blob::BlobKey::parse(key).expect("key");
        assert!(!app.state.services.blob.exists(&key).await.expect("exists"), "the staged copy is removed once sent");
    }
    // The signer is asked for the document on their page.
    let link = signer_link(&smtp, "asha@borrower.example", "Home loan").await;
    let signer_page = reqwest::get(&link).await.expect("page").text().await.expect("html");
    assert!(signer_page.contains("<option>Proof of address</option>"), "{signer_page}");
}

async fn senders_review_what_they_send_and_nothing_is_made_before_they_confirm(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = console_app(backend, &smtp).await;
    let tenant = app.tenant("Bank of Examples").await;
    let api = app.token(&tenant).await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let csrf = csrf_of(&admin.get(app.url("/app/send")).await.text().await.expect("html"));
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Home loan")]);
    let terms = b"Terms and conditions, version 8".to_vec();
    let form = attaching_send(&csrf, &pdf, &[("terms.txt", &terms[..])], &[])
        .text("s2_name", "Ravi Iyer")
        .text("s2_email", "ravi@guarantor.example")
        .text("s2_order", "2")
        .text("s2_method", "electronic")
        // Any number of signers: a row added on the form past the rows it opened with.
        .text("s6_name", "Kiran Shah")
        .text("s6_email", "kiran@branch.example")
        .text("s6_order", "3")
        .text("s6_method", "electronic")
        .text("reference", "HL-2026-0042")
        .text("expiry_days", "30")
        .text("reminder_days", "3")
        .text("message", "Asha, Ravi:\nplease sign by Friday.");
    let placing = admin.send(admin.http.post(app.url("/app/send")).multipart(form)).await;
    assert_eq!(placing.status(), 200);
    let placing = unescape(&placing.text().await.expect("html"));
    assert!(placing.contains("action=\"/app/send/review\"") && placing.contains(">Next: review<"), "{placing}");
    let mut fields = hidden_fields(&placing, "id=\"place-form\"");
    // As the placement screen's script writes them: a signature box for each, a date for Ravi.
    let boxes = ["1:0:1:72:600:160:55", "2:0:1:320:600:160:55", "2:0:1:320:670:100:20:date:0:"];
    fields.extend(boxes.iter().map(|b| ("field".to_string(), b.to_string())));
    fields.push(("template_name".into(), "Two signers at the foot".into()));
    let post =
        |path: &'static str, fields: Vec<(String, String)>| admin.send(admin.http.post(app.url(path)).form(&fields));
    let nothing_made = async || {
        let listed: Value = app.get("/api/v1/workflows", &api).await.json().await.expect("json");
        assert_eq!(listed["totalCount"], 0, "no workflow: {listed}");
        assert!(app.store.templates(tenant.tenant_id).await.expect("templates").is_empty(), "no template");
    };

    // The review: signatories in order with their method, the settings, the attachment, the
    // template to be saved, and the pages with the three boxes drawn; nothing is made yet.
    let review = post("/app/send/review", fields.clone()).await;
    assert_eq!(review.status(), 200);
    let review = unescape(&review.text().await.expect("html"));
    assert!(review.contains("<h1>Review and send</h1>"), "{review}");
    let signers = review.split("id=\"review-signers\"").nth(1).expect("signatories");
    let (asha, ravi) = (signers.find("Asha Rao").expect("Asha"), signers.find("Ravi Iyer").expect("Ravi"));
    assert!(asha < ravi && signers.contains("<td>Electronic signature</td>"), "{review}");
    for fact in [
        "<dt>Expires</dt><dd>After 30 days</dd>",
        "<dt>Reminders</dt><dd>Every 3 days</dd>",
        "No e-stamping",
        "Attached: terms.txt",
        "<dd>Two signers at the foot</dd>",
        "Date signed of Ravi Iyer: loan.pdf, page 1",
        "<span class=\"said\" id=\"review-message\">Asha, Ravi:\nplease sign by Friday.</span>",
        "<p id=\"review-reference\">Reference: HL-2026-0042</p>",
    ] {
        assert!(review.contains(fact), "{fact}: {review}");
    }
    assert_eq!(review.matches("<rect class=\"review-box").count(), 3, "{review}");
    assert!(review.contains("x=\"320\" y=\"670\" width=\"100\" height=\"20\""), "{review}");
    let document = fields.iter().find(|(k, _)| k == "document").map(|(_, v)| v.clone()).expect("document");
    assert!(review.contains(&format!("<image href=\"/app/send/documents/{document}/pages/1\"")), "{review}");
    nothing_made().await;

    // Abandoned after the review: still nothing. Back to change: the placement screen with the
    // boxes as they were.
    let carried = hidden_fields(&review, "id=\"review-form\"");
    let back = post("/app/send/place", carried.clone()).await;
    assert_eq!(back.status(), 200);
    let back = unescape(&back.text().await.expect("html"));
    for b in boxes {
        assert!(back.contains(&format!("name=\"field\" value=\"{b}\"")), "{b}: {back}");
    }
    assert!(back.contains("value=\"Two signers at the foot\""), "{back}");
    nothing_made().await;

    // Refused to the placement screen, the boxes kept, nothing made: a box of a signatory who is
    // not there, an address that is not one, a forged token; a signer-role user is refused.
    let with = |name: &str, value: &str| {
        let mut changed: Vec<(String, String)> = fields.iter().filter(|(k, _)| k != name).cloned().collect();
        changed.push((name.to_string(), value.to_string()));
        changed
    };
    let mut stray = fields.clone();
    stray.push(("field".into(), "9:0:1:72:600:160:55".into()));
    for (form, says) in [
        (stray, "a placed box could not be read"),
        (with("s2_email", "not an address"), "must be a valid e-mail address"),
    ] {
        let refused = post("/app/send/review", form).await;
        assert_eq!(refused.status(), 400, "{says}");
        let html = unescape(&refused.text().await.expect("html"));
        assert!(html.contains("role=\"alert\"") && html.contains(says), "{says}: {html}");
        assert!(html.contains("name=\"field\" value=\"1:0:1:72:600:160:55\""), "the boxes are kept: {html}");
    }
    assert_eq!(post("/app/send/review", with("csrf", "forged")).await.status(), 403);
    signet_testkit::people::signed_in_user(&app, &smtp, &api, "sid@bank.example", 3).await;
    let sid = console_session(&app, "sid@bank.example", GOOD_PASSWORD).await;
    let sid_csrf = csrf_of(&sid.get(app.url("/app/inbox")).await.text().await.expect("html"));
    for path in ["/app/send/review", "/app/send/place", "/app/send/start"] {
        let theirs: Vec<(String, String)> =
            carried.iter().cloned().chain([("csrf".to_string(), sid_csrf.clone())]).collect();
        assert_eq!(sid.send(sid.http.post(app.url(path)).form(&theirs)).await.status(), 403, "{path}");
    }
    nothing_made().await;

    // Send: the workflow is what was reviewed, read back through the API.
    let sent = post("/app/send/start", carried.into_iter().chain([("csrf".to_string(), csrf.clone())]).collect()).await;
    assert_eq!(sent.status(), 303, "{}", sent.text().await.unwrap_or_default());
    let id: i64 = workflow_of_location(&sent);
    let details: Value = app.get(&format!("/api/v1/workflows/{id}"), &api).await.json().await.expect("json");
    assert_eq!(details["state"], "in_progress", "{details}");
    let emails: Vec<&str> =
        details["signatories"].as_array().expect("signatories").iter().filter_map(|s| s["emailId"].as_str()).collect();
    assert_eq!(emails, ["asha@borrower.example", "ravi@guarantor.example", "kiran@branch.example"], "{details}");
    assert_eq!(details["referenceNo"], "HL-2026-0042", "{details}");
    let stored = signet_services::workflows::queries::details(&app.state.services, &administrator(&tenant), id.into())
        .await
        .expect("workflow");
    let placement: Value = serde_json::to_value(&stored.signatories[1].placement).expect("placement");
    assert_eq!(
        (placement["boxes"][0]["left"].as_f64(), placement["fields"][0]["kind"].as_str()),
        (Some(320.0), Some("date")),
        "{placement}"
    );
    assert_eq!(app.store.templates(tenant.tenant_id).await.expect("templates").len(), 1);
    let workflow = app.store.workflow(tenant.tenant_id, id.into()).await.expect("read").expect("workflow");
    assert_eq!(
        signet_services::workflows::initiate::message_of(&workflow).as_deref(),
        Some("Asha, Ravi:\nplease sign by Friday.")
    );

    // The dashboard: the count in progress, whom the workflow waits for (the first signer
    // only), and the list found by a signer's address or the reference, not by a stranger's.
    let (admin, app) = (&admin, &app);
    let listed = |query: &'static str| async move {
        let page = admin.get(app.url(&format!("/app{query}"))).await;
        assert_eq!(page.status(), 200, "{query}");
        unescape(&page.text().await.expect("html"))
    };
    let home = listed("").await;
    let counts = home.split("id=\"counts\"").nth(1).and_then(|c| c.split("</ul>").next()).expect("counts");
    assert!(counts.contains("<span class=\"number\">1</span> <span class=\"label\">In progress</span>"), "{counts}");
    let waiting = home.split("class=\"waiting\"").nth(1).and_then(|c| c.split("</td>").next()).expect("waiting");
    assert!(waiting.contains(">Asha Rao<") && !waiting.contains("Ravi") && waiting.contains("since "), "{waiting}");
    for query in ["?q=RAVI%40guarantor", "?q=HL-2026", "?q=Kiran"] {
        assert!(listed(query).await.contains(&format!("href=\"/app/workflows/{id}\"")), "{query}");
    }
    assert!(listed("?q=nobody%40else").await.contains("No workflows match."));

    // The workflow's page in words: states and the timeline with names, no internal codes.
    let page = admin.get(app.url(&format!("/app/workflows/{id}"))).await.text().await.expect("html");
    let page = unescape(&page);
    let timeline = page.split("class=\"timeline\"").nth(1).and_then(|t| t.split("</ol>").next()).expect("timeline");
    assert!(timeline.contains("<strong>The workflow was sent</strong>"), "{timeline}");
    assert!(timeline.contains("<strong>Asha Rao was sent their link</strong>"), "{timeline}");
    assert!(!timeline.contains("signatory.") && !timeline.contains("user:"), "{timeline}");
    assert!(page.contains("<td>Link sent</td>") && page.contains("<td>Waiting for their turn</td>"), "{page}");
}

/// A template of the administrator's that keeps a two-page document, with a signature box and
/// a labelled text field (so that its page shows a preview and rows of places).
async fn a_kept_template(app: &TestApp, tenant: &signet_server::provision::ProvisionedTenant) -> i64 {
    use signet_domain::access::{Access, Role};
    use signet_services::workflows::templates;
    let actor = Actor { id: format!("user:{}", tenant.admin_user_id), ip: None };
    let admin = signet_services::Caller {
        tenant_id: tenant.tenant_id,
        principal_id: tenant.admin_user_id,
        is_user: true,
        access: Access::builtin(Role::Administrator),
        actor,
    };
    let pdf = signet_testkit::pdf::reportlab_pdf(&[
        signet_testkit::pdf::Page::text("Loan agreement"),
        signet_testkit::pdf::Page::text("Borrower signs below"),
    ]);
    let checked = signet_services::workflows::documents::check_pdf("document", "loan.pdf".into(), pdf).expect("a PDF");
    let definition: templates::TemplateDefinition = serde_json::from_value(json!({"fields": [
        {"signatory": 1, "page": 2, "left": 72, "top": 600, "width": 160, "height": 50},
        {"signatory": 1, "kind": "text", "label": "Loan number", "page": 1, "left": 72, "top": 120, "width": 160, "height": 20}
    ]}))
    .expect("definition");
    let svc = &app.state.services;
    let made = templates::create_keeping(svc, &admin, Some("Loan agreement"), None, definition, Some(checked)).await;
    made.expect("template").id.get()
}

/// Every section of the menu, as an administrator sees it on a phone, audited by axe-core for
/// WCAG 2.1 A and AA (contrast, names, landmarks, headings, ...) besides the driver's own checks;
/// the journeys above audit the same screens with data on them.
async fn every_section_meets_wcag_2_1_aa_on_a_phone(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = console_app(backend, &smtp).await;
    let tenant = app.tenant("Bank of Examples").await;
    let template = a_kept_template(&app, &tenant).await;
    let template_page = format!("/app/templates/{template}");
    let sections = [
        "/app",
        "/app/send",
        "/app/bulk",
        "/app/templates",
        template_page.as_str(),
        "/app/lots",
        "/app/inbox",
        "/app/people",
        "/app/roles",
        "/app/departments",
        "/app/access",
        "/app/login",
        "/app/signing",
        "/app/stamps",
        "/app/invoices",
        "/app/gateway",
        "/app/webhooks",
        "/app/exports",
        "/app/audit",
        "/app/verify",
    ];
    let tag = format!("{backend:?}").to_lowercase();
    let args = json!({"email": tenant.admin_email, "password": ADMIN_PASSWORD, "pages": sections});
    let looked = journey(&app, "look", &format!("{tag}-sections"), args).await;
    assert_eq!(looked["statuses"], json!(vec![200; sections.len()]), "{looked}");
    // The same in Hindi, whose words run longer: still nothing wider than the phone.
    let args = json!({"email": tenant.admin_email, "password": ADMIN_PASSWORD, "pages": sections, "locale": "hi-IN"});
    let looked = journey(&app, "look", &format!("{tag}-sections-hi"), args).await;
    assert_eq!(looked["statuses"], json!(vec![200; sections.len()]), "{looked}");
}

/// The front door: the bare address, `/app/` and a bookmarked sign-in page (no application
/// named) lead to the console, which asks for a sign-in that returns to it.
#[tokio::test]
async fn the_front_door_leads_to_the_console() {
    let app = signet_testkit::server::spawn(Backend::Sqlite).await;
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    for path in ["/", "/app/", "/account/sign-in"] {
        let response = http.get(app.url(path)).send().await.expect("answer");
        assert_eq!(response.status(), 303, "{path}");
        assert_eq!(response.headers()["location"], "/app", "{path}");
    }
    let console = http.get(app.url("/app")).send().await.expect("console");
    assert_eq!(console.status(), 303);
    let sign_in = console.headers()["location"].to_str().expect("location");
    assert!(sign_in.starts_with("/account/sign-in?return_to="), "{sign_in}");

    // Inside, the send form offers only the methods this installation has: no Aadhaar eSign
    // without an eSign provider.
    let tenant = app.tenant("Front Door Bank").await;
    let browser = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let form = browser.get(app.url("/app/send")).await.text().await.expect("html");
    assert!(form.contains("value=\"electronic\"") && form.contains("value=\"dsc_token\""), "{form}");
    assert!(!form.contains("value=\"aadhaar_esign\""), "no eSign provider, no eSign offered");
}
