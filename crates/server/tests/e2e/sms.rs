//! The SMS channel for workflow signers (issue 37, item 8), on both backends, through the real
//! Twilio adapter against the local provider double (`signet_testkit::sms`): a signatory's
//! invitation and reminders are texted with their working link; a number that is not a mobile
//! number is refused with a 400 naming the field; a provider that fails is tried again while
//! the e-mail goes at once; a number the provider refuses is on the timeline, not retried;
//! without an SMS provider nothing offers a mobile number; and a signer asked for a code by SMS
//! (`otpBySms`) signs only after typing it (wrong five times kills it, an expired one is
//! refused, a new one waits a minute, only its keyed hash is stored). Initiate-and-sign texts a
//! signer whose `contactNo` is a mobile number (any other number is no refusal), and a bulk
//! send's rows give each signer's mobile number and code as columns. In Chromium, a borrower on
//! a phone, in Hindi, by keyboard alone, confirms their phone with the texted code and signs,
//! every page passing the accessibility audit.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_store::Backend;
use signet_testkit::console::console_session;
use signet_testkit::on_both_backends;
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn_with};
use signet_testkit::sms::SmsDouble;
use signet_testkit::smtp::SmtpSink;

use crate::support::guided;

on_both_backends!(
    sms_invitations_and_reminders_carry_the_working_link,
    sms_numbers_that_are_not_mobile_numbers_are_refused_and_nothing_offers_sms_unconfigured,
    sms_a_failing_provider_is_tried_again_and_never_holds_back_the_email,
    sms_a_signer_asked_for_a_code_signs_only_after_typing_it,
    sms_a_delegate_of_a_signer_asked_for_a_code_confirms_their_own,
    sms_reaches_signers_of_initiate_and_sign_and_of_bulk_rows,
    sms_a_signer_confirms_their_phone_in_a_browser_and_signs,
);

const ADMIN_PASSWORD: &str = "correct horse battery";

async fn app_with_sms(backend: Backend, smtp: &SmtpSink, sms: &SmsDouble) -> TestApp {
    spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
        config.job_retry_base_ms = 50;
        sms.configure(config);
    })
    .await
}

/// A tenant's API token and a workflow of one PDF sent to `signatories` (e-mailed).
async fn send(app: &TestApp, token: &str, name: &str, signatories: Value) -> reqwest::Response {
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text(name)]);
    let body = json!({"documentName": "loan.pdf", "fileData": STANDARD.encode(pdf)});
    let uploaded: Value = app.post("/api/v1/documents", token, body).await.json().await.expect("json");
    let document = uploaded["documentId"].as_i64().expect("documentId");
    let body = json!({"templateId": 0, "workflowName": name, "documentIds": [document], "sendMail": true,
        "signatories": signatories});
    app.post("/api/v1/workflows", token, body).await
}

/// The signer link in an e-mail.
fn link_in_mail(mail: &Value) -> String {
    let text = mail["text"].as_str().expect("text part");
    text.split_whitespace().find(|w| w.contains("/sign/w/")).expect("a signer link").to_string()
}

/// The workflow's events, as the API answers them.
async fn audit(app: &TestApp, token: &str, id: i64) -> String {
    app.get(&format!("/api/v1/workflows/{id}/audit"), token).await.text().await.expect("audit")
}

/// Waits (up to 20 s) until the workflow's events include `action`.
async fn wait_for_event(app: &TestApp, token: &str, id: i64, action: &str) -> String {
    for _ in 0..400 {
        let events = audit(app, token, id).await;
        if events.contains(action) {
            return events;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no {action} on workflow {id}: {}", audit(app, token, id).await);
}

async fn sms_invitations_and_reminders_carry_the_working_link(backend: Backend) {
    let (smtp, sms) = (SmtpSink::start(), SmsDouble::start().await);
    let app = app_with_sms(backend, &smtp, &sms).await;
    let tenant = app.tenant("Bank of Examples").await;
    let token = app.token(&tenant).await;
    let signatories = json!([
        {"subscriberId": 0, "emailId": "asha@borrower.example", "name": "Asha Rao", "signingOrder": 1,
         "mobileNo": "98765 43210"},
        {"subscriberId": 0, "emailId": "ravi@guarantor.example", "name": "Ravi Iyer", "signingOrder": 1}
    ]);
    let created = send(&app, &token, "Loan offer", signatories).await;
    assert_eq!(created.status(), 201);
    let created: Value = created.json().await.expect("json");
    let id = created["workflowId"].as_i64().expect("id");
    let urls = created["signingUrls"].as_array().expect("urls");
    assert_eq!(urls[0]["mobileNo"], "+919876543210", "kept in international form: {created}");
    assert_eq!(urls[1]["mobileNo"], Value::Null);

    // The invitation: the organisation, the document and the same working link as the e-mail.
    let text = sms.wait_for("+919876543210", "Loan offer").await;
    assert!(text.body.starts_with("Bank of Examples asks you to sign \"Loan offer\": http"), "{text:?}");
    assert_eq!(text.from, signet_testkit::sms::FROM);
    let mail = smtp.wait_for("asha@borrower.example", "Please sign: Loan offer").await;
    let link = link_in_mail(&mail);
    assert!(text.body.ends_with(&link), "the e-mail's link: {text:?} {link}");
    assert_eq!(reqwest::get(&link).await.expect("page").status(), 200, "the link works");
    smtp.wait_for("ravi@guarantor.example", "Please sign: Loan offer").await;
    let events = wait_for_event(&app, &token, id, "signatory.sms_sent").await;
    assert!(events.contains("+********3210") && !events.contains("9876543210"), "masked: {events}");
    assert_eq!(sms.messages().len(), 1, "only the signer with a mobile number is texted");

    // A reminder by hand (an hour after the invitation) is texted too, with the same link.
    app.store.execute_for_tests("UPDATE signatories SET notified_at = notified_at - 7200000").await.expect("earlier");
    let asha = urls[0]["identificationNumber"].as_str().expect("signatory id");
    let reminded = app.post(&format!("/api/v1/workflows/{id}/signatories/{asha}/remind"), &token, json!({})).await;
    assert_eq!(reminded.status(), 204);
    let reminder = sms.wait_for("+919876543210", "Reminder: Bank of Examples asks you to sign").await;
    assert!(reminder.body.ends_with(&link), "{reminder:?}");

    // The console offers a mobile number on the send form and words the texts on the timeline.
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let form = admin.get(app.url("/app/send")).await.text().await.expect("html");
    assert!(form.contains("name=\"s1_mobile\"") && form.contains("Mobile for SMS (optional)"), "{form}");
    assert!(form.contains("name=\"s1_otp\"") && form.contains("Ask for a code by SMS"), "{form}");
    let page = admin.get(app.url(&format!("/app/workflows/{id}"))).await.text().await.expect("html");
    let page = signet_testkit::problem::unescape(&page);
    assert!(page.contains("Asha Rao was sent their link by SMS"), "{page}");
}

async fn sms_numbers_that_are_not_mobile_numbers_are_refused_and_nothing_offers_sms_unconfigured(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = spawn_with(backend, |config| config.smtp_url = Some(smtp.url())).await;
    let tenant = app.tenant("Plain Bank").await;
    let token = app.token(&tenant).await;
    for typed in ["12345", "+91 98765 4321x", "5876543210", "+0919876543210"] {
        let signatories =
            json!([{"subscriberId": 0, "emailId": "asha@borrower.example", "signingOrder": 1, "mobileNo": typed}]);
        let refused = send(&app, &token, "Loan offer", signatories).await;
        let problem = expect_problem(refused, 400, "validation_failed").await;
        let why = problem["errors"]["signatories[0].mobileNo"][0].as_str().unwrap_or_default();
        assert!(why.contains("10-digit Indian mobile number"), "{typed}: {problem}");
    }
    let workflows: Value = app.get("/api/v1/workflows", &token).await.json().await.expect("json");
    assert!(!workflows.to_string().contains("Loan offer"), "nothing stored: {workflows}");

    // Without a provider a number is kept (the sender may add a provider later) and nothing
    // is texted; the console's send form offers no mobile number.
    let signatories = json!([{"subscriberId": 0, "emailId": "asha@borrower.example", "signingOrder": 1,
        "mobileNo": "+44 20 7946 0958"}]);
    let created: Value = send(&app, &token, "Loan offer", signatories).await.json().await.expect("json");
    assert_eq!(created["signingUrls"][0]["mobileNo"], "+442079460958", "{created}");
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let form = admin.get(app.url("/app/send")).await.text().await.expect("html");
    assert!(form.contains("name=\"s1_email\"") && !form.contains("_mobile") && !form.contains("_otp"), "{form}");

    // Nor can a code by SMS be asked for.
    let signatories = json!([{"subscriberId": 0, "emailId": "asha@borrower.example", "signingOrder": 1,
        "mobileNo": "+919876543210", "otpBySms": true}]);
    let problem = expect_problem(send(&app, &token, "Loan offer", signatories).await, 400, "validation_failed").await;
    let why = problem["errors"]["signatories[0].otpBySms"][0].as_str().unwrap_or_default();
    assert!(why.contains("needs an SMS provider"), "{problem}");
}

async fn sms_a_failing_provider_is_tried_again_and_never_holds_back_the_email(backend: Backend) {
    let (smtp, sms) = (SmtpSink::start(), SmsDouble::start().await);
    let app = app_with_sms(backend, &smtp, &sms).await;
    let tenant = app.tenant("Bank of Examples").await;
    let token = app.token(&tenant).await;

    // Down for the first two tries: the e-mail goes at once, the text on the third try.
    sms.fail_next(2, 503);
    let signatories = json!([{"subscriberId": 0, "emailId": "asha@borrower.example", "name": "Asha Rao",
        "signingOrder": 1, "mobileNo": "+91 98765 43210"}]);
    let created: Value = send(&app, &token, "Loan offer", signatories).await.json().await.expect("json");
    let id = created["workflowId"].as_i64().expect("id");
    smtp.wait_for("asha@borrower.example", "Please sign: Loan offer").await;
    sms.wait_for("+919876543210", "Loan offer").await;
    assert_eq!(sms.requests(), 3, "two failures, then sent");
    let events = wait_for_event(&app, &token, id, "signatory.sms_sent").await;
    assert!(!events.contains("signatory.sms_failed"), "{events}");

    // A number the provider refuses for good: on the timeline with its reason, not retried.
    sms.refuse("+14155550100");
    let signatories = json!([{"subscriberId": 0, "emailId": "sam@borrower.example", "name": "Sam Lee",
        "signingOrder": 1, "mobileNo": "+1 415 555 0100"}]);
    let created: Value = send(&app, &token, "Car loan", signatories).await.json().await.expect("json");
    let id = created["workflowId"].as_i64().expect("id");
    smtp.wait_for("sam@borrower.example", "Please sign: Car loan").await;
    let events = wait_for_event(&app, &token, id, "signatory.sms_failed").await;
    assert!(events.contains("21610") && events.contains("+*******0100"), "{events}");
    assert!(!events.contains("4155550100"), "the number masked in the provider's words too: {events}");
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(sms.requests(), 4, "a refusal is not tried again");
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = admin.get(app.url(&format!("/app/workflows/{id}"))).await.text().await.expect("html");
    let page = signet_testkit::problem::unescape(&page);
    assert!(page.contains("The SMS to Sam Lee could not be sent"), "{page}");
}

/// Posts a form of the signer page; answers its status and its text (unescaped).
async fn post_form(http: &reqwest::Client, url: &str, form: &[(&str, &str)]) -> (u16, String) {
    let answer = http.post(url).form(form).send().await.expect("answer");
    let status = answer.status().as_u16();
    (status, signet_testkit::problem::unescape(&answer.text().await.expect("html")))
}

async fn sms_a_signer_asked_for_a_code_signs_only_after_typing_it(backend: Backend) {
    let (smtp, sms) = (SmtpSink::start(), SmsDouble::start().await);
    let app = app_with_sms(backend, &smtp, &sms).await;
    let tenant = app.tenant("Bank of Examples").await;
    let token = app.token(&tenant).await;
    let without_number = json!([{"subscriberId": 0, "emailId": "asha@borrower.example", "otpBySms": true}]);
    let problem =
        expect_problem(send(&app, &token, "Loan offer", without_number).await, 400, "validation_failed").await;
    assert!(problem["errors"]["signatories[0].otpBySms"].is_array(), "{problem}");
    let signatories = json!([
        {"subscriberId": 0, "emailId": "asha@borrower.example", "name": "Asha Rao", "signingOrder": 1,
         "mobileNo": "98765 43210", "otpBySms": true},
        {"subscriberId": 0, "emailId": "ravi@guarantor.example", "name": "Ravi Iyer", "signingOrder": 1,
         "mobileNo": "+91 91234 56789", "otpBySms": true, "modeOfSignature": "dsc_token"}
    ]);
    let created: Value = send(&app, &token, "Loan offer", signatories).await.json().await.expect("json");
    let id = created["workflowId"].as_i64().expect("id");
    let link = created["signingUrls"][0]["url"].as_str().expect("url").to_string();
    let asha: i64 = created["signingUrls"][0]["identificationNumber"].as_str().expect("id").parse().expect("number");
    let http = reqwest::Client::new();
    let sign = [("mode", "typed"), ("typedName", "Asha Rao"), ("consent", "on")];

    // The page asks for the phone first; no signature is taken before.
    let page =
        signet_testkit::problem::unescape(&http.get(&link).send().await.expect("page").text().await.expect("html"));
    assert!(page.contains("Confirm your phone") && page.contains("••••3210") && page.contains("/otp/send"), "{page}");
    assert!(page.contains("typedName"), "the rest of the page stays: {page}");
    let (status, said) = post_form(&http, &format!("{link}/sign"), &sign).await;
    assert!(status == 400 && said.contains("Please confirm your phone with the code we send by SMS before you sign"));
    let delegated = [("email", "someone@else.example"), ("reason", "away")];
    let (status, said) = post_form(&http, &format!("{link}/delegate"), &delegated).await;
    assert!(status == 400 && said.contains("confirm your phone"), "handing on needs the code too: {status} {said}");
    let (_, said) = post_form(&http, &format!("{link}/otp/verify"), &[("code", "123456")]).await;
    assert!(said.contains("Please ask for a code first."), "{said}");
    // The crypto token's signer is refused as well, before any certificate is looked at.
    let ravi = created["signingUrls"][1]["url"].as_str().expect("url");
    let prepared = http.post(format!("{ravi}/token/prepare")).json(&json!({"certificate": "AAAA"})).send().await;
    let prepared = prepared.expect("answer");
    assert_eq!(prepared.status(), 400);
    assert!(prepared.text().await.expect("json").contains("Please confirm your phone"));
    // Asked for a token's signature, an electronic one is refused first, in the signer's words.
    let (status, said) = post_form(&http, &format!("{ravi}/sign?lang=hi"), &sign).await;
    assert!(status == 400 && said.contains("क्रिप्टो टोकन से हस्ताक्षर"), "{status} {said}");

    // A code: texted, only its keyed hash stored; a new one waits a minute.
    let (status, said) = post_form(&http, &format!("{link}/otp/send"), &[]).await;
    assert!(status == 200 && said.contains("We sent a code to your phone ••••3210"), "{status} {said}");
    let code = sms.last_code();
    assert!(code.chars().all(|c| c.is_ascii_digit()) && code.len() == 6, "{code}");
    let stored = app.store.signer_code(asha.into()).await.expect("read").expect("a row");
    assert!(stored.code_hash.len() == 64 && !stored.code_hash.contains(&code) && stored.code_salt != code);
    let (status, said) = post_form(&http, &format!("{link}/otp/send"), &[]).await;
    assert!(status == 400 && said.contains("Please wait") && said.contains(" s before"), "{status} {said}");

    // Five wrong tries kill the code: the right one is refused after them.
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for left in (1..5).rev() {
        let (_, said) = post_form(&http, &format!("{link}/otp/verify"), &[("code", wrong)]).await;
        assert!(said.contains(&format!("{left} tries left")), "{said}");
    }
    let (_, said) = post_form(&http, &format!("{link}/otp/verify"), &[("code", wrong)]).await;
    assert!(said.contains("typed wrong too many times"), "{said}");
    let (_, said) = post_form(&http, &format!("{link}/otp/verify"), &[("code", &code)]).await;
    assert!(said.contains("typed wrong too many times"), "dead: {said}");

    // A minute later a new code; past its ten minutes it is refused.
    app.store.execute_for_tests("UPDATE signer_codes SET sent_at = sent_at - 61000").await.expect("earlier");
    post_form(&http, &format!("{link}/otp/send"), &[]).await;
    let code = sms.last_code();
    app.store.execute_for_tests("UPDATE signer_codes SET expires_at = sent_at + 1").await.expect("expired");
    let (_, said) = post_form(&http, &format!("{link}/otp/verify"), &[("code", &code)]).await;
    assert!(said.contains("This code has expired"), "{said}");

    // The right code in time: the step goes and the signature is taken.
    app.store.execute_for_tests("UPDATE signer_codes SET sent_at = sent_at - 61000").await.expect("earlier");
    post_form(&http, &format!("{link}/otp/send"), &[]).await;
    let code = sms.last_code();
    let (status, said) = post_form(&http, &format!("{link}/otp/verify"), &[("code", &code)]).await;
    assert!(status == 200 && said.contains("Your phone is confirmed") && !said.contains("/otp/send"), "{said}");
    let (status, said) = post_form(&http, &format!("{link}/sign"), &sign).await;
    assert_eq!(status, 200, "{said}");
    let events = audit(&app, &token, id).await;
    for action in ["signatory.otp_sent", "signatory.otp_failed", "signatory.otp_verified", "signatory.signed"] {
        assert!(events.contains(action), "{action}: {events}");
    }
    let quoted = format!("\"{code}\"");
    assert!(!events.contains(&quoted) && !events.contains("9876543210"), "no code, the number masked: {events}");
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = admin.get(app.url(&format!("/app/workflows/{id}"))).await.text().await.expect("html");
    let page = signet_testkit::problem::unescape(&page);
    assert!(page.contains("Asha Rao confirmed their phone with the code"), "{page}");
}

/// A signer asked for a code hands on only with the delegate's mobile number, and the delegate
/// confirms a code texted to it before they sign; the API, whose request has no such field,
/// refuses to hand such a signature on.
async fn sms_a_delegate_of_a_signer_asked_for_a_code_confirms_their_own(backend: Backend) {
    let (smtp, sms) = (SmtpSink::start(), SmsDouble::start().await);
    let app = app_with_sms(backend, &smtp, &sms).await;
    let tenant = app.tenant("Bank of Examples").await;
    let token = app.token(&tenant).await;
    let signatories = json!([{"subscriberId": 0, "emailId": "asha@borrower.example", "name": "Asha Rao",
        "signingOrder": 1, "mobileNo": "98765 43210", "otpBySms": true}]);
    let created: Value = send(&app, &token, "Loan offer", signatories).await.json().await.expect("json");
    let id = created["workflowId"].as_i64().expect("id");
    let link = created["signingUrls"][0]["url"].as_str().expect("url").to_string();
    let http = reqwest::Client::new();
    post_form(&http, &format!("{link}/otp/send"), &[]).await;
    let (status, said) = post_form(&http, &format!("{link}/otp/verify"), &[("code", &sms.last_code())]).await;
    assert!(status == 200 && said.contains("Your phone is confirmed"), "{said}");

    // The form asks for the delegate's number; without one, or with one that is not a mobile
    // number, the signature stays with Asha.
    assert!(said.contains("name=\"mobile\""), "the delegation form asks for their number: {said}");
    let away = [("email", "meena@family.example"), ("name", "Meena Rao"), ("reason", "travelling")];
    let (status, said) = post_form(&http, &format!("{link}/delegate"), &away).await;
    assert!(status == 400 && said.contains("Please give their mobile number"), "{status} {said}");
    let landline = [away.as_slice(), &[("mobile", "022 2345 6789")]].concat();
    let (status, said) = post_form(&http, &format!("{link}/delegate"), &landline).await;
    assert!(status == 400 && said.contains("Please give a mobile number"), "{status} {said}");
    let body = json!({"workflowId": id, "delegatedUserEmail": "meena@family.example", "reason": "travelling"});
    let refused = app.post(&format!("/api/v1/workflows/{id}/delegate"), &token, body).await;
    let problem = expect_problem(refused, 400, "validation_failed").await;
    assert!(problem["errors"]["delegatedUserEmail"].is_array(), "{problem}");

    // With her number: Meena is texted her invitation, and her page asks for her own code.
    let handed = [away.as_slice(), &[("mobile", "+91 91234 56789")]].concat();
    let (status, said) = post_form(&http, &format!("{link}/delegate"), &handed).await;
    assert_eq!(status, 200, "{said}");
    sms.wait_for("+919123456789", "Loan offer").await;
    let meena = link_in_mail(&smtp.wait_for("meena@family.example", "Please sign: Loan offer").await);
    let page =
        signet_testkit::problem::unescape(&http.get(&meena).send().await.expect("page").text().await.expect("html"));
    assert!(page.contains("Confirm your phone") && page.contains("••••6789"), "{page}");
    let sign = [("mode", "typed"), ("typedName", "Meena Rao"), ("consent", "on")];
    let (status, said) = post_form(&http, &format!("{meena}/sign"), &sign).await;
    assert!(status == 400 && said.contains("Please confirm your phone with the code we send by SMS before you sign"));
    let (status, said) = post_form(&http, &format!("{meena}/otp/send"), &[]).await;
    assert!(status == 200 && said.contains("••••6789"), "{status} {said}");
    let texted = sms.messages().into_iter().rev().find(|m| m.body.contains("is your code")).expect("a code");
    assert_eq!(texted.to, "+919123456789", "the code goes to the delegate's phone, not Asha's");
    let (status, said) = post_form(&http, &format!("{meena}/otp/verify"), &[("code", &sms.last_code())]).await;
    assert!(status == 200 && said.contains("Your phone is confirmed"), "{said}");
    let (status, said) = post_form(&http, &format!("{meena}/sign"), &sign).await;
    assert_eq!(status, 200, "{said}");
}

async fn sms_reaches_signers_of_initiate_and_sign_and_of_bulk_rows(backend: Backend) {
    let (smtp, sms) = (SmtpSink::start(), SmsDouble::start().await);
    let app = app_with_sms(backend, &smtp, &sms).await;
    let tenant = app.tenant("Bank of Examples").await;
    let token = app.token(&tenant).await;
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Sanction letter")]);

    // initiate-and-sign: a mobile contact number is texted the invitation; a landline is kept
    // out of SMS without refusing the request.
    let body = json!({"documentName": "Sanction letter.pdf", "fileData": STANDARD.encode(&pdf), "referenceNo": "SL-9",
    "signatories": [
        {"emailId": "asha@borrower.example", "name": "Asha Rao", "contactNo": "98765 43210"},
        {"emailId": "ravi@guarantor.example", "name": "Ravi Iyer", "contactNo": "022 2345 6789"}
    ]});
    let started = app.post("/api/v1/workflows/initiate-and-sign", &token, body).await;
    assert_eq!(started.status(), 201);
    let started: Value = started.json().await.expect("json");
    let urls = started["signingUrls"].as_array().expect("urls");
    assert_eq!((&urls[0]["mobileNo"], &urls[1]["mobileNo"]), (&json!("+919876543210"), &Value::Null), "{started}");
    let text = sms.wait_for("+919876543210", "Sanction letter").await;
    assert!(text.body.starts_with("Bank of Examples asks you to sign"), "{text:?}");
    let id = started["workflowId"].as_i64().expect("id");
    let details: Value = app.get(&format!("/api/v1/workflows/{id}"), &token).await.json().await.expect("json");
    let shown: Vec<(&Value, &Value)> = details["signatories"]
        .as_array()
        .expect("signatories")
        .iter()
        .map(|s| (&s["mobileNo"], &s["otpBySms"]))
        .collect();
    assert_eq!(shown, [(&json!("+919876543210"), &json!(false)), (&Value::Null, &json!(false))], "{details}");

    // Bulk rows: signerN.mobile and signerN.otp, each checked as the API's fields are.
    let upload = json!({"documentName": "Loan.pdf", "fileData": STANDARD.encode(&pdf)});
    let uploaded: Value = app.post("/api/v1/documents", &token, upload).await.json().await.expect("json");
    let csv = "workflowName,signer1.email,signer1.mobile,signer1.otp\n\
        Loan 1,meena@home.example,+91 91234 56789,yes\n\
        Loan 2,kiran@home.example,12345,no\n\
        Loan 3,lata@home.example,9123456780,maybe\n\
        Loan 4,arun@home.example,,Yes\n";
    let send = |dry_run: bool| json!({"documentIds": [uploaded["documentId"]], "fileData": STANDARD.encode(csv), "dryRun": dry_run});
    let preview: Value = app.post("/api/v1/bulk-sends", &token, send(true)).await.json().await.expect("json");
    assert_eq!((preview["valid"].as_i64(), preview["invalid"].as_i64()), (Some(1), Some(3)), "{preview}");
    let problems = preview["problems"].as_array().expect("problems");
    for (problem, field) in problems.iter().zip(["signatories[0].mobileNo", "signer1.otp", "signatories[0].otpBySms"]) {
        assert!(problem["errors"][field].is_array(), "{field}: {problem}");
    }
    let started = app.post("/api/v1/bulk-sends", &token, send(false)).await;
    assert_eq!(started.status(), 202);
    let text = sms.wait_for("+919123456789", "Loan 1").await;
    let link = text.body.split_whitespace().last().expect("a link").to_string();
    let page = signet_testkit::problem::unescape(&reqwest::get(&link).await.expect("page").text().await.expect("html"));
    assert!(page.contains("Confirm your phone") && page.contains("••••6789"), "the row asked for a code: {page}");
}

/// The first six digits in a row in `text`: the code, wherever the language puts it.
fn code_in(text: &str) -> Option<String> {
    let digits: Vec<char> = text.chars().collect();
    digits.windows(6).find(|w| w.iter().all(char::is_ascii_digit)).map(|w| w.iter().collect())
}

async fn sms_a_signer_confirms_their_phone_in_a_browser_and_signs(backend: Backend) {
    let (smtp, sms) = (SmtpSink::start(), SmsDouble::start().await);
    let app = app_with_sms(backend, &smtp, &sms).await;
    let tenant = app.tenant("Bank of Examples").await;
    let token = app.token(&tenant).await;
    let signatories = json!([{"subscriberId": 0, "emailId": "meena@borrower.example", "name": "Meena Iyer",
        "signingOrder": 1, "mobileNo": "98765 43210", "otpBySms": true}]);
    let created: Value = send(&app, &token, "Loan offer", signatories).await.json().await.expect("json");
    let id = created["workflowId"].as_i64().expect("id");
    let link = created["signingUrls"][0]["url"].as_str().expect("url").to_string();
    let dir = tempfile::tempdir().expect("tmp");
    let code_file = dir.path().join("code");

    // The browser asks for the code; the test reads it off the provider (in Hindi, the code
    // sits mid-sentence) and hands it over as the phone would, through a file.
    let in_hindi = format!("{link}?lang=hi");
    let browser = guided(&in_hindi, "phone", "keyboard", backend, json!({"otp": {"codeFile": code_file}}));
    let phone = async {
        for _ in 0..1200 {
            let texted = sms.messages().into_iter().rev().find(|m| m.body.contains("कोड"));
            if let Some(code) = texted.and_then(|m| code_in(&m.body)) {
                std::fs::write(&code_file, &code).expect("write the code");
                return code;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("no code by SMS in Hindi: {:?}", sms.messages());
    };
    let (outcome, code) = tokio::join!(browser, phone);
    assert_eq!(outcome["otp"]["asked"], "अपने फ़ोन की पुष्टि करें", "{outcome}");
    assert!(outcome["otp"]["sent"].as_str().is_some_and(|s| s.contains("••••3210")), "{outcome}");
    assert_eq!(outcome["otp"]["confirmed"], "आपके फ़ोन की पुष्टि हो गई। अब आप हस्ताक्षर कर सकते हैं।", "{outcome}");
    assert_eq!(outcome["otp"]["stepGone"], true, "{outcome}");
    assert!(outcome["finalText"].as_str().is_some_and(|t| t.contains("आपने हस्ताक्षर")), "{outcome}");
    let events = audit(&app, &token, id).await;
    for action in ["signatory.otp_sent", "signatory.otp_verified", "signatory.signed"] {
        assert!(events.contains(action), "{action}: {events}");
    }
    assert!(!events.contains(&format!("\"{code}\"")), "no code on the trail: {events}");
}
