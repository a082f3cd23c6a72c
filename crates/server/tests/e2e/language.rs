//! The signer's language and the organisation's time zone (issue 37, item 3), on both backends:
//! a workflow the console sends in Hindi mails its invitation in Hindi and its signer page
//! answers in Hindi whatever the browser asks; a workflow sent without a language answers each
//! browser in its own (an English browser gets English); the page offers the other language;
//! the console, the e-mails and the pages name the organisation's zone (IST unless the
//! administrator chose another, which they can in the console).

use reqwest::redirect::Policy;
use serde_json::Value;
use signet_store::Backend;
use signet_testkit::console::{Browser, console_session, csrf_of};
use signet_testkit::on_both_backends;
use signet_testkit::problem::unescape;
use signet_testkit::server::{TestApp, spawn_with};
use signet_testkit::smtp::SmtpSink;

use crate::support::{ADMIN_PASSWORD, hidden_fields};

on_both_backends!(
    a_workflow_sent_in_hindi_mails_and_answers_in_hindi_and_others_follow_the_browser,
    times_name_the_organisations_zone_which_the_administrator_chooses,
    senders_choose_what_they_are_emailed_about,
);

async fn app_with_mail(backend: Backend, smtp: &SmtpSink) -> TestApp {
    spawn_with(backend, |config| {
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await
}

/// Sends `name` to one signer from the console, the signer pages and e-mails in `lang` (a
/// code; empty: the browser's); the new workflow's id.
async fn send(app: &TestApp, admin: &Browser, name: &str, signer: (&str, &str), lang: &str) -> i64 {
    let csrf = csrf_of(&admin.get(app.url("/app/send")).await.text().await.expect("html"));
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text(name)]);
    let form = reqwest::multipart::Form::new()
        .text("csrf", csrf.clone())
        .text("template", "0")
        .text("name", name.to_string())
        .text("s1_name", signer.0.to_string())
        .text("s1_email", signer.1.to_string())
        .text("s1_order", "1")
        .text("s1_method", "electronic")
        .text("send_mail", "on")
        .text("signer_lang", lang.to_string())
        .part("documents", reqwest::multipart::Part::bytes(pdf).file_name("loan.pdf"));
    let placing = admin.send(admin.http.post(app.url("/app/send")).multipart(form)).await;
    assert_eq!(placing.status(), 200, "the placement screen");
    let placing = placing.text().await.expect("html");
    let fields = hidden_fields(&placing, "id=\"place-form\"");
    assert!(fields.iter().any(|(k, v)| k == "signer_lang" && v == lang), "the choice is carried: {fields:?}");
    let sent = admin.send(admin.http.post(app.url("/app/send/start")).form(&fields)).await;
    assert_eq!(sent.status(), 303, "{}", sent.text().await.unwrap_or_default());
    let location = sent.headers()["location"].to_str().expect("location").to_string();
    location.rsplit('/').next().and_then(|id| id.parse().ok()).unwrap_or_else(|| panic!("{location}"))
}

/// The signer link in an invitation.
fn link_in(mail: &Value) -> String {
    let text = mail["text"].as_str().expect("text part");
    text.split_whitespace().find(|w| w.contains("/sign/w/")).expect("a signer link").to_string()
}

/// The signer page at `link` as a browser asking for `accept` sees it.
async fn page_for(link: &str, accept: &str) -> String {
    let http = reqwest::Client::builder().redirect(Policy::none()).build().expect("client");
    let page = http.get(link).header("accept-language", accept).send().await.expect("page");
    assert_eq!(page.status(), 200);
    unescape(&page.text().await.expect("html"))
}

fn devanagari(text: &str) -> bool {
    text.chars().any(|c| ('\u{0900}'..='\u{097F}').contains(&c))
}

async fn a_workflow_sent_in_hindi_mails_and_answers_in_hindi_and_others_follow_the_browser(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = app_with_mail(backend, &smtp).await;
    let tenant = app.tenant("Bank of Examples").await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let form = admin.get(app.url("/app/send")).await.text().await.expect("html");
    assert!(form.contains("name=\"signer_lang\"") && form.contains("<option value=\"hi\" lang=\"hi\""), "{form}");

    // Sent in Hindi: the invitation is in Hindi, its time in IST.
    let id = send(&app, &admin, "Loan offer", ("Asha Rao", "asha@borrower.example"), "hi").await;
    let invitation = smtp.wait_for("asha@borrower.example", "कृपया हस्ताक्षर करें: Loan offer").await;
    let text = invitation["text"].as_str().expect("text");
    assert!(text.starts_with("नमस्ते Asha Rao,") && text.contains("\"Loan offer\""), "{text}");
    assert!(text.contains(" IST तक") && !text.contains("UTC"), "the link's end in IST: {text}");
    assert!(invitation["html"].as_str().is_some_and(|h| h.contains("पढ़ें और हस्ताक्षर करें")), "{invitation}");

    // Its page answers in Hindi even to an English browser, and offers English.
    let link = link_in(&invitation);
    let page = page_for(&link, "en-GB,en;q=0.9").await;
    assert!(page.contains("<html lang=\"hi\">"), "{page}");
    assert!(page.contains("हस्ताक्षर करें") && page.contains("मैं इस दस्तावेज़ पर"), "{page}");
    assert!(!page.contains("I agree to sign"), "no English left on the form: {page}");
    let path = link.split_once("://").and_then(|(_, rest)| rest.split_once('/')).map(|(_, p)| p).expect("a path");
    assert!(page.contains(&format!("href=\"/{path}?lang=en\"")) && page.contains(">English</a>"), "{page}");
    assert!(page.contains(&format!("action=\"/{path}/sign?lang=hi\"")), "the forms keep the language: {page}");
    // The signer's own switch wins over the sender's choice.
    let switched = page_for(&format!("{link}?lang=en"), "hi").await;
    assert!(switched.contains("<html lang=\"en\">") && switched.contains("I agree to sign"), "{switched}");

    // A refusal on a form comes back in the page's language.
    let http = reqwest::Client::builder().redirect(Policy::none()).build().expect("client");
    let declined =
        http.post(format!("{link}/decline?lang=hi")).form(&[("reason", "Wrong amount")]).send().await.expect("decline");
    assert_eq!(declined.status(), 200);
    let declined = unescape(&declined.text().await.expect("html"));
    assert!(declined.contains("आपने हस्ताक्षर करने से मना कर दिया"), "{declined}");
    let notice = smtp.wait_for("asha@borrower.example", "अस्वीकृत: Loan offer").await;
    assert!(notice["text"].as_str().is_some_and(|t| t.contains("Wrong amount") && devanagari(t)), "{notice}");
    assert!(id > 0);

    // Sent without a language: each browser gets its own, English by default.
    send(&app, &admin, "Guarantee", ("Ravi Iyer", "ravi@guarantor.example"), "").await;
    let invitation = smtp.wait_for("ravi@guarantor.example", "Please sign: Guarantee").await;
    let text = invitation["text"].as_str().expect("text");
    assert!(text.starts_with("Hello Ravi Iyer,") && text.contains(" IST."), "{text}");
    let link = link_in(&invitation);
    let english = page_for(&link, "en-US,en;q=0.9").await;
    assert!(english.contains("<html lang=\"en\">") && english.contains("I agree to sign"), "{english}");
    assert!(!devanagari(&english.replace("हिन्दी", "")), "English only, but the switch: {english}");
    let hindi = page_for(&link, "hi-IN,hi;q=0.9,en;q=0.5").await;
    assert!(hindi.contains("<html lang=\"hi\">") && hindi.contains("मैं इस दस्तावेज़ पर"), "{hindi}");
}

async fn times_name_the_organisations_zone_which_the_administrator_chooses(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = app_with_mail(backend, &smtp).await;
    let tenant = app.tenant("Bank of Examples").await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let id = send(&app, &admin, "Loan offer", ("Asha Rao", "asha@borrower.example"), "").await;

    // The console names India Standard Time by default.
    let page = unescape(&admin.get(app.url(&format!("/app/workflows/{id}"))).await.text().await.expect("html"));
    assert!(page.contains(" IST") && !page.contains(" UTC"), "{page}");
    let settings = unescape(&admin.get(app.url("/app/organisation")).await.text().await.expect("html"));
    assert!(settings.contains("<option value=\"Asia/Kolkata\" selected>"), "{settings}");

    // The administrator chooses Gulf Standard Time: the console names it from then on.
    let csrf = csrf_of(&settings);
    let unknown =
        admin.post(app.url("/app/organisation"), &[("csrf", csrf.as_str()), ("time_zone", "Mars/Olympus")]).await;
    assert_eq!(unknown.status(), 400);
    let saved = admin.post(app.url("/app/organisation"), &[("csrf", csrf.as_str()), ("time_zone", "Asia/Dubai")]).await;
    assert_eq!(saved.status(), 200);
    let saved = unescape(&saved.text().await.expect("html"));
    assert!(saved.contains("<option value=\"Asia/Dubai\" selected>") && saved.contains(" GST"), "{saved}");
    let page = unescape(&admin.get(app.url(&format!("/app/workflows/{id}"))).await.text().await.expect("html"));
    assert!(page.contains(" GST") && !page.contains(" IST"), "{page}");

    // A reminder written now names the new zone too.
    send(&app, &admin, "Guarantee", ("Ravi Iyer", "ravi@guarantor.example"), "").await;
    let invitation = smtp.wait_for("ravi@guarantor.example", "Please sign: Guarantee").await;
    assert!(invitation["text"].as_str().is_some_and(|t| t.contains(" GST.")), "{invitation}");
}

/// The sender's choice of e-mails on `/app/notices`, as the form sends it.
async fn choose_notices(app: &TestApp, admin: &Browser, ticked: &[&str]) {
    let page = admin.get(app.url("/app/notices")).await.text().await.expect("html");
    let mut form = vec![("csrf".to_string(), csrf_of(&page))];
    form.extend(ticked.iter().map(|name| (name.to_string(), "on".to_string())));
    let saved = admin.send(admin.http.post(app.url("/app/notices")).form(&form)).await;
    assert_eq!(saved.status(), 200);
    assert!(saved.text().await.expect("html").contains("Your choice is saved."));
}

async fn senders_choose_what_they_are_emailed_about(backend: Backend) {
    let smtp = SmtpSink::start();
    let app = app_with_mail(backend, &smtp).await;
    let tenant = app.tenant("Notice Bank").await;
    let admin = console_session(&app, &tenant.admin_email, ADMIN_PASSWORD).await;
    let page = unescape(&admin.get(app.url("/app/notices")).await.text().await.expect("html"));
    assert!(page.contains(r#"name="completed" checked"#) && page.contains(r#"name="declined" checked"#), "{page}");
    assert!(page.contains(r#"name="signed">"#), "each signature is off by default: {page}");

    // Each signature, nothing else.
    choose_notices(&app, &admin, &["signed"]).await;
    let http = reqwest::Client::builder().redirect(Policy::none()).build().expect("client");
    let sign = [("mode", "typed"), ("typedName", "Asha Rao"), ("consent", "on")];
    send(&app, &admin, "First loan", ("Asha Rao", "asha@notice.example"), "").await;
    let link = link_in(&smtp.wait_for("asha@notice.example", "Please sign: First loan").await);
    assert_eq!(http.post(format!("{link}/sign")).form(&sign).send().await.expect("sign").status(), 200);
    let signed = smtp.wait_for(&tenant.admin_email, "Signed: First loan").await;
    assert!(signed["text"].as_str().is_some_and(|t| t.contains("Asha Rao signed \"First loan\".")), "{signed}");
    smtp.wait_for("asha@notice.example", "Signed by everyone: First loan").await;
    send(&app, &admin, "Second loan", ("Asha Rao", "asha@notice.example"), "").await;
    let link = link_in(&smtp.wait_for("asha@notice.example", "Please sign: Second loan").await);
    http.post(format!("{link}/decline")).form(&[("reason", "Wrong amount")]).send().await.expect("decline");
    smtp.wait_for("asha@notice.example", "Declined: Second loan").await;

    // Back to the defaults: a decline reaches the sender.
    choose_notices(&app, &admin, &["completed", "declined"]).await;
    send(&app, &admin, "Third loan", ("Asha Rao", "asha@notice.example"), "").await;
    let link = link_in(&smtp.wait_for("asha@notice.example", "Please sign: Third loan").await);
    http.post(format!("{link}/decline")).form(&[("reason", "Changed my mind")]).send().await.expect("decline");
    let declined = smtp.wait_for(&tenant.admin_email, "Declined: Third loan").await;
    assert!(declined["text"].as_str().is_some_and(|t| t.contains("Changed my mind")), "{declined}");

    // What the sender turned off never came (those mails were queued before the last one).
    let to_sender: Vec<String> = smtp
        .messages()
        .iter()
        .filter(|m| m["to"].as_array().is_some_and(|to| to.iter().any(|a| a == tenant.admin_email.as_str())))
        .filter_map(|m| m["subject"].as_str().map(str::to_string))
        .collect();
    assert!(
        !to_sender.iter().any(|s| s.contains("Completed: First loan") || s.contains("Second loan")),
        "{to_sender:?}"
    );
}
