//! Embedded signing (issue 35, item 4) end to end: an organisation allows origins to frame its
//! signer pages, a sender asks for a signatory's embed address for one of them, and the page
//! opens there only: framed by that origin alone, telling it what happened by messages. Over
//! HTTP on both backends; in Chromium from an integrator's page on another origin (with a page
//! of a third origin that must not be able to show the frame, and a forged message that must
//! not count).

use std::sync::{Arc, Mutex};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use signet_store::Backend;
use signet_testkit::console::{console_session, csrf_of};
use signet_testkit::on_both_backends;
use signet_testkit::pdf::{Page, reportlab_pdf};
use signet_testkit::problem::{expect_problem, unescape};
use signet_testkit::server::{TestApp, spawn};

use crate::support::{ADMIN_PASSWORD, browser, json_of, link_of, run_driver, target_dir};

on_both_backends!(an_allowed_origin_frames_a_signers_turn_and_nothing_else_does);

#[tokio::test]
async fn an_integrators_page_on_another_origin_shows_the_turn_and_hears_its_events() {
    an_integrators_page_hears_the_turn(Backend::Sqlite).await;
}

const APP_ORIGIN: &str = "https://app.lender.test";
/// A one-pixel PNG, as an organisation's logo.
const LOGO_PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/// A tenant's API token and a started workflow of two signers in order (first, then second),
/// and the tenant's administrator's address.
async fn workflow(app: &TestApp) -> (String, Value, String) {
    let tenant = app.tenant("Lender Embeds").await;
    let token = app.token(&tenant).await;
    let pdf = reportlab_pdf(&[Page::text("Loan agreement").line(200, "Signatures:")]);
    let body = json!({"documentName": "Loan.pdf", "fileData": STANDARD.encode(pdf)});
    let uploaded = json_of(app.post("/api/v1/documents", &token, body).await, 201).await;
    let signatories = json!([
        {"subscriberId": 0, "emailId": "meena@borrower.test", "name": "Meena Iyer", "signingOrder": 1},
        {"subscriberId": 0, "emailId": "officer@lender.test", "name": "Branch Officer", "signingOrder": 2},
    ]);
    let body = json!({"templateId": 0, "documentIds": [uploaded["documentId"]], "signatories": signatories});
    let started = json_of(app.post("/api/v1/workflows", &token, body).await, 201).await;
    (token, started, tenant.admin_email)
}

/// The signatory id behind a signing URL of the started workflow.
fn signatory_of(started: &Value, email: &str) -> i64 {
    let url = started["signingUrls"].as_array().expect("urls").iter().find(|u| u["emailId"] == email).expect("url");
    url["identificationNumber"].as_str().and_then(|id| id.parse().ok()).expect("id")
}

fn csp(response: &reqwest::Response) -> String {
    response.headers().get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string()
}

async fn an_allowed_origin_frames_a_signers_turn_and_nothing_else_does(backend: Backend) {
    let app = spawn(backend).await;
    let (token, started, admin_email) = workflow(&app).await;
    let workflow_id = started["workflowId"].as_i64().expect("id");
    let (first, second) =
        (signatory_of(&started, "meena@borrower.test"), signatory_of(&started, "officer@lender.test"));
    let embed_path = |signatory: i64| format!("/api/v1/workflows/{workflow_id}/signatories/{signatory}/embed");

    // Off until the organisation names an origin.
    let refused = app.post(&embed_path(first), &token, json!({"origin": APP_ORIGIN})).await;
    let problem = expect_problem(refused, 400, "validation_failed").await;
    assert!(problem["errors"]["origin"].to_string().contains("allows"), "{problem}");

    // Settings: each wrong part named, nothing changed by a refusal.
    for (body, field) in [
        (json!({"allowedOrigins": [APP_ORIGIN, "https://app.lender.test/sign"]}), "allowedOrigins[1]"),
        (json!({"allowedOrigins": ["*"]}), "allowedOrigins[0]"),
        (json!({"allowedOrigins": [APP_ORIGIN], "accentColor": "red"}), "accentColor"),
        (json!({"allowedOrigins": [APP_ORIGIN], "logo": STANDARD.encode("<svg onload=alert(1)>")}), "logo"),
    ] {
        let refused = app.put("/api/v1/organisation/embedding", &token, body).await;
        let problem = expect_problem(refused, 400, "validation_failed").await;
        assert!(problem["errors"].get(field).is_some(), "{field}: {problem}");
    }
    let unset = json_of(app.get("/api/v1/organisation/embedding", &token).await, 200).await;
    assert_eq!(unset, json!({"allowedOrigins": [], "accentColor": null, "logo": null}));
    let settings =
        json!({"allowedOrigins": ["HTTPS://App.Lender.test:443/"], "accentColor": "#0F766E", "logo": LOGO_PNG});
    let saved = json_of(app.put("/api/v1/organisation/embedding", &token, settings).await, 200).await;
    assert_eq!(saved, json!({"allowedOrigins": [APP_ORIGIN], "accentColor": "#0f766e", "logo": LOGO_PNG}));

    // The address: for an allowed origin, for a signatory whose turn it is.
    let refused = app.post(&embed_path(first), &token, json!({"origin": "https://evil.test"})).await;
    expect_problem(refused, 400, "validation_failed").await;
    expect_problem(app.post(&embed_path(second), &token, json!({"origin": APP_ORIGIN})).await, 409, "state_conflict")
        .await;
    let other = app.tenant("Another Lender").await;
    let other_token = app.token(&other).await;
    expect_problem(app.post(&embed_path(first), &other_token, json!({"origin": APP_ORIGIN})).await, 404, "not_found")
        .await;
    let made = json_of(app.post(&embed_path(first), &token, json!({"origin": APP_ORIGIN})).await, 200).await;
    let url = made["url"].as_str().expect("url").to_string();
    assert!(url.starts_with(&format!("{}/embed/w/{first}/", app.base())), "{url}");
    let minutes = (made["expiresAt"].as_i64().expect("expiresAt") - signet_domain::now_millis()) / 60_000;
    assert!((4..=5).contains(&minutes), "{made}");

    // The page: framed by the allowed origin only, its forms on the frame's own addresses, the
    // look and the messages in its head.
    let http = browser();
    let page = http.get(&url).send().await.expect("page");
    assert_eq!(page.status(), 200);
    assert!(csp(&page).ends_with(&format!("frame-ancestors {APP_ORIGIN}")), "{}", csp(&page));
    let html = page.text().await.expect("html");
    assert!(html.contains(&format!("<meta name=\"signet-embed-origin\" content=\"{APP_ORIGIN}\">")), "{html}");
    assert!(html.contains("<meta name=\"signet-embed-event\" content=\"loaded\">"));
    assert!(html.contains("/static/embed-frame.js"));
    let action = html.split("id=\"sign-form\"").next().and_then(|head| head.rsplit("action=\"").next()).expect("form");
    let base = action.split("/sign").next().expect("base").to_string();
    assert!(base.starts_with(&format!("/embed/w/{first}/")) && !html.contains("/sign/w/"), "{base}");
    let theme = http.get(app.url(&format!("{base}/theme.css"))).send().await.expect("theme").text().await.expect("css");
    assert!(theme.contains("--accent: #0f766e") && theme.contains("/logo"), "{theme}");
    let logo = http.get(app.url(&format!("{base}/logo"))).send().await.expect("logo");
    assert_eq!(logo.headers()["content-type"], "image/png");

    // A token changed by one character opens nothing, and nothing may frame the answer.
    let (head, tail) = url.split_at(url.len() - 1);
    let forged = format!("{head}{}", if tail == "A" { "B" } else { "A" });
    let refused = http.get(&forged).send().await.expect("forged");
    assert_eq!(refused.status(), 404);
    assert!(csp(&refused).contains("frame-ancestors 'none'"), "{}", csp(&refused));

    // Signing in the frame: the page that follows says `signed` to the origin, and the trail
    // says who took the page for where.
    let signed = http
        .post(app.url(&format!("{base}/sign")))
        .form(&[("mode", "typed"), ("typedName", "Meena Iyer"), ("font", "handwriting"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    assert_eq!(signed.status(), 200);
    assert!(csp(&signed).ends_with(&format!("frame-ancestors {APP_ORIGIN}")));
    assert!(signed.text().await.expect("html").contains("<meta name=\"signet-embed-event\" content=\"signed\">"));
    let trail = json_of(app.get(&format!("/api/v1/workflows/{workflow_id}/audit"), &token).await, 200).await;
    assert!(trail.to_string().contains("signatory.link_embedded") && trail.to_string().contains(APP_ORIGIN), "{trail}");

    // An origin taken off the list ends its frames at their next page.
    let made = json_of(app.post(&embed_path(second), &token, json!({"origin": APP_ORIGIN})).await, 200).await;
    let url = made["url"].as_str().expect("url");
    assert_eq!(http.get(url).send().await.expect("page").status(), 200);
    let off = json!({"allowedOrigins": [], "logo": LOGO_PNG});
    json_of(app.put("/api/v1/organisation/embedding", &token, off).await, 200).await;
    let refused = http.get(url).send().await.expect("page");
    assert_eq!(refused.status(), 404);
    assert!(csp(&refused).contains("frame-ancestors 'none'"));
    // The console's organisation page shows and changes the origins and the colour; a wrong
    // origin is named and changes nothing; the logo set through the API is kept.
    let admin = console_session(&app, &admin_email, ADMIN_PASSWORD).await;
    let page = unescape(&admin.get(app.url("/app/organisation")).await.text().await.expect("html"));
    // (The list is empty now: taken off just above.)
    assert!(page.contains("spellcheck=\"false\"></textarea>"), "{page}");
    let csrf = csrf_of(&page);
    let wrong = [("csrf", csrf.as_str()), ("origins", "https://portal.lender.test/app"), ("accent", "")];
    let wrong = admin.post(app.url("/app/organisation/embedding"), &wrong).await;
    assert_eq!(wrong.status(), 400);
    assert!(unescape(&wrong.text().await.expect("html")).contains("allowedOrigins[0]"));
    let origins = format!("{APP_ORIGIN}\r\nhttp://localhost:3000\r\n");
    let form = [("csrf", csrf.as_str()), ("origins", origins.as_str()), ("accent", "#123ABC")];
    let saved = admin.post(app.url("/app/organisation/embedding"), &form).await;
    assert_eq!(saved.status(), 200);
    let saved = unescape(&saved.text().await.expect("html"));
    assert!(saved.contains(&format!("{APP_ORIGIN}\nhttp://localhost:3000</textarea>")), "{saved}");
    let settings = json_of(app.get("/api/v1/organisation/embedding", &token).await, 200).await;
    assert_eq!(
        settings,
        json!({"allowedOrigins": [APP_ORIGIN, "http://localhost:3000"], "accentColor": "#123abc", "logo": LOGO_PNG})
    );

    // The e-mailed link still works as it did, unframed.
    let link = link_of(&started, "officer@lender.test");
    let page = http.get(&link).send().await.expect("link");
    assert_eq!(page.status(), 200);
    assert!(csp(&page).contains("frame-ancestors 'none'"));
}

/// An integrator's page on its own origin: Signet's `<signet-signing>` element with the embed
/// address, and a same-origin frame that forges Signet's `signed` message.
fn host_page(signet: &str, embed_url: &str) -> String {
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lender app</title>
<script src="{signet}/static/signet-signing.js"></script></head>
<body><h1>Your loan agreement</h1>
<signet-signing id="signing" src="{embed_url}" timeout="8000" title="Sign your loan agreement"></signet-signing>
<iframe id="forger" srcdoc="<script>parent.postMessage({{source:'signet',type:'signed'}},'*')</script>"></iframe>
<script>
window.heard = [];
for (const type of ["loaded", "signed", "declined", "error"]) {{
  document.getElementById("signing").addEventListener(type, (e) => window.heard.push({{ type, reason: e.detail.reason || null }}));
}}
</script></body></html>"#
    )
}

/// A page served at `/` on a free port of 127.0.0.1, an origin of its own: its origin and the
/// page's cell (set once the origin is known, since the page names addresses made for it).
async fn host() -> (String, Arc<Mutex<String>>) {
    let page = Arc::new(Mutex::new(String::new()));
    let kept = page.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let origin = format!("http://{}", listener.local_addr().expect("address"));
    let serve = move || {
        let kept = kept.clone();
        async move { axum::response::Html(kept.lock().expect("page").clone()) }
    };
    let router = axum::Router::new().route("/", axum::routing::get(serve));
    tokio::spawn(async move { axum::serve(listener, router).await });
    (origin, page)
}

async fn an_integrators_page_hears_the_turn(backend: Backend) {
    let app = spawn(backend).await;
    let (token, started, _) = workflow(&app).await;
    let workflow_id = started["workflowId"].as_i64().expect("id");
    let first = signatory_of(&started, "meena@borrower.test");
    let (allowed, allowed_page) = host().await;
    let (stranger, stranger_page) = host().await;
    let settings = json!({"allowedOrigins": [allowed], "accentColor": "#0f766e", "logo": LOGO_PNG});
    json_of(app.put("/api/v1/organisation/embedding", &token, settings).await, 200).await;
    let path = format!("/api/v1/workflows/{workflow_id}/signatories/{first}/embed");
    for cell in [&allowed_page, &stranger_page] {
        // Both pages frame an address made for the allowed origin: the stranger's must not show.
        let made = json_of(app.post(&path, &token, json!({ "origin": allowed })).await, 200).await;
        *cell.lock().expect("page") = host_page(&app.base(), made["url"].as_str().expect("url"));
    }

    let shots = target_dir().join("browser-artifacts").join("embedding");
    let args = json!({"host": format!("{allowed}/"), "stranger": format!("{stranger}/"), "shots": shots});
    let outcome =
        tokio::task::spawn_blocking(move || run_driver("embed.mjs", &args, "embedded signing")).await.expect("join");
    // Heard: the page, then the signature; the forger's message did not count.
    let heard: Vec<&str> =
        outcome["heard"].as_array().expect("heard").iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(heard, ["loaded", "signed"], "{outcome}");
    assert_eq!(outcome["accent"], "#0f766e", "the organisation's colour: {outcome}");
    assert!(outcome["frameHeight"].as_f64().unwrap_or(0.0) > 480.0, "the frame fits the page: {outcome}");
    let stranger_heard = outcome["strangerHeard"].as_array().expect("strangerHeard");
    assert_eq!(stranger_heard, &vec![json!({"type": "error", "reason": "unreachable"})], "{outcome}");
    // The signature counted: the second signatory's turn came.
    let second = signatory_of(&started, "officer@lender.test");
    let path = format!("/api/v1/workflows/{workflow_id}/signatories/{second}/embed");
    json_of(app.post(&path, &token, json!({ "origin": allowed })).await, 200).await;
}
