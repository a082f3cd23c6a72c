//! Single sign-on through a tenant's OpenID Connect provider, on both backends, against a real
//! provider (panva's `oidc-provider`, `tests/browser/oidc-provider.mjs`) and in headless
//! Chromium (`tests/browser/sso.mjs`): an administrator saves the provider, the login-mode
//! lookup offers it for the organisation's addresses, a staff member signs in at the provider
//! and the application exchanges the one-time code for tokens; the account is linked by its
//! verified address and then by the provider's subject. And what must be refused.
//!
//! A provider serves a domain once its tenant proved the domain with a DNS TXT record: the tests
//! run a tiny DNS resolver ([`Dns`]) that Signet asks (`sso_dns_resolver`), and prove the domain
//! with [`prove_domain`] as an administrator would.
//!
//! Signet's own sign-in page (`/account/sign-in`) is driven the same way
//! (`tests/browser/sign-in.mjs`) with each login mode.
//!
//! Needs node, Debian's chromium and `npm ci` in `tests/browser` (scripts/install-test-deps.sh).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};
use signet_store::Backend;
use signet_testkit::dns::{Dns, prove_domain};
use signet_testkit::on_both_backends;
use signet_testkit::problem::expect_problem;
use signet_testkit::server::{TestApp, spawn_with};
use signet_testkit::smtp::SmtpSink;

use crate::support::{DRIVER_DIR, target_dir};

on_both_backends!(
    staff_sign_in_through_their_organisations_provider_in_chromium,
    single_sign_on_refuses_what_it_must,
    a_saved_provider_is_changed_with_the_rules_of_saving,
    a_trial_starts_once_the_sign_up_provider_proves_the_address,
    signets_sign_in_page_takes_a_password_an_e_mailed_code_or_single_sign_on,
    another_tenant_cannot_take_an_organisations_domain,
    a_settings_manager_cannot_sign_in_as_anyone_and_the_second_factor_still_counts,
);

const CLIENT_SECRET: &str = "provider-client-secret";

/// The OpenID provider as a child process, killed when dropped.
struct OpenIdProvider {
    child: Child,
    issuer: String,
    /// Addresses changed at the provider: { subject: address }.
    emails: tempfile::TempPath,
}

impl OpenIdProvider {
    fn change_email(&self, subject: &str, email: &str) {
        std::fs::write(&self.emails, json!({ subject: email }).to_string()).expect("emails file");
    }
}

impl Drop for OpenIdProvider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn require_driver() {
    assert!(
        Path::new(DRIVER_DIR).join("node_modules/oidc-provider").is_dir()
            && Path::new(DRIVER_DIR).join("node_modules/playwright-core").is_dir(),
        "the single sign-on tests need oidc-provider and playwright-core: run `npm ci --prefix crates/server/tests/browser` \
         (scripts/install-test-deps.sh does)"
    );
}

/// Starts a provider that knows Signet (`app`) as a confidential client.
fn start_provider(app: &TestApp) -> OpenIdProvider {
    start_provider_for(&app.url("/sso/callback"))
}

/// Starts a provider that knows Signet, whose callback is `callback`, as client `signet`.
fn start_provider_for(callback: &str) -> OpenIdProvider {
    require_driver();
    let emails = tempfile::NamedTempFile::new().expect("emails file").into_temp_path();
    let clients = json!({"clients": [{
        "client_id": "signet", "client_secret": CLIENT_SECRET,
        "redirect_uris": [callback],
    }], "emails": emails.to_path_buf()});
    let mut child = Command::new("node")
        .arg(Path::new(DRIVER_DIR).join("oidc-provider.mjs"))
        .arg(clients.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("node (Node.js 20+) must be installed; scripts/install-test-deps.sh installs it");
    let mut line = String::new();
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdout.read_line(&mut line).expect("the provider announces its issuer");
    // Whatever it prints later is read and dropped: a closed pipe would stop it.
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let announced: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("provider said {line:?}: {e}"));
    let issuer = announced["issuer"].as_str().expect("issuer").to_string();
    OpenIdProvider { child, issuer, emails }
}

/// The login modes the lookup answers for `email`.
async fn login_modes(app: &TestApp, email: &str) -> Value {
    reqwest::Client::new()
        .post(app.url("/api/v1/auth/login-modes"))
        .json(&json!({"emailId": email}))
        .send()
        .await
        .expect("modes")
        .json()
        .await
        .expect("json")
}

/// Signs in through `start` in Chromium, typing `login` at the provider; the driver's outcome.
fn browse(start: &str, login: &str, shots: &str) -> Value {
    browse_with(start, login, shots, json!({}))
}

/// [`browse`] with more of the driver's arguments (`totp`: the code to give should Signet ask).
fn browse_with(start: &str, login: &str, shots: &str, more: Value) -> Value {
    let chromium = std::env::var_os("CHROMIUM").map(PathBuf::from).unwrap_or_else(|| "/usr/bin/chromium".into());
    assert!(chromium.exists(), "the single sign-on tests need Chromium at {}", chromium.display());
    let dir = target_dir().join("browser-artifacts").join("sso").join(shots);
    let mut args = json!({"start": start, "login": login, "shots": dir});
    if let (Some(args), Some(more)) = (args.as_object_mut(), more.as_object()) {
        args.extend(more.clone());
    }
    let output = Command::new("node")
        .arg(Path::new(DRIVER_DIR).join("sso.mjs"))
        .arg(args.to_string())
        .output()
        .expect("node (Node.js 20+) must be installed");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "browser driver failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_str(stdout.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("driver output is not JSON ({e}):\n{stdout}"))
}

/// The query parameter `name` of `url`.
fn param(url: &str, name: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).ok()?;
    pairs.into_iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

struct Setup {
    app: TestApp,
    idp: OpenIdProvider,
    admin: String,
    backend: Backend,
    dns: Dns,
}

/// [`unproven_setup`] with `bank.example` proven by the bank.
async fn setup(backend: Backend) -> Setup {
    let s = unproven_setup(backend).await;
    prove_domain(&s.app, &s.dns, &s.admin, "bank.example").await;
    s
}

/// The bank's tenant with two staff of `bank.example`, which it has not proven yet.
async fn unproven_setup(backend: Backend) -> Setup {
    let dns = Dns::start().await;
    let app = spawn_with(backend, |config| {
        config.outbound_allow_private = true;
        config.sso_dns_resolver = Some(dns.addr.to_string());
    })
    .await;
    let idp = start_provider(&app);
    let tenant = app.tenant("Bank of Examples").await;
    let admin = app.token(&tenant).await;
    for (name, email, mode) in
        [("Alice Rao", "alice@bank.example", "sso"), ("Dev Iyer", "dev@bank.example", "password")]
    {
        let user = json!({"name": name, "EmailID": email, "roleId": 2, "loginAuthentication": mode});
        assert_eq!(app.post("/api/v1/users", &admin, user).await.status(), 201);
    }
    Setup { app, idp, admin, backend, dns }
}

fn provider_request(issuer: &str, app: &TestApp) -> Value {
    json!({
        "name": "bank-staff", "displayName": "Bank staff login", "issuer": issuer,
        "clientId": "signet", "clientSecret": CLIENT_SECRET, "emailDomains": ["bank.example"],
        "redirectUris": [app.url("/healthz")],
    })
}

async fn save_provider(s: &Setup) -> Value {
    let created = s.app.post("/api/v1/sso-providers", &s.admin, provider_request(&s.idp.issuer, &s.app)).await;
    assert_eq!(created.status(), 201);
    created.json().await.expect("json")
}

/// Exchanges a finished sign-in's one-time code for tokens at the token endpoint.
async fn redeem(app: &TestApp, code: &str) -> reqwest::Response {
    reqwest::Client::new()
        .post(app.url("/api/v1/auth/token"))
        .form(&[("grant_type", "sso_code"), ("code", code)])
        .send()
        .await
        .expect("token")
}

async fn staff_sign_in_through_their_organisations_provider_in_chromium(backend: Backend) {
    let s = setup(backend).await;
    let provider = save_provider(&s).await;
    assert_eq!(provider["callbackUrl"], s.app.url("/sso/callback"), "{provider}");
    assert_eq!(provider["hasClientSecret"], true);
    assert!(!provider.to_string().contains(CLIENT_SECRET), "the secret is never shown: {provider}");
    let listed: Value = s.app.get("/api/v1/sso-providers", &s.admin).await.json().await.expect("json");
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    // Renamed without its secret in the request: the secret is kept (sealed again under the new
    // name), as the provider's token endpoint, which checks it, shows below.
    let mut renamed = provider_request(&s.idp.issuer, &s.app);
    renamed["name"] = json!("bank-sso");
    renamed.as_object_mut().expect("object").remove("clientSecret");
    let id = provider["providerId"].as_i64().expect("providerId");
    let changed = s.app.put(&format!("/api/v1/sso-providers/{id}"), &s.admin, renamed).await;
    assert_eq!(changed.status(), 200);
    let changed: Value = changed.json().await.expect("json");
    assert_eq!((&changed["name"], &changed["hasClientSecret"]), (&json!("bank-sso"), &json!(true)), "{changed}");

    // The lookup offers the provider for the organisation's addresses, known or not.
    for email in ["alice@bank.example", "nobody@bank.example"] {
        let modes: Value = reqwest::Client::new()
            .post(s.app.url("/api/v1/auth/login-modes"))
            .json(&json!({"emailId": email}))
            .send()
            .await
            .expect("modes")
            .json()
            .await
            .expect("json");
        assert_eq!(modes["loginModes"], json!(["password", "email_otp", "sso"]), "{modes}");
        let offered = &modes["externalLoginProviders"][0];
        assert_eq!((offered["name"].clone(), offered["state"].clone()), (json!("bank-sso"), json!("enabled")));
    }
    let elsewhere: Value = reqwest::Client::new()
        .post(s.app.url("/api/v1/auth/login-modes"))
        .json(&json!({"emailId": "alice@other.example"}))
        .send()
        .await
        .expect("modes")
        .json()
        .await
        .expect("json");
    assert_eq!(elsewhere["loginModes"], json!(["password", "email_otp"]), "{elsewhere}");

    // Alice signs in at the provider; the browser comes back to the application with a code.
    let start = format!("{}&state=app-state-1", provider_start(&s, "alice@bank.example").await);
    let tag = format!("{:?}", s.backend).to_lowercase();
    let outcome = browse(&start, "alice@bank.example", &format!("{tag}-alice"));
    let final_url = outcome["finalUrl"].as_str().expect("finalUrl");
    assert!(final_url.starts_with(&s.app.url("/healthz?code=")), "{outcome}");
    assert_eq!(param(final_url, "state").as_deref(), Some("app-state-1"), "{outcome}");
    assert_eq!(outcome["problems"], json!([]), "{outcome}");
    let code = param(final_url, "code").expect("code");
    let tokens = redeem(&s.app, &code).await;
    assert_eq!(tokens.status(), 200);
    let tokens: Value = tokens.json().await.expect("json");
    let alice = tokens["access_token"].as_str().expect("access token").to_string();
    let me: Value = s.app.get("/api/v1/users/me", &alice).await.json().await.expect("json");
    assert_eq!(me["emailID"], "alice@bank.example", "{me}");
    expect_problem(redeem(&s.app, &code).await, 400, "invalid_grant").await;
    let logins: Value = s.app.get("/api/v1/users/me/logins", &alice).await.json().await.expect("json");
    assert_eq!(logins["localLoginProvider"], Value::Null, "{logins}");
    assert_eq!(logins["externalLoginProviders"][0]["name"], "bank-sso", "{logins}");
    let audit: Value = s.app.get("/api/v1/audit", &s.admin).await.json().await.expect("json");
    assert!(audit.to_string().contains("user.sso_linked"), "the link is audited: {audit}");

    // Linked by the subject from now on: a new address at the provider still signs in as Alice.
    s.idp.change_email("alice@bank.example", "alice.rao@bank.example");
    let start = provider_start(&s, "alice@bank.example").await;
    let outcome = browse(&start, "alice@bank.example", &format!("{tag}-alice-renamed"));
    let code = param(outcome["finalUrl"].as_str().unwrap_or_default(), "code").expect("code");
    let tokens: Value = redeem(&s.app, &code).await.json().await.expect("json");
    let access = tokens["access_token"].as_str().unwrap_or_else(|| panic!("{tokens} after {outcome}"));
    let me: Value = s.app.get("/api/v1/users/me", access).await.json().await.expect("json");
    assert_eq!(me["emailID"], "alice@bank.example", "{me}");

    // A user who signs in with a password may use the provider too, linked by verified address.
    let outcome = browse(&provider_start(&s, "dev@bank.example").await, "dev@bank.example", &format!("{tag}-dev"));
    let code = param(outcome["finalUrl"].as_str().unwrap_or_default(), "code").expect("code");
    assert_eq!(redeem(&s.app, &code).await.status(), 200);

    // Disabled users cannot sign in through the provider either.
    let search = json!({"searchText": "dev@bank.example"});
    let users: Value = s.app.post("/api/v1/users/internal-search", &s.admin, search).await.json().await.expect("json");
    let dev_id = users["items"][0]["subscriberId"].as_i64().unwrap_or_else(|| panic!("dev in {users}"));
    let disabled = s.app.post("/api/v1/users/disable", &s.admin, json!({"userId": dev_id, "browserInfo": {}})).await;
    assert_eq!(disabled.status(), 200);
    let outcome =
        browse(&provider_start(&s, "dev@bank.example").await, "dev@bank.example", &format!("{tag}-dev-disabled"));
    assert_eq!(outcome["status"], 403, "{outcome}");
    assert!(outcome["text"].as_str().is_some_and(|t| t.contains("not active")), "{outcome}");
}

/// The provider's start address as the login-mode lookup gives it for `email`.
async fn provider_start(s: &Setup, email: &str) -> String {
    let modes: Value = reqwest::Client::new()
        .post(s.app.url("/api/v1/auth/login-modes"))
        .json(&json!({"emailId": email}))
        .send()
        .await
        .expect("modes")
        .json()
        .await
        .expect("json");
    modes["externalLoginProviders"][0]["url"].as_str().expect("url").to_string()
}

async fn single_sign_on_refuses_what_it_must(backend: Backend) {
    let s = setup(backend).await;
    let tag = format!("{backend:?}").to_lowercase();

    // Saving: an issuer whose discovery document names another issuer (Signet has none at all),
    // a domain of no user of the tenant, a bad name.
    let mut wrong_issuer = provider_request(&s.app.base(), &s.app);
    wrong_issuer["issuer"] = json!(format!("{}/", s.idp.issuer));
    let refused =
        expect_problem(s.app.post("/api/v1/sso-providers", &s.admin, wrong_issuer).await, 400, "validation_failed")
            .await;
    assert!(refused["errors"]["issuer"].is_array(), "{refused}");
    let no_document = provider_request(&s.app.base(), &s.app);
    let refused =
        expect_problem(s.app.post("/api/v1/sso-providers", &s.admin, no_document).await, 400, "validation_failed")
            .await;
    assert!(refused["errors"]["issuer"].is_array(), "{refused}");
    let mut foreign = provider_request(&s.idp.issuer, &s.app);
    foreign["emailDomains"] = json!(["gmail.example"]);
    let refused =
        expect_problem(s.app.post("/api/v1/sso-providers", &s.admin, foreign).await, 400, "validation_failed").await;
    assert!(refused["errors"]["emailDomains"].is_array(), "{refused}");
    let mut bad_name = provider_request(&s.idp.issuer, &s.app);
    bad_name["name"] = json!("Bank Staff");
    expect_problem(s.app.post("/api/v1/sso-providers", &s.admin, bad_name).await, 400, "validation_failed").await;
    let provider = save_provider(&s).await;
    expect_problem(
        s.app.post("/api/v1/sso-providers", &s.admin, provider_request(&s.idp.issuer, &s.app)).await,
        409,
        "conflict",
    )
    .await;

    // Another tenant, even with a user of the domain, cannot claim it, nor see or delete the
    // provider.
    let other = s.app.tenant("Other Bank").await;
    let other_admin = s.app.token(&other).await;
    let user = json!({"name": "Mallory", "EmailID": "mallory@bank.example", "roleId": 2});
    assert_eq!(s.app.post("/api/v1/users", &other_admin, user).await.status(), 201);
    let mut claim = provider_request(&s.idp.issuer, &s.app);
    claim["name"] = json!("bank");
    let refused = expect_problem(s.app.post("/api/v1/sso-providers", &other_admin, claim).await, 409, "conflict").await;
    assert!(refused["detail"].as_str().is_some_and(|d| d.contains("bank.example")), "{refused}");
    let id = provider["providerId"].as_i64().expect("id");
    expect_problem(s.app.delete(&format!("/api/v1/sso-providers/{id}"), &other_admin).await, 404, "not_found").await;
    let theirs: Value = s.app.get("/api/v1/sso-providers", &other_admin).await.json().await.expect("json");
    assert_eq!(theirs, json!([]));

    // Starting: an address to return to that the provider does not list; an unknown provider.
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let start = s.app.url(&format!("/sso/{id}/start"));
    let evil = client.get(format!("{start}?return_to=https://evil.example/cb")).send().await.expect("start");
    assert_eq!(evil.status(), 400);
    assert_eq!(client.get(s.app.url("/sso/999999/start")).send().await.expect("start").status(), 404);
    let started = client.get(&start).send().await.expect("start");
    assert_eq!(started.status(), 303);
    let location = started.headers()["location"].to_str().expect("location").to_string();
    assert!(location.starts_with(&format!("{}/auth?", s.idp.issuer)), "{location}");
    assert_eq!(param(&location, "code_challenge_method").as_deref(), Some("S256"));
    assert!(
        started.headers()["set-cookie"].to_str().is_ok_and(|c| c.contains("HttpOnly") && c.contains("SameSite=Lax"))
    );

    // The provider's answer in a browser that did not start the sign-in (login CSRF), forged
    // or replayed states, and the provider's own refusal.
    let state = param(&location, "state").expect("state");
    let answer =
        client.get(s.app.url(&format!("/sso/callback?state={state}&code=stolen"))).send().await.expect("callback");
    assert_eq!(answer.status(), 403);
    let cookie = format!("signet_sso={state}");
    let denied = client
        .get(s.app.url(&format!("/sso/callback?state={state}&error=access_denied")))
        .header("cookie", &cookie)
        .send()
        .await
        .expect("callback");
    assert_eq!(denied.status(), 403);
    assert!(denied.text().await.expect("text").contains("access_denied"));
    let replayed = client
        .get(s.app.url(&format!("/sso/callback?state={state}&code=x")))
        .header("cookie", &cookie)
        .send()
        .await
        .expect("callback");
    assert_eq!(replayed.status(), 410, "a sign-in's answer is taken once");

    // Identities Signet must not sign in: an unverified address, an address of no account.
    let start = provider_start(&s, "bob@bank.example").await;
    let outcome = browse(&start, "unverified:alice@bank.example", &format!("{tag}-unverified"));
    assert_eq!(outcome["status"], 403, "{outcome}");
    assert!(outcome["text"].as_str().is_some_and(|t| t.contains("has not verified")), "{outcome}");
    let outcome = browse(&start, "nobody@bank.example", &format!("{tag}-nobody"));
    assert_eq!(outcome["status"], 403, "{outcome}");
    assert!(outcome["text"].as_str().is_some_and(|t| t.contains("No account")), "{outcome}");

    // A forged one-time code gets nothing; deleting the provider ends its offer and its links.
    expect_problem(redeem(&s.app, "forged").await, 400, "invalid_grant").await;
    assert_eq!(s.app.delete(&format!("/api/v1/sso-providers/{id}"), &s.admin).await.status(), 204);
    let modes: Value = reqwest::Client::new()
        .post(s.app.url("/api/v1/auth/login-modes"))
        .json(&json!({"emailId": "alice@bank.example"}))
        .send()
        .await
        .expect("modes")
        .json()
        .await
        .expect("json");
    assert_eq!(modes["externalLoginProviders"], json!([]), "{modes}");
}

/// An identity provider that publishes only its discovery document: enough to save it.
async fn discovery_only() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let issuer = format!("http://{}", listener.local_addr().expect("address"));
    let document = json!({
        "issuer": issuer, "authorization_endpoint": format!("{issuer}/auth"),
        "token_endpoint": format!("{issuer}/token"), "jwks_uri": format!("{issuer}/jwks"),
    });
    let router = axum::Router::new()
        .route("/.well-known/openid-configuration", axum::routing::get(move || async move { axum::Json(document) }));
    tokio::spawn(async move { axum::serve(listener, router).await });
    issuer
}

async fn a_saved_provider_is_changed_with_the_rules_of_saving(backend: Backend) {
    let smtp = SmtpSink::start();
    let dns = Dns::start().await;
    let app = spawn_with(backend, |config| {
        config.outbound_allow_private = true;
        config.sso_dns_resolver = Some(dns.addr.to_string());
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let (first_issuer, second_issuer) = (discovery_only().await, discovery_only().await);
    let tenant = app.tenant("Bank of Examples").await;
    let admin = app.token(&tenant).await;
    let (sara, sender) = signet_testkit::people::signed_in_user(&app, &smtp, &admin, "sara@bank.example", 2).await;
    for email in ["ben@branch.example", "cy@city.example"] {
        let user = app.post("/api/v1/users", &admin, json!({"name": email, "EmailID": email, "roleId": 2})).await;
        assert_eq!(user.status(), 201);
    }
    for domain in ["bank.example", "city.example"] {
        prove_domain(&app, &dns, &admin, domain).await;
    }
    let mut request = json!({
        "name": "bank-staff", "displayName": "Bank staff login", "issuer": first_issuer,
        "clientId": "signet", "clientSecret": CLIENT_SECRET, "emailDomains": ["bank.example"],
        "redirectUris": [app.url("/healthz")],
    });
    let saved = app.post("/api/v1/sso-providers", &admin, request.clone()).await;
    assert_eq!(saved.status(), 201);
    let id = saved.json::<Value>().await.expect("json")["providerId"].as_i64().expect("providerId");
    let mut branch = request.clone();
    (branch["name"], branch["emailDomains"]) = (json!("branch"), json!(["branch.example"]));
    assert_eq!(app.post("/api/v1/sso-providers", &admin, branch).await.status(), 201);
    let listed = async || app.get("/api/v1/sso-providers", &admin).await.json::<Value>().await.expect("json");
    let before = listed().await;
    let path = format!("/api/v1/sso-providers/{id}");
    // An account linked to the provider's subject, as a first sign-in links it.
    let row = app.store.sso_provider(id.into()).await.expect("read").expect("the provider");
    app.store
        .link_sso_identity(&row, "subject-1", signet_domain::PrincipalId::from(sara), "sara@bank.example")
        .await
        .expect("link");

    // Refused, nothing changed: a sender; another tenant's administrator, to whom it does not
    // exist; ids that name nothing or are no number; each rule of saving; a name or a domain
    // another provider of the tenant has.
    expect_problem(app.put(&path, &sender, request.clone()).await, 403, "forbidden").await;
    let other = app.tenant("Other Bank").await;
    let other_admin = app.token(&other).await;
    expect_problem(app.put(&path, &other_admin, request.clone()).await, 404, "not_found").await;
    for missing in ["/api/v1/sso-providers/0", "/api/v1/sso-providers/2147483648", "/api/v1/sso-providers/2000000000"] {
        expect_problem(app.put(missing, &admin, request.clone()).await, 404, "not_found").await;
    }
    expect_problem(app.put("/api/v1/sso-providers/x", &admin, request.clone()).await, 400, "validation_failed").await;
    let breaking = [
        ("name", json!("Bank Staff"), "name"),
        ("displayName", json!(" "), "displayName"),
        ("emailDomains", json!(["gmail.example"]), "emailDomains"),
        ("issuer", json!(app.base()), "issuer"),
        ("issuer", json!(format!("{first_issuer}/")), "issuer"),
        ("redirectUris", json!(["https://app.example/cb#x"]), "redirectUris"),
    ];
    for (field, value, named) in breaking {
        let mut body = request.clone();
        body[field] = value;
        let refused = expect_problem(app.put(&path, &admin, body).await, 400, "validation_failed").await;
        assert!(refused["errors"][named].is_array(), "{field}: {refused}");
    }
    for (field, value) in [("name", json!("branch")), ("emailDomains", json!(["bank.example", "branch.example"]))] {
        let mut body = request.clone();
        body[field] = value;
        expect_problem(app.put(&path, &admin, body).await, 409, "conflict").await;
    }
    assert_eq!(listed().await, before, "nothing changed");

    // Changed: name, button, domains, return addresses, the secret left out (kept).
    (request["name"], request["displayName"]) = (json!("bank-sso"), json!("Bank single sign-on"));
    request["emailDomains"] = json!(["city.example", "bank.example"]);
    request["redirectUris"] = json!([]);
    request.as_object_mut().expect("object").remove("clientSecret");
    let changed = app.put(&path, &admin, request.clone()).await;
    assert_eq!(changed.status(), 200);
    let changed: Value = changed.json().await.expect("json");
    assert_eq!(
        (&changed["providerId"], &changed["name"], &changed["displayName"], &changed["hasClientSecret"]),
        (&json!(id), &json!("bank-sso"), &json!("Bank single sign-on"), &json!(true)),
        "{changed}"
    );
    assert_eq!(
        (&changed["emailDomains"], &changed["redirectUris"]),
        (&json!(["bank.example", "city.example"]), &json!([]))
    );
    assert!(!changed.to_string().contains(CLIENT_SECRET), "the secret is never shown: {changed}");
    let now = listed().await;
    assert_eq!(now[0], changed, "{now}");
    assert_eq!(now[1], before[1], "the other provider is untouched");
    let modes: Value = app
        .client
        .post(app.url("/api/v1/auth/login-modes"))
        .json(&json!({"emailId": "cy@city.example"}))
        .send()
        .await
        .expect("modes")
        .json()
        .await
        .expect("json");
    assert_eq!(modes["externalLoginProviders"][0]["name"], "bank-sso", "{modes}");
    let linked = app.store.sso_linked_principal(id.into(), "subject-1").await.expect("read");
    assert_eq!(linked, Some(signet_domain::PrincipalId::from(sara)), "the same issuer keeps the links");

    // An empty secret makes it a public client; a given one is sealed; a new issuer ends the
    // links to the old one's subjects.
    request["clientSecret"] = json!("");
    let public: Value = app.put(&path, &admin, request.clone()).await.json().await.expect("json");
    assert_eq!(public["hasClientSecret"], false, "{public}");
    (request["clientSecret"], request["issuer"]) = (json!("another-secret"), json!(second_issuer));
    let moved: Value = app.put(&path, &admin, request.clone()).await.json().await.expect("json");
    assert_eq!((&moved["hasClientSecret"], &moved["issuer"]), (&json!(true), &json!(second_issuer)), "{moved}");
    assert_eq!(app.store.sso_linked_principal(id.into(), "subject-1").await.expect("read"), None);

    let audit: Value = app.get("/api/v1/audit", &admin).await.json().await.expect("json");
    let updates: Vec<Value> = audit
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["action"] == "sso.provider_updated")
        .filter_map(|e| e["detail"].as_str().and_then(|d| serde_json::from_str(d).ok()))
        .collect();
    let flags: Vec<(Value, Value)> =
        updates.iter().map(|d| (d["clientSecretReplaced"].clone(), d["linksEnded"].clone())).collect();
    assert_eq!(flags, [(json!(false), json!(false)), (json!(true), json!(false)), (json!(true), json!(true))]);
}

async fn a_trial_starts_once_the_sign_up_provider_proves_the_address(backend: Backend) {
    // The provider must know Signet's callback before Signet knows the provider: Signet gets a
    // port chosen beforehand.
    let port = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port();
    let idp = start_provider_for(&format!("http://127.0.0.1:{port}/sso/callback"));
    let issuer = idp.issuer.clone();
    let app = spawn_with(backend, |config| {
        config.listen = format!("127.0.0.1:{port}");
        config.outbound_allow_private = true;
        config.free_trial = true;
        config.sso_signup_providers = vec![signet_services::platform::config::SignupProvider {
            name: "testidp".into(),
            display_name: "Test IdP".into(),
            issuer,
            client_id: "signet".into(),
            client_secret: Some(CLIENT_SECRET.into()),
        }];
    })
    .await;
    let tag = format!("{backend:?}").to_lowercase();
    let sign_up = |extra: Value| {
        let mut body = json!({"emailId": "founder@startup.example", "password": signet_testkit::people::GOOD_PASSWORD,
                              "name": "Founder", "isSSO": true, "ssoProvider": "testidp"});
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        reqwest::Client::new().post(app.url("/api/v1/auth/free-trial")).json(&body).send()
    };
    let refused =
        expect_problem(sign_up(json!({"ssoProvider": "elsewhere"})).await.expect("sign-up"), 400, "validation_failed")
            .await;
    assert!(refused["errors"]["ssoProvider"].is_array(), "{refused}");
    let refused = expect_problem(
        sign_up(json!({"googleAccessKey": "ya29.token"})).await.expect("sign-up"),
        400,
        "validation_failed",
    )
    .await;
    assert!(refused["errors"]["googleAccessKey"].is_array(), "{refused}");

    let answer = sign_up(json!({})).await.expect("sign-up");
    assert_eq!(answer.status(), 202);
    let answer: Value = answer.json().await.expect("json");
    let redirect = answer["redirectUrl"].as_str().expect("redirectUrl").to_string();
    assert!(redirect.starts_with(&app.url("/sso/signup/")), "{answer}");

    // The sign-up's token is no e-mailed link: it cannot skip the provider.
    let token = redirect.rsplit('/').next().expect("token");
    let skipped =
        reqwest::Client::new().post(app.url("/account/verify")).form(&[("token", token)]).send().await.expect("verify");
    assert_eq!(skipped.status(), 410);

    // Another address at the provider proves nothing; the right one starts the trial, once.
    let outcome = browse(&redirect, "someone.else@startup.example", &format!("{tag}-signup-other"));
    assert_eq!(outcome["status"], 403, "{outcome}");
    assert!(outcome["text"].as_str().is_some_and(|t| t.contains("did not confirm")), "{outcome}");
    let outcome = browse(&redirect, "founder@startup.example", &format!("{tag}-signup"));
    assert_eq!(outcome["status"], 200, "{outcome}");
    assert!(outcome["text"].as_str().is_some_and(|t| t.contains("Your trial is ready")), "{outcome}");
    let again = browse(&redirect, "founder@startup.example", &format!("{tag}-signup-again"));
    assert_eq!(again["status"], 410, "{again}");

    let tokens = reqwest::Client::new()
        .post(app.url("/api/v1/auth/token"))
        .form(&[
            ("grant_type", "password"),
            ("username", "founder@startup.example"),
            ("password", signet_testkit::people::GOOD_PASSWORD),
        ])
        .send()
        .await
        .expect("token");
    assert_eq!(tokens.status(), 200, "the founder administers the trial tenant");

    // Signing up again with the address proves it again, and finds the account.
    let again: Value = sign_up(json!({})).await.expect("sign-up").json().await.expect("json");
    let outcome = browse(
        again["redirectUrl"].as_str().expect("redirectUrl"),
        "founder@startup.example",
        &format!("{tag}-signup-exists"),
    );
    assert_eq!(outcome["status"], 409, "{outcome}");
    drop(idp);
}

/// Runs `sign-in.mjs` with `args` (plus the screenshot folder) as a child process.
fn sign_in_driver(args: Value, shots: &str) -> Child {
    require_driver();
    let mut args = args;
    args["shots"] = json!(target_dir().join("browser-artifacts").join("sign-in").join(shots));
    Command::new("node")
        .arg(Path::new(DRIVER_DIR).join("sign-in.mjs"))
        .arg(args.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node (Node.js 20+) must be installed")
}

async fn driver_outcome(child: Child) -> Value {
    let output = tokio::task::spawn_blocking(move || child.wait_with_output()).await.expect("join").expect("driver");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "sign-in driver failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let outcome: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("driver output is not JSON ({e}):\n{stdout}"));
    assert_eq!(outcome["problems"], json!([]), "{outcome}");
    outcome
}

/// The account the page signed in: its one-time code redeemed, then `/users/me`.
async fn signed_in_as(app: &TestApp, outcome: &Value, state: &str) -> Value {
    let url = outcome["finalUrl"].as_str().unwrap_or_default();
    assert!(url.starts_with(&app.url("/healthz?code=")), "{outcome}");
    assert_eq!(param(url, "state").as_deref(), Some(state), "{outcome}");
    let tokens: Value = redeem(app, &param(url, "code").expect("code")).await.json().await.expect("json");
    let access = tokens["access_token"].as_str().unwrap_or_else(|| panic!("{tokens}"));
    app.get("/api/v1/users/me", access).await.json().await.expect("json")
}

async fn signets_sign_in_page_takes_a_password_an_e_mailed_code_or_single_sign_on(backend: Backend) {
    let smtp = signet_testkit::smtp::SmtpSink::start();
    let dns = Dns::start().await;
    let app = spawn_with(backend, |config| {
        config.outbound_allow_private = true;
        config.sso_dns_resolver = Some(dns.addr.to_string());
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let idp = start_provider(&app);
    let tenant = app.tenant("Bank of Examples").await;
    let admin = app.token(&tenant).await;
    for (name, email, mode) in [
        ("Asha", "asha@bank.example", "password"),
        ("Om", "om@bank.example", "email_otp"),
        ("Alice", "alice@bank.example", "sso"),
    ] {
        let user = json!({"name": name, "EmailID": email, "roleId": 2, "loginAuthentication": mode});
        assert_eq!(app.post("/api/v1/users", &admin, user).await.status(), 201);
    }
    prove_domain(&app, &dns, &admin, "bank.example").await;
    let s = Setup { app, idp, admin, backend, dns };
    save_provider(&s).await;
    let app = &s.app;
    let tag = format!("{backend:?}").to_lowercase();
    let start = app.url("/account/sign-in?return_to=/healthz&state=page-1");

    // A password (set through the e-mailed invitation); a wrong one first.
    let token = signet_testkit::people::link_token(&smtp, "asha@bank.example").await;
    assert_eq!(
        signet_testkit::people::set_password(app, &token, signet_testkit::people::GOOD_PASSWORD).await.status(),
        204
    );
    let wrong = driver_outcome(sign_in_driver(
        json!({"start": start, "email": "asha@bank.example", "password": "not her password at all"}),
        &format!("{tag}-password-wrong"),
    ))
    .await;
    assert_eq!(wrong["status"], 400, "{wrong}");
    assert!(wrong["text"].as_str().is_some_and(|t| t.contains("Wrong e-mail address or password")), "{wrong}");
    let outcome = driver_outcome(sign_in_driver(
        json!({"start": start, "email": "asha@bank.example", "password": signet_testkit::people::GOOD_PASSWORD}),
        &format!("{tag}-password"),
    ))
    .await;
    assert_eq!(signed_in_as(app, &outcome, "page-1").await["emailID"], "asha@bank.example");

    // A code by e-mail (through the real SMTP server), typed in while the page waits.
    let code_file = tempfile::NamedTempFile::new().expect("code file").into_temp_path();
    let driver = sign_in_driver(
        json!({"start": start, "email": "om@bank.example", "codeFile": code_file.to_path_buf(), "javaScript": false}),
        &format!("{tag}-code"),
    );
    let mail = smtp.wait_for("om@bank.example", "Your Signet sign-in code").await;
    let text = mail["text"].as_str().expect("text");
    let code = text.split(|c: char| !c.is_ascii_digit()).find(|w| w.len() == 6).expect("a six-digit code");
    std::fs::write(&code_file, code).expect("write code");
    let outcome = driver_outcome(driver).await;
    assert_eq!(signed_in_as(app, &outcome, "page-1").await["emailID"], "om@bank.example");

    // The organisation's single sign-on, offered on the page for the address's domain.
    let outcome = driver_outcome(sign_in_driver(
        json!({"start": start, "email": "alice@bank.example", "ssoLogin": "alice@bank.example"}),
        &format!("{tag}-sso"),
    ))
    .await;
    assert_eq!(signed_in_as(app, &outcome, "page-1").await["emailID"], "alice@bank.example");

    // Another site cannot post a sign-in (no cookie, no match), and the page returns only to
    // paths on Signet.
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let forged = client
        .post(app.url("/account/sign-in"))
        .form(&[
            ("csrf", "x"),
            ("return_to", "/healthz"),
            ("action", "password"),
            ("email", "asha@bank.example"),
            ("password", signet_testkit::people::GOOD_PASSWORD),
        ])
        .send()
        .await
        .expect("post");
    assert_eq!(forged.status(), 403);
    for away in ["https://evil.example/", "//evil.example/x"] {
        let query = serde_urlencoded::to_string([("return_to", away)]).expect("query");
        let page = client.get(app.url(&format!("/account/sign-in?{query}"))).send().await.expect("page");
        assert_eq!(page.status(), 400, "{away}");
    }
    // No application named (a bookmark): the console's own sign-in, not a dead end.
    let bookmarked = client.get(app.url("/account/sign-in?return_to=")).send().await.expect("page");
    assert_eq!(bookmarked.status(), 303);
    assert_eq!(bookmarked.headers()["location"], "/app");
}

/// Issue 30, item 7: another tenant, with one user of the bank's domain, saved its own provider
/// for `bank.example`; the sign-in page then offered it to the bank's staff, and the bank could
/// no longer save a provider for its own domain. Now a provider serves a domain only once its
/// tenant proved the domain (a DNS TXT record), a pending claim blocks no one, and a domain
/// another tenant proved cannot be claimed at all.
async fn another_tenant_cannot_take_an_organisations_domain(backend: Backend) {
    let s = unproven_setup(backend).await;
    let squatter = s.app.tenant("Squatters").await;
    let squatter_admin = s.app.token(&squatter).await;
    let mallory = json!({"name": "Mallory", "EmailID": "mallory@bank.example", "roleId": 2});
    assert_eq!(s.app.post("/api/v1/users", &squatter_admin, mallory).await.status(), 201);
    let mut claim = provider_request(&s.idp.issuer, &s.app);
    (claim["name"], claim["displayName"]) = (json!("squat"), json!("Squatter login"));
    let squat = s.app.post("/api/v1/sso-providers", &squatter_admin, claim.clone()).await;
    assert_eq!(squat.status(), 201, "an unproven claim may be saved: it serves nothing");
    let squat: Value = squat.json().await.expect("json");

    // Unproven, the squatter's provider is offered to nobody.
    let modes = login_modes(&s.app, "alice@bank.example").await;
    assert_eq!(modes["loginModes"], json!(["password", "email_otp"]), "{modes}");
    assert_eq!(modes["externalLoginProviders"], json!([]), "{modes}");
    // And it cannot prove the domain: the bank's DNS does not hold its value.
    let path = "/api/v1/sso-providers/domain-proofs/bank.example";
    let started = s.app.put(path, &squatter_admin, json!(null)).await;
    assert_eq!(started.status(), 200);
    let squatter_proof: Value = started.json().await.expect("json");
    let check = format!("{path}/check");
    expect_problem(s.app.post(&check, &squatter_admin, json!(null)).await, 409, "state_conflict").await;

    // The bank proves its domain (the squatter's pending proof is no obstacle) and saves its
    // provider, which is the one offered.
    prove_domain(&s.app, &s.dns, &s.admin, "bank.example").await;
    save_provider(&s).await;
    let modes = login_modes(&s.app, "alice@bank.example").await;
    assert_eq!(modes["externalLoginProviders"][0]["name"], "bank-staff", "{modes}");
    assert_eq!(modes["externalLoginProviders"].as_array().map(Vec::len), Some(1), "{modes}");

    // Proven by the bank, the domain cannot be claimed by the squatter any more: not even with
    // its own value published at the domain, not by starting again, not with a provider.
    s.dns.publish(
        squatter_proof["recordName"].as_str().expect("recordName"),
        squatter_proof["recordValue"].as_str().expect("recordValue"),
    );
    expect_problem(s.app.post(&check, &squatter_admin, json!(null)).await, 409, "conflict").await;
    expect_problem(s.app.put(path, &squatter_admin, json!(null)).await, 409, "conflict").await;
    claim["name"] = json!("squat-again");
    let refused =
        expect_problem(s.app.post("/api/v1/sso-providers", &squatter_admin, claim.clone()).await, 409, "conflict")
            .await;
    assert!(refused["detail"].as_str().is_some_and(|d| d.contains("bank.example")), "{refused}");
    let squat_path = format!("/api/v1/sso-providers/{}", squat["providerId"].as_i64().expect("providerId"));
    claim["name"] = json!("squat");
    expect_problem(s.app.put(&squat_path, &squatter_admin, claim).await, 409, "conflict").await;
    let proofs: Value =
        s.app.get("/api/v1/sso-providers/domain-proofs", &squatter_admin).await.json().await.expect("json");
    assert_eq!(proofs[0]["status"], "pending", "{proofs}");
    let modes = login_modes(&s.app, "mallory@bank.example").await;
    assert_eq!(modes["externalLoginProviders"][0]["name"], "bank-staff", "{modes}");
}

/// Issue 30, item 3: a user whose role has only `manage_settings` saved its own provider for
/// the tenant's domain; its first sign-in linked to any active user of the address, the
/// administrator included, and the code became a session without the account's second factor.
/// Now a provider links only accounts whose role its last saver could grant, and a user with
/// an authenticator app gives its code after the provider unless an administrator lets the
/// provider stand in for it.
async fn a_settings_manager_cannot_sign_in_as_anyone_and_the_second_factor_still_counts(backend: Backend) {
    let smtp = SmtpSink::start();
    let dns = Dns::start().await;
    let app = spawn_with(backend, |config| {
        config.outbound_allow_private = true;
        config.sso_dns_resolver = Some(dns.addr.to_string());
        config.smtp_url = Some(smtp.url());
        config.workers = true;
        config.worker_poll_ms = 50;
    })
    .await;
    let idp = start_provider(&app);
    let tenant = app.tenant("Bank of Examples").await;
    let admin = app.token(&tenant).await;
    prove_domain(&app, &dns, &admin, "bank.example").await;
    let role = app.post("/api/v1/roles", &admin, json!({"name": "Settings", "permissions": ["manage_settings"]})).await;
    assert_eq!(role.status(), 201);
    let role_id = role.json::<Value>().await.expect("json")["roleId"].as_i64().expect("roleId");
    let (_, settings) = signet_testkit::people::signed_in_user(&app, &smtp, &admin, "set@bank.example", role_id).await;
    signet_testkit::people::signed_in_user(&app, &smtp, &admin, "boss@bank.example", 1).await;
    let (_, dev) = signet_testkit::people::signed_in_user(&app, &smtp, &admin, "dev@bank.example", 2).await;
    let enrol: Value = app.post("/api/v1/users/me/totp", &dev, json!(null)).await.json().await.expect("json");
    let secret = enrol["secret"].as_str().expect("secret").to_string();
    let confirm = json!({"code": signet_testkit::people::authenticator_code(&secret, 0)});
    assert_eq!(app.post("/api/v1/users/me/totp/confirm", &dev, confirm).await.status(), 204);
    let s = Setup { app, idp, admin, backend, dns };
    let tag = format!("{backend:?}").to_lowercase();

    // The settings manager saves its own provider (it may manage providers) ...
    let created = s.app.post("/api/v1/sso-providers", &settings, provider_request(&s.idp.issuer, &s.app)).await;
    assert_eq!(created.status(), 201);
    let id = created.json::<Value>().await.expect("json")["providerId"].as_i64().expect("providerId");
    // ... which signs in neither the administrator nor a sender: it could grant neither role.
    for who in ["boss", "dev"] {
        let email = format!("{who}@bank.example");
        let outcome = browse(&provider_start(&s, &email).await, &email, &format!("{tag}-{who}-settings-provider"));
        assert_eq!(outcome["status"], 403, "{outcome}");
        assert!(outcome["text"].as_str().is_some_and(|t| t.contains("No account")), "{outcome}");
    }
    // Nor may it let the provider stand in for the second factor.
    let waive = json!({"replacesSecondFactor": true});
    expect_problem(s.app.put("/api/v1/sso-providers/settings", &settings, waive.clone()).await, 403, "forbidden").await;

    // Saved again by an administrator, it links the sender, who still gives the authenticator
    // code after the provider (the tenant's default) before the application gets its code.
    let path = format!("/api/v1/sso-providers/{id}");
    assert_eq!(s.app.put(&path, &s.admin, provider_request(&s.idp.issuer, &s.app)).await.status(), 200);
    let start = format!("{}&state=dev-1", provider_start(&s, "dev@bank.example").await);
    let asked = browse(&start, "dev@bank.example", &format!("{tag}-dev-asked"));
    assert_eq!(asked["status"], 200, "{asked}");
    assert!(asked["finalUrl"].as_str().is_some_and(|u| u.starts_with(&s.app.url("/sso/callback"))), "{asked}");
    assert!(asked["text"].as_str().is_some_and(|t| t.contains("authenticator")), "{asked}");
    let code = signet_testkit::people::authenticator_code(&secret, 1);
    let outcome = browse_with(&start, "dev@bank.example", &format!("{tag}-dev-totp"), json!({"totp": code}));
    let final_url = outcome["finalUrl"].as_str().unwrap_or_default();
    assert!(final_url.starts_with(&s.app.url("/healthz?code=")), "{outcome}");
    assert_eq!(param(final_url, "state").as_deref(), Some("dev-1"), "{outcome}");
    let tokens: Value = redeem(&s.app, &param(final_url, "code").expect("code")).await.json().await.expect("json");
    let access = tokens["access_token"].as_str().unwrap_or_else(|| panic!("{tokens}"));
    let me: Value = s.app.get("/api/v1/users/me", access).await.json().await.expect("json");
    assert_eq!(me["emailID"], "dev@bank.example", "{me}");

    // An administrator lets the provider stand in for a sender's second factor.
    let settings_now = s.app.put("/api/v1/sso-providers/settings", &s.admin, waive).await;
    assert_eq!(settings_now.status(), 200);
    let read: Value = s.app.get("/api/v1/sso-providers/settings", &s.admin).await.json().await.expect("json");
    assert_eq!(read["replacesSecondFactor"], true, "{read}");
    let outcome =
        browse(&provider_start(&s, "dev@bank.example").await, "dev@bank.example", &format!("{tag}-dev-waived"));
    assert!(outcome["finalUrl"].as_str().is_some_and(|u| u.starts_with(&s.app.url("/healthz?code="))), "{outcome}");

    // Saved again by the settings manager, the provider no longer signs in the linked sender:
    // the saver's reach is checked at every sign-in, not only the first.
    assert_eq!(s.app.put(&path, &settings, provider_request(&s.idp.issuer, &s.app)).await.status(), 200);
    let outcome =
        browse(&provider_start(&s, "dev@bank.example").await, "dev@bank.example", &format!("{tag}-dev-resaved"));
    assert_eq!(outcome["status"], 403, "{outcome}");
    assert!(outcome["text"].as_str().is_some_and(|t| t.contains("may not sign in")), "{outcome}");
}
